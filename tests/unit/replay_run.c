/*
 * Description: replaying a trace. Each process of the trace is one task
 * and one job (named by its comm, with its pid). Async writes go out at
 * their recorded times, whatever is in flight; a read or sync write blocks
 * its process, whose next I/O then goes out lab.complete_ns +
 * lab.submit_ns after the completion (replay.iodepth=2 lets two overlap);
 * replay.time_scale=200 halves the times and replay.no_stall drops them; a
 * process starts at its first I/O. I/O over queue.max_sectors_kb is split
 * into bios, a preflush with data becomes a flush then the write, and a
 * bio that finds no free request sleeps its process (S events) without
 * losing I/O. A trace past the end of the disk is refused naming the record,
 * and one that shrinks after its check fails the run with a message. A job
 * with read_iolog= replays a whole trace or iolog from its own start.
 * A run traced with the blktrace writer and replayed under the same
 * scheduler and device queues the same bios, and replays are deterministic.
 */
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/blktrace.h"
#include "iosched/replay.h"

static char dir[] = "/tmp/iosched-rp-XXXXXX";

/* ---- a binary trace in memory ---- */

struct tb {
	uint8_t buf[1 << 16];
	size_t len;
	uint32_t seq;
};

static void tb_comm(struct tb *b, uint32_t pid, const char *comm)
{
	char c[IOS_BLK_COMM_LEN] = { 0 };
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION,
		.action = IOS_BLK_TC_ACT(IOS_BLK_TC_NOTIFY) | IOS_BLK_TN_PROCESS,
		.pid = pid, .device = IOS_BLK_DEV_SDA, .pdu_len = sizeof(c),
	};

	IOS_BUG_ON(b->len + IOS_BLK_REC_SIZE + sizeof(c) > sizeof(b->buf));
	snprintf(c, sizeof(c), "%s", comm);
	ios_blk_rec_encode(&r, b->buf + b->len);
	memcpy(b->buf + b->len + IOS_BLK_REC_SIZE, c, sizeof(c));
	b->len += IOS_BLK_REC_SIZE + sizeof(c);
}

static void tb_q(struct tb *b, uint64_t t, uint32_t pid, uint64_t sector, uint32_t bytes,
		 uint32_t cat)
{
	IOS_BUG_ON(b->len + IOS_BLK_REC_SIZE > sizeof(b->buf));
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION, .sequence = ++b->seq, .time = t,
		.sector = sector, .bytes = bytes,
		.action = IOS_BLK_TC_ACT(IOS_BLK_TC_QUEUE | cat) | IOS_BLK_TA_QUEUE,
		.pid = pid, .device = IOS_BLK_DEV_SDA,
	};

	ios_blk_rec_encode(&r, b->buf + b->len);
	b->len += IOS_BLK_REC_SIZE;
}

#define R IOS_BLK_TC_READ
#define W IOS_BLK_TC_WRITE
#define SYNC IOS_BLK_TC_SYNC

/* ---- what the block layer saw ---- */

struct ev {
	uint8_t a, dir;
	uint32_t pid, flags, nr;
	uint64_t t, sector;
};

struct tlog {
	struct ev ev[8192];
	size_t n;
};

static void tr_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct tlog *l = priv;
	struct ev *e;

	(void)q;
	if (l->n >= IOS_ARRAY_SIZE(l->ev) || (a != IOS_TA_QUEUE && a != IOS_TA_SLEEPRQ &&
					      a != IOS_TA_COMPLETE))
		return;
	e = &l->ev[l->n++];
	e->a = (uint8_t)a;
	e->t = now;
	if (bio) {
		e->pid = bio->ioc->pid;
		e->sector = bio->sector;
		e->nr = bio->nr_sectors;
		e->dir = bio->dir;
		e->flags = bio->flags;
	} else {
		e->pid = rq->ioc->pid;
		e->sector = rq->sector;
		e->nr = rq->nr_sectors;
		e->dir = rq->dir;
		e->flags = rq->flags;
	}
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

/* The @k-th event @a of @pid, or NULL. */
static const struct ev *nth(const struct tlog *l, enum ios_trace_action a, uint32_t pid, size_t k)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->ev[i].a == a && l->ev[i].pid == pid && !k--)
			return &l->ev[i];
	return NULL;
}

static size_t count(const struct tlog *l, enum ios_trace_action a)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		n += l->ev[i].a == a;
	return n;
}

/* results refer to the replay's jobs: the last replay stays open until the next */
static struct ios_replay *last;

static int replay(struct tb *b, const char *sched, const char *dev, const char *sets,
		  struct tlog *log, struct ios_run_result *res, struct ios_err *e)
{
	struct ios_replay *r;
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	char buf[256], *tok, *save;
	int ret;

	ret = ios_replay_open_mem("t.blktrace", b->buf, b->len, &r, e);
	if (ret)
		return ret;
	ios_replay_close(last);
	last = r;
	snprintf(buf, sizeof(buf), "%s", sets ? sets : "");
	for (tok = strtok_r(buf, " ", &save); tok && !ret; tok = strtok_r(NULL, " ", &save))
		ret = ios_settings_add_kv(&set, tok, "test", e);
	cfg.scheduler = sched;
	cfg.device = dev;
	cfg.settings = &set;
	cfg.seed = 1;
	cfg.trace_ops = log ? &tr_ops : NULL;
	cfg.trace = log;
	if (log)
		log->n = 0;
	if (!ret)
		ret = ios_replay_run(r, &cfg, res, e);
	ios_settings_free(&set);
	return ret;
}

static struct tlog lg;

static int test_async_at_recorded_times(void)
{
	static struct tb b;
	struct ios_run_result res;
	struct ios_err e = { 0 };

	tb_comm(&b, 300, "flusher");
	tb_q(&b, 7000000, 1, 1 << 20, 4096, R);		/* the origin: another process */
	for (int i = 0; i < 10; i++)
		tb_q(&b, 8000000 + 10000 * i, 300, 1000 + 8 * i, 4096, W);
	T_ASSERT_MSG(!replay(&b, "noop", "hdd-2009", NULL, &lg, &res, &e), "%s", e.msg);
	for (int i = 0; i < 10; i++) {
		const struct ev *q = nth(&lg, IOS_TA_QUEUE, 300, (size_t)i);

		T_ASSERT(q);
		T_ASSERT_U64_EQ(q->t, 1000000 + 10000 * (uint64_t)i);
		T_ASSERT_U64_EQ(q->sector, 1000 + 8 * (uint64_t)i);
		T_ASSERT_EQ(q->dir, IOS_WRITE);
		T_ASSERT_EQ(q->flags, 0u);
	}
	/* the disk takes milliseconds: all ten were queued before the first completed */
	T_ASSERT(nth(&lg, IOS_TA_COMPLETE, 300, 0)->t > nth(&lg, IOS_TA_QUEUE, 300, 9)->t);
	/* one job per process, in order of first I/O, named by comm; it starts at its first I/O */
	T_ASSERT_EQ(res.nr_jobs, 2u);
	T_ASSERT(!strcmp(res.jobs[0].name, "pid1"));
	T_ASSERT_EQ(res.jobs[0].pid, 1u);
	T_ASSERT(!strcmp(res.jobs[1].name, "flusher"));
	T_ASSERT_EQ(res.jobs[1].pid, 300u);
	T_ASSERT_U64_EQ(res.jobs[1].start_ns, 1000000);
	T_ASSERT_U64_EQ(res.jobs[1].dir[IOS_WRITE].total_ios, 10);
	T_ASSERT_U64_EQ(res.jobs[1].dir[IOS_WRITE].io_bytes, 40960);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].total_ios, 1);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_sync_blocks(void)
{
	static struct tb b;
	struct ios_run_result res;
	struct ios_err e = { 0 };
	const uint64_t wake = 3000 + 2000;	/* lab.complete_ns + lab.submit_ns */

	tb_comm(&b, 50, "reader");
	tb_q(&b, 0, 50, 100000, 4096, R);
	tb_q(&b, 1000, 50, 900000, 4096, R);		/* recorded 1 us later */
	tb_q(&b, 2000, 50, 5000, 4096, W | SYNC);	/* an O_DIRECT write blocks too */
	tb_q(&b, 3000, 50, 7000, 4096, W);		/* then writeback does not */
	tb_q(&b, 3001, 50, 7008, 4096, W);
	T_ASSERT_MSG(!replay(&b, "noop", "hdd-2009", NULL, &lg, &res, &e), "%s", e.msg);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 50, 0)->t, 0);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 50, 1)->t, nth(&lg, IOS_TA_COMPLETE, 50, 0)->t + wake);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 50, 2)->t, nth(&lg, IOS_TA_COMPLETE, 50, 1)->t + wake);
	T_ASSERT_EQ(nth(&lg, IOS_TA_QUEUE, 50, 2)->flags, (uint32_t)IOS_REQ_SYNC);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 50, 3)->t, nth(&lg, IOS_TA_COMPLETE, 50, 2)->t + wake);
	/* the async writes do not wait for each other */
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 50, 4)->t, nth(&lg, IOS_TA_QUEUE, 50, 3)->t);
	/* the job's latency is Q to C */
	{
		uint64_t l0 = nth(&lg, IOS_TA_COMPLETE, 50, 0)->t - nth(&lg, IOS_TA_QUEUE, 50, 0)->t;
		uint64_t l1 = nth(&lg, IOS_TA_COMPLETE, 50, 1)->t - nth(&lg, IOS_TA_QUEUE, 50, 1)->t;

		T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].clat.n, 2);
		T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].clat.min, l0 < l1 ? l0 : l1);
		T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].clat.max, l0 < l1 ? l1 : l0);
	}
	ios_run_result_free(&res);

	/* two may be in flight: the second read goes out at its recorded time */
	T_ASSERT_MSG(!replay(&b, "noop", "hdd-2009", "replay.iodepth=2", &lg, &res, &e), "%s",
		     e.msg);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 50, 1)->t, 1000);
	T_ASSERT(nth(&lg, IOS_TA_QUEUE, 50, 2)->t > nth(&lg, IOS_TA_COMPLETE, 50, 0)->t);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_time_scale(void)
{
	static struct tb b;
	struct ios_run_result res;
	struct ios_err e = { 0 };

	for (int i = 0; i < 4; i++)
		tb_q(&b, 1000000 * (uint64_t)i, 9, 64 * (uint64_t)i, 4096, W);
	T_ASSERT_MSG(!replay(&b, "noop", "ssd", "replay.time_scale=200", &lg, &res, &e), "%s",
		     e.msg);
	for (int i = 0; i < 4; i++)
		T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 9, (size_t)i)->t, 500000 * (uint64_t)i);
	ios_run_result_free(&res);
	T_ASSERT_MSG(!replay(&b, "noop", "ssd", "replay.no_stall=1", &lg, &res, &e), "%s", e.msg);
	for (int i = 0; i < 4; i++)
		T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 9, (size_t)i)->t, 0);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_split_and_flush(void)
{
	static struct tb b;
	struct ios_run_result res;
	struct ios_err e = { 0 };
	const struct ev *q;

	tb_q(&b, 0, 5, 4096, 1 << 20, R);
	tb_q(&b, 100, 5, 0, 4096, W | SYNC | IOS_BLK_TC_FLUSH | IOS_BLK_TC_FUA);
	tb_q(&b, 200, 5, 0, 0, W | SYNC | IOS_BLK_TC_FLUSH);
	T_ASSERT_MSG(!replay(&b, "deadline", "ssd", NULL, &lg, &res, &e), "%s", e.msg);
	T_ASSERT_EQ(count(&lg, IOS_TA_QUEUE), 5u);
	q = nth(&lg, IOS_TA_QUEUE, 5, 0);
	T_ASSERT(q->sector == 4096 && q->nr == 1024);
	q = nth(&lg, IOS_TA_QUEUE, 5, 1);
	T_ASSERT(q->sector == 5120 && q->nr == 1024);
	q = nth(&lg, IOS_TA_QUEUE, 5, 2);
	T_ASSERT(q->nr == 0 && q->flags == (IOS_REQ_PREFLUSH | IOS_REQ_SYNC));
	q = nth(&lg, IOS_TA_QUEUE, 5, 3);
	T_ASSERT(q->nr == 8 && q->dir == IOS_WRITE && q->flags == (IOS_REQ_SYNC | IOS_REQ_FUA));
	T_ASSERT_EQ(nth(&lg, IOS_TA_QUEUE, 5, 4)->nr, 0u);
	/* one read of 1 MiB, one write, one flush (fio's "sync") */
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].total_ios, 1);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].io_bytes, 1 << 20);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_WRITE].total_ios, 1);
	T_ASSERT_U64_EQ(res.jobs[0].sync_total_ios, 1);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_sleep_for_requests(void)
{
	static struct tb b;
	struct ios_run_result res;
	struct ios_err e = { 0 };

	for (int i = 0; i < 64; i++)
		tb_q(&b, 0, 7, 100000 * (uint64_t)i, 4096, W);
	T_ASSERT_MSG(!replay(&b, "deadline", "hdd-2004", "queue.nr_requests=4", &lg, &res, &e),
		     "%s", e.msg);
	T_ASSERT_EQ(count(&lg, IOS_TA_QUEUE), 64u);
	T_ASSERT_EQ(count(&lg, IOS_TA_COMPLETE), 64u);
	/* the process slept once per full list; the later writes went out later */
	T_ASSERT(count(&lg, IOS_TA_SLEEPRQ) > 0);
	T_ASSERT(count(&lg, IOS_TA_SLEEPRQ) < 64);
	T_ASSERT(nth(&lg, IOS_TA_QUEUE, 7, 63)->t > 0);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_WRITE].total_ios, 64);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_past_the_disk(void)
{
	static struct tb b;
	struct ios_run_result res;
	struct ios_err e = { 0 };

	tb_comm(&b, 3, "big");
	tb_q(&b, 0, 3, 0, 4096, R);
	tb_q(&b, 1, 3, 400000000000ULL, 4096, R);
	T_ASSERT(replay(&b, "noop", "ssd", NULL, NULL, &res, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "t.blktrace: record 3: process 3 (big) reaches sector "
				   "400000000008, past the end of the simulated disk") &&
		     strstr(e.msg, "device ssd"), "%s", e.msg);
	return T_PASS;
}

/* A trace file cut short after it was checked: the run fails, saying so. */
static int test_file_changes(void)
{
	static struct tb b;
	struct ios_replay *r;
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	char path[300];
	FILE *f;

	/* larger than a cursor's 16 KiB buffer, so the cut is met by a later read */
	for (int i = 0; i < 1200; i++)
		tb_q(&b, 1000000 * (uint64_t)i, 4, 8 * (uint64_t)i, 4096, R);
	snprintf(path, sizeof(path), "%s/shrinks.bin", dir);
	f = fopen(path, "wb");
	T_ASSERT(f && fwrite(b.buf, 1, b.len, f) == b.len && !fclose(f));
	T_ASSERT_MSG(!ios_replay_open(path, &r, &e), "%s", e.msg);
	T_ASSERT(!truncate(path, (off_t)(b.len / 2)));
	cfg.scheduler = "noop";
	cfg.device = "ssd";
	T_ASSERT(ios_replay_run(r, &cfg, &res, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "shrinks.bin") && strstr(e.msg, "got shorter"), "%s", e.msg);
	ios_replay_close(r);
	return T_PASS;
}

/*
 * read_iolog= in a job file: the job replays the whole trace (every process,
 * in trace order) from its own start, first I/O first, under its own name;
 * the other jobs run as usual.
 */
static int test_job_read_iolog(void)
{
	static struct tb b;
	static const char iolog[] =
		"fio version 3 iolog\n"
		"100 /dev/sdb add\n"
		"100 /dev/sdb open\n"
		"500 /dev/sdb read 4096 4096\n"
		"800 /dev/sdb write 1048576 8192\n"
		"900 /dev/sdb close\n";
	char trace[300], log[300], job[1200];
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	const struct ev *q;
	FILE *f;

	tb_comm(&b, 61, "one");
	tb_comm(&b, 62, "two");
	tb_q(&b, 3000000, 61, 800000, 4096, W);
	tb_q(&b, 4000000, 62, 900000, 4096, W);
	tb_q(&b, 5000000, 61, 800008, 4096, W);
	snprintf(trace, sizeof(trace), "%s/job.blktrace.0", dir);
	f = fopen(trace, "wb");
	T_ASSERT(f && fwrite(b.buf, 1, b.len, f) == b.len && !fclose(f));
	snprintf(log, sizeof(log), "%s/job.iolog", dir);
	f = fopen(log, "w");
	T_ASSERT(f && fputs(iolog, f) >= 0 && !fclose(f));
	snprintf(job, sizeof(job),
		 "[fromlog]\nread_iolog=%s\n"
		 "[fromtrace]\nread_iolog=%s/job\nstartdelay=20ms\n"
		 "[pattern]\nrw=read\nsize=64k\ndirect=1\nfilename=/dev/sda\n", log, dir);
	ios_job_parse_opts_init(&po);
	T_ASSERT_MSG(!ios_job_parse_buf("j.fio", job, strlen(job), &po, &jf, &e), "%s", e.msg);
	cfg.scheduler = "noop";
	cfg.device = "ssd";
	cfg.trace_ops = &tr_ops;
	cfg.trace = &lg;
	lg.n = 0;
	T_ASSERT_MSG(!ios_run(&jf, &cfg, &res, &e), "%s", e.msg);
	T_ASSERT_EQ(res.nr_jobs, 3u);
	T_ASSERT(!strcmp(res.jobs[0].name, "fromlog") && res.jobs[0].pid == 1000);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].io_bytes, 4096);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_WRITE].io_bytes, 8192);
	/* /dev/ offsets are disk offsets; the first I/O at the job's start */
	q = nth(&lg, IOS_TA_QUEUE, 1000, 0);
	T_ASSERT(q && q->t == 0 && q->sector == 8 && q->dir == IOS_READ);
	q = nth(&lg, IOS_TA_QUEUE, 1000, 1);
	T_ASSERT(q && q->sector == 2048 && q->flags == IOS_REQ_SYNC);
	/* both processes of the trace, as job 2, from its start at 20 ms */
	T_ASSERT(!strcmp(res.jobs[1].name, "fromtrace") && res.jobs[1].pid == 1001);
	T_ASSERT_U64_EQ(res.jobs[1].dir[IOS_WRITE].total_ios, 3);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 1001, 0)->t, 20000000);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 1001, 1)->t, 21000000);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 1001, 1)->sector, 900000);
	T_ASSERT_U64_EQ(nth(&lg, IOS_TA_QUEUE, 1001, 2)->t, 22000000);
	/* the job with a pattern is a job as ever */
	T_ASSERT_U64_EQ(res.jobs[2].dir[IOS_READ].io_bytes, 65536);
	ios_run_result_free(&res);
	ios_jobfile_free(&jf);

	snprintf(job, sizeof(job), "[gone]\nread_iolog=%s/missing.log\n", dir);
	T_ASSERT(!ios_job_parse_buf("k.fio", job, strlen(job), &po, &jf, &e));
	T_ASSERT(ios_run(&jf, &cfg, &res, &e) < 0);
	T_ASSERT_MSG(strstr(e.msg, "k.fio:1: job 'gone': read_iolog=") &&
		     strstr(e.msg, "missing.log: no such file"), "%s", e.msg);
	ios_jobfile_free(&jf);
	return T_PASS;
}

/* Our own trace of a run, replayed under the same scheduler and device. */
static int test_roundtrip(void)
{
	static const char job[] =
		"[global]\nsize=2m\n"
		"[bufwriter]\nrw=write\nbs=4k\nsize=8m\n"
		"[syncwriter]\nrw=write\nbs=4k\nfsync=16\n"
		"[reader]\nrw=read\nbs=16k\n"
		"[aio]\ndirect=1\nioengine=libaio\niodepth=8\nrw=randread\nbs=4k\nsize=1m\n";
	static struct tlog orig;
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res, res2;
	struct ios_replay *r;
	struct ios_blktrace *bt;
	struct ios_err e = { 0 };
	char name[256];
	struct ios_trace_ops both;

	(void)both;
	ios_job_parse_opts_init(&po);
	T_ASSERT(!ios_job_parse_buf("rt.fio", job, strlen(job), &po, &jf, &e));
	T_ASSERT(!ios_settings_add_kv(&set, "vm.memory=32", "t", &e));
	T_ASSERT(!ios_settings_add_kv(&set, "vm.dirty_background_ratio=5", "t", &e));
	snprintf(name, sizeof(name), "%s/rt", dir);
	T_ASSERT(!ios_blktrace_open(name, &bt, &e));
	cfg.scheduler = "cfq";
	cfg.settings = &set;
	cfg.seed = 1;
	cfg.trace_ops = &ios_blktrace_trace_ops;
	cfg.trace = bt;
	T_ASSERT_MSG(!ios_run(&jf, &cfg, &res, &e), "%s", e.msg);
	T_ASSERT(!ios_blktrace_close(bt, NULL, &e));
	/* the same run again, recording what was queued */
	cfg.trace_ops = &tr_ops;
	cfg.trace = &orig;
	T_ASSERT_MSG(!ios_run(&jf, &cfg, &res2, &e), "%s", e.msg);
	ios_run_result_free(&res2);

	T_ASSERT_MSG(!ios_replay_open(name, &r, &e), "%s", e.msg);
	/*
	 * three jobs and the flusher: the buffered writer's pages go out as the
	 * flusher's, and the file it laid out needs no metadata read
	 */
	T_ASSERT_EQ(ios_replay_nr_streams(r), 4u);
	cfg.trace = &lg;
	lg.n = 0;
	T_ASSERT_MSG(!ios_replay_run(r, &cfg, &res2, &e), "%s", e.msg);
	T_ASSERT(orig.n < IOS_ARRAY_SIZE(orig.ev) && lg.n < IOS_ARRAY_SIZE(lg.ev));
	T_ASSERT_EQ(count(&lg, IOS_TA_QUEUE), count(&orig, IOS_TA_QUEUE));
	/*
	 * per process, the same bios in the same order (with the same flags,
	 * but for fsync's noidle hint, which no blktrace record carries)
	 */
	for (size_t i = 0; i < ios_replay_nr_streams(r); i++) {
		uint32_t pid = ios_replay_stream(r, i)->pid;

		for (size_t k = 0;; k++) {
			const struct ev *a = nth(&orig, IOS_TA_QUEUE, pid, k);
			const struct ev *b = nth(&lg, IOS_TA_QUEUE, pid, k);

			T_ASSERT(!a == !b);
			if (!a)
				break;
			T_ASSERT_MSG(a->sector == b->sector && a->nr == b->nr && a->dir == b->dir &&
				     (a->flags & ~(uint32_t)IOS_REQ_NOIDLE) == b->flags,
				     "pid %u bio %zu: %llu+%u vs %llu+%u",
				     pid, k, (unsigned long long)a->sector, a->nr,
				     (unsigned long long)b->sector, b->nr);
		}
	}
	/*
	 * the jobs keep their names and pids (a job without bios of its own, as
	 * the buffered writer is, is not in the trace); the bytes moved are
	 * the same
	 */
	for (size_t i = 0; i < res.nr_jobs; i++) {
		size_t k;

		if (!nth(&orig, IOS_TA_QUEUE, res.jobs[i].pid, 0))
			continue;

		for (k = 0; k < res2.nr_jobs; k++)
			if (res2.jobs[k].pid == res.jobs[i].pid)
				break;
		T_ASSERT(k < res2.nr_jobs);
		T_ASSERT(!strcmp(res2.jobs[k].name, res.jobs[i].name));
	}
	ios_run_result_free(&res2);
	ios_run_result_free(&res);
	ios_replay_close(r);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static int test_deterministic(void)
{
	static struct tb b;
	struct ios_run_result a, c;
	struct ios_err e = { 0 };
	struct ios_buf ja, jc;

	tb_comm(&b, 1, "one");
	tb_comm(&b, 2, "two");
	for (int i = 0; i < 200; i++)
		tb_q(&b, 50000 * (uint64_t)i, 1 + (i % 2), 777 * (uint64_t)i * 8, 8192,
		     i % 3 ? R : W | SYNC);
	T_ASSERT_MSG(!replay(&b, "cfq", "hdd-2009", NULL, NULL, &a, &e), "%s", e.msg);
	{
		/* a second replay of its own: @a still needs the first one's jobs */
		struct ios_replay *keep = last;

		last = NULL;
		T_ASSERT_MSG(!replay(&b, "cfq", "hdd-2009", NULL, NULL, &c, &e), "%s", e.msg);
		ios_buf_init(&ja);
		T_ASSERT(!ios_report_json(&a, &ja));
		ios_run_result_free(&a);
		ios_replay_close(keep);
	}
	ios_buf_init(&jc);
	T_ASSERT(!ios_report_json(&c, &jc));
	T_ASSERT_EQ(ja.len, jc.len);
	T_ASSERT(!memcmp(ja.s, jc.s, ja.len));
	T_ASSERT(strstr(ja.s, "\"read_iolog\" : \"t.blktrace\""));
	T_ASSERT(strstr(ja.s, "\"jobname\" : \"two\""));
	ios_buf_free(&ja);
	ios_buf_free(&jc);
	ios_run_result_free(&c);
	return T_PASS;
}

int main(void)
{
	char cmd[300];
	int ret;

	if (!mkdtemp(dir))
		return T_FAIL;
	ret = T_RUN(test_async_at_recorded_times, test_sync_blocks, test_time_scale,
		    test_split_and_flush, test_sleep_for_requests, test_past_the_disk,
		    test_file_changes, test_job_read_iolog, test_roundtrip, test_deterministic);
	ios_replay_close(last);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return ret;
}
