/*
 * Checking a disk model against a measured drive, as DiskSim 4.0's
 * validation suite does (issue 31).
 *
 * A DiskSim "validate" trace (src/disksim_iotrace.c,
 * iotrace_validate_get_ioreq_event) has one request per line, six fields
 * separated by blanks:
 *
 *	R|W  Hit|Miss|Doub|Trip  BLKNO  BCOUNT  SERVTIME_US  NEXTINTER_US
 *
 * BLKNO and BCOUNT are 512-byte blocks, SERVTIME_US is the drive's measured
 * access time of this request and NEXTINTER_US the delay, after this
 * request completes, before the next one arrives (the trace was taken with
 * one request outstanding). ios_validate_run replays it that way against one
 * device, with no scheduler and no block layer, and keeps the measured and
 * the simulated access time of every request.
 *
 * The demerit is what DiskSim's rms tool (src/rms.c) prints: both sets of
 * times are binned into DiskSim's "access time" distribution (statdefs:
 * 1750 buckets, scale 1000, start 0 step 1 grow 1: 1-us buckets up to
 * 100 us, then each bucket 1% wider, src/disksim_stat.c), each
 * distribution is read as a cumulative curve (x: the bucket's start in ms,
 * y: the fraction of times below it, up to the first point where y reaches
 * 1), and the demerit is the root mean square, over the quantiles 0.0001,
 * 0.0002, ... 1.0, of the difference between the two curves' x at that
 * quantile (linear interpolation between points), in ms.
 */
#ifndef IOSCHED_VALIDATE_H
#define IOSCHED_VALIDATE_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_dev;
struct ios_buf;

/* One trace line. */
struct ios_dstrace_rec {
	uint64_t blkno;			/* 512-byte blocks */
	uint32_t bcount;		/* blocks, 1..IOS_DSTRACE_MAX_BCOUNT */
	uint8_t dir;			/* IOS_READ or IOS_WRITE */
	double serv_us;			/* measured access time */
	double next_us;			/* delay after completion before the next arrival */
	uint32_t line;
};

#define IOS_DSTRACE_MAX_BCOUNT 65536u	/* 32 MiB: more than any validation trace asks */
/* a time field's bound: 10^12 us, 11.6 days (the replay's clock is ns in 64 bits) */
#define IOS_DSTRACE_MAX_US 1e12
#define IOS_DSTRACE_MAX_LINE 200	/* DiskSim reads lines with fgets(line, 200) */

struct ios_dstrace {
	char *name;			/* the file's name, for messages */
	struct ios_dstrace_rec *v;
	size_t n, cap;
	uint64_t reads, writes;
};

/*
 * Read a validate trace from @path (or from @data, @len bytes, named @name).
 * 0, or -EINVAL with @e naming file and line (malformed or missing field,
 * negative time, a line too long), -ENOENT / -EIO for the file, -ENOMEM.
 */
int ios_dstrace_read(const char *path, struct ios_dstrace **out, struct ios_err *e) IOS_MUST_CHECK;
int ios_dstrace_parse(const char *name, const char *data, size_t len, struct ios_dstrace **out,
		      struct ios_err *e) IOS_MUST_CHECK;
void ios_dstrace_free(struct ios_dstrace *t);

/*
 * A cumulative distribution curve as DiskSim prints it and rms reads it:
 * x in ms ascending, y the cumulative fraction, the last y >= 1.
 */
struct ios_validate_curve {
	double *x, *y;
	size_t n;
};

/* Bin @n times (ms) into DiskSim's access-time distribution and make @c's curve. */
int ios_validate_curve_make(const double *ms, size_t n, struct ios_validate_curve *c) IOS_MUST_CHECK;
void ios_validate_curve_free(struct ios_validate_curve *c);
/*
 * rms's compute_rms: the RMS difference of the two curves' inverse over
 * the quantiles 0.0001 .. 1.0 in steps of 0.0001 (ms). Each curve must start
 * at y == 0 and end at y >= 1 with y non-decreasing; otherwise NaN.
 */
double ios_validate_rms(const struct ios_validate_curve *a, const struct ios_validate_curve *b);

/* The measured and the simulated side of a replay. */
struct ios_validate_side {
	double mean_ms, p10_ms, p50_ms, p90_ms, p99_ms, max_ms;
	struct ios_validate_curve curve;
};

struct ios_validate_result {
	char trace[256];
	char device[256];
	size_t n;
	uint64_t reads, writes;
	double *measured_ms;		/* per request, trace order */
	double *simulated_ms;
	struct ios_validate_side meas, sim;
	double rms_ms;			/* the demerit */
};

/*
 * Replay @t against @dev (just created or reset): request 0 arrives at 0,
 * request i at the completion of request i-1 plus its NEXTINTER (DiskSim's
 * iodriver reads the next validate line when a request completes). 0, or
 * -EINVAL for a request past the device's end (file and line in @e), or the
 * device's error. @r is filled on success; free with ios_validate_result_free.
 */
int ios_validate_run(const struct ios_dstrace *t, struct ios_dev *dev, const char *devname,
		     struct ios_validate_result *r, struct ios_err *e) IOS_MUST_CHECK;
void ios_validate_result_free(struct ios_validate_result *r);

/* Reports (src/report/validate_out.c): text, JSON, SVG of both curves. */
int ios_validate_report_text(const struct ios_validate_result *r, struct ios_buf *out) IOS_MUST_CHECK;
int ios_validate_report_json(const struct ios_validate_result *r, struct ios_buf *out) IOS_MUST_CHECK;
int ios_validate_report_svg(const struct ios_validate_result *r, struct ios_buf *out) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
