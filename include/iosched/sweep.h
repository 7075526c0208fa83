/*
 * Sweeps: a parameter grid as independent runs (docs/sweep.md).
 *
 * A grid file names job files, scheduler columns (compare's
 * SCHED:NAME=VALUE syntax), devices, --set axes and seeds. Planning expands
 * it into a manifest: N numbered tasks, each a complete `iosched run`
 * argument list over inputs named by their SHA-256, and the manifest's own
 * SHA-256. A task's result file carries that hash, its task number, the
 * run's summary metrics (compare's, struct ios_cmp_run) and the run's JSON
 * report; the merge reads the metrics of the results whose hash is the
 * plan's and prints, per point (a task without its seed), the median and
 * range over the seeds.
 *
 * The library parses and writes text only; the command (cli/cmd_sweep.c)
 * reads and writes the files. Errors name the file and line.
 */
#ifndef IOSCHED_SWEEP_H
#define IOSCHED_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "sha256.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* no plan larger: its manifest alone would be hundreds of MB */
#define IOS_SWEEP_MAX_TASKS 1000000u
#define IOS_SWEEP_MANIFEST_MAGIC "iosched sweep manifest 1"

/* One value list of the grid: "schedulers = a, b" or "set NAME = a, b". */
struct ios_sweep_axis {
	char *name;			/* "scheduler", "device", "seed" or a --set NAME */
	char **vals;
	size_t n;
	unsigned line;			/* 0: not in the grid (the run's default) */
};

/* One "job = FILE..." line: files run together, one value of the job axis. */
struct ios_sweep_jobset {
	char **files;			/* as written in the grid */
	char **inputs;			/* "inputs/SHA256.fio", filled by the planner */
	size_t n;
	unsigned line;
};

struct ios_sweep_grid {
	char *path;			/* for messages */
	struct ios_sweep_jobset *jobs;
	size_t nr_jobs;
	struct ios_sweep_axis sched, device, seed;
	struct ios_sweep_axis *sets;	/* in grid order */
	size_t nr_sets;
	size_t nr_tasks;		/* jobs x devices x schedulers x sets x seeds */
};

/*
 * Parse grid @text (@len bytes, from @path) and check every column, device
 * and setting as compare does (ios_cmp_columns_parse), before anything is
 * copied or run. Reads no file. 0, or -EINVAL/-ENOMEM with @e saying
 * "PATH:LINE: ..." (@g then holds nothing).
 */
int ios_sweep_grid_parse(const char *path, const char *text, size_t len,
			 struct ios_sweep_grid *g, struct ios_err *e) IOS_MUST_CHECK;
void ios_sweep_grid_free(struct ios_sweep_grid *g);
/*
 * The manifest of @g (every jobset's inputs[] filled), @grid_sha the grid
 * text's hash. Tasks are numbered job-major, then device, scheduler, the
 * set axes in grid order, seed innermost; point = task / seeds. 0 or -ENOMEM.
 */
int ios_sweep_manifest_write(const struct ios_sweep_grid *g, const char *grid_sha,
			     struct ios_buf *out) IOS_MUST_CHECK;

struct ios_sweep_task {
	size_t point;
	char *seed;			/* "1", or "-" (the run's default) */
	char *label;			/* the point: "job=a.fio scheduler=cfq slice_idle=0" */
	char **argv;			/* "run", ...: relative to the sweep directory */
	size_t argc;
};

struct ios_sweep_manifest {
	char sha[IOS_SHA256_HEX];	/* of the manifest's bytes */
	struct ios_sweep_task *tasks;
	size_t nr_tasks, nr_points;
};

/* Parse a manifest; errors "PATH:LINE: ...". 0, -EINVAL or -ENOMEM. */
int ios_sweep_manifest_parse(const char *path, const char *text, size_t len,
			     struct ios_sweep_manifest *m, struct ios_err *e) IOS_MUST_CHECK;
void ios_sweep_manifest_free(struct ios_sweep_manifest *m);
/*
 * For one task's run: the manifest's head, and only task @task's line
 * (@task as ios_sweep_task_number takes it, *k its number); the other
 * lines are counted, not parsed, so a task's start-up does not grow with
 * the plan (a 10,000-task manifest parsed whole costs a task ~80 ms of
 * CPU). @m->tasks has nr_tasks entries, only [*k] filled; @m->sha is left
 * empty: the caller fills it (the whole text's SHA-256 would cost O(plan)
 * per task; `sweep run` takes it from the plan's stamp, docs/sweep.md).
 * 0, -EINVAL, -ERANGE or -ENOMEM with @e as above.
 */
int ios_sweep_manifest_parse_task(const char *path, const char *text, size_t len,
				  const char *task, const char *what, size_t *k,
				  struct ios_sweep_manifest *m, struct ios_err *e) IOS_MUST_CHECK;
/* "12" -> 12 when below @m's task count; else -ERANGE/-EINVAL with @e naming the range. */
int ios_sweep_task_number(const struct ios_sweep_manifest *m, const char *s, const char *what,
			  size_t *k, struct ios_err *e) IOS_MUST_CHECK;

/* The metrics a result carries (compare's summary of the run). */
enum {
	IOS_SWEEP_M_AGG_KIB,		/* aggregate bandwidth, KiB/s */
	IOS_SWEEP_M_JAIN_BW,		/* Jain's index over the jobs' bandwidths */
	IOS_SWEEP_M_MIN_MAX_BW,		/* slowest job's bandwidth / fastest's */
	IOS_SWEEP_M_FINISH_S,		/* the last job's finish, s */
	IOS_SWEEP_M_SPREAD,		/* finish spread (max - min) / max */
	IOS_SWEEP_M_CLAT_MAX_MS,	/* the largest completion latency, ms */
	IOS_SWEEP_M_CLAT_P99_MS,	/* the largest per-job p99, ms */
	IOS_SWEEP_NR_METRICS
};
extern const char *const ios_sweep_metric_names[IOS_SWEEP_NR_METRICS];
/* the text table's headings ("aggregate (KiB/s)") and printf formats ("%.1f") */
extern const char *const ios_sweep_metric_titles[IOS_SWEEP_NR_METRICS];
extern const char *const ios_sweep_metric_fmts[IOS_SWEEP_NR_METRICS];

struct ios_cmp_run;
/*
 * Task @k's result file: its header (manifest hash, task), @cr's metrics,
 * then @report (the run's JSON report, as `iosched run --output-format
 * json` prints it). 0 or -ENOMEM.
 */
int ios_sweep_result_write(const struct ios_sweep_manifest *m, size_t k,
			   const struct ios_cmp_run *cr, const char *report,
			   struct ios_buf *out) IOS_MUST_CHECK;
/*
 * Read a result file's header and metrics. The manifest hash is checked
 * first: a result of another plan is -ESTALE and nothing more of it is
 * read. 0, -EINVAL (does not parse: "PATH:LINE: ...") or -ESTALE.
 */
int ios_sweep_result_parse(const struct ios_sweep_manifest *m, const char *path,
			   const char *text, size_t len, size_t *k, double *metrics,
			   struct ios_err *e) IOS_MUST_CHECK;

enum ios_sweep_state { IOS_SWEEP_MISSING, IOS_SWEEP_DONE, IOS_SWEEP_FAILED };

/*
 * The merged table: per point, per metric, the median and [min, max] over
 * the seeds done; the tasks missing and failed listed. @metrics holds
 * nr_tasks rows of IOS_SWEEP_NR_METRICS (read only where @state is DONE).
 * Text, or JSON with @json. 0 or -ENOMEM.
 */
int ios_sweep_merge(const struct ios_sweep_manifest *m, const double *metrics,
		    const unsigned char *state, bool json, struct ios_buf *out) IOS_MUST_CHECK;

/*
 * The interval for the median of @n values: the order statistics
 * x(k)..x(n+1-k) (1-based, sorted) contain the population median with
 * probability 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), whatever the
 * distribution (continuous). *k is the largest k whose coverage is at least
 * 95 %, or 1 (the range) when even that is below (n = 5: 93.75 %); *coverage
 * is the exact coverage of that k. 0, or -EDOM below IOS_SWEEP_CI_MIN_N.
 */
#define IOS_SWEEP_CI_MIN_N 5
int ios_sweep_median_ci(size_t n, size_t *k, double *coverage);

/* One point's metric over its seeds done (the merge's cell). */
struct ios_sweep_cell {
	size_t n;			/* seeds done with a value */
	double med, lo, hi;		/* NAN when n is 0 */
	bool has_ci;			/* n >= IOS_SWEEP_CI_MIN_N */
	size_t ci_k;
	double ci_lo, ci_hi, ci_coverage;
};
/* @tmp: room for seeds-per-point doubles (reordered). */
void ios_sweep_cell_of(const struct ios_sweep_manifest *m, const double *metrics,
		       const unsigned char *state, size_t point, int metric, double *tmp,
		       struct ios_sweep_cell *c);
/* A metric's index by name, or -1. */
int ios_sweep_metric_find(const char *name);

/*
 * The axes of a manifest, read back from its points' labels ("job=a.fio
 * device=ssd scheduler=cfq slice_idle=0"): names in label order (job,
 * device when the grid has one, scheduler, the set axes), values in plan
 * order. Points are numbered in that order, the last axis fastest, so a
 * point is the mixed-radix number of its value indices (checked).
 */
struct ios_sweep_axes {
	size_t nr;
	char **names;
	char ***vals;
	size_t *nr_vals;
	size_t sched;			/* the index of "scheduler" */
};
int ios_sweep_axes_parse(const struct ios_sweep_manifest *m, struct ios_sweep_axes *a,
			 struct ios_err *e) IOS_MUST_CHECK;
void ios_sweep_axes_free(struct ios_sweep_axes *a);
/* "AXIS=VALUE" into @held[axis] (value index). 0, or -EINVAL naming the allowed. */
int ios_sweep_axes_hold(const struct ios_sweep_axes *a, const char *spec, size_t *held,
			struct ios_err *e) IOS_MUST_CHECK;
/* The point of the value indices @idx (one per axis). */
size_t ios_sweep_axes_point(const struct ios_sweep_axes *a, const size_t *idx);
/* Is @axis drawn on its own plot: not the scheduler (the lines), a job axis only with >1 values. */
bool ios_sweep_axes_plotted(const struct ios_sweep_axes *a, size_t axis);

/*
 * One SVG: @metric's median over the seeds (range bars) against @axis'
 * values, one line per scheduler column; the other axes held at
 * @held[]. A point with no seed done is a gap, named in the plot and
 * appended to @missing ("scheduler=cfq slice_idle=8; ..."). 0 or -ENOMEM.
 */
int ios_sweep_plot_svg(const struct ios_sweep_manifest *m, const struct ios_sweep_axes *a,
		       const double *metrics, const unsigned char *state, int metric,
		       size_t axis, const size_t *held, struct ios_buf *out,
		       struct ios_buf *missing) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif
#endif
