/*
 * Description: running statistics and group_reporting folding. Welford's
 * mean/stddev must agree with a two-pass computation (also on values with a
 * huge common offset, where the naive sum-of-squares fails); merging two
 * latency stats must give the statistics of the union (histograms add);
 * bw/iops samples fold by fio's plain sum; ios_run_result_group folds jobs
 * the way fio's group_reporting does and leaves other jobs alone.
 */
#include <math.h>
#include <string.h>
#include "harness.h"

static void two_pass(const double *v, size_t n, double *mean, double *sd)
{
	double s = 0, q = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(q / (double)(n - 1)) : 0;
}

static int test_welford_matches_two_pass(void)
{
	enum { N = 1000 };
	static double v[N];
	struct ios_lat_stat s;
	struct ios_rand r;
	double mean, sd;

	ios_rand_seed(&r, 7, 1);
	ios_lat_init(&s);
	for (int i = 0; i < N; i++) {
		uint64_t x = 1000000000000ull + ios_rand_below(&r, 5000);

		v[i] = (double)x;
		ios_lat_add(&s, x);
	}
	two_pass(v, N, &mean, &sd);
	T_ASSERT_NEAR(s.mean, mean, 1e-3);
	T_ASSERT_NEAR(ios_lat_stddev(&s), sd, 1e-6 * sd);
	T_ASSERT(sd > 1000);
	return T_PASS;
}

static int test_stddev_small_n(void)
{
	struct ios_lat_stat s;
	struct ios_sample_stat b;

	ios_lat_init(&s);
	T_ASSERT_NEAR(ios_lat_stddev(&s), 0, 0);
	ios_lat_add(&s, 10);
	T_ASSERT_NEAR(ios_lat_stddev(&s), 0, 0);
	ios_lat_add(&s, 20);
	/* sample stddev of {10, 20} is sqrt(50) */
	T_ASSERT_NEAR(ios_lat_stddev(&s), sqrt(50.0), 1e-12);
	T_ASSERT_NEAR(s.mean, 15, 0);

	ios_sample_init(&b);
	ios_sample_add(&b, 4);
	ios_sample_add(&b, 2);
	ios_sample_add(&b, 6);
	T_ASSERT_NEAR(b.min, 2, 0);
	T_ASSERT_NEAR(b.max, 6, 0);
	T_ASSERT_NEAR(b.mean, 4, 1e-12);
	T_ASSERT_NEAR(ios_sample_stddev(&b), 2, 1e-12);
	return T_PASS;
}

static int test_merge_is_union(void)
{
	struct ios_lat_stat a, b, all, empty;
	struct ios_rand r;

	ios_rand_seed(&r, 9, 2);
	ios_lat_init(&a);
	ios_lat_init(&b);
	ios_lat_init(&all);
	ios_lat_init(&empty);
	T_ASSERT_EQ(ios_lat_enable_hist(&a), 0);
	T_ASSERT_EQ(ios_lat_enable_hist(&b), 0);
	T_ASSERT_EQ(ios_lat_enable_hist(&all), 0);
	for (int i = 0; i < 3000; i++) {
		uint64_t x = 500 + ios_rand_below(&r, i < 1000 ? 100000 : 5000000);

		ios_lat_add(i < 1000 ? &a : &b, x);
		ios_lat_add(&all, x);
	}
	T_ASSERT_EQ(ios_lat_merge(&a, &empty), 0);	/* merging nothing changes nothing */
	T_ASSERT_U64_EQ(a.n, 1000);
	T_ASSERT_EQ(ios_lat_merge(&a, &b), 0);
	T_ASSERT_U64_EQ(a.n, all.n);
	T_ASSERT_U64_EQ(a.min, all.min);
	T_ASSERT_U64_EQ(a.max, all.max);
	T_ASSERT_NEAR(a.mean, all.mean, 1e-9 * all.mean);
	T_ASSERT_NEAR(ios_lat_stddev(&a), ios_lat_stddev(&all), 1e-9 * ios_lat_stddev(&all));
	for (unsigned i = 0; i < IOS_PLAT_NR; i++)
		T_ASSERT_U64_EQ(ios_lat_bucket(&a, i), ios_lat_bucket(&all, i));

	/* merging into an empty stat copies */
	T_ASSERT_EQ(ios_lat_merge(&empty, &b), 0);
	T_ASSERT_U64_EQ(empty.n, b.n);
	T_ASSERT_U64_EQ(empty.min, b.min);
	T_ASSERT_NEAR(empty.mean, b.mean, 0);
	ios_lat_free(&a);
	ios_lat_free(&b);
	ios_lat_free(&all);
	return T_PASS;
}

static int test_sample_merge_and_sum(void)
{
	struct ios_sample_stat a, b, m, s;

	ios_sample_init(&a);
	ios_sample_init(&b);
	ios_sample_add(&a, 100);
	ios_sample_add(&a, 200);
	ios_sample_add(&b, 300);
	ios_sample_add(&b, 500);
	m = a;
	ios_sample_merge(&m, &b);
	T_ASSERT_U64_EQ(m.n, 4);
	T_ASSERT_NEAR(m.mean, 275, 1e-9);
	T_ASSERT_NEAR(m.min, 100, 0);
	T_ASSERT_NEAR(m.max, 500, 0);
	/* fio's group_reporting: two jobs' bandwidths add up */
	s = a;
	ios_sample_sum(&s, &b);
	T_ASSERT_U64_EQ(s.n, 4);
	T_ASSERT_NEAR(s.min, 400, 0);
	T_ASSERT_NEAR(s.max, 700, 0);
	T_ASSERT_NEAR(s.mean, 550, 1e-9);
	T_ASSERT_NEAR(s.m2, a.m2 + b.m2, 1e-9);
	return T_PASS;
}

static int fill_job(struct ios_job_result *j, const char *name, int gid, int gr, uint64_t lat,
		    uint64_t bytes, uint64_t runtime_ns)
{
	ios_job_result_init(j);
	j->name = strdup(name);
	j->groupid = gid;
	j->group_reporting = gr;
	if (ios_lat_enable_hist(&j->dir[0].clat))
		return -1;
	ios_lat_add(&j->dir[0].clat, lat);
	ios_lat_add(&j->dir[0].lat, lat + 10);
	ios_sample_add(&j->dir[0].bw, (double)bytes / 1024);
	j->dir[0].io_bytes = bytes;
	j->dir[0].total_ios = bytes / 4096;
	j->dir[0].runtime_ns = runtime_ns;
	j->runtime_ns = runtime_ns;
	j->io_depth[0] = bytes / 4096;
	j->ctx = 3;
	ios_job_mark_latency(j, lat);
	return 0;
}

static int test_group_folding(void)
{
	struct ios_run_result r;

	memset(&r, 0, sizeof(r));
	r.jobs = calloc(5, sizeof(*r.jobs));
	T_ASSERT(r.jobs);
	r.nr_jobs = 5;
	/* a (group 0), b and c fold into a; d starts group 1; e (no flag) stays */
	T_ASSERT_EQ(fill_job(&r.jobs[0], "a", 0, 1, 1000, 8192, 1500000), 0);
	T_ASSERT_EQ(fill_job(&r.jobs[1], "b", 0, 1, 3000, 4096, 2500000), 0);
	T_ASSERT_EQ(fill_job(&r.jobs[2], "c", 0, 1, 2000, 4096, 2200000), 0);
	T_ASSERT_EQ(fill_job(&r.jobs[3], "d", 1, 1, 5000, 4096, 1000000), 0);
	T_ASSERT_EQ(fill_job(&r.jobs[4], "e", 1, 0, 7000, 4096, 1000000), 0);
	T_ASSERT_EQ(ios_run_result_group(&r), 0);
	T_ASSERT_EQ(r.nr_jobs, 3);

	T_ASSERT(!strcmp(r.jobs[0].name, "a"));
	T_ASSERT_EQ(r.jobs[0].nr_merged, 3);
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].io_bytes, 16384);
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].total_ios, 4);
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].runtime_ns, 2500000);	/* slowest member */
	T_ASSERT_U64_EQ(r.jobs[0].runtime_ns, 5000000);		/* 1 + 2 + 2 whole ms */
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].clat.n, 3);
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].clat.min, 1000);
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].clat.max, 3000);
	T_ASSERT_NEAR(r.jobs[0].dir[0].clat.mean, 2000, 1e-9);
	T_ASSERT_U64_EQ(ios_lat_bucket(&r.jobs[0].dir[0].clat, ios_plat_val_to_idx(3000)), 1);
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].lat.n, 3);
	T_ASSERT_U64_EQ(r.jobs[0].dir[0].bw.n, 3);
	T_ASSERT_NEAR(r.jobs[0].dir[0].bw.mean, 16.0, 1e-9);	/* 8 + 4 + 4 KiB/s */
	T_ASSERT_U64_EQ(r.jobs[0].io_depth[0], 4);
	T_ASSERT_U64_EQ(r.jobs[0].ctx, 9);
	T_ASSERT_U64_EQ(r.jobs[0].lat_u[1] + r.jobs[0].lat_u[0], 3);
	T_ASSERT_U64_EQ(r.jobs[0].nr_lat_samples, 3);

	T_ASSERT(!strcmp(r.jobs[1].name, "d"));
	T_ASSERT_EQ(r.jobs[1].nr_merged, 1);
	T_ASSERT(!strcmp(r.jobs[2].name, "e"));
	T_ASSERT_EQ(r.jobs[2].groupid, 1);
	T_ASSERT_U64_EQ(r.jobs[2].dir[0].clat.min, 7000);
	ios_run_result_free(&r);
	T_ASSERT(r.jobs == NULL && r.nr_jobs == 0);
	return T_PASS;
}

static int test_group_folding_needs_same_group(void)
{
	struct ios_run_result r;

	memset(&r, 0, sizeof(r));
	r.jobs = calloc(2, sizeof(*r.jobs));
	T_ASSERT(r.jobs);
	r.nr_jobs = 2;
	T_ASSERT_EQ(fill_job(&r.jobs[0], "a", 0, 1, 1000, 4096, 1000000), 0);
	T_ASSERT_EQ(fill_job(&r.jobs[1], "b", 1, 1, 1000, 4096, 1000000), 0);
	T_ASSERT_EQ(ios_run_result_group(&r), 0);
	T_ASSERT_EQ(r.nr_jobs, 2);
	T_ASSERT(!strcmp(r.jobs[1].name, "b"));
	ios_run_result_free(&r);
	/* an empty result is fine too */
	T_ASSERT_EQ(ios_run_result_group(&r), 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_welford_matches_two_pass, test_stddev_small_n, test_merge_is_union,
		     test_sample_merge_and_sum, test_group_folding,
		     test_group_folding_needs_same_group);
}
