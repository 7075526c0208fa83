/*
 * iosched validate: a DiskSim validation trace replayed against one device,
 * and DiskSim's RMS demerit between the measured and the simulated
 * access-time distributions (issue 31; the format and the arithmetic are
 * described in include/iosched/validate.h).
 *
 * The replay follows DiskSim 4.0's validate mode: the first request arrives
 * at time 0 (disksim_setup_disksim reads it at simtime 0); when a request
 * completes, the iodriver (iodriver_access_complete, src/disksim_iodriver.c)
 * reads the next line and schedules it at simtime + the previous line's
 * NEXTINTER / 1000 ms (iotrace_validate_get_ioreq_event). So one request is
 * outstanding at a time and the device sees it the moment it arrives: no
 * scheduler, no block layer, no merging. The simulated access time is the
 * device's completion minus the arrival, as DiskSim's "IOdriver Physical
 * access time" is with one request outstanding; DiskSim's bus and
 * controller overheads are whatever the device model puts in its own time.
 *
 * The distribution and the RMS are DiskSim's stat_update /
 * stat_print_large_dist (src/disksim_stat.c) and rms's get_line and
 * compute_rms (src/rms.c) redone here, including the text round trip rms
 * makes: the cumulative fraction printed with "%f" (six decimals) and read
 * back, the quantile stepped by adding 0.0001 in a double (10000 steps).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "iosched/validate.h"

/* statdefs: "Trace access time" and "Physical access time" */
#define VD_BUCKETS 1750
#define VD_SCALE 1000
#define VD_GROW_PCT 1
#define VD_RMS_INCR 0.0001

static void vd_starts(int64_t *s)
{
	int64_t b = 0;

	for (int i = 0; i < VD_BUCKETS; i++) {
		s[i] = b;
		b += 1 + (int64_t)((double)(llabs(b) * VD_GROW_PCT) / 100.0);
	}
}

/* stat_update's bucket for @ms: bucket i >= 1 holds [start[i-1], start[i]) in us. */
static int vd_bucket(const int64_t *s, double ms)
{
	double scaled = ms * (double)VD_SCALE;
	int64_t v;
	int lo = 0, hi = VD_BUCKETS - 2;

	if (!(scaled >= 0))
		return 0;
	v = scaled >= 9e18 ? INT64_MAX : (int64_t)scaled;
	if (v >= s[VD_BUCKETS - 2])
		return VD_BUCKETS - 1;
	while (lo != hi) {		/* the first i with v < s[i + 1] */
		int mid = lo + (hi - lo) / 2;

		if (v < s[mid + 1])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo + 1;
}

int ios_validate_curve_make(const double *ms, size_t n, struct ios_validate_curve *c)
{
	int64_t *s = malloc(VD_BUCKETS * sizeof(*s));
	uint64_t *cnt = calloc(VD_BUCKETS, sizeof(*cnt));
	double dist = 0;
	int ret = -ENOMEM;

	memset(c, 0, sizeof(*c));
	if (!s || !cnt)
		goto out;
	ret = -EINVAL;
	if (!n)
		goto out;
	vd_starts(s);
	for (size_t i = 0; i < n; i++)
		cnt[vd_bucket(s, ms[i])]++;
	c->x = malloc(VD_BUCKETS * sizeof(double));
	c->y = malloc(VD_BUCKETS * sizeof(double));
	ret = -ENOMEM;
	if (!c->x || !c->y)
		goto out;
	for (int i = 0; i < VD_BUCKETS; i++) {
		char buf[64];

		dist += (double)cnt[i] / (double)n;
		snprintf(buf, sizeof(buf), "%f", dist);
		c->x[c->n] = (double)s[i] / (double)VD_SCALE;
		c->y[c->n] = strtod(buf, NULL);
		if (c->y[c->n++] >= 1.0)
			break;
	}
	/* the sum always prints as 1.000000 by the last bucket; be safe anyway */
	c->y[c->n - 1] = c->y[c->n - 1] < 1.0 ? 1.0 : c->y[c->n - 1];
	ret = 0;
out:
	if (ret)
		ios_validate_curve_free(c);
	free(s);
	free(cnt);
	return ret;
}

void ios_validate_curve_free(struct ios_validate_curve *c)
{
	free(c->x);
	free(c->y);
	memset(c, 0, sizeof(*c));
}

static int vd_curve_ok(const struct ios_validate_curve *c)
{
	if (!c || c->n < 2 || c->y[0] != 0 || c->y[c->n - 1] < 1.0)
		return 0;
	for (size_t i = 1; i < c->n; i++)
		if (!(c->y[i] >= c->y[i - 1]) || !(c->x[i] >= c->x[i - 1]))
			return 0;
	return 1;
}

/* x at quantile @p: the first point with y >= p and the one before, interpolated */
static double vd_at(const struct ios_validate_curve *c, size_t *i, double p)
{
	double f;

	while (*i < c->n - 1 && c->y[*i] < p)
		(*i)++;
	if (*i == 0)
		*i = 1;
	f = (p - c->y[*i - 1]) / (c->y[*i] - c->y[*i - 1]);
	return c->x[*i - 1] + f * (c->x[*i] - c->x[*i - 1]);
}

double ios_validate_rms(const struct ios_validate_curve *a, const struct ios_validate_curve *b)
{
	size_t ia = 0, ib = 0;
	double sq = 0;
	int count = 0;

	if (!vd_curve_ok(a) || !vd_curve_ok(b))
		return NAN;
	for (double p = VD_RMS_INCR; p <= 1.0; p += VD_RMS_INCR) {
		double d = vd_at(a, &ia, p) - vd_at(b, &ib, p);

		sq += d * d;
		count++;
	}
	return sqrt(sq / (double)count);
}

static int vd_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least @pct % of the values at or below it. */
static double vd_pct(const double *sorted, size_t n, double pct)
{
	size_t k = (size_t)ceil(pct / 100.0 * (double)n);

	return sorted[k ? k - 1 : 0];
}

static int vd_side(const double *ms, size_t n, struct ios_validate_side *s)
{
	double *v = malloc(n * sizeof(*v));
	double sum = 0;

	if (!v)
		return -ENOMEM;
	memcpy(v, ms, n * sizeof(*v));
	qsort(v, n, sizeof(*v), vd_cmp);
	for (size_t i = 0; i < n; i++)
		sum += ms[i];
	s->mean_ms = sum / (double)n;
	s->p10_ms = vd_pct(v, n, 10);
	s->p50_ms = vd_pct(v, n, 50);
	s->p90_ms = vd_pct(v, n, 90);
	s->p99_ms = vd_pct(v, n, 99);
	s->max_ms = v[n - 1];
	free(v);
	return ios_validate_curve_make(ms, n, &s->curve);
}

/* Let the device do what it has to until @until (internal work such as destaging). */
static int vd_advance(struct ios_dev *dev, uint64_t until, struct ios_err *e)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	uint64_t t;

	while ((t = o->next_event(dev)) != IOS_NO_WAKEUP && t <= until)
		if (o->complete(dev, t))
			return IOS_ERR(e, -EPROTO, "device %s completed a request it was not given",
				       dev->profile);
	return 0;
}

int ios_validate_run(const struct ios_dstrace *t, struct ios_dev *dev, const char *devname,
		     struct ios_validate_result *r, struct ios_err *e)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_request rq;
	uint64_t arrive = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(r->trace, sizeof(r->trace), "%s", t->name);
	snprintf(r->device, sizeof(r->device), "%s", devname ? devname : dev->profile);
	r->n = t->n;
	r->reads = t->reads;
	r->writes = t->writes;
	for (size_t i = 0; i < t->n; i++) {
		const struct ios_dstrace_rec *x = &t->v[i];

		if (x->blkno + x->bcount > dev->nr_sectors)
			return IOS_ERR(e, -EINVAL, "%s:%u: blocks %llu..%llu past the end of device "
				       "%s (%llu blocks of 512 bytes)", t->name, x->line,
				       (unsigned long long)x->blkno,
				       (unsigned long long)(x->blkno + x->bcount - 1), r->device,
				       (unsigned long long)dev->nr_sectors);
	}
	r->measured_ms = malloc(t->n * sizeof(double));
	r->simulated_ms = malloc(t->n * sizeof(double));
	if (!r->measured_ms || !r->simulated_ms) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ios_dstrace_rec *x = &t->v[i];
		struct ios_request *done = NULL;
		uint64_t delta;

		ret = vd_advance(dev, arrive, e);
		if (ret)
			goto fail;
		memset(&rq, 0, sizeof(rq));
		ios_list_init(&rq.dev_node);
		rq.id = i;
		rq.sector = x->blkno;
		rq.nr_sectors = x->bcount;
		rq.dir = x->dir;
		rq.flags = x->dir == IOS_READ ? IOS_REQ_SYNC : 0;
		rq.alloc_ns = rq.insert_ns = rq.dispatch_ns = arrive;
		ret = o->submit(dev, &rq, arrive);
		if (ret) {
			IOS_ERR(e, ret, "%s:%u: device %s refused the request (%s)", t->name, x->line,
				r->device, strerror(-ret));
			goto fail;
		}
		while (!done) {
			uint64_t now = o->next_event(dev);

			if (now == IOS_NO_WAKEUP) {
				ret = IOS_ERR(e, -EPROTO, "%s:%u: device %s stalled with the request "
					      "outstanding", t->name, x->line, r->device);
				goto fail;
			}
			done = o->complete(dev, now < arrive ? arrive : now);
			if (done && done != &rq) {
				ret = IOS_ERR(e, -EPROTO, "device %s completed a request it was not "
					      "given", r->device);
				goto fail;
			}
			if (done)
				rq.complete_ns = now < arrive ? arrive : now;
		}
		/* DiskSim: validate_lastserv = servtime / 1000 (ms) */
		r->measured_ms[i] = x->serv_us / 1000.0;
		r->simulated_ms[i] = (double)(rq.complete_ns - arrive) / 1e6;
		delta = (uint64_t)llround(x->next_us * 1000.0);
		if (rq.complete_ns > UINT64_MAX / 2 - delta) {
			ret = IOS_ERR(e, -ERANGE, "%s:%u: the replay's clock passed 2^63 ns",
				      t->name, x->line);
			goto fail;
		}
		arrive = rq.complete_ns + delta;
	}
	ret = vd_side(r->measured_ms, r->n, &r->meas);
	if (!ret)
		ret = vd_side(r->simulated_ms, r->n, &r->sim);
	if (ret) {
		IOS_ERR(e, ret, "out of memory");
		goto fail;
	}
	r->rms_ms = ios_validate_rms(&r->meas.curve, &r->sim.curve);
	return 0;
fail:
	ios_validate_result_free(r);
	return ret;
}

void ios_validate_result_free(struct ios_validate_result *r)
{
	free(r->measured_ms);
	free(r->simulated_ms);
	ios_validate_curve_free(&r->meas.curve);
	ios_validate_curve_free(&r->sim.curve);
	r->measured_ms = r->simulated_ms = NULL;
}
