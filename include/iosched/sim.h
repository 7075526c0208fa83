/*
 * The discrete-event simulator core.
 *
 * Time is an integer count of nanoseconds. Events sit in a binary heap keyed
 * by (time, sequence number): O(log n) insert and pop, and two events at the
 * same time always run in the order they were scheduled, so a run is a pure
 * function of its inputs. A plain event cannot be cancelled; a timer's
 * event can (struct ios_timer): it remembers its slot in the heap, so a
 * re-arm moves it and a cancel takes it out, in O(log n) and in place.
 */
#ifndef IOSCHED_SIM_H
#define IOSCHED_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "request.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_sim;
struct ios_timer;
typedef void (*ios_event_fn)(struct ios_sim *sim, void *arg, uint64_t data);

struct ios_event {
	uint64_t time;
	uint64_t seq;
	ios_event_fn fn;
	void *arg;
	uint64_t data;
	struct ios_timer *timer;	/* the timer this entry is, or NULL */
};

struct ios_evq {
	struct ios_event *heap;
	size_t n, cap;
	uint64_t seq;
};

int ios_evq_init(struct ios_evq *q, size_t cap) IOS_MUST_CHECK;
void ios_evq_destroy(struct ios_evq *q);
int ios_evq_push(struct ios_evq *q, uint64_t time, ios_event_fn fn, void *arg, uint64_t data) IOS_MUST_CHECK;
/*
 * Queue @t's one entry for @time with a new sequence number: moved in place
 * if @t is queued already, pushed if not. -ENOMEM only on a push.
 */
int ios_evq_push_timer(struct ios_evq *q, struct ios_timer *t, uint64_t time, ios_event_fn fn,
		       void *arg, uint64_t data) IOS_MUST_CHECK;
/* Take out the entry in slot @i (a timer's pos - 1). */
void ios_evq_remove(struct ios_evq *q, size_t i);
/* Pop the earliest event into *ev; false when empty. */
bool ios_evq_pop(struct ios_evq *q, struct ios_event *ev);
/* Time of the earliest event or IOS_NO_WAKEUP. */
static inline uint64_t ios_evq_peek_time(const struct ios_evq *q)
{
	return q->n ? q->heap[0].time : IOS_NO_WAKEUP;
}

/*
 * An observer the loop calls after every tick_every-th event, for progress
 * displays. It may only read the simulation (it runs between two events
 * and must leave everything as it found it), so runs with and without one
 * are identical. The loop itself never looks at a wall clock; whoever
 * installs the observer decides whether to.
 */
typedef void (*ios_sim_tick_fn)(struct ios_sim *sim, void *arg);
/*
 * Asked, when a single event is left, whether the run is over anyway: true
 * ends ios_sim_run with that event still queued (see ios_sim_set_quiet).
 */
typedef bool (*ios_sim_quiet_fn)(struct ios_sim *sim, void *arg);

struct ios_sim {
	uint64_t now;
	struct ios_evq evq;
	uint64_t nr_events;		/* events run so far */
	bool stop;
	int error;			/* first error an event handler reported */
	ios_sim_tick_fn tick;		/* optional observer; NULL: none */
	void *tick_arg;
	uint64_t tick_every;		/* events between calls (> 0 with tick) */
	uint64_t next_tick;		/* nr_events at the next call */
	ios_sim_quiet_fn quiet;		/* optional end test; NULL: none */
	void *quiet_arg;
};

int ios_sim_init(struct ios_sim *s) IOS_MUST_CHECK;
void ios_sim_destroy(struct ios_sim *s);
/* Install (or with @fn NULL remove) the observer, called every @every events. */
void ios_sim_set_tick(struct ios_sim *s, ios_sim_tick_fn fn, void *arg, uint64_t every);
/*
 * Install (or with @fn NULL remove) the end test: whenever exactly one event
 * is queued, ios_sim_run asks @fn(@arg) before running it, and stops if it
 * says true. The runner uses it for a kernel timer that goes on ticking on
 * an idle queue after the workload is over (blk-wbt's window, Linux 6.12
 * wb_timer_fn: see src/run/run.c run_quiet), which would otherwise keep
 * the loop, and the simulated clock, running forever.
 */
void ios_sim_set_quiet(struct ios_sim *s, ios_sim_quiet_fn fn, void *arg);
/* Schedule @fn(@arg, @data) at @when (>= now). -ENOMEM on failure (sim->error set). */
int ios_sim_at(struct ios_sim *s, uint64_t when, ios_event_fn fn, void *arg, uint64_t data);
/*
 * Run events in order until the queue is empty, ios_sim_stop() is called,
 * the end test (ios_sim_set_quiet) says the one event left need not run, or
 * the next event is later than @until (then now = @until). Returns 0 or the
 * first error recorded in sim->error.
 */
int ios_sim_run(struct ios_sim *s, uint64_t until);
static inline void ios_sim_stop(struct ios_sim *s)
{
	s->stop = true;
}

/*
 * A re-armable timer: arm() schedules @fn with the timer's new generation in
 * @data; the handler must start with ios_timer_fire(t, data) and return if it
 * is false. The timer has at most one entry in the queue: re-arming moves it
 * and cancelling removes it, so no stale event is ever popped (the
 * generation check stays as a guard). The timer must not move in memory
 * while armed (the queue points at it).
 */
struct ios_timer {
	uint64_t gen;
	uint64_t when;			/* IOS_NO_WAKEUP when not armed */
	struct ios_evq *q;		/* the queue it was last armed on */
	size_t pos;			/* its slot in q's heap + 1; 0: not queued */
};

static inline void ios_timer_init(struct ios_timer *t)
{
	t->gen = 0;
	t->when = IOS_NO_WAKEUP;
	t->q = NULL;
	t->pos = 0;
}

/* Arm (or re-arm) for @when; a no-op if already armed for exactly @when. */
int ios_timer_arm(struct ios_sim *s, struct ios_timer *t, uint64_t when, ios_event_fn fn, void *arg);
static inline void ios_timer_cancel(struct ios_timer *t)
{
	t->gen++;
	t->when = IOS_NO_WAKEUP;
	if (t->pos)
		ios_evq_remove(t->q, t->pos - 1);
}

static inline bool ios_timer_fire(struct ios_timer *t, uint64_t data)
{
	if (data != t->gen || t->when == IOS_NO_WAKEUP)
		return false;
	t->when = IOS_NO_WAKEUP;
	return true;
}

#ifdef __cplusplus
}
#endif

#endif
