/*
 * Description: cgroup writeback on blk-mq (Linux 6.12, src/fs/writeback_cgwb.c).
 * The rules, each with the assertion that fails without it:
 *  - __inode_attach_wb: the first dirtier owns the inode for good. Two
 *    cgroups write one file, a first: every write bio of the file is
 *    charged to a, and b gets no wb (fails if the owner followed the last
 *    dirtier or the writing task).
 *  - wbc_init_bio: the flusher's bios carry the owner's cgroup while the
 *    kworker itself stays in the root (fails without bio->blkcg: the bios
 *    would be the root's, as the lab.cgroup_writeback=0 control shows).
 *  - cgwb_create: one wb per cgroup, each with its own dirty list and its
 *    own flusher, kworker/flush-<cgroup>: two groups' files are written
 *    by two flushers, each only its own cgroup's inode (fails with one
 *    shared flusher or one shared list).
 *  (BFQ 6.12's group for a kworker's writeback: sched_bfq6_cgwb.c.)
 *  - end to end: a buffered writer in cgroup a with io.prio.class=idle
 *    under mq-deadline-6.12 gets its writeback inserted at mq-deadline's
 *    IDLE level (blkcg_set_ioprio reads the bio's charged cgroup), as in
 *    6.12; with lab.cgroup_writeback=0 the flusher's bios are the root's
 *    and go in as best effort (fails without the attribution).
 * All on the simulated clock, through the whole simulator.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"

struct seen {
	unsigned writes;		/* write bios with data traced Q */
	unsigned by_kworker[2];		/* ... from kworker/flush-a, -b */
	unsigned charged[3];		/* ... charged to a, b, the root */
	unsigned wrong;			/* a kworker bio charged to another cgroup */
	unsigned kthread_not_root;	/* a kworker context outside the root */
};

static int cg_index(const struct ios_cgroup *cg)
{
	if (!cg || !*cg->path)
		return 2;
	return !strcmp(cg->path, "a") ? 0 : !strcmp(cg->path, "b") ? 1 : 2;
}

static void tr_event(void *priv, struct ios_queue *qu, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct seen *s = priv;
	const struct ios_cgroup *cg;
	int k = -1;

	(void)qu;
	(void)rq;
	(void)now;
	if (a != IOS_TA_QUEUE || bio->dir != IOS_WRITE || !bio->nr_sectors || !bio->ioc)
		return;
	/* ext4's journal (jbd2, the root cgroup) writes metadata, not the pages */
	if (bio->flags & IOS_REQ_META)
		return;
	cg = ios_bio_blkcg(bio);
	s->writes++;
	s->charged[cg_index(cg)]++;
	if (!strcmp(bio->ioc->comm, "kworker/flush-a"))
		k = 0;
	else if (!strcmp(bio->ioc->comm, "kworker/flush-b"))
		k = 1;
	if (k < 0)
		return;
	s->by_kworker[k]++;
	if (cg_index(cg) != k)
		s->wrong++;
	if (!bio->ioc->kthread || cg_index(bio->ioc->cgroup) != 2)
		s->kthread_not_root++;
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

static int run(const char *job, const char *kv, const char *kv2, struct seen *s,
	       struct ios_run_result *res)
{
	struct ios_settings set = { 0 };
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };
	int ret;

	memset(s, 0, sizeof(*s));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("cgwb.fio", job, strlen(job), &po, &jf, &e);
	if (!ret)
		ret = ios_settings_add_kv(&set, "vm.memory=64", "test", &e);
	if (!ret && kv)
		ret = ios_settings_add_kv(&set, kv, "test", &e);
	if (!ret && kv2)
		ret = ios_settings_add_kv(&set, kv2, "test", &e);
	if (!ret) {
		cfg.settings = &set;
		cfg.scheduler = "mq-deadline-6.12";
		cfg.device = "ssd-nvme";
		cfg.seed = 1;
		cfg.trace_ops = &tr_ops;
		cfg.trace = s;
		ret = ios_run(&jf, &cfg, res, &e);
	}
	if (ret)
		fprintf(stderr, "run: %s\n", e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static const struct ios_cgroup_result *cg_res(const struct ios_run_result *r, const char *path)
{
	for (size_t i = 0; i < r->nr_cgroups; i++)
		if (!strcmp(r->cgroups[i].path, path))
			return &r->cgroups[i];
	return NULL;
}

/* 40 MiB buffered into 64 MiB of memory: past the background threshold, so the flusher writes */
static const char one_writer[] = "[a]\ncgroup=a\nrw=write\nbs=64k\nsize=40m\n";

static int test_flusher_bios_carry_the_dirtier(void)
{
	static struct seen s;
	struct ios_run_result res;
	const struct ios_cgroup_result *a;

	T_ASSERT_EQ(run(one_writer, NULL, NULL, &s, &res), 0);
	a = cg_res(&res, "a");
	T_ASSERT(a && a->has_wb);
	T_ASSERT_MSG(s.by_kworker[0] > 0, "no bio from kworker/flush-a (%u writes)", s.writes);
	T_ASSERT_EQ(s.wrong, 0);
	T_ASSERT_EQ(s.kthread_not_root, 0);
	/* every data write of the file went to a, none to the root */
	T_ASSERT_EQ(s.charged[2], 0);
	T_ASSERT_EQ(s.charged[0], s.writes);
	T_ASSERT_U64_EQ(a->wb_inodes, 1);
	T_ASSERT(a->wb_pages > 0 && a->wb_passes > 0);
	/* and the blkio count follows the charge: a's requests, not the root's */
	T_ASSERT(a->blk_ios[IOS_WRITE] > 0);
	ios_run_result_free(&res);

	/* the control: without cgroup writeback the one flusher's bios are the root's */
	T_ASSERT_EQ(run(one_writer, "lab.cgroup_writeback=0", NULL, &s, &res), 0);
	a = cg_res(&res, "a");
	T_ASSERT(a && !a->has_wb);
	T_ASSERT(s.writes > 0);
	T_ASSERT_EQ(s.charged[0], 0);
	T_ASSERT_EQ(s.charged[2], s.writes);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_first_dirtier_owns(void)
{
	/* a dirties the file first; b writes the same file 50 ms later */
	static const char job[] = "[a]\ncgroup=a\nfilename=shared\nrw=write\nbs=64k\nsize=8m\n"
				  "end_fsync=1\n"
				  "[b]\ncgroup=b\nfilename=shared\nrw=write\nbs=64k\noffset=8m\n"
				  "size=8m\nstartdelay=50ms\nend_fsync=1\n";
	static struct seen s;
	struct ios_run_result res;
	const struct ios_cgroup_result *a, *b;

	T_ASSERT_EQ(run(job, NULL, NULL, &s, &res), 0);
	a = cg_res(&res, "a");
	b = cg_res(&res, "b");
	T_ASSERT(a && b);
	T_ASSERT(s.writes > 0);
	/* b's own fsync wrote the pages it dirtied, charged to the owner a */
	T_ASSERT_MSG(s.charged[0] == s.writes, "%u of %u writes charged to a (b %u, root %u)",
		     s.charged[0], s.writes, s.charged[1], s.charged[2]);
	T_ASSERT(a->has_wb);
	T_ASSERT_U64_EQ(a->wb_inodes, 1);
	T_ASSERT_U64_EQ(a->wb_pages, 16u * 1024 * 1024 / IOS_PAGE_SIZE);
	T_ASSERT(!b->has_wb);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_two_groups_two_wbs(void)
{
	static const char job[] = "[a]\ncgroup=a\nrw=write\nbs=64k\nsize=24m\n"
				  "[b]\ncgroup=b\nrw=write\nbs=64k\nsize=24m\n";
	static struct seen s;
	struct ios_run_result res;
	const struct ios_cgroup_result *a, *b;

	T_ASSERT_EQ(run(job, NULL, NULL, &s, &res), 0);
	a = cg_res(&res, "a");
	b = cg_res(&res, "b");
	T_ASSERT(a && b && a->has_wb && b->has_wb);
	T_ASSERT_MSG(s.by_kworker[0] > 0 && s.by_kworker[1] > 0, "flush-a %u, flush-b %u bios",
		     s.by_kworker[0], s.by_kworker[1]);
	/* each flusher wrote only its own cgroup's inode */
	T_ASSERT_EQ(s.wrong, 0);
	T_ASSERT_U64_EQ(a->wb_inodes, 1);
	T_ASSERT_U64_EQ(b->wb_inodes, 1);
	T_ASSERT(a->wb_passes > 0 && b->wb_passes > 0);
	T_ASSERT_U64_EQ(a->wb_foreign_pages, 0);
	T_ASSERT_U64_EQ(b->wb_foreign_pages, 0);
	ios_run_result_free(&res);
	return T_PASS;
}

static int64_t sched_stat(const struct ios_run_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_sched_stats; i++)
		if (!strcmp(r->sched_stats[i].name, name))
			return r->sched_stats[i].value;
	return -1;
}

static int test_idle_class_reaches_writeback(void)
{
	static struct seen s;
	struct ios_run_result res;
	int64_t idle, be;

	T_ASSERT_EQ(run(one_writer, "cgroup.a.io.prio.class=idle", NULL, &s, &res), 0);
	idle = sched_stat(&res, "inserted_idle");
	be = sched_stat(&res, "inserted_be");
	T_ASSERT_MSG(idle > 0 && be == 0, "inserted idle %lld, be %lld", (long long)idle,
		     (long long)be);
	ios_run_result_free(&res);
	/* the control: the same writer without cgroup writeback */
	T_ASSERT_EQ(run(one_writer, "cgroup.a.io.prio.class=idle", "lab.cgroup_writeback=0", &s,
			&res), 0);
	T_ASSERT_EQ(sched_stat(&res, "inserted_idle"), 0);
	T_ASSERT(sched_stat(&res, "inserted_be") > 0);
	ios_run_result_free(&res);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_flusher_bios_carry_the_dirtier, test_first_dirtier_owns,
		     test_two_groups_two_wbs, test_idle_class_reaches_writeback);
}
