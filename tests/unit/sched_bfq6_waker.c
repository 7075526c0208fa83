/*
 * Description: bfq-6.12's waker queues (bfq_check_waker, bfq_select_queue;
 * Linux 6.12). Process Z waits for W: each round W's request completes and
 * Z's next request arrives 2 ms later. Once Z's think time is long (three
 * rounds of 30 ms), each such arrival within 4 ms of a completion of W
 * counts; the third in a row, within 128 x slice_idle of the first, makes
 * W Z's waker (Z joins W's woken list). Then, while Z idles, W's request
 * is served in the hole even with Z's inject limit at 0; and while W idles,
 * Z's request is (Z is woken by W). Arrivals 5 ms after W's completion, two
 * detections only, or detections spread wider than 128 x slice_idle make
 * no waker. The waker passes to the queue a process is merged into. With
 * wakers off (4.19) none of this happens.
 */
#include "sched_bfq6_util.h"

static struct ios_ioc *W, *Z;

static struct t_sq *new_queue(const char *slice_idle)
{
	struct t_sq *s = t_sq_new("bfq-6.12", 32, 1, "low_latency=0", slice_idle, NULL);

	W = bfq_test_ioc(801, IOS_IOPRIO_CLASS_BE, 4);
	Z = bfq_test_ioc(802, IOS_IOPRIO_CLASS_BE, 0);
	return s;
}

static void run_one(struct t_sq *s, struct ios_ioc *ioc, uint64_t sector, uint64_t *now)
{
	struct ios_request *rq;

	bfq_ins(s, ioc, sector, 8, IOS_READ, 0, *now);
	while ((rq = bfq6_dispatch_or_wait(s, now)) != NULL) {
		*now += 1 * MS;
		t_sq_complete(s, rq, *now);
		if (rq->ioc == ioc)
			break;
	}
}

/* @n rounds @gap apart: W's request, then Z's @z_delay after W's completion. */
static uint64_t rounds(struct t_sq *s, unsigned n, uint64_t gap, uint64_t z_delay, uint64_t start)
{
	uint64_t now = start;

	for (unsigned k = 0; k < n; k++) {
		uint64_t t = start + k * gap;

		if (now < t)
			now = t;
		run_one(s, W, 1000 + 8 * k, &now);
		now += z_delay;
		run_one(s, Z, 900000 + 8 * k, &now);
	}
	return now;
}

static void drain(struct t_sq *s, uint64_t now)
{
	struct ios_request *rq;

	while ((rq = bfq6_dispatch_or_wait(s, &now)) != NULL)
		t_sq_complete(s, rq, now);
}

static int test_three_detections_make_a_waker(void)
{
	struct bfq_queue *qw, *qz;
	struct bfq_profile off;
	struct t_sq *s;
	uint64_t now;

	bfq6_register();
	s = new_queue("slice_idle=8");
	T_ASSERT(s);
	now = rounds(s, 5, 30 * MS, 2 * MS, 0);
	qw = bfqq_of(&s->q, W, true);
	qz = bfqq_of(&s->q, Z, true);
	/* rounds 0-2 build Z's long think time; rounds 3 and 4 are detections 1 and 2 */
	T_ASSERT(!bfqq_flag(qz, BFQQF_has_short_ttime));
	T_ASSERT(qz->waker_bfqq == NULL);
	T_ASSERT(qz->tentative_waker_bfqq == qw);
	T_ASSERT_EQ(qz->num_waker_detections, 2);
	now = rounds(s, 1, 30 * MS, 2 * MS, now + 30 * MS);
	T_ASSERT(qz->waker_bfqq == qw);
	T_ASSERT(qz->tentative_waker_bfqq == NULL);
	T_ASSERT(!ios_list_empty(&qw->woken_list));
	T_ASSERT(ios_list_first_entry(&qw->woken_list, struct bfq_queue, woken_node) == qz);
	T_ASSERT_EQ(bfq_stat(&s->q, "wakers_found"), 1);
	drain(s, now);
	t_sq_free(s);

	/* the behaviour off: no detection at all */
	s = new_queue("slice_idle=8");
	T_ASSERT(s);
	bfq6_with(s, BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612, wakers));
	now = rounds(s, 8, 30 * MS, 2 * MS, 0);
	qz = bfqq_of(&s->q, Z, true);
	T_ASSERT(qz->waker_bfqq == NULL && qz->num_waker_detections == 0);
	drain(s, now);
	t_sq_free(s);
	return T_PASS;
}

static int test_no_waker_when(void)
{
	struct t_sq *s;
	uint64_t now;

	bfq6_register();
	/* Z comes 5 ms after W's completion: past the 4 ms window */
	s = new_queue("slice_idle=8");
	T_ASSERT(s);
	now = rounds(s, 8, 30 * MS, 5 * MS, 0);
	T_ASSERT(bfqq_of(&s->q, Z, true)->waker_bfqq == NULL);
	T_ASSERT_EQ(bfqq_of(&s->q, Z, true)->num_waker_detections, 0);
	drain(s, now);
	t_sq_free(s);

	/*
	 * slice_idle 1 ms: detections must fall within 128 ms. 70 ms apart the
	 * third is 140 ms after the first and detection starts over; 30 ms
	 * apart it makes a waker.
	 */
	s = new_queue("slice_idle=1");
	T_ASSERT(s);
	now = rounds(s, 9, 70 * MS, 2 * MS, 0);
	T_ASSERT(bfqq_of(&s->q, Z, true)->waker_bfqq == NULL);
	T_ASSERT(bfqq_of(&s->q, Z, true)->num_waker_detections < 3);
	drain(s, now);
	t_sq_free(s);
	s = new_queue("slice_idle=1");
	T_ASSERT(s);
	now = rounds(s, 9, 30 * MS, 2 * MS, 0);
	T_ASSERT(bfqq_of(&s->q, Z, true)->waker_bfqq == bfqq_of(&s->q, W, true));
	drain(s, now);
	t_sq_free(s);
	return T_PASS;
}

/*
 * The waker established, @idler (weight 80 vs 40: it idles) empties while
 * @other has a request queued; with the idler's inject limit at 0, is
 * @other's request served in the hole?
 */
static int serve_in_hole(bool wakers, struct ios_ioc *idler, struct ios_ioc *other,
			 bool *served)
{
	struct t_sq *s = new_queue("slice_idle=8");
	struct bfq_profile off, rules;
	struct ios_request *rq;
	struct bfq_queue *qi;
	uint64_t now;

	if (!s)
		return -1;
	now = rounds(s, 6, 30 * MS, 2 * MS, 0);
	drain(s, now);
	if (bfqq_of(&s->q, Z, true)->waker_bfqq != bfqq_of(&s->q, W, true))
		return -1;
	/*
	 * The hole is made by 4.19's idling rules (any two weights: idle;
	 * preempt only for raising), so that the lighter queue idles too:
	 * 6.12's asymmetric_612 would not idle for it, and preempt_612 would
	 * let the heavier newcomer take the device (sched_bfq6_idle.c).
	 */
	rules = ios_bfq_profile_612;
	rules.asymmetric_612 = rules.preempt_612 = false;
	bfq6_with(s, &rules);
	if (!wakers)
		bfq6_with(s, BFQ6_PROFILE_WITHOUT(off, &rules, wakers));
	now += 100 * MS;
	bfq_ins(s, idler, 50000, 8, IOS_READ, 0, now);
	rq = t_sq_dispatch(s, now);
	if (!rq || rq->ioc != idler)
		return -1;
	bfq_ins(s, other, 70000, 8, IOS_READ, 0, now + 500 * US);
	t_sq_complete(s, rq, now + 1 * MS);
	qi = bfqq_of(&s->q, idler, true);
	if (!bfqq_flag(qi, BFQQF_wait_request) || bfqd_of(&s->q)->in_service_queue != qi)
		return -1;
	qi->inject_limit = 0;
	qi->last_serv_time_ns = 1 * MS;
	rq = t_sq_dispatch(s, now + 1500 * US);
	*served = rq && rq->ioc == other;
	if (rq)
		t_sq_complete(s, rq, now + 2 * MS);
	drain(s, now + 2 * MS);
	t_sq_free(s);
	return 0;
}

static int test_waker_and_woken_fill_holes(void)
{
	bool served;

	bfq6_register();
	/* Z idles: its waker W's request goes in */
	T_ASSERT_EQ(serve_in_hole(true, Z, W, &served), 0);
	T_ASSERT(served);
	T_ASSERT_EQ(serve_in_hole(false, Z, W, &served), 0);
	T_ASSERT(!served);
	/* W idles: the queue it wakes, Z, gets served */
	T_ASSERT_EQ(serve_in_hole(true, W, Z, &served), 0);
	T_ASSERT(served);
	T_ASSERT_EQ(serve_in_hole(false, W, Z, &served), 0);
	T_ASSERT(!served);
	return T_PASS;
}

/* bfq_merge_bfqqs: the shared queue inherits the merged queue's waker. */
static int test_merge_passes_the_waker(void)
{
	struct t_sq *s = new_queue("slice_idle=8");
	struct ios_ioc *m = bfq_test_ioc(803, IOS_IOPRIO_CLASS_BE, 0);
	struct bfq_queue *qz, *qm, *qw;
	struct bfq_io_cq *bic;
	uint64_t now;

	T_ASSERT(s);
	now = rounds(s, 6, 30 * MS, 2 * MS, 0);
	drain(s, now);
	qz = bfqq_of(&s->q, Z, true);
	qw = bfqq_of(&s->q, W, true);
	T_ASSERT(qz->waker_bfqq == qw);
	run_one(s, m, 5000000, &now);
	qm = bfqq_of(&s->q, m, true);
	T_ASSERT(qm && qm != qz && qm->waker_bfqq == NULL);
	bic = ios_bfq_bic_lookup(bfqd_of(&s->q), Z);
	qm->ref++;	/* the reference bfq_setup_merge would have taken */
	ios_bfq_merge_bfqqs(bfqd_of(&s->q), bic, qz, qm);
	T_ASSERT(qm->waker_bfqq == qw);
	drain(s, now);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_three_detections_make_a_waker, test_no_waker_when,
		     test_waker_and_woken_fill_holes, test_merge_passes_the_waker);
}
