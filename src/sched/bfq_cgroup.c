/*
 * BFQ: who owns what. Per-process contexts (bics), the life of process
 * queues, and groups (Linux 4.19 block/bfq-cgroup.c and the queue
 * allocation half of bfq-iosched.c).
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

/* ---- context map ---- */

static size_t bfq_bic_hash(const struct ios_ioc *ioc, size_t mask)
{
	uint64_t h = (uint64_t)(uintptr_t)ioc * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h ^ (h >> 29)) & mask;
}

int bfq_bic_map_init(struct bfq_bic_map *m)
{
	m->mask = 63;
	m->used = 0;
	m->slot = calloc(m->mask + 1, sizeof(*m->slot));
	return m->slot ? 0 : -ENOMEM;
}

void bfq_bic_map_free(struct bfq_bic_map *m)
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

struct bfq_io_cq *bfq_bic_lookup(struct bfq_data *bfqd, const struct ios_ioc *ioc)
{
	return bfqd->bic_map.slot[bfq_bic_find_slot(&bfqd->bic_map, ioc)];
}

/* The context of @ioc, created on first use; NULL only when out of memory. */
struct bfq_io_cq *bfq_bic_get(struct bfq_data *bfqd, struct ios_ioc *ioc)
{
	struct bfq_bic_map *m = &bfqd->bic_map;
	struct bfq_io_cq *bic = bfq_bic_lookup(bfqd, ioc);

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
	bic->cgroup_seen = true;
	ios_list_add_tail(&bic->node, &bfqd->bics);
	m->slot[bfq_bic_find_slot(m, ioc)] = bic;
	m->used++;
	return bic;
}

/* The process is gone: drop its queues (exit_icq). */
void bfq_bic_release(struct bfq_data *bfqd, struct bfq_io_cq *bic)
{
	for (int is_sync = 1; is_sync >= 0; is_sync--) {
		struct bfq_queue *bfqq = bic->bfqq[is_sync];

		if (!bfqq)
			continue;
		bfqq->bic = NULL;
		bic->bfqq[is_sync] = NULL;
		bfq_exit_bfqq(bfqd, bfqq);
	}
	bfq_bic_map_del(&bfqd->bic_map, bic->ioc);
	ios_list_del(&bic->node);
	free(bic);
}

/* ---- groups ---- */

static void bfq_group_init(struct bfq_data *bfqd, struct bfq_group *bfqg, unsigned id)
{
	bfqg->bfqd = bfqd;
	bfqg->id = id;
	bfq_init_sched_data(&bfqg->sched_data, bfqd->now_ns);
	bfqg->rq_pos_tree = IOS_RB_ROOT;
	ios_rb_clear(&bfqg->entity.rb_node);
}

struct bfq_group *bfq_group_root_create(struct bfq_data *bfqd)
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
struct bfq_group *bfq_find_set_group(struct bfq_data *bfqd, const struct ios_cgroup *cg)
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
	parent = bfq_find_set_group(bfqd, cg->parent);
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
	bfq_init_entity(&bfqg->entity, parent);
	bfqd->groups[cg->id] = bfqg;
	return bfqg;
}

void bfq_groups_free(struct bfq_data *bfqd)
{
	for (unsigned i = 1; i < bfqd->nr_groups; i++)
		free(bfqd->groups[i]);
	free(bfqd->groups);
	bfqd->groups = NULL;
	bfqd->nr_groups = 0;
	free(bfqd->root_group);
	bfqd->root_group = NULL;
}

void bfq_init_entity(struct bfq_entity *entity, struct bfq_group *bfqg)
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
void bfq_bfqq_move(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct bfq_group *bfqg)
{
	struct bfq_entity *entity = &bfqq->entity;

	if (bfqq == bfqd->in_service_queue)
		bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_PREEMPTED);
	if (bfqq_flag(bfqq, BFQQF_busy)) {
		bfq_deactivate_bfqq(bfqd, bfqq, false, false);
	} else if (entity->on_st) {
		/* on the old group's idle tree: forget it there */
		bfq_put_idle_entity(bfq_entity_service_tree(entity), entity);
	}
	if (bfqq->pos_root) {
		ios_rb_erase(&bfqq->pos_node, bfqq->pos_root);
		bfqq->pos_root = NULL;
	}
	entity->parent = bfqg->my_entity;
	entity->sched_data = &bfqg->sched_data;
	if (bfqq_flag(bfqq, BFQQF_busy)) {
		bfq_pos_tree_add_move(bfqd, bfqq);
		bfq_activate_bfqq(bfqd, bfqq);
	}
}

/* ---- queues ---- */

void bfq_set_next_ioprio_data(struct bfq_queue *bfqq, const struct bfq_io_cq *bic)
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
	bfqq->ref = 0;
	bfqq->bfqd = bfqd;
	if (bic)
		bfq_set_next_ioprio_data(bfqq, bic);
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
struct bfq_queue *bfq_get_queue(struct bfq_data *bfqd, struct bfq_io_cq *bic, bool is_sync)
{
	struct ios_cgroup *cg = bic->ioc ? bic->ioc->cgroup : NULL;
	struct bfq_group *bfqg = bfq_find_set_group(bfqd, cg);
	struct bfq_queue **async_slot = NULL, *bfqq;
	int level = bic->ioprio_level;

	if (!bfqg)
		bfqg = bfqd->root_group;
	if (bic->ioprio_class == IOS_IOPRIO_CLASS_IDLE)
		level = IOS_IOPRIO_LEVELS - 1;
	if (level < 0 || level >= IOS_IOPRIO_LEVELS)
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
	bfq_init_entity(&bfqq->entity, bfqg);
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

void bfq_put_queue(struct bfq_queue *bfqq)
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
	ios_list_del(&bfqq->all_node);
	free(bfqq);
}
