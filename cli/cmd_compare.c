/*
 * iosched compare: the same jobs, seed and settings under several
 * schedulers, one table.
 *
 * This file parses the arguments and prints; the experiment is the
 * library's (iosched/exp.h): the job files are parsed once, every column
 * (a scheduler with its own tunables) is checked before anything runs
 * (ios_cmp_columns_parse), and ios_cmp_run_all() runs the columns on worker
 * threads and hands the results back in column order, so the report is the
 * same bytes whatever the number of workers.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/blktrace.h"
#include "iosched/compare.h"
#include "iosched/exp.h"
#include "iosched/plot.h"
#include "iosched/replay.h"
#include "iosched/series_group.h"

/* compare's own options, before the run options (its --scheduler refuses) */
struct cmp_args {
	const char *list, *plot, *seeds, *from;
	int plot_by;			/* --plot-by (enum ios_plot_by) */
	uint64_t workers;
	bool shares;
};

static int cmp_no_scheduler(void *base, const struct ios_cl_opt *opt, const char *v,
			    struct ios_buf *msg)
{
	(void)base;
	(void)opt;
	(void)v;
	ios_buf_puts(msg, "compare: --scheduler: use --schedulers LIST");
	return -1;
}

static void cmp_schedulers_help(int at, int col, struct ios_buf *out)
{
	const struct ios_sched_type *st;

	(void)at;
	ios_buf_printf(out, "comma-separated; SCHED:NAME=VALUE[:NAME=VALUE...] sets tunables\n"
		       "%*sof that column only (cfq,cfq:fairness=1). A bare --set NAME\n"
		       "%*sgoes to the columns whose scheduler has NAME. Default: every\n"
		       "%*sscheduler by its primary name:", col, "", col, "", col, "");
	/* as the default list (exp/columns.c): the single-queue schedulers only */
	for (size_t i = 0, n = 0; (st = ios_sched_at(i)) != NULL; i++)
		if (ios_sched_layer(st) != IOS_SCHED_LAYER_MQ)
			ios_buf_printf(out, "%s%s", n++ ? "," : " ", st->name);
	ios_buf_puts(out, "\n");
}

#define CA(f) offsetof(struct cmp_args, f)

static const struct ios_cl_opt cmp_opts[] = {
	{ .name = "--help", .alias = "-h", .kind = IOS_CL_HELP },
	{ .name = "--schedulers", .kind = IOS_CL_STR, .off = CA(list), .metavar = "LIST",
	  .help_fn = cmp_schedulers_help },
	{ .name = "--jobs", .alias = "-j", .kind = IOS_CL_U64, .off = CA(workers), .min = 1,
	  .max = IOS_EXP_MAX_WORKERS, .flags = IOS_CL_BRIEF_RANGE, .metavar = "N",
	  .help = "runs at a time (default: online CPUs); the output does not\n"
		  "depend on it" },
	{ .name = "--shares", .kind = IOS_CL_FLAG, .off = CA(shares),
	  .help = "the share table even when every job has the same class,\n"
		  "level and cgroup" },
	{ .name = "--plot", .kind = IOS_CL_STR, .off = CA(plot), .metavar = "FILE.svg",
	  .help = "also draw each column's bandwidth and cumulative data per\n"
		  "job over time, one row per column, on the same scales" },
	{ .name = "--plot-by", .kind = IOS_CL_CHOICE, .off = CA(plot_by),
	  .choices = cli_plot_by_choices, .metavar = "WHAT",
	  .help = "--plot's lines: auto (default: cgroup with more than\n"
		  "10 jobs in two cgroups or more, else job), job,\n"
		  "cgroup, class (ioprio class and level)" },
	{ .name = "--seeds", .kind = IOS_CL_STR, .off = CA(seeds), .metavar = "A-B",
	  .help = "run every column once per seed (1-5, or 1,4,9; replaces\n"
		  "--seed); each cell: the median [lowest..highest]" },
	{ .name = "--from", .kind = IOS_CL_STR, .off = CA(from), .metavar = "TIME",
	  .help = "measure bandwidth and clat on the I/O completed from TIME\n"
		  "(10s, 500ms; a bare number is seconds) to the end; the\n"
		  "runs are the same (fio's ramp_time= is honoured as fio does)" },
	{ .name = "--scheduler", .kind = IOS_CL_CALL, .fn = cmp_no_scheduler },
	{ .name = NULL },
};

static void cmp_usage(FILE *f)
{
	struct ios_buf b;

	fprintf(f,
"usage: iosched compare JOB.fio... [--schedulers LIST] [--jobs N] [--shares] [run options]\n"
"       iosched compare TRACE [--schedulers LIST] ... (a blktrace, blkparse -d dump or\n"
"       fio iolog: each column replays it as 'iosched replay' does, a job per process)\n"
"\n"
"Runs the jobs under each scheduler of LIST with the same seed, device and --set\n"
"settings, and prints one table: per-job bandwidth, finish time, mean, p50, p99 and\n"
"max completion latency; aggregate throughput, Jain's fairness index over the per-job\n"
"bandwidths, min/max bandwidth, finish-time spread; and Jeff Moyer's\n"
"'class prio ideal xferred %%diff' table per scheduler when the jobs differ in class,\n"
"level or cgroup.\n"
"\n");
	ios_buf_init(&b);
	ios_cl_usage(cmp_opts, 0, 22, &b);
	if (b.s && !b.oom)
		fputs(b.s, f);
	ios_buf_free(&b);
	fprintf(f,
"  --scheduler is not allowed (use --schedulers); the other options of 'run' are:\n"
"  --device, --set, --seed, --output-format normal|json, --output, --fio-compat.\n");
}

/* --plot: one row per column, in column order, labelled as the user wrote the column. */
static int cmp_plot(const char *path, const struct cli_run_opts *o, int plot_by,
		    const struct ios_cmp_column *cols, const struct ios_cmp_results *res, size_t nr)
{
	struct ios_plot_run *pr = calloc(nr, sizeof(*pr));
	struct ios_series *lines = calloc(nr, sizeof(*lines));
	char title[1024], sub[1024];
	struct ios_plot p = { title, sub, pr, nr, NULL, true };
	size_t done = 0;
	int ret = -1;

	if (!pr || !lines) {
		fprintf(stderr, "iosched: out of memory\n");
		goto out;
	}
	cli_plot_title(o, title, sizeof(title));
	cli_plot_subtitle(o, NULL, res->runs[0].device, res->runs[0].seed, sub, sizeof(sub));
	/* every row grouped alike, as the first column's series decide (the same jobs) */
	for (; done < nr; done++) {
		const struct ios_series *s = res->extra[done].series;

		if (!s) {
			fprintf(stderr, "iosched: --plot=%s: %s\n", path, strerror(EINVAL));
			goto out;
		}
		if (cli_plot_group(s, plot_by, res->extra[0].series, &lines[done], sub,
				   done ? 0 : sizeof(sub)))
			goto out;
		lines[done].iocost = res->extra[done].iocost;	/* io.cost's panel in the row */
		pr[done].label = cols[done].label;
		pr[done].series = &lines[done];
	}
	p.lines = cli_plot_lines(res->extra[0].series, plot_by);
	ret = cli_write_plot(path, &p);
out:
	for (size_t c = 0; c < done; c++)
		ios_series_free(&lines[c]);
	free(lines);
	free(pr);
	return ret;
}

/*
 * Run every column once per seed (the library's worker threads, the
 * progress line on a terminal) and say on stderr what failed, or else what
 * each column ignored (cgroup= under noop, ...), as 'run' says it, in
 * column order (the first seed's). 0, or the exit status.
 */
static int cmp_run(const struct ios_jobfile *jf, const struct cli_run_opts *o,
		   const struct ios_cmp_column *cols, size_t nr_cols, long workers,
		   const uint64_t *seeds, size_t nr_seeds, struct ios_cmp_results *res)
{
	struct ios_exp_opts eo;
	struct cli_progress prog;
	size_t bad;
	int ret;

	cli_exp_opts(&eo, workers, &prog);
	ret = ios_cmp_run_seeds(jf, &o->cfg, cols, nr_cols, seeds, nr_seeds, &eo, res, &bad);
	cli_progress_clear(&prog);
	if (ret && res[bad].failed >= nr_cols) {
		fprintf(stderr, "iosched: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	if (ret) {
		const struct ios_err *err = &res[bad].err;

		fprintf(stderr, "iosched: compare: %s", cols[res[bad].failed].label);
		if (nr_seeds > 1)
			fprintf(stderr, " (seed %" PRIu64 ")", seeds[bad]);
		fprintf(stderr, ": %s\n", err->msg[0] ? err->msg : strerror(-res[bad].ret));
		return cli_err_status(err);
	}
	for (size_t c = 0; c < nr_cols; c++)
		for (size_t w = 0; w < res->extra[c].nr_warnings; w++)
			fprintf(stderr, "iosched: warning: %s: %s\n", cols[c].label,
				res->extra[c].warnings[w]);
	return 0;
}

/* The table, as text or JSON, to --output or stdout: an exit code. */
static int cmp_print(const struct cli_run_opts *o, const struct ios_cmp_results *res,
		     size_t nr_cols, bool shares, const uint64_t *seeds, size_t nr_seeds)
{
	const struct ios_cmp_run *by_seed[IOS_CMP_MAX_SEEDS];
	struct ios_cmp_report rep = {
		.seed_runs = by_seed,
		.seeds = seeds,
		.nr_seeds = nr_seeds,
		.jobfiles = o->jobs,
		.nr_jobfiles = (size_t)o->nr_jobs,
		.runs = res->runs,
		.nr_runs = nr_cols,
		.shares = shares,
		.real = o->real,
	};
	struct ios_buf out;
	int rc = CLI_EXIT_FAIL, ret;

	for (size_t k = 0; k < nr_seeds; k++)
		by_seed[k] = res[k].runs;
	ios_buf_init(&out);
	ret = !strcmp(o->fmt, "json") ? ios_cmp_report_json(&rep, &out)
				      : ios_cmp_report_text(&rep, &out);
	if (ret)
		fprintf(stderr, "iosched: out of memory writing the report\n");
	else if (!cli_write_output(o->outfile, &out))
		rc = CLI_EXIT_OK;
	ios_buf_free(&out);
	return rc;
}

/*
 * Is @path a trace rather than a job file? Told by content, as
 * ios_replay_open tells the formats apart: a blktrace record's magic
 * (0x656174NN, either byte order), an iolog's "fio version N iolog" line,
 * or NAME.blktrace.N (the per-CPU files of blktrace -o NAME) where no file
 * NAME exists. A job file is INI text and starts with none of these.
 */
static bool cmp_is_trace(const char *path)
{
	uint8_t head[16] = { 0 };
	const char *p = strstr(path, ".blktrace.");
	struct stat st;
	size_t n = 0;
	FILE *f;

	if (!strcmp(path, "-"))
		return false;
	if (stat(path, &st)) {
		char name[4096];

		snprintf(name, sizeof(name), "%s.blktrace.0", path);
		return !stat(name, &st);
	}
	if (p && p[10] >= '0' && p[10] <= '9')
		return true;
	f = fopen(path, "rb");
	if (!f)
		return false;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	if (n >= 4 && ios_blk_magic_order(head) >= 0)
		return true;
	return n >= 12 && !memcmp(head, "fio version ", 12);
}

/*
 * compare TRACE: the trace's processes become the jobs (one per process,
 * named by comm), and every column replays them as 'iosched replay' does
 * (cfg->replay). The ios_replay is only read by the runs, so the columns
 * share it across worker threads. 0, or the exit status.
 */
static int cmp_open_trace(struct cli_run_opts *o, const char *name, struct ios_replay **r,
			  const struct ios_jobfile **jf)
{
	struct ios_err e = { 0 };

	if (o->nr_jobs != 1) {
		fprintf(stderr, "iosched: compare: %s is a trace: compare replays one trace "
			"alone, without job files or other traces beside it\n", name);
		return CLI_EXIT_USAGE;
	}
	if (o->real) {
		fprintf(stderr, "iosched: compare: %s is a trace: its replay runs on the "
			"simulated disk; --real is for job files\n", name);
		return CLI_EXIT_USAGE;
	}
	if (ios_replay_open(o->jobs[0], r, &e)) {
		cli_error(&e);
		return e.code == -ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	*jf = ios_replay_jobfile(*r);
	if (!*jf) {
		fprintf(stderr, "iosched: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	o->cfg.replay = *r;
	o->cfg.settings = &o->settings;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cli_run_opts o;
	struct ios_jobfile jf = { 0 };
	const struct ios_jobfile *jobs = &jf;	/* the job files', or the trace's */
	struct ios_replay *r = NULL;
	struct ios_cmp_column *cols = NULL;
	struct ios_cmp_results res[IOS_CMP_MAX_SEEDS] = { { 0 } };
	uint64_t seeds[IOS_CMP_MAX_SEEDS];
	size_t nr_seeds = 1;
	struct ios_err e = { 0 };
	const char *list = NULL, *plot = NULL, *trace_name = NULL;
	size_t nr_cols = 0;
	long workers = sysconf(_SC_NPROCESSORS_ONLN);
	bool shares = false, trace;
	struct cli_paths paths = { 0 };
	struct cmp_args args = { .plot_by = IOS_PLOT_BY_AUTO };
	const struct ios_cl_group groups[] = {
		{ cmp_opts, &args, 0 }, { cli_run_opts_table, &o, CLI_RUN_OWN },
	};
	const struct ios_cl_cmd cmd = { "compare", "iosched compare --help", groups,
					IOS_ARRAY_SIZE(groups), cli_run_opts_add_job, &o, true };
	int rc = CLI_EXIT_FAIL, ret;

	if (cli_run_opts_init(&o, argc))
		return CLI_EXIT_FAIL;
	ret = cli_parse(&cmd, argc, argv);
	if (ret == IOS_CL_HELP_SEEN) {
		cmp_usage(stdout);
		rc = CLI_EXIT_OK;
		goto out;
	}
	if (ret < 0) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* a comparison table has a text and a JSON form, not fio's others */
	if (strcmp(o.fmt, "normal") && strcmp(o.fmt, "json")) {
		fprintf(stderr, "iosched: compare: --output-format=%s: allowed normal, json\n", o.fmt);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	list = args.list;
	plot = args.plot;
	if (args.workers)	/* 0: no --jobs (it takes 1..) */
		workers = (long)args.workers;
	if (o.real) {
		/* two real runs at once would share the disk: each column would measure both */
		if (args.workers > 1) {
			fprintf(stderr, "iosched: compare: --real runs the columns one after another: "
				"--jobs %" PRIu64 " is refused (give --jobs 1 or no --jobs)\n",
				args.workers);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
		workers = 1;
	}
	shares = args.shares;
	/* --seeds replaces --seed; --from is the table's window, the runs are the same */
	seeds[0] = o.cfg.seed;
	if ((args.seeds && ios_cmp_seeds_parse(args.seeds, seeds, &nr_seeds, &e)) ||
	    (args.from && ios_cmp_from_parse(args.from, &o.cfg.window_from_ns, &e))) {
		fprintf(stderr, "iosched: compare: %s\n", e.msg);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (nr_seeds > 1 && plot) {
		fprintf(stderr, "iosched: compare: --plot draws one run per column: give --seed N "
			"rather than --seeds %s\n", args.seeds);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (plot)
		o.cfg.record_series = o.cfg.record_timeline = true;
	if (!o.nr_jobs) {
		fprintf(stderr, "iosched: compare: no job file given\n");
		cmp_usage(stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* every column checked before any job file is run */
	if (ios_cmp_columns_parse(list, &o.settings, o.cfg.device, &cols, &nr_cols, &e)) {
		cli_error(&e);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < o.nr_jobs && !trace_name; i++)
		if (cmp_is_trace(o.jobs[i]))
			trace_name = o.jobs[i];
	trace = trace_name != NULL;
	/* --output must not overwrite the trace compared */
	if (trace && o.nr_jobs == 1 && cli_paths_in_trace(&paths, "the trace", trace_name)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	rc = trace ? cmp_open_trace(&o, trace_name, &r, &jobs) : cli_run_opts_load(&o, &jf);
	if (rc)
		goto out;
	rc = CLI_EXIT_FAIL;
	if (cli_paths_run(&paths, &o, trace ? NULL : &jf, NULL, plot) ||
	    cli_paths_check(&paths)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (trace)
		cli_replay_hints(r, &o.cfg);
	if (ios_cmp_check_jobs(jobs, &e)) {
		fprintf(stderr, "iosched: compare: %s\n", e.msg);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	rc = cmp_run(jobs, &o, cols, nr_cols, workers, seeds, nr_seeds, res);
	if (rc)
		goto out;
	rc = cmp_print(&o, res, nr_cols, shares, seeds, nr_seeds);
	if (rc == CLI_EXIT_OK && plot && cmp_plot(plot, &o, args.plot_by, cols, res, nr_cols))
		rc = CLI_EXIT_FAIL;
out:
	for (size_t k = 0; k < nr_seeds; k++)
		ios_cmp_results_free(&res[k]);
	ios_cmp_columns_free(cols, nr_cols);
	ios_jobfile_free(&jf);
	ios_replay_close(r);	/* after the results, which refer to its jobs */
	cli_run_opts_free(&o);
	cli_paths_free(&paths);
	return rc;
}
