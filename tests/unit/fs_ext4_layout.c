/*
 * Description: the ext4 layout (src/fs/layout_ext4.c) puts metadata where
 * mke2fs 1.46+ with its "ext4" type and Linux 6.12 ext4 put it. The numbers
 * are worked out by hand from the rules, not from the code. On the 1 TB
 * default disk (244190646 blocks, 7453 groups): 64-byte descriptors make 117
 * descriptor blocks (ext3: 59) and resize_inode's reserve is capped at 1024,
 * so group 0 holds superblock, descriptors and reserve in 0-1141; flex_bg
 * packs the block bitmaps of groups 0-15 at 1142-1157, their inode bitmaps
 * at 1158-1173 and their inode tables (512 blocks each) at 1174-9365; the
 * root directory is at 9366. Groups 1-15 are data from their first block
 * but for a superblock backup (groups 1, 3, 5, 7, 9). The last flex group
 * (7440-7452, 13 groups) spaces its bitmaps by 13; a filesystem of one group
 * keeps the spacing of 16. A regular file's data starts at the second group
 * of its inode's flex group (group 1 for files under /); extents end where a
 * backup interrupts the free space and stay under 32768 blocks without
 * merging across; four fit in the inode, a fifth moves them to a leaf block
 * taken right after its data, and every mapping then reads that leaf. The
 * journal: 262144 blocks (1 GiB, past 128 GiB) from the first block of
 * group 3713 (the middle group 3726 rounded down to its flex group 3712,
 * then the one of 3712 and 3713 with more free blocks); an 8 GiB disk gets
 * 16384 blocks from group 33, an 8 MiB one 1024 blocks, a 4 MiB one none.
 */
#include <string.h>
#include "harness.h"
#include "iosched/fs.h"

#define CAP_1TB		1000204886016ull	/* hdd-2009 default capacity */
#define BPG		32768ull
#define GIB		(1ull << 30)
/* group 0 (and each backup group): superblock, 117 descriptor blocks, 1024 reserved */
#define SB_AREA		(1 + 117 + 1024)

static struct ios_fs *mkfs(uint64_t cap)
{
	struct ios_fs *fs = NULL;
	struct ios_err e = { 0 };

	if (ios_fs_create(IOS_FS_EXT4, cap, 1 << 20, &fs, &e)) {
		fprintf(stderr, "ios_fs_create: %s\n", e.msg);
		return NULL;
	}
	return fs;
}

static struct ios_fs_file *add(struct ios_fs *fs, const char *path, uint64_t size)
{
	struct ios_fs_file *f = NULL;
	struct ios_err e = { 0 };

	if (ios_fs_add_file(fs, path, size, &f, &e)) {
		fprintf(stderr, "ios_fs_add_file(%s): %s\n", path, e.msg);
		return NULL;
	}
	return f;
}

static struct ios_fs_map map(struct ios_fs *fs, const struct ios_fs_file *f, uint64_t b)
{
	struct ios_fs_map m;

	memset(&m, 0xa5, sizeof(m));
	ios_fs_map_block(fs, f, b, &m);
	return m;
}

/* On @groups full groups, a file filling flex group 0: its first mapping in group 16. */
static int first_in_group16(uint64_t groups, struct ios_fs_map *out)
{
	struct ios_fs *fs = mkfs(groups * BPG * 4096);
	struct ios_fs_file *f;
	uint64_t b = 0;

	T_ASSERT(fs);
	f = add(fs, "a", 16 * BPG * 4096);
	T_ASSERT(f);
	for (;;) {
		*out = map(fs, f, b);
		if (out->block >= 16 * BPG)
			break;
		b += out->contig;
	}
	ios_fs_destroy(fs);
	return 0;
}

/* The bitmaps and inode tables of sixteen groups packed at the start of the first. */
static int test_flex_tables(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	struct ios_fs_meta_blocks mb;
	struct ios_fs_file *f;
	struct ios_fs_map m;

	T_ASSERT(fs);
	/* the first file under /: inode 12 in group 0's table, data from group 1 */
	f = add(fs, "a", 4096);
	T_ASSERT(f);
	T_ASSERT_EQ(f->dir_block, 9366);		/* root: the first block after the tables */
	T_ASSERT_EQ(f->inode_block, 1174 + 11 / 16);
	ios_fs_file_meta(fs, f, 0, &mb);
	T_ASSERT_EQ(mb.inode_bitmap, 1158);		/* group 0's, after the 16 block bitmaps */
	T_ASSERT_EQ(mb.block_bitmap, 1142 + 1);		/* group 1's block bitmap, in group 0 */
	T_ASSERT_EQ(mb.block_desc, 1);
	T_ASSERT_EQ(f->first_sector / 8, BPG + SB_AREA);	/* group 1, after its backup */
	/* a file in group 2 (no backup): its data starts at the group's first block */
	f = add(fs, "b", (BPG - SB_AREA - 1) * 4096);	/* fills the rest of group 1 */
	T_ASSERT(f);
	f = add(fs, "c", 4096);
	T_ASSERT(f);
	T_ASSERT_EQ(f->first_sector / 8, 2 * BPG);
	ios_fs_file_meta(fs, f, 0, &mb);
	T_ASSERT_EQ(mb.block_bitmap, 1142 + 2);
	ios_fs_destroy(fs);

	/*
	 * The last flex group: 19 groups leave 16-18, whose bitmaps are spaced
	 * by 3, so group 16's data starts after 3 + 3 bitmaps and 3 tables; with
	 * 17 groups the last flex group has one, spaced by 16, leaving two holes
	 * of 15 blocks that a file fills first.
	 */
	T_ASSERT_EQ(first_in_group16(19, &m), 0);
	T_ASSERT_EQ(m.block, 16 * BPG + 2 * 3 + 3 * 512);
	T_ASSERT_EQ(first_in_group16(17, &m), 0);
	T_ASSERT_EQ(m.block, 16 * BPG + 1);
	T_ASSERT_EQ(m.contig, 15);

	/* one group (128 MiB): block bitmap, then the inode bitmap 16 on, the table 16 after */
	fs = mkfs(128ull << 20);
	T_ASSERT(fs);
	f = add(fs, "x", 4096);
	T_ASSERT(f);
	ios_fs_file_meta(fs, f, 0, &mb);
	/* superblock, 1 descriptor block, 15 reserved: the flex metadata from 17 */
	T_ASSERT_EQ(mb.block_bitmap, 17);
	T_ASSERT_EQ(mb.inode_bitmap, 17 + 16);
	T_ASSERT_EQ(f->inode_block, 17 + 32 + 11 / 16);
	/* the hole between the block and inode bitmaps holds / (the first free block) */
	T_ASSERT_EQ(f->dir_block, 18);
	ios_fs_destroy(fs);
	return T_PASS;
}

/* Extents: cut at backups and group ends, capped at 32768, four in the inode. */
static int test_extents(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	/* groups 1-4: 31626 + 32768 + 31626 + 32768 blocks, four extents */
	uint64_t four = 2 * (BPG - SB_AREA) + 2 * BPG;
	struct ios_fs_file *f;
	struct ios_fs_map m;

	T_ASSERT(fs);
	f = add(fs, "four", four * 4096);
	T_ASSERT(f);
	T_ASSERT_EQ(ios_fs_extent_count(f), 4);
	T_ASSERT_EQ(ios_fs_extent_depth(f), 0);
	m = map(fs, f, 0);
	T_ASSERT_EQ(m.block, BPG + SB_AREA);
	/* group 1's data and group 2 touch but do not merge: 31626 + 32768 > 32768 */
	T_ASSERT_EQ(m.contig, BPG - SB_AREA);
	T_ASSERT_EQ(m.nr_meta, 0);
	m = map(fs, f, BPG - SB_AREA);
	T_ASSERT_EQ(m.block, 2 * BPG);
	T_ASSERT_EQ(m.contig, BPG);
	T_ASSERT_EQ(m.nr_meta, 0);
	/* group 3's backup breaks the run */
	m = map(fs, f, 2 * BPG - SB_AREA);
	T_ASSERT_EQ(m.block, 3 * BPG + SB_AREA);
	m = map(fs, f, four - 1);
	T_ASSERT_EQ(m.block, 5 * BPG - 1);
	T_ASSERT_EQ(m.contig, 1);
	T_ASSERT_EQ(m.nr_meta, 0);
	ios_fs_destroy(fs);
	return T_PASS;
}

/* A fifth extent: a leaf block after its data, read before every mapping. */
static int test_tree_block(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	uint64_t four = 2 * (BPG - SB_AREA) + 2 * BPG;
	struct ios_fs_file *f, *g;
	struct ios_fs_map m;
	uint64_t leaf = 5 * BPG + SB_AREA + 1;	/* after the fifth extent's one block */

	T_ASSERT(fs);
	f = add(fs, "five", (four + 1) * 4096);
	T_ASSERT(f);
	T_ASSERT_EQ(ios_fs_extent_count(f), 5);
	T_ASSERT_EQ(ios_fs_extent_depth(f), 1);
	for (uint64_t b = 0; b <= four; b += m.contig) {
		m = map(fs, f, b);
		T_ASSERT_EQ(m.nr_meta, 1);
		T_ASSERT_EQ(m.meta[0], leaf);
		T_ASSERT_EQ(m.meta_ord[0], 0);
	}
	m = map(fs, f, four);
	T_ASSERT_EQ(m.block, 5 * BPG + SB_AREA);
	T_ASSERT_EQ(m.contig, 1);
	/* the next file starts after the leaf */
	g = add(fs, "next", 4096);
	T_ASSERT(g);
	T_ASSERT_EQ(g->first_sector / 8, leaf + 1);
	ios_fs_destroy(fs);

	/* 1 GiB from group 1: nine extents, one leaf taken after the fifth (group 5's data) */
	fs = mkfs(CAP_1TB);
	T_ASSERT(fs);
	f = add(fs, "big", GIB);
	T_ASSERT(f);
	T_ASSERT_EQ(ios_fs_extent_count(f), 9);
	m = map(fs, f, 0);
	T_ASSERT_EQ(m.meta[0], 6 * BPG);	/* group 5 (backup) ends at 6 * BPG: the leaf */
	m = map(fs, f, four + BPG - SB_AREA);
	T_ASSERT_EQ(m.block, 6 * BPG + 1);	/* the sixth extent, after the leaf */
	T_ASSERT_EQ(m.contig, BPG - 1);
	ios_fs_destroy(fs);
	return T_PASS;
}

static uint64_t journal_mapped(struct ios_fs *fs, const struct ios_fs_file *j)
{
	uint64_t nb = j->size / 4096, b = 0;
	struct ios_fs_map m;

	while (b < nb) {
		m = map(fs, j, b);
		b += m.contig;
	}
	return b;
}

/* The journal: mke2fs's size table, from the middle group as get_midpoint_journal_block picks it. */
static int test_journal(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	const struct ios_fs_file *j;
	struct ios_fs_meta_blocks mb;
	struct ios_fs_map m;

	T_ASSERT(fs);
	j = ios_fs_journal(fs);
	T_ASSERT(j);
	T_ASSERT_EQ(j->size, GIB);
	T_ASSERT_EQ(j->group, 3713);
	m = map(fs, j, 0);
	T_ASSERT_EQ(m.block, 3713 * BPG);
	T_ASSERT_EQ(m.contig, BPG);
	T_ASSERT_EQ(journal_mapped(fs, j), 262144);
	/* inode 8, in group 0's table */
	T_ASSERT_EQ(j->inode_block, 1174);
	/* its group's block bitmap in flex group 3712's; 64-byte descriptors, 64 to a block */
	ios_fs_file_meta(fs, j, 0, &mb);
	T_ASSERT_EQ(mb.block_bitmap, 3712 * BPG + 1);
	T_ASSERT_EQ(mb.block_desc, 1 + 3713 / 64);
	ios_fs_destroy(fs);

	/* 8 GiB: 64 MiB, 64 groups, middle group 32, the flex group's next one has more free */
	fs = mkfs(8 * GIB);
	T_ASSERT(fs);
	j = ios_fs_journal(fs);
	T_ASSERT(j);
	T_ASSERT_EQ(j->size, 16384ull * 4096);
	T_ASSERT_EQ(j->group, 33);
	T_ASSERT_EQ(map(fs, j, 0).block, 33 * BPG);
	T_ASSERT_EQ(map(fs, j, 0).contig, 16384);
	ios_fs_destroy(fs);

	/* 8 MiB: 1024 blocks; 4 MiB (1024 blocks): too small for a journal */
	fs = mkfs(8ull << 20);
	T_ASSERT(fs);
	j = ios_fs_journal(fs);
	T_ASSERT(j);
	T_ASSERT_EQ(j->size, 1024ull * 4096);
	T_ASSERT_EQ(journal_mapped(fs, j), 1024);
	ios_fs_destroy(fs);
	fs = mkfs(4ull << 20);
	T_ASSERT(fs);
	T_ASSERT(!ios_fs_journal(fs));
	ios_fs_destroy(fs);

	/* the other layouts have none */
	{
		struct ios_fs *x = NULL;
		struct ios_err e = { 0 };

		T_ASSERT_EQ(ios_fs_create(IOS_FS_EXT3, GIB, 0, &x, &e), 0);
		T_ASSERT(!ios_fs_journal(x));
		ios_fs_destroy(x);
	}
	return T_PASS;
}

/* A directory's files start in the second group of its flex group; determinism. */
static int test_goal(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB), *fs2 = mkfs(CAP_1TB);
	struct ios_fs_file *f, *f2;
	uint64_t flex;

	T_ASSERT(fs && fs2);
	f = add(fs, "dir/f", 1 << 20);
	f2 = add(fs2, "dir/f", 1 << 20);
	T_ASSERT(f && f2);
	flex = f->dir_block / BPG;
	T_ASSERT_EQ(flex % 16, 0);			/* the directory's block: its flex group's first */
	T_ASSERT(flex > 0);				/* Orlov spread it away from / */
	T_ASSERT_EQ(f->first_sector / 8, (flex + 1) * BPG + (flex + 1 == 25 || flex + 1 == 49 ||
							 flex + 1 == 81 || flex + 1 == 625 ? SB_AREA : 0));
	/* the inode in the flex group's first group, read from its table there */
	T_ASSERT_EQ(f->inode_block / BPG, flex);
	T_ASSERT_EQ(f->first_sector, f2->first_sector);
	T_ASSERT_EQ(f->inode_block, f2->inode_block);
	/* ext4 ignores the creator's colour (delayed allocation) */
	ios_fs_set_creator(fs, 7);
	f = add(fs, "dir/g", 4096);
	T_ASSERT(f);
	T_ASSERT_EQ(f->first_sector / 8, f2->first_sector / 8 + 256);
	ios_fs_destroy(fs);
	ios_fs_destroy(fs2);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_flex_tables, test_extents, test_tree_block, test_journal, test_goal);
}
