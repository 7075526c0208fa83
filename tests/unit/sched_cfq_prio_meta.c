/*
 * Description: metadata reads and cfq-4.19's REQ_PRIO. 4.19 serves our
 * ext3 layout with ext4, which reads inode and directory blocks with
 * REQ_META | REQ_PRIO (__ext4_get_inode_loc, ext4_bread) and indirect
 * blocks plain (ext4_get_branch → bh_submit_read); 4.19's CFQ prefers and
 * preempts for REQ_PRIO, not REQ_META.
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

int main(void)
{
	return T_RUN(test_metadata_reads_carry_prio);
}
