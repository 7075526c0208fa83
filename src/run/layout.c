/*
 * Files on the simulated device: naming and a contiguous allocator.
 *
 * Jobs name files the way fio does: filename= (':'-separated, '\:' escapes a
 * colon, shared by every job that names it), directory= as a prefix, or, with
 * neither, one file per clone called "jobname.clone.file". A name under /dev/
 * is the whole device. Every other file is laid out, in order of first use,
 * as one contiguous extent starting at an aligned sector, large enough for
 * every job that uses it (its offset plus its size). Files exist before the
 * run; laying them out is not I/O of the run.
 *
 * A job that gives no size reads a file that must already exist: a /dev/
 * name, or any file when lab.file_size says how big pre-existing files are.
 * (The filesystem layouts of the buffered-I/O work replace this allocator.)
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"

static struct run_file *file_get(struct run_ctx *c, const char *name, const struct ios_job *job)
{
	struct run_file *f;
	void *found;

	if (ios_strmap_find(&c->file_names, name, strlen(name), &found, NULL))
		return found;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->name = strdup(name);
	if (!f->name || ios_strmap_add(&c->file_names, name, strlen(name), 0, f)) {
		free(f->name);
		free(f);
		return NULL;
	}
	f->is_dev = !strncmp(name, "/dev/", 5);
	f->first_job = job;
	f->absent = job->ioengine == IOS_ENGINE_FILECREATE;
	*c->files_tail = f;
	c->files_tail = &f->next;
	return f;
}

void ios_run_files_free(struct run_ctx *c)
{
	struct run_file *f, *n;

	for (f = c->files; f; f = n) {
		n = f->next;
		ios_run_zbd_free_file(f);
		free(f->name);
		free(f);
	}
	c->files = NULL;
	c->files_tail = &c->files;
	ios_strmap_free(&c->file_names);
}

static char *join_dir(const char *dir, const char *name)
{
	char *s;
	size_t n;

	if (!dir || !*dir || name[0] == '/')
		return strdup(name);
	n = strlen(dir) + strlen(name) + 2;
	s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
	return s;
}

static const char *job_where(const struct ios_job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
	return buf;
}

const char *ios_run_job_where_opt(const struct ios_job *j, const struct ios_optsrc *src, char *buf,
				  size_t len)
{
	if (!src || !src->file)
		return job_where(j, buf, len);
	snprintf(buf, len, "%s:%d: job '%s': %s", src->file, src->line, j->name, src->text);
	return buf;
}

/*
 * Which option to blame when file @f could not be laid out: nrfiles= when
 * the inodes ran out (@by_count), else what sized the file: filesize=, or
 * size= (with nrfiles= and offset= when they share in it), or the
 * lab.file_size that made it pre-exist. The line cited is that option's.
 */
static const char *file_blame(const struct run_file *f, const struct run_ctx *c, bool by_count,
			      char *buf, size_t len)
{
	const struct ios_job *j = f->need_job ? f->need_job : f->first_job;
	char w[300];

	if (by_count) {
		if (f->first_job->nrfiles_src.file)
			return ios_run_job_where_opt(f->first_job, &f->first_job->nrfiles_src,
						     buf, len);
		return job_where(f->first_job, buf, len);
	}
	if (f->preexisting) {
		snprintf(buf, len, "%s: lab.file_size=%" PRIu64, job_where(f->first_job, w, sizeof(w)),
			 c->lab.file_size);
		return buf;
	}
	if (j->filesize_lo)
		return ios_run_job_where_opt(j, &j->filesize_src, buf, len);
	ios_run_job_where_opt(j, &j->size_src, w, sizeof(w));
	if (j->nrfiles > 1 && j->nrfiles_src.file && j->size_src.file)
		snprintf(buf, len, "%s with %s (%" PRIu64 " bytes a file)%s%s", w,
			 j->nrfiles_src.text, j->size / j->nrfiles, f->need_off ? " after " : "",
			 f->need_off ? j->offset_src.text : "");
	else
		snprintf(buf, len, "%s%s%s", w, f->need_off && j->offset_src.file ? " after " : "",
			 f->need_off && j->offset_src.file ? j->offset_src.text : "");
	return buf;
}

/* Resolve a task's file names into run_files (created on first use). */
static int task_files(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	char **names = NULL;
	unsigned n = 0;
	char w[300];

	if (j->nr_filenames) {
		names = calloc(j->nr_filenames, sizeof(*names));
		if (!names)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		for (unsigned i = 0; i < j->nr_filenames; i++)
			names[i] = strdup(j->filenames[i]);
		n = j->nr_filenames;
	} else if (j->filename && *j->filename) {
		return IOS_ERR(e, -EINVAL, "%s: filename='%s' names no file",
			       job_where(j, w, sizeof(w)), j->filename);
	} else {
		unsigned nf = j->nrfiles ? j->nrfiles : 1;

		names = calloc(nf, sizeof(*names));
		if (!names)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		for (unsigned i = 0; i < nf; i++) {
			char buf[300];

			snprintf(buf, sizeof(buf), "%s.%u.%u", j->name, t->clone, i);
			names[i] = strdup(buf);
		}
		n = nf;
	}
	/* one file: the task's own (run_task.file0, zeroed with the task) */
	t->files = n == 1 ? &t->file0 : calloc(n, sizeof(*t->files));
	if (!t->files) {
		for (unsigned i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	t->nr_files = n;
	for (unsigned i = 0; i < n; i++) {
		char *full = names[i] ? join_dir(j->directory, names[i]) : NULL;

		t->files[i].f = full ? file_get(c, full, j) : NULL;
		free(full);
		free(names[i]);
		if (t->files[i].f && !t->files[i].f->first_task)
			t->files[i].f->first_task = t;
		if (!t->files[i].f) {
			for (unsigned k = i + 1; k < n; k++)
				free(names[k]);
			free(names);
			return IOS_ERR(e, -ENOMEM, "out of memory");
		}
	}
	free(names);
	if (j->ioengine == IOS_ENGINE_E4DEFRAG && j->donorname && *j->donorname) {
		/* the donor sits in directory= too (fio's fio_e4defrag_init) */
		char *full = join_dir(j->directory, j->donorname);

		t->donor = full ? file_get(c, full, j) : NULL;
		free(full);
		if (!t->donor)
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * Where this task starts in a file of @fsize bytes (0: not known yet, then
 * percentages count as 0): offset= plus the clone's offset_increment=, each
 * in bytes or as a percentage of the file.
 */
static uint64_t task_offset(const struct run_task *t, uint64_t fsize)
{
	const struct ios_job *j = t->job;
	uint64_t off = j->offset_pct ? fsize / 100 * j->offset_pct : j->offset;
	uint64_t inc = j->offset_increment_pct ? fsize / 100 * j->offset_increment_pct
					       : j->offset_increment;

	return off + (uint64_t)t->clone * inc;
}

static bool task_offset_relative(const struct run_task *t)
{
	return t->job->offset_pct || t->job->offset_increment_pct;
}

/* An earlier job of the same name: its generated files are the same names. */
static bool job_name_seen(const struct run_ctx *c, unsigned upto, const struct ios_job *j)
{
	for (unsigned i = 0; i < upto; i++)
		if (c->tasks[i].job != j && c->tasks[i].job->name && j->name &&
		    !strcmp(c->tasks[i].job->name, j->name))
			return true;
	return false;
}

/*
 * Before any task is allocated: the files the job sections ask for, each
 * times its numjobs, against IOS_RUN_MAX_FILES. numjobs=1000000 with
 * max_jobs=1000000 otherwise allocated a million tasks and results (1.2 GB,
 * seconds) before layout_precheck counted the 262145th file. Only the
 * count is checked here, and only with clones: without them there is a
 * task per section, cheap to allocate, and layout_precheck names the
 * option at fault (nrfiles=, a filename= list) and checks sizes and space.
 */
int ios_run_layout_count(const struct ios_jobfile *jf, bool replay, struct ios_err *e)
{
	uint64_t total = 0, named = 0;
	bool cloned = false;
	char w[300];

	for (size_t i = 0; i < jf->nr_jobs; i++)
		cloned |= jf->jobs[i].numjobs > 1;
	for (size_t i = 0; i < jf->nr_jobs && !replay && cloned; i++) {
		const struct ios_job *j = &jf->jobs[i];
		uint64_t clones = j->numjobs ? j->numjobs : 1;
		uint64_t nf = j->nrfiles ? j->nrfiles : 1;

		if ((j->read_iolog && *j->read_iolog) ||
		    (j->filename && *j->filename && !j->nr_filenames))
			continue;
		if (j->nr_filenames) {
			named += clones * j->nr_filenames;
			if (named > IOS_RUN_MAX_FILES)
				return IOS_ERR(e, -E2BIG,
					       "%s: numjobs=%" PRIu64 " with filename= naming %u file(s): %" PRIu64
					       " file names in all (this job's and those before it), "
					       "more than the %u one run simulates (IOS_RUN_MAX_FILES; "
					       "lower numjobs)", job_where(j, w, sizeof(w)), clones,
					       j->nr_filenames, named, IOS_RUN_MAX_FILES);
			continue;
		}
		total += clones * nf;
		if (total > IOS_RUN_MAX_FILES)
			return IOS_ERR(e, -E2BIG,
				       "%s: numjobs=%" PRIu64 " with nrfiles=%" PRIu64 ": %" PRIu64
				       " files in all (this job's and those before it), more than the "
				       "%u one run simulates (each costs the simulator about 1 KiB, "
				       "more once read; lower numjobs or nrfiles, or share the files "
				       "with filename=)", job_where(j, w, sizeof(w)), clones, nf, total,
				       IOS_RUN_MAX_FILES);
	}
	return 0;
}

/*
 * Pass 0, before anything is allocated per file: the files the jobs make
 * by name ("job.clone.N", nrfiles= of them) must be within what the
 * filesystem can hold (an inode and a block or an aligned extent each) and
 * IOS_RUN_MAX_FILES, and a job that makes files must size them. These are
 * the errors the layout would give at the first file, found here before
 * nrfiles=10000000 allocates ten million names first.
 */
static int layout_precheck(struct run_ctx *c, uint64_t cap_bytes, uint64_t align,
			   struct ios_err *e)
{
	uint64_t total = 0, named = 0, inodes = ios_fs_free_inodes(c->fs);
	uint64_t per = ios_fs_type(c->fs) == IOS_FS_EXT3 || align < IOS_FS_BLOCK_SIZE
		       ? IOS_FS_BLOCK_SIZE : align;
	char w[300];

	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const struct ios_job *j = c->tasks[i].job;
		uint64_t nf = j->nrfiles ? j->nrfiles : 1;
		const struct ios_optsrc *src = j->nrfiles_src.file && j->nrfiles > 1
					       ? &j->nrfiles_src : &j->size_src;

		if (c->tasks[i].replay || (j->filename && *j->filename && !j->nr_filenames))
			continue;
		if (j->nr_filenames) {
			/* named files: shared names are one file, so only the cap counts them */
			named += j->nr_filenames;
			if (named > IOS_RUN_MAX_FILES)
				return IOS_ERR(e, -E2BIG,
					       "%s: %" PRIu64 " file names in all (this job's and "
					       "those before it), more than the %u one run simulates",
					       job_where(j, w, sizeof(w)), named, IOS_RUN_MAX_FILES);
			continue;
		}
		total += nf;
		if (j->size && j->size < nf)
			return IOS_ERR(e, -EINVAL,
				       "%s: size=%" PRIu64 " is smaller than one byte per file "
				       "for its %" PRIu64 " files",
				       ios_run_job_where_opt(j, src, w, sizeof(w)), j->size, nf);
		if (!j->size && !j->filesize_lo && !c->lab.file_size && !j->fill_device &&
		    !job_name_seen(c, i, j)) {
			char name[300], *full;

			snprintf(name, sizeof(name), "%s.%u.0", j->name, c->tasks[i].clone);
			full = join_dir(j->directory, name);
			IOS_ERR(e, -EINVAL,
				"%s: file '%s' does not exist and no size was given: set "
				"size= or filesize= in the job, or --set lab.file_size=SIZE "
				"to have files exist before the run",
				job_where(j, w, sizeof(w)), full ? full : name);
			free(full);
			return -EINVAL;
		}
		if (total > IOS_RUN_MAX_FILES)
			return IOS_ERR(e, -E2BIG,
				       "%s: %" PRIu64 " files in all (this job's and those before "
				       "it), more than the %u one run simulates (each costs the "
				       "simulator about 1 KiB, more once read)", ios_run_job_where_opt(j, src, w, sizeof(w)),
				       total,
				       IOS_RUN_MAX_FILES);
		if (total > inodes || total > cap_bytes / per)
			return IOS_ERR(e, -ENOSPC,
				       "%s: %" PRIu64 " files in all (this job's and those before "
				       "it), more than lab.fs=%s on device '%s' (%" PRIu64 " bytes) "
				       "can hold: %" PRIu64 " (%s)",
				       ios_run_job_where_opt(j, src, w, sizeof(w)), total,
				       ios_fs_type_name((enum ios_fs_type)c->lab.fs), c->host->disk.profile,
				       cap_bytes, inodes < cap_bytes / per ? inodes : cap_bytes / per,
				       inodes < cap_bytes / per ? "its free inodes"
				       : per == IOS_FS_BLOCK_SIZE ? "one 4 KiB block each"
				       : "one lab.file_align extent each");
	}
	return 0;
}

/*
 * A file fio creates without writing it out first (every job using it
 * writes only, with overwrite=0, or has fill_device=1): where it does not
 * fit, fio's fallocate fails (or is skipped, for fill_device) and the
 * writes allocate blocks until the filesystem is full. Such a file keeps
 * the size the jobs asked for and gets the blocks that are left; writes
 * past them fail with ENOSPC (errors.c).
 */
static bool layout_grows(const struct run_file *f)
{
	return !f->preexisting && (f->fill || !f->laid_out_by_fio);
}

static int layout_add(struct run_ctx *c, struct run_file *f, uint64_t cap_bytes,
		      struct ios_err *e)
{
	f->want = f->size;
	if (f->is_dev || !layout_grows(f))
		return ios_fs_add_file(c->fs, f->name, f->size, &f->fsf, e);
	/*
	 * fill_device without a size: fio's size is "really large"; the most
	 * a file can get is the device, and a write-only job keeps writing
	 * past its blocks until ENOSPC. A job that reads reads what was written.
	 */
	if (f->fill && !f->size) {
		f->size = cap_bytes;
		f->want = RUN_FILL_BYTES;
	} else {
		f->want = f->size;
	}
	return ios_fs_add_file_upto(c->fs, f->name, f->size, &f->fsf, e);
}

/*
 * The files were written before the run, one after the other, by separate
 * processes (a dd each, say): with lab.creator_pid their pids are
 * consecutive from it; by default they are drawn from the seed, as a
 * shell's pids are whatever other processes left them.
 */
static void layout_creators(struct run_ctx *c)
{
	uint32_t pid = (uint32_t)c->lab.creator_pid;
	uint64_t i = 0;

	for (struct run_file *f = c->files; f; f = f->next, i++) {
		if (f->is_dev)
			continue;
		f->creator_pid = c->lab.creator_pid ? pid++
			: 1000 + (uint32_t)(ios_mix64(c->seed * 0x100000001b3ULL + i) % 30000);
	}
}

int ios_run_layout_files(struct run_ctx *c, struct ios_err *e)
{
	uint64_t cap_bytes = c->host->disk.nr_sectors << IOS_SECTOR_SHIFT;
	uint64_t align = c->lab.file_align;
	char w[300];
	int ret;

	ret = ios_fs_create((enum ios_fs_type)c->lab.fs, cap_bytes, align, &c->fs, e);
	if (ret)
		return ret;
	if (c->real)
		ios_fs_set_apart(c->fs);
	ret = layout_precheck(c, cap_bytes, align, e);
	if (ret)
		return ret;

	/* pass 1: names, and how much of each file the jobs need */
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *t = &c->tasks[i];
		const struct ios_job *j = t->job;

		if (t->replay)
			continue;	/* no files: straight to the disk */
		ret = task_files(c, t, e);
		if (ret)
			return ret;
		for (unsigned k = 0; k < t->nr_files; k++) {
			struct run_file *f = t->files[k].f;
			uint64_t per = 0;

			if (j->filesize_lo)
				per = j->filesize_hi > j->filesize_lo
					? j->filesize_lo + ios_rand_below(&t->rng,
						j->filesize_hi - j->filesize_lo + 1)
					: j->filesize_lo;
			else if (j->size)
				per = j->size / t->nr_files;
			if (j->size && per == 0)
				return IOS_ERR(e, -EINVAL,
					       "%s: size=%" PRIu64 " is smaller than one byte per file "
					       "for its %u files",
					       ios_run_job_where_opt(j, j->nrfiles_src.file &&
								     j->nrfiles > 1
								     ? &j->nrfiles_src : &j->size_src,
								     w, sizeof(w)),
					       j->size, t->nr_files);
			t->files[k].len = per;
			/* fio writes the file out before the run when the job reads or overwrites */
			f->fill |= j->fill_device;
			f->laid_out_by_fio |= !j->fill_device &&
					      (ios_rw_has_read(j->rw) || j->overwrite);
			f->read |= ios_rw_has_read(j->rw);
			if (per && !task_offset_relative(t) && f->need < task_offset(t, 0) + per) {
				f->need = task_offset(t, 0) + per;
				f->need_job = j;
				f->need_off = task_offset(t, 0);
			}
			/* e4defrag's donor spans what it moves (fio fallocates it so) */
			if (t->donor && per && t->donor->need < task_offset(t, 0) + per) {
				t->donor->need = task_offset(t, 0) + per;
				t->donor->need_job = j;
			}
		}
	}

	/* pass 2: sizes, then the filesystem lays the files out in order */
	layout_creators(c);
	for (struct run_file *f = c->files; f; f = f->next) {
		struct ios_err fe = { 0 };

		if (f->is_dev) {
			if (f->need > cap_bytes)
				return IOS_ERR(e, -ENOSPC,
					       "%s: offset=%" PRIu64 " plus size=%" PRIu64
					       " reaches past the end of %s (%" PRIu64 " bytes): the "
					       "simulated disk's capacity is its tunable, set it with "
					       "--set device.capacity=SIZE (docs/devices.md)",
					       ios_run_job_where_opt(f->need_job,
								     f->need_job->filesize_lo
									 ? &f->need_job->filesize_src
									 : &f->need_job->size_src,
								     w, sizeof(w)), f->need_off,
					       f->need - f->need_off, f->name, cap_bytes);
		} else {
			f->size = f->need;
			/* an existing file of the size asked for is still existing, not laid out */
			if (c->lab.file_size && c->lab.file_size >= f->size) {
				f->size = c->lab.file_size;
				f->preexisting = true;
			}
			if (!f->size && !f->fill)
				return IOS_ERR(e, -EINVAL,
					       "%s: file '%s' does not exist and no size was given: set "
					       "size= or filesize= in the job, or --set lab.file_size=SIZE "
					       "to have files exist before the run",
					       job_where(f->first_job, w, sizeof(w)), f->name);
		}
		ios_fs_set_creator(c->fs, f->creator_pid);
		ret = layout_add(c, f, cap_bytes, &fe);
		if (ret) {
			/* a file and, on ext3, its new directories need an inode each */
			uint64_t inodes = 1;
			char blame[512];

			for (const char *s = f->name + 1; *s; s++)
				inodes += *s == '/' && s[-1] != '/';
			return IOS_ERR(e, ret, "%s: %s (device '%s' holds %" PRIu64 " bytes, lab.fs=%s)",
				       file_blame(f, c, ret == -ENOSPC &&
						  ios_fs_free_inodes(c->fs) < inodes, blame,
						  sizeof(blame)),
				       fe.msg, c->host->disk.profile, cap_bytes,
				       ios_fs_type_name((enum ios_fs_type)c->lab.fs));
		}
		f->alloc = f->fsf->size;
		/* a file that is read is as long as what was written */
		if (f->is_dev || !layout_grows(f) || f->read)
			f->size = f->fsf->size;
	}

	/* pass 3: each task's region in each file */
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		struct run_task *t = &c->tasks[i];
		const struct ios_job *j = t->job;

		for (unsigned k = 0; k < t->nr_files; k++) {
			struct run_task_file *tf = &t->files[k];
			/* a filling writer goes on past what a reader of the file sees, to ENOSPC */
			uint64_t fsize = j->fill_device && !ios_rw_has_read(j->rw) && !tf->f->is_dev
					 ? tf->f->want : tf->f->size;
			uint64_t off = task_offset(t, fsize);

			if (j->filesize_lo)
				tf->len = tf->f->size; /* whole file */
			if (j->size_pct)
				tf->len = tf->f->size / 100 * j->size_pct / t->nr_files;
			if (off >= fsize)
				return IOS_ERR(e, -EINVAL,
					       "%s: offset=%" PRIu64 " is beyond the end of '%s' "
					       "(%" PRIu64 " bytes)",
					       ios_run_job_where_opt(j, &j->offset_src, w,
								     sizeof(w)), off,
					       tf->f->name, fsize);
			if (!tf->len || off + tf->len > fsize)
				tf->len = fsize - off;
			tf->off = off;
		}
	}
	return 0;
}
