/*
 * Description: io.cost's debt forgiveness and delay decay (Linux 6.12
 * blk-iocost.c ioc_forgive_debts, iocg_kick_delay). While some group is in
 * debt or delay, ioc_timer_fn adds the period's usage of all active groups
 * to a window; once DFGV_PERIOD (100 ms) has passed, if the window's
 * average usage is at most DFGV_USAGE_PCT (50 %), every debt and delay is
 * shifted right once per 100 ms elapsed (the remainder carried to the next
 * window), to at least 1. A device missing its targets (busy_level > 0)
 * counts each period as fully used; a period without debtors restarts the
 * window. The delay in force halves each second after it was set, and a
 * larger delay asked by the debt replaces it.
 *
 * The window is driven directly (ios_ioc_forgive_debts at chosen times and
 * usages, as ioc_timer_fn calls it) on a group whose vtime runs ahead of
 * vnow, so the kick that follows each forgiveness pays nothing; the last
 * test runs the whole timer.
 */
#include "iocost_rig.h"
#include "block/blk_iocost_int.h"
#include "block/blkcg_int.h"

#define VPU 137438ull		/* IOS_IOCOST_VTIME_PER_USEC, vrate 100 % */

/* a rig with groups a (returned) and b; a issued one read at 0 and is active */
static unsigned setup(struct c_rig *r)
{
	unsigned a;

	c_init(r);
	a = c_group(r, 0, 100);
	c_group(r, 0, 100);
	if (c_start(r, 1, 0))
		return 0;
	struct ios_iocost_bio *b = c_bio(r, a, 1000, 8, IOS_READ);

	if (c_throttle(r, b, 0) == 0)
		ios_iocost_done_bio(r->ioc, b);
	return a;
}

static struct ioc_now at(struct c_rig *r, uint64_t ms)
{
	struct ioc_now n = { .now_ns = ms * C_MS, .now = ms * 1000 };

	n.vnow = c_state(r, n.now_ns).vnow;
	return n;
}

/* forgive at @ms with @usage_us summed over the period, one debtor */
static void forgive(struct c_rig *r, uint64_t ms, uint64_t usage_us, int nr_debtors)
{
	struct ioc_now n = at(r, ms);

	ios_ioc_forgive_debts(r->ioc, usage_us, nr_debtors, &n);
}

/* rule: halved per 100 ms of low usage, remainder carried; not above 50 %; busy counts full */
static int test_forgive_window(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a = setup(r);
	T_ASSERT(a);
	struct ios_iocg *g = &r->ioc->iocgs[a];

	T_ASSERT(g->on_active);
	/* 8 s of vtime ahead: no budget, nothing paid by the kicks */
	g->vtime = at(r, 0).vnow + (1ull << 40);
	g->abs_vdebt = 1000000;
	/* the window opened at activation (0); 75 ms: not yet 100 ms */
	forgive(r, 75, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 1000000);
	/* 150 ms, usage 0 %: one cycle (150 / 100), 50 ms carried */
	forgive(r, 150, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 500000);
	T_ASSERT_U64_EQ(r->ioc->dfgv_period_rem, 50000);
	/* 225: within the window; 300: 150 ms + 50 carried = two cycles */
	forgive(r, 225, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 500000);
	forgive(r, 300, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 125000);
	T_ASSERT_U64_EQ(r->ioc->dfgv_period_rem, 0);
	/* 400: 50 ms of usage in 100 ms is 50 %, not above: forgiven */
	forgive(r, 400, 50000, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 62500);
	/* 500: 51 % is above: kept */
	forgive(r, 500, 51000, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 62500);
	/*
	 * busy_level > 0: each call counts at least a period (50 ms), so two
	 * idle periods make 100 % and nothing is forgiven at 600
	 */
	r->ioc->busy_level = 1;
	forgive(r, 550, 0, 1);
	forgive(r, 600, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 62500);
	r->ioc->busy_level = 0;
	/* a period without debtors restarts the window: 650 + 100 ms */
	forgive(r, 650, 0, 0);
	forgive(r, 700, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 62500);
	forgive(r, 750, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 31250);
	/* never to 0: 3 >> 4 (400 ms) is 1 */
	g->abs_vdebt = 3;
	forgive(r, 1150, 0, 1);
	T_ASSERT_U64_EQ(g->abs_vdebt, 1);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: forgiveness halves the delay too, and the blkg's delay follows at the kick */
static int test_forgive_delay(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a = setup(r);
	T_ASSERT(a);
	struct ios_iocg *g = &r->ioc->iocgs[a];
	const struct ios_blkg *bg = &r->ctl->blkgs[a];

	/* no debt, no budget: the debt asks no delay, the one in force stays */
	g->delay = 200000;
	g->delay_at = 0;
	g->vtime = at(r, 100).vnow;
	forgive(r, 100, 0, 1);
	T_ASSERT_U64_EQ(g->delay, 100000);
	T_ASSERT_EQ(bg->use_delay, -1);
	T_ASSERT_U64_EQ(bg->delay_nsec, 100000ull * 1000);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: iocg_kick_delay: the delay in force halves per second; a larger one from the debt wins */
static int test_delay_decay(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a = setup(r);
	T_ASSERT(a);
	struct ios_iocg *g = &r->ioc->iocgs[a];
	const struct ios_blkg *bg = &r->ctl->blkgs[a];
	struct ioc_now n;

	g->delay = 200000;
	g->delay_at = 1000000;		/* set at 1 s */
	/* vtime = vnow at each call: no debt, no delay asked */
	n = at(r, 2000);
	g->vtime = n.vnow;
	T_ASSERT(ios_iocg_kick_delay(g, &n));
	T_ASSERT_U64_EQ(bg->delay_nsec, 100000ull * 1000);	/* one second: half */
	T_ASSERT_U64_EQ(g->delay, 200000);			/* kept with its time */
	n = at(r, 3500);
	g->vtime = n.vnow;
	T_ASSERT(ios_iocg_kick_delay(g, &n));
	T_ASSERT_U64_EQ(bg->delay_nsec, 50000ull * 1000);	/* 2.5 s: a quarter */
	n = at(r, 10000);
	g->vtime = n.vnow;
	T_ASSERT(ios_iocg_kick_delay(g, &n));
	T_ASSERT_U64_EQ(bg->delay_nsec, 390ull * 1000);		/* 200000 >> 9 */
	/* 200000 >> 10 = 195 < MIN_DELAY 250: cleared */
	n = at(r, 11000);
	g->vtime = n.vnow;
	T_ASSERT(!ios_iocg_kick_delay(g, &n));
	T_ASSERT_U64_EQ(g->delay, 0);
	T_ASSERT_EQ(bg->use_delay, 0);

	/*
	 * The larger wins. A debt of 100 periods' vtime at hweight 65536
	 * (50000 µs x 137438 x 100 = 687190000000) is vover_pct 10000:
	 * 250 + 249750 x (10000 - 500) / (25000 - 500) = 97091 µs.
	 */
	T_ASSERT_EQ(c_gstate(r, a).hweight_active, 65536);
	g->delay = 200000;
	g->delay_at = 12000000;
	g->abs_vdebt = 687190000000ull;
	n = at(r, 13000);
	g->vtime = n.vnow;
	T_ASSERT(ios_iocg_kick_delay(g, &n));
	T_ASSERT_U64_EQ(bg->delay_nsec, 100000ull * 1000);	/* 100000 decayed > 97091 */
	T_ASSERT_U64_EQ(g->delay_at, 12000000);
	n = at(r, 14000);
	g->vtime = n.vnow;
	T_ASSERT(ios_iocg_kick_delay(g, &n));
	T_ASSERT_U64_EQ(g->delay, 97091);			/* 50000 decayed < 97091 */
	T_ASSERT_U64_EQ(g->delay_at, 14000000);
	T_ASSERT_U64_EQ(bg->delay_nsec, 97091ull * 1000);
	c_free(r);
	free(r);
	return T_PASS;
}

/*
 * rule: the whole path through ioc_timer_fn: a debt is paid each period
 * from the budget vtime gives, and halved only once a 100 ms window of
 * low usage has passed (the window that holds the debt's own usage does
 * not qualify)
 */
static int test_forgive_through_timer(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	uint64_t sector = 0;
	unsigned a;

	c_init(r);
	a = c_group(r, 0, 100);
	c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	/* 3000 META reads at 0: 212 fit the budget, 2788 become debt */
	for (int i = 0; i < 3000; i++) {
		struct ios_iocost_bio *x;

		sector += 100000000;
		x = c_bio(r, a, sector, 8, IOS_READ);
		x->issue_as_root = true;
		T_ASSERT_EQ(c_throttle(r, x, 0), 0);
		if (x->cost)
			ios_iocost_done_bio(r->ioc, x);
	}
	/*
	 * debt 2788 x 16135121 = 44984717348; the 212 charged (one
	 * sequential 15387255, 211 random) left vtime at -25 ms + 3419897786,
	 * 16052214 behind vnow 0.
	 * The delay: vover_pct = 100 x (44984717348 - 16052214) / (50000 x
	 * 137438) = 654, so 250 + 249750 x 154 / 24500 = 1819 µs.
	 */
	T_ASSERT_U64_EQ(c_gstate(r, a).abs_vdebt, 44984717348ull);
	T_ASSERT_U64_EQ(c_gstate(r, a).delay_us, 1819);
	static const uint64_t debt[] = {
		/* 50: paid 16052214 + 50000 x 137438 = 6887952214 */
		38096765134ull,
		/* 100: paid 6871900000; window 0..100 ms used 352192 µs
		 * (the debt counts as usage): 352 % > 50 %, kept */
		31224865134ull,
		/* 150: paid 6871900000 */
		24352965134ull,
		/* 200: paid 6871900000, then window 100..200 ms idle:
		 * (24352965134 - 6871900000) >> 1 */
		8740532567ull,
	};
	for (int k = 0; k < 4; k++) {
		c_run_timers(r, (uint64_t)(k + 1) * 50 * C_MS);
		T_ASSERT_U64_EQ(c_gstate(r, a).abs_vdebt, debt[k]);
	}
	/* the delay was halved with it (the debt, 127 % of a period, asks none) */
	T_ASSERT_U64_EQ(c_gstate(r, a).delay_us, 909);
	T_ASSERT_EQ(c_gstate(r, a).inuse, 1u);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_forgive_window, test_forgive_delay, test_delay_decay,
		     test_forgive_through_timer);
}
