/*
 * What sits above the block layer: the page cache, readahead, dirty pages
 * and writeback, and the file operations that use them.
 *
 * One struct ios_vfs per simulated machine. Files (struct ios_inode) wrap a
 * file laid out by the filesystem model (fs.h) and own their cached pages;
 * every task that opens a file shares them. A task works through struct
 * ios_vfs_op: open, read, write, fsync, fdatasync, and direct (O_DIRECT)
 * read/write. An operation is a resumable step function: ios_vfs_step()
 * does what can be done now (copying from cached pages, starting reads and
 * readahead, dirtying pages) and either finishes or blocks on something (a
 * page being read, a metadata block, dirty throttling, a free request slot).
 * When the thing it blocked on is ready, the op's wake() callback runs and
 * the owner calls ios_vfs_step() again; the op picks up where it stopped.
 *
 * Reads follow Linux 2.6.31's do_generic_file_read and on-demand readahead
 * (mm/readahead.c), see readahead.c for the window sequence. Readahead
 * reads are READ requests of the reading task, as the scheduler sees them.
 * Writes dirty pages; a flusher task writes them back in its own context
 * (async WRITE requests) when dirty memory passes vm.dirty_background_ratio
 * or pages age past vm.dirty_expire_centisecs; writers wait at
 * vm.dirty_ratio (a simplified balance_dirty_pages). fsync writes the
 * file's dirty pages as sync writes, waits for them, then flushes the
 * drive's cache. O_DIRECT bypasses the cache but still needs the block
 * mapping, and so the filesystem's indirect blocks.
 */
#ifndef IOSCHED_VFS_H
#define IOSCHED_VFS_H

#include <stdbool.h>
#include <stdint.h>
#include "block.h"
#include "err.h"
#include "fs.h"
#include "request.h"
#include "sim.h"
#include "tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_PAGE_SIZE 4096u
#define IOS_PAGE_SHIFT 12

/* vm.* tunables (/proc/sys/vm/), plus the machine's memory */
struct ios_vm_tunables {
	uint64_t memory;			/* bytes of RAM the page cache may use */
	int dirty_ratio;			/* % of memory: writers throttle above */
	int dirty_background_ratio;		/* %: the flusher starts above */
	int dirty_expire_centisecs;		/* age at which dirty data is written back */
	int dirty_writeback_centisecs;		/* flusher's periodic wake-up; 0 = never */
};

extern const struct ios_tunable ios_vm_tunables_table[];

/*
 * The writeback thresholds in pages, as Linux 2.6.31's get_dirty_limits()
 * computes them from @vm: vm.dirty_ratio below 5 counts as 5, and a
 * background threshold not below the dirty limit becomes half of it.
 * Returns the IOS_VM_* bits of the adjustments made (0: none), so the
 * caller can say so.
 */
#define IOS_VM_MIN_DIRTY_RATIO		5
#define IOS_VM_DIRTY_RATIO_RAISED	(1u << 0)
#define IOS_VM_BACKGROUND_HALVED	(1u << 1)
unsigned ios_vm_dirty_limits(const struct ios_vm_tunables *vm, uint64_t *background_pages,
			     uint64_t *dirty_pages);

struct ios_vfs;
struct ios_inode;
struct ios_file;
struct ios_vfs_op;

enum ios_vfs_op_type {
	IOS_VFS_OPEN,		/* read the directory and inode blocks if not cached */
	IOS_VFS_READ,
	IOS_VFS_WRITE,
	IOS_VFS_FSYNC,
	IOS_VFS_FDATASYNC,
	IOS_VFS_DIRECT_READ,
	IOS_VFS_DIRECT_WRITE,
	IOS_VFS_DISCARD,	/* BLKDISCARD on the blocks under [off, off+len): no data, no cache */
	/* file operations (vfs_fileops.c): metadata through the cache, no data copied */
	IOS_VFS_STAT,		/* stat(): the directory and inode blocks; -ENOENT if unlinked */
	IOS_VFS_CREATE,		/* open(O_CREAT): makes the file if it does not exist */
	IOS_VFS_UNLINK,		/* unlink(): frees the inode and blocks, drops the pages */
	IOS_VFS_FALLOCATE,	/* fallocate(): allocate the holes in [off, off+len) */
	IOS_VFS_PUNCH,		/* fallocate(PUNCH_HOLE | KEEP_SIZE) of [off, off+len) */
	IOS_VFS_TRUNCATE,	/* ftruncate(off): the blocks from off on are freed */
	IOS_VFS_MOVE_EXT,	/* EXT4_IOC_MOVE_EXT of [off, off+len): the data read, rewritten */
};

/* ios_vfs_step() results */
enum ios_vfs_status {
	IOS_VFS_DONE = 0,	/* finished; op->error says how */
	IOS_VFS_WAIT = 1,	/* blocked: wake() will be called, then step again */
};

typedef void (*ios_vfs_wake_fn)(struct ios_vfs_op *op, uint64_t now_ns);

/* Per open file state (struct file): readahead window and flags. */
struct ios_ra_state {
	uint64_t start;		/* first page of the current window */
	uint64_t size;		/* pages in it */
	uint64_t async_size;	/* pages left when the next window is started */
	uint64_t prev_pos;	/* byte after the last read (prev_pos) */
	uint64_t ra_pages;	/* maximum window (queue.read_ahead_kb / 4) */
};

struct ios_file {
	/* what every request reads first; the readahead state (buffered reads only) after */
	struct ios_inode *inode;
	struct ios_ioc *ioc;		/* opener: requests are its I/O */
	unsigned flags;			/* IOS_O_* */
	struct ios_ra_state ra;
};

#define IOS_O_DIRECT	(1u << 0)
#define IOS_O_SYNC	(1u << 1)	/* each write is written through and flushed */
#define IOS_O_DSYNC	(1u << 2)	/* with IOS_O_SYNC: O_DSYNC (fdatasync after each write) */

/*
 * A file operation in progress. The owner fills type, file, off, len, wake
 * and priv, then calls ios_vfs_step() until it returns IOS_VFS_DONE. The
 * rest is the vfs's.
 */
struct ios_vfs_op {
	/*
	 * Ordered by when a request reads them (issue 34: with 10,000 tasks
	 * each cache line is a miss): a wake-up reads the first 24 bytes
	 * (wake, priv, pending, waiting), a step the next 64.
	 */
	ios_vfs_wake_fn wake;
	void *priv;
	unsigned pending;	/* vfs private: I/Os of this op in flight */
	bool waiting;		/* vfs private: asleep, wake() will be called */
	bool ra_pending;	/* vfs private */
	enum ios_vfs_op_type type;
	int state;		/* vfs private */
	struct ios_file *file;
	uint64_t off, len;
	uint64_t cursor;	/* vfs private: next byte / page to handle */

	/* results */
	uint64_t cpu_ns;	/* CPU time the last step used (page copies) */
	uint64_t done;		/* bytes transferred so far */
	int error;		/* 0 or -errno */

	int ioprio;		/* O_DIRECT: the I/O's own priority for its bios (cmdprio) */
	struct ios_file *donor;	/* IOS_VFS_MOVE_EXT: the donor file, or NULL */

	/* vfs private (packed: every task's I/O units hold one) */
	uint64_t ra_start, ra_size, ra_marker;	/* readahead window being submitted */
	uint64_t ra_next;			/* next page of it to submit */
	struct ios_vfs_op *wait_next;	/* on a wait list */
	uint64_t seq;		/* fsync: pages dirtied before this op started; fileops: step */
};

/*
 * @bytes of pages that a buffered write of the task with pid @owner dirtied
 * (the last one to dirty them) were written back: they reached the disk.
 */
typedef void (*ios_vfs_wb_fn)(void *arg, uint32_t owner, uint64_t bytes, uint64_t now);

struct ios_vfs_config {
	struct ios_sim *sim;
	struct ios_queue *q;
	struct ios_fs *fs;
	const struct ios_vm_tunables *vm;
	uint64_t read_ahead_bytes;	/* queue.read_ahead_kb */
	uint32_t flusher_pid;
	int cache_flush;		/* fsync ends with a drive cache flush (barriers) */
	uint64_t page_copy_ns;		/* CPU time to copy one page to or from user space */
	ios_vfs_wb_fn wb_done;		/* may be NULL; never changes the simulation */
	void *wb_arg;
	/*
	 * ext4 with its jbd2 journal (src/fs/jbd2.c): modelled when the layout
	 * is ext4 with a journal and jbd2_commit_ns is not 0.
	 */
	uint64_t jbd2_commit_ns;	/* commit interval (the mount option commit=) */
	int jbd2_dioread_nolock;	/* 1: unwritten extents converted after the data I/O; 0: ordered data */
	uint32_t jbd2_pid;		/* the jbd2 thread's pid */
};

/* What the journal did (ios_vfs_jbd2_stats). */
struct ios_jbd2_stats {
	uint64_t commits;		/* transactions committed */
	uint64_t commits_timer;		/* ... started by the commit interval */
	uint64_t commits_sync;		/* ... by fsync, fdatasync or an O_SYNC/O_DSYNC write */
	uint64_t commits_full;		/* ... by the transaction reaching a quarter of the journal */
	uint64_t log_blocks;		/* metadata blocks written to the journal */
	uint64_t desc_blocks;		/* descriptor blocks */
	uint64_t commit_blocks;		/* commit blocks (PREFLUSH|FUA with lab.barrier=1) */
	uint64_t conversions;		/* unwritten extents converted after their data I/O */
	uint64_t ordered_pages;		/* data pages a commit wrote before its log (data=ordered) */
};

struct ios_vfs *ios_vfs_create(const struct ios_vfs_config *cfg, struct ios_err *e);
/* No op may be in progress. */
void ios_vfs_destroy(struct ios_vfs *vfs);

/* The inode for a laid-out file (created on first call, shared after). */
struct ios_inode *ios_vfs_inode(struct ios_vfs *vfs, struct ios_fs_file *f);
/*
 * @in's file was just written by the job's own layout (fio writes a file it
 * creates before the run): its directory, inode and indirect blocks are in
 * the cache, up to date, as the write left them in the buffer cache. Files
 * that existed before (lab.file_size) are not warmed and read them cold.
 * Under memory pressure the blocks are evicted like any clean page. 0 or
 * -ENOMEM.
 */
int ios_vfs_warm_meta(struct ios_vfs *vfs, struct ios_inode *in);
/* Initialise an open file (no I/O: run an IOS_VFS_OPEN op for the metadata reads). */
void ios_vfs_file_init(struct ios_vfs *vfs, struct ios_file *file, struct ios_inode *inode,
		       struct ios_ioc *ioc, unsigned flags);
/*
 * unlink() of @inode's file as a job ends (fio's unlink=1), done at once:
 * its cached metadata blocks (directory, inode, bitmaps, descriptors) are
 * dirtied, its pages dropped (dirty ones discarded), its blocks and inode
 * freed. Blocks not cached are not read (the job's stats are closed).
 */
void ios_vfs_unlink_now(struct ios_vfs *vfs, struct ios_inode *inode, uint64_t now);
/* Drop the clean, idle cached pages of @inode (fio's invalidate=1, POSIX_FADV_DONTNEED). */
void ios_vfs_invalidate(struct ios_vfs *vfs, struct ios_inode *inode);

/*
 * The run is over: the flusher starts no new writeback (what is in flight
 * completes). Dirty pages stay dirty, as they would in memory.
 */
void ios_vfs_quiesce(struct ios_vfs *vfs);

/* Advance @op at @now; see struct ios_vfs_op. */
enum ios_vfs_status ios_vfs_step(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now);

/* Counters for reports and tests. */
struct ios_vfs_stats {
	uint64_t cached_pages, dirty_pages, writeback_pages;
	uint64_t max_dirty_pages;		/* high-water mark of dirty + writeback */
	uint64_t read_hits, read_misses;	/* pages found / not found by reads */
	uint64_t pages_read, pages_written;	/* through bios */
	uint64_t meta_reads;			/* metadata blocks read */
	uint64_t readahead_windows;
	uint64_t evictions;
	uint64_t throttled;			/* times a writer waited at dirty_ratio */
	uint64_t flusher_bios;
	uint64_t cache_flushes;
	/*
	 * 6.x dirty throttling (dirty_bdp.c, blk-mq with cgroup writeback):
	 * when a dirtier's balance_dirty_pages first found the global dirty
	 * pages above dirty_freerun_ceiling (mm/page-writeback.c, 6.x); valid
	 * with over_freerun (the lab's clock starts at 0).
	 */
	uint64_t over_freerun_ns;
	bool over_freerun;
};
void ios_vfs_get_stats(const struct ios_vfs *vfs, struct ios_vfs_stats *out);

/* The flusher's io context (its requests are async writes of this task). */
struct ios_ioc *ios_vfs_flusher_ioc(struct ios_vfs *vfs);
/* The jbd2 thread's io context, NULL without a journal model. */
struct ios_ioc *ios_vfs_jbd2_ioc(struct ios_vfs *vfs);
/* false without a journal model */
bool ios_vfs_jbd2_stats(const struct ios_vfs *vfs, struct ios_jbd2_stats *out);

/*
 * Cgroup writeback (Linux 6.12, src/fs/writeback_cgwb.c; blk-mq only, the
 * runner's lab.cgroup_writeback): from now on each inode is owned by the
 * cgroup of the first page dirtied in it and written back by that cgroup's
 * own flusher, its bios charged to it. @root: the root cgroup (the
 * flushers' own). Call before any op; 0 or -ENOMEM.
 */
int ios_vfs_cgwb_enable(struct ios_vfs *vfs, struct ios_cgroup *root);
bool ios_vfs_cgwb_on(const struct ios_vfs *vfs);
/* What one cgroup's wb did (wbc_account_cgroup_owner's view). */
struct ios_vfs_cgwb_stats {
	uint64_t inodes;		/* inodes it came to own */
	uint64_t pages_written;		/* pages of its inodes written (flusher and fsync) */
	uint64_t foreign_pages;		/* of those, pages charged to another cgroup */
	uint64_t passes;		/* writeback passes of its flusher */
	uint64_t sched_ns, device_ns;	/* its flusher's disk time (as a task's) */
};
/* false (and zeroes) when @cg has no wb */
bool ios_vfs_cgwb_stats(const struct ios_vfs *vfs, const struct ios_cgroup *cg,
			struct ios_vfs_cgwb_stats *out);
/* The flusher of @cg's wb, NULL if none (yet) */
struct ios_ioc *ios_vfs_cgwb_ioc(struct ios_vfs *vfs, const struct ios_cgroup *cg);
/* Disk time of all flushers: the one of 2.6.31 and every cgroup's */
void ios_vfs_flusher_time(const struct ios_vfs *vfs, uint64_t *sched_ns, uint64_t *device_ns);

/* Readahead algorithm (readahead.c), exposed for tests: see there. */
struct ios_ra_window {
	uint64_t start, size, async_size;	/* pages to read; marker at start + size - async_size */
	bool read;				/* false: nothing to read */
};

/* Page-cache queries the algorithm needs (about the file being read). */
struct ios_ra_cache_ops {
	/* First page index >= @from (and < @from + @max) not in the cache, or @from + @max. */
	uint64_t (*next_hole)(void *priv, uint64_t from, uint64_t max);
	/* Cached pages immediately before @index, counting back at most @max. */
	uint64_t (*history)(void *priv, uint64_t index, uint64_t max);
	void *priv;
};

/*
 * Linux 2.6.31 ondemand_readahead(), context readahead included.
 * @hit_marker: called on a page with the readahead mark (async readahead),
 * else on a cache miss (sync readahead). @offset: page index being read;
 * @req_pages: pages the read still wants. Updates @ra (except for a
 * standalone random read) and returns the window to read.
 */
struct ios_ra_window ios_ra_ondemand(struct ios_ra_state *ra, const struct ios_ra_cache_ops *c,
				     bool hit_marker, uint64_t offset, uint64_t req_pages);

#ifdef __cplusplus
}
#endif

#endif
