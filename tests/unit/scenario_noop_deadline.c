/*
 * Description: end-to-end scenarios through the whole simulator (task model,
 * block layer, scheduler, hdd-2004 device model). noop dispatches requests in
 * the order they were inserted, while adjacent bios merge; deadline serves a
 * read that sits behind a sequential stream only when it expires, and then
 * within its expiry plus one batch, where noop serves it at once.
 */
#include <string.h>
#include "harness.h"

#define MAX_EV 200000

struct trace_log {
	uint64_t inserted[MAX_EV], issued[MAX_EV];
	size_t nr_ins, nr_iss;
	uint64_t merges;
};

static void tr_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct trace_log *l = priv;

	(void)q;
	(void)bio;
	(void)now;
	if (a == IOS_TA_INSERT && l->nr_ins < MAX_EV)
		l->inserted[l->nr_ins++] = rq->id;
	else if (a == IOS_TA_ISSUE && l->nr_iss < MAX_EV)
		l->issued[l->nr_iss++] = rq->id;
	else if (a == IOS_TA_BACKMERGE || a == IOS_TA_FRONTMERGE)
		l->merges++;
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

static struct ios_jobfile *jfs[8];
static int nr_jfs;

static int run(const char *job, const char *sched, struct ios_settings *set,
	       struct trace_log *log, struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };

	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf("scenario.fio", job, strlen(job), &po, jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return -1;
	}
	cfg.scheduler = sched;
	cfg.device = "hdd-2004";
	cfg.seed = 3;
	cfg.settings = set;
	cfg.trace_ops = log ? &tr_ops : NULL;
	cfg.trace = log;
	if (ios_run(jf, &cfg, res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		return -1;
	}
	/* the jobfile must outlive the result's job pointers: freed at the end */
	jfs[nr_jfs++] = jf;
	return 0;
}

static const char fifo_job[] =
	"[global]\ndirect=1\nruntime=2\ntime_based\nsize=64m\n"
	"[writer]\nrw=write\nbs=4k\nioengine=libaio\niodepth=16\n"
	"[reader]\nrw=randread\nbs=4k\nioengine=libaio\niodepth=4\n";

static int test_noop_arrival_order_with_merges(void)
{
	static struct trace_log log;
	struct ios_run_result res;

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run(fifo_job, "noop", NULL, &log, &res), 0);
	T_ASSERT(log.nr_iss > 100);
	/* every request is issued in the order it was inserted (merged-away ones never are) */
	{
		size_t i = 0, k = 0;

		for (; k < log.nr_iss; k++) {
			while (i < log.nr_ins && log.inserted[i] != log.issued[k])
				i++;
			T_ASSERT_MSG(i < log.nr_ins, "issue %zu (request %llu) out of insertion order",
				     k, (unsigned long long)log.issued[k]);
			i++;
		}
	}
	/* the 16-deep sequential writer's bios merge while the disk is busy */
	T_ASSERT(log.merges > 100);
	T_ASSERT(res.disks[0].merges[IOS_WRITE] == log.merges);
	T_ASSERT(res.disks[0].ios[IOS_WRITE] < res.jobs[0].dir[IOS_WRITE].total_ios);
	ios_run_result_free(&res);
	return T_PASS;
}

/*
 * The random reader's file comes first on the disk, the streaming reader's
 * after it: deadline's one-way sector walk keeps finding stream requests
 * ahead, so the random read waits for its expiry. Merges are off
 * (queue.nomerges=2) so the stream's eight outstanding reads stay eight
 * requests; merged into one they would leave nothing ahead of the head.
 */
static const char starve_job[] =
	"[global]\ndirect=1\nruntime=5\ntime_based\n"
	"[far]\nrw=randread\nbs=4k\nsize=512m\n"
	"[stream]\nrw=read\nbs=4k\nioengine=libaio\niodepth=8\nsize=1g\n";

static int test_deadline_expiry_bound(void)
{
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	struct ios_run_result res;
	uint64_t expire = 100 * IOS_NSEC_PER_MSEC, max_far, max_noop;

	T_ASSERT_EQ(ios_settings_add_kv(&set, "read_expire=100", "test", &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&set, "fifo_batch=16", "test", &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&set, "queue.nomerges=2", "test", &e), 0);
	/* no filesystem: ext3's indirect-block reads would add their own waits */
	T_ASSERT_EQ(ios_settings_add_kv(&set, "lab.fs=raw", "test", &e), 0);
	T_ASSERT_EQ(run(starve_job, "deadline", &set, NULL, &res), 0);
	T_ASSERT(res.jobs[0].dir[IOS_READ].total_ios > 10);
	max_far = res.jobs[0].dir[IOS_READ].clat.max;
	/* it waited for its deadline: the stream was always ahead in sector order */
	T_ASSERT_MSG(max_far >= expire, "far read max clat %llu ns < read_expire",
		     (unsigned long long)max_far);
	/* and then went out within one batch of 16 requests (each well under 4 ms here) */
	T_ASSERT_MSG(max_far <= expire + 16 * 4 * IOS_NSEC_PER_MSEC,
		     "far read max clat %llu ns > read_expire + one batch",
		     (unsigned long long)max_far);
	ios_run_result_free(&res);
	ios_settings_free(&set);

	T_ASSERT_EQ(ios_settings_add_kv(&set, "queue.nomerges=2", "test", &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&set, "lab.fs=raw", "test", &e), 0);
	T_ASSERT_EQ(run(starve_job, "noop", &set, NULL, &res), 0);
	max_noop = res.jobs[0].dir[IOS_READ].clat.max;
	T_ASSERT_MSG(max_noop < expire / 2, "noop far read max clat %llu ns",
		     (unsigned long long)max_noop);
	ios_run_result_free(&res);
	ios_settings_free(&set);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_noop_arrival_order_with_merges, test_deadline_expiry_bound);

	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	return ret;
}
