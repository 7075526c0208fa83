/*
 * B+tree map of unique u64 keys (see include/iosched/btree.h for why).
 *
 * Entries live in the leaves, which are linked in key order so that a
 * neighbour is at most one link away. An internal node routes by
 * separators: child[i] (i >= 1) holds keys >= key[i] and < key[i + 1];
 * key[0] of an internal node is never read for routing. Separators are not
 * tightened when a subtree's smallest key goes away; they stay valid lower
 * bounds, which is all routing needs.
 *
 * Deletion frees empty nodes and merges a node that falls below a quarter
 * full into a sibling when the two fit in three quarters of a node, so a
 * churning tree does not decay into one-entry leaves. The height shrinks
 * when the root is left with a single child.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/btree.h"

#define F IOS_BT_FANOUT
#define MAX_HEIGHT 24	/* 16^24 entries: never reached */

struct ios_bt_node {
	uint16_t nr;
	bool leaf;
	struct ios_bt_node *prev, *next;	/* leaves; next also links the free list */
	uint64_t key[F];
	union {
		void *val[F];
		struct ios_bt_node *child[F];
	} p;
};

/* the child of internal @n whose range holds @key */
static inline unsigned route(const struct ios_bt_node *n, uint64_t key)
{
	unsigned i = 1;

	while (i < n->nr && n->key[i] <= key)
		i++;
	return i - 1;
}

/* the first slot of leaf @n whose key is >= @key (n->nr when none) */
static inline unsigned lower_bound(const struct ios_bt_node *n, uint64_t key)
{
	unsigned i = 0;

	while (i < n->nr && n->key[i] < key)
		i++;
	return i;
}

static struct ios_bt_node *node_get(struct ios_btree *t, bool leaf)
{
	struct ios_bt_node *n = t->free;

	/* reserve() filled the free list: this never fails mid-operation */
	t->free = n->next;
	memset(n, 0, sizeof(*n));
	n->leaf = leaf;
	return n;
}

static void node_put(struct ios_btree *t, struct ios_bt_node *n)
{
	n->next = t->free;
	t->free = n;
}

/* make sure @nr nodes are on the free list */
static int reserve(struct ios_btree *t, unsigned nr)
{
	unsigned have = 0;

	for (struct ios_bt_node *n = t->free; n && have < nr; n = n->next)
		have++;
	for (; have < nr; have++) {
		struct ios_bt_node *n = malloc(sizeof(*n));

		if (!n)
			return -ENOMEM;
		node_put(t, n);
	}
	return 0;
}

static void slot_insert(struct ios_bt_node *n, unsigned pos, uint64_t key, void *ptr)
{
	memmove(&n->key[pos + 1], &n->key[pos], (n->nr - pos) * sizeof(n->key[0]));
	memmove(&n->p.val[pos + 1], &n->p.val[pos], (n->nr - pos) * sizeof(n->p.val[0]));
	n->key[pos] = key;
	n->p.val[pos] = ptr;
	n->nr++;
}

static void slot_remove(struct ios_bt_node *n, unsigned pos)
{
	memmove(&n->key[pos], &n->key[pos + 1], (n->nr - pos - 1) * sizeof(n->key[0]));
	memmove(&n->p.val[pos], &n->p.val[pos + 1], (n->nr - pos - 1) * sizeof(n->p.val[0]));
	n->nr--;
}

/*
 * Put (key, ptr) at @pos of @n. When @n is full it splits: the upper half
 * moves to a new right sibling, which is returned with its separator in
 * *sep; otherwise NULL.
 */
static struct ios_bt_node *node_insert(struct ios_btree *t, struct ios_bt_node *n, unsigned pos,
				       uint64_t key, void *ptr, uint64_t *sep)
{
	struct ios_bt_node *r;
	unsigned half = (F + 1) / 2;

	if (n->nr < F) {
		slot_insert(n, pos, key, ptr);
		return NULL;
	}
	r = node_get(t, n->leaf);
	/* n keeps the lower `half` of the F + 1 entries, r the rest */
	if (pos < half) {
		r->nr = (uint16_t)(F - (half - 1));
		memcpy(r->key, &n->key[half - 1], r->nr * sizeof(r->key[0]));
		memcpy(r->p.val, &n->p.val[half - 1], r->nr * sizeof(r->p.val[0]));
		n->nr = (uint16_t)(half - 1);
		slot_insert(n, pos, key, ptr);
	} else {
		r->nr = (uint16_t)(F - half);
		memcpy(r->key, &n->key[half], r->nr * sizeof(r->key[0]));
		memcpy(r->p.val, &n->p.val[half], r->nr * sizeof(r->p.val[0]));
		n->nr = (uint16_t)half;
		slot_insert(r, pos - half, key, ptr);
	}
	if (n->leaf) {
		r->next = n->next;
		r->prev = n;
		if (n->next)
			n->next->prev = r;
		n->next = r;
	}
	*sep = r->key[0];
	return r;
}

int ios_btree_insert(struct ios_btree *t, uint64_t key, void *val)
{
	struct ios_bt_node *path[MAX_HEIGHT], *n, *r;
	unsigned idx[MAX_HEIGHT], pos, need, l;
	uint64_t sep;
	void *ptr;

	if (!t->root) {
		if (reserve(t, 1))
			return -ENOMEM;
		n = node_get(t, true);
		n->key[0] = key;
		n->p.val[0] = val;
		n->nr = 1;
		t->root = n;
		t->height = 1;
		t->count = 1;
		return 0;
	}
	n = t->root;
	for (l = 0; l + 1 < t->height; l++) {
		path[l] = n;
		idx[l] = route(n, key);
		n = n->p.child[idx[l]];
	}
	pos = lower_bound(n, key);
	if (pos < n->nr && n->key[pos] == key)
		return -EEXIST;
	/* count the splits first so that a failed allocation changes nothing */
	need = 0;
	if (n->nr == F) {
		need = 1;
		for (l = t->height - 1; l-- > 0 && path[l]->nr == F;)
			need++;
		if (need == t->height)
			need++;		/* a new root */
	}
	if (need && reserve(t, need))
		return -ENOMEM;

	t->count++;
	ptr = val;
	for (l = t->height - 1;; l--) {
		r = node_insert(t, n, pos, key, ptr, &sep);
		if (!r)
			return 0;
		if (l == 0)
			break;
		n = path[l - 1];
		pos = idx[l - 1] + 1;
		key = sep;
		ptr = r;
	}
	/* the root split */
	n = node_get(t, false);
	n->nr = 2;
	n->key[0] = 0;
	n->p.child[0] = t->root;
	n->key[1] = sep;
	n->p.child[1] = r;
	t->root = n;
	t->height++;
	return 0;
}

/* Move every entry of @r to the end of its left sibling @n, and free @r. */
static void node_merge(struct ios_btree *t, struct ios_bt_node *n, struct ios_bt_node *r,
		       uint64_t r_sep)
{
	/* r's first child is routed by the parent's separator, not r's key[0] */
	if (!r->leaf)
		r->key[0] = r_sep;
	memcpy(&n->key[n->nr], r->key, r->nr * sizeof(r->key[0]));
	memcpy(&n->p.val[n->nr], r->p.val, r->nr * sizeof(r->p.val[0]));
	n->nr = (uint16_t)(n->nr + r->nr);
	if (r->leaf) {
		n->next = r->next;
		if (r->next)
			r->next->prev = n;
	}
	node_put(t, r);
}

static void leaf_unlink(struct ios_bt_node *n)
{
	if (n->prev)
		n->prev->next = n->next;
	if (n->next)
		n->next->prev = n->prev;
}

void *ios_btree_remove(struct ios_btree *t, uint64_t key)
{
	struct ios_bt_node *path[MAX_HEIGHT], *n;
	unsigned idx[MAX_HEIGHT], pos, l;
	void *val;

	if (!t->root)
		return NULL;
	n = t->root;
	for (l = 0; l + 1 < t->height; l++) {
		path[l] = n;
		idx[l] = route(n, key);
		n = n->p.child[idx[l]];
	}
	pos = lower_bound(n, key);
	if (pos == n->nr || n->key[pos] != key)
		return NULL;
	val = n->p.val[pos];
	slot_remove(n, pos);
	t->count--;

	for (l = t->height - 1; l > 0; l--) {
		struct ios_bt_node *parent = path[l - 1], *s;
		unsigned i = idx[l - 1];

		if (n->nr == 0) {
			if (n->leaf)
				leaf_unlink(n);
			node_put(t, n);
			slot_remove(parent, i);
		} else if (n->nr < F / 4) {
			if (i + 1 < parent->nr &&
			    n->nr + (s = parent->p.child[i + 1])->nr <= F - F / 4) {
				node_merge(t, n, s, parent->key[i + 1]);
				slot_remove(parent, i + 1);
			} else if (i > 0 && (s = parent->p.child[i - 1])->nr + n->nr <= F - F / 4) {
				node_merge(t, s, n, parent->key[i]);
				slot_remove(parent, i);
			} else {
				break;
			}
		} else {
			break;
		}
		n = parent;
	}
	while (t->height > 1 && t->root->nr == 1) {
		n = t->root;
		t->root = n->p.child[0];
		node_put(t, n);
		t->height--;
	}
	if (t->root->nr == 0) {
		node_put(t, t->root);
		t->root = NULL;
		t->height = 0;
	}
	return val;
}

static const struct ios_bt_node *find_leaf(const struct ios_btree *t, uint64_t key)
{
	const struct ios_bt_node *n = t->root;

	for (unsigned l = 1; l < t->height; l++)
		n = n->p.child[route(n, key)];
	return n;
}

void *ios_btree_find(const struct ios_btree *t, uint64_t key)
{
	const struct ios_bt_node *n;
	unsigned pos;

	if (!t->root)
		return NULL;
	n = find_leaf(t, key);
	pos = lower_bound(n, key);
	return pos < n->nr && n->key[pos] == key ? n->p.val[pos] : NULL;
}

void ios_btree_around(const struct ios_btree *t, uint64_t key, struct ios_bt_entry *pred,
		      struct ios_bt_entry *exact, struct ios_bt_entry *succ)
{
	const struct ios_bt_node *n;
	unsigned pos, s;
	bool hit;

	if (pred)
		pred->val = NULL;
	if (exact)
		exact->val = NULL;
	if (succ)
		succ->val = NULL;
	if (!t->root)
		return;
	/* keys in earlier leaves are < key, in later ones > key (routing) */
	n = find_leaf(t, key);
	pos = lower_bound(n, key);
	hit = pos < n->nr && n->key[pos] == key;
	if (exact && hit) {
		exact->key = key;
		exact->val = n->p.val[pos];
	}
	if (pred) {
		if (pos > 0) {
			pred->key = n->key[pos - 1];
			pred->val = n->p.val[pos - 1];
		} else if (n->prev) {
			pred->key = n->prev->key[n->prev->nr - 1];
			pred->val = n->prev->p.val[n->prev->nr - 1];
		}
	}
	if (succ) {
		s = hit ? pos + 1 : pos;
		if (s < n->nr) {
			succ->key = n->key[s];
			succ->val = n->p.val[s];
		} else if (n->next) {
			succ->key = n->next->key[0];
			succ->val = n->next->p.val[0];
		}
	}
}

int ios_btree_walk(const struct ios_btree *t, int (*fn)(void *arg, uint64_t key, void *val),
		   void *arg)
{
	const struct ios_bt_node *n = t->root;
	int ret;

	if (!n)
		return 0;
	while (!n->leaf)
		n = n->p.child[0];
	for (; n; n = n->next)
		for (unsigned i = 0; i < n->nr; i++)
			if ((ret = fn(arg, n->key[i], n->p.val[i])) != 0)
				return ret;
	return 0;
}

static void free_subtree(struct ios_bt_node *n)
{
	if (!n->leaf)
		for (unsigned i = 0; i < n->nr; i++)
			free_subtree(n->p.child[i]);
	free(n);
}

void ios_btree_destroy(struct ios_btree *t)
{
	struct ios_bt_node *n, *next;

	if (t->root)
		free_subtree(t->root);
	for (n = t->free; n; n = next) {
		next = n->next;
		free(n);
	}
	ios_btree_init(t);
}

/* ---- structure check (tests) ---- */

struct check {
	const struct ios_bt_node *last_leaf;
	uint64_t last_key;
	bool any;
	size_t count;
	const char *why;
};

static int check_node(const struct ios_bt_node *n, unsigned depth, unsigned height, bool has_lo,
		      uint64_t lo, bool has_hi, uint64_t hi, bool is_root, struct check *c)
{
	if (n->nr == 0 || n->nr > F)
		return c->why = "node entry count out of range", -EINVAL;
	if (!is_root && !n->leaf && n->nr < 1)
		return c->why = "internal node without children", -EINVAL;
	if (n->leaf != (depth + 1 == height))
		return c->why = "leaves at different depths", -EINVAL;
	if (n->leaf) {
		if (n->prev != c->last_leaf)
			return c->why = "leaf prev link broken", -EINVAL;
		if (c->last_leaf && c->last_leaf->next != n)
			return c->why = "leaf next link broken", -EINVAL;
		c->last_leaf = n;
		for (unsigned i = 0; i < n->nr; i++) {
			if (c->any && n->key[i] <= c->last_key)
				return c->why = "keys out of order", -EINVAL;
			if ((has_lo && n->key[i] < lo) || (has_hi && n->key[i] >= hi))
				return c->why = "key outside its separators", -EINVAL;
			c->last_key = n->key[i];
			c->any = true;
			c->count++;
		}
		return 0;
	}
	for (unsigned i = 0; i < n->nr; i++) {
		bool clo = i > 0 ? true : has_lo, chi = i + 1 < n->nr ? true : has_hi;
		uint64_t cl = i > 0 ? n->key[i] : lo, ch = i + 1 < n->nr ? n->key[i + 1] : hi;

		if (i > 1 && n->key[i] <= n->key[i - 1])
			return c->why = "separators out of order", -EINVAL;
		if (check_node(n->p.child[i], depth + 1, height, clo, cl, chi, ch, false, c))
			return -EINVAL;
	}
	return 0;
}

int ios_btree_check(const struct ios_btree *t, const char **why)
{
	struct check c = { 0 };

	*why = NULL;
	if (!t->root) {
		if (t->count || t->height)
			return *why = "empty tree with a count or height", -EINVAL;
		return 0;
	}
	if (check_node(t->root, 0, t->height, false, 0, false, 0, true, &c)) {
		*why = c.why;
		return -EINVAL;
	}
	if (c.last_leaf && c.last_leaf->next)
		return *why = "last leaf has a next link", -EINVAL;
	if (c.count != t->count)
		return *why = "entry count differs from the tree's count", -EINVAL;
	if (t->height > 1 && t->root->nr < 2)
		return *why = "internal root with one child", -EINVAL;
	return 0;
}
