/*
 * The device-model interface.
 *
 * A device model is one file with a const struct ios_dev_type: a name, an
 * interface version, a table of hooks, a table of tunables (every physical
 * parameter: geometry, rpm, seek curve, cache, channels) and the size of its
 * private struct, which embeds struct ios_dev as its first member (SQLite's
 * sqlite3_file pattern: one allocation, a cast to get back).
 *
 * A device is a state machine that the simulator drives with time passed in:
 * submit() hands it a command, next_event() says when it next needs
 * attention, complete() advances it to that time and returns a finished
 * request (or NULL when only internal work, such as destaging the write
 * cache, was done). Unlike a "submit returns the completion time" interface
 * this lets a queueing drive pick its next command when the head is free,
 * from whatever is queued by then, which is what NCQ reordering is.
 *
 * A device never knows which scheduler runs above it, and its behaviour is a
 * pure function of its tunables, its seed and the commands it was given.
 *
 * Profiles ("hdd-2009", "ssd") are data: a device type plus a list of
 * tunable settings applied over the type's defaults.
 */
#ifndef IOSCHED_DEVICE_H
#define IOSCHED_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "rand.h"
#include "request.h"
#include "tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of struct ios_dev_type and struct ios_dev_ops a device type
 * was written for (its .version; fio's ioengine ops version, SQLite's
 * iVersion). The structs only grow: a new hook or field is appended and
 * this number goes up, and the core uses what a version added only with
 * types of that version or later. A type of version 0 (never set) or newer
 * than this library is refused (ios_dev_type_check: -EINVAL).
 *
 * Version 2 (blk-mq, issue 29): a device says how many hardware queues it
 * offers and how many commands each takes, for the blk-mq layer. The two
 * numbers live in struct ios_dev (nr_hw_queues, hw_queue_depth), appended
 * there, and a version 2 type lists them as tunables with IOS_DEV_MQ_ROWS
 * (device.nr_hw_queues, device.hw_queue_depth); ios_dev_type_check refuses
 * a version 2 type whose table lacks them. For a version 1 type the core
 * reads one queue of queue_depth() commands (ios_dev_nr_hw_queues,
 * ios_dev_hw_queue_depth). The legacy single-queue layer reads
 * queue_depth() in every version, exactly as before.
 */
#define IOS_DEV_INTERFACE_VERSION 2

/*
 * Capability bits: facts about the device the layers above act on. Only
 * one has a reader today. Queueing is queue_depth() (more than 1: NCQ).
 * Every model honours FUA and handles a flush itself (a drive without a
 * write cache finishes one at once), so the block layer, unlike Linux's
 * blk-flush, never needs to know whether FUA or a write cache is there;
 * bits for those come back with the code that reads them.
 */
#define IOS_DEV_ROTATIONAL	(1u << 0)	/* seeks cost time: /sys/block/X/queue/rotational */
/*
 * Accepts discards (IOS_REQ_DISCARD): queue/discard_max_bytes non-zero. The
 * host refuses a discard for a device without it with -EOPNOTSUPP, as
 * blkdev_issue_discard() does for a queue without discard support.
 */
#define IOS_DEV_DISCARD		(1u << 1)
/*
 * Host-managed zoned (/sys/block/X/queue/zoned = "host-managed"): the
 * sectors are cut into zones, sequential-write-required zones take writes
 * only at their write pointer (IOS_DEV_CTL_ZONE_INFO says the geometry).
 */
#define IOS_DEV_ZONED		(1u << 2)
/*
 * Serves high-priority commands first: a request whose own ioprio
 * (ios_request.ioprio) is of the realtime class becomes a high-priority
 * NCQ command (libata's ncq_prio_enable, Linux 4.10+).
 */
#define IOS_DEV_PRIO		(1u << 3)
/*
 * A volatile write cache is on (queue/write_cache "write back", the
 * kernel's QUEUE_FLAG_WC). Read by writeback throttling (blk-wbt's
 * rwb->wc: with it, throttled writers wait until the writes in flight
 * have drained).
 */
#define IOS_DEV_WRITE_CACHE	(1u << 4)

/* ctl() operations; unknown ones return -ENOTSUP */
enum ios_dev_ctl {
	/* arg: struct ios_dev_rate_query *; media rate at a sector (calibration) */
	IOS_DEV_CTL_MEDIA_RATE = 1,
	/* arg: struct ios_dev_counters *; internal counters for reports and tests */
	IOS_DEV_CTL_COUNTERS = 2,
	/* arg: struct ios_dev_ftl_stats *; flash translation layer counters (ssd-ftl) */
	IOS_DEV_CTL_FTL_STATS = 3,
	/* arg: struct ios_dev_zone_info *; zoned devices only (src/dev/zoned.c) */
	IOS_DEV_CTL_ZONE_INFO = 4,
	/* arg: struct ios_dev_zone_report *; the kernel's BLKREPORTZONE */
	IOS_DEV_CTL_ZONE_REPORT = 5,
	/* arg: struct ios_dev_zone_mgmt *; BLKRESETZONE, BLKOPENZONE, BLKCLOSEZONE, BLKFINISHZONE */
	IOS_DEV_CTL_ZONE_MGMT = 6,
	/* arg: struct ios_dev_cloud_stats *; cloud volumes only (src/dev/cloud.c) */
	IOS_DEV_CTL_CLOUD_STATS = 7,
	/*
	 * arg: struct ios_buf *; the device's parameters as text, where they do
	 * not all show as tunables (disksim: the spec's zones and seek table;
	 * src/dev/disksim.c). iosched list --device prints it.
	 */
	IOS_DEV_CTL_DESCRIBE = 8,
};

/* Zone types and conditions, numbered as the kernel's blkzoned.h numbers them. */
enum ios_zone_type {
	IOS_ZONE_TYPE_CONV = 1,		/* conventional: written anywhere */
	IOS_ZONE_TYPE_SEQ_REQ = 2,	/* sequential write required */
};

enum ios_zone_cond {
	IOS_ZONE_COND_NOT_WP = 0,	/* conventional */
	IOS_ZONE_COND_EMPTY = 1,
	IOS_ZONE_COND_IMP_OPEN = 2,
	IOS_ZONE_COND_EXP_OPEN = 3,
	IOS_ZONE_COND_CLOSED = 4,
	IOS_ZONE_COND_FULL = 14,
};

struct ios_dev_zone {
	uint64_t start, len;		/* sectors */
	uint64_t capacity;		/* writable sectors from start (ZNS: may be < len) */
	uint64_t wp;			/* write pointer (start + len when full or conventional) */
	uint8_t type;			/* enum ios_zone_type */
	uint8_t cond;			/* enum ios_zone_cond */
};

struct ios_dev_zone_info {
	uint64_t zone_sectors;		/* queue/chunk_sectors */
	uint32_t nr_zones;		/* queue/nr_zones */
	uint32_t nr_conv_zones;		/* conventional zones, at the start */
	uint32_t max_open;		/* queue/max_open_zones; 0: no limit */
	uint32_t max_active;		/* queue/max_active_zones; 0: no limit */
	bool read_beyond_wp_zeroes;	/* reads above the write pointer return zeroes (else EIO) */
	uint64_t write_errors;		/* writes the zone rules refused since init or reset */
};

struct ios_dev_zone_report {
	uint64_t sector;		/* in: report from the zone holding this sector */
	uint32_t nr;			/* in: room in @zones; out: zones reported */
	struct ios_dev_zone *zones;	/* out */
};

enum ios_zone_op {
	IOS_ZONE_OP_RESET = 1,
	IOS_ZONE_OP_OPEN,
	IOS_ZONE_OP_CLOSE,
	IOS_ZONE_OP_FINISH,
};

struct ios_dev_zone_mgmt {
	int op;				/* enum ios_zone_op */
	uint64_t sector;		/* the zone's start */
	bool all;			/* RESET only: every sequential zone */
	uint64_t now_ns;		/* when the command reaches the device */
};

struct ios_dev_rate_query {
	uint64_t sector;		/* in */
	uint64_t bytes_per_sec;		/* out */
};

struct ios_dev_counters {
	uint64_t commands;		/* commands accepted */
	uint64_t cache_read_hits;	/* reads served from the drive's read cache */
	uint64_t cache_write_absorbed;	/* writes completed from the write cache */
	uint64_t media_ops;		/* mechanical or flash operations done */
	uint64_t busy_ns;		/* time the mechanism / dies were busy */
	uint64_t seeks;			/* positioning operations with a non-zero seek */
};

/*
 * What an FTL did since init or reset. Write amplification is
 * flash_pages_written / host_pages_written.
 */
struct ios_dev_ftl_stats {
	uint64_t host_pages_written;	/* pages the host wrote */
	uint64_t flash_pages_written;	/* pages programmed: host pages + GC copies */
	uint64_t gc_copies;		/* valid pages moved by garbage collection */
	uint64_t erases;		/* blocks erased */
	uint64_t gc_ns;			/* die time spent on copies and erases */
	uint64_t pages_trimmed;		/* mapped pages a discard unmapped */
	uint64_t free_blocks;		/* erased blocks now (all dies) */
};

/*
 * What a cloud volume's limits did since init or reset (src/dev/cloud.c).
 * "I/Os" are counted as the provider counts them (io_unit, merging), which
 * is what its IOPS limit and CloudWatch's VolumeReadOps/VolumeWriteOps see.
 */
struct ios_dev_cloud_stats {
	uint64_t commands;		/* requests the host sent (flushes included) */
	uint64_t ios_counted;		/* provider I/Os: what the IOPS limit charged */
	uint64_t merged;		/* requests that joined the previous one's I/O for free */
	uint64_t bytes;			/* data moved */
	uint64_t wait_iops_ns;		/* admission delay where the IOPS limit was binding */
	uint64_t wait_bps_ns;		/* ... the throughput limit */
	uint64_t wait_credit_ns;	/* ... the burst credit balance (baseline rate) */
	uint64_t credits;		/* burst credit balance now (0 without burst) */
	uint64_t credits_max;		/* its capacity (device.burst_credits) */
};

struct ios_dev;
struct ios_zoned;

struct ios_dev_ops {
	/*
	 * Required. Tunables have been set (type defaults, then the profile,
	 * then the user's device.* settings). Derive geometry, validate
	 * combinations, set dev->nr_sectors. 0 or -errno with @e filled.
	 */
	int (*init)(struct ios_dev *dev, struct ios_err *e);
	/* Required. Free what init allocated (not the device itself). */
	void (*exit)(struct ios_dev *dev);
	/* Required. IOS_DEV_* bits. */
	unsigned (*caps)(const struct ios_dev *dev);
	/*
	 * Required. Commands the device accepts at once (tags) on the legacy
	 * single-queue layer: the depth a 2.6-era host gave it. blk-mq reads
	 * ios_dev_hw_queue_depth() per hardware queue instead (version 2).
	 */
	unsigned (*queue_depth)(const struct ios_dev *dev);
	/*
	 * Required. Accept a command at @now_ns. Never called with more than
	 * ios_dev_max_commands() outstanding (queue_depth() on the legacy
	 * layer, every hardware queue's tags on blk-mq). A request with nr_sectors == 0
	 * and IOS_REQ_PREFLUSH is a cache flush. 0 or -errno (-EINVAL for a
	 * request beyond the end of the device).
	 */
	int (*submit)(struct ios_dev *dev, struct ios_request *rq, uint64_t now_ns);
	/* Required. When the device next changes state, or IOS_NO_WAKEUP. */
	uint64_t (*next_event)(const struct ios_dev *dev);
	/*
	 * Required. Advance internal state to @now_ns (never earlier than the
	 * last call) and return one request that has completed by then, or
	 * NULL. Callers loop until NULL, then ask next_event() again.
	 */
	struct ios_request *(*complete)(struct ios_dev *dev, uint64_t now_ns);
	/* Required. Back to the just-initialised state (empty caches, head at 0). */
	void (*reset)(struct ios_dev *dev);
	/* Optional extension point. Unknown @op: -ENOTSUP. */
	int (*ctl)(struct ios_dev *dev, int op, void *arg);
};

struct ios_dev_type {
	const char *name;
	unsigned version;		/* IOS_DEV_INTERFACE_VERSION it was written for */
	const char *desc;
	struct ios_dev_ops ops;
	const struct ios_tunable *tunables;
	size_t priv_size;		/* sizeof the struct that embeds struct ios_dev first */
};

struct ios_dev {
	const struct ios_dev_type *type;
	const char *profile;
	char name[16];			/* block device name, "sda" */
	uint64_t nr_sectors;		/* capacity in 512-byte sectors, set by init */
	uint64_t seed;			/* for any internal randomness */
	struct ios_rand rng;
	/* zone state of a zoned device type (src/dev/zoned.c), NULL for the others */
	struct ios_zoned *zoned;
	/*
	 * Version 2: what the device offers blk-mq, set from the type's
	 * IOS_DEV_MQ_ROWS tunables. Read them with ios_dev_nr_hw_queues() and
	 * ios_dev_hw_queue_depth(), which answer for version 1 types too.
	 */
	int nr_hw_queues;		/* hardware (submission) queues the device offers */
	int hw_queue_depth;		/* commands per hardware queue; 0: queue_depth() */
};

/*
 * The rows of a version 2 type's tunables table for the two blk-mq numbers
 * (they point into struct ios_dev, which every private struct embeds
 * first). @nrq and @depth are the type's defaults as strings.
 * nr_hw_queues: 1..65536, the most an NVMe controller can grant (Set
 * Features, Number of Queues: a 16-bit 0's based count); the host gives
 * blk-mq at most one per CPU (docs/devices.md). hw_queue_depth: 0 (the
 * legacy queue_depth) or 1..10240, blk-mq's BLK_MQ_MAX_DEPTH, which
 * blk_mq_alloc_tag_set (block/blk-mq.c) clamps a larger tag set to; we
 * refuse instead, as every tunable does.
 */
#define IOS_DEV_MQ_ROWS(nrq, depth) \
	{ "nr_hw_queues", IOS_TUN_INT, offsetof(struct ios_dev, nr_hw_queues), 1, 65536, nrq, "", \
	  "blk-mq: hardware queues the device offers (the host uses at most one per CPU, " \
	  "lab.cpus); the single-queue layer ignores it", 0, NULL }, \
	{ "hw_queue_depth", IOS_TUN_INT, offsetof(struct ios_dev, hw_queue_depth), 0, 10240, \
	  depth, "", "blk-mq: driver tags per hardware queue (0: queue_depth); the " \
	  "single-queue layer reads queue_depth", 0, NULL }

struct ios_dev_profile {
	const char *name;
	const char *type;		/* device type name */
	const char *desc;
	const char *const *settings;	/* "name=value" over the type defaults, NULL-terminated */
};

/* Registry of types and profiles (explicit built-in lists in dev/dev.c). */
/*
 * Can this library drive @t? 0, or -EINVAL with @e naming the problem: no
 * name, a version other than 1..IOS_DEV_INTERFACE_VERSION, a required hook
 * missing, a private size smaller than struct ios_dev, or a malformed
 * tunables table (ios_tunable_check_table). ios_dev_create() checks every
 * type before use.
 */
int ios_dev_type_check(const struct ios_dev_type *t, struct ios_err *e) IOS_MUST_CHECK;
const struct ios_dev_type *ios_dev_type_find(const char *name);
const struct ios_dev_type *ios_dev_type_at(size_t i);
const struct ios_dev_profile *ios_dev_profile_find(const char *name);
/* " (did you mean 'hdd-2009'?)" for a mistyped profile name, or ""; in @buf. */
const char *ios_dev_profile_suggest(const char *typed, char *buf, size_t size);
const struct ios_dev_profile *ios_dev_profile_at(size_t i);
#define IOS_DEV_DEFAULT_PROFILE "hdd-2009"

/*
 * Create a device from a profile: type defaults, then the profile's
 * settings, then every "device.NAME=VALUE" in @set (marked used), then
 * init(). @set may be NULL. Returns NULL with @e filled on error.
 */
struct ios_dev *ios_dev_create(const char *profile, struct ios_settings *set, uint64_t seed,
			       struct ios_err *e);
void ios_dev_destroy(struct ios_dev *dev);

static inline unsigned ios_dev_caps(const struct ios_dev *dev)
{
	return dev->type->ops.caps(dev);
}

/*
 * blk-mq's view of the device: its hardware queues and the driver tags of
 * each (the kernel's blk_mq_tag_set nr_hw_queues and queue_depth, before
 * the host's per-CPU cap). A version 1 type offers one queue of
 * queue_depth() tags.
 */
static inline unsigned ios_dev_nr_hw_queues(const struct ios_dev *dev)
{
	return dev->type->version >= 2 && dev->nr_hw_queues > 0 ? (unsigned)dev->nr_hw_queues : 1;
}

static inline unsigned ios_dev_hw_queue_depth(const struct ios_dev *dev)
{
	if (dev->type->version >= 2 && dev->hw_queue_depth > 0)
		return (unsigned)dev->hw_queue_depth;
	return dev->type->ops.queue_depth(dev);
}

/*
 * The most commands a device model accepts at once, whichever layer is
 * above it: queue_depth() for the legacy layer, every hardware queue's
 * tags for blk-mq. The models refuse one more with -EBUSY. A device never
 * knows which layer drives it, so it takes the larger; the legacy layer
 * never sends more than queue_depth(), so its runs do not change.
 */
static inline unsigned ios_dev_max_commands(const struct ios_dev *dev)
{
	uint64_t mq = (uint64_t)ios_dev_nr_hw_queues(dev) * ios_dev_hw_queue_depth(dev);
	unsigned sq = dev->type->ops.queue_depth(dev);

	if (mq > UINT32_MAX)
		mq = UINT32_MAX;
	return mq > sq ? (unsigned)mq : sq;
}

static inline int ios_dev_ctl(struct ios_dev *dev, int op, void *arg)
{
	return dev->type->ops.ctl ? dev->type->ops.ctl(dev, op, arg) : -ENOTSUP;
}

#ifdef __cplusplus
}
#endif

#endif
