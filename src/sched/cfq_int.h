/*
 * CFQ's private structures, shared by its files: cfq.c (queues, contexts,
 * the request life, the descriptors), cfq_tree.c (service and prio trees,
 * queue selection), cfq_idle.c (think time, seeks, idling), cfq_coop.c
 * (close cooperators, queue merging), cfq_dispatch.c (slices, dispatch,
 * preemption), cfq_group.c (the group service tree and workload choice)
 * and cfq_profiles.c (the release profiles and their tunables).
 *
 * One implementation covers three kernels. The descriptor's profile
 * (struct cfq_profile, cfqd->prof) names the mechanisms where they differ;
 * everything else is common:
 *  - 2.6.31: Linux 2.6.31 (the fairness thread), one service tree per
 *    device ordered by class then key, per-context seek statistics, the
 *    seed-000 `fairness` tunable;
 *  - 2.6.33: 2.6.33, with groups (root only unless cgroups are used),
 *    workload types per class, low_latency slice scaling, per-queue seek
 *    statistics, cooperating-queue merging and splitting, wait_busy;
 *  - 4.19: 4.19, the final form: 32-request seek history, quantum 8
 *    with its soft limit, the final preemption rules, group_idle, think
 *    time per service tree and group, slice_idle 0 on non-rotational
 *    devices.
 * Time is in nanoseconds; where the kernel counted jiffies (HZ=1000) one
 * jiffy is 1 ms.
 */
#ifndef IOSCHED_CFQ_INT_H
#define IOSCHED_CFQ_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "iosched/block.h"
#include "iosched/sched.h"

/*
 * Where and how a queue's seekiness is measured (cfq_update_io_seektime,
 * CIC_SEEKY / CFQQ_SEEKY).
 */
enum cfq_seek_model {
	CFQ_SEEK_CIC_MEAN,	/* 2.6.31: decaying mean seek distance per io context */
	CFQ_SEEK_QUEUE_MEAN,	/* 2.6.33: the same mean, per queue */
	CFQ_SEEK_HISTORY,	/* 2.6.35-4.19: the last 32 requests, one bit each */
};

/* How far from the head a request counts as close (cfq_rq_close). */
enum cfq_close_radius {
	CFQ_CLOSE_SEEK_MEAN,	/* 2.6.31: the context's seek mean (4 MiB without samples) */
	CFQ_CLOSE_MEAN_CAPPED,	/* 2.6.33: the queue's mean, capped at 4 MiB except for preemption */
	CFQ_CLOSE_FIXED,	/* 2.6.35-4.19: CFQQ_CLOSE_THR */
};

/* How many requests the active queue may have at the device (cfq_may_dispatch). */
enum cfq_dispatch_limit {
	CFQ_LIMIT_QUANTUM_4X,	/* 2.6.31 cfq_dispatch_requests: quantum, a lone queue 4x */
	CFQ_LIMIT_QUANTUM,	/* 2.6.33: quantum, a lone queue without limit */
	CFQ_LIMIT_SOFT_QUANTUM,	/* 4.19: quantum/2, quantum while the slice lasts, a lone (sync) queue without limit */
};

/* Whether a sync queue that just emptied idles at a completion (cfq_completed_request). */
enum cfq_arm_rule {
	CFQ_ARM_UNLESS_NOIDLE,	/* 2.6.31: unless the completed request said REQ_NOIDLE */
	CFQ_ARM_NOIDLE_TREE,	/* 2.6.33: on the sync-noidle tree only if one of its requests asked */
	CFQ_ARM_ALWAYS,		/* 4.19: always; cfq_should_idle decides */
};

/* When the group's last queue keeps its slice a little longer (cfq_should_wait_busy). */
enum cfq_wait_busy {
	CFQ_WAIT_BUSY_NONE,	/* 2.6.31: no wait_busy */
	CFQ_WAIT_BUSY_LAST,	/* 2.6.33: the group's last queue, near or past its slice end */
	CFQ_WAIT_BUSY_LAST_EMPTY, /* 4.19: the same, only once it is empty and the group thinks fast */
};

/*
 * A CFQ profile: the mechanisms one kernel release had, by name. The code
 * tests these, never a release; cfq_profiles.c has one const profile per
 * release and says where each fact comes from, docs/cfq.md tabulates them.
 * Named fields (not bit flags) because several are multi-way choices and
 * a designated initializer reads as the table of facts it is.
 *
 * Some behaviours only make sense together: groups and hier_groups need
 * workload_trees (the group's trees hold its queues), queue_merging needs a
 * per-queue seek model.
 */
struct cfq_profile {
	const char *release;			/* "2.6.31": for messages and tests */
	const struct ios_tunable *hidden;	/* defaults the code needs without a sysfs file */
	/* service trees and groups (cfq_tree.c, cfq_group.c) */
	bool workload_trees;		/* trees per group x class x type; else one per device */
	bool groups;			/* blkio groups on a vdisktime tree */
	bool hier_groups;		/* nested groups, shares by vfraction */
	bool isolation_move;		/* group_isolation=0 serves seeky queues in the root */
	bool min_vdisktime_active;	/* min_vdisktime also looks at the active group */
	bool class_change_new_workload;	/* a class change starts a new workload slice */
	bool async_per_group;		/* async queues are the group's, not the device's */
	bool async_prio_from_nice;	/* no ioprio: the async level follows nice */
	bool resid_added;		/* the key adds slice_resid (2.6.31's sign) */
	bool front_key_before_first;	/* add_front keys at first - HZ, not 0 */
	bool keep_empty_busy;		/* an emptied queue stays busy until its slice ends */
	bool sort_aliases;		/* one request per sector in the sort tree */
	bool next_rq_from_dispatched;	/* next_rq measured from the request leaving */
	/* think time, seeks, idling (cfq_idle.c) */
	enum cfq_seek_model seek;
	bool tree_group_ttime;		/* think time also per service tree and group */
	bool deep_queue;		/* 4 queued requests keep the idle window */
	bool seeky_window_needs_ncq;	/* seekiness costs the window only with hw_tag */
	bool req_idle;			/* REQ_IDLE semantics, not REQ_NOIDLE */
	bool window_off_noidle_next;	/* a non-idling next request drops the window */
	bool idle_window_only;		/* idle on the queue's window alone, driver empty */
	bool should_idle_needs_slice_idle; /* slice_idle 0: cfq_should_idle says no */
	bool seeky_drops_window_in_select; /* a seeky queue slower than the disk stops idling */
	bool group_idle;		/* idle on a group's last queue (group_idle) */
	bool hw_tag_guarded;		/* hw_tag starts unknown, latches */
	bool nonrot_no_idle;		/* slice_idle 0 on non-rotational devices */
	enum cfq_arm_rule arm;
	enum cfq_wait_busy wait_busy;
	bool wait_request_cleared;	/* the awaited request clears wait_request */
	/* cooperators and queue merging (cfq_coop.c) */
	enum cfq_close_radius close;
	bool queue_merging;		/* merge cooperators; else mark coop for one turn */
	bool merge_needs_process_refs;	/* never merge onto a queue without processes */
	bool split_puts_cooperator;	/* a split drops the pending merge's references */
	bool no_coop_for_idle_class;	/* no cooperator for an idle-class queue */
	/* slices, dispatch, preemption (cfq_dispatch.c) */
	bool low_latency_slice;		/* low_latency scales slices to target_latency */
	bool async_depth_ramp;		/* low_latency: async depth grows after a delayed sync */
	bool iops_mode;			/* no idling on NCQ: charge requests, not time */
	bool resid_on_unused_slice;	/* a slice never started banks the whole slice */
	enum cfq_dispatch_limit limit;
	bool drain_async_before_idle;	/* no async at the device when an idling queue starts */
	bool fifo_before_limits;	/* an expired FIFO request passes the limits */
	bool fifo_time_at_insert;	/* FIFO time from insertion, by the request's sync */
	uint32_t meta_flag;		/* IOS_REQ_META or IOS_REQ_PRIO */
	bool prio_boost;		/* REQ_PRIO lifts the queue to BE/NORM */
	bool rt_expires_in_select;	/* a waiting RT queue expires a BE one in select */
	bool preempt_used_slice_first;	/* a used-up slice yields before the class tests */
	bool preempt_rt_protected;	/* a non-RT request never preempts an RT queue */
	bool preempt_spares_must_dispatch; /* ... nor a sync one an async queue that must dispatch */
	bool preempt_rt_before_noidle;	/* RT over non-RT tested before the sync-noidle rule */
	bool preempt_noidle_any;	/* the sync-noidle rule for any number of queues */
	bool preempt_empty_not_idling;	/* an empty active queue that will not idle yields */
	bool preempt_resets_wl_slice;	/* another workload type forgets the saved slice */
};

extern const struct cfq_profile ios_cfq_profile_2631;
extern const struct cfq_profile ios_cfq_profile_2633;
extern const struct cfq_profile ios_cfq_profile_419;

/* workload classes and types (2.6.33+) */
enum cfq_wl_class { CFQ_BE_WL = 0, CFQ_RT_WL = 1, CFQ_IDLE_WL = 2 };
enum cfq_wl_type { CFQ_ASYNC_WL = 0, CFQ_SYNC_NOIDLE_WL = 1, CFQ_SYNC_WL = 2 };

/*
 * A jiffy at HZ=1000 (docs/cfq.md, "Time"): Kconfig's default was 250, Red
 * Hat's kernels of 2009 ran 1000; the HZ of the thread's machines is not
 * known. Only what the kernel counts in jiffies is written in jiffies here;
 * what it writes as a fraction of HZ is a time.
 */
#define CFQ_JIFFY_NS		1000000ULL
#define CFQ_IDLE_DELAY_NS	(200 * IOS_NSEC_PER_MSEC)	/* HZ / 5 */
/* 2.6.31 idles msecs_to_jiffies(2), 2.6.33 slices at least 2 jiffies: both 2 ms at HZ=1000 */
#define CFQ_MIN_TT_NS		(2 * CFQ_JIFFY_NS)
#define CFQ_SLICE_SCALE		5
#define CFQ_HW_QUEUE_MIN	5
#define CFQ_SERVICE_SHIFT	12
#define CFQ_HIST_DIVISOR	4
#define CFQ_SEEK_THR_OLD	(8 * 1024)	/* sectors, up to 2.6.33 */
#define CFQQ_SEEK_THR		(8 * 100)	/* 2.6.34+ */
#define CFQQ_CLOSE_THR		(8 * 1024)
#define CFQQ_SECT_THR_NONROT	(2 * 32)
#define CFQ_WEIGHT_DEFAULT	500	/* blkio.weight's default (legacy hierarchy) */
#define CFQ_WEIGHT_ROOT		1000	/* the root's weight and leaf_weight: twice the default */
#define CFQ_IOPS_GROUP_DELAY	200	/* 4.x IOPS mode: HZ/5, a raw count in request units */

/* queue flags */
enum {
	CFQ_QF_ON_RR		= 1u << 0,
	CFQ_QF_WAIT_REQUEST	= 1u << 1,
	CFQ_QF_MUST_ALLOC_SLICE	= 1u << 2,
	CFQ_QF_FIFO_EXPIRE	= 1u << 3,
	CFQ_QF_IDLE_WINDOW	= 1u << 4,
	CFQ_QF_PRIO_CHANGED	= 1u << 5,
	CFQ_QF_SLICE_NEW	= 1u << 6,
	CFQ_QF_SYNC		= 1u << 7,
	CFQ_QF_COOP		= 1u << 8,
	CFQ_QF_SPLIT_COOP	= 1u << 9,
	CFQ_QF_DEEP		= 1u << 10,
	CFQ_QF_WAIT_BUSY	= 1u << 11,
	CFQ_QF_MUST_DISPATCH	= 1u << 12,
	CFQ_QF_MERGE_TARGET	= 1u << 13,	/* some queue's new_cfqq pointed here */
	CFQ_QF_CHAIN_FREED	= 1u << 14,	/* its new_cfqq was freed (2.6.33.3: see cfq_setup_merge) */
};

struct cfq_ttime {
	uint64_t last_end;
	uint64_t samples;
	uint64_t total;
	uint64_t mean;
};

/* A service tree of queues (or, for groups, of groups) with a cached leftmost. */
struct cfq_rb_root {
	struct ios_rb_root_cached rb;
	unsigned count;
	uint64_t min_vdisktime;		/* group tree */
	uint64_t total_weight;		/* group tree (2.6.33) */
	struct cfq_ttime ttime;		/* 4.19: think time of the tree */
};

struct cfq_group;
struct cfq_io_cq;

struct cfq_queue {
	/*
	 * The tree nodes first, each next to its key: a descent reads a node
	 * and its key at every level, so they share a cache line.
	 */
	struct ios_rb_node rb_node;	/* service tree */
	uint64_t rb_key;
	struct cfq_rb_root *service_tree;
	struct ios_rb_node p_node;	/* prio tree (close cooperators), by next_rq's sector */
	uint64_t next_sector;		/* next_rq's sector (0 without): read at every level */
	struct ios_rb_root *p_root;	/* the prio tree holding it, or NULL */

	struct cfq_data *cfqd;
	int ref;
	unsigned flags;
	uint32_t pid;			/* process that created it (0 for async queues) */

	/* requests */
	struct ios_rb_root sort_list;
	struct ios_request *next_rq;
	unsigned queued[2];
	unsigned allocated[2];
	unsigned meta_pending;
	struct ios_list_head fifo;
	unsigned dispatched;
	unsigned merge_referrers;	/* queues whose new_cfqq is this one */

	/* slice */
	uint64_t dispatch_start;
	uint64_t slice_start;
	uint64_t slice_end;
	uint64_t allocated_slice;
	int64_t slice_resid;
	unsigned slice_dispatch;

	/* priority */
	int ioprio, org_ioprio;
	int ioprio_class, org_ioprio_class;

	/* seek statistics (2.6.33+: per queue) */
	uint64_t last_request_pos;
	uint64_t seek_samples, seek_total, seek_mean;
	uint32_t seek_history;
	uint64_t nr_sectors;

	struct cfq_group *cfqg;
	struct cfq_group *orig_cfqg;	/* 2.6.33 group_isolation=0: home of a queue moved to the root */
	struct cfq_queue *new_cfqq;	/* merge target */
	struct ios_list_head all;	/* cfqd->all_queues */
};

/*
 * Per process (io context) per device: the kernel's cic / cfq_io_cq.
 *
 * Lifetime. In the kernel the cic lives as long as its io_context, and the
 * io_context is pinned by the task, by every request allocated for it
 * (cfq_get_io_context in 2.6.31 cfq_set_request, put_io_context in
 * cfq_put_request; 4.19 __get_request / blk_free_request take and drop it
 * through rq->elv.icq) and by cfqd->active_cic (cfq_dispatch_request /
 * __cfq_slice_expired). Task exit only detaches it from its queues
 * (__cfq_exit_single_io_context, 4.19 cfq_exit_icq); the memory goes when
 * the last reference does (cfq_free_io_context / ioc_release_fn). @ref
 * counts the same holders for this queue: 1 for the task while it runs,
 * 1 per request between set_request and put_request, 1 for active_cic.
 */
struct cfq_io_cq {
	struct ios_ioc *ioc;
	int ref;
	bool exited;			/* detached: the task is gone (dead key) */
	struct cfq_queue *cfqq[2];	/* [0] async, [1] sync */
	struct cfq_ttime ttime;
	/*
	 * lab.ttime_back_to_back: the slice (cfqd->st_slices) in which this
	 * context's last sync request completed while its queue was the
	 * active one; 0 when it completed outside its queue's slice.
	 */
	uint64_t ttime_slice;
	/* 2.6.31: seek statistics per context */
	uint64_t last_request_pos;
	uint64_t seek_samples, seek_total, seek_mean;
	/*
	 * The task's priority when this context last looked (the kernel's
	 * cic->ioprio in 4.19, the ioc->ioprio_changed flag in 2.6.3x): a
	 * change is picked up at the task's next request.
	 */
	int ioprio_class, ioprio_level;
	struct ios_list_head all;
};

struct cfq_group {
	struct ios_rb_node rb_node;
	uint64_t vdisktime;
	unsigned weight;
	bool on_st;
	/*
	 * 4.19's hierarchy: a group's share of the device (vfraction, in
	 * 1/4096) is its tasks' leaf_weight share of the group, times the
	 * group's weight share among its active siblings, and so on up to the
	 * root. 2.6.33 is flat: every group is a child of the root.
	 */
	struct cfq_group *parent;		/* NULL for the root */
	unsigned leaf_weight;
	unsigned children_weight;		/* active children + own leaf_weight when busy */
	unsigned nr_active;			/* active children + 1 when its own queues are busy */
	unsigned vfraction;			/* set on activation; 0 while off the tree */
	unsigned nr_cfqq;			/* busy queues */
	unsigned busy_queues_avg[2];		/* [BE, RT] */
	struct cfq_rb_root service_trees[2][3];	/* [class BE/RT][type] */
	struct cfq_rb_root service_tree_idle;
	uint64_t saved_wl_slice;
	enum cfq_wl_type saved_wl_type;
	enum cfq_wl_class saved_wl_class;
	unsigned dispatched;
	struct cfq_ttime ttime;
	const struct ios_cgroup *cg;		/* NULL for the root */
	/* async queues (4.19: per group; before: only the root's are used) */
	struct cfq_queue *async_cfqq[2][8];	/* [RT/BE][level] */
	struct cfq_queue *async_idle_cfqq;
	/*
	 * statistics as blkio reports them: time is the slice time charged
	 * (blkio.time), sectors and ios are counted at dispatch
	 */
	uint64_t stat_time_ns, stat_sectors, stat_ios[2];
	struct ios_list_head all;
};

struct cfq_data {
	struct ios_queue *q;
	const struct cfq_profile *prof;	/* the descriptor's: what this CFQ does */

	/* tunables, stored in ns / sectors; see cfq_profiles.c */
	int quantum;
	uint64_t fifo_expire[2];	/* [async, sync] */
	uint64_t back_seek_max_kb;	/* KiB */
	int back_seek_penalty;
	uint64_t slice[2];		/* [async, sync] */
	int slice_async_rq;
	uint64_t slice_idle;
	uint64_t group_idle;
	int low_latency;
	int group_isolation;
	uint64_t target_latency;
	int fairness;			/* seed 000's patch, 2.6.31 only */
	uint64_t cgrp_slice;		/* lab.group_policy=tarasov2008: base of a group's slice */

	/* groups (2.6.33+; 2.6.31 uses root_group's trees only as storage) */
	struct cfq_rb_root grp_service_tree;
	struct cfq_group *root_group;
	struct cfq_group *serving_group;
	enum cfq_wl_class serving_wl_class;
	enum cfq_wl_type serving_wl_type;
	uint64_t workload_expires;
	bool noidle_tree_requires_idle;

	/* 2.6.31: the single service tree */
	struct cfq_rb_root service_tree;

	struct ios_rb_root prio_trees[8];

	unsigned busy_queues;
	unsigned busy_sync_queues;
	unsigned busy_rt_queues;
	unsigned rq_in_driver;
	unsigned rq_in_flight[2];
	unsigned rq_queued;
	int hw_tag;
	int hw_tag_est_depth;
	unsigned hw_tag_samples;

	struct cfq_queue *active_queue;
	struct cfq_io_cq *active_cic;
	uint64_t idle_timer;		/* when the idle slice timer fires, or IOS_NO_WAKEUP */
	uint64_t last_position;
	uint64_t last_delayed_sync;
	uint64_t now;			/* time of the hook being run */

	struct ios_list_head all_queues;
	struct ios_list_head all_cics;
	struct ios_list_head all_groups;
	struct ios_list_head alias_list;	/* 2.6.31, 2.6.33: aliases sent to dispatch */

	/* statistics (read-only table) */
	uint64_t st_preempts, st_idle_timer, st_coop_selected, st_merges, st_splits;
	uint64_t st_slices, st_expired_slices, st_aliases;
};

static inline struct cfq_data *cfq_data(struct ios_queue *q)
{
	return q->sched_data;
}

/* flags */
static inline bool cfqq_has(const struct cfq_queue *q, unsigned f)
{
	return (q->flags & f) != 0;
}

static inline void cfqq_mark(struct cfq_queue *q, unsigned f)
{
	q->flags |= f;
}

static inline void cfqq_clear(struct cfq_queue *q, unsigned f)
{
	q->flags &= ~f;
}

static inline bool cfq_class_idle(const struct cfq_queue *q)
{
	return q->ioprio_class == IOS_IOPRIO_CLASS_IDLE;
}

static inline bool cfq_class_rt(const struct cfq_queue *q)
{
	return q->ioprio_class == IOS_IOPRIO_CLASS_RT;
}

static inline bool cfqq_sync(const struct cfq_queue *q)
{
	return cfqq_has(q, CFQ_QF_SYNC);
}

static inline enum cfq_wl_class cfqq_class(const struct cfq_queue *q)
{
	if (cfq_class_idle(q))
		return CFQ_IDLE_WL;
	return cfq_class_rt(q) ? CFQ_RT_WL : CFQ_BE_WL;
}

static inline enum cfq_wl_type cfqq_type(const struct cfq_queue *q)
{
	if (!cfqq_sync(q))
		return CFQ_ASYNC_WL;
	if (!cfqq_has(q, CFQ_QF_IDLE_WINDOW))
		return CFQ_SYNC_NOIDLE_WL;
	return CFQ_SYNC_WL;
}

static inline struct cfq_queue *rq_cfqq(const struct ios_request *rq)
{
	return rq->sched_priv[0];
}

static inline struct cfq_io_cq *rq_cic(const struct ios_request *rq)
{
	return rq->sched_priv[1];
}

/* a decaying statistic is trusted once it has this many (scaled) samples */
#define sample_valid(x) ((x) > 80)

static inline void cfq_schedule_idle_timer(struct cfq_data *cfqd, uint64_t when)
{
	cfqd->idle_timer = when;
}

static inline void cfq_del_idle_timer(struct cfq_data *cfqd)
{
	cfqd->idle_timer = IOS_NO_WAKEUP;
}

static inline bool cfq_timer_pending(const struct cfq_data *cfqd)
{
	return cfqd->idle_timer != IOS_NO_WAKEUP;
}

static inline bool cfq_slice_used(const struct cfq_data *cfqd, const struct cfq_queue *cfqq)
{
	if (cfqq_has(cfqq, CFQ_QF_SLICE_NEW))
		return false;
	return cfqd->now >= cfqq->slice_end;
}

/* next_rq and the copy of its sector that prio-tree descents read */
static inline void cfq_set_next_rq(struct cfq_queue *cfqq, struct ios_request *rq)
{
	cfqq->next_rq = rq;
	cfqq->next_sector = rq ? rq->sector : 0;
}

/*
 * The functions the CFQ files share, by the file that has them; the
 * kernel's names (all static in its one cfq-iosched.c).
 */
/* cfq.c: queues, contexts and the request life */
struct ios_request *ios_cfq_find_next_rq(struct cfq_data *cfqd, struct cfq_queue *cfqq,
					 struct ios_request *last);
void ios_cfq_remove_request(struct cfq_data *cfqd, struct ios_request *rq);
void ios_cfq_cic_get(struct cfq_io_cq *cic);
void ios_cfq_cic_put(struct cfq_data *cfqd, struct cfq_io_cq *cic);
void ios_cfq_put_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq);
/* cfq_tree.c: service trees, prio trees, queue selection */
struct cfq_queue *ios_cfq_prio_tree_lookup(struct ios_rb_root *root, uint64_t sector,
					   struct ios_rb_node **parentp,
					   struct ios_rb_node ***linkp);
void ios_cfq_prio_tree_del(struct cfq_queue *cfqq);
void ios_cfq_prio_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq);
struct cfq_rb_root *ios_cfqq_target_tree(struct cfq_data *cfqd, struct cfq_queue *cfqq);
void ios_cfq_service_tree_add(struct cfq_data *cfqd, struct cfq_queue *cfqq, bool add_front);
void ios_cfq_resort_rr_list(struct cfq_data *cfqd, struct cfq_queue *cfqq);
void ios_cfq_add_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq);
void ios_cfq_del_cfqq_rr(struct cfq_data *cfqd, struct cfq_queue *cfqq);
struct cfq_queue *ios_cfq_select_queue(struct cfq_data *cfqd);
struct cfq_queue *ios_cfq_first_busy(struct cfq_data *cfqd);
/* cfq_idle.c: think time, seeks, idling */
void ios_cfq_update_io_thinktime(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				 struct cfq_io_cq *cic);
void ios_cfq_update_io_seektime(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				struct cfq_io_cq *cic, const struct ios_request *rq);
bool ios_cfqq_seeky(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
		    const struct cfq_io_cq *cic);
bool ios_cfq_ttime_big(const struct cfq_data *cfqd, const struct cfq_ttime *t, bool group);
bool ios_cfq_req_noidle(const struct cfq_data *cfqd, const struct ios_request *rq);
void ios_cfq_update_idle_window(struct cfq_data *cfqd, struct cfq_queue *cfqq,
				struct cfq_io_cq *cic);
void ios_cfq_update_hw_tag(struct cfq_data *cfqd);
bool ios_cfq_should_idle(struct cfq_data *cfqd, struct cfq_queue *cfqq);
void ios_cfq_arm_slice_timer(struct cfq_data *cfqd);
void ios_cfq_idle_slice_timer(struct cfq_data *cfqd);
bool ios_cfq_should_wait_busy(struct cfq_data *cfqd, struct cfq_queue *cfqq);
/* cfq_coop.c: close cooperators, queue merging */
void ios_cfq_unlink_merge_target(struct cfq_data *cfqd, struct cfq_queue *dead);
void ios_cfq_setup_merge(struct cfq_data *cfqd, struct cfq_queue *cfqq,
			 struct cfq_queue *new_cfqq);
struct cfq_queue *ios_cfq_merge_cfqqs(struct cfq_data *cfqd, struct cfq_io_cq *cic,
				      struct cfq_queue *cfqq);
struct cfq_queue *ios_cfq_split_cfqq(struct cfq_data *cfqd, struct cfq_io_cq *cic,
				     struct cfq_queue *cfqq);
bool ios_cfq_rq_close(const struct cfq_data *cfqd, const struct cfq_queue *cur,
		      const struct ios_request *rq, bool for_preempt);
struct cfq_queue *ios_cfq_close_cooperator(struct cfq_data *cfqd, struct cfq_queue *cur,
					   bool probe);
void ios_cfq_put_cooperator(struct cfq_data *cfqd, struct cfq_queue *cfqq);
/* cfq_dispatch.c: slices, dispatch, preemption */
void ios_cfq_set_prio_slice(struct cfq_data *cfqd, struct cfq_queue *cfqq);
void ios_cfq_slice_expired(struct cfq_data *cfqd, bool timed_out);
bool ios_cfq_should_preempt(struct cfq_data *cfqd, struct cfq_queue *nq,
			    struct ios_request *rq);
void ios_cfq_preempt_queue(struct cfq_data *cfqd, struct cfq_queue *cfqq);
void ios_cfq_dispatch_alias(struct cfq_data *cfqd, struct ios_request *alias);
struct ios_request *ios_cfq_dispatch(struct ios_queue *q, uint64_t now, unsigned flags);

/* cfq_group.c */
int ios_cfq_groups_init(struct cfq_data *cfqd);
void ios_cfq_groups_exit(struct cfq_data *cfqd);
struct cfq_group *ios_cfq_lookup_group(struct cfq_data *cfqd, const struct ios_cgroup *cg);
struct cfq_rb_root *ios_cfq_st_for(struct cfq_group *cfqg, enum cfq_wl_class c, enum cfq_wl_type t);
void ios_cfq_group_busy(struct cfq_data *cfqd, struct cfq_group *cfqg);
void ios_cfq_group_idle(struct cfq_data *cfqd, struct cfq_group *cfqg);
void ios_cfq_group_served(struct cfq_data *cfqd, struct cfq_group *cfqg, struct cfq_queue *cfqq);
uint64_t ios_cfq_slice_time_used(const struct cfq_data *cfqd, const struct cfq_queue *cfqq,
				 bool min_jiffy);
uint64_t ios_cfq_group_slice(struct cfq_data *cfqd, struct cfq_group *cfqg);
unsigned ios_cfq_group_busy_queues_wl(enum cfq_wl_class c, struct cfq_group *cfqg);
void ios_cfq_choose_cfqg(struct cfq_data *cfqd);
bool ios_cfq_isolation_move(struct cfq_data *cfqd, struct cfq_queue *cfqq);
bool ios_cfqg_is_descendant(const struct cfq_group *cfqg, const struct cfq_group *ancestor);
struct cfq_group *ios_cfq_find_group(struct cfq_data *cfqd, const struct ios_cgroup *cg);
void ios_cfq_rb_insert(struct cfq_rb_root *st, struct ios_rb_node *n,
		       bool (*less)(const struct ios_rb_node *, const struct ios_rb_node *));
void ios_cfq_rb_erase(struct cfq_rb_root *st, struct ios_rb_node *n);
uint64_t ios_cfq_prio_slice(const struct cfq_data *cfqd, bool sync, int prio);
bool ios_cfq_iops_mode(const struct cfq_data *cfqd);

/* cfq_dispatch.c, for the 2008 designs' top layer (cfq_lab2008.c) */
void ios_cfq_expire_active(struct cfq_data *cfqd, uint64_t now);
/* the CFQ descriptors, and cfq_lab2008.c's two 2008 designs */
#include "core/builtin.h"

/*
 * cfq_lab2008.c: the two 2008 designs, reached through cfq's
 * lab.group_policy. Their descriptors' profile: whose design, and the CFQ
 * descriptor each group runs (2.6.31's, the CFQ the patches were for).
 */
struct cfq_lab_profile {
	enum ios_group_policy policy;
	const struct ios_sched_type *inner;
};

/* cfq_profiles.c */
extern const struct ios_tunable ios_cfq_tarasov2008_tunables[];
extern const struct ios_tunable ios_cfq_uchida2008_tunables[];
extern const struct ios_tunable ios_cfq_2631_tunables[];
extern const struct ios_tunable ios_cfq_2633_tunables[];
extern const struct ios_tunable ios_cfq_419_tunables[];
extern const struct ios_tunable ios_cfq_2631_hidden[];
extern const struct ios_tunable ios_cfq_stats_table[];

#endif
