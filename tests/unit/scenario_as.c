/*
 * Description: the anticipatory scheduler through the whole simulator
 * (tasks, ext3 layout, page cache, block layer, hdd-2004), on seed 001's
 * two cases (seed-scenarios.md B1 and B2).
 *
 * B1, Jens Axboe's test: a sync 64 KiB O_DIRECT reader and writer, files in
 * different directories (ext3 puts them in different block groups), 30 s.
 * With AS classifying by data direction, as the 2004 kernel did, the reader
 * streams near its zone's media rate (> 70 %), the writer gets under 2 % of
 * the reader's bandwidth (the seed: 64 vs 27985 KiB/s, 0.23 %) and its
 * worst latency is over ten times the reader's (1042 vs 34 ms). With
 * sync_class=sync (2.6.20+: O_DIRECT writes are sync) the two share the disk
 * instead: each gets at least 30 % of the aggregate.
 *
 * B2, Andrew Morton's test: a buffered dd writer looping and cat reading a
 * 1 GiB file (examples/seeds/b2-buffered-writer-cat.fio), run until cat is
 * done. Reads get at least 50 % of the disk's busy time and of the bytes
 * moved, and writes at least 10 % of both: "things seem OK".
 */
#include <string.h>
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)

struct disk_log {
	uint64_t busy_ns[IOS_DIR_COUNT];	/* device time per direction (one tag) */
	uint64_t first_read_sector;		/* of the job named "reader" */
	bool have_read;
};

static void tr_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct disk_log *l = priv;

	(void)q;
	(void)bio;
	if (a == IOS_TA_COMPLETE && rq->nr_sectors)
		l->busy_ns[rq->dir] += now - rq->dispatch_ns;
	if (a == IOS_TA_ISSUE && !l->have_read && rq->dir == IOS_READ && rq->nr_sectors >= 128 &&
	    rq->ioc && !strcmp(rq->ioc->comm, "reader")) {
		l->first_read_sector = rq->sector;
		l->have_read = true;
	}
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

static struct ios_jobfile *jfs[8];
static int nr_jfs;

static int run(const char *name, const char *job, size_t len, const char *sched,
	       const char *setting, struct disk_log *log, struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	int ret = -1;

	ios_job_parse_opts_init(&po);
	if (!jf || ios_job_parse_buf(name, job, len, &po, jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		free(jf);
		return -1;
	}
	if (setting && ios_settings_add_kv(&set, setting, "test", &e)) {
		fprintf(stderr, "setting: %s\n", e.msg);
		goto out;
	}
	cfg.scheduler = sched;
	cfg.device = "hdd-2004";
	cfg.seed = 1;
	cfg.settings = &set;
	cfg.trace_ops = &tr_ops;
	cfg.trace = log;
	if (ios_run(jf, &cfg, res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		goto out;
	}
	ret = 0;
out:
	ios_settings_free(&set);
	/* the jobfile must outlive the result's job pointers: freed at the end */
	jfs[nr_jfs++] = jf;
	return ret;
}

static const char b1_job[] =
	"[global]\ndirect=1\nioengine=psync\nbs=64k\nsize=1g\nruntime=30\ntime_based\n"
	"[reader]\ndirectory=/r\nrw=read\n"
	"[writer]\ndirectory=/w\nrw=write\n";

static double job_kibps(const struct ios_job_result *j, int dir)
{
	const struct ios_dir_result *d = &j->dir[dir];

	return d->runtime_ns ? (double)d->io_bytes / 1024.0 / ((double)d->runtime_ns / 1e9) : 0;
}

static uint64_t zone_rate(uint64_t sector)
{
	struct ios_err e = { 0 };
	struct ios_dev *dev = ios_dev_create("hdd-2004", NULL, 1, &e);
	struct ios_dev_rate_query q = { .sector = sector };
	uint64_t rate = 0;

	if (!dev)
		return 0;
	if (!ios_dev_ctl(dev, IOS_DEV_CTL_MEDIA_RATE, &q))
		rate = q.bytes_per_sec;
	ios_dev_destroy(dev);
	return rate;
}

static int test_b1_reader_starves_writer(void)
{
	static struct disk_log log;
	struct ios_run_result res;
	const struct ios_job_result *rd, *wr;
	double r_kib, w_kib, zone_kib;
	uint64_t r_max, w_max;

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run("b1.fio", b1_job, strlen(b1_job), "as", NULL, &log, &res), 0);
	T_ASSERT_EQ(res.nr_jobs, 2);
	rd = &res.jobs[0];
	wr = &res.jobs[1];
	T_ASSERT(!strcmp(rd->name, "reader") && !strcmp(wr->name, "writer"));
	r_kib = job_kibps(rd, IOS_READ);
	w_kib = job_kibps(wr, IOS_WRITE);
	r_max = rd->dir[IOS_READ].clat.max;
	w_max = wr->dir[IOS_WRITE].clat.max;
	T_ASSERT(log.have_read);
	zone_kib = (double)zone_rate(log.first_read_sector) / 1024.0;
	fprintf(stderr, "B1 as: reader %.0f KiB/s (zone %.0f KiB/s, max_lat %.1f ms), "
		"writer %.0f KiB/s (max_lat %.1f ms)\n",
		r_kib, zone_kib, (double)r_max / 1e6, w_kib, (double)w_max / 1e6);
	T_ASSERT(zone_kib > 0);
	T_ASSERT_MSG(r_kib > 0.7 * zone_kib, "reader %.0f KiB/s, zone %.0f KiB/s", r_kib,
		     zone_kib);
	T_ASSERT_MSG(w_kib > 0, "the writer must still make some progress");
	T_ASSERT_MSG(w_kib < 0.02 * r_kib, "writer %.0f KiB/s vs reader %.0f KiB/s", w_kib,
		     r_kib);
	T_ASSERT_MSG(w_max >= 10 * r_max, "writer max_lat %llu ns, reader %llu ns",
		     (unsigned long long)w_max, (unsigned long long)r_max);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_b1_sync_class_shares(void)
{
	static struct disk_log log;
	struct ios_run_result res;
	double r_kib, w_kib;

	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run("b1.fio", b1_job, strlen(b1_job), "anticipatory", "sync_class=sync", &log,
			&res), 0);
	r_kib = job_kibps(&res.jobs[0], IOS_READ);
	w_kib = job_kibps(&res.jobs[1], IOS_WRITE);
	fprintf(stderr, "B1 as sync_class=sync: reader %.0f KiB/s, writer %.0f KiB/s\n", r_kib,
		w_kib);
	T_ASSERT_MSG(r_kib > 0.3 * (r_kib + w_kib) && w_kib > 0.3 * (r_kib + w_kib),
		     "reader %.0f KiB/s, writer %.0f KiB/s", r_kib, w_kib);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_b2_buffered_writer_and_cat(void)
{
	static const char *const paths[] = {
		"examples/seeds/b2-buffered-writer-cat.fio",
		"../examples/seeds/b2-buffered-writer-cat.fio",
		"../../examples/seeds/b2-buffered-writer-cat.fio",
	};
	static struct disk_log log;
	struct ios_run_result res;
	char *job = NULL;
	size_t len = 0;
	double busy_r, busy_w, bytes_r, bytes_w;

	for (size_t i = 0; i < IOS_ARRAY_SIZE(paths) && !job; i++)
		job = t_read_file(paths[i], &len);
	if (!job) {
		fprintf(stderr, "examples/seeds/b2-buffered-writer-cat.fio not found\n");
		return T_FAIL;
	}
	memset(&log, 0, sizeof(log));
	T_ASSERT_EQ(run("b2-buffered-writer-cat.fio", job, len, "as", NULL, &log, &res), 0);
	free(job);
	T_ASSERT(res.nr_disks == 1);
	busy_r = (double)log.busy_ns[IOS_READ];
	busy_w = (double)log.busy_ns[IOS_WRITE];
	bytes_r = (double)res.disks[0].sectors[IOS_READ];
	bytes_w = (double)res.disks[0].sectors[IOS_WRITE];
	fprintf(stderr, "B2 as: %.1f s; disk time read %.0f %% write %.0f %%; "
		"bytes read %.0f MB write %.0f MB\n", (double)res.sim_end_ns / 1e9,
		100 * busy_r / (busy_r + busy_w), 100 * busy_w / (busy_r + busy_w),
		bytes_r * 512 / 1e6, bytes_w * 512 / 1e6);
	/* cat read its whole gigabyte */
	T_ASSERT_U64_EQ(res.jobs[1].dir[IOS_READ].io_bytes, 1ULL << 30);
	T_ASSERT_MSG(busy_r >= 0.5 * (busy_r + busy_w) && busy_w >= 0.1 * (busy_r + busy_w),
		     "disk time: read %.0f ms, write %.0f ms", busy_r / 1e6, busy_w / 1e6);
	T_ASSERT_MSG(bytes_r >= 0.5 * (bytes_r + bytes_w) && bytes_w >= 0.1 * (bytes_r + bytes_w),
		     "sectors: read %.0f, write %.0f", bytes_r, bytes_w);
	ios_run_result_free(&res);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_b1_reader_starves_writer, test_b1_sync_class_shares,
			test_b2_buffered_writer_and_cat);

	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	return ret;
}
