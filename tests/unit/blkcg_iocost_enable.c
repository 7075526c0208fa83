/*
 * Description: io.cost does nothing until io.cost.qos enable=1 (Linux
 * 6.12 blk-iocost.c ioc_rqos_throttle, ioc_rqos_merge, ioc_rqos_done test
 * ioc->enabled): io.weight, io.cost.model and the rest of io.cost.qos may
 * be written, but no bio is charged or waits, no latency is sampled and no
 * timer runs; enable=1 then charges by the weights already written, and
 * enable=0 stops it again.
 */
#include "iocost_rig.h"

static int flood(struct c_rig *r, unsigned g, uint64_t now)
{
	int waited = 0;

	for (int i = 0; i < 2000; i++) {
		struct ios_iocost_bio *b = c_bio(r, g, (uint64_t)i * 1000000, 8, IOS_READ);

		waited += c_throttle(r, b, now);
	}
	return waited;
}

/* rule: !ioc->enabled bypasses everything */
static int test_disabled(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a, b;

	c_init(r);
	a = c_group(r, 0, 500);
	b = c_group(r, 0, 100);
	r->v2[0].qos.user = true;
	r->v2[0].qos.given = 0xf;
	r->v2[0].qos.qos[IOS_QOS_RPPM] = 900000;
	r->v2[0].qos.qos[IOS_QOS_RLAT] = 1000;
	T_ASSERT(!c_start(r, 0, 0));
	T_ASSERT(!c_state(r, 0).enabled);
	T_ASSERT_EQ(flood(r, a, 0), 0);
	T_ASSERT_EQ(flood(r, b, 0), 0);
	T_ASSERT(!c_gstate(r, a).active);
	T_ASSERT_U64_EQ(ios_iocost_next_timer(r->ioc), UINT64_MAX);
	ios_iocost_done(r->ioc, IOS_READ, 8, 0, 5 * C_MS, 10 * C_MS);
	/* enable=1: the same flood now waits, by the weights written before */
	r->v2[0].qos.enable = true;
	ios_iocost_configure(r->ioc, &r->v2[0], 10 * C_MS);
	T_ASSERT(flood(r, a, 10 * C_MS) > 0);
	T_ASSERT(flood(r, b, 10 * C_MS) > 0);
	T_ASSERT_EQ(c_gstate(r, a).hweight_active, 65536 * 500 / 600);
	T_ASSERT(ios_iocost_next_timer(r->ioc) != UINT64_MAX);
	/* the sample taken while disabled was not counted */
	ios_iocost_timer(r->ioc, ios_iocost_next_timer(r->ioc));
	while (c_state(r, 0).cur_period == 0)
		ios_iocost_timer(r->ioc, ios_iocost_next_timer(r->ioc));
	T_ASSERT_EQ(c_state(r, 0).rq_wait_pct, 0);
	T_ASSERT_EQ(c_state(r, 0).missed_ppm[0], 0);
	/* enable=0 again: new bios pass */
	r->v2[0].qos.enable = false;
	ios_iocost_configure(r->ioc, &r->v2[0], 100 * C_MS);
	T_ASSERT_EQ(flood(r, a, 100 * C_MS), 0);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_disabled);
}
