/*
 * Helpers for the writeback throttling tests (blk_wbt_*.c, src/block/
 * blk_wbt.c): a blk-mq queue with wbt on as 6.12 registers it, bios of
 * each kind, completions at chosen times, and one stat window driven to
 * its end with chosen read and write latencies. lab.hz is 250 (the
 * queue's default): a jiffy is 4 ms, the 100 ms window 25 jiffies.
 */
#ifndef T_WBT_RIG_H
#define T_WBT_RIG_H

#include "mq_rig.h"
#include "block/blkcg_int.h"

#define W_MS IOS_NSEC_PER_MSEC
#define W_US IOS_NSEC_PER_USEC

/* A queue under @sched ("none" if NULL) with @depth tags and wbt as registered. */
static inline struct m_rig *w_rig(const char *sched, unsigned depth, const char *setting)
{
	m_wbt = true;
	return m_rig_new(sched ? sched : "none", depth, 1, 1, setting);
}

static inline struct ios_wbt_debug w_dbg(struct m_rig *r)
{
	struct ios_wbt_debug d;

	(void)ios_wbt_debug(r->q, &d);
	return d;
}

/* A buffered write of the page cache: no REQ_SYNC (wbc WB_SYNC_NONE) */
static inline int w_write(struct m_rig *r, uint32_t flags, uint64_t now)
{
	return m_submit(r, m_ioc(1, 0), 1000000 + 4096ull * r->nr_bios, 8, IOS_WRITE, flags, now);
}

static inline int w_read(struct m_rig *r, uint64_t now)
{
	return m_submit(r, m_ioc(2, 0), 50000000 + 4096ull * r->nr_bios, 8, IOS_READ, 0, now);
}

/* Complete every request of @dir the device holds at @now, until none is left (released ones too). */
static inline unsigned w_complete(struct m_rig *r, int dir, uint64_t now)
{
	unsigned n = 0;
	bool again = true;

	while (again) {
		again = false;
		for (unsigned i = 0; i < r->nr_issued; i++) {
			struct ios_request *rq = r->issued[i];

			if (rq->state == IOS_RQ_IN_DRIVER && (dir < 0 || rq->dir == dir)) {
				ios_queue_complete(r->q, rq, now, 0);
				n++;
				again = true;
			}
		}
	}
	return n;
}

/*
 * One stat window from @t: @nw buffered writes then @nr reads, the
 * writes completing after @wlat, the reads after @rlat, then the window's
 * timer. Returns the window's end (the time of the timer).
 */
static inline uint64_t w_window(struct m_rig *r, uint64_t t, unsigned nw, unsigned nr,
				uint64_t wlat, uint64_t rlat)
{
	uint64_t end;

	for (unsigned i = 0; i < nw; i++)
		(void)w_write(r, IOS_REQ_SYNC, t);	/* WB_SYNC_ALL: the whole depth, no sleep */
	for (unsigned i = 0; i < nr; i++)
		(void)w_read(r, t);
	(void)w_complete(r, IOS_WRITE, t + wlat);
	(void)w_complete(r, IOS_READ, t + rlat);
	end = w_dbg(r).window_end;
	ios_queue_timer(r->q, end);
	return end;
}

#endif
