/*
 * Description: noop is a FIFO with merging. Called directly, it hands
 * requests out in arrival order whatever their sectors, puts front
 * insertions first, names FIFO (not sector) neighbours as former/latter and
 * forgets a request merged into another. Through the block layer, adjacent
 * bios build one request, and a bio that makes two FIFO-neighbouring
 * requests contiguous collapses them, while requests that are only sector
 * neighbours stay apart, as with the 2.6 noop elevator.
 */
#include <string.h>
#include "harness.h"

static int test_arrival_order(void)
{
	static const uint64_t sectors[] = { 500, 100, 300, 200, 100, 900 };
	struct t_sq *s = t_sq_new("noop", 1, true, NULL);
	struct ios_request *rq;

	T_ASSERT(s);
	T_ASSERT(!s->type->ops.has_work(&s->q));
	for (size_t i = 0; i < IOS_ARRAY_SIZE(sectors); i++)
		t_sq_insert(s, sectors[i], 8, i % 2 ? IOS_WRITE : IOS_READ, i * IOS_NSEC_PER_MSEC);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(sectors); i++) {
		T_ASSERT(s->type->ops.has_work(&s->q));
		rq = t_sq_dispatch(s, 100 * IOS_NSEC_PER_MSEC);
		T_ASSERT(rq);
		T_ASSERT_EQ(rq->id, i);
		T_ASSERT_U64_EQ(rq->sector, sectors[i]);
		t_sq_complete(s, rq, 101 * IOS_NSEC_PER_MSEC);
	}
	T_ASSERT(!s->type->ops.has_work(&s->q));
	T_ASSERT(t_sq_dispatch(s, 200 * IOS_NSEC_PER_MSEC) == NULL);
	t_sq_free(s);
	return T_PASS;
}

static int test_front_insert(void)
{
	struct t_sq *s = t_sq_new("noop", 1, true, NULL);
	struct ios_request *a, *b, *c;

	T_ASSERT(s);
	a = t_sq_insert(s, 10, 8, IOS_READ, 0);
	b = t_sq_insert(s, 20, 8, IOS_READ, 0);
	c = t_sq_rq(s, 30, 8, IOS_READ, 0);
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, c, 1, IOS_INSERT_FRONT);
	T_ASSERT(t_sq_dispatch(s, 2) == c);
	T_ASSERT(t_sq_dispatch(s, 2) == a);
	T_ASSERT(t_sq_dispatch(s, 2) == b);
	t_sq_complete(s, a, 3);
	t_sq_complete(s, b, 3);
	t_sq_complete(s, c, 3);
	t_sq_free(s);
	return T_PASS;
}

static int test_neighbours_are_fifo_neighbours(void)
{
	struct t_sq *s = t_sq_new("noop", 1, true, NULL);
	const struct ios_sched_ops *o;
	struct ios_request *a, *b, *c;

	T_ASSERT(s);
	o = &s->type->ops;
	a = t_sq_insert(s, 300, 8, IOS_READ, 0);
	b = t_sq_insert(s, 100, 8, IOS_READ, 1);
	c = t_sq_insert(s, 200, 8, IOS_READ, 2);
	T_ASSERT(o->former(&s->q, a) == NULL);
	T_ASSERT(o->latter(&s->q, a) == b);
	T_ASSERT(o->former(&s->q, b) == a);
	T_ASSERT(o->latter(&s->q, b) == c);
	T_ASSERT(o->former(&s->q, c) == b);
	T_ASSERT(o->latter(&s->q, c) == NULL);
	t_sq_free(s);
	return T_PASS;
}

static int test_requests_merged_drops_next(void)
{
	struct t_sq *s = t_sq_new("noop", 1, true, NULL);
	const struct ios_tunable *queued;
	struct ios_request *a, *b, *c;
	char buf[32];

	T_ASSERT(s);
	queued = ios_tunable_find(s->type->stats, "queued");
	T_ASSERT(queued && (queued->flags & IOS_TUN_RO));
	a = t_sq_insert(s, 0, 8, IOS_READ, 0);
	b = t_sq_insert(s, 8, 8, IOS_READ, 1);
	c = t_sq_insert(s, 100, 8, IOS_READ, 2);
	ios_tunable_show(queued, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "3"));
	/* the block layer grew a by b's sectors, then tells the scheduler */
	a->nr_sectors += b->nr_sectors;
	s->type->ops.requests_merged(&s->q, a, b);
	s->q.nr_sorted--;
	ios_tunable_show(queued, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "2"));
	T_ASSERT(s->type->ops.latter(&s->q, a) == c);
	T_ASSERT(t_sq_dispatch(s, 3) == a);
	T_ASSERT(t_sq_dispatch(s, 3) == c);
	T_ASSERT(t_sq_dispatch(s, 3) == NULL);
	T_ASSERT(!s->type->ops.has_work(&s->q));
	t_sq_complete(s, a, 4);
	t_sq_complete(s, c, 4);
	t_sq_free(s);
	return T_PASS;
}

/* ---- through the block layer ---- */

#define BLOCKER 1000000ULL	/* a far request that keeps the one device tag busy */

static int test_rig_adjacent_bios_merge(void)
{
	struct t_rig *r = t_rig_new("noop", 1, true, NULL);
	struct ios_ioc *ioc = t_ioc(1);
	struct ios_request *rq;

	T_ASSERT(r);
	t_submit(r, ioc, BLOCKER, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->nr_issued, 1);
	for (uint64_t i = 0; i < 4; i++)
		t_submit(r, ioc, 8 * i, 8, IOS_READ, 0, 1 + i, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	t_complete_next(r, 10);
	T_ASSERT_EQ(r->nr_issued, 2);
	rq = r->issued[1];
	T_ASSERT_U64_EQ(rq->sector, 0);
	T_ASSERT_EQ(rq->nr_sectors, 32);
	T_ASSERT_EQ(rq->nr_bios, 4);
	t_complete_next(r, 11);
	T_ASSERT_EQ(r->nr_done, 5);
	T_ASSERT_EQ(r->nr_issued, 2);
	t_rig_free(r);
	return T_PASS;
}

static int test_rig_contiguous_requests_collapse(void)
{
	struct t_rig *r = t_rig_new("noop", 1, true, NULL);
	struct ios_ioc *ioc = t_ioc(1);
	struct ios_request *rq;

	T_ASSERT(r);
	t_submit(r, ioc, BLOCKER, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, ioc, 0, 8, IOS_READ, 0, 1, NULL);	/* A */
	t_submit(r, ioc, 16, 8, IOS_READ, 0, 2, NULL);	/* B, FIFO neighbour of A */
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	t_submit(r, ioc, 8, 8, IOS_READ, 0, 3, NULL);	/* fills the gap */
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	T_ASSERT_EQ(r->q->nr_rq_merges, 1);
	t_complete_next(r, 10);
	rq = r->issued[1];
	T_ASSERT_U64_EQ(rq->sector, 0);
	T_ASSERT_EQ(rq->nr_sectors, 24);
	T_ASSERT_EQ(rq->nr_bios, 3);
	t_complete_next(r, 11);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(r->nr_done, 4);
	t_rig_free(r);
	return T_PASS;
}

/*
 * A and B become contiguous, but a request that arrived between them is
 * A's FIFO neighbour: noop's latter() does not name B, so they stay two
 * requests (deadline, whose neighbours are sector neighbours, would merge).
 */
static int test_rig_no_collapse_across_fifo(void)
{
	static const uint64_t want[][2] = { { 0, 16 }, { 5000, 8 }, { 16, 8 } };
	struct t_rig *r = t_rig_new("noop", 1, true, NULL);
	struct ios_ioc *ioc = t_ioc(1);

	T_ASSERT(r);
	t_submit(r, ioc, BLOCKER, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, ioc, 0, 8, IOS_READ, 0, 1, NULL);		/* A */
	t_submit(r, ioc, 5000, 8, IOS_READ, 0, 2, NULL);	/* X */
	t_submit(r, ioc, 16, 8, IOS_READ, 0, 3, NULL);		/* B */
	t_submit(r, ioc, 8, 8, IOS_READ, 0, 4, NULL);		/* back merge into A */
	T_ASSERT_EQ(r->q->nr_sorted, 3);
	T_ASSERT_EQ(r->q->nr_rq_merges, 0);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(want); i++) {
		struct ios_request *rq;

		t_complete_next(r, 10 + i);
		T_ASSERT_EQ(r->nr_issued, i + 2);
		rq = r->issued[i + 1];
		T_ASSERT_U64_EQ(rq->sector, want[i][0]);
		T_ASSERT_EQ(rq->nr_sectors, want[i][1]);
	}
	t_rig_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_arrival_order, test_front_insert, test_neighbours_are_fifo_neighbours,
		     test_requests_merged_drops_next, test_rig_adjacent_bios_merge,
		     test_rig_contiguous_requests_collapse, test_rig_no_collapse_across_fifo);
}
