/*
 * deadline: the single-queue deadline scheduler of Linux 2.6
 * (block/deadline-iosched.c as of 2.6.31, Jens Axboe).
 *
 * Every queued request sits in two structures of its direction (read or
 * write): a tree sorted by start sector and a FIFO in arrival order. Arrival
 * also stamps the request with a deadline, arrival + read_expire or
 * write_expire; with one expiry per direction the FIFO is ordered by
 * deadline too.
 *
 * Dispatch is by batches. A batch is up to fifo_batch requests of one
 * direction taken in ascending sector order, each one the tree successor of
 * the previous (next_rq). Nothing interrupts a running batch: deadlines are
 * looked at only when it ends, because its quota is used up or because the
 * sector walk ran off the end of the tree. To start a batch:
 *
 *  - pick the direction. Reads win, except that a batch start finding both
 *    reads and writes queued counts one "starvation" of the writes, and
 *    once reads have won writes_starved such starts, writes get the batch
 *    (and the count restarts);
 *  - pick the first request. If the oldest request of that direction has
 *    passed its deadline, or the walk has no successor in that direction
 *    (the last batch was the other direction or ran off the end), start at
 *    the FIFO head; otherwise carry on from next_rq.
 *
 * The deadlines are therefore soft: an expired read waits for the end of the
 * batch in progress, and a write waits for writes_starved read batches
 * whatever its deadline, as in the kernel. New requests that land between
 * the head and next_rq are not picked up by the running walk (2.6.31 does
 * not either).
 *
 * Merging: the block layer finds back merges itself. deadline adds the
 * front-merge lookup (a request of the bio's direction starting where the
 * bio ends) when front_merges is 1, re-sorts a request whose start moved,
 * and when the block layer merges two requests, the survivor takes over the
 * FIFO position and deadline of the absorbed one if those were earlier.
 *
 * Aliases: the 2.6.31 sort tree holds one request per start sector. A new
 * request (or one re-sorted after a front merge) that finds another starting
 * at the same sector sends that older one straight to dispatch, and the
 * sector walk continues after it. Linux dropped this in 2011 (Jeff Moyer,
 * "iosched: prevent aliased requests from starving other I/O") because a
 * stream of same-sector I/O could monopolise the disk; 2.6.31 behaviour is
 * kept here on purpose.
 *
 * Requests sent to dispatch outside a batch (aliases, at the tail) and
 * requests inserted at the front (requeues, at the head) wait on a private
 * list that is served before any batch, which is where the kernel's dispatch
 * queue would have held them. deadline finds no merges for them and names
 * no neighbours for them. (The block layer can still grow one by a bio
 * merge through its hash; the kernel had already unhashed them.)
 *
 * Tunables (sysfs names, user units): read_expire (ms, 500), write_expire
 * (ms, 5000), writes_starved (2), fifo_batch (16), front_merges (0|1, 1).
 * The kernel clamps out-of-range input; we reject it (see docs/deadline.md).
 */
#include <limits.h>
#include <stddef.h>
#include "iosched/block.h"
#include "iosched/sched.h"
#include "core/builtin.h"

struct dd_data {
	/* tunables: written by the tunable engine before init() */
	uint64_t read_expire_ns;
	uint64_t write_expire_ns;
	int writes_starved;
	int fifo_batch;
	int front_merges;

	/* per direction: sector order and arrival (= deadline) order */
	struct ios_rb_root sort_list[IOS_DIR_COUNT];
	struct ios_list_head fifo_list[IOS_DIR_COUNT];
	/* aliases (tail) and front insertions (head), served first, unsorted */
	struct ios_list_head front;

	/* the sector walk: successor of the last dispatch; at most one is set */
	struct ios_request *next_rq[IOS_DIR_COUNT];
	int batching;		/* dispatches in the current batch */
	int starved;		/* batch starts reads won while writes waited */

	/* read-only state for --dump-state */
	int queued[IOS_DIR_COUNT];
	uint64_t last_sector;	/* end of the last dispatched request */
	uint64_t batches;	/* batches started */
	uint64_t expired_batches;	/* ...of which at an expired FIFO head */
	uint64_t front_merged;	/* bios merged at a request's front */
	uint64_t aliases;	/* requests sent to dispatch by a same-sector newcomer */
};

static struct dd_data *dd_data(struct ios_queue *q)
{
	return q->sched_data;
}

static uint64_t dd_expire(const struct dd_data *dd, int dir)
{
	return dir == IOS_READ ? dd->read_expire_ns : dd->write_expire_ns;
}

static struct ios_request *dd_fifo_head(struct dd_data *dd, int dir)
{
	return ios_list_first_entry(&dd->fifo_list[dir], struct ios_request, queuelist);
}

/* Requests on the front list (aliases, front insertions) have a cleared tree node. */
static bool dd_on_front_list(const struct ios_request *rq)
{
	return ios_rb_unlinked(&rq->rb_node);
}

/*
 * Take @rq off its tree and FIFO. If the walk was about to visit it, the
 * walk moves on to its successor.
 */
static void dd_remove(struct dd_data *dd, struct ios_request *rq)
{
	int dir = rq->dir;

	if (dd->next_rq[dir] == rq)
		dd->next_rq[dir] = ios_elv_rb_latter(rq);
	ios_elv_rb_del(&dd->sort_list[dir], rq);
	ios_list_del(&rq->queuelist);
	dd->queued[dir]--;
}

/*
 * The 2.6.31 alias rule: @alias starts at the same sector as @rq, which has
 * just been put in the tree. @alias goes to the dispatch list outside any
 * batch, as the kernel's deadline_move_request: the sector walk restarts
 * after it (after @rq too, which the kernel had not inserted yet), in its
 * direction only, and the batch count is left alone.
 */
static void dd_dispatch_alias(struct dd_data *dd, struct ios_request *alias,
			      struct ios_request *rq)
{
	struct ios_request *next = ios_elv_rb_latter(alias);

	if (next == rq)
		next = ios_elv_rb_latter(rq);
	dd->next_rq[IOS_READ] = NULL;
	dd->next_rq[IOS_WRITE] = NULL;
	dd->next_rq[alias->dir] = next;
	dd->last_sector = ios_rq_end(alias);
	dd_remove(dd, alias);
	ios_list_add_tail(&alias->queuelist, &dd->front);
	dd->aliases++;
}

/*
 * Put @rq in its sort tree. The tree never holds two requests starting at
 * the same sector, and equal keys are inserted to the right, so an alias
 * can only be @rq's predecessor: one descent serves both the insertion and
 * the alias check.
 */
static void dd_add_rq_rb(struct dd_data *dd, struct ios_request *rq)
{
	struct ios_request *prev;

	ios_elv_rb_add(&dd->sort_list[rq->dir], rq);
	prev = ios_elv_rb_former(rq);
	if (prev && prev->sector == rq->sector)
		dd_dispatch_alias(dd, prev, rq);
}

static int dd_init(struct ios_queue *q)
{
	struct dd_data *dd = dd_data(q);

	for (int dir = 0; dir < IOS_DIR_COUNT; dir++) {
		dd->sort_list[dir] = IOS_RB_ROOT;
		ios_list_init(&dd->fifo_list[dir]);
		dd->next_rq[dir] = NULL;
		dd->queued[dir] = 0;
	}
	ios_list_init(&dd->front);
	dd->batching = 0;
	dd->starved = 0;
	return 0;
}

static void dd_exit(struct ios_queue *q)
{
	struct dd_data *dd = dd_data(q);

	IOS_BUG_ON(!ios_list_empty(&dd->front));
	IOS_BUG_ON(!ios_list_empty(&dd->fifo_list[IOS_READ]));
	IOS_BUG_ON(!ios_list_empty(&dd->fifo_list[IOS_WRITE]));
}

static void dd_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
		      unsigned flags)
{
	struct dd_data *dd = dd_data(q);
	int dir = rq->dir;
	uint64_t expire;

	IOS_BUG_ON(dir >= IOS_DIR_COUNT);
	if (flags & (IOS_INSERT_FRONT | IOS_INSERT_REQUEUE)) {
		ios_rb_clear(&rq->rb_node);
		ios_list_add(&rq->queuelist, &dd->front);
		return;
	}
	dd_add_rq_rb(dd, rq);
	expire = dd_expire(dd, dir);
	rq->fifo_time_ns = now_ns > UINT64_MAX - expire ? UINT64_MAX : now_ns + expire;
	ios_list_add_tail(&rq->queuelist, &dd->fifo_list[dir]);
	dd->queued[dir]++;
}

/*
 * Pick the direction and first request of a new batch, or NULL when nothing
 * is queued.
 */
static struct ios_request *dd_start_batch(struct dd_data *dd, uint64_t now_ns)
{
	bool reads = !ios_list_empty(&dd->fifo_list[IOS_READ]);
	bool writes = !ios_list_empty(&dd->fifo_list[IOS_WRITE]);
	struct ios_request *head;
	int dir;

	if (reads && !(writes && dd->starved++ >= dd->writes_starved)) {
		dir = IOS_READ;
	} else if (writes) {
		dir = IOS_WRITE;
		dd->starved = 0;
	} else {
		return NULL;
	}

	dd->batching = 0;
	dd->batches++;
	head = dd_fifo_head(dd, dir);
	if (now_ns > head->fifo_time_ns) {
		dd->expired_batches++;
		return head;
	}
	return dd->next_rq[dir] ? dd->next_rq[dir] : head;
}

static struct ios_request *dd_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	struct dd_data *dd = dd_data(q);
	struct ios_request *rq;
	int dir;

	(void)flags;
	if (!ios_list_empty(&dd->front)) {
		rq = ios_list_first_entry(&dd->front, struct ios_request, queuelist);
		ios_list_del(&rq->queuelist);
		return rq;
	}

	rq = dd->next_rq[IOS_WRITE] ? dd->next_rq[IOS_WRITE] : dd->next_rq[IOS_READ];
	if (!rq || dd->batching >= dd->fifo_batch) {
		rq = dd_start_batch(dd, now_ns);
		if (!rq)
			return NULL;
		ios_queue_note_owner(q, now_ns, 0, IOS_OWN_ROUND, rq->dir);
	}
	dd->batching++;

	dir = rq->dir;
	dd->next_rq[IOS_READ] = NULL;
	dd->next_rq[IOS_WRITE] = NULL;
	dd->next_rq[dir] = ios_elv_rb_latter(rq);
	dd->last_sector = ios_rq_end(rq);
	dd_remove(dd, rq);
	return rq;
}

static bool dd_has_work(struct ios_queue *q)
{
	struct dd_data *dd = dd_data(q);

	return !ios_list_empty(&dd->front) || !ios_list_empty(&dd->fifo_list[IOS_READ]) ||
	       !ios_list_empty(&dd->fifo_list[IOS_WRITE]);
}

static void dd_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	(void)q;
	(void)rq;
	(void)now_ns;
}

static enum ios_merge dd_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
				   struct ios_request **out)
{
	struct dd_data *dd = dd_data(q);
	struct ios_request *rq;

	if (!dd->front_merges || !bio->nr_sectors || bio->dir >= IOS_DIR_COUNT)
		return IOS_NO_MERGE;
	rq = ios_elv_rb_find(&dd->sort_list[bio->dir], bio->sector + bio->nr_sectors);
	if (!rq)
		return IOS_NO_MERGE;
	*out = rq;
	return IOS_FRONT_MERGE;
}

static void dd_request_merged(struct ios_queue *q, struct ios_request *rq, enum ios_merge type)
{
	struct dd_data *dd = dd_data(q);

	if (type != IOS_FRONT_MERGE || dd_on_front_list(rq))
		return;
	/* the start sector moved down: put it back in sector order */
	ios_elv_rb_del(&dd->sort_list[rq->dir], rq);
	dd_add_rq_rb(dd, rq);
	dd->front_merged++;
}

static void dd_requests_merged(struct ios_queue *q, struct ios_request *rq,
			       struct ios_request *next)
{
	struct dd_data *dd = dd_data(q);

	IOS_BUG_ON(rq->dir != next->dir);
	if (dd_on_front_list(next)) {
		ios_list_del(&next->queuelist);
		return;
	}
	/*
	 * The survivor inherits an earlier deadline together with the FIFO
	 * slot that goes with it, so the FIFO stays in deadline order.
	 */
	if (!dd_on_front_list(rq) && next->fifo_time_ns < rq->fifo_time_ns) {
		ios_list_del(&rq->queuelist);
		ios_list_add(&rq->queuelist, &next->queuelist);
		rq->fifo_time_ns = next->fifo_time_ns;
	}
	dd_remove(dd, next);
}

static struct ios_request *dd_former(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return dd_on_front_list(rq) ? NULL : ios_elv_rb_former(rq);
}

static struct ios_request *dd_latter(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	return dd_on_front_list(rq) ? NULL : ios_elv_rb_latter(rq);
}

static const struct ios_tunable dd_tunables[] = {
	{ .name = "read_expire", .type = IOS_TUN_TIME,
	  .offset = offsetof(struct dd_data, read_expire_ns),
	  .min = 0, .max = 3600000, .def = "500", .unit = "ms",
	  .help = "deadline of a read, counted from its arrival (soft: checked between batches)" },
	{ .name = "write_expire", .type = IOS_TUN_TIME,
	  .offset = offsetof(struct dd_data, write_expire_ns),
	  .min = 0, .max = 3600000, .def = "5000", .unit = "ms",
	  .help = "deadline of a write, counted from its arrival (soft: checked between batches)" },
	{ .name = "writes_starved", .type = IOS_TUN_INT,
	  .offset = offsetof(struct dd_data, writes_starved),
	  .min = 0, .max = INT_MAX, .def = "2", .unit = "",
	  .help = "read batches that may be preferred over waiting writes before a write batch" },
	{ .name = "fifo_batch", .type = IOS_TUN_INT,
	  .offset = offsetof(struct dd_data, fifo_batch),
	  .min = 0, .max = INT_MAX, .def = "16", .unit = "",
	  .help = "requests per batch (0 behaves as 1)" },
	{ .name = "front_merges", .type = IOS_TUN_BOOL,
	  .offset = offsetof(struct dd_data, front_merges),
	  .min = 0, .max = 1, .def = "1", .unit = "",
	  .help = "look up front merges in the sector tree" },
	{ .name = NULL },
};

static const struct ios_tunable dd_stats[] = {
	{ .name = "batching", .type = IOS_TUN_INT, .offset = offsetof(struct dd_data, batching),
	  .min = 0, .max = INT_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "requests dispatched in the current batch" },
	{ .name = "starved", .type = IOS_TUN_INT, .offset = offsetof(struct dd_data, starved),
	  .min = 0, .max = INT_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "read batches started while writes waited, since the last write batch" },
	{ .name = "read_queued", .type = IOS_TUN_INT,
	  .offset = offsetof(struct dd_data, queued[IOS_READ]),
	  .min = 0, .max = INT_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "reads waiting in the sort tree and FIFO" },
	{ .name = "write_queued", .type = IOS_TUN_INT,
	  .offset = offsetof(struct dd_data, queued[IOS_WRITE]),
	  .min = 0, .max = INT_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "writes waiting in the sort tree and FIFO" },
	{ .name = "last_sector", .type = IOS_TUN_U64,
	  .offset = offsetof(struct dd_data, last_sector),
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "end sector of the last dispatched request" },
	{ .name = "batches", .type = IOS_TUN_U64, .offset = offsetof(struct dd_data, batches),
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "batches started" },
	{ .name = "expired_batches", .type = IOS_TUN_U64,
	  .offset = offsetof(struct dd_data, expired_batches),
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "batches started at a FIFO head whose deadline had passed" },
	{ .name = "front_merged", .type = IOS_TUN_U64,
	  .offset = offsetof(struct dd_data, front_merged),
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "bios merged at the front of a queued request" },
	{ .name = "aliases", .type = IOS_TUN_U64, .offset = offsetof(struct dd_data, aliases),
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "requests sent to dispatch because a newer one started at the same sector" },
	{ .name = NULL },
};

const struct ios_sched_type ios_sched_deadline = {
	.name = "deadline",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "sector-sorted batches with read/write deadlines (Linux 2.6.31 deadline)",
	.ops = {
		.init = dd_init,
		.exit = dd_exit,
		.insert = dd_insert,
		.dispatch = dd_dispatch,
		.has_work = dd_has_work,
		.completed = dd_completed,
		.bio_merge = dd_bio_merge,
		.request_merged = dd_request_merged,
		.requests_merged = dd_requests_merged,
		.former = dd_former,
		.latter = dd_latter,
	},
	.tunables = dd_tunables,
	.stats = dd_stats,
	.priv_size = sizeof(struct dd_data),
	.features = 0,
	.share_model = IOS_SHARE_NONE,
};
