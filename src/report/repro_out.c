/*
 * The seed reproduction report's writers (repro.h): Markdown for
 * docs/REPRODUCTION.md, JSON with the same data, a short text summary, and
 * one SVG plot per experiment.
 *
 * Each experiment gets the thread's story (from the table), a table of its
 * numbers beside ours in the units the thread used (the thread's rows stand
 * right under the column that models its kernel), the criteria with PASS
 * or MISS and our number, the explanations of the misses that the docs
 * give, and its plot. Our rows show seed 1; where several seeds ran, the
 * per-seed values and their median are given too, and the plot draws the
 * seed whose first criterion's value is that median.
 *
 * Everything printed is a function of the runs and the table: no date, no
 * wall time, no host, so the same runs give the same bytes.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/repro.h"
#include "jsonw.h"
#include "repro_out_int.h"
#include "exp/repro_int.h"

/* ---- helpers ---- */

const char *ios_rmd_doc_link(const char *path)
{
	return strncmp(path, "docs/", 5) ? path : path + 5;
}

static const struct ios_repro_result *ro_res(const struct ios_repro_data *d, size_t col,
					     unsigned seed_idx)
{
	return &d->res[col * d->nr_seeds + seed_idx];
}

/* "per cgroup": what the plot's lines are */
const char *ios_rmd_plot_lines(const struct ios_repro_exp *x)
{
	return x->plot_by == IOS_PLOT_BY_CGROUP ? "per cgroup"
	       : x->plot_by == IOS_PLOT_BY_CLASS ? "per class and level" : "per job";
}

/* "seed 1", "median seed 3 of 5": which runs the plot draws */
void ios_rmd_plot_seed_words(const struct ios_repro_data *d, unsigned seed, char *buf,
			       size_t len)
{
	if (d->nr_seeds > 1)
		snprintf(buf, len, "median seed %u of %u", seed + 1, d->nr_seeds);
	else
		snprintf(buf, len, "seed %u", seed + 1);
}

static long ro_job(const struct ios_cmp_run *cr, const char *name)
{
	for (size_t i = 0; name && i < cr->nr_jobs; i++)
		if (!strcmp(cr->jobs[i].name, name))
			return (long)i;
	return -1;
}

static int ro_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ios_rmd_cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Markdown table cells must not contain a bare '|' */
void ios_rmd_cell(struct ios_buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			ios_buf_puts(out, "\\|");
		else
			ios_buf_printf(out, "%c", *s);
	}
}

void ios_rmd_seeds(const struct ios_repro_data *d, char *buf, size_t len)
{
	if (d->nr_seeds == 1)
		snprintf(buf, len, "seed 1");
	else
		snprintf(buf, len, "seeds 1-%u", d->nr_seeds);
}

/* the thread runs that stand beside column @col */
#define RO_FOR_THREAD(t, x, col) \
	for (const struct ios_repro_thread_run *t = (x)->thread_runs; \
	     t < (x)->thread_runs + (x)->nr_thread_runs; t++) \
		if (!strcmp(t->column, col))

void ios_rmd_label(struct ios_buf *out, const char *label, bool thread)
{
	ios_buf_puts(out, "| ");
	if (thread) {
		ios_buf_puts(out, "*");
		ios_rmd_cell(out, label);
		ios_buf_puts(out, "*");
	} else {
		ios_buf_puts(out, "`");
		ios_rmd_cell(out, label);
		ios_buf_puts(out, "`");
	}
}

/* @align: 'l' or 'r' per column; NULL: the first left, numbers right */
void ios_rmd_header(struct ios_buf *out, const char *const *cols, size_t n, const char *align)
{
	for (size_t i = 0; i < n; i++) {
		ios_buf_puts(out, "| ");
		ios_rmd_cell(out, cols[i]);
		ios_buf_puts(out, " ");
	}
	ios_buf_puts(out, "|\n");
	for (size_t i = 0; i < n; i++) {
		bool right = align && i < strlen(align) ? align[i] == 'r' : i > 0;

		ios_buf_puts(out, right ? "|---:" : "|---");
	}
	ios_buf_puts(out, "|\n");
}

/* where the thread's rows of the table come from */
static void ro_sources(struct ios_buf *out, const struct ios_repro_exp *x)
{
	if (!x->nr_thread_runs)
		return;
	ios_buf_puts(out, "\nThe thread's rows:");
	for (size_t i = 0; i < x->nr_thread_runs; i++)
		ios_buf_printf(out, "%s *%s*: %s", i ? ";" : "", x->thread_runs[i].label,
			       x->thread_runs[i].source);
	ios_buf_puts(out, ".\n");
}

/* what the runs ignored (seed 1; the other seeds run the same options) */
void ios_rmd_warnings(struct ios_buf *out, const struct ios_repro_data *d)
{
	bool any = false;

	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_repro_result *r = ro_res(d, c, 0);

		for (size_t i = 0; i < r->nr_warnings; i++) {
			if (!any)
				ios_buf_puts(out, "\nWarnings of the runs (options that had no "
					     "effect):\n\n");
			any = true;
			ios_buf_printf(out, "- `%s`: %s\n", d->cols[c].label, r->warnings[i]);
		}
	}
}

/* ---- per kind: the thread's numbers beside ours ---- */

/* A1: finish times earliest first, spread, makespan; the spreads over the seeds */
static void ro_finish_times(struct ios_buf *out, const uint64_t *fin, size_t n)
{
	uint64_t *v = calloc(n + 1, sizeof(*v));

	ios_buf_puts(out, " | ");
	if (!v) {
		out->oom = true;
		return;
	}
	memcpy(v, fin, n * sizeof(*v));
	qsort(v, n, sizeof(*v), ro_cmp_u64);
	for (size_t i = 0; i < n; i++)
		ios_buf_printf(out, "%s%.2f", i ? ", " : "", (double)v[i] / 1e9);
	free(v);
}

static void ro_finish_row(struct ios_buf *out, const struct ios_cmp_run *cr, const char *label,
			  bool thread)
{
	uint64_t *fin = calloc(cr->nr_jobs + 1, sizeof(*fin)), hi = 0;

	if (!fin) {
		out->oom = true;
		return;
	}
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		fin[i] = cr->jobs[i].finish_ns;
		hi = fin[i] > hi ? fin[i] : hi;
	}
	ios_rmd_label(out, label, thread);
	ro_finish_times(out, fin, cr->nr_jobs);
	ios_buf_printf(out, " | %.1f %% | %.2f", 100.0 * ios_metric_spread(fin, cr->nr_jobs),
		       (double)hi / 1e9);
	free(fin);
}

static int ro_table_finish(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;
	static const char *const hdr[] = {
		"run", "finish times, earliest first (s)", "spread", "makespan (s)",
		"aggregate (MiB/s)", "spread by seed", "median spread",
	};

	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_cmp_run *cr = &ro_res(d, c, 0)->run;
		double sp[IOS_REPRO_MAX_SEEDS];

		ro_finish_row(out, cr, d->cols[c].label, false);
		ios_buf_printf(out, " | %.1f | ", cr->agg_kib / 1024.0);
		for (unsigned s = 0; s < d->nr_seeds; s++) {
			sp[s] = ro_res(d, c, s)->run.finish_spread;
			ios_buf_printf(out, "%s%.1f", s ? " / " : "", 100.0 * sp[s]);
		}
		qsort(sp, d->nr_seeds, sizeof(*sp), ios_rmd_cmp_dbl);
		ios_buf_printf(out, " %% | %.1f %% |\n", 100.0 * (d->nr_seeds % 2 ? sp[d->nr_seeds / 2]
			       : (sp[d->nr_seeds / 2 - 1] + sp[d->nr_seeds / 2]) / 2.0));
		RO_FOR_THREAD(t, x, d->cols[c].label) {
			struct ios_repro_result tr;
			unsigned has;

			if (ios_repro_thread_result(t, cr, x->cgroups, &tr, &has))
				return -ENOMEM;
			ro_finish_row(out, &tr.run, t->label, true);
			ios_buf_puts(out, " | - | - | - |\n");
			ios_repro_result_free(&tr);
		}
	}
	ios_buf_printf(out, "\nOur rows are seed 1 (\"spread by seed\": %s). ", d->nr_seeds > 1
		       ? "each seed's, in order" : "only seed 1 ran");
	if (d->alone) {
		const struct ios_cmp_job *j = d->alone[0].run.nr_jobs ? &d->alone[0].run.jobs[0] : NULL;

		if (j && j->finish_ns > j->start_ns)
			ios_buf_printf(out, "The first job alone (`%s`), seed 1, read %.1f MiB/s.",
				       x->alone_column, (double)j->bytes / 1048576.0 /
				       ((double)(j->finish_ns - j->start_ns) / 1e9));
	}
	ios_buf_puts(out, "\n");
	return 0;
}

/* A2: the summary per column, then Moyer's tables of the thread beside ours */
static int ro_moyer_pair(struct ios_buf *out, const struct ios_repro_thread_run *t,
			 const struct ios_cmp_run *ours)
{
	struct ios_repro_result tr;
	struct ios_share_row *ta, *oa;
	uint64_t ttot, otot;
	double tprio, oprio;
	unsigned has;
	size_t n;
	static const char *const hdr[] = {
		"class", "prio", "thread: ideal", "xferred", "%diff", "ours: ideal", "xferred",
		"%diff",
	};

	if (ios_repro_thread_result(t, ours, NULL, &tr, &has))
		return -ENOMEM;
	ta = calloc(tr.run.nr_jobs + 1, sizeof(*ta));
	oa = calloc(ours->nr_jobs + 1, sizeof(*oa));
	if (!ta || !oa) {
		free(ta);
		free(oa);
		ios_repro_result_free(&tr);
		return -ENOMEM;
	}
	ios_cmp_share_rows(&tr.run, ta, &ttot, &tprio);
	ios_cmp_share_rows(ours, oa, &otot, &oprio);
	ios_buf_printf(out, "\n*%s* (%s) beside `%s`, seed 1: total priority %.6g and %.6g, "
		       "total data transferred %" PRIu64 " and %" PRIu64 " KiB.\n\n", t->label,
		       t->source, ours->label, tprio, oprio, ttot, otot);
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	n = tr.run.nr_jobs > ours->nr_jobs ? tr.run.nr_jobs : ours->nr_jobs;
	for (size_t i = 0; i < n; i++) {
		const struct ios_cmp_job *j = i < ours->nr_jobs ? &ours->jobs[i] : &tr.run.jobs[i];

		ios_buf_printf(out, "| %s | %d", j->ioprio_class == IOS_IOPRIO_CLASS_RT ? "rt"
			       : j->ioprio_class == IOS_IOPRIO_CLASS_IDLE ? "idle" : "be",
			       j->ioprio_level);
		if (i < tr.run.nr_jobs)
			ios_buf_printf(out, " | %" PRIu64 " | %" PRIu64 " | %lld", ta[i].ideal_kib,
				       ta[i].xferred_kib, ta[i].diff_pct);
		else
			ios_buf_puts(out, " | | |");
		if (i < ours->nr_jobs)
			ios_buf_printf(out, " | %" PRIu64 " | %" PRIu64 " | %lld |\n", oa[i].ideal_kib,
				       oa[i].xferred_kib, oa[i].diff_pct);
		else
			ios_buf_puts(out, " | | | |\n");
	}
	free(ta);
	free(oa);
	ios_repro_result_free(&tr);
	return 0;
}

static int ro_table_shares(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;
	static const char *const hdr[] = {
		"run", "total transferred (KiB)", "aggregate (MiB/s)", "worst |%diff|",
		"worst |%diff| by seed", "median",
	};

	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_cmp_run *cr = &ro_res(d, c, 0)->run;
		double w[IOS_REPRO_MAX_SEEDS];

		ios_rmd_label(out, d->cols[c].label, false);
		ios_buf_printf(out, " | %" PRIu64 " | %.1f | %.1f %% | ", cr->total_bytes / 1024,
			       cr->agg_kib / 1024.0, 100.0 * ios_repro_worst_diff(cr));
		for (unsigned s = 0; s < d->nr_seeds; s++) {
			w[s] = ios_repro_worst_diff(&ro_res(d, c, s)->run);
			ios_buf_printf(out, "%s%.1f", s ? " / " : "", 100.0 * w[s]);
		}
		qsort(w, d->nr_seeds, sizeof(*w), ios_rmd_cmp_dbl);
		ios_buf_printf(out, " %% | %.1f %% |\n", 100.0 * (d->nr_seeds % 2 ? w[d->nr_seeds / 2]
			       : (w[d->nr_seeds / 2 - 1] + w[d->nr_seeds / 2]) / 2.0));
		RO_FOR_THREAD(t, x, d->cols[c].label) {
			struct ios_repro_result tr;
			unsigned has;

			if (ios_repro_thread_result(t, cr, x->cgroups, &tr, &has))
				return -ENOMEM;
			ios_rmd_label(out, t->label, true);
			ios_buf_printf(out, " | %" PRIu64 " | - | %.1f %% | - | - |\n",
				       tr.run.total_bytes / 1024, 100.0 * ios_repro_worst_diff(&tr.run));
			ios_repro_result_free(&tr);
		}
	}
	ios_buf_puts(out, "\nOur rows are seed 1 apart from the last two columns. The thread's "
		     "xferred unit is not given; ours are KiB.\n");
	for (size_t c = 0; c < d->nr_cols; c++)
		RO_FOR_THREAD(t, x, d->cols[c].label)
			if (ro_moyer_pair(out, t, &ro_res(d, c, 0)->run))
				return -ENOMEM;
	return 0;
}

/* B1: each job's bandwidth and worst latency */
static void ro_rw_row(struct ios_buf *out, const struct ios_cmp_run *names, const char *label,
		      bool thread, const struct ios_cmp_run *cr, bool has_lat)
{
	double sum = 0.0;

	ios_rmd_label(out, label, thread);
	for (size_t i = 0; i < names->nr_jobs; i++) {
		long k = ro_job(cr, names->jobs[i].name);
		const struct ios_cmp_job *j = k >= 0 ? &cr->jobs[k] : NULL;

		if (j) {
			sum += j->bw_kib;
			ios_buf_printf(out, " | %.0f", j->bw_kib);
		} else {
			ios_buf_puts(out, " | -");
		}
		if (j && has_lat && j->has_lat)
			ios_buf_printf(out, " | %.1f", (double)j->clat_max_ns / 1e6);
		else
			ios_buf_puts(out, " | -");
	}
	ios_buf_printf(out, " | %.0f |\n", sum);
}

static int ro_table_rw(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;
	const struct ios_cmp_run *names = &ro_res(d, 0, 0)->run;
	char **hdr = calloc(2 * names->nr_jobs + 2, sizeof(*hdr));
	size_t n = 0;
	int ret = 0;

	if (!hdr)
		return -ENOMEM;
	hdr[n++] = strdup("run");
	for (size_t i = 0; i < names->nr_jobs; i++) {
		size_t len = strlen(names->jobs[i].name) + 32;

		hdr[n] = malloc(len);
		if (hdr[n])
			snprintf(hdr[n], len, "%s KiB/s", names->jobs[i].name);
		n++;
		hdr[n] = malloc(len);
		if (hdr[n])
			snprintf(hdr[n], len, "%s max clat (ms)", names->jobs[i].name);
		n++;
	}
	hdr[n++] = strdup("sum KiB/s");
	for (size_t i = 0; i < n; i++)
		if (!hdr[i])
			ret = -ENOMEM;
	if (!ret) {
		ios_rmd_header(out, (const char *const *)hdr, n, NULL);
		for (size_t c = 0; c < d->nr_cols && !ret; c++) {
			const struct ios_cmp_run *cr = &ro_res(d, c, 0)->run;

			ro_rw_row(out, names, d->cols[c].label, false, cr, true);
			RO_FOR_THREAD(t, x, d->cols[c].label) {
				struct ios_repro_result tr;
				unsigned has;

				if (ios_repro_thread_result(t, cr, x->cgroups, &tr, &has)) {
					ret = -ENOMEM;
					break;
				}
				ro_rw_row(out, names, t->label, true, &tr.run, t->max_lat_ms != NULL);
				ios_repro_result_free(&tr);
			}
		}
		ios_buf_printf(out, "\nOurs: seed 1; bandwidth is each job's bytes over its "
			       "runtime, max clat its worst completion latency.\n");
	}
	for (size_t i = 0; i < n; i++)
		free(hdr[i]);
	free(hdr);
	return ret;
}

/* B2: the timed job (cat), the disk's rates and its time per direction */
static void ro_samples(struct ios_buf *out, const double *v, size_t n)
{
	double lo = v[0], hi = v[0], sum = 0.0;

	for (size_t i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
		sum += v[i];
	}
	ios_buf_printf(out, " | %.0f-%.0f, mean %.0f", lo, hi, sum / (double)n);
}

static int ro_table_cat(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;
	char h1[96], h2[96];
	const char *hdr[] = {
		"run", h1, h2, "disk reads (KiB/s)", "disk writes (KiB/s)",
		"reads' share of device time", "writes' share",
	};

	snprintf(h1, sizeof(h1), "%s's time (s)", x->timed_job);
	snprintf(h2, sizeof(h2), "%s (KiB/s)", x->timed_job);
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_repro_result *r = ro_res(d, c, 0);
		const struct ios_cmp_run *cr = &r->run;
		long k = ro_job(cr, x->timed_job);
		double secs = (double)cr->sim_end_ns / 1e9, busy = (double)(r->busy_ns[0] + r->busy_ns[1]);

		ios_rmd_label(out, d->cols[c].label, false);
		if (k >= 0)
			ios_buf_printf(out, " | %.1f | %.0f", (double)cr->jobs[k].finish_ns / 1e9,
				       cr->jobs[k].bw_kib);
		else
			ios_buf_puts(out, " | - | -");
		ios_buf_printf(out, " | %.0f | %.0f", secs > 0 ? (double)r->disk_bytes[0] / 1024.0 / secs
			       : 0.0, secs > 0 ? (double)r->disk_bytes[1] / 1024.0 / secs : 0.0);
		if (busy > 0)
			ios_buf_printf(out, " | %.1f %% | %.1f %% |\n", 100.0 * (double)r->busy_ns[0] / busy,
				       100.0 * (double)r->busy_ns[1] / busy);
		else
			ios_buf_puts(out, " | - | - |\n");
		RO_FOR_THREAD(t, x, d->cols[c].label) {
			long tk = -1;

			for (size_t i = 0; t->jobs && i < t->nr_jobs; i++)
				if (!strcmp(t->jobs[i], x->timed_job))
					tk = (long)i;
			ios_rmd_label(out, t->label, true);
			if (tk >= 0 && t->finish_s && isfinite(t->finish_s[tk]))
				ios_buf_printf(out, " | %.1f | -", t->finish_s[tk]);
			else
				ios_buf_puts(out, " | - | -");
			if (t->nr_vm && t->vm_read_kib && t->vm_write_kib) {
				ro_samples(out, t->vm_read_kib, t->nr_vm);
				ro_samples(out, t->vm_write_kib, t->nr_vm);
			} else {
				ios_buf_puts(out, " | - | -");
			}
			ios_buf_puts(out, " | - | - |\n");
		}
	}
	ios_buf_puts(out, "\nOurs: seed 1; the disk's rates are the bytes it read and wrote over "
		     "the whole run (which ends with cat). The thread's are vmstat's per-second "
		     "bi and bo while cat ran: range and mean.\n");
	return 0;
}

/* D1: the sharers against the others' median */
/* the scheduler's counter @name at the end of the run, or -1 when it keeps none */
long long ios_rmd_stat(const struct ios_repro_result *r, const char *name)
{
	for (size_t i = 0; r && i < r->nr_stats; i++)
		if (!strcmp(r->stats[i].name, name))
			return (long long)r->stats[i].value;
	return -1;
}

static void ro_sharers_row(struct ios_buf *out, const struct ios_repro_exp *x,
			   const struct ios_cmp_run *cr, const struct ios_repro_result *r,
			   const char *label, bool thread)
{
	long long merges = ios_rmd_stat(r, "queue_merges");
	double s[2] = { NAN, NAN }, *others = calloc(cr->nr_jobs + 1, sizeof(*others)), med;
	size_t n = 0;

	if (!others) {
		out->oom = true;
		return;
	}
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		if (!strcmp(cr->jobs[i].name, x->sharers[0]))
			s[0] = cr->jobs[i].bw_kib;
		else if (!strcmp(cr->jobs[i].name, x->sharers[1]))
			s[1] = cr->jobs[i].bw_kib;
		else
			others[n++] = cr->jobs[i].bw_kib;
	}
	ios_rmd_label(out, label, thread);
	if (!n) {
		ios_buf_puts(out, " | - | - | - | - | - | - | - |\n");
		free(others);
		return;
	}
	qsort(others, n, sizeof(*others), ios_rmd_cmp_dbl);
	med = n % 2 ? others[n / 2] : (others[n / 2 - 1] + others[n / 2]) / 2.0;
	ios_buf_printf(out, " | %.0f | %.0f | %.0f | %.0f-%.0f | %.4f | %.4f", s[0], s[1], med,
		       others[0], others[n - 1], s[0] / med, s[1] / med);
	if (merges >= 0)
		ios_buf_printf(out, " | %lld |\n", merges);
	else
		ios_buf_puts(out, " | - |\n");
	free(others);
}

static int ro_table_sharers(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;
	char h[4][96];
	const char *hdr[] = {
		"run", h[0], h[1], "the others' median (KiB/s)", "the others (KiB/s)", h[2], h[3],
		"queue merges",
	};

	snprintf(h[0], sizeof(h[0]), "%s (KiB/s)", x->sharers[0]);
	snprintf(h[1], sizeof(h[1]), "%s (KiB/s)", x->sharers[1]);
	snprintf(h[2], sizeof(h[2]), "%s / median", x->sharers[0]);
	snprintf(h[3], sizeof(h[3]), "%s / median", x->sharers[1]);
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_cmp_run *cr = &ro_res(d, c, 0)->run;

		ro_sharers_row(out, x, cr, ro_res(d, c, 0), d->cols[c].label, false);
		RO_FOR_THREAD(t, x, d->cols[c].label) {
			struct ios_repro_result tr;
			unsigned has;

			if (ios_repro_thread_result(t, cr, x->cgroups, &tr, &has))
				return -ENOMEM;
			ro_sharers_row(out, x, &tr.run, NULL, t->label, true);
			ios_repro_result_free(&tr);
		}
	}
	ios_buf_printf(out, "\nOurs: seed 1; %s and %s read the same file, the others one file "
		       "each. Queue merges: how many times the scheduler joined two processes' "
		       "queues into one (CFQ 2.6.33+'s cfqq merging, BFQ's early queue merging), "
		       "from its statistics; '-' where it keeps no such count.\n",
		       x->sharers[0], x->sharers[1]);
	return 0;
}

/* C1: I/Os per cgroup and the disk time the scheduler charged each */
static void ro_cgroup_row(struct ios_buf *out, const struct ios_repro_exp *x,
			  const struct ios_repro_result *r, const char *label, bool thread)
{
	const struct ios_repro_group *g[2] = { NULL, NULL };

	for (size_t i = 0; i < r->nr_groups; i++)
		for (int k = 0; k < 2; k++)
			if (!strcmp(r->groups[i].path, x->cgroups[k]))
				g[k] = &r->groups[i];
	ios_rmd_label(out, label, thread);
	if (!g[0] || !g[1]) {
		ios_buf_puts(out, " | - | - | - | - | - |\n");
		return;
	}
	ios_buf_printf(out, " | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | ", g[0]->ios, g[1]->ios,
		       g[0]->ios + g[1]->ios);
	if (g[1]->ios)
		ios_buf_printf(out, "%.2f", (double)g[0]->ios / (double)g[1]->ios);
	else
		ios_buf_puts(out, "-");
	if (g[0]->has_time && g[1]->has_time && g[1]->time_ns)
		ios_buf_printf(out, " | %.2f |\n", (double)g[0]->time_ns / (double)g[1]->time_ns);
	else
		ios_buf_puts(out, " | - |\n");
}

static int ro_table_cgroup(struct ios_buf *out, const struct ios_repro_data *d)
{
	const struct ios_repro_exp *x = d->exp;
	char h[4][96];
	const char *hdr[] = { "run", h[0], h[1], "I/Os in all", h[2], h[3] };

	snprintf(h[0], sizeof(h[0]), "%s I/Os", x->cgroups[0]);
	snprintf(h[1], sizeof(h[1]), "%s I/Os", x->cgroups[1]);
	snprintf(h[2], sizeof(h[2]), "I/Os %s / %s", x->cgroups[0], x->cgroups[1]);
	snprintf(h[3], sizeof(h[3]), "disk time %s / %s", x->cgroups[0], x->cgroups[1]);
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t c = 0; c < d->nr_cols; c++) {
		const struct ios_repro_result *r = ro_res(d, c, 0);

		ro_cgroup_row(out, x, r, d->cols[c].label, false);
		RO_FOR_THREAD(t, x, d->cols[c].label) {
			struct ios_repro_result tr;
			unsigned has;

			if (ios_repro_thread_result(t, &r->run, x->cgroups, &tr, &has))
				return -ENOMEM;
			ro_cgroup_row(out, x, &tr, t->label, true);
			ios_repro_result_free(&tr);
		}
	}
	ios_buf_puts(out, "\nOurs: seed 1; I/Os are the reads and writes the cgroup's processes "
		     "completed in the run, disk time what the scheduler charged each group "
		     "(blkio.time; '-' where the scheduler keeps no groups).\n");
	return 0;
}

static int ro_table(struct ios_buf *out, const struct ios_repro_data *d)
{
	switch (d->exp->kind) {
	case IOS_REPRO_FINISH:
		return ro_table_finish(out, d);
	case IOS_REPRO_SHARES:
		return ro_table_shares(out, d);
	case IOS_REPRO_RW:
		return ro_table_rw(out, d);
	case IOS_REPRO_CAT:
		return ro_table_cat(out, d);
	case IOS_REPRO_SHARERS:
		return ro_table_sharers(out, d);
	case IOS_REPRO_CGROUP:
		return ro_table_cgroup(out, d);
	case IOS_REPRO_MQ_LAT:
	case IOS_REPRO_MQ_IOS:
	case IOS_REPRO_MQ_VS:
	case IOS_REPRO_CGV2:
		break;	/* their sections are repro_mq_out.c's */
	}
	return -EINVAL;
}

/* ---- criteria ---- */

void ios_rmd_value(const struct ios_repro_check *c, const struct ios_repro_verdict *v,
		     unsigned nr_seeds, char *buf, size_t len)
{
	size_t n;

	ios_repro_format_vs(c, v->value, buf, len);
	if (nr_seeds < 2)
		return;
	n = strlen(buf);
	for (unsigned s = 0; s < nr_seeds && n < len; s++) {
		char one[32];

		ios_repro_format_vs(c, v->per_seed[s], one, sizeof(one));
		n += (size_t)snprintf(buf + n, len - n, "%s%s", s ? " / " : " (", one);
	}
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

static void ro_count(const struct ios_repro_data *d, const struct ios_repro_verdict *v,
		     size_t *pass, size_t *tpass, size_t *tn)
{
	*pass = *tpass = *tn = 0;
	for (size_t k = 0; k < d->exp->nr_checks; k++) {
		*pass += v[k].pass;
		if (isfinite(v[k].thread)) {
			(*tn)++;
			*tpass += v[k].thread_pass;
		}
	}
}

static void ro_criteria_md(struct ios_buf *out, const struct ios_repro_data *d,
			   const struct ios_repro_verdict *v)
{
	const struct ios_repro_exp *x = d->exp;
	static const char *const hdr[] = {
		"column", "seed-scenarios.md", "criterion", "ours", "", "thread",
	};
	bool any_why = false;

	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), "lllrlr");
	for (size_t k = 0; k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		char crit[256], val[512], th[64];

		ios_repro_criterion(c, true, crit, sizeof(crit));
		ios_rmd_value(c, &v[k], d->nr_seeds, val, sizeof(val));
		ios_repro_format_vs(c, v[k].thread, th, sizeof(th));
		ios_rmd_label(out, c->column, false);
		ios_buf_puts(out, " | ");
		ios_rmd_cell(out, c->row);
		ios_buf_puts(out, " | ");
		ios_rmd_cell(out, crit);
		ios_buf_puts(out, " | ");
		ios_rmd_cell(out, val);
		ios_buf_printf(out, " | **%s** | ", v[k].pass ? "PASS" : "MISS");
		ios_rmd_cell(out, th);
		if (isfinite(v[k].thread))
			ios_buf_printf(out, " %s", v[k].thread_pass ? "pass" : "miss");
		ios_buf_puts(out, " |\n");
		any_why = any_why || (!v[k].pass && c->why_miss);
	}
	ios_buf_printf(out, "\n\"ours\" is %s; \"thread\" is the same measure on the thread's "
		       "numbers (the median over its runs), where they allow it.\n",
		       d->nr_seeds > 1 ? "the median over the seeds, each seed's value in brackets"
				       : "seed 1's value");
	if (!any_why)
		return;
	ios_buf_puts(out, "\nThe misses, explained:\n\n");
	for (size_t k = 0; k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		const char *prev = NULL;
		char crit[256], val[64];

		if (v[k].pass || !c->why_miss)
			continue;
		/* an explanation already given is referred to, not repeated */
		for (size_t i = 0; i < k && !prev; i++)
			if (!v[i].pass && x->checks[i].why_miss == c->why_miss)
				prev = c->why_miss;
		ios_repro_criterion(c, true, crit, sizeof(crit));
		ios_repro_format_vs(c, v[k].value, val, sizeof(val));
		ios_buf_printf(out, "- `%s`, %s: %s. %s\n", c->column, crit, val,
			       prev ? "The same explanation as above." : c->why_miss);
	}
}

/* ---- the Markdown report ---- */

/*
 * A section's opening, the same for the seeds' and the blk-mq experiments
 * but for the names of its first two paragraphs: title, the question, what
 * was expected, the setup, and the run's line up to its columns.
 */
void ios_rmd_intro(struct ios_buf *out, const struct ios_repro_data *d, const char *question,
		   const char *expected)
{
	const struct ios_repro_exp *x = d->exp;
	char seeds[32];

	ios_rmd_seeds(d, seeds, sizeof(seeds));
	ios_buf_printf(out, "\n## %s\n\n", x->title);
	ios_buf_printf(out, "**%s.** %s\n\n", question, x->thread);
	ios_buf_printf(out, "**%s.** %s\n\n", expected, x->argued);
	ios_buf_printf(out, "**How it runs here.** %s\n\n", x->setup);
	ios_buf_printf(out, "Job file [`%s`](../%s), options `%s`, device `%s`, %s; columns ",
		       x->jobfile, x->jobfile, *d->args ? d->args : "(none)", d->device, seeds);
	ios_rmd_columns(out, d);
}

void ios_rmd_columns(struct ios_buf *out, const struct ios_repro_data *d)
{
	for (size_t c = 0; c < d->nr_cols; c++)
		ios_buf_printf(out, "%s`%s`", c ? ", " : "", d->cols[c].label);
}

static int ro_md_experiment(struct ios_buf *out, const struct ios_repro_data *d,
			    const struct ios_repro_verdict *v)
{
	const struct ios_repro_exp *x = d->exp;
	char seeds[32], plot[128];
	int ret;

	ios_repro_plot_name(x, plot, sizeof(plot));
	ios_rmd_intro(out, d, "Thread", "What it argued");
	ios_buf_puts(out, ". Run alone: `iosched compare");
	if (*d->args)
		ios_buf_printf(out, " %s", d->args);
	ios_buf_printf(out, " %s --schedulers ", x->jobfile);
	for (size_t c = 0; c < d->nr_cols; c++)
		ios_buf_printf(out, "%s%s", c ? "," : "", d->cols[c].label);
	ios_buf_puts(out, "`.\n\n### The thread's numbers and ours\n\n");
	ret = ro_table(out, d);
	if (ret)
		return ret;
	ro_sources(out, x);
	ios_rmd_warnings(out, d);
	ios_buf_puts(out, "\n### Criteria\n\n");
	ro_criteria_md(out, d, v);
	ios_buf_printf(out, "\n### What we learned\n\n%s\n\n", x->learned);
	ios_rmd_plot_seed_words(d, ios_repro_plot_seed(d, v), seeds, sizeof(seeds));
	ios_buf_printf(out, "![%s: bandwidth and data moved %s over time, one row per "
		       "column, %s](%s)\n", x->title, ios_rmd_plot_lines(x), seeds, plot);
	return 0;
}

static int ro_verdicts(const struct ios_repro_data *d, size_t n, struct ios_repro_verdict ***out)
{
	struct ios_repro_verdict **v = calloc(n + 1, sizeof(*v));
	int ret = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n && !ret; i++) {
		v[i] = calloc(d[i].exp->nr_checks + 1, sizeof(**v));
		ret = v[i] ? ios_repro_evaluate(&d[i], v[i]) : -ENOMEM;
	}
	*out = v;
	return ret;
}

static void ro_verdicts_free(struct ios_repro_verdict **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

int ios_repro_report_md(const struct ios_repro_data *d, size_t n, bool quick,
			const struct ios_repro_drives *drives, struct ios_buf *out)
{
	struct ios_repro_verdict **v;
	static const char *const hdr[] = {
		"experiment", "criteria", "PASS", "MISS", "the thread's numbers, same criteria",
	};
	int ret = ro_verdicts(d, n, &v);

	if (ret)
		goto out;
	ios_buf_puts(out,
"# Reproducing the seed threads\n"
"\n"
"<!-- Generated by `iosched repro` (`make seeds`); do not edit. -->\n"
"\n"
"Each experiment of `docs/seed-scenarios.md` run under the schedulers it has\n"
"expectations for, with the numbers its LKML thread posted beside ours. Every number of\n"
"ours here comes out of a simulated run; the only numbers typed into the source are the\n"
"threads' own, quoted from the seed threads' mails (LKML; named in `docs/seed-scenarios.md`) and shown in *italic* rows or the\n"
"\"thread\" column. What is derived from them (spreads, ratios, Moyer's ideal and %diff)\n"
"is computed by the same code as ours.\n"
"\n"
"The criteria are seed-scenarios.md's, evaluated per scheduler: PASS, or MISS with our number.\n"
"Where an experiment runs several seeds, the criterion applies to the median over them\n"
"(seed-scenarios.md §5). A MISS is reported as it came out; nothing was tuned to pass.\n"
"`tests/sh/repro.sh` checks that this file and the plots in `repro/` are what the code\n"
"produces now.\n");
	for (size_t i = 0; i < n; i++) {
		if (!d[i].exp->criteria_doc || d[i].exp->kind == IOS_REPRO_CGV2)
			continue;
		ios_buf_printf(out,
"\nThe sections after the seed experiments are the blk-mq scenarios of issue 29 (today's\n"
"schedulers: `none`, `mq-deadline`, `kyber`, `bfq-6.12`). They have no thread: their\n"
"criteria were written before any run, in [`%s`](%s), and are evaluated\n"
"here on simulated runs only, PASS, MISS or, for a criterion with a condition that does\n"
"not hold, n/a.\n", d[i].exp->criteria_doc, ios_rmd_doc_link(d[i].exp->criteria_doc));
		break;
	}
	for (size_t i = 0; i < n; i++) {
		if (d[i].exp->kind != IOS_REPRO_CGV2)
			continue;
		ios_buf_printf(out,
"\nThe cgroup v2 scenarios (issue 30, C1 and C2) come after them, their criteria written\n"
"before any run in [`%s`](%s) §10.\n", d[i].exp->criteria_doc,
			       ios_rmd_doc_link(d[i].exp->criteria_doc));
		break;
	}
	if (drives)
		ios_buf_puts(out,
"\nThe last section is not a thread's either: DiskSim 4.0's validation drives replayed\n"
"against the disk model built from DiskSim's own specifications, beside the demerits\n"
"DiskSim's model reaches on them (the only other numbers typed into the source).\n");
	ios_buf_printf(out, "\niosched %s.%s\n\n## Summary\n\n", IOS_VERSION_STRING,
		       quick ? " **A quick run (`--quick`: one seed each); not the full report.**"
			     : "");
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), NULL);
	for (size_t i = 0; i < n; i++) {
		size_t pass, tpass, tn;

		size_t na = 0;

		ro_count(&d[i], v[i], &pass, &tpass, &tn);
		for (size_t k = 0; k < d[i].exp->nr_checks; k++)
			na += v[i][k].na;
		ios_buf_printf(out, "| %s | %zu | %zu | %zu | ", d[i].exp->title,
			       d[i].exp->nr_checks - na, pass, d[i].exp->nr_checks - na - pass);
		if (d[i].exp->criteria_doc)
			ios_buf_printf(out, "no thread: criteria written before the runs (%s) |\n",
				       d[i].exp->criteria_doc);
		else if (tn)
			ios_buf_printf(out, "%zu of the %zu they allow pass |\n", tpass, tn);
		else
			ios_buf_puts(out, "none they allow |\n");
	}
	if (drives)
		ios_rmd_drives_summary(out, drives);
	for (size_t i = 0; i < n && !ret; i++)
		ret = d[i].exp->criteria_doc ? ios_rmd_mq_experiment(out, &d[i], v[i])
					     : ro_md_experiment(out, &d[i], v[i]);
	if (!ret && drives)
		ios_rmd_drives(out, drives);
	if (!ret && out->oom)
		ret = -ENOMEM;
out:
	ro_verdicts_free(v, n);
	return ret;
}

/* ---- text summary ---- */

int ios_repro_report_text(const struct ios_repro_data *d, size_t n,
			  const struct ios_repro_drives *drives, struct ios_buf *out)
{
	struct ios_repro_verdict **v;
	size_t total = 0, passed = 0;
	int ret = ro_verdicts(d, n, &v);

	for (size_t i = 0; i < n && !ret; i++) {
		const struct ios_repro_exp *x = d[i].exp;

		for (size_t k = 0; k < x->nr_checks; k++) {
			const struct ios_repro_check *c = &x->checks[k];
			char crit[256], val[64], th[64];

			ios_repro_criterion(c, false, crit, sizeof(crit));
			ios_repro_format_vs(c, v[i][k].value, val, sizeof(val));
			ios_repro_format_vs(c, v[i][k].thread, th, sizeof(th));
			ios_buf_printf(out, "%-3s %-28s %-52s %s %-10s", x->name, c->column, crit,
				       v[i][k].na ? "n/a " : v[i][k].pass ? "PASS" : "MISS", val);
			if (isfinite(v[i][k].thread))
				ios_buf_printf(out, " (thread %s)", th);
			ios_buf_puts(out, "\n");
			total += !v[i][k].na;
			passed += v[i][k].pass;
		}
	}
	if (!ret && drives) {
		size_t ok = ios_rmd_drives_text(out, drives);

		ios_buf_printf(out, "%zu criteria: %zu pass, %zu miss; DiskSim's drives: %zu of "
			       "%zu within %.0fx DiskSim's demerit\n", total, passed, total - passed,
			       ok, drives->n, IOS_REPRO_DRIVE_GOAL);
	} else if (!ret) {
		ios_buf_printf(out, "%zu criteria: %zu pass, %zu miss\n", total, passed,
			       total - passed);
	}
	ro_verdicts_free(v, n);
	return ret ? ret : out->oom ? -ENOMEM : 0;
}

/* ---- JSON ---- */

static void ro_js_run(struct ios_jw *w, const struct ios_repro_result *r, uint64_t seed)
{
	const struct ios_cmp_run *cr = &r->run;

	ios_jw_open(w, NULL, '{');
	ios_jw_u64(w, "seed", seed);
	ios_jw_u64(w, "sim_end_ns", cr->sim_end_ns);
	ios_jw_dbl(w, "aggregate_kib", cr->agg_kib);
	ios_jw_dbl(w, "finish_spread", cr->finish_spread);
	ios_jw_u64(w, "disk_read_bytes", r->disk_bytes[0]);
	ios_jw_u64(w, "disk_write_bytes", r->disk_bytes[1]);
	ios_jw_u64(w, "busy_read_ns", r->busy_ns[0]);
	ios_jw_u64(w, "busy_write_ns", r->busy_ns[1]);
	ios_jw_open(w, "jobs", '[');
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		const struct ios_cmp_job *j = &cr->jobs[i];

		ios_jw_open(w, NULL, '{');
		ios_jw_str(w, "name", j->name);
		ios_jw_u64(w, "bytes", j->bytes);
		ios_jw_u64(w, "ios", r->job_ios ? r->job_ios[i] : 0);
		ios_jw_dbl(w, "bw_kib", j->bw_kib);
		ios_jw_u64(w, "start_ns", j->start_ns);
		ios_jw_u64(w, "finish_ns", j->finish_ns);
		if (j->has_lat)
			ios_jw_u64(w, "clat_max_ns", j->clat_max_ns);
		else
			ios_jw_null(w, "clat_max_ns");
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, ']');
	if (r->nr_groups) {
		ios_jw_open(w, "cgroups", '[');
		for (size_t i = 0; i < r->nr_groups; i++) {
			const struct ios_repro_group *g = &r->groups[i];

			ios_jw_open(w, NULL, '{');
			ios_jw_str(w, "path", g->path);
			ios_jw_u64(w, "ios", g->ios);
			if (g->has_time)
				ios_jw_u64(w, "disk_time_ns", g->time_ns);
			else
				ios_jw_null(w, "disk_time_ns");
			ios_jw_close(w, '}');
		}
		ios_jw_close(w, ']');
	}
	ios_jw_close(w, '}');
}

static void ro_js_array(struct ios_jw *w, const char *key, const double *v, size_t n)
{
	if (!v) {
		ios_jw_null(w, key);
		return;
	}
	ios_jw_open(w, key, '[');
	for (size_t i = 0; i < n; i++)
		ios_jw_dbl(w, NULL, v[i]);
	ios_jw_close(w, ']');
}

static void ro_js_experiment(struct ios_jw *w, const struct ios_repro_data *d,
			     const struct ios_repro_verdict *v)
{
	const struct ios_repro_exp *x = d->exp;

	ios_jw_open(w, NULL, '{');
	ios_jw_str(w, "name", x->name);
	ios_jw_str(w, "title", x->title);
	ios_jw_str(w, "jobfile", x->jobfile);
	ios_jw_str(w, "args", d->args);
	ios_jw_str(w, "device", d->device);
	ios_jw_u64(w, "seeds", d->nr_seeds);
	ios_jw_open(w, "columns", '[');
	for (size_t c = 0; c < d->nr_cols; c++) {
		ios_jw_open(w, NULL, '{');
		ios_jw_str(w, "label", d->cols[c].label);
		ios_jw_str(w, "scheduler", d->cols[c].sched->name);
		ios_jw_open(w, "runs", '[');
		for (unsigned s = 0; s < d->nr_seeds; s++)
			ro_js_run(w, ro_res(d, c, s), s + 1);
		ios_jw_close(w, ']');
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, ']');
	if (d->alone) {
		ios_jw_open(w, "first_job_alone", '{');
		ios_jw_str(w, "column", x->alone_column);
		ios_jw_open(w, "runs", '[');
		for (unsigned s = 0; s < d->nr_seeds; s++)
			ro_js_run(w, &d->alone[s], s + 1);
		ios_jw_close(w, ']');
		ios_jw_close(w, '}');
	}
	ios_jw_open(w, "thread", '[');
	for (size_t i = 0; i < x->nr_thread_runs; i++) {
		const struct ios_repro_thread_run *t = &x->thread_runs[i];

		ios_jw_open(w, NULL, '{');
		ios_jw_str(w, "label", t->label);
		ios_jw_str(w, "column", t->column);
		ios_jw_str(w, "source", t->source);
		if (t->jobs) {
			ios_jw_open(w, "jobs", '[');
			for (size_t k = 0; k < t->nr_jobs; k++)
				ios_jw_str(w, NULL, t->jobs[k]);
			ios_jw_close(w, ']');
		} else {
			ios_jw_null(w, "jobs");
		}
		ro_js_array(w, "finish_s", t->finish_s, t->nr_jobs);
		ro_js_array(w, "xferred_kib", t->xferred_kib, t->nr_jobs);
		ro_js_array(w, "bw_kib", t->bw_kib, t->nr_jobs);
		ro_js_array(w, "max_lat_ms", t->max_lat_ms, t->nr_jobs);
		ro_js_array(w, "vmstat_bi_kib", t->vm_read_kib, t->nr_vm);
		ro_js_array(w, "vmstat_bo_kib", t->vm_write_kib, t->nr_vm);
		if (x->cgroups)
			ro_js_array(w, "cgroup_ios", t->group_ios, 2);
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, ']');
	ios_jw_open(w, "checks", '[');
	for (size_t k = 0; k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		char crit[256];
		double lo, hi;

		ios_repro_criterion(c, false, crit, sizeof(crit));
		ios_jw_open(w, NULL, '{');
		ios_jw_str(w, "column", c->column);
		ios_jw_str(w, "scenario_row", c->row);
		ios_jw_str(w, "criterion", crit);
		ios_jw_str(w, "reference", c->ref);
		if (c->id) {
			/* the blk-mq scenarios: the criterion's number, its condition */
			ios_jw_str(w, "id", c->id);
			ios_jw_str(w, "like", c->like);
			ios_jw_bool(w, "applies", !v[k].na);
		}
		ios_repro_bounds(c, &lo, &hi);
		ios_jw_dbl(w, "lo", lo);
		ios_jw_dbl(w, "hi", hi);
		ios_jw_dbl(w, "value", v[k].value);
		ro_js_array(w, "per_seed", v[k].per_seed, d->nr_seeds);
		ios_jw_bool(w, "pass", v[k].pass);
		ios_jw_dbl(w, "thread_value", v[k].thread);
		if (isfinite(v[k].thread))
			ios_jw_bool(w, "thread_pass", v[k].thread_pass);
		else
			ios_jw_null(w, "thread_pass");
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, ']');
	ios_jw_close(w, '}');
}

int ios_repro_report_json(const struct ios_repro_data *d, size_t n, bool quick,
			  const struct ios_repro_drives *drives, struct ios_buf *out)
{
	struct ios_repro_verdict **v;
	struct ios_jw w;
	int ret = ro_verdicts(d, n, &v);

	if (ret)
		goto out;
	ios_jw_init(&w, out);
	ios_jw_open(&w, NULL, '{');
	ios_jw_open(&w, "iosched_repro", '{');
	ios_jw_str(&w, "version", IOS_VERSION_STRING);
	ios_jw_bool(&w, "quick", quick);
	ios_jw_open(&w, "experiments", '[');
	for (size_t i = 0; i < n; i++)
		ro_js_experiment(&w, &d[i], v[i]);
	ios_jw_close(&w, ']');
	if (drives)
		ios_rmd_drives_json(&w, drives);
	ios_jw_close(&w, '}');
	ios_jw_close(&w, '}');
	ios_buf_puts(out, "\n");
	ret = out->oom ? -ENOMEM : 0;
out:
	ro_verdicts_free(v, n);
	return ret;
}

/* ---- the plot ---- */

void ios_repro_plot_name(const struct ios_repro_exp *x, char *buf, size_t len)
{
	snprintf(buf, len, "repro/%s.svg", x->name);
}

int ios_repro_plot(const struct ios_repro_data *d, struct ios_buf *out)
{
	const struct ios_repro_exp *x = d->exp;
	struct ios_plot_run *pr = calloc(d->nr_cols + 1, sizeof(*pr));
	struct ios_repro_verdict *v = calloc(x->nr_checks + 1, sizeof(*v));
	char title[512], sub[1024], seed_words[64], crit[256] = "";
	struct ios_plot p = { title, sub, pr, d->nr_cols, ios_rmd_plot_lines(x) + 4, false };
	unsigned seed = 0;
	int ret;

	if (!pr || !v) {
		free(pr);
		free(v);
		return -ENOMEM;
	}
	ret = ios_repro_evaluate(d, v);
	if (ret)
		goto out;
	seed = ios_repro_plot_seed(d, v);
	for (size_t c = 0; c < d->nr_cols; c++) {
		pr[c].label = d->cols[c].label;
		pr[c].series = ro_res(d, c, seed)->series;
	}
	ios_rmd_plot_seed_words(d, seed, seed_words, sizeof(seed_words));
	if (d->nr_seeds > 1 && x->nr_checks) {
		char c0[200];

		ios_repro_criterion(&x->checks[0], false, c0, sizeof(c0));
		snprintf(crit, sizeof(crit), " (by %s %s)", x->checks[0].column, c0);
	}
	snprintf(title, sizeof(title), "%s (%s)", x->title, x->jobfile);
	snprintf(sub, sizeof(sub), "device %s, %s%s, one line %s%s%s", d->device, seed_words, crit,
		 ios_rmd_plot_lines(x), *d->args ? ", " : "", d->args);
	ret = ios_plot_svg(&p, out);
out:
	free(v);
	free(pr);
	return ret;
}
