/*
 * `iosched compare` as an experiment (exp.h): the same jobs, seed and
 * settings under several columns (a scheduler with its own tunables).
 *
 * The job set is parsed once by the caller; every column was checked
 * before anything runs (ios_cmp_columns_parse, columns.c). Worker threads
 * (pool.c) take the columns in order, each doing one whole run: the
 * simulator keeps no global state, so runs in parallel share only the
 * parsed jobs, read-only. A finished run is reduced to its compare
 * metrics (struct ios_cmp_run) in the worker and its full result freed,
 * keeping only the series (for a plot) and the warnings. The results come
 * back in column order, so a report written from them is the same bytes
 * whatever the number of workers.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/exp.h"

int ios_cmp_check_jobs(const struct ios_jobfile *jf, struct ios_err *e)
{
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		const char *opt = j->write_bw_log ? "write_bw_log" : j->write_lat_log ? "write_lat_log"
				: j->write_iops_log ? "write_iops_log" : NULL;

		/* write_iolog appends: one log per column, in no fixed order, lines mixed */
		if (!opt && j->write_iolog && *j->write_iolog && !(j->read_iolog && *j->read_iolog))
			opt = "write_iolog";
		/* every column would write its logs over the same files, at once */
		if (opt)
			return IOS_ERR(e, -EINVAL, "%s:%d: job '%s' sets %s; the columns "
				       "would write their logs over the same files: get logs with "
				       "'iosched run --scheduler S' per scheduler",
				       j->file ? j->file : "?", j->line, j->name ? j->name : "", opt);
	}
	return 0;
}

struct cmp_ctx {
	const struct ios_jobfile *jf;
	const struct ios_run_config *base;
	const struct ios_cmp_column *cols;
	struct ios_cmp_results *out;
	struct ios_err *errs;		/* per column, written by its worker */
	int *rets;
};

static int cmp_run_one(void *arg, size_t idx, ios_run_progress_fn prog, void *prog_arg)
{
	struct cmp_ctx *ctx = arg;
	const struct ios_cmp_column *col = &ctx->cols[idx];
	struct ios_cmp_extra *x = &ctx->out->extra[idx];
	struct ios_err *e = &ctx->errs[idx];
	struct ios_run_config cfg = *ctx->base;
	struct ios_run_result res = { 0 };
	int ret;

	cfg.scheduler = col->sched->name;
	cfg.settings = &col->settings;
	cfg.progress = prog;
	cfg.progress_arg = prog_arg;
	ret = ios_run(ctx->jf, &cfg, &res, e);
	if (!ret) {
		ret = ios_cmp_run_from_result(&ctx->out->runs[idx], col->label, &col->share, &res);
		if (ret)
			IOS_ERR(e, ret, "out of memory");
		/* the plot needs the series after the result is gone */
		x->series = res.series;
		res.series = NULL;
		x->warnings = res.warnings;
		x->nr_warnings = res.nr_warnings;
		res.warnings = NULL;
		res.nr_warnings = 0;
		ios_run_result_free(&res);
	}
	ctx->rets[idx] = ret;
	return ret;
}

static const char *cmp_label(void *arg, size_t idx)
{
	return ((struct cmp_ctx *)arg)->cols[idx].label;
}

int ios_cmp_run_all(const struct ios_jobfile *jf, const struct ios_run_config *base,
		    const struct ios_cmp_column *cols, size_t nr, const struct ios_exp_opts *o,
		    struct ios_cmp_results *out)
{
	struct cmp_ctx ctx = { jf, base, cols, out, NULL, NULL };
	struct ios_exp_pool pool = { nr, cmp_run_one, cmp_label, &ctx };
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->failed = nr;
	out->runs = calloc(nr + 1, sizeof(*out->runs));
	out->extra = calloc(nr + 1, sizeof(*out->extra));
	ctx.errs = calloc(nr + 1, sizeof(*ctx.errs));
	ctx.rets = calloc(nr + 1, sizeof(*ctx.rets));
	if (!out->runs || !out->extra || !ctx.errs || !ctx.rets)
		goto out;
	/* every slot is freed whatever ran: nr is set before the first run */
	out->nr = nr;
	ret = ios_exp_pool_run(&pool, o, &out->failed);
	if (ret)
		goto out;
	if (out->failed < nr) {
		out->ret = ctx.rets[out->failed];
		out->err = ctx.errs[out->failed];
		ret = out->ret ? out->ret : -EINVAL;
	}
out:
	if (ret == -ENOMEM && out->failed == nr)
		IOS_ERR(&out->err, -ENOMEM, "out of memory");
	free(ctx.errs);
	free(ctx.rets);
	return ret;
}

void ios_cmp_results_free(struct ios_cmp_results *r)
{
	for (size_t c = 0; c < r->nr; c++) {
		ios_cmp_run_free(&r->runs[c]);
		ios_series_free(r->extra[c].series);
		free(r->extra[c].series);
		for (size_t w = 0; w < r->extra[c].nr_warnings; w++)
			free(r->extra[c].warnings[w]);
		free(r->extra[c].warnings);
	}
	free(r->runs);
	free(r->extra);
	memset(r, 0, sizeof(*r));
}
