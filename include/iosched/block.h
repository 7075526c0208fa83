/*
 * The block layer: the request queue between tasks and the device.
 *
 * Tasks submit bios. The queue merges a bio into a queued request when it is
 * adjacent (back merges through a hash of request end sectors, front merges
 * through the scheduler's sector tree), within queue.max_sectors_kb and only
 * if the scheduler's allow_merge() agrees. Otherwise it allocates a request
 * from the request list (queue.nr_requests per list, as in Linux 2.6.30+
 * the lists are sync and async), and a task that finds no free slot sleeps
 * until one frees. Requests go to the scheduler, and the queue dispatches to
 * the device while the device has a free tag.
 *
 * The queue knows neither the simulator nor the clock. It is driven by
 * calls that carry the time (submit, complete, timer) and talks to whatever
 * is below it through struct ios_queue_host_ops: issue a request, arm a
 * timer. Under the simulator the host is the simulated device plus the
 * event queue; in unit tests it is a recorder; later it will be io_uring.
 */
#ifndef IOSCHED_BLOCK_H
#define IOSCHED_BLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include "err.h"
#include "list.h"
#include "request.h"
#include "sched.h"
#include "tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_queue;

struct ios_queue_host_ops {
	/* Send @rq to the device. Called from inside queue calls. */
	void (*issue)(void *host, struct ios_queue *q, struct ios_request *rq, uint64_t now_ns);
	/*
	 * Call ios_queue_timer(q, t) at time @when_ns; IOS_NO_WAKEUP cancels.
	 * A new call replaces the previous one.
	 */
	void (*set_timer)(void *host, struct ios_queue *q, uint64_t when_ns);
	/*
	 * Optional, blk-mq queues only: would the device refuse @rq now (a
	 * driver's BLK_STS_RESOURCE from queue_rq)? Asked just before issue();
	 * true sends the request back to its hardware queue's dispatch list
	 * (trace R) and raises dispatch_busy. NULL: the device takes whatever
	 * the driver tags let through, which is how every simulated device
	 * behaves (its queue is full exactly when the tags are all taken).
	 * Appended to the struct, so hosts written before it leave it NULL.
	 */
	bool (*busy)(void *host, struct ios_queue *q, const struct ios_request *rq,
		     uint64_t now_ns);
};

/* Trace points, as blktrace's actions. */
enum ios_trace_action {
	IOS_TA_QUEUE = 1,	/* Q: a bio entered the queue */
	IOS_TA_BACKMERGE,	/* M */
	IOS_TA_FRONTMERGE,	/* F */
	IOS_TA_GETRQ,		/* G */
	IOS_TA_SLEEPRQ,		/* S: no free request, the task sleeps */
	IOS_TA_REQUEUE,		/* R */
	IOS_TA_ISSUE,		/* D */
	IOS_TA_COMPLETE,	/* C */
	IOS_TA_PLUG,		/* P */
	IOS_TA_UNPLUG_IO,	/* U */
	IOS_TA_UNPLUG_TIMER,	/* UT */
	IOS_TA_INSERT,		/* I */
};

/* A trace sink (blktrace writer, tests). All hooks optional. */
struct ios_trace_ops {
	/* bio-level events (Q, M, F, G, S) carry @bio; request-level (I, D, C, R) carry @rq */
	void (*event)(void *priv, struct ios_queue *q, enum ios_trace_action a,
		      const struct ios_request *rq, const struct ios_bio *bio, uint64_t now_ns);
	/*
	 * scheduler messages (CFQ's "cfq1234 insert_request"); @now_ns is never
	 * earlier than the latest time the queue was called with
	 */
	void (*message)(void *priv, struct ios_queue *q, uint64_t now_ns, const char *msg);
};

/*
 * Who owns the disk, for the plot's timeline (include/iosched/timeline.h).
 * The schedulers call ios_queue_note_owner() where the kernel starts and
 * ends a queue's slice (CFQ's __cfq_set_active_queue, __cfq_slice_expired;
 * BFQ's in-service queue), arms its idle timer, preempts, anticipates (AS)
 * or starts a batch (deadline's dispatch rounds). @pid names the process
 * (ios_ioc.pid of the queue's owner), 0 a queue of no single process (async
 * queues). The events only describe; nothing reads them back, so a run with
 * a recorder is the same run as one without.
 */
enum ios_owner_event {
	IOS_OWN_SLICE_START = 1,	/* @pid's queue got the disk */
	IOS_OWN_SLICE_END,		/* it lost it; reason: enum ios_owner_reason */
	IOS_OWN_IDLE_START,		/* the disk idles for @pid's next request */
	IOS_OWN_IDLE_END,		/* the idling ended (a request came, or the timer) */
	IOS_OWN_PREEMPT,		/* @pid's queue preempts the active one */
	/*
	 * A dispatch round (batch) starts; @reason: its direction, or
	 * IOS_OWN_ROUND_REASON(direction, level) from a scheduler with
	 * priority levels (mq-deadline's RT 0, BE 1, IDLE 2).
	 */
	IOS_OWN_ROUND,
	/*
	 * A scheduler resized a token pool of one class of requests (kyber's
	 * domains, kyber_resize_domain); @reason
	 * IOS_OWN_DEPTH_REASON(domain, new depth), @pid the depth before the
	 * change (so a recorder knows a pool's starting depth from its first
	 * change). Pools start at the scheduler's documented depths; only
	 * changes are reported.
	 */
	IOS_OWN_DEPTH,
};

/* IOS_OWN_ROUND's reason: the direction, and the priority level + 1 above it (0: no levels) */
#define IOS_OWN_ROUND_REASON(dir, level) \
	((int)(((unsigned)(dir) & 1u) | (((unsigned)(level) + 1u) & 0xffu) << 8))
#define IOS_OWN_ROUND_DIR(reason) ((unsigned)(reason) & 1u)
/* -1: the scheduler has no priority levels (deadline's plain direction) */
#define IOS_OWN_ROUND_LEVEL(reason) ((int)(((unsigned)(reason) >> 8) & 0xffu) - 1)

/* IOS_OWN_DEPTH's reason: the domain (kyber: 0 READ, 1 WRITE, 2 DISCARD, 3 OTHER), the depth */
#define IOS_OWN_DEPTH_REASON(domain, depth) \
	((int)(((unsigned)(domain) & 0x7fffu) << 16 | ((unsigned)(depth) & 0xffffu)))
#define IOS_OWN_DEPTH_DOMAIN(reason) (((unsigned)(reason) >> 16) & 0x7fffu)
#define IOS_OWN_DEPTH_VALUE(reason) ((unsigned)(reason) & 0xffffu)

enum ios_owner_reason {
	IOS_OWN_R_NONE = 0,
	IOS_OWN_R_EXPIRED,		/* slice or budget used up, or timed out */
	IOS_OWN_R_PREEMPTED,
	IOS_OWN_R_EMPTY,		/* no more requests */
	IOS_OWN_R_EXITED,		/* the process exited */
};

struct ios_owner_ops {
	void (*note)(void *priv, uint64_t now_ns, uint32_t pid, enum ios_owner_event ev, int reason);
	/* @rq goes to the device (every dispatch, whatever the scheduler) */
	void (*dispatch)(void *priv, const struct ios_request *rq, uint64_t now_ns);
	/*
	 * A cgroup controller kept @pid's I/O (pid 0: no task, e.g. the
	 * flusher's writeback) over [from, to) for @cause (enum
	 * ios_wait_cause): told when the wait ends, as the report's `held`
	 * counts it. NULL: not recorded.
	 */
	void (*held)(void *priv, uint32_t pid, int cause, uint64_t from_ns, uint64_t to_ns);
};

/* queue.* tunables: /sys/block/X/queue/ */
struct ios_queue_tunables {
	int nr_requests;
	uint64_t max_sectors_bytes;	/* max_sectors_kb */
	uint64_t max_hw_sectors_bytes;	/* max_hw_sectors_kb (read-only) */
	uint64_t read_ahead_bytes;	/* read_ahead_kb, used by the page cache */
	int rotational;			/* default: the device's */
	int nomerges;			/* 0 all merges, 1 only the one-hit cache, 2 none */
	/* read-only, from the device: queue/zoned, chunk_sectors, nr_zones, max_*_zones */
	int zoned;			/* 0 none, 1 host-managed */
	uint64_t chunk_sectors;
	int nr_zones, max_open_zones, max_active_zones;
	int wbt_lat_usec;		/* blk-mq writeback throttling's target (blk_wbt.c) */
};

extern const struct ios_tunable ios_queue_tunables_table[];

/* /proc/diskstats for the device */
struct ios_disk_stats {
	uint64_t ios[IOS_DIR_COUNT];
	uint64_t merges[IOS_DIR_COUNT];
	uint64_t sectors[IOS_DIR_COUNT];
	uint64_t ticks_ns[IOS_DIR_COUNT];
	uint64_t io_ticks_ns;		/* time with at least one request in flight */
	uint64_t time_in_queue_ns;	/* integral of in-flight count over time */
	unsigned in_flight;
	uint64_t stamp_ns;
};

struct ios_queue_config {
	unsigned id;				/* index < IOS_MAX_QUEUES, picks ioc->icq[] slot */
	const char *disk_name;			/* "sda" */
	const struct ios_sched_type *sched;
	struct ios_settings *settings;		/* scheduler (bare) and queue.* settings; may be NULL */
	unsigned depth;				/* device tags */
	bool rotational;			/* device's own flag */
	/* blk-mq's writeback throttling (blk_wbt.c): QUEUE_FLAG_WC, and CONFIG_HZ (0: 250) */
	bool write_cache;
	unsigned hz;
	/* no writeback throttling at all, as a kernel built without CONFIG_BLK_WBT_MQ */
	bool no_wbt;
	uint64_t capacity_sectors;
	/* a host-managed zoned device: its zone size; 0 for a conventional one */
	uint64_t zone_sectors;
	uint32_t nr_zones, max_open_zones, max_active_zones;
	const struct ios_queue_host_ops *host_ops;
	void *host;
	bool ignore_allow_merge;		/* lab.cross_queue_merge: pre-2.6.20 merging */
	bool ttime_back_to_back;		/* lab.ttime_back_to_back (CFQ 2.6.31 only) */
	const struct ios_trace_ops *trace_ops;	/* may be NULL */
	void *trace;
	/*
	 * blk-mq only (read when the scheduler's layer is IOS_SCHED_LAYER_MQ):
	 * hardware queues, each of @depth driver tags, and simulated CPUs
	 * (software contexts). 0 means 1.
	 */
	unsigned nr_hw_queues;
	unsigned nr_cpus;
	/*
	 * blk-mq only: the host CPU time each step costs (lab.cpu.*; the
	 * runner picks the insert/dispatch/complete costs of the queue's
	 * scheduler family, measured defaults unless lab.cpu.model=zero).
	 * All 0: no cost model, the queue runs exactly as without one. See
	 * mq.c and docs/blk-mq.md "CPU cost model".
	 */
	struct ios_mq_cpu_cost {
		uint64_t submit_ns;	/* per bio, on the submitting CPU */
		uint64_t insert_ns;	/* per request, submitting CPU + scheduler lock */
		uint64_t dispatch_ns;	/* per request, scheduler lock + the CPU running the hctx */
		uint64_t complete_ns;	/* per request, the hctx's first CPU (its interrupt's) */
		/* per request, the scheduler's completed/finish_request, on that same CPU */
		uint64_t sched_complete_ns;
		bool sched_complete_locked;	/* ... holding the scheduler's lock (bfqd->lock) */
	} cpu_cost;
};

struct ios_queue {
	/* --- readable by schedulers --- */
	void *sched_data;		/* the scheduler's private area */
	unsigned rq_in_driver;		/* dispatched, not yet completed */
	unsigned in_flight[2];		/* in the driver: [0] async, [1] sync */
	/*
	 * The device's busy time shared among the requests in the driver:
	 * svc_v grows by dt/n (in 2^-IOS_SVC_SHIFT ns) over each interval dt
	 * with n of them there, so a request's share is svc_v at completion
	 * minus svc_v at dispatch, and the shares add up to the busy time
	 * (ios_ioc.device_ns), whatever the queue depth.
	 */
	uint64_t svc_v, svc_at;
	unsigned nr_sorted;		/* inserted, not yet dispatched */
	unsigned depth;			/* device tags */
	bool rotational;		/* queue/rotational (user may override) */
	/*
	 * queue/chunk_sectors of a host-managed zoned device (0: not zoned):
	 * writes to a sequential zone must reach the device in sector order
	 */
	uint64_t zone_sectors;
	unsigned id;
	/*
	 * lab.ttime_back_to_back: CFQ 2.6.31 takes a think-time sample only
	 * when the process could issue the request straight after its last
	 * one, inside its queue's slice (Divyesh Shah's 2009 proposal)
	 */
	bool ttime_back_to_back;
	/*
	 * blk-mq (0 on the single-queue layer): hardware queues, CPUs
	 * (software contexts), and the scheduler tag depth the kernel shows as
	 * queue/nr_requests (2 * min(depth, 128) with an elevator, the driver
	 * depth without); a scheduler's depth_updated() reads it.
	 */
	unsigned nr_hw_queues, nr_cpus, nr_requests;
	struct ios_mq *mq;		/* the blk-mq state (src/block/mq_int.h); NULL: legacy */
	/*
	 * The cgroup v2 group tree of a blk-mq queue (include/iosched/
	 * blkcg.h), set by the runner once the workload's groups are known
	 * and freed by it; NULL on the single-queue layer
	 */
	struct ios_blkcg_ctl *blkcg;
	/* built without writeback throttling (ios_queue_config.no_wbt: CONFIG_BLK_WBT_MQ=n) */
	bool no_wbt;
	/*
	 * blk-mq's cgroup v2 hooks (src/block/blkcg_int.h; NULL on the
	 * single-queue layer and whenever no controller is on): the rq_qos
	 * chain, newest-enabled first (q->rq_qos), and blk-throttle's ops
	 * with their data (q->td)
	 */
	struct ios_rq_qos *rq_qos;
	const struct ios_blk_throtl_ops *throtl_ops;
	void *throtl_data;
	/*
	 * blk-mq: when a writer last slept in balance_dirty_pages on this
	 * disk (6.12 bdi->last_bdp_sleep), set by the page cache and read by
	 * writeback throttling (wb_recent_wait); bdp_slept false: never
	 */
	uint64_t last_bdp_sleep_ns;
	bool bdp_slept;
	/*
	 * blk-mq: what blk-throttle, the rq_qos policies (wbt, io.latency,
	 * io.cost) and the return-to-user delay held, over the whole queue
	 * (enum ios_wait_cause; with or without cgroups)
	 */
	struct ios_waits qos_waits;

	/* --- block layer private --- */
	const struct ios_sched_type *sched;
	struct ios_queue_tunables tun;
	char disk_name[16];
	uint64_t capacity_sectors;
	const struct ios_queue_host_ops *host_ops;
	void *host;
	const struct ios_trace_ops *trace_ops;
	void *trace;
	bool ignore_allow_merge;
	bool write_cache;			/* QUEUE_FLAG_WC (blk_wbt.c) */
	unsigned hz;				/* CONFIG_HZ for blk_wbt.c's jiffies */
	const struct ios_owner_ops *owner_ops;	/* NULL: ownership not recorded */
	void *owner;
	/*
	 * Told of every completed request that moved data, after the disk's
	 * and its cgroup's accounting (the run's plot: the device side per
	 * charged cgroup). NULL: nobody listens.
	 */
	void (*done_fn)(void *priv, const struct ios_request *rq, uint64_t now_ns);
	void *done_priv;

	struct ios_list_head dispatch;		/* requeued requests and flushes, before the scheduler */
	struct ios_list_head *hash;		/* back-merge hash by end sector */
	unsigned hash_mask;
	struct ios_request *last_merge;		/* one-hit merge cache */
	struct ios_list_head free_rqs;		/* recycled request structs */
	unsigned rq_count[2];			/* allocated: [0] async, [1] sync */
	struct ios_bio *wait_head[2], *wait_tail[2];	/* bios waiting for a slot */
	uint64_t next_rq_id;
	uint64_t timer_at;			/* armed host timer or IOS_NO_WAKEUP */
	uint64_t clock_ns;			/* latest time of a queue call */
	bool in_run;

	struct ios_disk_stats stats;
	uint64_t nr_allocated;			/* requests ever allocated */
	uint64_t nr_freed;			/* requests freed (completed or merged away) */
	uint64_t nr_bios_in, nr_bios_done;	/* bios accepted, bios ended */
	uint64_t nr_bio_merges, nr_rq_merges;
	/*
	 * blk-mq: the depth an unplug trace event (U, UT) carries, set just
	 * before the event (trace_block_unplug's @depth: the requests flushed
	 * to this queue in that step, not those allocated)
	 */
	unsigned unplug_depth;
	uint64_t nr_plug_merges;		/* bios merged into a plugged request */
};

/*
 * A task's plug, as Linux 6.12's struct blk_plug (src/block/plug.c): while
 * it is started, the task's requests for blk-mq queues wait on it instead
 * of going on to the scheduler or the device, and bios merge into them.
 * It is flushed when a request joins a plug that holds 32 requests (64
 * once it holds requests of two queues) or whose newest request is 128 KiB
 * or more (unless queue.nomerges=2), when the task sleeps (for a tag), and
 * when it is finished. The owner keeps the struct (the kernel's is on the
 * stack); zero it or let ios_blk_start_plug() do so. Under blk-mq's CPU
 * cost model a finish that finds bios of the plug still waiting for their
 * CPU is deferred: the plug's state moves to storage of the block layer's
 * own (held), so the owner may reuse or drop the struct once
 * ios_blk_finish_plug() has returned.
 */

struct ios_plug {
	struct ios_list_head list;	/* plugged requests by queuelist, oldest first */
	unsigned rq_count;
	bool multiple_queues;		/* requests of more than one queue went on it */
	bool has_elevator;		/* a request with a scheduler tag went on it */
	uint64_t nr_flushes;		/* U and UT events (statistics for tests and reports) */
	struct ios_plug_held *held;	/* bios of this plug in a CPU's FIFO (plug.c); block layer only */
};

/*
 * blk_start_plug: @plug becomes @ioc's plug unless it already has one (a
 * nested plug does nothing, as in the kernel).
 */
void ios_blk_start_plug(struct ios_ioc *ioc, struct ios_plug *plug);
/* blk_finish_plug: flush @plug (trace U) and clear it, if it is @ioc's. */
void ios_blk_finish_plug(struct ios_ioc *ioc, struct ios_plug *plug, uint64_t now_ns);
/*
 * blk_flush_plug: flush @ioc's plug, if any. @from_schedule: the task is
 * about to sleep (schedule(), io_schedule()): trace UT, and the queues run
 * as if from kblockd.
 */
void ios_blk_flush_plug(struct ios_ioc *ioc, bool from_schedule, uint64_t now_ns);

struct ios_queue *ios_queue_create(const struct ios_queue_config *cfg, struct ios_err *e);
/*
 * Every request must have completed: checked, with every request and every
 * bio accounted for (freed, ended). Calls the scheduler's exit().
 */
void ios_queue_destroy(struct ios_queue *q);

/*
 * Submit a bio at @now_ns. Returns 0 when the bio was merged or queued, 1
 * when no request slot was free: the bio is parked and the submitting task
 * should consider itself asleep until bio->queued() is called (if set).
 * bio->end_io runs when the request holding it completes.
 */
int ios_queue_submit_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now_ns);
/* The device finished @rq. */
void ios_queue_complete(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns, int error);
/* The host timer armed through set_timer fired. */
void ios_queue_timer(struct ios_queue *q, uint64_t now_ns);
/* Dispatch while the device has free tags. */
void ios_queue_run(struct ios_queue *q, uint64_t now_ns);
/* The task behind @ioc exited: scheduler state for it may go. */
void ios_queue_ioc_exit(struct ios_queue *q, struct ios_ioc *ioc, uint64_t now_ns);
/* Scheduler trace message (blk_add_trace_msg). Cheap when tracing is off. */
void ios_queue_msg(struct ios_queue *q, uint64_t now_ns, const char *fmt, ...) IOS_PRINTF(3, 4);
/* Bring disk stats up to @now_ns (io_ticks, time_in_queue). */
void ios_queue_stats_update(struct ios_queue *q, uint64_t now_ns);

/* Tell @fn of every completed data request (NULL: stop). */
static inline void ios_queue_set_done_fn(struct ios_queue *q,
					 void (*fn)(void *priv, const struct ios_request *rq,
						    uint64_t now_ns), void *priv)
{
	q->done_fn = fn;
	q->done_priv = priv;
}

/* Record ownership through @ops (NULL: stop). Both hooks must be set. */
static inline void ios_queue_set_owner_ops(struct ios_queue *q, const struct ios_owner_ops *ops,
					   void *priv)
{
	q->owner_ops = ops;
	q->owner = priv;
}

/*
 * A blk-mq queue's shape, CPU -> hardware context map and per-hardware-
 * context counts, for the report (struct ios_mq_result in stats.h; the
 * caller frees it as ios_run_result_free does). -EINVAL on a single-queue
 * queue, -ENOMEM.
 */
struct ios_mq_result;
int ios_queue_mq_result(const struct ios_queue *q, struct ios_mq_result **out) IOS_MUST_CHECK;

/* One branch when nothing records. */
static inline void ios_queue_note_owner(struct ios_queue *q, uint64_t now_ns, uint32_t pid,
					enum ios_owner_event ev, int reason)
{
	if (q->owner_ops)
		q->owner_ops->note(q->owner, now_ns, pid, ev, reason);
}

static inline bool ios_queue_tracing(const struct ios_queue *q)
{
	return q->trace_ops != NULL;
}

/*
 * Nothing is left inside the queue: every bio accepted has ended (none is
 * held by blk-throttle, an rq_qos policy, the CPU cost model or a wait for
 * a request) and every request allocated has been freed (none is plugged,
 * queued, at the scheduler or in the driver). Its timers may still be
 * armed: with nothing to act on they change only the policies' state.
 */
static inline bool ios_queue_holds_nothing(const struct ios_queue *q)
{
	return q->nr_bios_in == q->nr_bios_done && q->nr_allocated == q->nr_freed &&
	       !q->rq_in_driver && !q->nr_sorted;
}

#ifdef __cplusplus
}
#endif

#endif
