/*
 * The ext3 layout: where Linux 2.6.32's ext3, on a filesystem made by
 * mke2fs 1.41 with its default settings, puts a file's data, its indirect
 * blocks, its inode and its directory.
 *
 * mke2fs (lib/ext2fs/initialize.c, "default" fs type of mke2fs.conf):
 * 4 KiB blocks, 32768 blocks (128 MiB) per group, one inode per 16 KiB of
 * device (inode_ratio 16384: 8192 inodes per full group), 256-byte inodes
 * (512 inode-table blocks per group), sparse_super (a superblock backup in
 * groups 0, 1 and the powers of 3, 5 and 7) and resize_inode (reserved GDT
 * blocks after each group-descriptor copy, enough to grow to 1024 times
 * the size or 2^32 blocks, at most 1024). A group with a backup starts with
 * superblock, descriptors and reserved descriptors; every group then has
 * its block bitmap, inode bitmap and inode table; the rest is data. A last
 * group shorter than its metadata plus 50 blocks is dropped, as mke2fs
 * drops it. mke2fs then makes the root directory (inode 2, one block),
 * lost+found (inode 11, four blocks) and the resize inode's double-indirect
 * block, in that order, at the start of group 0's data; inodes 1-11 are
 * taken.
 *
 * The kernel (fs/ext3/ialloc.c, balloc.c, inode.c):
 *  - a directory's inode group is chosen by find_group_orlov: under the
 *    root, the group with the fewest directories among those with at least
 *    the average free inodes and free blocks, scanning from a random start
 *    (here: a hash of the directory's path, so that the result is
 *    reproducible yet spread like the kernel's); deeper, the first group
 *    from the parent's that is not crowded with directories nor short of
 *    inodes or blocks (in practice the parent's group);
 *  - a file's inode group is chosen by find_group_other: the directory's
 *    group if it has a free inode and a free block, else a quadratic probe
 *    from (group + directory inode), else the first group with a free inode;
 *  - inodes are the first free ones of their group's bitmap;
 *  - a file's first block goes to the first free block at or after the
 *    start of its inode's group plus the creator's colour, (pid % 16)
 *    sixteenths of a group (ext3_find_near), later blocks right after the
 *    previous one, and a full group hands over to the next group with free
 *    blocks (wrapping); the colour is why the first data read of a file is
 *    a long way from its inode, and so looks seeky to CFQ;
 *  - ext3_alloc_branch allocates the missing indirect blocks of a branch
 *    together with the data block, outermost first: data 0-11, IND, data
 *    12-1035, DIND, IND, data 1036-2059, IND, data 2060-3083, ... and at
 *    file block 1049612 TIND, DIND, IND.
 *
 * A group's free space is a short list of extents (the colours leave holes
 * before files) and a file is a stream of (data + indirect) blocks cut into
 * runs where the free extents end. The
 * position of data block b in that stream is b plus the indirect blocks
 * before it, a closed formula; a mapping is that formula plus a look-up
 * of the run: a window index (ext3_index_runs) gives the run of every
 * 1024th position, so the look-up is a step or two, not a search.
 *
 * Left out: the journal (mke2fs puts 128 MiB of it in the filesystem),
 * directories' colour (their blocks go to the group's first free block),
 * block reservation windows, the 5% root
 * reserve (the lab's jobs run as root), directories growing past one block,
 * and fragmentation from deletes. See docs/filesystems.md.
 */
#include <inttypes.h>
#include <string.h>
#include "layout_ext_int.h"

static uint64_t ext3_div_ceil(uint64_t a, uint64_t b)
{
	return a / b + !!(a % b);
}

/* sparse_super: backups in groups 0, 1 and the powers of 3, 5 and 7 */
static bool ext3_is_power(uint64_t g, unsigned base)
{
	while (g > 1 && g % base == 0)
		g /= base;
	return g == 1;
}

static bool ext3_has_super(uint64_t g)
{
	if (g <= 1)
		return true;
	if (!(g & 1))
		return false;
	return ext3_is_power(g, 3) || ext3_is_power(g, 5) || ext3_is_power(g, 7);
}

/* resize_inode: descriptor room to grow 1024-fold (or to 2^32 blocks), at most one block of pointers */
static unsigned ext3_reserved_gdt(uint64_t blocks, unsigned gdt, unsigned dpb)
{
	uint64_t max_blocks = EXT3_MAX_FS_BLOCKS;
	uint64_t rsv;

	if (blocks < max_blocks / 1024)
		max_blocks = blocks * 1024;
	rsv = ext3_div_ceil(ext3_div_ceil(max_blocks, EXT3_BPG), dpb) - gdt;
	return rsv > EXT3_ADDR_PER_BLOCK ? EXT3_ADDR_PER_BLOCK : (unsigned)rsv;
}

/*
 * ext2fs_initialize's sizing for @blocks 4 KiB blocks with @dpb group
 * descriptors per block (128 for ext3's 32-byte ones, 64 for ext4's 64bit
 * feature); false when mke2fs says "too small".
 */
static bool ext3_geometry(uint64_t blocks, unsigned dpb, struct ext3_geom *geo)
{
	uint64_t inodes = blocks * (IOS_FS_BLOCK_SIZE / 1024) / (EXT3_INODE_RATIO / 1024);

	if (inodes < EXT3_FIRST_INO + 1)
		inodes = EXT3_FIRST_INO + 1;
	for (;;) {
		uint64_t ngroups = ext3_div_ceil(blocks, EXT3_BPG);
		uint64_t ipg, itb, overhead, rem;
		unsigned gdt, rsv;

		if (!ngroups)
			return false;
		gdt = (unsigned)ext3_div_ceil(ngroups, dpb);
		ipg = ext3_div_ceil(inodes, ngroups);
		if (ipg > IOS_FS_BLOCK_SIZE * 8)
			return false;	/* not reachable with inode_ratio 16384 */
		/* fill the inode-table blocks, then keep a multiple of 8 */
		itb = ext3_div_ceil(ipg * EXT3_INODE_SIZE, IOS_FS_BLOCK_SIZE);
		ipg = itb * EXT3_INODES_PER_BLOCK & ~7ull;
		itb = ext3_div_ceil(ipg * EXT3_INODE_SIZE, IOS_FS_BLOCK_SIZE);
		rsv = ext3_reserved_gdt(blocks, gdt, dpb);
		overhead = 2 + itb;
		if (ext3_has_super(ngroups - 1))
			overhead += 1 + gdt + rsv;
		rem = blocks % EXT3_BPG;
		if (ngroups == 1 && rem && rem < overhead)
			return false;
		if (rem && rem < overhead + EXT3_SPARE_BLOCKS) {
			blocks -= rem;
			continue;
		}
		*geo = (struct ext3_geom){ blocks, (unsigned)ngroups, gdt, rsv, (unsigned)ipg,
					   (unsigned)itb };
		return true;
	}
}

static uint64_t ext3_group_free(const struct ext3_group *gr)
{
	return gr->nfree_blocks;
}

/* Remove [b, b + n) from extent @i of @gr (it lies inside it). */
static void ext3_carve(struct ext3_group *gr, unsigned i, uint64_t b, uint64_t n)
{
	struct ext3_extent *x = &gr->free[i];

	gr->nfree_blocks -= n;
	if (b == x->s) {
		x->s += n;
	} else if (b + n == x->e) {
		x->e = b;
	} else {
		/* split; with the array full, the head is left out of the free list */
		if (gr->nfree < EXT3_MAX_FREE) {
			memmove(&gr->free[i + 1], &gr->free[i], (gr->nfree - i) * sizeof(*x));
			gr->nfree++;
			gr->free[i].e = b;
			gr->free[i + 1].s = b + n;
			return;
		}
		gr->nfree_blocks -= b - x->s;
		x->s = b + n;
	}
	if (x->s == x->e) {
		memmove(&gr->free[i], &gr->free[i + 1], (gr->nfree - i - 1) * sizeof(*x));
		gr->nfree--;
	}
}

static uint32_t ext3_group_free_inodes(const struct lay_ext3 *x, const struct ext3_group *gr)
{
	return x->geo.ipg - gr->used_inodes;
}

/* Where group @g's data blocks start and end: mke2fs's layout, from the geometry alone. */
static void ext3_group_span(const struct lay_ext3 *x, unsigned g, uint64_t *data, uint64_t *end)
{
	uint64_t start = (uint64_t)g * EXT3_BPG;

	*end = start + EXT3_BPG < x->geo.blocks ? start + EXT3_BPG : x->geo.blocks;
	*data = start + 2 + x->geo.itb;
	if (ext3_has_super(g))
		*data += 1 + x->geo.gdt + x->geo.rsv;
}

/*
 * Group @g, set up as mke2fs left it the first time it is looked at. A
 * large device has thousands of groups (1 KB each) and a small job touches
 * a few; setting them all up front cost a trivial run most of its time.
 * The lazily-filled table is the file system's own cache, so a lookup
 * through a const pointer may still fill it.
 */
static struct ext3_group *ext3_grp(const struct lay_ext3 *cx, unsigned g)
{
	struct lay_ext3 *x = (struct lay_ext3 *)cx;
	struct ext3_group *gr = &x->g[g];

	if (!gr->end && x->flex) {
		ios_lay_ext4_group_init(x, g, gr);
		if (!gr->nfree)	/* all metadata */
			x->full[g / 64] |= 1ull << (g % 64);
	} else if (!gr->end) {	/* every group's end is past its first block */
		ext3_group_span(x, g, &gr->data, &gr->end);
		gr->nfree = 1;
		gr->free[0] = (struct ext3_extent){ gr->data, gr->end };
		gr->nfree_blocks = gr->end - gr->data;
	}
	return gr;
}

/*
 * The group after @g (wrapping) that is not marked full, and in *@steps how
 * many groups on it is (1 for the next one): a word of the bitmap at a time,
 * so that 100,000 files filling 3,000 groups in turn do not each walk over
 * every full group (a square in the number of files). A full group has
 * nothing the walk in ext3_take_goal could take, so skipping it changes
 * nothing. With every group full, *@steps passes the number of groups.
 */
static unsigned ext3_next_open(const struct lay_ext3 *x, unsigned g, unsigned *steps)
{
	unsigned n = x->geo.ngroups, s = 0;

	while (s <= n) {
		uint64_t w;
		unsigned z, in_word;

		if (++g == n)
			g = 0;
		s++;
		/* bit 0 of w is group g; the bits past the word's end shift in as 0 */
		w = ~x->full[g / 64] >> (g % 64);
		z = w ? (unsigned)__builtin_ctzll(w) : 64;
		if (z < 64 && g + z < n) {	/* the last word's bits past the groups are not groups */
			g += z;
			s += z;
			break;
		}
		/* nothing open to the end of this word (or of the groups): to its last group */
		in_word = 63 - g % 64;
		if (g + in_word > n - 1)
			in_word = n - 1 - g;
		g += in_word;
		s += in_word;
	}
	*steps = s;
	return g;
}

/*
 * Take up to @max blocks at the first free block at or after *@goal in
 * group *@g, else from the start of the next groups with free blocks
 * (wrapping): ext3_new_blocks with a goal, without reservation windows.
 * *@g and *@goal are left after the blocks taken, so that a stream of calls
 * lays a file out contiguously. With @commit false nothing changes (a dry
 * run). The caller has checked that a free block exists.
 */
static uint64_t ext3_take_goal(struct lay_ext3 *x, unsigned *g, uint64_t *goal, uint64_t max,
			       uint64_t *len, bool commit)
{
	for (unsigned k = 0; k <= x->geo.ngroups;) {
		struct ext3_group *gr = ext3_grp(x, *g);
		unsigned steps;

		for (unsigned i = 0; i < gr->nfree; i++) {
			struct ext3_extent *f = &gr->free[i];
			uint64_t b, n;

			if (f->e <= *goal)
				continue;
			b = f->s > *goal ? f->s : *goal;
			n = f->e - b;
			if (n > max)
				n = max;
			if (commit) {
				ext3_carve(gr, i, b, n);
				x->free_blocks -= n;
				if (!gr->nfree)
					x->full[*g / 64] |= 1ull << (*g % 64);
			}
			*len = n;
			*goal = b + n;
			return b;
		}
		/* each full group passed counts as a visit, as when they were walked one by one */
		*g = ext3_next_open(x, *g, &steps);
		k += steps;
		*goal = ext3_grp(x, *g)->data;
	}
	IOS_BUG_ON(1);
	*len = 0;
	return 0;
}

/* The group's first free blocks (a directory, mke2fs's own blocks). */
static uint64_t ext3_take(struct lay_ext3 *x, unsigned *g, uint64_t max, uint64_t *len)
{
	uint64_t goal = ext3_grp(x, *g)->data;

	return ext3_take_goal(x, g, &goal, max, len, true);
}

static uint32_t ext3_new_inode(struct lay_ext3 *x, unsigned g, bool dir)
{
	struct ext3_group *gr = ext3_grp(x, g);

	IOS_BUG_ON(gr->used_inodes >= x->geo.ipg);
	gr->used_inodes++;
	x->free_inodes--;
	if (dir) {
		gr->used_dirs++;
		x->ndirs++;
	}
	return g * x->geo.ipg + gr->used_inodes;
}

static uint64_t ext3_inode_block(const struct lay_ext3 *x, uint32_t ino)
{
	unsigned g = (ino - 1) / x->geo.ipg, idx = (ino - 1) % x->geo.ipg;

	if (x->flex)
		return ios_lay_ext4_inode_table(x, g) + idx / EXT3_INODES_PER_BLOCK;
	return ext3_grp(x, g)->data - x->geo.itb + idx / EXT3_INODES_PER_BLOCK;
}

int ios_lay_ext3_init(struct ios_fs *fs, struct ios_err *e)
{
	uint64_t blocks = fs->capacity_bytes / IOS_FS_BLOCK_SIZE;
	struct lay_ext3 *x;
	struct ext3_geom geo;
	unsigned g0 = 0;
	uint64_t n;
	char b1[64], b2[64];
	bool ext4 = fs->type == IOS_FS_EXT4;
	/* ext4: mke2fs.conf's ext4 type turns on flex_bg (16 groups) and 64bit (64-byte descriptors) */
	unsigned dpb = ext4 ? IOS_FS_BLOCK_SIZE / 64u : EXT3_DESC_PER_BLOCK;
	const char *name = ext4 ? "ext4" : "ext3";

	if (blocks > EXT3_MAX_FS_BLOCKS)
		return IOS_ERR(e, -EINVAL,
			       "a device of %s is too large for %s with 4 KiB blocks: block "
			       "numbers are 32 bits%s, so at most %s",
			       ios_lay_bytes(b1, sizeof(b1), fs->capacity_bytes), name,
			       ext4 ? " in the lab's model (mke2fs drops resize_inode past them: "
				      "not modelled)" : "",
			       ios_lay_bytes(b2, sizeof(b2),
					     EXT3_MAX_FS_BLOCKS * IOS_FS_BLOCK_SIZE));
	if (!ext3_geometry(blocks, dpb, &geo) || (ext4 && !ios_lay_ext4_fits(&geo))) {
		uint64_t min = blocks + 1;

		while (!ext3_geometry(min, dpb, &geo) || (ext4 && !ios_lay_ext4_fits(&geo)))
			min++;
		return IOS_ERR(e, -EINVAL,
			       "a device of %s is too small for %s: one block group needs its "
			       "superblock, descriptors, bitmaps, inode table and %u data blocks, "
			       "at least %s", ios_lay_bytes(b1, sizeof(b1), fs->capacity_bytes),
			       name, EXT3_SPARE_BLOCKS,
			       ios_lay_bytes(b2, sizeof(b2), min * IOS_FS_BLOCK_SIZE));
	}
	x = calloc(1, sizeof(*x));
	if (x)
		x->g = calloc(geo.ngroups, sizeof(*x->g));
	if (x && x->g)
		x->full = calloc((geo.ngroups + 63) / 64, sizeof(*x->full));
	if (!x || !x->g || !x->full) {
		if (x)
			free(x->g);
		free(x);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	x->geo = geo;
	x->desc_per_block = dpb;
	x->flex = ext4 ? 16u : 0u;
	/* the groups' own state is filled in when a group is first looked at */
	for (unsigned g = 0; g < geo.ngroups; g++) {
		uint64_t data, end;

		if (ext4) {
			x->free_blocks += ios_lay_ext4_group_free(x, g);
			continue;
		}
		ext3_group_span(x, g, &data, &end);
		IOS_BUG_ON(data > end);
		x->free_blocks += end - data;
	}
	x->free_inodes = (uint64_t)geo.ngroups * geo.ipg;

	/* what mke2fs leaves behind: reserved inodes, /, lost+found, the resize inode */
	for (unsigned i = 0; i < EXT3_FIRST_INO; i++)
		ext3_new_inode(x, 0, i + 1 == EXT3_ROOT_INO || i + 1 == EXT3_FIRST_INO);
	x->root.ino = EXT3_ROOT_INO;
	x->root.group = 0;
	x->root.block = ext3_take(x, &g0, 1, &n);
	ext3_take(x, &g0, EXT3_LPF_BLOCKS, &n);
	IOS_BUG_ON(n != EXT3_LPF_BLOCKS || g0 != 0);
	ext3_take(x, &g0, 1, &n);
	fs->ext3 = x;
	/* ext4: then the journal (mke2fs makes it after the resize inode) */
	if (ext4) {
		int ret = ios_lay_ext4_make_journal(fs, e);

		if (ret) {
			ios_lay_ext3_fini(fs);
			return ret;
		}
	}
	return 0;
}

void ios_lay_ext3_fini(struct ios_fs *fs)
{
	struct lay_ext3 *x = fs->ext3;
	struct ext3_dir *d, *n;

	if (!x)
		return;
	for (d = x->dirs; d; d = n) {
		n = d->next;
		free(d);
	}
	if (x->journal) {
		ios_lay_ext4_free_tree(x->journal);
		free((char *)x->journal->pub.path);
		free(x->journal->runs);
		free(x->journal);
	}
	free(x->full);
	free(x->g);
	free(x);
	fs->ext3 = NULL;
}

void ios_lay_ext3_set_creator(struct ios_fs *fs, uint32_t pid)
{
	fs->ext3->creator_pid = pid;
}

uint64_t ios_lay_ext3_used_bytes(const struct ios_fs *fs)
{
	const struct lay_ext3 *x = fs->ext3;

	return (x->geo.blocks - x->free_blocks) * IOS_FS_BLOCK_SIZE;
}

uint64_t ios_lay_ext3_free_inodes(const struct ios_fs *fs)
{
	return fs->ext3->free_inodes;
}

/* ---- the indirect-block arithmetic ---- */

/* Indirect blocks allocated before data block @b (those of its own branch included). */
static uint64_t ext3_meta_before(uint64_t b)
{
	uint64_t k;

	if (b < EXT3_IND_FIRST)
		return 0;
	if (b < EXT3_DIND_FIRST)
		return 1;
	if (b < EXT3_TIND_FIRST)
		return 2 + (b - EXT3_DIND_FIRST) / EXT3_ADDR_PER_BLOCK + 1;
	k = b - EXT3_TIND_FIRST;
	/* IND, DIND and its 1024 INDs, TIND, then this tree's DINDs and INDs */
	return 1 + 1 + EXT3_ADDR_PER_BLOCK + 1 + (k >> 20) + 1 + (k >> 10) + 1;
}

/* Position of data block @b in the file's allocation stream. */
static uint64_t ext3_pos(uint64_t b)
{
	return b + ext3_meta_before(b);
}

static uint64_t ext3_meta_total(uint64_t nblocks)
{
	return nblocks ? ext3_meta_before(nblocks - 1) : 0;
}

/* Device block of stream position @pos; *left (may be NULL) gets the blocks to the run's end. */
/*
 * The window index of ios_lay_ext3_map's lookups. A file of a few runs
 * needs none; without memory for it the lookups fall back to the search
 * (the same answers, a little slower), so nothing fails here.
 */
static void ext3_index_runs(struct lay_file *lf, uint64_t stream_blocks)
{
	uint64_t nwin = (stream_blocks + (1u << LAY_RUN_IDX_SHIFT) - 1) >> LAY_RUN_IDX_SHIFT;
	size_t r = 0;

	lf->run_idx = NULL;
	if (lf->nr_runs < 4 || lf->nr_runs > UINT32_MAX)
		return;
	lf->run_idx = malloc(nwin * sizeof(*lf->run_idx));
	if (!lf->run_idx)
		return;
	for (uint64_t w = 0; w < nwin; w++) {
		uint64_t pos = w << LAY_RUN_IDX_SHIFT;

		while (r + 1 < lf->nr_runs && lf->runs[r + 1].pos <= pos)
			r++;
		lf->run_idx[w] = (uint32_t)r;
	}
}

static uint64_t ext3_dev(const struct lay_file *lf, uint64_t pos, uint64_t *left)
{
	size_t lo = 0, hi = lf->nr_runs;
	const struct lay_run *r;

	if (lf->run_idx) {
		/* runs are as long as a window or longer but for a few: a step or two */
		lo = lf->run_idx[pos >> LAY_RUN_IDX_SHIFT];
		while (lo + 1 < lf->nr_runs && lf->runs[lo + 1].pos <= pos)
			lo++;
		hi = lo + 1;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (lf->runs[mid].pos <= pos)
			lo = mid;
		else
			hi = mid;
	}
	r = &lf->runs[lo];
	IOS_BUG_ON(pos < r->pos || pos - r->pos >= r->len);
	if (left)
		*left = r->len - (pos - r->pos);
	return r->block + (pos - r->pos);
}

/*
 * Number of the indirect block at stream position @pos among the file's
 * indirect blocks: the positions before it that are not data blocks, of
 * which there are @data_before (a block's own branch follows all data
 * before it). At most about a millionth of a maximal file's blocks, but
 * saturated rather than wrapped in 32 bits.
 */
static uint32_t ext3_meta_ord(uint64_t pos, uint64_t data_before)
{
	uint64_t ord = pos - data_before;

	return ord < UINT32_MAX ? (uint32_t)ord : UINT32_MAX;
}

/*
 * Append the indirect block at stream position @pos, @data_before data
 * blocks ahead of it; @dev is its device block when known, else
 * IOS_FS_NO_BLOCK.
 */
static void ext3_add_meta(const struct lay_file *lf, struct ios_fs_map *out, uint64_t pos,
			  uint64_t data_before, uint64_t dev)
{
	out->meta_ord[out->nr_meta] = ext3_meta_ord(pos, data_before);
	out->meta[out->nr_meta++] = dev != IOS_FS_NO_BLOCK ? dev : ext3_dev(lf, pos, NULL);
}

void ios_lay_ext3_map(const struct ios_fs *fs, const struct lay_file *lf, uint64_t b,
		      struct ios_fs_map *out)
{
	uint64_t end, left, first;

	(void)fs;
	out->nr_meta = 0;
	out->meta[0] = out->meta[1] = out->meta[2] = IOS_FS_NO_BLOCK;
	out->meta_ord[0] = out->meta_ord[1] = out->meta_ord[2] = 0;
	if (b < EXT3_IND_FIRST) {
		end = EXT3_IND_FIRST;
	} else if (b < EXT3_DIND_FIRST) {
		end = EXT3_DIND_FIRST;
		ext3_add_meta(lf, out, EXT3_IND_FIRST, EXT3_IND_FIRST, lf->top_ind[0]);
	} else if (b < EXT3_TIND_FIRST) {
		first = b - (b - EXT3_DIND_FIRST) % EXT3_ADDR_PER_BLOCK;
		end = first + EXT3_ADDR_PER_BLOCK;
		ext3_add_meta(lf, out, ext3_pos(EXT3_DIND_FIRST) - 2, EXT3_DIND_FIRST,
			      lf->top_ind[1]);
		ext3_add_meta(lf, out, ext3_pos(first) - 1, first, IOS_FS_NO_BLOCK);
	} else {
		uint64_t k = b - EXT3_TIND_FIRST;
		uint64_t first_d = EXT3_TIND_FIRST + (k >> 20 << 20);

		first = EXT3_TIND_FIRST + (k >> 10 << 10);
		end = first + EXT3_ADDR_PER_BLOCK;
		ext3_add_meta(lf, out, ext3_pos(EXT3_TIND_FIRST) - 3, EXT3_TIND_FIRST,
			      lf->top_ind[2]);
		ext3_add_meta(lf, out, ext3_pos(first_d) - 2, first_d, IOS_FS_NO_BLOCK);
		ext3_add_meta(lf, out, ext3_pos(first) - 1, first, IOS_FS_NO_BLOCK);
	}
	if (end > lf->nblocks)
		end = lf->nblocks;
	out->block = ext3_dev(lf, ext3_pos(b), &left);
	out->contig = end - b < left ? end - b : left;
}

/* ---- inode placement ---- */

/* Avalanche a path hash (MurmurHash3's finaliser): names differing in one character scatter. */
static uint64_t ext3_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

/*
 * find_group_orlov (fs/ext3/ialloc.c, 2.6.32) for a new directory under
 * @parent. @start is where a top-level search begins (the kernel's random
 * number). Returns a group with a free inode, or -1.
 */
static long ext3_orlov(const struct lay_ext3 *x, const struct ext3_dir *parent, uint64_t start_hash)
{
	unsigned n = x->geo.ngroups, ipg = x->geo.ipg;
	uint64_t avefreei = x->free_inodes / n, avefreeb = x->free_blocks / n;
	unsigned start;

	if (parent == &x->root) {
		uint32_t best_ndir = ipg;
		long best = -1;

		start = (unsigned)(ext3_mix(start_hash) % n);
		for (unsigned i = 0; i < n; i++) {
			unsigned g = (unsigned)(((uint64_t)start + i) % n);
			const struct ext3_group *gr = ext3_grp(x, g);
			uint32_t fi = ext3_group_free_inodes(x, gr);

			if (!fi || gr->used_dirs >= best_ndir || fi < avefreei ||
			    ext3_group_free(gr) < avefreeb)
				continue;
			best = g;
			best_ndir = gr->used_dirs;
		}
		if (best >= 0)
			return best;
	} else {
		uint64_t max_dirs = x->ndirs / n + ipg / 16;
		/* signed, as the kernel's int: the minima may be negative */
		int64_t min_inodes = (int64_t)avefreei - ipg / 4;
		int64_t min_blocks = (int64_t)avefreeb - EXT3_BPG / 4;

		start = parent->group;
		for (unsigned i = 0; i < n; i++) {
			unsigned g = (unsigned)(((uint64_t)start + i) % n);
			const struct ext3_group *gr = ext3_grp(x, g);
			uint32_t fi = ext3_group_free_inodes(x, gr);

			if (!fi || gr->used_dirs >= max_dirs || (int64_t)fi < min_inodes ||
			    (int64_t)ext3_group_free(gr) < min_blocks)
				continue;
			return g;
		}
	}
	/* fallback: enough free inodes, then any free inode */
	for (;;) {
		for (unsigned i = 0; i < n; i++) {
			unsigned g = (unsigned)(((uint64_t)start + i) % n);
			uint32_t fi = ext3_group_free_inodes(x, ext3_grp(x, g));

			if (fi && fi >= avefreei)
				return g;
		}
		if (!avefreei)
			return -1;
		avefreei = 0;
	}
}

/* find_group_other (fs/ext3/ialloc.c) for a new file in @dir. */
static long ext3_find_group_other(const struct lay_ext3 *x, const struct ext3_dir *dir)
{
	unsigned n = x->geo.ngroups;
	uint64_t g = dir->group;
	const struct ext3_group *gr = ext3_grp(x, g);

	if (ext3_group_free_inodes(x, gr) && ext3_group_free(gr))
		return (long)g;
	/* spread files of different directories sharing a full group */
	g = (g + dir->ino) % n;
	for (uint64_t i = 1; i < n; i <<= 1) {
		g += i;
		if (g >= n)
			g -= n;
		gr = ext3_grp(x, g);
		if (ext3_group_free_inodes(x, gr) && ext3_group_free(gr))
			return (long)g;
	}
	g = dir->group;
	for (unsigned i = 0; i < n; i++) {
		if (++g >= n)
			g = 0;
		if (ext3_group_free_inodes(x, ext3_grp(x, g)))
			return (long)g;
	}
	return -1;
}

/*
 * Runs a stream of @total blocks from group @g and @goal will be cut into
 * (a dry run of the allocation: ext3_take_goal without commit only walks
 * the free lists, so repeated calls see the same state; a run ends where a
 * free extent ends, and the next starts at or after it).
 */
static size_t ext3_count_runs(struct lay_ext3 *x, unsigned g, uint64_t goal, uint64_t total)
{
	size_t runs = 0;

	while (total) {
		uint64_t n;

		(void)ext3_take_goal(x, &g, &goal, total, &n, false);
		runs++;
		total -= n;
	}
	return runs;
}

/* The first block a file's inode in group @g goes to: the group plus the colour. */
static uint64_t ext3_first_goal(const struct lay_ext3 *x, unsigned g)
{
	uint64_t start = (uint64_t)g * EXT3_BPG;
	uint64_t goal = start + (uint64_t)(x->creator_pid % 16) * (EXT3_BPG / 16);

	return goal < ext3_grp(x, g)->data ? ext3_grp(x, g)->data : goal;
}

/* ---- paths ---- */

/*
 * Normalise @path into @buf: components joined by '/', no empty or "."
 * components, ".." removing the previous one (never above the root).
 * ends[i] is where component i ends. Returns the number of components.
 */
static unsigned ext3_split(const char *path, char *buf, size_t *ends)
{
	unsigned nc = 0;
	size_t len = 0;

	for (const char *p = path; *p;) {
		const char *q = strchr(p, '/');
		size_t cl = q ? (size_t)(q - p) : strlen(p);

		if (cl == 2 && p[0] == '.' && p[1] == '.') {
			if (nc) {
				nc--;
				len = nc ? ends[nc - 1] : 0;
			}
		} else if (cl && !(cl == 1 && p[0] == '.')) {
			if (nc)
				buf[len++] = '/';
			memcpy(buf + len, p, cl);
			len += cl;
			ends[nc++] = len;
		}
		p += cl;
		if (*p == '/')
			p++;
	}
	buf[len] = '\0';
	return nc;
}

static bool ext3_names_dir(const char *path)
{
	size_t len = strlen(path);
	const char *last = strrchr(path, '/');

	last = last ? last + 1 : path;
	return path[len - 1] == '/' || !strcmp(last, ".") || !strcmp(last, "..");
}

static int ext3_mkdir(struct ios_fs *fs, struct ext3_dir *parent, const char *key, size_t len,
		      struct ext3_dir **out, struct ios_err *e)
{
	struct lay_ext3 *x = fs->ext3;
	struct ext3_dir *d = calloc(1, sizeof(*d));
	unsigned g;
	uint64_t n;
	long grp;

	if (!d)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (lay_names_add(&fs->names, key, len, LAY_DIR, d)) {
		free(d);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	grp = ext3_orlov(x, parent, ios_strmap_hash(key, len));
	IOS_BUG_ON(grp < 0);	/* the caller checked the free inodes */
	g = (unsigned)grp;
	if (x->flex)
		g = ios_lay_ext4_dir_group(x, g);
	d->group = g;
	d->ino = ext3_new_inode(x, g, true);
	if (x->flex)
		g = ios_lay_ext4_dir_block_group(x, g);
	d->block = ext3_take(x, &g, 1, &n);
	d->next = x->dirs;
	x->dirs = d;
	*out = d;
	return 0;
}

int ios_lay_ext3_mkdirs(struct ios_fs *fs, struct ext3_dir **dir, const char *key,
			const size_t *ends, unsigned first_new, unsigned nc, struct ios_err *e)
{
	for (unsigned i = first_new; i + 1 < nc; i++) {
		int ret = ext3_mkdir(fs, *dir, key, ends[i], dir, e);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * ext4's file: the same checks before any directory is made (space for the
 * data and the new directories, inodes), then layout_ext4.c places it. The
 * extent-tree blocks a file needs depend on where its data lands, so they
 * are only known there: a file that fits but for them is refused after its
 * directories were made (they stay, as after a real mkdir -p).
 */
static int ext3_add_ext4(struct ios_fs *fs, struct lay_file *lf, const char *path,
			 const char *key, const size_t *ends, unsigned nc, unsigned first_new,
			 struct ext3_dir *dir, struct ios_err *e)
{
	struct lay_ext3 *x = fs->ext3;
	unsigned ndirs = nc - 1 - first_new;
	int ret;

	if (ndirs > x->free_blocks || (!lf->fit && lf->nblocks + ndirs > x->free_blocks)) {
		char why[96];

		snprintf(why, sizeof(why), " with %u new director%s", ndirs,
			 ndirs == 1 ? "y" : "ies");
		return ios_lay_nospace(fs, path, lf->pub.size,
				       (lf->nblocks + ndirs) * IOS_FS_BLOCK_SIZE, why,
				       x->free_blocks * IOS_FS_BLOCK_SIZE, e);
	}
	if (nc - first_new > x->free_inodes)
		return IOS_ERR(e, -ENOSPC,
			       "file '%s' does not fit on the ext4 layout: it needs %u inodes, "
			       "%" PRIu64 " of %" PRIu64 " are free", path, nc - first_new,
			       x->free_inodes, (uint64_t)x->geo.ngroups * x->geo.ipg);
	ret = ios_lay_ext3_mkdirs(fs, &dir, key, ends, first_new, nc, e);
	if (!ret)
		ret = ios_lay_ext4_add_file(fs, lf, path, dir, key, ends[nc - 1], e);
	return ret;
}

int ios_lay_ext3_add(struct ios_fs *fs, struct lay_file *lf, const char *path, struct ios_err *e)
{
	struct lay_ext3 *x = fs->ext3;
	size_t plen = strlen(path);
	char *key = malloc(plen + 1);
	size_t *ends = malloc((plen / 2 + 1) * sizeof(*ends));
	struct ext3_dir *dir = &x->root;
	unsigned nc, first_new, g;
	uint64_t meta, need, pos;
	enum lay_kind kind;
	void *obj;
	long grp;
	int ret = 0;
	char b1[64], b2[64];

	if (!key || !ends) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	nc = ext3_split(path, key, ends);
	if (!nc || ext3_names_dir(path)) {
		ret = IOS_ERR(e, -EINVAL, "'%s' names a directory, not a file", path);
		goto out;
	}
	/* existing directories along the path, then those to make */
	first_new = nc - 1;
	for (unsigned i = 0; i + 1 < nc; i++) {
		kind = lay_names_find(&fs->names, key, ends[i], &obj);
		if (kind == LAY_FILE) {
			ret = IOS_ERR(e, -ENOTDIR, "'%s': '%.*s' is a file, not a directory",
				      path, (int)ends[i], key);
			goto out;
		}
		if (kind == LAY_NONE) {
			first_new = i;
			break;
		}
		dir = obj;
	}
	kind = first_new == nc - 1 ? lay_names_find(&fs->names, key, ends[nc - 1], NULL) : LAY_NONE;
	if (kind != LAY_NONE) {
		ret = kind == LAY_DIR
		      ? IOS_ERR(e, -EISDIR, "'%s' is a directory, not a file", path)
		      : IOS_ERR(e, -EEXIST, "file '%s' is already laid out", path);
		goto out;
	}
	if (x->flex) {
		ret = ext3_add_ext4(fs, lf, path, key, ends, nc, first_new, dir, e);
		goto out;
	}
	if (lf->pub.size > EXT3_MAX_FILE_BYTES) {
		ret = IOS_ERR(e, -EFBIG,
			      "file '%s' of %s is larger than ext3 with 4 KiB blocks allows, %s "
			      "(i_blocks counts its 512-byte sectors in 32 bits)", path,
			      ios_lay_bytes(b1, sizeof(b1), lf->pub.size),
			      ios_lay_bytes(b2, sizeof(b2), EXT3_MAX_FILE_BYTES));
		goto out;
	}
	meta = ext3_meta_total(lf->nblocks);
	need = lf->nblocks + meta + (nc - 1 - first_new);
	if (need > x->free_blocks && lf->fit && x->free_blocks >= nc - 1 - first_new) {
		/* the most data blocks whose indirect blocks fit beside them */
		uint64_t room = x->free_blocks - (nc - 1 - first_new), lo = 0, hi = room;

		while (lo < hi) {
			uint64_t mid = lo + (hi - lo + 1) / 2;

			if (mid + ext3_meta_total(mid) <= room)
				lo = mid;
			else
				hi = mid - 1;
		}
		{
			/* lo may be 0: an empty file, every write to it ENOSPC */
			lf->nblocks = lo;
			lf->pub.size = lo * IOS_FS_BLOCK_SIZE;
			meta = ext3_meta_total(lo);
			need = lo + meta + (nc - 1 - first_new);
		}
	}
	if (need > x->free_blocks) {
		char why[96];

		snprintf(why, sizeof(why), " with its %" PRIu64 " indirect blocks and %u new "
			 "director%s", meta, nc - 1 - first_new, nc - 1 - first_new == 1 ? "y" : "ies");
		ret = ios_lay_nospace(fs, path, lf->pub.size, need * IOS_FS_BLOCK_SIZE, why,
				      x->free_blocks * IOS_FS_BLOCK_SIZE, e);
		goto out;
	}
	if (nc - first_new > x->free_inodes) {
		ret = IOS_ERR(e, -ENOSPC,
			      "file '%s' does not fit on the ext3 layout: it needs %u inodes, "
			      "%" PRIu64 " of %" PRIu64 " are free", path, nc - first_new,
			      x->free_inodes, (uint64_t)x->geo.ngroups * x->geo.ipg);
		goto out;
	}

	for (unsigned i = first_new; i + 1 < nc; i++) {
		ret = ext3_mkdir(fs, dir, key, ends[i], &dir, e);
		if (ret)
			goto out;
	}

	grp = ext3_find_group_other(x, dir);
	IOS_BUG_ON(grp < 0);
	g = (unsigned)grp;
	lf->nr_runs = ext3_count_runs(x, g, ext3_first_goal(x, g), lf->nblocks + meta);
	lf->runs = lf->nr_runs ? malloc(lf->nr_runs * sizeof(*lf->runs)) : NULL;
	if ((lf->nr_runs && !lf->runs) || lay_names_add(&fs->names, key, ends[nc - 1], LAY_FILE, lf)) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	/* nothing can fail from here on */
	lf->ino = ext3_new_inode(x, g, false);
	lf->nr_runs = 0;
	{
		uint64_t goal = ext3_first_goal(x, g);

		for (pos = 0; pos < lf->nblocks + meta;) {
			uint64_t n, b = ext3_take_goal(x, &g, &goal, lf->nblocks + meta - pos, &n, true);

			lf->runs[lf->nr_runs++] = (struct lay_run){ pos, b, n };
			pos += n;
		}
	}
	ext3_index_runs(lf, lf->nblocks + meta);
	lf->top_ind[0] = lf->nblocks > EXT3_IND_FIRST ? ext3_dev(lf, EXT3_IND_FIRST, NULL)
						       : IOS_FS_NO_BLOCK;
	lf->top_ind[1] = lf->nblocks > EXT3_DIND_FIRST
				 ? ext3_dev(lf, ext3_pos(EXT3_DIND_FIRST) - 2, NULL)
				 : IOS_FS_NO_BLOCK;
	lf->top_ind[2] = lf->nblocks > EXT3_TIND_FIRST
				 ? ext3_dev(lf, ext3_pos(EXT3_TIND_FIRST) - 3, NULL)
				 : IOS_FS_NO_BLOCK;
	lf->pub.inode_block = ext3_inode_block(x, lf->ino);
	lf->pub.dir_block = dir->block;
	/* an empty file (ios_fs_add_file_upto on a full filesystem) has no block */
	lf->pub.group = lf->nr_runs ? (unsigned)(lf->runs[0].block / EXT3_BPG) : g;
	lf->pub.first_sector = lf->nr_runs ? lf->runs[0].block * IOS_FS_BLOCK_SECTORS : 0;
out:
	free(key);
	free(ends);
	return ret;
}

/* ---- what file operations change (alloc.c) ---- */

void ios_lay_ext3_adjust(struct ios_fs *fs, int64_t blocks, int64_t inodes)
{
	struct lay_ext3 *x = fs->ext3;

	x->free_blocks = (uint64_t)((int64_t)x->free_blocks + blocks);
	x->free_inodes = (uint64_t)((int64_t)x->free_inodes + inodes);
}

/*
 * Every group starts its own metadata with the block bitmap, the inode
 * bitmap and the inode table, in that order (after the superblock backup
 * and descriptors where there are some), so both bitmaps sit just below
 * the inode table.
 */
static unsigned ext3_group_of_block(const struct lay_ext3 *x, uint64_t block)
{
	uint64_t g = block / EXT3_BPG;

	return g < x->geo.ngroups ? (unsigned)g : x->geo.ngroups - 1;
}

static uint64_t ext3_desc_block(const struct lay_ext3 *x, unsigned g)
{
	return 1 + g / x->desc_per_block;	/* the primary descriptors follow block 0 */
}

void ios_lay_ext3_group_meta(const struct ios_fs *fs, uint64_t block, uint64_t *block_bitmap,
			     uint64_t *desc)
{
	const struct lay_ext3 *x = fs->ext3;
	unsigned g = ext3_group_of_block(x, block);

	*block_bitmap = x->flex ? ios_lay_ext4_block_bitmap(x, g) : ext3_grp(x, g)->data - x->geo.itb - 2;
	*desc = ext3_desc_block(x, g);
}

void ios_lay_ext3_inode_meta(const struct ios_fs *fs, uint32_t ino, uint64_t *inode_bitmap,
			     uint64_t *desc)
{
	const struct lay_ext3 *x = fs->ext3;
	unsigned g = (ino - 1) / x->geo.ipg;

	*inode_bitmap = x->flex ? ios_lay_ext4_inode_bitmap(x, g) : ext3_grp(x, g)->data - x->geo.itb - 1;
	*desc = ext3_desc_block(x, g);
}

/* ---- for layout_ext4.c ---- */

bool ios_lay_ext3_has_super(uint64_t g)
{
	return ext3_has_super(g);
}

struct ext3_group *ios_lay_ext3_grp(const struct lay_ext3 *x, unsigned g)
{
	return ext3_grp(x, g);
}

uint64_t ios_lay_ext3_take_goal(struct lay_ext3 *x, unsigned *g, uint64_t *goal, uint64_t max,
				uint64_t *len, bool commit)
{
	return ext3_take_goal(x, g, goal, max, len, commit);
}

uint64_t ios_lay_ext3_take(struct lay_ext3 *x, unsigned *g, uint64_t max, uint64_t *len)
{
	return ext3_take(x, g, max, len);
}

uint32_t ios_lay_ext3_new_inode(struct lay_ext3 *x, unsigned g, bool dir)
{
	return ext3_new_inode(x, g, dir);
}

uint64_t ios_lay_ext3_inode_block(const struct lay_ext3 *x, uint32_t ino)
{
	return ext3_inode_block(x, ino);
}

/* find_group_other's last resort: the first group from @from on with a free inode, or -1. */
long ios_lay_ext3_any_inode_group(const struct lay_ext3 *x, unsigned from)
{
	unsigned n = x->geo.ngroups, g = from;

	for (unsigned i = 0; i < n; i++) {
		if (++g >= n)
			g = 0;
		if (ext3_group_free_inodes(x, ext3_grp(x, g)))
			return (long)g;
	}
	return -1;
}
