/*
 * Description: the 2006 seed's job file (tests/jobs/seed004-cfq-bug.fio,
 * copied verbatim from the LKML thread: 11 readers, timeout=200, no size)
 * parses unmodified: 11 jobs in order, reader4 and reader5 share file4,
 * runtime 200 s; under fio 1.x compat direct=1 and ioengine=sync (the
 * thread's output shows odir=1, ioengine=sync) and rate is in KiB/s; under
 * fio 3 compat the defaults are fio 3.33's (direct=0, psync, ...).
 */
#include <stdio.h>
#include "job_util.h"

static char *seed_text;

static int load_seed(void)
{
	static const char *const paths[] = {
		"tests/jobs/seed004-cfq-bug.fio", "../tests/jobs/seed004-cfq-bug.fio",
		"../../tests/jobs/seed004-cfq-bug.fio",
	};
	size_t i, len;

	for (i = 0; i < IOS_ARRAY_SIZE(paths) && !seed_text; i++)
		seed_text = t_read_file(paths[i], &len);
	return seed_text ? 0 : -1;
}

static int check_seed_jobs(void)
{
	static const char *const files[] = {
		"file1", "file2", "file3", "file4", "file4", "file6", "file7", "file8",
		"file9", "file10", "file11",
	};
	size_t i;

	T_ASSERT_EQ(jt_jf.nr_jobs, 11);
	for (i = 0; i < jt_jf.nr_jobs; i++) {
		const struct ios_job *j = &jt_jf.jobs[i];
		char name[32];

		snprintf(name, sizeof(name), "reader%zu", i + 1);
		T_ASSERT_MSG(!strcmp(j->name, name), "job %zu is '%s'", i, j->name);
		T_ASSERT_EQ(j->index, (long long)i);
		T_ASSERT(!strcmp(j->filename, files[i]));
		T_ASSERT_EQ(j->nr_filenames, 1);
		T_ASSERT(!strcmp(j->filenames[0], files[i]));
		T_ASSERT_U64_EQ(j->runtime_ns, 200 * IOS_NSEC_PER_SEC);
		T_ASSERT_EQ(j->rw, IOS_RW_READ);
		T_ASSERT_U64_EQ(j->bs[0], 4096);
		T_ASSERT_U64_EQ(j->size, 0);		/* no size: the file's */
		T_ASSERT_EQ(j->iodepth, 1);
		T_ASSERT_EQ(j->time_based, 0);
		T_ASSERT_EQ(j->stonewall, 0);
		/* the job's own options, as the JSON report lists them */
		T_ASSERT_EQ(j->nr_opts, 1);
		T_ASSERT(!strcmp(j->opts[0].key, "filename"));
	}
	/* reader4 and reader5 read the same file */
	T_ASSERT(!strcmp(jt_jf.jobs[3].filenames[0], jt_jf.jobs[4].filenames[0]));
	T_ASSERT(strcmp(jt_jf.jobs[2].filenames[0], jt_jf.jobs[3].filenames[0]));
	/* timeout= is recorded under fio's canonical name */
	T_ASSERT_EQ(jt_jf.nr_global_opts, 1);
	T_ASSERT(!strcmp(jt_jf.global_opts[0].key, "runtime"));
	T_ASSERT(!strcmp(jt_jf.global_opts[0].value, "200"));
	/* lines point into the fixture: [reader1] is on line 7 */
	T_ASSERT_EQ(jt_jf.jobs[0].line, 7);
	return T_PASS;
}

static int test_seed_fio1(void)
{
	size_t i;

	T_ASSERT_EQ(load_seed(), 0);
	T_ASSERT_MSG(jt_parse_compat(seed_text, IOS_JOB_COMPAT_FIO1) == 0, "%s", jt_e.msg);
	T_ASSERT_EQ(check_seed_jobs(), T_PASS);
	T_ASSERT_EQ(jt_jf.compat, IOS_JOB_COMPAT_FIO1);
	for (i = 0; i < jt_jf.nr_jobs; i++) {
		T_ASSERT_EQ(jt_jf.jobs[i].direct, 1);
		T_ASSERT_EQ(jt_jf.jobs[i].buffered, 0);
		T_ASSERT_EQ(jt_jf.jobs[i].ioengine, IOS_ENGINE_SYNC);
	}
	jt_cleanup();
	return T_PASS;
}

static int test_seed_fio3(void)
{
	size_t i;

	T_ASSERT_EQ(load_seed(), 0);
	T_ASSERT_MSG(jt_parse(seed_text) == 0, "%s", jt_e.msg);
	T_ASSERT_EQ(check_seed_jobs(), T_PASS);
	for (i = 0; i < jt_jf.nr_jobs; i++) {
		T_ASSERT_EQ(jt_jf.jobs[i].direct, 0);
		T_ASSERT_EQ(jt_jf.jobs[i].ioengine, IOS_ENGINE_PSYNC);
	}
	jt_cleanup();
	return T_PASS;
}

static int test_fio3_defaults(void)
{
	struct ios_job j;

	T_ASSERT_EQ(ios_job_init_defaults(&j, IOS_JOB_COMPAT_FIO3), 0);
	T_ASSERT_EQ(j.direct, 0);
	T_ASSERT_EQ(j.buffered, 1);
	T_ASSERT_EQ(j.ioengine, IOS_ENGINE_PSYNC);
	T_ASSERT_U64_EQ(j.bs[0], 4096);
	T_ASSERT_U64_EQ(j.bs[1], 4096);
	T_ASSERT_U64_EQ(j.bs_min[1], 4096);
	T_ASSERT_U64_EQ(j.bs_max[1], 4096);
	T_ASSERT_EQ(j.rw, IOS_RW_READ);
	T_ASSERT_EQ(j.rw_seq_nr, 0);
	T_ASSERT_EQ(j.iodepth, 1);
	T_ASSERT_EQ(j.numjobs, 1);
	T_ASSERT_EQ(j.nrfiles, 1);
	T_ASSERT_EQ(j.rwmixread, 50);
	T_ASSERT_EQ(j.randrepeat, 1);
	T_ASSERT_EQ(j.randseed_set, 0);
	T_ASSERT_U64_EQ(j.randseed, 0x89);
	T_ASSERT_EQ(j.invalidate, 1);
	T_ASSERT_U64_EQ(j.bwavgtime_ns, 500 * 1000000ULL);
	T_ASSERT_U64_EQ(j.iopsavgtime_ns, 500 * 1000000ULL);
	T_ASSERT_U64_EQ(j.rate_cycle_ns, 1000 * 1000000ULL);
	T_ASSERT_EQ(j.prio, -1);
	T_ASSERT_EQ(j.prioclass, -1);
	T_ASSERT_EQ(j.nice, 0);
	T_ASSERT_EQ(j.nice_set, 0);
	T_ASSERT_EQ(j.thinktime_blocks, 1);
	T_ASSERT_EQ(j.thinktime_blocks_issue, 0);
	T_ASSERT_EQ(j.loops, 1);
	T_ASSERT_EQ(j.per_job_logs, 1);
	T_ASSERT_EQ(j.clat_percentiles, 1);
	T_ASSERT_EQ(j.lat_percentiles, 0);
	T_ASSERT_EQ(j.iodepth_batch_submit, 1);
	T_ASSERT_EQ(j.iodepth_batch_complete_min, 1);
	T_ASSERT_EQ(j.kb_base, 1024);
	T_ASSERT_EQ(j.sync, 0);
	T_ASSERT_EQ(j.nr_percentiles, 17);	/* fio's default list */
	T_ASSERT_NEAR(j.percentile_list[16], 99.99, 1e-9);
	T_ASSERT_U64_EQ(j.runtime_ns, 0);
	T_ASSERT(j.filename == NULL && j.name == NULL && j.opts == NULL);
	return T_PASS;
}

static int test_fio1_defaults_and_rates(void)
{
	const struct ios_job *j;
	struct ios_job d;

	T_ASSERT_EQ(ios_job_init_defaults(&d, IOS_JOB_COMPAT_FIO1), 0);
	T_ASSERT_EQ(d.direct, 1);
	T_ASSERT_EQ(d.buffered, 0);
	T_ASSERT_EQ(d.ioengine, IOS_ENGINE_SYNC);
	T_ASSERT_U64_EQ(d.bs[0], 4096);

	/* fio 1.x: rate and ratemin in KiB/s, ratecycle in ms, aio = libaio */
	T_ASSERT_EQ(jt_parse_compat("[j]\nrate=500\nratemin=100\nratecycle=250\nioengine=aio\n"
				    "rand_repeatable=0\n", IOS_JOB_COMPAT_FIO1), 0);
	j = &jt_jf.jobs[0];
	T_ASSERT_U64_EQ(j->rate[0], 500 * 1024);
	T_ASSERT_U64_EQ(j->rate_min[1], 100 * 1024);
	T_ASSERT_U64_EQ(j->rate_cycle_ns, 250 * 1000000ULL);
	T_ASSERT_EQ(j->ioengine, IOS_ENGINE_LIBAIO);
	T_ASSERT_EQ(j->randrepeat, 0);
	/* the same file under fio 3: bytes/s; "aio" is libaio there too (fio 3.33's __load_ioengine) */
	T_ASSERT_EQ(jt_parse("[j]\nrate=500\nioengine=aio\n"), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].ioengine, IOS_ENGINE_LIBAIO);
	T_ASSERT(jt_fails("[j]\nioengine=aoi\n", -EINVAL, "unknown ioengine", NULL));
	T_ASSERT_EQ(jt_parse("[j]\nrate=500\n"), 0);
	T_ASSERT_U64_EQ(jt_jf.jobs[0].rate[0], 500);
	/* explicit settings win over the compat defaults */
	T_ASSERT_EQ(jt_parse_compat("[j]\ndirect=0\nioengine=psync\n", IOS_JOB_COMPAT_FIO1), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].direct, 0);
	T_ASSERT_EQ(jt_jf.jobs[0].buffered, 1);
	T_ASSERT_EQ(jt_jf.jobs[0].ioengine, IOS_ENGINE_PSYNC);
	jt_cleanup();
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_seed_fio1, test_seed_fio3, test_fio3_defaults,
			test_fio1_defaults_and_rates);

	free(seed_text);
	return ret;
}
