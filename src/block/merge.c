/*
 * Merging, for both block layers: the back-merge hash, the rules that say
 * whether a bio may join a request, and the merges themselves.
 *
 * The rules are those the single-queue layer of Linux 2.6.31 applies
 * (elv_rq_merge_ok, elv_merge, attempt_merge in block/elevator.c and
 * block/blk-core.c); blk-mq of Linux 6.12 keeps them in blk_rq_merge_ok,
 * elv_merge and attempt_merge (block/blk-merge.c, block/elevator.c):
 *
 * - A bio is first offered to the one-hit cache (the request it last merged
 *   with), then to a hash of queued requests keyed by their end sector (back
 *   merge), then to the scheduler's own lookup (front merge). A merge needs
 *   the same direction, a mergeable request (not a flush or FUA write, not
 *   dispatched), the combined size within queue.max_sectors_kb, and the
 *   scheduler's allow_merge() consent. After a merge the grown request is
 *   tried against its neighbour (the scheduler's former/latter), so two
 *   requests that became contiguous collapse into one.
 * - On blk-mq (Linux 6.12) only: a bio never joins a request of another
 *   cgroup, nor do two requests of different cgroups merge
 *   (blk_cgroup_mergeable, checked by blk_rq_merge_ok and attempt_merge in
 *   block/blk-merge.c; Tejun Heo, 2022). The single-queue profiles keep
 *   their outputs: whether 4.19-stable has the rule is open (plan, Q5).
 * - On blk-mq only: a bio never joins a request of another priority, nor
 *   do two requests of different priorities merge (blk_rq_merge_ok and
 *   attempt_merge compare ioprio, read in 6.11/6.12-era blk-merge.c diffs;
 *   the rule is older than 4.19). 2.6.31 merged them and kept the better
 *   priority (ioprio_best), which the single-queue layer keeps.
 * - blk-mq tries the task's plug first (blk_attempt_plug_merge, Linux
 *   6.12): one try, on the newest plugged request of the bio's queue, with
 *   the same rules but without the scheduler's consent (the request is in
 *   no scheduler yet), and no request-to-request merge after it.
 * - blk-mq without an elevator merges in the software context's list
 *   instead (blk_bio_list_merge): the newest 8 requests, newest first; an
 *   adjacent request the bio may not join (too large, vetoed) ends the
 *   search, one not adjacent or not mergeable is skipped.
 */
#include <inttypes.h>
#include "blkcg_int.h"

/* ---- back-merge hash ---- */

static inline struct ios_list_head *hash_bucket(struct ios_queue *q, uint64_t end)
{
	uint64_t h = end * 0x9e3779b97f4a7c15ULL;

	return &q->hash[(h >> 32) & q->hash_mask];
}

void ios_blk_hash_add(struct ios_queue *q, struct ios_request *rq)
{
	IOS_BUG_ON(rq->hashed);
	ios_list_add_tail(&rq->hash_node, hash_bucket(q, ios_rq_end(rq)));
	rq->hashed = 1;
}

void ios_blk_hash_del(struct ios_request *rq)
{
	if (rq->hashed) {
		ios_list_del(&rq->hash_node);
		rq->hashed = 0;
	}
}

static void hash_reposition(struct ios_queue *q, struct ios_request *rq)
{
	ios_blk_hash_del(rq);
	ios_blk_hash_add(q, rq);
}

/* The oldest queued request ending exactly at @end. */
struct ios_request *ios_blk_hash_find(struct ios_queue *q, uint64_t end)
{
	struct ios_list_head *b = hash_bucket(q, end), *pos;

	ios_list_for_each(pos, b) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, hash_node);

		if (ios_rq_end(rq) == end)
			return rq;
	}
	return NULL;
}

/* ---- merging ---- */

static inline bool rq_mergeable(const struct ios_request *rq)
{
	return rq->elv_sorted && rq->hashed &&
	       !(rq->flags & (IOS_REQ_PREFLUSH | IOS_REQ_FUA));
}

static inline uint64_t q_max_sectors(const struct ios_queue *q)
{
	return q->tun.max_sectors_bytes >> IOS_SECTOR_SHIFT;
}

/*
 * The cgroup a request or bio is charged to (bio->bi_blkg: the dirtier's
 * for cgroup writeback, else the task's); NULL stands for the root.
 */
static inline const struct ios_cgroup *root_null(const struct ios_cgroup *cg)
{
	return cg && cg->parent ? cg : NULL;
}

/* blk_cgroup_mergeable (6.12): blk-mq queues only, see above */
static inline bool cgroup_mergeable(const struct ios_queue *q, const struct ios_cgroup *a,
				    const struct ios_cgroup *b)
{
	return !q->mq || root_null(a) == root_null(b);
}

/*
 * blk_rq_merge_ok and attempt_merge (4.19 to 6.12) refuse two different
 * priorities; on blk-mq every bio has its task's by then (bio_set_ioprio,
 * mq.c). The single-queue layer keeps 2.6.31's rule: merge, and keep the
 * better priority (ioprio_best).
 */
static inline bool ioprio_mergeable(const struct ios_queue *q, int a, int b)
{
	return !q->mq || a == b;
}

/* Everything but the size and the scheduler's consent (blk_rq_merge_ok's first part). */
static bool rq_bio_compatible(struct ios_queue *q, const struct ios_request *rq,
			      const struct ios_bio *bio)
{
	/* a discard merges only with discards (2.6.31 elv_rq_merge_ok, 4.19 blk_rq_merge_ok) */
	return rq_mergeable(rq) && rq->dir == bio->dir &&
	       !((rq->flags ^ bio->flags) & IOS_REQ_DISCARD) &&
	       cgroup_mergeable(q, ios_rq_blkcg(rq), ios_bio_blkcg(bio)) &&
	       ioprio_mergeable(q, rq->ioprio, bio->ioprio);
}

static bool rq_merge_ok(struct ios_queue *q, struct ios_request *rq, const struct ios_bio *bio)
{
	if (!rq_bio_compatible(q, rq, bio))
		return false;
	if ((uint64_t)rq->nr_sectors + bio->nr_sectors > q_max_sectors(q))
		return false;
	if (!q->ignore_allow_merge && q->sched->ops.allow_merge &&
	    !q->sched->ops.allow_merge(q, rq, bio))
		return false;
	return true;
}

static enum ios_merge try_merge(struct ios_queue *q, struct ios_request *rq,
				const struct ios_bio *bio)
{
	if (!rq_merge_ok(q, rq, bio))
		return IOS_NO_MERGE;
	if (ios_rq_end(rq) == bio->sector)
		return IOS_BACK_MERGE;
	if (rq->sector == bio->sector + bio->nr_sectors)
		return IOS_FRONT_MERGE;
	return IOS_NO_MERGE;
}

enum ios_merge ios_blk_elv_merge(struct ios_queue *q, const struct ios_bio *bio,
				 struct ios_request **out)
{
	struct ios_request *rq;
	enum ios_merge m;

	if (q->tun.nomerges == 2)
		return IOS_NO_MERGE;
	if (q->last_merge) {
		m = try_merge(q, q->last_merge, bio);
		if (m != IOS_NO_MERGE) {
			*out = q->last_merge;
			return m;
		}
	}
	if (q->tun.nomerges == 1)
		return IOS_NO_MERGE;
	rq = ios_blk_hash_find(q, bio->sector);
	if (rq && try_merge(q, rq, bio) == IOS_BACK_MERGE) {
		*out = rq;
		return IOS_BACK_MERGE;
	}
	if (q->sched->ops.bio_merge) {
		rq = NULL;
		m = q->sched->ops.bio_merge(q, bio, &rq);
		/* re-check: the scheduler only finds candidates, the rules are ours */
		if (m != IOS_NO_MERGE && rq && try_merge(q, rq, bio) == m) {
			*out = rq;
			return m;
		}
	}
	return IOS_NO_MERGE;
}

/* Merge @next into @rq when they are contiguous (attempt_merge). */
static bool attempt_merge(struct ios_queue *q, struct ios_request *rq,
			  struct ios_request *next, uint64_t now)
{
	if (!rq_mergeable(rq) || !rq_mergeable(next))
		return false;
	if (ios_rq_end(rq) != next->sector || rq->dir != next->dir ||
	    ((rq->flags ^ next->flags) & IOS_REQ_DISCARD) ||
	    !cgroup_mergeable(q, ios_rq_blkcg(rq), ios_rq_blkcg(next)) ||
	    !ioprio_mergeable(q, rq->ioprio, next->ioprio))
		return false;
	if ((uint64_t)rq->nr_sectors + next->nr_sectors > q_max_sectors(q))
		return false;

	rq->biotail->next = next->bio;
	rq->biotail = next->biotail;
	rq->nr_bios += next->nr_bios;
	rq->nr_sectors += next->nr_sectors;
	rq->ioprio = ios_ioprio_best(rq->ioprio, next->ioprio);
	if (next->alloc_ns < rq->alloc_ns)
		rq->alloc_ns = next->alloc_ns;
	next->bio = next->biotail = NULL;
	next->nr_bios = 0;

	ios_blk_hash_del(next);
	hash_reposition(q, rq);
	if (q->sched->ops.requests_merged)
		q->sched->ops.requests_merged(q, rq, next);
	q->nr_sorted--;
	q->nr_rq_merges++;
	if (q->last_merge == next)
		q->last_merge = rq;
	/* the absorbed request stops counting as in flight (blk_account_io_merge) */
	ios_queue_stats_update(q, now);
	q->stats.in_flight--;
	ios_blk_free_merged(q, next, now);
	return true;
}

static void attempt_back_merge(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_request *next;

	if (!q->sched->ops.latter)
		return;
	next = q->sched->ops.latter(q, rq);
	if (next)
		attempt_merge(q, rq, next, now);
}

static void attempt_front_merge(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct ios_request *prev;

	if (!q->sched->ops.former)
		return;
	prev = q->sched->ops.former(q, rq);
	if (prev)
		attempt_merge(q, prev, rq, now);
}

/*
 * Chain @bio onto @rq at its end (back) or start (front), count the merge and
 * trace M or F: what every bio merge does, wherever it was found.
 */
static void bio_link(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
		     enum ios_merge m, uint64_t now)
{
	/*
	 * bio_attempt_back_merge / bio_attempt_front_merge (6.12 blk-merge.c)
	 * tell the rq_qos policies before the bio joins (rq_qos_merge: io.cost
	 * charges it); blk-mq only, the single-queue layer has no chain
	 */
	if (q->mq && q->rq_qos)
		ios_rq_qos_merge(q, rq, bio, now);
	bio->next = NULL;
	if (m == IOS_BACK_MERGE) {
		rq->biotail->next = bio;
		rq->biotail = bio;
	} else {
		bio->next = rq->bio;
		rq->bio = bio;
		rq->sector = bio->sector;
	}
	rq->nr_sectors += bio->nr_sectors;
	rq->nr_bios++;
	rq->ioprio = ios_ioprio_best(rq->ioprio, bio->ioprio);
	q->stats.merges[bio->dir]++;
	q->nr_bio_merges++;
	ios_blk_trace(q, m == IOS_BACK_MERGE ? IOS_TA_BACKMERGE : IOS_TA_FRONTMERGE, rq, bio, now);
}

/* Where @bio touches @rq (blk_try_merge's position test), or IOS_NO_MERGE. */
static enum ios_merge bio_adjacent(const struct ios_request *rq, const struct ios_bio *bio)
{
	if (ios_rq_end(rq) == bio->sector)
		return IOS_BACK_MERGE;
	if (rq->sector == bio->sector + bio->nr_sectors)
		return IOS_FRONT_MERGE;
	return IOS_NO_MERGE;
}

void ios_blk_bio_merge_into(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
			    enum ios_merge m, uint64_t now)
{
	bio_link(q, rq, bio, m, now);
	if (m == IOS_BACK_MERGE)
		hash_reposition(q, rq);
	if (q->sched->ops.request_merged)
		q->sched->ops.request_merged(q, rq, m);
	q->last_merge = rq;
	if (m == IOS_BACK_MERGE)
		attempt_back_merge(q, rq, now);
	else
		attempt_front_merge(q, rq, now);
}

bool ios_blk_list_merge(struct ios_queue *q, struct ios_list_head *list, unsigned max,
			struct ios_bio *bio, uint64_t now)
{
	struct ios_list_head *pos;
	unsigned checked = 0;

	for (pos = list->prev; pos != list && checked < max; pos = pos->prev, checked++) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, queuelist);
		enum ios_merge m;

		if (!rq_bio_compatible(q, rq, bio))
			continue;
		m = bio_adjacent(rq, bio);
		if (m == IOS_NO_MERGE)
			continue;
		/* adjacent but refused: BIO_MERGE_FAILED ends the walk */
		if (try_merge(q, rq, bio) != m)
			return false;
		ios_blk_bio_merge_into(q, rq, bio, m, now);
		return true;
	}
	return false;
}

bool ios_blk_plug_merge(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
			uint64_t now)
{
	enum ios_merge m;

	/* blk_rq_merge_ok: rq_mergeable (no flush, no FUA), direction, discard, cgroup, ioprio */
	if (!rq->nr_sectors || (rq->flags & (IOS_REQ_PREFLUSH | IOS_REQ_FUA)) ||
	    rq->dir != bio->dir || ((rq->flags ^ bio->flags) & IOS_REQ_DISCARD) ||
	    !cgroup_mergeable(q, ios_rq_blkcg(rq), ios_bio_blkcg(bio)) ||
	    !ioprio_mergeable(q, rq->ioprio, bio->ioprio))
		return false;
	/* blk_try_merge */
	m = bio_adjacent(rq, bio);
	if (m == IOS_NO_MERGE)
		return false;
	/* ll_back_merge_fn / ll_front_merge_fn: the size limit */
	if ((uint64_t)rq->nr_sectors + bio->nr_sectors > q_max_sectors(q))
		return false;
	/* bio_attempt_back_merge / bio_attempt_front_merge: no elevator hook */
	bio_link(q, rq, bio, m, now);
	q->nr_plug_merges++;
	return true;
}
