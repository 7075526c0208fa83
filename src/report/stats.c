/*
 * Statistics behind the fio-style reports.
 *
 * Latencies are summarised twice, the way fio 3.33 does it. A running
 * Welford update keeps n, min, max, mean and the sum of squared deviations
 * (m2), so mean and standard deviation cost O(1) per I/O and never
 * overflow. Optionally, a log-linear histogram keeps the shape for
 * percentiles: values below 128 ns get a bucket each; above that, a value
 * whose most significant bit is b falls in group b - 5, which is split into
 * 64 equal buckets, so a bucket is never wider than 1/64 of its values
 * (1/128 error when reporting the bucket midpoint). 29 groups of 64 give
 * 1856 buckets and cover up to 2^34 ns (~17 s) exactly; anything longer
 * lands in the last bucket. Because the bucketing is fio's, percentiles
 * computed here are the numbers fio would print for the same latencies.
 *
 * Group reporting (ios_run_result_group) follows fio's sum_thread_stats():
 * latency statistics of the members are combined with the parallel form of
 * Welford's update (Chan et al.), histograms and counters add up, the
 * per-direction runtime of the group is its slowest member's, and bw/iops
 * sample statistics are *summed* (min+min, mean+mean, ...), because the
 * bandwidth of a group is the sum of its members' bandwidths.
 *
 * The file also holds the small formatting helpers both writers share:
 * fio's num2str (4 significant digits with carry rounding, "993MiB/s",
 * "254k"), a ctime()-like date that is always UTC so reports are the same
 * on every machine, and the growable output buffer.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/stats.h"
#include "iosched/plot.h"
#include "report/report_int.h"

const double ios_default_percentiles[] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0,
	99.0, 99.5, 99.9, 99.95, 99.99,
};
const unsigned ios_nr_default_percentiles = IOS_ARRAY_SIZE(ios_default_percentiles);

/* ---- latency statistics ---- */

void ios_lat_init(struct ios_lat_stat *s)
{
	memset(s, 0, sizeof(*s));
}

int ios_lat_enable_hist(struct ios_lat_stat *s)
{
	s->hist = true;
	return 0;
}

#define FEW_MASK ((1ull << IOS_PLAT_FEW_SHIFT) - 1)

static unsigned few_bucket(uint64_t e)
{
	return (unsigned)(e >> IOS_PLAT_FEW_SHIFT);
}

/* The list's first entry at or after bucket @idx. */
static unsigned few_find(const struct ios_plat *p, unsigned idx)
{
	unsigned lo = 0, hi = p->nr;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (few_bucket(p->few[mid]) < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void groups_free(uint64_t **grp)
{
	if (!grp)
		return;
	for (unsigned g = 0; g < IOS_PLAT_GROUP_NR; g++)
		free(grp[g]);
	free(grp);
}

static struct ios_plat *plat_new(unsigned cap)
{
	struct ios_plat *p = malloc(sizeof(*p) + cap * sizeof(uint64_t));

	if (p) {
		p->grp = NULL;
		p->nr = 0;
		p->cap = cap;
	}
	return p;
}

/* The list becomes the table of groups: 0 or -ENOMEM (the list kept). */
static int plat_make_groups(struct ios_lat_stat *s)
{
	struct ios_plat *p = s->plat, *q;
	uint64_t **grp = calloc(IOS_PLAT_GROUP_NR, sizeof(*grp));

	if (!grp)
		return -ENOMEM;
	for (unsigned k = 0; k < p->nr; k++) {
		unsigned idx = few_bucket(p->few[k]), g = idx >> IOS_PLAT_BITS;

		if (!grp[g] && !(grp[g] = calloc(IOS_PLAT_VAL, sizeof(uint64_t)))) {
			groups_free(grp);
			return -ENOMEM;
		}
		grp[g][idx & (IOS_PLAT_VAL - 1)] = p->few[k] & FEW_MASK;
	}
	p->grp = grp;
	p->nr = 0;
	/* the list's room is not needed any more */
	if ((q = realloc(p, sizeof(*p)))) {
		q->cap = 0;
		s->plat = q;
	}
	return 0;
}

/* The group holding bucket @idx of a table, allocated on first use. */
static uint64_t *plat_group(struct ios_plat *p, unsigned idx)
{
	unsigned g = idx >> IOS_PLAT_BITS;

	if (!p->grp[g])
		p->grp[g] = calloc(IOS_PLAT_VAL, sizeof(uint64_t));
	return p->grp[g];
}

/* Add @count to bucket @idx (< IOS_PLAT_NR), making room: 0 or -ENOMEM. */
static int plat_add(struct ios_lat_stat *s, unsigned idx, uint64_t count)
{
	struct ios_plat *p = s->plat;
	uint64_t *grp;

	if (!p && !(p = s->plat = plat_new(4)))
		return -ENOMEM;
	if (!p->grp) {
		unsigned k = few_find(p, idx);

		if (k < p->nr && few_bucket(p->few[k]) == idx) {
			if (count <= FEW_MASK - (p->few[k] & FEW_MASK)) {
				p->few[k] += count;
				return 0;
			}
		} else if (!count) {
			return 0;	/* nothing to list */
		} else if (p->nr < IOS_PLAT_FEW && count <= FEW_MASK) {
			if (p->nr == p->cap) {
				unsigned cap = 2 * p->cap;
				struct ios_plat *q = realloc(p, sizeof(*p) + cap * sizeof(uint64_t));

				if (!q)
					return -ENOMEM;
				s->plat = p = q;
				p->cap = cap;
			}
			memmove(&p->few[k + 1], &p->few[k], (p->nr - k) * sizeof(uint64_t));
			p->few[k] = (uint64_t)idx << IOS_PLAT_FEW_SHIFT | count;
			p->nr++;
			return 0;
		}
		if (plat_make_groups(s))
			return -ENOMEM;
		p = s->plat;
	}
	grp = plat_group(p, idx);
	if (!grp)
		return -ENOMEM;
	grp[idx & (IOS_PLAT_VAL - 1)] += count;
	return 0;
}

uint64_t ios_lat_bucket(const struct ios_lat_stat *s, unsigned idx)
{
	const struct ios_plat *p = s->plat;
	const uint64_t *grp;
	unsigned k;

	if (!p || idx >= IOS_PLAT_NR)
		return 0;
	if (!p->grp) {
		k = few_find(p, idx);
		return k < p->nr && few_bucket(p->few[k]) == idx ? p->few[k] & FEW_MASK : 0;
	}
	grp = p->grp[idx >> IOS_PLAT_BITS];
	return grp ? grp[idx & (IOS_PLAT_VAL - 1)] : 0;
}

int ios_lat_add_bucket(struct ios_lat_stat *s, unsigned idx, uint64_t count)
{
	if (idx >= IOS_PLAT_NR)
		idx = IOS_PLAT_NR - 1;
	s->hist = true;
	return plat_add(s, idx, count);
}

unsigned ios_lat_next_bucket(const struct ios_lat_stat *s, unsigned idx)
{
	const struct ios_plat *p = s->plat;

	if (!p)
		return IOS_PLAT_NR;
	if (!p->grp) {
		unsigned k = idx < IOS_PLAT_NR ? few_find(p, idx) : p->nr;

		return k < p->nr ? few_bucket(p->few[k]) : IOS_PLAT_NR;
	}
	while (idx < IOS_PLAT_NR) {
		const uint64_t *grp = p->grp[idx >> IOS_PLAT_BITS];

		if (!grp) {	/* skip the whole group */
			idx = (idx | (IOS_PLAT_VAL - 1)) + 1;
			continue;
		}
		if (grp[idx & (IOS_PLAT_VAL - 1)])
			return idx;
		idx++;
	}
	return IOS_PLAT_NR;
}

unsigned ios_plat_val_to_idx(uint64_t val)
{
	unsigned msb, err_bits, idx;

	/* below 2 * 64 every value has its own bucket */
	if (val < 2 * IOS_PLAT_VAL)
		return (unsigned)val;
	msb = 63 - (unsigned)__builtin_clzll(val);
	err_bits = msb - IOS_PLAT_BITS;
	idx = ((err_bits + 1) << IOS_PLAT_BITS) +
	      (unsigned)((val >> err_bits) & (IOS_PLAT_VAL - 1));
	return idx < IOS_PLAT_NR - 1 ? idx : IOS_PLAT_NR - 1;
}

uint64_t ios_plat_idx_to_val(unsigned idx)
{
	unsigned err_bits;
	uint64_t group_base, k;

	if (idx >= IOS_PLAT_NR)
		idx = IOS_PLAT_NR - 1;
	if (idx < 2 * IOS_PLAT_VAL)
		return idx;
	err_bits = (idx >> IOS_PLAT_BITS) - 1;
	group_base = 1ull << (err_bits + IOS_PLAT_BITS);
	k = idx & (IOS_PLAT_VAL - 1);
	/* the midpoint of [base + k * w, base + (k + 1) * w), w = 2^err_bits */
	return group_base + (k << err_bits) + (1ull << (err_bits - 1));
}

void ios_lat_add(struct ios_lat_stat *s, uint64_t ns)
{
	double v = (double)ns, delta;

	if (!s->n || ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	delta = v - s->mean;
	if (delta != 0.0) {
		s->mean += delta / ((double)s->n + 1.0);
		s->m2 += delta * (v - s->mean);
	}
	s->n++;
	if (s->hist && plat_add(s, ios_plat_val_to_idx(ns), 1))
		s->hist_lost = true;
}

/* Parallel Welford combination, in fio's arithmetic (__sum_stat). */
static void st_combine(uint64_t *dn, double *dmean, double *dm2, uint64_t sn, double smean,
		       double sm2)
{
	double delta = smean - *dmean;
	uint64_t total = *dn + sn;

	*dmean = (smean * (double)sn + *dmean * (double)*dn) / (double)total;
	*dm2 = sm2 + *dm2 + delta * delta * (double)(*dn * sn) / (double)total;
	*dn = total;
}

int ios_lat_reserve(struct ios_lat_stat *dst, const struct ios_lat_stat *src)
{
	if (!dst->hist || !src->plat)
		return 0;
	/* a merge's target is a table, with every group the merge adds to */
	if (!dst->plat && !(dst->plat = plat_new(0)))
		return -ENOMEM;
	if (!dst->plat->grp && plat_make_groups(dst))
		return -ENOMEM;
	for (unsigned i = ios_lat_next_bucket(src, 0); i < IOS_PLAT_NR;
	     i = ios_lat_next_bucket(src, (i | (IOS_PLAT_VAL - 1)) + 1))
		if (!plat_group(dst->plat, i))
			return -ENOMEM;
	return 0;
}

int ios_lat_merge(struct ios_lat_stat *dst, const struct ios_lat_stat *src)
{
	if (!src->n)
		return 0;
	if (dst->hist && src->hist && ios_lat_reserve(dst, src))
		return -ENOMEM;
	if (!dst->n) {
		dst->min = src->min;
		dst->max = src->max;
		dst->mean = src->mean;
		dst->m2 = src->m2;
		dst->n = src->n;
	} else {
		if (src->min < dst->min)
			dst->min = src->min;
		if (src->max > dst->max)
			dst->max = src->max;
		st_combine(&dst->n, &dst->mean, &dst->m2, src->n, src->mean, src->m2);
	}
	dst->hist_lost |= src->hist_lost;
	if (dst->hist && src->hist && src->plat)
		/* reserved above: a table with the groups, so no add fails */
		for (unsigned i = ios_lat_next_bucket(src, 0); i < IOS_PLAT_NR;
		     i = ios_lat_next_bucket(src, i + 1))
			(void)plat_add(dst, i, ios_lat_bucket(src, i));
	return 0;
}

static void plat_free(struct ios_plat *p)
{
	if (!p)
		return;
	groups_free(p->grp);
	free(p);
}

void ios_lat_reset(struct ios_lat_stat *s)
{
	bool hist = s->hist;

	plat_free(s->plat);
	memset(s, 0, sizeof(*s));
	s->hist = hist;
}

void ios_lat_free(struct ios_lat_stat *s)
{
	plat_free(s->plat);
	s->plat = NULL;
	s->hist = false;
}

double ios_lat_stddev(const struct ios_lat_stat *s)
{
	return s->n > 1 ? sqrt(s->m2 / ((double)s->n - 1.0)) : 0.0;
}

/*
 * Whether @sum samples reach @p percent of @n: sum * 100 >= p * n, decided
 * exactly on p's binary value. fio 3.33 writes the test in long double
 * (calc_clat_percentiles), yet across 25 runs of the real fio (850
 * percentiles, ties included) its choices were those of exact arithmetic:
 * 60 % of 3000 samples is reached at the 1800th (long double's 0.6 is a hair
 * high and would move it to the 1801st), 99.95 % of 6000 at the 5998th
 * (the double 99.95 is a hair above 99.95).
 */
static bool reaches(uint64_t sum, double p, uint64_t n)
{
	unsigned __int128 m, lhs = (unsigned __int128)sum * 100, rhs;
	int e;

	if (!(p > 0))
		return true;
	if (!isfinite(p))
		return false;
	m = (unsigned __int128)ldexp(frexp(p, &e), 53);
	e -= 53;			/* p = m * 2^e exactly */
	if (n >> 60 || sum >> 56 || e > 8 || e < -60)	/* out of the exact range */
		return (long double)sum >= (long double)p / 100.0 * (long double)n;
	rhs = m * n;
	if (e >= 0)
		return lhs >= rhs << e;
	return lhs << -e >= rhs;
}

/* The smallest cumulative count that reaches @p percent of @n, or n + 1 if none does. */
static uint64_t pct_threshold(double p, uint64_t n)
{
	uint64_t lo = 0, hi = n + 1;

	/* reaches() is monotone in the count: the first count that passes */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (reaches(mid, p, n))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * fio's walk (calc_clat_percentiles): the bucket at which the running count
 * first reaches each percentile. Done once over the non-empty buckets with
 * each percentile's threshold worked out beforehand, rather than a full
 * walk of all 1856 buckets per percentile.
 */
#define PCT_CHUNK 32
static void pct_chunk(const struct ios_lat_stat *s, const double *pcts, unsigned nr,
		      uint64_t *out)
{
	uint64_t thr[PCT_CHUNK], sum = 0;
	bool done[PCT_CHUNK] = { false };
	unsigned left = 0, last = 0, i;

	for (unsigned k = 0; k < nr; k++) {
		thr[k] = pct_threshold(pcts[k], s->n);
		/* a percentile reached with nothing counted stops at bucket 0 */
		if (!thr[k]) {
			out[k] = ios_plat_idx_to_val(0);
			done[k] = true;
		} else {
			left++;
		}
	}
	for (i = ios_lat_next_bucket(s, 0); i < IOS_PLAT_NR && left;
	     i = ios_lat_next_bucket(s, i + 1)) {
		sum += ios_lat_bucket(s, i);
		last = i;
		for (unsigned k = 0; k < nr; k++)
			if (!done[k] && sum >= thr[k]) {
				out[k] = ios_plat_idx_to_val(i);
				done[k] = true;
				left--;
			}
	}
	/* p > 100, or a histogram that lags n: the largest bucket seen */
	if (left) {
		for (; i < IOS_PLAT_NR; i = ios_lat_next_bucket(s, i + 1))
			last = i;
		for (unsigned k = 0; k < nr; k++)
			if (!done[k])
				out[k] = ios_plat_idx_to_val(last);
	}
}

unsigned ios_lat_percentiles(const struct ios_lat_stat *s, const double *pcts, unsigned nr,
			     uint64_t *out)
{
	if (!s->hist || !s->n || !nr)
		return 0;
	for (unsigned k = 0; k < nr; k += PCT_CHUNK)
		pct_chunk(s, pcts + k, nr - k < PCT_CHUNK ? nr - k : PCT_CHUNK, out + k);
	return nr;
}

/* ---- sampled statistics (bw, iops) ---- */

void ios_sample_init(struct ios_sample_stat *s)
{
	memset(s, 0, sizeof(*s));
}

void ios_sample_add(struct ios_sample_stat *s, double v)
{
	double delta;

	if (!s->n || v < s->min)
		s->min = v;
	if (!s->n || v > s->max)
		s->max = v;
	delta = v - s->mean;
	if (delta != 0.0) {
		s->mean += delta / ((double)s->n + 1.0);
		s->m2 += delta * (v - s->mean);
	}
	s->n++;
}

void ios_sample_merge(struct ios_sample_stat *dst, const struct ios_sample_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	st_combine(&dst->n, &dst->mean, &dst->m2, src->n, src->mean, src->m2);
}

void ios_sample_sum(struct ios_sample_stat *dst, const struct ios_sample_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->m2 += src->m2;
	dst->n += src->n;
}

double ios_sample_stddev(const struct ios_sample_stat *s)
{
	return s->n > 1 ? sqrt(s->m2 / ((double)s->n - 1.0)) : 0.0;
}

/* ---- job results ---- */

void ios_job_result_init(struct ios_job_result *j)
{
	memset(j, 0, sizeof(*j));
	j->nr_merged = 1;
}

static const struct ios_dir_result st_no_dir;

const struct ios_dir_result *ios_job_dir(const struct ios_job_result *j, int d)
{
	if (d < IOS_DDIR_RW_NR)
		return &j->dir[d];
	return j->trim ? j->trim : &st_no_dir;
}

struct ios_dir_result *ios_job_dir_mut(struct ios_job_result *j, int d)
{
	return d < IOS_DDIR_RW_NR ? &j->dir[d] : j->trim;
}

struct ios_dir_result *ios_job_trim(struct ios_job_result *j)
{
	struct ios_dir_result *t = j->trim;

	if (t)
		return t;
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	if (((j->trim_hist & IOS_HIST_SLAT) && ios_lat_enable_hist(&t->slat)) ||
	    ((j->trim_hist & IOS_HIST_CLAT) && ios_lat_enable_hist(&t->clat)) ||
	    ((j->trim_hist & IOS_HIST_LAT) && ios_lat_enable_hist(&t->lat))) {
		free(t);
		return NULL;
	}
	j->trim = t;
	return t;
}

static void st_dir_free(struct ios_dir_result *d)
{
	ios_lat_free(&d->slat);
	ios_lat_free(&d->clat);
	ios_lat_free(&d->lat);
}

void ios_job_result_free(struct ios_job_result *j)
{
	free(j->name);
	j->name = NULL;
	for (int d = 0; d < IOS_DDIR_RW_NR; d++)
		st_dir_free(&j->dir[d]);
	if (j->trim) {
		st_dir_free(j->trim);
		free(j->trim);
		j->trim = NULL;
	}
	ios_lat_free(&j->sync_lat);
	ios_lat_free(&j->win_clat);
	if (j->ss) {
		free(j->ss->bw);
		free(j->ss->iops);
		free(j->ss);
		j->ss = NULL;
	}
}

static int st_copy_lat(struct ios_lat_stat *dst, const struct ios_lat_stat *src)
{
	*dst = *src;
	dst->plat = NULL;
	if (!src->plat)
		return 0;
	if (!(dst->plat = plat_new(src->plat->grp ? 0 : src->plat->nr)))
		return -ENOMEM;
	if (!src->plat->grp) {
		dst->plat->nr = src->plat->nr;
		memcpy(dst->plat->few, src->plat->few, src->plat->nr * sizeof(uint64_t));
		return 0;
	}
	if (!(dst->plat->grp = calloc(IOS_PLAT_GROUP_NR, sizeof(uint64_t *))))
		return -ENOMEM;
	for (unsigned g = 0; g < IOS_PLAT_GROUP_NR; g++) {
		uint64_t *grp;

		if (!src->plat->grp[g])
			continue;
		grp = plat_group(dst->plat, g << IOS_PLAT_BITS);
		if (!grp)
			return -ENOMEM;
		memcpy(grp, src->plat->grp[g], IOS_PLAT_VAL * sizeof(*grp));
	}
	return 0;
}

static struct ios_ss_result *st_copy_ss(const struct ios_ss_result *src)
{
	struct ios_ss_result *ss = malloc(sizeof(*ss));

	if (!ss)
		return NULL;
	*ss = *src;
	ss->bw = calloc(src->dur ? src->dur : 1, sizeof(*ss->bw));
	ss->iops = calloc(src->dur ? src->dur : 1, sizeof(*ss->iops));
	if (!ss->bw || !ss->iops) {
		free(ss->bw);
		free(ss->iops);
		free(ss);
		return NULL;
	}
	if (src->bw)
		memcpy(ss->bw, src->bw, src->dur * sizeof(*ss->bw));
	if (src->iops)
		memcpy(ss->iops, src->iops, src->dur * sizeof(*ss->iops));
	return ss;
}

int ios_job_result_copy(struct ios_job_result *dst, const struct ios_job_result *src)
{
	int ret = 0;

	*dst = *src;
	dst->name = NULL;
	dst->ss = NULL;
	dst->trim = NULL;
	for (int d = 0; d < IOS_DDIR_RW_NR; d++)
		dst->dir[d].slat.plat = dst->dir[d].clat.plat = dst->dir[d].lat.plat = NULL;
	dst->sync_lat.plat = NULL;
	dst->win_clat.plat = NULL;
	if (src->name && !(dst->name = strdup(src->name)))
		ret = -ENOMEM;
	if (!ret && src->trim) {
		if ((dst->trim = malloc(sizeof(*dst->trim)))) {
			*dst->trim = *src->trim;
			dst->trim->slat.plat = dst->trim->clat.plat = dst->trim->lat.plat = NULL;
		} else {
			ret = -ENOMEM;
		}
	}
	for (int d = 0; d < IOS_DDIR_NR && !ret; d++) {
		struct ios_dir_result *dd = ios_job_dir_mut(dst, d);
		const struct ios_dir_result *sd = ios_job_dir(src, d);

		if (!dd)
			continue;
		ret = st_copy_lat(&dd->slat, &sd->slat);
		if (!ret)
			ret = st_copy_lat(&dd->clat, &sd->clat);
		if (!ret)
			ret = st_copy_lat(&dd->lat, &sd->lat);
	}
	if (!ret)
		ret = st_copy_lat(&dst->sync_lat, &src->sync_lat);
	if (!ret)
		ret = st_copy_lat(&dst->win_clat, &src->win_clat);
	if (!ret && src->ss && !(dst->ss = st_copy_ss(src->ss)))
		ret = -ENOMEM;
	if (ret) {
		ios_job_result_free(dst);
		ios_job_result_init(dst);
	}
	return ret;
}

/* upper bounds (exclusive) of fio's latency rows; ms adds 2000 and ">=2000" */
static const uint16_t st_lat_edges[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };

static unsigned st_lat_row(uint64_t v, unsigned nr_edges)
{
	unsigned i;

	for (i = 0; i < nr_edges; i++)
		if (v < st_lat_edges[i])
			break;
	return i;
}

void ios_job_mark_latency(struct ios_job_result *j, uint64_t clat_ns)
{
	if (clat_ns < 1000)
		j->lat_n[st_lat_row(clat_ns, IOS_NR_LAT_N)]++;
	else if (clat_ns < 1000000)
		j->lat_u[st_lat_row(clat_ns / 1000, IOS_NR_LAT_U)]++;
	else
		j->lat_m[st_lat_row(clat_ns / 1000000, IOS_NR_LAT_M - 1)]++;
	j->nr_lat_samples++;
}

unsigned ios_depth_bucket(unsigned depth)
{
	unsigned idx = 0;

	/* 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64 */
	while (idx < IOS_NR_DEPTH_BUCKETS - 1 && depth >= (2u << idx))
		idx++;
	return idx;
}

unsigned ios_batch_bucket(unsigned nr)
{
	unsigned idx = 1;

	/* 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 */
	if (!nr)
		return 0;
	while (idx < IOS_NR_BATCH_BUCKETS - 1 && nr > (4u << (idx - 1)))
		idx++;
	return idx;
}

uint64_t ios_runtime_ms(uint64_t ns)
{
	return (ns / 1000 + 999) / 1000;
}

const char *const ios_wait_cause_names[IOS_WAIT_NR] = {
	"io.max", "io.cost", "io.latency", "wbt", "delay",
};
const char *const ios_wait_cause_keys[IOS_WAIT_NR] = {
	"io_max", "io_cost", "io_latency", "wbt", "delay",
};

void ios_run_result_free(struct ios_run_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_jobs; i++)
		ios_job_result_free(&r->jobs[i]);
	free(r->jobs);
	free(r->disks);
	free(r->layout);
	r->layout = NULL;
	r->nr_layout = 0;
	for (size_t i = 0; i < r->nr_cgroups; i++) {
		free(r->cgroups[i].path);
		ios_lat_free(&r->cgroups[i].clat[0]);
		ios_lat_free(&r->cgroups[i].clat[1]);
	}
	free(r->cgroups);
	ios_iocost_log_free(r->iocost);
	r->iocost = NULL;
	for (size_t i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r->warning_by_fio);
	r->warning_by_fio = NULL;
	ios_series_free(r->series);
	free(r->series);
	r->series = NULL;
	if (r->mq) {
		free(r->mq->cpu_hctx);
		free(r->mq->hctx_dispatched);
		free(r->mq);
		r->mq = NULL;
	}
	r->jobs = NULL;
	r->nr_jobs = 0;
	r->disks = NULL;
	r->nr_disks = 0;
	r->cgroups = NULL;
	r->nr_cgroups = 0;
	r->warnings = NULL;
	r->nr_warnings = 0;
}

/* ---- group_reporting ---- */

static bool st_folds(const struct ios_job_result *j)
{
	return j->group_reporting || (j->job && j->job->group_reporting);
}

/* Histograms the destination needs before @src can be folded into it. */
static int st_prepare_hist(struct ios_lat_stat *dst, const struct ios_lat_stat *src)
{
	if (!src->hist || !src->n)
		return 0;
	if (ios_lat_enable_hist(dst))
		return -ENOMEM;
	return ios_lat_reserve(dst, src);
}

static void st_add(uint64_t *dst, const uint64_t *src, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		dst[i] += src[i];
}

static int st_fold(struct ios_job_result *dst, const struct ios_job_result *src)
{
	struct ios_ss_result *ss = NULL;
	int ret = 0;

	/*
	 * Allocate first, so that a failure leaves @dst as it was (perhaps
	 * with an empty trim direction, which reads as none).
	 */
	if (src->trim && !ios_job_trim(dst))
		return -ENOMEM;
	for (int d = 0; d < IOS_DDIR_NR && !ret; d++) {
		struct ios_dir_result *dd = ios_job_dir_mut(dst, d);
		const struct ios_dir_result *sd = ios_job_dir(src, d);

		if (!dd)
			continue;
		ret = st_prepare_hist(&dd->slat, &sd->slat);
		if (!ret)
			ret = st_prepare_hist(&dd->clat, &sd->clat);
		if (!ret)
			ret = st_prepare_hist(&dd->lat, &sd->lat);
	}
	if (!ret)
		ret = st_prepare_hist(&dst->sync_lat, &src->sync_lat);
	if (!ret)
		ret = st_prepare_hist(&dst->win_clat, &src->win_clat);
	if (ret)
		return ret;
	/* the group's steady state is its last member's (fio's) */
	if (src->ss) {
		ss = st_copy_ss(src->ss);
		if (!ss)
			return -ENOMEM;
	}

	for (int d = 0; d < IOS_DDIR_NR; d++) {
		struct ios_dir_result *dd = ios_job_dir_mut(dst, d);
		const struct ios_dir_result *sd = ios_job_dir(src, d);

		if (!dd)
			continue;	/* neither has trims */
		/* reserved above, so these cannot fail; a failure is still reported */
		ret |= ios_lat_merge(&dd->slat, &sd->slat);
		ret |= ios_lat_merge(&dd->clat, &sd->clat);
		ret |= ios_lat_merge(&dd->lat, &sd->lat);
		ios_sample_sum(&dd->bw, &sd->bw);
		ios_sample_sum(&dd->iops, &sd->iops);
		dd->io_bytes += sd->io_bytes;
		dd->total_ios += sd->total_ios;
		dd->short_ios += sd->short_ios;
		dd->drop_ios += sd->drop_ios;
		if (sd->runtime_ns > dd->runtime_ns)
			dd->runtime_ns = sd->runtime_ns;
	}
	ret |= ios_lat_merge(&dst->sync_lat, &src->sync_lat);
	dst->sync_total_ios += src->sync_total_ios;
	ret |= ios_lat_merge(&dst->win_clat, &src->win_clat);
	if (src->win_ios && (!dst->win_ios || src->win_first_ns < dst->win_first_ns))
		dst->win_first_ns = src->win_first_ns;
	dst->win_bytes += src->win_bytes;
	dst->win_ios += src->win_ios;
	/*
	 * fio adds the members' job runtimes in whole ms; keep the sum on a
	 * ms grid so the report shows exactly that.
	 */
	dst->runtime_ns = (dst->runtime_ns / 1000000 + src->runtime_ns / 1000000) * 1000000;
	if (src->start_ns < dst->start_ns)
		dst->start_ns = src->start_ns;
	if (src->finish_ns > dst->finish_ns)
		dst->finish_ns = src->finish_ns;
	dst->ctx += src->ctx;
	dst->disk_time_ns += src->disk_time_ns;
	dst->device_time_ns += src->device_time_ns;
	dst->nr_zone_resets += src->nr_zone_resets;
	dst->cut_short |= src->cut_short;
	dst->has_waits |= src->has_waits;
	st_add(dst->waits.ns, src->waits.ns, IOS_WAIT_NR);
	st_add(dst->waits.nr, src->waits.nr, IOS_WAIT_NR);
	st_add(dst->io_depth, src->io_depth, IOS_NR_DEPTH_BUCKETS);
	st_add(dst->io_submit, src->io_submit, IOS_NR_BATCH_BUCKETS);
	st_add(dst->io_complete, src->io_complete, IOS_NR_BATCH_BUCKETS);
	st_add(dst->lat_n, src->lat_n, IOS_NR_LAT_N);
	st_add(dst->lat_u, src->lat_u, IOS_NR_LAT_U);
	st_add(dst->lat_m, src->lat_m, IOS_NR_LAT_M);
	dst->nr_lat_samples += src->nr_lat_samples;
	dst->nr_merged = (dst->nr_merged ? dst->nr_merged : 1) +
			 (src->nr_merged ? src->nr_merged : 1);
	if (!dst->error)
		dst->error = src->error;
	/* fio's sum_thread_stats: the count adds up, the rest is the last member's */
	dst->total_err += src->total_err;
	dst->first_error = src->first_error;
	dst->continue_on_error = src->continue_on_error;
	/* like fio, options and percentile list come from the last member */
	if (src->job)
		dst->job = src->job;
	if (ss) {
		if (dst->ss) {
			free(dst->ss->bw);
			free(dst->ss->iops);
			free(dst->ss);
		}
		dst->ss = ss;
	}
	if (src->pcts) {
		dst->pcts = src->pcts;
		dst->nr_pcts = src->nr_pcts;
	}
	return ret ? -ENOMEM : 0;
}

int ios_run_result_group(struct ios_run_result *r)
{
	size_t slot = 0, i;
	int ret = 0;

	if (!r->nr_jobs)
		return 0;
	/*
	 * fio starts a new entry for a job unless the job has group_reporting
	 * and is in the same group as the job before it.
	 */
	for (i = 1; i < r->nr_jobs; i++) {
		struct ios_job_result *j = &r->jobs[i];

		if (!ret && st_folds(j) && j->groupid == r->jobs[slot].groupid) {
			ret = st_fold(&r->jobs[slot], j);
			if (!ret) {
				ios_job_result_free(j);
				continue;
			}
		}
		slot++;
		if (slot != i) {
			r->jobs[slot] = *j;
			ios_job_result_init(j);
		}
	}
	r->nr_jobs = slot + 1;
	return ret;
}

/* ---- text buffer ---- */

void ios_buf_init(struct ios_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void ios_buf_free(struct ios_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

static bool st_buf_reserve(struct ios_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1, cap = b->cap ? b->cap : 256;
	char *s;

	if (need <= b->cap)
		return true;
	while (cap < need)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s) {
		b->oom = 1;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void ios_buf_set_sink(struct ios_buf *b, int (*sink)(void *arg, const char *s, size_t len),
		      void *arg)
{
	b->sink = sink;
	b->sink_arg = arg;
}

int ios_buf_drain(struct ios_buf *b)
{
	if (b->sink && b->len && !b->sink_err)
		b->sink_err = b->sink(b->sink_arg, b->s, b->len);
	if (b->sink && b->s) {
		b->len = 0;
		b->s[0] = '\0';
	}
	return b->sink_err;
}

static void st_buf_maybe_drain(struct ios_buf *b)
{
	if (b->sink && b->len >= IOS_BUF_DRAIN)
		(void)ios_buf_drain(b);
}

void ios_buf_printf(struct ios_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (!b->s || (size_t)n >= b->cap - b->len) {
		if (!st_buf_reserve(b, (size_t)n))
			return;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
	st_buf_maybe_drain(b);
}

void ios_buf_puts(struct ios_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->oom || !st_buf_reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
	st_buf_maybe_drain(b);
}

/* ---- number formatting ---- */

static int st_digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

char *ios_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base, int pow2,
		  enum ios_n2s_unit unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const unit_str[] = {
		[IOS_N2S_NONE] = "", [IOS_N2S_PERSEC] = "/s", [IOS_N2S_BYTE] = "B",
		[IOS_N2S_BIT] = "bit", [IOS_N2S_BYTEPERSEC] = "B/s", [IOS_N2S_BITPERSEC] = "bit/s",
	};
	const char *const *prefix = pow2 ? iec : si;
	const unsigned thousand = pow2 ? 1024 : 1000;
	const char *us = (unsigned)unit < IOS_ARRAY_SIZE(unit_str) ? unit_str[unit] : "";
	unsigned post = 0, modulo = 0;
	bool divided = false, carry = false;
	char frac[32];
	int room;

	for (; base > 1; post++)
		base /= (int)thousand;
	if (unit == IOS_N2S_BIT || unit == IOS_N2S_BITPERSEC)
		num *= 8;
	/* divide until the integer part fits, remembering the last remainder */
	while (post < IOS_ARRAY_SIZE(si) && st_digits(num) > maxlen) {
		modulo = (unsigned)(num % thousand);
		num /= thousand;
		carry = modulo >= thousand / 2;
		divided = true;
		post++;
	}
	if (post >= IOS_ARRAY_SIZE(si))
		post = 0;
	if (!divided) {
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[post], us);
		return buf;
	}
	room = maxlen - st_digits(num);
	if (room <= 1) {
		/* no room for decimals: round the integer part */
		if (carry)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num, prefix[post], us);
		return buf;
	}
	snprintf(frac, sizeof(frac), "%.*f", room - 1, (double)modulo / (double)thousand);
	if (frac[0] == '1')
		num++;
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2, prefix[post], us);
	return buf;
}

/* ---- helpers shared by the writers (report_int.h) ---- */

int ios_rep_groups(const struct ios_run_result *r, struct ios_rep_group **groups, int *nr)
{
	struct ios_rep_group *g;
	int max_gid = -1;

	*groups = NULL;
	*nr = 0;
	for (size_t i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].groupid > max_gid)
			max_gid = r->jobs[i].groupid;
	if (max_gid < 0)
		return 0;
	g = calloc((size_t)max_gid + 1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	for (int i = 0; i <= max_gid; i++)
		for (int d = 0; d < IOS_DDIR_NR; d++)
			g[i].min_bw[d] = g[i].min_run[d] = UINT64_MAX;
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct ios_job_result *j = &r->jobs[i];
		struct ios_rep_group *gr;

		if (j->groupid < 0)
			continue;
		gr = &g[j->groupid];
		for (int d = 0; d < IOS_DDIR_NR; d++) {
			const struct ios_dir_result *dr = ios_job_dir(j, d);
			uint64_t run = ios_runtime_ms(dr->runtime_ns), bw;

			if (!run)
				continue;
			if (run < gr->min_run[d])
				gr->min_run[d] = run;
			if (run > gr->max_run[d])
				gr->max_run[d] = run;
			bw = dr->io_bytes * 1000 / run;
			if (bw < gr->min_bw[d])
				gr->min_bw[d] = bw;
			if (bw > gr->max_bw[d])
				gr->max_bw[d] = bw;
			gr->iobytes[d] += dr->io_bytes;
		}
	}
	for (int i = 0; i <= max_gid; i++)
		for (int d = 0; d < IOS_DDIR_NR; d++)
			if (g[i].max_run[d])
				g[i].agg[d] = g[i].iobytes[d] * 1000 / g[i].max_run[d];
	*groups = g;
	*nr = max_gid + 1;
	return 0;
}

double ios_rep_bw_share(const struct ios_rep_group *g, int ddir, double mean_kib)
{
	double p = 100.0;

	if (g && g->agg[ddir] > 1024) {
		/* fio 3.33 passes the mean through an int: keep that truncation */
		double m = mean_kib < 2147483647.0 ? (double)(int)mean_kib : 2147483647.0;

		p = m * 100.0 / ((double)g->agg[ddir] / 1024.0);
		if (p > 100.0)
			p = 100.0;
	}
	return p;
}

void ios_rep_ctime(uint64_t unix_s, char out[32])
{
	static const char days[7][4] = { "Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed" };
	static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	int64_t z = (int64_t)(unix_s / 86400), era, y;
	unsigned sod = (unsigned)(unix_s % 86400), doe, yoe, doy, mp, d, m;
	const char *wday = days[z % 7];

	/* days since 1970-01-01 to a proleptic Gregorian date (civil_from_days) */
	z += 719468;
	era = z / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = (int64_t)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	if (m <= 2)
		y++;
	snprintf(out, 32, "%s %s%3u %02u:%02u:%02u %lld", wday, months[m - 1], d, sod / 3600,
		 sod / 60 % 60, sod % 60, (long long)y);
}

/* Decimals needed to write @v back exactly: "99.99" -> 2, "50" -> 0. */
static unsigned st_decimals(double v)
{
	char tmp[64];

	for (unsigned d = 0; d < 9; d++) {
		snprintf(tmp, sizeof(tmp), "%.*f", (int)d, v);
		if (strtod(tmp, NULL) == v)
			return d;
	}
	return 9;
}

unsigned ios_rep_pcts(const struct ios_job_result *j, double out[IOS_REP_MAX_PCTS],
		      unsigned *precision)
{
	const double *src = j->pcts ? j->pcts : ios_default_percentiles;
	unsigned nr = j->pcts ? j->nr_pcts : ios_nr_default_percentiles, n = 0, prec = 0;

	/* fio's list ends at the first 0 and holds at most 20 entries */
	for (unsigned i = 0; i < nr && n < IOS_REP_MAX_PCTS && src[i] != 0.0; i++) {
		double v = src[i];
		unsigned k = n++;

		while (k > 0 && out[k - 1] > v) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = v;
		if (st_decimals(v) > prec)
			prec = st_decimals(v);
	}
	*precision = prec;
	return n;
}

bool ios_rep_lat(const struct ios_lat_stat *s, uint64_t *min, uint64_t *max, double *mean,
		 double *dev)
{
	if (!s->n)
		return false;
	*min = s->min;
	*max = s->max;
	*mean = s->mean;
	*dev = ios_lat_stddev(s);
	return true;
}

void ios_rep_dist(const uint64_t *map, unsigned nr, uint64_t total, double floor_pct,
		  double *out)
{
	for (unsigned i = 0; i < nr; i++) {
		if (!total) {
			out[i] = 0.0;
			continue;
		}
		out[i] = (double)map[i] / (double)total;
		out[i] *= 100.0;
		if (out[i] < floor_pct && map[i])
			out[i] = floor_pct;
	}
}

uint64_t ios_rep_total_rw_ios(const struct ios_job_result *j)
{
	uint64_t t = 0;

	for (int d = 0; d < IOS_DDIR_NR; d++)
		t += ios_job_dir(j, d)->total_ios;
	return t;
}

unsigned ios_rep_iodepth(const struct ios_job_result *j)
{
	if (j->latency_depth && j->job && j->job->sub.lat_target_ns)
		return j->latency_depth;
	return j->job && j->job->iodepth ? j->job->iodepth : 1;
}

uint64_t ios_rep_ss_mean(const uint64_t *v, unsigned n)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : 0;
}

/* fio's latency_target, window (us) and percentile for the report's "latency" line */
void ios_rep_lat_target(const struct ios_job_result *j, uint64_t *target_ns, uint64_t *window_us,
			double *pct)
{
	const struct ios_job_submit *s = j->job ? &j->job->sub : NULL;

	*target_ns = s ? s->lat_target_ns : 0;
	*window_us = s ? s->lat_window_ns / 1000 : 0;
	*pct = s ? s->lat_percentile : 100.0;
}
