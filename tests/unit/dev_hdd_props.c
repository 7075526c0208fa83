/*
 * Description: properties every run of the hdd model must have, whatever
 * the workload: no command completes before it was submitted, completions
 * come back in time order, every command comes back exactly once, the same
 * inputs give the same completion times (also after reset()), sequential
 * reads beat random ones, and malformed or excess commands are refused.
 * The workload mixes sequential streams, random I/O, FUA writes, flushes
 * and PREFLUSH writes so that the read-ahead, write cache and NCQ paths all
 * run, under several cache and queue configurations.
 */
#include "harness.h"
#include "dev_rig.h"

struct mix {
	struct ios_rand r;
	uint64_t nr;
	uint64_t seqpos[4];
};

static void gen_mix(void *ctx, uint64_t i, struct ios_request *rq)
{
	struct mix *m = ctx;
	uint64_t x = ios_rand_below(&m->r, 100);
	uint32_t n = 1 + (uint32_t)ios_rand_below(&m->r, 256);
	unsigned s;

	(void)i;
	if (x < 4) {
		rq->nr_sectors = 0;
		rq->flags = IOS_REQ_PREFLUSH;
		rq->dir = IOS_WRITE;
		return;
	}
	rq->dir = x < 55 ? IOS_READ : IOS_WRITE;
	if (x >= 55 && x < 62)
		rq->flags |= IOS_REQ_FUA;
	if (x >= 62 && x < 65)
		rq->flags |= IOS_REQ_PREFLUSH;
	s = (unsigned)ios_rand_below(&m->r, 6);
	if (s < 4) {
		rq->sector = m->seqpos[s];
		m->seqpos[s] += n;
		if (m->seqpos[s] + 300 > m->nr)
			m->seqpos[s] = 0;
	} else {
		rq->sector = ios_rand_below(&m->r, m->nr - n);
	}
	rq->nr_sectors = n;
}

static void mix_init(struct mix *m, const struct ios_dev *dev)
{
	ios_rand_seed(&m->r, 7, 7);
	m->nr = dev->nr_sectors;
	for (int k = 0; k < 4; k++)
		m->seqpos[k] = dev->nr_sectors / 4 * (uint64_t)k;
}

struct cfg {
	const char *profile;
	unsigned depth;
	uint64_t think_ns;
	const char *a, *b;
};

static const struct cfg cfgs[] = {
	{ "hdd-2009", 31, 0, NULL, NULL },
	{ "hdd-2009", 31, 3000000, NULL, NULL },
	{ "hdd-2009", 8, 0, "device.cache_size=1", "device.cache_segments=2" },
	{ "hdd-2009", 31, 0, "device.ncq_policy=fcfs", "device.write_cache=0" },
	{ "hdd-2009", 31, 0, "device.cache_size=0", "device.write_cache=0" },
	{ "hdd-2004", 1, 0, NULL, NULL },
	{ "hdd-2004", 1, 1000000, NULL, NULL },
	{ "hdd-2004", 1, 0, "device.read_ahead=0", NULL },
	{ "hdd-2004", 1, 0, "device.read_cache=0", "device.write_cache=0" },
	{ "hdd-2004", 1, 0, "device.read_ahead_max=64", "device.heads=1" },
};

#define MIX_N 6000

static int run_mix(const struct cfg *c, uint64_t *done, struct dev_run *r)
{
	struct ios_dev *dev = dev_new(c->profile, c->a, c->b, NULL);
	struct mix m;
	int ret;

	if (!dev)
		return -1;
	mix_init(&m, dev);
	memset(r, 0, sizeof(*r));
	r->complete_ns = done;
	ret = dev_run(dev, c->depth, MIX_N, 1000, c->think_ns, gen_mix, &m, r);
	ios_dev_destroy(dev);
	return ret;
}

static int test_completion_order(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(cfgs); i++) {
		static uint64_t done[MIX_N];
		struct dev_run r;

		T_ASSERT_MSG(!run_mix(&cfgs[i], done, &r), "config %zu failed to run", i);
		T_ASSERT_EQ(r.count, MIX_N);
		T_ASSERT_MSG(r.order_errors == 0, "config %zu: %d completions out of order", i,
			     r.order_errors);
		for (size_t k = 0; k < MIX_N; k++)
			T_ASSERT_MSG(done[k] >= 1000, "config %zu: command %zu never completed", i, k);
	}
	return T_PASS;
}

static int test_deterministic(void)
{
	static uint64_t a[MIX_N], b[MIX_N];

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cfgs); i++) {
		struct dev_run r;

		T_ASSERT(!run_mix(&cfgs[i], a, &r));
		T_ASSERT(!run_mix(&cfgs[i], b, &r));
		T_ASSERT_MSG(!memcmp(a, b, sizeof(a)), "config %zu: two runs differ", i);
	}
	return T_PASS;
}

/* reset() must give back a device that behaves like a fresh one. */
static int test_reset_reproduces(void)
{
	static uint64_t a[MIX_N], b[MIX_N];
	struct ios_dev *dev = dev_new("hdd-2009", NULL);
	struct dev_run r = { 0 };
	struct mix m;

	T_ASSERT(dev);
	mix_init(&m, dev);
	r.complete_ns = a;
	T_ASSERT(!dev_run(dev, 31, MIX_N, 1000, 0, gen_mix, &m, &r));
	dev->type->ops.reset(dev);
	mix_init(&m, dev);
	r.complete_ns = b;
	T_ASSERT(!dev_run(dev, 31, MIX_N, 1000, 0, gen_mix, &m, &r));
	T_ASSERT(!memcmp(a, b, sizeof(a)));
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_sequential_beats_random(void)
{
	const char *profiles[] = { "hdd-2009", "hdd-2004" };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(profiles); i++) {
		struct ios_dev *dev = dev_new(profiles[i], NULL);
		struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_READ };
		struct dev_run seq = { 0 }, rnd = { 0 };

		T_ASSERT(dev);
		g.span = dev->nr_sectors;
		ios_rand_seed(&g.rng, 3, 3);
		T_ASSERT(!dev_run(dev, 1, 1000, 0, 0, dev_gen_random, &g, &rnd));
		dev->type->ops.reset(dev);
		T_ASSERT(!dev_run(dev, 1, 1000, 0, 0, dev_gen_seq, &g, &seq));
		T_ASSERT_MSG(dev_iops(&seq) > 20 * dev_iops(&rnd), "%s: seq %.0f vs random %.0f IOPS",
			     profiles[i], dev_iops(&seq), dev_iops(&rnd));
		ios_dev_destroy(dev);
	}
	return T_PASS;
}

static int test_refuses_bad_commands(void)
{
	struct ios_dev *dev = dev_new("hdd-2004", NULL);
	const struct ios_dev_ops *o;
	struct ios_request a, b;

	T_ASSERT(dev);
	o = &dev->type->ops;
	T_ASSERT_EQ(o->queue_depth(dev), 1);
	T_ASSERT_U64_EQ(o->next_event(dev), IOS_NO_WAKEUP);
	T_ASSERT(o->complete(dev, 0) == NULL);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ios_list_init(&a.dev_node);
	ios_list_init(&b.dev_node);
	a.dir = IOS_READ;
	a.sector = dev->nr_sectors - 4;
	a.nr_sectors = 8;
	T_ASSERT_EQ(o->submit(dev, &a, 0), -EINVAL);	/* runs past the end */
	a.sector = dev->nr_sectors;
	a.nr_sectors = 1;
	T_ASSERT_EQ(o->submit(dev, &a, 0), -EINVAL);
	a.sector = 0;
	a.nr_sectors = 0;
	T_ASSERT_EQ(o->submit(dev, &a, 0), -EINVAL);	/* empty, and not a flush */
	a.nr_sectors = 8;
	T_ASSERT_EQ(o->submit(dev, &a, 1000), 0);
	b.sector = 100;
	b.nr_sectors = 8;
	T_ASSERT_EQ(o->submit(dev, &b, 1000), -EBUSY);	/* depth 1 */
	T_ASSERT_EQ(o->submit(dev, &b, 10), -EINVAL);	/* time went backwards */
	/* drain: a read of the first track takes overhead plus rotation */
	{
		struct ios_request *rq = NULL;
		uint64_t t = 0;

		while (!rq) {
			t = o->next_event(dev);
			T_ASSERT(t != IOS_NO_WAKEUP);
			T_ASSERT(t >= 1000);
			rq = o->complete(dev, t);
		}
		T_ASSERT(rq == &a);
		T_ASSERT(t > 1000 + 200000);	/* at least the command overhead */
		T_ASSERT(o->complete(dev, t) == NULL);
		T_ASSERT_EQ(o->submit(dev, &b, t), 0);	/* the tag is free again */
	}
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_caps(void)
{
	struct ios_dev *d9 = dev_new("hdd-2009", NULL);
	struct ios_dev *d4 = dev_new("hdd-2004", NULL);
	struct ios_dev *nc = dev_new("hdd-2009", "device.write_cache=0", "device.queue_depth=1", NULL);

	T_ASSERT(d9 && d4 && nc);
	/* a volatile write cache is a capability (QUEUE_FLAG_WC, which wbt reads) */
	T_ASSERT_EQ(ios_dev_caps(d9), IOS_DEV_ROTATIONAL | IOS_DEV_WRITE_CACHE);
	T_ASSERT_EQ(d9->type->ops.queue_depth(d9), 31);
	T_ASSERT_EQ(ios_dev_caps(d4), IOS_DEV_ROTATIONAL | IOS_DEV_WRITE_CACHE);
	T_ASSERT_EQ(d4->type->ops.queue_depth(d4), 1);
	T_ASSERT_EQ(ios_dev_caps(nc), IOS_DEV_ROTATIONAL);
	T_ASSERT_EQ(nc->type->ops.queue_depth(nc), 1);
	T_ASSERT_U64_EQ(d9->nr_sectors, 1953525168ULL);
	T_ASSERT_U64_EQ(d4->nr_sectors, 312581808ULL);
	ios_dev_destroy(d9);
	ios_dev_destroy(d4);
	ios_dev_destroy(nc);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_completion_order, test_deterministic, test_reset_reproduces,
		     test_sequential_beats_random, test_refuses_bad_commands, test_caps);
}
