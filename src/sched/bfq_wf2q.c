/*
 * B-WF2Q+: the budget-aware worst-case fair weighted fair queueing engine
 * under BFQ (Linux 4.19 block/bfq-wf2q.c; Valente and Checconi, after
 * Bennett and Zhang's WF2Q+ and Stoica's EEVDF tree).
 *
 * Every schedulable thing is an entity: a process queue or a group. An
 * entity that wants service carries two virtual timestamps, start S and
 * finish F = S + budget / weight (budget in sectors, scaled by
 * 2^BFQ_SERVICE_SHIFT so that integer division keeps precision). Each
 * service tree has a virtual time V that advances by served / wsum for
 * every sector served below it, wsum being the weights of the entities the
 * tree knows about. An entity is eligible when S <= V; the engine serves the
 * eligible entity with the smallest F. Serving by finish time gives each
 * entity its weight's share of sectors; eligibility keeps an entity that got
 * ahead of its share from being served again before the others catch up,
 * which is what bounds the lag against the ideal fluid schedule whatever the
 * budgets are.
 *
 * The active tree is ordered by F and each node also holds the smallest S
 * of its subtree (min_start), so "the eligible entity with the smallest F"
 * is one descent: go left whenever the left subtree holds an eligible
 * entity. When no entity is eligible, V jumps to the smallest S.
 *
 * An entity that empties keeps its timestamps on the idle tree while its F
 * is still ahead of V: if it comes back before V passes F, it restarts from
 * F and so cannot gain service by leaving and returning. One idle entity is
 * forgotten per service event, which keeps every operation O(log N).
 *
 * Groups are entities too (hierarchical WF2Q+): a group's budget is its
 * next child's, its timestamps advance with the service of any descendant,
 * and choosing the device's next queue walks from the root choosing
 * next_in_service at each level. Classes are strict priorities: RT before
 * BE before IDLE, except that the IDLE class is served once every 200 ms so
 * it cannot starve.
 *
 * Queue weight counters (how many busy queues, groups, per weight) also live
 * here: BFQ idles for service guarantees only when weights differ.
 */
#include "bfq_int.h"

static struct bfq_entity *bfq_entity_of(struct ios_rb_node *n)
{
	return n ? ios_container_of(n, struct bfq_entity, rb_node) : NULL;
}

static struct bfq_data *bfq_sd_bfqd(struct bfq_sched_data *sd)
{
	return bfq_sd_to_group(sd)->bfqd;
}

static unsigned bfq_class_idx(const struct bfq_entity *entity)
{
	const struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	/* groups are best effort */
	return bfqq ? (unsigned)bfqq->ioprio_class - 1 : IOS_IOPRIO_CLASS_BE - 1;
}

struct bfq_service_tree *ios_bfq_entity_service_tree(struct bfq_entity *entity)
{
	return entity->sched_data->service_tree + bfq_class_idx(entity);
}

void ios_bfq_init_service_tree(struct bfq_service_tree *st)
{
	st->active = IOS_RB_ROOT;
	st->idle = IOS_RB_ROOT;
	st->first_idle = st->last_idle = NULL;
	st->vtime = 0;
	st->wsum = 0;
}

void ios_bfq_init_sched_data(struct bfq_sched_data *sd, int64_t now_ns)
{
	sd->in_service_entity = NULL;
	sd->next_in_service = NULL;
	for (int i = 0; i < BFQ_IOPRIO_CLASSES; i++)
		ios_bfq_init_service_tree(&sd->service_tree[i]);
	sd->class_idle_last_service_ns = now_ns;
}

/* Service in the virtual-time domain of a tree or entity of weight @weight. */
static uint64_t bfq_delta(uint64_t service, uint64_t weight)
{
	return weight ? (service << BFQ_SERVICE_SHIFT) / weight : 0;
}

static void bfq_calc_finish(struct bfq_entity *entity, int service)
{
	entity->finish = entity->start + bfq_delta(service > 0 ? (uint64_t)service : 0,
						   entity->weight);
}

/* ---- weight counters ---- */

void ios_bfq_weights_add(struct bfq_data *bfqd, struct bfq_entity *entity,
			 struct bfq_weight_counts *wc)
{
	unsigned w = entity->weight;

	(void)bfqd;
	if (entity->counted_weight)
		return;
	if (w > BFQ_MAX_WEIGHT)
		w = BFQ_MAX_WEIGHT;	/* only unraised weights are counted: cannot happen */
	if (w < BFQ_MIN_WEIGHT)
		w = BFQ_MIN_WEIGHT;
	if (wc->n[w]++ == 0)
		wc->distinct++;
	entity->counted_weight = w;
}

void ios_bfq_weights_remove(struct bfq_data *bfqd, struct bfq_entity *entity,
			    struct bfq_weight_counts *wc)
{
	unsigned w = entity->counted_weight;

	(void)bfqd;
	if (!w)
		return;
	IOS_BUG_ON(wc->n[w] == 0);
	if (--wc->n[w] == 0)
		wc->distinct--;
	entity->counted_weight = 0;
}

/*
 * @bfqq has no request queued and none in flight: its weight stops
 * counting, and so do its groups' weights unless something else below them
 * is still active.
 */
void ios_bfq_weights_tree_remove(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_entity *entity;

	/* bfq_del_bfqq_in_groups_with_pending_reqs (6.x), at the same two places */
	if (bfqq->pending_group) {
		if (--bfqq->pending_group->num_queues_with_pending_reqs == 0)
			bfqd->num_groups_with_pending_reqs--;
		bfqq->pending_group = NULL;
	}
	ios_bfq_weights_remove(bfqd, &bfqq->entity, &bfqd->queue_weights);
	for (entity = bfqq->entity.parent; entity; entity = entity->parent) {
		struct bfq_sched_data *sd = entity->my_sched_data;

		if (sd->next_in_service || sd->in_service_entity)
			break;
		ios_bfq_weights_remove(bfqd, entity, &bfqd->group_weights);
	}
}

/* Insert by finish time; equal finish times keep arrival order. */
static void bfq_insert(struct ios_rb_root *root, struct bfq_entity *entity)
{
	struct ios_rb_node **link = &root->node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = bfq_gt(bfq_entity_of(parent)->finish, entity->finish) ? &parent->left
									      : &parent->right;
	}
	ios_rb_link(&entity->rb_node, parent, link);
	ios_rb_insert_color(&entity->rb_node, root);
	entity->tree = root;
}

static void bfq_extract(struct ios_rb_root *root, struct bfq_entity *entity)
{
	entity->tree = NULL;
	ios_rb_erase(&entity->rb_node, root);
}

static void bfq_group_count_active(struct bfq_entity *entity, int delta)
{
	struct bfq_group *bfqg = bfq_sd_to_group(entity->sched_data);

	if (bfqg->my_entity)
		bfqg->active_entities += delta;
}

/* ---- the augmented active tree ---- */

/*
 * The active trees are lib's augmented red-black trees of entities by
 * finish time where every node also holds min_start, the smallest start
 * time in its subtree. A rotation moves two nodes, whose min_start are
 * fixed on the spot; an insertion or removal changes min_start only along
 * one path, which is walked up only as far as a value actually changes.
 * That keeps an update at a few node visits instead of two per tree level.
 */

static uint64_t bfq_calc_min_start(const struct ios_rb_node *n)
{
	const struct bfq_entity *e = bfq_entity_of((struct ios_rb_node *)n);
	uint64_t m = e->start;

	if (n->left && bfq_gt(m, bfq_entity_of(n->left)->min_start))
		m = bfq_entity_of(n->left)->min_start;
	if (n->right && bfq_gt(m, bfq_entity_of(n->right)->min_start))
		m = bfq_entity_of(n->right)->min_start;
	return m;
}

/* Recompute min_start from @n up to @stop (exclusive), until nothing changes. */
static void bfq_aug_propagate(struct ios_rb_node *n, struct ios_rb_node *stop)
{
	for (; n != stop; n = n->parent) {
		uint64_t m = bfq_calc_min_start(n);

		if (bfq_entity_of(n)->min_start == m)
			break;
		bfq_entity_of(n)->min_start = m;
	}
}

static void bfq_aug_copy(struct ios_rb_node *old, struct ios_rb_node *new)
{
	bfq_entity_of(new)->min_start = bfq_entity_of(old)->min_start;
}

/* @new took @old's place: its subtree is @old's old one, so it takes old's min_start. */
static void bfq_aug_rotate(struct ios_rb_node *old, struct ios_rb_node *new)
{
	bfq_entity_of(new)->min_start = bfq_entity_of(old)->min_start;
	bfq_entity_of(old)->min_start = bfq_calc_min_start(old);
}

static const struct ios_rb_augment_callbacks bfq_min_start_cb = {
	.propagate = bfq_aug_propagate,
	.copy = bfq_aug_copy,
	.rotate = bfq_aug_rotate,
};

static void bfq_active_insert(struct bfq_service_tree *st, struct bfq_entity *entity)
{
	struct ios_rb_node **link = &st->active.node, *parent = NULL, *n;
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	while (*link) {
		parent = *link;
		link = bfq_gt(bfq_entity_of(parent)->finish, entity->finish) ? &parent->left
									      : &parent->right;
	}
	ios_rb_link(&entity->rb_node, parent, link);
	entity->tree = &st->active;
	/* the new start lowers min_start along its path, as far as it is lower */
	entity->min_start = entity->start;
	for (n = parent; n && bfq_gt(bfq_entity_of(n)->min_start, entity->start); n = n->parent)
		bfq_entity_of(n)->min_start = entity->start;
	ios_rb_insert_augmented(&entity->rb_node, &st->active, &bfq_min_start_cb);
	bfq_group_count_active(entity, 1);
	/*
	 * 6.x injection walks the queues on active trees newest first
	 * (bfq_active_insert puts them at the head of bfqd->active_list).
	 */
	if (bfqq)
		ios_list_add(&bfqq->active_node, &bfqq->bfqd->active_list);
}

static void bfq_active_extract(struct bfq_service_tree *st, struct bfq_entity *entity)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	ios_rb_erase_augmented(&entity->rb_node, &st->active, &bfq_min_start_cb);
	entity->tree = NULL;
	bfq_group_count_active(entity, -1);
	if (bfqq && !ios_list_unlinked(&bfqq->active_node))
		ios_list_del(&bfqq->active_node);
}

static bool bfq_check_subtree(const struct ios_rb_node *n, uint64_t *min_start)
{
	const struct bfq_entity *e = bfq_entity_of((struct ios_rb_node *)n);
	uint64_t m = e->start, sub;

	if (n->left) {
		if (!bfq_check_subtree(n->left, &sub))
			return false;
		if (bfq_gt(bfq_entity_of(n->left)->finish, e->finish))
			return false;
		if (bfq_gt(m, sub))
			m = sub;
	}
	if (n->right) {
		if (!bfq_check_subtree(n->right, &sub))
			return false;
		if (bfq_gt(e->finish, bfq_entity_of(n->right)->finish))
			return false;
		if (bfq_gt(m, sub))
			m = sub;
	}
	*min_start = m;
	return e->min_start == m;
}

bool ios_bfq_check_active_tree(const struct ios_rb_root *root)
{
	uint64_t m;

	return !root->node || bfq_check_subtree(root->node, &m);
}

/* ---- the idle tree ---- */

static void bfq_idle_insert(struct bfq_service_tree *st, struct bfq_entity *entity)
{
	if (!st->first_idle || bfq_gt(st->first_idle->finish, entity->finish))
		st->first_idle = entity;
	if (!st->last_idle || bfq_gt(entity->finish, st->last_idle->finish))
		st->last_idle = entity;
	bfq_insert(&st->idle, entity);
}

static void bfq_idle_extract(struct bfq_service_tree *st, struct bfq_entity *entity)
{
	if (entity == st->first_idle)
		st->first_idle = bfq_entity_of(ios_rb_next(&entity->rb_node));
	if (entity == st->last_idle)
		st->last_idle = bfq_entity_of(ios_rb_prev(&entity->rb_node));
	bfq_extract(&st->idle, entity);
}

/*
 * @entity leaves the tree's accounting altogether. A queue's service-tree
 * reference goes with it, unless it is in service: resetting the
 * in-service queue drops that reference later.
 */
static void bfq_forget_entity(struct bfq_service_tree *st, struct bfq_entity *entity,
			      bool is_in_service)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	entity->on_st = false;
	st->wsum -= entity->weight;
	if (bfqq && !is_in_service)
		ios_bfq_put_queue(bfqq);
}

void ios_bfq_put_idle_entity(struct bfq_service_tree *st, struct bfq_entity *entity)
{
	bfq_idle_extract(st, entity);
	bfq_forget_entity(st, entity, entity == entity->sched_data->in_service_entity);
}

/*
 * Forget idle entities whose finish time virtual time has passed: they can
 * no longer be treated as if they had never left. One per call keeps the
 * cost logarithmic; when nothing is active the whole idle tree is
 * forgotten at once by moving V past its last finish time.
 */
static void bfq_forget_idle(struct bfq_service_tree *st)
{
	struct bfq_entity *first_idle = st->first_idle;
	struct bfq_entity *last_idle = st->last_idle;

	if (ios_rb_empty(&st->active) && last_idle && !bfq_gt(last_idle->finish, st->vtime))
		st->vtime = last_idle->finish;
	if (first_idle && !bfq_gt(first_idle->finish, st->vtime))
		ios_bfq_put_idle_entity(st, first_idle);
}

/* ---- weights and classes ---- */

/*
 * Apply a pending weight or class change. Called when the entity is on no
 * tree (update_class_too) or when only its weight may change (then it stays
 * on its class's tree). Returns the tree the entity now belongs to.
 */
struct bfq_service_tree *__ios_bfq_entity_update_weight_prio(struct bfq_service_tree *old_st,
							  struct bfq_entity *entity,
							  bool update_class_too)
{
	struct bfq_service_tree *new_st = old_st;
	struct bfq_queue *bfqq;
	unsigned prev_weight, new_weight;
	struct bfq_data *bfqd;

	if (!entity->prio_changed)
		return old_st;
	bfqq = bfq_entity_to_bfqq(entity);
	bfqd = bfq_sd_bfqd(entity->sched_data);

	old_st->wsum -= entity->weight;
	if (entity->new_weight != entity->orig_weight) {
		unsigned w = entity->new_weight;

		if (w < BFQ_MIN_WEIGHT)
			w = BFQ_MIN_WEIGHT;
		if (w > BFQ_MAX_WEIGHT)
			w = BFQ_MAX_WEIGHT;
		entity->new_weight = entity->orig_weight = w;
	}
	if (bfqq && update_class_too)
		bfqq->ioprio_class = bfqq->new_ioprio_class;
	if (bfqq && update_class_too)
		bfqq->ioprio = bfqq->new_ioprio;
	if (!bfqq || bfqq->ioprio_class == bfqq->new_ioprio_class)
		entity->prio_changed = false;

	new_st = ios_bfq_entity_service_tree(entity);
	prev_weight = entity->weight;
	new_weight = entity->orig_weight * (bfqq ? bfqq->wr_coeff : 1);
	if (prev_weight != new_weight && bfqq)
		ios_bfq_weights_remove(bfqd, entity, &bfqd->queue_weights);
	entity->weight = new_weight;
	if (prev_weight != new_weight && bfqq && bfqq->wr_coeff == 1)
		ios_bfq_weights_add(bfqd, entity, &bfqd->queue_weights);
	new_st->wsum += entity->weight;
	if (new_st != old_st)
		entity->start = new_st->vtime;
	return new_st;
}

/* ---- service accounting ---- */

void ios_bfq_bfqq_served(struct bfq_queue *bfqq, int served)
{
	struct bfq_entity *entity = &bfqq->entity;

	if (!bfqq->service_from_backlogged)
		bfqq->first_io_time_ns = bfqq->bfqd->now_ns;
	if (bfqq->wr_coeff > 1)
		bfqq->service_from_wr += (uint64_t)served;
	bfqq->service_from_backlogged += (uint64_t)served;
	for (; entity; entity = entity->parent) {
		struct bfq_service_tree *st = ios_bfq_entity_service_tree(entity);

		entity->service += served;
		st->vtime += bfq_delta((uint64_t)served, st->wsum);
		bfq_forget_idle(st);
	}
}

/*
 * Charge a slow queue for the time it held the device rather than for the
 * sectors it moved: the service it would have received at the peak rate in
 * that time. This gives seeky processes time fairness instead of sector
 * fairness, so they cannot drag the throughput of everyone down. The scale
 * is max_budget per the default budget timeout (125 ms), not per the
 * timeout_sync tunable: 4.19 reads its bfq_timeout constant here, so with
 * another timeout_sync the charge does not follow it.
 */
void ios_bfq_bfqq_charge_time(struct bfq_data *bfqd, struct bfq_queue *bfqq, uint64_t time_ns)
{
	struct bfq_entity *entity = &bfqq->entity;
	const uint64_t timeout = BFQ_DEFAULT_TIMEOUT_NS;
	uint64_t bounded = time_ns < timeout ? time_ns : timeout;
	int serv_for_time = (int)((uint64_t)bfqd->max_budget * bounded / timeout);
	int tot = serv_for_time > entity->service ? serv_for_time : entity->service;

	if (tot > entity->budget)
		entity->budget = tot;
	if (tot > entity->service)
		ios_bfq_bfqq_served(bfqq, tot - entity->service);
}

/* ---- activation, requeueing, deactivation ---- */

static void bfq_get_entity(struct bfq_entity *entity)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	if (bfqq)
		bfqq->ref++;
}

static void bfq_update_fin_time_enqueue(struct bfq_entity *entity, struct bfq_service_tree *st,
					bool backshifted)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	st = __ios_bfq_entity_update_weight_prio(st, entity, true);
	bfq_calc_finish(entity, entity->budget);
	/*
	 * A queue that keeps coming back with back-shifted timestamps could
	 * drift far below V and then monopolise the device; push it up to V
	 * (a weight-raised one only a little, to keep its advantage).
	 */
	if (backshifted && bfq_gt(st->vtime, entity->finish)) {
		uint64_t delta = st->vtime - entity->finish;

		if (bfqq)
			delta /= bfqq->wr_coeff;
		entity->start += delta;
		entity->finish += delta;
	}
	bfq_active_insert(st, entity);
}

/* A true activation: the entity was idle (on the idle tree or nowhere). */
static void __bfq_activate_entity(struct bfq_entity *entity, bool non_blocking_wait_rq)
{
	struct bfq_service_tree *st = ios_bfq_entity_service_tree(entity);
	bool backshifted = false;
	uint64_t min_vstart;

	/*
	 * A queue that expired only because it emptied, and whose process
	 * came back in time, restarts from where it left off (its old finish
	 * time) instead of from V: it recovers the service hole.
	 */
	if (non_blocking_wait_rq && bfq_gt(st->vtime, entity->finish)) {
		backshifted = true;
		min_vstart = entity->finish;
	} else {
		min_vstart = st->vtime;
	}

	if (entity->tree == &st->idle) {
		bfq_idle_extract(st, entity);
		entity->start = bfq_gt(min_vstart, entity->finish) ? min_vstart : entity->finish;
	} else {
		entity->start = min_vstart;
		st->wsum += entity->weight;
		bfq_get_entity(entity);
		entity->on_st = true;
	}
	/*
	 * No group weight is counted here: 4.19 has this under an #ifdef of
	 * a macro nothing defines (BFQ_GROUP_IOSCHED_ENABLED, not the CONFIG_
	 * one), so a group whose weight was set before its first I/O never
	 * makes the scenario asymmetric. Only a later change of a group's
	 * weight would count it (__bfq_entity_update_weight_prio), and groups
	 * here keep the weight they were created with.
	 */
	bfq_update_fin_time_enqueue(entity, st, backshifted);
}

/*
 * The in-service entity is put back (its start moves past the service it
 * got), or an active one is repositioned because its budget changed.
 */
static void __bfq_requeue_entity(struct bfq_entity *entity)
{
	struct bfq_sched_data *sd = entity->sched_data;
	struct bfq_service_tree *st = ios_bfq_entity_service_tree(entity);

	if (entity == sd->in_service_entity) {
		bfq_calc_finish(entity, entity->service);
		entity->start = entity->finish;
		if (entity->tree)
			bfq_active_extract(st, entity);
	} else {
		bfq_active_extract(st, entity);
	}
	bfq_update_fin_time_enqueue(entity, st, false);
}

static void __bfq_activate_requeue_entity(struct bfq_entity *entity, struct bfq_sched_data *sd,
					  bool non_blocking_wait_rq)
{
	struct bfq_service_tree *st = ios_bfq_entity_service_tree(entity);

	if (sd->in_service_entity == entity || entity->tree == &st->active)
		__bfq_requeue_entity(entity);
	else
		__bfq_activate_entity(entity, non_blocking_wait_rq);
}

static bool bfq_update_next_in_service(struct bfq_sched_data *sd, struct bfq_entity *new_entity,
				       bool expiration);

static void bfq_activate_requeue_entity(struct bfq_entity *entity, bool non_blocking_wait_rq,
					bool requeue, bool expiration)
{
	for (; entity; entity = entity->parent) {
		struct bfq_sched_data *sd = entity->sched_data;

		__bfq_activate_requeue_entity(entity, sd, non_blocking_wait_rq);
		if (!bfq_update_next_in_service(sd, entity, expiration) && !requeue)
			break;
	}
}

/*
 * Take @entity off its active tree (or out of service). It goes to the idle
 * tree if allowed and its finish time is still ahead of V, else it is
 * forgotten. Returns false if it was not on any tree.
 */
static bool __bfq_deactivate_entity(struct bfq_entity *entity, bool ins_into_idle_tree)
{
	struct bfq_sched_data *sd = entity->sched_data;
	struct bfq_service_tree *st;
	bool is_in_service;

	if (!entity->on_st)
		return false;
	st = ios_bfq_entity_service_tree(entity);
	is_in_service = entity == sd->in_service_entity;
	/*
	 * 4.19.1: only the in-service entity's finish is recomputed from the
	 * service it got. Under 4.19 requests leave a queue out of service
	 * only undispatched (a cgroup move, an exit), which none of the seed
	 * experiments reaches. 6.12 (deact_charge_service) recomputes every
	 * deactivated entity's finish from its service and zeroes the service
	 * of one out of service: injection dispatches another queue's
	 * requests, and their group entities would otherwise keep that
	 * service and come back with a whole budget charged for it.
	 */
	if (is_in_service || bfq_sd_bfqd(sd)->prof->deact_charge_service)
		bfq_calc_finish(entity, entity->service);
	if (is_in_service)
		sd->in_service_entity = NULL;
	else if (bfq_sd_bfqd(sd)->prof->deact_charge_service)
		entity->service = 0;

	if (entity->tree == &st->active)
		bfq_active_extract(st, entity);
	else if (!is_in_service && entity->tree == &st->idle)
		bfq_idle_extract(st, entity);

	if (!ins_into_idle_tree || !bfq_gt(entity->finish, st->vtime))
		bfq_forget_entity(st, entity, is_in_service);
	else
		bfq_idle_insert(st, entity);
	return true;
}

static void bfq_deactivate_entity(struct bfq_entity *entity, bool ins_into_idle_tree,
				  bool expiration)
{
	struct bfq_entity *parent = NULL;

	for (; entity; entity = parent) {
		struct bfq_sched_data *sd = entity->sched_data;

		parent = entity->parent;
		if (!__bfq_deactivate_entity(entity, ins_into_idle_tree))
			return;
		if (sd->next_in_service == entity)
			bfq_update_next_in_service(sd, NULL, expiration);
		if (sd->next_in_service || sd->in_service_entity)
			break;	/* the parent still has something to serve */
		/* the parent emptied too: deactivate it, keeping its timestamps */
		ins_into_idle_tree = true;
	}
	/* requeue or reposition what is above, since next_in_service changed */
	for (entity = parent; entity; entity = entity->parent) {
		struct bfq_sched_data *sd = entity->sched_data;

		__bfq_requeue_entity(entity);
		if (!bfq_update_next_in_service(sd, entity, expiration) && !expiration)
			break;
	}
}

/* ---- choosing ---- */

static uint64_t bfq_calc_vtime_jump(struct bfq_service_tree *st)
{
	struct bfq_entity *root = bfq_entity_of(st->active.node);

	return bfq_gt(root->min_start, st->vtime) ? root->min_start : st->vtime;
}

static void bfq_update_vtime(struct bfq_service_tree *st, uint64_t new_value)
{
	if (bfq_gt(new_value, st->vtime)) {
		st->vtime = new_value;
		bfq_forget_idle(st);
	}
}

/*
 * The eligible entity (start <= @vtime) with the smallest finish time: from
 * the root, go left whenever the left subtree holds an eligible entity;
 * go right only while nothing eligible has been found.
 */
static struct bfq_entity *bfq_first_active_entity(struct bfq_service_tree *st, uint64_t vtime)
{
	struct ios_rb_node *node = st->active.node;
	struct bfq_entity *first = NULL;

	while (node) {
		struct bfq_entity *entry = bfq_entity_of(node);

		if (!bfq_gt(entry->start, vtime))
			first = entry;
		if (node->left && !bfq_gt(bfq_entity_of(node->left)->min_start, vtime)) {
			node = node->left;
			continue;
		}
		if (first)
			break;
		node = node->right;
	}
	return first;
}

static struct bfq_entity *__bfq_lookup_next_entity(struct bfq_service_tree *st, bool in_service)
{
	uint64_t new_vtime;

	if (ios_rb_empty(&st->active))
		return NULL;
	new_vtime = bfq_calc_vtime_jump(st);
	/* with an entity in service something is eligible already: do not jump */
	if (!in_service)
		bfq_update_vtime(st, new_vtime);
	return bfq_first_active_entity(st, new_vtime);
}

static struct bfq_entity *bfq_lookup_next_entity(struct bfq_sched_data *sd, bool expiration)
{
	struct bfq_service_tree *st = sd->service_tree;
	struct bfq_service_tree *idle_st = st + (BFQ_IOPRIO_CLASSES - 1);
	int64_t now = bfq_sd_bfqd(sd)->now_ns;
	struct bfq_entity *entity = NULL;
	int class_idx = 0;

	/* the idle class gets a turn at least every BFQ_CL_IDLE_TIMEOUT */
	if (now > sd->class_idle_last_service_ns + (int64_t)BFQ_CL_IDLE_TIMEOUT_NS) {
		if (!ios_rb_empty(&idle_st->active))
			class_idx = BFQ_IOPRIO_CLASSES - 1;
		sd->class_idle_last_service_ns = now;
	}
	for (; class_idx < BFQ_IOPRIO_CLASSES; class_idx++) {
		/* on expiration the in-service entity is already requeued */
		entity = __bfq_lookup_next_entity(st + class_idx,
						  sd->in_service_entity && !expiration);
		if (entity)
			break;
	}
	return entity;
}

/* A group's budget follows its next child's; true if it shrank. */
static bool bfq_update_parent_budget(struct bfq_entity *next_in_service)
{
	struct bfq_group *bfqg = bfq_sd_to_group(next_in_service->sched_data);
	struct bfq_entity *group_entity = bfqg->my_entity;
	bool ret = false;

	if (group_entity) {
		if (group_entity->budget > next_in_service->budget)
			ret = true;
		group_entity->budget = next_in_service->budget;
	}
	return ret;
}

/*
 * Refresh sd->next_in_service after @new_entity was activated, requeued or
 * repositioned (NULL: after a removal, look it up). When @new_entity is not
 * the current candidate, comparing the two is enough. Returns true when the
 * change may make the parent a better candidate at its own level.
 */
static bool bfq_update_next_in_service(struct bfq_sched_data *sd, struct bfq_entity *new_entity,
				       bool expiration)
{
	struct bfq_entity *next_in_service = sd->next_in_service;
	bool parent_sched_may_change = false;
	bool change_without_lookup = false;

	if (new_entity && new_entity != sd->next_in_service) {
		change_without_lookup = true;
		if (next_in_service) {
			unsigned idx = bfq_class_idx(new_entity);
			struct bfq_service_tree *st = sd->service_tree + idx;

			change_without_lookup = idx == bfq_class_idx(next_in_service) &&
						!bfq_gt(new_entity->start, st->vtime) &&
						bfq_gt(next_in_service->finish, new_entity->finish);
		}
		if (change_without_lookup)
			next_in_service = new_entity;
	}
	if (!change_without_lookup)
		next_in_service = bfq_lookup_next_entity(sd, expiration);
	if (next_in_service) {
		bool budget_change = bfq_update_parent_budget(next_in_service);

		parent_sched_may_change = !sd->next_in_service || budget_change;
	}
	sd->next_in_service = next_in_service;
	return parent_sched_may_change;
}

/*
 * Whether @entity stops being a candidate when set in service: a queue
 * always does; a group only if it has no other active child.
 */
static bool bfq_no_longer_next_in_service(struct bfq_entity *entity)
{
	if (bfq_entity_to_bfqq(entity))
		return true;
	return ios_container_of(entity, struct bfq_group, entity)->active_entities == 1;
}

bool ios_bfq_next_queue_may_preempt(struct bfq_data *bfqd)
{
	struct bfq_sched_data *sd = &bfqd->root_group->sched_data;

	return sd->next_in_service != sd->in_service_entity;
}

/* Walk down from the root setting next_in_service in service at each level. */
struct bfq_queue *ios_bfq_get_next_queue(struct bfq_data *bfqd)
{
	struct bfq_entity *entity = NULL;
	struct bfq_sched_data *sd;
	struct bfq_queue *bfqq;

	if (bfqd->busy_queues == 0)
		return NULL;
	for (sd = &bfqd->root_group->sched_data; sd; sd = entity->my_sched_data) {
		entity = sd->next_in_service;
		IOS_BUG_ON(!entity);
		if (!entity)
			return NULL;
		sd->in_service_entity = entity;
		if (bfq_no_longer_next_in_service(entity))
			bfq_active_extract(ios_bfq_entity_service_tree(entity), entity);
	}
	bfqq = bfq_entity_to_bfqq(entity);
	/* now that the leaf is known, the candidates above can be refreshed */
	for (; entity; entity = entity->parent)
		if (!bfq_update_next_in_service(entity->sched_data, NULL, false))
			break;
	return bfqq;
}

/*
 * The in-service queue has been requeued or deactivated: clear the
 * in-service marks along its path. Returns true if the queue was freed
 * (its service reference was the last one).
 */
bool __ios_bfq_bfqd_reset_in_service(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue;
	struct bfq_entity *entity;

	bfqq_clear(bfqq, BFQQF_wait_request);
	bfqd->in_service_queue = NULL;
	for (entity = &bfqq->entity; entity; entity = entity->parent)
		entity->sched_data->in_service_entity = NULL;
	if (!bfqq->entity.on_st) {
		int ref = bfqq->ref;

		ios_bfq_put_queue(bfqq);
		if (ref == 1)
			return true;
	}
	return false;
}

void ios_bfq_deactivate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool ins_into_idle_tree,
			     bool expiration)
{
	(void)bfqd;
	bfq_deactivate_entity(&bfqq->entity, ins_into_idle_tree, expiration);
}

void ios_bfq_activate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	(void)bfqd;
	bfq_activate_requeue_entity(&bfqq->entity,
				    bfqq_flag(bfqq, BFQQF_non_blocking_wait_rq), false, false);
	bfqq_clear(bfqq, BFQQF_non_blocking_wait_rq);
}

void ios_bfq_requeue_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool expiration)
{
	bfq_activate_requeue_entity(&bfqq->entity, false, bfqq == bfqd->in_service_queue,
				    expiration);
}

/* @bfqq has no request queued any more. */
void ios_bfq_del_bfqq_busy(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool expiration)
{
	bfqq_clear(bfqq, BFQQF_busy);
	bfqd->busy_queues--;
	if (bfqq->busy_class)
		bfqd->busy_in_class[bfqq->busy_class - 1]--;
	bfqq->busy_class = 0;
	/* before the deactivation, which may drop the last reference */
	if (!bfqq->dispatched)
		ios_bfq_weights_tree_remove(bfqd, bfqq);
	if (bfqq->wr_coeff > 1)
		bfqd->wr_busy_queues--;
	ios_bfq_deactivate_bfqq(bfqd, bfqq, true, expiration);
}

/* @bfqq, empty until now, got a request. */
void ios_bfq_add_bfqq_busy(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	ios_bfq_activate_bfqq(bfqd, bfqq);
	bfqq_set(bfqq, BFQQF_busy);
	bfqd->busy_queues++;
	/* the class it is counted in until not busy, whatever changes meanwhile */
	bfqq->busy_class = bfqq->ioprio_class >= IOS_IOPRIO_CLASS_RT &&
				   bfqq->ioprio_class <= IOS_IOPRIO_CLASS_IDLE
			   ? bfqq->ioprio_class : IOS_IOPRIO_CLASS_BE;
	bfqd->busy_in_class[bfqq->busy_class - 1]++;
	/* bfq_add_bfqq_in_groups_with_pending_reqs (6.x): counted as weights are */
	if (!bfqq->dispatched && !bfqq->pending_group) {
		bfqq->pending_group = bfqq_group(bfqq);
		if (bfqq->pending_group->num_queues_with_pending_reqs++ == 0)
			bfqd->num_groups_with_pending_reqs++;
	}
	if (!bfqq->dispatched && bfqq->wr_coeff == 1)
		ios_bfq_weights_add(bfqd, &bfqq->entity, &bfqd->queue_weights);
	if (bfqq->wr_coeff > 1)
		bfqd->wr_busy_queues++;
}
