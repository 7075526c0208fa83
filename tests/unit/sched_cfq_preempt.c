/*
 * Description: when a new request makes CFQ preempt the active queue (spec
 * cfq.md §8). 2.6.31, first match wins: no active queue - no; the active
 * slice is used - yes (even for an idle-class newcomer); an idle-class
 * newcomer - no; an idle-class active queue - yes; sync over async - yes;
 * metadata over a queue without - yes; RT over non-RT - yes; otherwise only
 * while the active queue idles, and only for a request within its seek
 * mean of the head (4 MiB without valid samples). 2.6.33/4.19 differ: the
 * idle-class newcomer is refused first; a non-RT request never preempts an
 * RT queue (not even sync over async); another group's queue never
 * preempts; 4.19 also lets a request in when the active queue is empty and
 * would not idle, and does not let sync preempt an async queue holding an
 * expired request (must_dispatch); its radius is a fixed 4 MiB. The
 * preempting queue goes to the front of its tree and starts a new slice.
 */
#include "sched_cfq_util.h"

enum a_state {
	A_BUSY,		/* one request completed (slice started), one queued */
	A_USED,		/* A_BUSY at 150 ms: the slice is over, not yet expired */
	A_INFLIGHT,	/* first request still in the device */
	A_IDLING,	/* its only request completed: waiting for the next */
};

static struct ios_cgroup other_group = { .path = (char *)"g1", .id = 1, .weight = 0,
					 .parent = &t_root_cgroup };

/*
 * Pid 1 (class @ca, reads or, !@sync_a, writes) in @state; then pid 2
 * (class @cb) queues one request at @sector with @flags. Returns 1 when
 * pid 2 preempted pid 1, 0 when not, negative on a set-up error.
 */
static int preempts(const char *prof, int ca, bool sync_a, enum a_state state, int cb,
		    uint64_t sector, uint32_t flags, const char *set)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, set, NULL);
	struct ios_request *r;
	uint64_t now = 0, before;
	int dir = sync_a ? IOS_READ : IOS_WRITE;
	int ret;

	if (!s)
		return -1;
	struct ios_cgroup *cg2 = t_ioc(2)->cgroup;

	cq_ioc(1, ca, 4);
	cq_ioc(2, cb, 4);
	t_ioc(2)->cgroup = cg2;		/* a caller may have put pid 2 elsewhere */
	r = cq_ins(s, t_ioc(1), 1000, 8, dir, 0, 0);
	if (state != A_IDLING)
		cq_ins(s, t_ioc(1), 1008, 8, dir, 0, 0);
	if (t_sq_dispatch(s, 0) != r)
		return -2;
	if (state != A_INFLIGHT) {
		cq_done(s, r, 1 * MS);
		now = 1 * MS;
	}
	if (state == A_USED)
		now = 150 * MS;
	if (state == A_IDLING && !(cq_queue(s, 1, sync_a)->flags & CFQ_QF_WAIT_REQUEST))
		return -3;
	if (cq_active_pid(s) != (sync_a ? 1 : 0))
		return -4;
	now += 500 * US;
	before = cq_data(s)->st_preempts;
	cq_ins(s, t_ioc(2), sector, 8, IOS_READ, flags, now);
	ret = (int)(cq_data(s)->st_preempts - before);
	if (ret && cq_data(s)->active_queue)
		ret = -5;	/* a preemption expires the active queue */
	cq_free(s);
	t_ioc(2)->cgroup = &t_root_cgroup;
	return ret;
}

#define BE IOS_IOPRIO_CLASS_BE
#define RT IOS_IOPRIO_CLASS_RT
#define IDLE IOS_IOPRIO_CLASS_IDLE
#define FAR 90000000ULL

static int test_rules_2631(void)
{
	const char *p = "cfq";

	/* 2: slice used - yes, before anything else (an idle-class one too) */
	T_ASSERT_EQ(preempts(p, BE, true, A_USED, BE, FAR, 0, NULL), 1);
	T_ASSERT_EQ(preempts(p, BE, true, A_USED, IDLE, FAR, 0, NULL), 1);
	/* 3: idle class newcomer - no */
	T_ASSERT_EQ(preempts(p, BE, true, A_IDLING, IDLE, 1008, 0, NULL), 0);
	/* 4: idle-class active queue - yes */
	T_ASSERT_EQ(preempts(p, IDLE, true, A_INFLIGHT, BE, FAR, 0, NULL), 1);
	/* 5: sync over async - yes, also over an RT async queue */
	T_ASSERT_EQ(preempts(p, BE, false, A_INFLIGHT, BE, FAR, 0, NULL), 1);
	T_ASSERT_EQ(preempts(p, RT, false, A_INFLIGHT, BE, FAR, 0, NULL), 1);
	/* 6: metadata over a queue without - yes; REQ_PRIO means nothing here */
	T_ASSERT_EQ(preempts(p, BE, true, A_BUSY, BE, FAR, IOS_REQ_META, NULL), 1);
	T_ASSERT_EQ(preempts(p, BE, true, A_BUSY, BE, FAR, IOS_REQ_PRIO, NULL), 0);
	/* 7: RT over BE - yes; BE over RT - no */
	T_ASSERT_EQ(preempts(p, BE, true, A_BUSY, RT, FAR, 0, NULL), 1);
	T_ASSERT_EQ(preempts(p, RT, true, A_BUSY, BE, 1016, 0, NULL), 0);
	/* 8: not idling - no, however close */
	T_ASSERT_EQ(preempts(p, BE, true, A_BUSY, BE, 1016, 0, NULL), 0);
	/* 9/10: idling - yes within 4 MiB of the head (no valid seek samples), else no */
	T_ASSERT_EQ(preempts(p, BE, true, A_IDLING, BE, 1008 + 8192, 0, NULL), 1);
	T_ASSERT_EQ(preempts(p, BE, true, A_IDLING, BE, 1008 + 8193, 0, NULL), 0);
	T_ASSERT_EQ(preempts(p, BE, true, A_IDLING, BE, FAR, 0, NULL), 0);
	return T_PASS;
}

static int test_rules_2633_419(void)
{
	static const char *const prof[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t i = 0; i < 2; i++) {
		const char *p = prof[i];
		uint32_t meta = i ? IOS_REQ_PRIO : IOS_REQ_META;

		/* the idle-class newcomer is refused even against a used slice */
		T_ASSERT_EQ(preempts(p, BE, true, A_USED, IDLE, FAR, 0, NULL), 0);
		T_ASSERT_EQ(preempts(p, BE, true, A_USED, BE, FAR, 0, NULL), 1);
		T_ASSERT_EQ(preempts(p, IDLE, true, A_INFLIGHT, BE, FAR, 0, NULL), 1);
		/* a non-RT request never preempts an RT queue, not even sync over async */
		T_ASSERT_EQ(preempts(p, RT, false, A_INFLIGHT, BE, FAR, 0, NULL), 0);
		T_ASSERT_EQ(preempts(p, BE, false, A_INFLIGHT, BE, FAR, 0, NULL), 1);
		T_ASSERT_EQ(preempts(p, BE, true, A_BUSY, BE, FAR, meta, NULL), 1);
		T_ASSERT_EQ(preempts(p, BE, true, A_BUSY, RT, FAR, 0, NULL), 1);
		T_ASSERT_EQ(preempts(p, BE, true, A_BUSY, BE, 1016, 0, NULL), 0);
		T_ASSERT_EQ(preempts(p, BE, true, A_IDLING, BE, 1008 + 8192, 0, NULL), 1);
		T_ASSERT_EQ(preempts(p, BE, true, A_IDLING, BE, 1008 + 8193, 0, NULL), 0);
	}
	/* the metadata flag of each version */
	T_ASSERT_EQ(preempts("cfq-2.6.33", BE, true, A_BUSY, BE, FAR, IOS_REQ_PRIO, NULL), 0);
	T_ASSERT_EQ(preempts("cfq-4.19", BE, true, A_BUSY, BE, FAR, IOS_REQ_META, NULL), 0);
	return T_PASS;
}

static int test_other_group_never(void)
{
	static const char *const prof[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };
	static const int want[] = { 1, 0, 0 };

	for (size_t i = 0; i < 3; i++) {
		int got;

		/* pid 2 in another cgroup; the active slice is used */
		cq_ioc(2, BE, 4);
		t_ioc(2)->cgroup = &other_group;
		got = preempts(prof[i], BE, true, A_USED, BE, FAR, 0, NULL);
		T_ASSERT_MSG(got == want[i], "%s: %d", prof[i], got);
	}
	return T_PASS;
}

static int test_other_group_sync_over_async(void)
{
	/* 2.6.33: sync over async is decided before the group rule */
	cq_ioc(2, BE, 4);
	t_ioc(2)->cgroup = &other_group;
	T_ASSERT_EQ(preempts("cfq-2.6.33", BE, false, A_INFLIGHT, BE, FAR, 0, NULL), 1);
	return T_PASS;
}

/* 4.19: an empty active queue that would not idle (slice_idle=0) gives way */
static int test_empty_not_idling_419(void)
{
	T_ASSERT_EQ(preempts("cfq-4.19", BE, true, A_INFLIGHT, BE, FAR, 0, NULL), 0);
	/* pid 1's only request in flight, no idling at all */
	{
		struct t_sq *s = t_sq_new("cfq-4.19", 4, 1, "slice_idle=0", NULL);
		struct ios_request *r;

		T_ASSERT(s);
		cq_ioc(1, BE, 4);
		cq_ioc(2, BE, 4);
		r = cq_read(s, 1, 1000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_read(s, 2, FAR, 1 * MS);
		T_ASSERT_EQ(cq_data(s)->st_preempts, 1);
		cq_free(s);
	}
	/* 2.6.33 has no such rule */
	{
		struct t_sq *s = t_sq_new("cfq-2.6.33", 4, 1, "slice_idle=0", NULL);
		struct ios_request *r;

		T_ASSERT(s);
		cq_ioc(1, BE, 4);
		cq_ioc(2, BE, 4);
		r = cq_read(s, 1, 1000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_read(s, 2, FAR, 1 * MS);
		T_ASSERT_EQ(cq_data(s)->st_preempts, 0);
		cq_free(s);
	}
	return T_PASS;
}

/* 2.6.31 measures closeness with the active context's seek mean once it is valid */
static int test_radius_seek_mean_2631(void)
{
	for (int far = 0; far <= 1; far++) {
		struct t_sq *s = t_sq_new("cfq", 4, 1, NULL);
		uint64_t now = 0, mean;
		struct ios_request *r;

		T_ASSERT(s);
		cq_ioc(1, BE, 4);
		cq_ioc(2, BE, 4);
		/* four reads 1000 sectors apart: a mean of about 750 */
		for (int i = 0; i < 4; i++) {
			r = cq_read(s, 1, 1000 + 1008 * (uint64_t)i, now);
			T_ASSERT(t_sq_dispatch(s, now) == r);
			now += MS;
			cq_done(s, r, now);
		}
		T_ASSERT(cq_queue(s, 1, true)->flags & CFQ_QF_WAIT_REQUEST);
		mean = cq_cic(s, 1)->seek_mean;
		T_ASSERT(mean > 100 && mean < 8192);
		cq_read(s, 2, 4032 + mean + (uint64_t)far, now + 100 * US);
		T_ASSERT_MSG(cq_data(s)->st_preempts == (uint64_t)!far, "far=%d mean %" PRIu64, far,
			     mean);
		cq_free(s);
	}
	return T_PASS;
}

/*
 * The preempting queue is served next, with a new slice, also ahead of a
 * level-0 queue keyed at time 0 (2.6.31's front key 0 is below every
 * jiffies-based key).
 */
static int test_preempted_queue_goes_first(void)
{
	static const char *const prof[] = { "cfq", "cfq-2.6.33" };

	for (size_t i = 0; i < 2; i++) {
		struct t_sq *s = t_sq_new(prof[i], 4, 1, NULL);
		struct ios_request *r, *rq;
		struct cfq_queue *q2;

		T_ASSERT(s);
		cq_ioc(1, BE, 4);
		cq_ioc(2, BE, 4);
		cq_ioc(3, BE, 0);
		r = cq_read(s, 1, 1000, 0);
		cq_read(s, 3, 50000000, 0);		/* level 0: would be next */
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_done(s, r, 1 * MS);			/* pid 1 idles */
		cq_read(s, 2, 1016, 2 * MS);		/* close: preempts */
		q2 = cq_queue(s, 2, true);
		T_ASSERT_EQ(cq_data(s)->st_preempts, 1);
		T_ASSERT(q2->flags & CFQ_QF_SLICE_NEW);
		rq = t_sq_dispatch(s, 2 * MS);
		T_ASSERT_MSG(rq && rq->ioc->pid == 2, "%s: pid %u next", prof[i], rq ? rq->ioc->pid : 0);
		cq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_rules_2631, test_rules_2633_419, test_other_group_never,
		     test_other_group_sync_over_async, test_empty_not_idling_419,
		     test_radius_seek_mean_2631, test_preempted_queue_goes_first);
}
