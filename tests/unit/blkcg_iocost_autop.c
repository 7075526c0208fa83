/*
 * Description: io.cost's built-in parameter sets (Linux 6.12 blk-iocost.c
 * autop[], ioc_autop_idx, ioc_refresh_params_disk): HDD on a rotational
 * queue, SSD_QD1 when blk_queue_depth is 1, else SSD_DFL; SSD_DFL moves
 * to SSD_FAST once vrate has stayed at or above 500 % for AUTOP_CYCLE_NSEC
 * (10 s), and the switch resets vrate to 100 % and the period to SSD_FAST's
 * 10 ms. A user's qos or model pins the set.
 */
#include "iocost_rig.h"

static int class_of(int rotational, unsigned depth)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	int idx;

	c_init(r);
	r->dev.rotational = rotational;
	r->dev.queue_depth = depth;
	if (c_start(r, 1, 0))
		abort();
	idx = c_state(r, 0).autop;
	c_free(r);
	free(r);
	return idx;
}

/* rule: the device class picks the set */
static int test_class(void)
{
	T_ASSERT_EQ(class_of(1, 64), IOS_AUTOP_HDD);
	T_ASSERT_EQ(class_of(1, 1), IOS_AUTOP_HDD);
	T_ASSERT_EQ(class_of(0, 1), IOS_AUTOP_SSD_QD1);
	T_ASSERT_EQ(class_of(0, 32), IOS_AUTOP_SSD_DFL);
	return T_PASS;
}

static uint64_t sector;

/* keep @g short of vtime: 1 MiB reads until one waits */
static void fill(struct c_rig *r, unsigned g, uint64_t now)
{
	for (int i = 0; i < 100000; i++) {
		struct ios_iocost_bio *b = c_bio(r, g, sector, 2048, IOS_READ);

		sector += 2048;
		if (c_throttle(r, b, now))
			return;
	}
}

/*
 * Drive vrate to 500 % with a short group, then keep the group active
 * with one small read a period (no shortage: vrate coasts where it is).
 * Returns the time of the first period end at >= 500 % and of the switch.
 */
static int drive(struct c_rig *r, unsigned a, uint64_t *fast_at, uint64_t *switch_at)
{
	uint64_t t = 0;

	*fast_at = *switch_at = 0;
	fill(r, a, 0);
	while (t < 20000 * C_MS) {
		uint64_t p = c_state(r, 0).cur_period;

		t = ios_iocost_next_timer(r->ioc);
		ios_iocost_timer(r->ioc, t);
		if (!*fast_at) {
			fill(r, a, t);
			if (c_state(r, t).vrate_pct_x100 >= 50000)
				*fast_at = t;
		} else if (c_state(r, 0).cur_period != p) {
			/* done with the big reads; one small read keeps a active */
			for (unsigned i = 0; i < C_POOL; i++)
				if (r->pool[i].cost) {
					ios_iocost_done_bio(r->ioc, &r->pool[i]);
					r->pool[i].cost = 0;
				}
			struct ios_iocost_bio *b = c_bio(r, a, sector, 8, IOS_READ);
			sector += 8;
			if (c_throttle(r, b, t))
				return -1;
		}
		if (c_state(r, t).autop == IOS_AUTOP_SSD_FAST) {
			*switch_at = t;
			return 0;
		}
	}
	return 0;
}

/* rule: SSD_DFL -> SSD_FAST after 10 s at >= 500 %, vrate reset, 10 ms period */
static int test_dfl_to_fast(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	uint64_t fast_at, switch_at;
	unsigned a;

	c_init(r);
	a = c_group(r, 0, 100);
	T_ASSERT(!c_start(r, 1, 0));
	T_ASSERT_EQ(c_state(r, 0).autop, IOS_AUTOP_SSD_DFL);
	T_ASSERT(!drive(r, a, &fast_at, &switch_at));
	/* 53 periods of 50 ms */
	T_ASSERT_U64_EQ(fast_at, 53 * 50 * C_MS);
	T_ASSERT_MSG(switch_at, "no switch to SSD_FAST (vrate reached 500 %% at %llu ns)",
		     (unsigned long long)fast_at);
	/* the first timer at >= 500 % starts the 10 s; the switch is the first timer after them */
	T_ASSERT(switch_at >= fast_at + 10000 * C_MS);
	T_ASSERT(switch_at < fast_at + 10000 * C_MS + 50 * C_MS);
	struct ios_iocost_state s = c_state(r, switch_at);
	T_ASSERT_EQ(s.vrate_pct_x100, 10000);
	T_ASSERT_EQ(s.period_us, 10000);
	T_ASSERT_EQ(s.qos[IOS_QOS_RLAT], 5000);
	T_ASSERT_EQ(s.lcoefs[IOS_LC_RRANDIO], 0);
	c_free(r);
	free(r);
	return T_PASS;
}

/* rule: a user's cost model keeps the set it was written on */
static int test_user_pins(void)
{
	struct c_rig *r = calloc(1, sizeof(*r));
	uint64_t fast_at, switch_at;
	unsigned a;

	c_init(r);
	a = c_group(r, 0, 100);
	r->v2[0].model.user = true;
	r->v2[0].model.given = 1u << IOS_LCOEF_RRANDIOPS;
	r->v2[0].model.lcoef[IOS_LCOEF_RRANDIOPS] = 8518;
	T_ASSERT(!c_start(r, 1, 0));
	T_ASSERT(!drive(r, a, &fast_at, &switch_at));
	T_ASSERT(fast_at);
	T_ASSERT_U64_EQ(switch_at, 0);
	T_ASSERT_EQ(c_state(r, 0).autop, IOS_AUTOP_SSD_DFL);
	c_free(r);
	free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_class, test_dfl_to_fast, test_user_pins);
}
