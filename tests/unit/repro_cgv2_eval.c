/*
 * Description: the cgroup v2 scenarios' measures in the reproduction report
 * (repro.h, IOS_REPRO_CGV2; issue 30 step 10), on hand-made series, without
 * running.
 *  - A group's share of the bytes and its MiB/s count only the buckets of
 *    the check's window; NULL group is every job.
 *  - The window relative to a reference column reads the same window there.
 *  - The largest bucket ignores a burst after the window's end.
 *  - A group against the first job alone compares whole-run bytes.
 *  - io.cost's switch is the end of the last period at the first length;
 *    a run whose period never changed gives no value (a MISS, not a PASS),
 *    but "changed at all" says 0 there, and nothing without io.cost.
 *  - vrate at the end is the last period's, as a ratio.
 *  - A group's I/Os per second are its completed I/Os over the series'
 *    length; a group the run does not have gives no value.
 *  - A note is counted each time a run's notes contain its text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "iosched/repro.h"
#include "iosched/series_group.h"

#define MIB (1024ull * 1024ull)

/*
 * A run of two groups "a" and "b" over 10 ms (1 ms buckets): a moves @a_per
 * bytes a ms, b @b_per; in ms 9 a also moves @burst (after the windows).
 */
static int mk(struct ios_repro_result *r, uint64_t a_per, uint64_t b_per, uint64_t burst)
{
	struct ios_series *s = calloc(1, sizeof(*s));

	memset(r, 0, sizeof(*r));
	if (!s || ios_series_init(s, 2) || ios_series_set_group(s, 0, "a", 2, 4) ||
	    ios_series_set_group(s, 1, "/b", 2, 4))
		return -1;
	r->series = s;
	for (uint64_t ms = 0; ms < 10; ms++) {
		if (ios_series_add(s, 0, ms * 1000000 + 500000, a_per + (ms == 9 ? burst : 0)) ||
		    ios_series_add(s, 1, ms * 1000000 + 500000, b_per))
			return -1;
	}
	s->end_ns = 10000000;
	r->run.label = strdup("x");
	return r->run.label ? 0 : -1;
}

static const char *const cols[] = { "none", "x", NULL };
static const struct ios_repro_check checks[] = {
	{ .id = "T1", .column = "x", .m = IOS_RM_WIN_SHARE, .group = "a", .win_from_s = 0.002,
	  .win_to_s = 0.006, .lo = 0.74, .hi = 0.76 },
	{ .id = "T2", .column = "x", .m = IOS_RM_WIN_MIBS, .group = "b", .win_from_s = 0.002,
	  .win_to_s = 0.006, .lo = NAN, .hi = NAN },
	{ .id = "T3", .column = "x", .m = IOS_RM_WIN_REL, .ref = "none", .win_from_s = 0.0,
	  .win_to_s = 0.008, .lo = NAN, .hi = NAN },
	{ .id = "T4", .column = "x", .m = IOS_RM_WIN_MAX_BIN, .group = "a", .win_to_s = 0.009,
	  .lo = NAN, .hi = NAN },
	{ .id = "T5", .column = "x", .m = IOS_RM_WIN_MAX_BIN, .group = "a", .lo = NAN, .hi = NAN },
	{ .id = "T6", .column = "x", .m = IOS_RM_GROUP_ALONE, .group = "b", .lo = NAN, .hi = NAN },
	{ .id = "T7", .column = "x", .m = IOS_RM_IOCOST_SWITCH, .lo = 0.0, .hi = 1.0 },
	{ .id = "T8", .column = "none", .m = IOS_RM_IOCOST_SWITCH, .lo = 0.0, .hi = 1.0 },
	{ .id = "T9", .column = "x", .m = IOS_RM_IOCOST_SWITCHED, .lo = NAN, .hi = 0.0 },
	{ .id = "T10", .column = "none", .m = IOS_RM_IOCOST_SWITCHED, .lo = NAN, .hi = 0.0 },
	{ .id = "T11", .column = "x", .m = IOS_RM_IOCOST_VRATE_END, .lo = 0.95, .hi = 1.5 },
	{ .id = "T12", .column = "x", .m = IOS_RM_GROUP_IOPS, .group = "a", .lo = NAN, .hi = NAN },
	{ .id = "T13", .column = "x", .m = IOS_RM_GROUP_IOPS, .group = "zz", .lo = NAN, .hi = NAN },
	{ .id = "T14", .column = "x", .m = IOS_RM_NOTE_COUNT, .note = "does nothing", .lo = 1.0,
	  .hi = 1.0 },
	{ .id = "T15", .column = "none", .m = IOS_RM_NOTE_COUNT, .note = "does nothing", .lo = 1.0,
	  .hi = 1.0 },
};
static const struct ios_repro_exp exp_ = {
	.name = "cx", .title = "cx", .jobfile = "x", .kind = IOS_REPRO_CGV2,
	.criteria_doc = "docs/x.md", .columns = cols, .nr_seeds = 1, .alone = true,
	.alone_column = "none", .checks = checks, .nr_checks = sizeof(checks) / sizeof(checks[0]),
};

static int test_windows(void)
{
	struct ios_repro_result res[2], alone;
	struct ios_repro_verdict v[15];
	struct ios_cmp_column c[2] = { { .label = (char *)"none" }, { .label = (char *)"x" } };
	struct ios_repro_data d = { .exp = &exp_, .args = "", .device = "ssd-nvme", .cols = c,
				    .nr_cols = 2, .nr_seeds = 1, .res = res, .alone = &alone };

	T_ASSERT(!mk(&res[0], 1000, 1000, 0));		/* none: even */
	T_ASSERT(!mk(&res[1], 3 * MIB, MIB, 50 * MIB));	/* x: 3:1, a burst at 9 ms */
	T_ASSERT(!mk(&alone, 0, 2 * MIB, 0));
	res[1].has_iocost = true;
	res[1].iocost_switch_ns = 500000000;
	res[0].has_iocost = true;		/* io.cost ran, the period never changed */
	res[1].iocost_vrate_end = 123.0;
	res[1].nr_groups = 1;
	snprintf(res[1].groups[0].path, sizeof(res[1].groups[0].path), "a");
	res[1].groups[0].ios = 7;
	res[1].warnings = calloc(3, sizeof(*res[1].warnings));
	T_ASSERT(res[1].warnings);
	res[1].warnings[0] = strdup("io.weight does nothing until io.cost.qos enable=1");
	res[1].warnings[1] = strdup("something else");
	res[1].nr_warnings = 2;
	T_ASSERT(res[1].warnings[0] && res[1].warnings[1]);
	T_ASSERT(!ios_repro_evaluate(&d, v));
	/* a's share over ms 2..5 only, 3:1 whatever the burst at 9 ms */
	T_ASSERT(v[0].pass && fabs(v[0].value - 0.75) < 1e-9);
	/* b: 1 MiB a ms = 1000 MiB/s */
	T_ASSERT(fabs(v[1].value - 1000.0) < 1e-6);
	/* all jobs over ms 0..7: 4 MiB a ms against 2000 bytes a ms */
	T_ASSERT(fabs(v[2].value - (4.0 * MIB) / 2000.0) < 1e-6);
	/* largest bucket before 9 ms: 3 MiB in 1 ms; with the end: the burst */
	T_ASSERT(fabs(v[3].value - 3000.0) < 1e-6);
	T_ASSERT(fabs(v[4].value - 53000.0) < 1e-6);
	/* b's 10 MiB over the run against the alone run's 20 MiB */
	T_ASSERT(fabs(v[5].value - 0.5) < 1e-9);
	T_ASSERT(v[6].pass && fabs(v[6].value - 0.5) < 1e-9);
	T_ASSERT(isnan(v[7].value) && !v[7].pass);
	/* x switched: 1, a MISS of "no switch"; none ran io.cost and never switched: 0 */
	T_ASSERT(v[8].value == 1.0 && !v[8].pass);
	T_ASSERT(v[9].value == 0.0 && v[9].pass);
	T_ASSERT(v[10].pass && fabs(v[10].value - 1.23) < 1e-9);
	/* 7 I/Os over the 10 ms series: 700 a second; no group zz: no value */
	T_ASSERT(fabs(v[11].value - 700.0) < 1e-6);
	T_ASSERT(isnan(v[12].value));
	T_ASSERT(v[13].pass && v[13].value == 1.0);
	T_ASSERT(!v[14].pass && v[14].value == 0.0);
	for (int i = 0; i < 2; i++)
		ios_repro_result_free(&res[i]);
	ios_repro_result_free(&alone);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_windows);
}
