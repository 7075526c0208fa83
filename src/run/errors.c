/*
 * I/O errors in a job, handled as fio 3.33 handles them (td_error.c,
 * backend.c's break_on_this_error, io_u.c's io_completed).
 *
 * Where errors come from in the simulator:
 *  - ENOSPC: a write reaching past the blocks a file could get (layout.c
 *    gives a file fio would not write out before the run what space is
 *    left; run_file.alloc). It fails in the system call, before the device.
 *  - EIO: lab.eio_every=N fails every Nth read or write a job completes,
 *    after the device did it (fault injection: no kernel has such a knob).
 *  - EOPNOTSUPP: a trim on a device without discard (the block layer).
 *
 * What an error does: fio sorts it into a kind (verify for EILSEQ, else
 * read or write by the I/O's direction; trims count as writes) and calls it
 * non-fatal when continue_on_error= names that kind and the errno is in the
 * kind's ignore_error= list (EIO and EILSEQ when none was given). A
 * non-fatal error is counted and the job goes on. Otherwise, with
 * fill_device=1, ENOSPC or EDQUOT ends the job without an error and
 * uncounted: the filesystem is full, which is what it waited for. Any
 * other error is counted (when its kind is continued at all) and stops the
 * job, which then reports it (err=) and skips its end_fsync. A job that went
 * on past errors and ended well still reports the first of them as its
 * error, as fio's stat.c does.
 *
 * fio prints "fio: io_u error on file F: <strerror>: write offset=O,
 * buflen=L" for every error except the non-fatal ones (error_dump=1 prints
 * those too); here it is a run warning, on stderr. A failed I/O counts as
 * issued (fio's total_ios and "issued rwts") but adds no bytes and no
 * latency sample.
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"

/* fio's td_error_type */
static int err_kind(const struct run_io *io, int err)
{
	if (err == EILSEQ)
		return IOS_ERRTYPE_VERIFY;
	return io->dir == IOS_READ && !io->trim ? IOS_ERRTYPE_READ : IOS_ERRTYPE_WRITE;
}

/* fio's td_non_fatal_error */
static bool err_non_fatal(const struct ios_job *j, int kind, int err)
{
	static const int defaults[] = { EIO, EILSEQ };

	if (!(j->continue_on_error & (1u << kind)))
		return false;
	if (!j->ignore_error_nr[kind]) {
		for (size_t i = 0; i < IOS_ARRAY_SIZE(defaults); i++)
			if (defaults[i] == err)
				return true;
		return false;
	}
	for (unsigned i = 0; i < j->ignore_error_nr[kind]; i++)
		if (j->ignore_error[kind][i] == err)
			return true;
	return false;
}

/* A file this job creates before the run (the first to use it, not /dev/, not pre-existing). */
static bool err_creates(const struct run_task *t)
{
	for (unsigned k = 0; k < t->nr_files; k++) {
		const struct run_file *f = t->files[k].f;

		if (!f->is_dev && !f->preexisting && f->first_job == t->job)
			return true;
	}
	return false;
}

/* create_serialize=0 changes the order files are made in, not whether they fit. */
static int err_notes(struct run_ctx *c, struct run_task *t)
{
	const struct ios_job *j = t->job;

	if (!err_creates(t) || c->lab.fs == IOS_FS_RAW)
		return 0;
	if (!j->create_serialize &&
	    ios_run_warn(c->res, "%s:%d: job '%s': create_serialize=0: fio would create the "
			 "jobs' files at the same time; iosched lays them out one after another, "
			 "as with create_serialize=1", j->file ? j->file : "?", j->line, j->name))
		return -ENOMEM;
	return 0;
}

int ios_run_err_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;

	t->res->continue_on_error = j->continue_on_error != 0;
	if (err_notes(c, t))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	/*
	 * fill_device without a size writes until ENOSPC; if ENOSPC does not
	 * stop it, fio goes on failing writes until 16 EiB have been issued.
	 */
	if (j->fill_device && !j->size && !j->size_pct && !j->io_size && !j->io_size_pct &&
	    !(j->time_based && j->runtime_ns) && !j->number_ios && ios_rw_has_write(j->rw) &&
	    err_non_fatal(j, IOS_ERRTYPE_WRITE, ENOSPC)) {
		char w[300];

		return IOS_ERR(e, -EINVAL,
			       "%s: fill_device=1 with ENOSPC ignored (continue_on_error= and "
			       "ignore_error=) never ends: the full filesystem is what ends such a "
			       "job; set size=, io_size=, number_ios= or runtime= with time_based",
			       ios_run_job_where_opt(j, NULL, w, sizeof(w)));
	}
	return 0;
}

bool ios_run_err_submit(struct run_io *io)
{
	const struct run_file *f = io->tf->f;

	if (io->sync_op || io->trim || io->dir != IOS_WRITE || f->is_dev)
		return false;
	/* the part that fits is not written first: no short write, the whole write fails */
	if (io->offset + io->len <= f->alloc)
		return false;
	io->error = -ENOSPC;
	return true;
}

void ios_run_err_complete(struct run_task *t, struct run_io *io)
{
	uint64_t every = t->ctx->lab.eio_every;

	if (!every || io->sync_op || io->trim || io->error)
		return;
	if (++t->err_eio_count % every == 0)
		io->error = -EIO;
}

/*
 * The first ERR_DUMP_MAX lines of a job are printed; fio prints them all,
 * but a job going on past a full disk fails every write, and the rest are
 * counted in one line at its end instead.
 */
#define ERR_DUMP_MAX 20

static void err_dump(struct run_task *t, const struct run_io *io, int err)
{
	static const char *const dirs[] = { "read", "write" };

	if (t->err_dumped++ >= ERR_DUMP_MAX)
		return;
	(void)ios_run_warn_fio(t->ctx->res, "fio: io_u error on file %s: %s: %s offset=%" PRIu64
			   ", buflen=%" PRIu64, io->tf ? io->tf->f->name : "(trace)", strerror(err),
			   io->trim ? "trim" : dirs[io->dir], io->offset, io->len);
}

static void err_count(struct run_task *t, int err)
{
	if (!t->res->total_err++)
		t->res->first_error = err;
}

void ios_run_err_io(struct run_task *t, struct run_io *io)
{
	const struct ios_job *j = t->job;
	int err = io->error < 0 ? -io->error : io->error;
	int kind = err_kind(io, err);
	bool non_fatal = err_non_fatal(j, kind, err);

	if (!non_fatal || j->error_dump)
		err_dump(t, io, err);
	if (!non_fatal)
		ios_run_zbd_hint(t, io, err);
	if (non_fatal) {
		err_count(t, err);
		return;
	}
	if (j->fill_device && (err == ENOSPC || err == EDQUOT)) {
		t->stop = true;
		return;
	}
	if (j->continue_on_error & (1u << kind))
		err_count(t, err);
	if (!t->res->error)
		t->res->error = err;
	t->failed = true;
	t->stop = true;
}

void ios_run_err_finish(struct run_task *t)
{
	if (t->err_dumped > ERR_DUMP_MAX)
		(void)ios_run_warn_fio(t->ctx->res, "job '%s' (clone %u): %" PRIu64 " more io_u error "
				   "lines not printed (fio prints each)", t->job->name, t->clone,
				   t->err_dumped - ERR_DUMP_MAX);
	if (!t->res->error && t->job->continue_on_error && t->res->total_err)
		t->res->error = t->res->first_error;
}
