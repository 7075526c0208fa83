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

/* the text table's headings and formats */
static const struct {
	const char *title, *fmt;
} sm_text[IOS_SWEEP_NR_METRICS] = {
	[IOS_SWEEP_M_AGG_KIB] = { "aggregate (KiB/s)", "%.1f" },
	[IOS_SWEEP_M_JAIN_BW] = { "Jain's index (bw)", "%.4f" },
	[IOS_SWEEP_M_MIN_MAX_BW] = { "min/max bw", "%.3f" },
	[IOS_SWEEP_M_FINISH_S] = { "last finish (s)", "%.3f" },
	[IOS_SWEEP_M_SPREAD] = { "finish spread", "%.3f" },
	[IOS_SWEEP_M_CLAT_MAX_MS] = { "clat max (ms)", "%.3f" },
	[IOS_SWEEP_M_CLAT_P99_MS] = { "clat p99 (ms)", "%.3f" },
};

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

/* per point: the metric's values over its seeds done, median/min/max */
struct sm_cell {
	double med, lo, hi;
	size_t n;
};

static void sm_cell(const struct ios_sweep_manifest *m, const double *metrics,
		    const unsigned char *state, size_t p, size_t seeds, int i, double *tmp,
		    struct sm_cell *c)
{
	size_t n = 0;

	for (size_t r = 0; r < seeds; r++) {
		size_t k = p * seeds + r;

		if (state[k] == IOS_SWEEP_DONE)
			tmp[n++] = metrics[k * IOS_SWEEP_NR_METRICS + i];
	}
	(void)m;
	c->med = ios_metric_median(tmp, n);
	/* the finite values are first and sorted now */
	c->n = 0;
	while (c->n < n && isfinite(tmp[c->n]))
		c->n++;
	c->lo = c->n ? tmp[0] : NAN;
	c->hi = c->n ? tmp[c->n - 1] : NAN;
}

int ios_sweep_merge(const struct ios_sweep_manifest *m, const double *metrics,
		    const unsigned char *state, bool json, struct ios_buf *out)
{
	size_t seeds = m->nr_tasks / m->nr_points, done = 0, width = 5;
	double *tmp = malloc(seeds * sizeof(*tmp));
	struct sm_cell c;

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
				sm_cell(m, metrics, state, p, seeds, i, tmp, &c);
				ios_buf_printf(out, "%s\n      \"%s\": {\"n\": %zu, \"median\": ",
					       i ? "," : "", ios_sweep_metric_names[i], c.n);
				sm_num(out, c.med);
				ios_buf_puts(out, ", \"min\": ");
				sm_num(out, c.lo);
				ios_buf_puts(out, ", \"max\": ");
				sm_num(out, c.hi);
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
	ios_buf_puts(out, "\nEach cell: the median over the seeds done, [min, max], and how many "
		     "seeds of the point were done.\n");
	for (int i = 0; i < IOS_SWEEP_NR_METRICS; i++) {
		ios_buf_printf(out, "\n%s\n", sm_text[i].title);
		for (size_t p = 0; p < m->nr_points; p++) {
			char med[40], lo[40], hi[40];

			sm_cell(m, metrics, state, p, seeds, i, tmp, &c);
			ios_buf_printf(out, "  %-*s  ", (int)width, m->tasks[p * seeds].label);
			if (!c.n) {
				ios_buf_printf(out, "%12s  (0/%zu)\n", "-", seeds);
				continue;
			}
			snprintf(med, sizeof(med), sm_text[i].fmt, c.med);
			snprintf(lo, sizeof(lo), sm_text[i].fmt, c.lo);
			snprintf(hi, sizeof(hi), sm_text[i].fmt, c.hi);
			ios_buf_printf(out, "%12s  [%s, %s]  (%zu/%zu)\n", med, lo, hi, c.n, seeds);
		}
	}
	free(tmp);
	return out->oom ? -ENOMEM : 0;
}
