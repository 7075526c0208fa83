/*
 * Description: a process's scheduler context (CFQ's cic, BFQ's bic, AS's
 * aic) outlives the requests that process left behind when it exited. A
 * task can finish with I/O still queued or in the device (readahead, or
 * I/O cut off by runtime=): the block layer calls exit_icq at its exit and
 * the requests complete later. The kernel keeps the context alive through
 * the io_context references each request holds (cfq_set_request takes
 * one, cfq_put_request drops it; 4.19 does it in __get_request and
 * blk_free_request) and frees it only with the last one.
 *
 * Every scheduler and profile runs the same life through the block layer
 * on the recording device: one request in the device, one queued, one
 * buffered write queued, then the task exits, and only then everything
 * completes (idle timers fired too). Under AddressSanitizer a context
 * freed at exit is a use-after-free in completed(); in any build the CFQ
 * case also checks the context is still listed while a request is in
 * flight and gone after the last one, and that the queue tears down with
 * no context left (cfq_exit's leak check).
 *
 * test_bfq_back_pointers guards an invariant rather than a bug seen: BFQ's
 * requests never hold the bic, and no queue may point back at a bic that
 * has let go of it (it passes on the old code too).
 */
#include "sched_cfq_util.h"
#include "sched/bfq_int.h"

static const char *const scheds[] = {
	"cfq", "cfq-2.6.33", "cfq-4.19", "bfq", "as", "deadline", "noop",
};

static size_t nr_cics(const struct t_rig *r)
{
	const struct cfq_data *cfqd = r->q->sched_data;
	size_t n = 0;

	for (const struct ios_list_head *p = cfqd->all_cics.next; p != &cfqd->all_cics; p = p->next)
		n++;
	return n;
}

/* Complete everything in the device, firing timers, until nothing is left. */
static int drain(struct t_rig *r, uint64_t *now)
{
	for (int guard = 0; guard < 1000; guard++) {
		*now += MS;
		if (t_complete_next(r, *now))
			continue;
		if (r->timer_at != IOS_NO_WAKEUP) {
			if (r->timer_at > *now)
				*now = r->timer_at;
			t_fire_timer(r, *now);
			continue;
		}
		if (!t_in_device(r) && !r->q->nr_sorted)
			return 0;
		ios_queue_run(r->q, *now);
	}
	return -1;
}

static int exit_with_io_in_flight(const char *sched, uint32_t pid)
{
	struct t_rig *r = t_rig_new(sched, 1, 1, NULL);
	struct ios_ioc *ioc = t_ioc(pid), *other = t_ioc(pid + 1);
	bool cfq = !strncmp(sched, "cfq", 3);
	uint64_t now = 0;
	int ret;

	T_ASSERT_MSG(r, "%s: no rig", sched);
	ioc->nr_tasks = 1;
	other->nr_tasks = 1;
	t_submit(r, ioc, 1000, 8, IOS_READ, 0, now, &ret);
	T_ASSERT_EQ(ret, 0);
	T_ASSERT_EQ(t_in_device(r), 1);
	t_submit(r, ioc, 50000, 8, IOS_READ, 0, now, &ret);
	t_submit(r, ioc, 90000, 8, IOS_WRITE, 0, now, &ret);
	/* another process keeps the queue busy so the exited one is not alone */
	t_submit(r, other, 700000, 8, IOS_READ, 0, now, &ret);
	if (cfq)
		T_ASSERT_EQ(nr_cics(r), 2);

	now += MS / 2;
	ioc->nr_tasks = 0;
	ios_queue_ioc_exit(r->q, ioc, now);
	if (cfq) {
		/* detached, not freed: its requests still hold it */
		T_ASSERT_MSG(nr_cics(r) == 2, "%s: context freed with requests in flight", sched);
		T_ASSERT(ioc->icq[r->q->id] == NULL);
	}

	T_ASSERT_MSG(!drain(r, &now), "%s: queue never drained", sched);
	if (cfq) {
		/*
		 * The exited context went with its last request, unless it
		 * dispatched last and its slice still runs (active_cic holds
		 * it, as in the kernel); the live one stays.
		 */
		const struct cfq_data *cfqd = r->q->sched_data;

		T_ASSERT_EQ(nr_cics(r), 1 + (cfqd->active_cic && cfqd->active_cic->ioc == ioc));
		T_ASSERT(other->icq[r->q->id] != NULL);
	}
	/* a bio of the exited task still arriving (it slept for a slot) */
	t_submit(r, ioc, 120000, 8, IOS_READ, 0, now, &ret);
	T_ASSERT_MSG(!drain(r, &now), "%s: late bio never completed", sched);
	other->nr_tasks = 0;
	ios_queue_ioc_exit(r->q, other, now);
	if (cfq) {
		const struct cfq_data *cfqd = r->q->sched_data;

		T_ASSERT_EQ(nr_cics(r), cfqd->active_cic != NULL);
	}
	t_rig_free(r);
	return T_PASS;
}

static int test_exit_with_io_in_flight(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++)
		if (exit_with_io_in_flight(scheds[i], 100 + 10 * (uint32_t)i) != T_PASS)
			return T_FAIL;
	return T_PASS;
}

/*
 * CFQ idles for the active process after its last completion: the task
 * exits while the idle timer is armed for it, with its request still in
 * the device. active_cic holds its own reference (the kernel's
 * cfq_dispatch_request / __cfq_slice_expired pair).
 */
static int exit_while_active(const char *sched, uint32_t pid)
{
	struct t_rig *r = t_rig_new(sched, 1, 1, NULL);
	struct ios_ioc *ioc = t_ioc(pid);
	uint64_t now = 0;
	int ret;

	T_ASSERT(r);
	ioc->nr_tasks = 1;
	for (int k = 0; k < 20; k++) {
		/* a sequential reader with a short think time: CFQ idles for it */
		t_submit(r, ioc, 1000 + 8 * (uint64_t)k, 8, IOS_READ, 0, now, &ret);
		now += MS;
		t_complete_next(r, now);
		now += MS / 4;
	}
	t_submit(r, ioc, 5000, 8, IOS_READ, 0, now, &ret);
	ioc->nr_tasks = 0;
	ios_queue_ioc_exit(r->q, ioc, now);
	T_ASSERT(!drain(r, &now));
	t_rig_free(r);
	return T_PASS;
}

static int test_exit_while_active(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++)
		if (exit_while_active(scheds[i], 500 + (uint32_t)i) != T_PASS)
			return T_FAIL;
	return T_PASS;
}

/*
 * CFQ 2.6.33 and 4.19: pid 1's queue is set to merge into pid 2's
 * (cfq_setup_merge gives pid 2's queue pid 1's process reference), and
 * pid 1 exits before its next allocation would take the merge. Exit drops
 * that reference (cfq_put_cooperator), so pid 2's queue goes when pid 2
 * and its requests do rather than staying for the rest of the run, and
 * nothing walks into a freed queue afterwards.
 */
static int exit_with_merge_pending(const char *prof)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);
	struct cfq_queue *q1, *q2;
	struct ios_request *r, *rq;
	int ref;

	T_ASSERT(s);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(3, IOS_IOPRIO_CLASS_BE, 4);
	r = cq_read(s, 1, 1000, 0);
	cq_read(s, 3, 90000000, 0);
	cq_read(s, 2, 1016, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == r);
	cq_done(s, r, 1 * MS);
	rq = t_sq_dispatch(s, 1 * MS);
	T_ASSERT(rq && rq->ioc->pid == 2);
	q1 = cq_queue(s, 1, true);
	q2 = cq_queue(s, 2, true);
	T_ASSERT_MSG(q1 && q1->new_cfqq == q2, "%s: no merge set up", prof);
	ref = q2->ref;
	t_ioc(1)->nr_tasks = 0;
	s->type->ops.exit_icq(&s->q, t_ioc(1), 2 * MS);
	T_ASSERT_MSG(q2->ref == ref - 1, "%s: pid 1's merge reference on pid 2's queue kept"
		     " (%d, was %d)", prof, q2->ref, ref);
	cq_done(s, rq, 3 * MS);
	t_ioc(2)->nr_tasks = 0;
	s->type->ops.exit_icq(&s->q, t_ioc(2), 3 * MS);
	cq_free(s);
	return T_PASS;
}

static int test_exit_with_merge_pending(void)
{
	T_ASSERT(exit_with_merge_pending("cfq-2.6.33") == T_PASS);
	T_ASSERT(exit_with_merge_pending("cfq-4.19") == T_PASS);
	return T_PASS;
}

/* Every BFQ queue's bic back pointer names a bic that points to it. */
static int bfq_back_pointers_ok(struct bfq_data *bfqd)
{
	for (struct ios_list_head *p = bfqd->all_queues.next; p != &bfqd->all_queues; p = p->next) {
		struct bfq_queue *bfqq = ios_list_entry(p, struct bfq_queue, all_node);

		if (bfqq->bic && bfqq->bic->bfqq[0] != bfqq && bfqq->bic->bfqq[1] != bfqq)
			return 0;
	}
	return 1;
}

/*
 * BFQ: a process's bic moves between async queues (ioprio change, cgroup
 * move) and exits with writes queued; no queue may keep a back pointer to
 * a bic that no longer points to it (the bic is freed at exit, its
 * requests hold only queue references).
 */
static int test_bfq_back_pointers(void)
{
	static struct ios_cgroup cg = { .path = (char *)"/a", .id = 7, .weight = 100,
					.ioprio = -1, .parent = &t_root_cgroup };
	struct t_rig *r = t_rig_new("bfq", 1, 1, NULL);
	struct ios_ioc *ioc = t_ioc(900);
	struct bfq_data *bfqd;
	uint64_t now = 0;
	int ret;

	T_ASSERT(r);
	bfqd = r->q->sched_data;
	ioc->nr_tasks = 1;
	for (int step = 0; step < 3; step++) {
		if (step == 1)
			ioc->ioprio_level = 1;
		if (step == 2)
			ioc->cgroup = &cg;
		for (int k = 0; k < 4; k++) {
			t_submit(r, ioc, 1000 + 100 * (uint64_t)(4 * step + k), 8, IOS_WRITE, 0, now,
				 &ret);
			t_submit(r, ioc, 90000 + 100 * (uint64_t)(4 * step + k), 8, IOS_READ, 0, now,
				 &ret);
		}
		T_ASSERT(bfq_back_pointers_ok(bfqd));
		if (step < 2)
			T_ASSERT(!drain(r, &now));
	}
	ioc->nr_tasks = 0;
	ios_queue_ioc_exit(r->q, ioc, now);
	T_ASSERT(bfq_back_pointers_ok(bfqd));
	T_ASSERT(!drain(r, &now));
	t_rig_free(r);
	ioc->cgroup = &t_root_cgroup;
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_exit_with_io_in_flight, test_exit_while_active,
		     test_exit_with_merge_pending, test_bfq_back_pointers);
}
