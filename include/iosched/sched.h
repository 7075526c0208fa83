/*
 * The I/O scheduler interface.
 *
 * A scheduler is one file of static functions and one const descriptor
 * (struct ios_sched_type): a name, an optional alias, a table of hooks, a
 * table of tunables and the size of its private data. The block layer
 * (struct ios_queue, block.h) owns the requests and calls the hooks; the
 * scheduler only decides order.
 *
 * Time is always passed in (now_ns). A scheduler never reads a clock, never
 * calls the device or the simulator and never sleeps. When it wants to be
 * asked again later (an idle window, an anticipation timeout) it says so
 * through next_wakeup(); the block layer arranges for dispatch() to be called
 * at that time. This is what lets the same scheduler code run under the
 * simulator, under unit tests with a fake clock, and later against real I/O.
 *
 * Counters a scheduler may read on the queue: rq_in_driver, in_flight[],
 * nr_sorted, depth, rotational (see block.h).
 */
#ifndef IOSCHED_SCHED_H
#define IOSCHED_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "request.h"
#include "tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_queue;

enum ios_merge {
	IOS_NO_MERGE = 0,
	IOS_FRONT_MERGE,	/* the bio goes in front of the request */
	IOS_BACK_MERGE,		/* the bio goes after the request */
};

/* may_queue() answers, as ELV_MQUEUE_* */
enum ios_mqueue {
	IOS_MQUEUE_MAY = 0,	/* normal request-slot limits apply */
	IOS_MQUEUE_NO,		/* refuse (the task sleeps) */
	IOS_MQUEUE_MUST,	/* allow even above nr_requests (up to the hard limit) */
};

/* insert() flags */
#define IOS_INSERT_FRONT	(1u << 0)	/* at the head (requeue, barriers) */
#define IOS_INSERT_REQUEUE	(1u << 1)	/* the device handed it back */

/* dispatch() flags */
#define IOS_DISPATCH_FORCE	(1u << 0)	/* drain: ignore idling and limits */

/* features */
#define IOS_SCHED_IDLES		(1u << 0)	/* may return IOS_NO_WAKEUP != next_wakeup */
/* takes lab.ttime_back_to_back (Divyesh Shah's think-time sample, built on 2.6.31) */
#define IOS_SCHED_TTIME_B2B	(1u << 1)
/*
 * Charges each process's own queue its time on the disk (ios_ioc.sched_ns:
 * CFQ's slices, BFQ's time in service); without it the report shows the
 * device's share alone.
 */
#define IOS_SCHED_CHARGES_TIME	(1u << 2)
/*
 * blk-mq's 'none' (version 2, layer IOS_SCHED_LAYER_MQ only): no elevator
 * at all, as elevator_switch(q, NULL) leaves a queue. The core never calls
 * the descriptor's hooks; requests take driver tags at allocation
 * (nr_requests = the device's depth), are issued directly
 * (blk_mq_try_issue_directly) and otherwise wait in the software contexts.
 */
#define IOS_SCHED_NO_ELEVATOR	(1u << 3)
/*
 * blk-mq only: the elevator turns writeback throttling off
 * (ELEVATOR_FLAG_DISABLE_WBT, which 6.12's bfq_init_queue sets), so
 * wbt_enable_default never starts wbt on its queue (src/block/blk_wbt.c).
 */
#define IOS_SCHED_DISABLE_WBT	(1u << 4)
#define IOS_SCHED_FEATURES	(IOS_SCHED_IDLES | IOS_SCHED_TTIME_B2B | IOS_SCHED_CHARGES_TIME | \
				 IOS_SCHED_NO_ELEVATOR | IOS_SCHED_DISABLE_WBT)

/*
 * The version of struct ios_sched_type and struct ios_sched_ops a
 * descriptor was written for (its .version), as fio's ioengine ops carry
 * FIO_IOOPS_VERSION and SQLite's io methods iVersion. The rule: the structs
 * only grow. A new field or hook is appended and this number goes up; the
 * core reads what a version added only from descriptors of that version or
 * later, so a descriptor written for an older version keeps working
 * unchanged. A descriptor of version 0 (never set) or of a version newer
 * than this library knows is refused by ios_sched_register() with -EINVAL:
 * the library cannot honour fields it does not know about.
 *
 * Version 1: everything below, share_model included.
 * Version 2: layer and mq_ops at the end of struct ios_sched_type, for the
 * blk-mq block layer (docs/blk-mq-plan.md). A version 1 descriptor runs on
 * the legacy single-queue layer, as every descriptor did before.
 */
#define IOS_SCHED_INTERFACE_VERSION 2

/*
 * The block layer a scheduler is written for (struct ios_sched_type.layer,
 * version 2). SQ is the single-queue layer of Linux 2.6 to 4.x (block.c),
 * where noop, deadline, anticipatory, CFQ and BFQ 4.19 run; MQ is blk-mq,
 * Linux 5.0 and later (none, mq-deadline, kyber, BFQ 6.x). The queue is
 * built for the layer its scheduler names.
 */
#define IOS_SCHED_LAYER_SQ	0u
#define IOS_SCHED_LAYER_MQ	1u
#define IOS_SCHED_LAYER_NR	2u

/*
 * lab.group_policy: whose design divides the disk between cgroups. BLKIO is
 * the kernel's own (blkio.weight for CFQ 2.6.33+, io.bfq.weight for BFQ).
 * The two 2008 proposals were never merged; the lab rebuilds them on the
 * CFQ of their time (docs/cfq-groups.md).
 */
enum ios_group_policy {
	IOS_GROUP_POLICY_BLKIO = 0,
	IOS_GROUP_POLICY_TARASOV2008,	/* two-level CFQ: groups round-robin, slice by priority */
	IOS_GROUP_POLICY_UCHIDA2008,	/* 2-layer CFQ: one CFQ per group under a CFQ of groups */
	IOS_GROUP_POLICY_NR,
};

struct ios_sched_type;

/*
 * How a scheduler divides the disk between processes and cgroups, as far as
 * the fairness metrics need to know it (compare.h: the "ideal" share each
 * job is promised). Named by mechanism, not by scheduler: a new scheduler
 * that divides the disk as an existing one does says so with the same
 * value. Classes (RT, BE, IDLE) are strict in every model with priorities.
 * 0 is IOS_SHARE_NONE, so a descriptor that says nothing promises nothing.
 */
enum ios_share_model {
	/* no per-process shares (noop, deadline, anticipatory): all equal */
	IOS_SHARE_NONE = 0,
	/*
	 * CFQ 2.6.31: one round of queues; a queue's share is its sync time
	 * slice, base + base/5 * (4 - level) with base = the slice_sync
	 * tunable (Jeff Moyer's "total priority" is the sum of these in ms)
	 */
	IOS_SHARE_CFQ_SLICE,
	/*
	 * CFQ 2.6.33 and 4.19: cgroups first, by weight (the root group 1000,
	 * a cgroup its cgroup_weight or 500), then the queues inside a group
	 * by their sync slice as IOS_SHARE_CFQ_SLICE
	 */
	IOS_SHARE_CFQ_GROUP_SLICE,
	/*
	 * BFQ: a queue's weight is (8 - level) * 10; a cgroup is one BE
	 * entity of weight cgroup_weight (or 100) beside the root group's
	 * queues, and divides its share among its own queues the same way
	 */
	IOS_SHARE_BFQ_WEIGHT,
};
#define IOS_SHARE_NR	(IOS_SHARE_BFQ_WEIGHT + 1)

/*
 * What a scheduler does with cgroups; NULL in the descriptor: nothing (fio's
 * cgroup options then have no effect, as the kernel would ignore them).
 */
struct ios_sched_cgroups {
	bool groups;			/* it divides the disk between cgroups */
	/* cgroup_weight=: the range and default; all 0: weights are not used */
	unsigned weight_min, weight_max, weight_default;
	const char *weight_file;	/* the cgroup file it stands for: "blkio.weight" */
	bool nested;			/* "a/b" divides a's share among a's children */
	/* --set cgroup.PATH.ioprio=N (the 2008 designs): levels 0..N-1; 0: not used */
	unsigned ioprio_levels;
	int ioprio_default;
	/*
	 * Other lab.group_policy values: the descriptor that implements each
	 * (the runner uses it in this one's place); NULL where unsupported.
	 */
	const struct ios_sched_type *policy[IOS_GROUP_POLICY_NR];
};

/*
 * What scheduler @st makes of a task in a cgroup: @in_group (a cgroup other
 * than the root is named), @nested (its path has a real parent group) and
 * @weight (0: none given). The bits say what is wrong; run (job options)
 * and the app API (tenants) word them for their own input. IGNORED_* and
 * WEIGHT_UNUSED are warnings (the kernel too would ignore them); the
 * others refuse.
 */
#define IOS_CG_IGNORED_GROUP	0x1u	/* no group scheduling: the cgroup is ignored */
#define IOS_CG_IGNORED_WEIGHT	0x2u	/* no group scheduling: the weight is ignored */
#define IOS_CG_WEIGHT_UNUSED	0x4u	/* groups, but by priority (the 2008 designs) */
#define IOS_CG_WEIGHT_RANGE	0x8u	/* outside weight_min..weight_max */
#define IOS_CG_NESTED_FLAT	0x10u	/* nested, and the groups are flat */
#define IOS_CG_REFUSED		(IOS_CG_WEIGHT_RANGE | IOS_CG_NESTED_FLAT)
unsigned ios_sched_cgroup_check(const struct ios_sched_type *st, bool in_group, bool nested,
				unsigned weight);

/* One cgroup's accounting, as the scheduler charged it (blkio.* files). */
struct ios_group_stats {
	uint64_t time_ns;		/* blkio.time: disk time charged to the group */
	uint64_t sectors;		/* blkio.sectors: dispatched */
	uint64_t ios[2];		/* blkio.io_serviced: dispatched reads, writes */
	unsigned weight;		/* the weight in effect (0: none) */
	int ioprio;			/* 2008 designs: the group's priority (-1: none) */
	uint64_t slice_ns;		/* 2008 designs: the group's time slice (0: none) */
};

struct ios_sched_ops {
	/* --- set-up and tear-down (required) --- */

	/*
	 * Called once after q->sched_data (priv_size bytes, zeroed) has been
	 * allocated and the tunables table's defaults applied to it. May read
	 * q->rotational and q->depth. Returns 0 or -errno.
	 */
	int (*init)(struct ios_queue *q);
	/*
	 * Optional. Called after the tunables table's defaults were applied
	 * and before the user's settings: for defaults that depend on the
	 * device (4.19 CFQ's slice_idle is 0 on non-rotational devices). May
	 * read q->rotational and q->depth.
	 */
	void (*init_defaults)(struct ios_queue *q);
	/* The queue is empty when this is called. Free what init allocated. */
	void (*exit)(struct ios_queue *q);

	/* --- request life --- */

	/*
	 * Optional. Called when the block layer is about to allocate a request
	 * for @ioc; lets the scheduler override the slot limits (AS, CFQ).
	 */
	enum ios_mqueue (*may_queue)(struct ios_queue *q, struct ios_ioc *ioc, int dir, bool sync);
	/*
	 * Optional. Called when a request has been allocated, before it is
	 * inserted or used as a merge target; may set sched_priv[]. Returns 0
	 * or -ENOMEM (then the allocation fails and the task waits).
	 */
	int (*set_request)(struct ios_queue *q, struct ios_request *rq);
	/* Optional. The request is being freed (completed or merged away). */
	void (*put_request)(struct ios_queue *q, struct ios_request *rq);

	/* Required. Take a new request. @flags: IOS_INSERT_*. */
	void (*insert)(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
		       unsigned flags);
	/*
	 * Required. Hand over the next request for the device, removed from
	 * every scheduler structure, or NULL: nothing now (maybe later, see
	 * next_wakeup). Must not block. The block layer only calls it while the
	 * device has a free tag.
	 */
	struct ios_request *(*dispatch)(struct ios_queue *q, uint64_t now_ns, unsigned flags);
	/* Required. Any request queued? Cheap, no side effects. */
	bool (*has_work)(struct ios_queue *q);
	/*
	 * Required (may be empty). A dispatched request completed. Feedback for
	 * schedulers that learn (think time, seek distance, budgets).
	 */
	void (*completed)(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns);
	/* Optional. The device gave a dispatched request back. Default: insert at front. */
	void (*requeue)(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns);

	/* --- merging (all optional; the block layer does the merge itself) --- */

	/*
	 * Veto a bio -> request merge (elevator allow_merge_fn). Return false to
	 * forbid. Called for every candidate, back and front.
	 */
	bool (*allow_merge)(struct ios_queue *q, struct ios_request *rq, const struct ios_bio *bio);
	/*
	 * Look up a request the bio could be merged with beyond the block
	 * layer's own back-merge hash (a front merge, via the scheduler's sector
	 * tree). Set *rq and return the merge type, or IOS_NO_MERGE.
	 */
	enum ios_merge (*bio_merge)(struct ios_queue *q, const struct ios_bio *bio,
				    struct ios_request **rq);
	/* A request grew by a bio merge of @type; re-sort it if its key changed. */
	void (*request_merged)(struct ios_queue *q, struct ios_request *rq, enum ios_merge type);
	/*
	 * @next has been merged into @rq (the two became contiguous); @next is
	 * removed from the queue after this returns. Take over its deadline if
	 * it was earlier, and drop it from every structure.
	 */
	void (*requests_merged)(struct ios_queue *q, struct ios_request *rq,
				struct ios_request *next);

	/*
	 * --- navigation (optional) ---
	 * The queued request just before / after @rq in the order the scheduler
	 * keeps them, used by the block layer to merge two requests a bio made
	 * contiguous. NULL hooks: no request-to-request merges.
	 */
	struct ios_request *(*former)(struct ios_queue *q, struct ios_request *rq);
	struct ios_request *(*latter)(struct ios_queue *q, struct ios_request *rq);

	/* --- timers --- */

	/*
	 * Optional. The earliest time at which dispatch() may return something
	 * it would not return now (the end of an idle window), or
	 * IOS_NO_WAKEUP. Asked after every hook call; a stale answer costs only
	 * a spurious dispatch() call.
	 */
	uint64_t (*next_wakeup)(struct ios_queue *q);
	/*
	 * Optional. The time next_wakeup() asked for has come: do the
	 * time-driven state changes (an idle window ending expires a slice)
	 * even when nothing can be dispatched right now. Called before the
	 * dispatch loop. Without it, the scheduler handles its deadlines in
	 * dispatch().
	 */
	void (*timer)(struct ios_queue *q, uint64_t now_ns);

	/* --- per-process state --- */

	/* Optional. @ioc has exited, at @now_ns (a running slice ends then). */
	void (*exit_icq)(struct ios_queue *q, struct ios_ioc *ioc, uint64_t now_ns);

	/* --- groups --- */

	/*
	 * Optional. Fill @st with what the scheduler charged to cgroup @cg
	 * (after the run, or at any time: no side effects). Returns 0, or
	 * -ENOENT when the scheduler never saw the group. Schedulers without
	 * groups leave it NULL; the block layer still counts each group's
	 * completed requests (struct ios_cgroup), but disk time is only the
	 * scheduler's to tell.
	 */
	int (*group_stats)(struct ios_queue *q, const struct ios_cgroup *cg,
			   struct ios_group_stats *st);
};

/*
 * Hooks only the blk-mq layer calls (version 2), grouped as the kernel's
 * elevator_mq_ops has them; every one is optional, and a scheduler of the
 * single-queue layer has none (mq_ops NULL). The hooks of struct
 * ios_sched_ops keep their contracts on both layers: insert() takes
 * IOS_INSERT_FRONT for an at-head insertion, completed() is the kernel's
 * completed_request, and the merging hooks are the same. may_queue() and
 * IOS_DISPATCH_FORCE belong to the single-queue layer only.
 */
struct ios_sched_mq_ops {
	/*
	 * A request is about to take a tag (limit_depth): the shallow depth
	 * this allocation may use, or 0 for no limit. @opf: IOS_REQ_* flags of
	 * the bio, with IOS_WRITE in bit 31 for a write. @ioc may be NULL.
	 */
	unsigned (*limit_depth)(struct ios_queue *q, unsigned opf, const struct ios_ioc *ioc);
	/* The scheduler tag depth (nr_requests) was set: once after init, then on change. */
	void (*depth_updated)(struct ios_queue *q);
	/*
	 * A request got its scheduler tag (prepare_request) / is being freed,
	 * whether or not it was ever inserted (finish_request). mq-deadline
	 * counts completions for its priority levels here.
	 */
	void (*prepare_request)(struct ios_queue *q, struct ios_request *rq);
	void (*finish_request)(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns);
	/*
	 * Per hardware queue dispatch (kyber). Both set or both NULL; NULL:
	 * the scheduler keeps one state for the whole queue (the kernel's
	 * QUEUE_FLAG_SQ_SCHED), and ops.dispatch()/ops.has_work() serve every
	 * hardware queue.
	 */
	struct ios_request *(*dispatch_hctx)(struct ios_queue *q, unsigned hctx, uint64_t now_ns);
	bool (*has_work_hctx)(struct ios_queue *q, unsigned hctx);
	/* A hardware queue is set up / torn down (init_hctx, exit_hctx). 0 or -errno. */
	int (*init_hctx)(struct ios_queue *q, unsigned hctx);
	void (*exit_hctx)(struct ios_queue *q, unsigned hctx);
};

/*
 * The most counters a scheduler's stats table may hold (the registry
 * refuses a longer one, so a run result, struct ios_run_result.sched_stats,
 * never drops any): mq-deadline's six debugfs counters per priority level
 * and its batch state need 25.
 */
#define IOS_SCHED_STATS_MAX 32

struct ios_sched_type {
	const char *name;
	unsigned version;		/* IOS_SCHED_INTERFACE_VERSION it was written for */
	const char *alias;		/* may be NULL */
	const char *desc;		/* one line for 'iosched list' */
	struct ios_sched_ops ops;
	const struct ios_tunable *tunables;	/* ends with a NULL name; may be NULL */
	const struct ios_tunable *stats;	/* read-only state for --dump-state; may be NULL;
						 * at most IOS_SCHED_STATS_MAX entries */
	size_t priv_size;
	unsigned features;
	const struct ios_sched_cgroups *cgroups;	/* NULL: no group scheduling */
	const void *profile;	/* scheduler-private per-descriptor data (as a driver's match data) */
	enum ios_share_model share_model;	/* how it divides the disk */

	/* --- version 2: read only from descriptors with .version >= 2 --- */
	unsigned layer;				/* IOS_SCHED_LAYER_*; 0: single-queue */
	const struct ios_sched_mq_ops *mq_ops;	/* blk-mq hooks; NULL: none */
};

/* The block layer @t runs on: a version 1 descriptor is single-queue. */
static inline unsigned ios_sched_layer(const struct ios_sched_type *t)
{
	return t->version >= 2 ? t->layer : IOS_SCHED_LAYER_SQ;
}

/* Its blk-mq hooks, or NULL (always NULL for a version 1 descriptor). */
static inline const struct ios_sched_mq_ops *ios_sched_mq_ops(const struct ios_sched_type *t)
{
	return t->version >= 2 ? t->mq_ops : NULL;
}

/*
 * Registry: the built-ins are listed explicitly in core/elv.c; an
 * application adds its own with ios_sched_register(), after which
 * ios_sched_find() and the runner (--scheduler, ioscheduler=) know it by
 * name. The descriptor must stay valid for the life of the process (it is
 * not copied). At most IOS_SCHED_MAX_EXTRA can be added.
 *
 * ios_sched_register() checks @t with ios_sched_type_check(), then refuses
 * a name or alias already known (either way round) with -EEXIST, and a full
 * registry with -ENOSPC. 0 on success; @e (may be NULL) says why not.
 */
#define IOS_SCHED_MAX_EXTRA 16
int ios_sched_register(const struct ios_sched_type *t, struct ios_err *e) IOS_MUST_CHECK;
/*
 * Is @t a descriptor this library can run? 0, or -EINVAL with @e naming the
 * problem: no name, a version other than 1..IOS_SCHED_INTERFACE_VERSION,
 * a required hook missing (init, exit, insert, dispatch, has_work,
 * completed), an unknown feature bit, IOS_SCHED_IDLES without next_wakeup
 * or the reverse, an unknown share model; from version 2: an unknown
 * layer, blk-mq hooks on a single-queue scheduler, may_queue() on a blk-mq
 * one, dispatch_hctx() without has_work_hctx() or the reverse; a tunables
 * or stats table that is
 * malformed (ios_tunable_check_table, against priv_size), a cgroup weight
 * range that does not hold its default, or a group-policy descriptor that
 * fails the same checks. Does not look at the registry.
 */
int ios_sched_type_check(const struct ios_sched_type *t, struct ios_err *e) IOS_MUST_CHECK;
const struct ios_sched_type *ios_sched_find(const char *name);
/* Iterate: returns NULL past the end. */
const struct ios_sched_type *ios_sched_at(size_t i);
/* " (did you mean 'cfq'?)" for a mistyped scheduler name, or ""; in @buf. */
const char *ios_sched_suggest(const char *typed, char *buf, size_t size);

/*
 * Helpers for schedulers: requests sorted by sector in an rbtree through
 * rq->rb_node (equal sectors keep arrival order).
 */
void ios_elv_rb_add(struct ios_rb_root *root, struct ios_request *rq);
void ios_elv_rb_del(struct ios_rb_root *root, struct ios_request *rq);
/* The request starting exactly at @sector, or NULL. */
struct ios_request *ios_elv_rb_find(const struct ios_rb_root *root, uint64_t sector);
/* Neighbours in sector order, or NULL. */
struct ios_request *ios_elv_rb_former(struct ios_request *rq);
struct ios_request *ios_elv_rb_latter(struct ios_request *rq);

static inline struct ios_request *ios_rb_to_rq(struct ios_rb_node *n)
{
	return n ? ios_container_of(n, struct ios_request, rb_node) : NULL;
}

#ifdef __cplusplus
}
#endif

#endif
