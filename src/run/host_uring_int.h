/*
 * The io_uring host's private state (host_uring.c runs the ring and the
 * loop; host_uring_files.c finds the disk, opens and lays out the files,
 * reads /proc/diskstats and words the faults).
 */
#ifndef IOSCHED_HOST_URING_INT_H
#define IOSCHED_HOST_URING_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "iosched/block.h"
#include "iosched/host.h"
#include "iosched/rand.h"

#ifdef IOS_HAVE_LIBURING
#include <liburing.h>
#endif

/* One attached file: an extent of the queue's sectors. */
struct hu_file {
	char *path;
	int fd;
	uint64_t start;			/* first sector in the queue's space */
	uint64_t nr_sectors;		/* extent length */
	uint64_t base;			/* byte offset in the file of the extent's start */
	uint64_t eof;			/* its size once attached: a read may stop there */
	bool written;			/* a write was sent: a flush fdatasyncs it */
	bool direct;			/* opened O_DIRECT */
};

struct host_uring {
#ifdef IOS_HAVE_LIBURING
	struct io_uring ring;
#endif
	struct ios_host *host;		/* the host this is the private part of */
	int ring_fd;			/* -1: no ring */
	uint64_t t0;			/* CLOCK_MONOTONIC at init */
	unsigned inflight;		/* requests the kernel has */
	unsigned to_submit;		/* SQEs prepared, not yet submitted */
	bool interrupted;		/* h->interrupt has been called */
	void *scratch;			/* what tasks' requests read into and write from */
	uint64_t scratch_bytes;
	void **retired;			/* outgrown scratch buffers, freed at destroy */
	size_t nr_retired;
	struct hu_file *files;		/* sorted by start */
	size_t nr_files, cap_files;
	/* the disk */
	char probe[512];		/* the path init described the disk from */
	bool is_dev;			/* the probe path is a block device */
	dev_t backing;			/* its device number; 0: none (tmpfs, overlay) */
	bool have_stats;		/* /proc/diskstats has the backing disk */
	struct ios_disk_stats ds0;	/* its counters at init */
	/*
	 * Tests only: opens a file in attach() instead of open(2), so a unit
	 * test can make a file system refuse O_DIRECT where none here does
	 * (tests/unit/host_uring_faults.c). NULL: open(2).
	 */
	int (*open_fn)(const char *path, int flags, mode_t mode);
};

static inline uint64_t ios_hu_mix(uint64_t x)
{
	return ios_mix64(x);
}

/* The attached file holding @sector, or NULL. */
struct hu_file *ios_hu_file_at(struct host_uring *hu, uint64_t sector);
/* Fill h->disk from cfg->device's backing device (sysfs). */
int ios_hu_probe_disk(struct ios_host *h, const struct ios_host_config *cfg, struct ios_err *e);
void ios_hu_probe_free(struct host_uring *hu);
int ios_hu_attach(struct ios_host *h, const struct ios_host_file *f, struct ios_err *e);
int ios_hu_disk_stats(struct ios_host *h, char name[16], struct ios_disk_stats *st);
/* The first fault of the run, kept in h->note for the report. */
void ios_hu_fault(struct host_uring *hu, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ios_hu_fault_rq(struct host_uring *hu, const struct ios_request *rq, int err);
void ios_hu_fault_short(struct host_uring *hu, const struct ios_request *rq, uint64_t done);

#endif
