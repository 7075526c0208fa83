/*
 * --status-interval: the report while the jobs run, every interval of
 * SIMULATED time (fio counts wall-clock time; a simulation has none worth
 * counting), handed to the caller's ios_run_status_fn.
 *
 * Each report is what fio's __show_running_run_stats prints: every job as
 * it stands, a running job measured up to now (its runtime so far), one
 * not started with nothing, group_reporting applied, and the disk's
 * counters so far. The snapshot is a deep copy: the run goes on untouched.
 */
#include <stdlib.h>
#include <string.h>
#include "run_int.h"

static void status_job_now(const struct run_task *t, struct ios_job_result *r, uint64_t now)
{
	uint64_t begin = t->ramp_end_ns < now ? t->ramp_end_ns : now;

	if (t->state == TS_NEW || t->state == TS_DONE)
		return;
	r->finish_ns = now;
	r->runtime_ns = now - begin;
	for (int d = 0; d < 2; d++)
		if (t->dir_used[d])
			r->dir[d].runtime_ns = r->runtime_ns;
	if (ios_rw_has_trim(t->job->rw) && r->trim)
		r->trim->runtime_ns = r->runtime_ns;
}

static int status_snapshot(struct run_ctx *c, uint64_t now, struct ios_run_result *s)
{
	memset(s, 0, sizeof(*s));
	s->jobs = calloc(c->nr_tasks, sizeof(*s->jobs));
	s->disks = calloc(1, sizeof(*s->disks));
	if (!s->jobs || !s->disks)
		return -ENOMEM;
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *t = &c->tasks[i];
		struct ios_job_result *r = &s->jobs[i];
		/* (the live result gets its steady-state block at the end: made here) */
		int ret;

		/* the windows that ended by now, as a timer would have sampled them */
		if (t->state != TS_NEW && t->state != TS_DONE)
			ios_run_sample_sync(t, now);
		ret = ios_job_result_copy(r, t->res);

		s->nr_jobs = i + 1;
		if (ret || ios_run_ss_result(t, r))
			return -ENOMEM;
		status_job_now(t, r, now);
		r->cgroup = *t->ioc.cgroup->path ? t->job->cgroup : NULL;
	}
	ios_queue_stats_update(c->q, now);
	s->nr_disks = ios_run_disk_util(c->jf) ? 1 : 0;
	ios_run_collect_disk(c, &s->disks[0], now);
	s->jobfile = c->jf;
	snprintf(s->scheduler, sizeof(s->scheduler), "%s", c->q->sched->name);
	snprintf(s->device, sizeof(s->device), "%s",
		 c->cfg->device ? c->cfg->device : IOS_DEV_DEFAULT_PROFILE);
	s->seed = c->cfg->seed;
	s->sim_end_ns = now;
	s->nr_events = c->sim->nr_events;
	return ios_run_result_group(s);
}

/*
 * The periodic observers (steady state, status) tick again only while
 * something else may still happen: another event is pending, and some job
 * not done may run until @next. In a stall (an I/O that never completes)
 * they would otherwise tick on to the clock's end instead of letting the
 * run stop and say so.
 */
bool ios_run_ticks_wanted(const struct run_ctx *c, uint64_t next)
{
	size_t mine = (c->ss_timer.when != IOS_NO_WAKEUP) + (c->status_timer.when != IOS_NO_WAKEUP);
	uint64_t last = 0;

	if (c->all_done || c->sim->evq.n <= mine)
		return false;
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const struct run_task *t = &c->tasks[i];

		if (t->state == TS_NEW)
			return true;
		if (t->state != TS_DONE && t->deadline_ns > last)
			last = t->deadline_ns;
	}
	return next <= last;
}

static void status_tick(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_ctx *c = arg;
	struct ios_run_result snap;
	int ret;

	if (!ios_timer_fire(&c->status_timer, data) || c->all_done || c->replay_err.code)
		return;
	ret = status_snapshot(c, sim->now, &snap);
	if (!ret)
		ret = c->cfg->status(c->cfg->status_arg, &snap);
	ios_run_result_free(&snap);
	if (ret) {
		/*
		 * the run ends with the error: run_loop reports the one kept here.
		 * The jobs stop as on a signal, their I/O in flight completing:
		 * stopping the clock instead left requests in the queue, and its
		 * teardown aborted ("BUG at block.c"), as a full disk under the
		 * streamed reports showed.
		 */
		IOS_ERR(&c->replay_err, ret, "--status-interval: the report at %.3f s could not "
			"be written: %s", (double)sim->now / 1e9, strerror(-ret));
		ios_run_jobctl_stop_all(c, sim->now);
		return;
	}
	if (ios_run_ticks_wanted(c, sim->now + c->cfg->status_every_ns))
		(void)ios_timer_arm(c->sim, &c->status_timer, sim->now + c->cfg->status_every_ns,
				    status_tick, c);
}

void ios_run_status_start(struct run_ctx *c, uint64_t now)
{
	ios_timer_init(&c->status_timer);
	if (c->cfg->status && c->cfg->status_every_ns)
		(void)ios_timer_arm(c->sim, &c->status_timer, now + c->cfg->status_every_ns,
				    status_tick, c);
}
