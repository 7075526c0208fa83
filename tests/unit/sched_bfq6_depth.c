/*
 * Description: bfq-6.12's tag caps (bfq_update_depths, bfq_limit_depth, Linux
 * 6.12). The shallow depth is per sbitmap word; the word is 2^shift tags,
 * shift as sbitmap_calculate_shift gives it for the scheduler tag depth (64
 * bits, halved until the map has four words). Sync reads are never capped;
 * with no weight-raised queue async I/O gets half a word and sync writes
 * three quarters; while a queue is raised 3/16 and 6/16. A 32-deep SATA SSD
 * (64 scheduler tags, words of 16) caps at 8/12 and 3/6; a 256-deep NVMe
 * queue (256 tags, words of 64) at 32/48 and 12/24. With tag_caps off (as in
 * 4.19, which has no tags) nothing is capped.
 */
#include "sched_bfq6_util.h"

#define OPF_WRITE	(1u << 31)

static unsigned limit(struct t_sq *s, unsigned opf)
{
	return ios_sched_mq_ops(s->type)->limit_depth(&s->q, opf, s->ioc);
}

static int test_sata_words_of_16(void)
{
	struct bfq_profile off;
	struct t_sq *s;

	bfq6_register();
	s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	T_ASSERT_EQ(s->q.nr_requests, 64);
	T_ASSERT_EQ(bfqd_of(&s->q)->full_depth_shift, 4);
	T_ASSERT_EQ(limit(s, 0), 0);				/* read */
	T_ASSERT_EQ(limit(s, IOS_REQ_META), 0);			/* a read whatever its flags */
	T_ASSERT_EQ(limit(s, OPF_WRITE), 8);			/* async write */
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_SYNC), 12);	/* O_DIRECT, O_SYNC */
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_FUA), 12);	/* FUA is sync too */
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_PREFLUSH), 12);
	/* the behaviour off: no caps */
	bfq6_with(s, BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612, tag_caps));
	T_ASSERT_EQ(limit(s, OPF_WRITE), 0);
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_SYNC), 0);
	t_sq_free(s);
	return T_PASS;
}

static int test_nvme_words_of_64(void)
{
	struct t_sq *s;

	bfq6_register();
	s = t_sq_new("bfq-6.12", 256, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	T_ASSERT_EQ(s->q.nr_requests, 256);
	T_ASSERT_EQ(bfqd_of(&s->q)->full_depth_shift, 6);
	T_ASSERT_EQ(limit(s, OPF_WRITE), 32);
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_SYNC), 48);
	/* nr_requests changes (queue/nr_requests): depth_updated recomputes */
	s->q.nr_requests = 8;	/* 4 words of 2 */
	ios_sched_mq_ops(s->type)->depth_updated(&s->q);
	T_ASSERT_EQ(bfqd_of(&s->q)->full_depth_shift, 1);
	T_ASSERT_EQ(limit(s, OPF_WRITE), 1);
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_SYNC), 1);	/* max(2*3 >> 2, 1) */
	s->q.nr_requests = 3;	/* under 4: one word of 64 bits, as sbitmap keeps it */
	ios_sched_mq_ops(s->type)->depth_updated(&s->q);
	T_ASSERT_EQ(bfqd_of(&s->q)->full_depth_shift, 6);
	t_sq_free(s);
	return T_PASS;
}

/* A weight-raised queue is busy: async gets 3/16 of a word, sync writes 6/16. */
static int test_raised_queue_tightens_caps(void)
{
	struct ios_ioc *a = bfq_test_ioc(601, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_request *rq;
	struct t_sq *s;

	bfq6_register();
	s = t_sq_new("bfq-6.12", 32, 0, NULL);	/* low_latency on */
	T_ASSERT(s);
	T_ASSERT_EQ(limit(s, OPF_WRITE), 8);
	/* a new process's first read: interactive, raised */
	bfq_ins(s, a, 0, 8, IOS_READ, 0, 3000 * MS);
	T_ASSERT_EQ(bfqd_of(&s->q)->wr_busy_queues, 1);
	T_ASSERT_EQ(limit(s, OPF_WRITE), 3);
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_SYNC), 6);
	T_ASSERT_EQ(limit(s, 0), 0);
	/* NVMe words of 64: 12 and 24 */
	s->q.nr_requests = 256;
	ios_sched_mq_ops(s->type)->depth_updated(&s->q);
	T_ASSERT_EQ(limit(s, OPF_WRITE), 12);
	T_ASSERT_EQ(limit(s, OPF_WRITE | IOS_REQ_SYNC), 24);
	rq = t_sq_dispatch(s, 3000 * MS);
	T_ASSERT(rq);
	t_sq_complete(s, rq, 3001 * MS);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_sata_words_of_16, test_nvme_words_of_64, test_raised_queue_tightens_caps);
}
