/*
 * io.latency, after Linux 6.12 block/blk-iolatency.c (Josef Bacik's
 * controller; docs/cgroup-v2-plan.md §2.3, docs/cgroup-v2.md "io.latency").
 *
 * A group with a target measures each of its bios from issue (after
 * io.max) to completion, in windows of 16 x the target (100 ms..1 s) that
 * close only at a completion. A bad window (non-rotational: 10 % or more
 * of the samples at or over the target; rotational: the window's mean over
 * it) lowers the parent's scale cookie, at most once per 500 ms per
 * parent. Every sibling that sees the cookie move on its next submission
 * halves its in-flight limit, from the queue's nr_requests down to 1, then
 * asks for a return-to-user delay; siblings with a target at or below the
 * missed one, or holding 5 % or less of the parent's samples, are spared.
 * Only the group that caused the scale-down scales back up, after good
 * windows; the 1 s timer scales up when no such group is left, and
 * forgets it 5 s after the last event.
 *
 * Modelled: all of the above, with the kernel's integer arithmetic,
 * including two quirks kept on purpose: a cookie move of several steps is
 * one halving for a group that did not submit meanwhile, and on a
 * rotational device the summed cur_stat's mean stays 0 (blk_rq_stat_sum
 * reads a source's batch, which a summed stat never has), so only the
 * window's own mean decides. Not modelled: the per-CPU stats (one CPU's
 * worth, summed the same way), the decayed lat_avg of io.stat (reporting
 * only), fatal_signal_pending, REQ_SWAP's memory-delay accounting,
 * the enable flip's queue freeze (targets are set before I/O flows), and
 * bio_issue's 51-bit time truncation (issue times are exact ns here).
 *
 * No clock is read: every entry takes @now; the 1 s timer is a due time
 * the rq_qos policy reports to the queue (next_timer).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "blk_iolatency.h"
#include "iosched/request.h"

struct ios_iolat_waiter {
	struct ios_bio *bio;
	struct ios_iolat_waiter *next;
};

static uint64_t iolat_min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t iolat_max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

struct ios_iolat_grp *ios_iolat_grp_of(struct ios_iolat *lat, const struct ios_blkg *g)
{
	if (!lat || !g || !lat->ctl)
		return NULL;
	if (g < lat->ctl->blkgs || g >= lat->ctl->blkgs + lat->nr_grps)
		return NULL;
	return &lat->grps[g - lat->ctl->blkgs];
}

static struct ios_iolat_grp *iolat_parent(struct ios_iolat_grp *g)
{
	return g->blkg->parent ? ios_iolat_grp_of(g->lat, g->blkg->parent) : NULL;
}

/* latency_stat_init */
static void iolat_stat_init(struct ios_iolat_stat *st)
{
	st->total = st->missed = 0;
	st->nr_samples = st->batch = st->mean = 0;
}

/*
 * latency_stat_sum. The rotational branch is blk_rq_stat_sum: the mean is
 * rebuilt from the source's batch, which only added samples fill.
 */
static void iolat_stat_sum(const struct ios_iolat_grp *g, struct ios_iolat_stat *sum,
			   const struct ios_iolat_stat *st)
{
	if (g->lat->ssd) {
		sum->total += st->total;
		sum->missed += st->missed;
		return;
	}
	if (!st->nr_samples)
		return;
	sum->mean = (st->batch + sum->mean * sum->nr_samples) / (sum->nr_samples + st->nr_samples);
	sum->nr_samples += st->nr_samples;
}

/* latency_stat_record_time */
static void iolat_stat_record(struct ios_iolat_grp *g, uint64_t req_time)
{
	if (g->lat->ssd) {
		if (req_time >= g->min_lat_nsec)
			g->stat.missed++;
		g->stat.total++;
	} else {
		g->stat.batch += req_time;
		g->stat.nr_samples++;
	}
}

bool ios_iolat_sum_ok(const struct ios_iolat_grp *g, const struct ios_iolat_stat *st)
{
	if (g->lat->ssd)
		return st->missed < iolat_max_u64(st->total / 10, 1);
	return st->mean <= g->min_lat_nsec;
}

static uint64_t iolat_stat_samples(const struct ios_iolat_grp *g, const struct ios_iolat_stat *st)
{
	return g->lat->ssd ? st->total : st->nr_samples;
}

/* the changes a note reports: depth or delay */
static void iolat_note(struct ios_iolat_grp *g, uint64_t now)
{
	if (g->nr_hist < IOS_IOLAT_HIST &&
	    (g->nr_hist ? g->hist[g->nr_hist - 1].depth : IOS_IOLAT_UNLIMITED) != g->max_depth) {
		g->hist[g->nr_hist].at = now;
		g->hist[g->nr_hist].depth = g->max_depth;
		g->nr_hist++;
	}
	if (g->lat->note)
		g->lat->note(g->lat, g, now);
}

/* scale_amount: a quarter of the queue down, a sixteenth up, at least 1 */
static unsigned long iolat_scale_amount(unsigned long qd, bool up)
{
	unsigned long s = up ? qd >> 4 : qd >> 2;

	return s ? s : 1;
}

/*
 * scale_cookie_change: the parent's cookie falls a quarter of the queue
 * per bad event while within nr_requests of the default, then by 1, and
 * not at all past twice nr_requests; it rises a sixteenth (1 when deep).
 */
static void iolat_scale_cookie_change(struct ios_iolat *lat, struct ios_iolat_child *ci, bool up)
{
	unsigned long qd = lat->nr_requests;
	unsigned long scale = iolat_scale_amount(qd, up);
	unsigned long old = ci->scale_cookie;
	unsigned long diff = old < IOS_IOLAT_DEFAULT_COOKIE ? IOS_IOLAT_DEFAULT_COOKIE - old : 0;

	lat->nr_scale_events++;
	if (up) {
		if (scale + old > IOS_IOLAT_DEFAULT_COOKIE)
			ci->scale_cookie = IOS_IOLAT_DEFAULT_COOKIE;
		else if (diff > qd)
			ci->scale_cookie++;
		else
			ci->scale_cookie += (unsigned)scale;
	} else if (diff > qd) {
		if (diff < qd << 1)
			ci->scale_cookie--;
	} else {
		ci->scale_cookie -= (unsigned)scale;
	}
}

/* blkcg_unuse_delay: true when a use was dropped */
static bool iolat_unuse_delay(struct ios_iolat_grp *g)
{
	return ios_blkcg_unuse_delay(g->blkg) != 0;
}

static void iolat_wake(struct ios_iolat_grp *g, uint64_t now);

/*
 * scale_change: a victim's depth halves (from nr_requests when unlimited)
 * down to 1, or grows by a sixteenth of nr_requests up to it; at depth 1
 * a delay in use is dropped first.
 */
static void iolat_scale_change(struct ios_iolat_grp *g, bool up, uint64_t now)
{
	unsigned long qd = g->lat->nr_requests;
	unsigned long old = g->max_depth;

	if (old > qd)
		old = qd;
	if (up) {
		if (old == 1 && iolat_unuse_delay(g)) {
			iolat_note(g, now);
			return;
		}
		if (old < qd) {
			old += iolat_scale_amount(qd, true);
			g->max_depth = (unsigned)(old < qd ? old : qd);
			g->nr_scale_up++;
			iolat_note(g, now);
			iolat_wake(g, now);
		}
	} else {
		old >>= 1;
		g->max_depth = (unsigned)(old ? old : 1);
		g->nr_scale_down++;
		iolat_note(g, now);
	}
}

/*
 * check_scale_change: on a submission, a group follows its parent's cookie
 * by one step in its direction, whatever the distance.
 */
static void iolat_check_scale_change(struct ios_iolat_grp *g, uint64_t now)
{
	struct ios_iolat_grp *p = iolat_parent(g);
	struct ios_iolat_child *ci;
	unsigned cur, ours = g->scale_cookie;
	int direction;

	if (!p)
		return;
	ci = &p->child;
	cur = ci->scale_cookie;
	if (cur == ours)
		return;
	direction = cur < ours ? -1 : 1;
	g->scale_cookie = cur;

	if (direction < 0 && g->min_lat_nsec) {
		uint64_t thresh;

		/* a group as strict as the one that missed is never its victim */
		if (!ci->scale_lat || g->min_lat_nsec <= ci->scale_lat)
			return;
		/* nor one with a target that did 5 % or less of the I/O */
		thresh = iolat_max_u64(1, ci->nr_samples * 5 / 100);
		if (g->nr_samples <= thresh)
			return;
	}
	if (g->max_depth == 1 && direction < 0) {
		ios_blkcg_use_delay(g->blkg);
		iolat_note(g, now);
		return;
	}
	if (cur == IOS_IOLAT_DEFAULT_COOKIE) {
		ios_blkcg_clear_delay(g->blkg);
		g->max_depth = IOS_IOLAT_UNLIMITED;
		iolat_note(g, now);
		iolat_wake(g, now);
		return;
	}
	iolat_scale_change(g, direction > 0, now);
}

void ios_iolat_check_latencies(struct ios_iolat_grp *g, uint64_t now)
{
	struct ios_iolat_grp *p;
	struct ios_iolat_child *ci;
	struct ios_iolat_stat st = g->stat;
	bool window_ok;

	iolat_stat_init(&g->stat);
	g->nr_windows++;
	/* the window's stat is the per-CPU sum: its mean comes from the batch */
	if (!g->lat->ssd) {
		struct ios_iolat_stat sum;

		iolat_stat_init(&sum);
		iolat_stat_sum(g, &sum, &st);
		st = sum;
	}
	p = iolat_parent(g);
	if (!p)
		return;
	ci = &p->child;
	window_ok = ios_iolat_sum_ok(g, &st);
	g->nr_bad_windows += !window_ok;
	if (window_ok && ci->scale_cookie == IOS_IOLAT_DEFAULT_COOKIE)
		return;

	iolat_stat_sum(g, &g->cur_stat, &st);
	ci->nr_samples -= g->nr_samples;
	ci->nr_samples += iolat_stat_samples(g, &g->cur_stat);
	g->nr_samples = iolat_stat_samples(g, &g->cur_stat);

	/* one event per 500 ms per parent; "never" is not "at time 0" (R4) */
	if (ci->last_scale_event != IOS_IOLAT_NEVER &&
	    (ci->last_scale_event >= now || now - ci->last_scale_event < IOS_IOLAT_MIN_ADJUST_NS))
		return;

	if (ios_iolat_sum_ok(g, &g->cur_stat) && window_ok) {
		if (iolat_stat_samples(g, &g->cur_stat) < IOS_IOLAT_MIN_GOOD_SAMPLES)
			return;
		if (ci->scale_grp == g) {
			ci->last_scale_event = now;
			iolat_scale_cookie_change(g->lat, ci, true);
		}
	} else if (ci->scale_lat == 0 || ci->scale_lat >= g->min_lat_nsec) {
		ci->last_scale_event = now;
		if (!ci->scale_grp || ci->scale_lat > g->min_lat_nsec) {
			ci->scale_lat = g->min_lat_nsec;
			ci->scale_grp = g;
		}
		iolat_scale_cookie_change(g->lat, ci, false);
	}
	iolat_stat_init(&g->cur_stat);
}

/*
 * rq_wait_inc_below, behind rq_qos_wait's "no queue-jumping past sleepers"
 * (kept for fidelity: wake-ups are immediate here, so a group has waiters
 * only while it is at its limit)
 */
static bool iolat_try_slot(struct ios_iolat_grp *g)
{
	if (g->nr_waiting || g->inflight >= g->max_depth)
		return false;
	g->inflight++;
	return true;
}

static int iolat_enqueue(struct ios_iolat_grp *g, struct ios_bio *bio)
{
	struct ios_iolat_waiter *w = malloc(sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->bio = bio;
	w->next = NULL;
	if (g->wait_tail)
		g->wait_tail->next = w;
	else
		g->wait_head = w;
	g->wait_tail = w;
	g->nr_waiting++;
	g->nr_depth_waits++;
	return 0;
}

/*
 * The throttle walk from @g up: 0 through every level, 1 held at one.
 * A level that cannot queue the bio (no memory) lets it through: io.latency
 * never loses a bio.
 */
static int iolat_walk(struct ios_iolat *lat, struct ios_iolat_grp *g, struct ios_bio *bio,
		      bool issue_as_root, uint64_t now)
{
	for (; g && g->blkg->parent; g = iolat_parent(g)) {
		iolat_check_scale_change(g, now);
		/*
		 * Issue-as-root bios take a slot without waiting (priority
		 * inversion); the return-to-user delay of a group using one is
		 * applied by the core when its task's syscall returns.
		 */
		if (issue_as_root) {
			g->inflight++;
			continue;
		}
		if (iolat_try_slot(g))
			continue;
		if (iolat_enqueue(g, bio) == 0)
			return 1;
		g->inflight++;
	}
	(void)lat;
	return 0;
}

/*
 * rq_qos_wait's wake-ups: the head waiter takes a freed slot, then goes on
 * up the tree; once through, it continues to the tag.
 */
static void iolat_wake(struct ios_iolat_grp *g, uint64_t now)
{
	while (g->wait_head && g->inflight < g->max_depth) {
		struct ios_iolat_waiter *w = g->wait_head;
		struct ios_bio *bio = w->bio;

		g->wait_head = w->next;
		if (!g->wait_head)
			g->wait_tail = NULL;
		g->nr_waiting--;
		free(w);
		g->inflight++;
		if (iolat_walk(g->lat, iolat_parent(g), bio, false, now) == 0 && g->lat->release)
			g->lat->release(g->lat, bio, now);
	}
}

static uint64_t iolat_timer_due(const struct ios_iolat *lat, uint64_t now)
{
	/* mod_timer(jiffies + HZ): the tick one second of ticks after now's */
	uint64_t hz_ticks = 1000000000ull / lat->tick_ns;

	return (now / lat->tick_ns + hz_ticks) * lat->tick_ns;
}

int ios_iolat_throttle(struct ios_iolat *lat, struct ios_blkg *blkg, struct ios_bio *bio,
		       bool issue_as_root, uint64_t now)
{
	int held;

	if (!lat || !lat->enable_cnt)
		return 0;
	held = iolat_walk(lat, ios_iolat_grp_of(lat, blkg), bio, issue_as_root, now);
	if (lat->timer_at == IOS_IOLAT_NEVER)
		lat->timer_at = iolat_timer_due(lat, now);
	return held;
}

/* iolatency_record_time */
static void iolat_record_time(struct ios_iolat_grp *g, uint64_t issue_ns, uint64_t now,
			      bool issue_as_root)
{
	uint64_t req_time;

	if (now <= issue_ns)
		return;
	req_time = now - issue_ns;
	/*
	 * Issue-as-root I/O of a throttled group is not a sample (it would
	 * flatter the group); one faster than the target is charged as a
	 * delay instead (blkcg_add_delay).
	 */
	if (issue_as_root && g->max_depth != IOS_IOLAT_UNLIMITED) {
		if (req_time < g->min_lat_nsec) {
			ios_blkcg_add_delay(g->blkg, now, g->min_lat_nsec - req_time);
			g->delay_added_ns += g->min_lat_nsec - req_time;
			iolat_note(g, now);
		}
		return;
	}
	iolat_stat_record(g, req_time);
}

void ios_iolat_done_bio(struct ios_iolat *lat, struct ios_blkg *blkg, uint64_t issue_ns,
			bool issue_as_root, uint64_t now)
{
	struct ios_iolat_grp *g, *start = ios_iolat_grp_of(lat, blkg);

	if (!lat || !lat->enable_cnt || !start)
		return;
	for (g = start; g && g->blkg->parent; g = iolat_parent(g)) {
		/* the enable flip has no queue freeze here: never go below 0 */
		if (g->inflight)
			g->inflight--;
		if (!g->min_lat_nsec)
			continue;
		iolat_record_time(g, issue_ns, now, issue_as_root);
		/* a window closes at the first completion after its length */
		if (now > g->window_start && now - g->window_start >= g->cur_win_nsec) {
			g->window_start = now;
			ios_iolat_check_latencies(g, now);
		}
	}
	/* the woken tasks run after the completion: all books first */
	for (g = start; g && g->blkg->parent; g = iolat_parent(g))
		iolat_wake(g, now);
}

void ios_iolat_timer(struct ios_iolat *lat, uint64_t now)
{
	if (!lat || lat->timer_at == IOS_IOLAT_NEVER || now < lat->timer_at)
		return;
	lat->timer_at = IOS_IOLAT_NEVER;
	/* blkg_for_each_descendant_pre: parents before children, root first */
	for (unsigned i = 0; i < lat->nr_grps; i++) {
		struct ios_iolat_child *ci = &lat->grps[i].child;

		if (ci->scale_cookie >= IOS_IOLAT_DEFAULT_COOKIE)
			continue;
		if (ci->last_scale_event != IOS_IOLAT_NEVER && ci->last_scale_event >= now)
			continue;
		/* scaled down with nobody left to scale back up: do it here */
		if (!ci->scale_grp) {
			iolat_scale_cookie_change(lat, ci, true);
			continue;
		}
		/* the group that asked may have gone quiet: forget it after 5 s */
		if (ci->last_scale_event == IOS_IOLAT_NEVER ||
		    now - ci->last_scale_event >= IOS_IOLAT_SCALE_GRP_NS)
			ci->scale_grp = NULL;
	}
}

uint64_t ios_iolat_next_timer(const struct ios_iolat *lat)
{
	return lat ? lat->timer_at : IOS_IOLAT_NEVER;
}

void ios_iolat_set_target(struct ios_iolat *lat, struct ios_blkg *blkg, uint64_t target_ns)
{
	struct ios_iolat_grp *g = ios_iolat_grp_of(lat, blkg), *p;
	uint64_t old;

	if (!g)
		return;
	old = g->min_lat_nsec;
	/* iolatency_set_min_lat_nsec */
	g->min_lat_nsec = target_ns;
	g->cur_win_nsec = iolat_min_u64(iolat_max_u64(target_ns << 4, IOS_IOLAT_MIN_WIN_NS),
					IOS_IOLAT_MAX_WIN_NS);
	if (!old && target_ns)
		lat->enable_cnt++;
	if (old && !target_ns) {
		ios_blkcg_clear_delay(g->blkg);
		if (lat->enable_cnt)
			lat->enable_cnt--;
	}
	if (old == target_ns)
		return;
	/* iolatency_clear_scaling: the parent starts over */
	p = iolat_parent(g);
	if (p) {
		p->child.scale_cookie = IOS_IOLAT_DEFAULT_COOKIE;
		p->child.last_scale_event = IOS_IOLAT_NEVER;
		p->child.scale_grp = NULL;
		p->child.scale_lat = 0;
	}
}

struct ios_iolat *ios_iolat_create(struct ios_blkcg_ctl *ctl, unsigned nr_requests,
				   bool nonrot, unsigned hz, uint64_t now)
{
	struct ios_iolat *lat;

	if (!ctl || !ctl->nr_blkgs)
		return NULL;
	lat = calloc(1, sizeof(*lat));
	if (!lat)
		return NULL;
	lat->grps = calloc(ctl->nr_blkgs, sizeof(*lat->grps));
	if (!lat->grps) {
		free(lat);
		return NULL;
	}
	lat->ctl = ctl;
	lat->nr_grps = ctl->nr_blkgs;
	lat->nr_requests = nr_requests ? nr_requests : 1;
	lat->ssd = nonrot;
	lat->tick_ns = 1000000000ull / (hz ? hz : 250);
	lat->timer_at = IOS_IOLAT_NEVER;
	/* iolatency_pd_init, parents first so a child copies its parent's cookie */
	for (unsigned i = 0; i < ctl->nr_blkgs; i++) {
		struct ios_iolat_grp *g = &lat->grps[i];

		g->blkg = &ctl->blkgs[i];
		g->lat = lat;
		g->max_depth = IOS_IOLAT_UNLIMITED;
		g->cur_win_nsec = IOS_IOLAT_MIN_WIN_NS;
		g->window_start = now;
		g->child.scale_cookie = IOS_IOLAT_DEFAULT_COOKIE;
		g->child.last_scale_event = IOS_IOLAT_NEVER;
		g->scale_cookie = IOS_IOLAT_DEFAULT_COOKIE;
		ctl->blkgs[i].pd[IOS_BLKCG_LATENCY] = g;
	}
	return lat;
}

void ios_iolat_destroy(struct ios_iolat *lat)
{
	if (!lat)
		return;
	for (unsigned i = 0; i < lat->nr_grps; i++) {
		struct ios_iolat_grp *g = &lat->grps[i];

		while (g->wait_head) {
			struct ios_iolat_waiter *w = g->wait_head;

			g->wait_head = w->next;
			free(w);
		}
		if (lat->ctl && lat->ctl->blkgs[i].pd[IOS_BLKCG_LATENCY] == g)
			lat->ctl->blkgs[i].pd[IOS_BLKCG_LATENCY] = NULL;
	}
	free(lat->grps);
	free(lat);
}

/* ---- the rq_qos policy (blkcg_iolatency_ops) over the functions above ---- */

struct iolat_qos {
	struct ios_rq_qos rqos;
	struct ios_iolat *lat;
	struct ios_queue *q;
};

static struct ios_iolat *iolat_of(struct ios_rq_qos *r)
{
	return ((struct iolat_qos *)r->priv)->lat;
}

/* bio_issue_as_root_blkg: metadata (and swap, which the lab has none of) */
static bool iolat_issue_as_root(const struct ios_bio *bio)
{
	return bio->flags & IOS_REQ_META;
}

static struct ios_blkg *iolat_bio_blkg(struct ios_queue *q, const struct ios_bio *bio)
{
	return ios_blkg_of(q->blkcg, ios_bio_blkcg(bio));
}

static int iolat_rqos_throttle(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
			       uint64_t now)
{
	struct ios_iolat *lat = iolat_of(r);
	struct ios_blkg *g = iolat_bio_blkg(q, bio);

	if (!g || !lat->enable_cnt)
		return 0;
	/* blkcg_schedule_throttle for each level whose delay is in use */
	for (struct ios_blkg *b = g; b && b->parent; b = b->parent)
		if (b->use_delay && bio->ioc)
			ios_blkcg_schedule_throttle(q, bio->ioc);
	return ios_iolat_throttle(lat, g, bio, iolat_issue_as_root(bio), now);
}

static void iolat_rqos_done_bio(struct ios_queue *q, struct ios_rq_qos *r, struct ios_bio *bio,
				uint64_t now)
{
	struct ios_blkg *g;

	/* a bio merged before throttle holds no slot and is no sample */
	if (!(bio->qos_flags & IOS_BIO_QOS_THROTTLED))
		return;
	g = iolat_bio_blkg(q, bio);
	if (g)
		ios_iolat_done_bio(iolat_of(r), g, bio->issue_ns, iolat_issue_as_root(bio), now);
}

static uint64_t iolat_rqos_next_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	(void)q;
	(void)now;
	return ios_iolat_next_timer(iolat_of(r));
}

static void iolat_rqos_timer(struct ios_queue *q, struct ios_rq_qos *r, uint64_t now)
{
	(void)q;
	ios_iolat_timer(iolat_of(r), now);
}

static void iolat_rqos_exit(struct ios_queue *q, struct ios_rq_qos *r)
{
	struct iolat_qos *iq = r->priv;

	/* the runner may have freed the group tree already (run.c ctx_free) */
	if (q->blkcg == iq->lat->ctl)
		q->blkcg->conf_updated[IOS_BLKCG_LATENCY] = NULL;
	else
		iq->lat->ctl = NULL;
	ios_iolat_destroy(iq->lat);
	free(iq);
}

static const struct ios_rq_qos_ops iolat_rqos_ops = {
	.throttle = iolat_rqos_throttle,
	.done_bio = iolat_rqos_done_bio,
	.next_timer = iolat_rqos_next_timer,
	.timer = iolat_rqos_timer,
	.exit = iolat_rqos_exit,
};

static void iolat_release(struct ios_iolat *lat, struct ios_bio *bio, uint64_t now)
{
	struct iolat_qos *iq = lat->priv;

	ios_rq_qos_release(iq->q, &iq->rqos, bio, now);
}

/* io.latency written during the run (a later job's exec_prerun) */
static void iolat_conf_updated(struct ios_queue *q, struct ios_blkg *g, uint64_t now)
{
	struct ios_rq_qos *r = ios_rq_qos_id(q, IOS_RQ_QOS_LATENCY);

	(void)now;
	if (r && g->cgroup && g->cgroup->v2)
		ios_iolat_set_target(iolat_of(r), g, g->cgroup->v2->lat_target_ns);
}

int ios_iolat_install(struct ios_queue *q, unsigned hz, uint64_t now)
{
	struct iolat_qos *iq;
	int ret;

	if (!q->mq || !q->blkcg)
		return -EOPNOTSUPP;
	if (ios_rq_qos_id(q, IOS_RQ_QOS_LATENCY))
		return 0;
	iq = calloc(1, sizeof(*iq));
	if (!iq)
		return -ENOMEM;
	iq->lat = ios_iolat_create(q->blkcg, q->nr_requests, !q->rotational, hz, now);
	if (!iq->lat) {
		free(iq);
		return -ENOMEM;
	}
	iq->q = q;
	iq->lat->priv = iq;
	iq->lat->release = iolat_release;
	iq->lat->q = q;
	iq->rqos.ops = &iolat_rqos_ops;
	iq->rqos.id = IOS_RQ_QOS_LATENCY;
	iq->rqos.name = "latency";
	iq->rqos.priv = iq;
	ret = ios_rq_qos_add(q, &iq->rqos);
	if (ret) {
		ios_iolat_destroy(iq->lat);
		free(iq);
		return ret;
	}
	for (unsigned i = 0; i < q->blkcg->nr_blkgs; i++) {
		struct ios_blkg *g = &q->blkcg->blkgs[i];

		if (g->parent && g->cgroup && g->cgroup->v2 && g->cgroup->v2->lat_target_ns)
			ios_iolat_set_target(iq->lat, g, g->cgroup->v2->lat_target_ns);
	}
	q->blkcg->conf_updated[IOS_BLKCG_LATENCY] = iolat_conf_updated;
	return 0;
}

static struct ios_iolat *iolat_on(struct ios_queue *q)
{
	struct ios_rq_qos *r = q && q->mq ? ios_rq_qos_id(q, IOS_RQ_QOS_LATENCY) : NULL;

	return r ? iolat_of(r) : NULL;
}

unsigned ios_iolat_depths(struct ios_queue *q, const struct ios_blkg *g, uint64_t *at_ns,
			  unsigned *depth, unsigned max)
{
	const struct ios_iolat_grp *lg = ios_iolat_grp_of(iolat_on(q), g);
	unsigned n = 0;

	for (; lg && n < lg->nr_hist && n < max; n++) {
		at_ns[n] = lg->hist[n].at;
		depth[n] = lg->hist[n].depth;
	}
	return n;
}

void ios_iolat_summary(struct ios_queue *q, char *buf, size_t len)
{
	struct ios_iolat *lat = iolat_on(q);
	size_t off = 0;

	if (!len)
		return;
	buf[0] = 0;
	if (!lat)
		return;
#define IOLAT_PUT(...)                                                          \
	do {                                                                    \
		int w_ = snprintf(buf + off, len - off, __VA_ARGS__);           \
		if (w_ > 0)                                                     \
			off += (size_t)w_ < len - off ? (size_t)w_ : len - off - 1; \
	} while (0)
	for (unsigned i = 0; i < lat->nr_grps && off + 1 < len; i++) {
		const struct ios_iolat_grp *g = &lat->grps[i];
		const char *name = g->blkg->cgroup && g->blkg->cgroup->path ? g->blkg->cgroup->path : "?";

		if (!g->blkg->parent || (!g->min_lat_nsec && !g->nr_hist))
			continue;
		IOLAT_PUT("%s%s", off ? "; " : "", name);
		if (g->min_lat_nsec)
			IOLAT_PUT(" (target %" PRIu64 " us): %" PRIu64 " windows, %" PRIu64 " bad",
				  g->min_lat_nsec / 1000, g->nr_windows, g->nr_bad_windows);
		for (unsigned k = 0; k < g->nr_hist; k++) {
			if (g->hist[k].depth == IOS_IOLAT_UNLIMITED)
				IOLAT_PUT("%s unlimited at %.3f s", k ? "," : ": depth", g->hist[k].at / 1e9);
			else
				IOLAT_PUT("%s %u at %.3f s", k ? "," : ": depth", g->hist[k].depth,
					  g->hist[k].at / 1e9);
		}
		if (g->nr_hist) {
			if (g->max_depth == IOS_IOLAT_UNLIMITED)
				IOLAT_PUT("; ends unlimited");
			else
				IOLAT_PUT("; ends at %u", g->max_depth);
			IOLAT_PUT(" after %" PRIu64 " halvings, %" PRIu64 " rises, %" PRIu64 " waits",
				  g->nr_scale_down, g->nr_scale_up, g->nr_depth_waits);
		}
	}
#undef IOLAT_PUT
}
