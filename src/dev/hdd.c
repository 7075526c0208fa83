/*
 * hdd: a positional model of a zoned, cached, queueing hard disk.
 *
 * The model follows Ruemmler & Wilkes (1994) and DiskSim: a command costs a
 * controller overhead, then positioning (Lee's three-point seek curve over
 * the cylinder count, plus a write settle, or a head switch when only the
 * surface changes), then rotational latency computed from the platter's
 * real angle, then the media transfer at the zone's rate with the head and
 * cylinder switches it crosses. The angle is a pure function of absolute
 * time, angle(t) = frac(t * rpm / 60 s), so the model needs no randomness:
 * whether a request "just misses" its sector depends on when it arrives,
 * exactly as on a real drive. Track and cylinder skew are laid out so that a
 * sequential transfer crossing a boundary loses only the switch time.
 *
 * Geometry: LBA 0 is on the outermost cylinder; LBAs fill a track, then the
 * next surface, then the next cylinder. Zones are equal runs of cylinders
 * whose sectors per track fall linearly from the outer to the inner zone.
 * outer_mbps / inner_mbps are the *sustained* rates a long sequential read
 * reaches there (what spec sheets call sustained and what fio measures);
 * sectors per track are derived so that a track plus its share of switch
 * time gives that rate.
 *
 * On-board cache (section 1.6 of the spec): cache_segments read segments,
 * each a window of logically sequential sectors with LRU replacement. After
 * a read from the media the drive goes on reading ahead into the segment
 * while nothing else needs the mechanism, up to read_ahead_max past the
 * furthest sector the host has asked for (a circular segment: the oldest
 * sectors drop off). A read already in a segment, or one the ongoing
 * read-ahead will deliver sooner than a fresh access could, is a hit: hit
 * overhead plus bus transfer (plus the wait for read-ahead). The write cache
 * absorbs non-FUA writes (overhead plus bus transfer) while they fit, and
 * destages dirty extents when the mechanism is idle, or forcibly when a write
 * waits for room or a flush waits for its data. FUA writes, writes with the
 * cache off and flushes reach the media before they complete.
 *
 * Queueing: up to queue_depth commands; when the mechanism frees, FCFS or
 * SATF (shortest estimated seek + rotation) with aging: a command older than
 * ncq_age_limit is served first.
 *
 * The device is a state machine (see include/iosched/device.h): submit()
 * routes a command, next_event() reports the next state change, complete()
 * advances to a time and hands back finished commands. Everything is integer
 * nanoseconds; only the seek curve uses doubles, rounded once per seek.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "core/builtin.h"
#include "dev/zoned.h"
#include "dev/hdd.h"
#include "dev/hdd_geom.h"

static const char *const hdd_ncq_choices[] = { "fcfs", "satf", NULL };

static struct hdd *hdd_of(struct ios_dev *dev)
{
	return ios_container_of(dev, struct hdd, dev);
}

static const struct hdd *hdd_of_c(const struct ios_dev *dev)
{
	return ios_container_of(dev, const struct hdd, dev);
}

static uint64_t hdd_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t hdd_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* ---- mechanics ---- */

static uint64_t hdd_rev_ns(const struct hdd *h)
{
	return (HDD_PHASE_REV + (uint64_t)h->rpm - 1) / (uint64_t)h->rpm;
}

/* Platter angle at @t in units of HDD_PHASE_REV per turn. */
static uint64_t hdd_phase(const struct hdd *h, uint64_t t)
{
	return ((t % HDD_PHASE_REV) * (uint64_t)h->rpm) % HDD_PHASE_REV;
}

/*
 * When the angle @target next passes under the head, looking from @t. If it
 * passed a rounding error ago (times are whole ns, angles are not), that
 * passage counts and the answer is slightly before @t: anchoring transfers
 * to the angle grid this way keeps back-to-back sectors from drifting.
 */
static uint64_t hdd_rot_start(const struct hdd *h, uint64_t t, uint64_t target)
{
	uint64_t cur = hdd_phase(h, t);
	uint64_t d = (target + HDD_PHASE_REV - cur) % HDD_PHASE_REV;
	uint64_t rpm = (uint64_t)h->rpm;

	if (d && HDD_PHASE_REV - d <= HDD_ROT_SLACK_NS * rpm) {
		uint64_t back = (HDD_PHASE_REV - d) / rpm;

		if (back <= t)
			return t - back;
	}
	return t + (d + rpm - 1) / rpm;
}

/* Rotational latency to @target from @t. */
static uint64_t hdd_rot_wait(const struct hdd *h, uint64_t t, uint64_t target)
{
	uint64_t s = hdd_rot_start(h, t, target);

	return s > t ? s - t : 0;
}

/* Time for @k sectors of a track with @spt sectors to pass under the head. */
static uint64_t hdd_xfer_ns(const struct hdd *h, uint64_t k, uint32_t spt)
{
	uint64_t div = (uint64_t)spt * (uint64_t)h->rpm;

	return (k * HDD_PHASE_REV + div - 1) / div;
}

static uint64_t hdd_bus_ns(const struct hdd *h, uint64_t sectors, int dir)
{
	uint64_t mbps = (uint64_t)h->interface_mbps;

	if (h->geom)	/* DiskSim's disk_get_blktranstime */
		return sectors * h->geom->bus_sector_ns[dir == IOS_WRITE ? IOS_WRITE : IOS_READ];
	return (sectors * IOS_SECTOR_SIZE * 1000 + mbps - 1) / mbps;
}

/*
 * The controller overheads of a read miss, a read hit and a write. With a
 * table geometry (a DiskSim spec) they depend on the direction of the last
 * command completed, as DiskSim 4.0's disk_read_arrive and disk_write_arrive
 * (src/disksim_diskctlr.c) pick them by currdisk->lastflags; the profiles
 * have one of each.
 */
static uint64_t hdd_miss_ovh(const struct hdd *h)
{
	return h->geom && h->last_write ? h->geom->read_miss_aw_ns : h->cmd_overhead_ns;
}

static uint64_t hdd_hit_ovh(const struct hdd *h)
{
	return h->geom && h->last_write ? h->geom->read_hit_aw_ns : h->hit_overhead_ns;
}

static uint64_t hdd_write_ovh(const struct hdd *h)
{
	if (!h->geom)
		return h->cmd_overhead_ns;
	return h->last_write ? h->geom->write_overhead_ns : h->geom->write_overhead_ar_ns;
}

static uint32_t hdd_zone_of(const struct hdd *h, uint64_t lba)
{
	uint32_t lo = 0, hi = h->nr_zones - 1;

	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;

		if (h->zone[mid].first_lba <= lba)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static void hdd_locate(const struct hdd *h, uint64_t lba, struct hdd_loc *l)
{
	uint32_t zi = hdd_zone_of(h, lba);
	const struct hdd_zone *z = &h->zone[zi];
	uint64_t rel = lba - z->first_lba;
	uint64_t track = rel / z->spt;
	uint64_t cylz = track / (uint64_t)h->heads;
	uint64_t head = track % (uint64_t)h->heads;
	uint64_t hsw = cylz * (uint64_t)(h->heads - 1) + head;
	uint64_t off = (hsw * z->head_skew + cylz * z->cyl_skew) % z->spt;

	if (h->geom) {
		ios_hdd_geom_locate(h->geom, lba, l);
		return;
	}
	l->zone = zi;
	l->spt = z->spt;
	l->sect = (uint32_t)(rel % z->spt);
	l->cyl = z->first_cyl + (uint32_t)cylz;
	l->head = (uint32_t)head;
	l->phase = ((l->sect + off) % z->spt) * HDD_PHASE_REV / z->spt;
	l->run = z->spt - l->sect;
	l->tstart = l->sect == 0;
	l->cylchg = l->tstart && head == 0;
}

static uint64_t hdd_seek_ns(const struct hdd *h, uint32_t d)
{
	double x, t;

	if (!d)
		return 0;
	x = (double)(d - 1);
	t = h->seek_a * sqrt(x) + h->seek_b * x + h->seek_c;
	return t <= 0 ? 0 : (uint64_t)llround(t);
}

/* Seek (+ settle for writes) or head switch, whichever is longer. */
static uint64_t hdd_position_ns(const struct hdd *h, uint32_t fcyl, uint32_t fhead,
				const struct hdd_loc *to, bool write)
{
	uint32_t d = to->cyl > fcyl ? to->cyl - fcyl : fcyl - to->cyl;
	uint64_t t = 0;

	if (d && h->geom)
		t = ios_hdd_geom_seek_ns(h->geom, d, write);
	else if (d)
		t = hdd_seek_ns(h, d) + (write ? h->write_settle_ns : 0);
	if (to->head != fhead && t < h->head_switch_ns)
		t = h->head_switch_ns;
	return t;
}

/*
 * Stream @n sectors from @lba. With @cont the head has just finished sector
 * lba - 1 at @t (a new track costs a head or cylinder switch first);
 * otherwise it is on @lba's track at @t. Only sectors finished by @limit
 * count. Returns when the last counted sector ended (@t if none).
 */
static uint64_t hdd_walk(const struct hdd *h, uint64_t lba, uint64_t n, uint64_t t, bool cont,
			 uint64_t limit, uint64_t *done)
{
	uint64_t did = 0, last = t;

	while (did < n) {
		struct hdd_loc l;
		uint64_t k, end;

		hdd_locate(h, lba + did, &l);
		if (cont && l.tstart)
			t += l.cylchg ? h->cyl_switch_ns : h->head_switch_ns;
		t = hdd_rot_start(h, t, l.phase);
		k = hdd_min(n - did, (uint64_t)l.run);
		end = t + hdd_xfer_ns(h, k, l.spt);
		if (end > limit) {
			if (limit > t) {
				uint64_t part = (limit - t) * l.spt * (uint64_t)h->rpm / HDD_PHASE_REV;

				part = hdd_min(part, k);
				if (part) {
					did += part;
					last = t + hdd_xfer_ns(h, part, l.spt);
				}
			}
			break;
		}
		did += k;
		t = last = end;
		cont = true;
	}
	*done = did;
	return last;
}

/* Estimated positioning + rotation to reach @lba from the current head at @t. */
static uint64_t hdd_access_est(const struct hdd *h, uint32_t fcyl, uint32_t fhead, uint64_t lba,
			       bool write, uint64_t t)
{
	struct hdd_loc l;
	uint64_t pos;

	hdd_locate(h, lba, &l);
	pos = hdd_position_ns(h, fcyl, fhead, &l, write);
	return pos + hdd_rot_wait(h, t + pos, l.phase);
}

static void hdd_set_head(struct hdd *h, uint64_t lba)
{
	struct hdd_loc l;

	hdd_locate(h, lba, &l);
	h->cur_cyl = l.cyl;
	h->cur_head = l.head;
}

/* ---- completion list ---- */

static void hdd_done_add(struct hdd *h, struct ios_request *rq, uint64_t t)
{
	struct ios_list_head *pos;

	/* DiskSim's disk_request_complete: the completion overhead comes last */
	if (h->geom && rq->nr_sectors)
		t += h->geom->complete_ns[rq->dir == IOS_WRITE ? IOS_WRITE : IOS_READ];
	rq->dev_ns = t;
	/* keep completion order; equal times stay in the order they were decided */
	for (pos = h->done.prev; pos != &h->done; pos = pos->prev) {
		struct ios_request *o = ios_list_entry(pos, struct ios_request, dev_node);

		if (o->dev_ns <= t)
			break;
	}
	ios_list_add(&rq->dev_node, pos);
}

/* ---- read-ahead ---- */

static bool hdd_ra_streaming(const struct hdd *h)
{
	return h->mech == HDD_RA;
}

static void hdd_seg_trim(const struct hdd *h, struct hdd_seg *s)
{
	if (s->end - s->start > h->seg_cap)
		s->start = s->end - h->seg_cap;
}

/* Time the read-ahead will have read everything below sector @x. */
static uint64_t hdd_ra_time_to(const struct hdd *h, uint64_t x)
{
	uint64_t done;

	if (x <= h->ra.lba0)
		return h->ra.t0;
	return hdd_walk(h, h->ra.lba0, x - h->ra.lba0, h->ra.t0, h->ra.cont, HDD_TIME_MAX, &done);
}

static void hdd_ra_retime(struct hdd *h)
{
	h->ra.end_t = hdd_ra_time_to(h, h->ra.target);
	h->ra.must_t = hdd_ra_time_to(h, h->ra.must);
}

/* Move the read-ahead checkpoint to the sectors finished by @t. */
static void hdd_ra_checkpoint(struct hdd *h, uint64_t t)
{
	uint64_t done, last;

	if (!hdd_ra_streaming(h) || h->ra.target <= h->ra.lba0)
		return;
	last = hdd_walk(h, h->ra.lba0, h->ra.target - h->ra.lba0, h->ra.t0, h->ra.cont, t, &done);
	if (!done)
		return;
	h->ra.lba0 += done;
	h->ra.t0 = last;
	h->ra.cont = true;
	h->ra.seg->end = h->ra.lba0;
	hdd_seg_trim(h, h->ra.seg);
}

/* Read-ahead's goal after [@a, @b): the profiles' rule or DiskSim's (hdd_geom.c) */
static uint64_t hdd_ra_goal(const struct hdd *h, const struct hdd_seg *s, uint64_t a, uint64_t b)
{
	if (!h->geom)
		return hdd_min(h->dev.nr_sectors, s->hwm + h->ra_max);
	return ios_hdd_geom_ra_goal(h->geom, h->seg_cap, s->start, a, b);
}

/* Where read-ahead must stop on the way to @goal (ios_hdd_geom_ra_cap). */
static uint64_t hdd_ra_cap(const struct hdd *h, uint64_t goal)
{
	if (!h->geom || !h->ra.lba0)
		return goal;
	return hdd_min(goal, ios_hdd_geom_ra_cap(h->geom, h->ra.lba0 - 1, goal));
}

static void hdd_ra_raise_target(struct hdd *h, uint64_t goal)
{
	uint64_t t = hdd_ra_cap(h, goal);

	if (t > h->ra.target)
		h->ra.target = t;
}

/* Start (or resume) streaming at @t; the head is where read-ahead left it. */
static void hdd_ra_start(struct hdd *h, uint64_t t)
{
	struct hdd_loc l;

	hdd_locate(h, h->ra.lba0, &l);
	h->ra.cont = l.tstart && h->ra.lba0 > 0;
	h->ra.t0 = t;
	h->mech = HDD_RA;
	h->mech_start = t;
	hdd_ra_retime(h);
}

/* Stop streaming at @t (naturally at its target, or because the mechanism is wanted). */
static void hdd_ra_stop(struct hdd *h, uint64_t t)
{
	if (t >= h->ra.end_t) {
		h->ra.lba0 = h->ra.target;
		h->ra.t0 = h->ra.end_t;
		h->ra.cont = true;
		h->ra.seg->end = h->ra.target;
		hdd_seg_trim(h, h->ra.seg);
	} else {
		hdd_ra_checkpoint(h, t);
	}
	h->ra.must = 0;
	if (h->ra.lba0 > 0)
		hdd_set_head(h, h->ra.lba0 - 1);
	h->head_lba = h->ra.lba0;
	h->head_t = t;
	h->cnt.busy_ns += t - h->mech_start;
	h->mech = HDD_IDLE;
}

/*
 * When read-ahead wanted off the mechanism at @t lets go: with Stop prefetch
 * in sector = 0 once the sector under the head is read (DiskSim's
 * disk_buffer_stopable_access, src/disksim_diskctlr.c), otherwise at @t.
 */
static uint64_t hdd_ra_stop_at(const struct hdd *h, uint64_t t)
{
	uint64_t done, last, end, one;
	struct hdd_loc l;

	if (!h->geom || h->geom->stop_in_sector || t >= h->ra.end_t || h->ra.target <= h->ra.lba0)
		return t;
	last = hdd_walk(h, h->ra.lba0, h->ra.target - h->ra.lba0, h->ra.t0, h->ra.cont, t, &done);
	if (h->ra.lba0 + done >= h->ra.target)
		return t;
	end = hdd_walk(h, h->ra.lba0 + done, 1, done ? last : h->ra.t0, done ? true : h->ra.cont,
		       HDD_TIME_MAX, &one);
	hdd_locate(h, h->ra.lba0 + done, &l);
	/* between sectors (waiting or switching heads) it stops at once */
	return end - hdd_xfer_ns(h, 1, l.spt) < t ? end : t;
}

static bool hdd_ra_resumable(const struct hdd *h)
{
	return h->mech == HDD_IDLE && h->ra.valid && h->ra.target > h->ra.lba0;
}

/* ---- read segments ---- */

static struct hdd_seg *hdd_seg_victim(struct hdd *h)
{
	struct hdd_seg *best = NULL;

	for (uint32_t i = 0; i < h->nr_segs; i++) {
		struct hdd_seg *s = &h->seg[i];

		if (!s->valid)
			return s;
		if (h->ra.valid && s == h->ra.seg && h->nr_segs > 1)
			continue;
		if (!best || s->lru < best->lru)
			best = s;
	}
	return best;
}

/* A media read of [a, b) (the request [rq_a, b)) finished at @t: keep it, read on. */
static void hdd_seg_fill(struct hdd *h, uint64_t a, uint64_t rq_a, uint64_t b, uint64_t t)
{
	struct hdd_seg *s = NULL;

	for (uint32_t i = 0; i < h->nr_segs; i++) {
		struct hdd_seg *c = &h->seg[i];

		if (c->valid && c->start <= a && a <= c->end && c->end <= b) {
			s = c;
			break;
		}
	}
	if (!s) {
		s = hdd_seg_victim(h);
		s->valid = true;
		s->start = a;
		s->hwm = b;
	}
	s->end = b;
	s->hwm = hdd_max(s->hwm, b);
	s->lru = ++h->lru_clock;
	hdd_seg_trim(h, s);
	if (!h->read_ahead || b >= h->dev.nr_sectors)
		return;
	h->ra.valid = true;
	h->ra.seg = s;
	h->ra.lba0 = b;
	h->ra.t0 = t;
	h->ra.cont = true;
	h->ra.must = 0;
	h->ra.target = b;
	hdd_ra_raise_target(h, hdd_ra_goal(h, s, rq_a, b));
	/*
	 * Minimum read-ahead: DiskSim's disk_buffer_stopable_access keeps the
	 * mechanism on the read-ahead until that many sectors past the
	 * request are in, whatever arrives.
	 */
	if (h->geom && h->geom->min_ra)
		h->ra.must = hdd_min(h->ra.target, b + h->geom->min_ra);
}

/* ---- write cache ---- */

static int hdd_wc_add(struct hdd *h, uint64_t lba, uint64_t n)
{
	struct hdd_extent *x;

	if (!ios_list_empty(&h->dirty)) {
		x = ios_list_last_entry(&h->dirty, struct hdd_extent, node);
		if (x->epoch == h->epoch && x->lba + x->n == lba) {
			x->n += n;
			h->dirty_sectors += n;
			return 0;
		}
	}
	if (!ios_list_empty(&h->ext_free)) {
		x = ios_list_first_entry(&h->ext_free, struct hdd_extent, node);
		ios_list_del(&x->node);
	} else {
		x = malloc(sizeof(*x));
		if (!x)
			return -ENOMEM;
	}
	x->lba = lba;
	x->n = n;
	x->epoch = h->epoch;
	ios_list_add_tail(&x->node, &h->dirty);
	h->dirty_sectors += n;
	return 0;
}

/* The newest flush epoch still waiting, or none. */
static bool hdd_flush_epoch(const struct hdd *h, uint64_t *e)
{
	if (ios_list_empty(&h->flush_wait))
		return false;
	*e = ios_list_last_entry(&h->flush_wait, struct ios_request, dev_node)->dev_ns;
	return true;
}

/* Must the mechanism destage before anything else? */
static bool hdd_forced(const struct hdd *h)
{
	return !ios_list_empty(&h->dirty) &&
	       (!ios_list_empty(&h->space_wait) || !ios_list_empty(&h->flush_wait));
}

static bool hdd_flush_done(const struct hdd *h, uint64_t epoch)
{
	const struct hdd_extent *x;

	if (ios_list_empty(&h->dirty))
		return true;
	x = ios_list_first_entry(&h->dirty, struct hdd_extent, node);
	return x->epoch > epoch;
}

static void hdd_absorb(struct hdd *h, struct ios_request *rq, uint64_t ready, uint64_t t)
{
	uint64_t bs = hdd_max(hdd_max(ready, t), h->bus_free);

	/*
	 * Drive manuals: read-ahead goes on "until the segment is full or a
	 * new command is received". A write is a new command even when the
	 * cache takes it, so the read-ahead stops (a later read of the stream
	 * then waits for the platter to come round again).
	 */
	if (hdd_ra_streaming(h))
		hdd_ra_stop(h, t);

	h->bus_free = bs + hdd_bus_ns(h, rq->nr_sectors, IOS_WRITE);
	h->cnt.cache_write_absorbed++;
	hdd_done_add(h, rq, h->bus_free);
}

static int hdd_route_write(struct hdd *h, struct ios_request *rq, uint64_t ready, uint64_t t)
{
	bool fua = rq->flags & IOS_REQ_FUA;

	rq->dev_ns = ready;
	if (h->write_cache && !fua && rq->nr_sectors <= h->wc_cap) {
		if (ios_list_empty(&h->space_wait) && h->dirty_sectors + rq->nr_sectors <= h->wc_cap) {
			int ret = hdd_wc_add(h, rq->sector, rq->nr_sectors);

			if (ret)
				return ret;
			hdd_absorb(h, rq, ready, t);
		} else {
			ios_list_add_tail(&rq->dev_node, &h->space_wait);
			h->wc_catch_up = true;
		}
		return 0;
	}
	ios_list_add_tail(&rq->dev_node, &h->queue);
	return 0;
}

/* After a destage at @t: finish flushes and admit writes that now fit. */
static void hdd_service_waiters(struct hdd *h, uint64_t t)
{
	while (!ios_list_empty(&h->flush_wait)) {
		struct ios_request *rq = ios_list_first_entry(&h->flush_wait, struct ios_request,
							      dev_node);

		if (!hdd_flush_done(h, rq->dev_ns))
			break;
		ios_list_del(&rq->dev_node);
		if (!rq->nr_sectors)
			hdd_done_add(h, rq, t);
		else if (hdd_route_write(h, rq, t, t))
			IOS_BUG_ON(1); /* merging into the cache cannot fail once it has room */
	}
	while (!ios_list_empty(&h->space_wait)) {
		struct ios_request *rq = ios_list_first_entry(&h->space_wait, struct ios_request,
							      dev_node);

		if (h->dirty_sectors + rq->nr_sectors > h->wc_cap)
			break;
		if (hdd_wc_add(h, rq->sector, rq->nr_sectors))
			break; /* out of memory: retry after the next destage */
		ios_list_del(&rq->dev_node);
		hdd_absorb(h, rq, rq->dev_ns, t);
	}
}

/* ---- the mechanism ---- */

static uint64_t hdd_min_ready(const struct hdd *h)
{
	const struct ios_list_head *pos;
	uint64_t m = HDD_TIME_MAX;

	ios_list_for_each(pos, &h->queue)
		m = hdd_min(m, ios_list_entry(pos, const struct ios_request, dev_node)->dev_ns);
	return m;
}

/* ncq_prio: a realtime-class request is a high-priority NCQ command */
static bool hdd_high_prio(const struct hdd *h, const struct ios_request *rq)
{
	return h->ncq_prio && (rq->ioprio >> 13) == IOS_IOPRIO_CLASS_RT;
}

/*
 * The next command to serve among those that have arrived by @t: FCFS or
 * SATF (the oldest first once it has waited ncq_age_limit). With ncq_prio,
 * the high-priority commands waiting are the only candidates.
 */
static struct ios_request *hdd_pick_cmd(const struct hdd *h, uint64_t t)
{
	struct ios_list_head *pos;
	struct ios_request *oldest = NULL, *best = NULL;
	uint64_t best_cost = HDD_TIME_MAX;
	bool high = false;

	ios_list_for_each(pos, &h->queue) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, dev_node);

		if (rq->dev_ns <= t && hdd_high_prio(h, rq)) {
			high = true;
			break;
		}
	}
	ios_list_for_each(pos, &h->queue) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, dev_node);

		if (rq->dev_ns > t || (high && !hdd_high_prio(h, rq)))
			continue;
		if (!oldest)
			oldest = rq;
		if (h->ncq_policy == HDD_NCQ_FCFS)
			break;
	}
	if (!oldest || h->ncq_policy == HDD_NCQ_FCFS)
		return oldest;
	/* dev_ns is arrival + overhead, so this is the command's age */
	if (h->ncq_age_ns && t + h->cmd_overhead_ns - oldest->dev_ns >= h->ncq_age_ns)
		return oldest;
	ios_list_for_each(pos, &h->queue) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, dev_node);
		uint64_t c;

		if (rq->dev_ns > t || (high && !hdd_high_prio(h, rq)))
			continue;
		c = hdd_access_est(h, h->cur_cyl, h->cur_head, rq->sector, rq->dir == IOS_WRITE, t);
		if (c < best_cost) {
			best_cost = c;
			best = rq;
		}
	}
	return best;
}

static void hdd_count_seek(struct hdd *h, uint64_t lba)
{
	struct hdd_loc l;

	hdd_locate(h, lba, &l);
	if (l.cyl != h->cur_cyl)
		h->cnt.seeks++;
}

static void hdd_start_cmd(struct hdd *h, struct ios_request *rq, uint64_t t)
{
	bool write = rq->dir == IOS_WRITE;
	struct hdd_loc l;
	uint64_t pos, end, done;

	ios_list_del(&rq->dev_node);
	h->ra.valid = false;
	/* the host reads again: what is left dirty waits for an idle drive */
	if (!write)
		h->wc_catch_up = false;
	hdd_locate(h, rq->sector, &l);
	pos = hdd_position_ns(h, h->cur_cyl, h->cur_head, &l, write);
	/*
	 * "Read any free blocks": a read that starts further along the track
	 * the head has just finished on waits for the sectors in between to
	 * pass under the head, and the drive keeps them (DiskSim's option of
	 * that name; drives of both eras did). So a short hop forward, such as
	 * a request that skips an indirect block, leaves no hole in the segment.
	 */
	h->mech_fill = rq->sector;
	if (!write && h->nr_segs && h->head_t == t && h->head_lba <= rq->sector && !pos) {
		struct hdd_loc hl;

		hdd_locate(h, h->head_lba, &hl);
		if (hl.cyl == l.cyl && hl.head == l.head)
			h->mech_fill = h->head_lba;
	}
	hdd_count_seek(h, rq->sector);
	end = hdd_walk(h, rq->sector, rq->nr_sectors, t + pos, false, HDD_TIME_MAX, &done);
	IOS_BUG_ON(done != rq->nr_sectors);
	h->mech = HDD_CMD;
	h->mech_rq = rq;
	h->mech_start = t;
	h->mech_end = end;
	if (h->geom && !write) {
		/*
		 * DiskSim (disk_read_arrive, disk_request_needs_bus): a read
		 * miss disconnects and reconnects once its watermark of
		 * blocks is in the buffer; the bus then moves the request at
		 * its block transfer time, never ahead of the media, so the
		 * last block crosses the bus after it is read.
		 */
		const struct ios_hdd_geom *g = h->geom;
		uint64_t n = rq->nr_sectors, w, tw;

		if (g->reqwater)
			w = hdd_min(g->seg_blks, n) * g->read_water_m / 1000000;
		else
			w = (g->seg_blks * g->read_water_m + 999999) / 1000000;
		w = hdd_max(1, hdd_min(w, n));
		tw = w == n ? end : hdd_walk(h, rq->sector, w, t + pos, false, HDD_TIME_MAX, &done);
		rq->dev_ns = hdd_max(tw + hdd_bus_ns(h, n, IOS_READ), end + hdd_bus_ns(h, 1, IOS_READ));
	} else {
		/* a slow bus can outlast the media; otherwise the two overlap */
		rq->dev_ns = hdd_max(end, t + hdd_bus_ns(h, rq->nr_sectors, rq->dir));
	}
	hdd_set_head(h, rq->sector + rq->nr_sectors - 1);
	h->cnt.media_ops++;
}

static void hdd_start_destage(struct hdd *h, uint64_t t)
{
	struct ios_list_head *pos;
	struct hdd_extent *best = NULL;
	uint64_t best_cost = HDD_TIME_MAX, limit = HDD_TIME_MAX, end, done;
	unsigned scanned = 0;
	struct hdd_loc l;

	hdd_flush_epoch(h, &limit);
	ios_list_for_each(pos, &h->dirty) {
		struct hdd_extent *x = ios_list_entry(pos, struct hdd_extent, node);
		uint64_t c;

		if (x->epoch > limit || scanned++ >= HDD_DESTAGE_SCAN)
			break;
		c = hdd_access_est(h, h->cur_cyl, h->cur_head, x->lba, true, t);
		if (c < best_cost) {
			best_cost = c;
			best = x;
		}
	}
	IOS_BUG_ON(!best);
	h->ra.valid = false;
	h->mech_n = hdd_min(best->n, HDD_DESTAGE_MAX);
	hdd_locate(h, best->lba, &l);
	hdd_count_seek(h, best->lba);
	end = hdd_walk(h, best->lba, h->mech_n, t + hdd_position_ns(h, h->cur_cyl, h->cur_head, &l, true),
		       false, HDD_TIME_MAX, &done);
	h->mech = HDD_DESTAGE;
	h->mech_ext = best;
	h->mech_start = t;
	h->mech_end = end;
	hdd_set_head(h, best->lba + h->mech_n - 1);
	h->cnt.media_ops++;
}

static void hdd_finish_op(struct hdd *h, uint64_t t)
{
	h->cnt.busy_ns += t - h->mech_start;
	if (h->mech == HDD_CMD) {
		struct ios_request *rq = h->mech_rq;

		h->mech_rq = NULL;
		h->mech = HDD_IDLE;
		if (rq->dir == IOS_READ && h->nr_segs)
			hdd_seg_fill(h, h->mech_fill, rq->sector, ios_rq_end(rq), t);
		h->head_lba = ios_rq_end(rq);
		h->head_t = t;
		h->last_host_t = hdd_max(h->last_host_t, rq->dev_ns);
		hdd_done_add(h, rq, rq->dev_ns);
	} else {
		struct hdd_extent *x = h->mech_ext;

		h->mech_ext = NULL;
		h->mech = HDD_IDLE;
		x->lba += h->mech_n;
		x->n -= h->mech_n;
		h->dirty_sectors -= h->mech_n;
		if (!x->n)
			ios_list_move_tail(&x->node, &h->ext_free);
		if (h->dirty_sectors <= h->wc_cap / 2)
			h->wc_catch_up = false;
		hdd_service_waiters(h, t);
	}
}

/*
 * Background destaging may start at @t: the host has left the drive alone
 * for destage_delay, or the cache filled up since it was last half empty.
 * The second is the usual high/low-water policy of write-back caches: a
 * drive that destaged only the room each waiting write needs would stop
 * between writes, while the host sends the next one, and lose most of a
 * revolution before every chunk; sequential writes would go at half the
 * media rate. Catching up to half a cache keeps the head streaming, until
 * the host reads again: reads then come first, and the rest waits for the
 * drive to be idle, as before the cache filled.
 */
static bool hdd_destage_due(const struct hdd *h, uint64_t t)
{
	return !ios_list_empty(&h->dirty) &&
	       (h->wc_catch_up || t >= h->last_host_t + h->destage_delay_ns);
}

/* The mechanism is idle at @t: give it its next job, if any is due. */
static void hdd_pick(struct hdd *h, uint64_t t)
{
	struct ios_request *rq;

	if (hdd_forced(h)) {
		hdd_start_destage(h, t);
		return;
	}
	rq = hdd_pick_cmd(h, t);
	if (rq) {
		hdd_start_cmd(h, rq, t);
		return;
	}
	/*
	 * Idle: once the host has left the drive alone for destage_delay,
	 * cached writes go to the media before any more speculative
	 * read-ahead; before that the drive reads ahead. A drive that
	 * destaged in every gap between two commands would let a write
	 * stream ruin every read stream; one that never destaged while reads
	 * kept coming would let writes hide behind the cache until it fills.
	 * While a command is in its overhead the head is kept for it, though
	 * read-ahead may go on under it.
	 */
	if (ios_list_empty(&h->queue) && hdd_destage_due(h, t)) {
		hdd_start_destage(h, t);
		return;
	}
	if (hdd_ra_resumable(h))
		hdd_ra_start(h, t);
}

/* When the mechanism next changes state on its own (must mirror hdd_pick). */
static uint64_t hdd_next_internal(const struct hdd *h)
{
	bool queued = !ios_list_empty(&h->queue);

	switch (h->mech) {
	case HDD_CMD:
	case HDD_DESTAGE:
		return h->mech_end;
	case HDD_RA: {
		uint64_t want = HDD_TIME_MAX;

		if (hdd_forced(h))
			want = h->now;
		else if (queued)
			want = hdd_min_ready(h);
		else if (!ios_list_empty(&h->dirty))
			want = h->wc_catch_up ? h->now
					      : hdd_max(h->now, h->last_host_t + h->destage_delay_ns);
		if (want != HDD_TIME_MAX)
			return hdd_min(h->ra.end_t, hdd_ra_stop_at(h, hdd_max(want, h->ra.must_t)));
		return h->ra.end_t;
	}
	case HDD_IDLE:
		if (hdd_forced(h))
			return h->now;
		if (queued) {
			uint64_t mr = hdd_min_ready(h);

			if (mr <= h->now || hdd_ra_resumable(h))
				return h->now;
			return mr;
		}
		if (hdd_ra_resumable(h) || hdd_destage_due(h, h->now))
			return h->now;
		if (!ios_list_empty(&h->dirty))
			return h->last_host_t + h->destage_delay_ns;
		return IOS_NO_WAKEUP;
	}
	return IOS_NO_WAKEUP;
}

static void hdd_step(struct hdd *h, uint64_t t)
{
	if (h->mech == HDD_CMD || h->mech == HDD_DESTAGE) {
		if (h->mech_end <= t)
			hdd_finish_op(h, t);
	} else if (h->mech == HDD_RA) {
		hdd_ra_stop(h, t);
	}
	if (h->mech == HDD_IDLE)
		hdd_pick(h, t);
}

static void hdd_advance(struct hdd *h, uint64_t to)
{
	uint64_t last = HDD_TIME_MAX;
	unsigned same = 0;

	for (;;) {
		uint64_t te = hdd_next_internal(h);

		if (te == IOS_NO_WAKEUP || te > to)
			break;
		if (te < h->now)
			te = h->now;
		/* every step must make progress; a stuck state machine is a bug */
		same = te == last ? same + 1 : 0;
		IOS_BUG_ON(same > 100000);
		last = te;
		h->now = te;
		hdd_step(h, te);
	}
	if (to > h->now)
		h->now = to;
}

/* ---- routing reads ---- */

static void hdd_hit(struct hdd *h, struct ios_request *rq, struct hdd_seg *s, uint64_t now,
		    uint64_t ready)
{
	uint64_t bs = hdd_max(now + hdd_hit_ovh(h), h->bus_free);

	/*
	 * The bus streams what is cached while read-ahead brings the rest, so
	 * it finishes after its own transfer time and no sooner than one last
	 * 4 KiB after the data is in.
	 */
	h->bus_free = hdd_max(bs + hdd_bus_ns(h, rq->nr_sectors, IOS_READ),
			      ready + hdd_bus_ns(h, hdd_min(rq->nr_sectors, 8), IOS_READ));
	s->lru = ++h->lru_clock;
	s->hwm = hdd_max(s->hwm, ios_rq_end(rq));
	/*
	 * A hit raises the read-ahead's goal. DiskSim's disk_check_hda_pending
	 * (src/disksim_diskctlr.c) starts a read-ahead that has stopped again
	 * on a full hit only with Read-ahead on idle hit; one still running
	 * goes on to the new goal either way.
	 */
	if (h->ra.valid && h->ra.seg == s &&
	    (hdd_ra_streaming(h) || !h->geom || h->geom->ra_idle_hit)) {
		uint64_t old = h->ra.target;

		hdd_ra_raise_target(h, hdd_ra_goal(h, s, rq->sector, ios_rq_end(rq)));
		if (hdd_ra_streaming(h) && h->ra.target != old)
			hdd_ra_retime(h);
	}
	h->cnt.cache_read_hits++;
	hdd_done_add(h, rq, h->bus_free);
}

/*
 * Will the read-ahead deliver [a, b) before a fresh access could? Returns
 * the time the data is in, or HDD_TIME_MAX.
 */
static uint64_t hdd_ra_future(struct hdd *h, uint64_t a, uint64_t b, uint64_t now)
{
	struct hdd_seg *s = h->ra.seg;
	struct hdd_ra save = h->ra;
	struct hdd_loc from, la;
	uint64_t ready, fresh, pos, done;

	if (!h->ra.valid || (h->mech != HDD_RA && h->mech != HDD_IDLE))
		return HDD_TIME_MAX;
	/*
	 * The data from @a on must still be in the segment or still to come, and
	 * not so far ahead that the segment could not reach it. A read longer
	 * than the segment is fine: the host drains it while the drive streams.
	 */
	if (a < s->start || a > h->ra.lba0 + h->seg_cap || b > h->dev.nr_sectors ||
	    b <= h->ra.lba0)
		return HDD_TIME_MAX;
	/* a DiskSim drive's read-ahead never goes past its goal (hdd_ra_goal, hdd_ra_cap) */
	if (h->geom && b > hdd_ra_cap(h, hdd_max(h->ra.target, hdd_ra_goal(h, s, a, b))))
		return HDD_TIME_MAX;
	if (h->mech == HDD_IDLE) {
		/* paused: it would pick up again right now */
		hdd_locate(h, h->ra.lba0, &la);
		h->ra.cont = la.tstart && h->ra.lba0 > 0;
		h->ra.t0 = now;
	}
	ready = hdd_ra_time_to(h, b);
	h->ra = save;
	/* a fresh access from where the head is now */
	hdd_locate(h, h->ra.lba0 ? h->ra.lba0 - 1 : 0, &from);
	hdd_locate(h, a, &la);
	pos = hdd_position_ns(h, from.cyl, from.head, &la, false);
	fresh = hdd_walk(h, a, b - a, now + h->cmd_overhead_ns + pos, false, HDD_TIME_MAX, &done);
	return ready <= fresh ? ready : HDD_TIME_MAX;
}

static void hdd_route_read(struct hdd *h, struct ios_request *rq, uint64_t now)
{
	uint64_t a = rq->sector, b = ios_rq_end(rq), ready;

	if (h->nr_segs) {
		if (hdd_ra_streaming(h))
			hdd_ra_checkpoint(h, now);
		for (uint32_t i = 0; i < h->nr_segs; i++) {
			struct hdd_seg *s = &h->seg[i];

			if (s->valid && s->start <= a && b <= s->end) {
				hdd_hit(h, rq, s, now, now);
				return;
			}
		}
		ready = hdd_ra_future(h, a, b, now);
		if (ready != HDD_TIME_MAX) {
			h->ra.must = hdd_max(h->ra.must, b);
			if (h->mech == HDD_IDLE)
				hdd_ra_start(h, now);
			hdd_hit(h, rq, h->ra.seg, now, ready);
			hdd_ra_retime(h);
			return;
		}
	}
	rq->dev_ns = now + hdd_miss_ovh(h);
	ios_list_add_tail(&rq->dev_node, &h->queue);
}

/* ---- ops ---- */

static void hdd_reset(struct ios_dev *dev)
{
	struct hdd *h = hdd_of(dev);

	if (h->dirty.next)
		while (!ios_list_empty(&h->dirty))
			ios_list_move_tail(h->dirty.next, &h->ext_free);
	ios_list_init(&h->queue);
	ios_list_init(&h->space_wait);
	ios_list_init(&h->flush_wait);
	ios_list_init(&h->done);
	ios_list_init(&h->dirty);
	for (uint32_t i = 0; i < h->nr_segs; i++)
		memset(&h->seg[i], 0, sizeof(h->seg[i]));
	memset(&h->ra, 0, sizeof(h->ra));
	memset(&h->cnt, 0, sizeof(h->cnt));
	h->now = 0;
	h->cur_cyl = h->cur_head = 0;
	h->mech = HDD_IDLE;
	h->mech_rq = NULL;
	h->mech_ext = NULL;
	h->mech_start = h->mech_end = h->mech_n = 0;
	h->dirty_sectors = h->epoch = h->lru_clock = h->bus_free = 0;
	h->head_lba = 0;
	h->head_t = UINT64_MAX;
	h->last_host_t = 0;
	h->last_write = false;	/* DiskSim starts with lastflags = READ (disk_initialize) */
	h->outstanding = 0;
}

static int hdd_check_seek(struct hdd *h, struct ios_err *e)
{
	double mn = (double)h->seek_track_ns, av = (double)h->seek_avg_ns;
	double mx = (double)h->seek_full_ns, n = (double)h->nr_cyl;
	double lo = (2 * mn + mx) / 3, hi = (4 * mn + 11 * mx) / 15;

	if (!(mn <= av && av <= mx))
		return IOS_ERR(e, -EINVAL,
			       "device.seek_track_ms=%.3f, seek_avg_ms=%.3f, seek_full_ms=%.3f: need track <= avg <= full",
			       mn / 1e6, av / 1e6, mx / 1e6);
	if (h->nr_cyl < 2) {
		h->seek_a = h->seek_b = 0;
		h->seek_c = mn;
		return 0;
	}
	/*
	 * Lee's curve t(x) = a*sqrt(x-1) + b*(x-1) + c. It is monotonic (a >= 0
	 * and t'(N) >= 0) only for avg in [(2min+max)/3, (4min+11max)/15].
	 */
	if (av < lo - 1 || av > hi + 1)
		return IOS_ERR(e, -EINVAL,
			       "device.seek_avg_ms=%.3f: with seek_track_ms=%.3f and seek_full_ms=%.3f Lee's seek curve is not monotonic; seek_avg_ms must be in %.3f..%.3f",
			       av / 1e6, mn / 1e6, mx / 1e6, lo / 1e6, hi / 1e6);
	h->seek_a = (-10 * mn + 15 * av - 5 * mx) / (3 * sqrt(n));
	h->seek_b = (7 * mn - 15 * av + 8 * mx) / (3 * n);
	h->seek_c = mn;
	return 0;
}

/* Sectors that pass under the head during @sw_ns, rounded up, modulo a track. */
static uint32_t hdd_skew(const struct hdd *h, uint64_t sw_ns, uint64_t spt)
{
	unsigned __int128 x = (unsigned __int128)sw_ns * (uint64_t)h->rpm * spt;

	return (uint32_t)(((x + HDD_PHASE_REV - 1) / HDD_PHASE_REV) % spt);
}

static int hdd_build_zones(struct hdd *h, struct ios_err *e)
{
	uint64_t rev = hdd_rev_ns(h), sectors = h->capacity / IOS_SECTOR_SIZE;
	uint64_t heads = (uint64_t)h->heads, per_cyl_all = 0, cpz, left;
	double sw = ((double)(h->heads - 1) * (double)h->head_switch_ns + (double)h->cyl_switch_ns) /
		    (double)h->heads;
	double per = ((double)rev + sw) / 1e9 / IOS_SECTOR_SIZE;	/* sectors per (B/s) */
	uint64_t spt_o = (uint64_t)llround((double)h->outer_mbps * 1e6 * per);
	uint64_t spt_i = (uint64_t)llround((double)h->inner_mbps * 1e6 * per);
	uint32_t nz = (uint32_t)h->zones;

	if (h->inner_mbps > h->outer_mbps)
		return IOS_ERR(e, -EINVAL,
			       "device.inner_mbps=%d is above device.outer_mbps=%d: the inner zone cannot be faster than the outer one",
			       h->inner_mbps, h->outer_mbps);
	if (spt_i < HDD_MIN_SPT)
		return IOS_ERR(e, -EINVAL,
			       "device.inner_mbps=%d at rpm=%d gives %llu sectors per track; need at least %d (raise inner_mbps or lower rpm)",
			       h->inner_mbps, h->rpm, (unsigned long long)spt_i, HDD_MIN_SPT);
	if (spt_o > UINT32_MAX / 2)
		return IOS_ERR(e, -EINVAL, "device.outer_mbps=%d at rpm=%d: too many sectors per track",
			       h->outer_mbps, h->rpm);
	h->zone = calloc(nz, sizeof(*h->zone));
	if (!h->zone)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	h->nr_zones = nz;
	for (uint32_t z = 0; z < nz; z++) {
		struct hdd_zone *zn = &h->zone[z];
		uint64_t spt = nz == 1 ? spt_o
				       : spt_o - ((spt_o - spt_i) * z + (nz - 1) / 2) / (nz - 1);
		zn->spt = (uint32_t)spt;
		/* skew = the switch time rounded up to whole sectors */
		zn->head_skew = hdd_skew(h, h->head_switch_ns, spt);
		zn->cyl_skew = hdd_skew(h, h->cyl_switch_ns, spt);
		per_cyl_all += heads * spt;
	}
	cpz = sectors / per_cyl_all;
	if (cpz < 1) {
		double need = (double)per_cyl_all * IOS_SECTOR_SIZE / (1ULL << 30);

		return IOS_ERR(e, -EINVAL,
			       "device.capacity=%.3f GiB is too small for zones=%d with heads=%d at these rates: every zone needs a cylinder, at least %.3f GiB",
			       (double)h->capacity / (1ULL << 30), h->zones, h->heads, need);
	}
	if (cpz > UINT32_MAX / (2 * nz))
		return IOS_ERR(e, -EINVAL,
			       "device.capacity=%.3f GiB: too many cylinders for this geometry (raise heads or the rates)",
			       (double)h->capacity / (1ULL << 30));
	left = sectors;
	for (uint32_t z = 0; z < nz; z++) {
		struct hdd_zone *zn = &h->zone[z];
		uint64_t per_cyl = heads * zn->spt, ncyl = cpz;

		if (z == nz - 1)	/* the remainder goes to the innermost zone */
			ncyl = (left + per_cyl - 1) / per_cyl;
		zn->first_cyl = h->nr_cyl;
		zn->nr_cyl = (uint32_t)ncyl;
		zn->first_lba = sectors - left;
		zn->nr_lba = hdd_min(left, ncyl * per_cyl);
		left -= zn->nr_lba;
		h->nr_cyl += zn->nr_cyl;
	}
	IOS_BUG_ON(left != 0);
	return 0;
}

static int hdd_init(struct ios_dev *dev, struct ios_err *e)
{
	struct hdd *h = hdd_of(dev);
	uint64_t cache_sectors = h->cache_bytes / IOS_SECTOR_SIZE;
	int ret;

	h->zone = NULL;
	h->seg = NULL;
	h->nr_cyl = 0;
	ios_list_init(&h->ext_free);
	h->dirty.next = NULL;
	if (h->capacity % IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "device.capacity=%llu bytes is not a multiple of 512",
			       (unsigned long long)h->capacity);
	/* a DiskSim spec's tables (src/dev/hdd_geom.c), or the geometry derived from rates */
	ret = h->geom ? ios_hdd_geom_zones(h, e) : hdd_build_zones(h, e);
	if (!ret && !h->geom)
		ret = hdd_check_seek(h, e);
	if (ret)
		goto err;
	if (h->write_cache && !cache_sectors) {
		ret = IOS_ERR(e, -EINVAL, "device.write_cache=1 needs device.cache_size > 0");
		goto err;
	}
	h->nr_segs = h->read_cache && cache_sectors ? (uint32_t)h->cache_segments : 0;
	h->seg_cap = cache_sectors / (uint64_t)h->cache_segments;
	if (h->nr_segs && h->seg_cap < 8) {
		ret = IOS_ERR(e, -EINVAL,
			      "device.cache_size=%llu KiB split into cache_segments=%d leaves segments under 4 KiB",
			      (unsigned long long)(h->cache_bytes >> 10), h->cache_segments);
		goto err;
	}
	h->ra_max = h->read_ahead_max_bytes / IOS_SECTOR_SIZE;
	if (h->nr_segs && h->ra_max > h->seg_cap) {
		ret = IOS_ERR(e, -EINVAL,
			      "device.read_ahead_max=%llu KiB exceeds one segment (cache_size / cache_segments = %llu KiB)",
			      (unsigned long long)(h->read_ahead_max_bytes >> 10),
			      (unsigned long long)(h->seg_cap / 2));
		goto err;
	}
	if (!h->ra_max)
		h->ra_max = h->seg_cap;
	h->wc_cap = cache_sectors;
	if (h->nr_segs) {
		h->seg = calloc(h->nr_segs, sizeof(*h->seg));
		if (!h->seg) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto err;
		}
	}
	dev->nr_sectors = h->capacity / IOS_SECTOR_SIZE;
	hdd_reset(dev);
	return 0;
err:
	free(h->zone);
	h->zone = NULL;
	return ret;
}

static void hdd_exit(struct ios_dev *dev)
{
	struct hdd *h = hdd_of(dev);
	struct ios_list_head *pos, *tmp;

	if (h->dirty.next)
		while (!ios_list_empty(&h->dirty))
			ios_list_move_tail(h->dirty.next, &h->ext_free);
	ios_list_for_each_safe(pos, tmp, &h->ext_free)
		free(ios_list_entry(pos, struct hdd_extent, node));
	ios_list_init(&h->ext_free);
	free(h->zone);
	free(h->seg);
	h->zone = NULL;
	h->seg = NULL;
}

static unsigned hdd_caps(const struct ios_dev *dev)
{
	return IOS_DEV_ROTATIONAL | (hdd_of_c(dev)->ncq_prio ? IOS_DEV_PRIO : 0) |
	       (hdd_of_c(dev)->write_cache ? IOS_DEV_WRITE_CACHE : 0);
}

static unsigned hdd_queue_depth(const struct ios_dev *dev)
{
	return (unsigned)hdd_of_c(dev)->queue_depth;
}

static int hdd_submit(struct ios_dev *dev, struct ios_request *rq, uint64_t now)
{
	struct hdd *h = hdd_of(dev);
	bool flush = rq->flags & IOS_REQ_PREFLUSH;
	int ret = 0;

	if (now < h->now)
		return -EINVAL;
	if ((!rq->nr_sectors && !flush) || rq->sector > dev->nr_sectors ||
	    rq->nr_sectors > dev->nr_sectors - rq->sector)
		return -EINVAL;
	if (h->outstanding >= ios_dev_max_commands(dev))
		return -EBUSY;
	hdd_advance(h, now);
	h->last_host_t = now;
	if (flush && !hdd_flush_done(h, h->epoch)) {
		rq->dev_ns = h->epoch++;
		ios_list_add_tail(&rq->dev_node, &h->flush_wait);
	} else if (!rq->nr_sectors) {
		hdd_done_add(h, rq, now + h->hit_overhead_ns);
	} else if (rq->dir == IOS_WRITE) {
		ret = hdd_route_write(h, rq, now + hdd_write_ovh(h), now);
	} else {
		hdd_route_read(h, rq, now);
	}
	if (ret)
		return ret;
	h->outstanding++;
	h->cnt.commands++;
	return 0;
}

static uint64_t hdd_next_event(const struct ios_dev *dev)
{
	const struct hdd *h = hdd_of_c(dev);
	uint64_t t = hdd_next_internal(h);

	if (!ios_list_empty(&h->done)) {
		uint64_t d = ios_list_first_entry(&h->done, struct ios_request, dev_node)->dev_ns;

		t = hdd_min(t, hdd_max(d, h->now));
	}
	return t;
}

static struct ios_request *hdd_complete(struct ios_dev *dev, uint64_t now)
{
	struct hdd *h = hdd_of(dev);
	struct ios_request *rq;

	if (now >= h->now)
		hdd_advance(h, now);
	if (ios_list_empty(&h->done))
		return NULL;
	rq = ios_list_first_entry(&h->done, struct ios_request, dev_node);
	if (rq->dev_ns > h->now)
		return NULL;
	ios_list_del(&rq->dev_node);
	h->outstanding--;
	/* disk_request_complete: lastflags = the completed request's */
	if (rq->nr_sectors)
		h->last_write = rq->dir == IOS_WRITE;
	return rq;
}

/*
 * The sustained rate of the zone holding @sector: a cylinder's sectors over
 * the time to read them, switches (as skew) included.
 */
static uint64_t hdd_zone_rate(const struct hdd *h, uint64_t sector)
{
	const struct hdd_zone *z = &h->zone[hdd_zone_of(h, sector)];
	double rev = (double)HDD_PHASE_REV / h->rpm;
	double skew = (double)((uint64_t)(h->heads - 1) * z->head_skew + z->cyl_skew);
	double t = (double)h->heads * rev + skew * rev / z->spt;

	return (uint64_t)llround((double)h->heads * z->spt * IOS_SECTOR_SIZE * 1e9 / t);
}

static int hdd_ctl(struct ios_dev *dev, int op, void *arg)
{
	struct hdd *h = hdd_of(dev);

	switch (op) {
	case IOS_DEV_CTL_MEDIA_RATE: {
		struct ios_dev_rate_query *q = arg;

		if (q->sector >= dev->nr_sectors)
			return -EINVAL;
		q->bytes_per_sec = hdd_zone_rate(h, q->sector);
		return 0;
	}
	case IOS_DEV_CTL_COUNTERS:
		*(struct ios_dev_counters *)arg = h->cnt;
		return 0;
	}
	return -ENOTSUP;
}

#define HDD_OFF(f) offsetof(struct hdd, f)
/* the rows, shared with the zoned type built on this one (struct offsets agree) */
#define HDD_ROWS \
	{ "capacity", IOS_TUN_SIZE, HDD_OFF(capacity), 1, 65536, "1000204886016B", "GiB", \
	  "usable capacity; must be a multiple of 512 bytes", 0, NULL }, \
	{ "rpm", IOS_TUN_INT, HDD_OFF(rpm), 1000, 30000, "7200", "rpm", \
	  "spindle speed", 0, NULL }, \
	{ "heads", IOS_TUN_INT, HDD_OFF(heads), 1, 64, "4", "", \
	  "recording surfaces (tracks per cylinder)", 0, NULL }, \
	{ "zones", IOS_TUN_INT, HDD_OFF(zones), 1, 1024, "30", "", \
	  "recording zones, equal runs of cylinders, outer to inner", 0, NULL }, \
	{ "outer_mbps", IOS_TUN_INT, HDD_OFF(outer_mbps), 1, 10000, "130", "MB/s", \
	  "sustained media rate in the outermost zone (10^6 bytes/s)", 0, NULL }, \
	{ "inner_mbps", IOS_TUN_INT, HDD_OFF(inner_mbps), 1, 10000, "65", "MB/s", \
	  "sustained media rate in the innermost zone (10^6 bytes/s)", 0, NULL }, \
	{ "seek_track_ms", IOS_TUN_TIME, HDD_OFF(seek_track_ns), 0, 1000, "1.0", "ms", \
	  "track-to-track (1 cylinder) seek", 0, NULL }, \
	{ "seek_avg_ms", IOS_TUN_TIME, HDD_OFF(seek_avg_ns), 0, 1000, "8.5", "ms", \
	  "average seek over uniformly random start and end cylinders", 0, NULL }, \
	{ "seek_full_ms", IOS_TUN_TIME, HDD_OFF(seek_full_ns), 0, 1000, "17.0", "ms", \
	  "full-stroke seek", 0, NULL }, \
	{ "write_settle_ms", IOS_TUN_TIME, HDD_OFF(write_settle_ns), 0, 100, "1.0", "ms", \
	  "extra settle after a seek before writing", 0, NULL }, \
	{ "head_switch_ms", IOS_TUN_TIME, HDD_OFF(head_switch_ns), 0, 100, "1.0", "ms", \
	  "switch to another surface of the same cylinder (sets the track skew)", 0, NULL }, \
	{ "cyl_switch_ms", IOS_TUN_TIME, HDD_OFF(cyl_switch_ns), 0, 100, "1.2", "ms", \
	  "move to the next cylinder during a sequential transfer (sets the cylinder skew)", 0, NULL }, \
	{ "cmd_overhead_ms", IOS_TUN_TIME, HDD_OFF(cmd_overhead_ns), 0, 100, "0.2", "ms", \
	  "controller time per command that goes to the media or the write cache", 0, NULL }, \
	{ "hit_overhead_ms", IOS_TUN_TIME, HDD_OFF(hit_overhead_ns), 0, 100, "0.1", "ms", \
	  "controller time per read-cache hit or flush with nothing to write", 0, NULL }, \
	{ "interface_mbps", IOS_TUN_INT, HDD_OFF(interface_mbps), 1, 100000, "300", "MB/s", \
	  "host bus rate for cache hits and cached writes (10^6 bytes/s)", 0, NULL }, \
	{ "cache_size", IOS_TUN_SIZE, HDD_OFF(cache_bytes), 0, 4096, "32", "MiB", \
	  "drive buffer; read segments share it, dirty data may fill all of it", 0, NULL }, \
	{ "cache_segments", IOS_TUN_INT, HDD_OFF(cache_segments), 1, 1024, "16", "", \
	  "read segments the buffer is split into (LRU)", 0, NULL }, \
	{ "read_cache", IOS_TUN_BOOL, HDD_OFF(read_cache), 0, 1, "1", "", \
	  "keep data read from the media in segments for later hits", 0, NULL }, \
	{ "read_ahead", IOS_TUN_BOOL, HDD_OFF(read_ahead), 0, 1, "1", "", \
	  "after a media read, go on reading into the segment while idle", 0, NULL }, \
	{ "read_ahead_max", IOS_TUN_SIZE, HDD_OFF(read_ahead_max_bytes), 0, 4194304, "0", "KiB", \
	  "read ahead at most this far past the host's furthest read; 0 = a whole segment", 0, NULL }, \
	{ "write_cache", IOS_TUN_BOOL, HDD_OFF(write_cache), 0, 1, "1", "", \
	  "complete non-FUA writes once in the buffer and destage later", 0, NULL }, \
	{ "queue_depth", IOS_TUN_INT, HDD_OFF(queue_depth), 1, 256, "31", "", \
	  "commands accepted at once on the single-queue layer (1 = no queueing; NCQ: 31 " \
	  "under Linux 2.6)", 0, NULL }, \
	IOS_DEV_MQ_ROWS("1", "0"), \
	{ "ncq_policy", IOS_TUN_ENUM, HDD_OFF(ncq_policy), 0, 0, "satf", "", \
	  "order of queued commands: fcfs, or satf (shortest seek + rotation)", 0, hdd_ncq_choices }, \
	{ "ncq_prio", IOS_TUN_BOOL, HDD_OFF(ncq_prio), 0, 1, "0", "", \
	  "serve realtime-class requests (fio cmdprio) first, as NCQ high-priority commands " \
	  "(libata ncq_prio_enable, Linux 4.10+)", 0, NULL }, \
	{ "ncq_age_limit_ms", IOS_TUN_TIME, HDD_OFF(ncq_age_ns), 0, 60000, "500", "ms", \
	  "satf: a command older than this is served first; 0 = no aging", 0, NULL }, \
	{ "destage_delay_ms", IOS_TUN_TIME, HDD_OFF(destage_delay_ns), 0, 60000, "5", "ms", \
	  "cached writes go to the media once the host has left the drive alone this long " \
	  "(or at once when the cache is full or flushed)", 0, NULL }
static const struct ios_tunable hdd_tunables[] = {
	HDD_ROWS,
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

const struct ios_dev_type ios_dev_hdd = {
	.name = "hdd",
	.version = IOS_DEV_INTERFACE_VERSION,
	.desc = "zoned hard disk: Lee seek curve, rotation, skew, segmented read-ahead cache, write cache, NCQ/SATF",
	.ops = {
		.init = hdd_init,
		.exit = hdd_exit,
		.caps = hdd_caps,
		.queue_depth = hdd_queue_depth,
		.submit = hdd_submit,
		.next_event = hdd_next_event,
		.complete = hdd_complete,
		.reset = hdd_reset,
		.ctl = hdd_ctl,
	},
	.tunables = hdd_tunables,
	.priv_size = sizeof(struct hdd),
};

/*
 * smr-hm: a host-managed SMR disk. The mechanics are this file's (a
 * sequential zone write costs what a sequential write costs on the disk);
 * the zone rules are src/dev/zoned.c's, in front of them.
 */
struct hdd_smr {
	struct hdd h;		/* first: the hdd hooks and rows see a struct hdd */
	struct ios_zoned z;
};

static int hdd_smr_init(struct ios_dev *dev, struct ios_err *e)
{
	struct hdd_smr *s = ios_container_of(hdd_of(dev), struct hdd_smr, h);
	int ret = hdd_init(dev, e);

	return ret ? ret : ios_zoned_init(dev, &s->z, IOS_ZONED_SMR_HM, &ios_dev_hdd.ops, e);
}

#define SMR_Z offsetof(struct hdd_smr, z)
static const struct ios_tunable hdd_smr_tunables[] = {
	HDD_ROWS,
	IOS_ZONED_ROWS(SMR_Z, "256", "0", "1", "128", "0", "100", "600"),
	IOS_ZONED_URSWRZ_ROW(SMR_Z, "1"),
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};
#undef SMR_Z
#undef HDD_ROWS
#undef HDD_OFF

const struct ios_dev_type ios_dev_smr_hm = {
	.name = "smr-hm",
	.version = IOS_DEV_INTERFACE_VERSION,
	.desc = "host-managed SMR disk: the hdd model behind ZBC zone rules (write pointers, "
		"conventional zones, open-zone limit)",
	.ops = IOS_ZONED_OPS(hdd_smr_init),
	.tunables = hdd_smr_tunables,
	.priv_size = sizeof(struct hdd_smr),
};
