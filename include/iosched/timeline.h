/*
 * The timeline of a run, for the plot (include/iosched/plot.h): who owned
 * the disk when, and which sectors each job's requests went to over time.
 *
 * It is filled through the block layer's ownership hook (struct
 * ios_owner_ops in block.h): the schedulers say when a process's queue
 * starts and ends a slice, idles for it, preempts, or starts a dispatch
 * round, and the block layer says when a request goes to the device.
 *
 * Memory is bounded whatever the run's length, in two grids that share
 * one time axis of at most IOS_TL_MAX_COLS columns (each 100 us x 2^k
 * wide; when the run outgrows them, pairs of columns fold into one):
 *  - per column, the lane that owned the disk for the longest piece of it,
 *    the lane that the disk idled for longest, preemptions and rounds;
 *  - per column and per band of sectors (IOS_TL_ROWS bands, 1 MiB x 2^k
 *    tall, folding pairwise as the highest sector grows), the lane of the
 *    last request dispatched there and whether reads, writes or both were.
 * Exact totals per lane (time owned, time idled, slices, preemptions) and
 * the first IOS_TL_LOG intervals themselves are kept as well.
 *
 * Two series for the blk-mq schedulers ride on the same columns:
 *  - batches of a scheduler with priority levels (mq-deadline's
 *    IOS_OWN_ROUND with a level): per column the (level, direction) pairs
 *    whose batch started in it, per (level, direction) a count, and the
 *    first IOS_TL_LOG batch starts; a batch serves its level and direction
 *    until the next one starts;
 *  - token depths (kyber's domains, IOS_OWN_DEPTH): per column and domain
 *    the smallest depth in effect during it, the first IOS_TL_LOG changes,
 *    and each domain's depth at the end.
 * And one for the cgroup v2 controllers (the hook's held(), told each time
 * io.max, io.cost, io.latency, wbt or the return-to-user delay let a task's
 * I/O go): per column and cause the lane held longest by it (the longest
 * single wait; the same lane's waits add up), per lane and cause the exact
 * time and count (as the report's `held`), and the first IOS_TL_LOG waits.
 * A lane is a
 * job clone of the run (same index as the series), plus one last lane for
 * queues of no single process (async queues, the flusher, unknown pids).
 */
#ifndef IOSCHED_TIMELINE_H
#define IOSCHED_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include "block.h"
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_TL_MAX_COLS	2048
#define IOS_TL_ROWS	192
#define IOS_TL_LOG	4096
#define IOS_TL_FIRST_NS	100000ULL	/* first column width: 100 us */
#define IOS_TL_FIRST_ROW 2048ULL	/* first band height: 1 MiB of sectors */

#define IOS_TL_LEVELS	3	/* priority levels of batches (mq-deadline: RT, BE, IDLE) */
#define IOS_TL_DOMAINS	4	/* token pools (kyber: READ, WRITE, DISCARD, OTHER) */
#define IOS_TL_CAUSES	IOS_WAIT_NR	/* what held I/O (enum ios_wait_cause) */

/* cell bits: (lane + 1) << 2 | these */
#define IOS_TL_READ	1u
#define IOS_TL_WRITE	2u

struct ios_tl_col {
	uint32_t own, idle;	/* lane + 1 that held the column longest; 0: none */
	uint64_t own_ns, idle_ns;
	uint32_t preempt;	/* lane + 1 of the last preemption in it; 0: none */
	uint16_t nr_preempt;
	uint8_t rounds;		/* 1 << dir of the dispatch rounds that started in it */
	uint8_t levels;		/* 1 << (level * 2 + dir) of the leveled batches started in it */
	uint16_t depth[IOS_TL_DOMAINS];	/* smallest token depth in effect in it; 0: unknown */
	uint32_t held[IOS_TL_CAUSES];	/* lane + 1 a controller held longest in it; 0: none */
	uint64_t held_ns[IOS_TL_CAUSES];
};

/* A leveled batch start (mq-deadline): it serves @level and @dir until the next one. */
struct ios_tl_batch {
	uint64_t start_ns;
	uint8_t level, dir;
};

/* A token pool's change of depth (kyber_resize_domain). */
struct ios_tl_depth {
	uint64_t at_ns;
	uint16_t domain;
	uint16_t from, to;
};

/* One wait: a controller (@cause, enum ios_wait_cause) held @lane's I/O. */
struct ios_tl_held {
	uint64_t start_ns, end_ns;
	uint32_t lane;
	uint8_t cause;
};

/* One closed interval: a lane owned the disk (idle = 0) or the disk idled for it. */
struct ios_tl_interval {
	uint64_t start_ns, end_ns;
	uint32_t lane;
	uint8_t idle;
	uint8_t reason;		/* enum ios_owner_reason, for the end of a slice */
};

struct ios_timeline {
	uint64_t col_ns;
	size_t nr_cols, cap_cols;
	struct ios_tl_col *cols;
	uint32_t *cells;		/* [col * IOS_TL_ROWS + row] */
	uint64_t row_sectors;
	uint64_t max_sector;		/* highest end sector dispatched */
	uint64_t end_ns;		/* set by ios_timeline_finish */

	size_t nr_lanes;		/* jobs + 1 */
	uint64_t *own_ns, *idle_ns;	/* exact, per lane */
	uint64_t *slices, *preempts;	/* per lane */
	uint64_t *dispatched;		/* requests per lane */
	uint64_t nr_rounds[2];		/* dispatch rounds per direction */
	uint64_t nr_events;		/* every note, for cost figures */

	/* batches with a priority level (mq-deadline) */
	uint64_t nr_level_rounds[IOS_TL_LEVELS][2];
	struct ios_tl_batch *batches;	/* the first IOS_TL_LOG */
	size_t nr_batches;
	/* token depths (kyber); domains the scheduler reported, as 1 << domain */
	unsigned depth_domains;
	uint16_t depth_now[IOS_TL_DOMAINS];	/* in effect now (at the end: the last) */
	uint16_t depth_max[IOS_TL_DOMAINS];	/* the largest seen (the starting depth, or more) */
	uint64_t depth_since[IOS_TL_DOMAINS];	/* when depth_now took effect */
	uint64_t nr_depth_changes;
	struct ios_tl_depth *depths;	/* the first IOS_TL_LOG changes */
	size_t nr_depths;

	struct ios_tl_interval *log;	/* the first IOS_TL_LOG intervals */
	size_t nr_log;

	/* what the cgroup controllers held, per lane (allocated at the first wait) */
	unsigned held_causes;		/* 1 << cause of every cause seen */
	uint64_t *held_lane_ns;		/* [lane * IOS_TL_CAUSES + cause] */
	uint64_t *held_lane_nr;
	struct ios_tl_held *held_log;	/* the first IOS_TL_LOG waits */
	size_t nr_held_log;

	/* the recorder: pid -> lane, and the open piece */
	uint32_t *pids;			/* sorted */
	uint32_t *pid_lane;
	size_t nr_pids;
	int own_lane, idle_lane;	/* -1: none */
	uint64_t piece_ns;		/* start of the open piece */
	bool preempting;		/* a preemption ends the open slice next */
	int err;			/* -ENOMEM once recording failed */
};

/* @nr_jobs lanes and the "other" lane; @pids[i] is job i's pid. -ENOMEM. */
int ios_timeline_init(struct ios_timeline *tl, size_t nr_jobs, const uint32_t *pids) IOS_MUST_CHECK;
void ios_timeline_free(struct ios_timeline *tl);
/* Close the open piece at the run's end. */
void ios_timeline_finish(struct ios_timeline *tl, uint64_t end_ns);
/* The hook that fills a timeline (priv: the struct ios_timeline). */
extern const struct ios_owner_ops ios_timeline_owner_ops;

#ifdef __cplusplus
}
#endif

#endif
