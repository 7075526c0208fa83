/*
 * The application API: put an application's own I/O through one of the
 * lab's schedulers (cfq profiles, bfq, deadline, as, noop).
 *
 * One struct ios_app is one host (simulated disk, or later a real path
 * through io_uring), one request queue with its scheduler, the files laid
 * out on it and the tenants (submitters: an io context each) that issue
 * I/O. Everything runs on the caller's thread: ios_app_submit() queues,
 * ios_app_wait() runs the host's event loop until enough callbacks ran.
 * Calls on one app are serialized: one made while another thread is inside
 * a call on it is -EBUSY; a closed handle is -EBADF (docs/library.md,
 * "Lifetime and misuse", says which misuses are errors and which undefined).
 *
 * Every function returns 0 (or an id, a count) or a negative errno with
 * @e (may be NULL) saying why; none prints, exits or aborts on bad input.
 */
#ifndef IOSCHED_APP_H
#define IOSCHED_APP_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_app;

enum ios_app_host {
	IOS_APP_SIM = 0,	/* the simulated disk: time moves only inside ios_app_wait */
	IOS_APP_REAL,		/* real files under a path (io_uring host; see docs/library.md) */
};

struct ios_app_config {
	const char *scheduler;		/* NULL: "cfq" */
	enum ios_app_host host;
	const char *device;		/* sim: device profile (NULL default); real: a path */
	uint64_t seed;			/* sim: the run's seed */
	const char *const *settings;	/* NAME=VALUE as --set, NULL-terminated; may be NULL */
};

/* ios_app_add_file() flags: IOS_HOST_FILE_* (host.h) with the same values */
#define IOS_APP_FILE_CREATE	0x01u
#define IOS_APP_FILE_FILL	0x02u
#define IOS_APP_FILE_WRITE	0x08u

struct ios_app_tenant {
	const char *name;		/* for traces and stats */
	uint32_t pid;			/* for traces; 0: assigned */
	int ioprio_class;		/* 0 none (from nice), 1 rt, 2 be, 3 idle */
	int ioprio_level;		/* 0..7 */
	int nice;			/* -20..19, used with class none */
	const char *cgroup;		/* NULL or "": the root; "a/b" nested */
	unsigned weight;		/* the cgroup's weight; 0: the scheduler's default */
	/*
	 * The CPU it submits from (ios_ioc.cpu): on a blk-mq queue its bios
	 * enter that CPU's software context and go to the hardware queue the
	 * CPU maps to; 0..lab.cpus-1 (ios_app_config.settings "lab.cpus=N",
	 * default 1). The single-queue layer ignores it.
	 */
	unsigned cpu;
};

/* ios_app_submit() flags */
#define IOS_APP_SYNC	0x1u		/* a sync write (reads are always sync) */

enum { IOS_APP_READ = 0, IOS_APP_WRITE = 1 };

typedef void (*ios_app_done_fn)(void *arg, int error, uint64_t latency_ns);

struct ios_app_tenant_stats {
	uint64_t ios, bytes;		/* completed I/Os (as submitted) and their bytes */
	uint64_t errors;
	uint64_t lat_sum_ns;		/* mean latency: lat_sum_ns / ios */
	uint64_t disk_time_ns;		/* the scheduler's time charged to its cgroup (0: none) */
};

struct ios_app *ios_app_open(const struct ios_app_config *cfg, struct ios_err *e);
/*
 * Drain what is in flight, then free everything; 0, also for NULL. From a
 * callback: 0, the app is closed at once (every later call on it is
 * -EBADF) and drained and freed when the ios_app_wait that ran the callback
 * returns. -EBADF: not an open app; -EBUSY: another thread is in a call on it.
 */
int ios_app_close(struct ios_app *app);

/* A file of @size bytes; returns its id (>= 0) or -errno. */
int ios_app_add_file(struct ios_app *app, const char *path, uint64_t size, unsigned flags,
		     struct ios_err *e);
/* A tenant; returns its id (>= 0) or -errno. */
int ios_app_tenant_add(struct ios_app *app, const struct ios_app_tenant *t, struct ios_err *e);
/* Change a tenant's class and level (ioprio_set): the scheduler applies it at its next request. */
int ios_app_tenant_set_prio(struct ios_app *app, int tenant, int ioprio_class, int level,
			    struct ios_err *e);
/*
 * Write @value to cgroup v2 file @file ("io.max", "io.weight", "io.latency",
 * "io.prio.class", "io.bfq.weight"; "io.cost.qos" and "io.cost.model" on
 * the root, @path NULL or "") of group @path ("a/b", made if missing, as
 * mkdir -p would), as writing /sys/fs/cgroup/PATH/FILE would on Linux 6.12:
 * the file's own parser decides (-EINVAL, -ERANGE, -ENODEV with its
 * message; a refused write changes nothing). -EOPNOTSUPP on a
 * single-queue scheduler; -ENOENT: no such file on that level. The group
 * tree and the controllers the files ask for are built at the first
 * ios_app_submit; after it a write is taken only where the controller
 * re-reads the file (io.max, io.latency, io.weight and io.cost.* under
 * io.cost), else -EALREADY. Tenants join groups by ios_app_tenant.cgroup.
 */
int ios_app_cgroup_write(struct ios_app *app, const char *path, const char *file,
			 const char *value, struct ios_err *e);
/* The warnings so far (ignored weights, ...), NULL past the last. */
const char *ios_app_warning(const struct ios_app *app, size_t i);

/*
 * Queue @len bytes at @offset of @file for @tenant; @done(@arg, error,
 * latency) runs exactly once, from inside ios_app_wait() or close. A
 * callback may submit; it may not wait (-EBUSY).
 * @buf: the bytes (real host: 4096-aligned); NULL is fine on the sim host.
 */
int ios_app_submit(struct ios_app *app, int tenant, int file, int dir, uint64_t offset,
		   uint64_t len, void *buf, unsigned flags, ios_app_done_fn done, void *arg,
		   struct ios_err *e);
/*
 * Run until @min_done callbacks ran since the call, @timeout_ns passed
 * (0: no timeout) or nothing is in flight. Returns the callbacks run, or -errno.
 * If a callback closed the app, the rest are drained (and counted) and the
 * app is freed before it returns.
 */
long ios_app_wait(struct ios_app *app, unsigned min_done, uint64_t timeout_ns, struct ios_err *e);
/* The app's time in ns (simulated or CLOCK_MONOTONIC since open). */
uint64_t ios_app_now(const struct ios_app *app);
/* I/Os submitted and not yet called back. */
unsigned ios_app_in_flight(const struct ios_app *app);

/* A scheduler tunable ("slice_idle") or a queue one ("queue.nr_requests"). */
int ios_app_set(struct ios_app *app, const char *name, const char *value, struct ios_err *e);
/* -ENOSPC (and "") if @len cannot hold the value and its NUL; @buf NULL, @len 0: the size needed. */
int ios_app_get(struct ios_app *app, const char *name, char *buf, size_t len, struct ios_err *e);

int ios_app_tenant_stats(struct ios_app *app, int tenant, struct ios_app_tenant_stats *st,
			 struct ios_err *e);

#ifdef __cplusplus
}
#endif

#endif
