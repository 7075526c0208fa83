/*
 * Description: the metadata of files the job lays out is in the cache when
 * the run starts; that of files which existed before (lab.file_size) is not.
 * fio writes a file it creates before the run, which leaves the file's
 * directory, inode and indirect blocks in the buffer cache (its invalidate=1
 * drops only the file's own pages). So intro.fio's random O_DIRECT reader of
 * a 1 GiB ext3 file sends the disk one request per read; reading a file that
 * was already there, it also reads the directory and inode blocks at open and
 * an indirect block for most reads (a 1 GiB file has 256 of them).
 */
#include <string.h>
#include "harness.h"

struct count {
	uint64_t queued[8];	/* bios queued per pid - 1000 */
	uint64_t meta[8];	/* of which sync reads flagged META (directory, inode) */
};

static void tr_event(void *priv, struct ios_queue *qu, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct count *c = priv;
	uint32_t pid;

	(void)qu;
	(void)rq;
	(void)now;
	if (a != IOS_TA_QUEUE || !bio->ioc || bio->ioc->pid < 1000 || bio->ioc->pid >= 1008)
		return;
	pid = bio->ioc->pid - 1000;
	c->queued[pid]++;
	c->meta[pid] += (bio->flags & IOS_REQ_META) != 0;
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

/* examples/intro.fio */
static const char intro[] = "[global]\ndirect=1\nioengine=psync\nruntime=5\ntime_based\nsize=1g\n"
			    "[seq-reader]\nrw=read\nbs=64k\n"
			    "[rand-reader]\nrw=randread\nbs=4k\n"
			    "[seq-writer]\nrw=write\nbs=64k\n";

static int run(const char *sched, const char *kv, struct count *c, uint64_t *rand_reads)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	int ret;

	memset(c, 0, sizeof(*c));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("intro.fio", intro, strlen(intro), &po, &jf, &e);
	if (!ret && kv)
		ret = ios_settings_add_kv(&set, kv, "test", &e);
	if (!ret) {
		cfg.scheduler = sched;
		cfg.settings = &set;
		cfg.seed = 1;
		cfg.trace_ops = &tr_ops;
		cfg.trace = c;
		ret = ios_run(&jf, &cfg, &res, &e);
	}
	if (!ret) {
		*rand_reads = res.jobs[1].dir[IOS_READ].total_ios;
		if (res.jobs[1].pid != 1001 || strcmp(res.jobs[1].name, "rand-reader"))
			ret = -1;
		ios_run_result_free(&res);
	}
	if (ret)
		fprintf(stderr, "%s: %s\n", sched, e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static const char *const scheds[] = { "cfq", "deadline", "noop", "cfq-4.19" };

static int test_laid_out_file_reads_once(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++) {
		struct count c;
		uint64_t reads = 0;

		T_ASSERT_EQ(run(scheds[i], NULL, &c, &reads), 0);
		T_ASSERT_MSG(reads >= 10, "%s: %llu reads", scheds[i], (unsigned long long)reads);
		T_ASSERT_MSG(c.queued[1] == reads, "%s: %llu disk requests for %llu reads", scheds[i],
			     (unsigned long long)c.queued[1], (unsigned long long)reads);
		T_ASSERT_EQ(c.meta[1], 0);
		/* the sequential reader and the writer read no metadata either */
		T_ASSERT_EQ(c.meta[0] + c.meta[2], 0);
	}
	return T_PASS;
}

static int test_existing_file_reads_cold(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++) {
		struct count c;
		uint64_t reads = 0;

		T_ASSERT_EQ(run(scheds[i], "lab.file_size=1g", &c, &reads), 0);
		T_ASSERT(reads >= 5);
		/*
		 * The opens read the directory and inode blocks (the three files
		 * share them: whoever opens first reads them); then the random
		 * reader reads an indirect block for most reads: of a 1 GiB
		 * file's 256, n random reads meet 256 * (1 - e^(-n/256)), over
		 * 70 % of n while n < 180.
		 */
		T_ASSERT_MSG(c.meta[0] + c.meta[1] + c.meta[2] >= 2, "%s: %llu + %llu + %llu", scheds[i],
			     (unsigned long long)c.meta[0], (unsigned long long)c.meta[1],
			     (unsigned long long)c.meta[2]);
		T_ASSERT_MSG(c.queued[1] - c.meta[1] >= reads + reads / 2,
			     "%s: %llu requests, %llu reads", scheds[i],
			     (unsigned long long)c.queued[1], (unsigned long long)reads);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_laid_out_file_reads_once, test_existing_file_reads_cold);
}
