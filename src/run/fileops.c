/*
 * fio's file-operation engines (fio 3.33 engines/falloc.c, ftruncate.c,
 * fileoperations.c, e4defrag.c) on the simulated filesystem: what each I/O
 * unit becomes, and what the files must be before and after.
 *
 *  - falloc: a read is fallocate(KEEP_SIZE) of the unit's range, a write
 *    fallocate(0), a trim fallocate(PUNCH_HOLE | KEEP_SIZE);
 *  - ftruncate: a write is ftruncate(fd, offset) (the block size only moves
 *    the offset); anything else fails with EINVAL, as in fio;
 *  - filecreate, filestat, filedelete: the open of each file is the
 *    operation (open(O_CREAT), stat/lstat/statx, unlink) and the I/O units
 *    do nothing (FIO_FAKEIO). fio records the open's time as a completion
 *    latency sample (FIO_NOSTATS keeps the units' own out of the stats),
 *    so the units count in io_bytes and total_ios and the opens are the
 *    clat samples;
 *  - e4defrag: a write moves the unit's range through the donor file
 *    (EXT4_IOC_MOVE_EXT); with inplace=1 the donor's range is allocated
 *    before and the donor truncated to 0 after. Other directions: EINVAL.
 * The disk I/O each causes is the page cache's (src/fs/vfs_fileops.c).
 * A failed operation ends the job with its error (fio stops at an I/O
 * error): falloc and e4defrag on the ext3 layout fail with EOPNOTSUPP.
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"

static const char *where(const struct ios_job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
	return buf;
}

/* ---- before the run ---- */

int ios_run_fileop_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	char w[300];

	if (j->openfiles && j->openfiles < t->nr_files && !ios_engine_opens_are_io(j->ioengine))
		return IOS_ERR(e, -ENOTSUP,
			       "%s: openfiles=%u with %u files: iosched keeps every file of a "
			       "job open (it models no closing and re-opening of files); set "
			       "openfiles=%u or more, or leave it out", where(j, w, sizeof(w)),
			       j->openfiles, t->nr_files, t->nr_files);
	if (j->fallocate == IOS_FALLOC_KEEP && c->lab.fs == IOS_FS_EXT3 &&
	    !ios_rw_has_read(j->rw) && !j->overwrite)
		return IOS_ERR(e, -EOPNOTSUPP,
			       "%s: fallocate=keep: ext3 has no fallocate(), which fio treats "
			       "as an error in this mode (fallocate: Operation not supported); "
			       "use fallocate=posix or native, or --set lab.fs=extent",
			       where(j, w, sizeof(w)));
	if (j->ioengine != IOS_ENGINE_E4DEFRAG)
		return 0;
	if (!t->donor)
		return IOS_ERR(e, -EINVAL, "%s: ioengine=e4defrag needs donorname= (the donor "
			       "file, as fio: 'donorname' options required)",
			       where(j, w, sizeof(w)));
	if (!(t->donor_file = calloc(1, sizeof(*t->donor_file))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ios_vfs_file_init(c->vfs, t->donor_file, t->donor->inode, &t->ioc, 0);
	return 0;
}

/* Does @f exist when the run starts (or does its first job make it then)? */
static bool file_made_by(const struct run_file *f, const struct ios_job *j)
{
	return f->first_job == j && !f->preexisting && !f->is_dev;
}

int ios_run_fileop_files(struct run_ctx *c, struct ios_err *e)
{
	char w[300];

	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const struct run_task *t = &c->tasks[i];
		const struct ios_job *j = t->job;

		for (unsigned k = 0; k < t->nr_files; k++) {
			struct run_file *f = t->files[k].f;
			uint64_t freed;

			if (!file_made_by(f, j) || f->fop_done)
				continue;
			f->fop_done = true;
			if (!j->allow_file_create)
				return IOS_ERR(e, -ENOENT,
					       "%s: allow_file_create=0: file '%s' does not exist "
					       "(fio: file creation disallowed by allow_file_create=0); "
					       "let an earlier job make it, or --set "
					       "lab.file_size=SIZE to have files exist before the run",
					       where(j, w, sizeof(w)), f->name);
			if (j->ioengine == IOS_ENGINE_FILECREATE) {
				/* fio lays nothing out for it: the job's opens make the files */
				ios_fs_unlink(c->fs, f->fsf);
				continue;
			}
			/*
			 * A write-only job without overwrite makes its file afresh
			 * (fio's extend_file): sparse unless something preallocates
			 * it. ext3 has no fallocate(), so native falls back to
			 * sparse there, and posix_fallocate() writes it (glibc's
			 * fallback): laid out whole. On extent and ext4 the preallocation is
			 * unwritten. Left unset, the file is laid out whole, as
			 * written (docs/jobfiles.md).
			 */
			if (ios_rw_has_read(j->rw) || j->overwrite)
				continue;
			if (j->fallocate == IOS_FALLOC_NONE || j->fallocate == IOS_FALLOC_TRUNCATE ||
			    (j->fallocate == IOS_FALLOC_NATIVE && c->lab.fs == IOS_FS_EXT3)) {
				if (ios_fs_punch(c->fs, f->fsf, 0, UINT64_MAX, &freed))
					return IOS_ERR(e, -ENOMEM, "out of memory");
			} else if (j->fallocate != IOS_FALLOC_DEFAULT &&
				   (c->lab.fs == IOS_FS_EXTENT || c->lab.fs == IOS_FS_EXT4)) {
				/* fallocate() leaves unwritten extents: zeros until written */
				if (ios_fs_mark_unwritten(f->fsf))
					return IOS_ERR(e, -ENOMEM, "out of memory");
			}
		}
	}
	return 0;
}

/*
 * The task opens @tf, which an earlier job may have unlinked. fio laid
 * every job's files out before the first job ran, so nothing lays it out
 * again: an open with O_CREAT (a writer that may create files, falloc)
 * makes it anew, empty; any other open fails with ENOENT, as in fio.
 */
int ios_run_fileop_open(struct run_task *t, struct run_task_file *tf)
{
	const struct ios_job *j = t->job;
	struct ios_fs_file *fsf = tf->f->fsf;
	bool creat;

	if (tf->f->is_dev || ios_fs_exists(fsf) || j->ioengine == IOS_ENGINE_FILECREATE)
		return 0;
	creat = j->allow_file_create &&
		(j->ioengine == IOS_ENGINE_FALLOC ||
		 (ios_rw_has_write(j->rw) && !ios_engine_opens_are_io(j->ioengine)));
	if (!creat)
		return -ENOENT;
	return ios_fs_recreate(t->ctx->fs, fsf) ? -ENOMEM : 0;
}

/* ---- each I/O unit ---- */

static void op_set(struct run_io *io, enum ios_vfs_op_type type, struct ios_file *file,
		   uint64_t off, uint64_t len)
{
	struct ios_vfs_op *op = &io->op;
	ios_vfs_wake_fn wake = op->wake;
	void *priv = op->priv;

	memset(op, 0, sizeof(*op));
	op->type = type;
	op->file = file;
	op->off = off;
	op->len = len;
	op->wake = wake;
	op->priv = priv;
}

bool ios_run_fileop_prepare(struct run_task *t, struct run_io *io)
{
	const struct ios_job *j = t->job;
	struct ios_file *file = &io->tf->file;
	bool wr = io->dir == IOS_WRITE && !io->trim;

	io->fop_stage = 0;
	io->fop_open = false;
	switch (j->ioengine) {
	case IOS_ENGINE_FILECREATE:
	case IOS_ENGINE_FILESTAT:
	case IOS_ENGINE_FILEDELETE:
		if (io->tf->fop_opened)
			return false;	/* the unit itself does nothing */
		io->tf->fop_opened = true;
		io->fop_open = true;
		op_set(io, j->ioengine == IOS_ENGINE_FILECREATE ? IOS_VFS_CREATE
			   : j->ioengine == IOS_ENGINE_FILESTAT ? IOS_VFS_STAT : IOS_VFS_UNLINK,
		       file, 0, 0);
		return true;
	case IOS_ENGINE_FALLOC:
		op_set(io, io->trim ? IOS_VFS_PUNCH : IOS_VFS_FALLOCATE, file, io->offset, io->len);
		return true;
	case IOS_ENGINE_FTRUNCATE:
		if (!wr) {
			io->error = -EINVAL;
			return false;
		}
		op_set(io, IOS_VFS_TRUNCATE, file, io->offset, 0);
		return true;
	case IOS_ENGINE_E4DEFRAG:
		if (!wr) {
			io->error = -EINVAL;
			return false;
		}
		if (j->inplace) {
			op_set(io, IOS_VFS_FALLOCATE, t->donor_file, io->offset, io->len);
			return true;
		}
		io->fop_stage = 1;
		op_set(io, IOS_VFS_MOVE_EXT, file, io->offset, io->len);
		io->op.donor = t->donor_file;
		return true;
	default:
		return false;
	}
}

bool ios_run_fileop_next(struct run_io *io)
{
	struct run_task *t = io->t;

	if (t->job->ioengine != IOS_ENGINE_E4DEFRAG || io->op.error || io->fop_stage >= 2)
		return false;
	if (io->fop_stage == 0) {
		io->fop_stage = 1;
		op_set(io, IOS_VFS_MOVE_EXT, &io->tf->file, io->offset, io->len);
		io->op.donor = t->donor_file;
		return true;
	}
	if (!t->job->inplace)
		return false;
	io->fop_stage = 2;
	op_set(io, IOS_VFS_TRUNCATE, t->donor_file, 0, 0);
	return true;
}

bool ios_run_fileop_account(struct run_task *t, struct run_io *io, struct ios_dir_result *d,
			    uint64_t now)
{
	uint64_t clat = now - io->issue_ns;

	if (!ios_engine_opens_are_io(t->job->ioengine))
		return false;
	d->io_bytes += io->len;
	d->total_ios++;
	if (io->fop_open) {
		ios_lat_add(&d->clat, clat);
		ios_job_mark_latency(t->res, clat);
	}
	ios_run_sample_sync(t, now);
	t->sample_bytes[io->dir] += io->len;
	t->sample_ios[io->dir]++;
	if (!t->iops_win_ns)
		ios_sample_add(&d->iops, 1.0);
	return true;
}
