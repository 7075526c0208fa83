/*
 * What the two block layers share, private to src/block/ (not installed).
 *
 * The single-queue layer of Linux 2.6.31 (block.c) and blk-mq of Linux 6.12
 * (mq.c, mq_tag.c) differ in how a request is allocated, where it waits and
 * how it reaches the device. What a request is, how its life is checked,
 * how the disk statistics and the device's busy time are kept, the trace
 * points and the owner hook are the same in both (rq.c); so are the rules
 * that say which bio may join which request and the back-merge hash that
 * finds it (merge.c). Each layer calls these and keeps the rest to itself.
 */
#ifndef IOSCHED_BLOCK_INT_H
#define IOSCHED_BLOCK_INT_H

#include <inttypes.h>
#include "iosched/block.h"

/* ---- rq.c: request life ---- */

const char *ios_blk_rq_state_name(unsigned s);

/* Move @rq from @from to @to; any other state is a block layer or scheduler bug. */
static inline void ios_blk_rq_step(struct ios_request *rq, enum ios_rq_state from,
				   enum ios_rq_state to, const char *what)
{
	IOS_BUG_ON_MSG(rq->state != from, "request %" PRIu64 " (sector %" PRIu64 ") %s while %s",
		       rq->id, rq->sector, what, ios_blk_rq_state_name(rq->state));
	rq->state = (uint8_t)to;
}

/* The latest time any queue call carried (for scheduler messages). */
static inline void ios_blk_clock(struct ios_queue *q, uint64_t now)
{
	if (now > q->clock_ns)
		q->clock_ns = now;
}

/* The one trace helper of both layers: every Q M F G S I D C R P U goes here. */
static inline void ios_blk_trace(struct ios_queue *q, enum ios_trace_action a,
				 const struct ios_request *rq, const struct ios_bio *bio,
				 uint64_t now)
{
	if (q->trace_ops && q->trace_ops->event)
		q->trace_ops->event(q->trace, q, a, rq, bio, now);
}

/* A zeroed request struct (recycled from q->free_rqs or new), or NULL. */
struct ios_request *ios_blk_rq_alloc(struct ios_queue *q);
/* Fill a new request from its first bio (position, owner, id, alloc time). */
void ios_blk_rq_init_from_bio(struct ios_queue *q, struct ios_request *rq,
			      struct ios_bio *bio, uint64_t now);
/* Share the time since the last dispatch or completion among those in the driver. */
void ios_blk_svc_advance(struct ios_queue *q, uint64_t now);
/*
 * Hand @rq (queued) to the device: the issue steps both layers share
 * (state, merge structures, svc share, counters, trace D, owner hook, the
 * host's issue()).
 */
void ios_blk_rq_start(struct ios_queue *q, struct ios_request *rq, uint64_t now);
void ios_blk_rq_issue(struct ios_queue *q, struct ios_request *rq, uint64_t now);
/* The accounting of a completion both layers share, up to and including trace C. */
void ios_blk_rq_complete_acct(struct ios_queue *q, struct ios_request *rq, uint64_t now,
			      int error);
/* End the bios of @bio's chain (the request's, already detached from it). */
void ios_blk_end_bios(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
		      uint64_t now, int error);

/* ---- merge.c: the back-merge hash and the merge rules ---- */

void ios_blk_hash_add(struct ios_queue *q, struct ios_request *rq);
void ios_blk_hash_del(struct ios_request *rq);
struct ios_request *ios_blk_hash_find(struct ios_queue *q, uint64_t end);

static inline bool ios_blk_bio_mergeable(const struct ios_bio *bio)
{
	return bio->nr_sectors && !(bio->flags & (IOS_REQ_PREFLUSH | IOS_REQ_FUA));
}

/*
 * Where a bio may merge (elv_merge: the one-hit cache, the hash, the
 * scheduler's lookup). Sets *out and returns the merge type, or IOS_NO_MERGE.
 */
enum ios_merge ios_blk_elv_merge(struct ios_queue *q, const struct ios_bio *bio,
				 struct ios_request **out);
/* Put @bio into @rq (a back or front merge found above), then try neighbours. */
void ios_blk_bio_merge_into(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
			    enum ios_merge m, uint64_t now);

/*
 * blk-mq without an elevator (blk_bio_list_merge): the newest @max requests
 * of @list (a software context's, by queuelist), newest first. True: merged.
 */
bool ios_blk_list_merge(struct ios_queue *q, struct ios_list_head *list, unsigned max,
			struct ios_bio *bio, uint64_t now);

/*
 * blk_attempt_plug_merge's one try: @bio into @rq, a request on a plug (in
 * no scheduler, not hashed). True: merged (trace M or F).
 */
bool ios_blk_plug_merge(struct ios_queue *q, struct ios_request *rq, struct ios_bio *bio,
			uint64_t now);

/*
 * Layer-specific: free a request merged away into its neighbour
 * (attempt_merge). block.c's returns the request-list slot; mq.c's the tags.
 */
void ios_blk_free_merged(struct ios_queue *q, struct ios_request *rq, uint64_t now);

#endif
