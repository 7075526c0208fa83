/*
 * Description: deadline's part in merging. Called directly: the front-merge
 * lookup finds the request of the bio's direction starting where the bio
 * ends, only with front_merges=1; a front merge re-sorts the grown request
 * (and sends out, as an alias, a request whose start it lands on); when two
 * requests merge the survivor takes the absorbed one's earlier
 * deadline and FIFO slot, and a sector walk about to visit the absorbed
 * request moves on. Through the block layer: a front merge happens or not
 * according to front_merges, sector neighbours collapse, and a collapse
 * carries the older deadline into the next dispatch decision.
 */
#include <string.h>
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)

static struct ios_bio mkbio(uint64_t sector, uint32_t nr, int dir)
{
	struct ios_bio b;

	memset(&b, 0, sizeof(b));
	b.sector = sector;
	b.nr_sectors = nr;
	b.dir = (uint8_t)dir;
	b.ioc = t_ioc(1);
	return b;
}

static int test_front_merge_lookup(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	struct ios_request *rq, *found;
	struct ios_bio b;

	T_ASSERT(s);
	rq = t_sq_insert(s, 100, 8, IOS_READ, 0);
	t_sq_insert(s, 300, 8, IOS_WRITE, 0);

	b = mkbio(92, 8, IOS_READ);
	found = NULL;
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &b, &found), IOS_FRONT_MERGE);
	T_ASSERT(found == rq);

	b = mkbio(90, 8, IOS_READ);	/* ends at 98: not adjacent */
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &b, &found), IOS_NO_MERGE);
	b = mkbio(108, 8, IOS_READ);	/* a back merge is the block layer's */
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &b, &found), IOS_NO_MERGE);
	b = mkbio(92, 8, IOS_WRITE);	/* other direction */
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &b, &found), IOS_NO_MERGE);
	b = mkbio(292, 8, IOS_WRITE);
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &b, &found), IOS_FRONT_MERGE);
	T_ASSERT(found && found->sector == 300 && found->dir == IOS_WRITE);
	t_sq_free(s);

	s = t_sq_new("deadline", 1, true, "front_merges=0", NULL);
	T_ASSERT(s);
	t_sq_insert(s, 100, 8, IOS_READ, 0);
	b = mkbio(92, 8, IOS_READ);
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &b, &found), IOS_NO_MERGE);
	t_sq_free(s);
	return T_PASS;
}

/*
 * A front merge can move a request's start below a neighbour's (here the
 * bio overlaps B). request_merged must re-sort it or the walk and the
 * front-merge lookup go wrong.
 */
static int test_front_merge_resorts(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	struct ios_request *d, *a, *b, *c, *found = NULL;
	const struct ios_tunable *st;
	struct ios_bio bio;
	char buf[32];

	T_ASSERT(s);
	d = t_sq_insert(s, 50, 8, IOS_READ, 0);
	b = t_sq_insert(s, 92, 2, IOS_READ, 0);
	c = t_sq_insert(s, 95, 1, IOS_READ, 0);
	a = t_sq_insert(s, 100, 8, IOS_READ, 0);
	/* the block layer front-merges the bio 90..100 into a */
	a->sector = 90;
	a->nr_sectors += 10;
	s->type->ops.request_merged(&s->q, a, IOS_FRONT_MERGE);
	st = ios_tunable_find(s->type->stats, "front_merged");
	T_ASSERT(st);
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "1"));

	bio = mkbio(80, 10, IOS_READ);
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &found), IOS_FRONT_MERGE);
	T_ASSERT(found == a);
	T_ASSERT(s->type->ops.former(&s->q, a) == d);
	T_ASSERT(s->type->ops.latter(&s->q, a) == b);

	/* a back merge does not move the key: nothing to do */
	b->nr_sectors += 1;
	s->type->ops.request_merged(&s->q, b, IOS_BACK_MERGE);
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "1"));

	T_ASSERT(t_sq_dispatch(s, 1) == d);	/* FIFO head */
	T_ASSERT(t_sq_dispatch(s, 1) == a);	/* then sector order */
	T_ASSERT(t_sq_dispatch(s, 1) == b);
	T_ASSERT(t_sq_dispatch(s, 1) == c);
	t_sq_free(s);
	return T_PASS;
}

/* A front merge that moves a request onto another's start sector is an alias too. */
static int test_front_merge_alias(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	struct ios_request *a, *b, *c;
	const struct ios_tunable *st;
	char buf[32];

	T_ASSERT(s);
	c = t_sq_insert(s, 50, 8, IOS_READ, 0);
	b = t_sq_insert(s, 92, 2, IOS_READ, 0);
	a = t_sq_insert(s, 100, 8, IOS_READ, 0);
	a->sector = 92;
	a->nr_sectors += 8;
	s->type->ops.request_merged(&s->q, a, IOS_FRONT_MERGE);
	st = ios_tunable_find(s->type->stats, "aliases");
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "1"));
	T_ASSERT(s->type->ops.former(&s->q, a) == c);
	T_ASSERT(t_sq_dispatch(s, 1) == b);	/* out of turn */
	T_ASSERT(t_sq_dispatch(s, 1) == c);	/* walk ran off: FIFO head */
	T_ASSERT(t_sq_dispatch(s, 1) == a);
	t_sq_free(s);
	return T_PASS;
}

/*
 * rq (100..108, inserted at 200 ms) absorbs next (108..116, inserted at 0):
 * it takes next's deadline and FIFO slot, ahead of c (sector 50, 100 ms).
 * At 600 ms both rq and c are past their deadlines; the batch starts at
 * the FIFO head, which must now be rq.
 */
static int test_requests_merged_inherits_deadline(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	struct ios_request *rq, *next, *c;

	T_ASSERT(s);
	next = t_sq_insert(s, 108, 8, IOS_READ, 0);
	c = t_sq_insert(s, 50, 8, IOS_READ, 100 * MS);
	rq = t_sq_insert(s, 100, 8, IOS_READ, 200 * MS);
	T_ASSERT_U64_EQ(rq->fifo_time_ns, 700 * MS);
	rq->nr_sectors += next->nr_sectors;
	s->type->ops.requests_merged(&s->q, rq, next);
	s->q.nr_sorted--;
	T_ASSERT_U64_EQ(rq->fifo_time_ns, 500 * MS);
	T_ASSERT(s->type->ops.latter(&s->q, rq) == NULL);
	T_ASSERT(s->type->ops.former(&s->q, rq) == c);
	T_ASSERT(t_sq_dispatch(s, 700 * MS) == rq);
	T_ASSERT(t_sq_dispatch(s, 700 * MS) == c);
	T_ASSERT(t_sq_dispatch(s, 700 * MS) == NULL);
	t_sq_free(s);
	return T_PASS;
}

/* The absorbed request is younger: the survivor keeps its own deadline and slot. */
static int test_requests_merged_keeps_earlier_own(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	struct ios_request *rq, *next, *c;

	T_ASSERT(s);
	rq = t_sq_insert(s, 100, 8, IOS_READ, 0);
	c = t_sq_insert(s, 50, 8, IOS_READ, 100 * MS);
	next = t_sq_insert(s, 108, 8, IOS_READ, 200 * MS);
	rq->nr_sectors += next->nr_sectors;
	s->type->ops.requests_merged(&s->q, rq, next);
	s->q.nr_sorted--;
	T_ASSERT_U64_EQ(rq->fifo_time_ns, 500 * MS);
	T_ASSERT(t_sq_dispatch(s, 700 * MS) == rq);
	T_ASSERT(t_sq_dispatch(s, 700 * MS) == c);
	t_sq_free(s);
	return T_PASS;
}

/* The walk was to visit the absorbed request next: it moves on past it. */
static int test_requests_merged_moves_walk(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	struct ios_request *a, *n, *z, *m;

	T_ASSERT(s);
	a = t_sq_insert(s, 100, 8, IOS_READ, 0);
	n = t_sq_insert(s, 200, 8, IOS_READ, 0);
	z = t_sq_insert(s, 300, 8, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 1) == a);	/* the walk now points at n */
	m = t_sq_insert(s, 192, 8, IOS_READ, 2);
	m->nr_sectors += n->nr_sectors;
	s->type->ops.requests_merged(&s->q, m, n);
	s->q.nr_sorted--;
	T_ASSERT(t_sq_dispatch(s, 3) == z);	/* batch goes on above n */
	T_ASSERT(t_sq_dispatch(s, 3) == m);	/* then the FIFO head */
	T_ASSERT(t_sq_dispatch(s, 3) == NULL);
	t_sq_complete(s, a, 4);
	t_sq_complete(s, z, 4);
	t_sq_complete(s, m, 4);
	t_sq_free(s);
	return T_PASS;
}

/* Requeued requests go out first and stay out of merging. */
static int test_front_insert(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	struct ios_request *a, *b, *r, *found = NULL;
	struct ios_bio bio;

	T_ASSERT(s);
	a = t_sq_insert(s, 100, 8, IOS_READ, 0);
	b = t_sq_insert(s, 200, 8, IOS_READ, 0);
	r = t_sq_rq(s, 300, 8, IOS_READ, 0);
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, r, 1, IOS_INSERT_FRONT | IOS_INSERT_REQUEUE);
	T_ASSERT(s->type->ops.has_work(&s->q));
	bio = mkbio(292, 8, IOS_READ);
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &found), IOS_NO_MERGE);
	T_ASSERT(s->type->ops.former(&s->q, r) == NULL);
	T_ASSERT(s->type->ops.latter(&s->q, r) == NULL);
	T_ASSERT(t_sq_dispatch(s, 2) == r);
	T_ASSERT(t_sq_dispatch(s, 2) == a);
	T_ASSERT(t_sq_dispatch(s, 2) == b);
	t_sq_free(s);
	return T_PASS;
}

/* ---- through the block layer ---- */

#define BLOCKER 1000000ULL

/*
 * R at 100; then X at 5000 grows by a back merge so the one-hit cache
 * points at X; then a bio ending at 100 can only merge through deadline's
 * own front-merge lookup.
 */
static int rig_front_merge(const char *setting, unsigned *nr_requests)
{
	struct t_rig *r = t_rig_new("deadline", 1, true, setting, NULL);
	struct ios_ioc *ioc = t_ioc(1);

	T_ASSERT(r);
	t_submit(r, ioc, BLOCKER, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, ioc, 100, 8, IOS_READ, 0, 1, NULL);
	t_submit(r, ioc, 5000, 8, IOS_READ, 0, 2, NULL);
	t_submit(r, ioc, 5008, 8, IOS_READ, 0, 3, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	t_submit(r, ioc, 92, 8, IOS_READ, 0, 4, NULL);
	*nr_requests = r->q->nr_sorted;
	t_rig_free(r);
	return T_PASS;
}

static int test_rig_front_merges_switch(void)
{
	unsigned on = 0, off = 0;

	T_ASSERT_EQ(rig_front_merge("front_merges=1", &on), T_PASS);
	T_ASSERT_EQ(rig_front_merge("front_merges=0", &off), T_PASS);
	T_ASSERT_EQ(on, 2);
	T_ASSERT_EQ(off, 3);
	return T_PASS;
}

/*
 * Sector neighbours collapse even with another request between them in
 * arrival order (noop would keep them apart), and the survivor inherits
 * the absorbed request's older deadline: the next batch starts at it and
 * not at c, which arrived in between.
 */
static int test_rig_collapse_inherits_deadline(void)
{
	struct t_rig *r = t_rig_new("deadline", 1, true, "read_expire=250", NULL);
	struct ios_ioc *ioc = t_ioc(1);
	struct ios_request *rq;

	T_ASSERT(r);
	t_submit(r, ioc, BLOCKER, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, ioc, 116, 8, IOS_READ, 0, 0, NULL);		/* N, deadline 250 ms */
	t_submit(r, ioc, 50, 8, IOS_READ, 0, 100 * MS, NULL);	/* C, deadline 350 ms */
	t_submit(r, ioc, 100, 8, IOS_READ, 0, 200 * MS, NULL);	/* A, deadline 450 ms */
	T_ASSERT_EQ(r->q->nr_sorted, 3);
	t_submit(r, ioc, 108, 8, IOS_READ, 0, 300 * MS, NULL);	/* joins A and N */
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	T_ASSERT_EQ(r->q->nr_rq_merges, 1);

	t_complete_next(r, 400 * MS);
	T_ASSERT_EQ(r->nr_issued, 2);
	rq = r->issued[1];
	T_ASSERT_U64_EQ(rq->sector, 100);
	T_ASSERT_EQ(rq->nr_sectors, 24);
	T_ASSERT_EQ(rq->nr_bios, 3);
	T_ASSERT_U64_EQ(rq->fifo_time_ns, 250 * MS);
	t_complete_next(r, 401 * MS);
	T_ASSERT_EQ(r->nr_issued, 3);
	T_ASSERT_U64_EQ(r->issued[2]->sector, 50);
	t_rig_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_front_merge_lookup, test_front_merge_resorts, test_front_merge_alias,
		     test_requests_merged_inherits_deadline, test_requests_merged_keeps_earlier_own,
		     test_requests_merged_moves_walk, test_front_insert,
		     test_rig_front_merges_switch, test_rig_collapse_inherits_deadline);
}
