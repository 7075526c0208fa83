/*
 * Description: BFQ and merging, through the block layer with a fake device.
 * A bio joins only a request of the queue it would go to itself: not
 * another process's, not another class or level's async queue, and a sync
 * bio never joins an async request, while a bio of the same queue merges
 * at either end and two requests it makes contiguous collapse into one.
 * Early queue merge: a process whose first requests land next to where
 * another young process is reading shares that process's queue (both
 * queues were created less than 100 ms ago); a process that has been doing
 * I/O for longer is left alone; a shared queue that turns seeky is split
 * again at its processes' next requests. A front merge that leaves the
 * request after its predecessor does not change the queue's next request,
 * even if the merged request is now nearer the head (4.19 reconsiders
 * next_rq only when the request moved).
 */
#include "sched_bfq_util.h"

static void drain(struct t_rig *r, uint64_t now)
{
	while (t_in_device(r) || r->q->nr_sorted) {
		now += MS;
		if (!t_complete_next(r, now) && r->timer_at != IOS_NO_WAKEUP)
			t_fire_timer(r, r->timer_at > now ? r->timer_at : now);
	}
}

static int test_merge_veto(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(501, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(502, IOS_IOPRIO_CLASS_BE, 5);
	struct ios_ioc *c = bfq_test_ioc(503, IOS_IOPRIO_CLASS_RT, 4);

	T_ASSERT(r);
	/* keep the device busy so that what follows stays queued */
	t_submit(r, a, 100, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->nr_issued, 1);

	/* a's async write, then b's right behind it: b's async queue is another */
	t_submit(r, a, 2000, 8, IOS_WRITE, 0, 0, NULL);
	t_submit(r, b, 2008, 8, IOS_WRITE, 0, 0, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	T_ASSERT_EQ(r->q->nr_bio_merges, 0);
	/* a's next async write in front of its own request merges */
	t_submit(r, a, 1992, 8, IOS_WRITE, 0, 0, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	/* a sync write never joins an async request, even its own process's */
	t_submit(r, a, 1984, 8, IOS_WRITE, IOS_REQ_SYNC, 0, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 3);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	/* sync reads of two processes of different classes (no queue merge either) */
	t_submit(r, a, 5000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, c, 5008, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 5);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	T_ASSERT(bfqq_of(r->q, a, true) != bfqq_of(r->q, c, true));
	T_ASSERT_EQ(bfq_stat(r->q, "queue_merges"), 0);
	drain(r, MS);
	t_rig_free(r);
	return T_PASS;
}

/* A bio filling the gap between two requests of the queue makes them one. */
static int test_requests_collapse(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(504, IOS_IOPRIO_CLASS_BE, 4);

	T_ASSERT(r);
	t_submit(r, a, 100, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, a, 1000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, a, 1016, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	t_submit(r, a, 1008, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	T_ASSERT_EQ(r->q->nr_rq_merges, 1);
	T_ASSERT_EQ(bfqd_of(r->q)->queued, 1);
	t_complete(r, 0, MS);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(r->issued[1]->sector, 1000);
	T_ASSERT_EQ(r->issued[1]->nr_sectors, 24);
	t_complete(r, 1, 2 * MS);
	T_ASSERT_EQ(r->nr_done, 4);
	t_rig_free(r);
	return T_PASS;
}

/*
 * Two processes reading one stream in turns (a at 1000, b at 1008, a at
 * 1016, ...), each waiting for its read: b's first request lands where the
 * in-service queue is working, so b's process moves onto a's queue. (With
 * a the only busy queue BFQ would not even look: a third process is busy
 * elsewhere.)
 */
static int test_cooperators_share_a_queue(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(505, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(506, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *c = bfq_test_ioc(511, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *shared;
	uint64_t now = 0, sector = 1000;

	T_ASSERT(r);
	t_submit(r, a, sector, 8, IOS_READ, 0, now, NULL);
	t_submit(r, c, 700000000, 8, IOS_READ, 0, now, NULL);
	t_submit(r, b, sector + 8, 8, IOS_READ, 0, now + 100 * US, NULL);
	T_ASSERT_EQ(bfq_stat(r->q, "queue_merges"), 1);
	shared = bfqq_of(r->q, a, true);
	T_ASSERT(shared && shared == bfqq_of(r->q, b, true));
	T_ASSERT(bfqq_flag(shared, BFQQF_coop));
	T_ASSERT(shared->bic == NULL);
	sector += 16;
	/* the stream goes on, served from the one queue without idling between them */
	for (int i = 0; i < 20; i++) {
		struct ios_ioc *who = i % 2 ? b : a;

		now += MS;
		t_complete_next(r, now);
		T_ASSERT_EQ(t_in_device(r), 1);
		t_submit(r, who, sector, 8, IOS_READ, 0, now, NULL);
		sector += 8;
	}
	T_ASSERT(bfqq_of(r->q, a, true) == bfqq_of(r->q, b, true));
	drain(r, now);
	t_rig_free(r);
	return T_PASS;
}

static int test_old_queue_not_merged(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(507, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(508, IOS_IOPRIO_CLASS_BE, 4);
	uint64_t now = 0;

	T_ASSERT(r);
	/* b reads its own stream for 200 ms */
	for (int i = 0; i < 20; i++) {
		t_submit(r, b, 50000000 + (uint64_t)i * 8, 8, IOS_READ, 0, now, NULL);
		now += 10 * MS;
		t_complete_next(r, now);
	}
	/* then a new process starts; b comes next to it */
	t_submit(r, a, 1000, 8, IOS_READ, 0, now, NULL);
	t_submit(r, b, 1008, 8, IOS_READ, 0, now + 100 * US, NULL);
	T_ASSERT_EQ(bfq_stat(r->q, "queue_merges"), 0);
	T_ASSERT(bfqq_of(r->q, a, true) != bfqq_of(r->q, b, true));
	drain(r, now);
	t_rig_free(r);
	return T_PASS;
}

/* The shared queue goes seeky: split at expiry, and each process gets its own again. */
static int test_seeky_shared_queue_splits(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(509, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(510, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *c = bfq_test_ioc(512, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *shared;
	uint64_t now = 0;

	T_ASSERT(r);
	t_submit(r, a, 1000, 8, IOS_READ, 0, now, NULL);
	t_submit(r, c, 700000000, 8, IOS_READ, 0, now, NULL);
	t_submit(r, b, 1008, 8, IOS_READ, 0, now + 100 * US, NULL);
	shared = bfqq_of(r->q, a, true);
	T_ASSERT(shared == bfqq_of(r->q, b, true));
	/* now both jump around: 24 requests 5 GB apart */
	for (int i = 0; i < 24; i++) {
		now += MS;
		t_complete_next(r, now);
		if (!t_in_device(r) && r->timer_at != IOS_NO_WAKEUP && !r->q->nr_sorted)
			t_fire_timer(r, now);
		t_submit(r, i % 2 ? b : a, 20000000 + (uint64_t)i * 10000000, 8, IOS_READ, 0, now,
			 NULL);
	}
	drain(r, now);
	if (r->timer_at != IOS_NO_WAKEUP)
		t_fire_timer(r, r->timer_at);
	T_ASSERT(bfqq_flag(shared, BFQQF_split_coop));
	/* each process's next request takes it out of the shared queue */
	t_submit(r, a, 900000000, 8, IOS_READ, 0, now, NULL);
	t_submit(r, b, 950000000, 8, IOS_READ, 0, now, NULL);
	T_ASSERT(bfq_stat(r->q, "queue_splits") >= 1);
	T_ASSERT(bfqq_of(r->q, a, true) != bfqq_of(r->q, b, true));
	drain(r, now);
	t_rig_free(r);
	return T_PASS;
}

/*
 * Head at 6000 (end of the dispatched request). A at 5800 (200 back, x2
 * penalty: 400) is chosen over B at 6450 (450 ahead). A 64-sector bio
 * front-merges into B, which now starts at 6386 (386 ahead) but still
 * sorts after A: 4.19's bfq_request_merged leaves next_rq at A.
 */
static int test_front_merge_keeps_next_rq(void)
{
	struct t_rig *r = t_rig_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(520, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *qa;

	T_ASSERT(r);
	t_submit(r, a, 5992, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_U64_EQ(bfqd_of(r->q)->last_position, 6000);
	t_submit(r, a, 5800, 8, IOS_READ, 0, 100 * US, NULL);
	t_submit(r, a, 6450, 8, IOS_READ, 0, 200 * US, NULL);
	qa = bfqq_of(r->q, a, true);
	T_ASSERT(qa && qa->next_rq && qa->next_rq->sector == 5800);
	t_submit(r, a, 6386, 64, IOS_READ, 0, 300 * US, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 2);	/* the bio joined B */
	T_ASSERT_MSG(qa->next_rq && qa->next_rq->sector == 5800,
		     "next_rq moved to the front-merged request at %llu",
		     qa->next_rq ? (unsigned long long)qa->next_rq->sector : 0ULL);
	drain(r, 300 * US);
	t_rig_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_merge_veto, test_requests_collapse, test_cooperators_share_a_queue,
		     test_old_queue_not_merged, test_seeky_shared_queue_splits,
		     test_front_merge_keeps_next_rq);
}
