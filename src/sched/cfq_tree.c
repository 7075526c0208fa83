/*
 * CFQ's service trees and the choice of the next queue.
 *
 * Busy queues wait on service trees keyed by the time they joined plus an
 * offset that sends lower priority levels and async queues further back
 * (cfq_service_tree_add). 2.6.31 has one tree per device ordered by class
 * first; 2.6.33 and 4.19 have a tree per class and workload type in every
 * group, and cfq_group.c picks the group and the tree before a queue is
 * taken from it. Beside them, one prio tree per level holds the busy
 * queues by the sector of their next request, for the close-cooperator
 * search (cfq_coop.c).
 *
 * cfq_select_queue is the heart of CFQ: keep the active queue while its
 * slice lasts and it has requests, or while idling for it is worth it;
 * otherwise expire it and activate the next one. Which of those tests a
 * release makes is in its profile (cfqd->prof).
 */
#include "cfq_int.h"

/* ---- prio trees: busy queues by the sector of their next request ---- */

/*
 * One rbtree per priority level, as in every release. A queue is placed by
 * its next request's sector when it is (re)inserted: cfq_add_rq_rb when
 * next_rq changes, cfq_resort_rr_list when it joins the service tree or its
 * slice ends. Nothing re-keys it when a request leaves, so the active
 * queue's node stays where its dispatched request put it. A descent compares
 * with each node's next_rq as it is now, as cfq_prio_tree_lookup does: a
 * node whose next_rq moved on can send a search (or an insertion) the other
 * way, and that inaccuracy is the kernel's. A queue whose sector a node on
 * the path already has is not inserted.
 */
struct cfq_queue *ios_cfq_prio_tree_lookup(struct ios_rb_root *root, uint64_t sector,
					   struct ios_rb_node **parentp,
					   struct ios_rb_node ***linkp)
{
	struct ios_rb_node **link = &root->node, *parent = NULL;

	while (*link) {
		struct cfq_queue *q = ios_rb_entry(*link, struct cfq_queue, p_node);
		uint64_t at = q->next_sector;

		parent = *link;
		if (sector == at)
			return q;
		link = sector > at ? &parent->right : &parent->left;
	}
	*parentp = parent;
	if (linkp)
		*linkp = link;
	return NULL;
}

void ios_cfq_prio_tree_del(struct cfq_queue *cfqq)
{
	if (cfqq->p_root) {
		ios_rb_erase(&cfqq->p_node, cfqq->p_root);
		cfqq->p_root = NULL;
	}
}

void ios_cfq_prio_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct ios_rb_root *root = &cfqd->prio_trees[cfqq->org_ioprio];
	struct ios_rb_node *parent, **link;

	ios_cfq_prio_tree_del(cfqq);
	if (cfq_class_idle(cfqq) || !cfqq->next_rq)
		return;
	if (ios_cfq_prio_tree_lookup(root, cfqq->next_rq->sector, &parent, &link))
		return;
	ios_rb_link(&cfqq->p_node, parent, link);
	ios_rb_insert_color(&cfqq->p_node, root);
	cfqq->p_root = root;
}

/* ---- service trees ---- */

/* 2.6.31's single tree: RT before the rest, IDLE after it, then key order */
static bool cfqq_less_2631(const struct ios_rb_node *a, const struct ios_rb_node *b)
{
	const struct cfq_queue *qa = ios_rb_entry(a, struct cfq_queue, rb_node);
	const struct cfq_queue *qb = ios_rb_entry(b, struct cfq_queue, rb_node);

	if (cfq_class_rt(qa) != cfq_class_rt(qb))
		return cfq_class_rt(qa);
	if (cfq_class_idle(qa) != cfq_class_idle(qb))
		return !cfq_class_idle(qa);
	return (int64_t)(qa->rb_key - qb->rb_key) < 0;
}

static bool cfqq_less(const struct ios_rb_node *a, const struct ios_rb_node *b)
{
	const struct cfq_queue *qa = ios_rb_entry(a, struct cfq_queue, rb_node);
	const struct cfq_queue *qb = ios_rb_entry(b, struct cfq_queue, rb_node);

	return (int64_t)(qa->rb_key - qb->rb_key) < 0;
}

static struct cfq_queue *cfq_rb_first(struct cfq_rb_root *st)
{
	struct ios_rb_node *n = ios_rb_first_cached(&st->rb);

	return n ? ios_rb_entry(n, struct cfq_queue, rb_node) : NULL;
}

struct cfq_rb_root *ios_cfqq_target_tree(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (!cfqd->prof->workload_trees)
		return &cfqd->service_tree;
	return ios_cfq_st_for(cfqq->cfqg, cfqq_class(cfqq), cfqq_type(cfqq));
}

/*
 * (N - 1) * (slice(sync, 0) - slice(this queue)). 2.6.31 counts the busy
 * queues of the device, this one included (it is made busy first). 2.6.33+
 * count the group's busy queues, and the kernel adds a new queue to its
 * group only after keying it: a queue just becoming busy does not count
 * itself, so the first one of a group gets -delta (spec §4).
 */
static int64_t cfq_slice_offset(struct cfq_data *cfqd, struct cfq_queue *cfqq, bool moved)
{
	int64_t n;

	if (!cfqd->prof->workload_trees) {
		n = cfqd->busy_queues;
	} else {
		/* a queue that just changed groups is not counted in its new one yet either */
		n = cfqq->cfqg->nr_cfqq;
		if (ios_rb_unlinked(&cfqq->rb_node) || moved)
			n--;
	}
	return (n - 1) * (int64_t)(ios_cfq_prio_slice(cfqd, true, 0) -
				   ios_cfq_prio_slice(cfqd, cfqq_sync(cfqq), cfqq->ioprio));
}

void ios_cfq_service_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq, bool add_front)
{
	/* 2.6.33 group_isolation=0: seeky queues of other groups live in the root (§10) */
	bool moved = ios_cfq_isolation_move(cfqd, cfqq);
	struct cfq_rb_root *st = ios_cfqq_target_tree(cfqd, cfqq);
	uint64_t now = cfqd->now, key;

	if (cfq_class_idle(cfqq)) {
		struct ios_rb_node *last = ios_rb_last(&st->rb.rb);

		key = CFQ_IDLE_DELAY_NS;
		if (last && last != &cfqq->rb_node)
			key += ios_rb_entry(last, struct cfq_queue, rb_node)->rb_key;
		else
			key += now;
	} else if (!add_front) {
		key = (uint64_t)((int64_t)now + cfq_slice_offset(cfqd, cfqq, moved));
		/* 2.6.31 adds the residual (a sign slip fixed by 2.6.33) */
		if (cfqd->prof->resid_added)
			key = (uint64_t)((int64_t)key + cfqq->slice_resid);
		else
			key = (uint64_t)((int64_t)key - cfqq->slice_resid);
		cfqq->slice_resid = 0;
	} else if (!cfqd->prof->front_key_before_first) {
		/*
		 * The kernel uses key 0, below every jiffies-based key, so the
		 * queue is first in its class. Our clock starts at 0, where 0
		 * would tie with queues keyed at time 0 (or lose to overrun
		 * ones): "0 in jiffies" is a key far before now.
		 */
		key = now - (1ULL << 62);
	} else {
		struct cfq_queue *first = cfq_rb_first(st);

		key = (first ? first->rb_key : now) - IOS_NSEC_PER_SEC;	/* -HZ */
	}

	if (!ios_rb_unlinked(&cfqq->rb_node)) {
		if (key == cfqq->rb_key && cfqq->service_tree == st)
			return;
		ios_cfq_rb_erase(cfqq->service_tree, &cfqq->rb_node);
		cfqq->service_tree = NULL;
	}
	cfqq->rb_key = key;
	cfqq->service_tree = st;
	ios_cfq_rb_insert(st, &cfqq->rb_node,
			  cfqd->prof->workload_trees ? cfqq_less : cfqq_less_2631);
}

void ios_cfq_resort_rr_list(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqq_has(cfqq, CFQ_QF_ON_RR)) {
		ios_cfq_service_tree_add(cfqd, cfqq, false);
		ios_cfq_prio_tree_add(cfqd, cfqq);
	}
}

/* The queue gets requests: it becomes busy. */
void ios_cfq_add_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	IOS_BUG_ON(cfqq_has(cfqq, CFQ_QF_ON_RR));
	cfqq_mark(cfqq, CFQ_QF_ON_RR);
	cfqd->busy_queues++;
	if (cfqq_sync(cfqq))
		cfqd->busy_sync_queues++;
	if (cfq_class_rt(cfqq))
		cfqd->busy_rt_queues++;
	ios_cfq_group_busy(cfqd, cfqq->cfqg);
	ios_cfq_resort_rr_list(cfqd, cfqq);
}

void ios_cfq_del_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	IOS_BUG_ON(!cfqq_has(cfqq, CFQ_QF_ON_RR));
	cfqq_clear(cfqq, CFQ_QF_ON_RR);
	if (!ios_rb_unlinked(&cfqq->rb_node)) {
		ios_cfq_rb_erase(cfqq->service_tree, &cfqq->rb_node);
		cfqq->service_tree = NULL;
	}
	ios_cfq_prio_tree_del(cfqq);
	ios_cfq_group_idle(cfqd, cfqq->cfqg);
	cfqd->busy_queues--;
	if (cfqq_sync(cfqq))
		cfqd->busy_sync_queues--;
	if (cfq_class_rt(cfqq))
		cfqd->busy_rt_queues--;
}

/* ---- the active queue ---- */

static void __cfq_set_active_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqq) {
		cfqq->slice_start = 0;
		cfqq->dispatch_start = cfqd->now;
		cfqq->allocated_slice = 0;
		cfqq->slice_end = 0;
		cfqq->slice_dispatch = 0;
		cfqq->nr_sectors = 0;
		cfqq_clear(cfqq, CFQ_QF_WAIT_REQUEST | CFQ_QF_MUST_DISPATCH | CFQ_QF_MUST_ALLOC_SLICE |
				 CFQ_QF_FIFO_EXPIRE);
		cfqq_mark(cfqq, CFQ_QF_SLICE_NEW);
		cfq_del_idle_timer(cfqd);
		cfqd->st_slices++;
		ios_queue_msg(cfqd->q, cfqd->now, "cfq%u set_active", cfqq->pid);
		ios_queue_note_owner(cfqd->q, cfqd->now, cfqq->pid, IOS_OWN_SLICE_START, 0);
	}
	cfqd->active_queue = cfqq;
}

static struct cfq_queue *cfq_get_next_queue(struct cfq_data *cfqd)
{
	if (!cfqd->rq_queued)
		return NULL;
	if (!cfqd->prof->workload_trees)
		return cfq_rb_first(&cfqd->service_tree);
	return cfq_rb_first(ios_cfq_st_for(cfqd->serving_group, cfqd->serving_wl_class,
					   cfqd->serving_wl_type));
}

static struct cfq_queue *cfq_set_active_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (!cfqq) {
		cfqq = cfq_get_next_queue(cfqd);
		/* 2.6.31: a cooperator is marked for one turn (cfq_close_cooperator) */
		if (cfqq && !cfqd->prof->queue_merging)
			cfqq_clear(cfqq, CFQ_QF_COOP);
	}
	__cfq_set_active_queue(cfqd, cfqq);
	return cfqq;
}

/* ---- selecting the queue ---- */

struct cfq_queue *ios_cfq_select_queue(struct cfq_data *cfqd)
{
	const struct cfq_profile *prof = cfqd->prof;
	struct cfq_queue *cfqq = cfqd->active_queue, *new_cfqq = NULL;

	if (!cfqq)
		goto new_queue;
	/* empty queues stay busy: there may be nothing to dispatch at all */
	if (prof->keep_empty_busy && !cfqd->rq_queued)
		return NULL;
	if (prof->wait_busy != CFQ_WAIT_BUSY_NONE && cfqq_has(cfqq, CFQ_QF_WAIT_BUSY) &&
	    !ios_rb_empty(&cfqq->sort_list))
		goto expire;
	if (cfq_slice_used(cfqd, cfqq) && !cfqq_has(cfqq, CFQ_QF_MUST_DISPATCH)) {
		if (prof->wait_busy == CFQ_WAIT_BUSY_NONE)
			goto expire;
		/* let a group with one queue get backlogged before switching */
		if (cfqq->cfqg->nr_cfqq == 1 && ios_rb_empty(&cfqq->sort_list) && cfqq->dispatched &&
		    ios_cfq_should_idle(cfqd, cfqq))
			return NULL;
		if (prof->group_idle)
			goto check_group_idle;
		goto expire;
	}
	if (prof->rt_expires_in_select && !cfq_class_rt(cfqq) && cfqd->busy_rt_queues) {
		/* an RT queue waits: this one banks its remaining time */
		ios_cfq_slice_expired(cfqd, true);
		goto new_queue;
	}
	if (!ios_rb_empty(&cfqq->sort_list))
		return cfqq;
	/* another queue's next request is close to the head: let it run instead */
	new_cfqq = ios_cfq_close_cooperator(cfqd, cfqq, false);
	if (new_cfqq) {
		if (prof->queue_merging && !cfqq->new_cfqq)
			ios_cfq_setup_merge(cfqd, cfqq, new_cfqq);
		cfqd->st_coop_selected++;
		goto expire;
	}
	if (cfq_timer_pending(cfqd))
		return NULL;
	if (prof->idle_window_only) {
		if (cfqq->dispatched && cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW))
			return NULL;
		goto expire;
	}
	if (prof->seeky_drops_window_in_select && ios_cfqq_seeky(cfqd, cfqq, NULL) &&
	    cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW) &&
	    (cfqq_has(cfqq, CFQ_QF_SLICE_NEW) ||
	     cfqq->slice_end - cfqd->now > cfqd->now - cfqq->slice_start)) {
		/* the device is faster than this seeky queue can feed it */
		cfqq_clear(cfqq, CFQ_QF_DEEP | CFQ_QF_IDLE_WINDOW);
	}
	if (cfqq->dispatched && ios_cfq_should_idle(cfqd, cfqq))
		return NULL;
check_group_idle:
	if (prof->group_idle && cfqd->group_idle && cfqq->cfqg->nr_cfqq == 1 &&
	    cfqq->cfqg->dispatched && !ios_cfq_ttime_big(cfqd, &cfqq->cfqg->ttime, true))
		return NULL;
expire:
	ios_cfq_slice_expired(cfqd, false);
new_queue:
	if (!new_cfqq && prof->workload_trees)
		ios_cfq_choose_cfqg(cfqd);
	return cfq_set_active_queue(cfqd, new_cfqq);
}

/* The first busy queue in service order, ignoring idling (forced dispatch). */
struct cfq_queue *ios_cfq_first_busy(struct cfq_data *cfqd)
{
	struct ios_list_head *pos;

	if (!cfqd->prof->workload_trees)
		return cfq_rb_first(&cfqd->service_tree);
	ios_list_for_each(pos, &cfqd->all_groups) {
		struct cfq_group *g = ios_list_entry(pos, struct cfq_group, all);
		struct cfq_queue *q;

		for (int c = CFQ_RT_WL; c >= CFQ_BE_WL; c--)
			for (int t = CFQ_SYNC_WL; t >= CFQ_ASYNC_WL; t--)
				if ((q = cfq_rb_first(&g->service_trees[c][t])) != NULL)
					return q;
		if ((q = cfq_rb_first(&g->service_tree_idle)) != NULL)
			return q;
	}
	return NULL;
}
