/*
 * Description: fio's log-linear latency histogram and its percentiles.
 * The bucket mapping must be fio's exactly (values below 128 ns are exact,
 * every other bucket is 1/64 of its power-of-two group, a bucket reports
 * its midpoint), and percentiles must follow fio's rule: the p-th
 * percentile is the midpoint of the first bucket at which the running
 * count reaches p/100 * N. Checked against hand-computed cases, against an
 * independent sort-based reference, and against numbers real fio printed.
 */
#include <string.h>
#include "harness.h"

static int test_exact_below_128(void)
{
	for (uint64_t v = 0; v < 128; v++) {
		T_ASSERT_EQ(ios_plat_val_to_idx(v), v);
		T_ASSERT_U64_EQ(ios_plat_idx_to_val((unsigned)v), v);
	}
	/* 128 and 129 share the first two-wide bucket, reported as 129 */
	T_ASSERT_EQ(ios_plat_val_to_idx(128), 128);
	T_ASSERT_EQ(ios_plat_val_to_idx(129), 128);
	T_ASSERT_EQ(ios_plat_val_to_idx(130), 129);
	T_ASSERT_U64_EQ(ios_plat_idx_to_val(128), 129);
	return T_PASS;
}

static int test_round_trip(void)
{
	/* every bucket's reported value maps back to the same bucket */
	for (unsigned i = 0; i < IOS_PLAT_NR; i++)
		T_ASSERT_EQ(ios_plat_val_to_idx(ios_plat_idx_to_val(i)), i);
	return T_PASS;
}

static int test_monotonic_and_error_bound(void)
{
	unsigned prev_idx = 0;
	uint64_t prev_val = 0;

	for (unsigned i = 1; i < IOS_PLAT_NR; i++) {
		T_ASSERT(ios_plat_idx_to_val(i) > prev_val);
		prev_val = ios_plat_idx_to_val(i);
	}
	/* a sweep with growing steps up to 2^34 ns: indexes never go down and
	 * the reported midpoint is within 1/128 of the value */
	for (uint64_t v = 0; v < (1ull << 34); v += 1 + v / 97) {
		unsigned idx = ios_plat_val_to_idx(v);
		uint64_t mid = ios_plat_idx_to_val(idx);
		uint64_t err = mid > v ? mid - v : v - mid;

		T_ASSERT(idx >= prev_idx);
		prev_idx = idx;
		T_ASSERT_MSG(err * 128 <= v || v < 128, "v=%llu mid=%llu",
			     (unsigned long long)v, (unsigned long long)mid);
	}
	return T_PASS;
}

static int test_known_buckets(void)
{
	/* fio printed max=23154 ... 99.99th=[23168] for one sample */
	T_ASSERT_EQ(ios_plat_val_to_idx(23154), 602);
	T_ASSERT_U64_EQ(ios_plat_idx_to_val(602), 23168);
	/* 1000 ns: group 512..1023 in 8 ns buckets, midpoint 1004 */
	T_ASSERT_EQ(ios_plat_val_to_idx(1000), 317);
	T_ASSERT_U64_EQ(ios_plat_idx_to_val(317), 1004);
	T_ASSERT_EQ(ios_plat_val_to_idx(2375000), 1032);
	T_ASSERT_U64_EQ(ios_plat_idx_to_val(1032), 2375680);
	/* beyond 2^34 ns everything lands in the last bucket */
	T_ASSERT_EQ(ios_plat_val_to_idx(1ull << 34), IOS_PLAT_NR - 1);
	T_ASSERT_EQ(ios_plat_val_to_idx(UINT64_MAX), IOS_PLAT_NR - 1);
	T_ASSERT_U64_EQ(ios_plat_idx_to_val(IOS_PLAT_NR - 1),
			(1ull << 33) + 63ull * (1ull << 27) + (1ull << 26));
	T_ASSERT_EQ(ios_plat_val_to_idx((1ull << 34) - 1), IOS_PLAT_NR - 1);
	return T_PASS;
}

static int test_add_fills_histogram(void)
{
	struct ios_lat_stat s;

	ios_lat_init(&s);
	ios_lat_add(&s, 5);	/* before the histogram exists: not binned */
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	ios_lat_add(&s, 5);
	ios_lat_add(&s, 1000);
	ios_lat_add(&s, 1001);
	T_ASSERT_U64_EQ(ios_lat_bucket(&s, 5), 1);
	T_ASSERT_U64_EQ(ios_lat_bucket(&s, 317), 2);
	/* two buckets: a list of two, no table of groups */
	T_ASSERT(s.plat->grp == NULL && s.plat->nr == 2);
	T_ASSERT_EQ(ios_lat_next_bucket(&s, 0), 5);
	T_ASSERT_EQ(ios_lat_next_bucket(&s, 6), 317);
	T_ASSERT_EQ(ios_lat_next_bucket(&s, 318), IOS_PLAT_NR);
	T_ASSERT_U64_EQ(s.n, 4);
	T_ASSERT_U64_EQ(s.min, 5);
	T_ASSERT_U64_EQ(s.max, 1001);
	ios_lat_free(&s);
	T_ASSERT(s.plat == NULL && !s.hist);
	return T_PASS;
}

static int test_percentiles_exact_range(void)
{
	static const double p[] = { 1, 5, 50, 99, 99.5, 99.99, 100 };
	static const uint64_t want[] = { 1, 5, 50, 99, 100, 100, 100 };
	uint64_t out[7];
	struct ios_lat_stat s;

	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	for (uint64_t v = 1; v <= 100; v++)
		ios_lat_add(&s, v);
	T_ASSERT_EQ(ios_lat_percentiles(&s, p, 7, out), 7);
	for (int i = 0; i < 7; i++)
		T_ASSERT_MSG(out[i] == want[i], "p%g: %llu, want %llu", p[i],
			     (unsigned long long)out[i], (unsigned long long)want[i]);
	ios_lat_free(&s);
	return T_PASS;
}

static int test_percentiles_hand(void)
{
	static const double p[] = { 25, 50, 75, 76, 100, 50 };
	static const uint64_t want[] = { 10, 20, 30, 1004, 1004, 20 };
	uint64_t out[6];
	struct ios_lat_stat s;

	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	ios_lat_add(&s, 30);
	ios_lat_add(&s, 1000);
	ios_lat_add(&s, 10);
	ios_lat_add(&s, 20);
	/* unsorted input list is fine: each percentile stands alone */
	T_ASSERT_EQ(ios_lat_percentiles(&s, p, 6, out), 6);
	for (int i = 0; i < 6; i++)
		T_ASSERT_U64_EQ(out[i], want[i]);
	/* asking for more than 100% gives the largest bucket, not garbage */
	{
		double over = 150;

		T_ASSERT_EQ(ios_lat_percentiles(&s, &over, 1, out), 1);
		T_ASSERT_U64_EQ(out[0], 1004);
	}
	ios_lat_free(&s);
	return T_PASS;
}

static int test_percentiles_empty(void)
{
	struct ios_lat_stat s;
	uint64_t out[2] = { 7, 7 };
	double p[2] = { 50, 99 };

	ios_lat_init(&s);
	ios_lat_add(&s, 100);
	T_ASSERT_EQ(ios_lat_percentiles(&s, p, 2, out), 0);	/* no histogram */
	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	T_ASSERT_EQ(ios_lat_percentiles(&s, p, 2, out), 0);	/* no samples */
	T_ASSERT_U64_EQ(out[0], 7);
	ios_lat_free(&s);
	return T_PASS;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int test_percentiles_vs_sorted_reference(void)
{
	enum { N = 5000 };
	static uint64_t v[N];
	struct ios_rand r;
	struct ios_lat_stat s;
	uint64_t out[32];

	ios_rand_seed(&r, 42, 0);
	ios_lat_init(&s);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	for (int i = 0; i < N; i++) {
		/* log-uniform from 1 ns to ~1 s */
		unsigned sh = (unsigned)(ios_rand_u64(&r) % 30);

		v[i] = (1ull << sh) + ios_rand_u64(&r) % (1ull << sh);
		ios_lat_add(&s, v[i]);
	}
	qsort(v, N, sizeof(v[0]), cmp_u64);
	T_ASSERT_EQ(ios_lat_percentiles(&s, ios_default_percentiles, ios_nr_default_percentiles,
					out), ios_nr_default_percentiles);
	for (unsigned k = 0; k < ios_nr_default_percentiles; k++) {
		/* the smallest sample with at least p% of samples at or below it */
		double need = ios_default_percentiles[k] / 100.0 * N;
		size_t i = 0;

		while ((double)(i + 1) < need)
			i++;
		T_ASSERT_MSG(out[k] == ios_plat_idx_to_val(ios_plat_val_to_idx(v[i])),
			     "p%g: got %llu, sample %llu", ios_default_percentiles[k],
			     (unsigned long long)out[k], (unsigned long long)v[i]);
	}
	ios_lat_free(&s);
	return T_PASS;
}

/*
 * Past IOS_PLAT_FEW buckets the list becomes the table of groups: every
 * count is where a dense reference says, before and after, in a copy (via
 * merge into an empty stat) and when a count passes the list's 53 bits.
 */
static int test_list_to_table(void)
{
	static uint64_t ref[IOS_PLAT_NR];
	struct ios_lat_stat s, m;
	unsigned idx, nr = 0;

	ios_lat_init(&s);
	ios_lat_init(&m);
	T_ASSERT_EQ(ios_lat_enable_hist(&s), 0);
	T_ASSERT_EQ(ios_lat_enable_hist(&m), 0);
	memset(ref, 0, sizeof(ref));
	for (unsigned k = 0; k < 3 * IOS_PLAT_FEW; k++) {
		/* spread out and in no order: 7919 is prime, so each bucket once */
		uint64_t v = 1 + (uint64_t)(k * 7919u % 3000u) * 997u;

		ios_lat_add(&s, v);
		ios_lat_add(&s, v);
		ref[ios_plat_val_to_idx(v)] += 2;
		if (k == IOS_PLAT_FEW / 2)
			T_ASSERT(s.plat->grp == NULL);
	}
	T_ASSERT(s.plat->grp != NULL && !s.hist_lost);
	for (idx = 0; idx < IOS_PLAT_NR; idx++) {
		T_ASSERT_U64_EQ(ios_lat_bucket(&s, idx), ref[idx]);
		if (ref[idx])
			nr++;
	}
	idx = ios_lat_next_bucket(&s, 0);
	for (unsigned i = 0; i < IOS_PLAT_NR; i++)
		if (ref[i]) {
			T_ASSERT_EQ(idx, i);
			idx = ios_lat_next_bucket(&s, i + 1);
		}
	T_ASSERT_EQ(idx, IOS_PLAT_NR);
	T_ASSERT_EQ(ios_lat_merge(&m, &s), 0);
	for (idx = 0; idx < IOS_PLAT_NR; idx++)
		T_ASSERT_U64_EQ(ios_lat_bucket(&m, idx), ref[idx]);
	ios_lat_free(&m);
	/* a list with a count too large for its 53 bits */
	ios_lat_init(&m);
	T_ASSERT_EQ(ios_lat_add_bucket(&m, 7, 1ull << 52), 0);
	T_ASSERT(m.plat->grp == NULL);
	T_ASSERT_EQ(ios_lat_add_bucket(&m, 7, 1ull << 52), 0);
	T_ASSERT_EQ(ios_lat_add_bucket(&m, 9, 3), 0);
	T_ASSERT(m.plat->grp != NULL);
	T_ASSERT_U64_EQ(ios_lat_bucket(&m, 7), 1ull << 53);
	T_ASSERT_U64_EQ(ios_lat_bucket(&m, 9), 3);
	T_ASSERT_EQ(ios_lat_next_bucket(&m, 8), 9);
	ios_lat_free(&m);
	ios_lat_free(&s);
	T_ASSERT(nr > IOS_PLAT_FEW);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_exact_below_128, test_round_trip, test_monotonic_and_error_bound,
		     test_known_buckets, test_add_fills_histogram, test_percentiles_exact_range,
		     test_percentiles_hand, test_percentiles_empty,
		     test_percentiles_vs_sorted_reference, test_list_to_table);
}
