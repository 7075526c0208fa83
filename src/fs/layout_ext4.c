/*
 * The ext4 layout: Linux 6.12's ext4 on a filesystem made by mke2fs 1.46
 * or later with its "ext4" type (misc/mke2fs.conf.in: has_journal, extent,
 * flex_bg, 64bit, ... over the base sparse_super and resize_inode).
 *
 * It is ext3's model (layout_ext3.c: 128 MiB groups, sparse_super backups,
 * resize_inode's reserved descriptors, the directory and inode-group rules)
 * with four differences, each here:
 *
 *  - 64bit: group descriptors are 64 bytes, 64 to a block, so twice the
 *    descriptor and reserved-descriptor blocks of ext3 (resize_inode's
 *    reserve is counted in descriptor blocks: calc_reserved_gdt_blocks);
 *  - flex_bg (16 groups, mke2fs's default log_groups_per_flex 4): the
 *    bitmaps and inode tables of sixteen groups are packed at the start of
 *    the first group of the sixteen, block bitmaps, then inode bitmaps,
 *    then inode tables (ext2fs_allocate_group_table and flexbg_offset,
 *    lib/ext2fs/alloc_tables.c): the other fifteen groups are data from
 *    their first block but for a superblock backup. The bitmaps' spacing is
 *    the flex size, or, for the last flex group, the groups it holds ("keep
 *    the metadata tables contiguous"), except that a last flex group of one
 *    group keeps the spacing of sixteen, leaving two holes;
 *  - extents: the inode holds four (ext4_ext_space_root: 60-byte i_block
 *    less the 12-byte header, 12 bytes each); a fifth moves them into a
 *    leaf block of 340 (ext4_ext_space_block, 4 KiB less the header) and a
 *    mapping then reads that block first; a 1361st adds an index level
 *    (ext4_ext_grow_indepth). An extent covers at most 32768 blocks
 *    (EXT_INIT_MAX_LEN) and two touching ones merge while they fit
 *    (ext4_can_extents_be_merged). A file's allocations are cut where the
 *    free space or a group ends (mballoc allocates inside one group); a
 *    tree block is taken where the next data would have gone, right after
 *    the extent that needed it (ours: mballoc's placement of metadata
 *    blocks through its locality groups is not modelled);
 *  - allocation goal (ext4_inode_to_goal_block, fs/ext4/balloc.c): with
 *    flex groups of 4 or more, a regular file's data starts at the first
 *    block of the second group of its inode's flex group, a directory's at
 *    the first group's; delayed allocation (on by default) drops ext3's
 *    per-pid colour. From that goal the data takes the first free blocks
 *    onwards, group after group (mballoc's buddy allocator, its criteria,
 *    normalisation, preallocation and stream goal are not modelled: on an
 *    empty filesystem they give the same contiguous runs);
 *  - the journal (inode 8): ext2fs_default_journal_size's table by the
 *    filesystem's block count (lib/ext2fs/mkjournal.c), placed from the
 *    first block of get_midpoint_journal_block's group (the middle group,
 *    rounded down to its flex group past the first flex group, then the one
 *    of it and the next with more free blocks), contiguous but where a
 *    group's metadata interrupts it. Only the region exists here: jbd2's
 *    writes are another step (docs/cgroup-v2-plan.md, 8b).
 *
 * Inode groups with flex_bg (find_group_other, find_group_orlov in
 * fs/ext4/ialloc.c): a file's inode goes to the first group of its
 * directory's flex group with a free inode; a directory's to the flex group
 * of the group ext3's Orlov rule chose (ours: the kernel runs Orlov over
 * flex groups' totals; the spread is the same kind, the exact pick may
 * differ).
 */
#include <inttypes.h>
#include <string.h>
#include "layout_ext_int.h"

#define EXT4_JOURNAL_INO	8u
#define EXT4_EXT_ROOT		4u	/* extents in the inode: (60 - 12) / 12 */
#define EXT4_EXT_BLOCK		340u	/* extents (or index entries) in a tree block: (4096 - 12) / 12 */
#define EXT4_MAX_EXT_LEN	32768u	/* EXT_INIT_MAX_LEN */
#define EXT4_MAX_DEPTH		2u	/* index + leaf: 462400 extents, more than any fs here */
/* ext4_max_size with extents: 2^32 - 1 logical blocks */
#define EXT4_MAX_FILE_BYTES	((0xffffffffull) * IOS_FS_BLOCK_SIZE)

/*
 * A file's extent tree beyond its inode: the blocks in the order they were
 * allocated (that order is the meta_ord the page cache keys them by), and
 * which of them is leaf k and index block j.
 */
struct lay_ext4_tree {
	unsigned depth;
	uint32_t nr_blocks, nr_leaves, nr_index;
	uint64_t *blocks;
	uint32_t *leaf;			/* leaf k covers extents [340k, 340k + 340) */
	uint32_t *index;		/* index block j covers leaves [340j, 340j + 340) */
};

/* ---- the flex_bg group layout ---- */

struct ext4_flexpos {
	unsigned first;			/* first group of the flex group */
	unsigned n;			/* groups in it */
	unsigned spacing;		/* ext2fs_allocate_group_table's table_offset */
	uint64_t base;			/* its first block bitmap */
};

static void ext4_flexpos(const struct lay_ext3 *x, unsigned g, struct ext4_flexpos *p)
{
	const struct ext3_geom *geo = &x->geo;

	p->first = g - g % x->flex;
	p->n = geo->ngroups - p->first < x->flex ? geo->ngroups - p->first : x->flex;
	p->spacing = p->n == 1 ? x->flex : p->n;
	p->base = (uint64_t)p->first * EXT3_BPG;
	if (ios_lay_ext3_has_super(p->first))
		p->base += 1 + geo->gdt + geo->rsv;
}

uint64_t ios_lay_ext4_block_bitmap(const struct lay_ext3 *x, unsigned g)
{
	struct ext4_flexpos p;

	ext4_flexpos(x, g, &p);
	return p.base + (g - p.first);
}

uint64_t ios_lay_ext4_inode_bitmap(const struct lay_ext3 *x, unsigned g)
{
	struct ext4_flexpos p;

	ext4_flexpos(x, g, &p);
	return p.base + p.spacing + (g - p.first);
}

uint64_t ios_lay_ext4_inode_table(const struct lay_ext3 *x, unsigned g)
{
	struct ext4_flexpos p;

	ext4_flexpos(x, g, &p);
	return p.base + 2ull * p.spacing + (uint64_t)(g - p.first) * x->geo.itb;
}

/* One past the last block of group @g. */
static uint64_t ext4_group_end(const struct ext3_geom *geo, unsigned g)
{
	uint64_t end = ((uint64_t)g + 1) * EXT3_BPG;

	return end < geo->blocks ? end : geo->blocks;
}

/* Does every flex group's metadata fit in its first group (a short last group may be too short)? */
bool ios_lay_ext4_fits(const struct ext3_geom *geo)
{
	struct lay_ext3 x = { .geo = *geo, .flex = 16 };
	unsigned last = geo->ngroups - 1;
	struct ext4_flexpos p;

	ext4_flexpos(&x, last, &p);
	return ios_lay_ext4_inode_table(&x, p.first + p.n - 1) + geo->itb <=
	       ext4_group_end(geo, p.first);
}

uint64_t ios_lay_ext4_group_free(const struct lay_ext3 *x, unsigned g)
{
	uint64_t start = (uint64_t)g * EXT3_BPG, used = 0;
	struct ext4_flexpos p;

	if (ios_lay_ext3_has_super(g))
		used += 1 + x->geo.gdt + x->geo.rsv;
	ext4_flexpos(x, g, &p);
	if (g == p.first)
		used += (uint64_t)p.n * (2 + x->geo.itb);
	return ext4_group_end(&x->geo, g) - start - used;
}

/* Group @g's free extents as mke2fs left them: around the backup and the flex metadata. */
void ios_lay_ext4_group_init(const struct lay_ext3 *x, unsigned g, struct ext3_group *gr)
{
	uint64_t end = ext4_group_end(&x->geo, g);
	struct ext4_flexpos p;
	uint64_t cut[3][2];
	unsigned nc = 0;
	uint64_t at;

	ext4_flexpos(x, g, &p);
	at = (uint64_t)g * EXT3_BPG;
	if (ios_lay_ext3_has_super(g))
		at += 1 + x->geo.gdt + x->geo.rsv;
	if (g == p.first) {
		cut[nc][0] = p.base;
		cut[nc++][1] = p.base + p.n;
		cut[nc][0] = p.base + p.spacing;
		cut[nc++][1] = p.base + p.spacing + p.n;
		cut[nc][0] = p.base + 2ull * p.spacing;
		cut[nc++][1] = p.base + 2ull * p.spacing + (uint64_t)p.n * x->geo.itb;
	}
	gr->end = end;
	gr->nfree = 0;
	gr->nfree_blocks = 0;
	for (unsigned i = 0; i <= nc; i++) {
		uint64_t e = i < nc ? cut[i][0] : end;

		if (e > at) {
			gr->free[gr->nfree++] = (struct ext3_extent){ at, e };
			gr->nfree_blocks += e - at;
		}
		if (i < nc)
			at = cut[i][1];
	}
	gr->data = gr->nfree ? gr->free[0].s : end;
}

/* find_group_orlov with flex_bg: the first group of the chosen one's flex group with a free inode. */
unsigned ios_lay_ext4_dir_group(const struct lay_ext3 *x, unsigned g)
{
	unsigned first = g - g % x->flex;

	for (unsigned i = first; i < x->geo.ngroups && i < first + x->flex; i++)
		if (ios_lay_ext3_grp(x, i)->used_inodes < x->geo.ipg)
			return i;
	return g;	/* Orlov's group has one */
}

/* ext4_inode_to_goal_block for a directory: the first group of its flex group. */
unsigned ios_lay_ext4_dir_block_group(const struct lay_ext3 *x, unsigned g)
{
	return g - g % x->flex;
}

/* find_group_other with flex_bg: the directory's flex group, else any group with a free inode. */
long ios_lay_ext4_file_group(const struct lay_ext3 *x, const struct ext3_dir *dir)
{
	unsigned first = dir->group - dir->group % x->flex;

	for (unsigned i = first; i < x->geo.ngroups && i < first + x->flex; i++)
		if (ios_lay_ext3_grp(x, i)->used_inodes < x->geo.ipg)
			return i;
	return ios_lay_ext3_any_inode_group(x, dir->group);
}

/* ---- extents ---- */

/* Tree blocks (leaves, index blocks) a file of @e extents has, appended one by one. */
static uint64_t ext4_leaves(uint64_t e)
{
	return e <= EXT4_EXT_ROOT ? 0 : (e + EXT4_EXT_BLOCK - 1) / EXT4_EXT_BLOCK;
}

static uint64_t ext4_index_blocks(uint64_t e)
{
	uint64_t l = ext4_leaves(e);

	return l <= EXT4_EXT_ROOT ? 0 : (l + EXT4_EXT_BLOCK - 1) / EXT4_EXT_BLOCK;
}

/*
 * What placing @nblocks data blocks from @goal gives: the extents, and the
 * tree blocks taken after the extent that needed them. With @commit false
 * nothing changes and only the counts come back (ext3_take_goal's dry run:
 * the walk only goes forward, so untaken blocks ahead are what a real run
 * would take, as long as the blocks needed are free: @avail bounds it).
 * Stops early (returns false) when the blocks run out; *data then says how
 * many data blocks were placed before the extent that did not fit.
 */
struct ext4_plan {
	uint64_t data;			/* data blocks placed */
	uint64_t extents;
	uint64_t tree;			/* tree blocks */
};

static bool ext4_place(struct lay_ext3 *x, uint64_t goal, uint64_t nblocks, bool commit,
		       struct lay_file *lf, struct ext4_plan *pl)
{
	uint64_t avail = x->free_blocks;
	unsigned g;
	uint64_t last_end = IOS_FS_NO_BLOCK, last_len = 0;
	struct lay_ext4_tree *t = commit ? lf->tree : NULL;

	/* ext4_mb_initialize_context: a goal past the end starts at the first data block */
	if (goal >= x->geo.blocks)
		goal = 0;
	g = (unsigned)(goal / EXT3_BPG);
	memset(pl, 0, sizeof(*pl));
	while (pl->data < nblocks) {
		uint64_t want = nblocks - pl->data, n, b, new_index, new_leaves;

		if (!avail)
			return false;
		if (want > avail)
			want = avail;
		if (want > EXT4_MAX_EXT_LEN)
			want = EXT4_MAX_EXT_LEN;
		/* a dry run takes the same blocks: it only walks forward from the goal */
		b = ios_lay_ext3_take_goal(x, &g, &goal, want, &n, commit);
		if (b == last_end && last_len + n <= EXT4_MAX_EXT_LEN) {
			/* touching the previous extent, and it has room: they merge */
			avail -= n;
			last_len += n;
			last_end += n;
			if (commit)
				lf->runs[lf->nr_runs - 1].len += n;
			pl->data += n;
			continue;
		}
		new_index = ext4_index_blocks(pl->extents + 1) - ext4_index_blocks(pl->extents);
		new_leaves = ext4_leaves(pl->extents + 1) - ext4_leaves(pl->extents);
		if (n + new_index + new_leaves > avail) {
			/* the tree cannot grow: the kernel frees this extent's data again */
			IOS_BUG_ON(commit);
			return false;
		}
		avail -= n;
		if (commit)
			lf->runs[lf->nr_runs++] = (struct lay_run){ pl->data, b, n };
		pl->extents++;
		pl->data += n;
		last_end = b + n;
		last_len = n;
		/*
		 * ext4_ext_grow_indepth takes the new index block first, then
		 * ext4_ext_split the new leaf, both where the data went on
		 */
		for (uint64_t k = 0; k < new_index + new_leaves; k++) {
			uint64_t tb, tn;

			tb = ios_lay_ext3_take_goal(x, &g, &goal, 1, &tn, commit);
			avail--;
			pl->tree++;
			if (t) {
				if (k < new_index)
					t->index[t->nr_index++] = t->nr_blocks;
				else
					t->leaf[t->nr_leaves++] = t->nr_blocks;
				t->blocks[t->nr_blocks++] = tb;
			}
			/* a tree block breaks the data run: the next data is a new extent */
			last_end = IOS_FS_NO_BLOCK;
		}
	}
	return true;
}

static struct lay_ext4_tree *ext4_tree_new(uint64_t extents, uint64_t tree)
{
	struct lay_ext4_tree *t = calloc(1, sizeof(*t));
	uint64_t nl = ext4_leaves(extents), ni = ext4_index_blocks(extents);

	if (!t)
		return NULL;
	t->depth = ni ? 2 : nl ? 1 : 0;
	if (tree) {
		t->blocks = malloc(tree * sizeof(*t->blocks));
		t->leaf = malloc((nl ? nl : 1) * sizeof(*t->leaf));
		t->index = malloc((ni ? ni : 1) * sizeof(*t->index));
		if (!t->blocks || !t->leaf || !t->index) {
			free(t->blocks);
			free(t->leaf);
			free(t->index);
			free(t);
			return NULL;
		}
	}
	return t;
}

void ios_lay_ext4_free_tree(struct lay_file *lf)
{
	if (!lf->tree)
		return;
	free(lf->tree->blocks);
	free(lf->tree->leaf);
	free(lf->tree->index);
	free(lf->tree);
	lf->tree = NULL;
}

/*
 * Plan @lf's data from @goal (nothing changes yet): the dry run for the
 * counts and the memory they need. With lf->fit a file that does not fit
 * is cut to what does, else -ENOSPC (@path names it). ext4_commit then
 * takes the blocks, and cannot fail.
 */
static int ext4_prepare(struct ios_fs *fs, struct lay_file *lf, uint64_t goal, const char *path,
			struct ext4_plan *pl, struct ios_err *e)
{
	struct lay_ext3 *x = fs->ext3;

	if (!ext4_place(x, goal, lf->nblocks, false, lf, pl)) {
		if (!lf->fit)
			return ios_lay_nospace(fs, path, lf->pub.size,
					       (lf->nblocks + pl->tree + 1) * IOS_FS_BLOCK_SIZE,
					       " with the blocks of its extent tree",
					       x->free_blocks * IOS_FS_BLOCK_SIZE, e);
		/* what fits: the data placed before the extent that did not */
		lf->nblocks = pl->data;
		lf->pub.size = pl->data * IOS_FS_BLOCK_SIZE;
		if (!ext4_place(x, goal, lf->nblocks, false, lf, pl))
			IOS_BUG_ON(1);
	}
	if (ext4_index_blocks(pl->extents) > EXT4_EXT_ROOT)
		return IOS_ERR(e, -EFBIG, "file '%s' needs %" PRIu64 " extents: an extent tree "
			       "deeper than %u levels below the inode is not modelled", path,
			       pl->extents, EXT4_MAX_DEPTH);
	lf->runs = pl->extents ? malloc(pl->extents * sizeof(*lf->runs)) : NULL;
	lf->tree = ext4_tree_new(pl->extents, pl->tree);
	if ((pl->extents && !lf->runs) || !lf->tree) {
		free(lf->runs);
		lf->runs = NULL;
		ios_lay_ext4_free_tree(lf);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	return 0;
}

static void ext4_commit(struct ios_fs *fs, struct lay_file *lf, uint64_t goal,
			const struct ext4_plan *pl)
{
	struct ext4_plan done;

	lf->nr_runs = 0;
	if (!ext4_place(fs->ext3, goal, lf->nblocks, true, lf, &done))
		IOS_BUG_ON(1);	/* ext3_take_goal counted the blocks taken */
	IOS_BUG_ON(done.extents != pl->extents || done.tree != pl->tree);
}

int ios_lay_ext4_add_file(struct ios_fs *fs, struct lay_file *lf, const char *path,
			  struct ext3_dir *dir, const char *key, size_t keylen, struct ios_err *e)
{
	struct lay_ext3 *x = fs->ext3;
	struct ext4_plan pl;
	uint64_t goal;
	unsigned g;
	long grp;
	int ret;
	char b1[64], b2[64];

	if (lf->pub.size > EXT4_MAX_FILE_BYTES)
		return IOS_ERR(e, -EFBIG,
			       "file '%s' of %s is larger than ext4 with 4 KiB blocks allows, %s "
			       "(extents address 2^32 - 1 blocks)", path,
			       ios_lay_bytes(b1, sizeof(b1), lf->pub.size),
			       ios_lay_bytes(b2, sizeof(b2), EXT4_MAX_FILE_BYTES));
	grp = ios_lay_ext4_file_group(x, dir);
	IOS_BUG_ON(grp < 0);	/* the caller checked the free inodes */
	g = (unsigned)grp;
	/* ext4_inode_to_goal_block: a regular file starts in the second group of its flex group */
	goal = ((uint64_t)(g - g % x->flex) + 1) * EXT3_BPG;
	ret = ext4_prepare(fs, lf, goal, path, &pl, e);
	if (ret)
		return ret;
	if (lay_names_add(&fs->names, key, keylen, LAY_FILE, lf)) {
		free(lf->runs);
		lf->runs = NULL;
		ios_lay_ext4_free_tree(lf);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	/* nothing can fail from here on */
	ext4_commit(fs, lf, goal, &pl);
	lf->ino = ios_lay_ext3_new_inode(x, g, false);
	lf->pub.inode_block = ios_lay_ext3_inode_block(x, lf->ino);
	lf->pub.dir_block = dir->block;
	lf->pub.group = lf->nr_runs ? (unsigned)(lf->runs[0].block / EXT3_BPG) : g;
	lf->pub.first_sector = lf->nr_runs ? lf->runs[0].block * IOS_FS_BLOCK_SECTORS : 0;
	return 0;
}

/* ---- the journal ---- */

/* ext2fs_default_journal_size (e2fsprogs lib/ext2fs/mkjournal.c): blocks, or 0 for none. */
static uint64_t ext4_journal_size(uint64_t blocks)
{
	if (blocks < 2048)
		return 0;	/* mke2fs: "Filesystem too small for a journal" */
	if (blocks < 32768)
		return 1024;
	if (blocks < 256 * 1024)
		return 4096;
	if (blocks < 512 * 1024)
		return 8192;
	if (blocks < 4096 * 1024)
		return 16384;
	if (blocks < 8192 * 1024)
		return 32768;
	if (blocks < 16384 * 1024)
		return 65536;
	if (blocks < 32768 * 1024)
		return 131072;
	return 262144;
}

/* get_midpoint_journal_block (mkjournal.c): the group the journal starts in. */
static unsigned ext4_journal_group(const struct lay_ext3 *x)
{
	unsigned n = x->geo.ngroups;
	unsigned group = (unsigned)(x->geo.blocks / 2 / EXT3_BPG), start, end;

	if (group > x->flex) {
		group -= group % x->flex;
		while (group < n && !ios_lay_ext3_grp(x, group)->nfree_blocks)
			group++;
		if (group == n)
			group = 0;
		start = group;
	} else {
		start = group ? group - 1 : group;
	}
	end = group + 1 < n ? group + 1 : group;
	group = start;
	for (unsigned i = start + 1; i <= end; i++)
		if (ios_lay_ext3_grp(x, i)->nfree_blocks > ios_lay_ext3_grp(x, group)->nfree_blocks)
			group = i;
	return group;
}

int ios_lay_ext4_make_journal(struct ios_fs *fs, struct ios_err *e)
{
	struct lay_ext3 *x = fs->ext3;
	uint64_t size = ext4_journal_size(x->geo.blocks), goal;
	struct ext4_plan pl;
	struct lay_file *lf;
	int ret;

	if (!size)
		return 0;
	lf = calloc(1, sizeof(*lf));
	if (!lf || !(lf->pub.path = strdup("<journal>"))) {
		free(lf);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	lf->pub.priv = lf;
	lf->pub.size = size * IOS_FS_BLOCK_SIZE;
	lf->nblocks = size;
	goal = (uint64_t)ext4_journal_group(x) * EXT3_BPG;
	ret = ext4_prepare(fs, lf, goal, "<journal>", &pl, e);
	if (ret) {
		free((char *)lf->pub.path);
		free(lf);
		return ret;
	}
	ext4_commit(fs, lf, goal, &pl);
	lf->ino = EXT4_JOURNAL_INO;	/* one of the reserved inodes mke2fs marked used */
	lf->pub.inode_block = ios_lay_ext3_inode_block(x, lf->ino);
	lf->pub.dir_block = IOS_FS_NO_BLOCK;
	lf->pub.group = (unsigned)(lf->runs[0].block / EXT3_BPG);
	lf->pub.first_sector = lf->runs[0].block * IOS_FS_BLOCK_SECTORS;
	x->journal = lf;
	return 0;
}

/* ---- mapping ---- */

void ios_lay_ext4_map(const struct ios_fs *fs, const struct lay_file *lf, uint64_t b,
		      struct ios_fs_map *out)
{
	const struct lay_ext4_tree *t = lf->tree;
	size_t lo = 0, hi = lf->nr_runs;
	const struct lay_run *r;

	(void)fs;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (lf->runs[mid].pos <= b)
			lo = mid;
		else
			hi = mid;
	}
	r = &lf->runs[lo];
	IOS_BUG_ON(b < r->pos || b - r->pos >= r->len);
	out->block = r->block + (b - r->pos);
	out->contig = r->len - (b - r->pos);
	out->nr_meta = 0;
	out->meta[0] = out->meta[1] = out->meta[2] = IOS_FS_NO_BLOCK;
	out->meta_ord[0] = out->meta_ord[1] = out->meta_ord[2] = 0;
	if (t && t->depth) {
		uint64_t leaf = lo / EXT4_EXT_BLOCK;

		if (t->depth == 2) {
			uint32_t ord = t->index[leaf / EXT4_EXT_BLOCK];

			out->meta_ord[out->nr_meta] = ord;
			out->meta[out->nr_meta++] = t->blocks[ord];
		}
		out->meta_ord[out->nr_meta] = t->leaf[leaf];
		out->meta[out->nr_meta++] = t->blocks[t->leaf[leaf]];
	}
}

/* ---- public ---- */

const struct ios_fs_file *ios_fs_journal(const struct ios_fs *fs)
{
	if (fs->type != IOS_FS_EXT4 || !fs->ext3->journal)
		return NULL;
	return &fs->ext3->journal->pub;
}

unsigned ios_fs_extent_depth(const struct ios_fs_file *f)
{
	const struct lay_file *lf = f->priv;

	return lf && lf->tree ? lf->tree->depth : 0;
}

uint64_t ios_fs_extent_count(const struct ios_fs_file *f)
{
	const struct lay_file *lf = f->priv;

	return lf && lf->tree ? lf->nr_runs : 0;
}
