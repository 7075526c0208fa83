/*
 * Description: `iosched compare` end to end. A small two-job file under
 * five columns gives the same bytes with one worker and with two (text and
 * JSON); each column's numbers are those of `iosched run` with that
 * scheduler and settings; jobs at different levels get the share tables
 * with the model named; a bare --set goes only to the schedulers that have
 * it; the default columns are every registered scheduler. Bad columns fail
 * with a message naming the scheduler, the tunable and its range before
 * anything runs (even before the job file is read). The progress line:
 * nothing on stderr when it is not a terminal; on a pseudo-terminal
 * (script(1), when installed) a line with simulated time, percent and ETA,
 * redrawn with \r and blanked at the end. Options a column's scheduler
 * ignores (cgroup= under noop) are warned about on stderr, naming the
 * column, once per column that ignores them, and not for a column that
 * uses them.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "json_mini.h"

static char dir[] = "/tmp/iosched-cmp-XXXXXX";
static char job[512], longjob[512];

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

static char *run(const char *args, int *status)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "%s %s", t_iosched_bin(), args);
	return t_run_cmd(cmd, status);
}

static int setup(void)
{
	if (job[0])
		return T_PASS;
	T_ASSERT(mkdtemp(dir));
	T_ASSERT_EQ(write_file("two.fio",
			       "[global]\nrw=read\nbs=64k\ndirect=1\nsize=64m\nruntime=400ms\n"
			       "time_based\nprioclass=2\n\n[hi]\nprio=0\n\n[lo]\nprio=7\n",
			       job, sizeof(job)), 0);
	/*
	 * A second or more of wall time: 20 simulated seconds are about 12
	 * million events, 3.4 s in the normal build. The sanitizer builds
	 * (BUILD other than "build") run about 3.5x slower, so 6 s give them
	 * the same wall time; the checks below do not depend on the length.
	 */
	{
		const char *b = getenv("BUILD");
		char text[256];

		snprintf(text, sizeof(text),
			 "[r]\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=16\n"
			 "size=1g\nruntime=%d\ntime_based\n", !b || !strcmp(b, "build") ? 20 : 6);
		T_ASSERT_EQ(write_file("long.fio", text, longjob, sizeof(longjob)), 0);
	}
	return T_PASS;
}

static int test_workers_identical(void)
{
	const char *cols = "--schedulers noop,deadline,cfq,cfq:fairness=1,bfq";
	char args[2048];
	char *t1, *t2, *j1, *j2;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args), "compare %s %s -j1", job, cols);
	t1 = run(args, &st);
	T_ASSERT_MSG(t1 && st == 0, "exit %d:\n%s", st, t1 ? t1 : "");
	snprintf(args, sizeof(args), "compare %s %s --jobs=2", job, cols);
	t2 = run(args, &st);
	T_ASSERT(t2 && st == 0);
	T_ASSERT_MSG(!strcmp(t1, t2), "-j1 and -j2 differ:\n%s\n----\n%s", t1, t2);
	snprintf(args, sizeof(args), "compare %s %s -j 1 --output-format=json", job, cols);
	j1 = run(args, &st);
	T_ASSERT(j1 && st == 0);
	snprintf(args, sizeof(args), "compare %s %s -j2 --output-format json", job, cols);
	j2 = run(args, &st);
	T_ASSERT(j2 && st == 0);
	T_ASSERT(!strcmp(j1, j2));

	/* the table: columns in --schedulers order, the metrics, the share tables */
	T_ASSERT_MSG(strstr(t1, "noop   deadline        cfq  cfq:fairness=1        bfq\n"),
		     "%s", t1);
	T_ASSERT(strstr(t1, "bandwidth (KiB/s)\n  hi "));
	T_ASSERT(strstr(t1, "\n  Jain's index (bw) "));
	T_ASSERT(strstr(t1, "\n  finish spread "));
	T_ASSERT(strstr(t1, "Jain's index is\nover the per-job bandwidths"));
	T_ASSERT(strstr(t1, "class prio      ideal    xferred  %diff  job\n"));
	T_ASSERT(strstr(t1, "\ncfq:fairness=1 (cfq): ideal from CFQ slice length per level"));
	T_ASSERT(strstr(t1, "\nnoop (noop): ideal from equal shares"));
	T_ASSERT(strstr(t1, "\nbfq (bfq): ideal from BFQ ioprio weight"));
	free(t1);
	free(t2);
	free(j1);
	free(j2);
	return T_PASS;
}

/* read bytes of job @i in a `run` JSON report */
static unsigned long long run_bytes(const char *args, int i)
{
	char path[64];
	int st;
	char *out = run(args, &st);
	struct jm *doc = out && st == 0 ? jm_parse(out, NULL, NULL) : NULL;
	unsigned long long v;

	snprintf(path, sizeof(path), "jobs/%d/read/io_bytes", i);
	v = doc ? jm_u64(doc, path) : 0;
	jm_free(doc);
	free(out);
	return v;
}

static int test_same_as_run(void)
{
	char args[2048], path[128];
	struct jm *doc;
	const char *err = NULL;
	char *out;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args),
		 "compare %s --seed 3 --set slice_idle=0 --schedulers deadline,cfq:fairness=1,bfq "
		 "--output-format=json", job);
	out = run(args, &st);
	T_ASSERT_MSG(out && st == 0, "exit %d: %s", st, out ? out : "");
	doc = jm_parse(out, &err, NULL);
	T_ASSERT_MSG(doc, "bad JSON (%s):\n%s", err, out);
	T_ASSERT_EQ(jm_path(doc, "iosched_compare/runs")->n, 3);
	T_ASSERT(!strcmp(jm_str(doc, "iosched_compare/runs/1/label"), "cfq:fairness=1"));
	T_ASSERT(!strcmp(jm_str(doc, "iosched_compare/runs/1/scheduler"), "cfq"));
	T_ASSERT_U64_EQ(jm_u64(doc, "iosched_compare/seed"), 3);
	/* shares: hi at level 0 (180 ms) against lo at 7 (40 ms) under cfq */
	T_ASSERT_NEAR(jm_num(doc, "iosched_compare/runs/1/jobs/0/ideal_share"), 180.0 / 220.0,
		      1e-6);
	T_ASSERT_NEAR(jm_num(doc, "iosched_compare/runs/0/jobs/0/ideal_share"), 0.5, 1e-6);
	T_ASSERT(jm_path(doc, "iosched_compare/runs/2/shares/rows/1/diff_pct"));
	for (int i = 0; i < 2; i++) {
		static const char *const same[3] = {
			"--scheduler deadline",		/* slice_idle is not deadline's */
			"--scheduler cfq --set slice_idle=0 --set fairness=1",
			"--scheduler bfq --set slice_idle=0",
		};

		for (int c = 0; c < 3; c++) {
			char rargs[2048];
			unsigned long long want;

			snprintf(rargs, sizeof(rargs), "run %s --seed 3 %s --output-format=json", job,
				 same[c]);
			want = run_bytes(rargs, i);
			snprintf(path, sizeof(path), "iosched_compare/runs/%d/jobs/%d/bytes", c, i);
			T_ASSERT_MSG(want && jm_u64(doc, path) == want,
				     "column %d job %d: compare %llu, run %llu", c, i,
				     jm_u64(doc, path), want);
		}
	}
	jm_free(doc);
	free(out);
	return T_PASS;
}

static int test_default_columns(void)
{
	char args[1024];
	char *out;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(args, sizeof(args), "compare %s", job);
	out = run(args, &st);
	T_ASSERT_MSG(out && st == 0, "exit %d", st);
	{
		const char *hdr = strstr(out, "\n\n") + 2;
		const char *eol = strchr(hdr, '\n');
		const struct ios_sched_type *s;

		/*
		 * every single-queue scheduler by its primary name, in
		 * registry order; no blk-mq one (those are named by the user)
		 */
		for (size_t i = 0; (s = ios_sched_at(i)) != NULL; i++) {
			const char *at;

			if (ios_sched_layer(s) == IOS_SCHED_LAYER_MQ) {
				T_ASSERT_MSG(!strstr(hdr, s->name) || strstr(hdr, s->name) > eol,
					     "blk-mq column '%s' in the default:\n%s", s->name, out);
				continue;
			}
			at = strstr(hdr, s->name);

			T_ASSERT_MSG(at && at < eol, "no column '%s' in:\n%s", s->name, out);
			hdr = at + strlen(s->name);
		}
	}
	free(out);
	snprintf(args, sizeof(args), "compare --help");
	out = run(args, &st);
	T_ASSERT(out && st == 0);
	T_ASSERT(strstr(out, "every\n                      scheduler by its primary name: noop,"));
	free(out);
	return T_PASS;
}

#define EXPECT(args_, want_status, needle)                                         \
	do {                                                                       \
		char a_[2100], *out_;                                              \
		int st_;                                                           \
		snprintf(a_, sizeof(a_), "%s 2>&1", args_);                        \
		out_ = run(a_, &st_);                                              \
		T_ASSERT(out_);                                                    \
		T_ASSERT_MSG(st_ == (want_status), "'%s': exit %d, want %d:\n%s",  \
			     args_, st_, want_status, out_);                       \
		T_ASSERT_MSG(strstr(out_, needle), "'%s': no '%s' in:\n%s", args_, \
			     needle, out_);                                        \
		T_ASSERT_MSG(!strstr(out_, "bandwidth (KiB/s)"), "'%s' ran:\n%s", args_, out_); \
		free(out_);                                                        \
	} while (0)

static int test_bad_columns(void)
{
	char a[2048];
	/* a job file that does not exist: the columns are checked before it is read */
	const char *nojob = "/nonexistent/none.fio";

	T_ASSERT_EQ(setup(), T_PASS);
	snprintf(a, sizeof(a), "compare %s --schedulers noop,nosuch", nojob);
	EXPECT(a, 2, "unknown scheduler 'nosuch' (known: noop, deadline");
	snprintf(a, sizeof(a), "compare %s --schedulers cfq,cfq-2.6.31-rc7:fairness=1", nojob);
	EXPECT(a, 2, "unknown scheduler 'cfq-2.6.31-rc7' (did you mean 'cfq-2.6.31'?) (known: noop, deadline");
	snprintf(a, sizeof(a), "compare %s --schedulers noop,cfq:nosuch=1", nojob);
	EXPECT(a, 2, "--schedulers cfq:nosuch=1: scheduler 'cfq' has no tunable 'nosuch' "
		     "(its tunables: quantum,");
	snprintf(a, sizeof(a), "compare %s --schedulers cfq,cfq:fairness=1:slice_idle=-1", nojob);
	EXPECT(a, 2, "scheduler 'cfq': slice_idle=-1: out of range for cfq, allowed 0..3600000 ms");
	snprintf(a, sizeof(a), "compare %s --schedulers cfq-4.19:quantum=0", nojob);
	EXPECT(a, 2, "--schedulers cfq-4.19:quantum=0: scheduler 'cfq-4.19': quantum=0: out of "
		     "range for cfq-4.19, allowed 1..2147483647");
	snprintf(a, sizeof(a), "compare %s --schedulers deadline:read_expire=-1", nojob);
	EXPECT(a, 2, "scheduler 'deadline': read_expire=-1: out of range for deadline, "
		     "allowed 0..3600000 ms");
	snprintf(a, sizeof(a), "compare %s --schedulers cfq:fairness=2", nojob);
	EXPECT(a, 2, "fairness=2: expected 0 or 1 (allowed 0|1)");
	snprintf(a, sizeof(a), "compare %s --schedulers noop:fairness=1", nojob);
	EXPECT(a, 2, "scheduler 'noop' has no tunable 'fairness'");
	snprintf(a, sizeof(a), "compare %s --schedulers cfq-2.6.33:target_latency=5", nojob);
	EXPECT(a, 2, "target_latency: read-only");
	snprintf(a, sizeof(a), "compare %s --schedulers noop:device.rpm=0", nojob);
	EXPECT(a, 2, "device.rpm=0: out of range for hdd-2009, allowed 1000..30000 rpm");
	snprintf(a, sizeof(a), "compare %s --schedulers noop:foo.bar=1", nojob);
	EXPECT(a, 2, "unknown tunable 'foo.bar'");
	snprintf(a, sizeof(a), "compare %s --schedulers cfq,", nojob);
	EXPECT(a, 2, "--schedulers: empty entry");
	snprintf(a, sizeof(a), "compare %s --schedulers cfq:fairness", nojob);
	EXPECT(a, 2, "'fairness': expected NAME=VALUE");
	snprintf(a, sizeof(a), "compare %s --set fairness=1 --schedulers noop,deadline", nojob);
	EXPECT(a, 2, "none of the compared schedulers has a tunable 'fairness'");
	snprintf(a, sizeof(a), "compare %s --set queue.nr_requests=1", nojob);
	EXPECT(a, 2, "queue.nr_requests=1: out of range, allowed 4..1048576");
	snprintf(a, sizeof(a), "compare %s -j0", job);
	EXPECT(a, 2, "--jobs=0: allowed 1..256");
	snprintf(a, sizeof(a), "compare %s --scheduler cfq", job);
	EXPECT(a, 2, "use --schedulers");
	snprintf(a, sizeof(a), "compare --schedulers noop");
	EXPECT(a, 2, "no job file given");
	/* fio logs: every column would write the same files */
	{
		char logjob[600];

		T_ASSERT_EQ(write_file("log.fio", "[r]\nrw=read\nsize=1m\nwrite_bw_log=x\n", logjob,
				       sizeof(logjob)), 0);
		snprintf(a, sizeof(a), "compare %s --schedulers noop,cfq", logjob);
		EXPECT(a, 2, "job 'r' sets write_bw_log");
	}
	/* good columns, missing file: now the file is the error */
	snprintf(a, sizeof(a), "compare %s --schedulers noop", nojob);
	EXPECT(a, 2, "nonexistent");
	return T_PASS;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int test_progress(void)
{
	char cmd[4096], errf[600];
	char *out, *err;
	double t0, took;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	/* not a terminal: stderr stays empty, also for runs longer than a second */
	snprintf(errf, sizeof(errf), "%s/stderr", dir);
	snprintf(cmd, sizeof(cmd), "%s run %s --device ssd-nvme >/dev/null 2>%s", t_iosched_bin(),
		 longjob, errf);
	out = t_run_cmd(cmd, &st);
	T_ASSERT(out && st == 0);
	free(out);
	err = t_read_file(errf, NULL);
	T_ASSERT_MSG(err && !*err, "stderr: '%s'", err ? err : "(unreadable)");
	free(err);
	snprintf(cmd, sizeof(cmd), "%s compare %s --device ssd-nvme --schedulers noop,deadline "
		 ">/dev/null 2>%s", t_iosched_bin(), longjob, errf);
	out = t_run_cmd(cmd, &st);
	T_ASSERT(out && st == 0);
	free(out);
	err = t_read_file(errf, NULL);
	T_ASSERT_MSG(err && !*err, "stderr: '%s'", err ? err : "(unreadable)");
	free(err);

	/* a terminal: script(1) runs the command on a pseudo-terminal */
	out = t_run_cmd("command -v script >/dev/null 2>&1 && script -qfec true /dev/null "
			">/dev/null 2>&1 && echo yes", &st);
	if (!out || strncmp(out, "yes", 3)) {
		free(out);
		printf("    script(1) with a pty not available: only the non-terminal case tested\n");
		return T_PASS;
	}
	free(out);
	for (int k = 0; k < 2; k++) {
		snprintf(cmd, sizeof(cmd), "script -qfec \"%s %s %s --device ssd-nvme %s >/dev/null\" "
			 "/dev/null", t_iosched_bin(), k ? "compare" : "run", longjob,
			 k ? "--schedulers noop,deadline -j2" : "");
		t0 = now_s();
		out = t_run_cmd(cmd, &st);
		took = now_s() - t0;
		T_ASSERT(out && st == 0);
		if (took < 1.5 && !strstr(out, "ETA")) {
			/* too quick to be sure the line was due */
			printf("    %s took %.2f s: no progress line expected\n", k ? "compare" : "run",
			       took);
			free(out);
			continue;
		}
		T_ASSERT_MSG(strstr(out, "\r") && strstr(out, "ETA ") && strstr(out, "%"),
			     "no progress line after %.2f s: '%s'", took, out);
		/*
		 * compare: a running column's own status; with -j2 either column
		 * may be the one still running when a line is drawn
		 */
		T_ASSERT(k ? strstr(out, "deadline: sim ") || strstr(out, "noop: sim ")
			   : strstr(out, "\rsim ") != NULL);
		T_ASSERT(strstr(out, k ? "/2 done, " : " s  "));
		/* the end: the line blanked with spaces between two \r, nothing after */
		{
			size_t n = strlen(out);

			T_ASSERT(n >= 2 && out[n - 1] == '\r');
			for (size_t i = n - 2; out[i] != '\r'; i--)
				T_ASSERT_MSG(out[i] == ' ', "line not blanked: '%s'", out + (n > 200 ? n - 200 : 0));
		}
		printf("    %s: progress shown on a pty after %.2f s\n", k ? "compare" : "run", took);
		free(out);
	}
	return T_PASS;
}

static int test_warnings(void)
{
	char cmd[4096], errf[600], gj[512];
	char *out, *err;
	int st;

	T_ASSERT_EQ(setup(), T_PASS);
	T_ASSERT_EQ(write_file("grp.fio",
			       "[global]\nrw=read\nbs=64k\ndirect=1\nsize=16m\nruntime=200ms\n"
			       "time_based\n\n[a]\ncgroup=a\ncgroup_weight=500\n\n[b]\ncgroup=b\n",
			       gj, sizeof(gj)), 0);
	snprintf(errf, sizeof(errf), "%s/stderr", dir);
	snprintf(cmd, sizeof(cmd), "%s compare %s --schedulers noop,cfq-4.19,deadline "
		 ">/dev/null 2>%s", t_iosched_bin(), gj, errf);
	out = t_run_cmd(cmd, &st);
	T_ASSERT(out && st == 0);
	free(out);
	err = t_read_file(errf, NULL);
	T_ASSERT(err);
	T_ASSERT_MSG(strstr(err, "iosched: warning: noop: ") &&
		     strstr(err, "grp.fio:10: job 'a': cgroup=a has no effect: noop has no group "
				 "scheduling"), "stderr: '%s'", err);
	T_ASSERT_MSG(strstr(err, "iosched: warning: deadline: ") &&
		     strstr(err, "cgroup_weight=500 has no effect: deadline"), "stderr: '%s'", err);
	/* cfq-4.19 has groups: nothing to say; noop's warnings come before deadline's */
	T_ASSERT_MSG(!strstr(err, "cfq-4.19"), "stderr: '%s'", err);
	T_ASSERT(strstr(err, "warning: noop") < strstr(err, "warning: deadline"));
	free(err);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_workers_identical, test_same_as_run, test_default_columns,
			test_bad_columns, test_progress, test_warnings);
	static const char *const files[] = { "two.fio", "long.fio", "log.fio", "grp.fio",
						   "stderr" };
	char path[600];

	if (job[0]) {
		for (size_t i = 0; i < IOS_ARRAY_SIZE(files); i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			unlink(path);
		}
		rmdir(dir);
	}
	return ret;
}
