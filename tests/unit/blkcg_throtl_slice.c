/*
 * io.max's slice (src/block/blk_throttle.c; Linux 6.12 blk_throtl_init:
 * DFL_THROTL_SLICE_SSD = HZ/50 on non-rotational queues, DFL_THROTL_SLICE_HD
 * = HZ/10 on rotational ones; 6.6 blk_throtl_register without io.low: HZ/10
 * on every queue). A fresh slice admits limit x slice at once, so the slice
 * is seen in how many 4 KiB reads an rbps=1 MiB/s group passes at time 0:
 * 20971 bytes (5 reads) per 20 ms slice, 104857 (25 reads) per 100 ms one.
 * Fails if the slice is the same on both device kinds in 6.12 (the first
 * two cases) or if 6.6 takes the SSD slice (the third).
 */
#include "throtl_rig.h"

static unsigned passed_at_zero(const struct ios_throtl_profile *p, unsigned hz, int rot,
			       unsigned *slice)
{
	struct tr *t = tr_new(p, hz, rot);
	unsigned g, n = 0;

	if (!t)
		return 0;
	g = tr_group(t, 0, 1048576, 0, 0, 0);
	if (tr_start(t, 0))
		return 0;
	*slice = ios_blk_throtl_slice(t->m->q);
	for (unsigned i = 0; i < 40; i++)
		n += !tr_held(t, tr_bio(t, g, IOS_READ, 4096, 0));
	tr_free(t);
	return n;
}

static int test_612_nonrot(void)
{
	unsigned slice = 0;

	T_ASSERT_EQ(passed_at_zero(&ios_throtl_profile_6_12, 250, 0, &slice), 5);
	T_ASSERT_EQ(slice, 5);		/* 20 ms at HZ 250 */
	T_ASSERT_EQ(passed_at_zero(&ios_throtl_profile_6_12, 1000, 0, &slice), 5);
	T_ASSERT_EQ(slice, 20);
	return T_PASS;
}

static int test_612_rot(void)
{
	unsigned slice = 0;

	T_ASSERT_EQ(passed_at_zero(&ios_throtl_profile_6_12, 250, 1, &slice), 25);
	T_ASSERT_EQ(slice, 25);		/* 100 ms */
	return T_PASS;
}

static int test_66_both(void)
{
	unsigned slice = 0;

	T_ASSERT_EQ(passed_at_zero(&ios_throtl_profile_6_6, 250, 0, &slice), 25);
	T_ASSERT_EQ(slice, 25);
	T_ASSERT_EQ(passed_at_zero(&ios_throtl_profile_6_6, 250, 1, &slice), 25);
	T_ASSERT_EQ(slice, 25);
	return T_PASS;
}

/* lab.kernel: auto follows the scheduler profile (plan Q2), an explicit value wins */
static int test_profile_choice(void)
{
	T_ASSERT(ios_throtl_profile_for(IOS_LAB_KERNEL_AUTO, "mq-deadline-6.6") ==
		 &ios_throtl_profile_6_6);
	T_ASSERT(ios_throtl_profile_for(IOS_LAB_KERNEL_AUTO, "none") == &ios_throtl_profile_6_12);
	T_ASSERT(ios_throtl_profile_for(IOS_LAB_KERNEL_AUTO, "bfq-6.12") == &ios_throtl_profile_6_12);
	T_ASSERT(ios_throtl_profile_for(IOS_LAB_KERNEL_6_6, "none") == &ios_throtl_profile_6_6);
	T_ASSERT(ios_throtl_profile_for(IOS_LAB_KERNEL_6_12, "mq-deadline-6.6") ==
		 &ios_throtl_profile_6_12);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_612_nonrot, test_612_rot, test_66_both, test_profile_choice);
}
