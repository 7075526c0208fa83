/*
 * Private structures of the job runner (src/run/).
 *
 * A run is one machine: a host below (the disk and the clock: host.h; the
 * simulated device today), its request queue, files laid out on the disk,
 * and one task per fio job clone. Tasks are event-driven state machines
 * that model what fio's I/O loop does with a given ioengine: prepare an
 * I/O, spend CPU time submitting it, sleep until completions arrive, reap
 * them, think, respect rate limits, stop at the runtime or the size limit.
 * Their wake-ups are timers on the host's loop (run_ctx.sim).
 *
 * The files: run.c (the phases configure, build, loop, and the stonewall
 * phases), plan.c and collect.c (the phases of those names), task.c and
 * replay_task.c (the tasks), layout.c (files on the disk), cgroup.c,
 * iolog_write.c, and the hosts: host.c (what every host shares) and
 * host_sim.c (the simulated one).
 */
#ifndef IOSCHED_RUN_INT_H
#define IOSCHED_RUN_INT_H

#include <stdio.h>
#include "iosched/strmap.h"
#include "iosched/ios.h"
#include "iosched/blkcg.h"
#include "iosched/fiolog.h"
#include "iosched/plot.h"
#include "iosched/replay.h"
#include "iosched/host.h"

struct run_ctx;
struct run_task;

/* A file on the simulated device. */
struct run_file {
	char *name;
	struct ios_fs_file *fsf;	/* its layout */
	struct ios_inode *inode;	/* its page cache */
	uint64_t size;			/* bytes */
	uint64_t need;			/* bytes the jobs need (layout pass) */
	bool is_dev;			/* a /dev/ name: the whole device */
	bool preexisting;		/* sized by lab.file_size */
	/*
	 * Space (errors.c): a file fio would not write out before the run
	 * (every job using it writes only, with overwrite=0, or fills the
	 * device) gets what space is left when it does not fit; writes past
	 * @alloc fail with ENOSPC. @alloc is @size for every other file.
	 */
	uint64_t alloc;
	uint64_t want;			/* the size the jobs asked for (fill_device: the device) */
	bool fill;			/* a job using it has fill_device=1 */
	bool laid_out_by_fio;		/* a job using it reads or overwrites: fio lays it out */
	bool read;			/* a job using it reads */
	struct run_zbd *zbd;		/* zonemode=zbd: fio's copy of its zones (zbd.c) */
	bool absent;			/* made by a filecreate job's opens: not there before */
	bool fop_done;			/* fileops.c has set up its state before the run */
	uint32_t creator_pid;		/* who wrote it before the run (ext3 colour) */
	const struct ios_job *first_job;	/* for messages */
	const struct run_task *first_task;	/* the first clone to open it: fio's layer-out */
	const struct ios_job *need_job;		/* the job that needs the most */
	uint64_t need_off;			/* its offset */
	struct run_vfile *vf;		/* what it holds, once a job verifies (verify.c) */
	struct run_file *next;
};

/* A block permutation for random I/O without repeats (fio's random map). */
struct run_perm {
	uint64_t n;			/* domain size (blocks) */
	uint64_t bits_half;		/* Feistel half width */
	uint64_t keys[4];
	uint64_t pos;			/* next index to map */
	uint64_t given;			/* blocks given in this pass (random_generator=lfsr:
					 * the LFSR's, counted in task.c) */
};

/*
 * random_generator=lfsr (submit.c): a maximal-length linear feedback shift
 * register over the blocks of a region; values past the last block are
 * skipped, so every block comes once per period and no random map is needed.
 */
struct ios_run_lfsr {
	uint64_t n;			/* blocks; 0 = not set up */
	uint64_t mask;			/* feedback taps (Galois form) */
	uint64_t state;			/* 1..2^width-1 */
};

/* fio's latency_target search (lat_target.c): the depth being tried. */
struct run_lat_target {
	unsigned qd, qd_low, qd_high;	/* fio's latency_qd, _low, _high */
	unsigned stable;		/* successes in a row at qd_high - 1 */
	uint64_t cycle_ns;		/* start of the current window */
	uint64_t cycle_ios;		/* I/Os done when it started */
	uint64_t failed;		/* I/Os over the target in this window */
	uint64_t ios;			/* I/Os done (counted here) */
	bool end_run;			/* the final window at the chosen depth */
};

/* One I/O unit (fio's io_u): a data transfer, or an fsync (sync_op). */
enum { RUN_PLUG_START = 1, RUN_PLUG_FINISH = 2 };

struct run_io {
	/*
	 * What a wake-up reads first, in one cache line with the start of
	 * the op (wake, priv, pending, waiting): issue 34, each line more is
	 * a cache miss per request with 10,000 tasks. Then the op's step
	 * fields, then what completion writes.
	 */
	struct run_task *t;
	struct ios_timer step_timer;	/* resumes op after a wait */
	struct ios_vfs_op op;
	struct run_io *next;		/* free list or done list: with the op's tail */
	/* what the reaping and the next preparing read and write, in one line */
	int error;
	uint8_t dir;
	bool sync_op;			/* fsync / fdatasync, accounted as fio's "sync" */
	bool trim;			/* a discard (rw=trim...), accounted as a write */
	/*
	 * blk-mq: this I/O opens (RUN_PLUG_START) or closes (RUN_PLUG_FINISH)
	 * the plug around its io_submit / io_uring_enter batch (task.c)
	 */
	uint8_t plug;
	struct run_task_file *tf;
	uint64_t offset;		/* within the file */
	uint64_t len;
	uint64_t start_ns;		/* prepared (fio start_time) */
	uint64_t issue_ns;		/* submitted (fio issue_time) */
	int ioprio;			/* cmdprio: class << 13 | level; 0 = the task's */
	bool fop_open;			/* file-operation engines: this unit did the file's open */
	uint8_t fop_stage;		/* e4defrag: donor fallocate, move, donor truncate */
	bool zbd_ok;			/* zonemode=zbd: adjusted, and its zone taken */
	bool vread;			/* verify.c: a verifying read */
	struct run_zbd_zone *zbd_zone;	/* zonemode=zbd: the zone it holds locked (zbd.c) */
	/* verify.c: the write a verifying read checks (or a write's own) numberio */
	uint64_t vnumberio;
	struct run_vpiece *vp;		/* a logged write's entry in the verify log */
};

/*
 * fio's own offset rules (offsets.c) for one file of a task: only for the
 * jobs that need them (holes, rw_sequencer, strided zones, random
 * distributions), so the others do not carry it (run_task_file.fo is NULL).
 */
struct run_tf_offsets {
	uint64_t file_offset;		/* fio's f->file_offset: moves with strided zones */
	uint64_t last_pos[2], last_start[2];	/* UINT64_MAX: nothing issued yet */
	struct run_perm zone_perm;	/* random blocks of the current zone */
	bool offsets_done;		/* no next offset: fio ends the job's I/O here */
	/* random_distribution */
	uint64_t *rmap;			/* zoned: fio's random map, one bit per block */
	uint64_t rmap_bits;
	uint64_t nranges;		/* zipf, pareto, normal: blocks of the minimum size */
	uint64_t rand_off;		/* their rotation (random_center, or drawn) */
	double zetan;			/* zipf: its normalising sum */
	uint64_t stddev;		/* normal: in blocks */
};

/* Per file state of one task. */
struct run_task_file {
	/*
	 * What a request reads, first, in about three cache lines: its
	 * random map, its region, the open file's head (issue 34: with
	 * 10,000 processes each line is a cache miss per request).
	 */
	struct run_perm perm;		/* random blocks, fresh each pass */
	uint64_t off, len;		/* the region this task uses */
	uint64_t align;
	uint64_t pos[2];		/* next sequential offset per direction */
	bool pass_done;			/* no next offset in this pass (task.c, plain jobs) */
	bool fop_opened;		/* filecreate/filestat/filedelete: its open was done */
	struct ios_file file;		/* the open file: flags, readahead state */
	uint32_t zbd_min, zbd_max;	/* zonemode=zbd: fio's f->min_zone, f->max_zone */
	struct run_file *f;
	struct ios_run_lfsr lfsr;	/* random_generator=lfsr */
	struct run_tf_offsets *fo;	/* offsets.c's state; NULL unless t->fio_offsets */
};

enum run_task_state {
	TS_NEW,			/* waiting for its phase / start delay */
	TS_RUNNING,
	TS_WAIT_IO,		/* asleep until enough completions */
	TS_WAIT_TIMER,		/* thinking or rate limited */
	TS_DONE,
};

/*
 * rate, rate_iops, rate_min, rate_iops_min (task.c): only a job with one of
 * them has this (run_task.rate), so that 10,000 unrated processes do not
 * carry it. The bytes issued since the rate's epoch (the start, then the
 * end of ramp_time: fio resets both there), for rate_process=poisson the sum
 * of the exponential gaps drawn so far and their generators, and the last
 * minimum-rate check per direction (fio's last_rate_check_*).
 */
struct run_rate {
	uint64_t bytes[2];
	uint64_t poisson_ns[2];
	struct ios_rand poisson_rng[2];
	uint64_t rc_bytes[2], rc_ios[2], rc_at_ns[2];
};

/* rw=trimwrite (task.c): the block just trimmed, written next */
struct run_trimwrite {
	bool pending;
	uint64_t off, len;
	struct run_task_file *tf;
};

/*
 * One fio process. What only some jobs use (rate limits, latency_target,
 * cmdprio, trimwrite, e4defrag's donor, fio's offset rules, logs, verify,
 * flow, steady state, replay) hangs off a pointer that is NULL for the
 * others: with 10,000 processes every byte here is 10 KB.
 */
/* A job's exec_prerun writes; later: applied when each clone starts */
struct run_prerun {
	struct ios_cgwrite *w;
	size_t n;
	bool later;
};

struct run_task {
	/*
	 * Hot first: what one request reads and writes, then the task's I/O
	 * context (its own hot fields first). With 10,000 processes each cache
	 * line more here is a miss per request (issue 34); what follows the
	 * context is for set-up, the end and the rarer options. Each task
	 * starts a cache line (plan.c allocates them aligned). The first line
	 * is what a completion touches (io_done, task_arm), the second what
	 * its step reads.
	 */
	_Alignas(64) struct ios_timer timer;
	struct run_ctx *ctx;
	struct run_io *done_head, *done_tail;
	unsigned nr_done;
	enum run_task_state state;
	uint64_t wait_from_ns;		/* the wait begins after the submissions' CPU time */
	unsigned wait_threshold;
	bool async;			/* slat reported separately */
	const struct ios_job *job;
	struct ios_job_result *res;
	struct run_task_file *files;
	struct run_io *sync_io;
	struct run_io *free_ios;
	struct run_io *prepared;	/* prepared but held back by rate limiting */
	struct run_trimwrite *tw;	/* rw=trimwrite, else NULL */
	struct run_rate *rate;		/* rate limits (task.c); NULL without */
	struct run_lat_target *lt;	/* latency_target (lat_target.c); NULL without */
	/* write_iolog= (iolog_write.c): NULL when the job writes none */
	FILE *iolog;
	/* flow (flow.c) */
	struct run_flow *flow;		/* NULL: flow=0 */
	struct run_vtask *vt;		/* verify= (verify.c), NULL without */

	/* progress */
	uint64_t io_target;		/* bytes to issue; UINT64_MAX for time_based */
	uint64_t io_issued;
	uint64_t bytes_issued[2], ios_issued[2];
	uint64_t bytes_done[2], ios_done[2];
	uint64_t start_ns, ramp_end_ns, deadline_ns;
	/*
	 * bw / iops samples over windows of bwavgtime and iopsavgtime (or
	 * log_avg_msec for a windowed log). Without a rate log they are closed
	 * lazily, with no timer (sample_lazy, ios_run_sample_sync); with one,
	 * one timer serves both windows, firing at the earlier end. A per-I/O
	 * bw or iops log makes that statistic per I/O too, as in fio, and its
	 * window is not sampled.
	 */
	uint64_t bw_win_ns, iops_win_ns;	/* 0: sampled per I/O instead */
	uint64_t bw_at_ns, iops_at_ns;		/* start of the current windows */
	uint64_t sample_bytes[2], sample_ios[2];

	unsigned nr_files, cur_file;
	/* engine model */
	unsigned depth;
	unsigned batch_complete_max;
	unsigned inflight;
	unsigned seq_nr_left;		/* fio's td->ddir_seq_nr */
	unsigned think_count;
	bool null_engine;
	bool draining;			/* fio's wait_for_completions is under way */
	bool draining_first;		/* ... and has not reaped yet */
	bool fio_offsets;		/* offsets.c makes the offsets (holes, zones, ...) */
	bool zbd;			/* zonemode=zbd (zbd.c) */
	bool failed;			/* ended by an error of its own (rate_min, an I/O error
					 * errors.c calls fatal): no end_fsync */
	bool stop;
	bool stats_on;
	bool opened;
	/*
	 * The task sleeps with nothing in flight: its windows until it wakes
	 * hold no I/O, so the timer is stopped and the wake-up adds them
	 * (ios_run_task_sample_wake) instead of ticking through idle time.
	 */
	bool sample_idle;
	bool sample_lazy;	/* no rate log: no timer (ios_run_sample_sync) */
	/* fio's bw / lat / iops logs (write_*_log) */
	bool logging;

	struct ios_ioc ioc;

	/* the rest */
	unsigned batch_submit, batch_complete_min;
	bool dir_used[2];
	/*
	 * libaio / io_uring on a blk-mq queue: a batch of more than two I/Os
	 * is submitted under the task's plug (fs/aio.c io_submit,
	 * io_uring's io_submit_state_start), from its first to its last I/O
	 */
	bool plug_batches;
	struct run_io *batch_first, *batch_last;
	unsigned index;			/* global, in job order */
	unsigned clone;			/* 0..numjobs-1 */
	unsigned phase;			/* stonewall phase */
	struct ios_rand rng;
	unsigned depth_low;		/* iodepth_low: a full queue drains to this */
	unsigned drain_min;		/* fio's wait_for_completions' min_evts */
	struct ios_plug plug;
	bool offload;			/* io_submit_mode=offload (submit.c) */
	bool zbd_wait;			/* asleep until another job lets go of a zone */
	/*
	 * The I/O units: depth of them, plus one for syncs. Before the files
	 * are open none is in flight, and the opens use the first one's op.
	 */
	struct run_io *ios;
	uint64_t zone_bytes;		/* fio's td->zone_bytes */
	unsigned loops_done;		/* passes ended by running out of offsets */
	unsigned zbd_open;		/* zones this job opened (fio's td->num_open_zones) */
	bool lab_deadline;		/* deadline_ns is lab.max_sim_time's (or the clock's
					 * end), before the job's own end */
	bool cut;			/* stopped there with work left */
	struct ios_rand *prio_rng;	/* cmdprio's draws (submit.c); NULL without cmdprio */
	uint64_t err_eio_count;		/* reads and writes completed, for lab.eio_every */
	uint64_t err_dumped;		/* io_u error lines printed (errors.c caps them) */

	/* opening files, syncing */
	unsigned open_idx;		/* next file to open */
	unsigned writes_since_sync;
	unsigned end_sync_idx;
	bool end_synced;
	struct run_task_file *last_written;

	/* the sample timer (see bw_win_ns) */
	struct ios_timer sample_timer;

	struct ios_fiolog_job *log;	/* the job's fio logs; allocated only with logs to write */

	/* e4defrag (fileops.c): the donor file, and its open file (NULL for other engines) */
	struct run_file *donor;
	struct ios_file *donor_file;

	/* a replay task (replay_task.c): I/Os from a trace, not from the job's pattern */
	bool replay;
	/* job control (jobctl.c): exitall's exit_what, wait_for */
	bool started;			/* its start ran (a later start event is stale) */
	bool terminated;		/* stopped by exitall before it started: never runs */
	bool exit_group_swept;		/* first clone of a group: exit_what=group stopped it */
	bool held;			/* its start came, its wait_for job is not done */
	bool flow_blocked;		/* flow: waiting for another member to move (flow_sleep=0) */
	bool flow_sleep_due;		/* flow: quiescing, then sleeping flow_sleep */
	unsigned nr_waitee;		/* wait_for: the waitee's clones */
	struct run_replay *rp;
	struct run_task *waitee;	/* wait_for: the waitee's first clone, or NULL */
	uint64_t flow_counter;		/* fio's td->flow_counter: I/Os let through */
	struct run_task *flow_next;	/* the flow's members */
	/* steady state (steadystate.c): NULL unless the job has steadystate_duration */
	struct run_ss *ss;
	/*
	 * The common case held in the task itself: one file (files ==
	 * &file0) and one I/O unit (ios == &io0, iodepth=1 without syncs), so
	 * that what a request reads lies in the task's own pages, not in two
	 * more allocations of their own (issue 34: TLB and cache misses per
	 * request with 10,000 processes)
	 */
	struct run_task_file file0;
	_Alignas(64) struct run_io io0;
};

/*
 * One run, and what its phases (run.c) hand one another: configure fills
 * the tunables, the settings and the scheduler's name; build the host and
 * the queue; plan the tasks, files and page cache; the loop runs; collect
 * reads it all into the result.
 */
struct run_ctx {
	const struct ios_run_config *cfg;
	struct ios_settings *set;	/* the run's copy: 'used' marks are per run */
	const char *schedname;		/* --scheduler, ioscheduler= or the default */

	struct ios_host *host;		/* the disk below the queue, and the clock */
	bool real;			/* a real host (real.c): files attached, real time */
	struct ios_sim *sim;		/* &host->loop: where tasks arm their wake-ups */
	struct ios_queue *q;
	struct ios_fs *fs;
	struct ios_vfs *vfs;
	struct ios_vm_tunables vm;
	struct ios_lab_tunables lab;

	struct run_task *tasks;
	unsigned nr_tasks;
	unsigned nr_phases, cur_phase;
	unsigned *phase_left;		/* tasks not finished per phase */
	unsigned running;

	struct run_file *files, **files_tail;
	struct ios_strmap file_names;	/* name -> run_file */
	struct ios_cgroup **cgroups;
	unsigned nr_cgroups;
	/* exec_prerun's cgroup writes per job (cgroup.c), NULL: no job has one */
	struct run_prerun *prerun;
	unsigned prerun_files;		/* files written by jobs that start later */
	unsigned prerun_unread;		/* files written mid-run that no controller re-reads */
	unsigned prerun_refused;	/* mid-run writes the kernel's parser refused */
	char prerun_refused_msg[512];	/* the first of them */

	struct ios_fiolog_set *logs;	/* NULL: no job writes a log */
	struct ios_series *series;	/* NULL: not recorded */
	int series_err;			/* -ENOMEM while recording */

	struct ios_replay *replay;	/* the trace replayed, or NULL */
	struct ios_replay_tunables replay_tun;
	struct ios_err replay_err;	/* a trace that could not be read during the run */

	struct ios_run_result *res;
	const struct ios_jobfile *jf;
	struct ios_err *e;
	uint64_t seed;
	bool exitall;			/* some job has exitall: every job's end stops its exit_what */
	/*
	 * What exit_what has stopped (jobctl.c): everything, or the jobs
	 * running when nr_starts was stonewall_swept_at. A second stop of the
	 * same would find nothing new, and N jobs' ends would cost N^2.
	 */
	bool exit_swept_all;
	unsigned nr_starts, stonewall_swept_at;
	struct run_flow *flows;		/* flow.c */
	struct ios_timer ss_timer;	/* steadystate.c: fio's 1 s check */
	bool ss_any;
	unsigned nr_waiters;		/* jobs with a wait_for (jobctl.c) */
	struct ios_timer status_timer;	/* --status-interval (status.c) */
	struct run_verify *verify;	/* NULL: no job verifies (verify.c) */
	bool all_done;			/* every job finished */
	uint64_t end_ns;		/* when the last one did */
};

/*
 * fill_device without a size: fio's "really large" size (2^62 bytes here);
 * a filling writer's region, of which writes past the blocks it got fail.
 */
#define RUN_FILL_BYTES (1ull << 62)

/* errors.c: fio's error handling (continue_on_error, ignore_error, fill_device) */
int ios_run_err_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e);
/* At submission: an I/O the simulator fails at once (a write past the space). */
bool ios_run_err_submit(struct run_io *io);
/* At completion (before accounting): lab.eio_every's injected EIO. */
void ios_run_err_complete(struct run_task *t, struct run_io *io);
/* An I/O failed: count it, print it, stop the job or not, as fio's options say. */
void ios_run_err_io(struct run_task *t, struct run_io *io);
/* The job's end: the reported error is the first one when it went on past errors. */
void ios_run_err_finish(struct run_task *t);

/* layout.c */
int ios_run_layout_files(struct run_ctx *c, struct ios_err *e);
/* Before the tasks are allocated: the file count the options ask for, within IOS_RUN_MAX_FILES. */
int ios_run_layout_count(const struct ios_jobfile *jf, bool replay, struct ios_err *e);
/*
 * The start of a message about @j caused by one of its options:
 * "job.fio:3: job 'name': size=2t" at the line of @src when the job file set
 * it, else "job.fio:1: job 'name'" at the job's [section] line.
 */
const char *ios_run_job_where_opt(const struct ios_job *j, const struct ios_optsrc *src, char *buf,
				  size_t len);
void ios_run_files_free(struct run_ctx *c);

/*
 * The latest simulated time a job may run to (about 292 years): with
 * lab.max_sim_time=0 and no runtime, jobs stop here, and times computed
 * from it cannot overflow.
 */
#define RUN_CLOCK_END_NS (UINT64_MAX / 2)

/* task.c */
/* The task wakes from a timer sleep: account the sample windows it slept through. */
void ios_run_task_sample_wake(struct run_task *t, uint64_t now);
/* The task's bw / iops windows and its fio logs (sample.c). */
int ios_run_task_setup_samples(struct run_ctx *c, struct run_task *t, struct ios_err *e);
int ios_run_task_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e);
void ios_run_task_free(struct run_task *t);
void ios_run_task_start(struct run_task *t, uint64_t now);
void ios_run_task_stop_now(struct run_task *t, uint64_t now);

/* accounting and ending shared with replay tasks (task.c) */
void ios_run_task_account(struct run_task *t, struct run_io *io, uint64_t now);
void ios_run_task_finish(struct run_task *t, uint64_t now);

/* fileops.c: the file-operation engines */
int ios_run_fileop_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e);
/* After the layout: files a filecreate job makes, sparse files, allow_file_create=0. */
int ios_run_fileop_files(struct run_ctx *c, struct ios_err *e);
/* Before @t opens @tf: 0, or -ENOENT (unlinked and allow_file_create=0), -ENOMEM. */
int ios_run_fileop_open(struct run_task *t, struct run_task_file *tf);
/* Fill io->op for a file-operation engine; false: the unit does no operation (done now). */
bool ios_run_fileop_prepare(struct run_task *t, struct run_io *io);
/* The op is done: true when the unit has a next one (set up in io->op). */
bool ios_run_fileop_next(struct run_io *io);
/* Account a unit of filecreate/filestat/filedelete (true), else false. */
bool ios_run_fileop_account(struct run_task *t, struct run_io *io, struct ios_dir_result *d,
			    uint64_t now);

/* iolog_write.c: write_iolog= */
int ios_run_iolog_open(struct run_ctx *c, struct run_task *t, struct ios_err *e);
void ios_run_iolog_start(struct run_task *t);
void ios_run_iolog_file(struct run_task *t, const struct run_task_file *tf, const char *what,
			uint64_t now);
void ios_run_iolog_io(struct run_task *t, const struct run_io *io, uint64_t now);
void ios_run_iolog_close(struct run_task *t, uint64_t now);
void ios_run_iolog_abort(struct run_task *t);

/* zbd.c: zonemode=zbd */
enum run_zbd_act {
	RUN_ZBD_ACCEPT,		/* the I/O goes (offset and length adjusted) */
	RUN_ZBD_EOF,		/* no zone for it: the job's I/O ends (fio's io_u_eof) */
	RUN_ZBD_QUIESCE,	/* wait for the job's own I/O in flight, then try again */
	RUN_ZBD_WAIT,		/* wait for another job's I/O (a zone it holds), then again */
};
/* Every task: zoned-device checks and notes; a zbd job's zones (fio's zbd_setup_files). */
int ios_run_zbd_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e);
int ios_run_zbd_dir(struct run_task *t, int dir);
void ios_run_zbd_seq_jump(struct run_task *t, struct run_task_file *tf, int dir);
enum run_zbd_act ios_run_zbd_adjust(struct run_task *t, struct run_io *io);
/* The I/O completed: the zone it held is released, and the jobs waiting may try again. */
void ios_run_zbd_put(struct run_task *t, struct run_io *io, uint64_t now);
void ios_run_zbd_free_file(struct run_file *f);
/*
 * A read or write of @t failed: fio's "io_u error" message, the job's
 * error, and its end (true: @io is not counted).
 */
/* a job's first I/O failed with EIO: fio's "consider --zonemode=zbd" hint */
void ios_run_zbd_hint(struct run_task *t, const struct run_io *io, int err);
/* task.c: wake a task asleep in RUN_ZBD_WAIT */
void ios_run_task_zbd_wake(struct run_task *t, uint64_t now);

/* replay_task.c */
int ios_run_replay_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e);
uint64_t ios_run_replay_start_delay(const struct run_task *t);
void ios_run_replay_start(struct run_task *t, uint64_t now);
void ios_run_replay_stop(struct run_task *t, uint64_t now);
void ios_run_replay_free(struct run_task *t);
/* I/Os of the replay task @t not yet complete. */
unsigned ios_run_replay_inflight(const struct run_task *t);
/* I/Os (records with data or flushes) the replay task @t has to replay in all. */
uint64_t ios_run_replay_total_ios(const struct run_task *t);

/* run.c */
void ios_run_task_finished(struct run_ctx *c, struct run_task *t, uint64_t now);

/* task.c: hooks for job control */
/* Start @t with nothing to do: it ends at once, having opened nothing (exitall before its start). */
void ios_run_task_start_dead(struct run_task *t, uint64_t now);
/* Wake a task asleep on its timer now (flow members). */
void ios_run_task_wake(struct run_task *t, uint64_t now);

/* jobctl.c: wait_for, exit_what, profile notes; flow.c and steadystate.c set up here too */
int ios_run_jobctl_setup(struct run_ctx *c, struct ios_err *e);
void ios_run_jobctl_free(struct run_ctx *c);
/* A start event for @t: false when @t must not start now (stale, or held by wait_for). */
bool ios_run_jobctl_may_start(struct run_task *t, uint64_t now);
/* @t finished: exitall's exit_what, waiters of its job, its flow. */
void ios_run_jobctl_finished(struct run_ctx *c, struct run_task *t, uint64_t now);

/* flow.c */
int ios_run_flow_setup(struct run_ctx *c, struct ios_err *e);
void ios_run_flow_free(struct run_ctx *c);
/* fio's flow_threshold_exceeded: true when @t is held back; else the I/O is counted */
bool ios_run_flow_held(struct run_task *t);
/* @t waits for another member of its flow to move (flow_sleep=0) */
void ios_run_flow_block(struct run_task *t);
void ios_run_flow_exit(struct run_task *t, uint64_t now);

/* steadystate.c */
int ios_run_ss_setup(struct run_ctx *c, struct ios_err *e);
void ios_run_ss_start(struct run_ctx *c, uint64_t now);
void ios_run_ss_task_start(struct run_task *t, uint64_t now);
void ios_run_ss_free(struct run_ctx *c);
/* the steady-state block of @t's result (collect), into @r (a snapshot's) or t->res */
int ios_run_ss_result(struct run_task *t, struct ios_job_result *r);

/* status.c: --status-interval */
void ios_run_status_start(struct run_ctx *c, uint64_t now);
/* May a periodic observer (status, steady state) tick again at @next? */
bool ios_run_ticks_wanted(const struct run_ctx *c, uint64_t next);

/* sample.c: the bw/iops windows and rate logs of a task */
void ios_run_sample_arm(struct run_task *t);
void ios_run_sample_sync(struct run_task *t, uint64_t now);
/* compare --from: a completed data I/O into the job's window counters (sample.c) */
void ios_run_window_io(struct run_task *t, uint64_t len, uint64_t clat, uint64_t now);
/* the job ended: the rate logs' last, partial window */
void ios_run_sample_finish_logs(struct run_task *t, uint64_t now);

/* plan.c: the plan phase (tasks, files, page cache, task set-up) */
int ios_run_plan(struct run_ctx *c, struct ios_err *e);

/* collect.c: the collect phase (the result, warnings for jobs cut short) */
int ios_run_collect(struct run_ctx *c, struct ios_err *e);
void ios_run_collect_disk(const struct run_ctx *c, struct ios_disk_result *d, uint64_t end);
bool ios_run_disk_util(const struct ios_jobfile *jf);
/* the simulated device's notes (FTL, zone rules, cloud limits) into @out */
int ios_host_sim_notes(struct ios_host *h, struct ios_run_result *out);

/* cgroup.c */
struct ios_cgroup *ios_run_cgroup_get(struct run_ctx *c, const char *path);
void ios_run_cgroups_free(struct run_ctx *c);
const char *ios_run_group_policy_name(int gp);
int ios_run_warn(struct ios_run_result *out, const char *fmt, ...) IOS_PRINTF(2, 3);
/* A warning fio 3.33 prints too (an I/O error, a verify failure): stays on stderr */
int ios_run_warn_fio(struct ios_run_result *out, const char *fmt, ...) IOS_PRINTF(2, 3);
/*
 * A note fio's fixup_options prints and counts as a parser warning: a
 * warning, or with --warnings-fatal (cfg->warnings_fatal) an error in @e
 * that refuses the run. 0 or -errno.
 */
int ios_run_fio_warn(struct run_ctx *c, struct ios_err *e, const char *fmt, ...) IOS_PRINTF(3, 4);
int ios_run_cgroups_sched(struct run_ctx *c, const struct ios_sched_type **st,
			  struct ios_run_result *out, struct ios_err *e);
int ios_run_cgroups_check(struct run_ctx *c, const struct ios_sched_type *st,
			  struct ios_settings *set, struct ios_run_result *out, struct ios_err *e);
int ios_run_cgroups_result(struct run_ctx *c, struct ios_run_result *out);
/* A task starts: its job's exec_prerun writes, when they were kept for now. */
void ios_run_cgroups_prerun(struct run_task *t, uint64_t now);

/* perm */
void ios_run_perm_init(struct run_perm *p, uint64_t n, struct ios_rand *rng);
/* offsets.c: fio's offset rules for holes, rw_sequencer and strided zones */
bool ios_run_offsets_wanted(const struct ios_job *j);
int ios_run_offsets_init(struct run_task *t, struct ios_err *e);
void ios_run_offsets_free(struct run_task *t);
int ios_run_offsets_notes(struct run_ctx *c, struct run_task *t, struct ios_err *e);
bool ios_run_offsets_next(struct run_task *t, struct run_task_file **tf, int dir, uint64_t bs,
			  uint64_t *off);
uint64_t ios_run_perm_next(struct run_perm *p, struct ios_rand *rng);
/*
 * offsets.c: a plain job's next offset (task.c's jobs, not fio_offsets'), from
 * @*tf on; *bs cut to the file's region. False when the job's I/O is done.
 */
bool ios_run_plain_next(struct run_task *t, struct run_task_file **tf, int dir, uint64_t *bs,
			uint64_t *off);

/* submit.c: io_submit_mode, cmdprio, random_generator, the buffer-content note */
int ios_run_submit_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e);
void ios_run_lfsr_init(struct ios_run_lfsr *l, uint64_t n, uint64_t seed);
uint64_t ios_run_lfsr_next(struct ios_run_lfsr *l);
uint64_t ios_run_lfsr_block(struct run_task *t, struct run_task_file *tf, uint64_t blocks);
void ios_run_cmdprio_pick(struct run_task *t, struct run_io *io);
/* fio's gtod_reduce(): no clock read at completion, so no per-I/O iops samples */
static inline bool ios_run_gtod_reduced(const struct ios_job *j)
{
	return j->gtod_reduce || (j->disable_clat && j->disable_slat && j->disable_bw);
}
/* run.c: what the disk gives the queue: legacy depth, or blk-mq tags and queues */
void ios_run_queue_geometry(const struct ios_host_disk *disk, unsigned cpus, unsigned layer,
			    struct ios_queue_config *qc);
void ios_run_cpu_cost(const struct ios_lab_tunables *lab, const struct ios_settings *set,
		      const struct ios_sched_type *st, struct ios_mq_cpu_cost *cc);
/* The run's queue is a blk-mq one (its scheduler's layer): cpus_allowed counts there. */
static inline bool ios_run_is_mq(const struct run_ctx *c)
{
	return c->q && c->q->sched && ios_sched_layer(c->q->sched) == IOS_SCHED_LAYER_MQ;
}
/* lat_target.c: fio's latency_target depth search */
void ios_run_lat_target_init(struct run_task *t, uint64_t now);
void ios_run_lat_target_io(struct run_task *t, uint64_t lat_ns, uint64_t now);
unsigned ios_run_lat_target_depth(const struct run_task *t);

/* real.c: a run on a real host (--real) */
bool ios_run_is_real(const struct ios_run_config *cfg);
int ios_run_real_settings(struct ios_settings *set);
int ios_run_real_configure(struct run_ctx *c, struct ios_err *e);
const char *ios_run_real_probe(const struct ios_jobfile *jf, char *buf, size_t len);
int ios_run_real_check(struct run_ctx *c, struct ios_err *e);
int ios_run_real_attach(struct run_ctx *c, struct ios_err *e);
int ios_run_real_collect(struct run_ctx *c, struct ios_run_result *out);
/* h->interrupt of a real run: every job stops (jobctl.c) */
void ios_run_real_interrupt(struct ios_host *h, void *arg);
void ios_run_jobctl_stop_all(struct run_ctx *c, uint64_t now);
/* unlink=1 under --real: the job's files go from the disk too (their descriptors stay) */
void ios_run_real_unlink(struct run_task *t);
void ios_run_disk_result(struct ios_disk_result *d, const char *name,
			 const struct ios_disk_stats *s, uint64_t end);

#endif
