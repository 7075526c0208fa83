/*
 * Writeback throttling's in-flight limits (src/block/blk_wbt.c, Linux
 * 6.12 calc_wb_limits over blk-rq-qos.c's rq_depth_calc_max_depth): the
 * depth is min(16, queue depth), halved per scale step above 0 (never
 * below 1), doubled per step below 0 up to 3/4 of the queue depth; normal
 * writes get half of it, background a quarter; QD1 keeps 2. Each test
 * names the rule whose removal fails it.
 */
#include "wbt_rig.h"

static int expect(struct m_rig *r, unsigned max, unsigned normal, unsigned bg)
{
	struct ios_wbt_debug d = w_dbg(r);

	T_ASSERT_MSG(d.max_depth == max && d.wb_normal == normal && d.wb_background == bg,
		     "step %d: max %u normal %u bg %u, expected %u %u %u", d.scale_step,
		     d.max_depth, d.wb_normal, d.wb_background, max, normal, bg);
	return T_PASS;
}

/*
 * Step 0 per queue depth (none: the depth is nr_requests). Fails without
 * the RWB_DEF_DEPTH cap (64 -> 16), the QD1 rule (1 -> 2), the <= 2 rule
 * (background 1) or the rounding of (d + 1) / 2 and (d + 3) / 4.
 */
static int test_per_depth(void)
{
	static const unsigned v[][4] = {
		/* depth, max_depth, wb_normal, wb_background */
		{ 1, 2, 2, 1 }, { 2, 2, 2, 1 }, { 3, 3, 2, 1 }, { 5, 5, 3, 2 },
		{ 8, 8, 4, 2 }, { 12, 12, 6, 3 }, { 16, 16, 8, 4 }, { 64, 16, 8, 4 },
		{ 1023, 16, 8, 4 },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct m_rig *r = w_rig(NULL, v[i][0], NULL);

		T_ASSERT(r);
		T_ASSERT_EQ(expect(r, v[i][1], v[i][2], v[i][3]), T_PASS);
		m_rig_free(r, 0);
	}
	return T_PASS;
}

/*
 * With an elevator the depth wbt sees is nr_requests = 2 * min(depth,
 * 128): 4 device tags give 8. Fails if wbt read the driver's tags.
 */
static int test_elevator_depth(void)
{
	struct m_rig *r = w_rig("mq-deadline", 4, NULL);

	T_ASSERT(r);
	T_ASSERT_EQ(expect(r, 8, 4, 2), T_PASS);
	m_rig_free(r, 0);
	return T_PASS;
}

/*
 * Scaling down by missed windows on a deep queue: 16 -> 8 -> 4 -> 2 -> 1,
 * then no further (scale_down stops at depth 1 and the step stays).
 * Fails without the halving per step, the <= 2 rule, or the stop at 1.
 */
static int test_scale_down_steps(void)
{
	static const unsigned v[][3] = { { 8, 4, 2 }, { 4, 2, 1 }, { 2, 2, 1 }, { 1, 1, 1 },
					 { 1, 1, 1 } };
	struct m_rig *r = w_rig(NULL, 64, NULL);
	uint64_t t = 0;

	T_ASSERT(r);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		t = w_window(r, t + W_MS, 3, 1, 100 * W_US, 3 * W_MS);
		T_ASSERT_EQ(expect(r, v[i][0], v[i][1], v[i][2]), T_PASS);
		T_ASSERT_EQ(w_dbg(r).scale_step, i < 4 ? (int)i + 1 : 4);
	}
	m_rig_free(r, t + W_MS);
	return T_PASS;
}

/*
 * Only writes (no read in the windows): the step goes negative, the depth
 * doubles (16 -> 31 -> 61) up to 3/4 of the queue depth (64 -> 48), and
 * there it stops (scaled_max). Fails without the 3/4 cap or scaled_max.
 */
static int test_scale_up_writes_only(void)
{
	static const unsigned v[][4] = {
		/* step, max, normal, background */
		{ -1, 31, 16, 8 }, { -2, 48, 24, 12 }, { -2, 48, 24, 12 },
	};
	struct m_rig *r = w_rig(NULL, 64, NULL);
	uint64_t t = 0;

	T_ASSERT(r);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		t = w_window(r, t + W_MS, 4, 0, 100 * W_US, 0);
		T_ASSERT_EQ(w_dbg(r).scale_step, (int)v[i][0]);
		T_ASSERT_EQ(expect(r, v[i][1], v[i][2], v[i][3]), T_PASS);
	}
	m_rig_free(r, t + W_MS);
	return T_PASS;
}

/* wbt_lat_usec=0: both limits 0 (calc_wb_limits' min_lat_nsec == 0 case). */
static int test_off_zero_limits(void)
{
	struct m_rig *r = w_rig(NULL, 64, "queue.wbt_lat_usec=0");

	T_ASSERT(r);
	T_ASSERT_EQ(expect(r, 16, 0, 0), T_PASS);
	m_rig_free(r, 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_per_depth, test_elevator_depth, test_scale_down_steps,
		     test_scale_up_writes_only, test_off_zero_limits);
}
