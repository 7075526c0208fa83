/*
 * One run: the runner's phases, one after the other.
 *
 *   configure  the run's own tunables (lab.*, vm.*, replay.*) and the
 *              scheduler's name (--scheduler, ioscheduler= or the default);
 *   build      the host (the disk below the queue, and the clock; host.h)
 *              with its device.* settings, and the request queue with the
 *              scheduler (queue.* and the scheduler's settings); then every
 *              setting must have found a taker;
 *   plan       (plan.c) tasks from the jobs, files laid out on the host's
 *              disk, the page cache on the queue, each task set up;
 *   loop       the first stonewall phase starts and the host runs until
 *              nothing is left to do; a run that stops with I/O in flight
 *              or jobs unfinished has stalled, and says so;
 *   collect    (collect.c) the result for the report writers.
 *
 * struct run_ctx (run_int.h) carries what one phase hands the next. Each
 * phase returns 0 or -errno with the error context filled, and ios_run
 * frees whatever was built, in one place. The order is the order of the
 * errors a user sees: settings before the device, the device before the
 * jobs, the jobs before their files.
 *
 * The host is chosen by ios_run_config.host (the simulator when NULL) and
 * reached only through its ops: the phases never see a device model or an
 * event-loop policy, so a host on a real disk plugs in under the same
 * phases (host.h says how). Tasks and the page cache arm their wake-ups on
 * the host's loop.
 *
 * Within the loop the stonewall phases run one after the other: the jobs of
 * a phase start together (each after its startdelay), and the next phase
 * starts when the last job of the previous one has finished.
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"
#include "verify.h"
#include "iosched/scope.h"
#include "iosched/suggest.h"

/* in enum ios_fs_type order, then IOS_LAB_FS_AUTO */
static const char *const lab_fs_names[] = { "ext3", "extent", "raw", "ext4", "auto", NULL };
/* in enum ios_group_policy order */
static const char *const lab_group_policies[] = { "blkio", "tarasov2008", "uchida2008", NULL };
static const char *const lab_cpu_models[] = { "measured", "zero", NULL };

/*
 * The lab.cpu.* defaults, each from the source docs/blk-mq.md's table
 * names (a figure, its date, what it covers); "0" where none exists.
 * submit: 1 / 2.58M IOPS per core, polled io_uring on Optane, 5.9-rc1
 * (Jens Axboe, linux-block, August 2020), where the completion is reaped
 * by the submitting task, so all of it is charged at submission.
 * mq-deadline 0.7 us and bfq 1.9 us: the total single-lock-protected
 * per-request time of insertion, dispatch and completion hooks
 * (Documentation/block/bfq-iosched.rst, Paolo Valente, commit 4438cf50,
 * 2019), split in three equal parts (the source gives only the sum; a
 * queue-wide lock's cap depends on the sum only).
 */
#define LAB_CPU_SUBMIT_NS		"388"
#define LAB_CPU_MQDL_INSERT_NS		"233"
#define LAB_CPU_MQDL_DISPATCH_NS	"233"
#define LAB_CPU_MQDL_COMPLETE_NS	"234"
#define LAB_CPU_KYBER_INSERT_NS		"0"
#define LAB_CPU_KYBER_DISPATCH_NS	"0"
#define LAB_CPU_KYBER_COMPLETE_NS	"0"
#define LAB_CPU_BFQ_INSERT_NS		"633"
#define LAB_CPU_BFQ_DISPATCH_NS		"633"
#define LAB_CPU_BFQ_COMPLETE_NS		"634"

/* lab.hz: the CONFIG_HZ choices Linux offers (kernel/Kconfig.hz) */
static const char *const lab_hz_names[] = { "100", "250", "300", "1000", NULL };
static const unsigned lab_hz_values[] = { 100, 250, 300, 1000 };
static const char *const lab_kernel_names[] = { "auto", "6.6", "6.12", NULL };

unsigned ios_run_lab_hz(const struct ios_lab_tunables *lab)
{
	return lab->hz >= 0 && lab->hz < 4 ? lab_hz_values[lab->hz] : 250;
}

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
	/*
	 * auto: ext3 under the 2.6-era single-queue schedulers, whose seeds ran
	 * on it, ext4 under the blk-mq ones (the 6.x kernels' default
	 * filesystem): docs/cgroup-v2-plan.md section 8.
	 */
	{ "fs", IOS_TUN_ENUM, offsetof(struct ios_lab_tunables, fs), 0, 0, "auto", "",
	  "filesystem layout under the jobs' files: ext3, ext4, extent, raw, or auto (ext3 on "
	  "the single-queue layer, ext4 on blk-mq; see docs/filesystems.md)", 0, lab_fs_names },
	{ "page_copy_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, page_copy_ns),
	  0, 1000000000, "1000", "ns",
	  "CPU time to copy one 4 KiB page between the page cache and the program", 0, NULL },
	/*
	 * The ext4 mount options commit= and dioread_nolock (6.12 defaults:
	 * 5 s, and dioread_nolock on 4 KiB blocks), for the jbd2 model
	 * (docs/filesystems.md "jbd2"); refused under another lab.fs.
	 */
	{ "ext4.commit_s", IOS_TUN_INT, offsetof(struct ios_lab_tunables, ext4_commit_s),
	  0, 2147483, "5", "s",
	  "ext4 only: the mount option commit=: the jbd2 thread commits a transaction this old "
	  "(0: the default, 5)", 0, NULL },
	{ "ext4.dioread_nolock", IOS_TUN_BOOL, offsetof(struct ios_lab_tunables, ext4_dioread_nolock),
	  0, 1, "1", "",
	  "ext4 only: the mount option dioread_nolock (1, 6.12's default): buffered writes allocate "
	  "unwritten extents converted after their I/O; 0 (nodioread_nolock): ordered data, the "
	  "commit writes and waits for it", 0, NULL },
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
	{ "eio_every", IOS_TUN_U64, offsetof(struct ios_lab_tunables, eio_every), 0, INT64_MAX,
	  "0", "", "fault injection (no kernel has it): every Nth read or write a job completes "
	  "fails with EIO, after the device did it (0: none; see continue_on_error)", 0, NULL },
	{ "lose_write", IOS_TUN_INT, offsetof(struct ios_lab_tunables, lose_write), 0, INT32_MAX,
	  "0", "", "the device acknowledges the N-th O_DIRECT data write of the run and drops it "
	  "(no kernel has this: a fault for verify= to catch, docs/verify.md); 0: none", 0, NULL },
	/*
	 * Default 1: one software context and, whatever the device offers, one
	 * hardware queue, so an mq run measures the scheduler rather than how
	 * tasks spread over queues; set it to see several (docs/devices.md,
	 * "Hardware queues and depths for blk-mq").
	 */
	{ "cpus", IOS_TUN_INT, offsetof(struct ios_lab_tunables, cpus), 1, IOS_MAX_CPUS, "1", "",
	  "simulated CPUs (blk-mq software contexts): tasks go round-robin over them, or where "
	  "cpus_allowed/cpumask say; a device gets at most one hardware queue per CPU; the "
	  "single-queue layer ignores it", 0, NULL },
	/*
	 * blk-mq's host CPU cost model (src/block/mq.c). Each default is a
	 * published, cited figure (docs/blk-mq.md, "CPU cost model", has the
	 * table: source, date, what it covers); one without a source is 0 and
	 * the docs say why. Per scheduler family, not per profile: the name
	 * is cpu.<family>.<step>_ns. They apply under cpu.model=measured (the
	 * default); cpu.model=zero turns every cost not set explicitly to 0
	 * (the model is then off unless one is set).
	 */
	/*
	 * Default measured: a fast device is limited by the host as on a real
	 * machine (issue 29 item 3); zero keeps the model off for comparisons.
	 */
	{ "cpu.model", IOS_TUN_ENUM, offsetof(struct ios_lab_tunables, cpu_model), 0, 0,
	  "measured", "",
	  "blk-mq only: measured (default) = the cited per-step defaults below; zero = every "
	  "lab.cpu.* cost not set explicitly is 0 (no CPU model unless one is set; docs/blk-mq.md)",
	  0, lab_cpu_models },
	{ "cpu.submit_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_submit_ns),
	  0, 1000000000, LAB_CPU_SUBMIT_NS, "ns",
	  "blk-mq only: host CPU time of a bio's submission (system call, bio checks, tag, request set-up, driver) on the submitting CPU, which serves one at a time; default: one polled NVMe I/O per core (Axboe 2020, docs/blk-mq.md)", 0, NULL },
	{ "cpu.complete_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_complete_ns),
	  0, 1000000000, "0", "ns",
	  "blk-mq only: the block layer's host CPU time of a request's completion (interrupt, bio end) on the first CPU of its hardware queue; default 0: no source separates it (docs/blk-mq.md)", 0, NULL },
	{ "cpu.mq-deadline.insert_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_mqdl_insert_ns),
	  0, 1000000000, LAB_CPU_MQDL_INSERT_NS, "ns",
	  "mq-deadline (6.6 and 6.12) only: CPU time of one insert, on the submitting CPU while holding the queue-wide dd->lock", 0, NULL },
	{ "cpu.mq-deadline.dispatch_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_mqdl_dispatch_ns),
	  0, 1000000000, LAB_CPU_MQDL_DISPATCH_NS, "ns",
	  "mq-deadline only: CPU time of one dispatch, under the queue-wide dd->lock on the CPU running the hardware queue", 0, NULL },
	{ "cpu.mq-deadline.complete_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_mqdl_complete_ns),
	  0, 1000000000, LAB_CPU_MQDL_COMPLETE_NS, "ns",
	  "mq-deadline only: CPU time of dd_finish_request on the completing CPU (no lock in 6.12)", 0, NULL },
	{ "cpu.kyber.insert_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_kyber_insert_ns),
	  0, 1000000000, LAB_CPU_KYBER_INSERT_NS, "ns",
	  "kyber only: CPU time of one insert, on the submitting CPU holding its hardware queue's lock", 0, NULL },
	{ "cpu.kyber.dispatch_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_kyber_dispatch_ns),
	  0, 1000000000, LAB_CPU_KYBER_DISPATCH_NS, "ns",
	  "kyber only: CPU time of one dispatch, under its hardware queue's lock on the CPU running that queue", 0, NULL },
	{ "cpu.kyber.complete_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_kyber_complete_ns),
	  0, 1000000000, LAB_CPU_KYBER_COMPLETE_NS, "ns",
	  "kyber only: CPU time of kyber_completed_request (latency histograms) and kyber_finish_request (token) on the completing CPU, no lock", 0, NULL },
	{ "cpu.bfq.insert_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_bfq_insert_ns),
	  0, 1000000000, LAB_CPU_BFQ_INSERT_NS, "ns",
	  "bfq-6.12 only (the 4.19 profile is single-queue): CPU time of one insert, on the submitting CPU holding the queue-wide bfqd->lock", 0, NULL },
	{ "cpu.bfq.dispatch_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_bfq_dispatch_ns),
	  0, 1000000000, LAB_CPU_BFQ_DISPATCH_NS, "ns",
	  "bfq-6.12 only: CPU time of one dispatch, under the queue-wide bfqd->lock on the CPU running the hardware queue", 0, NULL },
	{ "cpu.bfq.complete_ns", IOS_TUN_TIME, offsetof(struct ios_lab_tunables, cpu_bfq_complete_ns),
	  0, 1000000000, LAB_CPU_BFQ_COMPLETE_NS, "ns",
	  "bfq-6.12 only: CPU time of bfq_finish_requeue_request (bfq_completed_request) on the completing CPU, holding bfqd->lock", 0, NULL },
	/*
	 * The jiffy of blk-throttle's slices and io.latency's timer: 250 as
	 * Debian configures it (docs/blk-mq-plan.md R4); Fedora, RHEL and
	 * Ubuntu 24.04 use 1000 (docs/cgroup-v2-plan.md R2).
	 */
	{ "hz", IOS_TUN_ENUM, offsetof(struct ios_lab_tunables, hz), 0, 0, "250", "",
	  "blk-mq cgroup v2 controllers: the kernel's CONFIG_HZ (100, 250, 300 or 1000), the "
	  "jiffy io.max's slices and io.latency's timer count in (docs/cgroup-v2-plan.md)", 0,
	  lab_hz_names },
	{ "kernel", IOS_TUN_ENUM, offsetof(struct ios_lab_tunables, kernel), 0, 0, "auto", "",
	  "blk-mq cgroup v2 controllers: the block core's release, 6.6 or 6.12; auto follows "
	  "the scheduler profile (mq-deadline-6.6: 6.6, the other blk-mq ones: 6.12)", 0,
	  lab_kernel_names },
	/*
	 * Linux 6.12 writes back each cgroup's dirty inodes with its own wb
	 * whenever the filesystem supports it (ext4, and the block device's
	 * own inode for metadata); 0 turns it off to compare. Refused on the
	 * single-queue layer, whose 2.6.31 flusher has none (plan_vfs).
	 */
	{ "cgroup_writeback", IOS_TUN_BOOL, offsetof(struct ios_lab_tunables, cgroup_writeback),
	  0, 1, "1", "",
	  "blk-mq with cgroups: each inode is owned by the cgroup that first dirtied it and "
	  "written back by that cgroup's flusher, its bios charged to it (Linux 6.12 cgroup "
	  "writeback; docs/cgroup-v2.md); 0: one flusher for all, as without cgroups", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

/* ---- stonewall phases: the jobs start and end ---- */

static void ev_start(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_task *t = arg;

	(void)data;
	if (!ios_run_jobctl_may_start(t, sim->now))
		return;
	t->ctx->running++;
	/* exitall stopped it before its start: it ends at once, with nothing done */
	if (t->terminated) {
		ios_run_task_start_dead(t, sim->now);
		return;
	}
	/* fio runs exec_prerun as the job starts (thread_main) */
	ios_run_cgroups_prerun(t, sim->now);
	ios_run_task_start(t, sim->now);
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
			/* the process appears at its first I/O */
			delay = ios_run_replay_start_delay(t);
		else if (j->startdelay_hi_ns > j->startdelay_lo_ns)
			delay += ios_rand_below(&t->rng, j->startdelay_hi_ns - j->startdelay_lo_ns + 1);
		(void)ios_sim_at(c->sim, now + delay, ev_start, t, 0);
	}
}

void ios_run_task_finished(struct run_ctx *c, struct run_task *t, uint64_t now)
{
	c->running--;
	c->phase_left[t->phase]--;
	ios_run_jobctl_finished(c, t, now);
	/* (a job that exitall stopped before its start ended inside, and may have ended all) */
	if (c->phase_left[c->cur_phase] || c->all_done)
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

static void run_progress_tick(struct ios_sim *sim, void *arg)
{
	const struct run_ctx *c = arg;
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
	c->cfg->progress(c->cfg->progress_arg, &p);
}

/* ---- configure and build: checks ---- */

/*
 * The dotted names nearest to @name: those of its own scope when the prefix
 * is one we know, else of every scope with a fixed table (a mistyped
 * prefix). Scopes whose table depends on the scheduler or device are not
 * resolved yet here; their own checks suggest later.
 */
static void suggest_setting(const char *name, const struct ios_scope *sc, char *buf, size_t n)
{
	const struct ios_scope *it;
	struct ios_suggest s;

	ios_suggest_init(&s, name);
	for (size_t i = 0; (it = ios_scope_at(i)) != NULL; i++)
		if ((!sc || it == sc) && it->resolve == IOS_SCOPE_FIXED && *it->prefix)
			ios_tunable_suggest(&s, it->table, it->prefix);
	ios_suggest_str(&s, buf, n);
}

static int check_settings(const struct ios_settings *s, struct ios_err *e)
{
	if (!s)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct ios_setting *st = &s->v[i];
		const struct ios_scope *sc = ios_scope_of(st->name);
		char hint[256], sg[256];

		/* bare names are the scheduler's; cgroup.*: applied once the groups are known */
		if (!strchr(st->name, '.') || st->used || (sc && sc->resolve == IOS_SCOPE_PATTERN))
			continue;
		if (sc && sc->where == IOS_SCOPE_REPLAY_ONLY &&
		    ios_tunable_find(sc->table, st->name + strlen(sc->prefix)))
			return IOS_ERR(e, -EINVAL, "%s%s'%s' applies to 'iosched replay' and to jobs "
				       "with read_iolog= only",
				       st->origin, *st->origin ? ": " : "", st->name);
		suggest_setting(st->name, sc, sg, sizeof(sg));
		if (!sc)
			return IOS_ERR(e, -ENOENT, "%s%sunknown tunable '%s'%s: names are %s",
				       st->origin, *st->origin ? ": " : "", st->name, sg,
				       ios_scope_hint(hint, sizeof(hint)));
		return IOS_ERR(e, -ENOENT, "%s%sunknown tunable '%s'%s (see 'iosched list')",
			       st->origin, *st->origin ? ": " : "", st->name, sg);
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
	if (!c->lab.ttime_back_to_back || (st->features & IOS_SCHED_TTIME_B2B))
		return 0;
	if (st->share_model == IOS_SHARE_CFQ_SLICE || st->share_model == IOS_SHARE_CFQ_GROUP_SLICE)
		return IOS_ERR(e, -EINVAL, "lab.ttime_back_to_back=1: built on the 2.6.31 profile "
			       "only (--scheduler cfq, without lab.group_policy), not %s", st->name);
	if (ios_run_warn(out, "lab.ttime_back_to_back=1 has no effect: %s is not CFQ (it is built "
			 "on --scheduler cfq)", st->name))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

static void ctx_free(struct run_ctx *c)
{
	/*
	 * The queue goes first: a scheduler's exit may still look at the io
	 * contexts it holds state for (the tasks' and the flusher's), which
	 * live in c->tasks and c->vfs.
	 */
	if (c->q) {
		ios_blkcg_ctl_destroy(c->q->blkcg);
		c->q->blkcg = NULL;
		ios_queue_destroy(c->q);
	}
	c->q = NULL;
	ios_run_jobctl_free(c);
	if (c->tasks)
		for (unsigned i = 0; i < c->nr_tasks; i++)
			ios_run_task_free(&c->tasks[i]);
	free(c->tasks);
	free(c->phase_left);
	ios_run_verify_free(c);
	ios_run_files_free(c);
	ios_run_cgroups_free(c);
	ios_fiolog_set_free(c->logs);
	ios_series_free(c->series);
	free(c->series);
	if (c->vfs)
		ios_vfs_destroy(c->vfs);
	if (c->fs)
		ios_fs_destroy(c->fs);
	/* last: the events left on its loop point into everything above */
	ios_host_destroy(c->host);
	if (c->set) {
		ios_settings_free(c->set);
		free(c->set);
	}
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
			if (ios_run_warn(out, "%s:%d: job '%s': ioscheduler=%s has no effect with "
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


/* ---- the phases ---- */

/* The run's own tunables, and which scheduler it asks for. */
static int run_configure(struct run_ctx *c, struct ios_err *e)
{
	const struct ios_run_config *cfg = c->cfg;
	const struct ios_jobfile *jf = c->jf;
	struct ios_settings *set;
	int ret;

	if (cfg->read_only && (ret = ios_jobfile_check_read_only(jf, e)))
		return ret;
	/* private copy: 'used' marks are per run */
	set = c->set = calloc(1, sizeof(*set));
	if (!set)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	c->real = ios_run_is_real(cfg);
	if (c->real && ios_run_real_settings(set))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (size_t i = 0; cfg->settings && i < cfg->settings->n; i++)
		if (ios_settings_add(set, cfg->settings->v[i].name, cfg->settings->v[i].value,
				     cfg->settings->v[i].origin))
			return IOS_ERR(e, -ENOMEM, "out of memory");

	ret = ios_scope_setup(IOS_SCOPE_LAB, set, &c->lab, e);
	if (!ret)
		ret = ios_scope_setup(IOS_SCOPE_VM, set, &c->vm, e);
	if (!ret && (cfg->replay || jobs_read_iolog(jf))) {
		c->replay = cfg->replay;
		ret = ios_scope_setup(IOS_SCOPE_REPLAY, set, &c->replay_tun, e);
	}
	if (ret)
		return ret;
	if (c->real && (ret = ios_run_real_configure(c, e)))
		return ret;
	if (c->lab.file_align % 4096)
		return IOS_ERR(e, -EINVAL, "lab.file_align=%" PRIu64 ": must be a multiple of 4096",
			       c->lab.file_align);

	c->schedname = cfg->scheduler ? cfg->scheduler : IOS_DEFAULT_SCHEDULER;
	ret = run_job_sched(jf, cfg, &c->schedname, c->res, e);
	if (ret)
		return ret;
	if (!ios_sched_find(c->schedname)) {
		char names[1024] = "";
		const struct ios_sched_type *st;

		/* a list that would not fit says so ("...") rather than stopping mid-name */
		for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++) {
			if (strlen(names) + strlen(st->name) + 8 >= sizeof(names)) {
				strcat(names, ", ...");
				break;
			}
			if (i)
				strcat(names, ", ");
			strcat(names, st->name);
		}
		char hint[256];

		return IOS_ERR(e, -ENOENT, "unknown scheduler '%s'%s (known: %s)", c->schedname,
			       ios_sched_suggest(c->schedname, hint, sizeof(hint)), names);
	}
	return 0;
}

/*
 * The depth and queues the disk gives the block layer. The legacy layer
 * gets queue_depth(), as it always did. blk-mq gets the device's tags per
 * hardware queue and at most one hardware queue per CPU: the nvme driver
 * asks for one per possible CPU (nvme_max_io_queues, drivers/nvme/host/
 * pci.c) and blk_mq_alloc_tag_set caps any single-map tag set at
 * nr_cpu_ids (block/blk-mq.c). nr_cpus is lab.cpus on both layers (the
 * legacy one does not read it).
 */
void ios_run_queue_geometry(const struct ios_host_disk *disk, unsigned cpus, unsigned layer,
			    struct ios_queue_config *qc)
{
	unsigned nrq = disk->nr_hw_queues ? disk->nr_hw_queues : 1;

	qc->nr_cpus = cpus ? cpus : 1;
	qc->depth = disk->depth;
	qc->nr_hw_queues = 1;
	if (layer != IOS_SCHED_LAYER_MQ)
		return;
	if (disk->hw_queue_depth)
		qc->depth = disk->hw_queue_depth;
	qc->nr_hw_queues = nrq < qc->nr_cpus ? nrq : qc->nr_cpus;
}

/* @name ("cpu.submit_ns") was set as lab.NAME in @set. */
static bool lab_set(const struct ios_settings *set, const char *name)
{
	const char *prefix = ios_scope_get(IOS_SCOPE_LAB)->prefix;
	size_t n = strlen(prefix);

	for (size_t i = 0; set && i < set->n; i++)
		if (!strncmp(set->v[i].name, prefix, n) && !strcmp(set->v[i].name + n, name))
			return true;
	return false;
}

/* lab.NAME's value, or 0 under lab.cpu.model=zero when it was not set */
static uint64_t lab_cost(const struct ios_lab_tunables *lab, const struct ios_settings *set,
			 const char *name, uint64_t v)
{
	if (lab->cpu_model == IOS_CPU_MODEL_ZERO && !lab_set(set, name))
		return 0;
	return v;
}

/*
 * lab.cpu.* for a queue under @st: the submit and completion costs, and the
 * insert/dispatch/complete costs of the scheduler's family (mq-deadline-6.6
 * and -6.12 share theirs). Nothing on the single-queue layer, nor for
 * 'none' beyond submit and completion (no elevator, no lock). Only bfq's
 * completion holds the scheduler's lock (bfq_finish_requeue_request takes
 * bfqd->lock; 6.12 dd_finish_request and kyber's completion hooks none).
 */
void ios_run_cpu_cost(const struct ios_lab_tunables *lab, const struct ios_settings *set,
		      const struct ios_sched_type *st, struct ios_mq_cpu_cost *cc)
{
	memset(cc, 0, sizeof(*cc));
	if (!st || ios_sched_layer(st) != IOS_SCHED_LAYER_MQ)
		return;
	cc->submit_ns = lab_cost(lab, set, "cpu.submit_ns", lab->cpu_submit_ns);
	cc->complete_ns = lab_cost(lab, set, "cpu.complete_ns", lab->cpu_complete_ns);
	if (!strncmp(st->name, "mq-deadline", 11)) {
		cc->insert_ns = lab_cost(lab, set, "cpu.mq-deadline.insert_ns",
					 lab->cpu_mqdl_insert_ns);
		cc->dispatch_ns = lab_cost(lab, set, "cpu.mq-deadline.dispatch_ns",
					   lab->cpu_mqdl_dispatch_ns);
		cc->sched_complete_ns = lab_cost(lab, set, "cpu.mq-deadline.complete_ns",
						 lab->cpu_mqdl_complete_ns);
	} else if (!strncmp(st->name, "kyber", 5)) {
		cc->insert_ns = lab_cost(lab, set, "cpu.kyber.insert_ns", lab->cpu_kyber_insert_ns);
		cc->dispatch_ns = lab_cost(lab, set, "cpu.kyber.dispatch_ns",
					   lab->cpu_kyber_dispatch_ns);
		cc->sched_complete_ns = lab_cost(lab, set, "cpu.kyber.complete_ns",
						 lab->cpu_kyber_complete_ns);
	} else if (!strncmp(st->name, "bfq", 3)) {
		cc->insert_ns = lab_cost(lab, set, "cpu.bfq.insert_ns", lab->cpu_bfq_insert_ns);
		cc->dispatch_ns = lab_cost(lab, set, "cpu.bfq.dispatch_ns", lab->cpu_bfq_dispatch_ns);
		cc->sched_complete_ns = lab_cost(lab, set, "cpu.bfq.complete_ns",
						 lab->cpu_bfq_complete_ns);
		cc->sched_complete_locked = true;
	}
}

/* The host (device.* settings) and the queue on it (queue.* and the scheduler's). */
static int run_build(struct run_ctx *c, struct ios_err *e)
{
	const struct ios_run_config *cfg = c->cfg;
	struct ios_host_config hc = {
		.device = cfg->device,
		.settings = c->set,
		.seed = cfg->seed,
	};
	struct ios_queue_config qc;
	char probe[512];
	int ret;

	if (c->real) {
		if (cfg->device)
			return IOS_ERR(e, -EINVAL, "--device %s names a simulated disk; with --real the "
				       "disk is the one under the jobs' files", cfg->device);
		hc.device = ios_run_real_probe(c->jf, probe, sizeof(probe));
	}
	ret = ios_host_create(cfg->host ? cfg->host : &ios_host_sim_ops, &hc, &c->host, e);
	if (ret)
		return ret;
	c->sim = &c->host->loop;

	memset(&qc, 0, sizeof(qc));
	qc.id = 0;
	qc.disk_name = c->host->disk.name;
	qc.sched = ios_sched_find(c->schedname);
	ret = ios_run_cgroups_sched(c, &qc.sched, c->res, e);
	if (!ret)
		ret = run_check_ttime_back_to_back(c, qc.sched, c->res, e);
	if (ret)
		return ret;
	qc.settings = c->set;
	ios_run_queue_geometry(&c->host->disk, (unsigned)c->lab.cpus, ios_sched_layer(qc.sched),
			       &qc);
	/*
	 * --real: the host's own CPU does the submission and completion, so
	 * charging simulated CPU time on top would count it twice.
	 */
	if (!c->real)
		ios_run_cpu_cost(&c->lab, c->set, qc.sched, &qc.cpu_cost);
	qc.rotational = c->host->disk.rotational;
	qc.write_cache = c->host->disk.write_cache;
	qc.hz = ios_run_lab_hz(&c->lab);
	qc.capacity_sectors = c->host->disk.nr_sectors;
	if (c->host->disk.zoned) {
		qc.zone_sectors = c->host->disk.zone_sectors;
		qc.nr_zones = c->host->disk.nr_zones;
		qc.max_open_zones = c->host->disk.max_open_zones;
		qc.max_active_zones = c->host->disk.max_active_zones;
	}
	qc.host_ops = &ios_host_queue_ops;
	qc.host = c->host;
	qc.ignore_allow_merge = c->lab.cross_queue_merge;
	qc.ttime_back_to_back = c->lab.ttime_back_to_back != 0;
	qc.trace_ops = cfg->trace_ops;
	qc.trace = cfg->trace;
	c->q = ios_queue_create(&qc, e);
	if (!c->q)
		return e && e->code ? e->code : -EINVAL;
	c->host->q = c->q;
	if (c->lab.fs == IOS_LAB_FS_AUTO)
		c->lab.fs = ios_run_is_mq(c) ? IOS_FS_EXT4 : IOS_FS_EXT3;
	if (c->lab.fs != IOS_FS_EXT4) {
		static const char *const ext4_only[] = { "ext4.commit_s", "ext4.dioread_nolock" };

		for (size_t i = 0; i < sizeof(ext4_only) / sizeof(ext4_only[0]); i++)
			if (lab_set(c->set, ext4_only[i]))
				return IOS_ERR(e, -EINVAL, "lab.%s: ext4's mount option, applies "
					       "under lab.fs=ext4 only (here lab.fs=%s; auto gives "
					       "ext4 under the blk-mq schedulers)", ext4_only[i],
					       ios_fs_type_name((enum ios_fs_type)c->lab.fs));
	}
	return check_settings(c->set, e);
}

/*
 * The end test of the event loop (ios_sim_set_quiet), asked when one event
 * is left. The jobs are done, the queue holds no bio and no request, and
 * that event is the queue's own timer: the run is over. The timer would
 * only close blk-wbt windows with nothing in them, and Linux 6.12's
 * wb_timer_fn (block/blk-wbt.c) re-arms its window as long as scale_step
 * is not 0, I/O or not: at scale_step -1 with a queue depth of 2,
 * rq_depth_calc_max_depth (block/blk-rq-qos.c) caps max_depth at
 * 3 * 2 / 4 = 1 and rq_depth_scale_down then refuses the step back to 0,
 * so the window ticks every 100 ms for as long as the disk is idle (an
 * hdd-2004 under mq-deadline or kyber: nr_requests 2 * 1 tag). The kernel
 * does the same, but there fio has exited by then; here it kept the loop,
 * and the clock, running until run_until.
 */
static bool run_quiet(struct ios_sim *sim, void *arg)
{
	struct run_ctx *c = arg;

	(void)sim;
	return c->all_done && c->host->q_timer.pos && ios_queue_holds_nothing(c->q);
}

/* How long past lab.max_sim_time a run may go on completing what was in flight. */
#define IOS_RUN_STALL_GRACE_NS (86400ULL * 1000000000ULL)

/* The first stonewall phase starts; the host runs until nothing is left. */
static int run_loop(struct run_ctx *c, struct ios_err *e)
{
	const struct ios_run_config *cfg = c->cfg;
	struct ios_host *h = c->host;
	int ret;

	if (ios_run_is_real(cfg)) {
		h->interrupt = ios_run_real_interrupt;
		h->interrupt_arg = c;
	}
	if (c->lab.max_sim_time_ns && c->lab.max_sim_time_ns < UINT64_MAX - IOS_RUN_STALL_GRACE_NS)
		h->run_until = c->lab.max_sim_time_ns + IOS_RUN_STALL_GRACE_NS;
	ios_sim_set_quiet(c->sim, run_quiet, c);
	ios_run_ss_start(c, h->ops->now(h));
	ios_run_status_start(c, h->ops->now(h));
	start_phase(c, 0, h->ops->now(h));
	if (cfg->progress)
		ios_sim_set_tick(c->sim, run_progress_tick, c,
				 cfg->progress_every ? cfg->progress_every : IOS_RUN_PROGRESS_EVERY);
	ret = h->ops->run(h);
	if (ret)
		return IOS_ERR(e, ret, "simulation failed");
	if (c->replay_err.code) {
		if (e)
			*e = c->replay_err;
		return c->replay_err.code;
	}
	if (!c->all_done || c->running || c->q->rq_in_driver || c->q->nr_sorted)
		return IOS_ERR(e, -EDEADLK, "simulation stalled at %" PRIu64
			       " ns with %u jobs still running (an I/O never completed)",
			       h->ops->now(h), c->running);
	return 0;
}

int ios_run(const struct ios_jobfile *jf, const struct ios_run_config *cfg,
	    struct ios_run_result *out, struct ios_err *e)
{
	struct run_ctx *c;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!jf || !jf->nr_jobs) {
		/* an input error like any other refusal: exit 2, not 1 (README) */
		IOS_ERR(e, -EINVAL, "no jobs to run");
		if (e)
			e->refused = 1;
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	c->files_tail = &c->files;
	c->seed = cfg->seed;
	c->cfg = cfg;
	c->res = out;
	c->jf = jf;
	c->e = e;

	ret = run_configure(c, e);
	if (!ret)
		ret = run_build(c, e);
	if (!ret)
		ret = ios_run_plan(c, e);
	/* nothing issued yet: the input was refused (out of memory is not the input's fault) */
	if (ret && ret != -ENOMEM && e)
		e->refused = 1;
	if (!ret)
		ret = run_loop(c, e);
	if (!ret)
		ret = ios_run_collect(c, e);
	ctx_free(c);
	free(c);
	if (ret)
		ios_run_result_free(out);
	return ret;
}
