/*
 * The job file's structure, without meaning: sections of key[=value] lines.
 *
 * ini.c reads a buffer the way fio 3.33 reads a job file (see ini.c for the
 * rules) and hands each section to a callback once all of its lines, those of
 * included files too, have been read. It knows nothing about options; it
 * only keeps each line's file and line number so that the option layer can
 * name them in errors.
 */
#ifndef IOSCHED_JOB_INI_H
#define IOSCHED_JOB_INI_H

#include <stdbool.h>
#include <stddef.h>
#include "iosched/err.h"

struct ios_ini_kv {
	char *key;		/* after ${VAR} expansion, trailing blanks removed */
	char *value;		/* text after '=' (leading blanks kept); NULL: bare key */
	const char *file;	/* from ops->file_read: lives as long as the caller wants */
	int line;
	char unset_var[64];	/* the first ${VAR} on the line that was unset, or "" */
};

struct ios_ini_section {
	char *name;		/* between the brackets, verbatim */
	const char *file;
	int line;
	bool global;		/* [global] */
	struct ios_ini_kv *kv;
	size_t nr, cap;
};

struct ios_ini_ops {
	/* One complete section (includes expanded); nonzero stops the parse. */
	int (*section)(void *priv, const struct ios_ini_section *s, struct ios_err *e);
	/* A file is about to be read: return a stable copy of @path (NULL: ENOMEM). */
	const char *(*file_read)(void *priv, const char *path);
	/* Read an include file into a malloc'd buffer; 0 or -errno. */
	int (*read)(void *priv, const char *path, char **buf, size_t *len);
	/* ${NAME}: the value or NULL (unset: expands to nothing). */
	const char *(*getenv)(void *priv, const char *name);
	unsigned max_depth;	/* include nesting limit */
	void *priv;
};

/* Parse @buf (not necessarily NUL-terminated) read from @path. */
int ios_ini_parse(const struct ios_ini_ops *ops, const char *path, const char *buf,
		  size_t len, struct ios_err *e) IOS_MUST_CHECK;

/*
 * job.c: parse the command line's sections @pre, then (unless NULL) the
 * job file @buf / @path, as one fio parse (see ios_job_parse_args()).
 */
struct ios_job_parse_opts;
struct ios_jobfile;
int ios_job_parse_pre(const struct ios_ini_section *pre, size_t nr_pre, const char *name,
		      const char *buf, size_t len, const struct ios_job_parse_opts *o,
		      struct ios_jobfile *jf, struct ios_err *e) IOS_MUST_CHECK;
int ios_job_parse_file_pre(const struct ios_ini_section *pre, size_t nr_pre, const char *path,
			   const struct ios_job_parse_opts *o, struct ios_jobfile *jf,
			   struct ios_err *e) IOS_MUST_CHECK;

#endif
