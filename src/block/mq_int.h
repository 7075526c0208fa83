/*
 * blk-mq's private state, following Linux 6.12 (block/blk-mq.h,
 * block/blk-mq-tag.h, include/linux/sbitmap.h), for src/block/mq*.c only.
 *
 * One struct ios_queue serves both block layers; q->mq is NULL on the
 * single-queue layer and points at a struct ios_mq on blk-mq. CPUs are
 * software contexts (struct ios_mq_ctx, the kernel's blk_mq_ctx); each maps
 * to a hardware context (struct ios_mq_hctx, blk_mq_hw_ctx) as
 * blk_mq_map_queues() maps them. Each hardware context has driver tags of
 * the device's depth and, under an elevator, scheduler tags of nr_requests.
 */
#ifndef IOSCHED_MQ_INT_H
#define IOSCHED_MQ_INT_H

#include "block_int.h"

/*
 * A tag map, as an sbitmap of 6.12: depth bits in words of 2^shift bits
 * (sbitmap_calculate_shift), so that a shallow depth applies per word.
 */
struct ios_mq_tags {
	unsigned depth;			/* tags in the map */
	unsigned shift;			/* log2 of the bits per word */
	unsigned nr_words;
	unsigned used;			/* tags taken */
	/*
	 * every word below this one is full: first-fit starts here (at
	 * 1M IOPS a thousand tags in flight made the scan from word 0 a
	 * tenth of the run)
	 */
	unsigned full_below;
	uint64_t *words;		/* bit set: taken */
	/* bios whose task sleeps for a tag of this map, oldest first (trace S) */
	struct ios_bio *wait_head, *wait_tail;
	unsigned nr_waiting;
};

struct ios_mq_ctx {
	struct ios_list_head rq_list;	/* requests waiting here (no elevator), by queuelist */
	unsigned nr_rqs;
	unsigned hctx;			/* the hardware context this CPU maps to */
	/* CPU cost model: the CPU is busy until then; bios it submits, due in order */
	uint64_t busy_until;
	struct ios_bio *cpu_head, *cpu_tail;
};

/*
 * A scheduler lock in the CPU cost model: a single server. busy_until is
 * when its last charge ends; reserved says a dispatch has paid for the
 * lock up to busy_until and may pull its request then (mq.c).
 */
struct ios_mq_lock {
	uint64_t busy_until;	/* the end of the last critical section booked */
	uint64_t res_end;	/* a booked dispatch's end (valid while reserved) */
	bool reserved;
};

struct ios_mq_hctx {
	unsigned idx;
	struct ios_mq_tags tags;	/* driver tags: the device's depth */
	struct ios_mq_tags sched_tags;	/* scheduler tags (nr_requests); depth 0 without elevator */
	struct ios_list_head dispatch;	/* hctx->dispatch: requeues, bypass inserts, flushes */
	unsigned nr_dispatch;
	/*
	 * blk_mq_update_dispatch_busy's EWMA (weight 8, factor 4): raised
	 * by a dispatch the device refused, decayed by one it took
	 */
	unsigned dispatch_busy;
	unsigned dispatch_from;		/* blk_mq_do_dispatch_ctx's round-robin position (ctx) */
	uint64_t nr_dispatched;		/* requests issued to the device (the JSON report) */
	struct ios_mq_lock lock;	/* a per-hctx scheduler's lock (kyber's khd->lock) */
};

struct ios_mq {
	unsigned nr_hw_queues, nr_cpus;
	bool elevator;			/* a scheduler sits in front (not 'none') */
	bool hctx_dispatch;		/* the scheduler dispatches per hctx (mq_ops->dispatch_hctx) */
	struct ios_mq_ctx *ctx;		/* [nr_cpus] */
	struct ios_mq_hctx *hctx;	/* [nr_hw_queues] */
	/* a rerun armed after the device refused with nothing in flight (BLK_MQ_RESOURCE_DELAY) */
	uint64_t resource_run_at;
	uint64_t nr_requeues, nr_direct, nr_busy;
	/* the CPU cost model (all 0: off, and nothing below is used) */
	struct ios_mq_cpu_cost cost;
	bool cost_on;
	bool in_cpu_backlog;		/* bios due from the CPUs are entering */
	struct ios_mq_lock lock;	/* a queue-wide scheduler's lock (dd->lock, bfqd->lock) */
	uint64_t cost_wake;		/* the earliest a gated dispatch may go (IOS_NO_WAKEUP: none) */
	/*
	 * The CPU (ctx) whose submission runs the queue now, -1 for a run that
	 * no submission made (a completion's, a timer's): a synchronous
	 * blk_mq_run_hw_queue runs on the caller's CPU, others on the hctx's.
	 */
	int run_cpu;
	/*
	 * cgroup v2: while > 0 (a completion or a free under way), bios the
	 * rq_qos policies let go wait here, oldest first, until the request's
	 * tags are free (ios_mq_qos_released)
	 */
	unsigned qos_defer;
	struct ios_bio *qos_released_head, *qos_released_tail;
};

/* mq_tag.c */
int ios_mq_tags_init(struct ios_mq_tags *t, unsigned depth);
void ios_mq_tags_free(struct ios_mq_tags *t);
/* A free tag, the first fit within @shallow bits of each word (0: no limit), or -1. */
int ios_mq_tag_get(struct ios_mq_tags *t, unsigned shallow);
void ios_mq_tag_put(struct ios_mq_tags *t, int tag);
/* sbitmap_calculate_shift of lib/sbitmap.c for a map of @depth bits */
unsigned ios_mq_tags_shift(unsigned depth);

/* mq.c, for block.c's entry points */
int ios_mq_init(struct ios_queue *q, const struct ios_queue_config *cfg, struct ios_err *e);
int ios_mq_init_sched(struct ios_queue *q, struct ios_err *e);
void ios_mq_exit(struct ios_queue *q);
int ios_mq_submit_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now);
void ios_mq_run(struct ios_queue *q, uint64_t now);
void ios_mq_complete(struct ios_queue *q, struct ios_request *rq, uint64_t now, int error);
void ios_mq_free_merged(struct ios_queue *q, struct ios_request *rq, uint64_t now);

/* mq.c, for rq_qos.c and block.c (cgroup v2, src/block/blkcg_int.h) */
/*
 * A bio every rq_qos policy has now let on after one kept it: it takes its
 * tag (or sleeps for one) and enters the queue; its submitter hears of it
 * through bio->queued unless blk-throttle already let it go on.
 */
void ios_mq_qos_released(struct ios_queue *q, struct ios_bio *bio, uint64_t now);
/* Re-arm the queue's timer outside a run (a controller's wake-up changed). */
void ios_mq_kick_timer(struct ios_queue *q, uint64_t now);

/* mq.c, for plug.c: requests coming off a plug (see there) */
void ios_mq_plug_issue_direct(struct ios_queue *q, struct ios_list_head *list, uint64_t now);
void ios_mq_plug_dispatch(struct ios_queue *q, struct ios_list_head *list, bool from_schedule,
			  uint64_t now);

/* plug.c, for mq.c */
/* blk_attempt_plug_merge: @bio into a request on @plug (may be NULL). True: merged. */
bool ios_plug_merge(struct ios_queue *q, struct ios_plug *plug, struct ios_bio *bio,
		    uint64_t now);
/* blk_add_rq_to_plug: @rq (just allocated) waits on @plug; flushes it first at its limits. */
void ios_plug_add(struct ios_plug *plug, struct ios_request *rq, uint64_t now);
/* blk_mq_flush_plug_list: @from_schedule for the implicit flush of a task going to sleep (UT). */
void ios_plug_flush(struct ios_plug *plug, bool from_schedule, uint64_t now);
/*
 * A bio submitted under @plug waits for CPU time (mq.c's cost model): the
 * plug stays its own until ios_plug_release(), which the bio calls once it
 * has entered; NULL when @plug is NULL (or no memory: the bio goes unplugged).
 */
struct ios_plug_held *ios_plug_hold(struct ios_plug *plug);
/* The plug a held bio joins when it enters: the owner's, or the deferred one. */
struct ios_plug *ios_plug_held_plug(const struct ios_plug_held *h);
/* The held bio has entered; the last one of a finished plug flushes it (U) and frees it. */
void ios_plug_release(struct ios_plug_held *h, uint64_t now);

#endif
