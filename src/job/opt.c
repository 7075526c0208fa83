/*
 * The generic option engine: one routine applies any row of the option
 * table (options.c) to a struct ios_job, whatever the option.
 *
 * A row says how to read the value (type), where to store it (offset), what
 * is allowed (min/max, choices) and how lists work (per-direction, range,
 * percentage). The value parsing itself is value.c's; this file adds the
 * shapes fio layers on top of single values:
 *
 *  - per-direction lists "read,write,trim": an empty entry leaves that
 *    direction alone, the last entry also applies to the directions after it
 *    unless the list ends with a comma ("bs=8k,32k" sets trims to 32k,
 *    "bs=8k,32k," leaves them). fio also splits on ':' and '-' when there is
 *    no comma, so "bs=4k-8k" means reads 4k, writes 8k there; we reject that
 *    spelling because it reads like a range.
 *  - ranges "lo-hi" or "lo:hi", swapped when reversed.
 *  - a blank after '=': fio keeps it in the value, which makes "rw= randread"
 *    fail, "filename= f" name " f" and "bs = 8k" read 8 bytes (the suffix is
 *    lost). We accept it only in front of a plain number, where fio's reading
 *    is the obvious one, and reject it everywhere else.
 *
 * The row's hook (set) runs after a typed value was stored, so that options
 * with side effects (direct and buffered are each other's inverse) stay in
 * the table rather than in special cases here.
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "job/opt.h"

int ios_opt_err(struct ios_optctx *c, int code, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return IOS_ERR(c->v.e, code, "%s: %s", c->v.where, msg);
}

static bool opt_alias_match(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);

		if (len == n && !strncmp(list, name, n))
			return true;
		list = comma ? comma + 1 : NULL;
	}
	return false;
}

const struct ios_opt *const ios_job_option_tables[] = {
	ios_job_options,
	ios_job_options_jobctl,
	ios_job_options_submit,
	ios_job_verify_options,
	ios_job_options_fileops,
	NULL,
};

const struct ios_opt *ios_opt_first(void)
{
	return ios_job_option_tables[0];
}

const struct ios_opt *ios_opt_next(const struct ios_opt *o)
{
	if ((++o)->info.name)
		return o;
	for (size_t t = 0; ios_job_option_tables[t]; t++) {
		const struct ios_opt *end = ios_job_option_tables[t];

		while (end->info.name)
			end++;
		if (end == o)
			return ios_job_option_tables[t + 1] ? ios_job_option_tables[t + 1] : NULL;
	}
	return NULL;
}

const struct ios_opt *ios_opt_find(const char *name)
{
	const struct ios_opt *o;

	for (size_t t = 0; ios_job_option_tables[t]; t++)
		for (o = ios_job_option_tables[t]; o->info.name; o++)
			if (!strcmp(o->info.name, name) || opt_alias_match(o->info.alias, name))
				return o;
	return NULL;
}

int ios_opt_set_string(char **dst, const char *s)
{
	char *n = strdup(s);

	if (!n)
		return -ENOMEM;
	free(*dst);
	*dst = n;
	return 0;
}

/* ---- stores ---- */

static void *opt_ptr(struct ios_job *job, size_t off)
{
	return (char *)job + off;
}

_Static_assert(sizeof(int) == sizeof(uint32_t) && sizeof(unsigned) == sizeof(uint32_t),
	       "option fields are 32 or 64 bits");

static void opt_store_int(struct ios_job *job, size_t off, unsigned size, int64_t v)
{
	void *p = opt_ptr(job, off);

	if (size == sizeof(uint64_t)) {
		uint64_t u = (uint64_t)v;

		memcpy(p, &u, sizeof(u));
	} else {
		/* int and unsigned fields: the low 32 bits, two's complement */
		uint32_t u = (uint32_t)v;

		memcpy(p, &u, sizeof(u));
	}
}

static void opt_store_u64(struct ios_job *job, size_t off, uint64_t v)
{
	memcpy(opt_ptr(job, off), &v, sizeof(v));
}

/* ---- shapes ---- */

/* ',' at paren depth 0 */
static char *opt_find_sep(char *s, const char *seps)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')')
			depth--;
		else if (!depth && strchr(seps, *s))
			return s;
	}
	return NULL;
}

int ios_opt_for_each_dir(struct ios_job *job, struct ios_optctx *c, ios_opt_dir_fn fn)
{
	char *buf = strdup(c->value), *part[3], *p = buf, *sep;
	int n = 0, d, ret = 0;
	bool any = false;

	if (!buf)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	for (;;) {
		if (n == 3) {
			ret = ios_opt_err(c, -EINVAL, "at most three values (read,write,trim)");
			goto out;
		}
		part[n++] = p;
		sep = opt_find_sep(p, ",");
		if (!sep)
			break;
		*sep = '\0';
		p = sep + 1;
	}
	for (d = 0; d < n; d++) {
		if (!*part[d])
			continue;
		any = true;
		/* fio splits at ':' or '-' when there is no comma */
		if (part[d][0] != '(' && !strchr(part[d], '$') &&
		    !(c->o->flags & (IOS_OPTF_RANGE | IOS_OPTF_COLONS)) &&
		    strpbrk(part[d], ":-")) {
			ret = ios_opt_err(c, -EINVAL, "fio 3.33 reads ':' and '-' here as the "
					  "separator between the read and write values; write "
					  "'read,write' (or use the range option)");
			goto out;
		}
	}
	if (!any) {
		ret = ios_opt_err(c, -EINVAL, "no value given");
		goto out;
	}
	for (d = 0; d < 3 && !ret; d++) {
		const char *t = d < n ? part[d] : part[n - 1];

		if (*t)
			ret = fn(job, c, d, t);
	}
out:
	free(buf);
	return ret;
}

int ios_opt_size_range(struct ios_optctx *c, const char *text, bool need_range,
		       uint64_t *lo, uint64_t *hi)
{
	char *buf = strdup(text), *sep;
	int ret;

	if (!buf)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	sep = opt_find_sep(buf, "-:");
	if (!sep && need_range) {
		ret = ios_opt_err(c, -EINVAL, "'%s' is not a range: write lo-hi or lo:hi", text);
		goto out;
	}
	if (sep)
		*sep = '\0';
	ret = ios_val_size(&c->v, buf, lo, NULL);
	if (!ret && sep)
		ret = ios_val_size(&c->v, sep + 1, hi, NULL);
	else if (!ret)
		*hi = *lo;
	if (!ret && *lo > *hi) {
		uint64_t t = *lo;

		*lo = *hi;
		*hi = t;
	}
out:
	free(buf);
	return ret;
}

static int opt_time_range(struct ios_optctx *c, const char *text, uint64_t *lo, uint64_t *hi)
{
	char *buf = strdup(text), *sep;
	int ret;

	if (!buf)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	sep = opt_find_sep(buf, "-:");
	if (sep)
		*sep = '\0';
	ret = ios_val_time(&c->v, buf, c->o->unit_ns, lo);
	if (!ret && sep)
		ret = ios_val_time(&c->v, sep + 1, c->o->unit_ns, hi);
	else if (!ret)
		*hi = *lo;
	if (!ret && *lo > *hi) {
		uint64_t t = *lo;

		*lo = *hi;
		*hi = t;
	}
	free(buf);
	return ret;
}

/* ---- typed values ---- */

static int opt_size_value(struct ios_optctx *c, const char *text, uint64_t *v)
{
	const struct ios_opt *o = c->o;
	char range[64];
	int ret = ios_val_size(&c->v, text, v, NULL);

	if (ret)
		return ret;
	if (o->flags & IOS_OPTF_KIB1 && c->compat == IOS_JOB_COMPAT_FIO1) {
		if (*v > UINT64_MAX / 1024)
			return ios_opt_err(c, -ERANGE, "too large");
		*v *= 1024;	/* fio 1.x: KiB/s */
	}
	if ((int64_t)*v < o->min || (o->max && *v > (uint64_t)o->max) || *v > INT64_MAX) {
		ios_val_range_str(range, sizeof(range), o->min, o->max ? o->max : INT64_MAX);
		return ios_opt_err(c, -ERANGE, "out of range, allowed %s", range);
	}
	return 0;
}

static int opt_dir_size(struct ios_job *job, struct ios_optctx *c, int dir, const char *text)
{
	uint64_t v;
	int ret = opt_size_value(c, text, &v);

	if (!ret && dir < 2)
		opt_store_u64(job, c->o->off + (size_t)dir * sizeof(uint64_t), v);
	return ret;
}

static int opt_dir_int(struct ios_job *job, struct ios_optctx *c, int dir, const char *text)
{
	int64_t v;
	int ret = ios_val_int(&c->v, text, c->o->min, c->o->max, &v);

	if (!ret && dir < 2)
		opt_store_int(job, c->o->off + (size_t)dir * c->o->size, c->o->size, v);
	return ret;
}

static int opt_one_value(struct ios_optctx *c)
{
	if (opt_find_sep((char *)c->value, ","))
		return ios_opt_err(c, -EINVAL, "takes a single value (fio would use the first "
				   "one and ignore the rest)");
	return 0;
}

static int opt_typed(struct ios_job *job, struct ios_optctx *c)
{
	const struct ios_opt *o = c->o;
	const char *val = c->value;
	int ret = 0, b;
	int64_t i;
	uint64_t u, u2;
	int pct;

	switch (o->type) {
	case IOS_OPT_STR:
		ret = ios_opt_set_string(opt_ptr(job, o->off), val ? val : "");
		if (ret)
			return ios_opt_err(c, ret, "out of memory");
		return 0;
	case IOS_OPT_BOOL:
	case IOS_OPT_FLAG:
		if (!val) {
			b = 1;
		} else {
			ret = ios_val_bool(&c->v, val, &b);
			if (ret)
				return ret;
		}
		opt_store_int(job, o->off, sizeof(int), b);
		return 0;
	case IOS_OPT_INT:
		if (o->flags & IOS_OPTF_PERDIR)
			return ios_opt_for_each_dir(job, c, opt_dir_int);
		ret = opt_one_value(c);
		if (!ret)
			ret = ios_val_int(&c->v, val, o->min, o->max, &i);
		if (!ret)
			opt_store_int(job, o->off, o->size, i);
		return ret;
	case IOS_OPT_SIZE:
		if (o->flags & IOS_OPTF_PERDIR)
			return ios_opt_for_each_dir(job, c, opt_dir_size);
		ret = opt_one_value(c);
		if (ret)
			return ret;
		if ((o->flags & IOS_OPTF_ZONE) && ios_opt_zone_units_given(c))
			return ios_opt_zone_units_set(job, c);
		if (o->flags & IOS_OPTF_ZONE)
			ios_opt_zone_units_clear(job, c);
		if (o->flags & IOS_OPTF_RANGE) {
			ret = ios_opt_size_range(c, val, o->flags & IOS_OPTF_NEEDRANGE, &u, &u2);
			if (!ret && (u < (uint64_t)o->min))
				ret = ios_opt_err(c, -ERANGE, "out of range, allowed %" PRId64
						  " or more", o->min);
			if (!ret) {
				opt_store_u64(job, o->off, u);
				opt_store_u64(job, o->off2, u2);
			}
			return ret;
		}
		if (o->flags & IOS_OPTF_PCT) {
			ret = ios_val_size(&c->v, val, &u, &pct);
			if (ret)
				return ret;
			if (pct >= 0 && (pct < o->min || pct > 100))
				return ios_opt_err(c, -ERANGE, "percentage out of range, allowed "
						   "%" PRId64 "..100%%", o->min);
			opt_store_u64(job, o->off, u);
			opt_store_int(job, o->off2, sizeof(unsigned), pct >= 0 ? pct : 0);
			return 0;
		}
		ret = opt_size_value(c, val, &u);
		if (!ret)
			opt_store_u64(job, o->off, u);
		return ret;
	case IOS_OPT_TIME:
		ret = opt_one_value(c);
		if (ret)
			return ret;
		if (o->flags & IOS_OPTF_RANGE) {
			ret = opt_time_range(c, val, &u, &u2);
			if (!ret) {
				opt_store_u64(job, o->off, u);
				opt_store_u64(job, o->off2, u2);
			}
			return ret;
		}
		ret = ios_val_time(&c->v, val, o->unit_ns, &u);
		if (!ret)
			opt_store_u64(job, o->off, u);
		return ret;
	case IOS_OPT_MSEC:
		ret = opt_one_value(c);
		if (!ret)
			ret = ios_val_int(&c->v, val, 0, INT64_MAX / (int64_t)IOS_NS_PER_MS, &i);
		if (!ret)
			opt_store_u64(job, o->off, (uint64_t)i * IOS_NS_PER_MS);
		return ret;
	case IOS_OPT_ENUM: {
		const char *const *ch;
		char list[256] = "";

		for (ch = o->choices; *ch; ch++) {
			if (!strcmp(*ch, val)) {
				opt_store_int(job, o->off, sizeof(int), ch - o->choices);
				return 0;
			}
		}
		for (ch = o->choices; *ch; ch++) {
			if (ch != o->choices)
				strncat(list, ", ", sizeof(list) - strlen(list) - 1);
			strncat(list, *ch, sizeof(list) - strlen(list) - 1);
		}
		return ios_opt_err(c, -EINVAL, "unknown value, allowed: %s", list);
	}
	case IOS_OPT_CUSTOM:
		break;
	}
	return 0;
}

/* A plain number, decimal or hex, with nothing else. */
static bool opt_plain_number(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		for (s += 2; *s; s++)
			if (!isxdigit((unsigned char)*s))
				return false;
		return true;
	}
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

int ios_opt_apply(struct ios_job *job, struct ios_optctx *c)
{
	const struct ios_opt *o = c->o;
	const char *v = c->value;
	int ret;

	if (!v) {
		if (o->type != IOS_OPT_FLAG && !(o->flags & IOS_OPTF_BARE))
			return ios_opt_err(c, -EINVAL, "needs a value (%s=...)", o->info.name);
	} else {
		if (isspace((unsigned char)*v)) {
			const char *s = v;
			bool numeric = o->type == IOS_OPT_INT || o->type == IOS_OPT_SIZE ||
				       o->type == IOS_OPT_TIME || o->type == IOS_OPT_MSEC ||
				       o->type == IOS_OPT_BOOL || o->type == IOS_OPT_FLAG ||
				       (o->flags & IOS_OPTF_NUM);

			while (isspace((unsigned char)*s))
				s++;
			if (!numeric || !opt_plain_number(s))
				return ios_opt_err(c, -EINVAL, "blank after '=': fio 3.33 keeps it in "
						   "the value, so names get a leading blank, "
						   "choices fail and sizes lose their unit "
						   "('bs= 8k' is 8 bytes); remove the blank");
			v = s;
			c->value = v;
		}
		if (!*v)
			return ios_opt_err(c, -EINVAL, "empty value");
	}
	if (o->type == IOS_OPT_CUSTOM)
		return o->set(job, c);
	ret = opt_typed(job, c);
	if (!ret && o->set)
		ret = o->set(job, c);
	return ret;
}
