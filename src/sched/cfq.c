/*
 * CFQ, the Completely Fair Queuing I/O scheduler (Jens Axboe), as Linux
 * 2.6.31, 2.6.33 and 4.19 have it; spec: shared/spec/cfq.md.
 *
 * Every process gets its own sync queue; async requests go to queues shared
 * per (class, level). One queue at a time is active and owns the disk for a
 * time slice, base + base/5 * (4 - level) (100 ms for sync at level 4),
 * which starts at its first completion. Busy queues wait on service trees
 * keyed by the time they were queued plus an offset that sends lower
 * levels and async queues further back; RT queues are served before BE,
 * BE before IDLE. Inside a queue requests go in an elevator order with a
 * bounded back seek, and an expired FIFO request once per slice.
 *
 * What makes CFQ fair in time rather than in requests is idling: when the
 * active sync queue runs out of requests, CFQ keeps the disk idle for up to
 * slice_idle (8 ms) waiting for that process's next request instead of
 * seeking away. It idles only for queues whose think time is short and, in
 * 2.6.31 on command-queueing disks, only for queues that are not seeky. The
 * seed-000 `fairness` knob keeps the idle window of seeky queues.
 *
 * Version differences are small branches on cfqd->ver (see cfq_int.h).
 * Groups and the workload choice of 2.6.33+ are in cfq_group.c; the profile
 * descriptors and tunables tables in cfq_profiles.c.
 *
 * Timing: the scheduler is given the time on every call (cfqd->now). The
 * idle slice timer is cfqd->idle_timer, reported through next_wakeup() and
 * handled by the timer hook.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cfq_int.h"

#define sample_valid(x) ((x) > 80)

static void cfq_schedule_idle_timer(struct cfq_data *cfqd, uint64_t when)
{
	cfqd->idle_timer = when;
}

static void cfq_del_idle_timer(struct cfq_data *cfqd)
{
	cfqd->idle_timer = IOS_NO_WAKEUP;
}

static bool cfq_timer_pending(const struct cfq_data *cfqd)
{
	return cfqd->idle_timer != IOS_NO_WAKEUP;
}

static bool cfq_slice_used(const struct cfq_data *cfqd, const struct cfq_queue *cfqq)
{
	if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW))
		return false;
	return cfqd->now >= cfqq->slice_end;
}

static uint64_t cfq_prio_to_slice(const struct cfq_data *cfqd, const struct cfq_queue *cfqq)
{
	return cfq_prio_slice(cfqd, cfqq_sync(cfqq), cfqq->ioprio);
}

/* 2.6.33+ low_latency: scale the slice so all interested queues fit in the target */
static uint64_t cfq_scaled_slice(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	uint64_t slice = cfq_prio_to_slice(cfqd, cfqq);

	if (cfqd->ver != CFQ_V2631 && cfqd->low_latency) {
		struct cfq_group *g = cfqq->cfqg;
		unsigned busy = cfq_group_busy_queues_wl(cfq_class_rt(cfqq) ? CFQ_RT_WL : CFQ_BE_WL, g);
		unsigned avg = g->busy_queues_avg[cfq_class_rt(cfqq)];
		unsigned iq;
		uint64_t sync_slice = cfqd->slice[1], expect, grp;

		/* cfq_group_get_avg_queues: rises fast, decays slowly */
		{
			unsigned min_q = busy < avg ? busy : avg, max_q = busy > avg ? busy : avg;

			g->busy_queues_avg[cfq_class_rt(cfqq)] =
				(3 * max_q + min_q + CFQ_HIST_DIVISOR / 2) / CFQ_HIST_DIVISOR;
			iq = g->busy_queues_avg[cfq_class_rt(cfqq)];
		}
		expect = sync_slice * iq;
		grp = cfq_group_slice(cfqd, g);
		if (expect > grp) {
			uint64_t base_low = 2 * cfqd->slice_idle;
			uint64_t low = base_low * slice / sync_slice;

			if (low > slice)
				low = slice;
			slice = slice * grp / expect;
			if (slice < low)
				slice = low;
		}
	}
	return slice;
}

static void cfq_set_prio_slice(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	uint64_t slice = cfq_scaled_slice(cfqd, cfqq);

	cfqq->slice_start = cfqd->now;
	cfqq->slice_end = cfqd->now + slice;
	cfqq->allocated_slice = slice;
}

static unsigned cfq_prio_to_maxrq(const struct cfq_data *cfqd, const struct cfq_queue *cfqq)
{
	return 2u * (unsigned)cfqd->slice_async_rq * (IOS_IOPRIO_LEVELS - (unsigned)cfqq->ioprio);
}

/* ---- request choice inside a queue ---- */

/*
 * Of two requests, the one to serve first from head position @last:
 * sync before async, metadata before data, then the shorter seek, where a
 * backward seek within back_seek_max counts back_seek_penalty times.
 */
static struct ios_request *cfq_choose_req(const struct cfq_data *cfqd, struct ios_request *a,
					  struct ios_request *b, uint64_t last)
{
	uint64_t s1, s2, d1 = 0, d2 = 0, back_max;
	bool w1 = false, w2 = false;
	uint32_t meta = cfqd->ver == CFQ_V419 ? IOS_REQ_PRIO : IOS_REQ_META;

	if (!a || a == b)
		return b;
	if (!b)
		return a;
	if (ios_rq_is_sync(a) != ios_rq_is_sync(b))
		return ios_rq_is_sync(a) ? a : b;
	if ((a->flags & meta) != (b->flags & meta))
		return (a->flags & meta) ? a : b;
	s1 = a->sector;
	s2 = b->sector;
	back_max = cfqd->back_seek_max_kb * 2;
	if (s1 >= last)
		d1 = s1 - last;
	else if (s1 + back_max >= last)
		d1 = (last - s1) * (uint64_t)cfqd->back_seek_penalty;
	else
		w1 = true;
	if (s2 >= last)
		d2 = s2 - last;
	else if (s2 + back_max >= last)
		d2 = (last - s2) * (uint64_t)cfqd->back_seek_penalty;
	else
		w2 = true;
	if (!w1 && !w2) {
		if (d1 < d2)
			return a;
		if (d2 < d1)
			return b;
		return s1 >= s2 ? a : b;
	}
	if (w1 && !w2)
		return b;
	if (w2 && !w1)
		return a;
	/* both wrap: the lower one, to need only one long backward seek */
	return s1 <= s2 ? a : b;
}

/* The next request after @last leaves (dispatched or merged away). */
static struct ios_request *cfq_find_next_rq(struct cfq_data *cfqd, struct cfq_queue *cfqq,
					    struct ios_request *last)
{
	struct ios_request *next = ios_elv_rb_latter(last), *prev = ios_elv_rb_former(last);
	uint64_t ref = cfqd->ver == CFQ_V2631 ? cfqd->last_position : last->sector;

	if (!next) {
		struct ios_rb_node *f = ios_rb_first(&cfqq->sort_list);

		if (f && ios_rb_to_rq(f) != last)
			next = ios_rb_to_rq(f);
	}
	return cfq_choose_req(cfqd, next, prev, ref);
}

/* ---- prio trees: busy queues by the sector of their next request ---- */

/* next_rq and the copy of its sector that prio-tree descents read */
static inline void cfq_set_next_rq(struct cfq_queue *cfqq, struct ios_request *rq)
{
	cfqq->next_rq = rq;
	cfqq->next_sector = rq ? rq->sector : 0;
}

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
static struct cfq_queue *cfq_prio_tree_lookup(struct ios_rb_root *root, uint64_t sector,
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

static void cfq_prio_tree_del(struct cfq_queue *cfqq)
{
	if (cfqq->p_root) {
		ios_rb_erase(&cfqq->p_node, cfqq->p_root);
		cfqq->p_root = NULL;
	}
}

static void cfq_prio_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct ios_rb_root *root = &cfqd->prio_trees[cfqq->org_ioprio];
	struct ios_rb_node *parent, **link;

	cfq_prio_tree_del(cfqq);
	if (cfq_class_idle(cfqq) || !cfqq->next_rq)
		return;
	if (cfq_prio_tree_lookup(root, cfqq->next_rq->sector, &parent, &link))
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

static struct cfq_rb_root *cfqq_target_tree(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqd->ver == CFQ_V2631)
		return &cfqd->service_tree;
	return cfq_st_for(cfqq->cfqg, cfqq_class(cfqq), cfqq_type(cfqq));
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

	if (cfqd->ver == CFQ_V2631) {
		n = cfqd->busy_queues;
	} else {
		/* a queue that just changed groups is not counted in its new one yet either */
		n = cfqq->cfqg->nr_cfqq;
		if (ios_rb_unlinked(&cfqq->rb_node) || moved)
			n--;
	}
	return (n - 1) * (int64_t)(cfq_prio_slice(cfqd, true, 0) -
				   cfq_prio_slice(cfqd, cfqq_sync(cfqq), cfqq->ioprio));
}

static void cfq_service_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq, bool add_front)
{
	/* 2.6.33 group_isolation=0: seeky queues of other groups live in the root (§10) */
	bool moved = cfq_isolation_move(cfqd, cfqq);
	struct cfq_rb_root *st = cfqq_target_tree(cfqd, cfqq);
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
		if (cfqd->ver == CFQ_V2631)
			key = (uint64_t)((int64_t)key + cfqq->slice_resid);
		else
			key = (uint64_t)((int64_t)key - cfqq->slice_resid);
		cfqq->slice_resid = 0;
	} else if (cfqd->ver == CFQ_V2631) {
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
		cfq_rb_erase(cfqq->service_tree, &cfqq->rb_node);
		cfqq->service_tree = NULL;
	}
	cfqq->rb_key = key;
	cfqq->service_tree = st;
	cfq_rb_insert(st, &cfqq->rb_node, cfqd->ver == CFQ_V2631 ? cfqq_less_2631 : cfqq_less);
}

static void cfq_resort_rr_list(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqq_has(cfqq, CFQ_QF_ON_RR)) {
		cfq_service_tree_add(cfqd, cfqq, false);
		cfq_prio_tree_add(cfqd, cfqq);
	}
}

/* The queue gets requests: it becomes busy. */
static void cfq_add_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	IOS_BUG_ON(cfqq_has(cfqq, CFQ_QF_ON_RR));
	cfqq_mark(cfqq, CFQ_QF_ON_RR);
	cfqd->busy_queues++;
	if (cfqq_sync(cfqq))
		cfqd->busy_sync_queues++;
	if (cfq_class_rt(cfqq))
		cfqd->busy_rt_queues++;
	cfq_group_busy(cfqd, cfqq->cfqg);
	cfq_resort_rr_list(cfqd, cfqq);
}

static void cfq_del_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	IOS_BUG_ON(!cfqq_has(cfqq, CFQ_QF_ON_RR));
	cfqq_clear(cfqq, CFQ_QF_ON_RR);
	if (!ios_rb_unlinked(&cfqq->rb_node)) {
		cfq_rb_erase(cfqq->service_tree, &cfqq->rb_node);
		cfqq->service_tree = NULL;
	}
	cfq_prio_tree_del(cfqq);
	cfq_group_idle(cfqd, cfqq->cfqg);
	cfqd->busy_queues--;
	if (cfqq_sync(cfqq))
		cfqd->busy_sync_queues--;
	if (cfq_class_rt(cfqq))
		cfqd->busy_rt_queues--;
}

/* ---- adding and removing requests ---- */

static void cfq_dispatch_alias(struct cfq_data *cfqd, struct ios_request *alias);

static void cfq_add_rq_rb(struct cfq_data *cfqd, struct ios_request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);
	struct ios_request *prev;

	cfqq->queued[ios_rq_is_sync(rq)]++;
	/*
	 * 2.6.31 and 2.6.33: the sort tree (elv_rb_add) holds one request per
	 * start sector; an older request starting where this one does goes
	 * to dispatch first (cfq_dispatch_insert on the alias). 4.19's
	 * elv_rb_add keeps both.
	 */
	if (cfqd->ver != CFQ_V419) {
		struct ios_request *alias;

		while ((alias = ios_elv_rb_find(&cfqq->sort_list, rq->sector)) != NULL)
			cfq_dispatch_alias(cfqd, alias);
	}
	ios_elv_rb_add(&cfqq->sort_list, rq);
	if (!cfqq_has(cfqq, CFQ_QF_ON_RR))
		cfq_add_cfqq_rr(cfqd, cfqq);
	prev = cfqq->next_rq;
	cfq_set_next_rq(cfqq, cfq_choose_req(cfqd, cfqq->next_rq, rq, cfqd->last_position));
	if (prev != cfqq->next_rq)
		cfq_prio_tree_add(cfqd, cfqq);
}

static void cfq_del_rq_rb(struct cfq_data *cfqd, struct ios_request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	IOS_BUG_ON(!cfqq->queued[ios_rq_is_sync(rq)]);
	cfqq->queued[ios_rq_is_sync(rq)]--;
	ios_elv_rb_del(&cfqq->sort_list, rq);
	ios_rb_clear(&rq->rb_node);
	if (ios_rb_empty(&cfqq->sort_list)) {
		if (cfqd->ver == CFQ_V2631) {
			/* 2.6.31: off the tree the moment its last request goes */
			if (cfqq_has(cfqq, CFQ_QF_ON_RR))
				cfq_del_cfqq_rr(cfqd, cfqq);
		} else {
			cfq_prio_tree_del(cfqq);
		}
	}
}

static void cfq_remove_request(struct cfq_data *cfqd, struct ios_request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	if (cfqq->next_rq == rq)
		cfq_set_next_rq(cfqq, cfq_find_next_rq(cfqd, cfqq, rq));
	ios_list_del(&rq->queuelist);
	cfq_del_rq_rb(cfqd, rq);
	cfqd->rq_queued--;
	if (rq->flags & (cfqd->ver == CFQ_V419 ? IOS_REQ_PRIO : IOS_REQ_META)) {
		IOS_BUG_ON(!cfqq->meta_pending);
		cfqq->meta_pending--;
	}
	/*
	 * No re-keying here: every release re-keys a queue in its prio tree
	 * only from cfq_add_rq_rb (when next_rq changes) and
	 * cfq_resort_rr_list (joining the service tree, slice expiry), so the
	 * active queue keeps the sector of a request it already dispatched.
	 */
}

/* ---- queues and contexts ---- */

static struct cfq_io_cq *cfq_cic(struct cfq_data *cfqd, struct ios_ioc *ioc, bool create)
{
	struct cfq_io_cq *cic = ioc->icq[cfqd->q->id];

	if (cic || !create)
		return cic;
	cic = calloc(1, sizeof(*cic));
	if (!cic)
		return NULL;
	cic->ioc = ioc;
	/*
	 * The task's reference. A context made for a task that has already
	 * exited (a bio that slept for a request slot past its task's end) has
	 * no task to hold it: its requests alone keep it, as the kernel's
	 * lookup drops a dead-key cic and makes a fresh one.
	 */
	cic->ref = ioc->nr_tasks ? 1 : 0;
	cic->exited = ioc->nr_tasks == 0;
	cic->ttime.last_end = cfqd->now;
	ios_list_add_tail(&cic->all, &cfqd->all_cics);
	ioc->icq[cfqd->q->id] = cic;
	return cic;
}

static void cfq_cic_get(struct cfq_io_cq *cic)
{
	IOS_BUG_ON(cic->ref < 0);
	cic->ref++;
}

static void cfq_cic_detach(struct cfq_data *cfqd, struct cfq_io_cq *cic);

/* Drop a reference; the last one frees the context (cic_free_func). */
static void cfq_cic_put(struct cfq_data *cfqd, struct cfq_io_cq *cic)
{
	IOS_BUG_ON(cic->ref <= 0);
	if (--cic->ref)
		return;
	/* only a context whose task is gone can lose its last reference */
	IOS_BUG_ON(!cic->exited || cfqd->active_cic == cic);
	/* one made after its task's exit still holds the queues it was given */
	cfq_cic_detach(cfqd, cic);
	if (cic->ioc->icq[cfqd->q->id] == cic)
		cic->ioc->icq[cfqd->q->id] = NULL;
	ios_list_del(&cic->all);
	cic->ref = -1;	/* poisoned: a stale user that still sees it trips ref <= 0 */
	free(cic);
}

/* The ioprio the kernel derives for a queue from its task (cfq_init_prio_data). */
static void cfq_init_prio_data(struct cfq_queue *cfqq, const struct ios_ioc *ioc)
{
	if (!cfqq_has(cfqq, CFQ_QF_PRIO_CHANGED))
		return;
	switch (ioc->ioprio_class) {
	case IOS_IOPRIO_CLASS_RT:
		cfqq->ioprio = ioc->ioprio_level;
		cfqq->ioprio_class = IOS_IOPRIO_CLASS_RT;
		break;
	case IOS_IOPRIO_CLASS_BE:
		cfqq->ioprio = ioc->ioprio_level;
		cfqq->ioprio_class = IOS_IOPRIO_CLASS_BE;
		break;
	case IOS_IOPRIO_CLASS_IDLE:
		cfqq->ioprio_class = IOS_IOPRIO_CLASS_IDLE;
		cfqq->ioprio = 7;
		cfqq_clear(cfqq, CFQ_QF_IDLE_WINDOW);
		break;
	default:
		/* no ioprio set: the level follows nice, the class the CPU policy (normal) */
		cfqq->ioprio = (ioc->nice + 20) / 5;
		cfqq->ioprio_class = IOS_IOPRIO_CLASS_BE;
		break;
	}
	cfqq->org_ioprio = cfqq->ioprio;
	cfqq->org_ioprio_class = cfqq->ioprio_class;
	cfqq_clear(cfqq, CFQ_QF_PRIO_CHANGED);
}

static struct cfq_queue *cfq_alloc_queue(struct cfq_data *cfqd, bool sync, struct ios_ioc *ioc,
					 struct cfq_group *g)
{
	struct cfq_queue *cfqq = calloc(1, sizeof(*cfqq));

	if (!cfqq)
		return NULL;
	cfqq->cfqd = cfqd;
	ios_rb_clear(&cfqq->rb_node);
	cfqq->sort_list = IOS_RB_ROOT;
	ios_list_init(&cfqq->fifo);
	cfqq_mark(cfqq, CFQ_QF_PRIO_CHANGED);
	if (sync) {
		cfqq_mark(cfqq, CFQ_QF_SYNC);
		cfqq_mark(cfqq, CFQ_QF_IDLE_WINDOW);
		cfqq->pid = ioc->pid;
	}
	cfqq->cfqg = g;
	cfq_init_prio_data(cfqq, ioc);
	ios_list_add_tail(&cfqq->all, &cfqd->all_queues);
	return cfqq;
}

/*
 * @dead is being freed while queues may still point at it: a merge target
 * keeps no reference for a queue whose processes are gone (cfq_exit_cfqq
 * drops them), nor for one that pointed at it with no processes to give
 * (cfq_setup_merge's other direction). Such pointers are only ever held by
 * queues without processes. The kernel leaves them dangling; we end the
 * chain there and say so, for cfq_setup_merge to refuse it.
 */
static void cfq_unlink_merge_target(struct cfq_data *cfqd, struct cfq_queue *dead)
{
	struct ios_list_head *pos;

	ios_list_for_each(pos, &cfqd->all_queues) {
		struct cfq_queue *q = ios_list_entry(pos, struct cfq_queue, all);

		if (q->new_cfqq == dead) {
			q->new_cfqq = NULL;
			cfqq_mark(q, CFQ_QF_CHAIN_FREED);
		}
	}
}

static void cfq_put_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	IOS_BUG_ON(cfqq->ref <= 0);
	if (--cfqq->ref)
		return;
	IOS_BUG_ON(!ios_rb_empty(&cfqq->sort_list) || cfqq->allocated[0] || cfqq->allocated[1]);
	if (cfqd->active_queue == cfqq)
		return; /* freed when it expires */
	if (cfqq_has(cfqq, CFQ_QF_ON_RR))
		cfq_del_cfqq_rr(cfqd, cfqq);
	ios_list_del(&cfqq->all);
	if (cfqq_has(cfqq, CFQ_QF_MERGE_TARGET))
		cfq_unlink_merge_target(cfqd, cfqq);
	free(cfqq);
}

/* The async queue for the task's slot (shared per class and level). */
static struct cfq_queue **cfq_async_slot(struct cfq_data *cfqd, struct cfq_group *g,
					 const struct ios_ioc *ioc)
{
	int cls = ioc->ioprio_class, lvl = ioc->ioprio_level;
	struct cfq_group *owner = cfqd->ver == CFQ_V419 ? g : cfqd->root_group;

	if (cls == IOS_IOPRIO_CLASS_NONE) {
		if (cfqd->ver == CFQ_V419) {
			cls = IOS_IOPRIO_CLASS_BE;
			lvl = (ioc->nice + 20) / 5;
		} else {
			/* task_ioprio() falls back to IOPRIO_NORM, the class to BE */
			cls = IOS_IOPRIO_CLASS_BE;
			lvl = IOS_IOPRIO_NORM;
		}
	}
	if (cls == IOS_IOPRIO_CLASS_IDLE)
		return &owner->async_idle_cfqq;
	return &owner->async_cfqq[cls == IOS_IOPRIO_CLASS_RT ? 0 : 1][lvl & 7];
}

static struct cfq_queue *cfq_get_queue(struct cfq_data *cfqd, bool sync, struct ios_ioc *ioc,
				       struct cfq_io_cq *cic)
{
	struct cfq_group *g = cfq_lookup_group(cfqd, ioc->cgroup);
	struct cfq_queue *cfqq;

	if (!sync) {
		struct cfq_queue **slot = cfq_async_slot(cfqd, g, ioc);

		if (!*slot) {
			/*
			 * The slot is the device's up to 2.6.33 (the group's in
			 * 4.19), but 2.6.33's cfq_find_alloc_queue links a new
			 * queue to the allocating task's group (cfq_get_cfqg), so
			 * whoever writes first decides where every task's async
			 * requests of that priority are served.
			 */
			*slot = cfq_alloc_queue(cfqd, false, ioc, g);
			if (!*slot)
				return NULL;
			(*slot)->ref++; /* held by the slot */
		}
		cfqq = *slot;
	} else {
		cfqq = cic->cfqq[1];
		if (!cfqq) {
			cfqq = cfq_alloc_queue(cfqd, true, ioc, g);
			if (!cfqq)
				return NULL;
			cfqq->ref++; /* held by the context */
			cic->cfqq[1] = cfqq;
		}
		return cfqq;
	}
	if (cic->cfqq[0] != cfqq) {
		if (cic->cfqq[0])
			cfq_put_queue(cfqd, cic->cfqq[0]);
		cfqq->ref++;
		cic->cfqq[0] = cfqq;
	}
	return cfqq;
}

/* ---- queue merging (2.6.33+) ---- */

static void cfq_setup_merge(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			    struct cfq_queue *new_cfqq)
{
	int process_refs, new_process_refs;
	struct cfq_queue *q;

	/*
	 * Only a queue with processes keeps the queues down its chain alive
	 * (their merge references are its processes'; cfq_put_cooperator drops
	 * them at exit). 4.19 (and 2.6.33.7) follow a chain only from such a
	 * queue. 2.6.33.3 follows it from any candidate, which in the kernel
	 * could read a freed queue: here a chain whose next queue was freed
	 * (cfq_unlink_merge_target) is refused, the rest is 2.6.33.3's walk.
	 */
	if (cfqd->ver == CFQ_V419 &&
	    new_cfqq->ref - (int)(new_cfqq->allocated[0] + new_cfqq->allocated[1]) <= 0)
		return;
	/* follow the chain; give up on a cycle back to cfqq */
	for (;;) {
		if (cfqq_has(new_cfqq, CFQ_QF_CHAIN_FREED))
			return;
		q = new_cfqq->new_cfqq;
		if (!q)
			break;
		if (q == cfqq)
			return;
		new_cfqq = q;
	}
	process_refs = cfqq->ref - (int)(cfqq->allocated[0] + cfqq->allocated[1]);
	new_process_refs = new_cfqq->ref - (int)(new_cfqq->allocated[0] + new_cfqq->allocated[1]);
	if (process_refs <= 0 || (cfqd->ver == CFQ_V419 && new_process_refs <= 0))
		return;
	/* the queue with fewer process references moves to the other */
	if (new_process_refs >= process_refs) {
		cfqq->new_cfqq = new_cfqq;
		cfqq_clear(cfqq, CFQ_QF_CHAIN_FREED);
		new_cfqq->ref += process_refs;
		cfqq_mark(new_cfqq, CFQ_QF_MERGE_TARGET);
	} else {
		new_cfqq->new_cfqq = cfqq;
		cfqq->ref += new_process_refs;
		cfqq_mark(cfqq, CFQ_QF_MERGE_TARGET);
	}
	cfqd->st_merges++;
}

static void cfq_put_cooperator(struct cfq_data *cfqd, struct cfq_queue *cfqq);

/* A context adopts the queue its old one was merged into. */
static struct cfq_queue *cfq_merge_cfqqs(struct cfq_data *cfqd, struct cfq_io_cq *cic,
					 struct cfq_queue *cfqq)
{
	struct cfq_queue *nq = cfqq->new_cfqq;

	/*
	 * The references cfq_setup_merge added to nq are the processes' own:
	 * this one takes its share and drops the old queue. new_cfqq stays, for
	 * the other processes that still use the old queue.
	 */
	cic->cfqq[1] = nq;
	cfqq_mark(nq, CFQ_QF_COOP);
	cfq_put_queue(cfqd, cfqq);
	return nq;
}

/* A merged queue that stopped cooperating: this process gets its own again. */
static struct cfq_queue *cfq_split_cfqq(struct cfq_data *cfqd, struct cfq_io_cq *cic,
					struct cfq_queue *cfqq)
{
	int process_refs = cfqq->ref - (int)(cfqq->allocated[0] + cfqq->allocated[1]);

	if (process_refs == 1) {
		cfqq->pid = cic->ioc->pid;
		cfqq_clear(cfqq, CFQ_QF_COOP);
		cfqq_clear(cfqq, CFQ_QF_SPLIT_COOP);
		return cfqq;
	}
	cic->cfqq[1] = NULL;
	/*
	 * 4.19 (from 2.6.33.7) also gives up this process's share of a merge
	 * the queue has pending; 2.6.33.3's split_cfqq keeps it.
	 */
	if (cfqd->ver == CFQ_V419)
		cfq_put_cooperator(cfqd, cfqq);
	cfq_put_queue(cfqd, cfqq);
	cfqd->st_splits++;
	return NULL;
}

/* ---- statistics: think time, seek distance, hw_tag ---- */

static void cfq_update_ttime(struct cfq_ttime *t, uint64_t now, uint64_t cap)
{
	uint64_t elapsed = now - t->last_end;

	if (elapsed > 2 * cap)
		elapsed = 2 * cap;
	t->samples = (7 * t->samples + 256) / 8;
	t->total = (7 * t->total + 256 * elapsed) / 8;
	t->mean = (t->total + 128) / t->samples;
}

/*
 * lab.ttime_back_to_back, Divyesh Shah's proposal in seed 000 ("only
 * consider samples where the process was allowed to send consecutive IOs
 * down to the disk"), which he described and never posted. Read for 2.6.31:
 * a process sends its IOs to the disk only while its queue holds the slice,
 * so a sample counts when the previous sync request completed while the
 * queue was active and the new one arrives in that same slice. A request
 * whose think interval began outside the slice, or spans a slice switch
 * (other queues served, or the queue's own slice ended), gives no sample;
 * nor does a first request, which has no previous one. last_end is kept
 * as before, so a sample that counts is measured exactly as 2.6.31 does.
 */
static bool cfq_ttime_back_to_back(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
				   const struct cfq_io_cq *cic)
{
	return cic->ttime_slice && cfqd->active_queue == cfqq && cic->ttime_slice == cfqd->st_slices;
}

static void cfq_update_io_thinktime(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				    struct cfq_io_cq *cic)
{
	if (cfqd->ver == CFQ_V419) {
		if (cfqq_sync(cfqq)) {
			cfq_update_ttime(&cic->ttime, cfqd->now, cfqd->slice_idle);
			if (cfqq->service_tree)
				cfq_update_ttime(&cfqq->service_tree->ttime, cfqd->now, cfqd->slice_idle);
		}
		cfq_update_ttime(&cfqq->cfqg->ttime, cfqd->now, cfqd->group_idle);
		return;
	}
	if (cfqd->q->ttime_back_to_back && !cfq_ttime_back_to_back(cfqd, cfqq, cic))
		return;
	cfq_update_ttime(&cic->ttime, cfqd->now, cfqd->slice_idle);
}

/* The mean of decaying samples, as 2.6.31-2.6.33 keep it. */
static void cfq_update_seek_mean(uint64_t *samples, uint64_t *total, uint64_t *mean,
				 uint64_t sdist)
{
	if (*samples <= 60)
		sdist = sdist < *mean * 4 + 2 * 1024 * 1024 ? sdist : *mean * 4 + 2 * 1024 * 1024;
	else
		sdist = sdist < *mean * 4 + 2 * 1024 * 64 ? sdist : *mean * 4 + 2 * 1024 * 64;
	*samples = (7 * *samples + 256) / 8;
	*total = (7 * *total + 256 * sdist) / 8;
	*mean = (*total + *samples / 2) / *samples;
}

static void cfq_update_io_seektime(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				   struct cfq_io_cq *cic, const struct ios_request *rq)
{
	uint64_t last = cfqd->ver == CFQ_V2631 ? cic->last_request_pos : cfqq->last_request_pos;
	uint64_t sdist = 0;

	/*
	 * A first request (no previous position) is no seek in every profile:
	 * 2.6.30 and 2.6.31 test !cic->last_request_pos, 2.6.33 the queue's,
	 * 4.19 measures only when a position is known. (2.6.29 measured the
	 * first request from sector 0.)
	 */
	if (last)
		sdist = last < rq->sector ? rq->sector - last : last - rq->sector;
	switch (cfqd->ver) {
	case CFQ_V2631:
		cfq_update_seek_mean(&cic->seek_samples, &cic->seek_total, &cic->seek_mean, sdist);
		break;
	case CFQ_V2633:
		cfq_update_seek_mean(&cfqq->seek_samples, &cfqq->seek_total, &cfqq->seek_mean, sdist);
		break;
	case CFQ_V419: {
		bool seeky;

		if (!cfqd->q->rotational)
			seeky = rq->nr_sectors < CFQQ_SECT_THR_NONROT;
		else
			seeky = sdist > CFQQ_SEEK_THR;
		cfqq->seek_history = (cfqq->seek_history << 1) | (seeky ? 1u : 0u);
		break;
	}
	}
}

static bool cfqq_seeky(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
		       const struct cfq_io_cq *cic)
{
	switch (cfqd->ver) {
	case CFQ_V2631:
		return cic && cic->seek_mean > CFQ_SEEK_THR_OLD;
	case CFQ_V2633:
		return cfqq->seek_mean > CFQ_SEEK_THR_OLD;
	default:
		return __builtin_popcount(cfqq->seek_history) > 32 / 8;
	}
}

static bool cfq_ttime_big(const struct cfq_data *cfqd, const struct cfq_ttime *t, bool group)
{
	if (!sample_valid(t->samples))
		return false;
	return t->mean > (group ? cfqd->group_idle : cfqd->slice_idle);
}

static bool cfq_req_noidle(const struct cfq_data *cfqd, const struct ios_request *rq)
{
	if (cfqd->ver == CFQ_V419)
		return rq->dir == IOS_WRITE && (rq->flags & (IOS_REQ_SYNC | IOS_REQ_IDLE)) == IOS_REQ_SYNC;
	return (rq->flags & IOS_REQ_NOIDLE) != 0;
}

static void cfq_update_idle_window(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				   struct cfq_io_cq *cic)
{
	bool enable, old;
	bool exited = cic->ioc->nr_tasks == 0;

	if (!cfqq_sync(cfqq) || cfq_class_idle(cfqq))
		return;
	enable = old = cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW);
	switch (cfqd->ver) {
	case CFQ_V2631:
		if (exited || !cfqd->slice_idle ||
		    (!cfqd->fairness && cfqd->hw_tag && cfqq_seeky(cfqd, cfqq, cic)))
			enable = false;
		else if (sample_valid(cic->ttime.samples))
			enable = cic->ttime.mean <= cfqd->slice_idle;
		break;
	case CFQ_V2633:
		if (cfqq->queued[0] + cfqq->queued[1] >= 4)
			cfqq_mark(cfqq, CFQ_QF_DEEP);
		if (exited || !cfqd->slice_idle ||
		    (!cfqq_has(cfqq, CFQ_QF_DEEP) && sample_valid(cfqq->seek_samples) &&
		     cfqq_seeky(cfqd, cfqq, cic)))
			enable = false;
		else if (sample_valid(cic->ttime.samples))
			enable = cic->ttime.mean <= cfqd->slice_idle;
		break;
	case CFQ_V419:
		if (cfqq->queued[0] + cfqq->queued[1] >= 4)
			cfqq_mark(cfqq, CFQ_QF_DEEP);
		if (cfqq->next_rq && cfq_req_noidle(cfqd, cfqq->next_rq))
			enable = false;
		else if (exited || !cfqd->slice_idle ||
			 (!cfqq_has(cfqq, CFQ_QF_DEEP) && cfqq_seeky(cfqd, cfqq, cic)))
			enable = false;
		else if (sample_valid(cic->ttime.samples))
			enable = cic->ttime.mean <= cfqd->slice_idle;
		break;
	}
	if (old != enable) {
		if (enable)
			cfqq_mark(cfqq, CFQ_QF_IDLE_WINDOW);
		else
			cfqq_clear(cfqq, CFQ_QF_IDLE_WINDOW);
		ios_queue_msg(cfqd->q, cfqd->now, "cfq%u idle=%d", cfqq->pid, enable);
	}
}

/* NCQ detection: does the driver keep more than a few requests? */
static void cfq_update_hw_tag(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue;

	if (cfqd->ver == CFQ_V2631) {
		if ((unsigned)cfqd->hw_tag_est_depth < cfqd->rq_in_driver)
			cfqd->hw_tag_est_depth = (int)cfqd->rq_in_driver;
		if (cfqd->rq_queued <= CFQ_HW_QUEUE_MIN && cfqd->rq_in_driver <= CFQ_HW_QUEUE_MIN)
			return;
		if (cfqd->hw_tag_samples++ < 50)
			return;
		cfqd->hw_tag = cfqd->hw_tag_est_depth >= CFQ_HW_QUEUE_MIN;
		cfqd->hw_tag_samples = 0;
		cfqd->hw_tag_est_depth = 0;
		return;
	}
	if ((unsigned)cfqd->hw_tag_est_depth < cfqd->rq_in_driver)
		cfqd->hw_tag_est_depth = (int)cfqd->rq_in_driver;
	if (cfqd->hw_tag == 1)
		return;
	if (cfqd->rq_queued <= CFQ_HW_QUEUE_MIN && cfqd->rq_in_driver <= CFQ_HW_QUEUE_MIN)
		return;
	/* a queue that cannot fill the device says nothing about it */
	if (cfqq && cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW) &&
	    cfqq->dispatched + cfqq->queued[0] + cfqq->queued[1] < CFQ_HW_QUEUE_MIN &&
	    cfqd->rq_in_driver < CFQ_HW_QUEUE_MIN)
		return;
	if (cfqd->hw_tag_samples++ < 50)
		return;
	cfqd->hw_tag = cfqd->hw_tag_est_depth >= CFQ_HW_QUEUE_MIN ? 1 : 0;
}

/* ---- idling ---- */

static bool cfq_should_idle(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_rb_root *st = cfqq->service_tree;

	if (cfq_class_idle(cfqq))
		return false;
	if (cfqd->ver == CFQ_V419 && !cfqd->slice_idle)
		return false;
	if (cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW) && !(!cfqd->q->rotational && cfqd->hw_tag))
		return true;
	/* the last queue of its tree idles, to keep its tree's share */
	if (st && st->count == 1 && cfqq_sync(cfqq)) {
		if (cfqd->ver == CFQ_V419 && cfq_ttime_big(cfqd, &st->ttime, false))
			return false;
		return true;
	}
	return false;
}

static struct cfq_queue *cfq_close_cooperator(struct cfq_data *cfqd, struct cfq_queue *cur,
					      bool probe);

static void cfq_arm_slice_timer(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue;
	struct cfq_io_cq *cic = cfqd->active_cic;
	uint64_t sl, now = cfqd->now;
	bool group_idle = false;

	switch (cfqd->ver) {
	case CFQ_V2631:
		if (!cfqd->q->rotational && cfqd->hw_tag)
			return;
		if (!cfqd->slice_idle || !cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW))
			return;
		if (cfqd->rq_in_driver)
			return;
		if (!cic || cic->ioc->nr_tasks == 0)
			return;
		cfqq_mark(cfqq, CFQ_QF_WAIT_REQUEST);
		sl = cfqd->slice_idle;
		if (sample_valid(cic->seek_samples) && cfqq_seeky(cfqd, cfqq, cic) &&
		    sl > CFQ_MIN_TT_NS)
			sl = CFQ_MIN_TT_NS;
		break;
	case CFQ_V2633:
		if (!cfqd->q->rotational && cfqd->hw_tag)
			return;
		if (!cfqd->slice_idle || !cfq_should_idle(cfqd, cfqq))
			return;
		if (cfqq->dispatched)
			return;
		if (!cic || cic->ioc->nr_tasks == 0)
			return;
		if (sample_valid(cic->ttime.samples) && cfqq->slice_end - now < cic->ttime.mean)
			return;
		cfqq_mark(cfqq, CFQ_QF_WAIT_REQUEST);
		sl = cfqd->slice_idle;
		break;
	default:
		if (!cfqd->q->rotational && cfqd->hw_tag && !cfqd->group_idle)
			return;
		if (!cfq_should_idle(cfqd, cfqq)) {
			if (!cfqd->group_idle)
				return;
			group_idle = true;
		}
		if (cfqq->dispatched)
			return;
		if (!cic || cic->ioc->nr_tasks == 0)
			return;
		if (sample_valid(cic->ttime.samples) && cfqq->slice_end - now < cic->ttime.mean)
			return;
		/*
		 * 4.19 judges group idling here by the service tree's think
		 * time (against group_idle), not the group's
		 */
		if (group_idle &&
		    (cfqq->cfqg->nr_cfqq > 1 ||
		     cfq_ttime_big(cfqd,
				   &(cfqq->service_tree ? cfqq->service_tree
							: cfqq_target_tree(cfqd, cfqq))->ttime,
				   true)))
			return;
		cfqq_mark(cfqq, CFQ_QF_WAIT_REQUEST);
		sl = group_idle ? cfqd->group_idle : cfqd->slice_idle;
		break;
	}
	cfq_schedule_idle_timer(cfqd, now + sl);
	ios_queue_msg(cfqd->q, now, "cfq%u arm_idle: %" PRIu64 " us", cfqq->pid, sl / 1000);
}

/* ---- slices ---- */

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
	}
	cfqd->active_queue = cfqq;
}

static void cfq_free_if_unused(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqq->ref == 0 && cfqd->active_queue != cfqq) {
		cfqq->ref = 1;
		cfq_put_queue(cfqd, cfqq);
	}
}

static void __cfq_slice_expired(struct cfq_data *cfqd, struct cfq_queue *cfqq, bool timed_out)
{
	uint64_t now = cfqd->now;

	if (cfqq_has(cfqq, CFQ_QF_WAIT_REQUEST))
		cfq_del_idle_timer(cfqd);
	cfqq_clear(cfqq, CFQ_QF_WAIT_REQUEST | CFQ_QF_WAIT_BUSY);
	if (cfqd->ver != CFQ_V2631 && cfqq_has(cfqq, CFQ_QF_COOP) && cfqq_seeky(cfqd, cfqq, NULL))
		cfqq_mark(cfqq, CFQ_QF_SPLIT_COOP);
	/* bank what is left of the slice (or the overrun) for the next key */
	if (timed_out) {
		if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW)) {
			if (cfqd->ver == CFQ_V419)
				cfqq->slice_resid = (int64_t)cfq_scaled_slice(cfqd, cfqq);
		} else {
			cfqq->slice_resid = (int64_t)(cfqq->slice_end - now);
		}
	}
	cfq_group_served(cfqd, cfqq->cfqg, cfqq);
	if (cfqq_has(cfqq, CFQ_QF_ON_RR) && ios_rb_empty(&cfqq->sort_list))
		cfq_del_cfqq_rr(cfqd, cfqq);
	cfq_resort_rr_list(cfqd, cfqq);
	if (cfqq == cfqd->active_queue)
		cfqd->active_queue = NULL;
	if (cfqd->active_cic) {
		struct cfq_io_cq *cic = cfqd->active_cic;

		cfqd->active_cic = NULL;
		cfq_cic_put(cfqd, cic);
	}
	cfqd->st_expired_slices++;
	ios_queue_msg(cfqd->q, now, "cfq%u slice_expired t=%d", cfqq->pid, timed_out);
	cfq_free_if_unused(cfqd, cfqq);
}

static void cfq_slice_expired(struct cfq_data *cfqd, bool timed_out)
{
	if (cfqd->active_queue)
		__cfq_slice_expired(cfqd, cfqd->active_queue, timed_out);
}

/*
 * The lab's two-level design (Tarasov 2008, cfq_lab2008.c): the group
 * whose queue is active lost its turn, so the queue loses the disk too.
 */
void cfq_expire_active(struct cfq_data *cfqd, uint64_t now)
{
	cfqd->now = now;
	cfq_slice_expired(cfqd, false);
}

static struct cfq_queue *cfq_get_next_queue(struct cfq_data *cfqd)
{
	if (!cfqd->rq_queued)
		return NULL;
	if (cfqd->ver == CFQ_V2631)
		return cfq_rb_first(&cfqd->service_tree);
	return cfq_rb_first(cfq_st_for(cfqd->serving_group, cfqd->serving_wl_class,
				       cfqd->serving_wl_type));
}

static struct cfq_queue *cfq_set_active_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (!cfqq) {
		cfqq = cfq_get_next_queue(cfqd);
		if (cfqq && cfqd->ver == CFQ_V2631)
			cfqq_clear(cfqq, CFQ_QF_COOP);
	}
	__cfq_set_active_queue(cfqd, cfqq);
	return cfqq;
}

/* ---- close cooperators ---- */

static uint64_t cfq_dist_from_last(const struct cfq_data *cfqd, const struct ios_request *rq)
{
	return rq->sector >= cfqd->last_position ? rq->sector - cfqd->last_position
						 : cfqd->last_position - rq->sector;
}

static uint64_t cfq_close_radius(const struct cfq_data *cfqd, const struct cfq_queue *cur)
{
	const struct cfq_io_cq *cic = cfqd->active_cic;

	switch (cfqd->ver) {
	case CFQ_V2631:
		if (!cic || !sample_valid(cic->seek_samples))
			return 8 * 1024;
		return cic->seek_mean;
	case CFQ_V2633:
		/* cfq_rq_close: 4 MiB until the samples are valid, capped at 4 MiB */
		if (!sample_valid(cur->seek_samples))
			return 8 * 1024;
		return cur->seek_mean < 8 * 1024 ? cur->seek_mean : 8 * 1024;
	default:
		return CFQQ_CLOSE_THR;
	}
}

static bool cfq_rq_close(const struct cfq_data *cfqd, const struct cfq_queue *cur,
			 const struct ios_request *rq)
{
	return cfq_dist_from_last(cfqd, rq) <= cfq_close_radius(cfqd, cur);
}

/*
 * The queue whose next request is close to the head, as cfqq_close finds
 * it: the node a descent for the head's sector meets exactly; else the
 * node it ended on, if close; else that node's in-order neighbour on the
 * head's side, if close.
 */
static struct cfq_queue *cfqq_close(struct cfq_data *cfqd, struct cfq_queue *cur)
{
	struct ios_rb_root *root = &cfqd->prio_trees[cur->org_ioprio];
	uint64_t sector = cfqd->last_position;
	struct ios_rb_node *parent, *n;
	struct cfq_queue *q;

	if (ios_rb_empty(root))
		return NULL;
	q = cfq_prio_tree_lookup(root, sector, &parent, NULL);
	if (q)
		return q;
	q = ios_rb_entry(parent, struct cfq_queue, p_node);
	if (cfq_rq_close(cfqd, cur, q->next_rq))
		return q;
	n = q->next_rq->sector < sector ? ios_rb_next(&q->p_node) : ios_rb_prev(&q->p_node);
	if (!n)
		return NULL;
	q = ios_rb_entry(n, struct cfq_queue, p_node);
	return cfq_rq_close(cfqd, cur, q->next_rq) ? q : NULL;
}

static struct cfq_queue *cfq_close_cooperator(struct cfq_data *cfqd, struct cfq_queue *cur,
					      bool probe)
{
	struct cfq_queue *q;

	if (cfqd->ver == CFQ_V2631) {
		if (!cfqd->active_cic)
			return NULL;
		q = cfqq_close(cfqd, cur);
		if (!q || q == cur || cfqq_has(q, CFQ_QF_COOP))
			return NULL;
		if (!probe)
			cfqq_mark(q, CFQ_QF_COOP);
		return q;
	}
	if (!cfqq_sync(cur) || cfqq_seeky(cfqd, cur, NULL))
		return NULL;
	if (cfqd->ver == CFQ_V419 && cfq_class_idle(cur))
		return NULL;
	if (cur->cfqg->nr_cfqq == 1)
		return NULL;
	q = cfqq_close(cfqd, cur);
	if (!q || q == cur)
		return NULL;
	if (q->cfqg != cur->cfqg || !cfqq_sync(q) || cfqq_seeky(cfqd, q, NULL) ||
	    cfq_class_rt(q) != cfq_class_rt(cur))
		return NULL;
	return q;
}

/* ---- preemption ---- */

static bool cfq_should_preempt(struct cfq_data *cfqd, struct cfq_queue *nq,
			       struct ios_request *rq)
{
	struct cfq_queue *cq = cfqd->active_queue;
	uint32_t meta = cfqd->ver == CFQ_V419 ? IOS_REQ_PRIO : IOS_REQ_META;

	if (!cq)
		return false;
	if (cfqd->ver == CFQ_V2631) {
		if (cfq_slice_used(cfqd, cq))
			return true;
		if (cfq_class_idle(nq))
			return false;
		if (cfq_class_idle(cq))
			return true;
		if (ios_rq_is_sync(rq) && !cfqq_sync(cq))
			return true;
		if ((rq->flags & meta) && !cq->meta_pending)
			return true;
		if (cfq_class_rt(nq) && !cfq_class_rt(cq))
			return true;
		if (!cfqd->active_cic || !cfqq_has(cq, CFQ_QF_WAIT_REQUEST))
			return false;
		return cfq_rq_close(cfqd, cq, rq);
	}
	if (cfq_class_idle(nq))
		return false;
	if (cfq_class_idle(cq))
		return true;
	if (cfq_class_rt(cq) && !cfq_class_rt(nq))
		return false;
	if (ios_rq_is_sync(rq) && !cfqq_sync(cq) &&
	    !(cfqd->ver == CFQ_V419 && cfqq_has(cq, CFQ_QF_MUST_DISPATCH)))
		return true;
	/*
	 * Never across groups: that would take time from one to give it to
	 * another. 4.19 lets a queue of the active group's ancestors in.
	 */
	if (cfqd->ver == CFQ_V419 ? !cfqg_is_descendant(cq->cfqg, nq->cfqg) : nq->cfqg != cq->cfqg)
		return false;
	if (cfq_slice_used(cfqd, cq))
		return true;
	if (cfqd->ver == CFQ_V419 && cfq_class_rt(nq) && !cfq_class_rt(cq))
		return true;
	if (cfqd->serving_wl_type == CFQ_SYNC_NOIDLE_WL && cfqq_type(nq) == CFQ_SYNC_NOIDLE_WL &&
	    ios_rb_empty(&cq->sort_list) &&
	    (cfqd->ver == CFQ_V419 || (nq->service_tree && nq->service_tree->count == 2)))
		return true;
	if ((rq->flags & meta) && !cq->meta_pending)
		return true;
	if (cfqd->ver == CFQ_V2633 && cfq_class_rt(nq) && !cfq_class_rt(cq))
		return true;
	if (cfqd->ver == CFQ_V419 && ios_rb_empty(&cq->sort_list) && !cfq_should_idle(cfqd, cq))
		return true;
	if (!cfqd->active_cic || !cfqq_has(cq, CFQ_QF_WAIT_REQUEST))
		return false;
	if (cfqd->ver == CFQ_V2633) {
		/* the radius is the queue's seek mean, uncapped, or 4 MiB without samples */
		uint64_t r = sample_valid(cq->seek_samples) ? cq->seek_mean : 8 * 1024;

		return cfq_dist_from_last(cfqd, rq) <= r;
	}
	return cfq_dist_from_last(cfqd, rq) <= CFQQ_CLOSE_THR;
}

static void cfq_preempt_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_queue *old = cfqd->active_queue;

	ios_queue_msg(cfqd->q, cfqd->now, "cfq%u preempt", cfqq->pid);
	cfqd->st_preempts++;
	if (cfqd->ver == CFQ_V419 && old && cfqq_type(old) != cfqq_type(cfqq))
		cfqq->cfqg->saved_wl_slice = 0;
	cfq_slice_expired(cfqd, true);
	IOS_BUG_ON(!cfqq_has(cfqq, CFQ_QF_ON_RR));
	cfq_service_tree_add(cfqd, cfqq, true);
	cfqq->slice_end = 0;
	cfqq_mark(cfqq, CFQ_QF_SLICE_NEW);
}

/* ---- selecting the queue ---- */

static struct cfq_queue *cfq_select_queue(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue, *new_cfqq = NULL;

	if (!cfqq)
		goto new_queue;
	if (cfqd->ver != CFQ_V2631 && !cfqd->rq_queued)
		return NULL;
	if (cfqd->ver != CFQ_V2631 && cfqq_has(cfqq, CFQ_QF_WAIT_BUSY) &&
	    !ios_rb_empty(&cfqq->sort_list))
		goto expire;
	if (cfq_slice_used(cfqd, cfqq) && !cfqq_has(cfqq, CFQ_QF_MUST_DISPATCH)) {
		if (cfqd->ver == CFQ_V2631)
			goto expire;
		/* let a group with one queue get backlogged before switching */
		if (cfqq->cfqg->nr_cfqq == 1 && ios_rb_empty(&cfqq->sort_list) && cfqq->dispatched &&
		    cfq_should_idle(cfqd, cfqq))
			return NULL;
		if (cfqd->ver == CFQ_V419)
			goto check_group_idle;
		goto expire;
	}
	if (cfqd->ver == CFQ_V2631 && !cfq_class_rt(cfqq) && cfqd->busy_rt_queues) {
		/* an RT queue waits: this one banks its remaining time */
		cfq_slice_expired(cfqd, true);
		goto new_queue;
	}
	if (!ios_rb_empty(&cfqq->sort_list))
		return cfqq;
	/* another queue's next request is close to the head: let it run instead */
	new_cfqq = cfq_close_cooperator(cfqd, cfqq, false);
	if (new_cfqq) {
		if (cfqd->ver != CFQ_V2631 && !cfqq->new_cfqq)
			cfq_setup_merge(cfqd, cfqq, new_cfqq);
		cfqd->st_coop_selected++;
		goto expire;
	}
	if (cfq_timer_pending(cfqd))
		return NULL;
	if (cfqd->ver == CFQ_V2631) {
		if (cfqq->dispatched && cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW))
			return NULL;
		goto expire;
	}
	if (cfqd->ver == CFQ_V419 && cfqq_seeky(cfqd, cfqq, NULL) &&
	    cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW) &&
	    (cfqq_has(cfqq, CFQ_QF_SLICE_NEW) ||
	     cfqq->slice_end - cfqd->now > cfqd->now - cfqq->slice_start)) {
		/* the device is faster than this seeky queue can feed it */
		cfqq_clear(cfqq, CFQ_QF_DEEP | CFQ_QF_IDLE_WINDOW);
	}
	if (cfqq->dispatched && cfq_should_idle(cfqd, cfqq))
		return NULL;
check_group_idle:
	if (cfqd->ver == CFQ_V419 && cfqd->group_idle && cfqq->cfqg->nr_cfqq == 1 &&
	    cfqq->cfqg->dispatched && !cfq_ttime_big(cfqd, &cfqq->cfqg->ttime, true))
		return NULL;
expire:
	cfq_slice_expired(cfqd, false);
new_queue:
	if (!new_cfqq && cfqd->ver != CFQ_V2631)
		cfq_choose_cfqg(cfqd);
	return cfq_set_active_queue(cfqd, new_cfqq);
}

/* ---- dispatch ---- */

static bool cfq_slice_used_soon(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW))
		return true;
	return cfqd->now + cfqd->slice_idle * cfqq->dispatched > cfqq->slice_end;
}

static bool cfq_may_dispatch(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	unsigned max;

	if (cfqd->ver == CFQ_V2631) {
		if (cfqd->rq_in_flight[1] && !cfqq_sync(cfqq))
			return false;
		max = cfq_class_idle(cfqq) ? 1 : (unsigned)cfqd->quantum;
		if (cfqq->dispatched >= max) {
			if (cfq_class_idle(cfqq) || cfqd->busy_queues > 1)
				return false;
			if (cfqq->dispatched >= 4 * max)
				return false;
		}
		return true;
	}
	if (cfqd->ver == CFQ_V419 && cfqq_has(cfqq, CFQ_QF_MUST_DISPATCH))
		return true;
	/* drain async requests before a queue that will idle starts */
	if (cfq_should_idle(cfqd, cfqq) && cfqd->rq_in_flight[0])
		return false;
	if (cfqd->rq_in_flight[1] && !cfqq_sync(cfqq))
		return false;
	if (cfqd->ver == CFQ_V2633) {
		max = (unsigned)cfqd->quantum;
		if (cfq_class_idle(cfqq))
			max = 1;
		if (cfqq->dispatched >= max) {
			if (cfq_class_idle(cfqq) || cfqd->busy_queues > 1)
				return false;
			max = UINT32_MAX;
		}
	} else {
		max = cfqd->quantum / 2 > 0 ? (unsigned)cfqd->quantum / 2 : 1;
		if (cfq_class_idle(cfqq))
			max = 1;
		if (cfqq->dispatched >= max) {
			bool promote_sync = false;

			if (cfq_class_idle(cfqq))
				return false;
			if (cfqq_sync(cfqq) && cfqd->busy_sync_queues == 1)
				promote_sync = true;
			if (cfqd->busy_queues > 1 && cfq_slice_used_soon(cfqd, cfqq) && !promote_sync)
				return false;
			if (cfqd->busy_queues == 1 || promote_sync)
				max = UINT32_MAX;
			else
				max = (unsigned)cfqd->quantum;
		}
	}
	/* low_latency: async depth ramps up after a delayed sync request */
	if (cfqd->low_latency && !cfqq_sync(cfqq)) {
		uint64_t last_sync = cfqd->now - cfqd->last_delayed_sync;
		unsigned depth = (unsigned)(last_sync / cfqd->slice[1]);

		if (!depth && !cfqq->dispatched)
			depth = 1;
		if (depth < max)
			max = depth;
	}
	return cfqq->dispatched < max;
}

static struct ios_request *cfq_check_fifo(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct ios_request *rq;

	if (cfqq_has(cfqq, CFQ_QF_FIFO_EXPIRE))
		return NULL;
	cfqq_mark(cfqq, CFQ_QF_FIFO_EXPIRE);
	if (ios_list_empty(&cfqq->fifo))
		return NULL;
	rq = ios_list_first_entry(&cfqq->fifo, struct ios_request, queuelist);
	if (cfqd->now < rq->fifo_time_ns)
		return NULL;
	return rq;
}

/*
 * The kernel's cfq_dispatch_insert up to elv_dispatch_sort: the request
 * leaves CFQ and counts as dispatched for its queue and group. The driver
 * taking it (cfq_activate_request) is cfq_activate.
 */
static void cfq_dispatch_leave(struct cfq_data *cfqd, struct ios_request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	/*
	 * 2.6.33+ (Corrado Zoccolo's next_rq fix) go on from the request
	 * dispatched, also when the FIFO picked it instead of next_rq.
	 */
	if (cfqd->ver != CFQ_V2631)
		cfq_set_next_rq(cfqq, cfq_find_next_rq(cfqd, cfqq, rq));
	cfq_remove_request(cfqd, rq);
	cfqq->dispatched++;
	cfqq->cfqg->dispatched++;
	cfqd->rq_in_flight[cfqq_sync(cfqq)]++;
	cfqq->nr_sectors += rq->nr_sectors;
	/* blkio.sectors and io_serviced count at dispatch, for the queue's group */
	cfqq->cfqg->stat_sectors += rq->nr_sectors;
	cfqq->cfqg->stat_ios[rq->dir]++;
}

static void cfq_activate(struct cfq_data *cfqd, struct ios_request *rq)
{
	cfqd->rq_in_driver++;
	cfqd->last_position = ios_rq_end(rq);
}

static void cfq_dispatch_insert(struct cfq_data *cfqd, struct ios_request *rq)
{
	cfq_dispatch_leave(cfqd, rq);
	/* the driver takes it now */
	cfq_activate(cfqd, rq);
}

/*
 * An alias (see cfq_add_rq_rb) leaves CFQ at once, outside any slice: no
 * slice_dispatch, no active_cic. It waits on cfqd->alias_list, where the
 * kernel's dispatch list would hold it, and the driver takes it before
 * anything CFQ selects. The block layer's back-merge hash still knows it
 * (the kernel unhashes it in elv_dispatch_sort), so a bio may grow it
 * there; CFQ names no neighbours for it (its tree node is cleared).
 */
static void cfq_dispatch_alias(struct cfq_data *cfqd, struct ios_request *alias)
{
	cfq_dispatch_leave(cfqd, alias);
	ios_list_add_tail(&alias->queuelist, &cfqd->alias_list);
	cfqd->st_aliases++;
}

/* @rq: 4.19's FIFO pick, made before the limits were checked (or NULL) */
static struct ios_request *cfq_dispatch_request(struct cfq_data *cfqd, struct cfq_queue *cfqq,
						struct ios_request *rq)
{
	if (!rq && cfqd->ver != CFQ_V419)
		rq = cfq_check_fifo(cfqd, cfqq);
	if (!rq)
		rq = cfqq->next_rq;
	cfq_dispatch_insert(cfqd, rq);
	if (!cfqd->active_cic) {
		/* the dispatching context is pinned until the slice ends */
		cfqd->active_cic = rq_cic(rq);
		cfq_cic_get(cfqd->active_cic);
	}
	return rq;
}

/* The first busy queue in service order, ignoring idling (forced dispatch). */
static struct cfq_queue *cfq_first_busy(struct cfq_data *cfqd)
{
	struct ios_list_head *pos;

	if (cfqd->ver == CFQ_V2631)
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

/* Drain: every queued request, queue by queue (elevator switch, flush). */
static struct ios_request *cfq_forced_dispatch(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq;

	cfq_slice_expired(cfqd, false);
	for (;;) {
		cfqq = cfq_first_busy(cfqd);
		if (!cfqq)
			return NULL;
		if (!ios_rb_empty(&cfqq->sort_list)) {
			struct ios_request *rq = cfqq->next_rq;

			cfq_dispatch_insert(cfqd, rq);
			return rq;
		}
		/* an empty queue left on a tree (2.6.33+): off it goes */
		cfq_del_cfqq_rr(cfqd, cfqq);
	}
}

static void cfq_idle_slice_timer(struct cfq_data *cfqd);

static struct ios_request *cfq_dispatch(struct ios_queue *q, uint64_t now, unsigned flags)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq;
	struct ios_request *rq, *fifo_rq = NULL;

	cfqd->now = now;
	if (cfq_timer_pending(cfqd) && now >= cfqd->idle_timer)
		cfq_idle_slice_timer(cfqd);
	if (!ios_list_empty(&cfqd->alias_list)) {
		rq = ios_list_first_entry(&cfqd->alias_list, struct ios_request, queuelist);
		ios_list_del(&rq->queuelist);
		cfq_activate(cfqd, rq);
		return rq;
	}
	if (!cfqd->busy_queues)
		return NULL;
	if (flags & IOS_DISPATCH_FORCE)
		return cfq_forced_dispatch(cfqd);
	cfqq = cfq_select_queue(cfqd);
	if (!cfqq)
		return NULL;
	if (ios_rb_empty(&cfqq->sort_list))
		return NULL;
	/*
	 * 4.19 looks at the FIFO before the limits: an expired request sets
	 * must_dispatch, which lets it past may_dispatch's checks.
	 */
	if (cfqd->ver == CFQ_V419) {
		fifo_rq = cfq_check_fifo(cfqd, cfqq);
		if (fifo_rq)
			cfqq_mark(cfqq, CFQ_QF_MUST_DISPATCH);
	}
	if (!cfq_may_dispatch(cfqd, cfqq))
		return NULL;
	rq = cfq_dispatch_request(cfqd, cfqq, fifo_rq);
	cfqq->slice_dispatch++;
	cfqq_clear(cfqq, CFQ_QF_MUST_DISPATCH);
	/* an async queue over its request budget, or any idle-class queue, yields */
	if (cfqd->busy_queues > 1 &&
	    ((!cfqq_sync(cfqq) && cfqq->slice_dispatch >= cfq_prio_to_maxrq(cfqd, cfqq)) ||
	     cfq_class_idle(cfqq))) {
		cfqq->slice_end = now + CFQ_JIFFY_NS;
		cfq_slice_expired(cfqd, false);
	}
	return rq;
}

/* ---- the idle slice timer ---- */

static void cfq_idle_slice_timer(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue;
	bool timed_out = true;

	cfqd->idle_timer = IOS_NO_WAKEUP;
	cfqd->st_idle_timer++;
	if (cfqq) {
		timed_out = false;
		/* a request came while idling and was held to grow: let it go */
		if (cfqq_has(cfqq, CFQ_QF_MUST_DISPATCH))
			goto out_kick;
		if (cfq_slice_used(cfqd, cfqq))
			goto expire;
		if (!cfqd->busy_queues)
			goto out_cont;
		if (!ios_rb_empty(&cfqq->sort_list))
			goto out_kick;
		if (cfqd->ver != CFQ_V2631)
			cfqq_clear(cfqq, CFQ_QF_DEEP);
	}
expire:
	cfq_slice_expired(cfqd, timed_out);
out_kick:
out_cont:
	/* the block layer runs the queue after the timer hook: that is the kick */
	return;
}

static void cfq_timer(struct ios_queue *q, uint64_t now)
{
	struct cfq_data *cfqd = cfq_data(q);

	cfqd->now = now;
	if (cfq_timer_pending(cfqd) && now >= cfqd->idle_timer)
		cfq_idle_slice_timer(cfqd);
}

static uint64_t cfq_next_wakeup(struct ios_queue *q)
{
	return cfq_data(q)->idle_timer;
}

/* ---- request life ---- */

static enum ios_mqueue cfq_may_queue(struct ios_queue *q, struct ios_ioc *ioc, int dir, bool sync)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_io_cq *cic = cfq_cic(cfqd, ioc, false);
	struct cfq_queue *cfqq;

	(void)dir;
	if (!cic)
		return IOS_MQUEUE_MAY;
	cfqq = cic->cfqq[sync ? 1 : 0];
	if (cfqq && cfqq_has(cfqq, CFQ_QF_WAIT_REQUEST) &&
	    !cfqq_has(cfqq, CFQ_QF_MUST_ALLOC_SLICE)) {
		cfqq_mark(cfqq, CFQ_QF_MUST_ALLOC_SLICE);
		return IOS_MQUEUE_MUST;
	}
	return IOS_MQUEUE_MAY;
}

/*
 * 4.19's cfq_may_queue: a REQ_PRIO request lifts the queue it will join to
 * at least BE/NORM (an IDLE-class queue to BE), any other request puts the
 * task's own class and level back. The kernel does it in may_queue, on the
 * context's current queue, just before the allocation; our may_queue hook
 * is not given the request's flags, so this runs at the start of
 * set_request, on the same queue (before any merge or split). The one
 * difference: a may_queue that is refused (the task then waits for a free
 * request) boosts in the kernel and not here.
 */
static void cfqq_boost_on_prio(struct cfq_queue *cfqq, uint32_t flags)
{
	if (!(flags & IOS_REQ_PRIO)) {
		cfqq->ioprio_class = cfqq->org_ioprio_class;
		cfqq->ioprio = cfqq->org_ioprio;
		return;
	}
	if (cfq_class_idle(cfqq))
		cfqq->ioprio_class = IOS_IOPRIO_CLASS_BE;
	if (cfqq->ioprio > IOS_IOPRIO_NORM)
		cfqq->ioprio = IOS_IOPRIO_NORM;
}

static int cfq_set_request(struct ios_queue *q, struct ios_request *rq)
{
	struct cfq_data *cfqd = cfq_data(q);
	bool sync = ios_rq_is_sync(rq);
	struct cfq_io_cq *cic;
	struct cfq_queue *cfqq;

	/*
	 * The block layer stamps the allocation time before calling us. A new
	 * context starts its think time now (the kernel's last_end_request =
	 * jiffies at allocation), not at whatever hook ran last.
	 */
	if ((int64_t)(rq->alloc_ns - cfqd->now) > 0)
		cfqd->now = rq->alloc_ns;
	if (cfqd->ver == CFQ_V419) {
		cic = cfq_cic(cfqd, rq->ioc, false);
		if (cic && cic->cfqq[sync])
			cfqq_boost_on_prio(cic->cfqq[sync], rq->flags);
	}
	cic = cfq_cic(cfqd, rq->ioc, true);
	if (!cic)
		return -ENOMEM;
	for (;;) {
		cfqq = sync ? cic->cfqq[1] : NULL;
		if (!cfqq) {
			cfqq = cfq_get_queue(cfqd, sync, rq->ioc, cic);
			if (!cfqq)
				return -ENOMEM;
		}
		if (!sync || cfqd->ver == CFQ_V2631)
			break;
		/* a merged queue that stopped cooperating is split at allocation */
		if (cfqq_has(cfqq, CFQ_QF_COOP) && cfqq_has(cfqq, CFQ_QF_SPLIT_COOP)) {
			if (!cfq_split_cfqq(cfqd, cic, cfqq))
				continue;
		}
		/* a pending merge takes effect at the next allocation */
		if (cfqq->new_cfqq)
			cfqq = cfq_merge_cfqqs(cfqd, cic, cfqq);
		break;
	}
	cfqq->allocated[rq->dir]++;
	cfqq->ref++;
	cfq_cic_get(cic);	/* the request's reference (get_io_context) */
	rq->sched_priv[0] = cfqq;
	rq->sched_priv[1] = cic;
	return 0;
}

static void cfq_put_request(struct ios_queue *q, struct ios_request *rq)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq = rq_cfqq(rq);

	if (!cfqq)
		return;
	IOS_BUG_ON(!cfqq->allocated[rq->dir]);
	cfqq->allocated[rq->dir]--;
	cfq_cic_put(cfqd, rq_cic(rq));	/* put_io_context */
	rq->sched_priv[0] = rq->sched_priv[1] = NULL;
	cfq_put_queue(cfqd, cfqq);
}

static void cfq_rq_enqueued(struct cfq_data *cfqd, struct cfq_queue *cfqq, struct ios_request *rq)
{
	struct cfq_io_cq *cic = rq_cic(rq);

	cfqd->rq_queued++;
	if (rq->flags & (cfqd->ver == CFQ_V419 ? IOS_REQ_PRIO : IOS_REQ_META))
		cfqq->meta_pending++;
	cfq_update_io_thinktime(cfqd, cfqq, cic);
	cfq_update_io_seektime(cfqd, cfqq, cic, rq);
	cfq_update_idle_window(cfqd, cfqq, cic);
	if (cfqd->ver == CFQ_V2631)
		cic->last_request_pos = ios_rq_end(rq);
	else
		cfqq->last_request_pos = ios_rq_end(rq);

	if (cfqq == cfqd->active_queue) {
		/*
		 * It was idling for this: go on at once if the request is more
		 * than a page (merging is done) or others wait; a small one may
		 * still grow, so let the timer run out (must_dispatch).
		 */
		if (cfqq_has(cfqq, CFQ_QF_WAIT_REQUEST)) {
			if (ios_rq_bytes(rq) > 4096 || cfqd->busy_queues > 1) {
				cfq_del_idle_timer(cfqd);
				if (cfqd->ver != CFQ_V2631)
					cfqq_clear(cfqq, CFQ_QF_WAIT_REQUEST);
				else
					cfqq_mark(cfqq, CFQ_QF_MUST_DISPATCH);
			} else {
				cfqq_mark(cfqq, CFQ_QF_MUST_DISPATCH);
			}
		}
	} else if (cfq_should_preempt(cfqd, cfqq, rq)) {
		cfq_preempt_queue(cfqd, cfqq);
	}
}

static void cfq_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now, unsigned flags)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq = rq_cfqq(rq);

	(void)flags;
	cfqd->now = now;
	cfq_init_prio_data(cfqq, rq->ioc);
	if (cfqd->ver == CFQ_V2631)
		rq->fifo_time_ns = rq->alloc_ns + cfqd->fifo_expire[cfqq_sync(cfqq)];
	else
		rq->fifo_time_ns = now + cfqd->fifo_expire[ios_rq_is_sync(rq)];
	ios_list_add_tail(&rq->queuelist, &cfqq->fifo);
	cfq_add_rq_rb(cfqd, rq);
	cfq_rq_enqueued(cfqd, cfqq, rq);
}

static bool cfq_should_wait_busy(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_io_cq *cic = cfqd->active_cic;

	if (cfqd->ver == CFQ_V419) {
		if (!ios_rb_empty(&cfqq->sort_list))
			return false;
		if (cfq_ttime_big(cfqd, &cfqq->cfqg->ttime, true))
			return false;
	}
	if (cfqq->cfqg->nr_cfqq > 1)
		return false;
	if (cfq_slice_used(cfqd, cfqq))
		return true;
	if (cic && sample_valid(cic->ttime.samples) &&
	    cfqq->slice_end - cfqd->now < cic->ttime.mean)
		return true;
	if (cfqq->slice_end - cfqd->now <= CFQ_JIFFY_NS)
		return true;
	return false;
}

static void cfq_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq = rq_cfqq(rq);
	bool sync = ios_rq_is_sync(rq);

	cfqd->now = now;
	cfq_update_hw_tag(cfqd);
	IOS_BUG_ON(!cfqd->rq_in_driver || !cfqq->dispatched);
	cfqd->rq_in_driver--;
	cfqq->dispatched--;
	cfqq->cfqg->dispatched--;
	cfqd->rq_in_flight[cfqq_sync(cfqq)]--;

	if (sync) {
		struct cfq_io_cq *cic = rq_cic(rq);

		IOS_BUG_ON(cic->ref <= 0);	/* the request's own reference */
		cic->ttime.last_end = now;
		/* st_slices numbers the slices: the active queue's is the latest */
		cic->ttime_slice = cfqd->active_queue == cfqq ? cfqd->st_slices : 0;
		/*
		 * 4.19 (cfq_completed_request): the tree the queue is on, or,
		 * off the trees (its slice ended while this was in flight), the
		 * one its class and type name
		 */
		if (cfqd->ver == CFQ_V419)
			(cfqq_has(cfqq, CFQ_QF_ON_RR) && cfqq->service_tree
				 ? cfqq->service_tree
				 : cfq_st_for(cfqq->cfqg, cfqq_class(cfqq), cfqq_type(cfqq)))
				->ttime.last_end = now;
		if (cfqd->ver != CFQ_V2631 && rq->alloc_ns + cfqd->fifo_expire[1] <= now)
			cfqd->last_delayed_sync = now;
	}
	if (cfqd->ver == CFQ_V419)
		cfqq->cfqg->ttime.last_end = now;

	if (cfqd->active_queue == cfqq) {
		bool empty = ios_rb_empty(&cfqq->sort_list);

		if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW)) {
			cfq_set_prio_slice(cfqd, cfqq);
			cfqq_clear(cfqq, CFQ_QF_SLICE_NEW);
		}
		if (cfqd->ver != CFQ_V2631 && cfq_should_wait_busy(cfqd, cfqq)) {
			uint64_t extend = cfqd->slice_idle;

			if (cfqd->ver == CFQ_V419 && !cfqd->slice_idle)
				extend = cfqd->group_idle;
			cfqq->slice_end = now + extend;
			cfqq_mark(cfqq, CFQ_QF_WAIT_BUSY);
		}
		if (cfq_slice_used(cfqd, cfqq) || cfq_class_idle(cfqq)) {
			cfq_slice_expired(cfqd, true);
		} else if (sync && empty && !cfq_close_cooperator(cfqd, cfqq, true)) {
			switch (cfqd->ver) {
			case CFQ_V2631:
				if (!cfq_req_noidle(cfqd, rq))
					cfq_arm_slice_timer(cfqd);
				break;
			case CFQ_V2633:
				cfqd->noidle_tree_requires_idle |= !cfq_req_noidle(cfqd, rq);
				if (cfqd->serving_wl_type == CFQ_SYNC_WL ||
				    cfqd->noidle_tree_requires_idle || cfqq->cfqg->nr_cfqq == 1)
					cfq_arm_slice_timer(cfqd);
				break;
			default:
				cfq_arm_slice_timer(cfqd);
				break;
			}
		}
	}
}

/* ---- merging ---- */

/* The queue a bio from @ioc would go to (without creating one). */
static struct cfq_queue *cfq_bio_queue(struct cfq_data *cfqd, struct ios_ioc *ioc, bool sync)
{
	struct cfq_io_cq *cic = cfq_cic(cfqd, ioc, false);

	return cic ? cic->cfqq[sync ? 1 : 0] : NULL;
}

/*
 * The 2.6.20 rule (Jens Axboe, after seed 004): a bio merges only into a
 * request of the queue it would itself go to, and a sync bio never into an
 * async request (an async bio into a sync one is fine).
 */
static bool cfq_allow_merge(struct ios_queue *q, struct ios_request *rq, const struct ios_bio *bio)
{
	struct cfq_data *cfqd = cfq_data(q);

	if (ios_bio_is_sync(bio) && !ios_rq_is_sync(rq))
		return false;
	return cfq_bio_queue(cfqd, bio->ioc, ios_bio_is_sync(bio)) == rq_cfqq(rq);
}

static enum ios_merge cfq_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
				    struct ios_request **out)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq = cfq_bio_queue(cfqd, bio->ioc, ios_bio_is_sync(bio));
	struct ios_request *rq;

	if (!cfqq)
		return IOS_NO_MERGE;
	rq = ios_elv_rb_find(&cfqq->sort_list, bio->sector + bio->nr_sectors);
	if (!rq)
		return IOS_NO_MERGE;
	*out = rq;
	return IOS_FRONT_MERGE;
}

static void cfq_request_merged(struct ios_queue *q, struct ios_request *rq, enum ios_merge type)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq = rq_cfqq(rq);
	struct ios_request *prev;

	if (type != IOS_FRONT_MERGE)
		return;
	/*
	 * the start moved: re-sort, and reconsider next_rq; as the kernel's
	 * cfq_reposition_rq_rb goes through cfq_add_rq_rb, the prio tree
	 * is re-keyed only if next_rq changed
	 */
	ios_elv_rb_del(&cfqq->sort_list, rq);
	if (cfqd->ver != CFQ_V419) {
		struct ios_request *alias;

		while ((alias = ios_elv_rb_find(&cfqq->sort_list, rq->sector)) != NULL)
			cfq_dispatch_alias(cfqd, alias);
	}
	ios_elv_rb_add(&cfqq->sort_list, rq);
	prev = cfqq->next_rq;
	/* also when rq was next_rq already: its sector moved */
	cfq_set_next_rq(cfqq, cfq_choose_req(cfqd, cfqq->next_rq, rq, cfqd->last_position));
	if (prev != cfqq->next_rq)
		cfq_prio_tree_add(cfqd, cfqq);
}

static void cfq_requests_merged(struct ios_queue *q, struct ios_request *rq,
				struct ios_request *next)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *nq = rq_cfqq(next);

	/* the survivor takes the older FIFO position */
	if (!ios_list_empty(&rq->queuelist) && !ios_list_empty(&next->queuelist) &&
	    next->fifo_time_ns < rq->fifo_time_ns && rq_cfqq(rq) == nq) {
		ios_list_del(&rq->queuelist);
		ios_list_add(&rq->queuelist, &next->queuelist);
		rq->fifo_time_ns = next->fifo_time_ns;
	}
	if (rq_cfqq(rq)->next_rq == next)
		cfq_set_next_rq(rq_cfqq(rq), rq);
	cfq_remove_request(cfqd, next);
	if (cfqd->ver != CFQ_V2631 && nq != cfqd->active_queue && ios_rb_empty(&nq->sort_list) &&
	    cfqq_has(nq, CFQ_QF_ON_RR))
		cfq_del_cfqq_rr(cfqd, nq);
}

static struct ios_request *cfq_former(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return ios_rb_unlinked(&rq->rb_node) ? NULL : ios_elv_rb_former(rq);
}

static struct ios_request *cfq_latter(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return ios_rb_unlinked(&rq->rb_node) ? NULL : ios_elv_rb_latter(rq);
}

static bool cfq_has_work(struct ios_queue *q)
{
	return cfq_data(q)->rq_queued > 0 || !ios_list_empty(&cfq_data(q)->alias_list);
}

/* ---- contexts ---- */

/*
 * Drop the merge targets' references this process's queue took for it
 * (cfq_setup_merge gave them its process references): cfq_put_cooperator.
 */
static void cfq_put_cooperator(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_queue *q = cfqq->new_cfqq, *next;

	while (q && q != cfqq) {
		next = q->new_cfqq;
		cfq_put_queue(cfqd, q);
		q = next;
	}
}

/* Give up the context's queue references (cfq_exit_cfqq on each). */
static void cfq_cic_detach(struct cfq_data *cfqd, struct cfq_io_cq *cic)
{
	for (int i = 0; i < 2; i++) {
		struct cfq_queue *cfqq = cic->cfqq[i];

		if (!cfqq)
			continue;
		cic->cfqq[i] = NULL;
		/*
		 * cfq_exit_cfqq: an active queue of the exiting process ends
		 * its slice, async (shared) as well as sync, in every release.
		 */
		if (cfqq == cfqd->active_queue)
			__cfq_slice_expired(cfqd, cfqq, false);
		cfq_put_cooperator(cfqd, cfqq);
		cfq_put_queue(cfqd, cfqq);
	}
}

/*
 * The task is gone: detach its context from its queues (2.6.31
 * __cfq_exit_single_io_context, 4.19 cfq_exit_icq), unlink it from the io
 * context (the kernel's dead key: a later lookup makes a fresh one) and
 * drop the task's reference. Requests still in flight and active_cic keep
 * the memory alive.
 */
static void cfq_exit_cic(struct cfq_data *cfqd, struct cfq_io_cq *cic)
{
	if (cic->exited)
		return;
	cic->exited = true;
	cfq_cic_detach(cfqd, cic);
	if (cic->ioc->icq[cfqd->q->id] == cic)
		cic->ioc->icq[cfqd->q->id] = NULL;
	cfq_cic_put(cfqd, cic);
}

static void cfq_exit_icq(struct ios_queue *q, struct ios_ioc *ioc, uint64_t now)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_io_cq *cic = cfq_cic(cfqd, ioc, false);

	/* an active queue's slice ends now: its resid is measured from here */
	cfqd->now = now;
	if (cic)
		cfq_exit_cic(cfqd, cic);
}

/* ---- groups ---- */

static int cfq_group_stats(struct ios_queue *q, const struct ios_cgroup *cg,
			   struct ios_group_stats *st)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_group *g;

	if (cfqd->ver == CFQ_V2631)
		return -ENOENT;
	g = cfq_find_group(cfqd, cg);
	if (!g)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->time_ns = g->stat_time_ns;
	st->sectors = g->stat_sectors;
	st->ios[0] = g->stat_ios[0];
	st->ios[1] = g->stat_ios[1];
	st->weight = g->weight;
	st->ioprio = -1;
	return 0;
}

/* ---- set-up ---- */

static enum cfq_ver cfq_version_of(const struct ios_queue *q)
{
	if (q->sched == &ios_sched_cfq_2633)
		return CFQ_V2633;
	if (q->sched == &ios_sched_cfq_419)
		return CFQ_V419;
	return CFQ_V2631;
}

static void cfq_init_defaults(struct ios_queue *q)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct ios_err e = { 0 };

	/* 2.6.31 has no files for these, but the code needs their values */
	if (cfq_version_of(q) == CFQ_V2631 && ios_tunable_defaults(cfq_2631_hidden, cfqd, &e))
		cfqd->target_latency = 300 * IOS_NSEC_PER_MSEC; /* the table's default cannot fail */
	/* 4.8+: no idling on non-rotational devices (turns on IOPS mode with NCQ) */
	if (cfq_version_of(q) == CFQ_V419 && !q->rotational)
		cfqd->slice_idle = 0;
}

static int cfq_init(struct ios_queue *q)
{
	struct cfq_data *cfqd = cfq_data(q);

	cfqd->q = q;
	cfqd->ver = cfq_version_of(q);
	ios_list_init(&cfqd->all_queues);
	ios_list_init(&cfqd->all_cics);
	ios_list_init(&cfqd->alias_list);
	cfqd->service_tree.rb = IOS_RB_ROOT_CACHED;
	for (int i = 0; i < 8; i++)
		cfqd->prio_trees[i] = IOS_RB_ROOT;
	if (cfq_groups_init(cfqd))
		return -ENOMEM;
	cfqd->serving_group = cfqd->root_group;
	cfqd->serving_wl_class = CFQ_BE_WL;
	cfqd->serving_wl_type = CFQ_SYNC_WL;
	cfqd->idle_timer = IOS_NO_WAKEUP;
	/* 2.6.31 assumes queueing hardware until shown otherwise; later: unknown */
	cfqd->hw_tag = cfqd->ver == CFQ_V2631 ? 1 : -1;
	/*
	 * A second before the start (the kernel's jiffies - HZ at init): a
	 * fresh device lets async requests in at depth 10, not 1 (spec §6).
	 * The subtraction in may_dispatch wraps back to now + 1 s.
	 */
	cfqd->last_delayed_sync = (uint64_t)0 - IOS_NSEC_PER_SEC;
	if (!cfqd->slice[1] || !cfqd->slice[0])
		return -EINVAL;
	return 0;
}

static void cfq_exit(struct ios_queue *q)
{
	struct cfq_data *cfqd = cfq_data(q);

	cfqd->active_queue = NULL;
	if (cfqd->active_cic) {
		struct cfq_io_cq *cic = cfqd->active_cic;

		cfqd->active_cic = NULL;
		cfq_cic_put(cfqd, cic);
	}
	/*
	 * Every request is gone, so what is left are contexts of tasks that
	 * never exited (the flusher's, a test's): their task reference is the
	 * last one. A context still here after that was leaked by a request.
	 */
	while (!ios_list_empty(&cfqd->all_cics)) {
		struct cfq_io_cq *cic = ios_list_first_entry(&cfqd->all_cics, struct cfq_io_cq, all);

		IOS_BUG_ON(cic->exited || cic->ref != 1);
		cfq_exit_cic(cfqd, cic);
	}
	/* what is left are async queues held by their slots */
	while (!ios_list_empty(&cfqd->all_queues)) {
		struct cfq_queue *cfqq = ios_list_first_entry(&cfqd->all_queues, struct cfq_queue, all);

		if (cfqq_has(cfqq, CFQ_QF_ON_RR))
			cfq_del_cfqq_rr(cfqd, cfqq);
		ios_list_del(&cfqq->all);
		free(cfqq);
	}
	cfq_groups_exit(cfqd);
}

#define CFQ_OPS                                         \
	{                                               \
		.init = cfq_init,                       \
		.init_defaults = cfq_init_defaults,     \
		.exit = cfq_exit,                       \
		.may_queue = cfq_may_queue,             \
		.set_request = cfq_set_request,         \
		.put_request = cfq_put_request,         \
		.insert = cfq_insert,                   \
		.dispatch = cfq_dispatch,               \
		.has_work = cfq_has_work,               \
		.completed = cfq_completed,             \
		.allow_merge = cfq_allow_merge,         \
		.bio_merge = cfq_bio_merge,             \
		.request_merged = cfq_request_merged,   \
		.requests_merged = cfq_requests_merged, \
		.former = cfq_former,                   \
		.latter = cfq_latter,                   \
		.next_wakeup = cfq_next_wakeup,         \
		.timer = cfq_timer,                     \
		.exit_icq = cfq_exit_icq,               \
		.group_stats = cfq_group_stats,         \
	}

/*
 * blkio.weight: 100..1000 in 2.6.33, flat; 10..1000 in 4.19 (legacy
 * hierarchy), nested. 2.6.31 has no groups of its own, but the lab's
 * 2008 designs are built on it (cfq_lab2008.c).
 */
static const struct ios_sched_cgroups cfq_2631_cgroups = {
	.groups = false,
	.policy = {
		[IOS_GROUP_POLICY_TARASOV2008] = &ios_sched_cfq_tarasov2008,
		[IOS_GROUP_POLICY_UCHIDA2008] = &ios_sched_cfq_uchida2008,
	},
};

static const struct ios_sched_cgroups cfq_2633_cgroups = {
	.groups = true,
	.weight_min = 100,
	.weight_max = 1000,
	.weight_default = CFQ_WEIGHT_DEFAULT,
	.weight_file = "blkio.weight",
	.nested = false,
};

static const struct ios_sched_cgroups cfq_419_cgroups = {
	.groups = true,
	.weight_min = 10,
	.weight_max = 1000,
	.weight_default = CFQ_WEIGHT_DEFAULT,
	.weight_file = "blkio.weight",
	.nested = true,
};

const struct ios_sched_type ios_sched_cfq = {
	.name = "cfq",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = "cfq-2.6.31",
	.desc = "Completely Fair Queuing, Linux 2.6.31 (with seed 000's fairness tunable)",
	.ops = CFQ_OPS,
	.tunables = cfq_2631_tunables,
	.stats = cfq_stats_table,
	.priv_size = sizeof(struct cfq_data),
	.features = IOS_SCHED_IDLES,
	.cgroups = &cfq_2631_cgroups,
	.share_model = IOS_SHARE_CFQ_SLICE,
};

const struct ios_sched_type ios_sched_cfq_2633 = {
	.name = "cfq-2.6.33",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "CFQ, Linux 2.6.33: groups, workload types, low_latency, queue merging",
	.ops = CFQ_OPS,
	.tunables = cfq_2633_tunables,
	.stats = cfq_stats_table,
	.priv_size = sizeof(struct cfq_data),
	.features = IOS_SCHED_IDLES,
	.cgroups = &cfq_2633_cgroups,
	.share_model = IOS_SHARE_CFQ_GROUP_SLICE,
};

const struct ios_sched_type ios_sched_cfq_419 = {
	.name = "cfq-4.19",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "CFQ, Linux 4.19 (its final form): quantum 8, group_idle, ns timing",
	.ops = CFQ_OPS,
	.tunables = cfq_419_tunables,
	.stats = cfq_stats_table,
	.priv_size = sizeof(struct cfq_data),
	.features = IOS_SCHED_IDLES,
	.cgroups = &cfq_419_cgroups,
	.share_model = IOS_SHARE_CFQ_GROUP_SLICE,
};

#undef CFQ_OPS
