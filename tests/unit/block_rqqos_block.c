/*
 * Who sleeps where on blk-mq with cgroup v2 hooks (src/block/rq_qos.c,
 * mq.c, block.c; Linux 6.12): an rq_qos policy that keeps a bio puts its
 * task to sleep as a tag wait does (io.cost, io.latency: rq_qos_wait),
 * flushing the task's plug first; blk-throttle holding a bio does not
 * (blk_throtl_bio parks it and submit_bio returns), and the bio's later
 * sleeps never wake that task. Each test names the rule whose removal
 * fails it.
 */
#include "rqqos_rig.h"

/*
 * A kept bio: submit returns 1 (the task sleeps), nothing but Q is traced;
 * the release brings it to its tag and the queue, and wakes the task once.
 * Fails if the core ignores throttle's 1 or does not announce the release.
 */
static int test_hold_sleeps_task(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct p_pol *lat;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	lat->hold = true;
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 1);
	T_ASSERT_EQ(lat->nr_held, 1);
	T_ASSERT_EQ(r->nr_trace, 1);			/* Q only */
	T_ASSERT_EQ(r->nr_queued_cb, 0);
	T_ASSERT_EQ(r->nr_issued, 0);
	lat->hold = false;
	p_release(lat, 700);
	T_ASSERT_EQ(r->nr_queued_cb, 1);
	T_ASSERT(r->queued_order[0] == &r->bios[0]);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_U64_EQ(r->issued[0]->alloc_ns, 700);
	T_ASSERT_EQ(lat->last_tag_wait, 0);		/* the policy's wait is not a tag wait */
	T_ASSERT_U64_EQ(r->bios[0].issue_ns, 100);	/* io.latency's clock starts at Q */
	m_rig_free(r, 900);
	free(lat);
	return T_PASS;
}

/*
 * A release goes on at the policy after the one releasing (the woken task
 * walks on in __rq_qos_throttle): the older policy may keep it in turn.
 * Fails if release skips the rest of the chain or restarts at its head.
 */
static int test_release_walks_on(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct p_pol *lat, *cost;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	cost = p_add(r, IOS_RQ_QOS_COST, "cost");
	cost->hold = true;
	lat->hold = true;
	p_log_reset();
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 1);
	T_ASSERT_MSG(!strcmp(p_log, "cost.throttle[Q]"), "log: %s", p_log);
	p_log_reset();
	p_release(cost, 200);
	T_ASSERT_MSG(!strcmp(p_log, "lat.throttle[Q]"), "log: %s", p_log);
	T_ASSERT_EQ(lat->nr_held, 1);
	T_ASSERT_EQ(r->nr_queued_cb, 0);
	p_release(lat, 300);
	T_ASSERT_EQ(r->nr_queued_cb, 1);
	T_ASSERT_EQ(r->nr_issued, 1);
	m_rig_free(r, 400);
	free(lat);
	free(cost);
	return T_PASS;
}

/*
 * The task sleeping in rq_qos_wait goes through io_schedule, which
 * flushes its plug (UT): the request it had plugged goes on. Fails
 * without the flush (the plugged request would wait for the release).
 */
static int test_hold_flushes_plug(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct ios_plug plug;
	struct p_pol *lat;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	memset(&plug, 0, sizeof(plug));
	ios_blk_start_plug(ioc, &plug);
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 0);
	T_ASSERT_EQ(r->nr_issued, 0);			/* on the plug */
	lat->hold = true;
	T_ASSERT_EQ(m_submit(r, ioc, 5000, 8, IOS_READ, 0, 110), 1);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT(memchr(r->trace, 'T', r->nr_trace) != NULL);	/* UT */
	lat->hold = false;
	p_release(lat, 200);
	ios_blk_finish_plug(ioc, &plug, 210);
	T_ASSERT_EQ(r->nr_issued, 2);
	m_rig_free(r, 400);
	free(lat);
	return T_PASS;
}

/*
 * A policy letting a bio go from its done_bio (a task woken by a
 * completion) sees the completing request's tag free: the woken task
 * runs after the completion, so no tag sleep (S) comes of it. Fails if
 * releases made during a completion are not held back until the tags are
 * free.
 */
static int test_release_in_completion(void)
{
	struct m_rig *r = m_rig_new("none", 1, 1, 1, NULL);
	struct ios_ioc *a = m_ioc(1, 0), *b = m_ioc(2, 0);
	struct p_pol *lat;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	T_ASSERT_EQ(m_submit(r, a, 0, 8, IOS_READ, 0, 100), 0);
	lat->hold = true;
	T_ASSERT_EQ(m_submit(r, b, 9000, 8, IOS_READ, 0, 110), 1);
	lat->hold = false;
	lat->release_in_done_bio = true;
	ios_queue_complete(r->q, r->issued[0], 500, 0);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_MSG(memchr(r->trace, 'S', r->nr_trace) == NULL, "trace %.*s",
		     (int)r->nr_trace, r->trace);
	T_ASSERT_EQ(r->nr_queued_cb, 1);
	m_rig_free(r, 900);
	free(lat);
	return T_PASS;
}

/* ---- blk-throttle-style holding: the submitter does not sleep ---- */

static struct ios_bio *t_held[8];
static unsigned t_nr_held;
static bool t_hold_all;
static uint64_t t_next = UINT64_MAX;
static unsigned t_nr_timer;

static int t_throtl_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	(void)q, (void)now;
	if (!t_hold_all)
		return 0;
	t_held[t_nr_held++] = bio;
	return 1;
}

static uint64_t t_next_timer(struct ios_queue *q, uint64_t now)
{
	(void)q, (void)now;
	return t_next;
}

static void t_timer(struct ios_queue *q, uint64_t now)
{
	t_nr_timer++;
	t_next = UINT64_MAX;
	/* blk_throtl_dispatch_work_fn: what is due goes on */
	for (unsigned i = 0; i < t_nr_held; i++)
		ios_blkcg_resubmit(q, t_held[i], now);
	t_nr_held = 0;
}

static const struct ios_blk_throtl_ops t_ops = {
	.throtl_bio = t_throtl_bio,
	.next_timer = t_next_timer,
	.timer = t_timer,
};

/*
 * blk_throtl_bio holds the bio before Q: submit returns 0 (the task goes
 * on as if the bio were queued), no trace; the throttle's timer brings it
 * back at its time with Q then, and its issue time is then. Fails if the
 * core lets the held bio's submitter sleep (1), traces Q before the
 * throttle, or misses the throttle's wake-up.
 */
static int test_throtl_hold_no_sleep(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);

	T_ASSERT(r);
	r->q->throtl_ops = &t_ops;
	t_hold_all = true;
	t_nr_held = 0;
	t_next = 1000;
	t_nr_timer = 0;
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 0);
	T_ASSERT_EQ(r->nr_trace, 0);
	T_ASSERT_EQ(t_nr_held, 1);
	T_ASSERT_U64_EQ(r->q->timer_at, 1000);
	ios_queue_timer(r->q, 1000);
	T_ASSERT_EQ(t_nr_timer, 1);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_MSG(r->nr_trace >= 2 && r->trace[0] == 'Q' && r->trace[1] == 'G', "trace %.*s",
		     (int)r->nr_trace, r->trace);
	T_ASSERT_U64_EQ(r->bios[0].issue_ns, 1000);
	T_ASSERT_EQ(r->nr_queued_cb, 0);		/* its task never slept */
	m_rig_free(r, 2000);
	t_hold_all = false;
	return T_PASS;
}

/*
 * A bio blk-throttle let go that then sleeps, for a tag or in an rq_qos
 * policy, must not "wake" its task when it gets in: the task heard it was
 * accepted long ago and may be asleep on something else (IOS_BIO_ANNOUNCED).
 * Fails without that rule (queued() would be called).
 */
static int test_throtl_resubmit_sleeps_silently(void)
{
	struct m_rig *r = m_rig_new("none", 1, 1, 1, NULL);
	struct ios_ioc *a = m_ioc(1, 0), *b = m_ioc(2, 0);
	struct p_pol *lat;

	T_ASSERT(r);
	r->q->throtl_ops = &t_ops;
	t_nr_held = 0;
	t_next = UINT64_MAX;
	T_ASSERT_EQ(m_submit(r, a, 0, 8, IOS_READ, 0, 100), 0);	/* takes the only tag */
	t_hold_all = true;
	T_ASSERT_EQ(m_submit(r, b, 9000, 8, IOS_READ, 0, 110), 0);
	t_hold_all = false;
	ios_blkcg_resubmit(r->q, t_held[0], 200);		/* no tag: sleeps (S) */
	T_ASSERT(memchr(r->trace, 'S', r->nr_trace) != NULL);
	ios_queue_complete(r->q, r->issued[0], 300, 0);	/* its tag comes */
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(r->nr_queued_cb, 0);
	m_rig_free(r, 400);

	/* the same through an rq_qos policy that keeps it and lets it go */
	r = m_rig_new(NULL, 8, 1, 1, NULL);
	T_ASSERT(r);
	r->q->throtl_ops = &t_ops;
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	t_nr_held = 0;
	t_hold_all = true;
	T_ASSERT_EQ(m_submit(r, a, 0, 8, IOS_READ, 0, 100), 0);
	t_hold_all = false;
	lat->hold = true;
	ios_blkcg_resubmit(r->q, t_held[0], 200);
	T_ASSERT_EQ(lat->nr_held, 1);
	lat->hold = false;
	p_release(lat, 300);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_EQ(r->nr_queued_cb, 0);
	m_rig_free(r, 400);
	free(lat);
	return T_PASS;
}

/*
 * A bio blk-throttle let go comes from the throttle's dispatch, not from
 * its task: it does not merge into the task's plug, and its sleep does not
 * flush that plug. Fails if the resubmission uses bio->ioc->plug.
 */
static int test_throtl_resubmit_not_in_task_plug(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct ios_plug plug;

	T_ASSERT(r);
	r->q->throtl_ops = &t_ops;
	t_nr_held = 0;
	memset(&plug, 0, sizeof(plug));
	ios_blk_start_plug(ioc, &plug);
	t_hold_all = true;
	T_ASSERT_EQ(m_submit(r, ioc, 8, 8, IOS_READ, 0, 100), 0);	/* held */
	t_hold_all = false;
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 110), 0);	/* plugged */
	ios_blkcg_resubmit(r->q, t_held[0], 120);
	T_ASSERT_EQ(r->q->nr_plug_merges, 0);
	T_ASSERT_EQ(plug.rq_count, 1);
	ios_blk_finish_plug(ioc, &plug, 130);
	m_rig_free(r, 400);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_hold_sleeps_task, test_release_walks_on, test_hold_flushes_plug,
		     test_release_in_completion, test_throtl_hold_no_sleep,
		     test_throtl_resubmit_sleeps_silently, test_throtl_resubmit_not_in_task_plug);
}
