/*
 * Filesystem layouts: where a file's blocks and its metadata live on the
 * device.
 *
 * The lab lays files out before a run (laying them out is not I/O of the
 * run). A layout answers three questions for the page cache:
 *  - which device block holds block N of a file, and how many blocks after
 *    it are contiguous on disk (so one bio can cover them);
 *  - which metadata block must be read before that mapping is known (an
 *    ext3 indirect block), if any;
 *  - which metadata blocks an open() reads (directory and inode blocks).
 *
 * Four layouts (lab.fs):
 *  - ext3: 4 KiB blocks in 128 MiB block groups, each starting with its
 *    bitmaps and inode table; a file gets 12 direct blocks, then an
 *    indirect block ahead of every 1024 data blocks (and a double-indirect
 *    block ahead of the second indirect, as ext3 allocates them); the files
 *    of a directory are allocated from the directory's group onwards, and
 *    directories are spread over the groups;
 *  - ext4: ext3's groups with 64-byte descriptors and flex_bg (the
 *    bitmaps and inode tables of 16 groups packed in the first), files
 *    mapped by extents (four in the inode, then a tree block a mapping
 *    reads first), allocated from the second group of their inode's flex
 *    group, and a journal region from mke2fs's table (layout_ext4.c);
 *  - extent: each file one contiguous extent (ext4 or XFS writing a file
 *    at once); an open reads only the inode;
 *  - raw: no filesystem: files are plain LBA ranges, nothing to read on
 *    open (the foundation's behaviour).
 * A name under /dev/ is the whole device whatever the layout.
 */
#ifndef IOSCHED_FS_H
#define IOSCHED_FS_H

#include <stdbool.h>
#include <stdint.h>
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_FS_BLOCK_SIZE 4096u
#define IOS_FS_BLOCK_SECTORS (IOS_FS_BLOCK_SIZE / 512u)
#define IOS_FS_NO_BLOCK UINT64_MAX

enum ios_fs_type {
	IOS_FS_EXT3 = 0,
	IOS_FS_EXTENT,
	IOS_FS_RAW,
	IOS_FS_EXT4,
};

struct ios_fs;

/* A file laid out on the device. */
struct ios_inode;

struct ios_fs_file {
	/*
	 * Cold first: size and priv, which each request reads, end the struct
	 * so that they share a cache line with the layout's own mapping state
	 * that follows (struct lay_file; issue 34).
	 */
	const char *path;		/* as named by the job (directory joined) */
	uint64_t first_sector;		/* raw and extent: where the file starts */
	uint64_t inode_block;		/* device block holding its inode, or IOS_FS_NO_BLOCK */
	uint64_t dir_block;		/* device block of its directory entry, or IOS_FS_NO_BLOCK */
	unsigned group;			/* ext3: block group of its first data block */
	bool is_dev;			/* /dev/...: identity mapping over the device */
	struct ios_inode *inode;	/* its page cache, once ios_vfs_inode made it */
	uint64_t size;			/* bytes */
	void *priv;			/* layout private mapping state */
};

/* Result of mapping one file block. */
struct ios_fs_map {
	uint64_t block;			/* device block (4 KiB units) holding the file block */
	/*
	 * File blocks from here (>= 1) that follow contiguously on disk and
	 * need no metadata beyond meta[]: a caller may cover them with one
	 * bio after reading meta[].
	 */
	uint64_t contig;
	/*
	 * Metadata blocks to read, in order, before the mapping is known:
	 * ext3's double-indirect then indirect block (triple-indirect first for
	 * files past 4 GiB). Empty for direct blocks, extent and raw layouts.
	 */
	uint64_t meta[3];
	/*
	 * Each meta[] block's number among the file's own metadata blocks
	 * (0, 1, 2 ... in the order they were allocated): a dense key for a
	 * cache of what is known about them (the page cache's memo, vfs.c).
	 */
	uint32_t meta_ord[3];
	unsigned nr_meta;
};

/*
 * Create a layout of @type on a device of @capacity_bytes. @align_bytes
 * (a multiple of 4096) is where raw and extent files start (lab.file_align).
 * -EINVAL with a message when the device is too small for even one block
 * group's metadata.
 */
int ios_fs_create(enum ios_fs_type type, uint64_t capacity_bytes, uint64_t align_bytes,
		  struct ios_fs **out, struct ios_err *e) IOS_MUST_CHECK;
void ios_fs_destroy(struct ios_fs *fs);
enum ios_fs_type ios_fs_type(const struct ios_fs *fs);
const char *ios_fs_type_name(enum ios_fs_type type);

/*
 * Lay out a file of @size bytes named @path (the directory part, if any,
 * decides the ext3 group). Files are laid out in call order, as if written
 * one after the other. A /dev/ path maps the whole device and ignores
 * @size. -ENOSPC with a message naming the file and the space needed and
 * left when it does not fit. The returned file is owned by @fs.
 */
int ios_fs_add_file(struct ios_fs *fs, const char *path, uint64_t size,
		    struct ios_fs_file **out, struct ios_err *e) IOS_MUST_CHECK;

/*
 * As ios_fs_add_file, but a file of @size bytes that does not fit gets the
 * space there is, in whole blocks (ext3: with the indirect blocks those
 * need): (*out)->size says how much. This is a file whose writes allocated
 * blocks until the filesystem was full; on a full one it is empty (size 0,
 * no block: never map it). -ENOSPC, as ios_fs_add_file, only when no inode
 * is left (ext3: also no block for a new directory on its path).
 */
int ios_fs_add_file_upto(struct ios_fs *fs, const char *path, uint64_t size,
			 struct ios_fs_file **out, struct ios_err *e) IOS_MUST_CHECK;

/*
 * The pid of the process that writes the files laid out from now on. ext3
 * puts a file's first block (pid % 16) sixteenths of a block group after
 * the start of its inode's group (ext3_find_near's colour); 0 by default.
 * The other layouts ignore it.
 */
void ios_fs_set_creator(struct ios_fs *fs, uint32_t pid);
/*
 * raw and extent: leave at least one block between two files, so no two
 * extents touch and no request merged from adjacent sectors spans two
 * files (a real host maps each request to one file: host.h).
 */
void ios_fs_set_apart(struct ios_fs *fs);

/* Map file block @fblock (4 KiB units) of @f; @fblock must be inside the file. */
void ios_fs_map_block(const struct ios_fs *fs, const struct ios_fs_file *f, uint64_t fblock,
		      struct ios_fs_map *out);

/*
 * ext4: the journal (inode 8) as a file: its size, and its blocks through
 * ios_fs_map_block. NULL on the other layouts and on an ext4 too small for
 * one (under 2048 blocks, as mke2fs).
 */
const struct ios_fs_file *ios_fs_journal(const struct ios_fs *fs);
/* ext4: the levels of @f's extent tree below its inode (0: its extents fit in the inode) */
unsigned ios_fs_extent_depth(const struct ios_fs_file *f);
/* ext4: @f's extents (0 on the other layouts) */
uint64_t ios_fs_extent_count(const struct ios_fs_file *f);

/* Bytes of the device used by data and metadata so far. */
uint64_t ios_fs_used_bytes(const struct ios_fs *fs);
/*
 * Inodes still free: how many more files (and ext3 directories) can be
 * made whatever their size; UINT64_MAX for raw, which has no inodes.
 */
uint64_t ios_fs_free_inodes(const struct ios_fs *fs);

/*
 * ---- Allocation after the layout (alloc.c): what file operations change ----
 *
 * A laid-out file starts with every block allocated where the layout put
 * it. fallocate= none / truncate (a sparse file), hole punching, truncation
 * and unlink make holes; writes and fallocate fill them again. A block
 * allocated again comes back at the place the layout gave it (the
 * allocator's goal for that file block), so holes never move data: the
 * model tracks which blocks are allocated, not fragmentation. A hole reads
 * as zeros without I/O. ios_fs_used_bytes() follows the changes (data
 * blocks only: the indirect blocks a sparse ext3 file would not need are
 * still counted).
 */

/* Make file blocks [@fblock, @fblock + @n) holes; *@freed gets how many were allocated. */
int ios_fs_punch(struct ios_fs *fs, struct ios_fs_file *f, uint64_t fblock, uint64_t n,
		 uint64_t *freed) IOS_MUST_CHECK;
/* Allocate the holes among [@fblock, @fblock + @n); returns how many there were. */
uint64_t ios_fs_allocate(struct ios_fs *fs, struct ios_fs_file *f, uint64_t fblock, uint64_t n);
/*
 * fallocate(): the holes among [@fblock, @fblock + @n) become allocated but
 * unwritten (ext4's unwritten extents: they read as zeros without I/O until
 * written); *@got gets how many. 0 or -ENOMEM.
 */
int ios_fs_preallocate(struct ios_fs *fs, struct ios_fs_file *f, uint64_t fblock, uint64_t n,
		       uint64_t *got) IOS_MUST_CHECK;
/* Every allocated block of @f unwritten (a file made by fallocate). 0 or -ENOMEM. */
int ios_fs_mark_unwritten(struct ios_fs_file *f) IOS_MUST_CHECK;
/* Unwritten blocks among [@fblock, @fblock + @n). */
uint64_t ios_fs_unwritten_in(const struct ios_fs_file *f, uint64_t fblock, uint64_t n);
/* A write reached [@fblock, @fblock + @n): its unwritten blocks are written now (how many). */
uint64_t ios_fs_mark_written(struct ios_fs_file *f, uint64_t fblock, uint64_t n);
/* Does file block @fblock read as zeros without I/O (a hole, or unwritten)? */
bool ios_fs_reads_zero(const struct ios_fs_file *f, uint64_t fblock);
/* Is file block @fblock a hole? */
bool ios_fs_is_hole(const struct ios_fs_file *f, uint64_t fblock);
/* Holes among [@fblock, @fblock + @n). */
uint64_t ios_fs_holes_in(const struct ios_fs_file *f, uint64_t fblock, uint64_t n);
/* Blocks of @f allocated now. */
uint64_t ios_fs_allocated_blocks(const struct ios_fs_file *f);
/*
 * unlink(): the file's blocks and inode are freed and it no longer exists
 * (ios_fs_exists); its mapping stays valid, as the blocks of an unlinked
 * file may still be under I/O. ios_fs_recreate() makes it exist again, empty
 * (every block a hole), with the same inode and place.
 */
void ios_fs_unlink(struct ios_fs *fs, struct ios_fs_file *f);
int ios_fs_recreate(struct ios_fs *fs, struct ios_fs_file *f) IOS_MUST_CHECK;
bool ios_fs_exists(const struct ios_fs_file *f);

/*
 * The metadata blocks a change to @f touches, for the page cache to read
 * (when cold) and dirty. ext3: the directory block, the inode-table block,
 * the inode bitmap and descriptor block of the inode's group, the block
 * bitmap and descriptor block of the group holding file block @fblock.
 * extent: the inode block, and block 0 (the superblock, standing for the
 * free-space information an extent filesystem keeps); raw and /dev/: none.
 * Absent ones are IOS_FS_NO_BLOCK.
 */
struct ios_fs_meta_blocks {
	uint64_t dir;
	uint64_t inode;
	uint64_t inode_bitmap;
	uint64_t inode_desc;
	uint64_t block_bitmap;
	uint64_t block_desc;
};
void ios_fs_file_meta(const struct ios_fs *fs, const struct ios_fs_file *f, uint64_t fblock,
		      struct ios_fs_meta_blocks *out);

#ifdef __cplusplus
}
#endif

#endif
