/*
 * Description: Linux 6.x dirty throttling paces a dirtier to its wb's write
 * bandwidth (src/fs/dirty_bdp.c: balance_dirty_pages, wb_position_ratio,
 * wb_update_write_bandwidth, wb_update_dirty_ratelimit, wb_max_pause).
 *
 * The control loop on a fake clock (HZ 250, 256 MiB of memory: thresh
 * 13104 pages, bg_thresh 6544 (ratios in 1/4096 steps), freerun ceiling
 * 9824, setpoint 11464): one
 * wb whose "disk" writes B pages per second while it has dirty pages, and
 * one task writing 64 KiB calls as fast as its pauses let it. The rules,
 * each with the assertion that fails without it:
 *  - the pause is pages / task_ratelimit: once the estimates settle, the
 *    task's dirty rate in every 1 s window is within 15 % of B (fails with
 *    no pause, or with a pause that ignores the rate: dirty memory would
 *    hit the hard limit and the windows would swing);
 *  - wb_update_write_bandwidth: the wb's estimated bandwidth is within
 *    10 % of B (fails with the estimate frozen at INIT_BW, 25600 pages/s);
 *  - wb_update_dirty_ratelimit: dirty_ratelimit moves from INIT_BW to
 *    within 25 % of B (one dirtier: balanced = write_bw; fails without the
 *    update, it would stay at 25600);
 *  - wb_position_ratio: dirty memory settles between the freerun ceiling
 *    and thresh, never at the hard limit (fails with pos_ratio fixed at 1:
 *    nothing pulls dirty back to the setpoint);
 *  - wb_max_pause / MAX_PAUSE: with a 1 MiB/s disk and 1 MiB writes each
 *    pause is at most 200 ms, and some are exactly 200 ms (fails without
 *    the cap: the 256-page periods want 1 s); the rate is still the
 *    disk's, and at the hard limit (task_ratelimit 0) the task sleeps
 *    again before dirtying more: dirty memory stays within one write of
 *    thresh (fails if the loop did not go on). Not caught here: the owed
 *    remainder of a capped pause (balance_dirty_pages' "now +="), which
 *    the dirty_ratelimit estimate absorbs when it is taken out.
 * End to end: a buffered writer in a cgroup limited by io.max to 20 MiB/s
 * (blk-mq, none, ssd-nvme, cgroup writeback) is paused (the run's
 * throttled count), and no write call waits longer than 200 ms plus one
 * 64 KiB I/O.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "fs/vfs_int.h"
#include "fs/dirty_bdp.h"

#define MS 1000000ull

struct pace {
	uint64_t rate_min, rate_max;	/* pages per 1 s window after settling */
	uint64_t dirty_min, dirty_max;	/* global dirty pages after settling */
	uint64_t max_pause_ns, pauses_at_cap, pauses;
	uint64_t bw, ratelimit;
	bool hit_limit;
};

/*
 * @secs of a dirtier writing @call pages per write into a wb whose disk
 * completes @bw pages per second (as long as there is something to write).
 */
static void run_loop(uint64_t bw, uint64_t call, unsigned secs, unsigned settle, struct pace *p)
{
	struct bdp_dom dom;
	struct bdp_wb wb;
	struct bdp_task t;
	struct bdp_step st;
	uint64_t wake = 0, acc = 0, window_dirtied = 0;
	uint64_t thresh, bg;

	memset(p, 0, sizeof(*p));
	p->rate_min = p->dirty_min = UINT64_MAX;
	ios_dirty_dom_init(&dom, 250, 65536, 20, 10);
	ios_dirty_domain_limits(&dom, &thresh, &bg);
	ios_dirty_wb_init(&wb, &dom, 0);
	ios_dirty_task_init(&t);
	for (uint64_t now = 0; now < secs * 1000 * MS; now += MS) {
		/* the disk: bw pages a second, the flusher keeping 64 pages in flight */
		acc += bw;
		while (acc >= 1000 && wb.nr_writeback) {
			acc -= 1000;
			ios_dirty_writeback_end(&dom, &wb, now);
		}
		if (!wb.nr_writeback)
			acc = 0;
		while (wb.nr_writeback < 64 && wb.nr_reclaimable) {
			ios_dirty_account_cleaned(&wb);
			ios_dirty_writeback_start(&dom, &wb, now);
		}
		/* the dirtier: one call per ms while not asleep */
		if (now >= wake) {
			/* at the hard limit (looping) balance_dirty_pages goes on before more */
			if (!t.looping) {
				for (uint64_t i = 0; i < call; i++) {
					ios_dirty_account_dirtied(&wb);
					t.nr_dirtied++;
				}
				window_dirtied += call;
			}
			if (ios_dirty_should_balance(&wb, &t)) {
				ios_dirty_balance(&dom, &wb, &t, wb.nr_reclaimable, wb.nr_writeback, now,
					    &st);
				if (st.pause_ns) {
					p->pauses++;
					if (st.pause_ns > p->max_pause_ns)
						p->max_pause_ns = st.pause_ns;
					p->pauses_at_cap += st.pause_ns == 200 * MS;
					wake = now + st.pause_ns;
				}
			}
		}
		if (now / MS >= settle * 1000ull) {
			uint64_t d = wb.nr_reclaimable + wb.nr_writeback;

			if (d < p->dirty_min)
				p->dirty_min = d;
			if (d > p->dirty_max)
				p->dirty_max = d;
			if (d >= thresh)
				p->hit_limit = true;
		}
		if ((now / MS + 1) % 1000 == 0) {
			if (now / MS >= settle * 1000ull) {
				if (window_dirtied < p->rate_min)
					p->rate_min = window_dirtied;
				if (window_dirtied > p->rate_max)
					p->rate_max = window_dirtied;
			}
			window_dirtied = 0;
		}
	}
	p->bw = wb.avg_write_bandwidth;
	p->ratelimit = wb.dirty_ratelimit;
}

static int test_rate_tracks_bandwidth(void)
{
	const uint64_t B = 5120;	/* 20 MiB/s */
	uint64_t thresh, bg;
	struct bdp_dom dom;
	struct pace p;

	ios_dirty_dom_init(&dom, 250, 65536, 20, 10);
	ios_dirty_domain_limits(&dom, &thresh, &bg);
	T_ASSERT_U64_EQ(thresh, 13104);	/* 819/4096 of 65536 pages */
	T_ASSERT_U64_EQ(bg, 6544);
	run_loop(B, 16, 40, 20, &p);
	T_ASSERT(p.pauses > 0);
	T_ASSERT_MSG(p.rate_min >= B * 85 / 100 && p.rate_max <= B * 115 / 100,
		     "dirty rate %llu..%llu pages/s per 1 s window, want %llu +- 15 %%",
		     (unsigned long long)p.rate_min, (unsigned long long)p.rate_max,
		     (unsigned long long)B);
	T_ASSERT_MSG(p.bw >= B * 90 / 100 && p.bw <= B * 110 / 100,
		     "write bandwidth estimate %llu pages/s, disk %llu", (unsigned long long)p.bw,
		     (unsigned long long)B);
	T_ASSERT_MSG(p.ratelimit >= B * 75 / 100 && p.ratelimit <= B * 125 / 100,
		     "dirty_ratelimit %llu pages/s, want about %llu",
		     (unsigned long long)p.ratelimit, (unsigned long long)B);
	T_ASSERT_MSG(!p.hit_limit && p.dirty_min > ios_dirty_freerun_ceiling(thresh, bg),
		     "dirty %llu..%llu pages after settling (freerun %llu, thresh %llu)",
		     (unsigned long long)p.dirty_min, (unsigned long long)p.dirty_max,
		     (unsigned long long)ios_dirty_freerun_ceiling(thresh, bg),
		     (unsigned long long)thresh);
	T_ASSERT(p.max_pause_ns <= 200 * MS);
	return T_PASS;
}

static int test_pause_capped_at_200ms(void)
{
	struct pace p;

	/* 1 MiB/s disk, 1 MiB writes: a period of ~1 s per call, paused 200 ms at most */
	run_loop(256, 256, 60, 40, &p);
	T_ASSERT(p.pauses > 0);
	T_ASSERT_MSG(p.max_pause_ns <= 200 * MS, "a pause of %llu ms",
		     (unsigned long long)(p.max_pause_ns / MS));
	T_ASSERT_MSG(p.pauses_at_cap > 0, "no pause reached 200 ms (longest %llu ms)",
		     (unsigned long long)(p.max_pause_ns / MS));
	/* at the hard limit task_ratelimit is 0: max pauses, looping, no more dirtying */
	T_ASSERT_MSG(p.dirty_max <= 13104 + 256, "dirty reached %llu pages (thresh 13104)",
		     (unsigned long long)p.dirty_max);
	T_ASSERT_MSG(p.rate_min >= 256 * 85 / 100 && p.rate_max <= 256 * 115 / 100,
		     "dirty rate %llu..%llu pages/s, disk 256", (unsigned long long)p.rate_min,
		     (unsigned long long)p.rate_max);
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
		cfg.scheduler = "none";
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

static int test_end_to_end_io_max(void)
{
	static const char job[] = "[w]\ncgroup=w\nrw=write\nbs=64k\nsize=48m\n"
				  "exec_prerun=echo '259:0 wbps=20971520' > /sys/fs/cgroup/w/io.max\n"
				  "[r]\ncgroup=r\nrw=read\nbs=4k\nsize=4m\n";
	struct ios_run_result res;
	const struct ios_dir_result *d = NULL;

	T_ASSERT_EQ(run_job(job, &res), 0);
	for (size_t i = 0; i < res.nr_jobs; i++)
		if (!strcmp(res.jobs[i].name, "w"))
			d = &res.jobs[i].dir[IOS_WRITE];
	T_ASSERT(d && d->clat.n > 0);
	T_ASSERT_MSG(res.vm_stats.throttled > 0, "the writer was never paused");
	T_ASSERT_MSG(d->clat.max <= 210 * MS, "a write call took %llu ms",
		     (unsigned long long)(d->clat.max / MS));
	ios_run_result_free(&res);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_rate_tracks_bandwidth, test_pause_capped_at_200ms,
		     test_end_to_end_io_max);
}
