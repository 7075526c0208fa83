/*
 * The plot layout (include/iosched/plot.h): titles, panels, axes, ticks,
 * series and legend, drawn with the SVG writer in svg.c.
 *
 * One run (iosched run --plot) gives two panels stacked over the full
 * width: bandwidth per job over time, then cumulative bytes per job. Several
 * runs (iosched compare --plot) give one row per run with the two panels
 * side by side; every row uses the same time axis and every column the
 * same value axis, so rows can be compared by eye.
 *
 * Bandwidth is drawn as steps over windows: the time axis is cut into
 * windows of 1, 2 or 5 x 10^k ms (at least the series' bucket width, at
 * most 100 of them over the longest run), and a window's height is the
 * bytes completed in it over its length. The last window of a run ends
 * with the run, so a run that ends mid-window does not dip; when that last
 * piece would be shorter than half a window it joins the window before,
 * so a few completions in a sliver of time do not draw a spike. A job's
 * line runs from its first to its last window with I/O: a stall in
 * between shows as a drop to zero, the time before it started and after it
 * finished shows nothing. The cumulative line starts at zero where the job
 * started and stays level after it finished, up to the run's end, so the
 * right edge compares what each job got.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "iosched/plot.h"
#include "iosched/timeline.h"
#include "report/plot_int.h"
#include "report/svg.h"

/* tab10: ten hues that stay apart for most colour vision */
const char *const ios_pl_colors[10] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

#define PL_MAX_WINDOWS	100
#define PL_LEGEND_W	250.0
#define PL_LEFT		85.0
#define PL_NAME_MAX	28	/* characters of a legend name before it is cut */
#define PL_NAME_TOTAL	17	/* the same, when the total sits beside it */
#define PL_CLIP_RATIO	10.0	/* top peak over the next job's peak */
#define PL_CLIP_BURST	4.0	/* ...and over the top job's own median window */

/* past ten jobs the hues repeat with another dash pattern */
static const char *const pl_dashes[] = { NULL, "7 3", "2 2", "9 3 2 3" };

static struct ios_svg_stroke pl_style(size_t job, double width)
{
	size_t nc = IOS_ARRAY_SIZE(ios_pl_colors), nd = IOS_ARRAY_SIZE(pl_dashes);

	return (struct ios_svg_stroke){ ios_pl_colors[job % nc], width, pl_dashes[(job / nc) % nd] };
}


/* Smallest 1, 2 or 5 x 10^k at or above @raw (> 0); *decimals for labels. */
static double pl_nice(double raw, int *decimals)
{
	int e = (int)floor(log10(raw));
	double p = pow(10.0, e), m = raw / p;

	if (m > 5.0 + 1e-9) {
		m = 10.0;
	} else if (m > 2.0 + 1e-9) {
		m = 5.0;
	} else if (m > 1.0 + 1e-9) {
		m = 2.0;
	} else {
		m = 1.0;
	}
	if (m == 10.0) {
		m = 1.0;
		e++;
		p *= 10.0;
	}
	*decimals = e < 0 ? -e : 0;
	return m * p;
}

void ios_pl_axis_make(struct pl_axis *a, double max_display, int ticks)
{
	if (!(max_display > 0))
		max_display = 1.0;
	a->step = pl_nice(max_display / ticks, &a->decimals);
	/* a little headroom, so a line at the maximum does not hide in the frame */
	a->top = ceil(max_display * 1.03 / a->step - 1e-9) * a->step;
}

/* Binary units for bytes (@per_s: per second), picked by the largest value. */
void ios_pl_unit(struct pl_axis *a, double max_bytes, bool per_s)
{
	if (max_bytes >= 1024.0 * 1024 * 1024) {
		a->div = 1024.0 * 1024 * 1024;
		a->unit = per_s ? "GiB/s" : "GiB";
	} else if (max_bytes >= 1024.0 * 1024) {
		a->div = 1024.0 * 1024;
		a->unit = per_s ? "MiB/s" : "MiB";
	} else {
		a->div = 1024.0;
		a->unit = per_s ? "KiB/s" : "KiB";
	}
}



/* Window @i of run @r: [i * win_ns, its end); the last one ends with the run. */
static uint64_t pl_win_end(const struct pl_ctx *c, const struct pl_run *r, size_t i)
{
	if (i + 1 >= r->nwin && r->s->end_ns > i * c->win_ns)
		return r->s->end_ns;
	return (i + 1) * c->win_ns;
}

static uint64_t pl_win_len(const struct pl_ctx *c, const struct pl_run *r, size_t i)
{
	return pl_win_end(c, r, i) - i * c->win_ns;
}

static void pl_runs_free(struct pl_ctx *c)
{
	if (!c->runs)
		return;
	for (size_t r = 0; r < c->p->nr_runs; r++) {
		struct pl_run *pr = &c->runs[r];

		for (size_t j = 0; pr->s && j < pr->s->nr_jobs; j++) {
			if (pr->win)
				free(pr->win[j]);
			if (pr->cwin)
				free(pr->cwin[j]);
			if (pr->lmean)
				free(pr->lmean[j]);
			if (pr->dwin)
				free(pr->dwin[j]);
		}
		free(pr->lmean);
		free(pr->dwin);
		free(pr->dfirst);
		free(pr->dlast);
		free(pr->win);
		free(pr->cwin);
		free(pr->first);
		free(pr->last);
		free(pr->cfirst);
		free(pr->clast);
	}
	free(c->runs);
}

static int pl_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median rate of job @j over its span of windows, every run (0: none or no memory). */
static double pl_median_rate(const struct pl_ctx *c, size_t j)
{
	size_t n = 0, cap = 0;
	double *v, med;

	for (size_t r = 0; r < c->p->nr_runs; r++)
		cap += c->runs[r].nwin;
	v = malloc((cap ? cap : 1) * sizeof(*v));
	if (!v)
		return 0;
	for (size_t r = 0; r < c->p->nr_runs; r++) {
		const struct pl_run *pr = &c->runs[r];

		if (j >= pr->s->nr_jobs)
			continue;
		/*
		 * Every window from its first to its last with I/O, empty ones
		 * too: a writer whose writeback reaches the disk in bursts
		 * has a median near zero, a steady reader one near its level.
		 */
		for (size_t w = pr->first[j]; w <= pr->last[j] && pr->first[j] <= pr->last[j]; w++)
			v[n++] = (double)pr->win[j][w] * 1e9 / (double)pl_win_len(c, pr, w);
	}
	qsort(v, n, sizeof(*v), pl_cmp_double);
	med = n ? v[n / 2] : 0;
	free(v);
	return med;
}

/*
 * Add @len buckets of @b into windows @out. A bucket past the last window
 * joins it (the short tail, and a completion exactly at the run's end);
 * writeback that completed after the run ended is left out, as the run's
 * time axis ends there.
 */
static void pl_windows(const struct pl_run *pr, uint64_t *out, const uint64_t *b, size_t len,
		       uint64_t per, bool writeback)
{
	for (size_t k = 0; b && pr->nwin && k < len; k++) {
		size_t w = (size_t)(k / per);

		if (writeback && (uint64_t)k * pr->s->bucket_ns > pr->s->end_ns)
			break;
		if (w >= pr->nwin)
			w = pr->nwin - 1;
		out[w] += b[k];
	}
}

/* The first and last window with bytes; *first > *last: none. */
static void pl_span(const uint64_t *w, size_t n, size_t *first, size_t *last)
{
	*first = 1;
	*last = 0;
	for (size_t i = 0; i < n; i++) {
		if (!w[i])
			continue;
		if (*first > *last)
			*first = i;
		*last = i;
	}
}

/*
 * Job @j's win[] (a copy of cwin[]) at disk time: plus its writeback's
 * bytes, less the copies into the cache, which are in bytes[] at the same
 * time (both counted at the copy's completion, after ramp_time): exact,
 * never below zero. -ENOMEM.
 */
static int pl_disk_time(struct pl_run *pr, size_t j, uint64_t per)
{
	const struct ios_series_job *sj = &pr->s->jobs[j];
	uint64_t *cw;

	pl_windows(pr, pr->win[j], sj->disk, sj->disk_len, per, true);
	if (!sj->cached)
		return 0;
	cw = calloc(pr->nwin ? pr->nwin : 1, sizeof(*cw));
	if (!cw)
		return -ENOMEM;
	pl_windows(pr, cw, sj->cached, sj->cached_len, per, false);
	for (size_t w = 0; w < pr->nwin; w++)
		pr->win[j][w] -= cw[w] < pr->win[j][w] ? cw[w] : pr->win[j][w];
	free(cw);
	return 0;
}

/*
 * Line @j's device side into pr->dwin[j] (charged bytes cut at the run's
 * end, as writeback is), its span, and its rates into the axis maximum and
 * the line's peak; -ENOMEM.
 */
static int pl_device_side(const struct pl_ctx *c, struct pl_run *pr, size_t j, uint64_t per,
			  double *max_rate, double *peak)
{
	const struct ios_series_job *sj = &pr->s->jobs[j];

	pr->dfirst[j] = 1;
	pr->dlast[j] = 0;
	if (!sj->charged)
		return 0;
	pr->dwin[j] = calloc(pr->nwin ? pr->nwin : 1, sizeof(**pr->dwin));
	if (!pr->dwin[j])
		return -ENOMEM;
	pl_windows(pr, pr->dwin[j], sj->charged, sj->charged_len, per, true);
	pl_span(pr->dwin[j], pr->nwin, &pr->dfirst[j], &pr->dlast[j]);
	for (size_t w = 0; w < pr->nwin; w++) {
		double rate = (double)pr->dwin[j][w] * 1e9 / (double)pl_win_len(c, pr, w);

		*max_rate = rate > *max_rate ? rate : *max_rate;
		*peak = rate > *peak ? rate : *peak;
	}
	return 0;
}

/* Window length, then every run's windows; the axes from the data. */
static int pl_prepare(struct pl_ctx *c)
{
	uint64_t bucket = 0;
	double max_rate = 0, max_total = 0, *peak;
	size_t nr_peak = 0;

	for (size_t r = 0; r < c->p->nr_runs; r++) {
		const struct ios_series *s = c->p->runs[r].series;

		if (!s || !s->bucket_ns)
			return -EINVAL;
		bucket = s->bucket_ns > bucket ? s->bucket_ns : bucket;
		c->end_ns = s->end_ns > c->end_ns ? s->end_ns : c->end_ns;
		if (s->nr_jobs > c->nr_legend || !c->legend) {
			c->nr_legend = s->nr_jobs;
			c->legend = s;
		}
	}
	if (c->end_ns < bucket)
		c->end_ns = bucket;
	/* bucket widths are 10^k ms, so every 1-2-5 multiple of the widest is whole buckets */
	for (uint64_t dec10 = bucket;; dec10 *= 10) {
		static const unsigned m[] = { 1, 2, 5 };
		size_t k;

		for (k = 0; k < IOS_ARRAY_SIZE(m); k++) {
			c->win_ns = dec10 * m[k];
			if ((c->end_ns + c->win_ns - 1) / c->win_ns <= PL_MAX_WINDOWS)
				break;
		}
		if (k < IOS_ARRAY_SIZE(m))
			break;
	}
	c->runs = calloc(c->p->nr_runs, sizeof(*c->runs));
	if (!c->runs)
		return -ENOMEM;
	for (size_t r = 0; r < c->p->nr_runs; r++)
		nr_peak = c->p->runs[r].series->nr_jobs > nr_peak ? c->p->runs[r].series->nr_jobs : nr_peak;
	peak = calloc(nr_peak ? nr_peak : 1, sizeof(*peak));
	if (!peak)
		return -ENOMEM;
	for (size_t r = 0; r < c->p->nr_runs; r++) {
		struct pl_run *pr = &c->runs[r];
		const struct ios_series *s = c->p->runs[r].series;
		uint64_t per = c->win_ns / s->bucket_ns;

		pr->s = s;
		pr->nwin = (size_t)((s->end_ns + c->win_ns - 1) / c->win_ns);
		if (pr->nwin >= 2 && s->end_ns - (pr->nwin - 1) * c->win_ns < c->win_ns / 2)
			pr->nwin--;	/* a short tail joins the window before */
		pr->win = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->win));
		pr->cwin = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->cwin));
		pr->first = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->first));
		pr->last = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->last));
		pr->cfirst = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->cfirst));
		pr->clast = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->clast));
		if (!pr->win || !pr->cwin || !pr->first || !pr->last || !pr->cfirst || !pr->clast) {
			free(peak);
			return -ENOMEM;
		}
		for (size_t j = 0; j < s->nr_jobs; j++)
			pr->sides |= s->jobs[j].charged != NULL;
		if (pr->sides) {
			pr->dwin = calloc(s->nr_jobs, sizeof(*pr->dwin));
			pr->dfirst = calloc(s->nr_jobs, sizeof(*pr->dfirst));
			pr->dlast = calloc(s->nr_jobs, sizeof(*pr->dlast));
			if (!pr->dwin || !pr->dfirst || !pr->dlast) {
				free(peak);
				return -ENOMEM;
			}
		}
		for (size_t j = 0; j < s->nr_jobs; j++) {
			const struct ios_series_job *sj = &s->jobs[j];

			if (pr->sides && pl_device_side(c, pr, j, per, &max_rate, &peak[j])) {
				free(peak);
				return -ENOMEM;
			}

			pr->win[j] = calloc(pr->nwin ? pr->nwin : 1, sizeof(**pr->win));
			pr->cwin[j] = calloc(pr->nwin ? pr->nwin : 1, sizeof(**pr->cwin));
			if (!pr->win[j] || !pr->cwin[j]) {
				free(peak);
				return -ENOMEM;
			}
			pl_windows(pr, pr->cwin[j], sj->bytes, sj->len, per, false);
			memcpy(pr->win[j], pr->cwin[j], pr->nwin * sizeof(**pr->win));
			if (!pr->sides && pl_disk_time(pr, j, per)) {
				free(peak);
				return -ENOMEM;
			}
			pl_span(pr->cwin[j], pr->nwin, &pr->cfirst[j], &pr->clast[j]);
			pr->first[j] = 1;
			pr->last[j] = 0;
			for (size_t w = 0; w < pr->nwin; w++) {
				double rate;

				if (!pr->win[j][w])
					continue;
				if (pr->first[j] > pr->last[j])
					pr->first[j] = w;
				pr->last[j] = w;
				rate = (double)pr->win[j][w] * 1e9 / (double)pl_win_len(c, pr, w);
				max_rate = rate > max_rate ? rate : max_rate;
				peak[j] = rate > peak[j] ? rate : peak[j];
			}
			max_total = (double)sj->total > max_total ? (double)sj->total : max_total;
		}
	}
	{
		double first = 0, second = 0;
		size_t top = 0;

		for (size_t j = 0; j < nr_peak; j++) {
			if (peak[j] > first) {
				second = first;
				first = peak[j];
				top = j;
			} else if (peak[j] > second) {
				second = peak[j];
			}
		}
		/*
		 * Clip for a burst only: a job that is always ten times faster
		 * (a sequential reader beside a random one) keeps its level on
		 * the axis; one whose peak is far above its own usual rate is
		 * cut at twice the next job's peak.
		 */
		if (second > 0 && first > PL_CLIP_RATIO * second &&
		    first > PL_CLIP_BURST * pl_median_rate(c, top)) {
			c->peak_raw = first;
			max_rate = 2 * second;
		}
	}
	free(peak);
	ios_pl_unit(&c->bw, max_rate, true);
	ios_pl_axis_make(&c->bw, max_rate / c->bw.div, 5);
	if (c->peak_raw)
		c->clip_raw = c->bw.top * c->bw.div;
	ios_pl_unit(&c->cum, max_total, false);
	ios_pl_axis_make(&c->cum, max_total / c->cum.div, 5);
	/* time runs to the end, not to a round number: no empty strip on the right */
	c->x.div = 1e9;
	c->x.unit = "s";
	ios_pl_axis_make(&c->x, (double)c->end_ns / 1e9, 8);
	c->x.top = (double)c->end_ns / 1e9;
	return 0;
}

/* A panel's frame in pixels. */

double ios_pl_px(const struct pl_ctx *c, const struct pl_box *bx, uint64_t t_ns)
{
	return bx->x0 + (double)t_ns / 1e9 / c->x.top * bx->w;
}

double ios_pl_py(const struct pl_box *bx, const struct pl_axis *a, double raw)
{
	if (a->log)
		return bx->y0 + bx->h - (log10(raw / a->div) - a->lo) / (a->hi - a->lo) * bx->h;
	return bx->y0 + bx->h - raw / a->div / a->top * bx->h;
}

static void pl_fmt(char *buf, size_t len, double v, int decimals)
{
	snprintf(buf, len, "%.*f", decimals, v);
}

/* Frame, grid, ticks and labels of a panel. */
void ios_pl_axes(struct pl_ctx *c, const struct pl_box *bx, const struct pl_axis *y,
		 const char *title, const char *ylabel)
{
	static const struct ios_svg_stroke grid = { "#e3e3e3", 1, NULL };
	static const struct ios_svg_stroke tick = { "#333333", 1, NULL };
	static const struct ios_svg_stroke frame = { "#333333", 1, NULL };
	const struct ios_svg_font tf = { 12, "end", false, "#333333" };
	const struct ios_svg_font xf = { 12, "middle", false, "#333333" };
	const struct ios_svg_font head = { 14, "start", true, "#222222" };
	const struct ios_svg_font lab = { 13, "middle", false, "#222222" };
	char buf[64], ylab[96];
	size_t n;

	ios_svg_text(c->b, bx->x0, bx->y0 - 9, 0, &head, title);
	n = y->log ? (size_t)(y->hi - y->lo) : (size_t)llround(y->top / y->step);
	for (size_t i = 0; i <= n; i++) {
		double v = (double)i * y->step, py = bx->y0 + bx->h - v / y->top * bx->h;

		if (y->log) {
			/* a tick per decade: 0.01, 0.1, 1, 10, ... */
			py = bx->y0 + bx->h - (double)i / (double)n * bx->h;
			snprintf(buf, sizeof(buf), "%g", pow(10.0, y->lo + (int)i));
		} else {
			pl_fmt(buf, sizeof(buf), v, y->decimals);
		}
		if (i && i < n)
			ios_svg_line(c->b, bx->x0, py, bx->x0 + bx->w, py, &grid);
		ios_svg_line(c->b, bx->x0 - 5, py, bx->x0, py, &tick);
		ios_svg_text(c->b, bx->x0 - 8, py + 4, 0, &tf, buf);
	}
	n = (size_t)floor(c->x.top / c->x.step + 1e-9);
	for (size_t i = 0; i <= n; i++) {
		double v = (double)i * c->x.step, px = bx->x0 + v / c->x.top * bx->w;

		if (i && px < bx->x0 + bx->w - 0.5)
			ios_svg_line(c->b, px, bx->y0, px, bx->y0 + bx->h, &grid);
		ios_svg_line(c->b, px, bx->y0 + bx->h, px, bx->y0 + bx->h + 5, &tick);
		pl_fmt(buf, sizeof(buf), v, c->x.decimals);
		ios_svg_text(c->b, px, bx->y0 + bx->h + 19, 0, &xf, buf);
	}
	ios_svg_rect(c->b, bx->x0, bx->y0, bx->w, bx->h, NULL, &frame);
	ios_svg_text(c->b, bx->x0 + bx->w / 2, bx->y0 + bx->h + 38, 0, &lab, "Simulated time (s)");
	snprintf(ylab, sizeof(ylab), "%s (%s)", ylabel, y->unit);
	ios_svg_text(c->b, bx->x0 - 58, bx->y0 + bx->h / 2, -90, &lab, ylab);
}

/* what a line of the plot is (series_group.h groups jobs) */
static const char *pl_lines(const struct pl_ctx *c)
{
	return c->p->lines ? c->p->lines : "job";
}

/* Line @j's device side, dashed in its colour (windows @first..@last of @w). */
static void pl_bw_line(struct pl_ctx *c, const struct pl_run *pr, const struct pl_box *bx,
		       const uint64_t *w, size_t first, size_t last, size_t j)
{
	struct ios_svg_stroke st = { pl_style(j, 1.6).color, 1.6, "5 3" };

	if (!w || first > last)
		return;
	ios_svg_poly_begin(c->b, &st);
	for (size_t i = first; i <= last; i++) {
		double rate = (double)w[i] * 1e9 / (double)pl_win_len(c, pr, i);
		double py = ios_pl_py(bx, &c->bw, c->clip_raw && rate > c->clip_raw ? c->clip_raw : rate);

		ios_svg_poly_point(c->b, ios_pl_px(c, bx, i * c->win_ns), py);
		ios_svg_poly_point(c->b, ios_pl_px(c, bx, pl_win_end(c, pr, i)), py);
	}
	ios_svg_poly_end(c->b);
}

static void pl_bw_panel(struct pl_ctx *c, const struct pl_run *pr, const struct pl_box *bx)
{
	char title[192];
	uint64_t ms = c->win_ns / 1000000;

	if (ms >= 1000 && ms % 1000 == 0)
		snprintf(title, sizeof(title), "Bandwidth per %s, %" PRIu64 " s windows",
			 pl_lines(c), ms / 1000);
	else
		snprintf(title, sizeof(title), "Bandwidth per %s, %" PRIu64 " ms windows",
			 pl_lines(c), ms);
	for (size_t j = 0; j < pr->s->nr_jobs && !pr->sides; j++) {
		if (pr->s->jobs[j].disk || pr->s->jobs[j].cached) {
			size_t l = strlen(title);

			snprintf(title + l, sizeof(title) - l, ", buffered writes at disk time");
			break;
		}
	}

	if (c->clip_raw) {
		const struct ios_svg_font pf = { 11, "end", false, "#444444" };
		size_t l = strlen(title);
		char peak[64], num[32];

		snprintf(title + l, sizeof(title) - l, ", clipped (\xe2\x96\xb2)");
		pl_fmt(num, sizeof(num), c->peak_raw / c->bw.div, c->peak_raw / c->bw.div < 10 ? 1 : 0);
		snprintf(peak, sizeof(peak), "peak %s %s", num, c->bw.unit);
		ios_svg_text(c->b, bx->x0 + bx->w, bx->y0 - 9, 0, &pf, peak);
	}
	ios_pl_axes(c, bx, &c->bw, title, c->clip_raw ? "Bandwidth, clipped" : "Bandwidth");
	ios_svg_group_begin(c->b, NULL);
	for (size_t j = 0; j < pr->s->nr_jobs; j++) {
		struct ios_svg_stroke st = pl_style(j, 1.6);

		if (pr->first[j] > pr->last[j])
			continue;
		ios_svg_poly_begin(c->b, &st);
		for (size_t w = pr->first[j]; w <= pr->last[j]; w++) {
			double rate = (double)pr->win[j][w] * 1e9 / (double)pl_win_len(c, pr, w);
			double py = ios_pl_py(bx, &c->bw, c->clip_raw && rate > c->clip_raw ? c->clip_raw : rate);

			ios_svg_poly_point(c->b, ios_pl_px(c, bx, w * c->win_ns), py);
			ios_svg_poly_point(c->b, ios_pl_px(c, bx, pl_win_end(c, pr, w)), py);
		}
		ios_svg_poly_end(c->b);
	}
	for (size_t j = 0; pr->sides && j < pr->s->nr_jobs; j++)
		pl_bw_line(c, pr, bx, pr->dwin[j], pr->dfirst[j], pr->dlast[j], j);
	/* a mark above every clipped window, in the job's colour */
	for (size_t j = 0; c->clip_raw && j < pr->s->nr_jobs; j++) {
		const struct ios_svg_font mf = { 10, "middle", false, pl_style(j, 1).color };

		for (size_t w = pr->first[j]; w <= pr->last[j] && pr->first[j] <= pr->last[j]; w++) {
			double rate = (double)pr->win[j][w] * 1e9 / (double)pl_win_len(c, pr, w);
			double mid = (ios_pl_px(c, bx, w * c->win_ns) + ios_pl_px(c, bx, pl_win_end(c, pr, w))) / 2;

			if (rate > c->clip_raw)
				ios_svg_text(c->b, mid, bx->y0 + 9, 0, &mf, "\xe2\x96\xb2");
		}
	}
	ios_svg_group_end(c->b);
}

static void pl_cum_panel(struct pl_ctx *c, const struct pl_run *pr, const struct pl_box *bx)
{
	char title[96];

	snprintf(title, sizeof(title), "Data moved per %s (cumulative)", pl_lines(c));
	ios_pl_axes(c, bx, &c->cum, title, "Data");
	ios_svg_group_begin(c->b, NULL);
	for (size_t j = 0; j < pr->s->nr_jobs; j++) {
		struct ios_svg_stroke st = pl_style(j, 1.8);
		uint64_t sum = 0;

		if (pr->cfirst[j] > pr->clast[j])
			continue;
		ios_svg_poly_begin(c->b, &st);
		ios_svg_poly_point(c->b, ios_pl_px(c, bx, pr->cfirst[j] * c->win_ns), ios_pl_py(bx, &c->cum, 0));
		for (size_t w = pr->cfirst[j]; w <= pr->clast[j]; w++) {
			sum += pr->cwin[j][w];
			ios_svg_poly_point(c->b, ios_pl_px(c, bx, pl_win_end(c, pr, w)),
					   ios_pl_py(bx, &c->cum, (double)sum));
		}
		/* level to the run's end: what the job got, at the right edge */
		ios_svg_poly_point(c->b, ios_pl_px(c, bx, pr->s->end_ns), ios_pl_py(bx, &c->cum, (double)sum));
		ios_svg_poly_end(c->b);
	}
	ios_svg_group_end(c->b);
}

/*
 * ios_plot.latency: each line's mean clat per window (the series' clat
 * sums over their counts, windows as the bandwidth panel's), and one axis
 * for every run: log when the largest window mean is more than
 * IOS_PLOT_LOG_RATIO times the smallest (a random reader's 100 ms beside
 * sequential readers' 0.1 ms), else linear from zero.
 */
static int pl_lat_prepare(struct pl_ctx *c)
{
	double lo = INFINITY, hi = 0.0;

	for (size_t r = 0; r < c->p->nr_runs; r++) {
		struct pl_run *pr = &c->runs[r];
		uint64_t per = c->win_ns / pr->s->bucket_ns;
		size_t nw = pr->nwin ? pr->nwin : 1;
		uint64_t *sum = calloc(nw, sizeof(*sum)), *cnt = calloc(nw, sizeof(*cnt));

		pr->lmean = calloc(pr->s->nr_jobs ? pr->s->nr_jobs : 1, sizeof(*pr->lmean));
		for (size_t j = 0; sum && cnt && pr->lmean && j < pr->s->nr_jobs; j++) {
			const struct ios_series_job *sj = &pr->s->jobs[j];

			pr->lmean[j] = calloc(nw, sizeof(**pr->lmean));
			if (!pr->lmean[j])
				break;
			memset(sum, 0, nw * sizeof(*sum));
			memset(cnt, 0, nw * sizeof(*cnt));
			pl_windows(pr, sum, sj->lat_sum, sj->lat_len, per, false);
			pl_windows(pr, cnt, sj->lat_n, sj->lat_n_len, per, false);
			for (size_t w = 0; w < pr->nwin; w++) {
				double m = cnt[w] ? (double)sum[w] / (double)cnt[w] : NAN;

				pr->lmean[j][w] = m;
				if (m > 0 && m < lo)
					lo = m;
				if (m > hi)
					hi = m;
			}
		}
		free(sum);
		free(cnt);
		if (!pr->lmean || (pr->s->nr_jobs && !pr->lmean[pr->s->nr_jobs - 1]))
			return -ENOMEM;
	}
	c->lat.div = 1e6;
	c->lat.unit = "ms";
	if (hi > 0 && hi > IOS_PLOT_LOG_RATIO * lo) {
		c->lat.log = true;
		c->lat.lo = (int)floor(log10(lo / 1e6));
		c->lat.hi = (int)ceil(log10(hi / 1e6));
		if (c->lat.hi <= c->lat.lo)
			c->lat.hi = c->lat.lo + 1;
		return 0;
	}
	ios_pl_axis_make(&c->lat, hi / 1e6, 5);
	return 0;
}

static void pl_lat_panel(struct pl_ctx *c, const struct pl_run *pr, const struct pl_box *bx)
{
	char title[192];

	snprintf(title, sizeof(title), "Mean completion latency per %s and window%s", pl_lines(c),
		 c->lat.log ? ", log scale (largest over smallest window mean > 100)" : "");
	ios_pl_axes(c, bx, &c->lat, title, "clat mean");
	ios_svg_group_begin(c->b, NULL);
	for (size_t j = 0; j < pr->s->nr_jobs; j++) {
		struct ios_svg_stroke st = pl_style(j, 1.6);
		bool open = false;

		for (size_t w = 0; w < pr->nwin; w++) {
			double m = pr->lmean[j][w];

			/* a window without completions breaks the line */
			if (!(m > 0)) {
				if (open)
					ios_svg_poly_end(c->b);
				open = false;
				continue;
			}
			if (!open)
				ios_svg_poly_begin(c->b, &st);
			open = true;
			ios_svg_poly_point(c->b, ios_pl_px(c, bx, w * c->win_ns), ios_pl_py(bx, &c->lat, m));
			ios_svg_poly_point(c->b, ios_pl_px(c, bx, pl_win_end(c, pr, w)),
					   ios_pl_py(bx, &c->lat, m));
		}
		if (open)
			ios_svg_poly_end(c->b);
	}
	ios_svg_group_end(c->b);
}

/*
 * The job's name in at most @max characters (UTF-8 aware): a longer one
 * keeps its start and its end around an ellipsis, because names of many
 * jobs often differ only at the end ("reader-1", "reader-2").
 */
void ios_pl_name(char *buf, size_t len, const struct ios_series_job *sj, size_t max)
{
	const char *name = sj->label ? sj->label : "";
	size_t chars = 0, head = (max - 1) / 2, tail = max - 1 - head, cut1 = 0, cut2 = 0, n = 0;

	for (size_t i = 0; name[i]; i++)
		chars += ((unsigned char)name[i] & 0xc0) != 0x80;
	if (chars <= max) {
		snprintf(buf, len, "%s", name);
		return;
	}
	/* byte offsets of the character after the head and of the tail's first */
	for (size_t i = 0; name[i]; i++) {
		if (((unsigned char)name[i] & 0xc0) == 0x80)
			continue;
		if (n == head)
			cut1 = i;
		if (n == chars - tail)
			cut2 = i;
		n++;
	}
	snprintf(buf, len, "%.*s\xe2\x80\xa6%s", (int)cut1, name, name + cut2);
}

static void pl_total(char *buf, size_t len, uint64_t total)
{
	if (total >= (1ULL << 30))
		snprintf(buf, len, "%.2f GiB", (double)total / (1ULL << 30));
	else if (total >= (1ULL << 20))
		snprintf(buf, len, "%.1f MiB", (double)total / (1ULL << 20));
	else
		snprintf(buf, len, "%.1f KiB", (double)total / 1024.0);
}

static void pl_legend(struct pl_ctx *c, double x, double y, double height, bool totals)
{
	const struct ios_svg_font head = { 14, "start", true, "#222222" };
	const struct ios_svg_font f = { 12, "start", false, "#222222" };
	const struct ios_svg_font fr = { 12, "end", false, "#222222" };
	size_t fit = (size_t)((height - 24) / 18), n = c->nr_legend;
	char buf[256];

	ios_svg_text(c->b, x, y, 0, &head, totals ? "Jobs (data moved)" : "Jobs");
	if (n > fit && fit)
		n = fit - 1;	/* room for the "more" line */
	for (size_t j = 0; j < n; j++) {
		struct ios_svg_stroke st = pl_style(j, 2.5);
		double ly = y + 22 + 18 * (double)j;

		ios_svg_line(c->b, x, ly - 4, x + 28, ly - 4, &st);
		ios_pl_name(buf, sizeof(buf), &c->legend->jobs[j], totals ? PL_NAME_TOTAL : PL_NAME_MAX);
		ios_svg_text(c->b, x + 36, ly, 0, &f, buf);
		if (totals) {
			pl_total(buf, sizeof(buf), c->legend->jobs[j].total);
			ios_svg_text(c->b, x + PL_LEGEND_W - 14, ly, 0, &fr, buf);
		}
	}
	if (n < c->nr_legend) {
		snprintf(buf, sizeof(buf), "and %zu more", c->nr_legend - n);
		ios_svg_text(c->b, x + 36, y + 22 + 18 * (double)n, 0, &f, buf);
		n++;
	}
	for (size_t r = 0; r < c->p->nr_runs; r++) {
		/* lines by cgroup with both sides: which is which (pl_bw_line) */
		static const struct ios_svg_stroke sub = { "#555555", 1.6, NULL };
		static const struct ios_svg_stroke dev = { "#555555", 1.6, "5 3" };
		double ly = y + 22 + 18 * (double)n + 8;

		if (!c->runs[r].sides || y + 22 + 18 * (double)(n + 2) > y + height)
			continue;
		ios_svg_line(c->b, x, ly - 4, x + 28, ly - 4, &sub);
		ios_svg_text(c->b, x + 36, ly, 0, &f, "submit side (system calls)");
		ios_svg_line(c->b, x, ly + 14, x + 28, ly + 14, &dev);
		ios_svg_text(c->b, x + 36, ly + 18, 0, &f, "device side (charged)");
		break;
	}
}


/* ---- io.cost's monitor ---- */

/*
 * io.cost per period (docs/cgroup-v2.md "Seeing it"; the records of
 * src/block/blk_iocost_monitor.c, taken at the end of each period of
 * 6.12's ioc_timer_fn): vrate in black, and per cgroup its
 * hweight_inuse (solid) and usage (dashed) in its colour, in percent of
 * the device, while it is on the active list. Its key goes at @kx.
 */
static void pl_iocost_panel(struct pl_ctx *c, const struct ios_iocost_log *l,
			    const struct pl_box *bx, double kx)
{
	static const struct ios_svg_stroke vst = { "#111111", 2.2, NULL };
	const struct ios_svg_font head = { 14, "start", true, "#222222" };
	const struct ios_svg_font f = { 12, "start", false, "#222222" };
	struct pl_axis y = { .div = 1.0, .unit = "%" };
	size_t ng = l->nr_groups ? l->nr_groups : 1, k = 0, nc = IOS_ARRAY_SIZE(ios_pl_colors);
	uint64_t tmax = (uint64_t)(c->x.top * 1e9);
	double top = 100.0, ky;
	char buf[160];

	for (size_t i = 0; i < l->nr; i++) {
		top = l->periods[i].vrate_pct > top ? l->periods[i].vrate_pct : top;
		for (size_t g = 0; g < l->nr_groups; g++)
			if (l->samples[i * ng + g].active && l->samples[i * ng + g].usage_pct > top)
				top = l->samples[i * ng + g].usage_pct;
	}
	ios_pl_axis_make(&y, top, 5);
	ios_pl_axes(c, bx, &y, "io.cost per period: vrate; hweight_inuse (solid) and usage (dashed) "
		"per cgroup", "Percent");
	ios_svg_group_begin(c->b, NULL);
	ios_svg_poly_begin(c->b, &vst);
	for (size_t i = 0; i < l->nr; i++) {
		uint64_t t = l->periods[i].t_ns < tmax ? l->periods[i].t_ns : tmax;

		ios_svg_poly_point(c->b, ios_pl_px(c, bx, t), ios_pl_py(bx, &y, l->periods[i].vrate_pct));
	}
	ios_svg_poly_end(c->b);
	ky = bx->y0 + 4;
	ios_svg_text(c->b, kx, ky, 0, &head, "io.cost");
	ky += 22;
	ios_svg_line(c->b, kx, ky - 4, kx + 28, ky - 4, &vst);
	ios_svg_text(c->b, kx + 36, ky, 0, &f, "vrate");
	for (size_t g = 0; g < l->nr_groups; g++) {
		const char *col = ios_pl_colors[k % nc];
		const struct ios_svg_stroke hst = { col, 1.8, NULL }, ust = { col, 1.4, "5 3" };

		if (!l->g_periods[g])
			continue;
		k++;
		for (int pass = 0; pass < 2; pass++) {
			bool open = false;

			for (size_t i = 0; i < l->nr; i++) {
				const struct ios_iocost_sample *sm = &l->samples[i * ng + g];
				uint64_t t = l->periods[i].t_ns < tmax ? l->periods[i].t_ns : tmax;

				if (!sm->active) {
					if (open)
						ios_svg_poly_end(c->b);
					open = false;
					continue;
				}
				if (!open)
					ios_svg_poly_begin(c->b, pass ? &ust : &hst);
				open = true;
				ios_svg_poly_point(c->b, ios_pl_px(c, bx, t),
						   ios_pl_py(bx, &y, pass ? sm->usage_pct : sm->hweight_inuse_pct));
			}
			if (open)
				ios_svg_poly_end(c->b);
		}
		if (ky + 18 < bx->y0 + bx->h) {
			ky += 18;
			ios_svg_line(c->b, kx, ky - 4, kx + 28, ky - 4, &hst);
			snprintf(buf, sizeof(buf), "%s", *l->paths[g] ? l->paths[g] : "/");
			ios_svg_text(c->b, kx + 36, ky, 0, &f, buf);
		}
	}
	ios_svg_group_end(c->b);
}

static bool pl_any_iocost(const struct ios_plot *p)
{
	for (size_t r = 0; r < p->nr_runs; r++)
		if (p->runs[r].series->iocost)
			return true;
	return false;
}

int ios_plot_svg(const struct ios_plot *p, struct ios_buf *out)
{
	const struct ios_svg_font tfont = { 18, "start", true, "#111111" };
	const struct ios_svg_font sfont = { 13, "start", false, "#444444" };
	const struct ios_svg_font rfont = { 15, "start", true, "#111111" };
	const struct ios_svg_font nfont = { 12, "start", false, "#555555" };
	struct pl_ctx c = { .b = out, .p = p };
	struct pl_lanes *lanes = NULL;
	double width, height, tl_h = 0, lat_h = p && p->latency ? 300 : 0;
	bool tl = false;
	int ret;

	if (!p || !p->nr_runs || !p->runs)
		return -EINVAL;
	ret = pl_prepare(&c);
	if (!ret && p->latency)
		ret = pl_lat_prepare(&c);
	/* pl_prepare checked that every run has its series */
	for (size_t r = 0; !ret && r < p->nr_runs; r++)
		tl = tl || p->runs[r].series->timeline;
	if (!ret && tl) {
		lanes = calloc(p->nr_runs, sizeof(*lanes));
		ret = lanes ? 0 : -ENOMEM;
		for (size_t r = 0; !ret && r < p->nr_runs; r++) {
			const struct ios_timeline *t = p->runs[r].series->timeline;

			if (!t)
				continue;
			ret = ios_pl_lanes_make(t, &lanes[r]);
		}
	}
	if (ret)
		goto out;
	/* every row gets the height of the tallest timeline, so rows line up */
	for (size_t r = 0; tl && r < p->nr_runs; r++) {
		double h = ios_pl_tl_height(&lanes[r], p->nr_runs == 1 ? 260 : 150);

		tl_h = h > tl_h ? h : tl_h;
	}
	if (p->nr_runs == 1) {
		struct pl_box a = { PL_LEFT, 95, 0, 260 }, bb = { PL_LEFT, 445, 0, 260 };
		/* io.cost's panel, when the run had it, goes below the data moved */
		struct pl_box ib = { PL_LEFT, 795, 0, 260 };
		const struct ios_iocost_log *iol = p->runs[0].series->iocost;
		double ext = iol ? 350 : 0;

		width = tl ? 1200 : 1120;
		height = 765 + ext + tl_h + lat_h;
		a.w = bb.w = ib.w = width - PL_LEFT - PL_LEGEND_W - 25;
		ios_svg_begin(out, width, height, p->title);
		ios_svg_text(out, 20, 30, 0, &tfont, p->title ? p->title : "");
		if (p->subtitle)
			ios_svg_text(out, 20, 52, 0, &sfont, p->subtitle);
		pl_bw_panel(&c, &c.runs[0], &a);
		pl_cum_panel(&c, &c.runs[0], &bb);
		pl_legend(&c, width - PL_LEGEND_W, a.y0 + 4, 765 - a.y0 - 10, true);
		if (iol)
			pl_iocost_panel(&c, iol, &ib, width - PL_LEGEND_W);
		if (lat_h) {
			struct pl_box lb = { PL_LEFT, 795 + ext, a.w, 260 };

			pl_lat_panel(&c, &c.runs[0], &lb);
		}
		if (tl && p->runs[0].series->timeline) {
			ios_pl_timeline(&c, p->runs[0].series->timeline, &lanes[0], PL_LEFT, a.w,
				    745 + ext + lat_h, 260);
			ios_pl_tl_key(&c, width - PL_LEGEND_W, 790 + ext + lat_h, ios_pl_any_held(p));
		}
	} else {
		/*
		 * Below a row's two panels (50 px of room, 190 tall, 40 of axis
		 * labels: 280 px each), its latency panel, then io.cost's when any
		 * run had it (a row without: a note), then the timeline.
		 */
		double lat_row = lat_h ? 280 : 0, ioc_row = pl_any_iocost(p) ? 280 : 0;
		const double row_h = 300 + tl_h + lat_row + ioc_row, top = 75;
		double cw;

		width = 1320;
		height = top + row_h * (double)p->nr_runs + 10;
		cw = (width - PL_LEFT - PL_LEGEND_W - 25 - 95) / 2;
		ios_svg_begin(out, width, height, p->title);
		ios_svg_text(out, 20, 30, 0, &tfont, p->title ? p->title : "");
		if (p->subtitle)
			ios_svg_text(out, 20, 52, 0, &sfont, p->subtitle);
		for (size_t r = 0; r < p->nr_runs; r++) {
			double ry = top + row_h * (double)r;
			struct pl_box a = { PL_LEFT, ry + 50, cw, 190 };
			struct pl_box bb = { PL_LEFT + cw + 95, ry + 50, cw, 190 };

			ios_svg_text(out, 20, ry + 18, 0, &rfont, p->runs[r].label ? p->runs[r].label : "");
			pl_bw_panel(&c, &c.runs[r], &a);
			pl_cum_panel(&c, &c.runs[r], &bb);
			if (lat_h) {
				struct pl_box lb = { PL_LEFT, ry + 330, 2 * cw + 95, 190 };

				pl_lat_panel(&c, &c.runs[r], &lb);
			}
			if (ioc_row && p->runs[r].series->iocost) {
				/* narrower than the row: its key goes at its right */
				struct pl_box ib = { PL_LEFT, ry + 330 + lat_row, 2 * cw + 95 - 170, 190 };

				pl_iocost_panel(&c, p->runs[r].series->iocost, &ib, ib.x0 + ib.w + 20);
			} else if (ioc_row) {
				ios_svg_text(out, PL_LEFT, ry + 370 + lat_row, 0, &nfont,
					     "io.cost did not run here (io.cost.qos enable=0)");
			}
			if (tl && p->runs[r].series->timeline)
				ios_pl_timeline(&c, p->runs[r].series->timeline, &lanes[r], PL_LEFT,
					    2 * cw + 95, ry + 280 + lat_row + ioc_row, 150);
			else if (tl)
				ios_svg_text(out, PL_LEFT, ry + 320 + lat_row + ioc_row, 0, &nfont,
					     "no timeline recorded");
		}
		pl_legend(&c, width - PL_LEGEND_W, top + 54, (tl ? 300 : height) - top - 60, false);
		if (tl)
			ios_pl_tl_key(&c, width - PL_LEGEND_W, top + 330, ios_pl_any_held(p));
	}
	ios_svg_end(out);
out:
	for (size_t r = 0; lanes && r < p->nr_runs; r++)
		free(lanes[r].of);
	free(lanes);
	pl_runs_free(&c);
	return ret ? ret : out->oom ? -ENOMEM : 0;
}
