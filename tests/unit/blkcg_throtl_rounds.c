/*
 * io.max's dispatch rounds (src/block/blk_throttle.c; Linux 6.12
 * throtl_dispatch_tg, throtl_select_dispatch, throtl_pending_timer_fn,
 * throtl_schedule_pending_timer): a group gives at most 6 reads then 2
 * writes per turn (THROTL_GRP_QUANTUM 8, 75 % reads), then goes back in
 * dispatch-time order; a round stops at 32 bios (THROTL_QUANTUM) and the
 * timer function starts another while groups are due; the pending timer is
 * never armed more than 8 slices ahead. test_six_two fails without the
 * per-turn quanta; test_thirty_two fails without the round cap (one round
 * of 50); test_timer_cap fails without the 8-slice cap.
 */
#include "throtl_rig.h"

static const uint64_t no_bps[2] = { UINT64_MAX, UINT64_MAX };

/* hold 10 reads and 10 writes behind a 1 byte/s limit, then lift it */
static int test_six_two(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	const uint32_t iops[2] = { 2500, 2500 };	/* 50 per slice: all are within */
	char seq[32] = "";
	unsigned g, n = 0;

	T_ASSERT(t);
	g = tr_group(t, 0, 1, 1, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 10; i++) {
		T_ASSERT(tr_held(t, tr_bio(t, g, IOS_READ, 4096, 0)));
		T_ASSERT(tr_held(t, tr_bio(t, g, IOS_WRITE, 4096, 0)));
	}
	T_ASSERT(!ios_blk_throtl_set_limit(t->m->q, &t->cg[g], no_bps, iops, tr_ns(t, 1)));
	t->nr_notes = 0;
	tr_run(t, tr_ns(t, 2));
	T_ASSERT_EQ(t->nr_released, 20);
	for (unsigned i = 0; i < t->nr_notes && n + 1 < sizeof(seq); i++)
		if (t->notes[i].ev == IOS_THROTL_DISPATCH && t->notes[i].cg == &t->cg[g])
			seq[n++] = t->notes[i].dir ? 'W' : 'R';
	seq[n] = 0;
	T_ASSERT_MSG(!strcmp(seq, "RRRRRRWWRRRRWWWWWWWW"), "group turns: %s", seq);
	tr_free(t);
	return T_PASS;
}

/* five groups of 10 due reads: rounds of 34 (6 x 5 + 4, the cap crossed) and 16 */
static int test_thirty_two(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	const uint32_t iops[2] = { 2500, 2500 };
	unsigned g[5], rounds[8], nr = 0;

	T_ASSERT(t);
	for (unsigned k = 0; k < 5; k++)
		g[k] = tr_group(t, 0, 1, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned k = 0; k < 5; k++)
		for (unsigned i = 0; i < 10; i++)
			T_ASSERT(tr_held(t, tr_bio(t, g[k], IOS_READ, 4096, 0)));
	for (unsigned k = 0; k < 5; k++)
		T_ASSERT(!ios_blk_throtl_set_limit(t->m->q, &t->cg[g[k]], no_bps, iops, 0));
	t->nr_notes = 0;
	tr_run(t, tr_ns(t, 1));
	T_ASSERT_EQ(t->nr_released, 50);
	/* the root group's service queue dispatches the five children */
	for (unsigned i = 0; i < t->nr_notes && nr < 8; i++)
		if (t->notes[i].ev == IOS_THROTL_ROUND && t->notes[i].cg == &t->cg[0])
			rounds[nr++] = t->notes[i].value;
	T_ASSERT_EQ(nr, 2);
	T_ASSERT_EQ(rounds[0], 34);
	T_ASSERT_EQ(rounds[1], 16);
	tr_free(t);
	return T_PASS;
}

/* 1 byte/s: a 4 KiB read would wait 4096 s; the timer comes every 8 slices (160 ms) */
static int test_timer_cap(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 1, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	b = tr_bio(t, g, IOS_READ, 4096, 0);
	T_ASSERT(tr_held(t, b));
	T_ASSERT_U64_EQ(ios_blk_throtl_ops.next_timer(t->m->q, 0), tr_ns(t, 40));
	ios_blk_throtl_ops.timer(t->m->q, tr_ns(t, 40));
	T_ASSERT(tr_held(t, b));
	T_ASSERT_U64_EQ(ios_blk_throtl_ops.next_timer(t->m->q, tr_ns(t, 40)), tr_ns(t, 80));
	tr_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_six_two, test_thirty_two, test_timer_cap);
}
