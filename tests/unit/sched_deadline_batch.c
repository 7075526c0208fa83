/*
 * Description: deadline's dispatch order, driven directly with a fake
 * clock. Each case is a trace of inserts and dispatches with the sector
 * every dispatch must return: a batch walks the sector tree upwards from
 * the FIFO head or from where the last batch stopped, is at most fifo_batch
 * long, is not interrupted by an expiry, and the next batch starts at an
 * expired FIFO head; reads are preferred and writes get a batch after
 * writes_starved read batches that found them waiting; a newcomer at the
 * sector of a queued request of its direction sends that one out at once
 * (the 2.6.31 alias rule).
 */
#include <string.h>
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)

/*
 * 'R'/'W': insert a read/write at @sector at @t_ms.
 * 'D': dispatch at @t_ms, expect @sector (the request completes at once).
 * 'N': dispatch at @t_ms, expect nothing.
 */
struct step {
	char op;
	uint64_t t_ms;
	uint64_t sector;
};

struct trace_case {
	const char *name;
	const char *set[3];	/* "name=value" settings, NULL-padded */
	struct step steps[48];	/* ends at op 0 */
};

static const struct trace_case cases[] = {
	{ "first batch starts at the FIFO head, then sector order", { NULL },
	  { { 'R', 0, 500 }, { 'R', 0, 100 }, { 'R', 0, 300 }, { 'R', 0, 200 },
	    { 'D', 1, 500 },	/* no walk yet: the oldest */
	    { 'D', 1, 100 },	/* walk ran off the end: the oldest again */
	    { 'D', 1, 200 }, { 'D', 1, 300 }, { 'N', 1, 0 } } },
	{ "a new request behind the walk waits for the next batch", { NULL },
	  { { 'R', 0, 100 }, { 'R', 0, 200 }, { 'R', 0, 300 },
	    { 'D', 1, 100 }, { 'R', 2, 50 }, { 'R', 2, 250 },
	    { 'D', 3, 200 }, { 'D', 3, 250 }, { 'D', 3, 300 }, { 'D', 3, 50 }, { 'N', 3, 0 } } },
	{ "batch of fifo_batch, then an expired head is served first",
	  { "fifo_batch=3", "read_expire=10", NULL },
	  { { 'R', 0, 100 }, { 'R', 0, 800 },
	    { 'R', 2, 200 }, { 'R', 2, 300 }, { 'R', 2, 400 }, { 'R', 2, 500 },
	    { 'R', 2, 600 }, { 'R', 2, 700 },
	    { 'D', 2, 100 }, { 'D', 2, 200 }, { 'D', 2, 300 },	/* batch 1 */
	    { 'D', 20, 800 },	/* 800 expired at 10 ms: new batch starts there */
	    { 'D', 20, 400 },	/* nothing above 800: FIFO head */
	    { 'D', 20, 500 }, { 'D', 20, 600 }, { 'D', 20, 700 }, { 'N', 20, 0 } } },
	{ "same trace without expiry: the walk carries on",
	  { "fifo_batch=3", "read_expire=10", NULL },
	  { { 'R', 0, 100 }, { 'R', 0, 800 },
	    { 'R', 2, 200 }, { 'R', 2, 300 }, { 'R', 2, 400 }, { 'R', 2, 500 },
	    { 'R', 2, 600 }, { 'R', 2, 700 },
	    { 'D', 2, 100 }, { 'D', 2, 200 }, { 'D', 2, 300 },
	    { 'D', 5, 400 }, { 'D', 5, 500 }, { 'D', 5, 600 },
	    { 'D', 5, 700 }, { 'D', 5, 800 }, { 'N', 5, 0 } } },
	{ "an expiry inside a batch does not cut it short",
	  { "fifo_batch=3", "read_expire=10", NULL },
	  { { 'R', 0, 100 }, { 'R', 0, 800 },
	    { 'R', 2, 200 }, { 'R', 2, 300 }, { 'R', 2, 400 },
	    { 'D', 2, 100 },
	    { 'D', 20, 200 }, { 'D', 20, 300 },	/* 800 expired, batch goes on */
	    { 'D', 20, 800 }, { 'D', 20, 400 }, { 'N', 20, 0 } } },
	{ "a deadline is passed only strictly after it", { "fifo_batch=1", "read_expire=10", NULL },
	  { { 'R', 0, 900 }, { 'R', 1, 100 }, { 'R', 1, 950 },
	    { 'D', 1, 900 },
	    { 'D', 11, 950 },	/* 100's deadline is 11 ms: not passed yet */
	    { 'D', 11, 100 }, { 'N', 11, 0 } } },
	{ "fifo_batch=1 still walks the tree while nothing has expired", { "fifo_batch=1", NULL },
	  { { 'R', 0, 500 }, { 'R', 1, 100 }, { 'R', 2, 300 }, { 'R', 3, 200 },
	    { 'D', 4, 500 }, { 'D', 4, 100 }, { 'D', 4, 200 }, { 'D', 4, 300 }, { 'N', 4, 0 } } },
	{ "fifo_batch=1 with every deadline passed is FCFS", { "fifo_batch=1", "read_expire=0", NULL },
	  { { 'R', 0, 500 }, { 'R', 1, 100 }, { 'R', 2, 300 }, { 'R', 3, 200 },
	    { 'D', 4, 500 }, { 'D', 4, 100 }, { 'D', 4, 300 }, { 'D', 4, 200 }, { 'N', 4, 0 } } },
	{ "fifo_batch=0 behaves as 1", { "fifo_batch=0", "read_expire=0", NULL },
	  { { 'R', 0, 500 }, { 'R', 1, 100 }, { 'R', 2, 300 }, { 'R', 3, 200 },
	    { 'D', 4, 500 }, { 'D', 4, 100 }, { 'D', 4, 300 }, { 'D', 4, 200 }, { 'N', 4, 0 } } },
	{ "fifo_batch=2 with every deadline passed: pairs from the FIFO head",
	  { "fifo_batch=2", "read_expire=0", NULL },
	  { { 'R', 0, 500 }, { 'R', 1, 100 }, { 'R', 2, 300 }, { 'R', 3, 200 }, { 'R', 3, 600 },
	    { 'D', 4, 500 }, { 'D', 4, 600 }, { 'D', 4, 100 }, { 'D', 4, 200 },
	    { 'D', 4, 300 }, { 'N', 4, 0 } } },
	{ "reads are preferred over older, lower writes", { NULL },
	  { { 'W', 0, 100 }, { 'W', 0, 200 }, { 'R', 1, 500 }, { 'R', 1, 600 },
	    { 'D', 2, 500 }, { 'D', 2, 600 }, { 'D', 2, 100 }, { 'D', 2, 200 }, { 'N', 2, 0 } } },
	{ "a batch is one direction: the write walk stops at reads",
	  { "writes_starved=0", NULL },
	  { { 'W', 0, 100 }, { 'R', 0, 150 }, { 'W', 0, 200 }, { 'R', 0, 250 },
	    { 'D', 1, 100 }, { 'D', 1, 200 },	/* writes_starved=0: writes first */
	    { 'D', 1, 150 }, { 'D', 1, 250 }, { 'N', 1, 0 } } },
	{ "only batch starts that find writes waiting count as starving them",
	  { "writes_starved=1", "fifo_batch=2", NULL },
	  { { 'R', 0, 10 }, { 'R', 0, 20 }, { 'R', 0, 30 }, { 'R', 0, 40 }, { 'R', 0, 50 },
	    { 'R', 0, 60 },
	    { 'D', 1, 10 }, { 'D', 1, 20 },	/* no writes yet: not counted */
	    { 'W', 2, 5 },
	    { 'D', 3, 30 }, { 'D', 3, 40 },	/* starved = 1 */
	    { 'D', 3, 5 },			/* 1 >= writes_starved */
	    { 'D', 3, 50 }, { 'D', 3, 60 }, { 'N', 3, 0 } } },
	{ "a same-sector newcomer sends the queued one out, the walk jumps past it",
	  { "fifo_batch=2", "writes_starved=1", NULL },
	  { { 'R', 0, 100 }, { 'R', 0, 200 }, { 'R', 0, 300 }, { 'R', 0, 400 }, { 'W', 0, 50 },
	    { 'D', 1, 100 },		/* read batch (starved = 1), walk at 200 */
	    { 'R', 2, 300 },		/* alias: the old 300 leaves, walk at 400 */
	    { 'D', 3, 300 },		/* outside the batch count... */
	    { 'D', 3, 400 },		/* ...so the read batch still has room */
	    { 'D', 3, 50 },		/* then the starved write */
	    { 'D', 3, 200 }, { 'D', 3, 300 }, { 'N', 3, 0 } } },
	{ "a read and a write at the same sector are no aliases", { NULL },
	  { { 'W', 0, 100 }, { 'R', 0, 100 }, { 'R', 0, 50 },
	    { 'D', 1, 100 }, { 'D', 1, 50 }, { 'D', 1, 100 }, { 'N', 1, 0 } } },
	{ "the write batch starts at the oldest write, not the lowest",
	  { "writes_starved=0", NULL },
	  { { 'W', 0, 300 }, { 'W', 1, 100 }, { 'W', 2, 200 },
	    { 'D', 3, 300 }, { 'D', 3, 100 }, { 'D', 3, 200 }, { 'N', 3, 0 } } },
};

static int run_case(const struct trace_case *c)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, c->set[0], c->set[1], c->set[2], NULL);
	int ret = T_PASS;

	if (!s)
		return T_FAIL;
	for (size_t i = 0; c->steps[i].op; i++) {
		const struct step *st = &c->steps[i];
		struct ios_request *rq;

		switch (st->op) {
		case 'R':
		case 'W':
			t_sq_insert(s, st->sector, 8, st->op == 'R' ? IOS_READ : IOS_WRITE,
				    st->t_ms * MS);
			break;
		case 'D':
			rq = t_sq_dispatch(s, st->t_ms * MS);
			if (!rq || rq->sector != st->sector) {
				t_report(__FILE__, __LINE__, "%s: step %zu: expected %" PRIu64
					 ", got %" PRId64, c->name, i, st->sector,
					 rq ? (int64_t)rq->sector : -1);
				ret = T_FAIL;
				goto out;
			}
			t_sq_complete(s, rq, st->t_ms * MS);
			break;
		case 'N':
			rq = t_sq_dispatch(s, st->t_ms * MS);
			if (rq || s->type->ops.has_work(&s->q)) {
				t_report(__FILE__, __LINE__, "%s: step %zu: expected nothing",
					 c->name, i);
				ret = T_FAIL;
				goto out;
			}
			break;
		}
	}
out:
	t_sq_free(s);
	return ret;
}

static int test_traces(void)
{
	int ret = T_PASS;

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++)
		if (run_case(&cases[i]) != T_PASS)
			ret = T_FAIL;
	return ret;
}

/*
 * With reads and one write queued from the start, the write leaves after
 * exactly writes_starved read batches: position writes_starved * fifo_batch.
 */
static int test_writes_starved_position(void)
{
	static const int conf[][2] = { { 0, 4 }, { 1, 4 }, { 2, 4 }, { 4, 4 }, { 2, 16 }, { 3, 1 } };

	for (size_t c = 0; c < IOS_ARRAY_SIZE(conf); c++) {
		char ws[32], fb[32];
		struct t_sq *s;
		int pos = -1;

		snprintf(ws, sizeof(ws), "writes_starved=%d", conf[c][0]);
		snprintf(fb, sizeof(fb), "fifo_batch=%d", conf[c][1]);
		s = t_sq_new("deadline", 1, true, ws, fb, NULL);
		T_ASSERT(s);
		t_sq_insert(s, 1, 8, IOS_WRITE, 0);
		for (int i = 0; i < 100; i++)
			t_sq_insert(s, 1000 + 8 * (uint64_t)i, 8, IOS_READ, 0);
		for (int i = 0; i < 101; i++) {
			struct ios_request *rq = t_sq_dispatch(s, MS);

			T_ASSERT(rq);
			if (rq->dir == IOS_WRITE)
				pos = i;
			t_sq_complete(s, rq, MS);
		}
		T_ASSERT_MSG(pos == conf[c][0] * conf[c][1],
			     "writes_starved=%d fifo_batch=%d: write at %d, want %d",
			     conf[c][0], conf[c][1], pos, conf[c][0] * conf[c][1]);
		t_sq_free(s);
	}
	return T_PASS;
}

/* The request sent out by an alias is the older one, and it is counted. */
static int test_alias_identity(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	const struct ios_tunable *st;
	struct ios_request *old, *young;
	char buf[32];

	T_ASSERT(s);
	old = t_sq_insert(s, 100, 8, IOS_READ, 0);
	t_sq_insert(s, 500, 8, IOS_READ, 0);
	young = t_sq_insert(s, 100, 16, IOS_READ, 1);
	st = ios_tunable_find(s->type->stats, "aliases");
	T_ASSERT(st);
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "1"));
	st = ios_tunable_find(s->type->stats, "read_queued");
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "2"));
	T_ASSERT(s->type->ops.has_work(&s->q));
	T_ASSERT(t_sq_dispatch(s, 2) == old);
	T_ASSERT(t_sq_dispatch(s, 2)->sector == 500);
	T_ASSERT(t_sq_dispatch(s, 2) == young);
	T_ASSERT(t_sq_dispatch(s, 2) == NULL);
	t_sq_free(s);
	return T_PASS;
}

/* The read-only state follows the batches. */
static int test_stats(void)
{
	struct t_sq *s = t_sq_new("deadline", 1, true, "fifo_batch=2", NULL);
	const struct ios_tunable *st;
	struct ios_request *rq;
	char buf[64];

	T_ASSERT(s);
	for (int i = 0; i < 3; i++)
		t_sq_insert(s, 100 * (uint64_t)(i + 1), 8, IOS_READ, 0);
	t_sq_insert(s, 50, 8, IOS_WRITE, 0);
	st = ios_tunable_find(s->type->stats, "read_queued");
	T_ASSERT(st);
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "3"));
	rq = t_sq_dispatch(s, 0);
	t_sq_complete(s, rq, 0);
	rq = t_sq_dispatch(s, 0);
	t_sq_complete(s, rq, 0);
	st = ios_tunable_find(s->type->stats, "batching");
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "2"));
	st = ios_tunable_find(s->type->stats, "starved");
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "1"));
	st = ios_tunable_find(s->type->stats, "last_sector");
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "208"));
	st = ios_tunable_find(s->type->stats, "write_queued");
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "1"));
	st = ios_tunable_find(s->type->stats, "batches");
	ios_tunable_show(st, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "1"));
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_traces, test_writes_starved_position, test_alias_identity, test_stats);
}
