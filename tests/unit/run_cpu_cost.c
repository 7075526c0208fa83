/*
 * Description: blk-mq's host CPU cost model (src/block/mq.c, lab.cpu.*),
 * following the lock layout of Linux 6.12 (dd->lock and bfqd->lock queue
 * wide, kyber's khd->lock per hardware queue, none without one), with
 * small whole runs of 4 random readers at iodepth 32 on ssd-nvme (0.2 s).
 * Each mechanism is tested alone, under lab.cpu.model=zero with only its
 * own cost set:
 * - a queue-wide scheduler (bfq-6.12) with insert + dispatch = C per
 *   request is capped at 1/C IOPS, with 1 CPU and with 4 alike: the lock
 *   is one server whatever the CPUs;
 * - kyber's lock is per hardware queue, so 4 CPUs (4 queues) go past 1/C;
 * - 'none' with a submit cost only is CPU bound and scales with lab.cpus:
 *   2 CPUs give twice the IOPS of 1 (within 2 %), 4 four times;
 * - a completion cost delays what the hardware queue's first CPU submits;
 * - a scheduler's own completion cost (lab.cpu.<family>.complete_ns)
 *   loads that CPU too, and under bfq also its queue-wide lock (4 CPUs
 *   stay at 1/C), under mq-deadline not (4 CPUs go past it);
 * - a dispatch's time is the CPU's that runs the hardware queue: on one
 *   CPU, submit S + dispatch D cap at 1/(S+D); readers on the second CPU
 *   of a queue dispatch for themselves (also 1/(S+D), not the lock's 1/D
 *   of charging dispatches to the queue's first CPU);
 * - lab.cpu.model: measured turns the cited defaults on and changes blk-mq
 *   runs; zero, the default, is off but keeps what is set explicitly; the
 *   single-queue layer reads none of it (byte-identical reports);
 * - all costs 0: the JSON and normal reports are byte for byte those of
 *   lab.cpu.model=zero (the model is off).
 */
#include <string.h>
#include "harness.h"

static const char job[] =
	"[global]\ndirect=1\nruntime=200ms\ntime_based\nsize=256m\nrw=randread\nbs=4k\n"
	"ioengine=libaio\niodepth=32\nfilename=/dev/nvme0n1\n"
	"[r]\nnumjobs=4\n";

/* two readers pinned to CPU 1 (test_dispatch_by_submitter) */
static const char job_cpu1[] =
	"[global]\ndirect=1\nruntime=200ms\ntime_based\nsize=256m\nrw=randread\nbs=4k\n"
	"ioengine=libaio\niodepth=32\nfilename=/dev/nvme0n1\ncpus_allowed=1\n"
	"[r]\nnumjobs=2\n";

/* one O_DIRECT reader at QD1 whose 64 KiB reads are 16 bios of 4 KiB (test_direct_bios_in_sequence) */
static const char job_multibio[] =
	"[global]\ndirect=1\nruntime=50ms\ntime_based\nsize=256m\nrw=randread\nbs=64k\n"
	"ioengine=psync\nfilename=/dev/nvme0n1\n"
	"[r]\n";

static const char *job_text = job;
static double last_clat_mean;	/* the first job's read clat mean of the last run(), ns */

/* test_direct_bios_in_sequence's trace sink: plugs, issues, and G one submit_ns after G */
static struct {
	unsigned plugs, issues, g_in_step;
	uint64_t last_g;
} seen;
static uint64_t seen_step;

static void seen_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		       const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	(void)priv, (void)q, (void)rq, (void)bio;
	if (a == IOS_TA_PLUG)
		seen.plugs++;
	else if (a == IOS_TA_ISSUE)
		seen.issues++;
	else if (a == IOS_TA_GETRQ) {
		seen.g_in_step += now - seen.last_g == seen_step;
		seen.last_g = now;
	}
}

static const struct ios_trace_ops seen_ops = { .event = seen_event };
static const struct ios_trace_ops *run_trace;	/* run()'s trace sink, NULL: none */

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
	if (ios_job_parse_buf("cpu.fio", job_text, strlen(job_text), &po, &jf, &e)) {
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
	cfg.trace_ops = run_trace;
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
	last_clat_mean = res.nr_jobs ? res.jobs[0].dir[IOS_DDIR_READ].clat.mean : 0;
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
	const char *one[] = { "lab.cpu.model=zero", "lab.cpu.bfq.insert_ns=4000", "lab.cpu.bfq.dispatch_ns=6000",
			      "lab.cpus=1", NULL };
	const char *four[] = { "lab.cpu.model=zero", "lab.cpu.bfq.insert_ns=4000", "lab.cpu.bfq.dispatch_ns=6000",
			       "lab.cpus=4", NULL };
	const char *free4[] = { "lab.cpu.model=zero", "lab.cpus=4", NULL };
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
	const char *one[] = { "lab.cpu.model=zero", "lab.cpu.kyber.insert_ns=4000", "lab.cpu.kyber.dispatch_ns=6000",
			      "lab.cpus=1", NULL };
	const char *four[] = { "lab.cpu.model=zero", "lab.cpu.kyber.insert_ns=4000", "lab.cpu.kyber.dispatch_ns=6000",
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
	const char *c1[] = { "lab.cpu.model=zero", "lab.cpu.submit_ns=20000", "lab.cpus=1", NULL };
	const char *c2[] = { "lab.cpu.model=zero", "lab.cpu.submit_ns=20000", "lab.cpus=2", NULL };
	const char *c4[] = { "lab.cpu.model=zero", "lab.cpu.submit_ns=20000", "lab.cpus=4", NULL };
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
	const char *c[] = { "lab.cpu.model=zero", "lab.cpu.complete_ns=20000", NULL };
	double a;

	T_ASSERT_EQ(run("none", c, &a, NULL, NULL), 0);
	printf("  none complete=20us, 1 CPU: %.0f IOPS\n", a);
	T_ASSERT_MSG(a <= 50000 * SLACK && a > 45000, "%.0f", a);
	return T_PASS;
}

static bool same(const char *sched, const char *const *x, const char *const *y)
{
	struct ios_buf j1, j2, t1, t2;
	double a, b;
	bool eq = false;

	ios_buf_init(&j1);
	ios_buf_init(&j2);
	ios_buf_init(&t1);
	ios_buf_init(&t2);
	if (!run(sched, x, &a, &j1, &t1) && !run(sched, y, &b, &j2, &t2) && j1.len > 1000)
		eq = j1.len == j2.len && !memcmp(j1.s, j2.s, j1.len) && t1.len == t2.len &&
		     !memcmp(t1.s, t2.s, t1.len);
	ios_buf_free(&j1);
	ios_buf_free(&j2);
	ios_buf_free(&t1);
	ios_buf_free(&t2);
	return eq;
}

static int test_zero_is_no_model(void)
{
	const char *zero[] = { "lab.cpu.submit_ns=0", "lab.cpu.complete_ns=0",
			       "lab.cpu.kyber.insert_ns=0", "lab.cpu.kyber.dispatch_ns=0",
			       "lab.cpu.kyber.complete_ns=0",
			       "lab.cpu.bfq.insert_ns=0", "lab.cpu.bfq.dispatch_ns=0",
			       "lab.cpu.bfq.complete_ns=0",
			       "lab.cpu.mq-deadline.insert_ns=0",
			       "lab.cpu.mq-deadline.dispatch_ns=0",
			       "lab.cpu.mq-deadline.complete_ns=0", "lab.cpus=2", NULL };
	const char *off[] = { "lab.cpu.model=zero", "lab.cpus=2", NULL };
	const char *scheds[] = { "none", "mq-deadline", "kyber", "bfq-6.12" };

	for (size_t i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++)
		T_ASSERT_MSG(same(scheds[i], zero, off), "%s", scheds[i]);
	return T_PASS;
}

/*
 * lab.cpu.model=measured turns the cited defaults on (the runs differ); it
 * is the default (a run without settings is byte for byte measured's)
 */
static int test_model_measured(void)
{
	const char *dflt[] = { "lab.cpus=2", NULL };
	const char *on[] = { "lab.cpu.model=measured", "lab.cpus=2", NULL };
	const char *off[] = { "lab.cpu.model=zero", "lab.cpus=2", NULL };
	const char *scheds[] = { "none", "mq-deadline", "bfq-6.12" };

	for (size_t i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++) {
		T_ASSERT_MSG(!same(scheds[i], on, off), "%s", scheds[i]);
		T_ASSERT_MSG(same(scheds[i], dflt, on), "%s", scheds[i]);
	}
	return T_PASS;
}

/* lab.cpu.model=zero zeroes the defaults, not what is set explicitly */
static int test_zero_keeps_explicit(void)
{
	const char *c[] = { "lab.cpu.model=zero", "lab.cpu.submit_ns=20000", NULL };
	double a;

	T_ASSERT_EQ(run("none", c, &a, NULL, NULL), 0);
	printf("  model=zero, submit=20us, 1 CPU: %.0f IOPS\n", a);
	T_ASSERT_MSG(a <= 50000 * SLACK && a > 48000, "%.0f", a);
	return T_PASS;
}

/* the single-queue layer reads no lab.cpu.* setting: its reports are the same */
static int test_legacy_untouched(void)
{
	const char *plain[] = { "lab.cpus=2", NULL };
	const char *off[] = { "lab.cpu.model=measured", "lab.cpus=2", NULL };
	const char *big[] = { "lab.cpu.submit_ns=50000", "lab.cpu.complete_ns=50000",
			      "lab.cpu.bfq.insert_ns=50000", "lab.cpu.bfq.complete_ns=50000",
			      "lab.cpus=2", NULL };
	const char *scheds[] = { "noop", "deadline", "bfq" };

	for (size_t i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++) {
		T_ASSERT_MSG(same(scheds[i], plain, off), "%s", scheds[i]);
		T_ASSERT_MSG(same(scheds[i], plain, big), "%s", scheds[i]);
	}
	return T_PASS;
}

/* a scheduler's completion hooks load the completing CPU (kyber: no lock) */
static int test_sched_complete_cost(void)
{
	const char *c[] = { "lab.cpu.model=zero", "lab.cpu.kyber.complete_ns=20000", NULL };
	double a;

	T_ASSERT_EQ(run("kyber", c, &a, NULL, NULL), 0);
	printf("  kyber complete=20us, 1 CPU: %.0f IOPS\n", a);
	T_ASSERT_MSG(a <= 50000 * SLACK && a > 45000, "%.0f", a);
	return T_PASS;
}

/* bfq's completion holds bfqd->lock: 4 CPUs stay at 1/C; mq-deadline's holds none */
static int test_bfq_complete_holds_lock(void)
{
	const char *b4[] = { "lab.cpu.model=zero", "lab.cpu.bfq.complete_ns=10000", "lab.cpus=4",
			     NULL };
	const char *d4[] = { "lab.cpu.model=zero", "lab.cpu.mq-deadline.complete_ns=10000",
			     "lab.cpus=4", NULL };
	double b, d;

	T_ASSERT_EQ(run("bfq-6.12", b4, &b, NULL, NULL), 0);
	T_ASSERT_EQ(run("mq-deadline", d4, &d, NULL, NULL), 0);
	printf("  complete=10us, 4 CPUs: bfq-6.12 %.0f IOPS, mq-deadline %.0f\n", b, d);
	T_ASSERT_MSG(b <= 100000 * SLACK && b > 90000, "%.0f", b);
	T_ASSERT_MSG(d > 2 * b, "%.0f vs %.0f", d, b);
	return T_PASS;
}

/* the dispatch's time is the CPU's that runs the hardware queue */
static int test_dispatch_on_cpu(void)
{
	const char *one[] = { "lab.cpu.model=zero", "lab.cpu.submit_ns=10000",
			      "lab.cpu.mq-deadline.dispatch_ns=10000", NULL };
	double a;

	T_ASSERT_EQ(run("mq-deadline", one, &a, NULL, NULL), 0);
	printf("  mq-deadline submit=10us dispatch=10us, 1 CPU: %.0f IOPS\n", a);
	/* one CPU submits and dispatches: 1 / 20 us (the lock alone: 1 / 10 us) */
	T_ASSERT_MSG(a <= 50000 * SLACK && a > 45000, "%.0f", a);
	return T_PASS;
}

/*
 * A submission's run dispatches on the submitting CPU (blk_mq_run_hw_queue
 * runs synchronously there): two readers on CPU 1 of a queue mapped to
 * CPUs 0 and 1 pay every dispatch there, 1 / (S + D), where handing
 * dispatches to the queue's first CPU (CPU 0) would leave CPU 1 only S and
 * the lock's 1 / D.
 */
static int test_dispatch_by_submitter(void)
{
	const char *c[] = { "lab.cpu.model=zero", "lab.cpu.submit_ns=10000",
			    "lab.cpu.kyber.dispatch_ns=10000", "lab.cpus=4",
			    "device.nr_hw_queues=2", NULL };
	double a;
	int ret;

	job_text = job_cpu1;
	ret = run("kyber", c, &a, NULL, NULL);
	job_text = job;
	T_ASSERT_EQ(ret, 0);
	printf("  kyber submit=10us dispatch=10us, readers on CPU 1 of 4 (2 queues): %.0f IOPS\n",
	       a);
	T_ASSERT_MSG(a <= 50000 * SLACK && a > 45000, "%.0f", a);
	return T_PASS;
}

/*
 * An O_DIRECT I/O of 16 bios: in the kernel its task spends the CPU time
 * of each submit_bio in turn (the requests are allocated submit_ns apart)
 * and finishes its plug after the last (one P per I/O, its 16 requests
 * issued from it). The rules: a bio waiting for its CPU answers 0 (the
 * task runs on), not 1 (asleep, as for a tag), and stays on the plug.
 * Without the first each bio waited for the previous one to enter plus a
 * wake-up (lab.complete_ns, 3 us): G 4 us apart; without the second the
 * requests went to the device alone (no P).
 */
static int test_direct_bios_in_sequence(void)
{
	const char *zero[] = { "lab.cpu.model=zero", "queue.max_sectors_kb=4", NULL };
	const char *cost[] = { "lab.cpu.model=zero", "lab.cpu.submit_ns=1000",
			       "queue.max_sectors_kb=4", NULL };
	double a, c0, c1;
	int ret;

	job_text = job_multibio;
	ret = run("none", zero, &a, NULL, NULL);
	c0 = last_clat_mean;
	memset(&seen, 0, sizeof(seen));
	seen_step = 1000;
	run_trace = &seen_ops;
	if (!ret)
		ret = run("none", cost, &a, NULL, NULL);
	run_trace = NULL;
	c1 = last_clat_mean;
	job_text = job;
	T_ASSERT_EQ(ret, 0);
	printf("  none, 64k O_DIRECT as 16 bios: clat %.0f ns, with submit=1us %.0f ns; "
	       "%u plugs, %u issues, %u G 1 us after the previous\n", c0, c1, seen.plugs,
	       seen.issues, seen.g_in_step);
	T_ASSERT(seen.plugs > 10);
	T_ASSERT_EQ(seen.issues, 16 * seen.plugs);
	T_ASSERT_EQ(seen.g_in_step, 15 * seen.plugs);
	return T_PASS;
}

/* the cost settings are refused out of range, naming the range */
static int test_bad_setting(void)
{
	const char *bad[] = { "lab.cpu.submit_ns=2000000000", NULL };
	const char *bad2[] = { "lab.cpu.bfq.complete_ns=-1", NULL };
	const char *bad3[] = { "lab.cpu.model=off", NULL };
	double a;

	T_ASSERT(run("none", bad, &a, NULL, NULL) != 0);
	T_ASSERT(run("bfq-6.12", bad2, &a, NULL, NULL) != 0);
	T_ASSERT(run("none", bad3, &a, NULL, NULL) != 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_queue_wide_lock_caps, test_kyber_lock_per_hctx, test_none_scales_with_cpus,
		     test_completion_cost, test_zero_is_no_model, test_model_measured,
		     test_zero_keeps_explicit, test_legacy_untouched, test_sched_complete_cost,
		     test_bfq_complete_holds_lock, test_dispatch_on_cpu, test_dispatch_by_submitter,
		     test_direct_bios_in_sequence,
		     test_bad_setting);
}
