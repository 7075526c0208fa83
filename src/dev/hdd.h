/*
 * The hdd model's private structures (internal), shared by src/dev/hdd.c,
 * the disksim device that builds an hdd from a DiskSim spec
 * (src/dev/disksim.c) and the table geometry (src/dev/hdd_geom.c).
 * Nothing outside src/dev includes this.
 */
#ifndef IOS_DEV_HDD_H
#define IOS_DEV_HDD_H

struct ios_hdd_geom;

#include <stdbool.h>
#include <stdint.h>
#include "iosched/device.h"
#include "core/builtin.h"

#define HDD_PHASE_REV 60000000000ULL	/* angle units per revolution: ns x rpm */
#define HDD_ROT_SLACK_NS 4		/* "just passed" tolerance for rounding */
#define HDD_DESTAGE_MAX 512		/* sectors per background write (256 KiB) */
#define HDD_DESTAGE_SCAN 32		/* oldest dirty extents considered per destage */
#define HDD_MIN_SPT 16			/* fewest sectors per track we accept */
#define HDD_TIME_MAX UINT64_MAX

enum { HDD_NCQ_FCFS, HDD_NCQ_SATF };

enum hdd_mech { HDD_IDLE, HDD_CMD, HDD_DESTAGE, HDD_RA };

struct hdd_zone {
	uint64_t first_lba, nr_lba;
	uint32_t first_cyl, nr_cyl;
	uint32_t spt;				/* sectors per track */
	uint32_t head_skew, cyl_skew;		/* sectors */
};

struct hdd_loc {
	uint32_t zone, cyl, head, sect, spt;
	uint64_t phase;				/* angle of the sector's start */
	uint32_t run;				/* LBAs from this one in a row on the track */
	bool tstart;				/* the LBA before is on another track */
	bool cylchg;				/* ... and on another cylinder */
};

struct hdd_seg {
	bool valid;
	uint64_t start, end;			/* cached sectors [start, end) */
	uint64_t hwm;				/* furthest sector the host read from it */
	uint64_t lru;
};

struct hdd_extent {
	struct ios_list_head node;
	uint64_t lba, n;
	uint64_t epoch;				/* flushes issued before it was created */
};

/*
 * Read-ahead. While valid, the head sits right after the segment's data and
 * can stream on. The checkpoint (lba0, t0, cont) says where streaming stands:
 * lba0 is the next sector to read; with cont the head finished lba0 - 1 at
 * t0, otherwise it is on lba0's track at t0 waiting for the sector.
 */
struct hdd_ra {
	bool valid;
	struct hdd_seg *seg;
	uint64_t lba0, t0;
	bool cont;
	uint64_t target;			/* stop once this sector is read */
	uint64_t must;				/* a pending hit needs data up to here */
	uint64_t end_t, must_t;			/* when target / must are reached */
};

struct hdd {
	struct ios_dev dev;
	/*
	 * A geometry given as tables (a DiskSim spec: src/dev/disksim.c), or
	 * NULL for the profiles' derived one. Set before init; not owned.
	 */
	const struct ios_hdd_geom *geom;

	/* tunables */
	uint64_t capacity;
	int rpm, heads, zones, outer_mbps, inner_mbps;
	uint64_t seek_track_ns, seek_avg_ns, seek_full_ns, write_settle_ns;
	uint64_t head_switch_ns, cyl_switch_ns;
	uint64_t cmd_overhead_ns, hit_overhead_ns;
	int interface_mbps;
	uint64_t cache_bytes;
	int cache_segments, read_cache, read_ahead;
	uint64_t read_ahead_max_bytes;
	int write_cache, queue_depth, ncq_policy, ncq_prio;
	uint64_t ncq_age_ns;
	uint64_t destage_delay_ns;

	/* derived geometry */
	struct hdd_zone *zone;
	uint32_t nr_zones, nr_cyl;
	double seek_a, seek_b, seek_c;		/* Lee's curve, in ns */
	uint64_t seg_cap, ra_max, wc_cap;	/* sectors */
	struct hdd_seg *seg;
	uint32_t nr_segs;

	/* state */
	uint64_t now;
	uint32_t cur_cyl, cur_head;
	enum hdd_mech mech;
	uint64_t mech_start, mech_end;
	struct ios_request *mech_rq;
	struct hdd_extent *mech_ext;
	uint64_t mech_n;
	struct hdd_ra ra;
	struct ios_list_head queue;		/* media commands; dev_ns = ready time */
	struct ios_list_head space_wait;	/* writes waiting for cache room; dev_ns = ready */
	bool wc_catch_up;			/* the cache filled: destage down to half */
	struct ios_list_head flush_wait;	/* flushes; dev_ns = flush epoch */
	struct ios_list_head done;		/* finished; dev_ns = completion time */
	struct ios_list_head dirty;		/* extents in creation order */
	struct ios_list_head ext_free;
	uint64_t dirty_sectors, epoch, lru_clock, bus_free;
	unsigned outstanding;
	uint64_t last_host_t;			/* the host's last command or completion */
	bool last_write;			/* the last command handed back was a write */
	/* where and when the head last finished transferring, for free-block reads */
	uint64_t head_lba, head_t;
	uint64_t mech_fill;			/* a media read's data starts here in the segment */
	struct ios_dev_counters cnt;
};

#endif
