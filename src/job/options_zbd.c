/*
 * Setters for zonemode=zbd's two fractions, zone_reset_threshold and
 * zone_reset_frequency: fio's FLOAT_LIST options of one value between 0 and
 * 1 (options.c: minfp 0, maxfp 1). The rest of the zbd options are plain
 * rows of job/options.c; what they do is run/zbd.c.
 */
#include <math.h>
#include <stdlib.h>
#include "job/opt.h"

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
