/*
 * Description: the close-cooperator prio tree is re-keyed where the
 * kernels re-key it and nowhere else. 2.6.31, 2.6.33 and 4.19 call
 * cfq_prio_tree_add from cfq_add_rq_rb (when next_rq changes, also after a
 * front merge through cfq_reposition_rq_rb) and from cfq_resort_rr_list (a
 * queue joining the service tree, a slice ending); a dispatched request
 * leaves the queue's node where it was. Descents compare with each node's
 * next_rq as it is now (cfq_prio_tree_lookup), so a request at a sector a
 * node was placed by, but has moved on from, is no duplicate, and neither
 * is one at a moved node's new sector when the descent does not pass it.
 */
#include "sched_cfq_util.h"

/*
 * The pids of the BE level-4 prio tree, in tree order, into @out; how many
 * (99 when a queue's copy of its next sector is not its next_rq's).
 */
static size_t tree_pids(struct t_sq *s, uint32_t *out, size_t max)
{
	size_t n = 0;

	for (struct ios_rb_node *p = ios_rb_first(&cq_data(s)->prio_trees[4]); p && n < max;
	     p = ios_rb_next(p)) {
		const struct cfq_queue *q = ios_rb_entry(p, struct cfq_queue, p_node);

		if (!q->next_rq || q->next_sector != q->next_rq->sector)
			return 99;
		out[n++] = q->pid;
	}
	return n;
}

static const char *const profiles[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

static int test_not_rekeyed_at_dispatch(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(profiles); i++) {
		struct t_sq *s = t_sq_new(profiles[i], 4, 1, NULL);
		struct ios_request *rq;
		uint32_t pids[8];

		T_ASSERT(s);
		for (uint32_t pid = 1; pid <= 4; pid++)
			cq_ioc(pid, IOS_IOPRIO_CLASS_BE, 4);
		/* pid 1 at 1000 and 100000, pid 2 at 10000, pid 3 at 200000 */
		cq_read(s, 1, 1000, 0);
		cq_read(s, 1, 100000, 0);
		cq_read(s, 2, 10000, 0);
		cq_read(s, 3, 200000, 0);
		T_ASSERT_EQ(tree_pids(s, pids, 8), 3);
		T_ASSERT(pids[0] == 1 && pids[1] == 2 && pids[2] == 3);
		rq = t_sq_dispatch(s, 1 * MS);
		T_ASSERT(rq && rq->ioc->pid == 1 && rq->sector == 1000);
		T_ASSERT_U64_EQ(cq_queue(s, 1, true)->next_rq->sector, 100000);
		/* pid 1's node stays at 1000, before pid 2's, though its next request is at 100000 */
		T_ASSERT_EQ(tree_pids(s, pids, 8), 3);
		T_ASSERT_MSG(pids[0] == 1 && pids[1] == 2 && pids[2] == 3, "%s: %u %u %u",
			     profiles[i], pids[0], pids[1], pids[2]);
		/* a request at 1000 is no duplicate: the descent meets pid 1 at 100000 */
		cq_read(s, 4, 1000, 2 * MS);
		T_ASSERT_EQ(tree_pids(s, pids, 8), 4);
		T_ASSERT_MSG(pids[0] == 4 && pids[1] == 1 && pids[2] == 2 && pids[3] == 3,
			     "%s: %u %u %u %u", profiles[i], pids[0], pids[1], pids[2], pids[3]);
		/*
		 * nor, here, is one at 100000, pid 1's next sector: the tree is
		 * pid 2 at the root, pids 4 and 1 on its left, pid 3 on its
		 * right, and the descent for 100000 goes right without meeting
		 * pid 1 (the kernel's tree has the same shape and the same blind
		 * spot)
		 */
		cq_ioc(5, IOS_IOPRIO_CLASS_BE, 4);
		cq_read(s, 5, 100000, 3 * MS);
		T_ASSERT_EQ(tree_pids(s, pids, 8), 5);
		T_ASSERT_MSG(pids[0] == 4 && pids[1] == 1 && pids[2] == 2 && pids[3] == 5 &&
			     pids[4] == 3, "%s: %u %u %u %u %u", profiles[i], pids[0], pids[1],
			     pids[2], pids[3], pids[4]);
		cq_free(s);
	}
	return T_PASS;
}

/* A new request that becomes next_rq re-keys the queue; one that does not, does not. */
static int test_rekeyed_when_next_rq_changes(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(profiles); i++) {
		struct t_sq *s = t_sq_new(profiles[i], 4, 1, NULL);
		uint32_t pids[8];

		T_ASSERT(s);
		for (uint32_t pid = 1; pid <= 3; pid++)
			cq_ioc(pid, IOS_IOPRIO_CLASS_BE, 4);
		cq_read(s, 1, 1000, 0);
		cq_read(s, 1, 100000, 0);
		cq_read(s, 2, 10000, 0);
		cq_read(s, 3, 200000, 0);
		T_ASSERT(t_sq_dispatch(s, 1 * MS)->sector == 1000);
		/* 300000 is no better than 100000: pid 1 stays first */
		cq_read(s, 1, 300000, 2 * MS);
		T_ASSERT_EQ(tree_pids(s, pids, 8), 3);
		T_ASSERT(pids[0] == 1 && pids[1] == 2 && pids[2] == 3);
		/* 50000, nearer the head than 100000, becomes next_rq: re-keyed there */
		cq_read(s, 1, 50000, 3 * MS);
		T_ASSERT_U64_EQ(cq_queue(s, 1, true)->next_rq->sector, 50000);
		T_ASSERT_EQ(tree_pids(s, pids, 8), 3);
		T_ASSERT_MSG(pids[0] == 2 && pids[1] == 1 && pids[2] == 3, "%s: %u %u %u",
			     profiles[i], pids[0], pids[1], pids[2]);
		cq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_not_rekeyed_at_dispatch, test_rekeyed_when_next_rq_changes);
}
