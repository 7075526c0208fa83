/*
 * Description: how the cloud volume counts I/Os, the rules AWS publishes for
 * EBS SSD volumes (docs/devices.md, "cloud"), read back through
 * IOS_DEV_CTL_CLOUD_STATS:
 * - a request larger than the I/O unit (256 KiB) counts as several: 1 MiB
 *   is 4, 500 KiB is 2 (256 + 244);
 * - eight sequential 32 KiB requests merge into one 256 KiB I/O; eight
 *   random ones count 8; sequential requests under 32 KiB count one each;
 *   with merge_min=0 sequential 4 KiB requests merge too (64 per I/O);
 * - a sequential run continues across a large request's partial last unit
 *   (a 500 KiB request leaves 12 KiB for the next 32 KiB one);
 * - reads and writes keep their own sequential cursors;
 * - what is counted is what the IOPS limit charges: sequential 32 KiB reads
 *   on a 100-IOPS volume run 8 times as many requests a second as random
 *   ones, and are still admitted in arrival order (a merged request does
 *   not overtake the throttled one it joins).
 */
#include "harness.h"
#include "dev_rig.h"

/* Submit one request at @t and wait for it; returns the provider I/Os it added. */
static uint64_t one(struct ios_dev *dev, uint64_t *t, uint64_t sector, uint32_t kib, int dir)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_dev_cloud_stats a, b;
	struct ios_request rq;

	memset(&rq, 0, sizeof(rq));
	ios_list_init(&rq.dev_node);
	rq.sector = sector;
	rq.nr_sectors = kib * 2;
	rq.dir = (uint8_t)dir;
	if (ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &a) || o->submit(dev, &rq, *t))
		return UINT64_MAX;
	*t = o->next_event(dev);
	if (o->complete(dev, *t) != &rq || ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &b))
		return UINT64_MAX;
	return b.ios_counted - a.ios_counted;
}

static int test_split(void)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	uint64_t t = 0;

	T_ASSERT(dev);
	T_ASSERT_EQ(one(dev, &t, 0, 1024, IOS_READ), 4);
	T_ASSERT_EQ(one(dev, &t, 100000, 500, IOS_READ), 2);
	T_ASSERT_EQ(one(dev, &t, 200000, 256, IOS_READ), 1);
	T_ASSERT_EQ(one(dev, &t, 300000, 257, IOS_READ), 2);
	T_ASSERT_EQ(one(dev, &t, 400000, 4, IOS_READ), 1);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_merge(void)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	uint64_t t = 0, n = 0;

	T_ASSERT(dev);
	/* 8 x sequential 32 KiB: one I/O */
	for (int i = 0; i < 8; i++)
		n += one(dev, &t, 1000000 + (uint64_t)i * 64, 32, IOS_READ);
	T_ASSERT_EQ(n, 1);
	/* the ninth starts a new unit */
	T_ASSERT_EQ(one(dev, &t, 1000000 + 8 * 64, 32, IOS_READ), 1);
	/* 8 random 32 KiB: 8 */
	n = 0;
	for (int i = 0; i < 8; i++)
		n += one(dev, &t, 2000000 + (uint64_t)i * 4096, 32, IOS_READ);
	T_ASSERT_EQ(n, 8);
	/* sequential under 32 KiB: one each */
	n = 0;
	for (int i = 0; i < 64; i++)
		n += one(dev, &t, 3000000 + (uint64_t)i * 8, 4, IOS_READ);
	T_ASSERT_EQ(n, 64);
	/* a 500 KiB request leaves 12 KiB: the next 32 KiB one pays for 20 KiB */
	T_ASSERT_EQ(one(dev, &t, 4000000, 500, IOS_READ), 2);
	T_ASSERT_EQ(one(dev, &t, 4000000 + 1000, 32, IOS_READ), 1);
	T_ASSERT_EQ(one(dev, &t, 4000000 + 1064, 32, IOS_READ), 0);
	/* writes have their own cursor: a write in between does not break the reads' run */
	T_ASSERT_EQ(one(dev, &t, 5000000, 32, IOS_READ), 1);
	T_ASSERT_EQ(one(dev, &t, 6000000, 32, IOS_WRITE), 1);
	T_ASSERT_EQ(one(dev, &t, 5000000 + 64, 32, IOS_READ), 0);
	T_ASSERT_EQ(one(dev, &t, 6000000 + 64, 32, IOS_WRITE), 0);
	ios_dev_destroy(dev);

	/* merge_min=0: every sequential request merges (the older EBS text: 64 x 4 KiB = 1) */
	dev = dev_new("cloud", "device.merge_min=0", NULL);
	T_ASSERT(dev);
	n = 0;
	for (int i = 0; i < 64; i++)
		n += one(dev, &t, 3000000 + (uint64_t)i * 8, 4, IOS_READ);
	T_ASSERT_EQ(n, 1);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_counting_is_what_is_limited(void)
{
	double iops[2];

	for (int seq = 0; seq < 2; seq++) {
		struct ios_dev *dev = dev_new("cloud", "device.iops=100", NULL);
		struct dev_gen g = { .base = 0, .nr = 64, .dir = IOS_READ };
		struct ios_dev_cloud_stats st;
		struct dev_run r = { 0 };
		uint64_t done[1600];

		T_ASSERT(dev);
		g.span = dev->nr_sectors;
		ios_rand_seed(&g.rng, 9, 9);
		r.complete_ns = done;
		T_ASSERT(!dev_run(dev, 16, 1600, 0, 0, seq ? dev_gen_seq : dev_gen_random, &g, &r));
		/* admitted in arrival order: a merged request never overtakes the one it joins */
		for (int i = 1; i < 1600; i++)
			T_ASSERT_MSG(done[i] >= done[i - 1], "request %d done at %llu, before %d",
				     i, (unsigned long long)done[i], i - 1);
		iops[seq] = dev_iops(&r);
		T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st), 0);
		T_ASSERT_EQ(st.ios_counted, seq ? 200 : 1600);
		T_ASSERT_EQ(st.merged, seq ? 1400 : 0);
		ios_dev_destroy(dev);
	}
	printf("  32 KiB reads on a 100-IOPS volume: random %.1f, sequential %.1f requests/s\n",
	       iops[0], iops[1]);
	T_ASSERT(iops[0] > 99 && iops[0] < 101.5);
	T_ASSERT(iops[1] > 790 && iops[1] < 812);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_split, test_merge, test_counting_is_what_is_limited);
}
