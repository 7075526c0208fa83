/*
 * Setters for zonemode=zbd's two fractions, zone_reset_threshold and
 * zone_reset_frequency: fio's FLOAT_LIST options of one value between 0 and
 * 1 (options.c: minfp 0, maxfp 1); fio's zone units, "size=4z" (its
 * FIO_OPT_STR_VAL_ZONE options: size, io_size, offset, offset_increment,
 * zoneskip), and the checks of zonesize that need the whole job. The rest
 * of the zbd options are plain rows of job/options.c; what they do is
 * run/zbd.c.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "job/opt.h"

/* The zone count that stands for the row at @off, or NULL. */
static uint32_t *zu_field(struct ios_job *job, size_t off)
{
	if (off == offsetof(struct ios_job, size))
		return &job->size_nz;
	if (off == offsetof(struct ios_job, io_size))
		return &job->io_size_nz;
	if (off == offsetof(struct ios_job, offset))
		return &job->offset_nz;
	if (off == offsetof(struct ios_job, offset_increment))
		return &job->offset_increment_nz;
	if (off == offsetof(struct ios_job, zone_skip))
		return &job->zone_skip_nz;
	return NULL;
}

bool ios_opt_zone_units_given(const struct ios_optctx *c)
{
	size_t n = c->value ? strlen(c->value) : 0;

	while (n && isspace((unsigned char)c->value[n - 1]))
		n--;
	/* fio: a lowercase z only ("4Z" is 4 bytes there; value.c refuses it) */
	return n && c->value[n - 1] == 'z';
}

int ios_opt_zone_units_set(struct ios_job *job, struct ios_optctx *c)
{
	const struct ios_opt *o = c->o;
	uint32_t *nz = zu_field(job, o->off);
	const char *p = c->value;
	uint64_t v = 0;

	if (!nz)
		return ios_opt_err(c, -EINVAL, "zone units ('z') are not taken here");
	if (!isdigit((unsigned char)*p))
		goto bad;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return ios_opt_err(c, -ERANGE, "%s is out of range, allowed %" PRId64
					   "z..%" PRIu32 "z (fio keeps the count in 32 bits)",
					   c->value, o->min, UINT32_MAX);
	}
	if (*p++ != 'z')
		goto bad;
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		goto bad;
	if (v < (uint64_t)o->min)
		return ios_opt_err(c, -ERANGE, "out of range, allowed %" PRId64 "z or more", o->min);
	*(uint64_t *)((char *)job + o->off) = 0;
	if (o->flags & IOS_OPTF_PCT)
		*(unsigned *)((char *)job + o->off2) = 0;
	*nz = (uint32_t)v;
	if (!job->zone_units_src.file && !c->is_default) {
		job->zone_units_src.file = c->file;
		job->zone_units_src.line = c->line;
		snprintf(job->zone_units_src.text, sizeof(job->zone_units_src.text), "%s=%s",
			 c->key, c->value);
	}
	return 0;
bad:
	return ios_opt_err(c, -EINVAL, "unexpected zone value '%s' (as fio 3.33 says): allowed a "
			   "whole number of zones followed by z, such as 4z", c->value);
}

void ios_opt_zone_units_clear(struct ios_job *job, const struct ios_optctx *c)
{
	uint32_t *nz = zu_field(job, c->o->off);

	if (nz)
		*nz = 0;
}

/* "file:line: job 'name': opt=value" for an option recorded in @src */
static const char *zu_where(const struct ios_job *job, const struct ios_optsrc *src, char *buf,
			    size_t len)
{
	if (src->file)
		snprintf(buf, len, "%s:%d: job '%s': %s", src->file, src->line, job->name,
			 src->text);
	else
		snprintf(buf, len, "%s:%d: job '%s'", job->file ? job->file : "?", job->line,
			 job->name);
	return buf;
}

/* fio's zbd_recalc_options_with_zone_granularity, done when the job has been read. */
static int zu_resolve(struct ios_job *job, struct ios_err *e)
{
	struct { uint32_t *nz; uint64_t *bytes; const char *name; } f[] = {
		{ &job->size_nz, &job->size, "size" },
		{ &job->io_size_nz, &job->io_size, "io_size" },
		{ &job->offset_nz, &job->offset, "offset" },
		{ &job->offset_increment_nz, &job->offset_increment, "offset_increment" },
		{ &job->zone_skip_nz, &job->zone_skip, "zoneskip" },
	};
	uint64_t zs = job->zone_size;
	bool any = false;
	char w[300];

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		any |= *f[i].nz != 0;
	if (!any)
		return 0;
	zu_where(job, &job->zone_units_src, w, sizeof(w));
	if (job->zone_mode == IOS_ZONE_NONE)
		return IOS_ERR(e, -EINVAL, "%s: zone units need a zone size: zonemode=zbd or "
			       "zonemode=strided with zonesize= (fio 3.33 ignores them without one "
			       "and uses the whole file)", w);
	if (!zs)
		return IOS_ERR(e, -ENOTSUP, "%s: zonemode=zbd without zonesize= takes the zone "
			       "size from the zoned device, which iosched does not know when it reads "
			       "the job file, where zone units are made bytes; add zonesize= equal to "
			       "the device's zone size (device.zone_size, 'iosched list')", w);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (!*f[i].nz)
			continue;
		if (*f[i].nz > UINT64_MAX / zs)
			return IOS_ERR(e, -ERANGE, "%s: %s=%" PRIu32 "z of zonesize=%" PRIu64 " bytes "
				       "is out of range, allowed %" PRIu64 "z at most", w, f[i].name,
				       *f[i].nz, zs, UINT64_MAX / zs);
		*f[i].bytes = *f[i].nz * zs;
		*f[i].nz = 0;
	}
	return 0;
}

int ios_job_zbd_finish(struct ios_job *job, struct ios_err *e)
{
	char w[300];

	/*
	 * A zone holds whole sectors: fio 3.33 takes zonesize=1000 on a regular
	 * file and then starts zones off sector boundaries (and, with bs=4k,
	 * fails the first write with err=22, "I/O buflen exceeds zone size")
	 */
	if (job->zone_mode == IOS_ZONE_ZBD && job->zone_size &&
	    (job->zone_size < 512 || job->zone_size % 512))
		return IOS_ERR(e, -EINVAL, "%s: not whole 512-byte sectors; with zonemode=zbd "
			       "allowed a multiple of 512 bytes, 512 or more (fio 3.33: \"zone size "
			       "must be at least 512 bytes\")",
			       zu_where(job, &job->zone_size_src, w, sizeof(w)));
	if (job->zone_mode == IOS_ZONE_ZBD && job->zone_capacity % 512)
		return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': zonecapacity=%" PRIu64 " is not a whole "
			       "number of 512-byte sectors: allowed a multiple of 512 bytes up to "
			       "zonesize", job->file ? job->file : "?", job->line, job->name,
			       job->zone_capacity);
	return zu_resolve(job, e);
}

static int zbd_fraction(struct ios_optctx *c, double *out)
{
	char *end;
	double v;

	if (!c->value || !*c->value)
		return ios_opt_err(c, -EINVAL, "a number between 0 and 1 is needed");
	v = strtod(c->value, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == c->value || *end)
		return ios_opt_err(c, -EINVAL, "'%s' is not a number, allowed 0..1", c->value);
	if (!isfinite(v) || v < 0.0 || v > 1.0)
		return ios_opt_err(c, -ERANGE, "%s out of range, allowed 0..1", c->value);
	*out = v;
	return 0;
}

int ios_opt_zbd_reset_threshold(struct ios_job *job, struct ios_optctx *c)
{
	return zbd_fraction(c, &job->zone_reset_threshold);
}

int ios_opt_zbd_reset_frequency(struct ios_job *job, struct ios_optctx *c)
{
	return zbd_fraction(c, &job->zone_reset_frequency);
}
