/*
 * CFQ's version profiles: the tunables tables of the three descriptors (the
 * descriptors themselves close cfq.c, next to the hooks). Each table has the
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

const struct ios_tunable cfq_2631_tunables[] = {
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

const struct ios_tunable cfq_tarasov2008_tunables[] = {
	CFQ_COMMON_TUNABLES("4"),
	CFQ_FAIRNESS_TUNABLE,
	{ "cgrp_slice", IOS_TUN_TIME, CFQ_OFF(cgrp_slice), 1, CFQ_TIME_MAX, "500", "ms",
	  "a cgroup's time slice is cgrp_slice * (1 + ioprio/7) (Tarasov 2008; default: "
	  "OpenVZ's HZ/2)", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_tunable cfq_uchida2008_tunables[] = {
	CFQ_COMMON_TUNABLES("4"),
	CFQ_FAIRNESS_TUNABLE,
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_tunable cfq_2633_tunables[] = {
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

const struct ios_tunable cfq_419_tunables[] = {
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
const struct ios_tunable cfq_2631_hidden[] = {
	{ "target_latency", IOS_TUN_TIME, CFQ_OFF(target_latency), 1, CFQ_TIME_MAX, "300", "ms",
	  "", IOS_TUN_HIDDEN | IOS_TUN_RO, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_tunable cfq_stats_table[] = {
	{ "preemptions", IOS_TUN_U64, CFQ_OFF(st_preempts), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "idle_timer_fired", IOS_TUN_U64, CFQ_OFF(st_idle_timer), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "cooperators_chosen", IOS_TUN_U64, CFQ_OFF(st_coop_selected), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "queue_merges", IOS_TUN_U64, CFQ_OFF(st_merges), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "queue_splits", IOS_TUN_U64, CFQ_OFF(st_splits), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "slices", IOS_TUN_U64, CFQ_OFF(st_slices), 0, INT64_MAX, NULL, "", "", IOS_TUN_RO, NULL },
	{ "hw_tag", IOS_TUN_INT, CFQ_OFF(hw_tag), -1, 1, NULL, "", "", IOS_TUN_RO, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

