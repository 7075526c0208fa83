/*
 * Running a workload: the job runner ties the pieces together for one run.
 *
 * ios_run() takes parsed job files and a configuration (scheduler, device
 * profile, --set settings, seed), and goes through its phases: configure
 * the run's tunables, build the host (what is under the queue, and the
 * clock: host.h) and the request queue with the scheduler, plan one task
 * per fio job clone with its files laid out on the host's disk, run the
 * host's loop to the end, and collect a struct ios_run_result for the
 * report writers. It never prints.
 *
 * Under the simulated host (the default) the same inputs give
 * byte-identical results: every random stream is derived from the seed,
 * and nothing reads the wall clock.
 */
#ifndef IOSCHED_RUN_H
#define IOSCHED_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "err.h"
#include "job.h"
#include "stats.h"
#include "tunable.h"
#include "block.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The most files one run lays out by nrfiles= (jobs without filename=):
 * each costs the simulator about 1 KiB before it is read (name, layout,
 * page-cache inode), so more is refused before any is allocated.
 */
#define IOS_RUN_MAX_FILES (1u << 18)

/* lab.fs=auto: ext3 on the single-queue layer, ext4 on blk-mq (after enum ios_fs_type's values) */
#define IOS_LAB_FS_AUTO 4

/* lab.* tunables: knobs that exist only in this lab */
struct ios_lab_tunables {
	uint64_t file_size;		/* size of files that "exist" before the run; 0: none do */
	uint64_t submit_ns;		/* CPU time from fio's issue to the bio reaching the queue */
	uint64_t complete_ns;		/* from device completion to the task running again */
	uint64_t file_align;		/* alignment of files laid out on the device */
	uint64_t max_sim_time_ns;	/* safety limit on simulated time */
	int cross_queue_merge;		/* 1: no scheduler merge veto (Linux before 2.6.20) */
	int fs;				/* enum ios_fs_type, or IOS_LAB_FS_AUTO until the queue is built */
	uint64_t page_copy_ns;		/* CPU time to copy a page to or from user space */
	int barrier;			/* fsync flushes the drive's write cache */
	int creator_pid;		/* pid that wrote the first file; 0: from the seed */
	int group_policy;		/* enum ios_group_policy */
	int ttime_back_to_back;		/* CFQ 2.6.31 think time only within the queue's slice */
	uint64_t eio_every;		/* fault injection: every Nth data I/O of a job fails, EIO */
	int lose_write;			/* the device drops the N-th O_DIRECT write (verify tests) */
	int cpus;			/* simulated CPUs: blk-mq software contexts (1..IOS_MAX_CPUS) */
	/*
	 * lab.cpu.*: blk-mq host CPU costs in ns (defaults cited in
	 * docs/blk-mq.md; cpu_model IOS_CPU_MODEL_ZERO makes every cost not
	 * set explicitly 0; mq.c)
	 */
	int cpu_model;			/* enum ios_cpu_model */
	uint64_t cpu_submit_ns, cpu_complete_ns;
	uint64_t cpu_mqdl_insert_ns, cpu_mqdl_dispatch_ns, cpu_mqdl_complete_ns;
	uint64_t cpu_kyber_insert_ns, cpu_kyber_dispatch_ns, cpu_kyber_complete_ns;
	uint64_t cpu_bfq_insert_ns, cpu_bfq_dispatch_ns, cpu_bfq_complete_ns;
	/* cgroup v2 controllers (docs/cgroup-v2-plan.md): CONFIG_HZ and the release */
	int hz;				/* index into 100, 250, 300, 1000 (ios_run_lab_hz) */
	int kernel;			/* enum ios_lab_kernel */
	/* lab.ext4.*: the jbd2 model under lab.fs=ext4 (src/fs/jbd2.c) */
	int ext4_commit_s;		/* the mount option commit= (0: its default, 5) */
	int ext4_dioread_nolock;	/* the mount option dioread_nolock (1) or nodioread_nolock */
	/* blk-mq: writeback attributed to the dirtier's cgroup (src/fs/writeback_cgwb.c) */
	int cgroup_writeback;
};

/* lab.cpu.model: the cited defaults, or no cost unless one is set */
enum ios_cpu_model { IOS_CPU_MODEL_MEASURED, IOS_CPU_MODEL_ZERO };

enum ios_lab_kernel { IOS_LAB_KERNEL_AUTO, IOS_LAB_KERNEL_6_6, IOS_LAB_KERNEL_6_12 };
/* lab.hz in Hz */
unsigned ios_run_lab_hz(const struct ios_lab_tunables *lab);

extern const struct ios_tunable ios_lab_tunables_table[];

/*
 * How far a run has come, for a progress display. fraction is the mean over
 * the jobs of how far each is towards what bounds it (runtime= or its
 * bytes, whichever is nearer: a finished job counts 1, one not yet started
 * 0); when a job with exitall would end the run sooner, its own fraction.
 */
struct ios_run_progress {
	uint64_t sim_ns;		/* simulated time */
	uint64_t nr_events;		/* events run so far */
	double fraction;		/* 0..1 */
};

/*
 * Called from inside the simulation every progress_every events. It must
 * not touch the run; it is the caller's place to check a wall clock (the
 * library never does) and to draw something.
 */
typedef void (*ios_run_progress_fn)(void *arg, const struct ios_run_progress *p);

struct ios_replay;
struct ios_host_ops;
struct ios_run_result;

/*
 * fio's --status-interval: called every status_every_ns of SIMULATED time
 * while jobs run, with the report as it stands (a snapshot: jobs running
 * are measured up to now, jobs not started are empty), as fio prints its
 * full report every interval of wall-clock time. Returns 0 or -errno, which
 * fails the run.
 */
typedef int (*ios_run_status_fn)(void *arg, const struct ios_run_result *snap);

struct ios_run_config {
	const char *scheduler;		/* NULL: the default */
	const char *device;		/* profile, NULL: IOS_DEV_DEFAULT_PROFILE */
	const struct ios_settings *settings;	/* --set NAME=VALUE; may be NULL */
	uint64_t seed;
	const struct ios_trace_ops *trace_ops;	/* optional trace sink */
	void *trace;
	ios_run_progress_fn progress;	/* optional; NULL: none */
	void *progress_arg;
	uint64_t progress_every;	/* events between calls; 0: IOS_RUN_PROGRESS_EVERY */
	bool record_series;		/* fill out->series (per-job bytes over time, for plots) */
	bool record_timeline;		/* with record_series: out->series->timeline too */
	ios_run_status_fn status;	/* optional: --status-interval's reports */
	void *status_arg;
	uint64_t status_every_ns;	/* simulated ns between them; 0: none */
	/*
	 * A trace to replay (replay.h; ios_replay_run sets it with the
	 * replay's jobs as @jf); NULL for job files.
	 */
	struct ios_replay *replay;
	/*
	 * What is under the queue (host.h); NULL: the simulator,
	 * ios_host_sim_ops, on the device profile @device.
	 */
	const struct ios_host_ops *host;
	/*
	 * fio --readonly: a job that writes or trims is refused
	 * (ios_jobfile_check_read_only), read_iolog= replays skip their writes,
	 * and --real neither creates nor extends a file.
	 */
	bool read_only;
	/*
	 * fio --warnings-fatal: the notes fio's fixup_options counts as parser
	 * warnings (blockalign turning the random map off, time_based without
	 * a runtime, the verify notes, write_iolog overridden) refuse the run.
	 */
	bool warnings_fatal;
	/*
	 * iosched compare --from: also count, per job, the completions at or
	 * after this simulated time (from the run's start) in
	 * ios_job_result.win_*; 0: none. Measurement only: the run is the same.
	 */
	uint64_t window_from_ns;
	/*
	 * Optional, measurement only: called at each read or write a job
	 * accounts as fio does (its clat sample), with the job's index in
	 * the result, the direction, the time and the clat (iosched repro's
	 * windowed percentiles). NULL: none.
	 */
	void (*io_done)(void *arg, size_t job, int dir, uint64_t now, uint64_t clat_ns);
	void *io_done_arg;
};

#define IOS_RUN_PROGRESS_EVERY 16384

#define IOS_DEFAULT_SCHEDULER "cfq"

/*
 * Run the jobs of @jf. On success fills @out (free with
 * ios_run_result_free) and returns 0. Errors (bad settings, impossible file
 * layout, a job that cannot run) return -errno with @e naming the job, the
 * option and the file/line where it was set.
 */
int ios_run(const struct ios_jobfile *jf, const struct ios_run_config *cfg,
	    struct ios_run_result *out, struct ios_err *e) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
