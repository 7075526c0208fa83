/*
 * The seed reproduction report's logic (repro.h): one run of an experiment,
 * the measures its criteria are about, and their evaluation over seeds.
 *
 * A run keeps its compare metrics (struct ios_cmp_run, the numbers
 * `iosched compare` prints) plus what only some experiments need: each
 * job's I/O count, the bytes the device moved and the time it spent on
 * each direction (from a trace sink, so the simulation is not touched).
 *
 * Measures are computed per seed, from one seed's run of the check's column
 * and, for a relative measure, the same seed's run of the reference column
 * (or of the first job alone); the verdict uses the median over the seeds,
 * as seed-scenarios.md §5 asks. The thread's numbers go through the same code:
 * each thread run is turned into a run with just what was posted, and a
 * measure that needs something it lacks is NaN ("-" in the report).
 *
 * How a measure is named and printed is the writers' business
 * (src/report/repro_words.c); this file only computes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iosched/ios.h"
#include "iosched/repro.h"
#include "repro_int.h"

const struct ios_repro_exp *ios_repro_find(const char *name)
{
	for (size_t i = 0; name && i < ios_repro_nr_experiments; i++)
		if (!strcasecmp(ios_repro_experiments[i].name, name))
			return &ios_repro_experiments[i];
	return NULL;
}

/* ---- one run ---- */

/*
 * The device's busy time per direction: each completion is charged the
 * time since it was issued or since the previous completion, whichever is
 * later, so overlapping commands (a queueing disk) are not counted twice.
 * Cache flushes carry no data and are left out.
 */
struct rp_busy {
	uint64_t busy_ns[IOS_DIR_COUNT];
	uint64_t last_ns;
	/*
	 * The first job's device latencies (the blk-mq scenarios): requests
	 * of the task named as the job file's first job with the lowest pid
	 * seen, which is its first clone (the runner numbers tasks in job
	 * order); ios_repro_run checks that pid against the result's.
	 */
	char first_comm[32];
	uint32_t first_pid;
	struct ios_lat_stat dev;
	/* the first job's (result index 0) clat per whole second (record_series runs) */
	struct ios_lat_stat *sec;
	size_t nr_sec;
	bool sec_lost;
	/* the first two jobs' first IOS_REPRO_EARLY clats, the rest summed */
	uint64_t early_ns[2][IOS_REPRO_EARLY];
	unsigned nr_early[2];
	double later_sum_ns[2];
	uint64_t nr_later[2];
};

/* cfg.io_done: the first job's clat into its second's histogram */
static void rp_io_done(void *arg, size_t job, int dir, uint64_t now, uint64_t clat_ns)
{
	struct rp_busy *b = arg;
	size_t s = (size_t)(now / 1000000000ull);

	(void)dir;
	if (job < 2) {
		if (b->nr_early[job] < IOS_REPRO_EARLY) {
			b->early_ns[job][b->nr_early[job]++] = clat_ns;
		} else {
			b->later_sum_ns[job] += (double)clat_ns;
			b->nr_later[job]++;
		}
	}
	if (job || b->sec_lost)
		return;
	if (s >= b->nr_sec) {
		size_t n = s + 1 > b->nr_sec * 2 ? s + 1 : b->nr_sec * 2;
		struct ios_lat_stat *p = realloc(b->sec, n * sizeof(*p));

		if (!p) {
			b->sec_lost = true;
			return;
		}
		b->sec = p;
		for (size_t i = b->nr_sec; i < n; i++) {
			ios_lat_init(&p[i]);
			if (ios_lat_enable_hist(&p[i]))
				b->sec_lost = true;
		}
		b->nr_sec = n;
	}
	ios_lat_add(&b->sec[s], clat_ns);
	if (b->sec[s].hist_lost)
		b->sec_lost = true;
}

static void rp_secs_free(struct ios_lat_stat *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ios_lat_free(&s[i]);
	free(s);
}

static void rp_trace_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
			   const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct rp_busy *b = priv;
	uint64_t from;

	(void)q;
	(void)bio;
	if (a != IOS_TA_COMPLETE || !rq || !rq->nr_sectors || rq->dir >= IOS_DIR_COUNT)
		return;
	from = rq->dispatch_ns > b->last_ns ? rq->dispatch_ns : b->last_ns;
	if (now > from)
		b->busy_ns[rq->dir] += now - from;
	if (now > b->last_ns)
		b->last_ns = now;
	if (!rq->ioc || strcmp(rq->ioc->comm, b->first_comm) || now < rq->dispatch_ns)
		return;
	if (!b->first_pid || rq->ioc->pid < b->first_pid) {
		/* a clone with a lower pid: the samples so far were another's */
		ios_lat_reset(&b->dev);
		b->first_pid = rq->ioc->pid;
	}
	if (rq->ioc->pid == b->first_pid)
		ios_lat_add(&b->dev, now - rq->dispatch_ns);
}

/* @r's first job: clat p50/p90/p99 over its directions, and the device p90 of @b */
static int rp_first_job(struct ios_repro_result *out, const struct ios_run_result *res,
			const struct rp_busy *b)
{
	static const double pct[3] = { 50.0, 90.0, 99.0 };
	struct ios_lat_stat all;
	uint64_t p90;
	int ret = 0;

	if (!res->nr_jobs)
		return 0;
	ios_lat_init(&all);
	if (ios_lat_enable_hist(&all))
		return -ENOMEM;
	for (int d = 0; d < IOS_DDIR_NR && !ret; d++) {
		const struct ios_lat_stat *c = &ios_job_dir(&res->jobs[0], d)->clat;

		if (c->n && !c->hist)
			goto out;	/* no histogram kept: no percentiles */
		if (c->n)
			ret = ios_lat_merge(&all, c);
	}
	if (!ret && all.n && !all.hist_lost)
		out->has_first_pct = ios_lat_percentiles(&all, pct, 3, out->first_clat_pct) == 3;
out:
	ios_lat_free(&all);
	if (!ret && b->first_pid == res->jobs[0].pid && b->dev.n && !b->dev.hist_lost &&
	    ios_lat_percentiles(&b->dev, &pct[1], 1, &p90) == 1) {
		out->first_dev_p90_ns = p90;
		out->has_first_dev = true;
	}
	return ret ? -ENOMEM : 0;
}

static const struct ios_trace_ops rp_trace_ops = { .event = rp_trace_event };

void ios_repro_result_free(struct ios_repro_result *r)
{
	ios_cmp_run_free(&r->run);
	free(r->job_ios);
	for (size_t i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	ios_series_free(r->series);
	free(r->series);
	rp_secs_free(r->first_sec, r->nr_first_sec);
	memset(r, 0, sizeof(*r));
}

/*
 * What the cgroup v2 scenarios read of io.cost's monitor (stats.h): the
 * end of the first period whose length differs from the first one's (the
 * parameter set's period: 50 ms under SSD_DFL, 10 ms under SSD_FAST, so
 * ioc_autop_idx's switch shows as the period changing), and the last
 * period's vrate. With a thinned log (stride > 1) the switch is seen up to
 * stride - 1 periods late.
 */
static void rp_iocost(struct ios_repro_result *out, const struct ios_iocost_log *l)
{
	if (!l || !l->nr)
		return;
	out->has_iocost = true;
	out->iocost_vrate_end = l->periods[l->nr - 1].vrate_pct;
	for (size_t i = 1; i < l->nr; i++) {
		if (l->periods[i].period_ms != l->periods[0].period_ms) {
			out->iocost_switch_ns = l->periods[i - 1].t_ns;
			break;
		}
	}
}

int ios_repro_run(const struct ios_jobfile *jf, const struct ios_run_config *base,
		  const struct ios_cmp_column *col, bool alone, ios_run_progress_fn prog,
		  void *prog_arg, struct ios_repro_result *out, struct ios_err *e)
{
	struct ios_jobfile first;
	struct ios_run_config cfg = *base;
	struct ios_run_result res = { 0 };
	struct rp_busy busy = { .last_ns = 0 };
	int ret;

	memset(out, 0, sizeof(*out));
	if (alone) {
		if (!jf->nr_jobs)
			return IOS_ERR(e, -EINVAL, "the job file has no job to run alone");
		/* a view of the job file with its first job only: nothing is copied */
		first = *jf;
		first.nr_jobs = 1;
		jf = &first;
	}
	cfg.scheduler = col->sched->name;
	cfg.settings = &col->settings;
	cfg.progress = prog;
	cfg.progress_arg = prog_arg;
	cfg.trace_ops = &rp_trace_ops;
	cfg.trace = &busy;
	if (cfg.record_series) {
		cfg.io_done = rp_io_done;
		cfg.io_done_arg = &busy;
	}
	if (jf->nr_jobs)
		snprintf(busy.first_comm, sizeof(busy.first_comm), "%s",
			 jf->jobs[0].name ? jf->jobs[0].name : "fio");
	ios_lat_init(&busy.dev);
	if (ios_lat_enable_hist(&busy.dev))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = ios_run(jf, &cfg, &res, e);
	if (ret) {
		ios_lat_free(&busy.dev);
		rp_secs_free(busy.sec, busy.nr_sec);
		return ret;
	}
	if (!busy.sec_lost) {
		out->first_sec = busy.sec;
		out->nr_first_sec = busy.nr_sec;
	} else {
		rp_secs_free(busy.sec, busy.nr_sec);
	}
	out->has_jbd2 = res.has_jbd2;
	out->jbd2 = res.jbd2;
	memcpy(out->early_ns, busy.early_ns, sizeof(out->early_ns));
	memcpy(out->nr_early, busy.nr_early, sizeof(out->nr_early));
	memcpy(out->later_sum_ns, busy.later_sum_ns, sizeof(out->later_sum_ns));
	memcpy(out->nr_later, busy.nr_later, sizeof(out->nr_later));
	out->has_freerun = res.vm_stats.over_freerun;
	out->freerun_ns = res.vm_stats.over_freerun_ns;
	ret = ios_cmp_run_from_result(&out->run, col->label, &col->share, &res);
	out->job_ios = calloc(res.nr_jobs + 1, sizeof(*out->job_ios));
	if (!ret && out->job_ios)
		ret = rp_first_job(out, &res, &busy);
	ios_lat_free(&busy.dev);
	if (ret || !out->job_ios) {
		ios_run_result_free(&res);
		ios_repro_result_free(out);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < res.nr_jobs; i++)
		for (int d = 0; d < IOS_DDIR_NR; d++)
			out->job_ios[i] += ios_job_dir(&res.jobs[i], d)->total_ios;
	for (size_t k = 0; k < res.nr_disks; k++)
		for (int d = 0; d < IOS_DIR_COUNT; d++)
			out->disk_bytes[d] += res.disks[k].sectors[d] * 512;
	memcpy(out->busy_ns, busy.busy_ns, sizeof(out->busy_ns));
	out->nr_stats = res.nr_sched_stats < IOS_ARRAY_SIZE(out->stats) ? res.nr_sched_stats
									: IOS_ARRAY_SIZE(out->stats);
	memcpy(out->stats, res.sched_stats, out->nr_stats * sizeof(out->stats[0]));
	for (size_t i = 0; i < res.nr_cgroups && out->nr_groups < IOS_ARRAY_SIZE(out->groups); i++) {
		const struct ios_cgroup_result *cg = &res.cgroups[i];
		struct ios_repro_group *g = &out->groups[out->nr_groups++];

		snprintf(g->path, sizeof(g->path), "%s", cg->path ? cg->path : "");
		g->ios = cg->ios[IOS_DDIR_READ] + cg->ios[IOS_DDIR_WRITE] + cg->ios[IOS_DDIR_TRIM];
		g->blk_wios = cg->blk_ios[IOS_WRITE];
		g->has_time = cg->has_sched;
		g->time_ns = cg->has_sched ? cg->sched.time_ns : 0;
		g->nr_depths = cg->v2_lat_nr_depths < IOS_ARRAY_SIZE(g->depth) ? cg->v2_lat_nr_depths
										 : IOS_ARRAY_SIZE(g->depth);
		memcpy(g->depth_at_ns, cg->v2_lat_depth_at_ns, g->nr_depths * sizeof(g->depth_at_ns[0]));
		memcpy(g->depth, cg->v2_lat_depth, g->nr_depths * sizeof(g->depth[0]));
	}
	if (res.nr_warnings) {
		out->warnings = calloc(res.nr_warnings, sizeof(*out->warnings));
		for (size_t i = 0; out->warnings && i < res.nr_warnings; i++) {
			out->warnings[i] = strdup(res.warnings[i]);
			if (!out->warnings[i])
				break;
			out->nr_warnings++;
		}
		if (out->nr_warnings != res.nr_warnings) {
			ios_run_result_free(&res);
			ios_repro_result_free(out);
			return IOS_ERR(e, -ENOMEM, "out of memory");
		}
	}
	rp_iocost(out, res.iocost);
	out->series = res.series;
	res.series = NULL;
	ios_run_result_free(&res);
	return 0;
}

/* ---- the measures ---- */

static int rp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the median of the finite values among @n (reordered); NaN when none */
static double rp_median(double *v, size_t n)
{
	return ios_metric_median(v, n);
}

/*
 * What a run knows, for the thread's partial numbers: ours know all. Bits
 * of RP_HAS_*.
 */
enum {
	RP_HAS_FINISH = 1 << 0,
	RP_HAS_BYTES = 1 << 1,
	RP_HAS_BW = 1 << 2,
	RP_HAS_LAT = 1 << 3,
	RP_HAS_BUSY = 1 << 4,
	RP_HAS_GROUPS = 1 << 5,
	RP_HAS_ALL = 0x3f,
};

struct rp_run {
	const struct ios_repro_result *r;
	unsigned has;
};

static const struct ios_cmp_job *rp_job(const struct rp_run *x, size_t i)
{
	return i < x->r->run.nr_jobs ? &x->r->run.jobs[i] : NULL;
}

static double rp_last_finish(const struct rp_run *x)
{
	uint64_t hi = 0;

	for (size_t i = 0; i < x->r->run.nr_jobs; i++)
		if (x->r->run.jobs[i].finish_ns > hi)
			hi = x->r->run.jobs[i].finish_ns;
	return hi ? (double)hi : NAN;
}

static double rp_bw_sum(const struct rp_run *x)
{
	double s = 0.0;

	for (size_t i = 0; i < x->r->run.nr_jobs; i++)
		s += x->r->run.jobs[i].bw_kib;
	return s;
}

double ios_repro_worst_diff(const struct ios_cmp_run *cr)
{
	struct ios_share_row *rows = calloc(cr->nr_jobs + 1, sizeof(*rows));
	uint64_t total;
	double prio, worst = NAN;

	if (!rows)
		return NAN;
	ios_cmp_share_rows(cr, rows, &total, &prio);
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		double d;

		if (!rows[i].has_diff)
			continue;
		d = fabs(rows[i].exact_diff_pct) / 100.0;
		if (!(d <= worst))
			worst = d;
	}
	free(rows);
	return worst;
}

/* D1: the sharers' bandwidths over the others' median, and the others' spread */
static void rp_sharers(const struct ios_repro_exp *x, const struct rp_run *run, double *lo,
		       double *hi, double *others_spread, double *median)
{
	const struct ios_cmp_run *cr = &run->r->run;
	double *others = calloc(cr->nr_jobs + 1, sizeof(*others)), s[2] = { NAN, NAN };
	size_t n = 0, found = 0;

	*lo = *hi = *others_spread = *median = NAN;
	if (!others || !x->sharers)
		goto out;
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		bool sharer = false;

		for (size_t k = 0; k < 2 && x->sharers[k]; k++) {
			if (!strcmp(cr->jobs[i].name, x->sharers[k])) {
				s[k] = cr->jobs[i].bw_kib;
				sharer = true;
				found++;
			}
		}
		if (!sharer)
			others[n++] = cr->jobs[i].bw_kib;
	}
	if (found != 2 || !n)
		goto out;
	qsort(others, n, sizeof(*others), rp_cmp_double);
	*others_spread = others[n - 1] > 0.0 ? (others[n - 1] - others[0]) / others[n - 1] : NAN;
	*median = rp_median(others, n);
	if (*median > 0.0) {
		*lo = fmin(s[0], s[1]) / *median;
		*hi = fmax(s[0], s[1]) / *median;
	}
out:
	free(others);
}

/*
 * What each measure needs of a run (RP_HAS_*): a thread run that did not
 * post it gives NaN. The measures' names and units are the writers'
 * (src/report/repro_words.c).
 */
static const unsigned rp_needs[IOS_RM_COUNT] = {
	[IOS_RM_SPREAD] = RP_HAS_FINISH,
	[IOS_RM_MAKESPAN_REL] = RP_HAS_FINISH,
	[IOS_RM_AGG_ALONE] = RP_HAS_ALL,
	[IOS_RM_WORST_DIFF] = RP_HAS_BYTES,
	[IOS_RM_BW_SUM_REL] = RP_HAS_BW,
	[IOS_RM_RW_RATIO] = RP_HAS_BW,
	[IOS_RM_WR_REL] = RP_HAS_BW,
	[IOS_RM_LAT_RATIO] = RP_HAS_LAT,
	[IOS_RM_MAX_LAT] = RP_HAS_LAT,
	[IOS_RM_BW_DEV] = RP_HAS_BW,
	[IOS_RM_READ_TIME] = RP_HAS_BUSY,
	[IOS_RM_WRITE_TIME] = RP_HAS_BUSY,
	[IOS_RM_SHARER_MIN] = RP_HAS_BW,
	[IOS_RM_SHARER_MAX] = RP_HAS_BW,
	[IOS_RM_OTHERS_SPREAD] = RP_HAS_BW,
	[IOS_RM_GROUP_RATIO] = RP_HAS_GROUPS,
	[IOS_RM_GROUP_TIME_RATIO] = RP_HAS_GROUPS,
	/* the blk-mq scenarios have no thread: their measures need our runs */
	[IOS_RM_P99_ALONE] = RP_HAS_ALL,
	[IOS_RM_P99_REL] = RP_HAS_ALL,
	[IOS_RM_DEV_P90] = RP_HAS_ALL,
	[IOS_RM_IOPS_REL] = RP_HAS_ALL,
	[IOS_RM_OTHERS_SHARE] = RP_HAS_ALL,
	[IOS_RM_OTHERS_MIN_IOS] = RP_HAS_ALL,
	[IOS_RM_OTHERS_MAX_LAT] = RP_HAS_ALL,
	[IOS_RM_SHARE_DEV] = RP_HAS_ALL,
	[IOS_RM_VERDICTS_DIFFER] = RP_HAS_ALL,
	[IOS_RM_WIN_SHARE] = RP_HAS_ALL,
	[IOS_RM_WIN_MIBS] = RP_HAS_ALL,
	[IOS_RM_WIN_REL] = RP_HAS_ALL,
	[IOS_RM_WIN_MAX_BIN] = RP_HAS_ALL,
	[IOS_RM_GROUP_ALONE] = RP_HAS_ALL,
	[IOS_RM_IOCOST_SWITCH] = RP_HAS_ALL,
	[IOS_RM_IOCOST_SWITCHED] = RP_HAS_ALL,
	[IOS_RM_IOCOST_VRATE_END] = RP_HAS_ALL,
	[IOS_RM_GROUP_IOPS] = RP_HAS_ALL,
	[IOS_RM_NOTE_COUNT] = RP_HAS_ALL,
	[IOS_RM_P90_T] = RP_HAS_ALL,
	[IOS_RM_LAT_T] = RP_HAS_ALL,
	[IOS_RM_WIN_P90_REL] = RP_HAS_ALL,
	[IOS_RM_GROUP_IOS_REL] = RP_HAS_ALL,
	[IOS_RM_LAT_DEPTH_BELOW] = RP_HAS_ALL,
	[IOS_RM_WIN_SUBMIT_DEV] = RP_HAS_ALL,
	[IOS_RM_WIN_STEP_MIN] = RP_HAS_ALL,
	[IOS_RM_WIN_STEP_MAX] = RP_HAS_ALL,
	[IOS_RM_DATA_PER_WRITE] = RP_HAS_ALL,
	[IOS_RM_CONV_PER_WRITE] = RP_HAS_ALL,
	[IOS_RM_COMMIT_PER_WRITE] = RP_HAS_ALL,
	[IOS_RM_FLUSH_PER_WRITE] = RP_HAS_ALL,
	[IOS_RM_LOG_PER_WRITE] = RP_HAS_ALL,
	[IOS_RM_MEAN_REL] = RP_HAS_ALL,
	[IOS_RM_EARLY_DIFF] = RP_HAS_ALL,
	[IOS_RM_LATER_REL] = RP_HAS_ALL,
};

/* the first job's clat p99, ns; NaN without one */
static double rp_p99(const struct rp_run *x)
{
	const struct ios_cmp_job *j = x ? rp_job(x, 0) : NULL;

	return j && j->has_p99 && j->clat_p99_ns ? (double)j->clat_p99_ns : NAN;
}

/* every job's I/Os completed per second of the run (first start to last finish) */
static double rp_iops(const struct rp_run *x)
{
	const struct ios_cmp_run *cr = &x->r->run;
	double ios = 0.0;

	if (!x->r->job_ios || cr->last_finish_ns <= cr->first_start_ns)
		return NAN;
	for (size_t i = 0; i < cr->nr_jobs; i++)
		ios += (double)x->r->job_ios[i];
	return ios / ((double)(cr->last_finish_ns - cr->first_start_ns) / 1e9);
}

/* the blk-mq scenarios' measures (see enum ios_repro_measure) */
static double rp_measure_mq(enum ios_repro_measure m, const struct rp_run *run,
			    const struct rp_run *ref, const struct rp_run *alone)
{
	const struct ios_repro_result *r = run->r;
	const struct ios_cmp_run *cr = &r->run;
	double total = 0.0, v = NAN;

	for (size_t i = 0; r->job_ios && i < cr->nr_jobs; i++)
		total += (double)r->job_ios[i];
	switch (m) {
	case IOS_RM_P99_ALONE:
		return rp_p99(run) / rp_p99(alone);
	case IOS_RM_P99_REL:
		return rp_p99(run) / rp_p99(ref);
	case IOS_RM_DEV_P90:
		return r->has_first_dev ? (double)r->first_dev_p90_ns : NAN;
	case IOS_RM_IOPS_REL:
		return ref ? rp_iops(run) / rp_iops(ref) : NAN;
	case IOS_RM_OTHERS_SHARE:
		if (cr->nr_jobs < 2 || total <= 0.0)
			return NAN;
		return (total - (double)r->job_ios[0]) / total;
	case IOS_RM_OTHERS_MIN_IOS:
		for (size_t i = 1; r->job_ios && i < cr->nr_jobs; i++)
			if (!(v <= (double)r->job_ios[i]))
				v = (double)r->job_ios[i];
		return v;
	case IOS_RM_OTHERS_MAX_LAT:
		for (size_t i = 1; i < cr->nr_jobs; i++)
			if (cr->jobs[i].has_lat && !(v >= (double)cr->jobs[i].clat_max_ns))
				v = (double)cr->jobs[i].clat_max_ns;
		return v;
	case IOS_RM_SHARE_DEV:
		for (size_t i = 0; total > 0.0 && i < cr->nr_jobs; i++) {
			double d = fabs((double)r->job_ios[i] / total - 1.0 / (double)cr->nr_jobs);

			if (!(v >= d))
				v = d;
		}
		return v;
	default:
		return NAN;
	}
}

/*
 * The I/Os (@time: the disk time charged) of the cgroup named @path in @r;
 * -1 when it has none such, or no time where the scheduler keeps no groups.
 */
static double rp_group_ios(const struct ios_repro_result *r, const char *path, bool time)
{
	for (size_t i = 0; path && i < r->nr_groups; i++) {
		const struct ios_repro_group *g = &r->groups[i];

		if (strcmp(g->path, path))
			continue;
		if (time)
			return g->has_time ? (double)g->time_ns : -1.0;
		return (double)g->ios;
	}
	return -1.0;
}

/* ---- the cgroup v2 scenarios: windows of the per-cgroup series ---- */

static bool rp_is_cgv2(enum ios_repro_measure m)
{
	return m == IOS_RM_WIN_SHARE || m == IOS_RM_WIN_MIBS || m == IOS_RM_WIN_REL ||
	       m == IOS_RM_WIN_MAX_BIN || m == IOS_RM_GROUP_ALONE || m == IOS_RM_IOCOST_SWITCH ||
	       m == IOS_RM_IOCOST_SWITCHED || m == IOS_RM_IOCOST_VRATE_END ||
	       m == IOS_RM_GROUP_IOPS || m == IOS_RM_NOTE_COUNT ||
	       (m >= IOS_RM_P90_T && m <= IOS_RM_WIN_STEP_MAX) ||
	       (m >= IOS_RM_DATA_PER_WRITE && m <= IOS_RM_LATER_REL);
}

/* Whether series job @sj belongs to @group (NULL: every job); "/a" is "a". */
static bool rp_in_group(const struct ios_series_job *sj, const char *group)
{
	const char *p = sj->cgroup ? sj->cgroup : "";

	if (!group)
		return true;
	while (*p == '/')
		p++;
	while (*group == '/')
		group++;
	return !strcmp(p, group);
}

/*
 * The bytes @group completed in @c's window of @r's series (whole buckets
 * whose start lies in the window), its largest bucket into @max_bin, the
 * window's length actually covered into @secs. NaN without series.
 */
static double rp_win_bytes(const struct ios_repro_result *r, const struct ios_repro_check *c,
			   const char *group, double *max_bin, double *secs)
{
	const struct ios_series *s = r->series;
	uint64_t from, to, sum = 0, best = 0;

	*max_bin = *secs = NAN;
	if (!s || !s->bucket_ns)
		return NAN;
	from = (uint64_t)(c->win_from_s * 1e9 + 0.5);
	to = c->win_to_s > 0.0 ? (uint64_t)(c->win_to_s * 1e9 + 0.5) : s->end_ns;
	if (to > s->end_ns)
		to = s->end_ns;
	if (to <= from)
		return NAN;
	for (uint64_t b = from / s->bucket_ns; b * s->bucket_ns < to; b++) {
		uint64_t in_b = 0;

		for (size_t j = 0; j < s->nr_jobs; j++) {
			const struct ios_series_job *sj = &s->jobs[j];

			if (rp_in_group(sj, group) && b < sj->len)
				in_b += sj->bytes[b];
		}
		sum += in_b;
		if (in_b > best)
			best = in_b;
	}
	*max_bin = (double)best / (1024.0 * 1024.0) / ((double)s->bucket_ns / 1e9);
	*secs = (double)(to - from) / 1e9;
	return (double)sum;
}

/*
 * @group's bytes in series buckets [@from, @to) ns, submit side (bytes[])
 * or device side (charged[], a cgroup line's requests at completion).
 */
static double rp_side_bytes(const struct ios_series *s, const char *group, bool dev,
			    uint64_t from, uint64_t to)
{
	uint64_t sum = 0;

	for (uint64_t b = from / s->bucket_ns; b * s->bucket_ns < to; b++)
		for (size_t j = 0; j < s->nr_jobs; j++) {
			const struct ios_series_job *sj = &s->jobs[j];

			if (!rp_in_group(sj, group))
				continue;
			if (dev && sj->charged && b < sj->charged_len)
				sum += sj->charged[b];
			else if (!dev && b < sj->len)
				sum += sj->bytes[b];
		}
	return (double)sum;
}

/*
 * W1: the lowest (@hi false) or highest rate, MiB/s, of @c's side of its
 * group over consecutive step_s windows from the window's start (or the
 * freerun crossing) to its end; a last partial window is left out.
 */
static double rp_step_rate(const struct ios_repro_result *r, const struct ios_repro_check *c,
			   bool hi)
{
	const struct ios_series *s = r->series;
	uint64_t from, to, step = (uint64_t)(c->step_s * 1e9 + 0.5);
	double best = NAN;

	if (!s || !s->bucket_ns || !step || (c->from_freerun && !r->has_freerun))
		return NAN;
	from = c->from_freerun ? r->freerun_ns : (uint64_t)(c->win_from_s * 1e9 + 0.5);
	from = (from + s->bucket_ns - 1) / s->bucket_ns * s->bucket_ns;	/* whole buckets */
	to = c->win_to_s > 0.0 ? (uint64_t)(c->win_to_s * 1e9 + 0.5) : s->end_ns;
	if (to > s->end_ns)
		to = s->end_ns;
	for (uint64_t w = from; w + step <= to; w += step) {
		double v = rp_side_bytes(s, c->group, c->dev_side, w, w + step) /
			   (1024.0 * 1024.0) / c->step_s;

		if (isnan(best) || (hi ? v > best : v < best))
			best = v;
	}
	return best;
}

/* C3's T: 2 x the first job's clat p90 alone rounded up to 10 us, ns; NaN without it */
static double rp_lat_t(const struct ios_repro_result *alone)
{
	uint64_t t;

	if (!alone || !alone->has_first_pct)
		return NAN;
	t = 2 * alone->first_clat_pct[1];
	return (double)((t + 9999) / 10000 * 10000);
}

/* The first job's clat p90 over @c's window (whole seconds), or over the run without one. */
static double rp_first_p90(const struct ios_repro_result *r, const struct ios_repro_check *c)
{
	static const double p90 = 90.0;
	struct ios_lat_stat all;
	size_t from, to;
	uint64_t v;
	double out = NAN;

	if (c->win_to_s <= 0.0 && c->win_from_s <= 0.0)
		return r->has_first_pct ? (double)r->first_clat_pct[1] : NAN;
	from = (size_t)c->win_from_s;
	to = c->win_to_s > 0.0 ? (size_t)c->win_to_s : r->nr_first_sec;
	if (to > r->nr_first_sec || from >= to)
		return NAN;
	ios_lat_init(&all);
	if (ios_lat_enable_hist(&all))
		return NAN;
	for (size_t s = from; s < to; s++)
		if (r->first_sec[s].n && ios_lat_merge(&all, &r->first_sec[s]))
			goto out;
	if (all.n && !all.hist_lost && ios_lat_percentiles(&all, &p90, 1, &v) == 1)
		out = (double)v;
out:
	ios_lat_free(&all);
	return out;
}

/* When @group's io.latency depth first fell below @below, s; NaN: never */
static double rp_depth_below(const struct ios_repro_result *r, const char *group, unsigned below)
{
	for (size_t i = 0; group && i < r->nr_groups; i++) {
		const struct ios_repro_group *g = &r->groups[i];

		if (strcmp(g->path, group))
			continue;
		for (unsigned k = 0; k < g->nr_depths; k++)
			if (g->depth[k] < below)
				return (double)g->depth_at_ns[k] / 1e9;
	}
	return NAN;
}

/* The bytes of @group's jobs over the whole run (compare's per-job bytes). */
static double rp_group_bytes(const struct ios_repro_result *r, const char *group)
{
	const struct ios_series *s = r->series;
	double sum = 0.0;

	if (!s)
		return NAN;
	for (size_t j = 0; j < s->nr_jobs; j++)
		if (rp_in_group(&s->jobs[j], group))
			sum += (double)s->jobs[j].total;
	return sum;
}

/* ---- C4: a dsync writer's costs per write, from the run's jbd2 counters ---- */

/* @r's first job's completed writes; 0 without */
static double rp_first_writes(const struct ios_repro_result *r)
{
	const struct ios_cmp_job *j = r->run.nr_jobs ? &r->run.jobs[0] : NULL;

	/* job_ios counts every direction: C4's dd only writes */
	return j && r->job_ios ? (double)r->job_ios[0] : 0.0;
}

/*
 * What @m counts per write of the first job: the check's group's write
 * requests (its data writes) or one of jbd2's counters; NaN without
 * them or without writes.
 */
static double rp_per_write(const struct ios_repro_check *c, enum ios_repro_measure m,
			   const struct ios_repro_result *r)
{
	const struct ios_jbd2_stats *j = &r->jbd2;
	double w = rp_first_writes(r), n = NAN;

	if (w <= 0.0)
		return NAN;
	if (m == IOS_RM_DATA_PER_WRITE) {
		for (size_t i = 0; c->group && i < r->nr_groups; i++)
			if (!strcmp(r->groups[i].path, c->group))
				n = (double)r->groups[i].blk_wios;
		return n / w;
	}
	if (!r->has_jbd2)
		return NAN;
	switch (m) {
	case IOS_RM_CONV_PER_WRITE:
		return (double)j->conversions / w;
	case IOS_RM_COMMIT_PER_WRITE:
		return (double)j->commits / w;
	case IOS_RM_FLUSH_PER_WRITE:
		return (double)j->commit_blocks / w;
	case IOS_RM_LOG_PER_WRITE:
		return (double)(j->log_blocks + j->desc_blocks) / w;
	default:
		return NAN;
	}
}

/* The first job's (@job 0) or the second's (1) mean clat over its I/Os after the early ones */
static double rp_later_mean(const struct ios_repro_result *r, int job)
{
	return r->nr_later[job] ? r->later_sum_ns[job] / (double)r->nr_later[job] : NAN;
}

/* min over k < IOS_REPRO_EARLY of the first job's k-th clat - the second's, ns */
static double rp_early_diff(const struct ios_repro_result *r)
{
	double lo = INFINITY;

	if (r->nr_early[0] < IOS_REPRO_EARLY || r->nr_early[1] < IOS_REPRO_EARLY)
		return NAN;
	for (unsigned k = 0; k < IOS_REPRO_EARLY; k++) {
		double d = (double)r->early_ns[0][k] - (double)r->early_ns[1][k];

		lo = d < lo ? d : lo;
	}
	return lo;
}

/* One seed's value of the window measure @m of @c (@ref, @alone: that seed's, or NULL). */
static double rp_measure_cgv2(const struct ios_repro_check *c, enum ios_repro_measure m,
			      const struct ios_repro_result *run, const struct ios_repro_result *ref,
			      const struct ios_repro_result *alone)
{
	double bin, secs, all, mine, other, tot;

	switch (m) {
	case IOS_RM_WIN_SHARE:
		mine = rp_win_bytes(run, c, c->group, &bin, &secs);
		all = rp_win_bytes(run, c, NULL, &bin, &secs);
		return all > 0.0 ? mine / all : NAN;
	case IOS_RM_WIN_MIBS:
		mine = rp_win_bytes(run, c, c->group, &bin, &secs);
		return secs > 0.0 ? mine / (1024.0 * 1024.0) / secs : NAN;
	case IOS_RM_WIN_REL:
		if (!ref)
			return NAN;
		mine = rp_win_bytes(run, c, c->group, &bin, &secs);
		other = rp_win_bytes(ref, c, c->group, &bin, &secs);
		return other > 0.0 ? mine / other : NAN;
	case IOS_RM_WIN_MAX_BIN:
		rp_win_bytes(run, c, c->group, &bin, &secs);
		return bin;
	case IOS_RM_GROUP_ALONE:
		if (!alone || !alone->series)
			return NAN;
		mine = rp_group_bytes(run, c->group);
		tot = rp_group_bytes(alone, NULL);
		return tot > 0.0 ? mine / tot : NAN;
	case IOS_RM_IOCOST_SWITCH:
		if (!run->has_iocost || !run->iocost_switch_ns)
			return NAN;
		return (double)run->iocost_switch_ns / 1e9;
	case IOS_RM_IOCOST_SWITCHED:
		return run->has_iocost ? (run->iocost_switch_ns ? 1.0 : 0.0) : NAN;
	case IOS_RM_IOCOST_VRATE_END:
		return run->has_iocost ? run->iocost_vrate_end / 100.0 : NAN;
	case IOS_RM_GROUP_IOPS:
		/* the group's completed I/Os (ios_repro_group) over the series' length */
		mine = c->group ? rp_group_ios(run, c->group, false) : NAN;
		if (!(mine >= 0.0) || !run->series || !run->series->end_ns)
			return NAN;
		return mine / ((double)run->series->end_ns / 1e9);
	case IOS_RM_NOTE_COUNT:
		if (!c->note)
			return NAN;
		tot = 0.0;
		for (size_t i = 0; i < run->nr_warnings; i++)
			if (strstr(run->warnings[i], c->note))
				tot += 1.0;
		return tot;
	case IOS_RM_P90_T:
		return rp_first_p90(run, c) / rp_lat_t(alone);
	case IOS_RM_LAT_T:
		return rp_lat_t(alone);
	case IOS_RM_WIN_P90_REL: {
		const struct ios_repro_check whole = { .column = c->column };

		if (!ref)
			return NAN;
		return rp_first_p90(run, c) / rp_first_p90(ref, &whole);
	}
	case IOS_RM_GROUP_IOS_REL:
		if (!ref)
			return NAN;
		mine = rp_group_ios(run, c->group, false);
		other = rp_group_ios(ref, c->group, false);
		return mine >= 0.0 && other > 0.0 ? mine / other : NAN;
	case IOS_RM_LAT_DEPTH_BELOW:
		return rp_depth_below(run, c->group, c->depth_below);
	case IOS_RM_WIN_SUBMIT_DEV: {
		const struct ios_series *s = run->series;
		uint64_t from = (uint64_t)(c->win_from_s * 1e9 + 0.5);
		uint64_t to = c->win_to_s > 0.0 ? (uint64_t)(c->win_to_s * 1e9 + 0.5) : 0;

		if (!s || !s->bucket_ns)
			return NAN;
		if (!to || to > s->end_ns)
			to = s->end_ns;
		mine = rp_side_bytes(s, c->group, false, from, to);
		other = rp_side_bytes(s, c->group, true, from, to);
		return other > 0.0 ? mine / other : mine > 0.0 ? INFINITY : NAN;
	}
	case IOS_RM_WIN_STEP_MIN:
	case IOS_RM_WIN_STEP_MAX:
		return rp_step_rate(run, c, m == IOS_RM_WIN_STEP_MAX);
	case IOS_RM_DATA_PER_WRITE:
	case IOS_RM_CONV_PER_WRITE:
	case IOS_RM_COMMIT_PER_WRITE:
	case IOS_RM_FLUSH_PER_WRITE:
	case IOS_RM_LOG_PER_WRITE:
		return rp_per_write(c, m, run);
	case IOS_RM_MEAN_REL: {
		const struct ios_cmp_job *a = run->run.nr_jobs ? &run->run.jobs[0] : NULL;
		const struct ios_cmp_job *b = ref && ref->run.nr_jobs ? &ref->run.jobs[0] : NULL;

		if (!a || !b || !a->has_lat || !b->has_lat || b->clat_mean_ns <= 0.0)
			return NAN;
		return a->clat_mean_ns / b->clat_mean_ns;
	}
	case IOS_RM_EARLY_DIFF:
		return rp_early_diff(run);
	case IOS_RM_LATER_REL:
		return rp_later_mean(run, 0) / rp_later_mean(run, 1);
	default:
		return NAN;
	}
}

/* One seed's value of @m for @run (@ref, @alone: that seed's, or NULL). */
static double rp_measure(const struct ios_repro_exp *x, enum ios_repro_measure m,
			 const struct rp_run *run, const struct rp_run *ref,
			 const struct rp_run *alone)
{
	const struct ios_cmp_run *cr = &run->r->run;
	const struct ios_cmp_job *j0 = rp_job(run, 0), *j1 = rp_job(run, 1);
	unsigned needs = rp_needs[m];
	double lo, hi, spread, median, a, b;

	if ((run->has & needs) != needs || (ref && (ref->has & needs) != needs))
		return NAN;
	switch (m) {
	case IOS_RM_SPREAD: {
		uint64_t *fin = calloc(cr->nr_jobs + 1, sizeof(*fin));

		if (!fin)
			return NAN;
		for (size_t i = 0; i < cr->nr_jobs; i++)
			fin[i] = cr->jobs[i].finish_ns;
		a = cr->nr_jobs ? ios_metric_spread(fin, cr->nr_jobs) : NAN;
		free(fin);
		return a;
	}
	case IOS_RM_MAKESPAN_REL:
		return ref ? rp_last_finish(run) / rp_last_finish(ref) : NAN;
	case IOS_RM_AGG_ALONE: {
		const struct ios_cmp_job *s = alone ? rp_job(alone, 0) : NULL;

		if (!s || s->finish_ns <= s->start_ns || cr->agg_kib <= 0.0)
			return NAN;
		a = (double)s->bytes / 1024.0 / ((double)(s->finish_ns - s->start_ns) / 1e9);
		return cr->agg_kib / a;
	}
	case IOS_RM_WORST_DIFF:
		return ios_repro_worst_diff(cr);
	case IOS_RM_BW_SUM_REL:
		return ref && rp_bw_sum(ref) > 0.0 ? rp_bw_sum(run) / rp_bw_sum(ref) : NAN;
	case IOS_RM_RW_RATIO:
		return j0 && j1 && j1->bw_kib > 0.0 ? j0->bw_kib / j1->bw_kib : NAN;
	case IOS_RM_WR_REL:
		return j0 && j1 && j0->bw_kib > 0.0 ? j1->bw_kib / j0->bw_kib : NAN;
	case IOS_RM_LAT_RATIO:
		if (!j0 || !j1 || !j0->has_lat || !j1->has_lat || !j0->clat_max_ns)
			return NAN;
		return (double)j1->clat_max_ns / (double)j0->clat_max_ns;
	case IOS_RM_MAX_LAT:
		return cr->has_lat ? (double)cr->clat_max_ns : NAN;
	case IOS_RM_BW_DEV:
		if (!ref || ref->r->run.nr_jobs != cr->nr_jobs)
			return NAN;
		a = 0.0;
		for (size_t i = 0; i < cr->nr_jobs; i++) {
			double rb = ref->r->run.jobs[i].bw_kib;

			if (rb <= 0.0)
				return NAN;
			b = fabs(cr->jobs[i].bw_kib / rb - 1.0);
			a = b > a ? b : a;
		}
		return a;
	case IOS_RM_READ_TIME:
	case IOS_RM_WRITE_TIME:
		a = (double)run->r->busy_ns[IOS_READ];
		b = (double)run->r->busy_ns[IOS_WRITE];
		if (a + b <= 0.0)
			return NAN;
		return (m == IOS_RM_READ_TIME ? a : b) / (a + b);
	case IOS_RM_SHARER_MIN:
	case IOS_RM_SHARER_MAX:
	case IOS_RM_OTHERS_SPREAD:
		rp_sharers(x, run, &lo, &hi, &spread, &median);
		return m == IOS_RM_SHARER_MIN ? lo : m == IOS_RM_SHARER_MAX ? hi : spread;
	case IOS_RM_GROUP_RATIO:
	case IOS_RM_GROUP_TIME_RATIO:
		if (!x->cgroups || !x->cgroups[0] || !x->cgroups[1])
			return NAN;
		a = rp_group_ios(run->r, x->cgroups[0], m == IOS_RM_GROUP_TIME_RATIO);
		b = rp_group_ios(run->r, x->cgroups[1], m == IOS_RM_GROUP_TIME_RATIO);
		return a >= 0.0 && b > 0.0 ? a / b : NAN;
	case IOS_RM_P99_ALONE:
	case IOS_RM_P99_REL:
	case IOS_RM_DEV_P90:
	case IOS_RM_IOPS_REL:
	case IOS_RM_OTHERS_SHARE:
	case IOS_RM_OTHERS_MIN_IOS:
	case IOS_RM_OTHERS_MAX_LAT:
	case IOS_RM_SHARE_DEV:
		return rp_measure_mq(m, run, ref, alone);
	case IOS_RM_WIN_SHARE:		/* need the check: rp_measure_cgv2 */
	case IOS_RM_WIN_MIBS:
	case IOS_RM_WIN_REL:
	case IOS_RM_WIN_MAX_BIN:
	case IOS_RM_GROUP_ALONE:
	case IOS_RM_IOCOST_SWITCH:
	case IOS_RM_IOCOST_SWITCHED:
	case IOS_RM_IOCOST_VRATE_END:
	case IOS_RM_GROUP_IOPS:
	case IOS_RM_NOTE_COUNT:
	case IOS_RM_P90_T:
	case IOS_RM_LAT_T:
	case IOS_RM_WIN_P90_REL:
	case IOS_RM_GROUP_IOS_REL:
	case IOS_RM_LAT_DEPTH_BELOW:
	case IOS_RM_WIN_SUBMIT_DEV:
	case IOS_RM_WIN_STEP_MIN:
	case IOS_RM_WIN_STEP_MAX:
	case IOS_RM_DATA_PER_WRITE:
	case IOS_RM_CONV_PER_WRITE:
	case IOS_RM_COMMIT_PER_WRITE:
	case IOS_RM_FLUSH_PER_WRITE:
	case IOS_RM_LOG_PER_WRITE:
	case IOS_RM_MEAN_REL:
	case IOS_RM_EARLY_DIFF:
	case IOS_RM_LATER_REL:
	case IOS_RM_VERDICTS_DIFFER:	/* not per run: ios_repro_evaluate */
	case IOS_RM_COUNT:
		break;
	}
	return NAN;
}

/* ---- the thread's numbers as runs ---- */

/*
 * A thread run as a result: names, finish times, bytes, bandwidths and
 * latencies where posted. Its jobs take class, level and the share model
 * from ours (@like: the same column's first run), since they ran the same
 * job; Moyer's ideal is then computed for Jeff's rows as for ours.
 */
int ios_repro_thread_result(const struct ios_repro_thread_run *t, const struct ios_cmp_run *like,
			    const char *const *x_groups, struct ios_repro_result *out, unsigned *has)
{
	struct ios_cmp_run *cr = &out->run;

	memset(out, 0, sizeof(*out));
	*has = 0;
	cr->jobs = calloc(t->nr_jobs + 1, sizeof(*cr->jobs));
	cr->label = strdup(t->label);
	if (!cr->jobs || !cr->label)
		goto nomem;
	cr->nr_jobs = t->nr_jobs;
	cr->share = like->share;
	snprintf(cr->scheduler, sizeof(cr->scheduler), "%s", like->scheduler);
	for (size_t i = 0; i < t->nr_jobs; i++) {
		struct ios_cmp_job *j = &cr->jobs[i];
		const struct ios_cmp_job *l = i < like->nr_jobs ? &like->jobs[i] : NULL;
		char name[32];

		snprintf(name, sizeof(name), "%zu", i + 1);
		j->name = strdup(t->jobs ? t->jobs[i] : name);
		if (!j->name)
			goto nomem;
		j->ioprio_class = l ? l->ioprio_class : IOS_IOPRIO_CLASS_BE;
		j->ioprio_level = l ? l->ioprio_level : 4;
		if (t->finish_s && isfinite(t->finish_s[i]))
			j->finish_ns = (uint64_t)llround(t->finish_s[i] * 1e9);
		if (t->xferred_kib)
			j->bytes = (uint64_t)llround(t->xferred_kib[i]) * 1024;
		if (t->bw_kib)
			j->bw_kib = t->bw_kib[i];
		if (t->max_lat_ms) {
			j->clat_max_ns = (uint64_t)llround(t->max_lat_ms[i] * 1e6);
			j->has_lat = true;
		}
	}
	if (ios_cmp_run_summarise(cr))
		goto nomem;
	/* the cgroups the experiment compares, named as ours are */
	for (size_t i = 0; t->group_ios && x_groups && x_groups[i] && i < IOS_ARRAY_SIZE(out->groups);
	     i++) {
		struct ios_repro_group *g = &out->groups[out->nr_groups++];

		snprintf(g->path, sizeof(g->path), "%s", x_groups[i]);
		g->ios = (uint64_t)llround(t->group_ios[i]);
	}
	*has = (t->finish_s ? RP_HAS_FINISH : 0) | (t->xferred_kib ? RP_HAS_BYTES : 0) |
	       (t->bw_kib ? RP_HAS_BW : 0) | (t->max_lat_ms ? RP_HAS_LAT : 0) |
	       (t->group_ios ? RP_HAS_GROUPS : 0);
	return 0;
nomem:
	ios_cmp_run_free(cr);
	return -ENOMEM;
}

/* ---- evaluation ---- */

long ios_repro_column(const struct ios_repro_data *d, const char *label)
{
	for (size_t c = 0; label && c < d->nr_cols; c++)
		if (!strcmp(d->cols[c].label, label))
			return (long)c;
	return -1;
}

void ios_repro_bounds(const struct ios_repro_check *c, double *lo, double *hi)
{
	if (c->tol > 0.0) {
		*lo = c->expect * (1.0 - c->tol);
		*hi = c->expect * (1.0 + c->tol);
	} else {
		*lo = c->lo;
		*hi = c->hi;
	}
}

static bool rp_within(const struct ios_repro_check *c, double v)
{
	double lo, hi;

	ios_repro_bounds(c, &lo, &hi);
	if (!isfinite(v))
		return false;
	if (isfinite(lo) && v < lo)
		return false;
	if (isfinite(hi) && (c->hi_strict ? v >= hi : v > hi))
		return false;
	return true;
}

/* The thread's value: its runs beside the column, paired with the reference's in order. */
static int rp_thread_value(const struct ios_repro_data *d, const struct ios_repro_check *c,
			   long col, double *out)
{
	const struct ios_repro_exp *x = d->exp;
	const struct ios_repro_thread_run *mine[16], *refs[16];
	double vals[16];
	size_t nm = 0, nr = 0, nv = 0;
	int ret = 0;

	*out = NAN;
	for (size_t i = 0; i < x->nr_thread_runs; i++) {
		const struct ios_repro_thread_run *t = &x->thread_runs[i];

		if (!strcmp(t->column, c->column) && nm < 16)
			mine[nm++] = t;
		if (c->ref && !strcmp(t->column, c->ref) && nr < 16)
			refs[nr++] = t;
	}
	for (size_t i = 0; i < nm && !ret; i++) {
		struct ios_repro_result tr, rr;
		struct rp_run a, b;
		const struct ios_repro_thread_run *rt = c->ref ? (i < nr ? refs[i] : NULL) : NULL;

		if (c->ref && !rt)
			break;
		ret = ios_repro_thread_result(mine[i], &d->res[(size_t)col * d->nr_seeds].run,
					      x->cgroups, &tr, &a.has);
		if (ret)
			break;
		a.r = &tr;
		if (rt) {
			long rc = ios_repro_column(d, c->ref);

			ret = ios_repro_thread_result(rt, &d->res[(size_t)rc * d->nr_seeds].run,
						      x->cgroups, &rr, &b.has);
			if (ret) {
				ios_repro_result_free(&tr);
				break;
			}
			b.r = &rr;
		}
		vals[nv++] = rp_measure(x, c->m, &a, rt ? &b : NULL, NULL);
		ios_repro_result_free(&tr);
		if (rt)
			ios_repro_result_free(&rr);
	}
	*out = rp_median(vals, nv);
	return ret;
}

/*
 * The result of the column labelled @label for seed @s: this experiment's,
 * else its base's (the blk-mq scenarios name the seed experiments' runs);
 * NULL when neither has it.
 */
static const struct ios_repro_result *rp_col_res(const struct ios_repro_data *d,
						 const char *label, unsigned s)
{
	long c = ios_repro_column(d, label);

	if (c >= 0)
		return &d->res[(size_t)c * d->nr_seeds + s];
	if (!d->base || s >= d->base->nr_seeds || (c = ios_repro_column(d->base, label)) < 0)
		return NULL;
	return &d->base->res[(size_t)c * d->base->nr_seeds + s];
}

/* The base experiment's result of its column @label for seed @s (ref_base); NULL: none */
static const struct ios_repro_result *rp_base_res(const struct ios_repro_data *d,
						  const char *label, unsigned s)
{
	long c;

	if (!d->base || s >= d->base->nr_seeds || (c = ios_repro_column(d->base, label)) < 0)
		return NULL;
	return &d->base->res[(size_t)c * d->base->nr_seeds + s];
}

static const struct ios_repro_result *rp_alone_res(const struct ios_repro_data *d, unsigned s)
{
	if (d->alone)
		return &d->alone[s];
	return d->base && d->base->alone && s < d->base->nr_seeds ? &d->base->alone[s] : NULL;
}

/*
 * Measure @m of check @c (@x's, for its sharers and cgroups) on @column,
 * seed by seed into @vals, and the median into @median. -EINVAL when the
 * column or @c's reference is in neither this experiment nor its base.
 */
static int rp_eval_on(const struct ios_repro_data *d, const struct ios_repro_exp *x,
		      const struct ios_repro_check *c, enum ios_repro_measure m, const char *column,
		      double *vals, double *median)
{
	double tmp[IOS_REPRO_MAX_SEEDS];

	for (unsigned s = 0; s < d->nr_seeds; s++) {
		const struct ios_repro_result *ra = rp_col_res(d, column, s);
		const struct ios_repro_result *rb = !c->ref ? NULL
						    : c->ref_base ? rp_base_res(d, c->ref, s)
						    : rp_col_res(d, c->ref, s);
		const struct ios_repro_result *ral = rp_alone_res(d, s);
		struct rp_run a = { ra, RP_HAS_ALL }, b = { rb, RP_HAS_ALL }, al = { ral, RP_HAS_ALL };

		if (!ra || (c->ref && !rb))
			return -EINVAL;
		if (rp_is_cgv2(m))
			vals[s] = rp_measure_cgv2(c, m, ra, rb, ral);
		else
			vals[s] = rp_measure(x, m, &a, rb ? &b : NULL, ral ? &al : NULL);
		tmp[s] = vals[s];
	}
	*median = rp_median(tmp, d->nr_seeds);
	return 0;
}

/* Whether @c's condition holds (always, without one); NaN holds for neither side. */
static int rp_applies(const struct ios_repro_data *d, const struct ios_repro_check *c,
		      bool *applies, double *when)
{
	const struct ios_repro_check plain = { .column = c->when_column };
	double vals[IOS_REPRO_MAX_SEEDS], g;
	int ret;

	*applies = true;
	*when = NAN;
	if (!c->when_column)
		return 0;
	ret = rp_eval_on(d, d->exp, &plain, c->when_m, c->when_column, vals, &g);
	if (ret)
		return ret;
	*applies = isfinite(g) && (c->when_below ? g < c->when_min : g >= c->when_min);
	*when = g;
	return 0;
}

static bool rp_same_bound(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* Two checks that say the same thing of whichever column they are put on. */
static bool rp_same_criterion(const struct ios_repro_check *a, const struct ios_repro_check *b)
{
	return a->m == b->m && !a->ref == !b->ref && (!a->ref || !strcmp(a->ref, b->ref)) &&
	       rp_same_bound(a->lo, b->lo) && rp_same_bound(a->hi, b->hi) &&
	       a->hi_strict == b->hi_strict && a->expect == b->expect && a->tol == b->tol &&
	       !a->when_column == !b->when_column &&
	       (!a->when_column || (!strcmp(a->when_column, b->when_column) &&
				    a->when_m == b->when_m && a->when_min == b->when_min &&
				    a->when_below == b->when_below));
}

int ios_repro_verdict_pairs(const struct ios_repro_data *d, const struct ios_repro_check *c,
			    struct ios_repro_pair *out, size_t max, size_t *n)
{
	const struct ios_repro_data *src = d->exp->base ? d->base : d;
	const struct ios_repro_exp *sx;
	double vals[IOS_REPRO_MAX_SEEDS];

	*n = 0;
	if (!src || !c->like || src->nr_seeds != d->nr_seeds)
		return -EINVAL;
	sx = src->exp;
	for (size_t k = 0; k < sx->nr_checks; k++) {
		const struct ios_repro_check *b = &sx->checks[k];
		struct ios_repro_pair *p = &out[*n];
		bool applies, dup = false;
		double when;
		int ret;

		if (b->m == IOS_RM_VERDICTS_DIFFER || b->m >= IOS_RM_COUNT)
			continue;
		if (c->like_of && strcmp(b->column, c->like_of))
			continue;
		for (size_t i = 0; !c->like_of && i < k && !dup; i++)
			dup = rp_same_criterion(&sx->checks[i], b);
		if (dup)
			continue;
		ret = rp_applies(src, b, &applies, &when);
		if (ret)
			return ret;
		if (!applies)
			continue;
		if (*n == max)
			return -ENOSPC;
		p->crit = b;
		ret = rp_eval_on(d, sx, b, b->m, c->like, vals, &p->like_value);
		if (!ret)
			ret = rp_eval_on(d, sx, b, b->m, c->column, vals, &p->value);
		if (ret)
			return ret;
		p->like_pass = rp_within(b, p->like_value);
		p->pass = rp_within(b, p->value);
		(*n)++;
	}
	return 0;
}

/* IOS_RM_VERDICTS_DIFFER: the number of criteria whose verdicts differ */
static int rp_verdicts_differ(const struct ios_repro_data *d, const struct ios_repro_check *c,
			      double *value)
{
	const struct ios_repro_data *src = d->exp->base ? d->base : d;
	struct ios_repro_pair *p;
	size_t n = 0, differ = 0;
	int ret;

	*value = NAN;
	if (!src)
		return -EINVAL;
	p = calloc(src->exp->nr_checks + 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	ret = ios_repro_verdict_pairs(d, c, p, src->exp->nr_checks, &n);
	for (size_t i = 0; !ret && i < n; i++)
		differ += p[i].pass != p[i].like_pass;
	if (!ret && n)
		*value = (double)differ;
	free(p);
	return ret;
}

int ios_repro_evaluate(const struct ios_repro_data *d, struct ios_repro_verdict *v)
{
	const struct ios_repro_exp *x = d->exp;

	if (!d->nr_seeds || d->nr_seeds > IOS_REPRO_MAX_SEEDS || (x->base && !d->base))
		return -EINVAL;
	for (size_t k = 0; k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		long col = ios_repro_column(d, c->column);
		bool applies;
		int ret;

		if (c->m >= IOS_RM_COUNT)
			return -EINVAL;
		for (unsigned s = 0; s < IOS_REPRO_MAX_SEEDS; s++)
			v[k].per_seed[s] = NAN;
		ret = rp_applies(d, c, &applies, &v[k].when_value);
		if (ret)
			return ret;
		v[k].na = !applies;
		if (c->m == IOS_RM_VERDICTS_DIFFER)
			ret = rp_verdicts_differ(d, c, &v[k].value);
		else
			ret = rp_eval_on(d, x, c, c->m, c->column, v[k].per_seed, &v[k].value);
		if (ret)
			return ret;
		v[k].pass = applies && rp_within(c, v[k].value);
		v[k].thread = NAN;
		if (col >= 0 && c->m != IOS_RM_VERDICTS_DIFFER) {
			ret = rp_thread_value(d, c, col, &v[k].thread);
			if (ret)
				return ret;
		}
		v[k].thread_pass = rp_within(c, v[k].thread);
	}
	return 0;
}

const struct ios_repro_exp *ios_repro_base_of(const struct ios_repro_exp *x)
{
	return x && x->base ? ios_repro_find(x->base) : NULL;
}

int ios_repro_link_bases(struct ios_repro_data *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		d[i].base = NULL;
		if (!d[i].exp->base)
			continue;
		/* by name, so that an experiment outside the table links too (tests) */
		for (size_t k = 0; k < n && !d[i].base; k++)
			if (k != i && !strcasecmp(d[k].exp->name, d[i].exp->base) &&
			    d[k].nr_seeds == d[i].nr_seeds)
				d[i].base = &d[k];
		if (!d[i].base)
			return -EINVAL;
	}
	return 0;
}

unsigned ios_repro_plot_seed(const struct ios_repro_data *d, const struct ios_repro_verdict *v)
{
	unsigned idx[IOS_REPRO_MAX_SEEDS], n = 0;

	if (d->nr_seeds < 2 || !d->exp->nr_checks || !v)
		return 0;
	for (unsigned s = 0; s < d->nr_seeds && s < IOS_REPRO_MAX_SEEDS; s++)
		if (isfinite(v[0].per_seed[s]))
			idx[n++] = s;
	if (!n)
		return 0;
	/* insertion sort by value, stable, so a tie keeps the lower seed first */
	for (unsigned i = 1; i < n; i++) {
		unsigned x = idx[i], k = i;

		while (k && v[0].per_seed[idx[k - 1]] > v[0].per_seed[x]) {
			idx[k] = idx[k - 1];
			k--;
		}
		idx[k] = x;
	}
	return idx[(n - 1) / 2];
}
