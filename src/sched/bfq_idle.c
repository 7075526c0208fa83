/*
 * bfq_idle.c: when BFQ idles for the in-service queue and how a queue's
 * service slot ends (block/bfq-iosched.c of Linux 4.19: bfq_arm_slice_timer,
 * __bfq_bfqq_expire, __bfq_bfqq_recalc_budget, bfq_bfqq_is_slow,
 * bfq_bfqq_expire, bfq_may_expire_for_budg_timeout, bfq_better_to_idle with
 * idling_boosts_thr_without_issues, bfq_bfqq_must_idle, and the idle timer
 * bfq_idle_slice_timer_body). Moved out of bfq.c unchanged when bfq.c
 * reached the 1,500-line limit; bfq.c's header comment describes the
 * policy ("Budgets", "Idling").
 */
#include "bfq_int.h"

#define BFQ_DEFAULT_SLICE_IDLE_NS (8 * IOS_NSEC_PER_MSEC)
#define BFQ_WR_MIN_IDLE_NS	(20 * IOS_NSEC_PER_MSEC)	/* 6.12 bfq_arm_slice_timer */
#define BFQ_WR_INFLIGHT_GUARD	4	/* 6.12: others' requests in the drive that make a raised queue idle */

static const char *const bfq_reason_name[BFQQE_NR] = {
	"too_idle", "budget_timeout", "budget_exhausted", "no_more_requests", "preempted",
};

/*
 * Idle for the in-service queue: slice_idle, but only BFQ_MIN_TT for a
 * seeky queue when nothing asymmetric needs protecting. In 4.19 as
 * released a raised queue gets slice_idle like any other; 6.12's
 * bfq_arm_slice_timer gives it at least 20 ms (wr_idle_floor; in 4.19.90
 * by backport).
 */
void ios_bfq_arm_slice_timer(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue;
	uint64_t sl = bfqd->slice_idle_ns;

	bfqq_set(bfqq, BFQQF_wait_request);
	if (bfqq_seeky(bfqq) && bfqq->wr_coeff == 1 && !ios_bfq_asymmetric_scenario(bfqd, bfqq)) {
		if (sl > BFQ_MIN_TT_NS)
			sl = BFQ_MIN_TT_NS;
	} else if (bfqd->prof->wr_idle_floor && bfqq->wr_coeff > 1 && sl < BFQ_WR_MIN_IDLE_NS) {
		sl = BFQ_WR_MIN_IDLE_NS;
	}
	bfqd->last_idling_start_ns = bfqd->now_ns;
	bfqd->idle_end_ns = bfqd->now_ns + (int64_t)sl;
	bfqd->idle_arms++;
	bfq_log_bfqq(bfqd, bfqq, "arm idle %llu us", (unsigned long long)(sl / IOS_NSEC_PER_USEC));
	ios_queue_note_owner(bfqd->queue, (uint64_t)bfqd->now_ns, bfqq->pid, IOS_OWN_IDLE_START, 0);
}

/* ---- expiration ---- */

void __ios_bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq,
			   enum bfq_expiration reason)
{
	/* a shared queue whose processes no longer work close together splits */
	if (bfqq_flag(bfqq, BFQQF_coop) && bfqq_seeky(bfqq))
		bfqq_set(bfqq, BFQQF_split_coop);
	/*
	 * 6.12 (preempt_612, __bfq_bfqq_expire): an empty queue preempted
	 * while it needs idling for its guarantees stays scheduled, so that
	 * the queues behind it do not flood the drive before its next request.
	 */
	if (ios_rb_empty(&bfqq->sort_list) &&
	    !(bfqd->prof->preempt_612 && reason == BFQQE_PREEMPTED &&
	      ios_bfq_idling_needed_for_guarantees(bfqd, bfqq))) {
		if (bfqq->dispatched == 0)
			bfqq->budget_timeout_ns = bfqd->now_ns;	/* empty since now */
		ios_bfq_del_bfqq_busy(bfqd, bfqq, true);
	} else {
		ios_bfq_requeue_bfqq(bfqd, bfqq, true);
		ios_bfq_pos_tree_add_move(bfqd, bfqq);
	}
	__ios_bfq_bfqd_reset_in_service(bfqd);
}

/* The next budget, from why this one ended (sync, unraised queues). */
static void __bfq_bfqq_recalc_budget(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				     enum bfq_expiration reason)
{
	int min_budget = bfq_min_budget(bfqd), budget;

	budget = bfqq->wr_coeff == 1 ? bfqq->max_budget : 2 * min_budget;
	if (bfqq_flag(bfqq, BFQQF_sync) && bfqq->wr_coeff == 1) {
		switch (reason) {
		case BFQQE_TOO_IDLE:
			/*
			 * Requests still in flight: the process may just be
			 * waiting for them, so grow. Otherwise a smaller
			 * budget would have done: shrink.
			 */
			if (bfqq->dispatched > 0) {
				budget = 2 * budget < bfqd->max_budget ? 2 * budget : bfqd->max_budget;
			} else if (budget > 5 * min_budget) {
				budget -= 4 * min_budget;
			} else {
				budget = min_budget;
			}
			break;
		case BFQQE_BUDGET_TIMEOUT:
			budget = 2 * budget < bfqd->max_budget ? 2 * budget : bfqd->max_budget;
			break;
		case BFQQE_BUDGET_EXHAUSTED:
			budget = 4 * budget < bfqd->max_budget ? 4 * budget : bfqd->max_budget;
			break;
		case BFQQE_NO_MORE_REQUESTS:
			/* no idling: what it used is what it needs */
			budget = bfqq->entity.service > min_budget ? bfqq->entity.service
								    : min_budget;
			break;
		default:
			return;
		}
	} else if (!bfqq_flag(bfqq, BFQQF_sync)) {
		budget = bfqd->max_budget;	/* async: throughput only */
	}
	bfqq->max_budget = budget;
	if (bfqd->budgets_assigned >= BFQ_STATS_MIN_BUDGETS && !bfqd->user_max_budget &&
	    bfqq->max_budget > bfqd->max_budget)
		bfqq->max_budget = bfqd->max_budget;
	if (bfqq->next_rq) {
		int charge = bfq_serv_to_charge(bfqq->next_rq, bfqq);

		bfqq->entity.budget = bfqq->max_budget > charge ? bfqq->max_budget : charge;
	}
}

/*
 * Did the queue move its budget slowly? Over more than 20 ms, slow means
 * under half of max_budget in the slot; shorter slots go by seekiness.
 * @delta_ns gets the time to charge.
 */
static bool bfq_bfqq_is_slow(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool compensate,
			     uint64_t *delta_ns)
{
	bool slow = bfqq_seeky(bfqq);
	int64_t end = compensate ? bfqd->last_idling_start_ns : bfqd->now_ns;
	int64_t delta = end - bfqd->last_budget_start_ns;

	if (!bfqq_flag(bfqq, BFQQF_sync))
		return false;
	if (delta < (int64_t)IOS_NSEC_PER_MSEC) {
		/* too short to measure: charge at least a seek (or idling on flash) */
		*delta_ns = bfq_rotational(bfqd) ? BFQ_DEFAULT_SLICE_IDLE_NS : BFQ_MIN_TT_NS;
		return slow;
	}
	*delta_ns = (uint64_t)delta;
	if (delta > (int64_t)(20 * IOS_NSEC_PER_MSEC))
		slow = bfqq->entity.service < bfqd->max_budget / 2;
	return slow;
}

/*
 * The report's disk time of the process owning in-service queue @bfqq:
 * its time in service since the budget started, idling included (what
 * CFQ's slice time counts). A queue shared after a merge has no owner.
 */
void ios_bfq_charge_owner(struct bfq_data *bfqd, struct bfq_queue *bfqq, int64_t now)
{
	if (bfqq_flag(bfqq, BFQQF_sync) && bfqq->bic && bfqq->bic->ioc &&
	    now > bfqd->last_budget_start_ns)
		bfqq->bic->ioc->sched_ns += (uint64_t)(now - bfqd->last_budget_start_ns);
}

void ios_bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool compensate,
			 enum bfq_expiration reason)
{
	struct bfq_entity *entity = &bfqq->entity;
	uint64_t delta = 0;
	bool slow;
	int ref;

	slow = bfq_bfqq_is_slow(bfqd, bfqq, compensate, &delta);
	/*
	 * Slow queues, and those that timed out with a third of their budget
	 * left, pay for time rather than sectors.
	 */
	if (bfqq->wr_coeff == 1 &&
	    (slow || (reason == BFQQE_BUDGET_TIMEOUT &&
		      bfq_budget_left(bfqq) >= entity->budget / 3)))
		ios_bfq_bfqq_charge_time(bfqd, bfqq, delta);
	if (reason == BFQQE_TOO_IDLE && entity->service <= 2 * entity->budget / 10)
		bfqq_clear(bfqq, BFQQF_IO_bound);
	if (bfqd->low_latency && bfqq->wr_coeff == 1)
		bfqq->last_wr_start_finish_ns = bfqd->now_ns;
	if (bfqd->low_latency && bfqd->wr_max_softrt_rate > 0 && ios_rb_empty(&bfqq->sort_list)) {
		/* isochronous only once everything it issued is back */
		if (bfqq->dispatched == 0)
			bfqq->soft_rt_next_start_ns = ios_bfq_bfqq_softrt_next_start(bfqd, bfqq);
		else
			bfqq_set(bfqq, BFQQF_softrt_update);
	}
	bfqd->expirations[reason]++;
	/* 6.x: no service time is being measured any more */
	bfqd->rqs_injected = bfqd->wait_dispatch = false;
	bfqd->waited_rq = NULL;
	bfq_log_bfqq(bfqd, bfqq, "expire %s service %d budget %d slow %d charged_ms %llu",
		     bfq_reason_name[reason], entity->service, entity->budget, slow,
		     (unsigned long long)(delta / IOS_NSEC_PER_MSEC));
	__bfq_bfqq_recalc_budget(bfqd, bfqq, reason);
	ios_bfq_charge_owner(bfqd, bfqq, bfqd->now_ns);
	ios_queue_note_owner(bfqd->queue, (uint64_t)bfqd->now_ns, bfqq->pid, IOS_OWN_SLICE_END,
			     reason == BFQQE_PREEMPTED ? IOS_OWN_R_PREEMPTED :
			     reason == BFQQE_NO_MORE_REQUESTS ? IOS_OWN_R_EMPTY : IOS_OWN_R_EXPIRED);
	ref = bfqq->ref;
	__ios_bfq_bfqq_expire(bfqd, bfqq, reason);
	if (ref == 1)
		return;		/* freed */
	/*
	 * Emptied without using up its budget: if the process comes back in
	 * time it continues with the same budget and service.
	 */
	if (!bfqq_flag(bfqq, BFQQF_busy) && reason != BFQQE_BUDGET_TIMEOUT &&
	    reason != BFQQE_BUDGET_EXHAUSTED)
		bfqq_set(bfqq, BFQQF_non_blocking_wait_rq);
	else
		entity->service = 0;
	for (entity = entity->parent; entity; entity = entity->parent)
		entity->service = 0;
}

bool ios_bfq_may_expire_for_budg_timeout(const struct bfq_data *bfqd,
					 const struct bfq_queue *bfqq)
{
	/* not while idling with most of the budget used: that would misalign timestamps */
	return (!bfqq_flag(bfqq, BFQQF_wait_request) ||
		bfq_budget_left(bfqq) >= bfqq->entity.budget / 3) &&
	       bfq_budget_timeout_passed(bfqd, bfqq);
}

/*
 * Does idling for @bfqq raise throughput, without starving raised queues
 * (idling_boosts_thr_without_issues)? Yes with no command queueing on a
 * disk, or for a sequential I/O-bound queue on a disk or a non-queueing
 * device, as long as no raised queue is busy.
 */
bool ios_bfq_idling_boosts_thr(const struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	bool rot = bfq_rotational(bfqd);
	bool rot_without_queueing = rot && !bfqd->hw_tag;
	bool seq_io_bound = !bfqq_seeky(bfqq) && bfqq_flag(bfqq, BFQQF_IO_bound) &&
			    bfqq_flag(bfqq, BFQQF_has_short_ttime);
	bool boosts_thr = rot_without_queueing || ((rot || !bfqd->hw_tag) && seq_io_bound);

	return boosts_thr && bfqd->wr_busy_queues == 0;
}

/*
 * Is the scenario asymmetric for @bfqq (bfq_asymmetric_scenario)? 4.19:
 * two queue weights or two group weights are active. 6.12
 * (asymmetric_612): unraised queues of different weights are active and
 * @bfqq is not among the lightest (a lighter queue gets no more than its
 * share without idling), or busy queues of two classes, or more than one
 * group (the root included) with requests queued or in flight.
 */
bool ios_bfq_asymmetric_scenario(const struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	const struct bfq_weight_counts *wc = &bfqd->queue_weights;
	bool smallest = false;
	int classes = 0;

	if (!bfqd->prof->asymmetric_612)
		return !bfq_symmetric_scenario(bfqd);
	for (int c = 0; c < BFQ_IOPRIO_CLASSES; c++)
		classes += bfqd->busy_in_class[c] > 0;
	if (classes > 1 || bfqd->num_groups_with_pending_reqs > 1)
		return true;
	if (wc->distinct < 2)
		return false;
	/* only unraised weights are counted (bfq_weights_tree_add) */
	if (bfqq && bfqq->entity.counted_weight) {
		smallest = true;
		for (unsigned w = BFQ_MIN_WEIGHT; w < bfqq->entity.counted_weight; w++) {
			if (wc->n[w]) {
				smallest = false;
				break;
			}
		}
	}
	return !smallest;
}

/*
 * Must the device idle for @bfqq to keep its guarantees
 * (idling_needed_for_service_guarantees)? 4.19: it is raised or the
 * scenario asymmetric, unless it was created in a large burst. 6.12
 * (idle_guarantees_612): a raised queue only while unraised queues are
 * busy too or the drive holds BFQ_WR_INFLIGHT_GUARD more requests than its
 * own (they would delay its next one); the asymmetric scenario; and the
 * queue that is the only busy one (a newcomer must not fill the drive
 * while it thinks). No large-burst exemption.
 */
bool ios_bfq_idling_needed_for_guarantees(const struct bfq_data *bfqd,
					  const struct bfq_queue *bfqq)
{
	if (!bfqd->prof->idle_guarantees_612)
		return (bfqq->wr_coeff > 1 || ios_bfq_asymmetric_scenario(bfqd, bfqq)) &&
		       !bfqq_flag(bfqq, BFQQF_in_large_burst);
	return (bfqq->wr_coeff > 1 &&
		(bfqd->wr_busy_queues < bfqd->busy_queues ||
		 bfqd->rq_in_driver >= bfqq->dispatched + BFQ_WR_INFLIGHT_GUARD)) ||
	       ios_bfq_asymmetric_scenario(bfqd, bfqq) || bfqd->busy_queues == 1;
}

/*
 * Should the device idle for @bfqq once it is empty (bfq_better_to_idle)?
 * Yes if idling raises throughput (ios_bfq_idling_boosts_thr) or if its
 * service guarantees need it (ios_bfq_idling_needed_for_guarantees).
 */
bool ios_bfq_better_to_idle(const struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	if (bfqd->draining)
		return false;
	if (bfqd->strict_guarantees)
		return true;
	if (bfqd->slice_idle_ns == 0 || !bfqq_flag(bfqq, BFQQF_sync) || bfq_class_idle(bfqq))
		return false;
	return ios_bfq_idling_boosts_thr(bfqd, bfqq) ||
	       ios_bfq_idling_needed_for_guarantees(bfqd, bfqq);
}

bool ios_bfq_bfqq_must_idle(const struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	return ios_rb_empty(&bfqq->sort_list) && ios_bfq_better_to_idle(bfqd, bfqq);
}

/* ---- idle timer ---- */

/*
 * The idle window ended at idle_end_ns. Run its decisions as of that time,
 * whichever hook notices first.
 */
void ios_bfq_idle_timer_fire(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue;
	int64_t now = bfqd->now_ns;
	enum bfq_expiration reason;

	if (!bfqq || !bfqq_flag(bfqq, BFQQF_wait_request) || now < bfqd->idle_end_ns)
		return;
	bfqd->now_ns = bfqd->idle_end_ns;
	bfqq_clear(bfqq, BFQQF_wait_request);
	if (bfq_budget_timeout_passed(bfqd, bfqq))
		reason = BFQQE_BUDGET_TIMEOUT;
	else if (bfqq->queued[0] == 0 && bfqq->queued[1] == 0)
		reason = BFQQE_TOO_IDLE;
	else
		goto out;	/* a request came: dispatch will serve it */
	ios_bfq_bfqq_expire(bfqd, bfqq, true, reason);
out:
	bfqd->now_ns = now;
}
