/*
 * Description: the simulator's event queue pops events in (time, sequence)
 * order, so equal times come out in scheduling order; the loop advances the
 * clock monotonically, honours a time limit, and re-armed or cancelled
 * timers keep no stale entry yet fire as the old lazily dropped ones did.
 * The end test (ios_sim_set_quiet) is asked only with one event left and
 * stops a timer that re-arms itself forever once the work is done.
 */
#include "harness.h"

static int test_order(void)
{
	struct ios_evq q;
	struct ios_event ev;
	struct ios_rand r;
	uint64_t last_t = 0, last_seq = 0;
	int n = 0;

	T_ASSERT_EQ(ios_evq_init(&q, 4), 0);
	ios_rand_seed(&r, 1, 1);
	for (int i = 0; i < 10000; i++)
		T_ASSERT_EQ(ios_evq_push(&q, ios_rand_below(&r, 100), NULL, NULL, (uint64_t)i), 0);
	while (ios_evq_pop(&q, &ev)) {
		if (n) {
			T_ASSERT(ev.time >= last_t);
			if (ev.time == last_t)
				T_ASSERT(ev.seq > last_seq);
		}
		last_t = ev.time;
		last_seq = ev.seq;
		n++;
	}
	T_ASSERT_EQ(n, 10000);
	ios_evq_destroy(&q);
	return T_PASS;
}

static uint64_t log_times[16];
static uint64_t log_data[16];
static int nlog;

static void record(struct ios_sim *s, void *arg, uint64_t data)
{
	(void)arg;
	log_times[nlog] = s->now;
	log_data[nlog++] = data;
}

static struct ios_timer tmr;
static int fired;

static void on_timer(struct ios_sim *s, void *arg, uint64_t data)
{
	(void)s;
	(void)arg;
	if (!ios_timer_fire(&tmr, data))
		return;
	fired++;
}

static int test_loop_and_timer(void)
{
	struct ios_sim s;

	T_ASSERT_EQ(ios_sim_init(&s), 0);
	nlog = 0;
	T_ASSERT_EQ(ios_sim_at(&s, 50, record, NULL, 1), 0);
	T_ASSERT_EQ(ios_sim_at(&s, 10, record, NULL, 2), 0);
	T_ASSERT_EQ(ios_sim_at(&s, 50, record, NULL, 3), 0);
	T_ASSERT_EQ(ios_sim_run(&s, 40), 0);
	T_ASSERT_EQ(nlog, 1);
	T_ASSERT_EQ(s.now, 40);
	T_ASSERT_EQ(ios_sim_run(&s, IOS_NO_WAKEUP), 0);
	T_ASSERT_EQ(nlog, 3);
	T_ASSERT_EQ(log_data[1], 1);
	T_ASSERT_EQ(log_data[2], 3);
	T_ASSERT_EQ(log_times[2], 50);

	ios_timer_init(&tmr);
	fired = 0;
	T_ASSERT_EQ(ios_timer_arm(&s, &tmr, 100, on_timer, NULL), 0);
	T_ASSERT_EQ(ios_timer_arm(&s, &tmr, 200, on_timer, NULL), 0); /* replaces 100 */
	T_ASSERT_EQ(ios_sim_run(&s, 150), 0);
	T_ASSERT_EQ(fired, 0);
	T_ASSERT_EQ(ios_sim_run(&s, IOS_NO_WAKEUP), 0);
	T_ASSERT_EQ(fired, 1);
	T_ASSERT_EQ(s.now, 200);
	ios_timer_arm(&s, &tmr, 300, on_timer, NULL);
	ios_timer_cancel(&tmr);
	T_ASSERT_EQ(ios_sim_run(&s, IOS_NO_WAKEUP), 0);
	T_ASSERT_EQ(fired, 1);
	ios_sim_destroy(&s);
	return T_PASS;
}

/* ---- the end test: a periodic timer that never stops by itself ---- */

static struct ios_timer tick_tmr;
static int ticks, work_left, asked;
static bool say_quiet;

static void on_tick(struct ios_sim *s, void *arg, uint64_t data)
{
	(void)arg;
	if (!ios_timer_fire(&tick_tmr, data))
		return;
	ticks++;
	(void)ios_timer_arm(s, &tick_tmr, s->now + 100, on_tick, NULL);
}

static void on_work(struct ios_sim *s, void *arg, uint64_t data)
{
	(void)s, (void)arg, (void)data;
	work_left--;
}

static bool quiet(struct ios_sim *s, void *arg)
{
	(void)arg;
	asked++;
	/* asked only with one event queued, and here that is always the ticker */
	if (s->evq.n != 1 || !tick_tmr.pos)
		return false;
	return say_quiet && !work_left;
}

static int run_ticker(bool q, uint64_t until, struct ios_sim *s)
{
	ios_timer_init(&tick_tmr);
	ticks = asked = 0;
	work_left = 2;
	say_quiet = q;
	if (ios_sim_init(s))
		return -1;
	ios_sim_set_quiet(s, quiet, NULL);
	(void)ios_timer_arm(s, &tick_tmr, 100, on_tick, NULL);
	(void)ios_sim_at(s, 250, on_work, NULL, 0);
	(void)ios_sim_at(s, 420, on_work, NULL, 0);
	return ios_sim_run(s, until);
}

static int test_quiet(void)
{
	struct ios_sim s;

	/* the work ends at 420: the ticks at 100..400 ran, the one at 500 stays queued */
	T_ASSERT_EQ(run_ticker(true, 100000, &s), 0);
	T_ASSERT_EQ(s.now, 420);
	T_ASSERT_EQ(ticks, 4);
	T_ASSERT_EQ(work_left, 0);
	T_ASSERT_EQ(s.evq.n, 1);
	T_ASSERT(tick_tmr.pos != 0);
	T_ASSERT(asked > 0);
	ios_sim_destroy(&s);
	/* an end test that says no: the ticker runs on to the limit */
	T_ASSERT_EQ(run_ticker(false, 100000, &s), 0);
	T_ASSERT_EQ(s.now, 100000);
	T_ASSERT_EQ(ticks, 1000);
	ios_sim_destroy(&s);
	/* none installed: the same */
	T_ASSERT_EQ(run_ticker(true, 100000, &s), 0);
	ios_sim_set_quiet(&s, NULL, NULL);
	T_ASSERT_EQ(ios_sim_run(&s, 200000), 0);
	T_ASSERT_EQ(s.now, 200000);
	T_ASSERT_EQ(ticks, 4 + 1996);
	ios_sim_destroy(&s);
	return T_PASS;
}

/*
 * Timers re-keyed and removed in place fire exactly as lazily dropped ones
 * did: a reference keeps every arm as a plain event with a generation and
 * skips the stale ones; the same random arms, cancels and steps must fire
 * the same timers at the same times in the same order.
 */
#define NT 64

struct ref_timer {
	uint64_t gen, when;
};

static struct ios_timer tm[NT];
static struct ref_timer rt[NT];
static unsigned flog_a[20000], flog_b[20000];
static uint64_t tlog_a[20000], tlog_b[20000];
static unsigned na, nb;

static void fire_a(struct ios_sim *s, void *arg, uint64_t data)
{
	unsigned i = (unsigned)(uintptr_t)arg;

	if (!ios_timer_fire(&tm[i], data) || na >= 20000)
		return;
	flog_a[na] = i;
	tlog_a[na++] = s->now;
}

static void fire_b(struct ios_sim *s, void *arg, uint64_t data)
{
	unsigned i = (unsigned)(uintptr_t)arg;

	if (data != rt[i].gen || rt[i].when == IOS_NO_WAKEUP || nb >= 20000)
		return;
	rt[i].when = IOS_NO_WAKEUP;
	flog_b[nb] = i;
	tlog_b[nb++] = s->now;
}

static int test_timer_in_place(void)
{
	struct ios_sim a, b;
	struct ios_rand r;

	T_ASSERT_EQ(ios_sim_init(&a), 0);
	T_ASSERT_EQ(ios_sim_init(&b), 0);
	ios_rand_seed(&r, 7, 1);
	na = nb = 0;
	for (unsigned i = 0; i < NT; i++) {
		ios_timer_init(&tm[i]);
		rt[i].gen = 0;
		rt[i].when = IOS_NO_WAKEUP;
	}
	for (int op = 0; op < 100000; op++) {
		unsigned i = (unsigned)ios_rand_below(&r, NT), k = (unsigned)ios_rand_below(&r, 10);
		uint64_t when = a.now + ios_rand_below(&r, 50);

		if (k < 5) {
			T_ASSERT_EQ(ios_timer_arm(&a, &tm[i], when, fire_a, (void *)(uintptr_t)i), 0);
			if (rt[i].when != when) {
				rt[i].gen++;
				rt[i].when = when;
				T_ASSERT_EQ(ios_sim_at(&b, when, fire_b, (void *)(uintptr_t)i,
						       rt[i].gen), 0);
			}
		} else if (k < 6) {
			ios_timer_cancel(&tm[i]);
			rt[i].gen++;
			rt[i].when = IOS_NO_WAKEUP;
		} else {
			/* run up to a common time on both */
			T_ASSERT_EQ(ios_sim_run(&a, a.now + k - 6), 0);
			T_ASSERT_EQ(ios_sim_run(&b, a.now), 0);
			T_ASSERT_EQ(a.now, b.now);
		}
		/* one entry per armed timer, none stale */
		if (!(op % 1000)) {
			size_t armed = 0;

			for (unsigned t = 0; t < NT; t++)
				armed += tm[t].pos != 0;
			T_ASSERT_EQ(a.evq.n, armed);
		}
	}
	T_ASSERT_EQ(ios_sim_run(&a, IOS_NO_WAKEUP), 0);
	T_ASSERT_EQ(ios_sim_run(&b, IOS_NO_WAKEUP), 0);
	T_ASSERT_EQ(na, nb);
	T_ASSERT(na > 1000);
	for (unsigned n = 0; n < na; n++) {
		T_ASSERT_EQ(flog_a[n], flog_b[n]);
		T_ASSERT_EQ(tlog_a[n], tlog_b[n]);
	}
	T_ASSERT(a.nr_events < b.nr_events);
	ios_sim_destroy(&a);
	ios_sim_destroy(&b);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_order, test_loop_and_timer, test_quiet, test_timer_in_place);
}
