/*
 * Writeback throttling (blk-wbt) as an rq_qos policy of a blk-mq queue,
 * after Linux 6.12 block/blk-wbt.c, the rq_depth helpers of
 * block/blk-rq-qos.c (rq_depth_calc_max_depth, rq_depth_scale_up/_down,
 * rq_qos_wait's wake order), block/blk-stat.c (the window of completion
 * latencies) and block/blk-sysfs.c (queue_wb_lat_store). The copy read
 * was a 6.8+ tree (bdi->last_bdp_sleep in wb_recent_wait, WBT_SWAP for
 * REQ_SWAP instead of current_is_kswapd, rq_qos_add with the disk); the
 * functions below are checked against 6.12's text where they differ from
 * older releases (docs/blk-mq.md "Writeback throttling").
 *
 * Modelled: which bios are throttled (wbt_should_throttle: writes and
 * discards, not O_DIRECT's REQ_SYNC|REQ_IDLE writes), the three wait
 * queues (background/other writes, swap, discard), their FIFO waiters
 * woken in order while each one's limit allows (rq_qos_wake_function),
 * the limits (calc_wb_limits over rq_depth's max_depth, get_limit's
 * choice by REQ_SYNC/META/PRIO, a recent balance_dirty_pages sleep,
 * REQ_BACKGROUND and recent reads), the wake-up rule on completion
 * (wbt_rqw_done, with the write cache's drain-to-zero), the stat window
 * (100 ms, shrunk by sqrt(step + 1), jiffy-rounded), latency_exceeded
 * (the sync-issue check, too few samples, read min over the target),
 * scale_up/scale_down with the unknown-window bump, the enable states
 * and the defaults (2 ms non-rotational, 75 ms rotational), the
 * elevator's and io.cost's disabling, and queue/wbt_lat_usec.
 *
 * The lab's, not the kernel's: a throttled bio is kept by the policy and
 * given back with ios_rq_qos_release (blkcg_int.h) instead of its task
 * sleeping in rq_qos_wait. The kernel's clock starts long before any
 * workload, so the "last read issued/completed" stamps of a new queue
 * read as never (the kernel stamps them at registration; here that would
 * be the run's start, plan §13 R4). blk_queue_depth is the queue's
 * nr_requests: no driver sets a separate queue_depth (SCSI does in the
 * kernel). Not modelled: REQ_SWAP (the lab has no swap), debugfs and the
 * tracepoints, queue_depth_changed (no caller changes a running queue's
 * depth), the per-CPU split of blk-stat.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "blkcg_int.h"
#include "iosched/scope.h"

/* enum wbt_flags */
#define WBT_TRACKED	1u
#define WBT_READ	2u
#define WBT_SWAP	4u
#define WBT_DISCARD	8u

/* enum wbt_state: the ON/OFF_MANUAL ones only sysfs sets */
enum {
	WBT_STATE_ON_DEFAULT = 1,
	WBT_STATE_ON_MANUAL = 2,
	WBT_STATE_OFF_DEFAULT = 3,
	WBT_STATE_OFF_MANUAL = 4,
};

/* blk-wbt.h: WBT_RWQ_BG, WBT_RWQ_SWAP, WBT_RWQ_DISCARD */
enum { WBT_RWQ_BG, WBT_RWQ_SWAP, WBT_RWQ_DISCARD, WBT_NUM_RWQ };

#define RWB_DEF_DEPTH		16
#define RWB_WINDOW_NSEC		(100 * IOS_NSEC_PER_MSEC)
#define RWB_MIN_WRITE_SAMPLES	3
#define RWB_UNKNOWN_BUMP	5

enum { LAT_OK = 1, LAT_UNKNOWN, LAT_UNKNOWN_WRITES, LAT_EXCEEDED };

struct wbt_rq_wait {
	unsigned inflight;
	struct ios_bio *head, *tail;	/* kept bios, oldest first (bio->next) */
};

struct wbt_stat {
	uint64_t min;
	uint64_t nr_samples;
};

struct rq_wb {
	struct ios_rq_qos r;
	unsigned wb_background, wb_normal;
	int enable_state;
	unsigned unknown_cnt;
	uint64_t win_nsec, cur_win_nsec;
	/* blk_stat_callback: a window is open while active, until expires */
	bool stat_active;
	uint64_t stat_expires;
	struct wbt_stat stat[2];	/* [READ], [WRITE] */
	uint64_t sync_issue;
	const struct ios_request *sync_cookie;
	bool wc;
	uint64_t last_issue, last_comp;	/* jiffies */
	bool issued_once, completed_once;
	uint64_t min_lat_nsec;
	struct wbt_rq_wait rq_wait[WBT_NUM_RWQ];
	/* struct rq_depth */
	unsigned max_depth, queue_depth, default_depth;
	int scale_step;
	bool scaled_max;
	unsigned hz;
};

static struct rq_wb *RQWB(struct ios_rq_qos *r)
{
	return (struct rq_wb *)r;
}

static struct rq_wb *wbt_of(struct ios_queue *q)
{
	struct ios_rq_qos *r = q->mq ? ios_rq_qos_id(q, IOS_RQ_QOS_WBT) : NULL;

	return r ? RQWB(r) : NULL;
}

/* ---- jiffies (the kernel's clock for the recent-I/O rules and the window) ---- */

static uint64_t tick_ns(const struct rq_wb *rwb)
{
	/* TICK_NSEC */
	return (IOS_NSEC_PER_SEC + rwb->hz / 2) / rwb->hz;
}

static uint64_t jiffies_at(const struct rq_wb *rwb, uint64_t now)
{
	return now / tick_ns(rwb);
}

static uint64_t nsecs_to_jiffies(const struct rq_wb *rwb, uint64_t ns)
{
	return ns * rwb->hz / IOS_NSEC_PER_SEC;
}

static bool rwb_enabled(const struct rq_wb *rwb)
{
	return rwb && rwb->enable_state != WBT_STATE_OFF_DEFAULT &&
	       rwb->enable_state != WBT_STATE_OFF_MANUAL;
}

/* wb_recent_wait: a writer slept in balance_dirty_pages within the last second */
static bool wb_recent_wait(const struct rq_wb *rwb, const struct ios_queue *q, uint64_t now)
{
	return q->bdp_slept &&
	       jiffies_at(rwb, now) < jiffies_at(rwb, q->last_bdp_sleep_ns) + rwb->hz;
}

/* close_io: a read issued or completed within the last 100 ms (HZ / 10) */
static bool close_io(const struct rq_wb *rwb, uint64_t now)
{
	uint64_t j = jiffies_at(rwb, now);

	return (rwb->issued_once && j < rwb->last_issue + rwb->hz / 10) ||
	       (rwb->completed_once && j < rwb->last_comp + rwb->hz / 10);
}

/* ---- depths and limits ---- */

/* rq_depth_calc_max_depth (blk-rq-qos.c): true when the step hit the top */
static bool calc_max_depth(struct rq_wb *rwb)
{
	unsigned depth;
	bool ret = false;

	if (rwb->queue_depth == 1) {
		/* QD1: keep one request ready behind the one in service */
		if (rwb->scale_step > 0) {
			rwb->max_depth = 1;
		} else {
			rwb->max_depth = 2;
			ret = true;
		}
		return ret;
	}
	depth = rwb->default_depth < rwb->queue_depth ? rwb->default_depth : rwb->queue_depth;
	if (rwb->scale_step > 0) {
		depth = 1 + ((depth - 1) >> (rwb->scale_step < 31 ? rwb->scale_step : 31));
	} else if (rwb->scale_step < 0) {
		unsigned maxd = 3 * rwb->queue_depth / 4;
		int sh = -rwb->scale_step;

		/* the kernel's shift of a 32-bit unsigned; past 31 bits it is maxd anyway */
		depth = sh < 31 ? 1 + ((depth - 1) << sh) : UINT32_MAX;
		if (depth > maxd) {
			depth = maxd;
			ret = true;
		}
	}
	rwb->max_depth = depth;
	return ret;
}

static void calc_wb_limits(struct rq_wb *rwb)
{
	if (rwb->min_lat_nsec == 0) {
		rwb->wb_normal = rwb->wb_background = 0;
	} else if (rwb->max_depth <= 2) {
		rwb->wb_normal = rwb->max_depth;
		rwb->wb_background = 1;
	} else {
		rwb->wb_normal = (rwb->max_depth + 1) / 2;
		rwb->wb_background = (rwb->max_depth + 3) / 4;
	}
}

#define REQ_HIPRIO (IOS_REQ_SYNC | IOS_REQ_META | IOS_REQ_PRIO)

static unsigned get_limit(const struct rq_wb *rwb, const struct ios_queue *q,
			  const struct ios_bio *bio, uint64_t now)
{
	if (bio->flags & IOS_REQ_DISCARD)
		return rwb->wb_background;
	/* WB_SYNC_ALL writeback (fsync, O_SYNC) and metadata: the whole depth */
	if ((bio->flags & REQ_HIPRIO) || wb_recent_wait(rwb, q, now))
		return rwb->max_depth;
	if ((bio->flags & IOS_REQ_BACKGROUND) || close_io(rwb, now))
		return rwb->wb_background;
	return rwb->wb_normal;
}

/* wbt_should_throttle: writes and discards, but not O_DIRECT's */
static bool wbt_should_throttle(const struct ios_bio *bio)
{
	if (bio->dir != IOS_WRITE)
		return false;
	if (bio->flags & IOS_REQ_DISCARD)
		return true;
	return (bio->flags & (IOS_REQ_SYNC | IOS_REQ_IDLE)) != (IOS_REQ_SYNC | IOS_REQ_IDLE);
}

static unsigned bio_to_wbt_flags(const struct rq_wb *rwb, const struct ios_bio *bio)
{
	unsigned flags = 0;

	if (!rwb_enabled(rwb))
		return 0;
	if (bio->dir == IOS_READ) {
		flags = WBT_READ;
	} else if (wbt_should_throttle(bio)) {
		if (bio->flags & IOS_REQ_DISCARD)
			flags |= WBT_DISCARD;
		flags |= WBT_TRACKED;
	}
	return flags;
}

static struct wbt_rq_wait *get_rq_wait(struct rq_wb *rwb, unsigned wb_acct)
{
	if (wb_acct & WBT_SWAP)
		return &rwb->rq_wait[WBT_RWQ_SWAP];
	if (wb_acct & WBT_DISCARD)
		return &rwb->rq_wait[WBT_RWQ_DISCARD];
	return &rwb->rq_wait[WBT_RWQ_BG];
}

/* ---- the stat window (blk-stat) ---- */

static void rwb_arm_timer(struct rq_wb *rwb, uint64_t now)
{
	if (rwb->scale_step > 0) {
		/* the window shrinks as 1/sqrt(step + 1) once we have scaled down */
		uint64_t x = (uint64_t)(rwb->scale_step + 1) << 8, s = 0;

		while ((s + 1) * (s + 1) <= x)
			s++;
		rwb->cur_win_nsec = (rwb->win_nsec << 4) / s;
	} else {
		rwb->cur_win_nsec = rwb->win_nsec;
	}
	/* blk_stat_activate_nsecs: mod_timer(jiffies + nsecs_to_jiffies) */
	rwb->stat_active = true;
	rwb->stat_expires = (jiffies_at(rwb, now) + nsecs_to_jiffies(rwb, rwb->cur_win_nsec)) *
			    tick_ns(rwb);
}

static unsigned wbt_inflight(const struct rq_wb *rwb)
{
	unsigned n = 0;

	for (int i = 0; i < WBT_NUM_RWQ; i++)
		n += rwb->rq_wait[i].inflight;
	return n;
}

/* ---- waiting and waking (rq_qos_wait, rq_qos_wake_function) ---- */

static bool inc_below(struct wbt_rq_wait *rqw, unsigned limit)
{
	if (rqw->inflight >= limit)
		return false;
	rqw->inflight++;
	return true;
}

/* wake_up_all: the waiters, oldest first, each while its limit lets it in */
static void rqw_wake_all(struct ios_queue *q, struct rq_wb *rwb, struct wbt_rq_wait *rqw,
			 uint64_t now)
{
	while (rqw->head && inc_below(rqw, get_limit(rwb, q, rqw->head, now))) {
		struct ios_bio *bio = rqw->head;

		rqw->head = bio->next;
		if (!rqw->head)
			rqw->tail = NULL;
		bio->next = NULL;
		/* the woken task goes on in wbt_wait: the window opens if closed */
		if (!rwb->stat_active)
			rwb_arm_timer(rwb, now);
		ios_rq_qos_release(q, &rwb->r, bio, now);
	}
}

static void rwb_wake_all(struct ios_queue *q, struct rq_wb *rwb, uint64_t now)
{
	for (int i = 0; i < WBT_NUM_RWQ; i++)
		if (rwb->rq_wait[i].head)
			rqw_wake_all(q, rwb, &rwb->rq_wait[i], now);
}

static void wbt_rqw_done(struct ios_queue *q, struct rq_wb *rwb, struct wbt_rq_wait *rqw,
			 unsigned wb_acct, uint64_t now)
{
	unsigned inflight, limit;

	IOS_BUG_ON(rqw->inflight == 0);
	inflight = --rqw->inflight;
	/*
	 * Discards wait for the background limit; with a write cache, writes
	 * drain completely before the sleepers go on, unless a writer is
	 * being dirty-throttled (then the cache must be cleaned faster)
	 */
	if (wb_acct & WBT_DISCARD)
		limit = rwb->wb_background;
	else if (rwb->wc && !wb_recent_wait(rwb, q, now))
		limit = 0;
	else
		limit = rwb->wb_normal;
	if (inflight && inflight >= limit)
		return;
	if (rqw->head && (!inflight || limit - inflight >= rwb->wb_background / 2))
		rqw_wake_all(q, rwb, rqw, now);
}

static void wbt_done_flags(struct ios_queue *q, struct rq_wb *rwb, unsigned wb_acct,
			   uint64_t now)
{
	if (!(wb_acct & WBT_TRACKED))
		return;
	wbt_rqw_done(q, rwb, get_rq_wait(rwb, wb_acct), wb_acct, now);
}

/* ---- scaling ---- */

static void scale_up(struct ios_queue *q, struct rq_wb *rwb, uint64_t now)
{
	if (rwb->scaled_max)
		return;
	rwb->scale_step--;
	rwb->scaled_max = calc_max_depth(rwb);
	calc_wb_limits(rwb);
	rwb->unknown_cnt = 0;
	rwb_wake_all(q, rwb, now);
}

static void scale_down(struct rq_wb *rwb, bool hard_throttle)
{
	/* at depth 1 there is nothing left to take away */
	if (rwb->max_depth == 1)
		return;
	if (rwb->scale_step < 0 && hard_throttle)
		rwb->scale_step = 0;
	else
		rwb->scale_step++;
	rwb->scaled_max = false;
	calc_max_depth(rwb);
	calc_wb_limits(rwb);
	rwb->unknown_cnt = 0;
}

static int latency_exceeded(const struct ios_queue *q, const struct rq_wb *rwb, uint64_t now)
{
	const struct wbt_stat *stat = rwb->stat;
	/* rwb_sync_issue_lat */
	uint64_t thislat = rwb->sync_cookie && now > rwb->sync_issue ? now - rwb->sync_issue : 0;

	/*
	 * A read issued but not back after a whole window (or after the
	 * target, with no read completing at all) counts as a miss: on a
	 * flooded device completions alone would say nothing
	 */
	if (thislat > rwb->cur_win_nsec || (thislat > rwb->min_lat_nsec && !stat[IOS_READ].nr_samples))
		return LAT_EXCEEDED;
	/* a read and RWB_MIN_WRITE_SAMPLES writes, or the window says nothing */
	if (!(stat[IOS_READ].nr_samples >= 1 &&
	      stat[IOS_WRITE].nr_samples >= RWB_MIN_WRITE_SAMPLES)) {
		if (stat[IOS_WRITE].nr_samples || wb_recent_wait(rwb, q, now) || wbt_inflight(rwb))
			return LAT_UNKNOWN_WRITES;
		return LAT_UNKNOWN;
	}
	if (stat[IOS_READ].min > rwb->min_lat_nsec)
		return LAT_EXCEEDED;
	return LAT_OK;
}

/* wb_timer_fn, after blk_stat_timer_fn gathered the window */
static void wb_timer_fn(struct ios_queue *q, struct rq_wb *rwb, uint64_t now)
{
	unsigned inflight = wbt_inflight(rwb);
	int status = latency_exceeded(q, rwb, now);

	switch (status) {
	case LAT_EXCEEDED:
		scale_down(rwb, true);
		break;
	case LAT_OK:
		scale_up(q, rwb, now);
		break;
	case LAT_UNKNOWN_WRITES:
		/* only writes: the step may go negative, more depth for them */
		scale_up(q, rwb, now);
		break;
	case LAT_UNKNOWN:
		if (++rwb->unknown_cnt < RWB_UNKNOWN_BUMP)
			break;
		/* long without data: drift back to step 0 */
		if (rwb->scale_step > 0)
			scale_up(q, rwb, now);
		else if (rwb->scale_step < 0)
			scale_down(rwb, false);
		break;
	}
	if (rwb->scale_step || inflight)
		rwb_arm_timer(rwb, now);
}

static void wbt_update_limits(struct ios_queue *q, struct rq_wb *rwb, uint64_t now)
{
	rwb->scale_step = 0;
	rwb->scaled_max = false;
	calc_max_depth(rwb);
	calc_wb_limits(rwb);
	rwb_wake_all(q, rwb, now);
}

/* ---- the rq_qos hooks ---- */

static int wbt_wait(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio, uint64_t now)
{
	struct rq_wb *rwb = RQWB(r);
	unsigned flags = bio_to_wbt_flags(rwb, bio);
	struct wbt_rq_wait *rqw;

	if (!(flags & WBT_TRACKED)) {
		if (flags & WBT_READ) {
			rwb->last_issue = jiffies_at(rwb, now);
			rwb->issued_once = true;
		}
		return 0;
	}
	rqw = get_rq_wait(rwb, flags);
	/* rq_qos_wait: no barging past sleepers; else a slot below the limit */
	if (!rqw->head && inc_below(rqw, get_limit(rwb, q, bio, now))) {
		if (!rwb->stat_active)
			rwb_arm_timer(rwb, now);
		return 0;
	}
	bio->next = NULL;
	if (rqw->tail)
		rqw->tail->next = bio;
	else
		rqw->head = bio;
	rqw->tail = bio;
	return 1;
}

static void wbt_track(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		      struct ios_bio *bio)
{
	(void)q;
	rq->wbt_flags |= bio_to_wbt_flags(RQWB(r), bio);
}

static void wbt_issue(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		      uint64_t now)
{
	struct rq_wb *rwb = RQWB(r);

	(void)q, (void)now;
	if (!rwb_enabled(rwb))
		return;
	/* the first read in flight: a hint for a flooded device (latency_exceeded) */
	/* (the kernel tests sync_issue == 0: here a read may start at time 0) */
	if ((rq->wbt_flags & WBT_READ) && !rwb->sync_cookie) {
		rwb->sync_cookie = rq;
		rwb->sync_issue = rq->dispatch_ns;
	}
}

static void wbt_requeue(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
			uint64_t now)
{
	struct rq_wb *rwb = RQWB(r);

	(void)q, (void)now;
	if (!rwb_enabled(rwb))
		return;
	if (rq == rwb->sync_cookie) {
		rwb->sync_issue = 0;
		rwb->sync_cookie = NULL;
	}
}

/* blk_stat_add (from __blk_mq_end_request), while a window is open */
static void wbt_stat_add(struct rq_wb *rwb, const struct ios_request *rq, uint64_t now)
{
	struct wbt_stat *s;
	uint64_t v;

	/* wbt_data_dir: reads and writes (discards are writes); a bare flush is neither */
	if (!rwb->stat_active || rq->state != IOS_RQ_DONE || !rq->nr_sectors)
		return;
	s = &rwb->stat[rq->dir == IOS_READ ? IOS_READ : IOS_WRITE];
	v = now >= rq->dispatch_ns ? now - rq->dispatch_ns : 0;
	if (!s->nr_samples || v < s->min)
		s->min = v;
	s->nr_samples++;
}

/* wbt_done: on completion, and on the free of a request merged away */
static void wbt_done(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		     uint64_t now)
{
	struct rq_wb *rwb = RQWB(r);

	wbt_stat_add(rwb, rq, now);
	if (!(rq->wbt_flags & WBT_TRACKED)) {
		if (rwb->sync_cookie == rq) {
			rwb->sync_issue = 0;
			rwb->sync_cookie = NULL;
		}
		if ((rq->wbt_flags & WBT_READ) && rwb_enabled(rwb)) {
			rwb->last_comp = jiffies_at(rwb, now);
			rwb->completed_once = true;
		}
	} else {
		wbt_done_flags(q, rwb, rq->wbt_flags, now);
	}
	rq->wbt_flags = 0;
}

static void wbt_cleanup(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			uint64_t now)
{
	struct rq_wb *rwb = RQWB(r);

	wbt_done_flags(q, rwb, bio_to_wbt_flags(rwb, bio), now);
}

static uint64_t wbt_next_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	(void)q, (void)now;
	return RQWB(r)->stat_active ? RQWB(r)->stat_expires : UINT64_MAX;
}

static void wbt_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	struct rq_wb *rwb = RQWB(r);

	/* blk_stat_timer_fn: the window closes, its sums go to the callback and reset */
	rwb->stat_active = false;
	wb_timer_fn(q, rwb, now);
	memset(rwb->stat, 0, sizeof(rwb->stat));
}

static void wbt_exit(struct ios_queue *q, struct ios_rq_qos *r)
{
	struct rq_wb *rwb = RQWB(r);

	(void)q;
	for (int i = 0; i < WBT_NUM_RWQ; i++)
		IOS_BUG_ON_MSG(rwb->rq_wait[i].head, "wbt: bios still waiting at exit");
	free(rwb);
}

static const struct ios_rq_qos_ops wbt_rqos_ops = {
	.throttle = wbt_wait,
	.track = wbt_track,
	.issue = wbt_issue,
	.requeue = wbt_requeue,
	.done = wbt_done,
	.cleanup = wbt_cleanup,
	.next_timer = wbt_next_timer,
	.timer = wbt_timer,
	.exit = wbt_exit,
};

/* ---- set-up and the knobs ---- */

uint64_t ios_wbt_default_latency_nsec(const struct ios_queue *q)
{
	/* 2 ms for non-rotational storage, 75 ms for rotational */
	return q->rotational ? 75 * IOS_NSEC_PER_MSEC : 2 * IOS_NSEC_PER_MSEC;
}

int ios_wbt_init(struct ios_queue *q)
{
	struct rq_wb *rwb;
	int ret;

	if (!q->mq)
		return -EOPNOTSUPP;
	rwb = calloc(1, sizeof(*rwb));
	if (!rwb)
		return -ENOMEM;
	rwb->r.ops = &wbt_rqos_ops;
	rwb->r.id = IOS_RQ_QOS_WBT;
	rwb->r.name = "wbt";
	rwb->r.priv = rwb;
	rwb->hz = q->hz ? q->hz : 250;
	rwb->win_nsec = RWB_WINDOW_NSEC;
	rwb->enable_state = WBT_STATE_ON_DEFAULT;
	rwb->wc = q->write_cache;
	rwb->default_depth = RWB_DEF_DEPTH;
	rwb->min_lat_nsec = ios_wbt_default_latency_nsec(q);
	rwb->queue_depth = q->nr_requests;	/* blk_queue_depth */
	calc_max_depth(rwb);
	calc_wb_limits(rwb);
	ret = ios_rq_qos_add(q, &rwb->r);
	if (ret)
		free(rwb);
	return ret;
}

void ios_wbt_enable_default(struct ios_queue *q)
{
	struct rq_wb *rwb;
	bool enable = !(q->sched->features & IOS_SCHED_DISABLE_WBT);

	if (!q->mq || q->no_wbt)
		return;
	rwb = wbt_of(q);
	if (rwb) {
		if (enable && rwb->enable_state == WBT_STATE_OFF_DEFAULT)
			rwb->enable_state = WBT_STATE_ON_DEFAULT;
		return;
	}
	if (enable)
		ios_wbt_init(q);
}

void ios_wbt_disable_default(struct ios_queue *q)
{
	struct rq_wb *rwb = wbt_of(q);

	/* a latency set through sysfs (ON_MANUAL) stays */
	if (rwb && rwb->enable_state == WBT_STATE_ON_DEFAULT) {
		rwb->stat_active = false;	/* blk_stat_deactivate */
		rwb->enable_state = WBT_STATE_OFF_DEFAULT;
	}
}

int ios_wbt_lat_store(struct ios_queue *q, int64_t val, uint64_t now)
{
	struct rq_wb *rwb;
	uint64_t lat;
	int ret;

	if (!q->mq)
		return -EOPNOTSUPP;
	if (val < -1)
		return -EINVAL;
	/* the lab's bound: val * 1000 must fit (the kernel wraps it) */
	if (val > INT64_MAX / 1000)
		return -ERANGE;
	rwb = wbt_of(q);
	if (!rwb) {
		/* a write brings wbt up even where the elevator kept it off */
		ret = ios_wbt_init(q);
		if (ret)
			return ret;
		rwb = wbt_of(q);
	}
	lat = val == -1 ? ios_wbt_default_latency_nsec(q) : (uint64_t)val * 1000;
	if (rwb->min_lat_nsec == lat)
		return 0;
	/* wbt_set_min_lat */
	rwb->min_lat_nsec = lat;
	rwb->enable_state = lat ? WBT_STATE_ON_MANUAL : WBT_STATE_OFF_MANUAL;
	wbt_update_limits(q, rwb, now);
	return 0;
}

int64_t ios_wbt_lat_show(struct ios_queue *q)
{
	struct rq_wb *rwb = wbt_of(q);

	if (!rwb)
		return -EINVAL;
	if (!rwb_enabled(rwb))
		return 0;
	return (int64_t)(rwb->min_lat_nsec / 1000);
}

bool ios_wbt_enabled(struct ios_queue *q)
{
	return rwb_enabled(wbt_of(q));
}

int ios_wbt_debug(struct ios_queue *q, struct ios_wbt_debug *d)
{
	struct rq_wb *rwb = wbt_of(q);

	memset(d, 0, sizeof(*d));
	if (!rwb)
		return -ENOENT;
	d->enabled = rwb->enable_state;
	d->min_lat_nsec = rwb->min_lat_nsec;
	d->cur_win_nsec = rwb->cur_win_nsec;
	d->wb_normal = rwb->wb_normal;
	d->wb_background = rwb->wb_background;
	d->max_depth = rwb->max_depth;
	d->scale_step = rwb->scale_step;
	d->unknown_cnt = rwb->unknown_cnt;
	d->window_open = rwb->stat_active;
	d->window_end = rwb->stat_expires;
	for (int i = 0; i < WBT_NUM_RWQ; i++) {
		d->inflight[i] = rwb->rq_wait[i].inflight;
		for (struct ios_bio *b = rwb->rq_wait[i].head; b; b = b->next)
			d->waiting[i]++;
	}
	return 0;
}

/*
 * Disk registration (blk_register_queue -> wbt_enable_default), then a
 * queue/wbt_lat_usec written from the settings (queue_wb_lat_store).
 */
int ios_wbt_queue_setup(struct ios_queue *q, const struct ios_settings *set, bool built,
			struct ios_err *e)
{
	const char *prefix = ios_scope_get(IOS_SCOPE_QUEUE)->prefix;
	const struct ios_setting *s = NULL;
	int ret;

	for (size_t i = 0; set && i < set->n; i++)
		if (!strncmp(set->v[i].name, prefix, strlen(prefix)) &&
		    !strcmp(set->v[i].name + strlen(prefix), "wbt_lat_usec"))
			s = &set->v[i];
	if (!q->mq) {
		if (s)
			return IOS_ERR(e, -EOPNOTSUPP, "%s%s%s: writeback throttling (blk-wbt) is "
				       "modelled on blk-mq queues only; scheduler '%s' runs on the "
				       "single-queue layer", s->origin, *s->origin ? ": " : "",
				       s->name, q->sched->name);
		return 0;
	}
	q->no_wbt = !built;
	if (!built) {
		if (s)
			return IOS_ERR(e, -EOPNOTSUPP, "%s%s%s: this queue was built without "
				       "writeback throttling (CONFIG_BLK_WBT_MQ=n)", s->origin,
				       *s->origin ? ": " : "", s->name);
		return 0;
	}
	ios_wbt_enable_default(q);
	if (s) {
		ret = ios_wbt_lat_store(q, q->tun.wbt_lat_usec, 0);
		if (ret)
			return IOS_ERR(e, ret, "%s%s%s=%d: refused (%s)", s->origin,
				       *s->origin ? ": " : "", s->name, q->tun.wbt_lat_usec,
				       ret == -EINVAL ? "-1 restores the default, 0 disables, "
				       "larger values are microseconds (queue_wb_lat_store)" :
				       strerror(-ret));
	}
	/* what queue/wbt_lat_usec shows now (0 without wbt, as disabled) */
	{
		int64_t v = ios_wbt_lat_show(q);

		q->tun.wbt_lat_usec = v < 0 ? 0 : (int)v;
	}
	return 0;
}
