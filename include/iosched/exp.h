/*
 * Experiments: many whole runs of the one runner (ios_run), planned, run
 * on worker threads and handed back in a fixed order, so that `iosched
 * compare`, `iosched repro` and any program linking the library get the
 * same numbers from the same calls.
 *
 * The vocabulary stays where it was, because the report writers
 * (src/report/) read it too: compare.h declares the metrics, one run's
 * compare numbers (struct ios_cmp_run) and the columns; repro.h the seed
 * experiments' table, one run's reproduction result and the verdicts.
 * This header adds what turns those into experiments (src/exp/):
 *
 *  - a pool of worker threads (pool.c) that runs tasks 0..nr-1 and keeps
 *    the first failure in task order, whatever the number of workers;
 *  - compare (compare.c): one job set under every column, the results in
 *    column order;
 *  - repro (repro_plan.c): every run of the chosen seed experiments
 *    (column x seed, and the first job alone where one needs it), the
 *    results in the table's order, ready for ios_repro_evaluate() and the
 *    writers.
 *
 * Nothing here prints. A caller that draws a progress line passes an
 * ios_exp_progress_fn; wall time only paces those calls and never reaches
 * a result, so the results are the same bytes for any number of workers.
 */
#ifndef IOSCHED_EXP_H
#define IOSCHED_EXP_H

#include <stdbool.h>
#include <stddef.h>
#include "compare.h"
#include "err.h"
#include "progress.h"
#include "repro.h"
#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the worker pool ---- */

#define IOS_EXP_MAX_WORKERS 256

/*
 * The running tasks' progress, for a progress line: called from the
 * waiting thread (never a worker) about every 100 ms of wall time while
 * tasks run, with up to 8 running tasks in task order, how many tasks are
 * done and how many there are.
 */
typedef void (*ios_exp_progress_fn)(void *arg, const struct ios_progress_item *items, size_t n,
				    unsigned done, unsigned total);

/* How a command's runs are spread: shared by compare and repro. */
struct ios_exp_opts {
	long workers;			/* threads; < 1: one */
	ios_exp_progress_fn progress;	/* NULL: no progress collected */
	void *progress_arg;
};

/*
 * Tasks 0..nr-1, handed out in order. @fn does task @idx (one or more
 * whole runs), passes @prog/@prog_arg on as its runs'
 * ios_run_config.progress (NULL when no progress is collected) and returns
 * 0, or non-zero on failure. @label names a running task for the progress
 * line (may be NULL).
 */
struct ios_exp_pool {
	size_t nr;
	int (*fn)(void *arg, size_t idx, ios_run_progress_fn prog, void *prog_arg);
	const char *(*label)(void *arg, size_t idx);
	void *arg;
};

/*
 * Run every task of @p on up to o->workers threads. After a failure the
 * tasks past it are skipped; *first_failed gets the lowest failed task
 * (p->nr: none), the same for any number of workers. 0, or -ENOMEM
 * (nothing ran).
 */
int ios_exp_pool_run(const struct ios_exp_pool *p, const struct ios_exp_opts *o,
		     size_t *first_failed) IOS_MUST_CHECK;

/* ---- compare: one job set under every column ---- */

/*
 * Refuse a job set whose jobs would write logs (write_bw_log,
 * write_lat_log, write_iops_log, write_iolog) that the columns, running
 * at once, would write over each other: -EINVAL with @e naming the job
 * file, line, job and option.
 */
int ios_cmp_check_jobs(const struct ios_jobfile *jf, struct ios_err *e) IOS_MUST_CHECK;

/* What a column's run leaves besides its compare numbers. */
struct ios_cmp_extra {
	struct ios_series *series;	/* with base->record_series (for a plot) */
	struct ios_iocost_log *iocost;	/* the same: io.cost's monitor, its plot panel; NULL: none */
	char **warnings;		/* what the run ignored (ios_run_result.warnings) */
	size_t nr_warnings;
};

struct ios_cmp_results {
	size_t nr;			/* the columns */
	struct ios_cmp_run *runs;	/* [nr], in column order: struct ios_cmp_report's runs */
	struct ios_cmp_extra *extra;	/* [nr] */
	size_t failed;			/* the first column that failed; nr: none */
	int ret;			/* its return value */
	struct ios_err err;		/* its error */
};

/*
 * Run @jf under each of @nr columns with @base's device, seed and
 * settings (a column's own settings replace base->settings; its
 * scheduler, base->scheduler), on o->workers threads. 0; -ENOMEM when
 * nothing could run (out->failed == nr); or a column's error, with
 * out->failed, ret and err saying which and why. Free @out with
 * ios_cmp_results_free() in every case.
 */
int ios_cmp_run_all(const struct ios_jobfile *jf, const struct ios_run_config *base,
		    const struct ios_cmp_column *cols, size_t nr, const struct ios_exp_opts *o,
		    struct ios_cmp_results *out) IOS_MUST_CHECK;
void ios_cmp_results_free(struct ios_cmp_results *r);

/*
 * compare --seeds: ios_cmp_run_all() once per seed @seeds[0..n), base->seed
 * replaced, into @out[0..n) (each freed with ios_cmp_results_free, whatever
 * the return). Stops at the first seed that fails: its error, and
 * *failed_seed its index; 0 when all ran.
 */
int ios_cmp_run_seeds(const struct ios_jobfile *jf, const struct ios_run_config *base,
		      const struct ios_cmp_column *cols, size_t nr, const uint64_t *seeds,
		      size_t n, const struct ios_exp_opts *o, struct ios_cmp_results *out,
		      size_t *failed_seed) IOS_MUST_CHECK;
/*
 * Parse --seeds: "A-B" (A <= B), "A" or "A,B,C"; at most IOS_CMP_MAX_SEEDS,
 * no seed twice. 0, or -EINVAL with @e saying what is wrong.
 */
int ios_cmp_seeds_parse(const char *s, uint64_t *seeds, size_t *n,
			struct ios_err *e) IOS_MUST_CHECK;
/*
 * Parse --from: a number of seconds ("10", "2.5") or with a unit ("10s",
 * "500ms", "250us", "1m"); above 0 and at most a day. 0, or -EINVAL.
 */
int ios_cmp_from_parse(const char *s, uint64_t *ns, struct ios_err *e) IOS_MUST_CHECK;

/* ---- repro: the seed experiments ---- */

/*
 * One experiment's runs. The caller fills x, jf, base and args (the job
 * file parsed with the options of its .args file); ios_repro_prepare()
 * the rest, ios_repro_run_all() the results.
 */
struct ios_repro_set {
	const struct ios_repro_exp *x;
	const struct ios_jobfile *jf;
	const struct ios_run_config *base;	/* device and settings; seed and series per run */
	const char *args;			/* the options as the report quotes them ("": none) */
	struct ios_cmp_column *cols;		/* x->columns, parsed and checked */
	size_t nr_cols;
	unsigned nr_seeds;			/* seeds 1..nr_seeds */
	size_t alone_col;			/* with x->alone: x->alone_column's index */
	struct ios_repro_result *res;		/* [col * nr_seeds + seed - 1] */
	struct ios_repro_result *alone;		/* [seed - 1], with x->alone */
};

/*
 * Check @s's columns as `iosched compare` checks them (against
 * base->settings and base->device), take the seeds (@quick: one) and make
 * room for the results. Nothing runs. -errno with @e set (the columns'
 * message as ios_cmp_columns_parse words it).
 */
int ios_repro_prepare(struct ios_repro_set *s, bool quick, struct ios_err *e) IOS_MUST_CHECK;
void ios_repro_set_free(struct ios_repro_set *s);

/* The run that failed first, in the order the runs are planned. */
struct ios_repro_failure {
	const struct ios_repro_set *set;	/* NULL: none */
	char label[160];			/* "a1 cfq:fairness=1 s3", "a1 alone s2" */
	struct ios_err err;
};

/*
 * Every run of the @n prepared experiments (in order: each experiment's
 * columns, each with its seeds, then its first job alone per seed) on
 * o->workers threads, into each set's res and alone; seed 1 of each column
 * records series for the plot. 0; -ENOMEM when nothing could run
 * (fail->set NULL); or the first failed run's error, in @fail.
 */
int ios_repro_run_all(struct ios_repro_set *sets, size_t n, const struct ios_exp_opts *o,
		      struct ios_repro_failure *fail) IOS_MUST_CHECK;
/* The report's view of a finished set (pointers into @s). */
void ios_repro_set_data(const struct ios_repro_set *s, struct ios_repro_data *d);

#ifdef __cplusplus
}
#endif

#endif
