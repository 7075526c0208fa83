/*
 * mq-deadline: the blk-mq deadline scheduler of Linux 6.12 and 6.6.y
 * (block/mq-deadline.c, Jens Axboe, Damien Le Moal, Bart Van Assche), as
 * two release profiles: mq-deadline-6.12 (alias mq-deadline) and
 * mq-deadline-6.6 (6.6.44 and later; the older tag rule of 6.6.0-6.6.43 is
 * a lab knob of that profile). The 2.6.31 single-queue deadline stays in
 * deadline.c, and the name "deadline" stays its own (the kernel's alias of
 * mq-deadline is not taken, docs/blk-mq-plan.md R1).
 *
 * Sources (docs/mq-deadline.md lists each file and how it was dated): the
 * post-6.17 mq-deadline.c of gregkh/linux, the stable review mails of
 * 39823b47bbd4 "Fix the tag reservation code" for 6.1, 6.6 and 6.10
 * (2024-07-30), and the December 2025 stable mails of 93a358af59c6 and
 * d60055cf5270, whose pre-images show the 6.6.y and 6.12.y dispatch code.
 * No kernel code is copied; the rules are restated here.
 *
 * Priority levels (enum dd_prio, ioprio_class_to_prio): RT is level 0, BE
 * and NONE level 1, IDLE level 2. Only the ioprio CLASS counts
 * (dd_rq_ioclass), never the level within a class. Where the request's
 * priority comes from: its bios' own ioprio when that names a class, else
 * the task's class (6.x bio_set_ioprio fills a bio of class NONE from
 * __get_task_ioprio: the io_context's ioprio, else the class the task's
 * scheduling policy implies, which is BE for every task the lab models).
 *
 * Each level keeps, per direction, a sector tree and a FIFO, the position
 * of the last request it dispatched (latest_pos), its at-head list (6.6 and
 * 6.12 keep one per level: c807ab520fc3 until d60055cf5270, December 2025)
 * and the debugfs counters inserted, merged, dispatched, completed. The
 * batch state (batching, starved, last_dir) is shared by all levels.
 *
 * dd_dispatch_request: first aged requests (dd_dispatch_prio_aged_requests:
 * when at least two levels have requests queued, BE then IDLE, each taking
 * only a request inserted more than prio_aging_expire ago), then the levels
 * in order, stopping at the first that dispatched or that still has
 * requests queued. "Queued" is dd_queued = inserted - completed, and
 * completed counts in finish_request: a level blocks the levels below it
 * while any of its requests is in the scheduler OR on the device.
 *
 * __dd_dispatch_request, for one level and a latest start time: the
 * level's at-head list first (its head only, and only if it started early
 * enough); else the batch in progress continues with the first request at
 * or after latest_pos[last_dir] (deadline_from_pos) while batching <
 * fifo_batch; else a new batch: reads, unless writes are waiting and reads
 * have already won writes_starved times; its first request is the FIFO
 * head when that has expired or nothing lies at or after latest_pos, else
 * the one at or after latest_pos. Any request it picks is refused when it
 * started after the latest start time (started_after: the insert time is
 * fifo_time - fifo_expire[dir]).
 *
 * Times: the kernel counts expiries in jiffies; the lab keeps nanoseconds.
 * An expiry therefore falls exactly at insert + expire, where the kernel
 * rounds it up to a jiffy (at HZ=250, 4 ms). Nothing here arms a timer, as
 * the kernel does not: an expired or aged request waits for the next run of
 * the queue (an insert or a completion).
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include "iosched/block.h"
#include "iosched/sched.h"
#include "core/builtin.h"

enum { MQDL_RT = 0, MQDL_BE = 1, MQDL_IDLE = 2, MQDL_NR_PRIO = 3 };

/* How dd_limit_depth turns async_depth into a shallow depth (the 6.6 lab knob). */
enum mqdl_depth_rule {
	/*
	 * 6.6.44+, 6.10.3+, 6.11, 6.12 (39823b47bbd4): async_depth defaults
	 * to nr_requests and is scaled to the sbitmap word by
	 * dd_to_word_depth, ceil(async_depth * 2^shift / nr_requests).
	 */
	MQDL_DEPTH_SCALED = 0,
	/*
	 * 6.6.0-6.6.43 (and 5.14-6.10.2, since 07757588e507): async_depth
	 * defaults to max(1, 3 * nr_requests / 4) and is handed over
	 * unscaled as the per-word shallow depth.
	 */
	MQDL_DEPTH_PER_WORD,
};

struct mqdl_level {
	struct ios_rb_root sort_list[IOS_DIR_COUNT];
	struct ios_list_head fifo_list[IOS_DIR_COUNT];
	struct ios_list_head dispatch;	/* at-head inserts of this level */
	uint64_t latest_pos[IOS_DIR_COUNT];
};

/* debugfs counters of one level (struct io_stats_per_prio), u64 here */
struct mqdl_stats {
	uint64_t inserted, merged, dispatched, completed;
	/* derived for --dump-state: dd_queued and dd_owned_by_driver */
	uint64_t queued, owned_by_driver;
};

struct mqdl_data {
	/* tunables (sysfs names; expiries stored in ns) */
	uint64_t fifo_expire_ns[IOS_DIR_COUNT];
	uint64_t prio_aging_expire_ns;
	int writes_starved;
	int front_merges;
	int async_depth;	/* 0 until depth_updated; a user's value survives it */
	int fifo_batch;
	int depth_rule;		/* enum mqdl_depth_rule (6.6 profile only) */

	struct mqdl_level lvl[MQDL_NR_PRIO];
	int last_dir;		/* direction of the batch in progress */
	unsigned batching;	/* requests of the batch in progress */
	unsigned starved;	/* read batches chosen while writes waited */
	int user_async_depth;	/* async_depth as set before init, 0: none */
	unsigned word_shift;	/* sbitmap word size of the scheduler tags, 2^shift */

	/* --dump-state */
	struct mqdl_stats st[MQDL_NR_PRIO];
	uint64_t batches, expired_batches, aged, front_merged;
};

static struct mqdl_data *mqdl(struct ios_queue *q)
{
	return q->sched_data;
}

/* IOPRIO_PRIO_CLASS of the request's priority, with bio_set_ioprio's default */
static int mqdl_rq_class(const struct ios_request *rq)
{
	int cls = (rq->ioprio >> 13) & 7;

	if (cls == IOS_IOPRIO_CLASS_NONE && rq->ioc)
		cls = rq->ioc->ioprio_class;
	return cls;
}

static int mqdl_bio_class(const struct ios_bio *bio)
{
	int cls = (bio->ioprio >> 13) & 7;

	if (cls == IOS_IOPRIO_CLASS_NONE && bio->ioc)
		cls = bio->ioc->ioprio_class;
	return cls;
}

/* ioprio_class_to_prio: NONE and BE share level 1 (no other class exists) */
static int mqdl_class_to_prio(int cls)
{
	switch (cls) {
	case IOS_IOPRIO_CLASS_RT:
		return MQDL_RT;
	case IOS_IOPRIO_CLASS_IDLE:
		return MQDL_IDLE;
	default:
		return MQDL_BE;
	}
}

/*
 * The level a request was counted in at insert (sched_priv[0] = level + 1,
 * as the kernel's rq->elv.priv[0]); its class otherwise.
 */
static int mqdl_rq_prio(const struct ios_request *rq)
{
	uintptr_t p = (uintptr_t)rq->sched_priv[0];

	return p ? (int)(p - 1) : mqdl_class_to_prio(mqdl_rq_class(rq));
}

static void mqdl_derive(struct mqdl_data *dd, int prio)
{
	struct mqdl_stats *s = &dd->st[prio];

	s->queued = s->inserted - s->completed;
	s->owned_by_driver = s->dispatched + s->merged - s->completed;
}

/* dd_queued: inserted and not yet freed, wherever the request is */
static uint64_t mqdl_queued(const struct mqdl_data *dd, int prio)
{
	return dd->st[prio].inserted - dd->st[prio].completed;
}

/* deadline_from_pos: the first request of @dir at or after sector @pos */
static struct ios_request *mqdl_from_pos(struct mqdl_level *l, int dir, uint64_t pos)
{
	struct ios_rb_node *n = l->sort_list[dir].node, *res = NULL;

	while (n) {
		if (ios_rb_to_rq(n)->sector >= pos) {
			res = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return ios_rb_to_rq(res);
}

static struct ios_request *mqdl_fifo_head(struct mqdl_level *l, int dir)
{
	if (ios_list_empty(&l->fifo_list[dir]))
		return NULL;
	return ios_list_first_entry(&l->fifo_list[dir], struct ios_request, queuelist);
}

/*
 * started_after: the request was inserted after @latest_start. Its insert
 * time is fifo_time - fifo_expire[dir] (for an at-head insert, whose
 * fifo_time is the insert time, that is fifo_expire earlier still, as in
 * the kernel). Signed: early in a run latest_start is negative.
 */
static bool mqdl_started_after(const struct mqdl_data *dd, const struct ios_request *rq,
			       int64_t latest_start)
{
	int64_t start = (int64_t)rq->fifo_time_ns - (int64_t)dd->fifo_expire_ns[rq->dir];

	return start > latest_start;
}

/* deadline_remove_request: off the sort tree (if on it) and the FIFO */
static void mqdl_remove(struct mqdl_data *dd, int prio, struct ios_request *rq)
{
	ios_list_del(&rq->queuelist);
	ios_list_init(&rq->queuelist);
	if (!ios_rb_unlinked(&rq->rb_node)) {
		ios_elv_rb_del(&dd->lvl[prio].sort_list[rq->dir], rq);
		ios_rb_clear(&rq->rb_node);
	}
}

/* the tail of __dd_dispatch_request (dd_start_request in later trees) */
static struct ios_request *mqdl_start(struct mqdl_data *dd, int dir, struct ios_request *rq)
{
	int prio = mqdl_rq_prio(rq);

	dd->lvl[prio].latest_pos[dir] = rq->sector;
	dd->st[prio].dispatched++;
	mqdl_derive(dd, prio);
	return rq;
}

/*
 * __dd_dispatch_request for level @prio: the request to dispatch, or NULL
 * (nothing, or the pick started after @latest_start). Like the kernel it
 * leaves its batch decisions (last_dir, batching, starved) in place even
 * when it then refuses the pick.
 */
static struct ios_request *mqdl_dispatch_prio(struct ios_queue *q, struct mqdl_data *dd,
					      int prio, uint64_t now, int64_t latest_start)
{
	struct mqdl_level *l = &dd->lvl[prio];
	struct ios_request *rq, *next_rq;
	bool new_batch = false, expired = false;
	int dir;

	if (!ios_list_empty(&l->dispatch)) {
		rq = ios_list_first_entry(&l->dispatch, struct ios_request, queuelist);
		if (mqdl_started_after(dd, rq, latest_start))
			return NULL;
		ios_list_del(&rq->queuelist);
		ios_list_init(&rq->queuelist);
		return mqdl_start(dd, rq->dir, rq);
	}

	/* the batch in progress goes on from the last position of its direction */
	rq = mqdl_from_pos(l, dd->last_dir, l->latest_pos[dd->last_dir]);
	if (rq && dd->batching < (unsigned)(dd->fifo_batch < 0 ? 0 : dd->fifo_batch)) {
		dir = rq->dir;
		goto dispatch;
	}

	/*
	 * A new batch. starved and writes_starved compare as the kernel's
	 * unsigned int and int do: a negative writes_starved is a huge
	 * unsigned number, and reads then always win.
	 */
	if (!ios_list_empty(&l->fifo_list[IOS_READ])) {
		if (mqdl_fifo_head(l, IOS_WRITE) && dd->starved++ >= (unsigned)dd->writes_starved)
			goto writes;
		dir = IOS_READ;
	} else if (!ios_list_empty(&l->fifo_list[IOS_WRITE])) {
writes:
		dd->starved = 0;
		dir = IOS_WRITE;
	} else {
		return NULL;
	}

	/* deadline_check_fifo: expired when its deadline is now or past */
	next_rq = mqdl_from_pos(l, dir, l->latest_pos[dir]);
	expired = mqdl_fifo_head(l, dir)->fifo_time_ns <= now;
	rq = expired || !next_rq ? mqdl_fifo_head(l, dir) : next_rq;
	dd->last_dir = dir;
	dd->batching = 0;
	new_batch = true;

dispatch:
	if (mqdl_started_after(dd, rq, latest_start))
		return NULL;
	if (new_batch) {
		dd->batches++;
		dd->expired_batches += expired;
		/* the timeline's batches: one round per batch, its direction and level */
		ios_queue_note_owner(q, now, 0, IOS_OWN_ROUND, IOS_OWN_ROUND_REASON(dir, prio));
	}
	dd->batching++;
	mqdl_remove(dd, prio, rq);
	return mqdl_start(dd, dir, rq);
}

/* dd_dispatch_prio_aged_requests */
static struct ios_request *mqdl_dispatch_aged(struct ios_queue *q, struct mqdl_data *dd,
					      uint64_t now)
{
	int64_t latest_start = (int64_t)now - (int64_t)dd->prio_aging_expire_ns;
	int busy = 0;

	for (int p = 0; p < MQDL_NR_PRIO; p++)
		busy += mqdl_queued(dd, p) != 0;
	if (busy < 2)
		return NULL;
	for (int p = MQDL_BE; p < MQDL_NR_PRIO; p++) {
		struct ios_request *rq = mqdl_dispatch_prio(q, dd, p, now, latest_start);

		if (rq) {
			dd->aged++;
			return rq;
		}
	}
	return NULL;
}

/* dd_dispatch_request */
static struct ios_request *mqdl_dispatch(struct ios_queue *q, uint64_t now, unsigned flags)
{
	struct mqdl_data *dd = mqdl(q);
	struct ios_request *rq;

	(void)flags;	/* blk-mq has no forced drain */
	rq = mqdl_dispatch_aged(q, dd, now);
	if (rq)
		return rq;
	for (int p = 0; p < MQDL_NR_PRIO; p++) {
		rq = mqdl_dispatch_prio(q, dd, p, now, (int64_t)now);
		/* a level with requests anywhere (queued or on the device) blocks the rest */
		if (rq || mqdl_queued(dd, p))
			break;
	}
	return rq;
}

/* dd_insert_request */
static void mqdl_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now,
			unsigned flags)
{
	struct mqdl_data *dd = mqdl(q);
	int prio = mqdl_class_to_prio(mqdl_rq_class(rq));
	struct mqdl_level *l = &dd->lvl[prio];

	IOS_BUG_ON(rq->dir >= IOS_DIR_COUNT);
	/* counted once, however often it comes back (a requeue) */
	if (!rq->sched_priv[0]) {
		dd->st[prio].inserted++;
		rq->sched_priv[0] = (void *)(uintptr_t)(prio + 1);
		mqdl_derive(dd, prio);
	} else {
		prio = mqdl_rq_prio(rq);
		l = &dd->lvl[prio];
	}
	/*
	 * BLK_MQ_INSERT_AT_HEAD: blk-mq requeues through it too
	 * (blk_mq_requeue_work), so a requeue lands here as well.
	 */
	if (flags & (IOS_INSERT_FRONT | IOS_INSERT_REQUEUE)) {
		ios_rb_clear(&rq->rb_node);
		ios_list_add(&rq->queuelist, &l->dispatch);
		rq->fifo_time_ns = now;
		return;
	}
	ios_elv_rb_add(&l->sort_list[rq->dir], rq);
	rq->fifo_time_ns = now + dd->fifo_expire_ns[rq->dir];
	if (rq->fifo_time_ns < now)
		rq->fifo_time_ns = UINT64_MAX;
	ios_list_add_tail(&rq->queuelist, &l->fifo_list[rq->dir]);
}

static bool mqdl_has_work(struct ios_queue *q)
{
	struct mqdl_data *dd = mqdl(q);

	for (int p = 0; p < MQDL_NR_PRIO; p++) {
		struct mqdl_level *l = &dd->lvl[p];

		if (!ios_list_empty(&l->dispatch) || !ios_list_empty(&l->fifo_list[IOS_READ]) ||
		    !ios_list_empty(&l->fifo_list[IOS_WRITE]))
			return true;
	}
	return false;
}

static void mqdl_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	/* the kernel has no completed_request for mq-deadline: finish_request counts */
	(void)q;
	(void)rq;
	(void)now;
}

/* dd_prepare_request: not yet counted anywhere */
static void mqdl_prepare_request(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	rq->sched_priv[0] = NULL;
}

/*
 * dd_finish_request: the request is freed (after completion, or merged
 * away). Only requests that went through insert are counted; the core may
 * free others that bypassed the scheduler.
 */
static void mqdl_finish_request(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct mqdl_data *dd = mqdl(q);
	int prio;

	(void)now;
	if (!rq->sched_priv[0])
		return;
	prio = mqdl_rq_prio(rq);
	dd->st[prio].completed++;
	mqdl_derive(dd, prio);
	rq->sched_priv[0] = NULL;
}

/*
 * dd_request_merge (through blk_mq_sched_try_merge; the core finds back
 * merges in its hash): a request of the bio's level and direction that
 * starts where the bio ends takes it at its front.
 */
static enum ios_merge mqdl_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
				     struct ios_request **out)
{
	struct mqdl_data *dd = mqdl(q);
	int prio = mqdl_class_to_prio(mqdl_bio_class(bio));
	struct ios_request *rq;

	if (!dd->front_merges || !bio->nr_sectors || bio->dir >= IOS_DIR_COUNT)
		return IOS_NO_MERGE;
	rq = ios_elv_rb_find(&dd->lvl[prio].sort_list[bio->dir], bio->sector + bio->nr_sectors);
	if (!rq)
		return IOS_NO_MERGE;
	*out = rq;
	return IOS_FRONT_MERGE;
}

/* dd_request_merged: a front merge moved the start, re-sort it */
static void mqdl_request_merged(struct ios_queue *q, struct ios_request *rq,
				enum ios_merge type)
{
	struct mqdl_data *dd = mqdl(q);
	int prio = mqdl_rq_prio(rq);

	if (type != IOS_FRONT_MERGE || ios_rb_unlinked(&rq->rb_node))
		return;
	ios_elv_rb_del(&dd->lvl[prio].sort_list[rq->dir], rq);
	ios_elv_rb_add(&dd->lvl[prio].sort_list[rq->dir], rq);
	dd->front_merged++;
}

/*
 * dd_merged_requests: @next (now part of @rq) counts as merged in its
 * level; @rq takes over its FIFO slot and deadline when those were
 * earlier; @next leaves every list. It is freed afterwards, and its
 * finish_request counts it completed.
 */
static void mqdl_requests_merged(struct ios_queue *q, struct ios_request *rq,
				 struct ios_request *next)
{
	struct mqdl_data *dd = mqdl(q);
	int nprio = mqdl_rq_prio(next);

	dd->st[nprio].merged++;
	mqdl_derive(dd, nprio);
	if (!ios_list_empty(&rq->queuelist) && !ios_list_empty(&next->queuelist) &&
	    next->fifo_time_ns < rq->fifo_time_ns) {
		ios_list_del(&rq->queuelist);
		ios_list_add(&rq->queuelist, &next->queuelist);
		rq->fifo_time_ns = next->fifo_time_ns;
	}
	mqdl_remove(dd, nprio, next);
}

/* elv_rb_former_request / elv_rb_latter_request */
static struct ios_request *mqdl_former(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return ios_rb_unlinked(&rq->rb_node) ? NULL : ios_elv_rb_former(rq);
}

static struct ios_request *mqdl_latter(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return ios_rb_unlinked(&rq->rb_node) ? NULL : ios_elv_rb_latter(rq);
}

/*
 * sbitmap_calculate_shift (lib/sbitmap.c), as blk_mq_init_tags sizes the
 * scheduler tags' words: 64 bits a word, halved until four words fit the
 * depth (maps under 4 bits keep 64-bit words).
 */
static unsigned mqdl_word_shift(unsigned depth)
{
	unsigned shift = 6;

	if (depth >= 4)
		while ((4u << shift) > depth)
			shift--;
	return shift;
}

static unsigned mqdl_default_async_depth(const struct mqdl_data *dd, unsigned nr_requests)
{
	if (dd->depth_rule == MQDL_DEPTH_PER_WORD)
		return 3 * nr_requests / 4 ? 3 * nr_requests / 4 : 1;
	return nr_requests;
}

/*
 * dd_depth_updated: the scheduler tag depth is known (init) or changed.
 * The kernel resets async_depth to its default here; a value the user set
 * is kept, because the lab applies settings before init where the kernel
 * would write sysfs afterwards (nr_requests does not change during a run).
 */
static void mqdl_depth_updated(struct ios_queue *q)
{
	struct mqdl_data *dd = mqdl(q);
	unsigned nrr = q->nr_requests ? q->nr_requests : 1;

	dd->word_shift = mqdl_word_shift(nrr);
	dd->async_depth = dd->user_async_depth ? dd->user_async_depth
					       : (int)mqdl_default_async_depth(dd, nrr);
}

/*
 * dd_limit_depth: reads are never limited (op_is_sync && !op_is_write);
 * every write, sync or not, gets a per-word shallow depth from async_depth.
 */
static unsigned mqdl_limit_depth(struct ios_queue *q, unsigned opf, const struct ios_ioc *ioc)
{
	struct mqdl_data *dd = mqdl(q);
	uint64_t nrr = q->nr_requests ? q->nr_requests : 1;
	uint64_t depth = (uint64_t)(dd->async_depth > 0 ? dd->async_depth : 1);

	(void)ioc;
	if (!(opf & (1u << 31)))
		return 0;
	if (dd->depth_rule == MQDL_DEPTH_PER_WORD)
		return (unsigned)depth;
	/* dd_to_word_depth: ceil(async_depth * 2^shift / nr_requests) */
	return (unsigned)(((depth << dd->word_shift) + nrr - 1) / nrr);
}

static int mqdl_init(struct ios_queue *q)
{
	struct mqdl_data *dd = mqdl(q);

	for (int p = 0; p < MQDL_NR_PRIO; p++) {
		struct mqdl_level *l = &dd->lvl[p];

		for (int dir = 0; dir < IOS_DIR_COUNT; dir++) {
			l->sort_list[dir] = IOS_RB_ROOT;
			ios_list_init(&l->fifo_list[dir]);
			l->latest_pos[dir] = 0;
		}
		ios_list_init(&l->dispatch);
	}
	dd->last_dir = IOS_WRITE;	/* dd_init_sched */
	dd->batching = 0;
	dd->starved = 0;
	dd->user_async_depth = dd->async_depth;
	mqdl_depth_updated(q);
	return 0;
}

static void mqdl_exit(struct ios_queue *q)
{
	struct mqdl_data *dd = mqdl(q);

	for (int p = 0; p < MQDL_NR_PRIO; p++) {
		IOS_BUG_ON(!ios_list_empty(&dd->lvl[p].fifo_list[IOS_READ]));
		IOS_BUG_ON(!ios_list_empty(&dd->lvl[p].fifo_list[IOS_WRITE]));
		IOS_BUG_ON(!ios_list_empty(&dd->lvl[p].dispatch));
	}
}

/*
 * Tunables: the sysfs attributes of both releases (deadline_attrs). Every
 * store parses with kstrtoint (a non-number or a number outside int is
 * refused, -EINVAL/-ERANGE) and then CLAMPS into its range; the lab refuses
 * out-of-range numbers too and says the kernel would clamp
 * (IOS_TUN_KCLAMP). Expiries are ms in sysfs (msecs_to_jiffies).
 */
#define MQDL_TUNABLES_COMMON                                                                   \
	{ .name = "read_expire", .type = IOS_TUN_TIME,                                         \
	  .offset = offsetof(struct mqdl_data, fifo_expire_ns[IOS_READ]),                      \
	  .min = 0, .max = INT_MAX, .def = "500", .unit = "ms", .flags = IOS_TUN_KCLAMP,       \
	  .help = "deadline of a read, from its insertion (soft: looked at when a batch "     \
		  "starts)" },                                                                 \
	{ .name = "write_expire", .type = IOS_TUN_TIME,                                        \
	  .offset = offsetof(struct mqdl_data, fifo_expire_ns[IOS_WRITE]),                     \
	  .min = 0, .max = INT_MAX, .def = "5000", .unit = "ms", .flags = IOS_TUN_KCLAMP,      \
	  .help = "deadline of a write, from its insertion (soft: looked at when a batch "    \
		  "starts)" },                                                                 \
	{ .name = "writes_starved", .type = IOS_TUN_INT,                                       \
	  .offset = offsetof(struct mqdl_data, writes_starved),                                \
	  .min = INT_MIN, .max = INT_MAX, .def = "2", .unit = "",                              \
	  .help = "read batches preferred over waiting writes before a write batch "          \
		  "(compared unsigned: a negative value means reads always win)" },            \
	{ .name = "front_merges", .type = IOS_TUN_INT,                                         \
	  .offset = offsetof(struct mqdl_data, front_merges),                                  \
	  .min = 0, .max = 1, .def = "1", .unit = "", .flags = IOS_TUN_KCLAMP,                 \
	  .help = "look up front merges in the sector tree of the bio's priority level" },    \
	{ .name = "async_depth", .type = IOS_TUN_INT,                                          \
	  .offset = offsetof(struct mqdl_data, async_depth),                                   \
	  .min = 1, .max = INT_MAX, .def = NULL, .unit = "requests", .flags = IOS_TUN_KCLAMP,  \
	  .help = "scheduler tags writes may hold (reads are never limited); default: "       \
		  "nr_requests, i.e. no reserve" },                                             \
	{ .name = "fifo_batch", .type = IOS_TUN_INT,                                           \
	  .offset = offsetof(struct mqdl_data, fifo_batch),                                    \
	  .min = 0, .max = INT_MAX, .def = "16", .unit = "", .flags = IOS_TUN_KCLAMP,          \
	  .help = "requests per batch (0: every dispatch starts a new batch)" },              \
	{ .name = "prio_aging_expire", .type = IOS_TUN_TIME,                                   \
	  .offset = offsetof(struct mqdl_data, prio_aging_expire_ns),                          \
	  .min = 0, .max = INT_MAX, .def = "10000", .unit = "ms", .flags = IOS_TUN_KCLAMP,     \
	  .help = "a BE or IDLE request older than this goes before higher levels (only "    \
		  "while two levels have requests)" }

static const struct ios_tunable mqdl_tunables_612[] = {
	MQDL_TUNABLES_COMMON,
	{ .name = NULL },
};

static const char *const mqdl_depth_rules[] = { "6.6.44", "6.6.0", NULL };

static const struct ios_tunable mqdl_tunables_66[] = {
	MQDL_TUNABLES_COMMON,
	{ .name = "async_depth_rule", .type = IOS_TUN_ENUM,
	  .offset = offsetof(struct mqdl_data, depth_rule), .def = "6.6.44", .unit = "",
	  .choices = mqdl_depth_rules,
	  .help = "lab knob, not in sysfs: 6.6.44 = async_depth defaults to nr_requests and "
		  "is scaled to an sbitmap word (39823b47bbd4); 6.6.0 = the rule of 6.6.0-6.6.43, "
		  "default 3/4 of nr_requests used unscaled as a per-word limit" },
	{ .name = NULL },
};

#define MQDL_STAT(nm, field, hlp)                                                              \
	{ .name = nm, .type = IOS_TUN_U64, .offset = offsetof(struct mqdl_data, field),        \
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO, .help = hlp }
#define MQDL_LEVEL_STATS(lv, i)                                                                \
	MQDL_STAT("inserted_" lv, st[i].inserted, lv " requests inserted (debugfs stats)"),   \
	MQDL_STAT("merged_" lv, st[i].merged, lv " requests merged into another"),            \
	MQDL_STAT("dispatched_" lv, st[i].dispatched, lv " requests dispatched"),             \
	MQDL_STAT("completed_" lv, st[i].completed, lv " requests freed (finish_request)"),   \
	MQDL_STAT("queued_" lv, st[i].queued,                                                  \
		  lv " requests in the scheduler or on the device (debugfs queued)"),          \
	MQDL_STAT("owned_by_driver_" lv, st[i].owned_by_driver,                                \
		  lv " requests the driver owns (debugfs owned_by_driver)")

static const struct ios_tunable mqdl_stats[] = {
	MQDL_LEVEL_STATS("rt", MQDL_RT),
	MQDL_LEVEL_STATS("be", MQDL_BE),
	MQDL_LEVEL_STATS("idle", MQDL_IDLE),
	{ .name = "batching", .type = IOS_TUN_INT, .offset = offsetof(struct mqdl_data, batching),
	  .min = 0, .max = INT_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "requests dispatched in the current batch" },
	{ .name = "starved", .type = IOS_TUN_INT, .offset = offsetof(struct mqdl_data, starved),
	  .min = 0, .max = INT_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "read batches started while writes waited, since the last write batch" },
	{ .name = "last_dir", .type = IOS_TUN_INT, .offset = offsetof(struct mqdl_data, last_dir),
	  .min = 0, .max = 1, .unit = "", .flags = IOS_TUN_RO,
	  .help = "direction of the current batch (0 read, 1 write)" },
	MQDL_STAT("batches", batches, "batches started"),
	MQDL_STAT("expired_batches", expired_batches,
		  "batches started at a FIFO head whose deadline had passed"),
	MQDL_STAT("aged_dispatches", aged,
		  "requests dispatched by prio_aging_expire ahead of a higher level"),
	MQDL_STAT("front_merged", front_merged, "bios merged at the front of a queued request"),
	{ .name = NULL },
};

static const struct ios_sched_mq_ops mqdl_mq_ops = {
	.limit_depth = mqdl_limit_depth,
	.depth_updated = mqdl_depth_updated,
	.prepare_request = mqdl_prepare_request,
	.finish_request = mqdl_finish_request,
};

#define MQDL_OPS                                                                               \
	{                                                                                      \
		.init = mqdl_init,                                                             \
		.exit = mqdl_exit,                                                             \
		.insert = mqdl_insert,                                                         \
		.dispatch = mqdl_dispatch,                                                     \
		.has_work = mqdl_has_work,                                                     \
		.completed = mqdl_completed,                                                   \
		.bio_merge = mqdl_bio_merge,                                                   \
		.request_merged = mqdl_request_merged,                                         \
		.requests_merged = mqdl_requests_merged,                                       \
		.former = mqdl_former,                                                         \
		.latter = mqdl_latter,                                                         \
	}

const struct ios_sched_type ios_sched_mq_deadline_66 = {
	.name = "mq-deadline-6.6",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "blk-mq deadline: RT/BE/IDLE levels, aging, batches (Linux 6.6.y, 6.6.44+)",
	.ops = MQDL_OPS,
	.tunables = mqdl_tunables_66,
	.stats = mqdl_stats,
	.priv_size = sizeof(struct mqdl_data),
	.features = 0,
	.share_model = IOS_SHARE_NONE,
	.layer = IOS_SCHED_LAYER_MQ,
	.mq_ops = &mqdl_mq_ops,
};

const struct ios_sched_type ios_sched_mq_deadline = {
	.name = "mq-deadline-6.12",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = "mq-deadline",
	.desc = "blk-mq deadline: RT/BE/IDLE levels, aging, batches (Linux 6.12)",
	.ops = MQDL_OPS,
	.tunables = mqdl_tunables_612,
	.stats = mqdl_stats,
	.priv_size = sizeof(struct mqdl_data),
	.features = 0,
	.share_model = IOS_SHARE_NONE,
	.layer = IOS_SCHED_LAYER_MQ,
	.mq_ops = &mqdl_mq_ops,
};
