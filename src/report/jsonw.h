/*
 * A small JSON writer for the reports that are not fio's (compare, repro):
 * two-space indentation, one member per line, keys in the order written,
 * doubles with six decimals and null for NaN or infinity. Private to
 * src/report/.
 *
 * Usage: ios_jw_init, then ios_jw_open(w, NULL, '{') ... ios_jw_close(w, '}');
 * a NULL key is an array element (or the top-level value).
 */
#ifndef IOSCHED_JSONW_H
#define IOSCHED_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include "iosched/stats.h"

#define IOS_JW_MAX_DEPTH 16

struct ios_jw {
	struct ios_buf *b;
	int depth;
	bool first[IOS_JW_MAX_DEPTH];
};

void ios_jw_init(struct ios_jw *w, struct ios_buf *b);
void ios_jw_open(struct ios_jw *w, const char *key, char c);
void ios_jw_close(struct ios_jw *w, char c);
/* a string member; NULL is written as null */
void ios_jw_str(struct ios_jw *w, const char *key, const char *v);
void ios_jw_u64(struct ios_jw *w, const char *key, uint64_t v);
void ios_jw_int(struct ios_jw *w, const char *key, long long v);
void ios_jw_dbl(struct ios_jw *w, const char *key, double v);
void ios_jw_bool(struct ios_jw *w, const char *key, bool v);
void ios_jw_null(struct ios_jw *w, const char *key);

#endif
