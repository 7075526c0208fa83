/*
 * What layout_ext3.c and layout_ext4.c share: ext3's group geometry, the
 * groups' free lists, directories and inodes. ext4 is the same structure
 * with a flex group size (flex != 0): layout_ext3.c asks layout_ext4.c
 * where a group's metadata sits and hands it the file's allocation.
 */
#ifndef IOSCHED_FS_LAYOUT_EXT_INT_H
#define IOSCHED_FS_LAYOUT_EXT_INT_H

#include "layout_int.h"

#define EXT3_BPG		32768u	/* blocks per group: one 4 KiB bitmap */
#define EXT3_INODE_SIZE		256u
#define EXT3_INODE_RATIO	16384u
#define EXT3_INODES_PER_BLOCK	(IOS_FS_BLOCK_SIZE / EXT3_INODE_SIZE)
#define EXT3_DESC_PER_BLOCK	(IOS_FS_BLOCK_SIZE / 32u)
#define EXT3_ADDR_PER_BLOCK	(IOS_FS_BLOCK_SIZE / 4u)
#define EXT3_MAX_FS_BLOCKS	0xffffffffull	/* 32-bit block numbers */
#define EXT3_ROOT_INO		2u
#define EXT3_FIRST_INO		11u		/* lost+found; 1-10 are reserved */
#define EXT3_LPF_BLOCKS		4u		/* mke2fs makes lost+found 16 KiB */
#define EXT3_SPARE_BLOCKS	50u		/* a last group needs this much data */

/* First file block of the single-, double- and triple-indirect trees. */
#define EXT3_IND_FIRST		12ull
#define EXT3_DIND_FIRST		(EXT3_IND_FIRST + EXT3_ADDR_PER_BLOCK)
#define EXT3_TIND_FIRST		(EXT3_DIND_FIRST + (uint64_t)EXT3_ADDR_PER_BLOCK * EXT3_ADDR_PER_BLOCK)

/*
 * ext3_max_size() for 4 KiB blocks: i_blocks counts 512-byte sectors in
 * 32 bits, data and indirect blocks together, so a dense file stops at
 * (2^32 - 1) / 8 blocks minus the most indirect blocks a file can have.
 */
#define EXT3_MAX_FILE_BLOCKS \
	((0xffffffffull >> 3) - (1 + (1 + 1024) + (1 + 1024 + 1024 * 1024)))
#define EXT3_MAX_FILE_BYTES	(EXT3_MAX_FILE_BLOCKS * IOS_FS_BLOCK_SIZE)

/*
 * Free space of a group: a few sorted extents. A file's first block goes to
 * the group's start plus the creator's colour, which leaves a hole before
 * it for later files, so a group is not simply a prefix of used blocks.
 */
#define EXT3_MAX_FREE 64

struct ext3_extent {
	uint64_t s, e;			/* [s, e) */
};

struct ext3_group {
	uint64_t data;			/* first block after the group's metadata */
	uint64_t end;			/* one past the group's last block */
	uint64_t nfree_blocks;
	unsigned nfree;
	struct ext3_extent free[EXT3_MAX_FREE];
	uint32_t used_inodes;		/* inodes taken: a prefix of the bitmap */
	uint32_t used_dirs;
};

struct ext3_dir {
	uint32_t ino;
	unsigned group;
	uint64_t block;			/* its one data block */
	struct ext3_dir *next;
};

struct ext3_geom {
	uint64_t blocks;		/* after dropping a too-short last group */
	unsigned ngroups;
	unsigned gdt;			/* group-descriptor blocks */
	unsigned rsv;			/* reserved GDT blocks (resize_inode) */
	unsigned ipg;			/* inodes per group */
	unsigned itb;			/* inode-table blocks per group */
};

struct lay_ext3 {
	struct ext3_geom geo;
	/*
	 * ext4 (layout_ext4.c): groups per flex group (16, mke2fs's default;
	 * 0 on ext3) and descriptors per block (64 with ext4's 64-byte
	 * descriptors, 128 on ext3)
	 */
	unsigned flex;
	unsigned desc_per_block;
	struct lay_file *journal;	/* ext4: inode 8, NULL when too small for one */
	uint32_t creator_pid;		/* of the process that writes the next file */
	uint64_t free_blocks;
	uint64_t free_inodes;
	uint64_t ndirs;
	struct ext3_group *g;
	/*
	 * a bit per group: set up and no free extent left. ext3_take_goal
	 * skips such groups 64 at a time, as ext3_new_blocks (2.6.32) skips a
	 * group whose descriptor counts no free blocks without its bitmap.
	 */
	uint64_t *full;
	struct ext3_dir root;
	struct ext3_dir *dirs;		/* every directory made, for freeing */
};

/* layout_ext3.c, for layout_ext4.c */
bool ios_lay_ext3_has_super(uint64_t g);
struct ext3_group *ios_lay_ext3_grp(const struct lay_ext3 *x, unsigned g);
uint64_t ios_lay_ext3_take_goal(struct lay_ext3 *x, unsigned *g, uint64_t *goal, uint64_t max,
				uint64_t *len, bool commit);
uint64_t ios_lay_ext3_take(struct lay_ext3 *x, unsigned *g, uint64_t max, uint64_t *len);
uint32_t ios_lay_ext3_new_inode(struct lay_ext3 *x, unsigned g, bool dir);
uint64_t ios_lay_ext3_inode_block(const struct lay_ext3 *x, uint32_t ino);
long ios_lay_ext3_any_inode_group(const struct lay_ext3 *x, unsigned from);
int ios_lay_ext3_mkdirs(struct ios_fs *fs, struct ext3_dir **dir, const char *key,
			const size_t *ends, unsigned first_new, unsigned nc, struct ios_err *e);

/* layout_ext4.c: the flex_bg group layout */
void ios_lay_ext4_group_init(const struct lay_ext3 *x, unsigned g, struct ext3_group *gr);
uint64_t ios_lay_ext4_group_free(const struct lay_ext3 *x, unsigned g);
bool ios_lay_ext4_fits(const struct ext3_geom *geo);
uint64_t ios_lay_ext4_inode_table(const struct lay_ext3 *x, unsigned g);
uint64_t ios_lay_ext4_block_bitmap(const struct lay_ext3 *x, unsigned g);
uint64_t ios_lay_ext4_inode_bitmap(const struct lay_ext3 *x, unsigned g);
unsigned ios_lay_ext4_dir_group(const struct lay_ext3 *x, unsigned orlov_group);
long ios_lay_ext4_file_group(const struct lay_ext3 *x, const struct ext3_dir *dir);
unsigned ios_lay_ext4_dir_block_group(const struct lay_ext3 *x, unsigned g);
/* layout_ext4.c: files (after the directories were made) and the journal */
int ios_lay_ext4_add_file(struct ios_fs *fs, struct lay_file *lf, const char *path,
			  struct ext3_dir *dir, const char *key, size_t keylen, struct ios_err *e);
int ios_lay_ext4_make_journal(struct ios_fs *fs, struct ios_err *e);

#endif
