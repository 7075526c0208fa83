/*
 * Comparing schedulers: the numbers the seed threads argued with, computed
 * from finished runs, and the side-by-side report of `iosched compare`.
 *
 * Three layers, each usable alone (the seed reproduction report reuses the
 * first two):
 *
 *  1. Metrics on plain vectors: Jain's fairness index, the min/max ratio,
 *     the finish-time spread, and the "ideal" shares a scheduler's weights
 *     promise each job (Jeff Moyer's `class prio ideal xferred %diff`).
 *  2. struct ios_cmp_run: one run's per-job and summary metrics, taken
 *     from a struct ios_run_result (which can then be freed).
 *  3. Columns (`cfq:fairness=1`: a scheduler with its own tunables), checked
 *     before anything runs, and the text and JSON writers of the table.
 *
 * Layers 1 and 2 and the columns are the experiments module's (src/exp/
 * metrics.c, columns.c), the writers the report's (src/report/compare.c).
 * Nothing here runs a simulation or reads a clock; ios_cmp_run_all()
 * (exp.h) runs the columns in parallel and hands the results back in
 * column order, so the report depends only on the inputs.
 */
#ifndef IOSCHED_COMPARE_H
#define IOSCHED_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "sched.h"
#include "stats.h"
#include "tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. metrics on vectors ---- */

/*
 * Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when every x is equal,
 * 1/n when one element has everything. NaN when n is 0 or every x is 0.
 */
double ios_metric_jain(const double *x, size_t n);
/* min(x) / max(x); NaN when n is 0 or max(x) is 0. */
double ios_metric_min_max(const double *x, size_t n);
/* (max - min) / max of finish times; 0 when n is 0 or max is 0. */
double ios_metric_spread(const uint64_t *t, size_t n);
/*
 * The median of the finite values among @v[0..n) (NaNs dropped; @v is
 * reordered: the finite values first, sorted); NaN when none is finite.
 */
double ios_metric_median(double *v, size_t n);

/*
 * The promise of shares comes from the scheduler's descriptor
 * (enum ios_share_model in sched.h, field share_model).
 */
/*
 * Who divides the device between the cgroups of a column's run: the
 * scheduler's model, or a cgroup v2 controller the run's settings turned
 * on (ios_cmp_run_from_result reads them from the run's result).
 */
enum ios_share_ctl {
	IOS_SHARE_CTL_SCHED = 0,	/* the scheduler's share_model alone */
	/*
	 * io.cost enabled (io.cost.qos enable=1): a cgroup's ideal is its
	 * hweight_active (6.12 blk-iocost.c current_hweight: its io.weight
	 * over the sum of its active siblings', multiplied down from the
	 * root), its jobs split it by the scheduler's model; jobs in the root
	 * or in a group with active descendants are not charged: no ideal
	 */
	IOS_SHARE_CTL_IOCOST,
	/* io.weight written, io.cost off, a scheduler that reads no weight: no ideal */
	IOS_SHARE_CTL_NONE,
};

struct ios_share_params {
	enum ios_share_model model;
	uint64_t slice_ns;		/* CFQ models: slice_sync in effect */
	enum ios_share_ctl ctl;		/* 0: the scheduler's model */
};

/* A cgroup's io.weight for IOS_SHARE_CTL_IOCOST (a path as the jobs name it). */
struct ios_share_group {
	const char *path;		/* "a/b", no leading / (ios_cmp_run owns its copies) */
	unsigned weight;		/* io.weight; 0: never written (100) */
};

/* What the share model needs to know of a job. */
struct ios_share_job {
	int ioprio_class;		/* enum ios_ioprio_class, effective (1..3) */
	int ioprio_level;		/* 0..7 */
	const char *cgroup;		/* NULL or "": the root group */
	unsigned cgroup_weight;		/* 0: the scheduler's default */
};

/* The weight of one job's queue in @p's model (1 for IOS_SHARE_NONE). */
double ios_share_job_weight(const struct ios_share_params *p, int ioprio_class,
			    int ioprio_level);
/*
 * A cgroup's weight among its siblings in @p's model: for CFQ groups the
 * root group's too (1000); 0 where the model has no groups (and for BFQ's
 * root, whose queues compete with the cgroups one by one).
 * @cgroup_weight 0: the default.
 */
double ios_share_group_weight(const struct ios_share_params *p, const char *cgroup,
			      unsigned cgroup_weight);
/*
 * The ideal fraction of the total each of @n jobs should get under @p
 * (they sum to 1, jobs of a class a higher one shuts out get 0). Returns 0,
 * or -ENOMEM.
 */
int ios_share_ideal(const struct ios_share_params *p, const struct ios_share_job *jobs,
		    size_t n, double *frac) IOS_MUST_CHECK;
/*
 * The same with the cgroups' io.weight (@groups[0..ng), the rest 100),
 * which IOS_SHARE_CTL_IOCOST reads. A job without an ideal (no control)
 * gets NaN; the others sum to 1 (or all are NaN). 0 or -ENOMEM.
 */
int ios_share_ideal_tree(const struct ios_share_params *p, const struct ios_share_job *jobs,
			 size_t n, const struct ios_share_group *groups, size_t ng,
			 double *frac) IOS_MUST_CHECK;
/*
 * io.cost's hweight_active of @cgroup when the jobs' groups are the active
 * ones; NaN for the root, an inactive group, or one with active descendants.
 */
double ios_share_hweight(const struct ios_share_job *jobs, size_t n,
			 const struct ios_share_group *groups, size_t ng, const char *cgroup);
/*
 * The model a scheduler type follows, with slice_sync read from @tunables
 * (the scheduler's private area with defaults and settings applied; NULL:
 * the table's default).
 */
void ios_share_params_of(const struct ios_sched_type *st, const void *tunables,
			 struct ios_share_params *p);
/* One line saying where the ideal came from, e.g. for the report. */
void ios_share_describe(const struct ios_share_params *p, char *buf, size_t len);
/*
 * Jeff Moyer's %diff as his table prints it: xferred * 100 / ideal - 100
 * in integer arithmetic (124404 against 110908 gives 12, 98356 gives -12).
 */
long long ios_share_moyer_diff(uint64_t xferred, uint64_t ideal);

/* ---- 2. one run's metrics ---- */

struct ios_cmp_job {
	char *name;
	int ioprio_class, ioprio_level;
	char *cgroup;			/* NULL: the root group */
	unsigned cgroup_weight;
	uint64_t bytes;			/* read + write + trim */
	uint64_t start_ns, finish_ns;	/* simulated, from the run's start */
	uint64_t runtime_ns;		/* longest per-direction runtime */
	double bw_kib;			/* bytes / runtime, KiB/s */
	uint64_t clat_max_ns;		/* valid with has_lat */
	double clat_mean_ns;		/* valid with has_lat */
	uint64_t clat_p99_ns;		/* valid with has_p99 */
	uint64_t clat_p50_ns;		/* valid with has_p99 (the same histogram) */
	bool has_lat, has_p99;
	/*
	 * The early and late halves of the measured window (ios_cmp_run_halves):
	 * mean clat (valid with half_has_lat) and bandwidth in each; halves_differ
	 * when one of the two differs by more than IOS_CMP_HALVES_RATIO.
	 */
	double half_clat_mean_ns[2], half_bw_kib[2];
	bool half_has_lat[2], halves_differ;
	double weight;			/* the job's queue weight in the share model */
	double group_weight;		/* its cgroup's (ios_share_group_weight; io.weight under io.cost) */
	double share;			/* ideal fraction of the total; NaN: no control */
	double group_share;		/* IOS_SHARE_CTL_IOCOST: its cgroup's hweight_active */
	/* disk time (ios_job_result): charged by the scheduler, the device's share */
	uint64_t disk_time_ns, device_time_ns;
	double device_frac, charged_frac;	/* of the jobs' totals */
};

struct ios_cmp_run {
	char *label;			/* the column as the user wrote it */
	char scheduler[64];		/* the scheduler's primary name */
	char device[64];
	uint64_t seed;
	uint64_t sim_end_ns;
	struct ios_share_params share;
	struct ios_cmp_job *jobs;
	size_t nr_jobs;
	struct ios_share_group *groups;	/* the run's cgroups with their io.weight */
	size_t nr_groups;
	/* summary over all jobs */
	uint64_t total_bytes;
	uint64_t first_start_ns, last_finish_ns;
	double agg_kib;			/* total_bytes / (last finish - first start), KiB/s */
	double jain_bw;			/* Jain's index over the jobs' bw_kib */
	bool charges_time;		/* the scheduler charges processes (disk_time_ns) */
	uint64_t total_device_ns, total_charged_ns;
	double jain_time;		/* Jain's index over the jobs' device_time_ns */
	double min_max_bw;		/* slowest job's bw_kib / fastest's */
	double finish_spread;		/* (max - min) / max finish_ns */
	uint64_t clat_max_ns, clat_p99_ns, clat_p50_ns;
	double clat_mean_ns;
	bool has_lat, has_p99;
	/* the measured window: completions at or after from_ns (0: the whole run) */
	uint64_t from_ns;
	/* ios_cmp_run_halves: [half_start, half_mid) and [half_mid, half_end] */
	bool has_halves;
	uint64_t half_start_ns, half_mid_ns, half_end_ns;
};

/* compare --seeds: at most this many seeds in one table */
#define IOS_CMP_MAX_SEEDS 64

/* Early and late halves "differ widely" when one's value is above this times the other's. */
#define IOS_CMP_HALVES_RATIO 2.0

/*
 * Fill @cr from a finished run (@r may be freed afterwards). @label NULL:
 * the scheduler's name. Returns 0 or -ENOMEM (then @cr holds nothing).
 */
int ios_cmp_run_from_result(struct ios_cmp_run *cr, const char *label,
			    const struct ios_share_params *sp,
			    const struct ios_run_result *r) IOS_MUST_CHECK;
/*
 * Measure @cr on the window of @r (ios_run_config.window_from_ns = @from_ns,
 * after ios_cmp_run_from_result): each job's bytes, bandwidth and clat
 * become those of its completions at or after @from_ns, its runtime
 * finish - max(@from_ns, its start + ramp_time); finish and disk time stay
 * the whole run's. 0 or -ENOMEM.
 */
int ios_cmp_run_window(struct ios_cmp_run *cr, const struct ios_run_result *r,
		       uint64_t from_ns) IOS_MUST_CHECK;
struct ios_series;
/*
 * The early and late halves of the window [max(cr->from_ns, first
 * completion), the last completion] from @s (recorded with the run, one
 * series job per cmp job, clat per bucket): the split falls on the bucket
 * edge nearest the middle. Sets has_halves (false when the window holds
 * fewer than two buckets) and each job's half_* and halves_differ.
 */
void ios_cmp_run_halves(struct ios_cmp_run *cr, const struct ios_series *s);
/* Recompute the summary and the shares from cr->jobs (after editing them). */
int ios_cmp_run_summarise(struct ios_cmp_run *cr) IOS_MUST_CHECK;
void ios_cmp_run_free(struct ios_cmp_run *cr);
/* Do the jobs differ in ioprio class, level or cgroup? */
bool ios_cmp_jobs_differ(const struct ios_cmp_run *cr);

/* One row of Jeff Moyer's table, in KiB as his numbers are. */
struct ios_share_row {
	uint64_t ideal_kib;		/* floor(total_kib * share) */
	uint64_t xferred_kib;		/* the job's bytes / 1024 */
	long long diff_pct;		/* ios_share_moyer_diff(); valid with has_diff */
	bool has_diff;			/* false when the ideal is 0 */
	bool has_ideal;			/* false: no control (share NaN), ideal_kib 0 */
	double exact_diff_pct;		/* 100 * (xferred - ideal) / ideal, unrounded */
};

/*
 * The table of @cr: @rows gets cr->nr_jobs rows; *total_kib the sum of
 * xferred ("total data transferred"), *total_priority the sum of the jobs'
 * weights ("total priority"; in ms of slice for the CFQ models). The
 * ideals share the xferred of the jobs that have one (all of them, unless
 * some are under no control).
 */
void ios_cmp_share_rows(const struct ios_cmp_run *cr, struct ios_share_row *rows,
			uint64_t *total_kib, double *total_priority);

/* ---- 3. columns and the report ---- */

struct ios_cmp_column {
	char *label;			/* "cfq:fairness=1" */
	const struct ios_sched_type *sched;
	struct ios_settings settings;	/* for this column's run: --set ones, then its own */
	struct ios_share_params share;	/* with this column's slice_sync */
};

/*
 * Parse a --schedulers list ("noop,deadline,cfq:fairness=1:slice_idle=0";
 * NULL: every registered scheduler by its primary name) and check every
 * column before anything runs: the scheduler exists, each NAME=VALUE of its
 * suffix is one of its tunables (or a queue./device./vm./lab. one) and in
 * range, and the same for @global (the --set settings). A bare --set NAME
 * goes to the columns whose scheduler has that tunable; one that no column
 * has is an error. @device is the --device profile (NULL: the default).
 * Errors name the column, the scheduler, the tunable and its range.
 */
int ios_cmp_columns_parse(const char *list, const struct ios_settings *global,
			  const char *device, struct ios_cmp_column **cols, size_t *nr,
			  struct ios_err *e) IOS_MUST_CHECK;
void ios_cmp_columns_free(struct ios_cmp_column *cols, size_t nr);

struct ios_cmp_report {
	const char *const *jobfiles;	/* as given on the command line */
	size_t nr_jobfiles;
	const struct ios_cmp_run *runs;	/* one per column, in column order */
	size_t nr_runs;
	bool shares;			/* share tables even when no job differs */
	bool real;			/* the columns ran on the real disk (--real) */
	/*
	 * --seeds: runs[] is the first seed's columns; seed_runs[k][c] is seed
	 * @seeds[k]'s column c (k < nr_seeds). nr_seeds <= 1: runs[] alone.
	 * Each cell then prints the median over the seeds and their range.
	 */
	const struct ios_cmp_run *const *seed_runs;
	const uint64_t *seeds;
	size_t nr_seeds;
};

/* The table as text, and the same data as JSON. 0 or -ENOMEM. */
int ios_cmp_report_text(const struct ios_cmp_report *rep, struct ios_buf *out) IOS_MUST_CHECK;
int ios_cmp_report_json(const struct ios_cmp_report *rep, struct ios_buf *out) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
