/*
 * Helpers shared by the kyber unit tests (sched_kyber_*.c): requests of a
 * chosen operation, CPU and hardware queue, a queue with several hardware
 * queues and CPUs, a request's whole life at chosen times, the read-only
 * statistics (token pools, tokens held) and the owner events. They drive
 * the scheduler's hooks directly with a fake clock (tests/harness.h t_sq).
 */
#ifndef IOSCHED_TEST_SCHED_KYBER_UTIL_H
#define IOSCHED_TEST_SCHED_KYBER_UTIL_H

#include <string.h>
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)
#define US ((uint64_t)IOS_NSEC_PER_USEC)

/* IOS_WRITE in bit 31 of limit_depth's opf (sched.h) */
#define KY_OPF_WRITE (1u << 31)

static inline const struct ios_sched_mq_ops *ky_mo(struct t_sq *s)
{
	return ios_sched_mq_ops(s->type);
}

static inline int64_t ky_stat(struct t_sq *s, const char *name)
{
	const struct ios_tunable *t = ios_tunable_find(s->type->stats, name);

	if (!t) {
		fprintf(stderr, "no kyber stat %s\n", name);
		abort();
	}
	return ios_tunable_get_int(t, s->q.sched_data);
}

/*
 * kyber on a queue of @nr_hw hardware queues and @nr_cpus CPUs (t_sq_new
 * makes 1 and 1: the scheduler is set up again as the core would, init,
 * every init_hctx, depth_updated). Extra settings: NAME=VALUE or NULL.
 */
static inline struct t_sq *ky_new(unsigned nr_hw, unsigned nr_cpus, const char *kv)
{
	struct t_sq *s = t_sq_new("kyber", 64, 0, kv, NULL);
	struct ios_err e = { 0 };

	if (!s)
		abort();
	if (nr_hw == 1 && nr_cpus == 1)
		return s;
	s->type->ops.exit(&s->q);
	memset(s->q.sched_data, 0, s->type->priv_size);
	if (ios_tunable_defaults(s->type->tunables, s->q.sched_data, &e))
		abort();
	if (kv) {
		char name[64];
		const char *eq = strchr(kv, '=');

		memcpy(name, kv, (size_t)(eq - kv));
		name[eq - kv] = '\0';
		if (ios_tunable_set_by_name(s->type->tunables, s->q.sched_data, name, eq + 1,
					    "test", "", &e))
			abort();
	}
	s->q.nr_hw_queues = nr_hw;
	s->q.nr_cpus = nr_cpus;
	if (s->type->ops.init(&s->q))
		abort();
	for (unsigned h = 0; h < nr_hw; h++)
		if (ky_mo(s)->init_hctx(&s->q, h))
			abort();
	ky_mo(s)->depth_updated(&s->q);
	return s;
}

/* A request of @dir with @flags from CPU @cpu on hardware queue @hctx, allocated at @now. */
static inline struct ios_request *ky_rq(struct t_sq *s, uint64_t sector, uint32_t nr_sectors,
					int dir, uint32_t flags, unsigned cpu, unsigned hctx,
					uint64_t now)
{
	struct ios_request *rq = t_sq_rq(s, sector, nr_sectors, dir, flags);

	rq->mq_ctx = (uint16_t)cpu;
	rq->mq_hctx = (uint16_t)hctx;
	rq->alloc_ns = rq->insert_ns = now;
	return rq;
}

static inline struct ios_request *ky_insert(struct t_sq *s, uint64_t sector, uint32_t nr_sectors,
					    int dir, uint32_t flags, uint64_t now)
{
	struct ios_request *rq = ky_rq(s, sector, nr_sectors, dir, flags, 0, 0, now);

	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, rq, now, 0);
	return rq;
}

/* dispatch_hctx(@hctx) with t_sq's bookkeeping; NULL: nothing */
static inline struct ios_request *ky_dispatch(struct t_sq *s, unsigned hctx, uint64_t now)
{
	struct ios_request *rq = ky_mo(s)->dispatch_hctx(&s->q, hctx, now);

	if (!rq)
		return NULL;
	s->q.nr_sorted--;
	s->q.rq_in_driver++;
	s->q.in_flight[ios_rq_is_sync(rq)]++;
	rq->dispatch_ns = now;
	return rq;
}

/*
 * One request's whole life, alone in the scheduler: allocated and inserted
 * at @alloc, issued at @issue, completed at @done. Total latency
 * @done - @alloc, I/O latency @done - @issue. NULL if it did not dispatch.
 */
static inline struct ios_request *ky_life(struct t_sq *s, int dir, uint32_t flags, uint64_t alloc,
					  uint64_t issue, uint64_t done)
{
	struct ios_request *rq = ky_insert(s, 1000, 8, dir, flags, alloc);

	if (ky_dispatch(s, 0, issue) != rq)
		return NULL;
	t_sq_complete(s, rq, done);
	return rq;
}

/* @n lives of @dir, each with total latency @total and I/O latency @io, ending at @done */
static inline int ky_lives(struct t_sq *s, int dir, unsigned n, uint64_t total, uint64_t io,
			   uint64_t done)
{
	if (total > done || io > total)
		return -1;	/* times before 0, or issued before allocated */
	for (unsigned i = 0; i < n; i++)
		if (!ky_life(s, dir, 0, done - total, done - io, done))
			return -1;
	return 0;
}

/* Fire the scheduler's timer at @now, as the block layer would at next_wakeup(). */
static inline void ky_fire(struct t_sq *s, uint64_t now)
{
	s->type->ops.timer(&s->q, now);
}

/* owner events recorded (IOS_OWN_DEPTH) */
struct ky_owner_log {
	unsigned n;
	uint64_t at[64];
	int ev[64], reason[64];
};

static inline void ky_owner_note(void *priv, uint64_t now, uint32_t pid, enum ios_owner_event ev,
				 int reason)
{
	struct ky_owner_log *l = priv;

	(void)pid;
	if (l->n < 64) {
		l->at[l->n] = now;
		l->ev[l->n] = ev;
		l->reason[l->n] = reason;
		l->n++;
	}
}

static inline void ky_owner_dispatch(void *priv, const struct ios_request *rq, uint64_t now)
{
	(void)priv, (void)rq, (void)now;
}

static const struct ios_owner_ops ky_owner_ops = {
	.note = ky_owner_note,
	.dispatch = ky_owner_dispatch,
};

#endif
