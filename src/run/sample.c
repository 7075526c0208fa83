/*
 * A task's windowed statistics: fio's bw and iops samples (bwavgtime,
 * iopsavgtime) and the rate logs' lines, taken on a timer per task that
 * sleeps while the task can have nothing in its windows (moved out of
 * task.c as it is, so the samples keep their order).
 */
#include "run_int.h"

static uint64_t sample_rate(uint64_t n, uint64_t span_ns, uint64_t div)
{
	return (uint64_t)((__uint128_t)n * IOS_NSEC_PER_SEC / span_ns / div);
}

/* The bandwidth window [bw_at_ns, now) is over: one sample per direction. */
static void sample_bw(struct run_task *t, uint64_t now, bool log_only)
{
	uint64_t span = now - t->bw_at_ns;

	if (t->stats_on && span) {
		for (int d = 0; d < 2; d++) {
			if (!t->dir_used[d])
				continue;
			if (!log_only)
				ios_sample_add(&t->res->dir[d].bw,
					       (double)t->sample_bytes[d] * 1e9 / 1024.0 / (double)span);
			/* fio writes no log line for a window without I/O */
			if (t->logging && t->sample_bytes[d])
				ios_fiolog_rate(t->log, IOS_FIOLOG_BW, now - t->ramp_end_ns, d,
						sample_rate(t->sample_bytes[d], span, 1024));
		}
	}
	t->sample_bytes[0] = t->sample_bytes[1] = 0;
	t->bw_at_ns = now;
}

static void sample_iops(struct run_task *t, uint64_t now, bool log_only)
{
	uint64_t span = now - t->iops_at_ns;

	if (t->stats_on && span) {
		for (int d = 0; d < 2; d++) {
			if (!t->dir_used[d])
				continue;
			if (!log_only)
				ios_sample_add(&t->res->dir[d].iops,
					       (double)t->sample_ios[d] * 1e9 / (double)span);
			if (t->logging && t->sample_ios[d])
				ios_fiolog_rate(t->log, IOS_FIOLOG_IOPS, now - t->ramp_end_ns, d,
						sample_rate(t->sample_ios[d], span, 1));
		}
	}
	t->sample_ios[0] = t->sample_ios[1] = 0;
	t->iops_at_ns = now;
}

static void ev_sample(struct ios_sim *sim, void *arg, uint64_t data);

/* Arm the sample timer for the earlier window end (none when both are per I/O). */
void ios_run_sample_arm(struct run_task *t)
{
	uint64_t when = UINT64_MAX;

	if (t->bw_win_ns)
		when = t->bw_at_ns + t->bw_win_ns;
	if (t->iops_win_ns && t->iops_at_ns + t->iops_win_ns < when)
		when = t->iops_at_ns + t->iops_win_ns;
	if (when != UINT64_MAX && !t->sample_lazy)
		(void)ios_timer_arm(t->ctx->sim, &t->sample_timer, when, ev_sample, t);
}

/* Asleep on a timer with no I/O of its own in flight: nothing can land in its windows. */
static bool task_idle(const struct run_task *t)
{
	return t->state == TS_WAIT_TIMER &&
	       !(t->replay ? ios_run_replay_inflight(t) : t->inflight);
}

static void ev_sample(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct run_task *t = arg;

	if (!ios_timer_fire(&t->sample_timer, data) || t->state == TS_DONE)
		return;
	if (t->bw_win_ns && sim->now >= t->bw_at_ns + t->bw_win_ns)
		sample_bw(t, sim->now, false);
	if (t->iops_win_ns && sim->now >= t->iops_at_ns + t->iops_win_ns)
		sample_iops(t, sim->now, false);
	if (task_idle(t)) {
		t->sample_idle = true;
		return;
	}
	ios_run_sample_arm(t);
}

/*
 * Up to this many empty windows are added one by one; beyond, they go in
 * as one block of zero samples (the same count, mean and extremes; the
 * variance sum merged, not iterated, so the last bits of a double may
 * differ from adding them one by one). A task waiting on a slow disk
 * passes many windows between two completions: the block keeps closing
 * them O(1) per completion instead of O(time waited).
 */
#define SAMPLE_STEP_MAX 8

/* @k windows without I/O after the one at *@at: fio logs nothing for them */
static void sample_empty_windows(struct run_task *t, uint64_t *at, uint64_t win, uint64_t k,
				 bool bw)
{
	for (int d = 0; t->stats_on && k && d < 2; d++) {
		struct ios_sample_stat *s = bw ? &t->res->dir[d].bw : &t->res->dir[d].iops;

		if (!t->dir_used[d])
			continue;
		if (k > SAMPLE_STEP_MAX) {
			struct ios_sample_stat zero;

			ios_sample_init(&zero);
			zero.n = k;
			ios_sample_merge(s, &zero);
		} else {
			for (uint64_t i = 0; i < k; i++)
				ios_sample_add(s, 0.0);
		}
	}
	*at += k * win;
}

/* Every window that ended at or before @now is sampled, in order. */
static void close_windows(struct run_task *t, uint64_t now)
{
	if (t->bw_win_ns && now >= t->bw_at_ns + t->bw_win_ns) {
		/* the first window may hold I/O */
		sample_bw(t, t->bw_at_ns + t->bw_win_ns, false);
		sample_empty_windows(t, &t->bw_at_ns, t->bw_win_ns,
				     (now - t->bw_at_ns) / t->bw_win_ns, true);
	}
	if (t->iops_win_ns && now >= t->iops_at_ns + t->iops_win_ns) {
		sample_iops(t, t->iops_at_ns + t->iops_win_ns, false);
		sample_empty_windows(t, &t->iops_at_ns, t->iops_win_ns,
				     (now - t->iops_at_ns) / t->iops_win_ns, false);
	}
}

void ios_run_task_sample_wake(struct run_task *t, uint64_t now)
{
	if (!t->sample_idle)
		return;
	t->sample_idle = false;
	close_windows(t, now);
	ios_run_sample_arm(t);
}

/*
 * A task without a rate log samples its windows lazily: nothing reads a
 * window before it is closed, so there is no timer; each window is closed
 * by the first thing after its end that could change or read it (an I/O
 * counted, the end of the ramp, the job's end, a --status-interval
 * report), which calls this. A window is [start, start + win): an I/O
 * completing exactly at its end counts in the next one, as it did when
 * the timer fired first. (With a rate log the timer stays: a log shared
 * by clones gets their lines in the order of the windows' ends.)
 */
void ios_run_sample_sync(struct run_task *t, uint64_t now)
{
	/*
	 * A task on the timer that sleeps with nothing in flight has only
	 * empty windows since, which log nothing: they can be closed for a
	 * reader too (the wake-up re-arms the timer).
	 */
	if (t->sample_lazy || t->sample_idle)
		close_windows(t, now);
}

/*
 * The job ended: a windowed log gets its last, partial window when that is
 * at least a millisecond long (a log's time resolution; a shorter one would
 * be a rate over a sliver of time). The statistics keep fio's whole windows.
 */
void ios_run_sample_finish_logs(struct run_task *t, uint64_t now)
{
	if (!t->logging || now < t->ramp_end_ns)
		return;
	if (t->bw_win_ns && now - t->bw_at_ns >= IOS_NSEC_PER_MSEC)
		sample_bw(t, now, true);
	if (t->iops_win_ns && now - t->iops_at_ns >= IOS_NSEC_PER_MSEC)
		sample_iops(t, now, true);
	ios_fiolog_job_end(t->log, now - t->ramp_end_ns);
}

/*
 * The bw / iops sampling windows and the job's logs. fio: a bw log with
 * log_avg_msec samples bandwidth every log_avg_msec unless bwavgtime was
 * given (then every bwavgtime), and a per-I/O bw log turns the bandwidth
 * statistic itself into one sample per I/O; the same for iops. (Moved
 * here from task.c as it was.)
 */
int ios_run_task_setup_samples(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	uint64_t avg = j->log_avg_msec * IOS_NSEC_PER_MSEC;
	int ret;

	t->bw_win_ns = j->bwavgtime_ns ? j->bwavgtime_ns : 500 * IOS_NSEC_PER_MSEC;
	t->iops_win_ns = j->iopsavgtime_ns ? j->iopsavgtime_ns : 500 * IOS_NSEC_PER_MSEC;
	t->sample_lazy = true;
	if (!c->logs)
		return 0;
	if (!(t->log = calloc(1, sizeof(*t->log))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = ios_fiolog_job_open(c->logs, j, t->index + 1, t->log, e);
	if (ret)
		return ret;
	t->logging = ios_fiolog_has(t->log, IOS_FIOLOG_BW) || ios_fiolog_has(t->log, IOS_FIOLOG_IOPS) ||
		     ios_fiolog_has(t->log, IOS_FIOLOG_LAT);
	t->sample_lazy = !t->logging;
	if (ios_fiolog_has(t->log, IOS_FIOLOG_BW))
		t->bw_win_ns = !avg ? 0 : (j->bwavgtime_set ? t->bw_win_ns : avg);
	if (ios_fiolog_has(t->log, IOS_FIOLOG_IOPS))
		t->iops_win_ns = !avg ? 0 : (j->iopsavgtime_set ? t->iops_win_ns : avg);
	return 0;
}

/*
 * compare --from (ios_run_config.window_from_ns): the completions at or
 * after it, counted beside fio's stats in the job's win_* fields; only
 * counted, so the run is the same with or without a window.
 */
void ios_run_window_io(struct run_task *t, uint64_t len, uint64_t clat, uint64_t now)
{
	struct ios_job_result *r = t->res;
	uint64_t from = t->ctx->cfg->window_from_ns;

	if (!from || now < from)
		return;
	r->win_bytes += len;
	if (!r->win_ios++ || now < r->win_first_ns)
		r->win_first_ns = now;
	if (!t->job->disable_clat)
		ios_lat_add(&r->win_clat, clat);
}
