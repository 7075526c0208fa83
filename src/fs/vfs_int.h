/*
 * Private structures of the page cache and file operations (src/fs/).
 */
#ifndef IOSCHED_VFS_INT_H
#define IOSCHED_VFS_INT_H

#include "iosched/vfs.h"

/* page flags */
#define PG_UPTODATE	(1u << 0)
#define PG_LOCKED	(1u << 1)	/* a read is in flight */
#define PG_DIRTY	(1u << 2)
#define PG_WRITEBACK	(1u << 3)
#define PG_READAHEAD	(1u << 4)	/* the readahead mark */

struct pc_page {
	uint64_t index;
	struct ios_inode *inode;
	uint32_t flags;
	uint32_t owner;			/* pid of the buffered write that last dirtied it; 0 none */
	bool on_lru;
	uint32_t jtid;			/* metadata: the jbd2 transaction that last logged it (jbd2.c) */
	/*
	 * The cgroup the page is charged to (its memcg: the task that brought
	 * it into the cache, filemap_add_folio), NULL for the root. Read by
	 * cgroup writeback only (writeback_cgwb.c).
	 */
	struct ios_cgroup *memcg;
	struct ios_list_head lru;	/* vfs->lru while clean and idle */
	struct ios_rb_node dirty_node;	/* inode->dirty_tree while dirty */
	struct ios_vfs_op *waiters;	/* ops waiting for it to unlock / finish writeback */
};

/*
 * Pages are indexed in chunks of 1 << chunk_shift slots: 512 for a file's
 * own pages (read in runs), 32 for the metadata cache, whose blocks lie one
 * or two per file across the whole device (a 512-slot chunk per file would
 * cost 4 KB for each). Only the chunks that were used are listed, so that
 * freeing an inode does not walk a table sized by the device.
 */
#define PC_CHUNK_SHIFT 9
#define PC_META_CHUNK_SHIFT 5
#define PC_CHUNK (1u << PC_CHUNK_SHIFT)
#define pc_chunk(in) (1u << (in)->chunk_shift)

/*
 * Metadata block @block was found cached and up to date as page @p when the
 * metadata cache's generation was @gen. While the generation is the same,
 * no page of the metadata cache has been removed since (ios_pc_remove bumps
 * it, and nothing clears PG_UPTODATE), so the lookup would still find @p,
 * up to date.
 */
struct meta_memo {
	uint64_t block;
	struct pc_page *p;
	uint64_t gen;
};

struct ios_inode {
	/* what a direct I/O reads (issue 34: one cache line per request, not two) */
	struct ios_fs_file *f;
	/*
	 * the mapping's metadata blocks found cached, by ios_fs_map.meta_ord
	 * (see vfs.c); one entry (a file of up to about 4 MiB on ext3, one
	 * indirect block) is memo1, here, not an allocation of its own
	 */
	struct meta_memo *memo;
	uint32_t nr_memo;
	struct ios_vfs *vfs;
	struct meta_memo memo1;
	uint64_t npages;		/* pages covering the file */
	struct pc_page ***chunks;	/* two-level page index */
	uint64_t nr_chunks;
	unsigned chunk_shift;
	uint64_t *used;			/* indices of the chunks allocated, in that order */
	size_t nr_used, used_cap;
	uint64_t nrpages;		/* cached */
	bool is_meta;			/* the block device's metadata cache */

	struct ios_rb_root dirty_tree;	/* dirty pages by index */
	uint64_t nr_dirty, nr_writeback;
	uint64_t dirtied_when;		/* when it went from clean to dirty */
	struct ios_list_head dirty_link;	/* on dirty_inodes, io_inodes or more_io_inodes */
	uint64_t writeback_index;	/* where the flusher goes on */
	struct ios_vfs_op *wb_waiters;	/* fsync waiting for writeback to drain */
	struct cgwb *wb;		/* cgroup writeback: the owner's wb (i_wb), NULL before */
	struct ios_inode *next;		/* vfs->inodes */
	/*
	 * ext4 (jbd2.c): the transactions holding the inode's last change and
	 * its last change fdatasync needs (ext4's i_sync_tid, i_datasync_tid),
	 * and the one whose ordered-data list it is on (jinode->i_transaction)
	 */
	uint32_t sync_tid, datasync_tid, ordered_tid;
};

/* A bio of the page cache, with what it carries. */
struct vfs_bio {
	struct ios_bio bio;
	struct ios_vfs *vfs;
	struct ios_inode *inode;	/* NULL for flushes and direct I/O */
	uint64_t first;			/* first page index */
	uint32_t nr;			/* pages */
	uint8_t kind;			/* VB_* */
	struct ios_vfs_op *op;		/* direct I/O, sync writes, flushes: the waiting op */
	struct vfs_bio *next_free;
};

enum { VB_READ, VB_WRITE, VB_DIRECT, VB_FLUSH };

struct flusher {
	struct ios_ioc ioc;
	struct ios_file file;		/* what its op reads metadata with */
	struct ios_timer timer;		/* periodic kupdate wake-up */
	struct ios_vfs_op op;		/* what it waits with (a request slot, metadata) */
	bool running;			/* a step is scheduled or waiting */
	bool stopped;			/* ios_vfs_quiesce() */
	bool waiting;
	uint64_t next_kupdate;
	bool kupdate_due;		/* the timer is set for a periodic wake-up */
	int mode;			/* FL_*: the work it is doing */
	bool in_pass;			/* a pass (writeback_inodes) is under way */
	bool more_io;			/* the pass left files on the more-I/O list */
	uint64_t pass_left;		/* pages the pass may still write */
	uint64_t kupdate_left;		/* pages kupdate may still write */
	struct ios_inode *cur;		/* inode being written */
	bool cycled;			/* its turn wrapped to the start of the file */
	uint64_t wrap_end;		/* where the wrapped part stops */
	/*
	 * Which wb it works for (writeback.c's pass logic is shared by the
	 * one 2.6.31 flusher and the cgroup wbs of writeback_cgwb.c): the
	 * wb's dirty, io and more-io lists; per_cgroup: a cgroup wb, whose
	 * background work stops when it has no dirty inode left even if
	 * global dirty memory is still over the background threshold;
	 * bio_flags: what its writeback bios carry beyond WRITE.
	 */
	struct ios_vfs *vfs;
	struct ios_list_head *b_dirty, *b_io, *b_more_io;
	bool per_cgroup;
	uint32_t bio_flags;
	uint64_t passes;		/* passes started (reported per cgroup wb) */
	struct bdp_wb *bdp;		/* 6.x dirty throttling state (dirty_bdp.c), or NULL */
};

enum { FL_IDLE, FL_BACKGROUND, FL_KUPDATE };

struct ios_vfs {
	struct ios_sim *sim;
	struct ios_queue *q;
	struct ios_fs *fs;
	struct ios_vm_tunables vm;
	uint64_t ra_pages;
	int cache_flush;
	uint64_t page_copy_ns;
	uint64_t max_bio_pages;
	ios_vfs_wb_fn wb_done;		/* who gets the written-back pages' owners */
	void *wb_arg;

	struct ios_inode *inodes;
	struct ios_inode *meta;		/* block device metadata cache */
	uint64_t meta_gen;		/* bumped when a page of meta goes (struct meta_memo) */
	struct ios_fs_file meta_file;

	uint64_t capacity;		/* pages */
	uint64_t nr_pages;		/* cached pages */
	uint64_t nr_dirty, nr_writeback;
	struct ios_list_head lru;	/* clean idle pages, least recently used first */
	struct ios_list_head dirty_inodes;	/* b_dirty / s_dirty: dirty files, oldest first */
	struct ios_list_head io_inodes;		/* s_io: queued for this writeback pass */
	struct ios_list_head more_io_inodes;	/* s_more_io: to go on with next pass */
	struct ios_vfs_op *throttled;	/* writers waiting at dirty_ratio */
	struct ios_vfs_op *mem_waiters;	/* ops waiting for a page of memory */
	bool alloc_failed;		/* the last ios_pc_alloc failed on malloc, not on a
				   full cache */

	struct vfs_bio *free_bios;
	struct pc_page *free_pages;	/* recycled page structs (linked via waiters) */
	struct flusher fl;
	struct jbd2 *jbd2;		/* ext4's journal (jbd2.c); NULL on the other layouts */
	struct ios_vfs_stats st;
	/*
	 * Cgroup writeback (writeback_cgwb.c), NULL when off: then the flusher
	 * above and dirty_inodes do all the writeback, as in 2.6.31. cur_op:
	 * the op being stepped, NULL outside ios_vfs_step; the cgroup its
	 * pages are charged to (the kernel's current's) is read only when a
	 * page is allocated (vfs_cur_cg): a direct I/O never needs it, and
	 * with 10,000 tasks the read was a cache miss per step (issue 34).
	 */
	struct cgwb_set *cgwb;
	const struct ios_vfs_op *cur_op;
	/*
	 * 6.x dirty throttling (dirty_bdp.c), set with cgwb: then a write into
	 * an inode with a wb is paced by balance_dirty_pages instead of
	 * waiting on vfs->throttled at vm.dirty_ratio (2.6.31).
	 */
	struct bdp_set *bdp;
};

/* The cgroup of the task whose op is being stepped (cur_op), NULL outside a step. */
static inline struct ios_cgroup *vfs_cur_cg(const struct ios_vfs *vfs)
{
	const struct ios_vfs_op *op = vfs->cur_op;

	return op && op->file && op->file->ioc ? op->file->ioc->cgroup : NULL;
}

struct jbd2;

/* pagecache.c */
struct pc_page *ios_pc_lookup(struct ios_inode *inode, uint64_t index);
/* Allocate page @index (not present). NULL: memory is full of busy pages. */
struct pc_page *ios_pc_alloc(struct ios_vfs *vfs, struct ios_inode *inode, uint64_t index);
void ios_pc_touch(struct ios_vfs *vfs, struct pc_page *p);
/* Put @p on the LRU if it is clean and idle, else take it off. */
void ios_pc_lru_update(struct ios_vfs *vfs, struct pc_page *p);
void ios_pc_set_dirty(struct ios_vfs *vfs, struct pc_page *p, uint64_t now);
void ios_pc_clear_dirty(struct ios_vfs *vfs, struct pc_page *p);
void ios_pc_remove(struct ios_vfs *vfs, struct pc_page *p);
void ios_pc_wait(struct ios_vfs_op **list, struct ios_vfs_op *op);
void ios_pc_wake_all(struct ios_vfs_op **list, uint64_t now);
struct pc_page *ios_pc_first_dirty_from(struct ios_inode *inode, uint64_t index);
struct pc_page *ios_pc_next_dirty(struct pc_page *p);
void ios_pc_inode_free(struct ios_inode *inode);
struct ios_inode *ios_pc_inode_new(struct ios_vfs *vfs, struct ios_fs_file *f, bool is_meta);

/* writeback.c */
void ios_wb_init(struct ios_vfs *vfs);
/*
 * The pass logic on any wb: @fl set up with its ioc, lists and flags
 * (ios_flusher_setup), then kicked for background work or told of a newly
 * dirty inode (the kupdate grid).
 */
void ios_flusher_setup(struct flusher *fl, struct ios_vfs *vfs, struct ios_list_head *b_dirty,
		       struct ios_list_head *b_io, struct ios_list_head *b_more_io);
void ios_flusher_kick(struct flusher *fl, uint64_t now);
void ios_flusher_inode_listed(struct flusher *fl, uint64_t now);
void ios_wb_kick(struct ios_vfs *vfs, uint64_t now);
/* A file just became dirty: make sure the periodic flush will look at it. */
void ios_wb_inode_dirtied(struct ios_vfs *vfs, uint64_t now);
/* Called when dirty/writeback counts drop: wakes throttled writers. */
void ios_wb_balance_wake(struct ios_vfs *vfs, uint64_t now);
uint64_t ios_wb_dirty_thresh(const struct ios_vfs *vfs);
uint64_t ios_wb_background_thresh(const struct ios_vfs *vfs);
void ios_wb_destroy(struct ios_vfs *vfs);

/* writeback_cgwb.c: cgroup writeback (Linux 6.12), on only when vfs->cgwb is set */
/* @in went clean -> dirty with page @p: attach it to its owner's wb, list it there. */
void ios_cgwb_inode_dirtied(struct ios_vfs *vfs, struct ios_inode *in, struct pc_page *p,
			    uint64_t now);
/* A writer of @in found dirty memory over the background threshold. */
void ios_cgwb_kick(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now);
/* Page @p of @in goes to writeback: wbc_account_cgroup_owner. */
void ios_cgwb_account_page(struct ios_inode *in, const struct pc_page *p);
/* The cgroup @in's writeback bios are charged to (wbc_init_bio), NULL for the task's. */
struct ios_cgroup *ios_cgwb_bio_blkcg(const struct ios_inode *in);
void ios_cgwb_quiesce(struct ios_vfs *vfs);
void ios_cgwb_destroy(struct ios_vfs *vfs);
/* The 6.x throttle state of @in's wb (dirty_bdp.c), NULL when it has none. */
struct bdp_wb *ios_cgwb_bdp(const struct ios_inode *in);

/* dirty_bdp.c: Linux 6.x balance_dirty_pages per wb, on only when vfs->bdp is set */
int ios_bdp_enable(struct ios_vfs *vfs);
void ios_bdp_wb_init(struct ios_vfs *vfs, struct bdp_wb *wb, uint64_t now);
/* the counters of @in's wb: a page dirtied, cleaned, sent to and back from writeback */
void ios_bdp_page_dirtied(struct ios_vfs *vfs, struct ios_inode *in);
void ios_bdp_page_cleaned(struct ios_vfs *vfs, struct ios_inode *in);
void ios_bdp_writeback_start(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now);
void ios_bdp_writeback_end(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now);
/* @op's task dirtied a page of data (current->nr_dirtied) */
void ios_bdp_task_dirtied(struct ios_vfs *vfs, const struct ios_vfs_op *op);
/* A write of @op into @in is throttled by dirty_bdp.c (not 2.6.31's wait). */
bool ios_bdp_applies(const struct ios_vfs *vfs, const struct ios_inode *in,
		     const struct ios_vfs_op *op);
/* balance_dirty_pages_ratelimited after @op's copy: 0, or IOS_VFS_WAIT (paused) */
int ios_bdp_balance_op(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
		       uint64_t now);
/* Pauses @wb's dirtiers took (count, total, longest); false for NULL. */
bool ios_bdp_stats(const struct bdp_wb *wb, uint64_t *pauses, uint64_t *pause_ns,
		   uint64_t *max_pause_ns);
/* When a balance first found dirty above the freerun ceiling; false: never. */
bool ios_bdp_over_freerun(const struct ios_vfs *vfs, uint64_t *at_ns);
void ios_bdp_quiesce(struct ios_vfs *vfs);
void ios_bdp_destroy(struct ios_vfs *vfs);

/* The writer's kick at the background threshold: its inode's wb, or the one flusher. */
static inline void ios_vfs_wb_kick(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	if (vfs->cgwb)
		ios_cgwb_kick(vfs, in, now);
	else
		ios_wb_kick(vfs, now);
}

/* vfs.c, shared with writeback.c */
struct vfs_bio *ios_vb_get(struct ios_vfs *vfs);
/*
 * Write dirty pages of @inode starting at page @from (and before @end) as
 * bios of @flags, at most @max_pages pages; advances *from. Returns 0 when
 * done (no dirty page left in range or @max_pages written), IOS_VFS_WAIT when
 * @op must wait (metadata or a request slot).
 */
int ios_vfs_write_dirty(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_ioc *ioc,
			struct ios_inode *inode, uint64_t *from, uint64_t end, uint32_t flags,
			uint64_t *max_pages, uint64_t now);

/* Metadata block @block cached (read, as READ_META when @is_meta, if not): 0, or IOS_VFS_WAIT. */
int ios_vfs_ensure_meta(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t block, bool is_meta,
			uint64_t now);

/*
 * Read page @idx of @in (not cached) from disk, @op waiting for it: its
 * indirect blocks first. IOS_VFS_WAIT, or 0 with op->error set.
 */
int ios_vfs_read_page(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
		      uint64_t idx, uint64_t now);
/* No page of memory: IOS_VFS_WAIT for one, or 0 with -ENOMEM (see vfs.c). */
int ios_vfs_mem_wait(struct ios_vfs *vfs, struct ios_vfs_op *op);

/* Submit @vb for @op (vfs.c's vb_submit): IOS_VFS_WAIT when @op sleeps until it is queued. */
int ios_vb_submit(struct ios_vfs *vfs, struct ios_vfs_op *op, struct vfs_bio *vb, uint64_t now);

/* jbd2.c: ext4's journal (NULL vfs->jbd2 on the other layouts: every call a no-op) */
int ios_jbd2_create(struct ios_vfs *vfs, const struct ios_vfs_config *cfg);
void ios_jbd2_destroy(struct ios_vfs *vfs);
void ios_jbd2_quiesce(struct ios_vfs *vfs);
/* Metadata block @b was changed under a handle: it joins the running transaction. */
void ios_jbd2_dirty_meta(struct ios_vfs *vfs, uint64_t b, uint64_t now);
/* @in changed (ext4_update_inode_fsync_trans): @datasync for allocation and size. */
void ios_jbd2_inode_changed(struct ios_vfs *vfs, struct ios_inode *in, bool datasync,
			    uint64_t now);
/* @in's timestamps changed (file_modified -> ext4_dirty_inode): its inode block is logged. */
void ios_jbd2_touch_inode(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now);
/* Blocks newly allocated written under data=ordered: the commit writes @in's data first. */
void ios_jbd2_add_ordered(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now);
/* Buffered writes allocate unwritten extents, converted after their I/O (dioread_nolock). */
bool ios_jbd2_unwritten_io(const struct ios_vfs *vfs);
/* A data write of pages [@first, @first + @nr) of @in completed: convert unwritten blocks. */
void ios_jbd2_end_write(struct ios_vfs *vfs, struct ios_inode *in, uint64_t first, uint64_t nr,
			uint64_t now);
/* jbd2_trans_will_send_data_barrier: the commit of @tid will flush the cache for fsync. */
bool ios_jbd2_will_send_barrier(const struct ios_vfs *vfs, uint32_t tid);
/* jbd2_complete_transaction: 0 once @tid is committed, else IOS_VFS_WAIT (commit asked). */
int ios_jbd2_wait_commit(struct ios_vfs *vfs, struct ios_vfs_op *op, uint32_t tid, uint64_t now);

/* vfs_fileops.c */
/* Page @idx of @in is a hole: cached as zeros with no I/O (0, IOS_VFS_WAIT for memory). */
int ios_vfs_hole_page(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
		      uint64_t idx, bool mark);
/*
 * Allocate the holes among blocks [@first, @first + @n) of @in, dirtying
 * the bitmaps, descriptors and inode the allocation changes (read first
 * when cold: IOS_VFS_WAIT). 0 when done (op->error on failure).
 */
int ios_vfs_alloc_blocks(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
			 uint64_t first, uint64_t n, bool buffered, uint64_t now);
enum ios_vfs_status ios_vfs_do_fileop(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now);

#endif
