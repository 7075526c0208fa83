/*
 * Private structures of the filesystem layouts (src/fs/layout*.c).
 *
 * layout.c owns the public entry points, the name table, /dev/ paths and
 * the two simple layouts (raw and extent); layout_ext3.c owns the ext3
 * model. A laid-out file is a struct lay_file whose first member is the
 * public struct ios_fs_file (pub.priv points back at it). An ext3 file keeps
 * no per-block table: its data and indirect blocks were allocated as one
 * stream (the order ext3 writes them in), and the stream is stored as the
 * few device runs it landed in, so a mapping is arithmetic plus a binary
 * search over those runs.
 */
#ifndef IOSCHED_FS_LAYOUT_INT_H
#define IOSCHED_FS_LAYOUT_INT_H

#include <stddef.h>
#include "iosched/fs.h"
#include "iosched/strmap.h"

/* A piece of an allocation stream: stream positions [pos, pos + len) sit on device blocks [block, block + len). */
#define LAY_RUN_IDX_SHIFT 10
struct lay_run {
	uint64_t pos;
	uint64_t block;
	uint64_t len;
};

struct lay_file {
	struct ios_fs_file pub;
	/*
	 * What mapping a block reads, right after pub's size and priv (issue
	 * 34: with 10,000 files each cache line is a miss per request)
	 */
	uint64_t nblocks;		/* file blocks (the last may be partial) */
	struct lay_run *runs;		/* ext3: the stream's runs, sorted by pos */
	size_t nr_runs;
	/*
	 * ext3: the run holding stream position w << LAY_RUN_IDX_SHIFT, for each
	 * window w, so that a mapping starts at its run or a step before it
	 * instead of a binary search (NULL: no memory for it, search instead)
	 */
	uint32_t *run_idx;
	/* alloc.c: holes (punched, or never allocated), one bit per block; NULL: none */
	uint64_t nr_holes;
	/* ... and blocks preallocated by fallocate() but never written (unwritten extents) */
	uint64_t nr_unwritten;
	/*
	 * ext3: device blocks of the three indirect blocks every mapping of
	 * their range needs, the IND, the DIND and the TIND (IOS_FS_NO_BLOCK
	 * past the file's end), found once rather than at each mapping
	 */
	uint64_t top_ind[3];
	uint64_t *holes;		/* the holes' bits */
	uint64_t *unwritten;		/* the unwritten blocks' bits */
	uint64_t start_block;		/* raw, extent, /dev/: device block of file block 0 */
	uint32_t ino;			/* ext3 inode number, 0 elsewhere */
	bool fit;			/* ios_fs_add_file_upto: take what space there is */
	bool unlinked;			/* unlinked: its blocks and inode are free */
	/* ext4 (layout_ext4.c): runs[] are the extents (pos = file block); the tree's blocks */
	struct lay_ext4_tree *tree;
	struct lay_file *next;		/* every file of the layout, in call order */
};

/* Path -> file or directory: an ios_strmap whose tag is the kind. */
enum lay_kind { LAY_NONE = 0, LAY_FILE, LAY_DIR };

struct lay_ext3;

struct ios_fs {
	enum ios_fs_type type;
	uint64_t capacity_bytes;
	uint64_t align_bytes;
	/* raw and extent */
	uint64_t next_byte;		/* end of the last file laid out */
	uint64_t used_bytes;
	bool apart;			/* ios_fs_set_apart: a block between files */
	uint64_t nr_inodes;		/* extent: inodes handed out */
	struct ios_strmap names;
	struct lay_file *files, **files_tail;
	struct lay_ext3 *ext3;
};

/* Kind of @key (LAY_NONE if absent); *obj gets the object. */
static inline enum lay_kind lay_names_find(const struct ios_strmap *t, const char *key, size_t len,
					   void **obj)
{
	unsigned kind;

	return ios_strmap_find(t, key, len, obj, &kind) ? (enum lay_kind)kind : LAY_NONE;
}

static inline int lay_names_add(struct ios_strmap *t, const char *key, size_t len,
				enum lay_kind kind, void *obj)
{
	return ios_strmap_add(t, key, len, kind, obj);
}

/* Human-readable byte count for messages ("234179072 bytes (223.3 MiB)"). */
const char *ios_lay_bytes(char *buf, size_t len, uint64_t bytes);

/* -ENOSPC naming @path, its @size, what it @need-s (@why says more), what is free, the capacity. */
int ios_lay_nospace(const struct ios_fs *fs, const char *path, uint64_t size, uint64_t need,
		    const char *why, uint64_t free_bytes, struct ios_err *e);

/* layout_ext3.c */
int ios_lay_ext3_init(struct ios_fs *fs, struct ios_err *e);
void ios_lay_ext3_fini(struct ios_fs *fs);
/* alloc.c: blocks and inodes freed (> 0) or taken back (< 0) by file operations */
void ios_lay_ext3_adjust(struct ios_fs *fs, int64_t blocks, int64_t inodes);
/* The bitmap and descriptor blocks of the group holding device block @block */
void ios_lay_ext3_group_meta(const struct ios_fs *fs, uint64_t block, uint64_t *block_bitmap,
			     uint64_t *desc);
/* ... and of the inode @ino's group */
void ios_lay_ext3_inode_meta(const struct ios_fs *fs, uint32_t ino, uint64_t *inode_bitmap,
			     uint64_t *desc);
int ios_lay_ext3_add(struct ios_fs *fs, struct lay_file *lf, const char *path, struct ios_err *e);
void ios_lay_ext3_map(const struct ios_fs *fs, const struct lay_file *lf, uint64_t fblock,
		      struct ios_fs_map *out);
uint64_t ios_lay_ext3_used_bytes(const struct ios_fs *fs);
uint64_t ios_lay_ext3_free_inodes(const struct ios_fs *fs);
void ios_lay_ext3_set_creator(struct ios_fs *fs, uint32_t pid);
/* layout_ext4.c (the rest of ext4 shares layout_ext3.c's entry points) */
void ios_lay_ext4_free_tree(struct lay_file *lf);
void ios_lay_ext4_map(const struct ios_fs *fs, const struct lay_file *lf, uint64_t fblock,
		      struct ios_fs_map *out);

/* ext3 and ext4 share the group machinery of layout_ext3.c */
static inline bool lay_is_ext(const struct ios_fs *fs)
{
	return fs->type == IOS_FS_EXT3 || fs->type == IOS_FS_EXT4;
}

#endif
