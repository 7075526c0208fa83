/*
 * disksim_parse: the reader of DiskSim 4.0 parameter files (internal).
 *
 * DiskSim describes a drive in its own syntax: blocks "TYPE NAME { Name =
 * value, ... }" whose values are numbers, words, "[ lists ]", nested
 * "TYPE { ... }" blocks or "source FILE" (a file holding one block),
 * top-level "source FILE" includes, "instantiate [ names ] as NAME" and a
 * "topology" tree. ios_disksim_load() reads a .parv or .diskspecs file
 * (includes resolved relative to the including file), finds the drive (the
 * disksim_disk instantiated, or the only one), and fills struct
 * ios_disksim_spec with what the hdd model uses. Parameters the model does
 * not honour are collected as notes, one each; an unparseable file, an
 * unknown block or parameter, a bad number, a seek table out of order or a
 * zone table that does not cover the block count is an error naming file,
 * line and parameter. Where each parameter goes: docs/disksim.md.
 */
#ifndef IOS_DEV_DISKSIM_PARSE_H
#define IOS_DEV_DISKSIM_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iosched/err.h"

/* DiskSim's sparing schemes (diskmodel/layout_g1.h numbering) */
enum {
	IOS_DSK_SPARE_NONE = 0,
	IOS_DSK_SPARE_TRACK = 1,	/* spare tracks at the end of the zone */
	IOS_DSK_SPARE_CYL = 2,		/* spare sectors at the end of each cylinder */
	IOS_DSK_SPARE_TRACKSECT = 3,	/* spare sectors at the end of each track */
	IOS_DSK_SPARE_ATEND = 7,	/* spare sectors at the end of the zone */
	IOS_DSK_SPARE_RANGE = 8,	/* spare sectors at the end of each range of cylinders */
	IOS_DSK_SPARE_ZONE = 9,		/* spare sectors at the end of the zone */
};

struct ios_dsk_zone {
	uint32_t first_cyl, last_cyl, spt;
	double first_offset, track_skew, cyl_skew;	/* in sectors */
	uint64_t empty_front;				/* sectors before the zone's first LBN */
	uint32_t spares;
	uint64_t *slips;				/* zone-relative physical sectors, sorted */
	size_t nr_slips;
	const char *file;				/* where the zone was given */
	int line;
};

struct ios_disksim_spec {
	char name[128];			/* the disksim_disk's name */
	uint32_t surfaces, cylinders;
	uint64_t blocks;
	int sparing;			/* IOS_DSK_SPARE_* */
	uint32_t rangesize;
	struct ios_dsk_zone *zones;
	size_t nr_zones;
	double rpm, head_switch_ms, settle_ms;
	uint32_t *seek_dist;		/* the .seek table, distances increasing */
	double *seek_ms;
	size_t nr_seek;
	double bulk_sector_ms;		/* bus time per sector */
	double bus_read_blk_ms, bus_write_blk_ms;	/* the drive's bus (topology): block transfer times */
	double read_water;		/* High (read) water mark, a fraction */
	int reqwater;			/* Set watermark by reqsize */
	double read_hit_ms, read_miss_ms, write_miss_ms;	/* after a command of the same kind */
	/*
	 * The other overheads DiskSim picks by the previous command
	 * (disk_read_arrive, disk_write_arrive): read hit/miss after a write,
	 * write miss after a read, write hit after a read/write (used with a
	 * Fast write level). A spec that leaves one out gets its counterpart.
	 */
	double read_hit_aw_ms, read_miss_aw_ms, write_miss_ar_ms;
	double write_hit_ar_ms, write_hit_aw_ms;
	double read_complete_ms, write_complete_ms;	/* Read/Write completion overhead */
	int nr_segments, segment_blks, max_read_ahead, enable_cache, continuous_read;
	int fast_write, max_queue, sched_policy;
	/*
	 * Read-ahead rules (DiskSim 4.0 names): Minimum read-ahead (blks),
	 * Read-ahead over requested (-1..1), Read-ahead on idle hit, Stop
	 * prefetch in sector (0/1; a spec that leaves one out gets 1).
	 */
	int min_read_ahead, ra_over_requested, ra_idle_hit, stop_in_sector;
	char **notes;			/* parameters not honoured, one line each */
	size_t nr_notes;
	char *path;			/* the file loaded */
	char **files;			/* every file read (the zones point into these) */
	size_t nr_files;
};

/*
 * How files are read: the default reads the file system. A reader fills
 * *@buf (malloc'd, the caller frees) and *@len, or returns -errno. The
 * fuzzer passes its own.
 */
typedef int (*ios_dsk_read_fn)(void *arg, const char *path, char **buf, size_t *len);

int ios_disksim_load(const char *path, ios_dsk_read_fn rd, void *arg,
		     struct ios_disksim_spec *s, struct ios_err *e);
void ios_disksim_spec_free(struct ios_disksim_spec *s);
/* Add a note (kept once); 0 or -ENOMEM. */
int ios_disksim_note(struct ios_disksim_spec *s, const char *text, struct ios_err *e);

struct ios_settings;
struct ios_dev;
/*
 * The device for "--device disksim:PATH" (src/dev/disksim.c), reached
 * through ios_dev_create(): the spec's hdd, then the user's device.NAME
 * settings for the tunables that still act. NULL with @e filled.
 */
struct ios_dev *ios_dev_disksim_create(const char *path, struct ios_settings *set,
				       uint64_t seed, struct ios_err *e);

#endif
