/*
 * Cgroup writeback on blk-mq: writeback attributed to the cgroup that
 * dirtied the page, as Linux 6.12 does it (fs/fs-writeback.c,
 * mm/backing-dev.c, mm/page-writeback.c; docs/cgroup-v2.md "Writeback").
 *
 * What is modelled, and which 6.12 function it follows:
 *  - An inode gets its owner at the first dirtying of one of its pages:
 *    folio_account_dirtied calls inode_attach_wb with the folio, and
 *    __inode_attach_wb picks the wb of the folio's memory cgroup (the
 *    cgroup charged when the page entered the cache, filemap_add_folio),
 *    creating it on first use (wb_get_create, cgwb_create). The owner is
 *    kept for the inode's life: the switch to a dominant foreign wb
 *    (wbc_detach_inode, inode_switch_wbs) is not modelled (plan §13 Q4),
 *    so a file dirtied by several cgroups stays charged to its first.
 *  - One wb per cgroup with its own dirty, io and more-io lists and its own
 *    flusher (a kworker running the wb's work; the lab gives each its own
 *    io context, named kworker/flush-<cgroup> in traces, a kthread, so no
 *    cgroup v2 return-to-user delay ever reaches it).
 *  - Every writeback bio of the inode, the flusher's and fsync's alike, is
 *    charged to the owner's cgroup (wbc_init_bio → bio_associate_blkg_from_css
 *    with the wb's blkcg css): bio->blkcg, so io.max, io.cost, io.latency,
 *    io.prio.class and BFQ's groups see the dirtier.
 *  - wbc_account_cgroup_owner: each page written is compared with the wb's
 *    cgroup; pages charged to another cgroup are counted as foreign (the
 *    kernel feeds them to its switch vote; here they are only reported).
 *  - The root cgroup's inodes go to the root wb like any other (6.12's
 *    bdi->wb); the block device's own inode (the metadata cache) is
 *    cgroup-writeback capable too (bd_init_fs_context sets SB_I_CGROUPWB)
 *    and is owned the same way.
 *
 * What is kept from the 2.6.31 flusher (src/fs/writeback.c), on purpose:
 * the pass and queue logic (passes of MAX_WRITEBACK_PAGES, queue_io,
 * redirty_tail, requeue_io, the 100 ms retry), the kupdate grid, and the
 * global dirty throttling (balance_dirty_pages per wb is step 7b). 6.12's
 * writeback_chunk_size (bandwidth-sized chunks) and wb_over_bg_thresh's
 * per-wb share of the background threshold are not modelled: a wb's
 * background work goes on while global dirty memory is over the
 * background threshold and the wb has dirty inodes; as in 6.12
 * (balance_dirty_pages → wb_start_background_writeback) only the wb of the
 * inode being written is woken.
 */
#include <stdlib.h>
#include <string.h>
#include "vfs_int.h"

#define CGWB_CHUNK_PAGES 1024	/* MAX_WRITEBACK_PAGES, as writeback.c */
#define CGWB_CONGESTION_WAIT_NS (100 * IOS_NSEC_PER_MSEC)

struct cgwb {
	struct ios_vfs *vfs;
	struct ios_cgroup *cg;		/* its memcg and blkcg (one cgroup here) */
	struct flusher fl;
	struct ios_list_head b_dirty, b_io, b_more_io;
	struct ios_vfs_cgwb_stats st;
	struct cgwb *next;		/* in creation order */
};

struct cgwb_set {
	struct ios_cgroup *root;
	uint32_t next_pid;
	struct cgwb *first, **tail;
};

static void cgwb_step_body(struct cgwb *wb, uint64_t now);
static void ev_cgwb(struct ios_sim *sim, void *arg, uint64_t data);

static void cgwb_step(struct cgwb *wb, uint64_t now)
{
	struct flusher *fl = &wb->fl;
	struct ios_plug plug;

	/* wb_writeback plugs (blk-mq only: this file runs on no other layer) */
	ios_blk_start_plug(&fl->ioc, &plug);
	cgwb_step_body(wb, now);
	if (fl->waiting || fl->running)
		ios_blk_flush_plug(&fl->ioc, true, now);
	ios_blk_finish_plug(&fl->ioc, &plug, now);
}

static void cgwb_schedule(struct cgwb *wb, uint64_t when)
{
	(void)ios_timer_arm(wb->vfs->sim, &wb->fl.timer, when, ev_cgwb, wb);
}

static void cgwb_op_wake(struct ios_vfs_op *op, uint64_t now)
{
	struct cgwb *wb = op->priv;

	wb->fl.waiting = false;
	cgwb_schedule(wb, now);
}

static bool cgwb_any_dirty(const struct cgwb *wb)
{
	return !ios_list_empty(&wb->b_dirty) || !ios_list_empty(&wb->b_io) ||
	       !ios_list_empty(&wb->b_more_io);
}

static bool cgwb_background_due(const struct cgwb *wb)
{
	const struct ios_vfs *vfs = wb->vfs;

	return vfs->nr_dirty > 0 && vfs->nr_dirty >= ios_wb_background_thresh(vfs) &&
	       cgwb_any_dirty(wb);
}

static uint64_t cgwb_period(const struct ios_vfs *vfs)
{
	return (uint64_t)vfs->vm.dirty_writeback_centisecs * 10 * IOS_NSEC_PER_MSEC;
}

static void cgwb_redirty_tail(struct cgwb *wb, struct ios_inode *in, uint64_t now)
{
	if (!ios_list_empty(&wb->b_dirty)) {
		struct ios_inode *newest =
			ios_list_last_entry(&wb->b_dirty, struct ios_inode, dirty_link);

		if (in->dirtied_when < newest->dirtied_when)
			in->dirtied_when = now;
	}
	ios_list_move_tail(&in->dirty_link, &wb->b_dirty);
}

static void cgwb_queue_io(struct cgwb *wb, bool kupdate, uint64_t older_than)
{
	struct ios_list_head *pos;

	while (!ios_list_empty(&wb->b_more_io)) {
		pos = wb->b_more_io.prev;
		ios_list_del(pos);
		ios_list_add(pos, &wb->b_io);
	}
	while (!ios_list_empty(&wb->b_dirty)) {
		struct ios_inode *in =
			ios_list_first_entry(&wb->b_dirty, struct ios_inode, dirty_link);

		if (kupdate && in->dirtied_when > older_than)
			break;
		ios_list_move_tail(&in->dirty_link, &wb->b_io);
	}
}

static void cgwb_start_pass(struct cgwb *wb, uint64_t now)
{
	struct flusher *fl = &wb->fl;
	uint64_t expire = (uint64_t)wb->vfs->vm.dirty_expire_centisecs * 10 * IOS_NSEC_PER_MSEC;
	bool kupdate = fl->mode == FL_KUPDATE;

	if (!kupdate || ios_list_empty(&wb->b_io))
		cgwb_queue_io(wb, kupdate, now >= expire ? now - expire : 0);
	fl->pass_left = CGWB_CHUNK_PAGES;
	fl->more_io = false;
	fl->in_pass = true;
	wb->st.passes++;
}

static bool cgwb_choose(struct cgwb *wb, uint64_t now)
{
	struct flusher *fl = &wb->fl;
	uint64_t period = cgwb_period(wb->vfs);

	if (cgwb_background_due(wb)) {
		fl->mode = FL_BACKGROUND;
		return true;
	}
	if (period && fl->kupdate_due && now >= fl->next_kupdate) {
		fl->kupdate_due = false;
		fl->mode = FL_KUPDATE;
		/* wb_check_old_data_flush: the global dirty count bounds the work */
		fl->kupdate_left = wb->vfs->nr_dirty;
		return fl->kupdate_left > 0;
	}
	return false;
}

static void cgwb_sleep(struct cgwb *wb, uint64_t now)
{
	struct flusher *fl = &wb->fl;
	uint64_t period = cgwb_period(wb->vfs);

	fl->running = false;
	fl->mode = FL_IDLE;
	if (period && cgwb_any_dirty(wb)) {
		uint64_t next = fl->next_kupdate;

		while (next <= now)
			next += period;
		fl->next_kupdate = next;
		fl->kupdate_due = true;
		cgwb_schedule(wb, next);
	}
}

static int cgwb_write_inode(struct cgwb *wb, struct ios_inode *in, uint64_t now)
{
	struct flusher *fl = &wb->fl;

	for (;;) {
		uint64_t end = fl->cycled ? fl->wrap_end : in->npages;
		int ret;

		fl->op.file->inode = in;
		ret = ios_vfs_write_dirty(wb->vfs, &fl->op, &fl->ioc, in, &in->writeback_index, end,
					  0, &fl->pass_left, now);
		if (ret)
			return ret;
		if (fl->cycled || !fl->pass_left)
			return 0;
		fl->cycled = true;
		in->writeback_index = 0;
	}
}

static void cgwb_step_body(struct cgwb *wb, uint64_t now)
{
	struct ios_vfs *vfs = wb->vfs;
	struct flusher *fl = &wb->fl;

	if (fl->stopped) {
		fl->running = false;
		return;
	}
	for (;;) {
		struct ios_inode *in;
		uint64_t wrote;

		if (!fl->in_pass) {
			if (fl->mode == FL_IDLE && !cgwb_choose(wb, now)) {
				cgwb_sleep(wb, now);
				return;
			}
			if (fl->mode == FL_BACKGROUND && !cgwb_background_due(wb)) {
				fl->mode = FL_IDLE;
				continue;
			}
			if (fl->mode == FL_KUPDATE && !fl->kupdate_left) {
				fl->mode = FL_IDLE;
				continue;
			}
			cgwb_start_pass(wb, now);
		}
		if (!fl->cur) {
			if (ios_list_empty(&wb->b_io))
				goto pass_over;
			in = ios_list_first_entry(&wb->b_io, struct ios_inode, dirty_link);
			fl->cur = in;
			fl->cycled = in->writeback_index == 0;
			fl->wrap_end = fl->cycled ? in->npages : in->writeback_index;
		}
		in = fl->cur;
		if (cgwb_write_inode(wb, in, now)) {
			fl->waiting = true;
			return;
		}
		vfs->st.flusher_bios++;
		fl->cur = NULL;
		if (in->nr_dirty) {
			if (fl->mode == FL_KUPDATE && !fl->pass_left)
				ios_list_move_tail(&in->dirty_link, &wb->b_more_io);
			else
				cgwb_redirty_tail(wb, in, now);
		}
		if (!fl->pass_left) {
			fl->more_io = true;
			goto pass_over;
		}
		if (!ios_list_empty(&wb->b_more_io))
			fl->more_io = true;
		continue;
pass_over:
		fl->in_pass = false;
		wrote = CGWB_CHUNK_PAGES - fl->pass_left;
		if (fl->mode == FL_KUPDATE)
			fl->kupdate_left = fl->kupdate_left > wrote ? fl->kupdate_left - wrote : 0;
		if (fl->pass_left) {
			bool retry = fl->more_io ||
				     (fl->mode == FL_BACKGROUND && vfs->throttled && cgwb_any_dirty(wb));

			if (!retry) {
				cgwb_sleep(wb, now);
				return;
			}
			cgwb_schedule(wb, now + CGWB_CONGESTION_WAIT_NS);
			return;
		}
	}
}

static void ev_cgwb(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct cgwb *wb = arg;

	if (!ios_timer_fire(&wb->fl.timer, data) || wb->fl.waiting)
		return;
	wb->fl.running = true;
	cgwb_step(wb, sim->now);
}

/* wb_wakeup_delayed: a wb that got a dirty inode looks at it on the kupdate grid */
static void cgwb_inode_listed(struct cgwb *wb, uint64_t now)
{
	struct flusher *fl = &wb->fl;
	uint64_t period = cgwb_period(wb->vfs);
	uint64_t next = fl->next_kupdate;

	if (!period || fl->running || fl->waiting || fl->stopped ||
	    fl->timer.when != IOS_NO_WAKEUP)
		return;
	while (next <= now)
		next += period;
	fl->next_kupdate = next;
	fl->kupdate_due = true;
	cgwb_schedule(wb, next);
}

/* cgwb_create: the wb of @cg, made on first use */
static struct cgwb *cgwb_get_create(struct ios_vfs *vfs, struct ios_cgroup *cg)
{
	struct cgwb_set *set = vfs->cgwb;
	struct cgwb *wb;
	struct flusher *fl;

	for (wb = set->first; wb; wb = wb->next)
		if (wb->cg == cg)
			return wb;
	wb = calloc(1, sizeof(*wb));
	if (!wb)
		return NULL;
	wb->vfs = vfs;
	wb->cg = cg;
	fl = &wb->fl;
	ios_timer_init(&fl->timer);
	snprintf(fl->ioc.comm, sizeof(fl->ioc.comm), "kworker/flush-%.17s",
		 *cg->path ? cg->path : "/");
	fl->ioc.pid = set->next_pid++;
	fl->ioc.ioprio_class = IOS_IOPRIO_CLASS_NONE;	/* a kworker: nice 0, best effort */
	fl->ioc.nice = 0;
	fl->ioc.nr_tasks = 1;
	fl->ioc.kthread = true;
	fl->ioc.cgroup = set->root;	/* the kworker lives in the root; its bios carry @cg */
	fl->ioc.cpu = vfs->fl.ioc.cpu;
	fl->file.ioc = &fl->ioc;
	fl->op.file = &fl->file;
	fl->op.wake = cgwb_op_wake;
	fl->op.priv = wb;
	fl->mode = FL_IDLE;
	fl->stopped = vfs->fl.stopped;
	ios_list_init(&wb->b_dirty);
	ios_list_init(&wb->b_io);
	ios_list_init(&wb->b_more_io);
	*set->tail = wb;
	set->tail = &wb->next;
	return wb;
}

void ios_cgwb_inode_dirtied(struct ios_vfs *vfs, struct ios_inode *in, struct pc_page *p,
			    uint64_t now)
{
	if (!in->wb) {
		/* __inode_attach_wb with the folio: its memcg's wb owns the inode for good */
		struct ios_cgroup *cg = p->memcg ? p->memcg : vfs->cgwb->root;
		struct cgwb *wb = cgwb_get_create(vfs, cg);

		if (!wb)
			wb = cgwb_get_create(vfs, vfs->cgwb->root);
		if (!wb) {
			/* out of memory: the kernel falls back to bdi->wb, as here */
			ios_list_add_tail(&in->dirty_link, &vfs->dirty_inodes);
			ios_wb_inode_dirtied(vfs, now);
			return;
		}
		in->wb = wb;
		wb->st.inodes++;
	}
	ios_list_add_tail(&in->dirty_link, &in->wb->b_dirty);
	cgwb_inode_listed(in->wb, now);
}

void ios_cgwb_kick(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	struct cgwb *wb = in->wb;
	struct flusher *fl;

	if (!wb) {
		ios_wb_kick(vfs, now);
		return;
	}
	fl = &wb->fl;
	if (fl->running || fl->waiting || fl->stopped)
		return;
	fl->running = true;
	cgwb_schedule(wb, now);
}

void ios_cgwb_account_page(struct ios_inode *in, const struct pc_page *p)
{
	struct cgwb *wb = in->wb;
	struct ios_cgroup *memcg = p->memcg ? p->memcg : in->vfs->cgwb->root;

	wb->st.pages_written++;
	if (memcg != wb->cg)
		wb->st.foreign_pages++;
}

struct ios_cgroup *ios_cgwb_bio_blkcg(const struct ios_inode *in)
{
	return in->wb ? in->wb->cg : NULL;
}

void ios_cgwb_quiesce(struct ios_vfs *vfs)
{
	if (!vfs->cgwb)
		return;
	for (struct cgwb *wb = vfs->cgwb->first; wb; wb = wb->next) {
		wb->fl.stopped = true;
		ios_timer_cancel(&wb->fl.timer);
	}
}

void ios_cgwb_destroy(struct ios_vfs *vfs)
{
	struct cgwb *wb, *n;

	if (!vfs->cgwb)
		return;
	for (wb = vfs->cgwb->first; wb; wb = n) {
		n = wb->next;
		ios_timer_cancel(&wb->fl.timer);
		free(wb);
	}
	free(vfs->cgwb);
	vfs->cgwb = NULL;
}

/* ---- the public side (vfs.h) ---- */

int ios_vfs_cgwb_enable(struct ios_vfs *vfs, struct ios_cgroup *root)
{
	struct cgwb_set *set;

	if (vfs->cgwb)
		return 0;
	set = calloc(1, sizeof(*set));
	if (!set)
		return -ENOMEM;
	set->root = root;
	set->next_pid = vfs->fl.ioc.pid + 1;
	set->tail = &set->first;
	vfs->cgwb = set;
	return 0;
}

bool ios_vfs_cgwb_on(const struct ios_vfs *vfs)
{
	return vfs->cgwb != NULL;
}

bool ios_vfs_cgwb_stats(const struct ios_vfs *vfs, const struct ios_cgroup *cg,
			struct ios_vfs_cgwb_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!vfs->cgwb)
		return false;
	for (const struct cgwb *wb = vfs->cgwb->first; wb; wb = wb->next) {
		if (wb->cg == cg) {
			*out = wb->st;
			out->sched_ns = wb->fl.ioc.sched_ns;
			out->device_ns = wb->fl.ioc.device_ns;
			return true;
		}
	}
	return false;
}

void ios_vfs_flusher_time(const struct ios_vfs *vfs, uint64_t *sched_ns, uint64_t *device_ns)
{
	*sched_ns = vfs->fl.ioc.sched_ns;
	*device_ns = vfs->fl.ioc.device_ns;
	if (!vfs->cgwb)
		return;
	for (const struct cgwb *wb = vfs->cgwb->first; wb; wb = wb->next) {
		*sched_ns += wb->fl.ioc.sched_ns;
		*device_ns += wb->fl.ioc.device_ns;
	}
}

struct ios_ioc *ios_vfs_cgwb_ioc(struct ios_vfs *vfs, const struct ios_cgroup *cg)
{
	if (!vfs->cgwb)
		return NULL;
	for (struct cgwb *wb = vfs->cgwb->first; wb; wb = wb->next)
		if (wb->cg == cg)
			return &wb->fl.ioc;
	return NULL;
}
