/*
 * io.latency (Linux 6.12 block/blk-iolatency.c) as functions over its own
 * per-group state, with the time passed in: the rq_qos policy of
 * blk_iolatency.c calls them from its hooks, and the unit tests call them
 * directly with a fake clock (docs/cgroup-v2-plan.md §2.3, §12 step 5).
 *
 * One struct ios_iolat per blk-mq queue (the kernel's struct blk_iolatency)
 * and one struct ios_iolat_grp per group of the queue's tree (struct
 * iolatency_grp: the kernel gives every blkg one once the policy is
 * active, root included), reached through blkg->pd[IOS_BLKCG_LATENCY].
 */
#ifndef IOSCHED_BLK_IOLATENCY_H
#define IOSCHED_BLK_IOLATENCY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "blkcg_int.h"

/* "never": the lab's clock starts at 0, so 0 cannot mean it (plan §13 R4) */
#define IOS_IOLAT_NEVER			UINT64_MAX
#define IOS_IOLAT_DEFAULT_COOKIE	1000000u	/* DEFAULT_SCALE_COOKIE */
#define IOS_IOLAT_UNLIMITED		UINT_MAX	/* max_depth before any scaling */
#define IOS_IOLAT_MIN_WIN_NS		100000000ull	/* BLKIOLATENCY_MIN_WIN_SIZE */
#define IOS_IOLAT_MAX_WIN_NS		1000000000ull	/* BLKIOLATENCY_MAX_WIN_SIZE */
#define IOS_IOLAT_MIN_ADJUST_NS		500000000ull	/* BLKIOLATENCY_MIN_ADJUST_TIME */
#define IOS_IOLAT_MIN_GOOD_SAMPLES	5u		/* BLKIOLATENCY_MIN_GOOD_SAMPLES */
#define IOS_IOLAT_SCALE_GRP_NS		5000000000ull	/* the timer drops scale_grp after 5 s */

/*
 * struct latency_stat. Non-rotational: samples and misses (at or over the
 * target). Rotational: blk_rq_stat's count, batch (sum of the samples, set
 * only by adding samples) and mean (set only by summing a stat into
 * another, from the source's batch).
 */
struct ios_iolat_stat {
	uint64_t total, missed;
	uint64_t nr_samples, batch, mean;
};

/* struct child_latency_info: what a parent keeps about its children */
struct ios_iolat_child {
	uint64_t last_scale_event;	/* IOS_IOLAT_NEVER until the first event */
	uint64_t scale_lat;		/* the target that was missed, 0: none */
	uint64_t nr_samples;		/* the children's samples of the last summations */
	struct ios_iolat_grp *scale_grp;
	unsigned scale_cookie;
};

struct ios_iolat_waiter;

#define IOS_IOLAT_HIST	12

struct ios_iolat_grp {
	struct ios_blkg *blkg;
	struct ios_iolat *lat;
	struct ios_iolat_stat stat;	/* this window's samples (the per-CPU stats) */
	struct ios_iolat_stat cur_stat;	/* summed across windows until acted on */
	uint64_t window_start;
	uint64_t min_lat_nsec;		/* the target, 0: none */
	uint64_t cur_win_nsec;
	uint64_t nr_samples;		/* cur_stat's, as the parent last counted them */
	unsigned scale_cookie;		/* the parent's cookie as this group last saw it */
	unsigned max_depth;		/* in-flight limit, IOS_IOLAT_UNLIMITED */
	unsigned inflight;
	/*
	 * The delay this policy added (blkcg_add_delay), for reports; its
	 * use count is the blkg's (blkg->use_delay, blk_cgroup.c).
	 */
	uint64_t delay_added_ns;
	struct ios_iolat_child child;
	struct ios_iolat_waiter *wait_head, *wait_tail;	/* rq_wait, FIFO */
	unsigned nr_waiting;
	/* counts for reports and tests */
	uint64_t nr_windows, nr_bad_windows, nr_depth_waits, nr_scale_down, nr_scale_up;
	/* the first depth changes, for the run's summary */
	struct {
		uint64_t at;
		unsigned depth;
	} hist[IOS_IOLAT_HIST];
	unsigned nr_hist;
};

/* A bio let through after waiting: continue it (ios_rq_qos_release). */
typedef void (*ios_iolat_release_fn)(struct ios_iolat *lat, struct ios_bio *bio,
				     uint64_t now);
/* A group's depth or delay changed (for the timeline); may be NULL. */
typedef void (*ios_iolat_note_fn)(struct ios_iolat *lat, struct ios_iolat_grp *g,
				  uint64_t now);

struct ios_iolat {
	struct ios_queue *q;		/* NULL in unit tests */
	struct ios_blkcg_ctl *ctl;
	struct ios_iolat_grp *grps;	/* [ctl->nr_blkgs], by blkg index */
	unsigned nr_grps;
	unsigned nr_requests;		/* the queue's, read when scaling */
	bool ssd;			/* blk_queue_nonrot at pd_init */
	unsigned enable_cnt;		/* groups with a target: enabled when > 0 */
	uint64_t tick_ns;		/* one jiffy at lab.hz */
	uint64_t timer_at;		/* IOS_IOLAT_NEVER: not pending */
	uint64_t nr_scale_events;
	ios_iolat_release_fn release;
	ios_iolat_note_fn note;
	void *priv;
};

/*
 * blk_iolatency_init + iolatency_pd_init for every group of @ctl: windows
 * start at @now, 100 ms long until a target is set, cookies at the
 * default, depths unlimited. @hz is lab.hz (the timer's jiffies). NULL on
 * -ENOMEM.
 */
struct ios_iolat *ios_iolat_create(struct ios_blkcg_ctl *ctl, unsigned nr_requests,
				   bool nonrot, unsigned hz, uint64_t now);
/* Frees the state and clears the blkg slots (lat->ctl NULL: the tree is gone). */
void ios_iolat_destroy(struct ios_iolat *lat);
struct ios_iolat_grp *ios_iolat_grp_of(struct ios_iolat *lat, const struct ios_blkg *g);

/*
 * iolatency_set_limit's effect: iolatency_set_min_lat_nsec (window 16 x
 * the target within 100 ms..1 s, the enable count) and, when the target
 * changed, iolatency_clear_scaling of the parent. @target_ns 0: none.
 */
void ios_iolat_set_target(struct ios_iolat *lat, struct ios_blkg *g, uint64_t target_ns);

/*
 * blkcg_iolatency_throttle for a bio of group @g: every non-root group from
 * @g up checks its parent's cookie, then takes an in-flight slot or waits
 * (rq_qos_wait). 0: let through. 1: held; lat->release gets it later.
 * Arms the 1 s timer. Nothing happens while no group has a target.
 */
int ios_iolat_throttle(struct ios_iolat *lat, struct ios_blkg *g, struct ios_bio *bio,
		       bool issue_as_root, uint64_t now);

/*
 * blkcg_iolatency_done_bio for a bio of group @g that throttle let through
 * (issued at @issue_ns): every non-root group from @g up gives back its
 * slot, records the latency when it has a target and closes its window
 * when it has run its length. Then waiters are let through.
 */
void ios_iolat_done_bio(struct ios_iolat *lat, struct ios_blkg *g, uint64_t issue_ns,
			bool issue_as_root, uint64_t now);

/* blkiolatency_timer_fn, and when it is due (IOS_IOLAT_NEVER: not armed). */
void ios_iolat_timer(struct ios_iolat *lat, uint64_t now);
uint64_t ios_iolat_next_timer(const struct ios_iolat *lat);

/*
 * The pieces, exposed for the unit tests: latency_sum_ok on @st for
 * group @g, and iolatency_check_latencies (a window closed at @now).
 */
bool ios_iolat_sum_ok(const struct ios_iolat_grp *g, const struct ios_iolat_stat *st);
void ios_iolat_check_latencies(struct ios_iolat_grp *g, uint64_t now);

#endif
