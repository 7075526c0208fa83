/*
 * Description: what io.cost never charges (Linux 6.12 blk-iocost.c
 * ioc_rqos_throttle, iocg_activate): bios of the root cgroup (level 0);
 * bios of an internal group whose descendants are active ("treat as root
 * level IOs"); and, leaves only, bios of a group under an active ancestor.
 * They go at once, cost nothing, and do not start the period timer.
 */
#include "iocost_rig.h"

/* rule: the root's bios bypass */
static int test_root(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));

	c_init(r);
	c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	for (int i = 0; i < 10000; i++) {
		struct ios_iocost_bio *b = c_bio(r, 0, (uint64_t)i * 1000000, 2048, IOS_WRITE);

		T_ASSERT_EQ(c_throttle(r, b, 0), 0);
		T_ASSERT_U64_EQ(b->cost, 0);
	}
	T_ASSERT(!c_state(r, 0).running);
	T_ASSERT_U64_EQ(ios_iocost_next_timer(r->ioc), UINT64_MAX);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: an internal node with active children bypasses; a leaf under an active ancestor too */
static int test_internal(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	struct ios_iocost_bio *b;
	unsigned p, x, q, y;

	c_init(r);
	p = c_group(r, 0, 100);
	x = c_group(r, p, 100);
	q = c_group(r, 0, 100);
	y = c_group(r, q, 100);
	T_ASSERT(!c_start(r, 1, 0));
	b = c_bio(r, x, 0, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT(b->cost > 0);
	/* p's own bio while x is active: uncharged, p stays inactive */
	b = c_bio(r, p, 0, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT_U64_EQ(b->cost, 0);
	T_ASSERT(!c_gstate(r, p).active);
	/* q issues first and is a leaf then; y under active q is not charged */
	b = c_bio(r, q, 0, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT(b->cost > 0);
	b = c_bio(r, y, 0, 8, IOS_READ);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT_U64_EQ(b->cost, 0);
	T_ASSERT(!c_gstate(r, y).active);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_root, test_internal);
}
