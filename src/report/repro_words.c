/*
 * The seed reproduction report's words and numbers (repro.h): what each
 * measure is called in a criterion, its unit, and how a value prints.
 *
 * The experiments module (src/exp/repro.c) computes the measures and the
 * verdicts; the writers here and in repro_out.c only say them. A value is
 * printed in its measure's unit ("44.4 %", "0.003", "108 ms", "1.25"),
 * and where it would round to a bound it does not equal it gets more
 * decimals, so that a MISS never prints as the bound it missed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iosched/repro.h"
#include "repro_out_int.h"

struct rw_measure_info {
	const char *name;		/* in the criterion: "finish spread" */
	const char *ref_name;		/* for relative measures: "makespan / %s's" */
	enum { RW_PCT, RW_RATIO, RW_MS, RW_TIMES, RW_COUNT, RW_MIBS, RW_S, RW_IOPS, RW_US } unit;
};

static const struct rw_measure_info rw_measures[IOS_RM_COUNT] = {
	[IOS_RM_SPREAD] = { "finish spread", NULL, RW_PCT },
	[IOS_RM_MAKESPAN_REL] = { NULL, "makespan / %s's", RW_TIMES },
	[IOS_RM_AGG_ALONE] = { "aggregate / the first job alone", NULL, RW_PCT },
	[IOS_RM_WORST_DIFF] = { "worst |%diff|", NULL, RW_PCT },
	[IOS_RM_BW_SUM_REL] = { NULL, "aggregate / %s's", RW_PCT },
	[IOS_RM_RW_RATIO] = { "reader / writer", NULL, RW_RATIO },
	[IOS_RM_WR_REL] = { "writer / reader", NULL, RW_PCT },
	[IOS_RM_LAT_RATIO] = { "writer max clat / reader's", NULL, RW_TIMES },
	[IOS_RM_MAX_LAT] = { "worst max clat", NULL, RW_MS },
	[IOS_RM_BW_DEV] = { NULL, "largest per-job bandwidth difference from %s", RW_PCT },
	[IOS_RM_READ_TIME] = { "reads' share of device time", NULL, RW_PCT },
	[IOS_RM_WRITE_TIME] = { "writes' share of device time", NULL, RW_PCT },
	[IOS_RM_SHARER_MIN] = { "each sharer / the others' median", NULL, RW_RATIO },
	[IOS_RM_SHARER_MAX] = { "each sharer / the others' median", NULL, RW_RATIO },
	[IOS_RM_OTHERS_SPREAD] = { "the others' bandwidth spread", NULL, RW_PCT },
	[IOS_RM_GROUP_RATIO] = { "I/Os, first cgroup / second", NULL, RW_TIMES },
	[IOS_RM_GROUP_TIME_RATIO] = { "disk time, first cgroup / second", NULL, RW_TIMES },
	[IOS_RM_P99_ALONE] = { "first job's clat p99 / its p99 alone", NULL, RW_TIMES },
	[IOS_RM_P99_REL] = { NULL, "first job's clat p99 / %s's", RW_TIMES },
	[IOS_RM_DEV_P90] = { "first job's p90 device latency", NULL, RW_MS },
	[IOS_RM_IOPS_REL] = { NULL, "all jobs' I/Os per second / %s's", RW_TIMES },
	[IOS_RM_OTHERS_SHARE] = { "the other jobs' share of the I/Os", NULL, RW_PCT },
	[IOS_RM_OTHERS_MIN_IOS] = { "fewest I/Os of another job", NULL, RW_COUNT },
	[IOS_RM_OTHERS_MAX_LAT] = { "the other jobs' worst clat", NULL, RW_MS },
	[IOS_RM_SHARE_DEV] = { "largest distance of a job's I/O share from an equal share", NULL,
			       RW_PCT },
	[IOS_RM_VERDICTS_DIFFER] = { NULL, "criteria with another verdict than on %s",
				     RW_COUNT },
	[IOS_RM_WIN_SHARE] = { "the group's share of the bytes in the window", NULL, RW_PCT },
	[IOS_RM_WIN_MIBS] = { "the group's MiB/s in the window", NULL, RW_MIBS },
	[IOS_RM_WIN_REL] = { NULL, "the group's bytes in the window / %s's", RW_TIMES },
	[IOS_RM_WIN_MAX_BIN] = { "the group's largest series bucket in the window", NULL,
				 RW_MIBS },
	[IOS_RM_GROUP_ALONE] = { "the group's bytes / the first job's alone", NULL, RW_TIMES },
	[IOS_RM_IOCOST_SWITCH] = { "io.cost's period length first changed at", NULL, RW_S },
	[IOS_RM_IOCOST_SWITCHED] = { "io.cost's period length changed (1) or not (0)", NULL,
				     RW_COUNT },
	[IOS_RM_IOCOST_VRATE_END] = { "io.cost's vrate at the last period", NULL, RW_PCT },
	[IOS_RM_GROUP_IOPS] = { "the group's I/Os per second over the run", NULL, RW_IOPS },
	[IOS_RM_NOTE_COUNT] = { "how many times the run's notes say it", NULL, RW_COUNT },
	[IOS_RM_P90_T] = { "first job's clat p90 in the window / T", NULL, RW_TIMES },
	[IOS_RM_LAT_T] = { "T, 2 x the first job's clat p90 alone rounded up to 10 us", NULL,
			   RW_US },
	[IOS_RM_WIN_P90_REL] = { NULL, "first job's clat p90 in the window / %s's over its run",
				 RW_TIMES },
	[IOS_RM_GROUP_IOS_REL] = { NULL, "the group's I/Os / %s's", RW_TIMES },
	[IOS_RM_LAT_DEPTH_BELOW] = { "the group's io.latency depth first below the check's at",
				     NULL, RW_S },
	[IOS_RM_WIN_SUBMIT_DEV] = { "the group's submit side / its device side in the window",
				    NULL, RW_TIMES },
	[IOS_RM_WIN_STEP_MIN] = { "the group's lowest rate over the check's windows", NULL,
				  RW_MIBS },
	[IOS_RM_WIN_STEP_MAX] = { "the group's highest rate over the check's windows", NULL,
				  RW_MIBS },
	[IOS_RM_DATA_PER_WRITE] = { "the group's write requests per write of the first job", NULL,
				    RW_RATIO },
	[IOS_RM_CONV_PER_WRITE] = { "jbd2's unwritten conversions per write of the first job",
				    NULL, RW_RATIO },
	[IOS_RM_COMMIT_PER_WRITE] = { "jbd2's commits per write of the first job", NULL, RW_RATIO },
	[IOS_RM_FLUSH_PER_WRITE] = { "jbd2's commit blocks (PREFLUSH|FUA) per write of the first job",
				     NULL, RW_RATIO },
	[IOS_RM_LOG_PER_WRITE] = { "jbd2's log blocks (descriptors and metadata) per write of the first job",
				   NULL, RW_RATIO },
	[IOS_RM_MEAN_REL] = { NULL, "first job's mean clat / %s's", RW_TIMES },
	[IOS_RM_EARLY_DIFF] = { "smallest of the first three I/Os' clat, first job - second job",
				NULL, RW_MS },
	[IOS_RM_LATER_REL] = { "mean clat of the later I/Os, first job / second job", NULL,
			       RW_TIMES },
};

/* @v in @m's unit with @extra more decimals than usual */
static void rw_format(enum ios_repro_measure m, double v, int extra, char *buf, size_t len)
{
	if (m >= IOS_RM_COUNT || !isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (rw_measures[m].unit) {
	case RW_PCT:
		snprintf(buf, len, "%.*f %%", 1 + extra, 100.0 * v);
		break;
	case RW_RATIO:
		snprintf(buf, len, "%.*f", (fabs(v) < 0.1 ? 4 : 2) + extra, v);
		break;
	case RW_TIMES:
		snprintf(buf, len, "%.*f", 2 + extra, v);
		break;
	case RW_MS:
		snprintf(buf, len, "%.*f ms", 1 + extra, v / 1e6);
		break;
	case RW_COUNT:
		snprintf(buf, len, "%.*f", extra, v);
		break;
	case RW_MIBS:
		snprintf(buf, len, "%.*f MiB/s", 1 + extra, v);
		break;
	case RW_S:
		snprintf(buf, len, "%.*f s", 2 + extra, v);
		break;
	case RW_IOPS:
		snprintf(buf, len, "%.*f IOPS", 2 + extra, v);
		break;
	case RW_US:
		snprintf(buf, len, "%.*f us", extra, v / 1e3);
		break;
	}
}

void ios_repro_format(enum ios_repro_measure m, double v, char *buf, size_t len)
{
	rw_format(m, v, 0, buf, len);
}

/*
 * A value that rounds to a bound it does not equal gets more decimals, so
 * that a MISS never prints the bound itself ("25.0 %" for 24.98 % against
 * >= 25 %).
 */
void ios_repro_format_vs(const struct ios_repro_check *c, double v, char *buf, size_t len)
{
	double blo, bhi;

	ios_repro_bounds(c, &blo, &bhi);
	for (int extra = 0; extra <= 4; extra++) {
		char lo[32], hi[32];
		bool tie = false;

		rw_format(c->m, v, extra, buf, len);
		rw_format(c->m, blo, extra, lo, sizeof(lo));
		rw_format(c->m, bhi, extra, hi, sizeof(hi));
		if (isfinite(blo) && v != blo && !strcmp(buf, lo))
			tie = true;
		if (isfinite(bhi) && v != bhi && !strcmp(buf, hi))
			tie = true;
		if (!tie)
			return;
	}
}

void ios_repro_measure_name(enum ios_repro_measure m, const char *ref, char *buf, size_t len)
{
	const struct rw_measure_info *mi = m < IOS_RM_COUNT ? &rw_measures[m] : NULL;

	if (!mi)
		snprintf(buf, len, "?");
	else if (mi->ref_name)
		snprintf(buf, len, mi->ref_name, ref ? ref : "?");
	else
		snprintf(buf, len, "%s", mi->name);
}

void ios_repro_criterion(const struct ios_repro_check *c, bool utf8, char *buf, size_t len)
{
	const struct rw_measure_info *mi = c->m < IOS_RM_COUNT ? &rw_measures[c->m] : NULL;
	const char *ge = utf8 ? "≥" : ">=", *le = utf8 ? "≤" : "<=";
	char name[160], lo[32], hi[32];

	if (!mi) {
		snprintf(buf, len, "?");
		return;
	}
	if (mi->ref_name) {
		/* the format names the reference column once */
		snprintf(name, sizeof(name), mi->ref_name,
			 c->m == IOS_RM_VERDICTS_DIFFER ? (c->like ? c->like : "?")
			 : c->ref ? c->ref : "?");
	} else {
		snprintf(name, sizeof(name), "%s", mi->name);
	}
	if (c->group || c->win_from_s > 0.0 || c->win_to_s > 0.0) {
		/* the cgroup v2 scenarios' windows: whose, and when */
		size_t l = strlen(name);
		const char *whose = c->group ? c->group
				    : c->m == IOS_RM_P90_T || c->m == IOS_RM_WIN_P90_REL ? "first job"
				    : "all jobs";

		if (c->from_freerun)
			snprintf(name + l, sizeof(name) - l, " (%s, from dirty over freerun to %g s)",
				 whose, c->win_to_s);
		else if (c->win_to_s > 0.0)
			snprintf(name + l, sizeof(name) - l, " (%s, %g-%g s)", whose, c->win_from_s,
				 c->win_to_s);
		else
			snprintf(name + l, sizeof(name) - l, " (%s, %g s to the end)", whose,
				 c->win_from_s);
		l = strlen(name);
		if (c->step_s > 0.0)
			snprintf(name + l, sizeof(name) - l, " in %g s windows", c->step_s);
	}
	if (c->tol > 0.0) {
		char ex[32];

		ios_repro_format(c->m, c->expect, ex, sizeof(ex));
		snprintf(buf, len, "%s within %.0f %% of %s", name, 100.0 * c->tol, ex);
		return;
	}
	ios_repro_format(c->m, c->lo, lo, sizeof(lo));
	ios_repro_format(c->m, c->hi, hi, sizeof(hi));
	if (isfinite(c->lo) && isfinite(c->hi))
		snprintf(buf, len, "%s in %s to %s", name, lo, hi);
	else if (isfinite(c->lo))
		snprintf(buf, len, "%s %s %s", name, ge, lo);
	else
		snprintf(buf, len, "%s %s %s", name, c->hi_strict ? "<" : le, hi);
}
