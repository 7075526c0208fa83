/*
 * The two 2008 proposals for proportional I/O control of cgroups on top of
 * CFQ, rebuilt for the lab (lab.group_policy=tarasov2008 | uchida2008 with
 * --scheduler cfq). Neither was merged; mainline took Vivek Goyal's CFQ
 * groups in 2.6.33 (cfq_group.c). Seed 003 is Florian Westphal's comparison
 * of the two: 60 processes per cgroup doing 4 KiB O_DIRECT reads and
 * writes, I/Os counted per cgroup over 60 s.
 *
 * Both patches were against 2.6.25-rc2-mm1, whose CFQ has one service tree
 * per device, slices that start at the first completion and the key
 * offsets of 2.6.23-2.6.32: the lab's 2.6.31 profile ("cfq") is the closest,
 * so both designs are built from it. Each cgroup gets a complete 2.6.31 CFQ
 * of its own (its service tree, async queues, active queue and idle timer),
 * running on a shadow of the request queue; a top layer decides which
 * group's CFQ may dispatch. That is literally Uchida's design, and for
 * Tarasov's it is the same split his OpenVZ code makes (per-group service
 * trees and async queues, one group's queues served at a time).
 *
 * What each top layer is built from, and what is reconstructed:
 *
 * tarasov2008 (Vasily Tarasov, "[RFC][PATCH 0/9] cgroups: block: cfq: I/O
 *   bandwidth controlling subsystem for CGroups based on CFQ", 21 Mar 2008,
 *   and his OpenVZ kernel/bc/io_prio.c, which the cover letter says is the
 *   same scheme):
 *   - a group has a priority 0..7 (default 4), higher is more;
 *   - groups that have requests queued are served round-robin: the next is
 *     taken from the head of the list and moved to its tail, and gets a
 *     slice of cgrp_slice + cgrp_slice * prio / 7 (io_prio.c's formula);
 *   - the turn passes when the slice is over, or when the group is empty:
 *     nothing queued and nothing in the driver (io_prio.c's bc_empty);
 *   - inside a turn the group's own CFQ schedules its processes.
 *   Reconstructed: where the patch checked for the turn to pass (here: at
 *   every dispatch decision, also cutting the active queue's slice short,
 *   which then loses the disk as at any expiry), and cgrp_slice's default
 *   (OpenVZ's HZ/2; the cgroup patch's own was not found).
 *
 * uchida2008 (Satoshi Uchida, "[RFC][patch 0/11][CFQ-cgroup]", 1 Apr 2008,
 *   and the v2 series Florian replied to): "2 layer CFQ", a CFQ meta-data
 *   layer over one complete cfq_data per cgroup, choosing among them "by
 *   service tree (rb-tree) and CFQ algorithm". Reconstructed from that
 *   sentence: the top layer is 2.6.31's queue-level CFQ applied to groups,
 *   each group a sync queue of priority prio (default 4, CFQ's "normal";
 *   0 is the highest):
 *   - slice slice_sync + slice_sync/5 * (4 - prio), starting at the group's
 *     first completion;
 *   - busy groups keyed now + (busy - 1) * (slice(0) - slice(prio)), plus
 *     the residual of a slice cut short or overrun (2.6.2x adds it);
 *   - a group keeps the disk while its slice lasts and it has requests
 *     queued, in flight, or its CFQ is idling for one; then the leftmost
 *     busy group goes next. No preemption between groups.
 *   The patch text was not read: how it turned priorities into shares is
 *   unknown (the seed's 3:1 for priorities 0 and 3 is more than CFQ's own
 *   slice ratio, 1.5, gives; docs/cfq-groups.md compares).
 *
 * The priority is set per group with --set cgroup.PATH.ioprio=N, standing
 * for the cgroup file each patch added. Disk time per group (the report's
 * blkio.time column) is the time the group held the disk: from the moment
 * it got its turn to the moment it lost it.
 */
#include <stdlib.h>
#include <string.h>
#include "cfq_int.h"

#define LAB_PRIO_MAX		8	/* priorities 0..7 */
#define LAB_PRIO_DEFAULT	4	/* OpenVZ's UB_IOPRIO_BASE; CFQ's IOPRIO_NORM */

struct lab_group {
	const struct ios_cgroup *cg;
	/*
	 * What this group's CFQ takes for its request queue: a copy of the
	 * real queue's id, depth, flags and trace sink, with sched_data
	 * pointing at the group's own struct cfq_data.
	 */
	struct ios_queue q;
	struct cfq_data *cfqd;
	int prio;
	uint64_t slice;			/* this group's turn (see the designs above) */
	unsigned queued;		/* requests in its CFQ (OpenVZ's rqnum) */
	unsigned in_driver;		/* dispatched, not yet completed */
	/* tarasov2008: on the round-robin list while something is queued */
	struct ios_list_head rr;
	bool on_rr;
	/* uchida2008: the top layer's service tree */
	struct ios_rb_node rb_node;
	uint64_t rb_key;
	int64_t slice_resid;
	/* statistics */
	uint64_t time_ns, sectors, ios[2];
};

struct cfq_lab {
	/*
	 * First: the tunables table's offsets are those of struct cfq_data.
	 * The values are copied into every group's CFQ when it is created.
	 */
	struct cfq_data tun;
	enum ios_group_policy policy;
	const struct cfq_lab_profile *prof;	/* the descriptor's */
	struct ios_queue *q;
	struct lab_group **groups;	/* by cgroup id */
	unsigned nr_groups;
	unsigned queued;		/* in every group's CFQ */
	uint64_t now;

	struct lab_group *active;	/* the group whose CFQ may dispatch */
	uint64_t turn_start;		/* when it got the disk */
	uint64_t slice_end;
	bool slice_new;			/* uchida2008: slice not started yet */
	struct ios_list_head rr_list;	/* tarasov2008 */
	struct ios_rb_root_cached st;	/* uchida2008 */
	unsigned busy_groups;		/* uchida2008: groups with requests queued */
	uint64_t st_turns;
};

static inline struct cfq_lab *lab_of(struct ios_queue *q)
{
	return q->sched_data;
}

static const struct ios_sched_ops *inner_ops(void)
{
	return &ios_sched_cfq.ops;
}

/* ---- groups and their CFQs ---- */

static void lab_set_slice(struct cfq_lab *lab, struct lab_group *g)
{
	if (lab->policy == IOS_GROUP_POLICY_TARASOV2008)
		g->slice = lab->tun.cgrp_slice + lab->tun.cgrp_slice * (uint64_t)g->prio /
						 (LAB_PRIO_MAX - 1);
	else
		g->slice = ios_cfq_prio_slice(&lab->tun, true, g->prio);
}

static struct lab_group *lab_find(struct cfq_lab *lab, const struct ios_cgroup *cg)
{
	unsigned id = cg ? cg->id : 0;

	return id < lab->nr_groups ? lab->groups[id] : NULL;
}

static struct lab_group *lab_get(struct cfq_lab *lab, const struct ios_cgroup *cg)
{
	unsigned id = cg ? cg->id : 0;
	struct lab_group *g = lab_find(lab, cg);

	if (g)
		return g;
	if (id >= lab->nr_groups) {
		unsigned n = lab->nr_groups ? lab->nr_groups : 4;
		struct lab_group **v;

		while (n <= id)
			n *= 2;
		v = realloc(lab->groups, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + lab->nr_groups, 0, (n - lab->nr_groups) * sizeof(*v));
		lab->groups = v;
		lab->nr_groups = n;
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->cfqd = malloc(sizeof(*g->cfqd));
	if (!g->cfqd) {
		free(g);
		return NULL;
	}
	/* the tunables as set; everything else zero, as the block layer hands it over */
	memcpy(g->cfqd, &lab->tun, sizeof(*g->cfqd));
	g->q.sched_data = g->cfqd;
	g->q.sched = lab->prof->inner;
	g->q.id = lab->q->id;
	g->q.depth = lab->q->depth;
	g->q.rotational = lab->q->rotational;
	g->q.trace_ops = lab->q->trace_ops;
	g->q.trace = lab->q->trace;
	memcpy(g->q.disk_name, lab->q->disk_name, sizeof(g->q.disk_name));
	if (inner_ops()->init(&g->q)) {
		free(g->cfqd);
		free(g);
		return NULL;
	}
	g->cg = cg;
	g->prio = cg && cg->ioprio >= 0 ? cg->ioprio : LAB_PRIO_DEFAULT;
	lab_set_slice(lab, g);
	ios_list_init(&g->rr);
	ios_rb_clear(&g->rb_node);
	lab->groups[id] = g;
	return g;
}

static struct lab_group *lab_rq_group(struct cfq_lab *lab, const struct ios_request *rq)
{
	return lab_find(lab, rq->ioc ? rq->ioc->cgroup : NULL);
}

/* Due idle timers of every group's CFQ (also of groups without the disk). */
static void lab_run_timers(struct cfq_lab *lab, uint64_t now)
{
	for (unsigned i = 0; i < lab->nr_groups; i++) {
		struct lab_group *g = lab->groups[i];

		if (g && inner_ops()->next_wakeup(&g->q) <= now)
			inner_ops()->timer(&g->q, now);
	}
}

/* ---- the turn passes ---- */

static void lab_turn_end(struct cfq_lab *lab, uint64_t now)
{
	struct lab_group *g = lab->active;

	if (!g)
		return;
	g->time_ns += now - lab->turn_start;
	lab->active = NULL;
	ios_queue_msg(lab->q, now, "cfqlab group '%s' loses the disk",
		      g->cg && g->cg->path ? g->cg->path : "");
}

static void lab_turn_start(struct cfq_lab *lab, struct lab_group *g, uint64_t now)
{
	lab->active = g;
	lab->turn_start = now;
	lab->st_turns++;
	ios_queue_msg(lab->q, now, "cfqlab group '%s' gets the disk, slice %llu ms",
		      g->cg && g->cg->path ? g->cg->path : "",
		      (unsigned long long)(g->slice / IOS_NSEC_PER_MSEC));
}

/* ---- tarasov2008: round-robin of groups with slices by priority ---- */

static bool tarasov_empty(const struct lab_group *g)
{
	return !g->queued && !g->in_driver;
}

/* bc_schedule_active: keep the group while its slice lasts and it is not empty */
static void tarasov_schedule(struct cfq_lab *lab, uint64_t now)
{
	struct lab_group *prev = lab->active, *g;

	if (prev && (int64_t)(now - lab->slice_end) <= 0 && !tarasov_empty(prev))
		return;
	lab_turn_end(lab, now);
	if (prev)
		ios_cfq_expire_active(prev->cfqd, now);
	if (ios_list_empty(&lab->rr_list))
		return;
	g = ios_list_first_entry(&lab->rr_list, struct lab_group, rr);
	ios_list_del(&g->rr);
	ios_list_add_tail(&g->rr, &lab->rr_list);
	lab->slice_end = now + g->slice;
	lab_turn_start(lab, g, now);
}

/* ---- uchida2008: CFQ over groups ---- */

static bool uchida_less(const struct ios_rb_node *a, const struct ios_rb_node *b)
{
	const struct lab_group *ga = ios_rb_entry(a, struct lab_group, rb_node);
	const struct lab_group *gb = ios_rb_entry(b, struct lab_group, rb_node);

	return (int64_t)(ga->rb_key - gb->rb_key) < 0;
}

/* 2.6.2x's cfq_service_tree_add for a group: behind the others by priority */
static void uchida_tree_add(struct cfq_lab *lab, struct lab_group *g, uint64_t now)
{
	int64_t offset = ((int64_t)lab->busy_groups - 1) *
			 (int64_t)(ios_cfq_prio_slice(&lab->tun, true, 0) - g->slice);

	if (!ios_rb_unlinked(&g->rb_node))
		ios_rb_erase_cached(&g->rb_node, &lab->st);
	g->rb_key = (uint64_t)((int64_t)now + offset + g->slice_resid);
	g->slice_resid = 0;
	ios_rb_add_cached(&g->rb_node, &lab->st, uchida_less);
}

static void uchida_expire(struct cfq_lab *lab, uint64_t now, bool timed_out)
{
	struct lab_group *g = lab->active;

	if (!g)
		return;
	/* bank what was left of the slice, or the overrun */
	if (timed_out && !lab->slice_new)
		g->slice_resid = (int64_t)(lab->slice_end - now);
	lab_turn_end(lab, now);
	if (g->queued)
		uchida_tree_add(lab, g, now);
}

/* cfq_select_queue, one level up */
static void uchida_schedule(struct cfq_lab *lab, uint64_t now)
{
	struct lab_group *g = lab->active;
	struct ios_rb_node *n;

	if (g) {
		bool used = !lab->slice_new && (int64_t)(now - lab->slice_end) >= 0;

		if (!used && (g->queued || g->in_driver ||
			      inner_ops()->next_wakeup(&g->q) != IOS_NO_WAKEUP))
			return;
		uchida_expire(lab, now, false);
	}
	n = ios_rb_first_cached(&lab->st);
	if (!n)
		return;
	g = ios_rb_entry(n, struct lab_group, rb_node);
	ios_rb_erase_cached(&g->rb_node, &lab->st);
	ios_rb_clear(&g->rb_node);
	lab->slice_new = true;
	lab->slice_end = 0;
	lab_turn_start(lab, g, now);
}

/* ---- hooks ---- */

static void lab_schedule(struct cfq_lab *lab, uint64_t now)
{
	if (lab->policy == IOS_GROUP_POLICY_TARASOV2008)
		tarasov_schedule(lab, now);
	else
		uchida_schedule(lab, now);
}

/* A group gets its first queued request. */
static void lab_group_busy(struct cfq_lab *lab, struct lab_group *g, uint64_t now)
{
	if (lab->policy == IOS_GROUP_POLICY_TARASOV2008) {
		ios_list_add_tail(&g->rr, &lab->rr_list);
		g->on_rr = true;
	} else {
		lab->busy_groups++;
		if (g != lab->active)
			uchida_tree_add(lab, g, now);
	}
}

/* A group's last queued request went (dispatched or merged away). */
static void lab_group_empty(struct cfq_lab *lab, struct lab_group *g)
{
	if (lab->policy == IOS_GROUP_POLICY_TARASOV2008) {
		ios_list_del(&g->rr);
		ios_list_init(&g->rr);
		g->on_rr = false;
	} else {
		lab->busy_groups--;
		if (!ios_rb_unlinked(&g->rb_node)) {
			ios_rb_erase_cached(&g->rb_node, &lab->st);
			ios_rb_clear(&g->rb_node);
		}
	}
}

static void lab_unqueued(struct cfq_lab *lab, struct lab_group *g)
{
	IOS_BUG_ON(!g->queued || !lab->queued);
	g->queued--;
	lab->queued--;
	if (!g->queued)
		lab_group_empty(lab, g);
}

static enum ios_mqueue lab_may_queue(struct ios_queue *q, struct ios_ioc *ioc, int dir, bool sync)
{
	struct lab_group *g = lab_find(lab_of(q), ioc->cgroup);

	return g ? inner_ops()->may_queue(&g->q, ioc, dir, sync) : IOS_MQUEUE_MAY;
}

static int lab_set_request(struct ios_queue *q, struct ios_request *rq)
{
	struct lab_group *g = lab_get(lab_of(q), rq->ioc ? rq->ioc->cgroup : NULL);

	return g ? inner_ops()->set_request(&g->q, rq) : -ENOMEM;
}

static void lab_put_request(struct ios_queue *q, struct ios_request *rq)
{
	struct lab_group *g = lab_rq_group(lab_of(q), rq);

	if (g)
		inner_ops()->put_request(&g->q, rq);
}

static void lab_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now, unsigned flags)
{
	struct cfq_lab *lab = lab_of(q);
	struct lab_group *g = lab_rq_group(lab, rq);

	IOS_BUG_ON(!g);
	lab->now = now;
	lab->queued++;
	if (!g->queued++)
		lab_group_busy(lab, g, now);
	inner_ops()->insert(&g->q, rq, now, flags);
}

static struct ios_request *lab_dispatch(struct ios_queue *q, uint64_t now, unsigned flags)
{
	struct cfq_lab *lab = lab_of(q);
	struct lab_group *g;
	struct ios_request *rq = NULL;

	lab->now = now;
	lab_run_timers(lab, now);
	if (flags & IOS_DISPATCH_FORCE) {
		/* drain: every group's CFQ in turn, whoever has the disk */
		for (unsigned i = 0; i < lab->nr_groups && !rq; i++) {
			g = lab->groups[i];
			if (g && g->queued)
				rq = inner_ops()->dispatch(&g->q, now, flags);
		}
		g = rq ? lab_rq_group(lab, rq) : NULL;
	} else {
		lab_schedule(lab, now);
		g = lab->active;
		if (g && g->queued)
			rq = inner_ops()->dispatch(&g->q, now, flags);
	}
	if (!rq)
		return NULL;
	g->in_driver++;
	g->sectors += rq->nr_sectors;
	g->ios[rq->dir]++;
	lab_unqueued(lab, g);
	return rq;
}

static bool lab_has_work(struct ios_queue *q)
{
	return lab_of(q)->queued > 0;
}

static void lab_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct cfq_lab *lab = lab_of(q);
	struct lab_group *g = lab_rq_group(lab, rq);

	IOS_BUG_ON(!g || !g->in_driver);
	lab->now = now;
	g->in_driver--;
	inner_ops()->completed(&g->q, rq, now);
	if (lab->policy != IOS_GROUP_POLICY_UCHIDA2008 || g != lab->active)
		return;
	/* the group's slice starts at its first completion, as a queue's does */
	if (lab->slice_new) {
		lab->slice_new = false;
		lab->slice_end = now + g->slice;
	}
	if ((int64_t)(now - lab->slice_end) >= 0)
		uchida_expire(lab, now, true);
}

static bool lab_allow_merge(struct ios_queue *q, struct ios_request *rq, const struct ios_bio *bio)
{
	struct cfq_lab *lab = lab_of(q);
	struct lab_group *g = lab_rq_group(lab, rq);

	/* never across groups: each has its own CFQ */
	if (!g || g != lab_find(lab, bio->ioc ? bio->ioc->cgroup : NULL))
		return false;
	return inner_ops()->allow_merge(&g->q, rq, bio);
}

static enum ios_merge lab_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
				    struct ios_request **rq)
{
	struct lab_group *g = lab_find(lab_of(q), bio->ioc ? bio->ioc->cgroup : NULL);

	return g ? inner_ops()->bio_merge(&g->q, bio, rq) : IOS_NO_MERGE;
}

static void lab_request_merged(struct ios_queue *q, struct ios_request *rq, enum ios_merge type)
{
	struct lab_group *g = lab_rq_group(lab_of(q), rq);

	if (g)
		inner_ops()->request_merged(&g->q, rq, type);
}

static void lab_requests_merged(struct ios_queue *q, struct ios_request *rq,
				struct ios_request *next)
{
	struct cfq_lab *lab = lab_of(q);
	struct lab_group *g = lab_rq_group(lab, rq), *gn = lab_rq_group(lab, next);

	IOS_BUG_ON(!g || g != gn);
	inner_ops()->requests_merged(&g->q, rq, next);
	lab_unqueued(lab, g);	/* @next leaves the scheduler */
}

static struct ios_request *lab_former(struct ios_queue *q, struct ios_request *rq)
{
	struct lab_group *g = lab_rq_group(lab_of(q), rq);

	return g ? inner_ops()->former(&g->q, rq) : NULL;
}

static struct ios_request *lab_latter(struct ios_queue *q, struct ios_request *rq)
{
	struct lab_group *g = lab_rq_group(lab_of(q), rq);

	return g ? inner_ops()->latter(&g->q, rq) : NULL;
}

static uint64_t lab_next_wakeup(struct ios_queue *q)
{
	struct cfq_lab *lab = lab_of(q);
	uint64_t w = IOS_NO_WAKEUP;

	for (unsigned i = 0; i < lab->nr_groups; i++) {
		struct lab_group *g = lab->groups[i];
		uint64_t gw = g ? inner_ops()->next_wakeup(&g->q) : IOS_NO_WAKEUP;

		if (gw < w)
			w = gw;
	}
	return w;
}

static void lab_timer(struct ios_queue *q, uint64_t now)
{
	struct cfq_lab *lab = lab_of(q);

	lab->now = now;
	lab_run_timers(lab, now);
}

static void lab_exit_icq(struct ios_queue *q, struct ios_ioc *ioc, uint64_t now)
{
	struct lab_group *g = lab_find(lab_of(q), ioc->cgroup);

	if (g)
		inner_ops()->exit_icq(&g->q, ioc, now);
}

static int lab_group_stats(struct ios_queue *q, const struct ios_cgroup *cg,
			   struct ios_group_stats *st)
{
	struct cfq_lab *lab = lab_of(q);
	struct lab_group *g = lab_find(lab, cg);
	uint64_t t;

	if (!g)
		return -ENOENT;
	t = g->time_ns;
	if (g == lab->active)
		t += lab->now - lab->turn_start;
	memset(st, 0, sizeof(*st));
	st->time_ns = t;
	st->sectors = g->sectors;
	st->ios[0] = g->ios[0];
	st->ios[1] = g->ios[1];
	st->ioprio = g->prio;
	st->slice_ns = g->slice;
	return 0;
}

/* ---- set-up ---- */

static int lab_init(struct ios_queue *q)
{
	struct cfq_lab *lab = lab_of(q);
	struct ios_err e = { 0 };

	lab->q = q;
	lab->prof = q->sched->profile;
	lab->policy = lab->prof->policy;
	ios_list_init(&lab->rr_list);
	lab->st = IOS_RB_ROOT_CACHED;
	/* 2.6.31 has no target_latency file, but its code reads the constant */
	if (ios_tunable_defaults(ios_cfq_2631_hidden, &lab->tun, &e))
		return -EINVAL;
	if (!lab->tun.slice[0] || !lab->tun.slice[1])
		return -EINVAL;
	/* the root group exists from the start, as each CFQ's root does */
	return lab_get(lab, NULL) ? 0 : -ENOMEM;
}

static void lab_exit(struct ios_queue *q)
{
	struct cfq_lab *lab = lab_of(q);

	for (unsigned i = 0; i < lab->nr_groups; i++) {
		struct lab_group *g = lab->groups[i];

		if (!g)
			continue;
		inner_ops()->exit(&g->q);
		free(g->cfqd);
		free(g);
	}
	free(lab->groups);
	lab->groups = NULL;
	lab->nr_groups = 0;
}

static const struct ios_tunable lab_stats_table[] = {
	{ "group_turns", IOS_TUN_U64, offsetof(struct cfq_lab, st_turns), 0, INT64_MAX, NULL, "",
	  "times a group got the disk", IOS_TUN_RO, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

/* priorities, not weights; flat (neither patch had nested groups) */
static const struct ios_sched_cgroups lab_cgroups = {
	.groups = true,
	.ioprio_levels = LAB_PRIO_MAX,
	.ioprio_default = LAB_PRIO_DEFAULT,
	.nested = false,
};

#define LAB_OPS                                         \
	{                                               \
		.init = lab_init,                       \
		.exit = lab_exit,                       \
		.may_queue = lab_may_queue,             \
		.set_request = lab_set_request,         \
		.put_request = lab_put_request,         \
		.insert = lab_insert,                   \
		.dispatch = lab_dispatch,               \
		.has_work = lab_has_work,               \
		.completed = lab_completed,             \
		.allow_merge = lab_allow_merge,         \
		.bio_merge = lab_bio_merge,             \
		.request_merged = lab_request_merged,   \
		.requests_merged = lab_requests_merged, \
		.former = lab_former,                   \
		.latter = lab_latter,                   \
		.next_wakeup = lab_next_wakeup,         \
		.timer = lab_timer,                     \
		.exit_icq = lab_exit_icq,               \
		.group_stats = lab_group_stats,         \
	}

static const struct cfq_lab_profile lab_tarasov2008 = {
	.policy = IOS_GROUP_POLICY_TARASOV2008,
	.inner = &ios_sched_cfq,
};

static const struct cfq_lab_profile lab_uchida2008 = {
	.policy = IOS_GROUP_POLICY_UCHIDA2008,
	.inner = &ios_sched_cfq,
};

/*
 * Inside a cgroup each design is CFQ 2.6.31, whose slices the share model
 * describes; the group layer (by ioprio, not weight) is not modelled.
 * `iosched compare` judges these designs through --scheduler cfq, whose
 * model this is, so the two agree.
 */
#define LAB_SHARE_MODEL IOS_SHARE_CFQ_SLICE

/*
 * Not in the registry: reached through --scheduler cfq with
 * lab.group_policy (cfq's descriptor names them in its cgroups policy[]).
 */
const struct ios_sched_type ios_sched_cfq_tarasov2008 = {
	.name = "cfq+tarasov2008",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.desc = "CFQ 2.6.31 per cgroup, groups served round-robin with a slice of "
		"cgrp_slice * (1 + ioprio/7) (Vasily Tarasov, LKML, March 2008)",
	.ops = LAB_OPS,
	.tunables = ios_cfq_tarasov2008_tunables,
	.stats = lab_stats_table,
	.priv_size = sizeof(struct cfq_lab),
	.features = IOS_SCHED_IDLES | IOS_SCHED_CHARGES_TIME,
	.cgroups = &lab_cgroups,
	.profile = &lab_tarasov2008,
	.share_model = LAB_SHARE_MODEL,
};

const struct ios_sched_type ios_sched_cfq_uchida2008 = {
	.name = "cfq+uchida2008",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.desc = "CFQ 2.6.31 per cgroup under a CFQ of cgroups by ioprio "
		"(Satoshi Uchida, LKML, April 2008)",
	.ops = LAB_OPS,
	.tunables = ios_cfq_uchida2008_tunables,
	.stats = lab_stats_table,
	.priv_size = sizeof(struct cfq_lab),
	.features = IOS_SCHED_IDLES | IOS_SCHED_CHARGES_TIME,
	.cgroups = &lab_cgroups,
	.profile = &lab_uchida2008,
	.share_model = LAB_SHARE_MODEL,
};

#undef LAB_OPS
