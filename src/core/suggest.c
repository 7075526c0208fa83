/*
 * Nearest names for "did you mean" (include/iosched/suggest.h).
 *
 * Names are short (the longest tunable is under 40 characters), so the
 * distance is the plain dynamic programme over two rows and the one before,
 * which is what a transposition needs; nothing here is on a hot path.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "iosched/suggest.h"

#define SG_LEN IOS_SUGGEST_NAME

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

/* Optimal string alignment distance of a[0..la) and b[0..lb), case folded. */
static unsigned osa(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned rows[3][SG_LEN + 1];
	unsigned *pp = rows[0], *p = rows[1], *c = rows[2];

	for (size_t j = 0; j <= lb; j++)
		p[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned *t;

		c[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
			unsigned cost = ai != bj;

			c[j] = min3(p[j] + 1, c[j - 1] + 1, p[j - 1] + cost);
			if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == bj && pp[j - 2] + 1 < c[j])
				c[j] = pp[j - 2] + 1;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb];
}

/*
 * In half edits: a name matched only by its first strlen(typed) characters
 * costs one edit and a half more than that prefix's distance, so at the same
 * number of edits a whole-name match ("bs" for "bss") comes before one that
 * merely starts alike ("bssplit").
 */
static unsigned score2(const char *typed, const char *name)
{
	size_t lt = strlen(typed), ln = strlen(name);
	unsigned d;

	/* too long to be a name we know: never near */
	if (lt > SG_LEN || ln > SG_LEN)
		return ~0u;
	d = 2 * osa(typed, lt, name, ln);
	if (ln > lt) {
		unsigned dp = 2 * osa(typed, lt, name, lt) + 3;

		if (dp < d)
			d = dp;
	}
	return d;
}

unsigned ios_suggest_distance(const char *typed, const char *name)
{
	unsigned d = score2(typed, name);

	return d == ~0u ? d : (d + 1) / 2;
}

void ios_suggest_init(struct ios_suggest *s, const char *typed)
{
	s->typed = typed ? typed : "";
	s->n = 0;
	s->best = ~0u;
}

void ios_suggest_add(struct ios_suggest *s, const char *prefix, const char *name)
{
	size_t lt = strlen(s->typed), lp = prefix ? strlen(prefix) : 0;
	unsigned limit;
	char full[SG_LEN + 1];
	unsigned d;
	int n;

	if (!name || !*name)
		return;
	n = snprintf(full, sizeof(full), "%s%s", prefix ? prefix : "", name);
	if (n < 0 || (size_t)n >= sizeof(full))
		return;
	/* under a scope the user typed right ("device."), only the rest counts */
	if (lp && lt >= lp && !strncmp(s->typed, prefix, lp))
		lt -= lp;
	if (!lt)
		return;		/* nothing typed beyond the prefix: any name would be a guess */
	limit = lt < 3 ? 1 : (unsigned)(lt + 2) / 3;
	d = score2(s->typed, full);
	/* the name itself is no suggestion (a known name refused for another reason) */
	if (!strcmp(full, s->typed))
		return;
	if (d > 2 * limit + 1 || d > s->best)
		return;
	if (d < s->best) {
		s->best = d;
		s->n = 0;
	}
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], full))
			return;
	if (s->n < IOS_SUGGEST_MAX)
		memcpy(s->names[s->n++], full, (size_t)n + 1);
}

const char *ios_suggest_str(const struct ios_suggest *s, char *buf, size_t size)
{
	size_t off = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (!s->n)
		return buf;
	for (size_t i = 0; i < s->n; i++) {
		int w = snprintf(buf + off, size - off, "%s'%s'",
				 i == 0 ? " (did you mean " : i + 1 == s->n ? " or " : ", ",
				 s->names[i]);

		if (w < 0 || (size_t)w >= size - off) {
			buf[0] = '\0';
			return buf;
		}
		off += (size_t)w;
	}
	if (off + 3 > size) {
		buf[0] = '\0';
		return buf;
	}
	memcpy(buf + off, "?)", 3);
	return buf;
}
