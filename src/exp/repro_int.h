/*
 * Private helpers of the experiments module's reproduction logic
 * (src/exp/repro.c) that its writers (src/report/repro_out.c) use too.
 */
#ifndef IOSCHED_REPRO_INT_H
#define IOSCHED_REPRO_INT_H

#include "iosched/repro.h"

/*
 * A thread run as a result with what was posted (finish times, bytes,
 * bandwidths, latencies, I/Os per cgroup named by @x_groups); its jobs take
 * class, level and the share model from @like, our run of the same column.
 * Free with ios_repro_result_free. 0 or -ENOMEM.
 */
int ios_repro_thread_result(const struct ios_repro_thread_run *t, const struct ios_cmp_run *like,
			    const char *const *x_groups, struct ios_repro_result *out,
			    unsigned *has) IOS_MUST_CHECK;
/* The largest |xferred - ideal| / ideal of Moyer's table for @cr; NaN when none. */
double ios_repro_worst_diff(const struct ios_cmp_run *cr);
/* The column labelled @label in @d, or -1. */
long ios_repro_column(const struct ios_repro_data *d, const char *label);

#endif
