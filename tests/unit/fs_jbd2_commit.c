/*
 * Description: the jbd2 commit of Linux 6.12 on lab.fs=ext4 (src/fs/jbd2.c).
 *  - the commit timer: a buffered writer that never syncs gets its
 *    allocations committed commit= seconds after the transaction started
 *    (kjournald2's t_expires), not before; lab.ext4.commit_s moves it.
 *    Fails if the timer rule goes (no commit at all, or one at once).
 *  - the commit's writes: descriptor and metadata blocks as
 *    REQ_META|REQ_SYNC|REQ_IDLE, one block each, consecutive in the journal,
 *    all queued before the commit block, which alone carries PREFLUSH|FUA
 *    (journal_submit_commit_record with barriers; none under lab.barrier=0).
 *    Fails if the flags, the order or the barrier rule change.
 *  - the thread: pid 101 in the root cgroup, while the writer is in cgroup
 *    "app". Fails if the commit ran in the writer's context.
 * The job: 4 KiB buffered writes at 64 KiB/s into a sparse file for 12 s
 * (every write allocates a block), no fsync.
 */
#include "jbd2_rig.h"

static const char writer[] = "[w]\nrw=write\nbs=4k\nsize=8m\nfallocate=none\nrate=64k\n"
			     "runtime=12\ntime_based=1\ncgroup=app\n";

/* the commits: index of each commit block (the FUA bio of pid 101) */
static size_t commits(const struct jr_log *l, size_t *at, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->q[i].pid == JBD2_PID && (l->q[i].flags & IOS_REQ_FUA) && n < max)
			at[n++] = i;
	return n;
}

static int test_timer_commits_every_commit_interval(void)
{
	static struct jr_log l;
	size_t at[8], n;

	T_ASSERT_EQ(jr_run(&l, writer, "mq-deadline", (const char *)NULL), 0);
	n = commits(&l, at, 8);
	/* transactions start at 0 s and right after the first commit: commits near 5 s and 10 s */
	T_ASSERT_MSG(n == 2, "%zu commits in 12 s", n);
	T_ASSERT_MSG(l.q[at[0]].t >= 5000000000ULL && l.q[at[0]].t < 5050000000ULL,
		     "first commit block at %llu ns", (unsigned long long)l.q[at[0]].t);
	T_ASSERT_MSG(l.q[at[1]].t >= 10000000000ULL && l.q[at[1]].t < 10200000000ULL,
		     "second commit block at %llu ns", (unsigned long long)l.q[at[1]].t);
	/* nothing of the journal's before the first expiry */
	for (size_t i = 0; i < l.n && l.q[i].t < 5000000000ULL; i++)
		T_ASSERT(l.q[i].pid != JBD2_PID);

	T_ASSERT_EQ(jr_run(&l, writer, "mq-deadline", "lab.ext4.commit_s=2", (const char *)NULL),
		    0);
	n = commits(&l, at, 8);
	T_ASSERT_MSG(n >= 5 && n <= 6, "%zu commits in 12 s at commit=2", n);
	T_ASSERT_MSG(l.q[at[0]].t >= 2000000000ULL && l.q[at[0]].t < 2050000000ULL,
		     "first commit block at %llu ns", (unsigned long long)l.q[at[0]].t);
	return T_PASS;
}

static int test_log_then_commit_block_flags(void)
{
	static struct jr_log l;
	size_t at[8], n, first = 0;
	uint32_t log_flags = IOS_REQ_META | IOS_REQ_SYNC | IOS_REQ_IDLE;

	T_ASSERT_EQ(jr_run(&l, writer, "mq-deadline", (const char *)NULL), 0);
	n = commits(&l, at, 8);
	T_ASSERT(n >= 1);
	for (size_t c = 0; c < n; c++) {
		size_t logged = 0;
		uint64_t prev = 0;
		const struct jr_bio *cb = &l.q[at[c]];

		T_ASSERT_EQ(cb->flags & (log_flags | IOS_REQ_PREFLUSH | IOS_REQ_FUA),
			    log_flags | IOS_REQ_PREFLUSH | IOS_REQ_FUA);
		for (size_t i = first; i < at[c]; i++) {
			const struct jr_bio *b = &l.q[i];

			if (b->pid != JBD2_PID)
				continue;
			/* the log: one block per bio, META|SYNC|IDLE, no barrier flags */
			T_ASSERT_EQ(b->flags, log_flags);
			T_ASSERT_EQ(b->nr_sectors, 8);
			T_ASSERT_EQ(b->dir, IOS_WRITE);
			/* sequential in the journal (no wrap in so short a run) */
			if (logged)
				T_ASSERT_U64_EQ(b->sector, prev + 8);
			prev = b->sector;
			logged++;
		}
		T_ASSERT_U64_EQ(cb->sector, prev + 8);
		/* a descriptor and the bitmap, group descriptor and inode blocks at least */
		T_ASSERT_MSG(logged >= 4, "commit %zu logged %zu blocks", c, logged);
		first = at[c] + 1;
	}

	/* lab.barrier=0: the same commits, no PREFLUSH or FUA anywhere in them */
	T_ASSERT_EQ(jr_run(&l, writer, "mq-deadline", "lab.barrier=0", (const char *)NULL), 0);
	T_ASSERT_EQ(jr_count(&l, JBD2_PID, IOS_REQ_PREFLUSH, 0), 0);
	T_ASSERT_EQ(jr_count(&l, JBD2_PID, IOS_REQ_FUA, 0), 0);
	T_ASSERT(jr_count(&l, JBD2_PID, IOS_REQ_META, 0) >= 10);
	return T_PASS;
}

static int test_thread_in_root_cgroup(void)
{
	static struct jr_log l;
	size_t jbd2 = 0, app = 0;

	static const char syncer[] = "[w]\nrw=write\nbs=4k\nsize=1m\nfallocate=none\n"
				     "fdatasync=16\ncgroup=app\n";

	T_ASSERT_EQ(jr_run(&l, syncer, "mq-deadline", (const char *)NULL), 0);
	for (size_t i = 0; i < l.n; i++) {
		if (l.q[i].pid == JBD2_PID) {
			T_ASSERT_EQ(l.q[i].cgroup, 0);
			jbd2++;
		} else if (l.q[i].pid == 1000) {
			T_ASSERT(l.q[i].cgroup != 0);
			app++;
		}
	}
	/*
	 * the writer's fdatasync writes its data itself, in app; each of the 15
	 * (fio syncs before the next write, none after the last) waits on a
	 * commit of five blocks: descriptor, bitmap, group descriptor, inode,
	 * commit block
	 */
	T_ASSERT(app >= 15);
	T_ASSERT_MSG(jbd2 == 15 * 5, "%zu jbd2 bios, %zu app", jbd2, app);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_timer_commits_every_commit_interval, test_log_then_commit_block_flags,
		     test_thread_in_root_cgroup);
}
