/*
 * Description: the anticipatory scheduler's anticipation, driven directly
 * with a fake clock (no block layer, no device). After a sync request of
 * process A completes, AS holds a far request of process B back for
 * antic_expire, asks for a wake-up at that time and dispatches B's request
 * then. A request from A, or a close one from anyone, ends the wait at once;
 * a far one from a third process does not. A process whose mean think time
 * exceeds antic_expire is not waited for (and is again once it speeds up);
 * a seeky process makes any request within its mean seek "close"; an
 * exited process stops being waited for once exited processes have timed
 * out often enough; antic_expire=0 never waits; the anticipated process may
 * allocate beyond nr_requests; a forced dispatch ignores the wait.
 */
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)
#define US ((uint64_t)IOS_NSEC_PER_USEC)
#define FAR 50000000ULL
#define BASE 1000000ULL

static struct ios_request *ins(struct t_sq *s, struct ios_ioc *ioc, uint64_t sector, int dir,
			       uint64_t now)
{
	s->ioc = ioc;
	return t_sq_insert(s, sector, 8, dir, now);
}

static int64_t stat_of(struct t_sq *s, const char *name)
{
	const struct ios_tunable *t = ios_tunable_find(s->type->stats, name);

	return t ? ios_tunable_get_int(t, s->q.sched_data) : -1;
}

/*
 * A reads at BASE and completes at 1 ms; B's far read waits in the queue.
 * Returns the queue with A's request completed at 1 ms and B's queued.
 */
static struct t_sq *setup(struct ios_request **b, const char *set1)
{
	struct t_sq *s = t_sq_new("as", 1, 1, set1, NULL);
	struct ios_request *a;

	if (!s)
		return NULL;
	a = ins(s, t_ioc(1), BASE, IOS_READ, 0);
	if (t_sq_dispatch(s, 0) != a)
		return NULL;
	*b = ins(s, t_ioc(2), FAR, IOS_READ, 100 * US);
	t_sq_complete(s, a, 1 * MS);
	return s;
}

static int test_waits_antic_expire(void)
{
	struct ios_request *b;
	struct t_sq *s = setup(&b, NULL);

	T_ASSERT(s);
	/* B is queued and the disk is free, yet AS waits for A */
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	T_ASSERT_EQ(stat_of(s, "antic_status"), 2);	/* wait_next */
	T_ASSERT_U64_EQ(s->type->ops.next_wakeup(&s->q), 7 * MS);
	T_ASSERT(t_sq_dispatch(s, 7 * MS - 1) == NULL);
	/* at the timeout B goes */
	T_ASSERT(t_sq_dispatch(s, 7 * MS) == b);
	T_ASSERT_EQ(stat_of(s, "antic_timeouts"), 1);
	T_ASSERT_U64_EQ(s->type->ops.next_wakeup(&s->q), IOS_NO_WAKEUP);
	t_sq_free(s);

	/* the wait is timed from the completion: antic_expire=20 waits until 21 ms */
	s = setup(&b, "antic_expire=20");
	T_ASSERT(s);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	T_ASSERT_U64_EQ(s->type->ops.next_wakeup(&s->q), 21 * MS);
	T_ASSERT(t_sq_dispatch(s, 20 * MS) == NULL);
	T_ASSERT(t_sq_dispatch(s, 21 * MS) == b);
	t_sq_free(s);
	return T_PASS;
}

static int test_wait_starts_while_request_in_flight(void)
{
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	struct ios_request *a, *b;

	T_ASSERT(s);
	a = ins(s, t_ioc(1), 1000, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == a);
	b = ins(s, t_ioc(2), FAR, IOS_READ, 100 * US);
	/* a second tag is free, but A's read is still in the device: wait_req, no timer */
	T_ASSERT(t_sq_dispatch(s, 200 * US) == NULL);
	T_ASSERT_EQ(stat_of(s, "antic_status"), 1);
	T_ASSERT_U64_EQ(s->type->ops.next_wakeup(&s->q), IOS_NO_WAKEUP);
	/* the completion starts the timed part */
	t_sq_complete(s, a, 3 * MS);
	T_ASSERT_EQ(stat_of(s, "antic_status"), 2);
	T_ASSERT_U64_EQ(s->type->ops.next_wakeup(&s->q), 9 * MS);
	T_ASSERT(t_sq_dispatch(s, 9 * MS) == b);
	t_sq_free(s);
	return T_PASS;
}

static int test_own_request_ends_wait(void)
{
	struct ios_request *b, *a2, *c;
	struct t_sq *s = setup(&b, NULL);

	T_ASSERT(s);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	/* a far request of a third process does not end it */
	c = ins(s, t_ioc(3), FAR * 2, IOS_READ, 2 * MS);
	T_ASSERT(t_sq_dispatch(s, 2 * MS) == NULL);
	T_ASSERT_U64_EQ(s->type->ops.next_wakeup(&s->q), 7 * MS);
	/* A's next read does, at once, and goes first */
	a2 = ins(s, t_ioc(1), BASE + 8, IOS_READ, 3 * MS);
	T_ASSERT_EQ(stat_of(s, "antic_status"), 3);	/* finished */
	T_ASSERT(t_sq_dispatch(s, 3 * MS) == a2);
	T_ASSERT_EQ(stat_of(s, "antic_hits"), 1);
	(void)c;
	t_sq_free(s);
	return T_PASS;
}

static int test_close_request_of_other_ends_wait(void)
{
	/* offsets from the head (the end of A's read), in sectors */
	static const struct {
		int64_t off;
		bool close;
	} cases[] = {
		{ 4000, true },		/* under 4 MiB ahead */
		{ 8192, true },
		{ 8193, false },
		{ 100000, false },	/* 48 MiB ahead */
		{ -4000, true },	/* under 2 MiB behind: half the window backwards */
		{ -4096, true },
		{ -4097, false },
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		struct ios_request *b, *c, *got;
		struct t_sq *s = setup(&b, NULL);

		T_ASSERT(s);
		T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
		/* 0.5 ms into the wait: the window is still the base one */
		c = ins(s, t_ioc(3), (uint64_t)((int64_t)BASE + 8 + cases[i].off), IOS_READ,
			1 * MS + 500 * US);
		got = t_sq_dispatch(s, 1 * MS + 500 * US);
		T_ASSERT_MSG(got == (cases[i].close ? c : NULL), "offset %lld: %s",
			     (long long)cases[i].off, got ? "dispatched" : "held");
		t_sq_free(s);
	}
	return T_PASS;
}

/* The window doubles with every millisecond of waiting. */
static int test_close_window_widens(void)
{
	struct ios_request *b, *c;
	struct t_sq *s = setup(&b, NULL);

	T_ASSERT(s);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	/* 50000 sectors ahead: not close after 1 ms (16384), close after 3 ms (65536) */
	c = ins(s, t_ioc(3), BASE + 8 + 50000, IOS_READ, 2 * MS);
	T_ASSERT(t_sq_dispatch(s, 2 * MS) == NULL);
	t_sq_free(s);

	s = setup(&b, NULL);
	T_ASSERT(s);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	c = ins(s, t_ioc(3), BASE + 8 + 50000, IOS_READ, 4 * MS);
	T_ASSERT(t_sq_dispatch(s, 4 * MS) == c);
	t_sq_free(s);
	return T_PASS;
}

/*
 * Dispatch at *now; if AS waits for some process, move *now to the wake-up
 * it asked for and dispatch again.
 */
static struct ios_request *disp(struct t_sq *s, uint64_t *now)
{
	struct ios_request *rq = t_sq_dispatch(s, *now);
	uint64_t w;

	if (rq)
		return rq;
	w = s->type->ops.next_wakeup(&s->q);
	if (w == IOS_NO_WAKEUP)
		return NULL;
	*now = w;
	return t_sq_dispatch(s, w);
}

/*
 * Process 1 reads sequentially with a think time between a completion and
 * its next read (think0 for the first switch_round rounds, then think1);
 * process 2 always has a far read queued. Each request takes 1 ms. Returns
 * a bit per round: AS waited after process 1's read completed.
 */
static unsigned rounds_anticipated(uint64_t think0, unsigned switch_round, uint64_t think1,
				   unsigned rounds)
{
	struct t_sq *s = t_sq_new("as", 1, 1, "read_expire=3600000", NULL);
	uint64_t now = 0, sector = 1000;
	unsigned bits = 0;
	struct ios_request *a, *b = NULL, *got;

	if (!s)
		return ~0u;
	a = ins(s, t_ioc(1), sector, IOS_READ, now);
	for (unsigned r = 0; r < rounds; r++) {
		uint64_t think = r < switch_round ? think0 : think1, done;

		if (disp(s, &now) != a)
			goto fail;
		if (!b)
			b = ins(s, t_ioc(2), FAR + r * 64, IOS_READ, now);
		done = now + 1 * MS;
		t_sq_complete(s, a, done);
		now = done;
		sector += 8;
		got = t_sq_dispatch(s, now);
		if (!got) {
			bits |= 1u << r;
			now = done + think;
			a = ins(s, t_ioc(1), sector, IOS_READ, now);
			continue;
		}
		if (got != b)
			goto fail;
		/* B is served for 1 ms; process 1's next read comes when it comes */
		if (think < 1 * MS) {
			a = ins(s, t_ioc(1), sector, IOS_READ, done + think);
			now = done + 1 * MS;
			t_sq_complete(s, b, now);
		} else {
			t_sq_complete(s, b, done + 1 * MS);
			now = done + think;
			a = ins(s, t_ioc(1), sector, IOS_READ, now);
		}
		b = NULL;
	}
	t_sq_free(s);
	return bits;
fail:
	t_sq_free(s);
	return ~0u;
}

static int test_think_time(void)
{
	unsigned bits;

	/* think time 1 ms: always waited for */
	bits = rounds_anticipated(1 * MS, 100, 0, 12);
	T_ASSERT_MSG(bits == 0xfff, "1 ms thinker: 0x%x", bits);
	/*
	 * 15 ms: waited for in round 0 (no history: new processes think 0 ms
	 * so far); from round 1 its mean (15 ms) exceeds antic_expire.
	 */
	bits = rounds_anticipated(15 * MS, 100, 0, 12);
	T_ASSERT_MSG(bits == 0x1, "15 ms thinker: 0x%x", bits);
	/*
	 * It speeds up to 0.1 ms after round 3: the mean decays by 7/8 per
	 * sample, so it takes several requests before AS waits again.
	 */
	bits = rounds_anticipated(15 * MS, 4, 100 * US, 16);
	T_ASSERT_MSG((bits & 0x1e) == 0, "slow rounds 1-4 waited: 0x%x", bits);
	T_ASSERT_MSG((bits & 0x60) == 0, "waited too soon after speeding up: 0x%x", bits);
	T_ASSERT_MSG((bits & 0xe000) == 0xe000, "never waited again: 0x%x", bits);
	return T_PASS;
}

/*
 * A process that reads @stride sectors apart builds a seek mean; a request
 * of another process 600000 sectors from the head is then "close" only if
 * the mean is larger than that.
 */
static int seeky_case(uint64_t stride, bool *waited)
{
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	uint64_t now = 0, sector = 1000000;
	struct ios_request *a, *c, *got;

	T_ASSERT(s);
	for (int r = 0; r < 8; r++) {
		a = ins(s, t_ioc(1), sector, IOS_READ, now);
		T_ASSERT(t_sq_dispatch(s, now) == a);
		now += 1 * MS;
		t_sq_complete(s, a, now);
		now += 100 * US;
		sector += stride;
	}
	c = ins(s, t_ioc(2), sector - stride + 8 + 600000, IOS_READ, now);
	got = t_sq_dispatch(s, now);
	T_ASSERT(got == NULL || got == c);
	*waited = got == NULL;
	t_sq_free(s);
	return T_PASS;
}

static int test_seeky_process(void)
{
	bool waited;

	T_ASSERT_EQ(seeky_case(8, &waited), T_PASS);
	T_ASSERT_MSG(waited, "sequential process: the far request should wait");
	T_ASSERT_EQ(seeky_case(1000000, &waited), T_PASS);
	T_ASSERT_MSG(!waited, "seeky process: a request nearer than its mean seek should go");
	return T_PASS;
}

static int test_est_time_stats(void)
{
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	struct ios_request *a;
	uint64_t now = 0;
	const struct ios_tunable *t;
	char buf[64];

	T_ASSERT(s);
	T_ASSERT_EQ(stat_of(s, "est_new_seek"), 0);
	/* process 7's first think time (4 ms) and seek (5000) feed the new-process means */
	a = ins(s, t_ioc(7), 10000, IOS_READ, now);
	T_ASSERT(t_sq_dispatch(s, now) == a);
	t_sq_complete(s, a, 1 * MS);
	a = ins(s, t_ioc(7), 10008 + 5000, IOS_READ, 5 * MS);
	T_ASSERT_EQ(stat_of(s, "est_new_seek"), 5000 / 8);
	t = ios_tunable_find(s->type->stats, "est_new_thinktime");
	T_ASSERT(t);
	T_ASSERT_U64_EQ(ios_tunable_get_u64(t, s->q.sched_data), 4 * MS / 8);
	T_ASSERT(ios_tunable_show(t, s->q.sched_data, buf, sizeof(buf)) >= 0);
	T_ASSERT(t_sq_dispatch(s, 5 * MS) == a);
	t_sq_complete(s, a, 6 * MS);
	t_sq_free(s);
	return T_PASS;
}

/*
 * Processes that read twice and exit; each time a far request of another
 * process waits behind the anticipation. Returns a bit per round: AS waited.
 */
static unsigned exited_rounds(unsigned rounds, int64_t *no_coop_pct)
{
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	uint64_t now = 0;
	unsigned bits = 0;

	if (!s)
		return ~0u;
	for (unsigned r = 0; r < rounds; r++) {
		struct ios_ioc *p = t_ioc(100 + r);
		struct ios_request *a, *b, *got;

		/* two reads, 0.5 ms think time: a process worth waiting for */
		for (int k = 0; k < 2; k++) {
			a = ins(s, p, 1000 + 16 * k, IOS_READ, now);
			if (t_sq_dispatch(s, now) != a)
				return ~0u;
			now += 1 * MS;
			t_sq_complete(s, a, now);
			now += 500 * US;
		}
		/* it exits; a far request arrives */
		p->nr_tasks = 0;
		s->type->ops.exit_icq(&s->q, p, now);
		b = ins(s, t_ioc(2), FAR + r * 64, IOS_READ, now);
		got = t_sq_dispatch(s, now);
		if (!got) {
			bits |= 1u << r;
			now += 10 * MS;	/* past the timeout */
			got = t_sq_dispatch(s, now);
		}
		if (got != b)
			return ~0u;
		now += 1 * MS;
		t_sq_complete(s, got, now);
		/* let the wait for process 2 lapse before the next round */
		now += 10 * MS;
	}
	*no_coop_pct = stat_of(s, "est_exit_no_coop");
	t_sq_free(s);
	return bits;
}

static int test_exited_process(void)
{
	int64_t pct = -1;
	unsigned bits = exited_rounds(8, &pct);

	/*
	 * 2.6.31's rule: an exited process is still waited for until exited
	 * processes have mostly timed out (exit_no_coop > 50 %), which takes
	 * six timeouts from a fresh queue; from then on it is not.
	 */
	T_ASSERT_MSG(bits == 0x3f, "waited rounds 0x%x, want 0x3f", bits);
	T_ASSERT_MSG(pct > 50, "est_exit_no_coop %lld%%", (long long)pct);
	return T_PASS;
}

static int test_antic_expire_zero(void)
{
	struct ios_request *b;
	struct t_sq *s = setup(&b, "antic_expire=0");

	T_ASSERT(s);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == b);
	T_ASSERT_EQ(stat_of(s, "antic_waits"), 0);
	t_sq_free(s);
	return T_PASS;
}

static int test_may_queue_and_force(void)
{
	struct ios_request *b;
	struct t_sq *s = setup(&b, NULL);
	const struct ios_sched_ops *o;

	T_ASSERT(s);
	o = &s->type->ops;
	T_ASSERT_EQ(o->may_queue(&s->q, t_ioc(1), IOS_READ, true), IOS_MQUEUE_MAY);
	T_ASSERT(t_sq_dispatch(s, 1 * MS) == NULL);
	/* while AS waits for process 1, it may exceed the request limit */
	T_ASSERT_EQ(o->may_queue(&s->q, t_ioc(1), IOS_READ, true), IOS_MQUEUE_MUST);
	T_ASSERT_EQ(o->may_queue(&s->q, t_ioc(2), IOS_READ, true), IOS_MQUEUE_MAY);
	/* a forced dispatch (drain) does not wait */
	T_ASSERT(o->dispatch(&s->q, 2 * MS, IOS_DISPATCH_FORCE) == b);
	s->q.nr_sorted--;
	s->q.rq_in_driver++;
	s->q.in_flight[1]++;
	t_sq_complete(s, b, 3 * MS);
	t_sq_free(s);
	return T_PASS;
}

/* A write while anticipating a read is held back too (it is not a candidate). */
static int test_write_does_not_end_wait(void)
{
	struct ios_request *b, *w;
	struct t_sq *s = t_sq_new("as", 1, 1, NULL);
	struct ios_request *a;

	T_ASSERT(s);
	a = ins(s, t_ioc(1), 1000, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == a);
	t_sq_complete(s, a, 1 * MS);
	/* another process's write right next to the head */
	w = ins(s, t_ioc(2), 1008, IOS_WRITE, 1 * MS + 100 * US);
	T_ASSERT(t_sq_dispatch(s, 1 * MS + 100 * US) == NULL);
	b = ins(s, t_ioc(1), 1008 + 8, IOS_READ, 2 * MS);
	T_ASSERT(t_sq_dispatch(s, 2 * MS) == b);
	t_sq_complete(s, b, 3 * MS);
	(void)w;
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_waits_antic_expire, test_wait_starts_while_request_in_flight,
		     test_own_request_ends_wait, test_close_request_of_other_ends_wait,
		     test_close_window_widens, test_think_time, test_seeky_process,
		     test_est_time_stats, test_exited_process, test_antic_expire_zero,
		     test_may_queue_and_force, test_write_does_not_end_wait);
}
