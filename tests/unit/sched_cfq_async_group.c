/*
 * Description: the group of CFQ's async queues. 2.6.33 keeps one async
 * queue per device and priority (cfq_async_queue_prio on cfqd), and
 * cfq_find_alloc_queue links a new one to the group of the task that
 * allocates it: a child cgroup's task writing first puts every later
 * writer's async requests of that priority in its group. 4.19 keeps the
 * async queues per group. 2.6.31 has no groups.
 */
#include "sched_cfq_util.h"

static struct ios_cgroup cg_a = { .path = (char *)"a", .id = 1, .weight = 1000, .ioprio = -1,
				  .parent = &t_root_cgroup };

/* Pid 1 (in a) writes, then pid 2 (root). */
static struct t_sq *two_writers(const char *prof)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);

	if (!s)
		return NULL;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4)->cgroup = &cg_a;
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_awrite(s, 1, 1000, 0);
	cq_awrite(s, 2, 90000, 0);
	return s;
}

static int test_async_group_2633(void)
{
	struct t_sq *s = two_writers("cfq-2.6.33");
	struct cfq_group *ga;

	T_ASSERT(s);
	ga = ios_cfq_lookup_group(cq_data(s), &cg_a);
	T_ASSERT(ga != cq_data(s)->root_group);
	/* one queue for both writers, in the group of pid 1, who wrote first */
	T_ASSERT(cq_queue(s, 1, false) == cq_queue(s, 2, false));
	T_ASSERT(cq_queue(s, 1, false)->cfqg == ga);
	cq_free(s);
	return T_PASS;
}

static int test_async_group_419(void)
{
	struct t_sq *s = two_writers("cfq-4.19");
	struct cfq_group *ga;

	T_ASSERT(s);
	ga = ios_cfq_lookup_group(cq_data(s), &cg_a);
	/* a queue per group: pid 1's in a, pid 2's in the root */
	T_ASSERT(cq_queue(s, 1, false) != cq_queue(s, 2, false));
	T_ASSERT(cq_queue(s, 1, false)->cfqg == ga);
	T_ASSERT(cq_queue(s, 2, false)->cfqg == cq_data(s)->root_group);
	cq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_async_group_2633, test_async_group_419);
}
