/*
 * Series grouped by cgroup or by ioprio class and level
 * (include/iosched/series_group.h).
 *
 * The groups are found in one pass over the jobs (a job's group is looked
 * up among the groups found so far: few groups, however many jobs), then
 * each group's buckets are the sums of its jobs'. The input is not
 * changed; the output is a series set like the runner's, so the plot
 * draws it as it draws jobs.
 */
#include <stdio.h>
#include <string.h>
#include "iosched/request.h"
#include "iosched/series_group.h"

int ios_series_set_group(struct ios_series *s, size_t job, const char *cgroup,
			 int ioprio_class, int ioprio_level)
{
	struct ios_series_job *sj = &s->jobs[job];
	char *c = strdup(cgroup ? cgroup : "");

	if (!c)
		return -ENOMEM;
	free(sj->cgroup);
	sj->cgroup = c;
	sj->ioprio_class = ioprio_class;
	sj->ioprio_level = ioprio_level;
	return 0;
}

static const char *sg_cgroup(const struct ios_series_job *sj)
{
	return sj->cgroup ? sj->cgroup : "";
}

/* RT0..RT7, BE0..BE7, IDLE: one key per line of a class plot */
static int sg_class_key(const struct ios_series_job *sj)
{
	if (sj->ioprio_class == IOS_IOPRIO_CLASS_IDLE)
		return IOS_IOPRIO_CLASS_IDLE * 8;
	return sj->ioprio_class * 8 + (sj->ioprio_level & 7);
}

static bool sg_same(const struct ios_series_job *a, const struct ios_series_job *b,
		    enum ios_plot_by by)
{
	if (by == IOS_PLOT_BY_CGROUP)
		return !strcmp(sg_cgroup(a), sg_cgroup(b));
	return sg_class_key(a) == sg_class_key(b);
}

size_t ios_series_nr_cgroups(const struct ios_series *s)
{
	size_t n = 0;

	for (size_t j = 0; j < s->nr_jobs; j++) {
		size_t k = 0;

		while (k < j && !sg_same(&s->jobs[k], &s->jobs[j], IOS_PLOT_BY_CGROUP))
			k++;
		n += k == j;
	}
	return n;
}

enum ios_plot_by ios_plot_by_resolve(const struct ios_series *s, enum ios_plot_by by)
{
	if (by != IOS_PLOT_BY_AUTO)
		return by;
	if (s && s->nr_jobs > IOS_PLOT_AUTO_JOBS && ios_series_nr_cgroups(s) > 1)
		return IOS_PLOT_BY_CGROUP;
	return IOS_PLOT_BY_JOB;
}

const char *ios_plot_by_name(enum ios_plot_by by)
{
	switch (by) {
	case IOS_PLOT_BY_JOB:
		return "job";
	case IOS_PLOT_BY_CGROUP:
		return "cgroup";
	case IOS_PLOT_BY_CLASS:
		return "class";
	case IOS_PLOT_BY_AUTO:
		return "auto";
	}
	return "?";
}

/* Add @src[0..slen) into *@dst, grown to at least @slen buckets; -ENOMEM. */
static int sg_add_arr(uint64_t **dst, size_t *dlen, size_t *dcap, const uint64_t *src,
		      size_t slen)
{
	if (slen > *dcap) {
		uint64_t *nv = realloc(*dst, slen * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		memset(nv + *dcap, 0, (slen - *dcap) * sizeof(*nv));
		*dst = nv;
		*dcap = slen;
	}
	for (size_t i = 0; i < slen; i++)
		(*dst)[i] += src[i];
	if (slen > *dlen)
		*dlen = slen;
	return 0;
}

/* The clat sums and counts of @src added into @dst (a group's: its jobs' I/O together). */
static int sg_add_lat(struct ios_series_job *dst, const struct ios_series_job *src)
{
	if (sg_add_arr(&dst->lat_sum, &dst->lat_len, &dst->lat_cap, src->lat_sum, src->lat_len) ||
	    sg_add_arr(&dst->lat_n, &dst->lat_n_len, &dst->lat_n_cap, src->lat_n, src->lat_n_len))
		return -ENOMEM;
	dst->lat_sum_total += src->lat_sum_total;
	dst->lat_n_total += src->lat_n_total;
	return 0;
}

static int sg_copy_job(struct ios_series_job *dst, const struct ios_series_job *src)
{
	dst->label = strdup(src->label ? src->label : "");
	dst->cgroup = strdup(sg_cgroup(src));
	dst->bytes = src->len ? malloc(src->len * sizeof(*dst->bytes)) : NULL;
	if (!dst->label || !dst->cgroup || (src->len && !dst->bytes))
		return -ENOMEM;
	if (src->len)
		memcpy(dst->bytes, src->bytes, src->len * sizeof(*dst->bytes));
	dst->len = dst->cap = src->len;
	dst->total = src->total;
	if (src->disk_len) {
		dst->disk = malloc(src->disk_len * sizeof(*dst->disk));
		if (!dst->disk)
			return -ENOMEM;
		memcpy(dst->disk, src->disk, src->disk_len * sizeof(*dst->disk));
		dst->disk_len = dst->disk_cap = src->disk_len;
	}
	dst->disk_total = src->disk_total;
	if (src->cached_len) {
		dst->cached = malloc(src->cached_len * sizeof(*dst->cached));
		if (!dst->cached)
			return -ENOMEM;
		memcpy(dst->cached, src->cached, src->cached_len * sizeof(*dst->cached));
		dst->cached_len = dst->cached_cap = src->cached_len;
	}
	dst->cached_total = src->cached_total;
	dst->ioprio_class = src->ioprio_class;
	dst->ioprio_level = src->ioprio_level;
	return sg_add_lat(dst, src);
}

static void sg_label(const struct ios_series_job *first, enum ios_plot_by by, size_t members,
		     char *buf, size_t len)
{
	char name[160];

	if (by == IOS_PLOT_BY_CGROUP) {
		const char *p = sg_cgroup(first);

		snprintf(name, sizeof(name), "%s%s", *p == '/' ? "" : "/", p);
	} else if (first->ioprio_class == IOS_IOPRIO_CLASS_IDLE) {
		snprintf(name, sizeof(name), "IDLE");
	} else {
		snprintf(name, sizeof(name), "%s%d",
			 first->ioprio_class == IOS_IOPRIO_CLASS_RT ? "RT" : "BE",
			 first->ioprio_level & 7);
	}
	if (by == IOS_PLOT_BY_CGROUP || members > 1)
		snprintf(buf, len, "%s (%zu job%s)", name, members, members == 1 ? "" : "s");
	else
		snprintf(buf, len, "%s", name);
}

/*
 * The groups of @in: @rep[g] is the first job of group g (groups in order
 * of appearance, or of class key), @grp[j] job j's group. The count.
 */
static size_t sg_groups(const struct ios_series *in, enum ios_plot_by by, size_t *rep,
			size_t *grp)
{
	size_t n = 0;

	for (size_t j = 0; j < in->nr_jobs; j++) {
		size_t g = 0;

		while (g < n && !sg_same(&in->jobs[rep[g]], &in->jobs[j], by))
			g++;
		if (g == n)
			rep[n++] = j;
	}
	if (by == IOS_PLOT_BY_CLASS) {
		/* insertion sort by key: at most 17 groups */
		for (size_t i = 1; i < n; i++) {
			size_t r = rep[i], k = i;

			while (k && sg_class_key(&in->jobs[rep[k - 1]]) > sg_class_key(&in->jobs[r])) {
				rep[k] = rep[k - 1];
				k--;
			}
			rep[k] = r;
		}
	}
	for (size_t j = 0; j < in->nr_jobs; j++) {
		size_t g = 0;

		while (!sg_same(&in->jobs[rep[g]], &in->jobs[j], by))
			g++;
		grp[j] = g;
	}
	return n;
}

/* The device side recorded for cgroup @path, NULL when none was charged to it. */
static const struct ios_series_cg *sg_charged_of(const struct ios_series *in, const char *path)
{
	for (size_t g = 0; g < in->nr_cgs; g++)
		if (in->cgs[g].path && in->cgs[g].total && !strcmp(in->cgs[g].path, path))
			return &in->cgs[g];
	return NULL;
}

/* Whether a job of @in sits in cgroup @path. */
static bool sg_has_jobs(const struct ios_series *in, const char *path)
{
	for (size_t j = 0; j < in->nr_jobs; j++)
		if (!strcmp(sg_cgroup(&in->jobs[j]), path))
			return true;
	return false;
}

/* @cg's device side into line @sj (charged[]); -ENOMEM. */
static int sg_put_charged(struct ios_series_job *sj, const struct ios_series_cg *cg)
{
	if (!cg || !cg->len)
		return 0;
	sj->charged = malloc(cg->len * sizeof(*sj->charged));
	if (!sj->charged)
		return -ENOMEM;
	memcpy(sj->charged, cg->bytes, cg->len * sizeof(*sj->charged));
	sj->charged_len = sj->charged_cap = cg->len;
	sj->charged_total = cg->total;
	return 0;
}

/*
 * Lines by cgroup get each cgroup's device side; cgroups with requests
 * charged to them but no job (the root's journal or metadata writes, a
 * parent) get a line of their own after the others, device side only.
 */
static int sg_add_charged(const struct ios_series *in, struct ios_series *out, size_t n)
{
	size_t k = n;

	for (size_t g = 0; g < n; g++)
		if (sg_put_charged(&out->jobs[g], sg_charged_of(in, out->jobs[g].cgroup)))
			return -ENOMEM;
	for (size_t g = 0; g < in->nr_cgs; g++) {
		const struct ios_series_cg *cg = &in->cgs[g];
		char label[200];

		if (!cg->path || !cg->total || sg_has_jobs(in, cg->path))
			continue;
		snprintf(label, sizeof(label), "%s%s (0 jobs)", *cg->path == '/' ? "" : "/",
			 cg->path);
		if (ios_series_set_label(out, k, label) ||
		    ios_series_set_group(out, k, cg->path, IOS_IOPRIO_CLASS_BE, IOS_IOPRIO_NORM) ||
		    sg_put_charged(&out->jobs[k], cg))
			return -ENOMEM;
		k++;
	}
	return 0;
}

/* cgroups with bytes charged to them and no job */
static size_t sg_nr_jobless(const struct ios_series *in)
{
	size_t n = 0;

	for (size_t g = 0; g < in->nr_cgs; g++)
		n += in->cgs[g].path && in->cgs[g].total && !sg_has_jobs(in, in->cgs[g].path);
	return n;
}

int ios_series_aggregate(const struct ios_series *in, enum ios_plot_by by,
			 struct ios_series *out)
{
	size_t *rep = NULL, *grp = NULL, *members = NULL, n;
	int ret = -ENOMEM;

	by = ios_plot_by_resolve(in, by);
	if (by != IOS_PLOT_BY_JOB && by != IOS_PLOT_BY_CGROUP && by != IOS_PLOT_BY_CLASS) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	if (by == IOS_PLOT_BY_JOB) {
		if (ios_series_init(out, in->nr_jobs))
			return -ENOMEM;
		out->bucket_ns = in->bucket_ns;
		out->end_ns = in->end_ns;
		for (size_t j = 0; j < in->nr_jobs; j++) {
			if (sg_copy_job(&out->jobs[j], &in->jobs[j])) {
				ios_series_free(out);
				return -ENOMEM;
			}
		}
		/*
		 * The timeline's lanes are the jobs, so a per-job copy draws it;
		 * grouped lines would not match its lanes and go without.
		 */
		out->timeline = in->timeline;
		out->timeline_borrowed = true;
		return 0;
	}
	rep = calloc(in->nr_jobs + 1, sizeof(*rep));
	grp = calloc(in->nr_jobs + 1, sizeof(*grp));
	members = calloc(in->nr_jobs + 1, sizeof(*members));
	if (!rep || !grp || !members)
		goto out;
	n = sg_groups(in, by, rep, grp);
	if (ios_series_init(out, n + (by == IOS_PLOT_BY_CGROUP ? sg_nr_jobless(in) : 0)))
		goto out;
	out->bucket_ns = in->bucket_ns;
	out->end_ns = in->end_ns;
	for (size_t j = 0; j < in->nr_jobs; j++) {
		struct ios_series_job *g = &out->jobs[grp[j]];

		members[grp[j]]++;
		if (in->jobs[j].len > g->len)
			g->len = in->jobs[j].len;
		if (in->jobs[j].disk_len > g->disk_len)
			g->disk_len = in->jobs[j].disk_len;
		if (in->jobs[j].cached_len > g->cached_len)
			g->cached_len = in->jobs[j].cached_len;
	}
	for (size_t g = 0; g < n; g++) {
		const struct ios_series_job *first = &in->jobs[rep[g]];
		struct ios_series_job *sj = &out->jobs[g];
		char label[256];

		sg_label(first, by, members[g], label, sizeof(label));
		sj->cap = sj->len;
		sj->bytes = sj->len ? calloc(sj->len, sizeof(*sj->bytes)) : NULL;
		sj->disk_cap = sj->disk_len;
		sj->disk = sj->disk_len ? calloc(sj->disk_len, sizeof(*sj->disk)) : NULL;
		sj->cached_cap = sj->cached_len;
		sj->cached = sj->cached_len ? calloc(sj->cached_len, sizeof(*sj->cached)) : NULL;
		if ((sj->len && !sj->bytes) || (sj->disk_len && !sj->disk) ||
		    (sj->cached_len && !sj->cached) || ios_series_set_label(out, g, label) ||
		    ios_series_set_group(out, g, sg_cgroup(first), first->ioprio_class,
					 first->ioprio_level))
			goto fail;
	}
	for (size_t j = 0; j < in->nr_jobs; j++) {
		const struct ios_series_job *src = &in->jobs[j];
		struct ios_series_job *g = &out->jobs[grp[j]];

		for (size_t i = 0; i < src->len; i++)
			g->bytes[i] += src->bytes[i];
		for (size_t i = 0; i < src->disk_len; i++)
			g->disk[i] += src->disk[i];
		g->total += src->total;
		for (size_t i = 0; i < src->cached_len; i++)
			g->cached[i] += src->cached[i];
		g->disk_total += src->disk_total;
		g->cached_total += src->cached_total;
		if (sg_add_lat(g, src))
			goto fail;
	}
	if (by == IOS_PLOT_BY_CGROUP && sg_add_charged(in, out, n))
		goto fail;
	ret = 0;
	goto out;
fail:
	ios_series_free(out);
out:
	free(rep);
	free(grp);
	free(members);
	return ret;
}

void ios_series_group_words(const struct ios_series *in, enum ios_plot_by by, char *buf,
			    size_t len)
{
	size_t groups = 0, *rep, *grp;

	by = ios_plot_by_resolve(in, by);
	if (by == IOS_PLOT_BY_JOB || !in) {
		snprintf(buf, len, "one line per job");
		return;
	}
	rep = calloc(in->nr_jobs + 1, sizeof(*rep));
	grp = calloc(in->nr_jobs + 1, sizeof(*grp));
	if (rep && grp)
		groups = sg_groups(in, by, rep, grp);
	if (by == IOS_PLOT_BY_CGROUP)
		groups += sg_nr_jobless(in);	/* their device side has a line too */
	free(rep);
	free(grp);
	snprintf(buf, len, "one line per %s (%zu for %zu jobs)",
		 by == IOS_PLOT_BY_CGROUP ? "cgroup" : "class and level", groups, in->nr_jobs);
}
