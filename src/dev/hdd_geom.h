/*
 * hdd_geom: an hdd geometry given as tables (internal), as a DiskSim drive
 * specification gives it: the zone table as listed (first and last
 * cylinder, sectors per track, first-block offset, track and cylinder skew,
 * empty space at the zone's front, spares and slipped sectors under one of
 * DiskSim's sparing schemes), the seek time as a measured table of
 * (distance, time) points, linearly interpolated, a signed write settle, a
 * bus time per sector and a write command overhead. src/dev/hdd.c uses it
 * instead of its derived geometry when struct hdd's geom is set.
 *
 * The mapping of logical to physical sectors is DiskSim's dm_layout_g1
 * (diskmodel/layout_g1.c in DiskSim 4.0, read for this; our own code): in a
 * zone, physical sectors are numbered track by track, surface by surface,
 * cylinder by cylinder; the zone is cut into sparing units (a track, a
 * cylinder, a range of cylinders, or the whole zone) whose last sectors are
 * spares; the zone's first "empty space" usable sectors hold no LBN; a
 * slipped sector is skipped and the LBNs after it in its unit move up one.
 * A sector's angle is the zone's first-block offset plus a track skew per
 * track switch and a cylinder skew per cylinder switch from the zone's
 * start (plus, for the per-track and per-cylinder schemes, one sector per
 * slip before the track, as DiskSim's g1_map_pbn_skew does).
 */
#ifndef IOS_DEV_HDD_GEOM_H
#define IOS_DEV_HDD_GEOM_H

#include <stdbool.h>
#include <stdint.h>
#include "iosched/err.h"
#include "dev/disksim_parse.h"

struct hdd;
struct hdd_loc;

struct ios_hdd_gzone {
	uint64_t first_lba, nr_lba;
	uint32_t first_cyl, nr_cyl, spt;
	uint64_t off_m, tskew_m, cskew_m;	/* first-block offset and skews, 1/1000 sector */
	uint64_t unit;				/* physical sectors per sparing unit */
	uint32_t spares;			/* spare sectors at each unit's end */
	uint64_t empty;				/* usable sectors before LBN first_lba */
	uint64_t nr_units;
	uint64_t *unit_slot;			/* first usable slot of each unit, nr_units + 1 */
	uint64_t *slips;			/* zone-relative physical sectors, sorted */
	uint64_t nr_slips;
	bool slip_skew;				/* slips push later tracks' angle */
};

struct ios_hdd_geom {
	uint32_t heads, nr_cyl, nr_zones;
	struct ios_hdd_gzone *zone;
	uint64_t nr_sectors;
	uint32_t nr_seek;
	uint32_t *seek_dist;			/* increasing */
	double *seek_ns;
	int64_t settle_ns;			/* added to write seeks; may be negative */
	/*
	 * Bus time per sector, by IOS_READ/IOS_WRITE: the larger of the
	 * drive's Bulk sector transfer time and its bus's block transfer time
	 * (DiskSim's disk_get_blktranstime).
	 */
	uint64_t bus_sector_ns[2];
	/*
	 * A read miss reconnects to the bus once this many of its blocks are
	 * in the buffer (DiskSim's watermark, disk_read_arrive and
	 * disk_request_needs_bus): High (read) water mark x the request's size
	 * (at least 1) with Set watermark by reqsize, x the segment otherwise.
	 * read_water_m is the mark in 1/1000000.
	 */
	uint64_t read_water_m;
	bool reqwater;
	uint64_t seg_blks;
	uint64_t write_overhead_ns;		/* controller time per write command */
	/*
	 * DiskSim picks a command's overhead by the direction of the last
	 * command the drive completed (disk_read_arrive, disk_write_arrive in
	 * src/disksim_diskctlr.c, lastflags): write_overhead_ns above is the
	 * one after a write, these the others. A write's are the "hit" ones
	 * with a Fast write level, the "miss" ones without.
	 */
	uint64_t read_miss_aw_ns, read_hit_aw_ns;	/* a read after a write */
	uint64_t write_overhead_ar_ns;			/* a write after a read */
	/*
	 * Read/Write completion overhead: the time from the end of a
	 * command's transfer to the host seeing it complete (DiskSim's
	 * disk_request_complete sends the completion up after it).
	 */
	uint64_t complete_ns[2];			/* by IOS_READ, IOS_WRITE */
	/*
	 * DiskSim 4.0's read-ahead rules (src/dev/hdd.c applies them):
	 * Buffer continuous read (0 none, 1 to the track's end, 2 to the
	 * cylinder's end, 3 to the segment's or Maximum read-ahead, 4 DEC's
	 * one track ahead), Minimum/Maximum read-ahead (blks) as
	 * disk_postpass_perdisk (src/disksim_disk.c) leaves them, Read-ahead
	 * over requested, Read-ahead on idle hit, Stop prefetch in sector.
	 */
	int contread;
	uint64_t min_ra, max_ra;
	bool ra_over_req, ra_idle_hit, stop_in_sector;
};

/* Build from a parsed spec; 0 or -errno with @e naming the spec's file. */
int ios_hdd_geom_build(struct ios_hdd_geom *g, const struct ios_disksim_spec *s,
		       struct ios_err *e);
void ios_hdd_geom_free(struct ios_hdd_geom *g);

/* Where @lba lies: zone, cylinder, head, sector, angle, run, track start. */
void ios_hdd_geom_locate(const struct ios_hdd_geom *g, uint64_t lba, struct hdd_loc *l);

/* The seek of @d cylinders from the table (+ the settle for a write), >= 0. */
uint64_t ios_hdd_geom_seek_ns(const struct ios_hdd_geom *g, uint32_t d, bool write);

/* How far read-ahead may go after a read of [@a, @b) (DiskSim's rules). */
uint64_t ios_hdd_geom_ra_goal(const struct ios_hdd_geom *g, uint64_t seg, uint64_t seg_start,
			      uint64_t a, uint64_t b);
/* Where read-ahead must stop on the way to @goal, @last being the last sector read. */
uint64_t ios_hdd_geom_ra_cap(const struct ios_hdd_geom *g, uint64_t last, uint64_t goal);

/* Fill the hdd's zone array from @g (zone rates, counters). */
int ios_hdd_geom_zones(struct hdd *h, struct ios_err *e);

#endif
