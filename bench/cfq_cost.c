/*
 * Benchmark: CFQ's CPU cost per request with many busy queues.
 *
 * CFQ's work per request is in its trees: a queue that gets a request
 * becomes busy (service-tree insert, prio-tree insert), the next queue is
 * taken from the tree when the active one expires (erase, selection, and in
 * 2.6.33+ the group and workload choice), and expiry re-sorts or removes a
 * queue. This benchmark makes every request pay for all of it: N processes
 * (N contexts, N sync queues) have one request each queued; every step
 * dispatches the request CFQ picks, completes it, and gives that process a
 * new request at a random sector, so N queues stay busy and each slice is a
 * single request. slice_idle=0, or an emptied queue would idle 8 ms for its
 * next request. The hooks are called directly on a hand-built queue, no
 * block layer, no device; the fake clock advances 1 us per step.
 *
 * Printed, never asserted: wall time per step (set_request + insert +
 * dispatch + complete + put_request), less the harness's own work: the
 * random sectors are generated before timing, and a baseline loop that
 * fills a request the same way (memset, fields, counters) without calling
 * CFQ is timed beside each run, alternating; the median of 5 paired
 * differences is printed, and the baseline apart (bench/bench_pair.h). Targets: at most 200 ns
 * per request at 10k queues, at most 2x growth from 100 to 100k queues.
 *
 * Then memory, per profile. Per queue: sizeof the structures CFQ allocates
 * for a process (its cfq_queue and its cic, struct cfq_io_cq), and what the
 * heap actually grew by while N processes got their first request (the
 * cic, the queue, prio-tree nodes, allocator headers and rounding), as
 * glibc's mallinfo2() counts bytes in use, divided by N, at 100 and 100k
 * queues, and the slope between them (fixed costs cancel). The io context
 * itself (struct ios_ioc) is the task's, embedded in it by the runner, and
 * is shown apart. Per request: what the heap grows by while one process
 * queues 100k more requests (CFQ keeps its per-request state in the
 * request's own fields, so this should be 0), and the block layer's
 * request: sizeof(struct ios_request) and the heap bytes of 100k
 * malloc(sizeof(struct ios_request)), which is how src/block/block.c
 * allocates one.
 *
 * usage: cfq_cost [steps [scheduler [queues]]]  (the last two narrow the table,
 * e.g. to profile one case under perf)
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "sched/cfq_int.h"
#include "bench_args.h"
#include "bench_pair.h"

struct bench {
	struct ios_queue q;
	const struct ios_sched_type *t;
	struct ios_ioc *iocs;
	struct ios_request *rqs;	/* one per process */
	struct ios_request base_rq;	/* the baseline's, never queued */
	struct ios_cgroup root;
	struct bench_seq seq;		/* random numbers, made before timing */
	size_t pos, base_pos;		/* where the run and the baseline read seq */
	size_t base_i;			/* the process the baseline refills */
	size_t n;
	uint64_t now;
};

/* heap bytes in use (glibc: arena chunks plus mmapped ones) */
static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* the harness's part of a new request: what bench_base() does too */
static void fill_request(struct bench *b, struct ios_request *rq, struct ios_ioc *ioc,
			 size_t *pos)
{
	memset(rq, 0, sizeof(*rq));
	rq->sector = bench_seq_next(&b->seq, pos) & ((1ULL << 31) - 1) & ~7ULL;
	rq->nr_sectors = 8;
	rq->dir = IOS_READ;
	rq->ioc = ioc;
	rq->q = &b->q;
	rq->alloc_ns = b->now;
	rq->elv_sorted = 1;
	ios_list_init(&rq->queuelist);
	ios_rb_clear(&rq->rb_node);
}

static int new_request(struct bench *b, size_t i)
{
	struct ios_request *rq = &b->rqs[i];

	fill_request(b, rq, &b->iocs[i], &b->pos);
	if (b->t->ops.set_request(&b->q, rq))
		return -1;
	b->q.nr_sorted++;
	b->t->ops.insert(&b->q, rq, b->now, 0);
	return 0;
}

/* @heap_growth: NULL, or the heap bytes the scheduler allocated for the n queues */
static int setup(struct bench *b, const char *sched, size_t n, size_t seq_len,
		 size_t *heap_growth)
{
	struct ios_err e = { 0 };
	struct ios_settings set = { 0 };
	size_t h0;

	memset(b, 0, sizeof(*b));
	b->t = ios_sched_find(sched);
	if (!b->t)
		return -1;
	b->n = n;
	b->q.sched = b->t;
	b->q.depth = 1;
	b->q.rotational = true;
	b->q.sched_data = calloc(1, b->t->priv_size);
	b->iocs = calloc(n, sizeof(*b->iocs));
	b->rqs = calloc(n, sizeof(*b->rqs));
	if (!b->q.sched_data || !b->iocs || !b->rqs || bench_seq_init(&b->seq, n + seq_len, 7))
		return -1;
	if (ios_tunable_defaults(b->t->tunables, b->q.sched_data, &e))
		return -1;
	if (b->t->ops.init_defaults)
		b->t->ops.init_defaults(&b->q);
	if (ios_settings_add_kv(&set, "slice_idle=0", "bench", &e) ||
	    ios_settings_apply(&set, "", b->t->tunables, b->q.sched_data, &e))
		return -1;
	ios_settings_free(&set);
	if (b->t->ops.init(&b->q))
		return -1;
	b->root.path = (char *)"";
	for (size_t i = 0; i < n; i++) {
		b->iocs[i].pid = (uint32_t)(1000 + i);
		b->iocs[i].ioprio_class = IOS_IOPRIO_CLASS_BE;
		b->iocs[i].ioprio_level = 4;
		b->iocs[i].cgroup = &b->root;
		b->iocs[i].nr_tasks = 1;
	}
	h0 = heap_in_use();
	for (size_t i = 0; i < n; i++)
		if (new_request(b, i))
			return -1;
	if (heap_growth)
		*heap_growth = heap_in_use() - h0;
	return 0;
}

/* one step: dispatch, complete, refill the process that was served */
static int step(struct bench *b)
{
	struct ios_request *rq;
	size_t i;

	b->now += IOS_NSEC_PER_USEC;
	rq = b->t->ops.dispatch(&b->q, b->now, 0);
	if (!rq)
		return -1;
	b->q.nr_sorted--;
	b->q.rq_in_driver++;
	b->t->ops.completed(&b->q, rq, b->now);
	b->q.rq_in_driver--;
	b->t->ops.put_request(&b->q, rq);
	i = (size_t)(rq - b->rqs);
	return new_request(b, i);
}

/*
 * step() without CFQ: the same counters and the same request fill, for the
 * processes in turn, on a request that stays in cache as the one just
 * completed does in step().
 */
static void base_step(struct bench *b)
{
	b->now += IOS_NSEC_PER_USEC;
	b->q.nr_sorted--;
	b->q.rq_in_driver++;
	bench_barrier();
	b->q.rq_in_driver--;
	fill_request(b, &b->base_rq, &b->iocs[b->base_i], &b->base_pos);
	if (++b->base_i == b->n)
		b->base_i = 0;
	b->q.nr_sorted++;
	bench_barrier();
}

/* ns per step of @steps steps, the scheduler's (@base false) or the baseline's */
static double timed(struct bench *b, long steps, bool base)
{
	double t0 = bench_now_ns();

	for (long k = 0; k < steps; k++) {
		if (base)
			base_step(b);
		else if (step(b))
			return -1;
	}
	return (bench_now_ns() - t0) / (double)steps;
}

static void teardown(struct bench *b)
{
	struct ios_request *rq;

	while ((rq = b->t->ops.dispatch(&b->q, b->now, IOS_DISPATCH_FORCE)) != NULL) {
		b->q.nr_sorted--;
		b->q.rq_in_driver++;
		b->t->ops.completed(&b->q, rq, b->now);
		b->q.rq_in_driver--;
		b->t->ops.put_request(&b->q, rq);
	}
	b->t->ops.exit(&b->q);
	free(b->q.sched_data);
	free(b->iocs);
	free(b->rqs);
	bench_seq_free(&b->seq);
}

/*
 * Heap bytes per request CFQ itself allocates: one process (its queue made
 * by the first request) queues @k more requests, none dispatched.
 */
static int sched_bytes_per_request(const char *sched, size_t k, double *out)
{
	struct bench b;
	struct ios_request *more = calloc(k, sizeof(*more));
	size_t h0, h1;

	if (!more || setup(&b, sched, 1, k, NULL))
		return -1;
	h0 = heap_in_use();
	for (size_t i = 0; i < k; i++) {
		struct ios_request *rq = &more[i];

		fill_request(&b, rq, &b.iocs[0], &b.pos);
		if (b.t->ops.set_request(&b.q, rq))
			return -1;
		b.q.nr_sorted++;
		b.t->ops.insert(&b.q, rq, b.now, 0);
	}
	h1 = heap_in_use();
	*out = ((double)h1 - (double)h0) / (double)k;
	teardown(&b);
	free(more);
	return 0;
}

/* Heap bytes of one block-layer request, allocated as src/block/block.c does. */
static double block_bytes_per_request(size_t k)
{
	void **v = calloc(k, sizeof(*v));
	size_t h0, h1;

	if (!v)
		return -1;
	h0 = heap_in_use();
	for (size_t i = 0; i < k; i++)
		v[i] = malloc(sizeof(struct ios_request));
	h1 = heap_in_use();
	for (size_t i = 0; i < k; i++)
		free(v[i]);
	free(v);
	return ((double)h1 - (double)h0) / (double)k;
}

static int print_memory(const char *const *scheds, size_t nr)
{
	const size_t lo = 100, hi = 100000, k = 100000;
	double blk = block_bytes_per_request(k);

	printf("\nCFQ memory per queue (one sync queue per process) and per request; heap bytes "
	       "are glibc mallinfo2() deltas\n");
	printf("struct sizes: cfq_queue %zu, cfq_io_cq (cic) %zu, cfqq + cic %zu; the task's "
	       "ios_ioc %zu (not the scheduler's)\n", sizeof(struct cfq_queue),
	       sizeof(struct cfq_io_cq), sizeof(struct cfq_queue) + sizeof(struct cfq_io_cq),
	       sizeof(struct ios_ioc));
	printf("block layer request: sizeof(struct ios_request) %zu, heap %.1f bytes each "
	       "(%zu mallocs)\n", sizeof(struct ios_request), blk, k);
	printf("%-12s %14s %14s %16s %16s\n", "scheduler", "B/queue @100", "B/queue @100k",
	       "B/queue slope", "sched B/request");
	for (size_t s = 0; s < nr; s++) {
		struct bench b;
		size_t g_lo, g_hi;
		double per_rq;

		if (setup(&b, scheds[s], lo, 0, &g_lo))
			return -1;
		teardown(&b);
		if (setup(&b, scheds[s], hi, 0, &g_hi))
			return -1;
		teardown(&b);
		if (sched_bytes_per_request(scheds[s], k, &per_rq))
			return -1;
		printf("%-12s %14.1f %14.1f %16.1f %16.2f\n", scheds[s], (double)g_lo / (double)lo,
		       (double)g_hi / (double)hi, ((double)g_hi - (double)g_lo) / (double)(hi - lo),
		       per_rq);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const scheds[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };
	static const size_t sizes[] = { 1, 100, 10000, 100000 };
	static const char usage[] = "cfq_cost [steps [scheduler [queues]]]   (default 300000, "
				    "cfq cfq-2.6.33 cfq-4.19, 1 100 10000 100000)";
	long steps;
	const char *only_sched = argc > 2 ? argv[2] : NULL;
	size_t only_n;

	bench_args_check(argc, argv, 3, usage);
	steps = bench_arg_long(argc, argv, 1, "steps", 300000, 1, 1000000000L, usage);
	only_n = (size_t)bench_arg_long(argc, argv, 3, "queues", 0, 0, 100000, usage);
	bench_arg_in(argv[0], "queues", only_n, sizes, sizeof(sizes) / sizeof(sizes[0]), usage);
	if (only_sched) {
		size_t s = 0;

		while (s < sizeof(scheds) / sizeof(scheds[0]) && strcmp(only_sched, scheds[s]))
			s++;
		if (s == sizeof(scheds) / sizeof(scheds[0])) {
			fprintf(stderr, "cfq_cost: scheduler '%s': one of cfq, cfq-2.6.33, cfq-4.19\n"
				"usage: %s\n", only_sched, usage);
			return 2;
		}
	}

	printf("CFQ cost per request (set_request + insert + dispatch + complete), N busy queues, "
	       "slice_idle=0, harness subtracted, median of %d pairs, %ld steps\n", BENCH_REPS,
	       steps);
	printf("%-12s %8s %12s %12s\n", "scheduler", "queues", "ns/request", "harness ns");
	for (size_t s = 0; s < sizeof(scheds) / sizeof(scheds[0]); s++) {
		if (only_sched && strcmp(only_sched, scheds[s]))
			continue;
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			double net[BENCH_REPS], base[BENCH_REPS];

			if (only_n && only_n != sizes[z])
				continue;

			for (int rep = 0; rep < BENCH_REPS; rep++) {
				struct bench b;
				double ns, bns;

				if (setup(&b, scheds[s], sizes[z], (size_t)(steps + steps / 10),
					  NULL)) {
					fprintf(stderr, "%s: set-up failed\n", scheds[s]);
					return 1;
				}
				timed(&b, steps / 10, false);	/* warm up */
				timed(&b, steps / 10, true);
				if (rep % 2) {
					ns = timed(&b, steps, false);
					bns = timed(&b, steps, true);
				} else {
					bns = timed(&b, steps, true);
					ns = timed(&b, steps, false);
				}
				teardown(&b);
				if (ns < 0) {
					fprintf(stderr, "%s: nothing dispatched\n", scheds[s]);
					return 1;
				}
				net[rep] = ns - bns;
				base[rep] = bns;
			}
			printf("%-12s %8zu %12.1f %12.1f\n", scheds[s], sizes[z],
			       bench_median(net, BENCH_REPS), bench_median(base, BENCH_REPS));
		}
	}
	if (!only_sched && !only_n && print_memory(scheds, sizeof(scheds) / sizeof(scheds[0]))) {
		fprintf(stderr, "memory: set-up failed\n");
		return 1;
	}
	return 0;
}
