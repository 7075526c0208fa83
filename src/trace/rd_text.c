/*
 * Reading text traces: blkparse's default output and fio's iologs.
 *
 * blkparse (blkparse_fmt.c's default format) prints one line per event,
 *   "  8,0    0       12     0.001004000  1234  Q  RS 100016 + 8 [fio]",
 * that is device, CPU, sequence, seconds.nanoseconds, pid, action, RWBS,
 * then per action the sector, "+ sectors" and "[process]". Only Q lines are
 * replayed; a Q without a size prints just "[process]" (a flush when RWBS
 * starts with F). Before the events blkparse may print "Input file ...
 * added"; after them come its summaries (per process with -s, per CPU, the
 * totals), which start at the first line that is not an event and are not
 * read further. An event line inside the summaries, or any other line
 * before them, is an error.
 *
 * fio iologs (HOWTO "Trace file format"): the first line
 * "fio version 2 iolog" or "fio version 3 iolog", then per line
 *   v2: FILE add|open|close          FILE read|write|sync|datasync|trim|wait OFFSET LENGTH
 *   v3: USEC FILE add|open|close     USEC FILE read|write|sync|datasync|trim OFFSET LENGTH
 * with v3's timestamp in microseconds since the start, and v2's time made of
 * its wait lines (OFFSET microseconds after the previous wait; under 100 is
 * ignored, as the HOWTO says). A file must be added before it is used.
 * Offsets are bytes within the file; replay.c places the files on the disk.
 *
 * Lines are at most IOS_REPLAY_MAX_LINE characters (fio's reader takes 4096
 * too); a NUL byte, an unknown action or a malformed number is an error
 * naming the file and line.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "trace_int.h"

int ios_tr_text_init(struct tr_iter *it, struct ios_err *e)
{
	return ios_tr_rd_init(&it->rd, it->r, &it->r->files[0], TR_BUF_TEXT, e);
}

/* The next line (without its newline, NUL-terminated in the buffer): 1, 0 at the end, -errno. */
static int next_line(struct tr_iter *it, char **line, size_t *len, struct ios_err *e)
{
	struct tr_rd *rd = &it->rd;
	const char *name = rd->f->name;
	size_t scanned = 0;

	for (;;) {
		size_t avail = rd->len - rd->pos, n;
		uint8_t *p = rd->buf + rd->pos;
		uint8_t *nl = memchr(p + scanned, '\n', avail - scanned);
		bool eof = tr_rd_tell(rd) + avail >= rd->f->size;
		ssize_t got;

		if (nl || (eof && avail)) {
			n = nl ? (size_t)(nl - p) : avail;
			it->lineno++;
			if (n > IOS_REPLAY_MAX_LINE)
				return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": longer than %d "
					       "characters", name, it->lineno, IOS_REPLAY_MAX_LINE);
			if (memchr(p, '\0', n))
				return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": a NUL byte: binary "
					       "data in a text trace", name, it->lineno);
			if (!nl && rd->pos + n >= rd->cap) {
				/* the last line, without a newline: room for its NUL */
				memmove(rd->buf, p, n);
				rd->off += rd->pos;
				rd->pos = 0;
				rd->len = n;
				p = rd->buf;
			}
			rd->pos += n + (nl ? 1 : 0);
			if (n && p[n - 1] == '\r')
				n--;
			p[n] = '\0';
			*line = (char *)p;
			*len = n;
			return 1;
		}
		if (eof)
			return 0;
		if (avail > IOS_REPLAY_MAX_LINE)
			return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": longer than %d characters",
				       name, it->lineno + 1, IOS_REPLAY_MAX_LINE);
		scanned = avail;
		got = ios_tr_rd_need(rd, avail + 1, e);
		if (got < 0)
			return (int)got;
	}
}

/* Split @s at blanks into at most @max fields; returns the count (more than @max: @max + 1). */
static unsigned fields(char *s, char **f, unsigned max, char **rest)
{
	unsigned n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (n == max) {
			if (rest)
				*rest = s;
			return max + 1;
		}
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
	if (rest)
		*rest = s;
	return n;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

/* "12.000001000" -> ns */
static bool parse_time(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	char secs[24];
	uint64_t sec, frac = 0;
	size_t n, digits = 0;

	if (!dot || (size_t)(dot - s) >= sizeof(secs))
		return false;
	n = (size_t)(dot - s);
	memcpy(secs, s, n);
	secs[n] = '\0';
	if (!parse_u64(secs, &sec) || sec > UINT64_MAX / 1000000000u - 1)
		return false;
	for (const char *c = dot + 1; *c; c++, digits++) {
		if (*c < '0' || *c > '9' || digits >= 9)
			return false;
		frac = frac * 10 + (uint64_t)(*c - '0');
	}
	if (!digits)
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return true;
}

/* ---- blkparse ---- */

/* RWBS: [F](D|W|R|N|E)[F][A][S][M] (older blkparse: B for a barrier) */
static int parse_rwbs(struct tr_iter *it, const char *s, struct tr_item *item, bool *discard,
		      bool *none, struct ios_err *e)
{
	const char *p = s;
	uint32_t fl = 0;

	*discard = *none = false;
	if (p[0] == 'F' && p[1] && strchr("DWRNE", p[1])) {
		fl |= IOS_REQ_PREFLUSH;
		p++;
	}
	switch (*p) {
	case 'W':
		item->rec.dir = IOS_WRITE;
		break;
	case 'R':
		item->rec.dir = IOS_READ;
		break;
	case 'D':
	case 'E':	/* secure erase: a discard */
		*discard = true;
		break;
	case 'N':
		*none = true;
		item->rec.dir = IOS_WRITE;
		break;
	default:
		goto bad;
	}
	for (p++; *p; p++) {
		uint32_t bit;

		switch (*p) {
		case 'F':
			bit = IOS_REQ_FUA;
			break;
		case 'A':
			bit = IOS_REQ_AHEAD;
			break;
		case 'S':
			bit = IOS_REQ_SYNC;
			break;
		case 'M':
			bit = IOS_REQ_META;
			break;
		case 'B':
			bit = IOS_REQ_PREFLUSH;
			break;
		default:
			goto bad;
		}
		if (fl & bit)
			goto bad;
		fl |= bit;
	}
	item->rec.flags = fl;
	return 0;
bad:
	return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": RWBS field '%s' is not blkparse's "
		       "[F](D|W|R|N)[F][A][S][M]", it->rd.f->name, it->lineno, s);
}

/* "8,0" -> dev_t as in records */
static bool parse_dev(const char *s, uint32_t *dev)
{
	char a[12], b[12];
	const char *comma = strchr(s, ',');
	uint64_t maj, mn;

	if (!comma || comma == s || (size_t)(comma - s) >= sizeof(a) || strlen(comma + 1) >= sizeof(b))
		return false;
	memcpy(a, s, (size_t)(comma - s));
	a[comma - s] = '\0';
	strcpy(b, comma + 1);
	if (!parse_u64(a, &maj) || !parse_u64(b, &mn) || maj > 0xfff || mn > 0xfffff)
		return false;
	*dev = IOS_BLK_DEV(maj, mn);
	return true;
}

static int blkparse_line(struct tr_iter *it, char *line, struct tr_item *item, struct ios_err *e)
{
	const char *name = it->rd.f->name;
	char *f[7], *rest, *open, *close;
	uint64_t cpu, seq, pid, v;
	unsigned n;
	bool discard, none;

	item->kind = TR_OTHER;
	item->time = UINT64_MAX;
	n = fields(line, f, 7, &rest);
	if (!n || !parse_dev(f[0], &item->device)) {
		item->device = 0;
		/* not an event: blkparse's chatter, or the start of its summaries */
		if (n >= 2 && !strcmp(f[0], "Input") && !strcmp(f[1], "file"))
			return 0;
		if (!it->trailer && it->lineno == 1)
			return IOS_ERR(e, -EINVAL, "%s: line 1: not a blkparse event line", name);
		it->trailer = true;
		return 0;
	}
	if (it->trailer)
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": an event line after blkparse's "
			       "summary has begun", name, it->lineno);
	if (n < 7 || !parse_u64(f[1], &cpu) || !parse_u64(f[2], &seq) ||
	    !parse_time(f[3], &item->time) || !parse_u64(f[4], &pid) || pid > UINT32_MAX)
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": not a blkparse event line ('DEV "
			       "CPU SEQ SECONDS.NANOSECONDS PID ACTION RWBS ...')", name, it->lineno);
	(void)cpu;
	(void)seq;
	item->pid = (uint32_t)pid;
	item->rec.where = it->lineno;
	for (const char *c = f[5]; *c; c++)
		if ((*c < 'A' || *c > 'Z') && (*c < 'a' || *c > 'z'))
			return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": action '%s' is not "
				       "blkparse's (Q, G, I, D, C, m, ...)", name, it->lineno, f[5]);
	if (strcmp(f[5], "Q"))
		return 0;
	if (parse_rwbs(it, f[6], item, &discard, &none, e))
		return e->code;
	/* the process name ends the line: "[name]" */
	close = rest + strlen(rest);
	while (close > rest && (close[-1] == ' ' || close[-1] == '\t'))
		close--;
	open = close > rest ? strrchr(rest, '[') : NULL;
	if (!open || close[-1] != ']')
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": a Q line ends with the process "
			       "name in brackets ('[fio]')", name, it->lineno);
	close[-1] = '\0';
	if (strcmp(open + 1, "(null)")) {
		snprintf(it->comm, sizeof(it->comm), "%s", open + 1);
		item->comm = it->comm;
	}
	*open = '\0';
	n = fields(rest, f, 3, NULL);
	if (discard) {
		item->skip = 1;
		return 0;
	}
	if (n == 0) {
		/* no size: a flush, or nothing */
		if (!(item->rec.flags & IOS_REQ_PREFLUSH)) {
			item->skip = 3;
			return 0;
		}
		item->kind = TR_IO;
		item->rec.dir = IOS_WRITE;
		item->rec.flags |= IOS_REQ_SYNC;
		return 0;
	}
	if (n != 3 || strcmp(f[1], "+")) {
		/* passthrough: "BYTES (cdb) [name]" */
		if (n >= 1 && parse_u64(f[0], &v) && (n == 1 || f[1][0] == '(')) {
			item->skip = 2;
			return 0;
		}
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": a Q line needs 'SECTOR + "
			       "SECTORS [name]'", name, it->lineno);
	}
	if (!parse_u64(f[0], &item->rec.sector) || !parse_u64(f[2], &v) || v > UINT32_MAX >> 9 ||
	    item->rec.sector > UINT64_MAX - v)
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": sector '%s' + '%s' out of range",
			       name, it->lineno, f[0], f[2]);
	if (!v) {
		if (!(item->rec.flags & IOS_REQ_PREFLUSH)) {
			item->skip = 3;
			return 0;
		}
		item->rec.sector = 0;
		item->rec.dir = IOS_WRITE;
		item->rec.flags |= IOS_REQ_SYNC;
	} else if (none) {
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": RWBS 'N' (no data) with %" PRIu64
			       " sectors", name, it->lineno, v);
	}
	item->rec.nr_sectors = (uint32_t)v;
	item->kind = TR_IO;
	return 0;
}

/* ---- fio iologs ---- */

long ios_tr_iofile_find(struct ios_replay *r, const char *name, bool add, struct ios_err *e)
{
	struct tr_iofile *v;

	/* a linear search: iologs name a handful of files */
	for (size_t i = 0; i < r->nr_iofiles; i++)
		if (!strcmp(r->iofiles[i].name, name))
			return (long)i;
	if (!add)
		return -1;
	if (r->nr_iofiles >= IOS_REPLAY_MAX_FILES)
		return IOS_ERR(e, -E2BIG, "%s: more than %d files", r->path, IOS_REPLAY_MAX_FILES);
	v = realloc(r->iofiles, (r->nr_iofiles + 1) * sizeof(*v));
	if (!v)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	r->iofiles = v;
	memset(&v[r->nr_iofiles], 0, sizeof(*v));
	v[r->nr_iofiles].name = strdup(name);
	if (!v[r->nr_iofiles].name)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	v[r->nr_iofiles].is_dev = !strncmp(name, "/dev/", 5);
	return (long)r->nr_iofiles++;
}

static int iolog_line(struct tr_iter *it, char *line, struct tr_item *item, struct ios_err *e)
{
	struct ios_replay *r = it->r;
	const char *name = it->rd.f->name;
	bool v3 = r->format == IOS_REPLAY_IOLOG3;
	unsigned base = v3 ? 1 : 0, n;
	char *f[6], *act;
	uint64_t off = 0, len = 0, us;
	long file;

	item->kind = TR_OTHER;
	item->time = UINT64_MAX;
	item->pid = 1000;
	item->rec.where = it->lineno;
	if (it->lineno == 1)
		return 0;	/* the version line, checked when the format was told */
	n = fields(line, f, 5, NULL);
	if (!n)
		return 0;
	if (n != base + 2 && n != base + 4)
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": %u fields; a version %d iolog line "
			       "is '%sFILE ACTION' or '%sFILE ACTION OFFSET LENGTH'", name,
			       it->lineno, n, v3 ? 3 : 2, v3 ? "USEC " : "", v3 ? "USEC " : "");
	if (v3) {
		if (!parse_u64(f[0], &us) || us > UINT64_MAX / 1000)
			return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": timestamp '%s' is not a "
				       "number of microseconds", name, it->lineno, f[0]);
		item->time = us * 1000;
	} else {
		item->time = it->wait_us * 1000;
	}
	act = f[base + 1];
	if (n == base + 2) {
		if (strcmp(act, "add") && strcmp(act, "open") && strcmp(act, "close"))
			return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": file action '%s' (allowed: "
				       "add, open, close)", name, it->lineno, act);
		file = ios_tr_iofile_find(r, f[base], it->check && !strcmp(act, "add"), e);
		if (file < -1)
			return (int)file;
		if (file < 0)
			goto not_added;
		return 0;
	}
	if (!parse_u64(f[base + 2], &off))
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": offset '%s' is not a number of "
			       "bytes", name, it->lineno, f[base + 2]);
	if (!parse_u64(f[base + 3], &len) || len > UINT32_MAX)
		return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": length '%s' is not a number of "
			       "bytes below 4 GiB", name, it->lineno, f[base + 3]);
	if (!strcmp(act, "wait")) {
		if (v3)
			return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": 'wait' is not allowed in a "
				       "version 3 iolog (its timestamps say when)", name, it->lineno);
		if (off >= 100) {
			if (it->wait_us > UINT64_MAX / 1000 - off)
				return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": the waits add up to "
					       "more than 584 years", name, it->lineno);
			it->wait_us += off;
		}
		return 0;
	}
	file = ios_tr_iofile_find(r, f[base], false, e);
	if (file < 0)
		goto not_added;
	item->iofile = (uint32_t)file;
	if (!strcmp(act, "read") || !strcmp(act, "write")) {
		if (!len)
			return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": %s of 0 bytes", name,
				       it->lineno, act);
		if (off > UINT64_MAX / 2 - len)
			return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": offset %" PRIu64 " past "
				       "any disk", name, it->lineno, off);
		item->kind = TR_IO;
		item->rec.sector = off;		/* bytes; replay.c turns them into sectors */
		item->len = len;
		item->rec.dir = act[0] == 'w' ? IOS_WRITE : IOS_READ;
		/* straight to the disk, as O_DIRECT: writes are sync requests */
		item->rec.flags = act[0] == 'w' ? IOS_REQ_SYNC : 0;
		return 0;
	}
	if (!strcmp(act, "sync") || !strcmp(act, "datasync")) {
		/* fsync of an O_DIRECT file: the drive's cache flush */
		item->kind = TR_IO;
		item->rec.dir = IOS_WRITE;
		item->rec.flags = IOS_REQ_PREFLUSH | IOS_REQ_SYNC;
		return 0;
	}
	if (!strcmp(act, "trim")) {
		item->skip = 1;
		return 0;
	}
	return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": I/O action '%s' (allowed: read, write, "
		       "sync, datasync, trim%s)", name, it->lineno, act, v3 ? "" : ", wait");
not_added:
	return IOS_ERR(e, -EINVAL, "%s: line %" PRIu64 ": file '%s' is used before a '%s%s add' "
		       "line", name, it->lineno, f[base], v3 ? "USEC " : "", f[base]);
}

int ios_tr_text_next(struct tr_iter *it, struct tr_item *item, struct ios_err *e)
{
	char *line = NULL;
	size_t len = 0;
	int ret;

	ret = next_line(it, &line, &len, e);
	if (ret <= 0)
		return ret;
	if (it->check)
		it->r->info.nr_records++;
	memset(item, 0, sizeof(*item));
	if (it->r->format == IOS_REPLAY_BLKPARSE)
		ret = blkparse_line(it, line, item, e);
	else
		ret = iolog_line(it, line, item, e);
	return ret ? ret : 1;
}
