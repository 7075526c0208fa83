/*
 * When writeback throttling runs (src/block/blk_wbt.c, Linux 6.12
 * wbt_enable_default at disk registration, wbt_disable_default from
 * bfq_init_queue and io.cost's ioc_qos_write, queue_wb_lat_store): on by
 * default under none, mq-deadline and kyber; absent under bfq-6.12
 * (ELEVATOR_FLAG_DISABLE_WBT); off while io.cost is enabled unless a
 * latency was written; wbt_lat_usec=0 off, -1 the default, below -1
 * refused; never on the single-queue layer. Each test names the rule
 * whose removal fails it.
 */
#include <errno.h>
#include "wbt_rig.h"
#include "block/blk_iocost.h"

/* Buffered writes kept out of 12 on a 64-deep queue (8 when wbt is on). */
static unsigned kept12(struct m_rig *r)
{
	unsigned k = 0;

	for (unsigned i = 0; i < 12; i++)
		k += (unsigned)w_write(r, 0, W_MS);
	return k;
}

/* Fails if wbt_enable_default skipped a blk-mq elevator without the flag. */
static int test_on_by_default(void)
{
	static const char *const names[] = { "none", "mq-deadline", "kyber" };

	for (size_t i = 0; i < 3; i++) {
		struct m_rig *r = w_rig(names[i], 64, NULL);
		struct ios_wbt_debug d;

		T_ASSERT(r);
		T_ASSERT_EQ(ios_wbt_debug(r->q, &d), 0);
		T_ASSERT_EQ(d.enabled, 1);
		T_ASSERT_U64_EQ(d.min_lat_nsec, 2 * W_MS);
		T_ASSERT_EQ(ios_wbt_lat_show(r->q), 2000);
		T_ASSERT_EQ(r->q->tun.wbt_lat_usec, 2000);
		if (!strcmp(names[i], "none"))
			T_ASSERT_EQ(kept12(r), 4);
		m_rig_free(r, 2 * W_MS);
	}
	return T_PASS;
}

/*
 * bfq-6.12 sets ELEVATOR_FLAG_DISABLE_WBT: no wbt on its queue, and
 * writes pass. A written wbt_lat_usec brings it up all the same
 * (queue_wb_lat_store calls wbt_init): -1 as ON_DEFAULT, 5000 as
 * ON_MANUAL. Fails without the flag, or if the store ignored a missing wbt.
 */
static int test_bfq_off(void)
{
	struct m_rig *r = w_rig("bfq-6.12", 64, NULL);
	struct ios_wbt_debug d;

	T_ASSERT(r);
	T_ASSERT_EQ(ios_wbt_debug(r->q, &d), -ENOENT);
	T_ASSERT_EQ(ios_wbt_lat_show(r->q), -EINVAL);
	T_ASSERT_EQ(r->q->tun.wbt_lat_usec, 0);
	m_rig_free(r, 0);

	r = w_rig("bfq-6.12", 64, "queue.wbt_lat_usec=-1");
	T_ASSERT(r);
	T_ASSERT_EQ(ios_wbt_debug(r->q, &d), 0);
	T_ASSERT_EQ(d.enabled, 1);
	m_rig_free(r, 0);

	r = w_rig("bfq-6.12", 64, "queue.wbt_lat_usec=5000");
	T_ASSERT(r);
	T_ASSERT_EQ(ios_wbt_debug(r->q, &d), 0);
	T_ASSERT_EQ(d.enabled, 2);
	T_ASSERT_U64_EQ(d.min_lat_nsec, 5 * W_MS);
	m_rig_free(r, 0);
	return T_PASS;
}

/*
 * io.cost enable=1 (ios_wbt_disable_default): off, writes pass; enable=0
 * turns it back on. A latency written through sysfs is ON_MANUAL and
 * stays. Fails if disable_default ignored the state, or did nothing.
 */
static int test_iocost_disables(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	ios_wbt_disable_default(r->q);
	T_ASSERT_EQ(w_dbg(r).enabled, 3);
	T_ASSERT(!ios_wbt_enabled(r->q));
	T_ASSERT_EQ(ios_wbt_lat_show(r->q), 0);
	T_ASSERT_EQ(kept12(r), 0);
	ios_wbt_enable_default(r->q);
	T_ASSERT_EQ(w_dbg(r).enabled, 1);
	m_rig_free(r, 2 * W_MS);

	r = w_rig(NULL, 64, "queue.wbt_lat_usec=3000");
	T_ASSERT(r);
	ios_wbt_disable_default(r->q);
	T_ASSERT_EQ(w_dbg(r).enabled, 2);
	T_ASSERT_EQ(kept12(r), 4);
	m_rig_free(r, 2 * W_MS);
	return T_PASS;
}

/*
 * The same through io.cost itself (ioc_qos_write): installing it with
 * enable=1 turns wbt's default off, a later write of enable=0 (the
 * conf_updated path of a job's exec_prerun) turns it back on. Fails if
 * blk_iocost_rqos.c stops calling wbt_disable_default / enable_default.
 */
static int test_iocost_install(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);
	struct ios_cgroup root;
	struct ios_cgroup *cgs[1] = { &root };
	struct ios_cgroup_v2 v;
	struct ios_blkcg_ctl *ctl;

	T_ASSERT(r);
	memset(&root, 0, sizeof(root));
	ios_cgroup_v2_init(&v);
	v.qos.enable = true;
	root.v2 = &v;
	ctl = ios_blkcg_ctl_create(cgs, 1);
	T_ASSERT(ctl);
	r->q->blkcg = ctl;
	T_ASSERT_EQ(ios_blk_iocost_init(r->q, 250, 0), 0);
	T_ASSERT_EQ(w_dbg(r).enabled, 3);		/* OFF_DEFAULT */
	v.qos.enable = false;
	T_ASSERT(ctl->conf_updated[IOS_BLKCG_COST_QOS]);
	ctl->conf_updated[IOS_BLKCG_COST_QOS](r->q, &ctl->blkgs[0], 1000);
	T_ASSERT_EQ(w_dbg(r).enabled, 1);		/* ON_DEFAULT */
	m_rig_free(r, 2 * W_MS);
	ios_blkcg_ctl_destroy(ctl);
	return T_PASS;
}

/*
 * wbt_lat_usec=0: OFF_MANUAL, nothing held, and io.cost's enable=0 does
 * not turn it back on. Fails if 0 were taken as a latency.
 */
static int test_zero_off(void)
{
	struct m_rig *r = w_rig(NULL, 64, "queue.wbt_lat_usec=0");

	T_ASSERT(r);
	T_ASSERT_EQ(w_dbg(r).enabled, 4);
	T_ASSERT_EQ(r->q->tun.wbt_lat_usec, 0);
	T_ASSERT_EQ(kept12(r), 0);
	ios_wbt_enable_default(r->q);
	T_ASSERT_EQ(w_dbg(r).enabled, 4);
	/* written back to -1 at run time: the default latency, ON_MANUAL */
	T_ASSERT_EQ(ios_wbt_lat_store(r->q, -1, 2 * W_MS), 0);
	T_ASSERT_EQ(w_dbg(r).enabled, 2);
	T_ASSERT_EQ(ios_wbt_lat_show(r->q), 2000);
	m_rig_free(r, 2 * W_MS);
	return T_PASS;
}

/*
 * Refusals as queue_wb_lat_store's: below -1 -EINVAL; through the
 * settings the queue is not built; on the single-queue layer any write is
 * refused (the lab models wbt on blk-mq only), and so on a queue built
 * without wbt. Fails if -2 were accepted.
 */
static int test_refusals(void)
{
	struct m_rig *r = w_rig(NULL, 64, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(ios_wbt_lat_store(r->q, -2, 0), -EINVAL);
	T_ASSERT_EQ(ios_wbt_lat_store(r->q, INT64_MAX, 0), -ERANGE);
	T_ASSERT_EQ(w_dbg(r).enabled, 1);
	m_rig_free(r, 0);
	T_ASSERT(!w_rig(NULL, 64, "queue.wbt_lat_usec=-2"));
	T_ASSERT(!w_rig("noop", 64, "queue.wbt_lat_usec=1000"));
	r = w_rig("noop", 64, NULL);
	T_ASSERT(r);
	T_ASSERT(!r->q->rq_qos);
	m_rig_free(r, 0);
	m_wbt = false;
	T_ASSERT(!m_rig_new("none", 64, 1, 1, "queue.wbt_lat_usec=1000"));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_on_by_default, test_bfq_off, test_iocost_disables, test_iocost_install,
		     test_zero_off, test_refusals);
}
