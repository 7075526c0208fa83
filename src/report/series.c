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

/* Fold ten buckets into one, in every series. */
static void sr_coarsen(struct ios_series *s)
{
	for (size_t j = 0; j < s->nr_jobs; j++) {
		struct ios_series_job *sj = &s->jobs[j];
		size_t n = (sj->len + 9) / 10;

		for (size_t i = 0; i < n; i++) {
			uint64_t sum = 0;

			for (size_t k = i * 10; k < i * 10 + 10 && k < sj->len; k++)
				sum += sj->bytes[k];
			sj->bytes[i] = sum;
		}
		sj->len = n;
	}
	s->bucket_ns *= 10;
}

int ios_series_add(struct ios_series *s, size_t job, uint64_t t_ns, uint64_t bytes)
{
	struct ios_series_job *sj = &s->jobs[job];
	size_t idx;

	while (t_ns / s->bucket_ns >= IOS_SERIES_MAX_BUCKETS)
		sr_coarsen(s);
	idx = (size_t)(t_ns / s->bucket_ns);
	if (idx >= sj->cap) {
		size_t cap = sj->cap ? sj->cap : 64;
		uint64_t *v;

		while (cap <= idx)
			cap *= 2;
		if (cap > IOS_SERIES_MAX_BUCKETS)
			cap = IOS_SERIES_MAX_BUCKETS;
		v = realloc(sj->bytes, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		sj->bytes = v;
		sj->cap = cap;
	}
	if (idx >= sj->len) {
		memset(sj->bytes + sj->len, 0, (idx + 1 - sj->len) * sizeof(*sj->bytes));
		sj->len = idx + 1;
	}
	sj->bytes[idx] += bytes;
	sj->total += bytes;
	return 0;
}

void ios_series_free(struct ios_series *s)
{
	if (!s)
		return;
	for (size_t j = 0; j < s->nr_jobs; j++) {
		free(s->jobs[j].label);
		free(s->jobs[j].bytes);
		free(s->jobs[j].cgroup);
	}
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}
