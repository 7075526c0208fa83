/*
 * The setters of fio's error-handling options: continue_on_error= and
 * ignore_error= (their rows are in options.c; the runner's side is
 * src/run/errors.c).
 *
 * fio keeps one mask of the kinds of error a job goes on after (read,
 * write, verify: td_error.h's error_type_bit) and, per kind, a list of the
 * errno values that count as non-fatal (EIO and EILSEQ unless ignore_error=
 * gives a list). continue_on_error= sets the mask; ignore_error= replaces a
 * kind's list and adds that kind to the mask, so the two interact in the
 * order they are written, as in fio (a later continue_on_error=none clears
 * what an earlier ignore_error= added).
 *
 * ignore_error=READ,WRITE,VERIFY: each list is ':'-separated; an empty list
 * ("ignore_error=,ENOSPC") leaves that kind alone. An error is one of the 34
 * names fio's str2error knows (EPERM .. ERANGE, errno 1 .. 34 on Linux) or a
 * number (its sign is dropped, as fio does). fio stops reading a list at an
 * empty entry and takes "12abc" as 12 (atoi); both are refused here, naming
 * the entry, so that nothing the user wrote is dropped silently.
 *
 * fallocate= (options_fileops.c) decides how blocks are placed; fio ignores
 * a preallocation that fails, so a file that does not fit is written until
 * ENOSPC whatever the mode (src/run/layout.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "job/opt.h"

/* fio 3.33 str2error's names, in errno order from 1 */
static const char *const err_names[] = {
	"EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF",
	"ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST",
	"EXDEV", "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY",
	"ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE",
};

static const struct {
	const char *name;
	unsigned mask;
} coe_values[] = {
	{ "none", 0 },
	{ "read", 1u << IOS_ERRTYPE_READ },
	{ "write", 1u << IOS_ERRTYPE_WRITE },
	{ "io", (1u << IOS_ERRTYPE_READ) | (1u << IOS_ERRTYPE_WRITE) },
	{ "verify", 1u << IOS_ERRTYPE_VERIFY },
	{ "all", IOS_ERRTYPE_ANY },
	{ "0", 0 },
	{ "1", IOS_ERRTYPE_ANY },
};

int ios_opt_continue_on_error(struct ios_job *job, struct ios_optctx *c)
{
	const char *v = c->value ? c->value : "";

	for (size_t i = 0; i < IOS_ARRAY_SIZE(coe_values); i++)
		if (!strcmp(v, coe_values[i].name)) {
			job->continue_on_error = coe_values[i].mask;
			return 0;
		}
	return ios_opt_err(c, -EINVAL, "unknown value, allowed: none, read, write, io, verify, "
			   "all, 0 (none), 1 (all)");
}

/* One entry of a list: a name of err_names or a number; 0 and junk are errors. */
static int err_parse_one(struct ios_optctx *c, const char *kind, const char *s, size_t len,
			 int *out)
{
	char buf[64];
	char *end;
	long v;

	if (len >= sizeof(buf) || !len)
		return ios_opt_err(c, -EINVAL, "%s list: %s error name '%.*s': use a name "
				   "(EPERM .. ERANGE, e.g. ENOSPC, EIO) or an errno number",
				   kind, len ? "bad" : "empty", (int)(len > 40 ? 40 : len), s);
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[0] == 'E') {
		for (size_t i = 0; i < IOS_ARRAY_SIZE(err_names); i++)
			if (!strcmp(buf, err_names[i])) {
				*out = (int)i + 1;
				return 0;
			}
		return ios_opt_err(c, -EINVAL, "%s list: unknown error '%s': fio knows the names "
				   "of errno 1..34 (EPERM .. ERANGE: EIO, EAGAIN, ENOSPC, ...); give any "
				   "other error as its number", kind, buf);
	}
	errno = 0;
	v = strtol(buf, &end, 10);
	if (*end || end == buf || errno || v == 0 || v > 4095 || v < -4095)
		return ios_opt_err(c, -EINVAL, "%s list: bad error '%s': use a name (EPERM .. "
				   "ERANGE, e.g. ENOSPC, EIO) or an errno number 1..4095", kind, buf);
	*out = (int)(v < 0 ? -v : v);
	return 0;
}

int ios_opt_ignore_error(struct ios_job *job, struct ios_optctx *c)
{
	static const char *const kinds[] = { "read", "write", "verify" };
	const char *p = c->value ? c->value : "";
	unsigned kind = 0;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int errs[IOS_MAX_IGNORE_ERRORS];
		unsigned n = 0;

		if (kind >= IOS_ERRTYPE_NR)
			return ios_opt_err(c, -EINVAL, "more than three ','-separated lists: the "
					   "form is READ_ERRORS,WRITE_ERRORS,VERIFY_ERRORS");
		for (size_t at = 0; len && at <= len;) {
			const char *colon = memchr(p + at, ':', len - at);
			size_t el = colon ? (size_t)(colon - (p + at)) : len - at;
			int ret;

			if (n == IOS_MAX_IGNORE_ERRORS)
				return ios_opt_err(c, -E2BIG, "%s list: more than %u errors",
						   kinds[kind], IOS_MAX_IGNORE_ERRORS);
			ret = err_parse_one(c, kinds[kind], p + at, el, &errs[n]);
			if (ret)
				return ret;
			n++;
			at += el + 1;
		}
		if (n) {
			memcpy(job->ignore_error[kind], errs, n * sizeof(errs[0]));
			job->ignore_error_nr[kind] = n;
			job->continue_on_error |= 1u << kind;
		}
		if (!comma)
			return 0;
		p = comma + 1;
		kind++;
	}
}

