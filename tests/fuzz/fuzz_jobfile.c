/*
 * libFuzzer target for the job-file parser: arbitrary bytes go through
 * ios_job_parse_buf as a job file. Includes never touch the disk: a stub
 * read_file serves a few fixed files (one nests, one includes itself, one
 * holds a section) and "self", which is the input itself, so the fuzzer can
 * reach include loops, depth limits and sections in included files. ${VAR}
 * lookups go to a stub too, and the machine keywords have fixed values, so
 * every run is deterministic. Parsing the same input twice into one jobfile
 * also exercises the append and roll-back paths.
 *
 * Build: make fuzz; run: build/fuzz/fuzz_jobfile tests/fuzz/corpus
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/job.h"

struct fz_input {
	const uint8_t *data;
	size_t size;
};

static char *fz_dup(const char *s, size_t n, size_t *len)
{
	char *b = malloc(n + 1);

	if (!b)
		return NULL;
	memcpy(b, s, n);
	b[n] = '\0';
	*len = n;
	return b;
}

static char *fz_read_file(const char *path, size_t *len, void *priv)
{
	static const struct { const char *name, *text; } files[] = {
		{ "a.fio", "bs=8k\ninclude b.fio\n" },
		{ "b.fio", "iodepth=2 ; nested\nrw=randread:4\n" },
		{ "loop.fio", "include loop.fio\n" },
		{ "sec.fio", "size=1m\n[other]\n" },
		{ "env.fio", "size=${SIZE}\nthinktime=${EMPTY}5ms\n" },
	};
	const struct fz_input *in = priv;
	const char *base = strrchr(path, '/');
	size_t i;

	base = base ? base + 1 : path;
	if (!strcmp(base, "self"))
		return fz_dup((const char *)in->data, in->size, len);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(base, files[i].name))
			return fz_dup(files[i].text, strlen(files[i].text), len);
	return NULL;
}

static const char *fz_getenv(const char *name, void *priv)
{
	(void)priv;
	if (!strcmp(name, "SIZE"))
		return "64m";
	if (!strcmp(name, "LONG"))
		return "${LONG}${LONG}${LONG}${LONG}";
	if (!strcmp(name, "BS"))
		return "4k,8k";
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_input in = { data, size };
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	po.read_file = fz_read_file;
	po.read_file_priv = &in;
	po.getenv = fz_getenv;
	po.max_include_depth = 8;
	po.compat = size && (data[0] & 1) ? IOS_JOB_COMPAT_FIO1 : IOS_JOB_COMPAT_FIO3;
	ret = ios_job_parse_buf("fuzz.fio", (const char *)data, size, &po, &jf, &e);
	if (ret && !e.msg[0])
		abort();	/* every error must say why */
	ios_err_clear(&e);
	/* a second file appends (or rolls back to the first one's jobs) */
	ret = ios_job_parse_buf("sub/again.fio", (const char *)data, size, &po, &jf, &e);
	if (ret && !e.msg[0])
		abort();
	ios_jobfile_free(&jf);
	return 0;
}
