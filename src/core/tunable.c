/*
 * The generic tunable engine: one parser, validator and printer for every
 * table in the program (see include/iosched/tunable.h). Conversions between
 * the user's unit and the stored unit (ns, bytes) happen only in this file.
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/suggest.h"
#include "iosched/tunable.h"

struct unit_mult {
	const char *name;
	uint64_t mult;
};

static const struct unit_mult time_units[] = {
	{ "ns", 1ULL }, { "nsec", 1ULL },
	{ "us", 1000ULL }, { "usec", 1000ULL },
	{ "ms", 1000000ULL }, { "msec", 1000000ULL },
	{ "s", 1000000000ULL }, { "sec", 1000000000ULL },
	{ "m", 60000000000ULL }, { "min", 60000000000ULL },
	{ "h", 3600000000000ULL },
	{ NULL, 0 },
};

static const struct unit_mult size_units[] = {
	{ "B", 1ULL }, { "bytes", 1ULL }, { "b", 1ULL },
	{ "sectors", 512ULL },
	{ "k", 1ULL << 10 }, { "K", 1ULL << 10 }, { "KiB", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "KB", 1ULL << 10 },
	{ "m", 1ULL << 20 }, { "M", 1ULL << 20 }, { "MiB", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "MB", 1ULL << 20 },
	{ "g", 1ULL << 30 }, { "G", 1ULL << 30 }, { "GiB", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "GB", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "T", 1ULL << 40 }, { "TiB", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "TB", 1ULL << 40 },
	{ NULL, 0 },
};

static uint64_t unit_lookup(const struct unit_mult *tab, const char *name)
{
	for (; tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab->mult;
	return 0;
}

static uint64_t tun_mult(const struct ios_tunable *t)
{
	uint64_t m = 1;

	if (t->type == IOS_TUN_TIME)
		m = unit_lookup(time_units, t->unit ? t->unit : "ns");
	else if (t->type == IOS_TUN_SIZE)
		m = unit_lookup(size_units, t->unit ? t->unit : "B");
	return m ? m : 1;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

void ios_tunable_suggest(struct ios_suggest *s, const struct ios_tunable *tab, const char *prefix)
{
	for (const struct ios_tunable *t = tab; t && t->name; t++)
		if (!(t->flags & IOS_TUN_HIDDEN))
			ios_suggest_add(s, prefix, t->name);
}

const struct ios_tunable *ios_tunable_find(const struct ios_tunable *tab, const char *name)
{
	const struct ios_tunable *t;

	ios_tunable_for_each(t, tab)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

void ios_tunable_range(const struct ios_tunable *t, char *buf, size_t len)
{
	size_t off = 0;

	switch (t->type) {
	case IOS_TUN_BOOL:
		snprintf(buf, len, "0|1");
		return;
	case IOS_TUN_ENUM:
		buf[0] = '\0';
		for (const char *const *c = t->choices; c && *c; c++) {
			int n = snprintf(buf + off, len - off, "%s%s", c == t->choices ? "" : "|", *c);
			if (n < 0 || (size_t)n >= len - off)
				break;
			off += (size_t)n;
		}
		return;
	case IOS_TUN_U64:
	case IOS_TUN_TIME:
	case IOS_TUN_SIZE:
		if (t->max == INT64_MAX)
			snprintf(buf, len, "%" PRId64 "..max", t->min);
		else
			snprintf(buf, len, "%" PRId64 "..%" PRId64, t->min, t->max);
		return;
	case IOS_TUN_INT:
		snprintf(buf, len, "%" PRId64 "..%" PRId64, t->min, t->max);
		return;
	}
}

/*
 * The note an IOS_TUN_KCLAMP knob adds to its range error. The kernel's
 * store parses with kstrtoint first: a number outside int fails there
 * (-ERANGE) and is refused by the kernel too; only an int is clamped.
 */
static const char *kclamp_note(const struct ios_tunable *t, const char *value)
{
	long long v;
	char *end;

	if (!(t->flags & IOS_TUN_KCLAMP))
		return "";
	errno = 0;
	v = strtoll(value, &end, 10);
	if (end != value && !*end && (errno || v < INT_MIN || v > INT_MAX))
		return " (not an int: the kernel's sysfs store refuses it too)";
	return " (the kernel's sysfs store would clamp it into this range; the lab refuses instead)";
}

/* @owner: the profile whose table this is ("cfq-4.19", "hdd"), or NULL */
static int range_err(const struct ios_tunable *t, const char *value, const char *origin,
		     const char *scope, const char *owner, struct ios_err *e)
{
	char r[256];

	ios_tunable_range(t, r, sizeof(r));
	return IOS_ERR(e, -ERANGE, "%s%s%s%s=%s: out of range%s%s, allowed %s%s%s%s",
		       origin ? origin : "", origin ? ": " : "", scope ? scope : "", t->name,
		       value, owner ? " for " : "", owner ? owner : "", r,
		       t->unit && *t->unit ? " " : "", t->unit ? t->unit : "",
		       kclamp_note(t, value));
}

static int syntax_err(const struct ios_tunable *t, const char *value, const char *origin,
		      const char *scope, const char *expect, struct ios_err *e)
{
	char r[256];

	ios_tunable_range(t, r, sizeof(r));
	return IOS_ERR(e, -EINVAL, "%s%s%s%s=%s: expected %s (allowed %s%s%s)",
		       origin ? origin : "", origin ? ": " : "", scope ? scope : "", t->name,
		       value, expect, r, t->unit && *t->unit ? " " : "", t->unit ? t->unit : "");
}

/*
 * Parse "123", "8.5", "8.5ms", "64k" (decimal only: tun_parse refused
 * blanks, signs and 0x first) into an exact count of base units:
 * digits * mult / 10^decimals. Returns 0, -EINVAL or -ERANGE.
 */
static int parse_scaled(const char *s, const struct unit_mult *units, uint64_t bare_mult,
			bool allow_frac, uint64_t *out)
{
	uint64_t ip = 0, frac = 0, fdiv = 1, mult;
	const char *p = s;
	int digits = 0;

	for (; isdigit((unsigned char)*p); p++, digits++) {
		uint64_t d = (uint64_t)(*p - '0');

		/* exact, so that every u64 up to 18446744073709551615 parses (kstrtoull) */
		if (ip > (UINT64_MAX - d) / 10)
			return -ERANGE;
		ip = ip * 10 + d;
	}
	if (*p == '.') {
		if (!allow_frac)
			return -EINVAL;
		p++;
		for (; isdigit((unsigned char)*p); p++, digits++) {
			if (fdiv >= 1000000000000ULL)
				return -EINVAL; /* more precision than we can store */
			frac = frac * 10 + (uint64_t)(*p - '0');
			fdiv *= 10;
		}
	}
	if (!digits)
		return -EINVAL;
	if (*p) {
		char suf[16];
		size_t n = 0;

		while (*p && !isspace((unsigned char)*p) && n < sizeof(suf) - 1)
			suf[n++] = *p++;
		suf[n] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (*p || !units)
			return -EINVAL;
		mult = unit_lookup(units, suf);
		if (!mult)
			return -EINVAL;
	} else {
		mult = bare_mult;
	}
	if (mult && ip > UINT64_MAX / mult)
		return -ERANGE;
	{
		uint64_t whole = ip * mult;
		uint64_t f = sat_mul(frac, mult);

		if (f == UINT64_MAX)
			return -ERANGE;
		if (f % fdiv)
			return -EINVAL; /* not representable in the stored unit */
		if (whole > UINT64_MAX - f / fdiv)
			return -ERANGE;
		*out = whole + f / fdiv;
	}
	return 0;
}

static int tun_parse(const struct ios_tunable *t, const char *value, uint64_t *out,
		     const char *origin, const char *scope, const char *owner, struct ios_err *e)
{
	uint64_t v;
	int ret;

	if (!value)
		value = "";
	/*
	 * Numbers are decimal, as sysfs reads them: the kernel's store
	 * functions parse base 10 (cfq_var_store: simple_strtoul(page, &p, 10);
	 * queue_var_store, bfq_var_store: kstrtoul(page, 10, ...)), so "010" is
	 * ten, not eight, and "0x10" is refused rather than read as 16 or, as
	 * CFQ would, as 0. Leading blanks and '+' are refused too: they only
	 * come from a quoting mistake. A minus is for INT tunables (and a
	 * range error on the others).
	 */
	if (t->type == IOS_TUN_INT || t->type == IOS_TUN_U64 || t->type == IOS_TUN_TIME ||
	    t->type == IOS_TUN_SIZE) {
		const char *d = value + (value[0] == '-');

		if (isspace((unsigned char)value[0]) || value[0] == '+')
			return syntax_err(t, value, origin, scope,
					  "a decimal number, without leading blanks or '+'", e);
		if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
			return syntax_err(t, value, origin, scope,
					  "a decimal number (sysfs reads base 10, not 0x hex)", e);
	}
	switch (t->type) {
	case IOS_TUN_BOOL:
		if (!strcmp(value, "0") || !strcmp(value, "1")) {
			*out = (uint64_t)(value[0] - '0');
			return 0;
		}
		return syntax_err(t, value, origin, scope, "0 or 1", e);
	case IOS_TUN_ENUM:
		for (const char *const *c = t->choices; c && *c; c++) {
			if (!strcmp(*c, value)) {
				*out = (uint64_t)(c - t->choices);
				return 0;
			}
		}
		return syntax_err(t, value, origin, scope, "one of the listed names", e);
	case IOS_TUN_INT: {
		char *end;
		long long ll;

		errno = 0;
		ll = strtoll(value, &end, 10);
		if (end == value || *end) {
			return syntax_err(t, value, origin, scope, "an integer", e);
		}
		if (errno || ll < t->min || ll > t->max || ll < INT_MIN || ll > INT_MAX)
			return range_err(t, value, origin, scope, owner, e);
		*out = (uint64_t)(int64_t)ll;
		return 0;
	}
	case IOS_TUN_U64:
		if (value[0] == '-')
			return range_err(t, value, origin, scope, owner, e);
		ret = parse_scaled(value, NULL, 1, false, &v);
		break;
	case IOS_TUN_TIME:
		if (value[0] == '-')
			return range_err(t, value, origin, scope, owner, e);
		ret = parse_scaled(value, time_units, tun_mult(t), true, &v);
		if (ret == -EINVAL)
			return syntax_err(t, value, origin, scope,
					  "a time (a number in the unit shown, or with ns/us/ms/s)", e);
		break;
	case IOS_TUN_SIZE:
		if (value[0] == '-')
			return range_err(t, value, origin, scope, owner, e);
		ret = parse_scaled(value, size_units, tun_mult(t), false, &v);
		if (ret == -EINVAL)
			return syntax_err(t, value, origin, scope,
					  "a size (a number in the unit shown, or with k/m/g)", e);
		break;
	default:
		return IOS_ERR(e, -EINVAL, "%s: unsupported tunable type", t->name);
	}
	if (ret == -EINVAL)
		return syntax_err(t, value, origin, scope, "a non-negative integer", e);
	if (ret)
		return range_err(t, value, origin, scope, owner, e);
	{
		uint64_t m = tun_mult(t);
		uint64_t lo = t->min > 0 ? sat_mul((uint64_t)t->min, m) : 0;
		uint64_t hi = t->max == INT64_MAX ? UINT64_MAX : sat_mul((uint64_t)t->max, m);

		if (v < lo || v > hi)
			return range_err(t, value, origin, scope, owner, e);
	}
	*out = v;
	return 0;
}

int ios_tunable_parse(const struct ios_tunable *t, const char *value, uint64_t *out,
		      const char *origin, const char *scope, struct ios_err *e)
{
	return tun_parse(t, value, out, origin, scope, NULL, e);
}

static void tun_store(const struct ios_tunable *t, void *base, uint64_t v)
{
	char *p = (char *)base + t->offset;

	switch (t->type) {
	case IOS_TUN_INT:
	case IOS_TUN_BOOL:
	case IOS_TUN_ENUM: {
		int iv = (int)(int64_t)v;

		memcpy(p, &iv, sizeof(iv));
		break;
	}
	default:
		memcpy(p, &v, sizeof(v));
		break;
	}
}

int64_t ios_tunable_get_int(const struct ios_tunable *t, const void *base)
{
	const char *p = (const char *)base + t->offset;

	switch (t->type) {
	case IOS_TUN_INT:
	case IOS_TUN_BOOL:
	case IOS_TUN_ENUM: {
		int iv;

		memcpy(&iv, p, sizeof(iv));
		return iv;
	}
	default: {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		return (int64_t)v;
	}
	}
}

uint64_t ios_tunable_get_u64(const struct ios_tunable *t, const void *base)
{
	return (uint64_t)ios_tunable_get_int(t, base);
}

static int tun_set(const struct ios_tunable *t, void *base, const char *value,
		   const char *origin, const char *scope, const char *owner, struct ios_err *e)
{
	uint64_t v;
	int ret;

	if (t->flags & IOS_TUN_RO)
		return IOS_ERR(e, -EPERM, "%s%s%s%s: read-only", origin ? origin : "",
			       origin ? ": " : "", scope ? scope : "", t->name);
	ret = tun_parse(t, value, &v, origin, scope, owner, e);
	if (ret)
		return ret;
	tun_store(t, base, v);
	return 0;
}

int ios_tunable_set(const struct ios_tunable *t, void *base, const char *value,
		    const char *origin, const char *scope, struct ios_err *e)
{
	return tun_set(t, base, value, origin, scope, NULL, e);
}

static int tun_set_by_name(const struct ios_tunable *tab, void *base, const char *name,
			   const char *value, const char *origin, const char *scope,
			   const char *owner, struct ios_err *e)
{
	const struct ios_tunable *t = ios_tunable_find(tab, name);

	if (!t || (t->flags & IOS_TUN_HIDDEN)) {
		struct ios_suggest s;
		char hint[256];
		char full[IOS_SUGGEST_NAME + 1];

		snprintf(full, sizeof(full), "%s%s", scope ? scope : "", name);
		ios_suggest_init(&s, full);
		ios_tunable_suggest(&s, tab, scope);
		return IOS_ERR(e, -ENOENT, "%s%sunknown tunable '%s%s'%s%s%s (see 'iosched list')",
			       origin ? origin : "", origin ? ": " : "", scope ? scope : "", name,
			       owner ? " for " : "", owner ? owner : "",
			       ios_suggest_str(&s, hint, sizeof(hint)));
	}
	return tun_set(t, base, value, origin, scope, owner, e);
}

int ios_tunable_set_by_name(const struct ios_tunable *tab, void *base, const char *name,
			    const char *value, const char *origin, const char *scope,
			    struct ios_err *e)
{
	return tun_set_by_name(tab, base, name, value, origin, scope, NULL, e);
}

int ios_tunable_defaults(const struct ios_tunable *tab, void *base, struct ios_err *e)
{
	const struct ios_tunable *t;
	int ret;

	ios_tunable_for_each(t, tab) {
		uint64_t v;

		if (!t->def)
			continue;
		ret = ios_tunable_parse(t, t->def, &v, "default", NULL, e);
		if (ret)
			return ret;
		tun_store(t, base, v);
	}
	return 0;
}

static bool is_pow10(uint64_t m)
{
	while (m > 1 && m % 10 == 0)
		m /= 10;
	return m == 1;
}

/*
 * A value in the user's unit, written so that it parses back: exact decimals
 * for decimal units (8.5 ms), else the stored unit with its suffix
 * (160041885696B for a capacity that is not a whole number of GiB).
 */
static void fmt_scaled(char *buf, size_t len, uint64_t v, uint64_t m, bool is_time)
{
	if (m <= 1 || v % m == 0) {
		snprintf(buf, len, "%" PRIu64, v / (m ? m : 1));
		return;
	}
	if (!is_pow10(m)) {
		snprintf(buf, len, "%" PRIu64 "%s", v, is_time ? "ns" : "B");
		return;
	}
	{
		uint64_t ip = v / m, fp = v % m, digits = 0, mm = m;
		char frac[32];
		int n;

		while (mm > 1) {
			mm /= 10;
			digits++;
		}
		n = snprintf(frac, sizeof(frac), "%0*" PRIu64, (int)digits, fp);
		while (n > 0 && frac[n - 1] == '0')
			frac[--n] = '\0';
		snprintf(buf, len, "%" PRIu64 ".%s", ip, frac);
	}
}

int ios_tunable_show(const struct ios_tunable *t, const void *base, char *buf, size_t len)
{
	switch (t->type) {
	case IOS_TUN_INT:
	case IOS_TUN_BOOL:
		return snprintf(buf, len, "%" PRId64, ios_tunable_get_int(t, base));
	case IOS_TUN_ENUM: {
		int64_t i = ios_tunable_get_int(t, base);

		return snprintf(buf, len, "%s", t->choices && i >= 0 ? t->choices[i] : "?");
	}
	case IOS_TUN_U64:
		return snprintf(buf, len, "%" PRIu64, ios_tunable_get_u64(t, base));
	case IOS_TUN_TIME:
	case IOS_TUN_SIZE: {
		uint64_t m = tun_mult(t);

		fmt_scaled(buf, len, ios_tunable_get_u64(t, base), m, t->type == IOS_TUN_TIME);
		return (int)strlen(buf);
	}
	}
	return 0;
}

/* ---- settings lists ---- */

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

int ios_settings_add(struct ios_settings *s, const char *name, const char *value,
		     const char *origin)
{
	struct ios_setting *st;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct ios_setting *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	st = &s->v[s->n];
	st->name = xstrdup(name);
	st->value = xstrdup(value);
	st->origin = xstrdup(origin ? origin : "");
	st->used = false;
	if (!st->name || !st->value || !st->origin) {
		free(st->name);
		free(st->value);
		free(st->origin);
		return -ENOMEM;
	}
	s->n++;
	return 0;
}

int ios_settings_add_kv(struct ios_settings *s, const char *kv, const char *origin,
			struct ios_err *e)
{
	const char *eq = strchr(kv, '=');
	char name[128];
	size_t n;

	if (!eq || eq == kv)
		return IOS_ERR(e, -EINVAL, "%s%s'%s': expected NAME=VALUE", origin ? origin : "",
			       origin ? ": " : "", kv);
	n = (size_t)(eq - kv);
	if (n >= sizeof(name))
		return IOS_ERR(e, -EINVAL, "%s%s'%s': name too long", origin ? origin : "",
			       origin ? ": " : "", kv);
	memcpy(name, kv, n);
	name[n] = '\0';
	if (ios_settings_add(s, name, eq + 1, origin))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

void ios_settings_free(struct ios_settings *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].value);
		free(s->v[i].origin);
	}
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

int ios_settings_copy(struct ios_settings *dst, const struct ios_settings *src)
{
	for (size_t i = 0; i < src->n; i++) {
		int ret = ios_settings_add(dst, src->v[i].name, src->v[i].value, src->v[i].origin);

		if (ret)
			return ret;
	}
	return 0;
}

int ios_settings_apply(struct ios_settings *s, const char *prefix,
		       const struct ios_tunable *tab, void *base, struct ios_err *e)
{
	return ios_settings_apply_for(s, prefix, tab, base, NULL, e);
}

int ios_settings_apply_for(struct ios_settings *s, const char *prefix,
			   const struct ios_tunable *tab, void *base, const char *owner,
			   struct ios_err *e)
{
	size_t plen = strlen(prefix);

	for (size_t i = 0; i < s->n; i++) {
		struct ios_setting *st = &s->v[i];
		const char *name;
		int ret;

		if (plen) {
			if (strncmp(st->name, prefix, plen))
				continue;
			name = st->name + plen;
		} else {
			if (strchr(st->name, '.'))
				continue;
			name = st->name;
		}
		if (!plen && !ios_tunable_find(tab, name))
			continue; /* bare names may belong to another table */
		ret = tun_set_by_name(tab, base, name, st->value, st->origin, prefix, owner, e);
		if (ret)
			return ret;
		st->used = true;
	}
	return 0;
}

/*
 * Registration-time checks (ios_sched_type_check, ios_dev_type_check): a
 * malformed row otherwise shows up only when a user happens to set it, or
 * as a write past the owner's struct. The checks are the engine's own
 * assumptions, spelled out.
 */
static int tun_check_row(const struct ios_tunable *tab, const struct ios_tunable *t, size_t size,
			 const char *owner, struct ios_err *e)
{
	struct ios_err de = { 0 };
	bool numeric = false;
	size_t fsz;
	uint64_t v;

	if (!*t->name)
		return IOS_ERR(e, -EINVAL, "%s: a tunable with an empty name", owner);
	for (const struct ios_tunable *u = tab; u != t; u++)
		if (!strcmp(u->name, t->name))
			return IOS_ERR(e, -EINVAL, "%s: tunable %s is listed twice", owner, t->name);
	switch (t->type) {
	case IOS_TUN_INT:
		numeric = true;
		/* fall through */
	case IOS_TUN_BOOL:
	case IOS_TUN_ENUM:
		fsz = sizeof(int);
		break;
	case IOS_TUN_U64:
	case IOS_TUN_TIME:
	case IOS_TUN_SIZE:
		numeric = true;
		fsz = sizeof(uint64_t);
		if (t->min < 0)
			return IOS_ERR(e, -EINVAL, "%s: tunable %s is unsigned but its minimum is "
				       "%" PRId64, owner, t->name, t->min);
		break;
	default:
		return IOS_ERR(e, -EINVAL, "%s: tunable %s has unknown type %d", owner, t->name,
			       (int)t->type);
	}
	if (t->offset > size || size - t->offset < fsz)
		return IOS_ERR(e, -EINVAL, "%s: tunable %s (offset %zu, %zu bytes) lies outside "
			       "its %zu-byte struct", owner, t->name, t->offset, fsz, size);
	if (numeric && t->min > t->max)
		return IOS_ERR(e, -EINVAL, "%s: tunable %s has an empty range "
			       "%" PRId64 "..%" PRId64, owner, t->name, t->min, t->max);
	if ((t->type == IOS_TUN_TIME && t->unit && !unit_lookup(time_units, t->unit)) ||
	    (t->type == IOS_TUN_SIZE && t->unit && !unit_lookup(size_units, t->unit)))
		return IOS_ERR(e, -EINVAL, "%s: tunable %s: unit '%s' is not a %s unit", owner,
			       t->name, t->unit, t->type == IOS_TUN_TIME ? "time" : "size");
	if (t->type == IOS_TUN_ENUM && (!t->choices || !t->choices[0]))
		return IOS_ERR(e, -EINVAL, "%s: enum tunable %s has no choices", owner, t->name);
	if (t->def && tun_parse(t, t->def, &v, "default", NULL, owner, &de))
		return IOS_ERR(e, -EINVAL, "%s: tunable %s: bad default: %s", owner, t->name, de.msg);
	return 0;
}

int ios_tunable_check_table(const struct ios_tunable *tab, size_t size, const char *owner,
			    struct ios_err *e)
{
	const struct ios_tunable *t;
	int ret;

	ios_tunable_for_each(t, tab) {
		ret = tun_check_row(tab, t, size, owner, e);
		if (ret)
			return ret;
	}
	return 0;
}
