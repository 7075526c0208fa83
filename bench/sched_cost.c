/*
 * Benchmark: scheduler-only CPU cost per request.
 *
 * Calls one scheduler's hooks directly on a hand-built queue, so neither
 * the block layer (merging, hashing, request allocation) nor a device model
 * is measured. The queue is pre-filled with N requests at random sectors
 * (seeded PRNG, 3/4 reads); then, in steady state, every step inserts one
 * request, dispatches one and completes it, so N stay queued. The figure is
 * wall time per step, i.e. insert + dispatch + complete for one request, in
 * ns, best of several repetitions because the machines are shared.
 *
 * The last column is the memory the queued requests occupy: once it
 * outgrows the caches, every level of a sector tree costs a cache miss, so
 * wall time grows faster than the (logarithmic) instruction count.
 *
 * The fake clock advances 1 us per step, so with N = 100k a request waits
 * about 100 ms, below deadline's 500 ms read_expire: the numbers are for
 * the sorted walk, not the expiry path. Printed, never asserted. Targets:
 * at most 100 ns per request and logarithmic growth with N.
 *
 * usage: sched_cost [steps]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iosched/ios.h"

struct bench_q {
	struct ios_queue q;
	const struct ios_sched_type *t;
	struct ios_request *pool;	/* N + 1 requests, recycled */
	struct ios_request *spare;	/* the one not queued */
	struct ios_rand rnd;
	uint64_t now;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void bench_fill_rq(struct bench_q *b, struct ios_request *rq)
{
	uint64_t r = ios_rand_u64(&b->rnd);

	memset(rq, 0, sizeof(*rq));
	rq->sector = (r >> 8) & ((1ULL << 31) - 1);	/* within 1 TiB */
	rq->nr_sectors = 8;
	rq->dir = (r & 3) == 0 ? IOS_WRITE : IOS_READ;
	rq->q = &b->q;
	ios_list_init(&rq->queuelist);
	ios_rb_clear(&rq->rb_node);
	rq->elv_sorted = 1;
}

static void bench_insert(struct bench_q *b, struct ios_request *rq)
{
	bench_fill_rq(b, rq);
	rq->insert_ns = b->now;
	b->q.nr_sorted++;
	b->t->ops.insert(&b->q, rq, b->now, 0);
}

static int bench_setup(struct bench_q *b, const char *sched, size_t n)
{
	struct ios_err e = { 0 };

	memset(b, 0, sizeof(*b));
	b->t = ios_sched_find(sched);
	if (!b->t)
		return -ENOENT;
	b->q.sched = b->t;
	b->q.depth = 1;
	b->q.rotational = true;
	b->q.sched_data = calloc(1, b->t->priv_size ? b->t->priv_size : 1);
	b->pool = calloc(n + 1, sizeof(*b->pool));
	if (!b->q.sched_data || !b->pool)
		return -ENOMEM;
	if (b->t->tunables && ios_tunable_defaults(b->t->tunables, b->q.sched_data, &e)) {
		fprintf(stderr, "%s: %s\n", sched, e.msg);
		return -EINVAL;
	}
	if (b->t->ops.init(&b->q))
		return -EINVAL;
	ios_rand_seed(&b->rnd, 42, 0);
	for (size_t i = 0; i < n; i++)
		bench_insert(b, &b->pool[i]);
	b->spare = &b->pool[n];
	return 0;
}

static void bench_teardown(struct bench_q *b)
{
	struct ios_request *rq;

	while ((rq = b->t->ops.dispatch(&b->q, b->now, IOS_DISPATCH_FORCE)) != NULL)
		b->q.nr_sorted--;
	b->t->ops.exit(&b->q);
	free(b->q.sched_data);
	free(b->pool);
}

/* @steps steady-state steps; returns ns per step, or a negative errno. */
static double bench_run(struct bench_q *b, long steps)
{
	double t0, t1;

	t0 = now_ns();
	for (long i = 0; i < steps; i++) {
		struct ios_request *rq;

		b->now += IOS_NSEC_PER_USEC;
		bench_insert(b, b->spare);
		rq = b->t->ops.dispatch(&b->q, b->now, 0);
		if (!rq)
			return -EIO;
		b->q.nr_sorted--;
		b->q.rq_in_driver++;
		b->t->ops.completed(&b->q, rq, b->now);
		b->q.rq_in_driver--;
		b->spare = rq;
	}
	t1 = now_ns();
	return (t1 - t0) / (double)steps;
}

int main(int argc, char **argv)
{
	static const char *const scheds[] = { "noop", "deadline" };
	static const size_t sizes[] = { 1, 1000, 10000, 100000 };
	long steps = argc > 1 ? atol(argv[1]) : 1000000;

	if (steps <= 0) {
		fprintf(stderr, "usage: sched_cost [steps]\n");
		return 2;
	}
	printf("scheduler-only cost: insert + dispatch + complete per request (best of 5, %ld steps)\n",
	       steps);
	printf("%-10s %10s %12s %14s\n", "scheduler", "queued", "ns/request", "requests KiB");
	for (size_t s = 0; s < sizeof(scheds) / sizeof(scheds[0]); s++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			double best = 0;

			for (int rep = 0; rep < 5; rep++) {
				struct bench_q b;
				double ns;
				int ret = bench_setup(&b, scheds[s], sizes[z]);

				if (ret) {
					fprintf(stderr, "%s: set-up failed (%d)\n", scheds[s], ret);
					return 1;
				}
				bench_run(&b, steps / 10);	/* warm up */
				ns = bench_run(&b, steps);
				bench_teardown(&b);
				if (ns < 0) {
					fprintf(stderr, "%s: dispatch returned nothing\n", scheds[s]);
					return 1;
				}
				if (rep == 0 || ns < best)
					best = ns;
			}
			printf("%-10s %10zu %12.1f %14zu\n", scheds[s], sizes[z], best,
			       sizes[z] * sizeof(struct ios_request) / 1024);
		}
	}
	return 0;
}
