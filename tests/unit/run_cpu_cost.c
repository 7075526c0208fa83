/*
 * Description: blk-mq's host CPU cost model (src/block/mq.c, lab.cpu.*),
 * following the lock layout of Linux 6.12 (dd->lock and bfqd->lock queue
 * wide, kyber's khd->lock per hardware queue, none without one), with
 * small whole runs of 4 random readers at iodepth 32 on ssd-nvme (0.2 s):
 * - a queue-wide scheduler (bfq-6.12) with insert + dispatch = C per
 *   request is capped at 1/C IOPS, with 1 CPU and with 4 alike: the lock
 *   is one server whatever the CPUs;
 * - kyber's lock is per hardware queue, so 4 CPUs (4 queues) go past 1/C;
 * - 'none' with a submit cost only is CPU bound and scales with lab.cpus:
 *   2 CPUs give twice the IOPS of 1 (within 2 %), 4 four times;
 * - a completion cost delays what the hardware queue's first CPU submits;
 * - all costs 0 given explicitly: the JSON and normal reports are byte
 *   for byte those of a run without the settings (the model is off).
 */
#include <string.h>
#include "harness.h"

static const char job[] =
	"[global]\ndirect=1\nruntime=200ms\ntime_based\nsize=256m\nrw=randread\nbs=4k\n"
	"ioengine=libaio\niodepth=32\nfilename=/dev/nvme0n1\n"
	"[r]\nnumjobs=4\n";

#define SLACK 1.015

/* Run @job under @sched with the "NAME=VALUE" settings @kv (NULL-ended). */
static int run(const char *sched, const char *const *kv, double *iops, struct ios_buf *json,
	       struct ios_buf *text)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };
	double sum = 0;
	int ret = -1;

	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf("cpu.fio", job, strlen(job), &po, &jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		goto out;
	}
	for (size_t i = 0; kv && kv[i]; i++)
		if (ios_settings_add_kv(&set, kv[i], "test", &e)) {
			fprintf(stderr, "setting %s: %s\n", kv[i], e.msg);
			goto out;
		}
	cfg.seed = 5;
	cfg.scheduler = sched;
	cfg.device = "ssd-nvme";
	cfg.settings = &set;
	if (ios_run(&jf, &cfg, &res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		goto out;
	}
	/* each job's I/Os over the time it ran (runtime=200ms and the last completions) */
	for (size_t j = 0; j < res.nr_jobs; j++)
		if (res.jobs[j].runtime_ns)
			sum += (double)res.jobs[j].dir[IOS_DDIR_READ].total_ios * 1e9 /
			       (double)res.jobs[j].runtime_ns;
	*iops = sum;
	ret = 0;
	if (json && (ios_report_json(&res, json) || ios_report_normal(&res, text)))
		ret = -1;
	ios_run_result_free(&res);
out:
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static int test_queue_wide_lock_caps(void)
{
	/* C = 4 + 6 us: at most 100k IOPS */
	const char *one[] = { "lab.cpu.bfq.insert_ns=4000", "lab.cpu.bfq.dispatch_ns=6000",
			      "lab.cpus=1", NULL };
	const char *four[] = { "lab.cpu.bfq.insert_ns=4000", "lab.cpu.bfq.dispatch_ns=6000",
			       "lab.cpus=4", NULL };
	const char *free4[] = { "lab.cpus=4", NULL };
	double a, b, f;

	T_ASSERT_EQ(run("bfq-6.12", one, &a, NULL, NULL), 0);
	T_ASSERT_EQ(run("bfq-6.12", four, &b, NULL, NULL), 0);
	T_ASSERT_EQ(run("bfq-6.12", free4, &f, NULL, NULL), 0);
	printf("  bfq-6.12 C=10us: 1 CPU %.0f IOPS, 4 CPUs %.0f; no cost %.0f\n", a, b, f);
	/*
	 * SLACK: a job's runtime stops at its end of issue while the I/Os it
	 * counts include those then in flight (under 0.5 % here)
	 */
	T_ASSERT_MSG(a <= 100000 * SLACK && b <= 100000 * SLACK, "%.0f %.0f", a, b);
	/* and the cap is what limits: near it, far below the device's own rate */
	T_ASSERT_MSG(a > 95000 && b > 95000, "%.0f %.0f", a, b);
	T_ASSERT(f > 2 * b);
	return T_PASS;
}

static int test_kyber_lock_per_hctx(void)
{
	const char *one[] = { "lab.cpu.kyber.insert_ns=4000", "lab.cpu.kyber.dispatch_ns=6000",
			      "lab.cpus=1", NULL };
	const char *four[] = { "lab.cpu.kyber.insert_ns=4000", "lab.cpu.kyber.dispatch_ns=6000",
			       "lab.cpus=4", NULL };
	double a, b;

	T_ASSERT_EQ(run("kyber", one, &a, NULL, NULL), 0);
	T_ASSERT_EQ(run("kyber", four, &b, NULL, NULL), 0);
	printf("  kyber C=10us: 1 CPU %.0f IOPS, 4 CPUs %.0f\n", a, b);
	T_ASSERT(a <= 100000 * SLACK);
	/* 4 locks could pass 400k: the device's own ~310k limits first */
	T_ASSERT_MSG(b > 2.5 * a, "%.0f vs %.0f", b, a);
	return T_PASS;
}

static int test_none_scales_with_cpus(void)
{
	const char *c1[] = { "lab.cpu.submit_ns=20000", "lab.cpus=1", NULL };
	const char *c2[] = { "lab.cpu.submit_ns=20000", "lab.cpus=2", NULL };
	const char *c4[] = { "lab.cpu.submit_ns=20000", "lab.cpus=4", NULL };
	double a, b, d;

	T_ASSERT_EQ(run("none", c1, &a, NULL, NULL), 0);
	T_ASSERT_EQ(run("none", c2, &b, NULL, NULL), 0);
	T_ASSERT_EQ(run("none", c4, &d, NULL, NULL), 0);
	printf("  none submit=20us: 1 CPU %.0f IOPS, 2 CPUs %.0f, 4 CPUs %.0f\n", a, b, d);
	/* one CPU serves one submission per 20 us: 50k */
	T_ASSERT_MSG(a <= 50000 * SLACK && a > 48000, "%.0f", a);
	T_ASSERT_MSG(b > 1.98 * a && b < 2.02 * a, "%.0f vs %.0f", b, a);
	T_ASSERT_MSG(d > 3.9 * a && d < 4.04 * a, "%.0f vs %.0f", d, a);
	return T_PASS;
}

static int test_completion_cost(void)
{
	const char *c[] = { "lab.cpu.complete_ns=20000", NULL };
	double a;

	T_ASSERT_EQ(run("none", c, &a, NULL, NULL), 0);
	printf("  none complete=20us, 1 CPU: %.0f IOPS\n", a);
	T_ASSERT_MSG(a <= 50000 * SLACK && a > 45000, "%.0f", a);
	return T_PASS;
}

static int test_zero_is_no_model(void)
{
	const char *zero[] = { "lab.cpu.submit_ns=0", "lab.cpu.complete_ns=0",
			       "lab.cpu.kyber.insert_ns=0", "lab.cpu.kyber.dispatch_ns=0",
			       "lab.cpu.bfq.insert_ns=0", "lab.cpu.bfq.dispatch_ns=0",
			       "lab.cpu.mq-deadline.insert_ns=0",
			       "lab.cpu.mq-deadline.dispatch_ns=0", "lab.cpus=2", NULL };
	const char *plain[] = { "lab.cpus=2", NULL };
	const char *scheds[] = { "none", "kyber", "bfq-6.12" };

	for (size_t i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++) {
		struct ios_buf j1, j2, t1, t2;
		double a, b;

		ios_buf_init(&j1);
		ios_buf_init(&j2);
		ios_buf_init(&t1);
		ios_buf_init(&t2);
		T_ASSERT_EQ(run(scheds[i], zero, &a, &j1, &t1), 0);
		T_ASSERT_EQ(run(scheds[i], plain, &b, &j2, &t2), 0);
		T_ASSERT(j1.len > 1000);
		T_ASSERT_MSG(j1.len == j2.len && !memcmp(j1.s, j2.s, j1.len), "%s", scheds[i]);
		T_ASSERT_MSG(t1.len == t2.len && !memcmp(t1.s, t2.s, t1.len), "%s", scheds[i]);
		ios_buf_free(&j1);
		ios_buf_free(&j2);
		ios_buf_free(&t1);
		ios_buf_free(&t2);
	}
	return T_PASS;
}

/* the cost settings are refused out of range, naming the range */
static int test_bad_setting(void)
{
	const char *bad[] = { "lab.cpu.submit_ns=2000000000", NULL };
	double a;

	T_ASSERT(run("none", bad, &a, NULL, NULL) != 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_queue_wide_lock_caps, test_kyber_lock_per_hctx, test_none_scales_with_cpus,
		     test_completion_cost, test_zero_is_no_model, test_bad_setting);
}
