/*
 * Description: the augmented red-black tree (ios_rb_insert_augmented,
 * ios_rb_erase_augmented) keeps the red-black invariants and every node's
 * augmented value (the smallest "start" in its subtree, as BFQ's min_start)
 * equal to a brute-force recomputation, after every operation of a long
 * random insert/erase sequence with a fixed seed and many equal keys. The
 * same sequence run on a plain tree (ios_rb_add, ios_rb_erase) gives the
 * same shape and colours node for node, so switching a user from a plain to
 * an augmented tree changes neither the order of equal keys nor anything
 * that depends on the shape.
 */
#include "harness.h"

struct item {
	struct ios_rb_node node;	/* in the augmented tree */
	struct ios_rb_node plain;	/* the same item in the plain tree */
	uint64_t key;
	uint64_t start;
	uint64_t min_start;		/* augmented: min start in the subtree */
	bool in;
};

static struct item *aug_item(const struct ios_rb_node *n)
{
	return ios_rb_entry(n, struct item, node);
}

static uint64_t calc_min(const struct ios_rb_node *n)
{
	uint64_t m = aug_item(n)->start;

	if (n->left && aug_item(n->left)->min_start < m)
		m = aug_item(n->left)->min_start;
	if (n->right && aug_item(n->right)->min_start < m)
		m = aug_item(n->right)->min_start;
	return m;
}

static unsigned nr_propagate, nr_copy, nr_rotate;

static void cb_propagate(struct ios_rb_node *n, struct ios_rb_node *stop)
{
	nr_propagate++;
	for (; n != stop; n = n->parent) {
		uint64_t m = calc_min(n);

		if (aug_item(n)->min_start == m)
			break;
		aug_item(n)->min_start = m;
	}
}

static void cb_copy(struct ios_rb_node *old, struct ios_rb_node *new)
{
	nr_copy++;
	aug_item(new)->min_start = aug_item(old)->min_start;
}

static void cb_rotate(struct ios_rb_node *old, struct ios_rb_node *new)
{
	nr_rotate++;
	aug_item(new)->min_start = aug_item(old)->min_start;
	aug_item(old)->min_start = calc_min(old);
}

static const struct ios_rb_augment_callbacks cb = { cb_propagate, cb_copy, cb_rotate };

static bool plain_less(const struct ios_rb_node *a, const struct ios_rb_node *b)
{
	return ios_rb_entry(a, struct item, plain)->key < ios_rb_entry(b, struct item, plain)->key;
}

static void aug_insert(struct ios_rb_root *root, struct item *it)
{
	struct ios_rb_node **link = &root->node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < aug_item(parent)->key ? &parent->left : &parent->right;
	}
	ios_rb_link(&it->node, parent, link);
	it->min_start = it->start;
	for (struct ios_rb_node *n = parent; n && aug_item(n)->min_start > it->start; n = n->parent)
		aug_item(n)->min_start = it->start;
	ios_rb_insert_augmented(&it->node, root, &cb);
}

/*
 * Black height of @n's subtree, or -1 on any fault: a wrong parent link, a
 * red node with a red child, unequal black heights, keys out of order, or
 * an augmented value other than the brute-force minimum (*min gets it).
 */
static int check(const struct ios_rb_node *n, const struct ios_rb_node *parent, uint64_t *min)
{
	uint64_t lm = UINT64_MAX, rm = UINT64_MAX, m;
	int l, r;

	if (!n)
		return 1;
	if (n->parent != parent)
		return -1;
	if (n->red && ((n->left && n->left->red) || (n->right && n->right->red)))
		return -1;
	if (n->left && aug_item(n->left)->key > aug_item(n)->key)
		return -1;
	if (n->right && aug_item(n->right)->key < aug_item(n)->key)
		return -1;
	l = check(n->left, n, &lm);
	r = check(n->right, n, &rm);
	if (l < 0 || r < 0 || l != r)
		return -1;
	m = aug_item(n)->start;
	m = lm < m ? lm : m;
	m = rm < m ? rm : m;
	if (aug_item(n)->min_start != m)
		return -1;
	*min = m;
	return l + (n->red ? 0 : 1);
}

/* The two trees hold the same items in the same places with the same colours. */
static bool same_shape(const struct ios_rb_node *a, const struct ios_rb_node *p)
{
	if (!a || !p)
		return !a && !p;
	if (aug_item(a) != ios_rb_entry(p, struct item, plain) || a->red != p->red)
		return false;
	return same_shape(a->left, p->left) && same_shape(a->right, p->right);
}

#define N 1200
#define OPS 30000

static int test_random_against_bruteforce(void)
{
	static struct item items[N];
	struct ios_rb_root aug = IOS_RB_ROOT, plain = IOS_RB_ROOT;
	struct ios_rand r;
	size_t count = 0, max_count = 0;
	uint64_t min;

	ios_rand_seed(&r, 13, 7);
	for (unsigned op = 0; op < OPS; op++) {
		struct item *it = &items[ios_rand_below(&r, N)];

		/* grow for the first third, then hover: both deep and shallow trees */
		if (!it->in && (op < OPS / 3 || ios_rand_below(&r, 2))) {
			it->key = ios_rand_below(&r, 64);	/* many equal keys */
			it->start = ios_rand_below(&r, 1u << 20);
			aug_insert(&aug, it);
			ios_rb_add(&it->plain, &plain, plain_less);
			it->in = true;
			count++;
		} else if (it->in) {
			ios_rb_erase_augmented(&it->node, &aug, &cb);
			ios_rb_erase(&it->plain, &plain);
			T_ASSERT(ios_rb_unlinked(&it->node));
			it->in = false;
			count--;
		}
		max_count = count > max_count ? count : max_count;
		T_ASSERT_MSG(!aug.node || !aug.node->red, "red root after op %u", op);
		T_ASSERT_MSG(check(aug.node, NULL, &min) > 0, "invariant broken after op %u", op);
		T_ASSERT_MSG(same_shape(aug.node, plain.node), "shape differs after op %u", op);
	}
	T_ASSERT(max_count > N / 2);
	/* the callbacks were exercised, all three kinds */
	T_ASSERT(nr_rotate > 1000 && nr_copy > 100 && nr_propagate > 1000);
	/* in-order: equal keys in insertion order, as in the plain tree */
	{
		struct ios_rb_node *a = ios_rb_first(&aug), *p = ios_rb_first(&plain);
		size_t seen = 0;

		for (; a && p; a = ios_rb_next(a), p = ios_rb_next(p), seen++)
			T_ASSERT(aug_item(a) == ios_rb_entry(p, struct item, plain));
		T_ASSERT(!a && !p && seen == count);
	}
	/* empty it completely, checking all the way */
	for (unsigned i = 0; i < N; i++) {
		if (!items[i].in)
			continue;
		ios_rb_erase_augmented(&items[i].node, &aug, &cb);
		items[i].in = false;
		T_ASSERT(check(aug.node, NULL, &min) > 0);
	}
	T_ASSERT(ios_rb_empty(&aug));
	return T_PASS;
}

/* The smallest start in the tree is the root's value: BFQ's vtime jump. */
static int test_root_holds_minimum(void)
{
	static struct item items[64];
	struct ios_rb_root aug = IOS_RB_ROOT;

	for (unsigned i = 0; i < 64; i++) {
		items[i].key = 64 - i;
		items[i].start = 1000 + ((i * 37) % 64);
		aug_insert(&aug, &items[i]);
	}
	T_ASSERT_U64_EQ(aug_item(aug.node)->min_start, 1000);
	/* 37 is odd, so the starts are 1000..1063 once each: without i = 0, 1001 */
	ios_rb_erase_augmented(&items[0].node, &aug, &cb);
	{
		uint64_t want = UINT64_MAX;

		for (unsigned i = 1; i < 64; i++)
			want = items[i].start < want ? items[i].start : want;
		T_ASSERT_U64_EQ(aug_item(aug.node)->min_start, want);
		T_ASSERT_U64_EQ(want, 1001);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_random_against_bruteforce, test_root_holds_minimum);
}
