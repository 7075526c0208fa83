/*
 * blk-mq, the block layer of Linux 5.0 and later, following Linux 6.12
 * (block/blk-mq.c, block/blk-mq-sched.c, block/blk-mq-cpumap.c).
 *
 * A queue is built here when its scheduler names IOS_SCHED_LAYER_MQ
 * (ios_queue_create); the legacy schedulers keep block.c. What both layers
 * share (the request's life, statistics, trace points, merge rules) is in
 * rq.c and merge.c.
 *
 * - Contexts. Each simulated CPU is a software context; a bio belongs to
 *   the one of its task's CPU (ioc->cpu mod nr_cpus). CPUs map to hardware
 *   contexts as blk_mq_map_queues() does on one NUMA node without SMT
 *   siblings (group_cpus_evenly): consecutive CPUs per queue, the first
 *   (cpus mod queues) queues one CPU more; with at least as many queues as
 *   CPUs, CPU i uses queue i.
 * - Tags (mq_tag.c). Each hardware context has driver tags of the device's
 *   depth. With an elevator it also has scheduler tags of nr_requests =
 *   2 * min(depth, 128) (blk_mq_init_sched, BLKDEV_DEFAULT_RQ); a request
 *   takes a scheduler tag at allocation, capped by the scheduler's
 *   limit_depth(), and a driver tag only at dispatch. Under 'none' the
 *   request takes its driver tag at allocation and nr_requests is the
 *   depth. A task finding no tag sleeps (trace S); freed tags go to the
 *   sleepers in order (G), each retrying with its own shallow depth.
 * - Submission (blk_mq_submit_bio). A bio first tries the scheduler's merge
 *   (bio_merge: the one-hit cache, the back-merge hash, the scheduler's
 *   lookup), or under 'none' the software context's list
 *   (blk_bio_list_merge: the newest 8 requests); never across cgroups
 *   (merge.c). The task's plug (plug.c) is tried before these. Then a
 *   request is allocated; a plugged task's request waits on its plug
 *   until the plug is flushed (plug.c); otherwise, with an elevator, it is
 *   inserted into the scheduler (prepare_request first). Under 'none' it is issued at once
 *   (blk_mq_try_issue_directly) unless the hardware context is
 *   dispatch_busy and either it is the only one or the request is async;
 *   then it waits on its software context's list (trace I).
 * - Dispatch (__blk_mq_sched_dispatch_requests). The hardware context's
 *   dispatch list first; if that cannot be emptied, nothing else. With an
 *   elevator, requests are pulled one pass at a time (at most nr_requests,
 *   only 1 while dispatch_busy) until the scheduler has none, a driver tag
 *   is missing, or the dispatch list fills; queue-wide schedulers
 *   (ops.dispatch) serve every hardware context, per-hctx ones
 *   (mq_ops.dispatch_hctx) their own. Without one, the software contexts
 *   are flushed whole, or one request at a time round robin while
 *   dispatch_busy (blk_mq_do_dispatch_ctx).
 * - Busy devices. A host may refuse a request (its optional busy() op, the
 *   driver's BLK_STS_RESOURCE): the request gives back its driver tag
 *   (trace R) and waits at the tail of the dispatch list, and
 *   blk_mq_update_dispatch_busy's EWMA rises (x 7/8 + 16/8); an accepted
 *   dispatch decays it. The queue runs again at the next completion, or
 *   3 ms later when nothing is in flight (BLK_MQ_RESOURCE_DELAY).
 *   Simulated devices never refuse: their queue is full exactly when the
 *   driver tags are all taken.
 * - Completion: completed(), then finish_request() as the request is
 *   freed, its tags freed, sleepers woken, the bios ended, the queue run.
 *
 * - CPU cost (lab.cpu.*: measured defaults, or all 0 with
 *   lab.cpu.model=zero, and then off and untouched). Each CPU and each
 *   scheduler lock (queue-wide for ops.dispatch schedulers, per hctx for
 *   dispatch_hctx ones, none for 'none') is a single server with a
 *   busy-until time. A bio enters at the end of its CPU's submit time and
 *   the lock's insert time (mq_cpu_charge), waiting till then in its CPU's
 *   FIFO; a dispatch books the lock in arrival order (behind what holds
 *   or has booked it, ahead of later inserts), charges the CPU running the
 *   hardware queue dispatch_ns, and pulls at its end (mq_dispatch_paid); a
 *   completion loads the hctx's first CPU with the block layer's and the
 *   scheduler's completion time (and the scheduler's lock, for bfq). The
 *   host timer brings each of those runs (mq_update_timer).
 *
 * Not modelled here yet: a separate CPU time for the plug (the kernel's
 * blk_mq_flush_plug_list work is per request and counted in submit_ns: a
 * plugged bio pays its submit cost when it enters, as any other), requeues
 * the device asks for after starting a request,
 * shared tag sets, and I/O priority from the task.
 */
#include <stdlib.h>
#include <string.h>
#include "blkcg_int.h"
#include "mq_int.h"
#include "blkcg_int.h"
#include "iosched/scope.h"
#include "iosched/stats.h"

#define MQ_BUSY_EWMA_WEIGHT	8	/* BLK_MQ_DISPATCH_BUSY_EWMA_WEIGHT */
#define MQ_BUSY_EWMA_FACTOR	4	/* BLK_MQ_DISPATCH_BUSY_EWMA_FACTOR */
#define MQ_RESOURCE_DELAY_NS	(3ull * 1000 * 1000)	/* BLK_MQ_RESOURCE_DELAY, 3 ms */
#define MQ_DEFAULT_RQ		128u	/* BLKDEV_DEFAULT_RQ */
#define MQ_MAX_SCHED_RQ		(16u * MQ_DEFAULT_RQ)	/* MAX_SCHED_RQ */
#define MQ_LIST_MERGE_MAX	8u	/* blk_bio_list_merge's "stop count" */

static int mq_run_hctx(struct ios_queue *q, struct ios_mq_hctx *h, uint64_t now);
static void mq_cpu_backlog(struct ios_queue *q, uint64_t now);
static int mq_submit_cpu(struct ios_queue *q, struct ios_bio *bio, struct ios_plug *plug,
			 uint64_t now);

static inline struct ios_mq_hctx *rq_hctx(struct ios_queue *q, const struct ios_request *rq)
{
	return &q->mq->hctx[rq->mq_hctx];
}

static inline unsigned bio_ctx(const struct ios_queue *q, const struct ios_bio *bio)
{
	return bio->ioc ? bio->ioc->cpu % q->mq->nr_cpus : 0;
}

static inline struct ios_mq_hctx *ctx_hctx(struct ios_queue *q, unsigned ctx)
{
	return &q->mq->hctx[q->mq->ctx[ctx].hctx];
}

/* The map a new request takes its tag from: scheduler tags with an elevator. */
static inline struct ios_mq_tags *alloc_map(struct ios_queue *q, struct ios_mq_hctx *h)
{
	return q->mq->elevator ? &h->sched_tags : &h->tags;
}

/* ---- the CPU cost model (lab.cpu.*; off when every cost is 0) ---- */

/*
 * The lock a scheduler's insert and dispatch hold: dd->lock and bfqd->lock
 * are queue-wide (ops.dispatch), kyber's khd->lock per hardware context
 * (mq_ops.dispatch_hctx); 'none' takes none.
 */
static struct ios_mq_lock *sched_lock(struct ios_queue *q, struct ios_mq_hctx *h)
{
	if (!q->mq->elevator)
		return NULL;
	return q->mq->hctx_dispatch ? &h->lock : &q->mq->lock;
}

/* The first CPU mapped to hardware queue @h (its interrupt's in the lab). */
static struct ios_mq_ctx *hctx_first_cpu(struct ios_queue *q, unsigned h)
{
	for (unsigned c = 0; c < q->mq->nr_cpus; c++)
		if (q->mq->ctx[c].hctx == h)
			return &q->mq->ctx[c];
	return &q->mq->ctx[0];
}

/*
 * The CPU kblockd runs @h's queue on (6.12 blk_mq_hctx_next_cpu): with one
 * hardware queue WORK_CPU_UNBOUND, i.e. the CPU queueing the work, which
 * for a completion's rerun is the completing CPU, the queue's first here;
 * with several, the kernel takes the mask's CPUs in turn, 8 runs each
 * (BLK_MQ_CPU_WORK_BATCH): the lab takes the first one (no test could see
 * the turns: nearly every dispatch is a submitter's, which spins for it).
 */
static struct ios_mq_ctx *hctx_kblockd_cpu(struct ios_queue *q, struct ios_mq_hctx *h)
{
	return hctx_first_cpu(q, h->idx);
}

/*
 * The CPU that runs hardware queue @h now. Linux 6.12 blk_mq_run_hw_queue
 * (block/blk-mq.c; the rule dates from Bart Van Assche's July 2023 patch
 * "block: Improve performance for BLK_MQ_F_BLOCKING drivers", 6.6, and is
 * unchanged in 6.18): a synchronous run dispatches on the calling CPU when
 * that CPU is in hctx->cpumask, otherwise kblockd runs it on a CPU of the
 * mask (blk_mq_delay_run_hw_queue, blk_mq_hctx_next_cpu). Submissions run
 * synchronously; a completion's rerun (blk_mq_sched_restart) is async:
 * -1 here, and the caller asks hctx_kblockd_cpu.
 */
static int hctx_run_cpu(struct ios_queue *q, struct ios_mq_hctx *h)
{
	struct ios_mq *mq = q->mq;

	if (mq->run_cpu >= 0 && mq->ctx[mq->run_cpu].hctx == h->idx)
		return mq->run_cpu;
	return -1;
}

/*
 * A dispatch from @h may pull a request now? Each pull costs dispatch_ns
 * of its lock, paid BEFORE the request goes: the first ask reserves the
 * lock for dispatch_ns and the run is asked again then (cost_wake); that
 * ask pulls and issues. So the request reaches the device at the end of
 * the lock time it paid for, and the lock serves one insert or dispatch
 * at a time. The CPU running @h is charged dispatch_ns too, from when it
 * is free: what it submits next waits that much longer. (The lab does not
 * make the lock wait for that CPU: a lock held idle while its CPU finishes
 * a submission would waste lock time the kernel does not waste, as the
 * dispatching CPU is the one running. Each server's load is exact; their
 * overlap is simplified.)
 */
static bool mq_dispatch_paid(struct ios_queue *q, struct ios_mq_hctx *h, uint64_t now)
{
	struct ios_mq *mq = q->mq;
	struct ios_mq_lock *l = sched_lock(q, h);
	struct ios_mq_ctx *c;
	uint64_t start;
	int cpu;

	if (!l || !mq->cost.dispatch_ns)
		return true;
	if (l->reserved) {
		if (now < l->res_end) {
			if (l->res_end < mq->cost_wake)
				mq->cost_wake = l->res_end;
			return false;
		}
		l->reserved = false;
		return true;
	}
	/*
	 * Queued spinlocks are FIFO: book behind what holds or has booked the
	 * lock, ahead of later inserts (waiting for a free lock let each
	 * submission book ahead and starve the dispatch). The CPU is charged
	 * the section only; the spin is not counted against its submissions.
	 */
	start = l->busy_until > now ? l->busy_until : now;
	cpu = hctx_run_cpu(q, h);
	c = cpu >= 0 ? &mq->ctx[cpu] : hctx_kblockd_cpu(q, h);
	c->busy_until = (c->busy_until > now ? c->busy_until : now) + mq->cost.dispatch_ns;
	l->busy_until = start + mq->cost.dispatch_ns;
	l->res_end = l->busy_until;
	l->reserved = true;
	if (l->res_end < mq->cost_wake)
		mq->cost_wake = l->res_end;
	return false;
}

/*
 * When @bio, submitted at @now, enters the queue: its CPU serves
 * submit_ns after whatever it does already, then (with an elevator, not
 * for a flush) holds the scheduler's lock for insert_ns once the lock is
 * free, spinning meanwhile as a spinlock does. Both stay busy until then.
 */
static uint64_t mq_cpu_charge(struct ios_queue *q, const struct ios_bio *bio, uint64_t now)
{
	struct ios_mq *mq = q->mq;
	unsigned ctx = bio_ctx(q, bio);
	struct ios_mq_ctx *c = &mq->ctx[ctx];
	struct ios_mq_lock *l = sched_lock(q, ctx_hctx(q, ctx));
	uint64_t t = (c->busy_until > now ? c->busy_until : now) + mq->cost.submit_ns;

	if (l && mq->cost.insert_ns && bio->nr_sectors) {
		if (l->busy_until > t)
			t = l->busy_until;
		t += mq->cost.insert_ns;
		l->busy_until = t;
	}
	c->busy_until = t;
	return t;
}

/* ---- dispatch_busy (blk_mq_update_dispatch_busy) ---- */

static void mq_update_busy(struct ios_mq_hctx *h, bool busy)
{
	unsigned ewma = h->dispatch_busy;

	if (!ewma && !busy)
		return;
	ewma *= MQ_BUSY_EWMA_WEIGHT - 1;
	if (busy)
		ewma += 1u << MQ_BUSY_EWMA_FACTOR;
	h->dispatch_busy = ewma / MQ_BUSY_EWMA_WEIGHT;
}

/* ---- the scheduler, queue-wide or per hardware context ---- */

static bool sched_has_work(struct ios_queue *q, struct ios_mq_hctx *h)
{
	const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(q->sched);

	if (mo && mo->has_work_hctx)
		return mo->has_work_hctx(q, h->idx);
	return q->sched->ops.has_work(q);
}

static struct ios_request *sched_dispatch(struct ios_queue *q, struct ios_mq_hctx *h,
					  uint64_t now)
{
	const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(q->sched);

	if (mo && mo->dispatch_hctx)
		return mo->dispatch_hctx(q, h->idx, now);
	return q->sched->ops.dispatch(q, now, 0);
}

/* ---- tags and sleepers ---- */

static void park_bio(struct ios_queue *q, struct ios_mq_tags *t, struct ios_bio *bio,
		     uint64_t now)
{
	bio->next = NULL;
	if (t->wait_tail)
		t->wait_tail->next = bio;
	else
		t->wait_head = bio;
	t->wait_tail = bio;
	t->nr_waiting++;
	ios_blk_trace(q, IOS_TA_SLEEPRQ, NULL, bio, now);
}

/*
 * A sleeping bio entered the queue: its submitter wakes, unless the bio
 * is one blk-throttle held, whose submitter was never asleep (it heard
 * "accepted" when blk-throttle took the bio).
 */
static void mq_bio_queued(struct ios_bio *bio, uint64_t now)
{
	/* nobody sleeps on a bio whose submitter was told 0 (blk-throttle, the CPU) */
	if (bio->queued && !(bio->qos_flags & IOS_BIO_ANNOUNCED) && !bio->cpu_held)
		bio->queued(bio, now);
}

/* The shallow depth of this allocation: the scheduler's limit_depth, 0 for none. */
static unsigned bio_shallow(struct ios_queue *q, const struct ios_bio *bio)
{
	const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(q->sched);
	unsigned opf;

	/* __blk_mq_alloc_requests: only elevator requests, never a flush */
	if (!q->mq->elevator || !bio->nr_sectors || !mo || !mo->limit_depth)
		return 0;
	opf = bio->flags | (bio->dir == IOS_WRITE ? 1u << 31 : 0);
	return mo->limit_depth(q, opf, bio->ioc);
}

/* Build the request for @bio on @tag of @h's allocation map (trace G). */
static void mq_init_request(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
			    unsigned ctx, int tag, uint64_t now)
{
	struct ios_mq *mq = q->mq;
	const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(q->sched);

	ios_blk_rq_init_from_bio(q, rq, bio, now);
	rq->mq_ctx = (uint16_t)ctx;
	rq->mq_hctx = (uint16_t)mq->ctx[ctx].hctx;
	if (mq->elevator)
		rq->sched_tag = tag;
	else
		rq->tag = tag;
	q->rq_count[ios_bio_is_sync(bio)]++;
	q->nr_allocated++;
	if (rq->ioc)
		rq->ioc->nr_requests++;
	ios_blk_trace(q, IOS_TA_GETRQ, rq, bio, now);
	ios_queue_stats_update(q, now);
	q->stats.in_flight++;
	/* blk_mq_rq_ctx_init: prepare_request for requests that go to the elevator */
	if (mq->elevator && rq->nr_sectors && mo && mo->prepare_request)
		mo->prepare_request(q, rq);
	/* blk_mq_rq_ctx_init's start_time_ns - alloc_time_ns: the tag wait */
	rq->tag_wait_ns = now > bio->alloc_ns ? now - bio->alloc_ns : 0;
	/* blk_mq_submit_bio: trace_block_getrq, then rq_qos_track */
	if (q->rq_qos)
		ios_rq_qos_track(q, rq, bio);
}

/* A request for @bio now, or NULL: no tag (or no memory); the task must sleep. */
static struct ios_request *mq_get_request(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	unsigned ctx = bio_ctx(q, bio);
	struct ios_mq_tags *t = alloc_map(q, ctx_hctx(q, ctx));
	struct ios_request *rq;
	int tag;

	/* __blk_mq_alloc_requests' alloc_time_ns: after rq_qos throttle, before the tag */
	bio->alloc_ns = now;
	tag = ios_mq_tag_get(t, bio_shallow(q, bio));
	if (tag < 0)
		return NULL;
	rq = ios_blk_rq_alloc(q);
	if (!rq) {
		ios_mq_tag_put(t, tag);
		return NULL;
	}
	mq_init_request(q, rq, bio, ctx, tag, now);
	return rq;
}

static bool mq_get_driver_tag(struct ios_queue *q, struct ios_request *rq)
{
	int tag;

	if (rq->tag >= 0)
		return true;
	tag = ios_mq_tag_get(&rq_hctx(q, rq)->tags, 0);
	if (tag < 0)
		return false;
	rq->tag = tag;
	return true;
}

/* blk_mq_put_driver_tag: only a request that also holds a scheduler tag gives it back */
static void mq_put_driver_tag(struct ios_queue *q, struct ios_request *rq)
{
	if (rq->sched_tag < 0 || rq->tag < 0)
		return;
	ios_mq_tag_put(&rq_hctx(q, rq)->tags, rq->tag);
	rq->tag = -1;
}

static bool mq_queue_new(struct ios_queue *q, struct ios_request *rq, uint64_t now);

/*
 * Tags of @t freed: its sleepers retry in order, each with its own shallow
 * depth (one capped by limit_depth may stay asleep while a later one fits).
 */
static void wake_tag_waiters(struct ios_queue *q, struct ios_mq_tags *t, uint64_t now)
{
	struct ios_bio **pp = &t->wait_head, *prev = NULL;

	while (*pp && t->used < t->depth) {
		struct ios_bio *bio = *pp;
		struct ios_request *rq;
		int tag = ios_mq_tag_get(t, bio_shallow(q, bio));

		if (tag < 0) {
			prev = bio;
			pp = &bio->next;
			continue;
		}
		rq = ios_blk_rq_alloc(q);
		if (!rq) {
			ios_mq_tag_put(t, tag);
			break;
		}
		*pp = bio->next;
		if (t->wait_tail == bio)
			t->wait_tail = prev;
		t->nr_waiting--;
		mq_init_request(q, rq, bio, bio_ctx(q, bio), tag, now);
		mq_queue_new(q, rq, now);
		mq_bio_queued(bio, now);
	}
}

static void mq_release_deferred(struct ios_queue *q, uint64_t now);

/*
 * blk_mq_free_request: finish_request, rq_qos_done, then the tags. A bio a
 * policy lets go in its done hook is held back until the tags are free:
 * the task it wakes runs after the completion (ios_mq_qos_released).
 */
static void mq_free_request(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_mq_hctx *h = rq_hctx(q, rq);
	const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(q->sched);
	bool qos = q->rq_qos != NULL;

	IOS_BUG_ON_MSG(rq->state != IOS_RQ_QUEUED && rq->state != IOS_RQ_DONE,
		       "request %" PRIu64 " freed while %s", rq->id,
		       ios_blk_rq_state_name(rq->state));
	/* blk_mq_free_request: finish_request for what went to the elevator */
	if (q->mq->elevator && rq->nr_sectors && mo && mo->finish_request)
		mo->finish_request(q, rq, now);
	if (qos) {
		q->mq->qos_defer++;
		ios_rq_qos_done(q, rq, now);
	}
	rq->state = IOS_RQ_FREE;
	if (rq->ioc) {
		IOS_BUG_ON(rq->ioc->nr_requests == 0);
		rq->ioc->nr_requests--;
	}
	IOS_BUG_ON(q->rq_count[ios_rq_is_sync(rq)] == 0);
	q->rq_count[ios_rq_is_sync(rq)]--;
	q->nr_freed++;
	if (q->last_merge == rq)
		q->last_merge = NULL;
	if (rq->tag >= 0)
		ios_mq_tag_put(&h->tags, rq->tag);
	if (rq->sched_tag >= 0)
		ios_mq_tag_put(&h->sched_tags, rq->sched_tag);
	rq->tag = rq->sched_tag = -1;
	ios_list_add(&rq->queuelist, &q->free_rqs);
	wake_tag_waiters(q, alloc_map(q, h), now);
	if (qos && !--q->mq->qos_defer)
		mq_release_deferred(q, now);
}

void ios_mq_free_merged(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_mq_ctx *c = &q->mq->ctx[rq->mq_ctx];

	/* merged away from a software context's list ('none'): leave it */
	if (!q->mq->elevator && c->nr_rqs && !ios_list_empty(&rq->queuelist)) {
		ios_list_del(&rq->queuelist);
		c->nr_rqs--;
	}
	mq_free_request(q, rq, now);
}

/* ---- insertion ---- */

/* blk_mq_request_bypass_insert: the hardware context's dispatch list */
static void bypass_insert(struct ios_queue *q, struct ios_request *rq, bool at_head)
{
	struct ios_mq_hctx *h = rq_hctx(q, rq);

	if (at_head)
		ios_list_add(&rq->queuelist, &h->dispatch);
	else
		ios_list_add_tail(&rq->queuelist, &h->dispatch);
	h->nr_dispatch++;
}

/* A request that may take bio merges: on the back-merge hash. */
static void mq_sorted(struct ios_queue *q, struct ios_request *rq)
{
	rq->elv_sorted = 1;
	if (ios_blk_bio_mergeable(rq->bio)) {
		ios_blk_hash_add(q, rq);
		if (q->mq->elevator && !q->last_merge)
			q->last_merge = rq;
	}
	q->nr_sorted++;
}

/*
 * Out of the scheduler or the software context, on its way to the driver:
 * no bio merges into it from now on (the elevator's elv_rqhash_del).
 */
static void mq_unsort(struct ios_queue *q, struct ios_request *rq)
{
	ios_blk_hash_del(rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
}

/* 'none': wait on the software context's list (blk_mq_insert_request) */
static void ctx_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_mq_ctx *c = &q->mq->ctx[rq->mq_ctx];

	mq_sorted(q, rq);
	ios_list_add_tail(&rq->queuelist, &c->rq_list);
	c->nr_rqs++;
	ios_blk_trace(q, IOS_TA_INSERT, rq, NULL, now);
}

/* The device would take @rq now? (the host's optional busy(): BLK_STS_RESOURCE) */
static bool host_busy(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	if (!q->host_ops->busy || !q->host_ops->busy(q->host, q, rq, now))
		return false;
	q->mq->nr_busy++;
	if (!q->rq_in_driver && !q->mq->resource_run_at)
		q->mq->resource_run_at = now + MQ_RESOURCE_DELAY_NS;
	return true;
}

/* The device said busy: give back the driver tag, trace R (__blk_mq_requeue_request). */
static void mq_requeue(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	mq_put_driver_tag(q, rq);
	q->mq->nr_requeues++;
	ios_blk_trace(q, IOS_TA_REQUEUE, rq, NULL, now);
	if (q->rq_qos)
		ios_rq_qos_requeue(q, rq, now);
}

/*
 * blk_mq_start_request, then the driver: trace D, rq_qos_issue (6.12
 * calls it with the queue's stats on: wbt and io.cost's enable=1 turn
 * them on, io.latency has no issue hook), then the device.
 */
static void mq_rq_issue(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	ios_blk_rq_start(q, rq, now);
	if (q->rq_qos)
		ios_rq_qos_issue(q, rq, now);
	q->host_ops->issue(q->host, q, rq, now);
}

/*
 * blk_mq_try_issue_directly ('none'; the request holds its driver tag).
 * False: the device said busy, the request waits on the dispatch list.
 */
static bool try_issue_directly(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_mq_hctx *h = rq_hctx(q, rq);

	if (host_busy(q, rq, now)) {
		mq_update_busy(h, true);
		mq_requeue(q, rq, now);
		bypass_insert(q, rq, false);
		/* blk_mq_run_hw_queue; inside a run, that run goes on */
		if (!q->in_run)
			ios_mq_run(q, now);
		return false;
	}
	mq_update_busy(h, false);
	q->mq->nr_direct++;
	h->nr_dispatched++;
	mq_rq_issue(q, rq, now);
	return true;
}

/*
 * A new request (just allocated) goes on its way. True when the queue must
 * run for it (it waits somewhere); false when it was issued directly, or
 * refused and the queue already ran.
 */
static bool mq_queue_new(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_mq_hctx *h = rq_hctx(q, rq);

	rq->insert_ns = now;
	ios_blk_rq_step(rq, IOS_RQ_ALLOCATED, IOS_RQ_QUEUED, "inserted");
	if (!rq->nr_sectors) {
		/* a cache flush: the head of the dispatch list (blk_mq_insert_request) */
		bypass_insert(q, rq, true);
		return true;
	}
	if (q->mq->elevator) {
		mq_sorted(q, rq);
		q->sched->ops.insert(q, rq, now, 0);
		ios_blk_trace(q, IOS_TA_INSERT, rq, NULL, now);
		return true;
	}
	/* blk_mq_submit_bio without an elevator */
	if (h->dispatch_busy && (q->mq->nr_hw_queues == 1 || !ios_rq_is_sync(rq))) {
		ctx_insert(q, rq, now);
		return true;
	}
	try_issue_directly(q, rq, now);
	return false;
}

/* ---- requests coming off a plug (plug.c) ---- */

/* A plugged request leaves the plug: from now on it is queued. */
static void plug_rq_leave(struct ios_request *rq, uint64_t now)
{
	ios_list_del(&rq->queuelist);
	rq->insert_ns = now;
	ios_blk_rq_step(rq, IOS_RQ_ALLOCATED, IOS_RQ_QUEUED, "unplugged");
}

/*
 * blk_mq_plug_issue_direct (6.12): issue @list, requests of this queue
 * that hold driver tags ('none'), in order, until the device says busy;
 * that one waits on the dispatch list and the rest stay on @list.
 */
void ios_mq_plug_issue_direct(struct ios_queue *q, struct ios_list_head *list, uint64_t now)
{
	while (!ios_list_empty(list)) {
		struct ios_request *rq = ios_list_first_entry(list, struct ios_request, queuelist);

		plug_rq_leave(rq, now);
		if (!try_issue_directly(q, rq, now))
			return;
	}
}

/*
 * blk_mq_dispatch_plug_list's second half (6.12): @list holds requests of
 * one hardware and one software context of this queue, oldest first. An
 * elevator gets them all (insert_requests); without one they are issued
 * directly unless the hardware context is dispatch_busy or the flush comes
 * from a sleeping task (blk_mq_insert_requests); what is not issued waits
 * in the software context (trace I). Then the queue runs.
 */
void ios_mq_plug_dispatch(struct ios_queue *q, struct ios_list_head *list, bool from_schedule,
			  uint64_t now)
{
	struct ios_request *rq;

	if (q->mq->elevator) {
		while (!ios_list_empty(list)) {
			rq = ios_list_first_entry(list, struct ios_request, queuelist);
			plug_rq_leave(rq, now);
			mq_sorted(q, rq);
			q->sched->ops.insert(q, rq, now, 0);
			ios_blk_trace(q, IOS_TA_INSERT, rq, NULL, now);
		}
		ios_mq_run(q, now);
		return;
	}
	rq = ios_list_first_entry(list, struct ios_request, queuelist);
	if (!rq_hctx(q, rq)->dispatch_busy && !from_schedule) {
		/* blk_mq_try_issue_list_directly */
		while (!ios_list_empty(list)) {
			rq = ios_list_first_entry(list, struct ios_request, queuelist);
			plug_rq_leave(rq, now);
			if (!try_issue_directly(q, rq, now))
				break;
		}
	}
	while (!ios_list_empty(list)) {
		rq = ios_list_first_entry(list, struct ios_request, queuelist);
		plug_rq_leave(rq, now);
		ctx_insert(q, rq, now);
	}
	ios_mq_run(q, now);
}

/* ---- dispatch ---- */

/*
 * blk_mq_dispatch_rq_list: issue @list (requests of @h) while driver tags
 * last and the device takes them; what is left goes to @h's dispatch list.
 * True when all went.
 */
static bool dispatch_rq_list(struct ios_queue *q, struct ios_mq_hctx *h,
			     struct ios_list_head *list, uint64_t now)
{
	while (!ios_list_empty(list)) {
		struct ios_request *rq = ios_list_first_entry(list, struct ios_request, queuelist);

		if (!mq_get_driver_tag(q, rq))
			break;
		ios_list_del(&rq->queuelist);
		if (host_busy(q, rq, now)) {
			mq_requeue(q, rq, now);
			ios_list_add(&rq->queuelist, list);
			break;
		}
		rq_hctx(q, rq)->nr_dispatched++;
		mq_rq_issue(q, rq, now);
	}
	if (!ios_list_empty(list)) {
		while (!ios_list_empty(list)) {
			struct ios_request *rq = ios_list_first_entry(list, struct ios_request,
								      queuelist);

			ios_list_del(&rq->queuelist);
			ios_list_add_tail(&rq->queuelist, &h->dispatch);
			h->nr_dispatch++;
		}
		mq_update_busy(h, true);
		return false;
	}
	mq_update_busy(h, false);
	return true;
}

/* Requests a queue-wide scheduler handed over may belong to several hctxs: by hctx. */
static bool dispatch_by_hctx(struct ios_queue *q, struct ios_list_head *list, uint64_t now)
{
	bool dispatched = false;

	for (unsigned i = 0; i < q->mq->nr_hw_queues && !ios_list_empty(list); i++) {
		struct ios_list_head sub, *pos, *n;

		ios_list_init(&sub);
		ios_list_for_each_safe(pos, n, list) {
			struct ios_request *rq = ios_list_entry(pos, struct ios_request, queuelist);

			if (rq->mq_hctx == i) {
				ios_list_del(&rq->queuelist);
				ios_list_add_tail(&rq->queuelist, &sub);
			}
		}
		if (!ios_list_empty(&sub))
			dispatched |= dispatch_rq_list(q, &q->mq->hctx[i], &sub, now);
	}
	return dispatched;
}

/* __blk_mq_do_dispatch_sched: 1 dispatched, 0 not, -EAGAIN the dispatch list filled */
static int do_dispatch_sched_once(struct ios_queue *q, struct ios_mq_hctx *h, uint64_t now)
{
	unsigned max = h->dispatch_busy ? 1 : q->nr_requests, count = 0;
	struct ios_list_head list;
	bool busy = false, dispatched = false;

	ios_list_init(&list);
	do {
		struct ios_request *rq;

		if (!sched_has_work(q, h))
			break;
		if (!ios_list_empty(&h->dispatch)) {
			busy = true;
			break;
		}
		if (q->mq->cost_on && !mq_dispatch_paid(q, h, now))
			break;
		rq = sched_dispatch(q, h, now);
		if (!rq)
			break;
		IOS_BUG_ON(!rq->elv_sorted);
		q->nr_sorted--;
		mq_unsort(q, rq);
		ios_list_add_tail(&rq->queuelist, &list);
		count++;
		/* no driver tag: stop pulling, the scheduler keeps the rest */
		if (!mq_get_driver_tag(q, rq))
			break;
	} while (count < max);
	if (count)
		dispatched = dispatch_by_hctx(q, &list, now);
	if (busy)
		return -EAGAIN;
	return dispatched;
}

static int do_dispatch_sched(struct ios_queue *q, struct ios_mq_hctx *h, uint64_t now)
{
	int ret;

	do
		ret = do_dispatch_sched_once(q, h, now);
	while (ret == 1);
	return ret;
}

/* The first request of the next software context of @h, round robin from *@from. */
static struct ios_request *dequeue_from_ctx(struct ios_queue *q, struct ios_mq_hctx *h,
					    unsigned *from)
{
	struct ios_mq *mq = q->mq;

	for (unsigned k = 0; k < mq->nr_cpus; k++) {
		unsigned c = (*from + k) % mq->nr_cpus;
		struct ios_mq_ctx *ctx = &mq->ctx[c];
		struct ios_request *rq;

		if (ctx->hctx != h->idx || !ctx->nr_rqs)
			continue;
		rq = ios_list_first_entry(&ctx->rq_list, struct ios_request, queuelist);
		ios_list_del(&rq->queuelist);
		ctx->nr_rqs--;
		q->nr_sorted--;
		mq_unsort(q, rq);
		*from = (c + 1) % mq->nr_cpus;
		return rq;
	}
	return NULL;
}

/* blk_mq_do_dispatch_ctx: one request at a time while the device is busy */
static int do_dispatch_ctx(struct ios_queue *q, struct ios_mq_hctx *h, uint64_t now)
{
	unsigned from = h->dispatch_from;
	int ret = 0;

	for (;;) {
		struct ios_list_head list;
		struct ios_request *rq;

		if (!ios_list_empty(&h->dispatch)) {
			ret = -EAGAIN;
			break;
		}
		rq = dequeue_from_ctx(q, h, &from);
		if (!rq)
			break;
		ios_list_init(&list);
		ios_list_add_tail(&rq->queuelist, &list);
		if (!dispatch_rq_list(q, h, &list, now))
			break;
	}
	h->dispatch_from = from;
	return ret;
}

/* blk_mq_flush_busy_ctxs: every software context of @h, in CPU order */
static void flush_ctxs(struct ios_queue *q, struct ios_mq_hctx *h, struct ios_list_head *list)
{
	struct ios_mq *mq = q->mq;

	for (unsigned c = 0; c < mq->nr_cpus; c++) {
		struct ios_mq_ctx *ctx = &mq->ctx[c];

		if (ctx->hctx != h->idx)
			continue;
		while (ctx->nr_rqs) {
			struct ios_request *rq = ios_list_first_entry(&ctx->rq_list,
								      struct ios_request,
								      queuelist);

			ios_list_del(&rq->queuelist);
			ios_list_add_tail(&rq->queuelist, list);
			ctx->nr_rqs--;
			q->nr_sorted--;
			mq_unsort(q, rq);
		}
	}
}

/* __blk_mq_sched_dispatch_requests */
static int run_hctx_once(struct ios_queue *q, struct ios_mq_hctx *h, uint64_t now)
{
	struct ios_list_head list;
	bool need_dispatch;

	ios_list_init(&list);
	if (!ios_list_empty(&h->dispatch)) {
		while (!ios_list_empty(&h->dispatch)) {
			struct ios_request *rq = ios_list_first_entry(&h->dispatch,
								      struct ios_request,
								      queuelist);

			ios_list_del(&rq->queuelist);
			ios_list_add_tail(&rq->queuelist, &list);
		}
		h->nr_dispatch = 0;
		if (!dispatch_rq_list(q, h, &list, now))
			return 0;
		need_dispatch = true;
	} else {
		need_dispatch = h->dispatch_busy != 0;
	}
	if (q->mq->elevator)
		return do_dispatch_sched(q, h, now);
	if (need_dispatch)
		return do_dispatch_ctx(q, h, now);
	flush_ctxs(q, h, &list);
	if (!ios_list_empty(&list))
		dispatch_rq_list(q, h, &list, now);
	return 0;
}

/* blk_mq_sched_dispatch_requests: a second pass when the dispatch list filled */
static int mq_run_hctx(struct ios_queue *q, struct ios_mq_hctx *h, uint64_t now)
{
	int ret = run_hctx_once(q, h, now);

	if (ret == -EAGAIN)
		ret = run_hctx_once(q, h, now);
	return ret;
}

static bool hctx_pending(struct ios_queue *q, struct ios_mq_hctx *h)
{
	struct ios_mq *mq = q->mq;

	if (!ios_list_empty(&h->dispatch))
		return true;
	if (mq->elevator)
		return q->nr_sorted && sched_has_work(q, h);
	for (unsigned c = 0; c < mq->nr_cpus; c++)
		if (mq->ctx[c].hctx == h->idx && mq->ctx[c].nr_rqs)
			return true;
	return false;
}

static void mq_update_timer(struct ios_queue *q, uint64_t now)
{
	struct ios_mq *mq = q->mq;
	uint64_t w = IOS_NO_WAKEUP;

	if (mq->elevator && q->sched->ops.next_wakeup) {
		w = q->sched->ops.next_wakeup(q);
		/*
		 * Asked for now (or earlier): as block.c, try again a
		 * nanosecond later if a driver tag is free and the scheduler
		 * has work; with every tag taken the next completion runs us.
		 */
		if (w != IOS_NO_WAKEUP && w <= now) {
			bool free_tag = false;

			for (unsigned i = 0; i < mq->nr_hw_queues && !free_tag; i++)
				free_tag = mq->hctx[i].tags.used < mq->hctx[i].tags.depth &&
					   sched_has_work(q, &mq->hctx[i]);
			w = free_tag ? now + 1 : IOS_NO_WAKEUP;
		}
	}
	if (mq->resource_run_at && mq->resource_run_at < w)
		w = mq->resource_run_at;
	/* blk-throttle's and the rq_qos policies' wake-ups; one due already: a ns later */
	if (q->rq_qos || q->throtl_ops) {
		uint64_t t = ios_blkcg_next_timer(q, now);

		if (t <= now)
			t = now + 1;
		if (t < w)
			w = t;
	}
	if (mq->cost_on) {
		if (mq->cost_wake < w)
			w = mq->cost_wake;
		/* while bios are entering, the run that let them in sets the timer */
		for (unsigned c = 0; c < mq->nr_cpus && !mq->in_cpu_backlog; c++)
			if (mq->ctx[c].cpu_head && mq->ctx[c].cpu_head->cpu_ready_ns < w)
				w = mq->ctx[c].cpu_head->cpu_ready_ns;
	}
	if (w != q->timer_at) {
		q->timer_at = w;
		q->host_ops->set_timer(q->host, q, w);
	}
}

void ios_mq_run(struct ios_queue *q, uint64_t now)
{
	struct ios_mq *mq = q->mq;

	ios_blk_clock(q, now);
	if (q->in_run)
		return;
	if (mq->cost_on && !mq->in_cpu_backlog)
		mq_cpu_backlog(q, now);
	q->in_run = true;
	if (mq->resource_run_at && mq->resource_run_at <= now)
		mq->resource_run_at = 0;
	mq->cost_wake = IOS_NO_WAKEUP;
	for (unsigned i = 0; i < mq->nr_hw_queues; i++)
		if (hctx_pending(q, &mq->hctx[i]))
			mq_run_hctx(q, &mq->hctx[i], now);
	q->in_run = false;
	mq_update_timer(q, now);
}

/* ---- submission and completion ---- */

/* blk_mq_sched_bio_merge: the elevator's merge, or the software context's list */
static bool mq_bio_merge(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	struct ios_request *rq = NULL;
	enum ios_merge m;

	if (q->mq->elevator && q->sched->ops.bio_merge) {
		m = ios_blk_elv_merge(q, bio, &rq);
		if (m == IOS_NO_MERGE)
			return false;
		ios_blk_bio_merge_into(q, rq, bio, m, now);
		return true;
	}
	return ios_blk_list_merge(q, &q->mq->ctx[bio_ctx(q, bio)].rq_list, MQ_LIST_MERGE_MAX,
				  bio, now);
}

/*
 * The bio enters the queue now, its task's plug being @plug: merge, or a
 * request inserted or issued; 1: it sleeps.
 */
static int mq_submit_now(struct ios_queue *q, struct ios_bio *bio, struct ios_plug *plug,
			 uint64_t now)
{
	struct ios_request *rq;

	/*
	 * blk_mq_attempt_bio_merge: the task's plug first, then the
	 * scheduler or the software context; nomerges=2 (QUEUE_FLAG_NOMERGES)
	 * skips both. A merged bio runs nothing, as in the kernel; sleepers
	 * woken by a request merged away are dispatched by the next run.
	 */
	if (q->tun.nomerges != 2 && ios_blk_bio_mergeable(bio) &&
	    (ios_plug_merge(q, plug, bio, now) || mq_bio_merge(q, bio, now)))
		return 0;
	/*
	 * blk_mq_get_new_requests: rq_qos_throttle before the tag. A policy
	 * that keeps the bio puts its task to sleep (rq_qos_wait ->
	 * io_schedule, which flushes the plug as the tag wait below does);
	 * ios_rq_qos_release brings it back to its tag.
	 */
	if (q->rq_qos && ios_rq_qos_throttle(q, q->rq_qos, bio, now)) {
		if (plug)
			ios_blk_flush_plug(bio->ioc, true, now);
		if (!q->in_run)
			mq_update_timer(q, now);
		return 1;
	}
	rq = mq_get_request(q, bio, now);
	if (!rq) {
		/*
		 * blk_mq_get_tag sleeps in io_schedule(), which flushes the
		 * task's plug first (io_schedule_prepare: an implicit unplug,
		 * trace UT); the plugged requests already hold their tags.
		 */
		if (plug)
			ios_plug_flush(plug, true, now);
		park_bio(q, alloc_map(q, ctx_hctx(q, bio_ctx(q, bio))), bio, now);
		return 1;
	}
	/*
	 * blk_mq_submit_bio: a plugged task's request waits on its plug
	 * (blk_add_rq_to_plug); a cache flush never does (blk_insert_flush).
	 */
	if (plug && rq->nr_sectors) {
		ios_plug_add(plug, rq, now);
		return 0;
	}
	if (mq_queue_new(q, rq, now))
		ios_mq_run(q, now);
	return 0;
}

/*
 * bio_set_ioprio (6.12, block/blk-mq.c, called from blk_mq_submit_bio): a
 * bio whose own priority has no class gets the submitting task's,
 * get_current_ioprio() -> __get_task_ioprio (include/linux/ioprio.h, 6.8+
 * form after 53889bcaf536): a task without an io_context gets
 * IOPRIO_DEFAULT, which is class NONE level 0 since Jan Kara's 2022
 * series; one with an io_context whose class is NONE gets the class and
 * level its nice value and policy imply. A task has an io_context here
 * only when ioprio_set() made one (fio's prioclass/prio: our ioc class
 * not NONE), so every other task keeps NONE, 0. The submitter is the
 * bio's task: the flusher for background writeback (its kworker has no
 * priority of its own), the writing task itself for fsync and direct I/O.
 * So a prioclass=1 writer's dirty pages reach the scheduler as the
 * flusher's NONE (mq-deadline: BE), not as RT. The value is fixed here,
 * before any merge: blk-mq never merges bios or requests whose ioprio
 * differs (merge.c). The cgroup's io.prio.class comes last
 * (blkcg_set_ioprio, blk_ioprio.c). Not modelled: the io_context BFQ
 * creates for every task it serves (under bfq-6.12 a task without a class
 * would get BE and its nice level instead of NONE; BFQ reads its own
 * priorities from the task, so only merges could see it).
 */
static void mq_bio_set_ioprio(struct ios_bio *bio)
{
	const struct ios_ioc *ioc = bio->ioc;

	if (!((bio->ioprio >> 13) & 7)) {
		if (!ioc || ioc->ioprio_class == IOS_IOPRIO_CLASS_NONE)
			bio->ioprio = 0;	/* IOPRIO_DEFAULT */
		else
			bio->ioprio = ios_ioc_class(ioc) << 13 | ios_ioc_level(ioc);
	}
	/* then the cgroup's io.prio.class (blkcg_set_ioprio, blk_ioprio.c) */
	ios_blkcg_set_ioprio(ios_bio_blkcg(bio), bio);
}

/*
 * With the cost model on, a bio enters when its CPU (and the scheduler's
 * lock for the insert) has served it (mq_cpu_charge); until then it waits
 * in its CPU's FIFO. Its task is not asleep meanwhile: in the kernel it is
 * the task itself that spends that CPU time inside submit_bio, one bio
 * after another, and then goes on with its next bio or its next iocb (an
 * io_submit batch, an O_DIRECT I/O of several bios). So the call answers
 * 0, and the bio keeps its task's plug (plug.c, ios_plug_hold): it joins
 * it when it enters (blk_add_rq_to_plug), and the plug's finish waits for
 * it. Only a tag makes the task sleep (1, then bio->queued), and a held
 * bio that finds none when it enters sleeps without telling its
 * submitter, which has gone on (docs/blk-mq.md, fidelity). The queue
 * never reads a clock: the host timer brings the run that lets it in
 * (mq_update_timer).
 */
int ios_mq_submit_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	struct ios_mq *mq = q->mq;
	/*
	 * A bio blk-throttle held goes on from the throttle's dispatch, not
	 * from its task: the task's plug is not its (the dispatch worker's
	 * own plug is not modelled).
	 */
	struct ios_plug *plug = bio->ioc && !(bio->qos_flags & IOS_BIO_ANNOUNCED) ?
				bio->ioc->plug : NULL;
	struct ios_mq_ctx *c;

	mq_bio_set_ioprio(bio);
	bio->cpu_held = false;
	bio->plug_held = NULL;
	if (!mq->cost_on)
		return mq_submit_now(q, bio, plug, now);
	bio->cpu_ready_ns = mq_cpu_charge(q, bio, now);
	if (bio->cpu_ready_ns <= now)
		return mq_submit_cpu(q, bio, plug, now);
	bio->cpu_held = true;
	bio->plug_held = ios_plug_hold(plug);
	c = &mq->ctx[bio_ctx(q, bio)];
	bio->next = NULL;
	if (c->cpu_tail)
		c->cpu_tail->next = bio;
	else
		c->cpu_head = bio;
	c->cpu_tail = bio;
	if (!q->in_run)
		mq_update_timer(q, now);
	return 0;
}

/* mq_submit_now on the bio's CPU: a run it makes dispatches there (hctx_run_cpu). */
static int mq_submit_cpu(struct ios_queue *q, struct ios_bio *bio, struct ios_plug *plug,
			 uint64_t now)
{
	int saved = q->mq->run_cpu, ret;

	q->mq->run_cpu = (int)bio_ctx(q, bio);
	ret = mq_submit_now(q, bio, plug, now);
	q->mq->run_cpu = saved;
	return ret;
}

/* Bios whose CPU time has passed enter, earliest first (ties: lowest CPU). */
static void mq_cpu_backlog(struct ios_queue *q, uint64_t now)
{
	struct ios_mq *mq = q->mq;

	mq->in_cpu_backlog = true;
	for (;;) {
		struct ios_mq_ctx *best = NULL;
		struct ios_plug_held *held;
		struct ios_bio *bio;
		int saved;

		for (unsigned i = 0; i < mq->nr_cpus; i++) {
			struct ios_mq_ctx *c = &mq->ctx[i];

			if (c->cpu_head && c->cpu_head->cpu_ready_ns <= now &&
			    (!best || c->cpu_head->cpu_ready_ns < best->cpu_head->cpu_ready_ns))
				best = c;
		}
		if (!best)
			break;
		bio = best->cpu_head;
		best->cpu_head = bio->next;
		if (!best->cpu_head)
			best->cpu_tail = NULL;
		bio->next = NULL;
		/*
		 * Its submitter went on (0): nothing to announce, now or after
		 * a tag wait. The plug's deferred finish, if this was its last
		 * held bio, runs on the bio's CPU as the task's blk_finish_plug
		 * would (its queue runs are synchronous there).
		 */
		held = bio->plug_held;
		bio->plug_held = NULL;
		saved = mq->run_cpu;
		mq->run_cpu = (int)bio_ctx(q, bio);
		(void)mq_submit_now(q, bio, ios_plug_held_plug(held), now);
		ios_plug_release(held, now);
		mq->run_cpu = saved;
	}
	mq->in_cpu_backlog = false;
}

/*
 * The completion's CPU time, on the first CPU of the request's hardware
 * queue: the CPU its interrupt lands on (for NVMe with a queue per CPU,
 * the submitting CPU; 6.12 blk_mq_complete_request_remote completes
 * locally unless rq_affinity sends it to the submitter). The block layer's
 * part (complete_ns), then the scheduler's completed/finish_request
 * (sched_complete_ns) for a request that went to the elevator, holding
 * the scheduler's lock where the kernel does (bfq_finish_requeue_request
 * takes bfqd->lock; dd_finish_request and kyber's completion hooks take
 * none in 6.12). It delays what that CPU does next (and the lock's next
 * holder), not this completion (docs/blk-mq.md).
 */
static void mq_cpu_complete(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_mq *mq = q->mq;
	struct ios_mq_ctx *x = hctx_first_cpu(q, rq->mq_hctx);
	uint64_t t = x->busy_until > now ? x->busy_until : now;

	t += mq->cost.complete_ns;
	if (mq->elevator && rq->nr_sectors && mq->cost.sched_complete_ns) {
		struct ios_mq_lock *l = mq->cost.sched_complete_locked ?
					sched_lock(q, rq_hctx(q, rq)) : NULL;

		if (l && l->busy_until > t)
			t = l->busy_until;
		t += mq->cost.sched_complete_ns;
		if (l)
			l->busy_until = t;
	}
	x->busy_until = t;
}

void ios_mq_complete(struct ios_queue *q, struct ios_request *rq, uint64_t now, int error)
{
	struct ios_bio *bio;
	bool qos = q->rq_qos != NULL;

	ios_blk_rq_complete_acct(q, rq, now, error);
	if (q->mq->cost_on)
		mq_cpu_complete(q, rq, now);
	if (q->mq->elevator && rq->elv_sorted)
		q->sched->ops.completed(q, rq, now);
	/* free the tags before waking submitters, as block.c does */
	bio = rq->bio;
	rq->bio = rq->biotail = NULL;
	if (qos) {
		/*
		 * blk_mq_end_request: blk_update_request ends each bio
		 * (bio_endio -> rq_qos_done_bio) before __blk_mq_end_request
		 * frees the request (rq_qos_done, in mq_free_request)
		 */
		q->mq->qos_defer++;
		for (struct ios_bio *b = bio; b; b = b->next)
			ios_rq_qos_done_bio(q, b, now);
	}
	mq_free_request(q, rq, now);
	if (qos && !--q->mq->qos_defer)
		mq_release_deferred(q, now);
	ios_blk_end_bios(q, rq, bio, now, error);
	ios_mq_run(q, now);
}

/* ---- bios the rq_qos policies let go (rq_qos.c) ---- */

/* As a tag sleeper's: its tag or another sleep, then the queue, then its task. */
static void mq_released_now(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	struct ios_request *rq = mq_get_request(q, bio, now);

	if (!rq) {
		/* asleep already: its plug was flushed when it first slept */
		park_bio(q, alloc_map(q, ctx_hctx(q, bio_ctx(q, bio))), bio, now);
		return;
	}
	if (mq_queue_new(q, rq, now))
		ios_mq_run(q, now);
	mq_bio_queued(bio, now);
}

static void mq_release_deferred(struct ios_queue *q, uint64_t now)
{
	struct ios_mq *mq = q->mq;

	while (mq->qos_released_head) {
		struct ios_bio *bio = mq->qos_released_head;

		mq->qos_released_head = bio->next;
		if (!mq->qos_released_head)
			mq->qos_released_tail = NULL;
		bio->next = NULL;
		mq_released_now(q, bio, now);
	}
}

void ios_mq_qos_released(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	struct ios_mq *mq = q->mq;

	if (mq->qos_defer) {
		bio->next = NULL;
		if (mq->qos_released_tail)
			mq->qos_released_tail->next = bio;
		else
			mq->qos_released_head = bio;
		mq->qos_released_tail = bio;
		return;
	}
	mq_released_now(q, bio, now);
	if (!q->in_run)
		mq_update_timer(q, now);
}

void ios_mq_kick_timer(struct ios_queue *q, uint64_t now)
{
	if (!q->in_run)
		mq_update_timer(q, now);
}

/* ---- set-up ---- */

/* blk_mq_map_queues on one node without siblings (group_cpus_evenly) */
static void map_queues(struct ios_mq *mq)
{
	unsigned q = mq->nr_hw_queues, n = mq->nr_cpus, cpu = 0;
	unsigned groups = q < n ? q : n;

	for (unsigned g = 0; g < groups; g++) {
		unsigned per = n / groups + (g < n % groups ? 1 : 0);

		for (unsigned k = 0; k < per; k++)
			mq->ctx[cpu++].hctx = g;
	}
}

/* queue.nr_requests on blk-mq: the kernel's rules (queue_requests_store, 6.12) */
static int mq_nr_requests(struct ios_queue *q, const struct ios_queue_config *cfg,
			  struct ios_err *e)
{
	const char *prefix = ios_scope_get(IOS_SCOPE_QUEUE)->prefix;
	const struct ios_setting *set = NULL;
	unsigned nr;

	q->nr_requests = q->mq->elevator ? 2 * (q->depth < MQ_DEFAULT_RQ ? q->depth : MQ_DEFAULT_RQ)
					 : q->depth;
	for (size_t i = 0; cfg->settings && i < cfg->settings->n; i++) {
		const struct ios_setting *s = &cfg->settings->v[i];

		if (!strncmp(s->name, prefix, strlen(prefix)) &&
		    !strcmp(s->name + strlen(prefix), "nr_requests"))
			set = s;
	}
	if (!set) {
		/* what queue/nr_requests shows (queue_requests_show: q->nr_requests) */
		q->tun.nr_requests = (int)q->nr_requests;
		return 0;
	}
	/* below 4 the queue table already refused (the kernel clamps to BLKDEV_MIN_RQ) */
	nr = (unsigned)q->tun.nr_requests;
	if (!q->mq->elevator && nr > q->depth)
		return IOS_ERR(e, -EINVAL, "%s%s%s=%u: scheduler 'none' has no scheduler tags, "
			       "so nr_requests can be at most the device's %u tags (Linux 6.12 "
			       "blk_mq_tag_update_depth refuses more)", set->origin,
			       *set->origin ? ": " : "", set->name, nr, q->depth);
	if (q->mq->elevator && nr > MQ_MAX_SCHED_RQ)
		return IOS_ERR(e, -EINVAL, "%s%s%s=%u: the range under scheduler '%s' is 4..%u "
			       "(Linux 6.12 MAX_SCHED_RQ; blk_mq_tag_update_depth refuses more)",
			       set->origin, *set->origin ? ": " : "", set->name, nr, q->sched->name,
			       MQ_MAX_SCHED_RQ);
	q->nr_requests = nr;
	return 0;
}

int ios_mq_init(struct ios_queue *q, const struct ios_queue_config *cfg, struct ios_err *e)
{
	struct ios_mq *mq = calloc(1, sizeof(*mq));
	int ret;

	if (!mq)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	q->mq = mq;
	mq->nr_hw_queues = cfg->nr_hw_queues ? cfg->nr_hw_queues : 1;
	mq->nr_cpus = cfg->nr_cpus ? cfg->nr_cpus : 1;
	if (mq->nr_hw_queues > 4096 || mq->nr_cpus > 4096)
		return IOS_ERR(e, -EINVAL, "blk-mq: %u hardware queues and %u CPUs: at most 4096 each",
			       mq->nr_hw_queues, mq->nr_cpus);
	mq->elevator = !(q->sched->features & IOS_SCHED_NO_ELEVATOR);
	mq->hctx_dispatch = ios_sched_mq_ops(q->sched) &&
			    ios_sched_mq_ops(q->sched)->dispatch_hctx;
	q->nr_hw_queues = mq->nr_hw_queues;
	q->nr_cpus = mq->nr_cpus;
	mq->cost = cfg->cpu_cost;
	mq->cost_on = mq->cost.submit_ns || mq->cost.insert_ns || mq->cost.dispatch_ns ||
		      mq->cost.complete_ns || mq->cost.sched_complete_ns;
	mq->cost_wake = IOS_NO_WAKEUP;
	mq->run_cpu = -1;
	ret = mq_nr_requests(q, cfg, e);
	if (ret)
		return ret;
	mq->ctx = calloc(mq->nr_cpus, sizeof(*mq->ctx));
	mq->hctx = calloc(mq->nr_hw_queues, sizeof(*mq->hctx));
	if (!mq->ctx || !mq->hctx)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (unsigned c = 0; c < mq->nr_cpus; c++)
		ios_list_init(&mq->ctx[c].rq_list);
	map_queues(mq);
	for (unsigned i = 0; i < mq->nr_hw_queues; i++) {
		struct ios_mq_hctx *h = &mq->hctx[i];

		h->idx = i;
		ios_list_init(&h->dispatch);
		if (ios_mq_tags_init(&h->tags, q->depth) ||
		    ios_mq_tags_init(&h->sched_tags, mq->elevator ? q->nr_requests : 0))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	return 0;
}

/* After the scheduler's init(): its hardware contexts, then the depth (blk_mq_init_sched). */
int ios_mq_init_sched(struct ios_queue *q, struct ios_err *e)
{
	const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(q->sched);
	int ret;

	if (!q->mq->elevator || !mo)
		return 0;
	for (unsigned i = 0; i < q->mq->nr_hw_queues; i++) {
		if (mo->init_hctx && (ret = mo->init_hctx(q, i)) != 0) {
			while (i-- > 0)
				if (mo->exit_hctx)
					mo->exit_hctx(q, i);
			return IOS_ERR(e, ret, "scheduler '%s' failed to set up hardware queue %u",
				       q->sched->name, i);
		}
	}
	if (mo->depth_updated)
		mo->depth_updated(q);
	return 0;
}

void ios_mq_exit(struct ios_queue *q)
{
	struct ios_mq *mq = q->mq;

	if (!mq)
		return;
	for (unsigned i = 0; mq->hctx && i < mq->nr_hw_queues; i++) {
		ios_mq_tags_free(&mq->hctx[i].tags);
		ios_mq_tags_free(&mq->hctx[i].sched_tags);
	}
	free(mq->hctx);
	free(mq->ctx);
	free(mq);
	q->mq = NULL;
}

int ios_queue_mq_result(const struct ios_queue *q, struct ios_mq_result **out)
{
	const struct ios_mq *mq = q->mq;
	struct ios_mq_result *r;

	*out = NULL;
	if (!mq)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->cpu_hctx = calloc(mq->nr_cpus, sizeof(*r->cpu_hctx));
	r->hctx_dispatched = calloc(mq->nr_hw_queues, sizeof(*r->hctx_dispatched));
	if (!r->cpu_hctx || !r->hctx_dispatched) {
		free(r->cpu_hctx);
		free(r->hctx_dispatched);
		free(r);
		return -ENOMEM;
	}
	r->nr_hw_queues = mq->nr_hw_queues;
	r->nr_cpus = mq->nr_cpus;
	r->hw_queue_depth = mq->hctx[0].tags.depth;
	r->nr_requests = q->nr_requests;
	r->elevator = mq->elevator;
	for (unsigned i = 0; i < mq->nr_cpus; i++)
		r->cpu_hctx[i] = mq->ctx[i].hctx;
	for (unsigned i = 0; i < mq->nr_hw_queues; i++)
		r->hctx_dispatched[i] = mq->hctx[i].nr_dispatched;
	r->direct_issues = mq->nr_direct;
	r->requeues = mq->nr_requeues;
	r->busy = mq->nr_busy;
	*out = r;
	return 0;
}
