/*
 * Description: the intrusive red-black tree keeps its invariants (no red
 * node with a red child, equal black height on every path, in-order keys)
 * through random inserts and erases, iterates in order both ways, keeps
 * insertion order among equal keys, and tracks the leftmost node in the
 * cached variant.
 */
#include "harness.h"

struct item {
	struct ios_rb_node node;
	uint64_t key;
	unsigned seq;
	bool in;
};

static bool item_less(const struct ios_rb_node *a, const struct ios_rb_node *b)
{
	return ios_rb_entry(a, struct item, node)->key < ios_rb_entry(b, struct item, node)->key;
}

/* returns black height or -1 on violation */
static int check(const struct ios_rb_node *n, const struct ios_rb_node *parent)
{
	int l, r;

	if (!n)
		return 1;
	if (n->parent != parent)
		return -1;
	if (n->red && ((n->left && n->left->red) || (n->right && n->right->red)))
		return -1;
	l = check(n->left, n);
	r = check(n->right, n);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + (n->red ? 0 : 1);
}

#define N 5000

static int test_random_insert_erase(void)
{
	static struct item items[N];
	struct ios_rb_root root = IOS_RB_ROOT;
	struct ios_rand r;
	size_t count = 0;

	ios_rand_seed(&r, 42, 1);
	for (unsigned i = 0; i < N; i++) {
		items[i].key = ios_rand_below(&r, 1000);
		items[i].seq = i;
		ios_rb_add(&items[i].node, &root, item_less);
		items[i].in = true;
		count++;
	}
	T_ASSERT(!root.node->red);
	T_ASSERT(check(root.node, NULL) > 0);
	for (int round = 0; round < 3; round++) {
		for (unsigned i = 0; i < N; i++) {
			if (ios_rand_below(&r, 2)) {
				if (items[i].in) {
					ios_rb_erase(&items[i].node, &root);
					T_ASSERT(ios_rb_unlinked(&items[i].node));
					items[i].in = false;
					count--;
				} else {
					items[i].seq = N + round * N + i;
					ios_rb_add(&items[i].node, &root, item_less);
					items[i].in = true;
					count++;
				}
			}
		}
		T_ASSERT(check(root.node, NULL) > 0);
	}
	/* in-order walk: sorted keys, equal keys in insertion order, right count */
	{
		size_t seen = 0;
		struct ios_rb_node *n;
		const struct item *prev = NULL;

		for (n = ios_rb_first(&root); n; n = ios_rb_next(n)) {
			const struct item *it = ios_rb_entry(n, struct item, node);

			if (prev) {
				T_ASSERT(prev->key <= it->key);
				if (prev->key == it->key)
					T_ASSERT(prev->seq < it->seq);
			}
			prev = it;
			seen++;
		}
		T_ASSERT_EQ(seen, count);
		seen = 0;
		for (n = ios_rb_last(&root); n; n = ios_rb_prev(n))
			seen++;
		T_ASSERT_EQ(seen, count);
	}
	return T_PASS;
}

static int test_cached_leftmost(void)
{
	static struct item items[200];
	struct ios_rb_root_cached root = IOS_RB_ROOT_CACHED;
	struct ios_rand r;

	ios_rand_seed(&r, 7, 2);
	for (unsigned i = 0; i < 200; i++) {
		items[i].key = ios_rand_below(&r, 50);
		items[i].seq = i;
		ios_rb_add_cached(&items[i].node, &root, item_less);
		T_ASSERT(ios_rb_first_cached(&root) == ios_rb_first(&root.rb));
	}
	for (unsigned i = 0; i < 200; i += 3) {
		ios_rb_erase_cached(&items[i].node, &root);
		T_ASSERT(ios_rb_first_cached(&root) == ios_rb_first(&root.rb));
	}
	while (root.leftmost)
		ios_rb_erase_cached(root.leftmost, &root);
	T_ASSERT(ios_rb_empty(&root.rb));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_random_insert_erase, test_cached_leftmost);
}
