/*
 * Description: the raw and extent layouts and /dev/ paths. raw places
 * files exactly as the runner's allocator (src/run/layout.c) did: the
 * first at sector 0, each next one at the first lab.file_align boundary
 * after the previous file's last byte, with no metadata. extent keeps the
 * first MiB for the superblock and 256-byte inodes (sixteen per block) and
 * gives each file one aligned contiguous extent after it: an identity
 * mapping, one inode block, no directory block. A /dev/ path is the whole
 * device (identity from block 0, capacity as size) in every layout and
 * takes no space.
 */
#include <string.h>
#include "harness.h"
#include "iosched/fs.h"

#define CAP_1TB 1000204886016ull
#define MiB (1ull << 20)

static struct ios_fs *mk(enum ios_fs_type t, uint64_t cap, uint64_t align)
{
	struct ios_fs *fs = NULL;
	struct ios_err e = { 0 };

	if (ios_fs_create(t, cap, align, &fs, &e)) {
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

static struct ios_fs_map map(struct ios_fs *fs, struct ios_fs_file *f, uint64_t b)
{
	struct ios_fs_map m;

	memset(&m, 0x5a, sizeof(m));
	ios_fs_map_block(fs, f, b, &m);
	return m;
}

/* The runner's placement, written out again: round up to the alignment, then the file's bytes. */
static uint64_t runner_next(uint64_t *next, uint64_t align, uint64_t size)
{
	uint64_t start = (*next + align - 1) / align * align;

	*next = start + size;
	return start;
}

static int check_raw_like_runner(uint64_t align)
{
	static const uint64_t sizes[] = { 10000000, 4096, 1, 234179072, 3 * MiB, 12345 };
	struct ios_fs *fs = mk(IOS_FS_RAW, CAP_1TB, align);
	uint64_t next = 0, used = 0;

	T_ASSERT(fs);
	T_ASSERT_EQ(ios_fs_type(fs), IOS_FS_RAW);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(sizes); i++) {
		char name[32];
		struct ios_fs_file *f;
		struct ios_fs_map m;
		uint64_t start = runner_next(&next, align, sizes[i]);
		uint64_t nb = (sizes[i] + 4095) / 4096;

		snprintf(name, sizeof(name), "job.%zu.0", i);
		f = add(fs, name, sizes[i]);
		T_ASSERT(f);
		T_ASSERT_U64_EQ(f->first_sector, start / 512);
		T_ASSERT_U64_EQ(f->size, sizes[i]);
		T_ASSERT(!f->is_dev);
		T_ASSERT_U64_EQ(f->inode_block, IOS_FS_NO_BLOCK);
		T_ASSERT_U64_EQ(f->dir_block, IOS_FS_NO_BLOCK);
		m = map(fs, f, 0);
		T_ASSERT_U64_EQ(m.block, start / 4096);
		T_ASSERT_U64_EQ(m.contig, nb);
		T_ASSERT_EQ(m.nr_meta, 0);
		m = map(fs, f, nb - 1);
		T_ASSERT_U64_EQ(m.block, start / 4096 + nb - 1);
		T_ASSERT_U64_EQ(m.contig, 1);
		used += sizes[i];
		T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used);
	}
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_raw_matches_runner(void)
{
	struct ios_fs *fs = mk(IOS_FS_RAW, CAP_1TB, MiB);
	struct ios_fs_file *a, *b;

	/* the literal case: first at 0, next at the next 1 MiB boundary */
	T_ASSERT(fs);
	a = add(fs, "a", 10000000);
	b = add(fs, "b", 4096);
	T_ASSERT(a && b);
	T_ASSERT_U64_EQ(a->first_sector, 0);
	T_ASSERT_U64_EQ(b->first_sector, 10 * MiB / 512);
	ios_fs_destroy(fs);
	T_ASSERT(check_raw_like_runner(MiB) == T_PASS);
	T_ASSERT(check_raw_like_runner(4096) == T_PASS);
	T_ASSERT(check_raw_like_runner(64 * MiB) == T_PASS);
	/* align 0 is the runner's fallback: one 4 KiB block */
	fs = mk(IOS_FS_RAW, CAP_1TB, 0);
	T_ASSERT(fs);
	a = add(fs, "a", 5000);
	b = add(fs, "b", 5000);
	T_ASSERT(a && b);
	T_ASSERT_U64_EQ(b->first_sector, 8192 / 512);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_extent(void)
{
	struct ios_fs *fs = mk(IOS_FS_EXTENT, CAP_1TB, MiB);
	struct ios_fs_file *f[20];
	uint64_t next = MiB, used = MiB;

	T_ASSERT(fs);
	T_ASSERT_EQ(ios_fs_type(fs), IOS_FS_EXTENT);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), MiB);	/* the inode area */
	for (int i = 0; i < 20; i++) {
		char name[32];
		uint64_t size = 10000000 + (uint64_t)i * 77777;
		uint64_t nb = (size + 4095) / 4096;
		uint64_t start = (next + MiB - 1) / MiB * MiB;
		struct ios_fs_map m;

		snprintf(name, sizeof(name), "dir%d/f%d", i % 3, i);
		f[i] = add(fs, name, size);
		T_ASSERT(f[i]);
		T_ASSERT_U64_EQ(f[i]->first_sector, start / 512);
		T_ASSERT_U64_EQ(f[i]->inode_block, 1 + i / 16);
		T_ASSERT_U64_EQ(f[i]->dir_block, IOS_FS_NO_BLOCK);
		for (uint64_t b = 0; b < nb; b += 611) {
			m = map(fs, f[i], b);
			T_ASSERT_U64_EQ(m.block, start / 4096 + b);
			T_ASSERT_U64_EQ(m.contig, nb - b);
			T_ASSERT_EQ(m.nr_meta, 0);
		}
		next = start + nb * 4096;
		used += nb * 4096;
		T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used);
	}
	/* the inode blocks are inside the inode area, below every extent */
	T_ASSERT(f[19]->inode_block < f[0]->first_sector / 8);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int check_dev(enum ios_fs_type t)
{
	const uint64_t cap = CAP_1TB;
	struct ios_fs *fs = mk(t, cap, MiB);
	struct ios_fs_file *d, *f, *d2;
	struct ios_fs_map m;
	uint64_t used;

	T_ASSERT(fs);
	used = ios_fs_used_bytes(fs);
	d = add(fs, "/dev/sdb", 0);
	T_ASSERT(d);
	T_ASSERT(d->is_dev);
	T_ASSERT_U64_EQ(d->size, cap);
	T_ASSERT_U64_EQ(d->first_sector, 0);
	T_ASSERT_U64_EQ(d->inode_block, IOS_FS_NO_BLOCK);
	T_ASSERT_U64_EQ(d->dir_block, IOS_FS_NO_BLOCK);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used);
	m = map(fs, d, 0);
	T_ASSERT_U64_EQ(m.block, 0);
	T_ASSERT_U64_EQ(m.contig, cap / 4096);
	T_ASSERT_EQ(m.nr_meta, 0);
	m = map(fs, d, cap / 4096 - 1);
	T_ASSERT_U64_EQ(m.block, cap / 4096 - 1);
	T_ASSERT_U64_EQ(m.contig, 1);
	m = map(fs, d, 123456789);
	T_ASSERT_U64_EQ(m.block, 123456789);
	/* a size is ignored, and the device takes no room from the files */
	d2 = add(fs, "/dev/sdc", 4096);
	T_ASSERT(d2 && d2->size == cap);
	f = add(fs, "file", 8192);
	T_ASSERT(f);
	if (t == IOS_FS_RAW)
		T_ASSERT_U64_EQ(f->first_sector, 0);
	if (t == IOS_FS_EXTENT)
		T_ASSERT_U64_EQ(f->first_sector, MiB / 512);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_dev_paths(void)
{
	T_ASSERT(check_dev(IOS_FS_RAW) == T_PASS);
	T_ASSERT(check_dev(IOS_FS_EXTENT) == T_PASS);
	T_ASSERT(check_dev(IOS_FS_EXT3) == T_PASS);
	return T_PASS;
}

static int test_names(void)
{
	T_ASSERT(!strcmp(ios_fs_type_name(IOS_FS_EXT3), "ext3"));
	T_ASSERT(!strcmp(ios_fs_type_name(IOS_FS_EXTENT), "extent"));
	T_ASSERT(!strcmp(ios_fs_type_name(IOS_FS_RAW), "raw"));
	T_ASSERT(!strcmp(ios_fs_type_name((enum ios_fs_type)7), "unknown"));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_raw_matches_runner, test_extent, test_dev_paths, test_names);
}
