/*
 * A run on a real host (--real: host.h's attach() is there): what changes
 * in the runner's phases, and only that.
 *
 * - configure: the lab's CPU-cost knobs (lab.submit_ns, complete_ns,
 *   page_copy_ns) default to 0, since the CPU now costs what it costs, and
 *   the files are laid out lab.fs=raw (one extent each, apart), since the
 *   real file system maps them; a user's --set still wins for the first
 *   three, and another lab.fs is refused.
 * - build: the host describes the disk from the jobs' first file (its
 *   directory, or the block device it names); --device, a simulated
 *   profile, means nothing here and is refused.
 * - plan: what the host cannot do is refused before any file is touched
 *   (verify=, whose checker follows simulated data; trace replay; zoned
 *   writes; the file-operation engines, which would only pretend); after
 *   layout each file is attached: created, written out as fio writes it
 *   before a job that reads it, opened O_DIRECT.
 * - collect: the real disk's /proc/diskstats beside the queue's own
 *   counts, and the host's first fault as a warning.
 */
#include <errno.h>
#include <unistd.h>
#include <inttypes.h>
#include <libgen.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "run_int.h"

bool ios_run_is_real(const struct ios_run_config *cfg)
{
	return cfg->host && cfg->host->attach;
}

/* The real host's defaults, before the user's own settings (later ones win). */
int ios_run_real_settings(struct ios_settings *set)
{
	static const char *const defs[][2] = {
		{ "lab.submit_ns", "0" },
		{ "lab.complete_ns", "0" },
		{ "lab.page_copy_ns", "0" },
	};

	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (ios_settings_add(set, defs[i][0], defs[i][1], "--real"))
			return -ENOMEM;
	return 0;
}

/* kernel interfaces that look like directories: no file a job names can be made there */
static const char *real_pseudo_fs(long type)
{
	static const struct { long magic; const char *name; } fs[] = {
		{ PROC_SUPER_MAGIC, "proc" }, { SYSFS_MAGIC, "sysfs" },
		{ DEBUGFS_MAGIC, "debugfs" }, { TRACEFS_MAGIC, "tracefs" },
		{ CGROUP_SUPER_MAGIC, "cgroup" }, { CGROUP2_SUPER_MAGIC, "cgroup2" },
		{ SECURITYFS_MAGIC, "securityfs" }, { DEVPTS_SUPER_MAGIC, "devpts" },
		{ BPF_FS_MAGIC, "bpf" }, { PSTOREFS_MAGIC, "pstore" },
	};

	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if (type == fs[i].magic)
			return fs[i].name;
	return NULL;
}

/*
 * directory=/proc gave "a device of 0 bytes is too small for the raw
 * layout" (fio: err=2 from open, "No such file or directory"), and a
 * read-only directory a "cannot create" that named no job: both are said
 * here, with the job, its line and the option. A job that only reads may
 * use a read-only directory (its files must exist; the host says so).
 */
static int real_dir_usable(const struct ios_job *j, const char *dir, struct ios_err *e)
{
	struct statfs sf;
	const char *pseudo;
	char w[300];

	if (statfs(dir, &sf))
		return 0;	/* stat() just saw it: the host's errors will do */
	pseudo = real_pseudo_fs((long)sf.f_type);
	if (pseudo)
		return IOS_ERR(e, -EINVAL, "%s: directory=%s: not a regular file system's directory "
			       "(it is %s, a kernel interface): a job's files cannot be created or "
			       "sized there (fio fails to open them: err=2)",
			       ios_run_job_where_opt(j, NULL, w, sizeof(w)), dir, pseudo);
	if (ios_rw_has_write(j->rw) && access(dir, W_OK | X_OK))
		return IOS_ERR(e, -errno, "%s: directory=%s: the job writes, and its files cannot be "
			       "made or written there: %s (err=%d)%s",
			       ios_run_job_where_opt(j, NULL, w, sizeof(w)), dir, strerror(errno),
			       errno, errno == EROFS ? " (a read-only file system)" : "");
	return 0;
}

int ios_run_real_configure(struct run_ctx *c, struct ios_err *e)
{
	for (size_t i = 0; i < c->set->n; i++)
		if (!strcmp(c->set->v[i].name, "lab.fs") && c->lab.fs != IOS_FS_RAW)
			return IOS_ERR(e, -EINVAL, "%s: lab.fs=%s: with --real the files are the "
				       "real file system's; only lab.fs=raw (the default here) applies",
				       c->set->v[i].origin ? c->set->v[i].origin : "--set",
				       c->set->v[i].value);
	c->lab.fs = IOS_FS_RAW;
	/* a directory= that is not one: said with the job, before any file is made */
	for (size_t i = 0; i < c->jf->nr_jobs; i++) {
		const struct ios_job *j = &c->jf->jobs[i];
		struct stat st;
		char w[300];
		int err;

		if (!j->directory || !*j->directory || strchr(j->directory, ':'))
			continue;
		err = stat(j->directory, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
		if (err)
			return IOS_ERR(e, -err, "%s: directory=%s: %s (err=%d)",
				       ios_run_job_where_opt(j, NULL, w, sizeof(w)), j->directory,
				       strerror(err), err);
		err = real_dir_usable(j, j->directory, e);
		if (err)
			return err;
	}
	return 0;
}

/* Where the disk is: the first job's first file's directory, or the device it names. */
const char *ios_run_real_probe(const struct ios_jobfile *jf, char *buf, size_t len)
{
	const struct ios_job *j = &jf->jobs[0];
	char tmp[512];

	if (j->nr_filenames && !strncmp(j->filenames[0], "/dev/", 5)) {
		snprintf(buf, len, "%s", j->filenames[0]);
		return buf;
	}
	if (j->nr_filenames) {
		if (j->directory && *j->directory && j->filenames[0][0] != '/')
			snprintf(tmp, sizeof(tmp), "%s/%s", j->directory, j->filenames[0]);
		else
			snprintf(tmp, sizeof(tmp), "%s", j->filenames[0]);
		snprintf(buf, len, "%s", dirname(tmp));
		return buf;
	}
	snprintf(buf, len, "%s", j->directory && *j->directory ? j->directory : ".");
	return buf;
}

static const char *real_refuses(const struct run_ctx *c, const struct ios_job *j)
{
	if (c->replay || j->read_iolog)
		return "replaying a trace or read_iolog= (the replay writes at the trace's sectors)";
	if (j->verify.method != IOS_VERIFY_NONE)
		return "verify= (its checker follows the simulator's model of the data, "
		       "not the bytes on the disk)";
	if (j->zone_mode == IOS_ZONE_ZBD)
		return "zonemode=zbd";
	if (ios_engine_is_fileop(j->ioengine) || j->ioengine == IOS_ENGINE_E4DEFRAG ||
	    j->ioengine == IOS_ENGINE_FTRUNCATE || j->ioengine == IOS_ENGINE_FALLOC)
		return "this ioengine (its file operations are modelled, not done)";
	return NULL;
}

int ios_run_real_check(struct run_ctx *c, struct ios_err *e)
{
	const char *dev = NULL;

	for (size_t i = 0; i < c->jf->nr_jobs; i++) {
		const struct ios_job *j = &c->jf->jobs[i];
		const char *why = real_refuses(c, j);
		char w[300];

		if (why)
			return IOS_ERR(e, -ENOTSUP, "%s: --real does not do %s yet",
				       ios_run_job_where_opt(j, NULL, w, sizeof(w)), why);
	}
	for (struct run_file *f = c->files; f; f = f->next) {
		if (!f->is_dev)
			continue;
		if (dev && strcmp(dev, f->name))
			return IOS_ERR(e, -ENOTSUP, "--real: the jobs name two block devices, '%s' and "
				       "'%s': one queue drives one disk", dev, f->name);
		dev = f->name;
	}
	if (dev && c->files->next)
		return IOS_ERR(e, -ENOTSUP, "--real: the jobs name block device '%s' and files: "
			       "one queue drives one disk (the device, or the files' disk)", dev);
	return 0;
}

/* What each file needs of the host: created, written out, opened O_DIRECT. */
static unsigned real_file_flags(const struct run_ctx *c, const struct run_file *f)
{
	unsigned fl = f->is_dev ? IOS_HOST_FILE_DEV : IOS_HOST_FILE_CREATE;
	bool refuse_mounted = false;

	/* fio --readonly: no file is created or extended (filesetup.c extend_file) */
	if (c->cfg->read_only)
		fl &= ~IOS_HOST_FILE_CREATE;
	else if (!f->is_dev && f->laid_out_by_fio)
		fl |= IOS_HOST_FILE_FILL;
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const struct run_task *t = &c->tasks[i];

		for (unsigned k = 0; k < t->nr_files; k++) {
			if (t->files[k].f != f)
				continue;
			if (t->job->direct)
				fl |= IOS_HOST_FILE_DIRECT;
			if (ios_rw_has_write(t->job->rw))
				fl |= IOS_HOST_FILE_WRITE;
			/* fio asks each writing job: one that does not allow it refuses */
			if (ios_rw_has_write(t->job->rw) && !t->job->allow_mounted_write)
				refuse_mounted = true;
		}
	}
	if ((fl & IOS_HOST_FILE_WRITE) && !refuse_mounted)
		fl |= IOS_HOST_FILE_MOUNTED_OK;
	return fl;
}

/* The first job using @f that writes it, else the first using it: the one a message names. */
static const struct ios_job *real_file_job(const struct run_ctx *c, const struct run_file *f)
{
	const struct ios_job *first = f->first_job;

	for (unsigned i = 0; i < c->nr_tasks; i++)
		for (unsigned k = 0; k < c->tasks[i].nr_files; k++) {
			if (c->tasks[i].files[k].f != f)
				continue;
			if (ios_rw_has_write(c->tasks[i].job->rw))
				return c->tasks[i].job;
			if (!first)
				first = c->tasks[i].job;
		}
	return first;
}

/* Is @path the same file as @st (device and inode: links and other spellings included)? */
static bool real_same(const char *path, const struct stat *st)
{
	struct stat in;

	return path && *path && !stat(path, &in) && in.st_dev == st->st_dev &&
	       in.st_ino == st->st_ino;
}

/*
 * No output overwrites an input: a file the run writes or grows that is one
 * of the files the run reads (a job file or an include, a read_iolog) is
 * refused before any file is touched. fio 3.33 writes over its own job file.
 */
static int real_check_inputs(struct run_ctx *c, struct ios_err *e)
{
	for (struct run_file *f = c->files; f; f = f->next) {
		unsigned fl = real_file_flags(c, f);
		const struct ios_job *j;
		const char *in = NULL, *what = "the job file";
		struct stat st;
		char w[300];

		if (f->is_dev || stat(f->name, &st) || !S_ISREG(st.st_mode) ||
		    (!(fl & IOS_HOST_FILE_WRITE) && (uint64_t)st.st_size >= f->size))
			continue;
		for (size_t i = 0; !in && i < c->jf->nr_paths; i++)
			if (real_same(c->jf->paths[i], &st))
				in = c->jf->paths[i];
		for (size_t i = 0; !in && i < c->jf->nr_jobs; i++) {
			const struct ios_job *r = &c->jf->jobs[i];

			if (real_same(r->file, &st))
				in = r->file;
			else if (real_same(r->read_iolog, &st))
				in = r->read_iolog, what = "the read_iolog file";
		}
		if (!in)
			continue;
		j = real_file_job(c, f);
		return IOS_ERR(e, -EINVAL, "%s: %s%s is %s '%s', which this run reads: the job would "
			       "%s it (fio would too); refusing to overwrite an input",
			       j ? ios_run_job_where_opt(j, NULL, w, sizeof(w)) : "--real",
			       j && j->nr_filenames ? "filename=" : "its file ", f->name,
			       what, in, fl & IOS_HOST_FILE_WRITE ? "write" : "grow");
	}
	return 0;
}

int ios_run_real_attach(struct run_ctx *c, struct ios_err *e)
{
	struct ios_host *h = c->host;
	int ret = real_check_inputs(c, e);

	if (ret)
		return ret;

	for (struct run_file *f = c->files; f; f = f->next) {
		struct ios_host_file hf = {
			.path = f->name,
			.start_sector = f->is_dev ? 0 : f->fsf->first_sector,
			.size = f->size,
			.flags = real_file_flags(c, f),
		};

		ret = h->ops->attach(h, &hf, e);
		if (ret)
			return ret;
	}
	return 0;
}

void ios_run_real_interrupt(struct ios_host *h, void *arg)
{
	ios_run_jobctl_stop_all(arg, h->loop.now);
}

int ios_run_real_collect(struct run_ctx *c, struct ios_run_result *out)
{
	struct ios_host *h = c->host;
	struct ios_disk_result *d;
	struct ios_disk_stats st;
	char name[16];
	int ret;

	if (h->note[0] && (ret = ios_run_warn(out, "%s", h->note)))
		return ret;
	if (!h->ops->disk_stats || h->ops->disk_stats(h, name, &st))
		return 0;
	d = realloc(out->disks, (out->nr_disks + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	out->disks = d;
	/* the real disk first, as fio prints it; the user-space queue's view after */
	memmove(&d[1], &d[0], out->nr_disks * sizeof(*d));
	out->nr_disks++;
	ios_run_disk_result(&d[0], name, &st, c->end_ns);
	snprintf(d[1].name, sizeof(d[1].name), "iosched");
	return 0;
}

/*
 * fio removes a job's files when it ends with unlink=1 (close_and_free_files).
 * The host keeps its descriptor, so a job still running on the same file
 * goes on with it, unlinked; a file another job already removed is not an
 * error. One that cannot be removed is said in the run's warnings.
 */
void ios_run_real_unlink(struct run_task *t)
{
	struct run_ctx *c = t->ctx;

	if (!ios_run_is_real(c->cfg))
		return;
	for (unsigned k = 0; k < t->nr_files; k++) {
		const struct run_file *f = t->files[k].f;
		char w[300];

		if (f->is_dev || !unlink(f->name) || errno == ENOENT)
			continue;
		(void)ios_run_warn(c->res, "%s: unlink=1: '%s' could not be removed: %s (err=%d)",
				   ios_run_job_where_opt(t->job, NULL, w, sizeof(w)), f->name,
				   strerror(errno), errno);
	}
}
