/*
 * fio 3.33's terse output (--minimal, --output-format=terse), the lines fio
 * prints before a run, and the choice of output formats.
 *
 * Terse is one ';'-separated line per reported job, meant for scripts that
 * split on ';' and index fields by position, so what matters is the field
 * count and order, never the layout: version, fio version, name, group,
 * error; then per direction (read, write, and trim from version 4 on) the
 * io in KiB, bandwidth, IOPS and runtime, slat, clat (usec), 20 percentile
 * slots, lat, and the bandwidth samples; then CPU, the IO depth and latency
 * distributions, and (version 3 and later) one group of fields per disk.
 * Each number is derived the way fio's show_thread_status_terse_all() and
 * show_ddir_status_terse() derive it, from the same result the normal and
 * JSON writers read, so the three always agree. What the simulator does
 * not measure (CPU time, page faults) is 0, as an idle host would show.
 *
 * The pre-run lines ("name: (g=0): rw=..., bs=(R) ..., ioengine=...,
 * iodepth=N", "fio-3.33", "Starting N processes") are not part of
 * `iosched run`'s normal report, whose committed outputs start with fio's
 * blank line; they come only when the caller asks (struct
 * ios_report_opts.preamble, which the fio-compatible command sets).
 *
 * Several formats at once print in fio's order: pre-run lines (with normal
 * only), terse, JSON (json+ when asked), normal.
 */
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "report/report_int.h"

/* fio's version string: terse fields 2 and the pre-run line */
#define TR_FIO_VERSION "fio-3.33"

/* fio's calc_lat() then "min/1000, max/1000, mean/1000, dev/1000" (usec) */
static void tr_lat(struct ios_buf *b, const struct ios_lat_stat *s)
{
	uint64_t min, max;
	double mean, dev;

	if (ios_rep_lat(s, &min, &max, &mean, &dev))
		ios_buf_printf(b, ";%llu;%llu;%f;%f", (unsigned long long)(min / 1000),
			       (unsigned long long)(max / 1000), mean / 1000, dev / 1000);
	else
		ios_buf_printf(b, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0);
}

/*
 * The histogram fio's terse percentiles come from: lat's with
 * lat_percentiles, else clat's; NULL when the job keeps neither. The choice
 * is the job's, not the direction's, so a direction without I/O still
 * shows the percentile labels (with 0), as fio does.
 */
static const struct ios_lat_stat *tr_pct_stat(const struct ios_job_result *j, int d)
{
	for (int k = 0; k < IOS_DDIR_NR; k++)
		if (ios_job_dir(j, k)->lat.hist)
			return &ios_job_dir(j, d)->lat;
	for (int k = 0; k < IOS_DDIR_NR; k++)
		if (ios_job_dir(j, k)->clat.hist)
			return &ios_job_dir(j, d)->clat;
	return NULL;
}

static void tr_percentiles(struct ios_buf *b, const struct ios_job_result *j, int d)
{
	const struct ios_lat_stat *s = tr_pct_stat(j, d);
	double pcts[IOS_REP_MAX_PCTS];
	uint64_t vals[IOS_REP_MAX_PCTS] = { 0 };
	unsigned prec, n = 0;

	if (s) {
		n = ios_rep_pcts(j, pcts, &prec);
		/* no samples: fio's loop stops at bucket 0, value 0 */
		if (n && s->hist && s->n)
			ios_lat_percentiles(s, pcts, n, vals);
	}
	for (unsigned i = 0; i < IOS_REP_MAX_PCTS; i++) {
		if (i >= n)
			ios_buf_puts(b, ";0%=0");
		else
			ios_buf_printf(b, ";%f%%=%llu", pcts[i], (unsigned long long)(vals[i] / 1000));
	}
}

/* fio's show_ddir_status_terse */
static void tr_dir(struct ios_buf *b, const struct ios_job_result *j,
		   const struct ios_rep_group *g, int d, unsigned ver)
{
	const struct ios_dir_result *dr = ios_job_dir(j, d);
	uint64_t runt = ios_runtime_ms(dr->runtime_ns), bw = 0, iops = 0;

	if (runt) {
		bw = 1000 * dr->io_bytes / runt / 1024;
		iops = 1000 * dr->total_ios / runt;
	}
	ios_buf_printf(b, ";%llu;%llu;%llu;%llu", (unsigned long long)(dr->io_bytes >> 10),
		       (unsigned long long)bw, (unsigned long long)iops, (unsigned long long)runt);
	tr_lat(b, &dr->slat);
	tr_lat(b, &dr->clat);
	tr_percentiles(b, j, d);
	tr_lat(b, &dr->lat);
	if (dr->bw.n) {
		double p = 100.0, mean = dr->bw.mean;
		uint64_t agg_kib = g ? g->agg[d] / 1024 : 0;

		/* unlike the normal line, terse keeps the mean's fraction */
		if (agg_kib) {
			p = mean * 100 / (double)agg_kib;
			if (p > 100.0)
				p = 100.0;
		}
		ios_buf_printf(b, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)dr->bw.min,
			       (unsigned long long)dr->bw.max, p, mean, ios_sample_stddev(&dr->bw));
	} else {
		ios_buf_printf(b, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
	}
	if (ver != 5)
		return;
	ios_buf_printf(b, ";%llu", (unsigned long long)dr->bw.n);
	if (dr->iops.n)
		ios_buf_printf(b, ";%llu;%llu;%f;%f;%llu", (unsigned long long)dr->iops.min,
			       (unsigned long long)dr->iops.max, dr->iops.mean,
			       ios_sample_stddev(&dr->iops), (unsigned long long)dr->iops.n);
	else
		ios_buf_printf(b, ";%llu;%llu;%f;%f;%llu", 0ULL, 0ULL, 0.0, 0.0, 0ULL);
}

/*
 * CPU (not modelled: 0% usr/sys, no faults; ctx is the task's sleeps), IO
 * depths, and the latency rows: fio folds the nanosecond buckets into the
 * first microsecond one so that the terse layout stays as it was before
 * fio measured in ns.
 */
static void tr_dists(struct ios_buf *b, const struct ios_job_result *j)
{
	uint64_t total = ios_rep_total_rw_ios(j);
	double dist[IOS_NR_LAT_M];

	ios_buf_printf(b, ";%f%%;%f%%;%llu;%llu;%llu", 0.0, 0.0, (unsigned long long)j->ctx,
		       0ULL, 0ULL);
	ios_rep_dist(j->io_depth, IOS_NR_DEPTH_BUCKETS, total, 0.1, dist);
	for (unsigned i = 0; i < IOS_NR_DEPTH_BUCKETS; i++)
		ios_buf_printf(b, ";%3.1f%%", dist[i]);
	ios_rep_dist(j->lat_u, IOS_NR_LAT_U, total, 0.01, dist);
	/* fio divides by a zero total here and prints nan; we print 0 */
	if (total)
		dist[0] += 100.0 * (double)ios_rep_sum(j->lat_n, IOS_NR_LAT_N) / (double)total;
	for (unsigned i = 0; i < IOS_NR_LAT_U; i++)
		ios_buf_printf(b, ";%3.2f%%", dist[i]);
	ios_rep_dist(j->lat_m, IOS_NR_LAT_M, total, 0.01, dist);
	for (unsigned i = 0; i < IOS_NR_LAT_M; i++)
		ios_buf_printf(b, ";%3.2f%%", dist[i]);
}

/*
 * fio's print_disk_util(terse), appended to every job's line. fio measures
 * the disks its jobs' files live on, and the null engine has no files: a
 * run of null jobs only has no disk fields (the normal report still shows
 * the idle simulated disk).
 */
static void tr_disks(struct ios_buf *b, const struct ios_run_result *r)
{
	bool files = false;

	for (size_t i = 0; i < r->nr_jobs && !files; i++)
		files = !r->jobs[i].job || r->jobs[i].job->ioengine != IOS_ENGINE_NULL;
	for (size_t i = 0; files && i < r->nr_disks; i++) {
		const struct ios_disk_result *dk = &r->disks[i];

		ios_buf_printf(b, ";%.*s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%",
			       (int)strnlen(dk->name, sizeof(dk->name)), dk->name,
			       (unsigned long long)dk->ios[0], (unsigned long long)dk->ios[1],
			       (unsigned long long)dk->merges[0], (unsigned long long)dk->merges[1],
			       (unsigned long long)dk->ticks_ms[0], (unsigned long long)dk->ticks_ms[1],
			       (unsigned long long)dk->in_queue_ms, dk->util > 100.0 ? 100.0 : dk->util);
	}
}

int ios_report_terse(const struct ios_run_result *r, unsigned ver, struct ios_buf *out)
{
	struct ios_rep_group *groups;
	int nr_groups, ret;

	if (ver < 2 || ver > 5)
		return -EINVAL;
	ret = ios_rep_groups(r, &groups, &nr_groups);
	if (ret)
		return ret;
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *j = &r->jobs[i];
		const struct ios_rep_group *g = j->groupid >= 0 ? &groups[j->groupid] : NULL;
		const char *desc = j->job ? j->job->description : NULL;

		if (ver == 2)
			ios_buf_printf(out, "2;%s;%d;%d", j->name, j->groupid, abs(j->error));
		else
			ios_buf_printf(out, "%u;%s;%s;%d;%d", ver, TR_FIO_VERSION, j->name,
				       j->groupid, abs(j->error));
		tr_dir(out, j, g, IOS_DDIR_READ, ver);
		tr_dir(out, j, g, IOS_DDIR_WRITE, ver);
		if (ver != 3)
			tr_dir(out, j, g, IOS_DDIR_TRIM, ver);
		tr_dists(out, j);
		if (ver >= 3)
			tr_disks(out, r);
		if (j->continue_on_error)
			ios_buf_printf(out, ";%llu;%d", (unsigned long long)j->total_err,
				       j->first_error);
		if (desc && *desc)
			ios_buf_printf(out, "%s;%s", ver == 2 ? "\n" : "", desc);
		ios_buf_puts(out, "\n");
	}
	free(groups);
	return out->oom ? -ENOMEM : 0;
}

/* ---- the lines before a run ---- */

static void tr_bs_pair(struct ios_buf *b, const char *tag, uint64_t lo, uint64_t hi, int pow2)
{
	char x[32], y[32];

	ios_buf_printf(b, "%s %s-%s", tag, ios_num2str(x, sizeof(x), lo, 4, 1, pow2, IOS_N2S_BYTE),
		       ios_num2str(y, sizeof(y), hi, 4, 1, pow2, IOS_N2S_BYTE));
}

/*
 * fio's add_job() line for each job section (a "..." line stands for its
 * numjobs clones), "fio-3.33", and run_threads()' count of what it starts.
 * The group is counted as the runner counts it (stonewall, new_group).
 * Trims have no block size of their own here: they show the write's, which
 * is what fio's bs= inheritance gives when trim's is not written out.
 */
int ios_report_preamble(const struct ios_run_result *r, struct ios_buf *out)
{
	const struct ios_jobfile *jf = r->jobfile;
	unsigned threads = 0, procs = 0;
	int gid = 0;

	for (size_t i = 0; jf && i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		unsigned n = j->numjobs ? j->numjobs : 1;
		int pow2 = j->kb_base != 1000;

		if (i && (j->stonewall || j->new_group))
			gid++;
		ios_buf_printf(out, "%s: (g=%d): rw=%s, ", j->name, gid, ios_rw_name(j->rw));
		tr_bs_pair(out, "bs=(R)", j->bs_min[0], j->bs_max[0], pow2);
		tr_bs_pair(out, ", (W)", j->bs_min[1], j->bs_max[1], pow2);
		tr_bs_pair(out, ", (T)", j->bs_min[1], j->bs_max[1], pow2);
		ios_buf_printf(out, ", ioengine=%s, iodepth=%u\n", ios_ioengine_name(j->ioengine),
			       j->iodepth);
		if (n > 1)
			ios_buf_puts(out, "...\n");
		if (j->thread)
			threads += n;
		else
			procs += n;
	}
	ios_buf_puts(out, TR_FIO_VERSION "\nStarting ");
	if (threads)
		ios_buf_printf(out, "%u thread%s", threads, threads > 1 ? "s" : "");
	if (procs)
		ios_buf_printf(out, "%s%u process%s", threads ? " and " : "", procs,
			       procs > 1 ? "es" : "");
	ios_buf_puts(out, "\n");
	/* setup_files' line as each clone lays its new files out (MiB: bytes >> 20) */
	for (size_t i = 0; jf && i < r->nr_layout; i++) {
		const struct ios_layout_line *l = &r->layout[i];

		if (l->job >= jf->nr_jobs)
			continue;
		if (l->files == 1)
			ios_buf_printf(out, "%s: Laying out IO file (1 file / %" PRIu64 "MiB)\n",
				       jf->jobs[l->job].name, l->bytes >> 20);
		else
			ios_buf_printf(out, "%s: Laying out IO files (%u files / total %" PRIu64
				       "MiB)\n", jf->jobs[l->job].name, l->files, l->bytes >> 20);
	}
	return out->oom ? -ENOMEM : 0;
}

/* ---- formats ---- */

int ios_report_parse_formats(const char *s, unsigned *mask)
{
	static const struct {
		const char *name;
		unsigned bits;
	} names[] = {
		{ "normal", IOS_OUT_NORMAL },
		{ "terse", IOS_OUT_TERSE },
		{ "json", IOS_OUT_JSON },
		{ "json+", IOS_OUT_JSON | IOS_OUT_JSON_PLUS },
	};
	unsigned m = 0;

	while (s && *s) {
		size_t len = strcspn(s, ","), k;

		for (k = 0; k < IOS_ARRAY_SIZE(names); k++)
			if (strlen(names[k].name) == len && !strncmp(s, names[k].name, len))
				break;
		if (k == IOS_ARRAY_SIZE(names))
			return -EINVAL;
		m |= names[k].bits;
		s += len;
		if (*s == ',' && !*++s)
			return -EINVAL;	/* a trailing comma names nothing */
	}
	if (!m)
		return -EINVAL;
	*mask = m;
	return 0;
}

int ios_report(const struct ios_run_result *r, const struct ios_report_opts *o,
	       struct ios_buf *out)
{
	unsigned f = o->formats;
	int ret = 0;

	if (!f)
		return -EINVAL;
	if ((f & IOS_OUT_NORMAL) && o->preamble)
		ret = ios_report_preamble(r, out);
	if (!ret && (f & IOS_OUT_TERSE))
		ret = ios_report_terse(r, o->terse_version ? o->terse_version : 3, out);
	if (!ret && (f & (IOS_OUT_JSON_PLUS | IOS_OUT_JSON)))
		ret = ios_rep_json_notes(r, f & IOS_OUT_JSON_PLUS, o->notes, o->nr_notes, out);
	if (!ret && (f & IOS_OUT_NORMAL))
		ret = ios_report_normal(r, out);
	/* the lab's notes last, each on its line, in the words stderr had */
	for (size_t i = 0; !ret && (f & IOS_OUT_NORMAL) && i < o->nr_notes; i++) {
		if (!i)
			ios_buf_puts(out, "\n");
		ios_buf_printf(out, "iosched: note: %s\n", o->notes[i]);
		ret = out->oom ? -ENOMEM : 0;
	}
	return ret;
}
