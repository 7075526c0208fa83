/*
 * blk-mq tags (src/block/mq.c, mq_tag.c; Linux 6.12 blk_mq_init_sched,
 * blk_mq_get_tag, queue_requests_store):
 * - scheduler tags: nr_requests = 2 * min(depth, 128) under an elevator
 *   (256 on a 256-deep device, 62 on a depth-31 HDD); 'none': the depth;
 * - a freed tag goes to the sleepers in the order they slept (S, then G);
 * - queue.nr_requests beyond the kernel's limits is refused;
 * - the tag map is first-fit from word 0, bit 0 under any mix of gets
 *   (full and shallow) and puts: checked against a bit-by-bit scan, so the
 *   scan's shortcuts (count trailing zeros, skipping full words) never
 *   change which tag a request gets.
 */
#include "mq_rig.h"

static int test_nr_requests(void)
{
	struct m_rig *r = m_rig_new(NULL, 256, 1, 1, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_requests, 256);		/* 2 * min(256, 128) */
	T_ASSERT_EQ(r->q->mq->hctx[0].sched_tags.depth, 256);
	T_ASSERT_EQ(r->q->mq->hctx[0].tags.depth, 256);
	m_rig_free(r, 0);
	r = m_rig_new(NULL, 31, 1, 1, NULL);		/* an NCQ HDD */
	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_requests, 62);
	T_ASSERT_EQ(r->q->mq->hctx[0].sched_tags.depth, 62);
	m_rig_free(r, 0);
	r = m_rig_new("none", 31, 1, 1, NULL);
	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_requests, 31);		/* no scheduler tags */
	T_ASSERT_EQ(r->q->mq->hctx[0].sched_tags.depth, 0);
	m_rig_free(r, 0);
	r = m_rig_new("none", 1024, 1, 1, NULL);	/* deep NVMe: the depth, not 256 */
	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_requests, 1024);
	m_rig_free(r, 0);
	return T_PASS;
}

static int test_nr_requests_setting(void)
{
	struct m_rig *r = m_rig_new(NULL, 31, 1, 1, "queue.nr_requests=1000");

	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_requests, 1000);
	T_ASSERT_EQ(r->q->mq->hctx[0].sched_tags.depth, 1000);
	m_rig_free(r, 0);
	/* above MAX_SCHED_RQ (2048) and, without a scheduler, above the depth: refused */
	T_ASSERT(m_rig_new(NULL, 31, 1, 1, "queue.nr_requests=2049") == NULL);
	T_ASSERT(m_rig_new("none", 31, 1, 1, "queue.nr_requests=32") == NULL);
	r = m_rig_new("none", 31, 1, 1, "queue.nr_requests=16");
	T_ASSERT(r);
	T_ASSERT_EQ(r->q->nr_requests, 16);
	m_rig_free(r, 0);
	return T_PASS;
}

/* 'none' on a 2-tag device: four tasks, the last two sleep; tags go to them in order. */
static int test_sleepers_fifo(void)
{
	struct m_rig *r = m_rig_new("none", 2, 1, 1, NULL);

	T_ASSERT(r);
	for (unsigned i = 0; i < 4; i++)
		T_ASSERT_EQ(m_submit(r, m_ioc(10 + i, 0), 1000 * i, 8, IOS_READ, 0, 0), i < 2 ? 0 : 1);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(r->q->mq->hctx[0].tags.nr_waiting, 2);
	T_ASSERT_MSG(!strcmp(r->trace, "QGDQGDQSQS"), "trace %s", r->trace);
	/* the second issued completes first: its tag goes to the oldest sleeper */
	ios_queue_complete(r->q, r->issued[1], 100, 0);
	T_ASSERT_EQ(r->nr_queued_cb, 1);
	T_ASSERT(r->queued_order[0] == &r->bios[2]);
	T_ASSERT_EQ(r->nr_issued, 3);
	T_ASSERT_EQ(r->issued[2]->sector, 2000);
	ios_queue_complete(r->q, r->issued[0], 200, 0);
	T_ASSERT(r->queued_order[1] == &r->bios[3]);
	T_ASSERT_EQ(r->issued[3]->sector, 3000);
	T_ASSERT_MSG(!strcmp(r->trace + 10, "CGDCGD"), "trace %s", r->trace);
	m_rig_free(r, 300);
	return T_PASS;
}

/* Under an elevator the sleepers wait for scheduler tags (nr_requests), not driver tags. */
static int test_sched_tag_sleepers(void)
{
	struct m_rig *r = m_rig_new(NULL, 2, 1, 1, NULL);	/* nr_requests 4 */
	unsigned slept = 0;

	T_ASSERT(r);
	for (unsigned i = 0; i < 6; i++)
		slept += m_submit(r, m_ioc(20 + i, 0), 1000 * i, 8, IOS_READ, 0, 0);
	T_ASSERT_EQ(slept, 2);
	T_ASSERT_EQ(r->nr_issued, 2);				/* the driver's two tags */
	T_ASSERT_EQ(r->q->mq->hctx[0].sched_tags.nr_waiting, 2);
	ios_queue_complete(r->q, r->issued[0], 100, 0);
	T_ASSERT(r->queued_order[0] == &r->bios[4]);
	T_ASSERT_EQ(((struct m_fifo *)r->q->sched_data)->finished, 1);
	m_rig_free(r, 200);
	return T_PASS;
}

/* The reference: the lowest free bit of the lowest word with one under the cap. */
static int ref_get(uint8_t *taken, unsigned depth, unsigned shift, unsigned shallow)
{
	unsigned per = 1u << shift;

	for (unsigned w = 0; w * per < depth; w++) {
		unsigned d = depth - w * per < per ? depth - w * per : per;

		if (shallow && shallow < d)
			d = shallow;
		for (unsigned b = 0; b < d; b++)
			if (!taken[w * per + b]) {
				taken[w * per + b] = 1;
				return (int)(w * per + b);
			}
	}
	return -1;
}

static int test_first_fit(void)
{
	static const unsigned depths[] = { 1, 3, 31, 62, 64, 100, 256, 1023, 1024 };
	struct ios_rand r;

	ios_rand_seed(&r, 7, 1);
	for (size_t i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		unsigned depth = depths[i];
		struct ios_mq_tags t = { 0 };
		uint8_t taken[1024] = { 0 };
		int held[1024], nheld = 0;

		T_ASSERT_EQ(ios_mq_tags_init(&t, depth), 0);
		for (int step = 0; step < 20000; step++) {
			/* fill most of the time, so full words are common */
			if (nheld && ios_rand_below(&r, 100) < 40) {
				int k = (int)ios_rand_below(&r, (uint64_t)nheld);

				taken[held[k]] = 0;
				ios_mq_tag_put(&t, held[k]);
				held[k] = held[--nheld];
			} else {
				unsigned shallow = ios_rand_below(&r, 3) ? 0 :
						   1 + (unsigned)ios_rand_below(&r, 1u << t.shift);
				int want = ref_get(taken, depth, t.shift, shallow);

				T_ASSERT_EQ(ios_mq_tag_get(&t, shallow), want);
				if (want >= 0)
					held[nheld++] = want;
			}
			T_ASSERT_EQ(t.used, (unsigned)nheld);
		}
		ios_mq_tags_free(&t);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_first_fit, test_nr_requests, test_nr_requests_setting, test_sleepers_fifo,
		     test_sched_tag_sleepers);
}
