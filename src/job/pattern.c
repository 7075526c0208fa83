/*
 * verify_pattern= and buffer_pattern=: the bytes fio 3.33 fills a buffer
 * with, read as its parse_and_fill_pattern() (lib/pattern.c) reads them, so
 * that what fio refuses is refused here and what it takes is taken.
 *
 * A value is a sequence of pieces, with nothing between them:
 *
 *   0x...     hex bytes of any length (an odd count of digits starts with
 *             one nibble: 0xabc is 0a bc); a '0' followed by 'x' ends the run,
 *             so 0xff0x14 is ff 14
 *   N         a decimal int (INT_MIN..INT_MAX, strtol's leading blanks and
 *             sign), stored little-endian in as many bytes as its 32-bit
 *             value needs (0 is one byte, -1 four); when an "0x" follows
 *             anywhere later, fio reads the number from at most the 23
 *             characters before it, so "0xaa 0xbb" is refused
 *   "text"    its bytes (no escapes; an empty "" is refused here: fio 3.33
 *             aborts on an assertion)
 *   'file'    the file's bytes, read now (an empty file likewise refused)
 *   %o        verify_pattern only: 8 bytes that hold each block's offset,
 *             at most 8 of them
 *
 * At most IOS_PATTERN_MAX (fio's MAX_PATTERN_SIZE) bytes in all. One
 * difference: a 'file' longer than the room left is refused, where fio
 * silently keeps its first bytes (no input is cut short without a word).
 *
 * Only the bytes' identity matters to the simulator (verify compares the
 * writer's pattern with the reader's), so the caller gets a hash of the
 * bytes and of where the %o sit, and their count: two spellings of one
 * pattern (0x0a, 10, "\n") are the same pattern, as in fio.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "job/opt.h"

#define PAT_OFFSET_BYTES 8	/* %o: fio's io_u offset, an unsigned long long */
#define PAT_MAX_FORMATS 8	/* fio's verify_fmt[] */
#define PAT_STRNTOL_BUF 24	/* fio's strntol() buffer: longer numbers are not read */

#define PAT_ALLOWED "allowed: 0x hex bytes, a decimal int, \"text\", 'file'"

struct pat {
	struct ios_optctx *c;
	bool offsets;		/* %o allowed (verify_pattern) */
	uint8_t buf[IOS_PATTERN_MAX];
	unsigned len, nfmt;
	uint64_t fmt_at;	/* where the %o sit, folded in the hash */
};

static int pat_err(struct pat *pt, const char *at, const char *what)
{
	return ios_opt_err(pt->c, -EINVAL, "%s at '%.24s%s' (%s%s; at most %u bytes)", what, at,
			   strlen(at) > 24 ? "..." : "", PAT_ALLOWED,
			   pt->offsets ? ", %o" : "", IOS_PATTERN_MAX);
}

static int pat_full(struct pat *pt, const char *at)
{
	return ios_opt_err(pt->c, -EINVAL, "the pattern is over %u bytes at '%.24s%s' (fio's "
			   "limit)", IOS_PATTERN_MAX, at, strlen(at) > 24 ? "..." : "");
}

static int pat_nibble(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch = (char)tolower((unsigned char)ch);
	return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : 0;
}

/* 0x...: 1 and *end past the digits; 0 when @p is no hex piece (then it is decimal) */
static int pat_hex(struct pat *pt, const char *p, const char **end)
{
	const char *x = p + 1, *d, *beg;
	size_t num, bytes;

	if (p[0] != '0' || (*x != 'x' && *x != 'X'))
		return 0;
	while (*x == 'x' || *x == 'X')
		x++;
	for (d = x; isxdigit((unsigned char)*d); d++)
		;
	/* fio reads it as the number 0 and then fails on the 'x' */
	if (d == x)
		return pat_err(pt, p, "0x without hex digits");
	/* as fio counts: the digits after "0x" (extra x's among them) */
	num = (size_t)(d - p) - 2;
	beg = p + 2;
	if (beg[num] && !strncasecmp(&beg[num - 1], "0x", 2))
		num--;		/* "ff0x14": the '0' starts the next piece */
	if (!num)
		return pat_err(pt, p, "no hex digit before the next 0x");
	bytes = (num + 1) / 2;
	if (bytes > IOS_PATTERN_MAX - pt->len)
		return pat_full(pt, p);
	for (size_t i = 0, k = 0; i < bytes; i++) {
		int v;

		if (i == 0 && (num & 1))
			v = pat_nibble(beg[k++]);
		else {
			v = pat_nibble(beg[k]) << 4 | pat_nibble(beg[k + 1]);
			k += 2;
		}
		pt->buf[pt->len++] = (uint8_t)v;
	}
	*end = beg + num;
	return 1;
}

static int pat_decimal(struct pat *pt, const char *p, const char **end)
{
	const char *next = strcasestr(p, "0x"), *from = p;
	char buf[PAT_STRNTOL_BUF], *e;
	long v;
	unsigned u;

	if (next && next > p) {
		/* fio reads it from the text before that 0x, blanks skipped, if it fits */
		size_t n = (size_t)(next - p);

		while (n && *from == ' ') {
			from++;
			n--;
		}
		if (!n || n >= sizeof(buf))
			return pat_err(pt, p, "no number before the next 0x (fio reads at most 23 "
				       "characters there)");
		memcpy(buf, from, n);
		buf[n] = '\0';
		errno = 0;
		v = strtol(buf, &e, 10);
		*end = from + (e - buf);
	} else {
		errno = 0;
		v = strtol(p, &e, 10);
		*end = e;
	}
	if (*end == from || *end == p)
		return pat_err(pt, p, "not a pattern piece");
	if (errno == ERANGE || v > INT_MAX || v < INT_MIN)
		return pat_err(pt, p, "a decimal number outside -2147483648..2147483647");
	if (!v) {
		if (pt->len == IOS_PATTERN_MAX)
			return pat_full(pt, p);
		pt->buf[pt->len++] = 0;
		return 0;
	}
	for (u = (unsigned)v; u; u >>= 8) {
		if (pt->len == IOS_PATTERN_MAX)
			return pat_full(pt, p);
		pt->buf[pt->len++] = (uint8_t)(u & 0xff);
	}
	return 0;
}

static int pat_string(struct pat *pt, const char *p, const char **end)
{
	const char *close = strchr(p + 1, '"');
	size_t n;

	if (!close)
		return pat_err(pt, p, "a \"text\" without its closing quote");
	n = (size_t)(close - p - 1);
	if (!n)
		return pat_err(pt, p, "an empty \"\" (fio 3.33 aborts on it)");
	if (n > IOS_PATTERN_MAX - pt->len)
		return pat_full(pt, p);
	memcpy(pt->buf + pt->len, p + 1, n);
	pt->len += (unsigned)n;
	*end = close + 1;
	return 0;
}

static int pat_file(struct pat *pt, const char *p, const char **end)
{
	const char *close = strchr(p + 1, '\'');
	unsigned room = IOS_PATTERN_MAX - pt->len;
	char path[4096];
	size_t n, got = 0, r;
	uint8_t extra;
	FILE *f;

	if (!close)
		return pat_err(pt, p, "a 'file' without its closing quote");
	n = (size_t)(close - p - 1);
	if (!n || n >= sizeof(path))
		return pat_err(pt, p, n ? "a file name too long" : "an empty file name ''");
	if (!room)
		return pat_full(pt, p);
	memcpy(path, p + 1, n);
	path[n] = '\0';
	f = fopen(path, "rb");
	if (!f)
		return ios_opt_err(pt->c, -errno, "the pattern file '%s': %s", path,
				   strerror(errno));
	while (got < room && (r = fread(pt->buf + pt->len + got, 1, room - got, f)) > 0)
		got += r;
	r = got == room ? fread(&extra, 1, 1, f) : 0;
	if (ferror(f)) {
		fclose(f);
		return ios_opt_err(pt->c, -EIO, "the pattern file '%s': a read error", path);
	}
	fclose(f);
	if (!got)
		return ios_opt_err(pt->c, -EINVAL, "the pattern file '%s' is empty (fio 3.33 "
				   "aborts on it)", path);
	if (r)
		return ios_opt_err(pt->c, -EINVAL, "the pattern file '%s' holds more than the %u "
				   "bytes left of the pattern's %u (fio would silently use the "
				   "first %u)", path, room, IOS_PATTERN_MAX, room);
	pt->len += (unsigned)got;
	*end = close + 1;
	return 0;
}

static int pat_format(struct pat *pt, const char *p, const char **end)
{
	if (!pt->offsets)
		return pat_err(pt, p, "a '%' format (verify_pattern's only)");
	if (p[1] != 'o')
		return pat_err(pt, p, "an unknown format (only %o, the block's offset)");
	if (pt->nfmt == PAT_MAX_FORMATS)
		return ios_opt_err(pt->c, -EINVAL, "more than %d %%o in one pattern (fio's limit)",
				   PAT_MAX_FORMATS);
	if (PAT_OFFSET_BYTES > IOS_PATTERN_MAX - pt->len)
		return pat_full(pt, p);
	/* the place, not the bytes, tells one pattern from another */
	pt->fmt_at = pt->fmt_at * 1031 + pt->len + 1;
	memset(pt->buf + pt->len, 0, PAT_OFFSET_BYTES);
	pt->len += PAT_OFFSET_BYTES;
	pt->nfmt++;
	*end = p + 2;
	return 0;
}

int ios_opt_pattern(struct ios_optctx *c, bool offsets, uint64_t *hash, unsigned *len)
{
	struct pat *pt = calloc(1, sizeof(*pt));
	const char *p = c->value, *end = NULL;
	uint64_t h = 0xcbf29ce484222325ULL;
	int ret = 0;

	if (!pt)
		return IOS_ERR(c->v.e, -ENOMEM, "out of memory");
	pt->c = c;
	pt->offsets = offsets;
	if (!p || !*p)
		ret = ios_opt_err(c, -EINVAL, "an empty pattern (%s%s)", PAT_ALLOWED,
				  offsets ? ", %o" : "");
	while (!ret && *p) {
		switch (*p) {
		case '\'':
			ret = pat_file(pt, p, &end);
			break;
		case '"':
			ret = pat_string(pt, p, &end);
			break;
		case '%':
			ret = pat_format(pt, p, &end);
			break;
		default:
			ret = pat_hex(pt, p, &end);
			if (ret > 0)
				ret = 0;
			else if (!ret)
				ret = pat_decimal(pt, p, &end);
			break;
		}
		p = end;
	}
	if (!ret) {
		for (unsigned i = 0; i < pt->len; i++)
			h = (h ^ pt->buf[i]) * 0x100000001b3ULL;
		h = (h ^ pt->fmt_at) * 0x100000001b3ULL;
		*hash = h ? h : 1;
		*len = pt->len;
	}
	free(pt);
	return ret;
}
