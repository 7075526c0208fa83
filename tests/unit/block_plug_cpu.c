/*
 * The plug and blk-mq's CPU cost model together (src/block/plug.c,
 * src/block/mq.c; Linux 6.12 blk_mq_submit_bio, blk_add_rq_to_plug,
 * blk_mq_flush_plug_list, blk_finish_plug, io_schedule_prepare). In the
 * kernel a task runs each submit_bio on its own CPU, one after another,
 * and finishes its plug after the last has returned; here a bio the cost
 * model holds enters later than the call that submitted it. Each test
 * pins one rule of that deferral and fails without it:
 * - test_held_bios_join_plug: a held bio's request goes on the plug its
 *   task had when it submitted the bio, even though the task finished
 *   the plug before the bio entered (rule: bio->plug_held, ios_plug_hold);
 *   without it the bios went on unplugged (no P, no U, one D each);
 * - test_finish_waits_for_held: a finish that finds bios still waiting
 *   for their CPU does not flush past them: one U carrying every request,
 *   after the last has entered (rule: the deferral in ios_blk_finish_plug
 *   and the flush in ios_plug_release); without it the finish flushed the
 *   entered ones (U 1) and the held one went on alone;
 * - test_deferred_plug_outlives_owner: the deferred state is ours, not in
 *   the owner's struct: the owner's plug (on a stack frame that has
 *   returned, as vfs.c's and writeback.c's are) is scribbled over after
 *   the finish and the bios still enter, plug and flush correctly (rule:
 *   struct ios_plug_held's own copy);
 * - test_held_bio_task_runs: a bio held for CPU time answers 0 (its task is
 *   running the submission, not asleep) and is never announced through
 *   bio->queued, while a bio without a tag still answers 1 and is
 *   announced when it gets one (rule: ios_mq_submit_bio's 0 and
 *   bio->cpu_held); with 1 the O_DIRECT submitter stopped its I/O's next
 *   bios and slept until the CPU had served the first (vfs.c vb_submit);
 * - test_held_sleeper_flushes_its_plug: a held bio that finds no tag when
 *   it enters flushes the plug it belongs to (UT) before it sleeps, the
 *   deferred one included (rule: mq_submit_now's ios_plug_flush(plug)).
 * Fake clock: every call passes its own time; the queue's timer is called
 * by hand at the times the bios are due.
 */
#include "mq_rig.h"

static unsigned count(const struct m_rig *r, char c)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nr_trace; i++)
		n += r->trace[i] == c;
	return n;
}

/* A rig under 'none' whose submissions cost @submit_ns each on their CPU. */
static struct m_rig *cost_rig(unsigned depth, uint64_t submit_ns)
{
	struct m_rig *r;

	memset(&m_cost, 0, sizeof(m_cost));
	m_cost.submit_ns = submit_ns;
	r = m_rig_new("none", depth, 1, 1, NULL);
	memset(&m_cost, 0, sizeof(m_cost));
	return r;
}

static int sub(struct m_rig *r, struct ios_ioc *ioc, unsigned i, uint64_t now)
{
	return m_submit(r, ioc, 1000000 + (uint64_t)i * 4096, 8, IOS_READ, 0, now);
}

static int test_held_bios_join_plug(void)
{
	struct m_rig *r = cost_rig(64, 1000);
	struct ios_ioc *ioc = m_ioc(11, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	/* three bios at 10: their CPU serves them at 1010, 2010, 3010 */
	for (unsigned i = 0; i < 3; i++)
		(void)sub(r, ioc, i, 10);
	ios_blk_finish_plug(ioc, &plug, 10);
	T_ASSERT(ioc->plug == NULL);
	T_ASSERT_EQ(r->nr_issued, 0);
	ios_queue_timer(r->q, 1010);
	ios_queue_timer(r->q, 2010);
	/* on the plug, not issued one by one as they enter */
	T_ASSERT_EQ(count(r, 'P'), 1);
	T_ASSERT_EQ(r->nr_issued, 0);
	ios_queue_timer(r->q, 3010);
	T_ASSERT_EQ(r->nr_issued, 3);
	T_ASSERT_EQ(r->issued[0]->sector, 1000000);
	m_rig_free(r, 5000);
	return T_PASS;
}

static int test_finish_waits_for_held(void)
{
	struct m_rig *r = cost_rig(64, 1000);
	struct ios_ioc *ioc = m_ioc(12, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	(void)sub(r, ioc, 0, 10);	/* due 1010 */
	(void)sub(r, ioc, 1, 10);	/* due 2010 */
	ios_queue_timer(r->q, 1010);
	T_ASSERT_EQ(count(r, 'P'), 1);
	/* the task finishes while the second bio still waits for its CPU */
	ios_blk_finish_plug(ioc, &plug, 1500);
	T_ASSERT_EQ(count(r, 'U'), 0);
	T_ASSERT_EQ(r->nr_issued, 0);
	ios_queue_timer(r->q, 2010);
	T_ASSERT_EQ(count(r, 'U'), 1);
	T_ASSERT_EQ(r->q->unplug_depth, 2);
	T_ASSERT_EQ(r->nr_issued, 2);
	m_rig_free(r, 5000);
	return T_PASS;
}

/* The owner's plug lives in this frame only, as vfs.c's do_direct's does. */
static __attribute__((noinline)) void submit_under_stack_plug(struct m_rig *r,
							       struct ios_ioc *ioc)
{
	struct ios_plug plug;

	ios_blk_start_plug(ioc, &plug);
	for (unsigned i = 0; i < 4; i++)
		(void)sub(r, ioc, i, 10);
	ios_blk_finish_plug(ioc, &plug, 10);
	/* what the frame's next user would do to it */
	memset(&plug, 0xa5, sizeof(plug));
	__asm__ volatile("" : : "r"(&plug) : "memory");
}

static int test_deferred_plug_outlives_owner(void)
{
	struct m_rig *r = cost_rig(64, 1000);
	struct ios_ioc *ioc = m_ioc(13, 0);
	volatile char scribble[512];

	T_ASSERT(r);
	submit_under_stack_plug(r, ioc);
	for (size_t i = 0; i < sizeof(scribble); i++)
		scribble[i] = (char)0x5a;
	T_ASSERT(ioc->plug == NULL);
	for (uint64_t t = 1010; t <= 4010; t += 1000)
		ios_queue_timer(r->q, t);
	T_ASSERT_EQ(count(r, 'P'), 1);
	T_ASSERT_EQ(count(r, 'U'), 1);
	T_ASSERT_EQ(r->q->unplug_depth, 4);
	T_ASSERT_EQ(r->nr_issued, 4);
	m_rig_free(r, 9000);
	return T_PASS;
}

static int test_held_bio_task_runs(void)
{
	struct m_rig *r = cost_rig(1, 1000);
	struct ios_ioc *ioc = m_ioc(14, 0);

	T_ASSERT(r);
	/* held for its CPU: the task runs on (0), nothing announced when it enters */
	T_ASSERT_EQ(sub(r, ioc, 0, 10), 0);
	ios_queue_timer(r->q, 1010);
	T_ASSERT_EQ(r->nr_issued, 1);
	T_ASSERT_EQ(r->nr_queued_cb, 0);
	/* held, then no tag when it enters: still no announcement (its task went on) */
	T_ASSERT_EQ(sub(r, ioc, 1, 1010), 0);
	ios_queue_timer(r->q, 2010);
	T_ASSERT_EQ(count(r, 'S'), 1);
	ios_queue_complete(r->q, r->issued[0], 3000, 0);
	T_ASSERT_EQ(r->nr_issued, 2);
	T_ASSERT_EQ(r->nr_queued_cb, 0);
	m_rig_free(r, 9000);
	return T_PASS;
}

static int test_held_sleeper_flushes_its_plug(void)
{
	/* two tags; with the model on a third bio finds none when it enters */
	struct m_rig *r = cost_rig(2, 1000);
	struct ios_ioc *ioc = m_ioc(15, 0);
	struct ios_plug plug = { 0 };

	T_ASSERT(r);
	ios_blk_start_plug(ioc, &plug);
	for (unsigned i = 0; i < 3; i++)
		(void)sub(r, ioc, i, 10);
	ios_blk_finish_plug(ioc, &plug, 10);
	ios_queue_timer(r->q, 1010);
	ios_queue_timer(r->q, 2010);
	T_ASSERT_EQ(r->nr_issued, 0);
	/* the third finds both tags on the plug: UT with 2, then it sleeps */
	ios_queue_timer(r->q, 3010);
	T_ASSERT_EQ(count(r, 'T'), 1);
	T_ASSERT_EQ(r->q->unplug_depth, 2);
	T_ASSERT_EQ(count(r, 'S'), 1);
	T_ASSERT_EQ(r->nr_issued, 2);
	ios_queue_complete(r->q, r->issued[0], 4000, 0);
	T_ASSERT_EQ(r->nr_issued, 3);
	m_rig_free(r, 9000);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_held_bios_join_plug, test_finish_waits_for_held,
		     test_deferred_plug_outlives_owner, test_held_bio_task_runs,
		     test_held_sleeper_flushes_its_plug);
}
