/*
 * Description: the ext3 layout puts metadata where mke2fs 1.41 and Linux
 * 2.6.32 ext3 put it. On the 1 TB default disk (244190646 blocks, 7453
 * groups, 59 descriptor blocks, 965 reserved GDT blocks, 8192 256-byte
 * inodes per group) group 0 holds superblock, descriptors and reserved
 * descriptors in blocks 0-1024, bitmaps in 1025-1026, the inode table in
 * 1027-1538, the root directory at 1539, lost+found at 1540-1543 and the
 * resize inode's DIND at 1544, so the first file starts at 1545. The
 * expected numbers below are worked out by hand from those rules, not from
 * the code: an indirect block before every 1024 data blocks (DIND + IND at
 * 1036), mappings that never cross an indirect boundary or a group's
 * metadata, files of a directory packed in its group, top-level
 * directories in different groups, inodes inside their group's inode
 * table, triple-indirect past 4 GiB, determinism and space accounting.
 */
#include <string.h>
#include "harness.h"
#include "iosched/fs.h"

#define CAP_1TB		1000204886016ull	/* hdd-2009 default capacity */
#define BPG		32768ull
#define SEED_FILE	234179072ull		/* seed 000: "234179072 bytes (234 MB)" */

static struct ios_fs *mkfs(uint64_t cap)
{
	struct ios_fs *fs = NULL;
	struct ios_err e = { 0 };

	if (ios_fs_create(IOS_FS_EXT3, cap, 1 << 20, &fs, &e)) {
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

	memset(&m, 0xa5, sizeof(m));
	ios_fs_map_block(fs, f, b, &m);
	return m;
}

/* sparse_super backup groups, by hand, for groups < 7453 */
static int has_backup(uint64_t g)
{
	static const uint64_t backups[] = { 0, 1, 3, 5, 7, 9, 25, 27, 49, 81, 125, 243, 343, 625,
					    729, 2187, 2401, 3125, 6561 };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(backups); i++)
		if (backups[i] == g)
			return 1;
	return 0;
}

/* superblock + descriptors + reserved descriptors of a backup group: 1 + 59 + 965 on 1 TB */
static uint64_t sb_gdt = 1025;

/* first inode-table block and first data block of group g */
static uint64_t itable(uint64_t g)
{
	return g * BPG + (has_backup(g) ? sb_gdt : 0) + 2;
}

static uint64_t data_start(uint64_t g)
{
	return itable(g) + 512;
}

static int in_group_meta(uint64_t blk)
{
	return blk % BPG < data_start(blk / BPG) % BPG;
}

static int test_indirect_blocks(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	struct ios_fs_file *f;
	struct ios_fs_map m;

	T_ASSERT(fs);
	f = add(fs, "big", 20ull << 20);	/* 5120 blocks */
	T_ASSERT(f);
	T_ASSERT_U64_EQ(f->dir_block, 1539);	/* the root directory, group 0 */
	T_ASSERT_U64_EQ(f->inode_block, 1027);	/* inode 12: first inode-table block */
	T_ASSERT_EQ(f->group, 0);

	m = map(fs, f, 0);
	T_ASSERT_U64_EQ(m.block, 1545);
	T_ASSERT_U64_EQ(m.contig, 12);
	T_ASSERT_EQ(m.nr_meta, 0);
	m = map(fs, f, 5);
	T_ASSERT_U64_EQ(m.block, 1550);
	T_ASSERT_U64_EQ(m.contig, 7);
	m = map(fs, f, 11);
	T_ASSERT_U64_EQ(m.block, 1556);
	T_ASSERT_U64_EQ(m.contig, 1);
	T_ASSERT_EQ(m.nr_meta, 0);

	/* IND0 at 1557, then data 12-1035 */
	m = map(fs, f, 12);
	T_ASSERT_U64_EQ(m.block, 1558);
	T_ASSERT_U64_EQ(m.contig, 1024);
	T_ASSERT_EQ(m.nr_meta, 1);
	T_ASSERT_U64_EQ(m.meta[0], 1557);
	m = map(fs, f, 1035);
	T_ASSERT_U64_EQ(m.block, 2581);
	T_ASSERT_U64_EQ(m.contig, 1);
	T_ASSERT_EQ(m.nr_meta, 1);
	T_ASSERT_U64_EQ(m.meta[0], 1557);

	/* DIND at 2582, its first IND at 2583, data 1036-2059 */
	m = map(fs, f, 1036);
	T_ASSERT_U64_EQ(m.block, 2584);
	T_ASSERT_U64_EQ(m.contig, 1024);
	T_ASSERT_EQ(m.nr_meta, 2);
	T_ASSERT_U64_EQ(m.meta[0], 2582);
	T_ASSERT_U64_EQ(m.meta[1], 2583);
	m = map(fs, f, 2059);
	T_ASSERT_U64_EQ(m.block, 3607);
	T_ASSERT_U64_EQ(m.contig, 1);
	T_ASSERT_U64_EQ(m.meta[1], 2583);

	/* the next IND at 3608, data 2060-3083 */
	m = map(fs, f, 2060);
	T_ASSERT_U64_EQ(m.block, 3609);
	T_ASSERT_U64_EQ(m.contig, 1024);
	T_ASSERT_EQ(m.nr_meta, 2);
	T_ASSERT_U64_EQ(m.meta[0], 2582);
	T_ASSERT_U64_EQ(m.meta[1], 3608);

	/* last block: 5119 is in the IND of 4108-5131, cut at the file's end */
	m = map(fs, f, 5119);
	T_ASSERT_U64_EQ(m.contig, 1);
	m = map(fs, f, 4108);
	T_ASSERT_U64_EQ(m.contig, 5120 - 4108);
	/* 12 + IND + 1024 + DIND + 4 x (IND + 1024) */
	T_ASSERT_U64_EQ(m.block, 1545 + 12 + 1 + 1024 + 1 + 3 * 1025 + 1);
	T_ASSERT_U64_EQ(m.meta[1], m.block - 1);
	ios_fs_destroy(fs);
	return T_PASS;
}

/* Walk a whole file by contig steps: runs stay inside one indirect range and one device run. */
static int check_walk(struct ios_fs *fs, struct ios_fs_file *f, uint64_t nblocks, uint64_t *nruns)
{
	uint64_t b = 0, prev_end = 0, seen = 0;

	*nruns = 0;
	while (b < nblocks) {
		struct ios_fs_map m = map(fs, f, b), last;
		uint64_t end = b + m.contig;
		uint64_t range_end;

		T_ASSERT(m.contig >= 1 && end <= nblocks);
		if (b < 12)
			range_end = 12;
		else if (b < 1036)
			range_end = 1036;
		else
			range_end = b - (b - 1036) % 1024 + 1024;
		T_ASSERT_MSG(end <= range_end, "block %" PRIu64 ": contig %" PRIu64
			     " crosses the indirect boundary at %" PRIu64, b, m.contig, range_end);
		last = map(fs, f, end - 1);
		T_ASSERT_U64_EQ(last.block, m.block + m.contig - 1);
		T_ASSERT_EQ(last.nr_meta, m.nr_meta);
		for (unsigned k = 0; k < m.nr_meta; k++) {
			T_ASSERT_U64_EQ(last.meta[k], m.meta[k]);
			T_ASSERT(!in_group_meta(m.meta[k]));
		}
		T_ASSERT(!in_group_meta(m.block) && !in_group_meta(m.block + m.contig - 1));
		/* the group's metadata is never inside a run */
		T_ASSERT(m.block / BPG == (m.block + m.contig - 1) / BPG);
		/* forward on disk */
		T_ASSERT(m.block >= prev_end);
		prev_end = m.block + m.contig;
		seen += m.contig;
		b = end;
		(*nruns)++;
	}
	T_ASSERT_U64_EQ(seen, nblocks);
	return T_PASS;
}

static int test_group_metadata_skipped(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	struct ios_fs_file *f;
	struct ios_fs_map m;
	uint64_t nb = SEED_FILE / 4096 + 1, nruns;	/* 57173 blocks, the last partial */

	T_ASSERT(fs);
	f = add(fs, "zerofile1", SEED_FILE);
	T_ASSERT(f);
	/*
	 * Group 0 has blocks 1545-32767 for the stream: 31223 blocks, of which
	 * 1 + 1 + 29 indirect, so data blocks 0-31190. Group 1 is a backup
	 * group: its superblock, descriptors, bitmaps and inode table take
	 * 32768-34306, so data block 31191 is at 34307.
	 */
	m = map(fs, f, 31190);
	T_ASSERT_U64_EQ(m.block, 32767);
	T_ASSERT_U64_EQ(m.contig, 1);
	m = map(fs, f, 31191);
	T_ASSERT_U64_EQ(m.block, 34307);
	T_ASSERT_U64_EQ(m.meta[1], 32308);	/* IND of 30732-31755 stays in group 0 */
	T_ASSERT_U64_EQ(m.contig, 31756 - 31191);
	/* 57173 data + 57 indirect blocks: group 1 ends the stream at 34307 + 26007 - 1 */
	m = map(fs, f, nb - 1);
	T_ASSERT_U64_EQ(m.block, 34307 + (57173 + 57 - 31223) - 1);
	T_ASSERT(check_walk(fs, f, nb, &nruns) == T_PASS);
	/* 12 | 1024 | 29 full INDs + the split one in two | 25 more INDs */
	T_ASSERT_U64_EQ(nruns, 1 + 1 + 29 + 2 + 25);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_one_directory_packed(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	struct ios_fs_file *f[3];
	uint64_t g, base;
	static const char *names[] = { "data/f1", "data/f2", "data/f3" };

	T_ASSERT(fs);
	for (int i = 0; i < 3; i++) {
		f[i] = add(fs, names[i], 1 << 20);	/* 256 blocks + 1 IND */
		T_ASSERT(f[i]);
	}
	g = f[0]->dir_block / BPG;
	T_ASSERT(g != 0);
	/* the directory took the group's first data block */
	T_ASSERT_U64_EQ(f[0]->dir_block, data_start(g));
	base = f[0]->dir_block + 1;
	for (int i = 0; i < 3; i++) {
		struct ios_fs_map m = map(fs, f[i], 0);

		T_ASSERT_U64_EQ(f[i]->dir_block, f[0]->dir_block);
		T_ASSERT_EQ(f[i]->group, g);
		T_ASSERT_U64_EQ(m.block, base + i * 257ull);
		m = map(fs, f[i], 12);
		T_ASSERT_U64_EQ(m.meta[0], base + i * 257ull + 12);
		/* directory inode is the group's first, the files' follow: one itable block */
		T_ASSERT_U64_EQ(f[i]->inode_block, itable(g));
	}
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_directories_spread(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	struct ios_fs_file *a, *b, *nested, *c;
	uint64_t ga, gb;

	T_ASSERT(fs);
	a = add(fs, "a/x", 4096);
	b = add(fs, "b/y", 4096);
	nested = add(fs, "a/sub/z", 4096);
	c = add(fs, "/c/./w", 4096);
	T_ASSERT(a && b && nested && c);
	ga = a->dir_block / BPG;
	gb = b->dir_block / BPG;
	T_ASSERT(ga != gb);
	T_ASSERT(c->dir_block / BPG != ga && c->dir_block / BPG != gb);
	/* Orlov skips groups with fewer free blocks than average: no backup group, not group 0 */
	T_ASSERT(!has_backup(ga) && !has_backup(gb));
	T_ASSERT_U64_EQ(a->dir_block, data_start(ga));
	T_ASSERT_U64_EQ(b->dir_block, data_start(gb));
	/* a nested directory stays in its parent's group, after a's directory block and x */
	T_ASSERT_U64_EQ(nested->dir_block / BPG, ga);
	T_ASSERT_U64_EQ(nested->dir_block, data_start(ga) + 2);
	T_ASSERT_U64_EQ(map(fs, nested, 0).block, data_start(ga) + 3);
	/* the inode table holds inodes ga*8192+1 (a), +2 (x), +3 (sub), +4 (z) */
	T_ASSERT_U64_EQ(nested->inode_block, itable(ga));
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_top_directories_scatter(void)
{
	/* the kernel starts its search at a random group: top-level directories scatter */
	struct ios_fs *fs = mkfs(CAP_1TB);
	uint64_t lo = UINT64_MAX, hi = 0;

	T_ASSERT(fs);
	for (int i = 0; i < 8; i++) {
		char name[32];
		struct ios_fs_file *f;
		uint64_t g;

		snprintf(name, sizeof(name), "top%d/f", i);
		f = add(fs, name, 4096);
		T_ASSERT(f);
		g = f->dir_block / BPG;
		lo = g < lo ? g : lo;
		hi = g > hi ? g : hi;
	}
	T_ASSERT_MSG(hi - lo > 7453 / 4, "8 top-level directories within groups %" PRIu64
		     "-%" PRIu64, lo, hi);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_inode_in_inode_table(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	struct ios_fs_file *f = NULL;
	char name[32];

	T_ASSERT(fs);
	/* 40 files in the root: inodes 12-51, 16 per block: blocks 1027, 1028, 1029 */
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "f%02d", i);
		f = add(fs, name, 8192);
		T_ASSERT(f);
		T_ASSERT_U64_EQ(f->inode_block, 1027 + (12 + i - 1) / 16);
		T_ASSERT(f->inode_block >= itable(0) && f->inode_block < itable(0) + 512);
		T_ASSERT_U64_EQ(f->dir_block, 1539);
		T_ASSERT_U64_EQ(map(fs, f, 0).block, 1545 + 2ull * i);
	}
	/* a file in a full group goes elsewhere; its inode is still in its own group's table */
	f = add(fs, "huge", 200ull << 20);
	T_ASSERT(f);
	T_ASSERT(f->inode_block >= itable(0) && f->inode_block < itable(0) + 512);
	f = add(fs, "after_huge", 4096);
	T_ASSERT(f);
	T_ASSERT(f->group != 0);	/* group 0 has no free block left */
	T_ASSERT_U64_EQ(f->inode_block, itable(f->group));
	T_ASSERT_U64_EQ(f->dir_block, 1539);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_triple_indirect(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	struct ios_fs_file *f;
	struct ios_fs_map m, before;
	const uint64_t tind = 12 + 1024 + 1024 * 1024;	/* first block under the TIND */
	uint64_t nruns;

	T_ASSERT(fs);
	f = add(fs, "five_gib", 5ull << 30);
	T_ASSERT(f);
	before = map(fs, f, tind - 1);
	T_ASSERT_EQ(before.nr_meta, 2);
	T_ASSERT_U64_EQ(before.contig, 1);
	m = map(fs, f, tind);
	T_ASSERT_EQ(m.nr_meta, 3);
	/* TIND, DIND, IND then the data, in that order on disk (same group here) */
	if (m.meta[0] / BPG == m.block / BPG) {
		T_ASSERT_U64_EQ(m.meta[1], m.meta[0] + 1);
		T_ASSERT_U64_EQ(m.meta[2], m.meta[0] + 2);
		T_ASSERT_U64_EQ(m.block, m.meta[0] + 3);
	}
	T_ASSERT(m.meta[0] > before.block);
	T_ASSERT(m.meta[0] != before.meta[0]);	/* not the double-indirect block */
	T_ASSERT_U64_EQ(m.contig, 1024);
	m = map(fs, f, tind + 1024);
	T_ASSERT_EQ(m.nr_meta, 3);
	T_ASSERT_U64_EQ(m.meta[0], map(fs, f, tind).meta[0]);
	T_ASSERT_U64_EQ(m.meta[1], map(fs, f, tind).meta[1]);
	T_ASSERT(check_walk(fs, f, 5ull << 18, &nruns) == T_PASS);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_used_bytes(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	uint64_t u0, u1, u2;

	T_ASSERT(fs);
	/*
	 * mkfs: 7453 x (2 bitmaps + 512 itable) + 19 backup groups x
	 * (1 + 59 + 965) + /, lost+found (4) and the resize DIND
	 */
	u0 = ios_fs_used_bytes(fs);
	T_ASSERT_U64_EQ(u0, (7453ull * 514 + 19ull * 1025 + 6) * 4096);
	T_ASSERT(add(fs, "zerofile1", SEED_FILE));
	u1 = ios_fs_used_bytes(fs);
	T_ASSERT_U64_EQ(u1 - u0, (57173ull + 57) * 4096);
	/* a new directory costs one block */
	T_ASSERT(add(fs, "dir/small", 100));
	u2 = ios_fs_used_bytes(fs);
	T_ASSERT_U64_EQ(u2 - u1, 2 * 4096);
	ios_fs_destroy(fs);
	return T_PASS;
}

static int test_deterministic(void)
{
	static const char *paths[] = { "a/1", "b/2", "a/3", "c/d/4", "5", "b/6", "a/x/y/7" };
	static const uint64_t sizes[] = { 300ull << 20, 5000, 1ull << 30, 77777, 130ull << 20,
					  4096, 9ull << 20 };
	struct ios_fs *fs[2];
	struct ios_fs_file *f[2][7];

	for (int r = 0; r < 2; r++) {
		fs[r] = mkfs(CAP_1TB);
		T_ASSERT(fs[r]);
		for (int i = 0; i < 7; i++) {
			f[r][i] = add(fs[r], paths[i], sizes[i]);
			T_ASSERT(f[r][i]);
		}
	}
	for (int i = 0; i < 7; i++) {
		uint64_t nb = (sizes[i] + 4095) / 4096;

		T_ASSERT_U64_EQ(f[0][i]->inode_block, f[1][i]->inode_block);
		T_ASSERT_U64_EQ(f[0][i]->dir_block, f[1][i]->dir_block);
		T_ASSERT_EQ(f[0][i]->group, f[1][i]->group);
		for (uint64_t b = 0; b < nb; b += 97) {
			struct ios_fs_map m0 = map(fs[0], f[0][i], b), m1 = map(fs[1], f[1][i], b);

			T_ASSERT_U64_EQ(m0.block, m1.block);
			T_ASSERT_U64_EQ(m0.contig, m1.contig);
			T_ASSERT_EQ(m0.nr_meta, m1.nr_meta);
			for (unsigned k = 0; k < m0.nr_meta; k++)
				T_ASSERT_U64_EQ(m0.meta[k], m1.meta[k]);
		}
	}
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs[0]), ios_fs_used_bytes(fs[1]));
	ios_fs_destroy(fs[0]);
	ios_fs_destroy(fs[1]);
	return T_PASS;
}

/* No block is handed out twice: files, indirect and directory blocks all distinct. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t sort_unique(uint64_t *v, size_t n)
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	return k;
}

static int test_no_overlap(void)
{
	/*
	 * A 1 GiB device: 8 groups of 8192 inodes, 1 descriptor block and 63
	 * reserved ones (room for 1024 x 262144 blocks); backups in 0, 1, 3, 5
	 * and 7. The files fill most of it, so later ones wrap around.
	 */
	struct ios_fs *fs = mkfs(1ull << 30);
	static const char *paths[] = { "p/a", "q/b", "p/c", "d", "q/e" };
	static const uint64_t sizes[] = { 200ull << 20, 150ull << 20, 300ull << 20, 100ull << 20,
					  150ull << 20 };
	size_t cap = 1 << 19, nd = 0, nm = 0, n;
	uint64_t *data = malloc(cap * sizeof(*data)), *meta = malloc(cap * sizeof(*meta));
	uint64_t nblocks = 0, expect_meta = 0;

	sb_gdt = 1 + 1 + 63;
	T_ASSERT(fs && data && meta);
	for (int i = 0; i < 5; i++) {
		struct ios_fs_file *f = add(fs, paths[i], sizes[i]);
		uint64_t nb = sizes[i] / 4096;

		T_ASSERT(f);
		meta[nm++] = f->dir_block;
		nblocks += nb;
		expect_meta += 2 + (nb - 1036 + 1023) / 1024;	/* IND, DIND, INDs */
		for (uint64_t b = 0; b < nb;) {
			struct ios_fs_map m = map(fs, f, b);

			for (unsigned k = 0; k < m.nr_meta; k++)
				meta[nm++] = m.meta[k];
			for (uint64_t j = 0; j < m.contig; j++)
				data[nd++] = m.block + j;
			T_ASSERT(nd + 1024 < cap && nm + 8 < cap);
			b += m.contig;
		}
	}
	T_ASSERT_U64_EQ(nd, nblocks);
	nm = sort_unique(meta, nm);
	/* directories p, q and the root, plus the indirect blocks */
	T_ASSERT_U64_EQ(nm, expect_meta + 3);
	memcpy(data + nd, meta, nm * sizeof(*meta));
	n = nd + nm;
	T_ASSERT_U64_EQ(sort_unique(data, n), n);
	for (size_t i = 0; i < n; i++)
		T_ASSERT_MSG(!in_group_meta(data[i]), "block %" PRIu64 " is group metadata", data[i]);
	/* used = mkfs (8 x 514 + 5 x 65 + 6, the root block among them) + what we found */
	T_ASSERT_U64_EQ(ios_fs_used_bytes(fs), (8ull * 514 + 5 * 65 + 6 - 1 + n) * 4096);
	free(data);
	free(meta);
	ios_fs_destroy(fs);
	sb_gdt = 1025;
	return T_PASS;
}

/*
 * meta_ord numbers a file's indirect blocks 0, 1, 2 ... in the order they
 * were allocated (on disk, forward): walking the file, each new indirect
 * block has the next number, and a number always names the same block.
 */
static int test_meta_ordinals(void)
{
	struct ios_fs *fs = mkfs(CAP_1TB);
	/* past 4 GiB, into the second double-indirect tree of the triple-indirect one */
	uint64_t nblocks = 1049612ull + (1ull << 20) + 3000;
	struct ios_fs_file *f = fs ? add(fs, "/big", nblocks * 4096) : NULL;
	uint64_t *by_ord = calloc(4096, sizeof(*by_ord)), next = 0, prev_block = 0;

	T_ASSERT(f && by_ord);
	for (uint64_t b = 0; b < nblocks;) {
		struct ios_fs_map m = map(fs, f, b);

		for (unsigned k = 0; k < m.nr_meta; k++) {
			uint32_t o = m.meta_ord[k];

			T_ASSERT_MSG(o <= next && o < 4096, "block %" PRIu64 ": ordinal %u, next %" PRIu64,
				     b, o, next);
			if (o == next) {
				by_ord[next++] = m.meta[k];
				T_ASSERT(m.meta[k] > prev_block);
				prev_block = m.meta[k];
			}
			T_ASSERT_U64_EQ(by_ord[o], m.meta[k]);
		}
		b += m.contig;
	}
	/* IND, DIND and its 1024 INDs, TIND, two DINDs with 1024 + 3 INDs */
	T_ASSERT_U64_EQ(next, 1 + 1 + 1024 + 1 + 1 + 1024 + 1 + 3);
	free(by_ord);
	ios_fs_destroy(fs);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_indirect_blocks, test_group_metadata_skipped, test_one_directory_packed,
		     test_directories_spread, test_top_directories_scatter,
		     test_inode_in_inode_table, test_triple_indirect,
		     test_used_bytes, test_deterministic, test_no_overlap, test_meta_ordinals);
}
