/*
 * Description: a run is a pure function of its inputs. The same job, options
 * and seed give byte-identical normal and JSON reports; another seed changes
 * the random offsets and therefore the results.
 */
#include <string.h>
#include "harness.h"

static const char job[] =
	"[global]\ndirect=1\nruntime=1\ntime_based\nsize=256m\n"
	"[seq]\nrw=read\nbs=64k\n"
	"[rand]\nrw=randread\nbs=4k\nioengine=libaio\niodepth=4\n"
	"[mix]\nrw=randrw\nbs=8k\nrwmixread=70\n";

static int run_json(uint64_t seed, const char *sched, struct ios_buf *json, struct ios_buf *text)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };

	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf("det.fio", job, strlen(job), &po, &jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return -1;
	}
	cfg.seed = seed;
	cfg.scheduler = sched;
	if (ios_run(&jf, &cfg, &res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		ios_jobfile_free(&jf);
		return -1;
	}
	if (ios_report_json(&res, json) || ios_report_normal(&res, text))
		return -1;
	ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	return 0;
}

static int test_same_seed_same_bytes(void)
{
	const char *scheds[] = { "noop", "deadline", "anticipatory", "cfq", "cfq-2.6.33", "cfq-4.19", "bfq" };

	for (size_t i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++) {
		struct ios_buf j1, j2, t1, t2;

		ios_buf_init(&j1);
		ios_buf_init(&j2);
		ios_buf_init(&t1);
		ios_buf_init(&t2);
		T_ASSERT_EQ(run_json(7, scheds[i], &j1, &t1), 0);
		T_ASSERT_EQ(run_json(7, scheds[i], &j2, &t2), 0);
		T_ASSERT(j1.len > 1000);
		T_ASSERT_EQ(j1.len, j2.len);
		T_ASSERT(!memcmp(j1.s, j2.s, j1.len));
		T_ASSERT_EQ(t1.len, t2.len);
		T_ASSERT(!memcmp(t1.s, t2.s, t1.len));
		ios_buf_free(&j1);
		ios_buf_free(&j2);
		ios_buf_free(&t1);
		ios_buf_free(&t2);
	}
	return T_PASS;
}

static int test_other_seed_differs(void)
{
	struct ios_buf j1, j2, t1, t2;

	ios_buf_init(&j1);
	ios_buf_init(&j2);
	ios_buf_init(&t1);
	ios_buf_init(&t2);
	T_ASSERT_EQ(run_json(7, "deadline", &j1, &t1), 0);
	T_ASSERT_EQ(run_json(8, "deadline", &j2, &t2), 0);
	T_ASSERT(j1.len != j2.len || memcmp(j1.s, j2.s, j1.len));
	ios_buf_free(&j1);
	ios_buf_free(&j2);
	ios_buf_free(&t1);
	ios_buf_free(&t2);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_same_seed_same_bytes, test_other_seed_differs);
}
