/*
 * What BFQ measures of the device, as Linux 4.19 block/bfq-iosched.c: its
 * peak rate, and whether it queues commands.
 *
 * The peak rate sets the largest budget (max_budget = what the device
 * serves in timeout_sync at that rate, unless the user fixed one) and the
 * duration of interactive weight raising (bfq_wr.c). Every dispatch is a
 * sample; a window of samples closes after 1 s, after the device sat idle
 * for 100 ms, or on a completion long after the one before (the device
 * was waiting for the process, not busy), and counts only if it lasted
 * 300 ms and 32 samples, was mostly (3/4) sequential or faster than the
 * estimate, and is not implausibly fast. It is then folded in with a
 * weight growing with its length and sequentiality, so one odd window
 * moves it little. Until the first window closes the estimate is two thirds
 * of a reference device's rate (an optimistic start keeps early budgets
 * large).
 *
 * Command queueing (hw_tag) is learnt from 32 samples taken while at least
 * 4 requests are outstanding: the device queues if it ever held more than
 * 4. Until then (-1) it is treated as queueing.
 */
#include <limits.h>
#include "bfq_int.h"

#define BFQ_HW_QUEUE_THRESHOLD	4	/* 4.19 */
#define BFQ_HW_QUEUE_THRESHOLD_612 3	/* 6.12 */
#define BFQ_HW_QUEUE_SAMPLES	32
#define BFQ_RATE_MIN_SAMPLES	32
#define BFQ_RATE_MIN_INTERVAL_NS (300 * IOS_NSEC_PER_MSEC)
#define BFQ_RATE_REF_INTERVAL_NS IOS_NSEC_PER_SEC

/* Reference peak rates, (sectors/us) << 16, and raising durations: [non-rotational]. */
static const uint32_t bfq_ref_rate[2] = { 14000, 33000 };
static const uint64_t bfq_ref_wr_duration_ns[2] = { 7000 * IOS_NSEC_PER_MSEC,
						    2500 * IOS_NSEC_PER_MSEC };

/* Start optimistic: two thirds of the reference device's rate. */
void ios_bfq_init_peak_rate(struct bfq_data *bfqd)
{
	bool nonrot = !bfqd->queue->rotational;

	bfqd->rate_dur_prod = (uint64_t)bfq_ref_rate[nonrot] * bfq_ref_wr_duration_ns[nonrot];
	bfqd->peak_rate = bfq_ref_rate[nonrot] * 2 / 3;
	bfqd->peak_rate_sps = ((uint64_t)bfqd->peak_rate * 1000000) >> BFQ_RATE_SHIFT;
}

static void bfq_reset_rate_computation(struct bfq_data *bfqd, const struct ios_request *rq)
{
	if (rq) {
		bfqd->last_dispatch_ns = bfqd->first_dispatch_ns = bfqd->now_ns;
		bfqd->peak_rate_samples = 1;
		bfqd->sequential_samples = 0;
		bfqd->tot_sectors_dispatched = bfqd->last_rq_max_size = rq->nr_sectors;
	} else {
		bfqd->peak_rate_samples = 0;	/* start over at the next dispatch */
	}
}

static void bfq_update_thr_responsiveness_params(struct bfq_data *bfqd)
{
	if (bfqd->user_max_budget == 0) {
		uint64_t b = (uint64_t)bfqd->peak_rate * (bfqd->timeout_ns / IOS_NSEC_PER_USEC) >>
			     BFQ_RATE_SHIFT;

		bfqd->max_budget = b > INT_MAX ? INT_MAX : (b ? (int)b : 1);
	}
}

/*
 * Close the observation window: if it was long enough, sequential enough
 * or faster than the current estimate, fold its rate into the peak rate
 * with a weight growing with both, then retune max_budget.
 */
void ios_bfq_update_rate_reset(struct bfq_data *bfqd, const struct ios_request *rq)
{
	uint64_t rate, us;
	uint32_t weight, divisor;

	if (bfqd->peak_rate_samples < BFQ_RATE_MIN_SAMPLES ||
	    bfqd->delta_from_first_ns < BFQ_RATE_MIN_INTERVAL_NS)
		goto reset;
	if (bfqd->last_completion_ns > bfqd->first_dispatch_ns &&
	    (uint64_t)(bfqd->last_completion_ns - bfqd->first_dispatch_ns) > bfqd->delta_from_first_ns)
		bfqd->delta_from_first_ns =
			(uint64_t)(bfqd->last_completion_ns - bfqd->first_dispatch_ns);
	us = bfqd->delta_from_first_ns / IOS_NSEC_PER_USEC;
	rate = (bfqd->tot_sectors_dispatched << BFQ_RATE_SHIFT) / (us ? us : 1);
	if ((bfqd->sequential_samples < (3 * bfqd->peak_rate_samples) >> 2 &&
	     rate <= bfqd->peak_rate) ||
	    rate > (20ULL << BFQ_RATE_SHIFT))
		goto reset;
	weight = 9 * bfqd->sequential_samples / bfqd->peak_rate_samples;
	{
		uint64_t w = (uint64_t)weight * bfqd->delta_from_first_ns / BFQ_RATE_REF_INTERVAL_NS;

		weight = w < 8 ? (uint32_t)w : 8;
	}
	divisor = 10 - weight;
	bfqd->peak_rate = (uint32_t)((uint64_t)bfqd->peak_rate * (divisor - 1) / divisor +
				     rate / divisor);
	if (!bfqd->peak_rate)
		bfqd->peak_rate = 1;
	bfqd->peak_rate_sps = ((uint64_t)bfqd->peak_rate * 1000000) >> BFQ_RATE_SHIFT;
	bfq_update_thr_responsiveness_params(bfqd);
reset:
	bfq_reset_rate_computation(bfqd, rq);
}

/* Every dispatch is a sample: sectors over time from the window's first dispatch. */
void ios_bfq_update_peak_rate(struct bfq_data *bfqd, struct ios_request *rq)
{
	int64_t now = bfqd->now_ns;
	uint64_t sdist = 0;

	if (bfqd->peak_rate_samples == 0) {
		bfq_reset_rate_computation(bfqd, rq);
		goto update_last;
	}
	/* the device sat idle for long: this window says nothing about its rate */
	if (now - bfqd->last_dispatch_ns > (int64_t)(100 * IOS_NSEC_PER_MSEC) &&
	    bfqd->rq_in_driver == 0)
		goto update_rate_and_reset;

	bfqd->peak_rate_samples++;
	if (bfqd->last_position)
		sdist = rq->sector > bfqd->last_position ? rq->sector - bfqd->last_position
							 : bfqd->last_position - rq->sector;
	if ((bfqd->rq_in_driver > 0 || now - bfqd->last_completion_ns < (int64_t)BFQ_MIN_TT_NS) &&
	    sdist < BFQQ_SEEK_THR)
		bfqd->sequential_samples++;
	bfqd->tot_sectors_dispatched += rq->nr_sectors;
	if (bfqd->peak_rate_samples % 32)
		bfqd->last_rq_max_size = rq->nr_sectors > bfqd->last_rq_max_size
						 ? rq->nr_sectors : bfqd->last_rq_max_size;
	else
		bfqd->last_rq_max_size = rq->nr_sectors;
	bfqd->delta_from_first_ns = (uint64_t)(now - bfqd->first_dispatch_ns);
	if (bfqd->delta_from_first_ns < BFQ_RATE_REF_INTERVAL_NS)
		goto update_last;
update_rate_and_reset:
	ios_bfq_update_rate_reset(bfqd, rq);
update_last:
	bfqd->last_position = ios_rq_end(rq);
	bfqd->last_dispatch_ns = now;
}

/*
 * Learn whether the device queues commands: enough samples with enough
 * outstanding (bfq_update_hw_tag). 4.19: a sample needs 4 requests queued
 * or in the drive and queueing means more than 4 were ever in the drive at
 * once. 6.12 (hw_tag_612): the threshold is 3 (a sample still needs 4:
 * "<= 3" returns), and no sample is taken while the in-service queue has a
 * short think time and too few requests to fill the drive.
 */
void ios_bfq_update_hw_tag(struct bfq_data *bfqd)
{
	const struct bfq_queue *bfqq = bfqd->in_service_queue;
	int thr = bfqd->prof->hw_tag_612 ? BFQ_HW_QUEUE_THRESHOLD_612 : BFQ_HW_QUEUE_THRESHOLD;

	if (bfqd->rq_in_driver > bfqd->max_rq_in_driver)
		bfqd->max_rq_in_driver = bfqd->rq_in_driver;
	if (bfqd->hw_tag == 1)
		return;
	if (bfqd->prof->hw_tag_612) {
		if (bfqd->rq_in_driver + bfqd->queued <= thr)
			return;
		if (bfqq && bfqq_flag(bfqq, BFQQF_has_short_ttime) &&
		    bfqq->dispatched + bfqq->queued[0] + bfqq->queued[1] < thr &&
		    bfqd->rq_in_driver < thr)
			return;
	} else if (bfqd->rq_in_driver + bfqd->queued < thr) {
		return;
	}
	if (bfqd->hw_tag_samples++ < BFQ_HW_QUEUE_SAMPLES)
		return;
	bfqd->hw_tag = bfqd->max_rq_in_driver > thr;
	bfqd->max_rq_in_driver = 0;
	bfqd->hw_tag_samples = 0;
	/* 6.x (bfq_update_hw_tag): read by the profile's queueing-flash rules only */
	bfqd->nonrot_with_queueing = !bfqd->queue->rotational && bfqd->hw_tag == 1;
}
