/*
 * BFQ's release profiles (struct bfq_profile in bfq_int.h): what each
 * release of block/bfq-iosched.c does where the two differ. The code in
 * bfq*.c tests these names, never a release.
 *
 *   bfq (alias bfq-4.19)  Linux 4.19 as released, on the single-queue layer:
 *                         the profile the seeds' reports were made with
 *   bfq-6.12              Linux 6.12, on blk-mq
 *
 * The 6.12 source read is block/bfq-iosched.c of gregkh/linux (commit
 * 10d525b98aaa), dated by its API to 6.12.y-stable or 6.13/6.14: it has
 * blk_time_get_ns (6.9+), bfq_waker_bfqq and bfq_merge_bfqqs returning the
 * merged queue (Yu Kuai's merge-chain fixes, 6.12-rc), bfqq_request_over_limit
 * taking the bic (the bfq_limit_depth use-after-free fix, 6.13 and 6.12.y),
 * and still hrtimer_init (replaced by hrtimer_setup in 6.15) and per-word
 * shallow depths (whole-map depths came with 6.17). None of the mechanisms
 * named here changed between 6.12 and that tree. docs/bfq.md has the
 * fidelity table per release.
 */
#include "bfq_int.h"

const struct bfq_profile ios_bfq_profile_419 = {
	.release = "4.19",
	/* the single-queue layer has no tags: its request lists are sized by nr_requests */
	.tag_caps = false,
	/* injection arrived in 5.2 (Paolo Valente, 2019); 4.19.y got parts by backport */
	.injection = false,
	/* waker detection arrived in 5.3 and took its 6.x form in 5.14 */
	.wakers = false,
	/* stable merge arrived in 5.13 */
	.stable_merge = false,
	/* 4.19's bfq_setup_cooperator merges on every device */
	.eqm_off_nonrot_queueing = false,
	/* the idling rules as 4.19.1 has them (bfq_better_to_idle and its helpers) */
	.asymmetric_612 = false,
	.idle_guarantees_612 = false,
	.wr_idle_floor = false,
	.small_rq_idle_612 = false,
	.hw_tag_612 = false,
	.preempt_612 = false,
	/* 4.19 has no tags to cap */
	.cgroup_request_cap = false,
	.async_charge_asym = false,
	/* 4.19.1's __bfq_deactivate_entity; 4.19.y got the 4.20 change by backport */
	.deact_charge_service = false,
};

const struct bfq_profile ios_bfq_profile_612 = {
	.release = "6.12",
	.tag_caps = true,
	.injection = true,
	.wakers = true,
	.stable_merge = true,
	.eqm_off_nonrot_queueing = true,
	.asymmetric_612 = true,
	.idle_guarantees_612 = true,
	.wr_idle_floor = true,
	.small_rq_idle_612 = true,
	.hw_tag_612 = true,
	.preempt_612 = true,
	.cgroup_request_cap = true,
	.async_charge_asym = true,
	.deact_charge_service = true,
};
