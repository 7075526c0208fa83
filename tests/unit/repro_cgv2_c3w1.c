/*
 * Description: the measures of scenarios C3 (io.latency) and W1 (buffered
 * writer under io.max) in the reproduction report (repro.h, IOS_REPRO_CGV2),
 * on hand-made results, without running.
 *  - T is twice the first job's p90 alone rounded up to 10 us; the first
 *    job's p90 over a window merges only that window's seconds, and over
 *    no window is the run's; its ratio to the reference uses the
 *    reference's whole run.
 *  - A group's I/Os against the reference's; the first io.latency depth
 *    below the check's depth (a change to 128 is not below 128); a group
 *    that never changed depth gives no value (never is not "at 0").
 *  - Submit side over device side in a window; the lowest and highest
 *    rate over consecutive windows of either side, from the window's start
 *    or from when dirty memory passed the freerun ceiling (none: no value).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "iosched/repro.h"
#include "iosched/series_group.h"

#define MIB (1024ull * 1024ull)
#define SEC 1000000000ull

/* a run with @secs seconds of first-job clat: second s holds 10 samples of lat(s) ns */
static int mk_lat(struct ios_repro_result *r, size_t secs, uint64_t (*lat)(size_t),
		  uint64_t whole_p90)
{
	memset(r, 0, sizeof(*r));
	r->run.label = strdup("x");
	r->first_sec = calloc(secs, sizeof(*r->first_sec));
	if (!r->run.label || !r->first_sec)
		return -1;
	r->nr_first_sec = secs;
	for (size_t s = 0; s < secs; s++) {
		ios_lat_init(&r->first_sec[s]);
		if (ios_lat_enable_hist(&r->first_sec[s]))
			return -1;
		for (int k = 0; k < 10; k++)
			ios_lat_add(&r->first_sec[s], lat(s));
	}
	r->has_first_pct = true;
	r->first_clat_pct[1] = whole_p90;
	return 0;
}

static uint64_t lat_slow_start(size_t s)
{
	return s < 1 ? 4000000 : 200000;	/* 4 ms in the first second, then 200 us */
}

static uint64_t lat_flat(size_t s)
{
	(void)s;
	return 6000000;
}

static void set_group(struct ios_repro_result *r, const char *path, uint64_t ios,
		      const unsigned *depth, const double *at_s, unsigned n)
{
	struct ios_repro_group *g = &r->groups[r->nr_groups++];

	snprintf(g->path, sizeof(g->path), "%s", path);
	g->ios = ios;
	g->nr_depths = n;
	for (unsigned k = 0; k < n; k++) {
		g->depth[k] = depth[k];
		g->depth_at_ns[k] = (uint64_t)(at_s[k] * 1e9);
	}
}

static const char *const c3_cols[] = { "none", "lat", NULL };
static const struct ios_repro_check c3_checks[] = {
	{ .id = "L0", .column = "lat", .m = IOS_RM_LAT_T, .lo = 150000.0, .hi = 150000.0 },
	{ .id = "L1", .column = "none", .m = IOS_RM_P90_T, .lo = 1.0, .hi = NAN },
	{ .id = "L2", .column = "lat", .m = IOS_RM_P90_T, .win_from_s = 1.0, .win_to_s = 3.0,
	  .lo = NAN, .hi = 1.5 },
	{ .id = "L3", .column = "lat", .m = IOS_RM_WIN_P90_REL, .ref = "none", .win_to_s = 1.0,
	  .lo = NAN, .hi = NAN },
	{ .id = "L4", .column = "lat", .m = IOS_RM_GROUP_IOS_REL, .ref = "none", .group = "bg",
	  .lo = NAN, .hi = 0.8, .hi_strict = true },
	{ .id = "L5", .column = "lat", .m = IOS_RM_LAT_DEPTH_BELOW, .group = "bg",
	  .depth_below = 128, .lo = NAN, .hi = NAN },
	{ .id = "L6", .column = "none", .m = IOS_RM_LAT_DEPTH_BELOW, .group = "bg",
	  .depth_below = 128, .lo = NAN, .hi = NAN },
	{ .id = "L7", .column = "lat", .m = IOS_RM_P90_T, .win_from_s = 2.0, .win_to_s = 9.0,
	  .lo = NAN, .hi = NAN },
};
static const struct ios_repro_exp c3_exp = {
	.name = "c3x", .title = "c3x", .jobfile = "x", .kind = IOS_REPRO_CGV2,
	.criteria_doc = "docs/x.md", .columns = c3_cols, .nr_seeds = 1, .alone = true,
	.alone_column = "none", .checks = c3_checks,
	.nr_checks = sizeof(c3_checks) / sizeof(c3_checks[0]),
};

static int test_c3(void)
{
	struct ios_repro_result res[2], alone;
	struct ios_repro_verdict v[8];
	struct ios_cmp_column c[2] = { { .label = (char *)"none" }, { .label = (char *)"lat" } };
	struct ios_repro_data d = { .exp = &c3_exp, .args = "", .device = "ssd-nvme", .cols = c,
				    .nr_cols = 2, .nr_seeds = 1, .res = res, .alone = &alone };
	static const unsigned depths[] = { 511, 255, 128, 127, 63 };
	static const double at[] = { 0.1, 0.6, 0.9, 1.1, 1.6 };

	T_ASSERT(!mk_lat(&res[0], 3, lat_flat, 6000000));
	T_ASSERT(!mk_lat(&res[1], 3, lat_slow_start, 4000000));
	memset(&alone, 0, sizeof(alone));
	alone.has_first_pct = true;
	alone.first_clat_pct[1] = 74001;		/* 2 x 74.001 us -> 150 us */
	set_group(&res[0], "bg", 1000, NULL, NULL, 0);
	set_group(&res[1], "bg", 500, depths, at, 5);
	T_ASSERT(!ios_repro_evaluate(&d, v));
	T_ASSERT(v[0].pass && fabs(v[0].value - 150000.0) < 1e-6);
	T_ASSERT(v[1].pass && fabs(v[1].value - 40.0) < 1e-9);	/* 6 ms / 150 us */
	/* seconds 1 and 2 only: 200 us, not the first second's 4 ms (fio's bins: ~0.5 %) */
	T_ASSERT(v[2].pass && fabs(v[2].value - 200000.0 / 150000.0) < 0.02);
	/* second 0 against none's whole run: 4 ms / 6 ms */
	T_ASSERT(fabs(v[3].value - 4.0 / 6.0) < 0.02);
	T_ASSERT(v[4].pass && fabs(v[4].value - 0.5) < 1e-9);
	/* 128 is not below 128: the change to 127 at 1.1 s */
	T_ASSERT(fabs(v[5].value - 1.1) < 1e-9);
	T_ASSERT(isnan(v[6].value) && !v[6].pass);
	/* a window past the recorded seconds has no value */
	T_ASSERT(isnan(v[7].value));
	for (int i = 0; i < 2; i++)
		ios_repro_result_free(&res[i]);
	ios_repro_result_free(&alone);
	return T_PASS;
}

/*
 * One cgroup line "w" over 12 s in 1 s buckets: the submit side moves 100
 * MiB in second 0, then 20 MiB a second but 30 in second 2; the device side
 * 10 MiB in second 0, then 20 a second.
 */
static int mk_w(struct ios_repro_result *r, bool freerun)
{
	struct ios_series *s = calloc(1, sizeof(*s));
	struct ios_series_job *j;

	memset(r, 0, sizeof(*r));
	r->run.label = strdup("w");
	if (!s || !r->run.label || ios_series_init(s, 1) || ios_series_set_group(s, 0, "w", 2, 4))
		return -1;
	r->series = s;
	s->bucket_ns = SEC;
	for (uint64_t t = 0; t < 12; t++)
		if (ios_series_add(s, 0, t * SEC + 1, (t == 0 ? 100 : t == 2 ? 30 : 20) * MIB))
			return -1;
	j = &s->jobs[0];
	j->charged = calloc(12, sizeof(*j->charged));
	if (!j->charged)
		return -1;
	j->charged_len = j->charged_cap = 12;
	for (size_t t = 0; t < 12; t++)
		j->charged[t] = (t == 0 ? 10 : 20) * MIB;
	s->end_ns = 12 * SEC;
	r->has_freerun = freerun;
	r->freerun_ns = SEC / 2;	/* rounds up to the bucket at 1 s */
	return 0;
}

static const char *const w_cols[] = { "w", NULL };
static const struct ios_repro_check w_checks[] = {
	{ .id = "W0", .column = "w", .m = IOS_RM_WIN_SUBMIT_DEV, .group = "w", .win_to_s = 1.0,
	  .lo = 10.0, .hi = NAN },
	{ .id = "W1", .column = "w", .m = IOS_RM_WIN_STEP_MIN, .group = "w", .dev_side = true,
	  .step_s = 1.0, .win_to_s = 12.0, .lo = NAN, .hi = NAN },
	{ .id = "W2", .column = "w", .m = IOS_RM_WIN_STEP_MAX, .group = "w", .dev_side = true,
	  .step_s = 1.0, .win_from_s = 1.0, .win_to_s = 12.0, .lo = NAN, .hi = NAN },
	{ .id = "W3", .column = "w", .m = IOS_RM_WIN_STEP_MAX, .group = "w", .step_s = 5.0,
	  .from_freerun = true, .win_to_s = 12.0, .lo = NAN, .hi = NAN },
	{ .id = "W4", .column = "w", .m = IOS_RM_WIN_STEP_MIN, .group = "w", .step_s = 5.0,
	  .from_freerun = true, .win_to_s = 12.0, .lo = NAN, .hi = NAN },
};
static const struct ios_repro_exp w_exp = {
	.name = "w1x", .title = "w1x", .jobfile = "x", .kind = IOS_REPRO_CGV2,
	.criteria_doc = "docs/x.md", .columns = w_cols, .nr_seeds = 1, .checks = w_checks,
	.nr_checks = sizeof(w_checks) / sizeof(w_checks[0]),
};

static int test_w1(void)
{
	struct ios_repro_result res;
	struct ios_repro_verdict v[5];
	struct ios_cmp_column c[1] = { { .label = (char *)"w" } };
	struct ios_repro_data d = { .exp = &w_exp, .args = "", .device = "ssd-nvme", .cols = c,
				    .nr_cols = 1, .nr_seeds = 1, .res = &res };

	T_ASSERT(!mk_w(&res, true));
	T_ASSERT(!ios_repro_evaluate(&d, v));
	T_ASSERT(v[0].pass && fabs(v[0].value - 10.0) < 1e-9);
	T_ASSERT(fabs(v[1].value - 10.0) < 1e-9);	/* device side's second 0 */
	T_ASSERT(fabs(v[2].value - 20.0) < 1e-9);
	/* from 1 s: 1-6 s holds second 2's 30 MiB (110 / 5), 6-11 s 20; 11-12 s is partial */
	T_ASSERT(fabs(v[3].value - 22.0) < 1e-9);
	T_ASSERT(fabs(v[4].value - 20.0) < 1e-9);
	ios_repro_result_free(&res);
	T_ASSERT(!mk_w(&res, false));
	T_ASSERT(!ios_repro_evaluate(&d, v));
	T_ASSERT(isnan(v[3].value) && isnan(v[4].value) && !v[3].pass);
	ios_repro_result_free(&res);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_c3, test_w1);
}
