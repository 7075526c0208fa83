/*
 * Fairness metrics and the schedulers' share models (compare.h, parts 1
 * and 2).
 *
 * The seed threads judged schedulers by a handful of numbers: per-process
 * bandwidth and finish time (the four dd readers), completion latency
 * (Jens's reader/writer table), and how far each process's transfer is
 * from the share its priority promises (Jeff Moyer's `class prio ideal
 * xferred %diff`). This file computes them from a finished run so that
 * `iosched compare` and the seed reproduction report print the same values.
 *
 * The "ideal" needs a model of what each scheduler promises. The weights
 * mirror the schedulers as this simulator implements them (the constants
 * below must equal those in src/sched/cfq_int.h and bfq_int.h; a unit test
 * checks that), and classes are strict because all three priority-aware
 * schedulers serve RT before BE before IDLE. The model describes continuous
 * competition: jobs that stop at different times (size-bounded ones) leave
 * their share to the others, which the report points out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/compare.h"
#include "iosched/plot.h"
#include "iosched/job.h"

/* CFQ: slice scaling and group weights (cfq_int.h: CFQ_SLICE_SCALE, CFQ_WEIGHT_*) */
#define MX_CFQ_SLICE_SCALE	5
#define MX_CFQ_WEIGHT_ROOT	1000
#define MX_CFQ_WEIGHT_DEFAULT	500
/* BFQ: weight = (8 - level) * 10, groups 100 (bfq_int.h) */
#define MX_BFQ_COEFF		10
#define MX_BFQ_GRP_WEIGHT	100

/* ---- metrics on vectors ---- */

static int mx_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the repro verdicts' and the sweep merge's median (repro.c, sweep_merge.c) */
double ios_metric_median(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	if (!k)
		return NAN;
	qsort(v, k, sizeof(*v), mx_cmp_double);
	return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2.0;
}

double ios_metric_jain(const double *x, size_t n)
{
	double sum = 0.0, sq = 0.0;

	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	if (!n || sq <= 0.0)
		return NAN;
	return sum * sum / ((double)n * sq);
}

double ios_metric_min_max(const double *x, size_t n)
{
	double lo, hi;

	if (!n)
		return NAN;
	lo = hi = x[0];
	for (size_t i = 1; i < n; i++) {
		if (x[i] < lo)
			lo = x[i];
		if (x[i] > hi)
			hi = x[i];
	}
	return hi > 0.0 ? lo / hi : NAN;
}

double ios_metric_spread(const uint64_t *t, size_t n)
{
	uint64_t lo, hi;

	if (!n)
		return 0.0;
	lo = hi = t[0];
	for (size_t i = 1; i < n; i++) {
		if (t[i] < lo)
			lo = t[i];
		if (t[i] > hi)
			hi = t[i];
	}
	return hi ? (double)(hi - lo) / (double)hi : 0.0;
}

/* ---- share models ---- */

static int mx_class(int c)
{
	/* anything unknown counts as best effort, as the kernel's default */
	return c == IOS_IOPRIO_CLASS_RT || c == IOS_IOPRIO_CLASS_IDLE ? c : IOS_IOPRIO_CLASS_BE;
}

double ios_share_job_weight(const struct ios_share_params *p, int ioprio_class,
			    int ioprio_level)
{
	int level = ioprio_level < 0 ? 0 : ioprio_level > 7 ? 7 : ioprio_level;

	(void)ioprio_class;	/* classes are strict, not weights */
	switch (p->model) {
	case IOS_SHARE_CFQ_SLICE:
	case IOS_SHARE_CFQ_GROUP_SLICE: {
		/* cfq_prio_slice(): integer base/5 as the kernel divides, in ms */
		int64_t base = (int64_t)p->slice_ns;
		int64_t slice = base + base / MX_CFQ_SLICE_SCALE * (4 - level);

		return (double)slice / 1e6;
	}
	case IOS_SHARE_BFQ_WEIGHT:
		return (double)((8 - level) * MX_BFQ_COEFF);
	case IOS_SHARE_NONE:
		break;
	}
	return 1.0;
}

static bool mx_root(const char *cg)
{
	return !cg || !*cg || !strcmp(cg, "/");
}

static bool mx_same_group(const char *a, const char *b)
{
	if (mx_root(a) || mx_root(b))
		return mx_root(a) && mx_root(b);
	while (*a == '/')
		a++;
	while (*b == '/')
		b++;
	return !strcmp(a, b);
}

/*
 * Share @total among the entities @idx[0..n) (indices into @w/@cls) with
 * strict classes: only the best class present gets anything, by weight.
 */
static void mx_split(const size_t *idx, size_t n, const double *w, const int *cls, double total,
		     double *out)
{
	int best = IOS_IOPRIO_CLASS_IDLE + 1;
	double sum = 0.0;

	for (size_t k = 0; k < n; k++)
		if (cls[idx[k]] < best)
			best = cls[idx[k]];
	for (size_t k = 0; k < n; k++)
		if (cls[idx[k]] == best)
			sum += w[idx[k]];
	for (size_t k = 0; k < n; k++)
		out[idx[k]] = cls[idx[k]] == best && sum > 0.0 ? total * w[idx[k]] / sum : 0.0;
}

static int mx_ideal_sched(const struct ios_share_params *p, const struct ios_share_job *jobs,
			  size_t n, double *frac)
{
	/* entities: jobs 0..n-1, then groups n..2n-1 (at most one per job) */
	double *w = calloc(2 * n + 1, sizeof(*w)), *val = calloc(2 * n + 1, sizeof(*val));
	int *cls = calloc(2 * n + 1, sizeof(*cls));
	size_t *idx = calloc(2 * n + 1, sizeof(*idx)), *grp = calloc(n + 1, sizeof(*grp));
	size_t nr_groups = 0, m;
	int ret = -ENOMEM;

	if (!w || !val || !cls || !idx || !grp)
		goto out;
	ret = 0;
	if (!n)
		goto out;
	for (size_t i = 0; i < n; i++) {
		cls[i] = p->model == IOS_SHARE_NONE ? IOS_IOPRIO_CLASS_BE
						     : mx_class(jobs[i].ioprio_class);
		w[i] = ios_share_job_weight(p, jobs[i].ioprio_class, jobs[i].ioprio_level);
	}
	if (p->model != IOS_SHARE_CFQ_GROUP_SLICE && p->model != IOS_SHARE_BFQ_WEIGHT) {
		/* one flat round: no groups */
		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		mx_split(idx, n, w, cls, 1.0, frac);
		goto out;
	}
	/* group of each job: CFQ counts the root as a group, BFQ does not */
	for (size_t i = 0; i < n; i++) {
		size_t g;

		grp[i] = SIZE_MAX;
		if (p->model == IOS_SHARE_BFQ_WEIGHT && mx_root(jobs[i].cgroup))
			continue;
		for (g = 0; g < nr_groups; g++)
			if (mx_same_group(jobs[idx[g]].cgroup, jobs[i].cgroup))
				break;
		if (g == nr_groups) {
			unsigned cw = 0;

			/* the runner gives the group the weight any of its jobs sets */
			for (size_t k = 0; k < n && !cw; k++)
				if (mx_same_group(jobs[k].cgroup, jobs[i].cgroup))
					cw = jobs[k].cgroup_weight;
			idx[nr_groups++] = i;	/* the group's first job */
			w[n + g] = ios_share_group_weight(p, jobs[i].cgroup, cw);
			/* a group is a BE entity beside its siblings */
			cls[n + g] = IOS_IOPRIO_CLASS_BE;
		}
		grp[i] = g;
	}
	/* top level: the groups, and for BFQ the root group's own queues */
	m = 0;
	for (size_t g = 0; g < nr_groups; g++)
		idx[m++] = n + g;
	for (size_t i = 0; i < n; i++)
		if (grp[i] == SIZE_MAX)
			idx[m++] = i;
	mx_split(idx, m, w, cls, 1.0, val);
	for (size_t i = 0; i < n; i++)
		if (grp[i] == SIZE_MAX)
			frac[i] = val[i];
	/* inside each group */
	for (size_t g = 0; g < nr_groups; g++) {
		m = 0;
		for (size_t i = 0; i < n; i++)
			if (grp[i] == g)
				idx[m++] = i;
		mx_split(idx, m, w, cls, val[n + g], val);
		for (size_t k = 0; k < m; k++)
			frac[idx[k]] = val[idx[k]];
	}
out:
	free(w);
	free(val);
	free(cls);
	free(idx);
	free(grp);
	return ret;
}

/* ---- io.cost: hierarchical weights ---- */

#define MX_CGROUP_WEIGHT_DFL	100	/* CGROUP_WEIGHT_DFL, include/linux/cgroup.h */

/* the length of the parent of @path[0..len): up to its last '/', 0 for the top */
static size_t mx_parent_len(const char *path, size_t len)
{
	while (len && path[len - 1] != '/')
		len--;
	return len ? len - 1 : 0;
}

static size_t mx_skip_slash(const char **cg)
{
	while (*cg && **cg == '/')
		(*cg)++;
	return *cg ? strlen(*cg) : 0;
}

static double mx_io_weight(const struct ios_share_group *g, size_t ng, const char *path,
			   size_t len)
{
	for (size_t i = 0; i < ng; i++) {
		const char *gp = g[i].path;
		size_t gl = mx_skip_slash(&gp);

		if (gl == len && !memcmp(gp, path, len))
			return g[i].weight ? g[i].weight : MX_CGROUP_WEIGHT_DFL;
	}
	return MX_CGROUP_WEIGHT_DFL;
}

/* is @path[0..len) a job's group or an ancestor of one (an active node)? */
static bool mx_active(const struct ios_share_job *jobs, size_t n, const char *path, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		const char *cg = jobs[i].cgroup;
		size_t l = mx_skip_slash(&cg);

		if (l >= len && !memcmp(cg, path, len) && (l == len || cg[len] == '/'))
			return true;
	}
	return false;
}

/*
 * 6.12 blk-iocost.c current_hweight: from the root down, each level
 * multiplies by the node's active weight over its parent's
 * child_active_sum. An internal node's active weight is its own weight
 * (__propagate_weights sets parent_active = parent->weight), so with every
 * job's group active this is a product of io.weight ratios among the
 * active siblings at each level.
 */
double ios_share_hweight(const struct ios_share_job *jobs, size_t n,
			 const struct ios_share_group *groups, size_t ng, const char *cgroup)
{
	const char *path = cgroup;
	size_t len = mx_skip_slash(&path);
	double hw = 1.0;

	if (!len || !mx_active(jobs, n, path, len))
		return NAN;
	/* iocg_activate refuses a node whose descendants are active: it goes as the root */
	for (size_t i = 0; i < n; i++) {
		const char *cg = jobs[i].cgroup;
		size_t l = mx_skip_slash(&cg);

		if (l > len && !memcmp(cg, path, len) && cg[len] == '/')
			return NAN;
	}
	while (len) {
		size_t pl = mx_parent_len(path, len);
		double sum = 0.0;

		/* the active siblings: children of the parent that are active nodes */
		for (size_t i = 0; i < n; i++) {
			const char *cg = jobs[i].cgroup;
			size_t l = mx_skip_slash(&cg), end, dup = 0;

			if (l <= pl || (pl && (memcmp(cg, path, pl) || cg[pl] != '/')))
				continue;
			end = pl ? pl + 1 : 0;
			while (end < l && cg[end] != '/')
				end++;
			/* count each sibling once: the first job under it */
			for (size_t k = 0; k < i && !dup; k++) {
				const char *o = jobs[k].cgroup;
				size_t ol = mx_skip_slash(&o);

				dup = ol >= end && !memcmp(o, cg, end) && (ol == end || o[end] == '/');
			}
			if (!dup)
				sum += mx_io_weight(groups, ng, cg, end);
		}
		hw *= sum > 0.0 ? mx_io_weight(groups, ng, path, len) / sum : 0.0;
		len = pl;
	}
	return hw;
}

/* io.cost divides between the groups, the scheduler's model inside each */
static int mx_ideal_iocost(const struct ios_share_params *p, const struct ios_share_job *jobs,
			   size_t n, const struct ios_share_group *groups, size_t ng, double *frac)
{
	double *w = calloc(n + 1, sizeof(*w));
	int *cls = calloc(n + 1, sizeof(*cls));
	size_t *idx = calloc(n + 1, sizeof(*idx));
	bool *done = calloc(n + 1, sizeof(*done));
	int ret = -ENOMEM;

	if (!w || !cls || !idx || !done)
		goto out;
	ret = 0;
	for (size_t i = 0; i < n; i++) {
		cls[i] = p->model == IOS_SHARE_NONE ? IOS_IOPRIO_CLASS_BE
						     : mx_class(jobs[i].ioprio_class);
		w[i] = ios_share_job_weight(p, jobs[i].ioprio_class, jobs[i].ioprio_level);
		frac[i] = NAN;
	}
	for (size_t i = 0; i < n; i++) {
		double hw;
		size_t m = 0;

		if (done[i])
			continue;
		hw = ios_share_hweight(jobs, n, groups, ng, jobs[i].cgroup);
		for (size_t k = i; k < n; k++)
			if (!done[k] && mx_same_group(jobs[k].cgroup, jobs[i].cgroup)) {
				done[k] = true;
				idx[m++] = k;
			}
		if (isnan(hw))
			continue;	/* not charged by io.cost: no ideal */
		mx_split(idx, m, w, cls, hw, frac);
	}
out:
	free(w);
	free(cls);
	free(idx);
	free(done);
	return ret;
}

int ios_share_ideal_tree(const struct ios_share_params *p, const struct ios_share_job *jobs,
			 size_t n, const struct ios_share_group *groups, size_t ng, double *frac)
{
	switch (p->ctl) {
	case IOS_SHARE_CTL_IOCOST:
		return mx_ideal_iocost(p, jobs, n, groups, ng, frac);
	case IOS_SHARE_CTL_NONE:
		for (size_t i = 0; i < n; i++)
			frac[i] = NAN;
		return 0;
	case IOS_SHARE_CTL_SCHED:
		break;
	}
	return mx_ideal_sched(p, jobs, n, frac);
}

int ios_share_ideal(const struct ios_share_params *p, const struct ios_share_job *jobs,
		    size_t n, double *frac)
{
	return ios_share_ideal_tree(p, jobs, n, NULL, 0, frac);
}

double ios_share_group_weight(const struct ios_share_params *p, const char *cgroup,
			      unsigned cgroup_weight)
{
	switch (p->model) {
	case IOS_SHARE_CFQ_GROUP_SLICE:
		return mx_root(cgroup) ? MX_CFQ_WEIGHT_ROOT
				       : cgroup_weight ? cgroup_weight : MX_CFQ_WEIGHT_DEFAULT;
	case IOS_SHARE_BFQ_WEIGHT:
		return mx_root(cgroup) ? 0.0 : cgroup_weight ? cgroup_weight : MX_BFQ_GRP_WEIGHT;
	default:
		return 0.0;
	}
}

void ios_share_params_of(const struct ios_sched_type *st, const void *tunables,
			 struct ios_share_params *p)
{
	const struct ios_tunable *t;

	memset(p, 0, sizeof(*p));
	/* the descriptor says how it divides the disk (sched.h) */
	p->model = st ? st->share_model : IOS_SHARE_NONE;
	if (p->model != IOS_SHARE_CFQ_SLICE && p->model != IOS_SHARE_CFQ_GROUP_SLICE)
		return;
	p->slice_ns = 100 * 1000000ULL;		/* HZ/10, when all else fails */
	t = ios_tunable_find(st->tunables, "slice_sync");
	if (!t)
		return;
	if (tunables) {
		p->slice_ns = ios_tunable_get_u64(t, tunables);
	} else if (t->def) {
		uint64_t v;
		struct ios_err e = { 0 };

		if (!ios_tunable_parse(t, t->def, &v, "default", "", &e))
			p->slice_ns = v;
	}
}

void ios_share_describe(const struct ios_share_params *p, char *buf, size_t len)
{
	if (p->ctl == IOS_SHARE_CTL_NONE) {
		snprintf(buf, len, "no control: io.weight is written, but io.cost is not "
			 "enabled (io.cost.qos enable=1) and the scheduler reads no weight, "
			 "so nothing promises a share");
		return;
	}
	if (p->ctl == IOS_SHARE_CTL_IOCOST) {
		struct ios_share_params sp = *p;
		char inner[400];

		sp.ctl = IOS_SHARE_CTL_SCHED;
		ios_share_describe(&sp, inner, sizeof(inner));
		snprintf(buf, len, "io.cost hweight_active (6.12 current_hweight): each cgroup's "
			 "io.weight over the sum of its active siblings' (the groups with jobs in "
			 "or below them), multiplied down from the root; jobs in the root or in a "
			 "group with active descendants are not charged (no control); inside a "
			 "group: %s", inner);
		return;
	}
	switch (p->model) {
	case IOS_SHARE_CFQ_SLICE:
		snprintf(buf, len, "CFQ slice length per level, base + base/5*(4-prio) with "
			 "slice_sync %.6g ms; classes strict (RT, BE, IDLE); no groups",
			 (double)p->slice_ns / 1e6);
		return;
	case IOS_SHARE_CFQ_GROUP_SLICE:
		snprintf(buf, len, "CFQ group weight share (root 1000, cgroups cgroup_weight "
			 "or 500), then slice length per level, base + base/5*(4-prio) with "
			 "slice_sync %.6g ms; classes strict within a group",
			 (double)p->slice_ns / 1e6);
		return;
	case IOS_SHARE_BFQ_WEIGHT:
		snprintf(buf, len, "BFQ ioprio weight (8-prio)*10; a cgroup is one BE entity "
			 "of weight cgroup_weight or 100 beside the root's queues; classes strict");
		return;
	case IOS_SHARE_NONE:
		break;
	}
	snprintf(buf, len, "equal shares (the scheduler has no priorities or groups)");
}

long long ios_share_moyer_diff(uint64_t xferred, uint64_t ideal)
{
	if (!ideal)
		return 0;
	/* his numbers are consistent only with truncating integer division */
	return (long long)(xferred * 100 / ideal) - 100;
}

/* ---- one run's metrics ---- */

static char *mx_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void ios_cmp_run_free(struct ios_cmp_run *cr)
{
	for (size_t i = 0; cr->jobs && i < cr->nr_jobs; i++) {
		free(cr->jobs[i].name);
		free(cr->jobs[i].cgroup);
	}
	free(cr->jobs);
	for (size_t i = 0; cr->groups && i < cr->nr_groups; i++)
		free((char *)cr->groups[i].path);
	free(cr->groups);
	free(cr->label);
	memset(cr, 0, sizeof(*cr));
}

/*
 * p50 and p99 (@out[0], @out[1]) of the clat histograms in @s[0..n): false
 * if one with samples has none
 */
static bool mx_p99(const struct ios_lat_stat *const *s, size_t n, uint64_t *out, int *err)
{
	static const double pct[2] = { 50.0, 99.0 };
	struct ios_lat_stat all;
	bool ok = true, any = false;

	ios_lat_init(&all);
	for (size_t i = 0; i < n; i++) {
		if (!s[i]->n)
			continue;
		any = true;
		if (!s[i]->hist)
			ok = false;
	}
	if (!ok || !any)
		return false;
	if (ios_lat_enable_hist(&all)) {
		*err = -ENOMEM;
		return false;
	}
	for (size_t i = 0; i < n && ok; i++)
		if (ios_lat_merge(&all, s[i])) {
			*err = -ENOMEM;
			ok = false;
		}
	ok = ok && ios_lat_percentiles(&all, pct, 2, out) == 2;
	ios_lat_free(&all);
	return ok;
}

/* The mean of @s[0..n) weighted by their counts; NAN when none has a sample. */
static double mx_mean(const struct ios_lat_stat *const *s, size_t n)
{
	double sum = 0.0;
	uint64_t cnt = 0;

	for (size_t i = 0; i < n; i++) {
		sum += s[i]->mean * (double)s[i]->n;
		cnt += s[i]->n;
	}
	return cnt ? sum / (double)cnt : NAN;
}

/* A job's and the run's clat max, mean, p50 and p99 from their lat stats. */
static int mx_job_lat(struct ios_cmp_job *j, const struct ios_lat_stat *const *s, size_t n)
{
	uint64_t pc[2] = { 0, 0 };
	int err = 0;

	j->has_lat = false;
	j->clat_max_ns = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i]->n && (!j->has_lat || s[i]->max > j->clat_max_ns))
			j->clat_max_ns = s[i]->max;
		if (s[i]->n)
			j->has_lat = true;
	}
	j->clat_mean_ns = mx_mean(s, n);
	j->has_p99 = mx_p99(s, n, pc, &err);
	j->clat_p50_ns = pc[0];
	j->clat_p99_ns = pc[1];
	return err;
}

static int mx_run_lat(struct ios_cmp_run *cr, const struct ios_lat_stat *const *s, size_t n)
{
	uint64_t pc[2] = { 0, 0 };
	int err = 0;

	cr->clat_mean_ns = mx_mean(s, n);
	cr->has_p99 = mx_p99(s, n, pc, &err);
	cr->clat_p50_ns = pc[0];
	cr->clat_p99_ns = pc[1];
	return err;
}

/*
 * The row name of job result @i: its section, and ".K" for clone K of a
 * numjobs=N section (as the plot's series name them: plan.c), unless
 * group_reporting folded the clones into one row.
 */
static char *mx_job_name(const struct ios_run_result *r, size_t i)
{
	const struct ios_job_result *jr = &r->jobs[i];
	const char *name = jr->name ? jr->name : "";
	unsigned k = 0;
	char *out;
	size_t len;

	if (!jr->job || jr->job->numjobs <= 1 || jr->nr_merged > 1)
		return mx_strdup(name);
	for (size_t p = 0; p < i; p++)
		k += r->jobs[p].job == jr->job;
	len = strlen(name) + 16;
	out = malloc(len);
	if (out)
		snprintf(out, len, "%s.%u", name, k);
	return out;
}

int ios_cmp_run_summarise(struct ios_cmp_run *cr)
{
	size_t n = cr->nr_jobs;
	double *bw = calloc(n + 1, sizeof(*bw)), *frac = calloc(n + 1, sizeof(*frac));
	double *dt = calloc(n + 1, sizeof(*dt));
	uint64_t *fin = calloc(n + 1, sizeof(*fin));
	struct ios_share_job *sj = calloc(n + 1, sizeof(*sj));
	int ret = -ENOMEM;

	if (!bw || !frac || !fin || !sj || !dt)
		goto out;
	cr->total_device_ns = cr->total_charged_ns = 0;
	cr->total_bytes = 0;
	cr->first_start_ns = n ? UINT64_MAX : 0;
	cr->last_finish_ns = 0;
	cr->has_lat = false;
	cr->clat_max_ns = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ios_cmp_job *j = &cr->jobs[i];

		bw[i] = j->bw_kib;
		dt[i] = (double)j->device_time_ns;
		fin[i] = j->finish_ns;
		cr->total_device_ns += j->device_time_ns;
		cr->total_charged_ns += j->disk_time_ns;
		cr->total_bytes += j->bytes;
		if (j->start_ns < cr->first_start_ns)
			cr->first_start_ns = j->start_ns;
		if (j->finish_ns > cr->last_finish_ns)
			cr->last_finish_ns = j->finish_ns;
		if (j->has_lat) {
			if (!cr->has_lat || j->clat_max_ns > cr->clat_max_ns)
				cr->clat_max_ns = j->clat_max_ns;
			cr->has_lat = true;
		}
		sj[i].ioprio_class = j->ioprio_class;
		sj[i].ioprio_level = j->ioprio_level;
		sj[i].cgroup = j->cgroup;
		sj[i].cgroup_weight = j->cgroup_weight;
	}
	cr->agg_kib = cr->last_finish_ns > cr->first_start_ns
		? (double)cr->total_bytes / 1024.0 /
		  ((double)(cr->last_finish_ns - cr->first_start_ns) / 1e9)
		: 0.0;
	cr->jain_bw = ios_metric_jain(bw, n);
	cr->jain_time = ios_metric_jain(dt, n);
	for (size_t i = 0; i < n; i++) {
		struct ios_cmp_job *j = &cr->jobs[i];

		j->device_frac = cr->total_device_ns
			? (double)j->device_time_ns / (double)cr->total_device_ns : 0.0;
		j->charged_frac = cr->total_charged_ns
			? (double)j->disk_time_ns / (double)cr->total_charged_ns : 0.0;
	}
	cr->min_max_bw = ios_metric_min_max(bw, n);
	cr->finish_spread = ios_metric_spread(fin, n);
	ret = ios_share_ideal_tree(&cr->share, sj, n, cr->groups, cr->nr_groups, frac);
	if (ret)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct ios_cmp_job *j = &cr->jobs[i];
		unsigned cw = 0;

		j->share = frac[i];
		j->weight = ios_share_job_weight(&cr->share, j->ioprio_class, j->ioprio_level);
		j->group_share = NAN;
		if (cr->share.ctl == IOS_SHARE_CTL_IOCOST) {
			const char *cg = j->cgroup;
			size_t l = mx_skip_slash(&cg);

			j->group_share = ios_share_hweight(sj, n, cr->groups, cr->nr_groups, j->cgroup);
			j->group_weight = l ? mx_io_weight(cr->groups, cr->nr_groups, cg, l) : 0.0;
			continue;
		}
		/* the runner gives a group the weight any of its jobs sets */
		for (size_t k = 0; k < n && !cw; k++)
			if (mx_same_group(cr->jobs[k].cgroup, j->cgroup))
				cw = cr->jobs[k].cgroup_weight;
		j->group_weight = ios_share_group_weight(&cr->share, j->cgroup, cw);
	}
out:
	free(bw);
	free(dt);
	free(frac);
	free(fin);
	free(sj);
	return ret;
}

int ios_cmp_run_from_result(struct ios_cmp_run *cr, const char *label,
			    const struct ios_share_params *sp, const struct ios_run_result *r)
{
	const struct ios_lat_stat **all = NULL;
	size_t nr_all = 0;
	int err = 0;

	memset(cr, 0, sizeof(*cr));
	cr->label = mx_strdup(label ? label : r->scheduler);
	cr->jobs = calloc(r->nr_jobs + 1, sizeof(*cr->jobs));
	all = calloc(r->nr_jobs * IOS_DDIR_NR + 1, sizeof(*all));
	if (!cr->label || !cr->jobs || !all)
		goto nomem;
	snprintf(cr->scheduler, sizeof(cr->scheduler), "%s", r->scheduler);
	snprintf(cr->device, sizeof(cr->device), "%s", r->device);
	cr->seed = r->seed;
	cr->sim_end_ns = r->sim_end_ns;
	cr->share = *sp;
	/*
	 * The run's cgroup v2 settings pick who divides the device: io.cost
	 * once enabled (it sits above any scheduler), or nothing when io.weight
	 * was written for a scheduler that reads no weight (none, mq-deadline,
	 * kyber; BFQ keeps its own model, by io.bfq.weight)
	 */
	if (r->iocost_enabled)
		cr->share.ctl = IOS_SHARE_CTL_IOCOST;
	else if (r->io_weight_written && sp->model == IOS_SHARE_NONE)
		cr->share.ctl = IOS_SHARE_CTL_NONE;
	if (r->nr_cgroups) {
		cr->groups = calloc(r->nr_cgroups, sizeof(*cr->groups));
		if (!cr->groups)
			goto nomem;
		for (size_t i = 0; i < r->nr_cgroups; i++) {
			char *gp = mx_strdup(r->cgroups[i].path ? r->cgroups[i].path : "");

			if (!gp)
				goto nomem;
			cr->groups[i].path = gp;
			cr->groups[i].weight = r->cgroups[i].io_weight;
			cr->nr_groups++;
		}
	}
	cr->charges_time = r->sched_charges_time;
	cr->nr_jobs = r->nr_jobs;
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *jr = &r->jobs[i];
		struct ios_cmp_job *j = &cr->jobs[i];
		const struct ios_lat_stat *mine[IOS_DDIR_NR];
		const char *cg = jr->cgroup;

		/* "/a" and "a" are the same cgroup (the runner strips the slashes) */
		while (cg && *cg == '/')
			cg++;
		j->name = mx_job_name(r, i);
		j->cgroup = cg && *cg ? mx_strdup(cg) : NULL;
		if (!j->name || (cg && *cg && !j->cgroup))
			goto nomem;
		j->ioprio_class = jr->ioprio_class;
		j->ioprio_level = jr->ioprio_level;
		j->cgroup_weight = jr->cgroup_weight;
		/* the group's weight as the run set it (io.bfq.weight replaces cgroup_weight=) */
		for (size_t g = 0; g < r->nr_cgroups; g++) {
			const char *gp = r->cgroups[g].path;

			if (j->cgroup && gp && mx_skip_slash(&gp) && !strcmp(gp, j->cgroup) &&
			    r->cgroups[g].weight_set)
				j->cgroup_weight = r->cgroups[g].weight_set;
		}
		j->start_ns = jr->start_ns;
		j->finish_ns = jr->finish_ns;
		j->disk_time_ns = jr->disk_time_ns;
		j->device_time_ns = jr->device_time_ns;
		for (int d = 0; d < IOS_DDIR_NR; d++) {
			const struct ios_dir_result *dr = ios_job_dir(jr, d);

			j->bytes += dr->io_bytes;
			if (dr->runtime_ns > j->runtime_ns)
				j->runtime_ns = dr->runtime_ns;
			mine[d] = &dr->clat;
			all[nr_all++] = &dr->clat;
		}
		j->bw_kib = j->runtime_ns ? (double)j->bytes / 1024.0 / ((double)j->runtime_ns / 1e9)
					  : 0.0;
		if (mx_job_lat(j, mine, IOS_DDIR_NR))
			goto nomem;
	}
	err = mx_run_lat(cr, all, nr_all);
	if (err || ios_cmp_run_summarise(cr))
		goto nomem;
	free(all);
	return 0;
nomem:
	free(all);
	ios_cmp_run_free(cr);
	return -ENOMEM;
}

int ios_cmp_run_window(struct ios_cmp_run *cr, const struct ios_run_result *r, uint64_t from_ns)
{
	const struct ios_lat_stat **all = calloc(cr->nr_jobs + 1, sizeof(*all));

	if (!all)
		return -ENOMEM;
	cr->from_ns = from_ns;
	for (size_t i = 0; i < cr->nr_jobs && i < r->nr_jobs; i++) {
		const struct ios_job_result *jr = &r->jobs[i];
		struct ios_cmp_job *j = &cr->jobs[i];
		const struct ios_lat_stat *mine = &jr->win_clat;
		/* fio counts nothing before the ramp's end; the window starts at the later */
		uint64_t begin = jr->start_ns + (jr->job ? jr->job->ramp_time_ns : 0);

		if (begin < from_ns)
			begin = from_ns;
		j->bytes = jr->win_bytes;
		j->runtime_ns = j->finish_ns > begin ? j->finish_ns - begin : 0;
		j->bw_kib = j->runtime_ns ? (double)j->bytes / 1024.0 / ((double)j->runtime_ns / 1e9)
					  : 0.0;
		if (mx_job_lat(j, &mine, 1)) {
			free(all);
			return -ENOMEM;
		}
		all[i] = mine;
	}
	if (mx_run_lat(cr, all, cr->nr_jobs < r->nr_jobs ? cr->nr_jobs : r->nr_jobs) ||
	    ios_cmp_run_summarise(cr)) {
		free(all);
		return -ENOMEM;
	}
	/* the aggregate over the window: from its start, not the jobs' */
	if (cr->last_finish_ns > from_ns && from_ns > cr->first_start_ns)
		cr->agg_kib = (double)cr->total_bytes / 1024.0 /
			      ((double)(cr->last_finish_ns - from_ns) / 1e9);
	free(all);
	return 0;
}

/* Sums of @v over buckets [a, b) (a missing tail is 0). */
static uint64_t mx_bucket_sum(const uint64_t *v, size_t len, size_t a, size_t b)
{
	uint64_t sum = 0;

	for (size_t k = a; k < b && k < len; k++)
		sum += v[k];
	return sum;
}

/* Is @a more than IOS_CMP_HALVES_RATIO times @b, or @b than @a? (both > 0) */
static bool mx_far(double a, double b)
{
	if (!(a > 0.0) || !(b > 0.0))
		return (a > 0.0) != (b > 0.0);
	return a > IOS_CMP_HALVES_RATIO * b || b > IOS_CMP_HALVES_RATIO * a;
}

void ios_cmp_run_halves(struct ios_cmp_run *cr, const struct ios_series *s)
{
	size_t first = SIZE_MAX, last = 0, from, mid;
	uint64_t w;

	cr->has_halves = false;
	if (!s || !s->bucket_ns || s->nr_jobs < cr->nr_jobs)
		return;
	w = s->bucket_ns;
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		const struct ios_series_job *sj = &s->jobs[i];

		for (size_t k = 0; k < sj->len; k++)
			if (sj->bytes[k]) {
				if (k < first)
					first = k;
				if (k + 1 > last)
					last = k + 1;
			}
	}
	from = (size_t)((cr->from_ns + w - 1) / w);	/* the first whole bucket in the window */
	if (first < from)
		first = from;
	if (first == SIZE_MAX || last < first + 2)
		return;
	mid = first + (last - first) / 2;
	cr->has_halves = true;
	cr->half_start_ns = first * w;
	cr->half_mid_ns = mid * w;
	cr->half_end_ns = last * w;
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		const struct ios_series_job *sj = &s->jobs[i];
		struct ios_cmp_job *j = &cr->jobs[i];
		size_t edge[3] = { first, mid, last };

		for (int h = 0; h < 2; h++) {
			uint64_t n = mx_bucket_sum(sj->lat_n, sj->lat_n_len, edge[h], edge[h + 1]);
			uint64_t b = mx_bucket_sum(sj->bytes, sj->len, edge[h], edge[h + 1]);

			j->half_has_lat[h] = n > 0;
			j->half_clat_mean_ns[h] = n ? (double)mx_bucket_sum(sj->lat_sum, sj->lat_len,
									     edge[h], edge[h + 1]) / (double)n
						    : NAN;
			j->half_bw_kib[h] = (double)b / 1024.0 /
					    ((double)((edge[h + 1] - edge[h]) * w) / 1e9);
		}
		j->halves_differ = mx_far(j->half_bw_kib[0], j->half_bw_kib[1]) ||
				   (j->half_has_lat[0] && j->half_has_lat[1] &&
				    mx_far(j->half_clat_mean_ns[0], j->half_clat_mean_ns[1]));
	}
}

bool ios_cmp_jobs_differ(const struct ios_cmp_run *cr)
{
	for (size_t i = 1; i < cr->nr_jobs; i++) {
		const struct ios_cmp_job *a = &cr->jobs[0], *b = &cr->jobs[i];

		if (mx_class(a->ioprio_class) != mx_class(b->ioprio_class) ||
		    a->ioprio_level != b->ioprio_level || !mx_same_group(a->cgroup, b->cgroup))
			return true;
	}
	return false;
}

void ios_cmp_share_rows(const struct ios_cmp_run *cr, struct ios_share_row *rows,
			uint64_t *total_kib, double *total_priority)
{
	uint64_t total = 0;
	double prio = 0.0;

	uint64_t controlled = 0;

	for (size_t i = 0; i < cr->nr_jobs; i++) {
		total += cr->jobs[i].bytes / 1024;
		prio += cr->jobs[i].weight;
		if (!isnan(cr->jobs[i].share))
			controlled += cr->jobs[i].bytes / 1024;
	}
	for (size_t i = 0; i < cr->nr_jobs; i++) {
		struct ios_share_row *row = &rows[i];
		/* a hair above so that exact quotients (887264 / 8) do not round down */
		double ideal = (double)controlled * cr->jobs[i].share;

		row->has_ideal = !isnan(cr->jobs[i].share);
		if (!row->has_ideal)
			ideal = 0.0;
		row->xferred_kib = cr->jobs[i].bytes / 1024;
		row->ideal_kib = (uint64_t)floor(ideal * (1.0 + 1e-12));
		row->has_diff = row->ideal_kib > 0;
		row->diff_pct = ios_share_moyer_diff(row->xferred_kib, row->ideal_kib);
		row->exact_diff_pct = ideal > 0.0 ? 100.0 * ((double)row->xferred_kib - ideal) / ideal
						  : 0.0;
	}
	*total_kib = total;
	*total_priority = prio;
}
