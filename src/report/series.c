/*
 * Per-job bytes over time in fixed buckets (include/iosched/plot.h).
 *
 * The runner adds every completed I/O; a bucket is an array index, so an
 * add is O(1) except when the array grows (doubling) or the run outlasts
 * IOS_SERIES_MAX_BUCKETS buckets, when every series folds ten buckets into
 * one. Folding by ten keeps bucket widths at 10^k ms, so any 1-2-5 window
 * the plot picks at or above the width is a whole number of buckets.
 */
#include <string.h>
#include "iosched/plot.h"
#include "iosched/timeline.h"

#define SR_FIRST_NS 1000000ULL	/* 1 ms */

int ios_series_init(struct ios_series *s, size_t nr_jobs)
{
	memset(s, 0, sizeof(*s));
	s->bucket_ns = SR_FIRST_NS;
	s->jobs = calloc(nr_jobs ? nr_jobs : 1, sizeof(*s->jobs));
	if (!s->jobs)
		return -ENOMEM;
	s->nr_jobs = nr_jobs;
	return 0;
}

int ios_series_set_label(struct ios_series *s, size_t job, const char *label)
{
	char *l = strdup(label ? label : "");

	if (!l)
		return -ENOMEM;
	free(s->jobs[job].label);
	s->jobs[job].label = l;
	return 0;
}

/* Fold ten buckets of @v into one. */
static void sr_fold(uint64_t *v, size_t *len)
{
	size_t n = (*len + 9) / 10;

	for (size_t i = 0; i < n; i++) {
		uint64_t sum = 0;

		for (size_t k = i * 10; k < i * 10 + 10 && k < *len; k++)
			sum += v[k];
		v[i] = sum;
	}
	*len = n;
}

/* Fold ten buckets into one, in every series. */
static void sr_coarsen(struct ios_series *s)
{
	for (size_t j = 0; j < s->nr_jobs; j++) {
		sr_fold(s->jobs[j].bytes, &s->jobs[j].len);
		sr_fold(s->jobs[j].disk, &s->jobs[j].disk_len);
		sr_fold(s->jobs[j].cached, &s->jobs[j].cached_len);
		sr_fold(s->jobs[j].lat_sum, &s->jobs[j].lat_len);
		sr_fold(s->jobs[j].lat_n, &s->jobs[j].lat_n_len);
		sr_fold(s->jobs[j].charged, &s->jobs[j].charged_len);
	}
	for (size_t g = 0; g < s->nr_cgs; g++)
		sr_fold(s->cgs[g].bytes, &s->cgs[g].len);
	s->bucket_ns *= 10;
}

/* @bytes into bucket @idx of the array @v (@len used, @cap allocated). */
static int sr_put(uint64_t **v, size_t *len, size_t *cap, size_t idx, uint64_t bytes)
{
	if (idx >= *cap) {
		size_t c = *cap ? *cap : 64;
		uint64_t *nv;

		while (c <= idx)
			c *= 2;
		if (c > IOS_SERIES_MAX_BUCKETS)
			c = IOS_SERIES_MAX_BUCKETS;
		nv = realloc(*v, c * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	if (idx >= *len) {
		memset(*v + *len, 0, (idx + 1 - *len) * sizeof(**v));
		*len = idx + 1;
	}
	(*v)[idx] += bytes;
	return 0;
}

/* @bytes at @t_ns into one of a job's arrays, the buckets widened first if need be. */
static int sr_add(struct ios_series *s, uint64_t **v, size_t *len, size_t *cap, uint64_t *total,
		  uint64_t t_ns, uint64_t bytes)
{
	while (t_ns / s->bucket_ns >= IOS_SERIES_MAX_BUCKETS)
		sr_coarsen(s);
	if (sr_put(v, len, cap, (size_t)(t_ns / s->bucket_ns), bytes))
		return -ENOMEM;
	*total += bytes;
	return 0;
}

int ios_series_add(struct ios_series *s, size_t job, uint64_t t_ns, uint64_t bytes)
{
	struct ios_series_job *sj = &s->jobs[job];

	return sr_add(s, &sj->bytes, &sj->len, &sj->cap, &sj->total, t_ns, bytes);
}

int ios_series_add_disk(struct ios_series *s, size_t job, uint64_t t_ns, uint64_t bytes)
{
	struct ios_series_job *sj = &s->jobs[job];

	return sr_add(s, &sj->disk, &sj->disk_len, &sj->disk_cap, &sj->disk_total, t_ns, bytes);
}

int ios_series_add_cached(struct ios_series *s, size_t job, uint64_t t_ns, uint64_t bytes)
{
	struct ios_series_job *sj = &s->jobs[job];

	return sr_add(s, &sj->cached, &sj->cached_len, &sj->cached_cap, &sj->cached_total, t_ns,
		      bytes);
}

int ios_series_add_lat(struct ios_series *s, size_t job, uint64_t t_ns, uint64_t clat_ns)
{
	struct ios_series_job *sj = &s->jobs[job];

	if (sr_add(s, &sj->lat_sum, &sj->lat_len, &sj->lat_cap, &sj->lat_sum_total, t_ns, clat_ns))
		return -ENOMEM;
	return sr_add(s, &sj->lat_n, &sj->lat_n_len, &sj->lat_n_cap, &sj->lat_n_total, t_ns, 1);
}

int ios_series_add_charged(struct ios_series *s, unsigned cg_id, const char *path,
			   uint64_t t_ns, uint64_t bytes)
{
	struct ios_series_cg *cg;

	if (cg_id >= s->nr_cgs) {
		size_t n = (size_t)cg_id + 1;
		struct ios_series_cg *v = realloc(s->cgs, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + s->nr_cgs, 0, (n - s->nr_cgs) * sizeof(*v));
		s->cgs = v;
		s->nr_cgs = n;
	}
	cg = &s->cgs[cg_id];
	if (!cg->path && !(cg->path = strdup(path ? path : "")))
		return -ENOMEM;
	return sr_add(s, &cg->bytes, &cg->len, &cg->cap, &cg->total, t_ns, bytes);
}

void ios_series_free(struct ios_series *s)
{
	if (!s)
		return;
	for (size_t j = 0; j < s->nr_jobs; j++) {
		free(s->jobs[j].label);
		free(s->jobs[j].bytes);
		free(s->jobs[j].cgroup);
		free(s->jobs[j].disk);
		free(s->jobs[j].cached);
		free(s->jobs[j].lat_sum);
		free(s->jobs[j].lat_n);
		free(s->jobs[j].charged);
	}
	free(s->jobs);
	for (size_t g = 0; g < s->nr_cgs; g++) {
		free(s->cgs[g].path);
		free(s->cgs[g].bytes);
	}
	free(s->cgs);
	if (!s->timeline_borrowed) {
		ios_timeline_free(s->timeline);
		free(s->timeline);
	}
	memset(s, 0, sizeof(*s));
}
