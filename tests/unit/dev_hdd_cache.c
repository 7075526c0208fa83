/*
 * Description: the hdd's on-board cache. With the write cache on, non-FUA
 * writes complete after overhead plus bus transfer while the cache has
 * room, and once it is full they wait for destaging; FUA writes always wait
 * for the media; a flush waits until the dirty data is on the media (and is
 * quick when nothing is dirty); a PREFLUSH write waits for the flush before
 * its own write. With write_cache=0 every write waits for the media. Reads
 * of data already in a read segment are hits.
 */
#include "harness.h"
#include "dev_rig.h"

struct drv {
	struct ios_dev *dev;
	uint64_t now;
};

/* Submit one command at d->now and run the device until it completes. */
static uint64_t drv_one(struct drv *d, uint64_t sector, uint32_t nr, int dir, uint32_t flags)
{
	const struct ios_dev_ops *o = &d->dev->type->ops;
	struct ios_request rq;
	uint64_t start = d->now;

	memset(&rq, 0, sizeof(rq));
	ios_list_init(&rq.dev_node);
	rq.sector = sector;
	rq.nr_sectors = nr;
	rq.dir = (uint8_t)dir;
	rq.flags = flags;
	if (o->submit(d->dev, &rq, d->now))
		return UINT64_MAX;
	for (;;) {
		uint64_t e = o->next_event(d->dev);
		struct ios_request *done;

		if (e == IOS_NO_WAKEUP)
			return UINT64_MAX;
		d->now = e > d->now ? e : d->now;
		done = o->complete(d->dev, d->now);
		if (done == &rq)
			return d->now - start;
		if (done)
			return UINT64_MAX;
	}
}

static struct ios_dev_counters counters(struct ios_dev *dev)
{
	struct ios_dev_counters c;

	memset(&c, 0, sizeof(c));
	(void)ios_dev_ctl(dev, IOS_DEV_CTL_COUNTERS, &c);
	return c;
}

static int test_nonfua_writes_absorbed(void)
{
	struct drv d = { dev_new("hdd-2009", NULL), 0 };
	uint64_t worst = 0;

	T_ASSERT(d.dev);
	/* 16 MiB of 64 KiB writes fits the 32 MiB cache */
	for (uint64_t i = 0; i < 256; i++) {
		uint64_t lat = drv_one(&d, 1000000 + i * 128, 128, IOS_WRITE, 0);

		T_ASSERT(lat != UINT64_MAX);
		worst = lat > worst ? lat : worst;
	}
	/* overhead 0.2 ms + 64 KiB at 300 MB/s = 0.42 ms */
	printf("  hdd-2009 cached 64 KiB writes: worst %.3f ms\n", (double)worst / 1e6);
	T_ASSERT(worst < 500 * IOS_NSEC_PER_USEC);
	T_ASSERT_EQ(counters(d.dev).cache_write_absorbed, 256);
	ios_dev_destroy(d.dev);
	return T_PASS;
}

static int test_fua_writes_reach_media(void)
{
	struct drv d = { dev_new("hdd-2009", NULL), 0 };
	uint64_t sum = 0;

	T_ASSERT(d.dev);
	for (uint64_t i = 0; i < 100; i++) {
		uint64_t lat = drv_one(&d, 1000000 + i * 128, 128, IOS_WRITE, IOS_REQ_FUA);

		T_ASSERT(lat != UINT64_MAX);
		/* at least overhead plus the media time of 64 KiB at <= 130 MB/s */
		T_ASSERT(lat > 700 * IOS_NSEC_PER_USEC);
		sum += lat;
	}
	printf("  hdd-2009 FUA 64 KiB sequential writes: mean %.3f ms\n", (double)sum / 100 / 1e6);
	T_ASSERT_EQ(counters(d.dev).cache_write_absorbed, 0);
	T_ASSERT_EQ(counters(d.dev).media_ops, 100);
	ios_dev_destroy(d.dev);
	return T_PASS;
}

static int test_flush_waits_for_dirty(void)
{
	struct drv d = { dev_new("hdd-2009", NULL), 0 };
	struct ios_rand r;
	uint64_t lat, clean;

	T_ASSERT(d.dev);
	clean = drv_one(&d, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH);
	T_ASSERT(clean <= 200 * IOS_NSEC_PER_USEC);
	ios_rand_seed(&r, 5, 5);
	/* 100 scattered 64 KiB writes, absorbed at once */
	for (int i = 0; i < 100; i++) {
		lat = drv_one(&d, ios_rand_below(&r, d.dev->nr_sectors - 128), 128, IOS_WRITE, 0);
		T_ASSERT(lat < 500 * IOS_NSEC_PER_USEC);
	}
	lat = drv_one(&d, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH);
	printf("  hdd-2009 flush after 100 scattered 64 KiB writes: %.1f ms (clean: %.3f ms)\n",
	       (double)lat / 1e6, (double)clean / 1e6);
	/* even if the destage began at the first write, the last ones are still dirty */
	T_ASSERT(lat > 50 * IOS_NSEC_PER_MSEC);
	T_ASSERT(lat != UINT64_MAX);
	/* nothing is dirty now */
	T_ASSERT(drv_one(&d, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH) <= 200 * IOS_NSEC_PER_USEC);
	ios_dev_destroy(d.dev);
	return T_PASS;
}

static int test_preflush_write_waits(void)
{
	struct drv d = { dev_new("hdd-2004", NULL), 0 };
	struct ios_rand r;
	uint64_t plain, pre;

	T_ASSERT(d.dev);
	ios_rand_seed(&r, 6, 6);
	for (int i = 0; i < 50; i++)
		T_ASSERT(drv_one(&d, ios_rand_below(&r, d.dev->nr_sectors - 128), 128, IOS_WRITE, 0) <
			 IOS_NSEC_PER_MSEC);
	plain = drv_one(&d, 5000, 8, IOS_WRITE, 0);
	pre = drv_one(&d, 6000, 8, IOS_WRITE, IOS_REQ_PREFLUSH);
	printf("  hdd-2004 write with 50 dirty extents: plain %.3f ms, PREFLUSH %.1f ms\n",
	       (double)plain / 1e6, (double)pre / 1e6);
	T_ASSERT(plain < IOS_NSEC_PER_MSEC);
	T_ASSERT(pre > 100 * IOS_NSEC_PER_MSEC);
	ios_dev_destroy(d.dev);
	return T_PASS;
}

static int test_write_cache_off(void)
{
	struct drv d = { dev_new("hdd-2009", "device.write_cache=0", NULL), 0 };
	uint64_t lat;

	T_ASSERT(d.dev);
	for (uint64_t i = 0; i < 50; i++) {
		lat = drv_one(&d, 1000000 + i * 128, 128, IOS_WRITE, 0);
		T_ASSERT(lat > 700 * IOS_NSEC_PER_USEC && lat != UINT64_MAX);
	}
	T_ASSERT_EQ(counters(d.dev).cache_write_absorbed, 0);
	/* a flush has nothing to do */
	T_ASSERT(drv_one(&d, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH) <= 200 * IOS_NSEC_PER_USEC);
	ios_dev_destroy(d.dev);
	return T_PASS;
}

/* Random 4 KiB writes at QD1 on the 8 MiB hdd-2004: fast until the cache fills. */
static int test_cache_full_forces_destage(void)
{
	struct ios_dev *dev = dev_new("hdd-2004", NULL);
	struct dev_gen g = { .base = 0, .nr = 8, .dir = IOS_WRITE };
	static uint64_t lat[6000];
	struct dev_run r = { 0 };
	uint64_t early = 0, late = 0;

	T_ASSERT(dev);
	g.span = dev->nr_sectors;
	ios_rand_seed(&g.rng, 9, 9);
	r.lat_ns = lat;
	T_ASSERT(!dev_run(dev, 1, 6000, 0, 0, dev_gen_random, &g, &r));
	for (int i = 0; i < 1000; i++)
		early += lat[i];
	for (int i = 5000; i < 6000; i++)
		late += lat[i];
	printf("  hdd-2004 random 4 KiB writes: mean %.3f ms while the cache fills, %.3f ms once full (%.0f IOPS)\n",
	       (double)early / 1000 / 1e6, (double)late / 1000 / 1e6, 1e9 * 1000 / (double)late);
	T_ASSERT(early / 1000 < 300 * IOS_NSEC_PER_USEC);
	T_ASSERT(late / 1000 > 2 * IOS_NSEC_PER_MSEC);
	/* destaging sorted by position beats one random write per access (~77/s) */
	T_ASSERT(1e9 * 1000 / (double)late > 100);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_read_hit(void)
{
	struct drv d = { dev_new("hdd-2009", "device.read_ahead=0", NULL), 0 };
	uint64_t miss, hit;

	T_ASSERT(d.dev);
	miss = drv_one(&d, 777777, 128, IOS_READ, 0);
	d.now += 3 * IOS_NSEC_PER_MSEC;
	hit = drv_one(&d, 777777 + 64, 64, IOS_READ, 0);
	printf("  hdd-2009 64 KiB read: miss %.3f ms, re-read of half of it %.3f ms\n",
	       (double)miss / 1e6, (double)hit / 1e6);
	T_ASSERT(miss > IOS_NSEC_PER_MSEC);
	/* hit overhead 0.1 ms + 32 KiB at 300 MB/s */
	T_ASSERT(hit < 250 * IOS_NSEC_PER_USEC);
	T_ASSERT_EQ(counters(d.dev).cache_read_hits, 1);
	ios_dev_destroy(d.dev);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_nonfua_writes_absorbed, test_fua_writes_reach_media,
		     test_flush_waits_for_dirty, test_preflush_write_waits, test_write_cache_off,
		     test_cache_full_forces_destage, test_read_hit);
}
