/*
 * The cgroup v2 controllers' contract with the blk-mq core (issue 30,
 * docs/cgroup-v2-plan.md §5, §7), for src/block/ only. Linux 6.12 names:
 * block/blk-rq-qos.h (struct rq_qos, rq_qos_ops, the rq_qos_* calls in
 * blk-mq.c), block/blk-throttle.h (blk_throtl_bio), block/blk-cgroup.c
 * (blkcg_add_delay, blkcg_maybe_throttle_current), block/blk-ioprio.c
 * (blkcg_set_ioprio).
 *
 * Where each hook sits on a blk-mq bio's way (6.12 submit_bio_noacct and
 * blk_mq_submit_bio; docs/cgroup-v2-plan.md §2.0):
 *
 *   ios_queue_submit_bio
 *     blk-throttle   ios_blk_throtl_bio(): 0 pass, 1 held (the task does
 *                    NOT sleep: the bio goes on later from the throttle's
 *                    dispatch, ios_blkcg_resubmit)
 *     trace Q, bio->issue_ns
 *   ios_mq_submit_bio
 *     bio_set_ioprio + blkcg_set_ioprio (io.prio.class)
 *     plug / elevator merge  -> rq_qos merge(rq, bio)
 *     rq_qos throttle(bio)   -> a policy may hold the bio: its task sleeps
 *                               (1, then bio->queued), as for a tag
 *     tag, request           -> rq_qos cleanup(bio) when none came
 *     rq_qos track(rq, bio)
 *   dispatch                 -> rq_qos issue(rq)
 *   requeue                  -> rq_qos requeue(rq)
 *   completion               -> rq_qos done_bio(bio) per bio, then done(rq)
 *                               (6.12: blk_update_request ends each bio,
 *                               bio_endio -> rq_qos_done_bio; then
 *                               __blk_mq_end_request -> blk_mq_free_request
 *                               -> rq_qos_done; a request merged away is
 *                               freed the same way and gets done too)
 *   syscall return           -> ios_blkcg_return_delay() (tasks, never kthreads)
 *
 * Policies are chained newest-enabled first (rq_qos_add puts the new one at
 * the head of q->rq_qos) and every call walks the chain in that order.
 * Nothing here reads a clock: each hook takes @now, and a policy asks for
 * its next wake-up through next_timer; the core folds it into the queue's
 * timer (mq_update_timer) and calls timer() at or after it.
 */
#ifndef IOSCHED_BLKCG_INT_H
#define IOSCHED_BLKCG_INT_H

#include "block_int.h"
#include "iosched/blkcg.h"
#include "iosched/request.h"

/* enum rq_qos_id (block/blk-rq-qos.h, 6.12) */
enum ios_rq_qos_id {
	IOS_RQ_QOS_WBT,
	IOS_RQ_QOS_LATENCY,
	IOS_RQ_QOS_COST,
	IOS_RQ_QOS_NR,
};

struct ios_rq_qos;

/*
 * struct rq_qos_ops. Every hook is optional. throttle returns 0 to let the
 * bio on, or 1 when the policy keeps it: the policy then owns the bio
 * until it calls ios_rq_qos_release(), which continues the bio at the
 * next policy of the chain and then to its tag, and announces it to the
 * submitter (bio->queued) once it has entered the queue. A policy that
 * keeps bios must give them all back by the run's end (exit may not drop
 * them).
 */
struct ios_rq_qos_ops {
	int (*throttle)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			uint64_t now);
	void (*track)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		      struct ios_bio *bio);
	void (*merge)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		      struct ios_bio *bio, uint64_t now);
	void (*issue)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		      uint64_t now);
	void (*requeue)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
			uint64_t now);
	void (*done)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		     uint64_t now);
	void (*done_bio)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			 uint64_t now);
	/* the bio merged or got no request after throttle let it on */
	void (*cleanup)(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			uint64_t now);
	/* the policy's next wake-up, UINT64_MAX for none */
	uint64_t (*next_timer)(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now);
	void (*timer)(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now);
	void (*exit)(struct ios_queue *q, struct ios_rq_qos *r);
};

struct ios_rq_qos {
	const struct ios_rq_qos_ops *ops;
	enum ios_rq_qos_id id;
	const char *name;		/* "wbt", "latency", "cost": debugfs's rq_qos_id_to_name */
	struct ios_rq_qos *next;	/* older policies */
	void *priv;			/* the policy's state */
};

/*
 * rq_qos_add: @r joins the queue's chain at its head. -EBUSY when a policy
 * of the same id is already there (the kernel's check), -EOPNOTSUPP on a
 * single-queue queue.
 */
int ios_rq_qos_add(struct ios_queue *q, struct ios_rq_qos *r);
/* rq_qos_del: @r leaves the chain (its exit is the caller's business). */
void ios_rq_qos_del(struct ios_queue *q, struct ios_rq_qos *r);
/* The queue's policy of @id, NULL when none. */
struct ios_rq_qos *ios_rq_qos_id(struct ios_queue *q, enum ios_rq_qos_id id);

/*
 * A policy gives back a bio its throttle kept: the bio continues at the
 * policy after @r, then takes a tag (it may still sleep for one) and
 * enters the queue; its submitter hears of it through bio->queued.
 */
void ios_rq_qos_release(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			uint64_t now);

/*
 * blk-throttle (io.max), before the Q trace (6.12 submit_bio_noacct ->
 * blk_throtl_bio). 0: the bio passes now. 1: blk-throttle holds it, and
 * the submitter goes on as if it had been accepted (an io.max'ed task
 * does not sleep in submit_bio; a sync submitter then waits for its
 * completion as usual). The throttle's dispatch later hands the bio to
 * ios_blkcg_resubmit. Set by blk_throttle.c when io.max is configured
 * anywhere; NULL: no throttling and the MQ path runs as before.
 */
struct ios_blk_throtl_ops {
	int (*throtl_bio)(struct ios_queue *q, struct ios_bio *bio, uint64_t now);
	uint64_t (*next_timer)(struct ios_queue *q, uint64_t now);
	void (*timer)(struct ios_queue *q, uint64_t now);
	void (*exit)(struct ios_queue *q);
};

struct ios_throtl_profile;
/*
 * The v2 controllers on blk-mq queue @q before its first I/O, as a run and
 * the application library (ios_app_cgroup_write) put them there: the
 * group tree over @cgroups (ids 0..@n-1, parents first; built once), then
 * io.cost when io.cost.qos or io.cost.model was written on the root
 * (6.12 blk_iocost_init), blk-throttle at the first io.max
 * (blk_throtl_init, lazy since 6.10) and io.latency at the first
 * io.latency (blk_iolatency_init). @later: files that will be written
 * after the start (a later job's exec_prerun), whose controller must be
 * there to re-read them. @tp: blk-throttle's profile; @hz: lab.hz.
 * 0 or -errno with @e saying which controller failed.
 */
int ios_blkcg_install(struct ios_queue *q, struct ios_cgroup *const *cgroups, unsigned n,
		      unsigned later, const struct ios_throtl_profile *tp, unsigned hz,
		      struct ios_err *e);

/* A bio blk-throttle held goes on: Q trace, then ios_mq_submit_bio. */
void ios_blkcg_resubmit(struct ios_queue *q, struct ios_bio *bio, uint64_t now);

/*
 * blkcg_add_delay / blkcg_use_delay / blkcg_clear_delay (6.12
 * blk-cgroup.c): a group's pending return-to-user delay, which decays
 * with time as the kernel's delay_nsec does (halved per elapsed second
 * while below the start time window), and is charged to the group's tasks
 * when their syscall returns.
 */
void ios_blkcg_add_delay(struct ios_blkg *g, uint64_t now, uint64_t delta_ns);
void ios_blkcg_use_delay(struct ios_blkg *g);
void ios_blkcg_clear_delay(struct ios_blkg *g);

/*
 * blkcg_unuse_delay: one user of the delay less (io.latency scaling back
 * up); 1 when there was one. blkcg_set_delay: io.cost's form, a delay set
 * outright (use_delay -1: not decayed, not capped by the core).
 */
int ios_blkcg_unuse_delay(struct ios_blkg *g);
void ios_blkcg_set_delay(struct ios_blkg *g, uint64_t delay_ns);

/*
 * blkcg_maybe_throttle_current: how long a task of cgroup @cg sleeps
 * before its syscall returns: the largest delay among @cg's groups below
 * the root that use one (blkcg_maybe_throttle_blkg walks while
 * blkg->parent), each decayed first (blkcg_scale_delay), capped at 250 ms
 * when the largest is a use_delay (> 0) one. 0: none. Kthreads (the
 * flusher, jbd2) never call it.
 */
uint64_t ios_blkcg_return_delay(struct ios_queue *q, const struct ios_cgroup *cg, uint64_t now);

/*
 * Step 9a's accounting: @bio, kept by a controller since bio->held_ns, is
 * let go at @now: the wait counts for cause @c on the queue, on the bio's
 * context (its task, or the flusher's) and on the group it is charged to.
 */
void ios_blkcg_account_wait(struct ios_queue *q, struct ios_bio *bio, enum ios_wait_cause c,
			    uint64_t now);

/*
 * blkcg_set_ioprio (blk_ioprio.c): cgroup @cg's (the bio's charged one, ios_bio_blkcg) io.prio.class applied to
 * @bio, whose priority already holds its task's (bio_set_ioprio).
 */
void ios_blkcg_set_ioprio(const struct ios_cgroup *cg, struct ios_bio *bio);

/*
 * blkcg_schedule_throttle: a controller asks that @ioc's task be delayed
 * on @q when its system call returns (ios_blkcg_task_throttle, blkcg.h).
 * A kthread's context is ignored, as PF_KTHREAD is in the kernel.
 */
void ios_blkcg_schedule_throttle(struct ios_queue *q, struct ios_ioc *ioc);

/* ---- the core's side, for mq.c, merge.c and block.c (rq_qos.c) ---- */

/*
 * rq_qos_throttle from @r on (the head for a new bio): 0 when every
 * policy let @bio on, 1 when one kept it. Sets IOS_BIO_QOS_THROTTLED.
 */
int ios_rq_qos_throttle(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			uint64_t now);
void ios_rq_qos_track(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio);
/* rq_qos_merge: @bio is about to join @rq; sets IOS_BIO_QOS_MERGED. */
void ios_rq_qos_merge(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
		      uint64_t now);
void ios_rq_qos_issue(struct ios_queue *q, struct ios_request *rq, uint64_t now);
void ios_rq_qos_requeue(struct ios_queue *q, struct ios_request *rq, uint64_t now);
void ios_rq_qos_done(struct ios_queue *q, struct ios_request *rq, uint64_t now);
/* rq_qos_done_bio: only for a bio flagged QOS_THROTTLED or QOS_MERGED. */
void ios_rq_qos_done_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now);
void ios_rq_qos_cleanup(struct ios_queue *q, struct ios_bio *bio, uint64_t now);
/* The earliest wake-up blk-throttle and the policies ask for, UINT64_MAX for none. */
uint64_t ios_blkcg_next_timer(struct ios_queue *q, uint64_t now);
/* Run blk-throttle's and each policy's timer whose wake-up is due at @now. */
void ios_blkcg_run_timers(struct ios_queue *q, uint64_t now);
/* rq_qos_exit: every policy's exit, newest first, and the chain emptied. */
void ios_rq_qos_exit(struct ios_queue *q);

/* ---- writeback throttling (blk_wbt.c, 6.12 block/blk-wbt.c) ---- */

/*
 * At queue creation (the kernel's disk registration): wbt_enable_default,
 * then queue.wbt_lat_usec from @set if written (queue_wb_lat_store). On
 * the single-queue layer, or with @built false (ios_queue_config.no_wbt),
 * a written wbt_lat_usec is refused.
 */
int ios_wbt_queue_setup(struct ios_queue *q, const struct ios_settings *set, bool built,
			struct ios_err *e);
/* wbt_init: wbt joins the chain, on by default with the device's latency. */
int ios_wbt_init(struct ios_queue *q);
/*
 * wbt_enable_default / wbt_disable_default: io.cost's enable=1 calls
 * disable (6.12 ioc_qos_write), enable=0 calls enable. Only the default
 * state moves: a latency written through wbt_lat_usec stays.
 */
void ios_wbt_enable_default(struct ios_queue *q);
void ios_wbt_disable_default(struct ios_queue *q);
/*
 * queue_wb_lat_store: -1 the default, 0 off, else microseconds; -EINVAL
 * below -1. Brings wbt up if the queue had none (under BFQ too).
 */
int ios_wbt_lat_store(struct ios_queue *q, int64_t val, uint64_t now);
/* queue_wb_lat_show: the target in µs, 0 when disabled, -EINVAL without wbt. */
int64_t ios_wbt_lat_show(struct ios_queue *q);
uint64_t ios_wbt_default_latency_nsec(const struct ios_queue *q);
bool ios_wbt_enabled(struct ios_queue *q);

/* What 6.12's debugfs shows of wbt (wbt_debugfs_attrs), for tests and reports. */
struct ios_wbt_debug {
	int enabled;			/* WBT_STATE_*: 1 on, 2 on (sysfs), 3 off, 4 off (sysfs) */
	uint64_t min_lat_nsec, cur_win_nsec;
	unsigned wb_normal, wb_background, max_depth;
	int scale_step;
	unsigned unknown_cnt;
	bool window_open;
	uint64_t window_end;
	unsigned inflight[3];		/* background/other writes, swap, discard */
	unsigned waiting[3];		/* bios kept, per queue */
};
/* -ENOENT when the queue has no wbt. */
int ios_wbt_debug(struct ios_queue *q, struct ios_wbt_debug *d);

#endif
