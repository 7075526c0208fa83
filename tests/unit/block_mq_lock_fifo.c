/*
 * The CPU cost model's scheduler lock is taken in arrival order
 * (src/block/mq.c mq_dispatch_paid; Linux's queued spinlocks are FIFO, so
 * a dispatch that spins on dd->lock in 6.12's dd_dispatch_request gets it
 * before inserts that arrive after it started spinning).
 *
 * test_dispatch_not_starved: four CPUs submit a read every 900 ns to
 * mq-deadline, each insert holding the lock for 1000 ns, so the lock is
 * never free between inserts. The first request must be issued after the
 * insert ahead of it and one dispatch (by 3000 ns, 3100 allowed for the
 * timer's 100 ns steps), and every request must be issued. When the
 * dispatch waited for a moment the lock was free, later inserts kept
 * booking ahead of it and the first issue came only after the stream
 * ended (21000 ns).
 * test_cpu_charged_section_only: the CPU running the dispatch is charged
 * its dispatch_ns from when it asked, not from when the lock came: the
 * wait is spinning, not work that delays that CPU's next submission.
 * Fake clock: the queue's timer is called every 100 ns.
 */
#include "mq_rig.h"

static struct m_rig *lock_rig(void)
{
	struct m_rig *r;

	memset(&m_cost, 0, sizeof(m_cost));
	m_cost.insert_ns = 1000;
	m_cost.dispatch_ns = 1000;
	r = m_rig_new("mq-deadline", 64, 1, 4, NULL);
	memset(&m_cost, 0, sizeof(m_cost));
	return r;
}

static int test_dispatch_not_starved(void)
{
	struct m_rig *r = lock_rig();
	struct ios_ioc *ioc[4];
	uint64_t first = 0;
	unsigned n = 0;

	T_ASSERT(r);
	for (unsigned k = 0; k < 4; k++)
		ioc[k] = m_ioc(20 + k, k);
	for (uint64_t t = 0; t <= 40000; t += 100) {
		if (t % 900 == 0 && n < 20) {
			(void)m_submit(r, ioc[n % 4], (uint64_t)n * 1000000, 8, IOS_READ, 0, t);
			n++;
		}
		ios_queue_timer(r->q, t);
		if (!first && r->nr_issued)
			first = t;
	}
	T_ASSERT_EQ(n, 20);
	T_ASSERT(first > 0);
	T_ASSERT_MSG(first <= 3100, "first issue at %llu ns, bound 3100 ns (one insert ahead, one dispatch)",
		     (unsigned long long)first);
	T_ASSERT_EQ(r->nr_issued, 20);
	m_rig_free(r, 50000);
	return T_PASS;
}

static int test_cpu_charged_section_only(void)
{
	struct m_rig *r = lock_rig();
	struct ios_ioc *a = m_ioc(30, 0), *b = m_ioc(31, 1);
	uint64_t first = 0;

	T_ASSERT(r);
	/* b's insert holds the lock 0..1000; a's bio books 1000..2000 */
	(void)m_submit(r, b, 0, 8, IOS_READ, 0, 0);
	(void)m_submit(r, a, 1000000, 8, IOS_READ, 0, 0);
	for (uint64_t t = 0; t <= 1000; t += 100)
		ios_queue_timer(r->q, t);
	/*
	 * b entered at 1000 and its CPU ran the queue: the dispatch booked
	 * the lock behind a's insert (2000..3000), and CPU 1 was charged
	 * the section from when it asked (1000..2000), not 2000..3000.
	 */
	T_ASSERT_MSG(r->q->mq->ctx[1].busy_until == 2000, "cpu 1 busy until %llu ns, want 2000",
		     (unsigned long long)r->q->mq->ctx[1].busy_until);
	for (uint64_t t = 1100; t <= 10000; t += 100) {
		ios_queue_timer(r->q, t);
		if (!first && r->nr_issued)
			first = t;
	}
	T_ASSERT_EQ(first, 3000);
	T_ASSERT_EQ(r->nr_issued, 2);
	m_rig_free(r, 20000);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_dispatch_not_starved, test_cpu_charged_section_only);
}
