/*
 * Description: the number of job clones (sections times numjobs) is not
 * capped, but a count the run cannot hold fails with a message instead of
 * a crash. Regression: the clones were counted in 32 bits, so 2^20
 * sections of numjobs=4096 (or a caller's jobs summing past 2^32) wrapped
 * the count to 0 and the clones were written past a zero-length array.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "harness.h"

#ifdef __SANITIZE_ADDRESS__
/* a calloc too large for the sanitizer returns NULL, as libc's does, instead of aborting */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

static int run_counts(unsigned n0, unsigned n1, struct ios_err *e)
{
	static const char text[] = "[a]\nrw=read\nsize=64k\nfilename=/f\n"
				   "[b]\nrw=read\nsize=64k\nfilename=/f\n";
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res = { 0 };
	int ret;

	memset(e, 0, sizeof(*e));
	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf("t.fio", text, strlen(text), &po, &jf, e)) {
		fprintf(stderr, "parse: %s\n", e->msg);
		return -9999;
	}
	/* past the parser's numjobs range: what 2^20 sections of 4096 add up to */
	jf.jobs[0].numjobs = n0;
	jf.jobs[1].numjobs = n1;
	/* as a file asking for that many would (max_jobs), so the count itself is tested */
	jf.jobs[0].max_jobs = jf.jobs[1].max_jobs = UINT_MAX;
	cfg.seed = 1;
	ret = ios_run(&jf, &cfg, &res, e);
	if (!ret)
		ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	return ret;
}

/* 2^32 clones in all: was a count of 0, then writes past the task array */
static int test_wraps(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_counts(UINT_MAX, 1, &e), -E2BIG);
	T_ASSERT(strstr(e.msg, "4294967296 jobs in all") != NULL);
	return 0;
}

/*
 * 2^31 clones: countable, but each names a file, and a run simulates at
 * most 2^18: refused from the options, before the tasks are allocated (it
 * was a clean ENOMEM after trying to allocate them; below the limit it
 * allocated gigabytes for seconds, issue 28 item 8)
 */
static int test_no_memory(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_counts(1u << 31, 1, &e), -E2BIG);
	T_ASSERT(strstr(e.msg, "t.fio:1: job 'a': numjobs=2147483648 with filename= naming 1 "
			       "file(s): 2147483648 file names in all") != NULL);
	T_ASSERT(strstr(e.msg, "more than the 262144 one run simulates") != NULL);
	return 0;
}

/* fio's 4096 in all, unless the file raises max_jobs */
static int test_max_jobs(void)
{
	static const char text[] = "[a]\nrw=read\nsize=64k\nnumjobs=4000\n"
				   "[b]\nrw=read\nsize=64k\nnumjobs=97\n";
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };

	ios_job_parse_opts_init(&po);
	T_ASSERT_EQ(ios_job_parse_buf("t.fio", text, strlen(text), &po, &jf, &e), 0);
	cfg.seed = 1;
	T_ASSERT_EQ(ios_run(&jf, &cfg, &res, &e), -E2BIG);
	T_ASSERT(strstr(e.msg, "4097 jobs in all") && strstr(e.msg, "max_jobs=4097"));
	ios_jobfile_free(&jf);
	return 0;
}

/* a small count still runs */
static int test_small(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_counts(3, 2, &e), 0);
	return 0;
}

int main(void)
{
	return T_RUN(test_wraps, test_no_memory, test_max_jobs, test_small);
}
