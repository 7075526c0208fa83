/*
 * Replay tasks: a process of a recorded trace, doing its I/O again.
 *
 * A replay task is a run_task without files: instead of fio's pattern it
 * takes its I/Os from a cursor over its process's records (replay.h), one
 * at a time, and sends them straight to the block layer at the recorded
 * sectors, as O_DIRECT would (no page cache, no filesystem). It shares the
 * rest with job tasks: start, statistics, logs, finish, the report.
 *
 * When an I/O goes out, per process:
 * - not before its recorded time (scaled by replay.time_scale, ignored
 *   with replay.no_stall), and in recorded order;
 * - not while the process is blocked. A read, a sync write or a cache flush
 *   blocks: the process waited for it in a system call. With
 *   replay.iodepth of them in flight (1 by default: read(), O_DIRECT
 *   write(), fsync()) the process waits for one to complete, and then needs
 *   lab.complete_ns to run again and lab.submit_ns to issue, so its next
 *   I/O goes out no earlier than that. Writes without the sync flag
 *   (writeback) and readahead do not block. So a process that was waiting
 *   on its disk in the trace waits on the simulated one, and one that was
 *   thinking keeps its recorded rhythm.
 * - A bio that finds no free request sleeps its process until it gets one
 *   (blktrace's S), as in the kernel; that also bounds the writeback a
 *   replay can have queued.
 * I/Os larger than queue.max_sectors_kb are split into several bios, as
 * the kernel's direct-I/O path builds them; a preflush with data becomes a
 * cache flush followed by the write.
 *
 * iosched replay makes one such task per traced process, starting at its
 * first I/O; a job with read_iolog=FILE is one task for the whole trace
 * (every process's I/O, in trace order, as fio replays it), starting when
 * the job starts and keeping the job's name and pid, with recorded times
 * counted from the trace's first I/O.
 *
 * What is measured: an I/O's latency runs from its bio entering the queue
 * (the recorded Q) to its completion, blktrace's Q2C; there is no
 * submission latency. Cache flushes count as fio's "sync" operations.
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"
#include "iosched/replay.h"

struct rpl_io {
	struct run_io io;		/* what accounting reads: dir, len, offset, times */
	struct run_task *t;
	struct rpl_io *next_free;
	struct rpl_io *next_all;		/* every unit of the task, for freeing */
	struct ios_bio *bios;
	unsigned cap, nr, submitted, done;
	bool blocking;
};

struct run_replay {
	struct ios_replay *own;		/* a job's read_iolog, opened for this task */
	struct ios_replay_cursor *cur;
	uint64_t base_ns, first_ns;	/* due = base + scaled(recorded - first) */
	struct ios_replay_rec rec;	/* the next I/O */
	bool have_rec, eof;
	struct rpl_io *free_units, *all_units;
	struct rpl_io *sending;		/* bios not all submitted yet */
	unsigned inflight, blocking_inflight;
	uint64_t ready_ns;		/* the process runs again, after a wait */
	bool parked;			/* a bio sleeps for a request slot */
	bool waiting;			/* blocked on blocking I/O */
	unsigned nr_units;		/* allocated: bounded by depth + writeback */
	uint64_t nr_ios;		/* what the stream holds to replay */
	bool skip_writes;		/* fio --readonly, and the stream has writes */
};

static void rpl_step(struct run_task *t, uint64_t now);

unsigned ios_run_replay_inflight(const struct run_task *t)
{
	return t->rp ? t->rp->inflight : 0;
}

uint64_t ios_run_replay_total_ios(const struct run_task *t)
{
	return t->rp ? t->rp->nr_ios : 0;
}

static void ev_rp(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_task *t = arg;

	if (!ios_timer_fire(&t->timer, data) || t->state == TS_DONE)
		return;
	ios_run_task_sample_wake(t, sim->now);
	rpl_step(t, sim->now);
}

static void rpl_arm(struct run_task *t, uint64_t when)
{
	(void)ios_timer_arm(t->ctx->sim, &t->timer, when, ev_rp, t);
}

/* Did the process wait for this I/O in a system call? */
static bool rec_blocks(const struct ios_replay_rec *rec)
{
	if (!rec->nr_sectors)
		return true;				/* a cache flush: fsync */
	if (rec->dir == IOS_READ)
		return !(rec->flags & IOS_REQ_AHEAD);	/* readahead runs ahead of the reader */
	return rec->flags & IOS_REQ_SYNC;		/* writeback does not block */
}

static void rpl_unit_done(struct rpl_io *u, uint64_t now)
{
	struct run_task *t = u->t;
	struct run_replay *rp = t->rp;

	ios_run_task_account(t, &u->io, now);
	if (t->stats_on)
		t->res->io_complete[ios_batch_bucket(1)]++;
	rp->inflight--;
	if (u->blocking) {
		rp->blocking_inflight--;
		if (rp->waiting) {
			/* the process returns from its system call */
			rp->waiting = false;
			rp->ready_ns = now + t->ctx->lab.complete_ns + t->ctx->lab.submit_ns;
			rpl_arm(t, now + t->ctx->lab.complete_ns);
		}
	}
	u->next_free = rp->free_units;
	rp->free_units = u;
	if (t->state == TS_WAIT_IO && !rp->inflight && (rp->eof || t->stop))
		rpl_arm(t, now);
}

static void rpl_bio_end(struct ios_bio *bio, uint64_t now, int error)
{
	struct rpl_io *u = bio->priv;

	if (error && !u->io.error)
		u->io.error = error;
	if (++u->done == u->nr && u->submitted == u->nr)
		rpl_unit_done(u, now);
}

/* The bio that slept for a request slot has one: the process wakes up. */
static void rpl_bio_queued(struct ios_bio *bio, uint64_t now)
{
	struct rpl_io *u = bio->priv;
	struct run_task *t = u->t;

	t->rp->parked = false;
	rpl_arm(t, now + t->ctx->lab.complete_ns);
}

static struct rpl_io *rpl_unit_get(struct run_task *t, unsigned nr_bios)
{
	struct run_replay *rp = t->rp;
	struct rpl_io *u = rp->free_units;

	if (u) {
		rp->free_units = u->next_free;
	} else {
		u = calloc(1, sizeof(*u));
		if (!u)
			return NULL;
		u->t = t;
		u->io.t = t;
		ios_timer_init(&u->io.step_timer);
		u->next_all = rp->all_units;
		rp->all_units = u;
		rp->nr_units++;
	}
	if (nr_bios > u->cap) {
		struct ios_bio *b = realloc(u->bios, nr_bios * sizeof(*b));

		if (!b) {
			u->next_free = rp->free_units;
			rp->free_units = u;
			return NULL;
		}
		u->bios = b;
		u->cap = nr_bios;
	}
	memset(u->bios, 0, nr_bios * sizeof(*u->bios));
	u->nr = nr_bios;
	u->submitted = u->done = 0;
	return u;
}

/* Build the bios of the next record: a flush, data split at max_sectors_kb, or both. */
static struct rpl_io *rpl_unit_build(struct run_task *t, const struct ios_replay_rec *rec,
				   uint64_t now)
{
	uint64_t max = t->ctx->q->tun.max_sectors_bytes >> IOS_SECTOR_SHIFT;
	bool preflush = rec->flags & IOS_REQ_PREFLUSH;
	unsigned nr = 0, k = 0;
	struct rpl_io *u;
	uint64_t sector = rec->sector, left = rec->nr_sectors;

	if (!max)
		max = 1;
	if (rec->nr_sectors)
		nr = (unsigned)((rec->nr_sectors + max - 1) / max);
	if (preflush)
		nr++;
	u = rpl_unit_get(t, nr);
	if (!u)
		return NULL;
	if (preflush) {
		u->bios[k].dir = IOS_WRITE;
		u->bios[k].flags = IOS_REQ_PREFLUSH | IOS_REQ_SYNC;
		k++;
	}
	while (left) {
		struct ios_bio *b = &u->bios[k++];
		uint64_t n = left < max ? left : max;

		b->sector = sector;
		b->nr_sectors = (uint32_t)n;
		b->dir = rec->dir;
		b->flags = rec->flags & ~IOS_REQ_PREFLUSH;
		sector += n;
		left -= n;
	}
	for (k = 0; k < nr; k++) {
		u->bios[k].ioc = &t->ioc;
		u->bios[k].end_io = rpl_bio_end;
		u->bios[k].queued = rpl_bio_queued;
		u->bios[k].priv = u;
	}
	memset(&u->io.op, 0, sizeof(u->io.op));
	u->io.tf = NULL;
	u->io.sync_op = !rec->nr_sectors;
	u->io.dir = rec->dir;
	u->io.offset = rec->sector << IOS_SECTOR_SHIFT;
	u->io.len = (uint64_t)rec->nr_sectors << IOS_SECTOR_SHIFT;
	u->io.start_ns = u->io.issue_ns = now;
	u->io.error = 0;
	u->blocking = rec_blocks(rec);
	return u;
}

/* Submit what is left of the unit being sent; true when a bio had to sleep. */
static bool rpl_send(struct run_task *t, uint64_t now)
{
	struct run_replay *rp = t->rp;
	struct rpl_io *u = rp->sending;

	while (u->submitted < u->nr) {
		struct ios_bio *b = &u->bios[u->submitted++];
		bool last = u->submitted == u->nr;
		int ret;

		/*
		 * Completion may come inside the submission (a device that
		 * refuses completes at once): the unit completes when its last
		 * bio is both submitted and done, and may be gone after that.
		 */
		if (last)
			rp->sending = NULL;
		b->submit_ns = now;
		ret = ios_queue_submit_bio(t->ctx->q, b, now);
		if (ret < 0) {
			/* refused (checked at set-up, so a bug or no memory): it fails */
			if (!u->io.error)
				u->io.error = ret;
			if (++u->done == u->nr && last)
				rpl_unit_done(u, now);
		} else if (ret == 1) {
			rp->parked = true;
			t->res->ctx++;
			t->state = TS_WAIT_IO;
			return true;
		}
	}
	return false;
}

/* The recorded time @ns on the run's clock. */
static uint64_t rpl_scale(const struct run_task *t, uint64_t ns)
{
	const struct ios_replay_tunables *tun = &t->ctx->replay_tun;
	__uint128_t v;

	if (tun->no_stall)
		return 0;
	v = (__uint128_t)ns * 100 / (unsigned)tun->time_scale;
	/* far beyond any lab.max_sim_time: the task stops there */
	return v > UINT64_MAX / 2 ? UINT64_MAX / 2 : (uint64_t)v;
}

static uint64_t rpl_due(const struct run_task *t, const struct ios_replay_rec *rec)
{
	const struct run_replay *rp = t->rp;
	uint64_t rel = rec->time_ns > rp->first_ns ? rec->time_ns - rp->first_ns : 0;

	return rp->base_ns + rpl_scale(t, rel);
}

uint64_t ios_run_replay_start_delay(const struct run_task *t)
{
	const struct ios_replay_stream *s = ios_replay_stream(t->ctx->replay, t->index);
	uint64_t d = s ? rpl_scale(t, s->first_ns) : 0;

	/* a process past the time limit starts there, and stops at once */
	if (t->ctx->lab.max_sim_time_ns && d > t->ctx->lab.max_sim_time_ns)
		d = t->ctx->lab.max_sim_time_ns;
	return d;
}

static void rpl_step(struct run_task *t, uint64_t now)
{
	struct run_replay *rp = t->rp;
	struct ios_err e = { 0 };

	t->state = TS_RUNNING;
	if (!t->stats_on && now >= t->ramp_end_ns) {
		ios_run_sample_sync(t, now);
		t->stats_on = true;
	}
	if (rp->parked) {
		t->state = TS_WAIT_IO;
		return;
	}
	if (rp->sending && rpl_send(t, now))
		return;
	for (;;) {
		uint64_t at;
		struct rpl_io *u;
		int ret;

		if (!rp->have_rec && !rp->eof && !t->stop) {
			ret = ios_replay_cursor_next(rp->cur, &rp->rec, &e);
			if (ret < 0) {
				/* the trace changed under us: the run fails with the error */
				t->res->error = -ret;
				t->stop = true;
				if (!t->ctx->replay_err.code)
					t->ctx->replay_err = e;
			}
			rp->have_rec = ret > 0;
			rp->eof = ret <= 0;
			/* fio --readonly: read_iolog's writes are not replayed (iolog.c) */
			if (rp->have_rec && rp->skip_writes && rp->rec.dir == IOS_WRITE &&
			    rp->rec.nr_sectors) {
				rp->have_rec = false;
				continue;
			}
		}
		if (t->stop || rp->eof) {
			if (rp->inflight) {
				t->res->ctx++;
				t->state = TS_WAIT_IO;
				return;
			}
			ios_run_task_finish(t, now);
			return;
		}
		at = rpl_due(t, &rp->rec);
		if (at < rp->ready_ns)
			at = rp->ready_ns;
		if (at >= t->deadline_ns) {
			t->stop = true;
			t->cut = t->lab_deadline;
			continue;
		}
		if (rp->blocking_inflight >= (unsigned)t->ctx->replay_tun.iodepth) {
			/* in a system call: wait for it to return */
			rp->waiting = true;
			t->res->ctx++;
			t->state = TS_WAIT_IO;
			return;
		}
		if (at > now) {
			t->res->ctx++;
			t->state = TS_WAIT_TIMER;
			rpl_arm(t, at);
			return;
		}
		u = rpl_unit_build(t, &rp->rec, now);
		if (!u) {
			t->res->error = ENOMEM;
			t->stop = true;
			continue;
		}
		rp->have_rec = false;
		rp->inflight++;
		if (u->blocking)
			rp->blocking_inflight++;
		t->io_issued += u->io.len;
		t->bytes_issued[u->io.dir] += u->io.len;
		t->ios_issued[u->io.dir]++;
		if (t->stats_on) {
			t->res->io_depth[ios_depth_bucket(rp->inflight)]++;
			t->res->io_submit[ios_batch_bucket(1)]++;
		}
		rp->sending = u;
		if (rpl_send(t, now))
			return;
	}
}

/* What a task replays: one stream, or (a job's read_iolog) all of them. */
static void rpl_summary(const struct ios_replay *r, size_t idx, struct ios_replay_stream *sum)
{
	if (idx != IOS_REPLAY_ALL) {
		*sum = *ios_replay_stream(r, idx);
		return;
	}
	memset(sum, 0, sizeof(*sum));
	sum->first_ns = UINT64_MAX;
	for (size_t i = 0; i < ios_replay_nr_streams(r); i++) {
		const struct ios_replay_stream *s = ios_replay_stream(r, i);

		for (int d = 0; d < 2; d++) {
			sum->ios[d] += s->ios[d];
			sum->bytes[d] += s->bytes[d];
		}
		sum->nr_ios += s->nr_ios;
		if (s->first_ns < sum->first_ns)
			sum->first_ns = s->first_ns;
		if (s->max_end > sum->max_end) {
			sum->max_end = s->max_end;
			sum->max_end_file = s->max_end_file;
			sum->max_end_where = s->max_end_where;
			sum->pid = s->pid;
			snprintf(sum->comm, sizeof(sum->comm), "%s", s->comm);
		}
	}
}

int ios_run_replay_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	struct ios_replay *r = c->replay;
	struct ios_replay_stream s;
	struct run_replay *rp;
	size_t idx = t->index;
	int ret;

	rp = calloc(1, sizeof(*rp));
	if (!rp)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	t->rp = rp;
	if (!r) {
		/* read_iolog= in a job: the whole trace, in place of the job's pattern */
		struct ios_err fe = { 0 };

		ret = ios_replay_open(j->read_iolog, &rp->own, &fe);
		if (ret)
			return IOS_ERR(e, ret, "%s:%d: job '%s': read_iolog=%s: %s",
				       j->file ? j->file : "?", j->line, j->name, j->read_iolog,
				       fe.msg);
		r = rp->own;
		idx = IOS_REPLAY_ALL;
	} else if (idx >= ios_replay_nr_streams(r)) {
		return IOS_ERR(e, -EINVAL, "replay: no stream for task %u", t->index);
	}
	rpl_summary(r, idx, &s);
	if (s.max_end > c->host->disk.nr_sectors)
		return IOS_ERR(e, -ERANGE, "%s: %s %" PRIu64 ": process %" PRIu32 " (%s) reaches "
			       "sector %" PRIu64 ", past the end of the simulated disk (%" PRIu64
			       " sectors, device %s): the trace came from a larger disk; give "
			       "--set device.capacity=%" PRIu64 "GiB (or a --device that large)",
			       s.max_end_file ? s.max_end_file : ios_replay_name(r),
			       ios_replay_info(r)->format == IOS_REPLAY_BLKTRACE ? "record" : "line",
			       s.max_end_where, s.pid, s.comm, s.max_end, c->host->disk.nr_sectors,
			       c->host->disk.profile,
			       (s.max_end + (1u << (30 - IOS_SECTOR_SHIFT)) - 1) >>
				       (30 - IOS_SECTOR_SHIFT));
	ret = ios_replay_cursor_open(r, idx, &rp->cur, e);
	if (ret)
		return ret;
	if (idx != IOS_REPLAY_ALL) {
		/* the process itself: its pid and name */
		t->ioc.pid = s.pid;
		snprintf(t->ioc.comm, sizeof(t->ioc.comm), "%s", s.comm);
	} else {
		/* a job replays from its start, first I/O first (fio's read_iolog) */
		rp->first_ns = s.first_ns;
	}
	t->depth = (unsigned)c->replay_tun.iodepth;
	if (c->cfg->read_only && s.ios[IOS_WRITE]) {
		/*
		 * fio --readonly (iolog.c) skips them too; its "skips replay of N
		 * writes" never prints, as the loop skips a write before counting
		 * it. iosched says it, before the run.
		 */
		ret = ios_run_warn(c->res, "%s: skips replay of %" PRIu64 " writes due to read-only "
				   "(--readonly)", j->name, s.ios[IOS_WRITE]);
		if (ret)
			return IOS_ERR(e, ret, "out of memory");
		s.nr_ios -= s.ios[IOS_WRITE];
		s.ios[IOS_WRITE] = s.bytes[IOS_WRITE] = 0;
		rp->skip_writes = true;
	}
	rp->nr_ios = s.nr_ios;
	t->io_target = s.bytes[IOS_READ] + s.bytes[IOS_WRITE];
	if (!t->io_target)
		t->io_target = UINT64_MAX;	/* flushes only: progress by time */
	t->dir_used[IOS_READ] = s.ios[IOS_READ] != 0;
	t->dir_used[IOS_WRITE] = s.ios[IOS_WRITE] != 0;
	return 0;
}

void ios_run_replay_start(struct run_task *t, uint64_t now)
{
	if (!t->ctx->replay)
		t->rp->base_ns = now;
	rpl_step(t, now);
}

void ios_run_replay_stop(struct run_task *t, uint64_t now)
{
	if (t->state == TS_DONE || t->state == TS_NEW)
		return;
	t->stop = true;
	if (t->state == TS_WAIT_TIMER)
		rpl_arm(t, now);
}

void ios_run_replay_free(struct run_task *t)
{
	struct run_replay *rp = t->rp;

	if (!rp)
		return;
	ios_replay_cursor_close(rp->cur);
	ios_replay_close(rp->own);
	while (rp->all_units) {
		struct rpl_io *u = rp->all_units;

		rp->all_units = u->next_all;
		free(u->bios);
		free(u);
	}
	free(rp);
	t->rp = NULL;
}

int ios_replay_run(struct ios_replay *r, const struct ios_run_config *cfg,
		   struct ios_run_result *out, struct ios_err *e)
{
	const struct ios_jobfile *jf = ios_replay_jobfile(r);
	struct ios_run_config rc = *cfg;

	memset(out, 0, sizeof(*out));
	if (!jf)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	rc.replay = r;
	return ios_run(jf, &rc, out, e);
}
