/*
 * Description: ordered data in Linux 6.12's ext4 (src/fs/jbd2.c). Blocks
 * newly allocated written put the inode on the transaction's ordered list
 * (ext4_map_blocks), and the commit writes that inode's dirty data
 * (journal_submit_data_buffers, WB_SYNC_ALL: REQ_SYNC, from the jbd2
 * thread) before its log, and waits for it (journal_finish_inode_data_buffers)
 * before the commit block. Under dioread_nolock (the default) buffered
 * writes allocate unwritten extents, which are not ordered: the commit
 * neither writes nor waits for data.
 * The job: 16 MiB of buffered writes into a sparse file, no sync, and a
 * reader starting at 6 s to keep the run past the 5 s commit. Fails if the
 * ordered rule goes (no data from the commit under nodioread_nolock) or is
 * applied to unwritten extents (data from the commit under dioread_nolock),
 * or if the commit block stops waiting for the data.
 */
#include "jbd2_rig.h"

static const char job[] = "[w]\nrw=write\nbs=64k\nsize=16m\nfallocate=none\n"
			  "[keep]\nrw=read\nbs=4k\nsize=64k\nstartdelay=6\n";

/* index of the first commit block queued, or l->n */
static size_t first_commit(const struct jr_log *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->q[i].pid == JBD2_PID && (l->q[i].flags & IOS_REQ_FUA))
			return i;
	return l->n;
}

static int test_ordered_data_written_and_waited(void)
{
	static struct jr_log l;
	size_t cb, first_log = 0, data = 0;
	uint64_t data_sectors = 0, data_done = 0;

	T_ASSERT_EQ(jr_run(&l, job, "mq-deadline", "lab.ext4.dioread_nolock=0",
			   (const char *)NULL), 0);
	cb = first_commit(&l);
	T_ASSERT(cb < l.n);
	T_ASSERT(l.q[cb].t >= 5000000000ULL);
	for (size_t i = 0; i < cb; i++) {
		const struct jr_bio *b = &l.q[i];

		if (b->pid != JBD2_PID)
			continue;
		if (b->flags & IOS_REQ_META) {
			if (!first_log)
				first_log = i;
			continue;
		}
		/* the ordered data: sync writes without META, all before the log */
		T_ASSERT_EQ(b->flags, IOS_REQ_SYNC);
		T_ASSERT(!first_log);
		data++;
		data_sectors += b->nr_sectors;
	}
	/* all 16 MiB: nothing else wrote it before 5 s (the flusher waits 30 s) */
	T_ASSERT_MSG(data_sectors == 16 * 2048, "%zu data bios, %llu sectors", data,
		     (unsigned long long)data_sectors);
	for (size_t i = 0; i < l.nc; i++)
		if (l.c[i].pid == JBD2_PID && !(l.c[i].flags & IOS_REQ_META) && l.c[i].nr_sectors)
			data_done = l.c[i].t;
	/* the commit block waited for the last of the data */
	T_ASSERT(data_done > 0);
	T_ASSERT(l.q[cb].t >= data_done);
	return T_PASS;
}

static int test_unwritten_not_ordered(void)
{
	static struct jr_log l;
	size_t cb;

	T_ASSERT_EQ(jr_run(&l, job, "mq-deadline", (const char *)NULL), 0);
	cb = first_commit(&l);
	T_ASSERT(cb < l.n);
	T_ASSERT(l.q[cb].t >= 5000000000ULL && l.q[cb].t < 5010000000ULL);
	/* the commit writes metadata only; the data stays dirty for the flusher */
	for (size_t i = 0; i < l.n; i++)
		if (l.q[i].pid == JBD2_PID)
			T_ASSERT(l.q[i].flags & IOS_REQ_META);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_ordered_data_written_and_waited, test_unwritten_not_ordered);
}
