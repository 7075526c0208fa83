/*
 * Description: fio's command-line jobs (ios_job_parse_args, src/job/args.c)
 * build the jobs fio's parse_cmd_line() builds: options before the first
 * "name" are global and reach every job, "name" starts a job, a name
 * beginning with "global" makes the options after it global again, the
 * command line's globals are the first job file's defaults (no stonewall
 * between them), and errors name "<command line>:POS". Also the parser's
 * --section filter and --showcmd text, which the fio command passes in
 * struct ios_job_parse_opts.
 */
#include "job_util.h"
#include "iosched/stats.h"

#define ARG(k, v, p) { k, v, p }

static char *ja_read(const char *path, size_t *len, void *priv)
{
	const char *text = priv;

	(void)path;
	*len = strlen(text);
	return strdup(text);
}

static int test_globals_before_name(void)
{
	static const struct ios_job_arg a[] = {
		ARG("rw", "randread", 1), ARG("bs", "8k", 2), ARG("name", "a", 3),
		ARG("name", "b", 4), ARG("iodepth", "4", 5),
	};
	struct ios_job_parse_opts po;

	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	T_ASSERT_EQ(ios_job_parse_args(a, 5, NULL, &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 2);
	T_ASSERT(!strcmp(jt_jf.jobs[0].name, "a") && !strcmp(jt_jf.jobs[1].name, "b"));
	for (int i = 0; i < 2; i++) {
		T_ASSERT_EQ(jt_jf.jobs[i].rw, IOS_RW_RANDREAD);
		T_ASSERT_U64_EQ(jt_jf.jobs[i].bs[0], 8192);
		T_ASSERT(!jt_jf.jobs[i].stonewall);
	}
	T_ASSERT_EQ(jt_jf.jobs[0].iodepth, 1);
	T_ASSERT_EQ(jt_jf.jobs[1].iodepth, 4);
	T_ASSERT_EQ(jt_jf.nr_global_opts, 2);
	/* as fio's JSON: a command-line job's name is one of its options */
	T_ASSERT_EQ(jt_jf.jobs[1].nr_opts, 2);
	T_ASSERT(!strcmp(jt_jf.jobs[1].opts[0].key, "name"));
	jt_cleanup();
	return T_PASS;
}

static int test_name_global(void)
{
	static const struct ios_job_arg a[] = {
		ARG("name", "a", 1), ARG("name", "global", 2), ARG("bs", "8k", 3),
		ARG("name", "b", 4),
	};
	struct ios_job_parse_opts po;

	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	T_ASSERT_EQ(ios_job_parse_args(a, 4, NULL, &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 2);
	T_ASSERT_U64_EQ(jt_jf.jobs[0].bs[0], 4096);
	T_ASSERT_U64_EQ(jt_jf.jobs[1].bs[0], 8192);
	jt_cleanup();
	return T_PASS;
}

static int test_error_names_position(void)
{
	static const struct ios_job_arg a[] = {
		ARG("name", "a", 1), ARG("size", "1m", 2), ARG("bs", "4x", 3),
	};
	static const struct ios_job_arg b[] = { ARG("name", "", 1) };
	struct ios_job_parse_opts po;

	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	T_ASSERT_EQ(ios_job_parse_args(a, 3, NULL, &po, &jt_jf, &jt_e), -EINVAL);
	T_ASSERT_MSG(strstr(jt_e.msg, "<command line>:3: option 'bs=4x'"), "%s", jt_e.msg);
	T_ASSERT_EQ(jt_jf.nr_jobs, 0);
	ios_err_clear(&jt_e);
	T_ASSERT_EQ(ios_job_parse_args(b, 1, NULL, &po, &jt_jf, &jt_e), -EINVAL);
	T_ASSERT_MSG(strstr(jt_e.msg, "a job needs a name"), "%s", jt_e.msg);
	jt_cleanup();
	return T_PASS;
}

/* fio --iodepth=2 --name=x job.fio: x first, the file's jobs get iodepth=2, no stonewall */
static int test_globals_reach_first_file(void)
{
	static const struct ios_job_arg a[] = { ARG("iodepth", "2", 1), ARG("name", "x", 2) };
	struct ios_job_parse_opts po;

	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	po.read_file = ja_read;
	po.read_file_priv = (void *)"[y]\n[z]\niodepth=3\n";
	T_ASSERT_EQ(ios_job_parse_args(a, 2, "j.fio", &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 3);
	T_ASSERT(!strcmp(jt_jf.jobs[0].name, "x") && !strcmp(jt_jf.jobs[1].name, "y"));
	T_ASSERT_EQ(jt_jf.jobs[1].iodepth, 2);
	T_ASSERT_EQ(jt_jf.jobs[2].iodepth, 3);
	T_ASSERT(!jt_jf.jobs[1].stonewall);
	/* a second file starts from fresh defaults after a stonewall */
	po.read_file_priv = (void *)"[w]\n";
	T_ASSERT_EQ(ios_job_parse_file("k.fio", &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(jt_jf.jobs[3].iodepth, 1);
	T_ASSERT(jt_jf.jobs[3].stonewall);
	jt_cleanup();
	return T_PASS;
}

static int test_section_and_showcmd(void)
{
	static const char text[] = "[global]\nblocksize=4k\n[a]\nrw=read\ntime_based\n"
				   "[global]\nbs=8k\n[b]\n";
	static const char *const only_b[] = { "b", NULL };
	static const struct ios_job_arg a[] = { ARG("iodepth", "2", 1) };
	struct ios_job_parse_opts po;
	struct ios_buf out;

	ios_buf_init(&out);
	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	po.showcmd = &out;
	po.read_file = ja_read;
	po.read_file_priv = (void *)text;
	T_ASSERT_EQ(ios_job_parse_args(a, 1, "t.fio", &po, &jt_jf, &jt_e), 0);
	T_ASSERT_MSG(out.s && !strcmp(out.s, "fio --iodepth=2 --bs=4k --name=a --rw=read "
				      "--time_based --iodepth=2 --bs=4k --bs=8k --name=b \n"),
		     "'%s'", out.s ? out.s : "");
	ios_jobfile_free(&jt_jf);
	out.len = 0;
	po.sections = only_b;
	po.showcmd = NULL;
	T_ASSERT_EQ(ios_job_parse_buf("t.fio", text, strlen(text), &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 1);
	T_ASSERT(!strcmp(jt_jf.jobs[0].name, "b"));
	T_ASSERT_U64_EQ(jt_jf.jobs[0].bs[0], 8192);
	ios_buf_free(&out);
	jt_cleanup();
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_globals_before_name, test_name_global, test_error_names_position,
		     test_globals_reach_first_file, test_section_and_showcmd);
}
