/*
 * blk-mq contexts (src/block/mq.c; Linux 6.12 blk_mq_map_queues with
 * group_cpus_evenly on one node, no SMT siblings): consecutive CPUs share
 * a hardware queue, the first (cpus mod queues) queues take one CPU more;
 * with as many queues as CPUs or more, CPU i uses queue i. A bio goes to
 * its task's CPU (ioc->cpu mod nr_cpus); each hardware queue has its own
 * driver tags.
 */
#include "mq_rig.h"

static int map_is(unsigned nr_hw, unsigned nr_cpus, const unsigned *want)
{
	struct m_rig *r = m_rig_new("none", 4, nr_hw, nr_cpus, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_hw_queues, nr_hw);
	T_ASSERT_EQ(r->q->nr_cpus, nr_cpus);
	for (unsigned c = 0; c < nr_cpus; c++)
		T_ASSERT_MSG(r->q->mq->ctx[c].hctx == want[c], "%u queues, %u CPUs: CPU %u on %u, "
			     "want %u", nr_hw, nr_cpus, c, r->q->mq->ctx[c].hctx, want[c]);
	m_rig_free(r, 0);
	return T_PASS;
}

static int test_cpu_map(void)
{
	static const unsigned m8_4[] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	static const unsigned m5_2[] = { 0, 0, 0, 1, 1 };
	static const unsigned m7_3[] = { 0, 0, 0, 1, 1, 2, 2 };
	static const unsigned m2_4[] = { 0, 1 };
	static const unsigned m4_1[] = { 0, 0, 0, 0 };
	static const unsigned m4_4[] = { 0, 1, 2, 3 };

	T_ASSERT_EQ(map_is(4, 8, m8_4), T_PASS);
	T_ASSERT_EQ(map_is(2, 5, m5_2), T_PASS);
	T_ASSERT_EQ(map_is(3, 7, m7_3), T_PASS);
	T_ASSERT_EQ(map_is(4, 2, m2_4), T_PASS);
	T_ASSERT_EQ(map_is(1, 4, m4_1), T_PASS);
	T_ASSERT_EQ(map_is(4, 4, m4_4), T_PASS);
	return T_PASS;
}

/* 0 means 1, as the config says */
static int test_defaults(void)
{
	struct m_rig *r = m_rig_new("none", 4, 0, 0, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_hw_queues, 1);
	T_ASSERT_EQ(r->q->nr_cpus, 1);
	m_rig_free(r, 0);
	return T_PASS;
}

/* Driver tags are per hardware queue: depth 1, two queues, two CPUs. */
static int test_tags_per_hctx(void)
{
	struct m_rig *r = m_rig_new("none", 1, 2, 2, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(m_submit(r, m_ioc(1, 0), 0, 8, IOS_READ, 0, 0), 0);
	T_ASSERT_EQ(m_submit(r, m_ioc(2, 1), 1000, 8, IOS_READ, 0, 0), 0);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(r->issued[0]->mq_hctx, 0);
	T_ASSERT_EQ(r->issued[1]->mq_hctx, 1);
	T_ASSERT_EQ(r->issued[1]->mq_ctx, 1);
	/* CPU 3 is CPU 1 of a 2-CPU machine: queue 1, whose one tag is taken */
	T_ASSERT_EQ(m_submit(r, m_ioc(3, 3), 2000, 8, IOS_READ, 0, 0), 1);
	T_ASSERT_EQ(r->q->mq->hctx[1].tags.nr_waiting, 1);
	T_ASSERT_EQ(r->q->mq->hctx[0].tags.nr_waiting, 0);
	ios_queue_complete(r->q, r->issued[1], 10, 0);
	T_ASSERT_EQ(r->nr_issued, 3);
	T_ASSERT_EQ(r->issued[2]->mq_hctx, 1);
	m_rig_free(r, 20);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_cpu_map, test_defaults, test_tags_per_hctx);
}
