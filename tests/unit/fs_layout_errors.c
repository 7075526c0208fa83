/*
 * Description: layout errors say what went wrong in the user's terms and
 * change nothing. A file that does not fit is -ENOSPC naming the path, its
 * size, the bytes still free and the capacity, in every layout, and the
 * next file that fits still goes where it would have gone. A regular file
 * of 0 bytes is -EINVAL (a /dev/ path of 0 bytes is fine). A device too
 * small for one ext3 block group (mke2fs's rule: metadata plus 50 data
 * blocks, 55 blocks here) or for the extent inode area is -EINVAL with the
 * minimum. Huge sizes (up to UINT64_MAX) fail cleanly: ext3 with -EFBIG
 * past its 2 TiB file limit. Bad paths and alignments are refused.
 */
#include <string.h>
#include "harness.h"
#include "iosched/fs.h"

#define GiB (1ull << 30)

static int create(enum ios_fs_type t, uint64_t cap, uint64_t align, struct ios_fs **fs,
		  struct ios_err *e)
{
	memset(e, 0, sizeof(*e));
	return ios_fs_create(t, cap, align, fs, e);
}

static int add(struct ios_fs *fs, const char *path, uint64_t size, struct ios_err *e)
{
	struct ios_fs_file *f = (struct ios_fs_file *)1;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = ios_fs_add_file(fs, path, size, &f, e);
	if (ret && f != NULL)
		return -9999;	/* *out must be cleared on failure */
	if (!ret && !f)
		return -9998;
	return ret;
}

static int has(const struct ios_err *e, const char *s)
{
	if (strstr(e->msg, s))
		return 1;
	fprintf(stderr, "message \"%s\" lacks \"%s\"\n", e->msg, s);
	return 0;
}

static int check_full(enum ios_fs_type t)
{
	struct ios_fs *fs;
	struct ios_err e;
	uint64_t used;
	struct ios_fs_file *f;
	struct ios_fs_map m;
	uint64_t first_before;

	T_ASSERT_EQ(create(t, GiB, 1 << 20, &fs, &e), 0);
	T_ASSERT_EQ(add(fs, "data/one", 600000000, &e), 0);
	used = ios_fs_used_bytes(fs);
	/* (ext3 would also need a new directory: it must not be made either) */
	T_ASSERT_EQ(add(fs, "new/two", 600000000, &e), -ENOSPC);
	T_ASSERT_EQ(e.code, -ENOSPC);
	T_ASSERT(has(&e, "'new/two'"));
	T_ASSERT(has(&e, "600000000 bytes"));
	T_ASSERT(has(&e, "1073741824 bytes"));		/* the capacity */
	T_ASSERT(has(&e, "still free"));
	T_ASSERT(has(&e, ios_fs_type_name(t)));
	/* nothing changed: used space, and where the next file goes */
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), used);
	T_ASSERT_EQ(add(fs, "data/three", 100000000, &e), 0);
	ios_fs_destroy(fs);

	/* the same layout without the failed attempt puts "three" in the same place */
	T_ASSERT_EQ(create(t, GiB, 1 << 20, &fs, &e), 0);
	T_ASSERT_EQ(add(fs, "data/one", 600000000, &e), 0);
	T_ASSERT_EQ(ios_fs_add_file(fs, "data/three", 100000000, &f, &e), 0);
	ios_fs_map_block(fs, f, 0, &m);
	first_before = m.block;
	ios_fs_destroy(fs);

	T_ASSERT_EQ(create(t, GiB, 1 << 20, &fs, &e), 0);
	T_ASSERT_EQ(add(fs, "data/one", 600000000, &e), 0);
	T_ASSERT_EQ(add(fs, "new/two", 600000000, &e), -ENOSPC);
	T_ASSERT_EQ(ios_fs_add_file(fs, "data/three", 100000000, &f, &e), 0);
	ios_fs_map_block(fs, f, 0, &m);
	T_ASSERT_U64_EQ(m.block, first_before);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_device_full(void)
{
	T_ASSERT(check_full(IOS_FS_EXT3) == T_PASS);
	T_ASSERT(check_full(IOS_FS_EXTENT) == T_PASS);
	T_ASSERT(check_full(IOS_FS_RAW) == T_PASS);
	return T_PASS;
}

static int test_zero_size(void)
{
	for (int t = IOS_FS_EXT3; t <= IOS_FS_RAW; t++) {
		struct ios_fs *fs;
		struct ios_err e;

		T_ASSERT_EQ(create((enum ios_fs_type)t, GiB, 0, &fs, &e), 0);
		T_ASSERT_EQ(add(fs, "empty", 0, &e), -EINVAL);
		T_ASSERT(has(&e, "'empty'"));
		T_ASSERT(has(&e, "0 bytes"));
		T_ASSERT_EQ(add(fs, "/dev/sda", 0, &e), 0);
		T_ASSERT_EQ(add(fs, "", 4096, &e), -EINVAL);
		ios_fs_destroy(fs);
	}
	return T_PASS;
}

static int test_too_small(void)
{
	struct ios_fs *fs;
	struct ios_err e;

	/* 16 blocks: no room for one group */
	T_ASSERT_EQ(create(IOS_FS_EXT3, 65536, 0, &fs, &e), -EINVAL);
	T_ASSERT(fs == NULL);
	T_ASSERT(has(&e, "65536 bytes"));
	T_ASSERT(has(&e, "too small for ext3"));
	T_ASSERT(has(&e, "225280 bytes"));
	/*
	 * 55 blocks: 13 inodes -> one 16-inode table block; superblock,
	 * descriptor, 2 bitmaps, the table and 50 data blocks. 54 is too few.
	 */
	T_ASSERT_EQ(create(IOS_FS_EXT3, 55 * 4096, 0, &fs, &e), 0);
	/* 44 data blocks are left after /, lost+found and the resize DIND */
	T_ASSERT_EQ(add(fs, "f", 40 * 4096, &e), 0);	/* 40 + its IND */
	T_ASSERT_EQ(add(fs, "g", 3 * 4096 + 1, &e), -ENOSPC);
	T_ASSERT_EQ(add(fs, "g", 3 * 4096, &e), 0);
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), 55 * 4096);
	ios_fs_destroy(fs);
	T_ASSERT_EQ(create(IOS_FS_EXT3, 55 * 4096 - 1, 0, &fs, &e), -EINVAL);
	T_ASSERT_EQ(create(IOS_FS_EXT3, 54 * 4096, 0, &fs, &e), -EINVAL);

	/* extent needs room past its 1 MiB inode area */
	T_ASSERT_EQ(create(IOS_FS_EXTENT, 1 << 20, 0, &fs, &e), -EINVAL);
	T_ASSERT(has(&e, "inode area"));
	T_ASSERT_EQ(create(IOS_FS_EXTENT, (1 << 20) + 4096, 0, &fs, &e), 0);
	ios_fs_destroy(fs);
	/* nothing fits in less than a block */
	T_ASSERT_EQ(create(IOS_FS_RAW, 4095, 0, &fs, &e), -EINVAL);
	/* ext3 block numbers are 32 bits */
	T_ASSERT_EQ(create(IOS_FS_EXT3, 17ull << 40, 0, &fs, &e), -EINVAL);
	T_ASSERT(has(&e, "too large for ext3"));
	return T_PASS;
}

static int test_huge_sizes(void)
{
	static const uint64_t sizes[] = { UINT64_MAX, UINT64_MAX - 4095, 1ull << 63, 3ull << 40 };

	for (int t = IOS_FS_EXT3; t <= IOS_FS_RAW; t++) {
		struct ios_fs *fs;
		struct ios_err e;

		T_ASSERT_EQ(create((enum ios_fs_type)t, 2ull << 40, 1 << 20, &fs, &e), 0);
		for (size_t i = 0; i < IOS_ARRAY_SIZE(sizes); i++) {
			int ret = add(fs, "big", sizes[i], &e);

			T_ASSERT(ret == -ENOSPC || (t == IOS_FS_EXT3 && ret == -EFBIG));
			T_ASSERT(has(&e, "'big'"));
		}
		if (t == IOS_FS_EXT3) {
			/* 2 TiB device, 3 TiB file: over ext3's per-file limit first */
			T_ASSERT_EQ(add(fs, "big", 3ull << 40, &e), -EFBIG);
			T_ASSERT(has(&e, "2194719883264 bytes"));
		}
		ios_fs_destroy(fs);
	}
	return T_PASS;
}

static int test_bad_input(void)
{
	struct ios_fs *fs;
	struct ios_err e;

	T_ASSERT_EQ(create(IOS_FS_RAW, GiB, 512, &fs, &e), -EINVAL);
	T_ASSERT(has(&e, "lab.file_align"));
	T_ASSERT(has(&e, "512"));
	T_ASSERT_EQ(create((enum ios_fs_type)9, GiB, 0, &fs, &e), -EINVAL);

	T_ASSERT_EQ(create(IOS_FS_EXT3, GiB, 0, &fs, &e), 0);
	T_ASSERT_EQ(add(fs, "a/b", 4096, &e), 0);
	T_ASSERT_EQ(add(fs, "a//b", 4096, &e), -EEXIST);	/* same file */
	T_ASSERT_EQ(add(fs, "x/../a/b", 4096, &e), -EEXIST);
	T_ASSERT_EQ(add(fs, "a", 4096, &e), -EISDIR);
	T_ASSERT_EQ(add(fs, "a/b/c", 4096, &e), -ENOTDIR);
	T_ASSERT(has(&e, "'a/b' is a file"));
	T_ASSERT_EQ(add(fs, "a/", 4096, &e), -EINVAL);
	T_ASSERT_EQ(add(fs, "/", 4096, &e), -EINVAL);
	T_ASSERT_EQ(add(fs, "a/..", 4096, &e), -EINVAL);
	ios_fs_destroy(fs);

	T_ASSERT_EQ(create(IOS_FS_RAW, GiB, 0, &fs, &e), 0);
	T_ASSERT_EQ(add(fs, "f", 4096, &e), 0);
	T_ASSERT_EQ(add(fs, "f", 4096, &e), -EEXIST);
	T_ASSERT_EQ(add(fs, "/dev/sda", 0, &e), 0);
	T_ASSERT_EQ(add(fs, "/dev/sda", 0, &e), -EEXIST);
	ios_fs_destroy(fs);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_device_full, test_zero_size, test_too_small, test_huge_sizes,
		     test_bad_input);
}
