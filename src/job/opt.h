/*
 * Private interface of the job-file parser (src/job/).
 *
 * Three layers, each in its own file:
 *
 *   value.c    turns one value string into a number the way fio 3.33 reads
 *              it: size suffixes with fio's kb_base inversion, time units
 *              with a per-option default unit, percentages, hex, $pagesize /
 *              $mb_memory / $ncpus keywords and arithmetic in parentheses.
 *   opt.c      the generic option-table engine: find a row by name or
 *              alias, split per-direction lists ("a,b,c") and ranges
 *              ("lo-hi"), call the value parser for the row's type, check the
 *              row's range and store at the row's offset in struct ios_job.
 *   options.c  the table itself (one row per fio option we model) plus the
 *              few custom setters (rw, bssplit, filename, ...) and the list
 *              of fio options we know but do not model.
 *
 * ini.c (ini.h) reads the file structure; job.c drives it all and owns the
 * public functions of include/iosched/job.h.
 *
 * Every error message starts with the place and the option as the user
 * wrote it: "job.fio:7: option 'prio=9': out of range, allowed 0..7".
 */
#ifndef IOSCHED_JOB_OPT_H
#define IOSCHED_JOB_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iosched/job.h"

/* ---- value parsing (value.c) ---- */

/* Where a value comes from and how to read it. */
struct ios_vctx {
	const char *where;	/* "job.fio:7: option 'prio=9'": prefix of messages */
	unsigned kb_base;	/* 1024 or 1000 */
	const struct ios_job_parse_opts *po;	/* keyword values */
	struct ios_err *e;
};

#define IOS_NS_PER_US	1000ULL
#define IOS_NS_PER_MS	1000000ULL
#define IOS_NS_PER_S	1000000000ULL

/*
 * Size in bytes. @pct != NULL accepts "N%": N is stored there and *out is 0;
 * *pct is -1 when the value is not a percentage.
 */
int ios_val_size(struct ios_vctx *c, const char *s, uint64_t *out, int *pct);
/* Time in ns; a bare number is in @unit_ns (seconds for runtime, us for thinktime). */
int ios_val_time(struct ios_vctx *c, const char *s, uint64_t unit_ns, uint64_t *out_ns);
/* Integer in [min, max] with fio's int syntax (size suffixes, hex; sign if min < 0). */
int ios_val_int(struct ios_vctx *c, const char *s, int64_t min, int64_t max, int64_t *out);
/* Exactly "0" or "1". */
int ios_val_bool(struct ios_vctx *c, const char *s, int *out);
/* Decimal number (percentiles): digits[.digits], no exponent, locale-free. */
int ios_val_decimal(struct ios_vctx *c, const char *s, double *out);
/*
 * Replace $pagesize, $mb_memory and $ncpus by the simulated machine's values.
 * Returns a malloc'd string (a copy when nothing matched) or NULL on ENOMEM;
 * *hit tells whether a keyword was replaced.
 */
char *ios_val_keywords(const struct ios_job_parse_opts *po, const char *s, bool *hit);
/* Format a range "lo..hi" for messages (INT64 bounds print as open ends). */
void ios_val_range_str(char *buf, size_t len, int64_t min, int64_t max);

/* ---- option table (opt.c, options.c) ---- */

enum ios_opt_type {
	IOS_OPT_STR,	/* char *, strdup'd */
	IOS_OPT_BOOL,	/* int: 0 or 1, value required */
	IOS_OPT_FLAG,	/* int: bare flag sets 1, or 0 / 1 */
	IOS_OPT_INT,	/* int or unsigned (see @size), fio int syntax, [min, max] */
	IOS_OPT_SIZE,	/* uint64_t bytes */
	IOS_OPT_TIME,	/* uint64_t ns; bare numbers in @unit_ns */
	IOS_OPT_MSEC,	/* uint64_t ns from a plain integer of milliseconds */
	IOS_OPT_ENUM,	/* int: index into @choices */
	IOS_OPT_CUSTOM,	/* @set does everything */
};

/* Row flags */
#define IOS_OPTF_PERDIR	(1u << 0)	/* "read,write,trim" list; off is an array of 2 */
#define IOS_OPTF_RANGE	(1u << 1)	/* "lo-hi" or "lo:hi" (or one value): off, off2 */
#define IOS_OPTF_PCT	(1u << 2)	/* "N%" accepted, N stored (unsigned) at off2 */
#define IOS_OPTF_FIRST	(1u << 3)	/* applied before the section's other options */
#define IOS_OPTF_LAST	(1u << 4)	/* applied after them (fio's filename) */
#define IOS_OPTF_KIB1	(1u << 5)	/* FIO1 compat: a bare number is in KiB (rate) */
#define IOS_OPTF_BARE	(1u << 6)	/* STR/CUSTOM: may be given without a value */
#define IOS_OPTF_NEEDRANGE (1u << 7)	/* RANGE: a single value is an error (bsrange) */
#define IOS_OPTF_COLONS	(1u << 8)	/* PERDIR: ':' and '-' belong to the value (bssplit) */
#define IOS_OPTF_NUM	(1u << 9)	/* CUSTOM with a numeric value (blank after '=' ok) */
#define IOS_OPTF_ZONE	(1u << 10)	/* SIZE: "Nz", N zones, accepted (options_zbd.c) */

struct ios_opt;

/* What a setter knows about the option line being applied. */
struct ios_optctx {
	struct ios_vctx v;
	const struct ios_opt *o;
	const char *key;	/* as typed (may be an alias) */
	const char *value;	/* NULL for a bare flag; leading blanks removed */
	enum ios_compat compat;
	bool is_default;	/* applying the row's default, not user input */
	bool global;		/* applying to a [global] section */
	const char *section;	/* section name */
	const char *file;	/* where the option was written (NULL for defaults) */
	int line;
};

typedef int (*ios_opt_set_fn)(struct ios_job *job, struct ios_optctx *c);

struct ios_opt {
	/* name (fio's canonical one, the JSON key), alias (comma-separated),
	 * type name, default for fio 3, help: what 'iosched list' shows */
	struct ios_job_option_info info;
	enum ios_opt_type type;
	size_t off;		/* offsetof(struct ios_job, ...) */
	size_t off2;		/* RANGE: high value; PCT: the percentage */
	unsigned size;		/* INT: sizeof the field (4 or 8) */
	int64_t min, max;	/* INT/SIZE: inclusive, in the user's unit */
	uint64_t unit_ns;	/* TIME: unit of a bare number */
	const char *def_fio1;	/* default under IOS_JOB_COMPAT_FIO1, if different */
	unsigned flags;
	const char *const *choices;	/* ENUM: NULL-terminated */
	ios_opt_set_fn set;	/* CUSTOM: the setter; other types: a hook run after */
};

extern const struct ios_opt ios_job_options[];	/* ends with a NULL name */
extern const struct ios_opt ios_job_options_jobctl[];	/* options_jobctl.c */
/* Every table, NULL-terminated: a row is looked up in each in turn. */
extern const struct ios_opt *const ios_job_option_tables[];
/* The row after @o across the tables (NULL at the end); ios_opt_first() starts. */
const struct ios_opt *ios_opt_first(void);
const struct ios_opt *ios_opt_next(const struct ios_opt *o);
extern const struct ios_opt ios_job_options_submit[];	/* options_submit.c */
/* options_submit.c: records a buffer-content option for the run's note */
int ios_opt_bufopt_hook(struct ios_job *job, struct ios_optctx *c);
extern const struct ios_opt ios_job_verify_options[];	/* options_verify.c */
extern const struct ios_opt ios_job_options_fileops[];	/* options_fileops.c */

const struct ios_opt *ios_opt_find(const char *name);
/* fio_names.c: is @name one of fio 3.33's options (general or of an engine)? */
bool ios_opt_is_fio_only(const char *name);
bool ios_opt_fio_general(const char *name);
/* An option of a fio release after 3.33: that release ("fio-3.35"), else NULL */
const char *ios_opt_fio_later(const char *name);
/* the engines owning engine option @name ("net, rdma"), NULL if it is none */
const char *ios_opt_fio_engines(const char *name);

/* options_zbd.c: zone_reset_threshold and zone_reset_frequency (0..1) */
int ios_opt_zbd_reset_threshold(struct ios_job *job, struct ios_optctx *c);
int ios_opt_zbd_reset_frequency(struct ios_job *job, struct ios_optctx *c);
/* IOS_OPTF_ZONE rows: is @c's value in zones ("4z")? */
bool ios_opt_zone_units_given(const struct ios_optctx *c);
/* Store @c's "Nz" (an IOS_OPTF_ZONE row's value in zones); 0 or -errno. */
int ios_opt_zone_units_set(struct ios_job *job, struct ios_optctx *c);
/* A byte or percent value replaced a count of zones of @c's row. */
void ios_opt_zone_units_clear(struct ios_job *job, const struct ios_optctx *c);
/* zonemode=zbd's checks of zonesize, and zone units made bytes; 0 or -errno with @e. */
int ios_job_zbd_finish(struct ios_job *job, struct ios_err *e);

/* Parse @c->value for @c->o and store it into @job. */
int ios_opt_apply(struct ios_job *job, struct ios_optctx *c);

/* Helpers for custom setters in options.c */
int ios_opt_err(struct ios_optctx *c, int code, const char *fmt, ...) IOS_PRINTF(3, 4);
/*
 * Per-direction list "read,write,trim": calls @fn for each direction the
 * list sets (0 read, 1 write, 2 trim), with that direction's text, following
 * fio's rules for empty entries and a trailing comma.
 */
typedef int (*ios_opt_dir_fn)(struct ios_job *job, struct ios_optctx *c, int dir,
			      const char *text);
int ios_opt_for_each_dir(struct ios_job *job, struct ios_optctx *c, ios_opt_dir_fn fn);
/* "lo-hi" / "lo:hi" / (unless @need_range) one value, as sizes; swapped if reversed. */
int ios_opt_size_range(struct ios_optctx *c, const char *text, bool need_range,
		       uint64_t *lo, uint64_t *hi);
int ios_opt_set_string(char **dst, const char *s);

/*
 * pattern.c: verify_pattern= / buffer_pattern= read as fio 3.33 reads them
 * (%o only when @offsets); *hash identifies the bytes, *len counts them.
 */
#define IOS_PATTERN_MAX 512	/* fio's MAX_PATTERN_SIZE */
int ios_opt_pattern(struct ios_optctx *c, bool offsets, uint64_t *hash, unsigned *len);

/* options_err.c: continue_on_error= and ignore_error= */
int ios_opt_continue_on_error(struct ios_job *job, struct ios_optctx *c);
int ios_opt_ignore_error(struct ios_job *job, struct ios_optctx *c);
/* fallocate=: fio's modes, in its order; the hook marks the option as given */

#endif
