/*
 * The simulator loop: pop the earliest event, advance the clock to it, run
 * it. Handlers schedule further events. Time never goes backwards; an
 * attempt to schedule in the past is a bug in the caller.
 */
#include <inttypes.h>
#include "iosched/sim.h"

int ios_sim_init(struct ios_sim *s)
{
	s->now = 0;
	s->nr_events = 0;
	s->stop = false;
	s->error = 0;
	s->tick = NULL;
	s->tick_arg = NULL;
	s->tick_every = 0;
	s->next_tick = UINT64_MAX;
	s->quiet = NULL;
	s->quiet_arg = NULL;
	return ios_evq_init(&s->evq, 1024);
}

void ios_sim_set_tick(struct ios_sim *s, ios_sim_tick_fn fn, void *arg, uint64_t every)
{
	s->tick = fn;
	s->tick_arg = arg;
	s->tick_every = fn ? (every ? every : 1) : 0;
	/* without an observer next_tick is never reached: one compare per event */
	s->next_tick = fn ? s->nr_events + s->tick_every : UINT64_MAX;
}

void ios_sim_set_quiet(struct ios_sim *s, ios_sim_quiet_fn fn, void *arg)
{
	s->quiet = fn;
	s->quiet_arg = arg;
}

void ios_sim_destroy(struct ios_sim *s)
{
	ios_evq_destroy(&s->evq);
}

int ios_sim_at(struct ios_sim *s, uint64_t when, ios_event_fn fn, void *arg, uint64_t data)
{
	int ret;

	IOS_BUG_ON_MSG(when < s->now, "event scheduled in the past: at %" PRIu64
		       " ns, the clock is at %" PRIu64 " ns", when, s->now);
	ret = ios_evq_push(&s->evq, when, fn, arg, data);
	if (ret && !s->error)
		s->error = ret;
	return ret;
}

int ios_sim_run(struct ios_sim *s, uint64_t until)
{
	struct ios_event ev;

	s->stop = false;
	while (!s->stop && !s->error) {
		/* one event left: it may be a timer that would tick on forever */
		if (s->evq.n == 1 && s->quiet && s->quiet(s, s->quiet_arg))
			break;
		if (ios_evq_peek_time(&s->evq) > until) {
			if (until != IOS_NO_WAKEUP && until > s->now)
				s->now = until;
			break;
		}
		if (!ios_evq_pop(&s->evq, &ev))
			break;
		/* ios_sim_at refuses the past, so only a broken queue gets here */
		IOS_BUG_ON_MSG(ev.time < s->now, "simulated clock would run backwards: event at %"
			       PRIu64 " ns popped at %" PRIu64 " ns", ev.time, s->now);
		s->now = ev.time;
		s->nr_events++;
		ev.fn(s, ev.arg, ev.data);
		if (s->nr_events >= s->next_tick) {
			s->next_tick = s->nr_events + s->tick_every;
			s->tick(s, s->tick_arg);
		}
	}
	return s->error;
}

int ios_timer_arm(struct ios_sim *s, struct ios_timer *t, uint64_t when, ios_event_fn fn, void *arg)
{
	int ret;

	if (t->when == when)
		return 0;
	t->gen++;
	t->when = when;
	if (when == IOS_NO_WAKEUP) {
		if (t->pos)
			ios_evq_remove(t->q, t->pos - 1);
		return 0;
	}
	IOS_BUG_ON_MSG(when < s->now, "timer armed in the past: at %" PRIu64
		       " ns, the clock is at %" PRIu64 " ns", when, s->now);
	IOS_BUG_ON_MSG(t->pos && t->q != &s->evq, "timer re-armed on another loop");
	ret = ios_evq_push_timer(&s->evq, t, when, fn, arg, t->gen);
	if (ret && !s->error)
		s->error = ret;
	return ret;
}
