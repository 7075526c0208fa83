/*
 * Values as fio 3.33 reads them: numbers with size or time suffixes,
 * percentages, hex, the $pagesize / $mb_memory / $ncpus keywords and
 * arithmetic in parentheses.
 *
 * Sizes: k, m, g, t, p (any case, optional trailing b) are powers of kb_base
 * (1024 by default); the IEC spellings kib, mib, gib, tib, pib are powers of
 * the *other* base (1000 by default). That inversion is fio's, kept for old
 * scripts; kb_base=1000 swaps both. fio 3.33 itself reads "ki" (no b) as "k"
 * while its HOWTO says 1000, so we reject "ki" and friends as ambiguous
 * rather than guess. fio also silently reads junk: "4x" is 4, "1.5k" is 1,
 * "10x" is 16 (any "0x" inside means hex) and "bs= 8k" is 8 bytes. Here every
 * such value is an error that says what fio would have done.
 *
 * Times: d, h, m, s, ms/msec, us/usec, case-insensitive; a bare number is in
 * the option's own unit (seconds for runtime, microseconds for thinktime).
 *
 * Arithmetic: a value that starts with '(' is an expression with + - * / %
 * and ^ (power, right-associative), integers or decimals with the option's
 * suffixes; a bare number in a time expression is in microseconds, as fio's
 * HOWTO says. Integer operands keep exact integer arithmetic (so 4096/3*3 is
 * 4095, like bc); a decimal makes the operation floating point. A value in
 * which a keyword was replaced and that holds operators is evaluated as an
 * integer expression without units, the way fio hands it to bc, and the
 * result is then read with the option's default unit (runtime=$ncpus*10 is
 * 20 seconds on a 2-CPU machine).
 *
 * Nothing here reads the locale, the environment or the clock.
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "job/opt.h"

#define VAL_MAX_DEPTH	64	/* nested parentheses in an expression */

static int val_err(struct ios_vctx *c, int code, const char *fmt, ...) IOS_PRINTF(3, 4);

static int val_err(struct ios_vctx *c, int code, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return IOS_ERR(c->e, code, "%s: %s", c->where, msg);
}

void ios_val_range_str(char *buf, size_t len, int64_t min, int64_t max)
{
	if (max == INT64_MAX)
		snprintf(buf, len, "%" PRId64 " or more", min);
	else
		snprintf(buf, len, "%" PRId64 "..%" PRId64, min, max);
}

/* ---- keywords ---- */

char *ios_val_keywords(const struct ios_job_parse_opts *po, const char *s, bool *hit)
{
	static const char *const kw[] = { "$pagesize", "$mb_memory", "$ncpus" };
	char vals[3][24];
	size_t len = 0, cap = strlen(s) + 1;
	char *out;

	*hit = false;
	snprintf(vals[0], sizeof(vals[0]), "%" PRIu64, po ? po->pagesize : 4096);
	snprintf(vals[1], sizeof(vals[1]), "%" PRIu64, po ? po->mb_memory : 0);
	snprintf(vals[2], sizeof(vals[2]), "%u", po ? po->ncpus : 1);
	/* each keyword is at least 6 bytes and a value at most 20: bound the size */
	cap = cap * 4 + 1;
	out = malloc(cap);
	if (!out)
		return NULL;
	while (*s) {
		size_t k;

		for (k = 0; k < 3; k++) {
			size_t kl = strlen(kw[k]);

			if (!strncmp(s, kw[k], kl)) {
				size_t vl = strlen(vals[k]);

				memcpy(out + len, vals[k], vl);
				len += vl;
				s += kl;
				*hit = true;
				break;
			}
		}
		if (k == 3)
			out[len++] = *s++;
	}
	out[len] = '\0';
	return out;
}

/* ---- numbers ---- */

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * Unsigned integer, decimal or 0x hex, at @s; *end after it.
 * Returns 0, -EINVAL (no digits) or -ERANGE (overflow).
 */
static int val_uint(const char *s, const char **end, uint64_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && hexval((unsigned char)p[2]) >= 0) {
		p += 2;
		for (; hexval((unsigned char)*p) >= 0; p++) {
			if (x > (UINT64_MAX >> 4))
				return -ERANGE;
			x = (x << 4) | (uint64_t)hexval((unsigned char)*p);
		}
	} else {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++) {
			unsigned d = (unsigned)(*p - '0');

			if (x > (UINT64_MAX - d) / 10)
				return -ERANGE;
			x = x * 10 + d;
		}
	}
	*end = p;
	*v = x;
	return 0;
}

/* Decimal digits[.digits] at @s into a double, locale-free; *end after it. */
static int val_dec(const char *s, const char **end, double *out)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
				      1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };
	uint64_t mant = 0;
	unsigned digits = 0, frac = 0;
	int scale = 0;		/* integer digits dropped beyond 18 */
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		if (digits < 18) {
			mant = mant * 10 + (uint64_t)(*p - '0');
			if (mant)
				digits++;
		} else {
			scale++;
		}
	}
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (digits < 18 && frac < 18) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				if (mant)
					digits++;
				frac++;
			}
		}
	}
	if (scale > 300)
		return -ERANGE;
	*out = (double)mant;
	if (frac)
		*out /= p10[frac];
	while (scale--)
		*out *= 10.0;
	*end = p;
	return 0;
}

/* ---- suffixes ---- */

static void lower_copy(char *dst, size_t len, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < len && s[i]; i++)
		dst[i] = (char)tolower((unsigned char)s[i]);
	dst[i] = '\0';
}

/*
 * Multiplier of a size suffix (already known to be letters only).
 * 0 = unknown, UINT64_MAX = ambiguous "ki" form.
 */
static uint64_t size_mult(const char *suffix, unsigned kb_base)
{
	static const char pfx[] = "kmgtp";
	char s[8];
	const char *q;
	uint64_t base = kb_base == 1000 ? 1000 : 1024, inv = base == 1000 ? 1024 : 1000, m = 1;
	size_t len = strlen(suffix);
	int pow;

	if (len > 3)
		return 0;
	lower_copy(s, sizeof(s), suffix);
	if (!s[0] || !strcmp(s, "b"))
		return 1;
	q = strchr(pfx, s[0]);
	if (!q)
		return 0;
	pow = (int)(q - pfx) + 1;
	if (!s[1] || (s[1] == 'b' && !s[2])) {
		/* k, kb */
	} else if (s[1] == 'i' && s[2] == 'b') {
		base = inv;	/* kib: the other base */
	} else if (s[1] == 'i' && !s[2]) {
		return UINT64_MAX;
	} else {
		return 0;
	}
	while (pow--)
		m *= base;
	return m;
}

/* Multiplier of a time suffix to ns; 0 unknown, UINT64_MAX ambiguous. */
static uint64_t time_mult(const char *suffix)
{
	static const struct { const char *name; uint64_t ns; } tab[] = {
		{ "us", IOS_NS_PER_US }, { "usec", IOS_NS_PER_US },
		{ "ms", IOS_NS_PER_MS }, { "msec", IOS_NS_PER_MS },
		{ "s", IOS_NS_PER_S },
		{ "m", 60 * IOS_NS_PER_S },
		{ "h", 3600 * IOS_NS_PER_S },
		{ "d", 86400 * IOS_NS_PER_S },
	};
	char s[8];
	size_t i;

	if (strlen(suffix) > 4)
		return 0;
	lower_copy(s, sizeof(s), suffix);
	for (i = 0; i < IOS_ARRAY_SIZE(tab); i++)
		if (!strcmp(s, tab[i].name))
			return tab[i].ns;
	if (!strcmp(s, "sec") || !strcmp(s, "min"))
		return UINT64_MAX;
	return 0;
}

static int size_suffix_err(struct ios_vctx *c, const char *suffix, uint64_t m)
{
	if (m == UINT64_MAX)
		return val_err(c, -EINVAL, "size suffix '%s' is ambiguous: fio 3.33 reads it as "
			       "'%.1s' (a power of kb_base) but its HOWTO says the other base; "
			       "write k/m/g... or kib/mib/gib...", suffix, suffix);
	if (suffix[0] == 'z' && !suffix[1])
		return val_err(c, -EINVAL, "zone units ('z') are taken only by size, io_size, offset, "
			       "offset_increment and zoneskip (fio 3.33: \"'z' suffix isn't "
			       "applicable\")");
	if (suffix[0] == 'Z' && !suffix[1])
		return val_err(c, -EINVAL, "zone units are a lowercase 'z' (fio 3.33 reads an "
			       "uppercase 'Z' as no suffix: bytes)");
	return val_err(c, -EINVAL, "unknown size suffix '%s' (use k, m, g, t, p with an optional "
		       "b, or kib, mib, gib, tib, pib)", suffix);
}

static int time_suffix_err(struct ios_vctx *c, const char *suffix, uint64_t m)
{
	if (m == UINT64_MAX)
		return val_err(c, -EINVAL, "time suffix '%s' is ambiguous: fio 3.33 reads it as "
			       "microseconds; write s or m", suffix);
	return val_err(c, -EINVAL, "unknown time suffix '%s' (use d, h, m, s, ms, us)",
		       suffix);
}

/* ---- expressions ---- */

enum ev_mode { EV_PLAIN, EV_SIZE, EV_TIME };

struct ev {
	bool is_int;
	int64_t i;
	double d;
};

struct evp {
	const char *p;
	enum ev_mode mode;
	unsigned depth;
	struct ios_vctx *c;
};

static double ev_d(struct ev v)
{
	return v.is_int ? (double)v.i : v.d;
}

static int ev_expr(struct evp *s, struct ev *out);

static void ev_skip(struct evp *s)
{
	while (*s->p == ' ' || *s->p == '\t')
		s->p++;
}

static int ev_overflow(struct evp *s)
{
	return val_err(s->c, -ERANGE, "arithmetic overflow");
}

/* A number with an optional unit suffix. */
static int ev_number(struct evp *s, struct ev *out)
{
	const char *p = s->p, *end;
	char suffix[8];
	size_t sl = 0;
	uint64_t u, m = 1;
	double d;
	bool is_dec = false;
	int ret;

	/* decimal point ahead? (not for hex) */
	if (!(p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))) {
		const char *q = p;

		while (isdigit((unsigned char)*q))
			q++;
		is_dec = *q == '.';
	}
	if (is_dec) {
		ret = val_dec(p, &end, &d);
		if (ret)
			return val_err(s->c, -EINVAL, "expected a number in the expression at '%s'",
				       p);
	} else {
		ret = val_uint(p, &end, &u);
		if (ret == -ERANGE || (!ret && u > INT64_MAX))
			return ev_overflow(s);
		if (ret)
			return val_err(s->c, -EINVAL, "expected a number in the expression at '%s'",
				       p);
	}
	p = end;
	while (isalpha((unsigned char)*p)) {
		if (sl + 1 >= sizeof(suffix))
			return val_err(s->c, -EINVAL, "unknown unit at '%s' in the expression", end);
		suffix[sl++] = *p++;
	}
	suffix[sl] = '\0';
	if (s->mode == EV_PLAIN && sl)
		return val_err(s->c, -EINVAL, "unit suffix '%s' inside a keyword expression "
			       "(fio hands these to bc, which has no units)", suffix);
	if (s->mode == EV_SIZE) {
		m = size_mult(suffix, s->c->kb_base);
		if (!m || m == UINT64_MAX)
			return size_suffix_err(s->c, suffix, m);
	} else if (s->mode == EV_TIME) {
		if (sl) {
			m = time_mult(suffix);
			if (!m || m == UINT64_MAX)
				return time_suffix_err(s->c, suffix, m);
			m /= IOS_NS_PER_US;	/* expressions count in microseconds */
		}
	}
	if (is_dec) {
		out->is_int = false;
		out->d = d * (double)m;
	} else {
		out->is_int = true;
		if (__builtin_mul_overflow((int64_t)u, (int64_t)m, &out->i))
			return ev_overflow(s);
	}
	s->p = p;
	return 0;
}

static int ev_primary(struct evp *s, struct ev *out)
{
	int ret;

	ev_skip(s);
	if (*s->p == '(') {
		if (++s->depth > VAL_MAX_DEPTH)
			return val_err(s->c, -EINVAL, "expression nested too deeply");
		s->p++;
		ret = ev_expr(s, out);
		if (ret)
			return ret;
		ev_skip(s);
		if (*s->p != ')')
			return val_err(s->c, -EINVAL, "missing ')' in the expression");
		s->p++;
		s->depth--;
		return 0;
	}
	if (*s->p == '-' || *s->p == '+') {
		bool neg = *s->p == '-';

		if (++s->depth > VAL_MAX_DEPTH)
			return val_err(s->c, -EINVAL, "expression nested too deeply");
		s->p++;
		ret = ev_primary(s, out);
		s->depth--;
		if (ret)
			return ret;
		if (neg) {
			if (out->is_int) {
				if (out->i == INT64_MIN)
					return ev_overflow(s);
				out->i = -out->i;
			} else {
				out->d = -out->d;
			}
		}
		return 0;
	}
	if (!*s->p)
		return val_err(s->c, -EINVAL, "expression ends early");
	return ev_number(s, out);
}

static int ev_pow(struct ev a, struct ev b, struct ev *r, struct evp *s)
{
	if (a.is_int && b.is_int && b.i >= 0) {
		int64_t x = 1, e = b.i, base = a.i;

		while (e--) {
			if (__builtin_mul_overflow(x, base, &x))
				return ev_overflow(s);
			if (x == 0 || x == 1)
				break;
		}
		r->is_int = true;
		r->i = x;
		return 0;
	}
	r->is_int = false;
	r->d = pow(ev_d(a), ev_d(b));
	return 0;
}

/* factor := primary [ '^' factor ] */
static int ev_factor(struct evp *s, struct ev *out)
{
	struct ev b;
	int ret = ev_primary(s, out);

	if (ret)
		return ret;
	ev_skip(s);
	if (*s->p != '^')
		return 0;
	s->p++;
	if (++s->depth > VAL_MAX_DEPTH)
		return val_err(s->c, -EINVAL, "expression nested too deeply");
	ret = ev_factor(s, &b);
	s->depth--;
	if (ret)
		return ret;
	return ev_pow(*out, b, out, s);
}

static int ev_binop(struct evp *s, char op, struct ev a, struct ev b, struct ev *r)
{
	if (a.is_int && b.is_int) {
		bool ovf = false;

		r->is_int = true;
		switch (op) {
		case '+': ovf = __builtin_add_overflow(a.i, b.i, &r->i); break;
		case '-': ovf = __builtin_sub_overflow(a.i, b.i, &r->i); break;
		case '*': ovf = __builtin_mul_overflow(a.i, b.i, &r->i); break;
		case '/':
		case '%':
			if (!b.i)
				return val_err(s->c, -EINVAL, "division by zero");
			if (a.i == INT64_MIN && b.i == -1)
				return ev_overflow(s);
			r->i = op == '/' ? a.i / b.i : a.i % b.i;
			break;
		}
		return ovf ? ev_overflow(s) : 0;
	}
	r->is_int = false;
	switch (op) {
	case '+': r->d = ev_d(a) + ev_d(b); break;
	case '-': r->d = ev_d(a) - ev_d(b); break;
	case '*': r->d = ev_d(a) * ev_d(b); break;
	case '/':
	case '%':
		if (ev_d(b) == 0.0)
			return val_err(s->c, -EINVAL, "division by zero");
		r->d = op == '/' ? ev_d(a) / ev_d(b) : fmod(ev_d(a), ev_d(b));
		break;
	}
	return 0;
}

/* term := factor { ('*' | '/' | '%') factor } */
static int ev_term(struct evp *s, struct ev *out)
{
	int ret = ev_factor(s, out);

	while (!ret) {
		struct ev b;
		char op;

		ev_skip(s);
		op = *s->p;
		if (op != '*' && op != '/' && op != '%')
			break;
		s->p++;
		ret = ev_factor(s, &b);
		if (!ret)
			ret = ev_binop(s, op, *out, b, out);
	}
	return ret;
}

/* expr := term { ('+' | '-') term } */
static int ev_expr(struct evp *s, struct ev *out)
{
	int ret = ev_term(s, out);

	while (!ret) {
		struct ev b;
		char op;

		ev_skip(s);
		op = *s->p;
		if (op != '+' && op != '-')
			break;
		s->p++;
		ret = ev_term(s, &b);
		if (!ret)
			ret = ev_binop(s, op, *out, b, out);
	}
	return ret;
}

/* Evaluate all of @str; the result must be a non-negative integer (truncated). */
static int ev_eval(struct ios_vctx *c, const char *str, enum ev_mode mode, uint64_t *out)
{
	struct evp s = { .p = str, .mode = mode, .c = c };
	struct ev v;
	int ret = ev_expr(&s, &v);

	if (ret)
		return ret;
	ev_skip(&s);
	if (*s.p)
		return val_err(c, -EINVAL, "unexpected '%s' in the expression", s.p);
	if (v.is_int) {
		if (v.i < 0)
			return val_err(c, -ERANGE, "the expression is negative");
		*out = (uint64_t)v.i;
		return 0;
	}
	if (!(v.d >= 0.0))
		return val_err(c, -ERANGE, "the expression is negative or not a number");
	if (v.d >= 18446744073709551616.0)
		return ev_overflow(&s);
	*out = (uint64_t)v.d;
	return 0;
}

static bool has_operator(const char *s)
{
	return strpbrk(s, "+-*/%^()") != NULL;
}

/*
 * Keyword step shared by every numeric parser: *@expanded is a malloc'd copy
 * with keywords replaced. If a keyword was replaced and operators remain, the
 * integer result is stored in *@kwval and 1 is returned.
 */
static int val_prep(struct ios_vctx *c, const char *s, char **expanded, uint64_t *kwval)
{
	bool hit;
	int ret;

	*expanded = ios_val_keywords(c->po, s, &hit);
	if (!*expanded)
		return IOS_ERR(c->e, -ENOMEM, "%s: out of memory", c->where);
	if (!hit || !has_operator(*expanded))
		return 0;
	ret = ev_eval(c, *expanded, EV_PLAIN, kwval);
	return ret ? ret : 1;
}

/* ---- the public parsers ---- */

int ios_val_size(struct ios_vctx *c, const char *s, uint64_t *out, int *pct)
{
	char *x;
	const char *end;
	uint64_t v, m, kw;
	int ret;

	if (pct)
		*pct = -1;
	ret = val_prep(c, s, &x, &kw);
	if (ret) {
		free(x);
		if (ret == 1)
			*out = kw;
		return ret == 1 ? 0 : ret;
	}
	if (x[0] == '(') {
		ret = ev_eval(c, x, EV_SIZE, out);
		free(x);
		return ret;
	}
	ret = val_uint(x, &end, &v);
	if (ret == -ERANGE) {
		ret = val_err(c, -ERANGE, "number too large");
		goto out;
	}
	if (ret) {
		ret = val_err(c, -EINVAL, "'%s' is not a size (a number with an optional "
			      "k/m/g/t/p suffix)", x);
		goto out;
	}
	/*
	 * "100%%" is 100% too: fio 3.33's __get_mult_bytes (parse.c) looks at
	 * the first '%' only, and job files written with printf-style escaping
	 * (Phoronix's pts/fio writes size=100%%) rely on it.
	 */
	if (*end == '%') {
		if (!pct) {
			ret = val_err(c, -EINVAL, "a percentage is not allowed here");
		} else if (end[1] && strcmp(end + 1, "%")) {
			ret = val_err(c, -EINVAL, "unexpected '%s' after the percentage", end + 1);
		} else {
			/* the caller checks the range: size allows 1..100%, offset 0..100% */
			*pct = v > INT_MAX ? INT_MAX : (int)v;
			*out = 0;
		}
		goto out;
	}
	if (*end == '.') {
		ret = val_err(c, -EINVAL, "fractional sizes are not accepted (fio 3.33 drops the "
			      "fraction and the suffix); write an expression such as (1.5*1m)");
		goto out;
	}
	{
		const char *q = end;

		while (isalpha((unsigned char)*q))
			q++;
		if (*q || q - end > 7) {
			ret = val_err(c, -EINVAL, "unexpected '%s' in a size", end);
			goto out;
		}
	}
	m = size_mult(end, c->kb_base);
	if (!m || m == UINT64_MAX) {
		ret = size_suffix_err(c, end, m);
		goto out;
	}
	if (v && m > UINT64_MAX / v) {
		ret = val_err(c, -ERANGE, "size too large");
		goto out;
	}
	*out = v * m;
out:
	free(x);
	return ret;
}

int ios_val_time(struct ios_vctx *c, const char *s, uint64_t unit_ns, uint64_t *out_ns)
{
	char *x;
	const char *end;
	uint64_t v, m, kw;
	int ret;

	ret = val_prep(c, s, &x, &kw);
	if (ret == 1) {
		v = kw;
		m = unit_ns;
		ret = 0;
		goto mul;
	}
	if (ret)
		goto out;
	if (x[0] == '(') {
		ret = ev_eval(c, x, EV_TIME, &v);
		m = IOS_NS_PER_US;
		if (ret)
			goto out;
		goto mul;
	}
	ret = val_uint(x, &end, &v);
	if (ret == -ERANGE) {
		ret = val_err(c, -ERANGE, "number too large");
		goto out;
	}
	if (ret) {
		ret = val_err(c, -EINVAL, "'%s' is not a time (a number with an optional "
			      "d/h/m/s/ms/us suffix)", x);
		goto out;
	}
	if (*end == '.') {
		ret = val_err(c, -EINVAL, "fractional times are not accepted (fio 3.33 drops the "
			      "fraction and the unit); use a smaller unit");
		goto out;
	}
	/*
	 * fio 3.33 accepts "1e9s" and reads the digits before the 'e' with no
	 * unit (thinktime=1e9s sleeps 1 us): the number its user meant is not
	 * what fio runs, so neither reading is taken.
	 */
	if ((*end == 'e' || *end == 'E') &&
	    (isdigit((unsigned char)end[1]) ||
	     ((end[1] == '-' || end[1] == '+') && isdigit((unsigned char)end[2])))) {
		ret = val_err(c, -EINVAL, "exponents are not accepted in a time (fio 3.33 stops "
			      "at the 'e' and drops the unit: thinktime=1e9s is 1 us there); "
			      "write the digits out, e.g. 1000000000s");
		goto out;
	}
	{
		const char *q = end;

		while (isalpha((unsigned char)*q))
			q++;
		if (*q || q - end > 7) {
			ret = val_err(c, -EINVAL, "unexpected '%s' in a time", end);
			goto out;
		}
	}
	if (*end) {
		m = time_mult(end);
		if (!m || m == UINT64_MAX) {
			ret = time_suffix_err(c, end, m);
			goto out;
		}
	} else {
		m = unit_ns;
	}
mul:
	if (v && m > UINT64_MAX / v)
		ret = val_err(c, -ERANGE, "time too large");
	else
		*out_ns = v * m;
out:
	free(x);
	return ret;
}

int ios_val_int(struct ios_vctx *c, const char *s, int64_t min, int64_t max, int64_t *out)
{
	char range[64];
	bool neg = false;
	uint64_t v;
	int64_t r;
	int ret;

	if (*s == '-' && min < 0) {
		neg = true;
		s++;
		if (*s == '-' || *s == '+' || *s == '(' || *s == '$')
			return val_err(c, -EINVAL, "'-%s' is not an integer", s);
	}
	/* a sign the range does not allow: say so, not "not a size" */
	if ((*s == '-' && isdigit((unsigned char)s[1])) || *s == '+') {
		ios_val_range_str(range, sizeof(range), min, max);
		return val_err(c, *s == '-' ? -ERANGE : -EINVAL, *s == '-'
			       ? "'%s': out of range, allowed %s"
			       : "'%s': a sign is not accepted, allowed %s (decimal or 0x hex)",
			       s, range);
	}
	ret = ios_val_size(c, s, &v, NULL);
	if (ret)
		return ret;
	if (v > (uint64_t)INT64_MAX)
		goto range;
	r = neg ? -(int64_t)v : (int64_t)v;
	if (r < min || r > max)
		goto range;
	*out = r;
	return 0;
range:
	ios_val_range_str(range, sizeof(range), min, max);
	return val_err(c, -ERANGE, "out of range, allowed %s", range);
}

int ios_val_bool(struct ios_vctx *c, const char *s, int *out)
{
	const char *p = s;

	if ((s[0] == '0' || s[0] == '1') && !s[1]) {
		*out = s[0] - '0';
		return 0;
	}
	while (isdigit((unsigned char)*p))
		p++;
	if (p != s && !*p)
		return val_err(c, -ERANGE, "out of range, allowed 0..1");
	return val_err(c, -EINVAL, "expected 0 or 1");
}

int ios_val_decimal(struct ios_vctx *c, const char *s, double *out)
{
	const char *end;

	if (val_dec(s, &end, out) || *end)
		return val_err(c, -EINVAL, "'%s' is not a decimal number", s);
	return 0;
}
