/*
 * Description: fio 3.33's job control, in simulated time (HOWTO.rst,
 * backend.c, steadystate.c, flow.c): exit_what=group / stonewall / all
 * with exitall (a job stopped before its start never runs), exitall as
 * fio's global flag, wait_for (the waiter starts when the waitee's last
 * clone ends, and its errors), the tiobench options' note, steady state
 * ending a flat job (and not ending a job that never gets flat), the
 * group's steady state coming from its last job, flow keeping two jobs'
 * I/O counts in their weights' ratio (with and without flow_sleep), the
 * status callback every interval of simulated time, and determinism.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

static struct ios_jobfile *jfs[64];
static int nr_jfs;

static int run_cfg(const char *job, struct ios_run_config *cfg, struct ios_run_result *res,
		   struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_settings set = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("j.fio", job, strlen(job), &po, jf, e);
	if (ret) {
		free(jf);
		return ret;
	}
	jfs[nr_jfs++] = jf;
	if (ios_settings_add_kv(&set, "lab.fs=raw", "test", e))
		return -EINVAL;
	cfg->device = "hdd-2009";
	cfg->seed = 7;
	cfg->settings = &set;
	ret = ios_run(jf, cfg, res, e);
	ios_settings_free(&set);
	return ret;
}

static int run(const char *job, struct ios_run_result *res)
{
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };
	int ret = run_cfg(job, &cfg, res, &e);

	if (ret)
		fprintf(stderr, "run: %s\n", e.msg);
	return ret;
}

static int run_err(const char *job, struct ios_err *e)
{
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;

	return run_cfg(job, &cfg, &res, e);
}

static bool has_warning(const struct ios_run_result *r, const char *a, const char *b)
{
	for (size_t i = 0; i < r->nr_warnings; i++)
		if (strstr(r->warnings[i], a) && (!b || strstr(r->warnings[i], b)))
			return true;
	return false;
}

static uint64_t ios_of(const struct ios_job_result *j)
{
	return j->dir[0].total_ios + j->dir[1].total_ios;
}

/* slow1 ends after 300 I/Os (0.6 s); fast1 (group 1) would run 900 s; slow2/fast2 follow a stonewall */
#define EW_JOBS(what) \
	"[global]\nioengine=null\nsize=1g\nbs=4k\nexitall=1\n" \
	"[slow1]\nrw=read\nthinktime=2000\nnumber_ios=300\nexit_what=" what "\n" \
	"[fast1]\nnew_group=1\nrw=randread\nrate_iops=300\n" \
	"[slow2]\nstonewall\nrw=read\nthinktime=2000\nnumber_ios=300\n" \
	"[fast2]\nrw=randread\nrate_iops=300\n"

static int test_exit_what(void)
{
	struct ios_run_result r;

	/* group: slow1's group is itself; fast1 (group 1) runs all its 1 GiB at 300 IOPS */
	T_ASSERT_EQ(run(EW_JOBS("group"), &r), 0);
	T_ASSERT_EQ(r.nr_jobs, 4);
	T_ASSERT_EQ(ios_of(&r.jobs[0]), 300);
	T_ASSERT_EQ(ios_of(&r.jobs[1]), 262144);
	/* slow2 (default group) stops fast2, its group's other job */
	T_ASSERT_EQ(ios_of(&r.jobs[2]), 300);
	T_ASSERT(ios_of(&r.jobs[3]) < 300);
	T_ASSERT(r.jobs[3].finish_ns == r.jobs[2].finish_ns);
	ios_run_result_free(&r);

	/* stonewall: the jobs running at slow1's end stop; the next phase still runs */
	T_ASSERT_EQ(run(EW_JOBS("stonewall"), &r), 0);
	T_ASSERT_EQ(ios_of(&r.jobs[0]), 300);
	T_ASSERT(ios_of(&r.jobs[1]) > 0 && ios_of(&r.jobs[1]) < 300);
	T_ASSERT(r.jobs[1].finish_ns == r.jobs[0].finish_ns);
	T_ASSERT_EQ(ios_of(&r.jobs[2]), 300);
	T_ASSERT(r.jobs[2].start_ns >= r.jobs[1].finish_ns);
	ios_run_result_free(&r);

	/* all: everything stops; the jobs behind the stonewall never run (fio reports them empty) */
	T_ASSERT_EQ(run(EW_JOBS("all"), &r), 0);
	T_ASSERT_EQ(ios_of(&r.jobs[0]), 300);
	T_ASSERT(ios_of(&r.jobs[1]) > 0 && ios_of(&r.jobs[1]) < 300);
	T_ASSERT_EQ(ios_of(&r.jobs[2]), 0);
	T_ASSERT_EQ(ios_of(&r.jobs[3]), 0);
	T_ASSERT_EQ(r.jobs[2].runtime_ns, 0);
	ios_run_result_free(&r);

	/* exitall in one job is fio's global flag: the other job's earlier end stops it */
	T_ASSERT_EQ(run("[global]\nioengine=null\nsize=1g\nrw=read\nrate_iops=100\ntime_based\n"
			"[a]\nruntime=1\n[b]\nruntime=4\nexitall\n", &r), 0);
	T_ASSERT_U64_EQ(r.jobs[0].finish_ns, r.jobs[1].finish_ns);
	T_ASSERT(r.jobs[1].runtime_ns < 1100000000ULL);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_wait_for(void)
{
	struct ios_run_result r;
	struct ios_err e = { 0 };

	T_ASSERT_EQ(run("[global]\nioengine=null\nbs=4k\nsize=1m\n"
			"[writers]\nrw=write\nnumjobs=2\nrate_iops=1000\n"
			"[readers]\nwait_for=writers\nrw=randread\nnumjobs=2\nrate_iops=2000\n"
			"[other]\nrw=read\nrate_iops=500\n", &r), 0);
	T_ASSERT_EQ(r.nr_jobs, 5);
	/* 256 writes at 1000 IOPS each: the readers start at the later writer's end */
	T_ASSERT(r.jobs[0].finish_ns > 250000000ULL);
	T_ASSERT_U64_EQ(r.jobs[2].start_ns, r.jobs[0].finish_ns > r.jobs[1].finish_ns
					    ? r.jobs[0].finish_ns : r.jobs[1].finish_ns);
	T_ASSERT_U64_EQ(r.jobs[3].start_ns, r.jobs[2].start_ns);
	/* a job without wait_for starts at once */
	T_ASSERT_U64_EQ(r.jobs[4].start_ns, 0);
	T_ASSERT_EQ(ios_of(&r.jobs[2]), 256);
	ios_run_result_free(&r);

	/* fio's wait_for_ok: no forward reference, not itself, a unique name */
	T_ASSERT_EQ(run_err("[a]\nioengine=null\nsize=64k\nwait_for=b\n[b]\nioengine=null\n"
			    "size=64k\n", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "j.fio:4: job 'a': wait_for=b: no job of that name before this one"));
	memset(&e, 0, sizeof(e));
	T_ASSERT_EQ(run_err("[a]\nioengine=null\nsize=64k\nwait_for=a\n", &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "a job cannot wait for itself"), "%s", e.msg);
	memset(&e, 0, sizeof(e));
	T_ASSERT_EQ(run_err("[a]\nioengine=null\nsize=64k\n[a]\nioengine=null\nsize=64k\n"
			    "[b]\nioengine=null\nsize=64k\nwait_for=a\n", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "more than one job has that name"));
	return T_PASS;
}

static int test_profile_note(void)
{
	struct ios_run_result r, r0;

	T_ASSERT_EQ(run("[global]\nioengine=null\nsize=1m\nthreads=1\n[a]\n[b]\ndir=/x\n", &r), 0);
	T_ASSERT(has_warning(&r, "j.fio:5: job 'a' (and 1 more job): threads: options of fio's "
			     "tiobench profile, no effect without --profile=tiobench", NULL));
	T_ASSERT_EQ(r.nr_warnings, 1);
	/* and no effect: the same run without them */
	T_ASSERT_EQ(run("[global]\nioengine=null\nsize=1m\n[a]\n[b]\n", &r0), 0);
	T_ASSERT_EQ(r0.nr_warnings, 0);
	T_ASSERT_U64_EQ(r.jobs[1].finish_ns, r0.jobs[1].finish_ns);
	T_ASSERT_U64_EQ(ios_of(&r.jobs[1]), ios_of(&r0.jobs[1]));
	ios_run_result_free(&r);
	ios_run_result_free(&r0);
	return T_PASS;
}

static int test_steadystate(void)
{
	struct ios_run_result r;
	const struct ios_ss_result *ss;

	/* flat at 1000 IOPS: the ramp ends at 2 s (1 s + 1), three samples, attained at 4 s */
	T_ASSERT_EQ(run("[j]\nioengine=null\nsize=1g\nrw=read\ntime_based\nruntime=30\n"
			"rate_iops=1000\nss=iops:5%\nss_dur=3\nss_ramp=1\n", &r), 0);
	ss = r.jobs[0].ss;
	T_ASSERT(ss != NULL);
	T_ASSERT(ss->state & IOS_SS_ATTAINED);
	T_ASSERT_EQ(ss->dur, 3);
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 4000000000ULL);
	T_ASSERT_EQ(ss->iops[0], 1000);
	T_ASSERT_EQ(ss->bw[2], 4096000);
	T_ASSERT(ss->criterion < 5.0);
	ios_run_result_free(&r);

	/* the slope, no ramp: samples at 1 s and 2 s, flat, attained at 2 s */
	T_ASSERT_EQ(run("[a]\nioengine=null\nsize=1g\nrw=read\ntime_based\nruntime=6\n"
			"rate_iops=100\nss=iops_slope:0.1%\nss_dur=2\n", &r), 0);
	T_ASSERT(r.jobs[0].ss && (r.jobs[0].ss->state & IOS_SS_ATTAINED));
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 2000000000ULL);
	ios_run_result_free(&r);
	/* Poisson arrivals: no two seconds alike, never within 0.01 %: the job runs its time */
	T_ASSERT_EQ(run("[a]\nioengine=null\nsize=1g\nrw=read\ntime_based\nruntime=5\n"
			"rate_iops=100\nrate_process=poisson\nss=iops:0.01%\nss_dur=3\n", &r), 0);
	T_ASSERT(r.jobs[0].ss && !(r.jobs[0].ss->state & IOS_SS_ATTAINED));
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 5000000000ULL);
	ios_run_result_free(&r);

	/* group_reporting: one entry, the group's window, every clone stopped together */
	T_ASSERT_EQ(run("[j]\nioengine=null\nsize=1g\nrw=read\ntime_based\nruntime=30\n"
			"rate_iops=500\nnumjobs=3\ngroup_reporting\nss=bw:1%\nss_dur=2\n", &r), 0);
	T_ASSERT_EQ(r.nr_jobs, 1);
	T_ASSERT(r.jobs[0].ss && (r.jobs[0].ss->state & IOS_SS_ATTAINED));
	T_ASSERT_EQ(r.jobs[0].ss->iops[1], 1500);
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 3 * 2000000000ULL);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_steadystate_group_mismatch(void)
{
	struct ios_err e = { 0 };

	T_ASSERT_EQ(run_err("[a]\nioengine=null\nsize=1m\nss_dur=2\n[b]\nioengine=null\n"
			    "size=1m\n", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "j.fio:5: job 'b': steadystate options must be the same"));
	return T_PASS;
}

static int test_flow(void)
{
	struct ios_run_result r;
	uint64_t a, b;

	/* flow=1 vs flow=8, with flow_sleep: 1:8 */
	T_ASSERT_EQ(run("[global]\nioengine=null\nbs=4k\nsize=1g\ntime_based\nruntime=1\n"
			"flow_sleep=1000\n[w]\nrw=write\nflow=1\n[r]\nrw=randread\nflow=8\n", &r), 0);
	a = ios_of(&r.jobs[0]);
	b = ios_of(&r.jobs[1]);
	T_ASSERT(a > 100);
	T_ASSERT_NEAR((double)b / (double)a, 8.0, 0.1);
	ios_run_result_free(&r);
	/* without flow_sleep: the held job waits for the other to move; 1:3 */
	T_ASSERT_EQ(run("[global]\nioengine=null\nbs=4k\nsize=1g\ntime_based\nruntime=1\n"
			"[w]\nrw=write\nflow=1\n[r]\nrw=randread\nflow=3\n", &r), 0);
	a = ios_of(&r.jobs[0]);
	b = ios_of(&r.jobs[1]);
	T_ASSERT(a > 1000);
	T_ASSERT_NEAR((double)b / (double)a, 3.0, 0.01);
	/* both run their whole time */
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 1000000000ULL);
	ios_run_result_free(&r);
	/* a different flow_id is another flow: no holding back */
	T_ASSERT_EQ(run("[global]\nioengine=null\nbs=4k\nsize=1g\ntime_based\nruntime=1\n"
			"rate_iops=1000\n[w]\nrw=write\nflow=1\n[r]\nrw=read\nflow=3\nflow_id=2\n",
			&r), 0);
	T_ASSERT_EQ(ios_of(&r.jobs[0]), ios_of(&r.jobs[1]));
	ios_run_result_free(&r);
	return T_PASS;
}

struct st_count {
	unsigned n;
	uint64_t ios[8];
};

static int st_cb(void *arg, const struct ios_run_result *snap)
{
	struct st_count *s = arg;

	if (s->n < 8)
		s->ios[s->n] = snap->jobs[0].dir[0].total_ios;
	s->n++;
	return 0;
}

static int test_status_interval(void)
{
	struct ios_run_config cfg = { 0 };
	struct ios_run_result r;
	struct ios_err e = { 0 };
	struct st_count s = { 0 };

	cfg.status = st_cb;
	cfg.status_arg = &s;
	cfg.status_every_ns = 1000000000ULL;
	T_ASSERT_EQ(run_cfg("[j]\nioengine=null\nsize=1g\nrw=read\ntime_based\nruntime=2500ms\n"
			    "rate_iops=100\n", &cfg, &r, &e), 0);
	/* at 1 s and 2 s of simulated time; the end's report is the caller's own */
	T_ASSERT_EQ(s.n, 2);
	T_ASSERT_EQ(s.ios[0], 100);
	T_ASSERT_EQ(s.ios[1], 200);
	T_ASSERT_EQ(r.jobs[0].dir[0].total_ios, 250);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_determinism(void)
{
	static const char job[] =
		"[global]\nioengine=libaio\ndirect=1\nbs=4k\nsize=16m\ntime_based\nruntime=2\n"
		"iodepth=4\n[w]\nrw=randwrite\nflow=1\nflow_sleep=100\n[r]\nrw=randread\nflow=2\n"
		"[s]\nstonewall\nrw=randread\nss=iops:20%\nss_dur=1\n";
	struct ios_run_result a, b;
	struct ios_buf ja, jb;

	T_ASSERT_EQ(run(job, &a), 0);
	T_ASSERT_EQ(run(job, &b), 0);
	ios_buf_init(&ja);
	ios_buf_init(&jb);
	T_ASSERT_EQ(ios_report_json(&a, &ja), 0);
	T_ASSERT_EQ(ios_report_json(&b, &jb), 0);
	T_ASSERT(ja.len == jb.len && !memcmp(ja.s, jb.s, ja.len));
	T_ASSERT(strstr(ja.s, "\"steadystate\" : {"));
	ios_buf_free(&ja);
	ios_buf_free(&jb);
	ios_run_result_free(&a);
	ios_run_result_free(&b);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_exit_what, test_wait_for, test_profile_note, test_steadystate,
			test_steadystate_group_mismatch, test_flow, test_status_interval,
			test_determinism);

	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	return ret;
}
