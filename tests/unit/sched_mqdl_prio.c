/*
 * Description: mq-deadline's priority levels (Linux 6.12 and 6.6.y,
 * block/mq-deadline.c dd_dispatch_request, dd_queued, dd_rq_ioclass). RT
 * goes before BE, and BE waits while an RT request is IN FLIGHT, not only
 * while one is queued (dd_queued counts until finish_request); IDLE comes
 * after BE the same way; only the class counts, not the level within it;
 * the class comes from the bios' own ioprio, else from the task (NONE is
 * BE); an at-head insert goes first within its own level only (6.6/6.12
 * keep one at-head list per level). Fake clock (t_sq).
 */
#include "mqdl_util.h"

static int test_be_waits_while_rt_in_flight(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);
	struct ios_request *rt, *be, *rq;

	T_ASSERT(s);
	be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 1000, IOS_READ, 0);
	rt = mq_ins(s, IOS_IOPRIO_CLASS_RT, 5000, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == rt);
	/* nothing RT is queued, but RT is on the device: BE waits */
	T_ASSERT(s->type->ops.has_work(&s->q));
	T_ASSERT(t_sq_dispatch(s, 2 * MS) == NULL);
	T_ASSERT_U64_EQ(mq_stat(s, "queued_rt"), 1);
	T_ASSERT_U64_EQ(mq_stat(s, "owned_by_driver_rt"), 1);
	t_sq_complete(s, rt, 3 * MS);
	T_ASSERT_U64_EQ(mq_stat(s, "queued_rt"), 0);
	rq = t_sq_dispatch(s, 3 * MS);
	T_ASSERT(rq == be);
	t_sq_complete(s, be, 4 * MS);
	T_ASSERT_U64_EQ(mq_stat(s, "inserted_be"), 1);
	T_ASSERT_U64_EQ(mq_stat(s, "dispatched_be"), 1);
	T_ASSERT_U64_EQ(mq_stat(s, "completed_be"), 1);
	t_sq_free(s);
	return T_PASS;
}

static int test_idle_after_be(void)
{
	struct t_sq *s = t_sq_new("mq-deadline-6.6", 32, 1, NULL);
	struct ios_request *idle, *be;

	T_ASSERT(s);
	idle = mq_ins(s, IOS_IOPRIO_CLASS_IDLE, 10, IOS_READ, 0);
	be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 900000, IOS_WRITE, 0);
	/* the write of BE goes before the older, lower read of IDLE */
	T_ASSERT(t_sq_dispatch(s, 0) == be);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	t_sq_complete(s, be, 2 * MS);
	T_ASSERT(t_sq_dispatch(s, 2 * MS) == idle);
	t_sq_free(s);
	return T_PASS;
}

/* The level within a class is ignored: BE level 0 and level 7 go by sector. */
static int test_class_only(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);
	struct ios_request *hi, *lo;

	T_ASSERT(s);
	lo = mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 0);
	lo->ioprio |= 7;
	hi = mq_ins(s, IOS_IOPRIO_CLASS_BE, 200, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == lo);
	T_ASSERT(t_sq_dispatch(s, 0) == hi);
	t_sq_free(s);
	return T_PASS;
}

/* bio_set_ioprio: the bios' own class, else the task's; NONE counts as BE. */
static int test_class_source(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);

	T_ASSERT(s);
	s->ioc->ioprio_class = IOS_IOPRIO_CLASS_RT;
	mq_ins(s, IOS_IOPRIO_CLASS_NONE, 100, IOS_READ, 0);	/* the task's: RT */
	mq_ins(s, IOS_IOPRIO_CLASS_IDLE, 200, IOS_READ, 0);	/* its own: IDLE */
	s->ioc->ioprio_class = IOS_IOPRIO_CLASS_NONE;
	mq_ins(s, IOS_IOPRIO_CLASS_NONE, 300, IOS_READ, 0);	/* none at all: BE */
	T_ASSERT_U64_EQ(mq_stat(s, "inserted_rt"), 1);
	T_ASSERT_U64_EQ(mq_stat(s, "inserted_idle"), 1);
	T_ASSERT_U64_EQ(mq_stat(s, "inserted_be"), 1);
	t_sq_free(s);
	return T_PASS;
}

/*
 * An at-head insert (a requeue, a flush) goes first within its level: a BE
 * one passes queued BE requests, but not an RT one.
 */
static int test_at_head_per_level(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);
	struct ios_request *be, *head, *rt;

	T_ASSERT(s);
	be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 0);
	head = mq_ins_flags(s, IOS_IOPRIO_CLASS_BE, 900, IOS_WRITE, 1 * MS, IOS_INSERT_FRONT);
	rt = mq_ins(s, IOS_IOPRIO_CLASS_RT, 500, IOS_READ, 2 * MS);
	T_ASSERT(t_sq_dispatch(s, 3 * MS) == rt);
	t_sq_complete(s, rt, 4 * MS);
	T_ASSERT(t_sq_dispatch(s, 4 * MS) == head);
	T_ASSERT(t_sq_dispatch(s, 4 * MS) == be);
	/* counted once: a requeue of a counted request is not inserted again */
	t_sq_complete(s, be, 5 * MS);
	s->q.rq_in_driver--;
	s->q.in_flight[0]--;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, head, 5 * MS, IOS_INSERT_REQUEUE);
	T_ASSERT_U64_EQ(mq_stat(s, "inserted_be"), 2);
	T_ASSERT(t_sq_dispatch(s, 6 * MS) == head);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_be_waits_while_rt_in_flight, test_idle_after_be, test_class_only,
		     test_class_source, test_at_head_per_level);
}
