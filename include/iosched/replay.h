/*
 * Replay: a recorded I/O trace as the workload of a run.
 *
 * iosched replay TRACE reads what a process population did to a disk and
 * does it again, at the recorded sectors and times, under the scheduler and
 * device of this run. Inputs:
 * - blktrace binary files: a per-CPU set NAME.blktrace.0, .1, ... (give
 *   NAME, or any one of the files, as blkparse -i does), or a single file
 *   such as blkparse -d's merged dump. Either byte order; several devices
 *   all land on the one simulated disk.
 * - blkparse's default text output (blkparse -i NAME > FILE).
 * - fio iologs, versions 2 and 3 (fio's write_iolog / read_iolog).
 *
 * Every process that queued I/O (a pid with Q events; the whole iolog)
 * becomes one task and one job of the report, named by its comm. A job
 * file's read_iolog=FILE makes that job replay the whole trace instead of
 * its I/O pattern, as fio does. What is
 * replayed is the Q event: a bio entering the queue, with its direction,
 * sector, size, and its sync, meta, FUA, preflush and readahead flags.
 * How tasks wait and when they issue is described at ios_replay_run and in
 * docs/blktrace.md.
 *
 * Reading streams: ios_replay_open() checks the whole input once (formats,
 * truncation, every line) and keeps only a per-process summary; each task
 * then reads its own records forward through a cursor with a fixed-size
 * buffer. Memory does not grow with the length of the trace.
 *
 * Errors name the file and the record (binary: record number and byte
 * offset) or line, and say what is wrong.
 */
#ifndef IOSCHED_REPLAY_H
#define IOSCHED_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "job.h"
#include "run.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ios_replay_format {
	IOS_REPLAY_BLKTRACE,		/* binary records */
	IOS_REPLAY_BLKPARSE,		/* blkparse text */
	IOS_REPLAY_IOLOG2,		/* fio version 2 iolog */
	IOS_REPLAY_IOLOG3,		/* fio version 3 iolog */
};

/* Limits; beyond them the input is refused with a message saying so. */
#define IOS_REPLAY_MAX_STREAMS	4096	/* processes that issue I/O: one task each */
#define IOS_REPLAY_MAX_PIDS	65536	/* processes named in the trace */
#define IOS_REPLAY_MAX_CPUS	1024	/* NAME.blktrace.N files */
#define IOS_REPLAY_MAX_FILES	65536	/* files of an iolog */
#define IOS_REPLAY_MAX_LINE	4096	/* text line length, as fio's iolog reader */

/* One I/O to replay. */
struct ios_replay_rec {
	uint64_t time_ns;		/* when it was queued, since the trace's first event */
	uint64_t sector;
	uint32_t nr_sectors;		/* 0: a cache flush */
	uint8_t dir;			/* enum ios_dir */
	uint32_t flags;			/* IOS_REQ_SYNC, META, FUA, PREFLUSH, AHEAD */
	uint64_t where;			/* record or line number, for messages */
};

/* One process of the trace (one task of the replay). */
struct ios_replay_stream {
	uint32_t pid;
	char comm[32];			/* from the trace; "pidN" when it names none */
	uint64_t nr_ios;		/* I/Os to replay (flushes included) */
	uint64_t nr_flushes;
	uint64_t ios[2], bytes[2];	/* per direction */
	uint64_t first_ns;		/* time of its first I/O */
	uint64_t max_end;		/* highest sector + size it touches */
	const char *max_end_file;	/* file and record / line of that I/O */
	uint64_t max_end_where;
};

/* What the check of the input found. */
struct ios_replay_info {
	enum ios_replay_format format;
	unsigned nr_files;		/* per-CPU files read */
	uint64_t nr_records;		/* records (binary) or lines (text) */
	uint64_t nr_ios;		/* I/Os to replay, all streams */
	/* queued I/O left out, and why */
	uint64_t skipped_discard;	/* discards and iolog trims: not modelled */
	uint64_t skipped_pc;		/* SCSI passthrough requests */
	uint64_t skipped_empty;		/* zero-size, not a flush */
	unsigned nr_devices;		/* distinct devices (binary and text) */
	uint32_t device;		/* the first of them, as blktrace numbers it
					 * (IOS_BLK_DEV: major << 20 | minor); 0: none */
};

struct ios_replay;
struct ios_replay_cursor;

/*
 * Open and check @path (format detected from the content; NAME without a
 * file of that name means NAME.blktrace.N). Returns 0 or -errno with @e
 * naming the file, the record or line, and what is wrong.
 */
int ios_replay_open(const char *path, struct ios_replay **out, struct ios_err *e) IOS_MUST_CHECK;
/* The same over @len bytes at @data (one file called @name); @data must outlive @r. */
int ios_replay_open_mem(const char *name, const void *data, size_t len, struct ios_replay **out,
			struct ios_err *e) IOS_MUST_CHECK;
void ios_replay_close(struct ios_replay *r);

const struct ios_replay_info *ios_replay_info(const struct ios_replay *r);
size_t ios_replay_nr_streams(const struct ios_replay *r);
const struct ios_replay_stream *ios_replay_stream(const struct ios_replay *r, size_t i);
/* The path the user gave (for messages and the report). */
const char *ios_replay_name(const struct ios_replay *r);

/*
 * Read stream @i's I/Os in order (IOS_REPLAY_ALL: every stream's, merged in
 * trace order). next() returns 1 with @rec filled, 0 at the end, or -errno
 * (the file changed since it was checked, an I/O error).
 */
#define IOS_REPLAY_ALL ((size_t)-1)
int ios_replay_cursor_open(struct ios_replay *r, size_t i, struct ios_replay_cursor **out,
			   struct ios_err *e) IOS_MUST_CHECK;
int ios_replay_cursor_next(struct ios_replay_cursor *c, struct ios_replay_rec *rec,
			   struct ios_err *e) IOS_MUST_CHECK;
void ios_replay_cursor_close(struct ios_replay_cursor *c);

/* Bytes held in read buffers by open cursors now, and at most so far. */
size_t ios_replay_buffered(const struct ios_replay *r, size_t *peak);

/*
 * The jobs of the replay, one per stream in stream order: named by comm,
 * with the trace as read_iolog for the report's job options. Owned by @r.
 */
const struct ios_jobfile *ios_replay_jobfile(struct ios_replay *r);

/* replay.* tunables: --set replay.NAME=VALUE */
struct ios_replay_tunables {
	int iodepth;			/* blocking I/Os a task keeps in flight */
	int no_stall;			/* 1: ignore the recorded times */
	int time_scale;			/* percent: 200 replays twice as fast */
};
extern const struct ios_tunable ios_replay_tunables_table[];

/*
 * Run the trace: one task per stream, each issuing its I/Os straight to the
 * block layer (like O_DIRECT) no earlier than their recorded time (scaled
 * by replay.time_scale) and in recorded order. A read, a sync write or a
 * cache flush blocks its task as the system call did: with
 * replay.iodepth of them in flight (default 1) the task waits for one to
 * complete, and issues the next no earlier than lab.complete_ns +
 * lab.submit_ns after that completion. Async writes (writeback) and
 * readahead do not block. A bio that finds no free request sleeps its task,
 * as in the kernel. Scheduler, device, settings, seed, trace sink come from
 * @cfg as for ios_run; the result has one job per stream, and refers to
 * @r's jobs (ios_replay_jobfile): close @r only after freeing @out.
 */
int ios_replay_run(struct ios_replay *r, const struct ios_run_config *cfg,
		   struct ios_run_result *out, struct ios_err *e) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
