/*
 * Description: ext4_sync_file of Linux 6.12 (src/fs/vfs.c do_sync with
 * src/fs/jbd2.c): after writing and waiting for the data, fsync waits for
 * the transaction of the inode's last change (i_sync_tid), fdatasync and
 * O_DSYNC writes for the last change reading the data back needs
 * (i_datasync_tid: allocation, size, unwritten conversion); when that
 * transaction is already committed the caller flushes the cache itself
 * (jbd2_trans_will_send_data_barrier false), else the commit block's
 * PREFLUSH|FUA does it.
 *  - overwrites: fdatasync and O_DSYNC commit nothing and flush once each;
 *    fsync and O_SYNC wait on a commit each (the timestamp update moved
 *    i_sync_tid) and send no flush of their own. Fails if datasync used
 *    i_sync_tid, or if the will-send-barrier rule went.
 *  - appends into a sparse file: every fdatasync or O_DSYNC write waits on
 *    a commit (the allocation moved i_datasync_tid). Fails if allocation
 *    stopped moving it.
 *  - writes into a preallocated (unwritten) file under dioread_nolock:
 *    every fdatasync waits on a commit, because the conversion after the
 *    data write moved i_datasync_tid. Fails without the conversion.
 * Each job lasts well under the 5 s commit interval: every commit seen is
 * one a sync asked for.
 */
#include "jbd2_rig.h"

#define WRITES 256	/* 1 MiB in 4 KiB writes */

struct sync_count {
	size_t commits;		/* commit blocks */
	size_t own_flushes;	/* the writer's PREFLUSH bios */
	size_t data;		/* the writer's data writes */
};

static int count(const char *job, struct sync_count *c, const char *kv)
{
	static struct jr_log l;
	int ret = jr_run(&l, job, "mq-deadline", kv, (const char *)NULL);

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < l.n; i++) {
		const struct jr_bio *b = &l.q[i];

		IOS_BUG_ON(b->t >= 5000000000ULL);	/* no timer commit in these runs */
		if (b->pid == JBD2_PID && (b->flags & IOS_REQ_FUA))
			c->commits++;
		if (b->pid == 1000 && (b->flags & IOS_REQ_PREFLUSH))
			c->own_flushes++;
		if (b->pid == 1000 && b->dir == IOS_WRITE && b->nr_sectors)
			c->data++;
	}
	return ret;
}

static int test_overwrite(void)
{
	struct sync_count c;

	/* fio syncs before each next write: WRITES - 1 syncs */
	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nfdatasync=1\n", &c, NULL), 0);
	T_ASSERT_EQ(c.data, WRITES - 1);	/* the last write stays dirty */
	T_ASSERT_EQ(c.commits, 0);
	T_ASSERT_EQ(c.own_flushes, WRITES - 1);

	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nsync=dsync\n", &c, NULL), 0);
	T_ASSERT_EQ(c.commits, 0);
	T_ASSERT_EQ(c.own_flushes, WRITES);

	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nfsync=1\n", &c, NULL), 0);
	T_ASSERT_EQ(c.commits, WRITES - 1);
	T_ASSERT_EQ(c.own_flushes, 0);

	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nsync=sync\n", &c, NULL), 0);
	T_ASSERT_EQ(c.commits, WRITES);
	T_ASSERT_EQ(c.own_flushes, 0);
	return T_PASS;
}

static int test_append(void)
{
	struct sync_count c;

	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nfallocate=none\nfdatasync=1\n", &c,
			  NULL), 0);
	T_ASSERT_EQ(c.commits, WRITES - 1);
	T_ASSERT_EQ(c.own_flushes, 0);

	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nfallocate=none\nsync=dsync\n", &c,
			  NULL), 0);
	T_ASSERT_EQ(c.commits, WRITES);
	T_ASSERT_EQ(c.own_flushes, 0);
	T_ASSERT_EQ(c.data, WRITES);

	/* nodioread_nolock: allocated written at once, the same commit per sync */
	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nfallocate=none\nsync=dsync\n", &c,
			  "lab.ext4.dioread_nolock=0"), 0);
	T_ASSERT_EQ(c.commits, WRITES);
	return T_PASS;
}

static int test_unwritten_conversion(void)
{
	struct sync_count c;

	T_ASSERT_EQ(count("[w]\nrw=write\nbs=4k\nsize=1m\nfallocate=native\nfdatasync=1\n", &c,
			  NULL), 0);
	T_ASSERT_EQ(c.commits, WRITES - 1);
	T_ASSERT_EQ(c.own_flushes, 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_overwrite, test_append, test_unwritten_conversion);
}
