/*
 * Intrusive red-black trees.
 *
 * A node is embedded in the object it orders (a request sorted by sector, a
 * queue sorted by service key), so trees never allocate. As with the kernel's
 * rbtree the caller does the descent itself, because only the caller knows the
 * key: walk down from root->node, remember the parent and the child link that
 * was NULL, then call ios_rb_link() and ios_rb_insert_color().
 *
 *	struct ios_rb_node **link = &root->node, *parent = NULL;
 *	while (*link) {
 *		parent = *link;
 *		link = key < KEY(parent) ? &parent->left : &parent->right;
 *	}
 *	ios_rb_link(node, parent, link);
 *	ios_rb_insert_color(node, root);
 *
 * ios_rb_add() does exactly that for a comparison function. Equal keys go to
 * the right, so iteration order among equal keys is insertion order, which
 * keeps every scheduler deterministic.
 *
 * The "cached" variant also tracks the leftmost node, for service trees that
 * pick their first element on every dispatch.
 *
 * The "augmented" variant keeps a value per node that summarises its
 * subtree (BFQ: the smallest start time below a node, ordered by finish
 * time), repaired by the caller's callbacks as the tree changes shape; the
 * same algorithm as the plain tree, so the shape after any sequence of
 * operations is the same too. To insert, descend and ios_rb_link() as
 * usual, give the new node its value and fix the values on the path above
 * it (each ancestor's subtree gained the node), then call
 * ios_rb_insert_augmented(); it calls rotate() for every rotation. To
 * erase, call ios_rb_erase_augmented(); it calls copy(), propagate() and
 * rotate() as described below. The callbacks see only nodes: they recover
 * their objects with ios_rb_entry().
 */
#ifndef IOSCHED_RBTREE_H
#define IOSCHED_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include "list.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_rb_node {
	struct ios_rb_node *parent;
	union {
		struct {
			struct ios_rb_node *left;
			struct ios_rb_node *right;
		};
		/* child[key >= node key]: lets a descent index instead of branch */
		struct ios_rb_node *child[2];
	};
	int red;
};

struct ios_rb_root {
	struct ios_rb_node *node;
};

struct ios_rb_root_cached {
	struct ios_rb_root rb;
	struct ios_rb_node *leftmost;
};

#define IOS_RB_ROOT ((struct ios_rb_root){ NULL })
#define IOS_RB_ROOT_CACHED ((struct ios_rb_root_cached){ { NULL }, NULL })

#define ios_rb_entry(ptr, type, member) ios_container_of(ptr, type, member)

static inline bool ios_rb_empty(const struct ios_rb_root *root)
{
	return root->node == NULL;
}

/* A node that is on no tree points to itself as parent (see ios_rb_clear). */
static inline void ios_rb_clear(struct ios_rb_node *n)
{
	n->parent = n;
}

static inline bool ios_rb_unlinked(const struct ios_rb_node *n)
{
	return n->parent == n;
}

static inline void ios_rb_link(struct ios_rb_node *node, struct ios_rb_node *parent,
			       struct ios_rb_node **link)
{
	node->parent = parent;
	node->left = node->right = NULL;
	node->red = 1;
	*link = node;
}

void ios_rb_insert_color(struct ios_rb_node *node, struct ios_rb_root *root);
void ios_rb_erase(struct ios_rb_node *node, struct ios_rb_root *root);

struct ios_rb_augment_callbacks {
	/*
	 * Recompute the value of @node and its ancestors up to @stop
	 * (excluded; NULL: the root), children before parents. It may stop
	 * early once a recomputed value did not change, since nothing above
	 * can change then. Called with @node == @stop means nothing to do.
	 */
	void (*propagate)(struct ios_rb_node *node, struct ios_rb_node *stop);
	/* @repl took @old's place (erase's successor splice): copy @old's value. */
	void (*copy)(struct ios_rb_node *old, struct ios_rb_node *repl);
	/*
	 * A rotation made @repl the top of the subtree @old topped: @repl takes
	 * @old's value (same nodes below), @old's is recomputed from its new
	 * children.
	 */
	void (*rotate)(struct ios_rb_node *old, struct ios_rb_node *repl);
};

/* Rebalance after ios_rb_link(); the caller has fixed the values on the path. */
void ios_rb_insert_augmented(struct ios_rb_node *node, struct ios_rb_root *root,
			     const struct ios_rb_augment_callbacks *aug);
/* Unlink @node, keeping every other node's value right; @node ends unlinked. */
void ios_rb_erase_augmented(struct ios_rb_node *node, struct ios_rb_root *root,
			    const struct ios_rb_augment_callbacks *aug);

struct ios_rb_node *ios_rb_first(const struct ios_rb_root *root);
struct ios_rb_node *ios_rb_last(const struct ios_rb_root *root);
struct ios_rb_node *ios_rb_next(const struct ios_rb_node *node);
struct ios_rb_node *ios_rb_prev(const struct ios_rb_node *node);

/* Insert @node ordered by @less(a, b) ("a sorts before b"); equal keys go right. */
void ios_rb_add(struct ios_rb_node *node, struct ios_rb_root *root,
		bool (*less)(const struct ios_rb_node *a, const struct ios_rb_node *b));

/* Cached-leftmost variants. */
void ios_rb_add_cached(struct ios_rb_node *node, struct ios_rb_root_cached *root,
		       bool (*less)(const struct ios_rb_node *a, const struct ios_rb_node *b));
void ios_rb_insert_color_cached(struct ios_rb_node *node, struct ios_rb_root_cached *root,
				bool leftmost);
void ios_rb_erase_cached(struct ios_rb_node *node, struct ios_rb_root_cached *root);

static inline struct ios_rb_node *ios_rb_first_cached(const struct ios_rb_root_cached *root)
{
	return root->leftmost;
}

#ifdef __cplusplus
}
#endif

#endif
