/*
 * Opening a trace for replay: find its files, tell its format, check it
 * once from end to end, and hand out per-process cursors.
 *
 * The check walks every record with the same reader the cursors use
 * (rd_blktrace.c, rd_text.c), so a trace that opens is one whose every
 * record was already accepted: errors come out before the simulation
 * starts, naming the file and record or line. What the check keeps is
 * small and bounded by the number of processes, not of records: one
 * struct ios_replay_stream per pid that queued I/O (in order of its first
 * I/O), the names of pids, and for iologs the file table. A cursor is the
 * same walk again, filtered to one pid, through buffers of fixed size.
 * Reading the trace once per process costs I/O (page-cache reads for
 * files that fit in memory) but never memory.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "trace_int.h"

const struct ios_tunable ios_replay_tunables_table[] = {
	{ "iodepth", IOS_TUN_INT, offsetof(struct ios_replay_tunables, iodepth), 1, 65536, "1", "",
	  "reads, sync writes and flushes a replayed process keeps in flight before it waits "
	  "(1: each blocks like a read() or an O_DIRECT write)", 0, NULL },
	{ "no_stall", IOS_TUN_BOOL, offsetof(struct ios_replay_tunables, no_stall), 0, 1, "0", "",
	  "1: ignore the recorded times, issue as fast as iodepth allows (fio's replay_no_stall)",
	  0, NULL },
	{ "time_scale", IOS_TUN_INT, offsetof(struct ios_replay_tunables, time_scale), 1, 1000000,
	  "100", "%", "speed of the recorded clock: 200 replays twice as fast (fio's "
	  "replay_time_scale)", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

/* ---- readers ---- */

int ios_tr_rd_init(struct tr_rd *rd, struct ios_replay *r, const struct tr_file *f, size_t cap,
		   struct ios_err *e)
{
	size_t now, peak;

	memset(rd, 0, sizeof(*rd));
	rd->r = r;
	rd->f = f;
	rd->buf = malloc(cap);
	if (!rd->buf)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	rd->cap = cap;
	/* runs on several threads may read one trace (compare's columns): atomics */
	now = __atomic_add_fetch(&r->buffered, cap, __ATOMIC_RELAXED);
	peak = __atomic_load_n(&r->buffered_peak, __ATOMIC_RELAXED);
	while (now > peak && !__atomic_compare_exchange_n(&r->buffered_peak, &peak, now, true,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	return 0;
}

void ios_tr_rd_free(struct tr_rd *rd)
{
	if (!rd->buf)
		return;
	__atomic_sub_fetch(&rd->r->buffered, rd->cap, __ATOMIC_RELAXED);
	free(rd->buf);
	rd->buf = NULL;
}

ssize_t ios_tr_rd_need(struct tr_rd *rd, size_t n, struct ios_err *e)
{
	const struct tr_file *f = rd->f;

	IOS_BUG_ON(n > rd->cap);
	if (rd->len >= rd->pos && rd->len - rd->pos >= n)
		return (ssize_t)n;
	/* keep the unread tail, refill behind it (pos may be past len after a skip) */
	if (rd->pos >= rd->len) {
		rd->off += rd->pos;
		rd->len = 0;
	} else {
		memmove(rd->buf, rd->buf + rd->pos, rd->len - rd->pos);
		rd->off += rd->pos;
		rd->len -= rd->pos;
	}
	rd->pos = 0;
	while (rd->len < rd->cap && rd->off + rd->len < f->size) {
		uint64_t at = rd->off + rd->len;
		size_t want = rd->cap - rd->len;

		if (want > f->size - at)
			want = (size_t)(f->size - at);
		if (f->fd < 0) {
			memcpy(rd->buf + rd->len, f->mem + at, want);
			rd->len += want;
		} else {
			ssize_t got = pread(f->fd, rd->buf + rd->len, want, (off_t)at);

			if (got < 0) {
				int err = errno;

				return IOS_ERR(e, -err, "%s: reading at byte %" PRIu64 ": %s", f->name,
					       at, strerror(err));
			}
			if (got == 0)
				return IOS_ERR(e, -EIO, "%s: the file got shorter while being read "
					       "(%" PRIu64 " bytes, was %" PRIu64 ")", f->name, at,
					       f->size);
			rd->len += (size_t)got;
		}
	}
	return (ssize_t)(rd->len < n ? rd->len : n);
}

void ios_tr_iter_free(struct tr_iter *it)
{
	for (unsigned i = 0; i < it->nr_bin; i++)
		ios_tr_rd_free(&it->bin[i].rd);
	free(it->bin);
	it->bin = NULL;
	it->nr_bin = 0;
	ios_tr_rd_free(&it->rd);
}

static int iter_init(struct tr_iter *it, struct ios_replay *r, bool check, struct ios_err *e)
{
	int ret;

	memset(it, 0, sizeof(*it));
	it->r = r;
	it->check = check;
	ret = r->format == IOS_REPLAY_BLKTRACE ? ios_tr_bin_init(it, e) : ios_tr_text_init(it, e);
	if (ret)
		ios_tr_iter_free(it);
	return ret;
}

static int iter_next(struct tr_iter *it, struct tr_item *item, struct ios_err *e)
{
	return it->r->format == IOS_REPLAY_BLKTRACE ? ios_tr_bin_next(it, item, e)
						    : ios_tr_text_next(it, item, e);
}

/* ---- pids ---- */

static struct tr_pid *pid_get(struct ios_replay *r, uint32_t pid, bool add, struct ios_err *e,
			      int *err)
{
	size_t mask, i;

	*err = 0;
	if (r->pid_cap) {
		mask = r->pid_cap - 1;
		for (i = (pid * 2654435761u) & mask; r->pid_slots[i]; i = (i + 1) & mask)
			if (r->pids[r->pid_slots[i] - 1].pid == pid)
				return &r->pids[r->pid_slots[i] - 1];
	}
	if (!add)
		return NULL;
	if (r->nr_pids >= IOS_REPLAY_MAX_PIDS) {
		*err = IOS_ERR(e, -E2BIG, "%s: more than %d processes appear in the trace; replay "
			       "handles at most that many", r->path, IOS_REPLAY_MAX_PIDS);
		return NULL;
	}
	if ((r->nr_pids + 1) * 2 > r->pid_cap) {
		size_t n = r->pid_cap ? r->pid_cap * 2 : 64;
		uint32_t *s = calloc(n, sizeof(*s));
		struct tr_pid *v = realloc(r->pids, n / 2 * sizeof(*v));

		if (!s || !v) {
			free(s);
			if (v)
				r->pids = v;
			*err = IOS_ERR(e, -ENOMEM, "out of memory");
			return NULL;
		}
		r->pids = v;
		for (size_t k = 0; k < r->nr_pids; k++) {
			for (i = (r->pids[k].pid * 2654435761u) & (n - 1); s[i]; i = (i + 1) & (n - 1))
				;
			s[i] = (uint32_t)k + 1;
		}
		free(r->pid_slots);
		r->pid_slots = s;
		r->pid_cap = n;
	}
	mask = r->pid_cap - 1;
	for (i = (pid * 2654435761u) & mask; r->pid_slots[i]; i = (i + 1) & mask)
		;
	r->pids[r->nr_pids] = (struct tr_pid){ .pid = pid, .stream = -1 };
	r->pid_slots[i] = (uint32_t)++r->nr_pids;
	return &r->pids[r->nr_pids - 1];
}

/* ---- the check ---- */

static int check_io(struct ios_replay *r, const struct tr_item *it, const char *file,
		    struct ios_err *e)
{
	struct ios_replay_stream *s;
	struct tr_pid *p;
	int err;

	p = pid_get(r, it->pid, true, e, &err);
	if (!p)
		return err;
	if (p->stream < 0) {
		struct ios_replay_stream *v;

		if (r->nr_streams >= IOS_REPLAY_MAX_STREAMS)
			return IOS_ERR(e, -E2BIG, "%s: more than %d processes queue I/O; replay runs "
				       "at most that many (one task each)", r->path,
				       IOS_REPLAY_MAX_STREAMS);
		v = realloc(r->streams, (r->nr_streams + 1) * sizeof(*v));
		if (!v)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		r->streams = v;
		p->stream = (int32_t)r->nr_streams;
		s = &r->streams[r->nr_streams++];
		memset(s, 0, sizeof(*s));
		s->pid = it->pid;
		s->first_ns = it->time;
	}
	s = &r->streams[p->stream];
	s->nr_ios++;
	if (!it->rec.nr_sectors && !it->len) {
		s->nr_flushes++;
	} else {
		s->ios[it->rec.dir]++;
		s->bytes[it->rec.dir] += it->len ? it->len
						 : (uint64_t)it->rec.nr_sectors << IOS_SECTOR_SHIFT;
	}
	if (r->format == IOS_REPLAY_IOLOG2 || r->format == IOS_REPLAY_IOLOG3) {
		struct tr_iofile *f = &r->iofiles[it->iofile];

		/* offsets become sectors once every file's extent is known */
		if (it->rec.sector + it->len > f->extent) {
			f->extent = it->rec.sector + it->len;
			f->extent_where = it->rec.where;
		}
	} else if (it->rec.sector + it->rec.nr_sectors > s->max_end) {
		s->max_end = it->rec.sector + it->rec.nr_sectors;
		s->max_end_where = it->rec.where;
		s->max_end_file = file;
	}
	r->info.nr_ios++;
	return 0;
}

static void add_device(struct ios_replay *r, uint32_t dev, uint32_t *devs, unsigned *nr)
{
	for (unsigned i = 0; i < *nr; i++)
		if (devs[i] == dev)
			return;
	if (!*nr)
		r->info.device = dev;
	if (*nr < 64)
		devs[(*nr)++] = dev;
	r->info.nr_devices = *nr;
}

/* iolog: files one after the other on the disk, each on a 1 MiB boundary */
static void iolog_place(struct ios_replay *r)
{
	const uint64_t align = (1u << 20) >> IOS_SECTOR_SHIFT;
	uint64_t next = 0;

	for (size_t i = 0; i < r->nr_iofiles; i++) {
		struct tr_iofile *f = &r->iofiles[i];
		uint64_t sectors = (f->extent + IOS_SECTOR_SIZE - 1) >> IOS_SECTOR_SHIFT;

		if (f->is_dev) {
			f->base_sector = 0;
		} else {
			f->base_sector = (next + align - 1) / align * align;
			next = f->base_sector + sectors;
		}
		if (r->nr_streams && f->base_sector + sectors > r->streams[0].max_end) {
			r->streams[0].max_end = f->base_sector + sectors;
			r->streams[0].max_end_file = r->files[0].name;
			r->streams[0].max_end_where = f->extent_where;
		}
	}
}

static int check(struct ios_replay *r, struct ios_err *e)
{
	struct tr_iter it;
	struct tr_item item;
	uint32_t devs[64];
	unsigned nr_devs = 0;
	bool have_origin = false;
	int ret;

	ret = iter_init(&it, r, true, e);
	if (ret)
		return ret;
	while ((ret = iter_next(&it, &item, e)) > 0) {
		struct tr_pid *p;
		int err;

		if (item.kind == TR_COMM) {
			p = pid_get(r, item.pid, true, e, &err);
			if (!p) {
				ret = err;
				goto out;
			}
			if (!p->comm[0])
				snprintf(p->comm, sizeof(p->comm), "%s", item.comm);
			continue;
		}
		if (item.kind == TR_IO) {
			ret = check_io(r, &item, r->files[item.file].name, e);
			if (ret)
				goto out;
			/* blkparse names the process on its Q lines */
			if (item.comm) {
				p = pid_get(r, item.pid, false, e, &err);
				if (p && !p->comm[0])
					snprintf(p->comm, sizeof(p->comm), "%s", item.comm);
			}
		} else if (item.skip == 1) {
			r->info.skipped_discard++;
		} else if (item.skip == 2) {
			r->info.skipped_pc++;
		} else if (item.skip == 3) {
			r->info.skipped_empty++;
		}
		/* any event starts the trace's clock, as blkparse's genesis */
		if (item.device)
			add_device(r, item.device, devs, &nr_devs);
		if (item.time != UINT64_MAX && (!have_origin || item.time < r->origin)) {
			r->origin = item.time;
			have_origin = true;
		}
	}
	if (ret < 0)
		goto out;
	ret = 0;
	if (!r->nr_streams) {
		ret = IOS_ERR(e, -ENODATA, "%s: no I/O to replay (%" PRIu64 " %s, no %s)", r->path,
			      r->info.nr_records,
			      r->format == IOS_REPLAY_BLKTRACE ? "records" : "lines",
			      r->format == IOS_REPLAY_BLKTRACE || r->format == IOS_REPLAY_BLKPARSE
				      ? "queue (Q) events of reads, writes or flushes"
				      : "read, write, sync or datasync lines");
		goto out;
	}
	if (r->format == IOS_REPLAY_IOLOG2 || r->format == IOS_REPLAY_IOLOG3) {
		/* an iolog is one fio job: name it after the log */
		const char *base = strrchr(r->path, '/');
		struct tr_pid *p = pid_get(r, r->streams[0].pid, false, e, &ret);

		if (p)
			snprintf(p->comm, sizeof(p->comm), "%s", base ? base + 1 : r->path);
	}
	for (size_t i = 0; i < r->nr_streams; i++) {
		struct ios_replay_stream *s = &r->streams[i];
		struct tr_pid *p = pid_get(r, s->pid, false, e, &ret);

		if (p && p->comm[0])
			snprintf(s->comm, sizeof(s->comm), "%s", p->comm);
		else
			snprintf(s->comm, sizeof(s->comm), "pid%" PRIu32, s->pid);
		s->first_ns = s->first_ns >= r->origin ? s->first_ns - r->origin : 0;
	}
	if (r->format == IOS_REPLAY_IOLOG2 || r->format == IOS_REPLAY_IOLOG3)
		iolog_place(r);
out:
	ios_tr_iter_free(&it);
	return ret;
}

/* ---- opening ---- */

static int file_add(struct ios_replay *r, const char *name, const void *mem, size_t len,
		    struct ios_err *e)
{
	struct tr_file *v, *f;
	struct stat st;

	v = realloc(r->files, (r->nr_files + 1) * sizeof(*v));
	if (!v)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	r->files = v;
	f = &r->files[r->nr_files];
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->name = strdup(name);
	if (!f->name)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	r->nr_files++;
	if (mem) {
		f->mem = mem;
		f->size = len;
		return 0;
	}
	f->fd = open(name, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		int err = errno;

		return IOS_ERR(e, -err, "%s: %s", name, strerror(err));
	}
	if (fstat(f->fd, &st)) {
		int err = errno;

		return IOS_ERR(e, -err, "%s: %s", name, strerror(err));
	}
	if (!S_ISREG(st.st_mode))
		return IOS_ERR(e, -EINVAL, "%s: not a regular file (replay reads each file several "
			       "times; save a pipe to a file first)", name);
	f->size = (uint64_t)st.st_size;
	return 0;
}

/* "NAME.blktrace.N" -> the length of NAME, else 0 */
static size_t cpu_file_base(const char *path)
{
	const char *p = strstr(path, ".blktrace.");
	const char *d;

	if (!p)
		return 0;
	for (;;) {
		const char *q = strstr(p + 1, ".blktrace.");

		if (!q)
			break;
		p = q;
	}
	d = p + strlen(".blktrace.");
	if (!*d)
		return 0;
	for (const char *c = d; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return (size_t)(p - path);
}

/* NAME.blktrace.0, .1, ... up to the first missing number, as blkparse -i does */
static int open_cpu_files(struct ios_replay *r, const char *base, size_t blen, struct ios_err *e)
{
	char *name = malloc(blen + 32);
	int ret = 0;

	if (!name)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (unsigned cpu = 0;; cpu++) {
		struct stat st;

		snprintf(name, blen + 32, "%.*s.blktrace.%u", (int)blen, base, cpu);
		if (stat(name, &st))
			break;
		if (cpu >= IOS_REPLAY_MAX_CPUS) {
			ret = IOS_ERR(e, -E2BIG, "%s: more than %d per-CPU files", name,
				      IOS_REPLAY_MAX_CPUS);
			break;
		}
		ret = file_add(r, name, NULL, 0, e);
		if (ret)
			break;
	}
	free(name);
	return ret;
}

/* Which format is in @head (the first bytes of the first file)? */
static int detect(struct ios_replay *r, const struct tr_file *f, const uint8_t *head, size_t n,
		  struct ios_err *e)
{
	char line[96];
	size_t k = 0;
	unsigned ver;

	if (n >= 4 && ios_blk_magic_order(head) >= 0) {
		r->format = IOS_REPLAY_BLKTRACE;
		return 0;
	}
	/* the start of a magic, cut short: a truncated binary file */
	if (n < 4 && ((n >= 2 && head[1] == 0x74 && (n < 3 || head[2] == 0x61)) ||
		      (head[0] == 0x65 && (n < 2 || head[1] == 0x61) && (n < 3 || head[2] == 0x74))))
		goto bad_magic;
	if (r->nr_files > 1 || cpu_file_base(f->name))
		goto bad_magic;
	while (k < n && k < sizeof(line) - 1 && head[k] != '\n' && head[k] != '\r') {
		line[k] = head[k] ? (char)head[k] : '?';
		k++;
	}
	line[k] = '\0';
	if (!strncmp(line, "fio version ", 12)) {
		if (sscanf(line + 12, "%u iolog", &ver) == 1 && (ver == 2 || ver == 3)) {
			r->format = ver == 2 ? IOS_REPLAY_IOLOG2 : IOS_REPLAY_IOLOG3;
			return 0;
		}
		return IOS_ERR(e, -EINVAL, "%s: line 1: '%s': unknown iolog version (iosched reads "
			       "'fio version 2 iolog' and 'fio version 3 iolog')", f->name, line);
	}
	{
		unsigned long long a, b;
		int rw, used = 0;

		if (sscanf(line, "%d, %llu, %llu%n", &rw, &a, &b, &used) == 3 && used == (int)k)
			return IOS_ERR(e, -EINVAL, "%s: line 1: '%s' looks like a version 1 iolog "
				       "('rw, offset, length'), which fio itself no longer reads "
				       "since 1.20; iosched reads versions 2 and 3", f->name, line);
	}
	/* blkparse: "  8,0    0        1     0.000000000  1234  Q ..." or "Input file ..." */
	{
		unsigned maj, mn;
		char c;

		if (!strncmp(line, "Input file ", 11) ||
		    (sscanf(line, " %u,%u %c", &maj, &mn, &c) == 3 && c >= '0' && c <= '9')) {
			r->format = IOS_REPLAY_BLKPARSE;
			return 0;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (!head[i] || head[i] >= 0x80)
			goto bad_magic;
	return IOS_ERR(e, -EINVAL, "%s: not a blktrace, blkparse output or fio iolog (line 1: "
		       "'%s')", f->name, line);
bad_magic:
	if (n < 4)
		return IOS_ERR(e, -EINVAL, "%s: record 1 (byte 0): truncated: %zu of %u bytes",
			       f->name, n, IOS_BLK_REC_SIZE);
	return IOS_ERR(e, -EINVAL, "%s: record 1 (byte 0): bad magic 0x%02x%02x%02x%02x (a "
		       "blktrace record starts with 0x656174NN in either byte order)", f->name,
		       head[3], head[2], head[1], head[0]);
}

static int replay_open(struct ios_replay *r, const char *path, const void *mem, size_t len,
		       struct ios_err *e)
{
	uint8_t head[96];
	size_t n, first = 0;
	int ret;

	r->path = strdup(path);
	if (!r->path)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (mem) {
		ret = file_add(r, path, mem, len, e);
	} else {
		struct stat st;
		size_t blen = cpu_file_base(path);

		if (blen) {
			ret = open_cpu_files(r, path, blen, e);
		} else if (!stat(path, &st)) {
			ret = file_add(r, path, NULL, 0, e);
		} else {
			ret = open_cpu_files(r, path, strlen(path), e);
			if (!ret && !r->nr_files)
				ret = IOS_ERR(e, -ENOENT, "%s: no such file, and no %s.blktrace.0 "
					      "either", path, path);
		}
		if (!ret && !r->nr_files)
			ret = IOS_ERR(e, -ENOENT, "%s: no such file", path);
	}
	if (ret)
		return ret;
	r->info.nr_files = r->nr_files;
	/*
	 * blktrace writes a file per CPU, and a CPU that saw no event leaves
	 * an empty one: the format is that of the first file with data.
	 */
	while (first < r->nr_files && !r->files[first].size)
		first++;
	if (first == r->nr_files)
		return IOS_ERR(e, -ENODATA, "%s: empty file", r->files[0].name);
	{
		struct tr_rd rd;
		ssize_t got;

		ret = ios_tr_rd_init(&rd, r, &r->files[first], sizeof(head), e);
		if (ret)
			return ret;
		got = ios_tr_rd_need(&rd, sizeof(head), e);
		if (got >= 0)
			memcpy(head, rd.buf, (size_t)got);
		ios_tr_rd_free(&rd);
		if (got < 0)
			return (int)got;
		n = (size_t)got;
	}
	ret = detect(r, &r->files[first], head, n, e);
	if (ret)
		return ret;
	r->info.format = r->format;
	return check(r, e);
}

static int open_common(const char *path, const void *mem, size_t len, struct ios_replay **out,
		       struct ios_err *e)
{
	struct ios_replay *r;
	int ret;

	*out = NULL;
	if (!path || !*path)
		return IOS_ERR(e, -EINVAL, "replay: no trace given");
	r = calloc(1, sizeof(*r));
	if (!r)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = replay_open(r, path, mem, len, e);
	if (ret) {
		ios_replay_close(r);
		return ret;
	}
	*out = r;
	return 0;
}

int ios_replay_open(const char *path, struct ios_replay **out, struct ios_err *e)
{
	return open_common(path, NULL, 0, out, e);
}

int ios_replay_open_mem(const char *name, const void *data, size_t len, struct ios_replay **out,
			struct ios_err *e)
{
	static const uint8_t none[1];

	return open_common(name, data ? data : none, data ? len : 0, out, e);
}

void ios_replay_close(struct ios_replay *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nr_files; i++) {
		if (r->files[i].fd >= 0)
			close(r->files[i].fd);
		free(r->files[i].name);
	}
	free(r->files);
	free(r->streams);
	free(r->pid_slots);
	free(r->pids);
	for (size_t i = 0; i < r->nr_iofiles; i++)
		free(r->iofiles[i].name);
	free(r->iofiles);
	ios_jobfile_free(&r->jf);
	free(r->path);
	free(r);
}

const struct ios_replay_info *ios_replay_info(const struct ios_replay *r)
{
	return &r->info;
}

size_t ios_replay_nr_streams(const struct ios_replay *r)
{
	return r->nr_streams;
}

const struct ios_replay_stream *ios_replay_stream(const struct ios_replay *r, size_t i)
{
	return i < r->nr_streams ? &r->streams[i] : NULL;
}

const char *ios_replay_name(const struct ios_replay *r)
{
	return r->path;
}

size_t ios_replay_buffered(const struct ios_replay *r, size_t *peak)
{
	if (peak)
		*peak = __atomic_load_n(&r->buffered_peak, __ATOMIC_RELAXED);
	return __atomic_load_n(&r->buffered, __ATOMIC_RELAXED);
}

/* ---- cursors ---- */

struct ios_replay_cursor {
	struct ios_replay *r;
	struct tr_iter it;
	uint32_t pid;
	bool all;		/* every stream's I/O (an iolog has one stream anyway) */
	bool iolog;		/* offsets in files, placed on the disk here */
};

int ios_replay_cursor_open(struct ios_replay *r, size_t i, struct ios_replay_cursor **out,
			   struct ios_err *e)
{
	struct ios_replay_cursor *c;
	int ret;

	*out = NULL;
	if (i >= r->nr_streams && i != IOS_REPLAY_ALL)
		return IOS_ERR(e, -EINVAL, "%s: no stream %zu", r->path, i);
	c = calloc(1, sizeof(*c));
	if (!c)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	c->r = r;
	c->iolog = r->format == IOS_REPLAY_IOLOG2 || r->format == IOS_REPLAY_IOLOG3;
	c->all = c->iolog || i == IOS_REPLAY_ALL;
	c->pid = c->all ? 0 : r->streams[i].pid;
	ret = iter_init(&c->it, r, false, e);
	if (ret) {
		free(c);
		return ret;
	}
	*out = c;
	return 0;
}

int ios_replay_cursor_next(struct ios_replay_cursor *c, struct ios_replay_rec *rec,
			   struct ios_err *e)
{
	struct ios_replay *r = c->r;
	struct tr_item item;
	int ret;

	while ((ret = iter_next(&c->it, &item, e)) > 0) {
		if (item.kind != TR_IO || (!c->all && item.pid != c->pid))
			continue;
		*rec = item.rec;
		rec->time_ns = item.time >= r->origin ? item.time - r->origin : 0;
		if (c->iolog) {
			const struct tr_iofile *f = &r->iofiles[item.iofile];
			uint64_t end = (item.rec.sector + item.len + IOS_SECTOR_SIZE - 1) >>
				       IOS_SECTOR_SHIFT;

			rec->sector = f->base_sector + (item.rec.sector >> IOS_SECTOR_SHIFT);
			rec->nr_sectors = (uint32_t)(f->base_sector + end - rec->sector);
		}
		return 1;
	}
	return ret;
}

void ios_replay_cursor_close(struct ios_replay_cursor *c)
{
	if (!c)
		return;
	ios_tr_iter_free(&c->it);
	free(c);
}

/* ---- the jobs of a replay ---- */

const struct ios_jobfile *ios_replay_jobfile(struct ios_replay *r)
{
	struct ios_jobfile *jf = &r->jf;

	if (r->jf_built)
		return jf;
	jf->jobs = calloc(r->nr_streams, sizeof(*jf->jobs));
	if (!jf->jobs)
		return NULL;
	for (size_t i = 0; i < r->nr_streams; i++) {
		struct ios_job *j = &jf->jobs[i];
		const struct ios_replay_stream *s = &r->streams[i];

		if (ios_job_init_defaults(j, IOS_JOB_COMPAT_FIO3))
			goto fail;
		jf->nr_jobs = i + 1;
		j->name = strdup(s->comm);
		j->read_iolog = strdup(r->path);
		j->direct = 1;
		j->buffered = 0;
		j->index = (int)i;
		j->rw = s->ios[IOS_WRITE] ? (s->ios[IOS_READ] ? IOS_RW_RANDRW : IOS_RW_RANDWRITE)
					  : IOS_RW_RANDREAD;
		/* what the report's "job options" show: the trace and the pid */
		j->opts = calloc(2, sizeof(*j->opts));
		if (!j->name || !j->read_iolog || !j->opts)
			goto fail;
		j->nr_opts = 2;
		j->opts[0].key = strdup("read_iolog");
		j->opts[0].value = strdup(r->path);
		j->opts[1].key = strdup("replay_pid");
		j->opts[1].value = malloc(16);
		if (!j->opts[0].key || !j->opts[0].value || !j->opts[1].key || !j->opts[1].value)
			goto fail;
		snprintf(j->opts[1].value, 16, "%" PRIu32, s->pid);
	}
	r->jf_built = true;
	return jf;
fail:
	ios_jobfile_free(jf);
	return NULL;
}
