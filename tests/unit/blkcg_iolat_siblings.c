/*
 * Description: who io.latency throttles (Linux 6.12 blk-iolatency.c,
 * iolatency_check_latencies and check_scale_change). A bad window lowers
 * the cookie of the group's parent only, so only its siblings are scaled:
 * cousins under another parent are untouched (test_cousins). Among the
 * siblings, one whose target is at or below the missed target is spared,
 * and so is one with a target that did 5 % or less of the parent's samples;
 * a group without a target is always a victim, samples or not
 * (test_exemptions), which also checks that issue-as-root I/O of a limited
 * group is no sample but a delay of target - latency when faster than the
 * target (iolatency_record_time). A nested group waits at every level that limits it
 * (test_nested_wait). Each assertion fails without its rule.
 */
#include "iolat_rig.h"

static int submit_passes(struct ir_rig *r, unsigned i, uint64_t t)
{
	struct ios_bio b;
	int held;

	memset(&b, 0, sizeof(b));
	held = ir_submit(r, i, &b, t);
	if (!held)
		ios_iolat_done_bio(r->lat, &r->ctl->blkgs[i], t, false, t + 10 * IR_US);
	return !held;
}

static int test_cousins(void)
{
	/* root 0; x 1 {x1 2 (target), x2 3}; y 4 {y1 5} */
	static const int tree[] = { -1, 0, 1, 1, 0, 4 };
	struct ir_rig *r = ir_new(6, tree, 1023, true);

	ir_target(r, 2, 1 * IR_MS);
	ir_window(r, 2, 10, 10, 3 * IR_MS, 0, 100 * IR_MS);
	T_ASSERT_EQ(ir_cookie(r, 1), IOS_IOLAT_DEFAULT_COOKIE - 255);
	T_ASSERT_EQ(ir_cookie(r, 0), IOS_IOLAT_DEFAULT_COOKIE);
	T_ASSERT_EQ(ir_cookie(r, 4), IOS_IOLAT_DEFAULT_COOKIE);
	T_ASSERT(submit_passes(r, 3, 101 * IR_MS));
	T_ASSERT(submit_passes(r, 5, 101 * IR_MS));
	T_ASSERT_EQ(ir_grp(r, 3)->max_depth, 511);		/* the sibling */
	T_ASSERT_EQ(ir_grp(r, 5)->max_depth, IOS_IOLAT_UNLIMITED);	/* the cousin */
	T_ASSERT_EQ(ir_grp(r, 4)->max_depth, IOS_IOLAT_UNLIMITED);	/* the uncle */
	T_ASSERT_EQ(ir_grp(r, 1)->max_depth, IOS_IOLAT_UNLIMITED);	/* the parent */
	ir_free(r);
	return T_PASS;
}

static int test_exemptions(void)
{
	/*
	 * Under the root: fg 1 (1 ms), strict 2 (0.5 ms), few 3 (10 ms, one
	 * sample), many 4 (10 ms, fifty samples), none 5 (no target, no samples).
	 */
	static const int flat[] = { -1, 0, 0, 0, 0, 0 };
	struct ir_rig *r = ir_new(6, flat, 1023, true);

	ir_target(r, 1, 1 * IR_MS);
	ir_target(r, 2, 500 * IR_US);
	ir_target(r, 3, 10 * IR_MS);
	ir_target(r, 4, 10 * IR_MS);
	/* fg: 20 samples, all bad: the event at 100 ms, scale_lat 1 ms */
	ir_window(r, 1, 20, 20, 3 * IR_MS, 0, 100 * IR_MS);
	/* the others' windows close once the cookie has moved, so they are counted */
	ir_window(r, 2, 30, 0, 0, 100 * IR_US, 200 * IR_MS);
	ir_window(r, 3, 1, 0, 0, 100 * IR_US, 200 * IR_MS);
	ir_window(r, 4, 50, 0, 0, 100 * IR_US, 200 * IR_MS);
	/* the parent has 20 + 30 + 1 + 50 = 101 samples: 5 % is 5 */
	T_ASSERT_EQ(ir_grp(r, 0)->child.nr_samples, 101);
	/* all submit before any completes (a completion could close a window) */
	for (unsigned i = 1; i <= 5; i++)
		T_ASSERT_EQ(ir_submit(r, i, &r->bios[i], 250 * IR_MS), 0);
	for (unsigned i = 1; i <= 5; i++)
		ios_iolat_done_bio(r->lat, &r->ctl->blkgs[i], 250 * IR_MS, false, 251 * IR_MS);
	T_ASSERT_EQ(ir_grp(r, 1)->max_depth, IOS_IOLAT_UNLIMITED);	/* the scale group */
	T_ASSERT_EQ(ir_grp(r, 2)->max_depth, IOS_IOLAT_UNLIMITED);	/* stricter target */
	T_ASSERT_EQ(ir_grp(r, 3)->max_depth, IOS_IOLAT_UNLIMITED);	/* 1 <= 5 samples */
	T_ASSERT_EQ(ir_grp(r, 4)->max_depth, 511);			/* 50 > 5 */
	T_ASSERT_EQ(ir_grp(r, 5)->max_depth, 511);			/* no target: always */
	/* a spared group has taken the cookie: it does not catch up later */
	T_ASSERT_EQ(ir_grp(r, 3)->scale_cookie, ir_cookie(r, 0));
	/*
	 * Issue-as-root I/O (metadata): in the limited group 4 it is no sample,
	 * and one faster than the target adds target - latency to the group's
	 * delay (iolatency_record_time); in the unlimited group 3 it is a sample.
	 */
	{
		uint64_t t4 = ir_grp(r, 4)->stat.total, t3 = ir_grp(r, 3)->stat.total;

		ios_iolat_done_bio(r->lat, ir_blkg(r, 4), 300 * IR_MS, true, 301 * IR_MS);
		T_ASSERT_EQ(ir_grp(r, 4)->stat.total, t4);
		T_ASSERT_U64_EQ(ir_grp(r, 4)->delay_added_ns, 9 * IR_MS);
		T_ASSERT_U64_EQ(ir_blkg(r, 4)->delay_nsec, 9 * IR_MS);
		ios_iolat_done_bio(r->lat, ir_blkg(r, 4), 300 * IR_MS, false, 302 * IR_MS);
		T_ASSERT_EQ(ir_grp(r, 4)->stat.total, t4 + 1);
		ios_iolat_done_bio(r->lat, ir_blkg(r, 3), 300 * IR_MS, true, 301 * IR_MS);
		T_ASSERT_EQ(ir_grp(r, 3)->stat.total, t3 + 1);
		T_ASSERT_U64_EQ(ir_grp(r, 3)->delay_added_ns, 0);
	}
	ir_free(r);
	return T_PASS;
}

static int test_nested_wait(void)
{
	/* root 0; fg 1 (target); p 2 {c 3}: p is the victim, c waits at p's limit */
	static const int tree[] = { -1, 0, 0, 2 };
	struct ir_rig *r = ir_new(4, tree, 4, true);
	struct ios_bio *b = r->bios;

	ir_target(r, 1, 1 * IR_MS);
	ir_window(r, 1, 10, 10, 3 * IR_MS, 0, 100 * IR_MS);
	T_ASSERT(submit_passes(r, 3, 101 * IR_MS));
	ir_window(r, 1, 10, 10, 3 * IR_MS, 0, 700 * IR_MS);
	T_ASSERT(submit_passes(r, 3, 701 * IR_MS));
	T_ASSERT_EQ(ir_grp(r, 2)->max_depth, 1);
	T_ASSERT_EQ(ir_grp(r, 3)->max_depth, IOS_IOLAT_UNLIMITED);
	T_ASSERT_EQ(ir_submit(r, 3, &b[0], 800 * IR_MS), 0);
	T_ASSERT_EQ(ir_submit(r, 3, &b[1], 800 * IR_MS), 1);
	/* c itself had room: the bio holds a slot at c and waits at p */
	T_ASSERT_EQ(ir_grp(r, 3)->inflight, 2);
	T_ASSERT_EQ(ir_grp(r, 2)->inflight, 1);
	T_ASSERT_EQ(ir_grp(r, 2)->nr_waiting, 1);
	ios_iolat_done_bio(r->lat, &r->ctl->blkgs[3], 800 * IR_MS, false, 810 * IR_MS);
	T_ASSERT_EQ(r->nr_released, 1);
	T_ASSERT(r->released[0] == &b[1]);
	ios_iolat_done_bio(r->lat, &r->ctl->blkgs[3], 810 * IR_MS, false, 820 * IR_MS);
	T_ASSERT_EQ(ir_grp(r, 2)->inflight, 0);
	T_ASSERT_EQ(ir_grp(r, 3)->inflight, 0);
	ir_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_cousins, test_exemptions, test_nested_wait);
}
