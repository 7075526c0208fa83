/*
 * The fio 1.9 (2006) text report, for comparing runs with the LKML threads
 * of that era, which quote fio 1.9 output (see the CFQ starvation seed).
 *
 * fio 1.9 kept latencies in whole milliseconds and bandwidth in bytes per
 * millisecond (printed as "KiB/s", though it is 1000-based time over
 * 1024-free bytes), and its "dev" column was not a standard deviation:
 * it computed sqrt((sum x^2 - mean^2 / n) / (n - 1)), which is close to the
 * root mean square of the samples. We print the same columns with the same
 * formulas so numbers line up with the old mails. Two differences remain
 * and are deliberate: fio 1.9 truncated every latency sample to ms before
 * averaging (our averages use exact ns, so small latencies show as e.g.
 * 0.70 instead of 0.00), and its bw samples were bytes/ms where ours are
 * KiB/s (converted here by 1.024).
 *
 * fio 1.9 quirks kept on purpose: the group's mint/minb include jobs that
 * did not do that direction (so they read 0 in a mixed group), slat is
 * printed even for sync engines (as zeros), the disk header is always
 * printed, and directions come in the job's own order (writes first for a
 * write job).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/stats.h"
#include "report/report_int.h"

/* fio 1.9's group_run_stats, reads and writes only */
struct f19_group {
	uint64_t max_run[2], min_run[2];
	uint64_t max_bw[2], min_bw[2];	/* bytes per ms */
	uint64_t io_kb[2];
	uint64_t agg[2];
};

/* fio 1.9's "dev": sqrt((sum x^2 - mean^2 / n) / (n - 1)) */
static double f19_dev(uint64_t n, double mean, double m2)
{
	double nn = (double)n, sum_sq = m2 + nn * mean * mean, v;

	if (n < 2)
		return 0.0;
	v = (sum_sq - mean * mean / nn) / (nn - 1.0);
	return v > 0.0 ? sqrt(v) : 0.0;
}

static void f19_lat(struct ios_buf *b, const char *name, const struct ios_lat_stat *s,
		    bool zeros_if_empty)
{
	double mean_ms, m2_ms;

	if (!s->n) {
		if (zeros_if_empty)
			ios_buf_printf(b, "    %s (msec): min=%5lu, max=%5lu, avg=%5.02f, dev=%5.02f\n",
				       name, 0ul, 0ul, 0.0, 0.0);
		return;
	}
	mean_ms = s->mean / 1e6;
	m2_ms = s->m2 / 1e12;
	ios_buf_printf(b, "    %s (msec): min=%5lu, max=%5lu, avg=%5.02f, dev=%5.02f\n", name,
		       (unsigned long)(s->min / 1000000), (unsigned long)(s->max / 1000000),
		       mean_ms, f19_dev(s->n, mean_ms, m2_ms));
}

static void f19_dir(struct ios_buf *b, const struct ios_job_result *j, const struct f19_group *g,
		    int d)
{
	static const char *const name[2] = { "read ", "write" };
	const struct ios_dir_result *dr = &j->dir[d];
	uint64_t runt = ios_runtime_ms(dr->runtime_ns);

	if (!runt)
		return;
	ios_buf_printf(b, "  %s: io=%6lluMiB, bw=%6lluKiB/s, runt=%6lumsec\n", name[d],
		       (unsigned long long)(dr->io_bytes >> 20),
		       (unsigned long long)(dr->io_bytes / runt), (unsigned long)runt);
	f19_lat(b, "slat", &dr->slat, dr->clat.n != 0);
	f19_lat(b, "clat", &dr->clat, false);
	if (dr->bw.n) {
		/* our samples are KiB/s; fio 1.9's were bytes per ms */
		double k = 1.024, mean = dr->bw.mean * k;
		double per = g->agg[d] ? mean * 100 / (double)g->agg[d] : 0.0;

		ios_buf_printf(b, "    bw (KiB/s) : min=%5lu, max=%5lu, per=%3.2f%%, avg=%5.02f, "
			       "dev=%5.02f\n", (unsigned long)(dr->bw.min * k),
			       (unsigned long)(dr->bw.max * k), per, mean,
			       f19_dev(dr->bw.n, mean, dr->bw.m2 * k * k));
	}
}

static int f19_groups(const struct ios_run_result *r, struct f19_group **out, int *nr)
{
	struct f19_group *g;
	int max_gid = -1;

	*out = NULL;
	*nr = 0;
	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].groupid > max_gid)
			max_gid = r->jobs[i].groupid;
	if (max_gid < 0)
		return 0;
	g = calloc((size_t)max_gid + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (int i = 0; i <= max_gid; i++)
		for (int d = 0; d < 2; d++)
			g[i].min_bw[d] = g[i].min_run[d] = UINT64_MAX;
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *j = &r->jobs[i];
		struct f19_group *gr;

		if (j->groupid < 0 || j->error)
			continue;
		gr = &g[j->groupid];
		for (int d = 0; d < 2; d++) {
			uint64_t run = ios_runtime_ms(j->dir[d].runtime_ns);
			uint64_t bw = run ? j->dir[d].io_bytes / run : 0;

			/* fio 1.9 lets a job without this direction pull mint/minb to 0 */
			if (run < gr->min_run[d] || !gr->min_run[d])
				gr->min_run[d] = run;
			if (run > gr->max_run[d])
				gr->max_run[d] = run;
			if (bw < gr->min_bw[d])
				gr->min_bw[d] = bw;
			if (bw > gr->max_bw[d])
				gr->max_bw[d] = bw;
			gr->io_kb[d] += j->dir[d].io_bytes >> 10;
		}
	}
	for (int i = 0; i <= max_gid; i++)
		for (int d = 0; d < 2; d++)
			if (g[i].max_run[d])
				g[i].agg[d] = g[i].io_kb[d] * 1024 / g[i].max_run[d];
	*out = g;
	*nr = max_gid + 1;
	return 0;
}

int ios_report_fio19(const struct ios_run_result *r, struct ios_buf *out)
{
	static const char *const gname[2] = { "   READ", "  WRITE" };
	struct f19_group *groups;
	int nr_groups, ret;

	ret = f19_groups(r, &groups, &nr_groups);
	if (ret)
		return ret;
	ios_buf_puts(out, "\n");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *j = &r->jobs[i];
		const struct f19_group *g;
		int first = 0;

		if (!(j->dir[0].io_bytes + j->dir[1].io_bytes) && !j->error)
			continue;
		ios_buf_printf(out, "%s: (groupid=%d): err=%2d:\n", j->name ? j->name : "",
			       j->groupid, abs(j->error));
		if (j->groupid >= 0) {
			g = &groups[j->groupid];
			if (j->job && (j->job->rw == IOS_RW_WRITE || j->job->rw == IOS_RW_RANDWRITE))
				first = 1;
			f19_dir(out, j, g, first);
			if (j->dir[first ^ 1].io_bytes)
				f19_dir(out, j, g, first ^ 1);
		}
		ios_buf_printf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%lu\n", 0.0, 0.0,
			       (unsigned long)j->ctx);
	}
	for (int i = 0; i < nr_groups; i++) {
		const struct f19_group *g = &groups[i];

		ios_buf_printf(out, "\nRun status group %d (all jobs):\n", i);
		for (int d = 0; d < 2; d++)
			if (g->max_run[d])
				ios_buf_printf(out, "%s: io=%lluMiB, aggrb=%llu, minb=%llu, maxb=%llu, "
					       "mint=%llumsec, maxt=%llumsec\n", gname[d],
					       (unsigned long long)(g->io_kb[d] >> 10),
					       (unsigned long long)g->agg[d],
					       (unsigned long long)g->min_bw[d],
					       (unsigned long long)g->max_bw[d],
					       (unsigned long long)g->min_run[d],
					       (unsigned long long)g->max_run[d]);
	}
	ios_buf_puts(out, "\nDisk stats (read/write):\n");
	for (size_t i = 0; i < r->nr_disks; i++) {
		const struct ios_disk_result *dk = &r->disks[i];
		double util = dk->util > 100.0 ? 100.0 : dk->util;

		ios_buf_printf(out, "  %.16s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
			       "in_queue=%llu, util=%3.2f%%\n", dk->name,
			       (unsigned long long)dk->ios[0], (unsigned long long)dk->ios[1],
			       (unsigned long long)dk->merges[0], (unsigned long long)dk->merges[1],
			       (unsigned long long)dk->ticks_ms[0], (unsigned long long)dk->ticks_ms[1],
			       (unsigned long long)dk->in_queue_ms, util);
	}
	free(groups);
	return out->oom ? -ENOMEM : 0;
}
