/*
 * What the plot's files share (src/report/plot.c lays out the panels,
 * plot_timeline.c draws the timeline under them): the layout's state, the
 * coordinate helpers and the palette.
 */
#ifndef IOSCHED_REPORT_PLOT_INT_H
#define IOSCHED_REPORT_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iosched/plot.h"
#include "iosched/timeline.h"
#include "report/svg.h"

#define PL_MAX_LANES	12	/* timeline lanes; more jobs share the last one */
#define PL_LANE_H	14.0
#define PL_LANE_GAP	3.0

extern const char *const ios_pl_colors[10];

/* An axis from 0: its top, tick step, decimals of the tick labels, unit. */
struct pl_axis {
	double top, step;	/* in display units */
	int decimals;
	double div;		/* raw value / div = display value */
	const char *unit;
	bool log;		/* decades lo..hi of display values (10^lo .. 10^hi) */
	int lo, hi;
};

/* A run cut into plot windows: per job, the bytes of each window. */
struct pl_run {
	const struct ios_series *s;
	size_t nwin;
	/*
	 * [job][window] bytes: win[] at the time they reached the disk (a
	 * buffered write's bytes when writeback completed them), for the
	 * bandwidth panel; cwin[] as fio counts them (a buffered write when
	 * its copy into the page cache was done), for the cumulative panel,
	 * whose right edge is then the report's io_bytes. The two differ
	 * only for jobs with buffered writes.
	 */
	uint64_t **win, **cwin;
	size_t *first, *last;	/* windows of win with I/O; first > last: none */
	size_t *cfirst, *clast;	/* the same for cwin */
	double **lmean;		/* [job][window] mean clat, ns; NAN: no completion (ios_plot.latency) */
	/*
	 * Lines by cgroup with their device side (ios_series_job.charged):
	 * win[] is then the submit side, as cwin[] (what the tasks' system
	 * calls completed), and dwin[] the bytes charged to the cgroup that
	 * the device completed, drawn dashed. NULL dwin[j]: none.
	 */
	bool sides;
	uint64_t **dwin;
	size_t *dfirst, *dlast;
};

struct pl_ctx {
	struct ios_buf *b;
	const struct ios_plot *p;
	struct pl_run *runs;
	uint64_t win_ns;	/* window length */
	uint64_t end_ns;	/* longest run */
	struct pl_axis x;	/* seconds */
	struct pl_axis bw, cum;
	/*
	 * One job's peak more than PL_CLIP_RATIO times the next job's: the
	 * bandwidth axis stops at twice the next peak and the clipped windows
	 * are marked, so the others stay readable (clip_raw: bytes/s; 0: none).
	 */
	double clip_raw, peak_raw;
	struct pl_axis lat;	/* ios_plot.latency: mean clat, ms, log or linear */
	size_t nr_legend;	/* jobs of the run with the most */
	const struct ios_series *legend;
};

struct pl_box {
	double x0, y0, w, h;
};

/*
 * The lanes a timeline draws: the timeline's lanes (jobs, then "other")
 * that owned or idled the disk, in job order; past PL_MAX_LANES the ones
 * with the least time share one last lane.
 */
struct pl_lanes {
	size_t n;		/* drawn lanes */
	size_t *of;		/* timeline lane -> drawn lane; SIZE_MAX: never owned */
	size_t first[PL_MAX_LANES];	/* drawn lane -> its (first) timeline lane */
	size_t shared;		/* timeline lanes in the last, shared lane; 0: none */
	bool rounds;		/* a lane of dispatch rounds (deadline) */
	unsigned levels;	/* lanes of leveled batches (mq-deadline): 1 << level */
	unsigned domains;	/* lanes of token depths (kyber): 1 << domain */
	unsigned held;		/* lanes of cgroup controllers' waits: 1 << enum ios_wait_cause */
};

void ios_pl_axis_make(struct pl_axis *a, double max_display, int ticks);
void ios_pl_unit(struct pl_axis *a, double max_bytes, bool per_s);
double ios_pl_px(const struct pl_ctx *c, const struct pl_box *bx, uint64_t t_ns);
double ios_pl_py(const struct pl_box *bx, const struct pl_axis *a, double raw);
void ios_pl_axes(struct pl_ctx *c, const struct pl_box *bx, const struct pl_axis *y,
		 const char *title, const char *ylabel);
void ios_pl_name(char *buf, size_t len, const struct ios_series_job *sj, size_t max);

/* The timeline (plot_timeline.c): lanes of @tl to draw (free L->of), their block's height. */
int ios_pl_lanes_make(const struct ios_timeline *tl, struct pl_lanes *L);
double ios_pl_tl_height(const struct pl_lanes *L, double scatter_h);
void ios_pl_timeline(struct pl_ctx *c, const struct ios_timeline *tl, const struct pl_lanes *L,
		     double x0, double w, double y, double scatter_h);
void ios_pl_tl_key(struct pl_ctx *c, double x, double y, bool held);
bool ios_pl_any_held(const struct ios_plot *p);

#endif
