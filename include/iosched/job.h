/*
 * The workload model: what a fio job file says, after parsing.
 *
 * The parser (src/job/) turns a job file into an array of struct ios_job,
 * one per [section] (numjobs clones are expanded later by the runner, as fio
 * does). Every option is declared once in the option table (job/options.c);
 * the table drives parsing, defaults, 'iosched list' and the JSON report's
 * "job options". Values are stored in the units the runner needs: bytes,
 * nanoseconds, bytes per second.
 *
 * Defaults are fio 3's, unless the parse was asked for fio 1.x defaults
 * (IOS_JOB_COMPAT_FIO1: direct=1, ioengine=sync, rate in KiB/s), which is what
 * the 2006 seed's job file was written against.
 */
#ifndef IOSCHED_JOB_H
#define IOSCHED_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_buf;

enum ios_rw {
	IOS_RW_READ,		/* read: sequential reads */
	IOS_RW_WRITE,		/* write */
	IOS_RW_RANDREAD,
	IOS_RW_RANDWRITE,
	IOS_RW_RW,		/* rw, readwrite: sequential mix */
	IOS_RW_RANDRW,
	IOS_RW_TRIM,		/* trim: sequential discards */
	IOS_RW_RANDTRIM,
	IOS_RW_TRIMWRITE,	/* trimwrite: each block trimmed, then written */
};

enum ios_ioengine {
	IOS_ENGINE_SYNC,	/* read()/write() + lseek */
	IOS_ENGINE_PSYNC,	/* pread()/pwrite(): fio 3's default on Linux */
	IOS_ENGINE_VSYNC,
	IOS_ENGINE_PVSYNC,
	IOS_ENGINE_PVSYNC2,
	IOS_ENGINE_LIBAIO,
	IOS_ENGINE_IO_URING,
	IOS_ENGINE_POSIXAIO,
	IOS_ENGINE_NULL,	/* completes at once, no device I/O */
	/* file operations (src/run/fileops.c): each I/O is a call on the file */
	IOS_ENGINE_FALLOC,	/* fallocate() of the range; trims punch holes */
	IOS_ENGINE_FTRUNCATE,	/* each write is ftruncate(fd, offset) */
	IOS_ENGINE_FILECREATE,	/* the open creates the file; no data I/O */
	IOS_ENGINE_FILESTAT,	/* the open is a stat(); no data I/O */
	IOS_ENGINE_FILEDELETE,	/* the open is an unlink(); no data I/O */
	IOS_ENGINE_E4DEFRAG,	/* each write is EXT4_IOC_MOVE_EXT from a donor file */
};

/* fallocate= (fio's FIO_FALLOCATE_*): how a laid-out file gets its blocks */
enum ios_fallocate {
	IOS_FALLOC_DEFAULT = 0,	/* not given: native, with the whole file laid out (jobfiles.md) */
	IOS_FALLOC_NONE,	/* none, 0: sparse; writes allocate */
	IOS_FALLOC_POSIX,	/* posix, 1: posix_fallocate() */
	IOS_FALLOC_KEEP,	/* keep: fallocate(FALLOC_FL_KEEP_SIZE) */
	IOS_FALLOC_NATIVE,	/* native: fallocate(), fio 3.33's default on Linux */
	IOS_FALLOC_TRUNCATE,	/* truncate: ftruncate() only */
};

/* stat_type= of the filestat engine */
enum ios_stat_type { IOS_STAT_STAT = 0, IOS_STAT_LSTAT, IOS_STAT_STATX };

static inline int ios_engine_is_fileop(enum ios_ioengine e)
{
	return e >= IOS_ENGINE_FALLOC;
}
/* The engines whose "I/O" is the open of each file (fio's fileoperations.c). */
static inline int ios_engine_opens_are_io(enum ios_ioengine e)
{
	return e == IOS_ENGINE_FILECREATE || e == IOS_ENGINE_FILESTAT ||
	       e == IOS_ENGINE_FILEDELETE;
}

enum ios_zone_mode {
	IOS_ZONE_NONE = 0,
	IOS_ZONE_STRIDED,	/* fio's zonemode=strided: zonesize bytes, then skip */
	IOS_ZONE_ZBD,		/* fio's zonemode=zbd: writes at zone write pointers (run/zbd.c) */
};

enum ios_rand_dist {
	IOS_RAND_UNIFORM = 0,	/* random_distribution=random */
	IOS_RAND_ZIPF,
	IOS_RAND_PARETO,
	IOS_RAND_NORMAL,
	IOS_RAND_ZONED,		/* zoned: access% / size% */
	IOS_RAND_ZONED_ABS,	/* zoned_abs: access% / bytes */
};

/* One zone of random_distribution=zoned or zoned_abs */
struct ios_rand_zone {
	unsigned access_perc;
	unsigned size_perc;	/* zoned */
	uint64_t size;		/* zoned_abs: bytes */
};
#define IOS_MAX_RAND_ZONES 64

/*
 * CPU placement options: accepted and noted on each run. cpus_allowed and
 * cpumask place the job's tasks on the simulated CPUs (lab.cpus) when the
 * scheduler runs on blk-mq (src/run/cpu_map.c); the others, and both of
 * them on the single-queue layer, have no effect.
 */
#define IOS_CPUOPT_CPUS_ALLOWED		(1u << 0)
#define IOS_CPUOPT_CPUS_POLICY		(1u << 1)
#define IOS_CPUOPT_CPUMASK		(1u << 2)
#define IOS_CPUOPT_NUMA_CPU		(1u << 3)
#define IOS_CPUOPT_NUMA_MEM		(1u << 4)
#define IOS_CPUOPT_SQPOLL		(1u << 5)	/* io_uring sqthread_poll */
#define IOS_CPUOPT_SQPOLL_CPU		(1u << 6)
#define IOS_CPUOPT_FORCE_ASYNC		(1u << 7)	/* io_uring force_async */
#define IOS_CPUOPT_FIXEDBUFS		(1u << 8)	/* io_uring fixedbufs */
#define IOS_CPUOPT_REGFILES		(1u << 9)	/* io_uring registerfiles */
extern const char *const ios_job_cpuopt_names[10];	/* by bit */
/*
 * The most simulated CPUs (lab.cpus's top): CPU numbers in cpus_allowed and
 * cpumask run 0..IOS_MAX_CPUS-1. 256 is far beyond what a queue-wide
 * scheduler lock lets a lab run use, and keeps a job's CPU set 32 bytes.
 */
#define IOS_MAX_CPUS 256
/* buffer-content options (dedupe_*, buffer_*, ...): accepted, no effect on timing, noted */
#define IOS_NR_BUFOPTS 10
extern const char *const ios_job_bufopt_names[IOS_NR_BUFOPTS];	/* by bit of sub.buffer_given */

/* exit_what=: what a job's end stops when exitall is set (fio's TERMINATE_*) */
enum { IOS_EXIT_GROUP = 0, IOS_EXIT_STONEWALL, IOS_EXIT_ALL };
/* fio's tiobench profile options, accepted anywhere as fio 3.33 does: a note */
#define IOS_PROFOPT_THREADS	(1u << 0)
#define IOS_PROFOPT_DIR		(1u << 1)
#define IOS_PROFOPT_BLOCK	(1u << 2)
#define IOS_PROFOPT_NUMRUNS	(1u << 3)
extern const char *const ios_job_profopt_names[4];	/* by bit */
#define IOS_DEPR_FLOW_WATERMARK	(1u << 0)
#define IOS_DEPR_WRITE_BARRIER	(1u << 1)	/* fio 3.33 sets a flag no engine reads */
/* steadystate=: fio's FIO_SS_* bits of the criterion */
#define IOS_SS_IOPS	(1u << 0)
#define IOS_SS_BW	(1u << 1)
#define IOS_SS_SLOPE	(1u << 2)
#define IOS_SS_ATTAINED	(1u << 3)	/* (at run time) */
#define IOS_SS_RAMP_OVER (1u << 4)
#define IOS_SS_DATA	(1u << 5)
#define IOS_SS_PCT	(1u << 6)
#define IOS_SS_BUFFER_FULL (1u << 7)

enum ios_compat {
	IOS_JOB_COMPAT_FIO3 = 0,
	IOS_JOB_COMPAT_FIO1,	/* fio 1.x defaults: direct=1, ioengine=sync, rate in KiB/s */
};

/* "key=value" as the user wrote it, for the JSON "job options" object */
struct ios_kv {
	char *key;
	char *value;		/* "" for bare flags */
};

/* One weighted block size of bssplit */
struct ios_bssplit {
	uint64_t bs;
	unsigned perc;		/* 0 = share the remainder */
};
#define IOS_MAX_BSSPLIT 64

/* Kinds of error for continue_on_error= and ignore_error= (fio's error_type_bit). */
enum { IOS_ERRTYPE_READ = 0, IOS_ERRTYPE_WRITE, IOS_ERRTYPE_VERIFY, IOS_ERRTYPE_NR };
#define IOS_ERRTYPE_ANY 0xffffu		/* continue_on_error=all */
#define IOS_MAX_IGNORE_ERRORS 64	/* errors in one kind's ignore_error= list */

/*
 * Where an option was written, for messages the runner gives long after
 * parsing (a file that does not fit): file NULL = not set by the job file.
 */
struct ios_optsrc {
	const char *file;		/* owned by the jobfile */
	int line;
	char text[64];			/* "size=2t" as written, cut to fit */
};

/* one cmdprio_bssplit entry: I/Os of @bs get class/level in @perc percent of cases */
struct ios_cmdprio_entry {
	uint64_t bs;
	unsigned perc;
	int prio_class, prio_level;	/* -1: cmdprio_class= / cmdprio= of the direction */
};

/*
 * Submission, per-I/O priority, latency target and buffer contents
 * (src/job/options_submit.c; docs/jobfiles.md).
 */
struct ios_job_submit {
	int offload;			/* io_submit_mode=offload */
	unsigned cmdprio_pct[2];	/* cmdprio_percentage, per direction */
	unsigned cmdprio_class[2];	/* 0 = RT, fio's default */
	unsigned cmdprio_level[2];
	struct ios_cmdprio_entry cmdprio_split[2][IOS_MAX_BSSPLIT];
	unsigned nr_cmdprio_split[2];
	unsigned cmdprio_given;		/* IOS_CMDPRIO_* bits of the options given */
	uint64_t lat_target_ns, lat_window_ns;	/* 0 = no latency target */
	double lat_percentile;		/* 0..100, default 100 */
	int lat_run;
	int rand_gen;			/* IOS_RANDGEN_* */
	unsigned buffer_given;		/* buffer-content options given: a note */
	int dedupe_mode, dedupe_global, refill_buffers, scramble_buffers;
	unsigned dedupe_pct, dedupe_ws_pct, compress_pct;
	uint64_t compress_chunk;
};

enum { IOS_RANDGEN_TAUSWORTHE, IOS_RANDGEN_LFSR, IOS_RANDGEN_TAUSWORTHE64 };
#define IOS_CMDPRIO_PCT		(1u << 0)
#define IOS_CMDPRIO_SPLIT	(1u << 1)
#define IOS_CMDPRIO_CLASS	(1u << 2)
#define IOS_CMDPRIO_LEVEL	(1u << 3)

/*
 * fio's verify= methods (verify.h's order is not kept: iosched never writes a
 * header, it only checks what a header would have caught). MD5 .. SHA3_512
 * differ in name only; META is fio's deprecated alias of a header-only check.
 */
enum ios_verify_method {
	IOS_VERIFY_NONE, IOS_VERIFY_MD5, IOS_VERIFY_CRC64, IOS_VERIFY_CRC32C,
	IOS_VERIFY_CRC32C_INTEL, IOS_VERIFY_CRC32, IOS_VERIFY_CRC16, IOS_VERIFY_CRC7,
	IOS_VERIFY_XXHASH, IOS_VERIFY_SHA1, IOS_VERIFY_SHA256, IOS_VERIFY_SHA512,
	IOS_VERIFY_SHA3_224, IOS_VERIFY_SHA3_256, IOS_VERIFY_SHA3_384, IOS_VERIFY_SHA3_512,
	IOS_VERIFY_META, IOS_VERIFY_PATTERN, IOS_VERIFY_NULL,
};

/* The verify family (src/job/options_verify.c; what they do: src/run/verify.c). */
struct ios_job_verify {
	int method;			/* enum ios_verify_method */
	int do_verify;			/* default 1 */
	uint64_t interval;		/* verify_interval: 0 = the block size */
	uint64_t offset;		/* verify_offset (where the header sits: no effect here) */
	uint64_t pattern_hash;		/* verify_pattern='s bytes, hashed; 0 = unset */
	unsigned pattern_len;		/* its length in bytes (at most 512, as fio) */
	int fatal;			/* verify_fatal */
	int dump;			/* verify_dump */
	uint64_t backlog;		/* verify_backlog: 0 = verify after the write phase */
	unsigned backlog_batch;		/* verify_backlog_batch: 0 = the backlog */
	unsigned async;			/* verify_async threads (CPU only: a note) */
	int async_cpus;			/* verify_async_cpus given (CPU only: a note) */
	int only;			/* verify_only */
	int experimental;		/* experimental_verify (only 0) */
	int state_save;			/* verify_state_save (default 1; no trigger here) */
	int state_load;			/* verify_state_load (only 0) */
	int sort_given;			/* verifysort / verifysort_nr: deprecated in fio 3.33 */
};

struct ios_job {
	char *name;
	const char *file;		/* job file path (owned by the jobfile) */
	int line;			/* line of the [section] header */
	int index;			/* position in the file, from 0 */

	/* --- files --- */
	char *filename;			/* raw, ':'-separated; NULL: fio's "name.N.M" */
	char *directory;
	unsigned nrfiles;
	uint64_t size;			/* bytes per job; 0 = unset */
	unsigned size_pct;		/* size given as a percentage (1..100), else 0 */
	uint64_t filesize_lo, filesize_hi;	/* 0 = unset */
	uint64_t offset;		/* bytes */
	unsigned offset_pct;
	uint64_t offset_increment;
	uint64_t io_size;		/* io_size / io_limit, 0 = size */
	int create_on_open;
	int create_serialize;		/* 0: fio lays files out in parallel (a note) */
	int invalidate;
	int unlink;
	int overwrite;
	int overwrite_set;		/* given in the job file (the note is for an explicit 0) */
	/* file operations (options_fileops.c) */
	int fallocate;			/* enum ios_fallocate */
	int allow_file_create;		/* 0: a file that does not exist is an error */
	int allow_mounted_write;	/* --real: a write to a mounted device is let through */
	unsigned openfiles;		/* files open at once; 0 = nrfiles */
	int stat_type;			/* filestat: enum ios_stat_type */
	char *donorname;		/* e4defrag: the donor file (in directory=) */
	int inplace;			/* e4defrag: allocate and free the donor per move */
	/* where size=, filesize=, nrfiles= and offset= were set (layout errors) */
	struct ios_optsrc size_src, filesize_src, nrfiles_src, offset_src;
	/* where zonesize= was set (its checks), and the first option given in zones ("4z") */
	struct ios_optsrc zone_size_src, zone_units_src;

	/* --- pattern --- */
	enum ios_rw rw;
	unsigned rw_seq_nr;		/* the ":N" suffix of rw= (random: N; sequential: a hole >= 0) */
	int64_t rw_seq_add;		/* sequential rw=X:N, N signed: fio's ddir_seq_add */
	int rw_seq_ident;		/* rw_sequencer=identical */
	int zone_mode;			/* enum ios_zone_mode */
	uint64_t zone_size, zone_range, zone_skip;	/* zonesize, zonerange, zoneskip */
	/* zonemode=zbd */
	uint64_t zone_capacity;		/* zonecapacity: emulated zones only */
	/*
	 * fio's zone units ("size=4z"): a count of zones, made bytes once the
	 * zone size is known (job.c, at the end of the job's section), then 0
	 */
	uint32_t size_nz, io_size_nz, offset_nz, offset_increment_nz, zone_skip_nz;
	unsigned max_open_zones, job_max_open_zones;
	int ignore_zone_limits, read_beyond_wp;
	double zone_reset_threshold, zone_reset_frequency;	/* 0..1 */
	unsigned rwmixread;		/* percent of reads in a mix */
	uint64_t bs[2];			/* read, write */
	uint64_t bs_min[2], bs_max[2];	/* bsrange; equal to bs when unset */
	struct ios_bssplit bssplit[2][IOS_MAX_BSSPLIT];
	unsigned nr_bssplit[2];
	int bs_unaligned;
	uint64_t blockalign[2];		/* 0 = block size */
	int randrepeat;
	uint64_t randseed;
	int randseed_set;
	int norandommap;
	bool blockalign_nomap;		/* norandommap set by a blockalign (fio's fixup_options) */
	int rand_dist;			/* enum ios_rand_dist */
	double rand_dist_val;		/* zipf theta, pareto h, normal deviation (percent) */
	double rand_center;		/* 0..1, -1 = unset (fio's random_center) */
	struct ios_rand_zone rand_zones[IOS_MAX_RAND_ZONES];
	unsigned nr_rand_zones;
	int zero_buffers;
	int no_disk_util;		/* disk_util=0: no disk stats from this job (fio's do_disk_util) */

	/* --- engine --- */
	enum ios_ioengine ioengine;
	int direct;			/* O_DIRECT */
	int buffered;			/* inverse of direct, as fio */
	int sync;			/* O_SYNC */
	unsigned iodepth;
	unsigned iodepth_batch_submit;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;
	unsigned iodepth_low;
	unsigned fsync_blocks;		/* fsync=N */
	unsigned fdatasync_blocks;	/* fdatasync=N */
	int end_fsync;
	int fsync_on_close;

	/* --- time --- */
	uint64_t runtime_ns;		/* 0 = until size is done */
	int time_based;
	uint64_t startdelay_lo_ns, startdelay_hi_ns;
	uint64_t ramp_time_ns;
	uint64_t thinktime_ns;
	uint64_t thinktime_spin_ns;
	unsigned thinktime_blocks;
	int thinktime_blocks_issue;	/* thinktime_blocks_type=issue */
	uint64_t rate[2];		/* bytes/s, 0 = none */
	uint64_t rate_min[2];
	unsigned rate_iops[2];
	unsigned rate_iops_min[2];
	uint64_t rate_cycle_ns;
	int rate_cycle_set;		/* given (it has no effect without a minimum rate) */
	int rate_process_poisson;
	unsigned loops;
	unsigned numjobs;
	unsigned max_jobs;		/* numjobs' ceiling: fio's 4096 unless the job raises it */
	uint64_t number_ios;		/* stop after this many I/Os (times loops); 0 = no limit */

	/* --- priority and groups --- */
	int prio;			/* ioprio level 0..7, -1 = unset */
	int prioclass;			/* 1 rt, 2 be, 3 idle, -1 = unset */
	int nice;			/* -20..19 */
	int nice_set;
	char *cgroup;			/* NULL = root */
	unsigned cgroup_weight;		/* 0 = unset; the scheduler's range is checked at run time */
	int cgroup_nodelete;
	/* where cgroup= and cgroup_weight= were set, for the runner's messages */
	const char *cgroup_file, *cgroup_weight_file;
	int cgroup_line, cgroup_weight_line;
	/*
	 * exec_prerun=, read only as cgroup v2 file writes (job/prerun.c),
	 * applied when the job starts, as fio runs it; where it was written
	 */
	char *exec_prerun;
	const char *exec_prerun_file;
	int exec_prerun_line;

	/* --- synchronisation and reporting --- */
	int stonewall;
	int new_group;
	int group_reporting;
	int exitall;
	int exitall_on_error;		/* a job ending in error stops the others */
	/* error handling (src/job/options_err.c, src/run/errors.c) */
	unsigned continue_on_error;	/* IOS_ERRTYPE_* bits: kinds of error a job goes on after */
	int ignore_error[IOS_ERRTYPE_NR][IOS_MAX_IGNORE_ERRORS];	/* errno values per kind */
	unsigned ignore_error_nr[IOS_ERRTYPE_NR];	/* 0: fio's default list (EIO, EILSEQ) */
	int error_dump;			/* print every error, even those continued after */
	int fill_device;		/* write until the filesystem is full (fill_fs) */
	uint64_t bwavgtime_ns;
	uint64_t iopsavgtime_ns;
	int bwavgtime_set;		/* given in the job file (fio: then a windowed */
	int iopsavgtime_set;		/* bw/iops log keeps it instead of log_avg_msec) */
	double percentile_list[64];
	unsigned nr_percentiles;	/* 0 = fio's default list */
	int clat_percentiles;
	int lat_percentiles;
	int slat_percentiles;
	char *write_bw_log;
	char *write_lat_log;
	char *write_iops_log;
	uint64_t log_avg_msec;
	int log_offset;
	int log_prio;
	int per_job_logs;
	char *read_iolog;
	char *write_iolog;
	char *ioscheduler;		/* fio's ioscheduler=: switch the device's scheduler */
	const char *ioscheduler_file;	/* where it was set (owned by the jobfile) */
	int ioscheduler_line;
	char *description;

	/* --- added by the parser (src/job/); see docs/jobfiles.md --- */
	unsigned kb_base;		/* 1024 (fio's default) or 1000: how sizes were read */
	char **filenames;		/* filename= split on ':', '\:' unescaped; NULL if unset */
	unsigned nr_filenames;
	unsigned io_size_pct;		/* io_size given as a percentage (1..100), else 0 */
	unsigned offset_increment_pct;	/* offset_increment as a percentage, else 0 */
	int thread;			/* accepted; no effect in a simulator */
	unsigned cpu_opts;		/* CPU-side options given (IOS_CPUOPT_*): a note at run time */
	/*
	 * The CPUs named by cpus_allowed= or cpumask=, whichever came later
	 * (fio: both set the one affinity mask), one bit per CPU; cpu_set_opt
	 * is that option's IOS_CPUOPT_ bit (0: neither given) and
	 * cpu_set_file/line where it was written, for the runner's messages.
	 */
	uint64_t cpu_set[IOS_MAX_CPUS / 64];
	unsigned cpu_set_opt;
	const char *cpu_set_file;	/* owned by the jobfile */
	int cpu_set_line;
	int gtod_reduce, disable_lat, disable_clat, disable_slat, disable_bw;
	struct ios_job_submit sub;

	/* job control (options_jobctl.c; the runner's jobctl.c, flow.c, steadystate.c) */
	int exit_what;			/* IOS_EXIT_*: what exitall stops when this job ends */
	char *wait_for;			/* start once every clone of this job has finished */
	const char *wait_for_file;	/* where it was set (owned by the jobfile) */
	int wait_for_line;
	unsigned profile_opts;		/* tiobench options given (IOS_PROFOPT_*): a note */
	unsigned deprecated_opts;	/* IOS_DEPR_*: given, ignored as in fio, a note */
	unsigned ss_state;		/* IOS_SS_*: steady-state criterion */
	double ss_limit;		/* its limit (a percentage with IOS_SS_PCT) */
	uint64_t ss_dur_ns;		/* steadystate_duration: 0 = off, whole seconds */
	uint64_t ss_ramp_ns;		/* steadystate_ramp_time */
	unsigned flow_id;		/* flow: weight in the flow_id group, 0 = none */
	unsigned flow;
	uint64_t flow_sleep_ns;		/* flow_sleep (us in the job file) */
	struct ios_job_verify verify;

	/* options given in this job's own section, in order, for JSON */
	struct ios_kv *opts;
	size_t nr_opts;
};

struct ios_jobfile {
	struct ios_job *jobs;
	size_t nr_jobs;
	struct ios_kv *global_opts;	/* options of [global] sections, in order */
	size_t nr_global_opts;
	char **paths;			/* every file read (job file and includes) */
	size_t nr_paths;
	enum ios_compat compat;
};

struct ios_job_parse_opts {
	enum ios_compat compat;
	/* ${VAR} lookup; NULL = getenv */
	const char *(*getenv)(const char *name, void *priv);
	void *getenv_priv;
	/* values of $pagesize, $mb_memory, $ncpus (the simulated machine's) */
	uint64_t pagesize;
	uint64_t mb_memory;
	unsigned ncpus;
	/* include depth limit; 0 = default 16 */
	unsigned max_include_depth;
	/* read include files; NULL = from the file system (fuzzers pass a stub) */
	char *(*read_file)(const char *path, size_t *len, void *priv);
	void *read_file_priv;
	/*
	 * fio's --section: when set, only job sections named here are parsed
	 * ([global] sections always are); NULL-terminated, NULL: every section.
	 */
	const char *const *sections;
	/*
	 * fio's --showcmd: when set, each job file parsed appends its jobs
	 * as one fio command line ("fio --rw=read --name=a --size=1m \n"),
	 * as fio prints them.
	 */
	struct ios_buf *showcmd;
};

void ios_job_parse_opts_init(struct ios_job_parse_opts *o);

/* The largest job file (or included file) read: 16 MiB; more is -EFBIG. */
#define IOS_JOB_FILE_MAX (16u << 20)
/* max_jobs' own ceiling: 100,000 simulated processes take about 600 MB */
#define IOS_JOB_MAX_JOBS (1u << 20)

/*
 * Parse a job file (appending to @jf, so several files can be given in
 * order); "-" reads it from stdin (named "<stdin>" in messages), as fio
 * does. Errors name the file, the line and the option: -EINVAL, -ERANGE,
 * -ENOENT (missing file), -EISDIR, -EFBIG (over IOS_JOB_FILE_MAX).
 */
int ios_job_parse_file(const char *path, const struct ios_job_parse_opts *o,
		       struct ios_jobfile *jf, struct ios_err *e) IOS_MUST_CHECK;
/* The same, from memory; @name is used in messages. */
int ios_job_parse_buf(const char *name, const char *buf, size_t len,
		      const struct ios_job_parse_opts *o, struct ios_jobfile *jf,
		      struct ios_err *e) IOS_MUST_CHECK;
void ios_jobfile_free(struct ios_jobfile *jf);

/*
 * fio's command-line jobs (args.c). Each argument is a job option "--key=value"
 * (@value NULL for a bare "--key"); @pos is its place on the command line,
 * named in messages as "<command line>:POS: option 'key=value'". As fio's
 * parse_cmd_line() builds jobs: "name" starts a job of that name (its
 * options follow), except a name beginning with "global", after which the
 * options are global again; options before the first "name" are global.
 * Global options reach every later job and, when @first_file is given, the
 * jobs of that job file too (fio parses the command line first, then the
 * first job file with the same defaults, and no stonewall between them).
 * Other job files are parsed after with ios_job_parse_file() as usual.
 */
struct ios_job_arg {
	const char *key;
	const char *value;
	int pos;
};
int ios_job_parse_args(const struct ios_job_arg *args, size_t n, const char *first_file,
		       const struct ios_job_parse_opts *o, struct ios_jobfile *jf,
		       struct ios_err *e) IOS_MUST_CHECK;
/* Is @name a job option? 1: modelled, 2: a fio option iosched does not model, 0: neither. */
int ios_job_option_known(const char *name);

/*
 * exec_prerun=echo VALUE > /sys/fs/cgroup/[PATH/]FILE (';' or '&&' between
 * several): one write each, in order. path is "" for the root. -EINVAL
 * with @msg saying what was not understood (iosched runs no commands),
 * -ENOMEM. Free with ios_job_prerun_free.
 */
struct ios_cgwrite {
	char *path;		/* "web/api", "" for the root */
	char *file;		/* "io.max" as written (the runner checks it exists) */
	char *value;		/* the words echo would print, without the newline */
};
int ios_job_prerun_parse(const char *cmd, struct ios_cgwrite **out, size_t *nr, char *msg,
			 size_t msglen) IOS_MUST_CHECK;
void ios_job_prerun_free(struct ios_cgwrite *v, size_t nr);

/* Initialise @job with the defaults of @compat (used by the parser and by tests). */
int ios_job_init_defaults(struct ios_job *job, enum ios_compat compat) IOS_MUST_CHECK;

/*
 * fio --readonly's check (fio 3.33 options.c rw_verify, init.c
 * fixup_options): 0, or -EROFS naming the first job that writes or trims.
 */
int ios_jobfile_check_read_only(const struct ios_jobfile *jf, struct ios_err *e) IOS_MUST_CHECK;
const char *ios_rw_name(enum ios_rw rw);
const char *ios_ioengine_name(enum ios_ioengine e);
static inline int ios_rw_is_random(enum ios_rw rw)
{
	return rw == IOS_RW_RANDREAD || rw == IOS_RW_RANDWRITE || rw == IOS_RW_RANDRW ||
	       rw == IOS_RW_RANDTRIM;
}
/* Trims are accounted in the write direction (the results have no trim line). */
static inline int ios_rw_has_trim(enum ios_rw rw)
{
	return rw == IOS_RW_TRIM || rw == IOS_RW_RANDTRIM || rw == IOS_RW_TRIMWRITE;
}
static inline int ios_rw_has_read(enum ios_rw rw)
{
	return rw == IOS_RW_READ || rw == IOS_RW_RANDREAD || rw == IOS_RW_RW || rw == IOS_RW_RANDRW;
}
static inline int ios_rw_has_write(enum ios_rw rw)
{
	return rw == IOS_RW_WRITE || rw == IOS_RW_RANDWRITE || rw == IOS_RW_RW || rw == IOS_RW_RANDRW ||
	       ios_rw_has_trim(rw);
}

/* Option table introspection for 'iosched list' and --help. */
struct ios_job_option_info {
	const char *name;
	const char *alias;
	const char *type;	/* "str", "int", "size", "time", "bool", "enum", "range", ... */
	const char *def;
	const char *help;
};
const struct ios_job_option_info *ios_job_option_at(size_t i);

/*
 * fio 3.33's option names (modelled or not), for 'iosched fio --cmdhelp':
 * general options have engines NULL; an engine option lists the engines
 * that take it ("net, netsplice"). NULL past the end.
 */
struct ios_fio_option {
	const char *name;
	const char *engines;
};
const struct ios_fio_option *ios_job_fio_option_at(size_t i);
/* The fio profile whose options fio 3.33 adds to its table at start ("tiobench"), or NULL. */
const char *ios_job_fio_profile(const char *name);

#ifdef __cplusplus
}
#endif

#endif
