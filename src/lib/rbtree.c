/*
 * Red-black tree balancing (Cormen et al., "Introduction to Algorithms",
 * chapter 13), written for intrusive nodes with parent pointers. NULL stands
 * for the black leaves. Erase splices the successor node into the place of
 * the erased node instead of copying keys, because keys live in the caller's
 * objects and the tree cannot move them.
 *
 * The augmented variants run the same code with the caller's callbacks
 * (struct ios_rb_augment_callbacks): each rotation reports the two nodes it
 * moved, and erase reports the successor it spliced in and the path whose
 * subtrees lost a node. The plain functions pass no callbacks; the cores
 * are forced inline so that each gets its own copy without the calls.
 */
#include "iosched/rbtree.h"

static inline bool rb_is_red(const struct ios_rb_node *n)
{
	return n && n->red;
}

static void rb_replace_child(struct ios_rb_root *root, struct ios_rb_node *parent,
			     struct ios_rb_node *old, struct ios_rb_node *new)
{
	if (!parent)
		root->node = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

#define RB_ALWAYS_INLINE inline __attribute__((always_inline))

/* @y takes @x's place at the top of the rotated subtree */
static RB_ALWAYS_INLINE void rb_rotate_left(struct ios_rb_root *root, struct ios_rb_node *x,
					    const struct ios_rb_augment_callbacks *aug)
{
	struct ios_rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->parent = x->parent;
	rb_replace_child(root, x->parent, x, y);
	y->left = x;
	x->parent = y;
	if (aug)
		aug->rotate(x, y);
}

static RB_ALWAYS_INLINE void rb_rotate_right(struct ios_rb_root *root, struct ios_rb_node *x,
					     const struct ios_rb_augment_callbacks *aug)
{
	struct ios_rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->parent = x->parent;
	rb_replace_child(root, x->parent, x, y);
	y->right = x;
	x->parent = y;
	if (aug)
		aug->rotate(x, y);
}

static RB_ALWAYS_INLINE void rb_insert_fixup(struct ios_rb_node *n, struct ios_rb_root *root,
					     const struct ios_rb_augment_callbacks *aug)
{
	struct ios_rb_node *p, *g, *u;

	while ((p = n->parent) && p->red) {
		g = p->parent; /* a red node is never the root, so g exists */
		if (p == g->left) {
			u = g->right;
			if (rb_is_red(u)) {
				p->red = 0;
				u->red = 0;
				g->red = 1;
				n = g;
				continue;
			}
			if (n == p->right) {
				rb_rotate_left(root, p, aug);
				n = p;
				p = n->parent;
			}
			p->red = 0;
			g->red = 1;
			rb_rotate_right(root, g, aug);
		} else {
			u = g->left;
			if (rb_is_red(u)) {
				p->red = 0;
				u->red = 0;
				g->red = 1;
				n = g;
				continue;
			}
			if (n == p->left) {
				rb_rotate_right(root, p, aug);
				n = p;
				p = n->parent;
			}
			p->red = 0;
			g->red = 1;
			rb_rotate_left(root, g, aug);
		}
	}
	root->node->red = 0;
}

static RB_ALWAYS_INLINE void rb_erase_fixup(struct ios_rb_root *root, struct ios_rb_node *x,
					    struct ios_rb_node *parent, const struct ios_rb_augment_callbacks *aug)
{
	struct ios_rb_node *w;

	while (x != root->node && !rb_is_red(x)) {
		if (x == parent->left) {
			w = parent->right;
			if (rb_is_red(w)) {
				w->red = 0;
				parent->red = 1;
				rb_rotate_left(root, parent, aug);
				w = parent->right;
			}
			if (!rb_is_red(w->left) && !rb_is_red(w->right)) {
				w->red = 1;
				x = parent;
				parent = x->parent;
			} else {
				if (!rb_is_red(w->right)) {
					w->left->red = 0;
					w->red = 1;
					rb_rotate_right(root, w, aug);
					w = parent->right;
				}
				w->red = parent->red;
				parent->red = 0;
				if (w->right)
					w->right->red = 0;
				rb_rotate_left(root, parent, aug);
				x = root->node;
				break;
			}
		} else {
			w = parent->left;
			if (rb_is_red(w)) {
				w->red = 0;
				parent->red = 1;
				rb_rotate_right(root, parent, aug);
				w = parent->left;
			}
			if (!rb_is_red(w->left) && !rb_is_red(w->right)) {
				w->red = 1;
				x = parent;
				parent = x->parent;
			} else {
				if (!rb_is_red(w->left)) {
					w->right->red = 0;
					w->red = 1;
					rb_rotate_left(root, w, aug);
					w = parent->left;
				}
				w->red = parent->red;
				parent->red = 0;
				if (w->left)
					w->left->red = 0;
				rb_rotate_right(root, parent, aug);
				x = root->node;
				break;
			}
		}
	}
	if (x)
		x->red = 0;
}

static RB_ALWAYS_INLINE void rb_erase(struct ios_rb_node *z, struct ios_rb_root *root,
				      const struct ios_rb_augment_callbacks *aug)
{
	struct ios_rb_node *y, *x, *xparent, *from;
	int y_red;

	if (!z->left || !z->right) {
		y = z;
	} else {
		y = z->right;
		while (y->left)
			y = y->left;
	}
	x = y->left ? y->left : y->right;
	xparent = y->parent;
	if (x)
		x->parent = y->parent;
	rb_replace_child(root, y->parent, y, x);
	y_red = y->red;

	if (y != z) {
		/* splice y into z's position */
		if (xparent == z)
			xparent = y;
		y->left = z->left;
		y->right = z->right;
		y->parent = z->parent;
		y->red = z->red;
		if (y->left)
			y->left->parent = y;
		if (y->right)
			y->right->parent = y;
		rb_replace_child(root, z->parent, z, y);
		/* y now tops z's old subtree; below it, y's old path lost y */
		if (aug) {
			aug->copy(z, y);
			aug->propagate(xparent, y);
		}
		from = y;
	} else {
		from = xparent;
	}
	/* every subtree from there to the root lost a node */
	if (aug && from)
		aug->propagate(from, NULL);
	if (!y_red)
		rb_erase_fixup(root, x, xparent, aug);
	ios_rb_clear(z);
}

void ios_rb_insert_color(struct ios_rb_node *node, struct ios_rb_root *root)
{
	rb_insert_fixup(node, root, NULL);
}

void ios_rb_erase(struct ios_rb_node *node, struct ios_rb_root *root)
{
	rb_erase(node, root, NULL);
}

void ios_rb_insert_augmented(struct ios_rb_node *node, struct ios_rb_root *root,
			     const struct ios_rb_augment_callbacks *aug)
{
	rb_insert_fixup(node, root, aug);
}

void ios_rb_erase_augmented(struct ios_rb_node *node, struct ios_rb_root *root,
			    const struct ios_rb_augment_callbacks *aug)
{
	rb_erase(node, root, aug);
}

struct ios_rb_node *ios_rb_first(const struct ios_rb_root *root)
{
	struct ios_rb_node *n = root->node;

	if (!n)
		return NULL;
	while (n->left)
		n = n->left;
	return n;
}

struct ios_rb_node *ios_rb_last(const struct ios_rb_root *root)
{
	struct ios_rb_node *n = root->node;

	if (!n)
		return NULL;
	while (n->right)
		n = n->right;
	return n;
}

struct ios_rb_node *ios_rb_next(const struct ios_rb_node *n)
{
	struct ios_rb_node *p;

	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct ios_rb_node *)n;
	}
	while ((p = n->parent) && n == p->right)
		n = p;
	return p;
}

struct ios_rb_node *ios_rb_prev(const struct ios_rb_node *n)
{
	struct ios_rb_node *p;

	if (n->left) {
		n = n->left;
		while (n->right)
			n = n->right;
		return (struct ios_rb_node *)n;
	}
	while ((p = n->parent) && n == p->left)
		n = p;
	return p;
}

static bool rb_descend(struct ios_rb_node *node, struct ios_rb_root *root,
		       bool (*less)(const struct ios_rb_node *, const struct ios_rb_node *))
{
	struct ios_rb_node **link = &root->node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->left;
		} else {
			link = &parent->right;
			leftmost = false;
		}
	}
	ios_rb_link(node, parent, link);
	return leftmost;
}

void ios_rb_add(struct ios_rb_node *node, struct ios_rb_root *root,
		bool (*less)(const struct ios_rb_node *, const struct ios_rb_node *))
{
	rb_descend(node, root, less);
	ios_rb_insert_color(node, root);
}

void ios_rb_add_cached(struct ios_rb_node *node, struct ios_rb_root_cached *root,
		       bool (*less)(const struct ios_rb_node *, const struct ios_rb_node *))
{
	bool leftmost = rb_descend(node, &root->rb, less);

	ios_rb_insert_color_cached(node, root, leftmost);
}

void ios_rb_insert_color_cached(struct ios_rb_node *node, struct ios_rb_root_cached *root,
				bool leftmost)
{
	if (leftmost)
		root->leftmost = node;
	ios_rb_insert_color(node, &root->rb);
}

void ios_rb_erase_cached(struct ios_rb_node *node, struct ios_rb_root_cached *root)
{
	if (root->leftmost == node)
		root->leftmost = ios_rb_next(node);
	ios_rb_erase(node, &root->rb);
}
