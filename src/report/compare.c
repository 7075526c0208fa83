/*
 * `iosched compare`: the report (compare.h, part 3). The columns it shows
 * are parsed and run by the experiments module (src/exp/columns.c,
 * src/exp/compare.c); this file only writes what the runs left.
 *
 * The report sets the columns side by side: one block of rows per metric,
 * one row per job, then the summary over all jobs, then, when the jobs
 * differ in class, level or cgroup (or when asked), Jeff Moyer's share
 * table per column with the model its "ideal" came from. The JSON writer
 * carries the same numbers. Both are functions of the runs alone.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/compare.h"
#include "jsonw.h"

/* ---- the text report ---- */

static const char *cc_class_name(int c)
{
	switch (c) {
	case IOS_IOPRIO_CLASS_RT:
		return "rt";
	case IOS_IOPRIO_CLASS_IDLE:
		return "idle";
	default:
		return "be";
	}
}

/* the jobs of the first run name the rows; every column ran the same jobs */
static size_t cc_nr_jobs(const struct ios_cmp_report *rep)
{
	size_t n = rep->nr_runs ? rep->runs[0].nr_jobs : 0;

	for (size_t c = 1; c < rep->nr_runs; c++)
		if (rep->runs[c].nr_jobs < n)
			n = rep->runs[c].nr_jobs;
	return n;
}

enum cc_metric {
	CC_BW, CC_FINISH, CC_LAT_MEAN, CC_LAT_P50, CC_LAT_P99, CC_LAT_MAX, CC_DEVICE_TIME,
	CC_CHARGED_TIME, CC_AGG, CC_MAKESPAN, CC_ALL_LAT_MEAN, CC_ALL_LAT_P50, CC_ALL_LAT_P99,
	CC_ALL_LAT_MAX, CC_JAIN, CC_JAIN_TIME, CC_MINMAX, CC_SPREAD, CC_NR_METRICS
};

/* How a metric's value prints: decimals and a suffix ("%" for percentages). */
static const struct { int prec; const char *suffix; } cc_fmt[CC_NR_METRICS] = {
	[CC_BW] = { 0, "" }, [CC_FINISH] = { 3, "" }, [CC_LAT_MEAN] = { 3, "" },
	[CC_LAT_P50] = { 3, "" }, [CC_LAT_P99] = { 3, "" }, [CC_LAT_MAX] = { 3, "" },
	[CC_DEVICE_TIME] = { 1, "%" }, [CC_CHARGED_TIME] = { 1, "%" }, [CC_AGG] = { 0, "" },
	[CC_MAKESPAN] = { 3, "" }, [CC_ALL_LAT_MEAN] = { 3, "" }, [CC_ALL_LAT_P50] = { 3, "" },
	[CC_ALL_LAT_P99] = { 3, "" }, [CC_ALL_LAT_MAX] = { 3, "" }, [CC_JAIN] = { 4, "" },
	[CC_JAIN_TIME] = { 4, "" }, [CC_MINMAX] = { 3, "" }, [CC_SPREAD] = { 1, "%" },
};

/* The value of metric @m for @job of @r, in the unit it prints in; false: '-'. */
static bool cc_value(const struct ios_cmp_run *r, size_t job, enum cc_metric m, double *v)
{
	const struct ios_cmp_job *j = job < r->nr_jobs ? &r->jobs[job] : NULL;

	switch (m) {
	case CC_BW:
		*v = j->bw_kib;
		return true;
	case CC_FINISH:
		*v = (double)j->finish_ns / 1e9;
		return true;
	case CC_LAT_MEAN:
		*v = j->clat_mean_ns / 1e6;
		return j->has_lat;
	case CC_LAT_P50:
		*v = (double)j->clat_p50_ns / 1e6;
		return j->has_p99;
	case CC_LAT_P99:
		*v = (double)j->clat_p99_ns / 1e6;
		return j->has_p99;
	case CC_LAT_MAX:
		*v = (double)j->clat_max_ns / 1e6;
		return j->has_lat;
	case CC_DEVICE_TIME:
		*v = 100.0 * j->device_frac;
		return r->total_device_ns != 0;
	case CC_CHARGED_TIME:
		*v = 100.0 * j->charged_frac;
		return r->charges_time && r->total_charged_ns;
	case CC_AGG:
		*v = r->agg_kib;
		return true;
	case CC_MAKESPAN:
		*v = (double)(r->last_finish_ns - r->first_start_ns) / 1e9;
		return true;
	case CC_ALL_LAT_MEAN:
		*v = r->clat_mean_ns / 1e6;
		return r->has_lat && isfinite(r->clat_mean_ns);
	case CC_ALL_LAT_P50:
		*v = (double)r->clat_p50_ns / 1e6;
		return r->has_p99;
	case CC_ALL_LAT_P99:
		*v = (double)r->clat_p99_ns / 1e6;
		return r->has_p99;
	case CC_ALL_LAT_MAX:
		*v = (double)r->clat_max_ns / 1e6;
		return r->has_lat;
	case CC_JAIN:
		*v = r->jain_bw;
		return isfinite(r->jain_bw);
	case CC_JAIN_TIME:
		*v = r->jain_time;
		return r->total_device_ns && isfinite(r->jain_time);
	case CC_MINMAX:
		*v = r->min_max_bw;
		return isfinite(r->min_max_bw);
	case CC_SPREAD:
		*v = 100.0 * r->finish_spread;
		return true;
	case CC_NR_METRICS:
		break;
	}
	return false;
}

static int cc_dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * One cell: the value, or with --seeds the median over the seeds (the mean
 * of the middle two for an even count) and the range, "12.3 [10.1..15.2]";
 * '-' where a seed has no value.
 */
static void cc_cell(const struct ios_cmp_report *rep, size_t col, size_t job, enum cc_metric m,
		    char *buf, size_t len)
{
	int p = cc_fmt[m].prec;
	const char *sfx = cc_fmt[m].suffix;
	double v[IOS_CMP_MAX_SEEDS], med;
	size_t n = rep->nr_seeds > 1 ? rep->nr_seeds : 1;

	if (n > IOS_ARRAY_SIZE(v))
		n = IOS_ARRAY_SIZE(v);
	for (size_t k = 0; k < n; k++) {
		const struct ios_cmp_run *r = n > 1 ? &rep->seed_runs[k][col] : &rep->runs[col];

		if (!cc_value(r, job, m, &v[k])) {
			snprintf(buf, len, "-");
			return;
		}
	}
	if (n == 1) {
		snprintf(buf, len, "%.*f%s", p, v[0], sfx);
		return;
	}
	qsort(v, n, sizeof(v[0]), cc_dbl_cmp);
	med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
	snprintf(buf, len, "%.*f%s [%.*f..%.*f]", p, med, sfx, p, v[0], p, v[n - 1]);
}

struct cc_layout {
	int label_w;
	int *col_w;
};

static void cc_row(struct ios_buf *out, const struct ios_cmp_report *rep,
		   const struct cc_layout *lay, const char *label, size_t job, enum cc_metric m)
{
	ios_buf_printf(out, "%-*s", lay->label_w, label);
	for (size_t c = 0; c < rep->nr_runs; c++) {
		char cell[128];

		cc_cell(rep, c, job, m, cell, sizeof(cell));
		ios_buf_printf(out, "  %*s", lay->col_w[c], cell);
	}
	ios_buf_puts(out, "\n");
}

static void cc_job_block(struct ios_buf *out, const struct ios_cmp_report *rep,
			 const struct cc_layout *lay, const char *title, enum cc_metric m)
{
	size_t nj = cc_nr_jobs(rep);

	ios_buf_printf(out, "%s\n", title);
	for (size_t i = 0; i < nj; i++) {
		char label[160];

		snprintf(label, sizeof(label), "  %s", rep->runs[0].jobs[i].name);
		cc_row(out, rep, lay, label, i, m);
	}
}

static bool cc_has_groups(const struct ios_cmp_run *r)
{
	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].cgroup)
			return true;
	return false;
}

static bool cc_same_group(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/*
 * Moyer's table again, on the device's time instead of bytes: ideal = the
 * jobs' device time * the job's share; what fairness in time (CFQ's aim)
 * is judged by, where bytes also carry each job's seek pattern.
 */
static void cc_shares_time_text(struct ios_buf *out, const struct ios_cmp_run *r)
{
	uint64_t total = r->total_device_ns / IOS_NSEC_PER_MSEC;

	if (!total)
		return;
	ios_buf_printf(out, "total disk time (device share): %" PRIu64 " ms\n", total);
	ios_buf_printf(out, "%-5s %4s %10s %10s %6s  %s\n", "class", "prio", "ideal ms", "had ms",
		       "%diff", "job");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_cmp_job *j = &r->jobs[i];
		uint64_t had = j->device_time_ns / IOS_NSEC_PER_MSEC;
		uint64_t ideal = (uint64_t)floor((double)total * j->share * (1.0 + 1e-12));
		char diff[32];

		if (ideal)
			snprintf(diff, sizeof(diff), "%lld", ios_share_moyer_diff(had, ideal));
		else
			snprintf(diff, sizeof(diff), "-");
		ios_buf_printf(out, "%-5s %4d %10" PRIu64 " %10" PRIu64 " %6s  %s\n",
			       cc_class_name(j->ioprio_class), j->ioprio_level, ideal, had, diff,
			       j->name);
	}
}

static int cc_shares_text(struct ios_buf *out, const struct ios_cmp_run *r)
{
	struct ios_share_row *rows = calloc(r->nr_jobs + 1, sizeof(*rows));
	bool groups = cc_has_groups(r);
	uint64_t total;
	double prio;
	char model[512];

	if (!rows)
		return -ENOMEM;
	ios_cmp_share_rows(r, rows, &total, &prio);
	ios_share_describe(&r->share, model, sizeof(model));
	ios_buf_printf(out, "\n%s (%s): ideal from %s\n", r->label, r->scheduler, model);
	ios_buf_printf(out, "total priority: %.6g\n", prio);
	if (groups && (r->share.model == IOS_SHARE_CFQ_GROUP_SLICE || r->share.model == IOS_SHARE_BFQ_WEIGHT)) {
		/* the level above the queues: each group once, in job order */
		ios_buf_puts(out, "group weights:");
		for (size_t i = 0; i < r->nr_jobs; i++) {
			const struct ios_cmp_job *j = &r->jobs[i];
			size_t k;

			for (k = 0; k < i; k++)
				if (cc_same_group(r->jobs[k].cgroup, j->cgroup))
					break;
			if (k < i || (!j->cgroup && r->share.model == IOS_SHARE_BFQ_WEIGHT))
				continue;
			ios_buf_printf(out, " %s=%.6g", j->cgroup ? j->cgroup : "/", j->group_weight);
		}
		ios_buf_puts(out, r->share.model == IOS_SHARE_BFQ_WEIGHT
			     ? " (the root's own queues compete with these by their weight)\n" : "\n");
	}
	if (r->share.ctl == IOS_SHARE_CTL_IOCOST) {
		/* each charged group once, in job order: io.weight and hweight_active */
		ios_buf_puts(out, "io.weight, hweight_active:");
		for (size_t i = 0; i < r->nr_jobs; i++) {
			const struct ios_cmp_job *j = &r->jobs[i];
			size_t k;

			for (k = 0; k < i; k++)
				if (cc_same_group(r->jobs[k].cgroup, j->cgroup))
					break;
			if (k < i || isnan(j->group_share))
				continue;
			ios_buf_printf(out, " %s=%.6g %.1f%%", j->cgroup, j->group_weight,
				       100.0 * j->group_share);
		}
		ios_buf_puts(out, "\n");
	}
	ios_buf_printf(out, "total data transferred: %" PRIu64 "\n", total);
	ios_buf_printf(out, "%-5s %4s %10s %10s %6s  %s%s\n", "class", "prio", "ideal", "xferred",
		       "%diff", groups ? "cgroup          " : "", "job");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_cmp_job *j = &r->jobs[i];
		char diff[32], grp[64];

		if (rows[i].has_diff)
			snprintf(diff, sizeof(diff), "%lld", rows[i].diff_pct);
		else
			snprintf(diff, sizeof(diff), "-");
		if (groups)
			snprintf(grp, sizeof(grp), "%-15s ", j->cgroup ? j->cgroup : "/");
		else
			grp[0] = '\0';
		char ideal[32];

		if (rows[i].has_ideal)
			snprintf(ideal, sizeof(ideal), "%" PRIu64, rows[i].ideal_kib);
		else
			snprintf(ideal, sizeof(ideal), "no control");
		ios_buf_printf(out, "%-5s %4d %10s %10" PRIu64 " %6s  %s%s\n",
			       cc_class_name(j->ioprio_class), j->ioprio_level, ideal,
			       rows[i].xferred_kib, diff, grp, j->name);
	}
	cc_shares_time_text(out, r);
	if (r->finish_spread > 0.01)
		ios_buf_printf(out, "note: the jobs stopped at different times (finish spread "
			       "%.1f%%), so their transfers reflect their sizes as well as the "
			       "shares; time-based jobs (runtime=, time_based) measure shares\n",
			       100.0 * r->finish_spread);
	free(rows);
	return 0;
}

/* One job's halves in one run: "0.0..15.0 s: clat mean 8.1 ms, 488 KiB/s; 15.0..30.1 s: ..." */
static void cc_halves_line(struct ios_buf *out, const struct ios_cmp_run *r,
			   const struct ios_cmp_job *j)
{
	uint64_t edge[3] = { r->half_start_ns, r->half_mid_ns, r->half_end_ns };

	for (int h = 0; h < 2; h++) {
		ios_buf_printf(out, "%s%.1f..%.1f s: ", h ? "; " : "", (double)edge[h] / 1e9,
			       (double)edge[h + 1] / 1e9);
		if (j->half_has_lat[h])
			ios_buf_printf(out, "clat mean %.3f ms, ", j->half_clat_mean_ns[h] / 1e6);
		ios_buf_printf(out, "%.0f KiB/s", j->half_bw_kib[h]);
	}
	ios_buf_puts(out, "\n");
}

/*
 * The early and late halves of each column's window (ios_cmp_run_halves):
 * one line per column and job whose mean clat or bandwidth differs between
 * them by more than IOS_CMP_HALVES_RATIO; with --seeds, in how many seeds,
 * and the first such seed's numbers.
 */
static int cc_halves_text(struct ios_buf *out, const struct ios_cmp_report *rep)
{
	size_t ns = rep->nr_seeds > 1 ? rep->nr_seeds : 1, nj = cc_nr_jobs(rep);
	bool any = false;

	for (size_t c = 0; c < rep->nr_runs; c++)
		for (size_t i = 0; i < nj; i++) {
			const struct ios_cmp_run *first = NULL;
			size_t hits = 0;

			for (size_t k = 0; k < ns; k++) {
				const struct ios_cmp_run *r = ns > 1 ? &rep->seed_runs[k][c]
								      : &rep->runs[c];

				if (r->has_halves && i < r->nr_jobs && r->jobs[i].halves_differ) {
					first = first ? first : r;
					hits++;
				}
			}
			if (!hits)
				continue;
			if (!any)
				ios_buf_printf(out, "\nearly and late halves differ (by more than %gx in "
					       "mean clat or bandwidth):\n", IOS_CMP_HALVES_RATIO);
			any = true;
			ios_buf_printf(out, "  %s, %s: ", first->label, first->jobs[i].name);
			if (ns > 1)
				ios_buf_printf(out, "in %zu of %zu seeds; seed %" PRIu64 ": ", hits, ns,
					       first->seed);
			cc_halves_line(out, first, &first->jobs[i]);
		}
	if (any)
		ios_buf_puts(out, "(the halves of the measured window, split at its middle: a "
			     "start-up effect or a trend,\nwhich the cells above average over; "
			     "--from TIME measures from TIME on)\n");
	return out->oom ? -ENOMEM : 0;
}

int ios_cmp_report_text(const struct ios_cmp_report *rep, struct ios_buf *out)
{
	static const char *const summary[] = {
		"  aggregate (KiB/s)", "  makespan (s)", "  clat mean (ms)", "  clat p50 (ms)",
		"  clat p99 (ms)", "  clat max (ms)", "  Jain's index (bw)", "  Jain's index (time)",
		"  min/max bw", "  finish spread",
	};
	static const enum cc_metric summary_m[] = {
		CC_AGG, CC_MAKESPAN, CC_ALL_LAT_MEAN, CC_ALL_LAT_P50, CC_ALL_LAT_P99, CC_ALL_LAT_MAX,
		CC_JAIN, CC_JAIN_TIME, CC_MINMAX, CC_SPREAD,
	};
	struct cc_layout lay = { 0 };
	size_t nj = cc_nr_jobs(rep);
	bool shares = rep->shares;

	if (!rep->nr_runs)
		return 0;
	lay.col_w = calloc(rep->nr_runs, sizeof(*lay.col_w));
	if (!lay.col_w)
		return -ENOMEM;
	lay.label_w = 20;
	for (size_t i = 0; i < nj; i++) {
		int w = 2 + (int)strlen(rep->runs[0].jobs[i].name);

		if (w > lay.label_w)
			lay.label_w = w;
	}
	for (size_t c = 0; c < rep->nr_runs; c++) {
		int w = (int)strlen(rep->runs[c].label);

		lay.col_w[c] = w > 9 ? w : 9;
		shares = shares || ios_cmp_jobs_differ(&rep->runs[c]);
		/* wide enough for every cell (a median with its range) */
		for (int m = 0; m < CC_NR_METRICS; m++)
			for (size_t i = 0; i < (m < CC_AGG ? nj : 1); i++) {
				char cell[128];

				cc_cell(rep, c, i, (enum cc_metric)m, cell, sizeof(cell));
				if ((int)strlen(cell) > lay.col_w[c])
					lay.col_w[c] = (int)strlen(cell);
			}
	}

	ios_buf_puts(out, "iosched compare:");
	for (size_t i = 0; i < rep->nr_jobfiles; i++)
		ios_buf_printf(out, " %s", rep->jobfiles[i]);
	if (rep->nr_seeds > 1)
		ios_buf_printf(out, "\ndevice %s, seeds %" PRIu64 "..%" PRIu64 " (%zu runs a column), "
			       "%zu job%s; each cell: the median over the seeds [lowest..highest]\n",
			       rep->runs[0].device, rep->seeds[0], rep->seeds[rep->nr_seeds - 1],
			       rep->nr_seeds, nj, nj == 1 ? "" : "s");
	else
		ios_buf_printf(out, "\ndevice %s, seed %" PRIu64 ", %zu job%s, the same jobs and seed "
			       "under each scheduler\n", rep->runs[0].device, rep->runs[0].seed, nj,
			       nj == 1 ? "" : "s");
	if (rep->runs[0].from_ns)
		ios_buf_printf(out, "measured from %.3f s (--from): bandwidth, aggregate and clat "
			       "count the I/O completed from then on; finish and disk time are "
			       "the whole run's\n",
			       (double)rep->runs[0].from_ns / 1e9);
	ios_buf_puts(out, "\n");
	ios_buf_printf(out, "%-*s", lay.label_w, "");
	for (size_t c = 0; c < rep->nr_runs; c++)
		ios_buf_printf(out, "  %*s", lay.col_w[c], rep->runs[c].label);
	ios_buf_puts(out, "\n");
	cc_job_block(out, rep, &lay, "bandwidth (KiB/s)", CC_BW);
	cc_job_block(out, rep, &lay, "finish (s)", CC_FINISH);
	cc_job_block(out, rep, &lay, "clat mean (ms)", CC_LAT_MEAN);
	cc_job_block(out, rep, &lay, "clat p50 (ms)", CC_LAT_P50);
	cc_job_block(out, rep, &lay, "clat p99 (ms)", CC_LAT_P99);
	cc_job_block(out, rep, &lay, "clat max (ms)", CC_LAT_MAX);
	cc_job_block(out, rep, &lay, "disk time, device share", CC_DEVICE_TIME);
	cc_job_block(out, rep, &lay, "disk time, charged share", CC_CHARGED_TIME);
	ios_buf_puts(out, "all jobs\n");
	for (size_t k = 0; k < IOS_ARRAY_SIZE(summary); k++)
		cc_row(out, rep, &lay, summary[k], 0, summary_m[k]);
	ios_buf_printf(out,
"\nbandwidth: a job's bytes over its I/O runtime; finish: %s.\n"
"clat: completion latency (fio's clat), reads and writes together; p50 and p99 from\n"
"fio's histogram. aggregate: all jobs' bytes / (last finish - first start). Jain's index is\n"
"over the per-job bandwidths, (sum bw)^2 / (n * sum bw^2): 1 when all jobs got the same\n"
"bandwidth, 1/n when one job got everything. min/max bw: the slowest job's bandwidth\n"
"over the fastest's. finish spread: (max - min) / max of the jobs' finish times.\n"
"disk time: device share splits the device's busy time among the requests in it;\n"
"charged share is what the scheduler charged each process's own queue (CFQ's slices\n"
"with their idling, BFQ's time in service; '-' under a scheduler that charges none).\n"
"Jain's index (time) is over the device shares.\n",
		       rep->real ? "when it ended, in real time" : "the simulated time it ended");
	if (cc_halves_text(out, rep)) {
		free(lay.col_w);
		return -ENOMEM;
	}
	if (shares) {
		ios_buf_puts(out,
"\nShares (Jeff Moyer's table): ideal = total transferred * the job's share under the\n"
"scheduler's weights; ideal and xferred in KiB; %diff = xferred * 100 / ideal - 100 in\n"
"integer arithmetic, as in his table; '-' where the model gives the job nothing.\n");
		for (size_t c = 0; c < rep->nr_runs; c++) {
			if (cc_shares_text(out, &rep->runs[c])) {
				free(lay.col_w);
				return -ENOMEM;
			}
		}
	}
	free(lay.col_w);
	return out->oom ? -ENOMEM : 0;
}

/* ---- JSON ---- */

static void cc_js_opt_u64(struct ios_jw *w, const char *key, bool has, uint64_t v)
{
	if (has)
		ios_jw_u64(w, key, v);
	else
		ios_jw_null(w, key);
}

static int cc_js_run(struct ios_jw *w, const struct ios_cmp_run *r, bool shares)
{
	struct ios_share_row *rows = calloc(r->nr_jobs + 1, sizeof(*rows));
	uint64_t total;
	double prio;
	char model[512];

	if (!rows)
		return -ENOMEM;
	ios_cmp_share_rows(r, rows, &total, &prio);
	ios_jw_open(w, NULL, '{');
	ios_jw_str(w, "label", r->label);
	ios_jw_str(w, "scheduler", r->scheduler);
	ios_jw_u64(w, "seed", r->seed);
	ios_jw_u64(w, "sim_end_ns", r->sim_end_ns);
	ios_jw_u64(w, "from_ns", r->from_ns);
	if (r->has_halves) {
		ios_jw_u64(w, "half_start_ns", r->half_start_ns);
		ios_jw_u64(w, "half_mid_ns", r->half_mid_ns);
		ios_jw_u64(w, "half_end_ns", r->half_end_ns);
	}
	ios_jw_open(w, "jobs", '[');
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_cmp_job *j = &r->jobs[i];

		ios_jw_open(w, NULL, '{');
		ios_jw_str(w, "name", j->name);
		ios_jw_str(w, "class", cc_class_name(j->ioprio_class));
		ios_jw_int(w, "prio", j->ioprio_level);
		ios_jw_str(w, "cgroup", j->cgroup);
		ios_jw_u64(w, "cgroup_weight", j->cgroup_weight);
		ios_jw_u64(w, "bytes", j->bytes);
		ios_jw_u64(w, "runtime_ns", j->runtime_ns);
		ios_jw_dbl(w, "bw_kib", j->bw_kib);
		ios_jw_u64(w, "start_ns", j->start_ns);
		ios_jw_u64(w, "finish_ns", j->finish_ns);
		cc_js_opt_u64(w, "clat_max_ns", j->has_lat, j->clat_max_ns);
		cc_js_opt_u64(w, "clat_p99_ns", j->has_p99, j->clat_p99_ns);
		ios_jw_dbl(w, "clat_mean_ns", j->has_lat ? j->clat_mean_ns : NAN);
		cc_js_opt_u64(w, "clat_p50_ns", j->has_p99, j->clat_p50_ns);
		if (r->has_halves) {
			ios_jw_open(w, "halves", '{');
			ios_jw_dbl(w, "early_clat_mean_ns", j->half_has_lat[0] ? j->half_clat_mean_ns[0] : NAN);
			ios_jw_dbl(w, "late_clat_mean_ns", j->half_has_lat[1] ? j->half_clat_mean_ns[1] : NAN);
			ios_jw_dbl(w, "early_bw_kib", j->half_bw_kib[0]);
			ios_jw_dbl(w, "late_bw_kib", j->half_bw_kib[1]);
			ios_jw_bool(w, "differ", j->halves_differ);
			ios_jw_close(w, '}');
		}
		ios_jw_dbl(w, "weight", j->weight);
		ios_jw_dbl(w, "group_weight", j->group_weight);
		ios_jw_dbl(w, "ideal_share", j->share);
		/* disk time: charged by the scheduler (null when it charges none), device share */
		cc_js_opt_u64(w, "disk_time_ns", r->charges_time, j->disk_time_ns);
		ios_jw_u64(w, "device_time_ns", j->device_time_ns);
		ios_jw_dbl(w, "device_time_share", j->device_frac);
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, ']');
	ios_jw_open(w, "all_jobs", '{');
	ios_jw_u64(w, "bytes", r->total_bytes);
	ios_jw_dbl(w, "aggregate_kib", r->agg_kib);
	ios_jw_u64(w, "makespan_ns", r->last_finish_ns - r->first_start_ns);
	cc_js_opt_u64(w, "clat_max_ns", r->has_lat, r->clat_max_ns);
	cc_js_opt_u64(w, "clat_p99_ns", r->has_p99, r->clat_p99_ns);
	ios_jw_dbl(w, "clat_mean_ns", r->has_lat ? r->clat_mean_ns : NAN);
	cc_js_opt_u64(w, "clat_p50_ns", r->has_p99, r->clat_p50_ns);
	ios_jw_dbl(w, "jain_index_bw", r->jain_bw);
	ios_jw_dbl(w, "jain_index_device_time", r->jain_time);
	ios_jw_u64(w, "device_time_ns", r->total_device_ns);
	ios_jw_dbl(w, "min_max_bw", r->min_max_bw);
	ios_jw_dbl(w, "finish_spread", r->finish_spread);
	ios_jw_close(w, '}');
	if (shares) {
		ios_share_describe(&r->share, model, sizeof(model));
		ios_jw_open(w, "shares", '{');
		ios_jw_str(w, "model", model);
		ios_jw_dbl(w, "total_priority", prio);
		ios_jw_u64(w, "total_kib", total);
		ios_jw_open(w, "rows", '[');
		for (size_t i = 0; i < r->nr_jobs; i++) {
			ios_jw_open(w, NULL, '{');
			ios_jw_str(w, "job", r->jobs[i].name);
			ios_jw_str(w, "class", cc_class_name(r->jobs[i].ioprio_class));
			ios_jw_int(w, "prio", r->jobs[i].ioprio_level);
			if (rows[i].has_ideal)
				ios_jw_u64(w, "ideal_kib", rows[i].ideal_kib);
			else
				ios_jw_str(w, "ideal_kib", NULL);	/* no control */
			ios_jw_u64(w, "xferred_kib", rows[i].xferred_kib);
			ios_jw_dbl(w, "ideal_device_ms", (double)(r->total_device_ns / IOS_NSEC_PER_MSEC) *
				   r->jobs[i].share);
			ios_jw_u64(w, "device_ms", r->jobs[i].device_time_ns / IOS_NSEC_PER_MSEC);
			if (rows[i].has_diff) {
				ios_jw_int(w, "diff_pct", rows[i].diff_pct);
				ios_jw_dbl(w, "diff_pct_exact", rows[i].exact_diff_pct);
			} else {
				ios_jw_str(w, "diff_pct", NULL);
				ios_jw_str(w, "diff_pct_exact", NULL);
			}
			ios_jw_close(w, '}');
		}
		ios_jw_close(w, ']');
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, '}');
	free(rows);
	return 0;
}

int ios_cmp_report_json(const struct ios_cmp_report *rep, struct ios_buf *out)
{
	struct ios_jw w;
	bool shares = rep->shares;

	for (size_t c = 0; c < rep->nr_runs; c++)
		shares = shares || ios_cmp_jobs_differ(&rep->runs[c]);
	ios_jw_init(&w, out);
	ios_jw_open(&w, NULL, '{');
	ios_jw_open(&w, "iosched_compare", '{');
	ios_jw_str(&w, "version", IOS_VERSION_STRING);
	ios_jw_open(&w, "jobfiles", '[');
	for (size_t i = 0; i < rep->nr_jobfiles; i++)
		ios_jw_str(&w, NULL, rep->jobfiles[i]);
	ios_jw_close(&w, ']');
	ios_jw_str(&w, "device", rep->nr_runs ? rep->runs[0].device : NULL);
	ios_jw_u64(&w, "seed", rep->nr_runs ? rep->runs[0].seed : 0);
	ios_jw_str(&w, "bandwidth_unit", "KiB/s");
	ios_jw_str(&w, "jain_index_over", "per-job bandwidth (bytes / I/O runtime)");
	ios_jw_str(&w, "jain_index_device_time_over", "per-job share of the device's busy time");
	ios_jw_str(&w, "finish_spread_def", "(max - min) / max of the jobs' finish times");
	/* --seeds: each seed's columns, in seed order (a reader takes the medians) */
	for (size_t k = 0; k < (rep->nr_seeds > 1 ? rep->nr_seeds : 1); k++) {
		const struct ios_cmp_run *runs = rep->nr_seeds > 1 ? rep->seed_runs[k] : rep->runs;

		if (rep->nr_seeds > 1 && !k)
			ios_jw_open(&w, "by_seed", '[');
		if (rep->nr_seeds > 1) {
			ios_jw_open(&w, NULL, '{');
			ios_jw_u64(&w, "seed", rep->seeds[k]);
		}
		ios_jw_open(&w, "runs", '[');
		for (size_t c = 0; c < rep->nr_runs; c++)
			if (cc_js_run(&w, &runs[c], shares))
				return -ENOMEM;
		ios_jw_close(&w, ']');
		if (rep->nr_seeds > 1)
			ios_jw_close(&w, '}');
	}
	if (rep->nr_seeds > 1)
		ios_jw_close(&w, ']');
	ios_jw_close(&w, '}');
	ios_jw_close(&w, '}');
	ios_buf_puts(out, "\n");
	return out->oom ? -ENOMEM : 0;
}
