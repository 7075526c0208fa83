/*
 * Description: buffered I/O through the whole simulator. A 512-byte
 * sequential reader's readahead reaches the disk as windows of 16, 32, 64,
 * 128, 128 KiB; two readers of one file share its pages and no block is
 * read twice; dirty data goes to disk from the flusher as async writes, not
 * from the writer; dirty throttling bounds dirty memory near vm.dirty_ratio;
 * fsync writes the file's pages as sync writes of the caller, waits for
 * them and flushes the drive cache; O_DIRECT bypasses the cache; a cold
 * buffered sequential read streams at the zone's media rate within 10 %.
 * Where ext3 cut a file in two, the readahead bio of the first fragment's
 * last pages is queued before the second fragment's indirect block is read,
 * as mpage_readpages sends a bio once the next page does not follow it.
 */
#include <inttypes.h>
#include <string.h>
#include "harness.h"

#define MAXQ 200000

struct tlog {
	struct {
		uint64_t sector;
		uint32_t nr;
		uint32_t pid;
		uint8_t dir;
		uint32_t flags;
		uint64_t t;
	} q[MAXQ];
	size_t n;
	uint64_t flush_done_ns;
};

static void tr_event(void *priv, struct ios_queue *qu, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct tlog *l = priv;

	(void)qu;
	if (a == IOS_TA_QUEUE && l->n < MAXQ) {
		l->q[l->n].sector = bio->sector;
		l->q[l->n].nr = bio->nr_sectors;
		l->q[l->n].pid = bio->ioc->pid;
		l->q[l->n].dir = bio->dir;
		l->q[l->n].flags = bio->flags;
		l->q[l->n].t = now;
		l->n++;
	}
	if (a == IOS_TA_COMPLETE && (rq->flags & IOS_REQ_PREFLUSH) && !rq->nr_sectors)
		l->flush_done_ns = now;
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };
static struct ios_jobfile *jfs[32];
static int nr_jfs;
static uint64_t run_seed = 5;

static int run(const char *job, const char *dev, const char *const *kv, struct tlog *log,
	       struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf("pc.fio", job, strlen(job), &po, jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return -1;
	}
	jfs[nr_jfs++] = jf;
	for (; kv && *kv; kv++)
		if (ios_settings_add_kv(&set, *kv, "test", &e))
			return -1;
	cfg.scheduler = "deadline";
	cfg.device = dev ? dev : "hdd-2009";
	cfg.seed = run_seed;
	cfg.settings = &set;
	cfg.trace_ops = log ? &tr_ops : NULL;
	cfg.trace = log;
	ret = ios_run(jf, &cfg, res, &e);
	if (ret)
		fprintf(stderr, "run: %s\n", e.msg);
	ios_settings_free(&set);
	return ret;
}

static int test_readahead_windows_on_disk(void)
{
	static struct tlog log;
	static const char *const raw[] = { "lab.fs=raw", NULL };
	struct ios_run_result r;
	static const uint32_t want[] = { 32, 64, 128, 256, 256, 256 };

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run("[dd]\nrw=read\nbs=512\nioengine=sync\nsize=8m\n", NULL, raw, &log, &r), 0);
	T_ASSERT(log.n >= 6);
	for (size_t i = 0; i < 6; i++)
		T_ASSERT_MSG(log.q[i].nr == want[i], "bio %zu: %u sectors, want %u", i, log.q[i].nr,
			     want[i]);
	/* then 128 KiB windows to the end, each read once: 8 MiB in all */
	{
		uint64_t total = 0;

		for (size_t i = 0; i < log.n; i++)
			total += log.q[i].nr;
		T_ASSERT_EQ(total, 8 * 2048);
	}
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 8 * 2048);
	T_ASSERT_EQ(r.vm_stats.pages_read, 2048);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_shared_file_read_once(void)
{
	static struct tlog log;
	static const char *const raw[] = { "lab.fs=raw", NULL };
	struct ios_run_result r;

	memset(&log, 0, sizeof(log));
	/* invalidate=0: b's open must not drop what a has read (fio would) */
	T_ASSERT_EQ(run("[global]\nrw=read\nbs=4k\nsize=32m\nfilename=shared\ninvalidate=0\n"
			"[a]\n[b]\nstartdelay=20ms\n", NULL, raw, &log, &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].io_bytes, 32 << 20);
	T_ASSERT_EQ(r.jobs[1].dir[IOS_READ].io_bytes, 32 << 20);
	/* every 4 KiB block of the file went to the disk exactly once */
	{
		static uint8_t seen[8192];
		uint64_t base = UINT64_MAX;

		for (size_t i = 0; i < log.n; i++)
			if (log.q[i].sector < base)
				base = log.q[i].sector;
		for (size_t i = 0; i < log.n; i++) {
			for (uint32_t s = 0; s < log.q[i].nr; s += 8) {
				uint64_t blk = (log.q[i].sector - base + s) / 8;

				T_ASSERT(blk < 8192);
				T_ASSERT_MSG(!seen[blk], "block %llu read twice", (unsigned long long)blk);
				seen[blk] = 1;
			}
		}
		for (int b = 0; b < 8192; b++)
			T_ASSERT(seen[b]);
	}
	T_ASSERT_EQ(r.vm_stats.pages_read, 8192);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_writeback_from_flusher_and_throttling(void)
{
	static struct tlog log;
	static const char *const kv[] = { "vm.memory=128", "lab.fs=raw", NULL };
	struct ios_run_result r;
	uint64_t thresh = 128 * 256 * 20 / 100; /* pages */
	size_t writes = 0;

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run("[w]\nrw=write\nbs=1m\nsize=512m\n", NULL, kv, &log, &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_WRITE].io_bytes, 512 << 20);
	for (size_t i = 0; i < log.n; i++) {
		if (log.q[i].dir != IOS_WRITE)
			continue;
		writes++;
		T_ASSERT_MSG(log.q[i].pid == 100, "write from pid %u, not the flusher", log.q[i].pid);
		T_ASSERT(!(log.q[i].flags & IOS_REQ_SYNC));
	}
	T_ASSERT(writes > 100);
	T_ASSERT(r.vm_stats.throttled > 0);
	/* dirty + writeback never went past the limit by more than one write */
	T_ASSERT_MSG(r.vm_stats.max_dirty_pages <= thresh + 256, "max dirty %llu, limit %llu",
		     (unsigned long long)r.vm_stats.max_dirty_pages, (unsigned long long)thresh);
	/* and the writer really was held to the disk's pace (~130 MB/s outer) */
	T_ASSERT(r.jobs[0].runtime_ns > 2 * IOS_NSEC_PER_SEC);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_fsync_waits_for_data(void)
{
	static struct tlog log;
	static const char *const raw[] = { "lab.fs=raw", NULL };
	struct ios_run_result r;
	size_t sync_writes = 0;
	uint64_t last_write_q = 0;

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run("[w]\nrw=write\nbs=64k\nsize=8m\nend_fsync=1\n", NULL, raw, &log, &r), 0);
	T_ASSERT_EQ(r.jobs[0].sync_total_ios, 1);
	for (size_t i = 0; i < log.n; i++) {
		if (log.q[i].dir != IOS_WRITE || !log.q[i].nr)
			continue;
		T_ASSERT(log.q[i].pid == r.jobs[0].pid); /* the caller's own writes */
		T_ASSERT(log.q[i].flags & IOS_REQ_SYNC);
		sync_writes += log.q[i].nr;
		last_write_q = log.q[i].t;
	}
	T_ASSERT_EQ(sync_writes, 8 * 2048);
	/* the flush came after the data and the job ended after the flush */
	T_ASSERT(log.flush_done_ns > last_write_q);
	T_ASSERT(r.jobs[0].finish_ns >= log.flush_done_ns);
	/* the fsync took at least the media time of 8 MiB (~65 ms at 130 MB/s) */
	T_ASSERT(r.jobs[0].sync_lat.max > 50 * IOS_NSEC_PER_MSEC);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_cold_stream_at_media_rate(void)
{
	static const char *const kv[] = { "lab.fs=ext3", NULL };
	struct ios_run_result r;
	double mbps;

	T_ASSERT_EQ(run("[dd]\nrw=read\nbs=1m\nsize=512m\n", NULL, kv, NULL, &r), 0);
	mbps = (double)r.jobs[0].dir[IOS_READ].io_bytes / ((double)r.jobs[0].runtime_ns / 1e9) / 1e6;
	/* hdd-2009's outer zone streams 129.4 MB/s (device calibration) */
	T_ASSERT_MSG(mbps > 129.4 * 0.9 && mbps < 129.4 * 1.1, "cold buffered read %.1f MB/s", mbps);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_direct_bypasses_cache(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run("[d]\nrw=read\nbs=64k\nsize=16m\ndirect=1\nloops=2\n", NULL, NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.vm_stats.read_hits, 0);
	/* both passes went to the disk */
	T_ASSERT(r.disks[0].sectors[IOS_READ] >= 2 * 16 * 2048);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[b]\nrw=read\nbs=64k\nsize=16m\nloops=2\n", NULL, NULL, NULL, &r), 0);
	/* buffered: the second pass came from memory */
	T_ASSERT(r.disks[0].sectors[IOS_READ] < 2 * 16 * 2048);
	ios_run_result_free(&r);
	return T_PASS;
}

/*
 * Seed 000's four 234 MB files with seed 3's creator pids: the third file
 * starts in a hole in front of the first and goes on far up the disk, 15
 * blocks before an indirect-block boundary. Each indirect block a reader
 * reads (a sync read that is not READ_META) is followed by that reader's
 * data next to it, never by data back in the first fragment: that would
 * be the bio mpage_readpages had sent before the indirect read.
 */
static int test_fragment_bio_before_indirect(void)
{
	static struct tlog log;
	struct ios_run_result r;
	int far_ind = 0;

	/* the files already existed, as Vivek's did: their metadata is cold */
	static const char *const existing[] = { "lab.file_size=234179072", NULL };

	memset(&log, 0, sizeof(log));
	run_seed = 3;
	T_ASSERT_EQ(run("[global]\nrw=read\nbs=512\nioengine=sync\nsize=234179072\n"
			"[dd1]\nfilename=zerofile1\n[dd2]\nfilename=zerofile2\n"
			"[dd3]\nfilename=zerofile3\n[dd4]\nfilename=zerofile4\n",
			NULL, existing, &log, &r), 0);
	run_seed = 5;
	for (size_t i = 0; i < log.n; i++) {
		uint64_t ind = log.q[i].sector, last = 0;

		if (log.q[i].dir != IOS_READ || (log.q[i].flags & (IOS_REQ_SYNC | IOS_REQ_META)) !=
		    IOS_REQ_SYNC)
			continue;
		/* the reader's data before it: was the indirect block far from it? */
		for (size_t k = i; k-- > 0;)
			if (log.q[k].pid == log.q[i].pid && !(log.q[k].flags & IOS_REQ_SYNC)) {
				last = log.q[k].sector + log.q[k].nr;
				break;
			}
		far_ind += last && (ind > last ? ind - last : last - ind) > 8192;
		for (size_t k = i + 1; k < log.n; k++) {
			uint64_t d;

			if (log.q[k].pid != log.q[i].pid || (log.q[k].flags & IOS_REQ_SYNC))
				continue;
			d = log.q[k].sector > ind ? log.q[k].sector - ind : ind - log.q[k].sector;
			T_ASSERT_MSG(d <= 8192, "pid %u: indirect block at %" PRIu64 ", next data "
				     "at %" PRIu64, log.q[i].pid, ind, log.q[k].sector);
			break;
		}
	}
	/* the layout has the fragment this test is about */
	T_ASSERT(far_ind >= 1);
	ios_run_result_free(&r);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_readahead_windows_on_disk, test_shared_file_read_once,
			test_writeback_from_flusher_and_throttling, test_fsync_waits_for_data,
			test_cold_stream_at_media_rate, test_direct_bypasses_cache,
			test_fragment_bio_before_indirect);

	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	return ret;
}
