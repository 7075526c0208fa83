/*
 * Description: fio 3.33's verification (verify=, HOWTO "Verification"):
 * a write job with verify reads every block back after its writes, in the
 * read direction, through the block layer (O_DIRECT: each read reaches the
 * queue; buffered: the page cache answers), and verify_backlog interleaves
 * the reads with the writes; a write the device dropped (lab.lose_write)
 * is caught with fio's message and err=84 (EILSEQ), the first failure
 * ending the job as it does in fio 3.33, and an older write of the same
 * block is told by its numberio; verify_fatal stops at the first bad chunk
 * of a block; a pattern must be the reader's; a normal run verifies clean;
 * the same run twice gives the same result and messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

struct vlog {
	unsigned reads, writes;			/* bios queued */
	uint64_t first_read_ns, last_write_ns;
};

static void tr_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct vlog *l = priv;

	(void)q;
	(void)rq;
	if (a != IOS_TA_QUEUE || !bio->nr_sectors)
		return;
	if (bio->dir == IOS_READ) {
		if (!l->reads++)
			l->first_read_ns = now;
	} else {
		l->writes++;
		l->last_write_ns = now;
	}
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

static int run_full(const char *job, const char *kv, struct vlog *log, struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("v.fio", job, strlen(job), &po, &jf, &e);
	if (ret) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return ret;
	}
	if (ios_settings_add_kv(&set, "lab.fs=raw", "test", &e) ||
	    (kv && ios_settings_add_kv(&set, kv, "test", &e))) {
		ios_jobfile_free(&jf);
		return -EINVAL;
	}
	cfg.scheduler = "noop";
	cfg.device = "hdd-2009";
	cfg.seed = 7;
	cfg.settings = &set;
	cfg.trace_ops = log ? &tr_ops : NULL;
	cfg.trace = log;
	ret = ios_run(&jf, &cfg, res, &e);
	if (ret)
		fprintf(stderr, "run: %s\n", e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static const char *warning_with(const struct ios_run_result *r, const char *needle)
{
	for (size_t i = 0; i < r->nr_warnings; i++)
		if (strstr(r->warnings[i], needle))
			return r->warnings[i];
	return NULL;
}

static unsigned warnings_with(const struct ios_run_result *r, const char *needle)
{
	unsigned n = 0;

	for (size_t i = 0; i < r->nr_warnings; i++)
		n += strstr(r->warnings[i], needle) != NULL;
	return n;
}

#define SEQ_JOB "[j]\nfilename=f\nrw=write\nbs=4k\nsize=256k\ndirect=1\nverify=crc32c\n"

/* the verify phase: every block read back after the writes, counted as fio counts it */
static int test_verify_phase(void)
{
	struct ios_run_result r;
	struct vlog l = { 0 };
	const struct ios_job_result *j;

	T_ASSERT_EQ(run_full(SEQ_JOB, NULL, &l, &r), 0);
	j = &r.jobs[0];
	T_ASSERT_EQ(j->error, 0);
	T_ASSERT_EQ(j->dir[IOS_WRITE].total_ios, 64);
	T_ASSERT_EQ(j->dir[IOS_READ].total_ios, 64);
	T_ASSERT_U64_EQ(j->dir[IOS_READ].io_bytes, 256 << 10);
	/* real reads, at the disk, after the last write */
	T_ASSERT_EQ(l.reads, 64);
	T_ASSERT_EQ(l.writes, 64);
	T_ASSERT(l.first_read_ns > l.last_write_ns);
	/* fio's update_runtime: the read direction's runtime is the verify phase's */
	T_ASSERT(j->dir[IOS_READ].runtime_ns > 0);
	T_ASSERT(j->dir[IOS_READ].runtime_ns + j->dir[IOS_WRITE].runtime_ns <= j->runtime_ns);
	T_ASSERT(!warning_with(&r, "verify:"));
	ios_run_result_free(&r);

	/* do_verify=0: no verify phase */
	T_ASSERT_EQ(run_full(SEQ_JOB "do_verify=0\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 0);
	ios_run_result_free(&r);

	/* buffered: the page cache holds the writes, the reads never reach the disk */
	memset(&l, 0, sizeof(l));
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=write\nbs=4k\nsize=256k\nverify=md5\n", NULL, &l,
			     &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 64);
	T_ASSERT_EQ(l.reads, 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	ios_run_result_free(&r);

	/* loops=2: a verify phase after each loop (fio 3.33: 128 reads for 128 writes) */
	T_ASSERT_EQ(run_full(SEQ_JOB "loops=2\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_WRITE].total_ios, 128);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 128);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	ios_run_result_free(&r);

	/*
	 * time_based: fio 3.33 ends a pass at the job's size only for I/O an
	 * engine queued (libaio); a sync job writes until its runtime, and no
	 * verify phase follows (fio's note says so)
	 */
	T_ASSERT_EQ(run_full(SEQ_JOB "time_based=1\nruntime=1\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 0);
	T_ASSERT(r.jobs[0].dir[IOS_WRITE].total_ios > 64);
	T_ASSERT(warning_with(&r, "verification read phase will never start"));
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full(SEQ_JOB "time_based=1\nruntime=1\nioengine=libaio\niodepth=4\n",
			     NULL, NULL, &r), 0);
	T_ASSERT(r.jobs[0].dir[IOS_READ].total_ios >= 64);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	ios_run_result_free(&r);

	/* a sequential log keeps the newest write of a block: io_size=2 x size reads size back */
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=write\nbs=4k\nsize=64k\nio_size=128k\n"
			     "direct=1\nverify=crc32c\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 16);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_WRITE].total_ios, 16);
	ios_run_result_free(&r);
	return T_PASS;
}

/* verify_backlog=8: reads of the oldest blocks before the writes are over */
static int test_backlog(void)
{
	struct ios_run_result r;
	struct vlog l = { 0 };

	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=randwrite\nbs=4k\nsize=256k\ndirect=1\n"
			     "ioengine=libaio\niodepth=4\nverify=crc32c\nverify_backlog=8\n",
			     NULL, &l, &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_WRITE].total_ios, 64);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 64);
	T_ASSERT(l.first_read_ns < l.last_write_ns);
	ios_run_result_free(&r);
	/* a batch of 4 every 8 writes: the rest waits for the verify phase, all are read */
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=randwrite\nbs=4k\nsize=256k\ndirect=1\n"
			     "verify=crc32c\nverify_backlog=8\nverify_backlog_batch=4\n",
			     NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 64);
	ios_run_result_free(&r);
	return T_PASS;
}

/* lab.lose_write: the device drops a write; the verify read finds what was there */
static int test_lost_write(void)
{
	struct ios_run_result r;
	const char *w;

	T_ASSERT_EQ(run_full(SEQ_JOB, "lab.lose_write=5", NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, -EILSEQ);
	w = warning_with(&r, "verify:");
	T_ASSERT(w);
	T_ASSERT(!strcmp(w, "verify: bad magic header 0, wanted acca at file f offset 16384, "
			 "length 4096 (requested block: offset=16384, length=4096)"));
	T_ASSERT(warning_with(&r, "fio: pid=1000, err=84/func=io_u_sync_complete"));
	/* fio 3.33 ends the job at the first failure: blocks 0..4 were read */
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 5);
	ios_run_result_free(&r);

	/* the second loop's write of block 3 is lost: loop 1's header (numberio 3) is read */
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=write\nbs=4k\nsize=64k\ndirect=1\n"
			     "verify=crc32c\nloops=2\n", "lab.lose_write=20", NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, -EILSEQ);
	T_ASSERT(warning_with(&r, "verify: bad header numberio 3, wanted 19 at file f offset "
			      "12288, length 4096"));
	ios_run_result_free(&r);

	/* a write that is not O_DIRECT is in the page cache: not counted, nothing lost */
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=write\nbs=4k\nsize=64k\nverify=crc32c\n",
			     "lab.lose_write=3", NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	T_ASSERT(!warning_with(&r, "verify:"));
	T_ASSERT(warning_with(&r, "lab.lose_write=3: the run completed 0 O_DIRECT data writes: "
			      "none was dropped"));
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=write\nbs=4k\nsize=64k\ndirect=1\n",
			     "lab.lose_write=3", NULL, &r), 0);
	T_ASSERT(warning_with(&r, "lab.lose_write=3 has no effect: no job verifies"));
	ios_run_result_free(&r);

	/* verify=null reads, checks nothing */
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=write\nbs=4k\nsize=64k\ndirect=1\nverify=null\n",
			     "lab.lose_write=3", NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 16);
	ios_run_result_free(&r);
	return T_PASS;
}

/*
 * verify_fatal: a block with two bad chunks (a later job wrote into them,
 * not at a header) gives two checksum failures, or one with verify_fatal=1,
 * which also ends the job with err=84.
 */
#define CHUNKS "[w]\nfilename=f\nrw=write\nbs=4k\nsize=4k\ndirect=1\nverify=crc32c\n" \
	       "verify_interval=1k\ndo_verify=0\n" \
	       "[x]\nstonewall\nfilename=f\nrw=write:1536\nbs=512\noffset=512\nnumber_ios=2\n" \
	       "direct=1\n" \
	       "[v]\nstonewall\nfilename=f\nrw=read\nbs=4k\nsize=4k\ndirect=1\nverify=crc32c\n" \
	       "verify_interval=1k\n"

static int test_verify_fatal(void)
{
	struct ios_run_result r;

	/*
	 * fio 3.33 (run on a file, the same two messages): the block's result
	 * is its last chunk's, which is good, so the job goes on with err=0
	 */
	T_ASSERT_EQ(run_full(CHUNKS, NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[2].error, 0);
	T_ASSERT_EQ(warnings_with(&r, "crc32c: verify failed at file f"), 2);
	T_ASSERT(warning_with(&r, "crc32c: verify failed at file f offset 0, length 1024 "
			      "(requested block: offset=0, length=4096, flags=8)"));
	T_ASSERT(warning_with(&r, "offset 2048, length 1024"));
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full(CHUNKS "verify_fatal=1\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[2].error, -EILSEQ);
	T_ASSERT_EQ(warnings_with(&r, "crc32c: verify failed at file f"), 1);
	ios_run_result_free(&r);
	return T_PASS;
}

/* verify=pattern: only the pattern is checked, and it must be the reader's */
static int test_pattern(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run_full("[w]\nfilename=f\nrw=write\nbs=4k\nsize=16k\nverify=pattern\n"
			     "verify_pattern=0xaa55\ndo_verify=0\n"
			     "[r]\nstonewall\nfilename=f\nrw=read\nbs=4k\nsize=16k\n"
			     "verify=pattern\nverify_pattern=0xaa55\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[1].error, 0);
	T_ASSERT_EQ(r.jobs[1].dir[IOS_READ].total_ios, 4);
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full("[w]\nfilename=f\nrw=write\nbs=4k\nsize=16k\nverify=pattern\n"
			     "verify_pattern=0xaa55\ndo_verify=0\n"
			     "[r]\nstonewall\nfilename=f\nrw=read\nbs=4k\nsize=16k\n"
			     "verify=pattern\nverify_pattern=0x1234\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[1].error, -EILSEQ);
	T_ASSERT(warning_with(&r, "pattern: verify failed at file f offset 0, length 4096"));
	ios_run_result_free(&r);
	return T_PASS;
}

/*
 * The sorted log with writes in flight replaced by newer ones (norandommap,
 * a deep queue): clean, each block read once. With a backlog the same job
 * reads blocks that a newer write may overwrite before the read is served:
 * the false failures fio's HOWTO warns of ("do not use norandommap ... with
 * async I/O engines and I/O depths > 1"), which the simulator shows too.
 * Cut short while writes and their log entries are in flight: nothing
 * leaked or read after its free (ASan).
 */
static int test_log_in_flight(void)
{
#define NOMAP_JOB "[j]\nfilename=f\nrw=randwrite\nnorandommap=1\nbs=4k\nsize=64k\n" \
		  "io_size=2m\ndirect=1\nioengine=libaio\niodepth=16\nverify=crc32c\n"
	struct ios_run_result r;

	T_ASSERT_EQ(run_full(NOMAP_JOB, NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_WRITE].total_ios, 512);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 16);
	T_ASSERT(!warning_with(&r, "verify:"));
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full(NOMAP_JOB "verify_backlog=4\n", NULL, NULL, &r), 0);
	T_ASSERT_EQ(r.jobs[0].error, -EILSEQ);
	T_ASSERT(warning_with(&r, "verify: bad header numberio"));
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full("[j]\nfilename=f\nrw=randwrite\nnorandommap=1\nbs=4k\nsize=64k\n"
			     "io_size=64m\ndirect=1\nioengine=libaio\niodepth=16\nverify=crc32c\n",
			     "lab.max_sim_time=5ms", NULL, &r), 0);
	T_ASSERT(r.jobs[0].cut_short);
	ios_run_result_free(&r);
#undef NOMAP_JOB
	return T_PASS;
}

/* the same run, the same result: counts, error and every message */
static int test_determinism(void)
{
	static const char job[] = "[a]\nfilename=f\nrw=randwrite\nbs=4k\nsize=512k\ndirect=1\n"
				  "ioengine=libaio\niodepth=8\nverify=crc32c\nverify_backlog=16\n"
				  "[b]\nfilename=g\nrw=randrw\nbs=4k\nsize=512k\ndirect=1\n"
				  "verify=md5\n";
	struct ios_run_result r1, r2;

	T_ASSERT_EQ(run_full(job, "lab.lose_write=40", NULL, &r1), 0);
	T_ASSERT_EQ(run_full(job, "lab.lose_write=40", NULL, &r2), 0);
	T_ASSERT_EQ(r1.nr_warnings, r2.nr_warnings);
	for (size_t i = 0; i < r1.nr_warnings; i++)
		T_ASSERT(!strcmp(r1.warnings[i], r2.warnings[i]));
	T_ASSERT(warning_with(&r1, "lab.lose_write=40: the device dropped"));
	for (unsigned k = 0; k < 2; k++) {
		T_ASSERT_EQ(r1.jobs[k].error, r2.jobs[k].error);
		T_ASSERT_U64_EQ(r1.jobs[k].finish_ns, r2.jobs[k].finish_ns);
		for (int d = 0; d < 2; d++)
			T_ASSERT_EQ(r1.jobs[k].dir[d].total_ios, r2.jobs[k].dir[d].total_ios);
	}
	/* one of the two lost its write and says so; the other verified clean */
	T_ASSERT((r1.jobs[0].error == -EILSEQ) != (r1.jobs[1].error == -EILSEQ));
	ios_run_result_free(&r1);
	ios_run_result_free(&r2);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_verify_phase, test_backlog, test_lost_write, test_verify_fatal,
		     test_pattern, test_log_in_flight, test_determinism);
}
