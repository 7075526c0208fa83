/*
 * The command line: argument handling only. Everything a test would need
 * lives in the library; these files turn arguments into library calls and
 * errors into messages and exit codes (0 ok, 1 the run failed, 2 bad usage).
 */
#ifndef IOSCHED_CLI_H
#define IOSCHED_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include "iosched/ios.h"
#include "iosched/cmdline.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_repro(int argc, char **argv);
/* DiskSim's validation traces replayed, the RMS demerit (cmd_validate.c) */
int cmd_validate(int argc, char **argv);
/* fio 3.33's command line (cmd_fio.c): "iosched fio ARGS", or the binary called "fio" */
int cmd_fio(int argc, char **argv);
/* a parameter grid as independent runs (cmd_sweep.c, docs/sweep.md) */
int cmd_sweep(int argc, char **argv);
/* its engines, slurm and parallel (cmd_sweep_engine.c), and what they share with it */
int cli_sweep_slurm(int argc, char **argv);
int cli_sweep_parallel(int argc, char **argv);
void cli_sweep_usage(FILE *f);
int cli_sweep_dir_pos(void *arg, const char *a, struct ios_buf *msg);
struct ios_sweep_manifest;
int cli_sweep_manifest(const char *dir, struct ios_sweep_manifest *m);
void cli_usage(FILE *f);

void cli_error(const struct ios_err *e);
/* "iosched: MSG\n" on stderr, for a message of the command-line engine */
void cli_msg(const struct ios_buf *msg);
/*
 * Parse @argc/@argv by @cmd's tables (iosched/cmdline.h), errors printed:
 * 0, IOS_CL_HELP_SEEN (the caller prints its usage) or -1.
 */
int cli_parse(const struct ios_cl_cmd *cmd, int argc, char **argv);

/* The usage text's width: help lines are wrapped to this many columns. */
#define CLI_USAGE_WIDTH 81
/* --help, -h: the first group of every command */
extern const struct ios_cl_opt cli_help_table[];

/*
 * Options shared by the commands that run jobs (runopts.c): job files,
 * --scheduler, --device, --set, --seed, --output-format, --output,
 * --fio-compat; --trace and --plot (rows masked CLI_RUN_OWN) for run and
 * replay only. A command lists its own table before cli_run_opts_table.
 */
#define CLI_RUN_OWN 0x1u
struct cli_run_opts {
	struct ios_run_config cfg;	/* scheduler, device, seed; settings after _load */
	struct ios_settings settings;	/* --set, in order */
	struct ios_job_parse_opts po;	/* --fio-compat */
	const char *fmt;		/* --output-format: "normal", "json,terse", ... */
	const char *outfile;		/* NULL: stdout */
	const char *trace;		/* --trace NAME (run, replay) */
	const char *trace_mask_arg;	/* --trace-mask LIST as given; NULL: not given */
	uint16_t trace_mask;		/* its categories (blktrace's -a); all by default */
	const char *trace_limit_arg;	/* --trace-limit SIZE as given; NULL: not given */
	uint64_t trace_limit;		/* bytes; CLI_TRACE_LIMIT by default, 0: none */
	const char *plot;		/* --plot FILE.svg (run, replay) */
	int plot_by;			/* --plot-by: enum ios_plot_by, AUTO by default */
	const char **jobs;		/* job file names, in order */
	int nr_jobs;
	bool real;			/* --real: real files through io_uring (host.h) */
};

/*
 * The report in the formats @fmt names (fio's --output-format list); with
 * @fio_preamble, fio's pre-run lines before a normal report (the fio
 * command's). 0, -EINVAL or -ENOMEM.
 */
int cli_report(const struct ios_run_result *r, const char *fmt, bool fio_preamble,
	       struct ios_buf *out);
int cli_run_opts_init(struct cli_run_opts *o, int argc);
void cli_run_opts_free(struct cli_run_opts *o);
extern const struct ios_cl_opt cli_run_opts_table[];
/* A job file (the positional argument of run, compare, replay): 0, or -1 and @msg. */
int cli_run_opts_add_job(void *o, const char *a, struct ios_buf *msg);
/*
 * run's and replay's command line (the same tables): 0 to go on, or 1 with
 * *@rc the exit status (--help printed, or a usage error printed).
 */
int cli_run_cmd_parse(struct cli_run_opts *o, const char *name, int argc, char **argv, int *rc);
/*
 * argv[*i] is a job file or a shared option other than --trace and --plot
 * (its value may take argv[*i+1]: *i advances). Returns 1 when taken, 0
 * when not a shared option, -1 after printing an error about its value.
 */
int cli_run_opts_parse(struct cli_run_opts *o, int argc, char **argv, int *i);
/*
 * Parse every job file into @jf (errors printed); points cfg.settings at
 * settings and, with --real, cfg.host at the io_uring host.
 */
/* Parse @o's job files into @jf: 0, or the exit status (CLI_EXIT_USAGE for a refused file). */
int cli_run_opts_load(struct cli_run_opts *o, struct ios_jobfile *jf);
/* The exit status for a library error: 2 when it refused the input before any I/O, else 1. */
int cli_err_status(const struct ios_err *e);
void cli_run_opts_host(struct cli_run_opts *o);
/*
 * --real: SIGINT and SIGTERM stop the run as fio's do (the report of what was
 * done is printed); cli_real_exit then gives fio's exit status, 128.
 */
void cli_real_signals(const struct cli_run_opts *o);
int cli_real_exit(int rc);
/*
 * Write @r's report in the formats @fmt to @outfile, or stdout when NULL, as
 * it is made; -1 after printing an error.
 */
int cli_report_out(const struct ios_run_result *r, const char *fmt, const char *outfile);
/*
 * The normal report's last line (issue 32 item 7): that the run was
 * simulated, on which device, under which scheduler and with which seed,
 * said once per report. Nothing for a --real run or without @formats'
 * normal output.
 */
void cli_sim_line(const struct ios_run_result *r, unsigned formats, struct ios_buf *out);
/* Write @out to @outfile, or stdout when NULL; -1 after printing an error. */
int cli_write_output(const char *outfile, const struct ios_buf *out);

/*
 * --trace NAME (tracefile.c): with @name set, create NAME.blktrace.0 and
 * point @cfg's trace sink at it (-1 after printing an error); NULL does
 * nothing. At most @limit bytes (--trace-limit; 0: no bound). cli_trace_close()
 * closes it after the run: it returns the run's @ret, or the trace's write
 * error (in @e, @res freed) when the run was ok. A trace cut at its limit is
 * not an error there: the run's report is whole. It is said on stderr at
 * close, and cli_trace_exit() turns the command's exit status 0 into 1.
 */
#define CLI_TRACE_LIMIT (1ULL << 30)
struct ios_blktrace;
int cli_trace_open(const char *name, uint16_t mask, uint64_t limit, struct ios_run_config *cfg,
		   struct ios_blktrace **bt);
int cli_trace_close(struct ios_blktrace *bt, int ret, struct ios_run_result *res,
		    struct ios_err *e);
int cli_trace_exit(int rc);

/*
 * The progress line (progress.c): drawn on stderr only when it is a
 * terminal, only after the first wall-clock second, redrawn in place.
 */
struct cli_progress {
	bool tty;			/* stderr is a terminal */
	struct timespec t0;		/* CLOCK_MONOTONIC at init */
	double next_draw;		/* elapsed seconds */
	size_t shown;			/* columns on screen now */
};

void cli_progress_init(struct cli_progress *p);
double cli_progress_elapsed(const struct cli_progress *p);
/* Time to draw? (a terminal, past the first second, not drawn lately) */
bool cli_progress_due(struct cli_progress *p, double *elapsed);
unsigned cli_progress_width(void);
void cli_progress_show(struct cli_progress *p, const char *line);
/* Blank the line (if one is shown). */
void cli_progress_clear(struct cli_progress *p);
/* An ios_run_config.progress callback for one run; @arg is a struct cli_progress. */
void cli_progress_run_cb(void *arg, const struct ios_run_progress *pr);

/*
 * The experiments' worker pool (pool.c; the pool is the library's,
 * iosched/exp.h): cli_exp_opts() fills @o with @workers and, when stderr
 * is a terminal, the progress line drawn through @prog (initialised here;
 * cli_progress_clear() it after the runs).
 */
struct ios_exp_opts;
void cli_exp_opts(struct ios_exp_opts *o, long workers, struct cli_progress *prog);

/*
 * --plot (plotfile.c): title "job files", subtitle "scheduler S, device D,
 * seed N, --set ..." (no scheduler when @sched is NULL: compare's rows name them)
 */
struct ios_plot;
struct ios_series;
/* --plot-by's values: auto, job, cgroup, class (enum ios_plot_by) */
extern const struct ios_cl_choice cli_plot_by_choices[];
/*
 * @in grouped as --plot-by @by asks into @out (ios_series_aggregate), and
 * ", one line per cgroup (2 for 120 jobs; --plot-by auto)" appended to the
 * subtitle @sub when the lines are groups. 0, or -1 after an error message.
 */
int cli_plot_group(const struct ios_series *in, int by, const struct ios_series *words_for,
		   struct ios_series *out, char *sub, size_t len);
/* "cgroup", "class and level" or NULL (jobs): struct ios_plot's lines for @s and @by */
const char *cli_plot_lines(const struct ios_series *s, int by);
void cli_plot_title(const struct cli_run_opts *o, char *buf, size_t len);
void cli_plot_subtitle(const struct cli_run_opts *o, const char *sched, const char *device,
		       uint64_t seed, char *buf, size_t len);
/* Draw @p into @path; -1 after printing an error. */
int cli_write_plot(const char *path, const struct ios_plot *p);
int cli_write_svg(const char *path, int ret, struct ios_buf *b);
/* --plot of one run (run, replay): its jobs drawn, titled from @o. 0 or -1 (said on stderr). */
int cli_plot_run(const char *path, const struct cli_run_opts *o, const struct ios_run_result *res);

/*
 * No output over an input or another output (paths.c). A command adds
 * every file it reads and every file it will write, then checks, before it
 * opens anything for writing. Two names clash when they are one existing
 * regular file (same st_dev and st_ino) or, for a file still to be made,
 * resolve to the same name. Outputs of the same non-zero @group may share
 * a file (fio's logs append to a shared name). NULL, and an input "-"
 * (stdin), are skipped.
 */
struct cli_path;
struct cli_paths {
	struct cli_path *v;
	size_t n, cap;
};

int cli_paths_in(struct cli_paths *ps, const char *what, const char *path);
/* @name, and NAME.blktrace.0, .1, ... when they exist (a blktrace given by its base name) */
int cli_paths_in_trace(struct cli_paths *ps, const char *what, const char *name);
int cli_paths_out(struct cli_paths *ps, const char *what, const char *path, int group);
/*
 * A run's files: @o's job files and what they included, read_iolog
 * traces, --output, @plot, @trace (NAME.blktrace.0) and the write_*_log
 * files of @jf (NULL: no job file, only the outputs).
 */
int cli_paths_run(struct cli_paths *ps, const struct cli_run_opts *o,
		  const struct ios_jobfile *jf, const char *trace, const char *plot);
/* 0, or -1 after naming the clash on stderr. */
int cli_paths_check(const struct cli_paths *ps);
/*
 * Before a run: the file @path can be written (it exists and is writable,
 * or its directory does and is); @dir can be written into or made by one
 * mkdir (repro's --output-dir). 0, or -1 after saying why, naming @what.
 */
int cli_paths_writable(const char *what, const char *path);
int cli_paths_dir_makeable(const char *what, const char *dir);
void cli_paths_free(struct cli_paths *ps);

/*
 * replay and compare on a trace: what the trace's device number says of
 * the disk it came from, when that differs from the simulated one, said
 * once on stderr as a note (cmd_replay.c).
 */
struct ios_replay;
void cli_replay_hints(const struct ios_replay *r, const struct ios_run_config *cfg);

/*
 * sweep merge (sweep_plots.c). @path (a file, or with @is_dir a directory)
 * is not a file of the plan in @dir (manifest, inputs/, results/) nor one
 * of its directories: 0, or -1 after saying why, naming @what.
 */
int cli_sweep_output_check(const char *dir, const char *what, const char *path, bool is_dir);
struct ios_sweep_manifest;
/* --plot METRIC --plot-dir D [--at AXIS=VALUE...]: 0 or the exit status, said. */
int cli_sweep_plots(const char *dir, const struct ios_sweep_manifest *m, const double *metrics,
		    const unsigned char *state, const char *metric, const char *plot_dir,
		    const char *const *at, size_t nr_at);

#endif
