/*
 * The timeline under a run's panels (docs/logs-and-plots.md "The
 * timeline"; the recorder is src/report/timeline.c): who owned the disk,
 * the blk-mq schedulers' batches and token depths, what the cgroup
 * controllers held, and the sector of each dispatch.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/plot_int.h"

#define PL_OTHER_COLOR	"#8a8a8a"


static unsigned pl_popcount(unsigned v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static uint64_t pl_lane_time(const struct ios_timeline *tl, size_t l)
{
	return tl->own_ns[l] + tl->idle_ns[l];
}

int ios_pl_lanes_make(const struct ios_timeline *tl, struct pl_lanes *L)
{
	size_t used = 0, keep;
	uint64_t *t;

	memset(L, 0, sizeof(*L));
	L->of = malloc(tl->nr_lanes * sizeof(*L->of));
	t = malloc(tl->nr_lanes * sizeof(*t));
	if (!L->of || !t) {
		free(t);
		return -ENOMEM;
	}
	for (size_t l = 0; l < tl->nr_lanes; l++) {
		L->of[l] = SIZE_MAX;
		if (pl_lane_time(tl, l))
			t[used++] = pl_lane_time(tl, l);
	}
	L->rounds = tl->nr_rounds[0] + tl->nr_rounds[1] > 0;
	for (unsigned lv = 0; lv < IOS_TL_LEVELS; lv++)
		if (tl->nr_level_rounds[lv][0] + tl->nr_level_rounds[lv][1])
			L->levels |= 1u << lv;
	/* leveled batches get a lane per level instead of the one of rounds */
	if (L->levels)
		L->rounds = false;
	L->domains = tl->depth_domains;
	L->held = tl->held_causes;
	keep = used;
	if (used > PL_MAX_LANES) {
		/* the time of the (PL_MAX_LANES - 1)th longest: lanes above it keep their own */
		uint64_t cut;
		size_t above = 0;

		for (size_t i = 0; i < used; i++)	/* partial selection sort, descending */
			for (size_t k = i + 1; k < used && i < PL_MAX_LANES - 1; k++)
				if (t[k] > t[i]) {
					uint64_t x = t[i];

					t[i] = t[k];
					t[k] = x;
				}
		cut = t[PL_MAX_LANES - 2];
		keep = 0;
		for (size_t l = 0; l < tl->nr_lanes; l++) {
			uint64_t lt = pl_lane_time(tl, l);

			if (!lt)
				continue;
			if (lt > cut || (lt == cut && above < PL_MAX_LANES - 1 && keep < PL_MAX_LANES - 1)) {
				L->first[keep] = l;
				L->of[l] = keep++;
				above++;
			}
		}
		for (size_t l = 0; l < tl->nr_lanes; l++)
			if (pl_lane_time(tl, l) && L->of[l] == SIZE_MAX) {
				if (!L->shared)
					L->first[keep] = l;
				L->of[l] = keep;
				L->shared++;
			}
		L->n = keep + 1;
	} else {
		for (size_t l = 0; l < tl->nr_lanes; l++)
			if (pl_lane_time(tl, l)) {
				L->first[L->n] = l;
				L->of[l] = L->n++;
			}
	}
	free(t);
	return 0;
}

static const char *pl_lane_color(const struct ios_timeline *tl, const struct pl_lanes *L, size_t d)
{
	size_t l = L->first[d];

	if ((L->shared && d == L->n - 1) || l + 1 == tl->nr_lanes)
		return PL_OTHER_COLOR;
	return ios_pl_colors[l % IOS_ARRAY_SIZE(ios_pl_colors)];
}

/* The colour mixed with white: @keep of it (0..1), as "#rrggbb" in @buf. */
static const char *pl_light(const char *hex, double keep, char *buf, size_t len)
{
	unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
	unsigned r = (v >> 16) & 255, g = (v >> 8) & 255, b = v & 255;

	r = (unsigned)lround(255 - (255 - r) * keep);
	g = (unsigned)lround(255 - (255 - g) * keep);
	b = (unsigned)lround(255 - (255 - b) * keep);
	snprintf(buf, len, "#%02x%02x%02x", r, g, b);
	return buf;
}

static double pl_lanes_height(const struct pl_lanes *L)
{
	size_t n = L->n + L->rounds + pl_popcount(L->levels) + pl_popcount(L->domains) +
		   pl_popcount(L->held);

	return (double)(n ? n : 1) * (PL_LANE_H + PL_LANE_GAP);
}

/* Bars of drawn lane @d where the columns' owner (@idle: idler) maps to it. */
static void pl_lane_bars(struct pl_ctx *c, const struct ios_timeline *tl, const struct pl_lanes *L,
			 const struct pl_box *bx, size_t d, double y, bool idle, const char *fill)
{
	double run0 = -1, run1 = -1;

	for (size_t k = 0; k <= tl->nr_cols; k++) {
		bool on = false;
		double x0 = 0, x1 = 0;

		/* writeback may go on after the run's end: the axis stops there */
		if (k < tl->nr_cols && k * tl->col_ns < c->end_ns) {
			const struct ios_tl_col *col = &tl->cols[k];
			uint32_t who = idle ? col->idle : col->own;
			uint64_t t1 = (k + 1) * tl->col_ns;

			/* a column both owned and idled shows the larger share */
			if (who && !idle && col->idle_ns > col->own_ns)
				who = 0;
			if (who && idle && col->own_ns >= col->idle_ns)
				who = 0;
			on = who && L->of[who - 1] == d;
			x0 = ios_pl_px(c, bx, k * tl->col_ns);
			x1 = ios_pl_px(c, bx, t1 < c->end_ns ? t1 : c->end_ns);
		}
		if (on && run0 >= 0 && x0 - run1 < 0.5) {
			run1 = x1;
			continue;
		}
		if (run0 >= 0) {
			double w = run1 - run0 < 0.6 ? 0.6 : run1 - run0;

			ios_svg_rect(c->b, run0, y, w, PL_LANE_H, fill, NULL);
			run0 = -1;
		}
		if (on) {
			run0 = x0;
			run1 = x1;
		}
	}
}

/*
 * The blk-mq lanes below the owners' from @y: one per priority level whose
 * batches started (mq-deadline: a tick per batch, reads above, writes
 * below), then one per token pool (kyber: the smallest depth in each
 * column, as a bar of depth / the pool's largest depth).
 */
static void pl_tl_mq_lanes(struct pl_ctx *c, const struct ios_timeline *tl, const struct pl_lanes *L,
			   const struct pl_box *bx, double y)
{
	static const char *const level_names[IOS_TL_LEVELS] = { "RT batches", "BE batches",
								"IDLE batches" };
	static const char *const domain_names[IOS_TL_DOMAINS] = { "read tokens", "write tokens",
								  "discard tokens", "other tokens" };
	static const struct ios_svg_stroke rd = { "#1f77b4", 1, NULL };
	static const struct ios_svg_stroke wr = { "#d62728", 1, NULL };
	static const struct ios_svg_stroke base = { "#d0d0d0", 1, NULL };
	const struct ios_svg_font lf = { 11, "end", false, "#222222" };
	const struct ios_svg_font vf = { 10, "end", false, "#333333" };
	char buf[64];

	for (unsigned lv = 0; lv < IOS_TL_LEVELS; lv++) {
		if (!(L->levels & 1u << lv))
			continue;
		ios_svg_text(c->b, bx->x0 - 6, y + PL_LANE_H - 3, 0, &lf, level_names[lv]);
		for (size_t k = 0; k < tl->nr_cols && k * tl->col_ns < c->end_ns; k++) {
			double x = ios_pl_px(c, bx, k * tl->col_ns + tl->col_ns / 2);
			unsigned b = tl->cols[k].levels >> (lv * 2);

			if (b & 1)
				ios_svg_line(c->b, x, y, x, y + PL_LANE_H / 2, &rd);
			if (b & 2)
				ios_svg_line(c->b, x, y + PL_LANE_H / 2, x, y + PL_LANE_H, &wr);
		}
		y += PL_LANE_H + PL_LANE_GAP;
	}
	for (unsigned d = 0; d < IOS_TL_DOMAINS; d++) {
		double run0 = -1, run1 = 0;
		uint16_t runv = 0, top = tl->depth_max[d] ? tl->depth_max[d] : 1;

		if (!(L->domains & 1u << d))
			continue;
		ios_svg_line(c->b, bx->x0, y + PL_LANE_H, bx->x0 + bx->w, y + PL_LANE_H, &base);
		ios_svg_text(c->b, bx->x0 - 6, y + PL_LANE_H - 3, 0, &lf, domain_names[d]);
		/* the scale: the full lane is the pool's largest depth; the depth at the end */
		snprintf(buf, sizeof(buf), "full: %u, end: %u", (unsigned)top, (unsigned)tl->depth_now[d]);
		ios_svg_text(c->b, bx->x0 + bx->w - 2, y - 1, 0, &vf, buf);
		/* equal neighbouring columns make one bar */
		for (size_t k = 0; k <= tl->nr_cols; k++) {
			bool in = k < tl->nr_cols && k * tl->col_ns < c->end_ns;
			uint16_t v = in ? tl->cols[k].depth[d] : 0;
			uint64_t t1 = (k + 1) * tl->col_ns;

			if (run0 >= 0 && in && v == runv) {
				run1 = ios_pl_px(c, bx, t1 < c->end_ns ? t1 : c->end_ns);
				continue;
			}
			if (run0 >= 0 && runv) {
				double h = PL_LANE_H * (double)runv / top;

				ios_svg_rect(c->b, run0, y + PL_LANE_H - h, run1 - run0, h, "#7f7f7f", NULL);
			}
			run0 = -1;
			if (in) {
				run0 = ios_pl_px(c, bx, k * tl->col_ns);
				run1 = ios_pl_px(c, bx, t1 < c->end_ns ? t1 : c->end_ns);
				runv = v;
			}
		}
		y += PL_LANE_H + PL_LANE_GAP;
	}
}

/* A timeline lane's colour by the legend's (jobs), grey for "other". */
static const char *pl_job_color(const struct ios_timeline *tl, uint32_t lane)
{
	if (lane + 1 >= tl->nr_lanes)
		return PL_OTHER_COLOR;
	return ios_pl_colors[lane % IOS_ARRAY_SIZE(ios_pl_colors)];
}

/*
 * The cgroup controllers' lanes from @y, one per cause that held I/O
 * (enum ios_wait_cause): in each column a bar in the colour of the job
 * whose I/O it held longest there, as tall as that wait's share of the
 * column (in quarters, at least one); above the lane, the job held longest
 * by it over the run and for how long. Answers "which controller delayed
 * whom, when".
 */
static void pl_tl_held_lanes(struct pl_ctx *c, const struct ios_timeline *tl,
			     const struct pl_lanes *L, const struct pl_box *bx, double y)
{
	static const char *const names[IOS_TL_CAUSES] = { "io.max held", "io.cost held",
							  "io.latency held", "wbt held",
							  "delay slept" };
	static const struct ios_svg_stroke base = { "#d0d0d0", 1, NULL };
	const struct ios_svg_font lf = { 11, "end", false, "#222222" };
	const struct ios_svg_font vf = { 10, "end", false, "#333333" };
	char buf[96], name[40];

	for (unsigned k = 0; k < IOS_TL_CAUSES; k++) {
		double run0 = -1, run1 = 0;
		uint32_t runw = 0;
		unsigned runq = 0;
		uint64_t most = 0;
		size_t who = 0;

		if (!(L->held & 1u << k))
			continue;
		ios_svg_line(c->b, bx->x0, y + PL_LANE_H, bx->x0 + bx->w, y + PL_LANE_H, &base);
		ios_svg_text(c->b, bx->x0 - 6, y + PL_LANE_H - 3, 0, &lf, names[k]);
		for (size_t l = 0; l < tl->nr_lanes; l++)
			if (tl->held_lane_ns[l * IOS_TL_CAUSES + k] > most) {
				most = tl->held_lane_ns[l * IOS_TL_CAUSES + k];
				who = l;
			}
		if (who + 1 == tl->nr_lanes)
			snprintf(name, sizeof(name), "async/other");
		else
			ios_pl_name(name, sizeof(name), &c->legend->jobs[who < c->legend->nr_jobs ? who : 0], 16);
		snprintf(buf, sizeof(buf), "most: %s, %.1f ms in %llu waits", name, (double)most / 1e6,
			 (unsigned long long)tl->held_lane_nr[who * IOS_TL_CAUSES + k]);
		ios_svg_text(c->b, bx->x0 + bx->w - 2, y - 1, 0, &vf, buf);
		/* equal neighbours (same job, same height) make one bar */
		for (size_t i = 0; i <= tl->nr_cols; i++) {
			bool in = i < tl->nr_cols && i * tl->col_ns < c->end_ns;
			uint32_t w = in ? tl->cols[i].held[k] : 0;
			uint64_t t1 = (i + 1) * tl->col_ns;
			unsigned q = 0;

			if (w) {
				uint64_t ns = tl->cols[i].held_ns[k];

				q = ns >= tl->col_ns ? 4 : (unsigned)(1 + 4 * ns / tl->col_ns);
				if (q > 4)
					q = 4;
			}
			if (run0 >= 0 && w && w == runw && q == runq) {
				run1 = ios_pl_px(c, bx, t1 < c->end_ns ? t1 : c->end_ns);
				continue;
			}
			if (run0 >= 0) {
				double h = PL_LANE_H * runq / 4;
				double rw = run1 - run0 < 0.6 ? 0.6 : run1 - run0;

				ios_svg_rect(c->b, run0, y + PL_LANE_H - h, rw, h,
					     pl_job_color(tl, runw - 1), NULL);
			}
			run0 = -1;
			if (w) {
				run0 = ios_pl_px(c, bx, i * tl->col_ns);
				run1 = ios_pl_px(c, bx, t1 < c->end_ns ? t1 : c->end_ns);
				runw = w;
				runq = q;
			}
		}
		y += PL_LANE_H + PL_LANE_GAP;
	}
}

static void pl_tl_lanes(struct pl_ctx *c, const struct ios_timeline *tl, const struct pl_lanes *L,
			const struct pl_box *bx)
{
	const struct ios_svg_font head = { 14, "start", true, "#222222" };
	const struct ios_svg_font lf = { 11, "end", false, "#222222" };
	const struct ios_svg_font nf = { 12, "start", false, "#555555" };
	static const struct ios_svg_stroke pm = { "#111111", 1.2, NULL };
	static const struct ios_svg_stroke base = { "#d0d0d0", 1, NULL };
	char buf[128], light[8];

	ios_svg_text(c->b, bx->x0, bx->y0 - 9, 0, &head,
		     "Who owned the disk: slices solid, idling light, | preemption");
	ios_svg_group_begin(c->b, NULL);
	if (!L->n && !L->rounds && !L->levels && !L->domains && !L->held)
		ios_svg_text(c->b, bx->x0 + 6, bx->y0 + PL_LANE_H - 2, 0, &nf,
			     "no slices: this scheduler dispatches without giving the disk to a process");
	for (size_t d = 0; d < L->n; d++) {
		double y = bx->y0 + (double)d * (PL_LANE_H + PL_LANE_GAP);
		const char *col = pl_lane_color(tl, L, d);
		size_t l = L->first[d];

		ios_svg_line(c->b, bx->x0, y + PL_LANE_H, bx->x0 + bx->w, y + PL_LANE_H, &base);
		if (L->shared && d == L->n - 1)
			snprintf(buf, sizeof(buf), "%zu more", L->shared);
		else if (l + 1 == tl->nr_lanes)
			snprintf(buf, sizeof(buf), "async/other");
		else
			ios_pl_name(buf, sizeof(buf), &c->legend->jobs[l < c->legend->nr_jobs ? l : 0], 12);
		ios_svg_text(c->b, bx->x0 - 6, y + PL_LANE_H - 3, 0, &lf, buf);
		pl_lane_bars(c, tl, L, bx, d, y, true, pl_light(col, 0.35, light, sizeof(light)));
		pl_lane_bars(c, tl, L, bx, d, y, false, col);
		for (size_t k = 0; k < tl->nr_cols; k++) {
			uint32_t p = tl->cols[k].preempt;
			double x;

			if (!p || L->of[p - 1] != d || k * tl->col_ns >= c->end_ns)
				continue;
			/* a tick over the lane, so a burst of them does not hide the bars */
			x = ios_pl_px(c, bx, k * tl->col_ns + tl->col_ns / 2);
			ios_svg_line(c->b, x, y - 3, x, y + 4, &pm);
		}
	}
	if (L->rounds) {
		double y = bx->y0 + (double)L->n * (PL_LANE_H + PL_LANE_GAP);
		static const struct ios_svg_stroke rd = { "#1f77b4", 1, NULL };
		static const struct ios_svg_stroke wr = { "#d62728", 1, NULL };

		ios_svg_text(c->b, bx->x0 - 6, y + PL_LANE_H - 3, 0, &lf, "rounds");
		for (size_t k = 0; k < tl->nr_cols && k * tl->col_ns < c->end_ns; k++) {
			double x = ios_pl_px(c, bx, k * tl->col_ns + tl->col_ns / 2);

			if (tl->cols[k].rounds & 1)
				ios_svg_line(c->b, x, y, x, y + PL_LANE_H / 2, &rd);
			if (tl->cols[k].rounds & 2)
				ios_svg_line(c->b, x, y + PL_LANE_H / 2, x, y + PL_LANE_H, &wr);
		}
	}
	pl_tl_mq_lanes(c, tl, L, bx, bx->y0 + (double)(L->n + L->rounds) * (PL_LANE_H + PL_LANE_GAP));
	pl_tl_held_lanes(c, tl, L, bx,
			 bx->y0 + (double)(L->n + L->rounds + pl_popcount(L->levels) +
					   pl_popcount(L->domains)) * (PL_LANE_H + PL_LANE_GAP));
	ios_svg_group_end(c->b);
}

/* As the recorder folds cells: the later job, both directions. */
static uint32_t pl_cell_merge(uint32_t a, uint32_t b)
{
	if (!b)
		return a;
	if (!a)
		return b;
	return (b & ~3u) | ((a | b) & 3u);
}

/* Each dispatch's sector over time: the grid, merged to cells of about 2 px. */
static void pl_tl_scatter(struct pl_ctx *c, const struct ios_timeline *tl, const struct pl_box *bx)
{
	size_t rows = tl->row_sectors ? (size_t)((tl->max_sector + tl->row_sectors - 1) / tl->row_sectors) : 0;
	size_t cpd, rpd;
	struct pl_axis y = { 0 };
	double top_bytes;

	if (rows > IOS_TL_ROWS)
		rows = IOS_TL_ROWS;
	if (!rows)
		rows = 1;
	top_bytes = (double)rows * (double)tl->row_sectors * 512.0;
	ios_pl_unit(&y, top_bytes, false);
	ios_pl_axis_make(&y, top_bytes / y.div, 4);
	ios_pl_axes(c, bx, &y, "Sector of each dispatch (\xe2\x96\xa0 read, \xe2\x96\xa1 write; last job per cell)",
		"Disk offset");
	cpd = (size_t)ceil((double)tl->nr_cols * 2.0 / bx->w);
	cpd = cpd ? cpd : 1;
	rpd = (size_t)ceil((double)rows * 2.0 / (bx->h * top_bytes / y.div / y.top));
	rpd = rpd ? rpd : 1;
	ios_svg_group_begin(c->b, NULL);
	for (size_t k = 0; k < tl->nr_cols && k * tl->col_ns < c->end_ns; k += cpd) {
		uint64_t t1 = (k + cpd) * tl->col_ns;
		double x0 = ios_pl_px(c, bx, k * tl->col_ns);
		double x1 = ios_pl_px(c, bx, t1 < c->end_ns ? t1 : c->end_ns);

		for (size_t r = 0; r < rows; r += rpd) {
			uint32_t v = 0;
			double y0, y1;

			for (size_t kk = k; kk < k + cpd && kk < tl->nr_cols; kk++)
				for (size_t rr = r; rr < r + rpd && rr < rows; rr++)
					v = pl_cell_merge(v, tl->cells[kk * IOS_TL_ROWS + rr]);
			if (!v)
				continue;
			y0 = ios_pl_py(bx, &y, (double)((r + rpd) * tl->row_sectors) * 512.0);
			y1 = ios_pl_py(bx, &y, (double)(r * tl->row_sectors) * 512.0);
			if (y0 < bx->y0)
				y0 = bx->y0;
			{
				size_t l = (v >> 2) - 1;
				const char *col = l + 1 == tl->nr_lanes ? PL_OTHER_COLOR
						  : ios_pl_colors[l % IOS_ARRAY_SIZE(ios_pl_colors)];
				struct ios_svg_stroke st = { col, 1, NULL };
				double w = x1 - x0 < 1.5 ? 1.5 : x1 - x0, h = y1 - y0 < 1.5 ? 1.5 : y1 - y0;

				if (v & IOS_TL_READ)
					ios_svg_rect(c->b, x0, y0, w, h, col, NULL);
				else
					ios_svg_rect(c->b, x0 + 0.5, y0 + 0.5, w - 1 > 0.5 ? w - 1 : 0.5,
						     h - 1 > 0.5 ? h - 1 : 0.5, NULL, &st);
			}
		}
	}
	ios_svg_group_end(c->b);
}

/* Height of the timeline block below a run's panels. */
double ios_pl_tl_height(const struct pl_lanes *L, double scatter_h)
{
	return 30 + pl_lanes_height(L) + 45 + scatter_h + 48;
}

/* The whole block from @y: lanes, then the scatter @scatter_h tall. */
void ios_pl_timeline(struct pl_ctx *c, const struct ios_timeline *tl, const struct pl_lanes *L,
			double x0, double w, double y, double scatter_h)
{
	struct pl_box lb = { x0, y + 30, w, pl_lanes_height(L) };
	struct pl_box sb = { x0, lb.y0 + lb.h + 45, w, scatter_h };

	pl_tl_lanes(c, tl, L, &lb);
	pl_tl_scatter(c, tl, &sb);
}

void ios_pl_tl_key(struct pl_ctx *c, double x, double y, bool held)
{
	const struct ios_svg_font head = { 14, "start", true, "#222222" };
	const struct ios_svg_font f = { 12, "start", false, "#222222" };
	static const struct ios_svg_stroke pm = { "#111111", 1.2, NULL };
	static const struct ios_svg_stroke wr = { "#555555", 1, NULL };

	ios_svg_text(c->b, x, y, 0, &head, "Timeline");
	ios_svg_rect(c->b, x, y + 12, 28, 10, "#555555", NULL);
	ios_svg_text(c->b, x + 36, y + 21, 0, &f, "slice: owns the disk");
	ios_svg_rect(c->b, x, y + 30, 28, 10, "#cccccc", NULL);
	ios_svg_text(c->b, x + 36, y + 39, 0, &f, "disk idles for it");
	ios_svg_line(c->b, x + 14, y + 47, x + 14, y + 54, &pm);
	ios_svg_text(c->b, x + 36, y + 57, 0, &f, "it preempted the owner");
	ios_svg_rect(c->b, x + 9, y + 66, 10, 10, "#555555", NULL);
	ios_svg_text(c->b, x + 36, y + 75, 0, &f, "read dispatched");
	ios_svg_rect(c->b, x + 9.5, y + 84.5, 9, 9, NULL, &wr);
	ios_svg_text(c->b, x + 36, y + 93, 0, &f, "write dispatched");
	ios_svg_text(c->b, x, y + 113, 0, &f, "colours: the jobs'; grey: async/other");
	if (held) {
		/* only where a cgroup controller held I/O: other plots stay as they were */
		ios_svg_text(c->b, x, y + 131, 0, &f, "held lanes: the job held longest");
		ios_svg_text(c->b, x, y + 147, 0, &f, "per column; height: its share");
	}
}

/* Whether any run's timeline has a lane of the cgroup controllers' waits. */
bool ios_pl_any_held(const struct ios_plot *p)
{
	for (size_t r = 0; r < p->nr_runs; r++)
		if (p->runs[r].series->timeline && p->runs[r].series->timeline->held_causes)
			return true;
	return false;
}

