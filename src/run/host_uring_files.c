/*
 * The io_uring host's disk and files: what the backing device is (sysfs),
 * how each of the run's files is opened and laid out before the run (as
 * fio lays out its files), what /proc/diskstats counted, and the words of
 * a fault.
 *
 * The disk the queue sees is the backing device of the probe path (the
 * directory of the jobs' files, or the block device they name): its name,
 * queue depth and rotational flag come from /sys/dev/block/MAJ:MIN (the
 * whole disk's when the path is on a partition), its capacity from the file
 * system's size (statvfs) or the device's (BLKGETSIZE64). A file system
 * with no block device (tmpfs, overlay) has no sysfs: depth 32, not
 * rotational, and no diskstats, said in the host's note.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <stddef.h>
#include "host_uring_int.h"

#define HU_DEFAULT_DEPTH 32
#define HU_LAYOUT_CHUNK (1u << 20)

struct hu_file *ios_hu_file_at(struct host_uring *hu, uint64_t sector)
{
	size_t lo = 0, hi = hu->nr_files;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct hu_file *f = &hu->files[mid];

		if (sector < f->start)
			hi = mid;
		else if (sector >= f->start + f->nr_sectors)
			lo = mid + 1;
		else
			return f;
	}
	return NULL;
}

void ios_hu_fault(struct host_uring *hu, const char *fmt, ...)
{
	struct ios_host *h = hu->host;
	va_list ap;

	if (h->note[0])
		return;	/* the first one says what went wrong; the rest follow from it */
	va_start(ap, fmt);
	vsnprintf(h->note, sizeof(h->note), fmt, ap);
	va_end(ap);
}

void ios_hu_fault_rq(struct host_uring *hu, const struct ios_request *rq, int err)
{
	const struct hu_file *f = ios_hu_file_at(hu, rq->sector);

	ios_hu_fault(hu, "%s of '%s' at offset %" PRIu64 ", %" PRIu64 " bytes: %s (err=%d)",
		     rq->flags & IOS_REQ_DISCARD ? "discard" : rq->dir == IOS_READ ? "read" : "write",
		     f ? f->path : "?",
		     f ? f->base + ((rq->sector - f->start) << IOS_SECTOR_SHIFT) : 0,
		     ios_rq_bytes(rq), strerror(err), err);
}

void ios_hu_fault_short(struct host_uring *hu, const struct ios_request *rq, uint64_t done)
{
	const struct hu_file *f = ios_hu_file_at(hu, rq->sector);

	ios_hu_fault(hu, "short %s of '%s' at offset %" PRIu64 ": %" PRIu64 " of %" PRIu64
		     " bytes (the file ends there: was it truncated during the run?) (err=5)",
		     rq->dir == IOS_READ ? "read" : "write", f ? f->path : "?",
		     f ? f->base + ((rq->sector - f->start) << IOS_SECTOR_SHIFT) : 0, done,
		     ios_rq_bytes(rq));
}

/* One small sysfs file as a number; false when absent. */
static bool sysfs_u64(const char *dir, const char *name, uint64_t *v)
{
	char path[800];
	FILE *fp;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	ok = fscanf(fp, "%" SCNu64, v) == 1;
	fclose(fp);
	return ok;
}

/* /sys/block/NAME of the whole disk behind @dev into @dir; false without sysfs. */
static bool sysfs_disk(dev_t dev, char *dir, size_t len)
{
	char link[64], *real;
	struct stat st;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	real = realpath(link, NULL);
	if (!real)
		return false;
	snprintf(dir, len, "%s", real);
	free(real);
	/* a partition's directory sits inside its disk's */
	char part[700];

	snprintf(part, sizeof(part), "%s/partition", dir);
	if (!stat(part, &st)) {
		char *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
	}
	return true;
}

static bool diskstats_read(const char *name, struct ios_disk_stats *st)
{
	FILE *fp = fopen("/proc/diskstats", "r");
	char line[512], dev[64];
	bool found = false;

	if (!fp)
		return false;
	while (fgets(line, sizeof(line), fp)) {
		unsigned maj, mnr;
		uint64_t v[11];

		if (sscanf(line, "%u %u %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64, &maj, &mnr, dev, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   &v[6], &v[7], &v[8], &v[9], &v[10]) != 14 || strcmp(dev, name))
			continue;
		memset(st, 0, sizeof(*st));
		st->ios[IOS_READ] = v[0];
		st->merges[IOS_READ] = v[1];
		st->sectors[IOS_READ] = v[2];
		st->ticks_ns[IOS_READ] = v[3] * IOS_NSEC_PER_MSEC;
		st->ios[IOS_WRITE] = v[4];
		st->merges[IOS_WRITE] = v[5];
		st->sectors[IOS_WRITE] = v[6];
		st->ticks_ns[IOS_WRITE] = v[7] * IOS_NSEC_PER_MSEC;
		st->in_flight = (unsigned)v[8];
		st->io_ticks_ns = v[9] * IOS_NSEC_PER_MSEC;
		st->time_in_queue_ns = v[10] * IOS_NSEC_PER_MSEC;
		found = true;
		break;
	}
	fclose(fp);
	return found;
}

int ios_hu_disk_stats(struct ios_host *h, char name[16], struct ios_disk_stats *st)
{
	struct host_uring *hu = h->priv;
	struct ios_disk_stats now;

	if (!hu->have_stats || !diskstats_read(h->disk.name, &now))
		return -ENOENT;
	snprintf(name, 16, "%s", h->disk.name);
	memset(st, 0, sizeof(*st));
	for (int d = 0; d < IOS_DIR_COUNT; d++) {
		st->ios[d] = now.ios[d] - hu->ds0.ios[d];
		st->merges[d] = now.merges[d] - hu->ds0.merges[d];
		st->sectors[d] = now.sectors[d] - hu->ds0.sectors[d];
		st->ticks_ns[d] = now.ticks_ns[d] - hu->ds0.ticks_ns[d];
	}
	st->io_ticks_ns = now.io_ticks_ns - hu->ds0.io_ticks_ns;
	st->time_in_queue_ns = now.time_in_queue_ns - hu->ds0.time_in_queue_ns;
	st->in_flight = now.in_flight;
	return 0;
}

/* device.* of a real disk: what sysfs said, overridden (the device's own limits are not) */
struct hu_dev_tun {
	int queue_depth;		/* 0: sysfs's */
};

const struct ios_tunable ios_host_uring_dev_tunables[] = {
	{ "queue_depth", IOS_TUN_INT, offsetof(struct hu_dev_tun, queue_depth), 0, 4096, "0", "",
	  "commands the user-space queue keeps in the kernel at once (0: the device's, from "
	  "sysfs; 1: one at a time, as a disk without command queueing)", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

static int probe_settings(struct ios_host *h, const struct ios_host_config *cfg,
			  struct ios_err *e)
{
	struct hu_dev_tun t;
	int ret = ios_tunable_defaults(ios_host_uring_dev_tunables, &t, e);

	if (!ret && cfg->settings)
		ret = ios_settings_apply_for(cfg->settings, "device.", ios_host_uring_dev_tunables, &t,
					     "--real", e);
	if (!ret && t.queue_depth)
		h->disk.depth = (unsigned)t.queue_depth;
	return ret;
}

int ios_hu_probe_disk(struct ios_host *h, const struct ios_host_config *cfg, struct ios_err *e)
{
	struct host_uring *hu = h->priv;
	const char *path = cfg->device && *cfg->device ? cfg->device : ".";
	char dir[600];
	struct stat st;
	uint64_t v;

	snprintf(hu->probe, sizeof(hu->probe), "%s", path);
	if (stat(path, &st))
		return IOS_ERR(e, -errno, "--real: '%s': %s", path, strerror(errno));
	hu->is_dev = S_ISBLK(st.st_mode);
	hu->backing = hu->is_dev ? st.st_rdev : st.st_dev;
	h->disk.profile = "real";
	h->disk.depth = HU_DEFAULT_DEPTH;
	if (hu->is_dev) {
		int fd = open(path, O_RDONLY);
		uint64_t bytes = 0;

		if (fd < 0)
			return IOS_ERR(e, -errno, "--real: '%s': %s", path, strerror(errno));
		if (ioctl(fd, BLKGETSIZE64, &bytes)) {
			int err = errno;

			close(fd);
			return IOS_ERR(e, -err, "--real: '%s': BLKGETSIZE64: %s", path, strerror(err));
		}
		close(fd);
		h->disk.nr_sectors = bytes >> IOS_SECTOR_SHIFT;
	} else {
		struct statvfs vfs;

		if (statvfs(path, &vfs))
			return IOS_ERR(e, -errno, "--real: '%s': statvfs: %s", path, strerror(errno));
		h->disk.nr_sectors = (uint64_t)vfs.f_blocks * vfs.f_frsize >> IOS_SECTOR_SHIFT;
	}
	if (!sysfs_disk(hu->backing, dir, sizeof(dir))) {
		/* tmpfs, overlay, a network file system: no block device to describe */
		snprintf(h->disk.name, sizeof(h->disk.name), "none");
		return probe_settings(h, cfg, e);
	}
	snprintf(h->disk.name, sizeof(h->disk.name), "%s", strrchr(dir, '/') + 1);
	{
		char q[700];

		snprintf(q, sizeof(q), "%s/queue", dir);
		h->disk.rotational = sysfs_u64(q, "rotational", &v) && v;
		/* the tags the device takes: SCSI's queue_depth, blk-mq's tags, or nr_requests */
		if (sysfs_u64(dir, "device/queue_depth", &v) || sysfs_u64(dir, "mq/0/nr_tags", &v) ||
		    sysfs_u64(q, "nr_requests", &v))
			h->disk.depth = v ? (unsigned)(v > 4096 ? 4096 : v) : HU_DEFAULT_DEPTH;
	}
	hu->have_stats = diskstats_read(h->disk.name, &hu->ds0);
	return probe_settings(h, cfg, e);
}

void ios_hu_probe_free(struct host_uring *hu)
{
	for (size_t i = 0; i < hu->nr_files; i++) {
		if (hu->files[i].fd >= 0)
			close(hu->files[i].fd);
		free(hu->files[i].path);
	}
	free(hu->files);
	hu->files = NULL;
	hu->nr_files = hu->cap_files = 0;
}

/* Is block device number @maj:@mnr a mounted file system's? */
static bool mountinfo_has(unsigned maj, unsigned mnr)
{
	FILE *fp = fopen("/proc/self/mountinfo", "r");
	char line[1024];
	bool found = false;

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp)) {
		unsigned id, parent, ma, mi;

		if (sscanf(line, "%u %u %u:%u", &id, &parent, &ma, &mi) == 4)
			found = ma == maj && mi == mnr;
	}
	fclose(fp);
	return found;
}

/*
 * Is block device @dev in use by a file system: mounted itself, one of its
 * partitions mounted (sysfs lists them as subdirectories with a "partition"
 * file and their own "dev"), or held by another device (holders/: a
 * device-mapper or md device over it)? fio's allow_mounted_write rule; the
 * minor numbers alone cannot say, since partitions beyond 15 and loop
 * devices' partitions are numbered elsewhere.
 */
static bool dev_mounted(dev_t dev)
{
	char dir[80], sub[600];
	struct dirent *de;
	bool found;
	DIR *d;

	if (mountinfo_has(major(dev), minor(dev)))
		return true;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders", major(dev), minor(dev));
	d = opendir(dir);
	found = false;
	while (d && !found && (de = readdir(d)))
		found = de->d_name[0] != '.';
	if (d)
		closedir(d);
	if (found)
		return true;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	d = opendir(dir);
	while (d && !found && (de = readdir(d))) {
		unsigned ma, mi;
		FILE *fp;

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, de->d_name);
		if (access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", dir, de->d_name);
		fp = fopen(sub, "r");
		if (!fp)
			continue;
		found = fscanf(fp, "%u:%u", &ma, &mi) == 2 && mountinfo_has(ma, mi);
		fclose(fp);
	}
	if (d)
		closedir(d);
	return found;
}

/* Write the file out to @size before the run, as fio's "Laying out IO file" does. */
static int layout_fill(const char *path, uint64_t from, uint64_t size, struct ios_err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	char *buf;
	int ret = 0;

	if (fd < 0)
		return IOS_ERR(e, -errno, "file '%s': cannot create: %s (err=%d)", path,
			       strerror(errno), errno);
	buf = malloc(HU_LAYOUT_CHUNK);
	if (!buf) {
		close(fd);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < HU_LAYOUT_CHUNK / 8; i++)
		((uint64_t *)buf)[i] = ios_hu_mix(i);
	for (uint64_t off = from; off < size && !ret;) {
		size_t n = size - off < HU_LAYOUT_CHUNK ? (size_t)(size - off) : HU_LAYOUT_CHUNK;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);

		if (ios_host_interrupted()) {
			ret = IOS_ERR(e, -EINTR, "file '%s': laying it out stopped at byte %" PRIu64
				      " by signal %d", path, off, ios_host_interrupted());
			break;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			ret = IOS_ERR(e, w < 0 ? -errno : -ENOSPC,
				      "file '%s': laying it out to %" PRIu64 " bytes failed at byte %"
				      PRIu64 ": %s (err=%d)", path, size, off,
				      strerror(w < 0 ? errno : ENOSPC), w < 0 ? errno : ENOSPC);
		else
			off += (uint64_t)w;
	}
	free(buf);
	if (!ret && fsync(fd))
		ret = IOS_ERR(e, -errno, "file '%s': fsync after laying it out: %s (err=%d)", path,
			      strerror(errno), errno);
	/* fio's invalidate=1: the run starts with none of it cached */
	if (!ret)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return ret;
}

/* A file fio would not write out: made as long as the jobs need, its blocks reserved. */
static int layout_size(int fd, const char *path, uint64_t size, struct ios_err *e)
{
	int ret = fallocate(fd, 0, 0, (off_t)size);

	if (ret && (errno == EOPNOTSUPP || errno == ENOSYS))
		ret = ftruncate(fd, (off_t)size);
	if (ret)
		return IOS_ERR(e, -errno, "file '%s': cannot make it %" PRIu64 " bytes: %s (err=%d)",
			       path, size, strerror(errno), errno);
	return 0;
}

static int hu_open(const char *path, int flags, mode_t mode)
{
	return open(path, flags, mode);
}

static int attach_open(struct host_uring *hu, const struct ios_host_file *f, int flags,
		       bool *direct, struct ios_err *e)
{
	int (*op)(const char *, int, mode_t) = hu->open_fn ? hu->open_fn : hu_open;
	/* the mode matters: O_CREAT without one takes whatever the stack holds */
	int fd = op(f->path, flags | O_DIRECT | O_CLOEXEC, 0644);

	*direct = fd >= 0;
	if (fd < 0 && errno == EINVAL) {
		/* the file system refuses O_DIRECT (tmpfs before 6.6, some FUSE) */
		if (f->flags & IOS_HOST_FILE_DIRECT)
			return IOS_ERR(e, -EINVAL, "file '%s': the file system refuses O_DIRECT, "
				       "which direct=1 needs (err=22)", f->path);
		fd = op(f->path, flags | O_CLOEXEC, 0644);
		if (fd >= 0)
			ios_hu_fault(hu, "file '%s': the file system refuses O_DIRECT; its page-cache "
				     "misses go through the kernel's page cache too", f->path);
	}
	if (fd < 0)
		return IOS_ERR(e, -errno, "file '%s': cannot open: %s (err=%d)", f->path,
			       strerror(errno), errno);
	return fd;
}

static int attach_prepare(struct host_uring *hu, const struct ios_host_file *f, struct ios_err *e)
{
	struct stat st;
	bool exists = !stat(f->path, &st);

	(void)hu;
	if (f->flags & IOS_HOST_FILE_DEV) {
		if (!exists)
			return IOS_ERR(e, -errno, "file '%s': %s (err=%d)", f->path, strerror(errno),
				       errno);
		if (!S_ISBLK(st.st_mode))
			return IOS_ERR(e, -ENOTBLK, "file '%s': not a block device (err=15)", f->path);
		if ((f->flags & IOS_HOST_FILE_WRITE) && !(f->flags & IOS_HOST_FILE_MOUNTED_OK) &&
		    dev_mounted(st.st_rdev))
			return IOS_ERR(e, -EBUSY, "file '%s': a job writes to it and it (or one of its "
				       "partitions) is mounted: refused, as fio refuses without "
				       "allow_mounted_write=1", f->path);
		return 0;
	}
	if (exists && S_ISDIR(st.st_mode))
		return IOS_ERR(e, -EISDIR, "file '%s': is a directory (err=21)", f->path);
	if (exists && !S_ISREG(st.st_mode))
		return IOS_ERR(e, -EINVAL, "file '%s': not a regular file (err=22)", f->path);
	if (!exists && errno != ENOENT)
		return IOS_ERR(e, -errno, "file '%s': %s (err=%d)", f->path, strerror(errno), errno);
	/*
	 * Only a read-only run (real.c) withholds IOS_HOST_FILE_CREATE: fio
	 * --readonly's extend_file says "refusing extend of file due to
	 * read-only". The words name the setting, for a library caller too.
	 */
	if (!exists && !(f->flags & IOS_HOST_FILE_CREATE))
		return IOS_ERR(e, -ENOENT, "file '%s': does not exist (err=2), and the run is "
			       "read-only (read_only, the --readonly option): no file is created",
			       f->path);
	/* nor grown (IOS_HOST_FILE_CREATE's other half) */
	if (!(f->flags & IOS_HOST_FILE_CREATE) && (uint64_t)st.st_size < f->size)
		return IOS_ERR(e, -EROFS, "file '%s': %llu bytes where the jobs need %llu, and the "
			       "run is read-only (read_only, the --readonly option): no file is "
			       "grown", f->path, (unsigned long long)st.st_size,
			       (unsigned long long)f->size);
	if ((f->flags & IOS_HOST_FILE_FILL) && (!exists || (uint64_t)st.st_size < f->size))
		return layout_fill(f->path, exists ? (uint64_t)st.st_size : 0, f->size, e);
	return 0;
}

/*
 * A file that is missing or shorter than the jobs need is made as long
 * (attach_prepare refused it already where it may be neither created nor
 * grown), through a descriptor of its own: the one the run keeps is opened
 * for writing only when a job writes, as fio opens a read job's file
 * O_RDONLY (a read-only or immutable file is then still readable).
 */
static int attach_grow(const struct ios_host_file *f, struct ios_err *e)
{
	struct stat st;
	int fd, ret;

	if (!stat(f->path, &st) && (uint64_t)st.st_size >= f->size)
		return 0;
	fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return IOS_ERR(e, -errno, "file '%s': cannot open: %s (err=%d)", f->path,
			       strerror(errno), errno);
	ret = f->size ? layout_size(fd, f->path, f->size, e) : 0;
	close(fd);
	return ret;
}

int ios_hu_attach(struct ios_host *h, const struct ios_host_file *f, struct ios_err *e)
{
	struct host_uring *hu = h->priv;
	bool dev = f->flags & IOS_HOST_FILE_DEV;
	struct hu_file *nf;
	struct stat st0;
	bool existed = !stat(f->path, &st0), direct = false;
	size_t i;
	int fd = -1, ret;

	ret = attach_prepare(hu, f, e);
	if (!ret && !dev)
		ret = attach_grow(f, e);
	if (!ret) {
		fd = attach_open(hu, f, f->flags & IOS_HOST_FILE_WRITE ? O_RDWR : O_RDONLY, &direct, e);
		if (fd < 0)
			ret = fd;
	}
	if (ret) {
		/* a file this run made and could not use: not left behind */
		if (!existed && !dev)
			(void)unlink(f->path);
		return ret;
	}
	if (hu->nr_files == hu->cap_files) {
		size_t cap = hu->cap_files ? 2 * hu->cap_files : 16;
		struct hu_file *v = realloc(hu->files, cap * sizeof(*v));

		if (!v) {
			close(fd);
			return IOS_ERR(e, -ENOMEM, "out of memory");
		}
		hu->files = v;
		hu->cap_files = cap;
	}
	/* keep them sorted by start: the runner attaches in layout order, so this is cheap */
	for (i = hu->nr_files; i > 0 && hu->files[i - 1].start > f->start_sector; i--)
		;
	memmove(&hu->files[i + 1], &hu->files[i], (hu->nr_files - i) * sizeof(hu->files[0]));
	nf = &hu->files[i];
	memset(nf, 0, sizeof(*nf));
	nf->fd = fd;
	nf->path = strdup(f->path);
	nf->start = f->start_sector;
	nf->nr_sectors = (f->flags & IOS_HOST_FILE_DEV) ? h->disk.nr_sectors
			 : (f->size + IOS_SECTOR_SIZE - 1) >> IOS_SECTOR_SHIFT;
	nf->direct = direct;
	nf->eof = nf->nr_sectors << IOS_SECTOR_SHIFT;
	if (!(f->flags & IOS_HOST_FILE_DEV)) {
		struct stat st;

		nf->eof = fstat(fd, &st) ? f->size : (uint64_t)st.st_size;
	}
	hu->nr_files++;
	if (!nf->path)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}
