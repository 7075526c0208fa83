/*
 * flow=: fio's token counters between jobs (flow.c in fio 3.33).
 *
 * The jobs with the same flow_id and a flow weight share a counter that
 * starts at 1; each keeps its own. Before each I/O a job compares its share
 * of the shared counter with its share of the weights: while it is ahead it
 * is held back, otherwise both counters go up by one and the I/O goes. So
 * the I/O counts of the members stay in the ratio of their weights.
 *
 * Held back, a job with flow_sleep waits for its I/O in flight and then
 * sleeps that long; one without spins in fio, re-checking at once. Here it
 * sleeps until another member of its flow moves a counter (or its runtime
 * ends), which is when the spin would see a change; it reaps nothing in
 * the meantime, as the spinning loop does not.
 *
 * A job joins its flow when the job file is read (fio: add_job), so the
 * weights of jobs not yet started count, and leaves when it ends, taking
 * its tokens and its weight with it.
 */
#include <stdlib.h>
#include "run_int.h"

struct run_flow {
	unsigned id;
	uint64_t counter;		/* fio's flow->flow_counter */
	uint64_t total_weight;
	struct run_task *members;	/* every task of the flow, by flow_next */
	struct run_flow *next;
};

static struct run_flow *flow_get(struct run_ctx *c, unsigned id)
{
	struct run_flow *f, **tail = &c->flows;

	for (f = c->flows; f; tail = &f->next, f = f->next)
		if (f->id == id)
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->id = id;
	f->counter = 1;
	*tail = f;
	return f;
}

int ios_run_flow_setup(struct run_ctx *c, struct ios_err *e)
{
	for (unsigned i = c->nr_tasks; i-- > 0;) {
		struct run_task *t = &c->tasks[i];
		struct run_flow *f;

		if (!t->job->flow || t->replay)
			continue;
		f = flow_get(c, t->job->flow_id);
		if (!f)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		t->flow = f;
		t->flow_next = f->members;
		f->members = t;
		f->total_weight += t->job->flow;
	}
	return 0;
}

void ios_run_flow_free(struct run_ctx *c)
{
	while (c->flows) {
		struct run_flow *f = c->flows;

		c->flows = f->next;
		free(f);
	}
}

/* A counter moved or a member left: the members waiting on the flow look again. */
static void flow_wake(struct run_flow *f, const struct run_task *self, uint64_t now)
{
	for (struct run_task *m = f->members; m; m = m->flow_next) {
		if (m == self || !m->flow_blocked)
			continue;
		m->flow_blocked = false;
		ios_run_task_wake(m, now);
	}
}

bool ios_run_flow_held(struct run_task *t)
{
	struct run_flow *f = t->flow;

	/* (double)mine / shared > (double)weight / total, without the division */
	if ((__uint128_t)t->flow_counter * f->total_weight >
	    (__uint128_t)t->job->flow * f->counter)
		return true;
	f->counter++;
	t->flow_counter++;
	flow_wake(f, t, t->ctx->sim->now);
	return false;
}

void ios_run_flow_block(struct run_task *t)
{
	t->flow_blocked = true;
}

void ios_run_flow_exit(struct run_task *t, uint64_t now)
{
	struct run_flow *f = t->flow;

	f->counter -= t->flow_counter;
	f->total_weight -= t->job->flow;
	t->flow_counter = 0;
	t->flow_blocked = false;
	t->flow = NULL;
	flow_wake(f, t, now);
}
