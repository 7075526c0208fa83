/*
 * BFQ as in Linux 6.12 (block/bfq-iosched.c): the blk-mq tag caps and the
 * per-cgroup cap, I/O injection and waker detection, mechanisms 4.19 does
 * not have. Each runs only when the descriptor's profile names it (struct
 * bfq_profile: tag_caps, cgroup_request_cap, injection, wakers); the 4.19
 * profile never reaches this file.
 *
 * Tag caps (bfq_update_depths, bfq_limit_depth). blk-mq hands out
 * scheduler tags from an sbitmap of words of 2^shift bits; a shallow depth
 * caps how many bits of each word one allocation may use. BFQ gives sync
 * reads the whole word, sync writes 3/4 and async I/O 1/2, and while any
 * queue is weight-raised 6/16 and 3/16, so that reads of a starting
 * application find tags even under a write flood.
 *
 * Injection. While the in-service sync queue is empty and the device idles
 * for it, other queues' requests may be dispatched "into the hole", up to
 * the queue's inject_limit requests in the drive. The limit is learned
 * from the total service time (insert to completion) of the queue's first
 * request after it emptied: measured with nothing in flight it is the
 * baseline; measured after injection, a time at least 1.5 x the baseline
 * lowers the limit and a shorter one raises it. The limit is reset every
 * second, and not touched within 10 ms of a decrease.
 *
 * Per-queue and per-cgroup cap (bfqq_request_over_limit, profile
 * cgroup_request_cap): a queue or group holding its weight's share of the
 * tags gets a shallow depth of 1 for its next allocation.
 *
 * Wakers. A queue that three times in a row gets its first request within
 * 4 ms of a completion of the same other queue (within 128 x slice_idle)
 * records that queue as its waker: the process waits for the waker's I/O
 * (a journal, a pipe). While it idles, the waker's I/O is served first, and
 * a queue's idling also serves the I/O of the queues it wakes.
 */
#include "bfq_int.h"

#define BFQ_BITS_PER_LONG_SHIFT	6	/* ilog2(BITS_PER_LONG) on 64-bit kernels */
#define BFQQ_SECT_THR_NONROT	64	/* sectors: a "large" request on flash */
#define BFQ_WAKER_WINDOW_NS	((int64_t)(4 * IOS_NSEC_PER_MSEC))
#define BFQ_WAKER_DETECTIONS	3
#define BFQ_WAKER_SPAN_IDLES	128	/* x slice_idle: detections must fall in this */
#define BFQ_INJECT_RESET_NS	((int64_t)(1000 * IOS_NSEC_PER_MSEC))
#define BFQ_INJECT_SAMPLE_NS	((int64_t)(10 * IOS_NSEC_PER_MSEC))
/*
 * The jiffy the lab assumes where the kernel's units decide an outcome
 * (docs/blk-mq-plan.md R4: CONFIG_HZ=250, Debian's and Ubuntu's).
 */
#define BFQ_JIFFY_NS		(IOS_NSEC_PER_SEC / 250)

/* ---- tag caps ---- */

/*
 * The bits per sbitmap word blk-mq gives @depth tags (sbitmap_calculate_shift,
 * include/linux/sbitmap.h): 64 per word, halved until the map has at least
 * four words.
 */
static unsigned bfq_sbitmap_shift(unsigned depth)
{
	unsigned shift = BFQ_BITS_PER_LONG_SHIFT;

	if (depth >= 4)
		while ((4u << shift) > depth)
			shift--;
	return shift;
}

static unsigned bfq_max1(unsigned v)
{
	return v ? v : 1;
}

/* bfq_update_depths (6.12), run from depth_updated with the scheduler tag depth. */
void ios_bfq_update_depths(struct bfq_data *bfqd, unsigned nr_requests)
{
	unsigned shift = bfq_sbitmap_shift(nr_requests), word = 1u << shift;

	bfqd->full_depth_shift = shift;
	/* no queue raised: async half a word, sync writes three quarters */
	bfqd->word_depths[0][0] = bfq_max1(word >> 1);
	bfqd->word_depths[0][1] = bfq_max1((word * 3) >> 2);
	/* a queue raised: ~18 % and ~37 %, leaving ~63 % to sync reads */
	bfqd->word_depths[1][0] = bfq_max1((word * 3) >> 4);
	bfqd->word_depths[1][1] = bfq_max1((word * 6) >> 4);
}

/*
 * bfq_limit_depth (6.12): the per-word shallow depth of an allocation, 0
 * for none. Sync reads are never capped by class; the per-cgroup cap
 * (ios_bfq_request_over_limit) may still cut any allocation to 1.
 */
unsigned ios_bfq_limit_depth(struct bfq_data *bfqd, bool sync, bool write)
{
	if (!bfqd->prof->tag_caps || (sync && !write))
		return 0;
	return bfqd->word_depths[bfqd->wr_busy_queues != 0][sync];
}

/*
 * bfqq_request_over_limit (6.12; Jan Kara's "bfq: Limit number of
 * requests consumed by each cgroup", 2022; the release that first had it
 * was not checked here): does the queue @ioc allocates into, or a group
 * above it, hold its share of @limit tags or more? From the top group down, each level's share is the level
 * above's times its weight over the weights active beside it (rounded to
 * nearest); the queue's own level counts the weights of its class and of
 * the higher classes, these multiplied by 8 per class step. A queue or
 * group not active (nothing scheduled yet) is never over: BFQ must see
 * its work first.
 */
#define BFQ_IOPRIO_BE_NR	8

bool ios_bfq_request_over_limit(struct bfq_data *bfqd, const struct ios_ioc *ioc, bool sync,
				unsigned limit)
{
	struct bfq_io_cq *bic = ioc ? ios_bfq_bic_lookup(bfqd, ioc) : NULL;
	struct bfq_queue *bfqq = bic ? bic->bfqq[sync] : NULL;
	struct bfq_entity *e;
	int depth = 0;

	if (!bfqq)
		return false;
	for (e = &bfqq->entity; e; e = e->parent, depth++)
		if (!e->on_st)
			return false;
	/* from the top: the entity @level steps above the queue */
	for (int level = depth - 1; level >= 0; level--) {
		uint64_t wsum = 0;

		e = &bfqq->entity;
		for (int i = 0; i < level; i++)
			e = e->parent;
		if (level > 0) {
			wsum = ios_bfq_entity_service_tree(e)->wsum;
		} else {
			for (int c = 0; c < bfqq->ioprio_class && c < BFQ_IOPRIO_CLASSES; c++)
				wsum = wsum * BFQ_IOPRIO_BE_NR + e->sched_data->service_tree[c].wsum;
		}
		if (!wsum)
			continue;
		limit = (unsigned)(((uint64_t)limit * e->weight + wsum / 2) / wsum);
		if (e->allocated >= (int)limit) {
			bfq_log_bfqq(bfqd, bfqq, "too many requests: allocated %d limit %u level %d",
				     e->allocated, limit, level);
			return true;
		}
	}
	return false;
}

/* ---- injection ---- */

/*
 * bfq_reset_inject_limit: forget the baseline. A queue with a short think
 * time starts at 0 (an injected request could outlast its think time), one
 * with a long think time at 1 (it would rarely get a baseline sampled).
 */
void ios_bfq_reset_inject_limit(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	bfqq->last_serv_time_ns = 0;
	bfqd->waited_rq = NULL;
	bfqq->inject_limit = bfqq_flag(bfqq, BFQQF_has_short_ttime) ? 0 : 1;
	bfqq->decrease_time_ns = bfqd->now_ns;
}

/*
 * bfq_update_inject_limit, on the completion of the request being timed
 * (bfqd->waited_rq), before rq_in_driver counts it out: 1 in the driver
 * means it was alone.
 */
void ios_bfq_update_inject_limit(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	uint64_t tot = (uint64_t)(bfqd->now_ns - bfqd->last_empty_occupied_ns);
	unsigned old_limit = bfqq->inject_limit;

	if (bfqq->last_serv_time_ns > 0 && bfqd->rqs_injected) {
		uint64_t threshold = (bfqq->last_serv_time_ns * 3) >> 1;

		if (tot >= threshold && old_limit > 0) {
			bfqq->inject_limit--;
			bfqq->decrease_time_ns = bfqd->now_ns;
		} else if (tot < threshold && (int)old_limit <= bfqd->max_rq_in_driver) {
			bfqq->inject_limit++;
		}
	}
	if ((bfqq->last_serv_time_ns == 0 && bfqd->rq_in_driver == 1) ||
	    tot < bfqq->last_serv_time_ns) {
		/* a first baseline: start injecting (6.12 takes the old limit, at least 1) */
		if (bfqq->last_serv_time_ns == 0)
			bfqq->inject_limit = old_limit > 1 ? old_limit : 1;
		bfqq->last_serv_time_ns = tot;
	} else if (!bfqd->rqs_injected && bfqd->rq_in_driver == 1) {
		/* alone in the drive: a fresh baseline (it drifts with request size) */
		bfqq->last_serv_time_ns = tot;
	}
	bfqd->waited_rq = NULL;
	bfqd->rqs_injected = false;
}

/*
 * bfq_add_request's first part (6.12), for a sync request that is its
 * process's only one: waker detection, the periodic reset of the limit,
 * and the start of a service-time sample for the in-service queue's first
 * request after a hole.
 */
void ios_bfq_inject_on_add(struct bfq_data *bfqd, struct bfq_queue *bfqq,
			   const struct bfq_io_cq *bic)
{
	int64_t now = bfqd->now_ns;

	if (!bfqq_flag(bfqq, BFQQF_sync) || !bic || bic->requests > 1)
		return;
	if (bfqd->prof->wakers)
		ios_bfq_check_waker(bfqd, bfqq);
	if (!bfqd->prof->injection)
		return;
	if (bfqq->decrease_time_ns + BFQ_INJECT_RESET_NS <= now)
		ios_bfq_reset_inject_limit(bfqd, bfqq);
	if (bfqq == bfqd->in_service_queue &&
	    (bfqd->rq_in_driver == 0 ||
	     (bfqq->last_serv_time_ns > 0 && bfqd->rqs_injected && bfqd->rq_in_driver > 0)) &&
	    bfqq->decrease_time_ns + BFQ_INJECT_SAMPLE_NS <= now) {
		bfqd->last_empty_occupied_ns = now;
		/* the next dispatch of this queue becomes waited_rq */
		bfqd->wait_dispatch = true;
		/* injection before this arrival cannot have delayed it */
		if (bfqd->rq_in_driver == 0)
			bfqd->rqs_injected = false;
	}
}

/*
 * bfq_choose_bfqq_for_injection (6.12): the first queue, newest activation
 * first, with a request that fits its budget, while fewer than inject_limit
 * requests are in the drive. On flash a large request (64 sectors or more)
 * is injected only into an empty drive.
 */
struct bfq_queue *ios_bfq_choose_bfqq_for_injection(struct bfq_data *bfqd)
{
	struct bfq_queue *in_serv = bfqd->in_service_queue, *bfqq;
	unsigned limit = in_serv->inject_limit;
	bool always = in_serv->wr_coeff == 1 || !bfqq_flag(in_serv, BFQQF_has_short_ttime);
	struct ios_list_head *pos;

	/*
	 * No baseline yet and idling for long: inject one request. 6.12 adds
	 * slice_idle (ns) to a time in jiffies here, so "long" is slice_idle
	 * *jiffies* (8e6 jiffies, 9 hours at HZ=250 with the default); modelled
	 * as written, saturating.
	 */
	if (limit == 0 && in_serv->last_serv_time_ns == 0 &&
	    bfqq_flag(in_serv, BFQQF_wait_request)) {
		uint64_t wait = bfqd->slice_idle_ns > (uint64_t)INT64_MAX / BFQ_JIFFY_NS
					? (uint64_t)INT64_MAX
					: bfqd->slice_idle_ns * BFQ_JIFFY_NS;

		if ((uint64_t)(bfqd->now_ns - bfqd->last_idling_start_ns) >= wait)
			limit = 1;
	}
	if (bfqd->rq_in_driver >= (int)limit)
		return NULL;
	ios_list_for_each(pos, &bfqd->active_list) {
		bfqq = ios_list_entry(pos, struct bfq_queue, active_node);
		if (ios_rb_empty(&bfqq->sort_list) || !(always || bfqq->wr_coeff > 1) ||
		    ios_bfq_serv_to_charge(bfqq->next_rq, bfqq) > bfq_budget_left(bfqq))
			continue;
		if (!bfqd->queue->rotational && bfqq->next_rq->nr_sectors >= BFQQ_SECT_THR_NONROT &&
		    bfqd->rq_in_driver >= 1)
			continue;
		bfqd->rqs_injected = true;
		return bfqq;
	}
	return NULL;
}

/* ---- wakers ---- */

/* @bfqq's waker is now @waker (NULL: none); it moves to the head of its woken list. */
void ios_bfq_set_waker(struct bfq_queue *bfqq, struct bfq_queue *waker)
{
	if (!ios_list_unlinked(&bfqq->woken_node))
		ios_list_del(&bfqq->woken_node);
	bfqq->waker_bfqq = waker;
	bfqq->tentative_waker_bfqq = NULL;
	if (waker)
		ios_list_add(&bfqq->woken_node, &waker->woken_list);
}

/*
 * bfq_check_waker (6.12): @bfqq (sync, long think time) got its only
 * request. If the last completion was another queue's, less than 4 ms ago,
 * count a detection of that queue; three in a row within 128 x slice_idle
 * make it the waker.
 */
void ios_bfq_check_waker(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_queue *last = bfqd->last_completed_rq_bfqq;
	int64_t now = bfqd->now_ns;

	if (!last || last == bfqq || bfqq_flag(bfqq, BFQQF_has_short_ttime) ||
	    now - bfqd->last_completion_ns >= BFQ_WAKER_WINDOW_NS ||
	    last == &bfqd->oom_bfqq || bfqq == &bfqd->oom_bfqq)
		return;
	if (last != bfqq->tentative_waker_bfqq ||
	    now > bfqq->waker_detection_started_ns +
			  (int64_t)(BFQ_WAKER_SPAN_IDLES * bfqd->slice_idle_ns)) {
		/* a first detection, or of another queue, or too long ago: start over */
		bfqq->tentative_waker_bfqq = last;
		bfqq->num_waker_detections = 1;
		bfqq->waker_detection_started_ns = now;
	} else {
		bfqq->num_waker_detections++;
	}
	if (bfqq->num_waker_detections == BFQ_WAKER_DETECTIONS) {
		ios_bfq_set_waker(bfqq, last);
		bfqd->wakers_found++;
		if (ios_queue_tracing(bfqd->queue))
			ios_queue_msg(bfqd->queue, (uint64_t)now, "bfq%u%c waker bfq%u", bfqq->pid,
				      'S', last->pid);
	}
}

/*
 * @bfqq is being freed (bfq_put_queue): no queue may keep it as waker or
 * candidate, nor as the last completed.
 */
void ios_bfq_forget_wakers(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct ios_list_head *pos, *tmp;

	if (!ios_list_unlinked(&bfqq->woken_node))
		ios_list_del(&bfqq->woken_node);
	ios_list_for_each_safe(pos, tmp, &bfqq->woken_list) {
		struct bfq_queue *woken = ios_list_entry(pos, struct bfq_queue, woken_node);

		woken->waker_bfqq = NULL;
		ios_list_del(&woken->woken_node);
	}
	if (bfqd->last_completed_rq_bfqq == bfqq)
		bfqd->last_completed_rq_bfqq = NULL;
	/*
	 * 6.12 leaves tentative_waker_bfqq pointing at the freed queue (it is
	 * only compared); a new queue at the same address could then continue
	 * a detection. Clearing it keeps the lab deterministic.
	 */
	ios_list_for_each(pos, &bfqd->all_queues) {
		struct bfq_queue *q = ios_list_entry(pos, struct bfq_queue, all_node);

		if (q->tentative_waker_bfqq == bfqq)
			q->tentative_waker_bfqq = NULL;
	}
}
