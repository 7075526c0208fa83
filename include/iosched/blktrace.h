/*
 * blktrace: the binary trace format of Linux's block-layer tracer, written
 * from the simulated queue so that the real blkparse and btt read our runs.
 *
 * A trace is a concatenation of 48-byte struct blk_io_trace records, each
 * followed by pdu_len bytes of payload, with no file header (blktrace 1.x,
 * record version 7). Real blktrace writes one file per CPU, NAME.blktrace.N;
 * we have one simulated CPU and write NAME.blktrace.0. Records are written
 * little-endian whatever the host, so the same run gives the same bytes on
 * every machine (blkparse detects the byte order from the magic).
 *
 * The writer is a struct ios_trace_ops sink (block.h): pass
 * ios_blktrace_trace_ops and the writer as ios_run_config.trace_ops/trace.
 * What it writes per hook, and why, is in docs/blktrace.md; in short:
 * - every Q, M, F, G, S, I, D, C (and R, P, U, UT if the queue ever reports
 *   them) becomes one record with the next per-CPU sequence number, time in
 *   ns since the start of the run, device 8,0 (sda), CPU 0;
 * - bio events carry the bio's sector, size and submitter; request events
 *   the request's, its I/O context's pid, and the FS category;
 * - a process note (BLK_TN_PROCESS, the pid's comm) precedes the first event
 *   of every pid, as the kernel's trace_note_tsk does;
 * - scheduler messages become BLK_TN_MESSAGE notes ("m" lines in blkparse).
 *
 * The record codec is public too: the replay reader (replay.h) and the tests
 * decode what the writer encodes with the same definitions.
 */
#ifndef IOSCHED_BLKTRACE_H
#define IOSCHED_BLKTRACE_H

#include <stdbool.h>
#include <stdint.h>
#include "block.h"
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_BLK_MAGIC		0x65617400u	/* "eat" in the top three bytes */
#define IOS_BLK_MAGIC_MASK	0xffffff00u
#define IOS_BLK_VERSION		0x07u		/* what blkparse 1.x accepts */
#define IOS_BLK_REC_SIZE	48u

/* low 16 bits of the action word (__BLK_TA_*) */
enum ios_blk_ta {
	IOS_BLK_TA_QUEUE = 1,
	IOS_BLK_TA_BACKMERGE,
	IOS_BLK_TA_FRONTMERGE,
	IOS_BLK_TA_GETRQ,
	IOS_BLK_TA_SLEEPRQ,
	IOS_BLK_TA_REQUEUE,
	IOS_BLK_TA_ISSUE,
	IOS_BLK_TA_COMPLETE,
	IOS_BLK_TA_PLUG,
	IOS_BLK_TA_UNPLUG_IO,
	IOS_BLK_TA_UNPLUG_TIMER,
	IOS_BLK_TA_INSERT,
	IOS_BLK_TA_SPLIT,
	IOS_BLK_TA_BOUNCE,
	IOS_BLK_TA_REMAP,
	IOS_BLK_TA_ABORT,
	IOS_BLK_TA_DRV_DATA,
	IOS_BLK_TA_NR
};

/* notify codes, with IOS_BLK_TC_NOTIFY as the category (__BLK_TN_*) */
enum ios_blk_tn {
	IOS_BLK_TN_PROCESS = 0,		/* payload: the comm, NUL padded */
	IOS_BLK_TN_TIMESTAMP = 1,	/* payload: u32 seconds, u32 nanoseconds */
	IOS_BLK_TN_MESSAGE = 2,		/* payload: text */
};

/* category bits, high 16 bits of the action word (BLK_TC_*) */
enum {
	IOS_BLK_TC_READ		= 1u << 0,
	IOS_BLK_TC_WRITE	= 1u << 1,
	IOS_BLK_TC_FLUSH	= 1u << 2,
	IOS_BLK_TC_SYNC		= 1u << 3,
	IOS_BLK_TC_QUEUE	= 1u << 4,
	IOS_BLK_TC_REQUEUE	= 1u << 5,
	IOS_BLK_TC_ISSUE	= 1u << 6,
	IOS_BLK_TC_COMPLETE	= 1u << 7,
	IOS_BLK_TC_FS		= 1u << 8,
	IOS_BLK_TC_PC		= 1u << 9,
	IOS_BLK_TC_NOTIFY	= 1u << 10,
	IOS_BLK_TC_AHEAD	= 1u << 11,
	IOS_BLK_TC_META		= 1u << 12,
	IOS_BLK_TC_DISCARD	= 1u << 13,
	IOS_BLK_TC_DRV_DATA	= 1u << 14,
	IOS_BLK_TC_FUA		= 1u << 15,
};
#define IOS_BLK_TC_SHIFT 16
#define IOS_BLK_TC_ACT(c) ((uint32_t)(c) << IOS_BLK_TC_SHIFT)
#define IOS_BLK_TA_MASK 0xffffu
/* bit 8 of the low half (kernel 4.14+: a cgroup id leads the payload) */
#define IOS_BLK_TA_CGROUP 0x100u

/* dev_t as the kernel stores it in a record: major << 20 | minor */
#define IOS_BLK_DEV(major, minor) (((uint32_t)(major) << 20) | (uint32_t)(minor))
#define IOS_BLK_DEV_SDA IOS_BLK_DEV(8, 0)

/* comm length of a process note: the kernel's TASK_COMM_LEN */
#define IOS_BLK_COMM_LEN 16

/* One record header, fields in host order. */
struct ios_blk_rec {
	uint32_t magic;
	uint32_t sequence;
	uint64_t time;
	uint64_t sector;
	uint32_t bytes;
	uint32_t action;
	uint32_t pid;
	uint32_t device;
	uint32_t cpu;
	uint16_t error;
	uint16_t pdu_len;
};

/* Encode @r as 48 little-endian bytes. */
void ios_blk_rec_encode(const struct ios_blk_rec *r, uint8_t out[IOS_BLK_REC_SIZE]);
/*
 * Decode 48 bytes: @big_endian says how they were written (see
 * ios_blk_magic_order). No validation.
 */
void ios_blk_rec_decode(const uint8_t in[IOS_BLK_REC_SIZE], bool big_endian,
			struct ios_blk_rec *r);
/*
 * Byte order of a record from its first four bytes: 0 little-endian, 1
 * big-endian, -1 not a blktrace magic in either order.
 */
int ios_blk_magic_order(const uint8_t in[4]);

/* blkparse's action letters: "Q", "UT", ...; "?" for unknown codes. */
const char *ios_blk_action_name(unsigned code);

/* ---- the writer ---- */

struct ios_blktrace;

/* What a writer wrote, for tests and the command line's summary. */
struct ios_blktrace_counts {
	uint64_t actions[IOS_BLK_TA_NR];	/* event records per action code */
	uint64_t events;			/* all event (non-notify) records */
	uint64_t process_notes, messages, timestamps;
	uint64_t bytes;				/* file size */
	/* ios_blktrace_set_limit: was the trace cut, where, and what was left out */
	bool cut;
	uint64_t cut_ns;			/* time of the first record left out */
	uint64_t dropped;			/* records left out (events and notes) */
	uint64_t limit;				/* the limit in bytes; 0: none */
};

/*
 * Create NAME.blktrace.0 (truncating it) and write the start-of-trace
 * timestamp note. @name is the base name as blkparse -i takes it; it may
 * contain a directory. Returns 0 or -errno with @e naming the file.
 */
int ios_blktrace_open(const char *name, struct ios_blktrace **out,
		      struct ios_err *e) IOS_MUST_CHECK;
/*
 * Flush and close; fills @counts (may be NULL). A write error seen at any
 * point (disk full) is reported here, naming the file. Frees @bt.
 */
int ios_blktrace_close(struct ios_blktrace *bt, struct ios_blktrace_counts *counts,
		       struct ios_err *e) IOS_MUST_CHECK;

/*
 * blktrace's action mask (-a NAME, repeatable; the kernel's act_mask): an
 * event is written when one of its categories is in @mask, as the kernel's
 * act_log_check decides, and a scheduler message only when IOS_BLK_TC_NOTIFY
 * is (__trace_note_message, since 2.6.38, so that "-a issue -a complete"
 * is not drowned in CFQ's messages). Process and timestamp notes are
 * always written: blkparse needs them to name the processes. The default
 * is every category (0xffff).
 */
void ios_blktrace_set_mask(struct ios_blktrace *bt, uint16_t mask);
/*
 * Parse "queue,issue,complete" (blktrace's -a names: read, write, barrier
 * (also flush), sync, queue, requeue, issue, complete, fs, pc, notify,
 * ahead, meta, discard, drv_data, fua; "all"), where a name after '-'
 * is taken away ("all,-notify": everything but the scheduler's messages).
 * 0, or -EINVAL with @e naming the word and the allowed names.
 */
int ios_blktrace_mask_parse(const char *list, uint16_t *mask, struct ios_err *e) IOS_MUST_CHECK;

/*
 * Bound the trace file at @bytes (0, the default: no bound). The record
 * that would take the file past it is not written, nor any after it: the
 * trace stays whole records that blkparse reads, and it ends with a
 * BLK_TN_MESSAGE note saying it was cut here (when the note fits). As
 * blktrace drops events its buffers cannot hold, the run goes on; the
 * counts at close say where the trace was cut and how many records were
 * dropped, for the caller to report (iosched exits 1, docs/blktrace.md).
 */
void ios_blktrace_set_limit(struct ios_blktrace *bt, uint64_t bytes);

/* The trace sink: ios_run_config.trace_ops with .trace = the writer. */
extern const struct ios_trace_ops ios_blktrace_trace_ops;

#ifdef __cplusplus
}
#endif

#endif
