/*
 * Job control: when jobs may start and what a job's end stops.
 *
 * wait_for=NAME: a job's start (after its startdelay, within its stonewall
 * phase) waits until every clone of the job NAME has finished, as fio's
 * run_threads skips a job while its waitee runs. NAME must be an earlier
 * job's, and unique; fio refuses anything else at parse time.
 *
 * exitall: fio sets one global flag when any job has it, and from then on
 * every job's end stops what that job's exit_what names (fio's
 * fio_terminate_threads): group, the jobs of its reporting group; stonewall,
 * the jobs running now (the next stonewall phase still starts); all, every
 * job. A job stopped before it started never runs: it is reported with no
 * I/O, as fio reports it.
 *
 * The options of fio's tiobench profile (threads=, dir=, ...) are accepted
 * anywhere, as fio 3.33 accepts them, and noted here: without
 * --profile=tiobench they change nothing.
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"

static const char *jc_file(const struct ios_job *j)
{
	return j->file ? j->file : "?";
}

/* wait_for: the waitee's clones, checked as fio's wait_for_ok does. */
static int jc_waitee(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	const char *f = j->wait_for_file ? j->wait_for_file : jc_file(j);
	int line = j->wait_for_file ? j->wait_for_line : j->line;
	const struct ios_job *found = NULL;
	unsigned first = 0, n = 0;

	if (!strcmp(j->wait_for, j->name ? j->name : ""))
		return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': wait_for=%s: a job cannot wait for "
			       "itself", f, line, j->name, j->wait_for);
	for (unsigned i = 0; i < t->index; i++) {
		const struct ios_job *w = c->tasks[i].job;

		if (w == j || strcmp(w->name ? w->name : "", j->wait_for))
			continue;
		if (found && found != w)
			return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': wait_for=%s: more than one job "
				       "has that name (fio: give the waitee a unique name)", f, line,
				       j->name, j->wait_for);
		if (!found)
			first = i;
		found = w;
		n++;
	}
	if (!found)
		return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': wait_for=%s: no job of that name "
			       "before this one (fio: \"waitee job unknown\"; the waitee must "
			       "come first)", f, line, j->name, j->wait_for);
	t->waitee = &c->tasks[first];
	t->nr_waitee = n;
	return 0;
}

/* One note for the run, at the first job that sets them, counting the others. */
static int jc_notes(struct run_ctx *c, const struct ios_job *j)
{
	char names[64] = "", more[48] = "";
	unsigned others = 0;

	for (unsigned b = 0; b < IOS_ARRAY_SIZE(ios_job_profopt_names); b++)
		if (j->profile_opts & (1u << b))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", ios_job_profopt_names[b]);
	for (size_t k = 0; k < c->jf->nr_jobs; k++) {
		const struct ios_job *o = &c->jf->jobs[k];

		if (o == j)
			break;
		if (o->profile_opts)
			names[0] = 0;	/* noted at that job */
	}
	for (size_t k = 0; k < c->jf->nr_jobs; k++)
		others += c->jf->jobs[k].profile_opts && &c->jf->jobs[k] != j;
	if (others)
		snprintf(more, sizeof(more), " (and %u more job%s)", others, others > 1 ? "s" : "");
	if (names[0] && ios_run_warn(c->res, "%s:%d: job '%s'%s: %s: options of fio's tiobench "
				     "profile, no effect without --profile=tiobench (fio 3.33 "
				     "accepts them in any job; iosched has no --profile)",
				     jc_file(j), j->line, j->name, more, names))
		return -ENOMEM;
	if ((j->deprecated_opts & IOS_DEPR_FLOW_WATERMARK) &&
	    ios_run_warn(c->res, "%s:%d: job '%s': option flow_watermark is deprecated (fio 3.33 "
			 "ignores it, and so does iosched)", jc_file(j), j->line, j->name))
		return -ENOMEM;
	if ((j->deprecated_opts & IOS_DEPR_WRITE_BARRIER) &&
	    ios_run_warn(c->res, "%s:%d: job '%s': write_barrier: fio 3.33 marks every Nth "
			 "write a barrier and no engine of it reads the mark, so it has no "
			 "effect there, nor here", jc_file(j), j->line, j->name))
		return -ENOMEM;
	return 0;
}

int ios_run_jobctl_setup(struct run_ctx *c, struct ios_err *e)
{
	int ret;

	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *t = &c->tasks[i];

		if (t->job->exitall)
			c->exitall = true;
		if (t->job->wait_for && (ret = jc_waitee(c, t, e)))
			return ret;
		if (t->waitee)
			c->nr_waiters++;
		if (!t->clone && jc_notes(c, t->job))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	ret = ios_run_flow_setup(c, e);
	if (!ret)
		ret = ios_run_ss_setup(c, e);
	return ret;
}

void ios_run_jobctl_free(struct run_ctx *c)
{
	ios_run_flow_free(c);
	ios_run_ss_free(c);
}

static bool jc_waitee_done(const struct run_task *t)
{
	for (unsigned k = 0; k < t->nr_waitee; k++)
		if (t->waitee[k].state != TS_DONE)
			return false;
	return true;
}

bool ios_run_jobctl_may_start(struct run_task *t, uint64_t now)
{
	(void)now;
	if (t->started)
		return false;
	if (!t->terminated && t->waitee && !jc_waitee_done(t)) {
		t->held = true;
		return false;
	}
	t->held = false;
	t->started = true;
	t->ctx->nr_starts++;
	return true;
}

/* exitall stops @t: a running job stops issuing, one not yet started never runs. */
static void jc_terminate(struct run_ctx *c, struct run_task *t, uint64_t now)
{
	if (t->state == TS_DONE)
		return;
	if (t->started) {
		ios_run_task_stop_now(t, now);
		return;
	}
	t->terminated = true;
	/* fio zeroes the start delay of a job it terminates: its start is now */
	if (t->phase == c->cur_phase) {
		t->started = true;
		t->held = false;
		c->nr_starts++;
		c->running++;
		ios_run_task_start_dead(t, now);
	}
}

/* The first task of reporting group @gid: groupids never decrease with the index (plan.c). */
static unsigned jc_group_first(const struct run_ctx *c, int gid)
{
	unsigned lo = 0, hi = c->nr_tasks;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (c->tasks[mid].res->groupid < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * fio_terminate_threads for @t's exit_what. Each kind of stop is made once
 * while it can find something new: all, once; a group, once; stonewall,
 * again only after another job started. What it stopped stays stopped.
 */
static void jc_exit_what(struct run_ctx *c, struct run_task *t, uint64_t now)
{
	unsigned from = 0, to = c->nr_tasks;

	if (c->exit_swept_all)
		return;
	switch (t->job->exit_what) {
	case IOS_EXIT_ALL:
		c->exit_swept_all = true;
		break;
	case IOS_EXIT_GROUP:
		from = jc_group_first(c, t->res->groupid);
		if (c->tasks[from].exit_group_swept)
			return;
		c->tasks[from].exit_group_swept = true;
		for (to = from; to < c->nr_tasks && c->tasks[to].res->groupid == t->res->groupid; to++)
			;
		break;
	case IOS_EXIT_STONEWALL:
		if (c->stonewall_swept_at == c->nr_starts)
			return;
		break;
	}
	for (unsigned i = from; i < to; i++) {
		struct run_task *o = &c->tasks[i];

		if (o == t || o->state == TS_DONE)
			continue;
		if (t->job->exit_what != IOS_EXIT_STONEWALL || o->started)
			jc_terminate(c, o, now);
	}
	/* (after the loop: stopping a job of this phase before its start starts it) */
	if (t->job->exit_what == IOS_EXIT_STONEWALL)
		c->stonewall_swept_at = c->nr_starts;
}

/*
 * A signal under --real: every job stops, as fio_terminate_threads(TERMINATE_ALL)
 * from fio's sig_int. Running jobs stop issuing and end when their I/O has
 * completed; jobs not started yet (a later stonewall phase) end with none.
 */
void ios_run_jobctl_stop_all(struct run_ctx *c, uint64_t now)
{
	c->exit_swept_all = true;
	for (unsigned i = 0; i < c->nr_tasks; i++)
		jc_terminate(c, &c->tasks[i], now);
}

void ios_run_jobctl_finished(struct run_ctx *c, struct run_task *t, uint64_t now)
{
	if (t->flow)
		ios_run_flow_exit(t, now);
	/* fio's thread_main: exitall, or exitall_on_error after an error of this job */
	if (c->exitall || (t->job->exitall_on_error && t->failed))
		jc_exit_what(c, t, now);
	/*
	 * waiters whose waitee just ended (one of them may be this job) start
	 * now; without any wait_for the scan would make the finishes of N jobs
	 * cost N^2
	 */
	for (unsigned i = t->index + 1; c->nr_waiters && i < c->nr_tasks; i++) {
		struct run_task *w = &c->tasks[i];

		if (w->held && w->waitee && w->waitee->job == t->job && jc_waitee_done(w) &&
		    ios_run_jobctl_may_start(w, now)) {
			c->running++;
			ios_run_cgroups_prerun(w, now);
			ios_run_task_start(w, now);
		}
	}
}
