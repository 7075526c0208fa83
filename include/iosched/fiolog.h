/*
 * fio's bandwidth, latency and IOPS logs (write_bw_log, write_lat_log,
 * write_iops_log), written the way fio 3.33 writes them so that fio's own
 * tools (fio2gnuplot, fio_generate_plots) read them.
 *
 * File names: PREFIX_bw.N.log, PREFIX_iops.N.log and, for write_lat_log,
 * PREFIX_slat.N.log, PREFIX_clat.N.log, PREFIX_lat.N.log, where N is fio's
 * job number (every job clone counts, from 1, in job-file order) and
 * ".N" is left out with per_job_logs=0. Jobs whose logs get the same name
 * share one file.
 *
 * Lines: "time, value, direction, block size[, offset], priority" with
 * ", " between fields. time is milliseconds of simulated time since the
 * job's statistics started (its start, or the end of its ramp_time), as
 * fio counts from its epoch. Values: latencies in ns; bandwidth in KiB/s
 * (per I/O: fio's bytes * 10^6 / clat_ns); IOPS (1 per I/O). direction is 0
 * read, 1 write. priority is 1 for the realtime class, else 0, or with
 * log_prio=1 the whole ioprio value (class << 13 | level) as 0x%04x.
 *
 * Without log_avg_msec every I/O gives one line per log. With it, latency
 * lines are the rounded mean of each window of log_avg_msec ms (aligned to
 * the job's epoch, one line per direction that had I/O in the window, time
 * = the window's end, block size and offset 0), and bandwidth / IOPS lines
 * come from the runner's own windows (ios_fiolog_rate()).
 *
 * Memory stays bounded however long the run: each file has a buffer of at
 * most 64 KiB that is appended to the file when it fills. A file is opened
 * only for that append, so thousands of logs need no open descriptors.
 * Files are created (truncated) when a job's logs are opened, before the
 * simulation runs, so a name that cannot be written fails the run at once.
 * A later write error is kept and returned by ios_fiolog_set_close().
 */
#ifndef IOSCHED_FIOLOG_H
#define IOSCHED_FIOLOG_H

#include <stdbool.h>
#include <stdint.h>
#include "err.h"
#include "job.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ios_fiolog_kind {
	IOS_FIOLOG_BW,
	IOS_FIOLOG_IOPS,
	IOS_FIOLOG_SLAT,
	IOS_FIOLOG_CLAT,
	IOS_FIOLOG_LAT,
	IOS_FIOLOG_NR,
};

struct ios_fiolog_set;		/* every log file of a run */
struct ios_fiolog_file;		/* one file, shared by the logs that name it */

/* Latency averaging window of one log and direction. */
struct ios_fiolog_win {
	uint64_t sum_ns;
	uint64_t n;
};

/* The logs of one job clone. Zero it, then ios_fiolog_job_open(). */
struct ios_fiolog_job {
	struct ios_fiolog_file *file[IOS_FIOLOG_NR];	/* NULL: not logged */
	uint64_t avg_ns;		/* log_avg_msec; 0 = one line per I/O */
	uint64_t win_end_ns;		/* end of the current latency window (epoch-relative) */
	struct ios_fiolog_win win[IOS_FIOLOG_NR][2];
	unsigned prio;			/* the job's ioprio value, as fio logs it */
	bool log_offset, log_prio;
};

/* A run's set of files. NULL on ENOMEM. */
struct ios_fiolog_set *ios_fiolog_set_new(void);
/*
 * Flush every buffer to its file and free the set. Returns 0, or the first
 * write error (-errno) with @e naming the file.
 */
int ios_fiolog_set_close(struct ios_fiolog_set *s, struct ios_err *e) IOS_MUST_CHECK;
/* Free without writing (a run that failed). */
void ios_fiolog_set_free(struct ios_fiolog_set *s);

/*
 * Open the logs @job asks for, for the clone with fio job number @number
 * (from 1): creates (truncates) each file the first time a name is seen.
 * A job asking for no log gets an all-NULL @lj and 0. Errors: -errno with
 * "FILE:LINE: job 'NAME': write_bw_log=PREFIX: cannot create 'PATH': ...".
 */
int ios_fiolog_job_open(struct ios_fiolog_set *s, const struct ios_job *job, unsigned number,
			struct ios_fiolog_job *lj, struct ios_err *e) IOS_MUST_CHECK;

/*
 * Every log file the jobs of @jf ask for, under the names a run gives them
 * (job numbers counting every clone from 1, in job-file order):
 * @fn(@arg, path, job, option) once per log of each job, or of each clone
 * with per_job_logs. Nothing is created. Returns the first non-zero value
 * of @fn, else 0. For checking, before a run, that no log overwrites an
 * input or another output.
 */
int ios_fiolog_each_path(const struct ios_jobfile *jf,
			 int (*fn)(void *arg, const char *path, const struct ios_job *job,
				   const char *opt),
			 void *arg);

/* ioprio value fio puts in the logs for @job: (class << 13) | level, class BE if only prio= */
unsigned ios_fiolog_job_prio(const struct ios_job *job);

/* True when the log @k is open. */
static inline bool ios_fiolog_has(const struct ios_fiolog_job *lj, enum ios_fiolog_kind k)
{
	return lj->file[k] != NULL;
}

/*
 * One completed I/O, @t_ns after the job's epoch. @slat_ns is logged only
 * when @has_slat (async engines). Writes the per-I/O lines, or adds to the
 * latency windows (closing the windows @t_ns has passed first).
 */
void ios_fiolog_io(struct ios_fiolog_job *lj, uint64_t t_ns, int dir, uint64_t len,
		   uint64_t offset, bool has_slat, uint64_t slat_ns, uint64_t clat_ns,
		   uint64_t lat_ns);
/* A windowed bandwidth (KiB/s) or IOPS line for @dir at @t_ns (bs and offset 0). */
void ios_fiolog_rate(struct ios_fiolog_job *lj, enum ios_fiolog_kind k, uint64_t t_ns, int dir,
		     uint64_t value);
/* The job ended at @t_ns: write the latency windows still open. */
void ios_fiolog_job_end(struct ios_fiolog_job *lj, uint64_t t_ns);

#ifdef __cplusplus
}
#endif

#endif
