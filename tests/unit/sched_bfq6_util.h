/*
 * Helpers for the BFQ 6.12 tests (sched_bfq6_*.c, sched_bfq_profiles.c):
 * bfq-6.12 is a blk-mq descriptor, and the blk-mq core that will list it
 * among the built-ins is built separately; until then the tests register
 * it themselves (a no-op once it is built in). bfq6_with() swaps the
 * profile of a queue already set up, so that a test can run the same
 * scenario with one named behaviour off and show that the behaviour is
 * what made the difference.
 */
#ifndef IOSCHED_TEST_SCHED_BFQ6_UTIL_H
#define IOSCHED_TEST_SCHED_BFQ6_UTIL_H

#include "sched_bfq_util.h"
#include "core/builtin.h"

static inline void bfq6_register(void)
{
	struct ios_err e = { 0 };

	if (ios_sched_find("bfq-6.12"))
		return;
	if (ios_sched_register(&ios_sched_bfq_612, &e)) {
		fprintf(stderr, "bfq-6.12: %s\n", e.msg);
		abort();
	}
}

/* The profile @base with one behaviour changed (a static copy per call site). */
#define BFQ6_PROFILE_WITHOUT(copy, base, field) \
	(copy = *(base), copy.field = false, &copy)

static inline void bfq6_with(struct t_sq *s, const struct bfq_profile *prof)
{
	bfqd_of(&s->q)->prof = prof;
}

/* Dispatch at @now, or at the scheduler's wake-up if it is waiting; NULL: nothing. */
static inline struct ios_request *bfq6_dispatch_or_wait(struct t_sq *s, uint64_t *now)
{
	struct ios_request *rq = t_sq_dispatch(s, *now);
	uint64_t wake;

	if (rq || !s->type->ops.next_wakeup)
		return rq;
	wake = s->type->ops.next_wakeup(&s->q);
	if (wake == IOS_NO_WAKEUP)
		return NULL;
	if (wake > *now)
		*now = wake;
	return t_sq_dispatch(s, *now);
}

#endif
