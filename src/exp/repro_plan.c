/*
 * The seed reproduction's runs planned and run (exp.h): every run of every
 * chosen experiment of ios_repro_experiments[] is one task for the worker
 * pool, and the results land in table order, so the report written from
 * them does not depend on the number of workers.
 *
 * An experiment is prepared before anything runs: its job file is parsed
 * by the caller (the command line reads the .args file beside it with its
 * own option parser), and here its columns are checked as `iosched compare`
 * checks them, its seeds counted and its result slots made. Then the
 * tasks: per experiment, each column with each seed (each records the
 * series its plot may draw, grouped as the plot draws them), then the first job alone per seed where the
 * experiment measures against that rate. One run is ios_repro_run()
 * (repro.c), which calls the runner.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/exp.h"

/* "noop,deadline,cfq:fairness=1": the columns as one --schedulers list */
static char *rp_column_list(const struct ios_repro_exp *x)
{
	size_t len = 1;
	char *list;

	for (size_t c = 0; x->columns[c]; c++)
		len += strlen(x->columns[c]) + 1;
	list = calloc(1, len);
	if (!list)
		return NULL;
	for (size_t c = 0; x->columns[c]; c++) {
		if (c)
			strcat(list, ",");
		strcat(list, x->columns[c]);
	}
	return list;
}

int ios_repro_prepare(struct ios_repro_set *s, bool quick, struct ios_err *e)
{
	const struct ios_repro_exp *x = s->x;
	char *list = rp_column_list(x);
	int ret;

	if (!list)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = ios_cmp_columns_parse(list, s->base->settings, s->base->device, &s->cols,
				    &s->nr_cols, e);
	free(list);
	if (ret)
		return ret;
	s->nr_seeds = quick ? 1 : x->nr_seeds;
	if (!s->nr_seeds || s->nr_seeds > IOS_REPRO_MAX_SEEDS)
		return IOS_ERR(e, -EINVAL, "%u seeds (allowed 1..%d)", s->nr_seeds,
			       IOS_REPRO_MAX_SEEDS);
	if (x->alone) {
		size_t c = 0;

		while (c < s->nr_cols && strcmp(s->cols[c].label, x->alone_column))
			c++;
		if (c == s->nr_cols)
			return IOS_ERR(e, -EINVAL, "no column '%s' to run the first job alone "
				       "under", x->alone_column);
		s->alone_col = c;
	}
	s->res = calloc(s->nr_cols * s->nr_seeds, sizeof(*s->res));
	s->alone = x->alone ? calloc(s->nr_seeds, sizeof(*s->alone)) : NULL;
	if (!s->res || (x->alone && !s->alone))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

void ios_repro_set_free(struct ios_repro_set *s)
{
	for (size_t i = 0; s->res && i < s->nr_cols * s->nr_seeds; i++)
		ios_repro_result_free(&s->res[i]);
	for (unsigned k = 0; s->alone && k < s->nr_seeds; k++)
		ios_repro_result_free(&s->alone[k]);
	free(s->res);
	free(s->alone);
	ios_cmp_columns_free(s->cols, s->nr_cols);
	s->res = s->alone = NULL;
	s->cols = NULL;
	s->nr_cols = 0;
}

/* One run: an experiment, a column (or the first job alone), a seed. */
struct rp_task {
	struct ios_repro_set *s;
	size_t col;			/* the column; with alone, the alone column */
	bool alone;
	unsigned seed_idx;
	struct ios_repro_result *out;
	struct ios_err err;
	char label[160];
};

struct rp_ctx {
	struct rp_task *tasks;
	size_t nr;
};

static int rp_run_task(void *arg, size_t idx, ios_run_progress_fn prog, void *prog_arg)
{
	struct rp_task *t = &((struct rp_ctx *)arg)->tasks[idx];
	struct ios_run_config cfg = *t->s->base;

	int ret;

	cfg.seed = t->seed_idx + 1;
	/*
	 * The plot shows the median seed of the first check, known only when
	 * every seed has run: each seed keeps its series, grouped at once as
	 * the plot draws them (C1's 120 jobs become 2 lines) so what is kept
	 * is small.
	 */
	/* the cgroup v2 scenarios compare a group with the first job alone by its series */
	cfg.record_series = !t->alone || t->s->x->kind == IOS_REPRO_CGV2;
	ret = ios_repro_run(t->s->jf, &cfg, &t->s->cols[t->col], t->alone, prog, prog_arg,
			    t->out, &t->err);
	if (!ret && t->out->series && t->s->x->plot_by != IOS_PLOT_BY_JOB) {
		struct ios_series *g = calloc(1, sizeof(*g));

		if (!g || ios_series_aggregate(t->out->series, t->s->x->plot_by, g)) {
			free(g);
			return IOS_ERR(&t->err, -ENOMEM, "out of memory");
		}
		ios_series_free(t->out->series);
		free(t->out->series);
		t->out->series = g;
	}
	return ret;
}

static const char *rp_task_label(void *arg, size_t idx)
{
	return ((struct rp_ctx *)arg)->tasks[idx].label;
}

/* The tasks of @s, from ctx->tasks[ctx->nr] on. */
static void rp_plan(struct rp_ctx *ctx, struct ios_repro_set *s)
{
	for (size_t c = 0; c < s->nr_cols; c++) {
		for (unsigned k = 0; k < s->nr_seeds; k++) {
			struct rp_task *t = &ctx->tasks[ctx->nr++];

			*t = (struct rp_task){ .s = s, .col = c, .seed_idx = k,
					       .out = &s->res[c * s->nr_seeds + k] };
			snprintf(t->label, sizeof(t->label), "%s %s s%u", s->x->name,
				 s->cols[c].label, k + 1);
		}
	}
	for (unsigned k = 0; s->x->alone && k < s->nr_seeds; k++) {
		struct rp_task *t = &ctx->tasks[ctx->nr++];

		*t = (struct rp_task){ .s = s, .col = s->alone_col, .alone = true, .seed_idx = k,
				       .out = &s->alone[k] };
		snprintf(t->label, sizeof(t->label), "%s alone s%u", s->x->name, k + 1);
	}
}

int ios_repro_run_all(struct ios_repro_set *sets, size_t n, const struct ios_exp_opts *o,
		      struct ios_repro_failure *fail)
{
	struct rp_ctx ctx = { 0 };
	struct ios_exp_pool pool = { 0, rp_run_task, rp_task_label, &ctx };
	size_t nr = 0, failed;
	int ret;

	memset(fail, 0, sizeof(*fail));
	for (size_t k = 0; k < n; k++)
		nr += sets[k].nr_seeds * (sets[k].nr_cols + (sets[k].x->alone ? 1 : 0));
	ctx.tasks = calloc(nr + 1, sizeof(*ctx.tasks));
	if (!ctx.tasks)
		return IOS_ERR(&fail->err, -ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++)
		rp_plan(&ctx, &sets[k]);
	pool.nr = ctx.nr;
	ret = ios_exp_pool_run(&pool, o, &failed);
	if (ret) {
		IOS_ERR(&fail->err, ret, "out of memory");
	} else if (failed < ctx.nr) {
		const struct rp_task *t = &ctx.tasks[failed];

		fail->set = t->s;
		memcpy(fail->label, t->label, sizeof(fail->label));
		fail->err = t->err;
		ret = t->err.code ? t->err.code : -EINVAL;
	}
	free(ctx.tasks);
	return ret;
}

void ios_repro_set_data(const struct ios_repro_set *s, struct ios_repro_data *d)
{
	*d = (struct ios_repro_data){
		.exp = s->x, .args = s->args,
		.device = s->base->device ? s->base->device : IOS_DEV_DEFAULT_PROFILE,
		.cols = s->cols, .nr_cols = s->nr_cols, .nr_seeds = s->nr_seeds,
		.res = s->res, .alone = s->alone,
	};
}
