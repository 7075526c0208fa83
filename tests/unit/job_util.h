/*
 * Helpers shared by the job-parser tests (tests/unit/job_*.c): parse a job
 * file given as a string, with a fixed fake environment and machine, and
 * check error messages by substring. Header-only: each test is one program.
 */
#ifndef IOSCHED_TEST_JOB_UTIL_H
#define IOSCHED_TEST_JOB_UTIL_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "iosched/job.h"

static struct ios_jobfile jt_jf;
static struct ios_err jt_e;

/* The fake environment: NAME=VALUE strings; NULL-terminated. */
static const char *const jt_env[] = {
	"SIZE=64m", "DEPTH=8", "EMPTY=", "KEY=bs", "SEMI=4k;x", NULL,
};

static inline const char *jt_getenv(const char *name, void *priv)
{
	const char *const *p;
	size_t n = strlen(name);

	(void)priv;
	for (p = jt_env; *p; p++)
		if (!strncmp(*p, name, n) && (*p)[n] == '=')
			return *p + n + 1;
	return NULL;
}

static inline void jt_opts(struct ios_job_parse_opts *po, enum ios_compat compat)
{
	ios_job_parse_opts_init(po);
	po->compat = compat;
	po->getenv = jt_getenv;
	po->pagesize = 4096;
	po->mb_memory = 2048;
	po->ncpus = 4;
}

/* Parse @text (named "t.fio") into jt_jf, replacing what was there. */
static inline int jt_parse_compat(const char *text, enum ios_compat compat)
{
	struct ios_job_parse_opts po;

	ios_jobfile_free(&jt_jf);
	ios_err_clear(&jt_e);
	jt_opts(&po, compat);
	return ios_job_parse_buf("t.fio", text, strlen(text), &po, &jt_jf, &jt_e);
}

static inline int jt_parse(const char *text)
{
	return jt_parse_compat(text, IOS_JOB_COMPAT_FIO3);
}

/* The only job of a one-job file, or NULL (with the error printed). */
static inline const struct ios_job *jt_job(const char *text)
{
	int ret = jt_parse(text);

	if (ret || jt_jf.nr_jobs != 1) {
		fprintf(stderr, "jt_job: ret %d, %zu jobs, '%s' for:\n%s\n", ret, jt_jf.nr_jobs,
			jt_e.msg, text);
		return NULL;
	}
	return &jt_jf.jobs[0];
}

/*
 * @text must fail with @code and a message holding every string given
 * (NULL-terminated list). Returns 1 when it does, 0 (after printing) if not.
 */
static inline int jt_fails(const char *text, int code, ...)
{
	va_list ap;
	const char *s;
	int ret = jt_parse(text), ok = ret == code;

	va_start(ap, code);
	while (ok && (s = va_arg(ap, const char *)))
		ok = strstr(jt_e.msg, s) != NULL;
	va_end(ap);
	if (!ok)
		fprintf(stderr, "jt_fails: expected %d, got %d '%s' for:\n%s\n", code, ret,
			jt_e.msg, text);
	return ok;
}

static inline void jt_cleanup(void)
{
	ios_jobfile_free(&jt_jf);
}

/* Value of option @key in a kv list (the first one), or NULL. */
static inline const char *jt_kv(const struct ios_kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

#endif
