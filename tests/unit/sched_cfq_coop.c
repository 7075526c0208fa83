/*
 * Description: CFQ's cooperating processes and merging (spec cfq.md §5,
 * §9, §11). When the active queue runs dry and another queue's next
 * request is close to the head, CFQ serves that queue at once instead of
 * idling or taking the tree's first queue: in 2.6.31 only once per queue
 * (the coop flag, cleared when the queue is picked from the tree); in
 * 2.6.33 only between sync, non-seeky queues of one group, and it also
 * sets up a merge of the two queues, which takes effect at the next
 * request allocation, and is undone (split) when the merged queue turns
 * seeky. Bio merging: CFQ vetoes merging a bio into another process's
 * request and a sync bio into an async request; an async bio could only
 * meet a sync request of another queue, so it is refused too.
 * lab.cross_queue_merge (ios_queue_config.ignore_allow_merge) skips the
 * veto. A process CFQ is idling for may allocate past nr_requests, once
 * per slice (may_queue MUST).
 */
#include "sched_cfq_util.h"

static struct ios_cgroup other_group = { .path = (char *)"g1", .id = 1, .weight = 0,
					 .parent = &t_root_cgroup };

/*
 * Pid 1 reads at 1000 and completes at 1 ms; pid 2 has a read at 1016
 * (close to the head at 1008), pid 3 (BE level 0, first in the tree
 * otherwise) one far away. Returns the pid served at 1 ms, 0 for none.
 */
static int64_t after_dry(struct t_sq *s, bool pid2_first)
{
	struct ios_request *r, *rq;

	r = cq_read(s, 1, 1000, 0);
	if (pid2_first)
		cq_read(s, 2, 1016, 0);
	cq_read(s, 3, 90000000, 0);
	if (!pid2_first)
		cq_read(s, 2, 1016, 0);
	if (t_sq_dispatch(s, 0) != r)
		return -1;
	cq_done(s, r, 1 * MS);
	rq = t_sq_dispatch(s, 1 * MS);
	return rq ? (int64_t)rq->ioc->pid : 0;
}

static struct t_sq *three(const char *prof)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);

	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(3, IOS_IOPRIO_CLASS_BE, 4);
	return s;
}

static int test_cooperator_2631(void)
{
	struct t_sq *s = three("cfq");

	T_ASSERT(s);
	/* pid 3 is ahead of pid 2 in the tree, but pid 2 is close: no idling, pid 2 */
	T_ASSERT_EQ(after_dry(s, false), 2);
	T_ASSERT(cq_wakeup(s) == IOS_NO_WAKEUP);
	T_ASSERT(cq_queue(s, 2, true)->flags & CFQ_QF_COOP);
	T_ASSERT_EQ(cq_data(s)->st_coop_selected, 1);
	cq_free(s);

	/* a queue picked from the tree loses the flag */
	s = three("cfq");
	T_ASSERT(s);
	cq_read(s, 2, 1016, 0);
	cq_queue(s, 2, true)->flags |= CFQ_QF_COOP;
	{
		struct ios_request *rq = t_sq_dispatch(s, 0);

		T_ASSERT(rq && rq->ioc->pid == 2);
		T_ASSERT(!(cq_queue(s, 2, true)->flags & CFQ_QF_COOP));
	}
	cq_free(s);
	return T_PASS;
}

static int test_cooperator_flag_blocks_2631(void)
{
	struct t_sq *s = three("cfq");
	struct ios_request *r, *rq;

	T_ASSERT(s);
	r = cq_read(s, 1, 1000, 0);
	cq_read(s, 3, 90000000, 0);
	cq_read(s, 2, 1016, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == r);
	cq_queue(s, 2, true)->flags |= CFQ_QF_COOP;
	cq_done(s, r, 1 * MS);
	/* no cooperator: pid 1 idles, then the tree's first (pid 3) goes */
	T_ASSERT(cq_wakeup(s) == 9 * MS);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	cq_timer(s, 9 * MS);
	rq = t_sq_dispatch(s, 9 * MS);
	T_ASSERT(rq && rq->ioc->pid == 3);
	cq_free(s);
	return T_PASS;
}

static int test_cooperator_2633(void)
{
	struct t_sq *s = three("cfq-2.6.33");
	struct cfq_queue *q1, *q2;

	T_ASSERT(s);
	T_ASSERT_EQ(after_dry(s, false), 2);
	T_ASSERT(cq_wakeup(s) == IOS_NO_WAKEUP);
	T_ASSERT_EQ(cq_data(s)->st_coop_selected, 1);
	/* the merge is set up: pid 1's queue points at pid 2's */
	q1 = cq_queue(s, 1, true);
	q2 = cq_queue(s, 2, true);
	T_ASSERT(q1->new_cfqq == q2);
	T_ASSERT_EQ(cq_data(s)->st_merges, 1);
	/* ...and happens at pid 1's next allocation */
	cq_read(s, 1, 1024, 2 * MS);
	T_ASSERT(cq_queue(s, 1, true) == q2);
	T_ASSERT(q2->flags & CFQ_QF_COOP);
	cq_free(s);
	return T_PASS;
}

static int test_no_cooperator_other_group_or_seeky_2633(void)
{
	struct t_sq *s;

	/* pid 2 in another group: not a cooperator; pid 1 idles */
	s = three("cfq-2.6.33");
	T_ASSERT(s);
	t_ioc(2)->cgroup = &other_group;
	T_ASSERT_EQ(after_dry(s, false), 0);
	T_ASSERT(cq_wakeup(s) != IOS_NO_WAKEUP);
	T_ASSERT_EQ(cq_data(s)->st_coop_selected, 0);
	cq_free(s);
	t_ioc(2)->cgroup = &t_root_cgroup;

	/* pid 2 seeky (its next request close to the head all the same): not a cooperator */
	s = three("cfq-2.6.33");
	T_ASSERT(s);
	{
		struct ios_request *r = cq_read(s, 1, 1000, 0), *rq;

		cq_read(s, 3, 90000000, 0);
		for (int i = 0; i < 6; i++)
			cq_read(s, 2, (uint64_t)(i % 2) * 80000000 + 50000 + 8 * (uint64_t)i, 0);
		cq_read(s, 2, 1016, 0);
		T_ASSERT(cq_queue(s, 2, true)->seek_mean > 8192);
		T_ASSERT_EQ(cq_queue(s, 2, true)->next_rq->sector, 1016);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_done(s, r, 1 * MS);
		rq = t_sq_dispatch(s, 1 * MS);
		T_ASSERT(rq == NULL);
		T_ASSERT_EQ(cq_data(s)->st_coop_selected, 0);
	}
	cq_free(s);
	return T_PASS;
}

/* After a merge, the shared queue turns seeky: each process gets its own queue back. */
static int test_split_2633(void)
{
	struct t_sq *s = three("cfq-2.6.33");
	struct cfq_queue *q2, *q1b;
	uint64_t now = 2 * MS;
	struct ios_request *rq;

	T_ASSERT(s);
	T_ASSERT_EQ(after_dry(s, false), 2);
	q2 = cq_queue(s, 2, true);
	cq_read(s, 1, 1024, now);		/* merged into q2 */
	T_ASSERT(cq_queue(s, 1, true) == q2);
	/* far requests make q2 seeky */
	cq_read(s, 2, 70000000, now);
	cq_read(s, 1, 20000000, now);
	T_ASSERT(q2->seek_mean > 8192);
	/* serve until q2's slice ends: the expiry marks it for splitting */
	for (int guard = 0; guard < 100 && cq_data(s)->active_queue == q2; guard++) {
		rq = t_sq_dispatch(s, now);
		now += MS;
		if (rq) {
			cq_done(s, rq, now);
		} else if (cq_wakeup(s) != IOS_NO_WAKEUP) {
			now = cq_wakeup(s);
			cq_timer(s, now);
		}
	}
	T_ASSERT(cq_data(s)->active_queue != q2);
	T_ASSERT(q2->flags & CFQ_QF_SPLIT_COOP);
	/* pid 1's next request: two processes share q2, so pid 1 gets a new queue */
	cq_read(s, 1, 30000000, now);
	q1b = cq_queue(s, 1, true);
	T_ASSERT(q1b && q1b != q2);
	T_ASSERT_EQ(cq_data(s)->st_splits, 1);
	/* pid 2 is now alone on q2: it keeps it, without the flags */
	cq_read(s, 2, 40000000, now);
	T_ASSERT(cq_queue(s, 2, true) == q2);
	T_ASSERT(!(q2->flags & (CFQ_QF_COOP | CFQ_QF_SPLIT_COOP)));
	cq_free(s);
	return T_PASS;
}

/* ---- bio merging through the block layer ---- */

/* Complete and time out until nothing is left, then free the rig. */
static void rig_finish(struct t_rig *r, uint64_t now)
{
	for (int guard = 0; guard < 10000 && (t_in_device(r) || r->q->nr_sorted); guard++) {
		now += MS;
		if (!t_complete_next(r, now) && r->timer_at != IOS_NO_WAKEUP) {
			if (r->timer_at > now)
				now = r->timer_at;
			t_fire_timer(r, now);
		}
	}
	t_rig_free(r);
}

/* A rig whose one tag is taken by pid 9, so that what follows stays queued. */
static struct t_rig *busy_rig(const char *prof)
{
	struct t_rig *r = t_rig_new(prof, 1, 1, NULL);

	if (!r)
		return NULL;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(9, IOS_IOPRIO_CLASS_BE, 4);
	t_submit(r, t_ioc(9), 500000000, 8, IOS_READ, 0, 0, NULL);
	return r;
}

static int test_allow_merge(void)
{
	static const char *const prof[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 3; p++) {
		struct t_rig *r = busy_rig(prof[p]);

		T_ASSERT(r);
		t_submit(r, t_ioc(1), 1000, 8, IOS_READ, 0, 1 * MS, NULL);
		/* another process's read right behind it: not merged */
		t_submit(r, t_ioc(2), 1008, 8, IOS_READ, 0, 1 * MS, NULL);
		T_ASSERT_EQ(r->q->nr_bio_merges, 0);
		/* the same process: merged */
		t_submit(r, t_ioc(1), 992, 8, IOS_READ, 0, 1 * MS, NULL);
		T_ASSERT_EQ(r->q->nr_bio_merges, 1);
		/* pid 1's buffered write, then its sync write right behind: not merged */
		t_submit(r, t_ioc(1), 7000, 8, IOS_WRITE, 0, 1 * MS, NULL);
		t_submit(r, t_ioc(1), 7008, 8, IOS_WRITE, IOS_REQ_SYNC, 1 * MS, NULL);
		T_ASSERT_EQ(r->q->nr_bio_merges, 1);
		/* a sync write, then a buffered write behind it: different queues, not merged */
		t_submit(r, t_ioc(1), 9000, 8, IOS_WRITE, IOS_REQ_SYNC, 1 * MS, NULL);
		t_submit(r, t_ioc(1), 9008, 8, IOS_WRITE, 0, 1 * MS, NULL);
		T_ASSERT_EQ(r->q->nr_bio_merges, 1);
		/*
		 * Buffered writes of two processes of one priority share the async
		 * queue: merged, once pid 2's context knows that queue (it did one
		 * buffered write; before, its async slot is empty and CFQ refuses).
		 */
		t_submit(r, t_ioc(1), 11000, 8, IOS_WRITE, 0, 1 * MS, NULL);
		t_submit(r, t_ioc(2), 11008, 8, IOS_WRITE, 0, 1 * MS, NULL);
		T_ASSERT_EQ(r->q->nr_bio_merges, 1);
		t_submit(r, t_ioc(2), 13000, 8, IOS_WRITE, 0, 1 * MS, NULL);
		t_submit(r, t_ioc(1), 15000, 8, IOS_WRITE, 0, 1 * MS, NULL);
		t_submit(r, t_ioc(2), 15008, 8, IOS_WRITE, 0, 1 * MS, NULL);
		T_ASSERT_MSG(r->q->nr_bio_merges == 2, "%s: %" PRIu64, prof[p], r->q->nr_bio_merges);
		rig_finish(r, 1 * MS);
	}
	return T_PASS;
}

static int test_cross_queue_merge(void)
{
	struct t_rig *r = busy_rig("cfq");

	T_ASSERT(r);
	r->q->ignore_allow_merge = true;	/* lab.cross_queue_merge=1 */
	t_submit(r, t_ioc(1), 1000, 8, IOS_READ, 0, 1 * MS, NULL);
	t_submit(r, t_ioc(2), 1008, 8, IOS_READ, 0, 1 * MS, NULL);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	/* a sync bio into an async request as well */
	t_submit(r, t_ioc(1), 7000, 8, IOS_WRITE, 0, 1 * MS, NULL);
	t_submit(r, t_ioc(1), 7008, 8, IOS_WRITE, IOS_REQ_SYNC, 1 * MS, NULL);
	T_ASSERT_EQ(r->q->nr_bio_merges, 2);
	rig_finish(r, 1 * MS);
	return T_PASS;
}

/* ---- may_queue ---- */

static int test_may_queue_must(void)
{
	static const char *const prof[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 3; p++) {
		struct t_sq *s = t_sq_new(prof[p], 4, 1, NULL);
		struct ios_request *r;
		enum ios_mqueue (*mq)(struct ios_queue *, struct ios_ioc *, int, bool);

		T_ASSERT(s);
		mq = s->type->ops.may_queue;
		T_ASSERT(mq);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
		/* no context yet: MAY */
		T_ASSERT_EQ(mq(&s->q, t_ioc(1), IOS_READ, true), IOS_MQUEUE_MAY);
		r = cq_read(s, 1, 1000, 0);
		T_ASSERT_EQ(mq(&s->q, t_ioc(1), IOS_READ, true), IOS_MQUEUE_MAY);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_done(s, r, 1 * MS);
		/* CFQ is waiting for pid 1: MUST, once per slice */
		T_ASSERT(cq_queue(s, 1, true)->flags & CFQ_QF_WAIT_REQUEST);
		T_ASSERT_EQ(mq(&s->q, t_ioc(1), IOS_READ, true), IOS_MQUEUE_MUST);
		T_ASSERT_EQ(mq(&s->q, t_ioc(1), IOS_READ, true), IOS_MQUEUE_MAY);
		/* not for another process, nor for pid 1's async queue */
		T_ASSERT_EQ(mq(&s->q, t_ioc(2), IOS_READ, true), IOS_MQUEUE_MAY);
		T_ASSERT_EQ(mq(&s->q, t_ioc(1), IOS_WRITE, false), IOS_MQUEUE_MAY);
		cq_free(s);
	}
	return T_PASS;
}

/* Through the block layer: the awaited process gets a request past nr_requests. */
static int test_may_queue_past_nr_requests(void)
{
	struct t_rig *r = t_rig_new("cfq", 1, 1, "queue.nr_requests=4", NULL);
	int ret;

	T_ASSERT(r);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	t_submit(r, t_ioc(1), 1000, 8, IOS_READ, 0, 0, NULL);
	t_complete_next(r, 1 * MS);			/* pid 1 is idled for */
	T_ASSERT(r->timer_at == 9 * MS);
	/* pid 2 fills the sync request list while CFQ keeps the disk for pid 1 */
	for (int i = 0; i < 4; i++)
		t_submit(r, t_ioc(2), 90000000 + 1000 * (uint64_t)i, 8, IOS_READ, 0, 2 * MS, NULL);
	T_ASSERT_EQ(r->q->rq_count[1], 4);
	T_ASSERT_EQ(t_in_device(r), 0);
	/* pid 1's next read still gets a request (up to 3/2 of nr_requests) */
	t_submit(r, t_ioc(1), 1008, 8, IOS_READ, 0, 3 * MS, &ret);
	T_ASSERT_EQ(ret, 0);
	T_ASSERT_EQ(r->q->rq_count[1], 5);
	rig_finish(r, 3 * MS);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_cooperator_2631, test_cooperator_flag_blocks_2631, test_cooperator_2633,
		     test_no_cooperator_other_group_or_seeky_2633, test_split_2633,
		     test_allow_merge, test_cross_queue_merge, test_may_queue_must,
		     test_may_queue_past_nr_requests);
}
