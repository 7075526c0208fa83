/*
 * Writeback throttling's window (src/block/blk_wbt.c, Linux 6.12
 * wb_timer_fn, latency_exceeded, rwb_arm_timer): a window whose fastest
 * read took longer than the target scales down, a good one scales back
 * up, a window without a read and three writes is not judged on latency,
 * and windows with nothing at all move the step back to 0 only after
 * five of them. Fake clock, lab.hz 250 (4 ms jiffies). Each test names
 * the rule whose removal fails it.
 */
#include "wbt_rig.h"

/*
 * Read min 3 ms > 2 ms (non-rotational target): step 1, depth 8, and the
 * next window is 100 ms / sqrt(2) = 72.7 ms, 18 jiffies (72 ms). Fails
 * without the read-min test or the window's shrinking.
 */
static int test_exceeded_scales_down(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);
	uint64_t end;
	struct ios_wbt_debug d;

	T_ASSERT(r);
	T_ASSERT_EQ(w_dbg(r).window_open, false);
	end = w_window(r, 10 * W_MS, 3, 1, 100 * W_US, 3 * W_MS);
	/* opened by the first tracked write at 10 ms: jiffy 2 + 25 */
	T_ASSERT_U64_EQ(end, 27 * 4 * W_MS);
	d = w_dbg(r);
	T_ASSERT_EQ(d.scale_step, 1);
	T_ASSERT_EQ(d.max_depth, 8);
	T_ASSERT_U64_EQ(d.cur_win_nsec, 1600 * W_MS / 22);
	T_ASSERT(d.window_open);
	T_ASSERT_U64_EQ(d.window_end, end + 18 * 4 * W_MS);
	m_rig_free(r, end);
	return T_PASS;
}

/*
 * The min is what counts: one slow read beside a fast one is a good
 * window. After a step down, a good window (read min 1 ms) scales up to
 * step 0, and the next window is 100 ms again. Fails if the mean or max were used, or
 * without scale_up on LAT_OK.
 */
static int test_good_window_scales_up(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);
	uint64_t t;
	struct ios_wbt_debug d;

	T_ASSERT(r);
	t = w_window(r, 10 * W_MS, 3, 1, 100 * W_US, 3 * W_MS);
	T_ASSERT_EQ(w_dbg(r).scale_step, 1);
	/* two reads: 1 ms and 50 ms */
	for (unsigned i = 0; i < 3; i++)
		(void)w_write(r, IOS_REQ_SYNC, t + W_MS);
	(void)w_read(r, t + W_MS);
	(void)w_complete(r, -1, t + 2 * W_MS);
	(void)w_read(r, t + 3 * W_MS);
	(void)w_complete(r, IOS_READ, t + 53 * W_MS);
	ios_queue_timer(r->q, w_dbg(r).window_end);
	d = w_dbg(r);
	T_ASSERT_EQ(d.scale_step, 0);
	T_ASSERT_EQ(d.max_depth, 16);
	/* step 0 and nothing in flight: no new window until the next tracked write */
	T_ASSERT(!d.window_open);
	t = d.window_end + W_MS;
	(void)w_write(r, IOS_REQ_SYNC, t);
	T_ASSERT_U64_EQ(w_dbg(r).cur_win_nsec, 100 * W_MS);
	m_rig_free(r, t + W_MS);
	return T_PASS;
}

/*
 * Too few samples: two writes and a slow read do not make a valid window
 * (RWB_MIN_WRITE_SAMPLES = 3): no scale-down, but as writes were seen
 * the step goes up (LAT_UNKNOWN_WRITES). Fails without the sample rule
 * (the 3 ms read would scale down).
 */
static int test_too_few_writes(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);
	uint64_t end;

	T_ASSERT(r);
	end = w_window(r, 10 * W_MS, 2, 1, 100 * W_US, 3 * W_MS);
	T_ASSERT_EQ(w_dbg(r).scale_step, -1);
	m_rig_free(r, end);
	return T_PASS;
}

/*
 * Unknown windows (no writes seen, none in flight, no dirty-throttled
 * writer): nothing changes for four of them; the fifth moves the step one
 * back towards 0 (RWB_UNKNOWN_BUMP). Fails without the count, or if an
 * unknown window changed the step at once.
 */
static int test_unknown_windows(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);
	uint64_t t;

	T_ASSERT(r);
	t = w_window(r, 10 * W_MS, 3, 1, 100 * W_US, 3 * W_MS);
	t = w_window(r, t + W_MS, 3, 1, 100 * W_US, 3 * W_MS);
	T_ASSERT_EQ(w_dbg(r).scale_step, 2);
	for (unsigned i = 1; i <= 5; i++) {
		/* a lone read, quick: no writes, so unknown */
		t = w_window(r, t + W_MS, 0, 1, 0, 100 * W_US);
		T_ASSERT_EQ(w_dbg(r).unknown_cnt, i < 5 ? i : 0);
		T_ASSERT_EQ(w_dbg(r).scale_step, i < 5 ? 2 : 1);
	}
	m_rig_free(r, t);
	return T_PASS;
}

/*
 * A read issued but not back by the window's end, with no read completing
 * in it: if it has waited longer than the target, the window missed
 * (rwb_sync_issue_lat). Fails without the sync-issue check (the window
 * would be unknown-with-writes and scale up).
 */
static int test_stuck_read_is_a_miss(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);
	uint64_t end;

	T_ASSERT(r);
	for (unsigned i = 0; i < 3; i++)
		(void)w_write(r, IOS_REQ_SYNC, 10 * W_MS);
	(void)w_read(r, 10 * W_MS);
	(void)w_complete(r, IOS_WRITE, 11 * W_MS);
	end = w_dbg(r).window_end;
	ios_queue_timer(r->q, end);
	T_ASSERT_EQ(w_dbg(r).scale_step, 1);
	m_rig_free(r, end);
	return T_PASS;
}

/*
 * Rotational: the target is 75 ms, so a 3 ms read min is good (step -1
 * after a valid window: scale_up). Fails if the default ignored
 * queue/rotational.
 */
static int test_rotational_target(void)
{
	struct m_rig *r = w_rig(NULL, 64, "queue.rotational=1");
	uint64_t end;

	T_ASSERT(r);
	T_ASSERT_U64_EQ(w_dbg(r).min_lat_nsec, 75 * W_MS);
	end = w_window(r, 10 * W_MS, 3, 1, 100 * W_US, 3 * W_MS);
	T_ASSERT_EQ(w_dbg(r).scale_step, -1);
	m_rig_free(r, end);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_exceeded_scales_down, test_good_window_scales_up, test_too_few_writes,
		     test_unknown_windows, test_stuck_read_is_a_miss, test_rotational_target);
}
