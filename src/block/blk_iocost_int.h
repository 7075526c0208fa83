/*
 * io.cost's private state, shared by blk_iocost.c (the 4a core) and
 * blk_iocost_donate.c (step 4b: donation, debt, delay, forgiveness), and
 * by nothing else. Linux 6.12 block/blk-iocost.c keeps the same in struct
 * ioc and struct ioc_gq; the names follow the kernel's.
 */
#ifndef IOSCHED_BLK_IOCOST_INT_H
#define IOSCHED_BLK_IOCOST_INT_H

#include "block/blk_iocost.h"

#define IOC_NEVER	UINT64_MAX

struct ios_iocg {
	struct ios_iocost *ioc;
	unsigned level;
	struct ios_iocg **ancestors;		/* [0] the root .. [level] self */
	uint32_t cfg_weight, weight, active, inuse, last_inuse;
	int64_t saved_margin;
	uint64_t cursor;			/* sector; 0: none yet */
	uint64_t vtime, done_vtime;
	uint64_t active_period;
	bool on_active;
	uint64_t child_active_sum, child_inuse_sum;
	int hweight_gen;
	uint32_t hweight_active, hweight_inuse;
	struct ios_iocost_bio *wait_head, *wait_tail;
	unsigned nr_waiting;
	uint64_t waitq_timer_at;		/* ns; IOC_NEVER: not queued */
	uint64_t activated_at;			/* µs */
	uint64_t abs_vusage, last_stat_abs_vusage, usage_delta_us;
	uint64_t usage_us, wait_us, wait_since;	/* wait_since IOC_NEVER: not waiting */
	/* step 4b: debt and its delay (blk_iocost_donate.c) */
	uint64_t abs_vdebt;
	uint64_t delay, delay_at;		/* µs: the delay in effect, when set */
	uint64_t indebt_since, indelay_since;	/* µs; IOC_NEVER: not (§13 R4) */
	uint64_t indebt_us, indelay_us;		/* iocg_stat */
	/* transfer_surpluses' scratch (the kernel's surplus_list, walk_list) */
	bool surplus, walk;
	uint32_t hweight_donating, hweight_after_donation;
	uint64_t child_adjusted_sum;
};

struct ioc_now {
	uint64_t now_ns, now, vnow;
};

struct ios_iocost {
	struct ios_blkcg_ctl *ctl;
	struct ios_iocost_dev dev;
	ios_iocost_release_fn release;
	void *arg;
	bool enabled, user_qos_params, user_cost_model;
	uint32_t qos[IOS_QOS_NR];
	uint64_t i_lcoefs[IOS_LCOEF_NR], lcoefs[IOS_LC_NR];
	int64_t margin_min, margin_low, margin_target;
	uint32_t period_us, timer_slack_ns;
	uint64_t vrate_min, vrate_max;
	bool running;
	uint64_t timer_at;			/* ns; IOC_NEVER: not armed */
	uint64_t vtime_rate, vtime_base_rate;
	int64_t vtime_err;
	uint64_t period_at, period_at_vtime;	/* µs, vtime */
	uint64_t cur_period;
	int busy_level;
	bool weights_updated;
	int hweight_gen;
	uint64_t autop_too_fast_at, autop_too_slow_at;
	int autop_idx;
	/* ioc_pcpu_stat, one CPU */
	uint64_t nr_met[2], nr_missed[2], last_met[2], last_missed[2];
	uint64_t rq_wait_ns, last_rq_wait_ns;
	/* the last period's signals, for the state view */
	uint32_t last_rq_wait_pct, last_missed_ppm[2];
	int last_nr_shortages, last_nr_lagging;
	/* ioc_forgive_debts' window (step 4b) */
	uint64_t dfgv_period_at, dfgv_period_rem, dfgv_usage_us_sum;	/* µs */
	struct ios_iocg *iocgs;
	unsigned nr_iocgs;
	/* committed waiters not yet handed back (ioc_flush_releases) */
	struct ios_iocost_bio *rel_head, **rel_tail;
	/* the monitor's records (blk_iocost_monitor.c); mon_oom: none could be made */
	struct ios_iocost_log *mon;
	size_t mon_alloc;
	bool mon_oom;
};

static inline uint64_t div_round_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* time_before64/time_after64 over the wrapping vtime clock */
static inline bool vbefore(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

static inline uint64_t abs_cost_to_cost(uint64_t abs_cost, uint32_t hw_inuse)
{
	return div_round_up(abs_cost * IOS_IOCOST_WEIGHT_ONE, hw_inuse);
}

static inline uint64_t cost_to_abs_cost(uint64_t cost, uint32_t hw_inuse)
{
	return div_round_up(cost * hw_inuse, IOS_IOCOST_WEIGHT_ONE);
}

/* ---- the core's, for blk_iocost_donate.c (blk_iocost.c) ---- */

/* __propagate_weights, then commit_weights when @commit */
void ios_iocg_propagate(struct ios_iocg *iocg, uint32_t active, uint32_t inuse, bool save,
			const struct ioc_now *now, bool commit);
/* current_hweight */
void ios_iocg_hweight(struct ios_iocg *iocg, uint32_t *hwa, uint32_t *hwi);
/* iocg_kick_waitq(pay_debt = true) from a timer: releases are queued */
void ios_iocg_kick(struct ios_iocg *iocg, const struct ioc_now *now);

/* ---- step 4b (blk_iocost_donate.c) ---- */

/* transfer_surpluses: the donors (iocg->surplus) lower their inuse */
void ios_ioc_transfer_surpluses(struct ios_iocost *ioc, const struct ioc_now *now);
/* iocg_incur_debt, iocg_pay_debt */
void ios_iocg_incur_debt(struct ios_iocg *iocg, uint64_t abs_cost, const struct ioc_now *now);
void ios_iocg_pay_debt(struct ios_iocg *iocg, uint64_t abs_vpay, const struct ioc_now *now);
/*
 * iocg_kick_waitq's debt part: pay what @vbudget covers (vtime and
 * done_vtime advance), kick the delay, and return the budget left for
 * waiters (never positive while a debt remains).
 */
int64_t ios_iocg_kick_debt(struct ios_iocg *iocg, int64_t vbudget, uint32_t hwa,
			   const struct ioc_now *now);
/* ioc_check_iocgs' flush of the indebt / indelay times */
void ios_iocg_flush_debt_stat(struct ios_iocg *iocg, const struct ioc_now *now);
/* iocg_kick_delay: true when the task should be throttled on return */
bool ios_iocg_kick_delay(struct ios_iocg *iocg, const struct ioc_now *now);
/* ioc_forgive_debts, at the end of ioc_timer_fn */
void ios_ioc_forgive_debts(struct ios_iocost *ioc, uint64_t usage_us_sum, int nr_debtors,
			   const struct ioc_now *now);

/* ---- the monitor (blk_iocost_monitor.c) ---- */

/* one record at the end of ioc_timer_fn's period */
void ios_ioc_monitor_record(struct ios_iocost *ioc, uint64_t now_ns);

#endif
