/*
 * Description: kyber-6.12's dispatch order (kyber_dispatch_request,
 * kyber_dispatch_cur_domain, Linux 6.12). A hardware queue keeps serving
 * its current domain while the batch lasts (16 reads, 8 writes, 1 discard,
 * 1 other), then moves round-robin to the next domain that has a request
 * and a token; a domain that runs dry ends its batch early. Sync and async
 * writes share the WRITE domain, and priorities change nothing. Each
 * hardware queue has its own place in the round.
 */
#include "sched_kyber_util.h"

/* the letters of the next @n dispatches: R, W, D (discard), O (flush) */
static void ky_order(struct t_sq *s, unsigned hctx, unsigned n, char *out)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		struct ios_request *rq = ky_dispatch(s, hctx, 0);

		if (!rq)
			break;
		out[i] = rq->flags & IOS_REQ_DISCARD ? 'D'
			 : !rq->nr_sectors		 ? 'O'
			 : rq->dir == IOS_READ		 ? 'R'
							 : 'W';
		t_sq_complete(s, rq, 0);
	}
	out[i] = '\0';
}

/* 16 reads, then 8 writes, then 16 reads ...: the batch sizes of READ and WRITE. */
static int test_batch_sizes(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	char got[128];

	for (unsigned i = 0; i < 40; i++) {
		ky_insert(s, 1000 + 16 * i, 8, IOS_READ, 0, 0);
		/* async and sync writes alike are WRITE */
		ky_insert(s, 900000 + 16 * i, 8, IOS_WRITE, i % 2 ? IOS_REQ_SYNC : 0, 0);
	}
	ky_order(s, 0, 80, got);
	T_ASSERT_MSG(!strcmp(got, "RRRRRRRRRRRRRRRR" "WWWWWWWW" "RRRRRRRRRRRRRRRR" "WWWWWWWW"
				  "RRRRRRRR" "WWWWWWWW" "WWWWWWWW" "WWWWWWWW"),
		     "order %s", got);
	t_sq_free(s);
	return T_PASS;
}

/*
 * Round robin over all four domains, READ -> WRITE -> DISCARD -> OTHER ->
 * READ, skipping empty ones; DISCARD and OTHER get one request per turn.
 */
static int test_round_robin(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	char got[64];

	for (unsigned i = 0; i < 3; i++) {
		ky_insert(s, 1000 + 16 * i, 8, IOS_READ, 0, 0);
		ky_insert(s, 50000 + 16 * i, 8, IOS_WRITE, 0, 0);
		ky_insert(s, 90000 + 16 * i, 8, IOS_WRITE, IOS_REQ_DISCARD, 0);
		ky_insert(s, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH, 0);
	}
	ky_order(s, 0, 20, got);
	T_ASSERT_MSG(!strcmp(got, "RRRWWWDODODO"), "order %s", got);
	t_sq_free(s);
	return T_PASS;
}

/* A request coming to the current domain mid-batch joins the batch. */
static int test_batch_continues(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	char got[64];

	ky_insert(s, 1000, 8, IOS_READ, 0, 0);
	ky_insert(s, 50000, 8, IOS_WRITE, 0, 0);
	ky_order(s, 0, 1, got);
	T_ASSERT(!strcmp(got, "R"));
	/* batching is 1 of 16: the new read goes before the waiting write */
	ky_insert(s, 2000, 8, IOS_READ, 0, 0);
	ky_order(s, 0, 2, got);
	T_ASSERT_MSG(!strcmp(got, "RW"), "order %s", got);
	t_sq_free(s);
	return T_PASS;
}

/* Kyber reads no priority: an RT read waits for the end of a write batch like any other. */
static int test_ioprio_ignored(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	struct ios_ioc *rt = t_ioc(7);
	char got[64];

	rt->ioprio_class = IOS_IOPRIO_CLASS_RT;
	rt->ioprio_level = 0;
	for (unsigned i = 0; i < 10; i++)
		ky_insert(s, 50000 + 16 * i, 8, IOS_WRITE, 0, 0);
	/* read batch ends at once (no reads): the write batch starts */
	ky_order(s, 0, 1, got);
	T_ASSERT(!strcmp(got, "W"));
	s->ioc = rt;
	{
		struct ios_request *rq = ky_insert(s, 1000, 8, IOS_READ, 0, 0);

		rq->ioprio = IOS_IOPRIO_CLASS_RT << 13;
	}
	ky_order(s, 0, 9, got);
	T_ASSERT_MSG(!strcmp(got, "WWWWWWWRW"), "order %s", got);
	t_sq_free(s);
	return T_PASS;
}

/* Two hardware queues, two places in the round: one's batch does not move the other's. */
static int test_per_hctx_round(void)
{
	struct t_sq *s = ky_new(2, 2, NULL);
	char got[64];

	for (unsigned h = 0; h < 2; h++)
		for (unsigned i = 0; i < 2; i++) {
			struct ios_request *rq;

			rq = ky_rq(s, 1000 + 16 * i + 100000 * h, 8, IOS_READ, 0, h, h, 0);
			s->q.nr_sorted++;
			s->type->ops.insert(&s->q, rq, 0, 0);
			rq = ky_rq(s, 50000 + 16 * i + 100000 * h, 8, IOS_WRITE, 0, h, h, 0);
			s->q.nr_sorted++;
			s->type->ops.insert(&s->q, rq, 0, 0);
		}
	/* hctx 0 finishes its reads and moves to WRITE */
	ky_order(s, 0, 3, got);
	T_ASSERT_MSG(!strcmp(got, "RRW"), "hctx 0: %s", got);
	/* hctx 1 still starts at READ */
	ky_order(s, 1, 4, got);
	T_ASSERT_MSG(!strcmp(got, "RRWW"), "hctx 1: %s", got);
	ky_order(s, 0, 4, got);
	T_ASSERT_MSG(!strcmp(got, "W"), "hctx 0: %s", got);
	T_ASSERT(!s->type->ops.has_work(&s->q));
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_batch_sizes, test_round_robin, test_batch_continues, test_ioprio_ignored,
		     test_per_hctx_round);
}
