/*
 * Private structures of the trace readers (src/trace/).
 *
 * An input is one or more files (the per-CPU files of a blktrace, or one
 * file). A reader walks every record of the input in order and turns each
 * into a struct tr_item; the same walk serves the check at open (every
 * item) and each task's cursor (its pid's I/O items only). Files are read
 * with pread through fixed-size buffers (struct tr_rd), never whole.
 */
#ifndef IOSCHED_TRACE_INT_H
#define IOSCHED_TRACE_INT_H

#include <sys/types.h>
#include "iosched/replay.h"
#include "iosched/blktrace.h"

#define TR_BUF_BIN	(16u << 10)	/* per file and cursor: 340 records */
#define TR_BUF_TEXT	(16u << 10)	/* at least two maximal lines */

struct tr_file {
	char *name;
	int fd;				/* -1: in memory */
	const uint8_t *mem;
	uint64_t size;
	int be;				/* blktrace: 1 big-endian records */
};

/* A forward reader over one file. */
struct tr_rd {
	struct ios_replay *r;
	const struct tr_file *f;
	uint64_t off;			/* file offset of buf[0] */
	uint8_t *buf;
	size_t cap, len, pos;
};

/* An iolog file: where its bytes land on the disk. */
struct tr_iofile {
	char *name;
	uint64_t extent;		/* highest offset + length used */
	uint64_t extent_where;		/* line of the I/O reaching it */
	uint64_t base_sector;		/* set once the check has seen every line */
	bool is_dev;			/* /dev/...: offsets are device offsets */
};

enum tr_kind {
	TR_IO,				/* an I/O to replay */
	TR_COMM,			/* pid's name */
	TR_OTHER,			/* nothing for replay (counted) */
};

struct tr_item {
	enum tr_kind kind;
	uint32_t pid;
	uint64_t time;			/* raw: the input's clock */
	struct ios_replay_rec rec;	/* sector etc.; time_ns not yet relative */
	uint32_t iofile;		/* iolog: file index; rec.sector is the byte offset */
	uint64_t len;			/* iolog: bytes */
	const char *comm;		/* TR_COMM: NUL-terminated, valid until the next item */
	uint32_t device;
	unsigned file;			/* index in ios_replay.files (binary) */
	int skip;			/* TR_OTHER: 1 discard, 2 passthrough, 3 empty, 0 other */
};

/* The walk over an input. */
struct tr_iter {
	struct ios_replay *r;
	bool check;			/* the open-time check: validate, build tables */
	/* blktrace: one reader and a decoded head record per file */
	struct tr_bin {
		struct tr_rd rd;
		bool have;		/* head is valid */
		bool done;
		struct ios_blk_rec head;
		uint64_t recno;		/* 1-based number of head in its file */
		uint64_t head_off;	/* its byte offset */
	} *bin;
	unsigned nr_bin;
	char comm[IOS_BLK_COMM_LEN * 2];
	/* text */
	struct tr_rd rd;
	uint64_t lineno;
	bool trailer;			/* blkparse: past the events, in the summary */
	uint64_t wait_us;		/* iolog v2: time from wait lines */
};

struct ios_replay {
	char *path;
	enum ios_replay_format format;
	struct tr_file *files;
	unsigned nr_files;
	struct ios_replay_info info;
	uint64_t origin;		/* raw time of the first event */

	struct ios_replay_stream *streams;
	size_t nr_streams;
	/* pid -> stream / name: open addressing; slots hold index + 1 */
	uint32_t *pid_slots;
	size_t pid_cap;
	struct tr_pid {
		uint32_t pid;
		int32_t stream;		/* -1: none yet */
		char comm[32];
	} *pids;
	size_t nr_pids;

	struct tr_iofile *iofiles;	/* iolog */
	size_t nr_iofiles;

	struct ios_jobfile jf;		/* built on first ios_replay_jobfile() */
	bool jf_built;

	size_t buffered, buffered_peak;
};

/* files and readers (replay.c) */
int ios_tr_rd_init(struct tr_rd *rd, struct ios_replay *r, const struct tr_file *f, size_t cap,
		   struct ios_err *e);
void ios_tr_rd_free(struct tr_rd *rd);
/* Make @n bytes readable at rd->buf + rd->pos: returns how many are (< @n at the end), or -errno. */
ssize_t ios_tr_rd_need(struct tr_rd *rd, size_t n, struct ios_err *e);
/* Offset in the file of the next unread byte. */
static inline uint64_t tr_rd_tell(const struct tr_rd *rd)
{
	return rd->off + rd->pos;
}

/* blktrace binary (rd_blktrace.c) */
int ios_tr_bin_init(struct tr_iter *it, struct ios_err *e);
int ios_tr_bin_next(struct tr_iter *it, struct tr_item *item, struct ios_err *e);

/* blkparse text and fio iologs (rd_text.c) */
int ios_tr_text_init(struct tr_iter *it, struct ios_err *e);
int ios_tr_text_next(struct tr_iter *it, struct tr_item *item, struct ios_err *e);
/* iolog: index of file @name, adding it when @add; -1 when unknown */
long ios_tr_iofile_find(struct ios_replay *r, const char *name, bool add, struct ios_err *e);

void ios_tr_iter_free(struct tr_iter *it);

#endif
