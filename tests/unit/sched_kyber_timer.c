/*
 * Description: kyber-6.12's latency control (kyber_completed_request,
 * add_latency_sample, calculate_percentile, kyber_timer_fn, Linux 6.12).
 * A completion adds its total latency (since allocation) and its I/O
 * latency (since issue) to its domain's histograms of 8 buckets, each a
 * quarter of the target, and arms the timer for at most 100 ms (HZ/10)
 * later. At the timer a percentile is read from 500 samples, or once a
 * second has passed since the first reading that found samples. If any
 * domain's p90 I/O latency is over its target the device is congested and
 * every domain with a p99 is resized to depth * (p99 bucket + 1) / 4 (the
 * good ones shrink); otherwise only domains whose own p99 is over target
 * are (they grow). A p99 from a calm window is remembered for the next
 * congested one, once. Sizes stay within [1, the starting depth], and each
 * change is reported to the owner hook (IOS_OWN_DEPTH).
 */
#include "sched_kyber_util.h"

/*
 * READ: 500 samples of 0.9 ms total (target 2 ms, bucket 1 of 8); WRITE:
 * 500 samples whose I/O latency is @write_io.
 */
static int64_t read_depth_after(uint64_t write_io, unsigned nr_bad_writes)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	int64_t d;

	if (ky_lives(s, IOS_READ, 500, 900 * US, 100 * US, 40 * MS) ||
	    ky_lives(s, IOS_WRITE, 500 - nr_bad_writes, 1 * MS, 1 * MS, 40 * MS) ||
	    ky_lives(s, IOS_WRITE, nr_bad_writes, write_io, write_io, 40 * MS))
		abort();
	ky_fire(s, 140 * MS);
	d = ky_stat(s, "read_tokens");
	t_sq_free(s);
	return d;
}

/*
 * p90 of WRITE's I/O latency over its 10 ms target: congestion; READ,
 * within its target (p99 bucket 1), shrinks to 256 * 2 / 4.
 */
static int test_p90_io_latency_shrinks_good_domains(void)
{
	/* 51 of 500 late: the 450th sample is late, p90 bad */
	T_ASSERT_EQ(read_depth_after(30 * MS, 51), 128);
	/* 50 late: the 450th is on time, p90 good: READ keeps its depth */
	T_ASSERT_EQ(read_depth_after(30 * MS, 50), 256);
	/* late in total but not at the device (queued for 30 ms, served in 1): no congestion */
	{
		struct t_sq *s = ky_new(1, 1, NULL);

		T_ASSERT(!ky_lives(s, IOS_READ, 500, 900 * US, 100 * US, 40 * MS));
		T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 31 * MS, 1 * MS, 40 * MS));
		ky_fire(s, 140 * MS);
		T_ASSERT_EQ(ky_stat(s, "read_tokens"), 256);
		t_sq_free(s);
	}
	return T_PASS;
}

/*
 * A domain over its target grows by depth * (p99 + 1) / 4 even on a calm
 * device; under congestion a good one shrinks by the same rule, to 1 at
 * least. Each change goes to the owner hook.
 */
static int test_p99_resizes(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	struct ky_owner_log log = { 0 };
	uint64_t t = 0;

	ios_queue_set_owner_ops(&s->q, &ky_owner_ops, &log);
	/* window 1: READ's I/O latency 5 ms (bucket 7): congested; WRITE's p99 bucket 0 */
	T_ASSERT(!ky_lives(s, IOS_READ, 500, 5 * MS, 5 * MS, t + 10 * MS));
	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 2 * MS, 2 * MS, t + 10 * MS));
	ky_fire(s, t += 110 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 128 * 1 / 4);
	/* READ's own p99 (bucket 7) grows it: 256 * 8 / 4, clamped to 256 */
	T_ASSERT_EQ(ky_stat(s, "read_tokens"), 256);
	T_ASSERT_EQ(log.n, 1);
	T_ASSERT_EQ(log.ev[0], IOS_OWN_DEPTH);
	T_ASSERT_EQ(IOS_OWN_DEPTH_DOMAIN(log.reason[0]), 1);	/* WRITE */
	T_ASSERT_EQ(IOS_OWN_DEPTH_VALUE(log.reason[0]), 32);
	T_ASSERT_EQ(log.at[0], 110 * MS);

	/* window 2, calm: WRITE's p99 total latency 12 ms is bucket 4: 32 * 5 / 4 */
	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 12 * MS, 1 * MS, t + 20 * MS));
	ky_fire(s, t += 120 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 40);
	/* window 3: 100 ms is bucket 7: 40 * 8 / 4 */
	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 100 * MS, 1 * MS, t + 20 * MS));
	ky_fire(s, t += 120 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 80);
	/* window 4: 11 ms, bucket 4 again: 80 * 5 / 4 = 100 */
	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 11 * MS, 1 * MS, t + 20 * MS));
	ky_fire(s, t += 120 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 100);
	/* window 5: bucket 7 again, 200, clamped to WRITE's 128 */
	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 100 * MS, 1 * MS, t + 20 * MS));
	ky_fire(s, t += 120 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 128);
	/* a calm window within target changes nothing */
	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 1 * MS, 1 * MS, t + 20 * MS));
	ky_fire(s, t += 120 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 128);
	T_ASSERT_EQ(log.n, 5);
	T_ASSERT_EQ(ky_stat(s, "resizes"), 5);

	/* congestion again and again: WRITE (p99 bucket 0) quarters down to 1, not 0 */
	for (unsigned i = 0; i < 5; i++) {
		T_ASSERT(!ky_lives(s, IOS_READ, 500, 5 * MS, 5 * MS, t + 20 * MS));
		T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 1 * MS, 1 * MS, t + 20 * MS));
		ky_fire(s, t += 120 * MS);
	}
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 1);
	t_sq_free(s);
	return T_PASS;
}

/*
 * WRITE's p99 from a calm window (bucket 1) waits for congestion: a later
 * congested window without WRITE samples uses it (128 * 2 / 4), and only
 * once.
 */
static int test_p99_remembered(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	uint64_t t = 0;

	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 3 * MS, 1 * MS, t + 10 * MS));
	ky_fire(s, t += 110 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 128);
	/* congestion from READ, no WRITE samples */
	T_ASSERT(!ky_lives(s, IOS_READ, 500, 5 * MS, 5 * MS, t + 10 * MS));
	ky_fire(s, t += 110 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 64);
	/* congestion again, still no WRITE samples: the memory was used up */
	T_ASSERT(!ky_lives(s, IOS_READ, 500, 5 * MS, 5 * MS, t + 10 * MS));
	ky_fire(s, t += 110 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 64);
	t_sq_free(s);
	return T_PASS;
}

/*
 * A percentile needs 500 samples, or a second since the first timer that
 * found samples (not since the first sample). READ (500 good samples,
 * remembered p99 bucket 0) shows when WRITE's late p90 is read: it shrinks
 * to 256 / 4.
 */
static int test_500_samples_or_one_second(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);

	/* the samples come at 40 ms */
	T_ASSERT(!ky_lives(s, IOS_READ, 500, 100 * US, 100 * US, 40 * MS));
	T_ASSERT(!ky_lives(s, IOS_WRITE, 499, 30 * MS, 30 * MS, 40 * MS));
	T_ASSERT_EQ(s->type->ops.next_wakeup(&s->q), 140 * MS);
	/* 499 WRITE samples: no p90 yet; WRITE's window opens now, until 1.14 s */
	ky_fire(s, 140 * MS);
	T_ASSERT_EQ(ky_stat(s, "read_tokens"), 256);
	/* a READ completion arms the timer; 1 s after the first WRITE sample is not enough */
	T_ASSERT(ky_life(s, IOS_READ, 0, 1030 * MS, 1030 * MS, 1035 * MS));
	ky_fire(s, 1135 * MS);
	T_ASSERT_EQ(ky_stat(s, "read_tokens"), 256);
	/* 1.14 s: WRITE's window closes with 499 samples: congestion, READ uses its p99 */
	T_ASSERT(ky_life(s, IOS_READ, 0, 1100 * MS, 1100 * MS, 1105 * MS));
	ky_fire(s, 1205 * MS);
	T_ASSERT_EQ(ky_stat(s, "read_tokens"), 64);
	t_sq_free(s);

	/* the 500th sample, well inside the second, is enough */
	s = ky_new(1, 1, NULL);
	T_ASSERT(!ky_lives(s, IOS_READ, 500, 100 * US, 100 * US, 40 * MS));
	T_ASSERT(!ky_lives(s, IOS_WRITE, 499, 30 * MS, 30 * MS, 40 * MS));
	ky_fire(s, 140 * MS);
	T_ASSERT_EQ(ky_stat(s, "read_tokens"), 256);
	T_ASSERT(!ky_lives(s, IOS_WRITE, 1, 30 * MS, 30 * MS, 150 * MS));
	ky_fire(s, 250 * MS);
	T_ASSERT_EQ(ky_stat(s, "read_tokens"), 64);
	t_sq_free(s);
	return T_PASS;
}

/*
 * The window is the domain's, shared by its two histograms: when the p90
 * pass closes it on time (under 500 samples), the p99 pass opens a new one
 * and answers nothing, and the total-latency samples keep adding up across
 * windows until they reach 500. WRITE, 100 samples a window, late in total
 * (bucket 7) but not at the device: it grows only at the 500th.
 */
static int test_slow_domain_p99_waits_for_500(void)
{
	struct ky_owner_log log = { 0 };
	struct t_sq *s = ky_new(1, 1, NULL);
	uint64_t t = 0;

	ios_queue_set_owner_ops(&s->q, &ky_owner_ops, &log);
	/* shrink WRITE first (congestion from READ), so that it can grow */
	T_ASSERT(!ky_lives(s, IOS_READ, 500, 5 * MS, 5 * MS, 10 * MS));
	T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 1 * MS, 1 * MS, 10 * MS));
	ky_fire(s, t += 110 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 32);
	for (unsigned w = 0; w < 4; w++) {
		T_ASSERT(!ky_lives(s, IOS_WRITE, 100, 100 * MS, 1 * MS, t + 10 * MS));
		ky_fire(s, t += 1100 * MS);
		T_ASSERT_MSG(ky_stat(s, "write_tokens") == 32, "window %u", w);
	}
	T_ASSERT(!ky_lives(s, IOS_WRITE, 100, 100 * MS, 1 * MS, t + 10 * MS));
	ky_fire(s, t += 1100 * MS);
	T_ASSERT_EQ(ky_stat(s, "write_tokens"), 64);
	t_sq_free(s);
	return T_PASS;
}

/*
 * The timer: armed at a completion for 100 ms later, never pushed back
 * (timer_reduce), not armed by OTHER (no histograms), disarmed once it ran.
 */
static int test_timer_armed_at_completion(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	uint64_t (*wake)(struct ios_queue *) = s->type->ops.next_wakeup;
	struct ios_request *rq;

	T_ASSERT_EQ(wake(&s->q), IOS_NO_WAKEUP);
	rq = ky_insert(s, 0, 0, IOS_WRITE, IOS_REQ_PREFLUSH, 1 * MS);
	T_ASSERT(ky_dispatch(s, 0, 1 * MS) == rq);
	t_sq_complete(s, rq, 2 * MS);
	T_ASSERT_EQ(wake(&s->q), IOS_NO_WAKEUP);
	T_ASSERT(ky_life(s, IOS_READ, 0, 4 * MS, 4 * MS, 5 * MS));
	T_ASSERT_EQ(wake(&s->q), 105 * MS);
	T_ASSERT(ky_life(s, IOS_READ, 0, 40 * MS, 40 * MS, 50 * MS));
	T_ASSERT_EQ(wake(&s->q), 105 * MS);
	/* too early: nothing happens */
	ky_fire(s, 104 * MS);
	T_ASSERT_EQ(wake(&s->q), 105 * MS);
	ky_fire(s, 105 * MS);
	T_ASSERT_EQ(wake(&s->q), IOS_NO_WAKEUP);
	T_ASSERT(ky_life(s, IOS_WRITE, 0, 200 * MS, 200 * MS, 210 * MS));
	T_ASSERT_EQ(wake(&s->q), 310 * MS);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_p90_io_latency_shrinks_good_domains, test_p99_resizes,
		     test_p99_remembered, test_500_samples_or_one_second,
		     test_slow_domain_p99_waits_for_500, test_timer_armed_at_completion);
}
