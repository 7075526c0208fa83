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
 * as scenarios.md §5 asks. The thread's numbers go through the same code:
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
};

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
	memset(r, 0, sizeof(*r));
}

int ios_repro_run(const struct ios_jobfile *jf, const struct ios_run_config *base,
		  const struct ios_cmp_column *col, bool alone, ios_run_progress_fn prog,
		  void *prog_arg, struct ios_repro_result *out, struct ios_err *e)
{
	struct ios_jobfile first;
	struct ios_run_config cfg = *base;
	struct ios_run_result res = { 0 };
	struct rp_busy busy = { { 0 }, 0 };
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
	ret = ios_run(jf, &cfg, &res, e);
	if (ret)
		return ret;
	ret = ios_cmp_run_from_result(&out->run, col->label, &col->share, &res);
	out->job_ios = calloc(res.nr_jobs + 1, sizeof(*out->job_ios));
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
		g->has_time = cg->has_sched;
		g->time_ns = cg->has_sched ? cg->sched.time_ns : 0;
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

/* the median of the finite values among @n (sorted in place); NaN when none */
static double rp_median(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	if (!k)
		return NAN;
	qsort(v, k, sizeof(*v), rp_cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2.0;
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
};

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

int ios_repro_evaluate(const struct ios_repro_data *d, struct ios_repro_verdict *v)
{
	const struct ios_repro_exp *x = d->exp;

	if (!d->nr_seeds || d->nr_seeds > IOS_REPRO_MAX_SEEDS)
		return -EINVAL;
	for (size_t k = 0; k < x->nr_checks; k++) {
		const struct ios_repro_check *c = &x->checks[k];
		long col = ios_repro_column(d, c->column), ref = c->ref ? ios_repro_column(d, c->ref) : -1;
		double vals[IOS_REPRO_MAX_SEEDS];
		int ret;

		if (col < 0 || (c->ref && ref < 0) || c->m >= IOS_RM_COUNT)
			return -EINVAL;
		for (unsigned s = 0; s < d->nr_seeds; s++) {
			struct rp_run a = { &d->res[(size_t)col * d->nr_seeds + s], RP_HAS_ALL };
			struct rp_run b = { ref >= 0 ? &d->res[(size_t)ref * d->nr_seeds + s] : NULL,
					    RP_HAS_ALL };
			struct rp_run al = { d->alone ? &d->alone[s] : NULL, RP_HAS_ALL };

			vals[s] = rp_measure(x, c->m, &a, ref >= 0 ? &b : NULL, d->alone ? &al : NULL);
			v[k].per_seed[s] = vals[s];
		}
		for (unsigned s = d->nr_seeds; s < IOS_REPRO_MAX_SEEDS; s++)
			v[k].per_seed[s] = NAN;
		v[k].value = rp_median(vals, d->nr_seeds);
		v[k].pass = rp_within(c, v[k].value);
		ret = rp_thread_value(d, c, col, &v[k].thread);
		if (ret)
			return ret;
		v[k].thread_pass = rp_within(c, v[k].thread);
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
