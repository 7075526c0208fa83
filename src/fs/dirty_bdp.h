/*
 * Dirty throttling of Linux 6.x (mm/page-writeback.c, balance_dirty_pages
 * and its helpers), per writeback domain: the control state of one wb, one
 * dirtying task and the global domain, and the pure control step the vfs
 * glue in dirty_bdp.c calls. Split out so the unit tests can drive the
 * control loop on a fake clock (tests/unit/fs_bdp_*.c). See dirty_bdp.c.
 */
#ifndef IOSCHED_FS_DIRTY_BDP_H
#define IOSCHED_FS_DIRTY_BDP_H

#include <stdbool.h>
#include <stdint.h>

#define BDP_RATELIMIT_SHIFT 10			/* RATELIMIT_CALC_SHIFT: pos_ratio's 1.0 */
#define BDP_POLL_THRESH 32			/* DIRTY_POLL_THRESH: 128 KiB in 4 KiB pages */
#define BDP_INIT_BW (100u << (20 - 12))		/* INIT_BW: 100 MiB/s in pages per second */

/* The global wb_domain: its limits' inputs and its writeout proportions (fprop). */
struct bdp_dom {
	unsigned hz;			/* CONFIG_HZ: the kernel computes in jiffies */
	uint64_t avail;			/* dirtyable memory, pages */
	int dirty_ratio, bg_ratio;	/* vm.dirty_ratio, vm.dirty_background_ratio */
	/* fprop_global: writeout events aged by halving every 3 s (writeout_period) */
	uint64_t events, period, period_time_j;
};

/* A wb's part (struct bdi_writeback's throttling fields and counters). */
struct bdp_wb {
	uint64_t nr_reclaimable, nr_writeback;	/* WB_RECLAIMABLE, WB_WRITEBACK: pages now */
	uint64_t dirtied, written;		/* WB_DIRTIED, WB_WRITTEN: pages ever */
	uint64_t events, period;		/* fprop_local: its writeout events */
	uint64_t bw_time_stamp_j, dirtied_stamp, written_stamp;
	uint64_t write_bandwidth, avg_write_bandwidth;	/* pages per second */
	uint64_t dirty_ratelimit, balanced_dirty_ratelimit;	/* pages per second */
	bool dirty_exceeded;
	/* what the lab reports: pauses taken by its dirtiers */
	uint64_t pauses, pause_ns, max_pause_ns;
};

/* A dirtying task's part (task_struct's nr_dirtied, nr_dirtied_pause, dirty_paused_when). */
struct bdp_task {
	uint64_t nr_dirtied, nr_dirtied_pause;
	uint64_t paused_when_j;		/* 0: never paused or reset */
	uint64_t loop_pages;		/* balance_dirty_pages' loop goes on (task_ratelimit 0) */
	bool looping;
};

/* One pass of balance_dirty_pages' loop, as seen from the outside. */
struct bdp_step {
	uint64_t thresh, bg_thresh, dirty;	/* the global domain */
	uint64_t wb_thresh, wb_dirty;
	uint64_t pos_ratio, task_ratelimit;
	bool freerun;
	bool kick;			/* wb_start_background_writeback */
	uint64_t pause_j;		/* 0: no sleep */
	uint64_t pause_ns;
};

void ios_dirty_dom_init(struct bdp_dom *dom, unsigned hz, uint64_t avail_pages, int dirty_ratio,
		  int bg_ratio);
void ios_dirty_wb_init(struct bdp_wb *wb, const struct bdp_dom *dom, uint64_t now_ns);
void ios_dirty_task_init(struct bdp_task *t);
uint64_t ios_dirty_jiffies(const struct bdp_dom *dom, uint64_t now_ns);

/* domain_dirty_limits: the global thresh and bg_thresh, pages */
void ios_dirty_domain_limits(const struct bdp_dom *dom, uint64_t *thresh, uint64_t *bg_thresh);
/* dirty_freerun_ceiling */
static inline uint64_t ios_dirty_freerun_ceiling(uint64_t thresh, uint64_t bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}
/* __wb_calc_thresh: @wb's share of @thresh by its writeout fraction */
uint64_t ios_dirty_wb_calc_thresh(struct bdp_dom *dom, struct bdp_wb *wb, uint64_t thresh,
			    uint64_t now_ns);

/* Counters: a page of @wb dirtied / cleaned / to writeback / written (wb_writeout_inc). */
void ios_dirty_account_dirtied(struct bdp_wb *wb);
void ios_dirty_account_cleaned(struct bdp_wb *wb);
void ios_dirty_writeback_start(const struct bdp_dom *dom, struct bdp_wb *wb, uint64_t now_ns);
void ios_dirty_writeback_end(struct bdp_dom *dom, struct bdp_wb *wb, uint64_t now_ns);

/* balance_dirty_pages_ratelimited's test: has @t dirtied enough to look? */
bool ios_dirty_should_balance(const struct bdp_wb *wb, const struct bdp_task *t);
/*
 * One pass of balance_dirty_pages for @t on @wb, with the global dirty and
 * writeback page counts: fills @st, updates @t (and @wb's estimates every
 * 200 ms). st->pause_ns > 0: the task sleeps that long, then calls again
 * if t->looping.
 */
void ios_dirty_balance(struct bdp_dom *dom, struct bdp_wb *wb, struct bdp_task *t,
		 uint64_t nr_reclaimable, uint64_t nr_writeback, uint64_t now_ns,
		 struct bdp_step *st);

#endif
