/*
 * Description: ordered data in Linux 6.12's ext4 (src/fs/jbd2.c). Blocks
 * newly allocated written put the inode on the transaction's ordered list
 * (ext4_map_blocks), and the commit writes that inode's dirty data
 * (journal_submit_data_buffers, WB_SYNC_ALL: REQ_SYNC, from the jbd2
 * thread) before its log, and waits for it (journal_finish_inode_data_buffers)
 * before the commit block. Under dioread_nolock (the default) buffered
 * writes allocate unwritten extents, which are not ordered: the commit
 * neither writes nor waits for data.
 * The job (hdd-2009, bfq-6.12): 64 MiB of buffered writes into a sparse
 * file, no sync, and a reader starting at 8 s to keep the run past the 5 s
 * commit. The periodic flush at 4.9 s (vm.dirty_writeback_centisecs=490,
 * vm.dirty_expire_centisecs=0) is still writing the file, asynchronously,
 * when the commit starts: BFQ serves the jbd2 thread's sync log writes
 * ahead of those, so only the wait for the ordered data holds the commit
 * block back. Fails if the ordered rule goes (no data from the commit and
 * no wait under nodioread_nolock), if it is applied to unwritten extents
 * (data or a wait under dioread_nolock), or if the commit block stops
 * waiting for the data.
 */
#include "jbd2_rig.h"

static const char job[] = "[w]\nrw=write\nbs=1m\nsize=64m\nfallocate=none\n"
			  "[keep]\nrw=read\nbs=4k\nsize=64k\nstartdelay=8\n";

static int run(struct jr_log *l, const char *nolock)
{
	jr_device = "hdd-2009";
	return jr_run(l, job, "bfq-6.12", nolock, "vm.dirty_expire_centisecs=0",
		      "vm.dirty_writeback_centisecs=490", (const char *)NULL);
}

/* the latest completion of a data write (256 KiB or more, not META) before @before */
static uint64_t data_done(const struct jr_log *l, uint64_t before)
{
	uint64_t t = 0;

	for (size_t i = 0; i < l->nc; i++)
		if (l->c[i].dir == IOS_WRITE && !(l->c[i].flags & IOS_REQ_META) &&
		    l->c[i].nr_sectors >= 512 && l->c[i].t < before)
			t = l->c[i].t;
	return t;
}

/* the latest completion of a log block (META, not the commit block) */
static uint64_t log_done(const struct jr_log *l, uint64_t before)
{
	uint64_t t = 0;

	for (size_t i = 0; i < l->nc; i++)
		if (l->c[i].pid == JBD2_PID && (l->c[i].flags & IOS_REQ_META) &&
		    !(l->c[i].flags & IOS_REQ_FUA) && l->c[i].t < before)
			t = l->c[i].t;
	return t;
}

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
	uint64_t end;

	T_ASSERT_EQ(run(&l, "lab.ext4.dioread_nolock=0"), 0);
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
	}
	T_ASSERT_MSG(data > 0, "the commit wrote no data");
	/*
	 * the log was on disk before the flusher's data, and the commit block
	 * still waited for that data
	 */
	end = data_done(&l, l.q[cb].t + 1);
	T_ASSERT(log_done(&l, l.q[cb].t) < end);
	T_ASSERT_U64_EQ(l.q[cb].t, end);
	return T_PASS;
}

static int test_unwritten_not_ordered(void)
{
	static struct jr_log l;
	size_t cb;

	T_ASSERT_EQ(run(&l, "lab.ext4.dioread_nolock=1"), 0);
	cb = first_commit(&l);
	T_ASSERT(cb < l.n);
	/* the commit writes metadata only, and does not wait for the data in flight */
	for (size_t i = 0; i < l.n; i++)
		if (l.q[i].pid == JBD2_PID)
			T_ASSERT(l.q[i].flags & IOS_REQ_META);
	T_ASSERT(l.q[cb].t >= 5000000000ULL);
	T_ASSERT_MSG(data_done(&l, 7000000000ULL) > l.q[cb].t,
		     "data done at %llu, commit block at %llu",
		     (unsigned long long)data_done(&l, 7000000000ULL),
		     (unsigned long long)l.q[cb].t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_ordered_data_written_and_waited, test_unwritten_not_ordered);
}
