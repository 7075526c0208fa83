/*
 * Benchmark: BFQ's CPU cost per request with many busy queues.
 *
 * BFQ's cost is in its service trees, not in sorting requests: every
 * dispatch may start a new service slot (a B-WF2Q+ lookup and an
 * extraction), every completion may end one (a requeue or a move to the
 * idle tree), every arrival at an empty queue activates it again. This
 * benchmark makes that the common case. N processes (N io contexts, so N
 * sync queues) have one read each queued; each step dispatches the request
 * B-WF2Q+ picks, completes it, and gives its process its next read, so N
 * queues stay busy and every request is its queue's whole slot. Each
 * process reads sequentially in its own 1 GiB region, with a random gap
 * now and then: far enough from the others that early queue merging never
 * shares a queue between two processes (it would with random sectors: a
 * queue counts as young again each time it becomes busy). The hooks are called directly on a hand-built queue, as
 * bench/sched_cost.c does: no block layer, no device.
 *
 * slice_idle=0, since a queue that empties would otherwise idle 8 ms for
 * its next request, which never comes in time here. Two rows per size: the
 * defaults otherwise (low_latency=1; these queues, created together, form a
 * large burst and are not raised), and low_latency=0. The fake clock
 * advances 1 us per step. The figure is wall time per step (insert +
 * dispatch + complete) less the harness's own work: the random numbers are
 * generated before timing, and a baseline loop doing the same request fill
 * (memset, the next sector of a process, fields, counters) without calling
 * BFQ is timed beside each run, alternating; the median of 5 paired
 * differences is printed, and the baseline apart (bench/bench_pair.h). The
 * baseline takes the processes in turn where the run takes them in BFQ's
 * order, so at 100k queues its reads of the per-process sector are
 * friendlier to the cache than the run's. Printed, never asserted.
 * Target: at most 400 ns per request with 10k busy queues. The column
 * "sizeof KiB" is the memory of the queues, contexts and requests by sizeof
 * (past the caches every tree level costs a miss); "B/queue heap" is what
 * the heap grew by, as glibc's mallinfo2() counts bytes in use, while the N
 * processes got their first request (bfq_queue, bic, the bic hash map,
 * allocator headers), divided by N. The last line gives the struct sizes
 * and the slope of that growth from 100 to 100k queues.
 *
 * usage: bfq_cost [steps [busy-queues]]
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "sched/bfq_int.h"
#include "bench_args.h"
#include "bench_pair.h"

struct bench_q {
	struct ios_queue q;
	const struct ios_sched_type *t;
	struct ios_request *pool;	/* one per process, recycled */
	struct ios_ioc *iocs;
	uint64_t *pos;			/* each process's next sector */
	struct ios_cgroup root;
	struct ios_request base_rq;	/* the baseline's, never queued */
	size_t n;
	struct bench_seq seq;		/* random numbers, made before timing */
	size_t rpos, base_rpos;		/* where the run and the baseline read seq */
	size_t base_i;			/* the process the baseline serves */
	uint64_t now;
};

/* heap bytes in use (glibc: arena chunks plus mmapped ones) */
static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* the harness's part of the next request of @ioc: what bench_base() does too */
static void bench_fill(struct bench_q *b, struct ios_request *rq, struct ios_ioc *ioc,
		       size_t *rpos)
{
	uint64_t r = bench_seq_next(&b->seq, rpos);
	uint64_t *pos = &b->pos[ioc - b->iocs];

	/* sequential, with a jump inside the region one time in eight */
	if ((r & 7) == 0)
		*pos = (*pos & ~((1ULL << 21) - 1)) + ((r >> 8) & ((1ULL << 20) - 1));
	memset(rq, 0, sizeof(*rq));
	rq->sector = *pos;
	*pos += 8;
	rq->nr_sectors = 8;
	rq->dir = IOS_READ;
	rq->ioc = ioc;
	rq->q = &b->q;
	ios_list_init(&rq->queuelist);
	ios_rb_clear(&rq->rb_node);
	rq->elv_sorted = 1;
	rq->insert_ns = b->now;
}

static void bench_insert(struct bench_q *b, struct ios_request *rq, struct ios_ioc *ioc)
{
	bench_fill(b, rq, ioc, &b->rpos);
	b->q.nr_sorted++;
	b->t->ops.insert(&b->q, rq, b->now, 0);
}

/* @heap_growth: the heap bytes BFQ allocated while the n processes got their first request */
static int bench_setup(struct bench_q *b, size_t n, size_t seq_len,
		       const char *const *settings, size_t *heap_growth)
{
	struct ios_err e = { 0 };
	size_t h0;

	memset(b, 0, sizeof(*b));
	b->t = ios_sched_find("bfq");
	if (!b->t)
		return -ENOENT;
	b->n = n;
	b->q.sched = b->t;
	b->q.depth = 1;
	b->q.rotational = true;
	b->q.sched_data = calloc(1, b->t->priv_size);
	b->pool = calloc(n, sizeof(*b->pool));
	b->iocs = calloc(n, sizeof(*b->iocs));
	b->pos = calloc(n, sizeof(*b->pos));
	if (!b->q.sched_data || !b->pool || !b->iocs || !b->pos ||
	    bench_seq_init(&b->seq, n + seq_len, 42))
		return -ENOMEM;
	if (ios_tunable_defaults(b->t->tunables, b->q.sched_data, &e))
		return -EINVAL;
	for (; *settings; settings++) {
		char name[64];
		const char *eq = strchr(*settings, '=');

		snprintf(name, sizeof(name), "%.*s", (int)(eq - *settings), *settings);
		if (ios_tunable_set_by_name(b->t->tunables, b->q.sched_data, name, eq + 1, "bench",
					    "", &e)) {
			fprintf(stderr, "%s\n", e.msg);
			return -EINVAL;
		}
	}
	if (b->t->ops.init(&b->q))
		return -EINVAL;
	b->root.path = (char *)"";
	for (size_t i = 0; i < n; i++) {
		b->iocs[i].pid = 1000 + (uint32_t)i;
		b->iocs[i].ioprio_class = IOS_IOPRIO_CLASS_BE;
		b->iocs[i].ioprio_level = IOS_IOPRIO_NORM;
		b->iocs[i].cgroup = &b->root;
		b->iocs[i].nr_tasks = 1;
		b->pos[i] = (uint64_t)i << 21;	/* 1 GiB regions */
	}
	h0 = heap_in_use();
	for (size_t i = 0; i < n; i++)
		bench_insert(b, &b->pool[i], &b->iocs[i]);
	*heap_growth = heap_in_use() - h0;
	return 0;
}

static void bench_teardown(struct bench_q *b)
{
	struct ios_request *rq;

	while ((rq = b->t->ops.dispatch(&b->q, b->now, IOS_DISPATCH_FORCE)) != NULL) {
		b->q.nr_sorted--;
		b->t->ops.completed(&b->q, rq, b->now);
	}
	b->t->ops.exit(&b->q);
	free(b->q.sched_data);
	free(b->pool);
	free(b->iocs);
	free(b->pos);
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
		rq = b->t->ops.dispatch(&b->q, b->now, 0);
		if (!rq)
			return -EIO;
		b->q.nr_sorted--;
		b->q.rq_in_driver++;
		b->t->ops.completed(&b->q, rq, b->now);
		b->q.rq_in_driver--;
		bench_insert(b, rq, rq->ioc);
	}
	t1 = bench_now_ns();
	return (t1 - t0) / (double)steps;
}

/*
 * bench_run() without BFQ: the same counters and the same fill, for the
 * processes in turn, on a request that stays in cache as the one just
 * completed does in bench_run().
 */
static double bench_base(struct bench_q *b, long steps)
{
	double t0, t1;

	t0 = bench_now_ns();
	for (long i = 0; i < steps; i++) {
		b->now += IOS_NSEC_PER_USEC;
		b->q.nr_sorted--;
		b->q.rq_in_driver++;
		bench_barrier();
		b->q.rq_in_driver--;
		bench_fill(b, &b->base_rq, &b->iocs[b->base_i], &b->base_rpos);
		if (++b->base_i == b->n)
			b->base_i = 0;
		b->q.nr_sorted++;
		bench_barrier();
	}
	t1 = bench_now_ns();
	return (t1 - t0) / (double)steps;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 1, 100, 10000, 100000 };
	static const char *const dflt[] = { "slice_idle=0", NULL };
	static const char *const nolat[] = { "slice_idle=0", "low_latency=0", NULL };
	static const struct {
		const char *name;
		const char *const *settings;
	} cfgs[] = { { "default", dflt }, { "low_latency=0", nolat } };
	static const char usage[] =
		"bfq_cost [steps [busy-queues]]   (default 1000000, every size: 1 100 10000 100000)";
	long steps, only;
	size_t grow_lo = 0, grow_hi = 0;

	bench_args_check(argc, argv, 2, usage);
	steps = bench_arg_long(argc, argv, 1, "steps", 1000000, 1, 1000000000L, usage);
	only = bench_arg_long(argc, argv, 2, "busy-queues", 0, 0, 100000, usage);
	bench_arg_in(argv[0], "busy-queues", (size_t)only, sizes, sizeof(sizes) / sizeof(sizes[0]),
		     usage);
	printf("bfq cost: insert + dispatch + complete per request, every request a service slot\n");
	printf("(slice_idle=0, harness subtracted, median of %d pairs, %ld steps)\n", BENCH_REPS,
	       steps);
	printf("%-14s %12s %12s %11s %12s %12s %13s\n", "config", "busy queues", "ns/request",
	       "harness ns", "slots/s (M)", "sizeof KiB", "B/queue heap");
	for (size_t c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
		for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
			double net[BENCH_REPS], base[BENCH_REPS], med;
			size_t grow = 0;

			if (only && sizes[z] != (size_t)only)
				continue;
			for (int rep = 0; rep < BENCH_REPS; rep++) {
				struct bench_q b;
				double ns, bns;
				int ret = bench_setup(&b, sizes[z], (size_t)(steps + steps / 10),
						      cfgs[c].settings, &grow);

				if (ret) {
					fprintf(stderr, "bfq: set-up failed (%d)\n", ret);
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
					fprintf(stderr, "bfq: dispatch returned nothing\n");
					return 1;
				}
				net[rep] = ns - bns;
				base[rep] = bns;
			}
			med = bench_median(net, BENCH_REPS);
			printf("%-14s %12zu %12.1f %11.1f %12.2f %12zu %13.1f\n", cfgs[c].name,
			       sizes[z], med, bench_median(base, BENCH_REPS), 1e3 / med,
			       sizes[z] * (sizeof(struct bfq_queue) + sizeof(struct bfq_io_cq) +
					   sizeof(struct ios_ioc) + sizeof(struct ios_request)) /
				       1024, (double)grow / (double)sizes[z]);
			if (sizes[z] == 100)
				grow_lo = grow;
			if (sizes[z] == 100000)
				grow_hi = grow;
		}
	}
	printf("sizeof: bfq_queue %zu, bfq_io_cq (bic) %zu, the task's ios_ioc %zu, ios_request %zu",
	       sizeof(struct bfq_queue), sizeof(struct bfq_io_cq), sizeof(struct ios_ioc),
	       sizeof(struct ios_request));
	if (grow_lo && grow_hi)
		printf("; heap per queue from 100 to 100k queues (last config): %.1f bytes",
		       ((double)grow_hi - (double)grow_lo) / (100000.0 - 100.0));
	printf("\n");
	return 0;
}
