/*
 * io.max: blk-throttle, after Linux 6.12's block/blk-throttle.c (read in
 * the code index, id 33905649: lazy blk_throtl_init with the SSD slice, no
 * io.low, tg_dispatch_in_debt, the iops floor), with the differences of 6.6
 * (id 29498257: io.low compiled out, blk_throtl_register's HD slice for
 * every queue, unsigned carryover, no floor, no debt) as a profile chosen
 * by lab.kernel. docs/cgroup-v2.md "io.max" has the fidelity table.
 *
 * Modelled: per-group bps and iops limits per direction, enforced over
 * slices (throtl_slice: 100 ms, 20 ms on non-rotational queues in 6.12)
 * with the kernel's jiffy arithmetic: the allowance rounded up to whole
 * slices, the wait rounded the same way, the 6.11 iops floor; slice start,
 * extension and trimming after each dispatch; the carryover that keeps
 * what was earned when a limit changes while bios wait; bytes charged once
 * per bio and one I/O per piece of a split; the FIFO per group, bios
 * climbing to the parent's queue (limits are hierarchical on v2), the
 * service queues' pending lists ordered by dispatch time, dispatch rounds
 * of 6 reads and 2 writes per group and 32 bios per round, the per-queue
 * pending timer capped at 8 slices ahead; META bios over the limit going
 * at once in debt (6.12). The root group has no limit (cgroup v2).
 *
 * Not modelled: the timer wheel's coarser granularity for timers more than
 * 63 jiffies ahead (a 100 ms slice at HZ 1000 fires on the jiffy here),
 * the kthrotld worker's latency (bios the top level releases are resubmitted
 * at the timer's own time, in the kernel's READ-then-WRITE order, without
 * the plug), REQ_SWAP (no swap in the lab), cgroup v1's flat hierarchy and
 * io.stat's throttle counters, THROTL_TG_CANCELING (groups never go away
 * during a run). Jiffies start far from 0 (R4 of the plan), so a group's
 * fresh slice (0, 0) is "used" at the run's start as it is at any real
 * uptime.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blk_throttle.h"
#include "iosched/list.h"
#include "iosched/run.h"

#define THROTL_GRP_QUANTUM 8	/* per group and round: 6 reads, 2 writes */
#define THROTL_QUANTUM 32	/* per round over all groups */
/* far from 0, and a multiple of every slice (300 = lcm of HZ/50 and HZ/10 for all HZ) */
#define THROTL_JIFFY_ORIGIN (300ULL << 24)

enum { THROTL_TG_PENDING = 1u << 0, THROTL_TG_WAS_EMPTY = 1u << 1 };

/* A held bio and what it is charged (struct bio's size and BIO_BPS_THROTTLED). */
struct throtl_held {
	struct ios_bio *bio;
	uint64_t bytes;
	bool bps_done;
	struct throtl_held *next;
};

/* throtl_qnode: one source's FIFO on a service queue's queued[] list */
struct throtl_qnode {
	struct ios_list_head node;
	struct throtl_held *head, *tail;
	struct throtl_grp *tg;
};

struct throtl_service_queue {
	struct throtl_service_queue *parent_sq;	/* NULL: the top (throtl_data's) */
	struct ios_list_head queued[2];		/* of throtl_qnode */
	unsigned nr_queued[2];
	struct ios_list_head pending;		/* children by disptime (the kernel's rb tree) */
	unsigned nr_pending;
	uint64_t first_pending_disptime;
	bool timer_armed;			/* pending_timer */
	uint64_t timer_expires;
};

struct throtl_data;

struct throtl_grp {
	struct throtl_service_queue service_queue;
	struct throtl_qnode qnode_on_self[2], qnode_on_parent[2];
	struct ios_list_head rb_node;		/* on the parent sq's pending list */
	uint64_t disptime;
	unsigned flags;
	bool has_rules_bps[2], has_rules_iops[2];
	uint64_t bps[2];
	uint32_t iops[2];
	uint64_t bytes_disp[2];
	unsigned io_disp[2];
	uint64_t slice_start[2], slice_end[2];
	int64_t carryover_bytes[2];
	int carryover_ios[2];
	struct ios_blkg *blkg;
	struct throtl_data *td;
};

struct throtl_data {
	struct throtl_service_queue service_queue;
	unsigned nr_queued[2];
	unsigned throtl_slice;
	unsigned hz;
	const struct ios_throtl_profile *prof;
	ios_throtl_resubmit_fn resubmit;
	struct ios_queue *queue;
	uint64_t jiffies;			/* the clock as of the current call */
	uint64_t now;
	ios_throtl_note_fn note;
	void *note_priv;
	struct ios_blkcg_ctl *ctl;		/* the tree it was built on */
	struct throtl_grp *tgs;			/* one per blkg, the tree's order */
	unsigned nr_tgs;
};

const struct ios_throtl_profile ios_throtl_profile_6_12 = {
	.release = "6.12", .nonrot_short_slice = true, .iops_floor = true,
	.meta_in_debt = true, .signed_allowance = true,
};
const struct ios_throtl_profile ios_throtl_profile_6_6 = {
	.release = "6.6",
};

const struct ios_throtl_profile *ios_throtl_profile_for(int lab_kernel, const char *sched_name)
{
	if (lab_kernel == IOS_LAB_KERNEL_6_6)
		return &ios_throtl_profile_6_6;
	if (lab_kernel == IOS_LAB_KERNEL_6_12)
		return &ios_throtl_profile_6_12;
	return sched_name && !strcmp(sched_name, "mq-deadline-6.6") ? &ios_throtl_profile_6_6
								   : &ios_throtl_profile_6_12;
}

bool ios_blk_throtl_wanted(const struct ios_queue *q)
{
	const struct ios_blkcg_ctl *ctl = q ? q->blkcg : NULL;

	for (unsigned i = 0; ctl && i < ctl->nr_blkgs; i++) {
		const struct ios_cgroup *cg = ctl->blkgs[i].cgroup;

		if (cg && cg->v2 && (cg->v2->written & (1u << IOS_BLKCG_MAX)))
			return true;
	}
	return false;
}

static bool time_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

static bool time_after(uint64_t a, uint64_t b)
{
	return time_before(b, a);
}

static uint64_t roundup_u64(uint64_t x, uint64_t y)
{
	return (x + y - 1) / y * y;
}

static struct throtl_data *q_to_td(struct ios_queue *q)
{
	return q ? q->throtl_data : NULL;
}

static void td_set_now(struct throtl_data *td, uint64_t now)
{
	td->now = now;
	/* floor(now * hz / 1e9), exact for any run length */
	td->jiffies = THROTL_JIFFY_ORIGIN +
		      (uint64_t)(((unsigned __int128)now * td->hz) / IOS_NSEC_PER_SEC);
}

/* the first lab time at which jiffies reads @j */
static uint64_t jiffy_to_ns(const struct throtl_data *td, uint64_t j)
{
	unsigned __int128 n = (unsigned __int128)(j - THROTL_JIFFY_ORIGIN) * IOS_NSEC_PER_SEC;

	return (uint64_t)((n + td->hz - 1) / td->hz);
}

static void throtl_note(struct throtl_data *td, const struct throtl_grp *tg, int rw,
			enum ios_throtl_event ev, unsigned value)
{
	if (td->note)
		td->note(td->note_priv, tg ? tg->blkg->cgroup : NULL, rw, ev, value, td->now);
}

static struct throtl_grp *sq_to_tg(struct throtl_service_queue *sq)
{
	if (sq && sq->parent_sq)
		return ios_container_of(sq, struct throtl_grp, service_queue);
	return NULL;
}

static struct throtl_data *sq_to_td(struct throtl_service_queue *sq)
{
	struct throtl_grp *tg = sq_to_tg(sq);

	return tg ? tg->td : ios_container_of(sq, struct throtl_data, service_queue);
}

/* tg_bps_limit, tg_iops_limit: nothing limits the root on cgroup v2 */
static uint64_t tg_bps_limit(const struct throtl_grp *tg, int rw)
{
	return tg->blkg->parent ? tg->bps[rw] : UINT64_MAX;
}

static uint32_t tg_iops_limit(const struct throtl_grp *tg, int rw)
{
	return tg->blkg->parent ? tg->iops[rw] : UINT32_MAX;
}

/* ---- qnodes ---- */

static void throtl_qnode_add_bio(struct throtl_held *h, struct throtl_qnode *qn,
				 struct ios_list_head *queued)
{
	h->next = NULL;
	if (qn->tail)
		qn->tail->next = h;
	else
		qn->head = h;
	qn->tail = h;
	if (ios_list_unlinked(&qn->node))
		ios_list_add_tail(&qn->node, queued);
}

static struct throtl_held *throtl_peek_queued(struct ios_list_head *queued)
{
	if (ios_list_empty(queued))
		return NULL;
	return ios_list_first_entry(queued, struct throtl_qnode, node)->head;
}

/* the first qnode's first bio; the qnode then goes to the back (round-robin) or leaves */
static struct throtl_held *throtl_pop_queued(struct ios_list_head *queued)
{
	struct throtl_qnode *qn;
	struct throtl_held *h;

	if (ios_list_empty(queued))
		return NULL;
	qn = ios_list_first_entry(queued, struct throtl_qnode, node);
	h = qn->head;
	qn->head = h->next;
	if (!qn->head) {
		qn->tail = NULL;
		ios_list_del(&qn->node);
		ios_list_init(&qn->node);
	} else {
		ios_list_move_tail(&qn->node, queued);
	}
	h->next = NULL;
	return h;
}

static void throtl_service_queue_init(struct throtl_service_queue *sq,
				      struct throtl_service_queue *parent)
{
	ios_list_init(&sq->queued[0]);
	ios_list_init(&sq->queued[1]);
	ios_list_init(&sq->pending);
	sq->parent_sq = parent;
}

/* ---- the pending list (the kernel's rb tree, leftmost first, equal keys after) ---- */

static void tg_service_queue_add(struct throtl_grp *tg)
{
	struct throtl_service_queue *parent_sq = tg->service_queue.parent_sq;
	struct ios_list_head *pos;

	ios_list_for_each(pos, &parent_sq->pending) {
		struct throtl_grp *o = ios_list_entry(pos, struct throtl_grp, rb_node);

		if (time_before(tg->disptime, o->disptime))
			break;
	}
	/* before @pos (the list head itself when none is later) */
	ios_list_add_tail(&tg->rb_node, pos);
}

static void throtl_rb_erase(struct throtl_grp *tg)
{
	if (!ios_list_unlinked(&tg->rb_node)) {
		ios_list_del(&tg->rb_node);
		ios_list_init(&tg->rb_node);
	}
}

static void throtl_enqueue_tg(struct throtl_grp *tg)
{
	if (!(tg->flags & THROTL_TG_PENDING)) {
		tg_service_queue_add(tg);
		tg->flags |= THROTL_TG_PENDING;
		tg->service_queue.parent_sq->nr_pending++;
	}
}

static void throtl_dequeue_tg(struct throtl_grp *tg)
{
	if (tg->flags & THROTL_TG_PENDING) {
		throtl_rb_erase(tg);
		tg->service_queue.parent_sq->nr_pending--;
		tg->flags &= ~THROTL_TG_PENDING;
	}
}

/* mod_timer: never more than 8 slices ahead; a time already due fires on the next tick */
static void throtl_schedule_pending_timer(struct throtl_service_queue *sq, uint64_t expires)
{
	struct throtl_data *td = sq_to_td(sq);
	uint64_t max_expire = td->jiffies + 8ULL * td->throtl_slice;

	if (time_after(expires, max_expire))
		expires = max_expire;
	if (!time_after(expires, td->jiffies))
		expires = td->jiffies + 1;
	sq->timer_armed = true;
	sq->timer_expires = expires;
}

/* true when a timer is armed or nothing is pending; false: dispatch on now */
static bool throtl_schedule_next_dispatch(struct throtl_service_queue *sq, bool force)
{
	struct throtl_data *td = sq_to_td(sq);

	if (!sq->nr_pending)
		return true;
	sq->first_pending_disptime =
		ios_list_first_entry(&sq->pending, struct throtl_grp, rb_node)->disptime;
	if (force || time_after(sq->first_pending_disptime, td->jiffies)) {
		throtl_schedule_pending_timer(sq, sq->first_pending_disptime);
		return true;
	}
	return false;
}

/* ---- slices ---- */

static void throtl_start_new_slice_with_credit(struct throtl_grp *tg, int rw, uint64_t start)
{
	tg->bytes_disp[rw] = 0;
	tg->io_disp[rw] = 0;
	tg->carryover_bytes[rw] = 0;
	tg->carryover_ios[rw] = 0;
	/* a child's older slice start gives the parent the bandwidth it did not use */
	if (time_after(start, tg->slice_start[rw]))
		tg->slice_start[rw] = start;
	tg->slice_end[rw] = tg->td->jiffies + tg->td->throtl_slice;
}

static void throtl_start_new_slice(struct throtl_grp *tg, int rw, bool clear_carryover)
{
	tg->bytes_disp[rw] = 0;
	tg->io_disp[rw] = 0;
	tg->slice_start[rw] = tg->td->jiffies;
	tg->slice_end[rw] = tg->td->jiffies + tg->td->throtl_slice;
	if (clear_carryover) {
		tg->carryover_bytes[rw] = 0;
		tg->carryover_ios[rw] = 0;
	}
}

static void throtl_set_slice_end(struct throtl_grp *tg, int rw, uint64_t jiffy_end)
{
	tg->slice_end[rw] = roundup_u64(jiffy_end, tg->td->throtl_slice);
}

static bool throtl_slice_used(const struct throtl_grp *tg, int rw)
{
	uint64_t j = tg->td->jiffies;

	/* time_in_range(jiffies, start, end) */
	return !(!time_before(j, tg->slice_start[rw]) && !time_after(j, tg->slice_end[rw]));
}

static int ilog2_u64(uint64_t v)
{
	return v ? 63 - __builtin_clzll(v) : -1;
}

/* limit x elapsed / HZ; 6.12 saturates where 6.6 would overflow */
static uint64_t calculate_bytes_allowed(const struct throtl_data *td, uint64_t bps_limit,
					uint64_t jiffy_elapsed)
{
	if (td->prof->signed_allowance &&
	    ilog2_u64(bps_limit) + ilog2_u64(jiffy_elapsed) - ilog2_u64(td->hz) > 62)
		return UINT64_MAX;
	return (uint64_t)((unsigned __int128)bps_limit * jiffy_elapsed / td->hz);
}

static unsigned calculate_io_allowed(const struct throtl_data *td, uint32_t iops_limit,
				     uint64_t jiffy_elapsed)
{
	uint64_t tmp = (uint64_t)iops_limit * jiffy_elapsed / td->hz;

	return tmp > UINT32_MAX ? UINT32_MAX : (unsigned)tmp;
}

/*
 * throtl_trim_slice: after a dispatch, whole elapsed slices leave the
 * books with what they allowed, so a long-lived slice does not keep old
 * history (6.12 folds the carryover in and clears it; 6.6 ignores it).
 */
static void throtl_trim_slice(struct throtl_grp *tg, int rw)
{
	struct throtl_data *td = tg->td;
	uint64_t time_elapsed;

	if (throtl_slice_used(tg, rw))
		return;
	/* a slice stretched for an old, lower limit must not outlive the dispatch */
	throtl_set_slice_end(tg, rw, td->jiffies + td->throtl_slice);
	time_elapsed = (td->jiffies - tg->slice_start[rw]) / td->throtl_slice * td->throtl_slice;
	if (!time_elapsed)
		return;

	if (td->prof->signed_allowance) {
		int64_t bytes_trim = (int64_t)calculate_bytes_allowed(td, tg_bps_limit(tg, rw),
								       time_elapsed) +
				     tg->carryover_bytes[rw];
		int io_trim = (int)calculate_io_allowed(td, tg_iops_limit(tg, rw), time_elapsed) +
			      tg->carryover_ios[rw];

		if (bytes_trim <= 0 && io_trim <= 0)
			return;
		tg->carryover_bytes[rw] = 0;
		if ((int64_t)tg->bytes_disp[rw] >= bytes_trim)
			tg->bytes_disp[rw] -= (uint64_t)bytes_trim;
		else
			tg->bytes_disp[rw] = 0;
		tg->carryover_ios[rw] = 0;
		if ((int)tg->io_disp[rw] >= io_trim)
			tg->io_disp[rw] -= (unsigned)io_trim;
		else
			tg->io_disp[rw] = 0;
	} else {
		uint64_t nr = time_elapsed / td->throtl_slice;
		/* 6.6 multiplies in 64 bits and lets an unlimited rate wrap */
		uint64_t bytes_trim = tg_bps_limit(tg, rw) * td->throtl_slice * nr / td->hz;
		uint64_t io_trim = (uint64_t)tg_iops_limit(tg, rw) * td->throtl_slice * nr / td->hz;

		if (!bytes_trim && !io_trim)
			return;
		tg->bytes_disp[rw] = tg->bytes_disp[rw] >= bytes_trim ?
				     tg->bytes_disp[rw] - bytes_trim : 0;
		tg->io_disp[rw] = tg->io_disp[rw] >= io_trim ?
				  tg->io_disp[rw] - (unsigned)io_trim : 0;
	}
	tg->slice_start[rw] += time_elapsed;
}

/* __tg_update_carryover: what was earned and not used survives a limit change */
static void tg_update_carryover(struct throtl_grp *tg)
{
	for (int rw = 0; rw < 2; rw++) {
		uint64_t jiffy_elapsed = tg->td->jiffies - tg->slice_start[rw];
		uint64_t bps_limit = tg_bps_limit(tg, rw);
		uint32_t iops_limit = tg_iops_limit(tg, rw);

		if (!tg->service_queue.nr_queued[rw])
			continue;
		if (bps_limit != UINT64_MAX)
			tg->carryover_bytes[rw] +=
				(int64_t)(calculate_bytes_allowed(tg->td, bps_limit, jiffy_elapsed) -
					  tg->bytes_disp[rw]);
		if (iops_limit != UINT32_MAX)
			tg->carryover_ios[rw] +=
				(int)(calculate_io_allowed(tg->td, iops_limit, jiffy_elapsed) -
				      tg->io_disp[rw]);
	}
}

/* an allowance below zero: 6.12 waits, 6.6's unsigned sum wraps and lets the bio pass */
static bool allowance_passes(const struct throtl_data *td, int64_t allowed, uint64_t need)
{
	if (allowed <= 0)
		return !td->prof->signed_allowance && allowed < 0;
	return need <= (uint64_t)allowed;
}

static uint64_t tg_within_iops_limit(struct throtl_grp *tg, int rw, uint32_t iops_limit)
{
	struct throtl_data *td = tg->td;
	uint64_t jiffy_elapsed, jiffy_elapsed_rnd, jiffy_wait;
	int64_t io_allowed;

	if (iops_limit == UINT32_MAX)
		return 0;
	jiffy_elapsed = td->jiffies - tg->slice_start[rw];
	/* the next slice boundary strictly after now, so a wait is never 0 */
	jiffy_elapsed_rnd = roundup_u64(jiffy_elapsed + 1, td->throtl_slice);
	io_allowed = (int64_t)calculate_io_allowed(td, iops_limit, jiffy_elapsed_rnd) +
		     tg->carryover_ios[rw];
	if (!td->prof->signed_allowance)
		io_allowed = (int64_t)(uint32_t)io_allowed;	/* 6.6: unsigned int arithmetic */
	if (allowance_passes(td, io_allowed, (uint64_t)tg->io_disp[rw] + 1))
		return 0;
	jiffy_wait = jiffy_elapsed_rnd - jiffy_elapsed;
	/* 6.11+: at least the time one I/O takes at the limit */
	if (td->prof->iops_floor && jiffy_wait < td->hz / iops_limit + 1)
		jiffy_wait = td->hz / iops_limit + 1;
	return jiffy_wait;
}

static uint64_t tg_within_bps_limit(struct throtl_grp *tg, int rw, uint64_t bio_size,
				    bool bps_done, uint64_t bps_limit)
{
	struct throtl_data *td = tg->td;
	uint64_t jiffy_elapsed, jiffy_elapsed_rnd, jiffy_wait, extra_bytes;
	int64_t bytes_allowed;

	if (bps_limit == UINT64_MAX || bps_done)
		return 0;
	jiffy_elapsed = jiffy_elapsed_rnd = td->jiffies - tg->slice_start[rw];
	/* a slice that just started counts as a whole one */
	if (!jiffy_elapsed)
		jiffy_elapsed_rnd = td->throtl_slice;
	jiffy_elapsed_rnd = roundup_u64(jiffy_elapsed_rnd, td->throtl_slice);
	bytes_allowed = (int64_t)calculate_bytes_allowed(td, bps_limit, jiffy_elapsed_rnd) +
			tg->carryover_bytes[rw];
	if (allowance_passes(td, bytes_allowed, tg->bytes_disp[rw] + bio_size))
		return 0;
	extra_bytes = tg->bytes_disp[rw] + bio_size - (uint64_t)bytes_allowed;
	jiffy_wait = (uint64_t)((unsigned __int128)extra_bytes * td->hz / bps_limit);
	if (!jiffy_wait)
		jiffy_wait = 1;
	/* plus the rounding up of the elapsed time */
	return jiffy_wait + (jiffy_elapsed_rnd - jiffy_elapsed);
}

/* tg_may_dispatch: starts, extends the slice; *wait in jiffies */
static bool tg_may_dispatch(struct throtl_grp *tg, int rw, uint64_t bytes, bool bps_done,
			    uint64_t *wait)
{
	struct throtl_data *td = tg->td;
	uint64_t bps_limit = tg_bps_limit(tg, rw), bps_wait, iops_wait, max_wait;
	uint32_t iops_limit = tg_iops_limit(tg, rw);

	if (bps_limit == UINT64_MAX && iops_limit == UINT32_MAX) {
		if (wait)
			*wait = 0;
		return true;
	}
	/* a new slice only for a group with nothing queued; else stretch the running one */
	if (throtl_slice_used(tg, rw) && !tg->service_queue.nr_queued[rw])
		throtl_start_new_slice(tg, rw, true);
	else if (time_before(tg->slice_end[rw], td->jiffies + td->throtl_slice))
		throtl_set_slice_end(tg, rw, td->jiffies + td->throtl_slice);

	bps_wait = tg_within_bps_limit(tg, rw, bytes, bps_done, bps_limit);
	iops_wait = tg_within_iops_limit(tg, rw, iops_limit);
	if (bps_wait + iops_wait == 0) {
		if (wait)
			*wait = 0;
		return true;
	}
	max_wait = bps_wait > iops_wait ? bps_wait : iops_wait;
	if (wait)
		*wait = max_wait;
	if (time_before(tg->slice_end[rw], td->jiffies + max_wait))
		throtl_set_slice_end(tg, rw, td->jiffies + max_wait);
	return false;
}

/* bytes once per bio (not for a piece already charged), one I/O every time */
static void throtl_charge_bio(struct throtl_grp *tg, int rw, uint64_t bytes, bool bps_done)
{
	if (!bps_done)
		tg->bytes_disp[rw] += bytes;
	tg->io_disp[rw]++;
}

static void throtl_add_bio_tg(struct throtl_held *h, struct throtl_qnode *qn,
			      struct throtl_grp *tg)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	int rw = h->bio->dir;

	if (!qn)
		qn = &tg->qnode_on_self[rw];
	if (!sq->nr_queued[rw])
		tg->flags |= THROTL_TG_WAS_EMPTY;
	throtl_qnode_add_bio(h, qn, &sq->queued[rw]);
	sq->nr_queued[rw]++;
	throtl_enqueue_tg(tg);
}

static void tg_update_disptime(struct throtl_grp *tg)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	uint64_t read_wait = UINT64_MAX, write_wait = UINT64_MAX, min_wait;
	struct throtl_held *h;

	h = throtl_peek_queued(&sq->queued[0]);
	if (h)
		tg_may_dispatch(tg, 0, h->bytes, h->bps_done, &read_wait);
	h = throtl_peek_queued(&sq->queued[1]);
	if (h)
		tg_may_dispatch(tg, 1, h->bytes, h->bps_done, &write_wait);
	min_wait = read_wait < write_wait ? read_wait : write_wait;
	throtl_rb_erase(tg);
	tg->disptime = tg->td->jiffies + min_wait;
	tg_service_queue_add(tg);
	tg->flags &= ~THROTL_TG_WAS_EMPTY;
}

static void start_parent_slice_with_credit(struct throtl_grp *child, struct throtl_grp *parent,
					   int rw)
{
	if (throtl_slice_used(parent, rw))
		throtl_start_new_slice_with_credit(parent, rw, child->slice_start[rw]);
}

static void tg_dispatch_one_bio(struct throtl_grp *tg, int rw)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	struct throtl_service_queue *parent_sq = sq->parent_sq;
	struct throtl_grp *parent_tg = sq_to_tg(parent_sq);
	struct throtl_held *h = throtl_pop_queued(&sq->queued[rw]);

	sq->nr_queued[rw]--;
	throtl_charge_bio(tg, rw, h->bytes, h->bps_done);
	throtl_note(tg->td, tg, rw, IOS_THROTL_DISPATCH, 0);
	if (parent_tg) {
		throtl_add_bio_tg(h, &tg->qnode_on_parent[rw], parent_tg);
		start_parent_slice_with_credit(tg, parent_tg, rw);
	} else {
		/* past the top: its bytes are charged for good */
		h->bps_done = true;
		throtl_qnode_add_bio(h, &tg->qnode_on_parent[rw], &parent_sq->queued[rw]);
		tg->td->nr_queued[rw]--;
	}
	throtl_trim_slice(tg, rw);
}

/* throtl_dispatch_tg: at most 6 reads then 2 writes (75 % / 25 % of the quantum) */
static unsigned throtl_dispatch_tg(struct throtl_grp *tg)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	unsigned nr_reads = 0, nr_writes = 0;
	unsigned max_nr_reads = THROTL_GRP_QUANTUM * 3 / 4;
	unsigned max_nr_writes = THROTL_GRP_QUANTUM - max_nr_reads;
	struct throtl_held *h;

	while ((h = throtl_peek_queued(&sq->queued[0])) &&
	       tg_may_dispatch(tg, 0, h->bytes, h->bps_done, NULL)) {
		tg_dispatch_one_bio(tg, 0);
		if (++nr_reads >= max_nr_reads)
			break;
	}
	while ((h = throtl_peek_queued(&sq->queued[1])) &&
	       tg_may_dispatch(tg, 1, h->bytes, h->bps_done, NULL)) {
		tg_dispatch_one_bio(tg, 1);
		if (++nr_writes >= max_nr_writes)
			break;
	}
	return nr_reads + nr_writes;
}

static unsigned throtl_select_dispatch(struct throtl_service_queue *parent_sq)
{
	unsigned nr_disp = 0;

	while (parent_sq->nr_pending) {
		struct throtl_grp *tg =
			ios_list_first_entry(&parent_sq->pending, struct throtl_grp, rb_node);
		struct throtl_service_queue *sq = &tg->service_queue;

		if (time_before(tg->td->jiffies, tg->disptime))
			break;
		nr_disp += throtl_dispatch_tg(tg);
		if (sq->nr_queued[0] || sq->nr_queued[1])
			tg_update_disptime(tg);
		else
			throtl_dequeue_tg(tg);
		if (nr_disp >= THROTL_QUANTUM)
			break;
	}
	return nr_disp;
}

/* blk_throtl_dispatch_work_fn: what reached the top goes on, reads first */
static void blk_throtl_dispatch_work_fn(struct throtl_data *td, uint64_t now)
{
	struct throtl_held *list = NULL, **tail = &list, *h;

	for (int rw = 0; rw < 2; rw++)
		while ((h = throtl_pop_queued(&td->service_queue.queued[rw]))) {
			*tail = h;
			tail = &h->next;
		}
	while ((h = list)) {
		struct ios_bio *bio = h->bio;

		list = h->next;
		free(h);
		bio->qos_flags |= IOS_BIO_BPS_THROTTLED;
		td->resubmit(td->queue, bio, now);
	}
}

/* throtl_pending_timer_fn for @sq's timer */
static void throtl_pending_timer_fn(struct throtl_service_queue *sq, uint64_t now)
{
	struct throtl_data *td = sq_to_td(sq);
	struct throtl_grp *tg = sq_to_tg(sq);
	struct throtl_service_queue *parent_sq;
	bool dispatched;

again:
	parent_sq = sq->parent_sq;
	dispatched = false;
	for (;;) {
		unsigned nr = throtl_select_dispatch(sq);

		if (nr) {
			throtl_note(td, tg, 0, IOS_THROTL_ROUND, nr);
			dispatched = true;
		}
		if (throtl_schedule_next_dispatch(sq, false))
			break;
	}
	if (!dispatched)
		return;
	if (parent_sq) {
		/* bios moved up into @tg: the parent may dispatch them now */
		if (tg->flags & THROTL_TG_WAS_EMPTY) {
			tg_update_disptime(tg);
			if (!throtl_schedule_next_dispatch(parent_sq, false)) {
				sq = parent_sq;
				tg = sq_to_tg(sq);
				goto again;
			}
		}
	} else {
		blk_throtl_dispatch_work_fn(td, now);
	}
}

/* ---- the ops ---- */

static struct throtl_grp *bio_tg(struct throtl_data *td, const struct ios_bio *bio)
{
	struct ios_blkg *g = ios_blkg_of(td->ctl, ios_bio_blkcg(bio));

	return g ? g->pd[IOS_BLKCG_MAX] : &td->tgs[0];
}

/* blk_should_throtl: iops limits count every piece, bps limits only an uncharged one */
static bool blk_should_throtl(const struct throtl_grp *tg, int rw, bool bps_done)
{
	return tg->has_rules_iops[rw] || (tg->has_rules_bps[rw] && !bps_done);
}

int ios_blk_throtl_bio_split(struct ios_queue *q, struct ios_bio *bio, uint64_t bytes,
			     bool bps_done, uint64_t now)
{
	struct throtl_data *td = q_to_td(q);
	struct throtl_grp *tg;
	struct throtl_service_queue *sq;
	struct throtl_qnode *qn = NULL;
	struct throtl_held *h;
	int rw = bio->dir == IOS_WRITE;

	if (!td)
		return 0;
	td_set_now(td, now);
	tg = bio_tg(td, bio);
	if (!blk_should_throtl(tg, rw, bps_done))
		return 0;
	/* throtl_bio_data_size: a discard counts as one sector */
	if (bio->flags & IOS_REQ_DISCARD)
		bytes = 512;
	sq = &tg->service_queue;
	for (;;) {
		/* FIFO: behind bios already queued in the group */
		if (!sq->nr_queued[rw] && tg_may_dispatch(tg, rw, bytes, bps_done, NULL)) {
			throtl_charge_bio(tg, rw, bytes, bps_done);
			/* trim on the direct path too, or a quiet group's slice grows unbounded */
			throtl_trim_slice(tg, rw);
		} else if (td->prof->meta_in_debt && (bio->flags & IOS_REQ_META)) {
			/* bio_issue_as_root_blkg: no priority inversion; the debt is paid later */
			if (!bps_done)
				tg->carryover_bytes[rw] -= (int64_t)bytes;
			tg->carryover_ios[rw]--;
		} else {
			break;
		}
		qn = &tg->qnode_on_parent[rw];
		sq = sq->parent_sq;
		tg = sq_to_tg(sq);
		if (!tg)
			return 0;
	}

	h = calloc(1, sizeof(*h));
	if (!h) {
		fprintf(stderr, "iosched: blk-throttle: out of memory holding a bio\n");
		abort();
	}
	h->bio = bio;
	h->bytes = bytes;
	h->bps_done = bps_done;
	td->nr_queued[rw]++;
	throtl_add_bio_tg(h, qn, tg);
	throtl_note(td, tg, rw, IOS_THROTL_HELD, 0);
	if (tg->flags & THROTL_TG_WAS_EMPTY) {
		tg_update_disptime(tg);
		throtl_schedule_next_dispatch(tg->service_queue.parent_sq, true);
	}
	return 1;
}

/*
 * blk_throtl_bio: a piece of a split the task made carries IOS_BIO_BPS_THROTTLED
 * (step 2), so it counts for iops only; a bio that passes the top or is
 * let go is flagged as the kernel flags it.
 */
static int throtl_ops_bio(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	int held = ios_blk_throtl_bio_split(q, bio, (uint64_t)bio->nr_sectors * 512,
					    bio->qos_flags & IOS_BIO_BPS_THROTTLED, now);

	if (!held && q_to_td(q))
		bio->qos_flags |= IOS_BIO_BPS_THROTTLED;
	return held;
}

static struct throtl_service_queue *td_sq_of(struct throtl_data *td, unsigned i)
{
	return i < td->nr_tgs ? &td->tgs[i].service_queue : &td->service_queue;
}

static uint64_t throtl_ops_next_timer(struct ios_queue *q, uint64_t now)
{
	struct throtl_data *td = q_to_td(q);
	uint64_t best = UINT64_MAX;

	(void)now;
	if (!td)
		return UINT64_MAX;
	for (unsigned i = 0; i <= td->nr_tgs; i++) {
		struct throtl_service_queue *sq = td_sq_of(td, i);

		if (sq->timer_armed && jiffy_to_ns(td, sq->timer_expires) < best)
			best = jiffy_to_ns(td, sq->timer_expires);
	}
	return best;
}

/*
 * The timers due at @now fire, earliest expiry first; on a tie the top
 * service queue's, then the groups' from the highest id down (the order
 * the kernel's timer softirq runs timers of one tick in is not something a
 * caller can rely on; this one is fixed, so runs repeat).
 */
static void throtl_ops_timer(struct ios_queue *q, uint64_t now)
{
	struct throtl_data *td = q_to_td(q);

	if (!td)
		return;
	td_set_now(td, now);
	for (;;) {
		struct throtl_service_queue *due = NULL;

		for (unsigned i = td->nr_tgs + 1; i-- > 0;) {
			struct throtl_service_queue *sq = td_sq_of(td, i);

			if (sq->timer_armed && !time_after(sq->timer_expires, td->jiffies) &&
			    (!due || time_before(sq->timer_expires, due->timer_expires)))
				due = sq;
		}
		if (!due)
			break;
		due->timer_armed = false;
		throtl_pending_timer_fn(due, now);
	}
}

static void throtl_free_qnodes(struct ios_list_head *queued)
{
	struct throtl_held *h;

	while ((h = throtl_pop_queued(queued)))
		free(h);
}

/* blk_throtl_exit: bios still held at the run's end stay their submitters' */
static void throtl_ops_exit(struct ios_queue *q)
{
	struct throtl_data *td = q_to_td(q);

	if (!td)
		return;
	for (unsigned i = 0; i <= td->nr_tgs; i++) {
		struct throtl_service_queue *sq = td_sq_of(td, i);

		throtl_free_qnodes(&sq->queued[0]);
		throtl_free_qnodes(&sq->queued[1]);
	}
	/* the runner may have freed the tree already (it does, before the queue) */
	if (q->blkcg == td->ctl) {
		for (unsigned i = 0; i < td->nr_tgs; i++)
			td->tgs[i].blkg->pd[IOS_BLKCG_MAX] = NULL;
		td->ctl->conf_updated[IOS_BLKCG_MAX] = NULL;
	}
	q->throtl_data = NULL;
	free(td->tgs);
	free(td);
}

const struct ios_blk_throtl_ops ios_blk_throtl_ops = {
	.throtl_bio = throtl_ops_bio,
	.next_timer = throtl_ops_next_timer,
	.timer = throtl_ops_timer,
	.exit = throtl_ops_exit,
};

/* ---- configuration ---- */

static void tg_update_has_rules(struct throtl_grp *tg)
{
	struct throtl_grp *parent = sq_to_tg(tg->service_queue.parent_sq);

	for (int rw = 0; rw < 2; rw++) {
		tg->has_rules_iops[rw] = (parent && parent->has_rules_iops[rw]) ||
					 tg_iops_limit(tg, rw) != UINT32_MAX;
		tg->has_rules_bps[rw] = (parent && parent->has_rules_bps[rw]) ||
					tg_bps_limit(tg, rw) != UINT64_MAX;
	}
}

static void tg_conf_updated(struct throtl_grp *tg)
{
	struct throtl_data *td = tg->td;

	/* parents come first in the tree's order, so one pass updates every descendant */
	for (unsigned i = 0; i < td->nr_tgs; i++)
		tg_update_has_rules(&td->tgs[i]);
	/* do not judge what went out under the old limit by the new one */
	throtl_start_new_slice(tg, 0, false);
	throtl_start_new_slice(tg, 1, false);
	if (tg->flags & THROTL_TG_PENDING) {
		tg_update_disptime(tg);
		throtl_schedule_next_dispatch(tg->service_queue.parent_sq, true);
	}
}

/* io.max written during the run (a later job's exec_prerun): tg_set_limit's tail */
static void throtl_conf_updated(struct ios_queue *q, struct ios_blkg *g, uint64_t now)
{
	const struct ios_cgroup_v2 *v = g->cgroup ? g->cgroup->v2 : NULL;

	if (v)
		ios_blk_throtl_set_limit(q, g->cgroup, v->bps, v->iops, now);
}

int ios_blk_throtl_init(struct ios_queue *q, const struct ios_throtl_profile *p, unsigned hz,
			ios_throtl_resubmit_fn resubmit, uint64_t now)
{
	struct ios_blkcg_ctl *ctl = q ? q->blkcg : NULL;
	struct throtl_data *td;

	if (!ctl || !ctl->nr_blkgs || !p || !resubmit || q_to_td(q) ||
	    (hz != 100 && hz != 250 && hz != 300 && hz != 1000))
		return -EINVAL;
	td = calloc(1, sizeof(*td));
	if (!td)
		return -ENOMEM;
	td->tgs = calloc(ctl->nr_blkgs, sizeof(*td->tgs));
	if (!td->tgs) {
		free(td);
		return -ENOMEM;
	}
	td->nr_tgs = ctl->nr_blkgs;
	td->ctl = ctl;
	td->hz = hz;
	td->prof = p;
	td->resubmit = resubmit;
	td->queue = q;
	/* 6.12: HZ/50 on non-rotational queues; 6.6 without io.low: HZ/10 everywhere */
	td->throtl_slice = p->nonrot_short_slice && !q->rotational ? hz / 50 : hz / 10;
	throtl_service_queue_init(&td->service_queue, NULL);
	td_set_now(td, now);
	for (unsigned i = 0; i < ctl->nr_blkgs; i++) {
		struct throtl_grp *tg = &td->tgs[i];
		struct ios_blkg *g = &ctl->blkgs[i];
		const struct ios_cgroup_v2 *v = g->cgroup ? g->cgroup->v2 : NULL;

		tg->blkg = g;
		tg->td = td;
		throtl_service_queue_init(&tg->service_queue,
					  g->parent ? &td->tgs[g->parent - ctl->blkgs].service_queue
						    : &td->service_queue);
		ios_list_init(&tg->rb_node);
		for (int rw = 0; rw < 2; rw++) {
			ios_list_init(&tg->qnode_on_self[rw].node);
			ios_list_init(&tg->qnode_on_parent[rw].node);
			tg->qnode_on_self[rw].tg = tg->qnode_on_parent[rw].tg = tg;
			tg->bps[rw] = v ? v->bps[rw] : UINT64_MAX;
			tg->iops[rw] = v ? v->iops[rw] : UINT32_MAX;
		}
		tg_update_has_rules(tg);
		g->pd[IOS_BLKCG_MAX] = tg;
	}
	ctl->conf_updated[IOS_BLKCG_MAX] = throtl_conf_updated;
	q->throtl_data = td;
	return 0;
}

int ios_blk_throtl_set_limit(struct ios_queue *q, const struct ios_cgroup *cg,
			     const uint64_t bps[2], const uint32_t iops[2], uint64_t now)
{
	struct throtl_data *td = q_to_td(q);
	struct ios_blkg *g = td ? ios_blkg_of(td->ctl, cg) : NULL;
	struct throtl_grp *tg;

	if (!g || !g->parent)
		return -EINVAL;
	td_set_now(td, now);
	tg = g->pd[IOS_BLKCG_MAX];
	tg_update_carryover(tg);
	for (int rw = 0; rw < 2; rw++) {
		tg->bps[rw] = bps[rw];
		tg->iops[rw] = iops[rw];
	}
	tg_conf_updated(tg);
	return 0;
}

int ios_blk_throtl_view(struct ios_queue *q, const struct ios_cgroup *cg, int dir,
			struct ios_throtl_grp_view *v)
{
	struct throtl_data *td = q_to_td(q);
	struct ios_blkg *g = td ? ios_blkg_of(td->ctl, cg) : NULL;
	const struct throtl_grp *tg;
	int rw = dir == IOS_WRITE;

	if (!g)
		return -EINVAL;
	tg = g->pd[IOS_BLKCG_MAX];
	v->slice_start = (int64_t)(tg->slice_start[rw] - THROTL_JIFFY_ORIGIN);
	v->slice_end = (int64_t)(tg->slice_end[rw] - THROTL_JIFFY_ORIGIN);
	v->bytes_disp = tg->bytes_disp[rw];
	v->io_disp = tg->io_disp[rw];
	v->carryover_bytes = tg->carryover_bytes[rw];
	v->carryover_ios = tg->carryover_ios[rw];
	v->nr_queued = tg->service_queue.nr_queued[rw];
	v->pending = tg->flags & THROTL_TG_PENDING;
	v->disptime = (int64_t)(tg->disptime - THROTL_JIFFY_ORIGIN);
	return 0;
}

void ios_blk_throtl_set_note(struct ios_queue *q, ios_throtl_note_fn fn, void *priv)
{
	struct throtl_data *td = q_to_td(q);

	if (td) {
		td->note = fn;
		td->note_priv = priv;
	}
}

unsigned ios_blk_throtl_slice(struct ios_queue *q)
{
	struct throtl_data *td = q_to_td(q);

	return td ? td->throtl_slice : 0;
}

int64_t ios_blk_throtl_jiffies(struct ios_queue *q, uint64_t now)
{
	struct throtl_data *td = q_to_td(q);

	if (!td)
		return 0;
	td_set_now(td, now);
	return (int64_t)(td->jiffies - THROTL_JIFFY_ORIGIN);
}
