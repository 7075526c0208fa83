/*
 * Description: io.bfq.weight and systemd's IOWeight= on blk-mq
 * (src/run/cgroup.c; docs/cgroup-v2.md "io.bfq.weight"). Under bfq-6.12 a
 * group's io.bfq.weight is its BFQ group weight (bfq_io_set_weight), the
 * per-device weight winning over the default (bfq_group_set_weight:
 * dev_weight ?: weight): a run with io.bfq.weight=N reports exactly what
 * the same run with fio's cgroup_weight=N reports, and a cgroup_weight= of
 * the same group is replaced, with a note. cgroup.PATH.systemd.IOWeight=N
 * writes io.weight "default N" and io.bfq.weight BFQ_WEIGHT(N) as systemd
 * does (1 -> 1, 99 -> 99, 101 -> 100, 500 -> 136, 10000 -> 1000), refuses
 * 0, 10001 and the root. io.weight alone changes nothing under bfq-6.12
 * (it is io.cost's file) and the run says so; another blk-mq scheduler
 * ignores io.bfq.weight and says so.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"

static char dir[] = "/tmp/iosched-weights-XXXXXX";

/* stdout only (the JSON report), for byte comparisons */
static char *run_out(const char *args)
{
	char cmd[4096];
	int st;
	char *out;

	snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", t_iosched_bin(), args);
	out = t_run_cmd(cmd, &st);
	if (out && st) {
		free(out);
		return NULL;
	}
	/*
	 * The cgroup v2 section echoes the files as written ("    set  :"); the
	 * comparisons here are about what the run did, so that line is cut out.
	 */
	for (char *p = out; p && (p = strstr(p, "    set  :")); ) {
		char *nl = strchr(p, '\n');

		if (p != out && p[-1] != '\n') {
			p++;
			continue;
		}
		memmove(p, nl ? nl + 1 : p + strlen(p), strlen(nl ? nl + 1 : p + strlen(p)) + 1);
	}
	return out;
}

static int write_job(char *path, size_t len, const char *name, const char *a_extra)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "[global]\nfilename=/dev/sdb\nsize=4g\nrw=read\ndirect=1\nioengine=psync\n"
		"bs=64k\nruntime=2s\ntime_based\n[a]\ncgroup=a\noffset=0\n%s[b]\ncgroup=b\n"
		"offset=2g\n", a_extra);
	return fclose(f);
}

static int same(const char *args1, const char *args2)
{
	char *x = run_out(args1), *y = run_out(args2);
	int ok = x && y && !strcmp(x, y);

	if (!ok)
		fprintf(stderr, "'%s' and '%s' differ (or failed)\n", args1, args2);
	free(x);
	free(y);
	return ok;
}

static int test_cli(void)
{
	char plain[512], weighted[512], a1[2048], a2[2048];
	char *x, *y;

	T_ASSERT(mkdtemp(dir));
	T_ASSERT(!write_job(plain, sizeof(plain), "plain.fio", ""));
	T_ASSERT(!write_job(weighted, sizeof(weighted), "w.fio", "cgroup_weight=300\n"));
	/* io.bfq.weight is the group weight: the same report as cgroup_weight= */
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set "
		 "cgroup.a.io.bfq.weight=300", plain);
	snprintf(a2, sizeof(a2), "run %s --scheduler bfq-6.12", weighted);
	T_ASSERT(same(a1, a2));
	/* the per-device weight wins over the default */
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set "
		 "'cgroup.a.io.bfq.weight=default 50' --set 'cgroup.a.io.bfq.weight=8:0 300'", plain);
	T_ASSERT(same(a1, a2));
	/* and it matters: weight 300 is not the default's report */
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12", plain);
	x = run_out(a1);
	y = run_out(a2);
	T_ASSERT(x && y);
	T_ASSERT_MSG(strcmp(x, y), "weight 300 reports what the default does");
	free(x);
	free(y);
	/* cgroup_weight= replaced by a later io.bfq.weight */
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set cgroup.a.io.bfq.weight=200",
		 weighted);
	T_EXPECT_RUN(a1, 0, "cgroup 'a': io.bfq.weight 200 replaces cgroup_weight=300");
	/* systemd's IOWeight: BFQ_WEIGHT's map, and the same run as the two files */
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set "
		 "cgroup.a.systemd.IOWeight=500", plain);
	snprintf(a2, sizeof(a2), "run %s --scheduler bfq-6.12 --set "
		 "cgroup.a.io.bfq.weight=136 --set 'cgroup.a.io.weight=default 500'", plain);
	T_ASSERT(same(a1, a2));
	{
		static const struct { unsigned in, out; } map[] = {
			{ 1, 1 }, { 99, 99 }, { 100, 100 }, { 101, 100 }, { 500, 136 },
			{ 1000, 181 }, { 10000, 1000 },
		};

		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
			char want[128];

			snprintf(a1, sizeof(a1), "run %s --scheduler none --set "
				 "cgroup.a.systemd.IOWeight=%u", plain, map[i].in);
			snprintf(want, sizeof(want), "io.weight \"default %u\" and io.bfq.weight "
				 "\"%u\"", map[i].in, map[i].out);
			T_EXPECT_RUN(a1, 0, want);
		}
	}
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set cgroup.a.systemd.IOWeight=0",
		 plain);
	T_EXPECT_RUN(a1, 2, "IOWeight= takes 1..10000");
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set "
		 "cgroup.a.systemd.IOWeight=10001", plain);
	T_EXPECT_RUN(a1, 2, "IOWeight= takes 1..10000");
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set cgroup.systemd.IOWeight=5",
		 plain);
	T_EXPECT_RUN(a1, 2, "never on the root cgroup");
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq --set cgroup.a.systemd.IOWeight=5", plain);
	T_EXPECT_RUN(a1, 2, "-EOPNOTSUPP");
	/* io.weight alone under BFQ: not read, and said so */
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12 --set cgroup.a.io.weight=500", plain);
	T_EXPECT_RUN(a1, 0, "io.weight: bfq-6.12 reads io.bfq.weight only");
	snprintf(a1, sizeof(a1), "run %s --scheduler bfq-6.12", plain);
	snprintf(a2, sizeof(a2), "run %s --scheduler bfq-6.12 --set cgroup.a.io.weight=500", plain);
	T_ASSERT(same(a1, a2));
	/* another blk-mq scheduler: ignored, said once */
	snprintf(a1, sizeof(a1), "run %s --scheduler mq-deadline --set cgroup.a.io.bfq.weight=300",
		 plain);
	T_EXPECT_RUN(a1, 0, "io.bfq.weight is read by BFQ only; mq-deadline-6.12 ignores it");
	unlink(plain);
	unlink(weighted);
	rmdir(dir);
	return T_PASS;
}

int main(void)
{
	if (access(t_iosched_bin(), X_OK))
		return T_SKIP;
	return T_RUN(test_cli);
}
