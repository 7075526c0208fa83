/*
 * Benchmark: scheduler-only CPU cost per request.
 *
 * Calls one scheduler's hooks directly on a hand-built queue, so neither
 * the block layer (merging, hashing, request allocation) nor a device model
 * is measured. The queue is pre-filled with N requests at random sectors
 * (seeded PRNG, 3/4 reads); then, in steady state, every step inserts one
 * request, dispatches one and completes it, so N stay queued. The figure is
 * wall time per step, i.e. insert + dispatch + complete for one request, in
 * ns, less what the harness itself costs per step: the random numbers are
 * generated before timing, and a baseline loop that fills a request (memset,
 * fields from the same sequence) and bumps the counters without calling the
 * scheduler is timed beside each run, alternating (bench/bench_pair.h); the
 * median of 5 paired differences is printed, and the baseline apart.
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
#include "iosched/ios.h"
#include "bench_args.h"
#include "bench_pair.h"

struct bench_q {
	struct ios_queue q;
	const struct ios_sched_type *t;
	struct ios_request *pool;	/* N + 1 requests, recycled */
	struct ios_request *spare;	/* the one not queued */
	struct ios_request base_rq;	/* the baseline's, never queued */
	struct bench_seq seq;		/* the random numbers, made before timing */
	size_t pos, base_pos;		/* where the run and the baseline read seq */
	uint64_t now;
};

static void bench_fill_rq(struct bench_q *b, struct ios_request *rq, size_t *pos)
{
	uint64_t r = bench_seq_next(&b->seq, pos);

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
	bench_fill_rq(b, rq, &b->pos);
	rq->insert_ns = b->now;
	b->q.nr_sorted++;
	b->t->ops.insert(&b->q, rq, b->now, 0);
}

static int bench_setup(struct bench_q *b, const char *sched, size_t n, size_t seq_len)
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
	if (!b->q.sched_data || !b->pool || bench_seq_init(&b->seq, n + seq_len, 42))
		return -ENOMEM;
	if (b->t->tunables && ios_tunable_defaults(b->t->tunables, b->q.sched_data, &e)) {
		fprintf(stderr, "%s: %s\n", sched, e.msg);
		return -EINVAL;
	}
	if (b->t->ops.init(&b->q))
		return -EINVAL;
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
	bench_seq_free(&b->seq);
}

/* @steps steady-state steps; returns ns per step, or a negative errno. */
static double bench_run(struct bench_q *b, long steps)
{
	double t0, t1;

	t0 = bench_now_ns();
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
	t1 = bench_now_ns();
	return (t1 - t0) / (double)steps;
}

/*
 * The harness's share of a step, without the scheduler: the same request
 * fill from the same kind of sequence and the same counter updates, on a
 * request that stays in cache as the just-dispatched one does in bench_run.
 */
static double bench_base(struct bench_q *b, long steps)
{
	double t0, t1;

	t0 = bench_now_ns();
	for (long i = 0; i < steps; i++) {
		struct ios_request *rq = &b->base_rq;

		b->now += IOS_NSEC_PER_USEC;
		bench_fill_rq(b, rq, &b->base_pos);
		rq->insert_ns = b->now;
		b->q.nr_sorted++;
		bench_barrier();
		b->q.nr_sorted--;
		b->q.rq_in_driver++;
		bench_barrier();
		b->q.rq_in_driver--;
	}
	t1 = bench_now_ns();
	return (t1 - t0) / (double)steps;
}

int main(int argc, char **argv)
{
	static const char *const scheds[] = { "noop", "deadline" };
	static const size_t sizes[] = { 1, 1000, 10000, 100000 };
	static const char usage[] = "sched_cost [steps]   (default 1000000)";
	long steps;

	bench_args_check(argc, argv, 1, usage);
	steps = bench_arg_long(argc, argv, 1, "steps", 1000000, 1, 1000000000L, usage);
	printf("scheduler-only cost: insert + dispatch + complete per request, harness "
	       "subtracted (median of %d pairs, %ld steps)\n", BENCH_REPS, steps);
	printf("%-10s %10s %12s %12s %14s\n", "scheduler", "queued", "ns/request", "harness ns",
	       "requests KiB");
	for (size_t s = 0; s < sizeof(scheds) / sizeof(scheds[0]); s++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			double net[BENCH_REPS], base[BENCH_REPS];

			for (int rep = 0; rep < BENCH_REPS; rep++) {
				struct bench_q b;
				double ns, bns;
				int ret = bench_setup(&b, scheds[s], sizes[z],
						      (size_t)(steps + steps / 10));

				if (ret) {
					fprintf(stderr, "%s: set-up failed (%d)\n", scheds[s], ret);
					return 1;
				}
				bench_run(&b, steps / 10);	/* warm up */
				bench_base(&b, steps / 10);
				if (rep % 2) {
					ns = bench_run(&b, steps);
					bns = bench_base(&b, steps);
				} else {
					bns = bench_base(&b, steps);
					ns = bench_run(&b, steps);
				}
				bench_teardown(&b);
				if (ns < 0) {
					fprintf(stderr, "%s: dispatch returned nothing\n", scheds[s]);
					return 1;
				}
				net[rep] = ns - bns;
				base[rep] = bns;
			}
			printf("%-10s %10zu %12.1f %12.1f %14zu\n", scheds[s], sizes[z],
			       bench_median(net, BENCH_REPS), bench_median(base, BENCH_REPS),
			       sizes[z] * sizeof(struct ios_request) / 1024);
		}
	}
	return 0;
}
