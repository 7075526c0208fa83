/*
 * Description: a blk-mq run's queue in the JSON report (iosched.blk_mq;
 * src/report/json.c, ios_queue_mq_result in src/block/mq.c), Linux 6.12
 * names: on ssd-nvme with lab.cpus=4, 4 hardware queues of 1023 driver
 * tags, nr_requests 2 * min(1023, 128) = 256 under kyber, CPU i on queue i,
 * and the requests each queue issued adding up to the disk's I/Os; on the
 * one-queue SATA ssd with 3 CPUs every CPU maps to queue 0; under 'none'
 * nr_requests is the driver depth and there is no elevator. A legacy run's
 * report has no blk_mq object.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"

static struct ios_jobfile jf;

static const char job[] =
	"[global]\nsize=64m\nruntime=1\ntime_based\nioengine=libaio\ndirect=1\niodepth=8\n"
	"[r]\nrw=randread\nbs=4k\nnumjobs=4\n";

static int run(const char *sched, const char *dev, const char *cpus, struct ios_run_result *res,
	       struct ios_settings *set)
{
	struct ios_run_config cfg = { .scheduler = sched, .device = dev, .seed = 1 };
	struct ios_err e = { 0 };
	char kv[32];

	memset(set, 0, sizeof(*set));
	snprintf(kv, sizeof(kv), "lab.cpus=%s", cpus ? cpus : "1");
	if (ios_settings_add_kv(set, kv, "test", &e))
		return -1;
	cfg.settings = set;
	return t_run_job("mq.fio", job, &cfg, &jf, res);
}

static int test_nvme_four_cpus(void)
{
	struct ios_settings set;
	struct ios_run_result r;
	const struct ios_mq_result *m;
	uint64_t sum = 0;
	struct ios_buf b;

	T_ASSERT_EQ(run("kyber", "ssd-nvme", "4", &r, &set), 0);
	m = r.mq;
	T_ASSERT(m);
	T_ASSERT_EQ(m->nr_hw_queues, 4);
	T_ASSERT_EQ(m->nr_cpus, 4);
	T_ASSERT_EQ(m->hw_queue_depth, 1023);
	T_ASSERT_EQ(m->nr_requests, 256);
	T_ASSERT(m->elevator);
	for (unsigned i = 0; i < 4; i++) {
		T_ASSERT_EQ(m->cpu_hctx[i], i);
		/* the four clones spread over the CPUs round-robin: each queue worked */
		T_ASSERT(m->hctx_dispatched[i] > 0);
		sum += m->hctx_dispatched[i];
	}
	T_ASSERT_U64_EQ(sum, r.disks[0].ios[0] + r.disks[0].ios[1]);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_report_json(&r, &b), 0);
	T_ASSERT(strstr(b.s, "\"blk_mq\" : {\n      \"nr_hw_queues\" : 4,\n"));
	T_ASSERT(strstr(b.s, "\"hw_queue_depth\" : 1023,\n      \"nr_requests\" : 256,"));
	T_ASSERT(strstr(b.s, "\"cpu_to_hctx\" : [\n        0,\n        1,\n        2,\n        3\n"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	ios_settings_free(&set);
	return T_PASS;
}

static int test_sata_and_none(void)
{
	struct ios_settings set;
	struct ios_run_result r;

	T_ASSERT_EQ(run("mq-deadline", "ssd", "3", &r, &set), 0);
	T_ASSERT(r.mq);
	T_ASSERT_EQ(r.mq->nr_hw_queues, 1);
	T_ASSERT_EQ(r.mq->hw_queue_depth, 32);
	T_ASSERT_EQ(r.mq->nr_requests, 64);
	for (unsigned i = 0; i < 3; i++)
		T_ASSERT_EQ(r.mq->cpu_hctx[i], 0);
	t_job_done(&jf, &r);
	ios_settings_free(&set);

	T_ASSERT_EQ(run("none", "ssd", NULL, &r, &set), 0);
	T_ASSERT(r.mq && !r.mq->elevator);
	T_ASSERT_EQ(r.mq->nr_requests, 32);
	T_ASSERT(r.mq->direct_issues > 0);
	t_job_done(&jf, &r);
	ios_settings_free(&set);
	return T_PASS;
}

static int test_legacy_has_none(void)
{
	struct ios_settings set;
	struct ios_run_result r;
	struct ios_buf b;

	T_ASSERT_EQ(run("deadline", "ssd", NULL, &r, &set), 0);
	T_ASSERT(!r.mq);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_report_json(&r, &b), 0);
	T_ASSERT(!strstr(b.s, "blk_mq"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	ios_settings_free(&set);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_nvme_four_cpus, test_sata_and_none, test_legacy_has_none);
}
