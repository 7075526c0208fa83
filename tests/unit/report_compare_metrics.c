/*
 * Description: the metrics of `iosched compare` on vectors with known
 * answers: Jain's index, min/max, finish spread; the ideal shares each
 * scheduler's weights promise (CFQ slice per level 180/100/40 ms, strict
 * classes, CFQ groups with the root at 1000, BFQ's (8 - level) * 10 and its
 * cgroups beside the root's queues); Jeff Moyer's two 8-reader tables from
 * the fairness thread reproduced row for row; the share model's constants
 * equal to the schedulers' own; a run's summary from a hand-built result;
 * the text and JSON reports; the progress line and its ETA.
 */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "iosched/compare.h"
#include "iosched/progress.h"
#include "sched/cfq_int.h"
#include "sched/bfq_int.h"
#include "json_mini.h"

static int test_jain(void)
{
	const double equal[4] = { 5, 5, 5, 5 }, one[4] = { 0, 0, 7, 0 };
	const double half[2] = { 1, 3 }, zero[3] = { 0, 0, 0 };

	T_ASSERT_NEAR(ios_metric_jain(equal, 4), 1.0, 1e-12);
	/* one job has everything: 1/n */
	T_ASSERT_NEAR(ios_metric_jain(one, 4), 0.25, 1e-12);
	/* (1+3)^2 / (2 * (1+9)) = 16/20 */
	T_ASSERT_NEAR(ios_metric_jain(half, 2), 0.8, 1e-12);
	/* the seed's fairness=0 finish times as rates: 1/6.0 ... */
	{
		const double r[4] = { 1 / 6.0, 1 / 6.3, 1 / 8.4, 1 / 10.8 };
		double s = 0, q = 0;

		for (int i = 0; i < 4; i++) {
			s += r[i];
			q += r[i] * r[i];
		}
		T_ASSERT_NEAR(ios_metric_jain(r, 4), s * s / (4 * q), 1e-12);
		T_ASSERT(ios_metric_jain(r, 4) < 0.96 && ios_metric_jain(r, 4) > 0.9);
	}
	T_ASSERT(isnan(ios_metric_jain(zero, 3)));
	T_ASSERT(isnan(ios_metric_jain(equal, 0)));
	return T_PASS;
}

static int test_min_max_spread(void)
{
	const double bw[3] = { 40, 10, 20 };
	/* seed 000: fairness=0 finished at 6.0/6.3/8.4/10.8 s, fairness=1 9.9..10.5 */
	const uint64_t f0[4] = { 6000, 6300, 8400, 10800 }, f1[4] = { 9900, 10100, 10500, 10200 };
	const uint64_t same[2] = { 5, 5 };

	T_ASSERT_NEAR(ios_metric_min_max(bw, 3), 0.25, 1e-12);
	T_ASSERT(isnan(ios_metric_min_max(bw, 0)));
	T_ASSERT_NEAR(ios_metric_spread(f0, 4), 4800.0 / 10800.0, 1e-12);	/* 44 % */
	T_ASSERT_NEAR(ios_metric_spread(f1, 4), 600.0 / 10500.0, 1e-12);	/* 5.7 % */
	T_ASSERT_NEAR(ios_metric_spread(same, 2), 0.0, 0);
	T_ASSERT_NEAR(ios_metric_spread(f0, 0), 0.0, 0);
	return T_PASS;
}

static struct ios_share_job sj(int cls, int level, const char *cg, unsigned w)
{
	struct ios_share_job j = { cls, level, cg, w };

	return j;
}

static int test_cfq_levels(void)
{
	struct ios_share_params p = { IOS_SHARE_CFQ_SLICE, 100 * 1000000ULL, IOS_SHARE_CTL_SCHED };
	struct ios_share_job j[3] = { sj(2, 0, NULL, 0), sj(2, 4, NULL, 0), sj(2, 7, NULL, 0) };
	double f[3];

	/* base + base/5 * (4 - prio): 180, 100, 40 ms */
	T_ASSERT_NEAR(ios_share_job_weight(&p, 2, 0), 180.0, 1e-9);
	T_ASSERT_NEAR(ios_share_job_weight(&p, 2, 4), 100.0, 1e-9);
	T_ASSERT_NEAR(ios_share_job_weight(&p, 2, 7), 40.0, 1e-9);
	T_ASSERT_EQ(ios_share_ideal(&p, j, 3, f), 0);
	T_ASSERT_NEAR(f[0], 180.0 / 320.0, 1e-12);
	T_ASSERT_NEAR(f[1], 100.0 / 320.0, 1e-12);
	T_ASSERT_NEAR(f[2], 40.0 / 320.0, 1e-12);
	/* the slice base scales every level alike, with the kernel's integer base/5 */
	p.slice_ns = 8;
	T_ASSERT_NEAR(ios_share_job_weight(&p, 2, 0), (8 + 1 * 4) / 1e6, 1e-15);
	/* the same rule as the scheduler's own cfq_prio_slice() */
	T_ASSERT_EQ(CFQ_SLICE_SCALE, 5);
	return T_PASS;
}

static int test_strict_classes(void)
{
	struct ios_share_params p = { IOS_SHARE_CFQ_SLICE, 100 * 1000000ULL, IOS_SHARE_CTL_SCHED };
	struct ios_share_job j[4] = { sj(2, 0, NULL, 0), sj(1, 7, NULL, 0), sj(1, 4, NULL, 0),
				      sj(3, 7, NULL, 0) };
	double f[4];

	T_ASSERT_EQ(ios_share_ideal(&p, j, 4, f), 0);
	/* RT before BE before IDLE: the two RT jobs share by slice, 40:100 */
	T_ASSERT_NEAR(f[0], 0.0, 0);
	T_ASSERT_NEAR(f[1], 40.0 / 140.0, 1e-12);
	T_ASSERT_NEAR(f[2], 100.0 / 140.0, 1e-12);
	T_ASSERT_NEAR(f[3], 0.0, 0);
	/* without RT, BE shuts out IDLE */
	j[1].ioprio_class = j[2].ioprio_class = 2;
	T_ASSERT_EQ(ios_share_ideal(&p, j, 4, f), 0);
	T_ASSERT_NEAR(f[0] + f[1] + f[2], 1.0, 1e-12);
	T_ASSERT_NEAR(f[3], 0.0, 0);
	/* equal shares ignore class and level */
	p.model = IOS_SHARE_NONE;
	T_ASSERT_EQ(ios_share_ideal(&p, j, 4, f), 0);
	for (int i = 0; i < 4; i++)
		T_ASSERT_NEAR(f[i], 0.25, 1e-12);
	return T_PASS;
}

static int test_cfq_groups(void)
{
	struct ios_share_params p = { IOS_SHARE_CFQ_GROUP_SLICE, 100 * 1000000ULL, IOS_SHARE_CTL_SCHED };
	/* a (weight 1000, set on its second job) holds levels 0 and 4; b default; root */
	struct ios_share_job j[4] = { sj(2, 0, "a", 0), sj(2, 4, "/a", 1000), sj(2, 4, "b", 0),
				      sj(2, 4, NULL, 0) };
	double f[4];

	T_ASSERT_EQ(CFQ_WEIGHT_ROOT, 1000);
	T_ASSERT_EQ(CFQ_WEIGHT_DEFAULT, 500);
	T_ASSERT_EQ(ios_share_ideal(&p, j, 4, f), 0);
	/* groups 1000 : 500 : 1000 (root), then 180:100 inside a */
	T_ASSERT_NEAR(f[0], 0.4 * 180.0 / 280.0, 1e-12);
	T_ASSERT_NEAR(f[1], 0.4 * 100.0 / 280.0, 1e-12);
	T_ASSERT_NEAR(f[2], 0.2, 1e-12);
	T_ASSERT_NEAR(f[3], 0.4, 1e-12);
	T_ASSERT_NEAR(ios_share_group_weight(&p, NULL, 0), 1000, 0);
	T_ASSERT_NEAR(ios_share_group_weight(&p, "b", 0), 500, 0);
	/* 2.6.31 has no groups: the same jobs share by slice alone */
	p.model = IOS_SHARE_CFQ_SLICE;
	T_ASSERT_EQ(ios_share_ideal(&p, j, 4, f), 0);
	T_ASSERT_NEAR(f[0], 180.0 / 480.0, 1e-12);
	T_ASSERT_NEAR(f[3], 100.0 / 480.0, 1e-12);
	return T_PASS;
}

static int test_bfq(void)
{
	struct ios_share_params p = { IOS_SHARE_BFQ_WEIGHT, 0, IOS_SHARE_CTL_SCHED };
	struct ios_share_job j[3] = { sj(2, 0, NULL, 0), sj(2, 4, NULL, 0), sj(2, 7, NULL, 0) };
	struct ios_share_job g[3] = { sj(2, 4, "a", 200), sj(2, 0, "a", 0), sj(2, 4, NULL, 0) };
	double f[3];

	/* BFQ's ioprio -> weight, as the scheduler maps it */
	for (int l = 0; l < 8; l++)
		T_ASSERT_NEAR(ios_share_job_weight(&p, 2, l), bfq_ioprio_to_weight(l), 0);
	T_ASSERT_EQ(BFQ_DEFAULT_GRP_WEIGHT, 100);
	T_ASSERT_EQ(ios_share_ideal(&p, j, 3, f), 0);
	T_ASSERT_NEAR(f[0], 80.0 / 130.0, 1e-12);
	T_ASSERT_NEAR(f[1], 40.0 / 130.0, 1e-12);
	T_ASSERT_NEAR(f[2], 10.0 / 130.0, 1e-12);
	/* a cgroup of weight 200 beside a root queue of weight 40 */
	T_ASSERT_EQ(ios_share_ideal(&p, g, 3, f), 0);
	T_ASSERT_NEAR(f[2], 40.0 / 240.0, 1e-12);
	T_ASSERT_NEAR(f[0], 200.0 / 240.0 * 40.0 / 120.0, 1e-12);
	T_ASSERT_NEAR(f[1], 200.0 / 240.0 * 80.0 / 120.0, 1e-12);
	/* an RT queue in the root shuts out every cgroup (a group is BE) */
	g[2].ioprio_class = 1;
	T_ASSERT_EQ(ios_share_ideal(&p, g, 3, f), 0);
	T_ASSERT_NEAR(f[2], 1.0, 1e-12);
	T_ASSERT_NEAR(f[0] + f[1], 0.0, 0);
	return T_PASS;
}

static int test_params_of(void)
{
	struct ios_share_params p;

	ios_share_params_of(ios_sched_find("cfq"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_CFQ_SLICE);
	T_ASSERT_U64_EQ(p.slice_ns, 100000000ULL);
	ios_share_params_of(ios_sched_find("cfq-2.6.31"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_CFQ_SLICE);
	ios_share_params_of(ios_sched_find("cfq-2.6.33"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_CFQ_GROUP_SLICE);
	ios_share_params_of(ios_sched_find("cfq-4.19"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_CFQ_GROUP_SLICE);
	ios_share_params_of(ios_sched_find("bfq"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_BFQ_WEIGHT);
	ios_share_params_of(ios_sched_find("as"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_NONE);
	ios_share_params_of(ios_sched_find("deadline"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_NONE);
	ios_share_params_of(ios_sched_find("noop"), NULL, &p);
	T_ASSERT_EQ(p.model, IOS_SHARE_NONE);
	return T_PASS;
}

/* Jeff Moyer's tables (seed 000, Sep 2009): 8 readers at BE 4 */
static const uint64_t moyer_vanilla[8] = { 124404, 123380, 118004, 113396,
					   107252, 98356, 96244, 106228 };
static const long long moyer_vanilla_diff[8] = { 12, 11, 6, 2, -4, -12, -14, -5 };
static const uint64_t moyer_fair[8] = { 127028, 128244, 120564, 127476,
					119284, 116724, 103668, 110324 };
static const long long moyer_fair_diff[8] = { 6, 7, 1, 6, 0, -3, -14, -8 };

/* a result with @n jobs, in KiB, as if from a run */
static int fake_run(struct ios_cmp_run *cr, const char *sched, const uint64_t *kib, size_t n)
{
	struct ios_job_result jobs[16];
	struct ios_run_result r;
	struct ios_share_params p;
	char names[16][24];	/* room for any size_t: -Wformat-truncation at -O1 */

	memset(&r, 0, sizeof(r));
	for (size_t i = 0; i < n; i++) {
		ios_job_result_init(&jobs[i]);
		snprintf(names[i], sizeof(names[i]), "r%zu", i + 1);
		jobs[i].name = names[i];
		jobs[i].ioprio_class = IOS_IOPRIO_CLASS_BE;
		jobs[i].ioprio_level = 4;
		jobs[i].dir[IOS_DDIR_READ].io_bytes = kib[i] * 1024;
		jobs[i].dir[IOS_DDIR_READ].runtime_ns = 30ULL * 1000000000ULL;
		jobs[i].start_ns = 0;
		jobs[i].finish_ns = 30ULL * 1000000000ULL + i;
		for (int k = 0; k < 5; k++)
			ios_lat_add(&jobs[i].dir[IOS_DDIR_READ].clat, 1000000ULL * (k + 1) * (i + 1));
	}
	r.jobs = jobs;
	r.nr_jobs = n;
	snprintf(r.scheduler, sizeof(r.scheduler), "%s", sched);
	snprintf(r.device, sizeof(r.device), "hdd-2009");
	r.seed = 7;
	ios_share_params_of(ios_sched_find(sched), NULL, &p);
	return ios_cmp_run_from_result(cr, NULL, &p, &r);
}

static int check_moyer(const uint64_t *kib, const long long *diff, uint64_t total,
		       uint64_t ideal)
{
	struct ios_cmp_run cr;
	struct ios_share_row rows[8];
	uint64_t tot;
	double prio;

	T_ASSERT_EQ(fake_run(&cr, "cfq", kib, 8), 0);
	ios_cmp_share_rows(&cr, rows, &tot, &prio);
	/* "total priority: 800", "total data transferred: ..." */
	T_ASSERT_NEAR(prio, 800.0, 1e-9);
	T_ASSERT_U64_EQ(tot, total);
	for (int i = 0; i < 8; i++) {
		T_ASSERT_U64_EQ(rows[i].ideal_kib, ideal);
		T_ASSERT_U64_EQ(rows[i].xferred_kib, kib[i]);
		T_ASSERT(rows[i].has_diff);
		T_ASSERT_MSG(rows[i].diff_pct == diff[i], "row %d: %%diff %lld, Jeff printed %lld",
			     i, rows[i].diff_pct, diff[i]);
	}
	T_ASSERT(!ios_cmp_jobs_differ(&cr));
	ios_cmp_run_free(&cr);
	return T_PASS;
}

static int test_moyer_tables(void)
{
	T_ASSERT_EQ(check_moyer(moyer_vanilla, moyer_vanilla_diff, 887264, 110908), T_PASS);
	T_ASSERT_EQ(check_moyer(moyer_fair, moyer_fair_diff, 953312, 119164), T_PASS);
	T_ASSERT_EQ(ios_share_moyer_diff(98356, 110908), -12);	/* -11.3 % truncates to -12 */
	return T_PASS;
}

static int test_run_summary(void)
{
	const uint64_t kib[3] = { 3000, 1000, 2000 };
	struct ios_cmp_run cr;

	T_ASSERT_EQ(fake_run(&cr, "deadline", kib, 3), 0);
	T_ASSERT_EQ(cr.nr_jobs, 3);
	T_ASSERT(!strcmp(cr.label, "deadline"));
	T_ASSERT_NEAR(cr.jobs[0].bw_kib, 100.0, 1e-9);		/* 3000 KiB in 30 s */
	T_ASSERT_NEAR(cr.min_max_bw, 1.0 / 3.0, 1e-12);
	T_ASSERT_NEAR(cr.jain_bw, 36.0 / (3 * 14.0), 1e-12);
	T_ASSERT_U64_EQ(cr.jobs[2].clat_max_ns, 15000000ULL);
	T_ASSERT(!cr.jobs[0].has_p99);		/* no histogram was kept */
	T_ASSERT(cr.has_lat && !cr.has_p99);
	T_ASSERT_U64_EQ(cr.clat_max_ns, 15000000ULL);
	T_ASSERT_NEAR(cr.agg_kib, 6000.0 / (30.0 + 2e-9), 1e-6);
	for (int i = 0; i < 3; i++)
		T_ASSERT_NEAR(cr.jobs[i].share, 1.0 / 3.0, 1e-12);
	ios_cmp_run_free(&cr);
	return T_PASS;
}

static int test_reports(void)
{
	struct ios_cmp_run runs[2];
	const char *files[1] = { "jobs.fio" };
	struct ios_cmp_report rep = { files, 1, runs, 2, false, false, NULL, NULL, 0 };
	struct ios_buf b;
	struct jm *doc;
	const char *err = NULL;

	T_ASSERT_EQ(fake_run(&runs[0], "cfq", moyer_vanilla, 8), 0);
	T_ASSERT_EQ(fake_run(&runs[1], "bfq", moyer_fair, 8), 0);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_cmp_report_text(&rep, &b), 0);
	T_ASSERT(strstr(b.s, "Jain's index (bw)"));
	T_ASSERT(strstr(b.s, "over the per-job bandwidths"));
	/* the same class, level and group everywhere: no share table unless asked */
	T_ASSERT(!strstr(b.s, "total priority"));
	T_ASSERT(strstr(b.s, "finish: the simulated time it ended."));
	ios_buf_free(&b);
	/* columns run with --real ended in real time, not simulated time */
	rep.real = true;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_cmp_report_text(&rep, &b), 0);
	T_ASSERT(strstr(b.s, "finish: when it ended, in real time."));
	T_ASSERT(!strstr(b.s, "simulated"));
	ios_buf_free(&b);
	rep.real = false;
	rep.shares = true;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_cmp_report_text(&rep, &b), 0);
	T_ASSERT(strstr(b.s, "total priority: 800\n"));
	T_ASSERT(strstr(b.s, "total data transferred: 887264\n"));
	T_ASSERT(strstr(b.s, "class prio      ideal    xferred  %diff  job\n"));
	T_ASSERT(strstr(b.s, "be       4     110908     124404     12  r1\n"));
	T_ASSERT(strstr(b.s, "ideal from CFQ slice length per level"));
	T_ASSERT(strstr(b.s, "ideal from BFQ ioprio weight"));
	ios_buf_free(&b);

	ios_buf_init(&b);
	T_ASSERT_EQ(ios_cmp_report_json(&rep, &b), 0);
	doc = jm_parse(b.s, &err, NULL);
	T_ASSERT_MSG(doc, "invalid JSON: %s\n%s", err, b.s);
	T_ASSERT(!strcmp(jm_str(doc, "iosched_compare/runs/0/label"), "cfq"));
	T_ASSERT_U64_EQ(jm_u64(doc, "iosched_compare/runs/0/shares/total_kib"), 887264);
	T_ASSERT_U64_EQ(jm_u64(doc, "iosched_compare/runs/0/shares/rows/6/ideal_kib"), 110908);
	T_ASSERT_NEAR(jm_num(doc, "iosched_compare/runs/0/shares/rows/6/diff_pct"), -14, 0);
	T_ASSERT_NEAR(jm_num(doc, "iosched_compare/runs/1/all_jobs/jain_index_bw"),
		      runs[1].jain_bw, 1e-6);
	T_ASSERT(jm_path(doc, "iosched_compare/runs/1/all_jobs/clat_p99_ns")->type == JM_NULL);
	jm_free(doc);
	ios_buf_free(&b);
	ios_cmp_run_free(&runs[0]);
	ios_cmp_run_free(&runs[1]);
	return T_PASS;
}

static int test_progress_format(void)
{
	struct ios_progress_item one = { NULL, 12345000000ULL, 0.452 };
	struct ios_progress_item two[2] = { { "cfq", 4200000000ULL, 0.45 },
					    { "bfq", 1100000000ULL, 0.12 } };
	char buf[256];

	ios_progress_eta(buf, sizeof(buf), 0.0, 10);
	T_ASSERT(!strcmp(buf, "--:--"));
	ios_progress_eta(buf, sizeof(buf), 0.5, 65);
	T_ASSERT(!strcmp(buf, "1:05"));
	ios_progress_eta(buf, sizeof(buf), 0.25, 1200);
	T_ASSERT(!strcmp(buf, "1:00:00"));
	ios_progress_eta(buf, sizeof(buf), 1e-9, 1000);
	T_ASSERT(!strcmp(buf, "--:--"));
	ios_progress_format(buf, sizeof(buf), 80, &one, 1, 0, 1, 10.0);
	T_ASSERT_MSG(!strcmp(buf, "sim 12.345 s  45.2%  ETA 0:12"), "'%s'", buf);
	ios_progress_format(buf, sizeof(buf), 120, two, 2, 2, 6, 10.0);
	T_ASSERT_MSG(!strcmp(buf, "2/6 done, 42.8%  ETA 0:13  cfq: sim 4.2 s 45%  bfq: sim 1.1 s 12%"),
		     "'%s'", buf);
	/* never as wide as the terminal: a wrapped line cannot be redrawn */
	ios_progress_format(buf, sizeof(buf), 30, two, 2, 2, 6, 10.0);
	T_ASSERT_EQ(strlen(buf), 29);
	T_ASSERT(!strncmp(buf, "2/6 done, 42.8%  ETA 0:13", 25));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_jain, test_min_max_spread, test_cfq_levels, test_strict_classes,
		     test_cfq_groups, test_bfq, test_params_of, test_moyer_tables, test_run_summary,
		     test_reports, test_progress_format);
}
