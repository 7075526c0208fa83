/*
 * The request both block layers share: its life, the disk statistics, the
 * device's busy time split among requests (svc_v), the trace points and
 * the owner hook at issue.
 *
 * These steps are the same in the single-queue layer of Linux 2.6.31
 * (block.c) and in blk-mq of Linux 6.12 (mq.c); only allocation, waiting
 * and the path to the device differ, and those stay in each layer's file.
 *
 * Disk statistics follow /proc/diskstats: a request counts as in flight from
 * allocation to completion, ticks are allocation-to-completion times, and
 * merges count bios merged into queued requests. Completed requests and
 * their sectors are also counted per cgroup (struct ios_cgroup), for
 * schedulers that keep no group statistics of their own.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "block_int.h"

/* ---- invariants: a request's and a bio's life, step by step ---- */

const char *ios_blk_rq_state_name(unsigned s)
{
	static const char *const names[] = { "allocated", "queued", "in the driver", "done",
					     "free" };

	return s < IOS_ARRAY_SIZE(names) ? names[s] : "corrupt";
}

/* ---- disk statistics ---- */

void ios_queue_stats_update(struct ios_queue *q, uint64_t now)
{
	struct ios_disk_stats *s = &q->stats;

	if (now > s->stamp_ns) {
		if (s->in_flight) {
			s->io_ticks_ns += now - s->stamp_ns;
			s->time_in_queue_ns += (uint64_t)s->in_flight * (now - s->stamp_ns);
		}
		s->stamp_ns = now;
	}
}

/* ---- tracing ---- */

void ios_queue_msg(struct ios_queue *q, uint64_t now, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (!q->trace_ops || !q->trace_ops->message)
		return;
	/*
	 * A scheduler may log with a cached clock older than the queue call
	 * it runs in; the trace must not go back in time, so stamp at least
	 * the queue's clock.
	 */
	if (now < q->clock_ns)
		now = q->clock_ns;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	q->trace_ops->message(q->trace, q, now, buf);
}

/* ---- request allocation ---- */

struct ios_request *ios_blk_rq_alloc(struct ios_queue *q)
{
	struct ios_request *rq;

	if (!ios_list_empty(&q->free_rqs)) {
		rq = ios_list_first_entry(&q->free_rqs, struct ios_request, queuelist);
		IOS_BUG_ON_MSG(rq->state != IOS_RQ_FREE, "request %" PRIu64
			       " on the free list while %s", rq->id,
			       ios_blk_rq_state_name(rq->state));
		ios_list_del(&rq->queuelist);
	} else {
		rq = malloc(sizeof(*rq));
		if (!rq)
			return NULL;
	}
	memset(rq, 0, sizeof(*rq));
	rq->tag = rq->sched_tag = -1;	/* blk-mq sets them when it takes tags */
	ios_list_init(&rq->queuelist);
	ios_list_init(&rq->hash_node);
	ios_list_init(&rq->dev_node);
	ios_rb_clear(&rq->rb_node);
	return rq;
}

void ios_blk_rq_init_from_bio(struct ios_queue *q, struct ios_request *rq,
			      struct ios_bio *bio, uint64_t now)
{
	rq->sector = bio->sector;
	rq->nr_sectors = bio->nr_sectors;
	rq->dir = bio->dir;
	rq->flags = bio->flags;
	rq->ioc = bio->ioc;
	rq->blkcg = bio->blkcg;
	rq->ioprio = bio->ioprio;
	rq->q = q;
	rq->id = q->next_rq_id++;
	rq->alloc_ns = now;
	bio->next = NULL;
	rq->bio = rq->biotail = bio;
	rq->nr_bios = 1;
}

/* ---- dispatch and completion ---- */

#define IOS_SVC_SHIFT 16

void ios_blk_svc_advance(struct ios_queue *q, uint64_t now)
{
	if (q->rq_in_driver && now > q->svc_at)
		q->svc_v += ((now - q->svc_at) << IOS_SVC_SHIFT) / q->rq_in_driver;
	q->svc_at = now;
}

void ios_blk_rq_start(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	ios_blk_rq_step(rq, IOS_RQ_QUEUED, IOS_RQ_IN_DRIVER, "dispatched");
	ios_blk_hash_del(rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
	rq->dispatch_ns = now;
	ios_blk_svc_advance(q, now);
	rq->svc_v0 = q->svc_v;
	q->rq_in_driver++;
	q->in_flight[ios_rq_is_sync(rq)]++;
	ios_blk_trace(q, IOS_TA_ISSUE, rq, NULL, now);
	if (q->owner_ops)
		q->owner_ops->dispatch(q->owner, rq, now);
}

void ios_blk_rq_issue(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	ios_blk_rq_start(q, rq, now);
	q->host_ops->issue(q->host, q, rq, now);
}

void ios_blk_rq_complete_acct(struct ios_queue *q, struct ios_request *rq, uint64_t now,
			      int error)
{
	bool sync = ios_rq_is_sync(rq);

	ios_blk_rq_step(rq, IOS_RQ_IN_DRIVER, IOS_RQ_DONE, "completed");
	IOS_BUG_ON(q->rq_in_driver == 0);
	ios_blk_clock(q, now);
	rq->complete_ns = now;
	rq->error = error;
	ios_blk_svc_advance(q, now);
	if (rq->ioc) {
		uint64_t share = (q->svc_v - rq->svc_v0) >> IOS_SVC_SHIFT;

		rq->ioc->device_ns += share;
		/* the charged cgroup: the dirtier's for cgroup writeback (blk-mq) */
		if (ios_rq_blkcg(rq))
			ios_rq_blkcg(rq)->device_ns += share;
	}
	q->rq_in_driver--;
	q->in_flight[sync]--;

	ios_queue_stats_update(q, now);
	q->stats.in_flight--;
	if (rq->nr_sectors) {
		q->stats.ios[rq->dir]++;
		q->stats.sectors[rq->dir] += rq->nr_sectors;
		q->stats.ticks_ns[rq->dir] += now - rq->alloc_ns;
		/*
		 * per cgroup, by the cgroup charged (blkio's view: the task that
		 * caused the request, or the dirtier under cgroup writeback)
		 */
		if (rq->ioc && ios_rq_blkcg(rq)) {
			ios_rq_blkcg(rq)->ios[rq->dir]++;
			ios_rq_blkcg(rq)->sectors[rq->dir] += rq->nr_sectors;
		}
		if (q->done_fn)
			q->done_fn(q->done_priv, rq, now);
	}
	ios_blk_trace(q, IOS_TA_COMPLETE, rq, NULL, now);
}

void ios_blk_end_bios(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
		      uint64_t now, int error)
{
	struct ios_bio *next;

	for (; bio; bio = next) {
		next = bio->next;
		bio->next = NULL;
		IOS_BUG_ON_MSG(bio->state != IOS_BIO_IN_FLIGHT, "bio at sector %" PRIu64
			       " ended twice (request %" PRIu64 ")", bio->sector, rq->id);
		bio->state = IOS_BIO_IDLE;
		q->nr_bios_done++;
		if (bio->end_io)
			bio->end_io(bio, now, error);
	}
}
