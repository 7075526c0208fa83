/*
 * io.max (blk-throttle) for src/block/ and src/run/ (issue 30 step 3,
 * docs/cgroup-v2-plan.md §2.1, §12). The controller is src/block/
 * blk_throttle.c; the core reaches it through struct ios_blk_throtl_ops
 * (blkcg_int.h). What differs between the releases it follows is a
 * profile, chosen by lab.kernel.
 */
#ifndef IOSCHED_BLK_THROTTLE_H
#define IOSCHED_BLK_THROTTLE_H

#include <stdbool.h>
#include <stdint.h>
#include "blkcg_int.h"

struct ios_throtl_profile {
	const char *release;		/* "6.12", "6.6" */
	/* blk_throtl_init (6.10+): DFL_THROTL_SLICE_SSD (HZ/50) on non-rotational queues */
	bool nonrot_short_slice;
	/* tg_within_iops_limit (6.11+): wait at least HZ / iops + 1 jiffies */
	bool iops_floor;
	/* __blk_throtl_bio (6.12): META bios over the limit pass and go in debt */
	bool meta_in_debt;
	/*
	 * 6.12's signed allowance: carryover is signed, "allowed > 0" is
	 * required, and throtl_trim_slice folds the carryover in. 6.6 keeps
	 * them unsigned (an allowance that went below zero wraps and lets the
	 * bio pass) and trims without the carryover.
	 */
	bool signed_allowance;
};

extern const struct ios_throtl_profile ios_throtl_profile_6_12;
extern const struct ios_throtl_profile ios_throtl_profile_6_6;

/*
 * The profile lab.kernel names (enum ios_lab_kernel: 0 auto, 1 6.6, 2 6.12);
 * auto follows the scheduler profile as the lead decided (plan Q2):
 * mq-deadline-6.6 runs 6.6, every other blk-mq scheduler 6.12.
 */
const struct ios_throtl_profile *ios_throtl_profile_for(int lab_kernel, const char *sched_name);

/* Whether any group of @q's tree has io.max written (blk_throtl_init is lazy). */
bool ios_blk_throtl_wanted(const struct ios_queue *q);

/* Where a bio the throttle let go continues (ios_blkcg_resubmit in the core). */
typedef void (*ios_throtl_resubmit_fn)(struct ios_queue *q, struct ios_bio *bio, uint64_t now);

/*
 * blk_throtl_init: io.max on @q (a blk-mq queue whose q->blkcg tree
 * exists), with the slice of @p for the queue's rotational flag, jiffies of
 * @hz, and every cgroup's limits as its io.max file holds them. 0, -EINVAL
 * (no tree, a second init, @hz not one of 100/250/300/1000), -ENOMEM.
 * The per-group state goes in each blkg's pd[IOS_BLKCG_MAX] slot.
 */
int ios_blk_throtl_init(struct ios_queue *q, const struct ios_throtl_profile *p, unsigned hz,
			ios_throtl_resubmit_fn resubmit, uint64_t now);

/* The hooks for the core (q's blk-throttle slot). */
extern const struct ios_blk_throtl_ops ios_blk_throtl_ops;

/*
 * blk_throtl_bio with the split made explicit (plan §7): @bytes is what bps
 * is charged for this bio (the whole I/O for the first piece of a task-
 * split I/O), @bps_done true for the later pieces (BIO_BPS_THROTTLED: iops
 * only). The ops' throtl_bio calls it with the bio's own size and false.
 * 0: passes now; 1: held.
 */
int ios_blk_throtl_bio_split(struct ios_queue *q, struct ios_bio *bio, uint64_t bytes,
			     bool bps_done, uint64_t now);

/*
 * tg_set_limit for a running queue: @cg's limits become @bps / @iops
 * (UINT64_MAX / UINT32_MAX: max) at @now, with tg_update_carryover and
 * tg_conf_updated. -EINVAL: no such group, the root, or io.max not active.
 */
int ios_blk_throtl_set_limit(struct ios_queue *q, const struct ios_cgroup *cg,
			     const uint64_t bps[2], const uint32_t iops[2], uint64_t now);

/*
 * What the throttle did, as its throtl_log lines say it: a bio held by a
 * group, a bio a group dispatched (to its parent's queue, or out at the
 * top), and the size of each dispatch round of a service queue ("bios
 * disp=N", @cg the queue's group, NULL for the top). For tests now, and
 * the timeline's "throttled" band later (plan §9).
 */
enum ios_throtl_event { IOS_THROTL_HELD, IOS_THROTL_DISPATCH, IOS_THROTL_ROUND };
typedef void (*ios_throtl_note_fn)(void *priv, const struct ios_cgroup *cg, int dir,
				   enum ios_throtl_event ev, unsigned value, uint64_t now);
void ios_blk_throtl_set_note(struct ios_queue *q, ios_throtl_note_fn fn, void *priv);

/* What a test or a report reads of a group (jiffies relative to the lab's 0). */
struct ios_throtl_grp_view {
	int64_t slice_start, slice_end;
	uint64_t bytes_disp;
	unsigned io_disp;
	int64_t carryover_bytes;
	int carryover_ios;
	unsigned nr_queued;
	bool pending;
	int64_t disptime;
};
int ios_blk_throtl_view(struct ios_queue *q, const struct ios_cgroup *cg, int dir,
			struct ios_throtl_grp_view *v);
/* td->throtl_slice in jiffies; 0 when io.max is not active */
unsigned ios_blk_throtl_slice(struct ios_queue *q);
/* the lab's jiffies at @now (relative to the lab's 0) */
int64_t ios_blk_throtl_jiffies(struct ios_queue *q, uint64_t now);

#endif
