/*
 * io.cost as a blk-mq queue's rq_qos policy (Linux 6.12 block/blk-iocost.c
 * ioc_rqos_ops, blk_iocost_init): the hooks of src/block/blkcg_int.h over
 * the controller of blk_iocost.c. Installed, as the kernel does at the first
 * write of io.cost.qos or io.cost.model, when either file was written for a
 * blk-mq run; it then does nothing until enable=1 (ioc->enabled).
 *
 * What the kernel keeps in the bio (bi_iocost_cost) lives here in a table
 * keyed by the bio, from throttle or merge to done_bio: struct ios_bio has
 * no io.cost field. Issue-as-root is REQ_META (no swap in the lab).
 * Device class: rotational from the queue; blk_queue_depth() is the
 * device's tag depth (SCSI's queue_depth; NVMe's nr_requests is never 1).
 */
#include <errno.h>
#include <stdlib.h>
#include "blk_iocost.h"
#include "blkcg_int.h"
#include "mq_int.h"

struct ioc_ent {
	struct ios_iocost_bio ib;
	struct ios_bio *bio;
	struct ioc_ent *next;
};

struct iocost_q {
	struct ios_rq_qos rqos;
	struct ios_queue *q;
	struct ios_iocost *ioc;
	struct ioc_ent **tab;		/* chained, power-of-two buckets */
	unsigned nr_buckets, nr;
};

static unsigned bucket(const struct iocost_q *iq, const struct ios_bio *bio)
{
	uintptr_t h = (uintptr_t)bio;

	h ^= h >> 17;
	h *= 0x9e3779b1u;
	return (unsigned)(h >> 7) & (iq->nr_buckets - 1);
}

static int ent_grow(struct iocost_q *iq)
{
	unsigned n = iq->nr_buckets ? iq->nr_buckets * 2 : 256;
	struct ioc_ent **t = calloc(n, sizeof(*t));
	unsigned old = iq->nr_buckets;
	struct ioc_ent **ot = iq->tab;

	if (!t)
		return -1;
	iq->tab = t;
	iq->nr_buckets = n;
	for (unsigned i = 0; i < old; i++) {
		struct ioc_ent *e, *nx;

		for (e = ot[i]; e; e = nx) {
			unsigned b = bucket(iq, e->bio);

			nx = e->next;
			e->next = t[b];
			t[b] = e;
		}
	}
	free(ot);
	return 0;
}

static struct ioc_ent *ent_find(const struct iocost_q *iq, const struct ios_bio *bio, bool unlink)
{
	struct ioc_ent **pp;

	if (!iq->nr_buckets)
		return NULL;
	for (pp = &iq->tab[bucket(iq, bio)]; *pp; pp = &(*pp)->next) {
		struct ioc_ent *e = *pp;

		if (e->bio == bio) {
			if (unlink)
				*pp = e->next;
			return e;
		}
	}
	return NULL;
}

static void ent_insert(struct iocost_q *iq, struct ioc_ent *e)
{
	unsigned b;

	if (iq->nr >= iq->nr_buckets && ent_grow(iq) && !iq->nr_buckets)
		abort();	/* no table at all: out of memory */
	b = bucket(iq, e->bio);
	e->next = iq->tab[b];
	iq->tab[b] = e;
	iq->nr++;
}

static struct ioc_ent *ent_new(struct ios_bio *bio)
{
	struct ioc_ent *e = calloc(1, sizeof(*e));

	if (!e)
		abort();
	e->bio = bio;
	e->ib.cg = ios_bio_blkcg(bio);
	e->ib.sector = bio->sector;
	e->ib.nr_sectors = bio->nr_sectors;
	e->ib.dir = bio->dir;
	e->ib.issue_as_root = (bio->flags & IOS_REQ_META) != 0;
	e->ib.priv = bio;
	return e;
}

static struct iocost_q *to_iq(struct ios_rq_qos *r)
{
	return r->priv;
}

/* a waiter's vtime came: it goes on down the chain to its tag */
static void iocq_release(void *arg, struct ios_iocost_bio *ib, uint64_t now)
{
	struct iocost_q *iq = arg;

	ios_rq_qos_release(iq->q, &iq->rqos, ib->priv, now);
	ios_mq_kick_timer(iq->q, now);
}

static int iocq_throttle(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			 uint64_t now)
{
	struct iocost_q *iq = to_iq(r);
	struct ioc_ent *e = ent_new(bio);
	int ret = ios_iocost_throttle(iq->ioc, &e->ib, now);

	/* issued as debt with a delay due: blkcg_schedule_throttle (6.12) */
	if (e->ib.throttle_task && bio->ioc)
		ios_blkcg_schedule_throttle(q, bio->ioc);
	if (!ret && !e->ib.cost) {
		free(e);
		return 0;
	}
	ent_insert(iq, e);
	return ret;
}

static void iocq_merge(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		       struct ios_bio *bio, uint64_t now)
{
	struct iocost_q *iq = to_iq(r);
	struct ioc_ent *first = rq->bio ? ent_find(iq, rq->bio, false) : NULL;
	struct ioc_ent *e = ent_new(bio);

	ios_iocost_merge(iq->ioc, &e->ib, rq->sector, rq->nr_sectors, first ? first->ib.cost : 0,
			 now);
	/* a merge booked as debt with a delay due: blkcg_schedule_throttle */
	if (e->ib.throttle_task && bio->ioc)
		ios_blkcg_schedule_throttle(q, bio->ioc);
	if (!e->ib.cost || ent_find(iq, bio, false)) {
		free(e);
		return;
	}
	ent_insert(iq, e);
}

static void iocq_done_bio(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			  uint64_t now)
{
	struct iocost_q *iq = to_iq(r);
	struct ioc_ent *e = ent_find(iq, bio, true);

	(void)q;
	(void)now;
	if (!e)
		return;
	iq->nr--;
	ios_iocost_done_bio(iq->ioc, &e->ib);
	free(e);
}

static void iocq_done(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		      uint64_t now)
{
	struct iocost_q *iq = to_iq(r);
	/* the kernel's alloc_time_ns (allocation began) and start_time_ns (tag) */
	uint64_t start = rq->alloc_ns, alloc = start - rq->tag_wait_ns;

	(void)q;
	ios_iocost_done(iq->ioc, rq->dir, rq->nr_sectors, alloc, start, now);
}

static uint64_t iocq_next_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	(void)q;
	(void)now;
	return ios_iocost_next_timer(to_iq(r)->ioc);
}

static void iocq_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	(void)q;
	ios_iocost_timer(to_iq(r)->ioc, now);
}

static void iocq_exit(struct ios_queue *q, struct ios_rq_qos *r)
{
	struct iocost_q *iq = to_iq(r);

	(void)q;
	for (unsigned i = 0; i < iq->nr_buckets; i++) {
		struct ioc_ent *e, *nx;

		for (e = iq->tab[i]; e; e = nx) {
			nx = e->next;
			free(e);
		}
	}
	free(iq->tab);
	ios_iocost_destroy(iq->ioc);
	free(iq);
}

static const struct ios_rq_qos_ops iocost_rqos_ops = {
	.throttle = iocq_throttle,
	.merge = iocq_merge,
	.done_bio = iocq_done_bio,
	.done = iocq_done,
	.next_timer = iocq_next_timer,
	.timer = iocq_timer,
	.exit = iocq_exit,
};


/*
 * ioc_qos_write (6.12): enable=1 turns writeback throttling's default off
 * (wbt_disable_default), enable=0 back on (wbt_enable_default); a latency
 * the user wrote to wbt_lat_usec stays either way (blk_wbt.c).
 */
static void iocq_wbt(struct ios_queue *q)
{
	const struct ios_cgroup_v2 *v = q->blkcg->blkgs[0].cgroup->v2;

	if (v && v->qos.enable)
		ios_wbt_disable_default(q);
	else
		ios_wbt_enable_default(q);
}

/* conf_updated: a later job's exec_prerun wrote io.cost.qos, .model or io.weight */
static void iocq_conf_updated(struct ios_queue *q, struct ios_blkg *g, uint64_t now)
{
	struct ios_rq_qos *r = ios_rq_qos_id(q, IOS_RQ_QOS_COST);

	(void)g;
	if (r) {
		ios_iocost_configure(to_iq(r)->ioc, q->blkcg->blkgs[0].cgroup->v2, now);
		iocq_wbt(q);
	}
}

int ios_blk_iocost_init(struct ios_queue *q, unsigned hz, uint64_t now)
{
	struct ios_iocost_dev dev = { .rotational = q->rotational, .queue_depth = q->depth,
				      .hz = hz };
	struct iocost_q *iq;
	int ret;

	if (!q->mq || !q->blkcg)
		return -EOPNOTSUPP;
	iq = calloc(1, sizeof(*iq));
	if (!iq)
		return -ENOMEM;
	iq->q = q;
	iq->ioc = ios_iocost_create(q->blkcg, &dev, iocq_release, iq, now);
	if (!iq->ioc) {
		free(iq);
		return -ENOMEM;
	}
	iq->rqos.ops = &iocost_rqos_ops;
	iq->rqos.id = IOS_RQ_QOS_COST;
	iq->rqos.name = "cost";
	iq->rqos.priv = iq;
	ret = ios_rq_qos_add(q, &iq->rqos);
	if (ret) {
		ios_iocost_destroy(iq->ioc);
		free(iq);
		return ret;
	}
	ios_iocost_configure(iq->ioc, q->blkcg->blkgs[0].cgroup->v2, now);
	iocq_wbt(q);
	q->blkcg->conf_updated[IOS_BLKCG_COST_QOS] = iocq_conf_updated;
	q->blkcg->conf_updated[IOS_BLKCG_COST_MODEL] = iocq_conf_updated;
	q->blkcg->conf_updated[IOS_BLKCG_WEIGHT] = iocq_conf_updated;
	return 0;
}

struct ios_iocost_log *ios_blk_iocost_take_log(struct ios_queue *q, int *err)
{
	struct ios_rq_qos *r = q->mq ? ios_rq_qos_id(q, IOS_RQ_QOS_COST) : NULL;

	*err = 0;
	return r ? ios_iocost_take_log(to_iq(r)->ioc, err) : NULL;
}
