/*
 * Test policies for the rq_qos chain (src/block/rq_qos.c, blkcg_int.h):
 * a recording policy that logs each hook it is called for, with the
 * queue's trace so far, and may keep bios (throttle returns 1) for the
 * test to give back with ios_rq_qos_release. Used by block_rqqos_*.c on
 * the blk-mq rig (mq_rig.h).
 */
#ifndef T_RQQOS_RIG_H
#define T_RQQOS_RIG_H

#include "mq_rig.h"
#include "block/blkcg_int.h"

#define P_LOG 4096

static char p_log[P_LOG];	/* "B.throttle[Q] A.throttle[Q] B.track[QG] ..." */
static size_t p_len;

struct p_pol {
	struct ios_rq_qos r;
	struct m_rig *rig;
	bool hold;			/* throttle keeps every bio */
	struct ios_bio *held[16];
	unsigned nr_held;
	uint64_t next_at;		/* next_timer's answer */
	unsigned nr_timer;
	uint64_t last_tag_wait;		/* tag_wait_ns of the last tracked request */
	unsigned merge_rq_sectors;	/* the request's size when merge was called */
	/* done_bio gives back this policy's first held bio (a task woken by a completion) */
	bool release_in_done_bio;
};

static void p_note(struct ios_queue *q, struct ios_rq_qos *r, const char *hook)
{
	struct p_pol *p = (struct p_pol *)r;
	int n;

	(void)q;
	n = snprintf(p_log + p_len, P_LOG - p_len, "%s%s.%s[%.*s]", p_len ? " " : "", r->name,
		     hook, (int)p->rig->nr_trace, p->rig->trace);
	if (n > 0 && p_len + (size_t)n < P_LOG)
		p_len += (size_t)n;
}

static inline void p_log_reset(void)
{
	p_len = 0;
	p_log[0] = '\0';
}

static int p_throttle(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
		      uint64_t now)
{
	struct p_pol *p = (struct p_pol *)r;

	(void)now;
	p_note(q, r, "throttle");
	if (!p->hold)
		return 0;
	p->held[p->nr_held++] = bio;
	return 1;
}

static void p_track(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		    struct ios_bio *bio)
{
	(void)bio;
	((struct p_pol *)r)->last_tag_wait = rq->tag_wait_ns;
	p_note(q, r, "track");
}

static void p_merge(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		    struct ios_bio *bio, uint64_t now)
{
	(void)bio, (void)now;
	((struct p_pol *)r)->merge_rq_sectors = rq->nr_sectors;
	p_note(q, r, "merge");
}

static void p_issue(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		    uint64_t now)
{
	(void)rq, (void)now;
	p_note(q, r, "issue");
}

static void p_requeue(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		      uint64_t now)
{
	(void)rq, (void)now;
	p_note(q, r, "requeue");
}

static void p_done(struct ios_queue *q, struct ios_rq_qos *r, struct ios_request *rq,
		   uint64_t now)
{
	(void)rq, (void)now;
	p_note(q, r, "done");
}

static void p_done_bio(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
		       uint64_t now)
{
	struct p_pol *p = (struct p_pol *)r;

	(void)bio;
	p_note(q, r, "done_bio");
	if (p->release_in_done_bio && p->nr_held) {
		struct ios_bio *b = p->held[0];

		memmove(p->held, p->held + 1, --p->nr_held * sizeof(p->held[0]));
		p->release_in_done_bio = false;
		ios_rq_qos_release(q, r, b, now);
	}
}

static void p_cleanup(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
		      uint64_t now)
{
	(void)bio, (void)now;
	p_note(q, r, "cleanup");
}

static uint64_t p_next_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	(void)q, (void)now;
	return ((struct p_pol *)r)->next_at;
}

static void p_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	struct p_pol *p = (struct p_pol *)r;

	(void)now;
	p->nr_timer++;
	p->next_at = UINT64_MAX;
	p_note(q, r, "timer");
}

static const struct ios_rq_qos_ops p_ops = {
	.throttle = p_throttle,
	.track = p_track,
	.merge = p_merge,
	.issue = p_issue,
	.requeue = p_requeue,
	.done = p_done,
	.done_bio = p_done_bio,
	.cleanup = p_cleanup,
	.next_timer = p_next_timer,
	.timer = p_timer,
};

/* A recording policy @name of @id on @rig's queue (calloc'd; the test frees it). */
static inline struct p_pol *p_add(struct m_rig *rig, enum ios_rq_qos_id id, const char *name)
{
	struct p_pol *p = calloc(1, sizeof(*p));

	p->r.ops = &p_ops;
	p->r.id = id;
	p->r.name = name;
	p->rig = rig;
	p->next_at = UINT64_MAX;
	if (ios_rq_qos_add(rig->q, &p->r)) {
		free(p);
		return NULL;
	}
	return p;
}

/* Give back @p's oldest held bio. */
static inline void p_release(struct p_pol *p, uint64_t now)
{
	struct ios_bio *b = p->held[0];

	memmove(p->held, p->held + 1, --p->nr_held * sizeof(p->held[0]));
	ios_rq_qos_release(p->rig->q, &p->r, b, now);
}

/* Take the policies off the chain (they hold nothing) and free them. */
static inline void p_del(struct m_rig *rig, struct p_pol *a, struct p_pol *b)
{
	if (a)
		ios_rq_qos_del(rig->q, &a->r);
	if (b)
		ios_rq_qos_del(rig->q, &b->r);
	free(a);
	free(b);
}

#endif
