/*
 * Description: io.cost's debt (Linux 6.12 blk-iocost.c ioc_rqos_throttle's
 * use_debt path, iocg_incur_debt, iocg_pay_debt, iocg_kick_waitq,
 * iocg_kick_delay). An issue-as-root bio (REQ_META) over budget goes at
 * once: its absolute cost becomes abs_vdebt, the group's inuse drops to
 * the minimum, and once vtime plus the debt runs more than 5 periods
 * ahead the group's blkg gets a set delay (use_delay -1) of 250 µs to
 * 250 ms; the debt is paid from later budget before any waiter wakes.
 */
#include "iocost_rig.h"
#include "block/blkcg_int.h"

static uint64_t rsector;

static struct ios_iocost_bio *rnd(struct c_rig *r, unsigned g, bool meta)
{
	struct ios_iocost_bio *b;

	rsector += 100000000;
	b = c_bio(r, g, rsector, 8, IOS_READ);
	b->issue_as_root = meta;
	return b;
}

/* rule: META over budget goes, as debt; inuse 1; delay on the blkg; paid before waiters */
static int test_debt(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	struct ios_iocost_bio *b, *w;
	unsigned a, n = 0, nr_throttle = 0;

	c_init(r);
	a = c_group(r, 0, 100);
	c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	/* within budget a META bio is charged as any other */
	b = rnd(r, a, true);
	T_ASSERT_EQ(c_throttle(r, b, 0), 0);
	T_ASSERT(b->cost > 0);
	T_ASSERT_U64_EQ(c_gstate(r, a).abs_vdebt, 0);
	/* over budget: every one still goes at once, uncharged, as debt */
	for (int i = 0; i < 3000; i++) {
		b = rnd(r, a, true);
		T_ASSERT_EQ(c_throttle(r, b, 0), 0);
		if (!b->cost)
			n++;
		nr_throttle += b->throttle_task;
	}
	T_ASSERT(n > 2500);
	struct ios_iocg_state s = c_gstate(r, a);
	T_ASSERT(s.abs_vdebt > 0);
	T_ASSERT_EQ(s.inuse, 1u);
	/* the delay grows with the debt, within 250 µs .. 250 ms, on the blkg */
	T_ASSERT(nr_throttle > 0 && nr_throttle < n);
	T_ASSERT(s.delay_us >= 250 && s.delay_us <= 250000);
	const struct ios_blkg *g = &r->ctl->blkgs[a];
	T_ASSERT_EQ(g->use_delay, -1);
	T_ASSERT_U64_EQ(g->delay_nsec, s.delay_us * 1000);
	/* a plain bio waits behind the debt; it wakes only once the debt is paid */
	w = rnd(r, a, false);
	T_ASSERT_EQ(c_throttle(r, w, 0), 1);
	uint64_t t = 0;
	while (!r->nr_released && t < 20000 * C_MS) {
		t = ios_iocost_next_timer(r->ioc);
		T_ASSERT(t != UINT64_MAX);
		ios_iocost_timer(r->ioc, t);
		if (!r->nr_released)
			T_ASSERT(c_gstate(r, a).abs_vdebt > 0);
	}
	T_ASSERT_EQ(r->nr_released, 1);
	T_ASSERT(r->released[0] == w);
	T_ASSERT_U64_EQ(c_gstate(r, a).abs_vdebt, 0);
	T_ASSERT(c_gstate(r, a).indebt_us > 0);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_debt);
}
