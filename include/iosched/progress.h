/*
 * Progress lines for long runs: formatting only.
 *
 * The simulation reports how far it is through ios_run_config.progress
 * (simulated time and a fraction); the command line measures wall time and
 * decides when to draw. What the line says is decided here, as a pure
 * function of those numbers, so it can be tested without a terminal or a
 * clock.
 */
#ifndef IOSCHED_PROGRESS_H
#define IOSCHED_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One run in progress. */
struct ios_progress_item {
	const char *label;		/* NULL or "": a single run, no label */
	uint64_t sim_ns;		/* simulated time reached */
	double fraction;		/* 0..1 */
};

/*
 * Time left at the rate so far, "m:ss" or "h:mm:ss"; "--:--" while nothing
 * is known (fraction 0) or beyond 99 hours.
 */
void ios_progress_eta(char *buf, size_t len, double fraction, double elapsed_s);

/*
 * The line for @n runs in progress of which @done of @total have finished
 * (a single run: total 1, done 0):
 *   "sim 12.345 s  45.2%  ETA 0:13"
 *   "2/6 done, 42.8%  ETA 0:20  cfq: sim 4.2 s 45%  bfq: sim 1.1 s 12%"
 * The overall fraction is (done + the runs' fractions) / total. The line is
 * cut to @width - 1 columns (so that it never wraps) and @len bytes.
 */
void ios_progress_format(char *buf, size_t len, unsigned width,
			 const struct ios_progress_item *items, size_t n, unsigned done,
			 unsigned total, double elapsed_s);

#ifdef __cplusplus
}
#endif

#endif
