/*
 * Description: BFQ budgets, called directly with a fake clock. A greedy
 * sequential queue keeps the device until the next request no longer fits
 * its budget (2/3 of the 16384-sector default for a new queue: 42 requests
 * of 256 sectors), then the other queue gets its turn, and after exhausting
 * its budget a queue's next budget grows fourfold up to max_budget (64
 * requests). A queue whose requests take long is expired when timeout_sync
 * (125 ms) has passed, at a completion, and is charged for the time: the
 * next slot goes to the other queue. A shorter timeout_sync expires sooner.
 * The time charge scales by the default 125 ms whatever timeout_sync is
 * (4.19's bfq_bfqq_charge_time reads the bfq_timeout constant).
 */
#include "sched_bfq_util.h"

/*
 * Serve up to @n requests, each completing @svc_ns after its dispatch,
 * waiting out idle windows. who[i] gets the pid of the i-th dispatch.
 * Returns how many were served.
 */
static size_t serve(struct t_sq *s, uint64_t *now, uint64_t svc_ns, size_t n, uint32_t *who)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct ios_request *rq = t_sq_dispatch(s, *now);

		if (!rq && s->type->ops.next_wakeup(&s->q) != IOS_NO_WAKEUP) {
			*now = s->type->ops.next_wakeup(&s->q);
			rq = t_sq_dispatch(s, *now);
		}
		if (!rq)
			break;
		who[i] = rq->ioc->pid;
		*now += svc_ns;
		t_sq_complete(s, rq, *now);
	}
	return i;
}

static size_t run_length(const uint32_t *who, size_t n, size_t from)
{
	size_t i = from;

	while (i < n && who[i] == who[from])
		i++;
	return i - from;
}

static int test_budget_exhaustion(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(101, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(102, IOS_IOPRIO_CLASS_BE, 4);
	static uint32_t who[400];
	uint64_t now = 0;
	size_t n, first, second, third;

	T_ASSERT(s);
	for (int i = 0; i < 200; i++) {
		bfq_ins(s, a, 1000 + (uint64_t)i * 256, 256, IOS_READ, 0, 0);
		bfq_ins(s, b, 50000000 + (uint64_t)i * 256, 256, IOS_READ, 0, 0);
	}
	n = serve(s, &now, MS, 400, who);
	T_ASSERT_EQ(n, 400);
	/* 10922-sector first budget: 42 requests of 256 fit, the 43rd does not */
	T_ASSERT_EQ(who[0], 101);
	first = run_length(who, n, 0);
	T_ASSERT_EQ(first, 42);
	second = run_length(who, n, first);
	T_ASSERT_EQ(who[first], 102);
	T_ASSERT_EQ(second, 42);
	/* exhausted: 4 x 10922, capped at max_budget 16384 = 64 requests */
	third = run_length(who, n, first + second);
	T_ASSERT_EQ(who[first + second], 101);
	T_ASSERT_EQ(third, 64);
	T_ASSERT(bfq_stat(&s->q, "expired_budget_exhausted") >= 3);
	T_ASSERT_EQ(bfq_stat(&s->q, "expired_budget_timeout"), 0);
	t_sq_free(s);
	return T_PASS;
}

static int test_budget_timeout(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(103, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(104, IOS_IOPRIO_CLASS_BE, 4);
	static uint32_t who[64];
	uint64_t now = 0;
	size_t n, first;

	T_ASSERT(s);
	for (int i = 0; i < 32; i++) {
		bfq_ins(s, a, 1000 + (uint64_t)i * 8, 8, IOS_READ, 0, 0);
		bfq_ins(s, b, 50000000 + (uint64_t)i * 8, 8, IOS_READ, 0, 0);
	}
	/* 20 ms per request: dispatches at 0..120 ms, the completion at 140 ms expires */
	n = serve(s, &now, 20 * MS, 20, who);
	T_ASSERT_EQ(n, 20);
	first = run_length(who, n, 0);
	T_ASSERT_EQ(who[0], 103);
	T_ASSERT_EQ(first, 7);
	T_ASSERT_EQ(who[first], 104);
	T_ASSERT_EQ(run_length(who, n, first), 7);
	T_ASSERT_EQ(who[first + 7], 103);
	/* both slots ended by the timeout, none by the budget */
	T_ASSERT(bfq_stat(&s->q, "expired_budget_timeout") >= 2);
	T_ASSERT_EQ(bfq_stat(&s->q, "expired_budget_exhausted"), 0);
	t_sq_free(s);

	/* a shorter timeout_sync: 50 ms, so dispatches at 0, 20, 40 and out at 60 */
	s = t_sq_new("bfq", 1, 1, "low_latency=0", "timeout_sync=50", NULL);
	T_ASSERT(s);
	for (int i = 0; i < 32; i++) {
		bfq_ins(s, a, 1000 + (uint64_t)i * 8, 8, IOS_READ, 0, 0);
		bfq_ins(s, b, 50000000 + (uint64_t)i * 8, 8, IOS_READ, 0, 0);
	}
	now = 0;
	n = serve(s, &now, 20 * MS, 10, who);
	T_ASSERT_EQ(n, 10);
	T_ASSERT_EQ(run_length(who, n, 0), 3);
	T_ASSERT_EQ(who[3], 104);
	t_sq_free(s);
	return T_PASS;
}

/*
 * Time charging: a slow queue pays max_budget for a full timeout, so a fast
 * queue that moves its budget quickly gets several slots in a row before
 * the slow one is served again.
 */
static int test_slow_queue_charged_time(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *slow = bfq_test_ioc(105, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *fast = bfq_test_ioc(106, IOS_IOPRIO_CLASS_BE, 4);
	uint64_t now = 0, next_slow = 1000, next_fast = 50000000;
	int slow_served = 0, fast_served = 0;

	T_ASSERT(s);
	for (int i = 0; i < 8; i++) {
		bfq_ins(s, slow, next_slow, 8, IOS_READ, 0, 0);
		bfq_ins(s, fast, next_fast, 256, IOS_READ, 0, 0);
		next_slow += 8;
		next_fast += 256;
	}
	while (now < 2000 * MS) {
		struct ios_request *rq = t_sq_dispatch(s, now);

		T_ASSERT(rq);
		/* both stay backlogged: a new request replaces each one served */
		if (rq->ioc == slow) {
			slow_served++;
			bfq_ins(s, slow, next_slow, 8, IOS_READ, 0, now);
			next_slow += 8;
			now += 20 * MS;
		} else {
			fast_served++;
			bfq_ins(s, fast, next_fast, 256, IOS_READ, 0, now);
			next_fast += 256;
			now += MS;
		}
		t_sq_complete(s, rq, now);
	}
	/*
	 * By sectors the slow queue would get as many as the fast one; by
	 * time it gets one 125 ms slot per max_budget the fast one moves.
	 */
	if (getenv("BFQ_TEST_VERBOSE"))
		fprintf(stderr, "slow %d fast %d\n", slow_served, fast_served);
	T_ASSERT(slow_served > 0);
	T_ASSERT_MSG((uint64_t)slow_served * 8 * 10 < (uint64_t)fast_served * 256,
		     "slow %d x 8 sectors vs fast %d x 256", slow_served, fast_served);
	t_sq_free(s);
	return T_PASS;
}

/*
 * 125 ms held by a slow queue is a whole max_budget of service, also with
 * timeout_sync=250: 4.19 scales by the default timeout, not the tunable.
 */
static int test_charge_time_scales_by_default_timeout(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, "low_latency=0", "max_budget=4096",
				  "timeout_sync=250", NULL);
	struct ios_ioc *a = bfq_test_ioc(320, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_data *bfqd;
	struct bfq_queue *qa;

	T_ASSERT(s);
	bfq_ins(s, a, 1000, 8, IOS_READ, 0, 0);
	bfqd = bfqd_of(&s->q);
	qa = bfqq_of(&s->q, a, true);
	T_ASSERT(qa);
	T_ASSERT_EQ(bfqd->max_budget, 4096);
	T_ASSERT_EQ(qa->entity.service, 0);
	ios_bfq_bfqq_charge_time(bfqd, qa, 125 * MS);
	T_ASSERT_EQ(qa->entity.service, 4096);
	qa->entity.service = 0;
	/* a longer hold charges no more than the whole budget */
	ios_bfq_bfqq_charge_time(bfqd, qa, 200 * MS);
	T_ASSERT_EQ(qa->entity.service, 4096);
	qa->entity.service = 0;
	ios_bfq_bfqq_charge_time(bfqd, qa, 25 * MS);
	T_ASSERT_EQ(qa->entity.service, 4096 / 5);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_budget_exhaustion, test_budget_timeout, test_slow_queue_charged_time,
		     test_charge_time_scales_by_default_timeout);
}
