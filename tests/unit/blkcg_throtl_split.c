/*
 * Split bios under io.max (src/block/blk_throttle.c; Linux 6.12
 * throtl_charge_bio and blk_should_throtl): a bio's bytes are charged once
 * (the remainder of a split carries BIO_BPS_THROTTLED), its I/O count once
 * per piece. In the lab a task splits a large I/O itself (plan §7): the
 * first piece carries the whole I/O's bytes, the later ones are flagged.
 * test_bps_once fails if bytes are charged per piece; test_iops_per_piece
 * fails if the later pieces are not counted (or are not held once over the
 * iops limit); test_bps_only_skips fails if a bps-only group looks at the
 * flagged pieces at all (blk_should_throtl lets them by). test_real_queue:
 * a released bio reaches the device through the real blk-mq submit path.
 */
#include "throtl_rig.h"

static int test_bps_once(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	struct ios_throtl_grp_view v;
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 0, 10485760, 0, 100000);	/* 209715 bytes, 2000 I/Os per slice */
	T_ASSERT(!tr_start(t, 0));
	/* a 128 KiB write in four 32 KiB pieces */
	T_ASSERT(!tr_held(t, tr_bio_ex(t, g, IOS_WRITE, 32768, 131072, false, 0, 0)));
	for (unsigned i = 0; i < 3; i++)
		T_ASSERT(!tr_held(t, tr_bio_ex(t, g, IOS_WRITE, 32768, 32768, true, 0, 0)));
	v = tr_view(t, g, IOS_WRITE);
	T_ASSERT_EQ(v.bytes_disp, 131072);
	T_ASSERT_EQ(v.io_disp, 4);
	/* the next 128 KiB write's first piece is over (262144 > 209715) and waits */
	b = tr_bio_ex(t, g, IOS_WRITE, 32768, 131072, false, 0, 0);
	T_ASSERT(tr_held(t, b));
	tr_free(t);
	return T_PASS;
}

static int test_iops_per_piece(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned g, b;

	T_ASSERT(t);
	g = tr_group(t, 0, 0, 0, 500, 0);		/* 500 x 5 / 250 = 10 per slice */
	T_ASSERT(!tr_start(t, 0));
	T_ASSERT(!tr_held(t, tr_bio_ex(t, g, IOS_READ, 4096, 40960, false, 0, 0)));
	for (unsigned i = 1; i < 10; i++)
		T_ASSERT(!tr_held(t, tr_bio_ex(t, g, IOS_READ, 4096, 4096, true, 0, 0)));
	T_ASSERT_EQ(tr_view(t, g, IOS_READ).io_disp, 10);
	b = tr_bio_ex(t, g, IOS_READ, 4096, 4096, true, 0, 0);
	T_ASSERT(tr_held(t, b));
	tr_free(t);
	return T_PASS;
}

static int test_bps_only_skips(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned g;

	T_ASSERT(t);
	g = tr_group(t, 0, 1048576, 0, 0, 0);
	T_ASSERT(!tr_start(t, 0));
	tr_bio_ex(t, g, IOS_READ, 4096, 16384, false, 0, 0);
	for (unsigned i = 0; i < 3; i++)
		tr_bio_ex(t, g, IOS_READ, 4096, 4096, true, 0, 0);
	T_ASSERT_EQ(tr_view(t, g, IOS_READ).io_disp, 1);
	T_ASSERT_EQ(tr_view(t, g, IOS_READ).bytes_disp, 16384);
	tr_free(t);
	return T_PASS;
}

static int test_real_queue(void)
{
	struct tr *t = tr_new(&ios_throtl_profile_6_12, 250, 0);
	unsigned g, b;

	T_ASSERT(t);
	t->forward = true;
	g = tr_group(t, 0, 0, 0, 250, 0);		/* 5 per slice */
	T_ASSERT(!tr_start(t, 0));
	for (unsigned i = 0; i < 5; i++)
		tr_bio(t, g, IOS_READ, 4096, 0);
	b = tr_bio(t, g, IOS_READ, 4096, 0);
	T_ASSERT(tr_held(t, b));
	T_ASSERT_EQ(t->m->nr_issued, 5);
	tr_run(t, tr_ns(t, 5));
	T_ASSERT(!tr_held(t, b));
	T_ASSERT_EQ(t->m->nr_issued, 6);
	T_ASSERT_EQ(t->m->issued[5]->sector, t->bios[b].sector);
	tr_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_bps_once, test_iops_per_piece, test_bps_only_skips, test_real_queue);
}
