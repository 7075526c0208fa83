/*
 * io.cost's monitor (step 9a of docs/cgroup-v2-plan.md §12): at the end of
 * each period of ioc_timer_fn (Linux 6.12 block/blk-iocost.c) one record of
 * what the kernel's tools/cgroup/iocost_monitor.py (a drgn script that reads
 * struct ioc and struct ioc_gq while the kernel runs) would show: the
 * period's length, busy_level and vrate; per group on the active list its
 * hweight_active and hweight_inuse, the share of a period in flight, its
 * usage, debt and delay. The script samples at its own interval; the lab
 * samples exactly once per period, after the timer's work, so a record is
 * the state the next period starts with (vrate after ioc_adjust_base_vrate,
 * the weights after transfer_surpluses).
 *
 * As the script computes them: vrate = vtime_base_rate / VTIME_PER_USEC;
 * hweight = the group's hweight / WEIGHT_ONE (here current_hweight's, the
 * kernel's cached value brought up to date: the cache may be a generation
 * old when the script reads it); inflight = (vtime - done_vtime) /
 * (period_us * vtime_rate); usage = usage_delta_us / period_us (the
 * period's, from iocg_flush_stat_leaf); debt = abs_vdebt in device time;
 * delay = the blkg's delay_nsec when use_delay is set.
 *
 * Bounded memory (struct ios_iocost_log in iosched/stats.h): at most cap
 * periods are kept, cap chosen so that cap x groups stays under
 * MON_MAX_SLOTS samples; when full, every second kept period goes and the
 * stride doubles. The summary (vrate extremes and mean, per group means)
 * covers every period. The reports say when periods were thinned.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "block/blk_iocost_int.h"
#include "iosched/stats.h"

enum {
	MON_MAX_SLOTS = 1 << 18,	/* periods x groups kept: about 14 MiB */
	MON_MIN_CAP = 256,
	MON_FIRST_CAP = 64,
};

static int mon_alloc(struct ios_iocost *ioc)
{
	struct ios_iocost_log *l = calloc(1, sizeof(*l));
	unsigned n = ioc->nr_iocgs;

	if (!l)
		return -ENOMEM;
	ioc->mon = l;
	l->nr_groups = n;
	l->cap = MON_MAX_SLOTS / (n ? n : 1);
	if (l->cap < MON_MIN_CAP)
		l->cap = MON_MIN_CAP;
	l->cap &= ~(size_t)1;		/* halving keeps every second one */
	l->stride = 1;
	l->vrate_min = 1e300;
	l->g_periods = calloc(n ? n : 1, sizeof(*l->g_periods));
	l->g_hwa_sum = calloc(n ? n : 1, sizeof(double));
	l->g_hwi_sum = calloc(n ? n : 1, sizeof(double));
	l->g_usage_sum = calloc(n ? n : 1, sizeof(double));
	l->g_debt_max = calloc(n ? n : 1, sizeof(double));
	l->g_delay_max = calloc(n ? n : 1, sizeof(double));
	if (!l->g_periods || !l->g_hwa_sum || !l->g_hwi_sum || !l->g_usage_sum ||
	    !l->g_debt_max || !l->g_delay_max)
		return -ENOMEM;
	return 0;
}

/* room for one more kept period: grow up to cap, then thin by half */
static int mon_room(struct ios_iocost_log *l, size_t *alloc)
{
	size_t n = l->nr_groups ? l->nr_groups : 1;

	if (l->nr == l->cap) {
		for (size_t i = 0; i < l->nr / 2; i++) {
			l->periods[i] = l->periods[2 * i];
			memmove(&l->samples[i * n], &l->samples[2 * i * n], n * sizeof(*l->samples));
		}
		l->nr /= 2;
		l->stride *= 2;
	}
	if (l->nr == *alloc) {
		size_t m = *alloc ? *alloc * 2 : MON_FIRST_CAP;
		struct ios_iocost_period *p;
		struct ios_iocost_sample *s;

		if (m > l->cap)
			m = l->cap;
		p = realloc(l->periods, m * sizeof(*p));
		if (!p)
			return -ENOMEM;
		l->periods = p;
		s = realloc(l->samples, m * n * sizeof(*s));
		if (!s)
			return -ENOMEM;
		l->samples = s;
		*alloc = m;
	}
	return 0;
}

/* The end of a period of ioc_timer_fn at @now_ns. Out of memory: l->err, nothing more kept. */
void ios_ioc_monitor_record(struct ios_iocost *ioc, uint64_t now_ns)
{
	struct ios_iocost_log *l = ioc->mon;
	struct ios_iocost_period pr;
	struct ios_iocost_sample *row = NULL;
	uint64_t period_vtime = (uint64_t)ioc->period_us * ioc->vtime_rate;

	if (!l && mon_alloc(ioc)) {
		if (ioc->mon)
			ioc->mon->err = -ENOMEM;
		else
			ioc->mon_oom = true;
		return;
	}
	l = ioc->mon;
	if (l->err)
		return;
	pr.t_ns = now_ns;
	pr.seq = l->nr_total++;
	pr.period_ms = (double)ioc->period_us / 1e3;
	pr.busy_level = ioc->busy_level;
	pr.vrate_pct = (double)ioc->vtime_base_rate * 100.0 / (double)IOS_IOCOST_VTIME_PER_USEC;
	if (pr.vrate_pct < l->vrate_min)
		l->vrate_min = pr.vrate_pct;
	if (pr.vrate_pct > l->vrate_max)
		l->vrate_max = pr.vrate_pct;
	l->vrate_sum += pr.vrate_pct;
	/*
	 * Kept periods are seq 0, stride, 2 x stride, ...: when full, seq is
	 * cap x stride, which the doubled stride (cap is even) still keeps.
	 */
	if (pr.seq % l->stride == 0) {
		if (mon_room(l, &ioc->mon_alloc)) {
			l->err = -ENOMEM;
			return;
		}
		l->periods[l->nr] = pr;
		row = &l->samples[l->nr * (l->nr_groups ? l->nr_groups : 1)];
		l->nr++;
	}
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		const struct ios_blkg *g = &ioc->ctl->blkgs[i];
		struct ios_iocost_sample s;
		uint32_t hwa, hwi;

		memset(&s, 0, sizeof(s));
		if (iocg->on_active) {
			ios_iocg_hweight(iocg, &hwa, &hwi);
			s.active = true;
			s.hweight_active_pct = (double)hwa * 100.0 / IOS_IOCOST_WEIGHT_ONE;
			s.hweight_inuse_pct = (double)hwi * 100.0 / IOS_IOCOST_WEIGHT_ONE;
			s.inflight_pct = period_vtime ?
				(double)(int64_t)(iocg->vtime - iocg->done_vtime) * 100.0 /
				(double)period_vtime : 0.0;
			s.usage_pct = ioc->period_us ?
				(double)iocg->usage_delta_us * 100.0 / ioc->period_us : 0.0;
			s.debt_ms = (double)iocg->abs_vdebt / IOS_IOCOST_VTIME_PER_USEC / 1000.0;
			s.use_delay = g->use_delay;
			s.delay_ms = g->use_delay ? (double)g->delay_nsec / 1e6 : 0.0;
			l->g_periods[i]++;
			l->g_hwa_sum[i] += s.hweight_active_pct;
			l->g_hwi_sum[i] += s.hweight_inuse_pct;
			l->g_usage_sum[i] += s.usage_pct;
			if (s.debt_ms > l->g_debt_max[i])
				l->g_debt_max[i] = s.debt_ms;
			if (s.delay_ms > l->g_delay_max[i])
				l->g_delay_max[i] = s.delay_ms;
		}
		if (row)
			row[i] = s;
	}
}

struct ios_iocost_log *ios_iocost_take_log(struct ios_iocost *ioc, int *err)
{
	struct ios_iocost_log *l = ioc->mon;

	*err = ioc->mon_oom ? -ENOMEM : 0;
	ioc->mon = NULL;
	ioc->mon_alloc = 0;
	ioc->mon_oom = false;
	if (!l)
		return NULL;
	if (l->err)
		goto fail;
	l->paths = calloc(l->nr_groups ? l->nr_groups : 1, sizeof(*l->paths));
	if (!l->paths)
		goto fail;
	for (unsigned i = 0; i < l->nr_groups; i++) {
		l->paths[i] = strdup(ioc->ctl->blkgs[i].cgroup->path);
		if (!l->paths[i])
			goto fail;
	}
	return l;
fail:
	*err = -ENOMEM;
	ios_iocost_log_free(l);
	return NULL;
}

void ios_iocost_log_free(struct ios_iocost_log *l)
{
	if (!l)
		return;
	for (unsigned i = 0; l->paths && i < l->nr_groups; i++)
		free(l->paths[i]);
	free(l->paths);
	free(l->periods);
	free(l->samples);
	free(l->g_periods);
	free(l->g_hwa_sum);
	free(l->g_hwi_sum);
	free(l->g_usage_sum);
	free(l->g_debt_max);
	free(l->g_delay_max);
	free(l);
}
