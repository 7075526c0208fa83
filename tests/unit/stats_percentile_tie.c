/*
 * Description: percentile ties are decided in long double, as fio 3.33
 * computes them on x86-64 (sum >= (long double)p / 100.0 * n). With 6000
 * samples the 60th percentile's target is a hair above 3600 and the 99.95th
 * a hair above 5997, so when the 3600th (5997th) sample ends a bucket the
 * next bucket is reported. Seen against a real fio 3.33 run: 6000 write
 * latencies whose 5997th was 12608 ns and 5998th 19328 ns, and fio printed
 * 99.95th=19328 (double arithmetic would give 12608).
 */
#include "harness.h"

static int tie(double p, int below, uint64_t lo, uint64_t hi)
{
	struct ios_lat_stat s;
	uint64_t out = 0;

	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	for (int i = 0; i < below; i++)
		ios_lat_add(&s, lo);
	for (int i = below; i < 6000; i++)
		ios_lat_add(&s, hi);
	T_ASSERT_EQ(ios_lat_percentiles(&s, &p, 1, &out), 1);
	T_ASSERT_U64_EQ(out, ios_plat_idx_to_val(ios_plat_val_to_idx(hi)));
	/* one sample fewer above: the target is now below the tie */
	ios_lat_free(&s);
	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	for (int i = 0; i < below + 1; i++)
		ios_lat_add(&s, lo);
	for (int i = below + 1; i < 6000; i++)
		ios_lat_add(&s, hi);
	T_ASSERT_EQ(ios_lat_percentiles(&s, &p, 1, &out), 1);
	T_ASSERT_U64_EQ(out, ios_plat_idx_to_val(ios_plat_val_to_idx(lo)));
	ios_lat_free(&s);
	return T_PASS;
}

static int test_tie_at_60_percent(void)
{
	return tie(60.0, 3600, 270, 282);
}

static int test_tie_at_99_95_percent(void)
{
	return tie(99.95, 5997, 12608, 19328);
}

int main(void)
{
	return T_RUN(test_tie_at_60_percent, test_tie_at_99_95_percent);
}
