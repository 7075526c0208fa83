/*
 * Dirty throttling as Linux 6.x does it (mm/page-writeback.c,
 * balance_dirty_pages, read in an annotated 5.19-6.10 copy and in Kemeng
 * Shi's 2024 refactor, balance_domain_limits / balance_wb_limits, which
 * reshapes the same arithmetic), for blk-mq runs with cgroup writeback
 * (lab.cgroup_writeback, writeback_cgwb.c): each cgroup's wb throttles its
 * own dirtiers. The single-queue runs keep 2.6.31's throttle (vfs.c's
 * ST_BALANCE wait at vm.dirty_ratio, writeback.c) unchanged.
 *
 * What a buffered write does once its pages are copied (ST_BALANCE):
 *  - balance_dirty_pages_ratelimited: nothing until the task has dirtied
 *    nr_dirtied_pause pages since its last look (32 at fork; 8 at most
 *    while its wb has dirty_exceeded set);
 *  - balance_dirty_pages, one pass of its loop:
 *    - domain_dirty_limits: thresh and bg_thresh of the global domain are
 *      vm.dirty_ratio and vm.dirty_background_ratio of dirtyable memory
 *      (in 1/PAGE_SIZE steps; bg_thresh halved to thresh/2 when not below
 *      it; no 5 % floor, which 2.6.31 had);
 *    - dirty (the domain's dirty + writeback pages) over bg_thresh: the
 *      wb's flusher is woken (wb_start_background_writeback);
 *    - dirty at or below dirty_freerun_ceiling, (thresh + bg_thresh) / 2:
 *      no pause; the task may dirty dirty_poll_interval pages (about the
 *      square root of the room left) before looking again;
 *    - above it: wb_dirty_limits (the wb's share of thresh by its recent
 *      writeout fraction, __wb_calc_thresh: completions aged by halving
 *      every 3 s, the fprop proportions of writeout_period), then
 *      wb_position_ratio (the global cubic around the setpoint
 *      (freerun + limit) / 2, pos_ratio_polynom, scaled by the wb's line
 *      and its reserve area), the wb's estimates every 200 ms
 *      (__wb_update_bandwidth: wb_update_write_bandwidth's averaged write
 *      rate and wb_update_dirty_ratelimit's balanced rate, dirty_ratelimit
 *      stepping toward it), then the pause: pages dirtied /
 *      (dirty_ratelimit x pos_ratio), less the time since the last pause,
 *      no sleep under wb_min_pause, at most wb_max_pause (never over
 *      200 ms, MAX_PAUSE); the task sleeps it (io_schedule_timeout) and
 *      looks again only when its task_ratelimit was 0 (dirty at the hard
 *      limit).
 * Arithmetic in jiffies of the queue's lab.hz, rates in pages per second,
 * as in the kernel.
 *
 * Left out: strictlimit (BDI_CAP_STRICTLIMIT: fuse and the like, no such
 * device here), the memory-cgroup domain (mdtc: no memory.max is
 * modelled, so every wb is throttled by the global domain only; its share
 * still follows its own writeout), bdi min/max_ratio (0 % and 100 %),
 * vm.dirty_bytes, laptop mode, PF_LOCAL_THROTTLE, real-time tasks' 1/4
 * lift, the per-CPU bdp_ratelimits and dirty_throttle_leaks catch-ups,
 * fatal signals, and update_dirty_limit's slow follow-down (the lab's
 * memory never changes during a run, so dom->dirty_limit is thresh). The
 * task's nr_dirtied counts the data pages its writes dirty (not the
 * metadata blocks its allocations dirty), and it looks once per write
 * call after the copy, not after each page. Outside balance_dirty_pages
 * the write bandwidth is re-estimated only when the wb's last page under
 * writeback completes (bw_dwork, which the kernel runs 200 ms later); the
 * flusher's own update after each writepages chunk (do_writepages) is
 * left out, since the lab's flusher writes small chunks whose updates
 * would starve the dirtier's ratelimit update.
 */
#include <stdlib.h>
#include <string.h>
#include "vfs_int.h"
#include "dirty_bdp.h"

#define BDP_COMPLETIONS_PERIOD(hz) (3ull * (hz))	/* VM_COMPLETIONS_PERIOD_LEN */

static unsigned bdp_ilog2(uint64_t v)
{
	unsigned r = 0;

	while (v >>= 1)
		r++;
	return r;
}

static uint64_t bdp_roundup_pow2(uint64_t v)
{
	uint64_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

static uint64_t bdp_max_pause_j(const struct bdp_dom *dom)	/* MAX_PAUSE, BANDWIDTH_INTERVAL */
{
	return dom->hz / 5 ? dom->hz / 5 : 1;
}

uint64_t ios_dirty_jiffies(const struct bdp_dom *dom, uint64_t now_ns)
{
	return now_ns / (IOS_NSEC_PER_SEC / dom->hz);
}

static uint64_t bdp_j_to_ns(const struct bdp_dom *dom, uint64_t j)
{
	return j * (IOS_NSEC_PER_SEC / dom->hz);
}

void ios_dirty_dom_init(struct bdp_dom *dom, unsigned hz, uint64_t avail_pages, int dirty_ratio,
		  int bg_ratio)
{
	memset(dom, 0, sizeof(*dom));
	dom->hz = hz ? hz : 250;
	dom->avail = avail_pages;
	dom->dirty_ratio = dirty_ratio;
	dom->bg_ratio = bg_ratio;
}

/* wb_init: both rates start at INIT_BW, the stamps now */
void ios_dirty_wb_init(struct bdp_wb *wb, const struct bdp_dom *dom, uint64_t now_ns)
{
	memset(wb, 0, sizeof(*wb));
	wb->write_bandwidth = wb->avg_write_bandwidth = BDP_INIT_BW;
	wb->dirty_ratelimit = wb->balanced_dirty_ratelimit = BDP_INIT_BW;
	wb->bw_time_stamp_j = ios_dirty_jiffies(dom, now_ns);
}

/* copy_process: a new task looks after 128 KiB */
void ios_dirty_task_init(struct bdp_task *t)
{
	memset(t, 0, sizeof(*t));
	t->nr_dirtied_pause = BDP_POLL_THRESH;
}

void ios_dirty_domain_limits(const struct bdp_dom *dom, uint64_t *thresh, uint64_t *bg_thresh)
{
	uint64_t ratio = (uint64_t)dom->dirty_ratio * IOS_PAGE_SIZE / 100;
	uint64_t bg_ratio = (uint64_t)dom->bg_ratio * IOS_PAGE_SIZE / 100;
	uint64_t t = ratio * dom->avail / IOS_PAGE_SIZE;
	uint64_t bg = bg_ratio * dom->avail / IOS_PAGE_SIZE;

	if (bg >= t)
		bg = t / 2;
	*thresh = t;
	*bg_thresh = bg;
}

/* ---- writeout proportions (lib/flex_proportions.c, writeout_period) ---- */

/* The 3 s period timer, caught up lazily: what it would have done by @now_j. */
static void bdp_fprop_catch_up(struct bdp_dom *dom, uint64_t now_j)
{
	uint64_t len = BDP_COMPLETIONS_PERIOD(dom->hz), periods;

	if (!dom->period_time_j || now_j < dom->period_time_j)
		return;
	periods = (now_j - dom->period_time_j) / len + 1;
	if (dom->events <= 1) {
		/* aging has zeroed every fraction: the timer stops */
		dom->period_time_j = 0;
		return;
	}
	dom->events = periods < 64 ? dom->events >> periods : 0;
	dom->period += periods;
	dom->period_time_j += periods * len;
}

/* fprop_reflect_period: the wb's events halved once per period it missed */
static void bdp_fprop_reflect(const struct bdp_dom *dom, struct bdp_wb *wb)
{
	uint64_t miss = dom->period - wb->period;

	if (!miss)
		return;
	wb->events = miss < 64 ? wb->events >> miss : 0;
	wb->period = dom->period;
}

uint64_t ios_dirty_wb_calc_thresh(struct bdp_dom *dom, struct bdp_wb *wb, uint64_t thresh,
			    uint64_t now_ns)
{
	uint64_t num, den;

	bdp_fprop_catch_up(dom, ios_dirty_jiffies(dom, now_ns));
	bdp_fprop_reflect(dom, wb);
	num = wb->events;
	den = dom->events;
	if (den <= num) {
		if (num)
			den = num;
		else
			den = 1;
	}
	/* bdi min_ratio 0, max_ratio 100 %: the share alone */
	return thresh * num / den;
}

void ios_dirty_account_dirtied(struct bdp_wb *wb)
{
	wb->nr_reclaimable++;
	wb->dirtied++;
}

void ios_dirty_account_cleaned(struct bdp_wb *wb)
{
	if (wb->nr_reclaimable)
		wb->nr_reclaimable--;
}

/* ---- bandwidth estimates ---- */

static void bdp_update_write_bandwidth(const struct bdp_dom *dom, struct bdp_wb *wb,
				       uint64_t elapsed, uint64_t written)
{
	uint64_t period = bdp_roundup_pow2(3ull * dom->hz);
	uint64_t avg = wb->avg_write_bandwidth, old = wb->write_bandwidth, bw;

	bw = (written - (written < wb->written_stamp ? written : wb->written_stamp)) * dom->hz;
	if (elapsed > period) {
		bw /= elapsed;
		avg = bw;
	} else {
		/* the new interval weighted in over a ~4 s window */
		bw += old * (period - elapsed);
		bw >>= bdp_ilog2(period);
		/* a second filter against spikes: avg moves 1/8 toward old when bw agrees */
		if (avg > old && old >= bw)
			avg -= (avg - old) >> 3;
		if (avg < old && old <= bw)
			avg += (old - avg) >> 3;
	}
	if (avg < 1)
		avg = 1;
	wb->write_bandwidth = bw;
	wb->avg_write_bandwidth = avg;
}

/* wb_update_dirty_ratelimit (the global dtc; no strictlimit) */
static void bdp_update_dirty_ratelimit(const struct bdp_dom *dom, struct bdp_wb *wb,
				       const struct bdp_step *st, uint64_t dirtied,
				       uint64_t elapsed)
{
	uint64_t freerun = ios_dirty_freerun_ceiling(st->thresh, st->bg_thresh);
	uint64_t limit = st->thresh;	/* hard_dirty_limit: see the header comment */
	uint64_t setpoint = (freerun + limit) / 2;
	uint64_t write_bw = wb->avg_write_bandwidth;
	uint64_t rl = wb->dirty_ratelimit;
	uint64_t dirty_rate, task_rl, balanced, step = 0, x, shift;

	dirty_rate = (dirtied - wb->dirtied_stamp) * dom->hz / elapsed;
	task_rl = (rl * st->pos_ratio >> BDP_RATELIMIT_SHIFT) + 1;
	/* N dirtiers at task_rl make dirty_rate = N x task_rl: write_bw / N balances */
	balanced = task_rl * write_bw / (dirty_rate | 1);
	if (balanced > write_bw)
		balanced = write_bw;
	/* follow the balanced rate only when the position error agrees, in damped steps */
	if (st->dirty < setpoint) {
		x = wb->balanced_dirty_ratelimit;
		if (balanced < x)
			x = balanced;
		if (task_rl < x)
			x = task_rl;
		if (rl < x)
			step = x - rl;
	} else {
		x = wb->balanced_dirty_ratelimit;
		if (balanced > x)
			x = balanced;
		if (task_rl > x)
			x = task_rl;
		if (rl > x)
			step = rl - x;
	}
	shift = rl / (2 * step + 1);
	if (shift < 64)
		step = ((step >> shift) + 7) / 8;
	else
		step = 0;
	if (rl < balanced)
		rl += step;
	else
		rl -= step;
	wb->dirty_ratelimit = rl ? rl : 1;
	wb->balanced_dirty_ratelimit = balanced;
}

/* __wb_update_bandwidth; @st NULL: the write bandwidth only (wb_update_bandwidth) */
static void bdp_update_bandwidth(const struct bdp_dom *dom, struct bdp_wb *wb,
				 const struct bdp_step *st, uint64_t now_j)
{
	uint64_t elapsed = now_j > wb->bw_time_stamp_j ? now_j - wb->bw_time_stamp_j : 1;

	if (st)
		bdp_update_dirty_ratelimit(dom, wb, st, wb->dirtied, elapsed);
	bdp_update_write_bandwidth(dom, wb, elapsed, wb->written);
	wb->dirtied_stamp = wb->dirtied;
	wb->written_stamp = wb->written;
	wb->bw_time_stamp_j = now_j;
}

/* wb_bandwidth_estimate_start: after a second idle, the next estimate starts afresh */
void ios_dirty_writeback_start(const struct bdp_dom *dom, struct bdp_wb *wb, uint64_t now_ns)
{
	uint64_t now_j = ios_dirty_jiffies(dom, now_ns);

	if (!wb->nr_writeback && now_j - wb->bw_time_stamp_j > dom->hz) {
		wb->dirtied_stamp = wb->dirtied;
		wb->written_stamp = wb->written;
		wb->bw_time_stamp_j = now_j;
	}
	wb->nr_writeback++;
}

/* __folio_end_writeback: WB_WRITEBACK down, wb_writeout_inc */
void ios_dirty_writeback_end(struct bdp_dom *dom, struct bdp_wb *wb, uint64_t now_ns)
{
	uint64_t now_j = ios_dirty_jiffies(dom, now_ns);

	if (wb->nr_writeback)
		wb->nr_writeback--;
	wb->written++;
	bdp_fprop_catch_up(dom, now_j);
	bdp_fprop_reflect(dom, wb);
	wb->events++;
	dom->events++;
	if (!dom->period_time_j)
		dom->period_time_j = now_j + BDP_COMPLETIONS_PERIOD(dom->hz);
	/*
	 * wb_inode_writeback_end's bw_dwork: once the wb has nothing under
	 * writeback, its bandwidth is estimated (here at once, the kernel 200 ms
	 * later); while writeback goes on, balance_dirty_pages does it
	 */
	if (!wb->nr_writeback && now_j > wb->bw_time_stamp_j + bdp_max_pause_j(dom))
		bdp_update_bandwidth(dom, wb, NULL, now_j);
}

/* ---- position ratio ---- */

/* pos_ratio_polynom: 1 + ((setpoint - dirty) / (limit - setpoint))^3, in [0, 2] */
static int64_t bdp_polynom(uint64_t setpoint, uint64_t dirty, uint64_t limit)
{
	int64_t x = (((int64_t)setpoint - (int64_t)dirty) * (1 << BDP_RATELIMIT_SHIFT)) /
		    (int64_t)((limit - setpoint) | 1);
	int64_t r = x;

	/* arithmetic shifts, as the kernel's (gcc shifts signed values arithmetically) */
	r = r * x >> BDP_RATELIMIT_SHIFT;
	r = r * x >> BDP_RATELIMIT_SHIFT;
	r += 1 << BDP_RATELIMIT_SHIFT;
	if (r < 0)
		r = 0;
	if (r > 2 << BDP_RATELIMIT_SHIFT)
		r = 2 << BDP_RATELIMIT_SHIFT;
	return r;
}

/* wb_position_ratio (no strictlimit) */
static uint64_t bdp_position_ratio(const struct bdp_wb *wb, const struct bdp_step *st)
{
	uint64_t write_bw = wb->avg_write_bandwidth;
	uint64_t freerun = ios_dirty_freerun_ceiling(st->thresh, st->bg_thresh);
	uint64_t limit = st->thresh;
	uint64_t wb_thresh = st->wb_thresh, setpoint, wb_setpoint, span, x, x_intercept;
	uint64_t pos;

	if (st->dirty >= limit)
		return 0;
	setpoint = (freerun + limit) / 2;
	pos = (uint64_t)bdp_polynom(setpoint, st->dirty, limit);

	/* the wb's line: 1.0 at its setpoint, falling to 0 over 8 x write_bw, floor 1/4 */
	if (wb_thresh > st->thresh)
		wb_thresh = st->thresh;
	if (wb_thresh < (limit - st->dirty) / 8)
		wb_thresh = (limit - st->dirty) / 8;
	x = (wb_thresh << 16) / (st->thresh | 1);
	wb_setpoint = setpoint * x >> 16;
	span = (st->thresh - wb_thresh + 8 * write_bw) * x >> 16;
	x_intercept = wb_setpoint + span;
	if (st->wb_dirty < x_intercept - span / 4)
		pos = pos * (x_intercept - st->wb_dirty) / ((x_intercept - wb_setpoint) | 1);
	else
		pos /= 4;

	/* the wb's reserve: below half its thresh it is pushed up, up to 8x */
	x_intercept = wb_thresh / 2;
	if (st->wb_dirty < x_intercept) {
		if (st->wb_dirty > x_intercept / 8)
			pos = pos * x_intercept / st->wb_dirty;
		else
			pos *= 8;
	}
	return pos;
}

/* ---- pauses ---- */

/* dirty_poll_interval */
static uint64_t bdp_poll_interval(uint64_t dirty, uint64_t thresh)
{
	if (thresh > dirty)
		return 1ull << (bdp_ilog2(thresh - dirty) >> 1);
	return 1;
}

/* wb_max_pause: about an eighth of the time to write wb_dirty, at most 200 ms */
static uint64_t bdp_wb_max_pause(const struct bdp_dom *dom, const struct bdp_wb *wb,
				 uint64_t wb_dirty)
{
	uint64_t t = wb_dirty / (1 + wb->avg_write_bandwidth / bdp_roundup_pow2(1 + dom->hz / 8));

	t++;
	return t < bdp_max_pause_j(dom) ? t : bdp_max_pause_j(dom);
}

/* wb_min_pause: the shortest pause worth sleeping, and the pages until the next look */
static uint64_t bdp_wb_min_pause(const struct bdp_dom *dom, const struct bdp_wb *wb,
				 uint64_t max_pause, uint64_t task_rl, uint64_t dirty_rl,
				 uint64_t *nr_dirtied_pause)
{
	int64_t hi = bdp_ilog2(wb->avg_write_bandwidth);
	int64_t lo = bdp_ilog2(wb->dirty_ratelimit);
	uint64_t hz2 = bdp_roundup_pow2(dom->hz);
	uint64_t t = dom->hz / 100 ? dom->hz / 100 : 1, pages, pause;

	/* 10 ms for one dirtier, N x 10 ms for 2^N of them */
	if (hi > lo)
		t += (uint64_t)(hi - lo) * (10 * dom->hz) / 1024;
	if (t > 1 + max_pause / 2)
		t = 1 + max_pause / 2;
	pages = dirty_rl * t / hz2;
	if (pages < BDP_POLL_THRESH) {
		t = max_pause;
		pages = dirty_rl * t / hz2;
		if (pages > BDP_POLL_THRESH) {
			pages = BDP_POLL_THRESH;
			t = dom->hz * BDP_POLL_THRESH / dirty_rl;
		}
	}
	pause = dom->hz * pages / (task_rl + 1);
	if (pause > max_pause) {
		t = max_pause;
		pages = task_rl * t / hz2;
	}
	*nr_dirtied_pause = pages;
	return pages >= BDP_POLL_THRESH ? 1 + t / 2 : t;
}

bool ios_dirty_should_balance(const struct bdp_wb *wb, const struct bdp_task *t)
{
	uint64_t ratelimit = t->nr_dirtied_pause;

	if (t->looping)
		return true;
	if (wb->dirty_exceeded && ratelimit > (BDP_POLL_THRESH >> 2))
		ratelimit = BDP_POLL_THRESH >> 2;	/* 32 KiB while over the limits */
	return t->nr_dirtied >= ratelimit;
}

void ios_dirty_balance(struct bdp_dom *dom, struct bdp_wb *wb, struct bdp_task *t,
		 uint64_t nr_reclaimable, uint64_t nr_writeback, uint64_t now_ns,
		 struct bdp_step *st)
{
	uint64_t now_j = ios_dirty_jiffies(dom, now_ns);
	uint64_t pages = t->looping ? t->loop_pages : t->nr_dirtied;
	uint64_t dirty_rl, max_pause, min_pause, nr_pause, period, pause;
	int64_t spause;

	memset(st, 0, sizeof(*st));
	t->looping = false;
	ios_dirty_domain_limits(dom, &st->thresh, &st->bg_thresh);
	st->dirty = nr_reclaimable + nr_writeback;
	if (nr_reclaimable > st->bg_thresh)
		st->kick = true;
	if (st->dirty <= ios_dirty_freerun_ceiling(st->thresh, st->bg_thresh)) {
		/* free running: no pause; look again after ~sqrt(room) pages */
		st->freerun = true;
		t->paused_when_j = now_j;
		t->nr_dirtied = 0;
		t->nr_dirtied_pause = bdp_poll_interval(st->dirty, st->thresh);
		return;
	}
	st->kick = true;	/* start writeback even in laptop mode */

	/* wb_dirty_limits */
	st->wb_thresh = ios_dirty_wb_calc_thresh(dom, wb, st->thresh, now_ns);
	st->wb_dirty = wb->nr_reclaimable + wb->nr_writeback;
	wb->dirty_exceeded = st->wb_dirty > st->wb_thresh && st->dirty > st->thresh;
	st->pos_ratio = bdp_position_ratio(wb, st);

	if (now_j > wb->bw_time_stamp_j + bdp_max_pause_j(dom))
		bdp_update_bandwidth(dom, wb, st, now_j);

	dirty_rl = wb->dirty_ratelimit;
	st->task_ratelimit = dirty_rl * st->pos_ratio >> BDP_RATELIMIT_SHIFT;
	max_pause = bdp_wb_max_pause(dom, wb, st->wb_dirty);
	min_pause = bdp_wb_min_pause(dom, wb, max_pause, st->task_ratelimit, dirty_rl, &nr_pause);

	if (!st->task_ratelimit) {
		period = pause = max_pause;
	} else {
		period = dom->hz * pages / st->task_ratelimit;
		spause = (int64_t)period;
		if (t->paused_when_j)
			spause -= (int64_t)(now_j - t->paused_when_j);
		if (spause < (int64_t)min_pause) {
			/* too short to sleep: carry it, or forget it after a second's think time */
			if (spause < -(int64_t)dom->hz) {
				t->paused_when_j = now_j;
				t->nr_dirtied = 0;
			} else if (period) {
				t->paused_when_j += period;
				t->nr_dirtied = 0;
			} else if (t->nr_dirtied_pause <= pages) {
				t->nr_dirtied_pause += pages;
			}
			return;
		}
		pause = (uint64_t)spause;
		if (pause > max_pause) {
			/* an occasional drop of task_ratelimit: owe the rest to the next period */
			uint64_t owe = pause - max_pause;

			now_j += owe < max_pause ? owe : max_pause;
			pause = max_pause;
		}
	}
	st->pause_j = pause;
	st->pause_ns = bdp_j_to_ns(dom, pause);
	t->paused_when_j = now_j + pause;
	t->nr_dirtied = 0;
	t->nr_dirtied_pause = nr_pause;
	/* at the hard limit the loop goes on after the sleep, while the wb has dirty pages */
	if (!st->task_ratelimit && st->wb_dirty) {
		t->looping = true;
		t->loop_pages = pages;
	}
	wb->pauses++;
	wb->pause_ns += st->pause_ns;
	if (st->pause_ns > wb->max_pause_ns)
		wb->max_pause_ns = st->pause_ns;
}

/* ---- the vfs glue ---- */

/* A dirtying task: its throttle state and what its sleeping writes wait on. */
struct bdp_tsk {
	uint32_t pid;
	struct bdp_task t;
	struct ios_vfs *vfs;
	struct ios_timer timer;		/* the end of its pause */
	struct ios_vfs_op *sleepers;
	struct bdp_tsk *next;
};

struct bdp_set {
	struct bdp_dom dom;
	struct bdp_tsk *tasks, *last;
	/* the first balance that found dirty above the freerun ceiling (reports) */
	uint64_t over_freerun_ns;
	bool over_freerun;
};

int ios_bdp_enable(struct ios_vfs *vfs)
{
	struct bdp_set *s;

	if (vfs->bdp)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ios_dirty_dom_init(&s->dom, vfs->q->hz, vfs->vm.memory / IOS_PAGE_SIZE, vfs->vm.dirty_ratio,
		     vfs->vm.dirty_background_ratio);
	vfs->bdp = s;
	return 0;
}

void ios_bdp_wb_init(struct ios_vfs *vfs, struct bdp_wb *wb, uint64_t now)
{
	ios_dirty_wb_init(wb, &vfs->bdp->dom, now);
}

static struct bdp_tsk *bdp_task_get(struct bdp_set *s, struct ios_vfs *vfs, uint32_t pid)
{
	struct bdp_tsk *k;

	if (s->last && s->last->pid == pid)
		return s->last;
	for (k = s->tasks; k; k = k->next)
		if (k->pid == pid)
			return s->last = k;
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->pid = pid;
	k->vfs = vfs;
	ios_timer_init(&k->timer);
	ios_dirty_task_init(&k->t);
	k->next = s->tasks;
	s->tasks = k;
	return s->last = k;
}

void ios_bdp_page_dirtied(struct ios_vfs *vfs, struct ios_inode *in)
{
	struct bdp_wb *wb = ios_cgwb_bdp(in);

	(void)vfs;
	if (wb)
		ios_dirty_account_dirtied(wb);
}

void ios_bdp_page_cleaned(struct ios_vfs *vfs, struct ios_inode *in)
{
	struct bdp_wb *wb = ios_cgwb_bdp(in);

	(void)vfs;
	if (wb)
		ios_dirty_account_cleaned(wb);
}

void ios_bdp_writeback_start(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	struct bdp_wb *wb = ios_cgwb_bdp(in);

	if (wb)
		ios_dirty_writeback_start(&vfs->bdp->dom, wb, now);
}

void ios_bdp_writeback_end(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	struct bdp_wb *wb = ios_cgwb_bdp(in);

	if (wb)
		ios_dirty_writeback_end(&vfs->bdp->dom, wb, now);
}

void ios_bdp_task_dirtied(struct ios_vfs *vfs, const struct ios_vfs_op *op)
{
	struct bdp_tsk *k;

	if (!op->file || !op->file->ioc)
		return;
	k = bdp_task_get(vfs->bdp, vfs, op->file->ioc->pid);
	if (k)
		k->t.nr_dirtied++;
}

bool ios_bdp_applies(const struct ios_vfs *vfs, const struct ios_inode *in,
		     const struct ios_vfs_op *op)
{
	return vfs->bdp && ios_cgwb_bdp(in) && op->file && op->file->ioc;
}

static void bdp_ev_wake(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct bdp_tsk *k = arg;

	if (!ios_timer_fire(&k->timer, data))
		return;
	ios_pc_wake_all(&k->sleepers, sim->now);
}

int ios_bdp_balance_op(struct ios_vfs *vfs, struct ios_vfs_op *op, struct ios_inode *in,
		       uint64_t now)
{
	struct bdp_set *s = vfs->bdp;
	struct bdp_wb *wb = ios_cgwb_bdp(in);
	struct bdp_tsk *k = bdp_task_get(s, vfs, op->file->ioc->pid);
	struct bdp_step st;
	uint64_t until;

	if (!k || !ios_dirty_should_balance(wb, &k->t))
		return 0;
	ios_dirty_balance(&s->dom, wb, &k->t, vfs->nr_dirty, vfs->nr_writeback, now, &st);
	if (!st.freerun && !s->over_freerun) {
		s->over_freerun = true;
		s->over_freerun_ns = now;
	}
	if (st.kick)
		ios_vfs_wb_kick(vfs, in, now);
	if (!st.pause_ns)
		return 0;
	vfs->st.throttled++;
	/* bdi->last_bdp_sleep (6.8+), which blk-mq's wbt reads */
	vfs->q->last_bdp_sleep_ns = now;
	vfs->q->bdp_slept = true;
	/* io_schedule_timeout: the task's writes sleep until its pause ends */
	until = now + st.pause_ns;
	if (k->timer.when == IOS_NO_WAKEUP || k->timer.when < until)
		(void)ios_timer_arm(vfs->sim, &k->timer, until, bdp_ev_wake, k);
	ios_pc_wait(&k->sleepers, op);
	return IOS_VFS_WAIT;
}

bool ios_bdp_stats(const struct bdp_wb *wb, uint64_t *pauses, uint64_t *pause_ns,
		   uint64_t *max_pause_ns)
{
	if (!wb)
		return false;
	*pauses = wb->pauses;
	*pause_ns = wb->pause_ns;
	*max_pause_ns = wb->max_pause_ns;
	return true;
}

bool ios_bdp_over_freerun(const struct ios_vfs *vfs, uint64_t *at_ns)
{
	if (!vfs->bdp || !vfs->bdp->over_freerun)
		return false;
	*at_ns = vfs->bdp->over_freerun_ns;
	return true;
}

void ios_bdp_quiesce(struct ios_vfs *vfs)
{
	if (!vfs->bdp)
		return;
	for (struct bdp_tsk *k = vfs->bdp->tasks; k; k = k->next)
		ios_timer_cancel(&k->timer);
}

void ios_bdp_destroy(struct ios_vfs *vfs)
{
	struct bdp_tsk *k, *n;

	if (!vfs->bdp)
		return;
	for (k = vfs->bdp->tasks; k; k = n) {
		n = k->next;
		ios_timer_cancel(&k->timer);
		free(k);
	}
	free(vfs->bdp);
	vfs->bdp = NULL;
}
