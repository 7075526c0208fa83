/*
 * The blk-mq scenarios' sections of the reproduction report (issue 29 item
 * 5; the criteria are docs/blk-mq-scenarios.md's, written before the runs).
 *
 * They follow the seed experiments' sections (repro_out.c) but have no
 * thread: the question, what the criteria expect and why, how the job runs
 * here, our numbers (medians over the seeds, the scheduler's counters of
 * seed 1, which explain a MISS), the criteria with their numbers ("M1.3"),
 * and for a verdict comparison (M2.4, M3.1, M4) each compared criterion's
 * value and verdict on both columns. Everything printed is a function of the
 * runs and the table, as for the seed sections.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "repro_out_int.h"
#include "exp/repro_int.h"

/* ---- one run's numbers, and their median over the seeds ---- */

typedef double (*mq_fn)(const struct ios_repro_result *r);

static double mq_median(const struct ios_repro_result *first, unsigned nr_seeds, mq_fn f)
{
	double v[IOS_REPRO_MAX_SEEDS];
	unsigned n = 0;

	for (unsigned s = 0; s < nr_seeds && s < IOS_REPRO_MAX_SEEDS; s++) {
		double x = f(&first[s]);

		if (isfinite(x))
			v[n++] = x;
	}
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), ios_rmd_cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static double mq_total_ios(const struct ios_repro_result *r, size_t from)
{
	double t = 0.0;

	for (size_t i = from; r->job_ios && i < r->run.nr_jobs; i++)
		t += (double)r->job_ios[i];
	return t;
}

static double mq_secs(const struct ios_repro_result *r)
{
	const struct ios_cmp_run *cr = &r->run;

	return cr->last_finish_ns > cr->first_start_ns
	       ? (double)(cr->last_finish_ns - cr->first_start_ns) / 1e9 : NAN;
}

static double mq_p50(const struct ios_repro_result *r)
{
	return r->has_first_pct ? (double)r->first_clat_pct[0] : NAN;
}

static double mq_p90(const struct ios_repro_result *r)
{
	return r->has_first_pct ? (double)r->first_clat_pct[1] : NAN;
}

static double mq_p99(const struct ios_repro_result *r)
{
	return r->has_first_pct ? (double)r->first_clat_pct[2] : NAN;
}

static double mq_dev90(const struct ios_repro_result *r)
{
	return r->has_first_dev ? (double)r->first_dev_p90_ns : NAN;
}

static double mq_iops_others(const struct ios_repro_result *r)
{
	return mq_total_ios(r, 1) / mq_secs(r);
}

static double mq_iops_all(const struct ios_repro_result *r)
{
	return mq_total_ios(r, 0) / mq_secs(r);
}

static double mq_first_share(const struct ios_repro_result *r)
{
	double t = mq_total_ios(r, 0);

	return t > 0.0 ? (double)r->job_ios[0] / t : NAN;
}

static double mq_others_min(const struct ios_repro_result *r)
{
	double v = NAN;

	for (size_t i = 1; r->job_ios && i < r->run.nr_jobs; i++)
		if (!(v <= (double)r->job_ios[i]))
			v = (double)r->job_ios[i];
	return v;
}

static double mq_others_lat(const struct ios_repro_result *r)
{
	double v = NAN;

	for (size_t i = 1; i < r->run.nr_jobs; i++)
		if (r->run.jobs[i].has_lat && !(v >= (double)r->run.jobs[i].clat_max_ns))
			v = (double)r->run.jobs[i].clat_max_ns;
	return v;
}

static double mq_agg_mib(const struct ios_repro_result *r)
{
	return r->run.agg_kib / 1024.0;
}

static double mq_spread(const struct ios_repro_result *r)
{
	return r->run.finish_spread;
}

static double mq_makespan(const struct ios_repro_result *r)
{
	return r->run.last_finish_ns ? (double)r->run.last_finish_ns / 1e9 : NAN;
}

/* " | 123" with @scale and @decimals, " | -" for no value */
static void mq_num(struct ios_buf *out, double v, double scale, int decimals, const char *unit)
{
	if (isfinite(v))
		ios_buf_printf(out, " | %.*f%s", decimals, v / scale, unit);
	else
		ios_buf_puts(out, " | -");
}

/* A column's runs: this experiment's, else its base's (NULL: neither). */
static const struct ios_repro_result *mq_runs(const struct ios_repro_data *d, const char *label,
					      bool *from_base)
{
	long c = ios_repro_column(d, label);

	*from_base = false;
	if (c >= 0)
		return &d->res[(size_t)c * d->nr_seeds];
	if (!d->base || (c = ios_repro_column(d->base, label)) < 0)
		return NULL;
	*from_base = true;
	return &d->base->res[(size_t)c * d->base->nr_seeds];
}

static const char *mq_first_name(const struct ios_repro_data *d)
{
	const struct ios_cmp_run *cr = d->nr_cols ? &d->res[0].run : NULL;

	return cr && cr->nr_jobs ? cr->jobs[0].name : "first job";
}

/* ---- per kind: our numbers ---- */

/* M1: the first job's latency, the I/Os per second */
static void mq_table_lat(struct ios_buf *out, const struct ios_repro_data *d)
{
	const char *j0 = mq_first_name(d);
	char h[5][96];
	const char *hdr[] = {
		"run", h[0], h[1], h[2], h[3], h[4], "all jobs' I/Os per s",
	};

	snprintf(h[0], sizeof(h[0]), "%s clat p50 (µs)", j0);
	snprintf(h[1], sizeof(h[1]), "%s p90 (µs)", j0);
	snprintf(h[2], sizeof(h[2]), "%s p99 (µs)", j0);
	snprintf(h[3], sizeof(h[3]), "%s p90 device latency (µs)", j0);
	snprintf(h[4], sizeof(h[4]), "the other jobs' I/Os per s");
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c <= d->nr_cols; c++) {
		const struct ios_repro_result *r;

		if (c == d->nr_cols) {
			if (!d->alone)
				break;
			r = d->alone;
			ios_buf_printf(out, "| %s alone under `%s`", j0, d->exp->alone_column);
		} else {
			r = &d->res[c * d->nr_seeds];
			ios_rmd_label(out, d->cols[c].label, false);
		}
		mq_num(out, mq_median(r, d->nr_seeds, mq_p50), 1e3, 0, "");
		mq_num(out, mq_median(r, d->nr_seeds, mq_p90), 1e3, 0, "");
		mq_num(out, mq_median(r, d->nr_seeds, mq_p99), 1e3, 0, "");
		mq_num(out, mq_median(r, d->nr_seeds, mq_dev90), 1e3, 0, "");
		if (c == d->nr_cols)
			ios_buf_puts(out, " | -");
		else
			mq_num(out, mq_median(r, d->nr_seeds, mq_iops_others), 1.0, 0, "");
		mq_num(out, mq_median(r, d->nr_seeds, mq_iops_all), 1.0, 0, "");
		ios_buf_puts(out, " |\n");
	}
	ios_buf_printf(out, "\nEach number is the median over the seeds. clat: from submission "
		       "to completion, fio's percentiles of %s's histogram; device latency: "
		       "from the request's dispatch to the device to its completion (what "
		       "kyber measures as I/O latency), from the run's trace. I/Os per s: "
		       "completed I/Os over the run, first start to last finish.\n", j0);
}

/* M2: each job's share of the completed I/Os */
static void mq_table_ios(struct ios_buf *out, const struct ios_repro_data *d)
{
	const char *j0 = mq_first_name(d);
	char h[96];
	const char *hdr[] = {
		"run", h, "the others' share", "fewest I/Os of another job",
		"the others' worst clat (ms)", "I/Os per job, seed 1",
	};

	snprintf(h, sizeof(h), "%s's share of the I/Os", j0);
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_repro_result *r = &d->res[c * d->nr_seeds];
		double sh = mq_median(r, d->nr_seeds, mq_first_share);

		ios_rmd_label(out, d->cols[c].label, false);
		mq_num(out, 100.0 * sh, 1.0, 1, " %");
		mq_num(out, isfinite(sh) ? 100.0 * (1.0 - sh) : NAN, 1.0, 1, " %");
		mq_num(out, mq_median(r, d->nr_seeds, mq_others_min), 1.0, 0, "");
		mq_num(out, mq_median(r, d->nr_seeds, mq_others_lat), 1e6, 1, "");
		ios_buf_puts(out, " | ");
		for (size_t i = 0; r->job_ios && i < r->run.nr_jobs; i++)
			ios_buf_printf(out, "%s%s %" PRIu64, i ? ", " : "", r->run.jobs[i].name,
				       r->job_ios[i]);
		ios_buf_puts(out, " |\n");
	}
	ios_buf_puts(out, "\nMedians over the seeds (shares of the shares' medians), apart from "
		     "the last column. The others' worst clat: the longest completion latency "
		     "of any job after the first.\n");
}

/*
 * C1, C2 (cgroup v2): per column, each cgroup's share of the I/Os over the
 * run, the aggregate rate and io.cost's monitor (the period switch, vrate
 * at the end), medians over the seeds.
 */
static double mq_iocost_switch(const struct ios_repro_result *r)
{
	return r->has_iocost && r->iocost_switch_ns ? (double)r->iocost_switch_ns : NAN;
}

static double mq_vrate_end(const struct ios_repro_result *r)
{
	return r->has_iocost ? r->iocost_vrate_end : NAN;
}

static void mq_table_cgv2(struct ios_buf *out, const struct ios_repro_data *d)
{
	static const char *const hdr[] = {
		"run", "I/Os per cgroup, seed 1 (share)", "aggregate MiB/s",
		"io.cost period switch (s)", "vrate at the end (%)",
	};

	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_repro_result *r = &d->res[c * d->nr_seeds];
		uint64_t all = 0;

		ios_rmd_label(out, d->cols[c].label, false);
		ios_buf_puts(out, " | ");
		for (size_t g = 0; g < r->nr_groups; g++)
			all += r->groups[g].ios;
		for (size_t g = 0; g < r->nr_groups; g++)
			ios_buf_printf(out, "%s%s %" PRIu64 " (%.1f %%)", g ? ", " : "",
				       r->groups[g].path, r->groups[g].ios,
				       all ? 100.0 * (double)r->groups[g].ios / (double)all : 0.0);
		mq_num(out, mq_median(r, d->nr_seeds, mq_agg_mib), 1.0, 1, "");
		mq_num(out, mq_median(r, d->nr_seeds, mq_iocost_switch), 1e9, 2, "");
		mq_num(out, mq_median(r, d->nr_seeds, mq_vrate_end), 1.0, 1, "");
		ios_buf_puts(out, " |\n");
	}
	ios_buf_puts(out, "\nMedians over the seeds, apart from the second column; \"-\": io.cost "
		     "did not run, or its period never changed. The period switch is the end of "
		     "the last period at the first parameter set's length (io.cost's monitor, "
		     "`iosched.iocost`).\n");
}

/* M3, M4: our runs beside the base experiment's runs they are compared with */
static void mq_vs_row(struct ios_buf *out, const struct ios_repro_data *d, const char *label)
{
	bool base;
	const struct ios_repro_result *r = mq_runs(d, label, &base);
	char text[160];

	if (!r)
		return;
	if (base)
		snprintf(text, sizeof(text), "`%s` (%s's run)", label, d->base->exp->name);
	else
		snprintf(text, sizeof(text), "`%s`", label);
	ios_buf_printf(out, "| %s", text);
	mq_num(out, mq_median(r, d->nr_seeds, mq_agg_mib), 1.0, 1, "");
	mq_num(out, 100.0 * mq_median(r, d->nr_seeds, mq_spread), 1.0, 1, " %");
	mq_num(out, mq_median(r, d->nr_seeds, mq_makespan), 1.0, 2, "");
	ios_buf_puts(out, " | ");
	for (size_t i = 0; i < r->run.nr_jobs; i++)
		ios_buf_printf(out, "%s%s %.0f", i ? ", " : "", r->run.jobs[i].name,
			       r->run.jobs[i].bw_kib);
	ios_buf_puts(out, " |\n");
}

static void mq_table_vs(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;
	static const char *const hdr[] = {
		"run", "aggregate (MiB/s)", "finish spread", "makespan (s)",
		"each job's KiB/s, seed 1",
	};
	const char *seen[32];
	size_t ns = 0;

	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++)
		mq_vs_row(out, d, d->cols[c].label);
	/* the base's columns the checks compare with, once each, in check order */
	for (size_t k = 0; k < x->nr_checks; k++) {
		const char *names[2] = { x->checks[k].like, x->checks[k].ref };

		for (int n = 0; n < 2; n++) {
			bool dup = !names[n] || ios_repro_column(d, names[n]) >= 0;

			for (size_t i = 0; i < ns && !dup; i++)
				dup = !strcmp(seen[i], names[n]);
			if (dup || ns == IOS_ARRAY_SIZE(seen))
				continue;
			seen[ns++] = names[n];
			mq_vs_row(out, d, names[n]);
		}
	}
	ios_buf_puts(out, "\nMedians over the seeds, apart from the last column (bandwidth: a "
		     "job's bytes over its runtime). Rows marked with an experiment's name are "
		     "that experiment's runs in this report, which the criteria compare with.\n");
}

/* one row of the counters' table: @label's seed-1 run, this experiment's or its base's */
static void mq_counters_row(struct ios_buf *out, const struct ios_repro_data *d,
			    const char *label)
{
	bool base;
	const struct ios_repro_result *r = mq_runs(d, label, &base);

	if (!r)
		return;
	if (base)
		ios_buf_printf(out, "| `%s` (%s's run) | ", label, d->base->exp->name);
	else
		ios_buf_printf(out, "| `%s` | ", label);
	for (size_t i = 0; i < r->nr_stats; i++)
		ios_buf_printf(out, "%s%s %" PRId64, i ? ", " : "", r->stats[i].name,
			       r->stats[i].value);
	if (!r->nr_stats)
		ios_buf_puts(out, "(none kept)");
	ios_buf_puts(out, " |\n");
}

/*
 * Every counter the scheduler keeps, at the end of seed 1's run (the first
 * 16: the run's result keeps no more), for our columns and the base's the
 * verdicts are compared with.
 */
static void mq_counters(struct ios_buf *out, const struct ios_repro_data *d)
{
	static const char *const hdr[] = { "run", "the scheduler's counters, seed 1" };
	const struct ios_repro_exp *x = d->exp;
	const char *seen[32];
	size_t ns = 0;
	bool any = false;

	for (size_t c = 0; c < d->nr_cols; c++)
		any = any || d->res[c * d->nr_seeds].nr_stats;
	if (!any)
		return;
	ios_buf_puts(out, "\n");
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), "ll");
	for (size_t c = 0; c < d->nr_cols; c++)
		mq_counters_row(out, d, d->cols[c].label);
	for (size_t k = 0; x->kind == IOS_REPRO_MQ_VS && k < x->nr_checks; k++) {
		const char *like = x->checks[k].like;
		bool dup = !like || ios_repro_column(d, like) >= 0;

		for (size_t i = 0; i < ns && !dup; i++)
			dup = !strcmp(seen[i], like);
		if (dup || ns == IOS_ARRAY_SIZE(seen))
			continue;
		seen[ns++] = like;
		mq_counters_row(out, d, like);
	}
}

/* ---- the criteria ---- */

static void mq_condition(const struct ios_repro_check *c, char *buf, size_t len)
{
	char name[160], bound[32];

	ios_repro_measure_name(c->when_m, NULL, name, sizeof(name));
	ios_repro_format(c->when_m, c->when_min, bound, sizeof(bound));
	snprintf(buf, len, "`%s`'s %s %s %s", c->when_column, name, c->when_below ? "<" : "≥",
		 bound);
}

static void mq_criteria(struct ios_buf *out, const struct ios_repro_data *d,
			const struct ios_repro_verdict *v)
{
	const struct ios_repro_exp *x = d->exp;
	static const char *const hdr[] = {
		"#", "column", "the criterion as written", "measured as", "ours", "",
	};
	bool any_why = false, any_when = false, any_vs = false;

	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), "lllrrl");
	for (size_t k = 0; k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		char crit[256], val[512], cond[256];

		ios_repro_criterion(c, true, crit, sizeof(crit));
		ios_rmd_value(c, &v[k], c->m == IOS_RM_VERDICTS_DIFFER ? 1 : d->nr_seeds, val,
			      sizeof(val));
		ios_buf_printf(out, "| %s ", c->id ? c->id : "");
		ios_rmd_label(out, c->column, false);
		ios_buf_puts(out, " | ");
		ios_rmd_cell(out, c->row);
		ios_buf_puts(out, " | ");
		ios_rmd_cell(out, crit);
		if (c->when_column) {
			mq_condition(c, cond, sizeof(cond));
			ios_buf_puts(out, ", if ");
			ios_rmd_cell(out, cond);
			any_when = true;
		}
		ios_buf_puts(out, " | ");
		ios_rmd_cell(out, val);
		ios_buf_printf(out, " | **%s** |\n", v[k].na ? "n/a" : v[k].pass ? "PASS" : "MISS");
		any_why = any_why || (!v[k].na && !v[k].pass && c->why_miss);
	}
	for (size_t k = 0; k < x->nr_checks; k++)
		any_vs = any_vs || x->checks[k].m == IOS_RM_VERDICTS_DIFFER;
	ios_buf_printf(out, "\n\"ours\" is %s%s.%s\n",
		       d->nr_seeds > 1 ? "the median over the seeds, each seed's value in brackets"
				       : "seed 1's value",
		       any_vs ? "; for a verdict comparison, the number of criteria whose verdicts "
				"differ (each criterion's values are in the table below)" : "",
		       any_when ? " n/a: the criterion's condition does not hold." : "");
	if (any_when)
		ios_buf_puts(out, "\nThe conditions, on the medians over the seeds:\n\n");
	for (size_t k = 0; any_when && k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		char g[64], cond[256];

		if (!c->when_column)
			continue;
		mq_condition(c, cond, sizeof(cond));
		ios_repro_format(c->when_m, v[k].when_value, g, sizeof(g));
		ios_buf_printf(out, "- %s: %s? It is %s, so the criterion %s.\n",
			       c->id ? c->id : c->column, cond, g,
			       v[k].na ? "does not apply" : "applies");
	}
	if (!any_why)
		return;
	ios_buf_puts(out, "\nThe misses, explained:\n\n");
	for (size_t k = 0; k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		const char *prev = NULL;

		if (v[k].na || v[k].pass || !c->why_miss)
			continue;
		for (size_t i = 0; i < k && !prev; i++)
			if (!v[i].na && !v[i].pass && x->checks[i].why_miss == c->why_miss)
				prev = c->why_miss;
		ios_buf_printf(out, "- %s, `%s`: %s\n", c->id ? c->id : "", c->column,
			       prev ? "the same explanation as above." : c->why_miss);
	}
}

/* A verdict comparison's criteria, each on both columns. */
static int mq_pairs(struct ios_buf *out, const struct ios_repro_data *d,
		    const struct ios_repro_check *c)
{
	const struct ios_repro_data *src = d->exp->base ? d->base : d;
	struct ios_repro_pair *p;
	char h[3][96];
	const char *hdr[] = { h[0], h[1], "", h[2], "", "" };
	size_t n = 0;
	int ret;

	if (!src)
		return -EINVAL;
	p = calloc(src->exp->nr_checks + 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	ret = ios_repro_verdict_pairs(d, c, p, src->exp->nr_checks, &n);
	if (ret) {
		free(p);
		return ret;
	}
	snprintf(h[0], sizeof(h[0]), "criterion of %s (the column it was written for)",
		 src->exp->name);
	snprintf(h[1], sizeof(h[1]), "on `%s`", c->like);
	snprintf(h[2], sizeof(h[2]), "on `%s`", c->column);
	ios_buf_printf(out, "\n%s: every %scriterion of `%s` on `%s` and on `%s`.\n\n",
		       c->id ? c->id : c->column, c->like_of ? "" : "distinct ", src->exp->name,
		       c->like, c->column);
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), "lrlrll");
	for (size_t i = 0; i < n; i++) {
		char crit[256], a[64], b[64];

		ios_repro_criterion(p[i].crit, true, crit, sizeof(crit));
		ios_repro_format_vs(p[i].crit, p[i].like_value, a, sizeof(a));
		ios_repro_format_vs(p[i].crit, p[i].value, b, sizeof(b));
		ios_buf_puts(out, "| ");
		ios_rmd_cell(out, crit);
		ios_buf_printf(out, " (`%s`) | ", p[i].crit->column);
		ios_rmd_cell(out, a);
		ios_buf_printf(out, " | %s | ", p[i].like_pass ? "PASS" : "MISS");
		ios_rmd_cell(out, b);
		ios_buf_printf(out, " | %s | %s |\n", p[i].pass ? "PASS" : "MISS",
			       p[i].pass == p[i].like_pass ? "same" : "**differs**");
	}
	free(p);
	return 0;
}

/* ---- the section ---- */

static void mq_intro(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;

	ios_rmd_intro(out, d, "The question", "What the criteria expect");
	if (d->base)
		ios_buf_printf(out, "; the criteria also read this report's runs of `%s`",
			       d->base->exp->name);
	ios_buf_puts(out, ". Run alone: `iosched compare");
	if (*d->args)
		ios_buf_printf(out, " %s", d->args);
	ios_buf_printf(out, " %s --schedulers ", x->jobfile);
	for (size_t c = 0; c < d->nr_cols; c++)
		ios_buf_printf(out, "%s%s", c ? "," : "", d->cols[c].label);
	ios_buf_printf(out, "`.\n\n### Our numbers\n\n");
}

int ios_rmd_mq_experiment(struct ios_buf *out, const struct ios_repro_data *d,
			  const struct ios_repro_verdict *v)
{
	const struct ios_repro_exp *x = d->exp;
	char seeds[64], plot[128];

	mq_intro(out, d);
	if (x->kind == IOS_REPRO_MQ_LAT)
		mq_table_lat(out, d);
	else if (x->kind == IOS_REPRO_MQ_IOS)
		mq_table_ios(out, d);
	else if (x->kind == IOS_REPRO_CGV2)
		mq_table_cgv2(out, d);
	else
		mq_table_vs(out, d);
	mq_counters(out, d);
	ios_rmd_warnings(out, d);
	ios_buf_printf(out, "\n### Criteria ([`%s`](%s), written before the runs)\n\n",
		       x->criteria_doc, ios_rmd_doc_link(x->criteria_doc));
	mq_criteria(out, d, v);
	for (size_t k = 0; k < x->nr_checks; k++) {
		int ret;

		if (x->checks[k].m != IOS_RM_VERDICTS_DIFFER)
			continue;
		ret = mq_pairs(out, d, &x->checks[k]);
		if (ret)
			return ret;
	}
	ios_buf_printf(out, "\n### Reading it\n\n%s\n\n", x->learned);
	ios_repro_plot_name(x, plot, sizeof(plot));
	ios_rmd_plot_seed_words(d, ios_repro_plot_seed(d, v), seeds, sizeof(seeds));
	ios_buf_printf(out, "![%s: bandwidth and data moved %s over time, one row per "
		       "column, %s](%s)\n", x->title, ios_rmd_plot_lines(x), seeds, plot);
	return out->oom ? -ENOMEM : 0;
}
