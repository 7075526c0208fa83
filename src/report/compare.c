/*
 * `iosched compare`: the columns and the report (compare.h, part 3).
 *
 * A column is a scheduler with, optionally, its own settings:
 * "cfq:fairness=1:slice_idle=0". Every column is checked here, before the
 * command line starts any run, against the same tables the runner uses
 * (scheduler, queue, vm, lab and device tunables), so that a typo in the
 * sixth column cannot surface after five runs have been paid for. Each
 * check works on a scratch copy and the runner repeats it for real.
 *
 * The report sets the columns side by side: one block of rows per metric,
 * one row per job, then the summary over all jobs, then, when the jobs
 * differ in class, level or cgroup (or when asked), Jeff Moyer's share
 * table per column with the model its "ideal" came from. The JSON writer
 * carries the same numbers. Both are functions of the runs alone.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/compare.h"
#include "iosched/scope.h"
#include "jsonw.h"

/* ---- columns ---- */

static char *cc_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

void ios_cmp_columns_free(struct ios_cmp_column *cols, size_t nr)
{
	for (size_t i = 0; cols && i < nr; i++) {
		free(cols[i].label);
		ios_settings_free(&cols[i].settings);
	}
	free(cols);
}

static void cc_sched_names(char *buf, size_t len)
{
	const struct ios_sched_type *st;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; (st = ios_sched_at(i)) != NULL && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", st->name);
}

/* the tunables a user may set, for "has no tunable" messages */
static void cc_tunable_names(const struct ios_tunable *tab, char *buf, size_t len)
{
	const struct ios_tunable *t;
	size_t used = 0;

	buf[0] = '\0';
	ios_tunable_for_each(t, tab) {
		if (t->flags & (IOS_TUN_HIDDEN | IOS_TUN_RO) || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t->name);
	}
	if (!used)
		snprintf(buf, len, "none");
}

static int cc_apply_table(struct ios_settings *set, enum ios_scope_id id, struct ios_err *e)
{
	void *scratch = calloc(1, ios_scope_get(id)->size);
	int ret;

	if (!scratch)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = ios_scope_setup(id, set, scratch, e);
	free(scratch);
	return ret;
}

/*
 * Check one column's settings on scratch copies of everything the runner
 * would set, in the runner's order, and take the share model from the
 * scheduler's tunables as set.
 */
static int cc_check_column(struct ios_cmp_column *c, const char *device, struct ios_err *e)
{
	const struct ios_sched_type *st = c->sched;
	struct ios_settings set = { 0 };
	struct ios_dev *dev;
	void *priv = NULL;
	int ret;

	if (ios_settings_copy(&set, &c->settings))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = cc_apply_table(&set, IOS_SCOPE_LAB, e);
	if (!ret)
		ret = cc_apply_table(&set, IOS_SCOPE_VM, e);
	if (!ret)
		ret = cc_apply_table(&set, IOS_SCOPE_QUEUE, e);
	if (ret)
		goto out;
	dev = ios_dev_create(device ? device : IOS_DEV_DEFAULT_PROFILE, &set, 0, e);
	if (!dev) {
		ret = e->code ? e->code : -EINVAL;
		goto out;
	}
	ios_dev_destroy(dev);

	for (size_t i = 0; i < set.n; i++) {
		const struct ios_setting *s = &set.v[i];
		char names[1024];

		if (strchr(s->name, '.'))
			continue;
		if (st->tunables && ios_tunable_find(st->tunables, s->name))
			continue;
		cc_tunable_names(st->tunables, names, sizeof(names));
		ret = IOS_ERR(e, -ENOENT, "%s has no tunable '%s' (its tunables: %s)",
			      s->origin, s->name, names);
		goto out;
	}
	priv = calloc(1, st->priv_size ? st->priv_size : 1);
	if (!priv) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	if (st->tunables) {
		ret = ios_tunable_defaults(st->tunables, priv, e);
		if (!ret)
			ret = ios_settings_apply_for(&set, "", st->tunables, priv, st->name, e);
		if (ret)
			goto out;
	}
	ios_share_params_of(st, st->tunables ? priv : NULL, &c->share);

	for (size_t i = 0; i < set.n; i++) {
		const struct ios_setting *s = &set.v[i];
		const struct ios_scope *sc = ios_scope_of(s->name);
		char hint[256];

		/* cgroup.PATH.*: the run checks them against the workload's groups */
		if (!s->used && strchr(s->name, '.') && !(sc && sc->resolve == IOS_SCOPE_PATTERN)) {
			ret = IOS_ERR(e, -ENOENT, "%s: unknown tunable '%s': names are %s (see "
				      "'iosched list')", s->origin, s->name,
				      ios_scope_hint(hint, sizeof(hint)));
			goto out;
		}
	}
out:
	free(priv);
	ios_settings_free(&set);
	return ret;
}

/* "cfq:fairness=1:slice_idle=0" (@len bytes of @spec) into @c */
static int cc_parse_column(struct ios_cmp_column *c, const char *spec, size_t len,
			   const struct ios_settings *global, struct ios_err *e)
{
	const char *colon = memchr(spec, ':', len);
	size_t nlen = colon ? (size_t)(colon - spec) : len;
	char name[128], origin[300];

	c->label = cc_strndup(spec, len);
	if (!c->label)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (!nlen || nlen >= sizeof(name)) {
		return IOS_ERR(e, -EINVAL, "--schedulers: '%s': expected SCHEDULER[:NAME=VALUE...]",
			       c->label);
	}
	memcpy(name, spec, nlen);
	name[nlen] = '\0';
	c->sched = ios_sched_find(name);
	if (!c->sched) {
		char names[512];

		cc_sched_names(names, sizeof(names));
		return IOS_ERR(e, -ENOENT, "--schedulers: unknown scheduler '%s' (known: %s)",
			       name, names);
	}
	/* --set first, the column's own after: later settings win */
	if (global) {
		for (size_t i = 0; i < global->n; i++) {
			const struct ios_setting *s = &global->v[i];

			if (!strchr(s->name, '.') &&
			    !(c->sched->tunables && ios_tunable_find(c->sched->tunables, s->name)))
				continue;	/* a bare --set for other schedulers */
			if (ios_settings_add(&c->settings, s->name, s->value, s->origin))
				return IOS_ERR(e, -ENOMEM, "out of memory");
		}
	}
	while (colon) {
		const char *kv = colon + 1, *end = spec + len;
		const char *next = memchr(kv, ':', (size_t)(end - kv));
		size_t kvlen = (size_t)((next ? next : end) - kv);
		const char *dot = memchr(kv, '.', kvlen), *eq = memchr(kv, '=', kvlen);
		char *item = cc_strndup(kv, kvlen);
		int ret;

		if (!item)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		/* messages about a bare name say whose tunable it was meant to be */
		if (dot && (!eq || dot < eq))
			snprintf(origin, sizeof(origin), "--schedulers %s", c->label);
		else
			snprintf(origin, sizeof(origin), "--schedulers %s: scheduler '%s'", c->label,
				 c->sched->name);
		ret = ios_settings_add_kv(&c->settings, item, origin, e);
		free(item);
		if (ret)
			return ret;
		colon = next;
	}
	return 0;
}

int ios_cmp_columns_parse(const char *list, const struct ios_settings *global,
			  const char *device, struct ios_cmp_column **cols, size_t *nr,
			  struct ios_err *e)
{
	struct ios_cmp_column *v = NULL;
	const struct ios_sched_type *st;
	size_t n = 0, cap = 0;
	int ret = 0;

	*cols = NULL;
	*nr = 0;
	if (list && !*list)
		return IOS_ERR(e, -EINVAL, "--schedulers: empty list");
	for (size_t i = 0;; i++) {
		const char *spec;
		size_t len;

		if (list) {
			const char *comma;

			if (!*list)
				break;
			comma = strchr(list, ',');
			spec = list;
			len = comma ? (size_t)(comma - list) : strlen(list);
			list = comma ? comma + 1 : list + len;
			if (!len || (comma && !*list)) {
				ret = IOS_ERR(e, -EINVAL, "--schedulers: empty entry in the list");
				goto fail;
			}
		} else {
			st = ios_sched_at(i);
			if (!st)
				break;
			spec = st->name;
			len = strlen(spec);
		}
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			struct ios_cmp_column *nv = realloc(v, ncap * sizeof(*nv));

			if (!nv) {
				ret = IOS_ERR(e, -ENOMEM, "out of memory");
				goto fail;
			}
			v = nv;
			cap = ncap;
		}
		memset(&v[n], 0, sizeof(v[n]));
		n++;
		ret = cc_parse_column(&v[n - 1], spec, len, global, e);
		if (ret)
			goto fail;
	}
	/* a bare --set that no compared scheduler has is a typo, not a no-op */
	for (size_t i = 0; global && i < global->n; i++) {
		const struct ios_setting *s = &global->v[i];
		bool taken = false;

		if (strchr(s->name, '.'))
			continue;
		for (size_t k = 0; k < n && !taken; k++)
			taken = v[k].sched->tunables && ios_tunable_find(v[k].sched->tunables, s->name);
		if (!taken) {
			ret = IOS_ERR(e, -ENOENT, "%s%s%s=%s: none of the compared schedulers has a "
				      "tunable '%s' (see 'iosched list')", s->origin,
				      *s->origin ? ": " : "", s->name, s->value, s->name);
			goto fail;
		}
	}
	for (size_t k = 0; k < n; k++) {
		ret = cc_check_column(&v[k], device, e);
		if (ret)
			goto fail;
	}
	*cols = v;
	*nr = n;
	return 0;
fail:
	ios_cmp_columns_free(v, n);
	return ret;
}

/* ---- the text report ---- */

static const char *cc_class_name(int c)
{
	switch (c) {
	case IOS_IOPRIO_CLASS_RT:
		return "rt";
	case IOS_IOPRIO_CLASS_IDLE:
		return "idle";
	default:
		return "be";
	}
}

/* the jobs of the first run name the rows; every column ran the same jobs */
static size_t cc_nr_jobs(const struct ios_cmp_report *rep)
{
	size_t n = rep->nr_runs ? rep->runs[0].nr_jobs : 0;

	for (size_t c = 1; c < rep->nr_runs; c++)
		if (rep->runs[c].nr_jobs < n)
			n = rep->runs[c].nr_jobs;
	return n;
}

enum cc_metric {
	CC_BW, CC_FINISH, CC_LAT_MAX, CC_LAT_P99,
	CC_AGG, CC_MAKESPAN, CC_ALL_LAT_MAX, CC_ALL_LAT_P99, CC_JAIN, CC_MINMAX, CC_SPREAD,
};

static void cc_cell(const struct ios_cmp_run *r, size_t job, enum cc_metric m, char *buf,
		    size_t len)
{
	const struct ios_cmp_job *j = job < r->nr_jobs ? &r->jobs[job] : NULL;

	snprintf(buf, len, "-");
	switch (m) {
	case CC_BW:
		snprintf(buf, len, "%.0f", j->bw_kib);
		break;
	case CC_FINISH:
		snprintf(buf, len, "%.3f", (double)j->finish_ns / 1e9);
		break;
	case CC_LAT_MAX:
		if (j->has_lat)
			snprintf(buf, len, "%.3f", (double)j->clat_max_ns / 1e6);
		break;
	case CC_LAT_P99:
		if (j->has_p99)
			snprintf(buf, len, "%.3f", (double)j->clat_p99_ns / 1e6);
		break;
	case CC_AGG:
		snprintf(buf, len, "%.0f", r->agg_kib);
		break;
	case CC_MAKESPAN:
		snprintf(buf, len, "%.3f", (double)(r->last_finish_ns - r->first_start_ns) / 1e9);
		break;
	case CC_ALL_LAT_MAX:
		if (r->has_lat)
			snprintf(buf, len, "%.3f", (double)r->clat_max_ns / 1e6);
		break;
	case CC_ALL_LAT_P99:
		if (r->has_p99)
			snprintf(buf, len, "%.3f", (double)r->clat_p99_ns / 1e6);
		break;
	case CC_JAIN:
		if (isfinite(r->jain_bw))
			snprintf(buf, len, "%.4f", r->jain_bw);
		break;
	case CC_MINMAX:
		if (isfinite(r->min_max_bw))
			snprintf(buf, len, "%.3f", r->min_max_bw);
		break;
	case CC_SPREAD:
		snprintf(buf, len, "%.1f%%", 100.0 * r->finish_spread);
		break;
	}
}

struct cc_layout {
	int label_w;
	int *col_w;
};

static void cc_row(struct ios_buf *out, const struct ios_cmp_report *rep,
		   const struct cc_layout *lay, const char *label, size_t job, enum cc_metric m)
{
	ios_buf_printf(out, "%-*s", lay->label_w, label);
	for (size_t c = 0; c < rep->nr_runs; c++) {
		char cell[64];

		cc_cell(&rep->runs[c], job, m, cell, sizeof(cell));
		ios_buf_printf(out, "  %*s", lay->col_w[c], cell);
	}
	ios_buf_puts(out, "\n");
}

static void cc_job_block(struct ios_buf *out, const struct ios_cmp_report *rep,
			 const struct cc_layout *lay, const char *title, enum cc_metric m)
{
	size_t nj = cc_nr_jobs(rep);

	ios_buf_printf(out, "%s\n", title);
	for (size_t i = 0; i < nj; i++) {
		char label[160];

		snprintf(label, sizeof(label), "  %s", rep->runs[0].jobs[i].name);
		cc_row(out, rep, lay, label, i, m);
	}
}

static bool cc_has_groups(const struct ios_cmp_run *r)
{
	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].cgroup)
			return true;
	return false;
}

static bool cc_same_group(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int cc_shares_text(struct ios_buf *out, const struct ios_cmp_run *r)
{
	struct ios_share_row *rows = calloc(r->nr_jobs + 1, sizeof(*rows));
	bool groups = cc_has_groups(r);
	uint64_t total;
	double prio;
	char model[512];

	if (!rows)
		return -ENOMEM;
	ios_cmp_share_rows(r, rows, &total, &prio);
	ios_share_describe(&r->share, model, sizeof(model));
	ios_buf_printf(out, "\n%s (%s): ideal from %s\n", r->label, r->scheduler, model);
	ios_buf_printf(out, "total priority: %.6g\n", prio);
	if (groups && (r->share.model == IOS_SHARE_CFQ_GROUP_SLICE ||
		       r->share.model == IOS_SHARE_BFQ_WEIGHT)) {
		/* the level above the queues: each group once, in job order */
		ios_buf_puts(out, "group weights:");
		for (size_t i = 0; i < r->nr_jobs; i++) {
			const struct ios_cmp_job *j = &r->jobs[i];
			size_t k;

			for (k = 0; k < i; k++)
				if (cc_same_group(r->jobs[k].cgroup, j->cgroup))
					break;
			if (k < i || (!j->cgroup && r->share.model == IOS_SHARE_BFQ_WEIGHT))
				continue;
			ios_buf_printf(out, " %s=%.6g", j->cgroup ? j->cgroup : "/", j->group_weight);
		}
		ios_buf_puts(out, r->share.model == IOS_SHARE_BFQ_WEIGHT
			     ? " (the root's own queues compete with these by their weight)\n" : "\n");
	}
	ios_buf_printf(out, "total data transferred: %" PRIu64 "\n", total);
	ios_buf_printf(out, "%-5s %4s %10s %10s %6s  %s%s\n", "class", "prio", "ideal", "xferred",
		       "%diff", groups ? "cgroup          " : "", "job");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_cmp_job *j = &r->jobs[i];
		char diff[32], grp[64];

		if (rows[i].has_diff)
			snprintf(diff, sizeof(diff), "%lld", rows[i].diff_pct);
		else
			snprintf(diff, sizeof(diff), "-");
		if (groups)
			snprintf(grp, sizeof(grp), "%-15s ", j->cgroup ? j->cgroup : "/");
		else
			grp[0] = '\0';
		ios_buf_printf(out, "%-5s %4d %10" PRIu64 " %10" PRIu64 " %6s  %s%s\n",
			       cc_class_name(j->ioprio_class), j->ioprio_level, rows[i].ideal_kib,
			       rows[i].xferred_kib, diff, grp, j->name);
	}
	if (r->finish_spread > 0.01)
		ios_buf_printf(out, "note: the jobs stopped at different times (finish spread "
			       "%.1f%%), so their transfers reflect their sizes as well as the "
			       "shares; time-based jobs (runtime=, time_based) measure shares\n",
			       100.0 * r->finish_spread);
	free(rows);
	return 0;
}

int ios_cmp_report_text(const struct ios_cmp_report *rep, struct ios_buf *out)
{
	static const char *const summary[] = {
		"  aggregate (KiB/s)", "  makespan (s)", "  clat max (ms)", "  clat p99 (ms)",
		"  Jain's index (bw)", "  min/max bw", "  finish spread",
	};
	static const enum cc_metric summary_m[] = {
		CC_AGG, CC_MAKESPAN, CC_ALL_LAT_MAX, CC_ALL_LAT_P99, CC_JAIN, CC_MINMAX, CC_SPREAD,
	};
	struct cc_layout lay = { 0 };
	size_t nj = cc_nr_jobs(rep);
	bool shares = rep->shares;

	if (!rep->nr_runs)
		return 0;
	lay.col_w = calloc(rep->nr_runs, sizeof(*lay.col_w));
	if (!lay.col_w)
		return -ENOMEM;
	lay.label_w = 20;
	for (size_t i = 0; i < nj; i++) {
		int w = 2 + (int)strlen(rep->runs[0].jobs[i].name);

		if (w > lay.label_w)
			lay.label_w = w;
	}
	for (size_t c = 0; c < rep->nr_runs; c++) {
		int w = (int)strlen(rep->runs[c].label);

		lay.col_w[c] = w > 9 ? w : 9;
		shares = shares || ios_cmp_jobs_differ(&rep->runs[c]);
	}

	ios_buf_puts(out, "iosched compare:");
	for (size_t i = 0; i < rep->nr_jobfiles; i++)
		ios_buf_printf(out, " %s", rep->jobfiles[i]);
	ios_buf_printf(out, "\ndevice %s, seed %" PRIu64 ", %zu job%s, the same jobs and seed "
		       "under each scheduler\n\n", rep->runs[0].device, rep->runs[0].seed, nj,
		       nj == 1 ? "" : "s");
	ios_buf_printf(out, "%-*s", lay.label_w, "");
	for (size_t c = 0; c < rep->nr_runs; c++)
		ios_buf_printf(out, "  %*s", lay.col_w[c], rep->runs[c].label);
	ios_buf_puts(out, "\n");
	cc_job_block(out, rep, &lay, "bandwidth (KiB/s)", CC_BW);
	cc_job_block(out, rep, &lay, "finish (s)", CC_FINISH);
	cc_job_block(out, rep, &lay, "clat max (ms)", CC_LAT_MAX);
	cc_job_block(out, rep, &lay, "clat p99 (ms)", CC_LAT_P99);
	ios_buf_puts(out, "all jobs\n");
	for (size_t k = 0; k < IOS_ARRAY_SIZE(summary); k++)
		cc_row(out, rep, &lay, summary[k], 0, summary_m[k]);
	ios_buf_puts(out,
"\nbandwidth: a job's bytes over its I/O runtime; finish: the simulated time it ended.\n"
"clat: completion latency (fio's clat), reads and writes together; p99 from fio's\n"
"histogram. aggregate: all jobs' bytes / (last finish - first start). Jain's index is\n"
"over the per-job bandwidths, (sum bw)^2 / (n * sum bw^2): 1 when all jobs got the same\n"
"bandwidth, 1/n when one job got everything. min/max bw: the slowest job's bandwidth\n"
"over the fastest's. finish spread: (max - min) / max of the jobs' finish times.\n");
	if (shares) {
		ios_buf_puts(out,
"\nShares (Jeff Moyer's table): ideal = total transferred * the job's share under the\n"
"scheduler's weights; ideal and xferred in KiB; %diff = xferred * 100 / ideal - 100 in\n"
"integer arithmetic, as in his table; '-' where the model gives the job nothing.\n");
		for (size_t c = 0; c < rep->nr_runs; c++) {
			if (cc_shares_text(out, &rep->runs[c])) {
				free(lay.col_w);
				return -ENOMEM;
			}
		}
	}
	free(lay.col_w);
	return out->oom ? -ENOMEM : 0;
}

/* ---- JSON ---- */

static void cc_js_opt_u64(struct ios_jw *w, const char *key, bool has, uint64_t v)
{
	if (has)
		ios_jw_u64(w, key, v);
	else
		ios_jw_null(w, key);
}

static int cc_js_run(struct ios_jw *w, const struct ios_cmp_run *r, bool shares)
{
	struct ios_share_row *rows = calloc(r->nr_jobs + 1, sizeof(*rows));
	uint64_t total;
	double prio;
	char model[512];

	if (!rows)
		return -ENOMEM;
	ios_cmp_share_rows(r, rows, &total, &prio);
	ios_jw_open(w, NULL, '{');
	ios_jw_str(w, "label", r->label);
	ios_jw_str(w, "scheduler", r->scheduler);
	ios_jw_u64(w, "sim_end_ns", r->sim_end_ns);
	ios_jw_open(w, "jobs", '[');
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_cmp_job *j = &r->jobs[i];

		ios_jw_open(w, NULL, '{');
		ios_jw_str(w, "name", j->name);
		ios_jw_str(w, "class", cc_class_name(j->ioprio_class));
		ios_jw_int(w, "prio", j->ioprio_level);
		ios_jw_str(w, "cgroup", j->cgroup);
		ios_jw_u64(w, "cgroup_weight", j->cgroup_weight);
		ios_jw_u64(w, "bytes", j->bytes);
		ios_jw_u64(w, "runtime_ns", j->runtime_ns);
		ios_jw_dbl(w, "bw_kib", j->bw_kib);
		ios_jw_u64(w, "start_ns", j->start_ns);
		ios_jw_u64(w, "finish_ns", j->finish_ns);
		cc_js_opt_u64(w, "clat_max_ns", j->has_lat, j->clat_max_ns);
		cc_js_opt_u64(w, "clat_p99_ns", j->has_p99, j->clat_p99_ns);
		ios_jw_dbl(w, "weight", j->weight);
		ios_jw_dbl(w, "group_weight", j->group_weight);
		ios_jw_dbl(w, "ideal_share", j->share);
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, ']');
	ios_jw_open(w, "all_jobs", '{');
	ios_jw_u64(w, "bytes", r->total_bytes);
	ios_jw_dbl(w, "aggregate_kib", r->agg_kib);
	ios_jw_u64(w, "makespan_ns", r->last_finish_ns - r->first_start_ns);
	cc_js_opt_u64(w, "clat_max_ns", r->has_lat, r->clat_max_ns);
	cc_js_opt_u64(w, "clat_p99_ns", r->has_p99, r->clat_p99_ns);
	ios_jw_dbl(w, "jain_index_bw", r->jain_bw);
	ios_jw_dbl(w, "min_max_bw", r->min_max_bw);
	ios_jw_dbl(w, "finish_spread", r->finish_spread);
	ios_jw_close(w, '}');
	if (shares) {
		ios_share_describe(&r->share, model, sizeof(model));
		ios_jw_open(w, "shares", '{');
		ios_jw_str(w, "model", model);
		ios_jw_dbl(w, "total_priority", prio);
		ios_jw_u64(w, "total_kib", total);
		ios_jw_open(w, "rows", '[');
		for (size_t i = 0; i < r->nr_jobs; i++) {
			ios_jw_open(w, NULL, '{');
			ios_jw_str(w, "job", r->jobs[i].name);
			ios_jw_str(w, "class", cc_class_name(r->jobs[i].ioprio_class));
			ios_jw_int(w, "prio", r->jobs[i].ioprio_level);
			ios_jw_u64(w, "ideal_kib", rows[i].ideal_kib);
			ios_jw_u64(w, "xferred_kib", rows[i].xferred_kib);
			if (rows[i].has_diff) {
				ios_jw_int(w, "diff_pct", rows[i].diff_pct);
				ios_jw_dbl(w, "diff_pct_exact", rows[i].exact_diff_pct);
			} else {
				ios_jw_str(w, "diff_pct", NULL);
				ios_jw_str(w, "diff_pct_exact", NULL);
			}
			ios_jw_close(w, '}');
		}
		ios_jw_close(w, ']');
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, '}');
	free(rows);
	return 0;
}

int ios_cmp_report_json(const struct ios_cmp_report *rep, struct ios_buf *out)
{
	struct ios_jw w;
	bool shares = rep->shares;

	for (size_t c = 0; c < rep->nr_runs; c++)
		shares = shares || ios_cmp_jobs_differ(&rep->runs[c]);
	ios_jw_init(&w, out);
	ios_jw_open(&w, NULL, '{');
	ios_jw_open(&w, "iosched_compare", '{');
	ios_jw_str(&w, "version", IOS_VERSION_STRING);
	ios_jw_open(&w, "jobfiles", '[');
	for (size_t i = 0; i < rep->nr_jobfiles; i++)
		ios_jw_str(&w, NULL, rep->jobfiles[i]);
	ios_jw_close(&w, ']');
	ios_jw_str(&w, "device", rep->nr_runs ? rep->runs[0].device : NULL);
	ios_jw_u64(&w, "seed", rep->nr_runs ? rep->runs[0].seed : 0);
	ios_jw_str(&w, "bandwidth_unit", "KiB/s");
	ios_jw_str(&w, "jain_index_over", "per-job bandwidth (bytes / I/O runtime)");
	ios_jw_str(&w, "finish_spread_def", "(max - min) / max of the jobs' finish times");
	ios_jw_open(&w, "runs", '[');
	for (size_t c = 0; c < rep->nr_runs; c++)
		if (cc_js_run(&w, &rep->runs[c], shares))
			return -ENOMEM;
	ios_jw_close(&w, ']');
	ios_jw_close(&w, '}');
	ios_jw_close(&w, '}');
	ios_buf_puts(out, "\n");
	return out->oom ? -ENOMEM : 0;
}
