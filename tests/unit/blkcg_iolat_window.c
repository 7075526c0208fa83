/*
 * Description: io.latency's windows (Linux 6.12 blk-iolatency.c,
 * iolatency_set_min_lat_nsec and blkcg_iolatency_done_bio). A window is 16
 * times the group's target, clamped to 100 ms..1 s, and closes only at the
 * first completion after its length: idle time stretches it, and the next
 * window starts at that completion. Fails if the 16x rule or either clamp is
 * removed (test_length), if windows are closed by time rather than by a
 * completion (test_only_with_io), or if the next window starts at the
 * window's nominal end instead of the closing completion (test_restart).
 */
#include "iolat_rig.h"

static const int two[] = { -1, 0 };

/* the completion at @end - 1 ns leaves the window open, the one at @end closes it */
static int window_closes_at(uint64_t target, uint64_t end)
{
	struct ir_rig *r = ir_new(2, two, 1023, true);
	int ok;

	ir_target(r, 1, target);
	ir_io(r, 1, 10 * IR_US, end - 1);
	ok = ir_grp(r, 1)->nr_windows == 0;
	ir_io(r, 1, 10 * IR_US, end);
	ok = ok && ir_grp(r, 1)->nr_windows == 1 && ir_grp(r, 1)->window_start == end;
	ir_free(r);
	return ok;
}

static int test_length(void)
{
	/* 16 x 10 ms */
	T_ASSERT(window_closes_at(10 * IR_MS, 160 * IR_MS));
	/* 16 x 1 ms = 16 ms, raised to the 100 ms floor */
	T_ASSERT(window_closes_at(1 * IR_MS, 100 * IR_MS));
	/* 16 x 100 ms = 1.6 s, cut to the 1 s ceiling */
	T_ASSERT(window_closes_at(100 * IR_MS, 1000 * IR_MS));
	/* 16 x 37 us = 592 us: the floor */
	T_ASSERT(window_closes_at(37 * IR_US, 100 * IR_MS));
	return T_PASS;
}

static int test_only_with_io(void)
{
	struct ir_rig *r = ir_new(2, two, 1023, true);
	struct ios_iolat_grp *g;

	ir_target(r, 1, 1 * IR_MS);	/* 100 ms windows */
	g = ir_grp(r, 1);
	ir_io(r, 1, 50 * IR_US, 50 * IR_MS);
	/* ten seconds without I/O: the timer runs, no window closes */
	for (uint64_t t = 1000 * IR_MS; t <= 10000 * IR_MS; t += 1000 * IR_MS)
		ios_iolat_timer(r->lat, t);
	T_ASSERT_EQ(g->nr_windows, 0);
	/* one completion closes one window, holding both samples, not a hundred */
	ir_io(r, 1, 50 * IR_US, 10000 * IR_MS);
	T_ASSERT_EQ(g->nr_windows, 1);
	T_ASSERT_U64_EQ(g->window_start, 10000 * IR_MS);
	ir_free(r);
	return T_PASS;
}

static int test_restart(void)
{
	struct ir_rig *r = ir_new(2, two, 1023, true);
	struct ios_iolat_grp *g;

	ir_target(r, 1, 1 * IR_MS);
	g = ir_grp(r, 1);
	ir_io(r, 1, 50 * IR_US, 150 * IR_MS);	/* closes [0, 150 ms) */
	T_ASSERT_EQ(g->nr_windows, 1);
	ir_io(r, 1, 50 * IR_US, 240 * IR_MS);	/* 90 ms into the next: open */
	T_ASSERT_EQ(g->nr_windows, 1);
	ir_io(r, 1, 50 * IR_US, 250 * IR_MS);	/* 100 ms after 150 ms */
	T_ASSERT_EQ(g->nr_windows, 2);
	ir_free(r);
	return T_PASS;
}

/* A group without a target keeps no windows at all. */
static int test_no_target_no_window(void)
{
	static const int three[] = { -1, 0, 0 };
	struct ir_rig *r = ir_new(3, three, 1023, true);

	ir_target(r, 1, 1 * IR_MS);	/* enables the controller */
	ir_io(r, 2, 50 * IR_US, 500 * IR_MS);
	T_ASSERT_EQ(ir_grp(r, 2)->nr_windows, 0);
	T_ASSERT_EQ(ir_grp(r, 2)->stat.total, 0);
	ir_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_length, test_only_with_io, test_restart, test_no_target_no_window);
}
