/*
 * limit_depth at tag allocation (src/block/mq_tag.c, mq.c; Linux 6.12
 * lib/sbitmap.c sbitmap_calculate_shift and __sbitmap_get_shallow, whose
 * shallow depth caps each word up to 6.16): the word shift of a map, and a
 * cap of s per word admitting s * words allocations, no more; sync reads,
 * never limited, still get tags.
 */
#include "mq_rig.h"

static int test_word_shift(void)
{
	T_ASSERT_EQ(ios_mq_tags_shift(256), 6);		/* 4 words of 64 */
	T_ASSERT_EQ(ios_mq_tags_shift(62), 3);		/* 8 words of 8, the last 6 */
	T_ASSERT_EQ(ios_mq_tags_shift(31), 2);
	T_ASSERT_EQ(ios_mq_tags_shift(64), 4);
	T_ASSERT_EQ(ios_mq_tags_shift(2), 6);		/* below 4: left alone */
	return T_PASS;
}

static int test_per_word_cap(void)
{
	struct ios_mq_tags t;
	unsigned n = 0;

	memset(&t, 0, sizeof(t));
	T_ASSERT_EQ(ios_mq_tags_init(&t, 62), 0);
	T_ASSERT_EQ(t.nr_words, 8);
	/* 2 per word of 8 (the last word has 6): 2 * 8 = 16 */
	while (ios_mq_tag_get(&t, 2) >= 0)
		n++;
	T_ASSERT_EQ(n, 16);
	/* an allocation without a cap still finds the rest */
	while (ios_mq_tag_get(&t, 0) >= 0)
		n++;
	T_ASSERT_EQ(n, 62);
	ios_mq_tags_free(&t);
	return T_PASS;
}

/*
 * A 256-deep device under an elevator: nr_requests 256, words of 64. The
 * elevator caps async writes at 4 per word: 16 of them get requests, the
 * 17th sleeps; a sync read still gets one.
 */
static int test_limit_depth_caps_allocations(void)
{
	struct m_rig *r = m_rig_new(NULL, 256, 1, 1, NULL);
	unsigned slept = 0;

	T_ASSERT(r);
	m_shallow_async = 4;
	for (unsigned i = 0; i < 17; i++)
		slept += m_submit(r, m_ioc(1, 0), 10000 * i, 8, IOS_WRITE, 0, 0);
	T_ASSERT_EQ(slept, 1);
	T_ASSERT_EQ(r->q->mq->hctx[0].sched_tags.used, 16);
	T_ASSERT_EQ(((struct m_fifo *)r->q->sched_data)->prepared, 16);
	T_ASSERT_EQ(m_submit(r, m_ioc(2, 0), 900000, 8, IOS_READ, 0, 0), 0);
	/* a write's tag frees: the sleeping write gets it */
	ios_queue_complete(r->q, r->issued[0], 10, 0);
	T_ASSERT_EQ(r->nr_queued_cb, 1);
	m_shallow_async = 0;
	m_rig_free(r, 20);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_word_shift, test_per_word_cap, test_limit_depth_caps_allocations);
}
