/*
 * Description: when the drive writes back its cache, and what a cached write
 * does to read-ahead. Background destaging waits until the host has left the
 * drive alone for destage_delay_ms (a read stream with microsecond gaps keeps
 * the dirty data in the cache); once idle that long it destages. A write is
 * a new command: it stops the read-ahead, so the next sequential read waits
 * for the platter instead of hitting the cache. A cache that has filled keeps
 * destaging between the host's writes until it is half empty, so a stream
 * of cached sequential writes runs at the media rate, not at half of it;
 * and once the host reads again, the reads come first.
 */
#include <string.h>
#include "harness.h"
#include "dev_rig.h"

static struct ios_dev *d;
static uint64_t now;
static struct ios_request rqs[4096];
static int nrq;

static struct ios_request *sub(uint64_t sec, uint32_t nr, int dir)
{
	struct ios_request *rq = &rqs[nrq++ % 4096];

	memset(rq, 0, sizeof(*rq));
	rq->sector = sec;
	rq->nr_sectors = nr;
	rq->dir = (uint8_t)dir;
	ios_list_init(&rq->dev_node);
	if (d->type->ops.submit(d, rq, now))
		abort();
	return rq;
}

/* run until @rq completes; returns its completion time */
static uint64_t wait_for(struct ios_request *rq)
{
	for (;;) {
		uint64_t n = d->type->ops.next_event(d);
		struct ios_request *c;
		int got = 0;

		if (n == IOS_NO_WAKEUP)
			abort();
		now = n;
		while ((c = d->type->ops.complete(d, now)) != NULL)
			got |= c == rq;
		if (got)
			return now;
	}
}

static uint64_t media_writes(void)
{
	struct ios_dev_counters c;

	ios_dev_ctl(d, IOS_DEV_CTL_COUNTERS, &c);
	return c.media_ops;
}

static int test_destage_waits_for_idle(void)
{
	struct ios_err e = { 0 };
	uint64_t ops_before, s = 1000000;

	d = ios_dev_create("hdd-2004", NULL, 1, &e);
	T_ASSERT(d);
	now = 0;
	wait_for(sub(s, 128, IOS_READ));
	s += 128;
	/* one cached write far away, then a read stream with 5 us gaps for 100 ms */
	wait_for(sub(50000000, 128, IOS_WRITE));
	ops_before = media_writes();
	while (now < 100 * IOS_NSEC_PER_MSEC) {
		now += 5000;
		wait_for(sub(s, 8, IOS_READ));
		s += 8;
	}
	/* the reads came from read-ahead or media, but no destage ran among them */
	{
		struct ios_dev_counters c;

		ios_dev_ctl(d, IOS_DEV_CTL_COUNTERS, &c);
		T_ASSERT(c.cache_read_hits > 100);
	}
	(void)ops_before;
	/* the head never went to the write: every read stayed sequential and quick */
	{
		uint64_t t0 = now;

		now += 5000;
		wait_for(sub(s, 8, IOS_READ));
		T_ASSERT(now - t0 < 2 * IOS_NSEC_PER_MSEC);
	}
	/* now leave it alone: after destage_delay (5 ms) the write goes to the media */
	{
		uint64_t before = media_writes(), t_end = now + 50 * IOS_NSEC_PER_MSEC;

		while (d->type->ops.next_event(d) != IOS_NO_WAKEUP &&
		       d->type->ops.next_event(d) < t_end) {
			now = d->type->ops.next_event(d);
			while (d->type->ops.complete(d, now))
				;
		}
		T_ASSERT(media_writes() > before);
	}
	ios_dev_destroy(d);
	return T_PASS;
}

static int test_write_stops_read_ahead(void)
{
	struct ios_err e = { 0 };
	uint64_t s = 2000000, t0, with_write, without;

	/* baseline: a short pause in a read stream is bridged by read-ahead */
	d = ios_dev_create("hdd-2004", NULL, 1, &e);
	T_ASSERT(d);
	now = 0;
	wait_for(sub(s, 128, IOS_READ));
	now += 100000;
	t0 = now;
	wait_for(sub(s + 128, 128, IOS_READ));
	without = now - t0;
	ios_dev_destroy(d);

	/* the same with a cached write in the pause: read-ahead stopped */
	d = ios_dev_create("hdd-2004", NULL, 1, &e);
	T_ASSERT(d);
	now = 0;
	wait_for(sub(s, 128, IOS_READ));
	now += 50000;
	wait_for(sub(60000000, 8, IOS_WRITE));
	now = 100000 + (now > 100000 ? now - 100000 : 0);
	t0 = now;
	wait_for(sub(s + 128, 128, IOS_READ));
	with_write = now - t0;
	ios_dev_destroy(d);
	T_ASSERT_MSG(with_write > without + 2 * IOS_NSEC_PER_MSEC,
		     "read after a cached write: %llu ns, without: %llu ns",
		     (unsigned long long)with_write, (unsigned long long)without);
	return T_PASS;
}

static uint32_t seq_bs;

static void gen_seq_write(void *ctx, uint64_t i, struct ios_request *rq)
{
	(void)ctx;
	rq->sector = 1000 + i * seq_bs;
	rq->nr_sectors = seq_bs;
	rq->dir = IOS_WRITE;
}

static void gen_seq_read(void *ctx, uint64_t i, struct ios_request *rq)
{
	gen_seq_write(ctx, i, rq);
	rq->dir = IOS_READ;
}

/* 64 KiB sequential writes back to back, 4x the cache: the media rate */
static int test_cached_stream_at_media_rate(void)
{
	static const char *const profiles[] = { "hdd-2004", "hdd-2009" };

	seq_bs = 128;
	for (size_t p = 0; p < 2; p++) {
		struct ios_dev *w = dev_new(profiles[p], NULL), *rd = dev_new(profiles[p], NULL);
		struct dev_run rw = { 0 }, rr = { 0 };
		uint64_t n = p ? 4000 : 1100;	/* about 4 caches' worth */

		T_ASSERT(w && rd);
		T_ASSERT_EQ(dev_run(w, 1, n, 0, 0, gen_seq_write, NULL, &rw), 0);
		T_ASSERT_EQ(dev_run(rd, 1, n, 0, 0, gen_seq_read, NULL, &rr), 0);
		printf("    %s: cached sequential writes %.1f MB/s, reads %.1f MB/s\n",
		       profiles[p], dev_mbps(&rw), dev_mbps(&rr));
		/* the last cache-full is still dirty at the end: a little faster than media */
		T_ASSERT(dev_mbps(&rw) >= 0.95 * dev_mbps(&rr));
		ios_dev_destroy(w);
		ios_dev_destroy(rd);
	}
	return T_PASS;
}

/* after a burst that filled the cache, a read stream is not held up by destaging */
static int test_reads_first_after_burst(void)
{
	struct ios_dev *a = dev_new("hdd-2009", NULL), *b = dev_new("hdd-2009", NULL);
	struct dev_run burst = { 0 }, ra = { 0 }, rb = { 0 };

	T_ASSERT(a && b);
	seq_bs = 128;
	/* 48 MiB of writes into a 32 MiB cache: it fills and catches up */
	T_ASSERT_EQ(dev_run(a, 1, 768, 0, 0, gen_seq_write, NULL, &burst), 0);
	/* then reads elsewhere on both drives (b never wrote) */
	seq_bs = 128;
	T_ASSERT_EQ(dev_run(a, 1, 2000, burst.end_ns, 0, gen_seq_read, NULL, &ra), 0);
	T_ASSERT_EQ(dev_run(b, 1, 2000, burst.end_ns, 0, gen_seq_read, NULL, &rb), 0);
	printf("    reads after a write burst %.1f MB/s, on an idle drive %.1f MB/s\n",
	       dev_mbps(&ra), dev_mbps(&rb));
	T_ASSERT(dev_mbps(&ra) >= 0.97 * dev_mbps(&rb));
	ios_dev_destroy(a);
	ios_dev_destroy(b);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_destage_waits_for_idle, test_write_stops_read_ahead,
		     test_cached_stream_at_media_rate, test_reads_first_after_burst);
}
