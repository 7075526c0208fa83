/*
 * CFQ's release profiles: what each release does (struct cfq_profile, the
 * named behaviours the code tests, at the end of this file) and the
 * tunables tables of the three descriptors (the descriptors themselves
 * close cfq.c, next to the hooks, and carry the profile). Each table has the
 * sysfs tunables that kernel had, by their real names, units,
 * defaults and the ranges their store functions accept (the kernel took any
 * value up to UINT_MAX; we bound it at INT_MAX or at an hour, and refuse
 * instead of clamping).
 *
 *   cfq (alias cfq-2.6.31)  Linux 2.6.31, plus seed 000's `fairness` patch
 *   cfq-2.6.33              groups, workload types, low_latency, queue merging
 *   cfq-4.19                the last CFQ: quantum 8, group_idle, *_us files
 *
 * target_latency is a constant (300 ms) before about 3.4; the 2.6.33 profile
 * shows it read-only. group_idle came with about 2.6.37.
 */
#include <limits.h>
#include "cfq_int.h"

#define CFQ_OFF(f) offsetof(struct cfq_data, f)
#define CFQ_TIME_MAX 3600000	/* ms: an hour */

#define CFQ_COMMON_TUNABLES(quantum_def)                                                        \
	{ "quantum", IOS_TUN_INT, CFQ_OFF(quantum), 1, INT_MAX, quantum_def, "",               \
	  "requests one queue may have at the device before others get a chance", 0, NULL },    \
	{ "fifo_expire_sync", IOS_TUN_TIME, CFQ_OFF(fifo_expire[1]), 1, CFQ_TIME_MAX, "125", "ms", \
	  "a sync request older than this is served first (checked once per slice)", 0, NULL },  \
	{ "fifo_expire_async", IOS_TUN_TIME, CFQ_OFF(fifo_expire[0]), 1, CFQ_TIME_MAX, "250", "ms", \
	  "the same for async requests", 0, NULL },                                            \
	{ "back_seek_max", IOS_TUN_U64, CFQ_OFF(back_seek_max_kb), 0, INT_MAX, "16384", "KiB",  \
	  "longest backward seek still taken for the next request", 0, NULL },                   \
	{ "back_seek_penalty", IOS_TUN_INT, CFQ_OFF(back_seek_penalty), 1, INT_MAX, "2", "",   \
	  "how much more a backward seek counts than a forward one", 0, NULL },                  \
	{ "slice_sync", IOS_TUN_TIME, CFQ_OFF(slice[1]), 1, CFQ_TIME_MAX, "100", "ms",         \
	  "base time slice of a sync queue (level 4); base + base/5 * (4 - level)", 0, NULL },  \
	{ "slice_async", IOS_TUN_TIME, CFQ_OFF(slice[0]), 1, CFQ_TIME_MAX, "40", "ms",         \
	  "base time slice of an async queue", 0, NULL },                                       \
	{ "slice_async_rq", IOS_TUN_INT, CFQ_OFF(slice_async_rq), 1, INT_MAX, "2", "",         \
	  "an async queue may dispatch 2 * this * (8 - level) requests per slice", 0, NULL },   \
	{ "slice_idle", IOS_TUN_TIME, CFQ_OFF(slice_idle), 0, CFQ_TIME_MAX, "8", "ms",         \
	  "how long to wait for the next request of the active sync queue (0: never)", 0, NULL }

const struct ios_tunable ios_cfq_2631_tunables[] = {
	CFQ_COMMON_TUNABLES("4"),
	{ "fairness", IOS_TUN_BOOL, CFQ_OFF(fairness), 0, 1, "0", "",
	  "1: seeky queues keep their idle window on command-queueing disks "
	  "(Vivek Goyal's 2009 patch, seed 000)", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

/*
 * The 2008 designs (lab.group_policy, cfq_lab2008.c) run one 2.6.31 CFQ per
 * group: the same tunables, handed to every group's CFQ. Tarasov's patch
 * added iosched/cgrp_slice (Florian Westphal set it to 10 in the seed); its
 * default here is OpenVZ's, HZ/2.
 */
#define CFQ_FAIRNESS_TUNABLE                                                                    \
	{ "fairness", IOS_TUN_BOOL, CFQ_OFF(fairness), 0, 1, "0", "",                           \
	  "1: seeky queues keep their idle window on command-queueing disks "                  \
	  "(Vivek Goyal's 2009 patch, seed 000)", 0, NULL }

const struct ios_tunable ios_cfq_tarasov2008_tunables[] = {
	CFQ_COMMON_TUNABLES("4"),
	CFQ_FAIRNESS_TUNABLE,
	{ "cgrp_slice", IOS_TUN_TIME, CFQ_OFF(cgrp_slice), 1, CFQ_TIME_MAX, "500", "ms",
	  "a cgroup's time slice is cgrp_slice * (1 + ioprio/7) (Tarasov 2008; default: "
	  "OpenVZ's HZ/2)", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_tunable ios_cfq_uchida2008_tunables[] = {
	CFQ_COMMON_TUNABLES("4"),
	CFQ_FAIRNESS_TUNABLE,
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_tunable ios_cfq_2633_tunables[] = {
	CFQ_COMMON_TUNABLES("4"),
	{ "low_latency", IOS_TUN_BOOL, CFQ_OFF(low_latency), 0, 1, "1", "",
	  "scale slices so that busy queues fit in target_latency; ramp async up slowly", 0, NULL },
	{ "group_isolation", IOS_TUN_BOOL, CFQ_OFF(group_isolation), 0, 1, "0", "",
	  "0: seeky queues of other groups are served in the root group", 0, NULL },
	{ "target_latency", IOS_TUN_TIME, CFQ_OFF(target_latency), 1, CFQ_TIME_MAX, "300", "ms",
	  "latency target for slice scaling and group slices (a constant in 2.6.33)",
	  IOS_TUN_RO, NULL },
	{ "group_idle", IOS_TUN_TIME, CFQ_OFF(group_idle), 0, CFQ_TIME_MAX, "0", "ms",
	  "not in 2.6.33", IOS_TUN_HIDDEN | IOS_TUN_RO, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_tunable ios_cfq_419_tunables[] = {
	CFQ_COMMON_TUNABLES("8"),
	{ "group_idle", IOS_TUN_TIME, CFQ_OFF(group_idle), 0, CFQ_TIME_MAX, "8", "ms",
	  "idle on a group with one busy queue when the queue itself would not idle", 0, NULL },
	{ "low_latency", IOS_TUN_BOOL, CFQ_OFF(low_latency), 0, 1, "1", "",
	  "scale slices so that busy queues fit in target_latency; ramp async up slowly", 0, NULL },
	{ "target_latency", IOS_TUN_TIME, CFQ_OFF(target_latency), 1, CFQ_TIME_MAX, "300", "ms",
	  "latency target for slice scaling and group slices", 0, NULL },
	/* the microsecond views of 4.8+ (same values) */
	{ "slice_idle_us", IOS_TUN_TIME, CFQ_OFF(slice_idle), 0, (int64_t)CFQ_TIME_MAX * 1000,
	  NULL, "us", "slice_idle in microseconds", 0, NULL },
	{ "group_idle_us", IOS_TUN_TIME, CFQ_OFF(group_idle), 0, (int64_t)CFQ_TIME_MAX * 1000,
	  NULL, "us", "group_idle in microseconds", 0, NULL },
	{ "slice_sync_us", IOS_TUN_TIME, CFQ_OFF(slice[1]), 1, (int64_t)CFQ_TIME_MAX * 1000,
	  NULL, "us", "slice_sync in microseconds", 0, NULL },
	{ "slice_async_us", IOS_TUN_TIME, CFQ_OFF(slice[0]), 1, (int64_t)CFQ_TIME_MAX * 1000,
	  NULL, "us", "slice_async in microseconds", 0, NULL },
	{ "target_latency_us", IOS_TUN_TIME, CFQ_OFF(target_latency), 1,
	  (int64_t)CFQ_TIME_MAX * 1000, NULL, "us", "target_latency in microseconds", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

/* hidden defaults the 2.6.31 profile still needs in its struct */
const struct ios_tunable ios_cfq_2631_hidden[] = {
	{ "target_latency", IOS_TUN_TIME, CFQ_OFF(target_latency), 1, CFQ_TIME_MAX, "300", "ms",
	  "", IOS_TUN_HIDDEN | IOS_TUN_RO, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_tunable ios_cfq_stats_table[] = {
	{ "preemptions", IOS_TUN_U64, CFQ_OFF(st_preempts), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "idle_timer_fired", IOS_TUN_U64, CFQ_OFF(st_idle_timer), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "cooperators_chosen", IOS_TUN_U64, CFQ_OFF(st_coop_selected), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "queue_merges", IOS_TUN_U64, CFQ_OFF(st_merges), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "queue_splits", IOS_TUN_U64, CFQ_OFF(st_splits), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "slices", IOS_TUN_U64, CFQ_OFF(st_slices), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "hw_tag", IOS_TUN_INT, CFQ_OFF(hw_tag), -1, 1, NULL, "", "", IOS_TUN_RO, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};


/*
 * The profiles: what each release's cfq-iosched.c does, by mechanism. A
 * field named here is explained once, at its first profile; the kernel
 * function is where the release does it.
 */
const struct cfq_profile ios_cfq_profile_2631 = {
	.release = "2.6.31",
	/* cfq_scaled_slice etc. read target_latency, which 2.6.31 has no file for */
	.hidden = ios_cfq_2631_hidden,
	/*
	 * cfq_service_tree_add: one service tree per device, RT before BE
	 * before IDLE, then key; no cfq_group (both came in 2.6.33).
	 */
	.workload_trees = false,
	.groups = false,
	/* cfq_service_tree_add: rb_key += slice_resid (the sign slip 2.6.33 fixed) */
	.resid_added = true,
	/* cfq_service_tree_add(add_front): key 0, the front of its class */
	.front_key_before_first = false,
	/* cfq_del_rq_rb: off the service tree with its last request */
	.keep_empty_busy = false,
	/* elv_rb_add: one request per sector, an alias goes to dispatch */
	.sort_aliases = true,
	/* cfq_find_next_rq measures from the head (cfqd->last_position) */
	.next_rq_from_dispatched = false,
	/* cfq_update_io_seektime: cic->seek_mean; CIC_SEEKY */
	.seek = CFQ_SEEK_CIC_MEAN,
	/* cfq_update_idle_window: a seeky context loses its window only if hw_tag */
	.seeky_window_needs_ncq = true,
	/* REQ_NOIDLE on the request (cfq_completed_request) */
	.req_idle = false,
	/*
	 * cfq_arm_slice_timer and cfq_select_queue idle on the queue's own
	 * idle window only (no cfq_should_idle), once the driver is empty,
	 * 2 ms for a seeky context
	 */
	.idle_window_only = true,
	/* cfq_update_hw_tag: hw_tag starts at 1 and is re-decided every 50 samples */
	.hw_tag_guarded = false,
	.arm = CFQ_ARM_UNLESS_NOIDLE,
	.wait_busy = CFQ_WAIT_BUSY_NONE,
	/* cfq_rq_enqueued: the awaited request marks must_dispatch, wait_request stays */
	.wait_request_cleared = false,
	/* cfq_rq_close: the active context's seek mean */
	.close = CFQ_CLOSE_SEEK_MEAN,
	/* cfq_close_cooperator marks the chosen queue coop for one turn, no merging */
	.queue_merging = false,
	.limit = CFQ_LIMIT_QUANTUM_4X,
	/* cfq_check_fifo: rq->start_time (allocation) + fifo_expire of the queue's kind */
	.fifo_time_at_insert = false,
	/* cfq_choose_req, cfq_should_preempt: REQ_RW_META */
	.meta_flag = IOS_REQ_META,
	/* cfq_select_queue: a BE queue expires (banking its time) when an RT queue waits */
	.rt_expires_in_select = true,
	/* cfq_should_preempt: a used-up slice yields before any class test */
	.preempt_used_slice_first = true,
};

const struct cfq_profile ios_cfq_profile_2633 = {
	.release = "2.6.33",
	/*
	 * cfq_group (blkio, flat): groups on a vdisktime tree, each with
	 * service trees per class x workload type (cfq_service_tree_add,
	 * cfq_choose_cfqg, choose_service_tree); slice offset counts the
	 * group's busy queues
	 */
	.workload_trees = true,
	.groups = true,
	/* cfq_service_tree_add: group_isolation=0 serves seeky queues in the root */
	.isolation_move = true,
	/* update_min_vdisktime: max(min, min(active group, leftmost)) */
	.min_vdisktime_active = true,
	.resid_added = false,
	/* cfq_service_tree_add(add_front): the first queue's key - HZ */
	.front_key_before_first = true,
	/* cfq_del_rq_rb keeps an empty queue busy until its slice ends */
	.keep_empty_busy = true,
	.sort_aliases = true,
	/* Corrado Zoccolo's next_rq fix: from the request dispatched (cfq_dispatch_insert) */
	.next_rq_from_dispatched = true,
	/* cfq_update_io_seektime: cfqq->seek_mean; CFQQ_SEEKY */
	.seek = CFQ_SEEK_QUEUE_MEAN,
	/* cfq_update_idle_window: a queue with 4 requests queued is deep and keeps its window */
	.deep_queue = true,
	.req_idle = false,
	/* cfq_should_idle: also the last queue of a service tree idles */
	.idle_window_only = false,
	/* cfq_update_hw_tag: unknown at start, no samples from a queue that cannot fill, latched */
	.hw_tag_guarded = true,
	/* cfq_completed_request: noidle_tree_requires_idle */
	.arm = CFQ_ARM_NOIDLE_TREE,
	/* cfq_should_wait_busy, cfq_select_queue */
	.wait_busy = CFQ_WAIT_BUSY_LAST,
	/* cfq_rq_enqueued clears wait_request when it stops idling */
	.wait_request_cleared = true,
	/* cfq_rq_close: the queue's mean, capped at 4 MiB but when judging a preemption */
	.close = CFQ_CLOSE_MEAN_CAPPED,
	/* cfq_setup_merge, cfq_merge_cfqqs, split_cfqq (2.6.33.3's walk) */
	.queue_merging = true,
	/* cfq_set_prio_slice: with low_latency, slices shrink to fit target_latency */
	.low_latency_slice = true,
	/* cfq_may_dispatch: async depth grows with the time since a delayed sync request */
	.async_depth_ramp = true,
	.limit = CFQ_LIMIT_QUANTUM,
	/* cfq_may_dispatch: no async at the device when a queue that will idle starts */
	.drain_async_before_idle = true,
	/* cfq_insert_request: rq_set_fifo_time(now + fifo_expire[rq_is_sync]) */
	.fifo_time_at_insert = true,
	.meta_flag = IOS_REQ_META,
	/* cfq_should_preempt: an RT active queue is not preempted by a non-RT one */
	.preempt_rt_protected = true,
};

const struct cfq_profile ios_cfq_profile_419 = {
	.release = "4.19",
	.workload_trees = true,
	.groups = true,
	/* cfq_group_service_tree_add, cfq_group_slice: nested groups, vfraction */
	.hier_groups = true,
	/* choose_wl_class_and_type: a class change starts a new workload */
	.class_change_new_workload = true,
	/* cfq_async_queue_prio: the async queues are the group's */
	.async_per_group = true,
	/* cfq_get_queue: no ioprio set takes the level from nice (task_nice_ioprio) */
	.async_prio_from_nice = true,
	.front_key_before_first = true,
	.keep_empty_busy = true,
	/* elv_rb_add keeps requests of the same sector */
	.sort_aliases = false,
	.next_rq_from_dispatched = true,
	/* cfq_update_io_seektime: seek_history; CFQQ_SEEKY */
	.seek = CFQ_SEEK_HISTORY,
	/* cfq_update_io_thinktime: also the service tree's and the group's think time */
	.tree_group_ttime = true,
	.deep_queue = true,
	/* REQ_IDLE: a sync write without it does not idle (4.10+) */
	.req_idle = true,
	/* cfq_update_idle_window: a next request that does not idle drops the window */
	.window_off_noidle_next = true,
	.idle_window_only = false,
	/* cfq_should_idle: no idling at all with slice_idle 0 */
	.should_idle_needs_slice_idle = true,
	/* cfq_select_queue: a seeky queue slower than the device loses its window */
	.seeky_drops_window_in_select = true,
	/* cfq_arm_slice_timer, cfq_select_queue: group_idle */
	.group_idle = true,
	.hw_tag_guarded = true,
	/* cfq_init_queue: slice_idle 0 on a non-rotational device */
	.nonrot_no_idle = true,
	.arm = CFQ_ARM_ALWAYS,
	.wait_busy = CFQ_WAIT_BUSY_LAST_EMPTY,
	.wait_request_cleared = true,
	.close = CFQ_CLOSE_FIXED,
	.queue_merging = true,
	/* cfq_setup_merge: never onto a queue without processes (2.6.33.7+) */
	.merge_needs_process_refs = true,
	/* split_cfqq: also drop this process's share of a pending merge */
	.split_puts_cooperator = true,
	/* cfq_close_cooperator: not for an idle-class queue */
	.no_coop_for_idle_class = true,
	.low_latency_slice = true,
	.async_depth_ramp = true,
	/* iops_mode(): no idling on queueing hardware charges requests, not time */
	.iops_mode = true,
	/* __cfq_slice_expired: a slice that never started banks the whole slice */
	.resid_on_unused_slice = true,
	.limit = CFQ_LIMIT_SOFT_QUANTUM,
	.drain_async_before_idle = true,
	/* cfq_dispatch_requests: an expired FIFO request sets must_dispatch before the limits */
	.fifo_before_limits = true,
	.fifo_time_at_insert = true,
	/* REQ_PRIO */
	.meta_flag = IOS_REQ_PRIO,
	/* cfq_may_queue / cfqq_boost_on_prio: REQ_PRIO lifts the queue to BE/NORM */
	.prio_boost = true,
	.preempt_rt_protected = true,
	/* cfq_should_preempt: a sync request spares an async queue that must dispatch */
	.preempt_spares_must_dispatch = true,
	/* cfq_should_preempt: RT over non-RT is tested before the sync-noidle rule */
	.preempt_rt_before_noidle = true,
	/* ... which holds for any number of sync-noidle queues */
	.preempt_noidle_any = true,
	/* ... and an empty active queue that will not idle yields */
	.preempt_empty_not_idling = true,
	/* cfq_preempt_queue: a different workload type forgets the saved workload slice */
	.preempt_resets_wl_slice = true,
};
