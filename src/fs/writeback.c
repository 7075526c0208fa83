/*
 * Writeback: the flusher task and dirty throttling.
 *
 * Dirty pages are written back by one flusher task in its own context, so
 * its requests are async writes of the flusher (what CFQ puts in its async
 * queues), not of the tasks that dirtied the pages. It wakes
 *  - every vm.dirty_writeback_centisecs, to write back files whose dirty
 *    data is older than vm.dirty_expire_centisecs (kupdate), and
 *  - whenever a writer finds dirty memory above
 *    vm.dirty_background_ratio, to write back until it is below again
 *    (background writeback).
 * It takes dirty files oldest first and writes up to 1024 pages (4 MiB,
 * MAX_WRITEBACK_PAGES) of one before moving to the next, in file order from
 * where it stopped last time, as Linux 2.6.3x's writeback_inodes does. What
 * paces it is the request queue: when the async request list is full its
 * next bio waits for a free slot.
 *
 * Writers are throttled at vm.dirty_ratio: a write that leaves dirty plus
 * writeback pages above the limit waits until writeback brings them below.
 * Linux 2.6.31's balance_dirty_pages makes the writer write some pages
 * itself and then sleep in congestion_wait(); here the flusher does all the
 * writing and the writer only waits, which bounds dirty memory the same way.
 */
#include <stdlib.h>
#include <string.h>
#include "vfs_int.h"

#define WB_CHUNK_PAGES 1024	/* MAX_WRITEBACK_PAGES */

uint64_t wb_dirty_thresh(const struct ios_vfs *vfs)
{
	return vfs->capacity * (uint64_t)vfs->vm.dirty_ratio / 100;
}

uint64_t wb_background_thresh(const struct ios_vfs *vfs)
{
	uint64_t bg = vfs->capacity * (uint64_t)vfs->vm.dirty_background_ratio / 100;
	uint64_t d = wb_dirty_thresh(vfs);

	/* as get_dirty_limits: background at most half the dirty limit */
	return bg >= d ? d / 2 : bg;
}

static void ev_flusher(struct ios_sim *sim, void *arg, uint64_t data);

static void fl_schedule(struct ios_vfs *vfs, uint64_t when)
{
	(void)ios_timer_arm(vfs->sim, &vfs->fl.timer, when, ev_flusher, vfs);
}

static void fl_op_wake(struct ios_vfs_op *op, uint64_t now)
{
	struct ios_vfs *vfs = op->priv;

	vfs->fl.waiting = false;
	fl_schedule(vfs, now);
}

static struct ios_inode *fl_pick(struct ios_vfs *vfs, uint64_t now, bool background)
{
	struct ios_inode *in;
	uint64_t expire = (uint64_t)vfs->vm.dirty_expire_centisecs * 10 * IOS_NSEC_PER_MSEC;

	if (ios_list_empty(&vfs->dirty_inodes))
		return NULL;
	in = ios_list_first_entry(&vfs->dirty_inodes, struct ios_inode, dirty_link);
	if (background)
		return in;
	/* kupdate: the oldest file, if its data has aged past dirty_expire */
	if (in->dirtied_when + expire <= now)
		return in;
	return NULL;
}

static void fl_step(struct ios_vfs *vfs, uint64_t now)
{
	struct flusher *fl = &vfs->fl;
	uint64_t period = (uint64_t)vfs->vm.dirty_writeback_centisecs * 10 * IOS_NSEC_PER_MSEC;

	if (fl->stopped) {
		fl->running = false;
		return;
	}
	for (;;) {
		struct ios_inode *in = fl->cur;
		bool background = vfs->nr_dirty >= wb_background_thresh(vfs) && vfs->nr_dirty > 0;
		int ret;

		if (!in) {
			in = fl_pick(vfs, now, background);
			if (!in)
				break;
			fl->cur = in;
			fl->chunk_left = WB_CHUNK_PAGES;
		}
		fl->op.file->inode = in;
		ret = vfs_write_dirty(vfs, &fl->op, &fl->ioc, in, &in->writeback_index, in->npages, 0,
				      &fl->chunk_left, now);
		if (ret) {
			fl->waiting = true;
			return;
		}
		vfs->st.flusher_bios++;
		if (in->nr_dirty && !pc_first_dirty_from(in, in->writeback_index))
			in->writeback_index = 0; /* wrap, as range_cyclic writeback does */
		/* its turn is over: to the back of the line if still dirty */
		if (in->nr_dirty && !ios_list_unlinked(&in->dirty_link))
			ios_list_move_tail(&in->dirty_link, &vfs->dirty_inodes);
		fl->cur = NULL;
	}
	fl->running = false;
	/* sleep until the next periodic wake-up, if there is anything to age */
	if (period && !ios_list_empty(&vfs->dirty_inodes)) {
		uint64_t next = fl->next_kupdate;

		while (next <= now)
			next += period;
		fl->next_kupdate = next;
		fl_schedule(vfs, next);
	}
}

static void ev_flusher(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct ios_vfs *vfs = arg;

	if (!ios_timer_fire(&vfs->fl.timer, data) || vfs->fl.waiting)
		return;
	vfs->fl.running = true;
	fl_step(vfs, sim->now);
}

void wb_kick(struct ios_vfs *vfs, uint64_t now)
{
	struct flusher *fl = &vfs->fl;

	if (fl->running || fl->waiting || fl->stopped)
		return;
	fl->running = true;
	fl_schedule(vfs, now);
}

void wb_balance_wake(struct ios_vfs *vfs, uint64_t now)
{
	if (vfs->throttled && vfs->nr_dirty + vfs->nr_writeback <= wb_dirty_thresh(vfs))
		pc_wake_all(&vfs->throttled, now);
}

void wb_inode_dirtied(struct ios_vfs *vfs, uint64_t now)
{
	struct flusher *fl = &vfs->fl;
	uint64_t period = (uint64_t)vfs->vm.dirty_writeback_centisecs * 10 * IOS_NSEC_PER_MSEC;
	uint64_t next = fl->next_kupdate;

	if (!period || fl->running || fl->waiting || fl->stopped || fl->timer.when != IOS_NO_WAKEUP)
		return;
	while (next <= now)
		next += period;
	fl->next_kupdate = next;
	fl_schedule(vfs, next);
}

void wb_init(struct ios_vfs *vfs)
{
	struct flusher *fl = &vfs->fl;

	ios_timer_init(&fl->timer);
	snprintf(fl->ioc.comm, sizeof(fl->ioc.comm), "flush-8:0");
	fl->ioc.ioprio_class = IOS_IOPRIO_CLASS_NONE; /* nice 0: best effort, level 4 */
	fl->ioc.nice = 0;
	fl->ioc.nr_tasks = 1;
	memset(&fl->op, 0, sizeof(fl->op));
	memset(&fl->file, 0, sizeof(fl->file));
	fl->file.ioc = &fl->ioc;
	fl->op.file = &fl->file;
	fl->op.wake = fl_op_wake;
	fl->op.priv = vfs;
	fl->next_kupdate = 0;
	fl->running = false;
}

void ios_vfs_quiesce(struct ios_vfs *vfs)
{
	vfs->fl.stopped = true;
	ios_timer_cancel(&vfs->fl.timer);
}

void wb_destroy(struct ios_vfs *vfs)
{
	ios_timer_cancel(&vfs->fl.timer);
}
