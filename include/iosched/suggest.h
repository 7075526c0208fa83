/*
 * "Did you mean ...": the known names nearest to a mistyped one.
 *
 * Collect candidates one by one (their lists live in many tables: schedulers,
 * device profiles, tunables under a scope prefix, job options, engines,
 * commands), then format the best of them. Nearness is the edit distance with
 * adjacent transpositions counted as one edit (Damerau's), case folded, where
 * a name may also be matched by its first strlen(typed) characters at one
 * and a half extra edits, so "hdd" finds "hdd-2009" and "bss" finds "bs"
 * before "bssplit". A name further than about a third of
 * the typed length is no suggestion: a wild guess is worse than none.
 */
#ifndef IOSCHED_SUGGEST_H
#define IOSCHED_SUGGEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IOS_SUGGEST_MAX 3	/* names shown at most, all at the best distance */
#define IOS_SUGGEST_NAME 64	/* longest name kept (prefix included) */

struct ios_suggest {
	const char *typed;
	unsigned best;				/* distance of the names kept, in half edits */
	size_t n;
	char names[IOS_SUGGEST_MAX][IOS_SUGGEST_NAME];
};

void ios_suggest_init(struct ios_suggest *s, const char *typed);
/* Offer @prefix followed by @name ("queue." "nr_requests"); @prefix may be NULL. */
void ios_suggest_add(struct ios_suggest *s, const char *prefix, const char *name);
/*
 * " (did you mean 'a'?)", " (did you mean 'a' or 'b'?)", or "" when no name
 * is near enough; in @buf, returned.
 */
const char *ios_suggest_str(const struct ios_suggest *s, char *buf, size_t size);
/* Edit distance as above, in whole edits rounded up, for tests. */
unsigned ios_suggest_distance(const char *typed, const char *name);

#ifdef __cplusplus
}
#endif

#endif
