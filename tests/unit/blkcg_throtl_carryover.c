/*
 * io.max limit changes (src/block/blk_throttle.c; Linux 6.12 tg_set_limit
 * -> tg_update_carryover, then tg_conf_updated): for each direction with
 * bios waiting, what the old limit allowed since the slice start minus what
 * was dispatched is carried over, and both slices restart at the change
 * (the carryover kept). The waiting bio's time is then computed under the
 * new limit with that carryover. test_carryover_debt fails without the
 * carryover (the 32 KiB bio would go at once at jiffy 2, not at 8) or
 * without the slice restart (start 0, not 2); test_no_queue_no_carryover
 * fails if a direction with nothing queued gets one.
 */
#include "throtl_rig.h"

static int test_carryover_debt(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	const uint64_t bps[2] = { 2097152, UINT64_MAX };
	const uint32_t iops[2] = { UINT32_MAX, UINT32_MAX };
	struct ios_throtl_grp_view v;
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 1048576, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		tr_bio(t, g, IOS_READ, 4096, 0);	/* 20480 of the slice's 20971 */
	b = tr_bio(t, g, IOS_READ, 32768, 0);
	T_ASSERT(tr_held(t, b));
	/* jiffy 2: 1 MiB/s allowed 8388 bytes so far, 20480 went: -12092 carried */
	T_ASSERT(!ios_blk_throtl_set_limit(t->m->q, &t->cg[g], bps, iops, tr_ns(t, 2)));
	v = tr_view(t, g, IOS_READ);
	T_ASSERT_EQ(v.carryover_bytes, 8388 - 20480);
	T_ASSERT_EQ(v.slice_start, 2);
	T_ASSERT_EQ(v.bytes_disp, 0);
	/*
	 * 2 MiB/s allows 41943 per slice, 29851 with the debt: 2917 bytes short,
	 * 0 jiffies -> 1, plus the fresh slice's rounding 5: due at 2 + 6
	 */
	T_ASSERT_EQ(v.disptime, 8);
	tr_run(t, tr_ns(t, 7));
	T_ASSERT(tr_held(t, b));
	tr_run(t, tr_ns(t, 8));
	T_ASSERT_U64_EQ(t->went[b], tr_ns(t, 8));
	tr_free(t);
	return T_PASS;
}

/* writes had nothing queued: their carryover stays 0 when the limit changes */
static int test_no_queue_no_carryover(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	const uint64_t bps[2] = { 2097152, 2097152 };
	const uint32_t iops[2] = { UINT32_MAX, UINT32_MAX };
	unsigned g;

	T_ASSERT(t);
	g = tr_group(t, 0, 1048576, 1048576, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		tr_bio(t, g, IOS_WRITE, 4096, 0);
	tr_bio(t, g, IOS_READ, 4096, 0);
	T_ASSERT(!ios_blk_throtl_set_limit(t->m->q, &t->cg[g], bps, iops, tr_ns(t, 2)));
	T_ASSERT_EQ(tr_view(t, g, IOS_WRITE).carryover_bytes, 0);
	T_ASSERT_EQ(tr_view(t, g, IOS_READ).carryover_bytes, 0);
	/* and the root refuses a limit, as io.max does not exist there */
	T_ASSERT(ios_blk_throtl_set_limit(t->m->q, &t->cg[0], bps, iops, tr_ns(t, 2)) < 0);
	tr_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_carryover_debt, test_no_queue_no_carryover);
}
