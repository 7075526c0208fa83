/*
 * The collect phase: what the run left in the queue, the page cache, the
 * scheduler and the tasks becomes the struct ios_run_result the report
 * writers read, with a warning for every job the clock's limit cut short.
 *
 * It reads and never changes the machine, except for the fio logs, whose
 * last lines go out here (a write error fails the run), and the plot
 * series, which moves into the result. The disk's figures are
 * /proc/diskstats' as the queue counted them, up to the end of the last job.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include "iosched/timeline.h"
#include "run_int.h"

/*
 * A job or replayed process that lab.max_sim_time (or the end of the
 * simulated clock) stopped with work left: say what was cut, so a truncated
 * result is never taken for a whole one.
 */
static int run_warn_cut(const struct run_ctx *c, const struct run_task *t,
			struct ios_run_result *out)
{
	char lim[128], w[300];
	uint64_t ios = t->ios_issued[IOS_READ] + t->ios_issued[IOS_WRITE];

	if (t->deadline_ns == c->lab.max_sim_time_ns)
		snprintf(lim, sizeof(lim), "lab.max_sim_time=%.9g s",
			 (double)c->lab.max_sim_time_ns / 1e9);
	else
		snprintf(lim, sizeof(lim), "the end of the simulated clock (%.4g s; lab.max_sim_time=0)",
			 (double)RUN_CLOCK_END_NS / 1e9);
	if (t->replay)
		return ios_run_warn(out, "replay of process %" PRIu32 " (%s): stopped by %s: %" PRIu64
				    " of %" PRIu64 " I/Os replayed", t->ioc.pid, t->ioc.comm, lim, ios,
				    ios_run_replay_total_ios(t));
	ios_run_job_where_opt(t->job, NULL, w, sizeof(w));
	if (t->io_target != UINT64_MAX)
		return ios_run_warn(out, "%s (pid %" PRIu32 "): stopped by %s: %" PRIu64 " I/Os, %" PRIu64
				    " of %" PRIu64 " bytes issued", w, t->ioc.pid, lim, ios, t->io_issued,
				    t->io_target);
	return ios_run_warn(out, "%s (pid %" PRIu32 "): stopped by %s, %.9g s before the end of its "
			    "runtime: %" PRIu64 " I/Os issued", w, t->ioc.pid, lim,
			    (double)(t->ramp_end_ns + t->job->runtime_ns - t->deadline_ns) / 1e9, ios);
}

/* A disk's line of the result from its diskstats over a run of @end ns. */
void ios_run_disk_result(struct ios_disk_result *d, const char *name,
			 const struct ios_disk_stats *s, uint64_t end)
{
	snprintf(d->name, sizeof(d->name), "%s", name);
	for (int k = 0; k < 2; k++) {
		d->ios[k] = s->ios[k];
		d->merges[k] = s->merges[k];
		d->sectors[k] = s->sectors[k];
		d->ticks_ms[k] = s->ticks_ns[k] / IOS_NSEC_PER_MSEC;
	}
	d->in_queue_ms = s->time_in_queue_ns / IOS_NSEC_PER_MSEC;
	d->util = end ? 100.0 * (double)s->io_ticks_ns / (double)end : 0.0;
	if (d->util > 100.0)
		d->util = 100.0;
}

/*
 * fio 3.33 gathers a disk's stats for the jobs with disk_util=1 (its
 * default; init.c's init_disk_util) and prints "Disk stats" when any did:
 * disk_util=0 in every job leaves the section out of every format.
 */
bool ios_run_disk_util(const struct ios_jobfile *jf)
{
	for (size_t i = 0; i < jf->nr_jobs; i++)
		if (!jf->jobs[i].no_disk_util)
			return true;
	return false;
}

/* The one disk's line of the result: its diskstats at the end of the jobs (at @end). */
void ios_run_collect_disk(const struct run_ctx *c, struct ios_disk_result *d, uint64_t end)
{
	ios_run_disk_result(d, c->q->disk_name, &c->q->stats, end);
}

/* The scheduler's own counters, as many as the result has room for. */
static void collect_sched_stats(const struct run_ctx *c, struct ios_run_result *out)
{
	const struct ios_tunable *t = c->q->sched->stats;
	size_t n = 0;

	if (!t)
		return;
	for (; t->name && n < sizeof(out->sched_stats) / sizeof(out->sched_stats[0]); t++, n++) {
		snprintf(out->sched_stats[n].name, sizeof(out->sched_stats[n].name), "%s", t->name);
		out->sched_stats[n].value = t->type == IOS_TUN_U64
			? (int64_t)ios_tunable_get_u64(t, c->q->sched_data)
			: ios_tunable_get_int(t, c->q->sched_data);
	}
	out->nr_sched_stats = n;
}

/* ios_lat_add could not allocate a histogram group: the percentiles would be wrong */
static bool job_hist_lost(const struct ios_job_result *r)
{
	for (int d = 0; d < IOS_DDIR_NR; d++) {
		const struct ios_dir_result *dr = ios_job_dir(r, d);

		if (dr->slat.hist_lost || dr->clat.hist_lost || dr->lat.hist_lost)
			return true;
	}
	return r->sync_lat.hist_lost || r->win_clat.hist_lost;
}

/*
 * fio's "Laying out IO file" per clone (fio 3.33 setup_files: each thread
 * extends the files it opens that are missing or short, before its I/O):
 * the files a clone opened first that the layout created, and their size.
 */
static int collect_layout(const struct run_ctx *c, struct ios_run_result *out)
{
	const struct run_task *last = NULL;
	size_t cap = 0;

	/* the files are listed as the tasks opened them, in task order */
	for (const struct run_file *f = c->files; f; f = f->next) {
		const struct run_task *t = f->first_task;
		struct ios_layout_line *l;

		if (!t || f->is_dev || f->preexisting || f->absent || f->fill || !f->size)
			continue;
		if (t != last) {
			if (out->nr_layout == cap) {
				size_t ncap = cap ? 2 * cap : 8;
				void *p = realloc(out->layout, ncap * sizeof(*out->layout));

				if (!p)
					return -ENOMEM;
				out->layout = p;
				cap = ncap;
			}
			out->layout[out->nr_layout++] = (struct ios_layout_line){
				(unsigned)(t->job - c->jf->jobs), 0, 0 };
			last = t;
		}
		l = &out->layout[out->nr_layout - 1];
		l->files++;
		l->bytes += f->size;
	}
	return 0;
}

int ios_run_collect(struct run_ctx *c, struct ios_err *e)
{
	struct ios_run_result *out = c->res;
	const struct ios_run_config *cfg = c->cfg;
	int ret;

	/* the logs' last lines go out now; a write error fails the run */
	ret = ios_fiolog_set_close(c->logs, e);
	c->logs = NULL;
	if (ret)
		return ret;
	if (c->series_err)
		return IOS_ERR(e, c->series_err, "out of memory recording the plot series");
	if (c->series) {
		c->series->end_ns = c->end_ns;
		if (c->q)	/* the same: the device side per cgroup ends here */
			ios_queue_set_done_fn(c->q, NULL, NULL);
		if (c->series->timeline) {
			/* the queue outlives the result's series: it stops recording here */
			ios_queue_set_owner_ops(c->q, NULL, NULL);
			ios_timeline_finish(c->series->timeline, c->end_ns);
			if (c->series->timeline->err)
				return IOS_ERR(e, -ENOMEM, "out of memory recording the timeline");
		}
		out->series = c->series;
		c->series = NULL;
	}

	ios_queue_stats_update(c->q, c->end_ns);
	out->disks = calloc(1, sizeof(*out->disks));
	if (!out->disks)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	out->nr_disks = 1;
	ios_run_collect_disk(c, &out->disks[0], c->end_ns);
	if (c->real && ios_run_real_collect(c, out))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (ios_host_sim_notes(c->host, out))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (!ios_run_disk_util(c->jf))
		out->nr_disks = 0;	/* (the array is freed with the result) */
	out->jobfile = c->jf;
	if (collect_layout(c, out))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	snprintf(out->scheduler, sizeof(out->scheduler), "%s", c->q->sched->name);
	snprintf(out->device, sizeof(out->device), "%s",
		 c->real ? "real" : cfg->device ? cfg->device : IOS_DEV_DEFAULT_PROFILE);
	out->seed = cfg->seed;
	out->sim_end_ns = c->end_ns;
	ios_vfs_get_stats(c->vfs, &out->vm_stats);
	out->has_jbd2 = ios_vfs_jbd2_stats(c->vfs, &out->jbd2);
	collect_sched_stats(c, out);
	if (c->q->mq && ios_queue_mq_result(c->q, &out->mq))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	out->nr_events = c->sim->nr_events;
	/* a real run happened at a time: fio's header says when (a simulated one at the epoch) */
	out->timestamp = c->real ? (uint64_t)time(NULL) : 0;
	if (ios_run_cgroups_result(c, out))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		if (!c->tasks[i].cut)
			continue;
		out->jobs[i].cut_short = true;
		ret = run_warn_cut(c, &c->tasks[i], out);
		if (ret)
			return IOS_ERR(e, ret, "out of memory");
	}
	out->sched_charges_time = c->q->sched->features & IOS_SCHED_CHARGES_TIME;
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		out->jobs[i].disk_time_ns = c->tasks[i].ioc.sched_ns;
		out->jobs[i].device_time_ns = c->tasks[i].ioc.device_ns;
	}
	/* every flusher: 2.6.31's one, or each cgroup's wb under cgroup writeback */
	if (c->vfs)
		ios_vfs_flusher_time(c->vfs, &out->flusher_disk_time_ns,
				     &out->flusher_device_time_ns);
	/* cgroup paths point into the context: keep them in the result */
	for (size_t i = 0; i < out->nr_jobs; i++)
		out->jobs[i].cgroup = NULL;
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const char *p = c->tasks[i].ioc.cgroup->path;

		out->jobs[i].cgroup = *p ? c->tasks[i].job->cgroup : NULL;
	}
	for (unsigned i = 0; i < c->nr_tasks; i++)
		if (job_hist_lost(c->tasks[i].res))
			return IOS_ERR(e, -ENOMEM, "out of memory keeping %s's latency histogram",
				       c->tasks[i].job->name ? c->tasks[i].job->name : "a job");
	for (unsigned i = 0; i < c->nr_tasks; i++)
		if (ios_run_ss_result(&c->tasks[i], c->tasks[i].res))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = ios_run_result_group(out);
	if (ret)
		IOS_ERR(e, ret, "out of memory");
	return ret;
}
