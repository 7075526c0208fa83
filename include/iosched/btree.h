/*
 * An ordered map from unique 64-bit keys to pointers: a B+tree.
 *
 * Why not another rbtree: CFQ keeps every busy queue in a "prio tree" keyed
 * by the sector of its next request, and re-keys a queue on every request.
 * Those sectors are random, so with 10k-100k queues each rbtree descent
 * takes a cache miss per level below the few levels that stay cached, ~17
 * levels at 100k. A B+tree node holds 16 keys in two cache lines, the
 * internal levels of a 100k-entry tree fit in L2, and an operation costs
 * about one miss (the leaf). The price is allocation: nodes are allocated
 * on splits (from a free list that keeps released nodes), so an insert can
 * fail with -ENOMEM and leaves the tree unchanged when it does.
 *
 * Keys are unique: inserting a present key returns -EEXIST. Nothing here
 * depends on addresses, so iteration and neighbour queries are
 * deterministic.
 */
#ifndef IOSCHED_BTREE_H
#define IOSCHED_BTREE_H

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

#define IOS_BT_FANOUT 16

struct ios_bt_node;

struct ios_btree {
	struct ios_bt_node *root;	/* NULL when empty */
	struct ios_bt_node *free;	/* released nodes, reused before malloc */
	unsigned height;		/* 1: the root is a leaf */
	size_t count;
};

/* One entry, as returned by lookups. */
struct ios_bt_entry {
	uint64_t key;
	void *val;
};

static inline void ios_btree_init(struct ios_btree *t)
{
	t->root = NULL;
	t->free = NULL;
	t->height = 0;
	t->count = 0;
}

static inline bool ios_btree_empty(const struct ios_btree *t)
{
	return t->count == 0;
}

/* Frees every node (the values are the caller's). The tree is then empty. */
void ios_btree_destroy(struct ios_btree *t);

/* 0, -EEXIST (key present, tree unchanged) or -ENOMEM (tree unchanged). */
int ios_btree_insert(struct ios_btree *t, uint64_t key, void *val) IOS_LIB_MUST_CHECK;

/* Removes @key; returns its value, NULL when absent. */
void *ios_btree_remove(struct ios_btree *t, uint64_t key);

/* The value stored under @key, NULL when absent. */
void *ios_btree_find(const struct ios_btree *t, uint64_t key);

/*
 * Around @key: *exact gets the entry with that key, *pred the one with the
 * largest smaller key, *succ the one with the smallest larger key; each
 * has val NULL when there is none. Any pointer may be NULL.
 */
void ios_btree_around(const struct ios_btree *t, uint64_t key, struct ios_bt_entry *pred,
		      struct ios_bt_entry *exact, struct ios_bt_entry *succ);

/*
 * Walk in key order: @fn returns non-zero to stop, which is then returned.
 * The tree must not change during the walk.
 */
int ios_btree_walk(const struct ios_btree *t, int (*fn)(void *arg, uint64_t key, void *val),
		   void *arg);

/* Structure check for tests: 0, or -EINVAL with the first fault in @why. */
int ios_btree_check(const struct ios_btree *t, const char **why);

#ifdef __cplusplus
}
#endif

#endif
