/*
 * One run: build the simulated machine, run it, collect the results.
 *
 * Setup order: lab tunables, the device (profile + device.* settings), the
 * request queue with the scheduler (queue.* and scheduler settings), every
 * setting checked for a taker, one task per job clone, files laid out, tasks
 * set up. Then the stonewall phases run one after the other: the jobs of a
 * phase start together (each after its startdelay), and the next phase
 * starts when the last job of the previous one has finished.
 *
 * The simulated device sits under the queue through the queue's host ops:
 * issue() submits to the device model and re-arms the device's event;
 * set_timer() arms the scheduler's wake-up. Both are re-armable timers on
 * the event queue, so nothing here ever scans for work.
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"
#include "iosched/scope.h"

/* in enum ios_fs_type order */
static const char *const lab_fs_names[] = { "ext3", "extent", "raw", NULL };
/* in enum ios_group_policy order */
static const char *const lab_group_policies[] = { "blkio", "tarasov2008", "uchida2008", NULL };

const struct ios_tunable ios_lab_tunables_table[] = {
	{ "file_size", IOS_TUN_SIZE, offsetof(struct ios_lab_tunables, file_size),
	  0, INT64_MAX, "0", "B",
	  "size of files that exist before the run (0: a file a job reads needs a size)", 0, NULL },
	{ "submit_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, submit_ns),
	  0, 1000000000, "2000", "ns",
	  "CPU time from fio issuing an I/O to its bio reaching the request queue", 0, NULL },
	{ "complete_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, complete_ns),
	  0, 1000000000, "3000", "ns",
	  "time from a device completion to the task running again", 0, NULL },
	{ "file_align", IOS_TUN_SIZE, offsetof(struct ios_lab_tunables, file_align),
	  4096, 1073741824, "1048576", "B",
	  "where raw and extent files start: a multiple of 4096 bytes", 0, NULL },
	{ "fs", IOS_TUN_ENUM, offsetof(struct ios_lab_tunables, fs), 0, 0, "ext3", "",
	  "filesystem layout under the jobs' files (see docs/filesystems.md)", 0, lab_fs_names },
	{ "page_copy_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, page_copy_ns),
	  0, 1000000000, "1000", "ns",
	  "CPU time to copy one 4 KiB page between the page cache and the program", 0, NULL },
	{ "barrier", IOS_TUN_BOOL, offsetof(struct ios_lab_tunables, barrier), 0, 1, "1", "",
	  "fsync and O_SYNC writes end with a flush of the drive's write cache", 0, NULL },
	{ "creator_pid", IOS_TUN_INT, offsetof(struct ios_lab_tunables, creator_pid), 0, 4194304,
	  "0", "", "pid of the process that wrote the first file before the run (the next file "
	  "pid+1, ...): ext3 starts a file (pid % 16)/16 of a group into its inode's group; "
	  "0: chosen from the seed", 0, NULL },
	{ "max_sim_time", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, max_sim_time_ns),
	  0, INT64_MAX / 1000000000, "86400", "s",
	  "jobs stop issuing I/O at this simulated time (0: no limit)", 0, NULL },
	{ "cross_queue_merge", IOS_TUN_BOOL, offsetof(struct ios_lab_tunables, cross_queue_merge),
	  0, 1, "0", "",
	  "1: bios merge into any adjacent request, ignoring the scheduler's veto "
	  "(the block layer before Linux 2.6.20)", 0, NULL },
	{ "group_policy", IOS_TUN_ENUM, offsetof(struct ios_lab_tunables, group_policy), 0, 0,
	  "blkio", "",
	  "how cgroups share the disk: blkio (the kernel's own), or the 2008 LKML designs "
	  "tarasov2008 / uchida2008, rebuilt on --scheduler cfq (docs/cfq-groups.md)",
	  0, lab_group_policies },
	{ "ttime_back_to_back", IOS_TUN_BOOL, offsetof(struct ios_lab_tunables, ttime_back_to_back),
	  0, 1, "0", "",
	  "1: CFQ 2.6.31 (--scheduler cfq) samples a process's think time only when its previous "
	  "request completed in its queue's slice and that slice is still running (Divyesh Shah's "
	  "2009 proposal, seed 000; docs/cfq.md)", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

/* ---- host ops: the simulated device under the queue ---- */

static void ev_dev(struct ios_sim *sim, void *arg, uint64_t data);

static void dev_rearm(struct run_ctx *c)
{
	uint64_t when = c->dev->type->ops.next_event(c->dev);

	if (when != IOS_NO_WAKEUP && when < c->sim.now)
		when = c->sim.now;
	(void)ios_timer_arm(&c->sim, &c->dev_timer, when, ev_dev, c);
}

static void ev_dev(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_ctx *c = arg;
	struct ios_request *rq;

	if (!ios_timer_fire(&c->dev_timer, data))
		return;
	while ((rq = c->dev->type->ops.complete(c->dev, sim->now)) != NULL)
		ios_queue_complete(c->q, rq, sim->now, rq->error);
	dev_rearm(c);
}

static void host_issue(void *host, struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct run_ctx *c = host;
	int ret = c->dev->type->ops.submit(c->dev, rq, now);

	(void)q;
	if (ret) {
		/* the device refused: complete at once with the error */
		rq->error = ret;
		ios_queue_complete(c->q, rq, now, ret);
		return;
	}
	dev_rearm(c);
}

static void ev_qtimer(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_ctx *c = arg;

	if (!ios_timer_fire(&c->q_timer, data))
		return;
	ios_queue_timer(c->q, sim->now);
}

static void host_set_timer(void *host, struct ios_queue *q, uint64_t when)
{
	struct run_ctx *c = host;

	(void)q;
	if (when == IOS_NO_WAKEUP)
		ios_timer_cancel(&c->q_timer);
	else
		(void)ios_timer_arm(&c->sim, &c->q_timer, when < c->sim.now ? c->sim.now : when,
				    ev_qtimer, c);
}

static const struct ios_queue_host_ops sim_host_ops = {
	.issue = host_issue,
	.set_timer = host_set_timer,
};

/* ---- phases ---- */

static void ev_start(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_task *t = arg;

	(void)data;
	t->ctx->running++;
	/* exitall fired before this job's start delay ran out: it ends at once */
	if (t->ctx->exitall)
		t->stop = true;
	run_task_start(t, sim->now);
}

static void start_phase(struct run_ctx *c, unsigned phase, uint64_t now)
{
	c->cur_phase = phase;
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *t = &c->tasks[i];
		const struct ios_job *j = t->job;
		uint64_t delay = j->startdelay_lo_ns;

		if (t->phase != phase)
			continue;
		if (c->replay)
			delay = run_replay_start_delay(t);	/* the process appears at its first I/O */
		else if (j->startdelay_hi_ns > j->startdelay_lo_ns)
			delay += ios_rand_below(&t->rng, j->startdelay_hi_ns - j->startdelay_lo_ns + 1);
		(void)ios_sim_at(&c->sim, now + delay, ev_start, t, 0);
	}
}

void run_task_finished(struct run_ctx *c, struct run_task *t, uint64_t now)
{
	c->running--;
	c->phase_left[t->phase]--;
	if (t->job->exitall && !c->exitall) {
		c->exitall = true;
		for (unsigned i = 0; i < c->nr_tasks; i++)
			run_task_stop_now(&c->tasks[i], now);
	}
	if (c->phase_left[c->cur_phase])
		return;
	for (unsigned p = c->cur_phase + 1; p < c->nr_phases; p++) {
		if (c->phase_left[p]) {
			start_phase(c, p, now);
			return;
		}
	}
	/*
	 * The jobs are done. Writeback already in flight completes (the
	 * simulation runs on until the device is idle); no new writeback
	 * starts: dirty pages left stay in memory, as after a real run.
	 */
	c->end_ns = now;
	c->all_done = true;
	ios_vfs_quiesce(c->vfs);
}

/* ---- progress (read-only observer of the simulation) ---- */

static double task_progress(const struct run_task *t, uint64_t now)
{
	double f = 0.0;

	if (t->state == TS_DONE)
		return 1.0;
	if (t->state == TS_NEW)
		return 0.0;
	/* whichever bound is nearer: runtime= (or lab.max_sim_time) or bytes */
	if (t->deadline_ns != UINT64_MAX && t->deadline_ns > t->start_ns && now > t->start_ns)
		f = (double)(now - t->start_ns) / (double)(t->deadline_ns - t->start_ns);
	if (t->io_target != UINT64_MAX && t->io_target) {
		double b = (double)(t->bytes_done[0] + t->bytes_done[1]) / (double)t->io_target;

		if (b > f)
			f = b;
	}
	return f > 1.0 ? 1.0 : f;
}

struct run_progress_arg {
	struct run_ctx *c;
	const struct ios_run_config *cfg;
};

static void run_progress_tick(struct ios_sim *sim, void *arg)
{
	const struct run_progress_arg *pa = arg;
	const struct run_ctx *c = pa->c;
	struct ios_run_progress p = { sim->now, sim->nr_events, 0.0 };
	double sum = 0.0, exitall = 0.0;

	for (unsigned i = 0; i < c->nr_tasks; i++) {
		double f = task_progress(&c->tasks[i], sim->now);

		sum += f;
		if (c->tasks[i].job->exitall && f > exitall)
			exitall = f;
	}
	p.fraction = c->nr_tasks ? sum / c->nr_tasks : 0.0;
	if (exitall > p.fraction)
		p.fraction = exitall;
	pa->cfg->progress(pa->cfg->progress_arg, &p);
}

/* ---- set-up helpers ---- */

static int check_settings(const struct ios_settings *s, struct ios_err *e)
{
	if (!s)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct ios_setting *st = &s->v[i];
		const struct ios_scope *sc = ios_scope_of(st->name);
		char hint[256];

		/* bare names are the scheduler's; cgroup.*: applied once the groups are known */
		if (!strchr(st->name, '.') || st->used || (sc && sc->resolve == IOS_SCOPE_PATTERN))
			continue;
		if (sc && sc->where == IOS_SCOPE_REPLAY_ONLY &&
		    ios_tunable_find(sc->table, st->name + strlen(sc->prefix)))
			return IOS_ERR(e, -EINVAL, "%s%s'%s' applies to 'iosched replay' and to jobs "
				       "with read_iolog= only",
				       st->origin, *st->origin ? ": " : "", st->name);
		if (!sc)
			return IOS_ERR(e, -ENOENT, "%s%sunknown tunable '%s': names are %s",
				       st->origin, *st->origin ? ": " : "", st->name,
				       ios_scope_hint(hint, sizeof(hint)));
		return IOS_ERR(e, -ENOENT, "%s%sunknown tunable '%s' (see 'iosched list')",
			       st->origin, *st->origin ? ": " : "", st->name);
	}
	return 0;
}

/*
 * lab.ttime_back_to_back is built on the 2.6.31 profile only: another CFQ
 * (2.6.33, 4.19, or 2.6.31 under a 2008 group policy) refuses it rather
 * than run without it; a scheduler that is no CFQ has no such sample and
 * says so in the run's warnings, as lab.group_policy does.
 */
static int run_check_ttime_back_to_back(struct run_ctx *c, const struct ios_sched_type *st,
					struct ios_run_result *out, struct ios_err *e)
{
	if (!c->lab.ttime_back_to_back || st == ios_sched_find("cfq"))
		return 0;
	if (!strncmp(st->name, "cfq", 3))
		return IOS_ERR(e, -EINVAL, "lab.ttime_back_to_back=1: built on the 2.6.31 profile "
			       "only (--scheduler cfq, without lab.group_policy), not %s", st->name);
	if (run_warn(out, "lab.ttime_back_to_back=1 has no effect: %s is not CFQ (it is built "
		     "on --scheduler cfq)", st->name))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
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
	return 0;
}

static void ctx_free(struct run_ctx *c)
{
	/*
	 * The queue goes first: a scheduler's exit may still look at the io
	 * contexts it holds state for (the tasks' and the flusher's), which
	 * live in c->tasks and c->vfs.
	 */
	if (c->q)
		ios_queue_destroy(c->q);
	c->q = NULL;
	if (c->tasks)
		for (unsigned i = 0; i < c->nr_tasks; i++)
			run_task_free(&c->tasks[i]);
	free(c->tasks);
	free(c->phase_left);
	run_files_free(c);
	run_cgroups_free(c);
	ios_fiolog_set_free(c->logs);
	ios_series_free(c->series);
	free(c->series);
	if (c->vfs)
		ios_vfs_destroy(c->vfs);
	if (c->fs)
		ios_fs_destroy(c->fs);
	if (c->dev)
		ios_dev_destroy(c->dev);
	ios_sim_destroy(&c->sim);
}

/*
 * A job or replayed process that lab.max_sim_time (or the end of the
 * simulated clock) stopped with work left: say what was cut, so a truncated
 * result is never taken for a whole one.
 */
static int run_warn_cut(const struct run_ctx *c, const struct run_task *t,
			struct ios_run_result *out)
{
	char lim[128], w[300];
	uint64_t ios = t->ios_issued[IOS_READ] + t->ios_issued[IOS_WRITE];

	if (t->deadline_ns == c->lab.max_sim_time_ns)
		snprintf(lim, sizeof(lim), "lab.max_sim_time=%.9g s",
			 (double)c->lab.max_sim_time_ns / 1e9);
	else
		snprintf(lim, sizeof(lim), "the end of the simulated clock (%.4g s; lab.max_sim_time=0)",
			 (double)RUN_CLOCK_END_NS / 1e9);
	if (t->replay)
		return run_warn(out, "replay of process %" PRIu32 " (%s): stopped by %s: %" PRIu64
				" of %" PRIu64 " I/Os replayed", t->ioc.pid, t->ioc.comm, lim, ios,
				run_replay_total_ios(t));
	run_job_where_opt(t->job, NULL, w, sizeof(w));
	if (t->io_target != UINT64_MAX)
		return run_warn(out, "%s (pid %" PRIu32 "): stopped by %s: %" PRIu64 " I/Os, %" PRIu64
				" of %" PRIu64 " bytes issued", w, t->ioc.pid, lim, ios, t->io_issued,
				t->io_target);
	return run_warn(out, "%s (pid %" PRIu32 "): stopped by %s, %.9g s before the end of its "
			"runtime: %" PRIu64 " I/Os issued", w, t->ioc.pid, lim,
			(double)(t->ramp_end_ns + t->job->runtime_ns - t->deadline_ns) / 1e9, ios);
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
		ret = run_warn(out, "vm.dirty_ratio=%d counts as %d: Linux 2.6.31's get_dirty_limits "
			       "never sets the dirty limit below %d%% of memory (%llu pages)",
			       vm->dirty_ratio, IOS_VM_MIN_DIRTY_RATIO, IOS_VM_MIN_DIRTY_RATIO,
			       (unsigned long long)d);
	if (!ret && (adj & IOS_VM_BACKGROUND_HALVED))
		ret = run_warn(out, "vm.dirty_background_ratio=%d is not below the dirty limit "
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
	for (int d = 0; d < IOS_DDIR_NR; d++) {
		struct ios_dir_result *dr = &r->dir[d];

		ios_lat_init(&dr->slat);
		ios_lat_init(&dr->clat);
		ios_lat_init(&dr->lat);
		if ((j->clat_percentiles && ios_lat_enable_hist(&dr->clat)) ||
		    (j->lat_percentiles && ios_lat_enable_hist(&dr->lat)) ||
		    (j->slat_percentiles && ios_lat_enable_hist(&dr->slat)))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	ios_lat_init(&r->sync_lat);
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
	(void)c;
	return 0;
}

/* Does a job replay a trace (read_iolog=) instead of its pattern? */
static bool jobs_read_iolog(const struct ios_jobfile *jf)
{
	for (size_t i = 0; i < jf->nr_jobs; i++)
		if (jf->jobs[i].read_iolog && *jf->jobs[i].read_iolog)
			return true;
	return false;
}

/*
 * ioscheduler=: fio switches the device's scheduler as each job sets up
 * (backend.c, switch_ioscheduler; not for diskless engines such as null) and
 * leaves it switched. The simulated device has one scheduler for the whole
 * run, so the switch is modelled when it happens before any I/O: the jobs
 * that ask must agree, and either every job asks (later switches to the same
 * scheduler change nothing) or the askers start first (first phase, no
 * startdelay). Anything else would switch under running or finished jobs,
 * and is refused. --scheduler says the same thing a second time: an error.
 */
static int run_job_sched(const struct ios_jobfile *jf, const struct ios_run_config *cfg,
			 const char **schedname, struct ios_run_result *out, struct ios_err *e)
{
	const struct ios_job *first = NULL;
	bool all = true;

	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		const char *f = j->ioscheduler_file ? j->ioscheduler_file : j->file ? j->file : "?";
		int l = j->ioscheduler_file ? j->ioscheduler_line : j->line;

		if (!j->ioscheduler || j->read_iolog) {
			all = false;
			continue;
		}
		if (j->ioengine == IOS_ENGINE_NULL) {
			all = false;
			if (run_warn(out, "%s:%d: job '%s': ioscheduler=%s has no effect with "
				     "ioengine=null (fio switches no scheduler for a diskless engine)",
				     f, l, j->name, j->ioscheduler))
				return IOS_ERR(e, -ENOMEM, "out of memory");
			continue;
		}
		if (cfg->scheduler)
			return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': ioscheduler=%s conflicts with "
				       "--scheduler %s (the job file already chooses the device's "
				       "scheduler: drop one of them)", f, l, j->name, j->ioscheduler,
				       cfg->scheduler);
		if (!first) {
			first = j;
			continue;
		}
		if (ios_sched_find(j->ioscheduler) != ios_sched_find(first->ioscheduler))
			return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': ioscheduler=%s, but job '%s' "
				       "(%s:%d) switches the device to %s: the run has one device, "
				       "hence one scheduler", f, l, j->name, j->ioscheduler,
				       first->name, first->ioscheduler_file, first->ioscheduler_line,
				       first->ioscheduler);
	}
	if (!first)
		return 0;
	if (!all) {
		const struct ios_job *late = NULL;
		unsigned phase = 0;

		for (size_t i = 0; i < jf->nr_jobs; i++) {
			const struct ios_job *j = &jf->jobs[i];

			if (i && j->stonewall)
				phase++;
			if (!j->ioscheduler || j->read_iolog || j->ioengine == IOS_ENGINE_NULL)
				continue;
			if (!phase && !j->startdelay_lo_ns && !j->startdelay_hi_ns) {
				late = NULL;	/* switched at the start: later ones change nothing */
				break;
			}
			if (!late)
				late = j;
		}
		if (late)
			return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': ioscheduler=%s would switch the "
				       "scheduler after other jobs have started (%s); iosched runs "
				       "one scheduler per run: set ioscheduler= for every job "
				       "([global]) or in a job that starts first",
				       late->ioscheduler_file, late->ioscheduler_line, late->name,
				       late->ioscheduler, late->startdelay_lo_ns || late->startdelay_hi_ns
				       ? "startdelay" : "it waits behind a stonewall");
	}
	*schedname = first->ioscheduler;
	return 0;
}

int ios_run(const struct ios_jobfile *jf, const struct ios_run_config *cfg,
	    struct ios_run_result *out, struct ios_err *e)
{
	struct ios_settings *set = NULL;
	struct ios_queue_config qc;
	struct run_progress_arg pa;
	struct run_ctx *c;
	const char *schedname = cfg->scheduler ? cfg->scheduler : IOS_DEFAULT_SCHEDULER;
	const char *profile = cfg->device ? cfg->device : IOS_DEV_DEFAULT_PROFILE;
	unsigned nr_tasks = 0, phase = 0, idx = 0;
	uint64_t want_tasks = 0;
	int groupid = 0, ret;

	memset(out, 0, sizeof(*out));
	if (!jf || !jf->nr_jobs)
		return IOS_ERR(e, -EINVAL, "no jobs to run");
	c = calloc(1, sizeof(*c));
	if (!c)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	c->files_tail = &c->files;
	c->seed = cfg->seed;
	c->res = out;
	c->jf = jf;
	c->e = e;
	ios_timer_init(&c->dev_timer);
	ios_timer_init(&c->q_timer);
	ret = ios_sim_init(&c->sim);
	if (ret) {
		free(c);
		return IOS_ERR(e, ret, "out of memory");
	}

	/* private copy: 'used' marks are per run */
	set = calloc(1, sizeof(*set));
	if (!set || (cfg->settings && ios_settings_copy(set, cfg->settings))) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}

	ret = ios_scope_setup(IOS_SCOPE_LAB, set, &c->lab, e);
	if (!ret)
		ret = ios_scope_setup(IOS_SCOPE_VM, set, &c->vm, e);
	if (!ret && (cfg->replay || jobs_read_iolog(jf))) {
		c->replay = cfg->replay;
		ret = ios_scope_setup(IOS_SCOPE_REPLAY, set, &c->replay_tun, e);
	}
	if (ret)
		goto out;
	if (c->lab.file_align % 4096) {
		ret = IOS_ERR(e, -EINVAL, "lab.file_align=%" PRIu64 ": must be a multiple of 4096",
			      c->lab.file_align);
		goto out;
	}

	ret = run_job_sched(jf, cfg, &schedname, out, e);
	if (ret)
		goto out;
	if (!ios_sched_find(schedname)) {
		char names[256] = "";
		const struct ios_sched_type *st;

		for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++) {
			strncat(names, i ? ", " : "", sizeof(names) - strlen(names) - 1);
			strncat(names, st->name, sizeof(names) - strlen(names) - 1);
		}
		ret = IOS_ERR(e, -ENOENT, "unknown scheduler '%s' (known: %s)", schedname, names);
		goto out;
	}

	c->dev = ios_dev_create(profile, set, ios_mix64(cfg->seed ^ 0x6465766963650000ULL), e);
	if (!c->dev) {
		ret = e && e->code ? e->code : -EINVAL;
		goto out;
	}

	memset(&qc, 0, sizeof(qc));
	qc.id = 0;
	qc.disk_name = c->dev->name[0] ? c->dev->name : "sda";
	qc.sched = ios_sched_find(schedname);
	ret = run_cgroups_sched(c, &qc.sched, out, e);
	if (!ret)
		ret = run_check_ttime_back_to_back(c, qc.sched, out, e);
	if (ret)
		goto out;
	qc.settings = set;
	qc.depth = c->dev->type->ops.queue_depth(c->dev);
	qc.rotational = (ios_dev_caps(c->dev) & IOS_DEV_ROTATIONAL) != 0;
	qc.capacity_sectors = c->dev->nr_sectors;
	qc.host_ops = &sim_host_ops;
	qc.host = c;
	qc.ignore_allow_merge = c->lab.cross_queue_merge;
	qc.ttime_back_to_back = c->lab.ttime_back_to_back != 0;
	qc.trace_ops = cfg->trace_ops;
	qc.trace = cfg->trace;
	c->q = ios_queue_create(&qc, e);
	if (!c->q) {
		ret = e && e->code ? e->code : -EINVAL;
		goto out;
	}
	ret = check_settings(set, e);
	if (ret)
		goto out;

	/*
	 * tasks: one per clone, in job order. The count is not capped (fio's
	 * 4096 is not iosched's), but it is summed wide: 2^20 sections of
	 * numjobs=4096 wrapped an unsigned count to 0 and the clones were
	 * written past a zero-length array. A count beyond what task indexes
	 * and pids (1000 + index, 32 bits) can number is refused; below that
	 * the allocations fail cleanly with "out of memory".
	 */
	for (size_t i = 0; i < jf->nr_jobs; i++)
		want_tasks += jf->jobs[i].numjobs ? jf->jobs[i].numjobs : 1;
	if (want_tasks > UINT32_MAX - 1000) {
		ret = IOS_ERR(e, -E2BIG, "%" PRIu64 " jobs in all (sections times their numjobs): "
			      "more than the %" PRIu32 " one run can number", want_tasks,
			      (uint32_t)(UINT32_MAX - 1000));
		goto out;
	}
	nr_tasks = (unsigned)want_tasks;
	c->tasks = calloc(nr_tasks, sizeof(*c->tasks));
	c->phase_left = calloc(nr_tasks + 1, sizeof(*c->phase_left));
	out->jobs = calloc(nr_tasks, sizeof(*out->jobs));
	if (!c->tasks || !c->phase_left || !out->jobs || !run_cgroup_get(c, "")) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	c->nr_tasks = nr_tasks;
	out->nr_jobs = nr_tasks;
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		unsigned n = j->numjobs ? j->numjobs : 1;
		struct ios_cgroup *cg = run_cgroup_get(c, j->cgroup);

		if (!cg) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto out;
		}
		if (j->cgroup_weight) {
			const char *wf = j->cgroup_weight_file ? j->cgroup_weight_file
							       : j->file ? j->file : "?";
			int wl = j->cgroup_weight_file ? j->cgroup_weight_line : j->line;

			if (!cg->id) {
				ret = IOS_ERR(e, -EINVAL,
					      "%s:%d: job '%s': cgroup_weight=%u needs a cgroup= "
					      "(the root group's weight is fixed)",
					      wf, wl, j->name, j->cgroup_weight);
				goto out;
			}
			if (cg->weight && cg->weight != j->cgroup_weight) {
				ret = IOS_ERR(e, -EINVAL,
					      "%s:%d: job '%s': cgroup_weight=%u for cgroup '%s', which "
					      "an earlier job gave weight %u",
					      wf, wl, j->name, j->cgroup_weight, cg->path, cg->weight);
				goto out;
			}
			cg->weight = j->cgroup_weight;
		}
		if (i && j->stonewall)
			phase++;
		if (i && (j->stonewall || j->new_group))
			groupid++;
		for (unsigned k = 0; k < n; k++, idx++) {
			struct run_task *t = &c->tasks[idx];
			uint64_t rseed = j->randseed_set ? j->randseed : cfg->seed;

			t->job = j;
			t->index = idx;
			t->clone = k;
			t->phase = phase;
			t->res = &out->jobs[idx];
			t->ioc.pid = 1000 + idx;
			snprintf(t->ioc.comm, sizeof(t->ioc.comm), "%s", j->name ? j->name : "fio");
			t->ioc.cgroup = cg;
			t->replay = c->replay || (j->read_iolog && *j->read_iolog);
			ios_rand_seed(&t->rng, rseed, ((uint64_t)i << 20) | k);
			c->phase_left[phase]++;
		}
	}
	c->nr_phases = phase + 1;
	ret = run_cgroups_check(c, c->q->sched, set, out, e);
	if (ret)
		goto out;
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		char w[300];

		/* fio 3.33 says this (log_err) and runs the job without time_based */
		if (j->time_based && !j->runtime_ns &&
		    (ret = run_warn(out, "%s: time_based requires a runtime/timeout setting; "
				    "the job runs without time_based, as in fio",
				    run_job_where_opt(j, NULL, w, sizeof(w)))))
			goto out;
	}

	ret = run_layout_files(c, e);
	if (ret)
		goto out;
	{
		struct ios_vfs_config vc = {
			.sim = &c->sim,
			.q = c->q,
			.fs = c->fs,
			.vm = &c->vm,
			.read_ahead_bytes = c->q->tun.read_ahead_bytes,
			.flusher_pid = 100,
			.cache_flush = c->lab.barrier,
			.page_copy_ns = c->lab.page_copy_ns,
		};

		c->vfs = ios_vfs_create(&vc, e);
		if (!c->vfs) {
			ret = e && e->code ? e->code : -ENOMEM;
			goto out;
		}
		ios_vfs_flusher_ioc(c->vfs)->cgroup = c->cgroups[0];
		ret = run_warn_dirty_limits(&c->vm, out);
		if (ret)
			goto out;
		for (struct run_file *f = c->files; f; f = f->next) {
			f->inode = ios_vfs_inode(c->vfs, f->fsf);
			if (!f->inode || (!f->preexisting && ios_vfs_warm_meta(c->vfs, f->inode))) {
				ret = IOS_ERR(e, -ENOMEM, "out of memory");
				goto out;
			}
		}
	}
	for (size_t i = 0; i < jf->nr_jobs && !c->logs; i++) {
		const struct ios_job *j = &jf->jobs[i];

		if ((j->write_bw_log || j->write_lat_log || j->write_iops_log) &&
		    !(c->logs = ios_fiolog_set_new())) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto out;
		}
	}
	if (cfg->record_series && (ret = series_setup(c, e)))
		goto out;
	idx = 0;
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		unsigned n = j->numjobs ? j->numjobs : 1;
		int gid = 0;

		for (size_t k = 0; k <= i; k++)
			if (k && (jf->jobs[k].stonewall || jf->jobs[k].new_group))
				gid++;
		for (unsigned k = 0; k < n; k++, idx++) {
			ret = run_task_setup(c, &c->tasks[idx], e);
			if (!ret)
				ret = init_result_job(c, &c->tasks[idx], gid, e);
			if (ret)
				goto out;
		}
	}

	start_phase(c, 0, 0);
	if (cfg->progress) {
		pa.c = c;
		pa.cfg = cfg;
		ios_sim_set_tick(&c->sim, run_progress_tick, &pa,
				 cfg->progress_every ? cfg->progress_every : IOS_RUN_PROGRESS_EVERY);
	}
	ret = ios_sim_run(&c->sim, IOS_NO_WAKEUP);
	if (ret) {
		IOS_ERR(e, ret, "simulation failed");
		goto out;
	}
	if (c->replay_err.code) {
		ret = c->replay_err.code;
		if (e)
			*e = c->replay_err;
		goto out;
	}
	if (!c->all_done || c->running || c->q->rq_in_driver || c->q->nr_sorted) {
		ret = IOS_ERR(e, -EDEADLK, "simulation stalled at %" PRIu64
			      " ns with %u jobs still running (an I/O never completed)",
			      c->sim.now, c->running);
		goto out;
	}

	/* the logs' last lines go out now; a write error fails the run */
	ret = ios_fiolog_set_close(c->logs, e);
	c->logs = NULL;
	if (ret)
		goto out;
	if (c->series_err) {
		ret = IOS_ERR(e, c->series_err, "out of memory recording the plot series");
		goto out;
	}
	if (c->series) {
		c->series->end_ns = c->end_ns;
		out->series = c->series;
		c->series = NULL;
	}

	/* results */
	ios_queue_stats_update(c->q, c->end_ns);
	out->disks = calloc(1, sizeof(*out->disks));
	if (!out->disks) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	out->nr_disks = 1;
	{
		struct ios_disk_result *d = &out->disks[0];
		const struct ios_disk_stats *s = &c->q->stats;

		snprintf(d->name, sizeof(d->name), "%s", c->q->disk_name);
		for (int k = 0; k < 2; k++) {
			d->ios[k] = s->ios[k];
			d->merges[k] = s->merges[k];
			d->sectors[k] = s->sectors[k];
			d->ticks_ms[k] = s->ticks_ns[k] / IOS_NSEC_PER_MSEC;
		}
		d->in_queue_ms = s->time_in_queue_ns / IOS_NSEC_PER_MSEC;
		d->util = c->end_ns ? 100.0 * (double)s->io_ticks_ns / (double)c->end_ns : 0.0;
		if (d->util > 100.0)
			d->util = 100.0;
	}
	out->jobfile = jf;
	snprintf(out->scheduler, sizeof(out->scheduler), "%s", c->q->sched->name);
	snprintf(out->device, sizeof(out->device), "%s", profile);
	out->seed = cfg->seed;
	out->sim_end_ns = c->end_ns;
	ios_vfs_get_stats(c->vfs, &out->vm_stats);
	if (c->q->sched->stats) {
		const struct ios_tunable *t = c->q->sched->stats;
		size_t n = 0;

		for (; t->name && n < sizeof(out->sched_stats) / sizeof(out->sched_stats[0]); t++, n++) {
			snprintf(out->sched_stats[n].name, sizeof(out->sched_stats[n].name), "%s",
				 t->name);
			out->sched_stats[n].value = t->type == IOS_TUN_U64
				? (int64_t)ios_tunable_get_u64(t, c->q->sched_data)
				: ios_tunable_get_int(t, c->q->sched_data);
		}
		out->nr_sched_stats = n;
	}
	out->nr_events = c->sim.nr_events;
	out->timestamp = 0;
	if (run_cgroups_result(c, out)) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		if (!c->tasks[i].cut)
			continue;
		out->jobs[i].cut_short = true;
		ret = run_warn_cut(c, &c->tasks[i], out);
		if (ret) {
			IOS_ERR(e, ret, "out of memory");
			goto out;
		}
	}
	/* cgroup paths point into the context: keep them in the result */
	for (size_t i = 0; i < out->nr_jobs; i++)
		out->jobs[i].cgroup = NULL;
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const char *p = c->tasks[i].ioc.cgroup->path;

		out->jobs[i].cgroup = *p ? c->tasks[i].job->cgroup : NULL;
	}
	ret = ios_run_result_group(out);
	if (ret)
		IOS_ERR(e, ret, "out of memory");
out:
	if (set) {
		ios_settings_free(set);
		free(set);
	}
	ctx_free(c);
	free(c);
	if (ret)
		ios_run_result_free(out);
	return ret;
}
