/*
 * iosched compare: the same jobs, seed and settings under several
 * schedulers, one table.
 *
 * The job files are parsed once; every column (a scheduler with its own
 * tunables) is checked before anything runs (ios_cmp_columns_parse). Then
 * worker threads (pool.c) take columns in order, each doing whole runs: the
 * simulator keeps no global state, so runs in parallel share only the
 * parsed jobs, read-only. A finished run is reduced to its compare metrics
 * (struct ios_cmp_run) in the worker and its full result freed. The report
 * is written after the last run from the results in column order, so it is
 * the same bytes whatever the number of workers.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/compare.h"
#include "iosched/plot.h"

/* One column's outcome, written by the worker that ran it (cli_pool_run). */
struct cmp_slot {
	struct ios_cmp_run run;		/* the result, once done */
	struct ios_series *series;	/* kept from the result for --plot */
	char **warnings;		/* options the run ignored, kept for stderr */
	size_t nr_warnings;
	struct ios_err err;
	int ret;
};

struct cmp_ctx {
	const struct ios_jobfile *jf;
	const struct ios_run_config *base;
	const struct ios_cmp_column *cols;
	struct cmp_slot *slots;
};

static int cmp_run_one(void *arg, size_t idx, ios_run_progress_fn prog, void *prog_arg)
{
	struct cmp_ctx *ctx = arg;
	const struct ios_cmp_column *col = &ctx->cols[idx];
	struct cmp_slot *slot = &ctx->slots[idx];
	struct ios_run_config cfg = *ctx->base;
	struct ios_run_result res = { 0 };
	int ret;

	cfg.scheduler = col->sched->name;
	cfg.settings = &col->settings;
	cfg.progress = prog;
	cfg.progress_arg = prog_arg;
	ret = ios_run(ctx->jf, &cfg, &res, &slot->err);
	if (!ret) {
		ret = ios_cmp_run_from_result(&slot->run, col->label, &col->share, &res);
		if (ret)
			IOS_ERR(&slot->err, ret, "out of memory");
		/* the plot needs the series after the result is gone */
		slot->series = res.series;
		res.series = NULL;
		slot->warnings = res.warnings;
		slot->nr_warnings = res.nr_warnings;
		res.warnings = NULL;
		res.nr_warnings = 0;
		ios_run_result_free(&res);
	}
	slot->ret = ret;
	return ret;
}

static const char *cmp_label(void *arg, size_t idx)
{
	return ((struct cmp_ctx *)arg)->cols[idx].label;
}

static void cmp_usage(FILE *f)
{
	const struct ios_sched_type *st;

	fprintf(f,
"usage: iosched compare JOB.fio... [--schedulers LIST] [--jobs N] [--shares] [run options]\n"
"\n"
"Runs the jobs under each scheduler of LIST with the same seed, device and --set\n"
"settings, and prints one table: per-job bandwidth, finish time, max and p99\n"
"completion latency; aggregate throughput, Jain's fairness index over the per-job\n"
"bandwidths, min/max bandwidth, finish-time spread; and Jeff Moyer's\n"
"'class prio ideal xferred %%diff' table per scheduler when the jobs differ in class,\n"
"level or cgroup.\n"
"\n"
"  --schedulers LIST   comma-separated; SCHED:NAME=VALUE[:NAME=VALUE...] sets tunables\n"
"                      of that column only (cfq,cfq:fairness=1). A bare --set NAME\n"
"                      goes to the columns whose scheduler has NAME. Default: every\n"
"                      scheduler by its primary name:");
	for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++)
		fprintf(f, "%s%s", i ? "," : " ", st->name);
	fprintf(f, "\n"
"  --jobs N, -j N      runs at a time (default: online CPUs); the output does not\n"
"                      depend on it\n"
"  --shares            the share table even when every job has the same class,\n"
"                      level and cgroup\n"
"  --plot FILE.svg     also draw each column's bandwidth and cumulative data per\n"
"                      job over time, one row per column, on the same scales\n"
"  --scheduler is not allowed (use --schedulers); the other options of 'run' are:\n"
"  --device, --set, --seed, --output-format normal|json, --output, --fio-compat.\n");
}

/* --plot: one row per column, in column order, labelled as the user wrote the column. */
static int cmp_plot(const char *path, const struct cli_run_opts *o,
		    const struct ios_cmp_column *cols, const struct cmp_slot *slots, size_t nr)
{
	struct ios_plot_run *pr = calloc(nr, sizeof(*pr));
	char title[1024], sub[1024];
	struct ios_plot p = { title, sub, pr, nr };
	int ret;

	if (!pr) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	for (size_t c = 0; c < nr; c++) {
		pr[c].label = cols[c].label;
		pr[c].series = slots[c].series;
	}
	cli_plot_title(o, title, sizeof(title));
	cli_plot_subtitle(o, NULL, slots[0].run.device, slots[0].run.seed, sub, sizeof(sub));
	ret = cli_write_plot(path, &p);
	free(pr);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct cli_run_opts o;
	struct ios_jobfile jf = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_cmp_run *runs = NULL;
	struct cmp_ctx ctx = { 0 };
	struct cli_pool_cfg pcfg = { 0 };
	struct ios_err e = { 0 };
	struct ios_buf out;
	const char *list = NULL, *plot = NULL;
	size_t nr_cols = 0, failed;
	long workers = sysconf(_SC_NPROCESSORS_ONLN);
	bool shares = false;
	struct cli_paths paths = { 0 };
	int rc = CLI_EXIT_FAIL, ret;

	if (cli_run_opts_init(&o, argc))
		return CLI_EXIT_FAIL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		int r;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cmp_usage(stdout);
			rc = CLI_EXIT_OK;
			goto out;
		}
		if ((r = cli_optval(argc, argv, &i, "--schedulers", &v))) {
			list = v;
		} else if ((r = cli_optval(argc, argv, &i, "--jobs", &v)) ||
			   (r = cli_optval(argc, argv, &i, "-j", &v)) ||
			   (!strncmp(a, "-j", 2) && a[2] && (v = a + 2, r = 1))) {
			if (r > 0 && cli_parse_workers("compare", v, &workers))
				r = -1;
		} else if (!strcmp(a, "--shares")) {
			shares = true;
		} else if ((r = cli_optval(argc, argv, &i, "--plot", &v))) {
			plot = v;
			o.cfg.record_series = true;
		} else if ((r = cli_optval(argc, argv, &i, "--scheduler", &v))) {
			fprintf(stderr, "iosched: compare: --scheduler: use --schedulers LIST\n");
			r = -1;
		} else {
			ret = cli_run_opts_parse(&o, argc, argv, &i);
			if (ret < 0) {
				rc = CLI_EXIT_USAGE;
				goto out;
			}
			if (!ret) {
				fprintf(stderr, "iosched: compare: unknown option '%s' "
					"(see iosched compare --help)\n", a);
				rc = CLI_EXIT_USAGE;
				goto out;
			}
		}
		if (r < 0) {
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}
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
	if (cli_run_opts_load(&o, &jf))
		goto out;
	if (cli_paths_run(&paths, &o, &jf, NULL, plot) || cli_paths_check(&paths)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	for (size_t i = 0; i < jf.nr_jobs; i++) {
		const struct ios_job *j = &jf.jobs[i];
		const char *opt = j->write_bw_log ? "write_bw_log" : j->write_lat_log ? "write_lat_log"
				: j->write_iops_log ? "write_iops_log" : NULL;

		/* write_iolog appends: one log per column, in no fixed order, lines mixed */
		if (!opt && j->write_iolog && *j->write_iolog && !(j->read_iolog && *j->read_iolog))
			opt = "write_iolog";
		/* every column would write its logs over the same files, at once */
		if (opt) {
			fprintf(stderr, "iosched: compare: %s:%d: job '%s' sets %s; the columns "
				"would write their logs over the same files: get logs with "
				"'iosched run --scheduler S' per scheduler\n", j->file ? j->file : "?",
				j->line, j->name ? j->name : "", opt);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}

	ctx.jf = &jf;
	ctx.base = &o.cfg;
	ctx.cols = cols;
	ctx.slots = calloc(nr_cols, sizeof(*ctx.slots));
	runs = calloc(nr_cols, sizeof(*runs));
	pcfg = (struct cli_pool_cfg){ nr_cols, workers, cmp_run_one, cmp_label, &ctx };
	if (!ctx.slots || !runs || cli_pool_run(&pcfg, &failed)) {
		fprintf(stderr, "iosched: out of memory\n");
		goto out;
	}
	if (failed < nr_cols) {
		struct cmp_slot *s = &ctx.slots[failed];

		fprintf(stderr, "iosched: compare: %s: %s\n", cols[failed].label,
			s->err.msg[0] ? s->err.msg : strerror(-s->ret));
		goto out;
	}
	/* what each column ignored (cgroup= under noop, ...), as 'run' says it, in column order */
	for (size_t c = 0; c < nr_cols; c++)
		for (size_t w = 0; w < ctx.slots[c].nr_warnings; w++)
			fprintf(stderr, "iosched: warning: %s: %s\n", cols[c].label,
				ctx.slots[c].warnings[w]);
	for (size_t c = 0; c < nr_cols; c++)
		runs[c] = ctx.slots[c].run;
	{
		struct ios_cmp_report rep = {
			.jobfiles = o.jobs,
			.nr_jobfiles = (size_t)o.nr_jobs,
			.runs = runs,
			.nr_runs = nr_cols,
			.shares = shares,
		};

		ios_buf_init(&out);
		ret = !strcmp(o.fmt, "json") ? ios_cmp_report_json(&rep, &out)
					     : ios_cmp_report_text(&rep, &out);
		if (ret)
			fprintf(stderr, "iosched: out of memory writing the report\n");
		else if (!cli_write_output(o.outfile, &out))
			rc = CLI_EXIT_OK;
		ios_buf_free(&out);
	}
	if (rc == CLI_EXIT_OK && plot && cmp_plot(plot, &o, cols, ctx.slots, nr_cols))
		rc = CLI_EXIT_FAIL;
out:
	if (ctx.slots)
		for (size_t c = 0; c < nr_cols; c++) {
			ios_cmp_run_free(&ctx.slots[c].run);
			ios_series_free(ctx.slots[c].series);
			free(ctx.slots[c].series);
			for (size_t w = 0; w < ctx.slots[c].nr_warnings; w++)
				free(ctx.slots[c].warnings[w]);
			free(ctx.slots[c].warnings);
		}
	free(ctx.slots);
	free(runs);
	ios_cmp_columns_free(cols, nr_cols);
	ios_jobfile_free(&jf);
	cli_run_opts_free(&o);
	cli_paths_free(&paths);
	return rc;
}
