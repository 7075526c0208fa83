/*
 * fio's command-line jobs: "--name=a --rw=read" as sections of a job file.
 *
 * fio builds jobs from its command line in parse_cmd_line() (init.c): the
 * options before the first --name edit the global template, each --name
 * hands the job being built to add_job() and starts a new one from the
 * template, and a name that begins with "global" makes the options after
 * it global again. That is the structure the job-file reader produces for
 * "[global] / [a] / ...", so the arguments are turned into the same
 * ios_ini_section records and applied by the same code as a job file's:
 * every option has one parser, one set of checks and one set of messages,
 * and a job given as flags runs exactly as the same job written in a file.
 * Each option keeps its argument's position as its "line", so an error
 * reads "<command line>:4: option 'bs=4x': ...".
 *
 * As in fio, a job's own --name=x is also recorded as its option
 * "name" (fio's JSON lists it under "job options" for a command-line job,
 * not for a job file's [x]).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/job.h"
#include "job/ini.h"

#define ARGS_WHERE "<command line>"

static void args_free(struct ios_ini_section *secs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < secs[i].nr; k++) {
			free(secs[i].kv[k].key);
			free(secs[i].kv[k].value);
		}
		free(secs[i].kv);
		free(secs[i].name);
	}
	free(secs);
}

static int args_kv(struct ios_ini_section *s, const char *key, const char *value, int pos)
{
	struct ios_ini_kv *kv;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;

		kv = realloc(s->kv, cap * sizeof(*kv));
		if (!kv)
			return -ENOMEM;
		s->kv = kv;
		s->cap = cap;
	}
	kv = &s->kv[s->nr];
	/* every field the job-file reader fills, unset_var included ("": no ${VAR}) */
	memset(kv, 0, sizeof(*kv));
	kv->key = strdup(key);
	kv->value = value ? strdup(value) : NULL;
	kv->file = ARGS_WHERE;
	kv->line = pos;
	if (!kv->key || (value && !kv->value)) {
		free(kv->key);
		free(kv->value);
		return -ENOMEM;
	}
	s->nr++;
	return 0;
}

/* A new section at the end of @secs: a job named @name, or global when NULL. */
static struct ios_ini_section *args_section(struct ios_ini_section **secs, size_t *n,
					    const char *name, int pos)
{
	struct ios_ini_section *nv = realloc(*secs, (*n + 1) * sizeof(*nv)), *s;

	if (!nv)
		return NULL;
	*secs = nv;
	s = &nv[*n];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name ? name : "global");
	if (!s->name)
		return NULL;
	s->file = ARGS_WHERE;
	s->line = pos;
	s->global = !name;
	(*n)++;
	return s;
}

int ios_job_parse_args(const struct ios_job_arg *args, size_t n, const char *first_file,
		       const struct ios_job_parse_opts *o, struct ios_jobfile *jf,
		       struct ios_err *e)
{
	struct ios_ini_section *secs = NULL, *cur = NULL;
	size_t nr = 0;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		const struct ios_job_arg *a = &args[i];
		bool name = !strcmp(a->key, "name");

		if (name && (!a->value || !*a->value)) {
			ret = IOS_ERR(e, -EINVAL, ARGS_WHERE ":%d: option 'name': a job needs a name",
				      a->pos);
			break;
		}
		if (name || !cur) {
			bool global = !name || !strncmp(a->value, "global", 6);

			cur = args_section(&secs, &nr, global ? NULL : a->value, a->pos);
			if (!cur) {
				ret = IOS_ERR(e, -ENOMEM, ARGS_WHERE ": out of memory");
				break;
			}
			if (name && global)
				continue;
		}
		if (args_kv(cur, a->key, a->value, a->pos))
			ret = IOS_ERR(e, -ENOMEM, ARGS_WHERE ": out of memory");
	}
	if (!ret)
		ret = ios_job_parse_file_pre(secs, nr, first_file, o, jf, e);
	args_free(secs, nr);
	return ret;
}
