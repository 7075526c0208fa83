/*
 * Description: BFQ idling through the block layer with a fake device and
 * clock. When the in-service sync queue empties and its last request
 * completes, BFQ asks for a wake-up slice_idle (8 ms) later and serves no
 * one else meanwhile; a request from that queue within the window goes out
 * at once; when the window ends empty the queue expires (too idle) and the
 * other queue is served at the wake-up time. The expiry is timed at the end
 * of the window even when the host runs the queue late. No idling with
 * slice_idle=0, for async queues, or for the idle class; a seeky queue
 * idles only 2 ms unless weights differ; a queue whose requests are still
 * in flight keeps the device with nothing queued; strict_guarantees keeps
 * one request in the device at a time. A weight-raised queue idles
 * slice_idle too (4.19 has no 20 ms floor for raised queues; later 4.19.y
 * got it by backport).
 */
#include "sched_bfq_util.h"

static bool issued_by(const struct t_rig *r, size_t i, const struct ios_ioc *ioc)
{
	return i < r->nr_issued && r->issued[i] && r->issued[i]->ioc == ioc;
}

static int test_idle_window(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(401, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(402, IOS_IOPRIO_CLASS_BE, 4);

	T_ASSERT(r);
	t_submit(r, a, 1000, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->nr_issued, 1);
	t_submit(r, b, 90000000, 8, IOS_READ, 0, 100 * US, NULL);
	T_ASSERT_EQ(r->nr_issued, 1);

	/* a's request completes at 5 ms: idle until 13 ms for its next one */
	t_complete(r, 0, 5 * MS);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_U64_EQ(r->timer_at, 13 * MS);
	T_ASSERT_EQ(bfq_stat(r->q, "idle_windows"), 1);

	/* it comes at 7 ms and goes out at once, ahead of b */
	t_submit(r, a, 1008, 8, IOS_READ, 0, 7 * MS, NULL);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT(issued_by(r, 1, a));
	T_ASSERT_U64_EQ(r->timer_at, IOS_NO_WAKEUP);

	/* completes at 10 ms; nothing more from a: b goes out at 18 ms */
	t_complete(r, 1, 10 * MS);
	T_ASSERT_U64_EQ(r->timer_at, 18 * MS);
	T_ASSERT_EQ(r->nr_issued, 2);
	t_fire_timer(r, 18 * MS);
	T_ASSERT_EQ(r->nr_issued, 3);
	T_ASSERT(issued_by(r, 2, b));
	T_ASSERT_U64_EQ(r->issued[2]->dispatch_ns, 18 * MS);
	T_ASSERT_EQ(bfq_stat(r->q, "expired_too_idle"), 1);
	t_rig_free(r);
	return T_PASS;
}

/* The host runs the queue late (50 ms): the expiry still happened at 18 ms. */
static int test_late_timer_keeps_decision_time(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(403, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(404, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *qa;

	T_ASSERT(r);
	t_submit(r, a, 1000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, b, 90000000, 8, IOS_READ, 0, 0, NULL);
	qa = bfqq_of(r->q, a, true);
	t_complete(r, 0, 10 * MS);
	T_ASSERT_U64_EQ(r->timer_at, 18 * MS);
	t_fire_timer(r, 50 * MS);
	T_ASSERT(issued_by(r, 1, b));
	/* a emptied at the end of its window, not when the host got round to it */
	T_ASSERT_EQ(qa->budget_timeout_ns, 18 * (int64_t)MS);
	T_ASSERT(bfqq_flag(qa, BFQQF_non_blocking_wait_rq));
	t_rig_free(r);
	return T_PASS;
}

/* After a's window: how long until b is served when a stays quiet. */
static uint64_t wait_for_other(const char *extra, uint32_t a_flags, int a_dir, int class)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", extra, NULL);
	struct ios_ioc *a = bfq_test_ioc(405, class, 4);
	struct ios_ioc *b = bfq_test_ioc(406, IOS_IOPRIO_CLASS_BE, 4);
	uint64_t when = UINT64_MAX;

	if (!r)
		return 0;
	t_submit(r, a, 1000, 8, a_dir, a_flags, 0, NULL);
	t_submit(r, b, 90000000, 8, IOS_READ, 0, 0, NULL);
	if (r->nr_issued == 1 && r->issued[0]->ioc == a) {
		t_complete(r, 0, 10 * MS);
		if (r->nr_issued == 1 && r->timer_at != IOS_NO_WAKEUP)
			t_fire_timer(r, r->timer_at);
		if (r->nr_issued == 2)
			when = r->issued[1]->dispatch_ns - 10 * MS;
	}
	t_rig_free(r);
	return when;
}

static int test_when_not_to_idle(void)
{
	T_ASSERT_U64_EQ(wait_for_other("slice_idle=8", 0, IOS_READ, IOS_IOPRIO_CLASS_BE), 8 * MS);
	T_ASSERT_U64_EQ(wait_for_other("slice_idle=3", 0, IOS_READ, IOS_IOPRIO_CLASS_BE), 3 * MS);
	T_ASSERT_U64_EQ(wait_for_other("slice_idle_us=1500", 0, IOS_READ, IOS_IOPRIO_CLASS_BE),
			1500 * US);
	T_ASSERT_U64_EQ(wait_for_other("slice_idle=0", 0, IOS_READ, IOS_IOPRIO_CLASS_BE), 0);
	/* async writes: no idling */
	T_ASSERT_U64_EQ(wait_for_other("slice_idle=8", 0, IOS_WRITE, IOS_IOPRIO_CLASS_BE), 0);
	/* sync writes idle like reads */
	T_ASSERT_U64_EQ(wait_for_other("slice_idle=8", IOS_REQ_SYNC, IOS_WRITE,
				       IOS_IOPRIO_CLASS_BE), 8 * MS);
	return T_PASS;
}

/*
 * On a disk found not to queue commands (hw_tag 0 after 32 samples with 4
 * requests outstanding) every sync queue is idled for; once 24 far-apart
 * requests make it seeky it gets only BFQ_MIN_TT (2 ms). Until the device
 * is known (hw_tag -1, treated as queueing) a seeky queue gets no idling.
 */
static int test_seeky_queue_idles_briefly(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(407, IOS_IOPRIO_CLASS_BE, 4);
	uint64_t now = 0, sector = 1000;
	size_t i, done = 0;

	T_ASSERT(r);
	T_ASSERT_EQ(bfqd_of(r->q)->hw_tag, -1);
	/* gaps between the requests, so that the block layer cannot merge them */
	for (i = 0; i < 4; i++, sector += 16)
		t_submit(r, a, sector, 8, IOS_READ, 0, now, NULL);
	for (i = 0; i < 40; i++) {
		now += MS;
		t_complete(r, done++, now);
		t_submit(r, a, sector, 8, IOS_READ, 0, now, NULL);
		sector += 16;
	}
	T_ASSERT_EQ(bfqd_of(r->q)->hw_tag, 0);
	while (t_in_device(r) || r->q->nr_sorted) {
		now += MS;
		t_complete(r, done++, now);
	}
	T_ASSERT_U64_EQ(r->timer_at, now + 8 * MS);
	for (i = 0; i < 24; i++) {
		now = r->timer_at - MS;
		t_submit(r, a, 1000 + (uint64_t)(i + 1) * 10000000, 8, IOS_READ, 0, now, NULL);
		T_ASSERT(r->issued[done]);
		now += MS;
		t_complete(r, done++, now);
		T_ASSERT(r->timer_at != IOS_NO_WAKEUP);
	}
	T_ASSERT(__builtin_popcount(bfqq_of(r->q, a, true)->seek_history) > 19);
	T_ASSERT_EQ(bfqq_of(r->q, a, true)->seek_count,
		    __builtin_popcount(bfqq_of(r->q, a, true)->seek_history));
	T_ASSERT_U64_EQ(r->timer_at, now + 2 * MS);
	t_fire_timer(r, r->timer_at);
	t_rig_free(r);
	return T_PASS;
}

/* Requests in flight, nothing queued: the queue keeps the device (depth 4). */
static int test_wait_for_completions(void)
{
	struct t_rig *r = t_rig_new("bfq", 4, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(408, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(409, IOS_IOPRIO_CLASS_BE, 4);

	T_ASSERT(r);
	t_submit(r, a, 1000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, a, 2000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, b, 90000000, 8, IOS_READ, 0, 0, NULL);
	/* a's two went out; b waits although the device has free tags */
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT(issued_by(r, 0, a) && issued_by(r, 1, a));
	T_ASSERT_U64_EQ(r->timer_at, IOS_NO_WAKEUP);
	t_complete(r, 0, 5 * MS);
	T_ASSERT_EQ(r->nr_issued, 2);
	t_complete(r, 1, 6 * MS);
	T_ASSERT_U64_EQ(r->timer_at, 14 * MS);
	t_fire_timer(r, 14 * MS);
	T_ASSERT(issued_by(r, 2, b));
	t_rig_free(r);
	return T_PASS;
}

static int test_strict_guarantees(void)
{
	struct t_rig *r = t_rig_new("bfq", 4, 1, "low_latency=0", "strict_guarantees=1",
				    "slice_idle=2", NULL);
	struct ios_ioc *a = bfq_test_ioc(410, IOS_IOPRIO_CLASS_BE, 4);

	T_ASSERT(r);
	/* Linux raises slice_idle to 8 ms with strict_guarantees */
	T_ASSERT_U64_EQ(bfqd_of(r->q)->slice_idle_ns, 8 * MS);
	for (int i = 0; i < 4; i++)
		t_submit(r, a, 1000 + (uint64_t)i * 8 * 100, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->nr_issued, 1);
	t_complete(r, 0, MS);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(t_in_device(r), 1);
	while (t_in_device(r))
		t_complete_next(r, 2 * MS);
	T_ASSERT_EQ(r->nr_issued, 4);
	t_rig_free(r);
	return T_PASS;
}

/* A raised queue's window is slice_idle, as for any other queue. */
static int test_raised_queue_idles_slice_idle(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, NULL);
	struct ios_ioc *a = bfq_test_ioc(421, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(422, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *qa;

	T_ASSERT(r);
	t_submit(r, a, 1000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, b, 90000000, 8, IOS_READ, 0, 100 * US, NULL);
	qa = bfqq_of(r->q, a, true);
	T_ASSERT(qa && qa->wr_coeff > 1);
	t_complete(r, 0, 5 * MS);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_U64_EQ(r->timer_at, 13 * MS);
	t_fire_timer(r, 13 * MS);
	T_ASSERT(issued_by(r, 1, b));
	t_rig_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_raised_queue_idles_slice_idle, test_idle_window, test_late_timer_keeps_decision_time, test_when_not_to_idle,
		     test_seeky_queue_idles_briefly, test_wait_for_completions,
		     test_strict_guarantees);
}
