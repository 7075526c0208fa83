/*
 * Description: io.latency's scaling (Linux 6.12 blk-iolatency.c,
 * scale_cookie_change, scale_change, check_scale_change, rq_qos_wait,
 * blkiolatency_timer_fn). Group fg has a target, bg none. Each rule and the
 * test that fails without it:
 * - a victim's depth halves from the queue's nr_requests down to 1, then
 *   the group uses a delay (test_halving_then_delay);
 * - one scale event per 500 ms per parent, and the first event is not held
 *   back by a "last event at time 0" (plan §13 R4) (test_one_event_per_500ms);
 * - only the group that caused the scale-down scales back up, after a good
 *   window of at least 5 samples; victims grow by nr_requests / 16, a delay
 *   in use is dropped first at depth 1, and back at the default cookie the
 *   limit is gone (test_scale_up_only_scale_grp, test_back_to_default);
 * - the 1 s timer, armed by a submission, forgets the scale group 5 s after
 *   the last event and only then scales up (test_timer);
 * - a group at its depth holds the bio (rq_qos_wait) and lets waiters
 *   through in order as completions free slots (test_rq_wait).
 */
#include "iolat_rig.h"

static const int fg_bg[] = { -1, 0, 0 };
#define FG 1
#define BG 2

/* a bad window of fg (every sample 3 ms over a 1 ms target) closing at @t */
static void bad(struct ir_rig *r, uint64_t t)
{
	ir_window(r, FG, 10, 10, 3 * IR_MS, 0, t);
}

static void good(struct ir_rig *r, unsigned n, uint64_t t)
{
	ir_window(r, FG, n, 0, 0, 100 * IR_US, t);
}

/* bg submits one bio at @t (it must pass) and it completes 10 us later */
static int bg_io(struct ir_rig *r, uint64_t t)
{
	struct ios_bio b;

	memset(&b, 0, sizeof(b));
	if (ir_submit(r, BG, &b, t))
		return 0;
	ios_iolat_done_bio(r->lat, ir_blkg(r, BG), t, false, t + 10 * IR_US);
	return 1;
}

static struct ir_rig *fg_bg_rig(unsigned nr_requests)
{
	struct ir_rig *r = ir_new(3, fg_bg, nr_requests, true);

	ir_target(r, FG, 1 * IR_MS);
	return r;
}

static int test_halving_then_delay(void)
{
	static const unsigned depths[] = { 511, 255, 127, 63, 31, 15, 7, 3, 1, 1, 1 };
	struct ir_rig *r = fg_bg_rig(1023);
	struct ios_iolat_grp *bg = ir_grp(r, BG);

	T_ASSERT_EQ(bg->max_depth, IOS_IOLAT_UNLIMITED);
	for (unsigned k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		uint64_t t = 100 * IR_MS + k * 600 * IR_MS;

		bad(r, t);
		T_ASSERT(bg_io(r, t + 1 * IR_MS));
		T_ASSERT_MSG(bg->max_depth == depths[k], "event %u: depth %u, want %u", k,
			     bg->max_depth, depths[k]);
	}
	/* the two events at depth 1 each took a delay use */
	T_ASSERT_EQ(ir_blkg(r, BG)->use_delay, 2);
	T_ASSERT_EQ(ir_grp(r, FG)->max_depth, IOS_IOLAT_UNLIMITED);	/* the scale group is spared */
	ir_free(r);
	return T_PASS;
}

static int test_one_event_per_500ms(void)
{
	struct ir_rig *r = fg_bg_rig(1023);
	unsigned c0 = ir_cookie(r, 0);

	/* the first bad window, 100 ms after the lab's clock started, scales */
	bad(r, 100 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), c0 - 255);
	bad(r, 200 * IR_MS);
	bad(r, 300 * IR_MS);
	bad(r, 599 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), c0 - 255);
	bad(r, 700 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), c0 - 510);
	ir_free(r);
	return T_PASS;
}

static int test_scale_up_only_scale_grp(void)
{
	static const int three[] = { -1, 0, 0, 0 };
	struct ir_rig *r = ir_new(4, three, 1023, true);
	unsigned c;

	/* fg 1 ms, fg2 5 ms (both 100 ms windows), group 3 without a target */
	ir_target(r, 1, 1 * IR_MS);
	ir_target(r, 2, 5 * IR_MS);
	ir_window(r, 1, 10, 10, 3 * IR_MS, 0, 100 * IR_MS);
	c = ir_cookie(r, 0);
	T_ASSERT_EQ(c, IOS_IOLAT_DEFAULT_COOKIE - 255);
	T_ASSERT(ir_grp(r, 0)->child.scale_grp == ir_grp(r, 1));
	{
		struct ios_bio b;

		memset(&b, 0, sizeof(b));
		T_ASSERT_EQ(ir_submit(r, 3, &b, 101 * IR_MS), 0);
		T_ASSERT_EQ(ir_grp(r, 3)->max_depth, 511);
	}
	/* fg2's good windows, long after the event: not its scale-down, no change */
	ir_window(r, 2, 20, 0, 0, 100 * IR_US, 700 * IR_MS);
	ir_window(r, 2, 20, 0, 0, 100 * IR_US, 800 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), c);
	/* fg's good window with 4 samples: too few to scale up */
	ir_window(r, 1, 4, 0, 0, 100 * IR_US, 900 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), c);
	/* one more good window: 5 accumulated, up by 1023 >> 4 */
	ir_window(r, 1, 1, 0, 0, 100 * IR_US, 1000 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), c + 63);
	{
		struct ios_bio b;

		memset(&b, 0, sizeof(b));
		T_ASSERT_EQ(ir_submit(r, 3, &b, 1001 * IR_MS), 0);
		T_ASSERT_EQ(ir_grp(r, 3)->max_depth, 511 + 63);
	}
	ir_free(r);
	return T_PASS;
}

static int test_back_to_default(void)
{
	/* nr_requests 4: the cookie moves by 1 each way, depths 4 -> 2 -> 1 */
	struct ir_rig *r = fg_bg_rig(4);
	struct ios_iolat_grp *bg = ir_grp(r, BG);

	bad(r, 100 * IR_MS);
	T_ASSERT(bg_io(r, 101 * IR_MS));
	bad(r, 700 * IR_MS);
	T_ASSERT(bg_io(r, 701 * IR_MS));
	bad(r, 1300 * IR_MS);
	T_ASSERT(bg_io(r, 1301 * IR_MS));
	T_ASSERT_EQ(bg->max_depth, 1);
	T_ASSERT_EQ(ir_blkg(r, BG)->use_delay, 1);
	/* up once: the delay use goes first, the depth stays */
	good(r, 10, 1900 * IR_MS);
	T_ASSERT(bg_io(r, 1901 * IR_MS));
	T_ASSERT_EQ(ir_blkg(r, BG)->use_delay, 0);
	T_ASSERT_EQ(bg->max_depth, 1);
	/* up again: 1 + max(4 >> 4, 1) */
	good(r, 10, 2500 * IR_MS);
	T_ASSERT(bg_io(r, 2501 * IR_MS));
	T_ASSERT_EQ(bg->max_depth, 2);
	/* the third rise reaches the default cookie: no limit at all */
	good(r, 10, 3100 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), IOS_IOLAT_DEFAULT_COOKIE);
	T_ASSERT(bg_io(r, 3101 * IR_MS));
	T_ASSERT_EQ(bg->max_depth, IOS_IOLAT_UNLIMITED);
	ir_free(r);
	return T_PASS;
}

static int test_timer(void)
{
	struct ir_rig *r = fg_bg_rig(1023);
	struct ios_iolat_child *ci = &ir_grp(r, 0)->child;
	unsigned c;

	T_ASSERT_U64_EQ(ios_iolat_next_timer(r->lat), IOS_IOLAT_NEVER);
	bad(r, 100 * IR_MS);
	c = ir_cookie(r, 0);
	/* a submission at 101 ms arms it: jiffy 25 (4 ms at 250 Hz) + HZ = 1.1 s */
	T_ASSERT(bg_io(r, 101 * IR_MS));
	T_ASSERT_U64_EQ(ios_iolat_next_timer(r->lat), 1100 * IR_MS);
	ios_iolat_timer(r->lat, 1100 * IR_MS);
	T_ASSERT_U64_EQ(ios_iolat_next_timer(r->lat), IOS_IOLAT_NEVER);
	/* within 5 s of the event the scale group is kept and nothing rises */
	for (uint64_t t = 1200 * IR_MS; t < 4100 * IR_MS; t += 1000 * IR_MS) {
		T_ASSERT(bg_io(r, t));
		ios_iolat_timer(r->lat, ios_iolat_next_timer(r->lat));
		T_ASSERT(ci->scale_grp == ir_grp(r, FG));
		T_ASSERT_EQ(ir_cookie(r, 0), c);
	}
	/* 5 s after it the group is forgotten; the next run scales up */
	T_ASSERT(bg_io(r, 5000 * IR_MS));
	ios_iolat_timer(r->lat, ios_iolat_next_timer(r->lat));
	T_ASSERT(ci->scale_grp == NULL);
	T_ASSERT_EQ(ir_cookie(r, 0), c);
	T_ASSERT(bg_io(r, 6100 * IR_MS));
	ios_iolat_timer(r->lat, ios_iolat_next_timer(r->lat));
	T_ASSERT_EQ(ir_cookie(r, 0), c + 63);
	/* not armed: a timer call does nothing */
	ios_iolat_timer(r->lat, 9000 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 0), c + 63);
	ir_free(r);
	return T_PASS;
}

static int test_rq_wait(void)
{
	struct ir_rig *r = fg_bg_rig(4);
	struct ios_iolat_grp *bg = ir_grp(r, BG);
	struct ios_bio *b = r->bios;

	bad(r, 100 * IR_MS);
	T_ASSERT(bg_io(r, 101 * IR_MS));
	bad(r, 700 * IR_MS);
	T_ASSERT(bg_io(r, 701 * IR_MS));
	T_ASSERT_EQ(bg->max_depth, 1);
	T_ASSERT_EQ(ir_submit(r, BG, &b[0], 800 * IR_MS), 0);
	T_ASSERT_EQ(ir_submit(r, BG, &b[1], 800 * IR_MS), 1);
	T_ASSERT_EQ(ir_submit(r, BG, &b[2], 801 * IR_MS), 1);
	T_ASSERT_EQ(bg->nr_waiting, 2);
	T_ASSERT_EQ(r->nr_released, 0);
	ios_iolat_done_bio(r->lat, ir_blkg(r, BG), 800 * IR_MS, false, 810 * IR_MS);
	T_ASSERT_EQ(r->nr_released, 1);
	T_ASSERT(r->released[0] == &b[1]);
	T_ASSERT_EQ(bg->inflight, 1);
	ios_iolat_done_bio(r->lat, ir_blkg(r, BG), 810 * IR_MS, false, 820 * IR_MS);
	T_ASSERT_EQ(r->nr_released, 2);
	T_ASSERT(r->released[1] == &b[2]);
	ios_iolat_done_bio(r->lat, ir_blkg(r, BG), 820 * IR_MS, false, 830 * IR_MS);
	T_ASSERT_EQ(bg->inflight, 0);
	T_ASSERT_EQ(bg->nr_waiting, 0);
	/* issue-as-root bios take a slot past the limit and never wait */
	T_ASSERT_EQ(ios_iolat_throttle(r->lat, ir_blkg(r, BG), &b[3], false, 840 * IR_MS), 0);
	T_ASSERT_EQ(ios_iolat_throttle(r->lat, ir_blkg(r, BG), &b[4], true, 840 * IR_MS), 0);
	T_ASSERT_EQ(bg->inflight, 2);
	ios_iolat_done_bio(r->lat, ir_blkg(r, BG), 840 * IR_MS, false, 850 * IR_MS);
	ios_iolat_done_bio(r->lat, ir_blkg(r, BG), 840 * IR_MS, true, 850 * IR_MS);
	ir_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_halving_then_delay, test_one_event_per_500ms, test_scale_up_only_scale_grp,
		     test_back_to_default, test_timer, test_rq_wait);
}
