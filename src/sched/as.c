/*
 * anticipatory: the anticipatory I/O scheduler of Linux 2.6 (Nick Piggin and
 * Jens Axboe, block/as-iosched.c), following the 2.6.31 code.
 *
 * The problem it solves is "deceptive idleness". A process that reads a
 * file sequentially with synchronous reads has at most one read queued: the
 * moment its read completes the queue looks empty of its I/O, and a
 * work-conserving scheduler moves the head to some other process's far
 * request. The reader's next read, issued a few microseconds later, then
 * costs two long seeks. AS instead holds the disk idle for a short while
 * after a sync request completes, betting that the same process is about to
 * ask for something close by.
 *
 * Requests are split into two classes, sync (reads) and async (writes).
 * Each class has a sector-sorted tree and a FIFO whose entries expire
 * read_expire / write_expire after arrival, as in deadline. On top of that:
 *
 *  - Elevator. Within a class the next request is the nearest one ahead of
 *    the head; a request behind the head is taken instead when it is less
 *    than half as far (backward seeks cost double) and no more than 1 Mi
 *    sectors back. Past the last request the sweep wraps to the lowest.
 *  - Batches. The disk serves one class at a time. A sync batch runs for
 *    read_batch_expire, counted from the completion of its first request;
 *    an async batch runs for write_batch_expire or write_batch_count
 *    requests. When both classes wait and the batch is over, the other class
 *    gets the disk, but only after every request of the old batch has
 *    completed. Only the running batch's class has its FIFO looked at (and at
 *    most once per expiry interval, to avoid a seek storm): an expired write
 *    waits for the read batch to end. write_batch_count adapts: a write batch
 *    that overran its time shrinks the count, one that ended early grows it.
 *  - Anticipation (sync batches only, antic_expire > 0). After dispatching a
 *    sync request of process P, AS will not dispatch a request that P is
 *    unlikely to prefer: it waits for P's request to complete (WAIT_REQ),
 *    then up to antic_expire more (WAIT_NEXT), timed from that completion.
 *    The wait ends early when a request arrives from P, or from anyone close
 *    to where the head is (within 4 MiB, a window that widens as the wait
 *    goes on, or closer than P's mean seek distance), or when P's statistics
 *    say waiting is pointless: its mean think time exceeds antic_expire, or
 *    it has more I/O queued, or it exited and exited processes have rarely
 *    been saved by a cooperating process's request. A process with no think
 *    time history is judged by what new processes have done so far.
 *  - Per-process statistics (struct as_io_context): decaying means of the
 *    think time (from a sync request's completion to the process's next sync
 *    request, capped at 20 ms) and of the seek distance between its sync
 *    requests, each kept in fixed point with weight 7/8 on the past, and the
 *    same means over processes' first requests. est_time in the stats table
 *    shows the latter with the exit probabilities.
 *  - Queue slots: while AS anticipates a process, that process may allocate
 *    requests beyond nr_requests (may_queue says MUST), so it never sleeps
 *    on a full queue while the disk waits for it.
 *
 * Which requests are "sync" is the tunable sync_class. 2.6.31 asks
 * rq_is_sync(): reads and writes flagged sync (O_DIRECT, fsync, O_SYNC) go
 * together, which is what "sync" selects. Until Linux 2.6.20 an O_DIRECT
 * write was a plain write and AS batched it with write-back, which is the
 * kernel Jens Axboe measured in December 2004 (seed 001): the default "dir"
 * classifies by data direction, so every write is async.
 *
 * Time is in nanoseconds (the kernel counted jiffies; HZ=1000 is assumed
 * where a rule is stated in jiffies, such as the 1 ms steps by which the
 * "close" window widens). The anticipation timer is a wake-up asked for
 * through next_wakeup(); a timeout that lapsed while nothing called the
 * scheduler is processed at the next hook that carries the time.
 *
 * Tunables (sysfs names, ms): read_expire 125, write_expire 250,
 * read_batch_expire 500, write_batch_expire 125, antic_expire 6; plus the
 * lab's sync_class (dir|sync). The kernel clamped to 0..INT_MAX; we reject
 * values outside 0..3600000. See docs/as.md.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "iosched/block.h"
#include "iosched/sched.h"
#include "core/builtin.h"

#define AS_MS			IOS_NSEC_PER_MSEC
/* think times are capped just under 20 ms (MAX_THINKTIME, HZ/50) */
#define AS_MAX_THINKTIME_NS	(20 * AS_MS)
/* the furthest the elevator goes backwards, in sectors */
#define AS_MAXBACK		(1024ULL * 1024)
#define AS_BACK_PENALTY		2
/* base "close" window, in sectors (4 MiB) */
#define AS_CLOSE_SECTORS	8192ULL
/* fixed point: 1.0 == 256 */
#define AS_FIX			256ULL

enum { AS_ASYNC = 0, AS_SYNC = 1 };

enum as_antic {
	AS_ANTIC_OFF = 0,	/* not anticipating */
	AS_ANTIC_WAIT_REQ,	/* the anticipated process's request is still in the device */
	AS_ANTIC_WAIT_NEXT,	/* it completed; waiting for the process's next request */
	AS_ANTIC_FINISHED,	/* a candidate arrived or the wait timed out */
};

enum as_class_mode {
	AS_CLASS_DIR = 0,	/* reads sync, every write async (before 2.6.20) */
	AS_CLASS_SYNC,		/* rq_is_sync(): sync-flagged writes join the reads */
};

/* where a request is, kept in sched_priv[1] */
enum as_rq_state {
	AS_RQ_NEW = 0,
	AS_RQ_QUEUED,		/* in a sort tree and a FIFO */
	AS_RQ_MOVED,		/* on the front list, counted as dispatched (alias, requeue) */
	AS_RQ_FRONT,		/* on the front list, not counted (inserted at the front) */
	AS_RQ_DISPATCHED,	/* in the device, counted */
	AS_RQ_DISPATCHED_RAW,	/* in the device, not counted */
};

/* Per-process state: the kernel's as_io_context. */
struct as_io_context {
	const struct ios_ioc *ioc;	/* lookup key only: never dereferenced */
	struct ios_rb_node node;	/* as_data.aic_tree, by ioc address */
	struct as_io_context *next_alloc;

	bool running;			/* the task has not exited */
	bool io_started;		/* it has queued a sync request */
	bool io_running;		/* a sync request of it has completed */
	unsigned nr_queued;		/* its requests in the sort trees */
	uint64_t last_end_ns;		/* completion of its last sync request */
	uint64_t last_pos;		/* end sector of its last sync request */

	uint64_t ttime_samples, ttime_total, ttime_mean_ns;	/* fixed point */
	uint64_t seek_samples, seek_total, seek_mean;		/* sectors */
};

struct as_data {
	/* tunables, indexed by class: [AS_ASYNC] write_*, [AS_SYNC] read_* */
	uint64_t fifo_expire_ns[2];
	uint64_t batch_expire_ns[2];
	uint64_t antic_expire_ns;
	int class_mode;

	struct ios_rb_root sort_list[2];
	struct ios_list_head fifo_list[2];
	struct ios_list_head front;		/* aliases, requeues: served first */
	struct ios_request *next_rq[2];		/* the elevator's next pick per class */
	uint64_t last_sector[2];		/* end of the last dispatch per class */

	/* anticipation */
	int antic_status;			/* enum as_antic */
	uint64_t antic_start_ns;		/* completion of the anticipated request */
	uint32_t antic_pid;			/* its process, for the plot's timeline */
	struct as_io_context *antic_aic;	/* process of the last sync dispatch */
	bool ioc_finished;			/* ...and its request has completed */

	/* batches */
	int batch_dir;				/* class of the running batch */
	bool changed_batch;			/* switching: old batch still in the device */
	bool new_batch;				/* sync batch: waiting for its first completion */
	uint64_t current_batch_expires_ns;
	uint64_t last_check_fifo_ns[2];
	int write_batch_count;			/* adaptive write batch length */
	int current_write_count;		/* writes left in this batch */
	bool write_batch_idled;			/* the write batch ran out of writes */
	unsigned nr_dispatched;			/* counted requests in the device */

	/* what new processes do (est_time) */
	uint64_t exit_prob;			/* fixed point */
	uint64_t exit_no_coop;			/* fixed point */
	uint64_t new_ttime_total, new_ttime_mean_ns;
	uint64_t new_seek_total, new_seek_mean;

	struct ios_rb_root aic_tree;
	struct as_io_context *aics;		/* every aic, for exit() */

	/* read-only state for --dump-state */
	int queued[2];
	int exit_prob_pct, exit_no_coop_pct;
	uint64_t antic_waits;			/* anticipations started */
	uint64_t antic_hits;			/* ended by an arriving request */
	uint64_t antic_timeouts;
	uint64_t batches[2];			/* batches started per class */
	uint64_t fifo_expired[2];		/* dispatches taken from an expired FIFO head */
	uint64_t aliases;
	uint64_t front_merged;
};

static struct as_data *as_data(struct ios_queue *q)
{
	return q->sched_data;
}

static uint64_t as_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t as_dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static int as_bio_class(const struct as_data *ad, int dir, uint32_t flags)
{
	if (dir == IOS_READ)
		return AS_SYNC;
	return ad->class_mode == AS_CLASS_SYNC && (flags & IOS_REQ_SYNC) ? AS_SYNC : AS_ASYNC;
}

static int as_rq_class(const struct as_data *ad, const struct ios_request *rq)
{
	return as_bio_class(ad, rq->dir, rq->flags);
}

static struct as_io_context *rq_aic(const struct ios_request *rq)
{
	return rq->sched_priv[0];
}

static enum as_rq_state rq_state(const struct ios_request *rq)
{
	return (enum as_rq_state)(uintptr_t)rq->sched_priv[1];
}

static void rq_set_state(struct ios_request *rq, enum as_rq_state s)
{
	rq->sched_priv[1] = (void *)(uintptr_t)s;
}

static void as_set_exit_prob(struct as_data *ad, uint64_t v)
{
	ad->exit_prob = v;
	ad->exit_prob_pct = (int)(100 * v / AS_FIX);
}

static void as_set_exit_no_coop(struct as_data *ad, uint64_t v)
{
	ad->exit_no_coop = v;
	ad->exit_no_coop_pct = (int)(100 * v / AS_FIX);
}

/* one more sample of "yes" (1.0) or "no" (0) into a 7/8 decaying probability */
static uint64_t as_decay(uint64_t p, bool yes)
{
	return (7 * p + (yes ? AS_FIX : 0)) / 8;
}

/* ---- io contexts ---- */

static struct as_io_context *as_aic_find(const struct as_data *ad, const struct ios_ioc *ioc)
{
	struct ios_rb_node *n = ad->aic_tree.node;
	uintptr_t key = (uintptr_t)ioc;

	while (n) {
		struct as_io_context *aic = ios_rb_entry(n, struct as_io_context, node);
		uintptr_t k = (uintptr_t)aic->ioc;

		if (key == k)
			return aic;
		n = n->child[key > k];
	}
	return NULL;
}

/*
 * The aic lives in a tree of this queue rather than behind ioc->icq[]:
 * test harness contexts outlive the queue and serve several queues, so
 * neither side could safely clear the other's pointer. The tree is only
 * searched, never walked in address order, so addresses cannot change
 * results. Lifetime: an aic stays until the queue's exit(); a task's exit
 * only clears `running` (the kernel's AS_TASK_RUNNING), so requests
 * (rq->sched_priv[0]) and antic_aic may point at the aic of an exited task
 * for as long as they like, and aic->ioc is a key, never dereferenced.
 */
static struct as_io_context *as_aic_get(struct as_data *ad, const struct ios_ioc *ioc)
{
	struct ios_rb_node **link = &ad->aic_tree.node, *parent = NULL;
	uintptr_t key = (uintptr_t)ioc;
	struct as_io_context *aic;

	while (*link) {
		uintptr_t k;

		parent = *link;
		aic = ios_rb_entry(parent, struct as_io_context, node);
		k = (uintptr_t)aic->ioc;
		if (key == k)
			return aic;
		link = &parent->child[key > k];
	}
	aic = calloc(1, sizeof(*aic));
	if (!aic)
		return NULL;
	aic->ioc = ioc;
	aic->running = ioc->nr_tasks != 0;
	ios_rb_link(&aic->node, parent, link);
	ios_rb_insert_color(&aic->node, &ad->aic_tree);
	aic->next_alloc = ad->aics;
	ad->aics = aic;
	return aic;
}

static void as_update_thinktime(struct as_data *ad, struct as_io_context *aic, uint64_t ttime)
{
	if (aic->ttime_samples == 0) {
		ad->new_ttime_total = (7 * ad->new_ttime_total + AS_FIX * ttime) / 8;
		ad->new_ttime_mean_ns = ad->new_ttime_total / AS_FIX;
		as_set_exit_prob(ad, as_decay(ad->exit_prob, false));
	}
	aic->ttime_samples = as_decay(aic->ttime_samples, true);
	aic->ttime_total = (7 * aic->ttime_total + AS_FIX * ttime) / 8;
	aic->ttime_mean_ns = (aic->ttime_total + AS_FIX / 2) / aic->ttime_samples;
}

static void as_update_seekdist(struct as_data *ad, struct as_io_context *aic, uint64_t sdist)
{
	uint64_t cap;

	if (aic->seek_samples == 0) {
		ad->new_seek_total = (7 * ad->new_seek_total + AS_FIX * sdist) / 8;
		ad->new_seek_mean = ad->new_seek_total / AS_FIX;
	}
	/*
	 * One odd jump (a fragment, a page-in) must not make a sequential
	 * process look seeky for long: a sample counts at most a little over
	 * four times the current mean, with a wider allowance while the mean
	 * is young.
	 */
	cap = 4 * aic->seek_mean + (aic->seek_samples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64);
	if (sdist > cap)
		sdist = cap;
	aic->seek_samples = as_decay(aic->seek_samples, true);
	aic->seek_total = (7 * aic->seek_total + AS_FIX * sdist) / 8;
	aic->seek_mean = (aic->seek_total + aic->seek_samples / 2) / aic->seek_samples;
}

/*
 * A sync request from @aic's process (or one that cooperates with it) has
 * arrived: fold the think time since its last completion and the seek from
 * its last request into its means.
 */
static void as_update_iohist(struct as_data *ad, struct as_io_context *aic,
			     const struct ios_request *rq, uint64_t now)
{
	if (!aic || as_rq_class(ad, rq) != AS_SYNC)
		return;
	if (aic->io_running || aic->io_started) {
		uint64_t ttime = 0;

		/* with I/O of its own still queued, the process is not thinking */
		if (aic->io_running && aic->nr_queued == 0) {
			ttime = now > aic->last_end_ns ? now - aic->last_end_ns : 0;
			if (ttime > AS_MAX_THINKTIME_NS - AS_MS)
				ttime = AS_MAX_THINKTIME_NS - AS_MS;
		}
		as_update_thinktime(ad, aic, ttime);
		as_update_seekdist(ad, aic, as_dist(rq->sector, aic->last_pos));
	}
	aic->last_pos = ios_rq_end(rq);
	aic->io_started = true;
}

/* ---- the elevator ---- */

/*
 * Of two requests of one class, the one the head should go to next from
 * the end of the last dispatch: ahead beats far behind; behind counts
 * double; ties go to the higher sector.
 */
static struct ios_request *as_choose_req(const struct as_data *ad, struct ios_request *r1,
					 struct ios_request *r2)
{
	uint64_t last, d[2], s[2];
	bool wrap[2];
	struct ios_request *r[2] = { r1, r2 };

	if (!r1 || r1 == r2)
		return r2;
	if (!r2)
		return r1;
	last = ad->last_sector[as_rq_class(ad, r1)];
	for (int i = 0; i < 2; i++) {
		s[i] = r[i]->sector;
		wrap[i] = false;
		if (s[i] >= last) {
			d[i] = s[i] - last;
		} else if (s[i] + AS_MAXBACK >= last) {
			d[i] = (last - s[i]) * AS_BACK_PENALTY;
		} else {
			wrap[i] = true;
			d[i] = 0;
		}
	}
	if (wrap[0] != wrap[1])
		return wrap[0] ? r2 : r1;
	if (wrap[0])
		return s[0] <= s[1] ? r1 : r2;
	if (d[0] != d[1])
		return d[0] < d[1] ? r1 : r2;
	return s[0] >= s[1] ? r1 : r2;
}

/* The next pick after @last leaves: its tree successor (wrapping) or predecessor. */
static struct ios_request *as_find_next_rq(const struct as_data *ad, struct ios_request *last)
{
	struct ios_request *next = ios_elv_rb_latter(last);
	struct ios_request *prev = ios_elv_rb_former(last);

	if (!next) {
		next = ios_rb_to_rq(ios_rb_first(&ad->sort_list[as_rq_class(ad, last)]));
		if (next == last)
			next = NULL;
	}
	return as_choose_req(ad, next, prev);
}

/* ---- anticipation ---- */

static bool as_antic_waiting(const struct as_data *ad)
{
	return ad->antic_status == AS_ANTIC_WAIT_REQ || ad->antic_status == AS_ANTIC_WAIT_NEXT;
}

static uint64_t as_antic_deadline(const struct as_data *ad)
{
	return as_add_sat(ad->antic_start_ns, ad->antic_expire_ns);
}

static bool as_antic_expired(const struct as_data *ad, uint64_t now)
{
	return now >= as_antic_deadline(ad);
}

static void as_antic_waitnext(struct as_data *ad)
{
	IOS_BUG_ON(ad->antic_status != AS_ANTIC_OFF && ad->antic_status != AS_ANTIC_WAIT_REQ);
	ad->antic_status = AS_ANTIC_WAIT_NEXT;
}

/* Start anticipating; the timed part starts when the request completes. */
static void as_antic_waitreq(struct as_data *ad)
{
	IOS_BUG_ON(ad->antic_status == AS_ANTIC_FINISHED);
	if (ad->antic_status != AS_ANTIC_OFF)
		return;
	ad->antic_waits++;
	if (!ad->antic_aic || ad->ioc_finished)
		as_antic_waitnext(ad);
	else
		ad->antic_status = AS_ANTIC_WAIT_REQ;
}

/* A good candidate arrived: stop waiting (the block layer runs the queue next). */
static void as_antic_stop(struct as_data *ad)
{
	if (as_antic_waiting(ad))
		ad->antic_status = AS_ANTIC_FINISHED;
}

/*
 * The anticipation timer: called with the time of every hook, it does what
 * the kernel's timer function did at the deadline if the deadline passed.
 * The process was not saved by anyone: that is evidence for the exit
 * statistics.
 */
static void as_antic_timeout(struct as_data *ad, uint64_t now)
{
	struct as_io_context *aic = ad->antic_aic;

	if (ad->antic_status != AS_ANTIC_WAIT_NEXT || !as_antic_expired(ad, now))
		return;
	ad->antic_status = AS_ANTIC_FINISHED;
	ad->antic_timeouts++;
	if (!aic)
		return;
	if (aic->ttime_samples == 0)
		as_set_exit_prob(ad, as_decay(ad->exit_prob, true));
	if (!aic->running)
		as_set_exit_no_coop(ad, as_decay(ad->exit_no_coop, true));
}

/*
 * Is @rq (a sync request from another process) close to where the head is?
 * The window is 4 MiB at first and doubles every millisecond the wait has
 * lasted; past 20 ms or antic_expire anything counts. Closer than the
 * anticipated process's own mean seek counts too.
 */
static bool as_close_req(const struct as_data *ad, const struct as_io_context *aic,
			 const struct ios_request *rq, uint64_t now)
{
	uint64_t last = ad->last_sector[ad->batch_dir], next = rq->sector;
	uint64_t delay_ms = 0, delta, mean;

	if (ad->antic_status != AS_ANTIC_OFF && ad->ioc_finished && now > ad->antic_start_ns)
		delay_ms = (now - ad->antic_start_ns) / AS_MS;
	if (delay_ms == 0)
		delta = AS_CLOSE_SECTORS;
	else if (delay_ms <= 20 && delay_ms * AS_MS <= ad->antic_expire_ns)
		delta = AS_CLOSE_SECTORS << delay_ms;
	else
		return true;
	if (last <= next + delta / 2 && next <= last + delta)
		return true;
	mean = aic->seek_samples == 0 ? ad->new_seek_mean : aic->seek_mean;
	return mean > as_dist(next, last);
}

/*
 * Should the wait for the anticipated process end, with @rq (may be NULL)
 * as the candidate? Yes for its own request, a close request, or when its
 * history says waiting will not pay.
 */
static bool as_can_break_anticipation(struct as_data *ad, struct ios_request *rq, uint64_t now)
{
	struct as_io_context *aic = ad->antic_aic;

	if (!aic)
		return false;
	if (rq && rq_aic(rq) == aic)
		return true;
	if (ad->ioc_finished && as_antic_expired(ad, now))
		return true;	/* the timeout is due */
	if (aic->nr_queued > 0)
		return true;	/* it has more I/O queued already */
	if (rq && as_rq_class(ad, rq) == AS_SYNC && as_close_req(ad, aic, rq, now)) {
		/*
		 * A neighbour's request: take it, and count it in the
		 * anticipated process's history, which helps processes that
		 * cooperate on one area of the disk.
		 */
		if (!aic->running) {
			if (aic->ttime_samples == 0)
				as_set_exit_prob(ad, as_decay(ad->exit_prob, true));
			as_set_exit_no_coop(ad, as_decay(ad->exit_no_coop, false));
		}
		as_update_iohist(ad, aic, rq, now);
		return true;
	}
	if (!aic->running) {
		if (aic->ttime_samples == 0)
			as_set_exit_prob(ad, as_decay(ad->exit_prob, true));
		/* exited processes are rarely saved by a cooperating request */
		if (ad->exit_no_coop > AS_FIX / 2)
			return true;
	}
	if (aic->ttime_samples == 0) {
		if (ad->new_ttime_mean_ns > ad->antic_expire_ns)
			return true;
		if (ad->exit_prob * ad->exit_no_coop > (AS_FIX / 2) * AS_FIX)
			return true;
	} else if (aic->ttime_mean_ns > ad->antic_expire_ns) {
		return true;	/* it thinks too long between requests */
	}
	return false;
}

/* Hold the disk for the anticipated process rather than dispatch @rq? */
static bool as_can_anticipate(struct as_data *ad, struct ios_request *rq, uint64_t now)
{
	if (!ad->antic_aic)
		return false;	/* the last dispatch was async */
	if (ad->antic_status == AS_ANTIC_FINISHED)
		return false;	/* just finished waiting: serve the next request */
	return !as_can_break_anticipation(ad, rq, now);
}

/* ---- queueing ---- */

/* Take @rq off its tree and FIFO (it leaves to dispatch or is merged away). */
static void as_remove_queued(struct as_data *ad, struct ios_request *rq)
{
	int cls = as_rq_class(ad, rq);
	struct as_io_context *aic = rq_aic(rq);

	IOS_BUG_ON(rq_state(rq) != AS_RQ_QUEUED);
	if (aic) {
		IOS_BUG_ON(aic->nr_queued == 0);
		aic->nr_queued--;
	}
	if (ad->next_rq[cls] == rq)
		ad->next_rq[cls] = as_find_next_rq(ad, rq);
	ios_list_del(&rq->queuelist);
	ios_elv_rb_del(&ad->sort_list[cls], rq);
	ad->queued[cls]--;
}

/*
 * @rq goes to the device: the anticipation state restarts from it, the
 * elevator moves past it, and the batch counts it.
 */
static void as_move_to_dispatch(struct as_data *ad, struct ios_request *rq)
{
	int cls = as_rq_class(ad, rq);

	as_antic_stop(ad);
	ad->antic_status = AS_ANTIC_OFF;
	ad->last_sector[cls] = ios_rq_end(rq);
	if (cls == AS_SYNC) {
		ad->antic_aic = rq_aic(rq);
		ad->antic_pid = rq->ioc ? rq->ioc->pid : 0;
	} else {
		ad->antic_aic = NULL;
		if (ad->current_write_count)
			ad->current_write_count--;
	}
	ad->ioc_finished = false;
	ad->next_rq[cls] = as_find_next_rq(ad, rq);
	as_remove_queued(ad, rq);
	rq_set_state(rq, AS_RQ_MOVED);
	ad->nr_dispatched++;
}

/*
 * Put @rq in its sort tree. 2.6.31's tree held one request per start
 * sector: an older request at the same sector (an alias, O_DIRECT readers
 * of one block) goes straight to dispatch, via the front list.
 */
static void as_add_rq_rb(struct as_data *ad, struct ios_request *rq)
{
	struct ios_request *alias;

	ios_elv_rb_add(&ad->sort_list[as_rq_class(ad, rq)], rq);
	alias = ios_elv_rb_former(rq);
	if (alias && alias->sector == rq->sector) {
		as_move_to_dispatch(ad, alias);
		ios_list_add_tail(&alias->queuelist, &ad->front);
		ad->aliases++;
	}
}

static int as_init(struct ios_queue *q)
{
	struct as_data *ad = as_data(q);

	for (int c = 0; c < 2; c++) {
		ad->sort_list[c] = IOS_RB_ROOT;
		ios_list_init(&ad->fifo_list[c]);
		ad->next_rq[c] = NULL;
		ad->last_sector[c] = 0;
		ad->last_check_fifo_ns[c] = 0;
		ad->queued[c] = 0;
	}
	ios_list_init(&ad->front);
	ad->aic_tree = IOS_RB_ROOT;
	ad->aics = NULL;
	ad->antic_status = AS_ANTIC_OFF;
	ad->antic_aic = NULL;
	ad->batch_dir = AS_SYNC;
	ad->current_batch_expires_ns = ad->batch_expire_ns[AS_SYNC];
	/* a tenth of the write batch time in ms (jiffies at HZ=1000), at least 2 */
	ad->write_batch_count = (int)(ad->batch_expire_ns[AS_ASYNC] / AS_MS / 10);
	if (ad->write_batch_count < 2)
		ad->write_batch_count = 2;
	as_set_exit_prob(ad, 0);
	as_set_exit_no_coop(ad, 0);
	return 0;
}

static void as_exit(struct ios_queue *q)
{
	struct as_data *ad = as_data(q);

	IOS_BUG_ON(!ios_list_empty(&ad->front));
	IOS_BUG_ON(!ios_list_empty(&ad->fifo_list[AS_SYNC]));
	IOS_BUG_ON(!ios_list_empty(&ad->fifo_list[AS_ASYNC]));
	while (ad->aics) {
		struct as_io_context *aic = ad->aics;

		ad->aics = aic->next_alloc;
		free(aic);
	}
	ad->aic_tree = IOS_RB_ROOT;
	ad->antic_aic = NULL;
}

static int as_set_request(struct ios_queue *q, struct ios_request *rq)
{
	struct as_data *ad = as_data(q);

	rq->sched_priv[0] = NULL;
	rq_set_state(rq, AS_RQ_NEW);
	if (!rq->ioc)
		return 0;
	rq->sched_priv[0] = as_aic_get(ad, rq->ioc);
	return rq->sched_priv[0] ? 0 : -ENOMEM;
}

static void as_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
		      unsigned flags)
{
	struct as_data *ad = as_data(q);
	struct as_io_context *aic;
	int cls;

	as_antic_timeout(ad, now_ns);
	if (flags & (IOS_INSERT_FRONT | IOS_INSERT_REQUEUE)) {
		/*
		 * Requeued requests stay counted as dispatched, as in the
		 * kernel, where they went back to the dispatch queue.
		 */
		enum as_rq_state s = rq_state(rq);

		rq_set_state(rq, s == AS_RQ_DISPATCHED || s == AS_RQ_MOVED ? AS_RQ_MOVED
									    : AS_RQ_FRONT);
		ios_list_add(&rq->queuelist, &ad->front);
		return;
	}

	cls = as_rq_class(ad, rq);
	aic = rq_aic(rq);
	if (!aic && rq->ioc)
		aic = rq->sched_priv[0] = as_aic_find(ad, rq->ioc);
	as_update_iohist(ad, aic, rq, now_ns);
	if (aic)
		aic->nr_queued++;
	rq_set_state(rq, AS_RQ_QUEUED);
	as_add_rq_rb(ad, rq);
	rq->fifo_time_ns = as_add_sat(now_ns, ad->fifo_expire_ns[cls]);
	ios_list_add_tail(&rq->queuelist, &ad->fifo_list[cls]);
	ad->queued[cls]++;

	/* keep the elevator's pick current, and see whether we were waiting for this */
	ad->next_rq[cls] = as_choose_req(ad, rq, ad->next_rq[cls]);
	if (as_antic_waiting(ad) && as_can_break_anticipation(ad, rq, now_ns)) {
		as_antic_stop(ad);
		ad->antic_hits++;
	}
}

/*
 * Has the oldest request of @cls expired? Looked at no more than once per
 * expiry interval: after a batch of expired requests, this gives the
 * elevator time to make progress instead of seeking to each in turn.
 */
static bool as_fifo_expired(struct as_data *ad, int cls, uint64_t now)
{
	struct ios_request *head;

	if (as_dist(now, ad->last_check_fifo_ns[cls]) < ad->fifo_expire_ns[cls])
		return false;
	ad->last_check_fifo_ns[cls] = now;
	if (ios_list_empty(&ad->fifo_list[cls]))
		return false;
	head = ios_list_first_entry(&ad->fifo_list[cls], struct ios_request, queuelist);
	return now > head->fifo_time_ns;
}

static bool as_batch_expired(const struct as_data *ad, uint64_t now)
{
	if (ad->changed_batch || ad->new_batch)
		return false;
	if (ad->batch_dir == AS_SYNC)
		return now > ad->current_batch_expires_ns;
	return now > ad->current_batch_expires_ns || ad->current_write_count == 0;
}

/*
 * A sync batch started: judge the write batch before it. One that overran
 * its time (without running dry) gets fewer requests next time, one that
 * used all its requests early gets more.
 */
static void as_update_write_batch(struct as_data *ad, uint64_t now)
{
	uint64_t batch = ad->batch_expire_ns[AS_ASYNC];
	/* the write batch began at current_batch_expires - batch */
	uint64_t end = as_add_sat(now, batch);
	uint64_t write_time = end > ad->current_batch_expires_ns ?
				      end - ad->current_batch_expires_ns : 0;
	int wbc = ad->write_batch_count;

	if (write_time > batch && !ad->write_batch_idled) {
		wbc = write_time > 3 * batch ? wbc / 2 : wbc - 1;
	} else if (write_time < batch && ad->current_write_count == 0) {
		if (batch > 3 * write_time)
			wbc = wbc > INT_MAX / 2 ? INT_MAX : wbc * 2;
		else if (wbc < INT_MAX)
			wbc++;
	}
	ad->write_batch_count = wbc < 1 ? 1 : wbc;
}

static struct ios_request *as_fifo_head(struct as_data *ad, int cls)
{
	return ios_list_first_entry(&ad->fifo_list[cls], struct ios_request, queuelist);
}

static struct ios_request *as_take(struct ios_request *rq)
{
	IOS_BUG_ON(rq_state(rq) != AS_RQ_MOVED && rq_state(rq) != AS_RQ_FRONT);
	rq_set_state(rq, rq_state(rq) == AS_RQ_MOVED ? AS_RQ_DISPATCHED : AS_RQ_DISPATCHED_RAW);
	ios_list_init(&rq->queuelist);
	return rq;
}

static struct ios_request *as_dispatch_force(struct as_data *ad, uint64_t now)
{
	struct ios_request *rq;
	int cls;

	/*
	 * Draining: no batches, no waiting. Leave the batch state as a read
	 * batch so that no write batch is judged on the drained requests.
	 */
	ad->batch_dir = AS_SYNC;
	ad->changed_batch = false;
	ad->new_batch = false;
	rq = ad->next_rq[AS_SYNC] ? ad->next_rq[AS_SYNC] : ad->next_rq[AS_ASYNC];
	if (!rq)
		return NULL;
	cls = as_rq_class(ad, rq);
	ad->last_check_fifo_ns[cls] = now;
	as_move_to_dispatch(ad, rq);
	return as_take(rq);
}

static struct ios_request *as_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	struct as_data *ad = as_data(q);
	struct ios_request *rq;
	bool reads, writes;

	as_antic_timeout(ad, now_ns);
	if (!ios_list_empty(&ad->front)) {
		rq = ios_list_first_entry(&ad->front, struct ios_request, queuelist);
		ios_list_del(&rq->queuelist);
		return as_take(rq);
	}
	if (flags & IOS_DISPATCH_FORCE)
		return as_dispatch_force(ad, now_ns);

	reads = !ios_list_empty(&ad->fifo_list[AS_SYNC]);
	writes = !ios_list_empty(&ad->fifo_list[AS_ASYNC]);

	/* a write batch that ran out of writes cannot be timed fairly */
	if (ad->batch_dir == AS_ASYNC && !reads && (ad->current_write_count == 0 || !writes))
		ad->write_batch_idled = true;

	if (!(reads || writes) || as_antic_waiting(ad) || ad->changed_batch)
		return NULL;

	if (!(reads && writes && as_batch_expired(ad, now_ns))) {
		/* the batch goes on (or only one class has work) */
		rq = ad->next_rq[ad->batch_dir];
		if (ad->batch_dir == AS_SYNC && ad->antic_expire_ns) {
			if (as_fifo_expired(ad, AS_SYNC, now_ns))
				goto fifo_expired;
			if (as_can_anticipate(ad, rq, now_ns)) {
				if (ad->antic_status == AS_ANTIC_OFF)
					ios_queue_note_owner(q, now_ns, ad->antic_pid,
							     IOS_OWN_IDLE_START, 0);
				as_antic_waitreq(ad);
				return NULL;
			}
		}
		if (rq) {
			/* reads alone: the read batch is not holding anyone up */
			if (reads && !writes)
				ad->current_batch_expires_ns =
					as_add_sat(now_ns, ad->batch_expire_ns[AS_SYNC]);
			goto dispatch_request;
		}
	}

	/* pick the class of a new batch */
	if (reads && !(writes && ad->batch_dir == AS_SYNC)) {
		if (ad->batch_dir == AS_ASYNC)
			ad->changed_batch = true;
		ad->batch_dir = AS_SYNC;
		rq = as_fifo_head(ad, AS_SYNC);
		ad->last_check_fifo_ns[AS_SYNC] = now_ns;
		ad->batches[AS_SYNC]++;
	} else {
		IOS_BUG_ON(!writes);
		if (ad->batch_dir == AS_SYNC) {
			ad->changed_batch = true;
			/* reads ran out before their first completion: no sync batch to time */
			ad->new_batch = false;
		}
		ad->batch_dir = AS_ASYNC;
		ad->current_write_count = ad->write_batch_count;
		ad->write_batch_idled = false;
		rq = as_fifo_head(ad, AS_ASYNC);
		ad->last_check_fifo_ns[AS_ASYNC] = now_ns;
		ad->batches[AS_ASYNC]++;
	}

dispatch_request:
	if (as_fifo_expired(ad, ad->batch_dir, now_ns)) {
fifo_expired:
		rq = as_fifo_head(ad, ad->batch_dir);
		ad->fifo_expired[ad->batch_dir]++;
	}
	if (ad->changed_batch) {
		/* the new batch starts once the old one has left the device */
		if (ad->nr_dispatched)
			return NULL;
		if (ad->batch_dir == AS_ASYNC)
			ad->current_batch_expires_ns =
				as_add_sat(now_ns, ad->batch_expire_ns[AS_ASYNC]);
		else
			ad->new_batch = true;
		ad->changed_batch = false;
	}
	as_move_to_dispatch(ad, rq);
	return as_take(rq);
}

static bool as_has_work(struct ios_queue *q)
{
	struct as_data *ad = as_data(q);

	return !ios_list_empty(&ad->front) || !ios_list_empty(&ad->fifo_list[AS_SYNC]) ||
	       !ios_list_empty(&ad->fifo_list[AS_ASYNC]);
}

static void as_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	struct as_data *ad = as_data(q);
	struct as_io_context *aic = rq_aic(rq);
	int cls = as_rq_class(ad, rq);

	as_antic_timeout(ad, now_ns);
	if (rq_state(rq) != AS_RQ_DISPATCHED) {
		/* inserted at the front: AS never saw it as its own */
		IOS_BUG_ON(rq_state(rq) != AS_RQ_DISPATCHED_RAW);
		rq_set_state(rq, AS_RQ_NEW);
		return;
	}
	rq_set_state(rq, AS_RQ_NEW);

	if (ad->changed_batch && ad->nr_dispatched == 1) {
		/* the last request of the old batch: the new one may start */
		ad->current_batch_expires_ns =
			as_add_sat(now_ns, ad->batch_expire_ns[ad->batch_dir]);
		ad->changed_batch = false;
		if (ad->batch_dir == AS_SYNC)
			ad->new_batch = true;
	}
	IOS_BUG_ON(ad->nr_dispatched == 0);
	ad->nr_dispatched--;

	/*
	 * A sync batch is timed from its first completion, which helps
	 * devices that hold many writes in a cache or queue.
	 */
	if (ad->new_batch && ad->batch_dir == cls) {
		as_update_write_batch(ad, now_ns);
		ad->current_batch_expires_ns = as_add_sat(now_ns, ad->batch_expire_ns[AS_SYNC]);
		ad->new_batch = false;
	}

	if (ad->antic_aic && ad->antic_aic == aic) {
		ad->antic_start_ns = now_ns;
		ad->ioc_finished = true;
		if (ad->antic_status == AS_ANTIC_WAIT_REQ)
			as_antic_waitnext(ad);
	}
	if (cls == AS_SYNC && aic) {
		aic->io_running = true;
		aic->last_end_ns = now_ns;
	}
}

static enum ios_mqueue as_may_queue(struct ios_queue *q, struct ios_ioc *ioc, int dir, bool sync)
{
	struct as_data *ad = as_data(q);

	(void)dir;
	(void)sync;
	if (as_antic_waiting(ad) && ad->antic_aic && ad->antic_aic == as_aic_find(ad, ioc))
		return IOS_MQUEUE_MUST;
	return IOS_MQUEUE_MAY;
}

static enum ios_merge as_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
				   struct ios_request **out)
{
	struct as_data *ad = as_data(q);
	struct ios_request *rq;

	if (!bio->nr_sectors || bio->dir >= IOS_DIR_COUNT)
		return IOS_NO_MERGE;
	rq = ios_elv_rb_find(&ad->sort_list[as_bio_class(ad, bio->dir, bio->flags)],
			     bio->sector + bio->nr_sectors);
	if (!rq)
		return IOS_NO_MERGE;
	*out = rq;
	return IOS_FRONT_MERGE;
}

static void as_request_merged(struct ios_queue *q, struct ios_request *rq, enum ios_merge type)
{
	struct as_data *ad = as_data(q);

	if (type != IOS_FRONT_MERGE || rq_state(rq) != AS_RQ_QUEUED)
		return;
	/* the start moved down: re-sort (the elevator's pick is left as it is) */
	ios_elv_rb_del(&ad->sort_list[as_rq_class(ad, rq)], rq);
	as_add_rq_rb(ad, rq);
	ad->front_merged++;
}

static void as_requests_merged(struct ios_queue *q, struct ios_request *rq,
			       struct ios_request *next)
{
	struct as_data *ad = as_data(q);

	if (rq_state(next) != AS_RQ_QUEUED) {
		/* next was already moved to the front list: nothing of ours to undo */
		IOS_BUG_ON(rq_state(next) != AS_RQ_FRONT);
		ios_list_del(&next->queuelist);
		return;
	}
	/* the survivor takes over an earlier deadline and its FIFO slot */
	if (rq_state(rq) == AS_RQ_QUEUED && as_rq_class(ad, rq) == as_rq_class(ad, next) &&
	    next->fifo_time_ns < rq->fifo_time_ns) {
		ios_list_del(&rq->queuelist);
		ios_list_add(&rq->queuelist, &next->queuelist);
		rq->fifo_time_ns = next->fifo_time_ns;
	}
	as_remove_queued(ad, next);
	rq_set_state(next, AS_RQ_NEW);
}

static struct ios_request *as_former(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return rq_state(rq) == AS_RQ_QUEUED ? ios_elv_rb_former(rq) : NULL;
}

static struct ios_request *as_latter(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return rq_state(rq) == AS_RQ_QUEUED ? ios_elv_rb_latter(rq) : NULL;
}

static uint64_t as_next_wakeup(struct ios_queue *q)
{
	struct as_data *ad = as_data(q);

	/* the timeout only matters when something waits behind it */
	if (ad->antic_status != AS_ANTIC_WAIT_NEXT || !as_has_work(q))
		return IOS_NO_WAKEUP;
	return as_antic_deadline(ad);
}

static void as_exit_icq(struct ios_queue *q, struct ios_ioc *ioc, uint64_t now)
{
	(void)now;
	struct as_io_context *aic = as_aic_find(as_data(q), ioc);

	/* kept: queued requests and the anticipation may still refer to it */
	if (aic)
		aic->running = false;
}

static const char *const as_class_names[] = { "dir", "sync", NULL };
static const char *const as_antic_names[] = { "off", "wait_req", "wait_next", "finished", NULL };
static const char *const as_batch_names[] = { "async", "sync", NULL };

static const struct ios_tunable as_tunables[] = {
	{ .name = "read_expire", .type = IOS_TUN_TIME,
	  .offset = offsetof(struct as_data, fifo_expire_ns[AS_SYNC]),
	  .min = 0, .max = 3600000, .def = "125", .unit = "ms",
	  .help = "deadline of a sync request from its arrival (checked in sync batches)" },
	{ .name = "write_expire", .type = IOS_TUN_TIME,
	  .offset = offsetof(struct as_data, fifo_expire_ns[AS_ASYNC]),
	  .min = 0, .max = 3600000, .def = "250", .unit = "ms",
	  .help = "deadline of an async request from its arrival (checked in async batches)" },
	{ .name = "read_batch_expire", .type = IOS_TUN_TIME,
	  .offset = offsetof(struct as_data, batch_expire_ns[AS_SYNC]),
	  .min = 0, .max = 3600000, .def = "500", .unit = "ms",
	  .help = "length of a sync batch while async requests wait" },
	{ .name = "write_batch_expire", .type = IOS_TUN_TIME,
	  .offset = offsetof(struct as_data, batch_expire_ns[AS_ASYNC]),
	  .min = 0, .max = 3600000, .def = "125", .unit = "ms",
	  .help = "target length of an async batch (the batch size adapts to it)" },
	{ .name = "antic_expire", .type = IOS_TUN_TIME,
	  .offset = offsetof(struct as_data, antic_expire_ns),
	  .min = 0, .max = 3600000, .def = "6", .unit = "ms",
	  .help = "longest wait for the anticipated process's next request; 0: never wait" },
	{ .name = "sync_class", .type = IOS_TUN_ENUM,
	  .offset = offsetof(struct as_data, class_mode),
	  .min = 0, .max = 0, .def = "dir", .unit = "", .choices = as_class_names,
	  .help = "lab: which requests are sync: dir (reads; before Linux 2.6.20, O_DIRECT "
		  "writes were plain writes) or sync (reads and sync-flagged writes, 2.6.20+)" },
	{ .name = NULL },
};

#define AS_STAT(n, t, field, u, h) \
	{ .name = n, .type = t, .offset = offsetof(struct as_data, field), .min = 0, \
	  .max = INT64_MAX, .unit = u, .flags = IOS_TUN_RO, .help = h }

static const struct ios_tunable as_stats[] = {
	{ .name = "antic_status", .type = IOS_TUN_ENUM, .offset = offsetof(struct as_data, antic_status),
	  .unit = "", .flags = IOS_TUN_RO, .choices = as_antic_names,
	  .help = "anticipation state" },
	{ .name = "batch", .type = IOS_TUN_ENUM, .offset = offsetof(struct as_data, batch_dir),
	  .unit = "", .flags = IOS_TUN_RO, .choices = as_batch_names,
	  .help = "class of the running batch" },
	AS_STAT("write_batch_count", IOS_TUN_INT, write_batch_count, "",
		"requests allowed in a write batch (adaptive)"),
	AS_STAT("current_write_count", IOS_TUN_INT, current_write_count, "",
		"requests left in the running write batch"),
	AS_STAT("sync_queued", IOS_TUN_INT, queued[AS_SYNC], "", "sync requests queued"),
	AS_STAT("async_queued", IOS_TUN_INT, queued[AS_ASYNC], "", "async requests queued"),
	AS_STAT("est_exit_prob", IOS_TUN_INT, exit_prob_pct, "%",
		"est_time: probability that an anticipated new process exits"),
	AS_STAT("est_exit_no_coop", IOS_TUN_INT, exit_no_coop_pct, "%",
		"est_time: probability that an exited process is not saved by a cooperating request"),
	AS_STAT("est_new_thinktime", IOS_TUN_TIME, new_ttime_mean_ns, "ms",
		"est_time: mean think time of new processes"),
	AS_STAT("est_new_seek", IOS_TUN_U64, new_seek_mean, "sectors",
		"est_time: mean seek distance of new processes"),
	AS_STAT("antic_waits", IOS_TUN_U64, antic_waits, "", "anticipations started"),
	AS_STAT("antic_hits", IOS_TUN_U64, antic_hits, "",
		"anticipations ended by an arriving request (the process's own, a close one, "
		"or any once its history says waiting will not pay)"),
	AS_STAT("antic_timeouts", IOS_TUN_U64, antic_timeouts, "", "anticipations that timed out"),
	AS_STAT("sync_batches", IOS_TUN_U64, batches[AS_SYNC], "", "sync batches started"),
	AS_STAT("async_batches", IOS_TUN_U64, batches[AS_ASYNC], "", "async batches started"),
	AS_STAT("sync_fifo_expired", IOS_TUN_U64, fifo_expired[AS_SYNC], "",
		"sync dispatches taken from an expired FIFO head"),
	AS_STAT("async_fifo_expired", IOS_TUN_U64, fifo_expired[AS_ASYNC], "",
		"async dispatches taken from an expired FIFO head"),
	AS_STAT("aliases", IOS_TUN_U64, aliases, "",
		"requests sent to dispatch by a newer one at the same sector"),
	AS_STAT("front_merged", IOS_TUN_U64, front_merged, "",
		"bios merged at the front of a queued request"),
	{ .name = NULL },
};

#undef AS_STAT

const struct ios_sched_type ios_sched_as = {
	.name = "anticipatory",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = "as",
	.desc = "read/write batches with per-process anticipation (Linux 2.6.31 anticipatory)",
	.ops = {
		.init = as_init,
		.exit = as_exit,
		.may_queue = as_may_queue,
		.set_request = as_set_request,
		.insert = as_insert,
		.dispatch = as_dispatch,
		.has_work = as_has_work,
		.completed = as_completed,
		.bio_merge = as_bio_merge,
		.request_merged = as_request_merged,
		.requests_merged = as_requests_merged,
		.former = as_former,
		.latter = as_latter,
		.next_wakeup = as_next_wakeup,
		.exit_icq = as_exit_icq,
	},
	.tunables = as_tunables,
	.stats = as_stats,
	.priv_size = sizeof(struct as_data),
	.features = IOS_SCHED_IDLES,
	.share_model = IOS_SHARE_NONE,
};
