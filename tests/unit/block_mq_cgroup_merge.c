/*
 * No merges across cgroups on blk-mq (src/block/merge.c; Linux 6.12
 * blk_cgroup_mergeable in blk_rq_merge_ok and attempt_merge, block/blk-merge.c):
 * a bio adjacent to a request of another cgroup starts its own request,
 * under an elevator (the hash) and under 'none' (the software context's
 * list, blk_bio_list_merge), and the same bio of the same cgroup merges.
 * The single-queue layer keeps its merges (its outputs do not move).
 */
#include "mq_rig.h"

static struct ios_cgroup cg_a = { .path = (char *)"a", .id = 1, .parent = &t_root_cgroup };
static struct ios_cgroup cg_b = { .path = (char *)"b", .id = 2, .parent = &t_root_cgroup };

static struct ios_ioc *in_group(uint32_t pid, struct ios_cgroup *cg)
{
	struct ios_ioc *ioc = m_ioc(pid, 0);

	ioc->cgroup = cg;
	return ioc;
}

/* 'none' with dispatch_busy: requests wait in the software context, where bios merge. */
static int test_none_ctx_list(void)
{
	struct m_rig *r = m_rig_new("none", 8, 1, 1, NULL);

	T_ASSERT(r);
	r->accept = 0;
	m_submit(r, in_group(1, &cg_a), 100000, 8, IOS_READ, 0, 0);	/* refused: busy */
	m_submit(r, in_group(1, &cg_a), 0, 8, IOS_READ, 0, 0);		/* waits in ctx */
	T_ASSERT_EQ(r->q->mq->ctx[0].nr_rqs, 1);
	m_submit(r, in_group(2, &cg_b), 8, 8, IOS_READ, 0, 0);		/* adjacent, cgroup b */
	T_ASSERT_EQ(r->q->nr_bio_merges, 0);
	T_ASSERT_EQ(r->q->mq->ctx[0].nr_rqs, 2);
	m_submit(r, in_group(3, &cg_a), 8, 8, IOS_READ, 0, 0);		/* adjacent, cgroup a */
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	T_ASSERT_EQ(r->q->mq->ctx[0].nr_rqs, 2);
	r->accept = -1;
	ios_queue_run(r->q, 10);
	m_rig_free(r, 20);
	return T_PASS;
}

/* An elevator: the requests wait in it behind a device of one tag; the hash finds them. */
static int test_elevator_hash(void)
{
	struct m_rig *r = m_rig_new(NULL, 1, 1, 1, "queue.nr_requests=8");

	T_ASSERT(r);
	m_submit(r, in_group(1, &cg_a), 100000, 8, IOS_READ, 0, 0);	/* takes the one tag */
	m_submit(r, in_group(1, &cg_a), 200000, 8, IOS_READ, 0, 0);	/* no driver tag: on the dispatch list */
	m_submit(r, in_group(1, &cg_a), 0, 8, IOS_READ, 0, 0);		/* in the scheduler */
	T_ASSERT_EQ(r->q->nr_sorted, 1);
	m_submit(r, in_group(2, &cg_b), 8, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(r->q->nr_bio_merges, 0);
	T_ASSERT_EQ(r->q->nr_sorted, 2);
	m_submit(r, in_group(3, &cg_a), 8, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	m_rig_free(r, 10);
	return T_PASS;
}

/* The single-queue layer (noop) still merges across cgroups. */
static int test_legacy_unchanged(void)
{
	struct t_rig *r = t_rig_new("noop", 1, 1, NULL);
	struct ios_ioc *a = t_ioc(11), *b = t_ioc(12);

	T_ASSERT(r);
	a->cgroup = &cg_a;
	b->cgroup = &cg_b;
	t_submit(r, a, 100000, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, a, 0, 8, IOS_READ, 0, 0, NULL);
	t_submit(r, b, 8, 8, IOS_READ, 0, 0, NULL);
	T_ASSERT_EQ(r->q->nr_bio_merges, 1);
	a->cgroup = b->cgroup = &t_root_cgroup;
	while (t_complete_next(r, 10))
		;
	t_rig_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_none_ctx_list, test_elevator_hash, test_legacy_unchanged);
}
