/*
 * Description: the ssd-ftl model (page-mapped FTL, greedy GC, TRIM).
 *
 * The write cliff: 4 KiB random writes at QD32 on a fresh drive run at the
 * flash's program rate; after the drive has been filled sequentially and
 * overwritten randomly three times over, garbage collection copies pages
 * and erases blocks, and the bandwidth falls below half of the fresh one,
 * with write amplification well above 1. Sequential overwrites in whole
 * erase blocks leave victims with no valid page: write amplification is
 * exactly 1 although blocks are erased. A discard of the whole device
 * after the steady state brings the fresh bandwidth back. A discard is
 * refused by the HDD with EOPNOTSUPP (the job's err=95) and the run ends
 * normally. Same seed, same completion times.
 *
 * The drive is the ssd-ftl-2009 profile scaled to 1 GiB (capacity is a
 * tunable), so each phase is a few hundred thousand commands.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "dev_rig.h"
#include "iosched/job.h"
#include "iosched/run.h"
#include "iosched/stats.h"

#define CAP "device.capacity=1GiB"
#define CAP_SECTORS (1024ULL << 11)
#define LPAGES (CAP_SECTORS / 8)

static struct ios_dev_ftl_stats ftl_stats(struct ios_dev *dev)
{
	struct ios_dev_ftl_stats st;

	memset(&st, 0, sizeof(st));
	if (ios_dev_ctl(dev, IOS_DEV_CTL_FTL_STATS, &st))
		st.host_pages_written = UINT64_MAX;
	return st;
}

/* MB/s over commands [from, to) of a run with complete_ns recorded (4 KiB each). */
static double window_mbps(const uint64_t *done, uint64_t from, uint64_t to, uint64_t bytes_each)
{
	uint64_t span = done[to - 1] - done[from - 1];

	return span ? (double)((to - from) * bytes_each) * 1e3 / (double)span : 0;
}

/* Run @count commands of @gen at QD32 from @start; returns the end, 0 on failure. */
static uint64_t phase(struct ios_dev *dev, uint64_t count, uint64_t start, dev_gen_fn gen,
		      struct dev_gen *g, uint64_t *done)
{
	struct dev_run r = { 0 };

	r.complete_ns = done;
	if (dev_run(dev, 32, count, start, 0, gen, g, &r) || r.order_errors)
		return 0;
	return r.end_ns;
}

static uint64_t fill_seq(struct ios_dev *dev, uint64_t start)
{
	struct dev_gen g = { .base = 0, .nr = 256, .dir = IOS_WRITE };

	return phase(dev, CAP_SECTORS / 256, start, dev_gen_seq, &g, NULL);
}

static uint64_t rand_writes(struct ios_dev *dev, uint64_t count, uint64_t start, uint64_t seed,
			    uint64_t *done)
{
	struct dev_gen g = { .base = 0, .span = CAP_SECTORS, .nr = 8, .dir = IOS_WRITE };

	ios_rand_seed(&g.rng, seed, 7);
	return phase(dev, count, start, dev_gen_random, &g, done);
}

static void gen_trim_all(void *ctx, uint64_t i, struct ios_request *rq)
{
	(void)ctx;
	(void)i;
	rq->sector = 0;
	rq->nr_sectors = (uint32_t)CAP_SECTORS;
	rq->dir = IOS_WRITE;
	rq->flags = IOS_REQ_DISCARD;
}

static double fresh_mbps(void)
{
	struct ios_dev *dev = dev_new("ssd-ftl-2009", CAP, NULL);
	uint64_t n = LPAGES / 2, *done = calloc(n, sizeof(*done));
	double bw = -1;

	/* half the drive: no block has to be collected yet; skip the DRAM buffer's burst */
	if (dev && done && rand_writes(dev, n, 0, 1, done) && ftl_stats(dev).erases == 0)
		bw = window_mbps(done, 8192, n, 4096);
	free(done);
	ios_dev_destroy(dev);
	return bw;
}

static int test_write_cliff_and_trim(void)
{
	struct ios_dev *dev = dev_new("ssd-ftl-2009", CAP, NULL);
	uint64_t n = 3 * LPAGES, *done = calloc(n, sizeof(*done)), t;
	struct ios_dev_ftl_stats s0, s1;
	double fresh = fresh_mbps(), steady, after_trim, wa;
	struct dev_gen none = { 0 };

	T_ASSERT(dev && done);
	T_ASSERT(fresh > 0);
	t = fill_seq(dev, 0);
	T_ASSERT(t);
	s0 = ftl_stats(dev);
	T_ASSERT_EQ(s0.flash_pages_written, LPAGES);
	t = rand_writes(dev, n, t, 2, done);
	T_ASSERT(t);
	s1 = ftl_stats(dev);
	steady = window_mbps(done, n - LPAGES, n, 4096);
	wa = (double)(s1.flash_pages_written - s0.flash_pages_written) /
	     (double)(s1.host_pages_written - s0.host_pages_written);
	printf("  fresh 4 KiB random write QD32: %.1f MB/s; steady state (3rd drive-full): %.1f MB/s"
	       " (x%.2f); write amplification %.2f, %llu erases\n",
	       fresh, steady, steady / fresh, wa, (unsigned long long)s1.erases);
	T_ASSERT(steady < 0.5 * fresh);
	T_ASSERT(wa > 1.5);
	T_ASSERT(s1.gc_copies > 0 && s1.erases > 0);

	/* trim everything: the map empties, GC has nothing to copy */
	t = phase(dev, 1, t, gen_trim_all, &none, NULL);
	T_ASSERT(t);
	T_ASSERT_EQ(ftl_stats(dev).pages_trimmed, LPAGES);
	s0 = ftl_stats(dev);
	t = rand_writes(dev, LPAGES / 2, t, 3, done);
	T_ASSERT(t);
	after_trim = window_mbps(done, 8192, LPAGES / 2, 4096);
	s1 = ftl_stats(dev);
	printf("  after a whole-device trim: %.1f MB/s (x%.2f of fresh), GC copies %llu\n",
	       after_trim, after_trim / fresh,
	       (unsigned long long)(s1.gc_copies - s0.gc_copies));
	T_ASSERT(after_trim > 0.9 * fresh);
	T_ASSERT(s1.gc_copies - s0.gc_copies < LPAGES / 100);
	free(done);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_sequential_block_overwrites_wa_1(void)
{
	struct ios_dev *dev = dev_new("ssd-ftl-2009", CAP, NULL);
	struct dev_gen g = { .base = 0, .nr = 1024, .dir = IOS_WRITE };	/* one erase block */
	struct ios_dev_ftl_stats st;
	uint64_t t = 0;

	T_ASSERT(dev);
	for (int pass = 0; pass < 4; pass++) {
		t = phase(dev, CAP_SECTORS / 1024, t, dev_gen_seq, &g, NULL);
		T_ASSERT(t);
	}
	st = ftl_stats(dev);
	printf("  4 sequential passes in 512 KiB writes: %llu host pages, %llu programmed, %llu erases\n",
	       (unsigned long long)st.host_pages_written,
	       (unsigned long long)st.flash_pages_written, (unsigned long long)st.erases);
	T_ASSERT_EQ(st.host_pages_written, 4 * LPAGES);
	T_ASSERT_EQ(st.flash_pages_written, st.host_pages_written);
	T_ASSERT_EQ(st.gc_copies, 0);
	T_ASSERT(st.erases > 0);	/* GC did run: it found only empty victims */
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_prefill_and_reads(void)
{
	struct ios_dev *dev = dev_new("ssd-ftl-2009", CAP, "device.prefill=1", NULL);
	struct dev_gen g = { .base = 0, .span = CAP_SECTORS, .nr = 8, .dir = IOS_READ };
	struct ios_dev_counters c;
	struct dev_run r = { 0 };

	T_ASSERT(dev);
	T_ASSERT(!(ios_dev_caps(dev) & IOS_DEV_ROTATIONAL));
	T_ASSERT(ios_dev_caps(dev) & IOS_DEV_DISCARD);
	ios_rand_seed(&g.rng, 4, 4);
	T_ASSERT(!dev_run(dev, 32, 5000, 0, 0, dev_gen_random, &g, &r));
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_COUNTERS, &c), 0);
	/* a full drive: every read is a flash read */
	T_ASSERT_EQ(c.media_ops, 5000);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_bad_geometry(void)
{
	struct ios_err e;
	struct ios_dev *dev = dev_new_err("ssd-ftl-2009", &e, "device.capacity=16MiB", NULL);

	/* 16 MiB with 7.3 % spare is far from 3 spare blocks on each of 20 dies */
	T_ASSERT(!dev);
	T_ASSERT_EQ(e.code, -EINVAL);
	T_ASSERT(strstr(e.msg, "over_provisioning"));
	return T_PASS;
}

static int test_deterministic(void)
{
	uint64_t n = LPAGES, *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	struct ios_dev_ftl_stats sa, sb;

	T_ASSERT(a && b);
	for (int k = 0; k < 2; k++) {
		struct ios_dev *dev = dev_new("ssd-ftl-2009", CAP, "device.prefill=1", NULL);

		T_ASSERT(dev);
		T_ASSERT(rand_writes(dev, n, 0, 9, k ? b : a));
		if (k)
			sb = ftl_stats(dev);
		else
			sa = ftl_stats(dev);
		ios_dev_destroy(dev);
	}
	T_ASSERT(!memcmp(a, b, n * sizeof(*a)));
	T_ASSERT(!memcmp(&sa, &sb, sizeof(sa)));
	T_ASSERT(sa.erases > 0);
	free(a);
	free(b);
	return T_PASS;
}

/* A job through the whole stack: the run's result for @rw on @device. */
static int run_job(const char *device, const char *job, struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("t.fio", job, strlen(job), &po, &jf, &e);
	if (!ret && !strncmp(device, "ssd-ftl", 7))
		ret = ios_settings_add_kv(&set, CAP, "test", &e);
	if (!ret) {
		cfg.device = device;
		cfg.settings = &set;
		cfg.seed = 1;
		ret = ios_run(&jf, &cfg, res, &e);
	}
	if (ret)
		fprintf(stderr, "  %s: %s\n", device, e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static const char trim_job[] = "[t]\nfilename=/dev/sda\ndirect=1\nioengine=libaio\niodepth=4\n"
			       "bs=4k\nsize=8m\nrw=randtrim\n";

static int test_hdd_refuses_trim(void)
{
	struct ios_run_result res;

	T_ASSERT_EQ(run_job("hdd-2009", trim_job, &res), 0);
	T_ASSERT_EQ(abs(res.jobs[0].error), EOPNOTSUPP);
	/* every trim fails: issued, but a failed I/O adds no bytes (fio's io_completed) */
	T_ASSERT_EQ(ios_job_dir(&res.jobs[0], IOS_DDIR_TRIM)->io_bytes, 0);
	T_ASSERT(ios_job_dir(&res.jobs[0], IOS_DDIR_TRIM)->total_ios >= 1);
	T_ASSERT(ios_job_dir(&res.jobs[0], IOS_DDIR_TRIM)->total_ios <= 4);	/* stops at the first failure */
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_ftl_trim_job(void)
{
	static const char tw[] = "[t]\nfilename=/dev/sda\ndirect=1\nioengine=libaio\niodepth=8\n"
				 "bs=4k\nsize=8m\nrw=trimwrite\n";
	struct ios_run_result res;

	T_ASSERT_EQ(run_job("ssd-ftl-2009", trim_job, &res), 0);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_EQ(ios_job_dir(&res.jobs[0], IOS_DDIR_TRIM)->io_bytes, 8 << 20);
	T_ASSERT_EQ(res.jobs[0].dir[IOS_DDIR_WRITE].io_bytes, 0);
	ios_run_result_free(&res);
	/* trimwrite: each block trimmed then written; discards never merge with the writes */
	T_ASSERT_EQ(run_job("ssd-ftl-2009", tw, &res), 0);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_EQ(ios_job_dir(&res.jobs[0], IOS_DDIR_TRIM)->io_bytes, 4 << 20);
	T_ASSERT_EQ(res.jobs[0].dir[IOS_DDIR_WRITE].io_bytes, 4 << 20);
	T_ASSERT(res.nr_disks == 1);
	T_ASSERT_EQ(res.disks[0].ios[IOS_WRITE] + res.disks[0].merges[IOS_WRITE], 2048);
	ios_run_result_free(&res);
	return T_PASS;
}

/* Block layer: a discard merges with a contiguous discard, never with a write next to it. */
static int test_discard_merging(void)
{
	static const char *const scheds[] = { "noop", "deadline", "cfq", "bfq" };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++) {
		struct t_rig *r = t_rig_new(scheds[i], 1, 0, NULL);
		struct ios_ioc *ioc = t_ioc(30 + (uint32_t)i);
		int ret;

		T_ASSERT(r);
		t_submit(r, ioc, 0, 8, IOS_READ, 0, 0, &ret);	/* holds the only tag */
		t_submit(r, ioc, 1000, 8, IOS_WRITE, IOS_REQ_SYNC, 1, &ret);
		t_submit(r, ioc, 1008, 8, IOS_WRITE, IOS_REQ_SYNC | IOS_REQ_DISCARD, 2, &ret);
		t_submit(r, ioc, 1016, 8, IOS_WRITE, IOS_REQ_SYNC | IOS_REQ_DISCARD, 3, &ret);
		t_submit(r, ioc, 1024, 8, IOS_WRITE, IOS_REQ_SYNC, 4, &ret);
		/* read, write 1000, discard 1008-1024, write 1024 */
		T_ASSERT_MSG(r->q->nr_allocated == 4, "%s: %llu requests", scheds[i],
			     (unsigned long long)r->q->nr_allocated);
		for (uint64_t now = 1000000; t_in_device(r) || r->q->nr_sorted; now += 1000000) {
			T_ASSERT(now < 100000000);
			if (t_in_device(r)) {
				/* depth 1: the newest issued request is the one in the device */
				const struct ios_request *rq = r->issued[r->nr_issued - 1];

				T_ASSERT_EQ(!!(rq->flags & IOS_REQ_DISCARD), rq->sector == 1008);
				T_ASSERT_EQ(rq->nr_sectors, rq->sector == 1008 ? 16 : 8);
			}
			if (!t_complete_next(r, now) && r->timer_at != IOS_NO_WAKEUP)
				t_fire_timer(r, r->timer_at > now ? r->timer_at : now);
		}
		T_ASSERT_EQ(r->nr_issued, 4);
		t_rig_free(r);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_write_cliff_and_trim, test_sequential_block_overwrites_wa_1,
		     test_prefill_and_reads, test_bad_geometry, test_deterministic,
		     test_hdd_refuses_trim, test_ftl_trim_job, test_discard_merging);
}
