/*
 * Description: the cloud volume's two limits, driven directly with a fake
 * clock (tests/unit/dev_rig.h), on the `cloud` profile (EBS gp3 baseline:
 * 3000 IOPS, 125 MiB/s, 1 ms latency):
 * - the IOPS limit holds over a second: 4 KiB random reads at QD32 complete
 *   no more than 3000 (+ the bucket's depth) in any one-second window, also
 *   right after a minute idle (the bucket holds 1 ms, not what it would
 *   have earned), and no fewer than 2990 in the steady one; mean latency is what Little's law
 *   gives (32 / 3000 s), and an unthrottled QD1 read takes latency +
 *   transfer exactly;
 * - the throughput limit holds for large I/Os: 1 MiB reads at QD8 run at
 *   125 MiB/s within 0.5 %, and the IOPS limit is not what binds them
 *   (4 I/O units each, 500/s, far below 3000), while with the throughput
 *   raised the same reads are held to iops / 4 a second by the IOPS limit;
 * - the waits are booked to the limit that bound them.
 */
#include "harness.h"
#include "dev_rig.h"

#define SEC 1000000000ULL

/* completions in [t0, t0 + 1 s) */
static uint64_t in_window(const uint64_t *done, uint64_t n, uint64_t t0)
{
	uint64_t k = 0;

	for (uint64_t i = 0; i < n; i++)
		if (done[i] >= t0 && done[i] < t0 + SEC)
			k++;
	return k;
}

static int test_iops_cap(void)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
	enum { N = 12000 };
	uint64_t *done = calloc(N, sizeof(*done));
	struct ios_dev_cloud_stats st;
	struct dev_run r = { 0 };
	uint64_t worst = 0;

	T_ASSERT(dev && done);
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 5, 5);
	r.complete_ns = done;
	T_ASSERT(!dev_run(dev, 32, N, 0, 0, dev_gen_random, &g, &r));
	T_ASSERT_EQ(r.order_errors, 0);
	/* every one-second window, sliding by 50 ms over the run */
	for (uint64_t t0 = 0; t0 + SEC <= r.end_ns; t0 += SEC / 20) {
		uint64_t k = in_window(done, N, t0);

		if (k > worst)
			worst = k;
	}
	printf("  cloud 4 KiB random read QD32: %.1f IOPS over %.2f s, worst 1 s window %llu, "
	       "mean latency %.3f ms\n", dev_iops(&r), (double)r.end_ns / 1e9,
	       (unsigned long long)worst, (double)r.lat_sum_ns / (double)r.count / 1e6);
	/* 3000 a second plus at most the 1 ms bucket (3 tokens) and one in debt */
	T_ASSERT_MSG(worst <= 3004, "a one-second window saw %llu I/Os", (unsigned long long)worst);
	T_ASSERT(in_window(done, N, SEC) >= 2990);
	T_ASSERT(dev_iops(&r) > 2990 && dev_iops(&r) < 3010);
	/* Little: 32 in flight at 3000/s is 10.67 ms each */
	T_ASSERT((double)r.lat_sum_ns / (double)r.count > 10.5e6);
	T_ASSERT((double)r.lat_sum_ns / (double)r.count < 10.8e6);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st), 0);
	T_ASSERT_EQ(st.ios_counted, N);
	T_ASSERT(st.wait_iops_ns > 0);
	T_ASSERT_EQ(st.wait_bps_ns, 0);
	T_ASSERT_EQ(st.wait_credit_ns, 0);
	/* after a minute idle the bucket holds its 1 ms again, not a minute's worth */
	{
		uint64_t t1 = r.end_ns + 60 * SEC;

		memset(done, 0, N * sizeof(*done));
		T_ASSERT(!dev_run(dev, 32, 6000, t1, 0, dev_gen_random, &g, &r));
		T_ASSERT_MSG(in_window(done, 6000, t1) <= 3004, "%llu in the first second",
			     (unsigned long long)in_window(done, 6000, t1));
	}
	free(done);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_qd1_latency(void)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
	struct dev_run r = { 0 };
	/* 1 ms + 4096 B at 125 MiB/s (31.25 us, rounded up) */
	uint64_t want = 1000000 + (4096ULL * SEC + (125ULL << 20) - 1) / (125ULL << 20);

	T_ASSERT(dev);
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 6, 6);
	T_ASSERT(!dev_run(dev, 1, 500, 0, 0, dev_gen_random, &g, &r));
	T_ASSERT_EQ(r.lat_max_ns, want);
	T_ASSERT_EQ(r.lat_sum_ns, want * 500);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_throughput_cap(void)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	struct dev_gen g = { .base = 0, .nr = 2048, .dir = IOS_READ };
	struct ios_dev_cloud_stats st;
	struct dev_run r = { 0 };
	double mib;

	T_ASSERT(dev);
	T_ASSERT(!dev_run(dev, 8, 1000, 0, 0, dev_gen_seq, &g, &r));
	mib = (double)r.bytes / (double)(1 << 20) / ((double)(r.end_ns - r.start_ns) / 1e9);
	printf("  cloud 1 MiB sequential read QD8: %.2f MiB/s (limit 125)\n", mib);
	T_ASSERT(mib > 125 * 0.995 && mib <= 125.0 * 1.005);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st), 0);
	T_ASSERT_EQ(st.ios_counted, 4000);	/* 1 MiB = 4 x 256 KiB */
	T_ASSERT(st.wait_bps_ns > 0);
	T_ASSERT_EQ(st.wait_iops_ns, 0);
	ios_dev_destroy(dev);

	/* the same reads with 2000 MiB/s allowed: 3000 units / 4 = 750 a second */
	dev = dev_new("cloud", "device.throughput_mibps=2000", NULL);
	T_ASSERT(dev);
	T_ASSERT(!dev_run(dev, 8, 3000, 0, 0, dev_gen_seq, &g, &r));
	printf("  cloud 1 MiB reads, throughput 2000 MiB/s: %.1f IOPS (IOPS limit / 4 = 750)\n",
	       dev_iops(&r));
	T_ASSERT(dev_iops(&r) > 745 && dev_iops(&r) < 755);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st), 0);
	T_ASSERT(st.wait_iops_ns > 0);
	ios_dev_destroy(dev);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_iops_cap, test_qd1_latency, test_throughput_cap);
}
