/*
 * Description: the timeline's series for the blk-mq schedulers (Linux 6.12;
 * src/report/timeline.c, src/report/plot.c):
 *  - mq-deadline's batches carry their priority level: an RT reader beside
 *    BE writers records RT read batches and BE write batches (counts, the
 *    batch log, the columns), and the plot draws a lane per level instead
 *    of the plain "rounds" lane; 2.6.31 deadline still records levelless
 *    rounds only;
 *  - kyber's token depths: a write domain that shrinks under a congested
 *    reader is a step series starting at its full depth (128), ending at
 *    the depth the scheduler reports, each column holding the smallest
 *    depth in effect; the plot draws a "write tokens" lane;
 *  - the recorder alone: a change at 1 s from 128 to 32 fills the columns
 *    before with 128 and after with 32, the column of the change with 32,
 *    and the series survives folding over a long run;
 *  - BFQ 6.12's turns go through the blk-mq layer: two sequential direct
 *    readers own the disk in alternating slices.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "iosched/plot.h"
#include "iosched/timeline.h"

static struct ios_jobfile jf;

static int run(const char *job, const char *sched, const char *dev, struct ios_run_result *res)
{
	struct ios_run_config cfg = { .scheduler = sched, .device = dev, .seed = 1 };

	cfg.record_series = cfg.record_timeline = true;
	return t_run_job("tl.fio", job, &cfg, &jf, res);
}

static int svg_of(const struct ios_run_result *r, struct ios_buf *b)
{
	struct ios_plot_run pr = { NULL, r->series };
	struct ios_plot p = { "t", r->scheduler, &pr, 1, NULL, false };

	ios_buf_init(b);
	return ios_plot_svg(&p, b);
}

static int64_t stat_of(const struct ios_run_result *res, const char *name)
{
	for (size_t i = 0; i < res->nr_sched_stats; i++)
		if (!strcmp(res->sched_stats[i].name, name))
			return res->sched_stats[i].value;
	return -1;
}

static const char rt_vs_be[] =
	"[global]\ndirect=1\nsize=256m\nruntime=1\ntime_based\nioengine=libaio\n"
	"[reader]\nrw=randread\nbs=4k\niodepth=1\nprioclass=1\n"
	"[writer]\nrw=randwrite\nbs=64k\niodepth=32\n";

static int test_mqdl_batches(void)
{
	struct ios_run_result r;
	const struct ios_timeline *tl;
	struct ios_buf b;
	unsigned col_bits = 0;

	T_ASSERT_EQ(run(rt_vs_be, "mq-deadline-6.12", "ssd", &r), 0);
	tl = r.series->timeline;
	T_ASSERT(tl);
	T_ASSERT(tl->nr_level_rounds[0][IOS_READ] > 0);	/* RT reads */
	T_ASSERT(tl->nr_level_rounds[1][IOS_WRITE] > 0);	/* BE writes */
	T_ASSERT_EQ(tl->nr_level_rounds[0][IOS_WRITE], 0);
	T_ASSERT_EQ(tl->nr_level_rounds[1][IOS_READ], 0);
	T_ASSERT_EQ(tl->nr_level_rounds[2][0] + tl->nr_level_rounds[2][1], 0);
	/* every batch is counted once, and the scheduler's own count agrees */
	T_ASSERT_U64_EQ(tl->nr_level_rounds[0][0] + tl->nr_level_rounds[1][1],
			tl->nr_rounds[0] + tl->nr_rounds[1]);
	T_ASSERT_EQ((int64_t)(tl->nr_rounds[0] + tl->nr_rounds[1]), stat_of(&r, "batches"));
	T_ASSERT(tl->nr_batches > 0);
	for (size_t i = 0; i < tl->nr_batches; i++) {
		const struct ios_tl_batch *x = &tl->batches[i];

		T_ASSERT(x->level == (x->dir == IOS_READ ? 0 : 1));
		T_ASSERT(!i || x->start_ns >= tl->batches[i - 1].start_ns);
	}
	for (size_t k = 0; k < tl->nr_cols; k++)
		col_bits |= tl->cols[k].levels;
	T_ASSERT_EQ(col_bits, 1u << 0 | 1u << 3);	/* RT read, BE write */
	T_ASSERT_EQ(svg_of(&r, &b), 0);
	T_ASSERT(strstr(b.s, ">RT batches</text>") && strstr(b.s, ">BE batches</text>"));
	T_ASSERT(!strstr(b.s, ">IDLE batches</text>") && !strstr(b.s, ">rounds</text>"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);

	/* the 2.6.31 deadline: rounds without levels, the one lane as before */
	T_ASSERT_EQ(run(rt_vs_be, "deadline", "ssd", &r), 0);
	tl = r.series->timeline;
	T_ASSERT(tl->nr_rounds[0] + tl->nr_rounds[1] > 0);
	T_ASSERT_EQ(tl->nr_batches, 0);
	T_ASSERT_EQ(svg_of(&r, &b), 0);
	T_ASSERT(strstr(b.s, ">rounds</text>") && !strstr(b.s, "batches</text>"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	return T_PASS;
}

static int test_kyber_depths(void)
{
	static const char job[] =
		"[global]\nsize=1g\nruntime=4\ntime_based\nioengine=libaio\ndirect=1\n"
		"[reader]\nrw=randread\nbs=4k\niodepth=16\n"
		"[writer]\nrw=randwrite\nbs=4k\niodepth=16\n";
	struct ios_run_result r;
	const struct ios_timeline *tl;
	struct ios_buf b;
	uint16_t prev = 0xffff;

	T_ASSERT_EQ(run(job, "kyber-6.12", "ssd", &r), 0);
	tl = r.series->timeline;
	T_ASSERT(tl);
	T_ASSERT(tl->depth_domains & 1u << 1);		/* WRITE resized */
	T_ASSERT_EQ((int64_t)tl->nr_depth_changes, stat_of(&r, "resizes"));
	T_ASSERT_EQ(tl->depth_max[1], 128);
	T_ASSERT_EQ((int64_t)tl->depth_now[1], stat_of(&r, "write_tokens"));
	T_ASSERT(tl->depth_now[1] < 128);
	/* the first change starts from the full pool; the log chains */
	for (size_t i = 0, seen = 0; i < tl->nr_depths; i++) {
		const struct ios_tl_depth *x = &tl->depths[i];

		if (x->domain != 1)
			continue;
		T_ASSERT(seen ? x->from == prev : x->from == 128);
		prev = x->to;
		seen++;
	}
	T_ASSERT_EQ(tl->cols[0].depth[1], 128);
	T_ASSERT_EQ(tl->cols[tl->nr_cols - 1].depth[1], tl->depth_now[1]);
	for (size_t k = 0; k < tl->nr_cols; k++)
		T_ASSERT(tl->cols[k].depth[1] >= 1 && tl->cols[k].depth[1] <= 128);
	T_ASSERT_EQ(svg_of(&r, &b), 0);
	T_ASSERT(strstr(b.s, ">write tokens</text>"));
	ios_buf_free(&b);
	t_job_done(&jf, &r);
	return T_PASS;
}

static int test_recorder_depths(void)
{
	const struct ios_owner_ops *ops = &ios_timeline_owner_ops;
	struct ios_timeline tl;
	uint32_t pid = 1;
	const uint64_t s = 1000000000ULL;
	size_t at;

	T_ASSERT_EQ(ios_timeline_init(&tl, 1, &pid), 0);
	ops->note(&tl, s, 128, IOS_OWN_DEPTH, IOS_OWN_DEPTH_REASON(1, 32));
	ios_timeline_finish(&tl, 2 * s);
	T_ASSERT_EQ(tl.err, 0);
	at = (size_t)(s / tl.col_ns);
	T_ASSERT_EQ(tl.cols[0].depth[1], 128);
	T_ASSERT_EQ(tl.cols[at - 1].depth[1], 128);
	T_ASSERT_EQ(tl.cols[at].depth[1], 32);
	T_ASSERT_EQ(tl.cols[tl.nr_cols - 1].depth[1], 32);
	T_ASSERT_EQ(tl.cols[0].depth[0], 0);	/* READ never reported: unknown */
	/* a long run folds the columns; the smallest depth survives */
	ops->note(&tl, 3 * s, 32, IOS_OWN_DEPTH, IOS_OWN_DEPTH_REASON(1, 4));
	ops->note(&tl, 3 * s + 1000, 4, IOS_OWN_DEPTH, IOS_OWN_DEPTH_REASON(1, 100));
	ios_timeline_finish(&tl, 1000 * s);
	T_ASSERT(tl.nr_cols <= IOS_TL_MAX_COLS);
	T_ASSERT_EQ(tl.cols[(3 * s) / tl.col_ns].depth[1], 4);
	T_ASSERT_EQ(tl.cols[tl.nr_cols - 1].depth[1], 100);
	T_ASSERT_EQ(tl.depth_max[1], 128);
	T_ASSERT_EQ(tl.nr_depths, 3);
	ios_timeline_free(&tl);
	return T_PASS;
}

static int test_bfq612_turns(void)
{
	static const char job[] =
		"[global]\ndirect=1\nsize=256m\nbs=256k\nruntime=1\ntime_based\n"
		"[a]\nrw=read\n[b]\nrw=read\n";
	struct ios_run_result r;
	const struct ios_timeline *tl;
	size_t switches = 0;

	T_ASSERT_EQ(run(job, "bfq-6.12", "hdd-2009", &r), 0);
	T_ASSERT(!strcmp(r.scheduler, "bfq-6.12"));
	tl = r.series->timeline;
	T_ASSERT(tl && tl->nr_log > 0);
	T_ASSERT(tl->slices[0] >= 2 && tl->slices[1] >= 2);
	for (size_t i = 1; i < tl->nr_log; i++)
		switches += tl->log[i].lane != tl->log[i - 1].lane;
	T_ASSERT(switches >= 3);
	T_ASSERT(tl->own_ns[0] > 100000000 && tl->own_ns[1] > 100000000);
	t_job_done(&jf, &r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_mqdl_batches, test_kyber_depths, test_recorder_depths, test_bfq612_turns);
}
