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
 *
 * Its work is organised as Linux 2.6.31's pdflush organises it
 * (background_writeout and wb_kupdate in mm/page-writeback.c,
 * generic_sync_sb_inodes in fs/fs-writeback.c): a series of passes, each
 * allowed MAX_WRITEBACK_PAGES (1024 pages, 4 MiB). A pass starts by queueing
 * files for I/O (queue_io: the ones left over from the last pass, then the
 * dirty ones, oldest first; kupdate takes only the expired ones) and then
 * writes each queued file once, in file order from where it stopped last
 * time and wrapping at its end (write_cache_pages with range_cyclic).
 * Background writeback skips pages still under writeback (WB_SYNC_NONE), so
 * a file whose dirty pages are all being written cannot hold it up. A file
 * left with dirty pages goes back to the newest end of the dirty list
 * (redirty_tail) so the others get their turn, except that kupdate requeues
 * one that used up the pass (requeue_io, s_more_io) to go on with it first
 * next pass. A pass that wrote less than its allowance ends the work unless
 * files are waiting on the more-I/O list, in which case the flusher sleeps
 * 100 ms (congestion_wait(HZ/10)) and goes on.
 *
 * Writers are throttled at vm.dirty_ratio: a write that leaves dirty plus
 * writeback pages above the limit waits until writeback brings them below.
 * Linux 2.6.31's balance_dirty_pages makes the writer write some pages
 * itself, sleeping in congestion_wait(HZ/10) between tries; here the
 * flusher does all the writing, and while writers are waiting it keeps
 * trying every 100 ms as they would, which bounds dirty memory the same way.
 * (Writes into a file with a cgroup wb, blk-mq only, are throttled by
 * Linux 6.x's balance_dirty_pages instead: dirty_bdp.c.)
 */
#include <stdlib.h>
#include <string.h>
#include "vfs_int.h"

#define WB_CHUNK_PAGES 1024	/* MAX_WRITEBACK_PAGES */
#define WB_CONGESTION_WAIT_NS (100 * IOS_NSEC_PER_MSEC)	/* HZ/10 */

/*
 * get_dirty_limits() of 2.6.31, which Linux applies without a word and
 * iosched applies too, saying so (ios_vm_dirty_limits' return value): the
 * dirty limit is never below 5 % of memory, and the background threshold is
 * halved to below the dirty limit when it is not already below.
 */
unsigned ios_vm_dirty_limits(const struct ios_vm_tunables *vm, uint64_t *background_pages,
			     uint64_t *dirty_pages)
{
	uint64_t pages = vm->memory / IOS_PAGE_SIZE, bg, d;
	unsigned adjusted = 0;
	int ratio = vm->dirty_ratio;

	if (ratio < IOS_VM_MIN_DIRTY_RATIO) {
		ratio = IOS_VM_MIN_DIRTY_RATIO;
		adjusted |= IOS_VM_DIRTY_RATIO_RAISED;
	}
	d = pages * (uint64_t)ratio / 100;
	bg = pages * (uint64_t)vm->dirty_background_ratio / 100;
	if (bg >= d) {
		bg = d / 2;
		adjusted |= IOS_VM_BACKGROUND_HALVED;
	}
	if (background_pages)
		*background_pages = bg;
	if (dirty_pages)
		*dirty_pages = d;
	return adjusted;
}

uint64_t ios_wb_dirty_thresh(const struct ios_vfs *vfs)
{
	uint64_t d;

	(void)ios_vm_dirty_limits(&vfs->vm, NULL, &d);
	return d;
}

uint64_t ios_wb_background_thresh(const struct ios_vfs *vfs)
{
	uint64_t bg;

	(void)ios_vm_dirty_limits(&vfs->vm, &bg, NULL);
	return bg;
}

/*
 * The pass logic below works on a struct flusher and the wb lists it points
 * at: the one flusher of 2.6.31 (vfs->fl on vfs->dirty_inodes, io_inodes,
 * more_io_inodes) and each cgroup wb of writeback_cgwb.c share it.
 *
 * blk-mq (Linux 6.12 wb_writeback): the flusher writes under its plug, so
 * its bios merge there and reach the queue in batches (P, U). When the
 * work is over the plug is finished (U); when the flusher sleeps in the
 * middle of it (a page or a tag to wait for, the pause between passes) the
 * sleep flushes it (schedule(): UT). The single-queue layer: no plug.
 */
static void fl_step_body(struct flusher *fl, uint64_t now);

static void fl_step(struct flusher *fl, uint64_t now)
{
	struct ios_plug plug;

	if (!fl->vfs->q->mq) {
		fl_step_body(fl, now);
		return;
	}
	ios_blk_start_plug(&fl->ioc, &plug);
	fl_step_body(fl, now);
	if (fl->waiting || fl->running)
		ios_blk_flush_plug(&fl->ioc, true, now);
	ios_blk_finish_plug(&fl->ioc, &plug, now);
}

static void ev_flusher(struct ios_sim *sim, void *arg, uint64_t data);

static void fl_schedule(struct flusher *fl, uint64_t when)
{
	(void)ios_timer_arm(fl->vfs->sim, &fl->timer, when, ev_flusher, fl);
}

static void fl_op_wake(struct ios_vfs_op *op, uint64_t now)
{
	struct flusher *fl = op->priv;

	fl->waiting = false;
	fl_schedule(fl, now);
}

static bool fl_any_dirty(const struct flusher *fl)
{
	return !ios_list_empty(fl->b_dirty) || !ios_list_empty(fl->b_io) ||
	       !ios_list_empty(fl->b_more_io);
}

static bool fl_background_due(const struct flusher *fl)
{
	const struct ios_vfs *vfs = fl->vfs;

	return vfs->nr_dirty > 0 && vfs->nr_dirty >= ios_wb_background_thresh(vfs) &&
	       (!fl->per_cgroup || fl_any_dirty(fl));
}

static uint64_t fl_period(const struct ios_vfs *vfs)
{
	return (uint64_t)vfs->vm.dirty_writeback_centisecs * 10 * IOS_NSEC_PER_MSEC;
}

/* redirty_tail: to the newest end of the dirty list, keeping it ordered by age */
static void fl_redirty_tail(struct flusher *fl, struct ios_inode *in, uint64_t now)
{
	if (!ios_list_empty(fl->b_dirty)) {
		struct ios_inode *newest =
			ios_list_last_entry(fl->b_dirty, struct ios_inode, dirty_link);

		if (in->dirtied_when < newest->dirtied_when)
			in->dirtied_when = now;
	}
	ios_list_move_tail(&in->dirty_link, fl->b_dirty);
}

/*
 * queue_io: the files of the more-I/O list go first, then what the last pass
 * left queued, then the dirty files (all of them for background writeback,
 * those dirtied at or before @older_than for kupdate), oldest first.
 */
static void fl_queue_io(struct flusher *fl, bool kupdate, uint64_t older_than)
{
	struct ios_list_head *pos;

	while (!ios_list_empty(fl->b_more_io)) {
		pos = fl->b_more_io->prev;
		ios_list_del(pos);
		ios_list_add(pos, fl->b_io);
	}
	while (!ios_list_empty(fl->b_dirty)) {
		struct ios_inode *in =
			ios_list_first_entry(fl->b_dirty, struct ios_inode, dirty_link);

		if (kupdate && in->dirtied_when > older_than)
			break;
		ios_list_move_tail(&in->dirty_link, fl->b_io);
	}
}

static void fl_start_pass(struct flusher *fl, uint64_t now)
{
	uint64_t expire = (uint64_t)fl->vfs->vm.dirty_expire_centisecs * 10 * IOS_NSEC_PER_MSEC;
	bool kupdate = fl->mode == FL_KUPDATE;

	if (!kupdate || ios_list_empty(fl->b_io))
		fl_queue_io(fl, kupdate, now >= expire ? now - expire : 0);
	fl->pass_left = WB_CHUNK_PAGES;
	fl->more_io = false;
	fl->in_pass = true;
	fl->passes++;
}

/* Pick the next work when idle: background first, then kupdate if due. */
static bool fl_choose(struct flusher *fl, uint64_t now)
{
	uint64_t period = fl_period(fl->vfs);

	if (fl_background_due(fl)) {
		fl->mode = FL_BACKGROUND;
		return true;
	}
	if (period && fl->kupdate_due && now >= fl->next_kupdate) {
		fl->kupdate_due = false;
		fl->mode = FL_KUPDATE;
		/* wb_check_old_data_flush: the global dirty count bounds the work */
		fl->kupdate_left = fl->vfs->nr_dirty;
		return fl->kupdate_left > 0;
	}
	return false;
}

/* Nothing to do now: sleep until the next periodic wake-up, if anything may age. */
static void fl_sleep(struct flusher *fl, uint64_t now)
{
	uint64_t period = fl_period(fl->vfs);

	fl->running = false;
	fl->mode = FL_IDLE;
	if (period && fl_any_dirty(fl)) {
		uint64_t next = fl->next_kupdate;

		while (next <= now)
			next += period;
		fl->next_kupdate = next;
		fl->kupdate_due = true;
		fl_schedule(fl, next);
	}
}

/* One file's turn in a pass: write from writeback_index, wrapping once. */
static int fl_write_inode(struct flusher *fl, struct ios_inode *in, uint64_t now)
{
	for (;;) {
		uint64_t end = fl->cycled ? fl->wrap_end : in->npages;
		int ret;

		fl->op.file->inode = in;
		ret = ios_vfs_write_dirty(fl->vfs, &fl->op, &fl->ioc, in, &in->writeback_index, end,
					  fl->bio_flags, &fl->pass_left, now);
		if (ret)
			return ret;
		if (fl->cycled || !fl->pass_left)
			return 0;
		/* hit the end of the file with allowance left: wrap to its start */
		fl->cycled = true;
		in->writeback_index = 0;
	}
}

static void fl_step_body(struct flusher *fl, uint64_t now)
{
	struct ios_vfs *vfs = fl->vfs;

	if (fl->stopped) {
		fl->running = false;
		return;
	}
	for (;;) {
		struct ios_inode *in;
		uint64_t wrote;

		if (!fl->in_pass) {
			if (fl->mode == FL_IDLE && !fl_choose(fl, now)) {
				fl_sleep(fl, now);
				return;
			}
			if (fl->mode == FL_BACKGROUND && !fl_background_due(fl)) {
				/* below the background threshold: done (then kupdate, if due) */
				fl->mode = FL_IDLE;
				continue;
			}
			if (fl->mode == FL_KUPDATE && !fl->kupdate_left) {
				fl->mode = FL_IDLE;
				continue;
			}
			fl_start_pass(fl, now);
		}
		if (!fl->cur) {
			if (ios_list_empty(fl->b_io))
				goto pass_over;
			in = ios_list_first_entry(fl->b_io, struct ios_inode, dirty_link);
			fl->cur = in;
			/* from the start, one sweep covers the file; else wrap up to here */
			fl->cycled = in->writeback_index == 0;
			fl->wrap_end = fl->cycled ? in->npages : in->writeback_index;
		}
		in = fl->cur;
		if (fl_write_inode(fl, in, now)) {
			fl->waiting = true;
			return;
		}
		vfs->st.flusher_bios++;
		fl->cur = NULL;
		if (in->nr_dirty) {
			if (fl->mode == FL_KUPDATE && !fl->pass_left)
				ios_list_move_tail(&in->dirty_link, fl->b_more_io);
			else
				fl_redirty_tail(fl, in, now);
		}
		if (!fl->pass_left) {
			fl->more_io = true;
			goto pass_over;
		}
		if (!ios_list_empty(fl->b_more_io))
			fl->more_io = true;
		continue;
pass_over:
		fl->in_pass = false;
		wrote = WB_CHUNK_PAGES - fl->pass_left;
		if (fl->mode == FL_KUPDATE)
			fl->kupdate_left = fl->kupdate_left > wrote ? fl->kupdate_left - wrote : 0;
		if (fl->pass_left) {
			/* wrote less than the pass allowed */
			bool retry = fl->more_io ||
				     (fl->mode == FL_BACKGROUND && vfs->throttled &&
				      (!fl->per_cgroup || fl_any_dirty(fl)));

			if (!retry) {
				/* nothing more it can write now: pdflush returns */
				fl_sleep(fl, now);
				return;
			}
			fl_schedule(fl, now + WB_CONGESTION_WAIT_NS);
			return;
		}
	}
}

static void ev_flusher(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct flusher *fl = arg;

	if (!ios_timer_fire(&fl->timer, data) || fl->waiting)
		return;
	fl->running = true;
	fl_step(fl, sim->now);
}

void ios_flusher_kick(struct flusher *fl, uint64_t now)
{
	if (fl->running || fl->waiting || fl->stopped)
		return;
	fl->running = true;
	fl_schedule(fl, now);
}

/* wb_wakeup_delayed: a wb that got a dirty inode looks at it on the kupdate grid */
void ios_flusher_inode_listed(struct flusher *fl, uint64_t now)
{
	uint64_t period = fl_period(fl->vfs);
	uint64_t next = fl->next_kupdate;

	if (!period || fl->running || fl->waiting || fl->stopped ||
	    fl->timer.when != IOS_NO_WAKEUP)
		return;
	while (next <= now)
		next += period;
	fl->next_kupdate = next;
	fl->kupdate_due = true;
	fl_schedule(fl, next);
}

void ios_flusher_setup(struct flusher *fl, struct ios_vfs *vfs, struct ios_list_head *b_dirty,
		       struct ios_list_head *b_io, struct ios_list_head *b_more_io)
{
	ios_timer_init(&fl->timer);
	memset(&fl->op, 0, sizeof(fl->op));
	memset(&fl->file, 0, sizeof(fl->file));
	fl->file.ioc = &fl->ioc;
	fl->op.file = &fl->file;
	fl->op.wake = fl_op_wake;
	fl->op.priv = fl;
	fl->next_kupdate = 0;
	fl->running = false;
	fl->mode = FL_IDLE;
	fl->vfs = vfs;
	fl->b_dirty = b_dirty;
	fl->b_io = b_io;
	fl->b_more_io = b_more_io;
	ios_list_init(b_io);
	ios_list_init(b_more_io);
}

void ios_wb_kick(struct ios_vfs *vfs, uint64_t now)
{
	ios_flusher_kick(&vfs->fl, now);
}

void ios_wb_balance_wake(struct ios_vfs *vfs, uint64_t now)
{
	if (vfs->throttled && vfs->nr_dirty + vfs->nr_writeback <= ios_wb_dirty_thresh(vfs))
		ios_pc_wake_all(&vfs->throttled, now);
}

void ios_wb_inode_dirtied(struct ios_vfs *vfs, uint64_t now)
{
	ios_flusher_inode_listed(&vfs->fl, now);
}

void ios_wb_init(struct ios_vfs *vfs)
{
	struct flusher *fl = &vfs->fl;

	snprintf(fl->ioc.comm, sizeof(fl->ioc.comm), "flush-8:0");
	fl->ioc.ioprio_class = IOS_IOPRIO_CLASS_NONE; /* nice 0: best effort, level 4 */
	fl->ioc.nice = 0;
	fl->ioc.nr_tasks = 1;
	fl->ioc.kthread = true;		/* a kworker: no cgroup v2 return-to-user delay */
	ios_flusher_setup(fl, vfs, &vfs->dirty_inodes, &vfs->io_inodes, &vfs->more_io_inodes);
	/*
	 * 6.12 wbc_to_write_flags: background and kupdate writeback carry
	 * REQ_BACKGROUND (4.10+, read by blk-mq's writeback throttling);
	 * 2.6.31's flusher on the single-queue layer had none
	 */
	fl->bio_flags = vfs->q->mq ? IOS_REQ_BACKGROUND : 0;
}

void ios_vfs_quiesce(struct ios_vfs *vfs)
{
	vfs->fl.stopped = true;
	ios_timer_cancel(&vfs->fl.timer);
	ios_jbd2_quiesce(vfs);
	ios_cgwb_quiesce(vfs);
	ios_bdp_quiesce(vfs);
}

void ios_wb_destroy(struct ios_vfs *vfs)
{
	ios_timer_cancel(&vfs->fl.timer);
}
