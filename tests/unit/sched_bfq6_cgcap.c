/*
 * Description: bfq-6.12's per-queue and per-cgroup request cap
 * (bfq_limit_depth's bfqq_request_over_limit, Linux 6.12): an allocation
 * whose queue, or a group above it, already holds its weight's share of
 * the tags gets a shallow depth of 1, even a sync read. 32-deep flash:
 * nr_requests 64, sync reads share all 64. With cgroup_request_cap off
 * (and in 4.19, which has no tags) nothing is capped this way.
 */
#include "sched_bfq6_util.h"

static unsigned read_depth(struct t_sq *s, struct ios_ioc *ioc)
{
	return ios_sched_mq_ops(s->type)->limit_depth(&s->q, 0, ioc);
}

static void drain(struct t_sq *s, uint64_t now)
{
	struct ios_request *rq;

	while ((rq = bfq6_dispatch_or_wait(s, &now)) != NULL)
		t_sq_complete(s, rq, now);
}

/*
 * Root group: A (BE4, weight 40) beside B (BE3, weight 50). A's share is
 * round(64 x 40 / 90) = 28 requests: its 28th makes the next allocation
 * depth 1. B, with one request, stays uncapped.
 */
static int test_queue_share(void)
{
	struct bfq_profile off;

	bfq6_register();
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
		struct ios_ioc *a = bfq_test_ioc(961, IOS_IOPRIO_CLASS_BE, 4);
		struct ios_ioc *b = bfq_test_ioc(962, IOS_IOPRIO_CLASS_BE, 3);

		T_ASSERT(s);
		T_ASSERT_EQ(s->q.nr_requests, 64);
		if (!on)
			bfq6_with(s, BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612,
							  cgroup_request_cap));
		bfq_ins(s, b, 900000, 8, IOS_READ, 0, 0);
		for (int i = 0; i < 27; i++)
			bfq_ins(s, a, 1000 * (uint64_t)i, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(bfqq_of(&s->q, a, true)->entity.allocated, 27);
		T_ASSERT_EQ(read_depth(s, a), 0);
		bfq_ins(s, a, 100000, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(read_depth(s, a), on ? 1 : 0);
		T_ASSERT_EQ(read_depth(s, b), 0);
		drain(s, 0);
		T_ASSERT_EQ(bfqq_of(&s->q, a, true)->entity.allocated, 0);
		t_sq_free(s);
	}
	return T_PASS;
}

/*
 * Groups ga (weight 100) and gb (300) under the root: ga's share is
 * round(64 x 100 / 400) = 16. In ga, A2 (BE3) holds 14 requests and A
 * (BE4) 2: A is under its own share (round(16 x 40 / 90) = 7) but ga is
 * at 16, so A's next allocation is capped at the group level.
 */
static int test_group_share(void)
{
	static struct ios_cgroup ga = { .path = (char *)"ga", .id = 1, .weight = 100,
					.parent = &t_root_cgroup };
	static struct ios_cgroup gb = { .path = (char *)"gb", .id = 2, .weight = 300,
					.parent = &t_root_cgroup };
	struct bfq_profile off;

	bfq6_register();
	for (int on = 1; on >= 0; on--) {
		struct t_sq *s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
		struct ios_ioc *a = bfq_test_ioc(971, IOS_IOPRIO_CLASS_BE, 4);
		struct ios_ioc *a2 = bfq_test_ioc(972, IOS_IOPRIO_CLASS_BE, 3);
		struct ios_ioc *b = bfq_test_ioc(973, IOS_IOPRIO_CLASS_BE, 4);
		struct bfq_queue *qa;

		T_ASSERT(s);
		a->cgroup = a2->cgroup = &ga;
		b->cgroup = &gb;
		if (!on)
			bfq6_with(s, BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612,
							  cgroup_request_cap));
		bfq_ins(s, b, 900000, 8, IOS_READ, 0, 0);
		bfq_ins(s, a, 0, 8, IOS_READ, 0, 0);
		for (int i = 0; i < 13; i++)
			bfq_ins(s, a2, 500000 + 1000 * (uint64_t)i, 8, IOS_READ, 0, 0);
		qa = bfqq_of(&s->q, a, true);
		T_ASSERT(qa->entity.parent);
		T_ASSERT_EQ(qa->entity.parent->weight, 100);
		T_ASSERT_EQ(qa->entity.parent->allocated, 14);
		T_ASSERT_EQ(read_depth(s, a), 0);
		bfq_ins(s, a2, 600000, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(qa->entity.parent->allocated, 15);
		T_ASSERT_EQ(read_depth(s, a), 0);
		bfq_ins(s, a, 8, 8, IOS_READ, 0, 0);
		T_ASSERT_EQ(qa->entity.allocated, 2);
		T_ASSERT_EQ(read_depth(s, a), on ? 1 : 0);
		T_ASSERT_EQ(read_depth(s, b), 0);
		drain(s, 0);
		T_ASSERT_EQ(qa->entity.parent->allocated, 0);
		t_sq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_queue_share, test_group_share);
}
