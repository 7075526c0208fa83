/*
 * CFQ's slices, dispatch and preemption.
 *
 * The active queue owns the disk for a slice, base + base/5 * (4 - level),
 * which 2.6.33+ shrink with low_latency so that all busy queues fit in
 * target_latency. It dispatches up to a depth limit (quantum, in each
 * release's variant), an expired FIFO request first once per slice, and
 * an async queue at most its request budget. When the slice ends the
 * queue banks what is left (slice_resid) for its next position and its
 * group is charged (cfq_group.c). A request arriving for another queue may
 * end the slice at once: cfq_should_preempt holds the rules, which moved a
 * good deal between releases.
 */
#include "cfq_int.h"

/* ---- slices ---- */

static uint64_t cfq_prio_to_slice(const struct cfq_data *cfqd, const struct cfq_queue *cfqq)
{
	return ios_cfq_prio_slice(cfqd, cfqq_sync(cfqq), cfqq->ioprio);
}

/* 2.6.33+ low_latency: scale the slice so all interested queues fit in the target */
static uint64_t cfq_scaled_slice(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	uint64_t slice = cfq_prio_to_slice(cfqd, cfqq);

	if (cfqd->prof->low_latency_slice && cfqd->low_latency) {
		struct cfq_group *g = cfqq->cfqg;
		unsigned busy = ios_cfq_group_busy_queues_wl(cfq_class_rt(cfqq) ? CFQ_RT_WL
									   : CFQ_BE_WL, g);
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
		grp = ios_cfq_group_slice(cfqd, g);
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

void ios_cfq_set_prio_slice(struct cfq_data *cfqd, struct cfq_queue *cfqq)
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

static void cfq_free_if_unused(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqq->ref == 0 && cfqd->active_queue != cfqq) {
		cfqq->ref = 1;
		ios_cfq_put_queue(cfqd, cfqq);
	}
}

static void __cfq_slice_expired(struct cfq_data *cfqd, struct cfq_queue *cfqq, bool timed_out)
{
	uint64_t now = cfqd->now;

	if (cfqq_has(cfqq, CFQ_QF_WAIT_REQUEST))
		cfq_del_idle_timer(cfqd);
	cfqq_clear(cfqq, CFQ_QF_WAIT_REQUEST | CFQ_QF_WAIT_BUSY);
	if (cfqd->prof->queue_merging && cfqq_has(cfqq, CFQ_QF_COOP) && ios_cfqq_seeky(cfqd, cfqq,
										       NULL))
		cfqq_mark(cfqq, CFQ_QF_SPLIT_COOP);
	/* bank what is left of the slice (or the overrun) for the next key */
	if (timed_out) {
		if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW)) {
			if (cfqd->prof->resid_on_unused_slice)
				cfqq->slice_resid = (int64_t)cfq_scaled_slice(cfqd, cfqq);
		} else {
			cfqq->slice_resid = (int64_t)(cfqq->slice_end - now);
		}
	}
	ios_cfq_group_served(cfqd, cfqq->cfqg, cfqq);
	/*
	 * The process's own disk time (the report's, not the kernel's): a sync
	 * slice is the process's whose request opened it (active_cic). Async
	 * queues are shared by every process of a priority, as in the kernel,
	 * and are charged to none.
	 */
	if (cfqq_sync(cfqq) && cfqd->active_cic && cfqd->active_cic->cfqq[1] == cfqq)
		cfqd->active_cic->ioc->sched_ns += ios_cfq_slice_time_used(cfqd, cfqq, false);
	if (cfqq_has(cfqq, CFQ_QF_ON_RR) && ios_rb_empty(&cfqq->sort_list))
		ios_cfq_del_cfqq_rr(cfqd, cfqq);
	ios_cfq_resort_rr_list(cfqd, cfqq);
	if (cfqq == cfqd->active_queue)
		cfqd->active_queue = NULL;
	if (cfqd->active_cic) {
		struct cfq_io_cq *cic = cfqd->active_cic;

		cfqd->active_cic = NULL;
		ios_cfq_cic_put(cfqd, cic);
	}
	cfqd->st_expired_slices++;
	ios_queue_msg(cfqd->q, now, "cfq%u slice_expired t=%d", cfqq->pid, timed_out);
	ios_queue_note_owner(cfqd->q, now, cfqq->pid, IOS_OWN_SLICE_END,
			     timed_out ? IOS_OWN_R_EXPIRED : IOS_OWN_R_EMPTY);
	cfq_free_if_unused(cfqd, cfqq);
}

void ios_cfq_slice_expired(struct cfq_data *cfqd, bool timed_out)
{
	if (cfqd->active_queue)
		__cfq_slice_expired(cfqd, cfqd->active_queue, timed_out);
}

/*
 * The lab's two-level design (Tarasov 2008, cfq_lab2008.c): the group
 * whose queue is active lost its turn, so the queue loses the disk too.
 */
void ios_cfq_expire_active(struct cfq_data *cfqd, uint64_t now)
{
	cfqd->now = now;
	ios_cfq_slice_expired(cfqd, false);
}

/* ---- preemption ---- */

/*
 * Whether @nq, which just got @rq, takes the disk from the active queue.
 * One list of rules: each release leaves some out or tests them in its
 * own order (the prof->preempt_* behaviours).
 */
bool ios_cfq_should_preempt(struct cfq_data *cfqd, struct cfq_queue *nq,
			    struct ios_request *rq)
{
	const struct cfq_profile *prof = cfqd->prof;
	struct cfq_queue *cq = cfqd->active_queue;

	if (!cq)
		return false;
	if (prof->preempt_used_slice_first && cfq_slice_used(cfqd, cq))
		return true;
	if (cfq_class_idle(nq))
		return false;
	if (cfq_class_idle(cq))
		return true;
	if (prof->preempt_rt_protected && cfq_class_rt(cq) && !cfq_class_rt(nq))
		return false;
	if (ios_rq_is_sync(rq) && !cfqq_sync(cq) &&
	    !(prof->preempt_spares_must_dispatch && cfqq_has(cq, CFQ_QF_MUST_DISPATCH)))
		return true;
	/*
	 * Never across groups: that would take time from one to give it to
	 * another. Nested groups let a queue of the active group's ancestors in.
	 */
	if (prof->groups &&
	    (prof->hier_groups ? !ios_cfqg_is_descendant(cq->cfqg,
							 nq->cfqg) : nq->cfqg != cq->cfqg))
		return false;
	if (!prof->preempt_used_slice_first && cfq_slice_used(cfqd, cq))
		return true;
	if (prof->preempt_rt_before_noidle && cfq_class_rt(nq) && !cfq_class_rt(cq))
		return true;
	if (prof->workload_trees && cfqd->serving_wl_type == CFQ_SYNC_NOIDLE_WL &&
	    cfqq_type(nq) == CFQ_SYNC_NOIDLE_WL && ios_rb_empty(&cq->sort_list) &&
	    (prof->preempt_noidle_any || (nq->service_tree && nq->service_tree->count == 2)))
		return true;
	if ((rq->flags & prof->meta_flag) && !cq->meta_pending)
		return true;
	if (!prof->preempt_rt_before_noidle && cfq_class_rt(nq) && !cfq_class_rt(cq))
		return true;
	if (prof->preempt_empty_not_idling && ios_rb_empty(&cq->sort_list) &&
	    !ios_cfq_should_idle(cfqd, cq))
		return true;
	if (!cfqd->active_cic || !cfqq_has(cq, CFQ_QF_WAIT_REQUEST))
		return false;
	return ios_cfq_rq_close(cfqd, cq, rq, true);
}

void ios_cfq_preempt_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_queue *old = cfqd->active_queue;

	ios_queue_msg(cfqd->q, cfqd->now, "cfq%u preempt", cfqq->pid);
	ios_queue_note_owner(cfqd->q, cfqd->now, cfqq->pid, IOS_OWN_PREEMPT, 0);
	cfqd->st_preempts++;
	if (cfqd->prof->preempt_resets_wl_slice && old && cfqq_type(old) != cfqq_type(cfqq))
		cfqq->cfqg->saved_wl_slice = 0;
	ios_cfq_slice_expired(cfqd, true);
	IOS_BUG_ON(!cfqq_has(cfqq, CFQ_QF_ON_RR));
	ios_cfq_service_tree_add(cfqd, cfqq, true);
	cfqq->slice_end = 0;
	cfqq_mark(cfqq, CFQ_QF_SLICE_NEW);
}

/* ---- dispatch ---- */

static bool cfq_slice_used_soon(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW))
		return true;
	return cfqd->now + cfqd->slice_idle * cfqq->dispatched > cfqq->slice_end;
}

/*
 * The dispatch depth the active queue may reach now (cfq_may_dispatch; in
 * 2.6.31 cfq_dispatch_requests), or false if it must stop at quantum.
 */
static bool cfq_depth_limit(struct cfq_data *cfqd, struct cfq_queue *cfqq, unsigned *maxp)
{
	unsigned max;

	switch (cfqd->prof->limit) {
	case CFQ_LIMIT_QUANTUM_4X:
		max = cfq_class_idle(cfqq) ? 1 : (unsigned)cfqd->quantum;
		if (cfqq->dispatched >= max) {
			if (cfq_class_idle(cfqq) || cfqd->busy_queues > 1)
				return false;
			max *= 4;
		}
		break;
	case CFQ_LIMIT_QUANTUM:
		max = (unsigned)cfqd->quantum;
		if (cfq_class_idle(cfqq))
			max = 1;
		if (cfqq->dispatched >= max) {
			if (cfq_class_idle(cfqq) || cfqd->busy_queues > 1)
				return false;
			max = UINT32_MAX;
		}
		break;
	default:
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
		break;
	}
	*maxp = max;
	return true;
}

static bool cfq_may_dispatch(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	const struct cfq_profile *prof = cfqd->prof;
	unsigned max;

	if (prof->fifo_before_limits && cfqq_has(cfqq, CFQ_QF_MUST_DISPATCH))
		return true;
	/* drain async requests before a queue that will idle starts */
	if (prof->drain_async_before_idle && ios_cfq_should_idle(cfqd, cfqq) &&
	    cfqd->rq_in_flight[0])
		return false;
	if (cfqd->rq_in_flight[1] && !cfqq_sync(cfqq))
		return false;
	if (!cfq_depth_limit(cfqd, cfqq, &max))
		return false;
	/* low_latency: async depth ramps up after a delayed sync request */
	if (prof->async_depth_ramp && cfqd->low_latency && !cfqq_sync(cfqq)) {
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
	if (cfqd->prof->next_rq_from_dispatched)
		cfq_set_next_rq(cfqq, ios_cfq_find_next_rq(cfqd, cfqq, rq));
	ios_cfq_remove_request(cfqd, rq);
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
void ios_cfq_dispatch_alias(struct cfq_data *cfqd, struct ios_request *alias)
{
	cfq_dispatch_leave(cfqd, alias);
	ios_list_add_tail(&alias->queuelist, &cfqd->alias_list);
	cfqd->st_aliases++;
}

/* @rq: 4.19's FIFO pick, made before the limits were checked (or NULL) */
static struct ios_request *cfq_dispatch_request(struct cfq_data *cfqd, struct cfq_queue *cfqq,
						struct ios_request *rq)
{
	if (!rq && !cfqd->prof->fifo_before_limits)
		rq = cfq_check_fifo(cfqd, cfqq);
	if (!rq)
		rq = cfqq->next_rq;
	cfq_dispatch_insert(cfqd, rq);
	if (!cfqd->active_cic) {
		/* the dispatching context is pinned until the slice ends */
		cfqd->active_cic = rq_cic(rq);
		ios_cfq_cic_get(cfqd->active_cic);
	}
	return rq;
}

/* Drain: every queued request, queue by queue (elevator switch, flush). */
static struct ios_request *cfq_forced_dispatch(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq;

	ios_cfq_slice_expired(cfqd, false);
	for (;;) {
		cfqq = ios_cfq_first_busy(cfqd);
		if (!cfqq)
			return NULL;
		if (!ios_rb_empty(&cfqq->sort_list)) {
			struct ios_request *rq = cfqq->next_rq;

			cfq_dispatch_insert(cfqd, rq);
			return rq;
		}
		/* an empty queue left on a tree (2.6.33+): off it goes */
		ios_cfq_del_cfqq_rr(cfqd, cfqq);
	}
}

struct ios_request *ios_cfq_dispatch(struct ios_queue *q, uint64_t now, unsigned flags)
{
	struct cfq_data *cfqd = cfq_data(q);
	struct cfq_queue *cfqq;
	struct ios_request *rq, *fifo_rq = NULL;

	cfqd->now = now;
	if (cfq_timer_pending(cfqd) && now >= cfqd->idle_timer)
		ios_cfq_idle_slice_timer(cfqd);
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
	cfqq = ios_cfq_select_queue(cfqd);
	if (!cfqq)
		return NULL;
	if (ios_rb_empty(&cfqq->sort_list))
		return NULL;
	/*
	 * 4.19 looks at the FIFO before the limits: an expired request sets
	 * must_dispatch, which lets it past may_dispatch's checks.
	 */
	if (cfqd->prof->fifo_before_limits) {
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
		ios_cfq_slice_expired(cfqd, false);
	}
	return rq;
}
