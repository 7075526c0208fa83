/*
 * Description: the cloud volume is deterministic and keeps the device
 * contract (include/iosched/device.h):
 * - the same commands at the same times give the same completion times,
 *   whatever the run's seed (no jitter is drawn: AWS publishes no latency
 *   distribution), and reset() brings back the just-initialised volume,
 *   burst credits included;
 * - completions never precede their submission and come back in time order
 *   even when a small request overtakes a large one;
 * - it refuses a command past the end or empty (-EINVAL), one dated before
 *   an earlier call (-EINVAL) and one beyond every hardware queue's tags
 *   (-EBUSY); a flush completes at once and is not counted;
 * - the profiles' geometry: not rotational, no discard, legacy depth 32
 *   (Xen blkfront's ring), blk-mq 32 queues x 1023 tags (the 6.12 nvme
 *   driver's rule); ctl answers MEDIA_RATE, COUNTERS, CLOUD_STATS and
 *   refuses others.
 */
#include "harness.h"
#include "dev_rig.h"

enum { N = 3000 };

static int run_once(uint64_t seed, const char *extra, uint64_t *done, struct ios_dev **keep)
{
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	struct ios_dev *dev;
	struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
	struct dev_run r = { 0 };
	int ret;

	if (extra && ios_settings_add_kv(&set, extra, "test", &e))
		return -1;
	dev = ios_dev_create("cloud-gp2", &set, seed, &e);
	ios_settings_free(&set);
	if (!dev)
		return -1;
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 12, 12);	/* the workload is the same; the device's seed differs */
	r.complete_ns = done;
	ret = dev_run(dev, 16, N, 0, 0, dev_gen_random, &g, &r);
	if (keep)
		*keep = dev;
	else
		ios_dev_destroy(dev);
	return ret;
}

static int test_deterministic(void)
{
	uint64_t *a = calloc(N, sizeof(*a)), *b = calloc(N, sizeof(*b));
	struct ios_dev *dev = NULL;
	struct ios_dev_cloud_stats st;

	T_ASSERT(a && b);
	T_ASSERT(!run_once(1, "device.burst_credits=1000", a, NULL));
	T_ASSERT(!run_once(99, "device.burst_credits=1000", b, &dev));
	T_ASSERT(!memcmp(a, b, N * sizeof(*a)));
	/* reset: the same run again on the same device, credits full again */
	dev->type->ops.reset(dev);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st), 0);
	T_ASSERT_EQ(st.credits, 1000);
	T_ASSERT_EQ(st.commands, 0);
	{
		struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
		struct dev_run r = { 0 };

		g.span = dev->nr_sectors;
		ios_rand_seed(&g.rng, 12, 12);
		r.complete_ns = b;
		T_ASSERT(!dev_run(dev, 16, N, 0, 0, dev_gen_random, &g, &r));
		T_ASSERT(!memcmp(a, b, N * sizeof(*a)));
	}
	ios_dev_destroy(dev);
	free(a);
	free(b);
	return T_PASS;
}

static struct ios_request *rq_init(struct ios_request *rq, uint64_t sector, uint32_t nr, int dir,
				   uint32_t flags)
{
	memset(rq, 0, sizeof(*rq));
	ios_list_init(&rq->dev_node);
	rq->sector = sector;
	rq->nr_sectors = nr;
	rq->dir = (uint8_t)dir;
	rq->flags = flags;
	return rq;
}

static int test_contract(void)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	const struct ios_dev_ops *o;
	struct ios_request big, small, flush, bad, *many;
	struct ios_dev_counters cnt;
	struct ios_dev_rate_query q = { 0 };
	struct ios_dev_cloud_stats st;
	unsigned max;

	T_ASSERT(dev);
	o = &dev->type->ops;
	T_ASSERT_EQ(ios_dev_caps(dev), 0);
	T_ASSERT_EQ(o->queue_depth(dev), 32);
	T_ASSERT_EQ(ios_dev_nr_hw_queues(dev), 32);
	T_ASSERT_EQ(ios_dev_hw_queue_depth(dev), 1023);
	T_ASSERT_EQ(dev->nr_sectors, 100ULL << 21);
	/* bad commands */
	T_ASSERT_EQ(o->submit(dev, rq_init(&bad, dev->nr_sectors - 4, 8, IOS_READ, 0), 0), -EINVAL);
	T_ASSERT_EQ(o->submit(dev, rq_init(&bad, 0, 0, IOS_READ, 0), 0), -EINVAL);
	/* a 1 MiB write, then a 4 KiB read that finishes first, and a flush at once */
	T_ASSERT_EQ(o->submit(dev, rq_init(&big, 0, 2048, IOS_WRITE, IOS_REQ_FUA), 1000), 0);
	T_ASSERT_EQ(o->submit(dev, rq_init(&small, 4096, 8, IOS_READ, 0), 2000), 0);
	T_ASSERT_EQ(o->submit(dev, rq_init(&flush, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH), 3000), 0);
	T_ASSERT_EQ(o->submit(dev, rq_init(&bad, 0, 8, IOS_READ, 0), 2500), -EINVAL);
	T_ASSERT_EQ(o->next_event(dev), 3000);
	T_ASSERT(o->complete(dev, 3000) == &flush);
	T_ASSERT(o->complete(dev, 3000) == NULL);
	T_ASSERT(o->complete(dev, o->next_event(dev)) == &small);
	T_ASSERT(small.dev_ns < big.dev_ns);
	/* 1 MiB at 125 MiB/s is 8 ms, on top of the 1 ms */
	T_ASSERT_EQ(o->next_event(dev), 1000 + 1000000 + 8000000);
	T_ASSERT(o->complete(dev, o->next_event(dev)) == &big);
	T_ASSERT_EQ(o->next_event(dev), IOS_NO_WAKEUP);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_CLOUD_STATS, &st), 0);
	T_ASSERT_EQ(st.commands, 3);
	T_ASSERT_EQ(st.ios_counted, 5);		/* 4 + 1; the flush is not an I/O */
	T_ASSERT_EQ(st.bytes, (1 << 20) + 4096);
	T_ASSERT_EQ(st.credits_max, 0);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_COUNTERS, &cnt), 0);
	T_ASSERT_EQ(cnt.commands, 3);
	T_ASSERT_EQ(cnt.media_ops, 5);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_MEDIA_RATE, &q), 0);
	T_ASSERT_EQ(q.bytes_per_sec, 125ULL << 20);
	q.sector = dev->nr_sectors;
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_MEDIA_RATE, &q), -EINVAL);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_FTL_STATS, &st), -ENOTSUP);
	/* -EBUSY past every hardware queue's tags (32 x 1023) */
	max = ios_dev_max_commands(dev);
	T_ASSERT_EQ(max, 32 * 1023);
	many = calloc(max + 1, sizeof(*many));
	T_ASSERT(many);
	for (unsigned i = 0; i < max; i++)
		T_ASSERT_EQ(o->submit(dev, rq_init(&many[i], (uint64_t)i * 8, 8, IOS_READ, 0),
				      20000000), 0);
	T_ASSERT_EQ(o->submit(dev, rq_init(&many[max], 0, 8, IOS_READ, 0), 20000000), -EBUSY);
	for (unsigned n = 0; n < max;) {
		uint64_t t = o->next_event(dev);

		T_ASSERT(t != IOS_NO_WAKEUP);
		while (o->complete(dev, t))
			n++;
	}
	free(many);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_bad_values(void)
{
	static const struct {
		const char *kv, *msg;
	} bad[] = {
		{ "device.iops=0", "device.iops=0: out of range for cloud, allowed 1..256000" },
		{ "device.iops=256001", "allowed 1..256000" },
		{ "device.throughput_mibps=4001", "device.throughput_mibps=4001: out of range for "
		  "cloud, allowed 1..4000 MiB/s" },
		{ "device.latency_us=100001", "allowed 0..100000 us" },
		{ "device.io_unit=0", "allowed 1..4096 KiB" },
		{ "device.io_unit=1100B", "device.io_unit=1100 bytes is not a multiple of 512" },
		{ "device.capacity=1073742000B", "device.capacity=1073742000 bytes is not a multiple of 512" },
		{ "device.bucket_ms=1001", "allowed 0..1000 ms" },
		{ "device.burst_credits=1000000001", "allowed 0..1000000000" },
		{ "device.queue_depth=0", "allowed 1..65536" },
		{ "device.hw_queue_depth=10241", "allowed 0..10240" },
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(bad); i++) {
		struct ios_err e;
		struct ios_dev *dev = dev_new_err("cloud", &e, bad[i].kv, NULL);

		T_ASSERT_MSG(!dev, "%s accepted", bad[i].kv);
		T_ASSERT_MSG(strstr(e.msg, bad[i].msg), "%s: '%s'", bad[i].kv, e.msg);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_deterministic, test_contract, test_bad_values);
}
