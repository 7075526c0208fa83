/*
 * ext4's journal: jbd2 transactions, the commit thread, and what fsync
 * waits for, after Linux 6.12 (fs/jbd2/commit.c jbd2_journal_commit_transaction,
 * fs/jbd2/journal.c kjournald2, commit_timeout, __jbd2_log_start_commit,
 * jbd2_trans_will_send_data_barrier, jbd2_complete_transaction,
 * fs/jbd2/transaction.c start_this_handle / add_transaction_credits,
 * fs/ext4/fsync.c ext4_sync_file, fs/ext4/inode.c ext4_map_blocks and
 * ext4_update_inode_fsync_trans, fs/ext4/page-io.c ext4_end_io_rsv_work;
 * versions read and what differs: docs/filesystems.md "jbd2").
 *
 * Modelled:
 *  - one running transaction: the metadata blocks changed under handles
 *    (bitmaps, descriptors, inode blocks: vfs_fileops.c's meta_touch, the
 *    inode's timestamps, unwritten conversions), the inodes with ordered
 *    data, and its start time;
 *  - the jbd2 thread, a task of its own in the root cgroup (its io context
 *    is the runner's to place; it never gets a return-to-user delay),
 *    committing when the transaction is commit= old (the 5 s timer armed
 *    when the transaction starts, t_expires), when fsync asks for it, or
 *    when it holds a quarter of the journal (j_max_transaction_buffers);
 *  - the commit as 6.12 orders it: ordered data submitted (WB_SYNC_ALL:
 *    REQ_SYNC), descriptor and metadata blocks written one block per bio
 *    under the thread's plug, sequentially in the journal region, as
 *    REQ_META|REQ_SYNC|REQ_IDLE (JBD2_JOURNAL_REQ_FLAGS); then the wait for
 *    the ordered data, then for the log; then the commit block, with
 *    PREFLUSH|FUA when barriers are on (lab.barrier);
 *  - unwritten extents (dioread_nolock, 6.12's default on 4 KiB blocks):
 *    converted when their data write completes, before the pages leave
 *    writeback, so fsync's wait for writeback covers the conversion; the
 *    conversion changes the inode and moves i_datasync_tid.
 *
 * Not modelled (docs/filesystems.md lists them): checkpointing as jbd2
 * does it (the metadata pages are dirty in the page cache and the flusher
 * writes them home, possibly before their commit, which jbd2 forbids);
 * the journal tail, so a full journal never makes a handle wait; handle
 * credits (blocks are counted as logged, not as reserved) and the wait of
 * a handle for a locked transaction; revoke records; delayed allocation
 * (blocks are allocated at write(), as with nodelalloc); the conversion
 * worker's own CPU time and scheduling; fast commits; data=journal.
 */
#include <stdlib.h>
#include <string.h>
#include "vfs_int.h"

/*
 * Tags per descriptor block: a 4096-byte block less its 12-byte header and
 * 4-byte checksum tail holds 16-byte csum v3 tags (journal_block_tag3_t;
 * mke2fs 1.47's ext4 has metadata_csum), the first followed by the 16-byte
 * journal UUID (jbd2_journal_commit_transaction's tag loop).
 */
#define JBD2_TAGS_PER_DESC ((4096 - 12 - 4 - 16) / 16)

/* JBD2_JOURNAL_REQ_FLAGS (include/linux/jbd2.h, 6.8+) */
#define JBD2_REQ_FLAGS (IOS_REQ_META | IOS_REQ_SYNC | IOS_REQ_IDLE)

enum { C_DATA, C_LOG, C_DATA_WAIT, C_LOG_WAIT, C_COMMIT, C_COMMIT_WAIT };
enum { WHY_TIMER, WHY_SYNC, WHY_FULL };

struct jtrans {
	uint32_t tid;
	uint64_t *blocks;		/* t_buffers, by block number */
	size_t nr_blocks, cap_blocks;
	struct ios_inode **ordered;	/* t_inode_list with data to write and wait on */
	size_t nr_ordered, cap_ordered;
};

struct jbd2 {
	struct ios_vfs *vfs;
	const struct ios_fs_file *jf;	/* the journal, inode 8 */
	uint64_t jlen;			/* its blocks; block 0 is its superblock */
	uint64_t head;			/* next log block (j_head) */
	uint64_t max_txn;		/* j_max_transaction_buffers: a quarter of the journal */
	uint64_t commit_ns;
	bool nolock;			/* dioread_nolock */
	bool barrier;			/* JBD2_BARRIER */

	struct jtrans run, com;		/* running and committing transactions */
	bool running, committing;
	uint32_t next_tid;
	uint32_t commit_sequence;	/* the last committed tid */
	uint32_t commit_request;	/* the highest tid asked to commit */
	int why;			/* WHY_*: who asked for the committing one */
	int cstate;			/* C_*: where the commit is */
	uint64_t log_left;		/* C_LOG: blocks (descriptors included) still to submit */
	uint64_t tagged;		/* C_LOG: metadata blocks since the last descriptor */
	size_t ord_idx;			/* C_DATA, C_DATA_WAIT: the ordered inode */
	uint64_t ord_from;

	struct ios_ioc ioc;
	struct ios_file file;
	struct ios_vfs_op op;		/* what the thread waits with */
	struct ios_timer expires;	/* the running transaction's t_expires */
	struct ios_timer wake;		/* the thread's wake-up */
	bool stopped;
	struct ios_vfs_op *done_waiters;	/* j_wait_done_commit */
	struct ios_jbd2_stats st;
};

static void j_step(struct jbd2 *j, uint64_t now);

static void ev_thread(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct jbd2 *j = arg;

	if (!ios_timer_fire(&j->wake, data) || j->op.waiting)
		return;
	j_step(j, sim->now);
}

static void j_kick(struct jbd2 *j, uint64_t now)
{
	if (!j->op.waiting)
		(void)ios_timer_arm(j->vfs->sim, &j->wake, now, ev_thread, j);
}

static void j_op_wake(struct ios_vfs_op *op, uint64_t now)
{
	j_kick(op->priv, now);
}

/* __jbd2_log_start_commit */
static void j_start_commit(struct jbd2 *j, uint32_t tid, int why, uint64_t now)
{
	if (!j->running || j->run.tid != tid || j->commit_request == tid)
		return;
	j->commit_request = tid;
	j->why = why;
	j_kick(j, now);
}

/* commit_timeout: the transaction is commit= old */
static void ev_expires(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct jbd2 *j = arg;

	if (!ios_timer_fire(&j->expires, data) || j->stopped)
		return;
	j_start_commit(j, j->run.tid, WHY_TIMER, sim->now);
}

/* jbd2_get_transaction: the first handle after a commit starts a transaction */
static struct jtrans *j_running(struct jbd2 *j, uint64_t now)
{
	if (!j->running) {
		j->running = true;
		j->run.tid = j->next_tid++;
		j->run.nr_blocks = 0;
		j->run.nr_ordered = 0;
		if (!j->stopped)
			(void)ios_timer_arm(j->vfs->sim, &j->expires, now + j->commit_ns, ev_expires,
					    j);
	}
	return &j->run;
}

static uint64_t j_descriptors(uint64_t nr_blocks)
{
	return (nr_blocks + JBD2_TAGS_PER_DESC - 1) / JBD2_TAGS_PER_DESC;
}

void ios_jbd2_dirty_meta(struct ios_vfs *vfs, uint64_t b, uint64_t now)
{
	struct jbd2 *j = vfs->jbd2;
	struct jtrans *t;
	struct pc_page *p;

	if (!j || b == IOS_FS_NO_BLOCK)
		return;
	t = j_running(j, now);
	p = ios_pc_lookup(vfs->meta, b);
	if (p) {
		if (p->jtid == t->tid)
			return;
		p->jtid = t->tid;
	}
	if (t->nr_blocks == t->cap_blocks) {
		size_t cap = t->cap_blocks ? 2 * t->cap_blocks : 64;
		uint64_t *nb = realloc(t->blocks, cap * sizeof(*nb));

		if (!nb)
			return;	/* not logged: the commit is one block short */
		t->blocks = nb;
		t->cap_blocks = cap;
	}
	t->blocks[t->nr_blocks++] = b;
	/*
	 * add_transaction_credits: a transaction may hold a quarter of the
	 * journal; the handle that would pass it starts the commit
	 */
	if (t->nr_blocks + j_descriptors(t->nr_blocks) + 1 >= j->max_txn)
		j_start_commit(j, t->tid, WHY_FULL, now);
}

void ios_jbd2_inode_changed(struct ios_vfs *vfs, struct ios_inode *in, bool datasync,
			    uint64_t now)
{
	struct jbd2 *j = vfs->jbd2;
	struct jtrans *t;

	if (!j)
		return;
	t = j_running(j, now);
	in->sync_tid = t->tid;
	if (datasync)
		in->datasync_tid = t->tid;
}

void ios_jbd2_touch_inode(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	uint64_t b = in->f->inode_block;
	struct pc_page *p;

	if (!vfs->jbd2 || b == IOS_FS_NO_BLOCK || b >= vfs->meta->npages)
		return;
	p = ios_pc_lookup(vfs->meta, b);
	if (p && (p->flags & PG_UPTODATE))
		ios_pc_set_dirty(vfs, p, now);
	ios_jbd2_dirty_meta(vfs, b, now);
	ios_jbd2_inode_changed(vfs, in, false, now);
}

void ios_jbd2_add_ordered(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	struct jbd2 *j = vfs->jbd2;
	struct jtrans *t;

	if (!j)
		return;
	t = j_running(j, now);
	if (in->ordered_tid == t->tid)
		return;
	if (t->nr_ordered == t->cap_ordered) {
		size_t cap = t->cap_ordered ? 2 * t->cap_ordered : 8;
		struct ios_inode **no = realloc(t->ordered, cap * sizeof(*no));

		if (!no)
			return;
		t->ordered = no;
		t->cap_ordered = cap;
	}
	in->ordered_tid = t->tid;
	t->ordered[t->nr_ordered++] = in;
}

bool ios_jbd2_unwritten_io(const struct ios_vfs *vfs)
{
	return vfs->jbd2 && vfs->jbd2->nolock;
}

void ios_jbd2_end_write(struct ios_vfs *vfs, struct ios_inode *in, uint64_t first, uint64_t nr,
			uint64_t now)
{
	if (!ios_jbd2_unwritten_io(vfs) || in->is_meta || !ios_fs_unwritten_in(in->f, first, nr))
		return;
	/*
	 * ext4_end_io_rsv_work -> ext4_convert_unwritten_io_end_vec: the
	 * extent (in the inode here) becomes written under a handle, which
	 * moves i_datasync_tid (ext4_ext_map_blocks); the pages end writeback
	 * only after it
	 */
	(void)ios_fs_mark_written(in->f, first, nr);
	ios_jbd2_touch_inode(vfs, in, now);
	ios_jbd2_inode_changed(vfs, in, true, now);
	vfs->jbd2->st.conversions++;
}

bool ios_jbd2_will_send_barrier(const struct ios_vfs *vfs, uint32_t tid)
{
	const struct jbd2 *j = vfs->jbd2;

	if (!j || !j->barrier || tid <= j->commit_sequence)
		return false;
	if (!j->committing || j->com.tid != tid)
		return true;
	/* the internal journal: from T_COMMIT_JFLUSH on it is too late */
	return j->cstate < C_COMMIT;
}

int ios_jbd2_wait_commit(struct ios_vfs *vfs, struct ios_vfs_op *op, uint32_t tid, uint64_t now)
{
	struct jbd2 *j = vfs->jbd2;

	if (!j || tid <= j->commit_sequence)
		return 0;
	j_start_commit(j, tid, WHY_SYNC, now);
	ios_pc_wait(&j->done_waiters, op);
	return IOS_VFS_WAIT;
}

/* ---- the commit ---- */

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* T_LOCKED .. T_FLUSH: the running transaction becomes the committing one */
static void j_lock_transaction(struct jbd2 *j)
{
	struct jtrans tmp = j->com;
	size_t n = 0;

	j->com = j->run;
	j->run = tmp;
	j->running = false;
	j->committing = true;
	ios_timer_cancel(&j->expires);
	/* a block logged while not cached may have been added twice */
	qsort(j->com.blocks, j->com.nr_blocks, sizeof(*j->com.blocks), u64_cmp);
	for (size_t i = 0; i < j->com.nr_blocks; i++)
		if (!n || j->com.blocks[n - 1] != j->com.blocks[i])
			j->com.blocks[n++] = j->com.blocks[i];
	j->com.nr_blocks = n;
	j->cstate = C_DATA;
	j->ord_idx = 0;
	j->ord_from = 0;
	j->log_left = n + j_descriptors(n);
	j->tagged = JBD2_TAGS_PER_DESC;	/* the first block written is a descriptor */
	switch (j->why) {
	case WHY_TIMER: j->st.commits_timer++; break;
	case WHY_SYNC: j->st.commits_sync++; break;
	default: j->st.commits_full++; break;
	}
}

/* one journal block at j->head, as a bio of @flags; IOS_VFS_WAIT when parked */
static int j_write_block(struct jbd2 *j, uint32_t flags, uint64_t now)
{
	struct ios_vfs *vfs = j->vfs;
	struct vfs_bio *vb = ios_vb_get(vfs);
	struct ios_fs_map m;

	if (!vb) {
		j->op.error = -ENOMEM;
		return 0;
	}
	ios_fs_map_block(vfs->fs, j->jf, j->head, &m);
	if (++j->head >= j->jlen)
		j->head = 1;	/* the log wraps past the journal superblock */
	vb->kind = VB_FLUSH;	/* completion: the op's pending count */
	vb->op = &j->op;
	vb->bio.sector = m.block * IOS_FS_BLOCK_SECTORS;
	vb->bio.nr_sectors = IOS_FS_BLOCK_SECTORS;
	vb->bio.dir = IOS_WRITE;
	vb->bio.flags = flags;
	vb->bio.ioc = &j->ioc;
	j->op.pending++;
	return ios_vb_submit(vfs, &j->op, vb, now);
}

/* jbd2_journal_commit_transaction from T_FLUSH on: 0 when committed, IOS_VFS_WAIT */
static int j_commit(struct jbd2 *j, uint64_t now)
{
	struct ios_vfs *vfs = j->vfs;
	struct jtrans *t = &j->com;

	if (j->cstate == C_DATA) {
		/* journal_submit_data_buffers: ordered inodes' dirty pages, WB_SYNC_ALL */
		for (; j->ord_idx < t->nr_ordered; j->ord_idx++, j->ord_from = 0) {
			struct ios_inode *in = t->ordered[j->ord_idx];
			uint64_t unlimited = UINT64_MAX, before = vfs->st.pages_written;
			int ret = ios_vfs_write_dirty(vfs, &j->op, &j->ioc, in, &j->ord_from,
						      in->npages, IOS_REQ_SYNC, &unlimited, now);

			j->st.ordered_pages += vfs->st.pages_written - before;
			if (ret)
				return IOS_VFS_WAIT;
		}
		j->cstate = C_LOG;
	}
	if (j->cstate == C_LOG) {
		/* descriptor, then the blocks it tags; one bio each, under the plug */
		while (j->log_left) {
			bool desc = j->tagged == JBD2_TAGS_PER_DESC;

			if (desc) {
				j->tagged = 0;
				j->st.desc_blocks++;
			} else {
				j->tagged++;
				j->st.log_blocks++;
			}
			j->log_left--;
			if (j_write_block(j, JBD2_REQ_FLAGS, now))
				return IOS_VFS_WAIT;
		}
		j->cstate = C_DATA_WAIT;
		j->ord_idx = 0;
	}
	if (j->cstate == C_DATA_WAIT) {
		/* journal_finish_inode_data_buffers: the ordered data on disk */
		for (; j->ord_idx < t->nr_ordered; j->ord_idx++) {
			struct ios_inode *in = t->ordered[j->ord_idx];

			if (in->nr_writeback) {
				ios_pc_wait(&in->wb_waiters, &j->op);
				return IOS_VFS_WAIT;
			}
		}
		j->cstate = C_LOG_WAIT;
	}
	if (j->cstate == C_LOG_WAIT) {
		if (j->op.pending) {
			j->op.waiting = true;
			return IOS_VFS_WAIT;
		}
		j->cstate = C_COMMIT;
	}
	if (j->cstate == C_COMMIT) {
		/* journal_submit_commit_record (no async_commit) */
		uint32_t flags = JBD2_REQ_FLAGS | (j->barrier ? IOS_REQ_PREFLUSH | IOS_REQ_FUA : 0);

		j->cstate = C_COMMIT_WAIT;
		j->st.commit_blocks++;
		if (j_write_block(j, flags, now))
			return IOS_VFS_WAIT;
	}
	if (j->op.pending) {
		j->op.waiting = true;
		return IOS_VFS_WAIT;
	}
	return 0;
}

/* T_FINISHED: fsyncs waiting for it go on */
static void j_commit_done(struct jbd2 *j, uint64_t now)
{
	for (size_t i = 0; i < j->com.nr_ordered; i++)
		if (j->com.ordered[i]->ordered_tid == j->com.tid)
			j->com.ordered[i]->ordered_tid = 0;
	j->commit_sequence = j->com.tid;
	j->committing = false;
	j->com.nr_blocks = 0;
	j->com.nr_ordered = 0;
	j->op.error = 0;
	j->st.commits++;
	ios_pc_wake_all(&j->done_waiters, now);
}

/* kjournald2: commit while a commit is asked for */
static void j_step_body(struct jbd2 *j, uint64_t now)
{
	for (;;) {
		if (!j->committing) {
			if (!j->running || j->commit_request != j->run.tid)
				return;
			j_lock_transaction(j);
		}
		if (j_commit(j, now))
			return;
		j_commit_done(j, now);
	}
}

static void j_step(struct jbd2 *j, uint64_t now)
{
	struct ios_plug plug;

	if (!j->vfs->q->mq) {
		j_step_body(j, now);
		return;
	}
	/* blk_start_plug around the log writes; sleeping flushes it (UT) */
	ios_blk_start_plug(&j->ioc, &plug);
	j_step_body(j, now);
	if (j->op.waiting)
		ios_blk_flush_plug(&j->ioc, true, now);
	ios_blk_finish_plug(&j->ioc, &plug, now);
}

/* ---- set-up ---- */

int ios_jbd2_create(struct ios_vfs *vfs, const struct ios_vfs_config *cfg)
{
	const struct ios_fs_file *jf = ios_fs_journal(cfg->fs);
	struct jbd2 *j;

	if (!cfg->jbd2_commit_ns || ios_fs_type(cfg->fs) != IOS_FS_EXT4 || !jf)
		return 0;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->vfs = vfs;
	j->jf = jf;
	j->jlen = jf->size / IOS_FS_BLOCK_SIZE;
	j->head = 1;
	j->max_txn = j->jlen / 4;	/* jbd2_journal_get_max_txn_bufs, no fast-commit area */
	j->commit_ns = cfg->jbd2_commit_ns;
	j->nolock = cfg->jbd2_dioread_nolock != 0;
	j->barrier = cfg->cache_flush != 0;
	j->next_tid = 1;
	ios_timer_init(&j->expires);
	ios_timer_init(&j->wake);
	j->ioc.pid = cfg->jbd2_pid;
	snprintf(j->ioc.comm, sizeof(j->ioc.comm), "jbd2/sda-8");
	j->ioc.ioprio_class = IOS_IOPRIO_CLASS_NONE;
	j->ioc.nr_tasks = 1;
	j->file.ioc = &j->ioc;
	j->op.file = &j->file;
	j->op.wake = j_op_wake;
	j->op.priv = j;
	vfs->jbd2 = j;
	return 0;
}

void ios_jbd2_quiesce(struct ios_vfs *vfs)
{
	struct jbd2 *j = vfs->jbd2;

	if (!j)
		return;
	j->stopped = true;
	ios_timer_cancel(&j->expires);
}

void ios_jbd2_destroy(struct ios_vfs *vfs)
{
	struct jbd2 *j = vfs->jbd2;

	if (!j)
		return;
	ios_timer_cancel(&j->expires);
	ios_timer_cancel(&j->wake);
	free(j->run.blocks);
	free(j->run.ordered);
	free(j->com.blocks);
	free(j->com.ordered);
	free(j);
	vfs->jbd2 = NULL;
}

struct ios_ioc *ios_vfs_jbd2_ioc(struct ios_vfs *vfs)
{
	return vfs->jbd2 ? &vfs->jbd2->ioc : NULL;
}

bool ios_vfs_jbd2_stats(const struct ios_vfs *vfs, struct ios_jbd2_stats *out)
{
	if (!vfs->jbd2) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	*out = vfs->jbd2->st;
	return true;
}
