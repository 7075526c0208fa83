/*
 * Steady state (steadystate=, steadystate_duration=, steadystate_ramp_time=):
 * a job ends once its rate has stopped moving, as fio 3.33's steadystate.c
 * decides it, in simulated time.
 *
 * Every second of the run (fio's helper thread ticks every 1000 ms from
 * its start; here at 1 s, 2 s, ... of simulated time) each running job
 * with a duration adds the bytes and I/Os it completed since its last tick,
 * as per-second rates, to its reporting group's sums (with group_reporting;
 * its own without). The job that holds the window of samples (every job,
 * or with group_reporting the group's last) puts the sums in its window of
 * steadystate_duration seconds, once the ramp (steadystate_ramp_time plus
 * one second) is over. With the window full the criterion is computed:
 * iops / bw, the largest distance of a sample from the window's mean;
 * iops_slope / bw_slope, the least-squares slope of the samples over their
 * index; a '%' limit divides either by the mean. Below the limit, the job
 * (with group_reporting, every job of its group) stops, with its steady
 * state attained.
 *
 * The arithmetic is fio's, unsigned 64-bit sums included, so that the same
 * samples give the same verdict; rates are integer bytes/s and IOPS as
 * fio's (1000 * delta / elapsed milliseconds).
 */
#include <stdlib.h>
#include <string.h>
#include "run_int.h"

#define SS_TICK_NS	IOS_NSEC_PER_SEC

struct run_ss {
	unsigned state;			/* IOS_SS_* */
	unsigned dur;
	double limit;
	uint64_t ramp_ns;
	unsigned head, tail;
	uint64_t *iops_data, *bw_data;	/* dur each, with IOS_SS_DATA */
	double slope, deviation, criterion;
	uint64_t sum_y, sum_x, sum_x_sq, sum_xy, oldest_y;
	uint64_t epoch_ns, prev_ns, prev_ios, prev_bytes;
};

static const char *ss_file(const struct ios_job *j)
{
	return j->file ? j->file : "?";
}

static void ss_alloc(struct run_ss *ss, int *err)
{
	ss->bw_data = calloc(ss->dur, sizeof(*ss->bw_data));
	ss->iops_data = calloc(ss->dur, sizeof(*ss->iops_data));
	if (!ss->bw_data || !ss->iops_data)
		*err = -ENOMEM;
	ss->state |= IOS_SS_DATA;
}

static bool ss_same(const struct ios_job *a, const struct ios_job *b)
{
	unsigned sa = a->ss_dur_ns ? a->ss_state : 0, sb = b->ss_dur_ns ? b->ss_state : 0;

	return a->ss_dur_ns == b->ss_dur_ns && sa == sb &&
	       (!a->ss_dur_ns || (a->ss_limit == b->ss_limit && a->ss_ramp_ns == b->ss_ramp_ns));
}

int ios_run_ss_setup(struct run_ctx *c, struct ios_err *e)
{
	struct run_task *prev = NULL, **first;
	int prev_gid = -1, err = 0, min_gid = 0, max_gid = 0;

	for (unsigned i = 0; i < c->nr_tasks; i++) {
		int g = c->tasks[i].res->groupid;

		if (!i || g < min_gid)
			min_gid = g;
		if (!i || g > max_gid)
			max_gid = g;
	}
	/* each group's first job: the one a job that differs is named against */
	first = c->nr_tasks ? calloc((size_t)(max_gid - min_gid) + 1, sizeof(*first)) : NULL;
	if (c->nr_tasks && !first)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *t = &c->tasks[i];
		const struct ios_job *j = t->job;
		struct run_task **f = &first[t->res->groupid - min_gid];
		struct run_ss *ss;

		/*
		 * fio: a reporting group's jobs agree on steady state, or the
		 * job is rejected. ss_same is an equality, so the group's
		 * first job stands for all before this one (all agreed with
		 * it), and is the earliest that differs if any does.
		 */
		if (!*f) {
			*f = t;
		} else if (!ss_same((*f)->job, j)) {
			const char *other = (*f)->job->name;

			free(first);
			return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': steadystate options "
				       "must be the same for every job of a reporting group "
				       "(job '%s' differs; fio rejects the job)", ss_file(j),
				       j->line, j->name, other);
		}
		if (!j->ss_dur_ns || t->replay)
			continue;
		ss = t->ss = calloc(1, sizeof(*ss));
		if (!ss) {
			free(first);
			return IOS_ERR(e, -ENOMEM, "out of memory");
		}
		c->ss_any = true;
		ss->dur = (unsigned)(j->ss_dur_ns / IOS_NSEC_PER_SEC);
		ss->limit = j->ss_limit;
		ss->ramp_ns = j->ss_ramp_ns;
		ss->state = j->ss_state;
		if (!ss->ramp_ns)
			ss->state |= IOS_SS_RAMP_OVER;
		ss->sum_x = (uint64_t)ss->dur * (ss->dur - 1) / 2;
		ss->sum_x_sq = (uint64_t)(ss->dur - 1) * ss->dur * (2 * ss->dur - 1) / 6;
		/* the window: every job's, or with group_reporting the group's last job's */
		if (!j->group_reporting) {
			ss_alloc(ss, &err);
			continue;
		}
		if (prev_gid != t->res->groupid) {
			if (prev)
				ss_alloc(prev->ss, &err);
			prev_gid = t->res->groupid;
		}
		prev = t;
	}
	free(first);
	if (prev && prev->job->group_reporting)
		ss_alloc(prev->ss, &err);
	return err ? IOS_ERR(e, err, "out of memory") : 0;
}

void ios_run_ss_free(struct run_ctx *c)
{
	for (unsigned i = 0; c->tasks && i < c->nr_tasks; i++) {
		struct run_ss *ss = c->tasks[i].ss;

		if (!ss)
			continue;
		free(ss->bw_data);
		free(ss->iops_data);
		free(ss);
		c->tasks[i].ss = NULL;
	}
}

void ios_run_ss_task_start(struct run_task *t, uint64_t now)
{
	if (t->ss)
		t->ss->epoch_ns = t->ss->prev_ns = now;
}

/* The window moves on by one sample. */
static void ss_advance(struct run_ss *ss)
{
	ss->tail = (ss->tail + 1) % ss->dur;
	if (ss->tail <= ss->head)
		ss->head = (ss->head + 1) % ss->dur;
}

static bool ss_window_full(const struct run_ss *ss)
{
	return (ss->state & IOS_SS_BUFFER_FULL) || ss->tail - ss->head == ss->dur - 1;
}

static uint64_t ss_val(const struct run_ss *ss, unsigned i)
{
	return (ss->state & IOS_SS_IOPS) ? ss->iops_data[i] : ss->bw_data[i];
}

static bool ss_slope(struct run_ss *ss, uint64_t iops, uint64_t bw)
{
	uint64_t new_val = (ss->state & IOS_SS_IOPS) ? iops : bw;
	double result;

	ss->bw_data[ss->tail] = bw;
	ss->iops_data[ss->tail] = iops;
	if (ss_window_full(ss)) {
		if (!(ss->state & IOS_SS_BUFFER_FULL)) {
			ss->sum_y = 0;
			for (unsigned i = 0; i < ss->dur; i++) {
				ss->sum_y += ss_val(ss, i);
				ss->sum_xy += i * ss_val(ss, (ss->head + i) % ss->dur);
			}
			ss->state |= IOS_SS_BUFFER_FULL;
		} else {
			ss->sum_y -= ss->oldest_y;
			ss->sum_y += new_val;
			ss->sum_xy = ss->sum_xy - ss->sum_y + ss->dur * new_val;
		}
		ss->oldest_y = ss_val(ss, ss->head);
		/* all x equally spaced, as fio assumes */
		ss->slope = ((double)ss->sum_xy - (double)ss->sum_x * (double)ss->sum_y / ss->dur) /
			    ((double)ss->sum_x_sq - (double)ss->sum_x * (double)ss->sum_x / ss->dur);
		ss->criterion = (ss->state & IOS_SS_PCT)
				? 100.0 * ss->slope / ((double)(ss->sum_y / ss->dur)) : ss->slope;
		result = ss->criterion < 0.0 ? -ss->criterion : ss->criterion;
		if (result < ss->limit)
			return true;
	}
	ss_advance(ss);
	return false;
}

static bool ss_deviation(struct run_ss *ss, uint64_t iops, uint64_t bw)
{
	double mean;

	ss->bw_data[ss->tail] = bw;
	ss->iops_data[ss->tail] = iops;
	if (ss_window_full(ss)) {
		if (!(ss->state & IOS_SS_BUFFER_FULL)) {
			ss->sum_y = 0;
			for (unsigned i = 0; i < ss->dur; i++)
				ss->sum_y += ss_val(ss, i);
			ss->state |= IOS_SS_BUFFER_FULL;
		} else {
			ss->sum_y -= ss->oldest_y;
			ss->sum_y += ss_val(ss, ss->tail);
		}
		ss->oldest_y = ss_val(ss, ss->head);
		mean = (double)ss->sum_y / ss->dur;
		ss->deviation = 0.0;
		for (unsigned i = 0; i < ss->dur; i++) {
			double diff = (double)ss_val(ss, i) - mean;

			if (diff < 0.0)
				diff = -diff;
			if (diff > ss->deviation)
				ss->deviation = diff;
		}
		ss->criterion = (ss->state & IOS_SS_PCT) ? 100.0 * ss->deviation / mean
							 : ss->deviation;
		if (ss->criterion < ss->limit)
			return true;
	}
	ss_advance(ss);
	return false;
}

static void ss_attained(struct run_ctx *c, struct run_task *t, uint64_t now)
{
	if (!t->job->group_reporting) {
		t->ss->state |= IOS_SS_ATTAINED;
		ios_run_task_stop_now(t, now);
		return;
	}
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *o = &c->tasks[i];

		if (o->res->groupid != t->res->groupid)
			continue;
		if (o->ss)
			o->ss->state |= IOS_SS_ATTAINED;
		ios_run_task_stop_now(o, now);
	}
}

/* fio's steadystate_check, once a second. */
static void ss_check(struct run_ctx *c, uint64_t now)
{
	uint64_t group_bw = 0, group_iops = 0;
	unsigned group_over = 0;
	int prev_gid = -1;

	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *t = &c->tasks[i];
		struct run_ss *ss = t->ss;
		uint64_t ios, bytes, ms;
		bool ret;

		if (!ss || t->state == TS_NEW || t->state == TS_DONE ||
		    (ss->state & IOS_SS_ATTAINED))
			continue;
		if (!t->job->group_reporting || t->res->groupid != prev_gid) {
			group_bw = group_iops = 0;
			group_over = 0;
		}
		prev_gid = t->res->groupid;
		/* the samples begin one second after the ramp */
		if (ss->ramp_ns && !(ss->state & IOS_SS_RAMP_OVER) &&
		    now - ss->epoch_ns >= ss->ramp_ns + IOS_NSEC_PER_SEC)
			ss->state |= IOS_SS_RAMP_OVER;
		ios = t->ios_done[IOS_READ] + t->ios_done[IOS_WRITE];
		bytes = t->bytes_done[IOS_READ] + t->bytes_done[IOS_WRITE];
		ms = (now - ss->prev_ns) / IOS_NSEC_PER_MSEC;
		if (!ms)
			continue;	/* started on this tick: no time to measure a rate over */
		ss->prev_ns = now;
		if (ss->state & IOS_SS_RAMP_OVER) {
			group_bw += 1000 * (bytes - ss->prev_bytes) / ms;
			group_iops += 1000 * (ios - ss->prev_ios) / ms;
			group_over++;
		}
		ss->prev_ios = ios;
		ss->prev_bytes = bytes;
		if ((t->job->group_reporting && !(ss->state & IOS_SS_DATA)) || !group_over)
			continue;
		ret = (ss->state & IOS_SS_SLOPE) ? ss_slope(ss, group_iops, group_bw)
						 : ss_deviation(ss, group_iops, group_bw);
		if (ret)
			ss_attained(c, t, now);
	}
}

static void ss_tick(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_ctx *c = arg;

	if (!ios_timer_fire(&c->ss_timer, data) || c->all_done)
		return;
	ss_check(c, sim->now);
	if (ios_run_ticks_wanted(c, sim->now + SS_TICK_NS))
		(void)ios_timer_arm(c->sim, &c->ss_timer, sim->now + SS_TICK_NS, ss_tick, c);
}

void ios_run_ss_start(struct run_ctx *c, uint64_t now)
{
	ios_timer_init(&c->ss_timer);
	if (c->ss_any)
		(void)ios_timer_arm(c->sim, &c->ss_timer, now + SS_TICK_NS, ss_tick, c);
}

int ios_run_ss_result(struct run_task *t, struct ios_job_result *jr)
{
	const struct run_ss *ss = t->ss;
	struct ios_ss_result *r;

	if (!ss)
		return 0;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	jr->ss = r;
	r->state = ss->state;
	r->dur = ss->dur;
	r->head = ss->head;
	r->limit = ss->limit;
	r->slope = ss->slope;
	r->deviation = ss->deviation;
	r->criterion = ss->criterion;
	/* a group's other members have no window of their own: zeros (folded away) */
	r->bw = calloc(ss->dur, sizeof(*r->bw));
	r->iops = calloc(ss->dur, sizeof(*r->iops));
	if (!r->bw || !r->iops)
		return -ENOMEM;
	if (ss->bw_data) {
		memcpy(r->bw, ss->bw_data, ss->dur * sizeof(*r->bw));
		memcpy(r->iops, ss->iops_data, ss->dur * sizeof(*r->iops));
	}
	return 0;
}
