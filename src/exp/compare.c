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
#include <inttypes.h>
#include <stdio.h>
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
	/* the series give the early and late halves (ios_cmp_run_halves) */
	cfg.record_series = true;
	ret = ios_run(ctx->jf, &cfg, &res, e);
	if (!ret) {
		ret = ios_cmp_run_from_result(&ctx->out->runs[idx], col->label, &col->share, &res);
		/* --from: the table measures the window (the run itself is the same) */
		if (!ret && cfg.window_from_ns)
			ret = ios_cmp_run_window(&ctx->out->runs[idx], &res, cfg.window_from_ns);
		if (ret)
			IOS_ERR(e, ret, "out of memory");
		else
			ios_cmp_run_halves(&ctx->out->runs[idx], res.series);
		/* the plot needs the series after the result is gone */
		if (ctx->base->record_series) {
			x->series = res.series;
			res.series = NULL;
			x->iocost = res.iocost;
			res.iocost = NULL;
		}
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
		ios_iocost_log_free(r->extra[c].iocost);
		for (size_t w = 0; w < r->extra[c].nr_warnings; w++)
			free(r->extra[c].warnings[w]);
		free(r->extra[c].warnings);
	}
	free(r->runs);
	free(r->extra);
	memset(r, 0, sizeof(*r));
}

int ios_cmp_run_seeds(const struct ios_jobfile *jf, const struct ios_run_config *base,
		      const struct ios_cmp_column *cols, size_t nr, const uint64_t *seeds,
		      size_t n, const struct ios_exp_opts *o, struct ios_cmp_results *out,
		      size_t *failed_seed)
{
	struct ios_run_config cfg = *base;
	int ret = 0;

	*failed_seed = n;
	for (size_t k = 0; k < n; k++)
		memset(&out[k], 0, sizeof(out[k]));
	for (size_t k = 0; k < n; k++) {
		cfg.seed = seeds[k];
		ret = ios_cmp_run_all(jf, &cfg, cols, nr, o, &out[k]);
		if (ret) {
			*failed_seed = k;
			break;
		}
	}
	return ret;
}

/* One unsigned decimal at *@p, moved past it; false when there is none or it overflows. */
static bool cmp_u64(const char **p, uint64_t *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	return true;
}

int ios_cmp_seeds_parse(const char *s, uint64_t *seeds, size_t *n, struct ios_err *e)
{
	const char *p = s ? s : "";
	uint64_t a, b;

	*n = 0;
	if (!cmp_u64(&p, &a))
		goto bad;
	if (*p == '-') {
		p++;
		if (!cmp_u64(&p, &b) || *p)
			goto bad;
		if (b < a)
			return IOS_ERR(e, -EINVAL, "--seeds %s: the range runs backwards (give A-B "
				       "with A <= B)", s);
		if (b - a >= IOS_CMP_MAX_SEEDS)
			goto many;
		for (uint64_t v = a; v <= b; v++)
			seeds[(*n)++] = v;
		return 0;
	}
	for (;;) {
		for (size_t k = 0; k < *n; k++)
			if (seeds[k] == a)
				return IOS_ERR(e, -EINVAL, "--seeds %s: seed %" PRIu64 " is given twice",
					       s, a);
		if (*n == IOS_CMP_MAX_SEEDS)
			goto many;
		seeds[(*n)++] = a;
		if (!*p)
			return 0;
		if (*p != ',')
			goto bad;
		p++;
		if (!cmp_u64(&p, &a))
			goto bad;
	}
many:
	*n = 0;
	return IOS_ERR(e, -EINVAL, "--seeds %s: more than %d seeds", s, IOS_CMP_MAX_SEEDS);
bad:
	*n = 0;
	return IOS_ERR(e, -EINVAL, "--seeds %s: expected A-B (1-5), A, or A,B,C (1,4,9)", s);
}

int ios_cmp_from_parse(const char *s, uint64_t *ns, struct ios_err *e)
{
	static const struct { const char *sfx; double mul; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1.0 }, { "m", 60e9 },
	};
	const char *p = s ? s : "";
	double v = 0.0, scale = 1.0;
	bool digits = false, point = false;

	for (; (*p >= '0' && *p <= '9') || (*p == '.' && !point); p++) {
		if (*p == '.') {
			point = true;
			continue;
		}
		digits = true;
		if (point)
			v += (double)(*p - '0') * (scale /= 10.0);
		else
			v = v * 10.0 + (double)(*p - '0');
	}
	for (size_t u = 0; digits && u < sizeof(units) / sizeof(units[0]); u++) {
		double t = v * units[u].mul;

		if (strcmp(p, units[u].sfx))
			continue;
		if (!(t >= 1.0) || t > 86400e9)
			return IOS_ERR(e, -EINVAL, "--from %s: out of range, allowed 1ns..24h", s);
		*ns = (uint64_t)(t + 0.5);
		return 0;
	}
	return IOS_ERR(e, -EINVAL, "--from %s: expected a time: seconds (10, 2.5) or with a unit "
		       "(10s, 500ms, 250us, 1m)", s);
}
