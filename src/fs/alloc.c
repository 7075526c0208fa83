/*
 * Allocation after the layout: holes, unlink, and the metadata blocks a
 * change of allocation touches (see fs.h).
 *
 * A file's holes are a bitmap over its blocks, made on the first hole, so
 * the files nobody punches cost nothing. Freeing and allocating move the
 * layout's free counts (ext3: free blocks and inodes; extent and raw: the
 * used bytes), which is what ios_fs_used_bytes() and ios_fs_free_inodes()
 * report.
 */
#include <stdlib.h>
#include <string.h>
#include "layout_int.h"

static bool hole_bit(const struct lay_file *lf, uint64_t b)
{
	return lf->holes && (lf->holes[b / 64] >> (b % 64) & 1);
}

static bool unwritten_bit(const struct lay_file *lf, uint64_t b)
{
	return lf->unwritten && (lf->unwritten[b / 64] >> (b % 64) & 1);
}

static void unwritten_clear(struct lay_file *lf, uint64_t b)
{
	if (unwritten_bit(lf, b)) {
		lf->unwritten[b / 64] &= ~(1ull << (b % 64));
		lf->nr_unwritten--;
	}
}

/* Set bits of @map in [@from, @to), a word at a time. */
static uint64_t bits_in(const uint64_t *map, uint64_t from, uint64_t to)
{
	uint64_t k = 0;

	if (!map)
		return 0;
	while (from < to) {
		uint64_t w = from / 64, lo = from % 64;
		uint64_t n = to - from < 64 - lo ? to - from : 64 - lo;
		uint64_t mask = (n == 64 ? ~0ull : ((1ull << n) - 1)) << lo;

		k += (uint64_t)__builtin_popcountll(map[w] & mask);
		from += n;
	}
	return k;
}

static void used_adjust(struct ios_fs *fs, int64_t blocks)
{
	if (lay_is_ext(fs)) {
		ios_lay_ext3_adjust(fs, -blocks, 0);
		return;
	}
	if (blocks < 0 && (uint64_t)-blocks * IOS_FS_BLOCK_SIZE > fs->used_bytes)
		fs->used_bytes = 0;
	else
		fs->used_bytes = (uint64_t)((int64_t)fs->used_bytes + blocks * IOS_FS_BLOCK_SIZE);
}

int ios_fs_punch(struct ios_fs *fs, struct ios_fs_file *f, uint64_t fblock, uint64_t n,
		 uint64_t *freed)
{
	struct lay_file *lf = f->priv;
	uint64_t end;

	*freed = 0;
	if (f->is_dev || fblock >= lf->nblocks)
		return 0;
	end = n > lf->nblocks - fblock ? lf->nblocks : fblock + n;
	if (!lf->holes) {
		lf->holes = calloc((lf->nblocks + 63) / 64, sizeof(*lf->holes));
		if (!lf->holes)
			return -ENOMEM;
	}
	if (bits_in(lf->holes, fblock, end) == end - fblock)
		return 0;	/* nothing allocated there */
	for (uint64_t b = fblock; b < end;) {
		uint64_t w = b / 64, lo = b % 64;
		uint64_t cnt = end - b < 64 - lo ? end - b : 64 - lo;
		uint64_t mask = (cnt == 64 ? ~0ull : ((1ull << cnt) - 1)) << lo;
		uint64_t fresh = ~lf->holes[w] & mask;

		if (lf->unwritten && (lf->unwritten[w] & fresh)) {
			lf->nr_unwritten -= (uint64_t)__builtin_popcountll(lf->unwritten[w] & fresh);
			lf->unwritten[w] &= ~fresh;
		}
		lf->holes[w] |= mask;
		*freed += (uint64_t)__builtin_popcountll(fresh);
		b += cnt;
	}
	lf->nr_holes += *freed;
	if (!lf->unlinked)
		used_adjust(fs, -(int64_t)*freed);
	return 0;
}

static uint64_t alloc_range(struct ios_fs *fs, struct lay_file *lf, uint64_t fblock, uint64_t n,
			    bool unwritten, int *err)
{
	uint64_t end, got = 0;

	*err = 0;
	if (!lf->nr_holes || fblock >= lf->nblocks)
		return 0;
	if (unwritten && !lf->unwritten) {
		lf->unwritten = calloc((lf->nblocks + 63) / 64, sizeof(*lf->unwritten));
		if (!lf->unwritten) {
			*err = -ENOMEM;
			return 0;
		}
	}
	end = n > lf->nblocks - fblock ? lf->nblocks : fblock + n;
	if (!bits_in(lf->holes, fblock, end))
		return 0;
	for (uint64_t b = fblock; b < end && lf->nr_holes; b++) {
		if (!hole_bit(lf, b))
			continue;
		lf->holes[b / 64] &= ~(1ull << (b % 64));
		lf->nr_holes--;
		if (unwritten) {
			lf->unwritten[b / 64] |= 1ull << (b % 64);
			lf->nr_unwritten++;
		}
		got++;
	}
	used_adjust(fs, (int64_t)got);
	return got;
}

uint64_t ios_fs_allocate(struct ios_fs *fs, struct ios_fs_file *f, uint64_t fblock, uint64_t n)
{
	int err;

	return alloc_range(fs, f->priv, fblock, n, false, &err);
}

int ios_fs_preallocate(struct ios_fs *fs, struct ios_fs_file *f, uint64_t fblock, uint64_t n,
		       uint64_t *got)
{
	int err;

	*got = alloc_range(fs, f->priv, fblock, n, true, &err);
	return err;
}

int ios_fs_mark_unwritten(struct ios_fs_file *f)
{
	struct lay_file *lf = f->priv;

	if (f->is_dev)
		return 0;
	if (!lf->unwritten) {
		lf->unwritten = calloc((lf->nblocks + 63) / 64, sizeof(*lf->unwritten));
		if (!lf->unwritten)
			return -ENOMEM;
	}
	lf->nr_unwritten = 0;
	for (uint64_t b = 0; b < lf->nblocks; b++) {
		if (hole_bit(lf, b))
			continue;
		lf->unwritten[b / 64] |= 1ull << (b % 64);
		lf->nr_unwritten++;
	}
	return 0;
}

uint64_t ios_fs_unwritten_in(const struct ios_fs_file *f, uint64_t fblock, uint64_t n)
{
	const struct lay_file *lf = f->priv;
	uint64_t end;

	if (!lf || !lf->nr_unwritten || fblock >= lf->nblocks)
		return 0;
	end = n > lf->nblocks - fblock ? lf->nblocks : fblock + n;
	return bits_in(lf->unwritten, fblock, end);
}

uint64_t ios_fs_mark_written(struct ios_fs_file *f, uint64_t fblock, uint64_t n)
{
	struct lay_file *lf = f->priv;
	uint64_t end, k = 0;

	if (!lf->nr_unwritten || fblock >= lf->nblocks)
		return 0;
	end = n > lf->nblocks - fblock ? lf->nblocks : fblock + n;
	if (!bits_in(lf->unwritten, fblock, end))
		return 0;
	for (uint64_t b = fblock; b < end; b++) {
		k += unwritten_bit(lf, b);
		unwritten_clear(lf, b);
	}
	return k;
}

bool ios_fs_reads_zero(const struct ios_fs_file *f, uint64_t fblock)
{
	const struct lay_file *lf = f->priv;

	return lf && fblock < lf->nblocks &&
	       ((lf->nr_holes && hole_bit(lf, fblock)) ||
		(lf->nr_unwritten && unwritten_bit(lf, fblock)));
}

bool ios_fs_is_hole(const struct ios_fs_file *f, uint64_t fblock)
{
	const struct lay_file *lf = f->priv;

	return lf && lf->nr_holes && fblock < lf->nblocks && hole_bit(lf, fblock);
}

uint64_t ios_fs_holes_in(const struct ios_fs_file *f, uint64_t fblock, uint64_t n)
{
	const struct lay_file *lf = f->priv;
	uint64_t end;

	if (!lf || !lf->nr_holes || fblock >= lf->nblocks)
		return 0;
	end = n > lf->nblocks - fblock ? lf->nblocks : fblock + n;
	return lf->nr_holes == lf->nblocks ? end - fblock : bits_in(lf->holes, fblock, end);
}

uint64_t ios_fs_allocated_blocks(const struct ios_fs_file *f)
{
	const struct lay_file *lf = f->priv;

	return lf->unlinked ? 0 : lf->nblocks - lf->nr_holes;
}

void ios_fs_unlink(struct ios_fs *fs, struct ios_fs_file *f)
{
	struct lay_file *lf = f->priv;

	if (f->is_dev || lf->unlinked)
		return;
	used_adjust(fs, -(int64_t)(lf->nblocks - lf->nr_holes));
	if (lay_is_ext(fs))
		ios_lay_ext3_adjust(fs, 0, 1);
	lf->unlinked = true;
}

int ios_fs_recreate(struct ios_fs *fs, struct ios_fs_file *f)
{
	struct lay_file *lf = f->priv;
	uint64_t freed;
	int ret;

	if (!lf->unlinked)
		return 0;
	/* the new file is empty: every block a hole, taking no space yet */
	ret = ios_fs_punch(fs, f, 0, lf->nblocks, &freed);
	if (ret)
		return ret;
	lf->unlinked = false;
	if (lay_is_ext(fs))
		ios_lay_ext3_adjust(fs, 0, -1);
	return 0;
}

bool ios_fs_exists(const struct ios_fs_file *f)
{
	return !((const struct lay_file *)f->priv)->unlinked;
}

void ios_fs_file_meta(const struct ios_fs *fs, const struct ios_fs_file *f, uint64_t fblock,
		      struct ios_fs_meta_blocks *out)
{
	const struct lay_file *lf = f->priv;

	out->dir = out->inode = out->inode_bitmap = out->inode_desc = IOS_FS_NO_BLOCK;
	out->block_bitmap = out->block_desc = IOS_FS_NO_BLOCK;
	if (f->is_dev || fs->type == IOS_FS_RAW)
		return;
	out->dir = f->dir_block;
	out->inode = f->inode_block;
	if (fs->type == IOS_FS_EXTENT) {
		out->block_bitmap = 0;
		return;
	}
	{
		struct ios_fs_map m;

		ios_fs_map_block(fs, f, fblock < lf->nblocks ? fblock : 0, &m);
		ios_lay_ext3_group_meta(fs, m.block, &out->block_bitmap, &out->block_desc);
		ios_lay_ext3_inode_meta(fs, lf->ino, &out->inode_bitmap, &out->inode_desc);
	}
}
