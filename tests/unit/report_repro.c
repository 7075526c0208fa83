/*
 * Description: the seed reproduction report's table and logic (repro.h),
 * without running the experiments. The table: names unique and found in
 * any case, job files present, every column valid for `iosched compare`,
 * every check, reference, thread run, alone column and sharer naming
 * something that exists, seeds within bounds. The thread's typed numbers:
 * Jeff Moyer's xferred columns give back, through our share code, the
 * ideal and %diff he printed (a check on the transcription), and Vivek's
 * finish times the 44 % and 5.7 % spreads seed-scenarios.md quotes. The logic on
 * hand-made results: medians over seeds (odd and even counts), relative
 * measures against a reference column and the first job alone, bounds
 * (inclusive, strict, open), NaN where a measure lacks data; the criterion
 * in words; a value that would print as the bound gets more decimals.
 * One real run: ios_repro_run's device time per direction adds up to no
 * more than the run's length and the first job alone is one job.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/repro.h"
#include "exp/repro_int.h"

#define T_ASSERT_STR(got, want) T_ASSERT_MSG(!strcmp(got, want), "'%s', wanted '%s'", got, want)

static const char *join_columns(const struct ios_repro_exp *x, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t c = 0; x->columns[c] && n < len; c++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", c ? "," : "", x->columns[c]);
	return buf;
}

static bool has_column(const struct ios_repro_exp *x, const char *label)
{
	for (size_t c = 0; label && x->columns[c]; c++)
		if (!strcmp(x->columns[c], label))
			return true;
	return false;
}

/* a blk-mq scenario's checks may name its base experiment's columns too */
static bool has_column_or_base(const struct ios_repro_exp *x, const char *label)
{
	const struct ios_repro_exp *b = ios_repro_base_of(x);

	return has_column(x, label) || (b && has_column(b, label));
}

static int test_table(void)
{
	T_ASSERT(ios_repro_nr_experiments >= 5);
	for (size_t i = 0; i < ios_repro_nr_experiments; i++) {
		const struct ios_repro_exp *x = &ios_repro_experiments[i];
		struct ios_cmp_column *cols = NULL;
		struct ios_err e = { 0 };
		char list[2048], upper[16];
		size_t nr = 0;

		T_ASSERT(x->name && x->title && x->jobfile && x->thread && x->argued && x->setup &&
			 x->learned);
		T_ASSERT_MSG(access(x->jobfile, R_OK) == 0, "%s: %s missing", x->name, x->jobfile);
		T_ASSERT(ios_repro_find(x->name) == x);
		snprintf(upper, sizeof(upper), "%s", x->name);
		for (char *p = upper; *p; p++)
			*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
		T_ASSERT(ios_repro_find(upper) == x);
		for (size_t k = 0; k < i; k++)
			T_ASSERT(strcmp(ios_repro_experiments[k].name, x->name));
		T_ASSERT(x->nr_seeds >= 1 && x->nr_seeds <= IOS_REPRO_MAX_SEEDS);
		T_ASSERT_MSG(ios_cmp_columns_parse(join_columns(x, list, sizeof(list)), NULL, NULL,
						   &cols, &nr, &e) == 0, "%s: %s", x->name, e.msg);
		ios_cmp_columns_free(cols, nr);
		T_ASSERT(!x->alone || has_column(x, x->alone_column));
		if (x->base) {
			const struct ios_repro_exp *b = ios_repro_base_of(x);

			/* the base is run and reported first, with as many seeds */
			T_ASSERT_MSG(b && b < x && !b->base, "%s: base '%s'", x->name, x->base);
			T_ASSERT(b->nr_seeds == x->nr_seeds);
		}
		T_ASSERT(x->kind != IOS_REPRO_SHARERS || (x->sharers && x->sharers[0] && x->sharers[1]));
		T_ASSERT(x->kind != IOS_REPRO_CAT || x->timed_job);
		for (size_t k = 0; k < x->nr_checks; k++) {
			const struct ios_repro_check *c = &x->checks[k];

			T_ASSERT_MSG(has_column(x, c->column), "%s: check on '%s'", x->name, c->column);
			T_ASSERT_MSG(!c->ref || has_column_or_base(x, c->ref), "%s: reference '%s'",
				     x->name, c->ref);
			T_ASSERT_MSG(!c->when_column || has_column_or_base(x, c->when_column),
				     "%s: condition on '%s'", x->name, c->when_column);
			T_ASSERT(c->m != IOS_RM_VERDICTS_DIFFER ||
				 (c->like && has_column_or_base(x, c->like)));
			T_ASSERT(!x->criteria_doc || c->id);
			T_ASSERT(c->m < IOS_RM_COUNT && c->row);
			T_ASSERT(isfinite(c->lo) || isfinite(c->hi));
		}
		for (size_t k = 0; k < x->nr_thread_runs; k++)
			T_ASSERT_MSG(has_column(x, x->thread_runs[k].column), "%s: thread run beside "
				     "'%s'", x->name, x->thread_runs[k].column);
	}
	T_ASSERT(ios_repro_find("zz") == NULL);
	T_ASSERT(ios_repro_find(NULL) == NULL);
	return T_PASS;
}

/* a run of @n jobs at BE 4 with the share model of @sched */
static int fake_run(struct ios_repro_result *r, const char *sched, size_t n)
{
	struct ios_cmp_run *cr = &r->run;

	memset(r, 0, sizeof(*r));
	cr->jobs = calloc(n, sizeof(*cr->jobs));
	cr->label = strdup(sched);
	if (!cr->jobs || !cr->label)
		return -1;
	cr->nr_jobs = n;
	ios_share_params_of(ios_sched_find(sched), NULL, &cr->share);
	for (size_t i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "j%zu", i + 1);
		cr->jobs[i].name = strdup(name);
		cr->jobs[i].ioprio_class = IOS_IOPRIO_CLASS_BE;
		cr->jobs[i].ioprio_level = 4;
	}
	return 0;
}

static int test_thread_numbers(void)
{
	static const long long jeff_diff[2][8] = {
		{ 12, 11, 6, 2, -4, -12, -14, -5 },
		{ 6, 7, 1, 6, 0, -3, -14, -8 },
	};
	static const uint64_t jeff_ideal[2] = { 110908, 119164 };
	const struct ios_repro_exp *a1 = ios_repro_find("a1"), *a2 = ios_repro_find("a2");
	struct ios_repro_result like, tr;
	struct ios_share_row rows[8];
	uint64_t total;
	double prio;
	unsigned has;

	T_ASSERT(a1 && a2 && a2->nr_thread_runs == 2);
	T_ASSERT_EQ(fake_run(&like, "cfq", 8), 0);
	T_ASSERT_EQ(ios_cmp_run_summarise(&like.run), 0);
	for (int k = 0; k < 2; k++) {
		T_ASSERT_EQ(ios_repro_thread_result(&a2->thread_runs[k], &like.run, NULL, &tr, &has), 0);
		ios_cmp_share_rows(&tr.run, rows, &total, &prio);
		/* "total priority: 800" */
		T_ASSERT_NEAR(prio, 800, 1e-9);
		for (int i = 0; i < 8; i++) {
			T_ASSERT_U64_EQ(rows[i].ideal_kib, jeff_ideal[k]);
			T_ASSERT_MSG(rows[i].diff_pct == jeff_diff[k][i], "row %d: %lld, Jeff %lld", i,
				     rows[i].diff_pct, jeff_diff[k][i]);
		}
		ios_repro_result_free(&tr);
	}
	ios_repro_result_free(&like);
	/* Vivek's first runs: 44.4 % and 5.7 % */
	T_ASSERT_EQ(fake_run(&like, "cfq", 4), 0);
	T_ASSERT_EQ(ios_repro_thread_result(&a1->thread_runs[0], &like.run, NULL, &tr, &has), 0);
	T_ASSERT_NEAR(tr.run.finish_spread, (10.8469 - 6.0338) / 10.8469, 1e-9);
	ios_repro_result_free(&tr);
	ios_repro_result_free(&like);
	return T_PASS;
}

/* ---- evaluation on hand-made results ---- */

static const char *const ev_columns[] = { "noop", "cfq", "cfq:fairness=1", NULL };
static const double ev_thread_fin[] = { 1.0, 2.0 };
static const double ev_thread_bw[] = { 100.0, 50.0 };
static const struct ios_repro_thread_run ev_thread[] = {
	{ .label = "thread: a", .column = "cfq", .source = "test", .nr_jobs = 2,
	  .finish_s = ev_thread_fin },
	{ .label = "thread: b", .column = "cfq", .source = "test", .nr_jobs = 2,
	  .finish_s = ev_thread_fin, .bw_kib = ev_thread_bw },
};
static const struct ios_repro_check ev_checks[] = {
	{ .column = "cfq", .m = IOS_RM_SPREAD, .lo = 0.25, .hi = NAN, .row = "r" },
	{ .column = "cfq:fairness=1", .m = IOS_RM_MAKESPAN_REL, .ref = "cfq", .lo = NAN,
	  .hi = 1.10, .row = "r" },
	{ .column = "cfq", .m = IOS_RM_AGG_ALONE, .lo = 0.70, .hi = NAN, .row = "r" },
	{ .column = "cfq", .m = IOS_RM_WR_REL, .lo = NAN, .hi = 0.5, .hi_strict = true, .row = "r" },
	{ .column = "noop", .m = IOS_RM_READ_TIME, .lo = 0.5, .hi = NAN, .row = "r" },
};
static const struct ios_repro_exp ev_exp = {
	.name = "ev", .title = "ev", .jobfile = "x", .kind = IOS_REPRO_FINISH,
	.columns = ev_columns, .nr_seeds = 4, .alone = true, .alone_column = "noop",
	.thread_runs = ev_thread, .nr_thread_runs = 2, .checks = ev_checks, .nr_checks = 5,
};

static void set_job(struct ios_repro_result *r, size_t i, double fin_s, uint64_t bytes,
		    double bw)
{
	r->run.jobs[i].finish_ns = (uint64_t)(fin_s * 1e9);
	r->run.jobs[i].bytes = bytes;
	r->run.jobs[i].bw_kib = bw;
}

static int test_evaluate(void)
{
	struct ios_repro_result res[3 * 4], alone[4];
	struct ios_cmp_column cols[3];
	struct ios_repro_data d = {
		.exp = &ev_exp, .args = "", .device = "hdd-2009", .cols = cols, .nr_cols = 3,
		.nr_seeds = 4, .res = res, .alone = alone,
	};
	struct ios_repro_verdict v[5];
	/* cfq's spreads per seed: 0.1, 0.3, 0.5, 0.2 -> median (0.2 + 0.3) / 2 */
	static const double cfq_fin[4][2] = { { 9, 10 }, { 7, 10 }, { 5, 10 }, { 8, 10 } };
	char buf[128];

	memset(cols, 0, sizeof(cols));
	for (size_t c = 0; c < 3; c++) {
		cols[c].label = (char *)ev_columns[c];
		for (unsigned s = 0; s < 4; s++) {
			struct ios_repro_result *r = &res[c * 4 + s];

			T_ASSERT_EQ(fake_run(r, c ? "cfq" : "noop", 2), 0);
			set_job(r, 0, c == 1 ? cfq_fin[s][0] : 10, 1 << 20, 100);
			set_job(r, 1, c == 1 ? cfq_fin[s][1] : c == 2 ? 10.5 + s : 10, 1 << 20,
				c == 1 ? 40 + 10 * s : 100);
			T_ASSERT_EQ(ios_cmp_run_summarise(&r->run), 0);
			r->busy_ns[IOS_READ] = 3;
			r->busy_ns[IOS_WRITE] = 1;
		}
	}
	for (unsigned s = 0; s < 4; s++) {
		T_ASSERT_EQ(fake_run(&alone[s], "noop", 1), 0);
		/* one job alone: 1 MiB in 1 s, the aggregate of cfq is 2 MiB over 10 s */
		set_job(&alone[s], 0, 1.0, 1 << 20, 1024);
		T_ASSERT_EQ(ios_cmp_run_summarise(&alone[s].run), 0);
	}
	T_ASSERT_EQ(ios_repro_evaluate(&d, v), 0);
	T_ASSERT_NEAR(v[0].per_seed[2], 0.5, 1e-12);
	T_ASSERT_NEAR(v[0].value, 0.25, 1e-12);		/* an even count: the middle two */
	T_ASSERT(v[0].pass);				/* inclusive */
	T_ASSERT(isnan(v[0].per_seed[4]));
	/* the thread's two runs: 50 % each */
	T_ASSERT_NEAR(v[0].thread, 0.5, 1e-12);
	T_ASSERT(v[0].thread_pass);
	/* makespans 10.5..13.5 over 10: median 1.2, a miss */
	T_ASSERT_NEAR(v[1].value, 1.2, 1e-9);
	T_ASSERT(!v[1].pass);
	T_ASSERT(isnan(v[1].thread));			/* no thread run of cfq:fairness=1 */
	/* 2 MiB in 10 s against 1 MiB/s alone */
	T_ASSERT_NEAR(v[2].value, 0.2, 1e-9);
	T_ASSERT(!v[2].pass && isnan(v[2].thread));	/* the thread has no run alone */
	/* writer/reader 0.4, 0.5, 0.6, 0.7: median 0.55, strict bound 0.5 */
	T_ASSERT_NEAR(v[3].value, 0.55, 1e-12);
	T_ASSERT(!v[3].pass);
	/* the thread: run a has no bandwidths, run b 50 / 100 = 0.5, not < 0.5 */
	T_ASSERT_NEAR(v[3].thread, 0.5, 1e-12);
	T_ASSERT(!v[3].thread_pass);
	T_ASSERT_NEAR(v[4].value, 0.75, 1e-12);
	T_ASSERT(v[4].pass);

	ios_repro_criterion(&ev_checks[0], false, buf, sizeof(buf));
	T_ASSERT_STR(buf, "finish spread >= 25.0 %");
	ios_repro_criterion(&ev_checks[1], true, buf, sizeof(buf));
	T_ASSERT_STR(buf, "makespan / cfq's ≤ 1.10");
	ios_repro_criterion(&ev_checks[3], false, buf, sizeof(buf));
	T_ASSERT_STR(buf, "writer / reader < 50.0 %");
	ios_repro_format_vs(&ev_checks[0], 0.24996, buf, sizeof(buf));
	T_ASSERT_STR(buf, "24.996 %");
	ios_repro_format_vs(&ev_checks[0], 0.25, buf, sizeof(buf));
	T_ASSERT_STR(buf, "25.0 %");
	ios_repro_format(IOS_RM_SHARER_MIN, 0.0041, buf, sizeof(buf));
	T_ASSERT_STR(buf, "0.0041");
	ios_repro_format(IOS_RM_MAX_LAT, NAN, buf, sizeof(buf));
	T_ASSERT_STR(buf, "-");

	/* a check on a column the experiment does not have */
	d.nr_cols = 1;
	T_ASSERT_EQ(ios_repro_evaluate(&d, v), -EINVAL);
	for (size_t i = 0; i < 12; i++)
		ios_repro_result_free(&res[i]);
	for (size_t i = 0; i < 4; i++)
		ios_repro_result_free(&alone[i]);
	return T_PASS;
}

static int test_one_run(void)
{
	static const char job[] =
		"[global]\nrw=read\nbs=64k\ndirect=1\nsize=16m\n[a]\n[b]\nrw=write\n";
	char path[] = "/tmp/iosched-repro-XXXXXX";
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_run_config cfg = { .seed = 1, .device = "hdd-2004" };
	struct ios_repro_result r, one;
	struct ios_err e = { 0 };
	size_t nr = 0;
	int fd = mkstemp(path);

	T_ASSERT(fd >= 0);
	T_ASSERT(write(fd, job, sizeof(job) - 1) == (ssize_t)(sizeof(job) - 1));
	close(fd);
	ios_job_parse_opts_init(&po);
	T_ASSERT_EQ(ios_job_parse_file(path, &po, &jf, &e), 0);
	unlink(path);
	T_ASSERT_EQ(ios_cmp_columns_parse("deadline", NULL, "hdd-2004", &cols, &nr, &e), 0);
	T_ASSERT_EQ(ios_repro_run(&jf, &cfg, &cols[0], false, NULL, NULL, &r, &e), 0);
	T_ASSERT_EQ(r.run.nr_jobs, 2);
	T_ASSERT(r.busy_ns[IOS_READ] > 0 && r.busy_ns[IOS_WRITE] > 0);
	T_ASSERT(r.busy_ns[IOS_READ] + r.busy_ns[IOS_WRITE] <= r.run.sim_end_ns);
	/* the data and ext3's directory and inode blocks */
	T_ASSERT(r.disk_bytes[IOS_READ] >= 16u << 20);
	T_ASSERT_U64_EQ(r.job_ios[0], 256);
	T_ASSERT(r.series == NULL);
	/* the first job's clat percentiles and its requests' device latency */
	T_ASSERT(r.has_first_pct && r.has_first_dev);
	T_ASSERT(r.first_clat_pct[0] <= r.first_clat_pct[1] &&
		 r.first_clat_pct[1] <= r.first_clat_pct[2]);
	T_ASSERT(r.first_dev_p90_ns > 0 && r.first_dev_p90_ns <= r.run.jobs[0].clat_max_ns);
	T_ASSERT_EQ(ios_repro_run(&jf, &cfg, &cols[0], true, NULL, NULL, &one, &e), 0);
	T_ASSERT_EQ(one.run.nr_jobs, 1);
	T_ASSERT_U64_EQ(one.disk_bytes[IOS_WRITE], 0);
	ios_repro_result_free(&r);
	ios_repro_result_free(&one);
	ios_cmp_columns_free(cols, nr);
	ios_jobfile_free(&jf);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_table, test_thread_numbers, test_evaluate, test_one_run);
}
