/*
 * Tasks: fio's I/O loop as an event-driven state machine.
 *
 * One task is one fio job clone (a process). Its loop, per fio's do_io():
 *
 *   reap completions -> stop if the runtime or the size is reached ->
 *   think (thinktime every thinktime_blocks I/Os) -> respect rate / rate_iops ->
 *   prepare an I/O (direction by rwmixread, file round-robin, sequential or
 *   random offset, block size) -> submit it -> sleep when the engine's depth
 *   is reached, until enough completions arrive.
 *
 * The ioengines differ in how they submit and wait:
 * - sync, psync, vsync, pvsync, pvsync2: one I/O at a time; the task sleeps
 *   in the system call. fio measures clat from just before the call, so clat
 *   includes the submission CPU time and there is no slat.
 * - libaio, io_uring, posixaio: up to iodepth I/Os in flight, submitted in
 *   batches of iodepth_batch_submit, reaped when at least
 *   iodepth_batch_complete_min have completed. slat is the submission CPU
 *   time, clat runs from submission to reaping.
 * - null: completes at once without touching the device.
 * CPU time is modelled as two lab costs: lab.submit_ns from fio's issue to
 * the bio reaching the request queue, and lab.complete_ns from the device's
 * completion to the task running again. They are what a think-time
 * estimator (CFQ, AS) sees between two requests of a "zero think time" task.
 *
 * An I/O larger than queue.max_sectors_kb becomes several bios, as the
 * kernel's direct-I/O path builds them; the I/O completes with its last bio.
 * O_DIRECT writes are sync requests (REQ_SYNC, as since Linux 2.6.20), and
 * with sync=1 they are FUA writes.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "run_int.h"
#include "verify.h"

/* ---- set-up ---- */

static void task_ioprio(struct run_task *t)
{
	const struct ios_job *j = t->job;

	t->ioc.nice = j->nice_set ? j->nice : 0;
	t->ioc.ioprio_class = IOS_IOPRIO_CLASS_NONE;
	t->ioc.ioprio_level = 0;
	if (j->prioclass > 0) {
		t->ioc.ioprio_class = j->prioclass;
		/* ionice -c without -n: level 4 for RT and BE; IDLE has no level */
		t->ioc.ioprio_level = j->prio >= 0 ? j->prio : IOS_IOPRIO_NORM;
		if (j->prioclass == IOS_IOPRIO_CLASS_IDLE)
			t->ioc.ioprio_level = 7;
	} else if (j->prio >= 0) {
		/* a level without a class is a best-effort level */
		t->ioc.ioprio_class = IOS_IOPRIO_CLASS_BE;
		t->ioc.ioprio_level = j->prio;
	}
}

/*
 * The ioengine's model: how many I/Os fly at once, and in what batches
 * they are submitted and reaped.
 */
static void task_setup_engine(struct run_task *t)
{
	const struct ios_job *j = t->job;

	switch (j->ioengine) {
	case IOS_ENGINE_LIBAIO:
	case IOS_ENGINE_IO_URING:
	case IOS_ENGINE_POSIXAIO:
		t->async = true;
		t->depth = j->iodepth ? j->iodepth : 1;
		break;
	case IOS_ENGINE_NULL:
		t->null_engine = true;
		t->async = true;
		t->depth = j->iodepth ? j->iodepth : 1;
		break;
	default:
		t->depth = 1;
		break;
	}
	/*
	 * Buffered I/O through libaio or io_uring is not asynchronous in these
	 * kernels: io_submit() does the copy (and waits for the reads) itself.
	 */
	if (t->async && !t->null_engine && !j->direct)
		t->depth = 1;
	/* the engines whose batches the kernel plugs (posixaio: one pread per thread) */
	t->plug_batches = j->ioengine == IOS_ENGINE_LIBAIO || j->ioengine == IOS_ENGINE_IO_URING;
	t->batch_submit = j->iodepth_batch_submit ? j->iodepth_batch_submit : 1;
	if (t->batch_submit > t->depth)
		t->batch_submit = t->depth;
	t->batch_complete_min = j->iodepth_batch_complete_min ? j->iodepth_batch_complete_min : 1;
	if (t->batch_complete_min > t->depth)
		t->batch_complete_min = t->depth;
	/* fio: an unset or too small maximum is the minimum (fixup_options, td_io_getevents) */
	t->batch_complete_max = j->iodepth_batch_complete_max > t->batch_complete_min
				? j->iodepth_batch_complete_max : t->batch_complete_min;
	t->depth_low = j->iodepth_low && j->iodepth_low < t->depth ? j->iodepth_low : t->depth;
}

/* Options the run honours differently from fio, or that do nothing here: a note each. */
static int task_setup_notes(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;

	/*
	 * overwrite: the files here are laid out before the run, which is what
	 * fio does with overwrite=1 (and for any job that reads). A write-only
	 * job with overwrite=0 that creates its file makes fio unlink it and
	 * start afresh (filesetup.c, extend_file): blocks come from fallocate
	 * or, where the filesystem has none (ext3), from writing. That is the
	 * default and the same simplification for every write job, so it is
	 * documented (docs/jobfiles.md) rather than repeated on every run; a
	 * job that asks for overwrite=0 in so many words gets the note.
	 */
	if (!j->overwrite && j->overwrite_set && !ios_rw_has_read(j->rw) &&
	    c->lab.fs != IOS_FS_RAW) {
		bool fresh = false;

		for (unsigned k = 0; k < t->nr_files; k++)
			if (!t->files[k].f->is_dev && !t->files[k].f->preexisting &&
			    t->files[k].f->first_job == j)
				fresh = true;
		if (fresh && ios_run_warn(c->res,
					  "%s:%d: job '%s': overwrite=0: fio would create the "
					  "file afresh (allocated by fallocate, or while writing); "
					  "iosched lays it out before the run, as with overwrite=1",
					  j->file ? j->file : "?", j->line, j->name))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	if (j->rate_cycle_set && !j->rate_min[0] && !j->rate_min[1] && !j->rate_iops_min[0] &&
	    !j->rate_iops_min[1] &&
	    ios_run_warn(c->res, "%s:%d: job '%s': rate_cycle has no effect without rate_min or "
			 "rate_iops_min (fio uses it only to check them)", j->file ? j->file : "?",
			 j->line, j->name))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (ios_run_offsets_notes(c, t, e))
		return -ENOMEM;
	/*
	 * On blk-mq cpus_allowed and cpumask place the tasks (cpu_map.c), so
	 * only the others are noted; on the single-queue layer all of them
	 * are, with the text legacy runs always had.
	 */
	unsigned noted = j->cpu_opts;

	if (ios_run_is_mq(c))
		noted &= ~(IOS_CPUOPT_CPUS_ALLOWED | IOS_CPUOPT_CPUMASK);
	if (noted && t->clone == 0) {
		char names[160] = "";

		for (unsigned b = 0; b < IOS_ARRAY_SIZE(ios_job_cpuopt_names); b++)
			if (noted & (1u << b))
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
					 names[0] ? ", " : "", ios_job_cpuopt_names[b]);
		if (ios_run_warn(c->res, "%s:%d: job '%s': %s: CPU and memory placement has no "
				 "effect in a simulator, nor has a polling thread's CPU%s%s (accepted, "
				 "see docs/jobfiles.md)",
				 j->file ? j->file : "?", j->line, j->name, names,
				 noted & IOS_CPUOPT_FORCE_ASYNC ? ", nor io_uring handing a request "
				 "to its worker threads (force_async)" : "",
				 noted & (IOS_CPUOPT_FIXEDBUFS | IOS_CPUOPT_REGFILES) ? ", nor "
				 "io_uring's registered buffers and files (fixedbufs, registerfiles)"
				 : ""))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	if (j->thinktime_spin_ns) {
		char w[256];

		snprintf(w, sizeof(w), "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
		/* (the parser refused a thinktime_spin longer than thinktime) */
		if (ios_run_warn(c->res, "%s: thinktime_spin is CPU time of the machine running fio: "
				 "the delay is thinktime as before, and iosched reports no CPU use "
				 "(only the context switches of the sleeping part)", w))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * The rate state, for a job with a rate or a minimum rate; and for
 * rate_process=poisson each rated direction's own stream of gaps.
 */
static int task_setup_rate(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	char w[256];
	bool rated = false;

	for (int d = 0; d < 2; d++)
		if (j->rate[d] || j->rate_iops[d] || j->rate_min[d] || j->rate_iops_min[d])
			rated = true;
	if (rated && !(t->rate = calloc(1, sizeof(*t->rate))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	rated = false;
	if (!j->rate_process_poisson)
		return 0;
	snprintf(w, sizeof(w), "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
	for (int d = 0; d < 2; d++) {
		uint64_t min_bs = j->bs_min[d] ? j->bs_min[d] : j->bs[d];
		uint64_t bps = j->rate[d] ? j->rate[d] : (uint64_t)j->rate_iops[d] * min_bs;

		if (!j->rate[d] && !j->rate_iops[d])
			continue;
		rated = true;
		/* fio divides by this rate in IOPS of the smallest block */
		if (!min_bs || bps / min_bs == 0)
			return IOS_ERR(e, -EINVAL, "%s: rate_process=poisson needs a rate of at "
				       "least one %" PRIu64 "-byte block per second (rate=%"
				       PRIu64 ")", w, min_bs, bps);
		ios_rand_seed(&t->rate->poisson_rng[d], ios_rand_u64(&t->rng), 0x706f6973ULL + d);
	}
	if (!rated && ios_run_warn(c->res, "%s: rate_process=poisson has no effect without "
				   "rate= or rate_iops= (as in fio)", w))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* The I/O units: depth of them for data on the free list, one more for fsync and friends. */
/*
 * The iodepth I/O units, and the sync unit (issue_sync) only for a job that
 * syncs: it is a third of a psync reader's units, and 10,000 of those add up.
 */
static int task_setup_units(struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	bool syncs = j->end_fsync || j->fsync_on_close || j->fsync_blocks || j->fdatasync_blocks;
	unsigned n = t->depth + (syncs ? 1 : 0);

	/* one unit is the task's own (io0); more start a cache line (a wake-up reads the first) */
	t->ios = n == 1 ? &t->io0 : aligned_alloc(64, (n * sizeof(*t->ios) + 63) / 64 * 64);
	if (!t->ios)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	memset(t->ios, 0, n * sizeof(*t->ios));
	for (unsigned i = 0; i < n; i++) {
		t->ios[i].t = t;
		ios_timer_init(&t->ios[i].step_timer);
		if (i == t->depth) {
			t->sync_io = &t->ios[i];
			continue;
		}
		t->ios[i].next = t->free_ios;
		t->free_ios = &t->ios[i];
	}
	return 0;
}

/*
 * Each file's region: its block alignment, the random map over its blocks,
 * the open file in the page cache. *@total gets the regions' bytes.
 */
static int task_setup_files(struct run_ctx *c, struct run_task *t, uint64_t *total,
			    struct ios_err *e)
{
	const struct ios_job *j = t->job;

	for (unsigned k = 0; k < t->nr_files; k++) {
		struct run_task_file *tf = &t->files[k];
		uint64_t align = j->bs_min[IOS_READ] ? j->bs_min[IOS_READ] : j->bs[IOS_READ];
		int dir = ios_rw_has_read(j->rw) ? IOS_READ : IOS_WRITE;

		align = j->blockalign[dir] ? j->blockalign[dir]
					   : (j->bs_min[dir] ? j->bs_min[dir] : j->bs[dir]);
		if (!align)
			align = 4096;
		if (j->direct && align % IOS_SECTOR_SIZE) {
			char w[256];

			snprintf(w, sizeof(w), "%s:%d: job '%s'", j->file ? j->file : "?", j->line,
				 j->name);
			return IOS_ERR(e, -EINVAL,
				       "%s: direct=1 needs block sizes that are multiples of 512 "
				       "bytes (bs=%" PRIu64 ")", w, align);
		}
		tf->align = align;
		tf->pos[0] = tf->pos[1] = tf->off;
		if (tf->len < align) {
			/* blame the option that made the region small, at its line */
			const struct ios_optsrc *src =
				j->nrfiles > 1 && j->nrfiles_src.file ? &j->nrfiles_src
				: j->filesize_lo ? &j->filesize_src
				: j->size_src.file ? &j->size_src : &j->offset_src;
			char w[300];

			ios_run_job_where_opt(j, src, w, sizeof(w));
			return IOS_ERR(e, -EINVAL,
				       "%s: the region of '%s' it may use (%" PRIu64
				       " bytes) is smaller than one block (%" PRIu64 ")",
				       w, tf->f->name, tf->len, align);
		}
		ios_run_perm_init(&tf->perm, tf->len / align, &t->rng);
		*total += tf->len;
		ios_vfs_file_init(c->vfs, &tf->file, tf->f->inode, &t->ioc, (j->direct ? IOS_O_DIRECT : 0) |
				  (j->sync ? IOS_O_SYNC : 0) | (j->sync == 2 ? IOS_O_DSYNC : 0));
	}
	return 0;
}

int ios_run_task_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	uint64_t total = 0;
	int ret;

	t->ctx = c;
	ios_timer_init(&t->timer);
	ios_timer_init(&t->sample_timer);
	task_ioprio(t);
	t->ioc.nr_tasks = 1;
	if (j->sub.lat_target_ns && !(t->lt = calloc(1, sizeof(*t->lt))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (t->replay) {
		ret = ios_run_replay_setup(c, t, e);
		if (!ret)
			ret = ios_run_iolog_open(c, t,
						 e);	/* only says read_iolog overrides it */
		return ret ? ret : ios_run_task_setup_samples(c, t, e);
	}
	ret = ios_run_iolog_open(c, t, e);
	if (ret)
		return ret;
	task_setup_engine(t);
	if (j->rw == IOS_RW_TRIMWRITE && !(t->tw = calloc(1, sizeof(*t->tw))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = ios_run_submit_setup(c, t, e);
	if (!ret)
		ret = task_setup_notes(c, t, e);
	if (!ret)
		ret = task_setup_rate(c, t, e);
	if (!ret)
		ret = task_setup_units(t, e);
	if (!ret)
		ret = task_setup_files(c, t, &total, e);
	if (!ret)
		ret = ios_run_err_setup(c, t, e);
	if (!ret)
		ret = ios_run_zbd_setup(c, t, e);
	if (!ret)
		ret = ios_run_fileop_setup(c, t, e);
	if (ret)
		return ret;
	ret = ios_run_offsets_init(t, e);
	if (ret)
		return ret;
	/* as fio's fixup_options: time_based without a runtime is dropped (ios_run_plan warns) */
	if (j->time_based && j->runtime_ns) {
		t->io_target = UINT64_MAX;
	} else {
		uint64_t base = j->io_size_pct ? total / 100 * j->io_size_pct
					       : (j->io_size ? j->io_size : total);
		unsigned loops = j->loops ? j->loops : 1;

		t->io_target = base > UINT64_MAX / loops ? UINT64_MAX : base * loops;
	}
	t->dir_used[IOS_READ] = ios_rw_has_read(j->rw);
	t->dir_used[IOS_WRITE] = ios_rw_has_write(j->rw);
	ret = ios_run_verify_setup(c, t, e);
	return ret ? ret : ios_run_task_setup_samples(c, t, e);
}

void ios_run_task_free(struct run_task *t)
{
	ios_run_iolog_abort(t);
	/* the io context outlives its requests (the queue went first) */
	IOS_BUG_ON_MSG(t->ioc.nr_requests, "task pid %u freed with %u requests still holding"
		       " its io context", t->ioc.pid, t->ioc.nr_requests);
	ios_run_replay_free(t);
	ios_run_offsets_free(t);
	ios_run_verify_task_free(t);
	free(t->ios != &t->io0 ? t->ios : NULL);	/* the task's own unit and file stay */
	free(t->files != &t->file0 ? t->files : NULL);
	free(t->log);
	free(t->rate);
	free(t->tw);
	free(t->lt);
	free(t->prio_rng);
	free(t->donor_file);
	t->log = NULL;
	t->ios = NULL;
	t->files = NULL;
	t->rate = NULL;
	t->tw = NULL;
	t->lt = NULL;
	t->prio_rng = NULL;
	t->donor_file = NULL;
}

/* ---- preparing an I/O ---- */

static uint64_t pick_bs(struct run_task *t, int dir)
{
	const struct ios_job *j = t->job;
	uint64_t lo, hi, unit;

	if (j->nr_bssplit[dir]) {
		unsigned r = (unsigned)ios_rand_below(&t->rng, 100), acc = 0, k;
		unsigned nr = j->nr_bssplit[dir], zero = 0, given = 0;

		for (k = 0; k < nr; k++) {
			if (j->bssplit[dir][k].perc)
				given += j->bssplit[dir][k].perc;
			else
				zero++;
		}
		for (k = 0; k < nr; k++) {
			unsigned p = j->bssplit[dir][k].perc;

			if (!p && zero)
				p = given < 100 ? (100 - given) / zero : 0;
			acc += p;
			if (r < acc)
				return j->bssplit[dir][k].bs;
		}
		return j->bssplit[dir][nr - 1].bs;
	}
	lo = j->bs_min[dir] ? j->bs_min[dir] : j->bs[dir];
	hi = j->bs_max[dir] ? j->bs_max[dir] : j->bs[dir];
	if (hi <= lo)
		return lo ? lo : 4096;
	unit = j->bs_unaligned ? (j->direct ? IOS_SECTOR_SIZE : 1) : lo;
	return lo + ios_rand_below(&t->rng, (hi - lo) / unit + 1) * unit;
}

static int pick_dir(struct run_task *t)
{
	const struct ios_job *j = t->job;

	switch (j->rw) {
	case IOS_RW_READ:
	case IOS_RW_RANDREAD:
		return IOS_READ;
	case IOS_RW_WRITE:
	case IOS_RW_RANDWRITE:
	case IOS_RW_TRIM:
	case IOS_RW_RANDTRIM:
	case IOS_RW_TRIMWRITE:
		return IOS_WRITE;
	default:
		return ios_rand_below(&t->rng, 100) < j->rwmixread ? IOS_READ : IOS_WRITE;
	}
}

/*
 * rw=trimwrite (fio's TD_DDIR_TRIMWRITE): every block is trimmed, then the
 * same block written. Returns true when @io became the write of the block
 * the previous I/O trimmed.
 */
static bool prepare_trimwrite(struct run_task *t, struct run_io *io)
{
	struct run_trimwrite *tw = t->tw;

	if (!tw)
		return false;
	tw->pending = !tw->pending;
	if (tw->pending) {
		io->trim = true;
		return false;
	}
	io->tf = tw->tf;
	io->offset = tw->off;
	io->len = tw->len;
	return true;
}

/* Fill @io with the task's next I/O; false when its pattern has no next offset. */
static bool prepare_io(struct run_task *t, struct run_io *io, uint64_t now)
{
	const struct ios_job *j = t->job;
	struct run_task_file *tf;
	int dir = t->zbd ? ios_run_zbd_dir(t, pick_dir(t)) : pick_dir(t);
	uint64_t bs = pick_bs(t, dir), off, end;

	io->trim = j->rw == IOS_RW_TRIM || j->rw == IOS_RW_RANDTRIM;
	if (prepare_trimwrite(t, io))
		goto fill;
	tf = &t->files[t->cur_file];
	if (t->nr_files > 1)
		t->cur_file = (t->cur_file + 1) % t->nr_files;
	if (bs > tf->len)
		bs = tf->len / tf->align * tf->align;
	end = tf->off + tf->len;
	if (t->zbd)
		ios_run_zbd_seq_jump(t, tf, dir);

	if (t->fio_offsets) {
		if (!ios_run_offsets_next(t, &tf, dir, bs, &off))
			return false;
	} else if (!t->zbd && !t->vt) {
		if (!ios_run_plain_next(t, &tf, dir, &bs, &off))
			return false;
		end = tf->off + tf->len;
	} else if (ios_rw_is_random(j->rw)) {
		uint64_t blocks = (tf->len - bs) / tf->align + 1, b;

		if (j->sub.rand_gen == IOS_RANDGEN_LFSR)
			b = ios_run_lfsr_block(t, tf, blocks);
		else if (j->norandommap || blocks != tf->perm.n)
			b = ios_rand_below(&t->rng, blocks);
		else
			b = ios_run_perm_next(&tf->perm, &t->rng);
		off = tf->off + b * tf->align;
	} else {
		off = tf->pos[dir];
		if (off + bs > end)
			off = tf->off; /* wrap to the start of the region */
	}
	/* next sequential position */
	tf->pos[dir] = off + bs;
	if (tf->pos[dir] >= end)
		tf->pos[dir] = tf->off;

	io->tf = tf;
	io->offset = off;
	io->len = bs;
	if (t->tw) {
		t->tw->tf = tf;
		t->tw->off = off;
		t->tw->len = bs;
	}
fill:
	io->sync_op = false;
	io->dir = (uint8_t)dir;
	io->start_ns = now;
	io->issue_ns = 0;
	io->error = 0;
	io->next = NULL;
	io->zbd_ok = false;
	ios_run_cmdprio_pick(t, io);
	return true;
}

/* ---- submission and completion ---- */

static void task_arm(struct run_task *t, uint64_t when);

/* The I/O is complete at @now: hand it to the task's completion list. */
static void io_done(struct run_io *io, uint64_t now)
{
	struct run_task *t = io->t;

	io->next = NULL;
	if (t->done_tail)
		t->done_tail->next = io;
	else
		t->done_head = io;
	t->done_tail = io;
	t->nr_done++;
	/* a task still spending its submission CPU time reaps when that is over */
	if (t->state == TS_WAIT_IO && t->nr_done >= t->wait_threshold)
		task_arm(t, now > t->wait_from_ns ? now : t->wait_from_ns);
}

static void ev_io_done(struct ios_sim *sim, void *arg, uint64_t data)
{
	(void)data;
	io_done(arg, sim->now);
}

static void io_step(struct run_io *io, uint64_t now)
{
	struct run_ctx *c = io->t->ctx;
	uint64_t delay;

	for (;;) {
		if (ios_vfs_step(c->vfs, &io->op, now) == IOS_VFS_WAIT)
			return;
		/* e4defrag's units are a sequence of operations (fileops.c) */
		if (!ios_engine_is_fileop(io->t->job->ioengine) || io->sync_op ||
		    !ios_run_fileop_next(io))
			break;
	}
	if (io->op.error && !io->error)
		io->error = io->op.error;
	/*
	 * The last page copies took CPU time; then, for a task sleeping in
	 * its system call, the cgroup v2 delay a controller asked for on the
	 * way back to user space (Linux 6.12 blkcg_maybe_throttle_current from
	 * resume_user_mode_work), which fio's clat includes.
	 */
	delay = io->op.cpu_ns;
	if (!io->t->async)
		delay += ios_blkcg_task_throttle(&io->t->ioc, now + io->op.cpu_ns);
	if (delay)
		(void)ios_sim_at(c->sim, now + delay, ev_io_done, io, 0);
	else
		io_done(io, now);
}

static void ev_io_step(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_io *io = arg;

	if (!ios_timer_fire(&io->step_timer, data))
		return;
	io_step(io, sim->now);
}

/* What the op waited for is there: the task runs again after the wake-up latency. */
static void io_op_wake(struct ios_vfs_op *op, uint64_t now)
{
	struct run_io *io = op->priv;

	(void)ios_timer_arm(io->t->ctx->sim, &io->step_timer, now + io->t->ctx->lab.complete_ns,
			    ev_io_step, io);
}

/* The system call reaches the kernel (after the submission CPU time). */
static void io_submit_body(struct ios_sim *sim, struct run_io *io)
{
	struct run_task *t = io->t;
	const struct ios_job *j = t->job;

	if (t->null_engine) {
		io_done(io, sim->now);
		return;
	}
	memset(&io->op, 0, sizeof(io->op));
	io->op.file = &io->tf->file;
	io->op.wake = io_op_wake;
	io->op.priv = io;
	io->op.ioprio = io->ioprio;
	if (io->sync_op) {
		io->op.type = io->dir ? IOS_VFS_FDATASYNC : IOS_VFS_FSYNC;
	} else if (ios_engine_is_fileop(j->ioengine)) {
		if (!ios_run_fileop_prepare(t, io)) {
			io_done(io, sim->now);
			return;
		}
	} else if (io->trim) {
		/* BLKDISCARD: never through the page cache */
		io->op.off = io->offset;
		io->op.len = io->len;
		io->op.type = IOS_VFS_DISCARD;
	} else {
		io->op.off = io->offset;
		io->op.len = io->len;
		if (j->direct)
			io->op.type = io->dir == IOS_WRITE ? IOS_VFS_DIRECT_WRITE : IOS_VFS_DIRECT_READ;
		else
			io->op.type = io->dir == IOS_WRITE ? IOS_VFS_WRITE : IOS_VFS_READ;
	}
	if (ios_run_err_submit(io))
		io_done(io, sim->now);
	else
		io_step(io, sim->now);
}

/*
 * The I/O enters the kernel. A batch of more than AIO_PLUG_THRESHOLD (2)
 * I/Os of a libaio or io_uring job on a blk-mq queue runs under the task's
 * plug: started before its first I/O, finished after its last (Linux 6.12
 * io_submit in fs/aio.c; io_submit_state_start's need_plug = max_ios > 2 in
 * io_uring/io_uring.c, for fio's one io_uring_enter per commit).
 */
static void ev_io_submit(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_io *io = arg;
	struct run_task *t = io->t;
	uint8_t plug = io->plug;

	(void)data;
	io->plug = 0;
	if (plug & RUN_PLUG_START)
		ios_blk_start_plug(&t->ioc, &t->plug);
	io_submit_body(sim, io);
	if (plug & RUN_PLUG_FINISH)
		ios_blk_finish_plug(&t->ioc, &t->plug, sim->now);
}

static void account_io(struct run_task *t, struct run_io *io, uint64_t now)
{
	struct ios_job_result *r = t->res;
	/*
	 * trims have fio's third direction in the results (the task's counters
	 * keep them as writes), made with the result for a job that trims (plan.c)
	 */
	struct ios_dir_result *d = io->trim ? r->trim : &r->dir[io->dir];
	uint64_t clat = now - io->issue_ns, lat = now - io->start_ns;

	if (io->sync_op) {
		if (io->error)
			r->error = -io->error;
		if (t->stats_on) {
			r->sync_total_ios++;
			if (!t->job->disable_clat)
				ios_lat_add(&r->sync_lat, clat);
		}
		return;
	}
	ios_run_err_complete(t, io);
	if (io->error) {
		/* issued, but no bytes and no latency (errors.c says what happens next) */
		ios_run_err_io(t, io);
		d->total_ios += t->stats_on;
		return;
	}
	t->bytes_done[io->dir] += io->len;
	t->ios_done[io->dir]++;
	if (t->ctx->verify)
		ios_run_verify_completed(t, io);
	if (!t->stats_on || ios_run_fileop_account(t, io, d, now))
		return;
	d->io_bytes += io->len;
	d->total_ios++;
	/* disable_slat / disable_clat / disable_lat (gtod_reduce): fio keeps no such samples */
	if (t->async && !t->job->disable_slat)
		ios_lat_add(&d->slat, io->issue_ns - io->start_ns);
	if (!t->job->disable_clat) {
		ios_lat_add(&d->clat, clat);
		ios_job_mark_latency(r, clat);
		if (t->ctx->cfg->io_done && !io->trim)
			t->ctx->cfg->io_done(t->ctx->cfg->io_done_arg, t->index, io->dir, now, clat);
	}
	ios_run_window_io(t, io->len, clat, now);
	if (!t->job->disable_lat)
		ios_lat_add(&d->lat, lat);
	ios_run_lat_target_io(t, lat, now);
	if (!io->trim) {
		/* windowed bw/iops samples and the logs are for reads and writes only */
		ios_run_sample_sync(t, now);
		t->sample_bytes[io->dir] += io->len;
		t->sample_ios[io->dir]++;
	}
	if (!t->bw_win_ns && !t->job->disable_bw)
		/* fio's per-I/O rate: bytes * 10^6 / clat_ns, an integer */
		ios_sample_add(&d->bw, clat ? (double)(io->len * 1000000 / clat) : 0.0);
	if (!t->iops_win_ns && !ios_run_gtod_reduced(t->job))
		ios_sample_add(&d->iops, 1.0);
	if (t->logging) {
		/* fio logs each I/O's own priority (cmdprio) */
		t->log->prio = io->ioprio ? (unsigned)io->ioprio : ios_fiolog_job_prio(t->job);
		ios_fiolog_io(t->log, now - t->ramp_end_ns, io->trim ? IOS_DDIR_TRIM : io->dir,
			      io->len, io->offset, t->async,
			      io->issue_ns - io->start_ns, clat, lat);
	}
	if (t->ctx->series && !t->ctx->series_err) {
		t->ctx->series_err = ios_series_add(t->ctx->series, t->index, now, io->len);
		if (!t->ctx->series_err && !t->job->disable_clat)
			t->ctx->series_err = ios_series_add_lat(t->ctx->series, t->index, now, clat);
		/* a copy into the page cache: its disk time comes with writeback (disk[]) */
		if (!t->ctx->series_err && !io->trim && !io->sync_op && io->dir == IOS_WRITE &&
		    !t->job->direct && io->op.type == IOS_VFS_WRITE)
			t->ctx->series_err = ios_series_add_cached(t->ctx->series, t->index, now,
								   io->len);
	}
}

/* Account at most @max completed data I/Os (fio's getevents maximum); syncs don't count. */
static unsigned reap(struct run_task *t, uint64_t now, unsigned max)
{
	unsigned n = 0;

	while (t->done_head && n < max) {
		struct run_io *io = t->done_head;

		t->done_head = io->next;
		if (!t->done_head)
			t->done_tail = NULL;
		account_io(t, io, now);
		ios_run_zbd_put(t, io, now);
		t->inflight--;
		t->nr_done--;
		if (io == t->sync_io) {
			io->next = NULL;
			continue;
		}
		io->next = t->free_ios;
		t->free_ios = io;
		n++;
	}
	if (n && t->stats_on)
		t->res->io_complete[ios_batch_bucket(n)]++;
	/* fio's default thinktime_blocks_type=complete counts completions */
	if (t->async && !t->job->thinktime_blocks_issue)
		t->think_count += n;
	return n;
}

/* ---- the loop ---- */

static void ev_task(struct ios_sim *sim, void *arg, uint64_t data);

static void task_arm(struct run_task *t, uint64_t when)
{
	(void)ios_timer_arm(t->ctx->sim, &t->timer, when, ev_task, t);
}

static void task_sleep_io(struct run_task *t, unsigned threshold, uint64_t cursor)
{
	t->res->ctx++;
	if (!t->inflight || threshold == 0) {
		task_arm(t, cursor);
		return;
	}
	t->state = TS_WAIT_IO;
	t->wait_threshold = threshold;
	t->wait_from_ns = cursor;
	if (t->nr_done >= threshold)
		task_arm(t, cursor);
	else
		ios_timer_cancel(&t->timer);
}

static void task_sleep_until(struct run_task *t, uint64_t when)
{
	/* the job ends at its deadline: no sleep runs past it (fio clamps thinktime too) */
	if (when > t->deadline_ns)
		when = t->deadline_ns;
	t->res->ctx++;
	t->state = TS_WAIT_TIMER;
	task_arm(t, when);
}

/*
 * fio's wait_for_completions on a full queue: getevents for at least
 * min(iodepth_batch_complete_min, in flight) and at most
 * iodepth_batch_complete_max completions, again and again until no more
 * than iodepth_low are in flight. Returns false while it waits.
 */
static bool drain(struct run_task *t, uint64_t now)
{
	/* a do-while in fio: one getevents at least */
	while (t->inflight && (t->draining_first || t->inflight > t->depth_low)) {
		unsigned min = t->drain_min < t->inflight ? t->drain_min : t->inflight;

		if (t->nr_done < min) {
			task_sleep_io(t, min, now);
			return false;
		}
		reap(t, now, t->batch_complete_max);
		t->draining_first = false;
	}
	t->draining = false;
	return true;
}

/*
 * number_ios: fio's exceeds_number_ios counts the I/Os done, queued and in
 * flight, so the I/Os issued, against number_ios times loops.
 */
static bool target_reached(const struct run_task *t)
{
	const struct ios_job *j = t->job;
	int v = t->vt ? ios_run_verify_reached(t) : -1;

	if (v >= 0)
		return v;
	if (j->number_ios && t->ios_issued[IOS_READ] + t->ios_issued[IOS_WRITE] >=
			     j->number_ios * (j->loops ? j->loops : 1))
		return true;
	return t->io_issued >= t->io_target;
}

/*
 * Earliest time the rate limits allow the next I/O in @dir, counted from the
 * rate's epoch (fio's usec_for_io). fio turns both limits into bytes per
 * second: rate= when given, else rate_iops= times the smallest block size.
 * Linear: what was issued, at that rate. Poisson: the sum of the gaps drawn
 * at each issue.
 */
static uint64_t rate_bps(const struct ios_job *j, int dir)
{
	uint64_t min_bs = j->bs_min[dir] ? j->bs_min[dir] : j->bs[dir];

	return j->rate[dir] ? j->rate[dir] : (uint64_t)j->rate_iops[dir] * min_bs;
}

static uint64_t rate_gate(const struct run_task *t, int dir)
{
	const struct ios_job *j = t->job;
	uint64_t base = t->stats_on ? t->ramp_end_ns : t->start_ns, bps = rate_bps(j, dir);

	if (!bps)
		return 0;
	if (j->rate_process_poisson)
		return base + t->rate->poisson_ns[dir];
	return base + (uint64_t)((__uint128_t)t->rate->bytes[dir] * IOS_NSEC_PER_SEC / bps);
}

/*
 * An I/O in @dir was issued: move the rate's clock. For rate_process=poisson,
 * fio's usec_for_io: a rate in bytes/s (rate=, else rate_iops= times the
 * smallest block size) is turned into IOPS of the smallest block, and the
 * next gap is (10^6 / iops) us times -ln(u), u uniform in (0, 1], from the
 * direction's own generator (seeded from the job's).
 */
static void rate_issued(struct run_task *t, int dir, uint64_t len)
{
	const struct ios_job *j = t->job;

	if (!t->rate)
		return;
	t->rate->bytes[dir] += len;
	if (j->rate_process_poisson && (j->rate[dir] || j->rate_iops[dir])) {
		uint64_t min_bs = j->bs_min[dir] ? j->bs_min[dir] : j->bs[dir];
		uint64_t iops = min_bs ? rate_bps(j, dir) / min_bs : 0;
		double u = 1.0 - ios_rand_double(&t->rate->poisson_rng[dir]);	/* (0, 1] */
		uint64_t gap_us;

		if (!iops)
			return;	/* refused at set-up */
		gap_us = (uint64_t)((double)(1000000 / iops) * -log(u));
		t->rate->poisson_ns[dir] += gap_us * IOS_NSEC_PER_USEC;
	}
}

/*
 * rate_min / rate_iops_min, as fio's check_min_rate: after a 2 s settling
 * time from the start (the end of ramp_time), each direction that has
 * completed I/O is measured over at least rate_cycle; completions in that
 * span below the minimum end the job with EIO. rate_min wins over
 * rate_iops_min when both are set, as in fio. Returns true when the job fails.
 */
static bool min_rate_failed(struct run_task *t, uint64_t now)
{
	const struct ios_job *j = t->job;
	struct run_rate *rt = t->rate;

	if (!t->stats_on || now - t->ramp_end_ns < 2 * IOS_NSEC_PER_SEC)
		return false;
	for (int d = 0; d < 2; d++) {
		const struct ios_dir_result *dr = &t->res->dir[d];
		uint64_t spent_ms, got;
		char where[300];

		if ((!j->rate_min[d] && !j->rate_iops_min[d]) || !dr->io_bytes)
			continue;
		if (rt->rc_bytes[d] || rt->rc_ios[d]) {
			spent_ms = (now - rt->rc_at_ns[d]) / IOS_NSEC_PER_MSEC;
			if (!spent_ms || spent_ms * IOS_NSEC_PER_MSEC < j->rate_cycle_ns)
				continue;
			snprintf(where, sizeof(where), "%s:%d: job '%s'", j->file ? j->file : "?",
				 j->line, j->name);
			if (j->rate_min[d]) {
				got = (dr->io_bytes - rt->rc_bytes[d]) * 1000 / spent_ms;
				if (got < j->rate_min[d]) {
					(void)ios_run_warn(t->ctx->res,
							   "%s: rate_min=%" PRIu64 "B/s not met, "
							   "got %" PRIu64 "B/s (fio: the job ends with "
							   "EIO)", where, j->rate_min[d], got);
					return true;
				}
			} else {
				got = (dr->total_ios - rt->rc_ios[d]) * 1000 / spent_ms;
				if (got < j->rate_iops_min[d]) {
					(void)ios_run_warn(t->ctx->res,
							   "%s: rate_iops_min=%u not met, got %"
							   PRIu64 " IOPS (fio: the job ends with EIO)", where,
							   j->rate_iops_min[d], got);
					return true;
				}
			}
		}
		rt->rc_bytes[d] = dr->io_bytes;
		rt->rc_ios[d] = dr->total_ios;
		rt->rc_at_ns[d] = now;
	}
	return false;
}

static void finish(struct run_task *t, uint64_t now)
{
	struct ios_job_result *r = t->res;
	uint64_t begin = t->ramp_end_ns < now ? t->ramp_end_ns : now;

	ios_run_sample_sync(t, now);
	t->state = TS_DONE;
	ios_timer_cancel(&t->timer);
	ios_timer_cancel(&t->sample_timer);
	ios_run_sample_finish_logs(t, now);
	ios_run_iolog_close(t, now);
	r->finish_ns = now;
	r->runtime_ns = now - begin;
	r->latency_depth = ios_run_lat_target_depth(t);
	for (int d = 0; d < 2; d++)
		if (t->dir_used[d])
			r->dir[d].runtime_ns = r->runtime_ns;
	if (ios_rw_has_trim(t->job->rw))
		r->trim->runtime_ns = r->runtime_ns;	/* made with the result (plan.c) */
	ios_run_err_finish(t);
	ios_run_verify_finish(t, now);
	/* unlink=1: fio removes the job's files after its stats are taken */
	if (t->job->unlink) {
		for (unsigned k = 0; k < t->nr_files; k++)
			if (!t->files[k].f->is_dev)
				ios_vfs_unlink_now(t->ctx->vfs, t->files[k].f->inode, now);
		ios_run_real_unlink(t);
	}
	t->ioc.nr_tasks = 0;
	ios_queue_ioc_exit(t->ctx->q, &t->ioc, now);
	ios_run_task_finished(t->ctx, t, now);
}

void ios_run_task_account(struct run_task *t, struct run_io *io, uint64_t now)
{
	account_io(t, io, now);
}

void ios_run_task_finish(struct run_task *t, uint64_t now)
{
	finish(t, now);
}

static void task_open_wake(struct ios_vfs_op *op, uint64_t now)
{
	struct run_task *t = op->priv;

	task_arm(t, now + t->ctx->lab.complete_ns);
}

/*
 * Open the job's files one by one, as fio does before its I/O loop: the
 * directory and inode reads of the layout, then fio's invalidate=1 drops
 * what the cache holds of the file. Returns false while an open waits.
 */
static bool open_files(struct run_task *t, uint64_t now)
{
	struct run_ctx *c = t->ctx;

	while (t->open_idx < t->nr_files) {
		struct run_task_file *tf = &t->files[t->open_idx];
		struct ios_vfs_op *op = &t->ios[0].op;	/* no I/O is in flight yet */
		int err = ios_run_fileop_open(t, tf);

		if (err) {
			t->res->error = err;
			t->failed = t->stop = true;
			break;
		}
		if (ios_engine_opens_are_io(t->job->ioengine)) {
			/* the engine's I/O units do the opens (fileops.c) */
			t->open_idx++;
			continue;
		}
		if (op->type != IOS_VFS_OPEN || op->file != &tf->file) {
			memset(op, 0, sizeof(*op));
			op->type = IOS_VFS_OPEN;
			op->file = &tf->file;
			op->wake = task_open_wake;
			op->priv = t;
		}
		if (ios_vfs_step(c->vfs, op, now) == IOS_VFS_WAIT) {
			t->res->ctx++;
			t->state = TS_WAIT_TIMER;
			return false;
		}
		if (t->job->invalidate)
			ios_vfs_invalidate(c->vfs, tf->f->inode);
		ios_run_iolog_file(t, tf, "open", now);
		t->open_idx++;
	}
	t->opened = true;
	return true;
}

/* Issue the sync I/O unit (fsync or fdatasync of @tf) at @cursor. */
static void issue_sync(struct run_task *t, struct run_task_file *tf, bool datasync,
		       uint64_t cursor)
{
	struct run_io *io = t->sync_io;
	struct run_ctx *c = t->ctx;

	IOS_BUG_ON_MSG(!io, "a sync for a job set up without its sync unit");
	io->tf = tf;
	io->sync_op = true;
	io->trim = false;
	io->dir = datasync ? 1 : 0;
	io->offset = io->len = 0;
	io->error = 0;
	io->start_ns = cursor;
	io->issue_ns = cursor;
	t->inflight++;
	ios_run_iolog_io(t, io, cursor);
	(void)ios_sim_at(c->sim, cursor + c->lab.submit_ns, ev_io_submit, io, 0);
	task_sleep_io(t, 1, cursor + c->lab.submit_ns);
}

#define AIO_PLUG_THRESHOLD 2	/* fs/aio.c: io_submit plugs above this many iocbs */

/*
 * A submission batch ends: fio's io_submit histogram counts it, and a
 * batch the kernel would plug gets its plug (ev_io_submit).
 */
static void batch_end(struct run_task *t, unsigned *batch)
{
	if (*batch > AIO_PLUG_THRESHOLD && t->plug_batches && t->ctx->q && t->ctx->q->mq) {
		t->batch_first->plug |= RUN_PLUG_START;
		t->batch_last->plug |= RUN_PLUG_FINISH;
	}
	if (*batch) {
		t->res->io_submit[ios_batch_bucket(*batch)]++;
		*batch = 0;
	}
}

/*
 * The step begins with completions: a full queue drains to iodepth_low
 * (false while it waits); otherwise everything done is reaped, in getevents
 * batches of at most the maximum (io_u_quiesce).
 */
static bool step_reap(struct run_task *t, uint64_t now)
{
	if (t->draining)
		return drain(t, now);
	while (reap(t, now, t->batch_complete_max))
		;
	return true;
}

/* The clock's effects on the job: the end of the ramp, the deadline, rate_min. */
static void step_limits(struct run_task *t, uint64_t now)
{
	const struct ios_job *j = t->job;

	if (!t->stats_on && now >= t->ramp_end_ns) {
		ios_run_sample_sync(t, now);
		t->stats_on = true;
		/* fio's reset_all_stats: the rate counts again from the end of the ramp */
		if (t->rate) {
			memset(t->rate->bytes, 0, sizeof(t->rate->bytes));
			memset(t->rate->poisson_ns, 0, sizeof(t->rate->poisson_ns));
		}
	}
	if (!t->stop && now >= t->deadline_ns) {
		t->stop = true;
		t->cut = t->lab_deadline && !target_reached(t);
	}
	if (!t->stop && !t->failed && (j->rate_min[0] || j->rate_min[1] || j->rate_iops_min[0] ||
				       j->rate_iops_min[1]) && min_rate_failed(t, now)) {
		t->failed = true;
		t->stop = true;
		t->res->error = -EIO;
	}
}

/* Stopped or done: wait for what is in flight, sync at the end, finish. */
static void step_end(struct run_task *t, uint64_t now)
{
	const struct ios_job *j = t->job;

	if (t->inflight) {
		task_sleep_io(t, t->inflight, now);
		return;
	}
	/* end_fsync / fsync_on_close: sync every file the job wrote to */
	if ((j->end_fsync || j->fsync_on_close) && t->bytes_issued[IOS_WRITE] && !t->null_engine &&
	    !t->failed &&
	    t->end_sync_idx < t->nr_files) {
		issue_sync(t, &t->files[t->end_sync_idx++], false, now);
		return;
	}
	/* fio's do_verify after the write phase, then the next loop */
	if (ios_run_verify_phase_next(t, now)) {
		task_arm(t, now);
		return;
	}
	finish(t, now);
}

/* fsync=N / fdatasync=N: after N writes, drain and sync. True when the step ends here. */
static bool step_sync_due(struct run_task *t, unsigned *batch, uint64_t cursor)
{
	const struct ios_job *j = t->job;

	if (!((j->fsync_blocks && t->writes_since_sync >= j->fsync_blocks) ||
	      (j->fdatasync_blocks && t->writes_since_sync >= j->fdatasync_blocks)) ||
	    t->null_engine)
		return false;
	batch_end(t, batch);
	t->writes_since_sync = 0;
	if (t->inflight) {
		/* fio queues the sync behind the writes: wait for them first */
		t->writes_since_sync = j->fsync_blocks ? j->fsync_blocks : j->fdatasync_blocks;
		task_sleep_io(t, t->inflight, cursor);
		return true;
	}
	issue_sync(t, t->last_written ? t->last_written : &t->files[0], !j->fsync_blocks, cursor);
	return true;
}

/* thinktime every thinktime_blocks I/Os. True when the task thinks (the step ends). */
static bool step_think(struct run_task *t, unsigned *batch, uint64_t cursor)
{
	const struct ios_job *j = t->job;
	uint64_t wake;

	if (!j->thinktime_ns || t->think_count < (j->thinktime_blocks ? j->thinktime_blocks : 1))
		return false;
	batch_end(t, batch);
	/* fio's handle_thinktime quiesces first: everything in flight completes */
	if (t->inflight) {
		task_sleep_io(t, t->inflight, cursor);
		return true;
	}
	t->think_count = 0;
	wake = cursor > UINT64_MAX - j->thinktime_ns ? UINT64_MAX : cursor + j->thinktime_ns;
	/*
	 * thinktime_spin of it is spent running (no sleep, no context
	 * switch), the rest asleep; the delay is thinktime either way,
	 * and neither runs past the job's deadline.
	 */
	if (j->thinktime_spin_ns >= j->thinktime_ns) {
		t->state = TS_WAIT_TIMER;
		task_arm(t, wake > t->deadline_ns ? t->deadline_ns : wake);
	} else {
		task_sleep_until(t, wake);
	}
	return true;
}

/* flow= holds the next I/O back (flow.c). True when the task waits (the step ends). */
static bool step_flow_held(struct run_task *t, unsigned *batch, uint64_t cursor)
{
	if (!t->flow_sleep_due) {
		if (!ios_run_flow_held(t))
			return false;
		batch_end(t, batch);
		if (!t->job->flow_sleep_ns) {
			/* fio spins; nothing changes until another member moves (or the runtime ends) */
			ios_run_flow_block(t);
			t->state = TS_WAIT_TIMER;
			task_arm(t, t->deadline_ns);
			return true;
		}
		t->flow_sleep_due = true;
	}
	/* fio's io_u_quiesce, then usleep(flow_sleep) */
	if (t->inflight) {
		task_sleep_io(t, t->inflight, cursor);
		return true;
	}
	t->flow_sleep_due = false;
	task_sleep_until(t, cursor + t->job->flow_sleep_ns);
	return true;
}

/* zonemode=zbd: @io to a write pointer (zbd.c), or the task waits for I/O to complete */
static enum run_zbd_act step_zbd(struct run_task *t, struct run_io *io, unsigned *batch,
				 uint64_t cursor)
{
	enum run_zbd_act a = ios_run_zbd_adjust(t, io);

	io->zbd_ok = a == RUN_ZBD_ACCEPT;
	if (a != RUN_ZBD_ACCEPT)
		batch_end(t, batch);
	if (a == RUN_ZBD_QUIESCE) {
		task_sleep_io(t, t->inflight, cursor);
	} else if (a == RUN_ZBD_WAIT) {
		t->zbd_wait = true;	/* ios_run_task_zbd_wake */
		task_sleep_until(t, t->deadline_ns);
	} else if (a == RUN_ZBD_EOF) {
		t->prepared = NULL;
		io->next = t->free_ios;
		t->free_ios = io;
		t->io_target = t->io_issued;
	}
	return a;
}

void ios_run_task_zbd_wake(struct run_task *t, uint64_t now)
{
	if (t->zbd_wait) {
		t->zbd_wait = false;
		task_arm(t, now);
	}
}

/* rate / rate_iops hold the prepared @io back. True when the task waits (the step ends). */
static bool step_rate_wait(struct run_task *t, const struct run_io *io, unsigned *batch,
			   uint64_t cursor)
{
	uint64_t gate = rate_gate(t, io->dir);

	/* fio cuts the rate-limiting sleep at the runtime (rate_ddir) */
	if (gate > t->deadline_ns)
		gate = t->deadline_ns;
	if (gate <= cursor)
		return false;
	batch_end(t, batch);
	if (t->inflight && t->async && !t->offload) {
		/* inline, fio waits for all in flight when ahead of the rate (io_u_quiesce) */
		task_sleep_io(t, t->inflight, cursor);
		return true;
	}
	if (t->inflight && t->async) {
		/* offload: reap what completes, submit at the gate (rate-submit.c) */
		t->res->ctx++;
		t->state = TS_WAIT_IO;
		t->wait_threshold = 1;
		t->wait_from_ns = cursor;
		task_arm(t, gate);
		return true;
	}
	task_sleep_until(t, gate);
	return true;
}

/* Submit @io at @cursor: it reaches the queue after lab.submit_ns, the returned time. */
static uint64_t step_submit(struct run_task *t, struct run_io *io, uint64_t cursor)
{
	const struct ios_job *j = t->job;
	struct run_ctx *c = t->ctx;

	io->start_ns = cursor;
	ios_run_iolog_io(t, io, cursor);
	cursor += c->lab.submit_ns;
	io->issue_ns = t->async ? cursor : io->start_ns;
	t->inflight++;
	t->io_issued += io->len;
	t->bytes_issued[io->dir] += io->len;
	if (!io->vread)		/* fio rates no verify read */
		rate_issued(t, io->dir, io->len);
	if (io->dir == IOS_WRITE) {
		t->writes_since_sync++;
		t->last_written = io->tf;
	}
	t->ios_issued[io->dir]++;
	ios_run_verify_submitted(t, io);
	if (j->thinktime_blocks_issue || !t->async)
		t->think_count++;
	if (t->stats_on)
		t->res->io_depth[ios_depth_bucket(t->inflight)]++;
	(void)ios_sim_at(c->sim, cursor, ev_io_submit, io, 0);
	return cursor;
}

/*
 * One turn of fio's loop: reap, check the limits, then issue until the
 * depth is reached, a sync or a think is due, or a rate holds the next I/O.
 */
static void task_step(struct run_task *t, uint64_t now)
{
	uint64_t cursor = now;
	unsigned batch = 0;

	t->state = TS_RUNNING;
	/*
	 * An async engine's io_submit / io_uring_enter returned: the cgroup
	 * v2 delay a controller asked for during it is slept before the task
	 * goes on (blkcg_maybe_throttle_current). Sync engines take it in
	 * io_step, inside the call fio times.
	 */
	if (t->async && t->ioc.throttle_disk) {
		uint64_t d = ios_blkcg_task_throttle(&t->ioc, now);

		if (d) {
			task_sleep_until(t, now + d);
			return;
		}
	}
	if (!t->opened && !open_files(t, now))
		return;
	if (!step_reap(t, now))
		return;
	step_limits(t, now);
	if (t->stop || target_reached(t)) {
		step_end(t, now);
		return;
	}

	while (t->inflight < ios_run_lat_target_depth(t) && !t->stop && !target_reached(t)) {
		struct run_io *io;

		if (step_sync_due(t, &batch, cursor) || step_think(t, &batch, cursor))
			return;
		if (!t->prepared && t->flow && step_flow_held(t, &batch, cursor))
			return;
		if (!t->prepared) {
			struct run_io *next;

			io = t->free_ios;
			next = io->next;
			if (!(t->vt && ios_run_verify_prepare(t, io, cursor)) &&
			    !prepare_io(t, io, cursor)) {
				/* fio: out of offsets, the job's I/O is done */
				t->io_target = t->io_issued;
				break;
			}
			t->free_ios = next;
			t->prepared = io;
		}
		io = t->prepared;
		if (t->zbd && !io->vread && !io->zbd_ok && step_zbd(t, io, &batch, cursor) != RUN_ZBD_ACCEPT) {
			if (t->prepared)
				return;
			break;	/* no zone for it: the job's I/O is done */
		}
		if (!io->vread && step_rate_wait(t, io, &batch, cursor))
			return;
		t->prepared = NULL;
		cursor = step_submit(t, io, cursor);
		if (!batch++)
			t->batch_first = io;
		t->batch_last = io;
		if (!t->async) {
			/* the task sleeps in the system call */
			t->res->io_submit[ios_batch_bucket(batch)]++;
			task_sleep_io(t, 1, cursor);
			return;
		}
		if (io->trim) {
			/*
			 * fio's async engines trim synchronously (libaio's queue
			 * hook calls do_io_u_trim): the task waits for the trim;
			 * waiting for everything in flight is the nearest the
			 * completion count can say.
			 */
			t->res->io_submit[ios_batch_bucket(batch)]++;
			task_sleep_io(t, t->inflight, cursor);
			return;
		}
		if (batch >= t->batch_submit)
			batch_end(t, &batch);
	}
	batch_end(t, &batch);
	if (t->stop || target_reached(t)) {
		task_sleep_io(t, 1, cursor);
	} else {
		/* the queue is full: reap down to iodepth_low before refilling */
		t->draining = true;
		t->draining_first = true;
		t->drain_min = t->inflight < t->batch_complete_min ? t->inflight
								   : t->batch_complete_min;
		task_sleep_io(t, t->drain_min, cursor);
	}
}

static void ev_task(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_task *t = arg;

	if (!ios_timer_fire(&t->timer, data) || t->state == TS_DONE)
		return;
	ios_run_task_sample_wake(t, sim->now);
	task_step(t, sim->now);
}

void ios_run_task_start(struct run_task *t, uint64_t now)
{
	const struct ios_job *j = t->job;

	t->state = TS_RUNNING;
	t->start_ns = now;
	t->res->start_ns = now;
	t->ramp_end_ns = now + j->ramp_time_ns;
	t->stats_on = j->ramp_time_ns == 0;
	t->deadline_ns = j->runtime_ns ? t->ramp_end_ns + j->runtime_ns : UINT64_MAX;
	if (t->deadline_ns < now)
		t->deadline_ns = UINT64_MAX;
	t->lab_deadline = false;
	if (t->ctx->lab.max_sim_time_ns && t->deadline_ns > t->ctx->lab.max_sim_time_ns) {
		t->deadline_ns = t->ctx->lab.max_sim_time_ns;
		t->lab_deadline = true;
	}
	/* without any limit, the end of the simulated clock's range is one */
	if (t->deadline_ns > RUN_CLOCK_END_NS) {
		t->deadline_ns = RUN_CLOCK_END_NS;
		t->lab_deadline = true;
	}
	t->bw_at_ns = t->iops_at_ns = t->ramp_end_ns;
	ios_run_ss_task_start(t, now);
	ios_run_lat_target_init(t, now);
	ios_run_sample_arm(t);
	ios_run_iolog_start(t);
	if (t->replay)
		ios_run_replay_start(t, now);
	else
		task_step(t, now);
}

void ios_run_task_start_dead(struct run_task *t, uint64_t now)
{
	/* nothing to open or issue: the first step ends it */
	t->stop = true;
	t->opened = true;
	ios_run_task_start(t, now);
}

void ios_run_task_wake(struct run_task *t, uint64_t now)
{
	if (t->state == TS_WAIT_TIMER)
		task_arm(t, now);
}

/* Stop issuing (exitall); in-flight I/O still completes. */
void ios_run_task_stop_now(struct run_task *t, uint64_t now)
{
	if (t->replay) {
		ios_run_replay_stop(t, now);
		return;
	}
	if (t->state == TS_DONE || t->state == TS_NEW)
		return;
	t->stop = true;
	if (t->state == TS_WAIT_TIMER)
		task_arm(t, now);
}
