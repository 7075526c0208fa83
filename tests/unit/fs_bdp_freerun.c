/*
 * Description: Linux 6.x dirty throttling does not pause a dirtier while
 * dirty memory is at or below the freerun ceiling (src/fs/dirty_bdp.c:
 * balance_dirty_pages' dirty_freerun_ceiling test, dirty_poll_interval).
 *
 * The control step on a fake clock (HZ 250, 256 MiB: thresh 13104 pages,
 * bg_thresh 6544, ceiling (thresh + bg_thresh) / 2 = 9824), with a wb whose
 * estimates say 1 MiB/s (256 pages per second), so that any pass outside
 * freerun pauses. The rules, each with the assertion that fails without
 * it:
 *  - freerun: at the ceiling and below, no pause, the task's count is
 *    reset and it may dirty about sqrt(thresh - dirty) pages before it
 *    looks again (fails without the test: the cubic is near 2 there, but
 *    256 pages at ~512 pages/s is a pause);
 *  - one page over the ceiling the same task is paused;
 *  - the background kick: dirty pages over bg_thresh wake the flusher
 *    even in freerun, not below;
 *  - balance_dirty_pages_ratelimited: a task that has dirtied fewer than
 *    nr_dirtied_pause pages (32 at fork) does not look at all.
 * End to end (blk-mq, cgroup writeback, 64 MiB of memory: ceiling 9.6 MiB;
 * the writer's cgroup held to 10 MiB/s by io.max so its flusher cannot
 * keep up): an 8 MiB buffered write is never paused; a 40 MiB one is.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "fs/vfs_int.h"
#include "fs/dirty_bdp.h"

static void setup(struct bdp_dom *dom, struct bdp_wb *wb, struct bdp_task *t)
{
	ios_dirty_dom_init(dom, 250, 65536, 20, 10);
	ios_dirty_wb_init(wb, dom, 0);
	wb->write_bandwidth = wb->avg_write_bandwidth = 256;
	wb->dirty_ratelimit = wb->balanced_dirty_ratelimit = 256;
	ios_dirty_task_init(t);
}

/* one pass at global dirty = @dirty (all of it this wb's, no writeback) after @pages dirtied */
static void pass(uint64_t dirty, uint64_t pages, struct bdp_step *st, struct bdp_task *t_out)
{
	struct bdp_dom dom;
	struct bdp_wb wb;
	struct bdp_task t;

	setup(&dom, &wb, &t);
	wb.nr_reclaimable = dirty;
	wb.dirtied = dirty;
	t.nr_dirtied = pages;
	/* 100 ms in: the estimates are fresh (no 200 ms update in the way) */
	ios_dirty_balance(&dom, &wb, &t, dirty, 0, 100000000ull, st);
	*t_out = t;
}

static int test_no_pause_below_ceiling(void)
{
	struct bdp_dom dom;
	uint64_t thresh, bg, ceil;
	struct bdp_step st;
	struct bdp_task t;

	ios_dirty_dom_init(&dom, 250, 65536, 20, 10);
	ios_dirty_domain_limits(&dom, &thresh, &bg);
	ceil = ios_dirty_freerun_ceiling(thresh, bg);
	T_ASSERT_U64_EQ(ceil, 9824);
	for (uint64_t dirty = 0; dirty <= ceil; dirty += ceil / 16) {
		pass(dirty, 256, &st, &t);
		T_ASSERT_MSG(st.freerun && !st.pause_ns, "paused %llu ns at %llu dirty pages",
			     (unsigned long long)st.pause_ns, (unsigned long long)dirty);
		T_ASSERT_U64_EQ(t.nr_dirtied, 0);
	}
	pass(ceil, 256, &st, &t);
	T_ASSERT(st.freerun && !st.pause_ns);
	/* dirty_poll_interval: 2^(ilog2(13104 - 9824) / 2) = 2^5 */
	T_ASSERT_U64_EQ(t.nr_dirtied_pause, 32);
	pass(0, 256, &st, &t);
	T_ASSERT_U64_EQ(t.nr_dirtied_pause, 64);	/* 2^(ilog2(13104) / 2) */
	return T_PASS;
}

static int test_paused_above_ceiling(void)
{
	struct bdp_step st;
	struct bdp_task t;

	pass(9825, 256, &st, &t);
	T_ASSERT(!st.freerun);
	T_ASSERT_MSG(st.pause_ns > 0, "no pause one page over the ceiling (task_ratelimit %llu)",
		     (unsigned long long)st.task_ratelimit);
	T_ASSERT(st.pause_ns <= 200000000ull);
	T_ASSERT(st.kick);
	return T_PASS;
}

static int test_background_kick(void)
{
	struct bdp_step st;
	struct bdp_task t;

	pass(6545, 256, &st, &t);	/* over bg_thresh, under the ceiling */
	T_ASSERT(st.freerun && st.kick && !st.pause_ns);
	pass(6544, 256, &st, &t);
	T_ASSERT(st.freerun && !st.kick);
	return T_PASS;
}

static int test_ratelimited(void)
{
	struct bdp_dom dom;
	struct bdp_wb wb;
	struct bdp_task t;

	setup(&dom, &wb, &t);
	t.nr_dirtied = 31;
	T_ASSERT(!ios_dirty_should_balance(&wb, &t));
	t.nr_dirtied = 32;
	T_ASSERT(ios_dirty_should_balance(&wb, &t));
	/* over its limits a wb's dirtiers look every 8 pages */
	wb.dirty_exceeded = true;
	t.nr_dirtied = 8;
	T_ASSERT(ios_dirty_should_balance(&wb, &t));
	return T_PASS;
}

/* ---- end to end ---- */

static int run_job(const char *job, struct ios_run_result *res)
{
	struct ios_settings set = { 0 };
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("bdp.fio", job, strlen(job), &po, &jf, &e);
	if (!ret)
		ret = ios_settings_add_kv(&set, "vm.memory=64", "test", &e);
	if (!ret) {
		cfg.settings = &set;
		cfg.scheduler = "mq-deadline-6.12";
		cfg.device = "ssd-nvme";
		cfg.seed = 1;
		ret = ios_run(&jf, &cfg, res, &e);
	}
	if (ret)
		fprintf(stderr, "run: %s\n", e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static int test_end_to_end(void)
{
#define LIM "exec_prerun=echo '259:0 wbps=10485760' > /sys/fs/cgroup/a/io.max\n"
	static const char small[] = "[a]\ncgroup=a\nrw=write\nbs=64k\nsize=8m\n" LIM
				    "[b]\ncgroup=b\nrw=read\nbs=4k\nsize=1m\n";
	static const char big[] = "[a]\ncgroup=a\nrw=write\nbs=64k\nsize=40m\n" LIM
				  "[b]\ncgroup=b\nrw=read\nbs=4k\nsize=1m\n";
#undef LIM
	struct ios_run_result res;

	T_ASSERT_EQ(run_job(small, &res), 0);
	T_ASSERT_MSG(res.vm_stats.throttled == 0, "8 MiB under a 9.6 MiB ceiling: %llu pauses",
		     (unsigned long long)res.vm_stats.throttled);
	ios_run_result_free(&res);
	T_ASSERT_EQ(run_job(big, &res), 0);
	T_ASSERT_MSG(res.vm_stats.throttled > 0, "40 MiB into 64 MiB never paused");
	ios_run_result_free(&res);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_no_pause_below_ceiling, test_paused_above_ceiling, test_background_kick,
		     test_ratelimited, test_end_to_end);
}
