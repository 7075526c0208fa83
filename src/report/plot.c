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
#include "report/svg.h"

#define PL_MAX_WINDOWS	100
#define PL_LEGEND_W	250.0
#define PL_LEFT		85.0
#define PL_NAME_MAX	28	/* characters of a legend name before it is cut */
#define PL_NAME_TOTAL	17	/* the same, when the total sits beside it */

/* tab10: ten hues that stay apart for most colour vision */
static const char *const pl_colors[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
/* past ten jobs the hues repeat with another dash pattern */
static const char *const pl_dashes[] = { NULL, "7 3", "2 2", "9 3 2 3" };

static struct ios_svg_stroke pl_style(size_t job, double width)
{
	size_t nc = IOS_ARRAY_SIZE(pl_colors), nd = IOS_ARRAY_SIZE(pl_dashes);

	return (struct ios_svg_stroke){ pl_colors[job % nc], width, pl_dashes[(job / nc) % nd] };
}

/* An axis from 0: its top, tick step, decimals of the tick labels, unit. */
struct pl_axis {
	double top, step;	/* in display units */
	int decimals;
	double div;		/* raw value / div = display value */
	const char *unit;
};

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

static void pl_axis_make(struct pl_axis *a, double max_display, int ticks)
{
	if (!(max_display > 0))
		max_display = 1.0;
	a->step = pl_nice(max_display / ticks, &a->decimals);
	/* a little headroom, so a line at the maximum does not hide in the frame */
	a->top = ceil(max_display * 1.03 / a->step - 1e-9) * a->step;
}

/* Binary units for bytes (@per_s: per second), picked by the largest value. */
static void pl_unit(struct pl_axis *a, double max_bytes, bool per_s)
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

/* A run cut into plot windows: per job, the bytes of each window. */
struct pl_run {
	const struct ios_series *s;
	size_t nwin;
	uint64_t **win;		/* [job][window] bytes */
	size_t *first, *last;	/* windows with I/O; first > last: none */
};

struct pl_ctx {
	struct ios_buf *b;
	const struct ios_plot *p;
	struct pl_run *runs;
	uint64_t win_ns;	/* window length */
	uint64_t end_ns;	/* longest run */
	struct pl_axis x;	/* seconds */
	struct pl_axis bw, cum;
	size_t nr_legend;	/* jobs of the run with the most */
	const struct ios_series *legend;
};

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

		if (pr->win)
			for (size_t j = 0; j < pr->s->nr_jobs; j++)
				free(pr->win[j]);
		free(pr->win);
		free(pr->first);
		free(pr->last);
	}
	free(c->runs);
}

/* Window length, then every run's windows; the axes from the data. */
static int pl_prepare(struct pl_ctx *c)
{
	uint64_t bucket = 0;
	double max_rate = 0, max_total = 0;

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
	for (size_t r = 0; r < c->p->nr_runs; r++) {
		struct pl_run *pr = &c->runs[r];
		const struct ios_series *s = c->p->runs[r].series;
		uint64_t per = c->win_ns / s->bucket_ns;

		pr->s = s;
		pr->nwin = (size_t)((s->end_ns + c->win_ns - 1) / c->win_ns);
		if (pr->nwin >= 2 && s->end_ns - (pr->nwin - 1) * c->win_ns < c->win_ns / 2)
			pr->nwin--;	/* a short tail joins the window before */
		pr->win = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->win));
		pr->first = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->first));
		pr->last = calloc(s->nr_jobs ? s->nr_jobs : 1, sizeof(*pr->last));
		if (!pr->win || !pr->first || !pr->last)
			return -ENOMEM;
		for (size_t j = 0; j < s->nr_jobs; j++) {
			const struct ios_series_job *sj = &s->jobs[j];

			pr->win[j] = calloc(pr->nwin ? pr->nwin : 1, sizeof(**pr->win));
			if (!pr->win[j])
				return -ENOMEM;
			for (size_t k = 0; k < sj->len; k++) {
				size_t w = (size_t)(k / per);

				/* the tail, and a completion exactly at the end */
				if (w >= pr->nwin)
					w = pr->nwin ? pr->nwin - 1 : 0;
				if (pr->nwin)
					pr->win[j][w] += sj->bytes[k];
			}
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
			}
			max_total = (double)sj->total > max_total ? (double)sj->total : max_total;
		}
	}
	pl_unit(&c->bw, max_rate, true);
	pl_axis_make(&c->bw, max_rate / c->bw.div, 5);
	pl_unit(&c->cum, max_total, false);
	pl_axis_make(&c->cum, max_total / c->cum.div, 5);
	/* time runs to the end, not to a round number: no empty strip on the right */
	c->x.div = 1e9;
	c->x.unit = "s";
	pl_axis_make(&c->x, (double)c->end_ns / 1e9, 8);
	c->x.top = (double)c->end_ns / 1e9;
	return 0;
}

/* A panel's frame in pixels. */
struct pl_box {
	double x0, y0, w, h;
};

static double pl_px(const struct pl_ctx *c, const struct pl_box *bx, uint64_t t_ns)
{
	return bx->x0 + (double)t_ns / 1e9 / c->x.top * bx->w;
}

static double pl_py(const struct pl_box *bx, const struct pl_axis *a, double raw)
{
	return bx->y0 + bx->h - raw / a->div / a->top * bx->h;
}

static void pl_fmt(char *buf, size_t len, double v, int decimals)
{
	snprintf(buf, len, "%.*f", decimals, v);
}

/* Frame, grid, ticks and labels of a panel. */
static void pl_axes(struct pl_ctx *c, const struct pl_box *bx, const struct pl_axis *y,
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
	n = (size_t)llround(y->top / y->step);
	for (size_t i = 0; i <= n; i++) {
		double v = (double)i * y->step, py = bx->y0 + bx->h - v / y->top * bx->h;

		if (i && i < n)
			ios_svg_line(c->b, bx->x0, py, bx->x0 + bx->w, py, &grid);
		ios_svg_line(c->b, bx->x0 - 5, py, bx->x0, py, &tick);
		pl_fmt(buf, sizeof(buf), v, y->decimals);
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

static void pl_bw_panel(struct pl_ctx *c, const struct pl_run *pr, const struct pl_box *bx)
{
	char title[96];
	uint64_t ms = c->win_ns / 1000000;

	if (ms >= 1000 && ms % 1000 == 0)
		snprintf(title, sizeof(title), "Bandwidth per %s, %" PRIu64 " s windows",
			 pl_lines(c), ms / 1000);
	else
		snprintf(title, sizeof(title), "Bandwidth per %s, %" PRIu64 " ms windows",
			 pl_lines(c), ms);
	pl_axes(c, bx, &c->bw, title, "Bandwidth");
	ios_svg_group_begin(c->b, NULL);
	for (size_t j = 0; j < pr->s->nr_jobs; j++) {
		struct ios_svg_stroke st = pl_style(j, 1.6);

		if (pr->first[j] > pr->last[j])
			continue;
		ios_svg_poly_begin(c->b, &st);
		for (size_t w = pr->first[j]; w <= pr->last[j]; w++) {
			double rate = (double)pr->win[j][w] * 1e9 / (double)pl_win_len(c, pr, w);
			double py = pl_py(bx, &c->bw, rate);

			ios_svg_poly_point(c->b, pl_px(c, bx, w * c->win_ns), py);
			ios_svg_poly_point(c->b, pl_px(c, bx, pl_win_end(c, pr, w)), py);
		}
		ios_svg_poly_end(c->b);
	}
	ios_svg_group_end(c->b);
}

static void pl_cum_panel(struct pl_ctx *c, const struct pl_run *pr, const struct pl_box *bx)
{
	char title[96];

	snprintf(title, sizeof(title), "Data moved per %s (cumulative)", pl_lines(c));
	pl_axes(c, bx, &c->cum, title, "Data");
	ios_svg_group_begin(c->b, NULL);
	for (size_t j = 0; j < pr->s->nr_jobs; j++) {
		struct ios_svg_stroke st = pl_style(j, 1.8);
		uint64_t sum = 0;

		if (pr->first[j] > pr->last[j])
			continue;
		ios_svg_poly_begin(c->b, &st);
		ios_svg_poly_point(c->b, pl_px(c, bx, pr->first[j] * c->win_ns), pl_py(bx, &c->cum, 0));
		for (size_t w = pr->first[j]; w <= pr->last[j]; w++) {
			sum += pr->win[j][w];
			ios_svg_poly_point(c->b, pl_px(c, bx, pl_win_end(c, pr, w)),
					   pl_py(bx, &c->cum, (double)sum));
		}
		/* level to the run's end: what the job got, at the right edge */
		ios_svg_poly_point(c->b, pl_px(c, bx, pr->s->end_ns), pl_py(bx, &c->cum, (double)sum));
		ios_svg_poly_end(c->b);
	}
	ios_svg_group_end(c->b);
}

/*
 * The job's name in at most @max characters (UTF-8 aware): a longer one
 * keeps its start and its end around an ellipsis, because names of many
 * jobs often differ only at the end ("reader-1", "reader-2").
 */
static void pl_name(char *buf, size_t len, const struct ios_series_job *sj, size_t max)
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
		pl_name(buf, sizeof(buf), &c->legend->jobs[j], totals ? PL_NAME_TOTAL : PL_NAME_MAX);
		ios_svg_text(c->b, x + 36, ly, 0, &f, buf);
		if (totals) {
			pl_total(buf, sizeof(buf), c->legend->jobs[j].total);
			ios_svg_text(c->b, x + PL_LEGEND_W - 14, ly, 0, &fr, buf);
		}
	}
	if (n < c->nr_legend) {
		snprintf(buf, sizeof(buf), "and %zu more", c->nr_legend - n);
		ios_svg_text(c->b, x + 36, y + 22 + 18 * (double)n, 0, &f, buf);
	}
}

int ios_plot_svg(const struct ios_plot *p, struct ios_buf *out)
{
	const struct ios_svg_font tfont = { 18, "start", true, "#111111" };
	const struct ios_svg_font sfont = { 13, "start", false, "#444444" };
	const struct ios_svg_font rfont = { 15, "start", true, "#111111" };
	struct pl_ctx c = { .b = out, .p = p };
	double width, height;
	int ret;

	if (!p || !p->nr_runs || !p->runs)
		return -EINVAL;
	ret = pl_prepare(&c);
	if (ret) {
		pl_runs_free(&c);
		return ret;
	}
	if (p->nr_runs == 1) {
		struct pl_box a = { PL_LEFT, 95, 0, 260 }, bb = { PL_LEFT, 445, 0, 260 };

		width = 1120;
		height = 765;
		a.w = bb.w = width - PL_LEFT - PL_LEGEND_W - 25;
		ios_svg_begin(out, width, height, p->title);
		ios_svg_text(out, 20, 30, 0, &tfont, p->title ? p->title : "");
		if (p->subtitle)
			ios_svg_text(out, 20, 52, 0, &sfont, p->subtitle);
		pl_bw_panel(&c, &c.runs[0], &a);
		pl_cum_panel(&c, &c.runs[0], &bb);
		pl_legend(&c, width - PL_LEGEND_W, a.y0 + 4, height - a.y0 - 10, true);
	} else {
		const double row_h = 300, top = 75;
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
		}
		pl_legend(&c, width - PL_LEGEND_W, top + 54, height - top - 60, false);
	}
	ios_svg_end(out);
	pl_runs_free(&c);
	return out->oom ? -ENOMEM : 0;
}
