/*
 * Description: BFQ's release profiles (bfq_profiles.c). `bfq` stays the
 * 4.19 scheduler of the seeds' reports: single-queue layer, no blk-mq hooks,
 * every 6.x behaviour off; `bfq-4.19` is its alias (the same descriptor).
 * `bfq-6.12` is the same code on blk-mq with the 6.12 profile: tag caps,
 * injection, wakers, stable merge and no early queue merge on queueing
 * flash all on, limit_depth and depth_updated hooks, no may_queue, and the
 * same sysfs files (whose stores clamp in the kernel: IOS_TUN_KCLAMP). A
 * hole that 6.12 fills with another queue's request stays empty under
 * `bfq` (4.19 idles).
 */
#include "sched_bfq6_util.h"

static int test_bfq_is_419_and_its_alias(void)
{
	const struct ios_sched_type *st = ios_sched_find("bfq");
	const struct bfq_profile *p;

	T_ASSERT(st);
	T_ASSERT(ios_sched_find("bfq-4.19") == st);
	T_ASSERT_MSG(!strcmp(st->name, "bfq"), "%s", st->name);
	T_ASSERT_MSG(!strcmp(st->alias, "bfq-4.19"), "%s", st->alias);
	T_ASSERT_EQ(ios_sched_layer(st), IOS_SCHED_LAYER_SQ);
	T_ASSERT(ios_sched_mq_ops(st) == NULL);
	p = st->profile;
	T_ASSERT(p == &ios_bfq_profile_419);
	T_ASSERT_MSG(!strcmp(p->release, "4.19"), "%s", p->release);
	T_ASSERT(!p->tag_caps && !p->injection && !p->wakers && !p->stable_merge &&
		 !p->eqm_off_nonrot_queueing);
	/* 4.19.1's idling, queueing-detection and preemption rules */
	T_ASSERT(!p->asymmetric_612 && !p->idle_guarantees_612 && !p->wr_idle_floor &&
		 !p->small_rq_idle_612 && !p->hw_tag_612 && !p->preempt_612 &&
		 !p->cgroup_request_cap && !p->async_charge_asym);
	return T_PASS;
}

static int test_bfq_612_descriptor(void)
{
	const struct ios_sched_type *st, *old = ios_sched_find("bfq");
	const struct ios_sched_mq_ops *mo;
	const struct ios_tunable *t, *o;
	const struct bfq_profile *p;
	struct ios_err e = { 0 };

	bfq6_register();
	st = ios_sched_find("bfq-6.12");
	T_ASSERT(st == &ios_sched_bfq_612);
	T_ASSERT_EQ(ios_sched_type_check(st, &e), 0);
	T_ASSERT_EQ(st->version, 2);
	T_ASSERT_EQ(ios_sched_layer(st), IOS_SCHED_LAYER_MQ);
	T_ASSERT(st->ops.may_queue == NULL);
	mo = ios_sched_mq_ops(st);
	T_ASSERT(mo && mo->limit_depth && mo->depth_updated && mo->init_hctx);
	T_ASSERT(!mo->dispatch_hctx && !mo->has_work_hctx);	/* one state for all hctxs */
	p = st->profile;
	T_ASSERT(p == &ios_bfq_profile_612);
	T_ASSERT_MSG(!strcmp(p->release, "6.12"), "%s", p->release);
	T_ASSERT(p->tag_caps && p->injection && p->wakers && p->stable_merge &&
		 p->eqm_off_nonrot_queueing);
	T_ASSERT(p->asymmetric_612 && p->idle_guarantees_612 && p->wr_idle_floor &&
		 p->small_rq_idle_612 && p->hw_tag_612 && p->preempt_612 &&
		 p->cgroup_request_cap && p->async_charge_asym);
	/* the same sysfs files, in the same order, each marked as clamped by the kernel */
	for (t = st->tunables, o = old->tunables; t->name || o->name; t++, o++) {
		T_ASSERT(t->name && o->name);
		T_ASSERT_MSG(!strcmp(t->name, o->name), "%s", t->name);
		T_ASSERT(t->min == o->min && t->max == o->max);
		T_ASSERT(t->flags & IOS_TUN_KCLAMP);
		T_ASSERT(!(o->flags & IOS_TUN_KCLAMP));
	}
	/* a second registration is refused: the name is taken */
	T_ASSERT_EQ(ios_sched_register(&ios_sched_bfq_612, &e), -EEXIST);
	return T_PASS;
}

static int test_init_takes_the_profile(void)
{
	struct t_sq *a, *b;

	bfq6_register();
	a = t_sq_new("bfq-4.19", 32, 0, NULL);
	b = t_sq_new("bfq-6.12", 32, 0, NULL);
	T_ASSERT(a && b);
	T_ASSERT(bfqd_of(&a->q)->prof == &ios_bfq_profile_419);
	T_ASSERT(bfqd_of(&b->q)->prof == &ios_bfq_profile_612);
	/* blk-mq scheduler tags for a 32-deep device: 64, words of 16 */
	T_ASSERT_EQ(b->q.nr_requests, 64);
	T_ASSERT_EQ(bfqd_of(&b->q)->full_depth_shift, 4);
	T_ASSERT_EQ(bfqd_of(&a->q)->full_depth_shift, 0);
	t_sq_free(a);
	t_sq_free(b);
	return T_PASS;
}

/*
 * Process A (BE0) idles after its request; B (BE7) waits. Different
 * weights make A's idling a service guarantee, so 4.19 serves nobody in
 * the window; 6.12, once it has timed A's first request after a hole,
 * injects B's request into the next one.
 */
static int hole_dispatches(const char *sched, unsigned *injected)
{
	struct t_sq *s = t_sq_new(sched, 32, 0, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(501, IOS_IOPRIO_CLASS_BE, 0);
	struct ios_ioc *b = bfq_test_ioc(502, IOS_IOPRIO_CLASS_BE, 7);
	struct ios_request *rq;

	if (!s)
		return -1;
	bfq_ins(s, a, 0, 8, IOS_READ, 0, 0);
	rq = t_sq_dispatch(s, 0);
	/* B is busy from 1 ms: the weights differ, so A idles when it empties */
	bfq_ins(s, b, 500000, 8, IOS_READ, 0, 1 * MS);
	t_sq_complete(s, rq, 20 * MS);
	if (t_sq_dispatch(s, 21 * MS))
		return -1;
	/* A's first request after the hole: timed with nothing else in flight */
	bfq_ins(s, a, 8, 8, IOS_READ, 0, 22 * MS);
	rq = t_sq_dispatch(s, 22 * MS);
	if (!rq || rq->ioc != a)
		return -1;
	t_sq_complete(s, rq, 24 * MS);
	/* A idles again: is B's request served in the window? */
	rq = t_sq_dispatch(s, 25 * MS);
	*injected = rq != NULL;
	if (rq)
		t_sq_complete(s, rq, 26 * MS);
	while ((rq = t_sq_dispatch(s, 100 * MS)) != NULL)
		t_sq_complete(s, rq, 100 * MS);
	t_sq_free(s);
	return 0;
}

static int test_419_leaves_the_hole(void)
{
	unsigned injected = 9;

	bfq6_register();
	T_ASSERT_EQ(hole_dispatches("bfq", &injected), 0);
	T_ASSERT_EQ(injected, 0);
	T_ASSERT_EQ(hole_dispatches("bfq-6.12", &injected), 0);
	T_ASSERT_EQ(injected, 1);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_bfq_is_419_and_its_alias, test_bfq_612_descriptor,
		     test_init_takes_the_profile, test_419_leaves_the_hole);
}
