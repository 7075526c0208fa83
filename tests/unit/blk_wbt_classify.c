/*
 * Which bios writeback throttling holds, and at which limit (src/block/
 * blk_wbt.c, Linux 6.12 wbt_should_throttle, get_limit, wbt_rqw_done,
 * rq_qos_wait): O_DIRECT writes (REQ_SYNC|REQ_IDLE) and reads pass;
 * buffered writes wait at wb_normal, background writeback at
 * wb_background, WB_SYNC_ALL writes at max_depth; a read in the last
 * 100 ms lowers the limit, a dirty-throttled writer in the last second
 * raises it; waiters are woken in order, with hysteresis, and with a
 * write cache only once the writes have drained. A 64-deep 'none' queue:
 * max_depth 16, wb_normal 8, wb_background 4. Each test names the rule
 * whose removal fails it.
 */
#include "wbt_rig.h"

/* Submit @n writes with @flags at @t; how many were kept (the task sleeps). */
static unsigned kept(struct m_rig *r, unsigned n, uint32_t flags, uint64_t t)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		k += (unsigned)w_write(r, flags, t);
	return k;
}

/* O_DIRECT writes and reads are never held. Fails without wbt_should_throttle's exception. */
static int test_odirect_and_reads_pass(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(kept(r, 30, IOS_REQ_SYNC | IOS_REQ_IDLE, W_MS), 0);
	for (unsigned i = 0; i < 20; i++)
		T_ASSERT_EQ(w_read(r, W_MS), 0);
	T_ASSERT_EQ(w_dbg(r).inflight[0], 0);
	m_rig_free(r, 2 * W_MS);
	return T_PASS;
}

/*
 * Each kind at its limit: buffered 8, background 4, WB_SYNC_ALL 16,
 * discards 4 in their own queue. Fails if get_limit ignored REQ_BACKGROUND
 * or REQ_SYNC, or discards shared the writes' count.
 */
static int test_limits_per_kind(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(kept(r, 10, 0, W_MS), 2);
	T_ASSERT_EQ(w_dbg(r).inflight[0], 8);
	m_rig_free(r, 2 * W_MS);

	r = w_rig(NULL, 64, NULL);
	T_ASSERT_EQ(kept(r, 10, IOS_REQ_BACKGROUND, W_MS), 6);
	m_rig_free(r, 2 * W_MS);

	r = w_rig(NULL, 64, NULL);
	T_ASSERT_EQ(kept(r, 20, IOS_REQ_SYNC, W_MS), 4);
	m_rig_free(r, 2 * W_MS);

	r = w_rig(NULL, 64, NULL);
	T_ASSERT_EQ(kept(r, 8, 0, W_MS), 0);
	T_ASSERT_EQ(kept(r, 6, IOS_REQ_DISCARD, W_MS), 2);
	T_ASSERT_EQ(w_dbg(r).inflight[2], 4);
	T_ASSERT_EQ(w_dbg(r).waiting[2], 2);
	m_rig_free(r, 2 * W_MS);
	return T_PASS;
}

/*
 * A read issued in the last 100 ms (close_io): buffered writes get the
 * background limit, 4; 25 jiffies later the normal 8 again. Fails
 * without close_io.
 */
static int test_recent_read_lowers(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(w_read(r, 40 * W_MS), 0);
	(void)w_complete(r, IOS_READ, 41 * W_MS);
	/* issued at jiffy 10, completed at jiffy 10: close until jiffy 35 (140 ms) */
	T_ASSERT_EQ(kept(r, 6, 0, 139 * W_MS), 2);
	(void)w_complete(r, IOS_WRITE, 139 * W_MS + 1);
	m_rig_free(r, 150 * W_MS);

	r = w_rig(NULL, 64, NULL);
	T_ASSERT_EQ(w_read(r, 40 * W_MS), 0);
	(void)w_complete(r, IOS_READ, 41 * W_MS);
	T_ASSERT_EQ(kept(r, 10, 0, 140 * W_MS), 2);
	m_rig_free(r, 150 * W_MS);
	return T_PASS;
}

/*
 * A writer slept in balance_dirty_pages within the last second
 * (wb_recent_wait): even background writeback gets the whole depth, 16.
 * Fails without wb_recent_wait in get_limit.
 */
static int test_dirty_throttled_raises(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	r->q->bdp_slept = true;
	r->q->last_bdp_sleep_ns = 100 * W_MS;
	T_ASSERT_EQ(kept(r, 20, IOS_REQ_BACKGROUND, 500 * W_MS), 4);
	m_rig_free(r, 2000 * W_MS);

	r = w_rig(NULL, 64, NULL);
	r->q->bdp_slept = true;
	r->q->last_bdp_sleep_ns = 100 * W_MS;
	/* a second (250 jiffies) later it no longer counts */
	T_ASSERT_EQ(kept(r, 20, IOS_REQ_BACKGROUND, 1100 * W_MS), 16);
	m_rig_free(r, 2000 * W_MS);
	return T_PASS;
}

/*
 * Waking (wbt_rqw_done): with 8 buffered writes in flight and sleepers,
 * the first completion (7 left, room 1) wakes no one: room must reach
 * wb_background / 2 = 2. The second does, and the woken take the room
 * in order. Fails without the hysteresis.
 */
static int test_wake_hysteresis(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(kept(r, 11, 0, W_MS), 3);
	ios_queue_complete(r->q, r->issued[0], 2 * W_MS, 0);
	T_ASSERT_EQ(w_dbg(r).waiting[0], 3);
	T_ASSERT_EQ(r->nr_queued_cb, 0);
	ios_queue_complete(r->q, r->issued[1], 3 * W_MS, 0);
	T_ASSERT_EQ(w_dbg(r).waiting[0], 1);
	T_ASSERT_EQ(r->nr_queued_cb, 2);
	T_ASSERT(r->queued_order[0] == &r->bios[8] && r->queued_order[1] == &r->bios[9]);
	T_ASSERT_EQ(w_dbg(r).inflight[0], 8);
	m_rig_free(r, 4 * W_MS);
	return T_PASS;
}

/*
 * No barging (rq_qos_wait): with a buffered write asleep, a WB_SYNC_ALL
 * write (limit 16, 8 in flight) still queues behind it. Fails if a new
 * bio took a slot past the sleepers.
 */
static int test_fifo_no_barging(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(kept(r, 9, 0, W_MS), 1);
	T_ASSERT_EQ(w_write(r, IOS_REQ_SYNC, W_MS), 1);
	T_ASSERT_EQ(w_dbg(r).waiting[0], 2);
	m_rig_free(r, 2 * W_MS);
	return T_PASS;
}

/*
 * A device with a write cache (QUEUE_FLAG_WC): sleepers wait until every
 * tracked write has completed. Fails without the wc rule (the second
 * completion would wake them, as in test_wake_hysteresis).
 */
static int test_write_cache_drains(void)
{
	struct m_rig *r;

	m_write_cache = true;
	r = w_rig(NULL, 64, NULL);
	m_write_cache = false;
	T_ASSERT(r);
	T_ASSERT_EQ(kept(r, 11, 0, W_MS), 3);
	for (unsigned i = 0; i < 7; i++)
		ios_queue_complete(r->q, r->issued[i], 2 * W_MS + i, 0);
	T_ASSERT_EQ(w_dbg(r).waiting[0], 3);
	ios_queue_complete(r->q, r->issued[7], 3 * W_MS, 0);
	T_ASSERT_EQ(w_dbg(r).waiting[0], 0);
	m_rig_free(r, 4 * W_MS);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_odirect_and_reads_pass, test_limits_per_kind, test_recent_read_lowers,
		     test_dirty_throttled_raises, test_wake_hysteresis, test_fifo_no_barging,
		     test_write_cache_drains);
}
