/*
 * io.max limit changes (src/block/blk_throttle.c; Linux 6.12 tg_set_limit
 * -> tg_update_carryover, then tg_conf_updated): for each direction with
 * bios waiting, what the old limit allowed since the slice start minus what
 * was dispatched is carried over, and both slices restart at the change
 * (the carryover kept). The waiting bio's time is then computed under the
 * new limit with that carryover. test_carryover_debt fails without the
 * carryover (the 32 KiB bio would go at once at jiffy 2, not at 8) or
 * without the slice restart (start 0, not 2); test_no_queue_no_carryover
 * fails if a direction with nothing queued gets one. test_rewrite_rate
 * (plan §10 C2.4's arithmetic): a backlogged reader at rbps=20 MiB/s whose
 * io.max becomes 40 MiB/s at 1 s through the group tree's conf_updated hook
 * (how a later job's exec_prerun reaches the throttle) gets 40 MiB/s within
 * 5 % over the next 0.5 s; it fails if the hook does not re-read the file.
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

/* bytes released in [from, to) by a reader keeping 8 x 128 KiB reads waiting */
static uint64_t backlog(struct tr *t, unsigned g, uint64_t from, uint64_t to, uint64_t *now)
{
	uint64_t bytes = 0;

	while (*now < to) {
		unsigned seen = t->nr_released;
		uint64_t at = ios_blk_throtl_ops.next_timer(t->m->q, *now);

		if (at == UINT64_MAX || at >= to) {
			*now = to;
			break;
		}
		ios_blk_throtl_ops.timer(t->m->q, at);
		*now = at;
		for (unsigned i = seen; i < t->nr_released; i++) {
			if (at >= from)
				bytes += (uint64_t)t->released[i]->nr_sectors * 512;
			if (t->nr_bios < TR_MAX_BIOS)
				tr_bio(t, g, IOS_READ, 131072, at);
		}
	}
	return bytes;
}

static int test_rewrite_rate(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	uint64_t now = 0, b;
	unsigned g;

	T_ASSERT(t);
	g = tr_group(t, 0, 20971520, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 8 + 4; i++)
		tr_bio(t, g, IOS_READ, 131072, 0);
	b = backlog(t, g, IOS_NSEC_PER_SEC / 2, IOS_NSEC_PER_SEC, &now);
	printf("  20 MiB/s: %.2f MiB/s over 0.5-1 s\n", b * 2.0 / 1048576);
	T_ASSERT_NEAR(b * 2.0 / 1048576, 20, 1);
	t->v2[g].bps[IOS_READ] = 41943040;
	T_ASSERT(t->m->q->blkcg->conf_updated[IOS_BLKCG_MAX]);
	t->m->q->blkcg->conf_updated[IOS_BLKCG_MAX](t->m->q, &t->m->q->blkcg->blkgs[g], now);
	b = backlog(t, g, now, now + IOS_NSEC_PER_SEC / 2, &now);
	printf("  40 MiB/s: %.2f MiB/s over the 0.5 s after the write\n", b * 2.0 / 1048576);
	T_ASSERT_NEAR(b * 2.0 / 1048576, 40, 2);
	tr_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_carryover_debt, test_no_queue_no_carryover, test_rewrite_rate);
}
