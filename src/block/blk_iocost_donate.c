/*
 * io.cost step 4b (docs/cgroup-v2-plan.md §12): what Linux 6.12
 * block/blk-iocost.c does with budget a group does not use and with I/O it
 * cannot refuse. Read in the code index's copy id 8033186 (6.10-6.12, see
 * blk_iocost.c).
 *
 * Donation (transfer_surpluses, the 5.10 rewrite): at the period timer a
 * group using less than its share (hweight_after_donation below its
 * current_hweight_max) lowers its inuse weight so that its siblings in
 * need get the rest. The kernel's method works in absolute budgets
 * (hweights): b, the budget of a subtree, t its donating part, f the rest.
 * The donating budget and the after-donation budget are summed up the
 * tree; gamma = (1 - t'_root) / (1 - t_root) is the rate by which every
 * non-donating budget grows; each inner node gets its new hweight_inuse
 * (gamma * b_f + b'_t) and an adjusted sum of its children's weights, from
 * which each donor's new inuse follows (w' = s'_parent * b' / b'_parent).
 * Nothing else moves: a donor snaps back by itself when its demand returns
 * (adjust_inuse_and_calc_cost raises inuse in steps of 25 % while its
 * margin worsens; a group with waiters or found short at the timer gets
 * inuse = active: blk_iocost.c).
 *
 * Debt (iocg_incur_debt, iocg_pay_debt): a bio that must not wait (issue
 * as root: REQ_META; REQ_SWAP has no lab counterpart) and a merge over
 * budget go at once and their absolute cost becomes debt; the debtor's
 * inuse drops to the minimum (1) until the debt is paid, which
 * iocg_kick_waitq does first, from whatever budget vtime gives, before
 * any waiter is woken. A bio issued as debt carries no cost (done_bio adds
 * nothing; the payment advances vtime and done_vtime together).
 *
 * Delay (iocg_kick_delay): how far vtime plus the debt runs ahead of vnow,
 * in periods: from 5 periods (500 %) to 250 periods (25000 %) the delay
 * grows linearly from 250 µs to 250 ms; the delay in force halves every
 * second since it was set, and the larger of the two wins. It is set on
 * the group's blkg outright (blkcg_set_delay: use_delay -1, neither
 * decayed nor capped by blk_cgroup.c) and the submitting task sleeps it on
 * its return to user space (blkcg_schedule_throttle, through
 * throttle_task; kernel threads never); under 250 µs it is cleared.
 *
 * Forgiveness (ioc_forgive_debts): while some group is in debt or delay,
 * the usage of all active groups is summed; after each DFGV_PERIOD
 * (100 ms) with average usage at most 50 % (a device missing its targets,
 * busy_level > 0, counts as a full period), every debt and delay is
 * shifted right once per 100 ms elapsed (the remainder carried), to at
 * least 1, and the group is kicked.
 *
 * Not modelled: REQ_SWAP and fatal signals (use_debt's other causes), the
 * use_memdelay flag (PSI), io.stat's upward flush of indebt/indelay times.
 */
#include "blk_iocost_int.h"
#include "blkcg_int.h"

enum {
	WEIGHT_ONE = IOS_IOCOST_WEIGHT_ONE,
	USEC_PER_SEC = 1000000,
	MIN_DELAY_THR_PCT = 500,
	MAX_DELAY_THR_PCT = 25000,
	MIN_DELAY = 250,			/* µs */
	MAX_DELAY = 250 * 1000,
	DFGV_USAGE_PCT = 50,
	DFGV_PERIOD = 100 * 1000,		/* µs */
};

static struct ios_blkg *iocg_blkg(struct ios_iocg *iocg)
{
	return &iocg->ioc->ctl->blkgs[iocg - iocg->ioc->iocgs];
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/*
 * The sum of the donors' after-donation hweights may reach WEIGHT_ONE
 * (round-ups); then those above their hweight_active are scaled down
 * together to keep the sum below it.
 */
static void donate_trim_over(struct ios_iocost *ioc)
{
	uint32_t after_sum = 0, over_sum = 0, over_target, hwa;

	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];

		if (!iocg->surplus)
			continue;
		ios_iocg_hweight(iocg, &hwa, NULL);
		after_sum += iocg->hweight_after_donation;
		if (iocg->hweight_after_donation > hwa)
			over_sum += iocg->hweight_after_donation;
	}
	if (after_sum < WEIGHT_ONE || !over_sum)
		return;
	over_target = over_sum - (after_sum - (WEIGHT_ONE - 1));
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];

		if (!iocg->surplus)
			continue;
		ios_iocg_hweight(iocg, &hwa, NULL);
		if (iocg->hweight_after_donation > hwa)
			iocg->hweight_after_donation =
				(uint32_t)((uint64_t)iocg->hweight_after_donation * over_target /
					   over_sum);
	}
}

/*
 * Group ids put every parent before its children, so walking the marked
 * inner nodes in id order is the kernel's pre-order inner walk, and in
 * reverse order its bottom-up walk.
 */
void ios_ioc_transfer_surpluses(struct ios_iocost *ioc, const struct ioc_now *now)
{
	struct ios_iocg *root = &ioc->iocgs[0];
	uint64_t gamma;

	donate_trim_over(ioc);

	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];

		if (!iocg->surplus)
			continue;
		for (unsigned lvl = 0; lvl < iocg->level; lvl++)
			iocg->ancestors[lvl]->walk = true;
	}
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];

		if (iocg->walk) {
			iocg->child_adjusted_sum = 0;
			iocg->hweight_donating = 0;
			iocg->hweight_after_donation = 0;
		}
	}

	/* b_t and b'_t up the tree: donors into their parents, then inner nodes */
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		struct ios_iocg *parent;

		if (!iocg->surplus)
			continue;
		parent = iocg->ancestors[iocg->level - 1];
		parent->hweight_donating += iocg->hweight_donating;
		parent->hweight_after_donation += iocg->hweight_after_donation;
	}
	for (unsigned i = ioc->nr_iocgs; i-- > 1;) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		struct ios_iocg *parent;

		if (!iocg->walk)
			continue;
		parent = iocg->ancestors[iocg->level - 1];
		parent->hweight_donating += iocg->hweight_donating;
		parent->hweight_after_donation += iocg->hweight_after_donation;
	}

	/* inner nodes' b (hweight_active), and the sums kept in range */
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];

		if (!iocg->walk)
			continue;
		if (iocg->level) {
			const struct ios_iocg *parent = iocg->ancestors[iocg->level - 1];

			iocg->hweight_active = (uint32_t)div_round_up(
				(uint64_t)parent->hweight_active * iocg->active,
				parent->child_active_sum);
		}
		iocg->hweight_donating = min_u32(iocg->hweight_donating, iocg->hweight_active);
		iocg->hweight_after_donation = min_u32(iocg->hweight_after_donation,
						       iocg->hweight_donating - 1);
	}

	/* gamma = (1 - t'_r) / (1 - t_r), the growth of non-donating budgets */
	gamma = div_round_up((uint64_t)(WEIGHT_ONE - root->hweight_after_donation) * WEIGHT_ONE,
			     WEIGHT_ONE - min_u32(root->hweight_donating, WEIGHT_ONE - 1));

	/* inner nodes: b' = gamma * b_f + b'_t, w' and the children's adjusted sum s' */
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		const struct ios_iocg *parent;
		uint64_t st, sf, wpt, wptp;
		uint32_t inuse;

		if (!iocg->walk)
			continue;
		if (!iocg->level) {
			iocg->child_adjusted_sum = div_round_up(
				iocg->child_active_sum * (WEIGHT_ONE - iocg->hweight_donating),
				WEIGHT_ONE - iocg->hweight_after_donation);
			continue;
		}
		parent = iocg->ancestors[iocg->level - 1];
		iocg->hweight_inuse = (uint32_t)(div_round_up(
			gamma * (iocg->hweight_active - iocg->hweight_donating), WEIGHT_ONE) +
			iocg->hweight_after_donation);
		inuse = (uint32_t)div_round_up(parent->child_adjusted_sum * iocg->hweight_inuse,
					       parent->hweight_inuse);
		st = div_round_up(iocg->child_active_sum * iocg->hweight_donating,
				  iocg->hweight_active);
		sf = iocg->child_active_sum - st;
		wpt = div_round_up((uint64_t)iocg->active * iocg->hweight_donating,
				   iocg->hweight_active);
		wptp = div_round_up((uint64_t)inuse * iocg->hweight_after_donation,
				    iocg->hweight_inuse);
		iocg->child_adjusted_sum = sf + div_round_up(st * wptp, wpt);
	}

	/* the donors' inuse: w' = s'_parent * b' / b'_parent; debt owns a debtor's */
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];
		const struct ios_iocg *parent;
		uint32_t inuse;

		if (!iocg->surplus || iocg->abs_vdebt)
			continue;
		parent = iocg->ancestors[iocg->level - 1];
		inuse = (uint32_t)div_round_up(parent->child_adjusted_sum *
						       iocg->hweight_after_donation,
					       parent->hweight_inuse);
		ios_iocg_propagate(iocg, iocg->active, inuse, true, now, false);
	}
	for (unsigned i = 0; i < ioc->nr_iocgs; i++)
		ioc->iocgs[i].walk = false;
}

void ios_iocg_incur_debt(struct ios_iocg *iocg, uint64_t abs_cost, const struct ioc_now *now)
{
	/* in debt, the group keeps the minimum inuse, donating all its share */
	if (!iocg->abs_vdebt && abs_cost) {
		iocg->indebt_since = now->now;
		ios_iocg_propagate(iocg, iocg->active, 0, false, now, true);
	}
	iocg->abs_vdebt += abs_cost;
	iocg->abs_vusage += abs_cost;
}

void ios_iocg_pay_debt(struct ios_iocg *iocg, uint64_t abs_vpay, const struct ioc_now *now)
{
	iocg->abs_vdebt -= abs_vpay < iocg->abs_vdebt ? abs_vpay : iocg->abs_vdebt;
	if (iocg->abs_vdebt)
		return;
	/* paid in full: the inuse from before the debt comes back */
	if (iocg->indebt_since != IOC_NEVER)
		iocg->indebt_us += now->now - iocg->indebt_since;
	iocg->indebt_since = IOC_NEVER;
	ios_iocg_propagate(iocg, iocg->active, iocg->last_inuse, false, now, true);
}

bool ios_iocg_kick_delay(struct ios_iocg *iocg, const struct ioc_now *now)
{
	struct ios_iocost *ioc = iocg->ioc;
	struct ios_blkg *blkg = iocg_blkg(iocg);
	uint64_t shift, delay, new_delay;
	int64_t vover, vover_pct;
	uint32_t hwa;

	/* set later than @now (the kernel: by another CPU): nothing to do */
	if (now->now < iocg->delay_at)
		return false;
	/* the delay in force, halved per second since it was set */
	shift = (now->now - iocg->delay_at) / USEC_PER_SEC;
	delay = iocg->delay && shift < 64 ? iocg->delay >> shift : 0;

	/* the delay the debt asks for: how many periods vtime + debt runs ahead */
	ios_iocg_hweight(iocg, &hwa, NULL);
	vover = (int64_t)(iocg->vtime + abs_cost_to_cost(iocg->abs_vdebt, hwa) - now->vnow);
	vover_pct = 100 * vover / (int64_t)((uint64_t)ioc->period_us * ioc->vtime_base_rate);
	if (vover_pct <= MIN_DELAY_THR_PCT)
		new_delay = 0;
	else if (vover_pct >= MAX_DELAY_THR_PCT)
		new_delay = MAX_DELAY;
	else
		new_delay = MIN_DELAY + (uint64_t)(MAX_DELAY - MIN_DELAY) *
					(uint64_t)(vover_pct - MIN_DELAY_THR_PCT) /
					(MAX_DELAY_THR_PCT - MIN_DELAY_THR_PCT);
	if (new_delay > delay) {
		iocg->delay = new_delay;
		iocg->delay_at = now->now;
		delay = new_delay;
	}

	if (delay >= MIN_DELAY) {
		if (iocg->indelay_since == IOC_NEVER)
			iocg->indelay_since = now->now;
		ios_blkcg_set_delay(blkg, delay * 1000);
		return true;
	}
	if (iocg->indelay_since != IOC_NEVER) {
		iocg->indelay_us += now->now - iocg->indelay_since;
		iocg->indelay_since = IOC_NEVER;
	}
	iocg->delay = 0;
	ios_blkcg_clear_delay(blkg);
	return false;
}

int64_t ios_iocg_kick_debt(struct ios_iocg *iocg, int64_t vbudget, uint32_t hwa,
			   const struct ioc_now *now)
{
	if (iocg->abs_vdebt && vbudget > 0) {
		uint64_t abs_vpay = cost_to_abs_cost((uint64_t)vbudget, hwa), vpay;

		if (abs_vpay > iocg->abs_vdebt)
			abs_vpay = iocg->abs_vdebt;
		vpay = abs_cost_to_cost(abs_vpay, hwa);
		iocg->vtime += vpay;
		iocg->done_vtime += vpay;
		ios_iocg_pay_debt(iocg, abs_vpay, now);
		vbudget -= (int64_t)vpay;
	}
	if (iocg->abs_vdebt || iocg->delay)
		ios_iocg_kick_delay(iocg, now);
	/* no waiter wakes while a debt remains */
	if (iocg->abs_vdebt) {
		int64_t left = vbudget - (int64_t)abs_cost_to_cost(iocg->abs_vdebt, hwa);

		vbudget = left < 0 ? left : 0;
	}
	return vbudget;
}

void ios_iocg_flush_debt_stat(struct ios_iocg *iocg, const struct ioc_now *now)
{
	if (iocg->indebt_since != IOC_NEVER) {
		iocg->indebt_us += now->now - iocg->indebt_since;
		iocg->indebt_since = now->now;
	}
	if (iocg->indelay_since != IOC_NEVER) {
		iocg->indelay_us += now->now - iocg->indelay_since;
		iocg->indelay_since = now->now;
	}
}

void ios_ioc_forgive_debts(struct ios_iocost *ioc, uint64_t usage_us_sum, int nr_debtors,
			   const struct ioc_now *now)
{
	uint64_t dur, usage_pct, nr_cycles, shift;

	/* no debtor: the window starts over */
	if (!nr_debtors) {
		ioc->dfgv_period_at = now->now;
		ioc->dfgv_period_rem = 0;
		ioc->dfgv_usage_us_sum = 0;
		return;
	}
	/* a device missing its targets counts as fully used */
	if (ioc->busy_level > 0 && usage_us_sum < ioc->period_us)
		usage_us_sum = ioc->period_us;
	ioc->dfgv_usage_us_sum += usage_us_sum;
	if ((int64_t)(now->now - (ioc->dfgv_period_at + DFGV_PERIOD)) < 0)
		return;

	dur = now->now - ioc->dfgv_period_at;
	usage_pct = 100 * ioc->dfgv_usage_us_sum / dur;
	ioc->dfgv_period_at = now->now;
	ioc->dfgv_usage_us_sum = 0;
	if (usage_pct > DFGV_USAGE_PCT) {
		ioc->dfgv_period_rem = 0;
		return;
	}
	/* one halving per DFGV_PERIOD elapsed, the remainder carried over */
	nr_cycles = (dur + ioc->dfgv_period_rem) / DFGV_PERIOD;
	ioc->dfgv_period_rem = (dur + ioc->dfgv_period_rem) % DFGV_PERIOD;
	shift = nr_cycles < 63 ? nr_cycles : 63;
	for (unsigned i = 0; i < ioc->nr_iocgs; i++) {
		struct ios_iocg *iocg = &ioc->iocgs[i];

		if (!iocg->on_active || (!iocg->abs_vdebt && !iocg->delay))
			continue;
		if (iocg->abs_vdebt) {
			iocg->abs_vdebt >>= shift;
			if (!iocg->abs_vdebt)
				iocg->abs_vdebt = 1;
		}
		if (iocg->delay) {
			iocg->delay >>= shift;
			if (!iocg->delay)
				iocg->delay = 1;
		}
		ios_iocg_kick(iocg, now);
	}
}
