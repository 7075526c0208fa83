/*
 * Description: the plot by cgroup's two sides (docs/logs-and-plots.md
 * "By cgroup"): per cgroup the submit side, bytes its tasks' system calls
 * completed (ios_series_job.bytes), and the device side, bytes of the
 * requests charged to it that the device completed (charged[], from
 * ios_series_add_charged at request completion, by the request's blkcg).
 *
 * A buffered 64 KiB writer in group lim under io.max wbps=10 MiB/s and a
 * direct 64 KiB reader (QD4) in group free, on ssd-nvme under none, 3 s:
 * lim's device side stays at its limit (within 3 % over 0.5-3 s: the
 * throttle's slices let the first bytes through at once, then hold it to
 * the rate); its submit side in the first second is above twice its
 * device side there (the copies into the page cache run at memory speed
 * until dirty throttling brings them down); free's two sides agree within
 * 1 % (a direct read completes at the syscall when it completes at the
 * device). The lines by cgroup carry charged[] and the per-job lines do
 * not; the device side is bounded by the buckets as the jobs' are. The
 * SVG says which side is which and draws the dashed device lines.
 */
#include <string.h>
#include "harness.h"
#include "iosched/ios.h"
#include "iosched/plot.h"
#include "iosched/series_group.h"

#define LIMIT (10.0 * 1024 * 1024)

static const char job[] =
	"[global]\nsize=512m\nbs=64k\nruntime=3\ntime_based\n"
	"[lim]\ncgroup=lim\nrw=write\nioengine=psync\n"
	"[free]\ncgroup=free\nrw=read\ndirect=1\nioengine=libaio\niodepth=4\n";

static struct ios_jobfile jf;
static struct ios_run_result res;
static struct ios_series lines;

static int setup(void)
{
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	struct ios_run_config cfg = { .scheduler = "none", .device = "ssd-nvme", .seed = 1,
				      .settings = &set, .record_series = true };
	int ret;

	if (ios_settings_add_kv(&set, "cgroup.lim.io.max=wbps=10485760", "test", &e))
		return -1;
	ret = t_run_job("t.fio", job, &cfg, &jf, &res);
	ios_settings_free(&set);
	if (ret || !res.series)
		return -1;
	return ios_series_aggregate(res.series, IOS_PLOT_BY_CGROUP, &lines);
}

static const struct ios_series_job *line_of(const char *cg)
{
	for (size_t j = 0; j < lines.nr_jobs; j++)
		if (!strcmp(lines.jobs[j].cgroup, cg))
			return &lines.jobs[j];
	return NULL;
}

/* bytes of buckets [from_ns, to_ns) of @v */
static double sum_between(const uint64_t *v, size_t len, uint64_t from_ns, uint64_t to_ns)
{
	double sum = 0;

	for (size_t i = 0; i < len; i++)
		if (i * lines.bucket_ns >= from_ns && i * lines.bucket_ns < to_ns)
			sum += (double)v[i];
	return sum;
}

/* rule: the device side of a group under io.max wbps is its limit */
static int test_limited_device_side(void)
{
	const struct ios_series_job *l = line_of("lim");
	double rate;

	T_ASSERT(l && l->charged);
	rate = sum_between(l->charged, l->charged_len, 500000000, 3000000000ULL) / 2.5;
	printf("lim device side 0.5-3 s: %.2f MiB/s (limit 10)\n", rate / 1048576);
	T_ASSERT_NEAR(rate, LIMIT, LIMIT * 0.03);
	return T_PASS;
}

/* rule: the submit side of a buffered writer is the cache's speed, above the device side */
static int test_limited_submit_side(void)
{
	const struct ios_series_job *l = line_of("lim");
	double sub, dev;

	T_ASSERT(l && l->charged && l->bytes);
	sub = sum_between(l->bytes, l->len, 0, 1000000000);
	dev = sum_between(l->charged, l->charged_len, 0, 1000000000);
	printf("lim first second: submit %.2f MiB, device %.2f MiB\n", sub / 1048576,
	       dev / 1048576);
	T_ASSERT_MSG(sub > 2 * dev, "submit %.0f vs device %.0f", sub, dev);
	return T_PASS;
}

/* rule: direct I/O's two sides agree */
static int test_unlimited_sides_agree(void)
{
	const struct ios_series_job *f = line_of("free");
	double sub, dev;

	T_ASSERT(f && f->charged);
	sub = (double)f->total;
	dev = sum_between(f->charged, f->charged_len, 0, lines.end_ns + 1);
	printf("free: submit %.2f MiB, device %.2f MiB\n", sub / 1048576, dev / 1048576);
	T_ASSERT(sub > 0);
	T_ASSERT_NEAR(dev, sub, sub * 0.01);
	return T_PASS;
}

/* rule: charged[] comes with lines by cgroup only; the per-cgroup record is bucketed */
static int test_only_by_cgroup(void)
{
	struct ios_series jobs;
	uint64_t sum = 0;

	T_ASSERT(!ios_series_aggregate(res.series, IOS_PLOT_BY_JOB, &jobs));
	for (size_t j = 0; j < jobs.nr_jobs; j++)
		T_ASSERT(!jobs.jobs[j].charged);
	ios_series_free(&jobs);
	T_ASSERT(res.series->nr_cgs >= 3);	/* root, lim, free */
	for (size_t g = 0; g < res.series->nr_cgs; g++) {
		const struct ios_series_cg *cg = &res.series->cgs[g];
		uint64_t s = 0;

		T_ASSERT(cg->len <= IOS_SERIES_MAX_BUCKETS);
		for (size_t i = 0; i < cg->len; i++)
			s += cg->bytes[i];
		T_ASSERT_U64_EQ(s, cg->total);
		sum += s;
	}
	T_ASSERT(sum > 0);
	return T_PASS;
}

/* rule: a long run folds the device side with the jobs' buckets, totals exact */
static int test_bounded(void)
{
	struct ios_series s;
	uint64_t want = 0, got = 0;

	T_ASSERT(!ios_series_init(&s, 1));
	for (uint64_t t = 0; t < 100ULL * 1000000000; t += 7000000) {
		T_ASSERT(!ios_series_add_charged(&s, 2, "x", t, 4096));
		T_ASSERT(!ios_series_add(&s, 0, t, 512));
		want += 4096;
	}
	T_ASSERT(s.nr_cgs == 3 && !s.cgs[0].path && !strcmp(s.cgs[2].path, "x"));
	T_ASSERT(s.cgs[2].len <= IOS_SERIES_MAX_BUCKETS && s.bucket_ns == 100000000);
	for (size_t i = 0; i < s.cgs[2].len; i++)
		got += s.cgs[2].bytes[i];
	T_ASSERT_U64_EQ(got, want);
	ios_series_free(&s);
	return T_PASS;
}

/* rule: the plot names the sides and dashes the device side */
static int test_svg(void)
{
	struct ios_plot_run pr = { NULL, &lines };
	struct ios_plot p = { "t", NULL, &pr, 1, "cgroup", false };
	struct ios_buf b;

	ios_buf_init(&b);
	T_ASSERT(!ios_plot_svg(&p, &b));
	T_ASSERT(strstr(b.s, "submit side (system calls)") && strstr(b.s, "device side (charged)"));
	T_ASSERT(strstr(b.s, "stroke-dasharray=\"5 3\""));
	ios_buf_free(&b);
	return T_PASS;
}

int main(void)
{
	int ret;

	if (setup()) {
		fprintf(stderr, "setup failed\n");
		return T_FAIL;
	}
	ret = T_RUN(test_limited_device_side, test_limited_submit_side, test_unlimited_sides_agree,
		    test_only_by_cgroup, test_bounded, test_svg);
	ios_series_free(&lines);
	t_job_done(&jf, &res);
	return ret;
}
