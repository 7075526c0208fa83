/*
 * Description: the job runner does what fio does with each option: sync
 * engines keep one I/O in flight and report no slat, libaio keeps iodepth in
 * flight; size, loops and time_based end a job; rate and rate_iops cap it;
 * thinktime spaces I/Os; numjobs clones and group_reporting folds them;
 * stonewall and startdelay order jobs; random I/O touches every block once
 * per pass; rwmixread splits directions; ramp_time is left out of the
 * stats; exitall stops everyone; I/O larger than max_sectors_kb becomes
 * several requests; O_DIRECT writes are sync requests; files named alike
 * are shared and impossible layouts are refused with the job's name. The
 * files are plain LBA ranges here (lab.fs=raw): the filesystem layouts have
 * tests of their own.
 */
#include <string.h>
#include "harness.h"

struct tlog {
	uint64_t sectors[4096];
	size_t n;
	unsigned write_sync, write_async;
};

static void tr_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct tlog *l = priv;

	(void)q;
	(void)now;
	if (a == IOS_TA_QUEUE && l->n < 4096)
		l->sectors[l->n++] = bio->sector;
	if (a == IOS_TA_ISSUE && rq->dir == IOS_WRITE) {
		if (rq->flags & IOS_REQ_SYNC)
			l->write_sync++;
		else
			l->write_async++;
	}
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

static struct ios_jobfile *jfs[64];
static int nr_jfs;

static int run_full(const char *job, const char *sched, const char *dev, const char *kv,
		    struct tlog *log, struct ios_run_result *res, struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("w.fio", job, strlen(job), &po, jf, e);
	if (ret)
		return ret;
	jfs[nr_jfs++] = jf;
	/* these tests are about the runner and the block layer: no filesystem */
	if (ios_settings_add_kv(&set, "lab.fs=raw", "test", e))
		return -EINVAL;
	if (kv && ios_settings_add_kv(&set, kv, "test", e))
		return -EINVAL;
	cfg.scheduler = sched ? sched : "noop";
	cfg.device = dev ? dev : "hdd-2009";
	cfg.seed = 11;
	cfg.settings = &set;
	cfg.trace_ops = log ? &tr_ops : NULL;
	cfg.trace = log;
	ret = ios_run(jf, &cfg, res, e);
	ios_settings_free(&set);
	return ret;
}

static int run(const char *job, struct ios_run_result *res)
{
	struct ios_err e = { 0 };
	int ret = run_full(job, NULL, NULL, NULL, NULL, res, &e);

	if (ret)
		fprintf(stderr, "run failed: %s\n", e.msg);
	return ret;
}

static double iops(const struct ios_job_result *j, int d)
{
	return (double)j->dir[d].total_ios * 1e9 / (double)j->dir[d].runtime_ns;
}

static int test_engines(void)
{
	struct ios_run_result r;
	uint64_t deep = 0;

	T_ASSERT_EQ(run("[s]\nrw=randread\ndirect=1\nsize=64m\nruntime=2\n"
			"[a]\nrw=randread\ndirect=1\nsize=64m\nruntime=2\nioengine=libaio\niodepth=8\n",
			&r), 0);
	T_ASSERT_EQ(r.nr_jobs, 2);
	T_ASSERT(r.jobs[0].io_depth[0] > 0);
	for (int b = 1; b < IOS_NR_DEPTH_BUCKETS; b++)
		T_ASSERT_EQ(r.jobs[0].io_depth[b], 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].slat.n, 0);
	T_ASSERT(r.jobs[1].dir[IOS_READ].slat.n > 0);
	for (int b = 3; b < IOS_NR_DEPTH_BUCKETS; b++)
		deep += r.jobs[1].io_depth[b];
	T_ASSERT(deep > r.jobs[1].dir[IOS_READ].total_ios / 2);
	/* queueing 8 on an NCQ disk gets more done than one at a time */
	T_ASSERT(r.jobs[1].dir[IOS_READ].total_ios > 2 * r.jobs[0].dir[IOS_READ].total_ios);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_size_loops_time(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run("[a]\nrw=read\ndirect=1\nbs=4k\nsize=1m\n"
			"[b]\nrw=read\ndirect=1\nbs=4k\nsize=1m\nloops=3\n", &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 256);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].io_bytes, 1 << 20);
	T_ASSERT_EQ(r.jobs[1].dir[IOS_READ].total_ios, 768);
	ios_run_result_free(&r);
	/* time_based: past the size, until the runtime */
	T_ASSERT_EQ(run("[c]\nrw=read\ndirect=1\nbs=4k\nsize=1m\nruntime=300ms\ntime_based\n",
			&r), 0);
	T_ASSERT(r.jobs[0].dir[IOS_READ].total_ios > 256);
	T_ASSERT(r.jobs[0].runtime_ns >= 300 * IOS_NSEC_PER_MSEC);
	T_ASSERT(r.jobs[0].runtime_ns < 320 * IOS_NSEC_PER_MSEC);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_rates_and_thinktime(void)
{
	struct ios_run_result r;
	double bw;

	T_ASSERT_EQ(run("[global]\ndirect=1\nsize=256m\nruntime=4\ntime_based\n"
			"[r]\nrw=read\nbs=4k\nrate=1m\n"
			"[i]\nrw=randread\nbs=4k\nrate_iops=40\n"
			"[t]\nrw=read\nbs=4k\nthinktime=10ms\n", &r), 0);
	bw = (double)r.jobs[0].dir[IOS_READ].io_bytes * 1e9 / (double)r.jobs[0].runtime_ns;
	T_ASSERT_NEAR(bw, 1048576.0, 1048576.0 * 0.02);
	T_ASSERT_NEAR(iops(&r.jobs[1], IOS_READ), 40.0, 1.0);
	/* at most one I/O per 10 ms of thinking */
	T_ASSERT(iops(&r.jobs[2], IOS_READ) < 100.0);
	T_ASSERT(iops(&r.jobs[2], IOS_READ) > 60.0);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_numjobs_and_groups(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run("[global]\ndirect=1\nsize=8m\nbs=64k\n"
			"[n]\nrw=read\nnumjobs=3\n", &r), 0);
	T_ASSERT_EQ(r.nr_jobs, 3);
	for (int i = 0; i < 3; i++)
		T_ASSERT_EQ(r.jobs[i].dir[IOS_READ].total_ios, 128);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[global]\ndirect=1\nsize=8m\nbs=64k\n"
			"[n]\nrw=read\nnumjobs=3\ngroup_reporting\n", &r), 0);
	T_ASSERT_EQ(r.nr_jobs, 1);
	T_ASSERT_EQ(r.jobs[0].nr_merged, 3);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 384);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_stonewall_startdelay_exitall(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run("[global]\ndirect=1\nsize=4m\nbs=64k\n"
			"[a]\nrw=read\n[b]\nrw=read\nstartdelay=1\n"
			"[c]\nrw=read\nstonewall\n", &r), 0);
	T_ASSERT_EQ(r.jobs[0].start_ns, 0);
	T_ASSERT_EQ(r.jobs[1].start_ns, IOS_NSEC_PER_SEC);
	T_ASSERT(r.jobs[2].start_ns >= r.jobs[0].finish_ns);
	T_ASSERT(r.jobs[2].start_ns >= r.jobs[1].finish_ns);
	T_ASSERT_EQ(r.jobs[2].groupid, 1);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[global]\ndirect=1\nbs=4k\nsize=64m\n"
			"[short]\nrw=read\nsize=1m\nexitall\n"
			"[long]\nrw=randread\nruntime=60\ntime_based\n", &r), 0);
	T_ASSERT(r.jobs[1].finish_ns < r.jobs[0].finish_ns + 100 * IOS_NSEC_PER_MSEC);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_random_map_and_mix(void)
{
	static struct tlog log;
	struct ios_run_result r;
	struct ios_err e = { 0 };

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run_full("[r]\nrw=randread\ndirect=1\nbs=4k\nsize=4m\n", NULL, NULL, NULL,
			     &log, &r, &e), 0);
	T_ASSERT_EQ(log.n, 1024);
	for (size_t i = 0; i < log.n; i++)
		for (size_t k = i + 1; k < log.n; k++)
			T_ASSERT_MSG(log.sectors[i] != log.sectors[k], "block read twice in one pass");
	ios_run_result_free(&r);

	T_ASSERT_EQ(run("[m]\nrw=randrw\nrwmixread=70\ndirect=1\nbs=4k\nsize=64m\n"
			"runtime=2\ntime_based\n", &r), 0);
	{
		double rd = (double)r.jobs[0].dir[IOS_READ].total_ios;
		double wr = (double)r.jobs[0].dir[IOS_WRITE].total_ios;

		T_ASSERT_NEAR(rd / (rd + wr), 0.70, 0.05);
	}
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_ramp_time(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run("[r]\nrw=read\ndirect=1\nbs=4k\nsize=256m\nramp_time=1\nruntime=1\n"
			"time_based\n", &r), 0);
	T_ASSERT(r.jobs[0].runtime_ns >= IOS_NSEC_PER_SEC);
	T_ASSERT(r.jobs[0].runtime_ns < IOS_NSEC_PER_SEC + 50 * IOS_NSEC_PER_MSEC);
	T_ASSERT(r.jobs[0].finish_ns >= 2 * IOS_NSEC_PER_SEC);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_large_io_and_sync_writes(void)
{
	static struct tlog log;
	struct ios_run_result r;
	struct ios_err e = { 0 };

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run_full("[w]\nrw=write\ndirect=1\nbs=1m\nsize=16m\n", NULL, NULL, NULL,
			     &log, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_WRITE].total_ios, 16);
	/* 1 MiB over max_sectors_kb=512: two requests each */
	T_ASSERT_EQ(r.disks[0].ios[IOS_WRITE], 32);
	T_ASSERT_EQ(log.write_sync, 32);
	T_ASSERT_EQ(log.write_async, 0);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full("[w]\nrw=write\ndirect=1\nbs=1m\nsize=16m\n", NULL, NULL,
			     "queue.max_sectors_kb=1024", NULL, &r, &e), 0);
	T_ASSERT_EQ(r.disks[0].ios[IOS_WRITE], 16);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_files_and_errors(void)
{
	struct ios_run_result r;
	struct ios_err e = { 0 };
	static struct tlog log;

	/* shared file: both readers start at the same sectors */
	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run_full("[global]\ndirect=1\nbs=4k\nsize=1m\n"
			     "[a]\nrw=read\nfilename=shared\n[b]\nrw=read\nfilename=shared\n"
			     "[c]\nrw=read\nfilename=other\n", NULL, NULL, NULL, &log, &r, &e), 0);
	{
		unsigned same = 0;

		for (size_t i = 0; i < log.n; i++)
			for (size_t k = 0; k < log.n; k++)
				same += i != k && log.sectors[i] == log.sectors[k];
		/* a and b read the same 256 blocks; c's file is elsewhere */
		T_ASSERT_EQ(same, 2 * 256);
	}
	ios_run_result_free(&r);

	/* /dev/ names are the device; size defaults to the whole device */
	T_ASSERT_EQ(run_full("[d]\nfilename=/dev/sda\nrw=randread\ndirect=1\nruntime=200ms\n",
			     NULL, NULL, NULL, NULL, &r, &e), 0);
	ios_run_result_free(&r);

	/* a reader's file is laid out first, as fio does: too big is refused (a writer's is
	 * written until ENOSPC: tests/unit/run_errors.c) */
	T_ASSERT(run_full("[big]\nrw=read\ndirect=1\nsize=2t\n", NULL, NULL, NULL, NULL, &r, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "big") && strstr(e.msg, "fit"), "message: %s", e.msg);
	ios_err_clear(&e);
	T_ASSERT(run_full("[nosize]\nrw=read\ndirect=1\n", NULL, NULL, NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "nosize") && strstr(e.msg, "size="));
	ios_err_clear(&e);
	T_ASSERT(run_full("[off]\nrw=read\ndirect=1\nsize=1m\nfilename=/dev/sda\noffset=2t\n",
			  NULL, NULL, NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "offset"));
	ios_err_clear(&e);
	T_ASSERT(run_full("[ok]\nrw=read\ndirect=1\nsize=1m\n", "nosuch", NULL, NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "unknown scheduler"));
	ios_err_clear(&e);
	T_ASSERT(run_full("[ok]\nrw=read\ndirect=1\nsize=1m\n", NULL, NULL, "vm.dirty_ratio=101",
			  NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "vm.dirty_ratio") && strstr(e.msg, "1..100"));
	ios_err_clear(&e);
	T_ASSERT(run_full("[ok]\nrw=read\ndirect=1\nsize=1m\n", NULL, NULL, "vm.swappiness=60",
			  NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "vm.swappiness"));
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_engines, test_size_loops_time, test_rates_and_thinktime,
			test_numjobs_and_groups, test_stonewall_startdelay_exitall,
			test_random_map_and_mix, test_ramp_time, test_large_io_and_sync_writes,
			test_files_and_errors);

	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	return ret;
}
