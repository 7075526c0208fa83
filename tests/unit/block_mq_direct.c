/*
 * blk-mq dispatch (src/block/mq.c; Linux 6.12 blk_mq_submit_bio,
 * blk_mq_try_issue_directly, blk_mq_dispatch_rq_list,
 * blk_mq_update_dispatch_busy, __blk_mq_sched_dispatch_requests,
 * blk_mq_do_dispatch_sched, blk_mq_do_dispatch_ctx):
 * - 'none' issues a request at submission (Q G D, no I);
 * - a device that says busy gets the request back on the hardware queue's
 *   dispatch list (R), dispatch_busy rises, and it goes first on the next run;
 * - while dispatch_busy, 'none' keeps sync requests of a single-queue device
 *   in the software context and dispatches them one at a time, and an
 *   elevator hands over one request per pass.
 */
#include "mq_rig.h"

static int test_none_issues_at_submit(void)
{
	struct m_rig *r = m_rig_new("none", 4, 1, 1, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(m_submit(r, m_ioc(1, 0), 0, 8, IOS_READ, 0, 5), 0);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_EQ(r->issued[0]->dispatch_ns, 5);
	T_ASSERT_MSG(!strcmp(r->trace, "QGD"), "trace %s", r->trace);
	T_ASSERT_EQ(r->q->mq->nr_direct, 1);
	m_rig_free(r, 10);
	return T_PASS;
}

static int test_busy_requeues(void)
{
	struct m_rig *r = m_rig_new("none", 4, 1, 1, NULL);
	struct ios_mq_hctx *h;

	T_ASSERT(r);
	h = &r->q->mq->hctx[0];
	r->accept = 0;					/* the device refuses */
	T_ASSERT_EQ(m_submit(r, m_ioc(1, 0), 0, 8, IOS_READ, 0, 0), 0);
	T_ASSERT_EQ(r->nr_issued, 0);
	T_ASSERT_EQ(h->nr_dispatch, 1);
	T_ASSERT(h->dispatch_busy > 0);
	/* direct issue refused, then the run's own try: R twice, as the kernel traces it */
	T_ASSERT_MSG(!strcmp(r->trace, "QGRR"), "trace %s", r->trace);
	/* the device takes it again: the dispatch list goes first, busy decays */
	r->accept = -1;
	ios_queue_run(r->q, 10);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_EQ(h->nr_dispatch, 0);
	T_ASSERT_EQ(r->issued[0]->sector, 0);
	m_rig_free(r, 20);
	return T_PASS;
}

/* Refused while nothing is in flight: a rerun 3 ms later (BLK_MQ_RESOURCE_DELAY). */
static int test_busy_idle_rerun(void)
{
	struct m_rig *r = m_rig_new("none", 4, 1, 1, NULL);

	T_ASSERT(r);
	r->accept = 0;
	m_submit(r, m_ioc(1, 0), 0, 8, IOS_READ, 0, 1000);
	T_ASSERT_U64_EQ(r->q->timer_at, 1000 + 3000000);
	r->accept = -1;
	ios_queue_timer(r->q, 1000 + 3000000);
	T_ASSERT_EQ(r->nr_issued, 1);
	m_rig_free(r, 5000000);
	return T_PASS;
}

/*
 * 'none', dispatch_busy set: three sync reads wait in the software context
 * (I); a run takes them one at a time, so when the device refuses the
 * second, the third is still in the context (mergeable), not on the
 * dispatch list. Flushing the contexts whole would have moved both.
 */
static int test_none_one_at_a_time_while_busy(void)
{
	struct m_rig *r = m_rig_new("none", 8, 1, 1, NULL);
	struct ios_mq_hctx *h;

	T_ASSERT(r);
	h = &r->q->mq->hctx[0];
	r->accept = 0;
	m_submit(r, m_ioc(1, 0), 0, 8, IOS_READ, 0, 0);		/* refused: busy */
	T_ASSERT(h->dispatch_busy > 0);
	for (unsigned i = 1; i <= 3; i++)
		m_submit(r, m_ioc(1 + i, 0), 1000 * i, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(r->q->mq->ctx[0].nr_rqs, 3);
	T_ASSERT_EQ(r->nr_issued, 0);
	r->accept = 2;		/* takes the requeued one and one more, then busy */
	ios_queue_run(r->q, 10);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(h->nr_dispatch, 1);
	T_ASSERT_EQ(r->q->mq->ctx[0].nr_rqs, 1);
	r->accept = -1;
	ios_queue_run(r->q, 20);
	T_ASSERT_EQ(r->nr_issued, 4);
	m_rig_free(r, 30);
	return T_PASS;
}

/*
 * An elevator while dispatch_busy: one request per pass
 * (__blk_mq_do_dispatch_sched's max_dispatch). The device takes the
 * requeued request and one more, then refuses: the refused one waits on
 * the dispatch list and the scheduler still holds the last two. Without
 * the rule the pass would have pulled all four onto the dispatch list.
 */
static int test_elevator_one_per_pass_while_busy(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_mq_hctx *h;

	T_ASSERT(r);
	h = &r->q->mq->hctx[0];
	r->accept = 0;
	m_submit(r, m_ioc(1, 0), 0, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(h->nr_dispatch, 1);
	T_ASSERT(h->dispatch_busy > 0);
	/* while refused, new requests stay in the scheduler (the dispatch list is not empty) */
	for (unsigned i = 1; i <= 4; i++)
		m_submit(r, m_ioc(1 + i, 0), 1000 * i, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(r->q->nr_sorted, 4);
	r->accept = 2;
	ios_queue_run(r->q, 10);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(r->issued[1]->sector, 1000);
	T_ASSERT_EQ(h->nr_dispatch, 1);		/* the refused 2000 */
	T_ASSERT_EQ(r->q->nr_sorted, 2);		/* 3000 and 4000 never left the scheduler */
	r->accept = -1;
	ios_queue_run(r->q, 20);
	T_ASSERT_EQ(r->nr_issued, 5);
	m_rig_free(r, 30);
	return T_PASS;
}

/* The EWMA: one refusal gives 2, two clean dispatches bring it back to 0. */
static int test_busy_ewma(void)
{
	struct m_rig *r = m_rig_new("none", 8, 1, 1, NULL);
	struct ios_mq_hctx *h;

	T_ASSERT(r);
	h = &r->q->mq->hctx[0];
	r->accept = 0;
	m_submit(r, m_ioc(1, 0), 0, 8, IOS_READ, 0, 0);
	/* (0*7 + 16)/8 = 2 at the direct try, (2*7 + 16)/8 = 3 at the run's */
	T_ASSERT_EQ(h->dispatch_busy, 3);
	r->accept = -1;
	ios_queue_run(r->q, 1);				/* 3*7/8 = 2 */
	T_ASSERT_EQ(h->dispatch_busy, 2);
	m_submit(r, m_ioc(1, 0), 1000, 8, IOS_READ, 0, 2);	/* busy, 1 queue: ctx, then 2*7/8 */
	T_ASSERT_EQ(h->dispatch_busy, 1);
	m_submit(r, m_ioc(1, 0), 2000, 8, IOS_READ, 0, 3);
	T_ASSERT_EQ(h->dispatch_busy, 0);
	m_submit(r, m_ioc(1, 0), 3000, 8, IOS_READ, 0, 4);	/* direct again */
	T_ASSERT_EQ(r->q->mq->nr_direct, 1);
	m_rig_free(r, 10);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_none_issues_at_submit, test_busy_requeues, test_busy_idle_rerun,
		     test_none_one_at_a_time_while_busy, test_elevator_one_per_pass_while_busy,
		     test_busy_ewma);
}
