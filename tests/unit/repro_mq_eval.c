/*
 * Description: the blk-mq scenarios' evaluation in the reproduction report
 * (repro.h, issue 29 item 5), on hand-made results, without running.
 *  - Verdict comparison (IOS_RM_VERDICTS_DIFFER, M2.4/M3/M4): every
 *    distinct criterion of the base experiment is put on the check's column
 *    and on its like; the count is of differing VERDICTS (values may differ
 *    and still agree), a criterion written twice for two columns counts
 *    once, like_of keeps only one column's criteria, and the criteria read
 *    the base's runs (references, the first job alone).
 *  - Conditions (when_column, M1.3): the branch whose condition holds on
 *    the median gets a verdict, the other is n/a and neither PASS nor MISS.
 *  - The new measures: p99 against the reference and alone, I/Os per
 *    second, the other jobs' share, fewest I/Os, worst clat, the largest
 *    distance from an equal share.
 *  - ios_repro_link_bases: the base found in the set, refused when it did
 *    not run or ran another number of seeds; evaluate refuses an unlinked
 *    scenario.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "iosched/repro.h"
#include "exp/repro_int.h"

#define SEEDS 3

/* a run of @n jobs: finishes at @fin[i] s, @ios[i] I/Os, first job's p99 @p99 ns */
static int mk_run(struct ios_repro_result *r, size_t n, const double *fin, const uint64_t *ios,
		  uint64_t p99)
{
	struct ios_cmp_run *cr = &r->run;

	memset(r, 0, sizeof(*r));
	cr->jobs = calloc(n, sizeof(*cr->jobs));
	cr->label = strdup("x");
	r->job_ios = calloc(n, sizeof(*r->job_ios));
	if (!cr->jobs || !cr->label || !r->job_ios)
		return -1;
	cr->nr_jobs = n;
	for (size_t i = 0; i < n; i++) {
		char name[24];	/* "j" and any size_t: no truncation warning under -O0 -Werror */

		snprintf(name, sizeof(name), "j%zu", i);
		cr->jobs[i].name = strdup(name);
		cr->jobs[i].ioprio_class = IOS_IOPRIO_CLASS_BE;
		cr->jobs[i].ioprio_level = 4;
		cr->jobs[i].finish_ns = (uint64_t)(fin[i] * 1e9);
		cr->jobs[i].bytes = 1 << 20;
		cr->jobs[i].bw_kib = 1024.0 / fin[i];
		cr->jobs[i].has_lat = true;
		cr->jobs[i].clat_max_ns = 1000000 * (i + 1);
		r->job_ios[i] = ios[i];
	}
	cr->jobs[0].has_p99 = true;
	cr->jobs[0].clat_p99_ns = p99;
	return ios_cmp_run_summarise(cr);
}

static void free_runs(struct ios_repro_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ios_repro_result_free(&r[i]);
}

/* ---- verdict comparison ---- */

static const char *const base_cols[] = { "noop", "cfq", NULL };
static const struct ios_repro_check base_checks[] = {
	/* 0, 1: one criterion written for two columns: compared once */
	{ .column = "cfq", .m = IOS_RM_SPREAD, .lo = 0.25, .hi = NAN, .row = "cfq staggered" },
	{ .column = "noop", .m = IOS_RM_SPREAD, .lo = 0.25, .hi = NAN, .row = "noop staggered" },
	{ .column = "cfq", .m = IOS_RM_SPREAD, .lo = NAN, .hi = 0.10, .row = "cfq bunched" },
	/* reads the base's reference column */
	{ .column = "cfq", .m = IOS_RM_MAKESPAN_REL, .ref = "noop", .lo = NAN, .hi = 1.5,
	  .row = "makespan" },
};
static const struct ios_repro_exp base_exp = {
	.name = "bx", .title = "bx", .jobfile = "x", .kind = IOS_REPRO_FINISH,
	.columns = base_cols, .nr_seeds = SEEDS, .checks = base_checks, .nr_checks = 4,
};

static const char *const mq_cols[] = { "none", "kyber", NULL };
static const struct ios_repro_check mq_checks[] = {
	{ .id = "X.1", .column = "none", .m = IOS_RM_VERDICTS_DIFFER, .lo = NAN, .hi = 0.0,
	  .like = "noop", .row = "as noop" },
	{ .id = "X.2", .column = "kyber", .m = IOS_RM_VERDICTS_DIFFER, .lo = NAN, .hi = 0.0,
	  .like = "noop", .row = "as noop" },
	{ .id = "X.3", .column = "none", .m = IOS_RM_VERDICTS_DIFFER, .lo = NAN, .hi = 0.0,
	  .like = "cfq", .like_of = "cfq", .row = "cfq's own" },
};
static const struct ios_repro_exp mq_exp = {
	.name = "mx", .title = "mx", .jobfile = "x", .kind = IOS_REPRO_MQ_VS, .base = "bx",
	.criteria_doc = "docs/x.md", .columns = mq_cols, .nr_seeds = SEEDS, .checks = mq_checks,
	.nr_checks = 3,
};

static int test_verdicts(void)
{
	struct ios_repro_result bres[2 * SEEDS], mres[2 * SEEDS];
	struct ios_cmp_column bc[2] = { { .label = (char *)"noop" }, { .label = (char *)"cfq" } };
	struct ios_cmp_column mc[2] = { { .label = (char *)"none" }, { .label = (char *)"kyber" } };
	struct ios_repro_data d[2] = {
		{ .exp = &base_exp, .args = "", .device = "d", .cols = bc, .nr_cols = 2,
		  .nr_seeds = SEEDS, .res = bres },
		{ .exp = &mq_exp, .args = "", .device = "d", .cols = mc, .nr_cols = 2,
		  .nr_seeds = SEEDS, .res = mres },
	};
	struct ios_repro_verdict v[3];
	struct ios_repro_pair p[4];
	size_t n;
	/* spreads: noop 0.3 (staggered), cfq 0.05 (bunched), none 0.05, kyber 0.31 */
	static const double fin_noop[] = { 7, 10 }, fin_cfq[] = { 9.5, 10 };
	static const double fin_none[] = { 9.5, 10 }, fin_kyber[] = { 6.9, 10 };
	static const uint64_t ios[] = { 10, 10 };

	for (unsigned s = 0; s < SEEDS; s++) {
		T_ASSERT_EQ(mk_run(&bres[s], 2, fin_noop, ios, 1), 0);
		T_ASSERT_EQ(mk_run(&bres[SEEDS + s], 2, fin_cfq, ios, 1), 0);
		T_ASSERT_EQ(mk_run(&mres[s], 2, fin_none, ios, 1), 0);
		T_ASSERT_EQ(mk_run(&mres[SEEDS + s], 2, fin_kyber, ios, 1), 0);
	}
	/* not linked: refused */
	T_ASSERT_EQ(ios_repro_evaluate(&d[1], v), -EINVAL);
	T_ASSERT_EQ(ios_repro_link_bases(d, 2), 0);
	T_ASSERT(d[1].base == &d[0] && d[0].base == NULL);
	T_ASSERT_EQ(ios_repro_evaluate(&d[1], v), 0);
	/*
	 * none against noop: staggered noop PASS / none MISS, bunched MISS /
	 * PASS, makespan 1.0 both PASS: 2 differ (3 if the criterion written
	 * twice were compared twice).
	 */
	T_ASSERT_NEAR(v[0].value, 2.0, 1e-12);
	T_ASSERT(!v[0].pass);
	T_ASSERT_EQ(ios_repro_verdict_pairs(&d[1], &mq_checks[0], p, 4, &n), 0);
	T_ASSERT_EQ(n, 3);
	T_ASSERT(p[0].crit == &base_checks[0] && p[1].crit == &base_checks[2]);
	T_ASSERT(p[0].like_pass && !p[0].pass && !p[1].like_pass && p[1].pass);
	T_ASSERT_NEAR(p[0].like_value, 0.3, 1e-12);
	T_ASSERT(p[2].like_pass && p[2].pass);
	/* kyber's spread 0.31 is not noop's 0.30, but every verdict is the same */
	T_ASSERT_NEAR(v[1].value, 0.0, 1e-12);
	T_ASSERT(v[1].pass);
	/* like_of: cfq's three criteria only, on cfq and on none: all the same */
	T_ASSERT_EQ(ios_repro_verdict_pairs(&d[1], &mq_checks[2], p, 4, &n), 0);
	T_ASSERT_EQ(n, 3);
	T_ASSERT(p[0].crit == &base_checks[0] && p[1].crit == &base_checks[2] &&
		 p[2].crit == &base_checks[3]);
	T_ASSERT(v[2].pass && v[2].value == 0.0);
	T_ASSERT_EQ(ios_repro_verdict_pairs(&d[1], &mq_checks[2], p, 2, &n), -ENOSPC);

	/* the base not in the set, or with another number of seeds */
	T_ASSERT_EQ(ios_repro_link_bases(&d[1], 1), -EINVAL);
	d[0].nr_seeds = 1;
	T_ASSERT_EQ(ios_repro_link_bases(d, 2), -EINVAL);
	free_runs(bres, 2 * SEEDS);
	free_runs(mres, 2 * SEEDS);
	return T_PASS;
}

/* ---- conditions and the new measures ---- */

static const char *const lat_cols[] = { "none", "kyber", NULL };
static const struct ios_repro_check lat_checks[] = {
	/* 0, 1: M1.3's two branches on none's device p90 (2 ms) */
	{ .id = "C.1", .column = "kyber", .m = IOS_RM_P99_REL, .ref = "none", .lo = NAN,
	  .hi = 0.5, .when_column = "none", .when_m = IOS_RM_DEV_P90, .when_min = 2e6,
	  .row = "if slow" },
	{ .id = "C.1", .column = "kyber", .m = IOS_RM_P99_REL, .ref = "none", .lo = 0.75,
	  .hi = 1.33, .when_column = "none", .when_m = IOS_RM_DEV_P90, .when_min = 2e6,
	  .when_below = true, .row = "otherwise" },
	{ .id = "C.2", .column = "none", .m = IOS_RM_P99_ALONE, .lo = 2.0, .hi = NAN, .row = "a" },
	{ .id = "C.3", .column = "kyber", .m = IOS_RM_IOPS_REL, .ref = "none", .expect = 1.0,
	  .tol = 0.05, .row = "b" },
	{ .id = "C.4", .column = "none", .m = IOS_RM_OTHERS_SHARE, .lo = NAN, .hi = 0.1,
	  .hi_strict = true, .row = "c" },
	{ .id = "C.5", .column = "none", .m = IOS_RM_OTHERS_MIN_IOS, .lo = 1.0, .hi = NAN,
	  .row = "d" },
	{ .id = "C.6", .column = "none", .m = IOS_RM_OTHERS_MAX_LAT, .lo = NAN, .hi = 11e9,
	  .row = "e" },
	{ .id = "C.7", .column = "kyber", .m = IOS_RM_SHARE_DEV, .lo = NAN, .hi = 0.05,
	  .row = "f" },
};
static const struct ios_repro_exp lat_exp = {
	.name = "lx", .title = "lx", .jobfile = "x", .kind = IOS_REPRO_MQ_LAT,
	.criteria_doc = "docs/x.md", .columns = lat_cols, .nr_seeds = SEEDS, .alone = true,
	.alone_column = "none", .checks = lat_checks, .nr_checks = 8,
};

static int run_lat(uint64_t dev_p90[SEEDS], struct ios_repro_verdict *v)
{
	struct ios_repro_result res[2 * SEEDS], alone[SEEDS];
	struct ios_cmp_column cols[2] = { { .label = (char *)"none" }, { .label = (char *)"kyber" } };
	struct ios_repro_data d = {
		.exp = &lat_exp, .args = "", .device = "d", .cols = cols, .nr_cols = 2,
		.nr_seeds = SEEDS, .res = res, .alone = alone,
	};
	static const double fin[] = { 10, 10, 10 }, fin1[] = { 10 };
	static const uint64_t ios_none[] = { 60, 20, 20 }, ios_kyber[] = { 33, 33, 34 };
	static const uint64_t ios_alone[] = { 500 };
	int ret = 0;

	for (unsigned s = 0; s < SEEDS && !ret; s++) {
		ret |= mk_run(&res[s], 3, fin, ios_none, 8000000);
		ret |= mk_run(&res[SEEDS + s], 3, fin, ios_kyber, 2000000 + 1000000 * s);
		ret |= mk_run(&alone[s], 1, fin1, ios_alone, 100000);
		res[s].has_first_dev = true;
		res[s].first_dev_p90_ns = dev_p90[s];
	}
	if (!ret)
		ret = ios_repro_evaluate(&d, v);
	free_runs(res, 2 * SEEDS);
	free_runs(alone, SEEDS);
	return ret;
}

static int test_conditions_and_measures(void)
{
	/* none's device p90 by seed: median 3 ms, >= 2 ms: the first branch */
	uint64_t slow[SEEDS] = { 1000000, 3000000, 4000000 };
	uint64_t fast[SEEDS] = { 1000000, 1500000, 4000000 };
	struct ios_repro_verdict v[8];
	char buf[128];

	T_ASSERT_EQ(run_lat(slow, v), 0);
	/* kyber's p99 2, 3, 4 ms over none's 8 ms: median 0.375 */
	T_ASSERT_NEAR(v[0].value, 0.375, 1e-12);
	T_ASSERT(!v[0].na && v[0].pass);
	T_ASSERT_NEAR(v[0].when_value, 3e6, 1e-6);
	T_ASSERT(v[1].na && !v[1].pass);
	/* 8 ms against 0.1 ms alone */
	T_ASSERT_NEAR(v[2].value, 80.0, 1e-9);
	T_ASSERT(v[2].pass && isnan(v[2].when_value));
	/* the same I/Os per second (100 in 10 s each) */
	T_ASSERT_NEAR(v[3].value, 1.0, 1e-12);
	T_ASSERT(v[3].pass);
	/* the jobs after the first: 40 of 100; the fewest 20; worst clat 3 ms */
	T_ASSERT_NEAR(v[4].value, 0.4, 1e-12);
	T_ASSERT(!v[4].pass);
	T_ASSERT_NEAR(v[5].value, 20.0, 1e-12);
	T_ASSERT_NEAR(v[6].value, 3e6, 1e-6);
	/* kyber's shares 0.33, 0.33, 0.34 against a third */
	T_ASSERT_NEAR(v[7].value, 0.34 - 1.0 / 3.0, 1e-12);
	T_ASSERT(v[7].pass);

	/* median 1.5 ms < 2 ms: the other branch applies, and misses (0.375 is not in 0.75-1.33) */
	T_ASSERT_EQ(run_lat(fast, v), 0);
	T_ASSERT(v[0].na && !v[0].pass);
	T_ASSERT(!v[1].na && !v[1].pass);

	ios_repro_criterion(&lat_checks[0], false, buf, sizeof(buf));
	T_ASSERT_MSG(!strcmp(buf, "first job's clat p99 / none's <= 0.50"), "'%s'", buf);
	ios_repro_criterion(&mq_checks[0], false, buf, sizeof(buf));
	T_ASSERT_MSG(!strcmp(buf, "criteria with another verdict than on noop <= 0"), "'%s'", buf);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_verdicts, test_conditions_and_measures);
}
