/*
 * Description: the bw / iops windows of a job without a rate log are
 * closed lazily, with no timer in the event queue (issue 16, item 3). The
 * same jobs with a windowed bw and iops log keep the timer; both ways must
 * give the same samples: the same count, minimum and maximum, and the same
 * mean and variance (to 1e-9; a run of more than 8 empty windows goes in as
 * one merged block). Covered: two directions (randrw), a ramp (windows
 * before stats count are not sampled), a reader that thinks for longer
 * than several windows, windows of 250 and 400 ms, a buffered writer, and
 * the --status-interval snapshots taken while jobs run (every 730 ms, off
 * the windows' ends: a snapshot at a window's end includes that window
 * lazily, while with the timer it depended on which timer was armed
 * first). The lazy run has
 * fewer events, and its count does not grow with the windows.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"

static char dir[] = "/tmp/iosched-lazy-XXXXXX";

#define SNAP_MAX 64
#define JOBS_MAX 8

struct snaps {
	unsigned n;
	struct ios_job_result j[SNAP_MAX][JOBS_MAX];
	size_t nr_jobs;
};

static int on_status(void *arg, const struct ios_run_result *snap)
{
	struct snaps *s = arg;

	if (s->n >= SNAP_MAX)
		return 0;
	s->nr_jobs = snap->nr_jobs < JOBS_MAX ? snap->nr_jobs : JOBS_MAX;
	for (size_t i = 0; i < s->nr_jobs; i++) {
		/* only the sample statistics are compared: no pointers kept */
		s->j[s->n][i].dir[IOS_READ].bw = snap->jobs[i].dir[IOS_READ].bw;
		s->j[s->n][i].dir[IOS_READ].iops = snap->jobs[i].dir[IOS_READ].iops;
		s->j[s->n][i].dir[IOS_WRITE].bw = snap->jobs[i].dir[IOS_WRITE].bw;
		s->j[s->n][i].dir[IOS_WRITE].iops = snap->jobs[i].dir[IOS_WRITE].iops;
	}
	s->n++;
	return 0;
}

static int run(const char *job, const char *sched, uint64_t status_ns, struct snaps *s,
	       struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("lazy.fio", job, strlen(job), &po, &jf, &e);
	if (!ret) {
		cfg.scheduler = sched;
		cfg.device = "hdd-2009";
		cfg.seed = 1;
		if (s) {
			memset(s, 0, sizeof(*s));
			cfg.status = on_status;
			cfg.status_arg = s;
			cfg.status_every_ns = status_ns;
		}
		ret = ios_run(&jf, &cfg, res, &e);
	}
	if (ret)
		fprintf(stderr, "%s: %s\n", sched, e.msg);
	ios_jobfile_free(&jf);
	return ret;
}

static bool close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) > fabs(b) ? fabs(a) : fabs(b)) + 1e-12;
}

/* Same samples: exact count and extremes, mean and m2 to rounding. */
static int same_stat(const char *what, size_t job, int d, const struct ios_sample_stat *a,
		     const struct ios_sample_stat *b)
{
	if (a->n == b->n && a->min == b->min && a->max == b->max && close_to(a->mean, b->mean) &&
	    close_to(a->m2, b->m2))
		return 0;
	fprintf(stderr,
		"%s job %zu dir %d: lazy n=%" PRIu64 " min=%g max=%g mean=%.9g m2=%.9g, "
		"timer n=%" PRIu64 " min=%g max=%g mean=%.9g m2=%.9g\n",
		what, job, d, a->n, a->min, a->max, a->mean, a->m2, b->n, b->min, b->max, b->mean,
		b->m2);
	return -1;
}

static int same_job(const char *what, size_t i, const struct ios_job_result *a,
		    const struct ios_job_result *b)
{
	int bad = 0;

	for (int d = 0; d < 2; d++) {
		bad |= same_stat(what, i, d, &a->dir[d].bw, &b->dir[d].bw);
		bad |= same_stat(what, i, d, &a->dir[d].iops, &b->dir[d].iops);
	}
	return bad;
}

/*
 * The jobs, %s filled with nothing (lazy) or with a windowed bw and iops
 * log of the same windows (bwavgtime / iopsavgtime given, so that
 * log_avg_msec does not replace them): the timer.
 */
static const char jobs_fmt[] =
	"[global]\nruntime=6s\ntime_based=1\nfilename=/dev/sdb\ndirect=1\n%s"
	"[seq]\nrw=read\nbs=64k\nsize=256m\nbwavgtime=500\niopsavgtime=500\n"
	"[mix]\nrw=randrw\nbs=4k\nsize=64m\noffset=1g\nramp_time=1500ms\n"
	"bwavgtime=250\niopsavgtime=400\n"
	"[thinker]\nrw=randread\nbs=4k\nsize=64m\noffset=2g\nthinktime=4700ms\n"
	"bwavgtime=500\niopsavgtime=500\n"
	"[buffered]\nrw=write\nbs=16k\nsize=32m\noffset=3g\ndirect=0\nbwavgtime=500\n"
	"iopsavgtime=500\n";
static const char log_opts[] = "write_bw_log=lazy\nwrite_iops_log=lazy\nlog_avg_msec=100\n";

static int compare(const char *sched)
{
	static struct snaps sa, sb;
	struct ios_run_result a, b;
	char ja[2048], jb[2048];
	int bad = 0;

	snprintf(ja, sizeof(ja), jobs_fmt, "");
	snprintf(jb, sizeof(jb), jobs_fmt, log_opts);
	if (run(ja, sched, 730 * IOS_NSEC_PER_MSEC, &sa, &a))
		return -1;
	if (run(jb, sched, 730 * IOS_NSEC_PER_MSEC, &sb, &b)) {
		ios_run_result_free(&a);
		return -1;
	}
	if (a.nr_jobs != b.nr_jobs || sa.n != sb.n || sa.n < 5) {
		fprintf(stderr, "%s: %zu/%zu jobs, %u/%u snapshots\n", sched, a.nr_jobs, b.nr_jobs,
			sa.n, sb.n);
		bad = -1;
	}
	for (size_t i = 0; !bad && i < a.nr_jobs; i++)
		bad |= same_job("end", i, &a.jobs[i], &b.jobs[i]);
	for (unsigned k = 0; !bad && k < sa.n; k++)
		for (size_t i = 0; i < sa.nr_jobs; i++)
			bad |= same_job("snapshot", i, &sa.j[k][i], &sb.j[k][i]);
	/* the windows were there to sample: 6 s of 500 ms windows and the ramped job's */
	if (!bad && (a.jobs[0].dir[IOS_READ].bw.n < 11 || a.jobs[1].dir[IOS_WRITE].bw.n < 17 ||
		     a.jobs[1].dir[IOS_READ].iops.n < 10 || a.jobs[2].dir[IOS_READ].bw.n < 11)) {
		fprintf(stderr, "%s: too few windows: %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			sched, a.jobs[0].dir[IOS_READ].bw.n, a.jobs[1].dir[IOS_WRITE].bw.n,
			a.jobs[1].dir[IOS_READ].iops.n, a.jobs[2].dir[IOS_READ].bw.n);
		bad = -1;
	}
	/* the thinker's windows are mostly empty: zero is its minimum */
	if (!bad && a.jobs[2].dir[IOS_READ].bw.min != 0.0) {
		fprintf(stderr, "%s: thinker's bw min %g\n", sched, a.jobs[2].dir[IOS_READ].bw.min);
		bad = -1;
	}
	if (!bad && a.nr_events >= b.nr_events) {
		fprintf(stderr, "%s: lazy %" PRIu64 " events, timer %" PRIu64 "\n", sched,
			a.nr_events, b.nr_events);
		bad = -1;
	}
	ios_run_result_free(&a);
	ios_run_result_free(&b);
	return bad;
}

static int test_lazy_equals_timer_noop(void)
{
	T_ASSERT(compare("noop") == 0);
	return T_PASS;
}

static int test_lazy_equals_timer_cfq(void)
{
	T_ASSERT(compare("cfq") == 0);
	return T_PASS;
}

static int test_lazy_equals_timer_bfq(void)
{
	T_ASSERT(compare("bfq") == 0);
	return T_PASS;
}

/*
 * A reader that thinks 1 s between 4 KiB reads for 60 s: with the timer
 * a window ticks at least while the read is in flight; lazily, the events
 * are the I/O's own, so 10x the run time costs no more events per I/O.
 */
static int test_events_flat_in_time(void)
{
	static const char j10[] = "[t]\nrw=randread\nbs=4k\nsize=16m\nfilename=/dev/sdb\ndirect=1\n"
				  "thinktime=1s\nnumber_ios=10\n";
	static const char j100[] = "[t]\nrw=randread\nbs=4k\nsize=16m\nfilename=/dev/sdb\ndirect=1\n"
				   "thinktime=10s\nnumber_ios=10\n";
	struct ios_run_result a, b;
	uint64_t ea, eb, na, nb;

	T_ASSERT(run(j10, "noop", 0, NULL, &a) == 0);
	T_ASSERT(run(j100, "noop", 0, NULL, &b) == 0);
	ea = a.nr_events;
	eb = b.nr_events;
	na = a.jobs[0].dir[IOS_READ].bw.n;
	nb = b.jobs[0].dir[IOS_READ].bw.n;
	ios_run_result_free(&a);
	ios_run_result_free(&b);
	T_ASSERT_MSG(nb >= 8 * na, "windows %" PRIu64 " and %" PRIu64, na, nb);
	T_ASSERT_MSG(ea == eb, "%" PRIu64 " events for 10 s, %" PRIu64 " for 100 s", ea, eb);
	return T_PASS;
}

int main(void)
{
	int ret;

	if (t_tmpdir_enter(dir))
		return T_FAIL;
	ret = T_RUN(test_lazy_equals_timer_noop, test_lazy_equals_timer_cfq,
		    test_lazy_equals_timer_bfq, test_events_flat_in_time);
	return t_tmpdir_leave(dir, ret);
}
