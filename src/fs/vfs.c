/*
 * File operations over the page cache: open, buffered read and write,
 * fsync, and O_DIRECT, as resumable step functions (see vfs.h).
 *
 * An operation blocks on exactly one thing at a time and records how far it
 * got, so that stepping it again redoes nothing:
 *  - a metadata block (directory, inode, indirect) being read: the op waits
 *    on that page of the metadata cache, which is the block device's pages;
 *  - a page being read (by itself or by anyone else: a second reader of a
 *    page under I/O waits for that read instead of issuing its own);
 *  - a request slot: a bio that found the request list full is parked by
 *    the block layer, and the op resumes when it is queued;
 *  - its own direct I/O or flush completing;
 *  - the file's writeback draining (fsync), dirty throttling (writers), or a
 *    free page of memory.
 * Reads look up pages one by one as do_generic_file_read does: a miss starts
 * sync readahead, a marked page starts async readahead, and a page not yet
 * up to date is waited for. A readahead window is submitted run by run (one
 * bio per run of pages contiguous on disk) in mpage_readpages' order: the
 * indirect blocks the next run needs are read (synchronously, by the
 * reading task, as ext3's get_block does) before a run's bio is sent.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "vfs_int.h"

/* op states */
enum {
	ST_START = 0,
	ST_META,	/* open: directory done, inode next */
	ST_COPY,	/* read/write: moving data */
	ST_BALANCE,	/* write: dirty throttling */
	ST_SYNC_WRITE,	/* fsync / O_SYNC: writing the dirty pages */
	ST_SYNC_WAIT,	/* waiting for the file's writeback to drain */
	ST_FLUSH,	/* submitting the cache flush */
	ST_FLUSH_WAIT,
	ST_DIRECT_META,
	ST_DIRECT_SUBMIT,
	ST_DIRECT_WAIT,
	ST_JOURNAL,	/* ext4: waiting for the commit of the inode's transaction */
	ST_JOURNAL_FLUSH,	/* ... and then a cache flush of its own */
	ST_DONE,
};

const struct ios_tunable ios_vm_tunables_table[] = {
	{ "memory", IOS_TUN_SIZE, offsetof(struct ios_vm_tunables, memory), 16, 1048576, "1024",
	  "MiB", "memory the page cache may use (the machine's RAM less what programs hold)", 0,
	  NULL },
	{ "dirty_ratio", IOS_TUN_INT, offsetof(struct ios_vm_tunables, dirty_ratio), 1, 100, "20",
	  "%", "writers are throttled when dirty and writeback pages pass this share of memory",
	  0, NULL },
	{ "dirty_background_ratio", IOS_TUN_INT,
	  offsetof(struct ios_vm_tunables, dirty_background_ratio), 0, 100, "10", "%",
	  "the flusher starts writing back when dirty pages pass this share of memory", 0, NULL },
	{ "dirty_expire_centisecs", IOS_TUN_INT,
	  offsetof(struct ios_vm_tunables, dirty_expire_centisecs), 0, 8640000, "3000", "cs",
	  "dirty data older than this is written back by the periodic flush", 0, NULL },
	{ "dirty_writeback_centisecs", IOS_TUN_INT,
	  offsetof(struct ios_vm_tunables, dirty_writeback_centisecs), 0, 8640000, "500", "cs",
	  "period of the flusher's wake-up (0: only when dirty memory passes the background ratio)",
	  0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

/* ---- bios ---- */

struct vfs_bio *ios_vb_get(struct ios_vfs *vfs)
{
	struct vfs_bio *vb = vfs->free_bios;

	if (vb)
		vfs->free_bios = vb->next_free;
	else
		vb = malloc(sizeof(*vb));
	if (vb) {
		memset(vb, 0, sizeof(*vb));
		vb->vfs = vfs;
	}
	return vb;
}

static void vb_put(struct ios_vfs *vfs, struct vfs_bio *vb)
{
	vb->next_free = vfs->free_bios;
	vfs->free_bios = vb;
}

static void op_wake(struct ios_vfs_op *op, uint64_t now)
{
	if (op->waiting) {
		op->waiting = false;
		op->wake(op, now);
	}
}

static void vb_end_io(struct ios_bio *bio, uint64_t now, int error)
{
	struct vfs_bio *vb = ios_container_of(bio, struct vfs_bio, bio);
	struct ios_vfs *vfs = vb->vfs;
	struct ios_inode *in = vb->inode;

	switch (vb->kind) {
	case VB_READ:
		for (uint32_t i = 0; i < vb->nr; i++) {
			struct pc_page *p = ios_pc_lookup(in, vb->first + i);

			if (!p)
				continue;
			p->flags &= ~PG_LOCKED;
			if (!error)
				p->flags |= PG_UPTODATE;
			ios_pc_wake_all(&p->waiters, now);
			ios_pc_lru_update(vfs, p);
		}
		if (in->is_meta)
			vfs->st.meta_reads += vb->nr;
		else
			vfs->st.pages_read += vb->nr;
		break;
	case VB_WRITE: {
		/* the owners' bytes, one call per run of pages with the same owner */
		uint32_t owner = 0;
		uint64_t run = 0;

		if (!error)
			ios_jbd2_end_write(vfs, in, vb->first, vb->nr, now);

		for (uint32_t i = 0; i < vb->nr; i++) {
			struct pc_page *p = ios_pc_lookup(in, vb->first + i);

			if (!p || !(p->flags & PG_WRITEBACK))
				continue;
			if (vfs->wb_done && !error && p->owner) {
				if (run && p->owner != owner) {
					vfs->wb_done(vfs->wb_arg, owner, run, now);
					run = 0;
				}
				owner = p->owner;
				run += IOS_PAGE_SIZE;
			}
			p->flags &= ~PG_WRITEBACK;
			in->nr_writeback--;
			vfs->nr_writeback--;
			if (vfs->bdp)
				ios_bdp_writeback_end(vfs, in, now);
			ios_pc_wake_all(&p->waiters, now);
			ios_pc_lru_update(vfs, p);
		}
		if (run)
			vfs->wb_done(vfs->wb_arg, owner, run, now);
		if (!in->nr_writeback)
			ios_pc_wake_all(&in->wb_waiters, now);
		ios_wb_balance_wake(vfs, now);
		break;
	}
	case VB_DIRECT:
	case VB_FLUSH:
		if (error && !vb->op->error)
			vb->op->error = error;
		if (!--vb->op->pending)
			op_wake(vb->op, now);
		break;
	}
	if (vfs->mem_waiters && !ios_list_empty(&vfs->lru))
		ios_pc_wake_all(&vfs->mem_waiters, now);
	vb_put(vfs, vb);
}

/* A parked bio got its request: the op that submitted it goes on. */
static void vb_queued(struct ios_bio *bio, uint64_t now)
{
	struct vfs_bio *vb = ios_container_of(bio, struct vfs_bio, bio);
	struct ios_vfs_op *op = bio->priv;

	(void)vb;
	op_wake(op, now);
}

/*
 * Submit @vb for @op. With @wait_queued, a bio that found no free request
 * slot makes the op sleep until it is queued (IOS_VFS_WAIT). Without, the op
 * is already waiting for something the bio completes (a page being read),
 * which covers the time the bio spends parked.
 */
static int vb_submit(struct ios_vfs *vfs, struct ios_vfs_op *op, struct vfs_bio *vb, uint64_t now,
		     bool wait_queued)
{
	int ret;

	vb->bio.end_io = vb_end_io;
	vb->bio.queued = wait_queued ? vb_queued : NULL;
	vb->bio.priv = op;
	vb->bio.submit_ns = now;
	ret = ios_queue_submit_bio(vfs->q, &vb->bio, now);
	if (ret == 1 && wait_queued) {
		op->waiting = true;
		return IOS_VFS_WAIT;
	}
	if (ret < 0) {
		/* a layout bug: complete at once with the error */
		if (!op->error)
			op->error = ret;
		vb->bio.end_io(&vb->bio, now, ret);
	}
	return 0;
}

int ios_vb_submit(struct ios_vfs *vfs, struct ios_vfs_op *op, struct vfs_bio *vb, uint64_t now)
{
	return vb_submit(vfs, op, vb, now, true);
}

static uint64_t dev_pages(const struct ios_vfs *vfs)
{
	return vfs->meta->npages;
}

/* A bio over device blocks [block, block + n) that stays inside the device. */
static void vb_set_blocks(struct ios_vfs *vfs, struct vfs_bio *vb, uint64_t block, uint64_t n)
{
	uint64_t sector = block * IOS_FS_BLOCK_SECTORS;
	uint64_t nr = n * IOS_FS_BLOCK_SECTORS, cap = vfs->q->capacity_sectors;

	if (sector + nr > cap)
		nr = cap > sector ? cap - sector : 0;
	vb->bio.sector = sector;
	vb->bio.nr_sectors = (uint32_t)nr;
}

static void op_wait(struct ios_vfs_op **list, struct ios_vfs_op *op)
{
	ios_pc_wait(list, op);
}

/*
 * No page for @op: wait for one to be freed (writeback or a read ends),
 * unless the allocation failed because this process is out of memory,
 * which nothing would ever end: then the operation fails with ENOMEM.
 */
static int mem_wait(struct ios_vfs *vfs, struct ios_vfs_op *op)
{
	if (vfs->alloc_failed) {
		op->error = -ENOMEM;
		return IOS_VFS_DONE;
	}
	op_wait(&vfs->mem_waiters, op);
	return IOS_VFS_WAIT;
}

/* ---- metadata ---- */

/*
 * Make sure metadata block @block is cached. 0 when it is; IOS_VFS_WAIT when
 * @op must wait for it (this call started the read if nobody had). *hit
 * gets the page when it was found cached and up to date, else NULL.
 */
static int ensure_meta(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t block, bool is_meta,
		       uint64_t now, struct pc_page **hit)
{
	struct pc_page *p;
	struct vfs_bio *vb;

	*hit = NULL;
	if (block == IOS_FS_NO_BLOCK || block >= dev_pages(vfs))
		return 0;
	p = ios_pc_lookup(vfs->meta, block);
	if (p && (p->flags & PG_UPTODATE)) {
		ios_pc_touch(vfs, p);
		*hit = p;
		return 0;
	}
	if (!p) {
		p = ios_pc_alloc(vfs, vfs->meta, block);
		if (!p)
			return mem_wait(vfs, op);
		vb = ios_vb_get(vfs);
		if (!vb) {
			ios_pc_remove(vfs, p);
			op->error = -ENOMEM;
			return 0;
		}
		p->flags |= PG_LOCKED;
		vb->inode = vfs->meta;
		vb->first = block;
		vb->nr = 1;
		vb->kind = VB_READ;
		vb_set_blocks(vfs, vb, block, 1);
		vb->bio.dir = IOS_READ;
		/*
		 * ext3 reads inodes and directories with READ_META; indirect
		 * blocks come through sb_bread as plain reads (2.6.31, 2.6.33).
		 * 4.19 serves this layout with ext4, which reads the same two
		 * with REQ_META | REQ_PRIO (__ext4_get_inode_loc, ext4_bread,
		 * ext4_bread_batch) and indirect blocks plain (ext4_get_branch,
		 * bh_submit_read). Both bits go on every release's bio: the
		 * older CFQs read only META (they had no REQ_PRIO), 4.19's CFQ
		 * reads only PRIO, BFQ only META.
		 */
		vb->bio.flags = is_meta ? IOS_REQ_META | IOS_REQ_PRIO | IOS_REQ_SYNC : IOS_REQ_SYNC;
		vb->bio.ioc = op->file->ioc;
		op_wait(&p->waiters, op);
		ios_pc_lru_update(vfs, p);
		(void)vb_submit(vfs, op, vb, now, false);
		return IOS_VFS_WAIT;
	}
	op_wait(&p->waiters, op);
	ios_pc_lru_update(vfs, p);
	return IOS_VFS_WAIT;
}

int ios_vfs_ensure_meta(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t block, bool is_meta,
			uint64_t now)
{
	struct pc_page *hit;

	return ensure_meta(vfs, op, block, is_meta, now, &hit);
}

/*
 * The memo of a file's indirect blocks. Every I/O needs its mapping's
 * indirect blocks cached, and nearly always finds them so; the lookup in
 * the metadata cache's table, which spans the whole device, costs two
 * cache misses each time. The memo keeps, per indirect block of the file
 * (by its ordinal, a small dense key), the page it was last found in and
 * the metadata cache's generation then; an unchanged generation proves
 * that the lookup would find the same page up to date (struct meta_memo).
 * A hit does what ensure_meta does on a hit, the LRU touch, and nothing
 * else, so the simulation cannot tell the two apart. Larger ordinals than
 * this (files past 16 TiB) go without.
 */
#define MEMO_MAX_ORD (1u << 22)

static void memo_store(struct ios_vfs *vfs, struct ios_inode *in, uint32_t ord, uint64_t block,
		       struct pc_page *p)
{
	struct meta_memo *e;

	if (ord >= in->nr_memo) {
		/* from one entry: a job of 100k small files has one indirect block each */
		uint32_t n = in->nr_memo ? in->nr_memo : 1;

		if (ord >= MEMO_MAX_ORD)
			return;
		while (n <= ord)
			n *= 2;
		/* the first entry is the inode's own (issue 34: no line of its own per request) */
		if (n == 1) {
			e = &in->memo1;
		} else if (in->memo == &in->memo1) {
			e = malloc(n * sizeof(*e));
			if (e)
				*e = in->memo1;
		} else {
			e = realloc(in->memo, n * sizeof(*e));
		}
		if (!e)
			return;	/* no memo: the lookups answer alone */
		memset(e + in->nr_memo, 0, (n - in->nr_memo) * sizeof(*e));
		in->memo = e;
		in->nr_memo = n;
	}
	e = &in->memo[ord];
	e->block = block;
	e->p = p;
	e->gen = vfs->meta_gen;
}

/* Ensure every metadata block @in's mapping @m needs, in order. */
static int ensure_map_meta(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
			   const struct ios_fs_map *m, uint64_t now)
{
	for (unsigned k = 0; k < m->nr_meta; k++) {
		uint32_t ord = m->meta_ord[k];
		struct pc_page *hit;

		if (ord < in->nr_memo) {
			const struct meta_memo *e = &in->memo[ord];

			if (e->gen == vfs->meta_gen && e->block == m->meta[k]) {
				ios_pc_touch(vfs, e->p);
				continue;
			}
		}
		if (ensure_meta(vfs, op, m->meta[k], false, now, &hit))
			return IOS_VFS_WAIT;
		if (hit)
			memo_store(vfs, in, ord, m->meta[k], hit);
	}
	return 0;
}

/* ---- readahead submission ---- */

static uint64_t ra_next_hole(void *priv, uint64_t from, uint64_t max)
{
	struct ios_inode *in = priv;

	for (uint64_t i = from; i < from + max; i++)
		if (i >= in->npages || !ios_pc_lookup(in, i))
			return i;
	return from + max;
}

static uint64_t ra_history(void *priv, uint64_t index, uint64_t max)
{
	struct ios_inode *in = priv;
	uint64_t n = 0;

	while (n < max && n < index && ios_pc_lookup(in, index - 1 - n))
		n++;
	return n;
}

static void ra_start(struct ios_vfs *vfs, struct ios_vfs_op *op, const struct ios_ra_window *w)
{
	struct ios_inode *in = op->file->inode;
	uint64_t end = w->start + w->size;

	if (end > in->npages)
		end = in->npages;
	op->ra_start = w->start;
	op->ra_size = end > w->start ? end - w->start : 0;
	op->ra_marker = w->async_size ? w->start + w->size - w->async_size : UINT64_MAX;
	op->ra_next = w->start;
	op->ra_pending = op->ra_size > 0;
	vfs->st.readahead_windows++;
}

static int ra_submit(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now)
{
	struct ios_inode *in = op->file->inode;
	uint64_t end = op->ra_start + op->ra_size, i;
	struct ios_fs_map m, mn;

	/*
	 * One bio per run of missing pages contiguous on disk, in the order
	 * mpage_readpages (2.6.31 fs/mpage.c) produces them: it maps page by
	 * page, get_block reading the indirect blocks a mapping needs
	 * synchronously, and sends the bio it is building only when the next
	 * page turns out not to follow on disk. So the indirect blocks of the
	 * next run are read before this run's bio goes out, and a run that
	 * ends where the file jumps elsewhere (a fragment) goes out before the
	 * next run's indirect block is read.
	 */
	i = op->ra_next;
	while (i < end) {
		struct vfs_bio *vb;
		uint64_t n = 0, run, next;

		if (ios_pc_lookup(in, i)) {
			op->ra_next = ++i;
			continue;
		}
		if (ios_fs_reads_zero(in->f, i)) {
			int r = ios_vfs_hole_page(vfs, op, in, i, i == op->ra_marker);

			if (r)
				return r;
			op->ra_next = ++i;
			continue;
		}
		ios_fs_map_block(vfs->fs, in->f, i, &m);
		if (ensure_map_meta(vfs, op, in, &m, now))
			return IOS_VFS_WAIT;
		run = m.contig < end - i ? m.contig : end - i;
		if (run > vfs->max_bio_pages)
			run = vfs->max_bio_pages;
		if (!run)
			run = 1;
		for (next = i + run; next < end && ios_pc_lookup(in, next); next++)
			;
		if (next < end) {
			ios_fs_map_block(vfs->fs, in->f, next, &mn);
			if (ensure_map_meta(vfs, op, in, &mn, now))
				return IOS_VFS_WAIT;
		}
		while (n < run && !ios_pc_lookup(in, i + n) && !ios_fs_reads_zero(in->f, i + n)) {
			struct pc_page *p = ios_pc_alloc(vfs, in, i + n);

			if (!p)
				break;
			p->flags |= PG_LOCKED;
			if (i + n == op->ra_marker)
				p->flags |= PG_READAHEAD;
			n++;
		}
		if (!n) {
			if (vfs->alloc_failed) {
				op->error = -ENOMEM;
				return 0;
			}
			op_wait(&vfs->mem_waiters, op);
			return IOS_VFS_WAIT;
		}
		vb = ios_vb_get(vfs);
		if (!vb) {
			op->error = -ENOMEM;
			op->ra_pending = false;
			return 0;
		}
		vb->inode = in;
		vb->first = i;
		vb->nr = (uint32_t)n;
		vb->kind = VB_READ;
		vb_set_blocks(vfs, vb, m.block, n);
		vb->bio.dir = IOS_READ;
		vb->bio.flags = 0;
		vb->bio.ioc = op->file->ioc;
		i += n;
		op->ra_next = i;
		if (vb_submit(vfs, op, vb, now, true))
			return IOS_VFS_WAIT;
	}
	op->ra_pending = false;
	return 0;
}

/* ---- buffered read ---- */

static enum ios_vfs_status do_read(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now)
{
	struct ios_file *file = op->file;
	struct ios_inode *in = file->inode;
	const struct ios_ra_cache_ops cops = { ra_next_hole, ra_history, in };
	uint64_t end = op->off + op->len;

	if (op->state == ST_START) {
		op->cursor = op->off;
		op->state = ST_COPY;
		/* ext4: file_modified's timestamp update dirties the inode under a handle */
		if (op->len)
			ios_jbd2_touch_inode(vfs, in, now);
	}
	if (end > in->f->size)
		end = in->f->size;
	for (;;) {
		uint64_t idx, last, n;
		struct pc_page *p;

		if (op->ra_pending && ra_submit(vfs, op, now))
			return IOS_VFS_WAIT;
		if (op->cursor >= end || op->error)
			break;
		idx = op->cursor >> IOS_PAGE_SHIFT;
		last = (end - 1) >> IOS_PAGE_SHIFT;
		p = ios_pc_lookup(in, idx);
		if (!p) {
			struct ios_ra_window w;

			vfs->st.read_misses++;
			w = ios_ra_ondemand(&file->ra, &cops, false, idx, last - idx + 1);
			if (!w.read) {
				w.start = idx;
				w.size = 1;
				w.async_size = 0;
			}
			ra_start(vfs, op, &w);
			continue;
		}
		if (p->flags & PG_READAHEAD) {
			struct ios_ra_window w;

			p->flags &= ~PG_READAHEAD;
			w = ios_ra_ondemand(&file->ra, &cops, true, idx, last - idx + 1);
			if (w.read) {
				ra_start(vfs, op, &w);
				continue;
			}
		}
		if (!(p->flags & PG_UPTODATE)) {
			if (!(p->flags & PG_LOCKED)) {
				/* a failed read: give up with its error */
				op->error = -EIO;
				break;
			}
			op_wait(&p->waiters, op);
			ios_pc_lru_update(vfs, p);
			return IOS_VFS_WAIT;
		}
		n = ((idx + 1) << IOS_PAGE_SHIFT) < end ? ((idx + 1) << IOS_PAGE_SHIFT) - op->cursor
						      : end - op->cursor;
		op->cpu_ns += vfs->page_copy_ns * n / IOS_PAGE_SIZE;
		op->cursor += n;
		op->done += n;
		vfs->st.read_hits++;
		ios_pc_touch(vfs, p);
	}
	file->ra.prev_pos = op->cursor;
	return IOS_VFS_DONE;
}

/* ---- writing dirty pages (fsync, O_SYNC, the flusher) ---- */

int ios_vfs_write_dirty(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_ioc *ioc,
			struct ios_inode *in, uint64_t *from, uint64_t end, uint32_t flags,
			uint64_t *max_pages, uint64_t now)
{
	while (*max_pages) {
		struct pc_page *p = ios_pc_first_dirty_from(in, *from), *q;
		struct ios_fs_map m;
		struct vfs_bio *vb;
		uint64_t idx, n, run;

		if (!p || p->index >= end)
			return 0;
		idx = p->index;
		if (p->flags & (PG_WRITEBACK | PG_LOCKED)) {
			if (flags & IOS_REQ_SYNC) {
				/* data integrity: the earlier write must finish first */
				op_wait(&p->waiters, op);
				ios_pc_lru_update(vfs, p);
				return IOS_VFS_WAIT;
			}
			*from = idx + 1; /* background writeback skips busy pages */
			continue;
		}
		ios_fs_map_block(vfs->fs, in->f, idx, &m);
		if (ensure_map_meta(vfs, op, in, &m, now))
			return IOS_VFS_WAIT;
		run = m.contig;
		if (run > vfs->max_bio_pages)
			run = vfs->max_bio_pages;
		if (run > *max_pages)
			run = *max_pages;
		if (run > end - idx)
			run = end - idx;
		for (n = 0, q = p; n < run && q && q->index == idx + n &&
				   !(q->flags & (PG_WRITEBACK | PG_LOCKED)); n++) {
			struct pc_page *next = ios_pc_next_dirty(q);

			if (in->wb)
				ios_cgwb_account_page(in, q);
			ios_pc_clear_dirty(vfs, q);
			q->flags |= PG_WRITEBACK;
			in->nr_writeback++;
			vfs->nr_writeback++;
			if (vfs->bdp)
				ios_bdp_writeback_start(vfs, in, now);
			ios_pc_lru_update(vfs, q);
			q = next;
		}
		vb = ios_vb_get(vfs);
		if (!vb) {
			op->error = -ENOMEM;
			return 0;
		}
		vb->inode = in;
		vb->first = idx;
		vb->nr = (uint32_t)n;
		vb->kind = VB_WRITE;
		vb_set_blocks(vfs, vb, m.block, n);
		vb->bio.dir = IOS_WRITE;
		vb->bio.flags = flags;
		vb->bio.ioc = ioc;
		vb->bio.blkcg = ios_cgwb_bio_blkcg(in);	/* wbc_init_bio: the inode's wb */
		vfs->st.pages_written += n;
		*from = idx + n;
		*max_pages -= n;
		if (vb_submit(vfs, op, vb, now, true))
			return IOS_VFS_WAIT;
	}
	return 0;
}

/* fsync, fdatasync and O_SYNC writes: pages [cursor, op->seq) written sync, then a flush */
static enum ios_vfs_status do_sync(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now,
				   uint64_t first, uint64_t end)
{
	struct ios_inode *in = op->file->inode;

	if (op->state == ST_START || op->state == ST_BALANCE) {
		op->cursor = first;
		op->seq = end;
		op->state = ST_SYNC_WRITE;
	}
	if (op->state == ST_SYNC_WRITE) {
		uint64_t unlimited = UINT64_MAX;

		/*
		 * Data-integrity writeback (WB_SYNC_ALL): 2.6.31 and 2.6.33's
		 * __block_write_full_page submit it as WRITE_SYNC_PLUG, sync and
		 * noidle, so CFQ does not idle after it; 4.19 marks it REQ_SYNC
		 * without REQ_IDLE (wbc_to_write_flags), which its CFQ reads the
		 * same way from the absent IOS_REQ_IDLE.
		 */
		if (ios_vfs_write_dirty(vfs, op, op->file->ioc, in, &op->cursor, op->seq,
					IOS_REQ_SYNC | IOS_REQ_NOIDLE, &unlimited, now))
			return IOS_VFS_WAIT;
		op->state = ST_SYNC_WAIT;
	}
	if (op->state == ST_SYNC_WAIT) {
		if (in->nr_writeback) {
			op_wait(&in->wb_waiters, op);
			return IOS_VFS_WAIT;
		}
		op->state = ST_FLUSH;
		if (vfs->jbd2) {
			/*
			 * ext4_fsync_journal (6.12): the transaction of the
			 * inode's last change, or of the last one reading the
			 * data back needs for fdatasync and O_DSYNC; a cache
			 * flush of its own unless that commit sends one
			 */
			bool datasync = op->type == IOS_VFS_FDATASYNC ||
					(op->type == IOS_VFS_WRITE && (op->file->flags & IOS_O_DSYNC));
			uint32_t tid = datasync ? in->datasync_tid : in->sync_tid;

			op->cursor = tid;
			op->state = vfs->cache_flush && !ios_jbd2_will_send_barrier(vfs, tid)
					    ? ST_JOURNAL_FLUSH : ST_JOURNAL;
		}
	}
	if (op->state == ST_JOURNAL || op->state == ST_JOURNAL_FLUSH) {
		if (ios_jbd2_wait_commit(vfs, op, (uint32_t)op->cursor, now))
			return IOS_VFS_WAIT;
		if (op->state == ST_JOURNAL)
			return IOS_VFS_DONE;
		op->state = ST_FLUSH;
	}
	if (op->state == ST_FLUSH) {
		struct vfs_bio *vb;

		if (!vfs->cache_flush)
			return IOS_VFS_DONE;
		vb = ios_vb_get(vfs);
		if (!vb) {
			op->error = -ENOMEM;
			return IOS_VFS_DONE;
		}
		vb->kind = VB_FLUSH;
		vb->op = op;
		vb->bio.dir = IOS_WRITE;
		vb->bio.flags = IOS_REQ_PREFLUSH | IOS_REQ_SYNC;
		vb->bio.ioc = op->file->ioc;
		op->pending++;
		vfs->st.cache_flushes++;
		op->state = ST_FLUSH_WAIT;
		if (vb_submit(vfs, op, vb, now, true))
			return IOS_VFS_WAIT;
	}
	if (op->pending) {
		op->waiting = true;
		return IOS_VFS_WAIT;
	}
	return IOS_VFS_DONE;
}

int ios_vfs_read_page(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
		      uint64_t idx, uint64_t now)
{
	struct ios_fs_map m;
	struct vfs_bio *vb;
	struct pc_page *p;

	ios_fs_map_block(vfs->fs, in->f, idx, &m);
	if (ensure_map_meta(vfs, op, in, &m, now))
		return IOS_VFS_WAIT;
	p = ios_pc_alloc(vfs, in, idx);
	if (!p)
		return mem_wait(vfs, op);
	vb = ios_vb_get(vfs);
	if (!vb) {
		ios_pc_remove(vfs, p);
		op->error = -ENOMEM;
		return 0;
	}
	p->flags |= PG_LOCKED;
	vb->inode = in;
	vb->first = idx;
	vb->nr = 1;
	vb->kind = VB_READ;
	vb_set_blocks(vfs, vb, m.block, 1);
	vb->bio.dir = IOS_READ;
	vb->bio.ioc = op->file->ioc;
	op_wait(&p->waiters, op);
	ios_pc_lru_update(vfs, p);
	(void)vb_submit(vfs, op, vb, now, false);
	return IOS_VFS_WAIT;
}

int ios_vfs_mem_wait(struct ios_vfs *vfs, struct ios_vfs_op *op)
{
	return mem_wait(vfs, op);
}

/* ---- buffered write ---- */

static enum ios_vfs_status do_write(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now)
{
	struct ios_file *file = op->file;
	struct ios_inode *in = file->inode;
	uint64_t end = op->off + op->len;

	if (op->state == ST_START) {
		op->cursor = op->off;
		op->state = ST_COPY;
		/* ext4: file_modified's timestamp update dirties the inode under a handle */
		if (op->len)
			ios_jbd2_touch_inode(vfs, in, now);
	}
	if (end > in->f->size)
		end = in->f->size;
	while (op->state == ST_COPY && op->cursor < end && !op->error) {
		uint64_t idx = op->cursor >> IOS_PAGE_SHIFT;
		uint64_t pstart = idx << IOS_PAGE_SHIFT, pend = pstart + IOS_PAGE_SIZE, n;
		struct pc_page *p = ios_pc_lookup(in, idx);

		if (pend > end)
			pend = end;
		if (ios_fs_reads_zero(in->f, idx)) {
			/*
			 * ext3_get_block(create): a hole's block is allocated as
			 * the page is written; an unwritten one is converted
			 */
			if (ios_vfs_alloc_blocks(vfs, op, in, idx, 1, true, now))
				return IOS_VFS_WAIT;
			if (op->error)
				break;
			if (!p) {
				p = ios_pc_alloc(vfs, in, idx);
				if (!p)
					return mem_wait(vfs, op);
				p->flags |= PG_UPTODATE; /* a hole reads as zeros: nothing to read */
			}
		}
		if (!p) {
			bool partial = op->cursor != pstart ||
				       (pend - pstart < IOS_PAGE_SIZE && pend < in->f->size);

			if (partial) {
				/* read-modify-write of a page with data on disk */
				if (ios_vfs_read_page(vfs, op, in, idx, now))
					return IOS_VFS_WAIT;
				break;	/* op->error */
			}
			p = ios_pc_alloc(vfs, in, idx);
			if (!p)
				return mem_wait(vfs, op);
			p->flags |= PG_UPTODATE; /* overwritten whole */
		}
		if (p->flags & PG_LOCKED) {
			op_wait(&p->waiters, op);
			ios_pc_lru_update(vfs, p);
			return IOS_VFS_WAIT;
		}
		n = pend - op->cursor;
		op->cpu_ns += vfs->page_copy_ns * n / IOS_PAGE_SIZE;
		p->flags |= PG_UPTODATE;
		if (vfs->bdp && !(p->flags & PG_DIRTY))
			ios_bdp_task_dirtied(vfs, op);	/* current->nr_dirtied */
		ios_pc_set_dirty(vfs, p, now);
		/* whose bytes these are when they reach the disk (plot series) */
		p->owner = op->file->ioc ? op->file->ioc->pid : 0;
		ios_pc_touch(vfs, p);
		op->cursor += n;
		op->done += n;
	}
	if (op->state == ST_COPY)
		op->state = ST_BALANCE;
	if (op->state == ST_BALANCE && ios_bdp_applies(vfs, in, op)) {
		/* Linux 6.x: paced per wb (dirty_bdp.c) */
		if (ios_bdp_balance_op(vfs, op, in, now))
			return IOS_VFS_WAIT;
		if (!(file->flags & IOS_O_SYNC))
			return IOS_VFS_DONE;
	} else if (op->state == ST_BALANCE) {
		/* balance_dirty_pages of 2.6.31, simplified: wait below the limit */
		if (vfs->nr_dirty >= ios_wb_background_thresh(vfs))
			ios_vfs_wb_kick(vfs, in, now);
		if (vfs->nr_dirty + vfs->nr_writeback > ios_wb_dirty_thresh(vfs)) {
			vfs->st.throttled++;
			/* bdi->last_bdp_sleep (6.8+), which blk-mq's wbt reads */
			vfs->q->last_bdp_sleep_ns = now;
			vfs->q->bdp_slept = true;
			op_wait(&vfs->throttled, op);
			return IOS_VFS_WAIT;
		}
		if (!(file->flags & IOS_O_SYNC))
			return IOS_VFS_DONE;
	}
	return do_sync(vfs, op, now, op->off >> IOS_PAGE_SHIFT,
		       (op->off + op->len + IOS_PAGE_SIZE - 1) >> IOS_PAGE_SHIFT);
}

/* ---- direct I/O ---- */

/* Where a direct I/O ends: at the file's end at the latest; *in = its inode. */
static uint64_t dio_end(const struct ios_vfs_op *op, struct ios_inode **in)
{
	uint64_t end = op->off + op->len;

	*in = op->file->inode;
	return end > (*in)->f->size ? (*in)->f->size : end;
}

static enum ios_vfs_status do_direct(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now)
{
	struct ios_file *file = op->file;
	struct ios_inode *in = NULL;
	bool disc = op->type == IOS_VFS_DISCARD;
	bool wr = op->type == IOS_VFS_DIRECT_WRITE || disc;
	uint64_t end = op->off + op->len;
	uint64_t max_bytes = vfs->q->tun.max_sectors_bytes;
	uint64_t first_blk = op->off / IOS_FS_BLOCK_SIZE;
	struct ios_fs_map m, first_m;
	bool have_first = false;
	struct ios_plug plug;	/* the kernel's is on the stack too */
	bool plugged = false;	/* this step started it: only then is there one to finish */

	/*
	 * A step resumed after its last bio was queued (cursor at the
	 * unclamped end) submits nothing whatever the size: the file, inode
	 * and layout are not read then (issue 34). The loops below run only
	 * with the size read (and in set).
	 */
	if (op->state != ST_DIRECT_SUBMIT || op->cursor < end)
		end = dio_end(op, &in);
	if (op->state == ST_START) {
		op->cursor = op->off;
		op->state = ST_DIRECT_META;
	}
	if (op->state == ST_DIRECT_META) {
		/* the block mapping first (dio's get_block), indirect blocks and all */
		while (op->cursor < end) {
			uint64_t blk = op->cursor / IOS_FS_BLOCK_SIZE;

			ios_fs_map_block(vfs->fs, in->f, blk, &m);
			if (ensure_map_meta(vfs, op, in, &m, now))
				return IOS_VFS_WAIT;
			if (blk == first_blk) {
				first_m = m;
				have_first = true;
			}
			op->cursor = (blk + (m.contig ? m.contig : 1)) * IOS_FS_BLOCK_SIZE;
		}
		if (wr && !disc) {
			uint64_t first = op->off / IOS_FS_BLOCK_SIZE;
			uint64_t last = (end + IOS_FS_BLOCK_SIZE - 1) / IOS_FS_BLOCK_SIZE;

			if (ios_vfs_alloc_blocks(vfs, op, in, first, last - first, false, now))
				return IOS_VFS_WAIT;
		}
		op->cursor = op->off;
		op->state = ST_DIRECT_SUBMIT;
	}
	/*
	 * blk-mq (Linux 6.12): iomap's __iomap_dio_rw submits an I/O's bios
	 * under a plug (P, U when done; nested in an io_submit's plug it does
	 * nothing). A bio that must sleep for a tag flushes it first (UT).
	 */
	if (op->state == ST_DIRECT_SUBMIT && !disc && vfs->q->mq && file->ioc) {
		ios_blk_start_plug(file->ioc, &plug);
		plugged = true;
	}
	while (op->state == ST_DIRECT_SUBMIT && op->cursor < end) {
		uint64_t blk = op->cursor / IOS_FS_BLOCK_SIZE, inblk = op->cursor % IOS_FS_BLOCK_SIZE;
		uint64_t bytes;
		struct vfs_bio *vb;

		if (!wr && ios_fs_reads_zero(in->f, blk)) {
			/* dio zero-fills a hole: no I/O */
			op->cursor = (blk + 1) * IOS_FS_BLOCK_SIZE;
			continue;
		}
		/*
		 * A mapping depends on the layout alone, which nothing in this
		 * step changed (allocation only clears hole bits): the first
		 * block's, made above, is reused (most I/Os are one mapping).
		 */
		if (have_first && blk == first_blk)
			m = first_m;
		else
			ios_fs_map_block(vfs->fs, in->f, blk, &m);
		bytes = (m.contig ? m.contig : 1) * IOS_FS_BLOCK_SIZE - inblk;
		if (bytes > end - op->cursor)
			bytes = end - op->cursor;
		if (bytes > max_bytes)
			bytes = max_bytes;
		if (!wr && (ios_fs_holes_in(in->f, blk, (inblk + bytes + IOS_FS_BLOCK_SIZE - 1) /
						   IOS_FS_BLOCK_SIZE) ||
			    ios_fs_unwritten_in(in->f, blk, (inblk + bytes + IOS_FS_BLOCK_SIZE - 1) /
						IOS_FS_BLOCK_SIZE))) {
			/* the read stops before the next hole */
			uint64_t k = 1;

			while (k * IOS_FS_BLOCK_SIZE - inblk < bytes &&
			       !ios_fs_reads_zero(in->f, blk + k))
				k++;
			if (k * IOS_FS_BLOCK_SIZE - inblk < bytes)
				bytes = k * IOS_FS_BLOCK_SIZE - inblk;
		}
		vb = ios_vb_get(vfs);
		if (!vb) {
			op->error = -ENOMEM;
			break;
		}
		vb->kind = VB_DIRECT;
		vb->op = op;
		vb->bio.sector = m.block * IOS_FS_BLOCK_SECTORS + inblk / IOS_SECTOR_SIZE;
		vb->bio.nr_sectors = (uint32_t)((bytes + IOS_SECTOR_SIZE - 1) / IOS_SECTOR_SIZE);
		vb->bio.dir = wr ? IOS_WRITE : IOS_READ;
		/*
		 * O_DIRECT writes are sync requests (Linux 2.6.20+); O_SYNC adds
		 * FUA. They also say more I/O follows (4.10+'s REQ_IDLE, the
		 * 2.6.3x WRITE_ODIRECT without BIO_RW_NOIDLE): CFQ 4.19 keeps
		 * idling for such a writer, and stops only for fsync-style
		 * sync writes, which carry IOS_REQ_NOIDLE and not IOS_REQ_IDLE
		 * (do_sync).
		 */
		vb->bio.flags = wr ? IOS_REQ_SYNC | IOS_REQ_IDLE |
					     ((file->flags & IOS_O_SYNC) ? IOS_REQ_FUA : 0)
				   : 0;
		if (disc)
			vb->bio.flags = IOS_REQ_DISCARD | IOS_REQ_SYNC; /* submit_bio_wait() */
		vb->bio.ioc = file->ioc;
		/* the iocb's priority reaches its bios on the direct path (4.18+) */
		vb->bio.ioprio = disc ? 0 : op->ioprio;
		op->pending++;
		op->cursor += bytes;
		if (wr && !disc)
			vfs->st.pages_written += (bytes + IOS_PAGE_SIZE - 1) / IOS_PAGE_SIZE;
		else if (!wr)
			vfs->st.pages_read += (bytes + IOS_PAGE_SIZE - 1) / IOS_PAGE_SIZE;
		if (vb_submit(vfs, op, vb, now, true)) {
			if (plugged)
				ios_blk_finish_plug(file->ioc, &plug, now);
			return IOS_VFS_WAIT;
		}
	}
	/*
	 * Only a plug this step started (a nested one is the outer's, and
	 * finishing it here would do nothing): reading the context's plug
	 * otherwise was a cache miss per step with 10,000 tasks (issue 34)
	 */
	if (plugged)
		ios_blk_finish_plug(file->ioc, &plug, now);
	op->state = ST_DIRECT_WAIT;
	if (op->pending) {
		op->waiting = true;
		return IOS_VFS_WAIT;
	}
	if (!in)
		end = dio_end(op, &in);
	op->done = end > op->off ? end - op->off : 0;
	return IOS_VFS_DONE;
}

/* ---- open ---- */

static enum ios_vfs_status do_open(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now)
{
	const struct ios_fs_file *f = op->file->inode->f;

	if (op->state == ST_START) {
		if (ios_vfs_ensure_meta(vfs, op, f->dir_block, true, now))
			return IOS_VFS_WAIT;
		op->state = ST_META;
	}
	if (ios_vfs_ensure_meta(vfs, op, f->inode_block, true, now))
		return IOS_VFS_WAIT;
	return IOS_VFS_DONE;
}

enum ios_vfs_status ios_vfs_step(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now)
{
	enum ios_vfs_status st = IOS_VFS_DONE;

	IOS_BUG_ON(op->waiting);
	op->cpu_ns = 0;
	if (op->state == ST_DONE)
		return IOS_VFS_DONE;
	/* the pages it brings in are charged to its cgroup (cgroup writeback only) */
	vfs->cur_op = op;
	switch (op->type) {
	case IOS_VFS_OPEN:
		st = do_open(vfs, op, now);
		break;
	case IOS_VFS_READ:
		st = do_read(vfs, op, now);
		break;
	case IOS_VFS_WRITE:
		st = do_write(vfs, op, now);
		break;
	case IOS_VFS_FSYNC:
	case IOS_VFS_FDATASYNC:
		st = do_sync(vfs, op, now, 0, op->file->inode->npages);
		break;
	case IOS_VFS_DIRECT_READ:
	case IOS_VFS_DIRECT_WRITE:
	case IOS_VFS_DISCARD:
		st = do_direct(vfs, op, now);
		break;
	default:
		st = ios_vfs_do_fileop(vfs, op, now);
		break;
	}
	vfs->cur_op = NULL;
	if (st == IOS_VFS_DONE)
		op->state = ST_DONE;
	return st;
}

/* ---- set-up ---- */

struct ios_inode *ios_vfs_inode(struct ios_vfs *vfs, struct ios_fs_file *f)
{
	struct ios_inode *in;

	/* the file keeps its inode: a job with 100k files must not look it up linearly */
	if (f->inode)
		return f->inode;
	in = ios_pc_inode_new(vfs, f, false);
	if (!in)
		return NULL;
	in->next = vfs->inodes;
	vfs->inodes = in;
	f->inode = in;
	return in;
}

/* One metadata block in the cache, up to date, as a write would have left it. */
static int warm_meta_block(struct ios_vfs *vfs, uint64_t block)
{
	struct pc_page *p;

	if (block == IOS_FS_NO_BLOCK || block >= dev_pages(vfs) || ios_pc_lookup(vfs->meta, block))
		return 0;
	p = ios_pc_alloc(vfs, vfs->meta, block);
	if (!p)
		return -ENOMEM;
	p->flags |= PG_UPTODATE;
	ios_pc_lru_update(vfs, p);
	return 0;
}

int ios_vfs_warm_meta(struct ios_vfs *vfs, struct ios_inode *in)
{
	const struct ios_fs_file *f = in->f;
	uint64_t nblocks = (f->size + IOS_FS_BLOCK_SIZE - 1) / IOS_FS_BLOCK_SIZE;
	int ret;

	if (f->is_dev)
		return 0;
	if ((ret = warm_meta_block(vfs, f->dir_block)) || (ret = warm_meta_block(vfs, f->inode_block)))
		return ret;
	for (uint64_t i = 0; i < nblocks;) {
		struct ios_fs_map m;

		ios_fs_map_block(vfs->fs, f, i, &m);
		for (unsigned k = 0; k < m.nr_meta; k++)
			if ((ret = warm_meta_block(vfs, m.meta[k])))
				return ret;
		i += m.contig ? m.contig : 1;
	}
	return 0;
}

void ios_vfs_file_init(struct ios_vfs *vfs, struct ios_file *file, struct ios_inode *inode,
		       struct ios_ioc *ioc, unsigned flags)
{
	memset(file, 0, sizeof(*file));
	file->inode = inode;
	file->ioc = ioc;
	file->flags = flags;
	file->ra.ra_pages = vfs->ra_pages;
	file->ra.prev_pos = UINT64_MAX;
}

/*
 * Drop the file's idle cached pages (fio's invalidate=1 at open). Only the
 * chunks that were ever used are visited: a /dev/ file shared by thousands of
 * jobs has a chunk table sized by the whole device, and each job's open would
 * otherwise walk all of it.
 */
void ios_vfs_invalidate(struct ios_vfs *vfs, struct ios_inode *in)
{
	if (!in->nrpages)
		return;
	for (size_t k = 0; k < in->nr_used; k++) {
		uint64_t c = in->used[k];

		for (unsigned i = 0; i < pc_chunk(in); i++) {
			struct pc_page *p = in->chunks[c][i];

			if (p && p->on_lru)
				ios_pc_remove(vfs, p);
		}
	}
}

struct ios_vfs *ios_vfs_create(const struct ios_vfs_config *cfg, struct ios_err *e)
{
	struct ios_vfs *vfs = calloc(1, sizeof(*vfs));

	if (!vfs) {
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	vfs->sim = cfg->sim;
	vfs->q = cfg->q;
	vfs->fs = cfg->fs;
	vfs->vm = *cfg->vm;
	vfs->ra_pages = cfg->read_ahead_bytes / IOS_PAGE_SIZE;
	vfs->cache_flush = cfg->cache_flush;
	vfs->page_copy_ns = cfg->page_copy_ns;
	vfs->wb_done = cfg->wb_done;
	vfs->wb_arg = cfg->wb_arg;
	vfs->max_bio_pages = cfg->q->tun.max_sectors_bytes / IOS_PAGE_SIZE;
	if (!vfs->max_bio_pages)
		vfs->max_bio_pages = 1;
	vfs->capacity = vfs->vm.memory / IOS_PAGE_SIZE;
	ios_list_init(&vfs->lru);
	ios_list_init(&vfs->dirty_inodes);
	vfs->meta_file.path = "(metadata)";
	vfs->meta_file.size = cfg->q->capacity_sectors * IOS_SECTOR_SIZE;
	vfs->meta_file.is_dev = true;
	vfs->meta_file.inode_block = IOS_FS_NO_BLOCK;
	vfs->meta_file.dir_block = IOS_FS_NO_BLOCK;
	vfs->meta = ios_pc_inode_new(vfs, &vfs->meta_file, true);
	vfs->meta_gen = 1;	/* a zeroed memo entry (generation 0) never matches */
	if (!vfs->meta) {
		free(vfs);
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	vfs->fl.ioc.pid = cfg->flusher_pid;
	ios_wb_init(vfs);
	if (ios_jbd2_create(vfs, cfg)) {
		ios_vfs_destroy(vfs);
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	return vfs;
}

void ios_vfs_destroy(struct ios_vfs *vfs)
{
	struct ios_inode *in, *n;

	if (!vfs)
		return;
	ios_bdp_destroy(vfs);
	ios_cgwb_destroy(vfs);
	ios_wb_destroy(vfs);
	ios_jbd2_destroy(vfs);
	for (in = vfs->inodes; in; in = n) {
		n = in->next;
		if (in->f && in->f->inode == in)
			in->f->inode = NULL;
		ios_pc_inode_free(in);
	}
	ios_pc_inode_free(vfs->meta);
	while (vfs->free_bios) {
		struct vfs_bio *vb = vfs->free_bios;

		vfs->free_bios = vb->next_free;
		free(vb);
	}
	while (vfs->free_pages) {
		struct pc_page *p = vfs->free_pages;

		vfs->free_pages = (struct pc_page *)p->waiters;
		free(p);
	}
	free(vfs);
}

void ios_vfs_get_stats(const struct ios_vfs *vfs, struct ios_vfs_stats *out)
{
	*out = vfs->st;
	out->cached_pages = vfs->nr_pages;
	out->dirty_pages = vfs->nr_dirty;
	out->writeback_pages = vfs->nr_writeback;
	out->over_freerun = ios_bdp_over_freerun(vfs, &out->over_freerun_ns);
}

struct ios_ioc *ios_vfs_flusher_ioc(struct ios_vfs *vfs)
{
	return &vfs->fl.ioc;
}
