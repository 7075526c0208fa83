/*
 * Per-job time series and the SVG plot drawn from them.
 *
 * A series set holds, for every job clone of a run, the bytes its completed
 * I/O moved in each bucket of simulated time (counted when fio would count
 * them: at completion, after ramp_time; reads and writes together). All jobs
 * share one bucket width, which starts at 1 ms and grows tenfold whenever
 * the run outlasts IOS_SERIES_MAX_BUCKETS buckets (the counts fold into the
 * wider buckets), so memory stays bounded by IOS_SERIES_MAX_BUCKETS per job
 * however long the run, and the resolution adapts to its length.
 *
 * ios_plot_svg() draws one or more runs (iosched run: one; iosched compare:
 * one per scheduler, on the same scales): per-job bandwidth over time in
 * windows, and the cumulative bytes per job, which shows at a glance who
 * got the disk. It writes SVG 1.1 text into an ios_buf; nothing else is
 * needed to draw or view it. Same series, same bytes.
 */
#ifndef IOSCHED_PLOT_H
#define IOSCHED_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_timeline;

#define IOS_SERIES_MAX_BUCKETS 5000

struct ios_series_job {
	char *label;		/* the job name, "name.K" for the clones of numjobs=N */
	uint64_t *bytes;	/* bytes completed per bucket; missing tail = 0 */
	size_t len, cap;
	uint64_t total;		/* sum of bytes[] */
	/* what ios_series_aggregate() groups by (series_group.h) */
	char *cgroup;		/* the job's cgroup path, "" for the root group */
	int ioprio_class, ioprio_level;	/* effective (ios_ioc_class/level) */
	/*
	 * Buffered writes at disk time: the bytes of the pages this job
	 * dirtied, per bucket, when their writeback completed (bytes[] counts
	 * a buffered write when its copy into the page cache is done, as fio
	 * does). Same buckets as bytes[]; NULL when none reached the disk.
	 */
	uint64_t *disk;
	size_t disk_len, disk_cap;
	uint64_t disk_total;	/* sum of disk[] */
	/*
	 * The part of bytes[] that buffered writes copied into the page
	 * cache; bytes[] - cached[] + disk[] is the job's I/O at disk time.
	 */
	uint64_t *cached;
	size_t cached_len, cached_cap;
	uint64_t cached_total;
	/*
	 * Completion latency (fio's clat) of the I/O counted in bytes[], per
	 * bucket: the sum in ns and the count, for the early/late halves of
	 * `iosched compare` (exp/metrics.c). NULL when none was added.
	 */
	uint64_t *lat_sum, *lat_n;
	size_t lat_len, lat_cap, lat_n_len, lat_n_cap;
	uint64_t lat_sum_total, lat_n_total;
	/*
	 * A cgroup line's device side (ios_series_aggregate by cgroup only):
	 * the bytes of requests charged to the line's cgroup, per bucket, at
	 * their completion by the device; NULL for job and class lines. bytes[]
	 * is then the line's submit side, what its tasks' system calls saw.
	 */
	uint64_t *charged;
	size_t charged_len, charged_cap;
	uint64_t charged_total;
};

/*
 * The device side of one cgroup: bytes of the requests charged to it (the
 * request's blkcg: the submitter's, or the dirtier's under cgroup
 * writeback) per bucket, when the device completed them. Same buckets as
 * the jobs'.
 */
struct ios_series_cg {
	char *path;		/* "" for the root; NULL: no request charged to this id */
	uint64_t *bytes;
	size_t len, cap;
	uint64_t total;
};

struct ios_series {
	uint64_t bucket_ns;	/* 1 ms, 10 ms, 100 ms, ... */
	uint64_t end_ns;	/* simulated end of the run (set by the runner) */
	size_t nr_jobs;
	struct ios_series_job *jobs;
	struct ios_timeline *timeline;	/* timeline.h; NULL unless recorded, freed with the series */
	bool timeline_borrowed;		/* another series owns it (a per-job copy for the plot) */
	/*
	 * io.cost's per-period records (stats.h; borrowed from the run's
	 * result, never freed here): with one run, ios_plot_svg draws them in
	 * a panel below the data moved (vrate, each cgroup's hweight_inuse and
	 * usage). NULL: no panel; a comparison's rows leave it NULL.
	 */
	const struct ios_iocost_log *iocost;
	/* per cgroup id, the device side (ios_series_add_charged); the runner's only */
	struct ios_series_cg *cgs;
	size_t nr_cgs;
};

/* @nr_jobs empty series with 1 ms buckets; -ENOMEM. */
int ios_series_init(struct ios_series *s, size_t nr_jobs) IOS_MUST_CHECK;
int ios_series_set_label(struct ios_series *s, size_t job, const char *label) IOS_MUST_CHECK;
/* @bytes completed by @job at @t_ns; -ENOMEM (the series stay valid). */
int ios_series_add(struct ios_series *s, size_t job, uint64_t t_ns, uint64_t bytes) IOS_MUST_CHECK;
/* @bytes of pages @job dirtied reached the disk at @t_ns (writeback done); -ENOMEM. */
int ios_series_add_disk(struct ios_series *s, size_t job, uint64_t t_ns,
			uint64_t bytes) IOS_MUST_CHECK;
/* @bytes of @job's completed I/O at @t_ns were a buffered write's copy (already in add) */
int ios_series_add_cached(struct ios_series *s, size_t job, uint64_t t_ns,
			  uint64_t bytes) IOS_MUST_CHECK;
/* One completion of @job at @t_ns with completion latency @clat_ns; -ENOMEM. */
int ios_series_add_lat(struct ios_series *s, size_t job, uint64_t t_ns,
		       uint64_t clat_ns) IOS_MUST_CHECK;
/*
 * @bytes of a request charged to cgroup @cg_id (path @path, "" the root)
 * completed at the device at @t_ns; -ENOMEM. Ids are the run's dense
 * cgroup ids; the array grows to the largest seen.
 */
int ios_series_add_charged(struct ios_series *s, unsigned cg_id, const char *path,
			   uint64_t t_ns, uint64_t bytes) IOS_MUST_CHECK;
void ios_series_free(struct ios_series *s);

/* One run to draw. */
struct ios_plot_run {
	const char *label;		/* row title with several runs ("cfq"); may be NULL */
	const struct ios_series *series;
};

struct ios_plot {
	const char *title;		/* first line, e.g. the job file */
	const char *subtitle;		/* second line, e.g. scheduler, device, seed; may be NULL */
	const struct ios_plot_run *runs;
	size_t nr_runs;
	const char *lines;		/* what a line is, in the panel titles: "cgroup"; NULL: "job" */
	/*
	 * A third panel per run: each line's mean clat per window (the
	 * series' lat_sum / lat_n), on a log scale when the largest window
	 * mean is more than IOS_PLOT_LOG_RATIO times the smallest
	 */
	bool latency;
};

#define IOS_PLOT_LOG_RATIO 100.0

/*
 * Draw @p as an SVG document into @out: a title, then per run a bandwidth
 * panel (windows of 1, 2 or 5 x 10^k ms, the smallest giving at most 200
 * windows over the longest run) and a cumulative-bytes panel, with axes,
 * tick labels, units and a legend of job names (with their totals) in
 * distinct colours. Several runs share their time and value scales.
 * Returns 0, -EINVAL (no run, or a run without series) or -ENOMEM.
 */
int ios_plot_svg(const struct ios_plot *p, struct ios_buf *out) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
