/*
 * Description: the runner reaches what is under the queue only through the
 * host interface (iosched/host.h). A recording host with a fixed service
 * time replaces the simulated device: every request the queue dispatches
 * reaches issue(), the scheduler's wake-ups go through set_queue_timer(),
 * the run's clock and loop are the host's, and the result's disk is the one
 * the host described. With a fixed service time the latencies are exact
 * sums of the lab's CPU costs and the host's time, so the test can say what
 * they must be. The simulated host chosen by name gives the same bytes as
 * the default, and a host that fails to start fails the run with its error.
 */
#include <string.h>
#include "harness.h"
#include "iosched/host.h"

#define FAKE_SERVICE_NS 100000ULL	/* every request takes 100 us */
#define FAKE_SECTORS (1ULL << 24)	/* 8 GiB */

/* What the recording host saw; global because destroy() frees the host. */
static struct fake_log {
	unsigned inits, destroys, runs, nows;
	unsigned issued, completed, reads, writes;
	unsigned timers_set, timers_cancelled, timers_fired;
	uint64_t last_sector, last_issue_ns;
	bool out_of_order;		/* a read not right after the previous one */
	bool time_went_back;
	int init_error;			/* init() fails with this when set */
	bool rotational;		/* the disk init() describes */
} fl;

struct fake_host {
	struct ios_timer q_timer;
};

static void fake_ev_done(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct ios_host *h = (struct ios_host *)(uintptr_t)data;

	fl.completed++;
	ios_queue_complete(h->q, arg, sim->now, 0);
}

static void fake_issue(struct ios_host *h, struct ios_request *rq, uint64_t now_ns)
{
	fl.issued++;
	if (now_ns < fl.last_issue_ns)
		fl.time_went_back = true;
	fl.last_issue_ns = now_ns;
	if (rq->dir == IOS_READ) {
		if (fl.reads && rq->sector != fl.last_sector)
			fl.out_of_order = true;
		fl.last_sector = rq->sector + rq->nr_sectors;
		fl.reads++;
	} else {
		fl.writes++;
	}
	(void)ios_sim_at(&h->loop, now_ns + FAKE_SERVICE_NS, fake_ev_done, rq, (uintptr_t)h);
}

static void fake_ev_qtimer(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct ios_host *h = arg;
	struct fake_host *fh = h->priv;

	if (!ios_timer_fire(&fh->q_timer, data))
		return;
	fl.timers_fired++;
	ios_queue_timer(h->q, sim->now);
}

static void fake_set_queue_timer(struct ios_host *h, uint64_t when_ns)
{
	struct fake_host *fh = h->priv;

	if (when_ns == IOS_NO_WAKEUP) {
		fl.timers_cancelled++;
		ios_timer_cancel(&fh->q_timer);
		return;
	}
	fl.timers_set++;
	(void)ios_timer_arm(&h->loop, &fh->q_timer, when_ns < h->loop.now ? h->loop.now : when_ns,
			    fake_ev_qtimer, h);
}

static uint64_t fake_now(struct ios_host *h)
{
	fl.nows++;
	return h->loop.now;
}

static int fake_run(struct ios_host *h)
{
	fl.runs++;
	return ios_sim_run(&h->loop, IOS_NO_WAKEUP);
}

static int fake_init(struct ios_host *h, const struct ios_host_config *cfg, struct ios_err *e)
{
	struct fake_host *fh = h->priv;

	(void)cfg;
	fl.inits++;
	if (fl.init_error)
		return IOS_ERR(e, fl.init_error, "fake host: no such disk");
	ios_timer_init(&fh->q_timer);
	snprintf(h->disk.name, sizeof(h->disk.name), "fake0");
	h->disk.profile = "fake";
	h->disk.nr_sectors = FAKE_SECTORS;
	h->disk.depth = 4;
	h->disk.rotational = fl.rotational;
	return 0;
}

static void fake_destroy(struct ios_host *h)
{
	(void)h;
	fl.destroys++;
}

static const struct ios_host_ops fake_ops = {
	.name = "fake",
	.priv_size = sizeof(struct fake_host),
	.init = fake_init,
	.destroy = fake_destroy,
	.now = fake_now,
	.issue = fake_issue,
	.set_queue_timer = fake_set_queue_timer,
	.run = fake_run,
};

/* 256 sequential 4 KiB O_DIRECT reads, one at a time, on a plain LBA range. */
static const char job_seq_read[] =
	"[r]\nrw=read\nbs=4k\nsize=1m\ndirect=1\nioengine=psync\n";

static int run_job(const char *job, const struct ios_host_ops *host, const char *sched,
		   struct ios_run_result *res, struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf;
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	int ret;

	memset(&jf, 0, sizeof(jf));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("h.fio", job, strlen(job), &po, &jf, e);
	if (ret)
		return ret;
	if (ios_settings_add_kv(&set, "lab.fs=raw", "test", e)) {
		ios_jobfile_free(&jf);
		return -EINVAL;
	}
	cfg.scheduler = sched;
	cfg.seed = 7;
	cfg.settings = &set;
	cfg.host = host;
	ret = ios_run(&jf, &cfg, res, e);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static int test_fake_host_serves_the_run(void)
{
	/* one I/O: submit CPU time, the host's service time, the wake-up after it */
	const uint64_t per_io = 2000 + FAKE_SERVICE_NS + 3000;
	struct ios_run_result res;
	struct ios_err e = { 0 };
	const struct ios_dir_result *rd;

	memset(&fl, 0, sizeof(fl));
	T_ASSERT_MSG(run_job(job_seq_read, &fake_ops, "noop", &res, &e) == 0, "run: %s", e.msg);
	rd = &res.jobs[0].dir[IOS_READ];
	T_ASSERT_EQ(fl.inits, 1);
	T_ASSERT_EQ(fl.destroys, 1);
	T_ASSERT_EQ(fl.runs, 1);
	T_ASSERT(fl.nows >= 1);
	/* every request went through issue() and came back through the queue */
	T_ASSERT_EQ(fl.issued, 256);
	T_ASSERT_EQ(fl.completed, 256);
	T_ASSERT_EQ(fl.reads, 256);
	T_ASSERT_EQ(fl.writes, 0);
	T_ASSERT(!fl.out_of_order);
	T_ASSERT(!fl.time_went_back);
	T_ASSERT_EQ(fl.timers_set, 0);	/* noop never asks for a wake-up */
	/* the result's disk is the host's */
	T_ASSERT_EQ(res.nr_disks, 1);
	T_ASSERT(!strcmp(res.disks[0].name, "fake0"));
	T_ASSERT_U64_EQ(res.disks[0].ios[IOS_READ], 256);
	T_ASSERT_U64_EQ(res.disks[0].sectors[IOS_READ], 2048);
	/* exact times: the host's clock is the run's */
	T_ASSERT_U64_EQ(rd->total_ios, 256);
	T_ASSERT_U64_EQ(rd->clat.min, per_io);
	T_ASSERT_U64_EQ(rd->clat.max, per_io);
	T_ASSERT_U64_EQ(res.sim_end_ns, 256 * per_io);
	ios_run_result_free(&res);
	return T_PASS;
}

/*
 * CFQ idles on a rotational disk's reader queue (not on a non-rotational
 * one with command queueing): its wake-ups are the host's queue timer.
 */
static int test_fake_host_queue_timer(void)
{
	struct ios_run_result res;
	struct ios_err e = { 0 };

	memset(&fl, 0, sizeof(fl));
	fl.rotational = true;
	T_ASSERT_MSG(run_job(job_seq_read, &fake_ops, "cfq", &res, &e) == 0, "run: %s", e.msg);
	T_ASSERT_EQ(fl.issued, 256);
	/*
	 * an idle window after each read; the next read, 5 us later, ends it
	 * before it runs out, all but the last: that one fires and reaches
	 * the queue (CFQ expires the slice)
	 */
	T_ASSERT_EQ(fl.timers_set, 256);
	T_ASSERT_EQ(fl.timers_fired, 1);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_READ].total_ios, 256);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_host_init_error(void)
{
	struct ios_run_result res;
	struct ios_err e = { 0 };

	memset(&fl, 0, sizeof(fl));
	fl.init_error = -ENODEV;
	T_ASSERT_EQ(run_job(job_seq_read, &fake_ops, "noop", &res, &e), -ENODEV);
	T_ASSERT(strstr(e.msg, "fake host: no such disk") != NULL);
	T_ASSERT_EQ(fl.inits, 1);
	T_ASSERT_EQ(fl.destroys, 0);	/* init failed: nothing to destroy */
	T_ASSERT_EQ(fl.issued, 0);
	return T_PASS;
}

/* The simulated host by name is the default: the same run, the same numbers. */
static int test_sim_host_is_default(void)
{
	struct ios_run_result a, b;
	struct ios_err e = { 0 };

	T_ASSERT_MSG(run_job(job_seq_read, NULL, "cfq", &a, &e) == 0, "run: %s", e.msg);
	T_ASSERT_MSG(run_job(job_seq_read, &ios_host_sim_ops, "cfq", &b, &e) == 0, "run: %s",
		     e.msg);
	T_ASSERT(!strcmp(a.disks[0].name, b.disks[0].name));
	T_ASSERT_U64_EQ(a.nr_events, b.nr_events);
	T_ASSERT_U64_EQ(a.sim_end_ns, b.sim_end_ns);
	T_ASSERT_U64_EQ(a.disks[0].in_queue_ms, b.disks[0].in_queue_ms);
	T_ASSERT_U64_EQ(a.jobs[0].dir[IOS_READ].clat.min, b.jobs[0].dir[IOS_READ].clat.min);
	T_ASSERT_U64_EQ(a.jobs[0].dir[IOS_READ].clat.max, b.jobs[0].dir[IOS_READ].clat.max);
	T_ASSERT(a.jobs[0].dir[IOS_READ].clat.mean == b.jobs[0].dir[IOS_READ].clat.mean);
	/* and it is a disk with seeks, not the fixed-time recorder */
	T_ASSERT(a.jobs[0].dir[IOS_READ].clat.max > a.jobs[0].dir[IOS_READ].clat.min);
	ios_run_result_free(&a);
	ios_run_result_free(&b);
	return T_PASS;
}

/* The simulated host describes its device model's disk. */
static int test_sim_host_disk(void)
{
	struct ios_settings set = { 0 };
	struct ios_host_config hc = { .device = "hdd-2009", .settings = &set, .seed = 1 };
	struct ios_host *h;
	struct ios_err e = { 0 };

	T_ASSERT_MSG(ios_host_create(&ios_host_sim_ops, &hc, &h, &e) == 0, "%s", e.msg);
	T_ASSERT(!strcmp(h->ops->name, "sim"));
	T_ASSERT(h->disk.rotational);
	T_ASSERT(h->disk.depth > 1);
	T_ASSERT(h->disk.nr_sectors > 0);
	T_ASSERT(!strcmp(h->disk.profile, "hdd-2009"));
	T_ASSERT_U64_EQ(h->ops->now(h), 0);
	/* nothing queued: the loop is idle at once and the clock stays */
	T_ASSERT_EQ(h->ops->run(h), 0);
	T_ASSERT_U64_EQ(h->ops->now(h), 0);
	ios_host_destroy(h);

	hc.device = "ssd";
	T_ASSERT_MSG(ios_host_create(&ios_host_sim_ops, &hc, &h, &e) == 0, "%s", e.msg);
	T_ASSERT(!h->disk.rotational);
	ios_host_destroy(h);

	hc.device = "no-such-profile";
	T_ASSERT(ios_host_create(&ios_host_sim_ops, &hc, &h, &e) < 0);
	T_ASSERT(h == NULL);
	T_ASSERT(e.code < 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_fake_host_serves_the_run, test_fake_host_queue_timer,
		     test_host_init_error, test_sim_host_is_default, test_sim_host_disk);
}
