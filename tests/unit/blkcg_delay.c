/*
 * The return-to-user delay of Linux 6.12 block/blk-cgroup.c and
 * blk-cgroup.h (src/block/blk_cgroup.c): blkcg_add_delay and
 * blkcg_scale_delay's once-a-second decay, blkcg_maybe_throttle_blkg's
 * walk (groups below the root, the largest delay) and its 250 ms cap for
 * use_delay groups, blkcg_set_delay's uncapped undecayed form,
 * blkcg_clear_delay, and blkcg_schedule_throttle's mark, which a kthread
 * never gets. Fake clock: the times passed in. Each test names the rule
 * whose removal fails it.
 */
#include <string.h>
#include "harness.h"
#include "block/blkcg_int.h"

#define MS 1000000ull

/* root <- a <- a/b, and root <- c */
static struct ios_cgroup cg[4];
static struct ios_cgroup *cgs[4];

static struct ios_queue *tree(void)
{
	static struct ios_queue q;

	memset(cg, 0, sizeof(cg));
	memset(&q, 0, sizeof(q));
	for (unsigned i = 0; i < 4; i++) {
		cg[i].id = i;
		cgs[i] = &cg[i];
	}
	cg[1].parent = &cg[0];
	cg[2].parent = &cg[1];
	cg[3].parent = &cg[0];
	q.blkcg = ios_blkcg_ctl_create(cgs, 4);
	return q.blkcg ? &q : NULL;
}

static struct ios_blkg *g(struct ios_queue *q, unsigned i)
{
	return ios_blkg_of(q->blkcg, &cg[i]);
}

/*
 * A task of a/b is delayed by a's delay (the walk goes up), the largest
 * one wins, the root's never counts (the walk stops below it), and a
 * group that does not use its delay is skipped. Fails if the walk stops
 * at the first group with a delay, or includes the root.
 */
static int test_walk(void)
{
	struct ios_queue *q = tree();

	T_ASSERT(q);
	ios_blkcg_use_delay(g(q, 0));
	ios_blkcg_add_delay(g(q, 0), 0, 200 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[2], 10 * MS), 0);
	ios_blkcg_use_delay(g(q, 1));
	ios_blkcg_add_delay(g(q, 1), 0, 80 * MS);
	ios_blkcg_use_delay(g(q, 2));
	ios_blkcg_add_delay(g(q, 2), 0, 30 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[2], 10 * MS), 80 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[3], 10 * MS), 0);
	/* delay_nsec without use_delay is not read */
	g(q, 3)->delay_nsec = 90 * MS;
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[3], 10 * MS), 0);
	/* blkcg_clear_delay: no longer used */
	ios_blkcg_clear_delay(g(q, 1));
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[2], 10 * MS), 30 * MS);
	ios_blkcg_ctl_destroy(q->blkcg);
	return T_PASS;
}

/*
 * A use_delay delay is capped at 250 ms per return; a set one
 * (blkcg_set_delay, use_delay -1: io.cost) is the caller's to bound.
 * Fails without the cap, or with the cap applied to set delays.
 */
static int test_cap(void)
{
	struct ios_queue *q = tree();

	T_ASSERT(q);
	ios_blkcg_use_delay(g(q, 1));
	ios_blkcg_add_delay(g(q, 1), 0, 900 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[1], 1 * MS), 250 * MS);
	ios_blkcg_set_delay(g(q, 3), 400 * MS);
	T_ASSERT_EQ(g(q, 3)->use_delay, -1);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[3], 1 * MS), 400 * MS);
	/* a set delay takes no adds and does not decay */
	ios_blkcg_add_delay(g(q, 3), 1 * MS, 100 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[3], 5000 * MS), 400 * MS);
	/* set on a group io.latency uses keeps use_delay > 0 (only 0 becomes -1) */
	ios_blkcg_set_delay(g(q, 1), 100 * MS);
	T_ASSERT_EQ(g(q, 1)->use_delay, 1);
	ios_blkcg_ctl_destroy(q->blkcg);
	return T_PASS;
}

/*
 * blkcg_scale_delay: a window opens at the first add; once a second has
 * passed since the window opened, what was charged in the window before
 * is taken off. Adding 100 ms at 0.3 s: still 100 ms at 1.1 s and at
 * 2.2 s (the window of 0.3 s closes at 1.3 s: the new one starts at 2.2 s
 * with last_delay 100 ms), 0 at 3.3 s. Fails without the decay (100 ms at
 * 3.3 s), or with the lab's time 0 read as a window start (§13 R4: the
 * window would open at 0, close at 1.0 s, and 2.2 s would already read 0).
 */
static int test_decay(void)
{
	struct ios_queue *q = tree();
	struct ios_blkg *a;

	T_ASSERT(q);
	a = g(q, 1);
	T_ASSERT_U64_EQ(a->delay_start, IOS_BLKG_DELAY_NEVER);
	ios_blkcg_use_delay(a);
	ios_blkcg_add_delay(a, 300 * MS, 100 * MS);
	T_ASSERT_U64_EQ(a->delay_start, 300 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[1], 1100 * MS), 100 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[1], 2200 * MS), 100 * MS);
	T_ASSERT_U64_EQ(a->last_delay, 100 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[1], 3300 * MS), 0);
	ios_blkcg_ctl_destroy(q->blkcg);
	return T_PASS;
}

/*
 * Once io.latency stops using the delay (use_delay fell since the last
 * window), at least half of the last window's delay is taken off: 3 s
 * charged, use_delay 2 -> 1, 1.1 s later min(3 s, 1.1 s) = 1.1 s would
 * come off; half of 3 s = 1.5 s does. Fails without that rule (1.9 s left).
 */
static int test_unthrottled_decay(void)
{
	struct ios_queue *q = tree();
	struct ios_blkg *a;

	T_ASSERT(q);
	a = g(q, 1);
	ios_blkcg_use_delay(a);
	ios_blkcg_use_delay(a);
	ios_blkcg_add_delay(a, 300 * MS, 3000 * MS);
	T_ASSERT_U64_EQ(ios_blkcg_return_delay(q, &cg[1], 1400 * MS), 250 * MS);
	T_ASSERT_U64_EQ(a->last_delay, 3000 * MS);
	T_ASSERT_EQ(ios_blkcg_unuse_delay(a), 1);
	(void)ios_blkcg_return_delay(q, &cg[1], 2500 * MS);
	T_ASSERT_U64_EQ(a->delay_nsec, 1500 * MS);
	ios_blkcg_ctl_destroy(q->blkcg);
	return T_PASS;
}

/*
 * blkcg_schedule_throttle marks a task, not a kthread (the flusher,
 * jbd2: PF_KTHREAD); the mark is taken once, at the call's return, with
 * the delay of the task's own cgroup. Fails if a kthread is marked or the
 * mark outlives the return.
 */
static int test_task_not_kthread(void)
{
	struct ios_queue *q = tree();
	struct ios_ioc task, flusher;

	T_ASSERT(q);
	memset(&task, 0, sizeof(task));
	memset(&flusher, 0, sizeof(flusher));
	task.cgroup = &cg[2];
	flusher.cgroup = &cg[2];	/* even charged to a/b, as cgroup writeback will be */
	flusher.kthread = true;
	ios_blkcg_use_delay(g(q, 2));
	ios_blkcg_add_delay(g(q, 2), 0, 40 * MS);
	ios_blkcg_schedule_throttle(q, &task);
	ios_blkcg_schedule_throttle(q, &flusher);
	T_ASSERT(task.throttle_disk == q);
	T_ASSERT(flusher.throttle_disk == NULL);
	T_ASSERT_U64_EQ(ios_blkcg_task_throttle(&flusher, 1 * MS), 0);
	T_ASSERT_U64_EQ(ios_blkcg_task_throttle(&task, 1 * MS), 40 * MS);
	T_ASSERT(task.throttle_disk == NULL);
	T_ASSERT_U64_EQ(ios_blkcg_task_throttle(&task, 2 * MS), 0);
	/* an unmarked task is not delayed, whatever its group holds */
	T_ASSERT_U64_EQ(ios_blkcg_task_throttle(&task, 3 * MS), 0);
	ios_blkcg_ctl_destroy(q->blkcg);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_walk, test_cap, test_decay, test_unthrottled_decay,
		     test_task_not_kthread);
}
