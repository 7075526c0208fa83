/*
 * io.cost, the cost-model I/O controller of Linux 6.12 (block/blk-iocost.c,
 * Tejun Heo and Andy Newell), step 4a of docs/cgroup-v2-plan.md §12: the
 * core. Read in the code index's copy dated 6.10-6.12 (index id 8033186,
 * plan §1: blk_time_get_ns in ioc_now, timer_shutdown_sync, the
 * clamp_t(u32, inuse, 1, active) of __propagate_weights); no tree of the
 * release could be fetched whole (over the snapshot limit).
 *
 * Modelled, with the kernel's names and integer arithmetic:
 *  - the linear cost model: calc_lcoefs, calc_vtime_cost_builtin with the
 *    per-group cursor (a bio more than LCOEF_RANDIO_PAGES, 16 MiB, from
 *    the end of the group's last bio is random; the first bio of a group
 *    finds the cursor unset and is sequential, as in the kernel), merges
 *    charged the page cost only, the cursor moved by a back merge;
 *  - the built-in parameter sets and ioc_autop_idx: HDD, SSD_QD1, SSD_DFL,
 *    SSD_DFL -> SSD_FAST after AUTOP_CYCLE_NSEC at vrate >= 500 % and back
 *    after as long at <= 10 %, vrate reset to 100 % on a switch
 *    (ioc_refresh_params_disk). The kernel's "0 = not yet" of
 *    autop_too_fast_at would mistake the lab's time 0 for "never" (plan
 *    §13 R4): an explicit never-value is used;
 *  - the period (ioc_refresh_period_us), margins, vtime and vnow (ioc_now),
 *    the period timer as a timer_list on jiffies of lab.hz;
 *  - hierarchical weights: __propagate_weights, commit_weights,
 *    current_hweight with the generation counter, current_hweight_max;
 *    activation (iocg_activate: leaves only; a group whose descendants are
 *    active, or under an active ancestor, bypasses), idle deactivation
 *    with its excess counted as vtime_err (ioc_check_iocgs), and
 *    ioc_refresh_vrate folding vtime_err back in;
 *  - waiting: a bio over its group's budget waits in the group's FIFO
 *    until iocg_kick_waitq commits it, from the waitq hrtimer (shortage /
 *    vrate, plus 1 % of the period of slack) or the period timer;
 *    adjust_inuse_and_calc_cost; waiters get inuse = active;
 *  - ioc_timer_fn: ioc_lat_stat (rq_wait %, missed ppm per direction),
 *    lagging, usage, the donation decision up to hweight_after_donation
 *    (a would-be donor is not a shortage), busy_level with the 75 %
 *    hysteresis and its clamp, ioc_adjust_base_vrate (vrate_adj_pct by
 *    |busy_level|, 4 % per period back inside [min, max]);
 *  - the configuration: io.cost.qos (enable, ctrl, rpct/rlat/wpct/wlat,
 *    min/max), io.cost.model, io.weight default and per device.
 *
 * Step 4b lives in blk_iocost_donate.c: transfer_surpluses, debt
 * (iocg_incur_debt, iocg_pay_debt), iocg_kick_delay, ioc_forgive_debts.
 * Not modelled: per-CPU counters (one set), the stats' upward flush
 * (leaf usage and wait only), wbt_disable_default (no wbt in the lab),
 * queue freezing around a write, fatal signals. The active list is
 * walked in cgroup id order (the kernel's in activation order, newest
 * first): this only orders releases of the same instant.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "block/blk_iocost_int.h"
#include "iosched/request.h"
#include "iosched/stats.h"

enum {
	MILLION = 1000000,
	MIN_PERIOD = 1000,		/* µs */
	MAX_PERIOD = 1000000,
	MARGIN_MIN_PCT = 10,
	MARGIN_LOW_PCT = 20,
	MARGIN_TARGET_PCT = 50,
	INUSE_ADJ_STEP_PCT = 25,
	TIMER_SLACK_PCT = 1,
	VRATE_CLAMP_ADJ_PCT = 4,
	RQ_WAIT_BUSY_PCT = 5,
	UNBUSY_THR_PCT = 75,
	MAX_LAGGING_PERIODS = 10,
	IOC_SECT_TO_PAGE_SHIFT = 3,
	LCOEF_RANDIO_PAGES = 4096,
};
#define WEIGHT_ONE	IOS_IOCOST_WEIGHT_ONE
#define VTIME_PER_SEC	IOS_IOCOST_VTIME_PER_SEC
#define VTIME_PER_USEC	IOS_IOCOST_VTIME_PER_USEC
#define VTIME_PER_NSEC	(VTIME_PER_SEC / 1000000000ull)
#define AUTOP_CYCLE_NSEC (10ull * 1000000000ull)
#define NEVER		IOC_NEVER

const char *const ios_iocost_autop_names[IOS_AUTOP_NR] = {
	"invalid", "hdd", "ssd_qd1", "ssd_dfl", "ssd_fast",
};

/* autop[]: the built-in parameter sets, numbers as 6.12 has them */
struct ioc_params {
	uint32_t qos[IOS_QOS_NR];
	uint64_t i_lcoefs[IOS_LCOEF_NR];
	uint32_t too_fast_vrate_pct, too_slow_vrate_pct;
};

static const struct ioc_params autop[IOS_AUTOP_NR] = {
	[IOS_AUTOP_HDD] = {
		.qos = { [IOS_QOS_RLAT] = 250000, [IOS_QOS_WLAT] = 250000,
			 [IOS_QOS_MIN] = IOS_VRATE_MIN_PPM, [IOS_QOS_MAX] = IOS_VRATE_MAX_PPM },
		.i_lcoefs = { 174019176, 41708, 370, 178075866, 42705, 378 },
	},
	[IOS_AUTOP_SSD_QD1] = {
		.qos = { [IOS_QOS_RLAT] = 25000, [IOS_QOS_WLAT] = 25000,
			 [IOS_QOS_MIN] = IOS_VRATE_MIN_PPM, [IOS_QOS_MAX] = IOS_VRATE_MAX_PPM },
		.i_lcoefs = { 245855193, 61575, 6946, 141365009, 33716, 26796 },
	},
	[IOS_AUTOP_SSD_DFL] = {
		.qos = { [IOS_QOS_RLAT] = 25000, [IOS_QOS_WLAT] = 25000,
			 [IOS_QOS_MIN] = IOS_VRATE_MIN_PPM, [IOS_QOS_MAX] = IOS_VRATE_MAX_PPM },
		.i_lcoefs = { 488636629, 8932, 8518, 427891549, 28755, 21940 },
		.too_fast_vrate_pct = 500,
	},
	[IOS_AUTOP_SSD_FAST] = {
		.qos = { [IOS_QOS_RLAT] = 5000, [IOS_QOS_WLAT] = 5000,
			 [IOS_QOS_MIN] = IOS_VRATE_MIN_PPM, [IOS_QOS_MAX] = IOS_VRATE_MAX_PPM },
		.i_lcoefs = { 3102524156ull, 724816, 778122, 1742780862ull, 425702, 443193 },
		.too_slow_vrate_pct = 10,
	},
};

/* vrate_adj_pct[], indexed by |busy_level| */
static const uint32_t vrate_adj_pct[] = {
	0, 0, 0, 0,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	4, 4, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 16,
};
#define NR_VRATE_ADJ (sizeof(vrate_adj_pct) / sizeof(vrate_adj_pct[0]))

static void iocg_commit_bio(struct ios_iocg *iocg, struct ios_iocost_bio *b, uint64_t abs_cost,
			    uint64_t cost)
{
	b->cost = cost;
	iocg->vtime += cost;
	iocg->abs_vusage += abs_cost;
}

static void ioc_refresh_margins(struct ios_iocost *ioc)
{
	uint64_t vrate = ioc->vtime_base_rate;
	uint32_t p = ioc->period_us;

	ioc->margin_min = (int64_t)((p * MARGIN_MIN_PCT / 100) * vrate);
	ioc->margin_low = (int64_t)((p * MARGIN_LOW_PCT / 100) * vrate);
	ioc->margin_target = (int64_t)((p * MARGIN_TARGET_PCT / 100) * vrate);
}

/* the larger latency target with its percentile sets the period */
static void ioc_refresh_period_us(struct ios_iocost *ioc)
{
	uint32_t ppm, lat, multi, period_us;

	if (ioc->qos[IOS_QOS_RLAT] >= ioc->qos[IOS_QOS_WLAT]) {
		ppm = ioc->qos[IOS_QOS_RPPM];
		lat = ioc->qos[IOS_QOS_RLAT];
	} else {
		ppm = ioc->qos[IOS_QOS_WPPM];
		lat = ioc->qos[IOS_QOS_WLAT];
	}
	multi = 2;
	if (ppm && (MILLION - ppm) / 50000 > 2)
		multi = (MILLION - ppm) / 50000;
	/* u32 in the kernel too: a huge lat wraps there; blkcg_conf keeps lat in u32 */
	period_us = multi * lat;
	if (period_us < MIN_PERIOD)
		period_us = MIN_PERIOD;
	if (period_us > MAX_PERIOD)
		period_us = MAX_PERIOD;
	ioc->period_us = period_us;
	ioc->timer_slack_ns = (uint32_t)((uint64_t)period_us * 1000 * TIMER_SLACK_PCT / 100);
	ioc_refresh_margins(ioc);
}

static int ioc_autop_idx(struct ios_iocost *ioc, uint64_t now_ns)
{
	int idx = ioc->autop_idx;
	const struct ioc_params *p = &autop[idx];
	uint64_t vrate_pct;

	if (ioc->dev.rotational)
		return IOS_AUTOP_HDD;
	/* SATA SSDs with broken NCQ */
	if (ioc->dev.queue_depth == 1)
		return IOS_AUTOP_SSD_QD1;
	if (idx < IOS_AUTOP_SSD_DFL)
		return IOS_AUTOP_SSD_DFL;
	/* a user's parameters pin the set */
	if (ioc->user_qos_params || ioc->user_cost_model)
		return idx;

	vrate_pct = ioc->vtime_base_rate * 100 / VTIME_PER_USEC;
	if (p->too_fast_vrate_pct && p->too_fast_vrate_pct <= vrate_pct) {
		if (ioc->autop_too_fast_at == NEVER)
			ioc->autop_too_fast_at = now_ns;
		if (now_ns - ioc->autop_too_fast_at >= AUTOP_CYCLE_NSEC)
			return idx + 1;
	} else {
		ioc->autop_too_fast_at = NEVER;
	}
	if (p->too_slow_vrate_pct && p->too_slow_vrate_pct >= vrate_pct) {
		if (ioc->autop_too_slow_at == NEVER)
			ioc->autop_too_slow_at = now_ns;
		if (now_ns - ioc->autop_too_slow_at >= AUTOP_CYCLE_NSEC)
			return idx - 1;
	} else {
		ioc->autop_too_slow_at = NEVER;
	}
	return idx;
}

void ios_iocost_calc_lcoefs(uint64_t bps, uint64_t seqiops, uint64_t randiops, uint64_t *page,
			 uint64_t *seqio, uint64_t *randio)
{
	uint64_t v;

	*page = *seqio = *randio = 0;
	if (bps) {
		uint64_t bps_pages = div_round_up(bps, 4096);

		*page = bps_pages ? div_round_up(VTIME_PER_SEC, bps_pages) : 1;
	}
	if (seqiops) {
		v = div_round_up(VTIME_PER_SEC, seqiops);
		if (v > *page)
			*seqio = v - *page;
	}
	if (randiops) {
		v = div_round_up(VTIME_PER_SEC, randiops);
		if (v > *page)
			*randio = v - *page;
	}
}

static void ioc_refresh_lcoefs(struct ios_iocost *ioc)
{
	const uint64_t *u = ioc->i_lcoefs;
	uint64_t *c = ioc->lcoefs;

	ios_iocost_calc_lcoefs(u[IOS_LCOEF_RBPS], u[IOS_LCOEF_RSEQIOPS], u[IOS_LCOEF_RRANDIOPS],
			    &c[IOS_LC_RPAGE], &c[IOS_LC_RSEQIO], &c[IOS_LC_RRANDIO]);
	ios_iocost_calc_lcoefs(u[IOS_LCOEF_WBPS], u[IOS_LCOEF_WSEQIOPS], u[IOS_LCOEF_WRANDIOPS],
			    &c[IOS_LC_WPAGE], &c[IOS_LC_WSEQIO], &c[IOS_LC_WRANDIO]);
}

static bool ioc_refresh_params(struct ios_iocost *ioc, bool force, uint64_t now_ns)
{
	int idx = ioc_autop_idx(ioc, now_ns);
	const struct ioc_params *p = &autop[idx];

	if (idx == ioc->autop_idx && !force)
		return false;
	if (idx != ioc->autop_idx) {
		ioc->vtime_rate = VTIME_PER_USEC;
		ioc->vtime_base_rate = VTIME_PER_USEC;
	}
	ioc->autop_idx = idx;
	ioc->autop_too_fast_at = NEVER;
	ioc->autop_too_slow_at = NEVER;
	if (!ioc->user_qos_params)
		memcpy(ioc->qos, p->qos, sizeof(ioc->qos));
	if (!ioc->user_cost_model)
		memcpy(ioc->i_lcoefs, p->i_lcoefs, sizeof(ioc->i_lcoefs));
	ioc_refresh_period_us(ioc);
	ioc_refresh_lcoefs(ioc);
	ioc->vrate_min = div_round_up((uint64_t)ioc->qos[IOS_QOS_MIN] * VTIME_PER_USEC, MILLION);
	ioc->vrate_max = div_round_up((uint64_t)ioc->qos[IOS_QOS_MAX] * VTIME_PER_USEC, MILLION);
	return true;
}

/* compensate the vtime thrown away (vtime_err) over what is left of the period */
static void ioc_refresh_vrate(struct ios_iocost *ioc, const struct ioc_now *now)
{
	int64_t pleft = (int64_t)(ioc->period_at + ioc->period_us) - (int64_t)now->now;
	int64_t vperiod = (int64_t)ioc->period_us * (int64_t)ioc->vtime_base_rate;

	if (pleft > 0) {
		int64_t vcomp = -(ioc->vtime_err / pleft);
		int64_t vmin = -(int64_t)(ioc->vtime_base_rate >> 1);
		int64_t vmax = (int64_t)ioc->vtime_base_rate;

		if (vcomp < vmin)
			vcomp = vmin;
		if (vcomp > vmax)
			vcomp = vmax;
		ioc->vtime_err += vcomp * pleft;
		ioc->vtime_rate = (uint64_t)((int64_t)ioc->vtime_base_rate + vcomp);
	}
	if (ioc->vtime_err < -vperiod)
		ioc->vtime_err = -vperiod;
	if (ioc->vtime_err > vperiod)
		ioc->vtime_err = vperiod;
}

static void ioc_adjust_base_vrate(struct ios_iocost *ioc, int nr_lagging)
{
	uint64_t vrate = ioc->vtime_base_rate;

	if (!ioc->busy_level || (ioc->busy_level < 0 && nr_lagging))
		return;
	/* out of bounds (a bound just moved): back in by 4 % a period */
	if (vrate < ioc->vrate_min) {
		vrate = vrate * (100 + VRATE_CLAMP_ADJ_PCT) / 100;
		if (vrate > ioc->vrate_min)
			vrate = ioc->vrate_min;
	} else if (vrate > ioc->vrate_max) {
		vrate = vrate * (100 - VRATE_CLAMP_ADJ_PCT) / 100;
		if (vrate < ioc->vrate_max)
			vrate = ioc->vrate_max;
	} else {
		unsigned lvl = (unsigned)abs(ioc->busy_level);
		uint32_t adj = vrate_adj_pct[lvl < NR_VRATE_ADJ ? lvl : NR_VRATE_ADJ - 1];

		adj = ioc->busy_level > 0 ? 100 - adj : 100 + adj;
		vrate = div_round_up(vrate * adj, 100);
		if (vrate < ioc->vrate_min)
			vrate = ioc->vrate_min;
		if (vrate > ioc->vrate_max)
			vrate = ioc->vrate_max;
	}
	ioc->vtime_base_rate = vrate;
	ioc_refresh_margins(ioc);
}

static void ioc_now(const struct ios_iocost *ioc, uint64_t now_ns, struct ioc_now *n)
{
	n->now_ns = now_ns;
	n->now = now_ns / 1000;
	n->vnow = ioc->period_at_vtime + (n->now - ioc->period_at) * ioc->vtime_rate;
}

/*
 * add_timer(jiffies + usecs_to_jiffies(period_us)): the timer fires on the
 * first tick at or after that jiffy.
 */
static uint64_t period_timer_at(const struct ios_iocost *ioc, uint64_t now_ns)
{
	uint64_t hz = ioc->dev.hz, j, dj;

	if (!hz)
		return now_ns + (uint64_t)ioc->period_us * 1000;
	j = now_ns * hz / 1000000000ull;
	dj = div_round_up((uint64_t)ioc->period_us * hz, 1000000);
	return div_round_up((j + dj) * 1000000000ull, hz);
}

static void ioc_start_period(struct ios_iocost *ioc, const struct ioc_now *now)
{
	ioc->period_at = now->now;
	ioc->period_at_vtime = now->vnow;
	ioc->timer_at = period_timer_at(ioc, now->now_ns);
}

static void __propagate_weights(struct ios_iocg *iocg, uint32_t active, uint32_t inuse,
				bool save, const struct ioc_now *now)
{
	struct ios_iocost *ioc = iocg->ioc;

	/* an active internal node's inuse follows its children's ratio */
	if (!iocg->on_active && iocg->child_active_sum) {
		inuse = (uint32_t)div_round_up((uint64_t)active * iocg->child_inuse_sum,
					       iocg->child_active_sum);
	} else {
		/* clamp_t(u32, inuse, 1, active): 0 when active is 0 */
		if (inuse < 1)
			inuse = 1;
		if (inuse > active)
			inuse = active;
	}
	iocg->last_inuse = iocg->inuse;
	if (save)
		iocg->saved_margin = (int64_t)(now->vnow - iocg->vtime);
	if (active == iocg->active && inuse == iocg->inuse)
		return;

	for (int lvl = (int)iocg->level - 1; lvl >= 0; lvl--) {
		struct ios_iocg *parent = iocg->ancestors[lvl];
		struct ios_iocg *child = iocg->ancestors[lvl + 1];
		uint32_t pa = 0, pi = 0;

		parent->child_active_sum += (uint64_t)(int64_t)(int32_t)(active - child->active);
		parent->child_inuse_sum += (uint64_t)(int64_t)(int32_t)(inuse - child->inuse);
		child->active = active;
		child->inuse = inuse;
		if (parent->child_active_sum) {
			pa = parent->weight;
			pi = (uint32_t)div_round_up((uint64_t)pa * parent->child_inuse_sum,
						    parent->child_active_sum);
		}
		if (pa == parent->active && pi == parent->inuse)
			break;
		active = pa;
		inuse = pi;
	}
	ioc->weights_updated = true;
}

static void commit_weights(struct ios_iocost *ioc)
{
	if (ioc->weights_updated) {
		ioc->hweight_gen++;
		ioc->weights_updated = false;
	}
}

static void propagate_weights(struct ios_iocg *iocg, uint32_t active, uint32_t inuse, bool save,
			      const struct ioc_now *now)
{
	__propagate_weights(iocg, active, inuse, save, now);
	commit_weights(iocg->ioc);
}

/* recomputed only when a weight changed since (the generation counter) */
static void current_hweight(struct ios_iocg *iocg, uint32_t *hwap, uint32_t *hwip)
{
	int gen = iocg->ioc->hweight_gen;

	if (gen != iocg->hweight_gen) {
		uint32_t hwa = WEIGHT_ONE, hwi = WEIGHT_ONE;

		for (unsigned lvl = 0; lvl < iocg->level; lvl++) {
			const struct ios_iocg *parent = iocg->ancestors[lvl];
			const struct ios_iocg *child = iocg->ancestors[lvl + 1];
			uint64_t asum = parent->child_active_sum, isum = parent->child_inuse_sum;

			if (!asum || !isum)
				continue;
			if (asum < child->active)
				asum = child->active;
			hwa = (uint32_t)((uint64_t)hwa * child->active / asum);
			if (isum < child->inuse)
				isum = child->inuse;
			hwi = (uint32_t)((uint64_t)hwi * child->inuse / isum);
		}
		iocg->hweight_active = hwa ? hwa : 1;
		iocg->hweight_inuse = hwi ? hwi : 1;
		iocg->hweight_gen = gen;
	}
	if (hwap)
		*hwap = iocg->hweight_active;
	if (hwip)
		*hwip = iocg->hweight_inuse;
}

/* the hweight_inuse @iocg would have with inuse = active */
static uint32_t current_hweight_max(struct ios_iocg *iocg)
{
	uint32_t hwm = WEIGHT_ONE, inuse = iocg->active;

	for (int lvl = (int)iocg->level - 1; lvl >= 0; lvl--) {
		const struct ios_iocg *parent = iocg->ancestors[lvl];
		const struct ios_iocg *child = iocg->ancestors[lvl + 1];
		uint64_t isum = parent->child_inuse_sum + inuse - child->inuse;

		hwm = (uint32_t)((uint64_t)hwm * inuse / isum);
		inuse = (uint32_t)div_round_up((uint64_t)parent->active * isum,
					       parent->child_active_sum);
	}
	return hwm ? hwm : 1;
}

void ios_iocg_propagate(struct ios_iocg *iocg, uint32_t active, uint32_t inuse, bool save,
			const struct ioc_now *now, bool commit)
{
	__propagate_weights(iocg, active, inuse, save, now);
	if (commit)
		commit_weights(iocg->ioc);
}

void ios_iocg_hweight(struct ios_iocg *iocg, uint32_t *hwa, uint32_t *hwi)
{
	current_hweight(iocg, hwa, hwi);
}

static void weight_updated(struct ios_iocg *iocg, uint32_t dfl_weight, const struct ioc_now *now)
{
	uint32_t weight = iocg->cfg_weight ? iocg->cfg_weight : dfl_weight;

	if (weight != iocg->weight && iocg->active)
		propagate_weights(iocg, weight, iocg->inuse, true, now);
	iocg->weight = weight;
}

static bool iocg_activate(struct ios_iocg *iocg, uint64_t now_ns, struct ioc_now *now)
{
	struct ios_iocost *ioc = iocg->ioc;
	uint64_t vtarget;

	ioc_now(ioc, now_ns, now);
	if (iocg->on_active) {
		iocg->active_period = ioc->cur_period;
		return true;
	}
	/* I/O of an internal node whose descendants are active: as the root's */
	if (iocg->child_active_sum)
		return false;
	iocg->active_period = ioc->cur_period;
	/* leaves only: under an active ancestor the bio goes uncharged */
	for (unsigned i = iocg->level - 1; i > 0; i--)
		if (iocg->ancestors[i]->on_active)
			return false;

	/* start with the target budget; deactivation threw away anything above */
	vtarget = now->vnow - (uint64_t)ioc->margin_target;
	iocg->done_vtime += vtarget - iocg->vtime;
	iocg->vtime = vtarget;

	iocg->hweight_gen = ioc->hweight_gen - 1;
	iocg->on_active = true;
	propagate_weights(iocg, iocg->weight, iocg->last_inuse ? iocg->last_inuse : iocg->weight,
			  true, now);
	iocg->activated_at = now->now;
	if (!ioc->running) {
		ioc->running = true;
		ioc->dfgv_period_at = now->now;
		ioc->dfgv_period_rem = 0;
		ioc_start_period(ioc, now);
	}
	return true;
}

/*
 * Hand back the bios the wakes committed, once the controller's own walk
 * is over: a release may submit more I/O, which re-enters the controller.
 */
static void ioc_flush_releases(struct ios_iocost *ioc, uint64_t now_ns)
{
	struct ios_iocost_bio *b;

	while ((b = ioc->rel_head)) {
		ioc->rel_head = b->wait_next;
		if (!ioc->rel_head)
			ioc->rel_tail = &ioc->rel_head;
		b->wait_next = NULL;
		if (ioc->release)
			ioc->release(ioc->arg, b, now_ns);
	}
}

/*
 * Wake, in order, the waiters the budget covers (iocg_wake_fn stops the
 * walk at the first that does not fit), then arm the waitq timer for the
 * next one's shortage. @self, the bio being throttled, goes on without a
 * release; the others are queued for ioc_flush_releases.
 */
static void iocg_kick_waitq(struct ios_iocg *iocg, const struct ios_iocost_bio *self,
			    const struct ioc_now *now)
{
	struct ios_iocost *ioc = iocg->ioc;
	int64_t vbudget = (int64_t)(now->vnow - iocg->vtime);
	uint32_t hwa, hwi;
	uint64_t expires;

	current_hweight(iocg, &hwa, NULL);
	/* the debt is paid first; paying it in full restores hweight_inuse */
	vbudget = ios_iocg_kick_debt(iocg, vbudget, hwa, now);
	current_hweight(iocg, NULL, &hwi);
	while (iocg->wait_head) {
		struct ios_iocost_bio *b = iocg->wait_head;
		uint64_t cost = abs_cost_to_cost(b->abs_cost, hwi);

		vbudget -= (int64_t)cost;
		if (vbudget < 0)
			break;
		iocg_commit_bio(iocg, b, b->abs_cost, cost);
		b->committed = true;
		iocg->wait_head = b->wait_next;
		if (!iocg->wait_head)
			iocg->wait_tail = NULL;
		iocg->nr_waiting--;
		b->wait_next = NULL;
		if (b != self) {
			*ioc->rel_tail = b;
			ioc->rel_tail = &b->wait_next;
		}
	}

	if (!iocg->wait_head) {
		if (iocg->wait_since != NEVER) {
			iocg->wait_us += now->now - iocg->wait_since;
			iocg->wait_since = NEVER;
		}
	} else {
		if (iocg->wait_since == NEVER)
			iocg->wait_since = now->now;
		expires = now->now_ns +
			  div_round_up((uint64_t)-vbudget, ioc->vtime_base_rate) * 1000 +
			  ioc->timer_slack_ns;
		/* already armed close enough: leave it */
		if (!(iocg->waitq_timer_at != NEVER &&
		      (iocg->waitq_timer_at > expires ? iocg->waitq_timer_at - expires
						       : expires - iocg->waitq_timer_at) <=
			      ioc->timer_slack_ns))
			iocg->waitq_timer_at = expires;
	}
}

void ios_iocg_kick(struct ios_iocg *iocg, const struct ioc_now *now)
{
	iocg_kick_waitq(iocg, NULL, now);
}

static void ioc_lat_stat(struct ios_iocost *ioc, uint32_t missed_ppm[2], uint32_t *rq_wait_pct)
{
	for (int rw = 0; rw < 2; rw++) {
		uint64_t met = ioc->nr_met[rw] - ioc->last_met[rw];
		uint64_t missed = ioc->nr_missed[rw] - ioc->last_missed[rw];

		ioc->last_met[rw] = ioc->nr_met[rw];
		ioc->last_missed[rw] = ioc->nr_missed[rw];
		missed_ppm[rw] = met + missed ?
			(uint32_t)div_round_up(missed * MILLION, met + missed) : 0;
	}
	*rq_wait_pct = (uint32_t)((ioc->rq_wait_ns - ioc->last_rq_wait_ns) * 100 /
				  ((uint64_t)ioc->period_us * 1000));
	ioc->last_rq_wait_ns = ioc->rq_wait_ns;
}

static bool iocg_is_idle(const struct ios_iocg *iocg)
{
	/* issued this period, or something in flight */
	return iocg->active_period != iocg->ioc->cur_period && iocg->done_vtime == iocg->vtime;
}

/* returns the number of groups in debt or delay (nr_debtors) */
static int ioc_check_iocgs(struct ios_iocost *ioc, const struct ioc_now *now)
{
	int nr_debtors = 0;

	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		bool debtor;

		if (!iocg->on_active)
			continue;
		debtor = iocg->abs_vdebt || iocg->delay;
		if (!iocg->wait_head && !debtor && !iocg_is_idle(iocg))
			continue;
		if (iocg->wait_since != NEVER) {
			iocg->wait_us += now->now - iocg->wait_since;
			iocg->wait_since = now->now;
		}
		ios_iocg_flush_debt_stat(iocg, now);
		if (iocg->wait_head || debtor) {
			/* waiters may oversleep a vrate or hweight change; debts are paid */
			iocg_kick_waitq(iocg, NULL, now);
			nr_debtors += iocg->abs_vdebt || iocg->delay;
		} else {
			int64_t excess = (int64_t)(now->vnow - iocg->vtime) - ioc->margin_target;

			if (excess > 0) {
				uint32_t hwi;

				current_hweight(iocg, NULL, &hwi);
				ioc->vtime_err -= (int64_t)((uint64_t)excess * hwi / WEIGHT_ONE);
			}
			__propagate_weights(iocg, 0, 0, false, now);
			iocg->on_active = false;
		}
	}
	commit_weights(ioc);
	return nr_debtors;
}

/*
 * The hweight_inuse a group would keep after donating what it does not
 * use, aiming at MARGIN_TARGET at the next period's end; its budget above
 * the target is thrown away (vtime_err). @hwm: no donation.
 */
static uint32_t hweight_after_donation(struct ios_iocg *iocg, uint32_t old_hwi, uint32_t hwm,
				       uint32_t usage, const struct ioc_now *now)
{
	struct ios_iocost *ioc = iocg->ioc;
	int64_t excess, delta, target, new_hwi;

	if (iocg->abs_vdebt)
		return 1;
	if (iocg->wait_head || !vbefore(iocg->vtime, now->vnow - (uint64_t)ioc->margin_min))
		return hwm;
	excess = (int64_t)(now->vnow - iocg->vtime) - ioc->margin_target;
	if (excess > 0) {
		iocg->vtime += (uint64_t)excess;
		iocg->done_vtime += (uint64_t)excess;
		ioc->vtime_err -= (int64_t)((uint64_t)excess * old_hwi / WEIGHT_ONE);
	}
	delta = (int64_t)WEIGHT_ONE * (int64_t)(now->vnow - iocg->vtime) /
		(int64_t)(now->vnow - ioc->period_at_vtime);
	target = WEIGHT_ONE * MARGIN_TARGET_PCT / 100;
	new_hwi = (int64_t)WEIGHT_ONE * usage / (WEIGHT_ONE - target + delta);
	if (new_hwi < 1)
		new_hwi = 1;
	if (new_hwi > hwm)
		new_hwi = hwm;
	return (uint32_t)new_hwi;
}

static void ioc_timer_fn(struct ios_iocost *ioc, uint64_t now_ns)
{
	struct ioc_now now;
	int nr_shortages = 0, nr_lagging = 0, nr_debtors, nr_surpluses = 0;
	uint32_t missed_ppm[2], rq_wait_pct, ppm_rthr, ppm_wthr;
	uint64_t period_vtime, usage_us_sum = 0;

	ioc->timer_at = NEVER;
	ioc_lat_stat(ioc, missed_ppm, &rq_wait_pct);
	ppm_rthr = MILLION - ioc->qos[IOS_QOS_RPPM];
	ppm_wthr = MILLION - ioc->qos[IOS_QOS_WPPM];
	ioc_now(ioc, now_ns, &now);
	period_vtime = now.vnow - ioc->period_at_vtime;
	if (!period_vtime) {
		ioc->timer_at = period_timer_at(ioc, now_ns);
		return;
	}

	nr_debtors = ioc_check_iocgs(ioc, &now);

	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		uint64_t vdone, vtime, usage_us;
		uint32_t hw_active, hw_inuse;

		if (!iocg->on_active)
			continue;
		/* iocg_flush_stat_leaf */
		iocg->usage_delta_us = (iocg->abs_vusage - iocg->last_stat_abs_vusage) /
				       ioc->vtime_base_rate;
		iocg->last_stat_abs_vusage = iocg->abs_vusage;
		iocg->usage_us += iocg->usage_delta_us;

		vdone = iocg->done_vtime;
		vtime = iocg->vtime;
		current_hweight(iocg, &hw_active, &hw_inuse);

		/* I/Os in flight longer than a period: only with latency targets */
		if ((ppm_rthr != MILLION || ppm_wthr != MILLION) &&
		    !ioc->ctl->blkgs[i].use_delay && vbefore(vdone, vtime) &&
		    vbefore(now.vnow - MAX_LAGGING_PERIODS * period_vtime, vtime) &&
		    vbefore(vdone, now.vnow - period_vtime))
			nr_lagging++;

		usage_us = iocg->usage_delta_us;
		usage_us_sum += usage_us;
		if (hw_inuse < hw_active ||
		    (!iocg->wait_head && vbefore(vtime, now.vnow - (uint64_t)ioc->margin_low))) {
			uint32_t hwa, old_hwi, hwm, new_hwi, usage;
			uint64_t usage_dur, u;

			if (vdone != vtime) {
				uint64_t inflight_us = div_round_up(
					cost_to_abs_cost(vtime - vdone, hw_inuse), ioc->vtime_base_rate);

				if (inflight_us > usage_us)
					usage_us = inflight_us;
			}
			if (iocg->activated_at > ioc->period_at)
				usage_dur = now.now - iocg->activated_at;
			else
				usage_dur = now.now - ioc->period_at;
			if (!usage_dur)
				usage_dur = 1;
			u = div_round_up(usage_us * WEIGHT_ONE, usage_dur);
			usage = (uint32_t)(u < 1 ? 1 : u > WEIGHT_ONE ? WEIGHT_ONE : u);

			current_hweight(iocg, &hwa, &old_hwi);
			hwm = current_hweight_max(iocg);
			new_hwi = hweight_after_donation(iocg, old_hwi, hwm, usage, &now);
			if (new_hwi < hwm && hwa >= 2) {
				/* a donor: transfer_surpluses lowers its inuse below */
				iocg->hweight_donating = hwa;
				iocg->hweight_after_donation = new_hwi;
				iocg->surplus = true;
				nr_surpluses++;
			} else if (!iocg->abs_vdebt) {
				__propagate_weights(iocg, iocg->active, iocg->active, true, &now);
				nr_shortages++;
			}
		} else {
			/* genuinely short on vtime */
			nr_shortages++;
		}
	}
	if (nr_surpluses && nr_shortages)
		ios_ioc_transfer_surpluses(ioc, &now);
	for (unsigned i = 0; i < ioc->nr_iocgs; i++)
		ioc->iocgs[i].surplus = false;
	commit_weights(ioc);

	if (rq_wait_pct > RQ_WAIT_BUSY_PCT || missed_ppm[0] > ppm_rthr ||
	    missed_ppm[1] > ppm_wthr) {
		/* missing the QoS targets: slow down */
		ioc->busy_level = ioc->busy_level > 0 ? ioc->busy_level + 1 : 1;
	} else if (rq_wait_pct <= RQ_WAIT_BUSY_PCT * UNBUSY_THR_PCT / 100 &&
		   missed_ppm[0] <= ppm_rthr * UNBUSY_THR_PCT / 100 &&
		   missed_ppm[1] <= ppm_wthr * UNBUSY_THR_PCT / 100) {
		if (nr_shortages) {
			/* throttling with spare capacity; wait out long I/Os first */
			if (ioc->busy_level > 0)
				ioc->busy_level = 0;
			if (!nr_lagging)
				ioc->busy_level--;
		} else {
			/* nobody throttled: no idea how close to saturation, coast */
			ioc->busy_level = 0;
		}
	} else {
		/* inside the hysteresis */
		ioc->busy_level = 0;
	}
	if (ioc->busy_level > 1000)
		ioc->busy_level = 1000;
	if (ioc->busy_level < -1000)
		ioc->busy_level = -1000;

	ioc_adjust_base_vrate(ioc, nr_lagging);
	ioc_refresh_params(ioc, false, now_ns);
	ios_ioc_forgive_debts(ioc, usage_us_sum, nr_debtors, &now);

	ioc->last_rq_wait_pct = rq_wait_pct;
	ioc->last_missed_ppm[0] = missed_ppm[0];
	ioc->last_missed_ppm[1] = missed_ppm[1];
	ioc->last_nr_shortages = nr_shortages;
	ioc->last_nr_lagging = nr_lagging;

	ioc->cur_period++;
	{
		bool any = false;

		for (unsigned i = 0; i < ioc->nr_iocgs && !any; i++)
			any = ioc->iocgs[i].on_active;
		if (any) {
			ioc_start_period(ioc, &now);
		} else {
			ioc->busy_level = 0;
			ioc->vtime_err = 0;
			ioc->running = false;
		}
	}
	ioc_refresh_vrate(ioc, &now);
	/* not the kernel's: what iocost_monitor.py would read now (blk_iocost_monitor.c) */
	ios_ioc_monitor_record(ioc, now_ns);
}

static uint64_t adjust_inuse_and_calc_cost(struct ios_iocg *iocg, uint64_t vtime,
					   uint64_t abs_cost, const struct ioc_now *now)
{
	uint32_t hwi, adj_step, new_inuse;
	uint64_t cost;
	int64_t margin;

	current_hweight(iocg, NULL, &hwi);
	cost = abs_cost_to_cost(abs_cost, hwi);
	margin = (int64_t)(now->vnow - vtime - cost);
	if (iocg->abs_vdebt)
		return cost;
	/* raise inuse in-period only while the margin worsens */
	if (margin >= iocg->saved_margin || margin >= iocg->ioc->margin_low ||
	    iocg->inuse == iocg->active)
		return cost;
	if (!iocg->on_active)
		return cost;
	new_inuse = iocg->inuse;
	adj_step = (uint32_t)div_round_up((uint64_t)iocg->active * INUSE_ADJ_STEP_PCT, 100);
	do {
		new_inuse += adj_step;
		propagate_weights(iocg, iocg->active, new_inuse, true, now);
		current_hweight(iocg, NULL, &hwi);
		cost = abs_cost_to_cost(abs_cost, hwi);
	} while (vbefore(now->vnow, vtime + cost) && iocg->inuse != iocg->active);
	return cost;
}

static uint64_t calc_vtime_cost(const struct ios_iocg *iocg, const struct ios_iocost_bio *b,
				bool is_merge)
{
	const uint64_t *c = iocg->ioc->lcoefs;
	uint64_t pages = b->nr_sectors >> IOC_SECT_TO_PAGE_SHIFT, seek_pages = 0, cost = 0;
	int base;

	if (!b->nr_sectors)
		return 0;
	if (b->dir == IOS_READ)
		base = IOS_LC_RPAGE;
	else if (b->dir == IOS_WRITE)
		base = IOS_LC_WPAGE;
	else
		return 0;
	if (pages < 1)
		pages = 1;
	if (iocg->cursor) {
		seek_pages = b->sector > iocg->cursor ? b->sector - iocg->cursor
						       : iocg->cursor - b->sector;
		seek_pages >>= IOC_SECT_TO_PAGE_SHIFT;
	}
	/* LCOEF_*SEQIO = PAGE + 1, *RANDIO = PAGE + 2 */
	if (!is_merge)
		cost += seek_pages > LCOEF_RANDIO_PAGES ? c[base + 2] : c[base + 1];
	cost += pages * c[base];
	return cost;
}

static struct ios_iocg *iocg_of(struct ios_iocost *ioc, const struct ios_cgroup *cg)
{
	struct ios_blkg *g = ios_blkg_of(ioc->ctl, cg);

	return g ? &ioc->iocgs[g - ioc->ctl->blkgs] : NULL;
}

int ios_iocost_throttle(struct ios_iocost *ioc, struct ios_iocost_bio *b, uint64_t now_ns)
{
	struct ios_iocg *iocg;
	struct ioc_now now;
	uint64_t abs_cost, cost, vtime;

	b->cost = 0;
	b->committed = false;
	b->throttle_task = false;
	/* off until io.cost.qos enable=1; the root's bios are never charged */
	if (!ioc->enabled)
		return 0;
	iocg = iocg_of(ioc, b->cg);
	if (!iocg || !iocg->level)
		return 0;
	abs_cost = calc_vtime_cost(iocg, b, false);
	if (!abs_cost)
		return 0;
	if (!iocg_activate(iocg, now_ns, &now))
		return 0;

	iocg->cursor = b->sector + b->nr_sectors;
	vtime = iocg->vtime;
	cost = adjust_inuse_and_calc_cost(iocg, vtime, abs_cost, &now);
	if (!iocg->wait_head && !iocg->abs_vdebt && !vbefore(now.vnow, vtime + cost)) {
		iocg_commit_bio(iocg, b, abs_cost, cost);
		return 0;
	}
	if (b->issue_as_root) {
		/* it goes now, as debt paid from later budget (uncharged: cost 0) */
		ios_iocg_incur_debt(iocg, abs_cost, &now);
		b->throttle_task = ios_iocg_kick_delay(iocg, &now);
		return 0;
	}
	/* a group with waiters has its whole weight in use (debt owns a debtor's) */
	if (!iocg->abs_vdebt && iocg->inuse != iocg->active)
		propagate_weights(iocg, iocg->active, iocg->active, true, &now);

	b->abs_cost = abs_cost;
	b->wait_next = NULL;
	if (iocg->wait_tail)
		iocg->wait_tail->wait_next = b;
	else
		iocg->wait_head = b;
	iocg->wait_tail = b;
	iocg->nr_waiting++;
	/* the kick may commit it at once: then it goes on without sleeping */
	iocg_kick_waitq(iocg, b, &now);
	ioc_flush_releases(ioc, now_ns);
	return b->committed ? 0 : 1;
}

void ios_iocost_merge(struct ios_iocost *ioc, struct ios_iocost_bio *b, uint64_t rq_pos,
		   uint32_t rq_sectors, uint64_t rq_cost, uint64_t now_ns)
{
	struct ios_iocg *iocg;
	struct ioc_now now;
	uint64_t abs_cost, cost, bio_end = b->sector + b->nr_sectors;

	b->cost = 0;
	b->throttle_task = false;
	if (!ioc->enabled)
		return;
	iocg = iocg_of(ioc, b->cg);
	if (!iocg || !iocg->level)
		return;
	abs_cost = calc_vtime_cost(iocg, b, true);
	if (!abs_cost)
		return;
	ioc_now(ioc, now_ns, &now);
	cost = adjust_inuse_and_calc_cost(iocg, iocg->vtime, abs_cost, &now);
	/* a back merge into the request at the cursor moves the cursor */
	if (rq_pos < bio_end && rq_pos + rq_sectors == iocg->cursor)
		iocg->cursor = bio_end;
	if (rq_cost && !vbefore(now.vnow, iocg->vtime + cost)) {
		iocg_commit_bio(iocg, b, abs_cost, cost);
		return;
	}
	/* over budget, or into a request charged nothing: debt, if active */
	if (iocg->on_active) {
		ios_iocg_incur_debt(iocg, abs_cost, &now);
		b->throttle_task = ios_iocg_kick_delay(iocg, &now);
	} else {
		iocg_commit_bio(iocg, b, abs_cost, cost);
	}
}

void ios_iocost_done_bio(struct ios_iocost *ioc, const struct ios_iocost_bio *b)
{
	struct ios_iocg *iocg = iocg_of(ioc, b->cg);

	if (iocg && b->cost)
		iocg->done_vtime += b->cost;
}

void ios_iocost_done(struct ios_iocost *ioc, int dir, uint32_t sectors, uint64_t alloc_ns,
		  uint64_t start_ns, uint64_t now)
{
	uint64_t on_q_ns, size_nsec, pages = sectors >> IOC_SECT_TO_PAGE_SHIFT;
	int pidx;

	if (!ioc->enabled || now < alloc_ns || start_ns < alloc_ns)
		return;
	if (dir == IOS_READ)
		pidx = IOS_QOS_RLAT;
	else if (dir == IOS_WRITE)
		pidx = IOS_QOS_WLAT;
	else
		return;
	on_q_ns = now - alloc_ns;
	/* the size part of the cost is not latency the device owes */
	size_nsec = pages * ioc->lcoefs[dir == IOS_READ ? IOS_LC_RPAGE : IOS_LC_WPAGE] /
		    VTIME_PER_NSEC;
	if (on_q_ns <= size_nsec || on_q_ns - size_nsec <= (uint64_t)ioc->qos[pidx] * 1000)
		ioc->nr_met[dir]++;
	else
		ioc->nr_missed[dir]++;
	ioc->rq_wait_ns += start_ns - alloc_ns;
}

uint64_t ios_iocost_next_timer(const struct ios_iocost *ioc)
{
	uint64_t t = ioc->timer_at;

	for (unsigned i = 0; i < ioc->nr_iocgs; i++)
		if (ioc->iocgs[i].waitq_timer_at < t)
			t = ioc->iocgs[i].waitq_timer_at;
	return t;
}

void ios_iocost_timer(struct ios_iocost *ioc, uint64_t now_ns)
{
	struct ioc_now now;

	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];

		if (iocg->waitq_timer_at > now_ns)
			continue;
		/* iocg_waitq_timer_fn */
		iocg->waitq_timer_at = NEVER;
		ioc_now(ioc, now_ns, &now);
		iocg_kick_waitq(iocg, NULL, &now);
	}
	if (ioc->timer_at <= now_ns)
		ioc_timer_fn(ioc, now_ns);
	ioc_flush_releases(ioc, now_ns);
}

struct ios_iocost *ios_iocost_create(struct ios_blkcg_ctl *ctl, const struct ios_iocost_dev *dev,
			       ios_iocost_release_fn release, void *arg, uint64_t now_ns)
{
	struct ios_iocost *ioc = calloc(1, sizeof(*ioc));
	struct ioc_now now;

	if (!ioc)
		return NULL;
	ioc->ctl = ctl;
	ioc->dev = *dev;
	ioc->release = release;
	ioc->arg = arg;
	ioc->timer_at = NEVER;
	ioc->rel_tail = &ioc->rel_head;
	ioc->vtime_base_rate = ioc->vtime_rate = VTIME_PER_USEC;
	ioc->period_at = now_ns / 1000;
	ioc->autop_idx = IOS_AUTOP_INVALID;
	ioc_refresh_params(ioc, true, now_ns);

	ioc->nr_iocgs = ctl ? ctl->nr_blkgs : 0;
	ioc->iocgs = calloc(ioc->nr_iocgs ? ioc->nr_iocgs : 1, sizeof(*ioc->iocgs));
	if (!ioc->iocgs) {
		free(ioc);
		return NULL;
	}
	ioc_now(ioc, now_ns, &now);
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		const struct ios_blkg *g = &ctl->blkgs[i];

		iocg->ioc = ioc;
		iocg->level = g->level;
		iocg->ancestors = calloc(g->level + 1, sizeof(*iocg->ancestors));
		if (!iocg->ancestors) {
			ios_iocost_destroy(ioc);
			return NULL;
		}
		for (const struct ios_blkg *t = g; t; t = t->parent)
			iocg->ancestors[t->level] = &ioc->iocgs[t - ctl->blkgs];
		iocg->vtime = iocg->done_vtime = now.vnow;
		iocg->active_period = ioc->cur_period;
		iocg->hweight_active = iocg->hweight_inuse = WEIGHT_ONE;
		iocg->waitq_timer_at = NEVER;
		iocg->wait_since = NEVER;
		iocg->indebt_since = iocg->indelay_since = NEVER;
		iocg->weight = IOS_CGROUP_WEIGHT_DFL * WEIGHT_ONE;
	}
	return ioc;
}

void ios_iocost_destroy(struct ios_iocost *ioc)
{
	if (!ioc)
		return;
	for (unsigned i = 0; i < ioc->nr_iocgs; i++)
		free(ioc->iocgs[i].ancestors);
	free(ioc->iocgs);
	ios_iocost_log_free(ioc->mon);
	free(ioc);
}

void ios_iocost_configure(struct ios_iocost *ioc, const struct ios_cgroup_v2 *root, uint64_t now_ns)
{
	const struct ioc_params *p = &autop[ioc->autop_idx];
	struct ioc_now now;

	if (root) {
		const struct ios_iocost_qos *q = &root->qos;
		const struct ios_iocost_model *m = &root->model;

		/* ioc_qos_write: the given keys over the parameters in force */
		ioc->enabled = q->enable;
		ioc->user_qos_params = q->user;
		if (q->user) {
			for (int k = 0; k < IOS_QOS_NR; k++)
				ioc->qos[k] = q->given & (1u << k) ? q->qos[k] : p->qos[k];
		}
		ioc->user_cost_model = m->user;
		if (m->user) {
			for (int k = 0; k < IOS_LCOEF_NR; k++)
				ioc->i_lcoefs[k] = m->given & (1u << k) ? m->lcoef[k] : p->i_lcoefs[k];
		}
	}
	ioc_refresh_params(ioc, true, now_ns);

	/* ioc_weight_write -> weight_updated, for every group */
	ioc_now(ioc, now_ns, &now);
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		const struct ios_cgroup_v2 *v = ioc->ctl->blkgs[i].cgroup->v2;
		uint32_t dfl = (v ? v->weight : IOS_CGROUP_WEIGHT_DFL) * WEIGHT_ONE;

		iocg->cfg_weight = v ? v->weight_dev * WEIGHT_ONE : 0;
		weight_updated(iocg, dfl, &now);
	}
}

const uint64_t *ios_iocost_autop_lcoefs(enum ios_iocost_autop idx)
{
	return idx > IOS_AUTOP_INVALID && idx < IOS_AUTOP_NR ? autop[idx].i_lcoefs : NULL;
}

const uint32_t *ios_iocost_autop_qos(enum ios_iocost_autop idx)
{
	return idx > IOS_AUTOP_INVALID && idx < IOS_AUTOP_NR ? autop[idx].qos : NULL;
}

void ios_iocost_state(const struct ios_iocost *ioc, uint64_t now_ns, struct ios_iocost_state *s)
{
	struct ioc_now now;

	memset(s, 0, sizeof(*s));
	ioc_now(ioc, now_ns, &now);
	s->enabled = ioc->enabled;
	s->running = ioc->running;
	s->autop = (enum ios_iocost_autop)ioc->autop_idx;
	s->period_us = ioc->period_us;
	s->vrate = ioc->vtime_base_rate;
	/* DIV64_U64_ROUND_CLOSEST(vtime_base_rate * 10000, VTIME_PER_USEC) */
	s->vrate_pct_x100 = (uint32_t)((ioc->vtime_base_rate * 10000 + VTIME_PER_USEC / 2) /
				       VTIME_PER_USEC);
	s->busy_level = ioc->busy_level;
	s->cur_period = ioc->cur_period;
	memcpy(s->lcoefs, ioc->lcoefs, sizeof(s->lcoefs));
	memcpy(s->qos, ioc->qos, sizeof(s->qos));
	s->vrate_min = ioc->vrate_min;
	s->vrate_max = ioc->vrate_max;
	s->rq_wait_pct = ioc->last_rq_wait_pct;
	s->missed_ppm[0] = ioc->last_missed_ppm[0];
	s->missed_ppm[1] = ioc->last_missed_ppm[1];
	s->nr_shortages = ioc->last_nr_shortages;
	s->nr_lagging = ioc->last_nr_lagging;
	s->vnow = now.vnow;
	s->period_at_us = ioc->period_at;
	s->vtime_err = ioc->vtime_err;
}

int ios_iocg_state(struct ios_iocost *ioc, const struct ios_cgroup *cg, struct ios_iocg_state *s)
{
	struct ios_iocg *iocg = iocg_of(ioc, cg);

	memset(s, 0, sizeof(*s));
	if (!iocg)
		return -1;
	current_hweight(iocg, &s->hweight_active, &s->hweight_inuse);
	s->active = iocg->on_active;
	s->level = iocg->level;
	s->weight = iocg->weight;
	s->active_w = iocg->active;
	s->inuse = iocg->inuse;
	s->vtime = iocg->vtime;
	s->done_vtime = iocg->done_vtime;
	s->cursor = iocg->cursor;
	s->nr_waiting = iocg->nr_waiting;
	s->wait_timer_at = iocg->waitq_timer_at;
	s->wait_us = iocg->wait_us;
	s->usage_us = iocg->usage_us;
	s->abs_vdebt = iocg->abs_vdebt;
	s->delay_us = iocg->delay;
	s->indebt_us = iocg->indebt_us;
	s->indelay_us = iocg->indelay_us;
	return 0;
}
