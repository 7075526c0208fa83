/*
 * io.prio.class: a cgroup's I/O priority policy, applied to each bio its
 * tasks submit, after Linux 6.12 block/blk-ioprio.c (blkcg_set_ioprio, read
 * at index id 159150962: the 6.10+ form with the policy on the blkcg only;
 * 6.6's form, id 40069653367, keeps per-blkg data but computes the same).
 *
 * Called from bio_set_ioprio once the bio has its task's priority
 * (mq.c mq_bio_set_ioprio). The policy is the bio's own cgroup's: it is
 * not inherited from a parent, and a child without a policy changes
 * nothing (the kernel's blkcg_to_ioprio_blkcg reads the bio's blkcg).
 *
 *  - promote-to-rt (and its alias none-to-rt): a bio whose class is not RT
 *    becomes RT level 4 (the level an RT task of nice 0 has); an RT bio
 *    keeps its level, so ioprio_set() can still ask for a higher one;
 *  - restrict-to-be, idle: the numerically larger of the bio's priority and
 *    (policy << 13 | 0) wins, i.e. the lower priority: restrict-to-be
 *    turns NONE and RT into BE level 0 and leaves BE and IDLE bios alone;
 *    idle turns every bio IDLE level 0 (IDLE keeps its level).
 *
 * Who reads the result in 6.12: mq-deadline (the class: dd_rq_ioclass),
 * and the merge code, which never merges bios or requests of different
 * priorities (blk_mq's rq_mergeable checks, merge.c here). kyber and none
 * read nothing. BFQ 6.12 takes its queues' class and level from the
 * task's io_context (bfq_check_ioprio_change reads bic->icq.ioc->ioprio,
 * gregkh/linux 10d525b98aaa), not from the bio, so io.prio.class changes
 * only merging under bfq-6.12 (docs/cgroup-v2.md "io.prio.class").
 *
 * Writeback: the kernel's flusher bios carry the dirtying cgroup's blkg
 * (cgroup writeback), so the policy reaches them; here flusher bios are
 * charged to the root until writeback attribution (plan step 7a) gives
 * them their dirtier's cgroup, and the root's policy applies to them.
 */
#include "block_int.h"
#include "blkcg_int.h"

void ios_blkcg_set_ioprio(const struct ios_cgroup *cg, struct ios_bio *bio)
{
	int policy = cg && cg->v2 ? cg->v2->prio_policy : IOS_PRIO_NO_CHANGE;
	int prio;

	if (policy == IOS_PRIO_NO_CHANGE)
		return;
	if (policy == IOS_PRIO_PROMOTE_TO_RT || policy == IOS_PRIO_NONE_TO_RT) {
		if (((bio->ioprio >> 13) & 7) != IOS_IOPRIO_CLASS_RT)
			bio->ioprio = IOS_IOPRIO_CLASS_RT << 13 | 4;
		return;
	}
	/* IOPRIO_PRIO_VALUE(policy, 0): the policy numbers are the classes */
	prio = policy << 13;
	if (prio > bio->ioprio)
		bio->ioprio = prio;
}
