/*
 * io.cost (Linux 6.12 block/blk-iocost.c), step 4a of docs/cgroup-v2-plan.md
 * §12: the controller as functions over its own state, time passed in.
 * See blk_iocost.c for what is and is not modelled.
 *
 * Until the blk-mq core carries a charged cgroup and qos fields in struct
 * ios_bio (plan §7, the rq_qos step), what io.cost reads of a bio and what
 * it keeps about it live in struct ios_iocost_bio, owned by the caller. The
 * caller also says what it knows of the device (struct ios_iocost_dev):
 * whether it rotates and blk_queue_depth(), which ioc_autop_idx reads.
 */
#ifndef IOSCHED_BLK_IOCOST_H
#define IOSCHED_BLK_IOCOST_H

#include <stdbool.h>
#include <stdint.h>
#include "iosched/blkcg.h"

/* blk-iocost.c's enum of built-in parameter sets */
enum ios_iocost_autop {
	IOS_AUTOP_INVALID,
	IOS_AUTOP_HDD,
	IOS_AUTOP_SSD_QD1,
	IOS_AUTOP_SSD_DFL,
	IOS_AUTOP_SSD_FAST,
	IOS_AUTOP_NR,
};
extern const char *const ios_iocost_autop_names[IOS_AUTOP_NR];

/* LCOEF_*: the derived linear coefficients, in vtime units */
enum { IOS_LC_RPAGE, IOS_LC_RSEQIO, IOS_LC_RRANDIO, IOS_LC_WPAGE, IOS_LC_WSEQIO,
       IOS_LC_WRANDIO, IOS_LC_NR };

#define IOS_IOCOST_VTIME_PER_SEC	(1ull << 37)
#define IOS_IOCOST_VTIME_PER_USEC	(IOS_IOCOST_VTIME_PER_SEC / 1000000)
#define IOS_IOCOST_WEIGHT_ONE	(1u << 16)

struct ios_iocost_dev {
	bool rotational;	/* !blk_queue_nonrot */
	unsigned queue_depth;	/* blk_queue_depth(): 1 selects SSD_QD1 */
	/*
	 * The period timer is a timer_list: it fires on a jiffy, @hz per
	 * second (lab.hz). 0: exactly at period_us (for unit tests of the
	 * arithmetic alone).
	 */
	unsigned hz;
};

struct ios_iocost;
struct ios_iocg;

/* What io.cost reads of a bio and keeps about it (bio->bi_iocost_cost...). */
struct ios_iocost_bio {
	const struct ios_cgroup *cg;	/* bio->bi_blkg's cgroup */
	uint64_t sector;
	uint32_t nr_sectors;
	uint8_t dir;			/* IOS_READ / IOS_WRITE; others cost nothing */
	bool issue_as_root;		/* bio_issue_as_root_blkg: REQ_META or REQ_SWAP */
	/* kept by io.cost */
	uint64_t cost;			/* bi_iocost_cost: the vtime charged, 0: none */
	uint64_t abs_cost;		/* while waiting */
	bool committed;
	/*
	 * It went as debt and the group's delay is in force: the caller asks
	 * that the submitting task be throttled on its return to user space
	 * (blkcg_schedule_throttle).
	 */
	bool throttle_task;
	struct ios_iocost_bio *wait_next;	/* iocg->waitq, FIFO */
	void *priv;			/* the caller's */
};

/*
 * A waiting bio's vtime came (iocg_wake_fn committed it): the caller lets
 * it go on (ios_rq_qos_release once wired).
 */
typedef void (*ios_iocost_release_fn)(void *arg, struct ios_iocost_bio *b, uint64_t now);

/*
 * blk_iocost_init: one controller for a queue whose group tree is @ctl
 * (ids index the per-group state). Parameters start as ioc_refresh_params
 * (force) sets them: the built-in set for @dev. Disabled until
 * ios_iocost_configure() reads enable=1. NULL on -ENOMEM.
 */
struct ios_iocost *ios_iocost_create(struct ios_blkcg_ctl *ctl, const struct ios_iocost_dev *dev,
			       ios_iocost_release_fn release, void *arg, uint64_t now);
void ios_iocost_destroy(struct ios_iocost *ioc);

/*
 * ioc_qos_write and ioc_cost_model_write as they act (the parse is
 * blkcg_conf.c's): enable, ctrl=user/auto, the given parameters over the
 * current ones, then ioc_refresh_params(force); and ioc_weight_write's
 * weight_updated for every group (io.weight, default and per device).
 * @root is the root cgroup's files (NULL: nothing written).
 */
void ios_iocost_configure(struct ios_iocost *ioc, const struct ios_cgroup_v2 *root, uint64_t now);

/*
 * rq_qos hooks. throttle: 0 the bio goes on now (bypassed, free, or
 * committed within budget), 1 it waits in its group's waitq until its
 * vtime comes, then the release callback gives it back.
 */
int ios_iocost_throttle(struct ios_iocost *ioc, struct ios_iocost_bio *b, uint64_t now);
/* ioc_rqos_merge: @b merges into a request at @rq_pos of @rq_sectors whose
 * first bio was charged @rq_cost. */
void ios_iocost_merge(struct ios_iocost *ioc, struct ios_iocost_bio *b, uint64_t rq_pos,
		   uint32_t rq_sectors, uint64_t rq_cost, uint64_t now);
/* ioc_rqos_done_bio */
void ios_iocost_done_bio(struct ios_iocost *ioc, const struct ios_iocost_bio *b);
/*
 * ioc_rqos_done: a request of @dir and @sectors completed at @now; it was
 * allocated (rq->alloc_time_ns) at @alloc_ns and got its tag
 * (rq->start_time_ns) at @start_ns.
 */
void ios_iocost_done(struct ios_iocost *ioc, int dir, uint32_t sectors, uint64_t alloc_ns,
		  uint64_t start_ns, uint64_t now);
/* The next wake-up (period timer or a group's waitq hrtimer), UINT64_MAX: none. */
uint64_t ios_iocost_next_timer(const struct ios_iocost *ioc);
/* Run what is due at @now: waitq timers, then the period timer. */
void ios_iocost_timer(struct ios_iocost *ioc, uint64_t now);

struct ios_queue;
/*
 * blk_iocost_init on a blk-mq queue with its group tree (blk_iocost_rqos.c):
 * io.cost joins the queue's rq_qos chain, reads the root's io.cost.qos and
 * io.cost.model and every group's io.weight, and re-reads them on a
 * mid-run write (conf_updated). 0 or -errno.
 */
int ios_blk_iocost_init(struct ios_queue *q, unsigned hz, uint64_t now);

/* ---- read-only views, for tests and the reports of step 9a ---- */

/* calc_lcoefs: the coefficients of one direction from bps, seqiops, randiops */
void ios_iocost_calc_lcoefs(uint64_t bps, uint64_t seqiops, uint64_t randiops, uint64_t *page,
			 uint64_t *seqio, uint64_t *randio);
/* The built-in set @idx's io.cost.model numbers (I_LCOEF_*) and qos. */
const uint64_t *ios_iocost_autop_lcoefs(enum ios_iocost_autop idx);
const uint32_t *ios_iocost_autop_qos(enum ios_iocost_autop idx);

struct ios_iocost_state {
	bool enabled, running;
	enum ios_iocost_autop autop;
	uint32_t period_us;
	uint64_t vrate;			/* vtime_base_rate, vtime per µs */
	uint32_t vrate_pct_x100;	/* cost.vrate as ioc_pd_stat prints it, ×100 */
	int busy_level;
	uint64_t cur_period;
	uint64_t lcoefs[IOS_LC_NR];
	uint32_t qos[IOS_QOS_NR];
	uint64_t vrate_min, vrate_max;
	/* the last period's signals (ioc_lat_stat), and its counts */
	uint32_t rq_wait_pct, missed_ppm[2];
	int nr_shortages, nr_lagging;
	uint64_t vnow, period_at_us;
	int64_t vtime_err;
};
void ios_iocost_state(const struct ios_iocost *ioc, uint64_t now, struct ios_iocost_state *s);

struct ios_iocg_state {
	bool active;			/* on the active list */
	unsigned level;
	uint32_t weight, active_w, inuse;	/* ×WEIGHT_ONE, as the kernel keeps them */
	uint32_t hweight_active, hweight_inuse;	/* of WEIGHT_ONE */
	uint64_t vtime, done_vtime, cursor;
	unsigned nr_waiting;
	uint64_t wait_timer_at;		/* UINT64_MAX: none */
	uint64_t wait_us, usage_us;	/* iocg_stat */
	/* step 4b: debt (absolute vtime), the delay in force (µs), iocg_stat's times */
	uint64_t abs_vdebt, delay_us, indebt_us, indelay_us;
};
/* -1 when @cg has no group in the controller */
int ios_iocg_state(struct ios_iocost *ioc, const struct ios_cgroup *cg, struct ios_iocg_state *s);

/*
 * The per-period monitor (blk_iocost_monitor.c; struct ios_iocost_log in
 * iosched/stats.h): the records so far, handed over and forgotten by the
 * controller (later periods start a new log), with the groups' paths.
 * NULL when no period ended. -ENOMEM in *err when the log is incomplete
 * (records could not be kept) or could not be handed over.
 */
struct ios_iocost_log;
struct ios_iocost_log *ios_iocost_take_log(struct ios_iocost *ioc, int *err);
/* ios_iocost_take_log on the queue's io.cost; NULL with *err 0 without io.cost */
struct ios_iocost_log *ios_blk_iocost_take_log(struct ios_queue *q, int *err);

#endif
