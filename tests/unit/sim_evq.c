/*
 * Description: the simulator's event queue pops events in (time, sequence)
 * order, so equal times come out in scheduling order; the loop advances the
 * clock monotonically, honours a time limit, and stale re-armed timers are
 * dropped.
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

int main(void)
{
	return T_RUN(test_order, test_loop_and_timer);
}
