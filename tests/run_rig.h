/*
 * A run with a trace observer, for the tests of fio's rate and submission
 * options (run_rate_opts, run_submit_opts): every queued bio's time and
 * sector, the I/Os in flight, and the long gaps between issues. run_full
 * parses a job text and runs it on hdd-2009 under lab.fs=raw (offsets are
 * sectors) with seed 11; the job files stay alive until run_rig_free(), as
 * the results point into them.
 */
#ifndef IOSCHED_TEST_RUN_RIG_H
#define IOSCHED_TEST_RUN_RIG_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

struct tlog {
	uint64_t issue_ns[8192];
	uint64_t sectors[8192];
	size_t n;
	unsigned max_inflight, inflight;
	uint64_t last_complete_ns;
	uint64_t think_gaps, think_busy;	/* long gaps; those with I/O completing inside */
};

static void tr_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct tlog *l = priv;

	(void)q;
	(void)rq;
	if (a == IOS_TA_COMPLETE)
		l->last_complete_ns = now;
	if (a == IOS_TA_QUEUE && l->n && now - l->issue_ns[l->n - 1] >= 45000000ULL) {
		l->think_gaps++;
		if (now - l->last_complete_ns < 49000000ULL)
			l->think_busy++;
	}
	if (a == IOS_TA_QUEUE && l->n < 8192) {
		l->sectors[l->n] = bio->sector;
		l->issue_ns[l->n++] = now;
	}
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

static struct ios_jobfile *jfs[64];
static int nr_jfs;

static int run_full(const char *job, const char *sched, const char *kv, struct tlog *log,
		    struct ios_run_result *res, struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	int ret;

	if (!jf)
		return IOS_ERR(e, -ENOMEM, "run_rig: out of memory");
	if (nr_jfs == (int)(sizeof(jfs) / sizeof(jfs[0]))) {
		free(jf);
		return IOS_ERR(e, -ENOMEM, "run_rig: more than %zu runs in one test program",
			       sizeof(jfs) / sizeof(jfs[0]));
	}
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("r.fio", job, strlen(job), &po, jf, e);
	if (ret) {
		free(jf);
		return ret;
	}
	jfs[nr_jfs++] = jf;
	if (ios_settings_add_kv(&set, "lab.fs=raw", "test", e) ||
	    (kv && ios_settings_add_kv(&set, kv, "test", e))) {
		ios_settings_free(&set);
		return -EINVAL;
	}
	cfg.scheduler = sched;
	cfg.device = "hdd-2009";
	cfg.seed = 11;
	cfg.settings = &set;
	cfg.trace_ops = log ? &tr_ops : NULL;
	cfg.trace = log;
	ret = ios_run(jf, &cfg, res, e);
	ios_settings_free(&set);
	return ret;
}

static void run_rig_free(void)
{
	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	nr_jfs = 0;
}

#endif
