/*
 * CFQ, the Completely Fair Queuing I/O scheduler (Jens Axboe), as Linux
 * 2.6.31, 2.6.33 and 4.19 have it; spec: docs/cfq.md.
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
 * Release differences are named behaviours of the descriptor's profile,
 * cfqd->prof (struct cfq_profile in cfq_int.h, the profiles in cfq_profiles.c).
 *
 * This file has the queues and io contexts, the request life (set_request,
 * insert, completion, merging) and the descriptors. The mechanisms are in
 * their own files: cfq_tree.c (service and prio trees, cfq_select_queue),
 * cfq_idle.c (think time, seeks, idling), cfq_coop.c (close cooperators,
 * queue merging), cfq_dispatch.c (slices, dispatch, preemption) and
 * cfq_group.c (groups and the workload choice of 2.6.33+).
 *
 * Timing: the scheduler is given the time on every call (cfqd->now). The
 * idle slice timer is cfqd->idle_timer, reported through next_wakeup() and
 * handled by the timer hook.
 */
#include <stdlib.h>
#include <string.h>
#include "cfq_int.h"

static void cfq_cic_detach(struct cfq_data *cfqd, struct cfq_io_cq *cic);

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
	uint32_t meta = cfqd->prof->meta_flag;

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
struct ios_request *ios_cfq_find_next_rq(struct cfq_data *cfqd, struct cfq_queue *cfqq,
					 struct ios_request *last)
{
	struct ios_request *next = ios_elv_rb_latter(last), *prev = ios_elv_rb_former(last);
	uint64_t ref = cfqd->prof->next_rq_from_dispatched ? last->sector : cfqd->last_position;

	if (!next) {
		struct ios_rb_node *f = ios_rb_first(&cfqq->sort_list);

		if (f && ios_rb_to_rq(f) != last)
			next = ios_rb_to_rq(f);
	}
	return cfq_choose_req(cfqd, next, prev, ref);
}

/* ---- adding and removing requests ---- */

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
	if (cfqd->prof->sort_aliases) {
		struct ios_request *alias;

		while ((alias = ios_elv_rb_find(&cfqq->sort_list, rq->sector)) != NULL)
			ios_cfq_dispatch_alias(cfqd, alias);
	}
	ios_elv_rb_add(&cfqq->sort_list, rq);
	if (!cfqq_has(cfqq, CFQ_QF_ON_RR))
		ios_cfq_add_cfqq_rr(cfqd, cfqq);
	prev = cfqq->next_rq;
	cfq_set_next_rq(cfqq, cfq_choose_req(cfqd, cfqq->next_rq, rq, cfqd->last_position));
	if (prev != cfqq->next_rq)
		ios_cfq_prio_tree_add(cfqd, cfqq);
}

static void cfq_del_rq_rb(struct cfq_data *cfqd, struct ios_request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	IOS_BUG_ON(!cfqq->queued[ios_rq_is_sync(rq)]);
	cfqq->queued[ios_rq_is_sync(rq)]--;
	ios_elv_rb_del(&cfqq->sort_list, rq);
	ios_rb_clear(&rq->rb_node);
	if (ios_rb_empty(&cfqq->sort_list)) {
		if (!cfqd->prof->keep_empty_busy) {
			/* 2.6.31: off the tree the moment its last request goes */
			if (cfqq_has(cfqq, CFQ_QF_ON_RR))
				ios_cfq_del_cfqq_rr(cfqd, cfqq);
		} else {
			ios_cfq_prio_tree_del(cfqq);
		}
	}
}

void ios_cfq_remove_request(struct cfq_data *cfqd, struct ios_request *rq)
{
	struct cfq_queue *cfqq = rq_cfqq(rq);

	if (cfqq->next_rq == rq)
		cfq_set_next_rq(cfqq, ios_cfq_find_next_rq(cfqd, cfqq, rq));
	ios_list_del(&rq->queuelist);
	cfq_del_rq_rb(cfqd, rq);
	cfqd->rq_queued--;
	if (rq->flags & cfqd->prof->meta_flag) {
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
	cic->ioprio_class = ioc->ioprio_class;
	cic->ioprio_level = ioc->ioprio_level;
	ios_list_add_tail(&cic->all, &cfqd->all_cics);
	ioc->icq[cfqd->q->id] = cic;
	return cic;
}

void ios_cfq_cic_get(struct cfq_io_cq *cic)
{
	IOS_BUG_ON(cic->ref < 0);
	cic->ref++;
}

/* Drop a reference; the last one frees the context (cic_free_func). */
void ios_cfq_cic_put(struct cfq_data *cfqd, struct cfq_io_cq *cic)
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

void ios_cfq_put_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	IOS_BUG_ON(cfqq->ref <= 0);
	if (--cfqq->ref)
		return;
	IOS_BUG_ON(!ios_rb_empty(&cfqq->sort_list) || cfqq->allocated[0] || cfqq->allocated[1]);
	if (cfqd->active_queue == cfqq)
		return; /* freed when it expires */
	if (cfqq_has(cfqq, CFQ_QF_ON_RR))
		ios_cfq_del_cfqq_rr(cfqd, cfqq);
	ios_list_del(&cfqq->all);
	/* a merge target is freed after its referrers, or unlinks them below */
	if (cfqq->new_cfqq)
		cfqq->new_cfqq->merge_referrers--;
	if (cfqq_has(cfqq, CFQ_QF_MERGE_TARGET))
		ios_cfq_unlink_merge_target(cfqd, cfqq);
	free(cfqq);
}

/* The async queue for the task's slot (shared per class and level). */
static struct cfq_queue **cfq_async_slot(struct cfq_data *cfqd, struct cfq_group *g,
					 const struct ios_ioc *ioc)
{
	int cls = ioc->ioprio_class, lvl = ioc->ioprio_level;
	struct cfq_group *owner = cfqd->prof->async_per_group ? g : cfqd->root_group;

	if (cls == IOS_IOPRIO_CLASS_NONE) {
		if (cfqd->prof->async_prio_from_nice) {
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

/*
 * ioprio_set() between two requests of a task: 2.6.31/2.6.33 notice it in
 * cfq_get_io_context (ioc->ioprio_changed, then changed_ioprio() for each
 * cic), 4.19 in check_ioprio_changed (cic->ioprio != ioc->ioprio), both
 * from cfq_set_request. Each marks the sync queue prio_changed, so that
 * cfq_init_prio_data gives it the new class and level when the request is
 * inserted; the service tree it joins follows from the class the next time
 * it is added. The async queue is swapped for the new slot's by
 * cfq_get_queue, which looks the slot up at every async request.
 */
static void cfq_check_ioprio_change(struct cfq_io_cq *cic)
{
	const struct ios_ioc *ioc = cic->ioc;

	/* ioc->ioprio holds class and level only: a nice change is not seen here */
	if (cic->ioprio_class == ioc->ioprio_class && cic->ioprio_level == ioc->ioprio_level)
		return;
	cic->ioprio_class = ioc->ioprio_class;
	cic->ioprio_level = ioc->ioprio_level;
	if (cic->cfqq[1])
		cfqq_mark(cic->cfqq[1], CFQ_QF_PRIO_CHANGED);
}

static struct cfq_queue *cfq_get_queue(struct cfq_data *cfqd, bool sync, struct ios_ioc *ioc,
				       struct cfq_io_cq *cic)
{
	struct cfq_group *g = ios_cfq_lookup_group(cfqd, ioc->cgroup);
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
			ios_cfq_put_queue(cfqd, cic->cfqq[0]);
		cfqq->ref++;
		cic->cfqq[0] = cfqq;
	}
	return cfqq;
}

static void cfq_timer(struct ios_queue *q, uint64_t now)
{
	struct cfq_data *cfqd = cfq_data(q);

	cfqd->now = now;
	if (cfq_timer_pending(cfqd) && now >= cfqd->idle_timer)
		ios_cfq_idle_slice_timer(cfqd);
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
	if (cfqd->prof->prio_boost) {
		cic = cfq_cic(cfqd, rq->ioc, false);
		if (cic && cic->cfqq[sync])
			cfqq_boost_on_prio(cic->cfqq[sync], rq->flags);
	}
	cic = cfq_cic(cfqd, rq->ioc, true);
	if (!cic)
		return -ENOMEM;
	cfq_check_ioprio_change(cic);
	for (;;) {
		cfqq = sync ? cic->cfqq[1] : NULL;
		if (!cfqq) {
			cfqq = cfq_get_queue(cfqd, sync, rq->ioc, cic);
			if (!cfqq)
				return -ENOMEM;
		}
		if (!sync || !cfqd->prof->queue_merging)
			break;
		/* a merged queue that stopped cooperating is split at allocation */
		if (cfqq_has(cfqq, CFQ_QF_COOP) && cfqq_has(cfqq, CFQ_QF_SPLIT_COOP)) {
			if (!ios_cfq_split_cfqq(cfqd, cic, cfqq))
				continue;
		}
		/* a pending merge takes effect at the next allocation */
		if (cfqq->new_cfqq)
			cfqq = ios_cfq_merge_cfqqs(cfqd, cic, cfqq);
		break;
	}
	cfqq->allocated[rq->dir]++;
	cfqq->ref++;
	ios_cfq_cic_get(cic);	/* the request's reference (get_io_context) */
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
	ios_cfq_cic_put(cfqd, rq_cic(rq));	/* put_io_context */
	rq->sched_priv[0] = rq->sched_priv[1] = NULL;
	ios_cfq_put_queue(cfqd, cfqq);
}

static void cfq_rq_enqueued(struct cfq_data *cfqd, struct cfq_queue *cfqq, struct ios_request *rq)
{
	struct cfq_io_cq *cic = rq_cic(rq);

	cfqd->rq_queued++;
	if (rq->flags & cfqd->prof->meta_flag)
		cfqq->meta_pending++;
	ios_cfq_update_io_thinktime(cfqd, cfqq, cic);
	ios_cfq_update_io_seektime(cfqd, cfqq, cic, rq);
	ios_cfq_update_idle_window(cfqd, cfqq, cic);
	if (cfqd->prof->seek == CFQ_SEEK_CIC_MEAN)
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
				ios_queue_note_owner(cfqd->q, cfqd->now, cfqq->pid, IOS_OWN_IDLE_END, 0);
				if (cfqd->prof->wait_request_cleared)
					cfqq_clear(cfqq, CFQ_QF_WAIT_REQUEST);
				else
					cfqq_mark(cfqq, CFQ_QF_MUST_DISPATCH);
			} else {
				cfqq_mark(cfqq, CFQ_QF_MUST_DISPATCH);
			}
		}
	} else if (ios_cfq_should_preempt(cfqd, cfqq, rq)) {
		ios_cfq_preempt_queue(cfqd, cfqq);
	}
}

static void cfq_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now, unsigned flags)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq = rq_cfqq(rq);

	(void)flags;
	cfqd->now = now;
	cfq_init_prio_data(cfqq, rq->ioc);
	if (cfqd->prof->fifo_time_at_insert)
		rq->fifo_time_ns = now + cfqd->fifo_expire[ios_rq_is_sync(rq)];
	else
		rq->fifo_time_ns = rq->alloc_ns + cfqd->fifo_expire[cfqq_sync(cfqq)];
	ios_list_add_tail(&rq->queuelist, &cfqq->fifo);
	cfq_add_rq_rb(cfqd, rq);
	cfq_rq_enqueued(cfqd, cfqq, rq);
}

static void cfq_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq = rq_cfqq(rq);
	bool sync = ios_rq_is_sync(rq);

	cfqd->now = now;
	ios_cfq_update_hw_tag(cfqd);
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
		if (cfqd->prof->tree_group_ttime)
			(cfqq_has(cfqq, CFQ_QF_ON_RR) && cfqq->service_tree
				 ? cfqq->service_tree
				 : ios_cfq_st_for(cfqq->cfqg, cfqq_class(cfqq), cfqq_type(cfqq)))
				->ttime.last_end = now;
		if (cfqd->prof->async_depth_ramp && rq->alloc_ns + cfqd->fifo_expire[1] <= now)
			cfqd->last_delayed_sync = now;
	}
	if (cfqd->prof->tree_group_ttime)
		cfqq->cfqg->ttime.last_end = now;

	if (cfqd->active_queue == cfqq) {
		bool empty = ios_rb_empty(&cfqq->sort_list);

		if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW)) {
			ios_cfq_set_prio_slice(cfqd, cfqq);
			cfqq_clear(cfqq, CFQ_QF_SLICE_NEW);
		}
		if (cfqd->prof->wait_busy != CFQ_WAIT_BUSY_NONE && ios_cfq_should_wait_busy(cfqd,
											    cfqq)) {
			uint64_t extend = cfqd->slice_idle;

			if (cfqd->prof->group_idle && !cfqd->slice_idle)
				extend = cfqd->group_idle;
			cfqq->slice_end = now + extend;
			cfqq_mark(cfqq, CFQ_QF_WAIT_BUSY);
		}
		if (cfq_slice_used(cfqd, cfqq) || cfq_class_idle(cfqq)) {
			ios_cfq_slice_expired(cfqd, true);
		} else if (sync && empty && !ios_cfq_close_cooperator(cfqd, cfqq, true)) {
			switch (cfqd->prof->arm) {
			case CFQ_ARM_UNLESS_NOIDLE:
				if (!ios_cfq_req_noidle(cfqd, rq))
					ios_cfq_arm_slice_timer(cfqd);
				break;
			case CFQ_ARM_NOIDLE_TREE:
				cfqd->noidle_tree_requires_idle |= !ios_cfq_req_noidle(cfqd, rq);
				if (cfqd->serving_wl_type == CFQ_SYNC_WL ||
				    cfqd->noidle_tree_requires_idle || cfqq->cfqg->nr_cfqq == 1)
					ios_cfq_arm_slice_timer(cfqd);
				break;
			default:
				ios_cfq_arm_slice_timer(cfqd);
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
	if (cfqd->prof->sort_aliases) {
		struct ios_request *alias;

		while ((alias = ios_elv_rb_find(&cfqq->sort_list, rq->sector)) != NULL)
			ios_cfq_dispatch_alias(cfqd, alias);
	}
	ios_elv_rb_add(&cfqq->sort_list, rq);
	prev = cfqq->next_rq;
	/* also when rq was next_rq already: its sector moved */
	cfq_set_next_rq(cfqq, cfq_choose_req(cfqd, cfqq->next_rq, rq, cfqd->last_position));
	if (prev != cfqq->next_rq)
		ios_cfq_prio_tree_add(cfqd, cfqq);
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
	ios_cfq_remove_request(cfqd, next);
	if (cfqd->prof->keep_empty_busy && nq != cfqd->active_queue && ios_rb_empty(&nq->sort_list) &&
	    cfqq_has(nq, CFQ_QF_ON_RR))
		ios_cfq_del_cfqq_rr(cfqd, nq);
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
		if (cfqq == cfqd->active_queue) {
			/* the timeline's reason; the expiry's own note then closes nothing */
			ios_queue_note_owner(cfqd->q, cfqd->now, cfqq->pid, IOS_OWN_SLICE_END,
					     IOS_OWN_R_EXITED);
			ios_cfq_slice_expired(cfqd,
					      false);	/* __cfq_slice_expired of this queue */
		}
		ios_cfq_put_cooperator(cfqd, cfqq);
		ios_cfq_put_queue(cfqd, cfqq);
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
	ios_cfq_cic_put(cfqd, cic);
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

	if (!cfqd->prof->groups)
		return -ENOENT;
	g = ios_cfq_find_group(cfqd, cg);
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

/* The descriptor's profile (every CFQ descriptor carries one). */
static const struct cfq_profile *cfq_profile_of(const struct ios_queue *q)
{
	return q->sched->profile;
}

static void cfq_init_defaults(struct ios_queue *q)
{
	struct cfq_data *cfqd = cfq_data(q);
	const struct cfq_profile *prof = cfq_profile_of(q);
	struct ios_err e = { 0 };

	/* 2.6.31 has no files for these, but the code needs their values */
	if (prof->hidden && ios_tunable_defaults(prof->hidden, cfqd, &e))
		cfqd->target_latency = 300 * IOS_NSEC_PER_MSEC; /* the table's default cannot fail */
	/* 4.8+: no idling on non-rotational devices (turns on IOPS mode with NCQ) */
	if (prof->nonrot_no_idle && !q->rotational)
		cfqd->slice_idle = 0;
}

static int cfq_init(struct ios_queue *q)
{
	struct cfq_data *cfqd = cfq_data(q);

	cfqd->q = q;
	cfqd->prof = cfq_profile_of(q);
	ios_list_init(&cfqd->all_queues);
	ios_list_init(&cfqd->all_cics);
	ios_list_init(&cfqd->alias_list);
	cfqd->service_tree.rb = IOS_RB_ROOT_CACHED;
	for (int i = 0; i < 8; i++)
		cfqd->prio_trees[i] = IOS_RB_ROOT;
	if (ios_cfq_groups_init(cfqd))
		return -ENOMEM;
	cfqd->serving_group = cfqd->root_group;
	cfqd->serving_wl_class = CFQ_BE_WL;
	cfqd->serving_wl_type = CFQ_SYNC_WL;
	cfqd->idle_timer = IOS_NO_WAKEUP;
	/* 2.6.31 assumes queueing hardware until shown otherwise; later: unknown */
	cfqd->hw_tag = cfqd->prof->hw_tag_guarded ? -1 : 1;
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
		ios_cfq_cic_put(cfqd, cic);
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
			ios_cfq_del_cfqq_rr(cfqd, cfqq);
		ios_list_del(&cfqq->all);
		free(cfqq);
	}
	ios_cfq_groups_exit(cfqd);
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
		.dispatch = ios_cfq_dispatch,               \
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
	.tunables = ios_cfq_2631_tunables,
	.stats = ios_cfq_stats_table,
	.priv_size = sizeof(struct cfq_data),
	.features = IOS_SCHED_IDLES | IOS_SCHED_TTIME_B2B | IOS_SCHED_CHARGES_TIME,
	.cgroups = &cfq_2631_cgroups,
	.profile = &ios_cfq_profile_2631,
	.share_model = IOS_SHARE_CFQ_SLICE,
};

const struct ios_sched_type ios_sched_cfq_2633 = {
	.name = "cfq-2.6.33",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "CFQ, Linux 2.6.33: groups, workload types, low_latency, queue merging",
	.ops = CFQ_OPS,
	.tunables = ios_cfq_2633_tunables,
	.stats = ios_cfq_stats_table,
	.priv_size = sizeof(struct cfq_data),
	.features = IOS_SCHED_IDLES | IOS_SCHED_CHARGES_TIME,
	.cgroups = &cfq_2633_cgroups,
	.profile = &ios_cfq_profile_2633,
	.share_model = IOS_SHARE_CFQ_GROUP_SLICE,
};

const struct ios_sched_type ios_sched_cfq_419 = {
	.name = "cfq-4.19",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "CFQ, Linux 4.19 (its final form): quantum 8, group_idle, ns timing",
	.ops = CFQ_OPS,
	.tunables = ios_cfq_419_tunables,
	.stats = ios_cfq_stats_table,
	.priv_size = sizeof(struct cfq_data),
	.features = IOS_SCHED_IDLES | IOS_SCHED_CHARGES_TIME,
	.cgroups = &cfq_419_cgroups,
	.profile = &ios_cfq_profile_419,
	.share_model = IOS_SHARE_CFQ_GROUP_SLICE,
};

#undef CFQ_OPS
