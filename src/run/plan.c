/*
 * The plan phase: the jobs become tasks, the tasks' files are laid out on
 * the host's disk, the page cache goes on top of the queue, and every task
 * is set up with its result slot, ready to start.
 *
 * It runs after the host and the queue are built: the layout needs the
 * disk's capacity, the page cache needs the queue, and the cgroups' check
 * needs the scheduler the queue ended up with. The tasks are numbered in
 * job order (clones of a job next to one another) and grouped into the
 * stonewall phases the loop starts one after the other; each task's random
 * stream is seeded from the run's seed (or the job's randseed=), the job's
 * index and the clone's, so no task's numbers depend on another's.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include "iosched/series_group.h"
#include "iosched/timeline.h"
#include "run_int.h"
#include "run/cpu_map.h"

/*
 * The device side of the plot by cgroup: a request's bytes when the device
 * completed it, for the cgroup it was charged to (ios_rq_blkcg: the bio's
 * blkcg, which cgroup writeback sets to the dirtier's, else its task's;
 * none, as for a request without a task, is the root's, as the kernel
 * charges a bio without a blkg to the root blkg). Counted where
 * ios_blk_rq_complete_acct counts the disk's sectors (6.12
 * blk_account_io_completion), not where io.stat counts bytes
 * (blk_cgroup_bio_start, at submission): this side is what the device
 * moved. Ramp time is not left out here.
 */
static void series_rq_done(void *priv, const struct ios_request *rq, uint64_t now)
{
	struct run_ctx *c = priv;
	const struct ios_cgroup *cg = ios_rq_blkcg(rq);

	if (c->series_err)
		return;
	c->series_err = ios_series_add_charged(c->series, cg ? cg->id : 0, cg ? cg->path : "",
					       now, ios_rq_bytes(rq));
}

/* Empty plot series, one per task, labelled "name" or "name.K" for numjobs clones. */
static int series_setup(struct run_ctx *c, struct ios_err *e)
{
	c->series = calloc(1, sizeof(*c->series));
	if (!c->series || ios_series_init(c->series, c->nr_tasks))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const struct ios_job *j = c->tasks[i].job;
		char label[256];

		if (j->numjobs > 1)
			snprintf(label, sizeof(label), "%s.%u", j->name ? j->name : "", c->tasks[i].clone);
		else
			snprintf(label, sizeof(label), "%s", j->name ? j->name : "");
		if (ios_series_set_label(c->series, i, label))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	if (c->q)
		ios_queue_set_done_fn(c->q, series_rq_done, c);
	return 0;
}

/*
 * The plot's timeline: lanes in task order (the series' order), filled
 * through the queue's ownership hook, which only watches.
 */
static int timeline_setup(struct run_ctx *c, struct ios_err *e)
{
	uint32_t *pids = calloc(c->nr_tasks ? c->nr_tasks : 1, sizeof(*pids));
	int ret;

	if (!pids)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < c->nr_tasks; i++)
		pids[i] = c->tasks[i].ioc.pid;
	c->series->timeline = calloc(1, sizeof(*c->series->timeline));
	ret = c->series->timeline ? ios_timeline_init(c->series->timeline, c->nr_tasks, pids)
				  : -ENOMEM;
	free(pids);
	if (ret) {
		free(c->series->timeline);
		c->series->timeline = NULL;
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	ios_queue_set_owner_ops(c->q, &ios_timeline_owner_ops, c->series->timeline);
	return 0;
}

/*
 * Linux adjusts the writeback thresholds without a word (get_dirty_limits);
 * the run keeps Linux's numbers but says what became of the settings.
 */
static int run_warn_dirty_limits(const struct ios_vm_tunables *vm, struct ios_run_result *out)
{
	uint64_t bg, d, pages = vm->memory / IOS_PAGE_SIZE;
	unsigned adj = ios_vm_dirty_limits(vm, &bg, &d);
	int ret = 0;

	if (adj & IOS_VM_DIRTY_RATIO_RAISED)
		ret = ios_run_warn(out, "vm.dirty_ratio=%d counts as %d: Linux 2.6.31's get_dirty_limits "
				   "never sets the dirty limit below %d%% of memory (%llu pages)",
				   vm->dirty_ratio, IOS_VM_MIN_DIRTY_RATIO, IOS_VM_MIN_DIRTY_RATIO,
				   (unsigned long long)d);
	if (!ret && (adj & IOS_VM_BACKGROUND_HALVED))
		ret = ios_run_warn(out, "vm.dirty_background_ratio=%d is not below the dirty limit "
				   "(%llu pages): as Linux's get_dirty_limits does, background writeback "
				   "starts at half of it, %llu pages (%.2f%% of memory)",
				   vm->dirty_background_ratio, (unsigned long long)d,
				   (unsigned long long)bg, pages ? 100.0 * (double)bg / (double)pages : 0.0);
	return ret;
}

static int init_result_job(struct run_ctx *c, struct run_task *t, int groupid, struct ios_err *e)
{
	struct ios_job_result *r = t->res;
	const struct ios_job *j = t->job;

	r->name = strdup(j->name ? j->name : "");
	if (!r->name)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	r->groupid = groupid;
	r->nr_merged = 1;
	r->pid = t->ioc.pid;
	r->job = j;
	for (int d = 0; d < IOS_DDIR_RW_NR; d++) {
		struct ios_dir_result *dr = &r->dir[d];

		ios_lat_init(&dr->slat);
		ios_lat_init(&dr->clat);
		ios_lat_init(&dr->lat);
		if ((j->clat_percentiles && ios_lat_enable_hist(&dr->clat)) ||
		    (j->lat_percentiles && ios_lat_enable_hist(&dr->lat)) ||
		    (j->slat_percentiles && ios_lat_enable_hist(&dr->slat)))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	/* the trim direction has the same histograms, and exists only for a job that trims */
	r->trim_hist = (j->clat_percentiles ? IOS_HIST_CLAT : 0) |
		       (j->lat_percentiles ? IOS_HIST_LAT : 0) |
		       (j->slat_percentiles ? IOS_HIST_SLAT : 0);
	if (ios_rw_has_trim(j->rw) && !ios_job_trim(r))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	/*
	 * fio 3.33 keeps fsync/fdatasync latencies in a histogram always
	 * (add_sync_clat_sample(), stat.c): the text prints their
	 * percentiles whatever clat_percentiles says. The histogram is
	 * sparse: a job that never syncs allocates nothing.
	 */
	ios_lat_init(&r->sync_lat);
	if (ios_lat_enable_hist(&r->sync_lat))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ios_lat_init(&r->win_clat);
	if (c->cfg->window_from_ns && ios_lat_enable_hist(&r->win_clat))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	r->ioprio_class = ios_ioc_class(&t->ioc);
	r->ioprio_level = ios_ioc_level(&t->ioc);
	r->cgroup = t->ioc.cgroup->path;
	r->cgroup_weight = j->cgroup_weight;
	if (j->nr_percentiles) {
		r->pcts = j->percentile_list;
		r->nr_pcts = j->nr_percentiles;
	} else {
		r->pcts = ios_default_percentiles;
		r->nr_pcts = ios_nr_default_percentiles;
	}
	/* what a plot grouped by cgroup or by class needs of the job (series_group.h) */
	if (c->series && ios_series_set_group(c->series, t->index, r->cgroup, r->ioprio_class,
					      r->ioprio_level))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/*
 * A zeroed array of @n elements of @size bytes, aligned to @align. The
 * tasks and their results are what every request of every process reads:
 * with 10,000 processes they span tens of megabytes, and each request
 * touching them in 4 KiB pages costs TLB misses (issue 34). An array of 2
 * MiB or more starts at a 2 MiB boundary and asks for transparent huge
 * pages (madvise; nothing changes where the system does not give them).
 * Freed with free().
 */
static void *plan_array(size_t n, size_t size, size_t align)
{
	const size_t huge = (size_t)2 << 20;
	size_t bytes = n * size;
	void *p;

	if (n && bytes / n != size)
		return NULL;
	bytes = (bytes + align - 1) / align * align;	/* aligned_alloc wants a multiple */
	if (bytes >= huge) {
		bytes = (bytes + huge - 1) / huge * huge;
		p = aligned_alloc(huge, bytes);
#ifdef MADV_HUGEPAGE
		if (p)
			(void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
	} else {
		p = aligned_alloc(align, bytes ? bytes : align);
	}
	if (p)
		memset(p, 0, bytes);
	return p;
}

/*
 * Tasks: one per clone, in job order. The count is not capped (fio's
 * 4096 is not iosched's), but it is summed wide: 2^20 sections of
 * numjobs=4096 wrapped an unsigned count to 0 and the clones were
 * written past a zero-length array. A count beyond what task indexes
 * and pids (1000 + index, 32 bits) can number is refused; below that
 * the allocations fail cleanly with "out of memory".
 */
static int plan_alloc_tasks(struct run_ctx *c, struct ios_err *e)
{
	const struct ios_jobfile *jf = c->jf;
	struct ios_run_result *out = c->res;
	uint64_t want_tasks = 0;
	unsigned nr_tasks, max_jobs = 0;
	int ret;

	for (size_t i = 0; i < jf->nr_jobs; i++) {
		want_tasks += jf->jobs[i].numjobs ? jf->jobs[i].numjobs : 1;
		if (jf->jobs[i].max_jobs > max_jobs)
			max_jobs = jf->jobs[i].max_jobs;
	}
	/* fio counts every section's clones against one max_jobs */
	if (jf->nr_jobs && want_tasks > max_jobs)
		return IOS_ERR(e, -E2BIG, "%s: %" PRIu64 " jobs in all (sections times their "
			       "numjobs): more than max_jobs=%u (fio's limit is 4096); set "
			       "max_jobs=%" PRIu64 " in [global] to run them",
			       jf->jobs[0].file ? jf->jobs[0].file : "job file", want_tasks,
			       max_jobs, want_tasks);
	/* the file count too, before a million tasks are allocated to find it */
	ret = ios_run_layout_count(jf, c->replay, e);
	if (ret)
		return ret;
	if (want_tasks > UINT32_MAX - 1000)
		return IOS_ERR(e, -E2BIG, "%" PRIu64 " jobs in all (sections times their numjobs): "
			       "more than the %" PRIu32 " one run can number", want_tasks,
			       (uint32_t)(UINT32_MAX - 1000));
	nr_tasks = (unsigned)want_tasks;
	c->tasks = plan_array(nr_tasks, sizeof(*c->tasks), _Alignof(struct run_task));
	c->phase_left = calloc(nr_tasks + 1, sizeof(*c->phase_left));
	out->jobs = plan_array(nr_tasks, sizeof(*out->jobs), _Alignof(struct ios_job_result));
	if (!c->tasks || !c->phase_left || !out->jobs || !ios_run_cgroup_get(c, ""))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	c->nr_tasks = nr_tasks;
	out->nr_jobs = nr_tasks;
	return 0;
}

/* cgroup_weight=: the weight of the job's cgroup, the same for every job in it */
static int plan_cgroup_weight(const struct ios_job *j, struct ios_cgroup *cg, struct ios_err *e)
{
	const char *wf = j->cgroup_weight_file ? j->cgroup_weight_file : j->file ? j->file : "?";
	int wl = j->cgroup_weight_file ? j->cgroup_weight_line : j->line;

	if (!cg->id)
		return IOS_ERR(e, -EINVAL,
			       "%s:%d: job '%s': cgroup_weight=%u needs a cgroup= "
			       "(the root group's weight is fixed)",
			       wf, wl, j->name, j->cgroup_weight);
	if (cg->weight && cg->weight != j->cgroup_weight)
		return IOS_ERR(e, -EINVAL,
			       "%s:%d: job '%s': cgroup_weight=%u for cgroup '%s', which "
			       "an earlier job gave weight %u",
			       wf, wl, j->name, j->cgroup_weight, cg->path, cg->weight);
	cg->weight = j->cgroup_weight;
	return 0;
}

/*
 * Each job's clones: their cgroup, stonewall phase, pid, name, random stream
 * and CPU (cpu_map.c: the jobs' cpus_allowed/cpumask count on blk-mq only).
 */
static int plan_tasks(struct run_ctx *c, struct ios_err *e)
{
	const struct ios_jobfile *jf = c->jf;
	unsigned phase = 0, idx = 0;
	struct ios_cpu_map cm;
	int ret = plan_alloc_tasks(c, e);

	if (ret)
		return ret;
	ios_cpu_map_init(&cm, (unsigned)c->lab.cpus, ios_run_is_mq(c));
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		unsigned n = j->numjobs ? j->numjobs : 1;
		struct ios_cgroup *cg = ios_run_cgroup_get(c, j->cgroup);

		if (!cg)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		if (j->cgroup_weight && (ret = plan_cgroup_weight(j, cg, e)))
			return ret;
		if (i && j->stonewall)
			phase++;
		for (unsigned k = 0; k < n; k++, idx++) {
			struct run_task *t = &c->tasks[idx];
			uint64_t rseed = j->randseed_set ? j->randseed : c->cfg->seed;

			t->job = j;
			t->index = idx;
			t->clone = k;
			t->phase = phase;
			t->res = &c->res->jobs[idx];
			t->ioc.pid = 1000 + idx;
			snprintf(t->ioc.comm, sizeof(t->ioc.comm), "%s", j->name ? j->name : "fio");
			t->ioc.cgroup = cg;
			t->replay = c->replay || (j->read_iolog && *j->read_iolog);
			ret = ios_cpu_map_task(&cm, j, k, &t->ioc.cpu, e);
			if (ret)
				return ret;
			ios_rand_seed(&t->rng, rseed, ((uint64_t)i << 20) | k);
			c->phase_left[phase]++;
		}
	}
	c->nr_phases = phase + 1;
	return 0;
}

/*
 * Written-back pages reach the disk: the plot series count them for the
 * task whose buffered write dirtied them (pids are 1000 + task index; a
 * replay's own pids are not matched and are left out).
 */
static void plan_wb_done(void *arg, uint32_t owner, uint64_t bytes, uint64_t now)
{
	struct run_ctx *c = arg;
	uint32_t idx = owner - 1000;

	if (!c->series || c->series_err || owner < 1000 || idx >= c->nr_tasks ||
	    c->tasks[idx].ioc.pid != owner)
		return;
	c->series_err = ios_series_add_disk(c->series, idx, now, bytes);
}

/*
 * lab.cgroup_writeback: on blk-mq runs that name a cgroup (Linux 6.12 has
 * cgroup writeback on whenever the filesystem supports it); without a
 * cgroup every inode would be the root's, which is the one flusher of
 * 2.6.31, so those runs keep it. The single-queue layer refuses the
 * setting: its 2.6.31 flusher has no cgroup writeback (Linux 4.2 added it).
 */
static int plan_cgroup_writeback(struct run_ctx *c, struct ios_err *e)
{
	if (!ios_run_is_mq(c)) {
		for (size_t i = 0; c->set && i < c->set->n; i++)
			if (!strcmp(c->set->v[i].name, "lab.cgroup_writeback"))
				return IOS_ERR(e, -EINVAL, "%s%slab.cgroup_writeback=%s: cgroup "
					       "writeback is modelled on blk-mq (Linux 6.12); %s "
					       "runs the single-queue layer, whose 2.6.31 flusher "
					       "has none", c->set->v[i].origin,
					       *c->set->v[i].origin ? ": " : "", c->set->v[i].value,
					       c->q->sched->name);
		return 0;
	}
	if (!c->lab.cgroup_writeback || c->nr_cgroups <= 1)
		return 0;
	if (ios_vfs_cgwb_enable(c->vfs, c->cgroups[0]))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* The page cache over the queue, and an inode for every file laid out. */
static int plan_vfs(struct run_ctx *c, struct ios_err *e)
{
	struct ios_vfs_config vc = {
		.sim = c->sim,
		.q = c->q,
		.fs = c->fs,
		.vm = &c->vm,
		.read_ahead_bytes = c->q->tun.read_ahead_bytes,
		.flusher_pid = 100,
		.cache_flush = c->lab.barrier,
		.page_copy_ns = c->lab.page_copy_ns,
		.wb_done = plan_wb_done,
		.wb_arg = c,
		/* ext4's commit=0 means the default, JBD2_DEFAULT_MAX_COMMIT_AGE */
		.jbd2_commit_ns = (uint64_t)(c->lab.ext4_commit_s ? c->lab.ext4_commit_s : 5) *
				  IOS_NSEC_PER_SEC,
		.jbd2_dioread_nolock = c->lab.ext4_dioread_nolock,
		.jbd2_pid = 101,
	};
	int ret;

	c->vfs = ios_vfs_create(&vc, e);
	if (!c->vfs)
		return e && e->code ? e->code : -ENOMEM;
	ios_vfs_flusher_ioc(c->vfs)->cgroup = c->cgroups[0];
	/* kjournald2 is a kernel thread: the root cgroup */
	if (ios_vfs_jbd2_ioc(c->vfs))
		ios_vfs_jbd2_ioc(c->vfs)->cgroup = c->cgroups[0];
	ret = plan_cgroup_writeback(c, e);
	if (ret)
		return ret;
	ret = run_warn_dirty_limits(&c->vm, c->res);
	if (ret)
		return ret;
	for (struct run_file *f = c->files; f; f = f->next) {
		f->inode = ios_vfs_inode(c->vfs, f->fsf);
		/* a file a filecreate job makes was never written: its metadata is cold */
		if (!f->inode || (!f->preexisting && !f->absent &&
				  ios_vfs_warm_meta(c->vfs, f->inode)))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	return ios_run_fileop_files(c, e);
}

/* Every task set up, with its result slot and the job's reporting group. */
static int plan_setup_tasks(struct run_ctx *c, struct ios_err *e)
{
	const struct ios_jobfile *jf = c->jf;
	unsigned idx = 0;
	int ret, gid = 0;

	/* a section after the first opens a group with stonewall or new_group */
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		unsigned n = j->numjobs ? j->numjobs : 1;

		if (i && (j->stonewall || j->new_group))
			gid++;
		for (unsigned k = 0; k < n; k++, idx++) {
			ret = ios_run_task_setup(c, &c->tasks[idx], e);
			if (!ret)
				ret = init_result_job(c, &c->tasks[idx], gid, e);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int ios_run_plan(struct run_ctx *c, struct ios_err *e)
{
	const struct ios_jobfile *jf = c->jf;
	struct ios_run_result *out = c->res;
	int ret = plan_tasks(c, e);

	if (!ret)
		ret = ios_run_cgroups_check(c, c->q->sched, c->set, out, e);
	if (ret)
		return ret;
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		char w[300];

		if (j->blockalign_nomap &&
		    (ret = ios_run_fio_warn(c, e, "%s: fio: Any use of blockalign= turns off "
					    "randommap", ios_run_job_where_opt(j, NULL, w, sizeof(w)))))
			return ret;
		/* fio 3.33 says this (log_err) and runs the job without time_based */
		if (j->time_based && !j->runtime_ns &&
		    (ret = ios_run_fio_warn(c, e, "%s: time_based requires a runtime/timeout "
					    "setting; the job runs without time_based, as in fio",
					    ios_run_job_where_opt(j, NULL, w, sizeof(w)))))
			return ret;
	}
	ret = ios_run_layout_files(c, e);
	if (!ret && c->real && !(ret = ios_run_real_check(c, e)))
		ret = ios_run_real_attach(c, e);
	if (!ret)
		ret = plan_vfs(c, e);
	if (ret)
		return ret;
	for (size_t i = 0; i < jf->nr_jobs && !c->logs; i++) {
		const struct ios_job *j = &jf->jobs[i];

		if ((j->write_bw_log || j->write_lat_log || j->write_iops_log) &&
		    !(c->logs = ios_fiolog_set_new()))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	if (c->cfg->record_series && (ret = series_setup(c, e)))
		return ret;
	ret = plan_setup_tasks(c, e);
	if (!ret && c->series && c->cfg->record_timeline)
		ret = timeline_setup(c, e);
	return ret ? ret : ios_run_jobctl_setup(c, e);
}
