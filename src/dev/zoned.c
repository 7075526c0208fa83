/*
 * zoned: the zone rules of a host-managed zoned device, in front of a
 * conventional model that does the timing.
 *
 * The sectors are cut into equal zones. An SMR disk (ZBC host-managed,
 * smr-hm) starts with a few conventional zones, written anywhere like any
 * disk, and the rest are sequential-write-required; a ZNS namespace (zns) is
 * all sequential, and each zone may take fewer sectors (its capacity) than
 * its size. A sequential zone has a write pointer and a condition, as the
 * kernel reports them (blkzoned.h, BLKREPORTZONE):
 *
 *   EMPTY --write--> IMPLICIT OPEN --write to capacity--> FULL
 *   EMPTY/CLOSED --open--> EXPLICIT OPEN; OPEN --close--> CLOSED (EMPTY if
 *   nothing written); any --finish--> FULL; any --reset--> EMPTY.
 *
 * A write must start at the write pointer and stay inside the zone's
 * capacity, else the device fails it: ZBC's UNALIGNED WRITE COMMAND and
 * NVMe's Zone Invalid Write / Zone Boundary Error / Zone Is Full reach the
 * application as EIO (fio's zbd_unaligned_write looks for EIO, or
 * EREMOTEIO from some SCSI paths). The write pointer moves when the device
 * accepts the write, in the order commands arrive, which is the order the
 * block layer dispatched them: a scheduler that reorders two writes to one
 * zone gets the second one (now the first to arrive) refused, as a real
 * host-managed device would. A failed write leaves the pointer alone.
 *
 * Open and active zones are device resources (max_open_zones,
 * max_active_zones: open + closed). A write that implicitly opens a zone
 * when max_open_zones are open first closes an implicitly opened one
 * (round robin; ZBC and NVMe both let the device do this), and fails with
 * ETOOMANYREFS (BLK_STS_ZONE_OPEN_RESOURCE) if every open zone was opened
 * explicitly. Opening an EMPTY zone with max_active_zones active fails with
 * EOVERFLOW (BLK_STS_ZONE_ACTIVE_RESOURCE).
 *
 * Reads: a ZNS namespace reads unwritten blocks as zeroes; a ZBC disk does
 * so when its URSWRZ bit is set (unrestricted reads), otherwise a read that
 * reaches above the write pointer fails with EIO. A read wholly above the
 * write pointer touches no media: the zone layer answers it itself after
 * zero_read_us plus the bus transfer of the zeroes. Every other command goes
 * to the base model, whose timing is that of the underlying disk or flash.
 *
 * Zone management (reset, open, close, finish) is a ctl() that takes
 * effect at once and costs no device time; the host issues it only when
 * nothing it has in flight targets the zone (fio quiesces first).
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "dev/zoned.h"

static struct ios_zoned *zn_of(const struct ios_dev *dev)
{
	return dev->zoned;
}

static bool zn_is_seq(const struct ios_dev_zone *z)
{
	return z->type == IOS_ZONE_TYPE_SEQ_REQ;
}

static bool zn_is_open(const struct ios_dev_zone *z)
{
	return z->cond == IOS_ZONE_COND_IMP_OPEN || z->cond == IOS_ZONE_COND_EXP_OPEN;
}

static bool zn_is_active(const struct ios_dev_zone *z)
{
	return zn_is_open(z) || z->cond == IOS_ZONE_COND_CLOSED;
}

/* Leave the open/active sets before taking condition @cond. */
static void zn_set_cond(struct ios_zoned *z, struct ios_dev_zone *zone, int cond)
{
	if (zn_is_open(zone))
		z->nr_open--;
	if (zn_is_active(zone))
		z->nr_active--;
	zone->cond = (uint8_t)cond;
	if (zn_is_open(zone))
		z->nr_open++;
	if (zn_is_active(zone))
		z->nr_active++;
}

static void zn_fill(struct ios_zoned *z, bool full)
{
	z->nr_open = z->nr_active = 0;
	z->imp_clock = 0;
	for (uint32_t i = 0; i < z->nr_zones; i++) {
		struct ios_dev_zone *zone = &z->zone[i];

		zone->start = (uint64_t)i * z->zone_sectors;
		zone->len = z->zone_sectors;
		if (i < (uint32_t)z->conv_zones) {
			zone->type = IOS_ZONE_TYPE_CONV;
			zone->cond = IOS_ZONE_COND_NOT_WP;
			zone->capacity = zone->len;
			zone->wp = zone->start + zone->len;
			continue;
		}
		zone->type = IOS_ZONE_TYPE_SEQ_REQ;
		zone->capacity = z->cap_sectors;
		zone->cond = full ? IOS_ZONE_COND_FULL : IOS_ZONE_COND_EMPTY;
		zone->wp = full ? zone->start + zone->capacity : zone->start;
	}
}

/* An implicitly open zone to close for room, round robin; NULL if none. */
static struct ios_dev_zone *zn_imp_victim(struct ios_zoned *z)
{
	for (uint32_t k = 0; k < z->nr_zones; k++) {
		uint32_t i = (z->imp_clock + k) % z->nr_zones;

		if (z->zone[i].cond == IOS_ZONE_COND_IMP_OPEN) {
			z->imp_clock = i + 1;
			return &z->zone[i];
		}
	}
	return NULL;
}

/*
 * Make room to open @zone (EMPTY or CLOSED) for writing: an EMPTY zone
 * becomes active, and any zone takes an open slot. 0 or -errno.
 */
static int zn_open_room(struct ios_zoned *z, struct ios_dev_zone *zone)
{
	if (zone->cond == IOS_ZONE_COND_EMPTY && z->max_active &&
	    z->nr_active >= (uint32_t)z->max_active)
		return -EOVERFLOW;
	if (z->max_open && z->nr_open >= (uint32_t)z->max_open) {
		struct ios_dev_zone *v = zn_imp_victim(z);

		if (!v)
			return -ETOOMANYREFS;
		zn_set_cond(z, v, IOS_ZONE_COND_CLOSED);
	}
	return 0;
}

static int zn_write(struct ios_zoned *z, const struct ios_request *rq)
{
	uint32_t i = (uint32_t)(rq->sector / z->zone_sectors);
	struct ios_dev_zone *zone = &z->zone[i];
	uint64_t end = ios_rq_end(rq);
	int ret;

	if (!zn_is_seq(zone)) {
		/* a write may span conventional zones, never run into a sequential one */
		for (uint32_t k = i + 1; k < z->nr_zones && z->zone[k].start < end; k++)
			if (zn_is_seq(&z->zone[k]))
				return -EIO;
		return 0;
	}
	if (zone->cond == IOS_ZONE_COND_FULL || rq->sector != zone->wp ||
	    end > zone->start + zone->capacity)
		return -EIO;
	if (zone->cond == IOS_ZONE_COND_EMPTY || zone->cond == IOS_ZONE_COND_CLOSED) {
		ret = zn_open_room(z, zone);
		if (ret)
			return ret;
		zn_set_cond(z, zone, IOS_ZONE_COND_IMP_OPEN);
	}
	zone->wp = end;
	if (zone->wp == zone->start + zone->capacity)
		zn_set_cond(z, zone, IOS_ZONE_COND_FULL);
	return 0;
}

/* Does a read reach above a write pointer? Wholly above: *all set. */
static bool zn_read_unwritten(const struct ios_zoned *z, const struct ios_request *rq, bool *all)
{
	uint64_t end = ios_rq_end(rq), s = rq->sector;
	bool some = false, every = true;

	while (s < end) {
		const struct ios_dev_zone *zone = &z->zone[s / z->zone_sectors];
		uint64_t ze = zone->start + zone->len, e = end < ze ? end : ze;

		if (zn_is_seq(zone) && e > zone->wp)
			some = true;
		if (!zn_is_seq(zone) || s < zone->wp)
			every = false;
		s = e;
	}
	*all = some && every;
	return some;
}

static void zn_done_add(struct ios_zoned *z, struct ios_request *rq, uint64_t t)
{
	struct ios_list_head *pos;

	rq->dev_ns = t;
	for (pos = z->done.prev; pos != &z->done; pos = pos->prev)
		if (ios_list_entry(pos, struct ios_request, dev_node)->dev_ns <= t)
			break;
	ios_list_add(&rq->dev_node, pos);
}

int ios_zoned_submit(struct ios_dev *dev, struct ios_request *rq, uint64_t now)
{
	struct ios_zoned *z = zn_of(dev);
	bool all = false;
	int ret;

	if (rq->nr_sectors && (rq->sector >= dev->nr_sectors ||
			       rq->nr_sectors > dev->nr_sectors - rq->sector))
		return -EINVAL;
	if (rq->nr_sectors && rq->dir == IOS_WRITE && !(rq->flags & IOS_REQ_DISCARD)) {
		ret = zn_write(z, rq);
		if (ret) {
			z->wp_errors++;
			return ret;
		}
	} else if (rq->nr_sectors && rq->dir == IOS_READ && zn_read_unwritten(z, rq, &all)) {
		if (!z->urswrz)
			return -EIO;
		if (all) {
			uint64_t mbps = (uint64_t)z->zero_read_mbps;
			uint64_t start = now + z->zero_read_ns;

			if (start < z->bus_free)
				start = z->bus_free;
			z->bus_free = start + (ios_rq_bytes(rq) * 1000 + mbps - 1) / mbps;
			z->outstanding++;
			zn_done_add(z, rq, z->bus_free);
			return 0;
		}
	}
	return z->base->submit(dev, rq, now);
}

uint64_t ios_zoned_next_event(const struct ios_dev *dev)
{
	const struct ios_zoned *z = zn_of(dev);
	uint64_t b = z->base->next_event(dev);

	if (!ios_list_empty(&z->done)) {
		uint64_t d = ios_list_first_entry(&z->done, struct ios_request, dev_node)->dev_ns;

		if (b == IOS_NO_WAKEUP || d < b)
			return d;
	}
	return b;
}

struct ios_request *ios_zoned_complete(struct ios_dev *dev, uint64_t now)
{
	struct ios_zoned *z = zn_of(dev);
	struct ios_request *rq = z->base->complete(dev, now);

	if (rq || ios_list_empty(&z->done))
		return rq;
	rq = ios_list_first_entry(&z->done, struct ios_request, dev_node);
	if (rq->dev_ns > now)
		return NULL;
	ios_list_del(&rq->dev_node);
	z->outstanding--;
	return rq;
}

void ios_zoned_reset(struct ios_dev *dev)
{
	struct ios_zoned *z = zn_of(dev);

	z->base->reset(dev);
	ios_list_init(&z->done);
	z->bus_free = 0;
	z->outstanding = 0;
	z->wp_errors = 0;
	zn_fill(z, z->prefill);
}

void ios_zoned_exit(struct ios_dev *dev)
{
	struct ios_zoned *z = zn_of(dev);

	free(z->zone);
	z->zone = NULL;
	z->base->exit(dev);
}

unsigned ios_zoned_caps(const struct ios_dev *dev)
{
	/* no discard: zones are emptied by a reset, not by trimming blocks */
	return (zn_of(dev)->base->caps(dev) & ~IOS_DEV_DISCARD) | IOS_DEV_ZONED;
}

unsigned ios_zoned_queue_depth(const struct ios_dev *dev)
{
	return zn_of(dev)->base->queue_depth(dev);
}

static int zn_mgmt_one(struct ios_zoned *z, struct ios_dev_zone *zone, int op)
{
	int ret;

	switch (op) {
	case IOS_ZONE_OP_RESET:
		zn_set_cond(z, zone, IOS_ZONE_COND_EMPTY);
		zone->wp = zone->start;
		return 0;
	case IOS_ZONE_OP_OPEN:
		if (zone->cond == IOS_ZONE_COND_EXP_OPEN)
			return 0;
		if (zone->cond == IOS_ZONE_COND_FULL)
			return -EIO;
		if (zone->cond != IOS_ZONE_COND_IMP_OPEN) {
			ret = zn_open_room(z, zone);
			if (ret)
				return ret;
		}
		zn_set_cond(z, zone, IOS_ZONE_COND_EXP_OPEN);
		return 0;
	case IOS_ZONE_OP_CLOSE:
		if (zn_is_open(zone))
			zn_set_cond(z, zone, zone->wp == zone->start ? IOS_ZONE_COND_EMPTY
								     : IOS_ZONE_COND_CLOSED);
		return 0;
	case IOS_ZONE_OP_FINISH:
		zn_set_cond(z, zone, IOS_ZONE_COND_FULL);
		zone->wp = zone->start + zone->capacity;
		return 0;
	}
	return -EINVAL;
}

static int zn_mgmt(struct ios_zoned *z, const struct ios_dev_zone_mgmt *m)
{
	uint32_t i;

	if (m->all) {
		if (m->op != IOS_ZONE_OP_RESET)
			return -EINVAL;
		for (i = 0; i < z->nr_zones; i++)
			if (zn_is_seq(&z->zone[i]))
				(void)zn_mgmt_one(z, &z->zone[i], m->op);
		return 0;
	}
	if (m->sector % z->zone_sectors || m->sector / z->zone_sectors >= z->nr_zones)
		return -EINVAL;
	i = (uint32_t)(m->sector / z->zone_sectors);
	/* blkdev_zone_mgmt: conventional zones have nothing to reset or open */
	if (!zn_is_seq(&z->zone[i]))
		return -EIO;
	return zn_mgmt_one(z, &z->zone[i], m->op);
}

int ios_zoned_ctl(struct ios_dev *dev, int op, void *arg)
{
	struct ios_zoned *z = zn_of(dev);

	switch (op) {
	case IOS_DEV_CTL_ZONE_INFO: {
		struct ios_dev_zone_info *info = arg;

		info->zone_sectors = z->zone_sectors;
		info->nr_zones = z->nr_zones;
		info->nr_conv_zones = (uint32_t)z->conv_zones;
		info->max_open = (uint32_t)z->max_open;
		info->max_active = (uint32_t)z->max_active;
		info->read_beyond_wp_zeroes = z->urswrz != 0;
		info->write_errors = z->wp_errors;
		return 0;
	}
	case IOS_DEV_CTL_ZONE_REPORT: {
		struct ios_dev_zone_report *r = arg;
		uint64_t first = r->sector / z->zone_sectors;
		uint32_t n = 0;

		if (r->sector >= dev->nr_sectors)
			return -EINVAL;
		while (n < r->nr && first + n < z->nr_zones) {
			r->zones[n] = z->zone[first + n];
			n++;
		}
		r->nr = n;
		return 0;
	}
	case IOS_DEV_CTL_ZONE_MGMT:
		return zn_mgmt(z, arg);
	}
	return z->base->ctl ? z->base->ctl(dev, op, arg) : -ENOTSUP;
}

static int zn_setup(struct ios_dev *dev, struct ios_zoned *z, struct ios_err *e)
{
	uint64_t zs = z->zone_bytes / IOS_SECTOR_SIZE;

	if (z->zone_bytes % IOS_SECTOR_SIZE || (zs & (zs - 1)))
		/* the kernel takes only power-of-two zone sizes (blk_revalidate_disk_zones) */
		return IOS_ERR(e, -EINVAL, "device.zone_size=%llu bytes is not a power of two "
			       "number of sectors", (unsigned long long)z->zone_bytes);
	if (dev->nr_sectors % zs)
		return IOS_ERR(e, -EINVAL, "device.capacity (%llu sectors) is not a whole number of "
			       "device.zone_size=%llu MiB zones", (unsigned long long)dev->nr_sectors,
			       (unsigned long long)(z->zone_bytes >> 20));
	if (z->zone_cap_bytes > z->zone_bytes || z->zone_cap_bytes % IOS_SECTOR_SIZE)
		return IOS_ERR(e, -EINVAL, "device.zone_capacity=%llu bytes: allowed 0 (the zone "
			       "size) or a multiple of 512 bytes up to device.zone_size=%llu bytes",
			       (unsigned long long)z->zone_cap_bytes,
			       (unsigned long long)z->zone_bytes);
	z->zone_sectors = zs;
	z->cap_sectors = z->zone_cap_bytes ? z->zone_cap_bytes / IOS_SECTOR_SIZE : zs;
	z->nr_zones = (uint32_t)(dev->nr_sectors / zs);
	if ((uint64_t)z->conv_zones >= z->nr_zones)
		return IOS_ERR(e, -EINVAL, "device.conv_zones=%d leaves no sequential zone (the "
			       "device has %u zones)", z->conv_zones, z->nr_zones);
	if (z->max_active && z->max_open > z->max_active)
		return IOS_ERR(e, -EINVAL, "device.max_open_zones=%d is above "
			       "device.max_active_zones=%d", z->max_open, z->max_active);
	z->zone = calloc(z->nr_zones, sizeof(*z->zone));
	if (!z->zone)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ios_list_init(&z->done);
	z->bus_free = 0;
	z->outstanding = 0;
	z->wp_errors = 0;
	zn_fill(z, z->prefill);
	return 0;
}

int ios_zoned_init(struct ios_dev *dev, struct ios_zoned *z, int model,
		   const struct ios_dev_ops *base, struct ios_err *e)
{
	int ret;

	z->model = model;
	z->base = base;
	z->zone = NULL;
	dev->zoned = z;
	if (model == IOS_ZONED_ZNS)
		z->urswrz = 1;	/* NVMe reads unwritten blocks as zeroes */
	ret = zn_setup(dev, z, e);
	if (ret)
		base->exit(dev);	/* the base init succeeded: undo it */
	return ret;
}
