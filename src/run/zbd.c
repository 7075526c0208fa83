/*
 * zonemode=zbd: fio 3.33's zbd.c, the rules by which a job writes a zoned
 * block device only at its zones' write pointers.
 *
 * Each file a zbd job uses gets fio's copy of the zones (struct run_zbd,
 * shared by every job on that file): on a zoned device (--device smr-hm,
 * zns, named by a /dev/ file) the device's zone report, with its zone size
 * and open-zone limit; on anything else zones of zonesize bytes emulated
 * over the file, all sequential and empty, whose resets touch no device.
 * fio keeps its own write pointers, moved when a write is queued; the
 * device keeps its own and refuses a write that arrives elsewhere, which
 * is how a reordering below fio shows up (as EIO, as on a real disk).
 *
 * Per I/O, after the offset and block size have been picked (io_u.c's
 * fill_io_u calling zbd_adjust_block):
 *   write: the zone of the offset, if it can be opened within
 *          max_open_zones (the job's share, job_max_open_zones); else an
 *          open zone picked from the offset's position in the file, or the
 *          next zone that can be opened. A full zone is reset (so are zones
 *          picked by zone_reset_threshold/zone_reset_frequency), then the
 *          write goes to the write pointer, shortened to the zone capacity.
 *   read:  only below the write pointer (unless read_beyond_wp): an empty
 *          zone sends the read to the next zone holding data (random jobs
 *          also look backwards); with none, the job's I/O ends, as fio's
 *          does (io_u_eof).
 * A zone a job has I/O in flight on is locked to it (fio's zone mutex is
 * held from zbd_adjust_block to completion): another job that wants it
 * first waits for its own I/O (io_u_quiesce), then for the zone. A reset
 * waits for the job's own I/O too. A write that fills a zone closes it at
 * completion, freeing an open slot. Mixed jobs start with a write while no
 * zone holds data (zbd_adjust_ddir). Each reset is counted for the
 * "; N zone resets" of fio's write line.
 *
 * Not modelled, and refused: trims (fio turns them into zone resets),
 * zoneskip, and verify. Zone resets take no device time.
 *
 * Memory: fio allocates every zone of the file up front, which for 4 KiB
 * zones emulated on a 500 GB disk is 122 million zones (11 GB here). The
 * zones are kept in chunks of ZBD_CHUNK instead, allocated when a zone in
 * them is first changed: a zone nobody touched is known without memory
 * (emulated: empty, its write pointer at its start; zbd_peek describes it),
 * so memory follows the zones a run writes, and the scans that look for data
 * or an openable zone step over untouched chunks whole.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "iosched/host.h"
#include "run_int.h"

#define ZBD_MAX_OPEN 4096	/* fio's ZBD_MAX_OPEN_ZONES */
#define ZBD_CHUNK_SHIFT 10	/* 1024 zones (48 KiB) a chunk */
#define ZBD_CHUNK (1u << ZBD_CHUNK_SHIFT)
#define ZBD_MAX_ZONES (UINT32_MAX - ZBD_CHUNK)	/* fio's zone index is a uint32_t */

struct run_zbd_zone {
	uint64_t start, wp, cap;	/* bytes in the file */
	uint32_t idx;			/* its index (start / zone size) */
	uint8_t cond;			/* enum ios_zone_cond, from the report */
	bool has_wp, open, reset_zone;
	struct run_task *owner;		/* the job holding it (fio's zone mutex) */
	unsigned locks;			/* its I/Os in flight there */
};

struct run_zbd {
	bool hm;			/* a host-managed device; else emulated zones */
	uint64_t zone_size, cap;	/* cap: of an emulated zone */
	uint32_t nr_zones, nr_chunks;
	struct run_zbd_zone **chunk;	/* NULL: no zone in that chunk touched yet */
	struct run_zbd_zone end;	/* the sentinel: index nr_zones, no write pointer */
	struct run_zbd_zone peek;	/* zbd_peek's copy of an untouched zone */
	uint32_t max_open, nr_open;
	uint32_t *open;			/* indexes of the open zones, in opening order */
	uint64_t swd, wp_swd;		/* bytes with data (all zones, sequential zones) */
	uint32_t write_cnt;		/* writes to go before the next threshold reset */
};

/* ---- fio's zone arithmetic ---- */

static uint32_t zbd_idx(const struct run_zbd *zb, uint64_t off)
{
	uint64_t i = off / zb->zone_size;

	return i < zb->nr_zones ? (uint32_t)i : zb->nr_zones;
}

static uint64_t zbd_start(const struct run_zbd *zb, uint32_t i)
{
	return (uint64_t)i * zb->zone_size;
}

static uint64_t zbd_end(const struct run_zbd *zb, const struct run_zbd_zone *z)
{
	return zbd_start(zb, z->idx + 1);
}

/* ---- the zones, in chunks allocated on first change ---- */

static bool zbd_touched(const struct run_zbd *zb, uint32_t i)
{
	return i >= zb->nr_zones || zb->chunk[i >> ZBD_CHUNK_SHIFT];
}

static void zbd_untouched(const struct run_zbd *zb, uint32_t i, struct run_zbd_zone *z)
{
	memset(z, 0, sizeof(*z));
	z->idx = i;
	z->start = z->wp = zbd_start(zb, i);
	z->cap = zb->cap;
	z->cond = IOS_ZONE_COND_EMPTY;
	z->has_wp = true;
}

/*
 * Zone @i to look at, not to change: an untouched zone is described in
 * zb->peek, which the next zbd_peek overwrites.
 */
static const struct run_zbd_zone *zbd_peek(struct run_zbd *zb, uint32_t i)
{
	if (i >= zb->nr_zones)
		return &zb->end;
	if (zb->chunk[i >> ZBD_CHUNK_SHIFT])
		return &zb->chunk[i >> ZBD_CHUNK_SHIFT][i & (ZBD_CHUNK - 1)];
	zbd_untouched(zb, i, &zb->peek);
	return &zb->peek;
}

/* Zone @i to change (its chunk allocated now if need be); NULL: out of memory. */
static struct run_zbd_zone *zbd_get(struct run_zbd *zb, uint32_t i)
{
	struct run_zbd_zone **ch;
	uint32_t first;

	if (i >= zb->nr_zones)
		return &zb->end;
	ch = &zb->chunk[i >> ZBD_CHUNK_SHIFT];
	if (!*ch) {
		*ch = malloc(ZBD_CHUNK * sizeof(**ch));
		if (!*ch)
			return NULL;
		first = i & ~(ZBD_CHUNK - 1);
		for (uint32_t k = 0; k < ZBD_CHUNK; k++)
			zbd_untouched(zb, first + k, &(*ch)[k]);
	}
	return &(*ch)[i & (ZBD_CHUNK - 1)];
}

/* Untouched zones from @i up to its chunk's end (0 if touched). */
static uint32_t zbd_skip_fwd(const struct run_zbd *zb, uint32_t i)
{
	return zbd_touched(zb, i) ? 0 : ZBD_CHUNK - (i & (ZBD_CHUNK - 1));
}

/* Untouched zones from @i down to its chunk's start (0 if touched). */
static uint32_t zbd_skip_back(const struct run_zbd *zb, uint32_t i)
{
	return zbd_touched(zb, i) ? 0 : (i & (ZBD_CHUNK - 1)) + 1;
}

/* fio's job ends; here the zone table could not grow (the job fails with ENOMEM). */
static enum run_zbd_act zbd_nomem(struct run_task *t)
{
	if (!t->res->error)
		t->res->error = ENOMEM;
	t->failed = true;
	t->stop = true;
	return RUN_ZBD_EOF;
}

static uint64_t zbd_cap_end(const struct run_zbd_zone *z)
{
	return z->start + z->cap;
}

static bool zbd_full(const struct run_zbd_zone *z, uint64_t need)
{
	return z->has_wp && z->wp + need > zbd_cap_end(z);
}

static bool zbd_valid(const struct run_task_file *tf, uint64_t off)
{
	return off - tf->off < tf->len;
}

static uint64_t zbd_min_bs(const struct ios_job *j, int dir)
{
	return j->bs_min[dir] ? j->bs_min[dir] : j->bs[dir];
}

/* What the I/O must do while a zone it needs is another job's. */
static enum run_zbd_act zbd_busy(const struct run_task *t, const struct run_zbd_zone *z)
{
	if (!z->has_wp || !z->owner || z->owner == t)
		return RUN_ZBD_ACCEPT;
	return t->inflight ? RUN_ZBD_QUIESCE : RUN_ZBD_WAIT;
}

static bool zbd_any_in_flight(const struct run_task *t)
{
	const struct run_ctx *c = t->ctx;

	for (unsigned i = 0; i < c->nr_tasks; i++)
		if (c->tasks[i].inflight)
			return true;
	return false;
}

/* ---- open zones (fio's zbd_open_zone / zbd_close_zone) ---- */

static void zbd_close(struct run_zbd *zb, struct run_task *t, struct run_zbd_zone *z)
{
	uint32_t i = z->idx;

	if (!z->open)
		return;
	for (uint32_t k = 0; k < zb->nr_open; k++) {
		if (zb->open[k] != i)
			continue;
		memmove(zb->open + k, zb->open + k + 1, (zb->nr_open - k - 1) * sizeof(*zb->open));
		zb->nr_open--;
		break;
	}
	if (t->zbd_open)
		t->zbd_open--;
	z->open = false;
}

/* Would zbd_open() succeed? (It changes nothing, so untouched zones may be asked.) */
static bool zbd_open_ok(const struct run_zbd *zb, const struct run_task *t,
			const struct run_zbd_zone *z)
{
	const struct ios_job *j = t->job;

	if (!zb->max_open)
		return true;	/* no limit: fio tracks no open zones */
	if (z->open)
		return z->wp < zbd_cap_end(z);	/* full once the writes in flight land */
	if (j->job_max_open_zones && t->zbd_open >= j->job_max_open_zones)
		return false;
	return zb->nr_open < zb->max_open;
}

static bool zbd_open(struct run_zbd *zb, struct run_task *t, struct run_zbd_zone *z)
{
	if (!zbd_open_ok(zb, t, z))
		return false;
	if (!zb->max_open || z->open)
		return true;
	zb->open[zb->nr_open++] = z->idx;
	t->zbd_open++;
	z->open = true;
	return true;
}

static int zbd_reset(struct run_task *t, struct run_zbd *zb, struct run_zbd_zone *z)
{
	uint64_t data = z->wp - z->start;

	if (!data)
		return 0;
	if (zb->hm) {
		struct ios_host *h = t->ctx->host;
		struct ios_dev_zone_mgmt m = { .op = IOS_ZONE_OP_RESET,
					       .sector = z->start / IOS_SECTOR_SIZE };
		int ret = h->ops->dev_ctl ? h->ops->dev_ctl(h, IOS_DEV_CTL_ZONE_MGMT, &m) : -ENOTSUP;

		if (ret)
			return ret;
	}
	zb->swd -= data;
	zb->wp_swd -= data;
	z->wp = z->start;
	t->res->nr_zone_resets++;
	return 0;
}

/* ---- writes ---- */

/* fio's pick_random_zone_idx: the offset's place in the file picks an open zone. */
static uint32_t zbd_pick_open(const struct run_zbd *zb, const struct run_task_file *tf,
			      uint64_t off)
{
	return (uint32_t)((off - tf->off) * zb->nr_open / tf->len);
}

/*
 * fio's zbd_convert_to_open_zone: the zone the write goes to when the one
 * of its offset cannot be opened. *@out is NULL when none can be found.
 */
static enum run_zbd_act zbd_to_open(struct run_task *t, struct run_task_file *tf,
				    struct run_zbd *zb, uint64_t off, struct run_zbd_zone **out)
{
	const struct ios_job *j = t->job;
	uint64_t min_bs = zbd_min_bs(j, IOS_WRITE);
	uint32_t lo = tf->zbd_min, hi = tf->zbd_max, i, k, n, s;
	uint32_t last = zbd_idx(zb, tf->off + tf->len - 1);	/* the last valid zone */
	bool limited = zb->max_open || j->job_max_open_zones, retried = false;
	const struct run_zbd_zone *z;
	struct run_zbd_zone fresh;
	enum run_zbd_act a;

	*out = NULL;
	i = limited ? (zb->nr_open ? zb->open[zbd_pick_open(zb, tf, off)] : 0) : zbd_idx(zb, off);
	if (i < lo)
		i = lo;
	else if (i >= hi)
		i = hi - 1;
	for (;;) {
		uint32_t pick, cand = UINT32_MAX;

		z = zbd_peek(zb, i);
		if ((a = zbd_busy(t, z)) != RUN_ZBD_ACCEPT)
			return a;
		if (z->has_wp && !limited)
			goto examine;
		if (z->has_wp && !zb->nr_open)
			goto open_other;
		pick = zbd_pick_open(zb, tf, off);
		for (k = 0; k < zb->nr_open; k++, pick++) {
			if (pick >= zb->nr_open)
				pick = 0;
			if (zb->open[pick] >= lo && zb->open[pick] < hi) {
				cand = zb->open[pick];
				break;
			}
		}
		if (cand == UINT32_MAX)
			return RUN_ZBD_ACCEPT;	/* no candidate: *out stays NULL */
		if (cand == i)
			break;
		i = cand;
	}
examine:
	if (z->wp + min_bs <= zbd_cap_end(z))
		goto found;
open_other:
	/* at a limit, fio quiesces so that writes in flight may close zones */
	if ((zb->nr_open == hi - lo || (zb->max_open && zb->nr_open == zb->max_open) ||
	     (j->job_max_open_zones && t->zbd_open == j->job_max_open_zones)) && t->inflight)
		return RUN_ZBD_QUIESCE;
	for (;;) {
		/* untouched zones can all be opened, or none can: then step over them */
		zbd_untouched(zb, 0, &fresh);
		bool fresh_opens = zbd_open_ok(zb, t, &fresh);

		for (n = (uint32_t)(tf->len / zb->zone_size); n > 0; n--) {
			i++;
			if (!zbd_valid(tf, zbd_start(zb, i)))
				i = lo;
			if (!fresh_opens && (s = zbd_skip_fwd(zb, i)) > 1) {
				if (s > n)
					s = n;
				if (last >= i && s > last - i + 1)
					s = last - i + 1;
				i += s - 1;
				n -= s - 1;
				continue;
			}
			z = zbd_peek(zb, i);
			if (!z->has_wp)
				continue;
			if ((a = zbd_busy(t, z)) != RUN_ZBD_ACCEPT)
				return a;
			if (z->open)
				continue;
			if (zbd_open_ok(zb, t, z)) {
				struct run_zbd_zone *w = zbd_get(zb, i);

				if (!w)
					return zbd_nomem(t);
				(void)zbd_open(zb, t, w);
				*out = w;
				return RUN_ZBD_ACCEPT;
			}
		}
		for (k = 0; k < zb->nr_open; k++) {
			const struct run_zbd_zone *oz;

			if (zb->open[k] < lo || zb->open[k] >= hi)
				continue;
			oz = zbd_peek(zb, zb->open[k]);
			if ((a = zbd_busy(t, oz)) != RUN_ZBD_ACCEPT)
				return a;
			if (oz->wp + min_bs <= zbd_cap_end(oz)) {
				i = zb->open[k];
				goto found;
			}
		}
		/* fio retries once, and again while any job has I/O in flight */
		if (zbd_any_in_flight(t))
			return t->inflight ? RUN_ZBD_QUIESCE : RUN_ZBD_WAIT;
		if (retried)
			return RUN_ZBD_ACCEPT;
		retried = true;
	}
found:
	*out = zbd_get(zb, i);
	return *out ? RUN_ZBD_ACCEPT : zbd_nomem(t);
}

static enum run_zbd_act zbd_write(struct run_task *t, struct run_task_file *tf,
				  struct run_zbd *zb, uint64_t *off, uint64_t *len,
				  struct run_zbd_zone **zp)
{
	const struct ios_job *j = t->job;
	uint64_t min_bs = zbd_min_bs(j, IOS_WRITE), nl;
	uint32_t i = zbd_idx(zb, *off);
	const struct run_zbd_zone *pz = zbd_peek(zb, i);
	struct run_zbd_zone *z;
	enum run_zbd_act a;

	if ((a = zbd_busy(t, pz)) != RUN_ZBD_ACCEPT)
		return a;	/* fio locks the offset's zone first */
	if (*len > zb->zone_size) {
		/* fio: "I/O buflen exceeds zone size", err=22 (the set-up refuses such jobs) */
		if (!t->res->error)
			t->res->error = EINVAL;
		t->failed = true;
		t->stop = true;
		return RUN_ZBD_EOF;
	}
	if (zbd_open_ok(zb, t, pz)) {
		z = zbd_get(zb, i);
		if (!z)
			return zbd_nomem(t);
		(void)zbd_open(zb, t, z);
	} else {
		a = zbd_to_open(t, tf, zb, *off, &z);
		if (a != RUN_ZBD_ACCEPT || !z)
			return a != RUN_ZBD_ACCEPT ? a : RUN_ZBD_EOF;
	}
	if (j->zone_reset_frequency > 0.0 &&
	    (double)zb->wp_swd >= (double)tf->len * j->zone_reset_threshold) {
		if (--zb->write_cnt == 0) {
			double n = 1.0 / j->zone_reset_frequency;

			zb->write_cnt = n < (double)UINT32_MAX ? (uint32_t)n : UINT32_MAX;
			z->reset_zone = true;
		}
	}
	if (z->reset_zone || zbd_full(z, min_bs)) {
		/* fio waits for the writes it queued before a synchronous reset */
		if (t->inflight)
			return RUN_ZBD_QUIESCE;
		z->reset_zone = false;
		if (zbd_reset(t, zb, z) || z->cap < min_bs)
			return RUN_ZBD_EOF;
	}
	*off = z->wp;
	if (!zbd_valid(tf, *off))
		return RUN_ZBD_EOF;	/* fio: "invalid WP value" */
	nl = *len < zbd_cap_end(z) - *off ? *len : zbd_cap_end(z) - *off;
	nl = nl / min_bs * min_bs;
	if (nl < min_bs)
		return RUN_ZBD_EOF;	/* fio: "zone remainder too small" */
	*len = nl;
	*zp = z;
	return RUN_ZBD_ACCEPT;
}

/* A write to a conventional zone may not run into a sequential one. */
static void zbd_conv_write(const struct ios_job *j, struct run_zbd *zb, const struct run_zbd_zone *z,
			   uint64_t *off, uint64_t *len)
{
	uint64_t min_bs = zbd_min_bs(j, IOS_WRITE), start = z->start, next = zbd_end(zb, z), nl;

	if (!zbd_peek(zb, z->idx + 1)->has_wp || *off + *len <= next)
		return;
	if (*off + min_bs > next) {
		*off = start + next - *off;
		nl = *len < next - *off ? *len : next - *off;
	} else {
		nl = next - *off;
	}
	*len = nl / min_bs * min_bs;
}

/* ---- reads ---- */

/*
 * fio's zbd_find_zone: the nearest zone after @from (random jobs: either
 * side) with data, the one after first at equal distance. Where both sides
 * are in untouched chunks (no data, no owner) the distance jumps past them.
 */
static enum run_zbd_act zbd_find(struct run_task *t, struct run_task_file *tf,
				 struct run_zbd *zb, uint32_t from, uint64_t need,
				 struct run_zbd_zone **out)
{
	int64_t lo = tf->zbd_min, hi = tf->zbd_max, d = 1;
	bool rnd = ios_rw_is_random(t->job->rw);
	enum run_zbd_act a;

	*out = NULL;
	for (;;) {
		int64_t i1 = (int64_t)from + d, i2 = (int64_t)from - d;
		bool in1 = i1 < hi, in2 = rnd && i2 >= lo;
		uint32_t s1 = UINT32_MAX, s2 = UINT32_MAX;
		const struct run_zbd_zone *z;

		if (!in1 && (!rnd || i2 < lo))
			break;
		if (in1) {
			z = zbd_peek(zb, (uint32_t)i1);
			if ((a = zbd_busy(t, z)) != RUN_ZBD_ACCEPT)
				return a;
			if (z->start + need <= z->wp) {
				*out = zbd_get(zb, (uint32_t)i1);
				return *out ? RUN_ZBD_ACCEPT : zbd_nomem(t);
			}
			s1 = zbd_skip_fwd(zb, (uint32_t)i1);
		}
		if (in2) {
			z = zbd_peek(zb, (uint32_t)i2);
			if ((a = zbd_busy(t, z)) != RUN_ZBD_ACCEPT)
				return a;
			if (z->start + need <= z->wp) {
				*out = zbd_get(zb, (uint32_t)i2);
				return *out ? RUN_ZBD_ACCEPT : zbd_nomem(t);
			}
			s2 = zbd_skip_back(zb, (uint32_t)i2);
		}
		s1 = s1 < s2 ? s1 : s2;
		d += s1 > 1 && s1 != UINT32_MAX ? s1 : 1;
	}
	return RUN_ZBD_ACCEPT;
}

static enum run_zbd_act zbd_read(struct run_task *t, struct run_task_file *tf,
				 struct run_zbd *zb, uint64_t *off, uint64_t *len,
				 struct run_zbd_zone **zp)
{
	const struct ios_job *j = t->job;
	uint64_t min_bs = zbd_min_bs(j, IOS_READ), range, nl;
	uint32_t i = zbd_idx(zb, *off);
	const struct run_zbd_zone *pz = zbd_peek(zb, i);
	uint64_t orig_start = pz->start;
	bool rnd = ios_rw_is_random(j->rw);
	struct run_zbd_zone *z;
	enum run_zbd_act a;

	if ((a = zbd_busy(t, pz)) != RUN_ZBD_ACCEPT)
		return a;
	range = pz->wp - pz->start;
	if (range < min_bs || (!rnd && *off + min_bs > pz->wp)) {
		a = zbd_find(t, tf, zb, i, min_bs, &z);
		if (a != RUN_ZBD_ACCEPT || !z)
			return a != RUN_ZBD_ACCEPT ? a : RUN_ZBD_EOF;
		range = z->wp - z->start;
		if (!rnd)
			*off = z->start;
	} else if (!(z = zbd_get(zb, i))) {
		return zbd_nomem(t);	/* not reached: a zone with data is touched */
	}
	if (range <= *len)
		*off = z->start;
	else if (rnd)
		*off = z->start + ((*off - orig_start) % (range - *len)) / min_bs * min_bs;
	if (!z->has_wp)
		return RUN_ZBD_ACCEPT;
	nl = *len < z->wp - *off ? *len : z->wp - *off;
	nl = nl / min_bs * min_bs;
	if (nl < *len)
		*len = nl;
	*zp = z;
	return RUN_ZBD_ACCEPT;
}

enum run_zbd_act ios_run_zbd_adjust(struct run_task *t, struct run_io *io)
{
	struct run_task_file *tf = io->tf;
	struct run_zbd *zb = tf->f->zbd;
	uint64_t off = io->offset, len = io->len;
	const struct run_zbd_zone *z = zbd_peek(zb, zbd_idx(zb, off));
	struct run_zbd_zone *lock = NULL;
	enum run_zbd_act a;

	io->zbd_zone = NULL;
	if (!z->has_wp) {
		if (io->dir == IOS_WRITE)
			zbd_conv_write(t->job, zb, z, &off, &len);
		a = RUN_ZBD_ACCEPT;
	} else if (io->dir == IOS_READ && t->job->read_beyond_wp) {
		a = RUN_ZBD_ACCEPT;
	} else {
		a = io->dir == IOS_WRITE ? zbd_write(t, tf, zb, &off, &len, &lock)
					 : zbd_read(t, tf, zb, &off, &len, &lock);
	}
	if (a != RUN_ZBD_ACCEPT)
		return a;
	if (!len || off + len > tf->f->size)
		return RUN_ZBD_EOF;
	io->offset = off;
	io->len = len;
	if (lock) {
		/* fio's zbd_queue_io: the write pointer moves as the write is queued */
		if (io->dir == IOS_WRITE) {
			uint64_t end = off + len < zbd_cap_end(lock) ? off + len : zbd_cap_end(lock);

			if (lock->wp <= end) {
				zb->swd += end - lock->wp;
				zb->wp_swd += end - lock->wp;
			}
			lock->wp = end;
		}
		lock->owner = t;
		lock->locks++;
		io->zbd_zone = lock;
	}
	/* the next sequential offset follows the adjusted one (fio's last_pos) */
	tf->pos[io->dir] = off + len >= tf->off + tf->len ? tf->off : off + len;
	return RUN_ZBD_ACCEPT;
}

void ios_run_zbd_put(struct run_task *t, struct run_io *io, uint64_t now)
{
	struct run_zbd_zone *z = io->zbd_zone;
	struct run_ctx *c = t->ctx;

	if (!z)
		return;
	io->zbd_zone = NULL;
	/* fio's zbd_end_zone_io: a write that reached the capacity closes its zone */
	if (io->dir == IOS_WRITE && io->offset + io->len >= zbd_cap_end(z))
		zbd_close(io->tf->f->zbd, t, z);
	if (--z->locks == 0)
		z->owner = NULL;
	for (unsigned i = 0; i < c->nr_tasks; i++)
		if (c->tasks[i].zbd_wait)
			ios_run_task_zbd_wake(&c->tasks[i], now);
}

int ios_run_zbd_dir(struct run_task *t, int dir)
{
	const struct ios_job *j = t->job;
	const struct run_task_file *tf = &t->files[t->cur_file];

	/* fio's zbd_adjust_ddir: a mixed job writes first while no zone holds data */
	if (dir != IOS_READ || !(ios_rw_has_read(j->rw) && ios_rw_has_write(j->rw)))
		return dir;
	return tf->f->zbd->swd || j->read_beyond_wp ? IOS_READ : IOS_WRITE;
}

void ios_run_zbd_seq_jump(struct run_task *t, struct run_task_file *tf, int dir)
{
	struct run_zbd *zb = tf->f->zbd;
	const struct run_zbd_zone *z;

	/* fio's setup_zbd_zone_mode: a sequential writer skips a zone's unwritable tail */
	if (dir != IOS_WRITE || ios_rw_is_random(t->job->rw))
		return;
	z = zbd_peek(zb, zbd_idx(zb, tf->pos[IOS_WRITE]));
	if (z->idx < zb->nr_zones && z->cap < zb->zone_size &&
	    tf->pos[IOS_WRITE] >= zbd_cap_end(z))
		tf->pos[IOS_WRITE] = zbd_end(zb, z) >= tf->off + tf->len ? tf->off
									 : zbd_end(zb, z);
}

void ios_run_zbd_free_file(struct run_file *f)
{
	if (!f->zbd)
		return;
	for (uint32_t i = 0; f->zbd->chunk && i < f->zbd->nr_chunks; i++)
		free(f->zbd->chunk[i]);
	free(f->zbd->chunk);
	free(f->zbd->open);
	free(f->zbd);
	f->zbd = NULL;
}

/* ---- set-up (fio's zbd_init_files and zbd_setup_files) ---- */

static const char *zbd_where(const struct ios_job *j, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
	return buf;
}

/* Options fio takes and uses only with zonemode=zbd: said once, as they do nothing. */
static int zbd_notes(struct run_ctx *c, const struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	char w[300];

	if (t->clone || j->zone_mode == IOS_ZONE_ZBD)
		return 0;
	if (!(j->max_open_zones || j->job_max_open_zones || j->ignore_zone_limits ||
	      j->read_beyond_wp || j->zone_reset_threshold > 0.0 || j->zone_reset_frequency > 0.0 ||
	      j->zone_capacity))
		return 0;
	if (ios_run_warn(c->res, "%s: zonecapacity, max_open_zones, job_max_open_zones, "
			 "ignore_zone_limits, read_beyond_wp and zone_reset_* have no effect "
			 "without zonemode=zbd (as in fio 3.33)", zbd_where(j, w, sizeof(w))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* The chunk directory for @nz zones of @zs bytes, and the sentinel zone after them. */
static int zbd_table(struct run_zbd *zb, uint64_t zs, uint64_t nz, struct ios_err *e)
{
	zb->zone_size = zs;
	zb->nr_zones = (uint32_t)nz;
	zb->nr_chunks = (uint32_t)((nz + ZBD_CHUNK - 1) >> ZBD_CHUNK_SHIFT);
	zb->chunk = calloc(zb->nr_chunks ? zb->nr_chunks : 1, sizeof(*zb->chunk));
	if (!zb->chunk)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	memset(&zb->end, 0, sizeof(zb->end));
	zb->end.idx = zb->nr_zones;
	zb->end.start = zb->end.wp = zbd_start(zb, zb->nr_zones);
	return 0;
}

static int zbd_from_device(struct run_ctx *c, const struct ios_job *j, struct run_file *f,
			   struct run_zbd *zb, struct ios_err *e)
{
	struct ios_host *h = c->host;
	struct ios_dev_zone rep[256];
	uint64_t zs = h->disk.zone_sectors * IOS_SECTOR_SIZE;
	uint32_t n = 0, i;
	char w[300];
	int ret;

	if (j->zone_size && j->zone_size != zs)
		return IOS_ERR(e, -EINVAL, "%s: %s: zonesize=%" PRIu64 " does not match the disk "
			       "zone size %" PRIu64 " (fio 3.33: \"job parameter zonesize ... does not "
			       "match disk zone size\")", zbd_where(j, w, sizeof(w)), f->name,
			       j->zone_size, zs);
	if (j->zone_capacity && ios_run_warn(c->res, "%s: zonecapacity has no effect on the zoned "
					     "device %s: its zones' own capacity counts (as in fio "
					     "3.33)", zbd_where(j, w, sizeof(w)), f->name))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	zb->hm = true;
	ret = zbd_table(zb, zs, (f->size + zs - 1) / zs, e);
	/* the device holds every zone already: so does fio's copy, read from its report */
	for (i = 0; !ret && i < zb->nr_zones; i += ZBD_CHUNK)
		if (!zbd_get(zb, i))
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
	if (ret)
		return ret;
	while (n < zb->nr_zones) {
		struct ios_dev_zone_report r = { .sector = (uint64_t)n * h->disk.zone_sectors,
						 .nr = 256, .zones = rep };

		ret = h->ops->dev_ctl ? h->ops->dev_ctl(h, IOS_DEV_CTL_ZONE_REPORT, &r) : -ENOTSUP;

		if (ret || !r.nr)
			return IOS_ERR(e, ret ? ret : -EIO, "%s: report zones from sector %" PRIu64
				       " failed", f->name, r.sector);
		for (i = 0; i < r.nr && n < zb->nr_zones; i++, n++) {
			struct run_zbd_zone *z = zbd_get(zb, n);

			z->start = rep[i].start * IOS_SECTOR_SIZE;
			z->cap = rep[i].capacity * IOS_SECTOR_SIZE;
			z->cond = rep[i].cond;
			z->has_wp = rep[i].type == IOS_ZONE_TYPE_SEQ_REQ;
			z->wp = rep[i].cond == IOS_ZONE_COND_FULL || !z->has_wp
				? z->start + z->cap : rep[i].wp * IOS_SECTOR_SIZE;
		}
	}
	/* fio's zbd_set_max_open_zones: the device's limit unless told to ignore it */
	zb->max_open = j->max_open_zones;
	if (!j->ignore_zone_limits && h->disk.max_open_zones) {
		if (!j->max_open_zones)
			zb->max_open = h->disk.max_open_zones;
		else if (j->max_open_zones > h->disk.max_open_zones)
			return IOS_ERR(e, -EINVAL, "%s: max_open_zones=%u is larger than the device's "
				       "%u (fio 3.33: \"Specified --max_open_zones (%u) is larger than "
				       "max (%u)\"; ignore_zone_limits=1 allows it)",
				       zbd_where(j, w, sizeof(w)), j->max_open_zones,
				       h->disk.max_open_zones, j->max_open_zones,
				       h->disk.max_open_zones);
	}
	return 0;
}

/* fio's init_zone_info: zones emulated on a file or a conventional device. */
static int zbd_emulate(const struct ios_job *j, struct run_file *f, struct run_zbd *zb,
		       struct ios_err *e)
{
	uint64_t zs = j->zone_size, cap = j->zone_capacity ? j->zone_capacity : j->zone_size, nz;
	char w[300];
	int ret;

	if (!zs)
		return IOS_ERR(e, -EINVAL, "%s: %s: zonemode=zbd on a file or a conventional device "
			       "needs zonesize= (fio 3.33: \"Specifying the zone size is mandatory "
			       "for regular file/block device with --zonemode=zbd\"; a zoned device "
			       "is --device smr-hm or zns with a /dev/ filename)",
			       zbd_where(j, w, sizeof(w)), f->name);
	if (zs < IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "%s: zonesize=%" PRIu64 ": allowed 512 bytes or more for "
			       "zonemode=zbd", zbd_where(j, w, sizeof(w)), zs);
	if (cap > zs)
		return IOS_ERR(e, -EINVAL, "%s: zonecapacity=%" PRIu64 " is larger than zonesize=%"
			       PRIu64, zbd_where(j, w, sizeof(w)), cap, zs);
	if (f->size < zs)
		return IOS_ERR(e, -EINVAL, "%s: %s: its size %" PRIu64 " is smaller than zonesize=%"
			       PRIu64, zbd_where(j, w, sizeof(w)), f->name, f->size, zs);
	nz = (f->size + zs - 1) / zs;
	if (nz > ZBD_MAX_ZONES)
		return IOS_ERR(e, -EINVAL, "%s: zonesize=%" PRIu64 " cuts %s (%" PRIu64 " bytes) into "
			       "%" PRIu64 " zones: allowed %" PRIu64 " at most (fio numbers zones in "
			       "32 bits), so zonesize=%" PRIu64 " or more",
			       zbd_where(j, w, sizeof(w)), zs, f->name, f->size, nz,
			       (uint64_t)ZBD_MAX_ZONES, (f->size + ZBD_MAX_ZONES - 1) / ZBD_MAX_ZONES);
	zb->cap = cap;
	/* no zone is allocated: each is empty until written (zbd_peek) */
	ret = zbd_table(zb, zs, nz, e);
	if (ret)
		return ret;
	zb->max_open = j->max_open_zones;
	return 0;
}

static int zbd_create(struct run_ctx *c, const struct ios_job *j, struct run_file *f,
		      struct ios_err *e)
{
	struct run_zbd *zb = calloc(1, sizeof(*zb));
	char w[300];
	int ret;

	if (!zb)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	f->zbd = zb;
	ret = c->host->disk.zoned && f->is_dev ? zbd_from_device(c, j, f, zb, e)
					       : zbd_emulate(j, f, zb, e);
	if (ret)
		return ret;
	if (zb->max_open > ZBD_MAX_OPEN)
		return IOS_ERR(e, -EINVAL, "%s: max_open_zones=%u is larger than fio's limit %u",
			       zbd_where(j, w, sizeof(w)), zb->max_open, ZBD_MAX_OPEN);
	zb->open = calloc(ZBD_MAX_OPEN, sizeof(*zb->open));
	return zb->open ? 0 : IOS_ERR(e, -ENOMEM, "out of memory");
}

/* fio's zbd_zone_align_file_sizes: a writer's region is cut to whole zones. */
static int zbd_align(struct run_ctx *c, struct run_task *t, struct run_task_file *tf,
		     struct ios_err *e)
{
	const struct ios_job *j = t->job;
	struct run_zbd *zb = tf->f->zbd;
	bool seq = false, rd_only = !ios_rw_has_write(j->rw);
	uint64_t zs = j->zone_size ? j->zone_size : zb->zone_size, no, ne;
	const struct run_zbd_zone *z;
	char w[300];

	/* emulated zones are all sequential; a device's are all in memory */
	for (uint32_t i = zbd_idx(zb, tf->off); i <= zbd_idx(zb, tf->off + tf->len - 1) && !seq; i++)
		seq = !zb->hm || (i < zb->nr_zones && zbd_peek(zb, i)->has_wp);
	if (!seq)
		return 0;
	if (zs != zb->zone_size)
		return IOS_ERR(e, -EINVAL, "%s: %s: zonesize=%" PRIu64 " does not match the device "
			       "zone size %" PRIu64, zbd_where(j, w, sizeof(w)), tf->f->name, zs,
			       zb->zone_size);
	z = zbd_peek(zb, zbd_idx(zb, tf->off));
	if (tf->off != z->start && !rd_only) {
		no = zbd_end(zb, z);
		if (no >= tf->off + tf->len)
			return IOS_ERR(e, -EINVAL, "%s: %s: io_size must be at least one zone",
				       zbd_where(j, w, sizeof(w)), tf->f->name);
		if (!t->clone && ios_run_warn(c->res, "%s: rounded up offset from %" PRIu64 " to %"
					      PRIu64, tf->f->name, tf->off, no))
			return IOS_ERR(e, -ENOMEM, "out of memory");
		tf->len -= no - tf->off;
		tf->off = no;
	}
	ne = zbd_start(zb, zbd_idx(zb, tf->off + tf->len));
	if (!rd_only && tf->off + tf->len != ne) {
		if (ne <= tf->off)
			return IOS_ERR(e, -EINVAL, "%s: %s: io_size must be at least one zone",
				       zbd_where(j, w, sizeof(w)), tf->f->name);
		if (!t->clone && ios_run_warn(c->res, "%s: rounded down io_size from %" PRIu64
					      " to %" PRIu64, tf->f->name, tf->len, ne - tf->off))
			return IOS_ERR(e, -ENOMEM, "out of memory");
		tf->len = ne - tf->off;
	}
	tf->pos[0] = tf->pos[1] = tf->off;
	return 0;
}

/* The largest write the job may issue. */
static uint64_t zbd_max_bs(const struct ios_job *j)
{
	uint64_t m = j->bs[IOS_WRITE] > j->bs_max[IOS_WRITE] ? j->bs[IOS_WRITE] : j->bs_max[IOS_WRITE];

	for (unsigned k = 0; k < j->nr_bssplit[IOS_WRITE]; k++)
		if (j->bssplit[IOS_WRITE][k].bs > m)
			m = j->bssplit[IOS_WRITE][k].bs;
	return m;
}

static int zbd_setup_file(struct run_ctx *c, struct run_task *t, struct run_task_file *tf,
			  struct ios_err *e)
{
	const struct ios_job *j = t->job;
	struct run_zbd *zb;
	char w[300];
	int ret;

	if (!tf->f->zbd && (ret = zbd_create(c, j, tf->f, e)))
		return ret;
	zb = tf->f->zbd;
	if (zb->hm && ios_rw_has_write(j->rw) && !j->direct)
		return IOS_ERR(e, -EINVAL, "%s: writing to a zoned device needs direct=1 (fio 3.33: "
			       "\"Using direct I/O is mandatory for writing to ZBD drives\")",
			       zbd_where(j, w, sizeof(w)));
	if (ios_rw_has_write(j->rw) && zbd_max_bs(j) > zb->zone_size)
		return IOS_ERR(e, -EINVAL, "%s: a write of %" PRIu64 " bytes (bs, bsrange or "
			       "bssplit) does not fit in a zone of %" PRIu64 " bytes: allowed a block "
			       "size up to the zone size, or zonesize=%" PRIu64 " or more (fio 3.33 "
			       "fails the job's first such write: err=22, \"I/O buflen exceeds zone "
			       "size\")", zbd_where(j, w, sizeof(w)), zbd_max_bs(j), zb->zone_size,
			       zbd_max_bs(j));
	ret = zbd_align(c, t, tf, e);
	if (ret)
		return ret;
	tf->zbd_min = zbd_idx(zb, tf->off);
	tf->zbd_max = zbd_idx(zb, tf->off + tf->len);
	if (j->max_open_zones && zb->max_open != j->max_open_zones)
		return IOS_ERR(e, -EINVAL, "%s: max_open_zones=%u differs from the %u another job "
			       "set for %s (fio 3.33: \"Different 'max_open_zones' values\")",
			       zbd_where(j, w, sizeof(w)), j->max_open_zones, zb->max_open,
			       tf->f->name);
	if (j->job_max_open_zones && !zb->max_open)
		return IOS_ERR(e, -EINVAL, "%s: job_max_open_zones needs a global open-zone limit "
			       "(max_open_zones=, or the device's)", zbd_where(j, w, sizeof(w)));
	for (uint32_t i = tf->zbd_min; i < tf->zbd_max; i++) {
		struct run_zbd_zone *z;

		if (!zbd_touched(zb, i)) {
			i += zbd_skip_fwd(zb, i) - 1;	/* untouched zones are empty */
			continue;
		}
		z = zbd_get(zb, i);
		if (z->cond != IOS_ZONE_COND_IMP_OPEN && z->cond != IOS_ZONE_COND_EXP_OPEN)
			continue;
		z->cond = IOS_ZONE_COND_CLOSED;	/* counted once */
		if (!zbd_open(zb, t, z) && zbd_reset(t, zb, z))
			return IOS_ERR(e, -EIO, "%s: failed to reset zone %u", tf->f->name, i);
	}
	/* fio's zbd_file_reset: the data count, and the writes to the next threshold reset */
	if (ios_rw_has_write(j->rw)) {
		double n = j->zone_reset_frequency > 0.0 ? 1.0 / j->zone_reset_frequency : 0.0;

		zb->swd = zb->wp_swd = 0;
		for (uint32_t i = tf->zbd_min; i < tf->zbd_max; i++) {
			const struct run_zbd_zone *z;

			if (!zbd_touched(zb, i)) {
				i += zbd_skip_fwd(zb, i) - 1;
				continue;
			}
			z = zbd_peek(zb, i);
			zb->swd += z->wp - z->start;
			if (z->has_wp)
				zb->wp_swd += z->wp - z->start;
		}
		zb->write_cnt = n > 0.0 && n < (double)UINT32_MAX ? (uint32_t)n : UINT32_MAX;
	}
	return 0;
}

int ios_run_zbd_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	char w[300];
	int ret;

	for (unsigned k = 0; k < t->nr_files; k++)
		if (c->host->disk.zoned && !t->files[k].f->is_dev)
			return IOS_ERR(e, -EINVAL, "%s: '%s' is a file on a filesystem, and %s is a "
				       "host-managed zoned device, which no filesystem layout here "
				       "can use (Linux mounts only zone-aware ones: f2fs, btrfs, "
				       "zonefs); name the device instead, e.g. filename=/dev/sda",
				       zbd_where(j, w, sizeof(w)), t->files[k].f->name,
				       c->host->disk.profile);
	ret = zbd_notes(c, t, e);
	if (ret || j->zone_mode != IOS_ZONE_ZBD)
		return ret;
	if (j->rw == IOS_RW_TRIM || j->rw == IOS_RW_RANDTRIM || j->rw == IOS_RW_TRIMWRITE)
		return IOS_ERR(e, -ENOTSUP, "%s: trims with zonemode=zbd (fio resets the zones "
			       "instead) are not modelled by iosched", zbd_where(j, w, sizeof(w)));
	if (j->zone_skip)
		return IOS_ERR(e, -ENOTSUP, "%s: zoneskip with zonemode=zbd is not modelled by "
			       "iosched", zbd_where(j, w, sizeof(w)));
	t->zbd = true;
	for (unsigned k = 0; k < t->nr_files; k++) {
		ret = zbd_setup_file(c, t, &t->files[k], e);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- a failed I/O: the zbd hint of fio's ioengines.c (errors.c prints the error) ---- */

void ios_run_zbd_hint(struct run_task *t, const struct run_io *io, int err)
{
	if ((err == EIO || err == EREMOTEIO) && !t->res->error && io->tf &&
	    t->ios_issued[io->dir] == 1 && t->job->zone_mode != IOS_ZONE_ZBD)
		(void)ios_run_warn(t->ctx->res, "fio: first I/O failed. If %s is a zoned block "
				   "device, consider --zonemode=zbd", io->tf->f->name);
}
