/*
 * Filesystem layouts: the entry points, /dev/ paths, and the raw and extent
 * layouts (ext3 lives in layout_ext3.c).
 *
 * A layout is built before a run, one file after the other in the order the
 * runner names them, as if each file had been written in full before the
 * next was created. Nothing is ever freed, so every layout is a pure
 * function of (type, capacity, alignment, the sequence of paths and sizes):
 * the same calls give the same blocks, whatever the machine.
 *
 * raw is what the runner did before filesystems were modelled: the first
 * file at byte 0, each next one at the first @align_bytes boundary after
 * the previous file's last byte, nothing else on the device. extent is an
 * idealised ext4/XFS: a 1 MiB area at the start holds the superblock and
 * the inodes (256 bytes each, sixteen to a block), and each file is one
 * contiguous extent from the next @align_bytes boundary; opening a file
 * reads its inode only. A path under /dev/ is the whole device in every
 * layout: file block N is device block N, it takes no space and has no
 * metadata.
 *
 * Mapping is on the simulator's hot path (every readahead window), so it
 * is arithmetic for raw, extent and /dev/, and a binary search over a few
 * runs for ext3; no layout keeps a per-block table.
 */
#include <inttypes.h>
#include <string.h>
#include "layout_int.h"

/* extent: superblock in block 0, inodes from block 1 to the end of the first MiB */
#define LAY_EXTENT_AREA_BYTES	(1024u * 1024u)
#define LAY_EXTENT_INODE_SIZE	256u
#define LAY_EXTENT_INODES_PER_BLOCK (IOS_FS_BLOCK_SIZE / LAY_EXTENT_INODE_SIZE)
#define LAY_EXTENT_MAX_INODES \
	((LAY_EXTENT_AREA_BYTES / IOS_FS_BLOCK_SIZE - 1) * LAY_EXTENT_INODES_PER_BLOCK)

static const char *const lay_type_names[] = {
	[IOS_FS_EXT3] = "ext3",
	[IOS_FS_EXTENT] = "extent",
	[IOS_FS_RAW] = "raw",
	[IOS_FS_EXT4] = "ext4",
};

const char *ios_fs_type_name(enum ios_fs_type type)
{
	if ((unsigned)type < IOS_ARRAY_SIZE(lay_type_names))
		return lay_type_names[type];
	return "unknown";
}

enum ios_fs_type ios_fs_type(const struct ios_fs *fs)
{
	return fs->type;
}


const char *ios_lay_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	unsigned u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " bytes", bytes);
		return buf;
	}
	v /= 1024;
	while (v >= 1024 && u + 1 < IOS_ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " bytes (%.1f %s)", bytes, v, units[u]);
	return buf;
}

/* ---- create / destroy ---- */

int ios_fs_create(enum ios_fs_type type, uint64_t capacity_bytes, uint64_t align_bytes,
		  struct ios_fs **out, struct ios_err *e)
{
	struct ios_fs *fs;
	char b1[64], b2[64];
	int ret;

	*out = NULL;
	if ((unsigned)type >= IOS_ARRAY_SIZE(lay_type_names))
		return IOS_ERR(e, -EINVAL, "unknown filesystem layout %d (ext3, ext4, extent or raw)",
			       (int)type);
	/* 0 is the runner's historical "no alignment": one block */
	if (!align_bytes)
		align_bytes = IOS_FS_BLOCK_SIZE;
	if (align_bytes % IOS_FS_BLOCK_SIZE)
		return IOS_ERR(e, -EINVAL,
			       "file alignment %" PRIu64 " bytes (lab.file_align) must be a "
			       "multiple of the %u-byte filesystem block", align_bytes,
			       IOS_FS_BLOCK_SIZE);
	if (capacity_bytes < IOS_FS_BLOCK_SIZE)
		return IOS_ERR(e, -EINVAL,
			       "a device of %" PRIu64 " bytes is too small for the %s layout: "
			       "it needs at least one %u-byte block", capacity_bytes,
			       ios_fs_type_name(type), IOS_FS_BLOCK_SIZE);
	if (type == IOS_FS_EXTENT &&
	    capacity_bytes / IOS_FS_BLOCK_SIZE * IOS_FS_BLOCK_SIZE <=
	    LAY_EXTENT_AREA_BYTES)
		return IOS_ERR(e, -EINVAL,
			       "a device of %s is too small for the extent layout: its inode "
			       "area alone takes the first %s",
			       ios_lay_bytes(b1, sizeof(b1), capacity_bytes),
			       ios_lay_bytes(b2, sizeof(b2), LAY_EXTENT_AREA_BYTES));

	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	fs->type = type;
	fs->capacity_bytes = capacity_bytes;
	fs->align_bytes = align_bytes;
	fs->files_tail = &fs->files;
	if (type == IOS_FS_EXTENT) {
		fs->next_byte = LAY_EXTENT_AREA_BYTES;
		fs->used_bytes = LAY_EXTENT_AREA_BYTES;
	}
	if (lay_is_ext(fs)) {
		ret = ios_lay_ext3_init(fs, e);
		if (ret) {
			free(fs);
			return ret;
		}
	}
	*out = fs;
	return 0;
}

void ios_fs_destroy(struct ios_fs *fs)
{
	struct lay_file *f, *n;

	if (!fs)
		return;
	for (f = fs->files; f; f = n) {
		n = f->next;
		free((char *)f->pub.path);
		free(f->runs);
		free(f->run_idx);
		free(f->holes);
		free(f->unwritten);
		ios_lay_ext4_free_tree(f);
		free(f);
	}
	if (lay_is_ext(fs))
		ios_lay_ext3_fini(fs);
	ios_strmap_free(&fs->names);
	free(fs);
}

/* ---- adding files ---- */

static uint64_t lay_round_up(uint64_t v, uint64_t align, bool *overflow)
{
	uint64_t r = v % align;

	if (!r)
		return v;
	if (v > UINT64_MAX - (align - r)) {
		*overflow = true;
		return UINT64_MAX;
	}
	return v + (align - r);
}

int ios_lay_nospace(const struct ios_fs *fs, const char *path, uint64_t size, uint64_t need,
		    const char *why, uint64_t free_bytes, struct ios_err *e)
{
	char b1[64], b2[64], b3[64], b4[64];

	return IOS_ERR(e, -ENOSPC,
		       "file '%s' of %s does not fit on the %s layout: it needs %s%s, %s are "
		       "still free of the device's %s", path, ios_lay_bytes(b1, sizeof(b1), size),
		       ios_fs_type_name(fs->type), ios_lay_bytes(b2, sizeof(b2), need), why,
		       ios_lay_bytes(b3, sizeof(b3), free_bytes),
		       ios_lay_bytes(b4, sizeof(b4), fs->capacity_bytes));
}

/* raw: files back to back at @align_bytes boundaries from byte 0, as src/run/layout.c did */
static int lay_raw_add(struct ios_fs *fs, struct lay_file *lf, const char *path, uint64_t size,
		       struct ios_err *e)
{
	bool ovf = false;
	uint64_t start = lay_round_up(fs->next_byte, fs->align_bytes, &ovf);
	uint64_t free_bytes = fs->capacity_bytes - fs->next_byte;

	if (lf->fit && (ovf || start >= fs->capacity_bytes || size > fs->capacity_bytes - start)) {
		/* what is left, in whole blocks; nothing (an empty file) at the end */
		if (ovf || start > fs->capacity_bytes)
			start = fs->capacity_bytes;
		ovf = false;
		size = (fs->capacity_bytes - start) / IOS_FS_BLOCK_SIZE * IOS_FS_BLOCK_SIZE;
		lf->pub.size = size;
		lf->nblocks = size / IOS_FS_BLOCK_SIZE;
	}
	if (ovf || start > fs->capacity_bytes || size > fs->capacity_bytes - start) {
		char why[96];

		snprintf(why, sizeof(why), " from byte %" PRIu64 " (the next %" PRIu64
			 "-byte boundary)", start, fs->align_bytes);
		return ios_lay_nospace(fs, path, size, size, why, free_bytes, e);
	}
	lf->start_block = start / IOS_FS_BLOCK_SIZE;
	lf->pub.first_sector = start >> 9;
	lf->pub.inode_block = IOS_FS_NO_BLOCK;
	lf->pub.dir_block = IOS_FS_NO_BLOCK;
	fs->next_byte = start + size;
	if (fs->apart && fs->next_byte < fs->capacity_bytes)
		fs->next_byte += IOS_FS_BLOCK_SIZE;
	fs->used_bytes += size;
	return 0;
}

/* extent: one extent per file at @align_bytes boundaries after the inode area */
static int lay_extent_add(struct ios_fs *fs, struct lay_file *lf, const char *path,
			  struct ios_err *e)
{
	uint64_t usable = fs->capacity_bytes / IOS_FS_BLOCK_SIZE;	/* blocks */
	bool ovf = false;
	uint64_t start = lay_round_up(fs->next_byte, fs->align_bytes, &ovf);
	uint64_t first = start / IOS_FS_BLOCK_SIZE;

	if (fs->nr_inodes >= LAY_EXTENT_MAX_INODES)
		return IOS_ERR(e, -ENOSPC,
			       "file '%s' does not fit on the extent layout: its inode area "
			       "holds %u files and all are in use", path,
			       (unsigned)LAY_EXTENT_MAX_INODES);
	if (lf->fit && (ovf || first >= usable || lf->nblocks > usable - first)) {
		if (ovf || first > usable) {
			first = usable;
			start = usable * IOS_FS_BLOCK_SIZE;
		}
		ovf = false;
		lf->nblocks = usable - first;
		lf->pub.size = lf->nblocks * IOS_FS_BLOCK_SIZE;
	}
	if (ovf || first > usable || lf->nblocks > usable - first) {
		char why[96];
		uint64_t need = lf->nblocks <= UINT64_MAX / IOS_FS_BLOCK_SIZE
				? lf->nblocks * IOS_FS_BLOCK_SIZE : lf->pub.size;

		snprintf(why, sizeof(why), " from byte %" PRIu64 " (the next %" PRIu64
			 "-byte boundary)", start, fs->align_bytes);
		return ios_lay_nospace(fs, path, lf->pub.size, need, why,
				       usable * IOS_FS_BLOCK_SIZE - fs->next_byte, e);
	}
	lf->start_block = first;
	lf->pub.first_sector = start >> 9;
	lf->pub.inode_block = 1 + fs->nr_inodes / LAY_EXTENT_INODES_PER_BLOCK;
	lf->pub.dir_block = IOS_FS_NO_BLOCK;
	fs->nr_inodes++;
	fs->next_byte = start + lf->nblocks * IOS_FS_BLOCK_SIZE;
	fs->used_bytes += lf->nblocks * IOS_FS_BLOCK_SIZE;
	return 0;
}

static bool lay_is_dev(const char *path)
{
	return !strncmp(path, "/dev/", 5);
}

static int lay_add(struct ios_fs *fs, const char *path, uint64_t size, bool fit,
		   struct ios_fs_file **out, struct ios_err *e);

int ios_fs_add_file(struct ios_fs *fs, const char *path, uint64_t size,
		    struct ios_fs_file **out, struct ios_err *e)
{
	return lay_add(fs, path, size, false, out, e);
}

int ios_fs_add_file_upto(struct ios_fs *fs, const char *path, uint64_t size,
			 struct ios_fs_file **out, struct ios_err *e)
{
	return lay_add(fs, path, size, true, out, e);
}

static int lay_add(struct ios_fs *fs, const char *path, uint64_t size, bool fit,
		   struct ios_fs_file **out, struct ios_err *e)
{
	struct lay_file *lf;
	bool dev;
	int ret;

	*out = NULL;
	if (!path || !*path)
		return IOS_ERR(e, -EINVAL, "a file needs a name (got an empty path)");
	dev = lay_is_dev(path);
	if (!dev && !size)
		return IOS_ERR(e, -EINVAL,
			       "file '%s' has a size of 0 bytes: only /dev/ paths (the whole "
			       "device) may be given without a size", path);
	/* ext3 checks names itself, on the normalised path */
	if ((dev || !lay_is_ext(fs)) &&
	    lay_names_find(&fs->names, path, strlen(path), NULL) != LAY_NONE)
		return IOS_ERR(e, -EEXIST, "file '%s' is already laid out", path);

	lf = calloc(1, sizeof(*lf));
	if (!lf)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	lf->pub.path = strdup(path);
	if (!lf->pub.path) {
		free(lf);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	lf->pub.priv = lf;
	lf->fit = fit;
	lf->pub.inode_block = IOS_FS_NO_BLOCK;
	lf->pub.dir_block = IOS_FS_NO_BLOCK;
	if (dev) {
		lf->pub.is_dev = true;
		lf->pub.size = fs->capacity_bytes;
		lf->nblocks = fs->capacity_bytes / IOS_FS_BLOCK_SIZE +
			      !!(fs->capacity_bytes % IOS_FS_BLOCK_SIZE);
		ret = 0;
	} else {
		lf->pub.size = size;
		lf->nblocks = size / IOS_FS_BLOCK_SIZE + !!(size % IOS_FS_BLOCK_SIZE);
		switch (fs->type) {
		case IOS_FS_RAW:
			ret = lay_raw_add(fs, lf, path, size, e);
			break;
		case IOS_FS_EXTENT:
			ret = lay_extent_add(fs, lf, path, e);
			break;
		default:
			ret = ios_lay_ext3_add(fs, lf, path, e);
			break;
		}
	}
	if (!ret && (dev || !lay_is_ext(fs)))
		ret = lay_names_add(&fs->names, path, strlen(path), LAY_FILE, lf) ?
		      IOS_ERR(e, -ENOMEM, "out of memory") : 0;
	if (ret) {
		/* a failed add changed nothing but, for ENOMEM, the ext3 directories made */
		free((char *)lf->pub.path);
		free(lf->runs);
		free(lf->run_idx);
		free(lf);
		return ret;
	}
	*fs->files_tail = lf;
	fs->files_tail = &lf->next;
	*out = &lf->pub;
	return 0;
}

/* ---- mapping ---- */

void ios_fs_map_block(const struct ios_fs *fs, const struct ios_fs_file *f, uint64_t fblock,
		      struct ios_fs_map *out)
{
	const struct lay_file *lf = f->priv;

	if (!lf) {
		/* the page cache's view of the whole device (its metadata cache) */
		uint64_t n = f->size / IOS_FS_BLOCK_SIZE;

		IOS_BUG_ON(!f->is_dev || fblock >= n);
		out->block = fblock;
		out->contig = n - fblock;
		out->nr_meta = 0;
		out->meta[0] = out->meta[1] = out->meta[2] = IOS_FS_NO_BLOCK;
		out->meta_ord[0] = out->meta_ord[1] = out->meta_ord[2] = 0;
		return;
	}
	IOS_BUG_ON(fblock >= lf->nblocks);
	if (!f->is_dev && fs->type == IOS_FS_EXT3) {
		ios_lay_ext3_map(fs, lf, fblock, out);
		return;
	}
	if (!f->is_dev && fs->type == IOS_FS_EXT4) {
		ios_lay_ext4_map(fs, lf, fblock, out);
		return;
	}
	out->block = lf->start_block + fblock;
	out->contig = lf->nblocks - fblock;
	out->nr_meta = 0;
	out->meta[0] = out->meta[1] = out->meta[2] = IOS_FS_NO_BLOCK;
	out->meta_ord[0] = out->meta_ord[1] = out->meta_ord[2] = 0;
}

void ios_fs_set_apart(struct ios_fs *fs)
{
	fs->apart = true;
}

void ios_fs_set_creator(struct ios_fs *fs, uint32_t pid)
{
	if (fs->type == IOS_FS_EXT3)
		ios_lay_ext3_set_creator(fs, pid);
}

uint64_t ios_fs_used_bytes(const struct ios_fs *fs)
{
	if (lay_is_ext(fs))
		return ios_lay_ext3_used_bytes(fs);
	return fs->used_bytes;
}

uint64_t ios_fs_free_inodes(const struct ios_fs *fs)
{
	switch (fs->type) {
	case IOS_FS_EXT3:
	case IOS_FS_EXT4:
		return ios_lay_ext3_free_inodes(fs);
	case IOS_FS_EXTENT:
		return LAY_EXTENT_MAX_INODES - fs->nr_inodes;
	default:
		return UINT64_MAX;
	}
}
