/*
 * Description: the experiments module called directly, without the
 * command line (iosched/exp.h).
 *  - compare: a tiny two-job set under noop and deadline gives two results
 *    in column order, named after their schedulers, that moved every byte
 *    of the jobs, with the numbers of a plain ios_run() of the same column;
 *    one worker and two give the same report bytes.
 *  - compare: a column whose run fails is reported as the first failure
 *    in column order with the runner's message; a job set that writes
 *    logs is refused before anything runs.
 *  - repro: a small experiment of our own (two columns, two seeds, the
 *    first job alone) prepared, run on two workers and evaluated: every
 *    run is there with its seed and its series, the verdicts are the
 *    medians of the measures computed from the runs by hand, and the plot
 *    draws the seed at the lower middle of the first measure.
 *  - compare with the blk-mq schedulers (bfq-6.12, kyber, mq-deadline,
 *    none) beside bfq 4.19: names, bytes, a plain run, worker-independent.
 *  - the pool: the first failure in task order, the tasks past it skipped.
 *  - compare's ideal under cgroup v2: io.cost enabled with io.weight
 *    500:100 gives 83.3 %/16.7 % (hweight_active), a two-level tree
 *    multiplies down, root jobs and internal nodes have none; none with
 *    io.weight but no io.cost has no ideal ("no control" in the report).
 */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "iosched/exp.h"

static const char tiny_job[] =
	"[global]\nrw=read\nbs=64k\ndirect=1\nsize=4m\n[a]\n[b]\nrw=write\n";

static int parse_tiny(struct ios_jobfile *jf, const char *text)
{
	struct ios_job_parse_opts po;
	struct ios_err e = { 0 };

	ios_job_parse_opts_init(&po);
	return ios_job_parse_buf("tiny.fio", text, strlen(text), &po, jf, &e);
}

static int report_text(const struct ios_cmp_results *res, struct ios_buf *b)
{
	static const char *const files[] = { "tiny.fio" };
	struct ios_cmp_report rep = { files, 1, res->runs, res->nr, false, false, NULL, NULL, 0 };

	ios_buf_init(b);
	return ios_cmp_report_text(&rep, b);
}

static int test_compare(void)
{
	struct ios_jobfile jf = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_run_config cfg = { .seed = 3, .device = "hdd-2004" };
	struct ios_exp_opts one = { 1, NULL, NULL }, two = { 2, NULL, NULL };
	struct ios_cmp_results r1, r2;
	struct ios_run_result plain = { 0 };
	struct ios_run_config pc;
	struct ios_buf b1, b2;
	struct ios_err e = { 0 };
	size_t nr = 0;

	T_ASSERT_EQ(parse_tiny(&jf, tiny_job), 0);
	T_ASSERT_EQ(ios_cmp_check_jobs(&jf, &e), 0);
	T_ASSERT_EQ(ios_cmp_columns_parse("noop,deadline", NULL, cfg.device, &cols, &nr, &e), 0);
	T_ASSERT_EQ(nr, 2);
	T_ASSERT_EQ(ios_cmp_run_all(&jf, &cfg, cols, nr, &two, &r2), 0);
	T_ASSERT_EQ(r2.nr, 2);
	T_ASSERT_EQ(r2.failed, 2);
	T_ASSERT(!strcmp(r2.runs[0].scheduler, "noop"));
	T_ASSERT(!strcmp(r2.runs[1].scheduler, "deadline"));
	T_ASSERT(!strcmp(r2.runs[1].label, "deadline"));
	for (size_t c = 0; c < 2; c++) {
		T_ASSERT_EQ(r2.runs[c].nr_jobs, 2);
		T_ASSERT_U64_EQ(r2.runs[c].seed, 3);
		T_ASSERT_U64_EQ(r2.runs[c].jobs[0].bytes, 4u << 20);
		T_ASSERT_U64_EQ(r2.runs[c].jobs[1].bytes, 4u << 20);
		T_ASSERT_U64_EQ(r2.runs[c].total_bytes, 8u << 20);
		T_ASSERT(r2.runs[c].agg_kib > 0.0);
		T_ASSERT(r2.extra[c].series == NULL);
	}
	/* a column is what a plain run of its scheduler gives */
	pc = cfg;
	pc.scheduler = "deadline";
	pc.settings = &cols[1].settings;
	T_ASSERT_EQ(ios_run(&jf, &pc, &plain, &e), 0);
	T_ASSERT_U64_EQ(plain.sim_end_ns, r2.runs[1].sim_end_ns);
	ios_run_result_free(&plain);
	/* the same bytes with one worker */
	T_ASSERT_EQ(ios_cmp_run_all(&jf, &cfg, cols, nr, &one, &r1), 0);
	T_ASSERT_EQ(report_text(&r1, &b1), 0);
	T_ASSERT_EQ(report_text(&r2, &b2), 0);
	T_ASSERT(b1.len > 0 && b1.len == b2.len && !memcmp(b1.s, b2.s, b1.len));
	T_ASSERT(strstr(b1.s, "deadline") != NULL);
	ios_buf_free(&b1);
	ios_buf_free(&b2);
	ios_cmp_results_free(&r1);
	ios_cmp_results_free(&r2);
	ios_cmp_columns_free(cols, nr);
	ios_jobfile_free(&jf);
	return T_PASS;
}

/*
 * The blk-mq schedulers as columns (issue 29): bfq-6.12 beside the 4.19 bfq,
 * kyber, mq-deadline and none; each moves every byte, carries its own name,
 * equals a plain run of its scheduler, and one or two workers give the
 * same report.
 */
static int test_compare_mq(void)
{
	static const char *const names[] = { "bfq-6.12", "bfq", "kyber-6.12", "mq-deadline-6.12",
					     "none" };
	struct ios_jobfile jf = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_run_config cfg = { .seed = 5, .device = "ssd" };
	struct ios_exp_opts one = { 1, NULL, NULL }, two = { 2, NULL, NULL };
	struct ios_cmp_results r1, r2;
	struct ios_run_result plain = { 0 };
	struct ios_run_config pc;
	struct ios_buf b1, b2;
	struct ios_err e = { 0 };
	size_t nr = 0;

	T_ASSERT_EQ(parse_tiny(&jf, tiny_job), 0);
	T_ASSERT_EQ(ios_cmp_columns_parse("bfq-6.12,bfq,kyber,mq-deadline,none", NULL, cfg.device,
					  &cols, &nr, &e), 0);
	T_ASSERT_EQ(nr, 5);
	T_ASSERT_EQ(ios_cmp_run_all(&jf, &cfg, cols, nr, &two, &r2), 0);
	T_ASSERT_EQ(r2.nr, 5);
	for (size_t c = 0; c < nr; c++) {
		T_ASSERT(!strcmp(r2.runs[c].scheduler, names[c]));
		T_ASSERT_U64_EQ(r2.runs[c].total_bytes, 8u << 20);
	}
	pc = cfg;
	pc.scheduler = "bfq-6.12";
	pc.settings = &cols[0].settings;
	T_ASSERT_EQ(ios_run(&jf, &pc, &plain, &e), 0);
	T_ASSERT(plain.mq != NULL);
	T_ASSERT_U64_EQ(plain.sim_end_ns, r2.runs[0].sim_end_ns);
	ios_run_result_free(&plain);
	T_ASSERT_EQ(ios_cmp_run_all(&jf, &cfg, cols, nr, &one, &r1), 0);
	T_ASSERT_EQ(report_text(&r1, &b1), 0);
	T_ASSERT_EQ(report_text(&r2, &b2), 0);
	T_ASSERT(b1.len > 0 && b1.len == b2.len && !memcmp(b1.s, b2.s, b1.len));
	T_ASSERT(strstr(b1.s, "bfq-6.12") != NULL);
	ios_buf_free(&b1);
	ios_buf_free(&b2);
	ios_cmp_results_free(&r1);
	ios_cmp_results_free(&r2);
	ios_cmp_columns_free(cols, nr);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static int test_compare_errors(void)
{
	static const char logs[] = "[a]\nrw=read\nsize=1m\nwrite_bw_log=x\n";
	struct ios_jobfile jf = { 0 }, lj = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { .seed = 1 };
	struct ios_exp_opts two = { 2, NULL, NULL };
	struct ios_cmp_results r;
	struct ios_err e = { 0 };
	size_t nr = 0;

	T_ASSERT_EQ(parse_tiny(&lj, logs), 0);
	T_ASSERT_EQ(ios_cmp_check_jobs(&lj, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "tiny.fio:1: job 'a' sets write_bw_log") != NULL, "%s", e.msg);
	ios_jobfile_free(&lj);

	/* checked per run against the workload's groups, so it fails in the run */
	T_ASSERT_EQ(parse_tiny(&jf, tiny_job), 0);
	T_ASSERT_EQ(ios_settings_add(&set, "cgroup.nosuch.weight", "100", "--set"), 0);
	T_ASSERT_EQ(ios_cmp_columns_parse("noop,deadline", &set, NULL, &cols, &nr, &e), 0);
	T_ASSERT(ios_cmp_run_all(&jf, &cfg, cols, nr, &two, &r) < 0);
	T_ASSERT_EQ(r.failed, 0);
	T_ASSERT(r.ret < 0);
	T_ASSERT_MSG(strstr(r.err.msg, "cgroup.nosuch.weight") != NULL, "%s", r.err.msg);
	ios_cmp_results_free(&r);
	ios_cmp_columns_free(cols, nr);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static const char v2_job[] =
	"[global]\nrw=randread\nbs=4k\ndirect=1\nsize=64m\nruntime=200ms\ntime_based\n"
	"ioengine=libaio\niodepth=8\n[a]\ncgroup=a\n[b]\ncgroup=b\n";

static int test_compare_iocost(void)
{
	struct ios_share_params p = { IOS_SHARE_NONE, 0, IOS_SHARE_CTL_IOCOST };
	struct ios_share_group g2[] = { { "a", 300 }, { "a/x", 300 }, { "a/y", 0 }, { "b", 0 } };
	struct ios_share_job tree[] = { { 2, 4, "a/x", 0 }, { 2, 4, "a/y", 0 }, { 2, 4, "b", 0 },
					{ 2, 4, NULL, 0 } };
	struct ios_jobfile jf = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { .seed = 1, .device = "ssd" };
	struct ios_exp_opts one = { 1, NULL, NULL };
	struct ios_cmp_results r;
	struct ios_buf b;
	struct ios_err e = { 0 };
	double frac[4];
	size_t nr = 0;

	/* two levels: a 300 beside b 100 (75 %), then x 300 beside y 100; the root: none */
	T_ASSERT_EQ(ios_share_ideal_tree(&p, tree, 4, g2, 4, frac), 0);
	T_ASSERT(fabs(frac[0] - 0.5625) < 1e-9 && fabs(frac[1] - 0.1875) < 1e-9);
	T_ASSERT(fabs(frac[2] - 0.25) < 1e-9 && isnan(frac[3]));
	/* a job in "a" itself, whose children are active, is not charged */
	tree[3].cgroup = "a";
	T_ASSERT_EQ(ios_share_ideal_tree(&p, tree, 4, g2, 4, frac), 0);
	T_ASSERT(isnan(frac[3]) && fabs(frac[2] - 0.25) < 1e-9);
	p.ctl = IOS_SHARE_CTL_NONE;
	T_ASSERT_EQ(ios_share_ideal_tree(&p, tree, 4, g2, 4, frac), 0);
	T_ASSERT(isnan(frac[0]) && isnan(frac[2]));

	/* end to end: the columns' settings decide the ideal */
	T_ASSERT_EQ(parse_tiny(&jf, v2_job), 0);
	T_ASSERT_EQ(ios_settings_add(&set, "cgroup.a.io.weight", "500", "--set"), 0);
	T_ASSERT_EQ(ios_settings_add(&set, "cgroup.b.io.weight", "100", "--set"), 0);
	T_ASSERT_EQ(ios_cmp_columns_parse("none:cgroup.io.cost.qos=enable=1,none,bfq-6.12", &set,
					  cfg.device, &cols, &nr, &e), 0);
	T_ASSERT_EQ(ios_cmp_run_all(&jf, &cfg, cols, nr, &one, &r), 0);
	T_ASSERT_EQ(r.runs[0].share.ctl, IOS_SHARE_CTL_IOCOST);
	T_ASSERT_MSG(fabs(r.runs[0].jobs[0].share - 500.0 / 600.0) < 1e-9, "%f",
		     r.runs[0].jobs[0].share);
	T_ASSERT(fabs(r.runs[0].jobs[1].share - 100.0 / 600.0) < 1e-9);
	T_ASSERT(fabs(r.runs[0].jobs[0].group_share - 500.0 / 600.0) < 1e-9);
	T_ASSERT_EQ(r.runs[1].share.ctl, IOS_SHARE_CTL_NONE);
	T_ASSERT(isnan(r.runs[1].jobs[0].share) && isnan(r.runs[1].jobs[1].share));
	/* BFQ reads io.bfq.weight, not io.weight: its own model, groups at 100 each */
	T_ASSERT_EQ(r.runs[2].share.ctl, IOS_SHARE_CTL_SCHED);
	T_ASSERT(fabs(r.runs[2].jobs[0].share - 0.5) < 1e-9);
	T_ASSERT_EQ(report_text(&r, &b), 0);
	T_ASSERT_MSG(strstr(b.s, "io.weight, hweight_active: a=500 83.3% b=100 16.7%") != NULL,
		     "%s", b.s);
	T_ASSERT(strstr(b.s, "no control") != NULL);
	ios_buf_free(&b);
	ios_cmp_results_free(&r);
	ios_cmp_columns_free(cols, nr);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static const char *const my_columns[] = { "noop", "deadline", NULL };
static const struct ios_repro_check my_checks[] = {
	{ .column = "noop", .m = IOS_RM_SPREAD, .lo = NAN, .hi = 1.0, .row = "test" },
	{ .column = "deadline", .m = IOS_RM_AGG_ALONE, .lo = 0.01, .hi = NAN, .row = "test" },
};
static const struct ios_repro_exp my_exp = {
	.name = "t1", .title = "test", .jobfile = "tiny.fio", .kind = IOS_REPRO_FINISH,
	.columns = my_columns, .nr_seeds = 2, .alone = true, .alone_column = "deadline",
	.checks = my_checks, .nr_checks = 2,
};

static double spread_of(const struct ios_cmp_run *cr)
{
	uint64_t fin[8];

	for (size_t i = 0; i < cr->nr_jobs && i < 8; i++)
		fin[i] = cr->jobs[i].finish_ns;
	return ios_metric_spread(fin, cr->nr_jobs);
}

static int test_repro(void)
{
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { .device = "hdd-2004" };
	struct ios_repro_set s = { &my_exp, &jf, &cfg, "", NULL, 0, 0, 0, NULL, NULL };
	struct ios_exp_opts two = { 2, NULL, NULL };
	struct ios_repro_failure fail;
	struct ios_repro_verdict v[2];
	struct ios_repro_data d;
	struct ios_err e = { 0 };
	double sp[2];

	T_ASSERT_EQ(parse_tiny(&jf, tiny_job), 0);
	T_ASSERT_EQ(ios_repro_prepare(&s, false, &e), 0);
	T_ASSERT_EQ(s.nr_cols, 2);
	T_ASSERT_EQ(s.nr_seeds, 2);
	T_ASSERT_EQ(s.alone_col, 1);
	T_ASSERT_EQ(ios_repro_run_all(&s, 1, &two, &fail), 0);
	T_ASSERT(fail.set == NULL);
	for (size_t c = 0; c < 2; c++) {
		for (unsigned k = 0; k < 2; k++) {
			const struct ios_repro_result *r = &s.res[c * 2 + k];

			T_ASSERT_U64_EQ(r->run.seed, k + 1);
			T_ASSERT(!strcmp(r->run.scheduler, my_columns[c]));
			T_ASSERT_U64_EQ(r->run.total_bytes, 8u << 20);
			/* every seed keeps series: the plot draws the median one */
			T_ASSERT(r->series != NULL && r->series->nr_jobs == 2);
		}
	}
	T_ASSERT_EQ(s.alone[0].run.nr_jobs, 1);
	T_ASSERT_U64_EQ(s.alone[1].run.seed, 2);
	T_ASSERT(!strcmp(s.alone[0].run.scheduler, "deadline"));
	ios_repro_set_data(&s, &d);
	T_ASSERT(!strcmp(d.device, "hdd-2004"));
	T_ASSERT_EQ(ios_repro_evaluate(&d, v), 0);
	/* the median of two seeds: their mean */
	sp[0] = spread_of(&s.res[0].run);
	sp[1] = spread_of(&s.res[1].run);
	T_ASSERT_NEAR(v[0].per_seed[0], sp[0], 1e-12);
	T_ASSERT_NEAR(v[0].per_seed[1], sp[1], 1e-12);
	T_ASSERT_NEAR(v[0].value, (sp[0] + sp[1]) / 2.0, 1e-12);
	T_ASSERT(v[0].pass);
	T_ASSERT(isfinite(v[1].value) && v[1].value > 0.0);
	T_ASSERT(isnan(v[0].thread));
	/* two seeds: the lower of the middle two, here the seed with the smaller spread */
	T_ASSERT_EQ(ios_repro_plot_seed(&d, v), sp[1] < sp[0] ? 1u : 0u);
	ios_repro_set_free(&s);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static int pool_ran[6];

static int pool_task(void *arg, size_t idx, ios_run_progress_fn prog, void *prog_arg)
{
	(void)arg;
	(void)prog;
	(void)prog_arg;
	pool_ran[idx]++;
	return idx == 2 || idx == 4 ? -EIO : 0;
}

static int test_pool(void)
{
	struct ios_exp_pool p = { 6, pool_task, NULL, NULL };
	struct ios_exp_opts one = { 1, NULL, NULL };
	size_t failed = 99;

	T_ASSERT_EQ(ios_exp_pool_run(&p, &one, &failed), 0);
	T_ASSERT_EQ(failed, 2);
	/* one worker: strictly in order, nothing after the failure */
	T_ASSERT_EQ(pool_ran[0] + pool_ran[1] + pool_ran[2], 3);
	T_ASSERT_EQ(pool_ran[3] + pool_ran[4] + pool_ran[5], 0);
	p.nr = 0;
	T_ASSERT_EQ(ios_exp_pool_run(&p, &one, &failed), 0);
	T_ASSERT_EQ(failed, 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_compare, test_compare_mq, test_compare_errors, test_compare_iocost, test_repro,
		     test_pool);
}
