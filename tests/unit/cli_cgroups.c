/*
 * Description: bad or useless group options on the command line (spec
 * cfq.md §10). A weight outside the scheduler's range stops the run with a
 * message naming the file, the option's line, the option, the scheduler and
 * its range; so do a nested cgroup under flat groups (2.6.33), two jobs
 * giving one group different weights, priorities for groups that have
 * weights, and a 2008 design asked of a scheduler that has groups of its
 * own. A group option under a scheduler without groups (noop, deadline,
 * as, cfq 2.6.31) runs, with a warning on stderr that it has no effect;
 * weights under a 2008 design likewise. Good input exits 0 and reports the
 * groups.
 */
#include <string.h>
#include <unistd.h>
#include "harness.h"

static char dir[] = "/tmp/iosched-cgcli-XXXXXX";

static int write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	return 0;
}

#define JOB_HEAD "[global]\nrw=read\ndirect=1\nsize=16m\nruntime=200ms\ntime_based\n"

static int test_group_options(void)
{
	char w50[512], w5[512], nested[512], conflict[512], plain[512], args[2048];

	T_ASSERT(mkdtemp(dir));
	/* line 9 holds the weight */
	T_ASSERT_EQ(write_file("w50.fio", JOB_HEAD "[a]\ncgroup=a\ncgroup_weight=50\n[b]\ncgroup=b\n",
			       w50, sizeof(w50)), 0);
	T_ASSERT_EQ(write_file("w5.fio", JOB_HEAD "[a]\ncgroup=a\ncgroup_weight=5\n", w5,
			       sizeof(w5)), 0);
	T_ASSERT_EQ(write_file("nested.fio", JOB_HEAD "[x]\ncgroup=a/x\n[y]\ncgroup=a/y\n", nested,
			       sizeof(nested)), 0);
	T_ASSERT_EQ(write_file("conflict.fio", JOB_HEAD "[a]\ncgroup=a\ncgroup_weight=200\n"
			       "[b]\ncgroup=a\ncgroup_weight=300\n", conflict, sizeof(conflict)), 0);
	T_ASSERT_EQ(write_file("plain.fio", JOB_HEAD "[a]\ncgroup=a\n[b]\ncgroup=b\n", plain,
			       sizeof(plain)), 0);

	/* weights: the scheduler's range, at the option's line */
	snprintf(args, sizeof(args), "run %s --scheduler cfq-2.6.33", w50);
	T_EXPECT_RUN(args, 2, "w50.fio:9", "'cgroup_weight=50'", "cfq-2.6.33", "blkio.weight",
	       "100..1000");
	snprintf(args, sizeof(args), "run %s --scheduler cfq-4.19", w50);
	T_EXPECT_RUN(args, 0, "Cgroups (cfq-4.19");
	snprintf(args, sizeof(args), "run %s --scheduler cfq-4.19", w5);
	T_EXPECT_RUN(args, 2, "w5.fio:9", "cfq-4.19", "10..1000");
	snprintf(args, sizeof(args), "run %s --scheduler bfq", w5);
	T_EXPECT_RUN(args, 0, "Cgroups (bfq");
	snprintf(args, sizeof(args), "run %s --scheduler cfq-4.19", conflict);
	T_EXPECT_RUN(args, 2, "conflict.fio:12", "an earlier job gave weight 200");

	/* nesting: 4.19 and bfq have it, 2.6.33's blkio is flat */
	snprintf(args, sizeof(args), "run %s --scheduler cfq-2.6.33", nested);
	T_EXPECT_RUN(args, 2, "nested.fio:8", "cgroup=a/x", "flat");
	snprintf(args, sizeof(args), "run %s --scheduler cfq-4.19", nested);
	T_EXPECT_RUN(args, 0, "a/x", "a/y");

	/* no groups: the run goes on, with a warning per option */
	snprintf(args, sizeof(args), "run %s --scheduler deadline", w50);
	T_EXPECT_RUN(args, 0, "warning", "cgroup=a has no effect", "cgroup_weight=50 has no effect",
	       "deadline has no group scheduling");
	/* blk-mq's 'none': the group still keeps its requests from merging with others' */
	snprintf(args, sizeof(args), "run %s --scheduler none", w50);
	T_EXPECT_RUN(args, 0, "warning", "cgroup=a does not change scheduling",
	       "none has no group scheduling; on blk-mq the group still keeps its requests "
	       "from merging with other groups'", "io.max, io.cost, io.latency",
	       "cgroup_weight=50 has no effect");
	snprintf(args, sizeof(args), "run %s --scheduler cfq", plain);
	T_EXPECT_RUN(args, 0, "warning", "cfq has no group scheduling");
	snprintf(args, sizeof(args), "run %s --scheduler noop --set lab.group_policy=uchida2008",
		 plain);
	T_EXPECT_RUN(args, 0, "lab.group_policy=uchida2008 has no effect");

	/* the 2008 designs: on cfq only; priorities, not weights */
	snprintf(args, sizeof(args), "run %s --scheduler cfq-4.19 --set lab.group_policy=tarasov2008",
		 plain);
	T_EXPECT_RUN(args, 2, "group scheduling of its own", "--scheduler cfq");
	snprintf(args, sizeof(args), "run %s --scheduler cfq --set lab.group_policy=tarasov2008 "
		 "--set cgroup.a.ioprio=7", w50);
	T_EXPECT_RUN(args, 0, "cgroup_weight=50 has no effect under lab.group_policy=tarasov2008",
	       "cfq+tarasov2008", "7/1000ms");
	snprintf(args, sizeof(args), "run %s --scheduler cfq --set lab.group_policy=uchida2008 "
		 "--set cgroup.a.ioprio=8", plain);
	T_EXPECT_RUN(args, 2, "cgroup.a.ioprio=8", "0..7");
	snprintf(args, sizeof(args), "run %s --scheduler cfq --set lab.group_policy=uchida2008 "
		 "--set cgroup.c.ioprio=1", plain);
	T_EXPECT_RUN(args, 2, "no job is in cgroup 'c'");
	snprintf(args, sizeof(args), "run %s --scheduler cfq-2.6.33 --set cgroup.a.ioprio=1",
		 plain);
	T_EXPECT_RUN(args, 2, "weights, not priorities");
	snprintf(args, sizeof(args), "run %s --scheduler cfq --set lab.group_policy=uchida2008 "
		 "--set cgroup.a.weight=1", plain);
	T_EXPECT_RUN(args, 2, "cgroup.PATH.ioprio");

	unlink(w50);
	unlink(w5);
	unlink(nested);
	unlink(conflict);
	unlink(plain);
	rmdir(dir);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_group_options);
}
