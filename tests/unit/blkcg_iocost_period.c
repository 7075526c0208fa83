/*
 * Description: io.cost's period (Linux 6.12 blk-iocost.c
 * ioc_refresh_period_us): the larger of the read and write latency
 * targets, times max((10^6 - ppm) / 50000, 2) (2 when the percentile is
 * 0), clamped to 1 ms..1 s; 50 ms for SSD_DFL, 500 ms for HDD, 10 ms for
 * a 5 ms target as SSD_FAST has. The period timer is a timer_list armed
 * at jiffies + usecs_to_jiffies(period): at lab.hz=250 a 50 ms period
 * lasts 13 jiffies, 52 ms.
 */
#include "iocost_rig.h"

static uint32_t period_of(int rotational, const char *what, uint32_t rpct, uint32_t rlat,
			  uint32_t wpct, uint32_t wlat)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	uint32_t p;

	c_init(r);
	r->dev.rotational = rotational;
	if (what) {
		struct ios_iocost_qos *q = &r->v2[0].qos;

		q->user = true;
		q->given = 0xf;
		q->qos[IOS_QOS_RPPM] = rpct * 10000;
		q->qos[IOS_QOS_RLAT] = rlat;
		q->qos[IOS_QOS_WPPM] = wpct * 10000;
		q->qos[IOS_QOS_WLAT] = wlat;
	}
	if (c_start(r, 1, 0))
		abort();
	p = c_state(r, 0).period_us;
	c_free(r);
	free(r);
	return p;
}

/* rule: multi = 2 without a percentile; the built-in sets' targets */
static int test_builtin(void)
{
	T_ASSERT_EQ(period_of(0, NULL, 0, 0, 0, 0), 50000);
	T_ASSERT_EQ(period_of(1, NULL, 0, 0, 0, 0), 500000);
	T_ASSERT_EQ(period_of(0, "fast", 0, 5000, 0, 5000), 10000);
	return T_PASS;
}

/* rule: the percentile scales the multiple linearly, never under 2 */
static int test_pct(void)
{
	T_ASSERT_EQ(period_of(0, "p90", 90, 5000, 90, 5000), 10000);	/* 2x */
	T_ASSERT_EQ(period_of(0, "p50", 50, 5000, 50, 5000), 50000);	/* 10x */
	T_ASSERT_EQ(period_of(0, "p80", 80, 5000, 0, 100), 20000);	/* 4x */
	T_ASSERT_EQ(period_of(0, "p99", 99, 5000, 99, 5000), 10000);	/* 0 -> 2x */
	/* the larger target decides, with its own percentile */
	T_ASSERT_EQ(period_of(0, "w", 90, 1000, 50, 3000), 30000);
	return T_PASS;
}

/* rule: clamped to MIN_PERIOD and MAX_PERIOD */
static int test_clamp(void)
{
	T_ASSERT_EQ(period_of(0, "tiny", 0, 100, 0, 100), 1000);
	T_ASSERT_EQ(period_of(0, "huge", 50, 600000, 0, 0), 1000000);
	return T_PASS;
}

/* rule: the timer fires on jiffies (usecs_to_jiffies rounds up) */
static int test_jiffies(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a;

	c_init(r);
	r->dev.hz = 250;
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	/* no activity: no timer */
	T_ASSERT_U64_EQ(ios_iocost_next_timer(r->ioc), UINT64_MAX);
	struct ios_iocost_bio *b = c_bio(r, a, 0, 8, IOS_READ);
	/* activation at 1 ms (jiffy 0): 13 jiffies later */
	T_ASSERT_EQ(c_throttle(r, b, 1 * C_MS), 0);
	T_ASSERT_U64_EQ(ios_iocost_next_timer(r->ioc), 52 * C_MS);
	ios_iocost_timer(r->ioc, 52 * C_MS);
	T_ASSERT_U64_EQ(ios_iocost_next_timer(r->ioc), 104 * C_MS);
	T_ASSERT_EQ(c_state(r, 52 * C_MS).cur_period, 1);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_builtin, test_pct, test_clamp, test_jiffies);
}
