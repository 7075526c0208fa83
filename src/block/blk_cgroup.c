/*
 * The per-queue group tree, after Linux 6.12's blkcg_gq (block/
 * blk-cgroup.c, blkg_create: a queue's blkg for a cgroup exists only with
 * its parent's, and each holds one policy-data slot per enabled policy).
 *
 * Here a blk-mq queue gets one node per cgroup of the run when the
 * workload's groups are known (run/cgroup.c), in the cgroups' id order,
 * which puts every parent before its children. The controllers of the
 * later steps of docs/cgroup-v2-plan.md §12 keep their per-group state in
 * the node's slots; step 1 builds the tree and nothing reads it yet.
 *
 * Step 2 adds the return-to-user delay of 6.12 blk-cgroup.c and
 * blk-cgroup.h: blkcg_add_delay with blkcg_scale_delay's decay,
 * blkcg_use_delay / blkcg_unuse_delay / blkcg_set_delay /
 * blkcg_clear_delay, blkcg_maybe_throttle_blkg's walk and its 250 ms cap,
 * and blkcg_schedule_throttle's mark on the task (never a kthread). Not
 * modelled: the cgroup's congestion_count (only blk_cgroup_congested reads
 * it, for swap and reclaim), use_memdelay (PSI accounting), fatal signals
 * cutting the sleep short.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "blkcg_int.h"
#include "blk_iocost.h"
#include "blk_throttle.h"
#include "iosched/blkcg.h"
#include "iosched/request.h"

#define NSEC_PER_SEC		1000000000ull
/* blkcg_maybe_throttle_blkg's cap on a use_delay delay, 0.25 s */
#define BLKG_MAX_DELAY_NS	(250ull * 1000 * 1000)

struct ios_blkcg_ctl *ios_blkcg_ctl_create(struct ios_cgroup *const *cgroups, unsigned n)
{
	struct ios_blkcg_ctl *ctl = calloc(1, sizeof(*ctl));

	if (!ctl)
		return NULL;
	ctl->blkgs = calloc(n ? n : 1, sizeof(*ctl->blkgs));
	if (!ctl->blkgs) {
		free(ctl);
		return NULL;
	}
	ctl->nr_blkgs = n;
	for (unsigned i = 0; i < n; i++) {
		struct ios_blkg *g = &ctl->blkgs[i];
		const struct ios_cgroup *p = cgroups[i]->parent;

		g->cgroup = cgroups[i];
		/* ids are dense and parents older: the parent's node is built already */
		g->parent = p && p->id < i ? &ctl->blkgs[p->id] : NULL;
		g->level = g->parent ? g->parent->level + 1 : 0;
		g->delay_start = IOS_BLKG_DELAY_NEVER;
	}
	return ctl;
}

void ios_blkcg_ctl_destroy(struct ios_blkcg_ctl *ctl)
{
	if (!ctl)
		return;
	free(ctl->blkgs);
	free(ctl);
}

struct ios_blkg *ios_blkg_of(struct ios_blkcg_ctl *ctl, const struct ios_cgroup *cg)
{
	if (!ctl || !cg || cg->id >= ctl->nr_blkgs || ctl->blkgs[cg->id].cgroup != cg)
		return NULL;
	return &ctl->blkgs[cg->id];
}

/* ---- installing the controllers ---- */

/* The files written in any group of @cgroups, as bits (1u << enum ios_blkcg_file). */
static unsigned blkcg_written(struct ios_cgroup *const *cgroups, unsigned n)
{
	unsigned files = 0;

	for (unsigned i = 0; i < n; i++)
		if (cgroups[i]->v2)
			files |= cgroups[i]->v2->written;
	return files;
}

int ios_blkcg_install(struct ios_queue *q, struct ios_cgroup *const *cgroups, unsigned n,
		      unsigned later, const struct ios_throtl_profile *tp, unsigned hz,
		      struct ios_err *e)
{
	const unsigned cost = (1u << IOS_BLKCG_COST_QOS) | (1u << IOS_BLKCG_COST_MODEL);
	unsigned files = blkcg_written(cgroups, n) | later;
	int err;

	if (!q->blkcg && n) {
		q->blkcg = ios_blkcg_ctl_create(cgroups, n);
		if (!q->blkcg)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		/* io.cost: its rq_qos exists once io.cost.qos or .model was written (blk_iocost_init) */
		if (files & cost) {
			err = ios_blk_iocost_init(q, hz, 0);
			if (err)
				return IOS_ERR(e, err, "io.cost: cannot install on the queue");
		}
	}
	if (!q->blkcg)
		return 0;
	/* io.max: blk_throtl_init comes with the first io.max write, now or later */
	if (!q->throtl_ops && (ios_blk_throtl_wanted(q) || (later & (1u << IOS_BLKCG_MAX)))) {
		err = ios_blk_throtl_init(q, tp, hz, ios_blkcg_resubmit, 0);
		if (err)
			return IOS_ERR(e, err, "io.max: blk-throttle could not start");
		q->throtl_ops = &ios_blk_throtl_ops;
	}
	/* io.latency's policy joins the queue at the first write of the file */
	if (files & (1u << IOS_BLKCG_LATENCY)) {
		err = ios_iolat_install(q, hz, 0);
		if (err)
			return IOS_ERR(e, err, "io.latency: %s", strerror(-err));
	}
	return 0;
}

/* ---- the return-to-user delay ---- */

/*
 * blkcg_scale_delay: at most once a second, take off what was charged in
 * the window before (last_delay, or half of it at least once io.latency
 * stopped using the delay), so a task is delayed for recent trouble only.
 * A group whose delay was set outright (use_delay < 0) is left alone.
 */
static void blkcg_scale_delay(struct ios_blkg *g, uint64_t now)
{
	uint64_t old = g->delay_start, cur, sub;

	if (g->use_delay < 0)
		return;
	/* §13 R4: the kernel's 0 is "long ago"; the lab's 0 is a real time */
	if (old != IOS_BLKG_DELAY_NEVER && !(old + NSEC_PER_SEC < now))
		return;
	g->delay_start = now;
	cur = g->delay_nsec;
	sub = g->last_delay;
	if (old != IOS_BLKG_DELAY_NEVER && now - old < sub)
		sub = now - old;
	if (g->use_delay < g->last_use && sub < g->last_delay >> 1)
		sub = g->last_delay >> 1;
	if (cur < sub) {
		g->delay_nsec = 0;
		g->last_delay = 0;
	} else {
		g->delay_nsec = cur - sub;
		g->last_delay = cur - sub;
	}
	g->last_use = g->use_delay;
}

void ios_blkcg_add_delay(struct ios_blkg *g, uint64_t now, uint64_t delta_ns)
{
	/* the kernel warns once and ignores an add to a set delay */
	if (!g || g->use_delay < 0)
		return;
	blkcg_scale_delay(g, now);
	g->delay_nsec += delta_ns;
}

void ios_blkcg_use_delay(struct ios_blkg *g)
{
	if (!g || g->use_delay < 0)
		return;
	g->use_delay++;
}

int ios_blkcg_unuse_delay(struct ios_blkg *g)
{
	if (!g || g->use_delay <= 0)
		return 0;
	g->use_delay--;
	return 1;
}

void ios_blkcg_set_delay(struct ios_blkg *g, uint64_t delay_ns)
{
	if (!g)
		return;
	/* only a group nobody uses the delay of becomes a set one (-1) */
	if (!g->use_delay)
		g->use_delay = -1;
	g->delay_nsec = delay_ns;
}

void ios_blkcg_clear_delay(struct ios_blkg *g)
{
	/* as the kernel's: use_delay only; delay_nsec stays, unread while 0 */
	if (g)
		g->use_delay = 0;
}

uint64_t ios_blkcg_return_delay(struct ios_queue *q, const struct ios_cgroup *cg, uint64_t now)
{
	struct ios_blkg *g = q ? ios_blkg_of(q->blkcg, cg) : NULL;
	uint64_t delay = 0;
	bool clamp = false;

	/* blkcg_maybe_throttle_blkg: every group below the root, the largest delay wins */
	for (; g && g->parent; g = g->parent) {
		if (!g->use_delay)
			continue;
		blkcg_scale_delay(g, now);
		if (g->delay_nsec > delay) {
			delay = g->delay_nsec;
			clamp = g->use_delay > 0;
		}
	}
	if (clamp && delay > BLKG_MAX_DELAY_NS)
		delay = BLKG_MAX_DELAY_NS;
	return delay;
}

void ios_blkcg_schedule_throttle(struct ios_queue *q, struct ios_ioc *ioc)
{
	if (!ioc || ioc->kthread)
		return;
	ioc->throttle_disk = q;
}

/* ---- step 9a: what the controllers held I/O for ---- */

static void waits_add(struct ios_waits *w, enum ios_wait_cause c, uint64_t ns)
{
	w->ns[c] += ns;
	w->nr[c]++;
}

/* The timeline's band of who was held by what (a plot's hook, if any). */
static void waits_note(struct ios_queue *q, const struct ios_ioc *ioc, enum ios_wait_cause c,
		       uint64_t from, uint64_t to)
{
	if (q->owner_ops && q->owner_ops->held && to > from)
		q->owner_ops->held(q->owner, ioc ? ioc->pid : 0, (int)c, from, to);
}

void ios_blkcg_account_wait(struct ios_queue *q, struct ios_bio *bio, enum ios_wait_cause c,
			    uint64_t now)
{
	uint64_t ns = now > bio->held_ns ? now - bio->held_ns : 0;
	struct ios_blkg *g = ios_blkg_of(q->blkcg, ios_bio_blkcg(bio));

	waits_add(&q->qos_waits, c, ns);
	if (bio->ioc)
		waits_add(&bio->ioc->waits, c, ns);
	if (g)
		waits_add(&g->waits, c, ns);
	waits_note(q, bio->ioc, c, now - ns, now);
}

uint64_t ios_blkcg_task_throttle(struct ios_ioc *ioc, uint64_t now)
{
	struct ios_queue *q = ioc ? ioc->throttle_disk : NULL;
	struct ios_blkg *g;
	uint64_t d;

	if (!q)
		return 0;
	ioc->throttle_disk = NULL;
	if (ioc->kthread)
		return 0;
	d = ios_blkcg_return_delay(q, ioc->cgroup, now);
	if (d) {
		/* the sleep the task takes now, counted for its task and group */
		waits_add(&q->qos_waits, IOS_WAIT_DELAY, d);
		waits_add(&ioc->waits, IOS_WAIT_DELAY, d);
		g = ios_blkg_of(q->blkcg, ioc->cgroup);
		if (g)
			waits_add(&g->waits, IOS_WAIT_DELAY, d);
		waits_note(q, ioc, IOS_WAIT_DELAY, now, now + d);
	}
	return d;
}
