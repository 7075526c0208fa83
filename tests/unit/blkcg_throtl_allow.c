/*
 * io.max's allowance and wait (src/block/blk_throttle.c; Linux 6.12
 * tg_within_bps_limit, tg_within_iops_limit, calculate_*_allowed):
 *  - bps: the elapsed time is rounded up to whole slices, and a slice that
 *    has just started counts as a whole one; the wait is the excess bytes'
 *    time (at least a jiffy) plus that rounding (test_bps_rounding fails
 *    without either rounding);
 *  - iops: elapsed + 1 rounded up to a slice; in 6.11+ the wait is at
 *    least HZ / iops + 1 jiffies (test_iops_floor fails without it, and
 *    fails if 6.6 had it);
 *  - plan §10 C2.3's arithmetic: one psync reader (QD1, 100 us per I/O)
 *    under riops=10 (test_c23_qd1, which prints the IOPS it measures and
 *    checks the period the rules above give: 26 jiffies at HZ 250 under
 *    6.12 (the floor, as 10 x 5 / 250 allows 0 per slice), 25 under 6.6
 *    (one I/O per 100 ms slice), 101 at HZ 1000 under 6.12).
 */
#include "throtl_rig.h"

static int test_bps_rounding(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	struct ios_throtl_grp_view v;
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 1048576, 0, 0, 0);	/* 20971 bytes per 5-jiffy slice */
	T_ASSERT(!tr_start(t, 0));
	/* at the slice's first jiffy a whole slice is allowed: five reads pass */
	for (unsigned i = 0; i < 5; i++)
		T_ASSERT(!tr_held(t, tr_bio(t, g, IOS_READ, 4096, 0)));
	/* one jiffy in: still one slice (1 rounded up to 5), so the sixth waits */
	b = tr_bio(t, g, IOS_READ, 4096, tr_ns(t, 1));
	T_ASSERT(tr_held(t, b));
	v = tr_view(t, g, IOS_READ);
	/* 3605 bytes over: 0 jiffies -> 1, plus the rounding 5 - 1 = 4: due at 1 + 5 */
	T_ASSERT_EQ(v.disptime, 6);
	T_ASSERT_EQ(v.slice_end, 10);
	tr_run(t, tr_ns(t, 5) + 1);
	T_ASSERT(tr_held(t, b));
	tr_run(t, tr_ns(t, 6));
	T_ASSERT_U64_EQ(t->went[b], tr_ns(t, 6));
	tr_free(t);
	return T_PASS;
}

static int test_iops_rounding(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 0, 0, 100, 0);	/* 100 x 5 / 250 = 2 per slice */
	T_ASSERT(!tr_start(t, 0));
	T_ASSERT(!tr_held(t, tr_bio(t, g, IOS_READ, 4096, 0)));
	T_ASSERT(!tr_held(t, tr_bio(t, g, IOS_READ, 4096, 0)));
	b = tr_bio(t, g, IOS_READ, 4096, tr_ns(t, 2));
	T_ASSERT(tr_held(t, b));
	/* elapsed 2 + 1 rounds up to 5: wait 3, which is also the floor 250/100 + 1 */
	T_ASSERT_EQ(tr_view(t, g, IOS_READ).disptime, 5);
	tr_run(t, tr_ns(t, 5));
	T_ASSERT_U64_EQ(t->went[b], tr_ns(t, 5));
	tr_free(t);
	return T_PASS;
}

/* riops=5 on a rotational queue: 5 x 25 / 250 = 0 I/Os per slice */
static int64_t floor_disptime(const struct ios_throtl_profile *p)
{
	struct tr *t = tr_new(p, 250, 1);
	unsigned g;
	int64_t d;

	g = tr_group(t, 0, 0, 0, 5, 0);
	tr_start(t, 0);
	if (!tr_held(t, tr_bio(t, g, IOS_READ, 4096, 0)))
		d = -1;
	else
		d = tr_view(t, g, IOS_READ).disptime;
	tr_free(t);
	return d;
}

static int test_iops_floor(void)
{
	/* 6.12: nothing allowed in a slice, so wait HZ/5 + 1 = 51 jiffies, not the slice's 25 */
	T_ASSERT_EQ(floor_disptime(&ios_throtl_profile_6_12), 51);
	/* 6.6: no floor (and no "allowed > 0" test): 0 + 1 <= 0 fails, wait the 25 */
	T_ASSERT_EQ(floor_disptime(&ios_throtl_profile_6_6), 25);
	return T_PASS;
}

/* One psync reader, 100 us per I/O, for 30 s; returns its IOPS over 2..30 s. */
static double qd1(const struct ios_throtl_profile *p, unsigned hz, int rot, uint32_t riops,
		  uint64_t *period_jiffies)
{
	struct tr *t = tr_new(p, hz, rot);
	uint64_t now = 0, lat = 100 * IOS_NSEC_PER_USEC, last_went = 0, first = 0;
	unsigned g, n = 0;

	g = tr_group(t, 0, 0, 0, riops, 0);
	tr_start(t, 0);
	*period_jiffies = 0;
	while (now < 30 * IOS_NSEC_PER_SEC && t->nr_bios < TR_MAX_BIOS) {
		unsigned b = tr_bio(t, g, IOS_READ, 4096, now);

		while (tr_held(t, b)) {
			uint64_t at = ios_blk_throtl_ops.next_timer(t->m->q, now);

			if (at == UINT64_MAX)
				break;
			ios_blk_throtl_ops.timer(t->m->q, at);
			now = at;
		}
		if (tr_held(t, b))
			break;
		if (t->went[b] >= 2 * IOS_NSEC_PER_SEC) {
			*period_jiffies = (uint64_t)(ios_blk_throtl_jiffies(t->m->q, t->went[b]) -
						     ios_blk_throtl_jiffies(t->m->q, last_went));
			if (!n++)
				first = t->went[b];
		}
		last_went = t->went[b];
		now = t->went[b] + lat;
	}
	tr_free(t);
	/* I/Os per second between the first and the last that went after 2 s */
	return n > 1 ? (n - 1) / ((double)(last_went - first) / IOS_NSEC_PER_SEC) : 0;
}

static int test_c23_qd1(void)
{
	uint64_t per;
	double iops;

	iops = qd1(&ios_throtl_profile_6_12, 250, 0, 10, &per);
	printf("  C2.3 riops=10 HZ 250 6.12: %.3f IOPS (period %" PRIu64 " jiffies)\n", iops, per);
	T_ASSERT_EQ(per, 26);
	T_ASSERT_NEAR(iops, 250.0 / 26, 0.05);
	iops = qd1(&ios_throtl_profile_6_6, 250, 0, 10, &per);
	printf("  C2.3 riops=10 HZ 250 6.6:  %.3f IOPS (period %" PRIu64 " jiffies)\n", iops, per);
	T_ASSERT_EQ(per, 25);
	T_ASSERT_NEAR(iops, 10.0, 0.05);
	iops = qd1(&ios_throtl_profile_6_12, 1000, 0, 10, &per);
	printf("  C2.3 riops=10 HZ 1000 6.12: %.3f IOPS (period %" PRIu64 " jiffies)\n", iops, per);
	T_ASSERT_EQ(per, 101);
	T_ASSERT_NEAR(iops, 1000.0 / 101, 0.05);
	return T_PASS;
}

/*
 * What the floor was for (the 6.11 patch: a 5 IOPS limit gave about 3):
 * 6.6 gives one I/O per 75 jiffies on average (3.33 IOPS); 6.12 one per
 * 51 (the floor, 4.9 IOPS). Fails if 6.6 had the floor or 6.12 lacked it.
 */
static int test_floor_purpose(void)
{
	uint64_t per;
	double a = qd1(&ios_throtl_profile_6_6, 250, 1, 5, &per);
	double b = qd1(&ios_throtl_profile_6_12, 250, 1, 5, &per);

	printf("  riops=5 HZ 250 rotational: 6.6 %.3f IOPS, 6.12 %.3f IOPS\n", a, b);
	T_ASSERT_NEAR(a, 10.0 / 3, 0.05);
	T_ASSERT_NEAR(b, 250.0 / 51, 0.05);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_bps_rounding, test_iops_rounding, test_iops_floor, test_c23_qd1,
		     test_floor_purpose);
}
