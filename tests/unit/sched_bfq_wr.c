/*
 * Description: BFQ weight raising (low_latency), called directly with a fake
 * clock on a rotational queue. A new sync queue is deemed interactive: its
 * weight is raised 30x (40 -> 1200) at its first request, with small
 * budgets (2 x min_budget = 1024 sectors). Interactive raising ends at the
 * dispatch after 120000 sectors of service, or at the first dispatch after
 * its duration (reference rate / peak rate x 7 s, 3..25 s), not before.
 * With low_latency=0 nothing is raised. Eight queues created within 180 ms
 * of each other form a large burst: the next one in the burst is not
 * raised, one created after a pause is. A process reading a little every
 * 100 ms, once its interactive raising is over, is deemed soft real-time
 * (30 x 100).
 */
#include "sched_bfq_util.h"

static int test_interactive_raising_ends_by_service(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, NULL);
	struct ios_ioc *a = bfq_test_ioc(301, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *bfqq;
	uint64_t now = 0, sector = 1000;
	int i;

	T_ASSERT(s);
	for (i = 0; i < 8; i++, sector += 256)
		bfq_ins(s, a, sector, 256, IOS_READ, 0, 0);
	bfqq = bfqq_of(&s->q, a, true);
	T_ASSERT(bfqq);
	T_ASSERT_EQ(bfqq->wr_coeff, 30);
	T_ASSERT_EQ(bfqq->entity.budget, 1024);
	T_ASSERT_EQ(bfq_stat(&s->q, "wr_starts"), 1);
	for (i = 1; i <= 600; i++) {
		struct ios_request *rq = t_sq_dispatch(s, now);

		T_ASSERT(rq);
		bfq_ins(s, a, sector, 256, IOS_READ, 0, now);
		sector += 256;
		now += MS;
		t_sq_complete(s, rq, now);
		/* 120000 / 256 = 468.75: the 469th dispatch crosses it */
		if (i < 469) {
			T_ASSERT_MSG(bfqq->wr_coeff == 30, "raising ended at dispatch %d", i);
			T_ASSERT_EQ(bfqq->entity.weight, 1200);
		} else {
			T_ASSERT_MSG(bfqq->wr_coeff == 1, "still raised at dispatch %d", i);
			T_ASSERT_EQ(bfqq->entity.weight, 40);
		}
	}
	t_sq_free(s);
	return T_PASS;
}

static int test_interactive_raising_ends_by_time(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, NULL);
	struct ios_ioc *a = bfq_test_ioc(302, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *bfqq;
	uint64_t now = 0, sector = 1000, prev = 0, end;
	int i;
	bool ended = false;

	T_ASSERT(s);
	for (i = 0; i < 4; i++, sector += 8)
		bfq_ins(s, a, sector, 8, IOS_READ, 0, 0);
	bfqq = bfqq_of(&s->q, a, true);
	T_ASSERT(bfqq && bfqq->wr_coeff == 30);
	T_ASSERT(bfqq->wr_cur_max_time_ns >= (int64_t)(3000 * MS) &&
		 bfqq->wr_cur_max_time_ns <= (int64_t)(25000 * MS));
	/* small, slow requests: the service limit is far away */
	for (i = 0; i < 400 && !ended; i++) {
		struct ios_request *rq;

		end = (uint64_t)(bfqq->last_wr_start_finish_ns + bfqq->wr_cur_max_time_ns);
		rq = t_sq_dispatch(s, now);
		T_ASSERT(rq);
		if (bfqq->wr_coeff == 1) {
			/* ended at this dispatch: the first one past the end */
			T_ASSERT_MSG(now > end && prev <= end, "ended at %llu, end %llu, prev %llu",
				     (unsigned long long)now, (unsigned long long)end,
				     (unsigned long long)prev);
			T_ASSERT_EQ(bfqq->entity.weight, 40);
			ended = true;
		}
		bfq_ins(s, a, sector, 8, IOS_READ, 0, now);
		sector += 8;
		prev = now;
		now += 100 * MS;
		t_sq_complete(s, rq, now);
	}
	T_ASSERT(ended);
	T_ASSERT(bfqq->service_from_wr < 120000);
	t_sq_free(s);
	return T_PASS;
}

static int test_no_raising_without_low_latency(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(303, IOS_IOPRIO_CLASS_BE, 4);

	T_ASSERT(s);
	bfq_ins(s, a, 1000, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(bfqq_of(&s->q, a, true)->wr_coeff, 1);
	T_ASSERT_EQ(bfq_stat(&s->q, "wr_starts"), 0);
	t_sq_free(s);
	return T_PASS;
}

static int test_large_burst_not_raised(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, NULL);
	struct ios_ioc *ioc[10];
	uint64_t now = 0;
	int i;

	T_ASSERT(s);
	/* eight new queues 20 ms apart: a large burst from the eighth on */
	for (i = 0; i < 9; i++) {
		ioc[i] = bfq_test_ioc(310 + (uint32_t)i, IOS_IOPRIO_CLASS_BE, 4);
		bfq_ins(s, ioc[i], 1000000 * (uint64_t)(i + 1), 8, IOS_READ, 0, now);
		now += 20 * MS;
	}
	T_ASSERT_EQ(bfqq_of(&s->q, ioc[0], true)->flags & BFQQF_in_large_burst,
		    BFQQF_in_large_burst);
	T_ASSERT(bfqq_flag(bfqq_of(&s->q, ioc[7], true), BFQQF_in_large_burst));
	/* the ninth joined the large burst: never raised */
	T_ASSERT(bfqq_flag(bfqq_of(&s->q, ioc[8], true), BFQQF_in_large_burst));
	T_ASSERT_EQ(bfqq_of(&s->q, ioc[8], true)->wr_coeff, 1);
	/* after a pause longer than 180 ms a new queue starts a new burst, and is raised */
	now += 500 * MS;
	ioc[9] = bfq_test_ioc(319, IOS_IOPRIO_CLASS_BE, 4);
	bfq_ins(s, ioc[9], 20000000, 8, IOS_READ, 0, now);
	T_ASSERT(!bfqq_flag(bfqq_of(&s->q, ioc[9], true), BFQQF_in_large_burst));
	T_ASSERT_EQ(bfqq_of(&s->q, ioc[9], true)->wr_coeff, 30);
	t_sq_free(s);
	return T_PASS;
}

/*
 * One 8-sector read every 100 ms (80 sectors/s, far under 7000), each
 * waited for: isochronous and slow, the pattern of a media player.
 */
static int test_soft_real_time(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, NULL);
	struct ios_ioc *a = bfq_test_ioc(320, IOS_IOPRIO_CLASS_BE, 4);
	struct bfq_queue *bfqq = NULL;
	uint64_t now = 0, sector = 1000;
	unsigned max_coeff_late = 0;

	T_ASSERT(s);
	for (int i = 0; i < 300; i++) {
		struct ios_request *rq;

		bfq_ins(s, a, sector, 8, IOS_READ, 0, now);
		sector += 8;
		bfqq = bfqq_of(&s->q, a, true);
		rq = t_sq_dispatch(s, now);
		T_ASSERT(rq);
		t_sq_complete(s, rq, now + 5 * MS);
		/* let the idle window run out so the queue expires empty */
		now += 5 * MS;
		if (s->type->ops.next_wakeup(&s->q) != IOS_NO_WAKEUP) {
			now = s->type->ops.next_wakeup(&s->q);
			T_ASSERT(t_sq_dispatch(s, now) == NULL);
		}
		now = (uint64_t)(i + 1) * 100 * MS;
		if (now > 26000 * MS && bfqq->wr_coeff > max_coeff_late)
			max_coeff_late = bfqq->wr_coeff;
	}
	/* interactive raising is long over (25 s at most); soft real-time took its place */
	T_ASSERT_EQ(max_coeff_late, 30 * 100);
	T_ASSERT(bfqq->wr_cur_max_time_ns == (int64_t)(300 * MS));
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_interactive_raising_ends_by_service, test_interactive_raising_ends_by_time,
		     test_no_raising_without_low_latency, test_large_burst_not_raised,
		     test_soft_real_time);
}
