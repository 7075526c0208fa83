/*
 * Description: the ssd model. It is not rotational. Random 4 KiB read IOPS
 * grow with queue depth (1, 2, 4, ... 32) while commands find idle dies and
 * channels, then plateau once a shared resource saturates. Channels run in
 * parallel: a large read striped over 8 channels is several times faster
 * than on one. Buffered writes complete once in DRAM, FUA writes wait for
 * the program, a flush waits for every program issued. Completions never
 * precede submissions and runs are deterministic.
 */
#include "harness.h"
#include "dev_rig.h"

static double rand_read_iops(const char *profile, unsigned depth, const char *a, struct dev_run *out)
{
	struct ios_dev *dev = dev_new(profile, a, NULL);
	struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
	struct dev_run r = { 0 };
	double iops = -1;

	if (!dev)
		return -1;
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 21, 21);
	if (!dev_run(dev, depth, 20000, 0, 0, dev_gen_random, &g, &r))
		iops = dev_iops(&r);
	if (out)
		*out = r;
	ios_dev_destroy(dev);
	return iops;
}

static int test_not_rotational(void)
{
	struct ios_dev *dev = dev_new("ssd", NULL);

	T_ASSERT(dev);
	T_ASSERT(!(ios_dev_caps(dev) & IOS_DEV_ROTATIONAL));
	T_ASSERT_EQ(dev->type->ops.queue_depth(dev), 32);
	T_ASSERT(!strcmp(dev->type->name, "ssd"));
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_iops_scale_then_plateau(void)
{
	static const unsigned depths[] = { 1, 2, 4, 8, 16, 32 };
	double iops[IOS_ARRAY_SIZE(depths)];

	for (size_t i = 0; i < IOS_ARRAY_SIZE(depths); i++) {
		struct dev_run r = { 0 };

		iops[i] = rand_read_iops("ssd", depths[i], NULL, &r);
		printf("  ssd 4 KiB random read QD%-2u: %8.0f IOPS, mean latency %.0f us\n", depths[i],
		       iops[i], (double)r.lat_sum_ns / (double)r.count / 1e3);
		T_ASSERT(iops[i] > 0);
		T_ASSERT_EQ(r.order_errors, 0);
		if (i)
			T_ASSERT(iops[i] >= iops[i - 1] * 0.98);
	}
	T_ASSERT(iops[1] > 1.8 * iops[0]);		/* parallel dies */
	T_ASSERT(iops[3] > 4 * iops[0]);
	T_ASSERT(iops[5] < 1.05 * iops[4]);		/* saturated */
	T_ASSERT(iops[5] < 1.15 * iops[3]);
	return T_PASS;
}

static int test_channels_in_parallel(void)
{
	double mbps[2];
	const char *cfg[2] = { "device.channels=8", "device.channels=1" };

	for (int i = 0; i < 2; i++) {
		struct ios_dev *dev = dev_new("ssd", cfg[i], "device.interface_mbps=100000",
					      "device.cmd_overhead_us=0", NULL);
		struct dev_gen g = { .base = 0, .nr = 256, .dir = IOS_READ };
		struct dev_run r = { 0 };

		T_ASSERT(dev);
		T_ASSERT(!dev_run(dev, 1, 2000, 0, 0, dev_gen_seq, &g, &r));
		mbps[i] = dev_mbps(&r);
		ios_dev_destroy(dev);
	}
	printf("  ssd 128 KiB sequential reads: %.0f MB/s on 8 channels, %.0f on 1\n", mbps[0], mbps[1]);
	T_ASSERT(mbps[0] > 4 * mbps[1]);
	return T_PASS;
}

static uint64_t one(struct ios_dev *dev, uint64_t *now, uint64_t sector, uint32_t nr, int dir,
		    uint32_t flags)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_request rq, *done;
	uint64_t start = *now, e;

	memset(&rq, 0, sizeof(rq));
	ios_list_init(&rq.dev_node);
	rq.sector = sector;
	rq.nr_sectors = nr;
	rq.dir = (uint8_t)dir;
	rq.flags = flags;
	if (o->submit(dev, &rq, *now))
		return UINT64_MAX;
	e = o->next_event(dev);
	if (e == IOS_NO_WAKEUP)
		return UINT64_MAX;
	*now = e;
	done = o->complete(dev, e);
	return done == &rq ? e - start : UINT64_MAX;
}

static int test_write_buffer_fua_flush(void)
{
	struct ios_dev *dev = dev_new("ssd", NULL);
	uint64_t now = 0, buffered, fua, flush, clean;

	T_ASSERT(dev);
	buffered = one(dev, &now, 0, 8, IOS_WRITE, 0);
	flush = one(dev, &now, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH);
	fua = one(dev, &now, 8, 8, IOS_WRITE, IOS_REQ_FUA);
	clean = one(dev, &now, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH);
	printf("  ssd 4 KiB write: buffered %.0f us, FUA %.0f us; flush after a buffered write %.0f us, clean %.0f us\n",
	       (double)buffered / 1e3, (double)fua / 1e3, (double)flush / 1e3, (double)clean / 1e3);
	T_ASSERT(buffered < 100 * IOS_NSEC_PER_USEC);
	T_ASSERT(fua > 900 * IOS_NSEC_PER_USEC);	/* t_prog */
	T_ASSERT(flush > 700 * IOS_NSEC_PER_USEC);	/* waits for the program */
	T_ASSERT(clean < 100 * IOS_NSEC_PER_USEC);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_buffer_fills(void)
{
	struct ios_dev *dev = dev_new("ssd", "device.write_buffer=1MiB", NULL);
	struct dev_gen g = { .base = 0, .nr = 256, .dir = IOS_WRITE };
	static uint64_t lat[400];
	struct dev_run r = { 0 };

	T_ASSERT(dev);
	r.lat_ns = lat;
	T_ASSERT(!dev_run(dev, 1, 400, 0, 0, dev_gen_seq, &g, &r));
	/* 128 KiB writes: the first few fit the 1 MiB buffer, later ones run at flash speed */
	T_ASSERT(lat[0] < 600 * IOS_NSEC_PER_USEC);
	T_ASSERT(lat[399] > 2 * lat[0]);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_deterministic(void)
{
	static uint64_t a[20000], b[20000];
	struct dev_run r = { 0 };

	for (int pass = 0; pass < 2; pass++) {
		struct ios_dev *dev = dev_new("ssd-nvme", NULL);
		struct dev_gen g = { .base = 0, .nr = 16, .dir = IOS_WRITE };

		T_ASSERT(dev);
		g.span = dev->nr_sectors;
		ios_rand_seed(&g.rng, 4, 4);
		r.complete_ns = pass ? b : a;
		T_ASSERT(!dev_run(dev, 64, 20000, 0, 0, dev_gen_random, &g, &r));
		T_ASSERT_EQ(r.order_errors, 0);
		ios_dev_destroy(dev);
	}
	T_ASSERT(!memcmp(a, b, sizeof(a)));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_not_rotational, test_iops_scale_then_plateau, test_channels_in_parallel,
		     test_write_buffer_fua_flush, test_buffer_fills, test_deterministic);
}
