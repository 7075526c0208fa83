/*
 * Description: the seed experiments under CFQ, through the whole simulator
 * (seed-scenarios.md A1, A2, B1, D1). Nothing here is scripted: the results come
 * out of the disk, filesystem, page cache and scheduler models.
 *  A1: four buffered dd readers on hdd-2009 under 2.6.31's CFQ (2.6.31-rc7,
 *      the kernel of the fairness thread, has the same CFQ): with fairness=1
 *      the finish times spread by at most 8 % of the longest (median over
 *      seeds 1-5) and the makespans stay within 10 % of fairness=0's; with
 *      fairness=0 the readers that start seeky lose their idle window and
 *      the median spread is at least twice fairness=1's. (seed-scenarios.md asks
 *      >= 25 %; docs/REPRODUCTION.md reports that criterion, a MISS here.)
 *  A2: eight O_DIRECT readers at BE level 4: every |%diff| <= 10 %.
 *  B1: a sync O_DIRECT 64 KiB reader and writer on hdd-2004: under cfq the
 *      writer gets at least half the reader's bandwidth and both worst
 *      latencies stay under 2.5 slices; deadline's aggregate is far below.
 *  D1: the seed's eleven readers (fio 1.x, two sharing a file) on hdd-2004:
 *      with bios merging across queues (Linux before 2.6.20) the sharers
 *      starve (under 1 % of the others' median), without they get half.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"

static struct ios_jobfile *jfs[64];
static int nr_jfs;

static int run_file(const char *path, enum ios_compat compat, const char *sched, const char *dev,
		    uint64_t seed, const char *const *kv, struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	po.compat = compat;
	if (ios_job_parse_file(path, &po, jf, &e)) {
		fprintf(stderr, "parse %s: %s\n", path, e.msg);
		return -1;
	}
	jfs[nr_jfs++] = jf;
	for (; kv && *kv; kv++)
		if (ios_settings_add_kv(&set, *kv, "test", &e))
			return -1;
	cfg.scheduler = sched;
	cfg.device = dev;
	cfg.seed = seed;
	cfg.settings = &set;
	ret = ios_run(jf, &cfg, res, &e);
	if (ret)
		fprintf(stderr, "run %s: %s\n", path, e.msg);
	ios_settings_free(&set);
	return ret;
}

static int run_buf(const char *job, const char *sched, const char *dev, const char *const *kv,
		   struct ios_run_result *res)
{
	char path[] = "/tmp/iosched-scen-XXXXXX";
	int fd = mkstemp(path), ret;
	FILE *f;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	fputs(job, f);
	fclose(f);
	ret = run_file(path, IOS_JOB_COMPAT_FIO3, sched, dev, 1, kv, res);
	unlink(path);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int a1_spread(const char *fairness, uint64_t seed, double *spread, uint64_t *makespan)
{
	/* lab.file_size as in the seed's .args: dd read files that were there before */
	const char *kv[] = { fairness, "lab.file_size=234179072", NULL };
	struct ios_run_result r;
	uint64_t lo = UINT64_MAX, hi = 0;

	if (run_file("examples/seeds/a1-four-dd-readers.fio", IOS_JOB_COMPAT_FIO3, "cfq",
		     NULL, seed, kv, &r))
		return -1;
	for (size_t i = 0; i < r.nr_jobs; i++) {
		uint64_t t = r.jobs[i].finish_ns;

		if (r.jobs[i].dir[IOS_READ].io_bytes != 234179072ULL)
			return -1;
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	*spread = (double)(hi - lo) / (double)hi;
	*makespan = hi;
	ios_run_result_free(&r);
	return 0;
}

static int test_a1_fairness_tunable(void)
{
	double s0[5], s1[5];
	uint64_t m0[5], m1[5];

	for (int i = 0; i < 5; i++) {
		T_ASSERT_EQ(a1_spread("fairness=0", (uint64_t)i + 1, &s0[i], &m0[i]), 0);
		T_ASSERT_EQ(a1_spread("fairness=1", (uint64_t)i + 1, &s1[i], &m1[i]), 0);
		printf("    A1 seed %d: fairness=0 spread %.1f%% makespan %.2f s; "
		       "fairness=1 spread %.1f%% makespan %.2f s\n", i + 1, 100 * s0[i], m0[i] / 1e9,
		       100 * s1[i], m1[i] / 1e9);
		T_ASSERT(m1[i] <= m0[i] * 1.10);
	}
	qsort(s0, 5, sizeof(double), cmp_double);
	qsort(s1, 5, sizeof(double), cmp_double);
	printf("    A1 median spread: fairness=0 %.1f%% (seed 44%%), fairness=1 %.1f%% (seed 5.7%%)\n",
	       100 * s0[2], 100 * s1[2]);
	T_ASSERT(s0[2] >= 2 * s1[2]);
	T_ASSERT(s1[2] <= 0.08);
	return T_PASS;
}

static const char a2_job[] =
	"[global]\nrw=read\nbs=128k\nioengine=sync\ndirect=1\nsize=2g\nruntime=30\ntime_based\n"
	"prioclass=2\nprio=4\n[r1]\n[r2]\n[r3]\n[r4]\n[r5]\n[r6]\n[r7]\n[r8]\n";

static int test_a2_equal_share(void)
{
	static const char *const f0[] = { "fairness=0", NULL }, *const f1[] = { "fairness=1", NULL };
	const char *const *kvs[] = { f0, f1 };

	for (int k = 0; k < 2; k++) {
		struct ios_run_result r;
		double total = 0, worst = 0;

		T_ASSERT_EQ(run_buf(a2_job, "cfq", NULL, kvs[k], &r), 0);
		T_ASSERT_EQ(r.nr_jobs, 8);
		for (size_t i = 0; i < 8; i++)
			total += (double)r.jobs[i].dir[IOS_READ].io_bytes;
		for (size_t i = 0; i < 8; i++) {
			double diff = ((double)r.jobs[i].dir[IOS_READ].io_bytes - total / 8) / (total / 8);

			T_ASSERT_MSG(diff <= 0.10 && diff >= -0.10, "%s job %zu: %%diff %.1f", *kvs[k], i,
				     100 * diff);
			if (diff > worst || -diff > worst)
				worst = diff > 0 ? diff : -diff;
		}
		printf("    A2 %s: worst |%%diff| %.1f%% (criterion <= 10%%)\n", *kvs[k], 100 * worst);
		ios_run_result_free(&r);
	}
	return T_PASS;
}

static const char b1_job[] =
	"[global]\ndirect=1\nioengine=sync\nbs=64k\nsize=2g\nruntime=30\ntime_based\n"
	"[reader]\nrw=read\ndirectory=/r\n[writer]\nrw=write\ndirectory=/w\n";

static int test_b1_sync_reader_writer(void)
{
	struct ios_run_result c, d;
	double rc, wc, rd, wd;

	T_ASSERT_EQ(run_buf(b1_job, "cfq", "hdd-2004", NULL, &c), 0);
	T_ASSERT_EQ(run_buf(b1_job, "deadline", "hdd-2004", NULL, &d), 0);
	rc = (double)c.jobs[0].dir[IOS_READ].io_bytes / 30 / 1024;
	wc = (double)c.jobs[1].dir[IOS_WRITE].io_bytes / 30 / 1024;
	rd = (double)d.jobs[0].dir[IOS_READ].io_bytes / 30 / 1024;
	wd = (double)d.jobs[1].dir[IOS_WRITE].io_bytes / 30 / 1024;
	printf("    B1 cfq: reader %.0f KiB/s, writer %.0f KiB/s (seed 12703/9743); "
	       "deadline: %.0f / %.0f (seed 2520/1258)\n", rc, wc, rd, wd);
	T_ASSERT(wc >= 0.5 * rc);
	/* both worst latencies within 2.5 sync slices (250 ms) */
	T_ASSERT(c.jobs[0].dir[IOS_READ].clat.max <= 250 * IOS_NSEC_PER_MSEC);
	T_ASSERT(c.jobs[1].dir[IOS_WRITE].clat.max <= 250 * IOS_NSEC_PER_MSEC);
	/* deadline alternates the two streams request by request: far less done */
	T_ASSERT_MSG(rd + wd < 0.5 * (rc + wc), "deadline %.0f vs cfq %.0f KiB/s", rd + wd, rc + wc);
	ios_run_result_free(&c);
	ios_run_result_free(&d);
	return T_PASS;
}

static int d1_shares(int cross_merge, double *s4, double *s5, double *others_spread)
{
	const char *kv[] = { "lab.file_size=1g", cross_merge ? "lab.cross_queue_merge=1"
							      : "lab.cross_queue_merge=0", NULL };
	static double others[16];
	struct ios_run_result r;
	size_t n = 0;
	double b4 = 0, b5 = 0;

	if (run_file("tests/jobs/d1-eleven-readers-60s.fio", IOS_JOB_COMPAT_FIO1, "cfq", "hdd-2004", 1,
		     kv, &r))
		return -1;
	for (size_t i = 0; i < r.nr_jobs; i++) {
		double bw = (double)r.jobs[i].dir[IOS_READ].io_bytes;

		if (!strcmp(r.jobs[i].name, "reader4"))
			b4 = bw;
		else if (!strcmp(r.jobs[i].name, "reader5"))
			b5 = bw;
		else
			others[n++] = bw;
	}
	qsort(others, n, sizeof(double), cmp_double);
	*s4 = b4 / others[n / 2];
	*s5 = b5 / others[n / 2];
	*others_spread = (others[n - 1] - others[0]) / others[n - 1];
	ios_run_result_free(&r);
	return n == 9 ? 0 : -1;
}

static int test_d1_shared_file_starvation(void)
{
	double s4, s5, spread;

	T_ASSERT_EQ(d1_shares(1, &s4, &s5, &spread), 0);
	printf("    D1 merging across queues: sharers %.4f %.4f of the others' median "
	       "(seed 0.003), others within %.1f%%\n", s4, s5, 100 * spread);
	T_ASSERT(s4 < 0.01 && s5 < 0.01);
	T_ASSERT(spread <= 0.15);
	T_ASSERT_EQ(d1_shares(0, &s4, &s5, &spread), 0);
	printf("    D1 with allow_merge: sharers %.2f %.2f\n", s4, s5);
	T_ASSERT(s4 >= 0.5 && s5 >= 0.5);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_a1_fairness_tunable, test_a2_equal_share, test_b1_sync_reader_writer,
			test_d1_shared_file_starvation);

	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	return ret;
}
