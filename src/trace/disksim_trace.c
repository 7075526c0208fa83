/*
 * The reader of DiskSim 4.0's "validate" traces (issue 31).
 *
 * DiskSim reads one line at a time with fgets(line, 200) and sscanf("%c %s
 * %d %d %lf %lf") in iotrace_validate_get_ioreq_event (src/disksim_iotrace.c,
 * DiskSim 4.0), and stops at the first line that does not scan. We read the
 * same six fields but refuse what DiskSim would misread, naming file and
 * line: a direction other than R or W, a buffer action other than the four
 * DiskSim's io_validate_do_stats2 counts (Hit, Miss, Doub, Trip), a block
 * number or count that is not a plain non-negative integer, a time that is
 * negative, not a number or not finite, a line with fewer or more fields,
 * a line longer than DiskSim's 200 characters, and an empty trace. The
 * measured times are kept in microseconds as written.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/request.h"
#include "iosched/validate.h"

#define DST_FIELDS 6

static int dst_add(struct ios_dstrace *t, const struct ios_dstrace_rec *r)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct ios_dstrace_rec *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = *r;
	return 0;
}

static int dst_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* A decimal number: 0, -1 malformed, -2 negative, -3 too large. */
static int dst_time(const char *s, double *out)
{
	const char *p = s;
	char *end;
	double v;

	if (*p == '-' || *p == '+')
		p++;
	if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
		return -1;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return -1;
	v = strtod(s, &end);
	if (*end || !isfinite(v))
		return -1;
	if (v < 0)
		return -2;
	if (v > IOS_DSTRACE_MAX_US)
		return -3;
	*out = v == 0 ? 0.0 : v;	/* no -0 */
	return 0;
}

static const char *const dst_field_names[DST_FIELDS] = {
	"direction (R or W)", "buffer action (Hit, Miss, Doub or Trip)", "block number",
	"block count", "service time (us)", "next inter-arrival time (us)",
};

/* One line (NUL-terminated, no newline) into @r; 0 or -EINVAL with @e. */
static int dst_line(const char *name, uint32_t lineno, char *s, struct ios_dstrace_rec *r,
		    struct ios_err *e)
{
	char *f[DST_FIELDS + 1];
	int nf = 0;
	uint64_t u;
	int ret;

	for (char *p = s; *p;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			*p++ = '\0';
		if (!*p)
			break;
		if (nf == DST_FIELDS + 1)
			break;
		f[nf++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
	}
	if (nf == 0)
		return IOS_ERR(e, -EINVAL, "%s:%u: empty line (a validate trace has one request "
			       "per line: R|W ACTION BLKNO BCOUNT SERVTIME_US NEXTINTER_US)", name,
			       lineno);
	if (nf < DST_FIELDS)
		return IOS_ERR(e, -EINVAL, "%s:%u: truncated line: %d of 6 fields, the %s is "
			       "missing", name, lineno, nf, dst_field_names[nf]);
	if (nf > DST_FIELDS)
		return IOS_ERR(e, -EINVAL, "%s:%u: more than 6 fields ('%s' after the %s)", name,
			       lineno, f[DST_FIELDS], dst_field_names[DST_FIELDS - 1]);
	memset(r, 0, sizeof(*r));
	r->line = lineno;
	if (!strcmp(f[0], "R"))
		r->dir = IOS_READ;
	else if (!strcmp(f[0], "W"))
		r->dir = IOS_WRITE;
	else
		return IOS_ERR(e, -EINVAL, "%s:%u: field 1, %s: '%s'", name, lineno,
			       dst_field_names[0], f[0]);
	if (strcmp(f[1], "Hit") && strcmp(f[1], "Miss") && strcmp(f[1], "Doub") &&
	    strcmp(f[1], "Trip"))
		return IOS_ERR(e, -EINVAL, "%s:%u: field 2, %s: '%s'", name, lineno,
			       dst_field_names[1], f[1]);
	if (dst_u64(f[2], &r->blkno) || r->blkno > (UINT64_MAX >> 10))
		return IOS_ERR(e, -EINVAL, "%s:%u: field 3, %s: '%s' is not a non-negative "
			       "integer", name, lineno, dst_field_names[2], f[2]);
	if (dst_u64(f[3], &u) || u < 1 || u > IOS_DSTRACE_MAX_BCOUNT)
		return IOS_ERR(e, -EINVAL, "%s:%u: field 4, %s: '%s' (allowed 1..%u blocks)", name,
			       lineno, dst_field_names[3], f[3], IOS_DSTRACE_MAX_BCOUNT);
	r->bcount = (uint32_t)u;
	for (int i = 4; i < DST_FIELDS; i++) {
		double *d = i == 4 ? &r->serv_us : &r->next_us;

		ret = dst_time(f[i], d);
		if (ret == -2)
			return IOS_ERR(e, -EINVAL, "%s:%u: field %d, %s: negative time %s", name,
				       lineno, i + 1, dst_field_names[i], f[i]);
		if (ret == -3)
			return IOS_ERR(e, -EINVAL, "%s:%u: field %d, %s: %s (allowed 0..%.0f us)",
				       name, lineno, i + 1, dst_field_names[i], f[i], IOS_DSTRACE_MAX_US);
		if (ret)
			return IOS_ERR(e, -EINVAL, "%s:%u: field %d, %s: '%s' is not a finite "
				       "decimal number", name, lineno, i + 1, dst_field_names[i],
				       f[i]);
	}
	return 0;
}

int ios_dstrace_parse(const char *name, const char *data, size_t len, struct ios_dstrace **out,
		      struct ios_err *e)
{
	struct ios_dstrace *t = calloc(1, sizeof(*t));
	char line[IOS_DSTRACE_MAX_LINE + 1];
	uint32_t lineno = 0;
	size_t pos = 0;
	int ret = 0;

	*out = NULL;
	if (!t || !(t->name = strdup(name ? name : "trace"))) {
		free(t);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	while (pos < len) {
		const char *nl = memchr(data + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (data + pos)) : len - pos;
		struct ios_dstrace_rec r;

		lineno++;
		if (lineno == UINT32_MAX) {
			ret = IOS_ERR(e, -EINVAL, "%s: more than %u lines", t->name, UINT32_MAX - 1);
			goto fail;
		}
		if (l > IOS_DSTRACE_MAX_LINE) {
			ret = IOS_ERR(e, -EINVAL, "%s:%u: line longer than %d characters (DiskSim's "
				      "limit)", t->name, lineno, IOS_DSTRACE_MAX_LINE);
			goto fail;
		}
		if (memchr(data + pos, '\0', l)) {
			ret = IOS_ERR(e, -EINVAL, "%s:%u: a NUL byte in the line", t->name, lineno);
			goto fail;
		}
		memcpy(line, data + pos, l);
		line[l] = '\0';
		ret = dst_line(t->name, lineno, line, &r, e);
		if (ret)
			goto fail;
		if (dst_add(t, &r)) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto fail;
		}
		if (r.dir == IOS_READ)
			t->reads++;
		else
			t->writes++;
		pos += l + (nl ? 1 : 0);
	}
	if (!t->n) {
		ret = IOS_ERR(e, -EINVAL, "%s: no requests (an empty validate trace)", t->name);
		goto fail;
	}
	*out = t;
	return 0;
fail:
	ios_dstrace_free(t);
	return ret;
}

int ios_dstrace_read(const char *path, struct ios_dstrace **out, struct ios_err *e)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t len = 0, cap = 0;
	int ret;

	*out = NULL;
	if (!f)
		return IOS_ERR(e, -errno, "%s: %s", path, strerror(errno));
	for (;;) {
		size_t got;

		if (cap - len < 65536) {
			char *d = realloc(data, cap ? cap * 2 : 1 << 20);

			if (!d) {
				ret = IOS_ERR(e, -ENOMEM, "out of memory reading %s", path);
				goto out;
			}
			data = d;
			cap = cap ? cap * 2 : 1 << 20;
		}
		got = fread(data + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		ret = IOS_ERR(e, -EIO, "%s: read error", path);
		goto out;
	}
	ret = ios_dstrace_parse(path, data, len, out, e);
out:
	free(data);
	fclose(f);
	return ret;
}

void ios_dstrace_free(struct ios_dstrace *t)
{
	if (!t)
		return;
	free(t->name);
	free(t->v);
	free(t);
}
