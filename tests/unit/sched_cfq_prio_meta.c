/*
 * Description: metadata reads and cfq-4.19's REQ_PRIO. 4.19 serves our
 * ext3 layout with ext4, which reads inode and directory blocks with
 * REQ_META | REQ_PRIO (__ext4_get_inode_loc, ext4_bread) and indirect
 * blocks plain (ext4_get_branch → bh_submit_read); 4.19's CFQ prefers and
 * preempts for REQ_PRIO, not REQ_META. Its cfq_may_queue also lifts the
 * queue of a REQ_PRIO request to at least BE/NORM (cfqq_boost_on_prio) and
 * puts the task's own priority back on its next other request. 2.6.33's
 * CFQ has no REQ_PRIO and no boost.
 */
#include "sched_cfq_util.h"
#include "iosched/run.h"

struct count {
	uint64_t meta, prio, both;
};

static void tr_event(void *priv, struct ios_queue *qu, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct count *c = priv;

	(void)qu;
	(void)rq;
	(void)now;
	if (a != IOS_TA_QUEUE)
		return;
	c->meta += (bio->flags & IOS_REQ_META) != 0;
	c->prio += (bio->flags & IOS_REQ_PRIO) != 0;
	c->both += (bio->flags & (IOS_REQ_META | IOS_REQ_PRIO)) == (IOS_REQ_META | IOS_REQ_PRIO);
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

/* A random reader of a file that existed before the run: cold metadata. */
static int test_metadata_reads_carry_prio(void)
{
	static const char job[] = "[r]\ndirect=1\nrw=randread\nbs=4k\nsize=1g\nio_size=256k\n";
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	struct count c = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("prio.fio", job, strlen(job), &po, &jf, &e);
	if (!ret)
		ret = ios_settings_add_kv(&set, "lab.file_size=1g", "test", &e);
	if (!ret) {
		cfg.scheduler = "cfq-4.19";
		cfg.settings = &set;
		cfg.device = "hdd-2009";
		cfg.seed = 1;
		cfg.trace_ops = &tr_ops;
		cfg.trace = &c;
		ret = ios_run(&jf, &cfg, &res, &e);
		if (!ret)
			ios_run_result_free(&res);
	}
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	T_ASSERT_MSG(ret == 0, "%s", e.msg);
	/* the open reads the directory and the inode block */
	T_ASSERT_MSG(c.meta >= 2, "%llu metadata reads", (unsigned long long)c.meta);
	T_ASSERT_EQ(c.prio, c.meta);
	T_ASSERT_EQ(c.both, c.meta);
	return T_PASS;
}

/* A read by @pid with @flags, dispatched and completed; returns its queue. */
static struct cfq_queue *read_one(struct t_sq *s, uint32_t pid, uint32_t flags, uint64_t sector,
				  uint64_t *now)
{
	struct ios_request *rq = cq_ins(s, t_ioc(pid), sector, 8, IOS_READ, flags, *now);
	struct cfq_queue *q = rq_cfqq(rq);

	rq = t_sq_dispatch(s, *now);
	*now += MS;
	if (rq)
		cq_done(s, rq, *now);
	return q;
}

static int boost_case(const char *prof, int cls, int level, int want_cls, int want_level)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);
	struct cfq_queue *q;
	uint64_t now = 0;

	T_ASSERT(s);
	cq_ioc(1, cls, level);
	q = read_one(s, 1, 0, 1000, &now);
	T_ASSERT_EQ(q->ioprio_class, cls);
	/* a metadata read: the queue it joins is lifted (4.19) */
	T_ASSERT(read_one(s, 1, IOS_REQ_META | IOS_REQ_PRIO, 2000, &now) == q);
	T_ASSERT_EQ(q->ioprio_class, want_cls);
	T_ASSERT_EQ(q->ioprio, want_level);
	/* the next plain read puts the task's own priority back */
	read_one(s, 1, 0, 3000, &now);
	T_ASSERT_EQ(q->ioprio_class, cls);
	T_ASSERT_EQ(q->ioprio, cls == IOS_IOPRIO_CLASS_IDLE ? 7 : level);
	cq_free(s);
	return T_PASS;
}

static int test_boost_idle_class_419(void)
{
	return boost_case("cfq-4.19", IOS_IOPRIO_CLASS_IDLE, 0, IOS_IOPRIO_CLASS_BE, 4);
}

static int test_boost_low_be_419(void)
{
	return boost_case("cfq-4.19", IOS_IOPRIO_CLASS_BE, 7, IOS_IOPRIO_CLASS_BE, 4);
}

static int test_no_boost_high_be_419(void)
{
	return boost_case("cfq-4.19", IOS_IOPRIO_CLASS_BE, 2, IOS_IOPRIO_CLASS_BE, 2);
}

static int test_no_boost_2633(void)
{
	return boost_case("cfq-2.6.33", IOS_IOPRIO_CLASS_IDLE, 0, IOS_IOPRIO_CLASS_IDLE, 7);
}

int main(void)
{
	return T_RUN(test_metadata_reads_carry_prio, test_boost_idle_class_419,
		     test_boost_low_be_419, test_no_boost_high_be_419, test_no_boost_2633);
}
