/*
 * The reports of iosched validate (issue 31): the measured and simulated
 * access-time distributions side by side and DiskSim's RMS demerit, as
 * text, as JSON, and as an SVG of both cumulative curves (the curves the
 * demerit is computed from, include/iosched/validate.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include "iosched/validate.h"
#include "jsonw.h"
#include "svg.h"

static int vo_done(const struct ios_buf *out)
{
	return out->oom ? -ENOMEM : 0;
}

int ios_validate_report_text(const struct ios_validate_result *r, struct ios_buf *out)
{
	const struct { const char *name; double m, s; } rows[] = {
		{ "mean", r->meas.mean_ms, r->sim.mean_ms },
		{ "p10", r->meas.p10_ms, r->sim.p10_ms },
		{ "p50", r->meas.p50_ms, r->sim.p50_ms },
		{ "p90", r->meas.p90_ms, r->sim.p90_ms },
		{ "p99", r->meas.p99_ms, r->sim.p99_ms },
		{ "max", r->meas.max_ms, r->sim.max_ms },
	};

	ios_buf_printf(out, "validate: trace %s, device %s\n", r->trace, r->device);
	ios_buf_printf(out, "  %zu requests (%llu reads, %llu writes), one at a time, "
		       "DiskSim's validate arrivals\n", r->n, (unsigned long long)r->reads,
		       (unsigned long long)r->writes);
	ios_buf_printf(out, "  access time (ms)   measured  simulated\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		ios_buf_printf(out, "  %-16s %10.3f %10.3f\n", rows[i].name, rows[i].m, rows[i].s);
	ios_buf_printf(out, "rms demerit: %.3f ms\n", r->rms_ms);
	return vo_done(out);
}

static void vo_side(struct ios_jw *w, const char *key, const struct ios_validate_side *s)
{
	ios_jw_open(w, key, '{');
	ios_jw_dbl(w, "mean_ms", s->mean_ms);
	ios_jw_dbl(w, "p10_ms", s->p10_ms);
	ios_jw_dbl(w, "p50_ms", s->p50_ms);
	ios_jw_dbl(w, "p90_ms", s->p90_ms);
	ios_jw_dbl(w, "p99_ms", s->p99_ms);
	ios_jw_dbl(w, "max_ms", s->max_ms);
	ios_jw_close(w, '}');
}

int ios_validate_report_json(const struct ios_validate_result *r, struct ios_buf *out)
{
	struct ios_jw w;

	ios_jw_init(&w, out);
	ios_jw_open(&w, NULL, '{');
	ios_jw_dbl(&w, "rms_demerit_ms", r->rms_ms);
	ios_jw_str(&w, "trace", r->trace);
	ios_jw_str(&w, "device", r->device);
	ios_jw_u64(&w, "requests", r->n);
	ios_jw_u64(&w, "reads", r->reads);
	ios_jw_u64(&w, "writes", r->writes);
	vo_side(&w, "measured", &r->meas);
	vo_side(&w, "simulated", &r->sim);
	ios_jw_close(&w, '}');
	ios_buf_puts(out, "\n");
	return vo_done(out);
}

/* A round axis end and step for 0..@max: 1, 2 or 5 times a power of ten, 4 to 10 steps. */
static double vo_step(double max)
{
	double p = pow(10, floor(log10(max > 0 ? max : 1)));

	for (;;) {
		if (max / p <= 10)
			return p;
		if (max / (2 * p) <= 10)
			return 2 * p;
		if (max / (5 * p) <= 10)
			return 5 * p;
		p *= 10;
	}
}

int ios_validate_report_svg(const struct ios_validate_result *r, struct ios_buf *out)
{
	static const struct ios_svg_stroke frame = { "#333333", 1, NULL };
	static const struct ios_svg_stroke grid = { "#e3e3e3", 1, NULL };
	const struct ios_svg_stroke lines[2] = { { "#1f77b4", 2, NULL }, { "#d62728", 2, "7 3" } };
	const struct ios_validate_curve *c[2] = { &r->meas.curve, &r->sim.curve };
	const char *names[2] = { "measured", "simulated" };
	const struct ios_svg_font head = { 14, "start", true, "#222222" };
	const struct ios_svg_font sub = { 12, "start", false, "#444444" };
	const struct ios_svg_font tick = { 12, "middle", false, "#333333" };
	const struct ios_svg_font ytick = { 12, "end", false, "#333333" };
	const struct ios_svg_font lab = { 13, "middle", false, "#222222" };
	const double x0 = 80, y0 = 70, w = 640, h = 360;
	double xmax = 0, step;
	char buf[600];

	for (int k = 0; k < 2; k++)
		if (c[k]->n && c[k]->x[c[k]->n - 1] > xmax)
			xmax = c[k]->x[c[k]->n - 1];
	step = vo_step(xmax);
	xmax = ceil(xmax / step) * step;
	if (xmax <= 0)
		xmax = step;
	ios_svg_begin(out, 800, 500, "iosched validate");
	snprintf(buf, sizeof(buf), "Access time, cumulative: %s on %s", r->trace, r->device);
	ios_svg_text(out, x0, 28, 0, &head, buf);
	snprintf(buf, sizeof(buf), "%zu requests; rms demerit %.3f ms (DiskSim's rms)", r->n,
		 r->rms_ms);
	ios_svg_text(out, x0, 48, 0, &sub, buf);
	for (int i = 0; i <= 10; i++) {
		double py = y0 + h - h * i / 10.0;

		ios_svg_line(out, x0, py, x0 + w, py, &grid);
		snprintf(buf, sizeof(buf), "%.1f", i / 10.0);
		ios_svg_text(out, x0 - 8, py + 4, 0, &ytick, buf);
	}
	for (double v = 0; v <= xmax + step / 2; v += step) {
		double px = x0 + w * v / xmax;

		ios_svg_line(out, px, y0, px, y0 + h, &grid);
		snprintf(buf, sizeof(buf), "%g", v);
		ios_svg_text(out, px, y0 + h + 19, 0, &tick, buf);
	}
	ios_svg_rect(out, x0, y0, w, h, NULL, &frame);
	ios_svg_text(out, x0 + w / 2, y0 + h + 40, 0, &lab, "Access time (ms)");
	ios_svg_text(out, x0 - 50, y0 + h / 2, -90, &lab, "Fraction of requests");
	for (int k = 0; k < 2; k++) {
		ios_svg_group_begin(out, names[k]);
		ios_svg_poly_begin(out, &lines[k]);
		for (size_t i = 0; i < c[k]->n; i++)
			ios_svg_poly_point(out, x0 + w * c[k]->x[i] / xmax,
					   y0 + h - h * (c[k]->y[i] > 1 ? 1 : c[k]->y[i]));
		ios_svg_poly_end(out);
		ios_svg_line(out, x0 + w - 150, y0 + h - 50 + 20 * k, x0 + w - 120,
			     y0 + h - 50 + 20 * k, &lines[k]);
		ios_svg_text(out, x0 + w - 112, y0 + h - 46 + 20 * k, 0, &sub, names[k]);
		ios_svg_group_end(out);
	}
	ios_svg_end(out);
	return vo_done(out);
}
