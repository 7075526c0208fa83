/*
 * The blk-mq plug's flushes (src/block/plug.c; Linux 6.12 blk_add_rq_to_plug,
 * blk_plug_max_rq_count, blk_mq_flush_plug_list, blk_mq_dispatch_plug_list,
 * io_schedule_prepare): the 33rd request flushes a plug of one queue, the
 * 65th one of two queues; a plug whose newest request is 128 KiB flushes
 * before the next joins, unless queue.nomerges=2; the unplug carries the
 * depth handed on; P when a request goes on an empty plug; a task that
 * sleeps for a tag flushes implicitly (UT); the legacy layer has no plug.
 * Fake clock: every call passes its own time.
 */
#include "mq_rig.h"

/* A bio of @ioc at @sector, far from the others (never mergeable). */
static void sub(struct m_rig *r, struct ios_ioc *ioc, unsigned i, uint32_t nr, uint64_t now)
{
	if (m_submit(r, ioc, 1000000 + (uint64_t)i * 4096, nr, IOS_READ, 0, now) != 0)
		abort();	/* every test here has tags to spare */
}

static unsigned count(const struct m_rig *r, char c)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nr_trace; i++)
		n += r->trace[i] == c;
	return n;
}

/* 32 requests wait on the plug; the 33rd flushes them (U, depth 32) and starts anew (P). */
static int test_count_limit(void)
{
	struct m_rig *r = m_rig_new("none", 64, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	for (unsigned i = 0; i < 32; i++)
		sub(r, ioc, i, 8, 10);
	T_ASSERT_EQ(r->nr_issued, 0);
	T_ASSERT_EQ(plug.rq_count, 32);
	T_ASSERT_EQ(count(r, 'P'), 1);
	sub(r, ioc, 32, 8, 20);
	T_ASSERT_EQ(r->nr_issued, 32);
	T_ASSERT_EQ(count(r, 'U'), 1);
	T_ASSERT_EQ(r->q->unplug_depth, 32);
	T_ASSERT_EQ(plug.rq_count, 1);
	T_ASSERT_EQ(count(r, 'P'), 2);
	/* oldest first: the first request issued is the first submitted */
	T_ASSERT_EQ(r->issued[0]->sector, 1000000);
	ios_blk_finish_plug(ioc, &plug, 30);
	T_ASSERT(ioc->plug == NULL);
	T_ASSERT_EQ(r->nr_issued, 33);
	T_ASSERT_EQ(count(r, 'U'), 2);
	T_ASSERT_EQ(r->q->unplug_depth, 1);
	/* under 'none' on the fast path nothing is inserted: Q G P ... U D ... */
	T_ASSERT_EQ(count(r, 'I'), 0);
	m_rig_free(r, 40);
	return T_PASS;
}

/* Requests of two queues: the limit is 64, and each queue's unplug carries its own depth. */
static int test_two_queues(void)
{
	struct m_rig *a = m_rig_new("none", 64, 1, 1, NULL);
	struct m_rig *b = m_rig_new("none", 64, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(2, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(a && b);
	ios_blk_start_plug(ioc, &plug);
	for (unsigned i = 0; i < 64; i++)
		sub(i % 2 ? b : a, ioc, i, 8, 10);
	T_ASSERT(plug.multiple_queues);
	T_ASSERT_EQ(a->nr_issued + b->nr_issued, 0);
	T_ASSERT_EQ(plug.rq_count, 64);
	sub(a, ioc, 64, 8, 20);
	T_ASSERT_EQ(a->nr_issued, 32);
	T_ASSERT_EQ(b->nr_issued, 32);
	T_ASSERT_EQ(a->q->unplug_depth, 32);
	T_ASSERT_EQ(b->q->unplug_depth, 32);
	T_ASSERT_EQ(count(a, 'U') + count(b, 'U'), 2);
	ios_blk_finish_plug(ioc, &plug, 30);
	T_ASSERT_EQ(a->nr_issued, 33);
	m_rig_free(a, 40);
	m_rig_free(b, 40);
	return T_PASS;
}

/*
 * A 128 KiB request on the plug flushes it before the next request joins;
 * 124 KiB does not. @setting: a queue setting or NULL; @flushes: whether
 * the 128 KiB rule applies.
 */
static int size_rule(const char *setting, bool flushes)
{
	struct m_rig *r = m_rig_new("none", 64, 1, 1, setting);
	struct ios_ioc *ioc = m_ioc(3, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	sub(r, ioc, 0, 248, 10);		/* 124 KiB */
	sub(r, ioc, 1, 8, 11);
	T_ASSERT_EQ(r->nr_issued, 0);
	sub(r, ioc, 2, 256, 12);		/* 128 KiB */
	T_ASSERT_EQ(r->nr_issued, 0);
	sub(r, ioc, 3, 8, 13);
	T_ASSERT_EQ(r->nr_issued, flushes ? 3 : 0);
	T_ASSERT_EQ(plug.rq_count, flushes ? 1 : 4);
	ios_blk_finish_plug(ioc, &plug, 20);
	T_ASSERT_EQ(r->nr_issued, 4);
	m_rig_free(r, 30);
	return T_PASS;
}

static int test_size_limit(void)
{
	return size_rule(NULL, true);
}

/* blk_queue_nomerges is QUEUE_FLAG_NOMERGES: nomerges=2 only; nomerges=1 keeps the rule */
static int test_size_limit_nomerges(void)
{
	int ret = size_rule("queue.nomerges=2", false);

	if (ret != T_PASS)
		return ret;
	return size_rule("queue.nomerges=1", true);
}

/* P once per empty plug: after each flush, and again after a finish and a new start. */
static int test_plug_trace_once(void)
{
	struct m_rig *r = m_rig_new("none", 64, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(4, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	for (unsigned i = 0; i < 5; i++)
		sub(r, ioc, i, 8, 10);
	T_ASSERT_EQ(count(r, 'P'), 1);
	ios_blk_finish_plug(ioc, &plug, 11);
	/* finishing an empty plug traces nothing */
	ios_blk_start_plug(ioc, &plug);
	ios_blk_finish_plug(ioc, &plug, 12);
	T_ASSERT_EQ(count(r, 'U'), 1);
	ios_blk_start_plug(ioc, &plug);
	sub(r, ioc, 10, 8, 13);
	T_ASSERT_EQ(count(r, 'P'), 2);
	ios_blk_finish_plug(ioc, &plug, 14);
	T_ASSERT_EQ(count(r, 'U'), 2);
	T_ASSERT_EQ(r->nr_issued, 6);
	m_rig_free(r, 20);
	return T_PASS;
}

/*
 * A plugged task whose bio finds no tag sleeps: the plug is flushed from
 * the scheduler first (UT, depth 4), then the task sleeps (S).
 */
static int test_implicit_unplug(void)
{
	struct m_rig *r = m_rig_new("none", 4, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(5, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	for (unsigned i = 0; i < 4; i++)
		sub(r, ioc, i, 8, 10);
	T_ASSERT_EQ(r->nr_issued, 0);
	T_ASSERT_EQ(m_submit(r, ioc, 7, 8, IOS_READ, 0, 11), 1);	/* no tag: sleeps */
	T_ASSERT_EQ(count(r, 'T'), 1);
	T_ASSERT_EQ(count(r, 'U'), 0);
	T_ASSERT_EQ(r->q->unplug_depth, 4);
	T_ASSERT_EQ(plug.rq_count, 0);
	/* from the scheduler, 'none' queues them in the software context (I), then runs */
	T_ASSERT_EQ(count(r, 'I'), 4);
	T_ASSERT_EQ(r->nr_issued, 4);
	T_ASSERT(strstr(r->trace, "TIIIIDDDDS") != NULL);
	/*
	 * the sleeper gets a tag at the first completion and goes on unplugged
	 * (an approximation: the kernel's task, still inside its system call,
	 * would put it on its plug; the simulated task never blocked there)
	 */
	ios_queue_complete(r->q, r->issued[0], 20, 0);
	T_ASSERT_EQ(r->nr_queued_cb, 1);
	T_ASSERT_EQ(r->nr_issued, 5);
	T_ASSERT_EQ(plug.rq_count, 0);
	ios_blk_finish_plug(ioc, &plug, 21);
	T_ASSERT_EQ(count(r, 'U'), 0);
	m_rig_free(r, 30);
	return T_PASS;
}

/* An elevator: the plug flushes group by group into it (U, then I for each). */
static int test_elevator_flush(void)
{
	struct m_rig *r = m_rig_new(NULL, 64, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(6, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	for (unsigned i = 0; i < 3; i++)
		sub(r, ioc, i, 8, 10);
	T_ASSERT(plug.has_elevator);
	T_ASSERT_EQ(r->q->nr_sorted, 0);
	ios_blk_finish_plug(ioc, &plug, 11);
	T_ASSERT(strstr(r->trace, "UIIIDDD") != NULL);
	T_ASSERT_EQ(r->q->unplug_depth, 3);
	T_ASSERT_EQ(r->issued[0]->sector, 1000000);
	m_rig_free(r, 20);
	return T_PASS;
}

/* The single-queue layer has no plug: a plugged task's bios go straight on. */
static int test_legacy_no_plug(void)
{
	struct t_rig *r = t_rig_new("noop", 4, 1, NULL);
	struct ios_ioc *ioc = t_ioc(7);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	t_submit(r, ioc, 0, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(plug.rq_count, 0);
	T_ASSERT_EQ(r->q->rq_in_driver, 1);
	ios_blk_finish_plug(ioc, &plug, 1);
	while (t_complete_next(r, 10))
		;
	t_rig_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_count_limit, test_two_queues, test_size_limit, test_size_limit_nomerges,
		     test_plug_trace_once, test_implicit_unplug, test_elevator_flush,
		     test_legacy_no_plug);
}
