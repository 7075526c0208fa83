/*
 * The cgroup v2 scenarios' columns and checks (docs/cgroup-v2-plan.md §10,
 * issue 30), the data the experiments table (repro_table.c) points at.
 * Split from repro_table.c to keep files short; the counts are part of
 * the declarations in repro_table_int.h, so a check added here without
 * its count does not compile.
 */
#include <math.h>
#include "repro_table_int.h"

#define CG1_COST "none:cgroup.io.cost.qos=enable=1:cgroup.a.io.weight=500:cgroup.b.io.weight=100"
#define CG1_BFQ "bfq-6.12:cgroup.a.io.bfq.weight=500:cgroup.b.io.bfq.weight=100"
#define CG1_SYSD "bfq-6.12:cgroup.a.systemd.IOWeight=500:cgroup.b.systemd.IOWeight=100"
#define CG1_MQDL "mq-deadline-6.12:cgroup.a.io.weight=500:cgroup.b.io.weight=100"
#define CG1_USER "none:cgroup.io.cost.qos=enable=1 ctrl=user rpct=90 rlat=5000 wpct=90 " \
	"wlat=5000:cgroup.a.io.weight=500:cgroup.b.io.weight=100"

const char *const ios_rp_cg1_columns[] = { "none", CG1_COST, CG1_BFQ, CG1_SYSD, CG1_MQDL, NULL };

const struct ios_repro_check ios_rp_cg1_checks[] = {
	{ .id = "C1.1", .column = CG1_COST, .m = IOS_RM_WIN_SHARE, .group = "a",
	  .win_from_s = 0.5, .win_to_s = 2.5, .lo = 0.80, .hi = 0.86,
	  .row = "over 0.5-2.5 s a's share of I/Os is 0.80-0.86" },
	{ .id = "C1.1", .column = CG1_COST, .m = IOS_RM_WIN_MIBS, .win_from_s = 0.5,
	  .win_to_s = 2.5, .lo = NAN, .hi = 50000.0 * 4096.0 / (1024.0 * 1024.0),
	  .row = "the aggregate ≤ 50k IOPS (195.3 MiB/s at 4 KiB) over 0.5-2.5 s" },
	{ .id = "C1.2", .column = CG1_COST, .m = IOS_RM_IOCOST_SWITCH, .lo = 12.0, .hi = 14.0,
	  .row = "the report shows SSD_DFL → SSD_FAST between 12 and 14 s" },
	{ .id = "C1.3", .column = CG1_COST, .m = IOS_RM_WIN_SHARE, .group = "a",
	  .win_from_s = 20.0, .win_to_s = 40.0, .lo = 0.45, .hi = 0.62,
	  .row = "over 20-40 s a's share is 0.45-0.62", },
	{ .id = "C1.3", .column = CG1_COST, .m = IOS_RM_WIN_REL, .ref = "none",
	  .win_from_s = 20.0, .win_to_s = 40.0, .lo = 0.9, .hi = NAN,
	  .row = "the aggregate over 20-40 s ≥ 0.9 × agg_none (none's, same seed, same window)" },
	/* no window in the plan's row: the whole run */
	{ .id = "C1.6", .column = CG1_BFQ, .m = IOS_RM_WIN_SHARE, .group = "a", .lo = 0.75,
	  .hi = 0.88, .row = "a's share 0.75-0.88 (the whole run)" },
	{ .id = "C1.6", .column = CG1_BFQ, .m = IOS_RM_WIN_REL, .ref = "none", .lo = 0.35,
	  .hi = 0.6, .row = "aggregate 0.35-0.6 × agg_none (the whole run)" },
	{ .id = "C1.8", .column = CG1_SYSD, .m = IOS_RM_WIN_SHARE, .group = "a", .lo = 0.52,
	  .hi = 0.63, .row = "a's share 0.52-0.63 on ssd-nvme (the whole run)" },
	{ .id = "C1.9", .column = CG1_MQDL, .m = IOS_RM_WIN_SHARE, .group = "a", .lo = 0.45,
	  .hi = 0.55, .row = "a's share 0.45-0.55 (the whole run)" },
	{ .id = "C1.9", .column = CG1_MQDL, .m = IOS_RM_NOTE_COUNT,
	  .note = "io.weight does nothing until io.cost.qos enable=1", .lo = 1.0, .hi = 1.0,
	  .row = "the note \"io.weight does nothing until io.cost.qos enable=1\" appears once" },
};

/* C1 on the cloud volume: its own agg_none (the first column) */
const char *const ios_rp_cg1c_columns[] = { "none", CG1_COST, CG1_USER, CG1_BFQ, CG1_SYSD, NULL };

const struct ios_repro_check ios_rp_cg1c_checks[] = {
	{ .id = "C1.4", .column = CG1_COST, .m = IOS_RM_WIN_SHARE, .group = "a", .lo = 0.45,
	  .hi = 0.60, .row = "a's share 0.45-0.60 (the whole run)" },
	{ .id = "C1.4", .column = CG1_COST, .m = IOS_RM_WIN_REL, .ref = "none", .lo = 0.97,
	  .hi = NAN, .row = "aggregate ≥ 0.97 × agg_none (cloud's, the whole run)" },
	{ .id = "C1.4", .column = CG1_COST, .m = IOS_RM_IOCOST_VRATE_END, .lo = 0.95, .hi = 1.5,
	  .row = "vrate ends 95-150 %" },
	{ .id = "C1.4", .column = CG1_COST, .m = IOS_RM_IOCOST_SWITCHED, .lo = NAN, .hi = 0.0,
	  .row = "no class switch (the period length never changes)" },
	{ .id = "C1.5", .column = CG1_USER, .m = IOS_RM_WIN_SHARE, .group = "a", .lo = 0.80,
	  .hi = 0.86, .row = "a's share 0.80-0.86 (the whole run)" },
	{ .id = "C1.5", .column = CG1_USER, .m = IOS_RM_WIN_REL, .ref = "none", .lo = 0.85,
	  .hi = 1.0, .row = "aggregate 0.85-1.0 × agg_none (cloud's, the whole run)" },
	{ .id = "C1.7", .column = CG1_BFQ, .m = IOS_RM_WIN_SHARE, .group = "a", .lo = 0.75,
	  .hi = 0.88, .row = "a's share 0.75-0.88 (the whole run)" },
	{ .id = "C1.7", .column = CG1_BFQ, .m = IOS_RM_WIN_REL, .ref = "none", .lo = 0.9,
	  .hi = NAN, .row = "aggregate ≥ 0.9 × agg_none (cloud's, the whole run)" },
	{ .id = "C1.8", .column = CG1_SYSD, .m = IOS_RM_WIN_SHARE, .group = "a", .lo = 0.52,
	  .hi = 0.63, .row = "a's share 0.52-0.63 on cloud (the whole run)" },
};

#define CG2_LIM "cgroup.lim.io.max=rbps=20971520"

const char *const ios_rp_cg2_columns[] = { "none", "none:" CG2_LIM, "none:lab.kernel=6.6:" CG2_LIM, NULL };

const struct ios_repro_check ios_rp_cg2_checks[] = {
	{ .id = "C2.1", .column = "none:" CG2_LIM, .m = IOS_RM_WIN_MIBS, .group = "lim",
	  .win_from_s = 2.0, .win_to_s = 30.0, .lo = 19.5, .hi = 20.5,
	  .row = "lim's throughput over 2-30 s is 19.5-20.5 MiB/s" },
	{ .id = "C2.1", .column = "none:" CG2_LIM, .m = IOS_RM_GROUP_ALONE, .group = "free",
	  .lo = 0.9, .hi = NAN, .row = "free's ≥ 0.9 × its rate alone" },
	{ .id = "C2.2", .column = "none:" CG2_LIM, .m = IOS_RM_WIN_MAX_BIN, .group = "lim",
	  .win_to_s = 30.0, .lo = NAN, .hi = 60.0, .row = "lim's largest 10 ms bin ≤ 60 MiB/s under 6.12" },
	{ .id = "C2.2", .column = "none:lab.kernel=6.6:" CG2_LIM, .m = IOS_RM_WIN_MAX_BIN,
	  .group = "lim", .win_to_s = 30.0, .lo = 120.0, .hi = NAN,
	  .row = "lim's largest 10 ms bin ≥ 120 MiB/s with lab.kernel=6.6" },
};

#undef CG2_LIM

/* C2.3: one psync reader at riops=10, by jiffy and release */
#define CG2_RIOPS "cgroup.lim.io.max=riops=10"
#define CG2_HZ250 "none:lab.hz=250:" CG2_RIOPS
#define CG2_HZ250_66 "none:lab.hz=250:lab.kernel=6.6:" CG2_RIOPS
#define CG2_HZ1000 "none:lab.hz=1000:" CG2_RIOPS

const char *const ios_rp_cg2r_columns[] = { CG2_HZ250, CG2_HZ250_66, CG2_HZ1000, NULL };

const struct ios_repro_check ios_rp_cg2r_checks[] = {
	{ .id = "C2.3", .column = CG2_HZ250, .m = IOS_RM_GROUP_IOPS, .group = "lim", .lo = 9.5,
	  .hi = 9.8, .row = "lab.hz=250: 9.5-9.8 IOPS under 6.12" },
	{ .id = "C2.3", .column = CG2_HZ250_66, .m = IOS_RM_GROUP_IOPS, .group = "lim",
	  .lo = 9.95, .hi = 10.1, .row = "lab.hz=250: 9.95-10.1 IOPS under 6.6" },
	{ .id = "C2.3", .column = CG2_HZ1000, .m = IOS_RM_GROUP_IOPS, .group = "lim", .lo = 9.9,
	  .hi = 10.05, .row = "lab.hz=1000: 9.9-10.05 IOPS under 6.12" },
};

#undef CG2_RIOPS
#undef CG2_HZ250
#undef CG2_HZ250_66
#undef CG2_HZ1000

/*
 * C2.4: the second phase's lim jobs write rbps=41943040 when they start,
 * right after the first phase (10 s, and its last requests) has ended;
 * "within 0.5 s" is read as lim's rate from 10.5 s to the end.
 */
#define CG2W "none:cgroup.lim.io.max=rbps=20971520"

const char *const ios_rp_cg2w_columns[] = { CG2W, NULL };

const struct ios_repro_check ios_rp_cg2w_checks[] = {
	{ .id = "C2.4", .column = CG2W, .m = IOS_RM_WIN_MIBS, .group = "lim", .win_from_s = 10.5,
	  .lo = 38.0, .hi = 42.0,
	  .row = "lim's rate within 5 % of 40 MiB/s from 0.5 s after the rewrite (10.5 s) to the end" },
	{ .id = "C2.4", .column = CG2W, .m = IOS_RM_WIN_MIBS, .group = "lim", .win_from_s = 2.0,
	  .win_to_s = 10.0, .lo = 19.5, .hi = 20.5,
	  .row = "(before it, 2-10 s: C2.1's 19.5-20.5 MiB/s)" },
};

#undef CG2W
/*
 * C3: T = 150 us is written in the column (io.latency's target); the
 * first check recomputes T from this run's fg alone and fails when the
 * two differ, so a model change that moves p90_alone cannot leave a stale
 * target behind unseen.
 */
#define CG3_LAT "none:cgroup.fg.io.latency=target=150"

const char *const ios_rp_cg3_columns[] = { "none", CG3_LAT, NULL };

const struct ios_repro_check ios_rp_cg3_checks[] = {
	{ .id = "C3", .column = CG3_LAT, .m = IOS_RM_LAT_T, .lo = 150000.0, .hi = 150000.0,
	  .row = "T = 2 × fg's clat p90 alone rounded up to 10 µs is the target the column writes (150 µs)" },
	{ .id = "C3.1", .column = "none", .m = IOS_RM_P90_T, .lo = 1.0, .hi = NAN,
	  .row = "without io.latency, fg's p90 > T (p90 / T ≥ 1; equal would be a tie)" },
	{ .id = "C3.2", .column = CG3_LAT, .m = IOS_RM_P90_T, .win_from_s = 10.0, .win_to_s = 30.0,
	  .lo = NAN, .hi = 1.5, .when_column = "none", .when_m = IOS_RM_P90_T, .when_min = 1.0,
	  .row = "with it, fg's p90 over 10-30 s ≤ 1.5 T" },
	{ .id = "C3.2", .column = CG3_LAT, .m = IOS_RM_GROUP_IOS_REL, .ref = "none", .group = "bg",
	  .lo = NAN, .hi = 0.8, .hi_strict = true, .when_column = "none", .when_m = IOS_RM_P90_T,
	  .when_min = 1.0, .row = "bg's IOPS < 0.8 × its C3.1 value (I/Os over the same 30 s)" },
	{ .id = "C3.3", .column = CG3_LAT, .m = IOS_RM_LAT_DEPTH_BELOW, .group = "bg",
	  .depth_below = 128, .lo = 1.4, .hi = 2.2, .when_column = "none", .when_m = IOS_RM_P90_T,
	  .when_min = 1.0, .row = "bg's first io.latency depth below 128 is reported between 1.4 and 2.2 s" },
	{ .id = "C3.3", .column = CG3_LAT, .m = IOS_RM_WIN_P90_REL, .ref = "none", .win_from_s = 0.0,
	  .win_to_s = 1.0, .lo = 0.8, .hi = 1.25, .when_column = "none", .when_m = IOS_RM_P90_T,
	  .when_min = 1.0, .row = "fg's p90 over 0-1 s is within 0.8-1.25 × C3.1's" },
};

#undef CG3_LAT

#define CGW1 "none:cgroup.w.io.max=wbps=20971520"

const char *const ios_rp_cgw1_columns[] = { CGW1, NULL };

const struct ios_repro_check ios_rp_cgw1_checks[] = {
	{ .id = "W1", .column = CGW1, .m = IOS_RM_WIN_SUBMIT_DEV, .group = "w", .win_from_s = 0.0,
	  .win_to_s = 1.0, .lo = 10.0, .hi = NAN,
	  .row = "w's submit side ≥ 10 × its device side in the first second" },
	{ .id = "W1", .column = CGW1, .m = IOS_RM_WIN_STEP_MIN, .group = "w", .dev_side = true,
	  .step_s = 1.0, .win_to_s = 30.0, .lo = 19.0, .hi = NAN,
	  .row = "w's device side ≥ 19 MiB/s throughout (every 1 s window of 0-30 s)" },
	{ .id = "W1", .column = CGW1, .m = IOS_RM_WIN_STEP_MAX, .group = "w", .dev_side = true,
	  .step_s = 1.0, .win_to_s = 30.0, .lo = NAN, .hi = 21.0,
	  .row = "w's device side ≤ 21 MiB/s throughout (every 1 s window of 0-30 s)" },
	{ .id = "W1", .column = CGW1, .m = IOS_RM_WIN_STEP_MIN, .group = "w", .step_s = 5.0,
	  .from_freerun = true, .win_to_s = 30.0, .lo = 15.0, .hi = NAN,
	  .row = "w's submit side ≥ 15 MiB/s (20 - 25 %) over every 5 s window from when dirty memory passed the freerun ceiling" },
	{ .id = "W1", .column = CGW1, .m = IOS_RM_WIN_STEP_MAX, .group = "w", .step_s = 5.0,
	  .from_freerun = true, .win_to_s = 30.0, .lo = NAN, .hi = 25.0,
	  .row = "w's submit side ≤ 25 MiB/s (20 + 25 %) over every 5 s window from when dirty memory passed the freerun ceiling" },
};

#undef CGW1

/*
 * C4: dd's per-write costs come from the run's jbd2 counters (JSON
 * "jbd2") and its cgroup's completed write requests; "one per write" is
 * read as within 1 % (a write in flight at the 20 s end is counted on one
 * side only). lat_alone[s] is the base experiment's (v2-c4a, dd alone in
 * `app`) run of the same scheduler and seed (ref_base).
 */
const char *const ios_rp_cg4_columns[] = { "none", "mq-deadline-6.12", "kyber-6.12", "bfq-6.12",
					   NULL };

#define CG4_ONE(m_, what) \
	{ .id = "C4.1", .column = "none", .m = m_, .group = "app", .expect = 1.0, .tol = 0.01, \
	  .row = "every dd write costs " what " (within 1 %), under none with batch" }
#define CG4_ALONE(col) \
	{ .id = "C4.2", .column = col, .m = IOS_RM_MEAN_REL, .ref = col, .ref_base = true, \
	  .lo = NAN, .hi = 1.5, \
	  .row = col ": dd's mean latency with batch ≤ 1.5 × lat_alone (" col ", dd alone in app: v2-c4a)" }

const struct ios_repro_check ios_rp_cg4_checks[] = {
	CG4_ONE(IOS_RM_DATA_PER_WRITE, "one data write (app's write requests)"),
	CG4_ONE(IOS_RM_CONV_PER_WRITE, "one unwritten conversion"),
	CG4_ONE(IOS_RM_COMMIT_PER_WRITE, "one jbd2 commit"),
	CG4_ONE(IOS_RM_FLUSH_PER_WRITE, "one PREFLUSH|FUA commit block"),
	{ .id = "C4.1", .column = "none", .m = IOS_RM_LOG_PER_WRITE, .lo = 1.0, .hi = NAN,
	  .row = "every dd write's commit writes log blocks (descriptor and metadata: at least one per write)" },
	CG4_ALONE("none"),
	CG4_ALONE("mq-deadline-6.12"),
	CG4_ALONE("kyber-6.12"),
	{ .id = "C4.3", .column = "bfq-6.12", .m = IOS_RM_MEAN_REL, .ref = "bfq-6.12",
	  .ref_base = true, .lo = 3.0, .hi = NAN,
	  .row = "bfq-6.12: dd's mean latency with batch ≥ 3 × lat_alone (bfq-6.12, dd alone in app: v2-c4a)" },
	{ .id = "C4.3", .column = "bfq-6.12", .m = IOS_RM_MEAN_REL, .ref = "mq-deadline-6.12",
	  .lo = 3.0, .hi = NAN,
	  .row = "bfq-6.12: dd's mean latency with batch ≥ 3 × mq-deadline's with batch" },
};

#undef CG4_ONE
#undef CG4_ALONE

/*
 * C4.4: the alone experiment's first job is dd in `app`, its second (after
 * a stonewall) the same dd in the root; "slower" compares the k-th write
 * of one with the k-th of the other.
 */
const struct ios_repro_check ios_rp_cg4a_checks[] = {
	{ .id = "C4.4", .column = "bfq-6.12", .m = IOS_RM_EARLY_DIFF, .lo = 4e6, .hi = NAN,
	  .row = "bfq-6.12, dd alone: each of the first three writes in app ≥ 4 ms slower than the same write in the root" },
	{ .id = "C4.4", .column = "bfq-6.12", .m = IOS_RM_LATER_REL, .lo = NAN, .hi = 1.3,
	  .row = "bfq-6.12, dd alone: the later writes' mean latency in app within 1.3 × the root's" },
};

#undef CG1_COST
#undef CG1_BFQ
#undef CG1_SYSD
#undef CG1_MQDL
#undef CG1_USER
