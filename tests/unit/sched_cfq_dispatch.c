/*
 * Description: CFQ's dispatch limits (spec cfq.md §6). With other queues
 * busy the active queue may have quantum (4) requests in the driver; alone
 * it may have 4 * quantum in 2.6.31 and any number in 2.6.33. 4.19 has a
 * soft limit of quantum/2 (4 of 8) that grows to quantum once the slice is
 * known not to end soon, and no limit for the only busy sync queue
 * (promote_sync). An async queue does not dispatch while a sync request is
 * in flight; an idle-class queue has one request in flight at a time; an
 * async queue that dispatched 2 * slice_async_rq * (8 - level) requests in
 * its slice gives way when others are busy. With low_latency (2.6.33+) an
 * async queue ramps up: one request in flight right after a delayed sync
 * request, one more per slice_sync of sync quiet, and the count starts a
 * second in the past, so a fresh device is not throttled.
 */
#include "sched_cfq_util.h"

/* Dispatch without completing until CFQ says no; returns how many went. */
static int burst(struct t_sq *s, uint64_t now, uint32_t pid)
{
	int n = 0;
	struct ios_request *rq;

	while (n < 100 && (rq = t_sq_dispatch(s, now)) != NULL) {
		if (rq->ioc->pid != pid)
			return -1000 - (int)rq->ioc->pid;
		n++;
	}
	return n;
}

/* pid 1 with 40 sequential reads, and pid 2 (if @other) with one far read */
static struct t_sq *two_readers(const char *prof, const char *set, bool other)
{
	struct t_sq *s = t_sq_new(prof, 64, 1, set, NULL);

	if (!s)
		return NULL;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	for (int i = 0; i < 40; i++)
		cq_read(s, 1, 1000 + 8 * (uint64_t)i, 0);
	if (other)
		cq_read(s, 2, 90000000, 0);
	return s;
}

static int test_quantum_2631_2633(void)
{
	struct t_sq *s;

	s = two_readers("cfq", NULL, true);
	T_ASSERT(s);
	T_ASSERT_EQ(burst(s, 0, 1), 4);
	cq_free(s);
	s = two_readers("cfq", "quantum=2", true);
	T_ASSERT(s);
	T_ASSERT_EQ(burst(s, 0, 1), 2);
	cq_free(s);
	/* alone: 2.6.31 allows 4 * quantum */
	s = two_readers("cfq", NULL, false);
	T_ASSERT(s);
	T_ASSERT_EQ(burst(s, 0, 1), 16);
	cq_free(s);

	s = two_readers("cfq-2.6.33", NULL, true);
	T_ASSERT(s);
	T_ASSERT_EQ(burst(s, 0, 1), 4);
	cq_free(s);
	/* alone: 2.6.33 has no limit */
	s = two_readers("cfq-2.6.33", NULL, false);
	T_ASSERT(s);
	T_ASSERT_EQ(burst(s, 0, 1), 40);
	cq_free(s);
	return T_PASS;
}

static int test_quantum_419_soft_limit(void)
{
	struct t_sq *s = two_readers("cfq-4.19", NULL, true);
	struct ios_request *first;

	T_ASSERT(s);
	/* two busy sync queues, slice not started: quantum / 2 */
	first = t_sq_dispatch(s, 0);
	T_ASSERT(first);
	T_ASSERT_EQ(burst(s, 0, 1), 3);
	/* the slice starts (ends at 101 ms); 1 ms + 8 ms * 3 in flight is not near: up to quantum */
	cq_done(s, first, 1 * MS);
	T_ASSERT_EQ(burst(s, 1 * MS, 1), 5);
	T_ASSERT_EQ(cq_queue(s, 1, true)->dispatched, 8);
	cq_free(s);

	/* near the end of the slice it stays at quantum / 2 */
	s = two_readers("cfq-4.19", NULL, true);
	T_ASSERT(s);
	first = t_sq_dispatch(s, 0);
	cq_done(s, first, 1 * MS);
	T_ASSERT_EQ(burst(s, 90 * MS, 1), 4);
	cq_free(s);

	/* alone: no limit */
	s = two_readers("cfq-4.19", NULL, false);
	T_ASSERT(s);
	T_ASSERT_EQ(burst(s, 0, 1), 40);
	cq_free(s);
	return T_PASS;
}

static int test_promote_sync_419(void)
{
	struct t_sq *s = two_readers("cfq-4.19", NULL, false);

	T_ASSERT(s);
	/* another busy queue, but async: pid 1 is the only busy sync queue */
	cq_ioc(3, IOS_IOPRIO_CLASS_BE, 4);
	cq_awrite(s, 3, 50000000, 0);
	T_ASSERT_EQ(burst(s, 0, 1), 40);
	cq_free(s);
	return T_PASS;
}

/*
 * Pid 1's sync read goes first and stays in the device; its queue then
 * runs dry and expires (no idling with slice_idle=0), and the async queue
 * of pid 2 is next but waits for the sync read to complete.
 */
static int test_async_waits_for_sync(void)
{
	static const char *const prof[] = { "cfq", "cfq-4.19" };

	for (size_t p = 0; p < 2; p++) {
		struct t_sq *s = t_sq_new(prof[p], 64, 1, "slice_idle=0", NULL);
		struct ios_request *r, *w;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
		r = cq_read(s, 1, 1000, 0);
		cq_awrite(s, 2, 50000000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		T_ASSERT_MSG(t_sq_dispatch(s, 1 * MS) == NULL, "%s: async went with sync in flight",
			     prof[p]);
		T_ASSERT_EQ(cq_active_pid(s), 0);	/* the async queue (pid 0) is active */
		cq_done(s, r, 2 * MS);
		w = t_sq_dispatch(s, 2 * MS);
		T_ASSERT(w && w->ioc->pid == 2);
		cq_free(s);
	}
	return T_PASS;
}

static int test_idle_class_one_at_a_time(void)
{
	static const char *const prof[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 3; p++) {
		struct t_sq *s = t_sq_new(prof[p], 64, 1, NULL);
		struct ios_request *rq;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_IDLE, 0);
		for (int i = 0; i < 5; i++)
			cq_read(s, 1, 1000 + 8 * (uint64_t)i, 0);
		rq = t_sq_dispatch(s, 0);
		T_ASSERT(rq);
		T_ASSERT_MSG(t_sq_dispatch(s, 0) == NULL, "%s: two idle-class requests in flight",
			     prof[p]);
		cq_done(s, rq, 1 * MS);
		rq = t_sq_dispatch(s, 1 * MS);
		T_ASSERT(rq);
		T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
		cq_free(s);
	}
	return T_PASS;
}

/*
 * Async pid 2 (@level, 40 writes) goes first; another async queue (pid 3,
 * one level lower) and sync pid 1 wait. How many of pid 2's writes go
 * before anyone else's? (In 2.6.33+ the async workload slice outlasts the
 * cap, so the other async queue is the one that takes over.)
 */
static int async_budget(const char *prof, const char *set, int level)
{
	struct t_sq *s = t_sq_new(prof, 64, 1, set, NULL);
	uint32_t pids[128];
	uint64_t now = 10 * MS;
	size_t n, i;

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, level);
	cq_ioc(3, IOS_IOPRIO_CLASS_BE, level == 7 ? 6 : level + 1);
	for (int k = 0; k < 40; k++)
		cq_awrite(s, 2, 1000 + 8 * (uint64_t)k, now);
	for (int k = 0; k < 40; k++)
		cq_awrite(s, 3, 70000000 + 8 * (uint64_t)k, now);
	cq_read(s, 1, 90000000, now);
	n = cq_drive(s, &now, pids, 128);
	for (i = 0; i < n && pids[i] == 2; i++)
		;
	cq_free(s);
	return (int)i;
}

static int test_slice_async_rq_cap(void)
{
	/* 2 * 2 * (8 - level) writes, then the waiting reader gets the disk */
	T_ASSERT_EQ(async_budget("cfq", NULL, 4), 16);
	T_ASSERT_EQ(async_budget("cfq", NULL, 0), 32);
	T_ASSERT_EQ(async_budget("cfq", NULL, 7), 4);
	T_ASSERT_EQ(async_budget("cfq", "slice_async_rq=1", 4), 8);
	T_ASSERT_EQ(async_budget("cfq-2.6.33", NULL, 4), 16);
	T_ASSERT_EQ(async_budget("cfq-4.19", NULL, 4), 16);
	return T_PASS;
}

static int test_async_ramp_up(void)
{
	static const char *const prof[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 2; p++) {
		struct t_sq *s = t_sq_new(prof[p], 64, 1, NULL);
		struct ios_request *r;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
		/* a fresh device: the last delayed sync was a second ago, depth 10 */
		for (int k = 0; k < 40; k++)
			cq_awrite(s, 2, 1000 + 8 * (uint64_t)k, 0);
		T_ASSERT_MSG(burst(s, 0, 2) == 10, "%s: fresh async depth", prof[p]);
		cq_free(s);

		/* a read that completes 130 ms after it was queued is delayed */
		s = t_sq_new(prof[p], 64, 1, NULL);
		T_ASSERT(s);
		r = cq_read(s, 1, 90000000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_done(s, r, 130 * MS);
		T_ASSERT_U64_EQ(cq_data(s)->last_delayed_sync, 130 * MS);
		for (int k = 0; k < 40; k++)
			cq_awrite(s, 2, 1000 + 8 * (uint64_t)k, 131 * MS);
		/* the reader's idle window ends, then the async queue gets 1, 1 more per 100 ms */
		cq_timer(s, 140 * MS);
		T_ASSERT_MSG(burst(s, 140 * MS, 2) == 1, "%s: depth after a delayed sync", prof[p]);
		T_ASSERT_EQ(burst(s, 235 * MS, 2), 0);
		T_ASSERT_EQ(burst(s, 330 * MS, 2), 1);	/* 200 ms: depth 2 */
		T_ASSERT_EQ(burst(s, 430 * MS, 2), 1);	/* 300 ms: depth 3 */
		cq_free(s);
	}
	return T_PASS;
}

/*
 * 4.19 looks at the FIFO before the limits: an expired request sets
 * must_dispatch and goes even past them (here: async with a sync request
 * in flight). 2.6.33 checks the limits first.
 */
static int test_expired_fifo_bypasses_limits_419(void)
{
	static const char *const prof[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 2; p++) {
		struct t_sq *s = t_sq_new(prof[p], 64, 1, "slice_idle=0", NULL);
		struct ios_request *r, *w;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_RT, 4);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
		for (int k = 0; k < 4; k++)
			cq_awrite(s, 2, 1000 + 8 * (uint64_t)k, 0);
		/* at 300 ms the writes are past fifo_expire_async; an RT read goes first */
		r = cq_read(s, 1, 90000000, 300 * MS);
		T_ASSERT(t_sq_dispatch(s, 300 * MS) == r);
		w = t_sq_dispatch(s, 300 * MS);
		if (p == 0) {
			T_ASSERT_MSG(w == NULL, "2.6.33: async went with sync in flight");
		} else {
			T_ASSERT_MSG(w && w->ioc->pid == 2, "4.19: expired write held back");
			/* only the expired one: the next waits for the read */
			T_ASSERT(t_sq_dispatch(s, 300 * MS) == NULL);
		}
		cq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_quantum_2631_2633, test_quantum_419_soft_limit, test_promote_sync_419,
		     test_async_waits_for_sync, test_idle_class_one_at_a_time,
		     test_slice_async_rq_cap, test_async_ramp_up, test_expired_fifo_bypasses_limits_419);
}
