/*
 * Private helpers shared by the report writers (text.c, json.c) and
 * implemented in stats.c.
 *
 * Both writers need the same derived numbers, computed the way fio 3.33's
 * stat.c computes them: the per-group run statistics (aggregate bandwidth,
 * min/max per-job bandwidth and runtime), the "per=" share of a job in its
 * group, the sorted percentile list and its print precision, and the
 * percentage distributions of the IO depth and latency bucket rows. Keeping
 * them in one place makes the text and JSON reports agree by construction.
 */
#ifndef IOSCHED_REPORT_INT_H
#define IOSCHED_REPORT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "iosched/stats.h"

/* fio's FIO_IO_U_LIST_MAX_LEN: at most 20 percentiles are reported */
#define IOS_REP_MAX_PCTS 20

/* fio's struct group_run_stats, for directions read, write, trim */
struct ios_rep_group {
	uint64_t max_run[IOS_DDIR_NR], min_run[IOS_DDIR_NR];	/* ms */
	uint64_t max_bw[IOS_DDIR_NR], min_bw[IOS_DDIR_NR];	/* B/s */
	uint64_t iobytes[IOS_DDIR_NR];
	uint64_t agg[IOS_DDIR_NR];				/* B/s */
};

/*
 * Run statistics of groups 0..max groupid. *groups is malloc'd (free it);
 * *nr = max groupid + 1, 0 when there are no jobs. Returns 0 or -ENOMEM.
 */
int ios_rep_groups(const struct ios_run_result *r, struct ios_rep_group **groups, int *nr);

/* fio's "per=" / bw_agg: the job's mean bw (KiB/s) as a share of the group's */
double ios_rep_bw_share(const struct ios_rep_group *g, int ddir, double mean_kib);

/* ctime(3)-style "Www Mmm dd hh:mm:ss yyyy" of Unix seconds, always UTC */
void ios_rep_ctime(uint64_t unix_s, char out[32]);
/* json.c: the JSON (json+ with @plus) with @nr_notes notes in its "iosched" object */
int ios_rep_json_notes(const struct ios_run_result *r, bool plus, const char *const *notes,
		       size_t nr_notes, struct ios_buf *out);

/*
 * The job's percentile list as fio prints it: sorted, cut at the first 0
 * and at 20 entries. Returns the count; *precision gets the number of
 * decimals fio shows ("1.00th" has 2, "99.999th" 3, "50th" 0).
 */
unsigned ios_rep_pcts(const struct ios_job_result *j, double out[IOS_REP_MAX_PCTS],
		      unsigned *precision);

/* fio's calc_lat: false when there are no samples */
bool ios_rep_lat(const struct ios_lat_stat *s, uint64_t *min, uint64_t *max, double *mean,
		 double *dev);

/*
 * Percentages of @total in each of @nr buckets, with a floor: a bucket that
 * is not empty shows at least @floor percent (fio: 0.1 for depths, 0.01 for
 * latency rows). All zero when total is 0.
 */
void ios_rep_dist(const uint64_t *map, unsigned nr, uint64_t total, double floor_pct,
		  double *out);

/* reads + writes + trims issued (fio's ddir_rw_sum(total_io_u)) */
uint64_t ios_rep_total_rw_ios(const struct ios_job_result *j);

/* fio's latency_depth: the job's iodepth (1 without a job) */
unsigned ios_rep_iodepth(const struct ios_job_result *j);
/* latency_target, latency_window (in us, as fio prints it) and latency_percentile */
void ios_rep_lat_target(const struct ios_job_result *j, uint64_t *target_ns, uint64_t *window_us,
			double *pct);

static inline uint64_t ios_rep_sum(const uint64_t *a, unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += a[i];
	return s;
}

/* fio's steadystate_bw_mean / _iops_mean: the integer mean of a window of @n samples */
uint64_t ios_rep_ss_mean(const uint64_t *v, unsigned n);

#endif
