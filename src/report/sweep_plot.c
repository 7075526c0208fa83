/*
 * The per-axis plots of `iosched sweep merge --plot` (docs/sweep.md): one
 * metric's median over the seeds against one axis' values, a line per
 * scheduler column, a bar from the lowest to the highest seed at each
 * point, the other axes held at one value each (named in the title).
 *
 * The x axis is categorical: the axis' values in plan order, evenly spaced
 * (a set axis' values are strings such as "8" or "1ms"; spacing them by
 * number would need units the plan does not keep). Each point's median is
 * also printed beside it with the merged table's format, so the drawing and
 * the table can be checked against each other (tests/sh/sweep_plot.sh). A
 * point with no seed done is a gap in its line and is listed under the plot.
 * Drawn with the SVG writer of the other plots (report/svg.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/sweep.h"
#include "report/svg.h"

/* the plots' tab10 hues (plot.c), dashed past ten columns */
static const char *const sp_colors[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/* A round step for 0..@max: 1, 2 or 5 times a power of ten, at most 8 steps. */
static double sp_step(double max)
{
	double p = pow(10, floor(log10(max > 0 ? max : 1)));

	for (;;) {
		if (max / p <= 8)
			return p;
		if (max / (2 * p) <= 8)
			return 2 * p;
		if (max / (5 * p) <= 8)
			return 5 * p;
		p *= 10;
	}
}

/* "name=value, ..." of the axes held (all but @axis and the schedulers) */
static void sp_held(const struct ios_sweep_axes *a, size_t axis, const size_t *held,
		    struct ios_buf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nr; i++)
		if (i != axis && i != a->sched)
			ios_buf_printf(out, "%s%s=%s", n++ ? ", " : "", a->names[i],
				       a->vals[i][held[i]]);
	if (!n)
		ios_buf_puts(out, "none (no other axis)");
}

int ios_sweep_plot_svg(const struct ios_sweep_manifest *m, const struct ios_sweep_axes *a,
		       const double *metrics, const unsigned char *state, int metric,
		       size_t axis, const size_t *held, struct ios_buf *out,
		       struct ios_buf *missing)
{
	static const struct ios_svg_stroke frame = { "#333333", 1, NULL };
	static const struct ios_svg_stroke grid = { "#e3e3e3", 1, NULL };
	const struct ios_svg_font head = { 14, "start", true, "#222222" };
	const struct ios_svg_font sub = { 12, "start", false, "#444444" };
	const struct ios_svg_font tick = { 12, "middle", false, "#333333" };
	const struct ios_svg_font ytick = { 12, "end", false, "#333333" };
	const struct ios_svg_font val = { 10, "start", false, "#222222" };
	const size_t seeds = m->nr_tasks / m->nr_points, nv = a->nr_vals[axis];
	const size_t ns = a->nr_vals[a->sched];
	const double x0 = 90, y0 = 84, w = 640, h = 340;
	size_t *idx = malloc(a->nr * sizeof(*idx)), nmiss = 0, mstart = missing->len;
	double *tmp = malloc(seeds * sizeof(*tmp)), top = 0, step;
	struct ios_sweep_cell *cells = calloc(nv * ns, sizeof(*cells));
	struct ios_buf t;
	char buf[64];

	if (!idx || !tmp || !cells) {
		free(idx);
		free(tmp);
		free(cells);
		return -ENOMEM;
	}
	memcpy(idx, held, a->nr * sizeof(*idx));
	for (size_t s = 0; s < ns; s++)
		for (size_t v = 0; v < nv; v++) {
			struct ios_sweep_cell *c = &cells[s * nv + v];

			idx[a->sched] = s;
			idx[axis] = v;
			ios_sweep_cell_of(m, metrics, state, ios_sweep_axes_point(a, idx), metric,
					  tmp, c);
			if (c->n && c->hi > top)
				top = c->hi;
			if (!c->n)
				ios_buf_printf(missing, "%s%s=%s %s=%s", nmiss++ ? "; " : "",
					       a->names[a->sched], a->vals[a->sched][s],
					       a->names[axis], a->vals[axis][v]);
		}
	step = sp_step(top);
	top = step * ceil(top * 1.05 / step);
	if (!(top > 0))
		top = step;
	ios_buf_init(&t);
	ios_buf_printf(&t, "iosched sweep: %s by %s", ios_sweep_metric_titles[metric],
		       a->names[axis]);
	ios_svg_begin(out, 800, y0 + h + 70 + 18.0 * (double)ns + (nmiss ? 20 : 0), t.s);
	ios_svg_text(out, x0, 26, 0, &head, t.s);
	ios_buf_free(&t);
	ios_buf_init(&t);
	ios_buf_puts(&t, "held: ");
	sp_held(a, axis, held, &t);
	ios_svg_text(out, x0, 46, 0, &sub, t.s);
	ios_buf_free(&t);
	snprintf(buf, sizeof(buf), "median over %zu seed%s a point; bars: lowest..highest", seeds,
		 seeds == 1 ? "" : "s");
	ios_svg_text(out, x0, 64, 0, &sub, buf);
	for (double y = 0; y <= top + step / 2; y += step) {
		double py = y0 + h - h * y / top;

		ios_svg_line(out, x0, py, x0 + w, py, &grid);
		snprintf(buf, sizeof(buf), "%g", y);
		ios_svg_text(out, x0 - 8, py + 4, 0, &ytick, buf);
	}
	for (size_t v = 0; v < nv; v++)
		ios_svg_text(out, x0 + w * ((double)v + 0.5) / (double)nv, y0 + h + 19, 0, &tick,
			     a->vals[axis][v]);
	ios_svg_rect(out, x0, y0, w, h, NULL, &frame);
	ios_svg_text(out, x0 + w / 2, y0 + h + 42, 0, &tick, a->names[axis]);
	ios_svg_text(out, x0 - 60, y0 + h / 2, -90, &tick, ios_sweep_metric_titles[metric]);
	for (size_t s = 0; s < ns; s++) {
		const struct ios_svg_stroke st = { sp_colors[s % 10], 2, s >= 10 ? "7 3" : NULL };
		const struct ios_svg_stroke bar = { sp_colors[s % 10], 1, NULL };
		double ly = y0 + h + 62 + 18.0 * (double)s;
		bool open = false;

		snprintf(buf, sizeof(buf), "line%zu", s + 1);
		ios_svg_group_begin(out, buf);
		for (size_t v = 0; v <= nv; v++) {
			const struct ios_sweep_cell *c = v < nv ? &cells[s * nv + v] : NULL;
			double px = x0 + w * ((double)v + 0.5) / (double)nv;

			if ((!c || !c->n) && open) {
				ios_svg_poly_end(out);
				open = false;
			}
			if (!c || !c->n)
				continue;
			if (!open)
				ios_svg_poly_begin(out, &st);
			open = true;
			ios_svg_poly_point(out, px, y0 + h - h * c->med / top);
		}
		for (size_t v = 0; v < nv; v++) {
			const struct ios_sweep_cell *c = &cells[s * nv + v];
			double px = x0 + w * ((double)v + 0.5) / (double)nv, py;

			if (!c->n)
				continue;
			py = y0 + h - h * c->med / top;
			ios_svg_line(out, px, y0 + h - h * c->lo / top, px, y0 + h - h * c->hi / top,
				     &bar);
			ios_svg_rect(out, px - 3, py - 3, 6, 6, sp_colors[s % 10], NULL);
			snprintf(buf, sizeof(buf), ios_sweep_metric_fmts[metric], c->med);
			ios_svg_text(out, px + 6, py - 5, 0, &val, buf);
		}
		ios_svg_line(out, x0, ly - 4, x0 + 30, ly - 4, &st);
		ios_buf_init(&t);
		ios_buf_printf(&t, "%s=%s", a->names[a->sched], a->vals[a->sched][s]);
		ios_svg_text(out, x0 + 38, ly, 0, &sub, t.s);
		ios_buf_free(&t);
		ios_svg_group_end(out);
	}
	if (nmiss) {
		ios_buf_init(&t);
		ios_buf_printf(&t, "missing (no seed done, a gap): %zu point%s: ", nmiss,
			       nmiss == 1 ? "" : "s");
		ios_buf_puts(&t, missing->s + mstart);
		ios_svg_text(out, x0, y0 + h + 62 + 18.0 * (double)ns, 0, &sub, t.s);
		ios_buf_free(&t);
	}
	ios_svg_end(out);
	free(idx);
	free(tmp);
	free(cells);
	return out->oom || missing->oom ? -ENOMEM : 0;
}
