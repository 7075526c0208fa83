/*
 * Results of a run, in the shape fio reports them.
 *
 * The runner fills a struct ios_run_result; the report writers (text.c,
 * json.c) only read it. Latencies go into fio's log-linear histogram (6 bits
 * per power-of-two group, 29 groups, 1856 buckets, exact below 128 ns) so
 * that percentiles come out the way fio computes them. Means and standard
 * deviations use Welford's running update, as fio's stat code does.
 */
#ifndef IOSCHED_STATS_H
#define IOSCHED_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "job.h"
#include "sched.h"
#include "vfs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_PLAT_BITS 6
#define IOS_PLAT_VAL (1u << IOS_PLAT_BITS)
#define IOS_PLAT_GROUP_NR 29
#define IOS_PLAT_NR (IOS_PLAT_GROUP_NR * IOS_PLAT_VAL)

/*
 * fio's IOS_PLAT_NR buckets, kept sparsely. A histogram starts as a short
 * list of its non-empty buckets in bucket order, IOS_PLAT_FEW at most, each
 * one 8-byte word (the bucket in the top 11 bits, its count below): a job of
 * a few dozen requests holds only that, a few hundred bytes, where one group
 * per power of two and the table of groups came to 750-1300 bytes per
 * latency, per job. With more buckets than that (or a count near 2^53) it
 * becomes the table of groups of IOS_PLAT_VAL buckets, a group allocated at
 * its first sample: a job's latencies span a few powers of two, so it holds
 * two or three of the 29 groups (1.5 KB rather than 14.5 KB). A direction
 * without I/O holds nothing. Read it with ios_lat_bucket() and
 * ios_lat_next_bucket().
 */
#define IOS_PLAT_FEW 32
#define IOS_PLAT_FEW_SHIFT 53
struct ios_plat {
	uint64_t **grp;		/* IOS_PLAT_GROUP_NR groups; NULL while a list */
	uint32_t nr, cap;	/* the list's entries and room */
	uint64_t few[];		/* bucket << IOS_PLAT_FEW_SHIFT | count, by bucket */
};

/* A latency statistic (slat, clat or lat) with an optional histogram. */
struct ios_lat_stat {
	uint64_t n;
	uint64_t min, max;	/* ns */
	double mean, m2;	/* Welford */
	struct ios_plat *plat;	/* the buckets, allocated with the first sample */
	bool hist;		/* buckets are kept (ios_lat_enable_hist) */
	bool hist_lost;		/* a bucket could not be allocated: percentiles are wrong */
};

/* A sampled statistic (bw in KiB/s, iops). */
struct ios_sample_stat {
	uint64_t n;
	double min, max;
	double mean, m2;
};

void ios_lat_init(struct ios_lat_stat *s);
int ios_lat_enable_hist(struct ios_lat_stat *s) IOS_MUST_CHECK;
/*
 * Adds a sample. When the histogram's group cannot be allocated the sample
 * still counts in n/min/max/mean, and hist_lost is set for the caller that
 * reports (ios_run_collect fails the run with ENOMEM).
 */
void ios_lat_add(struct ios_lat_stat *s, uint64_t ns);
/* Parallel Welford combination; histograms add only when both have one. */
int ios_lat_merge(struct ios_lat_stat *dst, const struct ios_lat_stat *src) IOS_MUST_CHECK;
/* Allocates in @dst every group @src holds, so that merging it cannot fail. */
int ios_lat_reserve(struct ios_lat_stat *dst, const struct ios_lat_stat *src) IOS_MUST_CHECK;
/* Back to no samples, keeping whether a histogram is kept (fio's reset_all_stats). */
void ios_lat_reset(struct ios_lat_stat *s);
void ios_lat_free(struct ios_lat_stat *s);
/* Bucket @idx's count; adding @count to it (the JSON reader's bins) */
uint64_t ios_lat_bucket(const struct ios_lat_stat *s, unsigned idx);
int ios_lat_add_bucket(struct ios_lat_stat *s, unsigned idx, uint64_t count) IOS_MUST_CHECK;
/* The first non-empty bucket at or after @idx, or IOS_PLAT_NR */
unsigned ios_lat_next_bucket(const struct ios_lat_stat *s, unsigned idx);
double ios_lat_stddev(const struct ios_lat_stat *s);
void ios_sample_add(struct ios_sample_stat *s, double v);
/* Statistically combine two sample sets (parallel Welford), as for lat. */
void ios_sample_merge(struct ios_sample_stat *dst, const struct ios_sample_stat *src);
double ios_sample_stddev(const struct ios_sample_stat *s);
/*
 * A zeroed struct is a valid empty statistic for both kinds (min/max are
 * taken from the first sample); the init functions just zero.
 */
void ios_sample_init(struct ios_sample_stat *s);
/*
 * fio's group_reporting sum of bw/iops samples: n, min, max, mean and m2
 * each add up (the group's bw is the sum of its jobs' bw, not their mean).
 */
void ios_sample_sum(struct ios_sample_stat *dst, const struct ios_sample_stat *src);

/* fio's bucket mapping */
unsigned ios_plat_val_to_idx(uint64_t val);
uint64_t ios_plat_idx_to_val(unsigned idx);
/*
 * Percentiles the way fio computes them from the histogram. @pcts holds
 * @nr percentiles (e.g. 1.0, 5.0, ... 99.99); values go to @out (ns).
 * Returns the number computed (0 when the histogram is empty).
 */
unsigned ios_lat_percentiles(const struct ios_lat_stat *s, const double *pcts, unsigned nr,
			     uint64_t *out);
/* fio's default percentile list: 1,5,10,20,30,40,50,60,70,80,90,95,99,99.5,99.9,99.95,99.99 */
extern const double ios_default_percentiles[];
extern const unsigned ios_nr_default_percentiles;

enum { IOS_DDIR_READ = 0, IOS_DDIR_WRITE = 1, IOS_DDIR_TRIM = 2, IOS_DDIR_NR = 3 };
/* the directions struct ios_job_result keeps in dir[]: reads and writes */
#define IOS_DDIR_RW_NR 2

/*
 * What the writers print follows from the data, as in fio: a latency line
 * only for a stat with samples (leave slat empty for sync engines), a
 * percentile block only for a stat with a histogram (enable clat's for
 * clat_percentiles, lat's for lat_percentiles, ...), a direction only with
 * bytes and runtime_ns of at least 1 us.
 */
struct ios_dir_result {
	uint64_t io_bytes;
	uint64_t total_ios;
	uint64_t short_ios, drop_ios;
	uint64_t runtime_ns;		/* the job's runtime if it did I/O in this direction, else 0 */
	/* clat and lat, which every request adds to, right after the counts (issue 34) */
	struct ios_lat_stat clat, lat;
	struct ios_sample_stat bw;	/* KiB/s per bwavgtime window */
	struct ios_sample_stat iops;	/* per iopsavgtime window */
	struct ios_lat_stat slat;	/* async engines only */
};

/* depth histograms: fio's buckets */
#define IOS_NR_DEPTH_BUCKETS 7		/* 1,2,4,8,16,32,>=64 */
#define IOS_NR_BATCH_BUCKETS 7		/* 0,4,8,16,32,64,>=64 */
#define IOS_NR_LAT_N 10			/* 2,4,10,20,50,100,250,500,750,1000 (ns) */
#define IOS_NR_LAT_U 10			/* same, us */
#define IOS_NR_LAT_M 12			/* same, ms, plus 2000, >=2000 */

/*
 * A job's steady-state detection (steadystate_duration=) at its end, as
 * fio's thread_stat keeps it: the criterion's bits (job.h's IOS_SS_* with
 * IOS_SS_ATTAINED and IOS_SS_BUFFER_FULL), the window of 1-second samples
 * (bytes/s and IOPS) with its head, and the last values computed.
 */
struct ios_ss_result {
	unsigned state;
	unsigned dur;			/* samples in the window (seconds) */
	unsigned head;
	double limit, slope, deviation, criterion;
	uint64_t *bw, *iops;		/* dur each */
};

struct ios_job_result {
	/*
	 * What each request counts, first and together (issue 34: with
	 * 10,000 jobs each cache line here is a miss per request): the
	 * sleeps, the depth and batch buckets, the latency buckets, then the
	 * directions.
	 */
	uint64_t ctx;			/* context switches: times the task slept */
	uint64_t nr_lat_samples;	/* total of the three bucket arrays */
	uint64_t io_depth[IOS_NR_DEPTH_BUCKETS];
	uint64_t io_submit[IOS_NR_BATCH_BUCKETS];
	uint64_t io_complete[IOS_NR_BATCH_BUCKETS];
	uint64_t lat_n[IOS_NR_LAT_N], lat_u[IOS_NR_LAT_U], lat_m[IOS_NR_LAT_M];
	/*
	 * Reads and writes. fio's third direction, trims, only for a job that
	 * trims (ios_job_trim): most never do, and a run of 10,000 processes
	 * would hold 2.8 MB of empty ones. ios_job_dir() reads any direction,
	 * a job's missing trims as an empty one.
	 */
	struct ios_dir_result dir[IOS_DDIR_RW_NR];
	char *name;
	int groupid;
	int error;
	/*
	 * continue_on_error (or ignore_error) was set: fio then prints the
	 * errors the job counted (errors it went on after, and the one that
	 * stopped it) and the first one's errno.
	 */
	bool continue_on_error;
	uint64_t total_err;
	int first_error;
	unsigned nr_merged;		/* jobs folded in by group_reporting, 1 otherwise */
	uint32_t pid;
	const struct ios_job *job;	/* options as parsed (for "job options") */
	struct ios_dir_result *trim;	/* owned; NULL: no trims */
	/*
	 * The histograms a trim direction made later keeps (IOS_HIST_*): what
	 * the job's options ask of every direction (the runner sets it).
	 */
	uint8_t trim_hist;
	struct ios_lat_stat sync_lat;	/* fsync latencies */
	uint64_t sync_total_ios;
	uint64_t runtime_ns;		/* job_runtime: from the job's start to its end */
	uint64_t start_ns, finish_ns;	/* simulated times */
	uint64_t nr_zone_resets;	/* zonemode=zbd: zones the job reset (fio's write line) */
	bool cut_short;			/* stopped by lab.max_sim_time (or the clock's end)
					 * with work left: reported even without I/O */
	int ioprio_class, ioprio_level;	/* effective, for fairness tables */
	/*
	 * Disk time (ios_ioc): what the scheduler charged the job's own queue
	 * (0 under one without IOS_SCHED_CHARGES_TIME) and its share of the
	 * device's busy time; summed over group_reporting members.
	 */
	uint64_t disk_time_ns, device_time_ns;
	unsigned latency_depth;		/* latency_target's final depth; 0 = iodepth */
	const char *cgroup;		/* path, NULL = root */
	unsigned cgroup_weight;
	/* percentile list to print (from the job, or fio's default) */
	const double *pcts;
	unsigned nr_pcts;
	struct ios_ss_result *ss;	/* steady state, owned; NULL without steadystate_duration */
	int group_reporting;		/* fold into the previous entry of the group
					 * (ios_run_result_group); job->group_reporting
					 * counts too */
	/*
	 * blk-mq: what the cgroup v2 controllers and wbt held the job's I/O
	 * for (its ios_ioc.waits, enum ios_wait_cause); summed over
	 * group_reporting members. has_waits: a cgroup v2 run, reported.
	 */
	bool has_waits;
	struct ios_waits waits;
	/*
	 * The window of ios_run_config.window_from_ns (compare --from): the
	 * data I/O completed at or after it (and after ramp_time, as fio
	 * counts), its bytes, count, first completion and clat (histogram kept)
	 */
	struct ios_lat_stat win_clat;
	uint64_t win_bytes, win_ios, win_first_ns;
};

struct ios_disk_result {
	char name[16];
	uint64_t ios[2], merges[2], ticks_ms[2], sectors[2];
	uint64_t in_queue_ms;
	double util;			/* percent */
};

struct ios_series;	/* plot.h */
/*
 * One cgroup of the workload (fio cgroup=): what its tasks did and what the
 * scheduler charged to it. Filled only when the workload names a cgroup.
 */
struct ios_cgroup_result {
	char *path;			/* "" for the root group */
	unsigned weight_set;		/* cgroup_weight= as given, 0 = unset */
	/* io.weight as written (the device's, else "default"), 0 = never written (100) */
	unsigned io_weight;
	int ioprio_set;			/* cgroup.PATH.ioprio= as given, -1 = unset */
	unsigned nr_jobs;		/* tasks (job clones) in the group */
	uint64_t ios[IOS_DDIR_NR];	/* I/Os its jobs completed (fio's total_ios) */
	uint64_t io_bytes[IOS_DDIR_NR];
	uint64_t blk_ios[2], blk_sectors[2];	/* requests completed, block layer's count */
	bool has_sched;			/* the scheduler keeps groups: @sched is valid */
	struct ios_group_stats sched;	/* blkio.time, .sectors, .io_serviced, weight */
	/*
	 * Cgroup writeback (blk-mq, lab.cgroup_writeback): its wb's inodes,
	 * the pages of them written, how many of those were charged to
	 * another cgroup (wbc_account_cgroup_owner's foreign pages; the
	 * inode keeps its owner), and its flusher's passes. has_wb: it had a wb.
	 */
	bool has_wb;
	uint64_t wb_inodes, wb_pages, wb_foreign_pages, wb_passes;
	/*
	 * Cgroup v2 (blk-mq with a group tree; docs/cgroup-v2.md "Seeing
	 * it"): v2 says these are filled. What the controllers held its bios
	 * for (its blkg's waits), its settings in effect (io.weight of the
	 * device or its default; io.max, UINT64_MAX / UINT32_MAX: max; the
	 * io.latency target, 0: none; io.prio.class, enum ios_prio_policy),
	 * the longest runtime of its jobs (the IOPS and bandwidth divisor)
	 * and its jobs' completion latencies merged, by direction (owned).
	 */
	bool v2;
	struct ios_waits waits;
	unsigned v2_weight;
	uint64_t v2_bps[2];
	uint32_t v2_iops[2];
	uint64_t v2_lat_target_ns;
	int v2_prio_policy;
	uint64_t runtime_ns;
	struct ios_lat_stat clat[2];
	/*
	 * io.latency's first depth changes of the group (ios_iolat_depths:
	 * blk-iolatency.c scale_change / check_scale_change, 6.12), when each
	 * happened and the depth it set (UINT_MAX: unlimited); the run's
	 * io.latency note prints the same.
	 */
	unsigned v2_lat_nr_depths;
	uint64_t v2_lat_depth_at_ns[12];
	unsigned v2_lat_depth[12];
};

/* One of the scheduler's own counters (its stats table). Declared at file scope for C++. */
struct ios_sched_stat {
	char name[32];
	int64_t value;
};

/*
 * A blk-mq queue's shape and what each hardware context did (not fio's:
 * under "iosched" in the JSON report). Filled only on blk-mq runs.
 */
struct ios_mq_result {
	unsigned nr_hw_queues;		/* hardware contexts (min(device queues, lab.cpus)) */
	unsigned nr_cpus;		/* software contexts (lab.cpus) */
	unsigned hw_queue_depth;	/* driver tags per hardware context */
	unsigned nr_requests;		/* scheduler tags per hardware context (queue/nr_requests) */
	bool elevator;			/* a scheduler sits in front ('none': false) */
	unsigned *cpu_hctx;		/* [nr_cpus]: the hardware context of each CPU */
	uint64_t *hctx_dispatched;	/* [nr_hw_queues]: requests issued to the device */
	uint64_t direct_issues, requeues, busy;	/* direct issue (none), BUSY requeues, busy answers */
};

/*
 * io.cost's monitor (docs/cgroup-v2.md "Seeing it"): what the kernel's
 * tools/cgroup/iocost_monitor.py shows, taken at the end of each period of
 * ioc_timer_fn (Linux 6.12 block/blk-iocost.c) by
 * src/block/blk_iocost_monitor.c. Per period: when it ended, its length,
 * busy_level, vrate; per group active at its end, a sample. Memory is
 * bounded: at most @cap periods are kept; when full, every second one is
 * dropped and @stride doubles (period k is kept when k % stride == 0), so
 * the kept ones still span the whole run. The means and extremes cover
 * every period (nr_total), kept or not.
 */
struct ios_iocost_sample {
	bool active;			/* on the active list at the period's end */
	double hweight_active_pct, hweight_inuse_pct;
	double inflight_pct;		/* (vtime - done_vtime) / (period_us * vtime_rate) */
	double usage_pct;		/* usage_delta_us / period_us */
	double debt_ms;			/* abs_vdebt in ms of device time */
	int use_delay;			/* blkg use_delay */
	double delay_ms;		/* blkg delay_nsec when use_delay */
};

struct ios_iocost_period {
	uint64_t t_ns;			/* the timer's time */
	uint64_t seq;			/* 0, 1, ...: which period of the run */
	double period_ms;
	int busy_level;
	double vrate_pct;
};

struct ios_iocost_log {
	unsigned nr_groups;		/* the queue's blkgs, root first */
	char **paths;			/* [nr_groups], "" for the root */
	size_t cap, nr, stride;		/* kept periods: at most cap */
	uint64_t nr_total;		/* periods recorded */
	struct ios_iocost_period *periods;	/* [cap] */
	struct ios_iocost_sample *samples;	/* [cap * nr_groups] */
	/* over every period */
	double vrate_min, vrate_max, vrate_sum;
	uint64_t *g_periods;		/* [nr_groups] periods active at the end */
	double *g_hwa_sum, *g_hwi_sum, *g_usage_sum;	/* [nr_groups] over those */
	double *g_debt_max, *g_delay_max;	/* [nr_groups] */
	int err;			/* -ENOMEM: a sample was lost */
};
void ios_iocost_log_free(struct ios_iocost_log *l);

struct ios_run_result {
	struct ios_job_result *jobs;
	size_t nr_jobs;
	struct ios_cgroup_result *cgroups;	/* NULL unless the workload names cgroups */
	size_t nr_cgroups;
	char group_policy[32];		/* lab.group_policy in effect ("blkio") */
	/* blk-mq cgroup v2: io.cost.qos enable=1 on the root; io.weight written anywhere */
	bool iocost_enabled, io_weight_written;
	/* things the run ignored that the user asked for, one line each (cli prints them) */
	char **warnings;
	size_t nr_warnings;
	/*
	 * Per warning: 1 when fio 3.33 prints it too (a parser warning of
	 * fixup_options, an I/O error, a verify failure), 0 for the lab's own
	 * notes, which `iosched fio` writes into the report instead of stderr.
	 */
	uint8_t *warning_by_fio;
	struct ios_disk_result *disks;
	size_t nr_disks;
	const struct ios_jobfile *jobfile;
	/*
	 * fio's "NAME: Laying out IO file" lines (setup_files, fio 3.33): per
	 * job clone in order, the regular files it was the first to open that
	 * did not exist before the run (not /dev/, not lab.file_size's, not a
	 * filecreate job's, not fill_device's), and their bytes. Only clones
	 * with such files are listed; @job indexes jobfile->jobs.
	 */
	struct ios_layout_line {
		unsigned job;
		unsigned files;
		uint64_t bytes;
	} *layout;
	size_t nr_layout;
	char scheduler[64];
	char device[64];
	uint64_t seed;
	uint64_t sim_end_ns;
	/* disk time: does the scheduler charge processes; what the flusher had */
	bool sched_charges_time;
	uint64_t flusher_disk_time_ns, flusher_device_time_ns;
	uint64_t nr_events;
	uint64_t timestamp;		/* Unix seconds printed in headers (fixed for determinism) */
	struct ios_vfs_stats vm_stats;	/* page cache and writeback counters at the end */
	/*
	 * ext4's journal (lab.fs=ext4, src/fs/jbd2.c): commits by cause, log,
	 * descriptor and commit blocks written, unwritten conversions; valid
	 * with has_jbd2 (JSON "jbd2", printed only then).
	 */
	struct ios_jbd2_stats jbd2;
	bool has_jbd2;
	/* the scheduler's own counters at the end (its stats table), in table order */
	struct ios_sched_stat sched_stats[IOS_SCHED_STATS_MAX];
	size_t nr_sched_stats;
	struct ios_series *series;	/* per-job bytes over time; NULL unless record_series */
	struct ios_mq_result *mq;	/* the blk-mq queue; NULL on the single-queue layer */
	/*
	 * blk-mq: what blk-throttle, the rq_qos policies and the
	 * return-to-user delay held over the whole queue (q->qos_waits);
	 * has_wbt: writeback throttling was on the queue at the end.
	 */
	struct ios_waits qos_waits;
	bool has_wbt;
	/* io.cost's per-period monitor; NULL unless io.cost ran (owned) */
	struct ios_iocost_log *iocost;
};

void ios_run_result_free(struct ios_run_result *r);

/*
 * enum ios_wait_cause's names: as the text report prints them (the cgroup
 * file or policy: "io.max") and as JSON keys ("io_max").
 */
extern const char *const ios_wait_cause_names[IOS_WAIT_NR];
extern const char *const ios_wait_cause_keys[IOS_WAIT_NR];

/*
 * Helpers for whoever fills a result (src/report/stats.c).
 *
 * ios_job_result_init zeroes @j and sets nr_merged = 1; ios_job_result_free
 * frees what a job result owns (name, histograms), not the job or pcts.
 */
void ios_job_result_init(struct ios_job_result *j);
void ios_job_result_free(struct ios_job_result *j);
/*
 * Direction @d (IOS_DDIR_*) of @j: dir[d] for reads and writes, the trim
 * direction, or, for a job without one, an empty direction (no I/O, no
 * samples, no histograms).
 */
const struct ios_dir_result *ios_job_dir(const struct ios_job_result *j, int d);
/* The same for writing; NULL for the trim direction of a job without one. */
struct ios_dir_result *ios_job_dir_mut(struct ios_job_result *j, int d);
/* bits of trim_hist: the slat, clat and lat histograms are kept */
enum { IOS_HIST_SLAT = 1, IOS_HIST_CLAT = 2, IOS_HIST_LAT = 4 };
/*
 * @j's trim direction, made (empty, with trim_hist's histograms) if the
 * job has none yet. NULL: out of memory.
 */
struct ios_dir_result *ios_job_trim(struct ios_job_result *j);
/* A deep copy of @src into @dst (histograms, steady state): 0 or -ENOMEM (@dst then empty). */
int ios_job_result_copy(struct ios_job_result *dst, const struct ios_job_result *src) IOS_MUST_CHECK;
/* Count one completion latency in fio's lat_n/lat_u/lat_m rows (O(1)). */
void ios_job_mark_latency(struct ios_job_result *j, uint64_t clat_ns);
/* Index into io_depth[] for @depth I/Os in flight (1, 2-3, 4-7, ..., >=64). */
unsigned ios_depth_bucket(unsigned depth);
/* Index into io_submit[]/io_complete[] for a batch of @nr (0, 1-4, 5-8, ..., >64). */
unsigned ios_batch_bucket(unsigned nr);
/* fio's per-direction runtime in ms: whole microseconds, rounded up to ms. */
uint64_t ios_runtime_ms(uint64_t ns);
/*
 * group_reporting: fold each job whose group_reporting is set into the
 * previous entry when both are in the same group, as fio does (latencies
 * and histograms merge, counters and bw/iops samples add, per-direction
 * runtime is the maximum, jobs=N counts the members). Folded entries are
 * freed and r->nr_jobs shrinks. Call once, before the report writers.
 * Returns 0 or -ENOMEM (the result stays valid but partly folded).
 */
int ios_run_result_group(struct ios_run_result *r) IOS_MUST_CHECK;

/*
 * fio's num2str: @num with at most @maxlen digits (counting the '.'),
 * scaled by 1000 or 1024 (@pow2) with a unit prefix, carry rounding as fio.
 * @base: what one unit of @num is worth (1, or 1024 for KiB). Writes into
 * @buf (>= 32 bytes is always enough) and returns it.
 */
enum ios_n2s_unit {
	IOS_N2S_NONE,
	IOS_N2S_PERSEC,
	IOS_N2S_BYTE,
	IOS_N2S_BIT,
	IOS_N2S_BYTEPERSEC,
	IOS_N2S_BITPERSEC,
};
char *ios_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, int pow2,
		  enum ios_n2s_unit unit);

/*
 * A growable text buffer: the library writes reports here, cli/ prints them.
 * With a sink (ios_buf_set_sink), whatever is in it goes to the sink each
 * time it passes IOS_BUF_DRAIN bytes, and the rest at ios_buf_drain(): a
 * report of 10,000 jobs is then written as it is made instead of held whole
 * (about 4 KB of JSON per job). The writers only ever append, so the bytes
 * are the same either way. sink() returns 0 or an error (-errno), which is
 * kept in sink_err; nothing more goes to the sink after one.
 */
struct ios_buf {
	char *s;
	size_t len, cap;
	int oom;
	int (*sink)(void *arg, const char *s, size_t len);
	void *sink_arg;
	int sink_err;
};
#define IOS_BUF_DRAIN 65536
void ios_buf_init(struct ios_buf *b);
void ios_buf_free(struct ios_buf *b);
void ios_buf_set_sink(struct ios_buf *b, int (*sink)(void *arg, const char *s, size_t len),
		      void *arg);
/* Hand what is held to the sink; returns its error, or 0 (also without a sink). */
int ios_buf_drain(struct ios_buf *b);
void ios_buf_printf(struct ios_buf *b, const char *fmt, ...) IOS_PRINTF(2, 3);
void ios_buf_puts(struct ios_buf *b, const char *s);

/* Report writers. Return 0 or -ENOMEM. */
int ios_report_normal(const struct ios_run_result *r, struct ios_buf *out) IOS_MUST_CHECK;
int ios_report_json(const struct ios_run_result *r, struct ios_buf *out) IOS_MUST_CHECK;
/* fio 1.9's (2006) text layout, to set beside the LKML threads of that era */
int ios_report_fio19(const struct ios_run_result *r, struct ios_buf *out) IOS_MUST_CHECK;
/* fio's json+: the JSON plus each latency histogram's non-empty "bins" */
int ios_report_json_plus(const struct ios_run_result *r, struct ios_buf *out) IOS_MUST_CHECK;
/*
 * fio's terse line per job, version @ver 2..5 (fio's default and
 * --minimal's is 3); -EINVAL for another version (src/report/terse.c).
 */
int ios_report_terse(const struct ios_run_result *r, unsigned ver,
		     struct ios_buf *out) IOS_MUST_CHECK;
/* fio's lines before a run: "name: (g=0): rw=...", "fio-3.33", "Starting N processes" */
int ios_report_preamble(const struct ios_run_result *r, struct ios_buf *out) IOS_MUST_CHECK;

/* Output formats, combinable as fio's --output-format=normal,json,... */
enum {
	IOS_OUT_NORMAL = 1u << 0,
	IOS_OUT_TERSE = 1u << 1,
	IOS_OUT_JSON = 1u << 2,
	IOS_OUT_JSON_PLUS = 1u << 3,	/* with IOS_OUT_JSON: one json+ document */
};
struct ios_report_opts {
	unsigned formats;		/* IOS_OUT_* */
	unsigned terse_version;		/* 2..5; 0 = 3, fio's default */
	bool preamble;			/* the pre-run lines before a normal report,
					 * as fio prints them (the fio command's,
					 * not run's: run's outputs start blank) */
	/*
	 * The lab's notes the report carries (`iosched fio`: what fio itself
	 * prints nothing for): "notes" in the JSON's "iosched" object, and
	 * "iosched: note: ..." lines at the end of the normal report. NULL
	 * (iosched run) leaves both out: its notes go to stderr.
	 */
	const char *const *notes;
	size_t nr_notes;
};
/*
 * fio's --output-format value: a comma-separated list of normal, terse,
 * json, json+. Returns 0 with *mask set, or -EINVAL (an unknown or empty
 * name).
 */
int ios_report_parse_formats(const char *s, unsigned *mask) IOS_MUST_CHECK;
/*
 * Every format @o asks for, in fio's order: pre-run lines (with normal),
 * terse, JSON, normal. Returns 0, -EINVAL (no format, bad terse version)
 * or -ENOMEM.
 */
int ios_report(const struct ios_run_result *r, const struct ios_report_opts *o,
	       struct ios_buf *out) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
