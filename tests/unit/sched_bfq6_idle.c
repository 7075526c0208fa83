/*
 * Description: bfq-6.12's idling, queueing-detection and preemption rules
 * (Linux 6.12 block/bfq-iosched.c: bfq_asymmetric_scenario,
 * idling_needed_for_service_guarantees, bfq_arm_slice_timer,
 * bfq_rq_enqueued, bfq_update_hw_tag, bfq_bfqq_handle_idle_busy_switch with
 * bfq_bfqq_higher_class_or_weight), each a named behaviour of struct
 * bfq_profile. Every test runs its scenario with the behaviour on (6.12)
 * and off (4.19's rule, the rest of 6.12 unchanged) and checks that the
 * outcome differs as the kernel's rule says. All on flash with a fake
 * clock: on a queueing non-rotational device idling never boosts
 * throughput, so only the guarantee rules decide.
 */
#include "sched_bfq6_util.h"

static struct t_sq *flash(const char *opts)
{
	bfq6_register();
	return t_sq_new("bfq-6.12", 32, 0, opts, NULL);
}

static void drain(struct t_sq *s, uint64_t now)
{
	struct ios_request *rq;

	while ((rq = bfq6_dispatch_or_wait(s, &now)) != NULL)
		t_sq_complete(s, rq, now);
}

/* The profile 6.12 with one behaviour off (one copy per test) */
static struct bfq_profile off;

static const struct bfq_profile *profile(bool on, int which)
{
	off = ios_bfq_profile_612;
	if (on)
		return &ios_bfq_profile_612;
	switch (which) {
	case 0: off.asymmetric_612 = false; break;
	case 1: off.idle_guarantees_612 = false; break;
	case 2: off.wr_idle_floor = false; break;
	case 3: off.small_rq_idle_612 = false; break;
	case 4: off.hw_tag_612 = false; break;
	case 6: off.async_charge_asym = false; break;
	default: off.preempt_612 = false; break;
	}
	return &off;
}

/*
 * asymmetric_612: A (BE0, weight 80) and B (BE7, weight 10) busy. 6.12
 * calls the scenario asymmetric for A only (B, the lightest, gets no more
 * than its share without idling); 4.19 for both. A busy RT queue makes it
 * asymmetric for B too (two classes).
 */
static int test_asymmetric_scenario(void)
{
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash("low_latency=0");
		struct ios_ioc *a = bfq_test_ioc(901, IOS_IOPRIO_CLASS_BE, 0);
		struct ios_ioc *b = bfq_test_ioc(902, IOS_IOPRIO_CLASS_BE, 7);
		struct ios_ioc *c = bfq_test_ioc(903, IOS_IOPRIO_CLASS_RT, 4);
		struct bfq_data *bfqd;

		T_ASSERT(s);
		bfqd = bfqd_of(&s->q);
		bfq6_with(s, profile(on, 0));
		bfq_ins(s, a, 0, 8, IOS_READ, 0, 0);
		bfq_ins(s, b, 100000, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(bfqd->queue_weights.distinct, 2);
		T_ASSERT(ios_bfq_asymmetric_scenario(bfqd, bfqq_of(&s->q, a, true)));
		T_ASSERT_EQ(ios_bfq_asymmetric_scenario(bfqd, bfqq_of(&s->q, b, true)), !on);
		bfq_ins(s, c, 200000, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(bfqd->busy_in_class[0], 1);
		T_ASSERT_EQ(bfqd->busy_in_class[1], 2);
		T_ASSERT(ios_bfq_asymmetric_scenario(bfqd, bfqq_of(&s->q, b, true)));
		T_ASSERT_EQ(bfqd->num_groups_with_pending_reqs, 1);	/* the root only */
		drain(s, 0);
		T_ASSERT_EQ(bfqd->num_groups_with_pending_reqs, 0);
		T_ASSERT_EQ(bfqd->busy_in_class[0] + bfqd->busy_in_class[1], 0);
		t_sq_free(s);
	}
	return T_PASS;
}

/* One request of @ioc at 0, completed at 1 ms: does its queue idle? */
static bool lone_queue_idles(struct t_sq *s, struct ios_ioc *ioc)
{
	struct ios_request *rq;
	struct bfq_queue *q;

	bfq_ins(s, ioc, 0, 8, IOS_READ, 0, 0);
	rq = t_sq_dispatch(s, 0);
	if (!rq)
		return false;
	t_sq_complete(s, rq, 1 * MS);
	q = bfqq_of(&s->q, ioc, true);
	return q && bfqd_of(&s->q)->in_service_queue == q && bfqq_flag(q, BFQQF_wait_request);
}

/*
 * idle_guarantees_612: an unraised queue that is the only busy one idles
 * in 6.12 (a newcomer must not fill the drive while it thinks); 4.19 sees
 * a symmetric scenario and does not. Two raised queues, both busy, few
 * requests in flight: 6.12 does not idle (every busy queue is raised);
 * 4.19 idles for any raised queue (raised weights are not counted, so
 * the two levels do not make the scenario asymmetric).
 */
static int test_guarantee_rules(void)
{
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash("low_latency=0");
		struct ios_ioc *a = bfq_test_ioc(911, IOS_IOPRIO_CLASS_BE, 4);

		T_ASSERT(s);
		bfq6_with(s, profile(on, 1));
		T_ASSERT_EQ(lone_queue_idles(s, a), on);
		drain(s, 1 * MS);
		t_sq_free(s);
	}
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash(NULL);
		/* two levels: queues of one level created together are stably merged */
		struct ios_ioc *a = bfq_test_ioc(912, IOS_IOPRIO_CLASS_BE, 3);
		struct ios_ioc *b = bfq_test_ioc(913, IOS_IOPRIO_CLASS_BE, 4);
		struct ios_request *rq;
		struct bfq_queue *q;

		T_ASSERT(s);
		bfq6_with(s, profile(on, 1));
		bfq_ins(s, a, 0, 8, IOS_READ, 0, 0);
		bfq_ins(s, b, 100000, 8, IOS_READ, 0, 0);
		bfq_ins(s, b, 200000, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(bfqd_of(&s->q)->wr_busy_queues, 2);
		rq = t_sq_dispatch(s, 0);
		T_ASSERT(rq);
		q = rq->sched_priv[0];
		T_ASSERT(q->wr_coeff > 1);
		t_sq_complete(s, rq, 1 * MS);
		T_ASSERT(ios_rb_empty(&q->sort_list));	/* A's lone request went first */
		T_ASSERT_EQ(bfqq_flag(q, BFQQF_wait_request), !on);
		drain(s, 1 * MS);
		t_sq_free(s);
	}
	return T_PASS;
}

/* wr_idle_floor: a raised queue idles 20 ms, not slice_idle (8 ms) */
static int test_raised_queue_idles_20ms(void)
{
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash(NULL);
		struct ios_ioc *a = bfq_test_ioc(921, IOS_IOPRIO_CLASS_BE, 4);
		struct bfq_data *bfqd;

		T_ASSERT(s);
		bfqd = bfqd_of(&s->q);
		bfq6_with(s, profile(on, 2));
		T_ASSERT(lone_queue_idles(s, a));
		T_ASSERT(bfqq_of(&s->q, a, true)->wr_coeff > 1);
		T_ASSERT_EQ(bfqd->idle_end_ns - (int64_t)MS, (int64_t)(on ? 20 : 8) * (int64_t)MS);
		drain(s, 1 * MS);
		t_sq_free(s);
	}
	return T_PASS;
}

/*
 * small_rq_idle_612: the idling queue gets a lone small request. 4.19
 * keeps the idle window open for it to grow by merges; 6.12 only where
 * idling boosts throughput, never on queueing flash.
 */
static int test_small_request_ends_idling(void)
{
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash("low_latency=0");
		struct ios_ioc *a = bfq_test_ioc(931, IOS_IOPRIO_CLASS_BE, 4);
		struct bfq_queue *q;

		T_ASSERT(s);
		bfq6_with(s, profile(on, 3));
		T_ASSERT(lone_queue_idles(s, a));
		q = bfqq_of(&s->q, a, true);
		bfq_ins(s, a, 8, 8, IOS_READ, 0, 2 * MS);
		T_ASSERT_EQ(bfqq_flag(q, BFQQF_wait_request), !on);
		drain(s, 2 * MS);
		t_sq_free(s);
	}
	return T_PASS;
}

/*
 * hw_tag_612: 33 samples with 4 in the drive. 4.19 needs more than 4 to
 * call it queueing, 6.12 more than 3. Then a short-think-time in-service
 * queue with one request in flight and 2 in the drive: 6.12 takes no
 * sample (the queue cannot fill the drive), 4.19 does.
 */
static int test_hw_tag_detection(void)
{
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash("low_latency=0");
		struct ios_ioc *a = bfq_test_ioc(941, IOS_IOPRIO_CLASS_BE, 4);
		struct bfq_data *bfqd;
		struct ios_request *rq;
		struct bfq_queue *q;
		int saved_in_driver, saved_queued;

		T_ASSERT(s);
		bfqd = bfqd_of(&s->q);
		bfq6_with(s, profile(on, 4));
		bfq_ins(s, a, 0, 8, IOS_READ, 0, 0);
		rq = t_sq_dispatch(s, 0);
		T_ASSERT(rq);
		q = bfqd->in_service_queue;
		T_ASSERT(q);
		saved_in_driver = bfqd->rq_in_driver;
		saved_queued = bfqd->queued;
		/* the in-service queue looks like it could fill the drive: samples count */
		bfqq_clear(q, BFQQF_has_short_ttime);
		bfqd->hw_tag = -1;
		bfqd->hw_tag_samples = 0;
		bfqd->rq_in_driver = 4;
		bfqd->queued = 0;
		for (int i = 0; i < 33; i++)
			ios_bfq_update_hw_tag(bfqd);
		T_ASSERT_EQ(bfqd->hw_tag, on ? 1 : 0);
		T_ASSERT_EQ(bfqd->nonrot_with_queueing, on);
		/* short think time, 1 in flight, 2 in the drive, 2 queued elsewhere */
		bfqq_set(q, BFQQF_has_short_ttime);
		bfqd->hw_tag = -1;
		bfqd->hw_tag_samples = 0;
		bfqd->rq_in_driver = 2;
		bfqd->queued = 2;
		ios_bfq_update_hw_tag(bfqd);
		T_ASSERT_EQ(bfqd->hw_tag_samples, on ? 0 : 1);
		bfqd->rq_in_driver = saved_in_driver;
		bfqd->queued = saved_queued;
		t_sq_complete(s, rq, 1 * MS);
		drain(s, 1 * MS);
		t_sq_free(s);
	}
	return T_PASS;
}

/*
 * preempt_612: B (BE7, weight 10) is in service with requests left when A
 * (BE0, weight 80) becomes busy. 6.12 expires B for A (higher weight);
 * 4.19 preempts only for a raised queue recovering a hole.
 */
static int test_heavier_newcomer_preempts(void)
{
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash("low_latency=0");
		struct ios_ioc *a = bfq_test_ioc(951, IOS_IOPRIO_CLASS_BE, 0);
		struct ios_ioc *b = bfq_test_ioc(952, IOS_IOPRIO_CLASS_BE, 7);
		struct bfq_data *bfqd;
		struct ios_request *rq;

		T_ASSERT(s);
		bfqd = bfqd_of(&s->q);
		bfq6_with(s, profile(on, 5));
		for (int i = 0; i < 4; i++)
			bfq_ins(s, b, 1000 + 8 * (uint64_t)i, 8, IOS_READ, 0, 0);
		rq = t_sq_dispatch(s, 0);
		T_ASSERT(rq && rq->ioc == b);
		bfq_ins(s, a, 500000, 8, IOS_READ, 0, 100 * US);
		T_ASSERT_U64_EQ(bfqd->expirations[BFQQE_PREEMPTED], on ? 1 : 0);
		t_sq_complete(s, rq, 200 * US);
		rq = t_sq_dispatch(s, 200 * US);
		T_ASSERT(rq && rq->ioc == (on ? a : b));
		t_sq_complete(s, rq, 300 * US);
		drain(s, 300 * US);
		t_sq_free(s);
	}
	return T_PASS;
}

/*
 * async_charge_asym: an async write (BE4, weight 40) beside sync readers
 * of weights 80 and 10 is charged its 8 sectors in 6.12 (asymmetric: it
 * is not the lightest), 3 x 8 in 4.19; with every weight equal, 3 x 8 in
 * both.
 */
static int test_async_charge(void)
{
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = flash("low_latency=0");
		struct ios_ioc *a = bfq_test_ioc(961, IOS_IOPRIO_CLASS_BE, 0);
		struct ios_ioc *b = bfq_test_ioc(962, IOS_IOPRIO_CLASS_BE, 7);
		struct ios_ioc *w = bfq_test_ioc(963, IOS_IOPRIO_CLASS_BE, 4);
		struct ios_request *wr;

		T_ASSERT(s);
		bfq6_with(s, profile(on, 6));
		wr = bfq_ins(s, w, 700000, 8, IOS_WRITE, 0, 0);
		T_ASSERT(!bfqq_flag(wr->sched_priv[0], BFQQF_sync));
		T_ASSERT_EQ(ios_bfq_serv_to_charge(wr, wr->sched_priv[0]), 24);
		bfq_ins(s, a, 0, 8, IOS_READ, 0, 0);
		bfq_ins(s, b, 100000, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(ios_bfq_serv_to_charge(wr, wr->sched_priv[0]), on ? 8 : 24);
		drain(s, 0);
		t_sq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_asymmetric_scenario, test_guarantee_rules, test_raised_queue_idles_20ms,
		     test_small_request_ends_idling, test_hw_tag_detection,
		     test_heavier_newcomer_preempts, test_async_charge);
}
