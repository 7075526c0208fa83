/*
 * The seed reproduction report (`iosched repro`, `make seeds`): each
 * experiment of seed-scenarios.md run under the schedulers it has expectations
 * for, its numbers beside the ones its thread posted, and its pass
 * criteria evaluated per scheduler.
 *
 * The experiments are a table (ios_repro_experiments[], repro_table.c):
 * the job file, the columns (iosched compare's syntax, "cfq:fairness=1"),
 * how many seeds, the thread's numbers as it posted them, and the criteria
 * as checks of one measure of one column against bounds. Everything else
 * is generic code over that table:
 *
 *  - ios_repro_run() does one run of an experiment (a column and a seed)
 *    and keeps what the report needs (struct ios_repro_result);
 *  - ios_repro_evaluate() computes every check's measure per seed, takes
 *    the median over the seeds (seed-scenarios.md §5), and the same measure on
 *    the thread's numbers where they allow it;
 *  - the writers turn the results into Markdown, JSON, a short text
 *    summary and one SVG plot per experiment.
 *
 * The table, the runs and the evaluation are the experiments module's
 * (src/exp/repro_table.c, repro.c; exp.h plans and runs every run of a set
 * of experiments); the words and the writers are the report's
 * (src/report/repro_words.c, repro_out.c).
 *
 * The only numbers typed into the source are the thread's (and DiskSim's
 * own demerits on its validation drives); everything
 * derived from them (spreads, ratios, Moyer's ideal and %diff) is computed
 * by the same code as ours. Nothing reads a clock, so the same runs give
 * the same bytes.
 */
#ifndef IOSCHED_REPRO_H
#define IOSCHED_REPRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "compare.h"
#include "err.h"
#include "plot.h"
#include "run.h"
#include "series_group.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an experiment's thread measured, which decides its table. */
enum ios_repro_kind {
	IOS_REPRO_FINISH,	/* A1: each job's finish time, their spread */
	IOS_REPRO_SHARES,	/* A2: Jeff Moyer's class prio ideal xferred %diff */
	IOS_REPRO_RW,		/* B1: per-job KiB/s and worst completion latency */
	IOS_REPRO_CAT,		/* B2: cat's time, the disk's read and write rates and time */
	IOS_REPRO_SHARERS,	/* D1: two jobs sharing a file against the others' median */
	IOS_REPRO_CGROUP,	/* C1: I/Os completed per cgroup */
	/*
	 * The blk-mq scenarios of docs/blk-mq-scenarios.md: no thread, criteria
	 * written before the runs (each check carries its number there, "M1.2").
	 */
	IOS_REPRO_MQ_LAT,	/* M1: the first job's latency, the I/Os per second */
	IOS_REPRO_MQ_IOS,	/* M2: each job's share of the completed I/Os */
	IOS_REPRO_MQ_VS,	/* M3, M4: verdicts against another experiment's */
	/*
	 * The cgroup v2 scenarios of docs/cgroup-v2-plan.md §10 (C1, C2):
	 * criteria written before the runs, over time windows of the run's
	 * per-cgroup series (exp->plot_by must be IOS_PLOT_BY_CGROUP).
	 */
	IOS_REPRO_CGV2,
};

/*
 * The scalars criteria are about, each computed from one seed's run of a
 * column (and, for the relative ones, the same seed's run of a reference
 * column, or of the first job alone). "first job" and "second job" are in
 * job-file order (B1: reader, writer).
 */
enum ios_repro_measure {
	IOS_RM_SPREAD,		/* (max - min) / max of the jobs' finish times */
	IOS_RM_MAKESPAN_REL,	/* last finish / the reference column's */
	IOS_RM_AGG_ALONE,	/* aggregate rate / the first job's rate alone */
	IOS_RM_WORST_DIFF,	/* largest |xferred - ideal| / ideal (Moyer's table) */
	IOS_RM_BW_SUM_REL,	/* the jobs' bandwidths summed / the reference's */
	IOS_RM_RW_RATIO,	/* first job's bandwidth / second's */
	IOS_RM_WR_REL,		/* second job's bandwidth / first's */
	IOS_RM_LAT_RATIO,	/* second job's worst latency / first's */
	IOS_RM_MAX_LAT,		/* the worst latency of any job, ns */
	IOS_RM_BW_DEV,		/* largest |bandwidth / the reference's - 1| over the jobs */
	IOS_RM_READ_TIME,	/* reads' share of the device's busy time */
	IOS_RM_WRITE_TIME,	/* writes' share */
	IOS_RM_SHARER_MIN,	/* the lower sharer's bandwidth / the others' median */
	IOS_RM_SHARER_MAX,	/* the higher sharer's */
	IOS_RM_OTHERS_SPREAD,	/* (max - min) / max of the others' bandwidths */
	IOS_RM_GROUP_RATIO,	/* I/Os of the first cgroup / the second's */
	IOS_RM_GROUP_TIME_RATIO,	/* disk time the scheduler charged them, the same */
	/* the blk-mq scenarios (IOS_REPRO_MQ_*) */
	IOS_RM_P99_ALONE,	/* first job's clat p99 / its p99 when it runs alone */
	IOS_RM_P99_REL,		/* first job's clat p99 / the reference column's */
	IOS_RM_DEV_P90,		/* first job's p90 device latency (dispatch to completion), ns */
	IOS_RM_IOPS_REL,	/* I/Os completed per second, all jobs / the reference's */
	IOS_RM_OTHERS_SHARE,	/* the jobs after the first: their share of the I/Os */
	IOS_RM_OTHERS_MIN_IOS,	/* the fewest I/Os any job after the first completed */
	IOS_RM_OTHERS_MAX_LAT,	/* the worst clat of the jobs after the first, ns */
	IOS_RM_SHARE_DEV,	/* largest |a job's share of the I/Os - 1 / jobs| */
	/*
	 * The cgroup v2 scenarios (IOS_REPRO_CGV2): over the check's window
	 * [win_from_s, win_to_s) of the run's series, grouped by cgroup
	 * (win_to_s 0: to the end), of the check's group (NULL: every job).
	 * Bytes completed, as fio counts them (at completion).
	 */
	IOS_RM_WIN_SHARE,	/* the group's share of the bytes in the window */
	IOS_RM_WIN_MIBS,	/* the group's MiB/s over the window */
	IOS_RM_WIN_REL,		/* the group's bytes in the window / the reference's */
	IOS_RM_WIN_MAX_BIN,	/* the group's largest series bucket in the window, MiB/s */
	IOS_RM_GROUP_ALONE,	/* the group's bytes over the run / the first job alone's */
	/* io.cost's monitor: when the period length first changed (autop's switch), s */
	IOS_RM_IOCOST_SWITCH,
	IOS_RM_IOCOST_SWITCHED,	/* whether it changed at all: 1 or 0 (NaN: no io.cost) */
	IOS_RM_IOCOST_VRATE_END,	/* io.cost's vrate at the last period, 1.0 = 100 % */
	IOS_RM_GROUP_IOPS,	/* the group's I/Os completed per second of the run */
	IOS_RM_NOTE_COUNT,	/* how many of the run's notes contain the check's note */
	/*
	 * C3 (io.latency): T = 2 x the first job's clat p90 alone, rounded
	 * up to 10 us (same seed). The first job's clat p90 over the window
	 * (whole seconds; no window: the run) / T; T itself, ns; the first
	 * job's p90 over the window / the reference column's over its run;
	 * the group's I/Os / the reference's; when the group's io.latency
	 * depth first fell below the check's depth_below, s.
	 */
	IOS_RM_P90_T,
	IOS_RM_LAT_T,
	IOS_RM_WIN_P90_REL,
	IOS_RM_GROUP_IOS_REL,
	IOS_RM_LAT_DEPTH_BELOW,
	/*
	 * W1 (buffered writer under io.max): the group's submit-side bytes
	 * (its tasks' system calls) / its device-side bytes (requests charged
	 * to it) over the window; the lowest and the highest rate, MiB/s, of
	 * the check's side over consecutive step_s windows in the window
	 * (from_freerun: starting when dirty memory first passed the freerun
	 * ceiling, vm_stats.over_freerun_ns).
	 */
	IOS_RM_WIN_SUBMIT_DEV,
	IOS_RM_WIN_STEP_MIN,
	IOS_RM_WIN_STEP_MAX,
	/*
	 * C4 (dsync dd on ext4): per write the first job completed, the
	 * group's write requests the block layer completed (its data writes),
	 * jbd2's unwritten conversions, commits, commit blocks (PREFLUSH|FUA
	 * with lab.barrier=1) and log blocks (descriptors and metadata), from
	 * the run's jbd2 counters (JSON "jbd2"). The first job's mean clat /
	 * the reference's (ref_base: the base experiment's column of that
	 * label). The smallest of the first three writes' clat of the first
	 * job minus the second job's (k-th against k-th), ns; the mean clat of
	 * the writes after those, first job / second job.
	 */
	IOS_RM_DATA_PER_WRITE,
	IOS_RM_CONV_PER_WRITE,
	IOS_RM_COMMIT_PER_WRITE,
	IOS_RM_FLUSH_PER_WRITE,
	IOS_RM_LOG_PER_WRITE,
	IOS_RM_MEAN_REL,
	IOS_RM_EARLY_DIFF,
	IOS_RM_LATER_REL,
	/*
	 * Verdict comparison (the check's like and like_of): how many
	 * criteria get another verdict on the check's column than on @like.
	 */
	IOS_RM_VERDICTS_DIFFER,
	IOS_RM_COUNT
};

/*
 * The criterion "lo <= measure <= hi" of one column (NAN: no bound), or,
 * with tol > 0, "within tol of expect" (lo and hi are then unused).
 */
struct ios_repro_check {
	const char *column;		/* the column's label, as in the experiment */
	enum ios_repro_measure m;
	const char *ref;		/* the reference column, for the relative measures */
	double lo, hi;
	bool hi_strict;			/* "< hi" rather than "<= hi" */
	double expect, tol;		/* relative: pass within expect * (1 -+ tol) */
	const char *row;		/* the row of seed-scenarios.md it comes from */
	const char *why_miss;		/* shown beside a MISS: where the docs explain it */
	/* ---- the blk-mq scenarios only (all NULL / 0 elsewhere) ---- */
	const char *id;			/* its number in docs/blk-mq-scenarios.md: "M1.3" */
	/*
	 * A condition: the check applies only when the median of when_m on
	 * when_column is >= when_min (when_below: < when_min); otherwise its
	 * verdict is "does not apply". NULL when_column: it always applies.
	 */
	const char *when_column;
	enum ios_repro_measure when_m;
	double when_min;
	bool when_below;
	/*
	 * IOS_RM_VERDICTS_DIFFER: every criterion of the base experiment
	 * (or of this one without a base) is evaluated on the check's column
	 * and on @like; with @like_of, only the criteria of that column, else
	 * every distinct criterion (each measure, reference and bounds once).
	 */
	const char *like;
	const char *like_of;
	/* ---- the cgroup v2 scenarios' window measures (IOS_RM_WIN_*) ---- */
	const char *group;		/* the cgroup path ("a"); NULL: every job */
	double win_from_s, win_to_s;	/* the window; win_to_s 0: to the end */
	const char *note;		/* IOS_RM_NOTE_COUNT: the text a note contains */
	unsigned depth_below;		/* IOS_RM_LAT_DEPTH_BELOW's depth */
	double step_s;			/* IOS_RM_WIN_STEP_*: the windows' length */
	bool dev_side;			/* ...of the device side (else the submit side) */
	bool from_freerun;		/* ...from when dirty passed the freerun ceiling */
	bool ref_base;			/* the reference is the base experiment's column */
};

/*
 * One of the thread's runs as it was posted. Arrays have nr_jobs entries
 * in the order of `jobs` (NULL: the order of the experiment's job file, or
 * no order at all for A1's finish times); NULL arrays were not posted.
 */
struct ios_repro_thread_run {
	const char *label;		/* "thread: fairness=0" */
	const char *column;		/* the column of ours it stands beside */
	const char *source;		/* who posted it, where */
	size_t nr_jobs;
	const char *const *jobs;
	const double *finish_s;
	const double *xferred_kib;	/* A2: KiB moved (Jeff's unit is not given) */
	const double *bw_kib;		/* KiB/s */
	const double *max_lat_ms;
	/* B2: the disk's rates per second while cat ran (vmstat bi, bo) */
	const double *vm_read_kib, *vm_write_kib;
	size_t nr_vm;
	/* C1: I/Os per cgroup, in the order of the experiment's cgroups */
	const double *group_ios;
};

struct ios_repro_exp {
	const char *name;		/* "a1": what `iosched repro a1` selects */
	const char *title;
	const char *jobfile;		/* from the top of the source tree */
	const char *thread;		/* the thread: who, what, when (Markdown) */
	const char *argued;		/* what it argued and how it ended (Markdown) */
	const char *setup;		/* how the job file models it (Markdown) */
	const char *learned;		/* what we learned: facts and where they come from */
	enum ios_repro_kind kind;
	const char *const *columns;	/* NULL-terminated, compare's syntax */
	unsigned nr_seeds;		/* seeds 1..nr_seeds (at most IOS_REPRO_MAX_SEEDS) */
	bool alone;			/* also run the first job alone, per seed */
	const char *alone_column;	/* ...under this column */
	const char *const *sharers;	/* D1: the two jobs that share a file */
	const char *timed_job;		/* B2: the job whose time the thread took (cat) */
	const char *const *cgroups;	/* C1: the two cgroups compared, first / second */
	const struct ios_repro_thread_run *thread_runs;
	size_t nr_thread_runs;
	const struct ios_repro_check *checks;
	size_t nr_checks;
	/*
	 * The plot's lines (series_group.h): per job (0), or per what the
	 * experiment is about (C1: cgroup). A2's eight readers share one
	 * level (BE4) and its criterion is the worst job's %diff, so it stays
	 * per job: by level it would be one line. Each run's series are
	 * grouped as soon as it ends, so only the lines are kept.
	 */
	enum ios_plot_by plot_by;
	/*
	 * The blk-mq scenarios: the experiment whose runs its checks may also
	 * name (references, the first job alone, IOS_RM_VERDICTS_DIFFER's
	 * @like) and whose verdicts it compares against, run in the same
	 * `repro` (selecting this one selects the base too). NULL: none.
	 */
	const char *base;
	/* the document its criteria come from ("docs/blk-mq-scenarios.md") */
	const char *criteria_doc;
};

extern const struct ios_repro_exp ios_repro_experiments[];
extern const size_t ios_repro_nr_experiments;

/* The experiment named @name (case-insensitive), or NULL. */
const struct ios_repro_exp *ios_repro_find(const char *name);

/* What one run leaves for the report. */
struct ios_repro_result {
	struct ios_cmp_run run;		/* per-job and summary metrics */
	uint64_t *job_ios;		/* per job: reads + writes completed */
	uint64_t busy_ns[2];		/* the device's busy time on reads, writes */
	uint64_t disk_bytes[2];		/* bytes the device read, wrote */
	struct ios_series *series;	/* kept when the run recorded them (grouped by exp->plot_by) */
	struct ios_sched_stat stats[16];	/* the scheduler's counters at the end */
	size_t nr_stats;
	struct ios_repro_group {
		char path[64];
		uint64_t ios;		/* reads + writes its jobs completed */
		uint64_t time_ns;	/* the disk time the scheduler charged it */
		bool has_time;		/* the scheduler keeps groups */
		/* io.latency's depth changes (ios_cgroup_result.v2_lat_*) */
		unsigned nr_depths;
		uint64_t depth_at_ns[12];
		unsigned depth[12];
		uint64_t blk_wios;	/* write requests charged to it, completed */
	} groups[8];			/* the run's cgroups, in its order */
	size_t nr_groups;
	char **warnings;		/* what the run ignored (ios_run_result.warnings) */
	size_t nr_warnings;
	/*
	 * The first job (the job file's first, its first clone): its clat
	 * p50, p90, p99 over every direction and its requests' p90 device
	 * latency (dispatch to completion, from the trace), ns; valid with
	 * has_first_pct and has_first_dev.
	 */
	uint64_t first_clat_pct[3];
	uint64_t first_dev_p90_ns;
	bool has_first_pct, has_first_dev;
	/*
	 * io.cost's monitor (iosched.iocost): the end of the first period
	 * whose length differs from the first period's (SSD_DFL's 50 ms to
	 * SSD_FAST's 10 ms: ioc_autop_idx's switch), ns; and vrate at the last
	 * period, %. Valid with has_iocost; iocost_switch_ns 0: no switch.
	 */
	uint64_t iocost_switch_ns;
	double iocost_vrate_end;
	bool has_iocost;
	/*
	 * The first job's (its first clone's) clat per whole second of the
	 * run, histograms kept (for windowed percentiles); nr_first_sec 0
	 * without series. And when dirty memory first passed the freerun
	 * ceiling (vm_stats), with has_freerun.
	 */
	struct ios_lat_stat *first_sec;
	size_t nr_first_sec;
	uint64_t freerun_ns;
	bool has_freerun;
	/* ext4's journal over the run (ios_run_result.jbd2), with has_jbd2 */
	struct ios_jbd2_stats jbd2;
	bool has_jbd2;
	/*
	 * The first two jobs (result index 0 and 1; record_series runs): the
	 * clat of each one's first IOS_REPRO_EARLY I/Os in completion order,
	 * ns (nr_early of them), and the sum and count of the later ones.
	 */
	uint64_t early_ns[2][3];
	unsigned nr_early[2];
	double later_sum_ns[2];
	uint64_t nr_later[2];
};

#define IOS_REPRO_EARLY 3

/*
 * One run of @jf (the experiment's parsed job file) with @base's device,
 * seed and record_series, under @col's scheduler and settings. @alone: only
 * the job file's first job. @prog/@prog_arg go to the run's progress
 * callback (may be NULL). 0, or -errno with @e set.
 */
int ios_repro_run(const struct ios_jobfile *jf, const struct ios_run_config *base,
		  const struct ios_cmp_column *col, bool alone, ios_run_progress_fn prog,
		  void *prog_arg, struct ios_repro_result *out, struct ios_err *e) IOS_MUST_CHECK;
void ios_repro_result_free(struct ios_repro_result *r);

/* One experiment's inputs and results, as the report needs them. */
struct ios_repro_data {
	const struct ios_repro_exp *exp;
	const char *args;		/* the options the job file ran with ("" none) */
	const char *device;		/* the device profile the runs used */
	const struct ios_cmp_column *cols;	/* exp->columns, parsed, in order */
	size_t nr_cols;
	unsigned nr_seeds;		/* seeds 1..nr_seeds were run */
	const struct ios_repro_result *res;	/* [col * nr_seeds + seed - 1] */
	const struct ios_repro_result *alone;	/* [seed - 1], when exp->alone */
	const struct ios_repro_data *base;	/* exp->base's data (ios_repro_link_bases) */
};

#define IOS_REPRO_MAX_SEEDS 16

struct ios_repro_verdict {
	double value;			/* ours: the median over the seeds; NAN: none */
	double per_seed[IOS_REPRO_MAX_SEEDS];	/* ours, seed by seed; NAN: none */
	double thread;			/* the median over the thread's runs; NAN: none */
	bool pass, thread_pass;
	bool na;			/* its condition (when_column) does not hold */
	double when_value;		/* the condition's measure, the median; NAN: none */
};

/*
 * Points each of @d[0..n)'s base at the entry of @d whose experiment is
 * named by its exp->base, run with as many seeds. -EINVAL when one is
 * missing (its base was not run).
 */
int ios_repro_link_bases(struct ios_repro_data *d, size_t n) IOS_MUST_CHECK;
/* The experiment @x must run with (exp->base), or NULL. */
const struct ios_repro_exp *ios_repro_base_of(const struct ios_repro_exp *x);

/* A check's bounds: its own lo and hi, or expect -+ tol (NAN: no bound). */
void ios_repro_bounds(const struct ios_repro_check *c, double *lo, double *hi);

/*
 * Evaluate every check of d->exp into @v (d->exp->nr_checks entries).
 * -EINVAL when a check names a column that is not in the experiment.
 */
int ios_repro_evaluate(const struct ios_repro_data *d, struct ios_repro_verdict *v) IOS_MUST_CHECK;

/*
 * "finish spread >= 25 %": a check's criterion in words, with its bounds;
 * @utf8: the signs as the Markdown shows them (≥, ≤, ×).
 */
void ios_repro_criterion(const struct ios_repro_check *c, bool utf8, char *buf, size_t len);
/* A measure's value as the report prints it ("44.4 %", "0.003", "108 ms"). */
void ios_repro_format(enum ios_repro_measure m, double v, char *buf, size_t len);
/* The same, with more decimals where the value would print as a bound it is not. */
void ios_repro_format_vs(const struct ios_repro_check *c, double v, char *buf, size_t len);

/*
 * DiskSim 4.0's validation drives (issue 31 item 3, docs/validate.md): each
 * drive's validation trace replayed by ios_validate_run() against the drive
 * built from its own specification (the device "disksim:DIR/NAME.parv"),
 * our RMS demerit beside the one DiskSim's own model reaches on it. The
 * goal is within IOS_REPRO_DRIVE_GOAL times DiskSim's.
 */
#define IOS_REPRO_DRIVE_GOAL 2.0

struct ios_repro_drive {
	const char *name;		/* NAME.parv and NAME.trace */
	const char *title;		/* "Seagate Barracuda ST32171W" */
	double disksim_ms;		/* DiskSim 4.0's own demerit on the drive */
};

/* ios_repro_drives[]: the five drives, DiskSim's numbers quoted (repro_drives.c). */
extern const struct ios_repro_drive ios_repro_drives[];
extern const size_t ios_repro_nr_drives;

struct ios_repro_drive_result {
	const struct ios_repro_drive *drive;
	size_t requests;
	double rms_ms;			/* ours */
	double meas_mean_ms, sim_mean_ms;	/* the measured and simulated mean access time */
};

struct ios_repro_drives {
	const char *dir;		/* where the drives' files were read from */
	struct ios_repro_drive_result *r;	/* [ios_repro_nr_drives], table order */
	size_t n;
};

/* "DIR/NAME.parv" or "DIR/NAME.trace" (@ext: "parv", "trace") into @buf; -ENAMETOOLONG. */
int ios_repro_drive_path(const char *dir, const struct ios_repro_drive *dr, const char *ext,
			 char *buf, size_t len) IOS_MUST_CHECK;
/*
 * Replay every drive of ios_repro_drives[] from @dir into @out (free with
 * ios_repro_drives_free). 0, or the first failure with @e naming the drive
 * and the file (a missing file is -ENOENT).
 */
int ios_repro_drives_run(const char *dir, struct ios_repro_drives *out,
			 struct ios_err *e) IOS_MUST_CHECK;
void ios_repro_drives_free(struct ios_repro_drives *d);
/* Whether @r is within the goal: rms_ms <= IOS_REPRO_DRIVE_GOAL x DiskSim's. */
bool ios_repro_drive_goal(const struct ios_repro_drive_result *r);

/*
 * The report. @quick says the runs were cut down (--quick) and is stated at
 * the top. @drives (NULL: not run) adds the DiskSim drives' table after the
 * experiments. The Markdown is written for docs/REPRODUCTION.md: its links
 * are relative to docs/ whatever directory it is written to.
 */
int ios_repro_report_md(const struct ios_repro_data *d, size_t n, bool quick,
			const struct ios_repro_drives *drives, struct ios_buf *out) IOS_MUST_CHECK;
int ios_repro_report_json(const struct ios_repro_data *d, size_t n, bool quick,
			  const struct ios_repro_drives *drives, struct ios_buf *out) IOS_MUST_CHECK;
/* One line per check: "a1  cfq:fairness=1  finish spread <= 8 %  PASS  3.1 %"; one per drive. */
int ios_repro_report_text(const struct ios_repro_data *d, size_t n,
			  const struct ios_repro_drives *drives, struct ios_buf *out) IOS_MUST_CHECK;
/* "repro/a1.svg": where the experiment's plot goes, relative to the report. */
void ios_repro_plot_name(const struct ios_repro_exp *x, char *buf, size_t len);
/*
 * The seed the plot draws (0-based): the one whose value of the first
 * check is the median over the seeds the verdict took (the lower of the
 * middle two with an even count, the lower seed on a tie); seed 1 (0) with
 * one seed, no check, or no finite value.
 */
unsigned ios_repro_plot_seed(const struct ios_repro_data *d, const struct ios_repro_verdict *v);
/*
 * The experiment's plot: one row per column, the seed ios_repro_plot_seed()
 * picks, one line per job or group (exp->plot_by). -EINVAL without series.
 */
int ios_repro_plot(const struct ios_repro_data *d, struct ios_buf *out) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
