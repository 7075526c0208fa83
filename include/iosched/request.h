/*
 * The objects that flow through the I/O path: io contexts (who submits),
 * bios (what a task asks for) and requests (what the scheduler orders and
 * the device serves).
 *
 * A task submits bios. The block layer either merges a bio into a queued
 * request or allocates a new request for it; a request therefore carries a
 * chain of bios, possibly from different tasks, and completing the request
 * completes every bio on it. That is how one process can end up waiting for
 * a request that sits in another process's scheduler queue (seed 004).
 *
 * Requests carry intrusive tree and list nodes for the scheduler, so no
 * scheduler allocates per request.
 */
#ifndef IOSCHED_REQUEST_H
#define IOSCHED_REQUEST_H

#include <stdbool.h>
#include <stdint.h>
#include "list.h"
#include "rbtree.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_SECTOR_SHIFT 9
#define IOS_SECTOR_SIZE 512u
#define IOS_NO_WAKEUP UINT64_MAX
#define IOS_NSEC_PER_USEC 1000ULL
#define IOS_NSEC_PER_MSEC 1000000ULL
#define IOS_NSEC_PER_SEC 1000000000ULL

enum ios_dir {
	IOS_READ = 0,
	IOS_WRITE = 1,
};
#define IOS_DIR_COUNT 2

/* Request / bio flags, the subset of REQ_* that schedulers and devices use. */
enum {
	IOS_REQ_SYNC	 = 1u << 0,	/* a sync request (reads, O_DIRECT/O_SYNC writes) */
	IOS_REQ_META	 = 1u << 1,	/* filesystem metadata */
	IOS_REQ_FUA	 = 1u << 2,	/* write through the drive cache */
	IOS_REQ_PREFLUSH = 1u << 3,	/* flush the drive cache first; alone: a cache flush */
	IOS_REQ_AHEAD	 = 1u << 4,	/* readahead */
	IOS_REQ_NOIDLE	 = 1u << 5,	/* sync write not followed by more I/O soon */
	IOS_REQ_PRIO	 = 1u << 6,	/* boosted priority (4.x REQ_PRIO) */
	IOS_REQ_IDLE	 = 1u << 7,	/* 4.x REQ_IDLE: more sync writes follow */
	IOS_REQ_DISCARD	 = 1u << 8,	/* a discard (TRIM), dir IOS_WRITE; no data moves */
	/* 4.10+ REQ_BACKGROUND: background or kupdate writeback (blk-mq's flusher only) */
	IOS_REQ_BACKGROUND = 1u << 9,
};

/* ioprio classes as in include/linux/ioprio.h */
enum ios_ioprio_class {
	IOS_IOPRIO_CLASS_NONE = 0,
	IOS_IOPRIO_CLASS_RT = 1,
	IOS_IOPRIO_CLASS_BE = 2,
	IOS_IOPRIO_CLASS_IDLE = 3,
};
#define IOS_IOPRIO_LEVELS 8
#define IOS_IOPRIO_NORM 4

/*
 * A control group as the workload names it (fio cgroup=, cgroup_weight=).
 * Nested paths ("a/b") have their parents created implicitly; a parent
 * always has a smaller id than its children.
 */
struct ios_cgroup_v2;

struct ios_cgroup {
	char *path;			/* "a/b", "" for the root */
	unsigned id;			/* 0 = root; dense, in order of first use */
	unsigned weight;		/* 0 = the scheduler's default */
	int ioprio;			/* lab.group_policy 2008 designs: 0..7; -1 = their default */
	struct ios_cgroup *parent;	/* NULL for the root */
	/*
	 * The cgroup v2 files written for it (--set cgroup.PATH.io.*,
	 * include/iosched/blkcg.h); NULL when none was.
	 */
	struct ios_cgroup_v2 *v2;
	/*
	 * Kept by the block layer: requests of the group's tasks completed,
	 * by direction, and their sectors (what blkio.io_serviced and
	 * blkio.sectors count when the scheduler keeps no books of its own).
	 */
	uint64_t ios[IOS_DIR_COUNT], sectors[IOS_DIR_COUNT];
	uint64_t device_ns;		/* its tasks' share of the device's busy time */
};

#define IOS_MAX_QUEUES 4

/*
 * An io context: one per task (the kernel's io_context). Schedulers keep
 * their per-process state (CFQ's cic, BFQ's bic, AS's aic) in icq[], one
 * slot per request queue, released through the scheduler's exit_icq hook.
 */
struct ios_plug;
struct ios_plug_held;

/*
 * What the cgroup v2 controllers and writeback throttling held I/O for
 * (docs/cgroup-v2-plan.md §9, step 9a), kept per task (struct ios_ioc),
 * per group (struct ios_blkg) and per queue: for each cause the summed
 * time and how many waits. A bio's wait runs from the moment a controller
 * kept it to the moment it let it go, so with several bios in flight the
 * sum can exceed the task's own time. IOS_WAIT_DELAY is the task's sleep
 * before its system call returns (6.12 blkcg_maybe_throttle_current).
 */
enum ios_wait_cause {
	IOS_WAIT_THROTL,	/* io.max: blk_throtl_bio held it until its group dispatched it */
	IOS_WAIT_COST,		/* io.cost: ioc_rqos_throttle's vtime wait */
	IOS_WAIT_LATENCY,	/* io.latency: rq_wait at the group's depth (blkcg_iolatency_throttle) */
	IOS_WAIT_WBT,		/* writeback throttling: wbt_wait's rq_wait */
	IOS_WAIT_DELAY,		/* the return-to-user delay (use_delay / blkcg_set_delay) */
	IOS_WAIT_NR,
};
struct ios_waits {
	uint64_t ns[IOS_WAIT_NR];
	uint64_t nr[IOS_WAIT_NR];
};

struct ios_ioc {
	/*
	 * Hot first: a request reads the first cache line (its group, the
	 * plug, the request count, the disk time); with 10,000 tasks each
	 * line more is a cache miss per request (issue 34).
	 */
	struct ios_cgroup *cgroup;	/* never NULL: the root group at least */
	/*
	 * The task's plug (the kernel's current->plug, set by blk_start_plug;
	 * struct ios_plug in block.h), NULL when it holds none. Only blk-mq
	 * queues look at it; the single-queue layer has no plug model.
	 */
	struct ios_plug *plug;
	/*
	 * blk-mq cgroup v2 (Linux 6.12 current->throttle_disk): the queue a
	 * controller asked this task to be delayed for when its system call
	 * returns (blkcg_schedule_throttle), NULL when none. The task's
	 * runner takes it with ios_blkcg_task_throttle() (blkcg.h).
	 */
	struct ios_queue *throttle_disk;
	/*
	 * Disk time, two ways (docs/reports.md "Disk time"): device_ns is the
	 * task's share of the device's busy time (the block layer splits each
	 * busy interval evenly among the requests in the driver); sched_ns is
	 * what the scheduler charged the task's own queue (CFQ's slice time
	 * with its idling, BFQ's time in service), 0 under one that charges
	 * nothing.
	 */
	uint64_t device_ns, sched_ns;
	/*
	 * Requests allocated for this context and not yet freed: the block
	 * layer's reference (the kernel's get_io_context in get_request). The
	 * context must outlive them; its owner checks this is 0 before freeing.
	 */
	unsigned nr_requests;
	uint32_t pid;
	int ioprio_class;		/* enum ios_ioprio_class; NONE = from nice */
	int ioprio_level;		/* 0..7 */
	int nice;			/* -20..19 */
	/*
	 * The CPU the task submits from (blk-mq's software context): fio's
	 * cpus_allowed when it names one CPU, else assigned round-robin by the
	 * runner; always < the queue's nr_cpus. The single-queue layer ignores it.
	 */
	unsigned cpu;
	void *icq[IOS_MAX_QUEUES];
	/*
	 * A kernel thread's context (the kernel's PF_KTHREAD: the flusher,
	 * later jbd2): blkcg_schedule_throttle ignores it, so no cgroup v2
	 * controller ever delays it on its way back to user space.
	 */
	bool kthread;
	int nr_tasks;			/* live tasks; 0 once the task has exited */
	char comm[32];			/* task name for traces: the fio job name */
	/* blk-mq: what the controllers held this context's bios for (enum ios_wait_cause) */
	struct ios_waits waits;
};

/*
 * The more important of two own priorities (the kernel's ioprio_best): none
 * (0) counts as best-effort level 4, a lower class number wins (RT over BE
 * over IDLE), then a lower level. Two unset priorities stay unset.
 */
static inline int ios_ioprio_best(int a, int b)
{
	if (!a && !b)
		return 0;
	if (!a)
		a = IOS_IOPRIO_CLASS_BE << 13 | IOS_IOPRIO_NORM;
	if (!b)
		b = IOS_IOPRIO_CLASS_BE << 13 | IOS_IOPRIO_NORM;
	if ((a >> 13) != (b >> 13))
		return (a >> 13) < (b >> 13) ? a : b;
	return (a & 7) <= (b & 7) ? a : b;
}

/* Effective class and level the way the kernel derives them (ioprio.h). */
static inline int ios_ioc_class(const struct ios_ioc *ioc)
{
	return ioc->ioprio_class == IOS_IOPRIO_CLASS_NONE ? IOS_IOPRIO_CLASS_BE
							  : ioc->ioprio_class;
}

static inline int ios_ioc_level(const struct ios_ioc *ioc)
{
	if (ioc->ioprio_class == IOS_IOPRIO_CLASS_NONE)
		return (ioc->nice + 20) / 5;
	if (ioc->ioprio_class == IOS_IOPRIO_CLASS_IDLE)
		return 7;
	return ioc->ioprio_level;
}

struct ios_bio;
typedef void (*ios_bio_end_fn)(struct ios_bio *bio, uint64_t now_ns, int error);
typedef void (*ios_bio_queued_fn)(struct ios_bio *bio, uint64_t now_ns);

/*
 * A bio: one contiguous transfer asked for by one task. Owned by the
 * submitter (embedded in its I/O unit); the block layer only links it.
 */
/*
 * Where a bio is in its life, kept by the block layer (checked: a bio is
 * submitted only when not already in flight and ended exactly once).
 */
enum ios_bio_state {
	IOS_BIO_IDLE = 0,		/* never submitted, or ended: the owner's */
	IOS_BIO_IN_FLIGHT,		/* accepted by ios_queue_submit_bio */
};

struct ios_bio {
	uint64_t sector;
	uint32_t nr_sectors;		/* 0 only for a pure cache flush */
	uint8_t dir;			/* enum ios_dir */
	uint32_t flags;			/* IOS_REQ_* */
	struct ios_ioc *ioc;
	int ioprio;			/* the I/O's own priority (class << 13 | level), 0 = none */
	uint64_t submit_ns;		/* when the task submitted it */
	ios_bio_end_fn end_io;		/* called once, when its request completes */
	/*
	 * Optional: called when a bio that had to wait for a free request slot
	 * finally enters the queue (the task was asleep in get_request).
	 */
	ios_bio_queued_fn queued;
	void *priv;			/* the submitter's, for end_io and queued */
	/*
	 * Optional: the bytes it moves (nr_sectors * 512, aligned for O_DIRECT),
	 * for a host on a real device (host.h); NULL: the host moves scratch
	 * bytes, as every simulated task does. The block layer never reads it.
	 */
	void *data;
	struct ios_bio *next;		/* chain inside a request */
	uint8_t state;			/* enum ios_bio_state; block layer only */
	/*
	 * blk-mq's CPU cost model only (mq.c): when the submitting CPU has
	 * paid the bio's submission and insert time and the bio enters the
	 * queue. Block layer only.
	 */
	uint64_t cpu_ready_ns;
	/*
	 * The same model's: the plug the task had when it submitted the bio
	 * (the bio joins it when it enters, plug.c), and whether the bio
	 * waited for its CPU (its submitter was told 0, running, so no
	 * bio->queued() announces it). Block layer only.
	 */
	struct ios_plug_held *plug_held;
	bool cpu_held;
	/*
	 * cgroup v2 on blk-mq (src/block/blkcg_int.h, rq_qos.c). blkcg: the
	 * cgroup the bio is charged to (the kernel's bio->bi_blkg), NULL for
	 * its task's (ioc->cgroup), which every submitter but writeback's
	 * attribution leaves; read it with ios_bio_blkcg(). issue_ns: when it
	 * passed blk-throttle and was traced Q (blkcg_bio_issue_init, the
	 * start io.latency measures from). qos_flags: IOS_BIO_* below.
	 * alloc_ns: when its request allocation began (after rq_qos
	 * throttle), for the request's tag_wait_ns. Block layer and
	 * controllers only; the submitter zeroes them.
	 */
	struct ios_cgroup *blkcg;
	uint64_t issue_ns;
	uint64_t alloc_ns;
	uint32_t qos_flags;
	/*
	 * When a controller began holding it (blk-throttle or an rq_qos
	 * policy), for struct ios_waits; block layer only.
	 */
	uint64_t held_ns;
};

/* bio->qos_flags (6.12 include/linux/blk_types.h names where the kernel has one) */
#define IOS_BIO_BPS_THROTTLED	(1u << 0)	/* BIO_BPS_THROTTLED: io.max charged its bytes */
#define IOS_BIO_QOS_THROTTLED	(1u << 1)	/* BIO_QOS_THROTTLED: went through rq_qos throttle */
#define IOS_BIO_QOS_MERGED	(1u << 2)	/* BIO_QOS_MERGED: went through rq_qos merge */
/*
 * The lab's: blk-throttle held the bio and its submitter was told it was
 * accepted (ios_queue_submit_bio returned 0), so no later sleep of the bio
 * (rq_qos, a tag) may call its queued() again: the task never slept.
 */
#define IOS_BIO_ANNOUNCED	(1u << 3)

/* The cgroup @rq is charged to (as ios_bio_blkcg), NULL without a task. */
#define ios_rq_blkcg(rq) ((rq)->blkcg ? (rq)->blkcg : (rq)->ioc ? (rq)->ioc->cgroup : NULL)

/* The cgroup @bio is charged to: bio->blkcg, else its task's, NULL without a task. */
static inline struct ios_cgroup *ios_bio_blkcg(const struct ios_bio *bio)
{
	if (bio->blkcg)
		return bio->blkcg;
	return bio->ioc ? bio->ioc->cgroup : NULL;
}

struct ios_queue;

/*
 * Where a request is in its life. The block layer moves it at each step and
 * checks the step is legal, so a request dispatched or completed twice, or
 * freed while the device has it, aborts with a message instead of
 * corrupting the run.
 */
enum ios_rq_state {
	IOS_RQ_ALLOCATED = 0,		/* rq_alloc: not yet handed on */
	IOS_RQ_QUEUED,			/* in the scheduler or on the dispatch list */
	IOS_RQ_IN_DRIVER,		/* dispatched, the device has it */
	IOS_RQ_DONE,			/* completed, about to be freed */
	IOS_RQ_FREE,			/* on the free list */
};

/*
 * A request: what the scheduler holds and the device serves.
 *
 * Field ownership:
 * - block layer: position, size, flags, bio chain, times, hash node;
 * - scheduler: rb_node, queuelist, fifo_time_ns, sched_priv[] while the
 *   request is between insert() and dispatch() (rb_node and queuelist are
 *   free again once dispatch() returns the request);
 * - device: dev_node and dev_ns while the request is in the device.
 */
struct ios_request {
	/*
	 * sector, rb_node and queuelist share the first cache line: a
	 * sector-tree descent reads the first two at every level, and FIFO
	 * unlinking touches the neighbours' queuelist.
	 */
	uint64_t sector;
	struct ios_rb_node rb_node;	/* scheduler: sector order */
	struct ios_list_head queuelist;	/* scheduler: FIFO or dispatch list */
	uint32_t nr_sectors;
	uint8_t dir;
	uint32_t flags;
	struct ios_ioc *ioc;		/* of the task that caused the allocation */
	/*
	 * The cgroup it is charged to (its first bio's bio->blkcg: all its
	 * bios share it on blk-mq, blk_cgroup_mergeable), NULL for ioc's;
	 * read it with ios_rq_blkcg().
	 */
	struct ios_cgroup *blkcg;
	int ioprio;			/* its bios' best own priority (ioprio_best), 0 = none */
	struct ios_queue *q;
	uint64_t id;			/* allocation sequence number: stable tie-breaker */

	uint64_t alloc_ns;		/* allocated (kernel start_time) */
	uint64_t insert_ns;		/* handed to the scheduler */
	uint64_t fifo_time_ns;		/* the scheduler's deadline */
	uint64_t dispatch_ns;		/* handed to the device */
	uint64_t complete_ns;
	uint64_t svc_v0;		/* q->svc_v at dispatch (block.c) */
	/*
	 * blk-mq: from the start of its allocation to its tag (the kernel's
	 * start_time_ns - alloc_time_ns, io.cost's rq_wait), 0 when the tag
	 * was free at once
	 */
	uint64_t tag_wait_ns;
	/* blk-mq writeback throttling's rq->wbt_flags (src/block/blk_wbt.c) */
	uint32_t wbt_flags;

	struct ios_bio *bio, *biotail;
	uint32_t nr_bios;

	void *sched_priv[2];

	struct ios_list_head hash_node;	/* block layer: back-merge hash by end sector */
	struct ios_list_head dev_node;	/* device: its internal queue */
	uint64_t dev_ns;		/* device: private time stamp */
	int error;
	/*
	 * blk-mq only (src/block/mq*.c; -1 / 0 on the single-queue layer):
	 * the driver tag and the scheduler tag it holds, the software context
	 * (the submitting CPU) and the hardware context it was mapped to.
	 */
	int32_t tag, sched_tag;
	uint16_t mq_ctx, mq_hctx;
	uint8_t elv_sorted;		/* went through the scheduler (not a flush or requeue) */
	uint8_t hashed;			/* on the back-merge hash */
	uint8_t state;			/* enum ios_rq_state; block layer only */
};

static inline bool ios_rq_is_sync(const struct ios_request *rq)
{
	/* the kernel's rq_is_sync(): reads are always sync */
	return rq->dir == IOS_READ || (rq->flags & IOS_REQ_SYNC);
}

static inline bool ios_bio_is_sync(const struct ios_bio *bio)
{
	return bio->dir == IOS_READ || (bio->flags & IOS_REQ_SYNC);
}

static inline uint64_t ios_rq_end(const struct ios_request *rq)
{
	return rq->sector + rq->nr_sectors;
}

static inline uint64_t ios_rq_bytes(const struct ios_request *rq)
{
	return (uint64_t)rq->nr_sectors << IOS_SECTOR_SHIFT;
}

#ifdef __cplusplus
}
#endif

#endif
