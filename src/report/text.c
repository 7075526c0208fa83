/*
 * fio 3.33's "normal" text report, written from a struct ios_run_result.
 *
 * The layout is fio's, byte for byte, so that people who read fio output
 * every day read ours without thinking, and so that scripts that scrape
 * fio's text keep working. What fio decides from the numbers, we decide the
 * same way:
 *
 *  - the unit of each min/max/avg/stdev line is chosen per line: msec when
 *    min > 2 ms, max > 100 ms and stdev > 1 ms; else usec with the same
 *    thresholds divided by 1000; else nsec. min and max are truncated,
 *    avg and stdev keep two decimals;
 *  - the unit of a percentile block is chosen from the smallest and largest
 *    reported percentile, values are rounded up in that unit, the column
 *    width follows the largest value and as many entries go on a line as
 *    fit in 80 columns;
 *  - IOPS= and BW= use fio's num2str: 4 significant digits, power-of-2
 *    units first and power-of-10 ones in parentheses, carry rounding;
 *  - "per=" is the job's mean sampled bandwidth as a share of its group's
 *    aggregate bandwidth (with fio's truncation of the mean to an integer);
 *  - the "lat (nsec/usec/msec)" rows are the completion-latency
 *    distribution, five buckets to a line, empty buckets left out.
 *
 * A job that did no I/O prints nothing, directions without runtime print
 * nothing, slat prints only when it was measured (async engines), and the
 * header's date is derived from r->timestamp in UTC, so the same result
 * always prints the same bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/blkcg.h"
#include "iosched/stats.h"
#include "report/report_int.h"

static const char *const tx_dir_name[IOS_DDIR_NR] = { "read", "write", "trim" };
static const char *const tx_group_name[IOS_DDIR_NR] = { "   READ", "  WRITE", "   TRIM" };

/* fio's display_lat: one "name (unit): min=, max=, avg=, stdev=" line */
static void tx_lat_line(struct ios_buf *b, const char *name, const struct ios_lat_stat *s)
{
	const char *unit = "(nsec)";
	char minp[32], maxp[32];
	uint64_t min, max;
	double mean, dev;

	if (!ios_rep_lat(s, &min, &max, &mean, &dev))
		return;
	if (min > 2000000 && max > 99999999ull && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1000000.0;
		dev /= 1000000.0;
		unit = "(msec)";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1000.0;
		dev /= 1000.0;
		unit = "(usec)";
	}
	ios_buf_printf(b, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, unit,
		       ios_num2str(minp, sizeof(minp), min, 6, 1, 0, IOS_N2S_NONE),
		       ios_num2str(maxp, sizeof(maxp), max, 6, 1, 0, IOS_N2S_NONE), mean, dev);
}

/* fio's show_clat_percentiles */
static void tx_percentiles(struct ios_buf *b, const struct ios_job_result *j,
			   const struct ios_lat_stat *s, const char *pre)
{
	double pcts[IOS_REP_MAX_PCTS];
	uint64_t vals[IOS_REP_MAX_PCTS], minv = UINT64_MAX, maxv = 0, divisor;
	unsigned prec, n, scale, i, per_line;
	int width;

	n = ios_rep_pcts(j, pcts, &prec);
	if (!n || !s->hist || !s->n)
		return;
	ios_lat_percentiles(s, pcts, n, vals);
	for (i = 0; i < n; i++) {
		if (vals[i] < minv)
			minv = vals[i];
		if (vals[i] > maxv)
			maxv = vals[i];
	}
	if (minv > 2000000 && maxv > 99999999ull) {
		scale = 2;
		divisor = 1000000;
		ios_buf_printf(b, "    %s percentiles (msec):\n     |", pre);
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		ios_buf_printf(b, "    %s percentiles (usec):\n     |", pre);
	} else {
		scale = 0;
		divisor = 1;
		ios_buf_printf(b, "    %s percentiles (nsec):\n     |", pre);
	}
	width = 5;
	if (maxv / divisor) {
		int w = (int)(log10((double)(maxv / divisor)) + 1);

		if (w > width)
			width = w;
	}
	per_line = (80 - 7) / (prec + 10 + (unsigned)width);
	for (i = 0; i < n; i++) {
		bool last = i == n - 1;
		uint64_t v = vals[i];

		if (i && i % per_line == 0)
			ios_buf_puts(b, "     |");
		for (unsigned k = 0; k < scale; k++)
			v = (v + 999) / 1000;
		ios_buf_printf(b, " %*.*fth=[%*llu]%c", (int)prec + 3, (int)prec, pcts[i], width,
			       (unsigned long long)v, last ? '\n' : ',');
		if (last)
			break;
		if (i % per_line == per_line - 1)
			ios_buf_puts(b, "\n");
	}
}

/*
 * fio's show_ss_normal: the window's mean rate (bw printed twice with the
 * same KiB value, the second time with decimal prefixes, as fio does), its
 * mean IOPS, and the last criterion computed.
 */
static void tx_ss(struct ios_buf *b, const struct ios_job_result *j)
{
	const struct ios_ss_result *ss = j->ss;
	unsigned kb = j->job && j->job->kb_base == 1000 ? 1000 : 1024;
	uint64_t bw = ios_rep_ss_mean(ss->bw, ss->dur), iops = ios_rep_ss_mean(ss->iops, ss->dur);
	char p1[32], p1alt[32], p2[32];

	ios_buf_printf(b, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
		       (ss->state & IOS_SS_ATTAINED) ? "yes" : "no",
		       ios_num2str(p1, sizeof(p1), bw / kb, 4, (int)kb, kb == 1024,
				   IOS_N2S_BYTEPERSEC),
		       ios_num2str(p1alt, sizeof(p1alt), bw / kb, 4, (int)kb, kb != 1024,
				   IOS_N2S_BYTEPERSEC),
		       ios_num2str(p2, sizeof(p2), iops, 4, 1, 0, IOS_N2S_NONE),
		       (ss->state & IOS_SS_IOPS) ? "iops" : "bw",
		       (ss->state & IOS_SS_SLOPE) ? " slope" : " mean dev", ss->criterion,
		       (ss->state & IOS_SS_PCT) ? "%" : "");
}

static void tx_dir(struct ios_buf *b, const struct ios_job_result *j,
		   const struct ios_rep_group *g, int d)
{
	const struct ios_dir_result *dr = ios_job_dir(j, d);
	uint64_t runt = ios_runtime_ms(dr->runtime_ns), bw, iops;
	char io_p[32], bw_p[32], bw_alt[32], iops_p[32], resets[48];

	if (!runt)
		return;
	/* fio 3.33 reports zone resets (zonemode=zbd) on every write line, 0 for other jobs */
	snprintf(resets, sizeof(resets), "; %llu zone resets", (unsigned long long)j->nr_zone_resets);
	bw = 1000 * dr->io_bytes / runt;
	iops = 1000 * dr->total_ios / runt;
	ios_buf_printf(b, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", tx_dir_name[d],
		       ios_num2str(iops_p, sizeof(iops_p), iops, 4, 1, 0, IOS_N2S_NONE),
		       ios_num2str(bw_p, sizeof(bw_p), bw, 4, 1, 1, IOS_N2S_BYTEPERSEC),
		       ios_num2str(bw_alt, sizeof(bw_alt), bw, 4, 1, 0, IOS_N2S_BYTEPERSEC),
		       ios_num2str(io_p, sizeof(io_p), dr->io_bytes, 4, 1, 1, IOS_N2S_BYTE),
		       (unsigned long long)runt,
		       d == IOS_DDIR_WRITE ? resets : "");

	tx_lat_line(b, "slat", &dr->slat);
	tx_lat_line(b, "clat", &dr->clat);
	tx_lat_line(b, " lat", &dr->lat);
	tx_percentiles(b, j, &dr->slat, "slat");
	tx_percentiles(b, j, &dr->clat, "clat");
	tx_percentiles(b, j, &dr->lat, "lat");

	if (dr->bw.n) {
		unsigned long long min = (unsigned long long)dr->bw.min;
		unsigned long long max = (unsigned long long)dr->bw.max;
		double mean = dr->bw.mean, dev = ios_sample_stddev(&dr->bw);
		double per = ios_rep_bw_share(g, d, mean);
		const char *unit = "KiB";

		if (mean > 1024.0 * 1024.0) {
			min = (unsigned long long)((double)min / 1024.0);
			max = (unsigned long long)((double)max / 1024.0);
			mean /= 1024.0;
			dev /= 1024.0;
			unit = "MiB";
		}
		ios_buf_printf(b, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, "
			       "stdev=%5.02f, samples=%llu\n", unit, min, max, per, mean, dev,
			       (unsigned long long)dr->bw.n);
	}
	if (dr->iops.n)
		ios_buf_printf(b, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, "
			       "samples=%llu\n", (unsigned long long)dr->iops.min,
			       (unsigned long long)dr->iops.max, dr->iops.mean,
			       ios_sample_stddev(&dr->iops), (unsigned long long)dr->iops.n);
}

/* fio's show_lat: the non-empty buckets of one unit, five to a line */
static void tx_lat_rows(struct ios_buf *b, const double *pct, unsigned nr, const char *unit)
{
	static const char *const labels[] = { "2=", "4=", "10=", "20=", "50=", "100=", "250=",
					      "500=", "750=", "1000=", "2000=", ">=2000=" };
	bool new_line = true, shown = false;
	unsigned line = 0;

	for (unsigned i = 0; i < nr; i++) {
		if (pct[i] <= 0.0)
			continue;
		shown = true;
		if (new_line) {
			if (line)
				ios_buf_puts(b, "\n");
			ios_buf_printf(b, "  lat (%s)   : ", unit);
			new_line = false;
			line = 0;
		}
		if (line)
			ios_buf_puts(b, ", ");
		ios_buf_printf(b, "%s%3.2f%%", labels[i], pct[i]);
		if (++line == 5)
			new_line = true;
	}
	if (shown)
		ios_buf_puts(b, "\n");
}

static void tx_dist_line(struct ios_buf *b, const char *head, const char *const *labels,
			 const uint64_t *map, uint64_t total)
{
	double pct[IOS_NR_DEPTH_BUCKETS];

	ios_rep_dist(map, IOS_NR_DEPTH_BUCKETS, total, 0.1, pct);
	ios_buf_puts(b, head);
	for (unsigned i = 0; i < IOS_NR_DEPTH_BUCKETS; i++)
		ios_buf_printf(b, "%s%s=%3.1f%%", i ? ", " : "", labels[i], pct[i]);
	ios_buf_puts(b, "\n");
}

/* Not fio's: what the cgroup v2 controllers held I/O for: time and count per cause. */
static void tx_waits(struct ios_buf *b, const char *lead, const struct ios_waits *w)
{
	ios_buf_puts(b, lead);
	for (int c = 0; c < IOS_WAIT_NR; c++)
		ios_buf_printf(b, " %s=%.3fms/%llu%s", ios_wait_cause_names[c],
			       (double)w->ns[c] / 1e6, (unsigned long long)w->nr[c],
			       c + 1 < IOS_WAIT_NR ? "," : "\n");
}

static void tx_job(struct ios_buf *b, const struct ios_run_result *r,
		   const struct ios_job_result *j, const struct ios_rep_group *g)
{
	static const char *const depth_labels[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch_labels[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	uint64_t rw_ios = ios_rep_total_rw_ios(j), rw_bytes = 0;
	double lat_n[IOS_NR_LAT_N], lat_u[IOS_NR_LAT_U], lat_m[IOS_NR_LAT_M];
	const char *desc = j->job ? j->job->description : NULL;
	const struct ios_dir_result *trim = ios_job_dir(j, IOS_DDIR_TRIM);
	uint64_t lt_ns, lt_win;
	double lt_pct;
	char date[32];

	for (int d = 0; d < IOS_DDIR_NR; d++)
		rw_bytes += ios_job_dir(j, d)->io_bytes;
	/* fio leaves out a job without I/O; one the lab's time limit cut off stays */
	if (!rw_bytes && !rw_ios && !j->cut_short)
		return;

	ios_rep_ctime(r->timestamp, date);
	if (!j->error)
		ios_buf_printf(b, "%s: (groupid=%d, jobs=%u): err=%2d: pid=%u: %s\n",
			       j->name ? j->name : "", j->groupid, j->nr_merged ? j->nr_merged : 1,
			       j->error, j->pid, date);
	else
		ios_buf_printf(b, "%s: (groupid=%d, jobs=%u): err=%2d (%s): pid=%u: %s\n",
			       j->name ? j->name : "", j->groupid, j->nr_merged ? j->nr_merged : 1,
			       abs(j->error), strerror(abs(j->error)), j->pid, date);
	if (desc && *desc)
		ios_buf_printf(b, "  Description  : [%s]\n", desc);

	for (int d = 0; d < IOS_DDIR_NR; d++)
		if (ios_job_dir(j, d)->io_bytes)
			tx_dir(b, j, g, d);

	ios_rep_dist(j->lat_n, IOS_NR_LAT_N, rw_ios, 0.01, lat_n);
	ios_rep_dist(j->lat_u, IOS_NR_LAT_U, rw_ios, 0.01, lat_u);
	ios_rep_dist(j->lat_m, IOS_NR_LAT_M, rw_ios, 0.01, lat_m);
	tx_lat_rows(b, lat_n, IOS_NR_LAT_N, "nsec");
	tx_lat_rows(b, lat_u, IOS_NR_LAT_U, "usec");
	tx_lat_rows(b, lat_m, IOS_NR_LAT_M, "msec");

	if (j->sync_lat.n) {
		ios_buf_puts(b, "  fsync/fdatasync/sync_file_range:\n");
		tx_lat_line(b, "sync", &j->sync_lat);
		tx_percentiles(b, j, &j->sync_lat, "sync");
	}

	/* CPU time is not modelled: 0%, but ctx counts the task's sleeps */
	ios_buf_printf(b, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=0, minf=0\n",
		       0.0, 0.0, (unsigned long long)j->ctx);
	tx_dist_line(b, "  IO depths    : ", depth_labels, j->io_depth, rw_ios);
	tx_dist_line(b, "     submit    : ", batch_labels, j->io_submit,
		     ios_rep_sum(j->io_submit, IOS_NR_BATCH_BUCKETS));
	tx_dist_line(b, "     complete  : ", batch_labels, j->io_complete,
		     ios_rep_sum(j->io_complete, IOS_NR_BATCH_BUCKETS));
	ios_buf_printf(b, "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		       "dropped=%llu,%llu,%llu,0\n",
		       (unsigned long long)j->dir[0].total_ios, (unsigned long long)j->dir[1].total_ios,
		       (unsigned long long)trim->total_ios, (unsigned long long)j->sync_total_ios,
		       (unsigned long long)j->dir[0].short_ios, (unsigned long long)j->dir[1].short_ios,
		       (unsigned long long)trim->short_ios, (unsigned long long)j->dir[0].drop_ios,
		       (unsigned long long)j->dir[1].drop_ios, (unsigned long long)trim->drop_ios);
	if (j->continue_on_error)
		ios_buf_printf(b, "     errors    : total=%llu, first_error=%d/<%s>\n",
			       (unsigned long long)j->total_err, j->first_error,
			       strerror(j->first_error));
	ios_rep_lat_target(j, &lt_ns, &lt_win, &lt_pct);
	ios_buf_printf(b, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
		       (unsigned long long)lt_ns, (unsigned long long)lt_win, lt_pct,
		       ios_rep_iodepth(j));
	if (j->ss)
		tx_ss(b, j);
	if (j->has_waits)
		tx_waits(b, "     held      :", &j->waits);
}

static void tx_group(struct ios_buf *b, int gid, const struct ios_rep_group *g)
{
	ios_buf_printf(b, "\nRun status group %d (all jobs):\n", gid);
	for (int d = 0; d < IOS_DDIR_NR; d++) {
		char io[32], ioalt[32], agg[32], aggalt[32], min[32], minalt[32], max[32], maxalt[32];

		if (!g->max_run[d])
			continue;
		ios_num2str(io, sizeof(io), g->iobytes[d], 4, 1, 1, IOS_N2S_BYTE);
		ios_num2str(ioalt, sizeof(ioalt), g->iobytes[d], 4, 1, 0, IOS_N2S_BYTE);
		ios_num2str(agg, sizeof(agg), g->agg[d], 4, 1, 1, IOS_N2S_BYTEPERSEC);
		ios_num2str(aggalt, sizeof(aggalt), g->agg[d], 4, 1, 0, IOS_N2S_BYTEPERSEC);
		ios_num2str(min, sizeof(min), g->min_bw[d], 4, 1, 1, IOS_N2S_BYTEPERSEC);
		ios_num2str(minalt, sizeof(minalt), g->min_bw[d], 4, 1, 0, IOS_N2S_BYTEPERSEC);
		ios_num2str(max, sizeof(max), g->max_bw[d], 4, 1, 1, IOS_N2S_BYTEPERSEC);
		ios_num2str(maxalt, sizeof(maxalt), g->max_bw[d], 4, 1, 0, IOS_N2S_BYTEPERSEC);
		ios_buf_printf(b, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
			       tx_group_name[d], agg, aggalt, min, max, minalt, maxalt, io, ioalt,
			       (unsigned long long)g->min_run[d], (unsigned long long)g->max_run[d]);
	}
}

/*
 * Not fio's: the workload's cgroups, one line each and a total, the way
 * seed 003's table counts them (I/Os completed by each group's processes),
 * beside what the scheduler charged: blkio.time and its share, then the
 * requests and sectors serviced. Weights under blkio; priority and slice
 * under the 2008 designs.
 */
/*
 * Cgroup writeback (blk-mq): each cgroup's wb, the pages of its inodes
 * written and how many were foreign (charged to another cgroup while the
 * inode stayed its first dirtier's).
 */
static void tx_cgroup_writeback(struct ios_buf *b, const struct ios_run_result *r)
{
	bool any = false;

	for (size_t i = 0; i < r->nr_cgroups; i++)
		any |= r->cgroups[i].has_wb;
	if (!any)
		return;
	ios_buf_printf(b, "  writeback by the dirtier's cgroup (an inode stays its first dirtier's):\n");
	ios_buf_printf(b, "  %-16s %8s %10s %10s %8s\n", "cgroup wb", "inodes", "pages", "foreign",
		       "passes");
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct ios_cgroup_result *cg = &r->cgroups[i];

		if (!cg->has_wb)
			continue;
		ios_buf_printf(b, "  %-16s %8llu %10llu %10llu %8llu\n", *cg->path ? cg->path : "/",
			       (unsigned long long)cg->wb_inodes, (unsigned long long)cg->wb_pages,
			       (unsigned long long)cg->wb_foreign_pages,
			       (unsigned long long)cg->wb_passes);
	}
}

static void tx_cgroups(struct ios_buf *b, const struct ios_run_result *r)
{
	uint64_t tot_ios = 0, tot_time = 0;
	unsigned tot_jobs = 0;
	bool prio = false;

	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct ios_cgroup_result *cg = &r->cgroups[i];

		tot_ios += cg->ios[IOS_DDIR_READ] + cg->ios[IOS_DDIR_WRITE] + cg->ios[IOS_DDIR_TRIM];
		tot_jobs += cg->nr_jobs;
		if (cg->has_sched) {
			tot_time += cg->sched.time_ns;
			prio |= cg->sched.ioprio >= 0;
		}
	}
	ios_buf_printf(b, "\nCgroups (%s, lab.group_policy=%s):\n", r->scheduler, r->group_policy);
	ios_buf_printf(b, "  %-16s %-11s %5s %10s %6s %10s %10s %11s %6s %10s %12s\n", "cgroup",
		       prio ? "prio/slice" : "weight", "jobs", "I/Os", "I/O%", "reads", "writes",
		       "disk time", "time%", "requests", "sectors");
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct ios_cgroup_result *cg = &r->cgroups[i];
		const struct ios_group_stats *st = &cg->sched;
		uint64_t ios = cg->ios[IOS_DDIR_READ] + cg->ios[IOS_DDIR_WRITE] +
			       cg->ios[IOS_DDIR_TRIM];
		uint64_t rq = cg->has_sched ? st->ios[0] + st->ios[1] : cg->blk_ios[0] + cg->blk_ios[1];
		uint64_t sec = cg->has_sched ? st->sectors : cg->blk_sectors[0] + cg->blk_sectors[1];
		char wt[32], tm[32], tp[16];

		if (cg->has_sched && st->ioprio >= 0)
			snprintf(wt, sizeof(wt), "%d/%llums", st->ioprio,
				 (unsigned long long)(st->slice_ns / IOS_NSEC_PER_MSEC));
		else if (cg->has_sched && st->weight)
			snprintf(wt, sizeof(wt), "%u", st->weight);
		else
			snprintf(wt, sizeof(wt), "-");
		if (cg->has_sched) {
			snprintf(tm, sizeof(tm), "%llu ms",
				 (unsigned long long)(st->time_ns / IOS_NSEC_PER_MSEC));
			snprintf(tp, sizeof(tp), "%.1f%%",
				 tot_time ? 100.0 * (double)st->time_ns / (double)tot_time : 0.0);
		} else {
			snprintf(tm, sizeof(tm), "-");
			snprintf(tp, sizeof(tp), "-");
		}
		ios_buf_printf(b, "  %-16s %-11s %5u %10llu %5.1f%% %10llu %10llu %11s %6s %10llu %12llu\n",
			       *cg->path ? cg->path : "/", wt, cg->nr_jobs, (unsigned long long)ios,
			       tot_ios ? 100.0 * (double)ios / (double)tot_ios : 0.0,
			       (unsigned long long)cg->ios[IOS_DDIR_READ],
			       (unsigned long long)cg->ios[IOS_DDIR_WRITE], tm, tp,
			       (unsigned long long)rq, (unsigned long long)sec);
	}
	ios_buf_printf(b, "  %-16s %-11s %5u %10llu\n", "total", "", tot_jobs,
		       (unsigned long long)tot_ios);
	tx_cgroup_writeback(b, r);
}

/* an io.max limit as the file shows it: "max" or the number */
static void tx_max(char *buf, size_t len, uint64_t v, uint64_t max)
{
	if (v == max)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

/*
 * Not fio's: each group of a blk-mq run with cgroup v2 (docs/cgroup-v2.md
 * "Seeing it"): what its jobs did per direction (IOPS and bandwidth over
 * its longest job's runtime, bytes, completion latency of its jobs'
 * merged histograms), what each controller held its bios for, and the
 * settings in effect. Then the queue's writeback throttling, if it ran.
 */
static void tx_cgroups_v2(struct ios_buf *b, const struct ios_run_result *r)
{
	static const double pcts[2] = { 50.0, 99.0 };

	ios_buf_printf(b, "\nCgroup v2 (%s):\n", r->scheduler);
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct ios_cgroup_result *cg = &r->cgroups[i];
		char rb[24], wb[24], ri[24], wi[24], lt[32];
		double secs = (double)cg->runtime_ns / 1e9;

		if (!cg->v2)
			continue;
		ios_buf_printf(b, "  %s: jobs=%u\n", *cg->path ? cg->path : "/", cg->nr_jobs);
		for (int d = 0; d < 2; d++) {
			const struct ios_lat_stat *l = &cg->clat[d];
			uint64_t pv[2] = { 0, 0 };
			char bw[32];

			if (!cg->ios[d])
				continue;
			ios_lat_percentiles(l, pcts, 2, pv);
			ios_num2str(bw, sizeof(bw), secs > 0 ? (uint64_t)((double)cg->io_bytes[d] / secs) : 0,
				    4, 1, 1, IOS_N2S_BYTEPERSEC);
			ios_buf_printf(b, "    %-5s: IOPS=%.1f, BW=%s, bytes=%llu, clat (usec): "
				       "mean=%.2f, p50=%.2f, p99=%.2f\n", d ? "write" : "read",
				       secs > 0 ? (double)cg->ios[d] / secs : 0.0, bw,
				       (unsigned long long)cg->io_bytes[d], l->mean / 1e3,
				       (double)pv[0] / 1e3, (double)pv[1] / 1e3);
		}
		tx_waits(b, "    held :", &cg->waits);
		tx_max(rb, sizeof(rb), cg->v2_bps[0], UINT64_MAX);
		tx_max(wb, sizeof(wb), cg->v2_bps[1], UINT64_MAX);
		tx_max(ri, sizeof(ri), cg->v2_iops[0], UINT32_MAX);
		tx_max(wi, sizeof(wi), cg->v2_iops[1], UINT32_MAX);
		if (cg->v2_lat_target_ns)
			snprintf(lt, sizeof(lt), "%lluus",
				 (unsigned long long)(cg->v2_lat_target_ns / 1000));
		else
			snprintf(lt, sizeof(lt), "max");
		ios_buf_printf(b, "    set  : io.weight=%u, io.max=rbps=%s wbps=%s riops=%s wiops=%s, "
			       "io.latency=%s, io.prio.class=%s\n", cg->v2_weight, rb, wb, ri, wi, lt,
			       cg->v2_prio_policy >= 0 && cg->v2_prio_policy < IOS_PRIO_NR_POLICIES ?
			       ios_prio_policy_names[cg->v2_prio_policy] : "?");
	}
	if (r->has_wbt)
		ios_buf_printf(b, "  wbt (queue): throttled=%llu, wait=%.3fms\n",
			       (unsigned long long)r->qos_waits.nr[IOS_WAIT_WBT],
			       (double)r->qos_waits.ns[IOS_WAIT_WBT] / 1e6);
}

/*
 * Not fio's: io.cost's monitor in brief (docs/cgroup-v2.md "Seeing it"):
 * its periods, vrate's extremes and mean over them, and per group the
 * periods it was active at the end of and its mean hweights and usage
 * there (the JSON lists every period).
 */
static void tx_iocost(struct ios_buf *b, const struct ios_iocost_log *l)
{
	uint64_t n = l->nr_total;

	ios_buf_printf(b, "\nio.cost periods: %llu, vrate min/mean/max=%.2f/%.2f/%.2f%%\n",
		       (unsigned long long)n, n ? l->vrate_min : 0.0,
		       n ? l->vrate_sum / (double)n : 0.0, n ? l->vrate_max : 0.0);
	if (l->stride > 1)
		ios_buf_printf(b, "  (the JSON lists %zu of them, one in %zu: the log is bounded)\n",
			       l->nr, l->stride);
	for (unsigned g = 0; g < l->nr_groups; g++) {
		double k = (double)l->g_periods[g];

		if (!l->g_periods[g])
			continue;
		ios_buf_printf(b, "  %s: active=%llu, hweight active/inuse=%.2f/%.2f%%, usage=%.2f%%, "
			       "debt max=%.2fms, delay max=%.2fms\n", *l->paths[g] ? l->paths[g] : "/",
			       (unsigned long long)l->g_periods[g], l->g_hwa_sum[g] / k,
			       l->g_hwi_sum[g] / k, l->g_usage_sum[g] / k, l->g_debt_max[g],
			       l->g_delay_max[g]);
	}
}

static bool tx_any_disk_time(const struct ios_run_result *r)
{
	if (r->flusher_device_time_ns)
		return true;
	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].device_time_ns || r->jobs[i].disk_time_ns)
			return true;
	return false;
}

static void tx_time_cell(char *buf, size_t n, bool have, uint64_t ns, uint64_t total)
{
	if (!have) {
		snprintf(buf, n, "%10s %6s", "-", "-");
		return;
	}
	snprintf(buf, n, "%7llu ms %5.1f%%", (unsigned long long)(ns / IOS_NSEC_PER_MSEC),
		 total ? 100.0 * (double)ns / (double)total : 0.0);
}

/*
 * Not fio's: who had the disk. "charged" is the scheduler's own account
 * of each process's queue (CFQ's slices with their idling, BFQ's time in
 * service); "device" splits the device's busy time among the requests in
 * it, whatever the scheduler. Shares are of the column's total.
 */
static void tx_disk_time(struct ios_buf *b, const struct ios_run_result *r)
{
	bool ch = r->sched_charges_time;
	uint64_t tot_ch = r->flusher_disk_time_ns, tot_dev = r->flusher_device_time_ns;
	char c1[48], c2[48];

	for (size_t i = 0; i < r->nr_jobs; i++) {
		tot_ch += r->jobs[i].disk_time_ns;
		tot_dev += r->jobs[i].device_time_ns;
	}
	ios_buf_printf(b, "\nDisk time (%s):\n  %-20s %17s %17s\n", r->scheduler, "job",
		       "charged", "device");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *j = &r->jobs[i];

		tx_time_cell(c1, sizeof(c1), ch, j->disk_time_ns, tot_ch);
		tx_time_cell(c2, sizeof(c2), true, j->device_time_ns, tot_dev);
		ios_buf_printf(b, "  %-20.20s %s %s\n", j->name ? j->name : "", c1, c2);
	}
	if (r->flusher_device_time_ns || r->flusher_disk_time_ns) {
		tx_time_cell(c1, sizeof(c1), ch, r->flusher_disk_time_ns, tot_ch);
		tx_time_cell(c2, sizeof(c2), true, r->flusher_device_time_ns, tot_dev);
		ios_buf_printf(b, "  %-20s %s %s\n", "(flusher)", c1, c2);
	}
}

int ios_report_normal(const struct ios_run_result *r, struct ios_buf *out)
{
	struct ios_rep_group *groups;
	int nr_groups, ret;

	ret = ios_rep_groups(r, &groups, &nr_groups);
	if (ret)
		return ret;
	ios_buf_puts(out, "\n");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *j = &r->jobs[i];

		tx_job(out, r, j, j->groupid >= 0 ? &groups[j->groupid] : NULL);
	}
	for (int g = 0; g < nr_groups; g++)
		tx_group(out, g, &groups[g]);
	if (r->nr_disks) {
		ios_buf_puts(out, "\nDisk stats (read/write):\n");
		for (size_t i = 0; i < r->nr_disks; i++) {
			const struct ios_disk_result *dk = &r->disks[i];

			ios_buf_printf(out, "  %.16s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
				       "in_queue=%llu, util=%3.2f%%\n", dk->name,
				       (unsigned long long)dk->ios[0], (unsigned long long)dk->ios[1],
				       (unsigned long long)dk->merges[0],
				       (unsigned long long)dk->merges[1],
				       (unsigned long long)dk->ticks_ms[0],
				       (unsigned long long)dk->ticks_ms[1],
				       (unsigned long long)dk->in_queue_ms, dk->util);
		}
	}
	/* not in fio: what the scheduler counted (its stats table) */
	if (r->nr_sched_stats) {
		ios_buf_printf(out, "\nScheduler stats (%s):\n ", r->scheduler);
		for (size_t i = 0; i < r->nr_sched_stats; i++)
			ios_buf_printf(out, " %s=%lld%s", r->sched_stats[i].name,
				       (long long)r->sched_stats[i].value,
				       i + 1 < r->nr_sched_stats ? "," : "\n");
	}
	if (r->nr_jobs && tx_any_disk_time(r))
		tx_disk_time(out, r);
	if (r->nr_cgroups)
		tx_cgroups(out, r);
	if (r->nr_cgroups && r->cgroups[0].v2)
		tx_cgroups_v2(out, r);
	if (r->iocost)
		tx_iocost(out, r->iocost);
	free(groups);
	return out->oom ? -ENOMEM : 0;
}
