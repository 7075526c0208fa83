/*
 * Description: a percentile is reached where sum * 100 >= p * n holds
 * exactly for the double p, as the real fio 3.33 decides it. 25 runs of fio
 * (null engine, 3000 rate-limited I/Os per direction, json+) had 104
 * percentiles whose target p * n / 100 was a whole number that the
 * cumulative count hit exactly: at 5, 10, 50, 60, 80, 90, 95, 99 and 99.5
 * (exact doubles) fio reported the bucket that hit it; at 99.9 (the double
 * is a hair above 99.9) the next one, as at 99.95 (seen earlier with 6000
 * write latencies: the 5997th was 12608 ns, the 5998th 19328 ns, and fio
 * printed 99.95th=19328). Long double arithmetic, fio's source's own
 * expression, would move the 60 % tie to the next bucket; fio does not.
 */
#include "harness.h"

/*
 * @below samples of @lo, the rest of 6000 of @hi: the percentile @p is
 * @want (lo or hi); with one sample fewer of lo it is always hi, with one
 * more always lo.
 */
static int tie(double p, int below, uint64_t lo, uint64_t hi, uint64_t want)
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
	T_ASSERT_U64_EQ(out, ios_plat_idx_to_val(ios_plat_val_to_idx(want)));
	ios_lat_free(&s);
	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	for (int i = 0; i < below - 1; i++)
		ios_lat_add(&s, lo);
	for (int i = below - 1; i < 6000; i++)
		ios_lat_add(&s, hi);
	T_ASSERT_EQ(ios_lat_percentiles(&s, &p, 1, &out), 1);
	T_ASSERT_U64_EQ(out, ios_plat_idx_to_val(ios_plat_val_to_idx(hi)));
	/* one sample more below: the target is now below the tie */
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
	return tie(60.0, 3600, 270, 282, 270);
}

static int test_tie_at_99_9_percent(void)
{
	return tie(99.9, 5994, 2352, 3024, 3024);
}

static int test_tie_at_99_95_percent(void)
{
	return tie(99.95, 5997, 12608, 19328, 19328);
}

int main(void)
{
	return T_RUN(test_tie_at_60_percent, test_tie_at_99_9_percent, test_tie_at_99_95_percent);
}
