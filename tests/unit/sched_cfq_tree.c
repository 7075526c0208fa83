/*
 * Description: CFQ's service trees (spec cfq.md §4). Busy queues are served
 * RT before BE before IDLE in every profile. A queue's key is the time it
 * was queued plus (N - 1) * (slice(sync, 0) - slice(its class, level)):
 * lower levels and async queues go further back the more queues are busy.
 * In 2.6.31 N counts every busy queue on the device, this one included; in
 * 2.6.33 and 4.19 N is the group's busy queues, counted before the new
 * queue joins (the kernel adds the queue to its group after computing the
 * key), so a new queue's key is (others - 1) * delta. Equal keys keep
 * arrival order. An idle-class queue in 2.6.31 is keyed 200 ms after the
 * last queue of the tree.
 */
#include "sched_cfq_util.h"

static const char *const profiles[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

static int test_class_order(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 1, 1, NULL);
		uint32_t pids[16];
		uint64_t now = 0;
		size_t n;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_IDLE, 0);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 0);
		cq_ioc(3, IOS_IOPRIO_CLASS_RT, 7);
		/* queued in the reverse of the order they must be served in */
		cq_read(s, 1, 10000000, 0);
		cq_read(s, 1, 10000008, 0);
		cq_read(s, 2, 20000000, 0);
		cq_read(s, 2, 20000008, 0);
		cq_read(s, 3, 30000000, 0);
		cq_read(s, 3, 30000008, 0);
		n = cq_drive(s, &now, pids, 16);
		T_ASSERT_EQ(n, 6);
		T_ASSERT_MSG(pids[0] == 3 && pids[1] == 3 && pids[2] == 2 && pids[3] == 2 &&
			     pids[4] == 1 && pids[5] == 1,
			     "%s: served %u %u %u %u %u %u", profiles[p], pids[0], pids[1], pids[2],
			     pids[3], pids[4], pids[5]);
		cq_free(s);
	}
	return T_PASS;
}

static int test_fifo_among_equal_keys(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 1, 1, NULL);
		uint32_t pids[8];
		uint64_t now = 0;

		T_ASSERT(s);
		/* level 0 sync queues have no offset: all keyed at 0 */
		cq_ioc(7, IOS_IOPRIO_CLASS_BE, 0);
		cq_ioc(5, IOS_IOPRIO_CLASS_BE, 0);
		cq_ioc(6, IOS_IOPRIO_CLASS_BE, 0);
		cq_read(s, 7, 10000000, 0);
		cq_read(s, 5, 20000000, 0);
		cq_read(s, 6, 30000000, 0);
		T_ASSERT_EQ(cq_queue(s, 7, true)->rb_key, cq_queue(s, 6, true)->rb_key);
		T_ASSERT_EQ(cq_drive(s, &now, pids, 8), 3);
		T_ASSERT_MSG(pids[0] == 7 && pids[1] == 5 && pids[2] == 6, "%s: served %u %u %u",
			     profiles[p], pids[0], pids[1], pids[2]);
		cq_free(s);
	}
	return T_PASS;
}

/* keys of A (BE4 sync), B (BE4 sync), C (BE0 sync), D (BE4 async), queued in that order */
static int keys_abcd(const char *prof, int64_t key[4], uint32_t order[4])
{
	struct t_sq *s = t_sq_new(prof, 1, 1, NULL);
	uint64_t now = 10 * MS;
	uint32_t pids[8];

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(3, IOS_IOPRIO_CLASS_BE, 0);
	cq_ioc(4, IOS_IOPRIO_CLASS_BE, 4);
	cq_read(s, 1, 10000000, now);
	cq_read(s, 2, 20000000, now);
	cq_read(s, 3, 30000000, now);
	cq_awrite(s, 4, 40000000, now);
	key[0] = (int64_t)(cq_queue(s, 1, true)->rb_key - now);
	key[1] = (int64_t)(cq_queue(s, 2, true)->rb_key - now);
	key[2] = (int64_t)(cq_queue(s, 3, true)->rb_key - now);
	key[3] = (int64_t)(cq_queue(s, 4, false)->rb_key - now);
	if (cq_drive(s, &now, pids, 8) != 4)
		return -2;
	memcpy(order, pids, 4 * sizeof(*order));
	cq_free(s);
	return 0;
}

static int test_offset_2631(void)
{
	int64_t k[4];
	uint32_t o[4];

	T_ASSERT_EQ(keys_abcd("cfq", k, o), 0);
	/* busy queues 1, 2, 3, 4 when each joined (the joining queue counted) */
	T_ASSERT_EQ(k[0], 0);
	T_ASSERT_EQ(k[1], 1 * 80 * (int64_t)MS);		/* (2-1) * (180-100) */
	T_ASSERT_EQ(k[2], 0);					/* level 0: no offset */
	T_ASSERT_EQ(k[3], 3 * 140 * (int64_t)MS);		/* (4-1) * (180-40) */
	T_ASSERT_MSG(o[0] == 1 && o[1] == 3 && o[2] == 2 && o[3] == 4, "served %u %u %u %u",
		     o[0], o[1], o[2], o[3]);
	return T_PASS;
}

static int test_offset_group_2633_419(void)
{
	static const char *const prof[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 2; p++) {
		int64_t k[4];
		uint32_t o[4];

		T_ASSERT_EQ(keys_abcd(prof[p], k, o), 0);
		/* other busy queues in the group 0, 1, 2, 3 when each joined */
		T_ASSERT_MSG(k[0] == -80 * (int64_t)MS, "%s: A key %" PRId64, prof[p], k[0]);
		T_ASSERT_MSG(k[1] == 0, "%s: B key %" PRId64, prof[p], k[1]);
		T_ASSERT_MSG(k[2] == 0, "%s: C key %" PRId64, prof[p], k[2]);
		T_ASSERT_MSG(k[3] == 2 * 140 * (int64_t)MS, "%s: D key %" PRId64, prof[p], k[3]);
		/* sync tree first (lowest key), FIFO inside it, then async */
		T_ASSERT_MSG(o[0] == 1 && o[1] == 2 && o[2] == 3 && o[3] == 4,
			     "%s: served %u %u %u %u", prof[p], o[0], o[1], o[2], o[3]);
	}
	return T_PASS;
}

/* After its slice a queue that still has requests is re-keyed now + (N-1)*delta, N with itself. */
static int test_offset_at_resort(void)
{
	static const char *const prof[] = { "cfq", "cfq-2.6.33" };

	for (size_t p = 0; p < 2; p++) {
		struct t_sq *s = t_sq_new(prof[p], 1, 1, "slice_sync=10",
					  p ? "low_latency=0" : NULL, NULL);
		struct cfq_queue *a;
		uint64_t now = 0;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
		cq_ioc(3, IOS_IOPRIO_CLASS_BE, 4);
		for (int i = 0; i < 40; i++)
			cq_read(s, 1, 1000 + 8 * (uint64_t)i, 0);
		cq_read(s, 2, 20000000, 0);
		cq_read(s, 3, 30000000, 0);
		a = cq_queue(s, 1, true);
		/* slice 10 ms at level 4 (slice(0) = 18 ms): serve until pid 1 expires */
		do {
			struct ios_request *rq = t_sq_dispatch(s, now);

			T_ASSERT(rq && rq->ioc->pid == 1);
			now += MS;
			cq_done(s, rq, now);
		} while (cq_data(s)->active_queue == a && now < 100 * MS);
		T_ASSERT(cq_data(s)->active_queue != a);
		/* three busy queues, pid 1 among them: (3-1) * (18 - 10) ms */
		T_ASSERT_MSG(a->rb_key == now + 2 * 8 * MS, "%s: key %" PRIu64 " at %" PRIu64,
			     prof[p], a->rb_key, now);
		cq_free(s);
	}
	return T_PASS;
}

static int test_idle_class_key_2631(void)
{
	struct t_sq *s = t_sq_new("cfq", 1, 1, NULL);

	T_ASSERT(s);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(3, IOS_IOPRIO_CLASS_IDLE, 0);
	cq_ioc(4, IOS_IOPRIO_CLASS_IDLE, 0);
	cq_read(s, 1, 1000, 5 * MS);
	cq_read(s, 2, 20000000, 5 * MS);		/* key 5 + 80 ms, the last one */
	cq_read(s, 3, 30000000, 6 * MS);
	T_ASSERT_U64_EQ(cq_queue(s, 3, true)->rb_key, 85 * MS + 200 * MS);
	cq_read(s, 4, 40000000, 7 * MS);		/* behind the idle one now */
	T_ASSERT_U64_EQ(cq_queue(s, 4, true)->rb_key, 485 * MS);
	cq_free(s);
	return T_PASS;
}

/*
 * 2.6.33+: the workload slice is group_slice * count / max(the group's
 * average of busy queues, busy queues now). Choosing a workload reads the
 * average; only a queue's slice set-up updates it (spec §4, §3).
 */
static int test_workload_slice_uses_average(void)
{
	static const char *const prof[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 2; p++) {
		struct t_sq *s = t_sq_new(prof[p], 1, 1, NULL);
		struct cfq_data *cd;
		uint64_t now = 10 * MS;

		T_ASSERT(s);
		cd = cq_data(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
		/* as if six queues had been busy a moment ago */
		cd->root_group->busy_queues_avg[CFQ_BE_WL] = 6;
		cq_read(s, 1, 1000, now);
		cq_awrite(s, 2, 20000000, now);
		T_ASSERT(t_sq_dispatch(s, now));
		T_ASSERT_EQ(cd->serving_wl_type, CFQ_SYNC_WL);
		/* 300 ms * 1 queue / max(6, 2) */
		T_ASSERT_MSG(cd->workload_expires == now + 50 * MS, "%s: workload slice %" PRIu64,
			     prof[p], cd->workload_expires - now);
		T_ASSERT_EQ(cd->root_group->busy_queues_avg[CFQ_BE_WL], 6);
		cq_free(s);
	}
	return T_PASS;
}

/*
 * A new group turn starts with the workload slice expired ("jiffies - 1"),
 * also at time 0: the type with the lowest key is chosen, here the async
 * queue (the first of the group, keyed -140 ms) over the reader (0 ms).
 */
static int test_first_workload_choice(void)
{
	static const char *const prof[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 2; p++) {
		for (uint64_t t0 = 0; t0 <= 10 * MS; t0 += 10 * MS) {
			struct t_sq *s = t_sq_new(prof[p], 1, 1, NULL);
			struct ios_request *rq;

			T_ASSERT(s);
			cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
			cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
			cq_awrite(s, 2, 1000, t0);
			cq_read(s, 1, 90000000, t0);
			rq = t_sq_dispatch(s, t0);
			T_ASSERT_MSG(rq && rq->ioc->pid == 2, "%s at %" PRIu64 " ms: pid %u first",
				     prof[p], t0 / MS, rq ? rq->ioc->pid : 0);
			T_ASSERT_EQ(cq_data(s)->serving_wl_type, CFQ_ASYNC_WL);
			cq_free(s);
		}
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_class_order, test_fifo_among_equal_keys, test_offset_2631,
		     test_offset_group_2633_419, test_offset_at_resort, test_idle_class_key_2631,
		     test_workload_slice_uses_average, test_first_workload_choice);
}
