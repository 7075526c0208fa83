/*
 * A map from byte strings to pointers, each with a small tag: open
 * addressing, linear probing, keys copied and owned by the map.
 *
 * Why: file and directory names are looked up once per name a job gives,
 * and a job may give 100k of them (nrfiles=); a list made that quadratic.
 * The hash is FNV-1a, so the layout of the table depends on nothing but
 * the keys inserted, in order: lookups never make output depend on
 * addresses. There is no removal; nothing needs it.
 */
#ifndef IOSCHED_STRMAP_H
#define IOSCHED_STRMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* lib/ stands alone (no core header): its own must-check attribute */
#ifndef IOS_LIB_MUST_CHECK
#define IOS_LIB_MUST_CHECK __attribute__((warn_unused_result))
#endif

struct ios_strmap_slot {
	char *key;			/* NULL: empty */
	size_t len;
	uint64_t hash;
	unsigned tag;
	void *val;
};

struct ios_strmap {
	struct ios_strmap_slot *slots;
	size_t cap;			/* power of two, or 0 */
	size_t nr;
};

#define IOS_STRMAP_INIT { NULL, 0, 0 }

/* FNV-1a of @len bytes at @s. */
uint64_t ios_strmap_hash(const char *s, size_t len);

/* true when @key is present; *val and *tag (either may be NULL) get its entry. */
bool ios_strmap_find(const struct ios_strmap *m, const char *key, size_t len, void **val,
		     unsigned *tag);

/* 0, or -ENOMEM (map unchanged). @key must not be present. */
int ios_strmap_add(struct ios_strmap *m, const char *key, size_t len, unsigned tag,
		   void *val) IOS_LIB_MUST_CHECK;

/* Frees the keys and slots (the values are the caller's); the map is then empty. */
void ios_strmap_free(struct ios_strmap *m);

#ifdef __cplusplus
}
#endif

#endif
