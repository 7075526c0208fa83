/*
 * Sweep results and their merge (include/iosched/sweep.h, docs/sweep.md).
 *
 * A result file is JSON whose first two lines are written and read here
 * byte for byte: the manifest hash and task number, then compare's summary
 * metrics of the run (struct ios_cmp_run). The run's own JSON report
 * follows for people and other tools; the merge never needs it, so merging
 * 10,000 results reads two short lines of each. The hash is compared
 * before anything else is read: a result of another plan is never used.
 * The median is compare's and repro's (ios_metric_median, metrics.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/compare.h"
#include "iosched/sweep.h"

const char *const ios_sweep_metric_names[IOS_SWEEP_NR_METRICS] = {
	[IOS_SWEEP_M_AGG_KIB] = "aggregate_kib_s",
	[IOS_SWEEP_M_JAIN_BW] = "jain_bw",
	[IOS_SWEEP_M_MIN_MAX_BW] = "min_max_bw",
	[IOS_SWEEP_M_FINISH_S] = "finish_s",
	[IOS_SWEEP_M_SPREAD] = "finish_spread",
	[IOS_SWEEP_M_CLAT_MAX_MS] = "clat_max_ms",
	[IOS_SWEEP_M_CLAT_P99_MS] = "clat_p99_ms",
};

/* the text table's (and the plots') headings and formats */
const char *const ios_sweep_metric_titles[IOS_SWEEP_NR_METRICS] = {
	[IOS_SWEEP_M_AGG_KIB] = "aggregate (KiB/s)",
	[IOS_SWEEP_M_JAIN_BW] = "Jain's index (bw)",
	[IOS_SWEEP_M_MIN_MAX_BW] = "min/max bw",
	[IOS_SWEEP_M_FINISH_S] = "last finish (s)",
	[IOS_SWEEP_M_SPREAD] = "finish spread",
	[IOS_SWEEP_M_CLAT_MAX_MS] = "clat max (ms)",
	[IOS_SWEEP_M_CLAT_P99_MS] = "clat p99 (ms)",
};
const char *const ios_sweep_metric_fmts[IOS_SWEEP_NR_METRICS] = {
	[IOS_SWEEP_M_AGG_KIB] = "%.1f",
	[IOS_SWEEP_M_JAIN_BW] = "%.4f",
	[IOS_SWEEP_M_MIN_MAX_BW] = "%.3f",
	[IOS_SWEEP_M_FINISH_S] = "%.3f",
	[IOS_SWEEP_M_SPREAD] = "%.3f",
	[IOS_SWEEP_M_CLAT_MAX_MS] = "%.3f",
	[IOS_SWEEP_M_CLAT_P99_MS] = "%.3f",
};

int ios_sweep_metric_find(const char *name)
{
	for (int i = 0; i < IOS_SWEEP_NR_METRICS; i++)
		if (!strcmp(name, ios_sweep_metric_names[i]))
			return i;
	return -1;
}

static void sm_num(struct ios_buf *out, double v)
{
	if (isfinite(v))
		ios_buf_printf(out, "%.17g", v);
	else
		ios_buf_puts(out, "null");
}

int ios_sweep_result_write(const struct ios_sweep_manifest *m, size_t k,
			   const struct ios_cmp_run *cr, const char *report,
			   struct ios_buf *out)
{
	double v[IOS_SWEEP_NR_METRICS] = {
		[IOS_SWEEP_M_AGG_KIB] = cr->agg_kib,
		[IOS_SWEEP_M_JAIN_BW] = cr->jain_bw,
		[IOS_SWEEP_M_MIN_MAX_BW] = cr->min_max_bw,
		[IOS_SWEEP_M_FINISH_S] = (double)cr->last_finish_ns / 1e9,
		[IOS_SWEEP_M_SPREAD] = cr->finish_spread,
		[IOS_SWEEP_M_CLAT_MAX_MS] = cr->has_lat ? (double)cr->clat_max_ns / 1e6 : NAN,
		[IOS_SWEEP_M_CLAT_P99_MS] = cr->has_p99 ? (double)cr->clat_p99_ns / 1e6 : NAN,
	};

	ios_buf_printf(out, "{\"sweep\": {\"manifest\": \"%s\", \"task\": %zu},\n\"metrics\": {",
		       m->sha, k);
	for (int i = 0; i < IOS_SWEEP_NR_METRICS; i++) {
		ios_buf_printf(out, "%s\"%s\": ", i ? ", " : "", ios_sweep_metric_names[i]);
		sm_num(out, v[i]);
	}
	ios_buf_puts(out, "},\n\"report\":\n");
	ios_buf_puts(out, report);
	if (out->len && out->s[out->len - 1] != '\n')
		ios_buf_puts(out, "\n");
	ios_buf_puts(out, "}\n");
	return out->oom ? -ENOMEM : 0;
}

/* @*s starts with @lit: skip it */
static bool sm_lit(const char **s, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *s) < n || memcmp(*s, lit, n))
		return false;
	*s += n;
	return true;
}

int ios_sweep_result_parse(const struct ios_sweep_manifest *m, const char *path,
			   const char *text, size_t len, size_t *k, double *metrics,
			   struct ios_err *e)
{
	const char *s = text, *end = text + len;
	uint64_t x = 0;
	const char *d;

	if (!sm_lit(&s, end, "{\"sweep\": {\"manifest\": \"") || end - s < 64 ||
	    strspn(s, "0123456789abcdef") < 64)
		return IOS_ERR(e, -EINVAL, "%s:1: not a sweep result (expected {\"sweep\": "
			       "{\"manifest\": \"SHA256\", \"task\": K},)", path);
	if (memcmp(s, m->sha, 64))
		return IOS_ERR(e, -ESTALE, "%s:1: made for another plan (manifest %.12s..., "
			       "this plan's is %.12s...): not read", path, s, m->sha);
	s += 64;
	if (!sm_lit(&s, end, "\", \"task\": "))
		return IOS_ERR(e, -EINVAL, "%s:1: expected \"task\": K", path);
	for (d = s; s < end && *s >= '0' && *s <= '9' && x < IOS_SWEEP_MAX_TASKS; s++)
		x = x * 10 + (uint64_t)(*s - '0');
	if (s == d || x >= m->nr_tasks || !sm_lit(&s, end, "},\n\"metrics\": {"))
		return IOS_ERR(e, -EINVAL, "%s:1: \"task\": not a task number of the plan "
			       "(0..%zu) followed by the metrics line", path, m->nr_tasks - 1);
	*k = (size_t)x;
	for (int i = 0; i < IOS_SWEEP_NR_METRICS; i++) {
		char key[64], buf[40];
		size_t n = 0;

		snprintf(key, sizeof(key), "%s\"%s\": ", i ? ", " : "",
			 ios_sweep_metric_names[i]);
		if (!sm_lit(&s, end, key))
			return IOS_ERR(e, -EINVAL, "%s:2: expected metric \"%s\"", path,
				       ios_sweep_metric_names[i]);
		if (sm_lit(&s, end, "null")) {
			metrics[i] = NAN;
			continue;
		}
		while (s + n < end && n < sizeof(buf) - 1 && s[n] != ',' && s[n] != '}' && s[n] != '\n')
			buf[n] = s[n], n++;
		buf[n] = '\0';
		{
			char *ep;

			metrics[i] = strtod(buf, &ep);
			if (!n || *ep || !isfinite(metrics[i]))
				return IOS_ERR(e, -EINVAL, "%s:2: metric \"%s\": not a number", path,
					       ios_sweep_metric_names[i]);
		}
		s += n;
	}
	if (!sm_lit(&s, end, "},\n\"report\":\n") || len < 4 || memcmp(end - 4, "}\n}\n", 4))
		return IOS_ERR(e, -EINVAL, "%s:3: expected \"report\": and the run's report, "
			       "its closing '}' and the file's (cut short?)", path);
	return 0;
}

/* "3, 7-9": the tasks of @state @want, into @out (text) */
static size_t sm_ranges(const struct ios_sweep_manifest *m, const unsigned char *state,
			int want, struct ios_buf *out, bool json)
{
	size_t n = 0;

	for (size_t k = 0; k < m->nr_tasks; k++) {
		size_t j = k;

		if (state[k] != want)
			continue;
		if (json) {
			ios_buf_printf(out, "%s%zu", n++ ? ", " : "", k);
			continue;
		}
		while (j + 1 < m->nr_tasks && state[j + 1] == want)
			j++;
		ios_buf_printf(out, "%s%zu", n ? ", " : "", k);
		if (j > k)
			ios_buf_printf(out, "-%zu", j);
		n += j - k + 1;
		k = j;
	}
	return n;
}

static void sm_jstr(struct ios_buf *out, const char *s)
{
	ios_buf_puts(out, "\"");
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			ios_buf_printf(out, "\\%c", *s);
		else
			ios_buf_printf(out, "%c", *s);
	ios_buf_puts(out, "\"");
}

/* P(B = i), B ~ Binomial(n, 1/2), through logarithms: no overflow at any n */
static double sm_half_pmf(size_t n, size_t i)
{
	return exp(lgamma((double)n + 1) - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) -
		   (double)n * log(2.0));
}

int ios_sweep_median_ci(size_t n, size_t *k, double *coverage)
{
	double tail = 0;

	if (n < IOS_SWEEP_CI_MIN_N)
		return -EDOM;
	*k = 1;
	*coverage = 1 - 2 * sm_half_pmf(n, 0);
	/* coverage of x(j)..x(n+1-j) falls as j grows: stop at the first below 95 % */
	for (size_t j = 1; 2 * (j + 1) <= n + 1; j++) {
		double c;

		tail += sm_half_pmf(n, j - 1);
		c = 1 - 2 * (tail + sm_half_pmf(n, j));
		if (c < 0.95)
			break;
		*k = j + 1;
		*coverage = c;
	}
	return 0;
}

void ios_sweep_cell_of(const struct ios_sweep_manifest *m, const double *metrics,
		       const unsigned char *state, size_t p, int i, double *tmp,
		       struct ios_sweep_cell *c)
{
	size_t seeds = m->nr_tasks / m->nr_points, n = 0;

	for (size_t r = 0; r < seeds; r++) {
		size_t k = p * seeds + r;

		if (state[k] == IOS_SWEEP_DONE)
			tmp[n++] = metrics[k * IOS_SWEEP_NR_METRICS + i];
	}
	c->med = ios_metric_median(tmp, n);
	/* the finite values are first and sorted now */
	c->n = 0;
	while (c->n < n && isfinite(tmp[c->n]))
		c->n++;
	c->lo = c->n ? tmp[0] : NAN;
	c->hi = c->n ? tmp[c->n - 1] : NAN;
	c->has_ci = !ios_sweep_median_ci(c->n, &c->ci_k, &c->ci_coverage);
	c->ci_lo = c->has_ci ? tmp[c->ci_k - 1] : NAN;
	c->ci_hi = c->has_ci ? tmp[c->n - c->ci_k] : NAN;
}

int ios_sweep_merge(const struct ios_sweep_manifest *m, const double *metrics,
		    const unsigned char *state, bool json, struct ios_buf *out)
{
	size_t seeds = m->nr_tasks / m->nr_points, done = 0, width = 5;
	double *tmp = malloc(seeds * sizeof(*tmp));
	struct ios_sweep_cell c;

	if (!tmp)
		return -ENOMEM;
	for (size_t k = 0; k < m->nr_tasks; k++)
		done += state[k] == IOS_SWEEP_DONE;
	for (size_t p = 0; p < m->nr_points; p++)
		if (strlen(m->tasks[p * seeds].label) > width)
			width = strlen(m->tasks[p * seeds].label);
	if (json) {
		ios_buf_printf(out, "{\n  \"manifest\": \"%s\",\n  \"tasks\": %zu,\n  \"points\": "
			       "%zu,\n  \"seeds\": %zu,\n  \"done\": %zu,\n  \"failed\": [",
			       m->sha, m->nr_tasks, m->nr_points, seeds, done);
		sm_ranges(m, state, IOS_SWEEP_FAILED, out, true);
		ios_buf_puts(out, "],\n  \"missing\": [");
		sm_ranges(m, state, IOS_SWEEP_MISSING, out, true);
		ios_buf_puts(out, "],\n  \"table\": [");
		for (size_t p = 0; p < m->nr_points; p++) {
			ios_buf_printf(out, "%s\n    {\"point\": %zu, \"label\": ", p ? "," : "", p);
			sm_jstr(out, m->tasks[p * seeds].label);
			ios_buf_puts(out, ", \"seeds\": [");
			for (size_t r = 0; r < seeds; r++) {
				ios_buf_puts(out, r ? ", " : "");
				sm_jstr(out, m->tasks[p * seeds + r].seed);
			}
			ios_buf_puts(out, "], \"metrics\": {");
			for (int i = 0; i < IOS_SWEEP_NR_METRICS; i++) {
				ios_sweep_cell_of(m, metrics, state, p, i, tmp, &c);
				ios_buf_printf(out, "%s\n      \"%s\": {\"n\": %zu, \"median\": ",
					       i ? "," : "", ios_sweep_metric_names[i], c.n);
				sm_num(out, c.med);
				ios_buf_puts(out, ", \"min\": ");
				sm_num(out, c.lo);
				ios_buf_puts(out, ", \"max\": ");
				sm_num(out, c.hi);
				ios_buf_puts(out, ", \"median_ci\": ");
				if (c.has_ci) {
					ios_buf_printf(out, "{\"k\": %zu, \"coverage\": ", c.ci_k);
					sm_num(out, c.ci_coverage);
					ios_buf_puts(out, ", \"lo\": ");
					sm_num(out, c.ci_lo);
					ios_buf_puts(out, ", \"hi\": ");
					sm_num(out, c.ci_hi);
					ios_buf_puts(out, "}");
				} else {
					ios_buf_puts(out, "null");
				}
				ios_buf_puts(out, "}");
			}
			ios_buf_puts(out, "}}");
		}
		ios_buf_puts(out, "\n  ]\n}\n");
		free(tmp);
		return out->oom ? -ENOMEM : 0;
	}
	ios_buf_printf(out, "iosched sweep merge: %zu points x %zu seeds = %zu tasks, manifest "
		       "%.12s\ndone %zu", m->nr_points, seeds, m->nr_tasks, m->sha, done);
	ios_buf_puts(out, ", failed ");
	if (!sm_ranges(m, state, IOS_SWEEP_FAILED, out, false))
		ios_buf_puts(out, "none");
	ios_buf_puts(out, ", missing ");
	if (!sm_ranges(m, state, IOS_SWEEP_MISSING, out, false))
		ios_buf_puts(out, "none");
	ios_buf_puts(out, "\nEach cell: the median over the seeds done [lowest..highest], how many "
		     "seeds of the point were done,\nand with 5 or more a distribution-free "
		     "interval for the median, x(k)..x(n+1-k) of the sorted\nvalues with the "
		     "largest k covering >= 95 %, and its exact binomial coverage (5 seeds:\n"
		     "[lowest..highest], 93.8 %: no 95 % interval exists below 6).\n");
	for (int i = 0; i < IOS_SWEEP_NR_METRICS; i++) {
		ios_buf_printf(out, "\n%s\n", ios_sweep_metric_titles[i]);
		for (size_t p = 0; p < m->nr_points; p++) {
			char med[40], lo[40], hi[40], clo[40], chi[40];

			ios_sweep_cell_of(m, metrics, state, p, i, tmp, &c);
			ios_buf_printf(out, "  %-*s  ", (int)width, m->tasks[p * seeds].label);
			if (!c.n) {
				ios_buf_printf(out, "%12s  (0/%zu)\n", "-", seeds);
				continue;
			}
			snprintf(med, sizeof(med), ios_sweep_metric_fmts[i], c.med);
			snprintf(lo, sizeof(lo), ios_sweep_metric_fmts[i], c.lo);
			snprintf(hi, sizeof(hi), ios_sweep_metric_fmts[i], c.hi);
			ios_buf_printf(out, "%12s  [%s..%s]  (%zu/%zu)", med, lo, hi, c.n, seeds);
			if (c.has_ci) {
				snprintf(clo, sizeof(clo), ios_sweep_metric_fmts[i], c.ci_lo);
				snprintf(chi, sizeof(chi), ios_sweep_metric_fmts[i], c.ci_hi);
				ios_buf_printf(out, "  median CI [%s..%s] %.1f %%", clo, chi,
					       100 * c.ci_coverage);
			}
			ios_buf_puts(out, "\n");
		}
	}
	free(tmp);
	return out->oom ? -ENOMEM : 0;
}
