/*
 * Description: CFQ 2.6.33/4.19 rules the other CFQ tests leave out.
 *
 * low_latency slice scaling (spec §3 "Low-latency scaling"): with N busy
 * sync queues of a class the slice a queue gets at its first completion is
 * scaled so that they all fit in target_latency, using the decaying busy-
 * queue average (avg = (3 max + min + 2) / 4), with a floor of
 * 2 * slice_idle * s / slice_sync; low_latency=0 leaves 100 ms.
 *
 * The SYNC_NOIDLE preemption rule (spec §8, 2.6.33 rule 8): serving
 * SYNC_NOIDLE, a new SYNC_NOIDLE queue preempts the emptied active one when
 * the tree then counts exactly two queues; 4.19 drops the count.
 *
 * 4.19's exception to "sync preempts async": not while the active async
 * queue has must_dispatch set.
 */
#include "sched_cfq_util.h"

#define BE IOS_IOPRIO_CLASS_BE
#define FAR 90000000ULL

/*
 * @n processes each queue one sync read at time 0, far apart; the first
 * served completes at 1 ms and starts its slice. Returns the slice in ms.
 */
static int64_t first_slice_ms(const char *prof, const char *set, unsigned n)
{
	struct t_sq *s = t_sq_new(prof, 1, 1, set, NULL);
	struct ios_request *rq;
	int64_t ret;

	if (!s)
		return -1;
	for (uint32_t p = 1; p <= n; p++) {
		cq_ioc(p, BE, 4);
		cq_ins(s, t_ioc(p), (uint64_t)p * FAR / 64, 8, IOS_READ, 0, 0);
	}
	rq = t_sq_dispatch(s, 0);
	if (!rq)
		return -2;
	cq_done(s, rq, 1 * MS);
	if (!cq_data(s)->active_queue)
		return -3;
	ret = (int64_t)(cq_data(s)->active_queue->allocated_slice / MS);
	cq_free(s);
	return ret;
}

static int test_low_latency_scaling(void)
{
	static const char *const profs[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t i = 0; i < 2; i++) {
		/* one queue: no scaling */
		T_ASSERT_EQ(first_slice_ms(profs[i], NULL, 1), 100);
		/* three: avg (3*3 + 0 + 2) / 4 = 2, expect 200 <= 300: none either */
		T_ASSERT_EQ(first_slice_ms(profs[i], NULL, 3), 100);
		/* six: avg (18 + 2) / 4 = 5, expect 500 > 300: 100 * 300 / 500 */
		T_ASSERT_EQ(first_slice_ms(profs[i], NULL, 6), 60);
		/* thirty: avg 23, 100 * 300 / 2300 = 13 is below the 16 ms floor */
		T_ASSERT_EQ(first_slice_ms(profs[i], NULL, 30), 16);
		/* the floor follows slice_idle: 2 * 4 ms */
		T_ASSERT_EQ(first_slice_ms(profs[i], "slice_idle=4", 30), 13);
		/* a longer target: 600 / 500 needs no scaling */
		if (i == 1)
			T_ASSERT_EQ(first_slice_ms(profs[i], "target_latency=600", 6), 100);
		/* low_latency off: the plain slice whatever the count */
		T_ASSERT_EQ(first_slice_ms(profs[i], "low_latency=0", 30), 100);
	}
	/* 2.6.31 never scales */
	T_ASSERT_EQ(first_slice_ms("cfq", NULL, 30), 100);
	return T_PASS;
}

/*
 * slice_idle=0 takes the idle window from every sync queue, but a new queue
 * joins the tree of its type at creation (SYNC: the window starts on) and
 * keeps that place until it leaves the tree. So each process first has one
 * request served, and comes back as SYNC_NOIDLE. Then pid 1 is active on
 * the SYNC_NOIDLE tree with its only request completed, @others processes
 * have a request queued there (far away, queued before pid 1 was
 * selected), and pid 2 queues one more than
 * 4 MiB from the head, so that the closeness rule cannot fire. Returns 1
 * when pid 2 preempted.
 */
static int noidle_preempts(const char *prof, unsigned others)
{
	struct t_sq *s = t_sq_new(prof, 1, 1, "slice_idle=0", NULL);
	struct ios_request *r;
	uint64_t before, now = 0;
	uint32_t pids[64];
	int ret;

	if (!s)
		return -1;
	/*
	 * The first round: everyone's queue leaves the tree once. The last
	 * one served (pid 50) stays active, empty, until a request is queued
	 * (2.6.33's select_queue), and is expired then.
	 */
	for (uint32_t p = 1; p < 3 + others; p++) {
		cq_ioc(p, BE, 4);
		cq_ins(s, t_ioc(p), FAR + p * 100000, 8, IOS_READ, 0, 0);
	}
	cq_ioc(50, BE, 4);
	cq_ins(s, t_ioc(50), FAR + 50 * 100000, 8, IOS_READ, 0, 0);
	if (cq_drive(s, &now, pids, 64) != 3 + others || cq_active_pid(s) != 50)
		return -2;
	r = cq_ins(s, t_ioc(1), 1000, 8, IOS_READ, 0, now);
	/* queued before pid 1 is active: later, they would preempt it themselves */
	for (uint32_t p = 3; p < 3 + others; p++)
		cq_ins(s, t_ioc(p), FAR + p * 100000, 8, IOS_READ, 0, now);
	if (t_sq_dispatch(s, now) != r || cq_data(s)->serving_wl_type != CFQ_SYNC_NOIDLE_WL)
		return -4;
	now += MS;
	cq_done(s, r, now);
	if (cq_active_pid(s) != 1)
		return -5;
	before = cq_data(s)->st_preempts;
	cq_ins(s, t_ioc(2), FAR / 2, 8, IOS_READ, 0, now + 100 * US);
	ret = (int)(cq_data(s)->st_preempts - before);
	cq_free(s);
	return ret;
}

static int test_sync_noidle_rule(void)
{
	/* 2.6.33: the active queue and the new one make two on the tree */
	T_ASSERT_EQ(noidle_preempts("cfq-2.6.33", 0), 1);
	/* a third queue on the tree: the rule needs exactly two */
	T_ASSERT_EQ(noidle_preempts("cfq-2.6.33", 1), 0);
	/* 4.19: any count */
	T_ASSERT_EQ(noidle_preempts("cfq-4.19", 0), 1);
	T_ASSERT_EQ(noidle_preempts("cfq-4.19", 1), 1);
	T_ASSERT_EQ(noidle_preempts("cfq-4.19", 3), 1);
	return T_PASS;
}

/*
 * Pid 1's async queue is active with a request in the device and one
 * queued; @must_dispatch marks it; pid 2 then queues a sync read. Returns 1
 * when pid 2 preempted.
 */
static int sync_over_async(const char *prof, bool must_dispatch)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);
	struct ios_request *r;
	uint64_t before;
	int ret;

	if (!s)
		return -1;
	cq_ioc(1, BE, 4);
	cq_ioc(2, BE, 4);
	r = cq_awrite(s, 1, 1000, 0);
	cq_awrite(s, 1, 1008, 0);
	if (t_sq_dispatch(s, 0) != r)
		return -2;
	cq_done(s, r, 1 * MS);
	if (cq_active_pid(s) != 0 || cfqq_sync(cq_data(s)->active_queue))
		return -3;	/* the async queue has no creator pid */
	if (must_dispatch)
		cq_data(s)->active_queue->flags |= CFQ_QF_MUST_DISPATCH;
	before = cq_data(s)->st_preempts;
	cq_read(s, 2, FAR, 2 * MS);
	ret = (int)(cq_data(s)->st_preempts - before);
	cq_free(s);
	return ret;
}

static int test_sync_over_async_must_dispatch(void)
{
	T_ASSERT_EQ(sync_over_async("cfq-2.6.33", false), 1);
	T_ASSERT_EQ(sync_over_async("cfq-2.6.33", true), 1);
	T_ASSERT_EQ(sync_over_async("cfq-4.19", false), 1);
	T_ASSERT_EQ(sync_over_async("cfq-4.19", true), 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_low_latency_scaling, test_sync_noidle_rule,
		     test_sync_over_async_must_dispatch);
}
