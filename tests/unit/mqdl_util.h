/*
 * Helpers shared by the mq-deadline tests (tests/unit/sched_mqdl_*.c):
 * insert a request of a chosen ioprio class into a t_sq queue, read the
 * scheduler's --dump-state counters, ask limit_depth. Header-only: each
 * test is one program.
 */
#ifndef IOSCHED_TEST_MQDL_UTIL_H
#define IOSCHED_TEST_MQDL_UTIL_H

#include <string.h>
#include "harness.h"

#define MS 1000000ull
#define SEC 1000000000ull
#define OPF_WRITE (1u << 31)	/* limit_depth's write bit */

/*
 * A request of @nr_sectors at @sector in direction @dir whose bios carry
 * ioprio class @cls (IOS_IOPRIO_CLASS_*; NONE: no priority of their own),
 * inserted at @now (@flags: IOS_INSERT_*).
 */
static inline struct ios_request *mq_ins_flags(struct t_sq *s, int cls, uint64_t sector,
					       int dir, uint64_t now, unsigned flags)
{
	struct ios_request *rq = t_sq_rq(s, sector, 8, dir, dir == IOS_READ ? IOS_REQ_SYNC : 0);

	rq->ioprio = cls ? cls << 13 : 0;
	rq->alloc_ns = rq->insert_ns = now;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, rq, now, flags);
	return rq;
}

static inline struct ios_request *mq_ins(struct t_sq *s, int cls, uint64_t sector, int dir,
					 uint64_t now)
{
	return mq_ins_flags(s, cls, sector, dir, now, 0);
}

/* One --dump-state counter (the stats table) by name. */
static inline uint64_t mq_stat(struct t_sq *s, const char *name)
{
	const struct ios_tunable *t = ios_tunable_find(s->type->stats, name);

	if (!t) {
		fprintf(stderr, "no stat '%s'\n", name);
		abort();
	}
	return t->type == IOS_TUN_INT ? (uint64_t)ios_tunable_get_int(t, s->q.sched_data)
				      : ios_tunable_get_u64(t, s->q.sched_data);
}

/* One tunable's value as shown to users. */
static inline const char *mq_show(struct t_sq *s, const char *name, char *buf, size_t len)
{
	const struct ios_tunable *t = ios_tunable_find(s->type->tunables, name);

	if (!t || ios_tunable_show(t, s->q.sched_data, buf, len) < 0)
		snprintf(buf, len, "?");
	return buf;
}

static inline unsigned mq_limit(struct t_sq *s, unsigned opf)
{
	return ios_sched_mq_ops(s->type)->limit_depth(&s->q, opf, s->ioc);
}

#endif
