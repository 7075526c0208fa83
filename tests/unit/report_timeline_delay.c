/*
 * Description: the timeline's lanes of what the cgroup v2 controllers held
 * (docs/logs-and-plots.md "The timeline"; struct ios_owner_ops.held,
 * src/block/blk_cgroup.c, src/report/timeline.c, src/report/plot.c):
 *  - io.max (6.12 blk_throtl_bio): a group of direct readers under rbps is
 *    held, the unlimited one never; per job the timeline's exact totals are
 *    the report's `held` (time and count), the log's waits are the limited
 *    jobs', each column's holder is a limited job, and the plot draws an
 *    "io.max held" lane naming the job held longest;
 *  - io.latency (6.12 blkcg_iolatency_throttle's rq_wait): the victim
 *    sibling's writers are held at their scaled-down depth, the protected
 *    reader is not; again the totals are the report's;
 *  - a run without groups records no wait and the plot has no such lane;
 *  - the recorder alone: a wait spreads over the columns it covers, the
 *    same job's waits add up in a column, a task-less wait goes to the
 *    "other" lane, a bad cause is ignored, and folding keeps the holder.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "iosched/plot.h"
#include "iosched/timeline.h"

static struct ios_jobfile jf;

static int run(const char *job, const char *setting, struct ios_run_result *res)
{
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	struct ios_run_config cfg = { .scheduler = "none", .device = "ssd-nvme", .seed = 1,
				      .settings = &set };
	int ret;

	cfg.record_series = cfg.record_timeline = true;
	if (setting && ios_settings_add_kv(&set, setting, "test", &e))
		return -1;
	ret = t_run_job("tl.fio", job, &cfg, &jf, res);
	ios_settings_free(&set);
	return ret;
}

static int svg_of(const struct ios_run_result *r, struct ios_buf *b)
{
	struct ios_plot_run pr = { NULL, r->series };
	struct ios_plot p = { "t", r->scheduler, &pr, 1, NULL, false };

	ios_buf_init(b);
	return ios_plot_svg(&p, b);
}

/* every job's lane totals for @cause are its report's `held` */
static int totals_match(const struct ios_run_result *r, const struct ios_timeline *tl, int cause)
{
	for (size_t j = 0; j < r->nr_jobs; j++) {
		T_ASSERT(r->jobs[j].has_waits);
		T_ASSERT_U64_EQ(tl->held_lane_ns[j * IOS_TL_CAUSES + cause], r->jobs[j].waits.ns[cause]);
		T_ASSERT_U64_EQ(tl->held_lane_nr[j * IOS_TL_CAUSES + cause], r->jobs[j].waits.nr[cause]);
	}
	return T_PASS;
}

static bool is_job(const struct ios_run_result *r, uint32_t lane, const char *name)
{
	return lane < r->nr_jobs && !strcmp(r->jobs[lane].name, name);
}

static int test_io_max(void)
{
	static const char job[] =
		"[global]\ndirect=1\nsize=1g\nbs=128k\nruntime=1\ntime_based\n"
		"ioengine=libaio\niodepth=4\nrw=read\n"
		"[lim]\ncgroup=lim\nnumjobs=2\n[free]\ncgroup=free\nnumjobs=2\n";
	struct ios_run_result r;
	const struct ios_timeline *tl;
	size_t cols = 0;
	struct ios_buf b;

	T_ASSERT_EQ(run(job, "cgroup.lim.io.max=rbps=10485760", &r), 0);
	tl = r.series->timeline;
	T_ASSERT(tl && tl->held_lane_ns);
	T_ASSERT_EQ(tl->held_causes, 1u << IOS_WAIT_THROTL);
	T_ASSERT_EQ(totals_match(&r, tl, IOS_WAIT_THROTL), T_PASS);
	for (size_t j = 0; j < r.nr_jobs; j++)
		T_ASSERT_MSG(!strcmp(r.jobs[j].name, "lim") == (tl->held_lane_ns[j * IOS_TL_CAUSES +
									     IOS_WAIT_THROTL] > 0),
			     "job %zu (%s): held %llu ns", j, r.jobs[j].name,
			     (unsigned long long)tl->held_lane_ns[j * IOS_TL_CAUSES + IOS_WAIT_THROTL]);
	/* 10 MiB/s of 128 KiB reads for 1 s: about 80 bios held */
	T_ASSERT(tl->nr_held_log >= 40);
	for (size_t i = 0; i < tl->nr_held_log; i++) {
		T_ASSERT(is_job(&r, tl->held_log[i].lane, "lim"));
		T_ASSERT_EQ(tl->held_log[i].cause, IOS_WAIT_THROTL);
		T_ASSERT(tl->held_log[i].end_ns > tl->held_log[i].start_ns);
	}
	for (size_t k = 0; k < tl->nr_cols; k++) {
		uint32_t w = tl->cols[k].held[IOS_WAIT_THROTL];

		T_ASSERT_EQ(tl->cols[k].held[IOS_WAIT_COST] + tl->cols[k].held[IOS_WAIT_LATENCY], 0);
		if (!w)
			continue;
		T_ASSERT(is_job(&r, w - 1, "lim"));
		cols++;
	}
	/* a limited reader waits nearly all the time: most columns hold one */
	T_ASSERT_MSG(cols * 2 > tl->nr_cols, "%zu of %zu columns", cols, tl->nr_cols);
	T_ASSERT_EQ(svg_of(&r, &b), 0);
	T_ASSERT(strstr(b.s, ">io.max held<"));
	T_ASSERT(strstr(b.s, "most: lim"));
	T_ASSERT(!strstr(b.s, ">io.cost held<"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	return T_PASS;
}

static int test_io_latency(void)
{
	static const char job[] =
		"[global]\ndirect=1\nsize=1g\nbs=4k\nruntime=2\ntime_based\n"
		"[fg]\ncgroup=fg\nrw=randread\nioengine=psync\n"
		"[bg]\ncgroup=bg\nrw=randwrite\nioengine=libaio\niodepth=64\nnumjobs=2\n";
	struct ios_run_result r;
	const struct ios_timeline *tl;
	struct ios_buf b;

	T_ASSERT_EQ(run(job, "cgroup.fg.io.latency=target=50", &r), 0);
	tl = r.series->timeline;
	T_ASSERT(tl && tl->held_lane_ns);
	T_ASSERT(tl->held_causes & 1u << IOS_WAIT_LATENCY);
	T_ASSERT_EQ(totals_match(&r, tl, IOS_WAIT_LATENCY), T_PASS);
	/* the protected reader is never the victim; the writers are */
	T_ASSERT_U64_EQ(tl->held_lane_ns[0 * IOS_TL_CAUSES + IOS_WAIT_LATENCY], 0);
	T_ASSERT(tl->held_lane_ns[1 * IOS_TL_CAUSES + IOS_WAIT_LATENCY] > 0);
	T_ASSERT_EQ(svg_of(&r, &b), 0);
	T_ASSERT(strstr(b.s, ">io.latency held<"));
	T_ASSERT(strstr(b.s, "most: bg"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	return T_PASS;
}

static int test_no_groups(void)
{
	static const char job[] =
		"[global]\ndirect=1\nsize=256m\nbs=4k\nruntime=1\ntime_based\nrw=randread\n[a]\n[b]\n";
	struct ios_run_result r;
	struct ios_buf b;

	T_ASSERT_EQ(run(job, NULL, &r), 0);
	T_ASSERT(r.series->timeline);
	T_ASSERT_EQ(r.series->timeline->held_causes, 0);
	T_ASSERT(!r.series->timeline->held_lane_ns);
	T_ASSERT_EQ(svg_of(&r, &b), 0);
	T_ASSERT(!strstr(b.s, " held<") && !strstr(b.s, "held lanes"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	return T_PASS;
}

static int test_recorder(void)
{
	const uint32_t pids[2] = { 100, 200 };
	const uint64_t col = IOS_TL_FIRST_NS;
	struct ios_timeline tl;
	const struct ios_owner_ops *ops = &ios_timeline_owner_ops;

	T_ASSERT_EQ(ios_timeline_init(&tl, 2, pids), 0);
	/* pid 100 held by io.cost over columns 1..3 (mid 1 to mid 3) */
	ops->held(&tl, 100, IOS_WAIT_COST, col + col / 2, 3 * col + col / 2);
	/* pid 200 briefly in column 2: the longer holder keeps the column */
	ops->held(&tl, 200, IOS_WAIT_COST, 2 * col, 2 * col + col / 4);
	/* pid 200 twice in column 5: its waits add up, beating 100's longer one */
	ops->held(&tl, 200, IOS_WAIT_COST, 5 * col, 5 * col + col / 4);
	ops->held(&tl, 200, IOS_WAIT_COST, 5 * col + col / 4, 5 * col + col / 2);
	ops->held(&tl, 100, IOS_WAIT_COST, 5 * col + col / 2, 5 * col + col / 2 + col / 3);
	/* a wait of no task: the "other" lane; a bad cause and an empty wait: nothing */
	ops->held(&tl, 0, IOS_WAIT_WBT, 7 * col, 8 * col);
	ops->held(&tl, 100, IOS_TL_CAUSES, 0, col);
	ops->held(&tl, 100, -1, 0, col);
	ops->held(&tl, 100, IOS_WAIT_THROTL, col, col);
	T_ASSERT_EQ(tl.held_causes, 1u << IOS_WAIT_COST | 1u << IOS_WAIT_WBT);
	T_ASSERT_EQ(tl.nr_held_log, 6);
	T_ASSERT_U64_EQ(tl.held_lane_ns[0 * IOS_TL_CAUSES + IOS_WAIT_COST], 2 * col + col / 3);
	T_ASSERT_U64_EQ(tl.held_lane_nr[1 * IOS_TL_CAUSES + IOS_WAIT_COST], 3);
	T_ASSERT_U64_EQ(tl.held_lane_ns[2 * IOS_TL_CAUSES + IOS_WAIT_WBT], col);
	T_ASSERT_EQ(tl.cols[0].held[IOS_WAIT_COST], 0);
	for (size_t k = 1; k <= 3; k++)
		T_ASSERT_EQ(tl.cols[k].held[IOS_WAIT_COST], 1);
	T_ASSERT_U64_EQ(tl.cols[1].held_ns[IOS_WAIT_COST], col / 2);
	T_ASSERT_U64_EQ(tl.cols[2].held_ns[IOS_WAIT_COST], col);
	T_ASSERT_EQ(tl.cols[4].held[IOS_WAIT_COST], 0);
	T_ASSERT_EQ(tl.cols[5].held[IOS_WAIT_COST], 2);
	T_ASSERT_U64_EQ(tl.cols[5].held_ns[IOS_WAIT_COST], col / 2);
	T_ASSERT_EQ(tl.cols[7].held[IOS_WAIT_WBT], 3);
	T_ASSERT_EQ(tl.cols[7].held[IOS_WAIT_COST], 0);
	/* a wait far out folds the columns: pairs keep their longer holder */
	ops->held(&tl, 100, IOS_WAIT_COST, IOS_TL_MAX_COLS * col, IOS_TL_MAX_COLS * col + 1);
	T_ASSERT_U64_EQ(tl.col_ns, 2 * col);
	T_ASSERT_EQ(tl.cols[0].held[IOS_WAIT_COST], 1);	/* old 0 and 1 */
	T_ASSERT_EQ(tl.cols[1].held[IOS_WAIT_COST], 1);	/* old 2 and 3 */
	T_ASSERT_U64_EQ(tl.cols[1].held_ns[IOS_WAIT_COST], col + col / 2);
	T_ASSERT_EQ(tl.cols[2].held[IOS_WAIT_COST], 2);	/* old 4 and 5 */
	T_ASSERT_EQ(tl.cols[3].held[IOS_WAIT_WBT], 3);	/* old 6 and 7 */
	ios_timeline_free(&tl);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_io_max, test_io_latency, test_no_groups, test_recorder);
}
