/*
 * Description: the anticipatory scheduler's registration, tunables, merges
 * and odd paths. "as" and "anticipatory" name it; the five sysfs tunables
 * default to 125/250/500/125/6 ms and reject out-of-range or malformed
 * values. Through the real block layer: two requests made contiguous by a
 * bio merge into one that keeps the earlier FIFO deadline, a bio merges at
 * a request's front through AS's sector tree, and the anticipation timer
 * reaches the host as a timer that, fired, dispatches the held request. A
 * same-sector request (alias) sends the older one to dispatch at once;
 * sync_class decides which tree a sync write joins; a requeued request goes
 * out first even while AS waits; a forced dispatch drains reads, then
 * writes.
 */
#include <errno.h>
#include <string.h>
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)
#define US ((uint64_t)IOS_NSEC_PER_USEC)

static int64_t stat_of(const struct ios_sched_type *t, void *data, const char *name)
{
	const struct ios_tunable *row = ios_tunable_find(t->stats, name);

	return row ? ios_tunable_get_int(row, data) : -1;
}

static int test_registry_and_defaults(void)
{
	const struct ios_sched_type *t = ios_sched_find("as");
	static const char *const want[][2] = {
		{ "read_expire", "125" },	{ "write_expire", "250" },
		{ "read_batch_expire", "500" }, { "write_batch_expire", "125" },
		{ "antic_expire", "6" },	{ "sync_class", "dir" },
	};
	struct ios_err e = { 0 };
	void *data;

	T_ASSERT(t);
	T_ASSERT(t == ios_sched_find("anticipatory"));
	T_ASSERT(!strcmp(t->name, "anticipatory"));
	T_ASSERT(t->ops.next_wakeup && t->ops.may_queue && t->ops.exit_icq);
	data = calloc(1, t->priv_size);
	T_ASSERT(data);
	T_ASSERT_EQ(ios_tunable_defaults(t->tunables, data, &e), 0);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(want); i++) {
		const struct ios_tunable *row = ios_tunable_find(t->tunables, want[i][0]);
		char buf[32];

		T_ASSERT_MSG(row, "no tunable %s", want[i][0]);
		T_ASSERT(ios_tunable_show(row, data, buf, sizeof(buf)) >= 0);
		T_ASSERT_MSG(!strcmp(buf, want[i][1]), "%s = %s, want %s", want[i][0], buf,
			     want[i][1]);
	}
	/* stored in ns */
	T_ASSERT_U64_EQ(ios_tunable_get_u64(ios_tunable_find(t->tunables, "antic_expire"), data),
			6 * MS);
	free(data);
	return T_PASS;
}

static int test_tunable_errors(void)
{
	const struct ios_sched_type *t = ios_sched_find("as");
	static const struct {
		const char *name, *value;
		int err;
		const char *in_msg;
	} bad[] = {
		{ "read_expire", "3600001", -ERANGE, "0..3600000" },
		{ "write_expire", "-1", -ERANGE, "write_expire" },
		{ "antic_expire", "2h", -ERANGE, "antic_expire" },
		{ "read_batch_expire", "abc", -EINVAL, "read_batch_expire" },
		{ "sync_class", "rw", -EINVAL, "dir|sync" },
		{ "est_new_seek", "1", -ENOENT, "est_new_seek" },
	};
	void *data = calloc(1, t->priv_size);

	T_ASSERT(data);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(bad); i++) {
		struct ios_err e = { 0 };
		int ret = ios_tunable_set_by_name(t->tunables, data, bad[i].name, bad[i].value,
						  "test", "", &e);

		T_ASSERT_MSG(ret == bad[i].err, "%s=%s: %d (%s)", bad[i].name, bad[i].value, ret,
			     e.msg);
		T_ASSERT_MSG(strstr(e.msg, bad[i].in_msg), "%s=%s: message '%s'", bad[i].name,
			     bad[i].value, e.msg);
	}
	free(data);
	/* and a queue refuses to build with one */
	T_ASSERT(t_rig_new("as", 1, 1, "antic_expire=3600001", NULL) == NULL);
	return T_PASS;
}

static int test_merges_and_timer_through_block_layer(void)
{
	struct t_rig *r = t_rig_new("as", 1, 1, NULL);
	struct ios_request *y;

	T_ASSERT(r);
	/* A occupies the one tag */
	t_submit(r, t_ioc(1), 1000000, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->nr_issued, 1);
	/* X (earlier) and Y queue behind it, Y just before X on the disk */
	t_submit(r, t_ioc(2), 2016, 8, IOS_READ, 0, 100 * US, NULL);
	t_submit(r, t_ioc(3), 2000, 8, IOS_READ, 0, 1 * MS, NULL);
	/*
	 * A bio fills the gap: it joins X at the front (X is the block
	 * layer's one-hit merge cache), and Y then absorbs X.
	 */
	t_submit(r, t_ioc(3), 2008, 8, IOS_READ, 0, 2 * MS, NULL);
	T_ASSERT_EQ(r->q->nr_rq_merges, 1);
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	/* a bio ending where Y starts merges at its front: Y is re-sorted */
	t_submit(r, t_ioc(3), 1992, 8, IOS_READ, 0, 2500 * US, NULL);
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	T_ASSERT_EQ(stat_of(r->q->sched, r->q->sched_data, "front_merged"), 2);
	/* A completes: Y is far from A, so AS waits for process 1 and asks for a timer */
	t_complete(r, 0, 3 * MS);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_U64_EQ(r->timer_at, 9 * MS);
	t_fire_timer(r, 9 * MS);
	T_ASSERT_EQ(r->nr_issued, 2);
	y = r->issued[1];
	T_ASSERT_U64_EQ(y->sector, 1992);
	T_ASSERT_EQ(y->nr_sectors, 32);
	/* Y kept X's earlier deadline: X arrived at 0.1 ms */
	T_ASSERT_U64_EQ(y->fifo_time_ns, 100 * US + 125 * MS);
	t_complete(r, 1, 10 * MS);
	T_ASSERT_EQ(r->nr_done, 5);
	t_rig_free(r);
	return T_PASS;
}

/* The front-merge lookup: a queued request of the bio's class starting where it ends. */
static int test_bio_merge_lookup(void)
{
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	struct ios_request *r, *w, *got = NULL;
	struct ios_bio bio = { .sector = 992, .nr_sectors = 8, .dir = IOS_READ };

	T_ASSERT(s);
	r = t_sq_insert(s, 1000, 8, IOS_READ, 0);
	w = t_sq_insert(s, 3000, 8, IOS_WRITE, 0);
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &got), IOS_FRONT_MERGE);
	T_ASSERT(got == r);
	bio.sector = 2992;
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &got), IOS_NO_MERGE);
	bio.dir = IOS_WRITE;
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &got), IOS_FRONT_MERGE);
	T_ASSERT(got == w);
	bio.sector = 2990;
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &got), IOS_NO_MERGE);
	t_sq_free(s);
	return T_PASS;
}

static int test_alias(void)
{
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	struct ios_request *r1, *r2, *far;

	T_ASSERT(s);
	s->ioc = t_ioc(9);
	far = t_sq_insert(s, 90000000, 8, IOS_READ, 0);
	s->ioc = t_ioc(1);
	r1 = t_sq_insert(s, 5000, 8, IOS_READ, 1 * US);
	s->ioc = t_ioc(2);
	/* same start sector: r1 leaves for the device at once */
	r2 = t_sq_insert(s, 5000, 8, IOS_READ, 2 * US);
	T_ASSERT_EQ(stat_of(s->type, s->q.sched_data, "aliases"), 1);
	T_ASSERT_EQ(stat_of(s->type, s->q.sched_data, "sync_queued"), 2);
	T_ASSERT(t_sq_dispatch(s, 3 * US) == r1);
	t_sq_complete(s, r1, 1 * MS);
	/* r2 sits right behind the head: next, before the far request queued first */
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == r2);
	t_sq_complete(s, r2, 2 * MS);
	(void)far;
	t_sq_free(s);
	return T_PASS;
}

static int test_sync_class_trees(void)
{
	static const struct {
		const char *mode;
		int sync_q, async_q;
	} cases[] = {
		{ "sync_class=dir", 1, 2 },
		{ "sync_class=sync", 2, 1 },
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		struct t_sq *s = t_sq_new("as", 1, 1, cases[i].mode, NULL);
		struct ios_request *rq;

		T_ASSERT(s);
		t_sq_insert(s, 1000, 8, IOS_READ, 0);
		t_sq_insert(s, 3000, 8, IOS_WRITE, 0);	/* buffered write-back */
		rq = t_sq_rq(s, 5000, 8, IOS_WRITE, IOS_REQ_SYNC);	/* O_DIRECT */
		s->q.nr_sorted++;
		s->type->ops.insert(&s->q, rq, 0, 0);
		T_ASSERT_EQ(stat_of(s->type, s->q.sched_data, "sync_queued"), cases[i].sync_q);
		T_ASSERT_EQ(stat_of(s->type, s->q.sched_data, "async_queued"), cases[i].async_q);
		t_sq_free(s);
	}
	return T_PASS;
}

static int test_requeue_and_force(void)
{
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	struct ios_request *a, *b, *w, *rq;

	T_ASSERT(s);
	s->ioc = t_ioc(1);
	a = t_sq_insert(s, 1000, 8, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == a);
	/* the device hands it back: it goes out again first */
	s->q.rq_in_driver--;
	s->q.in_flight[1]--;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, a, 100 * US, IOS_INSERT_REQUEUE);
	s->ioc = t_ioc(2);
	b = t_sq_insert(s, 80000000, 8, IOS_READ, 200 * US);
	w = t_sq_insert(s, 1016, 8, IOS_WRITE, 200 * US);
	T_ASSERT(t_sq_dispatch(s, 300 * US) == a);
	t_sq_complete(s, a, 1 * MS);
	/* now AS waits for process 1 ... */
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	/* ... unless told to drain: reads first, then writes */
	rq = s->type->ops.dispatch(&s->q, 1 * MS, IOS_DISPATCH_FORCE);
	T_ASSERT(rq == b);
	rq = s->type->ops.dispatch(&s->q, 1 * MS, IOS_DISPATCH_FORCE);
	T_ASSERT(rq == w);
	T_ASSERT(!s->type->ops.has_work(&s->q));
	T_ASSERT(s->type->ops.dispatch(&s->q, 1 * MS, IOS_DISPATCH_FORCE) == NULL);
	s->q.nr_sorted -= 2;
	s->q.rq_in_driver += 2;
	s->q.in_flight[1]++;
	s->q.in_flight[0]++;
	t_sq_complete(s, b, 2 * MS);
	t_sq_complete(s, w, 3 * MS);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_registry_and_defaults, test_tunable_errors,
		     test_merges_and_timer_through_block_layer, test_bio_merge_lookup, test_alias,
		     test_sync_class_trees, test_requeue_and_force);
}
