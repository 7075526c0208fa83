/*
 * Description: fio's exec_prerun= read as cgroup v2 file writes
 * (job/prerun.c, run/cgroup.c; docs/cgroup-v2.md "Job files"). The parser
 * takes echo [-n] WORDS > /sys/fs/cgroup/[PATH/]FILE joined by ';' or
 * '&&', quotes as the shell reads them, and refuses every other shell
 * form with what it did not understand. The runner applies the writes of
 * a job that starts with the run before the first I/O (after --set), and
 * those of a later job when it starts, checking them first so that a bad
 * value stops the run before it begins; a later write that the kernel's
 * parser refuses at that time is reported, as is a write no controller
 * re-reads during the run. In a job file, ';' starts a comment (fio's
 * rule), so only '&&' joins writes there.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/job.h"

#define T_ASSERT_STREQ(a, b) T_ASSERT_MSG(!strcmp((a), (b)), "'%s', want '%s'", (a), (b))

struct good_row {
	const char *cmd;
	size_t n;
	const char *path0, *file0, *value0;
	const char *path_last, *file_last, *value_last;
};

static const struct good_row good[] = {
	{ "echo rbps=1 > /sys/fs/cgroup/web/io.max", 1, "web", "io.max", "rbps=1",
	  "web", "io.max", "rbps=1" },
	/* echo joins words with one space; quotes glue; -n changes nothing here */
	{ "echo -n 8:0   rbps=1 'wbps=2' > /sys/fs/cgroup/a/b/io.max", 1, "a/b", "io.max",
	  "8:0 rbps=1 wbps=2", "a/b", "io.max", "8:0 rbps=1 wbps=2" },
	{ "echo \"enable=1 ctrl=auto\" >/sys/fs/cgroup/io.cost.qos", 1, "", "io.cost.qos",
	  "enable=1 ctrl=auto", "", "io.cost.qos", "enable=1 ctrl=auto" },
	{ "echo 500 > /sys/fs/cgroup/x/io.weight; echo idle > /sys/fs/cgroup/y/io.prio.class;", 2,
	  "x", "io.weight", "500", "y", "io.prio.class", "idle" },
	{ "echo a\"b c\"'d' > '/sys/fs/cgroup/q r/io.max' && echo 1 > /sys/fs/cgroup/z/io.weight",
	  2, "q r", "io.max", "ab cd", "z", "io.weight", "1" },
};

static const struct { const char *cmd, *why; } bad[] = {
	{ "", "where echo belongs" },
	{ "cat /etc/passwd", "'cat' is not echo" },
	{ "echo > /sys/fs/cgroup/a/io.max", "echo without a value" },
	{ "echo 1 >> /sys/fs/cgroup/a/io.weight", "where '> /sys/fs/cgroup/PATH/FILE' belongs" },
	{ "echo 1 | tee /sys/fs/cgroup/a/io.weight", "where '> /sys/fs/cgroup" },
	{ "echo $W > /sys/fs/cgroup/a/io.weight", "where '> /sys/fs/cgroup" },
	{ "echo \"$W\" > /sys/fs/cgroup/a/io.weight", "'$' inside double quotes" },
	{ "echo 'x > /sys/fs/cgroup/a/io.weight", "unterminated ' quote" },
	{ "echo -e 1 > /sys/fs/cgroup/a/io.weight", "echo -e" },
	{ "echo 1 > /tmp/io.weight", "outside /sys/fs/cgroup/" },
	{ "echo 1 > /sys/fs/cgroup/a/", "names a directory" },
	{ "echo 1 > /sys/fs/cgroup/", "names a directory" },
	{ "echo 1 > /sys/fs/cgroup/../a/io.weight", "no '.', '..' or '//'" },
	{ "echo 1 > /sys/fs/cgroup/a//io.weight", "no '.', '..' or '//'" },
	{ "echo 1 > /sys/fs/cgroup/a/io.weight & echo 2", "joined by ';' or '&&'" },
	{ "echo 1 > /sys/fs/cgroup/a/io.weight || true", "joined by ';' or '&&'" },
	{ "echo 1 > /sys/fs/cgroup/a/io.weight; sleep 1", "'sleep' is not echo" },
	{ "echo 1 2>/dev/null", "redirects descriptor 2" },
	{ "echo 1 2> /sys/fs/cgroup/a/io.weight", "redirects descriptor 2" },
	{ "echo 1 >/sys/fs/cgroup/a/io.weight 2>&1", "'2>&1' after a write" },
};

static int test_parse(void)
{
	char msg[512];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		const struct good_row *r = &good[i];
		struct ios_cgwrite *w;
		size_t n;
		int ret = ios_job_prerun_parse(r->cmd, &w, &n, msg, sizeof(msg));

		T_ASSERT_MSG(!ret, "'%s': %d (%s)", r->cmd, ret, msg);
		T_ASSERT_MSG(n == r->n, "'%s': %zu writes, want %zu", r->cmd, n, r->n);
		T_ASSERT_STREQ(w[0].path, r->path0);
		T_ASSERT_STREQ(w[0].file, r->file0);
		T_ASSERT_STREQ(w[0].value, r->value0);
		T_ASSERT_STREQ(w[n - 1].path, r->path_last);
		T_ASSERT_STREQ(w[n - 1].file, r->file_last);
		T_ASSERT_STREQ(w[n - 1].value, r->value_last);
		ios_job_prerun_free(w, n);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ios_cgwrite *w = (void *)1;
		size_t n = 7;
		int ret = ios_job_prerun_parse(bad[i].cmd, &w, &n, msg, sizeof(msg));

		T_ASSERT_MSG(ret == -EINVAL, "'%s': %d, want -EINVAL", bad[i].cmd, ret);
		T_ASSERT_MSG(!w && !n, "'%s': output left set", bad[i].cmd);
		T_ASSERT_MSG(strstr(msg, bad[i].why), "'%s': message '%s' lacks '%s'", bad[i].cmd,
			     msg, bad[i].why);
	}
	return T_PASS;
}

static char dir[] = "/tmp/iosched-prerun-XXXXXX";

static int write_job(char *path, size_t len, const char *name, const char *body)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("[global]\nrw=randread\ndirect=1\nsize=8m\nruntime=20ms\ntime_based\n", f);
	fputs(body, f);
	return fclose(f);
}

static int test_cli(void)
{
	char job[512], args[2048];
	char *out;
	int st;

	T_ASSERT(mkdtemp(dir));
	/* at the run's start: as --set (io.latency's summary names the target) */
	T_ASSERT(!write_job(job, sizeof(job), "start.fio", "[a]\ncgroup=web\nexec_prerun=echo "
			    "'target=500' > /sys/fs/cgroup/web/io.latency\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	T_EXPECT_RUN(args, 0, "io.latency: web (target 500 us)");
	/* after the --set ones: the job's write is what the run uses */
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.web.io.latency=target=600",
		 job);
	T_EXPECT_RUN(args, 0, "io.latency: web (target 500 us)");
	/* a bad value stops the run, naming the line and the kernel's rule */
	T_ASSERT(!write_job(job, sizeof(job), "bad.fio", "[a]\ncgroup=web\nexec_prerun=echo "
			    "rbps=0 > /sys/fs/cgroup/web/io.max\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	T_EXPECT_RUN(args, 2, "bad.fio:9: job 'a': exec_prerun", "a limit of 0 is refused",
	       "tg_set_limit");
	/* a file iosched does not model */
	T_ASSERT(!write_job(job, sizeof(job), "procs.fio", "[a]\ncgroup=web\nexec_prerun=echo 1 "
			    "> /sys/fs/cgroup/web/cgroup.procs\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	T_EXPECT_RUN(args, 2, "procs.fio:9", "'cgroup.procs' is not one of them");
	/* a group no job is in; the root rule */
	T_ASSERT(!write_job(job, sizeof(job), "nogroup.fio", "[a]\ncgroup=web\nexec_prerun=echo 1 "
			    "> /sys/fs/cgroup/db/io.weight && echo 1 > /sys/fs/cgroup/io.max\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	T_EXPECT_RUN(args, 2, "no job is in cgroup 'db'");
	/* the single-queue layer keeps cgroup v1 */
	snprintf(args, sizeof(args), "run %s/start.fio --scheduler deadline", dir);
	T_EXPECT_RUN(args, 2, "exec_prerun: cgroup.web.io.latency", "-EOPNOTSUPP");
	/* another command: refused at its line (the option's own check) */
	T_ASSERT(!write_job(job, sizeof(job), "cmd.fio", "[a]\nexec_prerun=sync && echo 3 > "
			    "/proc/sys/vm/drop_caches\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	T_EXPECT_RUN(args, 2, "cmd.fio:8", "iosched runs no commands", "'sync' is not echo");
	/* in a job file ';' starts a comment (fio's rule): the second write is not read */
	T_ASSERT(!write_job(job, sizeof(job), "semi.fio", "[a]\ncgroup=web\nexec_prerun=echo 1 > "
			    "/sys/fs/cgroup/web/io.weight; echo rbps=0 > /sys/fs/cgroup/web/io.max\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	T_EXPECT_RUN(args, 0, "io.weight does nothing until io.cost.qos enable=1");
	/*
	 * later jobs: checked before the run, applied when they start; a
	 * write refused then (min above the max b wrote) is reported, and so
	 * is a write no controller re-reads during the run
	 */
	T_ASSERT(!write_job(job, sizeof(job), "later.fio",
			    "[a]\ncgroup=web\n"
			    "[b]\nstonewall\ncgroup=web\nexec_prerun=echo \"enable=1 min=50 max=60\" > "
			    "/sys/fs/cgroup/io.cost.qos && echo -n wiops=5 > /sys/fs/cgroup/web/io.max\n"
			    "[c]\nstonewall\ncgroup=web\nexec_prerun=echo max=40 > "
			    "/sys/fs/cgroup/io.cost.qos\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	/* io.cost (4a) and io.max (3) re-read later writes; the refused one is reported */
	T_EXPECT_RUN(args, 0, "1 exec_prerun cgroup write was refused when its job started",
	       "later.fio:16: job 'c' at", "min 50.00 % is above max 40.00 %");
	/* a bad value in a later job still stops the run before it starts */
	T_ASSERT(!write_job(job, sizeof(job), "laterbad.fio", "[a]\ncgroup=web\n[b]\nstonewall\n"
			    "cgroup=web\nexec_prerun=echo 10001 > /sys/fs/cgroup/web/io.weight\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	T_EXPECT_RUN(args, 2, "laterbad.fio:12: job 'b': exec_prerun", "outside 1..10000");
	/* without exec_prerun nothing is said */
	T_ASSERT(!write_job(job, sizeof(job), "plain.fio", "[a]\ncgroup=web\n"));
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	out = t_run_iosched(args, &st);
	T_ASSERT(out);
	T_ASSERT_EQ(st, 0);
	T_ASSERT_MSG(!strstr(out, "exec_prerun") && !strstr(out, "not yet modelled"),
		     "a note without writes:\n%s", out);
	free(out);
	{
		static const char *const files[] = { "start.fio", "bad.fio", "procs.fio",
						     "nogroup.fio", "cmd.fio", "semi.fio",
						     "later.fio", "laterbad.fio", "plain.fio" };

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(job, sizeof(job), "%s/%s", dir, files[i]);
			unlink(job);
		}
	}
	rmdir(dir);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_parse);

	if (ret || access(t_iosched_bin(), X_OK))
		return ret;
	return T_RUN(test_cli);
}
