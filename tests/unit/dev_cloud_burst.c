/*
 * Description: burst credits on the cloud-gp2 profile (EBS gp2, 100 GiB:
 * 300 IOPS baseline, 3000 burst), with the credit bucket scaled down from
 * 5.4 million to 5400 credits so a burst lasts 2 s instead of 33 minutes.
 * Driven directly with a fake clock (tests/unit/dev_rig.h):
 * - a full bucket bursts at 3000 IOPS; credits drain at burst - baseline =
 *   2700 a second, so after 2 s the volume falls to its baseline 300 IOPS
 *   and stays there, the waits booked to the credit balance;
 * - an idle volume earns credits at the baseline rate: 10 s idle give 3000
 *   credits, which buy 3000 / 2700 = 1.11 s of burst before the baseline
 *   again; an hour idle fills the bucket and no more (the next burst lasts
 *   2 s again);
 * - a volume that starts empty (burst_balance_pct=0) runs at the baseline
 *   from the first second;
 * - burst settings that cannot work are refused, naming the tunables.
 */
#include "harness.h"
#include "dev_rig.h"

#define SEC 1000000000ULL

static uint64_t in_window(const uint64_t *done, uint64_t n, uint64_t t0, uint64_t len)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++)
		if (done[i] >= t0 && done[i] < t0 + len)
			k++;
	return k;
}

static uint64_t credits_at(struct ios_dev *dev, uint64_t t)
{
	struct ios_dev_cloud_stats st;

	T_ASSERT_EQ(dev->type->ops.complete(dev, t), NULL);
	if (ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st))
		return UINT64_MAX;
	return st.credits;
}

static int test_burst_then_baseline_then_refill(void)
{
	struct ios_dev *dev = dev_new("cloud-gp2", "device.burst_credits=5400", NULL);
	struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
	enum { N = 7200 };	/* 2 s x 3000 + 4 s x 300 */
	uint64_t *done = calloc(N, sizeof(*done)), idle_end, c;
	struct ios_dev_cloud_stats st;
	struct dev_run r = { 0 };

	T_ASSERT(dev && done);
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 7, 7);
	r.complete_ns = done;
	T_ASSERT(!dev_run(dev, 32, N, 0, 0, dev_gen_random, &g, &r));
	printf("  cloud-gp2, 5400 credits, 4 KiB random reads QD32, IOPS per second:");
	for (uint64_t s = 0; s < r.end_ns / SEC; s++)
		printf(" %llu", (unsigned long long)in_window(done, N, s * SEC, SEC));
	printf("\n");
	/* burst: 3000 a second while the credits last (2 s) */
	T_ASSERT(in_window(done, N, 0, SEC) >= 2990 && in_window(done, N, 0, SEC) <= 3004);
	T_ASSERT(in_window(done, N, SEC / 2, SEC) >= 2990);
	/* then the baseline */
	for (uint64_t s = 3; s < r.end_ns / SEC; s++) {
		uint64_t k = in_window(done, N, s * SEC, SEC);

		T_ASSERT_MSG(k >= 298 && k <= 302, "second %llu: %llu I/Os",
			     (unsigned long long)s, (unsigned long long)k);
	}
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st), 0);
	T_ASSERT(st.wait_credit_ns > 0);
	T_ASSERT_EQ(st.credits_max, 5400);
	T_ASSERT(st.credits <= 1);

	/* idle 10 s: 300 credits a second */
	idle_end = r.end_ns + 10 * SEC;
	c = credits_at(dev, idle_end);
	printf("  after 10 s idle: %llu credits (baseline 300/s)\n", (unsigned long long)c);
	T_ASSERT(c >= 2999 && c <= 3001);
	/* ... which buy 3000 / 2700 = 1.11 s of burst */
	memset(done, 0, N * sizeof(*done));
	T_ASSERT(!dev_run(dev, 32, 4000, idle_end, 0, dev_gen_random, &g, &r));
	{
		uint64_t first = in_window(done, 4000, idle_end, SEC);
		uint64_t later = in_window(done, 4000, idle_end + 3 * SEC / 2, SEC / 2);

		printf("  burst again: %llu in the first second, %llu in a half second after 1.5 s\n",
		       (unsigned long long)first, (unsigned long long)later);
		T_ASSERT(first >= 2990);
		T_ASSERT(later >= 148 && later <= 152);
	}
	/* idle for long: capped at the bucket, so the next burst lasts 2 s again */
	idle_end = r.end_ns + 3600 * SEC;
	T_ASSERT_EQ(credits_at(dev, idle_end), 5400);
	memset(done, 0, N * sizeof(*done));
	T_ASSERT(!dev_run(dev, 32, 7000, idle_end, 0, dev_gen_random, &g, &r));
	T_ASSERT(in_window(done, 7000, idle_end + SEC, SEC) >= 2990);
	T_ASSERT(in_window(done, 7000, idle_end + 5 * SEC / 2, SEC) <= 302);
	free(done);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_start_empty(void)
{
	struct ios_dev *dev = dev_new("cloud-gp2", "device.burst_balance_pct=0", NULL);
	struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
	struct dev_run r = { 0 };

	T_ASSERT(dev);
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 8, 8);
	T_ASSERT(!dev_run(dev, 32, 900, 0, 0, dev_gen_random, &g, &r));
	printf("  cloud-gp2 starting with no credits: %.1f IOPS\n", dev_iops(&r));
	T_ASSERT(dev_iops(&r) > 295 && dev_iops(&r) < 305);
	ios_dev_destroy(dev);
	/* the profile itself starts full: 5.4 million, the published initial balance */
	dev = dev_new("cloud-gp2", NULL);
	T_ASSERT(dev);
	T_ASSERT_EQ(credits_at(dev, 0), 5400000);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_refused(void)
{
	struct ios_err e;
	struct ios_dev *dev;

	dev = dev_new_err("cloud", &e, "device.burst_credits=100", NULL);
	T_ASSERT(!dev);
	T_ASSERT_MSG(strstr(e.msg, "device.burst_credits=100 needs device.burst_iops above "
				   "device.iops=3000"), "%s", e.msg);
	dev = dev_new_err("cloud", &e, "device.burst_iops=5000", NULL);
	T_ASSERT(!dev);
	T_ASSERT_MSG(strstr(e.msg, "device.burst_iops=5000 needs device.burst_credits > 0"), "%s",
		     e.msg);
	dev = dev_new_err("cloud-gp2", &e, "device.burst_iops=300", NULL);
	T_ASSERT(!dev);
	T_ASSERT(strstr(e.msg, "burst_iops=300"));
	dev = dev_new_err("cloud", &e, "device.burst_balance_pct=101", NULL);
	T_ASSERT(!dev);
	T_ASSERT_EQ(e.code, -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "burst_balance_pct=101: out of range for cloud, allowed 0..100"),
		     "%s", e.msg);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_burst_then_baseline_then_refill, test_start_empty, test_refused);
}
