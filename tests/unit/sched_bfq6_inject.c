/*
 * Description: bfq-6.12's I/O injection (bfq_select_queue,
 * bfq_choose_bfqq_for_injection, bfq_update_inject_limit,
 * bfq_reset_inject_limit, bfq_add_request; Linux 6.12). Process A (BE0)
 * idles when it empties, because B (BE7) has another weight. A's first
 * request after a hole, arriving with nothing in flight, is timed from
 * insert to completion: the baseline (2 ms here), which sets inject_limit
 * to 1, and B's request then goes into A's next hole. A first request timed
 * after injection that takes under 1.5 x the baseline raises the limit; one
 * that takes longer lowers it and blocks sampling for 10 ms. One second
 * after the last decrease the limit is reset (to 0 for a queue with a short
 * think time). On flash a request of 64 sectors or more is injected only
 * into an empty drive. With injection off (4.19) the hole stays empty
 * until the idle window ends.
 */
#include "sched_bfq6_util.h"

static struct ios_ioc *A, *B;

/*
 * A at 0 (8 sectors, completes at 20 ms, A idles), B busy from 1 ms with
 * one request of @b_sectors; A's next request at 22 ms is timed and
 * completes at 24 ms: baseline 2 ms, limit 1. A idles again at 24 ms.
 */
static struct t_sq *baseline(int rotational, uint32_t b_sectors)
{
	struct t_sq *s = t_sq_new("bfq-6.12", 32, rotational, "low_latency=0", NULL);
	struct ios_request *rq;

	if (!s)
		return NULL;
	A = bfq_test_ioc(701, IOS_IOPRIO_CLASS_BE, 0);
	B = bfq_test_ioc(702, IOS_IOPRIO_CLASS_BE, 7);
	bfq_ins(s, A, 0, 8, IOS_READ, 0, 0);
	rq = t_sq_dispatch(s, 0);
	bfq_ins(s, B, 500000, b_sectors, IOS_READ, 0, 1 * MS);
	t_sq_complete(s, rq, 20 * MS);
	bfq_ins(s, A, 8, 8, IOS_READ, 0, 22 * MS);
	rq = t_sq_dispatch(s, 22 * MS);
	if (!rq || rq->ioc != A || bfqd_of(&s->q)->waited_rq != rq)
		return NULL;
	t_sq_complete(s, rq, 24 * MS);
	return s;
}

static void drain(struct t_sq *s, uint64_t now)
{
	struct ios_request *rq;

	while ((rq = bfq6_dispatch_or_wait(s, &now)) != NULL)
		t_sq_complete(s, rq, now);
}

static int test_baseline_then_inject(void)
{
	struct t_sq *s;
	struct bfq_queue *qa;
	struct ios_request *rq;
	struct bfq_profile off;

	bfq6_register();
	/* before any baseline, the limit is 0: no injection into the first hole */
	s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	A = bfq_test_ioc(711, IOS_IOPRIO_CLASS_BE, 0);
	B = bfq_test_ioc(712, IOS_IOPRIO_CLASS_BE, 7);
	bfq_ins(s, A, 0, 8, IOS_READ, 0, 0);
	rq = t_sq_dispatch(s, 0);
	bfq_ins(s, B, 500000, 8, IOS_READ, 0, 1 * MS);
	t_sq_complete(s, rq, 20 * MS);
	T_ASSERT(t_sq_dispatch(s, 21 * MS) == NULL);
	drain(s, 21 * MS);
	t_sq_free(s);

	s = baseline(0, 8);
	T_ASSERT(s);
	qa = bfqq_of(&s->q, A, true);
	T_ASSERT_U64_EQ(qa->last_serv_time_ns, 2 * MS);
	T_ASSERT_EQ(qa->inject_limit, 1);
	T_ASSERT(bfqq_flag(qa, BFQQF_wait_request));
	rq = t_sq_dispatch(s, 25 * MS);
	T_ASSERT(rq && rq->ioc == B);
	T_ASSERT(bfqd_of(&s->q)->in_service_queue == qa);	/* A keeps the device */
	T_ASSERT(bfqq_flag(qa, BFQQF_wait_request));		/* and its idle window */
	T_ASSERT_EQ(bfq_stat(&s->q, "injected"), 1);
	T_ASSERT(bfqd_of(&s->q)->rqs_injected);
	/* at the limit (1 in the drive): nothing more */
	bfq_ins(s, B, 500008, 8, IOS_READ, 0, 25 * MS);
	T_ASSERT(t_sq_dispatch(s, 25 * MS) == NULL);
	t_sq_complete(s, rq, 26 * MS);
	drain(s, 26 * MS);
	t_sq_free(s);

	/* the behaviour off: the same hole stays empty */
	s = baseline(0, 8);
	T_ASSERT(s);
	bfq6_with(s, BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612, injection));
	T_ASSERT(t_sq_dispatch(s, 25 * MS) == NULL);
	drain(s, 25 * MS);
	t_sq_free(s);
	return T_PASS;
}

/* A's next first request is timed with B's injected request in flight. */
static int limit_after(uint64_t r3_done_ns, unsigned *limit, int64_t *decrease_ns)
{
	struct t_sq *s = baseline(0, 8);
	struct ios_request *b1, *r3;
	struct bfq_queue *qa;

	if (!s)
		return -1;
	qa = bfqq_of(&s->q, A, true);
	b1 = t_sq_dispatch(s, 25 * MS);
	bfq_ins(s, A, 16, 8, IOS_READ, 0, 26 * MS);
	if (!bfqd_of(&s->q)->wait_dispatch)
		return -1;
	r3 = t_sq_dispatch(s, 26 * MS);
	if (!b1 || !r3 || r3->ioc != A)
		return -1;
	t_sq_complete(s, b1, 26 * MS + 500 * US);
	t_sq_complete(s, r3, r3_done_ns);
	*limit = qa->inject_limit;
	*decrease_ns = qa->decrease_time_ns;
	drain(s, r3_done_ns);
	t_sq_free(s);
	return 0;
}

static int test_limit_update(void)
{
	unsigned limit;
	int64_t dec;

	bfq6_register();
	/* 2 ms, under 1.5 x 2 ms: up to 2 */
	T_ASSERT_EQ(limit_after(28 * MS, &limit, &dec), 0);
	T_ASSERT_EQ(limit, 2);
	T_ASSERT_EQ(dec, 0);
	/* 3 ms, at the threshold: down to 0, and the decrease is dated */
	T_ASSERT_EQ(limit_after(29 * MS, &limit, &dec), 0);
	T_ASSERT_EQ(limit, 0);
	T_ASSERT_EQ(dec, 29 * (int64_t)MS);
	return T_PASS;
}

static int test_sampling_pause_and_reset(void)
{
	struct t_sq *s = baseline(0, 8);
	struct bfq_queue *qa;
	struct ios_request *rq;

	T_ASSERT(s);
	qa = bfqq_of(&s->q, A, true);
	/* a decrease 5 ms ago: A's first request is not timed */
	qa->decrease_time_ns = 21 * (int64_t)MS;
	rq = t_sq_dispatch(s, 25 * MS);	/* B injected */
	T_ASSERT(rq && rq->ioc == B);
	t_sq_complete(s, rq, 25500 * US);
	bfq_ins(s, A, 16, 8, IOS_READ, 0, 26 * MS);
	T_ASSERT(!bfqd_of(&s->q)->wait_dispatch);
	drain(s, 26 * MS);
	/*
	 * A second after the last decrease: reset. A has come back after a
	 * second away four times now: a long think time, so the limit restarts
	 * at 1 (a short one would restart at 0, see test_short_think_time_resets_to_0).
	 */
	bfq_ins(s, A, 24, 8, IOS_READ, 0, 1021 * MS);
	T_ASSERT(!bfqq_flag(qa, BFQQF_has_short_ttime));
	T_ASSERT_EQ(qa->inject_limit, 1);
	T_ASSERT_U64_EQ(qa->last_serv_time_ns, 0);
	T_ASSERT_EQ(qa->decrease_time_ns, 1021 * (int64_t)MS);
	drain(s, 1021 * MS);
	t_sq_free(s);
	return T_PASS;
}

/* bfq_reset_inject_limit: short think time 0, long 1, the baseline forgotten */
static int test_short_think_time_resets_to_0(void)
{
	struct t_sq *s = baseline(0, 8);
	struct bfq_queue *qa;

	T_ASSERT(s);
	qa = bfqq_of(&s->q, A, true);
	bfqd_of(&s->q)->now_ns = 30 * (int64_t)MS;
	bfqq_set(qa, BFQQF_has_short_ttime);
	ios_bfq_reset_inject_limit(bfqd_of(&s->q), qa);
	T_ASSERT_EQ(qa->inject_limit, 0);
	T_ASSERT_U64_EQ(qa->last_serv_time_ns, 0);
	T_ASSERT_EQ(qa->decrease_time_ns, 30 * (int64_t)MS);
	bfqq_clear(qa, BFQQF_has_short_ttime);
	ios_bfq_reset_inject_limit(bfqd_of(&s->q), qa);
	T_ASSERT_EQ(qa->inject_limit, 1);
	drain(s, 30 * MS);
	t_sq_free(s);
	return T_PASS;
}

/* limit 2 with one request in flight: a 63-sector request goes in, a 64-sector one not */
static int second_injection(uint32_t sectors, bool *injected)
{
	struct t_sq *s = baseline(0, 8);
	struct ios_request *b1, *b2;

	if (!s)
		return -1;
	bfqq_of(&s->q, A, true)->inject_limit = 2;
	b1 = t_sq_dispatch(s, 25 * MS);
	if (!b1 || b1->ioc != B)
		return -1;
	bfq_ins(s, B, 600000, sectors, IOS_READ, 0, 25 * MS);
	b2 = t_sq_dispatch(s, 25 * MS);
	*injected = b2 != NULL;
	t_sq_complete(s, b1, 26 * MS);
	if (b2)
		t_sq_complete(s, b2, 26 * MS);
	drain(s, 26 * MS);
	t_sq_free(s);
	return 0;
}

static int test_large_request_on_flash(void)
{
	bool injected;

	bfq6_register();
	T_ASSERT_EQ(second_injection(63, &injected), 0);
	T_ASSERT(injected);
	T_ASSERT_EQ(second_injection(64, &injected), 0);
	T_ASSERT(!injected);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_baseline_then_inject, test_limit_update, test_sampling_pause_and_reset,
		     test_short_think_time_resets_to_0, test_large_request_on_flash);
}
