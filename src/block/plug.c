/*
 * The per-task plug of blk-mq, following Linux 6.12 (block/blk-core.c
 * blk_start_plug_nr_ios, blk_finish_plug, __blk_flush_plug; block/blk-mq.c
 * blk_add_rq_to_plug, blk_plug_max_rq_count, blk_mq_flush_plug_list,
 * blk_mq_dispatch_plug_list, blk_mq_plug_issue_direct; block/blk-merge.c
 * blk_attempt_plug_merge; kernel/sched/core.c sched_submit_work and
 * io_schedule_prepare). The single-queue layer (block.c) has no plug.
 *
 * A task that plugs (its I/O engine decides, as the kernel's submission
 * paths do: src/run/task.c) keeps the requests it allocates on its plug
 * instead of handing them to the scheduler or the device. Bios merge into
 * them there first (one try, on the newest plugged request of the bio's
 * queue). The plug is flushed:
 * - when a request joins a plug that already holds BLK_MAX_REQUEST_COUNT
 *   (32) requests, 64 once it held requests of two queues, or whose newest
 *   request is at least BLK_PLUG_FLUSH_SIZE (128 KiB) unless the new
 *   request's queue has nomerges=2 (blk_queue_nomerges tests
 *   QUEUE_FLAG_NOMERGES, which queue_nomerges_store sets for 2 only);
 *   the flush is explicit (U) and the request then starts the plug anew
 *   (P again);
 * - when the task finishes its plug (blk_finish_plug): explicit, U;
 * - when the task sleeps with requests plugged (schedule() and
 *   io_schedule() call blk_flush_plug(plug, true)): implicit, UT. Here the
 *   task sleeps when its bio finds no tag (blk_mq_get_tag, in mq.c).
 *
 * trace_block_plug (P) is emitted when a request goes on an empty plug;
 * trace_block_unplug (U when @explicit, that is when not from the
 * scheduler; UT otherwise) carries the number of requests that step hands
 * on: the whole plug on the single-queue fast path, else each group of
 * one hardware and software context (blk_mq_dispatch_plug_list).
 *
 * Flushing: a plug with requests of one queue, none from an elevator, not
 * flushed from the scheduler takes the fast path: trace U with the plug's
 * depth, then each request is issued directly (blk_mq_plug_issue_direct;
 * Keith Busch's 2024-09 "add missing unplug trace event" put the U there).
 * Otherwise the requests go by (queue, hctx, ctx) group, starting with the
 * newest request's group: to the elevator (insert_requests) or, without
 * one, issued directly unless dispatch_busy or from the scheduler, else
 * into the software context (blk_mq_insert_requests).
 *
 * Order. 6.12 keeps the plug list newest first (rq_list_add) and pops it
 * from the head; blk_mq_dispatch_plug_list reverses each group back, so the
 * elevator and the software contexts get them oldest first. The fast path
 * hands them to the driver newest first, which queue_rqs drivers (NVMe,
 * virtio) reversed back and other drivers did not, until 6.13 kept the
 * plug oldest first ("block: don't reorder requests in
 * blk_add_rq_to_plug"). We keep the list oldest first and issue in that
 * order: the NVMe behaviour, and that of every driver since 6.13.
 *
 * Bios that wait for CPU time (mq.c's cost model, lab.cpu.*). In the
 * kernel the task runs each submit_bio in turn on its CPU, and
 * blk_finish_plug comes after the last has returned: every request of
 * the batch is on the plug by then (blk_mq_submit_bio ->
 * blk_add_rq_to_plug), and blk_mq_flush_plug_list hands on all of them.
 * Here a bio the model holds enters later than the call that submitted
 * it, so it keeps the plug its task had then (ios_plug_hold): when it
 * enters, its request goes on that plug, even when the task has finished
 * the plug meanwhile, and a finish that finds such bios is deferred until
 * the last of them has entered (then U, explicit, as blk_finish_plug
 * would). The deferred state lives in a struct ios_plug_held of ours, on
 * the heap, never in the owner's struct (vfs.c's and writeback.c's are
 * on the stack, as the kernel's are). The limits and the implicit flush
 * (UT, io_schedule_prepare) apply as the bios enter, in their CPU's order.
 *
 * Not modelled: the plug's request cache (blk_start_plug_nr_ios's nr_ios
 * and the batched tag allocation it feeds), plug callbacks (md, dm,
 * btrfs), the timestamp cache, and drivers' queue_rqs as a separate path.
 */
#include "mq_int.h"

#include <stdlib.h>

/* A plug whose bios wait for CPU time, and its state once its finish is deferred. */
struct ios_plug_held {
	struct ios_plug *plug;		/* the owner's while started, &own once finished */
	struct ios_plug own;
	unsigned nr;			/* bios that have not entered yet */
};

#define PLUG_MAX_RQ		32u			/* BLK_MAX_REQUEST_COUNT (5.16+) */
#define PLUG_FLUSH_BYTES	(128u * 1024u)		/* BLK_PLUG_FLUSH_SIZE */

static inline struct ios_request *plug_newest(struct ios_plug *plug)
{
	return ios_list_entry(plug->list.prev, struct ios_request, queuelist);
}

/* trace_block_unplug(q, depth, explicit); the payload is @depth (bt_event) */
static void trace_unplug(struct ios_plug *plug, struct ios_queue *q, struct ios_request *rq,
			 unsigned depth, bool explicit, uint64_t now)
{
	q->unplug_depth = depth;
	plug->nr_flushes++;
	ios_blk_trace(q, explicit ? IOS_TA_UNPLUG_IO : IOS_TA_UNPLUG_TIMER, rq, NULL, now);
}

/* blk_mq_dispatch_plug_list: the group of the newest request goes on. */
static void dispatch_plug_list(struct ios_plug *plug, bool from_schedule, uint64_t now)
{
	struct ios_request *newest = plug_newest(plug);
	struct ios_queue *q = newest->q;
	unsigned hctx = newest->mq_hctx, ctx = newest->mq_ctx, depth = 0;
	struct ios_list_head group, *pos, *n;

	ios_list_init(&group);
	ios_list_for_each_safe(pos, n, &plug->list) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, queuelist);

		if (rq->q != q || rq->mq_hctx != hctx || rq->mq_ctx != ctx)
			continue;
		ios_list_del(&rq->queuelist);
		ios_list_add_tail(&rq->queuelist, &group);
		depth++;
	}
	trace_unplug(plug, q, newest, depth, !from_schedule, now);
	ios_mq_plug_dispatch(q, &group, from_schedule, now);
}

/* blk_mq_flush_plug_list */
void ios_plug_flush(struct ios_plug *plug, bool from_schedule, uint64_t now)
{
	unsigned depth = plug->rq_count;

	if (!depth)
		return;
	plug->rq_count = 0;
	if (!plug->multiple_queues && !plug->has_elevator && !from_schedule) {
		struct ios_request *rq = plug_newest(plug);
		struct ios_queue *q = rq->q;

		trace_unplug(plug, q, rq, depth, true, now);
		ios_mq_plug_issue_direct(q, &plug->list, now);
		if (ios_list_empty(&plug->list))
			return;
		/* the device said busy: the rest go the long way (a second U) */
	}
	while (!ios_list_empty(&plug->list))
		dispatch_plug_list(plug, from_schedule, now);
}

/* blk_plug_max_rq_count: twice as many once the plug spans queues */
static inline unsigned plug_max_rq(const struct ios_plug *plug)
{
	return plug->multiple_queues ? 2 * PLUG_MAX_RQ : PLUG_MAX_RQ;
}

void ios_plug_add(struct ios_plug *plug, struct ios_request *rq, uint64_t now)
{
	struct ios_queue *q = rq->q;
	struct ios_request *last = ios_list_empty(&plug->list) ? NULL : plug_newest(plug);

	if (!plug->rq_count) {
		ios_blk_trace(q, IOS_TA_PLUG, rq, NULL, now);
	} else if (plug->rq_count >= plug_max_rq(plug) ||
		   (q->tun.nomerges != 2 && ios_rq_bytes(last) >= PLUG_FLUSH_BYTES)) {
		ios_plug_flush(plug, false, now);
		last = NULL;
		ios_blk_trace(q, IOS_TA_PLUG, rq, NULL, now);
	}
	/* neither flag is cleared by a flush: they last as long as the plug */
	if (!plug->multiple_queues && last && last->q != q)
		plug->multiple_queues = true;
	if (!plug->has_elevator && rq->sched_tag >= 0)
		plug->has_elevator = true;
	ios_list_add_tail(&rq->queuelist, &plug->list);
	plug->rq_count++;
}

bool ios_plug_merge(struct ios_queue *q, struct ios_plug *plug, struct ios_bio *bio,
		    uint64_t now)
{
	struct ios_list_head *pos;

	if (!plug || ios_list_empty(&plug->list))
		return false;
	/* newest first: the first request of this queue is the only try */
	for (pos = plug->list.prev; pos != &plug->list; pos = pos->prev) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, queuelist);

		if (rq->q == q)
			return ios_blk_plug_merge(q, rq, bio, now);
		/* the kernel walks on only when the plug spans queues */
		if (!plug->multiple_queues)
			break;
	}
	return false;
}

void ios_blk_start_plug(struct ios_ioc *ioc, struct ios_plug *plug)
{
	/* a nested plug is not assigned (blk_start_plug_nr_ios) */
	if (ioc->plug)
		return;
	ios_list_init(&plug->list);
	plug->rq_count = 0;
	plug->multiple_queues = false;
	plug->has_elevator = false;
	plug->held = NULL;
	ioc->plug = plug;
}

void ios_blk_finish_plug(struct ios_ioc *ioc, struct ios_plug *plug, uint64_t now)
{
	struct ios_plug_held *h;

	if (ioc->plug != plug)
		return;
	ioc->plug = NULL;
	h = plug->held;
	if (!h) {
		ios_plug_flush(plug, false, now);
		return;
	}
	/* bios of it still wait for their CPU: the finish waits for them, in our storage */
	h->own = *plug;
	h->own.held = h;
	ios_list_init(&h->own.list);
	while (!ios_list_empty(&plug->list))
		ios_list_move_tail(plug->list.next, &h->own.list);
	h->plug = &h->own;
	plug->held = NULL;
	plug->rq_count = 0;
}

void ios_blk_flush_plug(struct ios_ioc *ioc, bool from_schedule, uint64_t now)
{
	if (ioc && ioc->plug)
		ios_plug_flush(ioc->plug, from_schedule, now);
}

struct ios_plug_held *ios_plug_hold(struct ios_plug *plug)
{
	struct ios_plug_held *h;

	if (!plug)
		return NULL;
	h = plug->held;
	if (!h) {
		/* out of memory: the bio enters unplugged, as it did before plugs were held */
		h = calloc(1, sizeof(*h));
		if (!h)
			return NULL;
		h->plug = plug;
		plug->held = h;
	}
	h->nr++;
	return h;
}

struct ios_plug *ios_plug_held_plug(const struct ios_plug_held *h)
{
	return h ? h->plug : NULL;
}

void ios_plug_release(struct ios_plug_held *h, uint64_t now)
{
	if (!h || --h->nr)
		return;
	if (h->plug == &h->own)
		ios_plug_flush(&h->own, false, now);	/* the deferred blk_finish_plug */
	else
		h->plug->held = NULL;
	free(h);
}
