/*
 * io.max is hierarchical on cgroup v2 (src/block/blk_throttle.c; Linux 6.12
 * throtl_pd_init's parent_sq, tg_update_has_rules, __blk_throtl_bio's climb,
 * tg_dispatch_one_bio, throtl_pop_queued): a bio within its group's limit
 * climbs to the parent and is checked there; a parent's limit holds its
 * children (which have no limit of their own but inherit has_rules); the
 * parent's queue serves its children's bios round-robin per child (one
 * qnode each), FIFO within a child. test_parent_limits_children fails if
 * bios do not climb or children do not inherit has_rules;
 * test_round_robin fails with one FIFO per parent; test_child_limit fails
 * if a child's own limit is not applied under an unlimited parent.
 */
#include "throtl_rig.h"

static int test_parent_limits_children(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned p, a, b, n = 0;

	T_ASSERT(t);
	p = tr_group(t, 0, 1048576, 0, 0, 0);	/* 20971 bytes per slice for the subtree */
	a = tr_group(t, p, 0, 0, 0, 0);
	b = tr_group(t, p, 0, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 4; i++) {
		n += !tr_held(t, tr_bio(t, a, IOS_READ, 4096, 0));
		n += !tr_held(t, tr_bio(t, b, IOS_READ, 4096, 0));
	}
	T_ASSERT_EQ(n, 5);
	T_ASSERT_EQ(tr_view(t, p, IOS_READ).bytes_disp, 20480);
	T_ASSERT_EQ(tr_view(t, p, IOS_READ).nr_queued, 3);
	/* the three waiting go on as the parent's later slices allow */
	tr_run(t, IOS_NSEC_PER_SEC);
	T_ASSERT_EQ(t->nr_released, 3);
	tr_free(t);
	return T_PASS;
}

static int test_round_robin(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned p, a, b, ids[5];

	T_ASSERT(t);
	p = tr_group(t, 0, 0, 0, 250, 0);	/* 5 per slice */
	a = tr_group(t, p, 0, 0, 0, 0);
	b = tr_group(t, p, 0, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		T_ASSERT(!tr_held(t, tr_bio(t, a, IOS_READ, 4096, 0)));
	for (unsigned i = 0; i < 4; i++)
		ids[i] = tr_bio(t, a, IOS_READ, 4096, 0);	/* a6..a9 wait at p */
	ids[4] = tr_bio(t, b, IOS_READ, 4096, 0);		/* b1 behind them */
	T_ASSERT(tr_held(t, ids[4]));
	tr_run(t, tr_ns(t, 5));
	T_ASSERT_EQ(t->nr_released, 5);
	/* p serves a's qnode, then b's, then a's again */
	T_ASSERT(t->released[0] == &t->bios[ids[0]]);
	T_ASSERT(t->released[1] == &t->bios[ids[4]]);
	T_ASSERT(t->released[2] == &t->bios[ids[1]]);
	tr_free(t);
	return T_PASS;
}

static int test_child_limit(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned p, a, n = 0;

	T_ASSERT(t);
	p = tr_group(t, 0, 0, 0, 0, 0);
	a = tr_group(t, p, 0, 0, 250, 0);
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 8; i++)
		n += !tr_held(t, tr_bio(t, a, IOS_READ, 4096, 0));
	T_ASSERT_EQ(n, 5);
	T_ASSERT_EQ(tr_view(t, a, IOS_READ).nr_queued, 3);
	T_ASSERT_EQ(tr_view(t, p, IOS_READ).nr_queued, 0);
	tr_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_parent_limits_children, test_round_robin, test_child_limit);
}
