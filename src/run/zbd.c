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
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "iosched/host.h"
#include "run_int.h"

#define ZBD_MAX_OPEN 4096	/* fio's ZBD_MAX_OPEN_ZONES */

struct run_zbd_zone {
	uint64_t start, wp, cap;	/* bytes in the file */
	uint8_t cond;			/* enum ios_zone_cond, from the report */
	bool has_wp, open, reset_zone;
	struct run_task *owner;		/* the job holding it (fio's zone mutex) */
	unsigned locks;			/* its I/Os in flight there */
};

struct run_zbd {
	bool hm;			/* a host-managed device; else emulated zones */
	uint64_t zone_size;
	uint32_t nr_zones;
	struct run_zbd_zone *z;		/* nr_zones, plus a sentinel holding the end */
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

static uint64_t zbd_end(const struct run_zbd_zone *z)
{
	return z[1].start;
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
	uint32_t i = (uint32_t)(z - zb->z);

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

static bool zbd_open(struct run_zbd *zb, struct run_task *t, struct run_zbd_zone *z)
{
	const struct ios_job *j = t->job;

	if (!zb->max_open)
		return true;	/* no limit: fio tracks no open zones */
	if (z->open)
		return z->wp < zbd_cap_end(z);	/* full once the writes in flight land */
	if (j->job_max_open_zones && t->zbd_open >= j->job_max_open_zones)
		return false;
	if (zb->nr_open >= zb->max_open)
		return false;
	zb->open[zb->nr_open++] = (uint32_t)(z - zb->z);
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
	uint32_t lo = tf->zbd_min, hi = tf->zbd_max, i, k, n;
	bool limited = zb->max_open || j->job_max_open_zones, retried = false;
	struct run_zbd_zone *z;
	enum run_zbd_act a;

	*out = NULL;
	i = limited ? (zb->nr_open ? zb->open[zbd_pick_open(zb, tf, off)] : 0) : zbd_idx(zb, off);
	if (i < lo)
		i = lo;
	else if (i >= hi)
		i = hi - 1;
	for (;;) {
		uint32_t pick, cand = UINT32_MAX;

		z = &zb->z[i];
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
		for (n = (uint32_t)(tf->len / zb->zone_size); n > 0; n--) {
			i++;
			z++;
			if (!zbd_valid(tf, z->start)) {
				i = lo;
				z = &zb->z[i];
			}
			if (!z->has_wp)
				continue;
			if ((a = zbd_busy(t, z)) != RUN_ZBD_ACCEPT)
				return a;
			if (z->open)
				continue;
			if (zbd_open(zb, t, z))
				goto found;
		}
		for (k = 0; k < zb->nr_open; k++) {
			struct run_zbd_zone *oz = &zb->z[zb->open[k]];

			if (zb->open[k] < lo || zb->open[k] >= hi)
				continue;
			if ((a = zbd_busy(t, oz)) != RUN_ZBD_ACCEPT)
				return a;
			if (oz->wp + min_bs <= zbd_cap_end(oz)) {
				z = oz;
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
	*out = z;
	return RUN_ZBD_ACCEPT;
}

static enum run_zbd_act zbd_write(struct run_task *t, struct run_task_file *tf,
				  struct run_zbd *zb, uint64_t *off, uint64_t *len,
				  struct run_zbd_zone **zp)
{
	const struct ios_job *j = t->job;
	uint64_t min_bs = zbd_min_bs(j, IOS_WRITE), nl;
	struct run_zbd_zone *z = &zb->z[zbd_idx(zb, *off)];
	enum run_zbd_act a;

	if ((a = zbd_busy(t, z)) != RUN_ZBD_ACCEPT)
		return a;	/* fio locks the offset's zone first */
	if (*len > zb->zone_size)
		return RUN_ZBD_EOF;	/* fio: "I/O buflen exceeds zone size" */
	if (!zbd_open(zb, t, z)) {
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
static void zbd_conv_write(const struct ios_job *j, const struct run_zbd_zone *z, uint64_t *off,
			   uint64_t *len)
{
	uint64_t min_bs = zbd_min_bs(j, IOS_WRITE), next = z[1].start, nl;

	if (!z[1].has_wp || *off + *len <= next)
		return;
	if (*off + min_bs > next) {
		*off = z->start + next - *off;
		nl = *len < next - *off ? *len : next - *off;
	} else {
		nl = next - *off;
	}
	*len = nl / min_bs * min_bs;
}

/* ---- reads ---- */

/* fio's zbd_find_zone: the nearest zone after @from (random jobs: either side) with data. */
static enum run_zbd_act zbd_find(struct run_task *t, struct run_task_file *tf,
				 struct run_zbd *zb, struct run_zbd_zone *from, uint64_t need,
				 struct run_zbd_zone **out)
{
	struct run_zbd_zone *z1 = from + 1, *z2 = from - 1;
	struct run_zbd_zone *zf = &zb->z[tf->zbd_min], *zl = &zb->z[tf->zbd_max];
	bool rnd = ios_rw_is_random(t->job->rw);
	enum run_zbd_act a;

	*out = NULL;
	for (; z1 < zl || z2 >= zf; z1++, z2--) {
		if (z1 < zl) {
			if ((a = zbd_busy(t, z1)) != RUN_ZBD_ACCEPT)
				return a;
			if (z1->start + need <= z1->wp) {
				*out = z1;
				return RUN_ZBD_ACCEPT;
			}
		} else if (!rnd) {
			break;
		}
		if (rnd && z2 >= zf) {
			if ((a = zbd_busy(t, z2)) != RUN_ZBD_ACCEPT)
				return a;
			if (z2->start + need <= z2->wp) {
				*out = z2;
				return RUN_ZBD_ACCEPT;
			}
		}
	}
	return RUN_ZBD_ACCEPT;
}

static enum run_zbd_act zbd_read(struct run_task *t, struct run_task_file *tf,
				 struct run_zbd *zb, uint64_t *off, uint64_t *len,
				 struct run_zbd_zone **zp)
{
	const struct ios_job *j = t->job;
	uint64_t min_bs = zbd_min_bs(j, IOS_READ), range, nl;
	struct run_zbd_zone *z = &zb->z[zbd_idx(zb, *off)], *orig = z;
	bool rnd = ios_rw_is_random(j->rw);
	enum run_zbd_act a;

	if ((a = zbd_busy(t, z)) != RUN_ZBD_ACCEPT)
		return a;
	range = z->wp - z->start;
	if (range < min_bs || (!rnd && *off + min_bs > z->wp)) {
		a = zbd_find(t, tf, zb, z, min_bs, &z);
		if (a != RUN_ZBD_ACCEPT || !z)
			return a != RUN_ZBD_ACCEPT ? a : RUN_ZBD_EOF;
		range = z->wp - z->start;
		if (!rnd)
			*off = z->start;
	}
	if (range <= *len)
		*off = z->start;
	else if (rnd)
		*off = z->start + ((*off - orig->start) % (range - *len)) / min_bs * min_bs;
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
	struct run_zbd_zone *z = &zb->z[zbd_idx(zb, off)], *lock = NULL;
	enum run_zbd_act a;

	io->zbd_zone = NULL;
	if (!z->has_wp) {
		if (io->dir == IOS_WRITE)
			zbd_conv_write(t->job, z, &off, &len);
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
	z = &zb->z[zbd_idx(zb, tf->pos[IOS_WRITE])];
	if (z < &zb->z[zb->nr_zones] && z->cap < zb->zone_size &&
	    tf->pos[IOS_WRITE] >= zbd_cap_end(z))
		tf->pos[IOS_WRITE] = zbd_end(z) >= tf->off + tf->len ? tf->off : zbd_end(z);
}

void ios_run_zbd_free_file(struct run_file *f)
{
	if (!f->zbd)
		return;
	free(f->zbd->z);
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

static int zbd_from_device(struct run_ctx *c, const struct ios_job *j, struct run_file *f,
			   struct run_zbd *zb, struct ios_err *e)
{
	struct ios_host *h = c->host;
	struct ios_dev_zone rep[256];
	uint64_t zs = h->disk.zone_sectors * IOS_SECTOR_SIZE;
	uint32_t n = 0, i;
	char w[300];

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
	zb->zone_size = zs;
	zb->nr_zones = (uint32_t)((f->size + zs - 1) / zs);
	zb->z = calloc((size_t)zb->nr_zones + 1, sizeof(*zb->z));
	if (!zb->z)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	while (n < zb->nr_zones) {
		struct ios_dev_zone_report r = { .sector = (uint64_t)n * h->disk.zone_sectors,
						 .nr = 256, .zones = rep };
		int ret = h->ops->dev_ctl ? h->ops->dev_ctl(h, IOS_DEV_CTL_ZONE_REPORT, &r)
					  : -ENOTSUP;

		if (ret || !r.nr)
			return IOS_ERR(e, ret ? ret : -EIO, "%s: report zones from sector %" PRIu64
				       " failed", f->name, r.sector);
		for (i = 0; i < r.nr && n < zb->nr_zones; i++, n++) {
			struct run_zbd_zone *z = &zb->z[n];

			z->start = rep[i].start * IOS_SECTOR_SIZE;
			z->cap = rep[i].capacity * IOS_SECTOR_SIZE;
			z->cond = rep[i].cond;
			z->has_wp = rep[i].type == IOS_ZONE_TYPE_SEQ_REQ;
			z->wp = rep[i].cond == IOS_ZONE_COND_FULL || !z->has_wp
				? z->start + z->cap : rep[i].wp * IOS_SECTOR_SIZE;
		}
	}
	zb->z[zb->nr_zones].start = (uint64_t)zb->nr_zones * zs;
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
	uint64_t zs = j->zone_size, cap = j->zone_capacity ? j->zone_capacity : j->zone_size;
	char w[300];

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
	zb->zone_size = zs;
	zb->nr_zones = (uint32_t)((f->size + zs - 1) / zs);
	zb->z = calloc((size_t)zb->nr_zones + 1, sizeof(*zb->z));
	if (!zb->z)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < zb->nr_zones; i++) {
		struct run_zbd_zone *z = &zb->z[i];

		z->start = z->wp = (uint64_t)i * zs;
		z->cap = cap;
		z->cond = IOS_ZONE_COND_EMPTY;
		z->has_wp = true;
	}
	zb->z[zb->nr_zones].start = (uint64_t)zb->nr_zones * zs;
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

	for (uint32_t i = zbd_idx(zb, tf->off); i <= zbd_idx(zb, tf->off + tf->len - 1); i++)
		seq |= i < zb->nr_zones && zb->z[i].has_wp;
	if (!seq)
		return 0;
	if (zs != zb->zone_size)
		return IOS_ERR(e, -EINVAL, "%s: %s: zonesize=%" PRIu64 " does not match the device "
			       "zone size %" PRIu64, zbd_where(j, w, sizeof(w)), tf->f->name, zs,
			       zb->zone_size);
	z = &zb->z[zbd_idx(zb, tf->off)];
	if (tf->off != z->start && !rd_only) {
		no = zbd_end(z);
		if (no >= tf->off + tf->len)
			return IOS_ERR(e, -EINVAL, "%s: %s: io_size must be at least one zone",
				       zbd_where(j, w, sizeof(w)), tf->f->name);
		if (!t->clone && ios_run_warn(c->res, "%s: rounded up offset from %" PRIu64 " to %"
					      PRIu64, tf->f->name, tf->off, no))
			return IOS_ERR(e, -ENOMEM, "out of memory");
		tf->len -= no - tf->off;
		tf->off = no;
	}
	ne = zb->z[zbd_idx(zb, tf->off + tf->len)].start;
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
		struct run_zbd_zone *z = &zb->z[i];

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
			zb->swd += zb->z[i].wp - zb->z[i].start;
			if (zb->z[i].has_wp)
				zb->wp_swd += zb->z[i].wp - zb->z[i].start;
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
