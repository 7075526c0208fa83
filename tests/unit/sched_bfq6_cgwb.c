/*
 * Description: bfq-6.12 puts writeback in the dirtier's group. In Linux
 * 6.12 bfq_init_rq calls bfq_bic_update_cgroup with the request's bio,
 * whose group is bio->bi_blkg (bfq_bio_bfqg): a flusher kworker, itself
 * in the root cgroup, writing a wb's inodes has its bios charged to that
 * wb's cgroup (wbc_init_bio), and its async queue follows to that group;
 * the next wb's bios move it again. Here: the request's charged cgroup
 * (ios_rq_blkcg). Fails if BFQ takes the group from the kworker's own
 * cgroup: its queue would stay in the root group.
 */
#include "sched_bfq6_util.h"

static int test_kworker_queue_follows_the_charged_cgroup(void)
{
	static struct ios_cgroup ga = { .path = (char *)"ga", .id = 1, .weight = 100,
					.parent = &t_root_cgroup };
	static struct ios_cgroup gb = { .path = (char *)"gb", .id = 2, .weight = 300,
					.parent = &t_root_cgroup };
	struct t_sq *s;
	struct ios_ioc *kw;
	struct ios_request *rq;
	struct bfq_group *g;
	struct bfq_queue *bfqq;

	bfq6_register();
	s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
	T_ASSERT(s);
	kw = bfq_test_ioc(981, IOS_IOPRIO_CLASS_BE, 4);
	kw->kthread = true;	/* in the root cgroup, as the kworker is */

	s->ioc = kw;
	rq = t_sq_rq(s, 1000, 8, IOS_WRITE, 0);
	rq->blkcg = &ga;	/* wbc_init_bio: ga's wb */
	rq->alloc_ns = rq->insert_ns = 0;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, rq, 0, 0);
	bfqq = bfqq_of(&s->q, kw, false);
	g = ios_bfq_find_set_group(bfqd_of(&s->q), &ga);
	T_ASSERT(bfqq && g);
	T_ASSERT_MSG(bfqq->entity.sched_data == &g->sched_data,
		     "the kworker's async queue is not in ga's group");

	/* gb's wb next: the queue the kworker uses now is gb's */
	rq = t_sq_rq(s, 90000, 8, IOS_WRITE, 0);
	rq->blkcg = &gb;
	rq->alloc_ns = rq->insert_ns = 1000;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, rq, 1000, 0);
	bfqq = bfqq_of(&s->q, kw, false);
	g = ios_bfq_find_set_group(bfqd_of(&s->q), &gb);
	T_ASSERT(bfqq && g);
	T_ASSERT_MSG(bfqq->entity.sched_data == &g->sched_data,
		     "the kworker's async queue is not in gb's group");
	T_ASSERT(bfq_trees_ok(&s->q));
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_kworker_queue_follows_the_charged_cgroup);
}
