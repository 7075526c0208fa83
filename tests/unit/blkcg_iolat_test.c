/*
 * Description: io.latency's window test (Linux 6.12 blk-iolatency.c,
 * latency_sum_ok and iolatency_check_latencies). On a non-rotational
 * device a window is bad when max(total / 10, 1) or more of its samples are
 * at or over the target (the p90 test); on a rotational one when the mean
 * is over it. A bad window lowers the parent's cookie by nr_requests / 4.
 * Fails if the 10 % threshold changes (test_p90_nonrot), if "at the target"
 * stops counting as a miss (test_p90_at_target), if rotational devices use
 * the p90 test or nonrot ones the mean (test_mean_rot), or if the summed
 * stat's rotational mean is computed "correctly" instead of the kernel's
 * way (test_cur_stat_quirk: blk_rq_stat_sum reads a source's batch, which a
 * summed stat never has, so a held-back bad window is forgotten on HDDs and
 * remembered on SSDs).
 */
#include "iolat_rig.h"

static const int two[] = { -1, 0 };

/* the cookie after one window of @n samples, @slow of them at @slow_ns */
static unsigned cookie_after(bool nonrot, unsigned n, unsigned slow, uint64_t slow_ns,
			     uint64_t fast_ns)
{
	struct ir_rig *r = ir_new(2, two, 1023, nonrot);
	unsigned c;

	ir_target(r, 1, 1 * IR_MS);
	ir_window(r, 1, n, slow, slow_ns, fast_ns, 100 * IR_MS);
	c = ir_cookie(r, 0);
	ir_free(r);
	return c;
}

#define DFL IOS_IOLAT_DEFAULT_COOKIE
#define DOWN (IOS_IOLAT_DEFAULT_COOKIE - (1023 >> 2))

static int test_p90_nonrot(void)
{
	/* 9 of 100 over: fine; 10 of 100: bad, the cookie falls by 255 */
	T_ASSERT_EQ(cookie_after(true, 100, 9, 5 * IR_MS, 100 * IR_US), DFL);
	T_ASSERT_EQ(cookie_after(true, 100, 10, 5 * IR_MS, 100 * IR_US), DOWN);
	/* a small window: one miss in five is already bad (threshold max(0, 1)) */
	T_ASSERT_EQ(cookie_after(true, 5, 1, 5 * IR_MS, 100 * IR_US), DOWN);
	/* 19 of 200 fine, 20 bad */
	T_ASSERT_EQ(cookie_after(true, 200, 19, 5 * IR_MS, 100 * IR_US), DFL);
	T_ASSERT_EQ(cookie_after(true, 200, 20, 5 * IR_MS, 100 * IR_US), DOWN);
	return T_PASS;
}

static int test_p90_at_target(void)
{
	/* exactly the target is a miss; a nanosecond under is not */
	T_ASSERT_EQ(cookie_after(true, 100, 10, 1 * IR_MS, 100 * IR_US), DOWN);
	T_ASSERT_EQ(cookie_after(true, 100, 10, 1 * IR_MS - 1, 100 * IR_US), DFL);
	return T_PASS;
}

static int test_mean_rot(void)
{
	/* 1 of 10 at 5 ms, 9 at 0.5 ms: mean 0.95 ms <= 1 ms, fine on an HDD ... */
	T_ASSERT_EQ(cookie_after(false, 10, 1, 5 * IR_MS, 500 * IR_US), DFL);
	/* ... and bad on an SSD (1 miss >= max(10 / 10, 1)) */
	T_ASSERT_EQ(cookie_after(true, 10, 1, 5 * IR_MS, 500 * IR_US), DOWN);
	/* nine at 0.9 ms and one at 2.5 ms: mean 1.06 ms, bad on an HDD */
	T_ASSERT_EQ(cookie_after(false, 10, 1, 2500 * IR_US, 900 * IR_US), DOWN);
	/* 20 samples, 1 at 2 ms and 19 at 0.95 ms: mean 1.0025 ms: bad on an HDD, fine on an SSD */
	T_ASSERT_EQ(cookie_after(false, 20, 1, 2 * IR_MS, 950 * IR_US), DOWN);
	T_ASSERT_EQ(cookie_after(true, 20, 1, 2 * IR_MS, 950 * IR_US), DFL);
	return T_PASS;
}

/*
 * Bad window at 100 ms (an event), a bad one at 200 ms held back by the
 * 500 ms rule (its samples stay in cur_stat), then a good window at 600 ms.
 */
static unsigned quirk_cookie(bool nonrot)
{
	struct ir_rig *r = ir_new(2, two, 1023, nonrot);
	unsigned c;

	ir_target(r, 1, 1 * IR_MS);
	ir_window(r, 1, 10, 10, 3 * IR_MS, 0, 100 * IR_MS);
	ir_window(r, 1, 10, 10, 3 * IR_MS, 0, 200 * IR_MS);
	ir_window(r, 1, 10, 0, 0, 100 * IR_US, 600 * IR_MS);
	c = ir_cookie(r, 0);
	ir_free(r);
	return c;
}

static int test_cur_stat_quirk(void)
{
	/* SSD: cur_stat holds 10 misses of 20: bad again, a second fall */
	T_ASSERT_EQ(quirk_cookie(true), DFL - 2 * (1023 >> 2));
	/* HDD: cur_stat's mean is 0 whatever was summed: good, the group scales up (1023 >> 4) */
	T_ASSERT_EQ(quirk_cookie(false), DFL - (1023 >> 2) + (1023 >> 4));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_p90_nonrot, test_p90_at_target, test_mean_rot, test_cur_stat_quirk);
}
