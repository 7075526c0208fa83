/*
 * Description: the references of CFQ's queue merging as each release
 * keeps them. cfq_setup_merge in 2.6.33.3 follows the candidate's
 * new_cfqq chain even when the candidate has no processes left (4.19, like
 * 2.6.33.7, refuses such a candidate first); a chain whose next queue was
 * freed is refused here, where the kernel would read freed memory. 4.19's
 * split_cfqq drops the splitting process's share of a pending merge
 * (cfq_put_cooperator); 2.6.33.3's keeps it.
 */
#include "sched_cfq_util.h"

static struct t_sq *three(const char *prof, int cls3)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);

	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(3, cls3, 4);
	return s;
}

/* What cfq_setup_merge does when @from's processes move to @to. */
static void pend_merge(struct cfq_queue *from, struct cfq_queue *to, int process_refs)
{
	from->new_cfqq = to;
	to->merge_referrers++;
	to->ref += process_refs;
	to->flags |= CFQ_QF_MERGE_TARGET;
}

/*
 * Pid 1 reads at 1000, pid 2 at 1016, pid 3 far away; pid 2's queue has a
 * merge into pid 3's pending, and pid 2 exits with its read still queued.
 * When pid 1's queue runs dry, pid 2's queue is its close cooperator.
 * Returns pid 1's queue's merge target.
 */
static int candidate_without_processes(const char *prof, struct cfq_queue **q3p)
{
	struct t_sq *s = three(prof, IOS_IOPRIO_CLASS_BE);
	struct ios_request *r1, *rq;
	struct cfq_queue *q1, *q2, *q3, *target;
	int ret;

	T_ASSERT(s);
	r1 = cq_read(s, 1, 1000, 0);
	cq_read(s, 2, 1016, 0);
	cq_read(s, 3, 90000000, 0);
	q1 = cq_queue(s, 1, true);
	q2 = cq_queue(s, 2, true);
	q3 = cq_queue(s, 3, true);
	pend_merge(q2, q3, 1);
	s->type->ops.exit_icq(&s->q, t_ioc(2), 0);
	T_ASSERT(t_sq_dispatch(s, 0) == r1);
	cq_done(s, r1, 1 * MS);
	rq = t_sq_dispatch(s, 1 * MS);
	/* pid 2's queue is served as the cooperator in every case */
	T_ASSERT(rq && rq->ioc->pid == 2);
	target = q1->new_cfqq;
	*q3p = q3;
	cq_done(s, rq, 2 * MS);
	ret = target == NULL ? 0 : target == q3 ? 3 : -1;
	cq_free(s);
	return ret;
}

static int test_setup_merge_2633_walks_from_exited(void)
{
	struct cfq_queue *q3;

	/* 2.6.33.3: the chain through the exited queue leads to pid 3's queue */
	T_ASSERT_EQ(candidate_without_processes("cfq-2.6.33", &q3), 3);
	return T_PASS;
}

static int test_setup_merge_419_refuses_exited(void)
{
	struct cfq_queue *q3;

	T_ASSERT_EQ(candidate_without_processes("cfq-4.19", &q3), 0);
	return T_PASS;
}

/*
 * 2.6.33.3 with the chain's next queue freed: pid 3 (RT, served first)
 * exits, and pid 2's exit drops the last reference on pid 3's queue. The
 * merge is refused and nothing reads the freed queue (ASan builds).
 */
static int test_setup_merge_2633_freed_chain(void)
{
	struct t_sq *s = three("cfq-2.6.33", IOS_IOPRIO_CLASS_RT);
	struct ios_request *r1, *r3, *rq;
	struct cfq_queue *q1, *q2;

	T_ASSERT(s);
	r3 = cq_read(s, 3, 90000000, 0);
	r1 = cq_read(s, 1, 1000, 0);
	cq_read(s, 2, 1016, 0);
	q1 = cq_queue(s, 1, true);
	q2 = cq_queue(s, 2, true);
	T_ASSERT(t_sq_dispatch(s, 0) == r3);
	pend_merge(q2, cq_queue(s, 3, true), 1);
	cq_done(s, r3, 1 * MS);
	s->type->ops.exit_icq(&s->q, t_ioc(3), 1 * MS);
	s->type->ops.exit_icq(&s->q, t_ioc(2), 1 * MS);
	/* pid 3's queue is gone: pid 2's no longer points anywhere */
	T_ASSERT(q2->new_cfqq == NULL);
	T_ASSERT(q2->flags & CFQ_QF_CHAIN_FREED);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == r1);
	cq_done(s, r1, 2 * MS);
	rq = t_sq_dispatch(s, 2 * MS);
	T_ASSERT(rq && rq->ioc->pid == 2);
	T_ASSERT(q1->new_cfqq == NULL);
	T_ASSERT_EQ(cq_data(s)->st_merges, 0);
	cq_done(s, rq, 3 * MS);
	cq_free(s);
	return T_PASS;
}

/*
 * Pids 1 and 2 share pid 2's queue (merged as cooperators), which has a
 * merge of its own pending into pid 3's queue and is marked for splitting.
 * Pid 1's next request splits it off. Returns 100 + how many references
 * pid 3's queue lost (a failed assertion returns T_FAIL).
 */
static int split_drops(const char *prof)
{
	struct t_sq *s = three(prof, IOS_IOPRIO_CLASS_BE);
	struct ios_request *r, *rq;
	struct cfq_queue *q2, *q3;
	int before, lost;

	T_ASSERT(s);
	r = cq_read(s, 1, 1000, 0);
	cq_read(s, 3, 90000000, 0);
	cq_read(s, 2, 1016, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == r);
	cq_done(s, r, 1 * MS);
	rq = t_sq_dispatch(s, 1 * MS);
	T_ASSERT(rq && rq->ioc->pid == 2);
	q2 = cq_queue(s, 2, true);
	T_ASSERT(cq_queue(s, 1, true)->new_cfqq == q2);
	cq_read(s, 1, 1024, 2 * MS);
	T_ASSERT(cq_queue(s, 1, true) == q2);
	q3 = cq_queue(s, 3, true);
	pend_merge(q2, q3, 2);
	q2->flags |= CFQ_QF_SPLIT_COOP;
	before = q3->ref;
	cq_read(s, 1, 30000000, 2 * MS);
	T_ASSERT(cq_queue(s, 1, true) != q2);
	T_ASSERT_EQ(cq_data(s)->st_splits, 1);
	lost = before - q3->ref;
	cq_done(s, rq, 3 * MS);
	cq_free(s);
	return 100 + lost;
}

static int test_split_keeps_merge_refs_2633(void)
{
	T_ASSERT_EQ(split_drops("cfq-2.6.33"), 100);
	return T_PASS;
}

static int test_split_drops_merge_refs_419(void)
{
	T_ASSERT_EQ(split_drops("cfq-4.19"), 101);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_setup_merge_2633_walks_from_exited, test_setup_merge_419_refuses_exited,
		     test_setup_merge_2633_freed_chain, test_split_keeps_merge_refs_2633,
		     test_split_drops_merge_refs_419);
}
