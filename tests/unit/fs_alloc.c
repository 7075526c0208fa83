/*
 * Description: allocation after the layout (src/fs/alloc.c). Punching a
 * range frees exactly its allocated blocks (ios_fs_used_bytes drops by
 * them, a second punch frees nothing), allocating gives them back in
 * place, fallocate's preallocation is unwritten until a write, unlink
 * frees every block and the inode (ext3's free inodes go up by one) and
 * recreate takes the inode back with no blocks. The metadata blocks a
 * change touches are the ext3 group's bitmaps and descriptor block (the
 * bitmaps just below the inode table) and the extent layout's inode and
 * superblock.
 */
#include "harness.h"
#include "iosched/fs.h"

#define CAP (64ull << 30)
#define BLK IOS_FS_BLOCK_SIZE

static struct ios_fs *mk(enum ios_fs_type t)
{
	struct ios_fs *fs = NULL;
	struct ios_err e = { 0 };

	return ios_fs_create(t, CAP, 1u << 20, &fs, &e) ? NULL : fs;
}

static struct ios_fs_file *add(struct ios_fs *fs, const char *path, uint64_t size)
{
	struct ios_fs_file *f = NULL;
	struct ios_err e = { 0 };

	return ios_fs_add_file(fs, path, size, &f, &e) ? NULL : f;
}

static int check_type(enum ios_fs_type type)
{
	struct ios_fs *fs = mk(type);
	struct ios_fs_file *f;
	uint64_t used, freed, got, inodes;

	T_ASSERT(fs);
	f = add(fs, "d/a", 1u << 20);	/* 256 blocks */
	T_ASSERT(f);
	used = ios_fs_used_bytes(fs);
	inodes = ios_fs_free_inodes(fs);
	T_ASSERT_U64_EQ(ios_fs_allocated_blocks(f), 256);

	T_ASSERT_EQ(ios_fs_punch(fs, f, 16, 16, &freed), 0);
	T_ASSERT_U64_EQ(freed, 16);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used - 16 * BLK);
	T_ASSERT(ios_fs_is_hole(f, 16) && ios_fs_is_hole(f, 31) && !ios_fs_is_hole(f, 32));
	T_ASSERT(ios_fs_reads_zero(f, 20) && !ios_fs_reads_zero(f, 15));
	T_ASSERT_U64_EQ(ios_fs_holes_in(f, 0, 256), 16);
	/* overlapping punch: only the blocks still allocated count */
	T_ASSERT_EQ(ios_fs_punch(fs, f, 24, 16, &freed), 0);
	T_ASSERT_U64_EQ(freed, 8);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used - 24 * BLK);

	/* a write's allocation: written at once */
	T_ASSERT_U64_EQ(ios_fs_allocate(fs, f, 16, 8), 8);
	T_ASSERT(!ios_fs_reads_zero(f, 16));
	/* fallocate: allocated, unwritten, zeros until a write converts them */
	T_ASSERT_EQ(ios_fs_preallocate(fs, f, 0, 256, &got), 0);
	T_ASSERT_U64_EQ(got, 16);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used);
	T_ASSERT(!ios_fs_is_hole(f, 30) && ios_fs_reads_zero(f, 30));
	T_ASSERT_U64_EQ(ios_fs_unwritten_in(f, 0, 256), 16);
	T_ASSERT_U64_EQ(ios_fs_mark_written(f, 28, 100), 12);
	T_ASSERT_U64_EQ(ios_fs_unwritten_in(f, 0, 256), 4);
	T_ASSERT(!ios_fs_reads_zero(f, 30));

	/* unlink frees the blocks and the inode; recreate: the inode, no blocks */
	ios_fs_unlink(fs, f);
	T_ASSERT(!ios_fs_exists(f));
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used - 256 * BLK);
	T_ASSERT_U64_EQ(ios_fs_allocated_blocks(f), 0);
	if (type == IOS_FS_EXT3)
		T_ASSERT_U64_EQ(ios_fs_free_inodes(fs), inodes + 1);
	ios_fs_unlink(fs, f);	/* twice is once */
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used - 256 * BLK);
	T_ASSERT_EQ(ios_fs_recreate(fs, f), 0);
	T_ASSERT(ios_fs_exists(f));
	T_ASSERT_U64_EQ(ios_fs_free_inodes(fs), inodes);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used - 256 * BLK);
	T_ASSERT_U64_EQ(ios_fs_holes_in(f, 0, 256), 256);
	T_ASSERT_U64_EQ(ios_fs_allocate(fs, f, 0, UINT64_MAX), 256);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_ext3(void)
{
	return check_type(IOS_FS_EXT3);
}

static int test_extent(void)
{
	return check_type(IOS_FS_EXTENT);
}

static int test_raw(void)
{
	return check_type(IOS_FS_RAW);
}

static int test_meta_blocks(void)
{
	struct ios_fs *fs = mk(IOS_FS_EXT3);
	struct ios_fs_file *f;
	struct ios_fs_meta_blocks mb;
	struct ios_fs_map m;

	T_ASSERT(fs);
	f = add(fs, "a", 1u << 20);
	T_ASSERT(f);
	ios_fs_file_meta(fs, f, 0, &mb);
	ios_fs_map_block(fs, f, 0, &m);
	T_ASSERT_U64_EQ(mb.dir, f->dir_block);
	T_ASSERT_U64_EQ(mb.inode, f->inode_block);
	/* the data's group: block bitmap first in its metadata, then the inode bitmap */
	T_ASSERT_U64_EQ(mb.block_bitmap / 32768, m.block / 32768);
	T_ASSERT(mb.block_bitmap < m.block);
	/* the inode's group: its inode bitmap sits just below its inode table */
	T_ASSERT(mb.inode_bitmap < mb.inode);
	T_ASSERT(mb.inode - mb.inode_bitmap <= 512);
	T_ASSERT_U64_EQ(mb.inode_desc, 1 + (mb.inode_bitmap / 32768) / 128);
	T_ASSERT_U64_EQ(mb.block_desc, 1 + (m.block / 32768) / 128);
	ios_fs_destroy(fs);

	fs = mk(IOS_FS_EXTENT);
	T_ASSERT(fs);
	f = add(fs, "a", 1u << 20);
	T_ASSERT(f);
	ios_fs_file_meta(fs, f, 0, &mb);
	T_ASSERT_U64_EQ(mb.inode, 1);
	T_ASSERT_U64_EQ(mb.block_bitmap, 0);
	T_ASSERT_U64_EQ(mb.dir, IOS_FS_NO_BLOCK);
	T_ASSERT_U64_EQ(mb.inode_bitmap, IOS_FS_NO_BLOCK);
	ios_fs_destroy(fs);

	fs = mk(IOS_FS_RAW);
	T_ASSERT(fs);
	f = add(fs, "a", 1u << 20);
	T_ASSERT(f);
	ios_fs_file_meta(fs, f, 0, &mb);
	T_ASSERT_U64_EQ(mb.inode, IOS_FS_NO_BLOCK);
	T_ASSERT_U64_EQ(mb.block_bitmap, IOS_FS_NO_BLOCK);
	ios_fs_destroy(fs);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_ext3, test_extent, test_raw, test_meta_blocks);
}
