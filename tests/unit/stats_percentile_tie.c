/*
 * Description: percentile ties are decided in double precision, as fio 3.33
 * does. With 6000 samples, 3600 of them at or below one bucket, the 60th
 * percentile is that bucket (in long double the target is a hair above 3600
 * and the next bucket would be picked: a real fio 3.33 run printed the lower
 * one).
 */
#include "harness.h"

static int test_tie_at_60_percent(void)
{
	struct ios_lat_stat s;
	const double p = 60.0;
	uint64_t out = 0;

	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	for (int i = 0; i < 3600; i++)
		ios_lat_add(&s, 270);
	for (int i = 0; i < 2400; i++)
		ios_lat_add(&s, 282);
	T_ASSERT_EQ(ios_lat_percentiles(&s, &p, 1, &out), 1);
	T_ASSERT_U64_EQ(out, ios_plat_idx_to_val(ios_plat_val_to_idx(270)));
	ios_lat_add(&s, 282); /* 6001 samples: 3600 is now below 60% */
	T_ASSERT_EQ(ios_lat_percentiles(&s, &p, 1, &out), 1);
	T_ASSERT_U64_EQ(out, ios_plat_idx_to_val(ios_plat_val_to_idx(282)));
	ios_lat_free(&s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_tie_at_60_percent);
}
