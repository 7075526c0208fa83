/*
 * The JSON writer of jsonw.h. Strings are escaped as JSON requires (quote,
 * backslash, control characters); everything else passes through, so UTF-8
 * stays UTF-8. Nesting deeper than IOS_JW_MAX_DEPTH is a caller's bug.
 */
#include <inttypes.h>
#include <math.h>
#include "jsonw.h"

void ios_jw_init(struct ios_jw *w, struct ios_buf *b)
{
	w->b = b;
	w->depth = 0;
	w->first[0] = true;
}

static void jw_str_raw(struct ios_buf *b, const char *s)
{
	ios_buf_puts(b, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			ios_buf_printf(b, "\\%c", c);
		else if (c < 0x20)
			ios_buf_printf(b, "\\u%04x", c);
		else
			ios_buf_printf(b, "%c", c);
	}
	ios_buf_puts(b, "\"");
}

static void jw_key(struct ios_jw *w, const char *key)
{
	if (!w->first[w->depth])
		ios_buf_puts(w->b, ",");
	if (w->depth)
		ios_buf_puts(w->b, "\n");
	w->first[w->depth] = false;
	for (int i = 0; i < w->depth; i++)
		ios_buf_puts(w->b, "  ");
	if (key) {
		jw_str_raw(w->b, key);
		ios_buf_puts(w->b, ": ");
	}
}

void ios_jw_open(struct ios_jw *w, const char *key, char c)
{
	IOS_BUG_ON(w->depth + 1 >= IOS_JW_MAX_DEPTH);
	jw_key(w, key);
	ios_buf_printf(w->b, "%c", c);
	w->first[++w->depth] = true;
}

void ios_jw_close(struct ios_jw *w, char c)
{
	bool empty = w->first[w->depth];

	w->depth--;
	if (!empty) {
		ios_buf_puts(w->b, "\n");
		for (int i = 0; i < w->depth; i++)
			ios_buf_puts(w->b, "  ");
	}
	ios_buf_printf(w->b, "%c", c);
}

void ios_jw_str(struct ios_jw *w, const char *key, const char *v)
{
	jw_key(w, key);
	if (v)
		jw_str_raw(w->b, v);
	else
		ios_buf_puts(w->b, "null");
}

void ios_jw_u64(struct ios_jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	ios_buf_printf(w->b, "%" PRIu64, v);
}

void ios_jw_int(struct ios_jw *w, const char *key, long long v)
{
	jw_key(w, key);
	ios_buf_printf(w->b, "%lld", v);
}

void ios_jw_dbl(struct ios_jw *w, const char *key, double v)
{
	jw_key(w, key);
	if (isfinite(v))
		ios_buf_printf(w->b, "%.6f", v);
	else
		ios_buf_puts(w->b, "null");
}

void ios_jw_bool(struct ios_jw *w, const char *key, bool v)
{
	jw_key(w, key);
	ios_buf_puts(w->b, v ? "true" : "false");
}

void ios_jw_null(struct ios_jw *w, const char *key)
{
	jw_key(w, key);
	ios_buf_puts(w->b, "null");
}
