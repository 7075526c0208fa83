/*
 * latency_target: fio's search for the deepest queue whose I/Os still meet
 * a latency target (io_u.c, lat_target_*), in simulated time.
 *
 * The job starts at depth 1. At the end of each latency_window it looks at
 * the I/Os completed in that window: if at least latency_percentile percent
 * of them had a total latency (fio's "lat") within latency_target, the depth
 * goes up (doubling until a failure has set an upper bound, then halfway to
 * it); otherwise it goes down halfway to the last good depth. With
 * latency_percentile=100 a single late I/O is a failure at once. When a
 * success no longer changes the depth, the statistics are reset and one more
 * window runs at that depth; its numbers are the job's report, and the job
 * ends (latency_run=1 keeps searching for the whole run instead). A failure
 * at depth 1 ends the job with ETIMEDOUT, fio's "max latency exceeded".
 *
 * fio quiesces (waits for everything in flight) when it lowers the depth;
 * here the lower depth holds new submissions back until the I/Os in flight
 * have drained below it, which is the same for the windows that follow.
 */
#include <errno.h>
#include <string.h>
#include "run_int.h"

static void lt_new_cycle(struct run_task *t, uint64_t now)
{
	t->lt->cycle_ns = now;
	t->lt->cycle_ios = t->lt->ios;
	t->lt->failed = 0;
}

/* t->lt is there (task.c) exactly when the job has a latency_target */
void ios_run_lat_target_init(struct run_task *t, uint64_t now)
{
	if (!t->lt)
		return;
	memset(t->lt, 0, sizeof(*t->lt));
	t->lt->qd = 1;
	t->lt->qd_low = 1;
	t->lt->qd_high = t->depth;
	lt_new_cycle(t, now);
}

unsigned ios_run_lat_target_depth(const struct run_task *t)
{
	return t->lt && t->lt->qd ? t->lt->qd : t->depth;
}

/* Statistics start again for the final window (fio's reset_all_stats). */
static void lt_reset_stats(struct run_task *t, uint64_t now)
{
	struct ios_job_result *r = t->res;

	for (int d = 0; d < IOS_DDIR_NR; d++) {
		struct ios_dir_result *dr = ios_job_dir_mut(r, d);
		struct ios_lat_stat *ls[3];

		if (!dr)
			continue;	/* no trims */
		ls[0] = &dr->slat;
		ls[1] = &dr->clat;
		ls[2] = &dr->lat;
		for (int k = 0; k < 3; k++)
			ios_lat_reset(ls[k]);
		dr->io_bytes = dr->total_ios = dr->short_ios = dr->drop_ios = 0;
		memset(&dr->bw, 0, sizeof(dr->bw));
		memset(&dr->iops, 0, sizeof(dr->iops));
	}
	memset(r->io_depth, 0, sizeof(r->io_depth));
	memset(r->io_submit, 0, sizeof(r->io_submit));
	memset(r->io_complete, 0, sizeof(r->io_complete));
	memset(r->lat_n, 0, sizeof(r->lat_n));
	memset(r->lat_u, 0, sizeof(r->lat_u));
	memset(r->lat_m, 0, sizeof(r->lat_m));
	r->nr_lat_samples = 0;
	t->ramp_end_ns = now;
	if (t->rate) {
		memset(t->rate->bytes, 0, sizeof(t->rate->bytes));
		memset(t->rate->poisson_ns, 0, sizeof(t->rate->poisson_ns));
	}
}

/* A window failed (or one I/O, at 100 %): lower the depth. True at depth 1: give up. */
static bool lt_failed(struct run_task *t, uint64_t now)
{
	struct run_lat_target *lt = t->lt;

	if (lt->qd == 1)
		return true;
	lt->qd_high = lt->qd;
	if (lt->qd == lt->qd_low)
		lt->qd_low--;
	lt->qd = (lt->qd + lt->qd_low) / 2;
	lt->stable = 0;
	lt_new_cycle(t, now);
	return false;
}

static void lt_success(struct run_task *t, uint64_t now)
{
	struct run_lat_target *lt = t->lt;
	unsigned old = lt->qd, max = t->depth;

	lt->qd_low = lt->qd;
	/* stuck one below the bound: let the bound creep up after 3 successes (fio's heuristic) */
	if (lt->qd + 1 == lt->qd_high && ++lt->stable >= 3) {
		lt->qd_high++;
		lt->stable = 0;
	}
	if (lt->qd_high != max)
		lt->qd = (lt->qd + lt->qd_high) / 2;
	else
		lt->qd *= 2;
	if (lt->qd > max)
		lt->qd = max;
	if (!t->job->sub.lat_run && lt->qd == old) {
		if (lt->end_run) {
			t->stop = true;
		} else {
			lt->end_run = true;
			lt_reset_stats(t, now);
		}
	}
	lt_new_cycle(t, now);
}

static void lt_fatal(struct run_task *t)
{
	t->failed = true;
	t->stop = true;
	t->res->error = -ETIMEDOUT;
}

void ios_run_lat_target_io(struct run_task *t, uint64_t lat_ns, uint64_t now)
{
	const struct ios_job_submit *s = &t->job->sub;
	struct run_lat_target *lt = t->lt;
	uint64_t ios;
	double ok;

	if (!lt || t->failed)
		return;
	lt->ios++;
	/* disable_lat: fio takes no total latency, so nothing can miss the target */
	if (!t->job->disable_lat && lat_ns > s->lat_target_ns) {
		if (s->lat_percentile == 100.0) {
			if (lt_failed(t, now))
				lt_fatal(t);
			return;
		}
		lt->failed++;
	}
	if (now - lt->cycle_ns < s->lat_window_ns)
		return;
	ios = lt->ios - lt->cycle_ios;
	if (!ios)
		return;
	ok = 100.0 * (double)(ios - lt->failed) / (double)ios;
	if (ok >= s->lat_percentile)
		lt_success(t, now);
	else
		(void)lt_failed(t, now);	/* fio: a window failing at depth 1 is not fatal */
}
