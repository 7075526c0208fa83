/*
 * Description: fsync and O_SYNC writeback carry "no idle" the way each
 * release marked it. In 2.6.31 and 2.6.33 data-integrity writeback
 * (WB_SYNC_ALL, __block_write_full_page) is submitted as WRITE_SYNC_PLUG,
 * sync plus BIO_RW_NOIDLE, and CFQ's cfq_completed_request arms no idle
 * timer after such a request (2.6.33: unless its noidle tree already saw an
 * idling request, or the group has one queue). In 4.19 the same writeback is
 * REQ_SYNC without REQ_IDLE, which CFQ's req_noidle reads the same way.
 * O_DIRECT writes (WRITE_ODIRECT, REQ_SYNC | REQ_IDLE) keep idling.
 *
 * Measured through the whole simulator, every CFQ message "arm_idle"
 * attributed to the completion that preceded it. (4.19 is not asserted here
 * beyond the flags: its lone fsync writer loses its idle window but, last on
 * the sync-noidle tree, still idles, as cfq_should_idle has it.)
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"

struct count {
	unsigned sync_writes;		/* completed sync writes with data */
	unsigned armed_after_write;	/* arm_idle right after one of them */
	unsigned noidle_bios;		/* queued write bios marked IOS_REQ_NOIDLE */
	unsigned write_bios;		/* queued write bios with data */
	bool last_was_write;
	uint64_t last_read_ns;		/* latest completion of a read with data */
	unsigned noidle_arms;		/* ... by a queue that had lost its idle window */
	uint64_t noidle_arm_ns[4096];	/* when each of those came */
	bool idle_lost[64];		/* per pid - 1000: "idle=0" seen */
};

static void tr_event(void *priv, struct ios_queue *qu, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct count *c = priv;

	(void)qu;
	(void)now;
	if (a == IOS_TA_QUEUE && bio->dir == IOS_WRITE && bio->nr_sectors) {
		c->write_bios++;
		c->noidle_bios += (bio->flags & IOS_REQ_NOIDLE) != 0;
	}
	if (a != IOS_TA_COMPLETE)
		return;
	c->last_was_write = rq->dir == IOS_WRITE && rq->nr_sectors && (rq->flags & IOS_REQ_SYNC);
	if (rq->dir == IOS_READ && rq->nr_sectors)
		c->last_read_ns = now;
	c->sync_writes += c->last_was_write;
}

static void tr_msg(void *priv, struct ios_queue *qu, uint64_t now, const char *msg)
{
	struct count *c = priv;
	unsigned pid = 0;

	(void)qu;
	if (sscanf(msg, "cfq%u", &pid) != 1 || pid < 1000 ||
	    pid >= 1000 + IOS_ARRAY_SIZE(c->idle_lost))
		pid = 0;
	if (pid && strstr(msg, " idle="))
		c->idle_lost[pid - 1000] = strstr(msg, " idle=0") != NULL;
	if (strstr(msg, "arm_idle") && c->last_was_write) {
		c->armed_after_write++;
		if (pid && c->idle_lost[pid - 1000] && c->noidle_arms < IOS_ARRAY_SIZE(c->noidle_arm_ns))
			c->noidle_arm_ns[c->noidle_arms++] = now;
	}
	if (strstr(msg, "arm_idle"))
		c->last_was_write = false;
}

static const struct ios_trace_ops tr_ops = { .event = tr_event, .message = tr_msg };

static int run(const char *job, const char *sched, const char *kv, struct count *c)
{
	struct ios_settings set = { 0 };
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	int ret;

	memset(c, 0, sizeof(*c));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("noidle.fio", job, strlen(job), &po, &jf, &e);
	if (!ret && kv)
		ret = ios_settings_add_kv(&set, kv, "test", &e);
	if (!ret) {
		cfg.settings = &set;
		cfg.scheduler = sched;
		cfg.device = "hdd-2009";
		cfg.seed = 1;
		cfg.trace_ops = &tr_ops;
		cfg.trace = c;
		ret = ios_run(&jf, &cfg, &res, &e);
		if (!ret)
			ios_run_result_free(&res);
	}
	if (ret)
		fprintf(stderr, "%s: %s\n", sched, e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

/* 2.6.31: a lone fsync writer; every completion would arm the timer were it not noidle */
static int test_fsync_writes_arm_no_idle(void)
{
	static const char job[] = "[w]\nrw=write\nbs=4k\nsize=2m\nfsync=1\n";
	static struct count c;

	T_ASSERT_EQ(run(job, "cfq", NULL, &c), 0);
	T_ASSERT_MSG(c.sync_writes >= 500, "%u sync writes", c.sync_writes);
	T_ASSERT_MSG(c.armed_after_write == 0, "idle armed after %u of %u sync writes",
		     c.armed_after_write, c.sync_writes);
	T_ASSERT_MSG(c.noidle_bios == c.write_bios, "%u of %u write bios noidle", c.noidle_bios,
		     c.write_bios);
	return T_PASS;
}

/*
 * 2.6.33: seeky fsync writers share the sync-noidle tree with a sequential
 * reader in the same group. Their writes are noidle, so the tree never
 * requires idling (noidle_tree_requires_idle stays false) and CFQ moves on
 * after each write instead of idling at the end of the tree. (On the raw
 * layout: an ext3 indirect-block read is a sync read without noidle, and
 * such a read rightly makes the tree require idling.)
 */
static int test_2633_noidle_tree_not_idled(void)
{
	static struct count c;
	unsigned armed = 0;
	static const char job[] = "[w1]\nrw=randwrite\nbs=4k\nsize=256m\nio_size=1m\nfsync=1\n"
				  "[w2]\nrw=randwrite\nbs=4k\nsize=256m\nio_size=1m\nfsync=1\n"
				  "[r]\nrw=read\nbs=64k\nsize=1g\ndirect=1\n";

	T_ASSERT_EQ(run(job, "cfq-2.6.33", "lab.fs=raw", &c), 0);
	T_ASSERT_MSG(c.sync_writes >= 50, "%u sync writes", c.sync_writes);
	/*
	 * Counted: arms by a writer on the sync-noidle tree (its idle window
	 * lost) while the reader still runs. A writer still on the sync tree
	 * idles (rightly), and so does the last queue of the group
	 * (nr_cfqq == 1) once the reader is done.
	 */
	for (unsigned i = 0; i < c.noidle_arms; i++)
		armed += c.noidle_arm_ns[i] < c.last_read_ns;
	T_ASSERT_MSG(armed == 0, "idle armed on the noidle tree after %u of %u sync writes", armed,
		     c.sync_writes);
	return T_PASS;
}

static int test_osync_writes_arm_no_idle(void)
{
	static const char job[] = "[w]\nrw=write\nbs=4k\nsize=2m\nsync=1\n";
	static struct count c;

	T_ASSERT_EQ(run(job, "cfq", NULL, &c), 0);
	T_ASSERT(c.sync_writes >= 500);
	T_ASSERT_MSG(c.armed_after_write == 0, "idle armed after %u of %u O_SYNC writes",
		     c.armed_after_write, c.sync_writes);
	T_ASSERT_EQ(c.noidle_bios, c.write_bios);
	return T_PASS;
}

/* The control: O_DIRECT writes are WRITE_ODIRECT (no noidle), so CFQ idles after them. */
static int test_direct_writes_still_idle(void)
{
	static const char job[] = "[w]\nrw=write\nbs=4k\nsize=2m\ndirect=1\n";
	static struct count c;

	static const char *const profiles[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		T_ASSERT_EQ(run(job, profiles[p], NULL, &c), 0);
		T_ASSERT_EQ(c.noidle_bios, 0);
		T_ASSERT_MSG(c.armed_after_write > c.sync_writes / 2,
			     "%s: idle armed after %u of %u direct writes", profiles[p],
			     c.armed_after_write, c.sync_writes);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_fsync_writes_arm_no_idle, test_2633_noidle_tree_not_idled,
		     test_osync_writes_arm_no_idle,
		     test_direct_writes_still_idle);
}
