/*
 * fio 3.33's --output-format=json report, key for key.
 *
 * Scripts written against fio's JSON (fio-plot, ad-hoc Python) must run
 * unchanged on ours, so every object carries exactly fio 3.33's keys, in
 * fio's order, with fio's types: integers print as integers, floats with
 * six decimals ("%f", as fio's json.c does), and the layout (two-space
 * indent, " : " between key and value) is fio's too, which keeps diffs
 * against real fio output readable. Values that fio measures on the host
 * and that the simulator does not model (CPU usage, page faults) are 0.
 *
 * "fio version" is fio's "fio-3.33", as in terse, since scripts compare it;
 * a top-level "iosched" object (the last key) records what fio has no place
 * for: iosched's own version, scheduler, device, seed, simulated end time,
 * event count, and under `iosched fio` the lab's notes. Extra
 * keys appear only at the top level, where fio's readers ignore them.
 *
 * The writer streams text directly instead of building a tree: a small
 * emitter tracks nesting depth and whether a separator is due. Strings are
 * escaped properly (fio only escapes quotes and backslashes).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/blkcg.h"
#include "iosched/ios.h"
#include "report/report_int.h"

#define JS_MAX_DEPTH 16

struct js {
	struct ios_buf *b;
	bool plus;		/* json+: histograms' bins too */
	unsigned depth;
	bool first[JS_MAX_DEPTH];
};

static void js_indent(struct js *w, unsigned level)
{
	while (level--)
		ios_buf_puts(w->b, "  ");
}

static void js_string(struct js *w, const char *s)
{
	char tmp[8];

	ios_buf_puts(w->b, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			ios_buf_puts(w->b, "\\\"");
			break;
		case '\\':
			ios_buf_puts(w->b, "\\\\");
			break;
		case '\n':
			ios_buf_puts(w->b, "\\n");
			break;
		case '\t':
			ios_buf_puts(w->b, "\\t");
			break;
		case '\r':
			ios_buf_puts(w->b, "\\r");
			break;
		default:
			if (c < 0x20) {
				snprintf(tmp, sizeof(tmp), "\\u%04x", c);
				ios_buf_puts(w->b, tmp);
			} else {
				tmp[0] = (char)c;
				tmp[1] = '\0';
				ios_buf_puts(w->b, tmp);
			}
		}
	}
	ios_buf_puts(w->b, "\"");
}

/* separator, indent and key of the next member (@key NULL in arrays) */
static void js_member(struct js *w, const char *key)
{
	if (!w->depth)
		return;
	if (!w->first[w->depth])
		ios_buf_puts(w->b, ",\n");
	w->first[w->depth] = false;
	js_indent(w, w->depth);
	if (key) {
		js_string(w, key);
		ios_buf_puts(w->b, " : ");
	}
}

static void js_open(struct js *w, const char *key, char c)
{
	js_member(w, key);
	ios_buf_printf(w->b, "%c\n", c);
	IOS_BUG_ON(w->depth + 1 >= JS_MAX_DEPTH);
	w->first[++w->depth] = true;
}

static void js_close(struct js *w, char c)
{
	ios_buf_puts(w->b, "\n");
	w->depth--;
	js_indent(w, w->depth);
	ios_buf_printf(w->b, "%c", c);
}

static void js_u64(struct js *w, const char *key, uint64_t v)
{
	js_member(w, key);
	ios_buf_printf(w->b, "%llu", (unsigned long long)v);
}

static void js_int(struct js *w, const char *key, long long v)
{
	js_member(w, key);
	ios_buf_printf(w->b, "%lld", v);
}

static void js_float(struct js *w, const char *key, double v)
{
	js_member(w, key);
	ios_buf_printf(w->b, "%f", isfinite(v) ? v : 0.0);
}

static void js_str(struct js *w, const char *key, const char *v)
{
	js_member(w, key);
	js_string(w, v ? v : "");
}

/* fio prints only options that were given a value; bare flags are left out */
static size_t js_nr_valued(const struct ios_kv *kv, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (kv[i].key && kv[i].value && *kv[i].value)
			k++;
	return k;
}

static void js_options(struct js *w, const char *key, const struct ios_kv *kv, size_t n)
{
	if (!js_nr_valued(kv, n))
		return;
	js_open(w, key, '{');
	for (size_t i = 0; i < n; i++)
		if (kv[i].key && kv[i].value && *kv[i].value)
			js_str(w, kv[i].key, kv[i].value);
	js_close(w, '}');
}

/*
 * json+: every non-empty histogram bucket, keyed by the latency fio's
 * plat_idx_to_val() gives it (the bucket's midpoint, exact below 128 ns),
 * so readers such as fio_jsonplus_clat2csv rebuild the distribution.
 */
static void js_bins(struct js *w, const struct ios_lat_stat *s)
{
	js_open(w, "bins", '{');
	for (unsigned i = ios_lat_next_bucket(s, 0); i < IOS_PLAT_NR;
	     i = ios_lat_next_bucket(s, i + 1)) {
		char name[32];

		snprintf(name, sizeof(name), "%llu", (unsigned long long)ios_plat_idx_to_val(i));
		js_u64(w, name, ios_lat_bucket(s, i));
	}
	js_close(w, '}');
}

/* fio's add_ddir_lat_json */
/*
 * A latency object as fio's add_ddir_lat_json() (stat.c) writes it; the
 * percentiles when @pct and the stat has a histogram with samples.
 */
static void js_lat(struct js *w, const char *key, const struct ios_job_result *j,
		   const struct ios_lat_stat *s, bool pct)
{
	uint64_t min = 0, max = 0;
	double mean = 0.0, dev = 0.0;

	ios_rep_lat(s, &min, &max, &mean, &dev);
	js_open(w, key, '{');
	js_u64(w, "min", min);
	js_u64(w, "max", max);
	js_float(w, "mean", mean);
	js_float(w, "stddev", dev);
	js_u64(w, "N", s->n);
	if (pct && s->hist && s->n) {
		double pcts[IOS_REP_MAX_PCTS];
		uint64_t vals[IOS_REP_MAX_PCTS];
		unsigned prec, n = ios_rep_pcts(j, pcts, &prec);

		if (n) {
			ios_lat_percentiles(s, pcts, n, vals);
			js_open(w, "percentile", '{');
			for (unsigned i = 0; i < n; i++) {
				char name[64];

				snprintf(name, sizeof(name), "%f", pcts[i]);
				js_u64(w, name, vals[i]);
			}
			js_close(w, '}');
		}
		if (w->plus)
			js_bins(w, s);
	}
	js_close(w, '}');
}

static void js_dir(struct js *w, const char *key, const struct ios_job_result *j,
		   const struct ios_rep_group *g, int d)
{
	const struct ios_dir_result *dr = ios_job_dir(j, d);
	uint64_t runt = ios_runtime_ms(dr->runtime_ns), bw_bytes = 0;
	double iops = 0.0;

	if (runt) {
		bw_bytes = 1000 * dr->io_bytes / runt;
		iops = 1000.0 * (double)dr->total_ios / (double)runt;
	}
	js_open(w, key, '{');
	js_u64(w, "io_bytes", dr->io_bytes);
	js_u64(w, "io_kbytes", dr->io_bytes >> 10);
	js_u64(w, "bw_bytes", bw_bytes);
	js_u64(w, "bw", bw_bytes / 1024);
	js_float(w, "iops", iops);
	js_u64(w, "runtime", runt);
	js_u64(w, "total_ios", dr->total_ios);
	js_u64(w, "short_ios", dr->short_ios);
	js_u64(w, "drop_ios", dr->drop_ios);
	js_lat(w, "slat_ns", j, &dr->slat, true);
	js_lat(w, "clat_ns", j, &dr->clat, true);
	js_lat(w, "lat_ns", j, &dr->lat, true);
	if (dr->bw.n) {
		js_u64(w, "bw_min", (uint64_t)dr->bw.min);
		js_u64(w, "bw_max", (uint64_t)dr->bw.max);
		js_float(w, "bw_agg", ios_rep_bw_share(g, d, dr->bw.mean));
		js_float(w, "bw_mean", dr->bw.mean);
		js_float(w, "bw_dev", ios_sample_stddev(&dr->bw));
	} else {
		js_u64(w, "bw_min", 0);
		js_u64(w, "bw_max", 0);
		js_float(w, "bw_agg", 0.0);
		js_float(w, "bw_mean", 0.0);
		js_float(w, "bw_dev", 0.0);
	}
	js_u64(w, "bw_samples", dr->bw.n);
	js_u64(w, "iops_min", dr->iops.n ? (uint64_t)dr->iops.min : 0);
	js_u64(w, "iops_max", dr->iops.n ? (uint64_t)dr->iops.max : 0);
	js_float(w, "iops_mean", dr->iops.n ? dr->iops.mean : 0.0);
	js_float(w, "iops_stddev", ios_sample_stddev(&dr->iops));
	js_u64(w, "iops_samples", dr->iops.n);
	js_close(w, '}');
}

/*
 * fio's "steadystate" object: the criterion as a string with the limit and
 * the criterion printed as floats, and the window from its oldest sample
 * (when the window is full and not attained, fio's head is one past it).
 */
static void js_ss(struct js *w, const struct ios_ss_result *ss)
{
	char buf[96];
	unsigned k0 = ss->head;

	js_open(w, "steadystate", '{');
	snprintf(buf, sizeof(buf), "%s%s:%f%s", (ss->state & IOS_SS_IOPS) ? "iops" : "bw",
		 (ss->state & IOS_SS_SLOPE) ? "_slope" : "", (double)(float)ss->limit,
		 (ss->state & IOS_SS_PCT) ? "%" : "");
	js_str(w, "ss", buf);
	js_int(w, "duration", (int)ss->dur);
	js_int(w, "attained", (ss->state & IOS_SS_ATTAINED) != 0);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)ss->criterion,
		 (ss->state & IOS_SS_PCT) ? "%" : "");
	js_str(w, "criterion", buf);
	js_float(w, "max_deviation", ss->deviation);
	js_float(w, "slope", ss->slope);
	js_open(w, "data", '{');
	js_u64(w, "bw_mean", ios_rep_ss_mean(ss->bw, ss->dur));
	js_u64(w, "iops_mean", ios_rep_ss_mean(ss->iops, ss->dur));
	if (!(ss->state & IOS_SS_ATTAINED) && (ss->state & IOS_SS_BUFFER_FULL))
		k0 = ss->head ? ss->head - 1 : ss->dur - 1;
	js_open(w, "iops", '[');
	for (unsigned l = 0; l < ss->dur; l++)
		js_u64(w, NULL, ss->iops[(k0 + l) % ss->dur]);
	js_close(w, ']');
	js_open(w, "bw", '[');
	for (unsigned l = 0; l < ss->dur; l++)
		js_u64(w, NULL, ss->bw[(k0 + l) % ss->dur]);
	js_close(w, ']');
	js_close(w, '}');
	js_close(w, '}');
}

static void js_pct_object(struct js *w, const char *key, const char *const *names,
			  const uint64_t *map, unsigned nr, uint64_t total, double floor_pct)
{
	double pct[IOS_NR_LAT_M];

	ios_rep_dist(map, nr, total, floor_pct, pct);
	js_open(w, key, '{');
	for (unsigned i = 0; i < nr; i++)
		js_float(w, names[i], pct[i]);
	js_close(w, '}');
}

/* what the cgroup v2 controllers held I/O for: per cause, {time_ns, count} */
static void js_waits(struct js *w, const char *key, const struct ios_waits *ws)
{
	js_open(w, key, '{');
	for (int c = 0; c < IOS_WAIT_NR; c++) {
		js_open(w, ios_wait_cause_keys[c], '{');
		js_u64(w, "time_ns", ws->ns[c]);
		js_u64(w, "count", ws->nr[c]);
		js_close(w, '}');
	}
	js_close(w, '}');
}

/*
 * A blk-mq run's cgroup v2 groups (docs/cgroup-v2.md "Seeing it"): per
 * direction IOPS, bandwidth (bytes/s over the group's longest job
 * runtime), bytes and completion latency of the merged histograms; the
 * waits; the settings in effect (io.max limits: -1 for max). Then the
 * queue's totals and its writeback throttling if it ran.
 */
static void js_cgroups_v2(struct js *w, const struct ios_run_result *r)
{
	static const double pcts[2] = { 50.0, 99.0 };
	static const char *const dn[2] = { "read", "write" };

	js_open(w, "cgroup_v2", '{');
	js_open(w, "groups", '[');
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct ios_cgroup_result *cg = &r->cgroups[i];
		double secs = (double)cg->runtime_ns / 1e9;

		if (!cg->v2)
			continue;
		js_open(w, NULL, '{');
		js_str(w, "path", *cg->path ? cg->path : "/");
		js_u64(w, "jobs", cg->nr_jobs);
		js_u64(w, "runtime_ns", cg->runtime_ns);
		for (int d = 0; d < 2; d++) {
			uint64_t pv[2] = { 0, 0 };

			ios_lat_percentiles(&cg->clat[d], pcts, 2, pv);
			js_open(w, dn[d], '{');
			js_u64(w, "ios", cg->ios[d]);
			js_u64(w, "bytes", cg->io_bytes[d]);
			js_float(w, "iops", secs > 0 ? (double)cg->ios[d] / secs : 0.0);
			js_u64(w, "bw_bytes", secs > 0 ? (uint64_t)((double)cg->io_bytes[d] / secs) : 0);
			js_float(w, "clat_mean_ns", cg->clat[d].mean);
			js_u64(w, "clat_p50_ns", pv[0]);
			js_u64(w, "clat_p99_ns", pv[1]);
			js_close(w, '}');
		}
		js_waits(w, "waits", &cg->waits);
		js_open(w, "settings", '{');
		js_u64(w, "io_weight", cg->v2_weight);
		js_int(w, "rbps", cg->v2_bps[0] == UINT64_MAX ? -1 : (long long)cg->v2_bps[0]);
		js_int(w, "wbps", cg->v2_bps[1] == UINT64_MAX ? -1 : (long long)cg->v2_bps[1]);
		js_int(w, "riops", cg->v2_iops[0] == UINT32_MAX ? -1 : (long long)cg->v2_iops[0]);
		js_int(w, "wiops", cg->v2_iops[1] == UINT32_MAX ? -1 : (long long)cg->v2_iops[1]);
		js_u64(w, "latency_target_us", cg->v2_lat_target_ns / 1000);
		js_str(w, "prio_class", cg->v2_prio_policy >= 0 &&
		       cg->v2_prio_policy < IOS_PRIO_NR_POLICIES ?
		       ios_prio_policy_names[cg->v2_prio_policy] : "?");
		js_close(w, '}');
		if (cg->v2_lat_nr_depths) {
			/* io.latency's depth changes (ios_iolat_depths); -1: unlimited again */
			js_open(w, "latency_depths", '[');
			for (unsigned k = 0; k < cg->v2_lat_nr_depths; k++) {
				js_open(w, NULL, '{');
				js_u64(w, "at_ns", cg->v2_lat_depth_at_ns[k]);
				js_int(w, "depth", cg->v2_lat_depth[k] == UINT_MAX ? -1 :
				       (long long)cg->v2_lat_depth[k]);
				js_close(w, '}');
			}
			js_close(w, ']');
		}
		js_close(w, '}');
	}
	js_close(w, ']');
	js_waits(w, "queue_waits", &r->qos_waits);
	if (r->has_wbt) {
		js_open(w, "wbt", '{');
		js_u64(w, "throttled", r->qos_waits.nr[IOS_WAIT_WBT]);
		js_u64(w, "wait_ns", r->qos_waits.ns[IOS_WAIT_WBT]);
		js_close(w, '}');
	}
	js_close(w, '}');
}

/*
 * ext4's journal over the run (src/fs/jbd2.c, after 6.12's
 * jbd2_journal_commit_transaction): what a dsync or fsync writer's commits
 * cost, so per-write costs come from the report rather than a reader's
 * guess. commit_blocks carry PREFLUSH|FUA when lab.barrier=1.
 */
static void js_jbd2(struct js *w, const struct ios_jbd2_stats *j)
{
	js_open(w, "jbd2", '{');
	js_u64(w, "commits", j->commits);
	js_u64(w, "commits_timer", j->commits_timer);
	js_u64(w, "commits_sync", j->commits_sync);
	js_u64(w, "commits_full", j->commits_full);
	js_u64(w, "log_blocks", j->log_blocks);
	js_u64(w, "desc_blocks", j->desc_blocks);
	js_u64(w, "commit_blocks", j->commit_blocks);
	js_u64(w, "conversions", j->conversions);
	js_u64(w, "ordered_pages", j->ordered_pages);
	js_close(w, '}');
}

/*
 * io.cost's monitor (docs/cgroup-v2.md "Seeing it"): per period of
 * ioc_timer_fn what tools/cgroup/iocost_monitor.py shows, under its
 * names; per group only while on the active list. The summary covers every
 * period; "periods" keeps one in "stride" (1 unless the run outgrew the
 * log's bound, and then "note" says so).
 */
static void js_iocost(struct js *w, const struct ios_iocost_log *l)
{
	uint64_t n = l->nr_total;

	js_open(w, "iocost", '{');
	js_u64(w, "periods_total", n);
	js_u64(w, "periods_kept", l->nr);
	js_u64(w, "stride", l->stride);
	if (l->stride > 1)
		js_str(w, "note", "the run had more periods than the log keeps: one period in "
		       "'stride' is listed; the summary covers them all");
	js_float(w, "vrate_pct_min", n ? l->vrate_min : 0.0);
	js_float(w, "vrate_pct_mean", n ? l->vrate_sum / (double)n : 0.0);
	js_float(w, "vrate_pct_max", n ? l->vrate_max : 0.0);
	js_open(w, "groups", '[');
	for (unsigned g = 0; g < l->nr_groups; g++) {
		double k = (double)l->g_periods[g];

		if (!l->g_periods[g])
			continue;
		js_open(w, NULL, '{');
		js_str(w, "cgroup", *l->paths[g] ? l->paths[g] : "/");
		js_u64(w, "periods_active", l->g_periods[g]);
		js_float(w, "hweight_active_pct_mean", l->g_hwa_sum[g] / k);
		js_float(w, "hweight_inuse_pct_mean", l->g_hwi_sum[g] / k);
		js_float(w, "usage_pct_mean", l->g_usage_sum[g] / k);
		js_float(w, "debt_ms_max", l->g_debt_max[g]);
		js_float(w, "delay_ms_max", l->g_delay_max[g]);
		js_close(w, '}');
	}
	js_close(w, ']');
	js_open(w, "periods", '[');
	for (size_t i = 0; i < l->nr; i++) {
		const struct ios_iocost_period *p = &l->periods[i];
		const struct ios_iocost_sample *row = &l->samples[i * (l->nr_groups ? l->nr_groups : 1)];

		js_open(w, NULL, '{');
		js_u64(w, "period", p->seq);
		js_u64(w, "time_ns", p->t_ns);
		js_float(w, "period_ms", p->period_ms);
		js_int(w, "busy_level", p->busy_level);
		js_float(w, "vrate_pct", p->vrate_pct);
		js_open(w, "groups", '[');
		for (unsigned g = 0; g < l->nr_groups; g++) {
			const struct ios_iocost_sample *sm = &row[g];

			if (!sm->active)
				continue;
			js_open(w, NULL, '{');
			js_str(w, "cgroup", *l->paths[g] ? l->paths[g] : "/");
			js_float(w, "hweight_active_pct", sm->hweight_active_pct);
			js_float(w, "hweight_inuse_pct", sm->hweight_inuse_pct);
			js_float(w, "inflight_pct", sm->inflight_pct);
			js_float(w, "debt_ms", sm->debt_ms);
			js_int(w, "use_delay", sm->use_delay);
			js_float(w, "delay_ms", sm->delay_ms);
			js_float(w, "usage_pct", sm->usage_pct);
			js_close(w, '}');
		}
		js_close(w, ']');
		js_close(w, '}');
	}
	js_close(w, ']');
	js_close(w, '}');
}

static void js_job(struct js *w, const struct ios_run_result *r, const struct ios_job_result *j,
		   const struct ios_rep_group *g)
{
	static const char *const depth_keys[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const batch_keys[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	static const char *const lat_keys[] = { "2", "4", "10", "20", "50", "100", "250",
						"500", "750", "1000", "2000", ">=2000" };
	uint64_t rw_ios = ios_rep_total_rw_ios(j), lt_ns, lt_win;
	const char *desc = j->job ? j->job->description : NULL;
	double lt_pct;

	js_open(w, NULL, '{');
	js_str(w, "jobname", j->name);
	js_int(w, "groupid", j->groupid);
	js_int(w, "error", abs(j->error));
	/* fio's eta once every job has finished */
	js_int(w, "eta", 2147483647);
	js_u64(w, "elapsed", (r->sim_end_ns / 1000000 + 999) / 1000);
	if (j->job)
		js_options(w, "job options", j->job->opts, j->job->nr_opts);
	js_dir(w, "read", j, g, IOS_DDIR_READ);
	js_dir(w, "write", j, g, IOS_DDIR_WRITE);
	js_dir(w, "trim", j, g, IOS_DDIR_TRIM);
	js_open(w, "sync", '{');
	js_u64(w, "total_ios", j->sync_total_ios);
	/*
	 * fio 3.33's sync object (add_ddir_stats_json() for DDIR_SYNC): its
	 * percentiles with clat_percentiles or lat_percentiles, where the
	 * text prints them always. total_ios counts fsyncs and fdatasyncs
	 * alike (fio 3.33 counts an fdatasync one slot past its sync count,
	 * so its JSON says 0 for an fdatasync job: iosched does not copy that).
	 */
	js_lat(w, "lat_ns", j, &j->sync_lat,
	       !j->job || j->job->clat_percentiles || j->job->lat_percentiles);
	js_close(w, '}');
	js_u64(w, "job_runtime", j->runtime_ns / 1000000);
	js_float(w, "usr_cpu", 0.0);
	js_float(w, "sys_cpu", 0.0);
	js_u64(w, "ctx", j->ctx);
	js_u64(w, "majf", 0);
	js_u64(w, "minf", 0);
	js_pct_object(w, "iodepth_level", depth_keys, j->io_depth, IOS_NR_DEPTH_BUCKETS, rw_ios,
		      0.1);
	js_pct_object(w, "iodepth_submit", batch_keys, j->io_submit, IOS_NR_BATCH_BUCKETS,
		      ios_rep_sum(j->io_submit, IOS_NR_BATCH_BUCKETS), 0.1);
	js_pct_object(w, "iodepth_complete", batch_keys, j->io_complete, IOS_NR_BATCH_BUCKETS,
		      ios_rep_sum(j->io_complete, IOS_NR_BATCH_BUCKETS), 0.1);
	js_pct_object(w, "latency_ns", lat_keys, j->lat_n, IOS_NR_LAT_N, rw_ios, 0.01);
	js_pct_object(w, "latency_us", lat_keys, j->lat_u, IOS_NR_LAT_U, rw_ios, 0.01);
	js_pct_object(w, "latency_ms", lat_keys, j->lat_m, IOS_NR_LAT_M, rw_ios, 0.01);
	if (j->continue_on_error) {
		js_u64(w, "total_err", j->total_err);
		js_int(w, "first_error", j->first_error);
	}
	ios_rep_lat_target(j, &lt_ns, &lt_win, &lt_pct);
	js_u64(w, "latency_depth", ios_rep_iodepth(j));
	js_u64(w, "latency_target", lt_ns);
	js_float(w, "latency_percentile", lt_pct);
	js_u64(w, "latency_window", lt_win);
	if (desc && *desc)
		js_str(w, "desc", desc);
	if (j->ss)
		js_ss(w, j->ss);
	/* not fio's: a cgroup v2 run's waits for this job (absent otherwise) */
	if (j->has_waits) {
		js_open(w, "iosched", '{');
		js_waits(w, "waits", &j->waits);
		js_close(w, '}');
	}
	js_close(w, '}');
}

/*
 * The workload's cgroups (not fio's: under "iosched"). blkio holds what the
 * scheduler charged (the cgroup files' names), or only the block layer's
 * request counts when the scheduler has no groups.
 */
static void js_cgroups(struct js *w, const struct ios_run_result *r)
{
	js_str(w, "group_policy", r->group_policy);
	js_open(w, "cgroups", '[');
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		const struct ios_cgroup_result *cg = &r->cgroups[i];
		const struct ios_group_stats *s = &cg->sched;

		js_open(w, NULL, '{');
		js_str(w, "path", *cg->path ? cg->path : "/");
		js_u64(w, "jobs", cg->nr_jobs);
		if (cg->has_sched && s->weight)
			js_u64(w, "weight", s->weight);
		if (cg->has_sched && s->ioprio >= 0) {
			js_int(w, "ioprio", s->ioprio);
			js_float(w, "slice_ms", (double)s->slice_ns / 1e6);
		}
		js_u64(w, "total_ios", cg->ios[IOS_DDIR_READ] + cg->ios[IOS_DDIR_WRITE] +
				       cg->ios[IOS_DDIR_TRIM]);
		js_u64(w, "read_ios", cg->ios[IOS_DDIR_READ]);
		js_u64(w, "write_ios", cg->ios[IOS_DDIR_WRITE]);
		js_u64(w, "read_bytes", cg->io_bytes[IOS_DDIR_READ]);
		js_u64(w, "write_bytes", cg->io_bytes[IOS_DDIR_WRITE]);
		js_open(w, "blkio", '{');
		if (cg->has_sched) {
			js_u64(w, "time_ms", s->time_ns / IOS_NSEC_PER_MSEC);
			js_u64(w, "sectors", s->sectors);
			js_u64(w, "io_serviced_read", s->ios[0]);
			js_u64(w, "io_serviced_write", s->ios[1]);
		} else {
			js_u64(w, "sectors", cg->blk_sectors[0] + cg->blk_sectors[1]);
			js_u64(w, "io_serviced_read", cg->blk_ios[0]);
			js_u64(w, "io_serviced_write", cg->blk_ios[1]);
		}
		js_close(w, '}');
		if (cg->has_wb) {
			/* cgroup writeback: its wb (wbc_account_cgroup_owner's foreign pages) */
			js_open(w, "writeback", '{');
			js_u64(w, "inodes", cg->wb_inodes);
			js_u64(w, "pages_written", cg->wb_pages);
			js_u64(w, "foreign_pages", cg->wb_foreign_pages);
			js_u64(w, "passes", cg->wb_passes);
			js_close(w, '}');
		}
		js_close(w, '}');
	}
	js_close(w, ']');
}

static size_t nr_cut(const struct ios_run_result *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_jobs; i++)
		n += r->jobs[i].cut_short;
	return n;
}

/*
 * Not fio's: a blk-mq run's queue (Linux 6.12 names): nr_hw_queues,
 * driver tags per hardware context (the device's queue depth),
 * queue/nr_requests, each CPU's hardware context (blk_mq_map_queues), and
 * what each hardware context issued. Absent on the single-queue layer, so
 * those reports keep their bytes.
 */
static void js_mq(struct js *w, const struct ios_mq_result *m)
{
	js_open(w, "blk_mq", '{');
	js_u64(w, "nr_hw_queues", m->nr_hw_queues);
	js_u64(w, "nr_cpus", m->nr_cpus);
	js_u64(w, "hw_queue_depth", m->hw_queue_depth);
	js_u64(w, "nr_requests", m->nr_requests);
	js_str(w, "elevator", m->elevator ? "yes" : "none");
	js_open(w, "cpu_to_hctx", '[');
	for (unsigned i = 0; i < m->nr_cpus; i++)
		js_u64(w, NULL, m->cpu_hctx[i]);
	js_close(w, ']');
	js_open(w, "hctx_dispatched", '[');
	for (unsigned i = 0; i < m->nr_hw_queues; i++)
		js_u64(w, NULL, m->hctx_dispatched[i]);
	js_close(w, ']');
	js_u64(w, "direct_issues", m->direct_issues);
	js_u64(w, "requeues", m->requeues);
	js_u64(w, "busy", m->busy);
	js_close(w, '}');
}

static int js_report(const struct ios_run_result *r, bool plus, const char *const *notes,
		     size_t nr_notes, struct ios_buf *out)
{
	struct js w = { .b = out, .plus = plus };
	struct ios_rep_group *groups;
	int nr_groups, ret;
	char date[32];

	ret = ios_rep_groups(r, &groups, &nr_groups);
	if (ret)
		return ret;
	ios_rep_ctime(r->timestamp, date);

	js_open(&w, NULL, '{');
	/* fio's own string, as terse has it: scripts compare it (iosched's is below) */
	js_str(&w, "fio version", "fio-3.33");
	js_u64(&w, "timestamp", r->timestamp);
	js_u64(&w, "timestamp_ms", r->timestamp * 1000);
	js_str(&w, "time", date);
	if (r->jobfile)
		js_options(&w, "global options", r->jobfile->global_opts,
			   r->jobfile->nr_global_opts);
	js_open(&w, "jobs", '[');
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *j = &r->jobs[i];

		js_job(&w, r, j, j->groupid >= 0 ? &groups[j->groupid] : NULL);
	}
	js_close(&w, ']');
	if (r->nr_disks) {
		js_open(&w, "disk_util", '[');
		for (size_t i = 0; i < r->nr_disks; i++) {
			const struct ios_disk_result *dk = &r->disks[i];
			char name[sizeof(dk->name) + 1];

			memcpy(name, dk->name, sizeof(dk->name));
			name[sizeof(dk->name)] = '\0';
			js_open(&w, NULL, '{');
			js_str(&w, "name", name);
			js_u64(&w, "read_ios", dk->ios[0]);
			js_u64(&w, "write_ios", dk->ios[1]);
			js_u64(&w, "read_merges", dk->merges[0]);
			js_u64(&w, "write_merges", dk->merges[1]);
			js_u64(&w, "read_ticks", dk->ticks_ms[0]);
			js_u64(&w, "write_ticks", dk->ticks_ms[1]);
			js_u64(&w, "in_queue", dk->in_queue_ms);
			js_float(&w, "util", dk->util);
			js_close(&w, '}');
		}
		js_close(&w, ']');
	}
	js_open(&w, "iosched", '{');
	js_str(&w, "version", IOS_VERSION_STRING);
	js_str(&w, "scheduler", r->scheduler);
	js_str(&w, "device", r->device);
	js_u64(&w, "seed", r->seed);
	js_u64(&w, "sim_end_ns", r->sim_end_ns);
	js_u64(&w, "nr_events", r->nr_events);
	/* `iosched fio`: the lab's notes, which fio would not print (absent without) */
	if (nr_notes) {
		js_open(&w, "notes", '[');
		for (size_t i = 0; i < nr_notes; i++)
			js_str(&w, NULL, notes[i]);
		js_close(&w, ']');
	}
	/*
	 * Jobs that lab.max_sim_time (or the end of the simulated clock)
	 * stopped with work left, as positions in "jobs": the same run's
	 * stderr warning, for scripts that read only the JSON. Absent when no
	 * job was cut, so whole runs keep their bytes.
	 */
	for (size_t i = 0, n = 0; i < r->nr_jobs; i++) {
		if (!r->jobs[i].cut_short)
			continue;
		if (!n++)
			js_open(&w, "cut_short", '[');
		js_open(&w, NULL, '{');
		js_u64(&w, "job", i);
		js_str(&w, "jobname", r->jobs[i].name);
		js_close(&w, '}');
		if (n == nr_cut(r))
			js_close(&w, ']');
	}
	/*
	 * Who had the disk, one entry per entry of "jobs" in its order (not in
	 * fio's job objects, whose keys stay fio's): disk_time_ns as the
	 * scheduler charged it (0 when charged_by_scheduler is "no"),
	 * device_time_ns as the device's busy time split among its requests.
	 */
	js_open(&w, "disk_time", '{');
	js_str(&w, "charged_by_scheduler", r->sched_charges_time ? "yes" : "no");
	js_open(&w, "jobs", '[');
	for (size_t i = 0; i < r->nr_jobs; i++) {
		js_open(&w, NULL, '{');
		js_str(&w, "job", r->jobs[i].name ? r->jobs[i].name : "");
		js_u64(&w, "disk_time_ns", r->jobs[i].disk_time_ns);
		js_u64(&w, "device_time_ns", r->jobs[i].device_time_ns);
		js_close(&w, '}');
	}
	js_close(&w, ']');
	js_u64(&w, "flusher_disk_time_ns", r->flusher_disk_time_ns);
	js_u64(&w, "flusher_device_time_ns", r->flusher_device_time_ns);
	js_close(&w, '}');
	js_open(&w, "scheduler_stats", '{');
	for (size_t i = 0; i < r->nr_sched_stats; i++)
		js_int(&w, r->sched_stats[i].name, (long long)r->sched_stats[i].value);
	js_close(&w, '}');
	if (r->mq)
		js_mq(&w, r->mq);
	js_open(&w, "vm_stats", '{');
	js_u64(&w, "read_hits", r->vm_stats.read_hits);
	js_u64(&w, "read_misses", r->vm_stats.read_misses);
	js_u64(&w, "pages_read", r->vm_stats.pages_read);
	js_u64(&w, "pages_written", r->vm_stats.pages_written);
	js_u64(&w, "meta_reads", r->vm_stats.meta_reads);
	js_u64(&w, "readahead_windows", r->vm_stats.readahead_windows);
	js_u64(&w, "evictions", r->vm_stats.evictions);
	js_u64(&w, "max_dirty_pages", r->vm_stats.max_dirty_pages);
	js_u64(&w, "throttled", r->vm_stats.throttled);
	js_u64(&w, "flusher_bios", r->vm_stats.flusher_bios);
	js_u64(&w, "cache_flushes", r->vm_stats.cache_flushes);
	/* only where 6.x dirty throttling ran over the freerun ceiling: legacy outputs unchanged */
	if (r->vm_stats.over_freerun)
		js_u64(&w, "over_freerun_ns", r->vm_stats.over_freerun_ns);
	js_close(&w, '}');
	/* only with ext4's journal (lab.fs=ext4): other runs' outputs unchanged */
	if (r->has_jbd2)
		js_jbd2(&w, &r->jbd2);
	if (r->nr_cgroups)
		js_cgroups(&w, r);
	if (r->nr_cgroups && r->cgroups[0].v2)
		js_cgroups_v2(&w, r);
	if (r->iocost)
		js_iocost(&w, r->iocost);
	js_close(&w, '}');
	js_close(&w, '}');
	ios_buf_puts(out, "\n");
	free(groups);
	return out->oom ? -ENOMEM : 0;
}

int ios_report_json(const struct ios_run_result *r, struct ios_buf *out)
{
	return js_report(r, false, NULL, 0, out);
}

int ios_report_json_plus(const struct ios_run_result *r, struct ios_buf *out)
{
	return js_report(r, true, NULL, 0, out);
}

int ios_rep_json_notes(const struct ios_run_result *r, bool plus, const char *const *notes,
		       size_t nr_notes, struct ios_buf *out)
{
	return js_report(r, plus, notes, nr_notes, out);
}
