/*
 * CFQ's private structures, shared by cfq.c (queues, slices, dispatch,
 * idling), cfq_group.c (the group service tree and workload choice) and
 * cfq_profiles.c (the three version profiles and their tunables).
 *
 * One implementation covers three kernels. struct cfq_data.ver selects the
 * small branches where they differ; everything else is common:
 *  - CFQ_V2631: Linux 2.6.31 (the fairness thread), one service tree per
 *    device ordered by class then key, per-context seek statistics, the
 *    seed-000 `fairness` tunable;
 *  - CFQ_V2633: 2.6.33, with groups (root only unless cgroups are used),
 *    workload types per class, low_latency slice scaling, per-queue seek
 *    statistics, cooperating-queue merging and splitting, wait_busy;
 *  - CFQ_V419: 4.19, the final form: 32-request seek history, quantum 8
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

enum cfq_ver { CFQ_V2631 = 0, CFQ_V2633 = 1, CFQ_V419 = 2 };

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
	enum cfq_ver ver;

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

/* cfq_group.c */
int cfq_groups_init(struct cfq_data *cfqd);
void cfq_groups_exit(struct cfq_data *cfqd);
struct cfq_group *cfq_lookup_group(struct cfq_data *cfqd, const struct ios_cgroup *cg);
struct cfq_rb_root *cfq_st_for(struct cfq_group *cfqg, enum cfq_wl_class c, enum cfq_wl_type t);
void cfq_group_busy(struct cfq_data *cfqd, struct cfq_group *cfqg);
void cfq_group_idle(struct cfq_data *cfqd, struct cfq_group *cfqg);
void cfq_group_served(struct cfq_data *cfqd, struct cfq_group *cfqg, struct cfq_queue *cfqq);
uint64_t cfq_group_slice(struct cfq_data *cfqd, struct cfq_group *cfqg);
unsigned cfq_group_busy_queues_wl(enum cfq_wl_class c, struct cfq_group *cfqg);
void cfq_choose_cfqg(struct cfq_data *cfqd);
bool cfq_isolation_move(struct cfq_data *cfqd, struct cfq_queue *cfqq);
bool cfqg_is_descendant(const struct cfq_group *cfqg, const struct cfq_group *ancestor);
struct cfq_group *cfq_find_group(struct cfq_data *cfqd, const struct ios_cgroup *cg);
void cfq_rb_insert(struct cfq_rb_root *st, struct ios_rb_node *n,
		   bool (*less)(const struct ios_rb_node *, const struct ios_rb_node *));
void cfq_rb_erase(struct cfq_rb_root *st, struct ios_rb_node *n);
uint64_t cfq_prio_slice(const struct cfq_data *cfqd, bool sync, int prio);
bool cfq_iops_mode(const struct cfq_data *cfqd);

/* cfq.c, for the 2008 designs' top layer (cfq_lab2008.c) */
void cfq_expire_active(struct cfq_data *cfqd, uint64_t now);
/* the CFQ descriptors, and cfq_lab2008.c's two 2008 designs */
#include "core/builtin.h"

/* cfq_profiles.c */
extern const struct ios_tunable cfq_tarasov2008_tunables[];
extern const struct ios_tunable cfq_uchida2008_tunables[];
extern const struct ios_tunable cfq_2631_tunables[];
extern const struct ios_tunable cfq_2633_tunables[];
extern const struct ios_tunable cfq_419_tunables[];
extern const struct ios_tunable cfq_2631_hidden[];
extern const struct ios_tunable cfq_stats_table[];

#endif
