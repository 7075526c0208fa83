/*
 * CFQ's groups (blkio cgroup scheduling, Linux 2.6.33+) and the choice of
 * workload class and type inside a group.
 *
 * Busy groups sit on a service tree ordered by vdisktime, the disk time
 * they have been charged scaled by the inverse of their weight. The
 * leftmost group is served next. Inside it CFQ picks a class (RT before BE
 * before IDLE) and, for that class, one of three workload types (ASYNC,
 * SYNC_NOIDLE, SYNC) whose turn lasts a workload slice derived from the
 * group's share of target_latency. Queues are then taken from the chosen
 * tree. With only the root group this is the 2.6.33 single-device
 * behaviour; 2.6.31 uses none of it (one tree per device, cfq.c).
 *
 * Charging (spec §10): when a queue's slice ends, its group is charged the
 * time the queue held the disk (from its first completion, at most its
 * allocated slice; at least a jiffy of seek time if it never completed),
 * or the requests it dispatched in 4.19's IOPS mode (no idling on a
 * queueing device: time cannot be told apart), or its whole slice for an
 * async queue of a group with no sync queues. The charge is scaled by
 * 500/weight (2.6.33) or by 4096/vfraction (4.19), so a group of twice the
 * weight moves half as fast and is chosen twice as often.
 *
 * The group slice: 2.6.33 gives a group target_latency * weight / total
 * weight of the busy groups; 4.19 the same fraction of target_latency as
 * its share of the device, vfraction, which 4.19 computes through the
 * hierarchy (cfq_group_service_tree_add): the group's tasks get
 * leaf_weight / children_weight of the group, the group weight /
 * children_weight of its parent, and so on up. 2.6.33 is flat: a nested
 * cgroup is refused by the runner, and here counts as a child of the root.
 *
 * 2.6.33's group_isolation=0 serves the seeky (SYNC_NOIDLE) queues of
 * other groups in the root group, and sends them home once they are
 * sequential again: throughput over isolation for random I/O.
 */
#include <stdlib.h>
#include <string.h>
#include "cfq_int.h"

uint64_t ios_cfq_prio_slice(const struct cfq_data *cfqd, bool sync, int prio)
{
	uint64_t base = cfqd->slice[sync ? 1 : 0];

	/* base + base/5 * (4 - prio), as a signed sum */
	return (uint64_t)((int64_t)base + (int64_t)(base / CFQ_SLICE_SCALE) * (4 - prio));
}

bool ios_cfq_iops_mode(const struct cfq_data *cfqd)
{
	/* 4.x: no idling on queueing hardware means time cannot be measured */
	return cfqd->prof->iops_mode && !cfqd->slice_idle && cfqd->hw_tag;
}

/* ---- generic service tree with a count ---- */

void ios_cfq_rb_insert(struct cfq_rb_root *st, struct ios_rb_node *n,
		       bool (*less)(const struct ios_rb_node *, const struct ios_rb_node *))
{
	ios_rb_add_cached(n, &st->rb, less);
	st->count++;
}

void ios_cfq_rb_erase(struct cfq_rb_root *st, struct ios_rb_node *n)
{
	ios_rb_erase_cached(n, &st->rb);
	ios_rb_clear(n);
	st->count--;
}

struct cfq_rb_root *ios_cfq_st_for(struct cfq_group *cfqg, enum cfq_wl_class c, enum cfq_wl_type t)
{
	if (c == CFQ_IDLE_WL)
		return &cfqg->service_tree_idle;
	return &cfqg->service_trees[c][t];
}

unsigned ios_cfq_group_busy_queues_wl(enum cfq_wl_class c, struct cfq_group *cfqg)
{
	if (c == CFQ_IDLE_WL)
		return cfqg->service_tree_idle.count;
	return cfqg->service_trees[c][CFQ_ASYNC_WL].count +
	       cfqg->service_trees[c][CFQ_SYNC_NOIDLE_WL].count +
	       cfqg->service_trees[c][CFQ_SYNC_WL].count;
}

/* ---- groups ---- */

static void cfqg_init_trees(struct cfq_group *g)
{
	for (int c = 0; c < 2; c++)
		for (int t = 0; t < 3; t++)
			g->service_trees[c][t].rb = IOS_RB_ROOT_CACHED;
	g->service_tree_idle.rb = IOS_RB_ROOT_CACHED;
	ios_rb_clear(&g->rb_node);
}

static struct cfq_group *cfqg_new(struct cfq_data *cfqd, const struct ios_cgroup *cg,
				  struct cfq_group *parent)
{
	struct cfq_group *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	cfqg_init_trees(g);
	g->cg = cg;
	g->parent = parent;
	if (!cg) {
		/* "preference to the root group": twice the default, also for its own tasks */
		g->weight = CFQ_WEIGHT_ROOT;
		g->leaf_weight = CFQ_WEIGHT_ROOT;
	} else {
		g->weight = cg->weight ? cg->weight : CFQ_WEIGHT_DEFAULT;
		/* blkio.leaf_weight: no fio option sets it, so the default */
		g->leaf_weight = CFQ_WEIGHT_DEFAULT;
	}
	ios_list_add_tail(&g->all, &cfqd->all_groups);
	return g;
}

int ios_cfq_groups_init(struct cfq_data *cfqd)
{
	ios_list_init(&cfqd->all_groups);
	cfqd->grp_service_tree.rb = IOS_RB_ROOT_CACHED;
	cfqd->root_group = cfqg_new(cfqd, NULL, NULL);
	return cfqd->root_group ? 0 : -ENOMEM;
}

void ios_cfq_groups_exit(struct cfq_data *cfqd)
{
	while (!ios_list_empty(&cfqd->all_groups)) {
		struct cfq_group *g = ios_list_first_entry(&cfqd->all_groups, struct cfq_group, all);

		ios_list_del(&g->all);
		free(g);
	}
}

/* The group of @cg if CFQ has made one (no creation); the root for the root. */
struct cfq_group *ios_cfq_find_group(struct cfq_data *cfqd, const struct ios_cgroup *cg)
{
	struct ios_list_head *pos;

	if (!cg || !cg->id)
		return cfqd->root_group;
	ios_list_for_each(pos, &cfqd->all_groups) {
		struct cfq_group *g = ios_list_entry(pos, struct cfq_group, all);

		if (g->cg == cg)
			return g;
	}
	return NULL;
}

struct cfq_group *ios_cfq_lookup_group(struct cfq_data *cfqd, const struct ios_cgroup *cg)
{
	struct cfq_group *g, *parent = cfqd->root_group;

	/* 2.6.31 has no groups: everyone is in the root */
	if (!cg || !cg->id || !cfqd->prof->groups)
		return cfqd->root_group;
	g = ios_cfq_find_group(cfqd, cg);
	if (g)
		return g;
	/* 4.19 builds the path down from the root; 2.6.33's groups are all the root's */
	if (cfqd->prof->hier_groups && cg->parent && cg->parent->id)
		parent = ios_cfq_lookup_group(cfqd, cg->parent);
	g = cfqg_new(cfqd, cg, parent);
	/* out of memory: the root serves, as the kernel falls back to it */
	return g ? g : cfqd->root_group;
}

bool ios_cfqg_is_descendant(const struct cfq_group *cfqg, const struct cfq_group *ancestor)
{
	for (; cfqg; cfqg = cfqg->parent)
		if (cfqg == ancestor)
			return true;
	return false;
}

/*
 * The kernel keys groups by vdisktime - min_vdisktime; every key shares the
 * offset, so the order is that of vdisktime itself (compared wrap-safe).
 */
static bool cfqg_less(const struct ios_rb_node *a, const struct ios_rb_node *b)
{
	const struct cfq_group *ga = ios_rb_entry(a, struct cfq_group, rb_node);
	const struct cfq_group *gb = ios_rb_entry(b, struct cfq_group, rb_node);

	return (int64_t)(ga->vdisktime - gb->vdisktime) < 0;
}

static void grp_insert(struct cfq_data *cfqd, struct cfq_group *g)
{
	ios_cfq_rb_insert(&cfqd->grp_service_tree, &g->rb_node, cfqg_less);
}

static struct cfq_group *grp_first(struct cfq_data *cfqd)
{
	struct ios_rb_node *n = ios_rb_first_cached(&cfqd->grp_service_tree.rb);

	return n ? ios_rb_entry(n, struct cfq_group, rb_node) : NULL;
}

static struct cfq_group *grp_last(struct cfq_data *cfqd)
{
	struct ios_rb_node *n = ios_rb_last(&cfqd->grp_service_tree.rb.rb);

	return n ? ios_rb_entry(n, struct cfq_group, rb_node) : NULL;
}

static void update_min_vdisktime(struct cfq_data *cfqd)
{
	struct cfq_rb_root *st = &cfqd->grp_service_tree;
	struct cfq_group *first = grp_first(cfqd);
	uint64_t v = st->min_vdisktime;

	if (cfqd->prof->min_vdisktime_active) {
		/* max(min, min(active, leftmost)) */
		uint64_t cand = UINT64_MAX;

		if (cfqd->serving_group && cfqd->serving_group->on_st)
			cand = cfqd->serving_group->vdisktime;
		if (first && (cand == UINT64_MAX || (int64_t)(first->vdisktime - cand) < 0))
			cand = first->vdisktime;
		if (cand != UINT64_MAX && (int64_t)(cand - v) > 0)
			v = cand;
	} else if (first && (int64_t)(first->vdisktime - v) > 0) {
		v = first->vdisktime;
	}
	st->min_vdisktime = v;
}

/*
 * Onto the group tree (cfq_group_service_tree_add). 2.6.33 adds the weight
 * to the tree's total. 4.19 activates the group and, if it was not active,
 * its ancestors up to the first active one, and computes its vfraction
 * all the way to the root.
 */
static void grp_st_add(struct cfq_data *cfqd, struct cfq_group *g)
{
	grp_insert(cfqd, g);
	g->on_st = true;
	if (cfqd->prof->hier_groups) {
		uint64_t vfr = 1u << CFQ_SERVICE_SHIFT;
		bool propagate = !g->nr_active++;
		struct cfq_group *pos = g;

		g->children_weight += g->leaf_weight;
		vfr = vfr * g->leaf_weight / g->children_weight;
		for (; pos->parent; pos = pos->parent) {
			if (propagate) {
				propagate = !pos->parent->nr_active++;
				pos->parent->children_weight += pos->weight;
			}
			vfr = vfr * pos->weight / pos->parent->children_weight;
		}
		g->vfraction = vfr ? (unsigned)vfr : 1;
	} else {
		cfqd->grp_service_tree.total_weight += g->weight;
	}
}

/* Off the group tree, undoing grp_st_add (cfq_group_service_tree_del). */
static void grp_st_del(struct cfq_data *cfqd, struct cfq_group *g)
{
	if (cfqd->prof->hier_groups) {
		struct cfq_group *pos = g;
		bool propagate = !--g->nr_active;

		g->children_weight -= g->leaf_weight;
		while (propagate) {
			struct cfq_group *parent = pos->parent;

			pos->vfraction = 0;
			if (!parent)
				break;
			propagate = !--parent->nr_active;
			parent->children_weight -= pos->weight;
			pos = parent;
		}
	} else {
		cfqd->grp_service_tree.total_weight -= g->weight;
	}
	ios_cfq_rb_erase(&cfqd->grp_service_tree, &g->rb_node);
	g->on_st = false;
}

/* A group gets its first busy queue: onto the group tree, behind the others. */
void ios_cfq_group_busy(struct cfq_data *cfqd, struct cfq_group *g)
{
	struct cfq_group *last;

	g->nr_cfqq++;
	if (!cfqd->prof->groups || g->on_st)
		return;
	/*
	 * New groups start just behind the last one. The delay is added
	 * unscaled (a kernel quirk: charges are << CFQ_SERVICE_SHIFT), so it
	 * is worth 1/4096 of a charged slice of the same length; in 4.19's
	 * IOPS mode it is a raw 200 in request units.
	 */
	last = grp_last(cfqd);
	if (last)
		g->vdisktime = last->vdisktime +
			       (ios_cfq_iops_mode(cfqd) ? CFQ_IOPS_GROUP_DELAY : CFQ_IDLE_DELAY_NS);
	else
		g->vdisktime = cfqd->grp_service_tree.min_vdisktime;
	grp_st_add(cfqd, g);
}

/* A group loses its last busy queue. */
void ios_cfq_group_idle(struct cfq_data *cfqd, struct cfq_group *g)
{
	IOS_BUG_ON(!g->nr_cfqq);
	g->nr_cfqq--;
	if (g->nr_cfqq || !cfqd->prof->groups || !g->on_st)
		return;
	grp_st_del(cfqd, g);
	g->saved_wl_slice = 0;
}

uint64_t ios_cfq_group_slice(struct cfq_data *cfqd, struct cfq_group *g)
{
	uint64_t total = cfqd->grp_service_tree.total_weight;

	if (!g->on_st)
		return cfqd->target_latency;
	if (cfqd->prof->hier_groups)
		return cfqd->target_latency * g->vfraction >> CFQ_SERVICE_SHIFT;
	if (!total)
		return cfqd->target_latency;
	return cfqd->target_latency * g->weight / total;
}

/*
 * The time @cfqq held the disk in the slice ending now, as group_served
 * measures it (cfq_cfqq_slice_usage in 2.6.33+): from the slice's start,
 * idling included, at most the slice it was given; a queue expired before
 * its slice started pays from its first dispatch, a jiffy at least when
 * @min_jiffy (the kernel's group charge: "the seek time it cost anyway").
 * The report's per-process time passes false: an idle-class queue expired
 * after every request would otherwise be charged a jiffy each time, more
 * than the run lasted.
 */
uint64_t ios_cfq_slice_time_used(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
				 bool min_jiffy)
{
	uint64_t now = cfqd->now, used;

	if (!cfqq->slice_start || cfqq->slice_start == now) {
		used = now - cfqq->dispatch_start;
		if (min_jiffy && used < CFQ_JIFFY_NS)
			used = CFQ_JIFFY_NS;
	} else {
		used = now - cfqq->slice_start;
		if (used > cfqq->allocated_slice)
			used = cfqq->allocated_slice;
	}
	return used;
}

/* Charge @g for the time @cfqq held the disk (group_served). */
void ios_cfq_group_served(struct cfq_data *cfqd, struct cfq_group *g, struct cfq_queue *cfqq)
{
	uint64_t now = cfqd->now, used, charge;
	unsigned nr_sync = g->nr_cfqq - ios_cfq_group_busy_queues_wl(CFQ_IDLE_WL, g) -
			   g->service_trees[CFQ_RT_WL][CFQ_ASYNC_WL].count -
			   g->service_trees[CFQ_BE_WL][CFQ_ASYNC_WL].count;

	if (!cfqd->prof->groups)
		return;
	used = ios_cfq_slice_time_used(cfqd, cfqq, true);
	charge = used;
	if (ios_cfq_iops_mode(cfqd))
		charge = cfqq->slice_dispatch;
	else if (!cfqq_sync(cfqq) && !nr_sync)
		charge = cfqq->allocated_slice;

	/* blkio.time is the time used, whatever the charge */
	g->stat_time_ns += used;
	if (g->on_st) {
		if (cfqd->prof->hier_groups) {
			/*
			 * vfraction is valid only on the tree: keep it, leave,
			 * move on, come back (which recomputes it, since the
			 * other groups may have come or gone meanwhile).
			 */
			unsigned vfr = g->vfraction;

			grp_st_del(cfqd, g);
			g->vdisktime += (charge << (2 * CFQ_SERVICE_SHIFT)) / vfr;
			grp_st_add(cfqd, g);
		} else {
			ios_cfq_rb_erase(&cfqd->grp_service_tree, &g->rb_node);
			g->vdisktime += (charge << CFQ_SERVICE_SHIFT) * CFQ_WEIGHT_DEFAULT / g->weight;
			grp_insert(cfqd, g);
		}
	}
	/* remember the workload position for the group's next turn */
	if ((int64_t)(cfqd->workload_expires - now) > 0) {
		g->saved_wl_slice = cfqd->workload_expires - now;
		g->saved_wl_type = cfqd->serving_wl_type;
		g->saved_wl_class = cfqd->serving_wl_class;
	} else {
		g->saved_wl_slice = 0;
	}
}

/*
 * 2.6.33 with group_isolation=0 (cfq_service_tree_add): a SYNC_NOIDLE queue
 * of a group other than the root is served in the root group; once it is a
 * SYNC queue again it goes back to its own. The queue is busy (on_rr), so
 * it leaves one group's busy count for the other's. Returns whether it
 * moved.
 */
bool ios_cfq_isolation_move(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_group *to;

	if (!cfqd->prof->isolation_move || cfqd->group_isolation)
		return false;
	if (cfqq_type(cfqq) == CFQ_SYNC_NOIDLE_WL && cfqq->cfqg != cfqd->root_group) {
		cfqq->orig_cfqg = cfqq->cfqg;
		to = cfqd->root_group;
	} else if (cfqq_type(cfqq) == CFQ_SYNC_WL && cfqq->orig_cfqg) {
		to = cfqq->orig_cfqg;
		cfqq->orig_cfqg = NULL;
	} else {
		return false;
	}
	/* its requests in flight complete in the group it is in then */
	cfqq->cfqg->dispatched -= cfqq->dispatched;
	to->dispatched += cfqq->dispatched;
	if (cfqq_has(cfqq, CFQ_QF_ON_RR)) {
		ios_cfq_group_idle(cfqd, cfqq->cfqg);
		cfqq->cfqg = to;
		ios_cfq_group_busy(cfqd, to);
	} else {
		cfqq->cfqg = to;
	}
	ios_queue_msg(cfqd->q, cfqd->now, "cfq%u moved to %s group", cfqq->pid,
		      to == cfqd->root_group ? "the root" : "its own");
	return true;
}

/* ---- choosing the workload ---- */

static enum cfq_wl_type choose_wl_type(struct cfq_group *g, enum cfq_wl_class c)
{
	enum cfq_wl_type best = CFQ_SYNC_NOIDLE_WL;
	uint64_t lowest = 0;
	bool found = false;

	for (int t = 0; t <= CFQ_SYNC_WL; t++) {
		struct ios_rb_node *n = ios_rb_first_cached(&ios_cfq_st_for(g, c, t)->rb);
		struct cfq_queue *q;

		if (!n)
			continue;
		q = ios_rb_entry(n, struct cfq_queue, rb_node);
		if (!found || (int64_t)(q->rb_key - lowest) < 0) {
			lowest = q->rb_key;
			best = t;
			found = true;
		}
	}
	return best;
}

static void choose_service_tree(struct cfq_data *cfqd, struct cfq_group *g)
{
	enum cfq_wl_class prev_class = cfqd->serving_wl_class;
	uint64_t now = cfqd->now, slice, grp_slice;
	unsigned count;

	if (ios_cfq_group_busy_queues_wl(CFQ_RT_WL, g))
		cfqd->serving_wl_class = CFQ_RT_WL;
	else if (ios_cfq_group_busy_queues_wl(CFQ_BE_WL, g))
		cfqd->serving_wl_class = CFQ_BE_WL;
	else {
		cfqd->serving_wl_class = CFQ_IDLE_WL;
		cfqd->workload_expires = now + CFQ_JIFFY_NS;
		return;
	}
	if (cfqd->prof->class_change_new_workload && prev_class != cfqd->serving_wl_class)
		goto new_workload;
	/* the current type still has work and time: keep it */
	if (ios_cfq_st_for(g, cfqd->serving_wl_class, cfqd->serving_wl_type)->count &&
	    (int64_t)(now - cfqd->workload_expires) <= 0)
		return;
new_workload:
	cfqd->serving_wl_type = choose_wl_type(g, cfqd->serving_wl_class);
	count = ios_cfq_st_for(g, cfqd->serving_wl_class, cfqd->serving_wl_type)->count;
	grp_slice = ios_cfq_group_slice(cfqd, g);
	{
		/* the average as the last queue slice left it: only slices update it */
		unsigned avg = g->busy_queues_avg[cfqd->serving_wl_class == CFQ_RT_WL];
		unsigned busy = ios_cfq_group_busy_queues_wl(cfqd->serving_wl_class, g);
		unsigned div = avg > busy ? avg : busy;

		slice = div ? grp_slice * count / div : grp_slice;
	}
	if (cfqd->serving_wl_type == CFQ_ASYNC_WL) {
		unsigned async = g->service_trees[CFQ_RT_WL][CFQ_ASYNC_WL].count +
				 g->service_trees[CFQ_BE_WL][CFQ_ASYNC_WL].count;
		uint64_t tmp = cfqd->busy_queues ? cfqd->target_latency * async / cfqd->busy_queues
						 : slice;

		if (tmp < slice)
			slice = tmp;
		/* async gets less than sync for the same share */
		slice = slice * cfqd->slice[0] / cfqd->slice[1];
	} else if (slice < 2 * cfqd->slice_idle) {
		slice = 2 * cfqd->slice_idle;
	}
	if (slice < CFQ_MIN_TT_NS)
		slice = CFQ_MIN_TT_NS;
	cfqd->workload_expires = now + slice;
	if (cfqd->prof->arm == CFQ_ARM_NOIDLE_TREE)
		cfqd->noidle_tree_requires_idle = false;
}

/* Pick the next group and, in it, the workload to serve (cfq_choose_cfqg). */
void ios_cfq_choose_cfqg(struct cfq_data *cfqd)
{
	struct cfq_group *g;

	update_min_vdisktime(cfqd);
	g = grp_first(cfqd);
	if (!g)
		g = cfqd->root_group;
	cfqd->serving_group = g;
	if (g->saved_wl_slice) {
		cfqd->workload_expires = cfqd->now + g->saved_wl_slice;
		cfqd->serving_wl_type = g->saved_wl_type;
		cfqd->serving_wl_class = g->saved_wl_class;
	} else {
		/* already over, also at time 0: workload_expires is compared wrap-safe */
		cfqd->workload_expires = cfqd->now - 1;
	}
	choose_service_tree(cfqd, g);
}
