/*
 * Metadata over the limit (src/block/blk_throttle.c): Linux 6.12's
 * __blk_throtl_bio lets a bio_issue_as_root_blkg bio (REQ_META; the lab
 * has no swap) go at once when it is over its group's limit and records the
 * debt in the carryover (tg_dispatch_in_debt: its bytes, one I/O), which
 * later bios then wait for; 6.6 queues it behind the limit like any other.
 * test_meta_612 fails without the exemption or without the debt;
 * test_meta_66 fails if 6.6 exempts it.
 */
#include "throtl_rig.h"

static int test_meta_612(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	struct ios_throtl_grp_view v;
	unsigned g, m, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 0, 0, 250, 0);	/* 5 per slice */
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		tr_bio(t, g, IOS_READ, 4096, 0);
	m = tr_bio_ex(t, g, IOS_READ, 4096, 4096, false, IOS_REQ_META, 0);
	T_ASSERT(!tr_held(t, m));
	v = tr_view(t, g, IOS_READ);
	T_ASSERT_EQ(v.carryover_ios, -1);
	T_ASSERT_EQ(v.io_disp, 5);
	/*
	 * at jiffy 5 the slice has allowed 5 + 5 = 10 minus the debt: 4 more
	 * go, the fifth waits for the next slice
	 */
	for (unsigned i = 0; i < 4; i++)
		T_ASSERT(!tr_held(t, tr_bio(t, g, IOS_READ, 4096, tr_ns(t, 5))));
	b = tr_bio(t, g, IOS_READ, 4096, tr_ns(t, 5));
	T_ASSERT(tr_held(t, b));
	tr_free(t);
	return T_PASS;
}

static int test_meta_66(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_6, 250, 0);
	unsigned g, m;

	T_ASSERT(t);
	g = tr_group(t, 0, 0, 0, 50, 0);	/* 50 x 25 / 250 = 5 per 100 ms slice */
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		tr_bio(t, g, IOS_READ, 4096, 0);
	m = tr_bio_ex(t, g, IOS_READ, 4096, 4096, false, IOS_REQ_META, 0);
	T_ASSERT(tr_held(t, m));
	T_ASSERT_EQ(tr_view(t, g, IOS_READ).carryover_ios, 0);
	tr_run(t, tr_ns(t, 25));
	T_ASSERT(!tr_held(t, m));
	tr_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_meta_612, test_meta_66);
}
