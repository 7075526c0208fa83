/*
 * Description: the B+tree map agrees with a reference (a presence array
 * over a small key space, and a sorted array for wide keys) through random
 * inserts, duplicate inserts and removals, at every step for small trees
 * and periodically for large ones: find, predecessor/exact/successor,
 * ordered walk, count, and the structure check (separators, leaf links,
 * equal depth). Grows past three levels and shrinks back to empty.
 */
#include <errno.h>
#include <string.h>
#include "harness.h"
#include "iosched/btree.h"

#define SPACE 4096

static void *tag(uint64_t k)
{
	return (void *)(uintptr_t)(k * 2 + 1);
}

struct walk_ref {
	const bool *in;
	uint64_t next;		/* the walk must visit keys in order from here */
	int bad;
	size_t seen;
};

static int walk_fn(void *arg, uint64_t key, void *val)
{
	struct walk_ref *w = arg;

	while (w->next < key && !w->in[w->next])
		w->next++;
	if (w->next != key || !w->in[key] || val != tag(key)) {
		w->bad = 1;
		return 1;
	}
	w->next = key + 1;
	w->seen++;
	return 0;
}

/* everything the tree says must match the presence array */
static int agree(const struct ios_btree *t, const bool *in, size_t count, struct ios_rand *r,
		 unsigned probes)
{
	const char *why;
	struct walk_ref w = { .in = in };

	if (ios_btree_check(t, &why)) {
		t_report(__FILE__, __LINE__, "structure: %s", why);
		return T_FAIL;
	}
	T_ASSERT_EQ(t->count, count);
	T_ASSERT_EQ(ios_btree_walk(t, walk_fn, &w), 0);
	T_ASSERT(!w.bad);
	T_ASSERT_EQ(w.seen, count);
	for (unsigned p = 0; p < probes; p++) {
		uint64_t k = ios_rand_below(r, SPACE + 2);
		struct ios_bt_entry pr, ex, su;
		int64_t a;
		uint64_t b;

		ios_btree_around(t, k, &pr, &ex, &su);
		T_ASSERT(ios_btree_find(t, k) == (k < SPACE && in[k] ? tag(k) : NULL));
		T_ASSERT(ex.val == (k < SPACE && in[k] ? tag(k) : NULL));
		for (a = (int64_t)(k < SPACE ? k : SPACE) - 1; a >= 0 && !in[a]; a--)
			;
		if (a < 0) {
			T_ASSERT(pr.val == NULL);
		} else {
			T_ASSERT_U64_EQ(pr.key, (uint64_t)a);
			T_ASSERT(pr.val == tag((uint64_t)a));
		}
		for (b = k + 1; b < SPACE && !in[b]; b++)
			;
		if (b >= SPACE) {
			T_ASSERT(su.val == NULL);
		} else {
			T_ASSERT_U64_EQ(su.key, b);
			T_ASSERT(su.val == tag(b));
		}
	}
	return T_PASS;
}

static int churn(unsigned steps, unsigned fill_pct, unsigned check_every)
{
	static bool in[SPACE];
	struct ios_btree t;
	struct ios_rand r;
	size_t count = 0;
	unsigned max_height = 0;

	memset(in, 0, sizeof(in));
	ios_btree_init(&t);
	ios_rand_seed(&r, 3, fill_pct);
	for (unsigned s = 0; s < steps; s++) {
		uint64_t k = ios_rand_below(&r, SPACE);
		/* drift the fill level: grow for the first half, then drain */
		bool grow = s < steps / 2 ? ios_rand_below(&r, 100) < fill_pct
					  : ios_rand_below(&r, 100) < 100 - fill_pct;

		if (grow) {
			int ret = ios_btree_insert(&t, k, tag(k));

			T_ASSERT_EQ(ret, in[k] ? -EEXIST : 0);
			if (!in[k])
				count++;
			in[k] = true;
		} else {
			void *v = ios_btree_remove(&t, k);

			T_ASSERT(v == (in[k] ? tag(k) : NULL));
			if (in[k])
				count--;
			in[k] = false;
		}
		if (t.height > max_height)
			max_height = t.height;
		if (s % check_every == 0 && agree(&t, in, count, &r, 8) != T_PASS)
			return T_FAIL;
	}
	if (agree(&t, in, count, &r, 200) != T_PASS)
		return T_FAIL;
	/* drain completely, in key order from the middle outwards */
	for (uint64_t k = 0; k < SPACE; k++) {
		uint64_t kk = (k + SPACE / 2) % SPACE;

		T_ASSERT(ios_btree_remove(&t, kk) == (in[kk] ? tag(kk) : NULL));
		in[kk] = false;
	}
	T_ASSERT(ios_btree_empty(&t));
	T_ASSERT_EQ(t.height, 0);
	T_ASSERT(agree(&t, in, 0, &r, 16) == T_PASS);
	ios_btree_destroy(&t);
	return max_height >= 3 || fill_pct < 60 ? T_PASS : T_FAIL;
}

static int test_small_checked_every_step(void)
{
	return churn(20000, 60, 1);
}

static int test_dense_grows_three_levels(void)
{
	return churn(60000, 80, 97);
}

static int test_sparse(void)
{
	return churn(20000, 30, 7);
}

/* sequential inserts (each a new maximum) and removals from the front */
static int test_sequential(void)
{
	static bool in[SPACE];
	struct ios_btree t;
	struct ios_rand r;

	memset(in, 0, sizeof(in));
	ios_btree_init(&t);
	ios_rand_seed(&r, 5, 0);
	for (uint64_t k = 0; k < SPACE; k++) {
		T_ASSERT_EQ(ios_btree_insert(&t, k, tag(k)), 0);
		in[k] = true;
	}
	T_ASSERT(agree(&t, in, SPACE, &r, 100) == T_PASS);
	for (uint64_t k = 0; k < SPACE - 10; k++) {
		T_ASSERT(ios_btree_remove(&t, k) == tag(k));
		in[k] = false;
	}
	T_ASSERT(agree(&t, in, 10, &r, 100) == T_PASS);
	T_ASSERT_EQ(t.height, 1);
	ios_btree_destroy(&t);
	return T_PASS;
}

/* full 64-bit keys, including 0 and UINT64_MAX */
static int test_wide_keys(void)
{
	static const uint64_t keys[] = { 0, 1, UINT64_MAX, UINT64_MAX - 1, 1ULL << 63, 12345 };
	struct ios_btree t;
	struct ios_bt_entry pr, ex, su;

	ios_btree_init(&t);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		T_ASSERT_EQ(ios_btree_insert(&t, keys[i], tag(i)), 0);
	T_ASSERT_EQ(ios_btree_insert(&t, UINT64_MAX, tag(0)), -EEXIST);
	ios_btree_around(&t, UINT64_MAX, &pr, &ex, &su);
	T_ASSERT(ex.val == tag(2) && pr.key == UINT64_MAX - 1 && su.val == NULL);
	ios_btree_around(&t, 0, &pr, &ex, &su);
	T_ASSERT(ex.val == tag(0) && pr.val == NULL && su.key == 1);
	ios_btree_around(&t, 1ULL << 62, &pr, &ex, &su);
	T_ASSERT(ex.val == NULL && pr.key == 12345 && su.key == 1ULL << 63);
	ios_btree_destroy(&t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_small_checked_every_step, test_dense_grows_three_levels, test_sparse,
		     test_sequential, test_wide_keys);
}
