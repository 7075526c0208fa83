/*
 * Description: mq-deadline's prio_aging_expire (Linux 6.12 and 6.6.y,
 * dd_dispatch_prio_aged_requests, started_after). A BE request inserted
 * prio_aging_expire ago or more goes before queued RT requests, and so
 * does an old IDLE one before young BE ones; aging acts only while at
 * least two levels have requests (queued or on the device), so a lone
 * level is never served by it. Fake clock (t_sq).
 */
#include "mqdl_util.h"

/* RT in flight and RT queued; BE waits, until it is 10 s old (the default). */
static struct t_sq *setup(struct ios_request **be, struct ios_request **rt2)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);
	struct ios_request *rt1;

	if (!s)
		return NULL;
	*be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 0);
	rt1 = mq_ins(s, IOS_IOPRIO_CLASS_RT, 900, IOS_READ, 0);
	if (t_sq_dispatch(s, 0) != rt1)
		abort();
	*rt2 = mq_ins(s, IOS_IOPRIO_CLASS_RT, 50000, IOS_READ, 5 * SEC);
	return s;
}

static int test_old_be_before_rt(void)
{
	struct ios_request *be, *rt2;
	struct t_sq *s = setup(&be, &rt2);

	T_ASSERT(s);
	/* exactly prio_aging_expire old: not started after now - 10 s */
	T_ASSERT(t_sq_dispatch(s, 10 * SEC) == be);
	T_ASSERT_U64_EQ(mq_stat(s, "aged_dispatches"), 1);
	T_ASSERT(t_sq_dispatch(s, 10 * SEC) == rt2);
	t_sq_free(s);
	return T_PASS;
}

static int test_young_be_waits(void)
{
	struct ios_request *be, *rt2;
	struct t_sq *s = setup(&be, &rt2);

	T_ASSERT(s);
	T_ASSERT(t_sq_dispatch(s, 10 * SEC - 1) == rt2);
	T_ASSERT_U64_EQ(mq_stat(s, "aged_dispatches"), 0);
	t_sq_free(s);
	return T_PASS;
}

/* Only RT in flight, nothing RT queued: two levels have requests, BE ages. */
static int test_in_flight_counts_as_a_level(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, "prio_aging_expire=100", NULL);
	struct ios_request *be, *rt;

	T_ASSERT(s);
	be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_WRITE, 0);
	rt = mq_ins(s, IOS_IOPRIO_CLASS_RT, 900, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == rt);
	T_ASSERT(t_sq_dispatch(s, 99 * MS) == NULL);
	T_ASSERT(t_sq_dispatch(s, 100 * MS) == be);
	t_sq_free(s);
	return T_PASS;
}

/* IDLE ages too: an old IDLE read before young BE ones. */
static int test_old_idle_before_young_be(void)
{
	struct t_sq *s = t_sq_new("mq-deadline-6.6", 32, 1, "prio_aging_expire=1000", NULL);
	struct ios_request *idle, *be;

	T_ASSERT(s);
	idle = mq_ins(s, IOS_IOPRIO_CLASS_IDLE, 100, IOS_READ, 0);
	be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 200, IOS_READ, 900 * MS);
	T_ASSERT(t_sq_dispatch(s, 1 * SEC) == idle);
	T_ASSERT(t_sq_dispatch(s, 1 * SEC) == be);
	t_sq_free(s);
	return T_PASS;
}

/*
 * One level alone is served by the normal path, never by aging: an old BE
 * request with nothing else in the scheduler or on the device.
 */
static int test_one_level_never_ages(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, "prio_aging_expire=0", NULL);
	struct ios_request *a, *b;

	T_ASSERT(s);
	a = mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 0);
	b = mq_ins(s, IOS_IOPRIO_CLASS_BE, 200, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 1 * SEC) == a);
	T_ASSERT(t_sq_dispatch(s, 1 * SEC) == b);
	T_ASSERT_U64_EQ(mq_stat(s, "aged_dispatches"), 0);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_old_be_before_rt, test_young_be_waits, test_in_flight_counts_as_a_level,
		     test_old_idle_before_young_be, test_one_level_never_ages);
}
