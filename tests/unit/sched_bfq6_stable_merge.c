/*
 * Description: bfq-6.12's stable merge and its early-queue-merge rule on
 * queueing flash (bfq_do_or_sched_stable_merge, bfq_do_early_stable_merge,
 * bfq_setup_stable_merge, bfq_setup_cooperator; Linux 6.12). Two sync
 * queues created within burst_interval (180 ms) of each other, with the
 * same ioprio in the same group, are one application's I/O flows: on flash
 * (queueing assumed until hw_tag says otherwise) the second is merged into
 * the first at creation; on a disk the merge is scheduled and done on a
 * request at least 600 ms after creation, unless idling for the queue
 * raises throughput (sequential I/O on a disk, no raised queue busy). Not
 * created close enough, or another level: no merge. A stably merged
 * process is never split off again. Early queue merge (EQM, which 4.19 does
 * everywhere) is off on queueing flash and on on disks. With the
 * behaviours off, none of it.
 */
#include "sched_bfq6_util.h"

static void drain(struct t_sq *s, uint64_t now)
{
	struct ios_request *rq;

	while ((rq = bfq6_dispatch_or_wait(s, &now)) != NULL)
		t_sq_complete(s, rq, now);
}

/* one request of @ioc at @now, served and completed at once */
static void io(struct t_sq *s, struct ios_ioc *ioc, uint64_t sector, uint64_t now)
{
	bfq_ins(s, ioc, sector, 8, IOS_READ, 0, now);
	drain(s, now);
}

static int test_early_merge_on_flash(void)
{
	struct ios_ioc *p1 = bfq_test_ioc(901, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *p2 = bfq_test_ioc(902, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *p3 = bfq_test_ioc(903, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *p4 = bfq_test_ioc(904, IOS_IOPRIO_CLASS_BE, 5);
	struct bfq_queue *q1;
	struct bfq_profile off;
	struct t_sq *s;

	bfq6_register();
	s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	T_ASSERT(bfqd_of(&s->q)->nonrot_with_queueing);
	io(s, p1, 1000, 0);
	q1 = bfqq_of(&s->q, p1, true);
	T_ASSERT(bfqd_of(&s->q)->root_group->last_bfqq_created == q1);
	/* 100 ms later, same level: merged at creation */
	io(s, p2, 5000000, 100 * MS);
	T_ASSERT(bfqq_of(&s->q, p2, true) == q1);
	T_ASSERT(bfqq_flag(q1, BFQQF_coop));
	T_ASSERT(ios_bfq_bic_lookup(bfqd_of(&s->q), p2)->stably_merged);
	T_ASSERT(ios_bfq_bic_lookup(bfqd_of(&s->q), p1)->stably_merged);
	T_ASSERT_EQ(bfq_stat(&s->q, "stable_merges"), 1);
	/* 200 ms after q1 was created: past burst_interval, its own queue */
	io(s, p3, 7000000, 200 * MS);
	T_ASSERT(bfqq_of(&s->q, p3, true) != q1);
	T_ASSERT(bfqd_of(&s->q)->root_group->last_bfqq_created == q1);
	/* another level: its own queue, and the newest from now on */
	io(s, p4, 9000000, 250 * MS);
	T_ASSERT(bfqq_of(&s->q, p4, true) != q1);
	T_ASSERT(bfqd_of(&s->q)->root_group->last_bfqq_created == bfqq_of(&s->q, p4, true));
	T_ASSERT_EQ(bfq_stat(&s->q, "stable_merges"), 1);
	t_sq_free(s);

	/* the behaviour off: separate queues */
	s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	bfq6_with(s, BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612, stable_merge));
	io(s, p1, 1000, 0);
	io(s, p2, 5000000, 100 * MS);
	T_ASSERT(bfqq_of(&s->q, p2, true) != bfqq_of(&s->q, p1, true));
	T_ASSERT_EQ(bfq_stat(&s->q, "stable_merges"), 0);
	t_sq_free(s);
	return T_PASS;
}

/*
 * On a disk: scheduled at creation, decided on a request 600 ms after it.
 * If P2's queue is sequential and I/O-bound, idling for it raises the
 * disk's throughput (idling_boosts_thr_without_issues) and the merge is
 * dropped; otherwise it goes ahead.
 */
static int delayed(bool seq_io_bound, bool *merged, bool *early)
{
	struct ios_ioc *p1 = bfq_test_ioc(911, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *p2 = bfq_test_ioc(912, IOS_IOPRIO_CLASS_BE, 4);
	struct t_sq *s = t_sq_new("bfq-6.12", 32, 1, "low_latency=0", NULL);
	struct bfq_io_cq *bic2;
	struct bfq_queue *q1, *q2;

	if (!s)
		return -1;
	io(s, p1, 1000, 0);
	q1 = bfqq_of(&s->q, p1, true);
	io(s, p2, 5000000, 100 * MS);
	bic2 = ios_bfq_bic_lookup(bfqd_of(&s->q), p2);
	if (bfqq_of(&s->q, p2, true) == q1 || bic2->stable_merge_bfqq != q1 || q1->stable_ref != 1)
		return -1;
	/* at 500 ms (400 ms after creation) not yet */
	io(s, p2, 5000008, 500 * MS);
	*early = bfqq_of(&s->q, p2, true) == q1;
	/* at 800 ms it is decided */
	q2 = bfqq_of(&s->q, p2, true);
	if (seq_io_bound)
		bfqq_set(q2, BFQQF_IO_bound | BFQQF_has_short_ttime);
	else
		bfqq_clear(q2, BFQQF_IO_bound);
	io(s, p2, 5000016, 800 * MS);
	*merged = bfqq_of(&s->q, p2, true) == q1;
	if (bic2->stable_merge_bfqq || q1->stable_ref != 0)
		return -1;
	t_sq_free(s);
	return 0;
}

static int test_delayed_merge_on_disk(void)
{
	bool merged, early;

	bfq6_register();
	T_ASSERT_EQ(delayed(false, &merged, &early), 0);
	T_ASSERT(!early);
	T_ASSERT(merged);
	T_ASSERT_EQ(delayed(true, &merged, &early), 0);
	T_ASSERT(!early);
	T_ASSERT(!merged);
	return T_PASS;
}

/* A stably merged queue that turns seeky is not split (bfq_init_rq). */
static int test_stably_merged_stays_merged(void)
{
	struct ios_ioc *p1 = bfq_test_ioc(921, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *p2 = bfq_test_ioc(922, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *q1;
	struct t_sq *s;

	bfq6_register();
	s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	io(s, p1, 1000, 0);
	io(s, p2, 5000000, 10 * MS);
	q1 = bfqq_of(&s->q, p1, true);
	T_ASSERT(bfqq_of(&s->q, p2, true) == q1);
	bfqq_set(q1, BFQQF_split_coop);
	io(s, p2, 6000000, 20 * MS);
	T_ASSERT(bfqq_of(&s->q, p2, true) == q1);
	T_ASSERT_EQ(bfq_stat(&s->q, "queue_splits"), 0);
	/* an EQM-merged process (not stable) would have been split: clear the mark */
	ios_bfq_bic_lookup(bfqd_of(&s->q), p2)->stably_merged = false;
	io(s, p2, 7000000, 30 * MS);
	T_ASSERT(bfqq_of(&s->q, p2, true) != q1);
	T_ASSERT_EQ(bfq_stat(&s->q, "queue_splits"), 1);
	t_sq_free(s);
	return T_PASS;
}

/*
 * EQM: P2's second request lands right after the in-service P1's last one.
 * Levels differ (4, 5), so no stable merge: only EQM could merge them.
 */
static int eqm(int rotational, const struct bfq_profile *prof, bool *merged)
{
	struct ios_ioc *p1 = bfq_test_ioc(931, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *p2 = bfq_test_ioc(932, IOS_IOPRIO_CLASS_BE, 5);
	struct t_sq *s = t_sq_new("bfq-6.12", 32, rotational, "low_latency=0", NULL);
	struct ios_request *r1;

	if (!s)
		return -1;
	if (prof)
		bfq6_with(s, prof);
	bfq_ins(s, p1, 1000, 8, IOS_READ, 0, 0);
	r1 = t_sq_dispatch(s, 0);
	bfq_ins(s, p2, 5000000, 8, IOS_READ, 0, 1 * MS);
	bfq_ins(s, p2, 1008, 8, IOS_READ, 0, 2 * MS);
	*merged = bfqq_of(&s->q, p2, true) == bfqq_of(&s->q, p1, true);
	t_sq_complete(s, r1, 3 * MS);
	drain(s, 3 * MS);
	t_sq_free(s);
	return r1 ? 0 : -1;
}

static int test_no_eqm_on_queueing_flash(void)
{
	struct bfq_profile off;
	bool merged;

	bfq6_register();
	T_ASSERT_EQ(eqm(0, NULL, &merged), 0);
	T_ASSERT(!merged);
	T_ASSERT_EQ(eqm(1, NULL, &merged), 0);
	T_ASSERT(merged);
	T_ASSERT_EQ(eqm(0, BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612,
						 eqm_off_nonrot_queueing), &merged), 0);
	T_ASSERT(merged);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_early_merge_on_flash, test_delayed_merge_on_disk,
		     test_stably_merged_stays_merged, test_no_eqm_on_queueing_flash);
}
