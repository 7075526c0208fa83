/*
 * Helpers shared by the CFQ unit tests (tests/unit/sched_cfq_*.c).
 *
 * The tests drive CFQ's hooks directly on a hand-built queue (t_sq_*, no
 * block layer, no device) with a fake clock, or through the block layer
 * over the recording device (t_rig) where merging and request allocation
 * matter. They also read CFQ's private state (cfq_int.h) where the spec
 * names a number that has no other outlet: a seek mean, a think-time
 * sample count, the idle-window flag, hw_tag.
 *
 * Times are in ms unless a name says otherwise; one kernel jiffy is 1 ms.
 */
#ifndef SCHED_CFQ_UTIL_H
#define SCHED_CFQ_UTIL_H

#include <string.h>
#include "harness.h"
#include "sched/cfq_int.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)
#define US ((uint64_t)IOS_NSEC_PER_USEC)

static inline struct cfq_data *cq_data(struct t_sq *s)
{
	return s->q.sched_data;
}

/* A request from @ioc of @nr sectors at @sector, inserted at @now (with flags). */
static inline struct ios_request *cq_ins(struct t_sq *s, struct ios_ioc *ioc, uint64_t sector,
					 uint32_t nr, int dir, uint32_t flags, uint64_t now)
{
	struct ios_request *rq;

	s->ioc = ioc;
	/*
	 * The block layer stamps alloc_ns before set_request; t_sq_rq cannot,
	 * so tell CFQ the time the way that stamp would.
	 */
	cq_data(s)->now = now;
	rq = t_sq_rq(s, sector, nr, dir, flags);
	rq->alloc_ns = rq->insert_ns = now;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, rq, now, 0);
	return rq;
}

/* A sync read of 8 sectors (4 KiB). */
static inline struct ios_request *cq_read(struct t_sq *s, uint32_t pid, uint64_t sector,
					  uint64_t now)
{
	return cq_ins(s, t_ioc(pid), sector, 8, IOS_READ, 0, now);
}

/* A buffered (async) write of 8 sectors. */
static inline struct ios_request *cq_awrite(struct t_sq *s, uint32_t pid, uint64_t sector,
					    uint64_t now)
{
	return cq_ins(s, t_ioc(pid), sector, 8, IOS_WRITE, 0, now);
}

/* The time-driven hook, as the block layer calls it when next_wakeup comes. */
static inline void cq_timer(struct t_sq *s, uint64_t now)
{
	s->type->ops.timer(&s->q, now);
}

static inline uint64_t cq_wakeup(struct t_sq *s)
{
	return s->type->ops.next_wakeup(&s->q);
}

/* The queue a process's sync (or async) requests go to, or NULL. */
static inline struct cfq_queue *cq_queue(struct t_sq *s, uint32_t pid, bool sync)
{
	struct cfq_io_cq *cic = t_ioc(pid)->icq[s->q.id];

	return cic ? cic->cfqq[sync ? 1 : 0] : NULL;
}

static inline struct cfq_io_cq *cq_cic(struct t_sq *s, uint32_t pid)
{
	return t_ioc(pid)->icq[s->q.id];
}

/* The pid of the active queue's creator, or -1 when none is active. */
static inline int64_t cq_active_pid(struct t_sq *s)
{
	struct cfq_queue *q = cq_data(s)->active_queue;

	return q ? (int64_t)q->pid : -1;
}

/*
 * The device finished @rq: completed(), then the request is freed
 * (put_request) as the block layer frees it. t_sq_complete alone leaves
 * the request's queue reference held until t_sq_free.
 */
static inline void cq_done(struct t_sq *s, struct ios_request *rq, uint64_t now)
{
	t_sq_complete(s, rq, now);
	s->type->ops.put_request(&s->q, rq);
}

/* Dispatch one request and complete it at @done. */
static inline struct ios_request *cq_serve(struct t_sq *s, uint64_t now, uint64_t done)
{
	struct ios_request *rq = t_sq_dispatch(s, now);

	if (rq)
		cq_done(s, rq, done);
	return rq;
}

/*
 * Serve one request at a time, each taking 1 ms, and fire CFQ's idle timer
 * whenever it declines to dispatch; record the pid of each request served.
 * Stops after @max requests, when nothing is queued, or when CFQ neither
 * dispatches nor asks for a wake-up. Returns how many were served.
 */
static inline size_t cq_drive(struct t_sq *s, uint64_t *now, uint32_t *pids, size_t max)
{
	size_t n = 0;

	for (unsigned guard = 0; n < max && s->type->ops.has_work(&s->q) && guard < 100000;
	     guard++) {
		struct ios_request *rq = t_sq_dispatch(s, *now);

		if (!rq) {
			uint64_t w = cq_wakeup(s);

			if (w == IOS_NO_WAKEUP)
				break;
			if (w > *now)
				*now = w;
			cq_timer(s, *now);
			continue;
		}
		pids[n++] = rq->ioc->pid;
		*now += MS;
		cq_done(s, rq, *now);
	}
	return n;
}

/*
 * Drain, free every request, then tear down. t_sq_free alone would call
 * put_request after exit(), when CFQ has already freed its queues; the
 * block layer never does that (every request is freed before the queue
 * goes away).
 */
static inline void cq_free(struct t_sq *s)
{
	struct ios_request *rq;

	if (!s)
		return;
	while (s->type->ops.has_work(&s->q) &&
	       (rq = s->type->ops.dispatch(&s->q, UINT64_MAX / 4, IOS_DISPATCH_FORCE)) != NULL) {
		s->q.nr_sorted--;
		s->q.rq_in_driver++;
		s->q.in_flight[ios_rq_is_sync(rq)]++;
		cq_done(s, rq, UINT64_MAX / 4);
	}
	/* what is left holding a queue is in the device: complete it */
	for (size_t i = 0; i < s->nr_rqs; i++)
		if (s->rqs[i]->sched_priv[0] && s->q.rq_in_driver)
			cq_done(s, s->rqs[i], UINT64_MAX / 4);
	t_sq_free(s);
}

/*
 * Reset a test io context: the harness keeps contexts in a static table
 * for the whole program, so each test starts its pids from a clean state.
 */
static inline struct ios_ioc *cq_ioc(uint32_t pid, int cls, int level)
{
	struct ios_ioc *ioc = t_ioc(pid);

	memset(ioc->icq, 0, sizeof(ioc->icq));
	ioc->ioprio_class = cls;
	ioc->ioprio_level = level;
	ioc->nice = 0;
	ioc->nr_tasks = 1;
	ioc->cgroup = &t_root_cgroup;
	return ioc;
}

#endif
