/*
 * Helpers shared by the BFQ unit tests (sched_bfq_*.c): reach the
 * scheduler's private state, find a process's queue, read a statistic.
 * The tests look inside on purpose: budgets, weights and raising are what
 * they check, and the public hooks only show their effect indirectly.
 */
#ifndef IOSCHED_TEST_SCHED_BFQ_UTIL_H
#define IOSCHED_TEST_SCHED_BFQ_UTIL_H

#include <string.h>
#include "harness.h"
#include "sched/bfq_int.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)
#define US ((uint64_t)IOS_NSEC_PER_USEC)

static inline struct bfq_data *bfqd_of(struct ios_queue *q)
{
	return q->sched_data;
}

/* The sync (or async) queue of @ioc's process, NULL if it has none. */
static inline struct bfq_queue *bfqq_of(struct ios_queue *q, struct ios_ioc *ioc, bool sync)
{
	struct bfq_io_cq *bic = ios_bfq_bic_lookup(bfqd_of(q), ioc);

	return bic ? bic->bfqq[sync] : NULL;
}

static inline uint64_t bfq_stat(struct ios_queue *q, const char *name)
{
	const struct ios_tunable *t = ios_tunable_find(q->sched->stats, name);

	if (!t) {
		fprintf(stderr, "no bfq stat %s\n", name);
		abort();
	}
	return t->type == IOS_TUN_INT ? (uint64_t)ios_tunable_get_int(t, q->sched_data)
				      : ios_tunable_get_u64(t, q->sched_data);
}

/* A fresh task context (pid from 100 up, not shared with other harness users). */
static inline struct ios_ioc *bfq_test_ioc(uint32_t pid, int class, int level)
{
	struct ios_ioc *ioc = t_ioc(pid);

	ioc->ioprio_class = class;
	ioc->ioprio_level = level;
	ioc->cgroup = &t_root_cgroup;
	ioc->nr_tasks = 1;
	return ioc;
}

/* Insert one request for @ioc through the direct queue. */
static inline struct ios_request *bfq_ins(struct t_sq *s, struct ios_ioc *ioc, uint64_t sector,
					  uint32_t nr, int dir, uint32_t flags, uint64_t now)
{
	struct ios_request *rq;

	s->ioc = ioc;
	rq = t_sq_rq(s, sector, nr, dir, flags);
	rq->alloc_ns = rq->insert_ns = now;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, rq, now, 0);
	return rq;
}

/* Every active tree of every group keeps its min_start augmentation right. */
static inline bool bfq_trees_ok(struct ios_queue *q)
{
	struct bfq_data *bfqd = bfqd_of(q);

	for (int c = 0; c < BFQ_IOPRIO_CLASSES; c++)
		if (!ios_bfq_check_active_tree(
			    &bfqd->root_group->sched_data.service_tree[c].active))
			return false;
	for (unsigned g = 1; g < bfqd->nr_groups; g++) {
		if (!bfqd->groups[g])
			continue;
		for (int c = 0; c < BFQ_IOPRIO_CLASSES; c++)
			if (!ios_bfq_check_active_tree(
				    &bfqd->groups[g]->sched_data.service_tree[c].active))
				return false;
	}
	return true;
}

#endif
