/*
 * Description: io.cost's waits (Linux 6.12 blk-iocost.c ioc_rqos_throttle,
 * iocg_kick_waitq, iocg_wake_fn). A group starts with the target budget
 * (MARGIN_TARGET_PCT, half a period of vtime behind vnow); a bio goes when
 * no one waits and its cost fits, else it joins the group's FIFO and the
 * waitq timer is armed at now + ceil(shortage / vrate) µs + 1 % of the
 * period; the wake commits waiters in order while the budget covers them
 * and stops at the first that does not fit.
 */
#include "iocost_rig.h"

/* SSD_DFL read costs: first bio (no cursor) sequential, then random */
#define SEQ 15387255ull
#define RND 16135121ull

static uint64_t rsector;

static struct ios_iocost_bio *rnd(struct c_rig *r, unsigned g)
{
	rsector += 100000000;	/* always more than 16 MiB away */
	return c_bio(r, g, rsector, 8, IOS_READ);
}

/* rule: the budget at activation, the shortage timer and the FIFO wake */
static int test_budget_and_timer(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	const uint64_t vpu = IOS_IOCOST_VTIME_PER_USEC, target = 25000 * vpu;
	struct ios_iocost_bio *w[3];
	unsigned a, n = 0;

	c_init(r);
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	for (;;) {
		struct ios_iocost_bio *b = rnd(r, a);

		if (c_throttle(r, b, 0)) {
			w[0] = b;
			break;
		}
		n++;
	}
	/* 25 ms of vtime at vrate 100 %: one sequential and 211 random reads */
	T_ASSERT_EQ(n, 212);
	T_ASSERT(SEQ + 211 * RND <= target && SEQ + 212 * RND > target);
	/* two more queue behind it, without being looked at */
	w[1] = rnd(r, a);
	w[2] = rnd(r, a);
	T_ASSERT_EQ(c_throttle(r, w[1], 0), 1);
	T_ASSERT_EQ(c_throttle(r, w[2], 0), 1);
	T_ASSERT_EQ(c_gstate(r, a).nr_waiting, 3);
	/* shortage 82907 vtime: 1 µs, plus 500 µs of slack (1 % of 50 ms) */
	uint64_t short0 = SEQ + 212 * RND - target;
	T_ASSERT_U64_EQ(short0, 82907);
	T_ASSERT_U64_EQ(ios_iocost_next_timer(r->ioc), 501 * C_US);
	ios_iocost_timer(r->ioc, 501 * C_US);
	/* 501 µs of vtime covers the three waiters: they go, in order */
	T_ASSERT_EQ(r->nr_released, 3);
	for (int i = 0; i < 3; i++) {
		T_ASSERT(r->released[i] == w[i]);
		T_ASSERT_U64_EQ(w[i]->cost, RND);
	}
	T_ASSERT_EQ(c_gstate(r, a).nr_waiting, 0);
	T_ASSERT_U64_EQ(r->last_release_at, 501 * C_US);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: the wake stops at the first waiter the budget does not cover */
static int test_partial_wake(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a;

	c_init(r);
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	while (!c_throttle(r, rnd(r, a), 0))
		;
	for (int i = 0; i < 20; i++)
		T_ASSERT_EQ(c_throttle(r, rnd(r, a), 0), 1);
	ios_iocost_timer(r->ioc, 501 * C_US);
	/*
	 * The budget is 501 µs of vtime (68.9 M) plus what the 212 left
	 * (16.1 M - 82907): 84.9 M, five reads of 16.1 M; the sixth waits.
	 */
	T_ASSERT_EQ(r->nr_released, 5);
	T_ASSERT_EQ(c_gstate(r, a).nr_waiting, 16);
	/* the next wake-up is for the fifth waiter's shortage */
	T_ASSERT(ios_iocost_next_timer(r->ioc) > 501 * C_US);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: cost scales with 1 / hweight_inuse: a sibling of equal weight halves what fits */
static int test_cost_scales(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	unsigned a, b, n = 0;

	c_init(r);
	a = c_group(r, 0, 100);
	b = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	T_ASSERT_EQ(c_throttle(r, rnd(r, b), 0), 0);
	while (!c_throttle(r, rnd(r, a), 0))
		n++;
	/* each group's budget is the same 25 ms of vtime; a's reads cost twice */
	T_ASSERT_EQ(n, 106);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_budget_and_timer, test_partial_wake, test_cost_scales);
}
