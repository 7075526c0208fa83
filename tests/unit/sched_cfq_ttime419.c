/*
 * Description: cfq-4.19's think time per service tree, as 4.19's
 * cfq_completed_request and cfq_arm_slice_timer keep and read it. A sync
 * completion stamps the end time on the tree the queue is on or, when the
 * queue left the trees while the request was in flight (its slice ended), on
 * the tree its class and type name (st_for). Group idling (a queue that
 * would not idle, alone in its group) is refused when the service tree's
 * think time is above group_idle, whatever the group's think time is.
 */
#include "sched_cfq_util.h"

static int test_end_stamped_off_the_tree(void)
{
	struct t_sq *s = t_sq_new("cfq-4.19", 4, 1, NULL);
	struct ios_request *r;
	struct cfq_queue *q1;
	struct cfq_rb_root *st;

	T_ASSERT(s);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_RT, 4);
	r = cq_read(s, 1, 1000, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == r);
	q1 = cq_queue(s, 1, true);
	st = ios_cfq_st_for(q1->cfqg, CFQ_BE_WL, cfqq_type(q1));
	/* an RT request preempts: pid 1's slice ends, empty, it leaves the tree */
	cq_read(s, 2, 90000000, 1 * MS);
	T_ASSERT_EQ(cq_data(s)->st_preempts, 1);
	T_ASSERT(!(q1->flags & CFQ_QF_ON_RR));
	cq_done(s, r, 3 * MS);
	T_ASSERT_U64_EQ(st->ttime.last_end, 3 * MS);
	cq_free(s);
	return T_PASS;
}

/*
 * Pid 1 alone with group_idle=30 ms, its idle window off and its tree's
 * think time @tree_mean above slice_idle (8 ms), so it would not idle as the
 * last queue of its tree either: only group idling can keep the disk.
 * @group_mean is the group's think time. Returns whether CFQ armed the
 * group_idle timer at the completion.
 */
static int group_idles(uint64_t tree_mean, uint64_t group_mean)
{
	struct t_sq *s = t_sq_new("cfq-4.19", 4, 1, "group_idle=30", NULL);
	struct ios_request *r;
	struct cfq_queue *q1;
	int armed;

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	r = cq_read(s, 1, 1000, 0);
	if (t_sq_dispatch(s, 0) != r)
		return -1;
	q1 = cq_queue(s, 1, true);
	q1->flags &= ~CFQ_QF_IDLE_WINDOW;
	q1->service_tree->ttime.samples = 256;
	q1->service_tree->ttime.mean = tree_mean;
	q1->cfqg->ttime.samples = 256;
	q1->cfqg->ttime.mean = group_mean;
	cq_done(s, r, 5 * MS);
	armed = cq_wakeup(s) == 35 * MS;
	cq_free(s);
	return armed;
}

static int test_group_idle_reads_the_tree(void)
{
	/* the tree's think time against group_idle decides, not the group's */
	T_ASSERT_EQ(group_idles(20 * MS, 0), 1);
	T_ASSERT_EQ(group_idles(20 * MS, 40 * MS), 1);
	T_ASSERT_EQ(group_idles(40 * MS, 0), 0);
	T_ASSERT_EQ(group_idles(40 * MS, 40 * MS), 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_end_stamped_off_the_tree, test_group_idle_reads_the_tree);
}
