/*
 * Description: tasks to simulated CPUs (src/run/cpu_map.c), the software
 * context a blk-mq run submits from (Linux 6.12 blk_mq_get_ctx), with
 * fio 3.33's cpus_allowed and cpumask:
 * - tasks that name no CPU go round-robin over lab.cpus in job order;
 * - cpus_allowed=3 gives CPU 3; a set of several gives the job's clones its
 *   CPUs in turn, lowest first; cpumask is the same as a bit mask; of the
 *   two, the later one written wins;
 * - a CPU at or above lab.cpus is refused with the file, line, job, option
 *   and the allowed range;
 * - without pinning (the single-queue layer) the sets are ignored, and a
 *   legacy run with cpus_allowed beyond lab.cpus still runs, noted as before;
 * - lab.cpus: default 1, allowed 1..256, refused outside.
 */
#include <string.h>
#include "harness.h"
#include "job_util.h"
#include "run/cpu_map.h"

/* The CPUs of every task of @text's jobs (numjobs clones each), in order. */
static int map_all(const char *text, unsigned nr_cpus, bool pin, unsigned *cpus, size_t *n,
		   struct ios_err *e)
{
	struct ios_cpu_map m;

	memset(e, 0, sizeof(*e));	/* an error context keeps its first error */
	*n = 0;
	if (jt_parse(text)) {
		*e = jt_e;
		return jt_e.code;
	}
	ios_cpu_map_init(&m, nr_cpus, pin);
	for (size_t i = 0; i < jt_jf.nr_jobs; i++) {
		const struct ios_job *j = &jt_jf.jobs[i];

		for (unsigned k = 0; k < (j->numjobs ? j->numjobs : 1); k++) {
			int ret = ios_cpu_map_task(&m, j, k, &cpus[(*n)++], e);

			if (ret)
				return ret;
		}
	}
	return 0;
}

static int test_round_robin(void)
{
	unsigned cpu[16];
	size_t n;
	struct ios_err e = { 0 };

	T_ASSERT(!map_all("[a]\nnumjobs=2\n[b]\n[c]\nnumjobs=3\n", 4, true, cpu, &n, &e));
	T_ASSERT_EQ(n, 6);
	for (size_t i = 0; i < n; i++)
		T_ASSERT_EQ(cpu[i], i % 4);
	/* one CPU: everyone on 0 */
	T_ASSERT(!map_all("[a]\nnumjobs=3\n", 1, true, cpu, &n, &e));
	T_ASSERT(cpu[0] == 0 && cpu[1] == 0 && cpu[2] == 0);
	jt_cleanup();
	return T_PASS;
}

static int test_pinned(void)
{
	unsigned cpu[16];
	size_t n;
	struct ios_err e = { 0 };

	/* cpus_allowed=3 gives CPU 3; the unpinned ones go round-robin around it */
	T_ASSERT(!map_all("[a]\n[p]\ncpus_allowed=3\n[b]\n", 4, true, cpu, &n, &e));
	T_ASSERT_EQ(n, 3);
	T_ASSERT_EQ(cpu[0], 0);
	T_ASSERT_EQ(cpu[1], 3);
	T_ASSERT_EQ(cpu[2], 1);
	/* several: the clones take them in turn */
	T_ASSERT(!map_all("[p]\ncpus_allowed=1,3\nnumjobs=3\n", 4, true, cpu, &n, &e));
	T_ASSERT(cpu[0] == 1 && cpu[1] == 3 && cpu[2] == 1);
	T_ASSERT(!map_all("[p]\ncpus_allowed=4-6\nnumjobs=4\n", 8, true, cpu, &n, &e));
	T_ASSERT(cpu[0] == 4 && cpu[1] == 5 && cpu[2] == 6 && cpu[3] == 4);
	/* cpumask: bit N is CPU N (0x6: CPUs 1 and 2), decimal too */
	T_ASSERT(!map_all("[p]\ncpumask=0x6\nnumjobs=2\n[q]\ncpumask=8\n", 4, true, cpu, &n, &e));
	T_ASSERT(cpu[0] == 1 && cpu[1] == 2 && cpu[2] == 3);
	/* the later of cpus_allowed and cpumask wins; [global] is inherited */
	T_ASSERT(!map_all("[global]\ncpus_allowed=2\n[p]\ncpumask=1\n[q]\n", 4, true, cpu, &n,
			  &e));
	T_ASSERT(cpu[0] == 0 && cpu[1] == 2);
	/* without pinning (single-queue layer) the sets count for nothing */
	T_ASSERT(!map_all("[a]\n[p]\ncpus_allowed=3\n", 2, false, cpu, &n, &e));
	T_ASSERT(cpu[0] == 0 && cpu[1] == 1);
	jt_cleanup();
	return T_PASS;
}

static int test_out_of_range(void)
{
	unsigned cpu[16];
	size_t n;
	struct ios_err e = { 0 };

	T_ASSERT_EQ(map_all("[a]\n[j]\nbs=4k\ncpus_allowed=3\n", 2, true, cpu, &n, &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "t.fio:4: job 'j': cpus_allowed names CPU 3") &&
		     strstr(e.msg, "allowed 0..1") && strstr(e.msg, "lab.cpus=2"), "%s", e.msg);
	/* one CPU of a set beyond is enough, as fio refuses it */
	T_ASSERT_EQ(map_all("[j]\ncpus_allowed=0-2\n", 2, true, cpu, &n, &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "CPU 2"), "%s", e.msg);
	T_ASSERT_EQ(map_all("[j]\ncpumask=0x10\n", 4, true, cpu, &n, &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "t.fio:2: job 'j': cpumask names CPU 4") &&
		     strstr(e.msg, "allowed 0..3"), "%s", e.msg);
	/* not refused where the sets have no effect */
	T_ASSERT_EQ(map_all("[j]\ncpus_allowed=3\n", 2, false, cpu, &n, &e), 0);
	jt_cleanup();
	return T_PASS;
}

/* A whole run: lab.cpus's range and default, and a legacy run's note. */
static int run_text(const char *text, const char *kv, struct ios_run_result *res,
		    struct ios_err *e)
{
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	int ret;

	memset(e, 0, sizeof(*e));
	ret = jt_parse(text);

	if (ret) {
		*e = jt_e;
		return ret;
	}
	if (ios_settings_add_kv(&set, "lab.fs=raw", "test", e) ||
	    (kv && ios_settings_add_kv(&set, kv, "test", e))) {
		ios_settings_free(&set);
		return -EINVAL;
	}
	cfg.scheduler = "noop";
	cfg.device = "ssd";
	cfg.seed = 1;
	cfg.settings = &set;
	ret = ios_run(&jt_jf, &cfg, res, e);
	ios_settings_free(&set);
	return ret;
}

static int test_lab_cpus(void)
{
	static const char job[] = "[j]\nrw=read\nbs=4k\nsize=64k\ndirect=1\nfilename=/dev/sdb\n"
				  "cpus_allowed=5\n";
	const struct ios_tunable *t = ios_tunable_find(ios_lab_tunables_table, "cpus");
	struct ios_run_result res;
	struct ios_err e = { 0 };
	bool noted = false;

	T_ASSERT(t && !strcmp(t->def, "1"));
	T_ASSERT_EQ(t->min, 1);
	T_ASSERT_EQ(t->max, IOS_MAX_CPUS);
	T_ASSERT_EQ(run_text(job, "lab.cpus=0", &res, &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "lab.cpus") && strstr(e.msg, "1..256"), "%s", e.msg);
	T_ASSERT_EQ(run_text(job, "lab.cpus=257", &res, &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "1..256"), "%s", e.msg);
	/* legacy: cpus_allowed=5 on a 1-CPU lab runs, and is noted as it always was */
	T_ASSERT_MSG(run_text(job, NULL, &res, &e) == 0, "%s", e.msg);
	for (size_t i = 0; i < res.nr_warnings; i++)
		if (strstr(res.warnings[i], "job 'j': cpus_allowed: CPU and memory placement has "
					    "no effect in a simulator"))
			noted = true;
	T_ASSERT(noted);
	ios_run_result_free(&res);
	T_ASSERT_MSG(run_text(job, "lab.cpus=256", &res, &e) == 0, "%s", e.msg);
	ios_run_result_free(&res);
	jt_cleanup();
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_round_robin, test_pinned, test_out_of_range, test_lab_cpus);
}
