/*
 * Description: io.cost's hierarchical weights (Linux 6.12 blk-iocost.c
 * __propagate_weights, current_hweight, ioc_check_iocgs). A group's
 * hweight is the product, down from the root, of its active weight over
 * the sum of its active siblings' (WEIGHT_ONE = 65536 is the whole
 * device); only active groups count; a group with nothing issued in a
 * period and nothing in flight is deactivated at the period's end and its
 * share returns to the others. The cost of a bio scales with the inverse
 * of hweight_inuse.
 */
#include "iocost_rig.h"

/* a 4 KiB read of @g at @now; returns the bio */
static struct ios_iocost_bio *rd(struct c_rig *r, unsigned g, uint64_t now)
{
	struct ios_iocost_bio *b = c_bio(r, g, 8 * r->nr_pool, 8, IOS_READ);

	c_throttle(r, b, now);
	return b;
}

/* rule: siblings share by active weight; an inactive sibling is excluded */
static int test_one_level(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a, b;

	c_init(r);
	a = c_group(r, 0, 500);
	b = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	struct ios_iocost_bio *x = rd(r, a, 0);
	/* b inactive: a has the whole device */
	T_ASSERT_EQ(c_gstate(r, a).hweight_active, 65536);
	T_ASSERT_EQ(c_gstate(r, a).hweight_inuse, 65536);
	uint64_t alone = x->cost;
	rd(r, b, 0);
	T_ASSERT_EQ(c_gstate(r, a).hweight_active, 65536 * 500 / 600);
	T_ASSERT_EQ(c_gstate(r, b).hweight_active, 65536 * 100 / 600);
	T_ASSERT_EQ(c_gstate(r, a).active_w, 500u * 65536);
	/* the same bio now costs a 6/5 of the vtime (rounded up) */
	x = rd(r, a, 0);
	T_ASSERT_U64_EQ(x->cost, (alone * 65536 + 54613 - 1) / 54613);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: two levels multiply; the internal node's weight is its own, not its children's */
static int test_two_levels(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned p, x, y, q;

	c_init(r);
	p = c_group(r, 0, 100);
	x = c_group(r, p, 100);
	y = c_group(r, p, 300);
	q = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	rd(r, x, 0);
	rd(r, y, 0);
	rd(r, q, 0);
	/* p and q half each; y 3/4 of p's half */
	T_ASSERT_EQ(c_gstate(r, y).hweight_active, 65536 / 2 * 300 / 400);
	T_ASSERT_EQ(c_gstate(r, x).hweight_active, 65536 / 2 * 100 / 400);
	T_ASSERT_EQ(c_gstate(r, q).hweight_active, 65536 / 2);
	/* p is not itself active: its weight is carried up by its children */
	T_ASSERT(!c_gstate(r, p).active);
	T_ASSERT_EQ(c_gstate(r, p).active_w, 100u * 65536);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: iocg_is_idle + deactivation in ioc_check_iocgs; the generation counter refreshes hweights */
static int test_deactivation(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a, b;

	c_init(r);
	a = c_group(r, 0, 100);
	b = c_group(r, 0, 300);
	T_ASSERT(!c_start(r, 1, 0));
	struct ios_iocost_bio *ba = rd(r, a, 0);
	rd(r, b, 0);
	T_ASSERT_EQ(c_gstate(r, a).hweight_active, 65536 / 4);
	/* a's bio completes; b keeps issuing every period */
	ios_iocost_done_bio(r->ioc, ba);
	uint64_t t = ios_iocost_next_timer(r->ioc);
	T_ASSERT_U64_EQ(t, 50 * C_MS);	/* SSD_DFL: 2 x 25 ms, lab.hz 0 here */
	ios_iocost_timer(r->ioc, t);
	/* a issued in the first period: still active */
	T_ASSERT(c_gstate(r, a).active);
	rd(r, b, t + 1);
	t = ios_iocost_next_timer(r->ioc);
	ios_iocost_timer(r->ioc, t);
	/* a period with nothing from a and nothing in flight: a leaves */
	T_ASSERT(!c_gstate(r, a).active);
	T_ASSERT(c_gstate(r, b).active);
	T_ASSERT_EQ(c_gstate(r, b).hweight_active, 65536);
	/* a group with a bio in flight is not idle */
	struct ios_iocost_bio *bb = rd(r, b, t + 1);
	(void)bb;
	t = ios_iocost_next_timer(r->ioc);
	ios_iocost_timer(r->ioc, t);
	t = ios_iocost_next_timer(r->ioc);
	ios_iocost_timer(r->ioc, t);
	T_ASSERT(c_gstate(r, b).active);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_one_level, test_two_levels, test_deactivation);
}
