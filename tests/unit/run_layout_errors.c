/*
 * Description: a job whose files cannot be laid out fails before the run
 * starts, with a message citing the line of the option responsible and
 * naming it as written: size= for a file larger than the device or the
 * layout allows, or for the second of two jobs that together overfill it
 * (with nrfiles= when it splits the size); filesize= when that set the
 * file's size; nrfiles= when the inodes run out or each file's share is
 * smaller than one block or one byte; offset= past the end of a file;
 * lab.file_size when that sized the file. Messages add the device profile
 * and its capacity. Lines in [global] sections are cited as well.
 */
#include <string.h>
#include "harness.h"

#define HDD_BYTES "1000204886016"	/* hdd-2009, the default device */

/* Parse @text as "t.fio", run it with the --set values @sets (NULL-terminated). */
static int run_job(const char *text, const char *const *sets, struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res = { 0 };
	int ret;

	memset(e, 0, sizeof(*e));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("t.fio", text, strlen(text), &po, &jf, e);
	if (ret) {
		fprintf(stderr, "parse: %s\n", e->msg);
		return -9999;
	}
	for (; sets && *sets; sets++)
		if (ios_settings_add_kv(&set, *sets, "--set", e))
			return -9998;
	cfg.settings = &set;
	cfg.seed = 1;
	ret = ios_run(&jf, &cfg, &res, e);
	if (!ret)
		ios_run_result_free(&res);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static int has(const struct ios_err *e, const char *s)
{
	if (strstr(e->msg, s))
		return 1;
	fprintf(stderr, "message \"%s\" lacks \"%s\"\n", e->msg, s);
	return 0;
}

/* a file larger than ext3 allows: size= at its line, not the [job] line */
static int test_size_too_large(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_job("[many]\nrw=read\nsize=2t\n", NULL, &e), -EFBIG);
	T_ASSERT(has(&e, "t.fio:3: job 'many': size=2t: file 'many.0.0'"));
	T_ASSERT(has(&e, "larger than ext3"));
	T_ASSERT(has(&e, "(device 'hdd-2009' holds " HDD_BYTES " bytes, lab.fs=ext3)"));
	/* the other layouts: -ENOSPC, the same option */
	T_ASSERT_EQ(run_job("[many]\nrw=read\nsize=2t\n", (const char *[]){ "lab.fs=extent", NULL },
			    &e), -ENOSPC);
	T_ASSERT(has(&e, "t.fio:3: job 'many': size=2t: file 'many.0.0'"));
	T_ASSERT(has(&e, "does not fit on the extent layout"));
	T_ASSERT_EQ(run_job("[many]\nrw=read\nsize=2t\n", (const char *[]){ "lab.fs=raw", NULL },
			    &e), -ENOSPC);
	T_ASSERT(has(&e, "t.fio:3: job 'many': size=2t: "));
	return T_PASS;
}

/* size= in [global] split by nrfiles= in the job: the size line, both named */
static int test_size_with_nrfiles(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_job("[global]\nrw=read\nsize=1000g\n\n[many]\nnrfiles=1000\n", NULL, &e),
		    -ENOSPC);
	T_ASSERT(has(&e, "t.fio:3: job 'many': size=1000g with nrfiles=1000 (1073741824 bytes a "
			 "file): file 'many.0.915' of 1073741824 bytes"));
	T_ASSERT(has(&e, "does not fit on the ext3 layout"));
	T_ASSERT(has(&e, "holds " HDD_BYTES " bytes"));
	return T_PASS;
}

/* two jobs of 600 GiB on a 931 GiB disk: the second job's size= */
static int test_two_jobs(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_job("[a]\nrw=read\nsize=600g\n\n[b]\nrw=read\nsize=600g\n", NULL, &e),
		    -ENOSPC);
	T_ASSERT(has(&e, "t.fio:7: job 'b': size=600g: file 'b.0.0'"));
	T_ASSERT(has(&e, "still free"));
	return T_PASS;
}

/* filesize= sized the files: it is the one cited (as written, suffix and all) */
static int test_filesize(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_job("[a]\nrw=read\nfilesize=600G\nnrfiles=2\n", NULL, &e), -ENOSPC);
	T_ASSERT(has(&e, "t.fio:3: job 'a': filesize=600G: file 'a.0.1'"));
	return T_PASS;
}

/* too many files: nrfiles= at its line */
static int test_nrfiles(void)
{
	struct ios_err e;

	/* the extent layout's inode area holds 4080 files: said before any is laid out */
	T_ASSERT_EQ(run_job("[a]\nrw=read\nsize=10g\nnrfiles=5000\n",
			    (const char *[]){ "lab.fs=extent", NULL }, &e), -ENOSPC);
	T_ASSERT(has(&e, "t.fio:4: job 'a': nrfiles=5000: 5000 files in all"));
	T_ASSERT(has(&e, "more than lab.fs=extent on device"));
	T_ASSERT(has(&e, "can hold: 4080 (its free inodes)"));
	/* the same count over two jobs: the second one is named */
	T_ASSERT_EQ(run_job("[a]\nrw=read\nsize=10g\nnrfiles=3000\n[b]\nrw=read\nsize=10g\n"
			    "nrfiles=3000\n", (const char *[]){ "lab.fs=extent", NULL }, &e),
		    -ENOSPC);
	T_ASSERT(has(&e, "t.fio:8: job 'b': nrfiles=3000: 6000 files in all"));
	/* more than a run simulates, refused before ten million names are made */
	T_ASSERT_EQ(run_job("[a]\nrw=read\nsize=100g\nnrfiles=10000000\n", NULL, &e), -E2BIG);
	T_ASSERT(has(&e, "t.fio:4: job 'a': nrfiles=10000000: 10000000 files in all"));
	/* the same cap for named files (a long filename= list) */
	{
		size_t n = 300000, len = 64 + n * 8;
		char *text = malloc(len), *p = text;

		T_ASSERT(text);
		p += sprintf(p, "[a]\nrw=read\nsize=1g\nfilename=");
		for (size_t i = 0; i < n; i++)
			p += sprintf(p, "%sf%zu", i ? ":" : "", i);
		*p++ = '\n';
		*p = '\0';
		T_ASSERT_EQ(run_job(text, NULL, &e), -E2BIG);
		free(text);
		T_ASSERT(has(&e, "t.fio:1: job 'a': 300000 file names in all"));
	}
	/* each file's share smaller than one block */
	T_ASSERT_EQ(run_job("[a]\nrw=read\nsize=1m\nnr_files=300\n", NULL, &e), -EINVAL);
	T_ASSERT(has(&e, "t.fio:4: job 'a': nr_files=300: the region of 'a.0.0'"));
	T_ASSERT(has(&e, "smaller than one block (4096)"));
	/* ... or than one byte */
	T_ASSERT_EQ(run_job("[a]\nrw=read\nnrfiles=20\nsize=10\n", NULL, &e), -EINVAL);
	T_ASSERT(has(&e, "t.fio:3: job 'a': nrfiles=20: size=10 is smaller than one byte per "
			 "file for its 20 files"));
	return T_PASS;
}

/* offset= past the end of a file another job sized */
static int test_offset(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_job("[a]\nfilename=x\nsize=1m\n[b]\nfilename=x\noffset=2m\n", NULL, &e),
		    -EINVAL);
	T_ASSERT(has(&e, "t.fio:6: job 'b': offset=2m: offset=2097152 is beyond the end of 'x'"));
	return T_PASS;
}

/* nothing in the job file sized it: lab.file_size, at the job's line */
static int test_lab_file_size(void)
{
	struct ios_err e;

	T_ASSERT_EQ(run_job("[a]\nrw=read\nfilename=x\n", (const char *[]){ "lab.file_size=2000g",
									   NULL }, &e), -ENOSPC);
	T_ASSERT(has(&e, "t.fio:1: job 'a': lab.file_size=2147483648000: file 'x'"));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_size_too_large, test_size_with_nrfiles, test_two_jobs, test_filesize,
		     test_nrfiles, test_offset, test_lab_file_size);
}
