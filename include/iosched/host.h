/*
 * The host: what sits under the request queue and keeps the run's time.
 *
 * The runner (run.h) builds one machine per run: tasks above, the request
 * queue with its scheduler in the middle, and a host below. The host does
 * three things and nothing else:
 *
 * - it serves the queue: issue() takes a dispatched request, and the host
 *   hands it back with ios_queue_complete(h->q, ...) when the disk is done;
 *   set_queue_timer() arms the scheduler's wake-up, which the host answers
 *   with ios_queue_timer(h->q, ...);
 * - it keeps the clock: now() is the run's time in nanoseconds, and every
 *   handler the host calls sees one instant;
 * - it runs the loop: run() dispatches the events of h->loop (every task
 *   wake-up, the page cache's flusher, its own completions and timers) until
 *   nothing is left or something calls ios_sim_stop(&h->loop).
 *
 * The wake-ups themselves are not an op. The tasks and the page cache arm
 * their timers on h->loop (sim.h) under every host: the event heap is the
 * one timer store of a run, and a host differs only in how it moves time
 * along it and where completions come from. That keeps this interface to
 * what the runner calls, and each op below is called by it.
 *
 * Today's one host is the simulator (src/run/host_sim.c, ios_host_sim_ops):
 * the device model is the disk, and run() jumps the clock from one event to
 * the next (ios_sim_run), so an hour of I/O takes a second.
 *
 * How the io_uring host will plug in (the next issue), with nothing in the
 * runner's phases changed:
 * - a file src/run/host_uring.c (built when the configure probe finds
 *   liburing) defines const struct ios_host_ops ios_host_uring_ops; the
 *   caller picks it with ios_run_config.host (the CLI's host flag), as the
 *   unit test tests/unit/run_host.c picks its recording host today;
 * - init() opens cfg->device (a block device or a file, O_DIRECT), sets up
 *   a ring of at least disk.depth entries, fills h->disk from the device
 *   (name, capacity, rotational, depth from sysfs) and takes the clock's
 *   origin (CLOCK_MONOTONIC), so now() is real nanoseconds since init;
 * - issue() preps one SQE for the request (read, write, or fsync for a
 *   flush; user_data = the request) and submits; it never completes inline,
 *   except for a submission error, which completes at once with the error
 *   as the simulated device's refusal does;
 * - set_queue_timer() is the sim host's, word for word: a timer on h->loop;
 * - run() is a loop of its own instead of ios_sim_run: wait for a CQE with
 *   a timeout at the next event of h->loop (ios_evq_peek_time; the timers
 *   are the loop's wake-ups), set h->loop.now to now(), complete every CQE
 *   reaped through ios_queue_complete, then pop and run each event already
 *   due, with h->loop.now held at the clock (never the event's earlier
 *   stamp: real time does not go back, and ios_sim_at takes the past for a
 *   bug), counting h->loop.nr_events and calling the loop's tick observer
 *   (progress) as ios_sim_run does. It moves h->loop.now only between two
 *   events, so a handler sees one instant, as under the simulator; it ends
 *   when the heap is empty and no request is in flight (h->q->rq_in_driver),
 *   or on h->loop.stop / h->loop.error;
 * - destroy() tears the ring down and closes the device.
 * The schedulers get the real time the same way they get simulated time:
 * as the now_ns of each queue call, which comes from h->loop.now.
 */
#ifndef IOSCHED_HOST_H
#define IOSCHED_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "sim.h"
#include "tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_queue;
struct ios_queue_host_ops;
struct ios_request;
struct ios_host;
struct ios_disk_stats;

/* The disk below the queue, as the host describes it after init(). */
struct ios_host_disk {
	char name[16];			/* block device name for the report: "sda" */
	const char *profile;		/* what messages call it: the device profile */
	uint64_t nr_sectors;		/* capacity in 512-byte sectors */
	unsigned depth;			/* commands it takes at once (tags): the legacy layer's */
	/*
	 * What the disk offers blk-mq (device.h, interface version 2): its
	 * hardware queues and the driver tags of each. 0 means 1 queue and
	 * @depth tags (the real host, which does not read them from sysfs yet).
	 */
	unsigned nr_hw_queues;
	unsigned hw_queue_depth;
	bool rotational;		/* seeks cost time */
	/* host-managed zoned (queue/zoned); the rest is 0 for a conventional disk */
	bool zoned;
	uint64_t zone_sectors;		/* queue/chunk_sectors */
	uint32_t nr_zones;		/* queue/nr_zones */
	uint32_t max_open_zones;	/* queue/max_open_zones; 0: no limit */
	uint32_t max_active_zones;	/* queue/max_active_zones; 0: no limit */
	bool prio;			/* honours a request's own priority (IOS_DEV_PRIO) */
	bool write_cache;		/* queue/write_cache "write back" (IOS_DEV_WRITE_CACHE) */
};

struct ios_host_config {
	const char *device;		/* sim: a device profile (device.h), NULL the default */
	struct ios_settings *settings;	/* device.* settings, marked used when taken */
	uint64_t seed;			/* the run's seed */
};

/*
 * A file on a real host's disk (attach()). The runner lays files out in the
 * queue's sector space as it does on a simulated disk (lab.fs=raw: one
 * contiguous extent each, aligned), and the host maps each request back to
 * (file, offset) when it issues it. A request never spans two files: the
 * extents are apart, and merging needs adjacent sectors.
 */
struct ios_host_file {
	const char *path;		/* as the job names it: relative to the cwd */
	uint64_t start_sector;		/* where the queue sees its first byte */
	uint64_t size;			/* bytes it has once attached */
	unsigned flags;			/* IOS_HOST_FILE_* */
};
#define IOS_HOST_FILE_CREATE	0x01u	/* create it when missing, and grow it to size; without
					 * it, it must be there at size (fio --readonly) */
#define IOS_HOST_FILE_FILL	0x02u	/* write it out to size before the run (fio's layout) */
#define IOS_HOST_FILE_DIRECT	0x04u	/* a job uses direct=1 on it: O_DIRECT must work */
#define IOS_HOST_FILE_WRITE	0x08u	/* written during the run */
#define IOS_HOST_FILE_DEV	0x10u	/* a block device: the whole disk, at sector 0 */
#define IOS_HOST_FILE_MOUNTED_OK 0x20u /* a write to it while mounted is allowed */

struct ios_host_ops {
	const char *name;
	size_t priv_size;		/* h->priv is this many bytes, zeroed */
	/* Fill h->disk. 0 or -errno with @e filled. */
	int (*init)(struct ios_host *h, const struct ios_host_config *cfg, struct ios_err *e);
	/* Free what init allocated; every request has completed. */
	void (*destroy)(struct ios_host *h);
	/* The run's time in ns. */
	uint64_t (*now)(struct ios_host *h);
	/* The queue dispatched @rq at @now_ns; complete it through ios_queue_complete. */
	void (*issue)(struct ios_host *h, struct ios_request *rq, uint64_t now_ns);
	/*
	 * Call ios_queue_timer(h->q, t) at @when_ns (now if that has passed);
	 * IOS_NO_WAKEUP cancels, a new call replaces the last.
	 */
	void (*set_queue_timer)(struct ios_host *h, uint64_t when_ns);
	/* Run h->loop until it is idle or stopped. 0 or the loop's first error. */
	int (*run)(struct ios_host *h);
	/*
	 * Optional: a device ctl (device.h's IOS_DEV_CTL_*), such as a zone
	 * report or a zone reset of a zoned disk. NULL or -ENOTSUP: not there.
	 */
	int (*dev_ctl)(struct ios_host *h, int op, void *arg);
	/*
	 * Optional (real hosts): open, create or lay out @f so requests to its
	 * sectors reach it. 0 or -errno with @e naming the file. NULL: the
	 * host's disk is simulated and needs no files.
	 */
	int (*attach)(struct ios_host *h, const struct ios_host_file *f, struct ios_err *e);
	/*
	 * Optional: the backing device's /proc/diskstats over the run, for the
	 * report's disk_util (block.h's struct; name filled). 0 or -errno.
	 */
	int (*disk_stats)(struct ios_host *h, char name[16], struct ios_disk_stats *st);
};

struct ios_host {
	const struct ios_host_ops *ops;
	struct ios_sim loop;		/* the run's events and timers, and its clock */
	struct ios_timer q_timer;	/* the scheduler's wake-up, on the loop */
	struct ios_queue *q;		/* the queue on top, set once it exists */
	struct ios_host_disk disk;	/* filled by init */
	/*
	 * The first fault a real host met (a refused O_DIRECT, a short read,
	 * EIO from the kernel), naming the file and offset; "" when none. The
	 * runner puts it in the run's warnings: the job's err= says only errno.
	 */
	char note[320];
	/*
	 * A real host's run asked to stop (ios_host_interrupt): called once,
	 * from the run loop, so the runner stops every job as fio's signal
	 * handler does (they stop issuing; what is in flight completes).
	 */
	void (*interrupt)(struct ios_host *h, void *arg);
	void *interrupt_arg;
	/*
	 * A simulated host's run stops at this simulated time even if events
	 * remain (0: none). The runner sets it a day past lab.max_sim_time:
	 * by then every job has stopped issuing and what was in flight had a
	 * day to complete, so a run still going is stalled (an I/O that never
	 * completes while a periodic timer keeps the clock moving), and is
	 * reported as such instead of looping forever.
	 */
	uint64_t run_until;
	void *priv;
};

/*
 * SIGINT/SIGTERM under --real: ask the running real host to stop, as fio
 * stops on a signal (the jobs stop, in-flight I/O is reaped, the report of
 * what was done is printed). Async-signal-safe: it only sets a flag, which
 * stays set for the rest of the process. @sig is what interrupted() says.
 */
void ios_host_interrupt(int sig);
/* The signal ios_host_interrupt was given, or 0. */
int ios_host_interrupted(void);

/* The simulated device under the event loop (src/run/host_sim.c). */
extern const struct ios_host_ops ios_host_sim_ops;
/*
 * Real files and devices through io_uring (src/run/host_uring.c), with
 * CLOCK_MONOTONIC as the clock. cfg->device is a path (a directory, a file
 * or a block device, NULL "."): its backing device gives the disk's name,
 * depth and rotational flag from sysfs.
 */
extern const struct ios_host_ops ios_host_uring_ops;
/* Its device.* settings (--set device.queue_depth=N), for 'iosched list'. */
extern const struct ios_tunable ios_host_uring_dev_tunables[];

/*
 * The queue's side of a host (block.h): pass as ios_queue_config.host_ops
 * with the host as .host; it forwards to issue() and set_queue_timer().
 */
extern const struct ios_queue_host_ops ios_host_queue_ops;

/*
 * Allocate a host, start its loop and init() it: 0 with *@out set, or
 * -errno (init's own, with @e as init filled it) and *@out NULL.
 */
int ios_host_create(const struct ios_host_ops *ops, const struct ios_host_config *cfg,
		    struct ios_host **out, struct ios_err *e) IOS_MUST_CHECK;
/*
 * set_queue_timer() for a host whose wake-ups are events on h->loop (both
 * hosts': the loop is the one timer store of a run): h->q_timer re-armed,
 * never earlier than the loop's now.
 */
void ios_host_loop_set_queue_timer(struct ios_host *h, uint64_t when_ns);
/* destroy() and free; NULL is fine. */
void ios_host_destroy(struct ios_host *h);

#ifdef __cplusplus
}
#endif

#endif
