/*
 * Description: the measures of scenario C4 (a dsync dd on ext4) in the
 * reproduction report (repro.h, IOS_REPRO_CGV2), on hand-made results,
 * without running.
 *  - Per write of the first job: the check's group's completed write
 *    requests, and jbd2's conversions, commits, commit blocks and log
 *    blocks (descriptors included); no jbd2 counters or no writes: no value.
 *  - The first job's mean clat against a reference: with ref_base the
 *    base experiment's column of that label, not this experiment's.
 *  - The first three I/Os: the smallest first-job-minus-second-job
 *    difference, k-th against k-th; fewer than three: no value. The later
 *    I/Os' mean clat, first job over second.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "iosched/repro.h"

static int mk(struct ios_repro_result *r, uint64_t writes, double mean_ns)
{
	memset(r, 0, sizeof(*r));
	r->run.label = strdup("x");
	r->run.jobs = calloc(1, sizeof(*r->run.jobs));
	r->job_ios = calloc(1, sizeof(*r->job_ios));
	if (!r->run.label || !r->run.jobs || !r->job_ios)
		return -1;
	r->run.nr_jobs = 1;
	r->run.jobs[0].has_lat = true;
	r->run.jobs[0].clat_mean_ns = mean_ns;
	r->job_ios[0] = writes;
	return 0;
}

static const char *const cols[] = { "none", "bfq", NULL };
static const struct ios_repro_check checks[] = {
	{ .id = "P0", .column = "none", .m = IOS_RM_DATA_PER_WRITE, .group = "app", .expect = 1.0,
	  .tol = 0.01 },
	{ .id = "P1", .column = "none", .m = IOS_RM_CONV_PER_WRITE, .expect = 1.0, .tol = 0.01 },
	{ .id = "P2", .column = "none", .m = IOS_RM_COMMIT_PER_WRITE, .expect = 1.0, .tol = 0.01 },
	{ .id = "P3", .column = "none", .m = IOS_RM_FLUSH_PER_WRITE, .expect = 1.0, .tol = 0.01 },
	{ .id = "P4", .column = "none", .m = IOS_RM_LOG_PER_WRITE, .lo = 1.0, .hi = NAN },
	{ .id = "R0", .column = "none", .m = IOS_RM_MEAN_REL, .ref = "none", .ref_base = true,
	  .lo = NAN, .hi = 1.5 },
	{ .id = "R1", .column = "bfq", .m = IOS_RM_MEAN_REL, .ref = "none", .lo = 3.0, .hi = NAN },
	{ .id = "P5", .column = "bfq", .m = IOS_RM_COMMIT_PER_WRITE, .lo = NAN, .hi = NAN },
	{ .id = "E0", .column = "bfq", .m = IOS_RM_EARLY_DIFF, .lo = 4e6, .hi = NAN },
	{ .id = "E1", .column = "bfq", .m = IOS_RM_LATER_REL, .lo = NAN, .hi = 1.3 },
	{ .id = "E2", .column = "none", .m = IOS_RM_EARLY_DIFF, .lo = NAN, .hi = NAN },
};
static const struct ios_repro_exp base_exp = {
	.name = "c4b", .title = "c4b", .jobfile = "x", .kind = IOS_REPRO_CGV2,
	.criteria_doc = "docs/x.md", .columns = cols, .nr_seeds = 1,
};
static const struct ios_repro_exp c4_exp = {
	.name = "c4x", .title = "c4x", .jobfile = "x", .kind = IOS_REPRO_CGV2,
	.criteria_doc = "docs/x.md", .columns = cols, .nr_seeds = 1, .base = "c4b",
	.checks = checks, .nr_checks = sizeof(checks) / sizeof(checks[0]),
};

static int test_c4(void)
{
	struct ios_repro_result res[2], bres[2];
	struct ios_repro_verdict v[11];
	struct ios_cmp_column c[2] = { { .label = (char *)"none" }, { .label = (char *)"bfq" } };
	struct ios_repro_data base = { .exp = &base_exp, .args = "", .device = "ssd-nvme",
				       .cols = c, .nr_cols = 2, .nr_seeds = 1, .res = bres };
	struct ios_repro_data d = { .exp = &c4_exp, .args = "", .device = "ssd-nvme", .cols = c,
				    .nr_cols = 2, .nr_seeds = 1, .res = res, .base = &base };
	static const uint64_t app[3] = { 9000000, 6000000, 5500000 };
	static const uint64_t root[3] = { 1000000, 1500000, 1400000 };

	T_ASSERT(!mk(&res[0], 1000, 3000000.0));
	T_ASSERT(!mk(&res[1], 2000, 12000000.0));
	T_ASSERT(!mk(&bres[0], 1000, 1500000.0));
	T_ASSERT(!mk(&bres[1], 1000, 1600000.0));
	/* none: 1000 writes, 1000 data requests in app (200 in root), one commit of 4 blocks each */
	snprintf(res[0].groups[0].path, sizeof(res[0].groups[0].path), "/");
	res[0].groups[0].blk_wios = 200;
	snprintf(res[0].groups[1].path, sizeof(res[0].groups[1].path), "app");
	res[0].groups[1].blk_wios = 1005;
	res[0].nr_groups = 2;
	res[0].has_jbd2 = true;
	res[0].jbd2.conversions = 1000;
	res[0].jbd2.commits = 980;
	res[0].jbd2.commit_blocks = 1020;
	res[0].jbd2.log_blocks = 3000;
	res[0].jbd2.desc_blocks = 1000;
	/* bfq: no jbd2 counters; early and later I/Os of both jobs */
	memcpy(res[1].early_ns[0], app, sizeof(app));
	memcpy(res[1].early_ns[1], root, sizeof(root));
	res[1].nr_early[0] = res[1].nr_early[1] = 3;
	res[1].later_sum_ns[0] = 120e6;
	res[1].nr_later[0] = 100;
	res[1].later_sum_ns[1] = 100e6;
	res[1].nr_later[1] = 100;
	/* none: only two early I/Os of the second job */
	res[0].nr_early[0] = 3;
	res[0].nr_early[1] = 2;
	T_ASSERT(!ios_repro_evaluate(&d, v));
	T_ASSERT(v[0].pass && fabs(v[0].value - 1.005) < 1e-9);	/* app's, not the root's */
	T_ASSERT(v[1].pass && fabs(v[1].value - 1.0) < 1e-9);
	T_ASSERT(!v[2].pass && fabs(v[2].value - 0.98) < 1e-9);	/* outside 1 % of 1 */
	T_ASSERT(!v[3].pass && fabs(v[3].value - 1.02) < 1e-9);
	T_ASSERT(v[4].pass && fabs(v[4].value - 4.0) < 1e-9);
	/* the base's none (1.5 ms), not this experiment's own (3 ms) */
	T_ASSERT(v[5].value == 2.0 && !v[5].pass);
	/* without ref_base the reference is this experiment's none */
	T_ASSERT(v[6].pass && v[6].value == 4.0);
	T_ASSERT(isnan(v[7].value));
	/* min(8, 4.5, 4.1) ms */
	T_ASSERT(v[8].pass && fabs(v[8].value - 4.1e6) < 1e-3);
	T_ASSERT(v[9].pass && fabs(v[9].value - 1.2) < 1e-9);
	T_ASSERT(isnan(v[10].value));
	for (int i = 0; i < 2; i++) {
		ios_repro_result_free(&res[i]);
		ios_repro_result_free(&bres[i]);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_c4);
}
