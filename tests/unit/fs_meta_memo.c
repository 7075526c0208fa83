/*
 * Description: the page cache's memo of a file's indirect blocks (vfs.c)
 * answers exactly as the lookup in the metadata cache would. An O_DIRECT
 * read of an 8 GiB ext3 file needs its double-indirect and indirect
 * blocks: read cold, then found cached (the memo's hit: only the data is
 * read). When one of them leaves the cache between two reads (removed, as
 * an invalidation does, or evicted by memory pressure from a buffered
 * reader of another file), the next read must read it again, and only it,
 * as it would with no memo; two readers of a block being read share that
 * read. The expected blocks come from ios_fs_map_block, the requests from
 * the scheduler rig's fake device.
 */
#include <string.h>
#include "harness.h"
#include "fs/vfs_int.h"

#define DEV_BYTES	(64ull << 30)
#define FILE_BYTES	(8ull << 30)

struct env {
	struct t_rig *r;
	struct ios_sim sim;
	struct ios_fs *fs;
	struct ios_fs_file *big, *other;
	struct ios_vfs *vfs;
	struct ios_inode *in, *other_in;
	struct ios_ioc *ioc;
	size_t seen;		/* requests of r->issued[] already looked at */
	uint64_t now;
};

static int env_init(struct env *v, uint64_t memory)
{
	struct ios_vm_tunables vm = { memory, 20, 10, 3000, 500 };
	struct ios_vfs_config vc;
	struct ios_err e = { 0 };

	memset(v, 0, sizeof(*v));
	v->r = t_rig_new("noop", 64, 0, NULL);
	if (!v->r)
		return -1;
	/* the metadata cache's table spans the device: keep it small */
	v->r->q->capacity_sectors = DEV_BYTES / IOS_SECTOR_SIZE;
	if (ios_sim_init(&v->sim) || ios_fs_create(IOS_FS_EXT3, DEV_BYTES, 1 << 20, &v->fs, &e) ||
	    ios_fs_add_file(v->fs, "/data/big", FILE_BYTES, &v->big, &e) ||
	    ios_fs_add_file(v->fs, "/data/other", 64ull << 20, &v->other, &e)) {
		fprintf(stderr, "set-up: %s\n", e.msg);
		return -1;
	}
	memset(&vc, 0, sizeof(vc));
	vc.sim = &v->sim;
	vc.q = v->r->q;
	vc.fs = v->fs;
	vc.vm = &vm;
	vc.read_ahead_bytes = 128 << 10;
	vc.flusher_pid = 100;
	v->vfs = ios_vfs_create(&vc, &e);
	if (!v->vfs) {
		fprintf(stderr, "ios_vfs_create: %s\n", e.msg);
		return -1;
	}
	v->in = ios_vfs_inode(v->vfs, v->big);
	v->other_in = ios_vfs_inode(v->vfs, v->other);
	v->ioc = t_ioc(1000);
	return v->in && v->other_in ? 0 : -1;
}

static void env_free(struct env *v)
{
	ios_vfs_destroy(v->vfs);
	t_rig_free(v->r);
	ios_fs_destroy(v->fs);
	ios_sim_destroy(&v->sim);
}

static void op_woken(struct ios_vfs_op *op, uint64_t now)
{
	(void)now;
	*(bool *)op->priv = true;
}

/*
 * Run the ops (all started together, each on its own open file) to the end,
 * completing the device's requests oldest first. The sectors of the
 * requests issued go to @sec (at most @max), their number is returned.
 */
static size_t run_ops(struct env *v, struct ios_vfs_op *ops, bool *woken, size_t n, uint64_t *sec,
		      size_t max)
{
	bool done[4] = { false };
	size_t nsec = 0, left = n;

	for (size_t i = 0; i < n; i++) {
		ops[i].priv = &woken[i];
		woken[i] = true;
	}
	while (left) {
		for (size_t i = 0; i < n; i++) {
			if (done[i] || !woken[i])
				continue;
			woken[i] = false;
			if (ios_vfs_step(v->vfs, &ops[i], v->now) == IOS_VFS_DONE) {
				done[i] = true;
				left--;
			}
		}
		for (; v->seen < v->r->nr_issued; v->seen++)
			if (nsec < max)
				sec[nsec++] = v->r->issued[v->seen]->sector;
			else
				nsec++;
		if (left) {
			v->now += 100000;
			if (!t_complete_next(v->r, v->now))
				break;	/* nothing in flight and an op still waiting: a bug */
		}
	}
	return left ? SIZE_MAX : nsec;
}

/* One O_DIRECT 4 KiB read of the big file at @off; sectors as run_ops. */
static size_t direct_read(struct env *v, uint64_t off, uint64_t *sec, size_t max)
{
	struct ios_file file;
	struct ios_vfs_op op;
	bool woken;

	ios_vfs_file_init(v->vfs, &file, v->in, v->ioc, 0);
	memset(&op, 0, sizeof(op));
	op.type = IOS_VFS_DIRECT_READ;
	op.file = &file;
	op.off = off;
	op.len = 4096;
	op.wake = op_woken;
	return run_ops(v, &op, &woken, 1, sec, max);
}

static uint64_t meta_reads(const struct env *v)
{
	struct ios_vfs_stats st;

	ios_vfs_get_stats(v->vfs, &st);
	return st.meta_reads;
}

/* Drop metadata block @block from the cache, as an invalidation would. */
static void drop_meta(struct env *v, uint64_t block)
{
	struct pc_page *p = ios_pc_lookup(v->vfs->meta, block);

	if (p)
		ios_pc_remove(v->vfs, p);
}

#define S(b) ((b) * IOS_FS_BLOCK_SECTORS)

static int test_removed_block_read_again(void)
{
	/* two reads under different indirect blocks of the double-indirect tree */
	uint64_t off1 = 1ull << 30, off2 = (2ull << 30) + 8192, sec[8];
	struct ios_fs_map m1, m2;
	struct env v;

	T_ASSERT_EQ(env_init(&v, 1ull << 30), 0);
	ios_fs_map_block(v.fs, v.big, off1 / IOS_FS_BLOCK_SIZE, &m1);
	ios_fs_map_block(v.fs, v.big, off2 / IOS_FS_BLOCK_SIZE, &m2);
	T_ASSERT_EQ(m1.nr_meta, 2);
	T_ASSERT_EQ(m2.nr_meta, 2);
	T_ASSERT_U64_EQ(m1.meta[0], m2.meta[0]);
	T_ASSERT(m1.meta[1] != m2.meta[1]);

	/* cold: double-indirect, indirect, data */
	T_ASSERT_EQ(direct_read(&v, off1, sec, 8), 3);
	T_ASSERT_U64_EQ(sec[0], S(m1.meta[0]));
	T_ASSERT_U64_EQ(sec[1], S(m1.meta[1]));
	T_ASSERT_U64_EQ(sec[2], S(m1.block));
	T_ASSERT_U64_EQ(meta_reads(&v), 2);
	/* cached (the memo's hit from the second time on): the data alone */
	for (int k = 0; k < 3; k++) {
		T_ASSERT_EQ(direct_read(&v, off1, sec, 8), 1);
		T_ASSERT_U64_EQ(sec[0], S(m1.block));
	}
	T_ASSERT_U64_EQ(meta_reads(&v), 2);

	/* the indirect block goes: it is read again, the double-indirect is not */
	drop_meta(&v, m1.meta[1]);
	T_ASSERT_EQ(direct_read(&v, off1, sec, 8), 2);
	T_ASSERT_U64_EQ(sec[0], S(m1.meta[1]));
	T_ASSERT_U64_EQ(sec[1], S(m1.block));
	T_ASSERT_U64_EQ(meta_reads(&v), 3);
	T_ASSERT_EQ(direct_read(&v, off1, sec, 8), 1);

	/* a second indirect block, then the shared double-indirect goes */
	T_ASSERT_EQ(direct_read(&v, off2, sec, 8), 2);
	T_ASSERT_U64_EQ(sec[0], S(m2.meta[1]));
	T_ASSERT_EQ(direct_read(&v, off2, sec, 8), 1);
	drop_meta(&v, m1.meta[0]);
	T_ASSERT_EQ(direct_read(&v, off2, sec, 8), 2);
	T_ASSERT_U64_EQ(sec[0], S(m1.meta[0]));
	T_ASSERT_U64_EQ(sec[1], S(m2.block));
	/* the first indirect block stayed: its memo outlived a removal of another page */
	T_ASSERT_EQ(direct_read(&v, off1, sec, 8), 1);
	T_ASSERT_U64_EQ(sec[0], S(m1.block));
	T_ASSERT_U64_EQ(meta_reads(&v), 5);

	/* an unrelated page (the other file's data) going changes nothing */
	{
		struct pc_page *p = ios_pc_alloc(v.vfs, v.other_in, 0);

		T_ASSERT(p != NULL);
		p->flags |= PG_UPTODATE;
		ios_pc_lru_update(v.vfs, p);
		ios_pc_remove(v.vfs, p);
	}
	T_ASSERT_EQ(direct_read(&v, off1, sec, 8), 1);
	T_ASSERT_U64_EQ(meta_reads(&v), 5);
	env_free(&v);
	return T_PASS;
}

static int test_shared_read_of_dropped_block(void)
{
	uint64_t off = 3ull << 30, sec[8];
	struct ios_file files[2];
	struct ios_vfs_op ops[2];
	bool woken[2];
	struct ios_fs_map m;
	struct env v;

	T_ASSERT_EQ(env_init(&v, 1ull << 30), 0);
	ios_fs_map_block(v.fs, v.big, off / IOS_FS_BLOCK_SIZE, &m);
	T_ASSERT_EQ(direct_read(&v, off, sec, 8), 3);
	T_ASSERT_EQ(direct_read(&v, off, sec, 8), 1);
	drop_meta(&v, m.meta[1]);
	/* two readers: the first reads the indirect block, the second waits for that read */
	for (int i = 0; i < 2; i++) {
		ios_vfs_file_init(v.vfs, &files[i], v.in, v.ioc, 0);
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].type = IOS_VFS_DIRECT_READ;
		ops[i].file = &files[i];
		ops[i].off = off;
		ops[i].len = 4096;
		ops[i].wake = op_woken;
	}
	T_ASSERT_EQ(run_ops(&v, ops, woken, 2, sec, 8), 3);
	T_ASSERT_U64_EQ(sec[0], S(m.meta[1]));
	T_ASSERT_U64_EQ(sec[1], S(m.block));
	T_ASSERT_U64_EQ(sec[2], S(m.block));
	T_ASSERT_U64_EQ(meta_reads(&v), 3);
	T_ASSERT_EQ(direct_read(&v, off, sec, 8), 1);
	env_free(&v);
	return T_PASS;
}

static int test_evicted_block_read_again(void)
{
	uint64_t off = 5ull << 30, sec[8], before;
	struct ios_fs_map m;
	struct ios_vfs_stats st;
	struct ios_file file;
	struct ios_vfs_op op;
	bool woken;
	struct env v;

	/* 16 MiB of memory; the other file's 64 MiB read through it evicts everything older */
	T_ASSERT_EQ(env_init(&v, 16ull << 20), 0);
	ios_fs_map_block(v.fs, v.big, off / IOS_FS_BLOCK_SIZE, &m);
	T_ASSERT_EQ(m.nr_meta, 3);	/* past 4 GiB: triple, double, single indirect */
	T_ASSERT_EQ(direct_read(&v, off, sec, 8), 4);
	T_ASSERT_EQ(direct_read(&v, off, sec, 8), 1);
	T_ASSERT_U64_EQ(meta_reads(&v), 3);

	ios_vfs_file_init(v.vfs, &file, v.other_in, v.ioc, 0);
	memset(&op, 0, sizeof(op));
	op.type = IOS_VFS_READ;
	op.file = &file;
	op.off = 0;
	op.len = 64ull << 20;
	op.wake = op_woken;
	T_ASSERT(run_ops(&v, &op, &woken, 1, sec, 0) != SIZE_MAX);
	T_ASSERT_U64_EQ(op.done, 64ull << 20);
	ios_vfs_get_stats(v.vfs, &st);
	T_ASSERT(st.evictions > 0);
	for (int k = 0; k < 3; k++)
		T_ASSERT(ios_pc_lookup(v.vfs->meta, m.meta[k]) == NULL);

	/* all three were evicted: all are read again, in order */
	before = meta_reads(&v);
	T_ASSERT_EQ(direct_read(&v, off, sec, 8), 4);
	for (int k = 0; k < 3; k++)
		T_ASSERT_U64_EQ(sec[k], S(m.meta[k]));
	T_ASSERT_U64_EQ(sec[3], S(m.block));
	T_ASSERT_U64_EQ(meta_reads(&v), before + 3);
	T_ASSERT_EQ(direct_read(&v, off, sec, 8), 1);
	env_free(&v);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_removed_block_read_again, test_shared_read_of_dropped_block,
		     test_evicted_block_read_again);
}
