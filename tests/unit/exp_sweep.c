/*
 * Description: the sweep library (iosched/sweep.h): every bad grid of the
 * table is refused with its file, line and cause (an unknown axis, an empty
 * value list, an empty value, a value twice, a seed range backwards, a
 * scheduler, tunable, value or device compare would refuse, a setting both
 * in a column and an axis, a grid too large); a good grid expands into the
 * manifest its order promises and reads back; manifests and result files
 * that do not parse, or belong to another plan, are refused with their
 * line; the merge's median and range; the interval for the median against
 * hand-computed binomial coverages; the axes read back from the labels and
 * --at's errors; SHA-256 against FIPS 180-4's vectors.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "harness.h"
#include "iosched/compare.h"
#include "iosched/sweep.h"

#define T_ASSERT_STREQ(a, b) T_ASSERT_MSG(!strcmp((a), (b)), "'%s' != '%s'", (a), (b))

static const struct {
	const char *grid, *want;
} bad[] = {
	{ "job = a.fio\nschedulers = cfq\ncolour = red\n", "g:3: unknown axis 'colour' (known: job, " },
	{ "job = a.fio\nschedulers =  \n", "g:2: schedulers: empty value list" },
	{ "job =\nschedulers = cfq\n", "g:1: job: empty value list" },
	{ "job = a.fio\nschedulers = cfq,,deadline\n", "g:2: schedulers: an empty value in the list" },
	{ "job = a.fio\nschedulers = cfq, cfq\n", "g:2: schedulers: 'cfq' is listed twice" },
	{ "job = a.fio\nschedulers = cfq\nseeds = 3-1\n", "g:3: seeds: '3-1': a range A-B needs A <= B" },
	{ "job = a.fio\nschedulers = cfq\nseeds = x\n", "g:3: seeds: 'x': allowed N or A-B" },
	{ "job = a.fio\nschedulers = cfq\nseeds = 1-3, 2\n", "g:3: seeds: seed 2 is listed twice" },
	{ "job = a.fio\nschedulers = cfq\nseeds =\n", "g:3: seeds: empty value list" },
	{ "job = a.fio\nschedulers = cfq\nschedulers = noop\n", "g:3: schedulers: given twice (first at line 2)" },
	{ "job = a.fio\nschedulers = nosuch\n", "g:2: --schedulers: unknown scheduler 'nosuch'" },
	{ "job = a.fio\nschedulers = cfq:nosuch=1\n", "g:2: --schedulers cfq:nosuch=1: scheduler 'cfq' has no tunable 'nosuch'" },
	{ "job = a.fio\nschedulers = cfq\nset slice_idle = 0, -1\n", "g:3: --schedulers cfq:slice_idle=-1: scheduler 'cfq': slice_idle=-1: out of range" },
	{ "job = a.fio\nschedulers = cfq, deadline\nset slice_idle = 0\n", "g:3: --schedulers deadline:slice_idle=0: scheduler 'deadline' has no tunable 'slice_idle'" },
	{ "job = a.fio\nschedulers = cfq\nset nosuch =\n", "g:3: nosuch: empty value list" },
	{ "job = a.fio\nschedulers = cfq\nset slice_idle = 0\nset slice_idle = 8\n", "g:4: set slice_idle: given twice (first at line 3)" },
	{ "job = a.fio\nschedulers = cfq:slice_idle=0\nset slice_idle = 8\n", "g:3: set slice_idle: column 'cfq:slice_idle=0' (line 2) sets it too" },
	{ "job = a.fio\nschedulers = cfq\ndevices = nosuch-disk\n", "(device nosuch-disk)" },
	{ "job = a.fio\nschedulers = cfq\nset slice_idle = 0 1\n", "g:3: slice_idle: '0 1': a value may not hold blanks" },
	{ "job = a.fio\nschedulers = cfq\njust words\n", "g:3: expected KEY = VALUE" },
	{ "schedulers = cfq\n", "g: no 'job = FILE...' line" },
	{ "job = a.fio\n", "g: no 'schedulers = ...' line" },
	{ "job = a.fio\nschedulers = cfq\nseeds = 0-99999\nset queue.nr_requests = 4,8,16,32,64,128,256,512,1024,2048,4096\n",
	  "g: the grid is more than 1000000 tasks" },
	{ "job = a,b.fio\nschedulers = cfq\n", "g:1: job: a file name may not hold ','" },
	/* 100,000 seeds: the duplicate found by sorting, not a scan per seed (was minutes) */
	{ "job = a.fio\nschedulers = cfq\nseeds = 0-99998, 7\n", "g:3: seeds: seed 7 is listed twice" },
	{ "job = a.fio\nschedulers = cfq\nseeds = 0-99999, 100000\n", "g:3: seeds: more than 100000 seeds" },
	{ "job = a.fio\nschedulers = cfq, deadline, noop, cfq, noop\n", "g:2: schedulers: 'cfq' is listed twice" },
};

static int test_bad_grids(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ios_sweep_grid g;
		struct ios_err e = { 0 };
		int ret = ios_sweep_grid_parse("g", bad[i].grid, strlen(bad[i].grid), &g, &e);

		T_ASSERT_MSG(ret == -EINVAL, "grid %zu accepted (%d):\n%s", i, ret, bad[i].grid);
		T_ASSERT_MSG(strstr(e.msg, bad[i].want), "grid %zu: '%s' lacks '%s'", i, e.msg,
			     bad[i].want);
	}
	return T_PASS;
}

/* the largest seed list, in list order: parsed in well under a second, even under ASan */
static int test_many_seeds(void)
{
	static const char grid[] = "job = a.fio\nschedulers = cfq\nseeds = 5, 100-99998, 0-4\n";
	struct ios_sweep_grid g;
	struct ios_err e = { 0 };

	T_ASSERT_EQ(ios_sweep_grid_parse("g", grid, strlen(grid), &g, &e), 0);
	T_ASSERT_EQ(g.seed.n, 1 + 99899 + 5);
	T_ASSERT_EQ(g.nr_tasks, g.seed.n);
	T_ASSERT_STREQ(g.seed.vals[0], "5");
	T_ASSERT_STREQ(g.seed.vals[1], "100");
	T_ASSERT_STREQ(g.seed.vals[99899], "99998");
	T_ASSERT_STREQ(g.seed.vals[99900], "0");
	T_ASSERT_STREQ(g.seed.vals[99904], "4");
	ios_sweep_grid_free(&g);
	return T_PASS;
}

static const char good[] =
	"# comment\n"
	"job = a.fio   # trailing comment\n"
	"job = dir/b.fio c.fio\n"
	"schedulers = deadline, cfq:slice_idle=0\n"
	"set queue.nr_requests = 32, 64\n"
	"seeds = 7, 1-2\n";

/* the axes read back from @m's labels (the manifest of good[]), @b its text */
static int test_axes(const struct ios_sweep_manifest *m, const struct ios_buf *b)
{
	struct ios_sweep_axes a;
	struct ios_sweep_manifest m2;
	struct ios_err e = { 0 };
	size_t held[3] = { 0 }, idx[3] = { 1, 1, 1 };
	char *s, *lab;

	T_ASSERT_EQ(ios_sweep_axes_parse(m, &a, &e), 0);
	T_ASSERT_EQ(a.nr, 3);
	T_ASSERT_EQ(a.sched, 1);
	T_ASSERT_STREQ(a.names[0], "job");
	T_ASSERT_STREQ(a.names[2], "queue.nr_requests");
	T_ASSERT_STREQ(a.vals[0][1], "b.fio+c.fio");
	T_ASSERT_STREQ(a.vals[1][1], "cfq:slice_idle=0");
	T_ASSERT_STREQ(a.vals[2][0], "32");
	T_ASSERT_EQ(ios_sweep_axes_point(&a, idx), 7);
	idx[1] = 0;
	T_ASSERT_EQ(ios_sweep_axes_point(&a, idx), 5);
	T_ASSERT(ios_sweep_axes_plotted(&a, 0) && !ios_sweep_axes_plotted(&a, 1) &&
		 ios_sweep_axes_plotted(&a, 2));
	T_ASSERT_EQ(ios_sweep_axes_hold(&a, "queue.nr_requests=64", held, &e), 0);
	T_ASSERT_EQ(held[2], 1);
	T_ASSERT_EQ(ios_sweep_axes_hold(&a, "queue.nr_requests=16", held, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "'16' is not a value of axis queue.nr_requests (its values: "
			    "32, 64)"), "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sweep_axes_hold(&a, "slice_idle=0", held, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "no axis 'slice_idle' in the plan (its axes: job, "
			    "queue.nr_requests)"), "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sweep_axes_hold(&a, "scheduler=cfq", held, &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "the schedulers are the plot's lines"));
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sweep_axes_hold(&a, "job", held, &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "--at job: expected AXIS=VALUE"));
	T_ASSERT_EQ(held[2], 1);
	ios_sweep_axes_free(&a);
	/* a label edited out of the grid: refused, not drawn wrong */
	s = strdup(b->s);
	T_ASSERT(s);
	lab = strstr(s, "queue.nr_requests=64");
	T_ASSERT(lab);
	memcpy(lab + strlen("queue.nr_requests="), "99", 2);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sweep_manifest_parse("man", s, b->len, &m2, &e), 0);
	T_ASSERT_EQ(ios_sweep_axes_parse(&m2, &a, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "not a grid"), "%s", e.msg);
	ios_sweep_manifest_free(&m2);
	free(s);
	return T_PASS;
}

static int test_manifest(void)
{
	struct ios_sweep_grid g;
	struct ios_sweep_manifest m;
	struct ios_err e = { 0 };
	struct ios_buf b;
	const struct ios_sweep_task *t;
	const char *in[3] = { "inputs/A.fio", "inputs/B.fio", "inputs/C.fio" };

	T_ASSERT_EQ(ios_sweep_grid_parse("g", good, strlen(good), &g, &e), 0);
	T_ASSERT_EQ(g.nr_tasks, 2 * 2 * 2 * 3);
	T_ASSERT_EQ(g.seed.n, 3);
	T_ASSERT(!strcmp(g.seed.vals[0], "7") && !strcmp(g.seed.vals[2], "2"));
	g.jobs[0].inputs = calloc(1, sizeof(char *));
	g.jobs[1].inputs = calloc(2, sizeof(char *));
	T_ASSERT(g.jobs[0].inputs && g.jobs[1].inputs);
	g.jobs[0].inputs[0] = strdup(in[0]);
	g.jobs[1].inputs[0] = strdup(in[1]);
	g.jobs[1].inputs[1] = strdup(in[2]);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_sweep_manifest_write(&g, "0000000000000000000000000000000000000000000000000000000000000000", &b), 0);
	T_ASSERT_EQ(ios_sweep_manifest_parse("man", b.s, b.len, &m, &e), 0);
	T_ASSERT_EQ(m.nr_tasks, 24);
	T_ASSERT_EQ(m.nr_points, 8);
	/* job-major, then scheduler, then the set axis, seed innermost */
	t = &m.tasks[23];
	T_ASSERT_EQ(t->point, 7);
	T_ASSERT_STREQ(t->seed, "2");
	T_ASSERT_STREQ(t->label, "job=b.fio+c.fio scheduler=cfq:slice_idle=0 queue.nr_requests=64");
	T_ASSERT_EQ(t->argc, 13);
	T_ASSERT_STREQ(t->argv[1], "inputs/B.fio");
	T_ASSERT_STREQ(t->argv[2], "inputs/C.fio");
	T_ASSERT_STREQ(t->argv[4], "cfq");
	T_ASSERT_STREQ(t->argv[6], "queue.nr_requests=64");
	T_ASSERT_STREQ(t->argv[8], "slice_idle=0");
	T_ASSERT_STREQ(t->argv[10], "2");
	T_ASSERT_STREQ(m.tasks[3].label, "job=a.fio scheduler=deadline queue.nr_requests=64");
	T_ASSERT_STREQ(m.tasks[3].seed, "7");
	{
		char sha[IOS_SHA256_HEX];

		ios_sha256_buf(b.s, b.len, sha);
		T_ASSERT_STREQ(m.sha, sha);
	}
	{
		size_t k;

		T_ASSERT_EQ(ios_sweep_task_number(&m, "23", "--task", &k, &e), 0);
		T_ASSERT_EQ(k, 23);
		T_ASSERT_EQ(ios_sweep_task_number(&m, "24", "--task", &k, &e), -ERANGE);
		T_ASSERT(strstr(e.msg, "--task=24: out of range: the plan has 24 tasks, allowed 0..23"));
		ios_err_clear(&e);
		T_ASSERT_EQ(ios_sweep_task_number(&m, "1x", "--task", &k, &e), -EINVAL);
	}
	/* a manifest cut or edited is refused with its line */
	{
		struct ios_sweep_manifest m2;
		char *cut = strdup(b.s);
		char *tab;
		size_t k1;

		T_ASSERT(cut);
		ios_err_clear(&e);
		T_ASSERT_EQ(ios_sweep_manifest_parse("man", cut, b.len - 5, &m2, &e), -EINVAL);
		T_ASSERT_MSG(strstr(e.msg, "man:29: expected task 23 of 24"), "%s", e.msg);
		tab = strstr(cut, "task 4\t");
		T_ASSERT(tab);
		tab[5] = '9';
		ios_err_clear(&e);
		T_ASSERT_EQ(ios_sweep_manifest_parse("man", cut, b.len, &m2, &e), -EINVAL);
		T_ASSERT_MSG(strstr(e.msg, "man:10: expected task 4 of 24"), "%s", e.msg);
		/* one task's parse: that line alone is read (task 3 parses, 4 does not) */
		ios_err_clear(&e);
		T_ASSERT_EQ(ios_sweep_manifest_parse_task("man", cut, b.len, "4", "--task", &k1,
							  &m2, &e), -EINVAL);
		T_ASSERT_MSG(strstr(e.msg, "man:10: expected task 4 of 24"), "%s", e.msg);
		T_ASSERT_EQ(ios_sweep_manifest_parse_task("man", cut, b.len, "3", "--task", &k1,
							  &m2, &e), 0);
		T_ASSERT_EQ(k1, 3);
		T_ASSERT_STREQ(m2.tasks[3].label, m.tasks[3].label);
		T_ASSERT_EQ(m2.tasks[3].argc, m.tasks[3].argc);
		T_ASSERT(!m2.tasks[2].label && m2.nr_tasks == 24 && m2.nr_points == 8);
		ios_sweep_manifest_free(&m2);
		T_ASSERT_EQ(ios_sweep_manifest_parse_task("man", b.s, b.len, "23", "--task", &k1,
							  &m2, &e), 0);
		T_ASSERT(!m2.sha[0]);	/* not hashed: the caller's */
		T_ASSERT_STREQ(m2.tasks[23].seed, "2");
		ios_sweep_manifest_free(&m2);
		ios_err_clear(&e);
		T_ASSERT_EQ(ios_sweep_manifest_parse_task("man", b.s, b.len, "24", "--task", &k1,
							  &m2, &e), -ERANGE);
		T_ASSERT(strstr(e.msg, "allowed 0..23"));
		ios_err_clear(&e);
		T_ASSERT_EQ(ios_sweep_manifest_parse("man", "hello\n", 6, &m2, &e), -EINVAL);
		T_ASSERT(strstr(e.msg, "man:1: not a sweep manifest"));
		free(cut);
	}
	T_ASSERT_EQ(test_axes(&m, &b), T_PASS);
	ios_buf_free(&b);
	ios_sweep_manifest_free(&m);
	ios_sweep_grid_free(&g);
	return T_PASS;
}

/* a two-point, three-seed manifest made by hand */
static const char man2[] =
	IOS_SWEEP_MANIFEST_MAGIC "\n"
	"grid 0000000000000000000000000000000000000000000000000000000000000000\n"
	"tasks 6\npoints 2\nseeds 3\n"
	"task 0\t0\t1\tjob=a.fio scheduler=noop\trun inputs/x.fio --scheduler noop --seed 1\n"
	"task 1\t0\t2\tjob=a.fio scheduler=noop\trun inputs/x.fio --scheduler noop --seed 2\n"
	"task 2\t0\t3\tjob=a.fio scheduler=noop\trun inputs/x.fio --scheduler noop --seed 3\n"
	"task 3\t1\t1\tjob=a.fio scheduler=cfq\trun inputs/x.fio --scheduler cfq --seed 1\n"
	"task 4\t1\t2\tjob=a.fio scheduler=cfq\trun inputs/x.fio --scheduler cfq --seed 2\n"
	"task 5\t1\t3\tjob=a.fio scheduler=cfq\trun inputs/x.fio --scheduler cfq --seed 3\n";

static int test_results_and_merge(void)
{
	struct ios_sweep_manifest m;
	struct ios_err e = { 0 };
	struct ios_cmp_run cr = { 0 };
	struct ios_buf b, txt;
	double v[IOS_SWEEP_NR_METRICS], metrics[6 * IOS_SWEEP_NR_METRICS];
	unsigned char state[6] = { IOS_SWEEP_DONE, IOS_SWEEP_DONE, IOS_SWEEP_DONE,
				   IOS_SWEEP_DONE, IOS_SWEEP_FAILED, IOS_SWEEP_MISSING };
	size_t k;
	char *s;

	T_ASSERT_EQ(ios_sweep_manifest_parse("man", man2, strlen(man2), &m, &e), 0);
	cr.agg_kib = 1234.5;
	cr.jain_bw = 0.75;
	cr.last_finish_ns = 2500000000ull;
	cr.has_lat = true;
	cr.clat_max_ns = 1500000;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_sweep_result_write(&m, 4, &cr, "{\n  \"x\" : 1\n}\n", &b), 0);
	T_ASSERT_EQ(ios_sweep_result_parse(&m, "r", b.s, b.len, &k, v, &e), 0);
	T_ASSERT_EQ(k, 4);
	T_ASSERT(v[IOS_SWEEP_M_AGG_KIB] == 1234.5 && v[IOS_SWEEP_M_FINISH_S] == 2.5);
	T_ASSERT(v[IOS_SWEEP_M_CLAT_MAX_MS] == 1.5 && isnan(v[IOS_SWEEP_M_CLAT_P99_MS]));
	/* cut short: no closing brace */
	T_ASSERT_EQ(ios_sweep_result_parse(&m, "r", b.s, b.len - 2, &k, v, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "r:3: expected \"report\""), "%s", e.msg);
	/* another plan's: refused before the task or metrics are read */
	s = strdup(b.s);
	T_ASSERT(s);
	s[strlen("{\"sweep\": {\"manifest\": \"")] ^= 1;
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sweep_result_parse(&m, "r", s, b.len, &k, v, &e), -ESTALE);
	T_ASSERT(strstr(e.msg, "r:1: made for another plan"));
	/* a metric that is not a number */
	strcpy(s, b.s);
	memcpy(strstr(s, "1234.5"), "12x4.5", 6);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sweep_result_parse(&m, "r", s, b.len, &k, v, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "r:2: metric \"aggregate_kib_s\": not a number"), "%s", e.msg);
	/* a task number out of the plan */
	strcpy(s, b.s);
	memcpy(strstr(s, "\"task\": 4"), "\"task\": 9", 9);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sweep_result_parse(&m, "r", s, b.len, &k, v, &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "r:1: \"task\": not a task number of the plan (0..5)"));
	free(s);

	/* merge: point 0 has seeds 10, 30, 20: median 20 [10, 30]; point 1 one seed */
	for (size_t i = 0; i < 6 * IOS_SWEEP_NR_METRICS; i++)
		metrics[i] = NAN;
	metrics[0 * IOS_SWEEP_NR_METRICS] = 10;
	metrics[1 * IOS_SWEEP_NR_METRICS] = 30;
	metrics[2 * IOS_SWEEP_NR_METRICS] = 20;
	metrics[3 * IOS_SWEEP_NR_METRICS] = 5;
	metrics[4 * IOS_SWEEP_NR_METRICS] = 999;	/* failed: never read */
	ios_buf_init(&txt);
	T_ASSERT_EQ(ios_sweep_merge(&m, metrics, state, false, &txt), 0);
	T_ASSERT_MSG(strstr(txt.s, "done 4, failed 4, missing 5\n"), "%s", txt.s);
	T_ASSERT_MSG(strstr(txt.s, "  job=a.fio scheduler=noop          20.0  [10.0..30.0]  (3/3)\n"),
		     "%s", txt.s);
	T_ASSERT_MSG(strstr(txt.s, "  job=a.fio scheduler=cfq            5.0  [5.0..5.0]  (1/3)\n"),
		     "%s", txt.s);
	T_ASSERT(!strstr(txt.s, "999"));
	ios_buf_free(&txt);
	ios_buf_init(&txt);
	T_ASSERT_EQ(ios_sweep_merge(&m, metrics, state, true, &txt), 0);
	T_ASSERT(strstr(txt.s, "\"failed\": [4],\n  \"missing\": [5],"));
	T_ASSERT_MSG(strstr(txt.s, "\"aggregate_kib_s\": {\"n\": 3, \"median\": 20, \"min\": 10, \"max\": 30, \"median_ci\": null}"),
		     "%s", txt.s);
	ios_buf_free(&txt);
	ios_buf_free(&b);
	ios_sweep_manifest_free(&m);
	return T_PASS;
}

/*
 * The interval for the median against hand-computed binomial sums
 * (P(B <= j) for B ~ Binomial(n, 1/2), coverage 1 - 2 P(B <= k-1)):
 * n = 5: k = 1, 1 - 2/32 = 0.9375 (below 95 %: the range, said);
 * n = 6: k = 1, 1 - 2/64; n = 8: k = 2 would be 1 - 18/256 = 0.9297, so
 * k = 1, 1 - 2/256; n = 9: k = 2, 1 - 2 (1 + 9)/512 = 0.9609375;
 * n = 17: k = 5, 1 - 2 (1 + 17 + 136 + 680 + 2380)/131072.
 */
static const char man9[] =
	IOS_SWEEP_MANIFEST_MAGIC "\n"
	"grid 0000000000000000000000000000000000000000000000000000000000000000\n"
	"tasks 9\npoints 1\nseeds 9\n"
	"task 0\t0\t1\tjob=a.fio scheduler=noop\trun x --seed 1\n"
	"task 1\t0\t2\tjob=a.fio scheduler=noop\trun x --seed 2\n"
	"task 2\t0\t3\tjob=a.fio scheduler=noop\trun x --seed 3\n"
	"task 3\t0\t4\tjob=a.fio scheduler=noop\trun x --seed 4\n"
	"task 4\t0\t5\tjob=a.fio scheduler=noop\trun x --seed 5\n"
	"task 5\t0\t6\tjob=a.fio scheduler=noop\trun x --seed 6\n"
	"task 6\t0\t7\tjob=a.fio scheduler=noop\trun x --seed 7\n"
	"task 7\t0\t8\tjob=a.fio scheduler=noop\trun x --seed 8\n"
	"task 8\t0\t9\tjob=a.fio scheduler=noop\trun x --seed 9\n";

static int test_median_ci(void)
{
	static const struct { size_t n, k; double cov; } want[] = {
		{ 5, 1, 1 - 2 / 32.0 }, { 6, 1, 1 - 2 / 64.0 }, { 7, 1, 1 - 2 / 128.0 },
		{ 8, 1, 1 - 2 / 256.0 }, { 9, 2, 1 - 20 / 512.0 }, { 10, 2, 1 - 22 / 1024.0 },
		{ 17, 5, 1 - 2 * 3214 / 131072.0 },
	};
	double metrics[9 * IOS_SWEEP_NR_METRICS], vals[9] = { 7, 3, 9, 1, 5, 8, 2, 6, 4 };
	unsigned char state[9];
	struct ios_sweep_manifest m;
	struct ios_err e = { 0 };
	struct ios_buf b;
	size_t k;
	double cov;

	T_ASSERT_EQ(ios_sweep_median_ci(4, &k, &cov), -EDOM);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		T_ASSERT_EQ(ios_sweep_median_ci(want[i].n, &k, &cov), 0);
		T_ASSERT_MSG(k == want[i].k && fabs(cov - want[i].cov) < 1e-12,
			     "n %zu: k %zu coverage %.15f, want %zu %.15f", want[i].n, k, cov,
			     want[i].k, want[i].cov);
	}
	/* nine seeds 1..9: median 5, x(2)..x(8) = [2..8] at 96.1 %; four done: none */
	T_ASSERT_EQ(ios_sweep_manifest_parse("man9", man9, strlen(man9), &m, &e), 0);
	for (size_t i = 0; i < 9 * IOS_SWEEP_NR_METRICS; i++)
		metrics[i] = NAN;
	for (size_t i = 0; i < 9; i++) {
		metrics[i * IOS_SWEEP_NR_METRICS] = vals[i];
		state[i] = IOS_SWEEP_DONE;
	}
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_sweep_merge(&m, metrics, state, false, &b), 0);
	T_ASSERT_MSG(strstr(b.s, "  job=a.fio scheduler=noop           5.0  [1.0..9.0]  (9/9)  "
			    "median CI [2.0..8.0] 96.1 %\n"), "%s", b.s);
	ios_buf_free(&b);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_sweep_merge(&m, metrics, state, true, &b), 0);
	T_ASSERT_MSG(strstr(b.s, "\"median\": 5, \"min\": 1, \"max\": 9, \"median_ci\": {\"k\": 2, "
			    "\"coverage\": 0.9609375, \"lo\": 2, \"hi\": 8}}"), "%s", b.s);
	ios_buf_free(&b);
	memset(state + 4, IOS_SWEEP_MISSING, 5);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_sweep_merge(&m, metrics, state, false, &b), 0);
	T_ASSERT_MSG(strstr(b.s, "  job=a.fio scheduler=noop           5.0  [1.0..9.0]  (4/9)\n"),
		     "%s", b.s);
	ios_buf_free(&b);
	ios_sweep_manifest_free(&m);
	return T_PASS;
}

static int test_median_sha(void)
{
	double v[] = { 4, NAN, 1, 3, 2 };
	char hex[IOS_SHA256_HEX];
	/* FIPS 180-4 examples (NIST's SHA256.pdf): one block, two blocks */
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	T_ASSERT(ios_metric_median(v, 5) == 2.5);
	T_ASSERT(isnan(ios_metric_median(v, 0)));
	ios_sha256_buf("abc", 3, hex);
	T_ASSERT_STREQ(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	ios_sha256_buf(two, strlen(two), hex);
	T_ASSERT_STREQ(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_bad_grids, test_many_seeds, test_manifest, test_results_and_merge, test_median_ci,
		     test_median_sha);
}
