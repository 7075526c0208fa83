/*
 * Description: CFQ time slices (spec cfq.md §3), driven through the hooks
 * with a fake clock. A queue's slice is base + base/5 * (4 - level): sync
 * 180..40 ms for levels 0..7 at slice_sync 100, async 72..16 ms, in every
 * profile. The slice starts at the queue's first completion, not when it
 * becomes active: a queue whose first request takes 50 ms keeps the disk
 * until 50 ms + slice. The residual banked at a preemption moves the queue
 * in the service tree: 2.6.31 adds it to the key (its leftover pushes it
 * back behind a waiting queue), 2.6.33 and 4.19 subtract it (it comes back
 * first).
 */
#include "sched_cfq_util.h"

static const char *const profiles[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

/* slice_end - first completion, for a lone queue of @pid (class BE, @level) */
static int64_t slice_of(const char *prof, bool sync, int level)
{
	struct t_sq *s = t_sq_new(prof, 1, 1, NULL);
	struct ios_request *rq;
	struct cfq_queue *q;
	int64_t len;

	if (!s)
		return -1;
	cq_ioc(10, IOS_IOPRIO_CLASS_BE, level);
	rq = cq_ins(s, t_ioc(10), 1000, 8, sync ? IOS_READ : IOS_WRITE, 0, 0);
	cq_ins(s, t_ioc(10), 2000, 8, sync ? IOS_READ : IOS_WRITE, 0, 0);
	if (t_sq_dispatch(s, 0) != rq) {
		cq_free(s);
		return -2;
	}
	cq_done(s, rq, 7 * MS);
	q = cq_queue(s, 10, sync);
	len = q && cq_data(s)->active_queue == q ? (int64_t)(q->slice_end - 7 * MS) : -3;
	cq_free(s);
	return len;
}

static int test_slice_per_level_and_class(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		for (int level = 0; level < 8; level++) {
			int64_t sync = slice_of(profiles[p], true, level);
			int64_t async = slice_of(profiles[p], false, level);

			T_ASSERT_MSG(sync == (int64_t)((180 - 20 * level) * MS),
				     "%s sync level %d: slice %" PRId64 " ns", profiles[p], level, sync);
			T_ASSERT_MSG(async == (int64_t)((72 - 8 * level) * MS),
				     "%s async level %d: slice %" PRId64 " ns", profiles[p], level, async);
		}
	}
	return T_PASS;
}

/*
 * Pid 1 (@level) has a deep sequential backlog, pid 2 one far request.
 * Serve one request at a time, each taking 1 ms except the first, which
 * takes @first ms. Returns how many of pid 1's requests went before pid
 * 2's, or -1.
 */
static int run_until_switch(const char *prof, const char *set, int level, uint64_t first)
{
	struct t_sq *s = t_sq_new(prof, 1, 1, set, NULL);
	uint64_t now = 0;
	int n = 0;

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, level);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 7);
	for (int i = 0; i < 400; i++)
		cq_read(s, 1, 1000 + 8 * (uint64_t)i, 0);
	cq_read(s, 2, 50000000, 0);
	for (;;) {
		struct ios_request *rq = t_sq_dispatch(s, now);
		uint64_t done = now + (n == 0 ? first : 1) * MS;

		if (!rq || rq->ioc->pid != 1 || n > 400)
			break;
		n++;
		cq_done(s, rq, done);
		now = done;
	}
	cq_free(s);
	return n;
}

static int test_slice_decides_when_queue_switches(void)
{
	/* dispatched at 0..180 ms; the completion at 181 ms ends the 180 ms slice */
	T_ASSERT_EQ(run_until_switch("cfq", NULL, 0, 1), 181);
	T_ASSERT_EQ(run_until_switch("cfq", NULL, 4, 1), 101);
	T_ASSERT_EQ(run_until_switch("cfq", NULL, 7, 1), 41);
	T_ASSERT_EQ(run_until_switch("cfq", "slice_sync=50", 4, 1), 51);
	T_ASSERT_EQ(run_until_switch("cfq-2.6.33", "low_latency=0", 4, 1), 101);
	return T_PASS;
}

static int test_slice_starts_at_first_completion(void)
{
	/*
	 * The first request completes at 50 ms: the slice runs 50..150 ms,
	 * so pid 1 dispatches at 0 and at 50..149 ms (1 + 100 requests). A
	 * slice started at activation would have ended at 100 ms.
	 */
	T_ASSERT_EQ(run_until_switch("cfq", NULL, 4, 50), 101);
	T_ASSERT_EQ(run_until_switch("cfq-2.6.33", "low_latency=0", 4, 50), 101);
	T_ASSERT_EQ(run_until_switch("cfq-4.19", "low_latency=0", 4, 50), 101);
	return T_PASS;
}

static int test_slice_not_started_before_completion(void)
{
	struct t_sq *s = t_sq_new("cfq", 1, 1, NULL);
	struct cfq_queue *q;

	T_ASSERT(s);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_read(s, 1, 1000, 0);
	T_ASSERT(t_sq_dispatch(s, 0));
	q = cq_queue(s, 1, true);
	T_ASSERT(q && cq_data(s)->active_queue == q);
	T_ASSERT(q->flags & CFQ_QF_SLICE_NEW);
	T_ASSERT_U64_EQ(q->slice_end, 0);
	cq_free(s);
	return T_PASS;
}

/*
 * Pid 1 (BE level 0) is active with its slice started at 1 ms (ends at
 * 181 ms); pid 2 (BE level 0) queues at 4 ms (key 4 ms: level 0 has no
 * offset); an RT request at 5 ms preempts pid 1, banking resid = 176 ms.
 * When the RT queue is done, which BE queue comes next?
 */
static int64_t after_preemption(const char *prof)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);
	struct ios_request *a1, *a2, *r, *rq;
	uint64_t w;
	int64_t pid;

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 0);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 0);
	cq_ioc(3, IOS_IOPRIO_CLASS_RT, 4);
	a1 = cq_read(s, 1, 1000, 0);
	cq_read(s, 1, 1008, 0);
	cq_read(s, 1, 1016, 0);
	if (t_sq_dispatch(s, 0) != a1)
		return -2;
	cq_done(s, a1, 1 * MS);
	a2 = t_sq_dispatch(s, 1 * MS);
	if (!a2 || a2->ioc->pid != 1)
		return -3;
	cq_read(s, 2, 5000000, 4 * MS);
	if (cq_active_pid(s) != 1)
		return -4;
	cq_read(s, 3, 9000000, 5 * MS);
	/* preempted: pid 1 expired, the RT queue goes to the front */
	if (cq_active_pid(s) != -1)
		return -8;
	r = t_sq_dispatch(s, 5 * MS);
	if (!r || r->ioc->pid != 3)
		return -5;
	cq_done(s, a2, 6 * MS);
	cq_done(s, r, 7 * MS);
	/* the RT queue idles for its next request; let the idle window run out */
	w = cq_wakeup(s);
	if (w == IOS_NO_WAKEUP)
		return -6;
	cq_timer(s, w);
	rq = t_sq_dispatch(s, w);
	pid = rq ? (int64_t)rq->ioc->pid : -7;
	cq_free(s);
	return pid;
}

static int test_resid_sign(void)
{
	/* 2.6.31: key = 5 + 0 + 176 ms, behind pid 2's 4 ms */
	T_ASSERT_EQ(after_preemption("cfq"), 2);
	/* 2.6.33 and 4.19: key = 5 - 176 ms, ahead of pid 2 */
	T_ASSERT_EQ(after_preemption("cfq-2.6.33"), 1);
	T_ASSERT_EQ(after_preemption("cfq-4.19"), 1);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_slice_per_level_and_class, test_slice_decides_when_queue_switches,
		     test_slice_starts_at_first_completion, test_slice_not_started_before_completion,
		     test_resid_sign);
}
