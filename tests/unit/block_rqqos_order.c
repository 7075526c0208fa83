/*
 * The rq_qos chain's order on blk-mq (src/block/rq_qos.c, mq.c, merge.c;
 * Linux 6.12 block/blk-rq-qos.h and the rq_qos_* calls of blk-mq.c,
 * blk-merge.c, bio.c). Each test names the rule whose removal fails it.
 * Two recording policies: "lat" (RQ_QOS_LATENCY) added first, "cost"
 * (RQ_QOS_COST) second, so "cost" is the head of the chain.
 */
#include "rqqos_rig.h"

/*
 * rq_qos_add prepends: every walk calls the newest-enabled policy first.
 * Fails if ios_rq_qos_add appends. A second policy of one id is refused
 * (-EBUSY), a single-queue queue has no chain (-EOPNOTSUPP).
 */
static int test_newest_first(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL), *sq;
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct p_pol *lat, *cost, dup;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	cost = p_add(r, IOS_RQ_QOS_COST, "cost");
	T_ASSERT(lat && cost);
	T_ASSERT(r->q->rq_qos == &cost->r && cost->r.next == &lat->r);
	T_ASSERT(ios_rq_qos_id(r->q, IOS_RQ_QOS_LATENCY) == &lat->r);
	T_ASSERT(ios_rq_qos_id(r->q, IOS_RQ_QOS_WBT) == NULL);
	memset(&dup, 0, sizeof(dup));
	dup.r.ops = &p_ops;
	dup.r.id = IOS_RQ_QOS_COST;
	T_ASSERT_EQ(ios_rq_qos_add(r->q, &dup.r), -EBUSY);
	p_log_reset();
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 0);
	T_ASSERT_MSG(!strcmp(p_log, "cost.throttle[Q] lat.throttle[Q] cost.track[QG] "
			     "lat.track[QG] cost.issue[QGID] lat.issue[QGID]"), "log: %s", p_log);
	/* the cleanup walker too (no call site in the lab: see mq.c) */
	p_log_reset();
	ios_rq_qos_cleanup(r->q, &r->bios[0], 100);
	T_ASSERT_MSG(!strcmp(p_log, "cost.cleanup[QGID] lat.cleanup[QGID]"), "log: %s", p_log);
	/* rq_qos_del: the other one stays */
	ios_rq_qos_del(r->q, &cost->r);
	T_ASSERT(r->q->rq_qos == &lat->r && lat->r.next == NULL);
	m_rig_free(r, 200);
	free(lat);
	free(cost);

	sq = m_rig_new("noop", 8, 1, 1, NULL);
	T_ASSERT(sq);
	T_ASSERT_EQ(ios_rq_qos_add(sq->q, &dup.r), -EOPNOTSUPP);
	m_rig_free(sq, 0);
	return T_PASS;
}

/*
 * blk_mq_submit_bio tries the merges before rq_qos_throttle: a bio that
 * joins a plugged request sees merge (with the request as it was before
 * the bio joined), never throttle. Fails if the throttle moves before the
 * merge attempt, or merge is called after the bio is linked.
 */
static int test_merge_before_throttle(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct ios_plug plug;
	struct p_pol *lat, *cost;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	cost = p_add(r, IOS_RQ_QOS_COST, "cost");
	memset(&plug, 0, sizeof(plug));
	ios_blk_start_plug(ioc, &plug);
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 0);
	p_log_reset();
	T_ASSERT_EQ(m_submit(r, ioc, 8, 8, IOS_READ, 0, 110), 0);
	T_ASSERT_MSG(!strcmp(p_log, "cost.merge[QGPQ] lat.merge[QGPQ]"), "log: %s", p_log);
	T_ASSERT_EQ(cost->merge_rq_sectors, 8);
	T_ASSERT(r->bios[1].qos_flags & IOS_BIO_QOS_MERGED);
	T_ASSERT(!(r->bios[1].qos_flags & IOS_BIO_QOS_THROTTLED));
	T_ASSERT(r->bios[0].qos_flags & IOS_BIO_QOS_THROTTLED);
	ios_blk_finish_plug(ioc, &plug, 120);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_EQ(r->issued[0]->nr_sectors, 16);
	m_rig_free(r, 200);
	free(lat);
	free(cost);
	return T_PASS;
}

/*
 * rq_qos_throttle comes before the tag (blk_mq_get_new_requests): the
 * throttle of a bio that then sleeps for a tag sees only its Q; the wait
 * for the tag becomes the request's tag_wait_ns (io.cost's rq_wait), and
 * track sees the request after G. Fails if the throttle is called after
 * the allocation, or tag_wait_ns is not measured from the allocation.
 */
static int test_throttle_before_tag(void)
{
	struct m_rig *r = m_rig_new("none", 1, 1, 1, NULL);
	struct ios_ioc *a = m_ioc(1, 0), *b = m_ioc(2, 0);
	struct p_pol *cost;

	T_ASSERT(r);
	cost = p_add(r, IOS_RQ_QOS_COST, "cost");
	T_ASSERT_EQ(m_submit(r, a, 0, 8, IOS_READ, 0, 100), 0);
	T_ASSERT_EQ(cost->last_tag_wait, 0);
	p_log_reset();
	T_ASSERT_EQ(m_submit(r, b, 1000, 8, IOS_READ, 0, 150), 1);	/* no tag: sleeps */
	T_ASSERT_MSG(!strcmp(p_log, "cost.throttle[QGDQ]"), "log: %s", p_log);
	p_log_reset();
	ios_queue_complete(r->q, r->issued[0], 400, 0);
	T_ASSERT_MSG(strstr(p_log, "cost.track[QGDQSCG]") != NULL, "log: %s", p_log);
	T_ASSERT_U64_EQ(cost->last_tag_wait, 250);	/* 150 -> 400 */
	T_ASSERT_EQ(r->nr_queued_cb, 1);
	m_rig_free(r, 500);
	free(cost);
	return T_PASS;
}

/*
 * Completion: each bio's done_bio (blk_update_request -> bio_endio ->
 * rq_qos_done_bio), then the request's done (__blk_mq_end_request ->
 * blk_mq_free_request -> rq_qos_done), newest policy first at each step.
 * A bio that went through neither throttle nor merge gets no done_bio.
 * Fails if done is walked before done_bio or done_bio ignores the flags.
 */
static int test_done_bio_then_done(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct ios_plug plug;
	struct p_pol *lat, *cost;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	cost = p_add(r, IOS_RQ_QOS_COST, "cost");
	memset(&plug, 0, sizeof(plug));
	ios_blk_start_plug(ioc, &plug);
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 0);
	T_ASSERT_EQ(m_submit(r, ioc, 8, 8, IOS_READ, 0, 100), 0);	/* merges */
	ios_blk_finish_plug(ioc, &plug, 100);
	T_ASSERT_EQ(r->nr_issued, 1);
	p_log_reset();
	r->nr_trace = 0;
	ios_queue_complete(r->q, r->issued[0], 300, 0);
	T_ASSERT_MSG(!strcmp(p_log, "cost.done_bio[C] lat.done_bio[C] cost.done_bio[C] "
			     "lat.done_bio[C] cost.done[C] lat.done[C]"), "log: %s", p_log);
	/* no flag: no done_bio (bio_endio's BIO_QOS_THROTTLED / BIO_QOS_MERGED test) */
	p_log_reset();
	r->bios[0].qos_flags = 0;
	ios_rq_qos_done_bio(r->q, &r->bios[0], 300);
	T_ASSERT_EQ(p_len, 0);
	m_rig_free(r, 400);
	free(lat);
	free(cost);
	return T_PASS;
}

/*
 * The device refuses a request: trace R, then rq_qos_requeue
 * (__blk_mq_requeue_request); issue comes with the D that follows.
 * Fails without the requeue hook.
 */
static int test_requeue(void)
{
	struct m_rig *r = m_rig_new("none", 4, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct p_pol *cost;

	T_ASSERT(r);
	cost = p_add(r, IOS_RQ_QOS_COST, "cost");
	r->accept = 0;			/* busy */
	p_log_reset();
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 0);
	T_ASSERT_MSG(strstr(p_log, "cost.requeue[QGR]") != NULL, "log: %s", p_log);
	T_ASSERT(strstr(p_log, "issue") == NULL);
	r->accept = -1;
	ios_queue_run(r->q, 3100000);
	/* refused twice (the submission's direct issue, then its run), then taken */
	T_ASSERT_MSG(strstr(p_log, "cost.issue[QGRRD]") != NULL, "log: %s", p_log);
	m_rig_free(r, 4000000);
	free(cost);
	return T_PASS;
}

/*
 * A policy's next_timer is folded into the queue's timer, and its timer()
 * runs when the queue's timer fires at or after it, not before. Fails if
 * mq_update_timer ignores the chain or ios_queue_timer skips the policies.
 */
static int test_timer(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct p_pol *lat;

	T_ASSERT(r);
	lat = p_add(r, IOS_RQ_QOS_LATENCY, "lat");
	lat->next_at = 5000;
	T_ASSERT_EQ(m_submit(r, ioc, 0, 8, IOS_READ, 0, 100), 0);
	T_ASSERT_U64_EQ(r->q->timer_at, 5000);
	ios_queue_timer(r->q, 4000);
	T_ASSERT_EQ(lat->nr_timer, 0);
	ios_queue_timer(r->q, 5000);
	T_ASSERT_EQ(lat->nr_timer, 1);
	T_ASSERT_U64_EQ(r->q->timer_at, IOS_NO_WAKEUP);
	m_rig_free(r, 6000);
	free(lat);
	return T_PASS;
}

/*
 * With an empty chain, or a policy that lets everything through, the
 * blk-mq path makes the same trace as before the hooks: the same calls in
 * the same order (docs/cgroup-v2-plan.md §11). Plug merges, a tag sleep,
 * elevator merges and completions, compared letter by letter. Fails if a
 * hook changes what the core does for a bio it let on.
 */
static int run_mix(bool with_policy, char *out, size_t n)
{
	struct m_rig *r = m_rig_new(NULL, 2, 1, 2, NULL);
	struct ios_ioc *a = m_ioc(1, 0), *b = m_ioc(2, 1);
	struct ios_plug plug;
	struct p_pol *p = NULL;
	uint64_t t = 100;

	if (!r)
		return -1;
	if (with_policy)
		p = p_add(r, IOS_RQ_QOS_COST, "cost");
	memset(&plug, 0, sizeof(plug));
	ios_blk_start_plug(a, &plug);
	for (unsigned i = 0; i < 6; i++)
		(void)m_submit(r, a, 8 * i, 8, IOS_READ, 0, t++);
	ios_blk_finish_plug(a, &plug, t++);
	for (unsigned i = 0; i < 6; i++)
		(void)m_submit(r, b, 100000 + 64 * i, 8, IOS_WRITE, 0, t++);
	for (unsigned i = 0; i < r->nr_issued; i++, t += 10)
		if (r->issued[i]->state == IOS_RQ_IN_DRIVER)
			ios_queue_complete(r->q, r->issued[i], t, 0);
	snprintf(out, n, "%.*s|%u|%u", (int)r->nr_trace, r->trace, r->nr_issued,
		 r->nr_queued_cb);
	m_rig_free(r, t);
	free(p);
	return 0;
}

static int test_pass_through_identical(void)
{
	char plain[1024], hooked[1024];

	T_ASSERT_EQ(run_mix(false, plain, sizeof(plain)), 0);
	T_ASSERT_EQ(run_mix(true, hooked, sizeof(hooked)), 0);
	T_ASSERT_MSG(!strcmp(plain, hooked), "without: %s\nwith:    %s", plain, hooked);
	/* the mix did exercise what it claims: merges, a sleep, completions */
	T_ASSERT(strchr(plain, 'M') && strchr(plain, 'S') && strchr(plain, 'C'));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_newest_first, test_merge_before_throttle, test_throttle_before_tag,
		     test_done_bio_then_done, test_requeue, test_timer,
		     test_pass_through_identical);
}
