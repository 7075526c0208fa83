/*
 * File operations that change metadata rather than move data: stat,
 * create, unlink, fallocate, hole punching, truncate, and ext4's move of
 * extents (fio's filestat, filecreate, filedelete, falloc, ftruncate and
 * e4defrag engines), and the block allocation a write into a hole needs.
 *
 * Each touches metadata blocks through the block device's cache (the
 * metadata inode of vfs.c), as the kernel's buffer heads do: a block is
 * read when it is not cached (READ_META for directories, inodes, bitmaps
 * and descriptors; ext3 reads its bitmaps with sb_bread, a plain read, but
 * one modelled cost is enough: they all wait in the same way), then dirtied
 * and written back later by the flusher. Which blocks: ios_fs_file_meta().
 * On ext4 every block dirtied joins the running jbd2 transaction
 * (jbd2.c), which logs it before the flusher writes it home; ext3 has no
 * journal model. Not modelled: directory growth, the ext4 extent-tree
 * blocks of a file with many extents.
 *
 * An operation is a list of steps; op->seq is the next one and op->cursor
 * the position inside a step that walks the file. A step that waits is
 * redone when the op is stepped again, and every step can be redone (a
 * block already cached and dirty costs nothing).
 */
#include "vfs_int.h"

static bool block_ok(const struct ios_vfs *vfs, uint64_t b)
{
	return b != IOS_FS_NO_BLOCK && b < vfs->meta->npages;
}

/* Metadata block @b cached (read when cold), then dirtied when @dirty. */
static int meta_touch(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t b, bool dirty,
		      uint64_t now)
{
	struct pc_page *p;

	if (!block_ok(vfs, b))
		return 0;
	if (ios_vfs_ensure_meta(vfs, op, b, true, now))
		return IOS_VFS_WAIT;
	if (!dirty || op->error)
		return 0;
	p = ios_pc_lookup(vfs->meta, b);
	if (p && (p->flags & PG_UPTODATE)) {
		ios_pc_set_dirty(vfs, p, now);
		ios_jbd2_dirty_meta(vfs, b, now);
	}
	return 0;
}

int ios_vfs_hole_page(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
		      uint64_t idx, bool mark)
{
	struct pc_page *p = ios_pc_alloc(vfs, in, idx);

	if (!p)
		return ios_vfs_mem_wait(vfs, op);
	p->flags |= PG_UPTODATE | (mark ? PG_READAHEAD : 0);
	ios_pc_lru_update(vfs, p);
	return 0;
}

int ios_vfs_alloc_blocks(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
			 uint64_t first, uint64_t n, bool buffered, uint64_t now)
{
	struct ios_fs_meta_blocks mb;
	bool holes = ios_fs_holes_in(in->f, first, n) > 0;
	/*
	 * ext4 with dioread_nolock (6.12's default): a buffered write maps
	 * holes as unwritten extents (ext4_get_block_unwritten), converted
	 * when the data write completes (jbd2.c); an unwritten extent stays
	 * so until then
	 */
	bool unwritten = buffered && ios_jbd2_unwritten_io(vfs);

	if (!holes && (unwritten || !ios_fs_unwritten_in(in->f, first, n)))
		return 0;
	/*
	 * A hole: the bitmap that gives the block, its group's free count,
	 * the inode's block map. Unwritten blocks: only the extent's state,
	 * in the inode, changes.
	 */
	ios_fs_file_meta(vfs->fs, in->f, first, &mb);
	if ((holes && (meta_touch(vfs, op, mb.block_bitmap, true, now) ||
		       meta_touch(vfs, op, mb.block_desc, true, now))) ||
	    meta_touch(vfs, op, mb.inode, true, now))
		return IOS_VFS_WAIT;
	if (op->error)
		return 0;
	if (unwritten) {
		uint64_t got;

		if (ios_fs_preallocate(vfs->fs, in->f, first, n, &got))
			op->error = -ENOMEM;
	} else {
		(void)ios_fs_allocate(vfs->fs, in->f, first, n);
		(void)ios_fs_mark_written(in->f, first, n);
		/*
		 * ext4_map_blocks: blocks newly allocated written, under
		 * data=ordered, put the inode on the transaction's ordered
		 * list (direct I/O waits for its own data)
		 */
		if (buffered)
			ios_jbd2_add_ordered(vfs, in, now);
	}
	/* ext4_update_inode_fsync_trans(handle, inode, 1) after allocation */
	ios_jbd2_inode_changed(vfs, in, true, now);
	return 0;
}

/*
 * Drop the cached pages of [@first, @end) as truncate_inode_pages does:
 * dirty ones are discarded, not written. Pages under I/O are left to
 * finish (the kernel waits for them; here their blocks are free already
 * and a later write-back of a dirty page of a hole would allocate again).
 */
static void drop_pages(struct ios_vfs *vfs, struct ios_inode *in, uint64_t first, uint64_t end,
		       uint64_t now)
{
	if (end > in->npages)
		end = in->npages;
	for (uint64_t c = first >> in->chunk_shift; c < in->nr_chunks && (c << in->chunk_shift) < end;
	     c++) {
		if (!in->chunks[c])
			continue;
		for (unsigned i = 0; i < pc_chunk(in); i++) {
			uint64_t idx = (c << in->chunk_shift) + i;
			struct pc_page *p = in->chunks[c][i];

			if (!p || idx < first || idx >= end ||
			    (p->flags & (PG_LOCKED | PG_WRITEBACK)) || p->waiters)
				continue;
			ios_pc_clear_dirty(vfs, p);
			ios_pc_remove(vfs, p);
		}
	}
	ios_wb_balance_wake(vfs, now);
}

/*
 * Free the allocated blocks of [@first, @end) (truncate, punch, unlink):
 * walking the file, the indirect blocks that say where they are (read,
 * ext3's truncate reads them to find the blocks), and the block bitmap and
 * descriptor of each group they are in (read and dirtied). Then the pages
 * go and the blocks are holes. op->cursor walks the file.
 */
static int free_range(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
		      uint64_t first, uint64_t end, uint64_t now)
{
	const struct ios_fs_file *f = in->f;
	uint64_t nblocks = in->npages, freed;

	if (end > nblocks)
		end = nblocks;
	if (op->cursor < first)
		op->cursor = first;
	while (op->cursor < end) {
		struct ios_fs_map m;
		struct ios_fs_meta_blocks mb;
		uint64_t run;

		ios_fs_map_block(vfs->fs, f, op->cursor, &m);
		run = m.contig ? m.contig : 1;
		if (run > end - op->cursor)
			run = end - op->cursor;
		if (ios_fs_holes_in(f, op->cursor, run) < run) {
			for (unsigned k = 0; k < m.nr_meta; k++)
				if (meta_touch(vfs, op, m.meta[k], false, now))
					return IOS_VFS_WAIT;
			ios_fs_file_meta(vfs->fs, f, op->cursor, &mb);
			if (meta_touch(vfs, op, mb.block_bitmap, true, now) ||
			    meta_touch(vfs, op, mb.block_desc, true, now))
				return IOS_VFS_WAIT;
		}
		op->cursor += run;
	}
	drop_pages(vfs, in, first, end, now);
	if (ios_fs_punch(vfs->fs, in->f, first, end - first, &freed))
		op->error = -ENOMEM;
	return 0;
}

static bool ext3_refuses(const struct ios_vfs *vfs, const struct ios_inode *in)
{
	/*
	 * ext3 has no ->fallocate and no EXT4_IOC_MOVE_EXT; ext4 refuses both
	 * (all but hole punching, which fio's falloc engine also asks) on a file
	 * mapped by indirect blocks. The ext3 layout is that file.
	 */
	return ios_fs_type(vfs->fs) == IOS_FS_EXT3 && !in->f->is_dev;
}

/* EXT4_IOC_MOVE_EXT (see fileop_step): the steps after the ones of every operation */
static int move_ext_step(struct ios_vfs *vfs, struct ios_vfs_op *op, unsigned step,
			 const struct ios_fs_meta_blocks *mb, uint64_t first, uint64_t end, bool *done,
			 uint64_t now)
{
	struct ios_inode *in = op->file->inode;
	struct ios_fs_file *f = in->f;

	if (ext3_refuses(vfs, in)) {
		op->error = -EOPNOTSUPP;
		*done = true;
		return 0;
	}
	if (step == 0)
		return meta_touch(vfs, op, mb->inode, true, now);
	if (step == 1 && op->donor) {
		struct ios_fs_meta_blocks dm;

		ios_fs_file_meta(vfs->fs, op->donor->inode->f, 0, &dm);
		return meta_touch(vfs, op, dm.inode, true, now);
	}
	if (step == 2) {
		/*
		 * move_extent_per_page: each page of data is brought up to
		 * date and dirtied, so the data is read and written again
		 * (the layout keeps the file's blocks where they were: the
		 * write goes back to them, not to the donor's).
		 */
		if (op->cursor < first)
			op->cursor = first;
		while (op->cursor < end && op->cursor < in->npages) {
			struct pc_page *p;

			if (ios_fs_reads_zero(f, op->cursor)) {
				op->cursor++;
				continue;
			}
			p = ios_pc_lookup(in, op->cursor);
			if (!p)
				return ios_vfs_read_page(vfs, op, in, op->cursor, now)
				       ? IOS_VFS_WAIT : 0;
			if (!(p->flags & PG_UPTODATE)) {
				if (!(p->flags & PG_LOCKED)) {
					op->error = -EIO;
					return 0;
				}
				ios_pc_wait(&p->waiters, op);
				ios_pc_lru_update(vfs, p);
				return IOS_VFS_WAIT;
			}
			ios_pc_set_dirty(vfs, p, now);
			ios_pc_touch(vfs, p);
			op->cursor++;
			op->done += IOS_PAGE_SIZE;
		}
		return 0;
	}
	if (step == 3) {
		/*
		 * The moved data is written out before the call returns
		 * (sync writes of the range), rather than left to the
		 * flusher: a simplification that keeps a mover from
		 * dirtying memory faster than writeback drains it.
		 */
		uint64_t max = UINT64_MAX, to = end < in->npages ? end : in->npages;

		if (op->cursor < first)
			op->cursor = first;
		return ios_vfs_write_dirty(vfs, op, op->file->ioc, in, &op->cursor, to,
					   IOS_REQ_SYNC, &max, now);
	}
	if (step == 4) {
		for (uint64_t i = first; i < end && i < in->npages; i++) {
			struct pc_page *p = ios_pc_lookup(in, i);

			if (p && (p->flags & PG_WRITEBACK)) {
				ios_pc_wait(&p->waiters, op);
				ios_pc_lru_update(vfs, p);
				return IOS_VFS_WAIT;
			}
		}
		*done = true;
	}
	return 0;
}

/* One step of the list each operation is; IOS_VFS_WAIT, or 0 for the next one. */
static int fileop_step(struct ios_vfs *vfs, struct ios_vfs_op *op, unsigned step, bool *done,
		       uint64_t now)
{
	struct ios_inode *in = op->file->inode;
	struct ios_fs_file *f = in->f;
	struct ios_fs_meta_blocks mb;
	uint64_t first = op->off / IOS_FS_BLOCK_SIZE;
	uint64_t end = (op->off + op->len + IOS_FS_BLOCK_SIZE - 1) / IOS_FS_BLOCK_SIZE;

	ios_fs_file_meta(vfs->fs, f, first < in->npages ? first : 0, &mb);
	*done = false;
	switch (op->type) {
	case IOS_VFS_STAT:
		/* path lookup: the directory's block, then the inode */
		if (step == 0)
			return meta_touch(vfs, op, mb.dir, false, now);
		if (!ios_fs_exists(f)) {
			op->error = -ENOENT;
			break;
		}
		return step == 1 ? meta_touch(vfs, op, mb.inode, false, now) : (*done = true, 0);
	case IOS_VFS_CREATE:
		if (step == 0)
			return meta_touch(vfs, op, mb.dir, false, now);
		if (ios_fs_exists(f))	/* O_CREAT of an existing file: an open */
			return step == 1 ? meta_touch(vfs, op, mb.inode, false, now)
					 : (*done = true, 0);
		switch (step) {
		case 1: return meta_touch(vfs, op, mb.inode_bitmap, true, now);
		case 2: return meta_touch(vfs, op, mb.inode_desc, true, now);
		case 3: return meta_touch(vfs, op, mb.inode, true, now);
		case 4: return meta_touch(vfs, op, mb.dir, true, now);
		default:
			if (ios_fs_recreate(vfs->fs, f))
				op->error = -ENOMEM;
			break;
		}
		break;
	case IOS_VFS_UNLINK:
		if (step == 0)
			return meta_touch(vfs, op, mb.dir, false, now);
		if (!ios_fs_exists(f)) {
			op->error = -ENOENT;
			break;
		}
		switch (step) {
		case 1: return meta_touch(vfs, op, mb.inode, true, now);
		case 2: return free_range(vfs, op, in, 0, in->npages, now);
		case 3: return meta_touch(vfs, op, mb.inode_bitmap, true, now);
		case 4: return meta_touch(vfs, op, mb.inode_desc, true, now);
		case 5: return meta_touch(vfs, op, mb.dir, true, now);
		default:
			ios_fs_unlink(vfs->fs, f);
			break;
		}
		break;
	case IOS_VFS_FALLOCATE:
		if (ext3_refuses(vfs, in)) {
			op->error = -EOPNOTSUPP;
			break;
		}
		if (step == 0 && ios_fs_holes_in(f, first, end - first)) {
			uint64_t got;

			if (meta_touch(vfs, op, mb.block_bitmap, true, now) ||
			    meta_touch(vfs, op, mb.block_desc, true, now) ||
			    meta_touch(vfs, op, mb.inode, true, now))
				return IOS_VFS_WAIT;
			if (!op->error && ios_fs_preallocate(vfs->fs, f, first, end - first, &got))
				op->error = -ENOMEM;
		}
		break;
	case IOS_VFS_PUNCH:
	case IOS_VFS_TRUNCATE:
		if (op->type == IOS_VFS_PUNCH && ext3_refuses(vfs, in)) {
			op->error = -EOPNOTSUPP;
			break;
		}
		if (op->type == IOS_VFS_TRUNCATE)
			end = in->npages;	/* everything from the new size on */
		if (step == 0)
			return meta_touch(vfs, op, mb.inode, true, now);
		/* a punch frees only whole blocks; truncate the blocks past the size */
		if (step == 1) {
			uint64_t from = (op->off + IOS_FS_BLOCK_SIZE - 1) / IOS_FS_BLOCK_SIZE;
			uint64_t to = op->type == IOS_VFS_PUNCH ? (op->off + op->len) / IOS_FS_BLOCK_SIZE
								: end;

			return from < to ? free_range(vfs, op, in, from, to, now) : 0;
		}
		break;
	case IOS_VFS_MOVE_EXT:
		return move_ext_step(vfs, op, step, &mb, first, end, done, now);
	default:
		op->error = -EINVAL;
		break;
	}
	*done = true;
	return 0;
}

enum ios_vfs_status ios_vfs_do_fileop(struct ios_vfs *vfs, struct ios_vfs_op *op, uint64_t now)
{
	for (;;) {
		bool done;

		if (fileop_step(vfs, op, (unsigned)op->seq, &done, now))
			return IOS_VFS_WAIT;
		if (done || op->error)
			break;
		op->seq++;
		op->cursor = 0;
	}
	if (!op->error && op->type != IOS_VFS_MOVE_EXT)
		op->done = op->len;
	/* ext4: a change of size or allocation moves both fsync tids */
	if (!op->error && op->type != IOS_VFS_STAT)
		ios_jbd2_inode_changed(vfs, op->file->inode, true, now);
	return IOS_VFS_DONE;
}

void ios_vfs_unlink_now(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	struct ios_fs_file *f = in->f;
	struct ios_fs_meta_blocks mb;
	const uint64_t *blocks = &mb.dir;

	if (f->is_dev || !ios_fs_exists(f))
		return;
	ios_fs_file_meta(vfs->fs, f, 0, &mb);
	for (unsigned k = 0; k < sizeof(mb) / sizeof(mb.dir); k++) {
		struct pc_page *p = block_ok(vfs, blocks[k]) ? ios_pc_lookup(vfs->meta, blocks[k])
							     : NULL;

		if (p && (p->flags & PG_UPTODATE)) {
			ios_pc_set_dirty(vfs, p, now);
			ios_jbd2_dirty_meta(vfs, blocks[k], now);
		}
	}
	drop_pages(vfs, in, 0, in->npages, now);
	ios_fs_unlink(vfs->fs, f);
}
