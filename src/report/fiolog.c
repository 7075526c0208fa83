/*
 * fio's bw / lat / iops log files; the format and naming rules are in
 * include/iosched/fiolog.h.
 *
 * A log line is formatted straight into its file's buffer. Buffers start
 * empty and grow to a cap shared out of a fixed budget (so a run with
 * thousands of logs does not hold hundreds of megabytes), and a full buffer
 * is appended to its file with one fopen("a") / fwrite / fclose. Files are
 * truncated once, when their name is first seen, so a run rewrites its logs
 * like fio does, and several logs naming the same file append to it in
 * simulated-time order.
 *
 * Latency windows with log_avg_msec: fio closes a window when a sample
 * arrives after it, writing the mean with the time of that late sample. A
 * simulator knows the window's end exactly, so the line carries the window's
 * end; windows without I/O write nothing, as in fio.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include "iosched/fiolog.h"

#define FL_BUDGET	(16u << 20)	/* bytes of buffer for all files together */
#define FL_CAP_MAX	(64u << 10)
#define FL_CAP_MIN	(4u << 10)
#define FL_LINE_MAX	128		/* longest line we format */

struct ios_fiolog_file {
	char *path;
	char *buf;
	size_t len, cap;
	int error;			/* first -errno while writing */
	struct ios_fiolog_set *set;	/* where write errors are reported */
	struct ios_fiolog_file *next;
};

struct ios_fiolog_set {
	struct ios_fiolog_file *files;
	unsigned nr_files;
	struct ios_err werr;		/* first write error */
};

struct ios_fiolog_set *ios_fiolog_set_new(void)
{
	return calloc(1, sizeof(struct ios_fiolog_set));
}

static int fl_append(struct ios_fiolog_file *f)
{
	FILE *fp;
	int ret = 0;

	if (!f->len || f->error)
		return f->error;
	fp = fopen(f->path, "a");
	if (!fp)
		return -errno;
	if (fwrite(f->buf, 1, f->len, fp) != f->len)
		ret = errno ? -errno : -EIO;
	if (fclose(fp) && !ret)
		ret = errno ? -errno : -EIO;
	f->len = 0;
	return ret;
}

static void fl_flush(struct ios_fiolog_set *s, struct ios_fiolog_file *f)
{
	int ret = fl_append(f);

	if (ret && !f->error) {
		f->error = ret;
		IOS_ERR(&s->werr, ret, "writing log '%s': %s", f->path, strerror(-ret));
	}
	f->len = 0;
}

static void fl_free_files(struct ios_fiolog_set *s)
{
	struct ios_fiolog_file *f, *n;

	for (f = s->files; f; f = n) {
		n = f->next;
		free(f->path);
		free(f->buf);
		free(f);
	}
	s->files = NULL;
}

void ios_fiolog_set_free(struct ios_fiolog_set *s)
{
	if (!s)
		return;
	fl_free_files(s);
	free(s);
}

int ios_fiolog_set_close(struct ios_fiolog_set *s, struct ios_err *e)
{
	int ret;

	if (!s)
		return 0;
	for (struct ios_fiolog_file *f = s->files; f; f = f->next)
		fl_flush(s, f);
	ret = s->werr.code;
	if (ret)
		IOS_ERR(e, ret, "%s", s->werr.msg);
	ios_fiolog_set_free(s);
	return ret;
}

/* The file called @path, created (truncated) the first time it is named. */
static int fl_get(struct ios_fiolog_set *s, const char *path, struct ios_fiolog_file **out)
{
	struct ios_fiolog_file *f, **tail = &s->files;
	FILE *fp;

	for (f = s->files; f; f = f->next) {
		if (!strcmp(f->path, path)) {
			*out = f;
			return 0;
		}
		tail = &f->next;
	}
	fp = fopen(path, "w");
	if (!fp)
		return -errno;
	if (fclose(fp))
		return -errno;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		return -ENOMEM;
	}
	f->set = s;
	*tail = f;
	s->nr_files++;
	*out = f;
	return 0;
}

unsigned ios_fiolog_job_prio(const struct ios_job *job)
{
	/* fio: a level without a class is best-effort; a class without a level is level 0 */
	unsigned cls = job->prioclass > 0 ? (unsigned)job->prioclass : (job->prio >= 0 ? 2u : 0u);
	unsigned lvl = job->prio >= 0 ? (unsigned)job->prio : 0u;

	return cls << 13 | lvl;
}

static const struct fl_kind {
	enum ios_fiolog_kind kind;
	const char *opt, *suffix;
	size_t off;
} fl_kinds[] = {
	{ IOS_FIOLOG_BW, "write_bw_log", "bw", offsetof(struct ios_job, write_bw_log) },
	{ IOS_FIOLOG_IOPS, "write_iops_log", "iops", offsetof(struct ios_job, write_iops_log) },
	/* fio's order: lat, slat, clat (the order does not show in the files) */
	{ IOS_FIOLOG_LAT, "write_lat_log", "lat", offsetof(struct ios_job, write_lat_log) },
	{ IOS_FIOLOG_SLAT, "write_lat_log", "slat", offsetof(struct ios_job, write_lat_log) },
	{ IOS_FIOLOG_CLAT, "write_lat_log", "clat", offsetof(struct ios_job, write_lat_log) },
};

/*
 * The file of log fl_kinds[@i] of @job's clone @number into @path: 1, 0
 * when the job does not ask for it, or -ENAMETOOLONG; *@prefix gets the
 * prefix used.
 */
static int fl_path(const struct ios_job *job, size_t i, unsigned number, char *path, size_t len,
		   const char **prefix)
{
	const char *pre = *(char *const *)((const char *)job + fl_kinds[i].off);
	int n;

	*prefix = pre;
	if (!pre)
		return 0;
	/* the parser turned a bare option into the job name; fio does the same */
	if (!*pre)
		pre = job->name;
	*prefix = pre;
	if (job->per_job_logs)
		n = snprintf(path, len, "%s_%s.%u.log", pre, fl_kinds[i].suffix, number);
	else
		n = snprintf(path, len, "%s_%s.log", pre, fl_kinds[i].suffix);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 1;
}

int ios_fiolog_job_open(struct ios_fiolog_set *s, const struct ios_job *job, unsigned number,
			struct ios_fiolog_job *lj, struct ios_err *e)
{
	memset(lj, 0, sizeof(*lj));
	lj->avg_ns = job->log_avg_msec * 1000000ULL;
	lj->win_end_ns = lj->avg_ns;
	lj->log_offset = job->log_offset;
	lj->log_prio = job->log_prio;
	lj->prio = ios_fiolog_job_prio(job);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(fl_kinds); i++) {
		const char *prefix;
		char path[4096];
		int ret = fl_path(job, i, number, path, sizeof(path), &prefix);

		if (!ret)
			continue;
		if (ret < 0)
			return IOS_ERR(e, -ENAMETOOLONG, "%s:%d: job '%s': %s=%s: log file name too long",
				       job->file ? job->file : "?", job->line, job->name,
				       fl_kinds[i].opt, prefix);
		ret = fl_get(s, path, &lj->file[fl_kinds[i].kind]);
		if (ret)
			return IOS_ERR(e, ret, "%s:%d: job '%s': %s=%s: cannot create '%s': %s",
				       job->file ? job->file : "?", job->line, job->name,
				       fl_kinds[i].opt, prefix, path, strerror(-ret));
	}
	return 0;
}

int ios_fiolog_each_path(const struct ios_jobfile *jf,
			 int (*fn)(void *arg, const char *path, const struct ios_job *job,
				   const char *opt),
			 void *arg)
{
	unsigned number = 1;

	/* job numbers as the runner gives them: every clone counts, in job-file order */
	for (size_t j = 0; j < jf->nr_jobs; j++) {
		const struct ios_job *job = &jf->jobs[j];
		unsigned clones = job->numjobs ? job->numjobs : 1;

		for (unsigned k = 0; k < clones; k++, number++) {
			for (size_t i = 0; i < IOS_ARRAY_SIZE(fl_kinds); i++) {
				const char *prefix;
				char path[4096];
				int ret = fl_path(job, i, number, path, sizeof(path), &prefix);

				/* a name too long is the run's error, said when it opens the logs */
				if (ret <= 0)
					continue;
				ret = fn(arg, path, job, fl_kinds[i].opt);
				if (ret)
					return ret;
			}
			if (!job->per_job_logs)
				break;	/* every clone writes the same files */
		}
		if (!job->per_job_logs)
			number += clones - 1;
	}
	return 0;
}

/* Room for one more line in @f's buffer; false when out of memory (line dropped). */
static bool fl_room(struct ios_fiolog_set *s, struct ios_fiolog_file *f)
{
	if (f->cap - f->len >= FL_LINE_MAX)
		return true;
	if (!f->cap) {
		size_t cap = FL_BUDGET / (s->nr_files ? s->nr_files : 1);
		char *b;

		if (cap > FL_CAP_MAX)
			cap = FL_CAP_MAX;
		if (cap < FL_CAP_MIN)
			cap = FL_CAP_MIN;
		b = malloc(cap);
		if (!b) {
			if (!f->error) {
				f->error = -ENOMEM;
				IOS_ERR(&s->werr, -ENOMEM, "log '%s': out of memory", f->path);
			}
			return false;
		}
		f->buf = b;
		f->cap = cap;
		return true;
	}
	fl_flush(s, f);
	return !f->error;
}

static void fl_line(struct ios_fiolog_job *lj, struct ios_fiolog_file *f, uint64_t t_ns,
		    uint64_t value, int dir, uint64_t bs, uint64_t offset, unsigned prio)
{
	char *p;
	int n;

	if (f->error || !fl_room(f->set, f))
		return;
	p = f->buf + f->len;
	n = snprintf(p, FL_LINE_MAX, "%" PRIu64 ", %" PRIu64 ", %d, %" PRIu64, t_ns / 1000000,
		     value, dir, bs);
	if (lj->log_offset)
		n += snprintf(p + n, FL_LINE_MAX - (size_t)n, ", %" PRIu64, offset);
	if (lj->log_prio)
		n += snprintf(p + n, FL_LINE_MAX - (size_t)n, ", 0x%04x", prio);
	else
		n += snprintf(p + n, FL_LINE_MAX - (size_t)n, ", %u", (prio >> 13) == 1 ? 1u : 0u);
	p[n++] = '\n';
	f->len += (size_t)n;
}

/* Write the latency windows' means at @t_ns and empty them. */
static void fl_close_windows(struct ios_fiolog_job *lj, uint64_t t_ns)
{
	static const enum ios_fiolog_kind lat[] = { IOS_FIOLOG_SLAT, IOS_FIOLOG_CLAT, IOS_FIOLOG_LAT };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(lat); i++) {
		enum ios_fiolog_kind k = lat[i];

		if (!lj->file[k])
			continue;
		/* fio writes every direction of one log before the next log */
		for (int d = 0; d < 2; d++) {
			struct ios_fiolog_win *w = &lj->win[k][d];

			if (!w->n)
				continue;
			/* fio: mean + 0.5, truncated */
			fl_line(lj, lj->file[k], t_ns, (w->sum_ns + w->n / 2) / w->n, d, 0, 0, 0);
			w->sum_ns = 0;
			w->n = 0;
		}
	}
}

void ios_fiolog_io(struct ios_fiolog_job *lj, uint64_t t_ns, int dir, uint64_t len,
		   uint64_t offset, bool has_slat, uint64_t slat_ns, uint64_t clat_ns,
		   uint64_t lat_ns)
{
	const uint64_t lat[IOS_FIOLOG_NR] = {
		[IOS_FIOLOG_SLAT] = slat_ns, [IOS_FIOLOG_CLAT] = clat_ns, [IOS_FIOLOG_LAT] = lat_ns,
	};

	if (dir != 0 && dir != 1)
		return;
	if (!lj->avg_ns) {
		if (lj->file[IOS_FIOLOG_BW])
			/* fio's per-I/O rate: bytes * 10^6 / clat in ns */
			fl_line(lj, lj->file[IOS_FIOLOG_BW], t_ns,
				clat_ns ? len * 1000000 / clat_ns : 0, dir, len, offset, lj->prio);
		if (lj->file[IOS_FIOLOG_IOPS])
			fl_line(lj, lj->file[IOS_FIOLOG_IOPS], t_ns, 1, dir, len, offset, lj->prio);
		if (lj->file[IOS_FIOLOG_SLAT] && has_slat)
			fl_line(lj, lj->file[IOS_FIOLOG_SLAT], t_ns, slat_ns, dir, len, offset, lj->prio);
		if (lj->file[IOS_FIOLOG_LAT])
			fl_line(lj, lj->file[IOS_FIOLOG_LAT], t_ns, lat_ns, dir, len, offset, lj->prio);
		if (lj->file[IOS_FIOLOG_CLAT])
			fl_line(lj, lj->file[IOS_FIOLOG_CLAT], t_ns, clat_ns, dir, len, offset, lj->prio);
		return;
	}
	if (t_ns >= lj->win_end_ns) {
		fl_close_windows(lj, lj->win_end_ns);
		/* skip the empty windows in between: they write nothing */
		lj->win_end_ns += (t_ns - lj->win_end_ns) / lj->avg_ns * lj->avg_ns + lj->avg_ns;
	}
	for (enum ios_fiolog_kind k = IOS_FIOLOG_SLAT; k <= IOS_FIOLOG_LAT; k++) {
		if (!lj->file[k] || (k == IOS_FIOLOG_SLAT && !has_slat))
			continue;
		lj->win[k][dir].sum_ns += lat[k];
		lj->win[k][dir].n++;
	}
}

void ios_fiolog_rate(struct ios_fiolog_job *lj, enum ios_fiolog_kind k, uint64_t t_ns, int dir,
		     uint64_t value)
{
	if (lj->file[k] && (dir == 0 || dir == 1))
		fl_line(lj, lj->file[k], t_ns, value, dir, 0, 0, 0);
}

void ios_fiolog_job_end(struct ios_fiolog_job *lj, uint64_t t_ns)
{
	if (lj->avg_ns)
		fl_close_windows(lj, t_ns < lj->win_end_ns ? t_ns : lj->win_end_ns);
}
