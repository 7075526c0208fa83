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
 * What is kept from the 2.6.31 flusher, on purpose (one implementation:
 * writeback.c's pass logic runs on each wb's struct flusher and lists):
 * the pass and queue logic (passes of MAX_WRITEBACK_PAGES, queue_io,
 * redirty_tail, requeue_io, the 100 ms retry) and the kupdate grid. Dirty
 * throttling is 6.x's per wb (dirty_bdp.c, state in struct cgwb). 6.12's
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
#include "dirty_bdp.h"

struct cgwb {
	struct ios_vfs *vfs;
	struct ios_cgroup *cg;		/* its memcg and blkcg (one cgroup here) */
	struct flusher fl;		/* writeback.c's pass logic on the lists below */
	struct ios_list_head b_dirty, b_io, b_more_io;
	struct ios_vfs_cgwb_stats st;
	struct bdp_wb bdp;		/* its 6.x dirty throttling (dirty_bdp.c) */
	struct cgwb *next;		/* in creation order */
};

struct cgwb_set {
	struct ios_cgroup *root;
	uint32_t next_pid;
	struct cgwb *first, **tail;
};

/* cgwb_create: the wb of @cg, made on first use */
static struct cgwb *cgwb_get_create(struct ios_vfs *vfs, struct ios_cgroup *cg, uint64_t now)
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
	ios_list_init(&wb->b_dirty);
	ios_flusher_setup(fl, vfs, &wb->b_dirty, &wb->b_io, &wb->b_more_io);
	/* a cgroup wb: its background work ends when it has nothing dirty */
	fl->per_cgroup = true;
	fl->bio_flags = 0;
	snprintf(fl->ioc.comm, sizeof(fl->ioc.comm), "kworker/flush-%.17s",
		 *cg->path ? cg->path : "/");
	fl->ioc.pid = set->next_pid++;
	fl->ioc.ioprio_class = IOS_IOPRIO_CLASS_NONE;	/* a kworker: nice 0, best effort */
	fl->ioc.nice = 0;
	fl->ioc.nr_tasks = 1;
	fl->ioc.kthread = true;
	fl->ioc.cgroup = set->root;	/* the kworker lives in the root; its bios carry @cg */
	fl->ioc.cpu = vfs->fl.ioc.cpu;
	fl->stopped = vfs->fl.stopped;
	if (vfs->bdp) {
		ios_bdp_wb_init(vfs, &wb->bdp, now);
		fl->bdp = &wb->bdp;
	}
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
		struct cgwb *wb = cgwb_get_create(vfs, cg, now);

		if (!wb)
			wb = cgwb_get_create(vfs, vfs->cgwb->root, now);
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
	ios_flusher_inode_listed(&in->wb->fl, now);
}

void ios_cgwb_kick(struct ios_vfs *vfs, struct ios_inode *in, uint64_t now)
{
	if (!in->wb) {
		ios_wb_kick(vfs, now);
		return;
	}
	ios_flusher_kick(&in->wb->fl, now);
}

void ios_cgwb_account_page(struct ios_inode *in, const struct pc_page *p)
{
	struct cgwb *wb = in->wb;
	struct ios_cgroup *memcg = p->memcg ? p->memcg : in->vfs->cgwb->root;

	wb->st.pages_written++;
	if (memcg != wb->cg)
		wb->st.foreign_pages++;
}

struct bdp_wb *ios_cgwb_bdp(const struct ios_inode *in)
{
	return in->wb ? in->wb->fl.bdp : NULL;
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
	/* its writers are throttled as 6.x does, per wb (dirty_bdp.c) */
	return ios_bdp_enable(vfs);
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
			out->passes = wb->fl.passes;
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
