/*
 * The rq_qos chain of a blk-mq queue, after Linux 6.12 block/blk-rq-qos.c
 * and blk-rq-qos.h (rq_qos_add, rq_qos_del, rq_qos_id and the rq_qos_*
 * calls blk-mq.c makes), with the lab's way of letting a policy keep a
 * bio (docs/cgroup-v2-plan.md §5).
 *
 * Modelled: one chain per queue, the newest-enabled policy at its head
 * (rq_qos_add prepends), every call walking it head first; the bio flags
 * the kernel sets on the way (BIO_QOS_THROTTLED in rq_qos_throttle,
 * BIO_QOS_MERGED in rq_qos_merge), which gate rq_qos_done_bio as in
 * bio_endio; -EBUSY for a second policy of one id (the check callers of
 * rq_qos_add make under the queue freeze).
 *
 * The lab's, not the kernel's: a policy that would put the submitter to
 * sleep in rq_qos_wait instead keeps the bio (throttle returns 1) and the
 * core treats the bio as one sleeping for a tag; the policy later gives it
 * back with ios_rq_qos_release, and the bio goes on from the next policy
 * to its tag. Not modelled: queue_depth_changed (no caller changes the
 * depth of a running queue), debugfs, QUEUE_FLAG_QOS_ENABLED (6.15's
 * replacement of the plain q->rq_qos test).
 */
#include <errno.h>
#include "blkcg_int.h"
#include "mq_int.h"

int ios_rq_qos_add(struct ios_queue *q, struct ios_rq_qos *r)
{
	if (!q->mq)
		return -EOPNOTSUPP;
	if (ios_rq_qos_id(q, r->id))
		return -EBUSY;
	r->next = q->rq_qos;
	q->rq_qos = r;
	return 0;
}

void ios_rq_qos_del(struct ios_queue *q, struct ios_rq_qos *r)
{
	struct ios_rq_qos **pp;

	for (pp = &q->rq_qos; *pp; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			r->next = NULL;
			return;
		}
	}
}

struct ios_rq_qos *ios_rq_qos_id(struct ios_queue *q, enum ios_rq_qos_id id)
{
	struct ios_rq_qos *r;

	for (r = q->rq_qos; r; r = r->next)
		if (r->id == id)
			break;
	return r;
}

/* ---- the walkers (__rq_qos_*), head first ---- */

int ios_rq_qos_throttle(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			uint64_t now)
{
	if (!q->rq_qos)
		return 0;
	bio->qos_flags |= IOS_BIO_QOS_THROTTLED;
	for (; r; r = r->next)
		if (r->ops->throttle && r->ops->throttle(q, r, bio, now)) {
			bio->held_ns = now;	/* step 9a: the wait starts */
			return 1;
		}
	return 0;
}

/* The wait a policy's release ends, by the policy (enum rq_qos_id) */
static enum ios_wait_cause rq_qos_wait_cause(enum ios_rq_qos_id id)
{
	switch (id) {
	case IOS_RQ_QOS_WBT:
		return IOS_WAIT_WBT;
	case IOS_RQ_QOS_LATENCY:
		return IOS_WAIT_LATENCY;
	default:
		return IOS_WAIT_COST;
	}
}

void ios_rq_qos_release(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			uint64_t now)
{
	ios_blk_clock(q, now);
	ios_blkcg_account_wait(q, bio, rq_qos_wait_cause(r->id), now);
	/* the policies after @r see it now, as the woken task walks on in __rq_qos_throttle */
	if (r->next && ios_rq_qos_throttle(q, r->next, bio, now))
		return;
	ios_mq_qos_released(q, bio, now);
}

void ios_rq_qos_track(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio)
{
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next)
		if (r->ops->track)
			r->ops->track(q, r, rq, bio);
}

void ios_rq_qos_merge(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
		      uint64_t now)
{
	if (!q->rq_qos)
		return;
	bio->qos_flags |= IOS_BIO_QOS_MERGED;
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next)
		if (r->ops->merge)
			r->ops->merge(q, r, rq, bio, now);
}

void ios_rq_qos_issue(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next)
		if (r->ops->issue)
			r->ops->issue(q, r, rq, now);
}

void ios_rq_qos_requeue(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next)
		if (r->ops->requeue)
			r->ops->requeue(q, r, rq, now);
}

void ios_rq_qos_done(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next)
		if (r->ops->done)
			r->ops->done(q, r, rq, now);
}

void ios_rq_qos_done_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	/* rq_qos_done_bio: only bios that went through throttle or merge */
	if (!(bio->qos_flags & (IOS_BIO_QOS_THROTTLED | IOS_BIO_QOS_MERGED)))
		return;
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next)
		if (r->ops->done_bio)
			r->ops->done_bio(q, r, bio, now);
}

void ios_rq_qos_cleanup(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next)
		if (r->ops->cleanup)
			r->ops->cleanup(q, r, bio, now);
}

void ios_rq_qos_exit(struct ios_queue *q)
{
	while (q->rq_qos) {
		struct ios_rq_qos *r = q->rq_qos;

		q->rq_qos = r->next;
		r->next = NULL;
		if (r->ops->exit)
			r->ops->exit(q, r);
	}
}

/* ---- timers: blk-throttle's and each policy's, folded into the queue's ---- */

uint64_t ios_blkcg_next_timer(struct ios_queue *q, uint64_t now)
{
	uint64_t w = UINT64_MAX;

	if (q->throtl_ops && q->throtl_ops->next_timer)
		w = q->throtl_ops->next_timer(q, now);
	for (struct ios_rq_qos *r = q->rq_qos; r; r = r->next) {
		if (r->ops->next_timer) {
			uint64_t t = r->ops->next_timer(q, r, now);

			if (t < w)
				w = t;
		}
	}
	return w;
}

void ios_blkcg_run_timers(struct ios_queue *q, uint64_t now)
{
	struct ios_rq_qos *r, *next;

	if (q->throtl_ops && q->throtl_ops->timer && q->throtl_ops->next_timer &&
	    q->throtl_ops->next_timer(q, now) <= now)
		q->throtl_ops->timer(q, now);
	/* a timer may take its policy off the chain: read the next one first */
	for (r = q->rq_qos; r; r = next) {
		next = r->next;
		if (r->ops->timer && r->ops->next_timer && r->ops->next_timer(q, r, now) <= now)
			r->ops->timer(q, r, now);
	}
}
