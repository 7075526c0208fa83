/*
 * Description: io.cost's linear model (Linux 6.12 block/blk-iocost.c).
 * calc_lcoefs turns each built-in set's bps/seqiops/randiops into vtime
 * coefficients (page = ceil(2^37 / ceil(bps/4096)), seqio/randio =
 * ceil(2^37/iops) - page, floored at 0); calc_vtime_cost_builtin charges a
 * bio seqio or randio by its distance from the group's cursor (more than
 * LCOEF_RANDIO_PAGES = 4096 pages, 16 MiB: random) plus pages x page, a
 * merge the page part only, and a back merge at the cursor moves it.
 * Expected numbers were worked out by hand from the autop[] table.
 */
#include "iocost_rig.h"

/* each set: rpage, rseqio, rrandio, wpage, wseqio, wrandio */
static const uint64_t want[IOS_AUTOP_NR][6] = {
	[IOS_AUTOP_HDD] = { 3234924, 60342, 368221708, 3161261, 57074, 360433855 },
	[IOS_AUTOP_SSD_QD1] = { 2289734, 0, 17497044, 3982238, 94134, 1146847 },
	[IOS_AUTOP_SSD_DFL] = { 1152074, 14235181, 14983047, 1315634, 3464021, 4948676 },
	[IOS_AUTOP_SSD_FAST] = { 181449, 8171, 0, 323018, 0, 0 },
};

/* rule: calc_lcoefs' rounding and the floor at 0, for all four sets */
static int test_lcoefs(void)
{
	for (int i = IOS_AUTOP_HDD; i < IOS_AUTOP_NR; i++) {
		const uint64_t *u = ios_iocost_autop_lcoefs(i);
		uint64_t c[6];

		ios_iocost_calc_lcoefs(u[0], u[1], u[2], &c[0], &c[1], &c[2]);
		ios_iocost_calc_lcoefs(u[3], u[4], u[5], &c[3], &c[4], &c[5]);
		for (int k = 0; k < 6; k++)
			T_ASSERT_MSG(c[k] == want[i][k], "set %s coef %d: %llu, want %llu",
				     ios_iocost_autop_names[i], k, (unsigned long long)c[k],
				     (unsigned long long)want[i][k]);
	}
	/* SSD_DFL: a 4 KiB random read is 1/8518 s of device time at vrate 100 % */
	T_ASSERT_U64_EQ(want[IOS_AUTOP_SSD_DFL][0] + want[IOS_AUTOP_SSD_DFL][2],
			((1ull << 37) + 8517) / 8518);
	/* bps below one page a second: page cost 1 */
	uint64_t p, s, rr;
	ios_iocost_calc_lcoefs(1, 0, 0, &p, &s, &rr);
	T_ASSERT_U64_EQ(p, 1ull << 37);	/* ceil(1/4096) = 1 page a second */
	return T_PASS;
}

/* the controller loads the device class's set (ioc_refresh_lcoefs) */
static int test_loaded(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));

	c_init(r);
	r->dev.rotational = true;
	T_ASSERT(!c_start(r, 1, 0));
	struct ios_iocost_state s = c_state(r, 0);
	T_ASSERT_EQ(s.autop, IOS_AUTOP_HDD);
	for (int k = 0; k < 6; k++)
		T_ASSERT_U64_EQ(s.lcoefs[k], want[IOS_AUTOP_HDD][k]);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: the 16 MiB cursor (LCOEF_RANDIO_PAGES), per group, and merges */
static int test_cursor(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	const uint64_t *w = want[IOS_AUTOP_SSD_DFL];
	struct ios_iocost_bio *b;
	unsigned a, o;

	c_init(r);
	a = c_group(r, 0, 100);
	o = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	/* first bio: no cursor yet, sequential */
	b = c_bio(r, a, 1000000, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT_U64_EQ(b->cost, w[1] + w[0]);
	T_ASSERT_U64_EQ(c_gstate(r, a).cursor, 1000008);
	/* 4096 pages past the cursor: still sequential */
	b = c_bio(r, a, 1000008 + 4096 * 8, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT_U64_EQ(b->cost, w[1] + w[0]);
	/* 4097 pages behind it: random */
	b = c_bio(r, a, c_gstate(r, a).cursor - 4097 * 8, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT_U64_EQ(b->cost, w[2] + w[0]);
	/* 64 KiB write: 16 pages of wpage */
	b = c_bio(r, a, b->sector + 8, 128, IOS_WRITE);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	/* a's hweight is now shared with nobody: cost = abs cost */
	T_ASSERT_U64_EQ(b->cost, w[4] + 16 * w[3]);
	/* the other group has its own cursor: its first bio is sequential anywhere */
	b = c_bio(r, o, 0, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT(b->cost > w[1]);
	uint64_t cur = c_gstate(r, a).cursor;
	/* a back merge into the request ending at the cursor: page cost, cursor moves */
	b = c_bio(r, a, cur, 8, IOS_READ);
	ios_iocost_merge(r->ioc, b, cur - 128, 128, 1, 0);
	T_ASSERT_U64_EQ(b->cost, 2 * w[0]);	/* page only, at a's hweight of 1/2 */
	T_ASSERT_U64_EQ(c_gstate(r, a).cursor, cur + 8);
	/* a front merge leaves the cursor */
	b = c_bio(r, a, 5000, 8, IOS_READ);
	ios_iocost_merge(r->ioc, b, 5008, 8, 1, 0);
	T_ASSERT_U64_EQ(c_gstate(r, a).cursor, cur + 8);
	/* a flush (no sectors) costs nothing and is not charged */
	b = c_bio(r, a, 0, 0, IOS_WRITE);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT_U64_EQ(b->cost, 0);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_lcoefs, test_loaded, test_cursor);
}
