/*
 * Description: io.cost's panel in the plot (docs/cgroup-v2.md "io.cost's
 * monitor"; src/report/plot.c pl_iocost_panel, the records of
 * src/block/blk_iocost_monitor.c). Two groups of two 4 KiB random readers
 * (QD16) on ssd-nvme under none, io.weight 500:100, io.cost enabled:
 *  - a run's plot has the panel: one vrate line with a point per period
 *    kept, and per active group a solid hweight_inuse and a dashed usage
 *    line; a's hweight line lies above b's at every period (83 % against
 *    17 % of the device), a's usage above b's overall;
 *  - a comparison's rows carry it too: a row whose run had io.cost draws
 *    the panel with its key at its right, a row without says io.cost did not run,
 *    and the document grows by the panel's rows (280 px each);
 *  - a run without io.cost has no panel and its plot is as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "iosched/ios.h"
#include "iosched/plot.h"

static struct ios_jobfile jf, jf2;

static const char job[] =
	"[global]\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=16\nsize=256m\n"
	"runtime=1s\ntime_based\n[a]\ncgroup=a\nnumjobs=2\n[b]\ncgroup=b\nnumjobs=2\n";

static int run(bool enable, struct ios_jobfile *f, struct ios_run_result *res)
{
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	struct ios_run_config cfg = { .scheduler = "none", .device = "ssd-nvme", .seed = 1,
				      .settings = &set, .record_series = true };
	int ret;

	if (ios_settings_add_kv(&set, enable ? "cgroup.io.cost.qos=enable=1" :
				"cgroup.io.cost.qos=enable=0", "test", &e) ||
	    ios_settings_add_kv(&set, "cgroup.a.io.weight=500", "test", &e) ||
	    ios_settings_add_kv(&set, "cgroup.b.io.weight=100", "test", &e))
		return -1;
	ret = t_run_job("t.fio", job, &cfg, f, res);
	/* as the command line does: the series carries the monitor to the plot */
	if (!ret && res->series)
		res->series->iocost = res->iocost;
	ios_settings_free(&set);
	return ret;
}

static int svg_of(const struct ios_run_result *const *r, size_t n, struct ios_buf *b)
{
	struct ios_plot_run pr[2];
	struct ios_plot p = { "t", NULL, pr, n, NULL, false };

	for (size_t i = 0; i < n; i++)
		pr[i] = (struct ios_plot_run){ r[i]->scheduler, r[i]->series };
	ios_buf_init(b);
	return ios_plot_svg(&p, b);
}

/* The points of the polylines after @from drawn with @stroke (and @dash or none). */
struct line {
	double y[4096];
	size_t n;
};

static const char *next_line(const char *s, const char *stroke, bool dashed, struct line *l)
{
	char want[64];

	snprintf(want, sizeof(want), "stroke=\"%s\"", stroke);
	for (const char *p = strstr(s, "<polyline"); p; p = strstr(p + 1, "<polyline")) {
		const char *end = strchr(p, '>'), *pts;

		if (!end)
			return NULL;
		if (!memmem(p, (size_t)(end - p), want, strlen(want)) ||
		    !!memmem(p, (size_t)(end - p), "stroke-dasharray", 16) != dashed)
			continue;
		pts = memmem(p, (size_t)(end - p), "points=\"", 8);
		if (!pts)
			return NULL;
		pts += 8;
		l->n = 0;
		while (*pts && *pts != '"' && l->n < 4096) {
			char *q;

			strtod(pts, &q);	/* x */
			if (*q != ',')
				return NULL;
			l->y[l->n++] = strtod(q + 1, &q);
			pts = q;
			while (*pts == ' ')
				pts++;
		}
		return end;
	}
	return NULL;
}

static const char *svg_panel(const char *s)
{
	return strstr(s, "io.cost per period");
}

/* rule: vrate a point per period; a's hweight above b's (smaller y) at each */
static int test_run_panel(void)
{
	struct ios_run_result r = { 0 };
	const struct ios_run_result *rp = &r;
	const struct ios_iocost_log *l;
	static struct line v, ha, ua, hb, ub;
	const char *s, *p;
	struct ios_buf b;
	double sa = 0, sb = 0;
	size_t both = 0;

	T_ASSERT(!run(true, &jf, &r));
	l = r.series->iocost;
	T_ASSERT(l && l->nr > 10);
	T_ASSERT_EQ(svg_of(&rp, 1, &b), 0);
	s = svg_panel(b.s);
	T_ASSERT(s);
	T_ASSERT((p = next_line(s, "#111111", false, &v)));
	T_ASSERT_EQ(v.n, l->nr);
	/* the groups in the log's order: root (never active), a, b */
	T_ASSERT((p = next_line(p, "#1f77b4", false, &ha)));
	T_ASSERT((p = next_line(p, "#1f77b4", true, &ua)));
	T_ASSERT((p = next_line(p, "#ff7f0e", false, &hb)));
	T_ASSERT((p = next_line(p, "#ff7f0e", true, &ub)));
	T_ASSERT(ha.n > 10 && ha.n == hb.n && ua.n == ha.n && ub.n == hb.n);
	for (size_t i = 0; i < ha.n; i++) {
		T_ASSERT_MSG(ha.y[i] < hb.y[i], "period %zu: a at y %.1f, b at %.1f", i, ha.y[i],
			     hb.y[i]);
		sa += ua.y[i];
		sb += ub.y[i];
		both++;
	}
	/* a's usage is higher (smaller y) than b's on the whole */
	T_ASSERT(both && sa < sb);
	T_ASSERT(strstr(s, ">/a<") || strstr(s, ">a<"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	return T_PASS;
}

/* rule: compare rows: the panel where io.cost ran, a note where not, 280 px a row */
static int test_compare_rows(void)
{
	struct ios_run_result on = { 0 }, off = { 0 };
	const struct ios_run_result *both[2] = { &on, &off }, *offs[2] = { &off, &off };
	struct ios_buf b, b0;
	double h, h0;
	const char *p;

	T_ASSERT(!run(true, &jf, &on));
	T_ASSERT(!run(false, &jf2, &off));
	T_ASSERT(on.series->iocost && !off.series->iocost);
	T_ASSERT_EQ(svg_of(both, 2, &b), 0);
	T_ASSERT_EQ(svg_of(offs, 2, &b0), 0);
	p = svg_panel(b.s);
	T_ASSERT(p && !svg_panel(p + 1));	/* one panel: the row with io.cost */
	T_ASSERT(strstr(b.s, "io.cost did not run here"));
	T_ASSERT(!svg_panel(b0.s) && !strstr(b0.s, "io.cost did not run"));
	T_ASSERT(sscanf(strstr(b.s, "height=\""), "height=\"%lf", &h) == 1);
	T_ASSERT(sscanf(strstr(b0.s, "height=\""), "height=\"%lf", &h0) == 1);
	T_ASSERT_NEAR(h - h0, 2 * 280.0, 0.01);
	ios_buf_free(&b);
	ios_buf_free(&b0);
	t_job_done(&jf2, &off);
	t_job_done(&jf, &on);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_run_panel, test_compare_rows);
}
