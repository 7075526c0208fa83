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

/* One criterion of a verdict comparison (IOS_RM_VERDICTS_DIFFER). */
struct ios_repro_pair {
	const struct ios_repro_check *crit;	/* the compared experiment's check */
	double like_value, value;	/* its measure on the check's like, on its column */
	bool like_pass, pass;
};

/*
 * The criteria verdict comparison @c (of @d's experiment) compares, in the
 * compared experiment's order: at most @max into @out, their number in @n.
 * 0, -EINVAL (a column missing, no base), -ENOSPC.
 */
int ios_repro_verdict_pairs(const struct ios_repro_data *d, const struct ios_repro_check *c,
			    struct ios_repro_pair *out, size_t max, size_t *n) IOS_MUST_CHECK;

#endif
