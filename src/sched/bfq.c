/*
 * bfq: Budget Fair Queueing, as in Linux 4.19 (block/bfq-iosched.c, Paolo
 * Valente, Arianna Avanzini, Fabio Checconi; CFQ's structure underneath).
 *
 * Each process gets a queue (its sync I/O; async I/O goes to a queue shared
 * per group, class and level), and the queue in service keeps the device
 * until it has used its budget (sectors), emptied, or held the device for
 * timeout_sync. B-WF2Q+ (bfq_wf2q.c) picks the next queue so that every
 * queue gets its weight's share of the sectors, with weight (8 - level) * 10
 * from the ioprio level, and groups (bfq_cgroup.c) get theirs by weight at
 * every level of the hierarchy. Classes are strict priorities.
 *
 * Budgets. A queue's next budget depends on why it expired: doubled after
 * a budget timeout, quadrupled after exhausting it (it is sequential and
 * greedy), cut after idling in vain, set to what it used when it emptied.
 * The largest budget (max_budget = 0: automatic) is what the device serves
 * in timeout_sync at the estimated peak rate; the peak rate is measured from
 * dispatches over windows of at least 300 ms and 32 samples. A queue that
 * moves its budget slowly (seeky) is charged for time instead of sectors
 * (the service it would have got at the peak rate): time fairness for
 * random I/O, sector fairness for everything else.
 *
 * Idling. When the in-service sync queue empties, the device may idle for
 * slice_idle waiting for its next request. BFQ idles when it raises
 * throughput (rotational disks, or sequential I/O-bound queues where there
 * is no command queueing) or when service guarantees need it: a
 * weight-raised queue, or weights that differ. With equal weights on a
 * queueing device it does not idle; a queue that comes back soon after
 * emptying gets its old timestamps back (and may preempt) instead. With
 * strict_guarantees BFQ always idles and keeps one request in the device.
 * Idling is a wake-up asked for through next_wakeup(); any hook called at or
 * after the wake-up time first runs the idle-timer decisions as of that
 * time, so the result does not depend on when dispatch() happens to run.
 *
 * Low latency (low_latency=1, bfq_wr.c): a sync queue that becomes busy
 * after 2 s without I/O is deemed interactive and its weight is raised 30x
 * for a duration scaled to the device speed (or until it received 120000
 * sectors); a queue whose I/O is isochronous and under 7000 sectors/s is
 * deemed soft real-time (30x100 for 300 ms, renewed). Raised queues get
 * small budgets, longer idling and may preempt. Queues created in a burst
 * (8 within 180 ms of each other) are never raised.
 *
 * Merging. Requests merge only within the queue the bio belongs to (as
 * CFQ's allow_merge since 2.6.20). Early queue merging: a new request
 * close (4 MiB) to where the in-service queue or another queue is working
 * makes the two processes share one queue, if both are sync, not seeky,
 * and young (first I/O less than 100 ms ago); a shared queue that turns
 * seeky is split again.
 *
 * Tunables, sysfs names and units: slice_idle (ms, 8) and slice_idle_us,
 * timeout_sync (ms, 125), max_budget (sectors, 0 = auto), fifo_expire_sync
 * (ms, 125), fifo_expire_async (ms, 250), back_seek_max (KiB, 16384),
 * back_seek_penalty (2), strict_guarantees (0), low_latency (1). Out of
 * range input is refused, never clamped. See docs/bfq.md for what is
 * simplified (no blk-mq tag depths). As 4.19 as released (4.19.1 read):
 * no I/O injection, which later 4.19.y got by backport.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include "bfq_int.h"
#include "core/builtin.h"

#define BFQQ_SECT_THR_NONROT	64			/* sectors */
#define BFQ_ASYNC_CHARGE_FACTOR	3

static struct bfq_data *bfq_data(struct ios_queue *q)
{
	return q->sched_data;
}

/*
 * Async requests cost more, so that writes cannot steal throughput from
 * reads; 6.12 (async_charge_asym) charges them exactly where the scenario
 * is asymmetric, as weights are then to be honoured as they are.
 */
int ios_bfq_serv_to_charge(const struct ios_request *rq, const struct bfq_queue *bfqq)
{
	if (bfqq_flag(bfqq, BFQQF_sync) || bfqq->wr_coeff > 1)
		return (int)rq->nr_sectors;
	if (bfqq->bfqd && bfqq->bfqd->prof->async_charge_asym &&
	    ios_bfq_asymmetric_scenario(bfqq->bfqd, bfqq))
		return (int)rq->nr_sectors;
	return (int)rq->nr_sectors * BFQ_ASYNC_CHARGE_FACTOR;
}

/* ---- request choice inside a queue ---- */

/*
 * Which of two requests to serve next from @last (the head position): sync
 * before async, metadata first, then the shorter seek, where a backward
 * seek of at most back_seek_max costs back_seek_penalty times its length
 * and a longer one is taken only if both are that far behind.
 */
static struct ios_request *bfq_choose_req(const struct bfq_data *bfqd, struct ios_request *rq1,
					  struct ios_request *rq2, uint64_t last)
{
	uint64_t s1, s2, d1 = 0, d2 = 0, back_max;
	bool wrap1 = false, wrap2 = false;

	if (!rq1 || rq1 == rq2)
		return rq2;
	if (!rq2)
		return rq1;
	if (ios_rq_is_sync(rq1) != ios_rq_is_sync(rq2))
		return ios_rq_is_sync(rq1) ? rq1 : rq2;
	if ((rq1->flags & IOS_REQ_META) != (rq2->flags & IOS_REQ_META))
		return (rq1->flags & IOS_REQ_META) ? rq1 : rq2;

	s1 = rq1->sector;
	s2 = rq2->sector;
	back_max = bfqd->back_max_bytes >> IOS_SECTOR_SHIFT;
	if (s1 >= last)
		d1 = s1 - last;
	else if (s1 + back_max >= last)
		d1 = (last - s1) * (uint64_t)bfqd->back_penalty;
	else
		wrap1 = true;
	if (s2 >= last)
		d2 = s2 - last;
	else if (s2 + back_max >= last)
		d2 = (last - s2) * (uint64_t)bfqd->back_penalty;
	else
		wrap2 = true;

	if (!wrap1 && !wrap2) {
		if (d1 != d2)
			return d1 < d2 ? rq1 : rq2;
		return s1 >= s2 ? rq1 : rq2;
	}
	if (wrap1 != wrap2)
		return wrap2 ? rq1 : rq2;
	/* both far behind: start with the one further back, one long seek only */
	return s1 <= s2 ? rq1 : rq2;
}

/* Once per service slot, an expired FIFO head overrides the sector order. */
static struct ios_request *bfq_check_fifo(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					  struct ios_request *last)
{
	struct ios_request *rq;

	if (bfqq_flag(bfqq, BFQQF_fifo_expire))
		return NULL;
	bfqq_set(bfqq, BFQQF_fifo_expire);
	rq = ios_list_first_entry(&bfqq->fifo, struct ios_request, queuelist);
	if (rq == last || bfqd->now_ns < (int64_t)rq->fifo_time_ns)
		return NULL;
	return rq;
}

/* The request to serve after @last, which is about to leave the queue. */
static struct ios_request *bfq_find_next_rq(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					    struct ios_request *last)
{
	struct ios_request *next, *prev;

	next = bfq_check_fifo(bfqd, bfqq, last);
	if (next)
		return next;
	prev = ios_elv_rb_former(last);
	next = ios_elv_rb_latter(last);
	if (!next) {
		struct ios_rb_node *first = ios_rb_first(&bfqq->sort_list);

		if (first && first != &last->rb_node)
			next = ios_rb_to_rq(first);
	}
	return bfq_choose_req(bfqd, next, prev, last->sector);
}

/*
 * The head request changed: make sure the budget can serve it in one
 * round (not for the in-service queue, whose budget is fixed).
 */
static void bfq_updated_next_req(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_entity *entity = &bfqq->entity;
	int new_budget;

	if (!bfqq->next_rq || bfqq == bfqd->in_service_queue)
		return;
	new_budget = bfqq->max_budget;
	if (bfq_serv_to_charge(bfqq->next_rq, bfqq) > new_budget)
		new_budget = bfq_serv_to_charge(bfqq->next_rq, bfqq);
	if (entity->budget != new_budget) {
		entity->budget = new_budget;
		ios_bfq_requeue_bfqq(bfqd, bfqq, false);
	}
}

/* ---- becoming busy ---- */

/*
 * @bfqq becomes busy. If it expired only because it emptied and its process
 * came back in time, it continues with what was left of its budget (and
 * its timestamps are back-shifted on activation): the process is greedy
 * and must not lose the gap. Returns whether it should try to preempt the
 * in-service queue.
 */
static bool bfq_bfqq_update_budg_for_activation(struct bfq_queue *bfqq, bool arrived_in_time,
						bool wr_or_deserves_wr)
{
	struct bfq_entity *entity = &bfqq->entity;
	int charge;

	if (bfqq_flag(bfqq, BFQQF_non_blocking_wait_rq) && arrived_in_time) {
		int left = bfq_budget_left(bfqq);

		entity->budget = left < bfqq->max_budget ? left : bfqq->max_budget;
		entity->service = 0;
		return true;
	}
	entity->service = 0;
	charge = bfq_serv_to_charge(bfqq->next_rq, bfqq);
	entity->budget = bfqq->max_budget > charge ? bfqq->max_budget : charge;
	bfqq_clear(bfqq, BFQQF_non_blocking_wait_rq);
	/* 4.19: a raised (or deserving) queue may preempt too; 6.12 asks only for a hole */
	return wr_or_deserves_wr && !bfqq->bfqd->prof->preempt_612;
}

/*
 * 6.12 bfq_bfqq_higher_class_or_weight: @bfqq has a higher class than
 * @in_serv, or a higher weight, compared between the queues in one group
 * and between their groups otherwise (a queue of the root by its own).
 */
static bool bfq_bfqq_higher_class_or_weight(const struct bfq_queue *bfqq,
					    const struct bfq_queue *in_serv)
{
	const struct bfq_entity *a = &bfqq->entity, *b = &in_serv->entity;

	if (bfqq->ioprio_class < in_serv->ioprio_class)
		return true;
	if (a->parent != b->parent) {
		a = a->parent ? a->parent : a;
		b = b->parent ? b->parent : b;
	}
	return a->weight > b->weight;
}

/*
 * Should @bfqq, just busy, make the in-service queue expire
 * (bfq_bfqq_handle_idle_busy_switch)? 4.19: it recovers a hole or is
 * raised, and is raised above the in-service queue. 6.12 (preempt_612): it
 * recovers a hole and is raised at least as much; or it has a higher class
 * or weight; or the in-service queue no longer needs idling. Either way
 * only if @bfqq may come next.
 */
static bool bfq_should_preempt(struct bfq_data *bfqd, const struct bfq_queue *bfqq,
			       bool wants_to_preempt)
{
	struct bfq_queue *in_serv = bfqd->in_service_queue;

	if (!bfqd->prof->preempt_612)
		return wants_to_preempt && in_serv->wr_coeff < bfqq->wr_coeff &&
		       ios_bfq_next_queue_may_preempt(bfqd);
	return ((wants_to_preempt && bfqq->wr_coeff >= in_serv->wr_coeff) ||
		bfq_bfqq_higher_class_or_weight(bfqq, in_serv) ||
		!ios_bfq_better_to_idle(bfqd, in_serv)) &&
	       ios_bfq_next_queue_may_preempt(bfqd);
}

static bool bfq_bfqq_idle_for_long_time(const struct bfq_data *bfqd, const struct bfq_queue *bfqq)
{
	return bfqq->dispatched == 0 &&
	       bfqq->budget_timeout_ns + bfqd->wr_min_idle_time_ns < bfqd->now_ns;
}

static void bfq_bfqq_handle_idle_busy_switch(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					     unsigned old_wr_coeff, const struct bfq_io_cq *bic,
					     bool *interactive)
{
	int64_t now = bfqd->now_ns;
	bool idle_for_long_time = bfq_bfqq_idle_for_long_time(bfqd, bfqq);
	bool arrived_in_time = now <= bfqq->last_end_request_ns + 3 * (int64_t)bfqd->slice_idle_ns;
	bool in_burst = bfqq_flag(bfqq, BFQQF_in_large_burst);
	bool soft_rt, wr_or_deserves_wr, wants_to_preempt;

	/* raising needs a sync queue of one process, not in a large burst */
	soft_rt = bfqd->wr_max_softrt_rate > 0 && !in_burst &&
		  bfqq->soft_rt_next_start_ns < now && bfqq->dispatched == 0;
	*interactive = !in_burst && idle_for_long_time;
	/*
	 * A shared queue is not raised, except (6.x) one shared by stable
	 * merge: the processes of one starting application may be interactive.
	 */
	wr_or_deserves_wr = bfqd->low_latency &&
			    (bfqq->wr_coeff > 1 ||
			     (bfqq_flag(bfqq, BFQQF_sync) && (bfqq->bic || (bic && bic->stably_merged)) &&
			      (*interactive || soft_rt)));
	wants_to_preempt = bfq_bfqq_update_budg_for_activation(bfqq, arrived_in_time,
							       wr_or_deserves_wr);

	/* idle for much longer than an interactive queue: out of its burst */
	if (!bfqq_flag(bfqq, BFQQF_just_created) && idle_for_long_time &&
	    bfqq->budget_timeout_ns + (int64_t)(10000 * IOS_NSEC_PER_MSEC) < now) {
		if (!ios_list_unlinked(&bfqq->burst_node))
			ios_list_del(&bfqq->burst_node);
		bfqq_clear(bfqq, BFQQF_in_large_burst);
	}
	bfqq_clear(bfqq, BFQQF_just_created);

	if (!bfqq_flag(bfqq, BFQQF_IO_bound)) {
		if (arrived_in_time) {
			if (++bfqq->requests_within_timer >= bfqd->requests_within_timer)
				bfqq_set(bfqq, BFQQF_IO_bound);
		} else {
			bfqq->requests_within_timer = 0;
		}
	}

	if (bfqd->low_latency && bfqq->split_time_ns + bfqd->wr_min_idle_time_ns < now) {
		ios_bfq_update_bfqq_wr_on_rq_arrival(bfqd, bfqq, old_wr_coeff, wr_or_deserves_wr,
						     *interactive, in_burst, soft_rt);
		if (old_wr_coeff != bfqq->wr_coeff)
			bfqq->entity.prio_changed = true;
	}

	bfqq->last_idle_bklogged_ns = now;
	bfqq->service_from_backlogged = 0;
	bfqq_clear(bfqq, BFQQF_softrt_update);
	ios_bfq_add_bfqq_busy(bfqd, bfqq);

	if (bfqd->in_service_queue && bfq_should_preempt(bfqd, bfqq, wants_to_preempt)) {
		ios_queue_note_owner(bfqd->queue, (uint64_t)bfqd->now_ns, bfqq->pid,
				     IOS_OWN_PREEMPT, 0);
		ios_bfq_bfqq_expire(bfqd, bfqd->in_service_queue, false, BFQQE_PREEMPTED);
	}
}

/* ---- adding and removing requests ---- */

static void bfq_add_request(struct bfq_data *bfqd, struct ios_request *rq,
			    const struct bfq_io_cq *bic)
{
	struct bfq_queue *bfqq = rq->sched_priv[0];
	struct ios_request *prev;
	unsigned old_wr_coeff = bfqq->wr_coeff;
	bool interactive = false;

	bfqq->queued[ios_rq_is_sync(rq)]++;
	bfqd->queued++;
	/* 6.x: waker detection and injection sampling on a process's only request */
	if (bfqd->prof->injection || bfqd->prof->wakers)
		ios_bfq_inject_on_add(bfqd, bfqq, bic);
	ios_elv_rb_add(&bfqq->sort_list, rq);

	prev = bfqq->next_rq;
	bfqq->next_rq = bfq_choose_req(bfqd, bfqq->next_rq, rq, bfqd->last_position);
	if (prev != bfqq->next_rq)
		ios_bfq_pos_tree_add_move(bfqd, bfqq);

	if (!bfqq_flag(bfqq, BFQQF_busy)) {
		bfq_bfqq_handle_idle_busy_switch(bfqd, bfqq, old_wr_coeff, bic, &interactive);
	} else {
		/* async queue with sparse writes: raise it (it is not a flood) */
		if (bfqd->low_latency && old_wr_coeff == 1 && !ios_rq_is_sync(rq) &&
		    bfqq->last_wr_start_finish_ns + bfqd->wr_min_inter_arr_async_ns < bfqd->now_ns) {
			bfqq->wr_coeff = bfqd->wr_coeff;
			bfqq->wr_cur_max_time_ns = ios_bfq_wr_duration(bfqd);
			bfqd->wr_busy_queues++;
			bfqd->wr_starts++;
			bfqq->entity.prio_changed = true;
		}
		if (prev != bfqq->next_rq)
			bfq_updated_next_req(bfqd, bfqq);
	}
	/*
	 * Not raised: remember the arrival (used for async raising). Raising
	 * just started or restarted: this is its start.
	 */
	if (bfqd->low_latency && (old_wr_coeff == 1 || bfqq->wr_coeff == 1 || interactive))
		bfqq->last_wr_start_finish_ns = bfqd->now_ns;
}

static void bfq_remove_request(struct bfq_data *bfqd, struct ios_request *rq)
{
	struct bfq_queue *bfqq = rq->sched_priv[0];

	if (bfqq->next_rq == rq) {
		bfqq->next_rq = bfq_find_next_rq(bfqd, bfqq, rq);
		bfq_updated_next_req(bfqd, bfqq);
	}
	if (!ios_list_unlinked(&rq->queuelist))
		ios_list_del(&rq->queuelist);
	bfqq->queued[ios_rq_is_sync(rq)]--;
	bfqd->queued--;
	ios_elv_rb_del(&bfqq->sort_list, rq);

	if (ios_rb_empty(&bfqq->sort_list)) {
		bfqq->next_rq = NULL;
		if (bfqq_flag(bfqq, BFQQF_busy) && bfqq != bfqd->in_service_queue) {
			ios_bfq_del_bfqq_busy(bfqd, bfqq, false);
			/* emptied out of service: its budget bookkeeping is void */
			bfqq->entity.budget = bfqq->entity.service = 0;
		}
		if (bfqq->pos_root) {
			ios_rb_erase(&bfqq->pos_node, bfqq->pos_root);
			bfqq->pos_root = NULL;
		}
	} else {
		ios_bfq_pos_tree_add_move(bfqd, bfqq);
	}
	if (rq->flags & IOS_REQ_META)
		bfqq->meta_pending--;
}

/* ---- what a queue's process looks like ---- */

static void bfq_update_io_thinktime(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	int64_t elapsed = bfqd->now_ns - bfqq->last_end_request_ns;
	uint64_t cap = 2 * bfqd->slice_idle_ns, e;

	e = elapsed < 0 || (uint64_t)elapsed > cap ? cap : (uint64_t)elapsed;
	bfqq->ttime_samples = (7 * bfqq->ttime_samples + 256) / 8;
	bfqq->ttime_total = (7 * bfqq->ttime_total + 256 * e) / 8;
	bfqq->ttime_mean = (bfqq->ttime_total + 128) / bfqq->ttime_samples;
}

static void bfq_update_io_seektime(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				   const struct ios_request *rq)
{
	uint64_t last = bfqq->last_request_pos, sdist = 0;

	if (last)
		sdist = rq->sector > last ? rq->sector - last : last - rq->sector;
	bool seeky = sdist > BFQQ_SEEK_THR &&
		     (bfq_rotational(bfqd) || rq->nr_sectors < BFQQ_SECT_THR_NONROT);

	/* the bit shifted out leaves the count, the new one enters it */
	bfqq->seek_count -= bfqq->seek_history >> 31;
	bfqq->seek_history = (bfqq->seek_history << 1) | seeky;
	bfqq->seek_count += seeky;
}

static void bfq_update_has_short_ttime(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				       const struct bfq_io_cq *bic)
{
	bool short_ttime = true, changed;

	if (!bfqq_flag(bfqq, BFQQF_sync) || bfq_class_idle(bfqq) || bfqd->slice_idle_ns == 0)
		return;
	/* just split: the statistics are not this process's yet */
	if (bfqq->split_time_ns + bfqd->wr_min_idle_time_ns >= bfqd->now_ns)
		return;
	if ((bic && bic->ioc && bic->ioc->nr_tasks == 0) ||
	    (bfqq->ttime_samples > 80 && bfqq->ttime_mean > bfqd->slice_idle_ns))
		short_ttime = false;
	changed = short_ttime != bfqq_flag(bfqq, BFQQF_has_short_ttime);
	if (short_ttime)
		bfqq_set(bfqq, BFQQF_has_short_ttime);
	else
		bfqq_clear(bfqq, BFQQF_has_short_ttime);
	/*
	 * 6.x (injection): without a baseline the limit follows the think
	 * time (0 short, 1 long); a change resets it, at once towards long,
	 * after 100 ms of stability towards short (bfq_update_has_short_ttime).
	 */
	if (bfqd->prof->injection && changed && bfqq->last_serv_time_ns == 0 &&
	    (bfqq->decrease_time_ns + (int64_t)(100 * IOS_NSEC_PER_MSEC) <= bfqd->now_ns ||
	     !short_ttime))
		ios_bfq_reset_inject_limit(bfqd, bfqq);
}

static void bfq_rq_enqueued(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct ios_request *rq,
			    const struct bfq_io_cq *bic)
{
	if (rq->flags & IOS_REQ_META)
		bfqq->meta_pending++;
	bfq_update_io_thinktime(bfqd, bfqq);
	bfq_update_has_short_ttime(bfqd, bfqq, bic);
	bfq_update_io_seektime(bfqd, bfqq, rq);
	bfqq->last_request_pos = ios_rq_end(rq);

	if (bfqq == bfqd->in_service_queue && bfqq_flag(bfqq, BFQQF_wait_request)) {
		bool small_req = bfqq->queued[ios_rq_is_sync(rq)] == 1 && rq->nr_sectors < 32;
		bool budget_timeout = bfq_budget_timeout_passed(bfqd, bfqq);

		/*
		 * A lone small request: keep the idle window in the hope more
		 * merges into it before the queue is run.
		 */
		if (small_req && !budget_timeout &&
		    (!bfqd->prof->small_rq_idle_612 || ios_bfq_idling_boosts_thr(bfqd, bfqq)))
			return;
		bfqq_clear(bfqq, BFQQF_wait_request);
		if (budget_timeout)
			ios_bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_BUDGET_TIMEOUT);
	}
}

/* ---- service slots ---- */

/* The longest a queue may hold the device; raised queues get longer. */
static void bfq_set_budget_timeout(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	unsigned coeff;

	if (bfqq->wr_cur_max_time_ns == bfqd->wr_rt_max_time_ns)
		coeff = 1;
	else
		coeff = bfqq->entity.weight / bfqq->entity.orig_weight;
	bfqd->last_budget_start_ns = bfqd->now_ns;
	bfqq->budget_timeout_ns = bfqd->now_ns + (int64_t)(bfqd->timeout_ns * coeff);
}

static void __bfq_set_in_service_queue(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	int64_t now = bfqd->now_ns;

	if (bfqq) {
		bfqq_clear(bfqq, BFQQF_fifo_expire);
		bfqd->budgets_assigned = (bfqd->budgets_assigned * 7 + 256) / 8;
		/*
		 * A soft real-time queue kept waiting does not lose raising
		 * time: its raising start moves forward by the wait.
		 */
		if (bfqq->last_wr_start_finish_ns < now && bfqq->wr_coeff > 1 &&
		    bfqq->wr_cur_max_time_ns == bfqd->wr_rt_max_time_ns &&
		    bfqq->budget_timeout_ns < now) {
			if (bfqq->budget_timeout_ns > bfqq->last_wr_start_finish_ns)
				bfqq->last_wr_start_finish_ns += now - bfqq->budget_timeout_ns;
			else
				bfqq->last_wr_start_finish_ns = now;
		}
		bfq_set_budget_timeout(bfqd, bfqq);
		bfq_log_bfqq(bfqd, bfqq, "set_in_service budget %d wr %u weight %u",
			     bfqq->entity.budget, bfqq->wr_coeff, bfqq->entity.weight);
		ios_queue_note_owner(bfqd->queue, (uint64_t)now, bfqq->pid, IOS_OWN_SLICE_START, 0);
	}
	bfqd->in_service_queue = bfqq;
}

static struct bfq_queue *bfq_set_in_service_queue(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = ios_bfq_get_next_queue(bfqd);

	__bfq_set_in_service_queue(bfqd, bfqq);
	return bfqq;
}

/*
 * 6.x: the in-service queue @bfqq is empty and the device idles for it.
 * Whose request goes into the hole (bfq_select_queue's four choices, in
 * order)? Its own process's async I/O; its waker's I/O; the I/O of a queue
 * it wakes; or, when idling is not for throughput and @bfqq is not a
 * raised queue with a short think time, another queue's up to its
 * inject_limit. NULL: none, the device idles.
 */
static bool bfq_can_serve(const struct bfq_queue *q)
{
	return q && bfqq_flag(q, BFQQF_busy) && q->next_rq &&
	       bfq_serv_to_charge(q->next_rq, q) <= bfq_budget_left(q);
}

static struct bfq_queue *bfq_choose_hole_filler(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	const struct bfq_profile *prof = bfqd->prof;
	struct bfq_queue *async = bfqq->bic ? bfqq->bic->bfqq[0] : NULL;
	struct bfq_queue *blocked = NULL;

	if (prof->wakers && !ios_list_empty(&bfqq->woken_list))
		blocked = ios_list_first_entry(&bfqq->woken_list, struct bfq_queue, woken_node);
	if (prof->injection && bfq_can_serve(async) && async->next_rq->ioc == bfqq->bic->ioc)
		return async;
	if (prof->wakers && bfq_can_serve(bfqq->waker_bfqq))
		return bfqq->waker_bfqq;
	if (prof->wakers && bfq_can_serve(blocked))
		return blocked;
	if (prof->injection && !ios_bfq_idling_boosts_thr(bfqd, bfqq) &&
	    (bfqq->wr_coeff == 1 || bfqd->wr_busy_queues > 1 ||
	     !bfqq_flag(bfqq, BFQQF_has_short_ttime)))
		return ios_bfq_choose_bfqq_for_injection(bfqd);
	return NULL;
}

/* Keep the in-service queue or expire it and pick the next; NULL: wait. */
static struct bfq_queue *bfq_select_queue(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue;
	enum bfq_expiration reason = BFQQE_BUDGET_TIMEOUT;

	if (!bfqq)
		goto new_queue;
	if (ios_bfq_may_expire_for_budg_timeout(bfqd, bfqq) && !ios_bfq_bfqq_must_idle(bfqd, bfqq))
		goto expire;
check_queue:
	if (bfqq->next_rq) {
		if (bfq_serv_to_charge(bfqq->next_rq, bfqq) > bfq_budget_left(bfqq)) {
			/* the next budget is made large enough for it */
			reason = BFQQE_BUDGET_EXHAUSTED;
			goto expire;
		}
		bfqq_clear(bfqq, BFQQF_wait_request);
		return bfqq;
	}
	/* empty: keep it while idling, or while it may idle after completions */
	if (!bfqd->draining && (bfqq_flag(bfqq, BFQQF_wait_request) ||
				(bfqq->dispatched != 0 && ios_bfq_better_to_idle(bfqd, bfqq))))
		return bfqd->prof->injection || bfqd->prof->wakers
			       ? bfq_choose_hole_filler(bfqd, bfqq)
			       : NULL;
	reason = BFQQE_NO_MORE_REQUESTS;
expire:
	ios_bfq_bfqq_expire(bfqd, bfqq, false, reason);
new_queue:
	bfqq = bfq_set_in_service_queue(bfqd);
	if (bfqq)
		goto check_queue;
	return NULL;
}

static struct ios_request *bfq_dispatch_rq_from_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct ios_request *rq = bfqq->next_rq;

	ios_bfq_bfqq_served(bfqq, bfq_serv_to_charge(rq, bfqq));
	/* 6.x injection: time the in-service queue's first request after a hole */
	if (bfqq == bfqd->in_service_queue && bfqd->wait_dispatch) {
		bfqd->wait_dispatch = false;
		bfqd->waited_rq = rq;
	}
	bfqq->dispatched++;
	ios_bfq_update_peak_rate(bfqd, rq);
	bfq_remove_request(bfqd, rq);
	/* 6.x: a request injected for another queue's hole; bfqq is not in service */
	if (bfqq != bfqd->in_service_queue) {
		bfqd->injected++;
		bfq_log_bfqq(bfqd, bfqq, "injected %llu+%u", (unsigned long long)rq->sector,
			     rq->nr_sectors);
		return rq;
	}
	ios_bfq_update_wr_data(bfqd, bfqq);
	/* the idle class gives way after every request when others wait */
	if (bfqd->busy_queues > 1 && bfq_class_idle(bfqq))
		ios_bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_BUDGET_EXHAUSTED);
	return rq;
}

/*
 * Every hook with a time starts here. Times are kept signed (see
 * BFQ_T_NEVER); beyond 2^62 ns (146 years, a drain at "the end of time")
 * they stop growing, so that adding a timeout cannot overflow.
 */
static void bfq_set_now(struct bfq_data *bfqd, uint64_t now_ns)
{
	bfqd->now_ns = now_ns > BFQ_T_MAX ? BFQ_T_MAX : (int64_t)now_ns;
	ios_bfq_idle_timer_fire(bfqd);
}

/* ---- hooks ---- */

static void bfq_init_oom_queue(struct bfq_data *bfqd)
{
	struct bfq_queue *oom = &bfqd->oom_bfqq;

	ios_rb_clear(&oom->entity.rb_node);
	ios_rb_clear(&oom->pos_node);
	oom->sort_list = IOS_RB_ROOT;
	ios_list_init(&oom->fifo);
	ios_list_init(&oom->burst_node);
	ios_list_init(&oom->all_node);
	ios_list_init(&oom->active_node);
	ios_list_init(&oom->woken_list);
	ios_list_init(&oom->woken_node);
	oom->bfqd = bfqd;
	oom->ref = 1;		/* never freed */
	oom->wr_coeff = 1;
	oom->seek_history = 1;
	oom->seek_count = 1;
	oom->budget_timeout_ns = BFQ_T_NEVER;
	oom->split_time_ns = BFQ_T_NEVER;
	oom->wr_start_at_switch_to_srt_ns = BFQ_T_NEVER;
	oom->max_budget = 2 * BFQ_DEFAULT_MAX_BUDGET / 3;
	bfqq_set(oom, BFQQF_IO_bound);
	oom->new_ioprio = IOS_IOPRIO_NORM;
	oom->new_ioprio_class = IOS_IOPRIO_CLASS_BE;
	oom->entity.new_weight = bfq_ioprio_to_weight(IOS_IOPRIO_NORM);
	oom->entity.prio_changed = true;
	ios_bfq_init_entity(&oom->entity, bfqd->root_group);
}

static int bfq_init(struct ios_queue *q)
{
	struct bfq_data *bfqd = bfq_data(q);

	bfqd->queue = q;
	bfqd->now_ns = 0;
	/* every BFQ descriptor carries its release; a bare one is 4.19 */
	bfqd->prof = q->sched->profile ? q->sched->profile : &ios_bfq_profile_419;
	ios_list_init(&bfqd->active_list);
	/* bfq_init_queue (6.x): flash is assumed to queue until hw_tag says otherwise */
	bfqd->nonrot_with_queueing = !q->rotational;
	ios_list_init(&bfqd->bics);
	ios_list_init(&bfqd->all_queues);
	ios_list_init(&bfqd->dispatch);
	ios_list_init(&bfqd->burst_list);
	if (ios_bfq_bic_map_init(&bfqd->bic_map))
		return -ENOMEM;
	bfqd->root_group = ios_bfq_group_root_create(bfqd);
	if (!bfqd->root_group) {
		ios_bfq_bic_map_free(&bfqd->bic_map);
		return -ENOMEM;
	}
	bfqd->hw_tag = -1;
	bfqd->max_budget = bfqd->user_max_budget ? bfqd->user_max_budget : BFQ_DEFAULT_MAX_BUDGET;
	bfqd->requests_within_timer = 120;
	bfqd->large_burst_thresh = 8;
	bfqd->burst_interval_ns = 180 * IOS_NSEC_PER_MSEC;
	bfqd->last_ins_in_burst_ns = BFQ_T_NEVER;
	bfqd->wr_coeff = 30;
	bfqd->wr_rt_max_time_ns = 300 * IOS_NSEC_PER_MSEC;
	bfqd->wr_min_idle_time_ns = 2000 * IOS_NSEC_PER_MSEC;
	bfqd->wr_min_inter_arr_async_ns = 500 * IOS_NSEC_PER_MSEC;
	bfqd->wr_max_softrt_rate = 7000;
	ios_bfq_init_peak_rate(bfqd);
	/* as Linux's strict_guarantees store: idling must be long enough to matter */
	if (bfqd->strict_guarantees && bfqd->slice_idle_ns < 8 * IOS_NSEC_PER_MSEC)
		bfqd->slice_idle_ns = 8 * IOS_NSEC_PER_MSEC;
	bfq_init_oom_queue(bfqd);
	return 0;
}

/* Everything is empty: free contexts, queues and groups without touching any ioc. */
static void bfq_exit(struct ios_queue *q)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct ios_list_head *pos, *tmp;

	IOS_BUG_ON(bfqd->queued != 0 || !ios_list_empty(&bfqd->dispatch));
	ios_list_for_each_safe(pos, tmp, &bfqd->bics)
		free(ios_list_entry(pos, struct bfq_io_cq, node));
	ios_list_for_each_safe(pos, tmp, &bfqd->all_queues)
		free(ios_list_entry(pos, struct bfq_queue, all_node));
	ios_list_init(&bfqd->bics);
	ios_list_init(&bfqd->all_queues);
	ios_bfq_groups_free(bfqd);
	ios_bfq_bic_map_free(&bfqd->bic_map);
}

static void bfq_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
		       unsigned flags)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_io_cq *bic;
	struct bfq_queue *bfqq, *new_bfqq;

	bfq_set_now(bfqd, now_ns);
	bfqq = ios_bfq_init_rq(bfqd, rq, &bic);
	if (flags & (IOS_INSERT_FRONT | IOS_INSERT_REQUEUE)) {
		ios_rb_clear(&rq->rb_node);
		ios_list_add(&rq->queuelist, &bfqd->dispatch);
		return;
	}
	/* early queue merge with a cooperating process */
	new_bfqq = bic ? ios_bfq_setup_cooperator(bfqd, bfqq, rq->sector, bic) : NULL;
	if (new_bfqq) {
		if (bic->bfqq[1] != bfqq)
			new_bfqq = bic->bfqq[1];
		bfq_request_allocated(new_bfqq, 1);
		new_bfqq->ref++;
		if (bic->bfqq[1] == bfqq)
			ios_bfq_merge_bfqqs(bfqd, bic, bfqq, new_bfqq);
		bfqq_clear(bfqq, BFQQF_just_created);
		rq->sched_priv[0] = new_bfqq;
		bfq_request_allocated(bfqq, -1);
		ios_bfq_put_queue(bfqq);	/* the request's reference moved too */
		bfqq = new_bfqq;
	}
	bfq_add_request(bfqd, rq, bic);
	rq->fifo_time_ns = now_ns + bfqd->fifo_expire_ns[ios_rq_is_sync(rq)];
	ios_list_add_tail(&rq->queuelist, &bfqq->fifo);
	bfq_rq_enqueued(bfqd, bfqq, rq, bic);
}

static struct ios_request *bfq_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct ios_request *rq;
	struct bfq_queue *bfqq;

	bfq_set_now(bfqd, now_ns);
	if (!ios_list_empty(&bfqd->dispatch)) {
		rq = ios_list_first_entry(&bfqd->dispatch, struct ios_request, queuelist);
		ios_list_del(&rq->queuelist);
		bfqq = rq->sched_priv[0];
		bfqq->dispatched++;
		bfqd->rq_in_driver++;
		return rq;
	}
	if (bfqd->busy_queues == 0)
		return NULL;
	/* one request at a time: the device must not reorder what BFQ chose */
	if (bfqd->strict_guarantees && bfqd->rq_in_driver > 0 && !(flags & IOS_DISPATCH_FORCE))
		return NULL;
	bfqd->draining = (flags & IOS_DISPATCH_FORCE) != 0;
	bfqq = bfq_select_queue(bfqd);
	rq = bfqq ? bfq_dispatch_rq_from_bfqq(bfqd, bfqq) : NULL;
	bfqd->draining = false;
	if (rq)
		bfqd->rq_in_driver++;
	return rq;
}

static bool bfq_has_work(struct ios_queue *q)
{
	struct bfq_data *bfqd = bfq_data(q);

	return bfqd->queued > 0 || !ios_list_empty(&bfqd->dispatch);
}

static void bfq_completed_request(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	int64_t now = bfqd->now_ns;
	uint64_t delta_us;

	ios_bfq_update_hw_tag(bfqd);
	bfqd->rq_in_driver--;
	bfqq->dispatched--;
	if (!bfqq->dispatched && !bfqq_flag(bfqq, BFQQF_busy)) {
		bfqq->budget_timeout_ns = now;	/* empty and idle since now */
		ios_bfq_weights_tree_remove(bfqd, bfqq);
	}
	bfqq->last_end_request_ns = now;

	/*
	 * A completion so late that the largest recent request moved at
	 * under 1M sectors/s: the window up to here cannot measure the peak
	 * rate.
	 */
	delta_us = (uint64_t)(now - bfqd->last_completion_ns) / IOS_NSEC_PER_USEC;
	if (delta_us > BFQ_MIN_TT_NS / IOS_NSEC_PER_USEC &&
	    ((uint64_t)bfqd->last_rq_max_size << BFQ_RATE_SHIFT) / delta_us <
		    (1ULL << (BFQ_RATE_SHIFT - 10)))
		ios_bfq_update_rate_reset(bfqd, NULL);
	bfqd->last_completion_ns = now;
	/*
	 * 6.x wakers: remember whose completion this was; a shared queue gets
	 * I/O at a high rate and would pass for everyone's waker.
	 */
	if (bfqd->prof->wakers)
		bfqd->last_completed_rq_bfqq = bfqq_flag(bfqq, BFQQF_coop) ? NULL : bfqq;

	if (bfqq_flag(bfqq, BFQQF_softrt_update) && bfqq->dispatched == 0 &&
	    ios_rb_empty(&bfqq->sort_list))
		bfqq->soft_rt_next_start_ns = ios_bfq_bfqq_softrt_next_start(bfqd, bfqq);

	if (bfqd->in_service_queue != bfqq)
		return;
	if (ios_bfq_bfqq_must_idle(bfqd, bfqq)) {
		/* idle once the last request is back; never expire it meanwhile */
		if (bfqq->dispatched == 0)
			ios_bfq_arm_slice_timer(bfqd);
		return;
	}
	if (ios_bfq_may_expire_for_budg_timeout(bfqd, bfqq))
		ios_bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_BUDGET_TIMEOUT);
	else if (ios_rb_empty(&bfqq->sort_list) &&
		 (bfqq->dispatched == 0 || !ios_bfq_better_to_idle(bfqd, bfqq)))
		ios_bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_NO_MORE_REQUESTS);
}

static void bfq_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_queue *bfqq = rq->sched_priv[0];

	if (!bfqq)
		return;
	bfq_set_now(bfqd, now_ns);
	/* 6.x injection: the timed request is back (while still counted in the driver) */
	if (bfqd->prof->injection && rq == bfqd->waited_rq)
		ios_bfq_update_inject_limit(bfqd, bfqq);
	/* the request's reference keeps bfqq alive through this */
	bfq_completed_request(bfqd, bfqq);
	ios_bfq_finish_rq(rq);
}

/* The device gave @rq back: undo its dispatch and serve it first. */
static void bfq_requeue(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_queue *bfqq = rq->sched_priv[0];

	bfq_set_now(bfqd, now_ns);
	if (bfqq) {
		bfqq->dispatched--;
		bfqd->rq_in_driver--;
	}
	ios_rb_clear(&rq->rb_node);
	ios_list_add(&rq->queuelist, &bfqd->dispatch);
	if (!bfqq) {
		struct bfq_io_cq *bic;

		ios_bfq_init_rq(bfqd, rq, &bic);
	}
}

static bool bfq_on_dispatch_list(const struct ios_request *rq)
{
	return ios_rb_unlinked(&rq->rb_node);
}

/*
 * A bio may join only a request of the queue it would itself go to (sync
 * never into async). This is also where cooperating processes are noticed
 * first: their bios land close to each other.
 */
static bool bfq_allow_merge(struct ios_queue *q, struct ios_request *rq, const struct ios_bio *bio)
{
	struct bfq_data *bfqd = bfq_data(q);
	bool is_sync = ios_bio_is_sync(bio);
	struct bfq_queue *bfqq, *new_bfqq;
	struct bfq_io_cq *bic;

	if (is_sync && !ios_rq_is_sync(rq))
		return false;
	bic = ios_bfq_bic_lookup(bfqd, bio->ioc);
	bfqq = bic ? bic->bfqq[is_sync] : NULL;
	if (!bfqq)
		return false;
	new_bfqq = ios_bfq_setup_cooperator(bfqd, bfqq, bio->sector, bic);
	if (new_bfqq) {
		ios_bfq_merge_bfqqs(bfqd, bic, bfqq, new_bfqq);
		bfqq = new_bfqq;
	}
	return bfqq == rq->sched_priv[0];
}

static enum ios_merge bfq_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
				    struct ios_request **out)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_io_cq *bic = ios_bfq_bic_lookup(bfqd, bio->ioc);
	struct bfq_queue *bfqq = bic ? bic->bfqq[ios_bio_is_sync(bio)] : NULL;
	struct ios_request *rq;

	if (!bfqq || !bio->nr_sectors)
		return IOS_NO_MERGE;
	rq = ios_elv_rb_find(&bfqq->sort_list, bio->sector + bio->nr_sectors);
	if (!rq)
		return IOS_NO_MERGE;
	*out = rq;
	return IOS_FRONT_MERGE;
}

static void bfq_request_merged(struct ios_queue *q, struct ios_request *rq, enum ios_merge type)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_queue *bfqq = rq->sched_priv[0];
	struct ios_request *prev, *former;

	if (type != IOS_FRONT_MERGE || !bfqq || bfq_on_dispatch_list(rq))
		return;
	/*
	 * As 4.19: the queue's next request is reconsidered only when the
	 * grown request now sorts before its predecessor, even if it got
	 * nearer the head without moving.
	 */
	former = ios_elv_rb_former(rq);
	if (former && rq->sector < former->sector) {
		ios_elv_rb_del(&bfqq->sort_list, rq);
		ios_elv_rb_add(&bfqq->sort_list, rq);
		prev = bfqq->next_rq;
		bfqq->next_rq = bfq_choose_req(bfqd, bfqq->next_rq, rq, bfqd->last_position);
		if (prev != bfqq->next_rq)
			bfq_updated_next_req(bfqd, bfqq);
	}
	/* the head's sector moved: keep the position tree ordered */
	if (bfqq->next_rq == rq)
		ios_bfq_pos_tree_add_move(bfqd, bfqq);
}

static void bfq_requests_merged(struct ios_queue *q, struct ios_request *rq,
				struct ios_request *next)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_queue *bfqq = rq->sched_priv[0], *next_bfqq = next->sched_priv[0];

	if (bfq_on_dispatch_list(next)) {
		ios_list_del(&next->queuelist);
		if (next_bfqq)
			ios_bfq_finish_rq(next);
		return;
	}
	/* the survivor inherits an older FIFO position */
	if (bfqq == next_bfqq && !bfq_on_dispatch_list(rq) &&
	    next->fifo_time_ns < rq->fifo_time_ns) {
		ios_list_del(&rq->queuelist);
		ios_list_add(&rq->queuelist, &next->queuelist);
		rq->fifo_time_ns = next->fifo_time_ns;
	}
	if (bfqq && bfqq->next_rq == next)
		bfqq->next_rq = rq;
	bfq_remove_request(bfqd, next);
	ios_bfq_finish_rq(next);
}

static struct ios_request *bfq_former(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return bfq_on_dispatch_list(rq) ? NULL : ios_elv_rb_former(rq);
}

static struct ios_request *bfq_latter(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return bfq_on_dispatch_list(rq) ? NULL : ios_elv_rb_latter(rq);
}

static uint64_t bfq_next_wakeup(struct ios_queue *q)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_queue *bfqq = bfqd->in_service_queue;

	if (bfqq && bfqq_flag(bfqq, BFQQF_wait_request))
		return (uint64_t)bfqd->idle_end_ns;
	return IOS_NO_WAKEUP;
}

static void bfq_exit_icq(struct ios_queue *q, struct ios_ioc *ioc, uint64_t now)
{
	struct bfq_data *bfqd = bfq_data(q);
	struct bfq_io_cq *bic = ios_bfq_bic_lookup(bfqd, ioc);

	if (!bic)
		return;
	/* its queue loses its owner now: the time in service so far is the process's */
	if (bic->bfqq[1] && bic->bfqq[1] == bfqd->in_service_queue)
		ios_bfq_charge_owner(bfqd, bic->bfqq[1], (int64_t)now);
	ios_bfq_bic_release(bfqd, bic);
}

/* ---- blk-mq hooks (6.x) ---- */

/*
 * limit_depth (bfq_limit_depth): @opf carries IOS_REQ_* with IOS_WRITE in
 * bit 31; op_is_sync is a read, or a write with SYNC, FUA or PREFLUSH.
 */
static unsigned bfq_mq_limit_depth(struct ios_queue *q, unsigned opf, const struct ios_ioc *ioc)
{
	struct bfq_data *bfqd = bfq_data(q);
	bool write = (opf >> 31) & 1u;
	bool sync = !write || (opf & (IOS_REQ_SYNC | IOS_REQ_FUA | IOS_REQ_PREFLUSH));
	unsigned depth = ios_bfq_limit_depth(bfqd, sync, write);
	/* the tags this class of allocation may use, what the weights share out */
	unsigned limit = depth ? (q->nr_requests * depth) >> bfqd->full_depth_shift : q->nr_requests;

	if (bfqd->prof->cgroup_request_cap && ios_bfq_request_over_limit(bfqd, ioc, sync, limit))
		depth = 1;
	return depth;
}

/* bfq_depth_updated: the per-word caps follow the scheduler tag depth. */
static void bfq_mq_depth_updated(struct ios_queue *q)
{
	ios_bfq_update_depths(bfq_data(q), q->nr_requests);
}

/* bfq_init_hctx: one state for every hardware queue; it only sets the caps. */
static int bfq_mq_init_hctx(struct ios_queue *q, unsigned hctx)
{
	(void)hctx;
	bfq_mq_depth_updated(q);
	return 0;
}

static const struct ios_sched_mq_ops bfq_mq_ops = {
	.limit_depth = bfq_mq_limit_depth,
	.depth_updated = bfq_mq_depth_updated,
	.init_hctx = bfq_mq_init_hctx,
};

/* ---- tables ---- */

/*
 * The sysfs files, the same in 4.19 and 6.12. Both kernels' stores clamp
 * (STORE_FUNCTION; max_budget and timeout_sync at INT_MAX, the booleans at
 * 1); the lab refuses out-of-range input and bounds times at an hour. The
 * 6.12 table carries IOS_TUN_KCLAMP so the refusal says the kernel would
 * clamp; the 4.19 table keeps the messages the seeds' runs printed.
 */
#define BFQ_TUNABLES(kf)                                                                    \
	{ .name = "slice_idle", .type = IOS_TUN_TIME,                                         \
	  .offset = offsetof(struct bfq_data, slice_idle_ns),                                 \
	  .min = 0, .max = 3600000, .def = "8", .unit = "ms", .flags = (kf),                  \
	  .help = "how long the device may idle for the in-service sync queue's next request" }, \
	{ .name = "slice_idle_us", .type = IOS_TUN_TIME,                                      \
	  .offset = offsetof(struct bfq_data, slice_idle_ns),                                 \
	  .min = 0, .max = 3600000000LL, .def = "8000", .unit = "us", .flags = (kf),          \
	  .help = "slice_idle in microseconds (the same setting)" },                          \
	{ .name = "timeout_sync", .type = IOS_TUN_TIME,                                       \
	  .offset = offsetof(struct bfq_data, timeout_ns),                                    \
	  .min = 1, .max = 3600000, .def = "125", .unit = "ms", .flags = (kf),                \
	  .help = "budget timeout: the longest a queue keeps the device once selected" },     \
	{ .name = "max_budget", .type = IOS_TUN_INT,                                          \
	  .offset = offsetof(struct bfq_data, user_max_budget),                               \
	  .min = 0, .max = INT_MAX, .def = "0", .unit = "sectors", .flags = (kf),             \
	  .help = "largest budget; 0: what the estimated peak rate serves in timeout_sync" }, \
	{ .name = "fifo_expire_sync", .type = IOS_TUN_TIME,                                   \
	  .offset = offsetof(struct bfq_data, fifo_expire_ns[1]),                             \
	  .min = 1, .max = 3600000, .def = "125", .unit = "ms", .flags = (kf),                \
	  .help = "age after which a sync request is served out of sector order (once per slot)" }, \
	{ .name = "fifo_expire_async", .type = IOS_TUN_TIME,                                  \
	  .offset = offsetof(struct bfq_data, fifo_expire_ns[0]),                             \
	  .min = 1, .max = 3600000, .def = "250", .unit = "ms", .flags = (kf),                \
	  .help = "age after which an async request is served out of sector order (once per slot)" }, \
	{ .name = "back_seek_max", .type = IOS_TUN_SIZE,                                      \
	  .offset = offsetof(struct bfq_data, back_max_bytes),                                \
	  .min = 0, .max = INT_MAX, .def = "16384", .unit = "KiB", .flags = (kf),             \
	  .help = "farthest backward seek still preferred to a forward one" },                \
	{ .name = "back_seek_penalty", .type = IOS_TUN_INT,                                   \
	  .offset = offsetof(struct bfq_data, back_penalty),                                  \
	  .min = 1, .max = INT_MAX, .def = "2", .unit = "", .flags = (kf),                    \
	  .help = "a backward seek costs this many times a forward seek as long" },           \
	{ .name = "strict_guarantees", .type = IOS_TUN_BOOL,                                  \
	  .offset = offsetof(struct bfq_data, strict_guarantees),                             \
	  .min = 0, .max = 1, .def = "0", .unit = "", .flags = (kf),                          \
	  .help = "always idle, one request in the device at a time (raises slice_idle to 8 ms)" }, \
	{ .name = "low_latency", .type = IOS_TUN_BOOL,                                        \
	  .offset = offsetof(struct bfq_data, low_latency),                                   \
	  .min = 0, .max = 1, .def = "1", .unit = "", .flags = (kf),                          \
	  .help = "weight raising for interactive and soft real-time queues" },               \
	{ .name = NULL }

static const struct ios_tunable bfq_tunables[] = { BFQ_TUNABLES(0) };
static const struct ios_tunable bfq_612_tunables[] = { BFQ_TUNABLES(IOS_TUN_KCLAMP) };

#define BFQ_STAT_INT(n, field, h)                                                \
	{ .name = n, .type = IOS_TUN_INT, .offset = offsetof(struct bfq_data, field), \
	  .min = INT_MIN, .max = INT_MAX, .unit = "", .flags = IOS_TUN_RO, .help = h }
#define BFQ_STAT_U64(n, field, h)                                                \
	{ .name = n, .type = IOS_TUN_U64, .offset = offsetof(struct bfq_data, field), \
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO, .help = h }

#define BFQ_COMMON_STATS                                                                     \
	BFQ_STAT_INT("busy_queues", busy_queues, "queues with requests (or in service)"),     \
	BFQ_STAT_INT("wr_busy_queues", wr_busy_queues, "busy queues being weight-raised"),    \
	BFQ_STAT_INT("queued", queued, "requests queued in the scheduler"),                   \
	BFQ_STAT_INT("max_budget", max_budget, "current largest budget, sectors"),            \
	BFQ_STAT_INT("budgets_assigned", budgets_assigned,                                    \
		     "filtered count of service slots (194+: max_budget is trusted)"),          \
	BFQ_STAT_INT("hw_tag", hw_tag, "device queues commands: 1, 0, -1 not known yet"),     \
	BFQ_STAT_U64("peak_rate", peak_rate_sps, "estimated peak rate, sectors/s"),           \
	BFQ_STAT_U64("expired_too_idle", expirations[BFQQE_TOO_IDLE],                         \
		     "slots ended by an idle window without a request"),                       \
	BFQ_STAT_U64("expired_budget_timeout", expirations[BFQQE_BUDGET_TIMEOUT],             \
		     "slots ended by timeout_sync"),                                           \
	BFQ_STAT_U64("expired_budget_exhausted", expirations[BFQQE_BUDGET_EXHAUSTED],         \
		     "slots ended by a used-up budget"),                                       \
	BFQ_STAT_U64("expired_no_more_requests", expirations[BFQQE_NO_MORE_REQUESTS],         \
		     "slots ended by an empty queue not worth idling for"),                    \
	BFQ_STAT_U64("expired_preempted", expirations[BFQQE_PREEMPTED],                       \
		     "slots ended by a weight-raised queue"),                                  \
	BFQ_STAT_U64("idle_windows", idle_arms, "idle windows opened"),                       \
	BFQ_STAT_U64("queue_merges", queue_merges, "processes moved to a shared queue (EQM)"), \
	BFQ_STAT_U64("queue_splits", queue_splits, "processes split off a shared queue"),     \
	BFQ_STAT_U64("wr_starts", wr_starts, "weight-raising periods started"),               \
	BFQ_STAT_U64("queues_created", nr_queues_created, "process and async queues created")

static const struct ios_tunable bfq_stats[] = {
	BFQ_COMMON_STATS,
	{ .name = NULL },
};

static const struct ios_tunable bfq_612_stats[] = {
	BFQ_COMMON_STATS,
	BFQ_STAT_U64("injected", injected,
		     "requests dispatched into another queue's idle window (injection, wakers)"),
	BFQ_STAT_U64("wakers_found", wakers_found, "waker queues confirmed (3 detections)"),
	BFQ_STAT_U64("stable_merges", stable_merges, "queues merged for good (stable merge)"),
	{ .name = NULL },
};

#undef BFQ_STAT_INT
#undef BFQ_STAT_U64

/* io.bfq.weight: 1..1000, default 100; groups nest (bfq_cgroup.c) */
static const struct ios_sched_cgroups bfq_cgroups = {
	.groups = true,
	.weight_min = BFQ_MIN_WEIGHT,
	.weight_max = BFQ_MAX_WEIGHT,
	.weight_default = BFQ_DEFAULT_GRP_WEIGHT,
	.weight_file = "io.bfq.weight",
	.nested = true,
};

/* The hooks both releases share; what differs is in the profile. */
#define BFQ_OPS                                    \
	{                                          \
		.init = bfq_init,                  \
		.exit = bfq_exit,                  \
		.insert = bfq_insert,              \
		.dispatch = bfq_dispatch,          \
		.has_work = bfq_has_work,          \
		.completed = bfq_completed,        \
		.requeue = bfq_requeue,            \
		.allow_merge = bfq_allow_merge,    \
		.bio_merge = bfq_bio_merge,        \
		.request_merged = bfq_request_merged, \
		.requests_merged = bfq_requests_merged, \
		.former = bfq_former,              \
		.latter = bfq_latter,              \
		.next_wakeup = bfq_next_wakeup,    \
		.exit_icq = bfq_exit_icq,          \
	}

/*
 * The seeds' BFQ: 4.19 on the single-queue layer. One descriptor allows one
 * alias; `bfq` had none, so `bfq-4.19` is it.
 */
const struct ios_sched_type ios_sched_bfq = {
	.name = "bfq",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = "bfq-4.19",
	.desc = "budget fair queueing: B-WF2Q+ over per-process sector budgets, groups, "
		"low-latency weight raising (Linux 4.19 BFQ)",
	.ops = BFQ_OPS,
	.tunables = bfq_tunables,
	.stats = bfq_stats,
	.priv_size = sizeof(struct bfq_data),
	.features = IOS_SCHED_IDLES | IOS_SCHED_CHARGES_TIME,
	.cgroups = &bfq_cgroups,
	.profile = &ios_bfq_profile_419,
	.share_model = IOS_SHARE_BFQ_WEIGHT,
};

/* Today's BFQ: 6.12 on blk-mq, the same code with the 6.12 profile. */
const struct ios_sched_type ios_sched_bfq_612 = {
	.name = "bfq-6.12",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "budget fair queueing as in Linux 6.12 (blk-mq): 4.19's BFQ plus tag caps, "
		"I/O injection, waker queues, stable merge",
	.ops = BFQ_OPS,
	.tunables = bfq_612_tunables,
	.stats = bfq_612_stats,
	.priv_size = sizeof(struct bfq_data),
	/* bfq_init_queue: set_bit(ELEVATOR_FLAG_DISABLE_WBT), wbt_disable_default */
	.features = IOS_SCHED_IDLES | IOS_SCHED_CHARGES_TIME | IOS_SCHED_DISABLE_WBT,
	.cgroups = &bfq_cgroups,
	.profile = &ios_bfq_profile_612,
	.share_model = IOS_SHARE_BFQ_WEIGHT,
	.layer = IOS_SCHED_LAYER_MQ,
	.mq_ops = &bfq_mq_ops,
};
