/*
 * Plot series aggregated by what an experiment is about.
 *
 * A run's series (plot.h) have one line per job clone. With 120 processes
 * in two cgroups that is 120 lines and a legend taller than the plot, and
 * the ratio the experiment is about cannot be seen. ios_series_aggregate()
 * makes a new series set with one line per group instead, summing the
 * bytes of the group's jobs bucket by bucket:
 *
 *  - IOS_PLOT_BY_CGROUP: one line per cgroup, in the order the jobs first
 *    name it, labelled "/s0 (60 jobs)" ("/" is the root; the legend of a single
 *    run cuts names at 17 characters, so no "cgroup" word: the panel
 *    titles say "per cgroup"); each line also gets its cgroup's device
 *    side (charged[]: the run's ios_series_cg of that path), and a cgroup
 *    with requests charged to it but no job gets a line of its own after
 *    the others, "/ (0 jobs)", with the device side only;
 *  - IOS_PLOT_BY_CLASS: one line per effective ioprio class and level,
 *    "RT0", "BE4 (2 jobs)", "IDLE", ordered RT0..RT7, BE0..BE7, IDLE;
 *  - IOS_PLOT_BY_JOB: a copy, one line per job as recorded.
 *
 * IOS_PLOT_BY_AUTO resolves (ios_plot_by_resolve) to CGROUP when the jobs
 * sit in more than one cgroup and there are more than IOS_PLOT_AUTO_JOBS
 * of them, and to JOB otherwise. The groups' totals are the sums of their
 * jobs' totals, and the buckets keep the input's width, so the drawing
 * (ios_plot_svg) is unchanged. Same series, same bytes.
 */
#ifndef IOSCHED_SERIES_GROUP_H
#define IOSCHED_SERIES_GROUP_H

#include <stddef.h>
#include "err.h"
#include "plot.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ios_plot_by {
	IOS_PLOT_BY_JOB,
	IOS_PLOT_BY_CGROUP,
	IOS_PLOT_BY_CLASS,
	IOS_PLOT_BY_AUTO,
};

/* AUTO groups by cgroup above this many jobs (and with two cgroups or more) */
#define IOS_PLOT_AUTO_JOBS 10

/* Record @job's cgroup path (NULL = root) and effective class and level; -ENOMEM. */
int ios_series_set_group(struct ios_series *s, size_t job, const char *cgroup,
			 int ioprio_class, int ioprio_level) IOS_MUST_CHECK;
/* The distinct cgroups of @s's jobs. */
size_t ios_series_nr_cgroups(const struct ios_series *s);
/* AUTO made JOB or CGROUP for @s; anything else is returned as is. */
enum ios_plot_by ios_plot_by_resolve(const struct ios_series *s, enum ios_plot_by by);
/* "job", "cgroup", "class", "auto" */
const char *ios_plot_by_name(enum ios_plot_by by);
/*
 * @in grouped by @by (AUTO is resolved first) into @out, which the caller
 * frees with ios_series_free(). 0, -EINVAL (an unknown @by), -ENOMEM (@out
 * then empty).
 */
int ios_series_aggregate(const struct ios_series *in, enum ios_plot_by by,
			 struct ios_series *out) IOS_MUST_CHECK;
/*
 * "one line per cgroup (2 for 120 jobs)": how the lines of a plot of @in
 * grouped by @by were made, for its subtitle ("one line per job" when not grouped).
 */
void ios_series_group_words(const struct ios_series *in, enum ios_plot_by by, char *buf,
			    size_t len);

#ifdef __cplusplus
}
#endif

#endif
