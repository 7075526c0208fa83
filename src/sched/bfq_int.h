/*
 * BFQ internals shared by bfq.c (requests, queue selection, the hooks),
 * bfq_idle.c (idling decisions, budgets, expiration), bfq_wr.c (weight raising), bfq_rate.c (peak rate and
 * command-queueing detection), bfq_wf2q.c (the B-WF2Q+ engine) and
 * bfq_cgroup.c (per-process contexts, queue lifetime, merging, groups).
 *
 * The shapes follow Linux 4.19's block/bfq-iosched.h: every process queue
 * (struct bfq_queue) and every group (struct bfq_group) is scheduled through
 * an embedded struct bfq_entity. Entities sit in the service trees of their
 * parent's struct bfq_sched_data: one tree pair (active, idle) per ioprio
 * class. The root group's sched_data is where the device's choice starts;
 * a group entity is in service while one of its descendants is.
 *
 * Times are signed nanoseconds here: Linux compares jiffies to "the
 * farthest past" (bfq_smallest_from_now) to mean "never", which needs a
 * value far below the simulated clock's zero. BFQ_T_NEVER is that value.
 */
#ifndef IOSCHED_SCHED_BFQ_INT_H
#define IOSCHED_SCHED_BFQ_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "iosched/block.h"
#include "iosched/sched.h"

#define BFQ_T_NEVER			(-(INT64_C(1) << 61))
#define BFQ_T_MAX			(INT64_C(1) << 62)

#define BFQ_IOPRIO_CLASSES		3	/* RT, BE, IDLE: index = class - 1 */
#define BFQ_MIN_WEIGHT			1
#define BFQ_MAX_WEIGHT			1000
#define BFQ_WEIGHT_CONVERSION_COEFF	10	/* weight = (8 - level) * 10 */
#define BFQ_DEFAULT_GRP_WEIGHT		100	/* io.bfq.weight default */
#define BFQ_SOFTRT_WEIGHT_FACTOR	100	/* soft real-time raising: wr_coeff * 100 */
#define BFQ_SERVICE_SHIFT		22	/* virtual time = service << 22 / weight */
#define BFQ_DEFAULT_TIMEOUT_NS		(125 * IOS_NSEC_PER_MSEC)	/* bfq_timeout, HZ/8 */
#define BFQ_CL_IDLE_TIMEOUT_NS		(200 * IOS_NSEC_PER_MSEC)	/* HZ/5 */
#define BFQ_MIN_TT_NS			(2 * IOS_NSEC_PER_MSEC)	/* think time below: immediate */
#define BFQQ_SEEK_THR			800	/* sectors */
#define BFQ_RATE_SHIFT			16	/* peak_rate: (sectors/us) << 16 */
#define BFQ_STATS_MIN_BUDGETS		194
#define BFQ_DEFAULT_MAX_BUDGET		(16 * 1024)

/*
 * What one release of BFQ does where the releases differ, by mechanism: the
 * code tests these names, never a release number (as struct cfq_profile
 * does for CFQ). bfq_profiles.c has the two profiles: 4.19 (`bfq`, alias
 * `bfq-4.19`, every behaviour below off) and 6.12 (`bfq-6.12`, on blk-mq).
 * Each field names the 6.12 function that does it.
 */
struct bfq_profile {
	const char *release;
	/*
	 * bfq_update_depths, bfq_limit_depth: async allocations and sync
	 * writes may take only part of each scheduler-tag word (1/2 and 3/4;
	 * 3/16 and 6/16 while a queue is weight-raised). blk-mq only.
	 */
	bool tag_caps;
	/*
	 * bfq_select_queue's injection while the in-service queue idles: its
	 * own process's async I/O, then other queues' I/O up to inject_limit
	 * (bfq_choose_bfqq_for_injection), the limit learned from the service
	 * time of the queue's first request after a hole
	 * (bfq_update_inject_limit, bfq_reset_inject_limit, bfq_add_request,
	 * bfq_update_has_short_ttime).
	 */
	bool injection;
	/*
	 * bfq_check_waker: a queue that keeps getting I/O right after another
	 * queue's completion records it as its waker; the waker's I/O, and
	 * the I/O of a queue it wakes, is served while it idles.
	 */
	bool wakers;
	/*
	 * bfq_do_or_sched_stable_merge, bfq_setup_stable_merge: sync queues
	 * created close together with the same ioprio in the same group are
	 * merged for good (at once on queueing flash, after 600 ms elsewhere).
	 */
	bool stable_merge;
	/*
	 * bfq_setup_cooperator, bfq_pos_tree_add_move: no early queue merge
	 * (and no position tree) on a non-rotational device with command
	 * queueing (bfqd->nonrot_with_queueing, bfq_update_hw_tag).
	 */
	bool eqm_off_nonrot_queueing;
	/*
	 * bfq_asymmetric_scenario: the scenario is asymmetric when unraised
	 * queues of different weights are busy and the queue asked about is
	 * not among the lightest, when queues of two classes are busy, or
	 * when queues of more than one group have requests pending (4.19:
	 * any two weights, and group weights). Read by the idling rules,
	 * bfq_arm_slice_timer and bfq_serv_to_charge.
	 */
	bool asymmetric_612;
	/*
	 * idling_needed_for_service_guarantees: idle for a raised queue only
	 * while unraised queues are busy or 4 more requests than its own are
	 * in the drive; always when the queue is the only busy one; no
	 * exemption for queues created in a large burst.
	 */
	bool idle_guarantees_612;
	/* bfq_arm_slice_timer: a raised queue idles at least 20 ms */
	bool wr_idle_floor;
	/* bfq_rq_enqueued: a lone small request keeps the idle window only if idling boosts throughput */
	bool small_rq_idle_612;
	/*
	 * bfq_update_hw_tag: queueing is "more than 3 in the drive" (4.19:
	 * 4), and no sample is taken while a short-think-time in-service
	 * queue cannot fill the drive.
	 */
	bool hw_tag_612;
	/*
	 * bfq_bfqq_handle_idle_busy_switch, bfq_bfqq_higher_class_or_weight,
	 * __bfq_bfqq_expire: a queue becoming busy preempts when it recovers
	 * a hole and is raised at least as much, when it has a higher class
	 * or weight, or when the in-service queue no longer needs idling; an
	 * empty queue preempted while it needs idling stays scheduled.
	 */
	bool preempt_612;
	/*
	 * bfq_limit_depth's bfqq_request_over_limit (5.18+): an allocation
	 * whose queue, or any group above it, holds more requests than its
	 * weight's share of the tags at its level gets a shallow depth of 1.
	 */
	bool cgroup_request_cap;
	/*
	 * bfq_serv_to_charge: async requests are charged their sectors, not
	 * three times them, in an asymmetric scenario (bfq_asymmetric_scenario
	 * of the profile) as well as when the queue is raised.
	 */
	bool async_charge_asym;
	/*
	 * __bfq_deactivate_entity (Paolo Valente's "correctly charge and
	 * reset entity service in all cases", 4.20): every entity taken off
	 * its tree gets its finish time from the service it received, and
	 * one not in service has that service zeroed. 4.19.1: only the
	 * in-service entity, so a group whose queue was served out of service
	 * (injection) keeps the service and is charged its whole budget.
	 */
	bool deact_charge_service;
};

/* Why the in-service queue stopped being served (enum bfqq_expiration). */
enum bfq_expiration {
	BFQQE_TOO_IDLE = 0,		/* idled for slice_idle without a new request */
	BFQQE_BUDGET_TIMEOUT,		/* held the device for timeout_sync */
	BFQQE_BUDGET_EXHAUSTED,		/* next request does not fit the budget left */
	BFQQE_NO_MORE_REQUESTS,		/* emptied and idling was not worth it */
	BFQQE_PREEMPTED,		/* a weight-raised queue took the device */
	BFQQE_NR,
};

/* bfq_queue flags */
enum {
	BFQQF_just_created	= 1u << 0,
	BFQQF_busy		= 1u << 1,	/* on a service tree or in service with requests */
	BFQQF_wait_request	= 1u << 2,	/* the device idles for this queue */
	BFQQF_non_blocking_wait_rq = 1u << 3,	/* expired empty: may recover its budget */
	BFQQF_fifo_expire	= 1u << 4,	/* FIFO checked once this service slot */
	BFQQF_has_short_ttime	= 1u << 5,
	BFQQF_sync		= 1u << 6,
	BFQQF_IO_bound		= 1u << 7,
	BFQQF_in_large_burst	= 1u << 8,
	BFQQF_coop		= 1u << 9,	/* shared by merged processes */
	BFQQF_split_coop	= 1u << 10,	/* shared queue went seeky: split on next request */
	BFQQF_softrt_update	= 1u << 11,
};

struct bfq_service_tree {
	struct ios_rb_root active;	/* by finish time, augmented with min_start */
	struct ios_rb_root idle;	/* by finish time: idle entities not yet forgotten */
	struct bfq_entity *first_idle, *last_idle;
	uint64_t vtime;			/* the tree's system virtual time */
	uint64_t wsum;			/* weights of the entities on this tree */
};

struct bfq_sched_data {
	struct bfq_entity *in_service_entity;
	struct bfq_entity *next_in_service;	/* cached choice, kept in sync */
	struct bfq_service_tree service_tree[BFQ_IOPRIO_CLASSES];
	int64_t class_idle_last_service_ns;	/* idle class gets a turn every 200 ms */
};

struct bfq_entity {
	struct ios_rb_node rb_node;
	struct ios_rb_root *tree;	/* active or idle tree holding it, or NULL */
	uint64_t finish, start, min_start;	/* virtual timestamps */
	int service, budget;		/* sectors */
	unsigned weight;		/* orig_weight * wr_coeff */
	unsigned orig_weight, new_weight;
	bool on_st;			/* counted in its tree's wsum (active, idle or in service) */
	bool prio_changed;		/* apply new_weight / class at the next update */
	unsigned counted_weight;	/* weight held in a weight counter, 0 = none */
	struct bfq_entity *parent;	/* group entity above, NULL below the root */
	struct bfq_sched_data *sched_data;	/* where this entity is scheduled */
	int allocated;			/* 6.x: requests of the queues at and below it, not freed */
	struct bfq_sched_data *my_sched_data;	/* groups only: their children */
};

struct bfq_data;
struct bfq_io_cq;
struct bfq_group;

struct bfq_queue {
	struct bfq_entity entity;
	int ref;			/* process, request, service-tree and group references */
	int allocated;			/* requests pointing at this queue */
	unsigned flags;
	struct bfq_data *bfqd;
	struct bfq_io_cq *bic;		/* owning process while not shared */
	uint32_t pid;

	struct ios_rb_root sort_list;	/* queued requests by sector */
	struct ios_request *next_rq;
	int queued[2];			/* [sync] */
	int dispatched;			/* in the driver */
	struct ios_list_head fifo;	/* queued requests by arrival */
	int meta_pending;

	/* early queue merge */
	struct ios_rb_node pos_node;	/* in the group's tree by next_rq's sector */
	uint64_t pos_sector;		/* that sector (kept with the node: one cache line) */
	struct ios_rb_root *pos_root;
	struct bfq_queue *new_bfqq;	/* scheduled merge target */

	/* process behaviour */
	uint32_t seek_history;		/* one bit per request: seeky */
	unsigned seek_count;		/* bits set in seek_history */
	uint64_t last_request_pos;
	int64_t last_end_request_ns;
	uint64_t ttime_total, ttime_samples, ttime_mean;
	int requests_within_timer;

	/* budgets */
	int max_budget;
	int64_t budget_timeout_ns;	/* also: when it went empty with nothing in flight */

	/* ioprio */
	int ioprio, ioprio_class;
	int new_ioprio, new_ioprio_class;

	/* weight raising (low_latency) */
	unsigned wr_coeff;
	int64_t last_wr_start_finish_ns;
	int64_t wr_cur_max_time_ns;
	int64_t soft_rt_next_start_ns;
	int64_t last_idle_bklogged_ns;
	int64_t wr_start_at_switch_to_srt_ns;
	int64_t split_time_ns;
	int64_t first_io_time_ns;
	uint64_t service_from_backlogged;
	uint64_t service_from_wr;

	struct ios_list_head burst_node;	/* on bfqd->burst_list, or self-linked */
	struct ios_list_head all_node;		/* on bfqd->all_queues */

	/* --- 6.x behaviours (struct bfq_profile); unused by 4.19 --- */
	struct ios_list_head active_node;	/* on bfqd->active_list while on an active tree */
	int64_t creation_time_ns;		/* stable merge */
	int stable_ref;				/* references held by scheduled stable merges */
	/* injection (bfq_update_inject_limit) */
	unsigned inject_limit;
	uint64_t last_serv_time_ns;		/* baseline service time of a first request */
	int64_t decrease_time_ns;		/* last decrease (or reset) of inject_limit */
	/* wakers (bfq_check_waker) */
	struct bfq_queue *waker_bfqq, *tentative_waker_bfqq;
	unsigned num_waker_detections;
	int64_t waker_detection_started_ns;
	struct ios_list_head woken_list;	/* queues whose waker this is, newest first */
	struct ios_list_head woken_node;	/* on waker_bfqq->woken_list, or self-linked */
	/* bfq_asymmetric_scenario's counts (kept by every profile, read by 6.12's) */
	int busy_class;				/* 1 + class index counted in busy_in_class, 0 none */
	struct bfq_group *pending_group;	/* counted in its num_queues_with_pending_reqs */
};

/* Per-process context for one queue (the kernel's bfq_io_cq). */
struct bfq_io_cq {
	struct ios_ioc *ioc;
	struct bfq_queue *bfqq[2];	/* [is_sync] */
	int ioprio_class, ioprio_level;	/* as last seen, to notice changes */
	unsigned cgroup_id;
	/*
	 * The cgroup its queues are in: its requests' charged cgroup
	 * (bfq_bic_update_cgroup reads bio->bi_blkg in 6.12, so a kworker's
	 * writeback follows the dirtier's cgroup), the task's until then.
	 */
	struct ios_cgroup *cgroup;
	bool cgroup_seen;
	/* state kept across a queue merge, restored on split */
	bool saved_has_short_ttime, saved_io_bound, saved_in_large_burst, was_in_burst_list;
	uint64_t saved_ttime_total, saved_ttime_samples, saved_ttime_mean;
	int64_t saved_last_end_request_ns;
	unsigned saved_wr_coeff;
	int64_t saved_last_wr_start_finish_ns, saved_wr_start_at_switch_to_srt_ns;
	int64_t saved_wr_cur_max_time_ns;
	struct ios_list_head node;	/* bfqd->bics, creation order */
	/* 6.x: requests allocated and not freed; the stable merge scheduled, done */
	int requests;
	bool dead;		/* the process exited; freed with its last request */
	struct bfq_queue *stable_merge_bfqq;
	bool stably_merged;
	/* 6.x: injection and waker state kept across a merge (bfq_bfqq_save_state) */
	unsigned saved_inject_limit;
	uint64_t saved_last_serv_time_ns;
	int64_t saved_decrease_time_ns;
};

struct bfq_group {
	struct bfq_entity entity;	/* unused for the root group */
	struct bfq_sched_data sched_data;
	struct bfq_entity *my_entity;	/* &entity, NULL for the root */
	struct bfq_data *bfqd;
	unsigned id;			/* ios_cgroup id */
	int active_entities;		/* children on an active tree or in service */
	struct ios_rb_root rq_pos_tree;	/* queues by next_rq sector, for EQM */
	struct bfq_queue *async_bfqq[2][IOS_IOPRIO_LEVELS];	/* [RT, BE][level] */
	struct bfq_queue *async_idle_bfqq;
	struct bfq_queue *last_bfqq_created;	/* 6.x stable merge: newest sync queue here */
	int num_queues_with_pending_reqs;	/* 6.x: queued or in flight */
};

/* Counts of active entities per weight: "are weights differentiated?" */
struct bfq_weight_counts {
	uint32_t n[BFQ_MAX_WEIGHT + 1];
	unsigned distinct;
};

/* Open-addressed map from io context to bic (see bfq_cgroup.c). */
struct bfq_bic_map {
	struct bfq_io_cq **slot;
	size_t mask, used;
};

struct bfq_data {
	/* --- tunables (sysfs names; written before init) --- */
	uint64_t fifo_expire_ns[2];	/* [0] async, [1] sync */
	uint64_t back_max_bytes;	/* back_seek_max */
	int back_penalty;		/* back_seek_penalty */
	uint64_t slice_idle_ns;		/* slice_idle and slice_idle_us */
	int user_max_budget;		/* max_budget: 0 = auto */
	uint64_t timeout_ns;		/* timeout_sync */
	int strict_guarantees;
	int low_latency;

	/* --- state --- */
	const struct bfq_profile *prof;	/* the descriptor's release (bfq_profiles.c) */
	struct ios_queue *queue;
	int64_t now_ns;			/* time of the hook being run */
	struct bfq_group *root_group;
	struct bfq_group **groups;	/* by cgroup id, NULL where unused */
	unsigned nr_groups;
	struct bfq_bic_map bic_map;
	struct ios_list_head bics;
	struct ios_list_head all_queues;
	struct ios_list_head dispatch;	/* front insertions, served first */

	struct bfq_queue *in_service_queue;
	struct bfq_queue oom_bfqq;	/* fallback when a queue cannot be allocated */
	bool draining;			/* dispatch(FORCE) in progress: never idle */
	int busy_queues;
	int wr_busy_queues;
	int queued;
	int rq_in_driver;

	struct bfq_weight_counts queue_weights, group_weights;

	/* idling */
	int64_t idle_end_ns;		/* valid while the in-service queue waits */
	int64_t last_idling_start_ns;
	int64_t last_budget_start_ns;

	/* hardware queueing detection */
	int hw_tag;			/* -1 unknown (treated as queueing), 0, 1 */
	int max_rq_in_driver;
	int hw_tag_samples;

	/* peak rate estimation and budget auto-tuning */
	uint32_t peak_rate;		/* (sectors/us) << BFQ_RATE_SHIFT */
	uint64_t rate_dur_prod;		/* ref_rate * ref_wr_duration_ns */
	uint32_t peak_rate_samples, sequential_samples;
	uint64_t tot_sectors_dispatched;
	uint32_t last_rq_max_size;
	int64_t first_dispatch_ns, last_dispatch_ns, last_completion_ns;
	uint64_t delta_from_first_ns;
	uint64_t last_position;		/* end of the last dispatched request */
	int max_budget;			/* current automatic (or user) maximum */
	int budgets_assigned;

	/* weight raising parameters (Linux sets these in bfq_init_queue) */
	unsigned wr_coeff;
	int64_t wr_rt_max_time_ns, wr_min_idle_time_ns, wr_min_inter_arr_async_ns;
	uint32_t wr_max_softrt_rate;	/* sectors/s */
	int requests_within_timer;

	/* bursts of queue creations */
	struct ios_list_head burst_list;
	int burst_size;
	bool large_burst;
	int large_burst_thresh;
	int64_t burst_interval_ns;
	int64_t last_ins_in_burst_ns;
	struct bfq_entity *burst_parent_entity;

	/* --- 6.x behaviours (struct bfq_profile) --- */
	bool nonrot_with_queueing;	/* non-rotational and hw_tag: no EQM, stable merge at once */
	unsigned word_depths[2][2];	/* tag caps per word: [wr_busy != 0][sync write] */
	unsigned full_depth_shift;	/* log2 of the scheduler-tag word */
	struct ios_list_head active_list;	/* queues on active trees, newest first */
	struct bfq_queue *last_completed_rq_bfqq;
	/* injection's service-time sampling (bfq_update_inject_limit) */
	bool rqs_injected, wait_dispatch;
	struct ios_request *waited_rq;
	int64_t last_empty_occupied_ns;
	/* bfq_asymmetric_scenario (6.x): busy queues per class, groups with pending requests */
	int busy_in_class[BFQ_IOPRIO_CLASSES];
	int num_groups_with_pending_reqs;

	/* --- read-only statistics (--dump-state) --- */
	uint64_t expirations[BFQQE_NR];
	uint64_t idle_arms;
	uint64_t queue_merges, queue_splits;
	uint64_t wr_starts;
	uint64_t nr_queues_created;
	uint64_t peak_rate_sps;		/* peak_rate shown in sectors per second */
	uint64_t injected;		/* 6.x: requests dispatched for another queue's hole */
	uint64_t wakers_found;		/* 6.x: waker relations confirmed */
	uint64_t stable_merges;		/* 6.x: stable merges done */
};

/* ---- helpers used everywhere ---- */

static inline struct bfq_queue *bfq_entity_to_bfqq(const struct bfq_entity *e)
{
	return e->my_sched_data ? NULL : ios_container_of(e, struct bfq_queue, entity);
}

static inline struct bfq_group *bfq_sd_to_group(struct bfq_sched_data *sd)
{
	return ios_container_of(sd, struct bfq_group, sched_data);
}

static inline struct bfq_group *bfqq_group(const struct bfq_queue *bfqq)
{
	return bfq_sd_to_group(bfqq->entity.sched_data);
}

static inline bool bfq_gt(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0;
}

static inline bool bfqq_flag(const struct bfq_queue *bfqq, unsigned f)
{
	return (bfqq->flags & f) != 0;
}

static inline void bfqq_set(struct bfq_queue *bfqq, unsigned f)
{
	bfqq->flags |= f;
}

static inline void bfqq_clear(struct bfq_queue *bfqq, unsigned f)
{
	bfqq->flags &= ~f;
}

static inline bool bfq_class_idle(const struct bfq_queue *bfqq)
{
	return bfqq->ioprio_class == IOS_IOPRIO_CLASS_IDLE;
}

/* More than 19 of the last 32 requests were far from their predecessor. */
static inline bool bfqq_seeky(const struct bfq_queue *bfqq)
{
	return bfqq->seek_count > 19;
}

static inline int bfq_budget_left(const struct bfq_queue *bfqq)
{
	return bfqq->entity.budget - bfqq->entity.service;
}

static inline unsigned bfq_ioprio_to_weight(int level)
{
	return (unsigned)(IOS_IOPRIO_LEVELS - level) * BFQ_WEIGHT_CONVERSION_COEFF;
}

static inline bool bfq_rotational(const struct bfq_data *bfqd)
{
	return bfqd->queue->rotational;
}

static inline bool bfq_symmetric_scenario(const struct bfq_data *bfqd)
{
	return bfqd->queue_weights.distinct <= 1 && bfqd->group_weights.distinct <= 1;
}

static inline bool bfq_budget_timeout_passed(const struct bfq_data *bfqd,
					     const struct bfq_queue *bfqq)
{
	return bfqq->budget_timeout_ns <= bfqd->now_ns;
}

/* Trace messages (blktrace "m" lines), as Linux's bfq_log_bfqq; free when not tracing. */
#define bfq_log_bfqq(bfqd, bfqq, fmt, ...)                                              \
	do {                                                                             \
		if (ios_queue_tracing((bfqd)->queue))                                    \
			ios_queue_msg((bfqd)->queue, (uint64_t)(bfqd)->now_ns, "bfq%u%c " fmt, \
				      (bfqq)->pid, bfqq_flag(bfqq, BFQQF_sync) ? 'S' : 'A', \
				      __VA_ARGS__);                                      \
	} while (0)

/*
 * bfqq_request_allocated / bfqq_request_freed (6.x): @n requests more (or
 * fewer) for @bfqq, counted at the queue and at every group above it.
 */
static inline void bfq_request_allocated(struct bfq_queue *bfqq, int n)
{
	bfqq->allocated += n;
	for (struct bfq_entity *e = &bfqq->entity; e; e = e->parent)
		e->allocated += n;
}

/* Budgets are taken from the defaults until enough were assigned to trust stats. */
static inline int bfq_max_budget(const struct bfq_data *bfqd)
{
	return bfqd->budgets_assigned < BFQ_STATS_MIN_BUDGETS ? BFQ_DEFAULT_MAX_BUDGET
							       : bfqd->max_budget;
}

static inline int bfq_min_budget(const struct bfq_data *bfqd)
{
	return bfq_max_budget(bfqd) / 32;
}

/* ---- bfq_wf2q.c: the B-WF2Q+ engine ---- */

void ios_bfq_init_service_tree(struct bfq_service_tree *st);
void ios_bfq_init_sched_data(struct bfq_sched_data *sd, int64_t now_ns);
void ios_bfq_bfqq_served(struct bfq_queue *bfqq, int served);
void ios_bfq_bfqq_charge_time(struct bfq_data *bfqd, struct bfq_queue *bfqq, uint64_t time_ns);
struct bfq_queue *ios_bfq_get_next_queue(struct bfq_data *bfqd);
bool ios_bfq_next_queue_may_preempt(struct bfq_data *bfqd);
bool __ios_bfq_bfqd_reset_in_service(struct bfq_data *bfqd);
void ios_bfq_activate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_requeue_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool expiration);
void ios_bfq_deactivate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool ins_into_idle_tree,
			     bool expiration);
void ios_bfq_del_bfqq_busy(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool expiration);
void ios_bfq_add_bfqq_busy(struct bfq_data *bfqd, struct bfq_queue *bfqq);
struct bfq_service_tree *ios_bfq_entity_service_tree(struct bfq_entity *entity);
struct bfq_service_tree *__ios_bfq_entity_update_weight_prio(struct bfq_service_tree *old_st,
							  struct bfq_entity *entity,
							  bool update_class_too);
void ios_bfq_weights_add(struct bfq_data *bfqd, struct bfq_entity *entity,
			 struct bfq_weight_counts *wc);
void ios_bfq_weights_remove(struct bfq_data *bfqd, struct bfq_entity *entity,
			    struct bfq_weight_counts *wc);
void ios_bfq_weights_tree_remove(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_put_idle_entity(struct bfq_service_tree *st, struct bfq_entity *entity);
/* Debug: check the min_start augmentation of every active tree under @sd. */
bool ios_bfq_check_active_tree(const struct ios_rb_root *root);

/* ---- bfq_cgroup.c: contexts, queues (lifetime, merging, splitting), groups ---- */

int ios_bfq_bic_map_init(struct bfq_bic_map *m);
void ios_bfq_bic_map_free(struct bfq_bic_map *m);
struct bfq_io_cq *ios_bfq_bic_lookup(struct bfq_data *bfqd, const struct ios_ioc *ioc);
struct bfq_io_cq *ios_bfq_bic_get(struct bfq_data *bfqd, struct ios_ioc *ioc);
void ios_bfq_bic_release(struct bfq_data *bfqd, struct bfq_io_cq *bic);
struct bfq_group *ios_bfq_group_root_create(struct bfq_data *bfqd);
struct bfq_group *ios_bfq_find_set_group(struct bfq_data *bfqd, const struct ios_cgroup *cg);
void ios_bfq_groups_free(struct bfq_data *bfqd);
void ios_bfq_init_entity(struct bfq_entity *entity, struct bfq_group *bfqg);
void ios_bfq_bfqq_move(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct bfq_group *bfqg);
struct bfq_queue *ios_bfq_get_queue(struct bfq_data *bfqd, struct bfq_io_cq *bic, bool is_sync);
void ios_bfq_put_queue(struct bfq_queue *bfqq);
void ios_bfq_set_next_ioprio_data(struct bfq_queue *bfqq, const struct bfq_io_cq *bic);
void ios_bfq_exit_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_check_ioprio_change(struct bfq_data *bfqd, struct bfq_io_cq *bic);
void ios_bfq_check_cgroup_change(struct bfq_data *bfqd, struct bfq_io_cq *bic,
				 struct ios_cgroup *cg);
struct bfq_queue *ios_bfq_init_rq(struct bfq_data *bfqd, struct ios_request *rq,
				  struct bfq_io_cq **bicp);
void ios_bfq_finish_rq(struct ios_request *rq);
/* early queue merge */
bool ios_bfq_too_late_for_merging(const struct bfq_data *bfqd, const struct bfq_queue *bfqq);
void ios_bfq_pos_tree_add_move(struct bfq_data *bfqd, struct bfq_queue *bfqq);
struct bfq_queue *ios_bfq_setup_cooperator(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					   uint64_t sector, struct bfq_io_cq *bic);
void ios_bfq_merge_bfqqs(struct bfq_data *bfqd, struct bfq_io_cq *bic, struct bfq_queue *bfqq,
			 struct bfq_queue *new_bfqq);

/* ---- bfq_wr.c: weight raising (low_latency) ---- */

int64_t ios_bfq_wr_duration(const struct bfq_data *bfqd);
void ios_bfq_update_bfqq_wr_on_rq_arrival(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					  unsigned old_wr_coeff, bool wr_or_deserves_wr,
					  bool interactive, bool in_burst, bool soft_rt);
int64_t ios_bfq_bfqq_softrt_next_start(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_bfqq_end_wr(struct bfq_queue *bfqq);
void ios_bfq_switch_back_to_interactive_wr(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_update_wr_data(struct bfq_data *bfqd, struct bfq_queue *bfqq);

/* ---- bfq_rate.c: what BFQ measures of the device ---- */

void ios_bfq_init_peak_rate(struct bfq_data *bfqd);
void ios_bfq_update_rate_reset(struct bfq_data *bfqd, const struct ios_request *rq);
void ios_bfq_update_peak_rate(struct bfq_data *bfqd, struct ios_request *rq);
void ios_bfq_update_hw_tag(struct bfq_data *bfqd);

/* ---- bfq_profiles.c ---- */

extern const struct bfq_profile ios_bfq_profile_419, ios_bfq_profile_612;

/* ---- bfq_inject.c: 6.x tag caps, injection, wakers ---- */

void ios_bfq_update_depths(struct bfq_data *bfqd, unsigned nr_requests);
unsigned ios_bfq_limit_depth(struct bfq_data *bfqd, bool sync, bool write);
bool ios_bfq_request_over_limit(struct bfq_data *bfqd, const struct ios_ioc *ioc, bool sync,
				unsigned limit);
void ios_bfq_reset_inject_limit(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_update_inject_limit(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_inject_on_add(struct bfq_data *bfqd, struct bfq_queue *bfqq,
			   const struct bfq_io_cq *bic);
struct bfq_queue *ios_bfq_choose_bfqq_for_injection(struct bfq_data *bfqd);
void ios_bfq_check_waker(struct bfq_data *bfqd, struct bfq_queue *bfqq);
void ios_bfq_set_waker(struct bfq_queue *bfqq, struct bfq_queue *waker);
void ios_bfq_forget_wakers(struct bfq_data *bfqd, struct bfq_queue *bfqq);

/* ---- bfq.c ---- */

int ios_bfq_serv_to_charge(const struct ios_request *rq, const struct bfq_queue *bfqq);

static inline int bfq_serv_to_charge(const struct ios_request *rq, const struct bfq_queue *bfqq)
{
	return ios_bfq_serv_to_charge(rq, bfqq);
}

/* ---- bfq_idle.c: idling decisions, the idle timer, expiration ---- */

bool ios_bfq_idling_boosts_thr(const struct bfq_data *bfqd, const struct bfq_queue *bfqq);
bool ios_bfq_better_to_idle(const struct bfq_data *bfqd, const struct bfq_queue *bfqq);
bool ios_bfq_bfqq_must_idle(const struct bfq_data *bfqd, const struct bfq_queue *bfqq);
bool ios_bfq_may_expire_for_budg_timeout(const struct bfq_data *bfqd,
					 const struct bfq_queue *bfqq);
void ios_bfq_arm_slice_timer(struct bfq_data *bfqd);
void ios_bfq_idle_timer_fire(struct bfq_data *bfqd);
void ios_bfq_charge_owner(struct bfq_data *bfqd, struct bfq_queue *bfqq, int64_t now);
void ios_bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool compensate,
			 enum bfq_expiration reason);
void __ios_bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq,
			   enum bfq_expiration reason);
bool ios_bfq_asymmetric_scenario(const struct bfq_data *bfqd, const struct bfq_queue *bfqq);
bool ios_bfq_idling_needed_for_guarantees(const struct bfq_data *bfqd,
					  const struct bfq_queue *bfqq);

#endif
