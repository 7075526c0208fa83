/*
 * Merges into plugged requests (src/block/plug.c, src/block/merge.c; Linux
 * 6.12 blk_attempt_plug_merge, blk_attempt_bio_merge, blk_rq_merge_ok with
 * blk_cgroup_mergeable): a bio joins the newest plugged request of its
 * queue at the back or the front; only that one request is tried (older
 * plugged requests are walked past only when the plug spans queues); never
 * across cgroups; nomerges=2 tries nothing. Fake clock.
 */
#include "mq_rig.h"

static struct ios_cgroup cg_a = { .path = (char *)"a", .id = 1, .parent = &t_root_cgroup };
static struct ios_cgroup cg_b = { .path = (char *)"b", .id = 2, .parent = &t_root_cgroup };

/* Back and front merges into the plugged request (trace M, F); one request reaches the device. */
static int test_merge_into_plugged(void)
{
	struct m_rig *r = m_rig_new("none", 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(1, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	m_submit(r, ioc, 800, 8, IOS_WRITE, 0, 10);
	m_submit(r, ioc, 808, 8, IOS_WRITE, 0, 11);	/* back */
	m_submit(r, ioc, 792, 8, IOS_WRITE, 0, 12);	/* front */
	T_ASSERT_EQ(plug.rq_count, 1);
	T_ASSERT_EQ(r->q->nr_plug_merges, 2);
	T_ASSERT(strstr(r->trace, "QGPQMQF") != NULL);
	ios_blk_finish_plug(ioc, &plug, 20);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_EQ(r->issued[0]->sector, 792);
	T_ASSERT_EQ(r->issued[0]->nr_sectors, 24);
	T_ASSERT_EQ(r->issued[0]->nr_bios, 3);
	m_rig_free(r, 30);
	return T_PASS;
}

/*
 * Never across cgroups: two io contexts of different cgroups share one plug
 * (as a kernel thread writing back for several groups does); the adjacent
 * bio of the other group starts its own request.
 */
static int test_no_merge_across_cgroups(void)
{
	struct m_rig *r = m_rig_new("none", 8, 1, 1, NULL);
	struct ios_ioc *a = m_ioc(2, 0), *b = m_ioc(3, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	a->cgroup = &cg_a;
	b->cgroup = &cg_b;
	ios_blk_start_plug(a, &plug);
	b->plug = &plug;
	m_submit(r, a, 0, 8, IOS_READ, 0, 10);
	m_submit(r, b, 8, 8, IOS_READ, 0, 11);
	T_ASSERT_EQ(r->q->nr_plug_merges, 0);
	T_ASSERT_EQ(plug.rq_count, 2);
	m_submit(r, a, 16, 8, IOS_READ, 0, 12);	/* the newest is b's: no merge either */
	T_ASSERT_EQ(r->q->nr_plug_merges, 0);
	m_submit(r, a, 24, 8, IOS_READ, 0, 13);	/* the newest is a's, adjacent: merges */
	T_ASSERT_EQ(r->q->nr_plug_merges, 1);
	b->plug = NULL;
	ios_blk_finish_plug(a, &plug, 20);
	T_ASSERT_EQ(r->nr_issued, 3);
	a->cgroup = b->cgroup = &t_root_cgroup;
	m_rig_free(r, 30);
	return T_PASS;
}

/* One try: a bio adjacent to an older plugged request of the same queue does not merge. */
static int test_only_newest_tried(void)
{
	struct m_rig *r = m_rig_new("none", 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(4, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	m_submit(r, ioc, 0, 8, IOS_READ, 0, 10);
	m_submit(r, ioc, 5000, 8, IOS_READ, 0, 11);
	m_submit(r, ioc, 8, 8, IOS_READ, 0, 12);	/* adjacent to the older one */
	T_ASSERT_EQ(r->q->nr_plug_merges, 0);
	T_ASSERT_EQ(plug.rq_count, 3);
	ios_blk_finish_plug(ioc, &plug, 20);
	m_rig_free(r, 30);
	return T_PASS;
}

/* A plug that spans queues is walked to the newest request of the bio's queue. */
static int test_walk_across_queues(void)
{
	struct m_rig *x = m_rig_new("none", 8, 1, 1, NULL);
	struct m_rig *y = m_rig_new("none", 8, 1, 1, NULL);
	struct ios_ioc *ioc = m_ioc(5, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(x && y);
	ios_blk_start_plug(ioc, &plug);
	m_submit(x, ioc, 0, 8, IOS_READ, 0, 10);
	m_submit(y, ioc, 0, 8, IOS_READ, 0, 11);	/* the plug now spans two queues */
	T_ASSERT(plug.multiple_queues);
	m_submit(x, ioc, 8, 8, IOS_READ, 0, 12);	/* walks past y's request */
	T_ASSERT_EQ(x->q->nr_plug_merges, 1);
	T_ASSERT_EQ(plug.rq_count, 2);
	ios_blk_finish_plug(ioc, &plug, 20);
	T_ASSERT_EQ(x->nr_issued, 1);
	T_ASSERT_EQ(y->nr_issued, 1);
	m_rig_free(x, 30);
	m_rig_free(y, 30);
	return T_PASS;
}

/* nomerges=2: no merge at all, the plug included. */
static int test_nomerges(void)
{
	struct m_rig *r = m_rig_new("none", 8, 1, 1, "queue.nomerges=2");
	struct ios_ioc *ioc = m_ioc(6, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	m_submit(r, ioc, 0, 8, IOS_READ, 0, 10);
	m_submit(r, ioc, 8, 8, IOS_READ, 0, 11);
	T_ASSERT_EQ(r->q->nr_plug_merges, 0);
	T_ASSERT_EQ(plug.rq_count, 2);
	ios_blk_finish_plug(ioc, &plug, 20);
	m_rig_free(r, 30);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_merge_into_plugged, test_no_merge_across_cgroups, test_only_newest_tried,
		     test_walk_across_queues, test_nomerges);
}
