/*
 * CFQ's idling: the statistics it idles on, and the idle slice timer.
 *
 * CFQ is fair in time because it waits, slice_idle at most, for the next
 * request of the active sync queue instead of seeking away. Whether that
 * is worth it is learned per process and queue: the think time (the gap
 * between a completion and the next request), the seek distance (a mean
 * in 2.6.31 and 2.6.33, a 32-request history in 4.19), and whether the
 * device queues commands itself (hw_tag), where idling buys little. From
 * these cfq_update_idle_window keeps the queue's idle window,
 * cfq_should_idle decides for the queue and its service tree, and
 * cfq_arm_slice_timer sets the timer, which the simulator reports through
 * next_wakeup and the timer hook runs (cfq_idle_slice_timer).
 */
#include <inttypes.h>
#include "cfq_int.h"

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

void ios_cfq_update_io_thinktime(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				 struct cfq_io_cq *cic)
{
	if (cfqd->prof->tree_group_ttime) {
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

void ios_cfq_update_io_seektime(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				struct cfq_io_cq *cic, const struct ios_request *rq)
{
	enum cfq_seek_model model = cfqd->prof->seek;
	uint64_t last = model == CFQ_SEEK_CIC_MEAN ? cic->last_request_pos : cfqq->last_request_pos;
	uint64_t sdist = 0;

	/*
	 * A first request (no previous position) is no seek in every profile:
	 * 2.6.30 and 2.6.31 test !cic->last_request_pos, 2.6.33 the queue's,
	 * 4.19 measures only when a position is known. (2.6.29 measured the
	 * first request from sector 0.)
	 */
	if (last)
		sdist = last < rq->sector ? rq->sector - last : last - rq->sector;
	switch (model) {
	case CFQ_SEEK_CIC_MEAN:
		cfq_update_seek_mean(&cic->seek_samples, &cic->seek_total, &cic->seek_mean, sdist);
		break;
	case CFQ_SEEK_QUEUE_MEAN:
		cfq_update_seek_mean(&cfqq->seek_samples, &cfqq->seek_total, &cfqq->seek_mean, sdist);
		break;
	case CFQ_SEEK_HISTORY: {
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

bool ios_cfqq_seeky(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
		    const struct cfq_io_cq *cic)
{
	switch (cfqd->prof->seek) {
	case CFQ_SEEK_CIC_MEAN:
		return cic && cic->seek_mean > CFQ_SEEK_THR_OLD;
	case CFQ_SEEK_QUEUE_MEAN:
		return cfqq->seek_mean > CFQ_SEEK_THR_OLD;
	default:
		return __builtin_popcount(cfqq->seek_history) > 32 / 8;
	}
}

bool ios_cfq_ttime_big(const struct cfq_data *cfqd, const struct cfq_ttime *t, bool group)
{
	if (!sample_valid(t->samples))
		return false;
	return t->mean > (group ? cfqd->group_idle : cfqd->slice_idle);
}

bool ios_cfq_req_noidle(const struct cfq_data *cfqd, const struct ios_request *rq)
{
	if (cfqd->prof->req_idle)
		return rq->dir == IOS_WRITE && (rq->flags & (IOS_REQ_SYNC | IOS_REQ_IDLE)) == IOS_REQ_SYNC;
	return (rq->flags & IOS_REQ_NOIDLE) != 0;
}

/*
 * Whether seekiness costs the queue its idle window: 2.6.31 only on
 * queueing hardware and without the fairness patch, 2.6.33 only once the
 * queue's mean has enough samples; a deep queue keeps it (2.6.33+).
 */
static bool cfq_seeky_loses_window(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
				   const struct cfq_io_cq *cic)
{
	const struct cfq_profile *prof = cfqd->prof;

	if (prof->deep_queue && cfqq_has(cfqq, CFQ_QF_DEEP))
		return false;
	if (prof->seeky_window_needs_ncq && (cfqd->fairness || !cfqd->hw_tag))
		return false;
	if (prof->seek == CFQ_SEEK_QUEUE_MEAN && !sample_valid(cfqq->seek_samples))
		return false;
	return ios_cfqq_seeky(cfqd, cfqq, cic);
}

void ios_cfq_update_idle_window(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				struct cfq_io_cq *cic)
{
	bool enable, old;
	bool exited = cic->ioc->nr_tasks == 0;

	if (!cfqq_sync(cfqq) || cfq_class_idle(cfqq))
		return;
	enable = old = cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW);
	if (cfqd->prof->deep_queue && cfqq->queued[0] + cfqq->queued[1] >= 4)
		cfqq_mark(cfqq, CFQ_QF_DEEP);
	if (cfqd->prof->window_off_noidle_next && cfqq->next_rq &&
	    ios_cfq_req_noidle(cfqd, cfqq->next_rq))
		enable = false;
	else if (exited || !cfqd->slice_idle || cfq_seeky_loses_window(cfqd, cfqq, cic))
		enable = false;
	else if (sample_valid(cic->ttime.samples))
		enable = cic->ttime.mean <= cfqd->slice_idle;
	if (old != enable) {
		if (enable)
			cfqq_mark(cfqq, CFQ_QF_IDLE_WINDOW);
		else
			cfqq_clear(cfqq, CFQ_QF_IDLE_WINDOW);
		ios_queue_msg(cfqd->q, cfqd->now, "cfq%u idle=%d", cfqq->pid, enable);
	}
}

/* NCQ detection: does the driver keep more than a few requests? */
void ios_cfq_update_hw_tag(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue;

	if (!cfqd->prof->hw_tag_guarded) {
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

bool ios_cfq_should_idle(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_rb_root *st = cfqq->service_tree;

	if (cfq_class_idle(cfqq))
		return false;
	if (cfqd->prof->should_idle_needs_slice_idle && !cfqd->slice_idle)
		return false;
	if (cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW) && !(!cfqd->q->rotational && cfqd->hw_tag))
		return true;
	/* the last queue of its tree idles, to keep its tree's share */
	if (st && st->count == 1 && cfqq_sync(cfqq)) {
		if (cfqd->prof->tree_group_ttime && ios_cfq_ttime_big(cfqd, &st->ttime, false))
			return false;
		return true;
	}
	return false;
}

/* 2.6.31: the queue's idle window decides, once nothing is at the driver */
static bool cfq_arm_window(struct cfq_data *cfqd, struct cfq_queue *cfqq, struct cfq_io_cq *cic,
			   uint64_t *sl)
{
	if (!cfqd->q->rotational && cfqd->hw_tag)
		return false;
	if (!cfqd->slice_idle || !cfqq_has(cfqq, CFQ_QF_IDLE_WINDOW))
		return false;
	if (cfqd->rq_in_driver)
		return false;
	if (!cic || cic->ioc->nr_tasks == 0)
		return false;
	*sl = cfqd->slice_idle;
	/* a seeky context is given the minimum, 2 ms */
	if (sample_valid(cic->seek_samples) && ios_cfqq_seeky(cfqd, cfqq, cic) &&
	    *sl > CFQ_MIN_TT_NS)
		*sl = CFQ_MIN_TT_NS;
	return true;
}

/*
 * 2.6.33 and 4.19: cfq_should_idle decides, the queue's own requests must
 * be back, and a slice shorter than the think time is not idled for. 4.19
 * idles for group_idle on a group's last queue that would not idle itself
 * (with group_idle 0, as 2.6.33 has it, that is 2.6.33's rule).
 */
static bool cfq_arm_should_idle(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				struct cfq_io_cq *cic, uint64_t *sl)
{
	uint64_t gi = cfqd->prof->group_idle ? cfqd->group_idle : 0, now = cfqd->now;
	bool group_idle = false;

	if (!cfqd->q->rotational && cfqd->hw_tag && !gi)
		return false;
	/* 2.6.33 tests slice_idle here; 4.19's cfq_should_idle does */
	if (!cfqd->slice_idle && !gi)
		return false;
	if (!ios_cfq_should_idle(cfqd, cfqq)) {
		if (!gi)
			return false;
		group_idle = true;
	}
	if (cfqq->dispatched)
		return false;
	if (!cic || cic->ioc->nr_tasks == 0)
		return false;
	if (sample_valid(cic->ttime.samples) && cfqq->slice_end - now < cic->ttime.mean)
		return false;
	/*
	 * 4.19 judges group idling here by the service tree's think time
	 * (against group_idle), not the group's
	 */
	if (group_idle &&
	    (cfqq->cfqg->nr_cfqq > 1 ||
	     ios_cfq_ttime_big(cfqd,
			       &(cfqq->service_tree ? cfqq->service_tree
						: ios_cfqq_target_tree(cfqd, cfqq))->ttime,
			       true)))
		return false;
	*sl = group_idle ? gi : cfqd->slice_idle;
	return true;
}

void ios_cfq_arm_slice_timer(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue;
	struct cfq_io_cq *cic = cfqd->active_cic;
	uint64_t sl = 0, now = cfqd->now;
	bool arm = cfqd->prof->idle_window_only ? cfq_arm_window(cfqd, cfqq, cic, &sl)
						: cfq_arm_should_idle(cfqd, cfqq, cic, &sl);

	if (!arm)
		return;
	cfqq_mark(cfqq, CFQ_QF_WAIT_REQUEST);
	cfq_schedule_idle_timer(cfqd, now + sl);
	ios_queue_msg(cfqd->q, now, "cfq%u arm_idle: %" PRIu64 " us", cfqq->pid, sl / 1000);
	ios_queue_note_owner(cfqd->q, now, cfqq->pid, IOS_OWN_IDLE_START, 0);
}

/* ---- the idle slice timer ---- */

void ios_cfq_idle_slice_timer(struct cfq_data *cfqd)
{
	struct cfq_queue *cfqq = cfqd->active_queue;
	bool timed_out = true;

	cfqd->idle_timer = IOS_NO_WAKEUP;
	cfqd->st_idle_timer++;
	ios_queue_note_owner(cfqd->q, cfqd->now, cfqq ? cfqq->pid : 0, IOS_OWN_IDLE_END, 0);
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
		if (cfqd->prof->deep_queue)
			cfqq_clear(cfqq, CFQ_QF_DEEP);
	}
expire:
	ios_cfq_slice_expired(cfqd, timed_out);
out_kick:
out_cont:
	/* the block layer runs the queue after the timer hook: that is the kick */
	return;
}

bool ios_cfq_should_wait_busy(struct cfq_data *cfqd, struct cfq_queue *cfqq)
{
	struct cfq_io_cq *cic = cfqd->active_cic;

	if (cfqd->prof->wait_busy == CFQ_WAIT_BUSY_LAST_EMPTY) {
		if (!ios_rb_empty(&cfqq->sort_list))
			return false;
		if (ios_cfq_ttime_big(cfqd, &cfqq->cfqg->ttime, true))
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
