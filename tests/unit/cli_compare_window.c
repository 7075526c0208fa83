/*
 * Description: what `iosched compare` answers (issue 32 item 4). Mean and
 * p50 clat rows beside p99 and max, consistent with one another; clones of
 * numjobs=N named "seq.0".."seq.N-1" (one row under group_reporting);
 * --seeds A-B runs each column per seed, each cell the median of the
 * single-seed runs with their range; --from TIME measures the completions
 * from TIME on without changing the run (1 ns = the whole run, past the end
 * = nothing, monotonic in between, before ramp_time's end = ramp_time's
 * own window); the early/late halves rule on a built series (above 2x
 * flags, below does not) and its note in the table; bad --seeds and
 * --from are refused with exit 2; the plot's latency panel (compare draws
 * it) turns log scale when the window means span more than 100x.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "json_mini.h"
#include "iosched/compare.h"
#include "iosched/exp.h"
#include "iosched/plot.h"

static char dir[] = "/tmp/iosched-cmpw-XXXXXX";
static char job[512], ramp[512], early[512];

static int write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	return 0;
}

static struct jm *run_json(const char *args)
{
	char cmd[4096];
	const char *err = NULL;
	struct jm *doc;
	char *out;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s --output-format=json", t_iosched_bin(), args);
	out = t_run_cmd(cmd, &st);
	if (!out || st) {
		fprintf(stderr, "'%s': exit %d: %s\n", cmd, st, out ? out : "");
		free(out);
		return NULL;
	}
	doc = jm_parse(out, &err, NULL);
	if (!doc)
		fprintf(stderr, "bad JSON (%s): %s\n", err, out);
	free(out);
	return doc;
}

static char *run_text(const char *args, int *st)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "%s %s", t_iosched_bin(), args);
	return t_run_cmd(cmd, st);
}

static int setup(void)
{
	if (job[0])
		return T_PASS;
	T_ASSERT(mkdtemp(dir));
	T_ASSERT_EQ(write_file("mix.fio",
			       "[global]\ndirect=1\nioengine=psync\nruntime=2\ntime_based\nsize=256m\n\n"
			       "[rand]\nrw=randread\nbs=4k\n\n[seq]\nrw=read\nbs=64k\nnumjobs=3\n",
			       job, sizeof(job)), 0);
	T_ASSERT_EQ(write_file("ramp.fio",
			       "[r]\nrw=randread\nbs=4k\ndirect=1\nsize=256m\nruntime=1\ntime_based\n"
			       "ramp_time=500ms\n", ramp, sizeof(ramp)), 0);
	T_ASSERT_EQ(write_file("early.fio",
			       "[global]\nrw=read\nbs=64k\ndirect=1\nsize=1g\ntime_based\n\n"
			       "[short]\nruntime=500ms\n\n[long]\nruntime=2\n",
			       early, sizeof(early)), 0);
	return T_PASS;
}

/* mean and p50 rows; their numbers lie between min and max, p50 <= p99 */
static int test_mean_p50(void)
{
	char args[1024], *out;
	struct jm *doc;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args), "compare %s --schedulers cfq,bfq", job);
	doc = run_json(args);
	T_ASSERT(doc);
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < 4; i++) {
			char p[128];
			double mean, p50, p99, max;

			snprintf(p, sizeof(p), "iosched_compare/runs/%d/jobs/%d/clat_mean_ns", c, i);
			mean = jm_num(doc, p);
			snprintf(p, sizeof(p), "iosched_compare/runs/%d/jobs/%d/clat_p50_ns", c, i);
			p50 = jm_num(doc, p);
			snprintf(p, sizeof(p), "iosched_compare/runs/%d/jobs/%d/clat_p99_ns", c, i);
			p99 = jm_num(doc, p);
			snprintf(p, sizeof(p), "iosched_compare/runs/%d/jobs/%d/clat_max_ns", c, i);
			max = jm_num(doc, p);
			T_ASSERT_MSG(mean > 0 && mean <= max && p50 > 0 && p50 <= p99 && p99 <= max * 1.02,
				     "col %d job %d: mean %g p50 %g p99 %g max %g", c, i, mean, p50, p99,
				     max);
		}
	T_ASSERT(jm_num(doc, "iosched_compare/runs/0/all_jobs/clat_mean_ns") > 0);
	T_ASSERT(jm_num(doc, "iosched_compare/runs/0/all_jobs/clat_p50_ns") > 0);
	jm_free(doc);
	out = run_text(args, &st);
	T_ASSERT_MSG(out && !st && strstr(out, "\nclat mean (ms)\n  rand ") &&
		     strstr(out, "\nclat p50 (ms)\n  rand ") && strstr(out, "  clat mean (ms) ") &&
		     strstr(out, "  clat p50 (ms) "), "%s", out ? out : "");
	free(out);
	return T_PASS;
}

/* numjobs=3: rows seq.0, seq.1, seq.2; group_reporting: one row "seq" */
static int test_clone_names(void)
{
	char args[1024], path[600], *out;
	struct jm *doc;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args), "compare %s --schedulers noop", job);
	doc = run_json(args);
	T_ASSERT(doc);
	T_ASSERT(!strcmp(jm_str(doc, "iosched_compare/runs/0/jobs/0/name"), "rand"));
	for (int k = 0; k < 3; k++) {
		char p[96], want[16];

		snprintf(p, sizeof(p), "iosched_compare/runs/0/jobs/%d/name", k + 1);
		snprintf(want, sizeof(want), "seq.%d", k);
		T_ASSERT_MSG(!strcmp(jm_str(doc, p), want), "%s: '%s'", p, jm_str(doc, p));
	}
	jm_free(doc);
	out = run_text(args, &st);
	T_ASSERT_MSG(out && !st && strstr(out, "\n  seq.2 ") && !strstr(out, "\n  seq "), "%s",
		     out ? out : "");
	free(out);
	T_ASSERT_EQ(write_file("grp.fio",
			       "[global]\ndirect=1\nruntime=1\ntime_based\nsize=64m\n\n"
			       "[seq]\nrw=read\nbs=64k\nnumjobs=3\ngroup_reporting\n",
			       path, sizeof(path)), 0);
	snprintf(args, sizeof(args), "compare %s --schedulers noop", path);
	doc = run_json(args);
	T_ASSERT(doc);
	T_ASSERT_EQ(jm_path(doc, "iosched_compare/runs/0/jobs")->n, 1);
	T_ASSERT(!strcmp(jm_str(doc, "iosched_compare/runs/0/jobs/0/name"), "seq"));
	jm_free(doc);
	unlink(path);
	return T_PASS;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* --seeds 1-3: by_seed[k] is the run --seed k+1; the text cell is median [lo..hi] */
static int test_seeds(void)
{
	char args[1024], *out;
	double bw[3];
	struct jm *doc;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args), "compare %s --schedulers cfq --seeds 1-3", job);
	doc = run_json(args);
	T_ASSERT(doc);
	T_ASSERT_EQ(jm_path(doc, "iosched_compare/by_seed")->n, 3);
	for (int k = 0; k < 3; k++) {
		char a1[1024], p[128];
		struct jm *one;

		snprintf(a1, sizeof(a1), "compare %s --schedulers cfq --seed %d", job, k + 1);
		one = run_json(a1);
		T_ASSERT(one);
		bw[k] = jm_num(one, "iosched_compare/runs/0/jobs/0/bw_kib");
		snprintf(p, sizeof(p), "iosched_compare/by_seed/%d/runs/0/jobs/0/bw_kib", k);
		T_ASSERT_NEAR(jm_num(doc, p), bw[k], 1e-9);
		snprintf(p, sizeof(p), "iosched_compare/by_seed/%d/seed", k);
		T_ASSERT_U64_EQ(jm_u64(doc, p), (uint64_t)(k + 1));
		jm_free(one);
	}
	jm_free(doc);
	/* the seeds must give different numbers, or the median proves nothing */
	T_ASSERT_MSG(bw[0] != bw[1] || bw[1] != bw[2], "%g %g %g", bw[0], bw[1], bw[2]);
	qsort(bw, 3, sizeof(bw[0]), dbl_cmp);
	out = run_text(args, &st);
	T_ASSERT_MSG(out && !st, "exit %d", st);
	{
		char cell[96];
		const char *blk = strstr(out, "bandwidth (KiB/s)\n  rand ");

		snprintf(cell, sizeof(cell), " %.0f [%.0f..%.0f]\n", bw[1], bw[0], bw[2]);
		T_ASSERT_MSG(blk && strstr(blk, cell) && strstr(blk, cell) < strstr(blk, "  seq.0"),
			     "want '%s' in:\n%s", cell, out);
		T_ASSERT(strstr(out, "seeds 1..3 (3 runs a column)"));
	}
	free(out);
	return T_PASS;
}

static double job_num(const char *args, int job_idx, const char *key)
{
	char p[160];
	struct jm *doc = run_json(args);
	double v;

	if (!doc)
		return NAN;
	snprintf(p, sizeof(p), "iosched_compare/runs/0/jobs/%d/%s", job_idx, key);
	v = jm_num(doc, p);
	jm_free(doc);
	return v;
}

/* --from: the same run, the window's completions only */
static int test_from(void)
{
	char args[1024];
	double whole, tiny, mid, late, past, end_whole, end_mid, rwhole, rfrom;

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args), "compare %s --schedulers cfq", job);
	whole = job_num(args, 1, "bytes");
	end_whole = job_num(args, 1, "finish_ns");
	snprintf(args, sizeof(args), "compare %s --schedulers cfq --from 1ns", job);
	tiny = job_num(args, 1, "bytes");
	snprintf(args, sizeof(args), "compare %s --schedulers cfq --from 1s", job);
	mid = job_num(args, 1, "bytes");
	end_mid = job_num(args, 1, "finish_ns");
	snprintf(args, sizeof(args), "compare %s --schedulers cfq --from 1500ms", job);
	late = job_num(args, 1, "bytes");
	snprintf(args, sizeof(args), "compare %s --schedulers cfq --from 1m", job);
	past = job_num(args, 1, "bytes");
	T_ASSERT_MSG(whole > 0 && tiny == whole && mid < whole && mid > 0 && late < mid &&
		     past == 0, "whole %g 1ns %g 1s %g 1.5s %g 1m %g", whole, tiny, mid, late, past);
	/* the run itself does not move */
	T_ASSERT_NEAR(end_mid, end_whole, 0.0);
	/* a window before the ramp's end is the ramp's: fio counts nothing before it */
	snprintf(args, sizeof(args), "compare %s --schedulers cfq", ramp);
	rwhole = job_num(args, 0, "bytes");
	snprintf(args, sizeof(args), "compare %s --schedulers cfq --from 200ms", ramp);
	rfrom = job_num(args, 0, "bytes");
	T_ASSERT_MSG(rwhole > 0 && rfrom == rwhole, "ramp: %g, --from 200ms %g", rwhole, rfrom);
	snprintf(args, sizeof(args), "compare %s --schedulers cfq --from 1s", ramp);
	T_ASSERT(job_num(args, 0, "bytes") < rwhole);
	return T_PASS;
}

/* The halves rule on a built series: above IOS_CMP_HALVES_RATIO flags, below not. */
static int halves_case(double late_factor, bool *differ)
{
	struct ios_series s;
	struct ios_cmp_job j = { 0 };
	struct ios_cmp_run r = { 0 };

	T_ASSERT_EQ(ios_series_init(&s, 1), 0);
	/* 10 s, one 4 KiB I/O every 10 ms; the last 5 s slower by late_factor */
	for (uint64_t t = 10000000; t <= 10000000000ULL; t += 10000000) {
		uint64_t lat = t > 5000000000ULL ? (uint64_t)(1e6 * late_factor) : 1000000;

		T_ASSERT_EQ(ios_series_add(&s, 0, t, 4096), 0);
		T_ASSERT_EQ(ios_series_add_lat(&s, 0, t, lat), 0);
	}
	r.jobs = &j;
	r.nr_jobs = 1;
	ios_cmp_run_halves(&r, &s);
	T_ASSERT(r.has_halves);
	T_ASSERT(r.half_mid_ns > 4900000000ULL && r.half_mid_ns < 5100000000ULL);
	T_ASSERT_NEAR(j.half_clat_mean_ns[0], 1e6, 1e6 * 0.02);
	T_ASSERT_NEAR(j.half_bw_kib[0], j.half_bw_kib[1], j.half_bw_kib[0] * 0.05);
	*differ = j.halves_differ;
	ios_series_free(&s);
	return T_PASS;
}

static int test_halves(void)
{
	bool differ = true;
	char args[1024], *out;
	int st;

	T_ASSERT_EQ(halves_case(1.5, &differ), T_PASS);
	T_ASSERT(!differ);
	T_ASSERT_EQ(halves_case(3.0, &differ), T_PASS);
	T_ASSERT(differ);
	/* in the table: 'short' ran only in the early half */
	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args), "compare %s --schedulers noop", early);
	out = run_text(args, &st);
	T_ASSERT_MSG(out && !st && strstr(out, "early and late halves differ") &&
		     strstr(out, "  noop, short: "), "%s", out ? out : "");
	free(out);
	return T_PASS;
}

/* The plot's latency panel: log scale when window means span more than 100x */
static int plot_case(uint64_t slow_ns, bool *log_scale, bool *panel)
{
	struct ios_series s;
	struct ios_plot_run pr;
	struct ios_plot p = { "t", NULL, &pr, 1, NULL, true };
	struct ios_buf b;

	T_ASSERT_EQ(ios_series_init(&s, 2), 0);
	T_ASSERT_EQ(ios_series_set_label(&s, 0, "fast"), 0);
	T_ASSERT_EQ(ios_series_set_label(&s, 1, "slow"), 0);
	for (uint64_t t = 1000000; t <= 2000000000ULL; t += 1000000) {
		T_ASSERT_EQ(ios_series_add(&s, 0, t, 4096), 0);
		T_ASSERT_EQ(ios_series_add_lat(&s, 0, t, 100000), 0);
		T_ASSERT_EQ(ios_series_add(&s, 1, t, 4096), 0);
		T_ASSERT_EQ(ios_series_add_lat(&s, 1, t, slow_ns), 0);
	}
	s.end_ns = 2000000000ULL;
	pr.label = NULL;
	pr.series = &s;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
	*panel = strstr(b.s, "Mean completion latency") != NULL;
	*log_scale = strstr(b.s, "log scale") != NULL;
	ios_buf_free(&b);
	p.latency = false;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
	T_ASSERT(!strstr(b.s, "Mean completion latency"));
	ios_buf_free(&b);
	ios_series_free(&s);
	return T_PASS;
}

static int test_plot_latency(void)
{
	bool log_scale = true, panel = false;

	/* 0.1 ms against 5 ms: 50x, linear */
	T_ASSERT_EQ(plot_case(5000000, &log_scale, &panel), T_PASS);
	T_ASSERT(panel && !log_scale);
	/* 0.1 ms against 50 ms: 500x, log */
	T_ASSERT_EQ(plot_case(50000000, &log_scale, &panel), T_PASS);
	T_ASSERT(panel && log_scale);
	return T_PASS;
}

static int test_bad_args(void)
{
	static const char *const bad[][2] = {
		{ "--seeds 5-1", "runs backwards" }, { "--seeds 1-100", "more than 64 seeds" },
		{ "--seeds 1,x", "expected A-B" }, { "--seeds 2,2", "seed 2 is given twice" },
		{ "--from 10x", "expected a time" }, { "--from 0", "out of range" },
		{ "--seeds 1-2 --plot /tmp/x.svg", "--plot draws one run per column" },
	};
	char args[1024];

	T_ASSERT_EQ(setup(), T_PASS);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(bad); i++) {
		char *out;
		int st;

		snprintf(args, sizeof(args), "compare %s --schedulers cfq %s 2>&1", job, bad[i][0]);
		out = run_text(args, &st);
		T_ASSERT_MSG(out && st == 2 && strstr(out, bad[i][1]), "%s: exit %d: %s", bad[i][0],
			     st, out ? out : "");
		free(out);
	}
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_mean_p50, test_clone_names, test_seeds, test_from, test_halves,
			test_bad_args, test_plot_latency);

	if (job[0]) {
		unlink(job);
		unlink(ramp);
		unlink(early);
		rmdir(dir);
	}
	return ret;
}
