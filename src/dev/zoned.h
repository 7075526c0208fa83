/*
 * Private to src/dev/: the zone layer a zoned device type puts in front of
 * a conventional model (hdd.c for smr-hm, ssd.c for zns).
 *
 * A zoned type's private struct is the base model's followed by a struct
 * ios_zoned; its tunables are the base model's rows plus IOS_ZONED_ROWS. Its
 * init() calls the base init, then ios_zoned_init(), which points
 * dev->zoned at the zone state; every other hook is the generic one below,
 * which checks a command against the zones and hands it to the base ops.
 */
#ifndef IOSCHED_DEV_ZONED_H
#define IOSCHED_DEV_ZONED_H

#include "iosched/device.h"

enum ios_zoned_model {
	IOS_ZONED_SMR_HM,	/* ZBC host-managed disk: conventional zones first, URSWRZ */
	IOS_ZONED_ZNS,		/* NVMe zoned namespace: zone capacity, active limit */
};

struct ios_zoned {
	/* tunables */
	uint64_t zone_bytes, zone_cap_bytes;
	int conv_zones, max_open, max_active, urswrz, prefill;
	uint64_t zero_read_ns;
	int zero_read_mbps;

	/* set by ios_zoned_init */
	int model;
	const struct ios_dev_ops *base;
	uint64_t zone_sectors, cap_sectors;
	uint32_t nr_zones;
	struct ios_dev_zone *zone;
	uint32_t nr_open, nr_active;	/* implicitly + explicitly open; open + closed */
	uint32_t imp_clock;		/* round robin over implicitly open zones to close */
	/* reads the zone layer answers itself (above the write pointer): dev_ns = done */
	struct ios_list_head done;
	uint64_t bus_free;
	unsigned outstanding;
	uint64_t wp_errors;		/* writes refused: not at the write pointer, full, crossing */
};

/* Tunable rows of struct ios_zoned at offset @base in the owner's struct. */
#define IOS_ZONED_OFF(base, f) ((base) + offsetof(struct ios_zoned, f))
#define IOS_ZONED_ROWS(base, zsize, zcap, conv, mopen, mactive, zread_us, zread_mbps)	\
	{ "zone_size", IOS_TUN_SIZE, IOS_ZONED_OFF(base, zone_bytes), 1, 65536, zsize, "MiB",	\
	  "zone size; the capacity must be a whole number of zones", 0, NULL },		\
	{ "zone_capacity", IOS_TUN_SIZE, IOS_ZONED_OFF(base, zone_cap_bytes), 0, 65536, zcap,	\
	  "MiB", "writable part of each sequential zone; 0 = the zone size", 0, NULL },	\
	{ "conv_zones", IOS_TUN_INT, IOS_ZONED_OFF(base, conv_zones), 0, 1000000000, conv, "",	\
	  "conventional zones at the start of the device (written anywhere)", 0, NULL },	\
	{ "max_open_zones", IOS_TUN_INT, IOS_ZONED_OFF(base, max_open), 0, 1000000000, mopen,	\
	  "", "zones open for writing at once (queue/max_open_zones); 0 = no limit", 0, NULL }, \
	{ "max_active_zones", IOS_TUN_INT, IOS_ZONED_OFF(base, max_active), 0, 1000000000,	\
	  mactive, "", "open plus closed zones at once (queue/max_active_zones); 0 = no limit", \
	  0, NULL },									\
	{ "prefill", IOS_TUN_BOOL, IOS_ZONED_OFF(base, prefill), 0, 1, "0", "",		\
	  "1: start with every sequential zone full (written once); 0: every zone empty",	\
	  0, NULL },									\
	{ "zero_read_us", IOS_TUN_TIME, IOS_ZONED_OFF(base, zero_read_ns), 0, 100000, zread_us, \
	  "us", "command time of a read wholly above the write pointer (no media access)",	\
	  0, NULL },									\
	{ "zero_read_mbps", IOS_TUN_INT, IOS_ZONED_OFF(base, zero_read_mbps), 1, 100000,	\
	  zread_mbps, "MB/s", "bus rate of the zeroes such a read returns (10^6 bytes/s)",	\
	  0, NULL }

/* The SMR-only row: ZBC's URSWRZ bit. */
#define IOS_ZONED_URSWRZ_ROW(base, def)							\
	{ "urswrz", IOS_TUN_BOOL, IOS_ZONED_OFF(base, urswrz), 0, 1, def, "",		\
	  "1: reads above the write pointer return zeroes (ZBC unrestricted reads); "	\
	  "0: they fail with EIO", 0, NULL }

/* After the base init: derive the zones, set dev->zoned. 0 or -errno with @e. */
int ios_zoned_init(struct ios_dev *dev, struct ios_zoned *z, int model,
		   const struct ios_dev_ops *base, struct ios_err *e) IOS_MUST_CHECK;

/* The generic hooks of a zoned type (they find the zones through dev->zoned). */
void ios_zoned_exit(struct ios_dev *dev);
unsigned ios_zoned_caps(const struct ios_dev *dev);
unsigned ios_zoned_queue_depth(const struct ios_dev *dev);
int ios_zoned_submit(struct ios_dev *dev, struct ios_request *rq, uint64_t now_ns);
uint64_t ios_zoned_next_event(const struct ios_dev *dev);
struct ios_request *ios_zoned_complete(struct ios_dev *dev, uint64_t now_ns);
void ios_zoned_reset(struct ios_dev *dev);
int ios_zoned_ctl(struct ios_dev *dev, int op, void *arg);

#define IOS_ZONED_OPS(init_fn)								\
	{ .init = (init_fn), .exit = ios_zoned_exit, .caps = ios_zoned_caps,		\
	  .queue_depth = ios_zoned_queue_depth, .submit = ios_zoned_submit,		\
	  .next_event = ios_zoned_next_event, .complete = ios_zoned_complete,		\
	  .reset = ios_zoned_reset, .ctl = ios_zoned_ctl }

#endif
