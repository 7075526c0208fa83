/*
 * Description: where a request's priority comes from on blk-mq, as Linux
 * 6.12 sets it (bio_set_ioprio in blk_mq_submit_bio, __get_task_ioprio in
 * include/linux/ioprio.h; src/block/mq.c):
 *  - a bio without a class of its own takes the submitting task's class and
 *    level when the task set one (ioprio_set: fio prioclass/prio), else
 *    IOPRIO_DEFAULT (class NONE, 0); a bio with its own class (cmdprio)
 *    keeps it;
 *  - blk-mq never merges a bio into a request of another priority, nor two
 *    such requests (blk_rq_merge_ok, attempt_merge); the single-queue layer
 *    still merges them and keeps the better one (2.6.31 ioprio_best);
 *  - end to end under mq-deadline-6.12: a prioclass=1 buffered writer's
 *    dirty pages are written back by the flusher, whose priority is NONE,
 *    so they reach mq-deadline's BE level (inserted_be), never RT; the same
 *    writer with direct=1 submits its own bios, which go to RT.
 */
#include "mq_rig.h"

static struct ios_ioc *with_class(uint32_t pid, int cls, int level)
{
	struct ios_ioc *ioc = m_ioc(pid, 0);

	ioc->ioprio_class = cls;
	ioc->ioprio_level = level;
	return ioc;
}

#define RT2 (IOS_IOPRIO_CLASS_RT << 13 | 2)

static int test_from_task(void)
{
	struct m_rig *r = m_rig_new(NULL, 8, 1, 1, "queue.nr_requests=8");

	T_ASSERT(r);
	m_submit(r, with_class(1, IOS_IOPRIO_CLASS_RT, 2), 0, 8, IOS_READ, 0, 0);
	m_submit(r, with_class(2, IOS_IOPRIO_CLASS_NONE, 0), 1000, 8, IOS_READ, 0, 0);
	/* an I/O's own priority (fio cmdprio) wins over the task's */
	{
		struct ios_bio *bio = &r->bios[r->nr_bios++];

		memset(bio, 0, sizeof(*bio));
		bio->sector = 2000;
		bio->nr_sectors = 8;
		bio->dir = IOS_READ;
		bio->ioc = with_class(3, IOS_IOPRIO_CLASS_RT, 0);
		bio->ioprio = IOS_IOPRIO_CLASS_IDLE << 13;
		bio->priv = r;
		bio->queued = m_queued;
		T_ASSERT(ios_queue_submit_bio(r->q, bio, 0) >= 0);
	}
	ios_queue_run(r->q, 1);
	T_ASSERT_EQ(r->nr_issued, 3);
	T_ASSERT_EQ(r->issued[0]->ioprio, RT2);
	T_ASSERT_EQ(r->issued[1]->ioprio, 0);
	T_ASSERT_EQ(r->issued[2]->ioprio, IOS_IOPRIO_CLASS_IDLE << 13);
	m_rig_free(r, 10);
	return T_PASS;
}

/* The elevator holds the requests behind a device of one tag; the hash finds them. */
static int test_no_merge_across_prio(void)
{
	struct m_rig *r = m_rig_new(NULL, 1, 1, 1, "queue.nr_requests=8");

	T_ASSERT(r);
	m_submit(r, with_class(1, IOS_IOPRIO_CLASS_RT, 2), 100000, 8, IOS_READ, 0, 0);
	m_submit(r, with_class(1, IOS_IOPRIO_CLASS_RT, 2), 200000, 8, IOS_READ, 0, 0);
	m_submit(r, with_class(1, IOS_IOPRIO_CLASS_RT, 2), 0, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	/* adjacent, RT level 2 from another task: the same priority merges */
	m_submit(r, with_class(3, IOS_IOPRIO_CLASS_RT, 2), 8, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	/* adjacent, a task of no class: its bio is NONE, 0 and starts a request */
	m_submit(r, with_class(2, IOS_IOPRIO_CLASS_NONE, 0), 16, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	m_rig_free(r, 10);
	return T_PASS;
}

/* The single-queue layer (noop) merges across priorities and keeps the better one. */
static int test_legacy_unchanged(void)
{
	struct t_rig *r = t_rig_new("noop", 1, 1, NULL);
	struct ios_ioc *a = t_ioc(11), *b = t_ioc(12);

	T_ASSERT(r);
	a->ioprio_class = IOS_IOPRIO_CLASS_RT;
	t_submit(r, a, 100000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, a, 0, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, b, 8, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	while (t_complete_next(r, 10))
		;
	a->ioprio_class = IOS_IOPRIO_CLASS_NONE;
	t_rig_free(r);
	return T_PASS;
}

static int64_t stat_of(const struct ios_run_result *res, const char *name)
{
	for (size_t i = 0; i < res->nr_sched_stats; i++)
		if (!strcmp(res->sched_stats[i].name, name))
			return res->sched_stats[i].value;
	return -1;
}

static struct ios_jobfile jf;

static int run_writer(const char *job, int64_t *rt, int64_t *be)
{
	struct ios_run_config cfg = { .scheduler = "mq-deadline-6.12", .seed = 1 };
	struct ios_run_result res;

	if (t_run_job("w.fio", job, &cfg, &jf, &res))
		return -1;
	*rt = stat_of(&res, "inserted_rt");
	*be = stat_of(&res, "inserted_be");
	if (getenv("T_VERBOSE"))
		fprintf(stderr, "rt %lld be %lld flusher_bios %llu\n", (long long)*rt, (long long)*be,
			(unsigned long long)res.vm_stats.flusher_bios);
	t_job_done(&jf, &res);
	return 0;
}

static int test_writeback_is_the_flushers(void)
{
	static const char buffered[] =
		"[w]\nrw=write\nbs=64k\nsize=256m\nprioclass=1\nprio=2\n";
	static const char direct[] =
		"[w]\nrw=write\nbs=64k\nsize=16m\nprioclass=1\nprio=2\ndirect=1\n";
	int64_t rt, be;

	T_ASSERT_EQ(run_writer(buffered, &rt, &be), 0);
	T_ASSERT_EQ(rt, 0);
	T_ASSERT(be > 0);
	T_ASSERT_EQ(run_writer(direct, &rt, &be), 0);
	T_ASSERT(rt > 0);
	T_ASSERT_EQ(be, 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_from_task, test_no_merge_across_prio, test_legacy_unchanged,
		     test_writeback_is_the_flushers);
}
