/*
 * Description: the rate and queue-depth options do what fio 3.33 does:
 * a rate-limited job stops at its runtime (fio cuts the rate sleep there),
 * rate_process=poisson spaces I/Os by exponential gaps from the job's seed,
 * rate_min / rate_iops_min end a job that falls short over rate_cycle with
 * EIO, iodepth_low refills only when the queue has drained to it,
 * iodepth_batch_complete_max caps a reap, thinktime_spin is CPU time of the
 * thinktime (no sleep, no context switch), ioscheduler= picks the run's
 * scheduler, and write_iolog writes an iolog that replay reads back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "run_rig.h"

static int run(const char *job, struct ios_run_result *res)
{
	struct ios_err e = { 0 };
	int ret = run_full(job, "noop", NULL, NULL, res, &e);

	if (ret)
		fprintf(stderr, "run failed: %s\n", e.msg);
	return ret;
}

/* fio's rate_ddir: the sleep to the next rated I/O ends at the runtime */
static int test_rate_stops_at_runtime(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=16m\nrate=1\nruntime=1\n", &r), 0);
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 1000000000ULL);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 1);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=64m\nrate=100k\nbs=1m\nruntime=1\n", &r), 0);
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 1000000000ULL);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].io_bytes, 1 << 20);
	ios_run_result_free(&r);
	/* async: waiting for a completion or the gate, the gate is cut too */
	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=64m\nrate=1k\nbs=4k\nruntime=2\n"
			"ioengine=libaio\niodepth=4\n", &r), 0);
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 2000000000ULL);
	ios_run_result_free(&r);
	return T_PASS;
}

/* fio's switch_ioscheduler: the job picks the device's scheduler */
static int test_ioscheduler(void)
{
	struct ios_run_result r;
	struct ios_err e = { 0 };

	T_ASSERT_EQ(run_full("[j]\nrw=read\ndirect=1\nsize=1m\nioscheduler=deadline\n", NULL, NULL,
			     NULL, &r, &e), 0);
	T_ASSERT(!strcmp(r.scheduler, "deadline"));
	ios_run_result_free(&r);
	/* [global] for all, and a later phase asking for the same: fine */
	T_ASSERT_EQ(run_full("[global]\nioscheduler=as\n[a]\nrw=read\nsize=1m\n"
			     "[b]\nstonewall\nrw=read\nsize=1m\n", NULL, NULL, NULL, &r, &e), 0);
	T_ASSERT(!strcmp(r.scheduler, "anticipatory"));
	ios_run_result_free(&r);
	T_ASSERT(run_full("[j]\nrw=read\nsize=1m\nioscheduler=deadline\n", "cfq", NULL, NULL, &r,
			  &e) < 0);
	T_ASSERT(strstr(e.msg, "r.fio:4") && strstr(e.msg, "--scheduler"));
	ios_err_clear(&e);
	T_ASSERT(run_full("[j]\nrw=read\nsize=1m\nioscheduler=bogus\n", NULL, NULL, NULL, &r,
			  &e) < 0);
	T_ASSERT(strstr(e.msg, "r.fio:4") && strstr(e.msg, "bogus") && strstr(e.msg, "deadline"));
	ios_err_clear(&e);
	T_ASSERT(run_full("[a]\nrw=read\nsize=1m\nioscheduler=noop\n"
			  "[b]\nrw=read\nsize=1m\nioscheduler=cfq\n", NULL, NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "r.fio:8") && strstr(e.msg, "one scheduler"));
	ios_err_clear(&e);
	T_ASSERT(run_full("[a]\nrw=read\nsize=1m\n[b]\nstonewall\nrw=read\nsize=1m\n"
			  "ioscheduler=noop\n", NULL, NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "r.fio:8") && strstr(e.msg, "stonewall"));
	ios_err_clear(&e);
	return T_PASS;
}

static bool has_warning(const struct ios_run_result *r, const char *a, const char *b);

/* fio's reset_all_stats at the end of the ramp: the rate counts from there */
static int test_rate_after_ramp(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=64m\nrate=1m\nramp_time=2\nruntime=2\n", &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].io_bytes, 2 << 20);
	ios_run_result_free(&r);
	/* fio's __setup_rate: rate= wins over rate_iops= */
	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=64m\nrate=1m\nrate_iops=10\nruntime=2\n",
			&r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].io_bytes, 2 << 20);
	ios_run_result_free(&r);
	/* rate_iops is a byte rate at the smallest block: 10 x 4k per second */
	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=64m\nbsrange=4k-64k\nrate_iops=10\n"
			"runtime=4\n", &r), 0);
	T_ASSERT(r.jobs[0].dir[IOS_READ].io_bytes <= 4 * 10 * 4096 + 65536);
	ios_run_result_free(&r);
	return T_PASS;
}

/* mean and coefficient of variation of the gaps between queued bios */
static void gaps(const struct tlog *l, double *mean, double *cv)
{
	double s = 0, s2 = 0;
	size_t n = l->n - 1;

	for (size_t i = 1; i < l->n; i++) {
		double g = (double)(l->issue_ns[i] - l->issue_ns[i - 1]);

		s += g;
		s2 += g * g;
	}
	*mean = s / (double)n;
	*cv = sqrt(s2 / (double)n - *mean * *mean) / *mean;
}

/* fio's usec_for_io with rate_process=poisson: exponential gaps, same mean */
static int test_poisson(void)
{
	static struct tlog a, b, lin;
	struct ios_run_result r;
	struct ios_err e = { 0 };
	double mean, cv;
	const char *job = "[j]\nrw=randread\ndirect=1\nsize=64m\nrate_iops=100\n"
			  "rate_process=poisson\nruntime=20\n";

	T_ASSERT_EQ(run_full(job, "noop", NULL, &a, &r, &e), 0);
	ios_run_result_free(&r);
	T_ASSERT(a.n > 1800 && a.n < 2200);
	gaps(&a, &mean, &cv);
	T_ASSERT_NEAR(mean, 10e6, 1e6);
	T_ASSERT(cv > 0.85 && cv < 1.15);
	/* the same seed, the same arrivals */
	T_ASSERT_EQ(run_full(job, "noop", NULL, &b, &r, &e), 0);
	ios_run_result_free(&r);
	T_ASSERT_EQ(a.n, b.n);
	T_ASSERT(!memcmp(a.issue_ns, b.issue_ns, a.n * sizeof(a.issue_ns[0])));
	/* linear: evenly spaced */
	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=64m\nrate_iops=100\nruntime=20\n",
			     "noop", NULL, &lin, &r, &e), 0);
	ios_run_result_free(&r);
	gaps(&lin, &mean, &cv);
	T_ASSERT_NEAR(mean, 10e6, 1e6);
	T_ASSERT(cv < 0.1);
	/* no rate: no effect, said once */
	T_ASSERT_EQ(run("[global]\nrate_process=poisson\nrw=read\nsize=1m\n[a]\n[b]\n", &r), 0);
	T_ASSERT_EQ(r.nr_warnings, 2);
	T_ASSERT(has_warning(&r, "job 'a': rate_process=poisson has no effect", NULL));
	ios_run_result_free(&r);
	/* less than one block per second: fio would divide by zero */
	T_ASSERT(run_full("[j]\nrw=read\nsize=1m\nrate=1k\nrate_process=poisson\n", "noop", NULL,
			  NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "r.fio:1: job 'j': rate_process=poisson needs"));
	ios_err_clear(&e);
	return T_PASS;
}

static uint64_t sum(const uint64_t *v, unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* fio's wait_for_completions: a full queue drains to iodepth_low before refilling */
static int test_iodepth_low(void)
{
	struct ios_run_result r;
	uint64_t all;

	T_ASSERT_EQ(run("[j]\nrw=randread\ndirect=1\nsize=64m\nruntime=2\nioengine=libaio\n"
			"iodepth=8\n", &r), 0);
	all = sum(r.jobs[0].io_depth, IOS_NR_DEPTH_BUCKETS);
	/* refilled one at a time: submitted at depth 8 */
	T_ASSERT(r.jobs[0].io_depth[3] > all * 95 / 100);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[j]\nrw=randread\ndirect=1\nsize=64m\nruntime=2\nioengine=libaio\n"
			"iodepth=8\niodepth_low=2\n", &r), 0);
	all = sum(r.jobs[0].io_depth, IOS_NR_DEPTH_BUCKETS);
	/* refilled from 2 to 8: one submission in six at depth 8, one at 3, four at 4-7 */
	T_ASSERT(r.jobs[0].io_depth[3] > all / 10 && r.jobs[0].io_depth[3] < all / 4);
	T_ASSERT(r.jobs[0].io_depth[1] > all / 10 && r.jobs[0].io_depth[1] < all / 4);
	T_ASSERT(r.jobs[0].io_depth[2] > all / 2);
	ios_run_result_free(&r);
	return T_PASS;
}

/* td_io_getevents(min, max): at most iodepth_batch_complete_max per reap */
static int test_batch_complete_max(void)
{
	struct ios_run_result r;
	uint64_t all;

	/* null completes at once: a drain finds all eight done */
	T_ASSERT_EQ(run("[j]\nrw=read\nsize=16m\nioengine=null\niodepth=8\n", &r), 0);
	all = sum(r.jobs[0].io_complete, IOS_NR_BATCH_BUCKETS);
	T_ASSERT(all > 0);
	/* default max = min = 1: one per getevents, as fio does */
	T_ASSERT_EQ(r.jobs[0].io_complete[ios_batch_bucket(1)], all);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[j]\nrw=read\nsize=16m\nioengine=null\niodepth=8\n"
			"iodepth_batch_complete_max=8\n", &r), 0);
	all = sum(r.jobs[0].io_complete, IOS_NR_BATCH_BUCKETS);
	T_ASSERT(r.jobs[0].io_complete[ios_batch_bucket(8)] > all * 9 / 10);
	ios_run_result_free(&r);
	return T_PASS;
}

/* fio's handle_thinktime: spin thinktime_spin, sleep the rest */
static int test_thinktime_spin(void)
{
	struct ios_run_result r, s;

	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=64m\nthinktime=10ms\nruntime=1\n", &r), 0);
	T_ASSERT_EQ(r.nr_warnings, 0);
	T_ASSERT_EQ(run("[j]\nrw=read\ndirect=1\nsize=64m\nthinktime=10ms\nthinktime_spin=10ms\n"
			"runtime=1\n", &s), 0);
	/* the same delay, so the same I/O */
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, s.jobs[0].dir[IOS_READ].total_ios);
	T_ASSERT(r.jobs[0].dir[IOS_READ].clat.mean == s.jobs[0].dir[IOS_READ].clat.mean);
	/* one sleep per I/O fewer: only the system calls put it to sleep */
	T_ASSERT(r.jobs[0].ctx > 80);
	T_ASSERT_EQ(s.jobs[0].ctx + r.jobs[0].dir[IOS_READ].total_ios, r.jobs[0].ctx);
	T_ASSERT_EQ(s.nr_warnings, 1);
	T_ASSERT(has_warning(&s, "r.fio:1: job 'j': thinktime_spin is CPU time", NULL));
	ios_run_result_free(&r);
	ios_run_result_free(&s);
	/* fio's handle_thinktime quiesces: the device is idle all through the think */
	{
		static struct tlog l;
		struct ios_err e = { 0 };

		T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=64m\nioengine=libaio\n"
				     "iodepth=4\nthinktime=50ms\nthinktime_blocks=8\nruntime=2\n",
				     "noop", NULL, &l, &r, &e), 0);
		ios_run_result_free(&r);
		T_ASSERT(l.think_gaps > 10);
		T_ASSERT_EQ(l.think_busy, 0);
	}
	/* fio lowers it to thinktime silently; refused here */
	{
		struct ios_err e = { 0 };

		T_ASSERT(run_full("[j]\nrw=read\nsize=1m\nthinktime_spin=10ms\n", "noop", NULL, NULL,
				  &r, &e) < 0);
		T_ASSERT(strstr(e.msg, "thinktime_spin is longer than thinktime"));
	}
	return T_PASS;
}

/* write_iolog: fio 3.33's iolog (version 3), which read_iolog replays */
static int test_write_iolog(void)
{
	static struct tlog w, rd;
	char dir[] = "/tmp/iosched-wl-XXXXXX", path[64], job[256], line[128];
	struct ios_run_result r;
	struct ios_err e = { 0 };
	unsigned reads = 0, writes = 0, syncs = 0, n = 0;
	FILE *f;

	T_ASSERT(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/j.log", dir);
	snprintf(job, sizeof(job), "[j]\nrw=randrw\ndirect=1\nsize=1m\nbs=4k\nfsync=16\n"
		 "write_iolog=%s\n", path);
	T_ASSERT_EQ(run_full(job, "noop", NULL, &w, &r, &e), 0);
	T_ASSERT_EQ(r.nr_warnings, 0);
	ios_run_result_free(&r);
	f = fopen(path, "r");
	T_ASSERT(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long us, off, len;
		char name[32], act[16];
		int k = sscanf(line, "%llu %31s %15s %llu %llu", &us, name, act, &off, &len);

		if (n == 0)
			T_ASSERT(!strcmp(line, "fio version 3 iolog\n"));
		else if (n == 1)
			T_ASSERT(!strcmp(line, "0 j.0.0 add\n"));
		else if (n == 2)
			T_ASSERT(k == 3 && !strcmp(act, "open"));
		else if (k == 5 && !strcmp(act, "read")) {
			reads++;
			T_ASSERT(len == 4096 && off % 4096 == 0 && off < (1 << 20));
		}
		else if (k == 5 && !strcmp(act, "write"))
			writes++;
		else if (k == 5 && !strcmp(act, "sync"))
			syncs++;
		else
			T_ASSERT(k == 3 && !strcmp(act, "close"));
		n++;
	}
	fclose(f);
	T_ASSERT_EQ(reads + writes, 256);
	T_ASSERT_EQ(syncs, writes / 16);
	/* replayed: the same I/O in the same order, at the same offsets in the file */
	snprintf(job, sizeof(job), "[r]\nread_iolog=%s\n", path);
	T_ASSERT_EQ(run_full(job, "noop", NULL, &rd, &r, &e), 0);
	ios_run_result_free(&r);
	T_ASSERT_EQ(rd.n, w.n);
	for (size_t i = 0; i < w.n; i++)
		T_ASSERT_U64_EQ(rd.sectors[i] - rd.sectors[0], w.sectors[i] - w.sectors[0]);
	/* a second writer of the same log is refused; numjobs clones too */
	snprintf(job, sizeof(job), "[a]\nrw=read\nsize=1m\nwrite_iolog=%s\n"
		 "[b]\nrw=read\nsize=1m\nwrite_iolog=%s\n", path, path);
	T_ASSERT(run_full(job, "noop", NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "job 'b'") && strstr(e.msg, "also the log of job 'a'"));
	ios_err_clear(&e);
	snprintf(job, sizeof(job), "[a]\nrw=read\nsize=1m\nnumjobs=2\nwrite_iolog=%s\n", path);
	T_ASSERT(run_full(job, "noop", NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "numjobs=2"));
	ios_err_clear(&e);
	unlink(path);
	rmdir(dir);
	return T_PASS;
}

/* overwrite: iosched's files are laid out before the run (fio's overwrite=1) */
static int test_overwrite(void)
{
	struct ios_run_result r;
	struct ios_err e = { 0 };

	/* the default: a documented simplification, not a note on every run */
	T_ASSERT_EQ(run_full("[w]\nrw=write\nsize=1m\n", "noop", "lab.fs=ext3", NULL, &r, &e), 0);
	T_ASSERT_EQ(r.nr_warnings, 0);
	ios_run_result_free(&r);
	/* asked for in so many words: the note */
	T_ASSERT_EQ(run_full("[w]\nrw=write\nsize=1m\noverwrite=0\n", "noop", "lab.fs=ext3", NULL,
			     &r, &e), 0);
	T_ASSERT_EQ(r.nr_warnings, 1);
	T_ASSERT(has_warning(&r, "r.fio:1: job 'w': overwrite=0: fio would create", NULL));
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full("[w]\nrw=write\nsize=1m\noverwrite=1\n", "noop", "lab.fs=ext3", NULL,
			     &r, &e), 0);
	T_ASSERT_EQ(r.nr_warnings, 0);
	ios_run_result_free(&r);
	/* a job that reads: fio lays the file out itself */
	T_ASSERT_EQ(run_full("[w]\nrw=randrw\nsize=1m\n", "noop", "lab.fs=ext3", NULL, &r, &e), 0);
	T_ASSERT_EQ(r.nr_warnings, 0);
	ios_run_result_free(&r);
	/* no filesystem, nothing to allocate */
	T_ASSERT_EQ(run("[w]\nrw=write\nsize=1m\n", &r), 0);
	T_ASSERT_EQ(r.nr_warnings, 0);
	ios_run_result_free(&r);
	return T_PASS;
}

static bool has_warning(const struct ios_run_result *r, const char *a, const char *b)
{
	for (size_t i = 0; i < r->nr_warnings; i++)
		if (strstr(r->warnings[i], a) && (!b || strstr(r->warnings[i], b)))
			return true;
	return false;
}

/* fio's check_min_rate: 2 s to settle, then a measure every rate_cycle */
static int test_rate_min(void)
{
	struct ios_run_result r;

	/* a random reader on a disk does well under 10 MiB/s: it fails at 3 s */
	T_ASSERT_EQ(run("[j]\nrw=randread\ndirect=1\nsize=256m\nrate_min=10m\nruntime=10\n", &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, -EIO);
	T_ASSERT(r.jobs[0].runtime_ns >= 3000000000ULL && r.jobs[0].runtime_ns < 3100000000ULL);
	T_ASSERT(has_warning(&r, "r.fio:1: job 'j': rate_min=10485760B/s not met, got ", "B/s"));
	ios_run_result_free(&r);
	/* rate_cycle=5000: the first measure ends at 7 s */
	T_ASSERT_EQ(run("[j]\nrw=randread\ndirect=1\nsize=256m\nrate_min=10m\nrate_cycle=5000\n"
			"runtime=10\n", &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, -EIO);
	T_ASSERT(r.jobs[0].runtime_ns >= 7000000000ULL && r.jobs[0].runtime_ns < 7100000000ULL);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[j]\nrw=randread\ndirect=1\nsize=256m\nrate_iops_min=1000\nruntime=10\n",
			&r), 0);
	T_ASSERT_EQ(r.jobs[0].error, -EIO);
	T_ASSERT(has_warning(&r, "rate_iops_min=1000 not met, got ", "IOPS"));
	ios_run_result_free(&r);
	/* met: the job runs its time */
	T_ASSERT_EQ(run("[j]\nrw=randread\ndirect=1\nsize=256m\nrate_min=100k\n"
			"rate_iops_min=10\nruntime=5\n", &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	T_ASSERT(r.jobs[0].runtime_ns >= 5000000000ULL);
	T_ASSERT_EQ(r.nr_warnings, 0);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run("[j]\nrw=read\nsize=1m\nrate_cycle=500\n", &r), 0);
	T_ASSERT(has_warning(&r, "job 'j': rate_cycle has no effect without rate_min", NULL));
	ios_run_result_free(&r);
	/* a write-only minimum does not judge a reader (fio: only directions with I/O) */
	T_ASSERT_EQ(run("[j]\nrw=randread\ndirect=1\nsize=256m\nrate_min=,10m\nruntime=4\n", &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	ios_run_result_free(&r);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_rate_stops_at_runtime, test_ioscheduler, test_rate_min, test_rate_after_ramp, test_poisson, test_iodepth_low,
			test_batch_complete_max, test_thinktime_spin,
			test_write_iolog, test_overwrite);

	run_rig_free();
	return ret;
}
