/*
 * Description: io.cost's vrate control (Linux 6.12 blk-iocost.c
 * ioc_timer_fn, ioc_adjust_base_vrate). Each period: busy when rq_wait %
 * (time requests waited for a tag over the period) is above 5 or a
 * direction misses its latency percentile; busy_level then climbs from
 * max(level, 0). When every signal is within 75 % of its threshold and
 * some group is short of vtime, busy_level falls from min(level, 0); with
 * nobody short it resets to 0 (coast); between the two (the hysteresis) it
 * is 0. vrate moves by vrate_adj_pct[|busy_level|]: 0 % for levels 1-3,
 * 1 % for 4-19, 2 % for 20-35, 4 % for 36-43, 8 % for 44-51, 16 % from 52;
 * outside [min, max] (a bound just moved) it steps back 4 % a period.
 * So under constant shortage vrate does not climb 0, 1, 2, 4, 8, 16 % in
 * successive periods: it stays 3 periods, then +1 % for 16, +2 % for 16,
 * +4 % for 8, +8 % for 8, reaching 500 % in the 53rd period.
 */
#include "iocost_rig.h"

/* keep group @g waiting: 1 MiB sequential reads until one has to wait */
static void fill(struct c_rig *r, unsigned g, uint64_t now)
{
	static uint64_t sector;

	for (int i = 0; i < 100000; i++) {
		struct ios_iocost_bio *b = c_bio(r, g, sector, 2048, IOS_READ);

		sector += 2048;
		if (c_throttle(r, b, now))
			return;
	}
}

/* run to the end of the current period with @g kept short; returns that time */
static uint64_t short_period(struct c_rig *r, unsigned g)
{
	uint64_t p0 = c_state(r, 0).cur_period, t = 0;

	while (c_state(r, 0).cur_period == p0) {
		t = ios_iocost_next_timer(r->ioc);
		ios_iocost_timer(r->ioc, t);
		fill(r, g, t);
	}
	return t;
}

/* rule: the step table by |busy_level| under constant shortage */
static int test_steps(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	static const struct { int period; uint32_t pct_x100; } want[] = {
		{ 3, 10000 }, { 4, 10100 }, { 5, 10201 }, { 19, 11727 }, { 20, 11961 },
		{ 35, 16099 }, { 36, 16743 }, { 43, 22032 }, { 44, 23795 }, { 51, 40781 },
		{ 52, 47306 }, { 53, 54875 },
	};
	unsigned a, w = 0;

	c_init(r);
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	fill(r, a, 0);
	for (int k = 1; k <= 53; k++) {
		short_period(r, a);
		struct ios_iocost_state s = c_state(r, 0);
		T_ASSERT_EQ(s.busy_level, -k);
		T_ASSERT_EQ(s.nr_shortages, 1);
		if (w < sizeof(want) / sizeof(want[0]) && want[w].period == k) {
			T_ASSERT_MSG(s.vrate_pct_x100 == want[w].pct_x100, "period %d: vrate %u, want %u",
				     k, s.vrate_pct_x100, want[w].pct_x100);
			w++;
		}
	}
	T_ASSERT_EQ(w, sizeof(want) / sizeof(want[0]));
	c_free(r);
	free(r);
	return T_PASS;
}

/* rq_wait of @ms over the period, as completed requests report it */
static void tag_wait(struct c_rig *r, uint64_t now, uint64_t ms)
{
	ios_iocost_done(r->ioc, IOS_READ, 8, now - ms * C_MS, now, now);
}

/* rule: busy above 5 %, the 75 % hysteresis (3 %), levels and their 0 % steps */
static int test_busy_and_hysteresis(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a;
	uint64_t t;

	c_init(r);
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	fill(r, a, 0);
	for (int k = 0; k < 5; k++)
		t = short_period(r, a);
	T_ASSERT_EQ(c_state(r, t).busy_level, -5);
	T_ASSERT_EQ(c_state(r, t).vrate_pct_x100, 10201);
	/* 2 ms of tag wait in 50 ms: 4 %, inside the hysteresis: level 0, vrate held */
	tag_wait(r, t, 2);
	t = short_period(r, a);
	T_ASSERT_EQ(c_state(r, t).rq_wait_pct, 4);
	T_ASSERT_EQ(c_state(r, t).busy_level, 0);
	T_ASSERT_EQ(c_state(r, t).vrate_pct_x100, 10201);
	/* 1.5 ms: 3 %, within 75 % of the threshold: falling again */
	ios_iocost_done(r->ioc, IOS_READ, 8, t - 1500 * C_US, t, t);
	t = short_period(r, a);
	T_ASSERT_EQ(c_state(r, t).busy_level, -1);
	/* 6 %: busy, from max(level, 0) */
	for (int k = 1; k <= 4; k++) {
		tag_wait(r, t, 3);
		t = short_period(r, a);
		T_ASSERT_EQ(c_state(r, t).busy_level, k);
		/* levels 1-3 step 0 %, level 4 takes 1 % off (rounded up) */
		T_ASSERT_EQ(c_state(r, t).vrate_pct_x100, k < 4 ? 10201 : 10099);
	}
	/* unbusy again with a shortage: from min(level, 0), so straight to -1 */
	t = short_period(r, a);
	T_ASSERT_EQ(c_state(r, t).busy_level, -1);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: latency misses above the percentile make the period busy (ctrl=user rpct) */
static int test_missed(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	struct ios_iocost_qos *q;
	unsigned a;
	uint64_t t;

	c_init(r);
	a = c_group(r, 0, 100);
	q = &r->v2[0].qos;
	q->user = true;
	q->given = 0xf;
	q->qos[IOS_QOS_RPPM] = 900000;
	q->qos[IOS_QOS_RLAT] = 5000;
	q->qos[IOS_QOS_WPPM] = 900000;
	q->qos[IOS_QOS_WLAT] = 5000;
	T_ASSERT(!c_start(r, 1, 0));
	fill(r, a, 0);
	T_ASSERT_EQ(c_state(r, 0).period_us, 10000);
	t = 9 * C_MS;	/* inside the first period */
	/* 2 of 10 reads over 5 ms: 200000 ppm missed > 100000 allowed */
	for (int i = 0; i < 10; i++) {
		uint64_t alloc = t - (i < 2 ? 6 : 1) * C_MS;

		ios_iocost_done(r->ioc, IOS_READ, 8, alloc, alloc, t - 1);
	}
	t = short_period(r, a);
	T_ASSERT_EQ(c_state(r, t).missed_ppm[0], 200000);
	T_ASSERT_EQ(c_state(r, t).busy_level, 1);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: coast when nobody is short (a donor-to-be is not a shortage) */
static int test_coast(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a;
	uint64_t t;

	c_init(r);
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	fill(r, a, 0);
	for (int k = 0; k < 6; k++)
		t = short_period(r, a);
	T_ASSERT_EQ(c_state(r, t).busy_level, -6);
	/*
	 * Let the waiters go and complete everything, then one 4 KiB read
	 * stays in flight (so a is not idle) through a period with no new
	 * I/O: its budget runs ahead and its usage is small.
	 */
	while (c_gstate(r, a).nr_waiting)
		ios_iocost_timer(r->ioc, ios_iocost_next_timer(r->ioc));
	T_ASSERT(r->nr_pool < C_POOL);
	for (unsigned i = 0; i < r->nr_pool; i++)
		ios_iocost_done_bio(r->ioc, &r->pool[i]);
	t = ios_iocost_next_timer(r->ioc);
	ios_iocost_timer(r->ioc, t);
	T_ASSERT_EQ(c_throttle(r, c_bio(r, a, 0, 8, IOS_READ), t), 0);
	uint64_t p = c_state(r, 0).cur_period;
	while (c_state(r, 0).cur_period < p + 2)
		ios_iocost_timer(r->ioc, ios_iocost_next_timer(r->ioc));
	T_ASSERT(c_gstate(r, a).active);
	T_ASSERT_EQ(c_state(r, 0).nr_shortages, 0);
	T_ASSERT_EQ(c_state(r, 0).busy_level, 0);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: out of [min, max] vrate steps back 4 % a period; steps never leave the bounds */
static int test_bounds(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a;
	uint64_t t;
	const uint64_t vpu = IOS_IOCOST_VTIME_PER_USEC;

	c_init(r);
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	fill(r, a, 0);
	t = short_period(r, a);
	/* io.cost.qos max=50 mid-run: vrate 100 % is above it */
	r->v2[0].qos.user = true;
	r->v2[0].qos.given = 1u << IOS_QOS_MAX;
	r->v2[0].qos.qos[IOS_QOS_MAX] = 500000;
	ios_iocost_configure(r->ioc, &r->v2[0], t);
	T_ASSERT_U64_EQ(c_state(r, t).vrate, vpu);
	t = short_period(r, a);
	T_ASSERT_U64_EQ(c_state(r, t).vrate, vpu * 96 / 100);
	t = short_period(r, a);
	T_ASSERT_U64_EQ(c_state(r, t).vrate, vpu * 96 / 100 * 96 / 100);
	for (int k = 0; k < 40; k++)
		t = short_period(r, a);
	/* 4 % steps down stop at the bound, and the shortage steps up cannot pass it */
	T_ASSERT_U64_EQ(c_state(r, t).vrate, (50ull * 10000 * vpu + 999999) / 1000000);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_steps, test_busy_and_hysteresis, test_missed, test_coast, test_bounds);
}
