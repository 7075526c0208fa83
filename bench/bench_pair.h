/*
 * Paired timing for the scheduler microbenchmarks (sched_cost, cfq_cost,
 * bfq_cost): each repetition times the loop that calls the scheduler and a
 * baseline loop that does the same harness work without it (reading the
 * pre-generated random numbers, memset and filling a request, the counters),
 * back to back, the order alternating between repetitions, and the figure is
 * the median over the repetitions of the difference. So what the harness
 * costs is not charged to the scheduler, and a load spike on the shared
 * machine moves one pair, not the median. The random numbers are generated
 * before any timed loop.
 */
#ifndef BENCH_PAIR_H
#define BENCH_PAIR_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "iosched/rand.h"

#define BENCH_REPS	5

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* keeps the baseline's stores: nothing may be folded across it */
#define bench_barrier()	__asm__ __volatile__("" ::: "memory")

/* A pre-generated random sequence, read in order and wrapping around. */
struct bench_seq {
	uint64_t *v;
	size_t len;
};

static inline int bench_seq_init(struct bench_seq *s, size_t len, uint64_t seed)
{
	struct ios_rand rnd;

	s->v = malloc(len * sizeof(*s->v));
	s->len = len;
	if (!s->v)
		return -1;
	ios_rand_seed(&rnd, seed, 0);
	for (size_t i = 0; i < len; i++)
		s->v[i] = ios_rand_u64(&rnd);
	return 0;
}

static inline uint64_t bench_seq_next(const struct bench_seq *s, size_t *pos)
{
	uint64_t r = s->v[*pos];

	if (++*pos == s->len)
		*pos = 0;
	return r;
}

static inline void bench_seq_free(struct bench_seq *s)
{
	free(s->v);
	s->v = NULL;
}

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* median of @n values; sorts them */
static inline double bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
