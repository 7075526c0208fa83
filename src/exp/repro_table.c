/*
 * The seed experiments of seed-scenarios.md as data (repro.h): job file, the
 * columns to run, seeds, the thread's numbers and the pass criteria.
 *
 * The numbers below are the threads' own, copied from the mails in
 * the seed threads (000: the 2009 fairness thread, 001: Jens Axboe's 2004
 * "Time sliced CFQ" thread, 004: Vasily Tarasov's 2006 report) and the
 * bounds of the criteria from seed-scenarios.md. Nothing of ours is typed here:
 * our numbers come out of the runs, and the prose says only what does not
 * depend on them (mechanisms, with the page that explains them); where a
 * criterion misses, its why_miss text is shown beside our number.
 *
 * Columns use `iosched compare`'s syntax, and a check names its column by
 * that same label (a unit test checks every name resolves). Thread runs
 * stand beside the column that models the thread's kernel.
 */
#include <math.h>
#include "iosched/repro.h"
#include "repro_table_int.h"

/* ---- A1: four dd readers, fairness=0 and 1 (seed 000) ---- */

static const char *const a1_columns[] = {
	"noop", "deadline", "as",
	"cfq", "cfq:fairness=1",
	"cfq-2.6.33", "cfq-4.19",
	"bfq", "bfq:low_latency=0",
	NULL,
};

/* dd's "copied, N s" lines, in the order the mails list them */
static const double a1_vivek_f0[] = { 6.0338, 6.34077, 8.4014, 10.8469 };
static const double a1_vivek_f1[] = { 9.88874, 10.0234, 10.1747, 10.4844 };
static const double a1_vivek_rc7_1[] = { 5.98348, 8.24508, 8.54762, 11.005 };
static const double a1_vivek_rc7_2[] = { 5.51245, 5.62906, 9.44299, 10.9674 };
static const double a1_vivek_rc7_3[] = { 5.50074, 5.62541, 8.63945, 10.9058 };
static const double a1_jeff_f0[] = { 10.3071, 10.3591, 10.4217, 10.4649 };

static const struct ios_repro_thread_run a1_thread[] = {
	{ .label = "thread: fairness=0", .column = "cfq",
	  .source = "Vivek Goyal, first mail", .nr_jobs = 4, .finish_s = a1_vivek_f0 },
	{ .label = "thread: fairness=0, run 2", .column = "cfq",
	  .source = "Vivek Goyal, reply to Jeff Moyer (\"I am using 2.6.31-rc7\")", .nr_jobs = 4,
	  .finish_s = a1_vivek_rc7_1 },
	{ .label = "thread: fairness=0, run 3", .column = "cfq",
	  .source = "the same mail", .nr_jobs = 4, .finish_s = a1_vivek_rc7_2 },
	{ .label = "thread: fairness=0, run 4", .column = "cfq",
	  .source = "the same mail", .nr_jobs = 4, .finish_s = a1_vivek_rc7_3 },
	{ .label = "thread: fairness=1", .column = "cfq:fairness=1",
	  .source = "Vivek Goyal, first mail, with his patches", .nr_jobs = 4,
	  .finish_s = a1_vivek_f1 },
	{ .label = "thread: Jeff Moyer, fairness=0", .column = "cfq",
	  .source = "Jeff Moyer, on his kernel after a patch he does not name (files of 268 MB, "
		    "not 234)",
	  .nr_jobs = 4, .finish_s = a1_jeff_f0 },
};

#define RP_SPREAD(col, lo_, hi_, row_, why) \
	{ .column = col, .m = IOS_RM_SPREAD, .lo = lo_, .hi = hi_, .row = row_, .why_miss = why }
#define RP_AGG(col, why) \
	{ .column = col, .m = IOS_RM_AGG_ALONE, .lo = 0.70, .hi = NAN, \
	  .row = "aggregate at least 70 % of the disk's sequential rate (cfq, AS, BFQ)", \
	  .why_miss = why }

static const char a1_why_cfq[] =
	"docs/cfq.md (seed 000): a reader loses its idle window only when one of its first "
	"requests is a long seek: the reader that reads the shared directory and inode blocks "
	"(ext3 starts a file's data up to 15/16 of a group from its inode, by the creator's "
	"pid) or one whose file ext3 cut into two runs. Until its seek mean decays below 8192 "
	"sectors, by 7/8 a request, it gets one 256 KiB request per round of the others' "
	"180 ms slices. The thread's 44-50 % needs two readers starved for half the run; how "
	"many start seeky, and how far, depends on where ext3 put the four files, which the "
	"thread does not say, and the five seeds are five such layouts.";
static const char a1_why_bfq_agg[] =
	"docs/bfq.md: with low_latency=1 every new queue is weight-raised with small budgets "
	"for its first 120000 sectors, so BFQ switches between the four readers often while "
	"they start; Linux's documentation says to turn low_latency off when throughput is "
	"measured (the `bfq:low_latency=0` column).";

static const struct ios_repro_check a1_checks[] = {
	RP_SPREAD("cfq", 0.25, NAN, "cfq fairness=0: staggered finishes", a1_why_cfq),
	RP_SPREAD("cfq:fairness=1", NAN, 0.08, "cfq fairness=1: bunched finishes", NULL),
	{ .column = "cfq:fairness=1", .m = IOS_RM_MAKESPAN_REL, .ref = "cfq", .lo = NAN,
	  .hi = 1.10, .row = "makespan(fairness=1) at most 1.10 x makespan(fairness=0)" },
	RP_SPREAD("bfq", NAN, 0.10, "BFQ: bunched", NULL),
	RP_SPREAD("bfq:low_latency=0", NAN, 0.10, "BFQ: bunched", NULL),
	RP_AGG("as", NULL),
	RP_AGG("cfq", NULL),
	RP_AGG("cfq:fairness=1", NULL),
	RP_AGG("cfq-2.6.33", NULL),
	RP_AGG("cfq-4.19", NULL),
	RP_AGG("bfq", a1_why_bfq_agg),
	RP_AGG("bfq:low_latency=0", NULL),
};

#undef RP_SPREAD
#undef RP_AGG

/* ---- A2: eight readers at BE 4, Jeff Moyer's table (seed 000) ---- */

static const char *const a2_columns[] = {
	"noop", "deadline", "as",
	"cfq", "cfq:fairness=1",
	"cfq-2.6.33", "cfq-4.19",
	"bfq",
	NULL,
};

static const double a2_jeff_vanilla[] = {
	124404, 123380, 118004, 113396, 107252, 98356, 96244, 106228,
};
static const double a2_jeff_f1[] = {
	127028, 128244, 120564, 127476, 119284, 116724, 103668, 110324,
};

static const struct ios_repro_thread_run a2_thread[] = {
	{ .label = "thread: vanilla kernel", .column = "cfq",
	  .source = "Jeff Moyer, \"a couple of fio workloads\"", .nr_jobs = 8,
	  .xferred_kib = a2_jeff_vanilla },
	{ .label = "thread: fairness=1", .column = "cfq:fairness=1",
	  .source = "Jeff Moyer, the same workload with Vivek's patches", .nr_jobs = 8,
	  .xferred_kib = a2_jeff_f1 },
};

#define RP_DIFF(col) \
	{ .column = col, .m = IOS_RM_WORST_DIFF, .lo = NAN, .hi = 0.10, \
	  .row = "cfq (fairness 0 and 1) and BFQ: every |%diff| at most 10 %" }

static const struct ios_repro_check a2_checks[] = {
	RP_DIFF("cfq"),
	RP_DIFF("cfq:fairness=1"),
	RP_DIFF("bfq"),
};

#undef RP_DIFF

/* ---- B1: a sync reader and a sync writer (seed 001) ---- */

static const char *const b1_columns[] = {
	"noop", "deadline", "as", "as:sync_class=sync",
	"cfq", "cfq:fairness=1", "cfq-2.6.33", "cfq-4.19",
	"bfq",
	NULL,
};

static const char *const b1_jobs[] = { "reader", "writer" };
static const double b1_deadline_bw[] = { 2520, 1258 }, b1_deadline_lat[] = { 45, 85 };
static const double b1_as_bw[] = { 27985, 64 }, b1_as_lat[] = { 34, 1042 };
static const double b1_cfq_bw[] = { 12703, 9743 }, b1_cfq_lat[] = { 108, 89 };

static const struct ios_repro_thread_run b1_thread[] = {
	{ .label = "thread: deadline", .column = "deadline", .source = "Jens Axboe",
	  .nr_jobs = 2, .jobs = b1_jobs, .bw_kib = b1_deadline_bw, .max_lat_ms = b1_deadline_lat },
	{ .label = "thread: as", .column = "as", .source = "Jens Axboe",
	  .nr_jobs = 2, .jobs = b1_jobs, .bw_kib = b1_as_bw, .max_lat_ms = b1_as_lat },
	{ .label = "thread: time-sliced cfq", .column = "cfq", .source = "Jens Axboe",
	  .nr_jobs = 2, .jobs = b1_jobs, .bw_kib = b1_cfq_bw, .max_lat_ms = b1_cfq_lat },
};

static const char b1_why_cache[] =
	"docs/deadline.md, B1: the drive's write cache absorbs the O_DIRECT writes (O_DIRECT "
	"bypasses the page cache, not the drive's buffer), so the writer costs the disk little. "
	"With --set device.write_cache=0 noop and deadline pass this criterion but CFQ's writer "
	"and aggregate and both BFQ criteria miss; the 2004 IDE driver enabled the cache "
	"(idedisk_setup: write_cache(drive, 1)) and the thread's CFQ writer rate needs it, so "
	"hdd-2004 keeps it on.";
static const char b1_why_split[] =
	"docs/deadline.md, B1: not the disk model. Each process has one request in flight; the "
	"read's completion dispatches the queued write at once and the reader's next read "
	"arrives 5 us later, so no batch start finds a read and a write both queued, "
	"deadline_dispatch_requests never counts a starved write and writes_starved never "
	"engages: the two alternate one for one (--trace shows it).";

static const struct ios_repro_check b1_checks[] = {
	{ .column = "noop", .m = IOS_RM_BW_SUM_REL, .ref = "as", .lo = NAN, .hi = 0.30,
	  .row = "noop: aggregate at most 30 % of as", .why_miss = b1_why_cache },
	{ .column = "deadline", .m = IOS_RM_BW_SUM_REL, .ref = "as", .lo = NAN, .hi = 0.25,
	  .row = "deadline: aggregate at most 25 % of as", .why_miss = b1_why_cache },
	{ .column = "deadline", .m = IOS_RM_RW_RATIO, .lo = 1.3, .hi = 3.0,
	  .row = "deadline: reader/writer within 1.3-3", .why_miss = b1_why_split },
	{ .column = "as", .m = IOS_RM_WR_REL, .lo = NAN, .hi = 0.02, .hi_strict = true,
	  .row = "anticipatory: writer under 2 % of the reader" },
	{ .column = "as", .m = IOS_RM_LAT_RATIO, .lo = 10.0, .hi = NAN,
	  .row = "anticipatory: writer max_lat at least 10 x the reader's" },
	{ .column = "cfq", .m = IOS_RM_WR_REL, .lo = 0.50, .hi = NAN,
	  .row = "cfq: writer at least 50 % of the reader" },
	{ .column = "cfq", .m = IOS_RM_BW_SUM_REL, .ref = "as", .lo = 0.60, .hi = NAN,
	  .row = "cfq: aggregate at least 60 % of as" },
	{ .column = "cfq", .m = IOS_RM_MAX_LAT, .lo = NAN, .hi = 250e6,
	  .row = "cfq: both max_lat at most 2.5 x slice_sync (250 ms)" },
	{ .column = "cfq:fairness=1", .m = IOS_RM_BW_DEV, .ref = "cfq", .lo = NAN, .hi = 0.10,
	  .row = "cfq fairness=1: within 10 % of cfq" },
	{ .column = "bfq", .m = IOS_RM_RW_RATIO, .lo = 0.67, .hi = 1.5,
	  .row = "BFQ: reader/writer within 0.67-1.5" },
	{ .column = "bfq", .m = IOS_RM_BW_SUM_REL, .ref = "as", .lo = 0.70, .hi = NAN,
	  .row = "BFQ: aggregate at least 70 % of as",
	  .why_miss = "docs/bfq.md: AS serves the reader alone; BFQ gives both streams the same "
		      "sectors, so its aggregate is bounded by the harmonic mean of the two "
		      "streams' rates alone." },
};

/* ---- B2: a buffered writer and cat (seed 001) ---- */

static const char *const b2_columns[] = {
	"noop", "deadline", "as", "cfq", "cfq-2.6.33", "cfq-4.19", "bfq", NULL,
};

static const char *const b2_jobs[] = { "writer", "cat" };
static const double b2_as_finish[] = { NAN, 45.434 };
/* vmstat 1's bi and bo (KiB/s) in the five seconds shown after cat started */
static const double b2_as_bi[] = { 15008, 27808, 32420, 28964, 23456 };
static const double b2_as_bo[] = { 12488, 6092, 4596, 1800, 6820 };

static const struct ios_repro_thread_run b2_thread[] = {
	{ .label = "thread: as", .column = "as", .source = "Andrew Morton", .nr_jobs = 2,
	  .jobs = b2_jobs, .finish_s = b2_as_finish, .vm_read_kib = b2_as_bi,
	  .vm_write_kib = b2_as_bo, .nr_vm = 5 },
};

static const struct ios_repro_check b2_checks[] = {
	{ .column = "as", .m = IOS_RM_READ_TIME, .lo = 0.50, .hi = NAN,
	  .row = "as: reads get at least 50 % of device time" },
	{ .column = "as", .m = IOS_RM_WRITE_TIME, .lo = 0.10, .hi = NAN,
	  .row = "as: writes get at least 10 % of device time" },
};

/* ---- D1: eleven readers, two share a file (seed 004) ---- */

static const char *const d1_columns[] = {
	"noop", "deadline", "as",
	"cfq:lab.cross_queue_merge=1", "cfq", "cfq:fairness=1",
	"cfq-2.6.33", "cfq-4.19",
	"bfq",
	NULL,
};

static const char *const d1_sharers[] = { "reader4", "reader5", NULL };
static const char *const d1_jobs[] = {
	"reader1", "reader2", "reader3", "reader4", "reader5", "reader6",
	"reader7", "reader8", "reader9", "reader10", "reader11",
};
static const double d1_bw[] = { 3469, 3375, 3561, 9, 9, 3466, 3435, 3496, 3495, 3398, 3296 };

static const struct ios_repro_thread_run d1_thread[] = {
	{ .label = "thread: cfq, Linux 2.6.18", .column = "cfq:lab.cross_queue_merge=1",
	  .source = "Vasily Tarasov, fio 1.9's output", .nr_jobs = 11, .jobs = d1_jobs,
	  .bw_kib = d1_bw },
};

static const char d1_why_bfq[] =
	"docs/bfq.md: the two sharers' first requests land next to each other while both "
	"queues are new, so early queue merging gives them one queue, which has one weight "
	"and serves both processes: each gets about half a share. Nobody starves.";

static const char d1_why_cfqq_merge[] =
	"docs/cfq.md, D1 under queue merging: the merged queue has one queue's slices for two "
	"processes (at most 0.5 each). It gets only 0.82 of a single reader's turns, because "
	"it still holds the other sharer's request when its slice ends, and cfq_slice_offset "
	"then counts it among the busy queues, which keys it 80 ms later than a reader that "
	"emptied. In 2.6.33 the two streams also stay about 1,000 sectors apart, about one "
	"512 KiB drive read segment, and a slice does 0.6 of a reader's I/O (0.25 each). 4.19 "
	"splits the seeky merged queue until the streams line up (0.40). Linux would do the "
	"same.";

#define RP_SHARE(col, lo_, row_, why) \
	{ .column = col, .m = IOS_RM_SHARER_MIN, .lo = lo_, .hi = NAN, .row = row_, \
	  .why_miss = why }

static const struct ios_repro_check d1_checks[] = {
	RP_SHARE("noop", 0.8, "noop / deadline: each sharer at least 0.8", NULL),
	RP_SHARE("deadline", 0.8, "noop / deadline: each sharer at least 0.8", NULL),
	RP_SHARE("as", 0.5, "anticipatory: each sharer at least 0.5", NULL),
	{ .column = "cfq:lab.cross_queue_merge=1", .m = IOS_RM_SHARER_MAX, .lo = NAN,
	  .hi = 0.01, .row = "cfq, cross-queue merges allowed (before 2.6.20-rc2): each "
			     "sharer at most 0.01" },
	{ .column = "cfq:lab.cross_queue_merge=1", .m = IOS_RM_OTHERS_SPREAD, .lo = NAN,
	  .hi = 0.15, .row = "cfq, cross-queue merges allowed: the other nine within 15 % "
			     "of each other" },
	RP_SHARE("cfq", 0.5, "cfq with allow_merge (2.6.20-rc2+): each sharer at least 0.5",
		 NULL),
	RP_SHARE("cfq", 0.8, "cfq + close cooperators (2.6.30+): each sharer at least 0.8",
		 NULL),
	RP_SHARE("cfq:fairness=1", 0.5, "cfq fairness=1: as the cfq underneath (0.5)", NULL),
	RP_SHARE("cfq:fairness=1", 0.8, "cfq fairness=1: as the cfq underneath (0.8)", NULL),
	RP_SHARE("cfq-2.6.33", 0.8, "cfq + cfqq merging (2.6.33 models): each sharer at "
		 "least 0.8", d1_why_cfqq_merge),
	RP_SHARE("cfq-4.19", 0.8, "cfq + cfqq merging (2.6.33 models): each sharer at "
		 "least 0.8", d1_why_cfqq_merge),
	RP_SHARE("bfq", 0.8, "BFQ (merge veto plus early queue merging): each sharer at "
		 "least 0.8", d1_why_bfq),
};

#undef RP_SHARE

/* ---- C1: two cgroups of 60 processes, 60 s, I/Os per cgroup (seed 003) ---- */

#define C1_T "cfq:lab.group_policy=tarasov2008"
#define C1_U "cfq:lab.group_policy=uchida2008"

static const char *const c1_columns[] = {
	"noop", "deadline", "as", "cfq",
	C1_T,
	C1_T ":cgroup.s0.ioprio=0",
	C1_T ":cgroup.s0.ioprio=0:cgroup.s1.ioprio=7",
	C1_U ":cgroup.s0.ioprio=3:cgroup.s1.ioprio=3",
	C1_U ":cgroup.s0.ioprio=0:cgroup.s1.ioprio=3",
	"cfq-2.6.33", "cfq-4.19", "cfq-4.19:slice_idle=0:group_idle=0",
	"bfq", "bfq:low_latency=0",
	NULL,
};

static const char *const c1_cgroups[] = { "s0", "s1", NULL };
static const char *const c1_jobs[] = { "s0", "s1" };
/* Florian's table: I/Os completed in 60 s by s0 and s1 */
static const double c1_t44[] = { 24953, 24062 };
static const double c1_t04[] = { 24221, 24047 };
static const double c1_t07[] = { 22301, 23373 };
static const double c1_u33[] = { 25175, 26463 };
static const double c1_u03[] = { 60821, 19846 };

static const struct ios_repro_thread_run c1_thread[] = {
	{ .label = "thread: Vasily's scheduler, 4 / 4", .column = C1_T,
	  .source = "Florian Westphal", .nr_jobs = 2, .jobs = c1_jobs, .group_ios = c1_t44 },
	{ .label = "thread: Vasily's scheduler, 0 / 4", .column = C1_T ":cgroup.s0.ioprio=0",
	  .source = "Florian Westphal", .nr_jobs = 2, .jobs = c1_jobs, .group_ios = c1_t04 },
	{ .label = "thread: Vasily's scheduler, 0 / 7",
	  .column = C1_T ":cgroup.s0.ioprio=0:cgroup.s1.ioprio=7",
	  .source = "Florian Westphal", .nr_jobs = 2, .jobs = c1_jobs, .group_ios = c1_t07 },
	{ .label = "thread: Satoshi's scheduler, 3 / 3",
	  .column = C1_U ":cgroup.s0.ioprio=3:cgroup.s1.ioprio=3",
	  .source = "Florian Westphal", .nr_jobs = 2, .jobs = c1_jobs, .group_ios = c1_u33 },
	{ .label = "thread: Satoshi's scheduler, 0 / 3",
	  .column = C1_U ":cgroup.s0.ioprio=0:cgroup.s1.ioprio=3",
	  .source = "Florian Westphal", .nr_jobs = 2, .jobs = c1_jobs, .group_ios = c1_u03 },
};

static const char c1_why_tarasov_thread[] =
	"docs/cfq-groups.md: the thread's own rows miss this too; Florian saw no effect of "
	"the priorities under Vasily's scheduler.";
static const char c1_why_uchida[] =
	"docs/cfq-groups.md: rebuilt from the cover letter, Satoshi's top layer gives each "
	"group CFQ's slice for its level (180 and 120 ms for 0 and 3), a 1.5:1 split; what "
	"made his steeper is in patch text that was not found, and nothing is tuned to "
	"match his 3.06.";

static const char c1_why_elevator[] =
	"Position, not groups: s1's regions lie above s0's on the disk. The elevator sweeps "
	"upward and, once a request has expired, restarts at the oldest one, so requests at "
	"higher sectors are passed by more sweeps. With the two regions swapped in the job "
	"file the split flips, s0 then above (docs/deadline.md, C1, runs it); noop, which "
	"keeps no order, stays even either way.";
static const char c1_why_cfq[] =
	"docs/cfq-groups.md: a round cut short. The 120 backlogged queues keep their full "
	"100 ms slices in one fixed round-robin order (a round takes 12.9 s), and the 60 s "
	"end partway through the fifth round: the queues before that point get 6 slices, "
	"those after it 5. A run ending on a round boundary (runtime=52) gives 1.02, 25 ms "
	"slices 1.05; Linux 2.6.31 would do the same.";
#define RP_FLAT(col, row_, why) \
	{ .column = col, .m = IOS_RM_GROUP_RATIO, .lo = 0.9, .hi = 1.1, .row = row_, \
	  .why_miss = why }
#define RP_NEAR(col, mm, ex, row_, why) \
	{ .column = col, .m = mm, .expect = ex, .tol = 0.15, .row = row_, .why_miss = why }

static const struct ios_repro_check c1_checks[] = {
	RP_FLAT("noop", "noop / deadline / anticipatory: no cgroup notion, ratio within 0.9-1.1",
		NULL),
	RP_FLAT("deadline", "noop / deadline / anticipatory: no cgroup notion, ratio within "
		"0.9-1.1", c1_why_elevator),
	RP_FLAT("as", "noop / deadline / anticipatory: no cgroup notion, ratio within 0.9-1.1",
		c1_why_elevator),
	RP_FLAT("cfq", "cfq without groups: equal process counts, ratio within 0.9-1.1",
		c1_why_cfq),
	RP_NEAR(C1_T, IOS_RM_GROUP_RATIO, 1.0,
		"\"vasily\" two-level cfq: within 15 % of (1+pA/7)/(1+pB/7)", NULL),
	RP_NEAR(C1_T ":cgroup.s0.ioprio=0", IOS_RM_GROUP_RATIO, 7.0 / 11.0,
		"\"vasily\" two-level cfq: within 15 % of (1+pA/7)/(1+pB/7)",
		c1_why_tarasov_thread),
	RP_NEAR(C1_T ":cgroup.s0.ioprio=0:cgroup.s1.ioprio=7", IOS_RM_GROUP_RATIO, 0.5,
		"\"vasily\" two-level cfq: within 15 % of (1+pA/7)/(1+pB/7)",
		c1_why_tarasov_thread),
	{ .column = C1_T ":cgroup.s0.ioprio=0:cgroup.s1.ioprio=7", .m = IOS_RM_GROUP_RATIO,
	  .lo = 1.0 / 2.2, .hi = NAN,
	  .row = "\"vasily\" two-level cfq: the favoured group never above 2.2 x the other" },
	RP_FLAT(C1_U ":cgroup.s0.ioprio=3:cgroup.s1.ioprio=3",
		"\"satoshi\" 2-layer cfq: equal priorities within 0.9-1.1", NULL),
	{ .column = C1_U ":cgroup.s0.ioprio=0:cgroup.s1.ioprio=3", .m = IOS_RM_GROUP_RATIO,
	  .lo = 2.5, .hi = 3.6, .row = "\"satoshi\" 2-layer cfq (0 vs 3): ratio in 2.5-3.6",
	  .why_miss = c1_why_uchida },
	RP_NEAR("cfq-2.6.33", IOS_RM_GROUP_TIME_RATIO, 1000.0 / 333.0,
		"cfq + groups (blkio.weight): disk time within 15 % of the weight ratio, with "
		"group idling", NULL),
	RP_NEAR("cfq-4.19", IOS_RM_GROUP_TIME_RATIO, 1000.0 / 333.0,
		"cfq + groups (blkio.weight): disk time within 15 % of the weight ratio, with "
		"group idling", NULL),
	RP_NEAR("bfq", IOS_RM_GROUP_RATIO, 1000.0 / 333.0,
		"BFQ + groups (weights): sectors (here 4 KiB I/Os) within 15 % of the weight "
		"ratio", NULL),
	RP_NEAR("bfq:low_latency=0", IOS_RM_GROUP_RATIO, 1000.0 / 333.0,
		"BFQ + groups (weights): sectors (here 4 KiB I/Os) within 15 % of the weight "
		"ratio", NULL),
};

#undef RP_FLAT
#undef RP_N
#undef MQ_DOC

/*
 * ---- A1-TTIME, A2-TTIME, A3: Divyesh Shah's think-time proposal (seed 000) ----
 *
 * Divyesh described it in the thread and never posted it; it is built as
 * lab.ttime_back_to_back on the 2.6.31 profile (docs/cfq.md). The thread
 * has no runs of it, so these blocks carry no thread numbers; their
 * criteria are what his mail and the mechanism predict.
 */

#define TT_ON "cfq:lab.ttime_back_to_back=1"
#define TT_F1_ON "cfq:fairness=1:lab.ttime_back_to_back=1"

static const char *const a1t_columns[] = {
	"noop", "cfq", TT_ON, "cfq:fairness=1", TT_F1_ON, NULL,
};

static const char tt_why_lockin[] =
	"docs/cfq.md, lab.ttime_back_to_back: a reader whose first reads look seeky loses its "
	"idle window on the NCQ disk, and 2.6.31 gives the window back only through valid "
	"think-time samples (three of them). Without the window the queue's slice ends as soon "
	"as its one request is out, so that request completes in another queue's slice and the "
	"next one starts no back-to-back interval: the queue collects no sample, keeps no "
	"window, and gets one request a round until the others are done.";

static const struct ios_repro_check a1t_checks[] = {
	{ .column = TT_ON, .m = IOS_RM_SPREAD, .lo = NAN, .hi = 0.08,
	  .row = "Divyesh Shah: it \"might help you avoid the idle window disabling\": bunched "
		 "finishes, spread at most 8 % (the fairness=1 bound)", .why_miss = tt_why_lockin },
	{ .column = TT_ON, .m = IOS_RM_MAKESPAN_REL, .ref = "cfq", .lo = NAN, .hi = 1.10,
	  .row = "makespan with the knob at most 1.10 x without" },
	{ .column = TT_ON, .m = IOS_RM_AGG_ALONE, .lo = 0.70, .hi = NAN,
	  .row = "aggregate at least 70 % of the disk's sequential rate" },
	{ .column = TT_F1_ON, .m = IOS_RM_SPREAD, .lo = NAN, .hi = 0.08,
	  .row = "with fairness=1 as well: spread at most 8 %" },
};

static const char *const a2t_columns[] = {
	"cfq", TT_ON, "cfq:fairness=1", TT_F1_ON, NULL,
};

static const struct ios_repro_check a2t_checks[] = {
	{ .column = TT_ON, .m = IOS_RM_WORST_DIFF, .lo = NAN, .hi = 0.10,
	  .row = "A2's bound for cfq, with the knob: every |%diff| at most 10 %",
	  .why_miss = tt_why_lockin },
	{ .column = TT_F1_ON, .m = IOS_RM_WORST_DIFF, .lo = NAN, .hi = 0.10,
	  .row = "with fairness=1 as well: every |%diff| at most 10 %" },
};

static const char *const a3_columns[] = {
	"noop", "deadline", "as", "cfq", TT_ON, "cfq:fairness=1", TT_F1_ON,
	"cfq-2.6.33", "cfq-4.19", "bfq", NULL,
};

static const struct ios_repro_check a3_checks[] = {
	{ .column = TT_ON, .m = IOS_RM_BW_DEV, .ref = "cfq", .lo = NAN, .hi = 0.01,
	  .row = "mechanism: each reader's idle window is decided without the think-time "
		 "branch, so the knob moves neither bandwidth by more than 1 %" },
	{ .column = TT_F1_ON, .m = IOS_RM_BW_DEV, .ref = "cfq:fairness=1", .lo = NAN, .hi = 0.01,
	  .row = "the same with fairness=1: neither bandwidth moves by more than 1 %" },
};

#undef TT_ON
#undef TT_F1_ON


/*
 * ---- M1-M4: the blk-mq scenarios (issue 29 item 5) ----
 *
 * Their criteria are docs/blk-mq-scenarios.md's, written before any run and
 * not changed after; each check carries its number there. There is no
 * thread: the only constants below are the criteria's bounds. A why_miss
 * text names the mechanism the document's analysis gives for a MISS and
 * the counter of the report that shows it; it is printed only when the
 * criterion misses.
 */

#define MQ_DOC "docs/blk-mq-scenarios.md"

static const char *const m1_columns[] = { "none", "mq-deadline", "kyber", "bfq-6.12", NULL };

static const char m1_why_kyber[] =
	"docs/blk-mq-scenarios.md, M1.3: kyber_timer_fn (6.12) resizes every domain by its "
	"own p99 latency bucket once some domain misses its target, and shrinks a domain's "
	"depth only when that p99 is well inside the target; writes whose p99 is near "
	"their 10 ms target keep their depth (kyber's `resizes` counter above), so the "
	"reader's requests still wait behind the writes in the device.";
static const char m1_why_bfq[] =
	"docs/blk-mq-scenarios.md, M1.4: bfq-6.12 did not hold the writers' dispatch back "
	"for the reader here; what of BFQ 6.12's idling on NCQ flash the model leaves out "
	"is listed in docs/bfq.md (\"left out\"), and the counters above show what acted.";

static const struct ios_repro_check m1_checks[] = {
	{ .id = "M1.1", .column = "none", .m = IOS_RM_P99_ALONE, .lo = 2.0, .hi = NAN,
	  .row = "the reader's p99 ≥ 2 × p99_alone (the reader alone under none)" },
	{ .id = "M1.2", .column = "mq-deadline", .m = IOS_RM_P99_REL, .ref = "none",
	  .lo = 0.75, .hi = 1.33, .row = "the reader's p99 within 0.75-1.33 × none's" },
	{ .id = "M1.2", .column = "mq-deadline", .m = IOS_RM_IOPS_REL, .ref = "none",
	  .expect = 1.0, .tol = 0.05, .row = "aggregate IOPS within ±5 % of none's" },
	{ .id = "M1.3", .column = "kyber", .m = IOS_RM_P99_REL, .ref = "none", .lo = NAN,
	  .hi = 0.5, .row = "if the reader's p90 device latency under none ≥ read_lat_nsec "
			    "(2 ms): the reader's p99 ≤ 0.5 × none's",
	  .when_column = "none", .when_m = IOS_RM_DEV_P90, .when_min = 2e6,
	  .why_miss = m1_why_kyber },
	{ .id = "M1.3", .column = "kyber", .m = IOS_RM_P99_REL, .ref = "none", .lo = 0.75,
	  .hi = 1.33, .row = "otherwise: the reader's p99 within 0.75-1.33 × none's",
	  .when_column = "none", .when_m = IOS_RM_DEV_P90, .when_min = 2e6, .when_below = true },
	{ .id = "M1.4", .column = "bfq-6.12", .m = IOS_RM_P99_REL, .ref = "none", .lo = NAN,
	  .hi = 1.0, .hi_strict = true, .row = "the reader's p99 < none's",
	  .why_miss = m1_why_bfq },
	{ .id = "M1.4", .column = "bfq-6.12", .m = IOS_RM_IOPS_REL, .ref = "none", .lo = NAN,
	  .hi = 1.0, .row = "aggregate IOPS ≤ none's" },
};

static const char *const m2_columns[] = {
	"none", "mq-deadline", "kyber", "mq-deadline-6.6", NULL,
};

static const char m2_why_rt[] =
	"docs/blk-mq-scenarios.md, M2.1: at queue depth 1 the RT reader has nothing queued "
	"or in flight between a completion and its next submission; dd_queued(RT) is then 0 "
	"and the hardware-queue run after the completion dispatches BE requests into the "
	"drive's queue, where the next RT read waits behind them. Strict class order needs "
	"the RT class to keep I/O outstanding.";

static const struct ios_repro_check m2_checks[] = {
	{ .id = "M2.1", .column = "mq-deadline", .m = IOS_RM_OTHERS_SHARE, .lo = NAN, .hi = 0.10,
	  .hi_strict = true, .row = "the BE readers together get < 10 % of the completed I/Os",
	  .why_miss = m2_why_rt },
	{ .id = "M2.2", .column = "mq-deadline", .m = IOS_RM_OTHERS_MIN_IOS, .lo = 1.0,
	  .hi = NAN, .row = "every BE reader completes at least one I/O" },
	{ .id = "M2.2", .column = "mq-deadline", .m = IOS_RM_OTHERS_MAX_LAT, .lo = NAN,
	  .hi = 11e9, .row = "no BE completion latency exceeds prio_aging_expire (10 s) + 1 s" },
	{ .id = "M2.3", .column = "none", .m = IOS_RM_SHARE_DEV, .lo = NAN, .hi = 0.05,
	  .row = "each of the four readers gets 25 % ± 5 % of the I/Os" },
	{ .id = "M2.3", .column = "kyber", .m = IOS_RM_SHARE_DEV, .lo = NAN, .hi = 0.05,
	  .row = "each of the four readers gets 25 % ± 5 % of the I/Os" },
	{ .id = "M2.4", .column = "mq-deadline-6.6", .m = IOS_RM_VERDICTS_DIFFER, .lo = NAN,
	  .hi = 0.0, .like = "mq-deadline", .like_of = "mq-deadline",
	  .row = "M2.1 and M2.2 hold as for 6.12 (the same verdicts)" },
};

/*
 * M3 and M4 compare schedulers on the seeds' own setup, ext3 (lab.fs=auto
 * would give the blk-mq columns ext4 and mix a filesystem change into the
 * scheduler comparison the criteria were written for).
 */
#define SEED_FS ":lab.fs=ext3"

static const char *const m3_columns[] = { "bfq-6.12" SEED_FS, NULL };

static const char m3_why_merge[] =
	"read `queue_merges` and `idle_windows` in the counters above first. When bfq-6.12 "
	"joins the readers' queues (the stable merge at start-up that M3.1's mechanism "
	"allowed for, or early queue merging), BFQ serves the four streams as one queue with "
	"one budget sequence and rarely idles, where 4.19 idles for each weight-raised queue "
	"in turn; that moves the aggregate and each reader's rate. The first run's analysis is "
	"in docs/blk-mq-scenarios.md, \"Results as they came\".";

static const struct ios_repro_check m3_checks[] = {
	{ .id = "M3.1", .column = "bfq-6.12" SEED_FS, .m = IOS_RM_VERDICTS_DIFFER, .lo = NAN, .hi = 0.0,
	  .like = "bfq", .like_of = "bfq",
	  .row = "A1's own criteria give the same verdict under bfq-6.12 as under bfq",
	  .why_miss = m3_why_merge },
	{ .id = "M3.2", .column = "bfq-6.12" SEED_FS, .m = IOS_RM_BW_DEV, .ref = "bfq", .lo = NAN,
	  .hi = 0.10, .row = "each reader's throughput within ±10 % of its throughput under bfq",
	  .why_miss = m3_why_merge },
};

static const char *const m4_columns[] = { "none" SEED_FS, "mq-deadline" SEED_FS, "kyber" SEED_FS,
					   "bfq-6.12" SEED_FS, NULL };

static const char m4_why_bfq[] =
	"the compared criteria below say which measures moved; the counters above say why: "
	"`queue_merges` (processes sharing one queue, so BFQ alternates between their "
	"requests where 4.19 served each queue in turn) and `idle_windows` against 4.19's "
	"(BFQ 6.12's idling rules, the part of bfq-6.12 docs/bfq.md lists as reworked or left "
	"out). The first run's analysis is in docs/blk-mq-scenarios.md, \"Results as they "
	"came\".";

#define M4_SAME(id_, col, like_, row_, why) \
	{ .id = id_, .column = col, .m = IOS_RM_VERDICTS_DIFFER, .lo = NAN, .hi = 0.0, \
	  .like = like_, .row = row_, .why_miss = why }

static const struct ios_repro_check m4_checks[] = {
	M4_SAME("M4.1", "none" SEED_FS, "noop", "each criterion gets the verdict noop gets", NULL),
	M4_SAME("M4.1", "mq-deadline" SEED_FS, "deadline", "each criterion gets the verdict deadline gets",
		NULL),
	M4_SAME("M4.1", "kyber" SEED_FS, "noop", "each criterion gets the verdict noop gets", NULL),
	M4_SAME("M4.2", "bfq-6.12" SEED_FS, "bfq", "each criterion gets the verdict bfq gets",
		m4_why_bfq),
};

#undef M4_SAME

/*
 * ---- C1, C2: the cgroup v2 scenarios (issue 30 step 10) ----
 *
 * Their criteria are docs/cgroup-v2-plan.md §10's, written before any run
 * and not changed after; each check carries its number there. The windows
 * are read from the run's series grouped by cgroup (10 ms buckets for runs
 * of 5 to 50 s, plot.h); with 4 KiB I/Os a share of the bytes is a share of
 * the I/Os, and C1.1's 50k IOPS is 195.3 MiB/s. io.cost.qos is written as
 * `enable=1`: `ctrl=auto` is its default (docs/cgroup-v2.md, io.cost).
 */


#define RP_N(a) (sizeof(a) / sizeof((a)[0]))

const struct ios_repro_exp ios_repro_experiments[] = {
	{
		.name = "a1",
		.title = "A1: four dd readers, CFQ's fairness tunable",
		.jobfile = "examples/seeds/a1-four-dd-readers.fio",
		.thread = "Seed 000: Vivek Goyal's two patches adding a `fairness` tunable to "
			  "CFQ, LKML, 12 July 2009, with replies by Divyesh Shah and Jeff "
			  "Moyer (seed-scenarios.md §1).",
		.argued =
"On a disk with command queueing CFQ takes the idle window away from a queue that looks "
"seeky. Vivek ran four `dd` readers at once, each on its own file, and found that their "
"first reads looked seeky, so each lost its idle window until its pattern settled, each at "
"a different moment; the readers that got it back early streamed and finished first. His "
"`fairness=1` keeps the idle window of seeky queues; with it the four finished together "
"and the last one no later. Jeff Moyer did not see the staggering on his kernel and found "
"no difference in his fio table (A2); Vivek saw it again on 2.6.31-rc7. The tunable was "
"not merged; Linux 2.6.33 reworked CFQ's idling instead (seed-scenarios.md §1.2).",
		.setup =
"Four buffered readers reading 512 bytes at a time through the page cache, so the disk "
"sees readahead windows and ext3's directory, inode and indirect blocks; files of the "
"thread's size on the default 2009 SATA disk with NCQ. Each column runs with seeds 1-5 "
"(the seed also decides where ext3 puts the files); criteria apply to the median. The "
"disk's sequential rate for the aggregate criterion is the first reader's rate when it "
"runs alone under noop, with the same seed.",
		.learned =
"- 2.6.31-rc7's CFQ is 2.6.31's: a process's first request is no seek since 2.6.30 "
"(cfq_update_io_seektime), and Vivek's patches apply to 2.6.31's file at the same lines. "
"What makes a reader seeky is the filesystem: the reader that reads the directory and "
"inode blocks for all four jumps from its inode to its data, and a file ext3 cut in two "
"jumps across the disk once. A starved reader gets one request per round of the others' "
"slices, so how long it starves is set by how far its first jump was (docs/cfq.md).\n"
"- Which reader loses depends on where ext3 put each file and which queue happens to "
"start seeky; the seed draws the pid of the process that created the files "
"(`lab.creator_pid`), so five seeds are five layouts, as five machines would be "
"(docs/cfq.md). Vivek's four runs, on one machine and most likely one layout, vary far "
"less.\n"
"- BFQ idles for fairness whatever the disk's queueing, so it bunches; its default "
"low_latency mode weight-raises every new queue with small budgets at first, which costs "
"throughput while the readers start (docs/bfq.md).",
		.kind = IOS_REPRO_FINISH,
		.columns = a1_columns,
		.nr_seeds = 5,
		.alone = true,
		.alone_column = "noop",
		.thread_runs = a1_thread,
		.nr_thread_runs = RP_N(a1_thread),
		.checks = a1_checks,
		.nr_checks = RP_N(a1_checks),
	},
	{
		.name = "a2",
		.title = "A2: eight readers at BE level 4, Jeff Moyer's table",
		.jobfile = "examples/seeds/a2-eight-readers-prio4.fio",
		.thread = "Seed 000, the same thread: Jeff Moyer's reply, September 2009.",
		.argued =
"Jeff ran \"a couple of fio workloads\" on a vanilla kernel and on one with Vivek's "
"patches and `fairness=1`, and printed per job `class prio ideal xferred %diff`, where "
"ideal is the total transferred times the job's share of the total priority (each job's "
"CFQ sync slice: 100 ms at level 4, so 800 for eight jobs). He saw no difference between "
"the two kernels. His job file was not posted; seed-scenarios.md §1.4 rebuilds it as eight "
"sequential O_DIRECT readers of 128 KiB requests at BE 4 for 30 s.",
		.setup =
"Eight O_DIRECT readers on the default 2009 SATA disk with NCQ, 30 s, seeds 1-5; the "
"criterion applies to the median over the seeds of each run's worst |%diff|. The thread's "
"ideal and %diff below are computed from Jeff's xferred column by the code that computes "
"ours; they agree with the ones he printed.",
		.learned =
"- With eight equal jobs the ideal is the same whatever the weights, so the table "
"measures only how evenly the scheduler served them (seed-scenarios.md §1.1).\n"
"- Jeff's own rows fall outside the scenario's 10 % on both kernels: whatever spread "
"his disk and workload produced is larger than the criterion allows, which the "
"criterion's thread column shows.",
		.kind = IOS_REPRO_SHARES,
		.columns = a2_columns,
		.nr_seeds = 5,
		.thread_runs = a2_thread,
		.nr_thread_runs = RP_N(a2_thread),
		.checks = a2_checks,
		.nr_checks = RP_N(a2_checks),
	},
	{
		.name = "b1",
		.title = "B1: a sync reader against a sync writer",
		.jobfile = "examples/seeds/b1-sync-reader-writer.fio",
		.thread = "Seed 001: Jens Axboe, \"Time sliced CFQ io scheduler\", LKML, "
			  "2 December 2004, and the replies of that day (seed-scenarios.md §2).",
		.argued =
"Jens proposed giving each process exclusive slices of disk time. One process reading "
"and one writing, both 64 KiB O_DIRECT for 30 s on an IDE disk: deadline seeked between "
"the two and moved little, AS gave the reader nearly everything and the writer about a "
"block a second, the new CFQ split the disk between them. Andrew Morton remembered AS "
"giving that test 2/3 read and 1/3 write. Time-sliced CFQ went into 2.6.13 and became "
"the default in 2.6.18 (seed-scenarios.md §2.2).",
		.setup =
"The 2004 disk without command queueing (`hdd-2004`), the two files in different "
"directories so that ext3 puts them far apart, seed 1. `as` classifies O_DIRECT writes "
"as async, as the 2004 kernel did (`sync_class=dir`); `as:sync_class=sync` is AS after "
"2.6.20, shown for comparison.",
		.learned =
"- AS starves the writer only while it batches O_DIRECT writes with write-back, as the "
"2004 kernel did; classified sync (Linux 2.6.20+) the two share the disk (docs/as.md).\n"
"- A writer whose writes complete in the drive's cache arrives a few microseconds after "
"AS's write batch ended for lack of writes, so it gets one request per read batch "
"(docs/as.md).",
		.kind = IOS_REPRO_RW,
		.columns = b1_columns,
		.nr_seeds = 1,
		.thread_runs = b1_thread,
		.nr_thread_runs = RP_N(b1_thread),
		.checks = b1_checks,
		.nr_checks = RP_N(b1_checks),
	},
	{
		.name = "b2",
		.title = "B2: a buffered writer and cat",
		.jobfile = "examples/seeds/b2-buffered-writer-cat.fio",
		.thread = "Seed 001, the same thread: Andrew Morton's test, 2 December 2004, and "
			  "Jens Axboe's answer.",
		.argued =
"Andrew could not reproduce the writer's starvation under AS: a `dd` writing 1000 MiB "
"over and over through the page cache while `cat` read a 1 GiB file, and vmstat showed "
"both moving (\"things seem OK\"). Jens answered that his test used sync (O_DIRECT) "
"writes, and that async writes \"take quite some effort to make go slow\". Only AS has a "
"criterion here (seed-scenarios.md §2.3, variant B2).",
		.setup =
"The 2004 disk, seed 1; the writer dirties pages and the flusher writes them back as "
"async writes; the run ends when cat has read its gigabyte. The thread's disk rates are "
"vmstat's bi and bo of the five seconds it showed after cat started; ours are the bytes "
"the disk moved over the run. Device time is the time the disk spent on each direction's "
"requests.",
		.learned =
"- With the anticipation AS keeps the disk on cat's sequential reads; without it "
"(`antic_expire=0`) AS is a batching deadline and cat crawls behind the write-back "
"(docs/as.md).",
		.kind = IOS_REPRO_CAT,
		.columns = b2_columns,
		.nr_seeds = 1,
		.timed_job = "cat",
		.thread_runs = b2_thread,
		.nr_thread_runs = RP_N(b2_thread),
		.checks = b2_checks,
		.nr_checks = RP_N(b2_checks),
	},
	{
		.name = "c1",
		.title = "C1: two cgroups of 60 processes, I/Os per cgroup",
		.jobfile = "examples/seeds/c1-cgroups-blkio.fio",
		.thread = "Seed 003: Florian Westphal's benchmark of Vasily Tarasov's and Satoshi "
			  "Uchida's cgroup I/O controllers, LKML, April 2008, in the thread "
			  "\"[RFC][v2][patch 0/12][CFQ-cgroup]\" (seed-scenarios.md §3).",
		.argued =
"Two 2008 proposals put a cgroup layer on CFQ: Vasily's gives each group a time slice "
"scaled by a priority 0-7 (higher is more), Satoshi's runs one CFQ per group under a top "
"layer that picks among them by CFQ's own priorities (lower is more). Florian ran two "
"cgroups of 60 processes, each issuing 4 KiB O_DIRECT reads and writes, and counted the "
"I/Os each group completed in 60 s. Under Vasily's scheduler the priorities made no "
"difference; under Satoshi's, 0 against 3 gave 3.06:1. Neither was merged; Linux 2.6.33 "
"took Vivek Goyal's blkio groups, which divide disk time by weight (seed-scenarios.md §3.2).",
		.setup =
"The 2004 PATA disk (`hdd-2004`; Florian's was /sys/block/hda) with its write cache on, "
"two cgroups of 60 processes each working through a private 64 MiB region of one file, "
"60 s, seed 1. The job file gives the groups blkio weights 1000 and 333, which the "
"kernel's groups (cfq-2.6.33, cfq-4.19, bfq) use; the schedulers without groups, and the "
"two 2008 designs rebuilt on CFQ 2.6.31 (`lab.group_policy`, priorities by "
"`cgroup.PATH.ioprio`, default 4), ignore them, as the warnings below say. The "
"`cfq-4.19:slice_idle=0:group_idle=0` column is the kernel without idling, which "
"seed-scenarios.md asks to report beside the criteria, not under them.",
		.learned =
"- The rebuilt designs do what their postings describe: Vasily's split follows "
"(1+pA/7)/(1+pB/7), Satoshi's follows CFQ's slices per level. Florian's table matches "
"neither: his Vasily rows show no effect of the priorities (docs/cfq-groups.md lists what "
"might have disabled the group layer in his runs).\n"
"- The merged blkio groups divide disk time by weight only while each group keeps the "
"disk: group idling and CFQ's wait-busy hold it for a group whose processes think "
"between requests (docs/cfq-groups.md). Without idling (`slice_idle=0:group_idle=0`) "
"4.19 still divides the time by weight, but the lighter group's I/O count collapses, "
"not towards 1:1 as seed-scenarios.md expected: its turns are short, most likely too short "
"to pay back the seek into its region.\n"
"- Where a scheduler has no groups, the split is not 1:1 either: deadline and AS "
"favour the group higher on the disk (moving s0's regions above s1's flips it), and "
"CFQ 2.6.31's 60 s end partway through a round of 100 ms slices (the criteria "
"below).",
		.kind = IOS_REPRO_CGROUP,
		.columns = c1_columns,
		.nr_seeds = 1,
		.cgroups = c1_cgroups,
		.thread_runs = c1_thread,
		.nr_thread_runs = RP_N(c1_thread),
		.checks = c1_checks,
		.nr_checks = RP_N(c1_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "d1",
		.title = "D1: eleven readers, two of them sharing a file",
		.jobfile = "examples/seeds/d1-eleven-readers.fio",
		.thread = "Seed 004: Vasily Tarasov, \"seems to be a flaw in cfq\", 19 December "
			  "2006, Linux 2.6.18, fio 1.9 (seed-scenarios.md §4).",
		.argued =
"Eleven sequential readers under CFQ; reader4 and reader5 read the same file and got "
"almost nothing while the nine others shared the disk. Vasily saw no such thing under "
"deadline and less under anticipatory. The cause: the block layer let one process's bio "
"merge into another process's queued request, so each sharer ended up waiting on a "
"request in the other's CFQ queue. Jens fixed it in 2.6.20-rc2 with the `allow_merge` "
"hook, which lets CFQ refuse merges across queues (seed-scenarios.md §4.3).",
		.setup =
"The job file as posted, with fio 1.x defaults (O_DIRECT 4 KiB reads), on the 2004 disk "
"with 1 GiB files that exist before the run, 200 s, seed 1. `lab.cross_queue_merge=1` "
"is the block layer before 2.6.20-rc2 (no merge veto); noop, deadline and AS never veto "
"a merge, so for them the setting changes nothing.",
		.learned =
"- The starvation needs the old block layer; with `allow_merge` the sharers get their "
"share, which is the fix the thread led to (docs/cfq.md).\n"
"- BFQ merges the two sharers' queues into one (early queue merging, meant for exactly "
"such interleaved readers), so the pair shares one queue's weight (docs/bfq.md).",
		.kind = IOS_REPRO_SHARERS,
		.columns = d1_columns,
		.nr_seeds = 1,
		.sharers = d1_sharers,
		.thread_runs = d1_thread,
		.nr_thread_runs = RP_N(d1_thread),
		.checks = d1_checks,
		.nr_checks = RP_N(d1_checks),
	},
	{
		.name = "a1-ttime",
		.title = "A1-TTIME: A1 with Divyesh Shah's think-time samples",
		.jobfile = "examples/seeds/a1-four-dd-readers.fio",
		.thread = "Seed 000: Divyesh Shah's reply to Vivek Goyal, 13 July 2009, a proposal "
			  "he described and did not post (issue 11).",
		.argued =
"Divyesh had seen the same trouble with parallel sync workloads and blamed the think-time "
"samples: CFQ took one for every request of a queue, including \"very long ttime values "
"for consecutive IOs which are separated by timeslices for other sync queues\". He "
"proposed to \"only consider samples where the process was allowed to send consecutive "
"IOs down to the disk\", said he had a patch, and that it \"might help you avoid the idle "
"window disabling\". Vivek answered that in his test the window went because CFQ found "
"the readers seeky, not because of think time. The patch never appeared.",
		.setup =
"A1's job file, seeds and disk (four buffered dd readers on the 2009 NCQ disk, seeds 1-5, "
"the aggregate against the first reader alone under noop), run under 2.6.31 CFQ with and "
"without `lab.ttime_back_to_back=1`, and the same with `fairness=1`. The knob is our "
"reading of his words for 2.6.31 (docs/cfq.md): a process sends its requests to the disk "
"only while its queue holds the slice, so a think-time sample counts only when the "
"previous sync request completed in the queue's slice and the next one arrives in that "
"same slice; everything else of 2.6.31 stays as it is.",
		.learned =
"- In this model a reader's think time is short whichever queue holds the disk: a dd "
"reader issues its next readahead as soon as it has copied the pages of the last one, "
"and its wait for the slice comes after the request is queued, not before. Samples taken "
"outside the slice are as short as those inside it, so dropping them does not change a "
"mean that decides anything.\n"
"- What the knob changes is the number of samples: a queue without an idle window "
"collects none while other queues are busy, so it cannot have its window back before they "
"are done (the miss above). With `fairness=1` no window is taken away and the knob "
"changes nothing.\n"
"- Vivek was right for this workload: the window goes because of the seek statistics; "
"the think-time samples matter only as the way back.",
		.kind = IOS_REPRO_FINISH,
		.columns = a1t_columns,
		.nr_seeds = 5,
		.alone = true,
		.alone_column = "noop",
		.checks = a1t_checks,
		.nr_checks = RP_N(a1t_checks),
	},
	{
		.name = "a2-ttime",
		.title = "A2-TTIME: A2 with Divyesh Shah's think-time samples",
		.jobfile = "examples/seeds/a2-eight-readers-prio4.fio",
		.thread = "Seed 000: Divyesh Shah's proposal (see A1-TTIME) on Jeff Moyer's table "
			  "(A2).",
		.argued =
"The proposal as in A1-TTIME, measured on A2's eight O_DIRECT readers at BE 4, where "
"every reader's next request follows its last completion at once.",
		.setup =
"A2's job file, disk and seeds 1-5, under 2.6.31 CFQ with and without "
"`lab.ttime_back_to_back=1`, and the same with `fairness=1`; the criteria apply to the "
"median over the seeds of each run's worst |%diff|.",
		.learned =
"- One request at a time, a reader's think time is a few microseconds in or out of its "
"slice; the knob changes which samples are taken, not their mean.\n"
"- A reader whose first requests look seeky loses its idle window; without the knob its "
"think-time samples become valid at its third request and the window comes back when "
"it stops looking seeky or hw_tag goes to 0; with the knob it never collects them and "
"gets one request per round of the others' slices for the whole run.",
		.kind = IOS_REPRO_SHARES,
		.columns = a2t_columns,
		.nr_seeds = 5,
		.checks = a2t_checks,
		.nr_checks = RP_N(a2t_checks),
	},
	{
		.name = "a3",
		.title = "A3: a sequential and a random reader, Divyesh Shah's think-time samples",
		.jobfile = "examples/seeds/a3-sequential-and-random-reader.fio",
		.thread = "Seed 000: Divyesh Shah's proposal (see A1-TTIME), on a workload of our "
			  "own (issue 11): not from the thread.",
		.argued =
"A mix of one sequential and one random reader is where think time and seekiness pull "
"apart: the sequential reader keeps the disk in long idle-protected slices, the random "
"one is seeky. The proposal should matter here only if one of them needs its think-time "
"samples to keep or regain its idle window.",
		.setup =
"One sequential reader of 128 KiB O_DIRECT requests and one random reader of 4 KiB, each "
"one request at a time in a file of its own (different directories, so ext3 puts them "
"in different block groups), BE 4, 30 s on the 2009 NCQ disk, seed 1, under every "
"scheduler, with 2.6.31 CFQ also with `lab.ttime_back_to_back=1` (and with "
"`fairness=1`).",
		.learned =
"- Under 2.6.31 CFQ the random reader loses its idle window at its third request, "
"because it is seeky on a command-queueing disk; that branch comes before the think-time "
"one, so its samples never matter. Nearly all of the sequential reader's requests complete "
"in its own slice, where the knob keeps their samples. The knob changes nothing here; the random "
"reader gets one request for each of the sequential reader's slices either way.\n"
"- With `fairness=1` the random reader keeps its window and CFQ idles for it; its think "
"time is short, so the knob changes nothing there either.",
		.kind = IOS_REPRO_RW,
		.columns = a3_columns,
		.nr_seeds = 1,
		.checks = a3_checks,
		.nr_checks = RP_N(a3_checks),
	},
	{
		.name = "m1",
		.title = "M1: a QD1 random reader beside four random writers on ssd-nvme",
		.jobfile = "examples/blk-mq/qd1-reader-writers.fio",
		.criteria_doc = MQ_DOC,
		.thread =
"Issue 29: \"why a QD1 reader's p99 explodes beside a writer\", and which of today's "
"schedulers helps, on a filled NVMe drive under mixed reads and writes.",
		.argued =
"The four writers keep 128 requests outstanding and the scheduler tags (256) and the "
"driver tags hold them all. Under `none` nothing orders the reader's request: it waits "
"behind the writes in the device (M1.1). mq-deadline hands every request on as it comes "
"when tags are free, so it should be none (M1.2). Kyber shrinks the write domain's "
"tokens only when some domain misses its latency target (M1.3, on the reader's device "
"latency under none). BFQ serves the reader's sync queue in its turn and limits what "
"the writers have outstanding, at a cost in throughput on flash (M1.4).",
		.setup =
"One reader (`randread`, 4 KiB, psync, queue depth 1) and four writers (`randwrite`, "
"4 KiB, libaio, queue depth 32), all O_DIRECT and best effort, 10 s on `ssd-nvme`, "
"seeds 1-5; criteria apply to the median. `p99_alone` is the reader's p99 when it runs "
"alone under `none`, with the same seed.",
		.learned =
"- The document's own hand-run table (docs/blk-mq-scenarios.md, \"Results as they "
"came\") is kept as history; this section is the runs of the code as it is.\n"
"- Where a criterion misses, its explanation names the mechanism the document's "
"analysis gives and the counter above that shows it; nothing here was tuned to pass.",
		.kind = IOS_REPRO_MQ_LAT,
		.columns = m1_columns,
		.nr_seeds = 5,
		.alone = true,
		.alone_column = "none",
		.checks = m1_checks,
		.nr_checks = RP_N(m1_checks),
	},
	{
		.name = "m2",
		.title = "M2: mq-deadline's RT class against BE readers on hdd-2009",
		.jobfile = "examples/blk-mq/rt-vs-be-readers.fio",
		.criteria_doc = MQ_DOC,
		.thread =
"Issue 29: mq-deadline's three priority classes, the strict class order that waits "
"while a higher class has requests in flight, and `prio_aging_expire`.",
		.argued =
"mq-deadline serves the RT class first while it has a request queued or in flight "
"(`dd_queued`), so the BE readers should get little (M2.1); a BE request older than "
"`prio_aging_expire` (10 s) is served anyway, so none starves (M2.2). `none` and kyber "
"read no ioprio: four equal shares (M2.3). 6.6's priority code is 6.12's; the releases "
"differ in `async_depth`, which no reader uses (M2.4).",
		.setup =
"One RT reader (`prioclass=1`) and three BE readers, each 4 KiB random reads at queue "
"depth 1 (psync, O_DIRECT), 30 s on the default 2009 SATA disk with NCQ, seeds 1-5. "
"M2.4 is read as the document's hand run read it: M2.1's and M2.2's criteria get the "
"same verdicts under `mq-deadline-6.6` as under `mq-deadline`.",
		.learned =
"- The RT reader is the job file's first job; \"the other jobs\" are the BE readers.\n"
"- A MISS is explained by the mechanism the document's analysis gives; the counters "
"above are mq-deadline's own.",
		.kind = IOS_REPRO_MQ_IOS,
		.columns = m2_columns,
		.nr_seeds = 5,
		.checks = m2_checks,
		.nr_checks = RP_N(m2_checks),
		.plot_by = IOS_PLOT_BY_CLASS,
	},
	{
		.name = "m3",
		.title = "M3: BFQ 6.12 against BFQ 4.19 on the seed-000 case (A1)",
		.jobfile = "examples/seeds/a1-four-dd-readers.fio",
		.base = "a1",
		.criteria_doc = MQ_DOC,
		.thread =
"Issue 29: BFQ 6.12 against the 4.19 profile the seeds' reports were made with, on "
"Vivek Goyal's four dd readers (A1).",
		.argued =
"Sequential readers on a rotational disk: injection, wakers and stable merge should not "
"act (no idling on a seeky queue, no I/O started within 4 ms of another's completion "
"three times, queues not created within 600 ms of one another, except at start-up, "
"where stable merge may act: its counter is reported). So A1's criteria for `bfq` "
"should give the same verdicts under `bfq-6.12` (M3.1) and each reader's throughput "
"should stay within 10 % (M3.2).",
		.setup =
"A1's job file, options, disk, filesystem (ext3: `lab.fs=ext3`, since blk-mq runs default to "
"ext4) and seeds 1-5, under `bfq-6.12` on the blk-mq layer; "
"`bfq` (4.19, the single-queue layer) and the first reader alone under `noop` are A1's "
"own runs in this report.",
		.learned =
"- M3.1 compares verdicts, not numbers: the table of the compared criteria gives both "
"values.\n"
"- BFQ 6.12's counters above say which of its newer mechanisms acted (stable merge, "
"injection, wakers).",
		.kind = IOS_REPRO_MQ_VS,
		.columns = m3_columns,
		.nr_seeds = 5,
		.checks = m3_checks,
		.nr_checks = RP_N(m3_checks),
	},
	{
		.name = "m4-a1",
		.title = "M4 (A1): the seed-000 experiment under today's schedulers",
		.jobfile = "examples/seeds/a1-four-dd-readers.fio",
		.base = "a1",
		.criteria_doc = MQ_DOC,
		.thread =
"Issue 29: the seeds' experiments under the blk-mq schedulers, so the old threads' "
"questions are answered for today's kernels. A1 is Vivek Goyal's four dd readers.",
		.argued =
"`none`, `mq-deadline` and kyber keep no per-process state, and mq-deadline's batches "
"are 2.6 deadline's: every criterion should get the verdict `noop` (for none and kyber) "
"or `deadline` (for mq-deadline) gets on the single-queue layer (M4.1). BFQ 6.12's "
"per-process scheduling is the 4.19 code; what differs does not act on these "
"workloads, so each criterion should get `bfq`'s verdict (M4.2).",
		.setup =
"A1's job file, options, disk, filesystem (ext3: `lab.fs=ext3` on the blk-mq columns, "
"which default to ext4) and seeds 1-5. \"Each criterion\" is every distinct "
"criterion of A1 (each measure, reference and bounds once, whichever column A1 wrote "
"it for), evaluated on the blk-mq column and on its single-queue counterpart; the "
"counterparts, A1's references and the first reader alone are A1's runs in this "
"report.",
		.learned =
"- A criterion written for CFQ (a finish spread of at least 25 %) says here only "
"whether the blk-mq scheduler behaves as its single-queue counterpart; the verdict "
"itself is about CFQ's question.",
		.kind = IOS_REPRO_MQ_VS,
		.columns = m4_columns,
		.nr_seeds = 5,
		.checks = m4_checks,
		.nr_checks = RP_N(m4_checks),
	},
	{
		.name = "m4-b1",
		.title = "M4 (B1): the seed-001 experiment under today's schedulers",
		.jobfile = "examples/seeds/b1-sync-reader-writer.fio",
		.base = "b1",
		.criteria_doc = MQ_DOC,
		.thread =
"Issue 29: the seeds' experiments under the blk-mq schedulers. B1 is Jens Axboe's "
"sync reader against a sync writer (2004).",
		.argued =
"As for A1 (M4.1, M4.2): `none` and kyber should get `noop`'s verdicts, `mq-deadline` "
"`deadline`'s and `bfq-6.12` `bfq`'s on every criterion of B1.",
		.setup =
"B1's job file, options, disk, filesystem (ext3: `lab.fs=ext3` on the blk-mq columns) and "
"seed 1 (B1 runs one seed). \"Each criterion\" is every "
"distinct criterion of B1, evaluated on the blk-mq column and on its single-queue "
"counterpart; the counterparts and B1's reference `as` are B1's runs in this report.",
		.learned =
"- As for A1: a criterion written for AS or CFQ says here only whether the blk-mq "
"scheduler behaves as its single-queue counterpart.",
		.kind = IOS_REPRO_MQ_VS,
		.columns = m4_columns,
		.nr_seeds = 1,
		.checks = m4_checks,
		.nr_checks = RP_N(m4_checks),
	},
	{
		.name = "v2-c1",
		.title = "C1 (cgroup v2): io.weight 500:100 under io.cost on ssd-nvme",
		.jobfile = "examples/cgroup-v2/c1-weights-500-100.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C1 of docs/cgroup-v2-plan.md §10 (issue 30), the ssd-nvme rows: "
"C1.1-C1.3 (io.cost), C1.6 (bfq-6.12's io.bfq.weight), C1.8 on ssd-nvme (systemd's "
"IOWeight under bfq-6.12) and C1.9 (io.weight under mq-deadline-6.12 without io.cost). "
"The cloud rows (C1.4, C1.5, C1.7, C1.8 on cloud) are `v2-c1-cloud`, with their own "
"agg_none.",
		.argued =
"Two groups of four 4 KiB random readers at QD16 with io.weight 500 and 100 under "
"io.cost (`enable=1`, `ctrl=auto`: the SSD_DFL parameters on a non-rotational queue). "
"The plan predicts three phases: first both groups are vtime-bound at SSD_DFL's cost "
"(1/8518 s a read at vrate 100 %) and share by hweight (5/6 for a) far below the "
"device; then vrate climbs period by period until it has been at least 500 % for "
"AUTOP_CYCLE_NSEC and autop switches to SSD_FAST; then, with SSD_FAST's model above "
"the device, weights barely act. bfq-6.12 with io.bfq.weight 500:100 idles for the "
"groups' guarantees, so one queue (16 in flight) is served at a time: a near 5/6, the "
"aggregate well below the device. systemd's IOWeight=500 gives BFQ 136:100. io.weight "
"alone is io.cost's file: mq-deadline reads no weight, so the shares stay even and the "
"run says so once.",
		.setup =
"ssd-nvme, 40 s, seeds 1-5 (criteria on the median). The baseline agg_none is "
"the same jobs without a controller under `none` (the first column); the other columns "
"each name their scheduler and cgroup files. Rows without a window in the plan "
"(C1.6, C1.8, C1.9) are read over the whole run. The windows are read "
"from the run's bytes per cgroup in 10 ms buckets; the switch from io.cost's monitor "
"(`iosched.iocost`): the period's length changes from SSD_DFL's 50 ms to SSD_FAST's "
"10 ms.",
		.learned =
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.\n"
"- C1.6's aggregate: the plan read bfq-6.12 as serving one job's queue (16 in flight) "
"at a time. On a non-rotational queue with command queueing, 6.12 merges a new sync "
"queue at once into the group's last queue created within the burst interval "
"(`bfq_do_or_sched_stable_merge`, `bfq_do_early_stable_merge`): each group's four jobs "
"become one queue (BFQ's `queue_merges` counter above: 6 of 8 queues, all stable merges), so the queue in "
"service has 64 in flight and the device runs near its QD64 rate. Idling still holds "
"the other group off while the queue in service has requests in flight "
"(`idling_needed_for_service_guarantees`: weights differ), which is why a's share "
"holds; the criterion misread which queues exist, not the idling.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg1_columns,
		.nr_seeds = 5,
		.checks = ios_rp_cg1_checks,
		.nr_checks = RP_N(ios_rp_cg1_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-c2",
		.title = "C2 (cgroup v2): io.max rbps beside an unlimited group on ssd-nvme",
		.jobfile = "examples/cgroup-v2/c2-io-max-rbps.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C2 of docs/cgroup-v2-plan.md §10 (issue 30), rows C2.1 and C2.2. "
"C2.3 (riops=10 and the jiffy rounding) is `v2-c2-riops`, C2.4 (io.max rewritten "
"mid-run through exec_prerun) `v2-c2-rewrite`: each has its own job file.",
		.argued =
"Four sequential 128 KiB readers at QD4 in `lim` with io.max rbps=20971520 beside four "
"in `free` without a limit. blk-throttle gives lim its allowance by elapsed slices "
"and trims it after each dispatch, so lim should hold 20 MiB/s while free keeps "
"nearly its rate alone; how bursty lim is depends on the slice: 6.12 admits "
"limit × 20 ms at the start of a fresh slice on flash, 6.6 limit × 100 ms.",
		.setup =
"`none`, ssd-nvme, 30 s, seeds 1-5 (criteria on the median); io.max is written on the "
"command line of the second and third columns, the third also sets `lab.kernel=6.6` "
"(blk-throttle's 6.6 profile); the first column has no limit. free's rate alone: the "
"job file's first job (free) run alone under `none`, same seed. The 10 ms bins are the run's series "
"buckets.",
		.learned =
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg2_columns,
		.nr_seeds = 5,
		.alone = true,
		.alone_column = "none",
		.checks = ios_rp_cg2_checks,
		.nr_checks = RP_N(ios_rp_cg2_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-c1-cloud",
		.title = "C1 (cgroup v2): io.weight 500:100 on the cloud volume",
		.jobfile = "examples/cgroup-v2/c1-weights-500-100-cloud.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C1 of docs/cgroup-v2-plan.md §10 (issue 30), the cloud rows: C1.4 "
"(io.cost ctrl=auto), C1.5 (io.cost ctrl=user with 90th percentiles of 5 ms), C1.7 "
"(bfq-6.12's io.bfq.weight) and C1.8 on cloud (systemd's IOWeight under bfq-6.12). "
"The ssd-nvme rows are `v2-c1`.",
		.argued =
"C1's groups on a gp3-like volume (3000 IOPS, 1 ms). io.cost's SSD_DFL model believes "
"8518 IOPS; the volume queues inside the provider, so no tag wait, and under auto the "
"latency targets are off: weights barely act, vrate stays near 100 % and autop never "
"switches (C1.4). With user QoS (p90 of 5 ms) the ~43 ms latencies make periods busy, "
"vrate falls until both groups are vtime-bound near the device rate and share by weight "
"(C1.5). bfq-6.12 serves one queue at a time, and 16 in flight already saturate the "
"volume: a near 5/6 at full rate (C1.7); systemd's IOWeight=500 gives BFQ 136:100 "
"(C1.8).",
		.setup =
"`--device cloud`, C1's jobs (40 s), seeds 1-5 (criteria on the median). agg_none is "
"the same jobs on the same volume without a controller under `none` (the first "
"column): the ssd-nvme baseline says nothing about the volume. The plan's rows here "
"give no window: each is read over the whole run. vrate at the end and the class "
"switch come from io.cost's monitor (`iosched.iocost`).",
		.learned =
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.\n"
"- C1.5: the plan expected vrate to settle where the groups are vtime-bound near the "
"volume's rate. 6.12's law has no such point here: `ioc_timer_fn` adds one to "
"busy_level for each period that misses the p90 target and `ioc_adjust_base_vrate` "
"cuts vrate by `vrate_adj_pct[|busy_level|]`; the target is met again only once the "
"provider's queue (up to 128 reads, ~43 ms) has drained, many periods after vrate fell "
"below the volume's rate, and then busy_level counts down the same bands. io.cost's "
"monitor shows the cycle (busy_level from about +48 to -55, vrate between a few % and "
"about 50 %): the aggregate is its mean vrate times SSD_DFL's 8518 IOPS, and in the "
"half-cycles above the volume's rate a's reads wait in the volume's queue, so b's share "
"grows. The lab's busy test and bands are 6.12's; a real volume adds jitter, not "
"damping.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg1c_columns,
		.nr_seeds = 5,
		.checks = ios_rp_cg1c_checks,
		.nr_checks = RP_N(ios_rp_cg1c_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-c2-riops",
		.title = "C2.3 (cgroup v2): io.max riops=10 on a psync reader, by jiffy and release",
		.jobfile = "examples/cgroup-v2/c2-riops-psync.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C2 of docs/cgroup-v2-plan.md §10 (issue 30), row C2.3.",
		.argued =
"One 4 KiB random reader at queue depth 1 in a group with io.max riops=10. With "
"lab.hz=250, 6.12's 20 ms slice on flash earns 10 × 5 / 250 = 0.2 I/Os, which rounds "
"to 0, so each I/O waits the floor HZ/iops + 1 = 26 jiffies (104 ms): 9.5-9.8 IOPS. "
"6.6 has no such floor and a 100 ms slice (one whole I/O): 9.95-10.1. At lab.hz=1000 "
"the floor is 101 ms: 9.9-10.05.",
		.setup =
"`none`, ssd-nvme, 30 s, seeds 1-5 (criteria on the median); io.max, lab.hz and "
"lab.kernel are written in each column. The rate is the group's completed I/Os over the "
"run's length.",
		.learned =
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg2r_columns,
		.nr_seeds = 5,
		.checks = ios_rp_cg2r_checks,
		.nr_checks = RP_N(ios_rp_cg2r_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-c2-rewrite",
		.title = "C2.4 (cgroup v2): io.max rewritten mid-run through exec_prerun",
		.jobfile = "examples/cgroup-v2/c2-io-max-rewrite.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C2 of docs/cgroup-v2-plan.md §10 (issue 30), row C2.4.",
		.argued =
"C2's groups with lim at rbps=20971520; a stonewalled phase's lim jobs write "
"rbps=41943040 through exec_prerun when they start. blk-throttle's write handler "
"(tg_conf_updated) keeps what the old limit earned (tg_update_carryover) and restarts "
"the slices, so lim should read at 40 MiB/s within 0.5 s.",
		.setup =
"`none`, ssd-nvme, two phases of 10 s (fio's stonewall: the second starts when every "
"job of the first has finished, its last requests included), seeds 1-5 (criteria on the "
"median). The first limit is written on the command line, the second by the second "
"phase's lim jobs (each clone writes it as it starts, as fio's threads would).",
		.learned =
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg2w_columns,
		.nr_seeds = 5,
		.checks = ios_rp_cg2w_checks,
		.nr_checks = RP_N(ios_rp_cg2w_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-c3",
		.title = "C3 (cgroup v2): io.latency protecting a QD1 reader on ssd-nvme",
		.jobfile = "examples/cgroup-v2/c3-io-latency-qd1.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C3 of docs/cgroup-v2-plan.md §10 (issue 30), rows C3.1-C3.3.",
		.argued =
"A 4 KiB random reader with one I/O at a time in `fg` beside four 4 KiB random writers "
"at iodepth 32 in its sibling `bg`. Without a controller the reader queues behind 128 "
"writes. With io.latency target T on fg (T twice its p90 alone), every 100 ms window in "
"which fg misses T lowers its parent's cookie, and bg (no target, so always a victim) "
"halves its depth from the queue's depth, one step per 500 ms at most, until fg meets "
"T.",
		.setup =
"`none`, ssd-nvme, 30 s, seeds 1-5 (criteria on the median). fg alone (the job file's "
"first job, same seed, under `none`) gives p90_alone and T; the second column writes "
"io.latency target=150 (µs) for fg, and the first check says whether that is still "
"the T of these runs. fg's p90 over a window comes from its completions per whole "
"second (histograms, as fio's percentiles); bg's depth changes from io.latency's "
"report (JSON `latency_depths` of the cgroup, the run's io.latency note). C3.2 and "
"C3.3 apply only when C3.1 holds (else the target is already met).",
		.learned =
"- C3.2's MISS is the device model, not io.latency: bg ends at depth 1 and 6.12 adds "
"delay only for issue-as-root bios (iolatency_record_time), so one direct write stays "
"in flight; each programs a page for ssd-nvme's 700 µs tPROG and the model has no "
"program suspend, so a read that lands on a programming die waits for it (fg's p90 "
"near one tPROG).\n"
"- C3.3's MISS is the criterion's arithmetic: scale_change halves from nr_requests "
"(1023 under `none` on NVMe), so 127 is three halvings (0.1, 0.6, 1.1 s), not four.\n"
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg3_columns,
		.nr_seeds = 5,
		.alone = true,
		.alone_column = "none",
		.checks = ios_rp_cg3_checks,
		.nr_checks = RP_N(ios_rp_cg3_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-w1",
		.title = "W1 (cgroup v2): a buffered writer under io.max wbps beside free readers",
		.jobfile = "examples/cgroup-v2/w1-buffered-wbps.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario W1 of docs/cgroup-v2-plan.md §10 (issue 30, item 8's picture).",
		.argued =
"A buffered sequential writer in `w` with io.max wbps=20971520 beside C2's four "
"unlimited readers in `free`. Its writes land in the page cache at memory speed "
"(the submit side) while its wb's flusher writes them at the io.max rate (the device "
"side), until the global dirty pages pass the freerun ceiling and 6.x "
"balance_dirty_pages paces the writer to its wb's measured write bandwidth.",
		.setup =
"`none`, ssd-nvme, ext4 (lab.fs=auto on blk-mq), 30 s, seeds 1-5 (criteria on the "
"median). The sides are the run's per-cgroup series (`--plot-by cgroup`: bytes its "
"tasks' calls completed, and bytes of requests charged to it completed by the "
"device), in 10 ms buckets, read over 1 s and 5 s windows up to the 30 s runtime. "
"When dirty memory passed the freerun ceiling is the run's JSON `vm_stats` "
"`over_freerun_ns` (the first balance_dirty_pages that found it above).",
		.learned =
"- The submit side's MISS is the criterion reading freerun as the start of pacing at "
"the wb's rate: above freerun 6.x paces at dirty_ratelimit × pos_ratio, and "
"dirty_ratelimit starts at INIT_BW (100 MiB/s), re-estimated every 200 ms, so the "
"first 5 s window after the crossing is over 25 %; each later second is at 19-20 "
"MiB/s.\n"
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cgw1_columns,
		.nr_seeds = 5,
		.checks = ios_rp_cgw1_checks,
		.nr_checks = RP_N(ios_rp_cgw1_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-c4a",
		.title = "C4 baselines (cgroup v2): a dsync dd alone on ext4, in a child cgroup and in the root",
		.jobfile = "examples/cgroup-v2/c4-dsync-dd-alone.fio",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C4 of docs/cgroup-v2-plan.md §10 (issue 30): its baselines "
"(lat_alone per scheduler) and row C4.4.",
		.argued =
"A 4 KiB O_DSYNC dd appending to a new file on ext4: each write allocates, so "
"ext4_sync_file waits for a jbd2 commit of the transaction that holds the allocation "
"and the conversion. Under bfq-6.12 a dd in a child group beside jbd2 (root group) "
"makes two groups with pending requests: bfq_asymmetric_scenario holds, so BFQ idles "
"on dd's queue while dd waits for the commit, until jbd2 is recorded as dd's waker "
"and injected; in the root nothing is asymmetric and nothing idles.",
		.setup =
"ssd-nvme, ext4 (lab.fs=auto on blk-mq), 20 s per dd, seeds 1-5 (criteria on the "
"median). The first job is dd in `app`; after it (stonewall) the same dd in the root "
"cgroup writes a file of its own. Per-I/O latencies of each job's first three writes "
"and the mean of the later ones are taken at completion (the run's io_done hook).",
		.learned =
"- C4.4's first-writes MISS is not explained yet: the root dd's first three writes are "
"the slower ones (by 19.9 ms at least). It starts after app's 20 s (stonewall), so it "
"does not start from the state app's dd started from; per-write traces of both first "
"seconds are needed. The later writes hold (1.01 × the root's).\n"
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg4_columns,
		.nr_seeds = 5,
		.checks = ios_rp_cg4a_checks,
		.nr_checks = RP_N(ios_rp_cg4a_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
	{
		.name = "v2-c4",
		.title = "C4 (cgroup v2): a dsync dd in a child cgroup beside a direct reader on ext4",
		.jobfile = "examples/cgroup-v2/c4-dsync-dd.fio",
		.base = "v2-c4a",
		.criteria_doc = CG_DOC,
		.thread =
"No thread: scenario C4 of docs/cgroup-v2-plan.md §10 (issue 30), rows C4.1-C4.3 "
"(C4.4 is v2-c4a's). C4.3's attribution (\"the timeline attributes most of dd's "
"journal wait to batch's queue\") is not evaluated: the timeline has no journal-wait "
"band (a task's wait for a jbd2 commit is not recorded as a cause), so it cannot "
"attribute that wait to any queue. C4.5 is not run yet.",
		.argued =
"dd (4 KiB O_DSYNC appends in `app`) beside one sequential 128 KiB direct reader at "
"iodepth 8 in `batch`. Each write is a data write, an unwritten conversion at its "
"completion and a jbd2 commit (log blocks, then a PREFLUSH|FUA commit block). The "
"plan expected none, mq-deadline and kyber to let jbd2's sync writes pass in their "
"turn (dd near its latency alone) and bfq-6.12 to make jbd2 (root group) and dd "
"(app) wait for batch's whole budgets, twice per write.",
		.setup =
"ssd-nvme, ext4 (lab.fs=auto on blk-mq), 20 s, seeds 1-5 (criteria on the median). "
"lat_alone is v2-c4a's first job (dd alone in `app`) under the same scheduler and "
"seed. The per-write costs are the run's jbd2 counters (JSON `jbd2`: conversions, "
"commits, commit_blocks, log and descriptor blocks) and app's completed write "
"requests (the cgroup's `blk_ios`) over dd's completed writes.",
		.learned =
"- C4.2's MISS is the criterion pricing jbd2's turn at nothing: none, mq-deadline and "
"kyber hold nothing (they agree, 2.0-2.1 × lat_alone), and each of dd's three serial "
"requests (data, log, commit block) shares ssd-nvme with batch's 1 MiB in flight, "
"about 0.5 ms each.\n"
"- C4.3's MISS is the criterion leaving out 6.12's idling and injection: three groups "
"are asymmetric (bfq_asymmetric_scenario), BFQ idles on dd's queue and injects jbd2's "
"writes once jbd2 is dd's waker (idle_windows and injected in the counters), so dd "
"stays at 1.04 × lat_alone and batch is the one that waits (130 MiB/s).\n"
"- docs/cgroup-v2.md, \"Scenarios\", has the verdicts and what each taught.",
		.kind = IOS_REPRO_CGV2,
		.columns = ios_rp_cg4_columns,
		.nr_seeds = 5,
		.checks = ios_rp_cg4_checks,
		.nr_checks = RP_N(ios_rp_cg4_checks),
		.plot_by = IOS_PLOT_BY_CGROUP,
	},
};

const size_t ios_repro_nr_experiments = RP_N(ios_repro_experiments);

#undef RP_N
#undef MQ_DOC
#undef CG_DOC
