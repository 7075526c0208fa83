/*
 * Description: io.prio.class (src/block/blk_ioprio.c, Linux 6.12
 * blkcg_set_ioprio). Each policy over every class of bio priority:
 * promote-to-rt and none-to-rt make a non-RT bio RT level 4 and leave an
 * RT bio's level; restrict-to-be and idle keep the numerically larger of
 * the bio's priority and (policy << 13), so the lower priority wins;
 * no-change, and a cgroup without v2 files, change nothing. End to end on
 * blk-mq: the cgroup's policy is applied after the task's own priority
 * (bio_set_ioprio), it is the bio's own cgroup's (a child of a promoted
 * parent is not promoted), and two bios of one task in cgroups with
 * different priorities never merge. Through the CLI under mq-deadline-6.12,
 * promote-to-rt on a group moves its reads to the RT level
 * (inserted_rt) and idle to the IDLE level; under bfq-6.12 and kyber the
 * report says the class changes only merging. Each table row fails if
 * its branch of blkcg_set_ioprio is removed.
 */
#include <unistd.h>
#include "mq_rig.h"
#include "block/blkcg_int.h"

#define P(cls, lvl) ((cls) << 13 | (lvl))
#define RT IOS_IOPRIO_CLASS_RT
#define BE IOS_IOPRIO_CLASS_BE
#define ID IOS_IOPRIO_CLASS_IDLE

static const struct { int policy, before, after; } rows[] = {
	{ IOS_PRIO_NO_CHANGE, P(RT, 2), P(RT, 2) },
	{ IOS_PRIO_NO_CHANGE, 0, 0 },
	{ IOS_PRIO_PROMOTE_TO_RT, 0, P(RT, 4) },
	{ IOS_PRIO_PROMOTE_TO_RT, P(BE, 0), P(RT, 4) },
	{ IOS_PRIO_PROMOTE_TO_RT, P(ID, 7), P(RT, 4) },
	{ IOS_PRIO_PROMOTE_TO_RT, P(RT, 1), P(RT, 1) },	/* an RT bio keeps its level */
	{ IOS_PRIO_NONE_TO_RT, P(BE, 3), P(RT, 4) },		/* the alias promotes BE too */
	{ IOS_PRIO_NONE_TO_RT, P(RT, 6), P(RT, 6) },
	{ IOS_PRIO_RESTRICT_TO_BE, 0, P(BE, 0) },
	{ IOS_PRIO_RESTRICT_TO_BE, P(RT, 0), P(BE, 0) },
	{ IOS_PRIO_RESTRICT_TO_BE, P(BE, 5), P(BE, 5) },	/* BE keeps its level */
	{ IOS_PRIO_RESTRICT_TO_BE, P(ID, 7), P(ID, 7) },	/* IDLE stays IDLE */
	{ IOS_PRIO_ALL_TO_IDLE, 0, P(ID, 0) },
	{ IOS_PRIO_ALL_TO_IDLE, P(RT, 3), P(ID, 0) },
	{ IOS_PRIO_ALL_TO_IDLE, P(BE, 7), P(ID, 0) },
	{ IOS_PRIO_ALL_TO_IDLE, P(ID, 5), P(ID, 5) },
};

static int test_table(void)
{
	struct ios_cgroup_v2 v;
	struct ios_cgroup cg;
	struct ios_bio bio;

	memset(&cg, 0, sizeof(cg));
	cg.v2 = &v;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ios_cgroup_v2_init(&v);
		v.prio_policy = rows[i].policy;
		memset(&bio, 0, sizeof(bio));
		bio.ioprio = rows[i].before;
		ios_blkcg_set_ioprio(&cg, &bio);
		T_ASSERT_MSG(bio.ioprio == rows[i].after, "row %zu (%s, 0x%x): 0x%x, want 0x%x", i,
			     ios_prio_policy_names[rows[i].policy], rows[i].before, bio.ioprio,
			     rows[i].after);
	}
	/* no v2 files, or no cgroup: nothing */
	cg.v2 = NULL;
	bio.ioprio = P(RT, 1);
	ios_blkcg_set_ioprio(&cg, &bio);
	ios_blkcg_set_ioprio(NULL, &bio);
	T_ASSERT_EQ(bio.ioprio, P(RT, 1));
	return T_PASS;
}

static struct ios_bio *sub(struct m_rig *r, struct ios_ioc *ioc, uint64_t sector)
{
	struct ios_bio *bio = &r->bios[r->nr_bios++];

	memset(bio, 0, sizeof(*bio));
	bio->sector = sector;
	bio->nr_sectors = 8;
	bio->dir = IOS_READ;
	bio->ioc = ioc;
	bio->priv = r;
	bio->queued = m_queued;
	return ios_queue_submit_bio(r->q, bio, 0) >= 0 ? bio : NULL;
}

static int test_queue(void)
{
	struct m_rig *r = m_rig_new(NULL, 1, 1, 1, "queue.nr_requests=8");
	struct ios_cgroup root, parent, child;
	struct ios_cgroup_v2 vp;
	struct ios_ioc *a, *b, *c;

	T_ASSERT(r);
	memset(&root, 0, sizeof(root));
	memset(&parent, 0, sizeof(parent));
	memset(&child, 0, sizeof(child));
	parent.id = 1;
	parent.parent = &root;
	child.id = 2;
	child.parent = &parent;
	ios_cgroup_v2_init(&vp);
	vp.prio_policy = IOS_PRIO_PROMOTE_TO_RT;
	parent.v2 = &vp;
	a = m_ioc(1, 0);
	a->cgroup = &parent;
	/* a task of its own class BE 2: the group's policy comes after it */
	a->ioprio_class = BE;
	a->ioprio_level = 2;
	b = m_ioc(2, 0);
	b->cgroup = &child;		/* not inherited */
	b->ioprio_class = IOS_IOPRIO_CLASS_NONE;
	c = m_ioc(3, 0);
	c->cgroup = &root;
	c->ioprio_class = IOS_IOPRIO_CLASS_NONE;
	/* one tag: the first is issued, the rest wait in the elevator */
	T_ASSERT(sub(r, a, 0));
	T_ASSERT(sub(r, a, 8));		/* contiguous, same group: merges */
	T_ASSERT(sub(r, b, 16));	/* contiguous, other priority: no merge */
	T_ASSERT(sub(r, c, 1000));
	ios_queue_run(r->q, 1);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_EQ(r->issued[0]->ioprio, P(RT, 4));
	for (unsigned i = 0; i < r->nr_issued; i++)	/* each completion issues the next */
		if (r->issued[i]->state == IOS_RQ_IN_DRIVER)
			ios_queue_complete(r->q, r->issued[i], 10 + i, 0);
	T_ASSERT_EQ(r->nr_issued, 4);
	T_ASSERT_EQ(r->issued[1]->ioprio, P(RT, 4));
	T_ASSERT_EQ(r->issued[1]->nr_sectors, 8);	/* a's second bio */
	T_ASSERT_EQ(r->issued[2]->ioprio, 0);		/* the child: NONE */
	T_ASSERT_EQ(r->issued[3]->ioprio, 0);
	m_rig_free(r, 100);
	return T_PASS;
}

static char dir[] = "/tmp/iosched-ioprio-XXXXXX";

/* the number after "KEY": in the JSON report, -1 when absent */
static long json_num(const char *out, const char *key)
{
	const char *p = strstr(out, key);

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static int test_cli(void)
{
	char job[512], args[2048];
	char *out;
	FILE *f;
	int st;

	T_ASSERT(mkdtemp(dir));
	snprintf(job, sizeof(job), "%s/p.fio", dir);
	f = fopen(job, "w");
	T_ASSERT(f);
	fputs("[global]\nfilename=/dev/sdb\nsize=1g\nrw=randread\ndirect=1\nioengine=psync\n"
	      "runtime=200ms\ntime_based\n[a]\ncgroup=a\n[b]\ncgroup=b\n", f);
	fclose(f);
	snprintf(args, sizeof(args), "run %s --scheduler mq-deadline-6.12 --output-format json "
		 "--set cgroup.a.io.prio.class=promote-to-rt --set cgroup.b.io.prio.class=idle", job);
	out = t_run_iosched(args, &st);
	T_ASSERT(out);
	T_ASSERT_MSG(st == 0, "exit %d:\n%s", st, out);
	T_ASSERT_MSG(json_num(out, "\"inserted_rt\" : ") > 0, "no RT inserts:\n%.2000s", out);
	T_ASSERT_MSG(json_num(out, "\"inserted_idle\" : ") > 0, "no IDLE inserts:\n%.2000s", out);
	T_ASSERT_MSG(json_num(out, "\"inserted_be\" : ") == 0, "BE inserts:\n%.2000s", out);
	free(out);
	/* without the files: all BE */
	snprintf(args, sizeof(args), "run %s --scheduler mq-deadline-6.12 --output-format json", job);
	out = t_run_iosched(args, &st);
	T_ASSERT(out);
	T_ASSERT_EQ(st, 0);
	T_ASSERT_MSG(json_num(out, "\"inserted_rt\" : ") == 0, "RT inserts:\n%.2000s", out);
	free(out);
	/* bfq-6.12 and kyber: the class only stops merges, and the report says so */
	snprintf(args, sizeof(args), "run %s --scheduler bfq-6.12 --set "
		 "cgroup.a.io.prio.class=idle", job);
	out = t_run_iosched(args, &st);
	T_ASSERT(out);
	T_ASSERT_EQ(st, 0);
	T_ASSERT_MSG(strstr(out, "bfq-6.12 takes its queues' priorities from the task"),
		     "no note:\n%.3000s", out);
	free(out);
	snprintf(args, sizeof(args), "run %s --scheduler kyber --set cgroup.a.io.prio.class=idle",
		 job);
	out = t_run_iosched(args, &st);
	T_ASSERT(out);
	T_ASSERT_EQ(st, 0);
	T_ASSERT_MSG(strstr(out, "kyber-6.12 reads no I/O priority"), "no note:\n%.3000s", out);
	free(out);
	unlink(job);
	rmdir(dir);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_table);

	if (!ret)
		ret = T_RUN(test_queue);
	if (ret || access(t_iosched_bin(), X_OK))
		return ret;
	return T_RUN(test_cli);
}
