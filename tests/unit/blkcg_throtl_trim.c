/*
 * io.max's slice trimming (src/block/blk_throttle.c; Linux 6.12
 * throtl_trim_slice, called after every dispatch and on the direct path):
 * whole elapsed slices leave the books with what they allowed, the slice
 * start moves by them, and the end is pulled back to now + one slice.
 * test_trim_after_dispatch fails without the trim (start stays 0, the
 * bytes stay 24576); test_trim_direct fails if the direct path does not
 * trim; test_trim_carryover_612 fails if 6.12's trim leaves the carryover
 * out or keeps it afterwards.
 */
#include "throtl_rig.h"

/* rbps = 1 MiB/s on a 5-jiffy slice: 20971 bytes per slice */
static int test_trim_after_dispatch(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	struct ios_throtl_grp_view v;
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 1048576, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		tr_bio(t, g, IOS_READ, 4096, 0);
	b = tr_bio(t, g, IOS_READ, 4096, tr_ns(t, 3));
	T_ASSERT(tr_held(t, b));
	tr_run(t, tr_ns(t, 6));
	T_ASSERT(!tr_held(t, b));
	v = tr_view(t, g, IOS_READ);
	/* 24576 dispatched, one whole slice (5 jiffies, 20971 bytes) trimmed */
	T_ASSERT_EQ(v.slice_start, 5);
	T_ASSERT_EQ(v.bytes_disp, 24576 - 20971);
	T_ASSERT_EQ(v.slice_end, 15);	/* roundup(6 + 5, 5) */
	/* no iops limit: UINT_MAX x 5 / 250 I/Os trimmed, so the count starts over */
	T_ASSERT_EQ(v.io_disp, 0);
	tr_free(t);
	return T_PASS;
}

/* A group that never queues still trims, so its history does not pile up. */
static int test_trim_direct(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	struct ios_throtl_grp_view v;
	unsigned g;

	T_ASSERT(t);
	g = tr_group(t, 0, 1048576, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	/* one 4 KiB read every other jiffy (half the limit): none waits */
	for (unsigned j = 0; j <= 22; j += 2)
		T_ASSERT(!tr_held(t, tr_bio(t, g, IOS_READ, 4096, tr_ns(t, j))));
	v = tr_view(t, g, IOS_READ);
	/*
	 * trims at jiffies 6, 10, 16, 20 (each 5 or more past the start) each
	 * drop a slice's 20971 bytes, more than was dispatched since: the start
	 * is 20 and only jiffy 22's read is on the books
	 */
	T_ASSERT_EQ(v.slice_start, 20);
	T_ASSERT_EQ(v.bytes_disp, 4096);
	tr_free(t);
	return T_PASS;
}

/*
 * A carryover (here a META debt, 6.12's tg_dispatch_in_debt, which charges
 * the carryover and not bytes_disp) is folded into the trim and cleared.
 */
static int test_trim_carryover_612(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	struct ios_throtl_grp_view v;
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 1048576, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		tr_bio(t, g, IOS_READ, 4096, 0);
	/* over the limit but META: goes now, 4096 bytes of debt */
	b = tr_bio_ex(t, g, IOS_READ, 4096, 4096, false, IOS_REQ_META, 0);
	T_ASSERT(!tr_held(t, b));
	T_ASSERT_EQ(tr_view(t, g, IOS_READ).carryover_bytes, -4096);
	/* at jiffy 7 one slice is trimmed: 20971 - 4096 of the 20480 + 4096 dispatched */
	b = tr_bio(t, g, IOS_READ, 4096, tr_ns(t, 7));
	v = tr_view(t, g, IOS_READ);
	T_ASSERT(!tr_held(t, b));
	T_ASSERT_EQ(v.carryover_bytes, 0);
	T_ASSERT_EQ(v.slice_start, 5);
	T_ASSERT_EQ(v.bytes_disp, 20480 + 4096 - (20971 - 4096));
	tr_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_trim_after_dispatch, test_trim_direct, test_trim_carryover_612);
}
