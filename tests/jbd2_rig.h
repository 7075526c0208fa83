/*
 * A whole run on lab.fs=ext4 (ssd-nvme unless jr_device says otherwise; the scheduler given) with a
 * trace observer keeping every queued bio (time, pid, cgroup, flags,
 * sector, size) and every completion: what the jbd2 tests
 * (fs_jbd2_commit, fs_ext4_fsync, fs_jbd2_ordered) read. The jbd2 thread
 * is pid JBD2_PID (src/run/plan.c); jobs are 1000, 1001, ...
 */
#ifndef IOSCHED_TEST_JBD2_RIG_H
#define IOSCHED_TEST_JBD2_RIG_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"

#define JBD2_PID 101
#define JR_MAX 65536

struct jr_bio {
	uint64_t t;
	uint32_t pid;
	unsigned cgroup;
	uint32_t flags;
	uint64_t sector;
	uint32_t nr_sectors;
	uint8_t dir;
};

struct jr_log {
	struct jr_bio q[JR_MAX];	/* queued bios, in order */
	size_t n;
	struct jr_bio c[JR_MAX];	/* completed requests, in order */
	size_t nc;
	uint64_t last_complete[2048];	/* by pid - 0: latest completion of that pid's request */
};

static void jr_event(void *priv, struct ios_queue *qu, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct jr_log *l = priv;

	(void)qu;
	if (a == IOS_TA_QUEUE && bio && l->n < JR_MAX) {
		struct jr_bio *b = &l->q[l->n++];

		b->t = now;
		b->pid = bio->ioc ? bio->ioc->pid : 0;
		b->cgroup = bio->ioc && bio->ioc->cgroup ? bio->ioc->cgroup->id : (unsigned)-1;
		b->flags = bio->flags;
		b->sector = bio->sector;
		b->nr_sectors = bio->nr_sectors;
		b->dir = bio->dir;
	}
	if (a == IOS_TA_COMPLETE && rq && rq->ioc && rq->ioc->pid < 2048)
		l->last_complete[rq->ioc->pid] = now;
	if (a == IOS_TA_COMPLETE && rq && l->nc < JR_MAX) {
		struct jr_bio *b = &l->c[l->nc++];

		b->t = now;
		b->pid = rq->ioc ? rq->ioc->pid : 0;
		b->flags = rq->flags;
		b->sector = rq->sector;
		b->nr_sectors = rq->nr_sectors;
		b->dir = rq->dir;
	}
}

static const struct ios_trace_ops jr_ops = { .event = jr_event };
static const char *jr_device = "ssd-nvme";

/* Run @job under @sched with lab.fs=ext4 and the settings after it (NULL-terminated). */
static inline int jr_run(struct jr_log *l, const char *job, const char *sched, ...)
{
	struct ios_settings set = { 0 };
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	const char *kv;
	va_list ap;
	int ret;

	memset(l, 0, sizeof(*l));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("jbd2.fio", job, strlen(job), &po, &jf, &e);
	if (!ret)
		ret = ios_settings_add_kv(&set, "lab.fs=ext4", "test", &e);
	/*
	 * The I/O order is what these tests read, and their scenes are timed
	 * (a flusher writing when the commit starts): no host CPU model, so
	 * blk-mq's cost defaults (lab.cpu.model=measured) do not move them.
	 */
	if (!ret)
		ret = ios_settings_add_kv(&set, "lab.cpu.model=zero", "test", &e);
	va_start(ap, sched);
	while (!ret && (kv = va_arg(ap, const char *)))
		ret = ios_settings_add_kv(&set, kv, "test", &e);
	va_end(ap);
	if (!ret) {
		cfg.settings = &set;
		cfg.scheduler = sched;
		cfg.device = jr_device;
		cfg.seed = 1;
		cfg.trace_ops = &jr_ops;
		cfg.trace = l;
		ret = ios_run(&jf, &cfg, &res, &e);
		if (!ret)
			ios_run_result_free(&res);
	}
	if (ret)
		fprintf(stderr, "jr_run: %s\n", e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

/* bios of @pid with all of @has and none of @not */
static inline size_t jr_count(const struct jr_log *l, uint32_t pid, uint32_t has, uint32_t not)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->q[i].pid == pid && (l->q[i].flags & has) == has && !(l->q[i].flags & not);
	return n;
}

#endif
