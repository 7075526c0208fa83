/*
 * Description: the string map finds every key added, with its value and
 * tag, through growth from empty to 100k keys; misses absent keys,
 * including prefixes and keys with embedded NULs; keys are copied (the
 * caller's buffer may change); the FNV-1a hash has its published values.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "iosched/strmap.h"

static void *val(size_t i)
{
	return (void *)(uintptr_t)(i * 2 + 1);
}

static int test_grow_and_find(void)
{
	struct ios_strmap m = IOS_STRMAP_INIT;
	char key[32];
	void *v;
	unsigned tag;

	T_ASSERT(!ios_strmap_find(&m, "a", 1, &v, &tag));
	for (size_t i = 0; i < 100000; i++) {
		int n = snprintf(key, sizeof(key), "job.%zu.file", i);

		T_ASSERT_EQ(ios_strmap_add(&m, key, (size_t)n, (unsigned)(i % 3), val(i)), 0);
	}
	T_ASSERT_EQ(m.nr, 100000);
	T_ASSERT(m.cap >= 2 * m.nr);
	for (size_t i = 0; i < 100000; i += 7) {
		int n = snprintf(key, sizeof(key), "job.%zu.file", i);

		v = NULL;
		T_ASSERT(ios_strmap_find(&m, key, (size_t)n, &v, &tag));
		T_ASSERT(v == val(i));
		T_ASSERT_EQ(tag, i % 3);
	}
	T_ASSERT(!ios_strmap_find(&m, "job.1.fil", 9, NULL, NULL));
	T_ASSERT(!ios_strmap_find(&m, "job.100000.file", 15, NULL, NULL));
	ios_strmap_free(&m);
	T_ASSERT_EQ(m.nr, 0);
	T_ASSERT(!ios_strmap_find(&m, "job.1.file", 10, NULL, NULL));
	return T_PASS;
}

static int test_keys_are_bytes_and_copied(void)
{
	struct ios_strmap m = IOS_STRMAP_INIT;
	char buf[8] = "a\0b";
	void *v;

	T_ASSERT_EQ(ios_strmap_add(&m, buf, 3, 1, val(1)), 0);
	T_ASSERT_EQ(ios_strmap_add(&m, buf, 1, 2, val(2)), 0);
	buf[0] = 'z';
	T_ASSERT(ios_strmap_find(&m, "a\0b", 3, &v, NULL) && v == val(1));
	T_ASSERT(ios_strmap_find(&m, "a", 1, &v, NULL) && v == val(2));
	T_ASSERT(!ios_strmap_find(&m, "z\0b", 3, NULL, NULL));
	ios_strmap_free(&m);
	/* FNV-1a 64 test vectors */
	T_ASSERT_U64_EQ(ios_strmap_hash("", 0), 0xcbf29ce484222325ull);
	T_ASSERT_U64_EQ(ios_strmap_hash("a", 1), 0xaf63dc4c8601ec8cull);
	T_ASSERT_U64_EQ(ios_strmap_hash("foobar", 6), 0x85944171f73967e8ull);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_grow_and_find, test_keys_are_bytes_and_copied);
}
