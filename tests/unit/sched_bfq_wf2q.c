/*
 * Description: B-WF2Q+ ordering, called directly with a fake clock. Two
 * always-backlogged queues of weights 20 and 40 (ioprio levels 6 and 4)
 * get sectors 1:2; with three queues of weights 80, 40 and 10 the shares
 * follow 8:4:1. Groups: cgroups of weight 1000 and 500 get 2:1 whatever
 * their number of processes (two queues in the first, one in the second),
 * and the two queues inside the first group share its part equally. The
 * RT class is served strictly before best effort; the idle class waits
 * while others are busy but gets a request through every 200 ms. After
 * every dispatch each active tree's min_start augmentation and finish-time
 * order are checked against a full recomputation, also with 300 processes
 * of random levels and groups coming and going at random. Group weights
 * never make the scenario asymmetric (4.19 compiles that counting out):
 * equal-weight queues busy in groups of weight 1000 and 500 leave the
 * scenario symmetric. Writers without an ioprio (class NONE) share one
 * async queue whatever their nice, weighted by the first one's nice.
 */
#include "sched_bfq_util.h"

struct flow {
	struct ios_ioc *ioc;
	uint64_t next_sector;
	uint32_t nr;		/* request size, sectors */
	uint64_t served;	/* sectors dispatched */
	uint64_t requests;
	uint64_t first_ns;	/* first dispatch */
	bool started;
};

/*
 * Keep every flow backlogged with @depth requests; serve @steps requests,
 * each taking @svc_ns. Returns false if a dispatch came back empty or a
 * tree lost its augmentation.
 */
static bool run_flows(struct t_sq *s, struct flow *f, int nf, int depth, int steps,
		      uint64_t svc_ns, uint64_t *now)
{
	for (int i = 0; i < nf; i++) {
		for (int d = 0; d < depth; d++) {
			bfq_ins(s, f[i].ioc, f[i].next_sector, f[i].nr, IOS_READ, 0, *now);
			f[i].next_sector += f[i].nr;
		}
	}
	for (int k = 0; k < steps; k++) {
		struct ios_request *rq = t_sq_dispatch(s, *now);
		int i;

		if (!rq || !bfq_trees_ok(&s->q))
			return false;
		for (i = 0; i < nf && f[i].ioc != rq->ioc; i++)
			;
		if (i == nf)
			return false;
		f[i].served += rq->nr_sectors;
		f[i].requests++;
		if (!f[i].started) {
			f[i].started = true;
			f[i].first_ns = *now;
		}
		bfq_ins(s, f[i].ioc, f[i].next_sector, f[i].nr, IOS_READ, 0, *now);
		f[i].next_sector += f[i].nr;
		*now += svc_ns;
		t_sq_complete(s, rq, *now);
	}
	return true;
}

/*
 * max_budget=4096 keeps slots short (64 requests), so 40000 requests make
 * hundreds of slots and the share is measured well inside 2 %. With the
 * automatic maximum the peak rate of this fake device (0.64 sectors/us)
 * allows 80000-sector budgets: a few dozen slots in the same run.
 */
static int test_weights_one_to_two(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 0, "low_latency=0", "max_budget=4096", NULL);
	struct flow f[2] = {
		{ .ioc = bfq_test_ioc(201, IOS_IOPRIO_CLASS_BE, 6), .next_sector = 1000, .nr = 64 },
		{ .ioc = bfq_test_ioc(202, IOS_IOPRIO_CLASS_BE, 4), .next_sector = 90000000,
		  .nr = 64 },
	};
	uint64_t now = 0;
	double ratio;

	T_ASSERT(s);
	T_ASSERT(run_flows(s, f, 2, 8, 40000, 100 * US, &now));
	T_ASSERT_EQ(bfqq_of(&s->q, f[0].ioc, true)->entity.weight, 20);
	T_ASSERT_EQ(bfqq_of(&s->q, f[1].ioc, true)->entity.weight, 40);
	ratio = (double)f[1].served / (double)f[0].served;
	T_ASSERT_MSG(ratio > 1.96 && ratio < 2.04, "weight 40 : weight 20 got %.3f", ratio);
	t_sq_free(s);

	/* automatic max_budget: longer slots, same share within their granularity */
	s = t_sq_new("bfq", 1, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	f[0].served = f[1].served = 0;
	T_ASSERT(run_flows(s, f, 2, 8, 40000, 100 * US, &now));
	ratio = (double)f[1].served / (double)f[0].served;
	T_ASSERT_MSG(ratio > 1.9 && ratio < 2.1, "auto budgets: weight 40 : weight 20 got %.3f",
		     ratio);
	T_ASSERT(bfqd_of(&s->q)->max_budget > 16384);
	t_sq_free(s);
	return T_PASS;
}

static int test_weights_three_flows(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 0, "low_latency=0", "max_budget=4096", NULL);
	struct flow f[3] = {
		{ .ioc = bfq_test_ioc(203, IOS_IOPRIO_CLASS_BE, 0), .next_sector = 1000, .nr = 32 },
		{ .ioc = bfq_test_ioc(204, IOS_IOPRIO_CLASS_BE, 4), .next_sector = 90000000,
		  .nr = 128 },
		{ .ioc = bfq_test_ioc(205, IOS_IOPRIO_CLASS_BE, 7), .next_sector = 190000000,
		  .nr = 64 },
	};
	uint64_t now = 0, total;

	T_ASSERT(s);
	T_ASSERT(run_flows(s, f, 3, 4, 60000, 100 * US, &now));
	total = f[0].served + f[1].served + f[2].served;
	/* weights 80, 40, 10 whatever the request sizes */
	T_ASSERT_NEAR((double)f[0].served / (double)total, 8.0 / 13, 0.02);
	T_ASSERT_NEAR((double)f[1].served / (double)total, 4.0 / 13, 0.02);
	T_ASSERT_NEAR((double)f[2].served / (double)total, 1.0 / 13, 0.02);
	t_sq_free(s);
	return T_PASS;
}

static int test_groups(void)
{
	static struct ios_cgroup ga = { .path = (char *)"a", .id = 1, .weight = 1000,
					.parent = &t_root_cgroup };
	static struct ios_cgroup gb = { .path = (char *)"b", .id = 2, .weight = 500,
					.parent = &t_root_cgroup };
	struct t_sq *s = t_sq_new("bfq", 1, 0, "low_latency=0", "max_budget=4096", NULL);
	struct flow f[3] = {
		{ .ioc = bfq_test_ioc(206, IOS_IOPRIO_CLASS_BE, 4), .next_sector = 1000, .nr = 64 },
		{ .ioc = bfq_test_ioc(207, IOS_IOPRIO_CLASS_BE, 4), .next_sector = 90000000,
		  .nr = 64 },
		{ .ioc = bfq_test_ioc(208, IOS_IOPRIO_CLASS_BE, 4), .next_sector = 190000000,
		  .nr = 64 },
	};
	uint64_t now = 0, a, b;
	struct bfq_queue *q0;

	T_ASSERT(s);
	f[0].ioc->cgroup = &ga;
	f[1].ioc->cgroup = &ga;
	f[2].ioc->cgroup = &gb;
	T_ASSERT(run_flows(s, f, 3, 4, 60000, 100 * US, &now));
	q0 = bfqq_of(&s->q, f[0].ioc, true);
	T_ASSERT(q0 && bfqq_group(q0)->id == 1 && bfqq_group(q0)->entity.weight == 1000);
	T_ASSERT(bfqq_group(bfqq_of(&s->q, f[2].ioc, true))->entity.weight == 500);
	a = f[0].served + f[1].served;
	b = f[2].served;
	T_ASSERT_MSG((double)a / (double)b > 1.9 && (double)a / (double)b < 2.1,
		     "group 1000 : group 500 got %.3f", (double)a / (double)b);
	T_ASSERT_NEAR((double)f[0].served / (double)f[1].served, 1.0, 0.05);
	t_sq_free(s);
	f[0].ioc->cgroup = f[1].ioc->cgroup = f[2].ioc->cgroup = &t_root_cgroup;
	return T_PASS;
}

static int test_rt_class_first(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 0, "low_latency=0", NULL);
	struct ios_ioc *rt = bfq_test_ioc(209, IOS_IOPRIO_CLASS_RT, 7);
	struct ios_ioc *be = bfq_test_ioc(210, IOS_IOPRIO_CLASS_BE, 0);
	uint64_t now = 0;
	int i;

	T_ASSERT(s);
	for (i = 0; i < 50; i++) {
		bfq_ins(s, be, 1000 + (uint64_t)i * 8, 8, IOS_READ, 0, 0);
		bfq_ins(s, rt, 90000000 + (uint64_t)i * 8, 8, IOS_READ, 0, 0);
	}
	/* RT level 7 (weight 10) still beats BE level 0 (weight 80): classes are strict */
	for (i = 0; i < 50; i++) {
		struct ios_request *rq = t_sq_dispatch(s, now);

		T_ASSERT(rq && rq->ioc == rt);
		now += 100 * US;
		t_sq_complete(s, rq, now);
	}
	t_sq_free(s);
	return T_PASS;
}

static int test_idle_class_gets_a_turn(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 0, "low_latency=0", NULL);
	struct flow f[2] = {
		{ .ioc = bfq_test_ioc(211, IOS_IOPRIO_CLASS_BE, 4), .next_sector = 1000, .nr = 8 },
		{ .ioc = bfq_test_ioc(212, IOS_IOPRIO_CLASS_IDLE, 0), .next_sector = 90000000,
		  .nr = 8 },
	};
	uint64_t now = 0;

	T_ASSERT(s);
	/* 1 ms per request for 2 s */
	T_ASSERT(run_flows(s, f, 2, 4, 2000, MS, &now));
	T_ASSERT(f[1].requests >= 1);
	/* not before the 200 ms guard, and then about one per 200 ms */
	T_ASSERT_MSG(f[1].first_ns >= 200 * MS, "idle class first served at %llu ns",
		     (unsigned long long)f[1].first_ns);
	T_ASSERT_MSG(f[1].requests <= 2 * 10, "idle class got %llu of 2000",
		     (unsigned long long)f[1].requests);
	t_sq_free(s);
	return T_PASS;
}

/*
 * Processes of random weights in three groups issue, get served and go
 * idle at random: every insertion and removal in the active trees (with
 * their rotations) must keep min_start right, checked after each hook.
 */
static int test_random_churn_keeps_trees(void)
{
	static struct ios_cgroup g[3] = {
		{ .path = (char *)"x", .id = 1, .weight = 300 },
		{ .path = (char *)"y", .id = 2, .weight = 700 },
		{ .path = (char *)"x/z", .id = 3, .weight = 50 },
	};
	struct t_sq *s = t_sq_new("bfq", 4, 0, "slice_idle=0", NULL);
	struct ios_ioc *ioc[300];
	struct ios_request *inflight[4];
	struct ios_rand rnd;
	uint64_t now = 0, served = 0;
	int nin = 0;

	T_ASSERT(s);
	g[0].parent = g[1].parent = &t_root_cgroup;
	g[2].parent = &g[0];
	ios_rand_seed(&rnd, 7, 0);
	for (int i = 0; i < 300; i++) {
		ioc[i] = bfq_test_ioc(1000 + (uint32_t)i, IOS_IOPRIO_CLASS_BE, i % 8);
		ioc[i]->cgroup = i % 4 == 3 ? &t_root_cgroup : &g[i % 4];
	}
	for (int step = 0; step < 60000; step++) {
		uint64_t r = ios_rand_u64(&rnd);

		now += 50 * US;
		if ((r & 3) != 0 && s->q.nr_sorted < 2000) {
			struct ios_ioc *who = ioc[(r >> 8) % 300];

			bfq_ins(s, who, (r >> 20) & ((1ULL << 36) - 1), 8 + ((r >> 2) & 63), IOS_READ,
				0, now);
		} else if (nin < 4) {
			struct ios_request *rq = t_sq_dispatch(s, now);

			if (rq)
				inflight[nin++] = rq;
		}
		if (nin && ((r >> 60) & 1)) {
			t_sq_complete(s, inflight[0], now);
			memmove(inflight, inflight + 1, (size_t)--nin * sizeof(*inflight));
			served++;
		}
		T_ASSERT_MSG(bfq_trees_ok(&s->q), "augmentation broken at step %d", step);
	}
	T_ASSERT(served > 10000);
	while (nin)
		t_sq_complete(s, inflight[--nin], now);
	t_sq_free(s);
	for (int i = 0; i < 300; i++)
		ioc[i]->cgroup = &t_root_cgroup;
	return T_PASS;
}

/*
 * 4.19 counts a group in group_weights_tree on activation only under an
 * #ifdef nothing defines: with two groups of different weights busy, and
 * equal queue weights, the scenario stays symmetric.
 */
static int test_group_weights_not_counted(void)
{
	static struct ios_cgroup ga = { .path = (char *)"ga", .id = 1, .weight = 1000,
					.parent = &t_root_cgroup };
	static struct ios_cgroup gb = { .path = (char *)"gb", .id = 2, .weight = 500,
					.parent = &t_root_cgroup };
	struct t_sq *s = t_sq_new("bfq", 1, 0, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(220, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(221, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_data *bfqd;
	struct bfq_queue *qa, *qb;

	T_ASSERT(s);
	a->cgroup = &ga;
	b->cgroup = &gb;
	bfq_ins(s, a, 1000, 8, IOS_READ, 0, 0);
	bfq_ins(s, b, 90000000, 8, IOS_READ, 0, 0);
	bfqd = bfqd_of(&s->q);
	qa = bfqq_of(&s->q, a, true);
	qb = bfqq_of(&s->q, b, true);
	T_ASSERT(qa && qb && bfqq_group(qa) != bfqq_group(qb));
	T_ASSERT(bfqq_group(qa)->entity.weight == 1000 && bfqq_group(qb)->entity.weight == 500);
	T_ASSERT_EQ(bfqd->busy_queues, 2);
	T_ASSERT_EQ(bfqd->queue_weights.distinct, 1);
	T_ASSERT_MSG(bfqd->group_weights.distinct == 0, "%u group weights counted",
		     bfqd->group_weights.distinct);
	t_sq_free(s);
	a->cgroup = b->cgroup = &t_root_cgroup;
	return T_PASS;
}

/*
 * 4.19's bfq_async_queue_prio maps class NONE to the BE slot of
 * IOPRIO_NORM: writers of nice 10 and nice 0 share one async queue, with
 * the weight of whoever allocated it (nice 10: level 6, weight 20).
 */
static int test_async_queue_of_class_none(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 0, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(222, IOS_IOPRIO_CLASS_NONE, 0);
	struct ios_ioc *b = bfq_test_ioc(223, IOS_IOPRIO_CLASS_NONE, 0);
	struct ios_ioc *c = bfq_test_ioc(224, IOS_IOPRIO_CLASS_BE, 6);
	struct bfq_queue *qa, *qb, *qc;

	T_ASSERT(s);
	a->nice = 10;
	b->nice = 0;
	bfq_ins(s, a, 1000, 8, IOS_WRITE, 0, 0);
	bfq_ins(s, b, 90000000, 8, IOS_WRITE, 0, 0);
	bfq_ins(s, c, 190000000, 8, IOS_WRITE, 0, 0);
	qa = bfqq_of(&s->q, a, false);
	qb = bfqq_of(&s->q, b, false);
	qc = bfqq_of(&s->q, c, false);
	T_ASSERT(qa && qb && qc);
	T_ASSERT_MSG(qa == qb, "class NONE writers of nice 10 and 0 got separate async queues");
	T_ASSERT_EQ(qa->entity.orig_weight, 20);
	/* an explicit BE level 6 has its own slot */
	T_ASSERT(qc != qa);
	a->nice = 0;
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_weights_one_to_two, test_weights_three_flows, test_groups,
		     test_rt_class_first, test_idle_class_gets_a_turn,
		     test_random_churn_keeps_trees, test_group_weights_not_counted,
		     test_async_queue_of_class_none);
}
