/*
 * BFQ: who owns what. Per-process contexts (bics), the life of process
 * queues, which queue a request belongs to (including queues shared by
 * cooperating processes, and bursts of queue creations), and groups (Linux
 * 4.19 block/bfq-cgroup.c and the queue-ownership half of bfq-iosched.c).
 *
 * Contexts. A task's per-queue state would normally hang off
 * ioc->icq[q->id]. Here it is found through a map from io context to bic
 * owned by the scheduler instead, because the runner may free an io context
 * (the writeback flusher's, a finished task's) before the request queue
 * goes away, and the scheduler must then neither follow nor clear a pointer
 * into it. The map is only ever searched by key, never walked, so its
 * pointer hashing cannot leak into any decision: runs stay deterministic.
 *
 * Queues. A bic points to one sync queue and one async queue. Sync queues
 * are private to the process (until early queue merging shares one); async
 * queues are shared per group, class and level, as in Linux. A queue is
 * reference counted: the processes pointing at it, its requests, its place
 * on a service tree, and for async queues the group. It is freed when the
 * last reference goes. Every queue is also on bfqd->all_queues so that
 * exit() can free whatever is left without chasing references.
 *
 * Groups. One group per cgroup the workload names (fio cgroup=), created on
 * first use with its parent chain, weight cgroup_weight or 100 (Linux's
 * io.bfq.weight default; range 1..1000). Groups live until the scheduler
 * exits (Linux frees them with the blkcg; the lab never deletes a cgroup
 * while running). A group is scheduled as an entity in its parent's
 * service trees, so B-WF2Q+ shares the device between groups by weight at
 * every level, then between the queues inside each group.
 */
#include <stdlib.h>
#include <string.h>
#include "bfq_int.h"

static void bfq_put_stable_ref(struct bfq_queue *bfqq);

#define BFQQ_CLOSE_THR		(8 * 1024)		/* sectors: "close" for queue merging */
#define BFQ_MERGE_TIME_LIMIT_NS	(100 * IOS_NSEC_PER_MSEC)	/* HZ/10: only young queues merge */

/*
 * Sharing. Early queue merge redirects a process to another process's
 * queue when its I/O lands within 4 MiB of where that queue is working and
 * both are young, sync, of one class and not seeky; the shared queue keeps
 * one weight. What each queue had learned (think time, I/O-boundness,
 * raising) is saved in the bic and restored when a shared queue that went
 * seeky is split again at the process's next request.
 *
 * Bursts. Queues created within 180 ms of each other under one parent form
 * a burst; from the eighth on it is large and its queues are neither
 * weight-raised nor idled for: many processes started together (a service,
 * a parallel job) want throughput.
 */

/* ---- context map ---- */

static size_t bfq_bic_hash(const struct ios_ioc *ioc, size_t mask)
{
	uint64_t h = (uint64_t)(uintptr_t)ioc * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h ^ (h >> 29)) & mask;
}

int ios_bfq_bic_map_init(struct bfq_bic_map *m)
{
	m->mask = 63;
	m->used = 0;
	m->slot = calloc(m->mask + 1, sizeof(*m->slot));
	return m->slot ? 0 : -ENOMEM;
}

void ios_bfq_bic_map_free(struct bfq_bic_map *m)
{
	free(m->slot);
	m->slot = NULL;
	m->used = 0;
}

static size_t bfq_bic_find_slot(const struct bfq_bic_map *m, const struct ios_ioc *ioc)
{
	size_t i = bfq_bic_hash(ioc, m->mask);

	while (m->slot[i] && m->slot[i]->ioc != ioc)
		i = (i + 1) & m->mask;
	return i;
}

static int bfq_bic_map_grow(struct bfq_bic_map *m)
{
	struct bfq_bic_map n = { .mask = m->mask * 2 + 1 };

	n.slot = calloc(n.mask + 1, sizeof(*n.slot));
	if (!n.slot)
		return -ENOMEM;
	for (size_t i = 0; i <= m->mask; i++)
		if (m->slot[i])
			n.slot[bfq_bic_find_slot(&n, m->slot[i]->ioc)] = m->slot[i];
	n.used = m->used;
	free(m->slot);
	*m = n;
	return 0;
}

/* Linear probing with backward-shift deletion: no tombstones. */
static void bfq_bic_map_del(struct bfq_bic_map *m, const struct ios_ioc *ioc)
{
	size_t i = bfq_bic_find_slot(m, ioc), j = i;

	if (!m->slot[i])
		return;
	m->slot[i] = NULL;
	m->used--;
	for (;;) {
		size_t home;

		j = (j + 1) & m->mask;
		if (!m->slot[j])
			return;
		home = bfq_bic_hash(m->slot[j]->ioc, m->mask);
		/* move slot j into the hole at i if its home is not in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->slot[i] = m->slot[j];
			m->slot[j] = NULL;
			i = j;
		}
	}
}

struct bfq_io_cq *ios_bfq_bic_lookup(struct bfq_data *bfqd, const struct ios_ioc *ioc)
{
	return bfqd->bic_map.slot[bfq_bic_find_slot(&bfqd->bic_map, ioc)];
}

/* The context of @ioc, created on first use; NULL only when out of memory. */
struct bfq_io_cq *ios_bfq_bic_get(struct bfq_data *bfqd, struct ios_ioc *ioc)
{
	struct bfq_bic_map *m = &bfqd->bic_map;
	struct bfq_io_cq *bic = ios_bfq_bic_lookup(bfqd, ioc);

	if (bic)
		return bic;
	if ((m->used + 1) * 2 > m->mask + 1 && bfq_bic_map_grow(m))
		return NULL;
	bic = calloc(1, sizeof(*bic));
	if (!bic)
		return NULL;
	bic->ioc = ioc;
	bic->ioprio_class = ioc ? ios_ioc_class(ioc) : IOS_IOPRIO_CLASS_BE;
	bic->ioprio_level = ioc ? ios_ioc_level(ioc) : IOS_IOPRIO_NORM;
	bic->cgroup_id = ioc && ioc->cgroup ? ioc->cgroup->id : 0;
	bic->cgroup = ioc ? ioc->cgroup : NULL;
	bic->cgroup_seen = true;
	ios_list_add_tail(&bic->node, &bfqd->bics);
	m->slot[bfq_bic_find_slot(m, ioc)] = bic;
	m->used++;
	return bic;
}

/*
 * @bic lets go of its queue: the queue's back pointer must not outlive the
 * bic. An async queue stays in its group's slot after the bic moves to
 * another (an ioprio or cgroup change); it carries the group's reference
 * as well, so its process count never falls to one and it never adopts a
 * bic today, but if it did the bic's exit would leave it dangling. Later
 * kernels clear the pointer the same way in bic_set_bfqq.
 */
static void bfq_bic_drop_queue(struct bfq_io_cq *bic, bool is_sync)
{
	struct bfq_queue *bfqq = bic->bfqq[is_sync];

	bic->bfqq[is_sync] = NULL;
	if (bfqq->bic == bic)
		bfqq->bic = NULL;
	ios_bfq_put_queue(bfqq);
}

/*
 * The process is gone: drop its queues (exit_icq). Requests keep only
 * queue references (rq->sched_priv[0]), never the bic, so it can go now:
 * nothing in flight reaches it.
 */
void ios_bfq_bic_release(struct bfq_data *bfqd, struct bfq_io_cq *bic)
{
	/* 6.x (_bfq_exit_icq): a merge scheduled for this process is off */
	if (bic->stable_merge_bfqq) {
		bfq_put_stable_ref(bic->stable_merge_bfqq);
		bic->stable_merge_bfqq = NULL;
	}
	for (int is_sync = 1; is_sync >= 0; is_sync--) {
		struct bfq_queue *bfqq = bic->bfqq[is_sync];

		if (!bfqq)
			continue;
		bfqq->bic = NULL;
		bic->bfqq[is_sync] = NULL;
		ios_bfq_exit_bfqq(bfqd, bfqq);
	}
	bfq_bic_map_del(&bfqd->bic_map, bic->ioc);
	/* 6.x counts the process's requests in the bic: it goes with the last one */
	if (bic->requests > 0) {
		bic->dead = true;
		return;
	}
	ios_list_del(&bic->node);
	free(bic);
}

/* ---- groups ---- */

static void bfq_group_init(struct bfq_data *bfqd, struct bfq_group *bfqg, unsigned id)
{
	bfqg->bfqd = bfqd;
	bfqg->id = id;
	ios_bfq_init_sched_data(&bfqg->sched_data, bfqd->now_ns);
	bfqg->rq_pos_tree = IOS_RB_ROOT;
	ios_rb_clear(&bfqg->entity.rb_node);
}

struct bfq_group *ios_bfq_group_root_create(struct bfq_data *bfqd)
{
	struct bfq_group *root = calloc(1, sizeof(*root));

	if (!root)
		return NULL;
	bfq_group_init(bfqd, root, 0);
	root->my_entity = NULL;
	return root;
}

/*
 * The group for cgroup @cg, created with its ancestors on first use. NULL
 * when out of memory (the caller then uses the root group).
 */
struct bfq_group *ios_bfq_find_set_group(struct bfq_data *bfqd, const struct ios_cgroup *cg)
{
	struct bfq_group *parent, *bfqg;
	unsigned w;

	if (!cg || cg->id == 0)
		return bfqd->root_group;
	if (cg->id >= bfqd->nr_groups) {
		unsigned n = bfqd->nr_groups ? bfqd->nr_groups : 4;
		struct bfq_group **v;

		while (n <= cg->id)
			n *= 2;
		v = realloc(bfqd->groups, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + bfqd->nr_groups, 0, (n - bfqd->nr_groups) * sizeof(*v));
		bfqd->groups = v;
		bfqd->nr_groups = n;
		bfqd->groups[0] = bfqd->root_group;
	}
	if (bfqd->groups[cg->id])
		return bfqd->groups[cg->id];
	parent = ios_bfq_find_set_group(bfqd, cg->parent);
	if (!parent)
		return NULL;
	bfqg = calloc(1, sizeof(*bfqg));
	if (!bfqg)
		return NULL;
	bfq_group_init(bfqd, bfqg, cg->id);
	bfqg->my_entity = &bfqg->entity;
	bfqg->entity.my_sched_data = &bfqg->sched_data;
	/* the runner accepts fio's cgroup_weight range, 1..1000, io.bfq.weight's */
	w = cg->weight ? cg->weight : BFQ_DEFAULT_GRP_WEIGHT;
	if (w > BFQ_MAX_WEIGHT)
		w = BFQ_MAX_WEIGHT;
	bfqg->entity.new_weight = w;
	ios_bfq_init_entity(&bfqg->entity, parent);
	bfqd->groups[cg->id] = bfqg;
	return bfqg;
}

void ios_bfq_groups_free(struct bfq_data *bfqd)
{
	for (unsigned i = 1; i < bfqd->nr_groups; i++)
		free(bfqd->groups[i]);
	free(bfqd->groups);
	bfqd->groups = NULL;
	bfqd->nr_groups = 0;
	free(bfqd->root_group);
	bfqd->root_group = NULL;
}

void ios_bfq_init_entity(struct bfq_entity *entity, struct bfq_group *bfqg)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	entity->weight = entity->new_weight;
	entity->orig_weight = entity->new_weight;
	if (bfqq) {
		bfqq->ioprio = bfqq->new_ioprio;
		bfqq->ioprio_class = bfqq->new_ioprio_class;
	}
	entity->parent = bfqg->my_entity;
	entity->sched_data = &bfqg->sched_data;
}

/* The process behind @bfqq moved to another cgroup: move the queue along. */
void ios_bfq_bfqq_move(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct bfq_group *bfqg)
{
	struct bfq_entity *entity = &bfqq->entity;

	if (bfqq == bfqd->in_service_queue)
		ios_bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_PREEMPTED);
	if (bfqq_flag(bfqq, BFQQF_busy)) {
		ios_bfq_deactivate_bfqq(bfqd, bfqq, false, false);
	} else if (entity->on_st) {
		/* on the old group's idle tree: forget it there */
		ios_bfq_put_idle_entity(ios_bfq_entity_service_tree(entity), entity);
	}
	if (bfqq->pos_root) {
		ios_rb_erase(&bfqq->pos_node, bfqq->pos_root);
		bfqq->pos_root = NULL;
	}
	/* its requests not yet freed now count in the new group (6.x allocated) */
	for (struct bfq_entity *e = entity->parent; e; e = e->parent)
		e->allocated -= bfqq->allocated;
	entity->parent = bfqg->my_entity;
	entity->sched_data = &bfqg->sched_data;
	for (struct bfq_entity *e = entity->parent; e; e = e->parent)
		e->allocated += bfqq->allocated;
	if (bfqq_flag(bfqq, BFQQF_busy)) {
		ios_bfq_pos_tree_add_move(bfqd, bfqq);
		ios_bfq_activate_bfqq(bfqd, bfqq);
	}
}

/* ---- queues ---- */

void ios_bfq_set_next_ioprio_data(struct bfq_queue *bfqq, const struct bfq_io_cq *bic)
{
	int class = bic->ioprio_class, level = bic->ioprio_level;

	if (class == IOS_IOPRIO_CLASS_IDLE)
		level = IOS_IOPRIO_LEVELS - 1;
	if (class < IOS_IOPRIO_CLASS_RT || class > IOS_IOPRIO_CLASS_IDLE)
		class = IOS_IOPRIO_CLASS_BE;
	if (level < 0 || level >= IOS_IOPRIO_LEVELS)
		level = IOS_IOPRIO_NORM;
	bfqq->new_ioprio = level;
	bfqq->new_ioprio_class = class;
	bfqq->entity.new_weight = bfq_ioprio_to_weight(level);
	bfqq->entity.prio_changed = true;
}

static void bfq_init_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct bfq_io_cq *bic,
			  uint32_t pid, bool is_sync)
{
	int64_t now = bfqd->now_ns;
	int max_budget = bfqd->budgets_assigned < 194 ? 16384 : bfqd->max_budget;

	ios_rb_clear(&bfqq->entity.rb_node);
	ios_rb_clear(&bfqq->pos_node);
	bfqq->sort_list = IOS_RB_ROOT;
	ios_list_init(&bfqq->fifo);
	ios_list_init(&bfqq->burst_node);
	ios_list_init(&bfqq->all_node);
	ios_list_init(&bfqq->active_node);
	ios_list_init(&bfqq->woken_list);
	ios_list_init(&bfqq->woken_node);
	bfqq->ref = 0;
	bfqq->bfqd = bfqd;
	if (bic)
		ios_bfq_set_next_ioprio_data(bfqq, bic);
	if (is_sync) {
		/* no idling for the idle class, so no think time to track */
		if (!bfq_class_idle(bfqq) && bfqq->new_ioprio_class != IOS_IOPRIO_CLASS_IDLE)
			bfqq_set(bfqq, BFQQF_has_short_ttime);
		bfqq_set(bfqq, BFQQF_sync | BFQQF_just_created);
	}
	/* "minus infinity from now": the first think time counts as long */
	bfqq->last_end_request_ns = now + 1;
	bfqq_set(bfqq, BFQQF_IO_bound);
	bfqq->pid = pid;
	bfqq->max_budget = 2 * max_budget / 3;
	bfqq->budget_timeout_ns = BFQ_T_NEVER;
	bfqq->wr_coeff = 1;
	bfqq->last_wr_start_finish_ns = now;
	bfqq->wr_start_at_switch_to_srt_ns = BFQ_T_NEVER;
	bfqq->split_time_ns = BFQ_T_NEVER;
	bfqq->soft_rt_next_start_ns = now;
	bfqq->seek_history = 1;		/* the first request is almost surely seeky */
	bfqq->seek_count = 1;
	/* 6.x (bfq_init_bfqq): stable merge and injection clocks start now */
	bfqq->creation_time_ns = now;
	bfqq->decrease_time_ns = now;
}

static struct bfq_queue **bfq_async_queue_prio(struct bfq_group *bfqg, int class, int level)
{
	switch (class) {
	case IOS_IOPRIO_CLASS_RT:
		return &bfqg->async_bfqq[0][level];
	case IOS_IOPRIO_CLASS_IDLE:
		return &bfqg->async_idle_bfqq;
	default:
		return &bfqg->async_bfqq[1][level];
	}
}

/*
 * A queue for @bic's process (@is_sync: its own sync queue; else the shared
 * async queue of its group, class and level), with a process reference
 * taken. NULL only when out of memory.
 */
struct bfq_queue *ios_bfq_get_queue(struct bfq_data *bfqd, struct bfq_io_cq *bic, bool is_sync)
{
	struct ios_cgroup *cg = bic->cgroup;
	struct bfq_group *bfqg = ios_bfq_find_set_group(bfqd, cg);
	struct bfq_queue **async_slot = NULL, *bfqq;
	int level = bic->ioprio_level;

	if (!bfqg)
		bfqg = bfqd->root_group;
	if (bic->ioprio_class == IOS_IOPRIO_CLASS_IDLE)
		level = IOS_IOPRIO_LEVELS - 1;
	if (level < 0 || level >= IOS_IOPRIO_LEVELS)
		level = IOS_IOPRIO_NORM;
	/*
	 * A task without an ioprio (class NONE) has its nice-derived level for
	 * the queue's weight, but 4.19 files its async queue under the BE slot
	 * of IOPRIO_NORM whatever the nice: all such writers of a group share
	 * one async queue, weighted by the one that allocated it.
	 */
	if (!is_sync && bic->ioc && bic->ioc->ioprio_class == IOS_IOPRIO_CLASS_NONE)
		level = IOS_IOPRIO_NORM;
	if (!is_sync) {
		async_slot = bfq_async_queue_prio(bfqg, bic->ioprio_class, level);
		bfqq = *async_slot;
		if (bfqq)
			goto out;
	}
	bfqq = calloc(1, sizeof(*bfqq));
	if (!bfqq)
		return NULL;
	bfq_init_bfqq(bfqd, bfqq, bic, bic->ioc ? bic->ioc->pid : 0, is_sync);
	ios_bfq_init_entity(&bfqq->entity, bfqg);
	ios_list_add_tail(&bfqq->all_node, &bfqd->all_queues);
	bfqd->nr_queues_created++;
	if (async_slot) {
		bfqq->ref++;	/* the group's reference: async queues live with their group */
		*async_slot = bfqq;
	}
out:
	bfqq->ref++;		/* the process's reference */
	return bfqq;
}

/* 6.x: a freed queue is no group's newest queue (bfq_release_process_ref). */
static void bfq_forget_last_created(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	if (bfqd->root_group && bfqd->root_group->last_bfqq_created == bfqq)
		bfqd->root_group->last_bfqq_created = NULL;
	for (unsigned g = 0; g < bfqd->nr_groups; g++)
		if (bfqd->groups[g] && bfqd->groups[g]->last_bfqq_created == bfqq)
			bfqd->groups[g]->last_bfqq_created = NULL;
}

void ios_bfq_put_queue(struct bfq_queue *bfqq)
{
	struct bfq_data *bfqd = bfqq->bfqd;

	IOS_BUG_ON(bfqq->ref <= 0);
	if (--bfqq->ref)
		return;
	IOS_BUG_ON(bfqq == bfqd->in_service_queue);
	IOS_BUG_ON(!ios_rb_empty(&bfqq->sort_list) || bfqq->entity.tree || bfqq->pos_root);
	if (!ios_list_unlinked(&bfqq->burst_node)) {
		ios_list_del(&bfqq->burst_node);
		/* a process leaving a burst no longer counts towards it */
		if (bfqq->bic && bfqd->burst_size > 0)
			bfqd->burst_size--;
	}
	if (bfqd->prof->wakers)
		ios_bfq_forget_wakers(bfqd, bfqq);
	if (bfqd->prof->stable_merge)
		bfq_forget_last_created(bfqd, bfqq);
	ios_list_del(&bfqq->all_node);
	free(bfqq);
}

/* ---- early queue merge ---- */

#define BFQ_ACTIVATION_STABLE_MERGING_NS	((int64_t)(600 * IOS_NSEC_PER_MSEC))
#define BFQ_LATE_STABLE_MERGING_NS		((int64_t)(600 * IOS_NSEC_PER_MSEC))

static struct bfq_queue *bfq_pos_of(struct ios_rb_node *n)
{
	return ios_container_of(n, struct bfq_queue, pos_node);
}

/* Exact match by next_rq sector, and the parent/link where it would go. */
static struct bfq_queue *bfq_rq_pos_tree_lookup(struct ios_rb_root *root, uint64_t sector,
						struct ios_rb_node **ret_parent,
						struct ios_rb_node ***rb_link)
{
	struct ios_rb_node **p = &root->node, *parent = NULL;

	while (*p) {
		struct bfq_queue *bfqq = bfq_pos_of(*p);
		uint64_t s = bfqq->pos_sector;

		parent = *p;
		if (sector == s) {
			*ret_parent = parent;
			if (rb_link)
				*rb_link = p;
			return bfqq;
		}
		p = sector > s ? &(*p)->right : &(*p)->left;
	}
	*ret_parent = parent;
	if (rb_link)
		*rb_link = p;
	return NULL;
}

/* Cooperating processes start together: only young queues may be merged. */
bool ios_bfq_too_late_for_merging(const struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	return bfqq->service_from_backlogged > 0 &&
	       bfqq->first_io_time_ns + (int64_t)BFQ_MERGE_TIME_LIMIT_NS < bfqd->now_ns;
}

void ios_bfq_pos_tree_add_move(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct ios_rb_node **p, *parent;

	/* 6.x: no early queue merge on queueing flash, so no position tree either */
	if (bfqd->prof->eqm_off_nonrot_queueing && bfqd->nonrot_with_queueing)
		return;
	if (bfqq->pos_root) {
		ios_rb_erase(&bfqq->pos_node, bfqq->pos_root);
		bfqq->pos_root = NULL;
	}
	if (ios_bfq_too_late_for_merging(bfqd, bfqq) || bfq_class_idle(bfqq) || !bfqq->next_rq ||
	    bfqq == &bfqd->oom_bfqq)
		return;
	bfqq->pos_root = &bfqq_group(bfqq)->rq_pos_tree;
	bfqq->pos_sector = bfqq->next_rq->sector;
	if (!bfq_rq_pos_tree_lookup(bfqq->pos_root, bfqq->pos_sector, &parent, &p)) {
		ios_rb_link(&bfqq->pos_node, parent, p);
		ios_rb_insert_color(&bfqq->pos_node, bfqq->pos_root);
	} else {
		bfqq->pos_root = NULL;
	}
}

static bool bfq_close_to(uint64_t a, uint64_t b)
{
	return (a > b ? a - b : b - a) <= BFQQ_CLOSE_THR;
}

/*
 * A queue of @bfqq's group whose next request is close to @sector: an
 * exact match, else the node where the search ended (the nearest sector on
 * one side), else its in-order neighbour on the other side. That
 * neighbour is the last node the descent turned away from on that side,
 * so it is remembered on the way down instead of walked to afterwards.
 */
static struct bfq_queue *bfqq_find_close(struct bfq_queue *bfqq, uint64_t sector)
{
	struct ios_rb_node *n = bfqq_group(bfqq)->rq_pos_tree.node, *parent = NULL;
	struct ios_rb_node *succ = NULL, *pred = NULL, *other;
	struct bfq_queue *close;

	while (n) {
		uint64_t s = bfq_pos_of(n)->pos_sector;

		if (sector == s)
			return bfq_pos_of(n);
		parent = n;
		if (sector > s) {
			pred = n;
			n = n->right;
		} else {
			succ = n;
			n = n->left;
		}
	}
	if (!parent)
		return NULL;
	close = bfq_pos_of(parent);
	if (bfq_close_to(close->pos_sector, sector))
		return close;
	/* parent below the sector: look above it, and the other way round */
	other = close->pos_sector < sector ? succ : pred;
	if (!other)
		return NULL;
	close = bfq_pos_of(other);
	return bfq_close_to(close->pos_sector, sector) ? close : NULL;
}

/* References held by processes (not by requests or a service tree). */
static int bfqq_process_refs(const struct bfq_queue *bfqq)
{
	/* 6.x: a scheduled stable merge holds a reference that is no process's */
	return bfqq->ref - bfqq->allocated - (bfqq->entity.on_st ? 1 : 0) - bfqq->stable_ref;
}

/* Schedule @bfqq's process to be redirected to @new_bfqq (end of its merge chain). */
static struct bfq_queue *bfq_setup_merge(struct bfq_queue *bfqq, struct bfq_queue *new_bfqq)
{
	struct bfq_queue *next;
	int process_refs, new_process_refs;

	/* without process references the chain may hold freed queues */
	if (!bfqq_process_refs(new_bfqq))
		return NULL;
	while ((next = new_bfqq->new_bfqq)) {
		if (next == bfqq)
			return NULL;	/* no cycles */
		new_bfqq = next;
	}
	process_refs = bfqq_process_refs(bfqq);
	new_process_refs = bfqq_process_refs(new_bfqq);
	if (process_refs == 0 || new_process_refs == 0)
		return NULL;
	bfqq->new_bfqq = new_bfqq;
	new_bfqq->ref += process_refs;
	return new_bfqq;
}

static bool bfq_may_be_close_cooperator(const struct bfq_data *bfqd, const struct bfq_queue *bfqq,
					const struct bfq_queue *new_bfqq)
{
	if (ios_bfq_too_late_for_merging(bfqd, new_bfqq))
		return false;
	if (bfq_class_idle(bfqq) || bfq_class_idle(new_bfqq) ||
	    bfqq->ioprio_class != new_bfqq->ioprio_class)
		return false;
	/* a seeky queue will not become sequential by merging */
	if (bfqq_seeky(bfqq) || bfqq_seeky(new_bfqq))
		return false;
	/* interleaved I/O is a reader pattern: never merge async queues */
	return bfqq_flag(bfqq, BFQQF_sync) && bfqq_flag(new_bfqq, BFQQF_sync);
}

/* 6.x stable merge: drop the reference a scheduled merge held (bfq_put_stable_ref). */
static void bfq_put_stable_ref(struct bfq_queue *bfqq)
{
	bfqq->stable_ref--;
	ios_bfq_put_queue(bfqq);
}

/*
 * bfq_setup_stable_merge (6.12): the scheduled merge of @bfqq into
 * @target is due. It is dropped if idling for @bfqq raises throughput (a
 * sequential queue on a disk is better alone) or a side has no process.
 */
static struct bfq_queue *bfq_setup_stable_merge(struct bfq_data *bfqd, struct bfq_queue *bfqq,
						struct bfq_queue *target, struct bfq_io_cq *bic)
{
	int pr = bfqq_process_refs(bfqq), tr = bfqq_process_refs(target);
	struct bfq_queue *new_bfqq = NULL;

	bic->stable_merge_bfqq = NULL;
	if (!ios_bfq_idling_boosts_thr(bfqd, bfqq) && (pr < tr ? pr : tr) > 0) {
		new_bfqq = bfq_setup_merge(bfqq, target);
		if (new_bfqq) {
			bic->stably_merged = true;
			if (new_bfqq->bic)
				new_bfqq->bic->stably_merged = true;
			bfqd->stable_merges++;
		}
	}
	bfq_put_stable_ref(target);
	return new_bfqq;
}

/*
 * Early queue merge: is there a queue @bfqq should share, given I/O at
 * @sector? First the in-service queue, if the I/O lands close to where it
 * is working, then any queue of the same group with a close next request.
 * 6.x (bfq_setup_cooperator) looks first at a merge already set up and at
 * a due stable merge, and does no early merge at all on queueing flash.
 */
struct bfq_queue *ios_bfq_setup_cooperator(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					      uint64_t sector, struct bfq_io_cq *bic)
{
	struct bfq_queue *in_service = bfqd->in_service_queue, *new_bfqq;
	const struct bfq_profile *prof = bfqd->prof;

	if (prof->stable_merge || prof->eqm_off_nonrot_queueing) {
		/* the end of a merge chain already set up */
		for (new_bfqq = bfqq->new_bfqq; new_bfqq && new_bfqq->new_bfqq;)
			new_bfqq = new_bfqq->new_bfqq;
		if (new_bfqq)
			return new_bfqq;
		/* a delayed stable merge, on disks and non-queueing devices, 600 ms on */
		if (prof->stable_merge && !bfqd->nonrot_with_queueing && bic &&
		    bfqq_flag(bfqq, BFQQF_sync) && bic->stable_merge_bfqq &&
		    !bfqq_flag(bfqq, BFQQF_just_created) &&
		    bfqq->split_time_ns + BFQ_LATE_STABLE_MERGING_NS < bfqd->now_ns &&
		    bfqq->creation_time_ns + BFQ_LATE_STABLE_MERGING_NS < bfqd->now_ns)
			return bfq_setup_stable_merge(bfqd, bfqq, bic->stable_merge_bfqq, bic);
		if (prof->eqm_off_nonrot_queueing && bfqd->nonrot_with_queueing)
			return NULL;
	}
	if (ios_bfq_too_late_for_merging(bfqd, bfqq))
		return NULL;
	if (bfqq->new_bfqq)
		return bfqq->new_bfqq;
	if (bfqq == &bfqd->oom_bfqq || bfqd->busy_queues == 1)
		return NULL;
	/* what bfq_may_be_close_cooperator needs of bfqq itself: no search without it */
	if (bfq_class_idle(bfqq) || bfqq_seeky(bfqq) || !bfqq_flag(bfqq, BFQQF_sync))
		return NULL;
	if (in_service && in_service != bfqq && in_service != &bfqd->oom_bfqq &&
	    bfq_close_to(sector, bfqd->last_position) &&
	    bfqq->entity.parent == in_service->entity.parent &&
	    bfq_may_be_close_cooperator(bfqd, bfqq, in_service)) {
		new_bfqq = bfq_setup_merge(bfqq, in_service);
		if (new_bfqq)
			return new_bfqq;
	}
	new_bfqq = bfqq_find_close(bfqq, sector);
	if (new_bfqq && new_bfqq != bfqq && new_bfqq != &bfqd->oom_bfqq &&
	    bfq_may_be_close_cooperator(bfqd, bfqq, new_bfqq))
		return bfq_setup_merge(bfqq, new_bfqq);
	return NULL;
}

/* Keep what a queue learned about its process, to restore it on a split. */
static void bfq_bfqq_save_state(struct bfq_queue *bfqq)
{
	struct bfq_io_cq *bic = bfqq->bic;
	struct bfq_data *bfqd = bfqq->bfqd;

	if (!bic)
		return;
	bic->saved_ttime_total = bfqq->ttime_total;
	bic->saved_ttime_samples = bfqq->ttime_samples;
	bic->saved_ttime_mean = bfqq->ttime_mean;
	bic->saved_last_end_request_ns = bfqq->last_end_request_ns;
	bic->saved_has_short_ttime = bfqq_flag(bfqq, BFQQF_has_short_ttime);
	bic->saved_io_bound = bfqq_flag(bfqq, BFQQF_IO_bound);
	bic->saved_in_large_burst = bfqq_flag(bfqq, BFQQF_in_large_burst);
	bic->was_in_burst_list = !ios_list_unlinked(&bfqq->burst_node);
	if (bfqq_flag(bfqq, BFQQF_just_created) && !bfqq_flag(bfqq, BFQQF_in_large_burst) &&
	    bfqd->low_latency) {
		/* merged before it could be raised: store the raising it deserved */
		bic->saved_wr_coeff = bfqd->wr_coeff;
		bic->saved_wr_cur_max_time_ns = ios_bfq_wr_duration(bfqd);
		bic->saved_last_wr_start_finish_ns = bfqd->now_ns;
	} else {
		bic->saved_wr_coeff = bfqq->wr_coeff;
		bic->saved_wr_start_at_switch_to_srt_ns = bfqq->wr_start_at_switch_to_srt_ns;
		bic->saved_last_wr_start_finish_ns = bfqq->last_wr_start_finish_ns;
		bic->saved_wr_cur_max_time_ns = bfqq->wr_cur_max_time_ns;
	}
}

static void bfq_bfqq_resume_state(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				  struct bfq_io_cq *bic, bool already_existing)
{
	unsigned old_wr_coeff = bfqq->wr_coeff;
	bool busy = already_existing && bfqq_flag(bfqq, BFQQF_busy);

	if (bic->saved_has_short_ttime)
		bfqq_set(bfqq, BFQQF_has_short_ttime);
	else
		bfqq_clear(bfqq, BFQQF_has_short_ttime);
	if (bic->saved_io_bound)
		bfqq_set(bfqq, BFQQF_IO_bound);
	else
		bfqq_clear(bfqq, BFQQF_IO_bound);
	bfqq->ttime_total = bic->saved_ttime_total;
	bfqq->ttime_samples = bic->saved_ttime_samples;
	bfqq->ttime_mean = bic->saved_ttime_mean;
	bfqq->last_end_request_ns = bic->saved_last_end_request_ns;
	bfqq->wr_coeff = bic->saved_wr_coeff ? bic->saved_wr_coeff : 1;
	bfqq->wr_start_at_switch_to_srt_ns = bic->saved_wr_start_at_switch_to_srt_ns;
	bfqq->last_wr_start_finish_ns = bic->saved_last_wr_start_finish_ns;
	bfqq->wr_cur_max_time_ns = bic->saved_wr_cur_max_time_ns;

	if (bfqq->wr_coeff > 1 &&
	    (bfqq_flag(bfqq, BFQQF_in_large_burst) ||
	     bfqq->last_wr_start_finish_ns + bfqq->wr_cur_max_time_ns < bfqd->now_ns)) {
		if (bfqq->wr_cur_max_time_ns == bfqd->wr_rt_max_time_ns &&
		    !bfqq_flag(bfqq, BFQQF_in_large_burst) &&
		    bfqq->wr_start_at_switch_to_srt_ns + ios_bfq_wr_duration(bfqd) >= bfqd->now_ns)
			ios_bfq_switch_back_to_interactive_wr(bfqd, bfqq);
		else
			bfqq->wr_coeff = 1;
	}
	bfqq->entity.prio_changed = true;
	if (!busy)
		return;
	if (old_wr_coeff == 1 && bfqq->wr_coeff > 1)
		bfqd->wr_busy_queues++;
	else if (old_wr_coeff > 1 && bfqq->wr_coeff == 1)
		bfqd->wr_busy_queues--;
}

/* @bic's process now sends its sync I/O to @new_bfqq, shared with another. */
void ios_bfq_merge_bfqqs(struct bfq_data *bfqd, struct bfq_io_cq *bic, struct bfq_queue *bfqq,
			    struct bfq_queue *new_bfqq)
{
	bfq_bfqq_save_state(bfqq);
	bfq_bfqq_save_state(new_bfqq);
	if (bfqq_flag(bfqq, BFQQF_IO_bound))
		bfqq_set(new_bfqq, BFQQF_IO_bound);
	bfqq_clear(bfqq, BFQQF_IO_bound);
	/*
	 * 6.x (bfq_merge_bfqqs): the merged processes cooperate, so bfqq's
	 * waker may inject for the shared queue too.
	 */
	if (bfqd->prof->wakers && bfqq->waker_bfqq && !new_bfqq->waker_bfqq &&
	    bfqq->waker_bfqq != new_bfqq)
		ios_bfq_set_waker(new_bfqq, bfqq->waker_bfqq);

	/* a raised queue hands its raising over */
	if (new_bfqq->wr_coeff == 1 && bfqq->wr_coeff > 1) {
		new_bfqq->wr_coeff = bfqq->wr_coeff;
		new_bfqq->wr_cur_max_time_ns = bfqq->wr_cur_max_time_ns;
		new_bfqq->last_wr_start_finish_ns = bfqq->last_wr_start_finish_ns;
		new_bfqq->wr_start_at_switch_to_srt_ns = bfqq->wr_start_at_switch_to_srt_ns;
		if (bfqq_flag(new_bfqq, BFQQF_busy))
			bfqd->wr_busy_queues++;
		new_bfqq->entity.prio_changed = true;
	}
	if (bfqq->wr_coeff > 1) {
		bfqq->wr_coeff = 1;
		bfqq->entity.prio_changed = true;
		if (bfqq_flag(bfqq, BFQQF_busy))
			bfqd->wr_busy_queues--;
	}
	bic->bfqq[1] = new_bfqq;
	/* 6.x (bic_set_bfqq): a stable merge into the queue merged into now is moot */
	if (bic->stable_merge_bfqq == new_bfqq) {
		bic->stable_merge_bfqq = NULL;
		bfq_put_stable_ref(new_bfqq);
	}
	/* 6.x (bfq_reassign_last_bfqq): the group's newest queue is the shared one now */
	if (bfqq_group(bfqq)->last_bfqq_created == bfqq)
		bfqq_group(bfqq)->last_bfqq_created = new_bfqq;
	bfqq_set(new_bfqq, BFQQF_coop);
	new_bfqq->bic = NULL;	/* shared: owned by no single process */
	bfqq->bic = NULL;
	bfqd->queue_merges++;
	ios_bfq_put_queue(bfqq);	/* the process reference moved to new_bfqq */
}

static void bfq_put_cooperator(struct bfq_queue *bfqq)
{
	struct bfq_queue *q = bfqq->new_bfqq, *next;

	while (q) {
		if (q == bfqq)
			break;
		next = q->new_bfqq;
		ios_bfq_put_queue(q);
		q = next;
	}
}

/* The process leaves a shared queue that went seeky; NULL: it needs a new one. */
static struct bfq_queue *bfq_split_bfqq(struct bfq_data *bfqd, struct bfq_io_cq *bic,
					struct bfq_queue *bfqq)
{
	bfqd->queue_splits++;
	if (bfqq_process_refs(bfqq) == 1) {
		bfqq->pid = bic->ioc ? bic->ioc->pid : 0;
		bfqq_clear(bfqq, BFQQF_coop | BFQQF_split_coop);
		return bfqq;
	}
	if (bfqq->bic == bic)
		bfqq->bic = NULL;
	bic->bfqq[1] = NULL;
	bfq_put_cooperator(bfqq);
	ios_bfq_put_queue(bfqq);
	return NULL;
}

/* ---- bursts of queue creations ---- */

static void bfq_reset_burst_list(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct ios_list_head *pos, *tmp;

	ios_list_for_each_safe(pos, tmp, &bfqd->burst_list)
		ios_list_del(pos);
	ios_list_add(&bfqq->burst_node, &bfqd->burst_list);
	bfqd->burst_size = 1;
	bfqd->burst_parent_entity = bfqq->entity.parent;
}

static void bfq_add_to_burst(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct ios_list_head *pos, *tmp;

	bfqd->burst_size++;
	if (bfqd->burst_size == bfqd->large_burst_thresh) {
		/* large: mark everyone in it; the list is no longer needed */
		bfqd->large_burst = true;
		ios_list_for_each_safe(pos, tmp, &bfqd->burst_list) {
			bfqq_set(ios_list_entry(pos, struct bfq_queue, burst_node),
				 BFQQF_in_large_burst);
			ios_list_del(pos);
		}
		bfqq_set(bfqq, BFQQF_in_large_burst);
	} else {
		ios_list_add(&bfqq->burst_node, &bfqd->burst_list);
	}
}

/*
 * Queues created in quick succession (each within burst_interval of the
 * last, same parent group) belong to one burst; from large_burst_thresh on
 * the burst is large: a service or a parallel job, which wants throughput,
 * not weight raising or idling.
 */
static void bfq_handle_burst(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	if (!ios_list_unlinked(&bfqq->burst_node) || bfqq_flag(bfqq, BFQQF_in_large_burst) ||
	    bfqq->split_time_ns + (int64_t)(10 * IOS_NSEC_PER_MSEC) >= bfqd->now_ns)
		return;
	if (bfqd->last_ins_in_burst_ns + bfqd->burst_interval_ns < bfqd->now_ns ||
	    bfqq->entity.parent != bfqd->burst_parent_entity) {
		bfqd->large_burst = false;
		bfq_reset_burst_list(bfqd, bfqq);
	} else if (bfqd->large_burst) {
		bfqq_set(bfqq, BFQQF_in_large_burst);
	} else {
		bfq_add_to_burst(bfqd, bfqq);
	}
	bfqd->last_ins_in_burst_ns = bfqd->now_ns;
}

/* ---- the queue of a request ---- */

void ios_bfq_exit_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	if (bfqq == bfqd->in_service_queue)
		__ios_bfq_bfqq_expire(bfqd, bfqq, BFQQE_BUDGET_EXHAUSTED);	/* as bfq_exit_bfqq */
	bfq_put_cooperator(bfqq);
	ios_bfq_put_queue(bfqq);	/* the process reference */
}

/* The process changed class or level: async queue swapped, sync queue reweighted. */
void ios_bfq_check_ioprio_change(struct bfq_data *bfqd, struct bfq_io_cq *bic)
{
	struct bfq_queue *bfqq;
	int class, level;

	if (!bic->ioc)
		return;
	class = ios_ioc_class(bic->ioc);
	level = ios_ioc_level(bic->ioc);
	if (class == bic->ioprio_class && level == bic->ioprio_level)
		return;
	bic->ioprio_class = class;
	bic->ioprio_level = level;
	if (bic->bfqq[0]) {
		bfq_bic_drop_queue(bic, false);
		bic->bfqq[0] = ios_bfq_get_queue(bfqd, bic, false);
	}
	bfqq = bic->bfqq[1];
	if (bfqq && bfqq != &bfqd->oom_bfqq)
		ios_bfq_set_next_ioprio_data(bfqq, bic);
}

/*
 * The request's charged cgroup @cg (its task's, or under cgroup writeback
 * the dirtier's: bfq_bic_update_cgroup on bio->bi_blkg) is not the one
 * the process's queues are in: they follow.
 */
void ios_bfq_check_cgroup_change(struct bfq_data *bfqd, struct bfq_io_cq *bic,
				 struct ios_cgroup *cg)
{
	struct bfq_group *bfqg;
	struct bfq_queue *bfqq;
	unsigned id;

	if (!bic->ioc || !cg)
		return;
	id = cg->id;
	if (id == bic->cgroup_id)
		return;
	bic->cgroup_id = id;
	bic->cgroup = cg;
	bfqg = ios_bfq_find_set_group(bfqd, cg);
	if (!bfqg)
		return;
	if (bic->bfqq[0])
		bfq_bic_drop_queue(bic, false);
	bfqq = bic->bfqq[1];
	if (bfqq && bfqq != &bfqd->oom_bfqq && bfqq->entity.sched_data != &bfqg->sched_data)
		ios_bfq_bfqq_move(bfqd, bfqq, bfqg);
}

/*
 * bfq_do_or_sched_stable_merge (6.12): @bfqq, just created for @bic, and
 * the group's newest sync queue were created within burst_interval (180
 * ms) of each other with the same ioprio and class: the same application's
 * I/O flows, served best as one queue. On queueing flash they are merged
 * now; elsewhere the merge is scheduled and decided 600 ms on
 * (bfq_setup_stable_merge). Otherwise, or if the newest queue is over 600
 * ms old or of another ioprio, @bfqq becomes the newest.
 */
static struct bfq_queue *bfq_do_or_sched_stable_merge(struct bfq_data *bfqd,
						      struct bfq_queue *bfqq,
						      struct bfq_io_cq *bic)
{
	struct bfq_group *bfqg = bfqq_group(bfqq);
	struct bfq_queue *last = bfqg->last_bfqq_created, *new_bfqq;

	if (!last ||
	    last->creation_time_ns + BFQ_ACTIVATION_STABLE_MERGING_NS < bfqq->creation_time_ns ||
	    bfqq->entity.parent != last->entity.parent || bfqq->ioprio != last->ioprio ||
	    bfqq->ioprio_class != last->ioprio_class) {
		bfqg->last_bfqq_created = bfqq;
		return bfqq;
	}
	if (last->creation_time_ns + bfqd->burst_interval_ns < bfqq->creation_time_ns)
		return bfqq;
	if (bfqd->nonrot_with_queueing) {
		/* bfq_do_early_stable_merge */
		new_bfqq = bfq_setup_merge(bfqq, last);
		if (!new_bfqq)
			return bfqq;
		if (new_bfqq->bic)
			new_bfqq->bic->stably_merged = true;
		bic->stably_merged = true;
		bfqd->stable_merges++;
		bfqq->bic = bic;
		bic->bfqq[1] = bfqq;
		ios_bfq_merge_bfqqs(bfqd, bic, bfqq, new_bfqq);
		return new_bfqq;
	}
	/* scheduled: the newest queue is held (not a process reference) until then */
	last->ref++;
	last->stable_ref++;
	bic->stable_merge_bfqq = last;
	return bfqq;
}

static struct bfq_queue *bfq_get_bfqq_handle_split(struct bfq_data *bfqd, struct bfq_io_cq *bic,
						   bool split, bool is_sync, bool *new_queue)
{
	struct bfq_queue *bfqq = bic->bfqq[is_sync];

	if (bfqq && bfqq != &bfqd->oom_bfqq)
		return bfqq;
	if (new_queue)
		*new_queue = true;
	if (bfqq)
		ios_bfq_put_queue(bfqq);
	bfqq = ios_bfq_get_queue(bfqd, bic, is_sync);
	if (!bfqq) {
		bfqq = &bfqd->oom_bfqq;
		bfqq->ref++;
	} else if (bfqd->prof->stable_merge && is_sync && !split) {
		/* 6.x (bfq_get_queue): a new sync queue may be merged for good */
		bfqq = bfq_do_or_sched_stable_merge(bfqd, bfqq, bic);
	}
	bic->bfqq[is_sync] = bfqq;
	if (split && is_sync && bfqq != &bfqd->oom_bfqq) {
		if ((bic->was_in_burst_list && bfqd->large_burst) || bic->saved_in_large_burst) {
			bfqq_set(bfqq, BFQQF_in_large_burst);
		} else {
			bfqq_clear(bfqq, BFQQF_in_large_burst);
			if (bic->was_in_burst_list && ios_list_unlinked(&bfqq->burst_node))
				ios_list_add(&bfqq->burst_node, &bfqd->burst_list);
		}
		bfqq->split_time_ns = bfqd->now_ns;
	}
	return bfqq;
}

/*
 * bfq_waker_bfqq (6.12): the waker a process leaving @bfqq takes along,
 * unless the waker is later in @bfqq's merge chain with this process as
 * its only one.
 */
static struct bfq_queue *bfq_waker_of(struct bfq_queue *bfqq)
{
	struct bfq_queue *waker = bfqq->waker_bfqq, *q;

	if (!waker)
		return NULL;
	for (q = bfqq->new_bfqq; q; q = q->new_bfqq) {
		if (q == waker)
			return bfqq_process_refs(waker) == 1 ? NULL : waker;
	}
	return waker;
}

/*
 * Attach @rq to its queue (creating context and queue on first use) and
 * take a request reference. *@bicp gets the process context (NULL if none
 * could be had: the request goes to the fallback queue).
 */
struct bfq_queue *ios_bfq_init_rq(struct bfq_data *bfqd, struct ios_request *rq,
				     struct bfq_io_cq **bicp)
{
	bool is_sync = ios_rq_is_sync(rq), new_queue = false, split = false, existing = false;
	struct bfq_io_cq *bic;
	struct bfq_queue *bfqq;

	*bicp = NULL;
	if (rq->sched_priv[0])
		return rq->sched_priv[0];
	bic = ios_bfq_bic_get(bfqd, rq->ioc);
	if (!bic) {
		bfqq = &bfqd->oom_bfqq;
		goto attach;
	}
	*bicp = bic;
	ios_bfq_check_ioprio_change(bfqd, bic);
	ios_bfq_check_cgroup_change(bfqd, bic, ios_rq_blkcg(rq));
	bfqq = bfq_get_bfqq_handle_split(bfqd, bic, false, is_sync, &new_queue);
	/* 6.x: a stably merged process stays merged (bfq_init_rq) */
	if (!new_queue && bfqq_flag(bfqq, BFQQF_coop) && bfqq_flag(bfqq, BFQQF_split_coop) &&
	    !bic->stably_merged) {
		struct bfq_queue *waker = bfqd->prof->wakers ? bfq_waker_of(bfqq) : NULL;

		if (bfqq_flag(bfqq, BFQQF_in_large_burst))
			bic->saved_in_large_burst = true;
		bfqq = bfq_split_bfqq(bfqd, bic, bfqq);
		split = true;
		if (!bfqq)
			bfqq = bfq_get_bfqq_handle_split(bfqd, bic, true, is_sync, NULL);
		else
			existing = true;
		/* 6.x: the new queue keeps the shared queue's waker (bfq_init_rq) */
		if (!existing && bfqq != &bfqd->oom_bfqq && waker)
			ios_bfq_set_waker(bfqq, waker);
	}
attach:
	bfq_request_allocated(bfqq, 1);
	bfqq->ref++;
	rq->sched_priv[0] = bfqq;
	/* 6.x: the process's requests allocated and not freed (bic->requests) */
	if (bic && (bfqd->prof->injection || bfqd->prof->wakers)) {
		rq->sched_priv[1] = bic;
		bic->requests++;
	}
	if (bic && bfqq != &bfqd->oom_bfqq && bfqq_process_refs(bfqq) == 1) {
		bfqq->bic = bic;
		if (split)
			bfq_bfqq_resume_state(bfqd, bfqq, bic, existing);
	}
	if (bfqq_flag(bfqq, BFQQF_just_created))
		bfq_handle_burst(bfqd, bfqq);
	return bfqq;
}

/* Drop @rq's reference to its queue (completed or merged away). */
void ios_bfq_finish_rq(struct ios_request *rq)
{
	struct bfq_queue *bfqq = rq->sched_priv[0];
	struct bfq_io_cq *bic = rq->sched_priv[1];

	rq->sched_priv[0] = NULL;
	rq->sched_priv[1] = NULL;
	bfq_request_allocated(bfqq, -1);
	ios_bfq_put_queue(bfqq);
	if (bic && --bic->requests == 0 && bic->dead) {
		ios_list_del(&bic->node);
		free(bic);
	}
}
