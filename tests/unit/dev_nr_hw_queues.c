/*
 * Description: device interface version 2 (include/iosched/device.h), the
 * blk-mq geometry a device offers, following Linux 6.12's drivers:
 * - a type's default is one hardware queue, and a hw_queue_depth of 0
 *   means the legacy queue_depth; a version 1 type (no rows) reads as one
 *   queue of queue_depth() tags; a version 2 type without the rows is
 *   refused by ios_dev_type_check;
 * - ssd-nvme offers 32 queues of 1023 tags (nvme: min(io_queue_depth 1024,
 *   MQES + 1) - 1) while its legacy queue_depth stays 256; the SATA
 *   profiles offer one queue of 32 (libata 6.12), hdd-2004 one of 1;
 * - the ranges: nr_hw_queues 1..65536, hw_queue_depth 0..10240
 *   (BLK_MQ_MAX_DEPTH), refused outside, never clamped;
 * - the legacy layer reads queue_depth() unchanged: a legacy run on
 *   ssd-nvme keeps at most 256 commands in the device, and the host's
 *   geometry gives a legacy queue queue_depth() and one hardware queue;
 *   a blk-mq queue gets hw_queue_depth and min(queues, lab.cpus);
 * - the device accepts every hardware queue's tags and refuses one more.
 */
#include <string.h>
#include "harness.h"
#include "dev_rig.h"
#include "core/builtin.h"
#include "run/run_int.h"

static int test_profiles(void)
{
	static const struct {
		const char *profile;
		unsigned legacy, nrq, depth;
	} want[] = {
		{ "hdd-2009", 31, 1, 32 },
		{ "hdd-2004", 1, 1, 1 },
		{ "ssd", 32, 1, 32 },
		{ "ssd-nvme", 256, 32, 1023 },
		{ "ssd-ftl-2009", 32, 1, 32 },
		{ "smr-hm", 31, 1, 32 },
		{ "zns", 256, 32, 1023 },
		{ "cloud", 32, 32, 1023 },
		{ "cloud-gp2", 32, 32, 1023 },
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(want); i++) {
		struct ios_dev *dev = dev_new(want[i].profile, NULL);

		T_ASSERT(dev);
		T_ASSERT_EQ(dev->type->version, 2);
		T_ASSERT_EQ(dev->type->ops.queue_depth(dev), want[i].legacy);
		T_ASSERT_EQ(ios_dev_nr_hw_queues(dev), want[i].nrq);
		T_ASSERT_EQ(ios_dev_hw_queue_depth(dev), want[i].depth);
		ios_dev_destroy(dev);
	}
	return T_PASS;
}

static int test_defaults(void)
{
	const struct ios_dev_type *t;
	struct ios_dev *dev;

	/* every type: the rows are there, one queue, depth 0 = queue_depth */
	for (size_t i = 0; (t = ios_dev_type_at(i)) != NULL; i++) {
		const struct ios_tunable *q = ios_tunable_find(t->tunables, "nr_hw_queues");
		const struct ios_tunable *d = ios_tunable_find(t->tunables, "hw_queue_depth");

		T_ASSERT(q && d);
		T_ASSERT(!strcmp(q->def, "1"));
		T_ASSERT(!strcmp(d->def, "0"));
		T_ASSERT_EQ(q->min, 1);
		T_ASSERT_EQ(q->max, 65536);
		T_ASSERT_EQ(d->min, 0);
		T_ASSERT_EQ(d->max, 10240);
	}
	/* depth 0 follows the legacy depth, whatever it is set to */
	dev = dev_new("ssd", "device.hw_queue_depth=0", "device.queue_depth=7", NULL);
	T_ASSERT(dev);
	T_ASSERT_EQ(ios_dev_hw_queue_depth(dev), 7);
	T_ASSERT_EQ(ios_dev_nr_hw_queues(dev), 1);
	T_ASSERT_EQ(ios_dev_max_commands(dev), 7);
	ios_dev_destroy(dev);
	/* and the two settings are independent otherwise */
	dev = dev_new("ssd-nvme", "device.queue_depth=64", "device.nr_hw_queues=4", NULL);
	T_ASSERT(dev);
	T_ASSERT_EQ(dev->type->ops.queue_depth(dev), 64);
	T_ASSERT_EQ(ios_dev_nr_hw_queues(dev), 4);
	T_ASSERT_EQ(ios_dev_hw_queue_depth(dev), 1023);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_ranges(void)
{
	static const char *const bad[] = {
		"device.nr_hw_queues=0", "device.nr_hw_queues=65537",
		"device.hw_queue_depth=-1", "device.hw_queue_depth=10241",
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(bad); i++) {
		struct ios_err e = { 0 };

		T_ASSERT(dev_new_err("ssd-nvme", &e, bad[i], NULL) == NULL);
		T_ASSERT_EQ(e.code, -ERANGE);
		T_ASSERT_MSG(strstr(e.msg, i < 2 ? "1..65536" : "0..10240"), "%s", e.msg);
	}
	return T_PASS;
}

/* A version 1 type (written before blk-mq): one queue of queue_depth() tags. */
static unsigned v1_depth(const struct ios_dev *dev)
{
	(void)dev;
	return 5;
}

static int test_version1_and_check(void)
{
	struct ios_dev_type v1 = ios_dev_ssd;
	struct ios_dev dev = { 0 };
	struct ios_tunable rows[2] = { { 0 } };
	struct ios_err e = { 0 };

	v1.version = 1;
	v1.ops.queue_depth = v1_depth;
	dev.type = &v1;
	/* whatever the fields hold, a v1 type's are not read */
	dev.nr_hw_queues = 9;
	dev.hw_queue_depth = 99;
	T_ASSERT_EQ(ios_dev_nr_hw_queues(&dev), 1);
	T_ASSERT_EQ(ios_dev_hw_queue_depth(&dev), 5);
	T_ASSERT_EQ(ios_dev_max_commands(&dev), 5);
	/* a v1 type needs no rows; a v2 type does */
	v1.tunables = rows;
	T_ASSERT_EQ(ios_dev_type_check(&v1, &e), 0);
	v1.version = 2;
	T_ASSERT_EQ(ios_dev_type_check(&v1, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "nr_hw_queues") && strstr(e.msg, "IOS_DEV_MQ_ROWS"), "%s",
		     e.msg);
	T_ASSERT_EQ(ios_dev_type_check(&ios_dev_ssd, &e), 0);
	return T_PASS;
}

/* The device takes every hardware queue's tags at once, then says busy. */
static int test_accepts_all_tags(void)
{
	struct ios_dev *dev = dev_new("ssd-nvme", "device.nr_hw_queues=2",
				      "device.hw_queue_depth=300", NULL);
	static struct ios_request rq[601];
	unsigned n;

	T_ASSERT(dev);
	T_ASSERT_EQ(ios_dev_max_commands(dev), 600);
	for (n = 0; n < 600; n++) {
		rq[n].sector = (uint64_t)n * 8;
		rq[n].nr_sectors = 8;
		rq[n].dir = IOS_READ;
		T_ASSERT_EQ(dev->type->ops.submit(dev, &rq[n], 0), 0);
	}
	rq[n].sector = 0;
	rq[n].nr_sectors = 8;
	rq[n].dir = IOS_READ;
	T_ASSERT_EQ(dev->type->ops.submit(dev, &rq[n], 0), -EBUSY);
	ios_dev_destroy(dev);
	return T_PASS;
}

/* What the host hands the block layer, per layer. */
static int test_geometry(void)
{
	struct ios_host_disk nvme = { .depth = 256, .nr_hw_queues = 32, .hw_queue_depth = 1023 };
	struct ios_host_disk real = { .depth = 64 };	/* a host that reads no mq numbers */
	struct ios_queue_config qc;

	memset(&qc, 0, sizeof(qc));
	ios_run_queue_geometry(&nvme, 4, IOS_SCHED_LAYER_SQ, &qc);
	T_ASSERT_EQ(qc.depth, 256);
	T_ASSERT_EQ(qc.nr_hw_queues, 1);
	T_ASSERT_EQ(qc.nr_cpus, 4);
	ios_run_queue_geometry(&nvme, 4, IOS_SCHED_LAYER_MQ, &qc);
	T_ASSERT_EQ(qc.depth, 1023);
	T_ASSERT_EQ(qc.nr_hw_queues, 4);	/* one per CPU at most */
	ios_run_queue_geometry(&nvme, 64, IOS_SCHED_LAYER_MQ, &qc);
	T_ASSERT_EQ(qc.nr_hw_queues, 32);	/* what the device offers */
	ios_run_queue_geometry(&real, 8, IOS_SCHED_LAYER_MQ, &qc);
	T_ASSERT_EQ(qc.depth, 64);
	T_ASSERT_EQ(qc.nr_hw_queues, 1);
	return T_PASS;
}

/* ---- a legacy run on ssd-nvme: at most queue_depth() in the device ---- */

struct inflight {
	unsigned now, max;
};

static void if_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct inflight *f = priv;

	(void)q;
	(void)rq;
	(void)bio;
	(void)now;
	if (a == IOS_TA_ISSUE && ++f->now > f->max)
		f->max = f->now;
	if (a == IOS_TA_COMPLETE && f->now)
		f->now--;
}

static const struct ios_trace_ops if_ops = { .event = if_event };

static int test_legacy_depth(void)
{
	static const char job[] = "[r]\nrw=randread\nbs=4k\nioengine=libaio\niodepth=1024\n"
				  "direct=1\nfilename=/dev/sdb\nsize=256m\nio_size=16m\n";
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	struct inflight f = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	T_ASSERT_MSG(!ios_job_parse_buf("r.fio", job, strlen(job), &po, &jf, &e), "%s", e.msg);
	T_ASSERT(!ios_settings_add_kv(&set, "lab.fs=raw", "test", &e));
	T_ASSERT(!ios_settings_add_kv(&set, "lab.cpus=8", "test", &e));
	/* enough requests that the device depth, not the request lists, is the limit */
	T_ASSERT(!ios_settings_add_kv(&set, "queue.nr_requests=2048", "test", &e));
	cfg.scheduler = "noop";
	cfg.device = "ssd-nvme";
	cfg.seed = 3;
	cfg.settings = &set;
	cfg.trace_ops = &if_ops;
	cfg.trace = &f;
	ret = ios_run(&jf, &cfg, &res, &e);
	T_ASSERT_MSG(!ret, "%s", e.msg);
	/* the legacy queue fills the device to queue_depth() = 256, not 32 x 1023 */
	T_ASSERT_EQ(f.max, 256);
	ios_run_result_free(&res);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_profiles, test_defaults, test_ranges, test_version1_and_check,
		     test_accepts_all_tags, test_geometry, test_legacy_depth);
}
