/*
 * Description: on the cloud volume sequential and random I/O cost the same
 * (EBS SSD volumes "deliver consistent performance whether an I/O operation
 * is random or sequential"): there is no geometry.
 * - a 4 KiB read takes latency + transfer wherever it lands: at sector 0,
 *   the middle and the last sector, after a jump or right after its
 *   neighbour, the same to the nanosecond;
 * - 4 KiB and 16 KiB reads, and 4 KiB writes, run at the same IOPS and the
 *   same latencies, request by request, sequential or random, at QD1 and
 *   QD32 (below merge_min nothing merges, so the limits see the same
 *   count);
 * - latency grows with size only by the transfer at the throughput rate,
 *   and is the same for reads and writes.
 */
#include "harness.h"
#include "dev_rig.h"

static uint64_t lat_one(struct ios_dev *dev, uint64_t *t, uint64_t sector, uint32_t nr, int dir)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_request rq;
	uint64_t start = *t;

	memset(&rq, 0, sizeof(rq));
	ios_list_init(&rq.dev_node);
	rq.sector = sector;
	rq.nr_sectors = nr;
	rq.dir = (uint8_t)dir;
	if (o->submit(dev, &rq, start))
		return 0;
	*t = o->next_event(dev);
	if (o->complete(dev, *t) != &rq)
		return 0;
	*t += 10000000;		/* 10 ms apart: the buckets are full again */
	return *t - 10000000 - start;
}

static int test_anywhere_same(void)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	uint64_t t = 0, l0, n;

	T_ASSERT(dev);
	n = dev->nr_sectors;
	l0 = lat_one(dev, &t, 0, 8, IOS_READ);
	T_ASSERT(l0 > 0);
	T_ASSERT_EQ(lat_one(dev, &t, 8, 8, IOS_READ), l0);		/* its neighbour */
	T_ASSERT_EQ(lat_one(dev, &t, n / 2, 8, IOS_READ), l0);		/* a long jump */
	T_ASSERT_EQ(lat_one(dev, &t, n - 8, 8, IOS_READ), l0);		/* the last 4 KiB */
	T_ASSERT_EQ(lat_one(dev, &t, 12345, 8, IOS_WRITE), l0);	/* a write */
	/* 1 ms + the bytes at 125 MiB/s */
	T_ASSERT_EQ(l0, 1000000 + (4096ULL * 1000000000ULL + (125ULL << 20) - 1) / (125ULL << 20));
	T_ASSERT_EQ(lat_one(dev, &t, 64, 32, IOS_READ),
		    1000000 + (16384ULL * 1000000000ULL + (125ULL << 20) - 1) / (125ULL << 20));
	ios_dev_destroy(dev);
	return T_PASS;
}

/* Per-request latencies of @count reads of @nr sectors, sequential or random. */
static int run_lat(unsigned depth, uint32_t nr, int dir, bool seq, uint64_t *lat, uint64_t count,
		   double *iops)
{
	struct ios_dev *dev = dev_new("cloud", NULL);
	struct dev_gen g = { .base = 0, .nr = nr, .dir = dir };
	struct dev_run r = { 0 };
	int ret;

	if (!dev)
		return -1;
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 10, 10);
	r.lat_ns = lat;
	ret = dev_run(dev, depth, count, 0, 0, seq ? dev_gen_seq : dev_gen_random, &g, &r);
	*iops = dev_iops(&r);
	ios_dev_destroy(dev);
	return ret;
}

static int test_seq_equals_random(void)
{
	static const struct {
		unsigned depth;
		uint32_t nr;
		int dir;
	} cases[] = {
		{ 1, 8, IOS_READ }, { 32, 8, IOS_READ }, { 32, 32, IOS_READ }, { 32, 8, IOS_WRITE },
	};
	enum { N = 4000 };
	uint64_t *a = calloc(N, sizeof(*a)), *b = calloc(N, sizeof(*b));

	T_ASSERT(a && b);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		double ia, ib;

		T_ASSERT(!run_lat(cases[i].depth, cases[i].nr, cases[i].dir, true, a, N, &ia));
		T_ASSERT(!run_lat(cases[i].depth, cases[i].nr, cases[i].dir, false, b, N, &ib));
		printf("  %s %u KiB QD%-2u: sequential %.1f IOPS, random %.1f IOPS\n",
		       cases[i].dir == IOS_READ ? "read " : "write", cases[i].nr / 2, cases[i].depth,
		       ia, ib);
		T_ASSERT(ia == ib);
		T_ASSERT_MSG(!memcmp(a, b, N * sizeof(*a)), "case %zu: latencies differ", i);
	}
	free(a);
	free(b);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_anywhere_same, test_seq_equals_random);
}
