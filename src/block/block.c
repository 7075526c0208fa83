/*
 * The request queue: merging, request allocation and dispatch.
 *
 * This follows the legacy (single-queue) block layer of Linux 2.6.31, the
 * one CFQ, AS and deadline were written for:
 *
 * - A bio is first offered to the one-hit cache (the request it last merged
 *   with), then to a hash of queued requests keyed by their end sector (back
 *   merge), then to the scheduler's own lookup (front merge). A merge needs
 *   the same direction, a mergeable request (not a flush or FUA write, not
 *   dispatched), the combined size within queue.max_sectors_kb, and the
 *   scheduler's allow_merge() consent. After a merge the grown request is
 *   tried against its neighbour (the scheduler's former/latter), so two
 *   requests that became contiguous collapse into one.
 * - No merge: a request is allocated from the request list. As in 2.6.30+
 *   there are two lists, sync and async, each limited to queue.nr_requests;
 *   a scheduler's may_queue() can let a task exceed that up to 3/2 of it
 *   (ELV_MQUEUE_MUST). A task that finds no slot sleeps; sleepers are served
 *   in order as slots free, before newcomers.
 * - Requests go to the scheduler; flushes go straight to the dispatch list.
 *   The queue dispatches while the device has free tags, and arms the
 *   host's timer for the scheduler's next_wakeup().
 *
 * Not modelled: queue plugging (2.6.31 unplugged at once for sync I/O, which
 * is what the workloads here do), barriers, requeues from the device.
 *
 * What this layer shares with blk-mq lives beside it: the request's life,
 * disk statistics, svc_v, trace points and the owner hook in rq.c, the
 * merge rules and the back-merge hash in merge.c (block_int.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "blkcg_int.h"
#include "mq_int.h"
#include "iosched/scope.h"
#include "iosched/suggest.h"

#define Q_HARD_LIMIT(nr) ((nr) + (nr) / 2)

static const char *const q_zoned_models[] = { "none", "host-managed", NULL };

const struct ios_tunable ios_queue_tunables_table[] = {
	{ "nr_requests", IOS_TUN_INT, offsetof(struct ios_queue_tunables, nr_requests),
	  4, 1048576, "128", "",
	  "request slots per request list (sync and async each)", 0, NULL },
	{ "max_sectors_kb", IOS_TUN_SIZE, offsetof(struct ios_queue_tunables, max_sectors_bytes),
	  4, 32767, "512", "KiB", "largest request the block layer builds by merging", 0, NULL },
	{ "max_hw_sectors_kb", IOS_TUN_SIZE,
	  offsetof(struct ios_queue_tunables, max_hw_sectors_bytes), 4, 32767, "32767", "KiB",
	  "largest request the device accepts", IOS_TUN_RO, NULL },
	{ "read_ahead_kb", IOS_TUN_SIZE, offsetof(struct ios_queue_tunables, read_ahead_bytes),
	  0, 1048576, "128", "KiB", "maximum readahead window of the page cache", 0, NULL },
	{ "rotational", IOS_TUN_BOOL, offsetof(struct ios_queue_tunables, rotational),
	  0, 1, NULL, "", "seeks cost time (default: the device's own flag)", 0, NULL },
	{ "wbt_lat_usec", IOS_TUN_INT, offsetof(struct ios_queue_tunables, wbt_lat_usec),
	  -1, INT32_MAX, NULL, "",
	  "writeback throttling's read latency target in us, blk-mq only (Linux 6.12 blk-wbt; "
	  "default 2000 non-rotational, 75000 rotational; 0 off, -1 the default)", 0, NULL },
	{ "nomerges", IOS_TUN_INT, offsetof(struct ios_queue_tunables, nomerges),
	  0, 2, "0", "", "0: all merges, 1: only the one-hit cache, 2: no merges", 0, NULL },
	{ "zoned", IOS_TUN_ENUM, offsetof(struct ios_queue_tunables, zoned), 0, 0, NULL, "",
	  "zoned model of the device: none or host-managed (--device smr-hm, zns)",
	  IOS_TUN_RO, q_zoned_models },
	{ "chunk_sectors", IOS_TUN_U64, offsetof(struct ios_queue_tunables, chunk_sectors),
	  0, INT64_MAX, NULL, "", "zone size in sectors of a zoned device (0: none)", IOS_TUN_RO,
	  NULL },
	{ "nr_zones", IOS_TUN_INT, offsetof(struct ios_queue_tunables, nr_zones), 0, INT32_MAX,
	  NULL, "", "zones of a zoned device", IOS_TUN_RO, NULL },
	{ "max_open_zones", IOS_TUN_INT, offsetof(struct ios_queue_tunables, max_open_zones), 0,
	  INT32_MAX, NULL, "", "zones a zoned device keeps open at once (0: no limit)", IOS_TUN_RO,
	  NULL },
	{ "max_active_zones", IOS_TUN_INT, offsetof(struct ios_queue_tunables, max_active_zones),
	  0, INT32_MAX, NULL, "", "open plus closed zones of a zoned device (0: no limit)",
	  IOS_TUN_RO, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

static inline unsigned rq_list(bool sync)
{
	return sync ? 1 : 0;
}

/* ---- request allocation ---- */

/* Can a request be allocated on list @l for @ioc right now? */
static bool may_alloc(struct ios_queue *q, struct ios_ioc *ioc, int dir, bool sync)
{
	unsigned l = rq_list(sync);
	enum ios_mqueue mq = IOS_MQUEUE_MAY;

	if (q->sched->ops.may_queue)
		mq = q->sched->ops.may_queue(q, ioc, dir, sync);
	if (mq == IOS_MQUEUE_NO)
		return false;
	if (q->rq_count[l] >= Q_HARD_LIMIT((unsigned)q->tun.nr_requests))
		return false;
	if (q->rq_count[l] >= (unsigned)q->tun.nr_requests && mq != IOS_MQUEUE_MUST)
		return false;
	return true;
}

/* Allocate a request for @bio and hand it to the scheduler (or dispatch list). */
static int get_request_and_insert(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	bool sync = ios_bio_is_sync(bio);
	struct ios_request *rq = ios_blk_rq_alloc(q);

	if (!rq)
		return -ENOMEM;
	ios_blk_rq_init_from_bio(q, rq, bio, now);
	q->rq_count[rq_list(sync)]++;
	q->nr_allocated++;
	if (q->sched->ops.set_request) {
		int ret = q->sched->ops.set_request(q, rq);

		if (ret) {
			q->rq_count[rq_list(sync)]--;
			q->nr_freed++;
			rq->state = IOS_RQ_FREE;
			ios_list_add(&rq->queuelist, &q->free_rqs);
			return ret;
		}
	}
	if (rq->ioc)
		rq->ioc->nr_requests++;	/* the request's reference to its context */
	ios_blk_trace(q, IOS_TA_GETRQ, rq, bio, now);

	ios_queue_stats_update(q, now);
	q->stats.in_flight++;

	rq->insert_ns = now;
	ios_blk_rq_step(rq, IOS_RQ_ALLOCATED, IOS_RQ_QUEUED, "inserted");
	if (!bio->nr_sectors) {
		/* a cache flush: not sorted, straight to the dispatch list */
		ios_list_add_tail(&rq->queuelist, &q->dispatch);
		ios_blk_trace(q, IOS_TA_INSERT, rq, NULL, now);
		return 0;
	}
	rq->elv_sorted = 1;
	if (ios_blk_bio_mergeable(bio)) {
		ios_blk_hash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
	q->nr_sorted++;
	q->sched->ops.insert(q, rq, now, 0);
	ios_blk_trace(q, IOS_TA_INSERT, rq, NULL, now);
	return 0;
}

static void park_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	unsigned l = rq_list(ios_bio_is_sync(bio));

	bio->next = NULL;
	if (q->wait_tail[l])
		q->wait_tail[l]->next = bio;
	else
		q->wait_head[l] = bio;
	q->wait_tail[l] = bio;
	ios_blk_trace(q, IOS_TA_SLEEPRQ, NULL, bio, now);
}

/* Give freed slots on list @l to sleeping bios, oldest first. */
static void wake_waiters(struct ios_queue *q, unsigned l, uint64_t now)
{
	while (q->wait_head[l]) {
		struct ios_bio *bio = q->wait_head[l];

		if (!may_alloc(q, bio->ioc, bio->dir, l == 1))
			break;
		q->wait_head[l] = bio->next;
		if (!q->wait_head[l])
			q->wait_tail[l] = NULL;
		if (get_request_and_insert(q, bio, now)) {
			/* out of memory: put it back at the head and stop */
			bio->next = q->wait_head[l];
			q->wait_head[l] = bio;
			if (!q->wait_tail[l])
				q->wait_tail[l] = bio;
			break;
		}
		if (bio->queued)
			bio->queued(bio, now);
	}
}

static void free_request(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	unsigned l = rq_list(ios_rq_is_sync(rq));

	/* merged away while queued, or completed: never while the device has it */
	IOS_BUG_ON_MSG(rq->state != IOS_RQ_QUEUED && rq->state != IOS_RQ_DONE,
		       "request %" PRIu64 " freed while %s", rq->id,
		       ios_blk_rq_state_name(rq->state));
	rq->state = IOS_RQ_FREE;
	if (q->sched->ops.put_request)
		q->sched->ops.put_request(q, rq);
	if (rq->ioc) {
		IOS_BUG_ON_MSG(rq->ioc->nr_requests == 0, "request %" PRIu64
			       " of pid %u freed but its io context holds no request", rq->id,
			       rq->ioc->pid);
		rq->ioc->nr_requests--;
	}
	IOS_BUG_ON(q->rq_count[l] == 0);
	q->rq_count[l]--;
	q->nr_freed++;
	if (q->last_merge == rq)
		q->last_merge = NULL;
	ios_list_add(&rq->queuelist, &q->free_rqs);
	wake_waiters(q, l, now);
}

void ios_blk_free_merged(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	if (q->mq)
		ios_mq_free_merged(q, rq, now);
	else
		free_request(q, rq, now);
}

/*
 * A blk-mq scheduler given a tunable it lacks: " (cfq, cfq-4.19 have it)",
 * the registered schedulers that take it (most often a legacy one's, such
 * as slice_idle); empty for the legacy schedulers, whose messages stay.
 */
static void sched_owners(const struct ios_sched_type *st, const char *name, char *buf, size_t n)
{
	const struct ios_sched_type *o;
	size_t len = 0, nr = 0;

	buf[0] = '\0';
	if (ios_sched_layer(st) != IOS_SCHED_LAYER_MQ)
		return;
	for (size_t i = 0; (o = ios_sched_at(i)) != NULL; i++) {
		const struct ios_tunable *t = o->tunables ? ios_tunable_find(o->tunables, name) : NULL;
		int w;

		if (!t || (t->flags & IOS_TUN_HIDDEN) || len >= n)
			continue;
		w = snprintf(buf + len, n - len, "%s%s", nr ? ", " : " (", o->name);
		if (w > 0)
			len += (size_t)w;
		nr++;
	}
	if (nr && len < n)
		snprintf(buf + len, n - len, " %s it)", nr > 1 ? "have" : "has");
	else if (nr)
		buf[0] = '\0';	/* too many to name: say nothing rather than half */
}

int ios_queue_submit_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	struct ios_request *rq = NULL;
	enum ios_merge m;
	bool sync = ios_bio_is_sync(bio);
	int ret;

	ios_blk_clock(q, now);
	if (bio->sector + bio->nr_sectors > q->capacity_sectors ||
	    (!bio->nr_sectors && !(bio->flags & IOS_REQ_PREFLUSH)))
		return -EINVAL;
	bio->next = NULL;
	IOS_BUG_ON_MSG(bio->state != IOS_BIO_IDLE, "bio at sector %" PRIu64
		       " submitted while already in flight", bio->sector);
	bio->state = IOS_BIO_IN_FLIGHT;
	q->nr_bios_in++;
	/* the core's flags of a bio struct used before go (the submitter's BPS_THROTTLED stays) */
	bio->qos_flags &= IOS_BIO_BPS_THROTTLED;
	/*
	 * blk-mq: submit_bio_noacct -> blk_throtl_bio (io.max) first; the Q
	 * trace and the issue time come after it (6.12
	 * submit_bio_noacct_nocheck). A bio blk-throttle holds is accepted:
	 * its submitter goes on (0) and never hears of it again before it
	 * completes; ios_blkcg_resubmit brings it back.
	 */
	if (q->mq && q->throtl_ops && q->throtl_ops->throtl_bio(q, bio, now)) {
		bio->held_ns = now;
		bio->qos_flags |= IOS_BIO_ANNOUNCED;
		ios_mq_kick_timer(q, now);
		return 0;
	}
	ios_blk_trace(q, IOS_TA_QUEUE, NULL, bio, now);
	if (q->mq) {
		bio->issue_ns = now;
		return ios_mq_submit_bio(q, bio, now);
	}

	if (ios_blk_bio_mergeable(bio)) {
		m = ios_blk_elv_merge(q, bio, &rq);
		if (m != IOS_NO_MERGE) {
			ios_blk_bio_merge_into(q, rq, bio, m, now);
			ios_queue_run(q, now);
			return 0;
		}
	}
	/* sleepers on this list go first */
	if (q->wait_head[rq_list(sync)] || !may_alloc(q, bio->ioc, bio->dir, sync)) {
		park_bio(q, bio, now);
		return 1;
	}
	ret = get_request_and_insert(q, bio, now);
	if (ret) {
		park_bio(q, bio, now);
		return 1;
	}
	ios_queue_run(q, now);
	return 0;
}

void ios_blkcg_resubmit(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	/* blk_throtl_dispatch_work_fn -> submit_bio_noacct_nocheck: Q, then blk-mq */
	ios_blk_clock(q, now);
	ios_blkcg_account_wait(q, bio, IOS_WAIT_THROTL, now);
	ios_blk_trace(q, IOS_TA_QUEUE, NULL, bio, now);
	bio->issue_ns = now;
	/* 1 (it sleeps for a policy or a tag) needs nothing: its task is not waiting */
	(void)ios_mq_submit_bio(q, bio, now);
}

/* ---- dispatch and completion ---- */

static void update_timer(struct ios_queue *q, uint64_t now)
{
	uint64_t w = IOS_NO_WAKEUP;

	if (q->sched->ops.next_wakeup)
		w = q->sched->ops.next_wakeup(q);
	if (w != IOS_NO_WAKEUP && w <= now) {
		/*
		 * With every tag busy, dispatch was not asked; the next
		 * completion runs the queue. Otherwise the scheduler declined
		 * to dispatch yet wants to be asked again already: a bug.
		 */
		IOS_BUG_ON(q->rq_in_driver < q->depth && q->sched->ops.has_work(q));
		w = q->rq_in_driver < q->depth && q->sched->ops.has_work(q) ? now + 1
									     : IOS_NO_WAKEUP;
	}
	if (w != q->timer_at) {
		q->timer_at = w;
		q->host_ops->set_timer(q->host, q, w);
	}
}

void ios_queue_run(struct ios_queue *q, uint64_t now)
{
	if (q->mq) {
		ios_mq_run(q, now);
		return;
	}
	ios_blk_clock(q, now);
	if (q->in_run)
		return;
	q->in_run = true;
	while (q->rq_in_driver < q->depth) {
		struct ios_request *rq;

		if (!ios_list_empty(&q->dispatch)) {
			rq = ios_list_first_entry(&q->dispatch, struct ios_request, queuelist);
			ios_list_del(&rq->queuelist);
		} else {
			if (!q->nr_sorted)
				break;
			rq = q->sched->ops.dispatch(q, now, 0);
			if (!rq)
				break;
			IOS_BUG_ON(!rq->elv_sorted);
			q->nr_sorted--;
		}
		ios_blk_rq_issue(q, rq, now);
	}
	q->in_run = false;
	update_timer(q, now);
}

void ios_queue_timer(struct ios_queue *q, uint64_t now)
{
	ios_blk_clock(q, now);
	q->timer_at = IOS_NO_WAKEUP;
	/* blk-mq: blk-throttle's and the rq_qos policies' timers due now (mq_update_timer) */
	if (q->mq && (q->rq_qos || q->throtl_ops))
		ios_blkcg_run_timers(q, now);
	if (q->sched->ops.timer)
		q->sched->ops.timer(q, now);
	ios_queue_run(q, now);
}

void ios_queue_complete(struct ios_queue *q, struct ios_request *rq, uint64_t now, int error)
{
	struct ios_bio *bio;

	if (q->mq) {
		ios_mq_complete(q, rq, now, error);
		return;
	}
	ios_blk_rq_complete_acct(q, rq, now, error);
	if (rq->elv_sorted)
		q->sched->ops.completed(q, rq, now);

	/* free the slot before waking submitters, as the kernel does */
	bio = rq->bio;
	rq->bio = rq->biotail = NULL;
	free_request(q, rq, now);
	ios_blk_end_bios(q, rq, bio, now, error);
	ios_queue_run(q, now);
}

void ios_queue_ioc_exit(struct ios_queue *q, struct ios_ioc *ioc, uint64_t now_ns)
{
	if (now_ns > q->clock_ns)
		q->clock_ns = now_ns;
	if (q->sched->ops.exit_icq)
		q->sched->ops.exit_icq(q, ioc, now_ns);
}

/* ---- set-up ---- */

struct ios_queue *ios_queue_create(const struct ios_queue_config *cfg, struct ios_err *e)
{
	const struct ios_sched_type *st = cfg->sched;
	struct ios_queue *q;
	unsigned nb;
	int ret;

	if (!st) {
		IOS_ERR(e, -EINVAL, "no scheduler given");
		return NULL;
	}
	if (cfg->id >= IOS_MAX_QUEUES || !cfg->depth || !cfg->host_ops ||
	    !cfg->host_ops->issue || !cfg->host_ops->set_timer) {
		IOS_ERR(e, -EINVAL, "bad queue configuration");
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q) {
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	q->id = cfg->id;
	q->sched = st;
	q->depth = cfg->depth;
	q->capacity_sectors = cfg->capacity_sectors;
	q->host_ops = cfg->host_ops;
	q->host = cfg->host;
	q->trace_ops = cfg->trace_ops;
	q->trace = cfg->trace;
	q->ignore_allow_merge = cfg->ignore_allow_merge;
	q->write_cache = cfg->write_cache;
	q->hz = cfg->hz ? cfg->hz : 250;
	q->ttime_back_to_back = cfg->ttime_back_to_back;
	q->timer_at = IOS_NO_WAKEUP;
	snprintf(q->disk_name, sizeof(q->disk_name), "%s", cfg->disk_name ? cfg->disk_name : "sda");
	ios_list_init(&q->dispatch);
	ios_list_init(&q->free_rqs);

	ret = ios_tunable_defaults(ios_queue_tunables_table, &q->tun, e);
	if (ret)
		goto fail;
	q->tun.rotational = cfg->rotational;
	q->tun.zoned = cfg->zone_sectors != 0;
	q->tun.chunk_sectors = cfg->zone_sectors;
	q->tun.nr_zones = (int)cfg->nr_zones;
	q->tun.max_open_zones = (int)cfg->max_open_zones;
	q->tun.max_active_zones = (int)cfg->max_active_zones;
	q->zone_sectors = cfg->zone_sectors;
	if (cfg->settings) {
		ret = ios_settings_apply(cfg->settings, ios_scope_get(IOS_SCOPE_QUEUE)->prefix,
					 ios_queue_tunables_table, &q->tun, e);
		if (ret)
			goto fail;
	}
	if (q->tun.max_sectors_bytes > q->tun.max_hw_sectors_bytes) {
		ret = IOS_ERR(e, -ERANGE, "queue.max_sectors_kb=%" PRIu64
			      ": larger than max_hw_sectors_kb=%" PRIu64,
			      q->tun.max_sectors_bytes >> 10, q->tun.max_hw_sectors_bytes >> 10);
		goto fail;
	}
	q->rotational = q->tun.rotational;

	nb = 64;
	while (nb < (unsigned)q->tun.nr_requests * 4u && nb < (1u << 22))
		nb <<= 1;
	q->hash = malloc(nb * sizeof(*q->hash));
	if (!q->hash) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto fail;
	}
	for (unsigned i = 0; i < nb; i++)
		ios_list_init(&q->hash[i]);
	q->hash_mask = nb - 1;

	if (st->priv_size) {
		q->sched_data = calloc(1, st->priv_size);
		if (!q->sched_data) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto fail;
		}
	}
	if (st->tunables) {
		ret = ios_tunable_defaults(st->tunables, q->sched_data, e);
		if (ret)
			goto fail;
	}
	if (st->ops.init_defaults)
		st->ops.init_defaults(q);
	if (cfg->settings) {
		for (size_t i = 0; i < cfg->settings->n; i++) {
			struct ios_setting *s = &cfg->settings->v[i];

			if (strchr(s->name, '.'))
				continue;
			if (!st->tunables || !ios_tunable_find(st->tunables, s->name)) {
				struct ios_suggest sg;
				char hint[256], owners[256];

				ios_suggest_init(&sg, s->name);
				ios_tunable_suggest(&sg, st->tunables, NULL);
				sched_owners(st, s->name, owners, sizeof(owners));
				ret = IOS_ERR(e, -ENOENT,
					      "%s%sscheduler '%s' has no tunable '%s'%s%s (see 'iosched list')",
					      s->origin, *s->origin ? ": " : "", st->name, s->name,
					      owners, ios_suggest_str(&sg, hint, sizeof(hint)));
				goto fail;
			}
		}
		if (st->tunables) {
			ret = ios_settings_apply_for(cfg->settings, "", st->tunables, q->sched_data,
						     st->name, e);
			if (ret)
				goto fail;
		}
	}
	/* blk-mq when the scheduler names it: contexts, tags, nr_requests (mq.c) */
	if (ios_sched_layer(st) == IOS_SCHED_LAYER_MQ) {
		ret = ios_mq_init(q, cfg, e);
		if (ret)
			goto fail;
	}
	ret = st->ops.init(q);
	if (ret) {
		IOS_ERR(e, ret, "scheduler '%s' failed to initialise", st->name);
		goto fail;
	}
	if (q->mq) {
		ret = ios_mq_init_sched(q, e);
		if (ret) {
			st->ops.exit(q);
			goto fail;
		}
	}
	/* blk_register_queue: wbt_enable_default, after the elevator's init */
	ret = ios_wbt_queue_setup(q, cfg->settings, !cfg->no_wbt, e);
	if (ret) {
		ios_rq_qos_exit(q);
		st->ops.exit(q);
		goto fail;
	}
	return q;
fail:
	ios_mq_exit(q);
	free(q->sched_data);
	free(q->hash);
	free(q);
	return NULL;
}

void ios_queue_destroy(struct ios_queue *q)
{
	if (!q)
		return;
	IOS_BUG_ON(q->rq_in_driver || q->nr_sorted);
	/* at the end every request and every bio is accounted for */
	IOS_BUG_ON_MSG(q->nr_freed != q->nr_allocated || q->rq_count[0] || q->rq_count[1],
		       "%" PRIu64 " requests allocated, %" PRIu64 " freed (%u async, %u sync left)",
		       q->nr_allocated, q->nr_freed, q->rq_count[0], q->rq_count[1]);
	IOS_BUG_ON_MSG(q->nr_bios_in != q->nr_bios_done || q->wait_head[0] || q->wait_head[1],
		       "%" PRIu64 " bios accepted, %" PRIu64 " ended%s", q->nr_bios_in,
		       q->nr_bios_done,
		       q->wait_head[0] || q->wait_head[1] ? ", some still waiting for a request" : "");
	if (q->mq) {
		const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(q->sched);

		/* rq_qos_exit (del_gendisk), then blk-throttle's (blkcg_exit_disk at the disk's release) */
		ios_rq_qos_exit(q);
		if (q->throtl_ops && q->throtl_ops->exit)
			q->throtl_ops->exit(q);
		q->throtl_ops = NULL;
		for (unsigned i = 0; mo && mo->exit_hctx && q->mq->elevator &&
				     i < q->mq->nr_hw_queues; i++)
			mo->exit_hctx(q, i);
	}
	q->sched->ops.exit(q);
	ios_mq_exit(q);
	while (!ios_list_empty(&q->free_rqs)) {
		struct ios_request *rq = ios_list_first_entry(&q->free_rqs, struct ios_request,
							      queuelist);

		ios_list_del(&rq->queuelist);
		free(rq);
	}
	free(q->sched_data);
	free(q->hash);
	free(q);
}
