/*
 * The device registry: built-in device types and the profiles made of them.
 *
 * A type is code (hdd.c, ssd.c) with a table of tunables; a profile is data:
 * a type name plus "name=value" settings applied over the type's defaults.
 * Creating a device layers, in order, the type defaults, the profile, and
 * the user's device.NAME=VALUE settings, then lets the type's init() derive
 * its geometry and reject impossible combinations. Each layer goes through
 * the generic tunable engine, so a bad value is reported the same way
 * wherever it came from, naming the layer ("profile hdd-2004", "--set",
 * "job.fio:12").
 *
 * Types and profiles sit in explicit const arrays (no constructor-time
 * registration, which static libraries silently drop). Profile numbers and
 * where they come from are in docs/devices.md.
 *
 * Each profile has two depths since device interface version 2: queue_depth
 * is what the 2.6-era single-queue layer was given (the legacy schedulers'
 * runs read it, unchanged), nr_hw_queues x hw_queue_depth is what a Linux
 * 6.12 driver gives blk-mq. They differ where the drivers did: libata took
 * tag 31 for its internal command until 4.18 and so queued 31 NCQ commands,
 * 6.12 queues 32; the NVMe profiles' 256 was a deep single queue, 6.12's
 * nvme driver makes 1023 tags per hardware queue. Sources: docs/devices.md.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/device.h"
#include "core/builtin.h"
#include "iosched/scope.h"
#include "iosched/suggest.h"
#include "dev/disksim_parse.h"

static const struct ios_dev_type *const dev_types[] = {
	&ios_dev_hdd,
	&ios_dev_ssd,
	&ios_dev_ssd_ftl,
	&ios_dev_smr_hm,
	&ios_dev_zns,
	&ios_dev_cloud,
	&ios_dev_disksim,
};

/*
 * hdd-2009: a 1 TB 7200 rpm SATA drive with NCQ (spec table "sata-2009").
 * Every value is spelled out, so the profile does not move if the type's
 * defaults do.
 *
 * Not one real drive: a 2009 desktop class. Seek average and write settle
 * are the Hitachi Deskstar 7K1000.C's (2-disk model), single-track seek the
 * Deskstar 5K320/7K320's, the outer rate sits below the Seagate Barracuda
 * XT's 138 MB/s; full stroke, switch times, overheads, cache layout and the
 * SATF aging are assumptions. Each value's source and kind (real, in range,
 * derived, fitted, assumed): docs/devices.md, "Where the profile numbers
 * come from".
 */
static const char *const dev_hdd_2009[] = {
	"capacity=1000204886016B",	/* 1953525168 LBAs, the usual "1 TB" */
	"rpm=7200",
	"heads=4",
	"zones=30",
	"outer_mbps=130",
	"inner_mbps=65",
	"seek_track_ms=1.0",
	"seek_avg_ms=8.5",
	"seek_full_ms=17.0",
	"write_settle_ms=1.0",
	"head_switch_ms=1.0",
	"cyl_switch_ms=1.2",
	"cmd_overhead_ms=0.2",
	"hit_overhead_ms=0.1",
	"interface_mbps=300",
	"cache_size=32MiB",
	"cache_segments=16",
	"read_cache=1",
	"read_ahead=1",
	"read_ahead_max=0",
	"write_cache=1",
	"queue_depth=31",
	/*
	 * blk-mq on 6.12: one queue (libata is a single-queue SCSI host), and
	 * min(AHCI can_queue 32, the drive's NCQ depth 32, ATA_MAX_QUEUE 32)
	 * tags: ata_scsi_dev_config (drivers/ata/libata-scsi.c), AHCI_SHT
	 * (drivers/ata/ahci.h), include/linux/libata.h. See docs/devices.md.
	 */
	"nr_hw_queues=1",
	"hw_queue_depth=32",
	"ncq_policy=satf",
	"ncq_age_limit_ms=500",
	NULL,
};

/*
 * hdd-2004: a 160 GB 7200 rpm PATA drive, no queueing (spec table
 * "ata-2004"; Deskstar 7K250/180GXP and Barracuda 7200.7 numbers).
 *
 * Not one real drive: a 2004 desktop class. Average seek and cache size are
 * the Seagate Barracuda 7200.7's, zone rates and 30 zones the Hitachi
 * Deskstar 7K500's (7K250 too for the zones), head switch the Deskstar
 * 180GXP's, cylinder switch the 60GXP's, full stroke inside the 180GXP's
 * and DTLA's 14.7-17.7 ms; single-track seek, write settle, overheads and
 * the 4 segments have no recorded source. hit_overhead_ms is
 * fitted: 0.17 ms gives QD1 sequential 4 KiB reads the ~19.8 MB/s of
 * seed-scenarios.md 2.3 (20.4 measured). Each value's source and kind:
 * docs/devices.md, "Where the profile numbers come from".
 */
static const char *const dev_hdd_2004[] = {
	"capacity=160041885696B",	/* 312581808 LBAs */
	"rpm=7200",
	"heads=4",
	"zones=30",
	"outer_mbps=65",
	"inner_mbps=31",
	"seek_track_ms=1.0",
	"seek_avg_ms=8.5",
	"seek_full_ms=16.0",
	"write_settle_ms=1.0",
	"head_switch_ms=1.4",
	"cyl_switch_ms=1.8",
	"cmd_overhead_ms=0.2",
	"hit_overhead_ms=0.17",
	"interface_mbps=133",
	"cache_size=8MiB",
	"cache_segments=4",
	"read_cache=1",
	"read_ahead=1",
	"read_ahead_max=0",
	"write_cache=1",
	"queue_depth=1",
	/* no NCQ: one command at a time on 6.12 too (libata's ATA_DEF_QUEUE) */
	"nr_hw_queues=1",
	"hw_queue_depth=1",
	"ncq_policy=fcfs",
	"ncq_age_limit_ms=500",
	NULL,
};

/* ssd: a 2009-era 120 GB SATA MLC drive (X25-M class). */
static const char *const dev_ssd_2009[] = {
	"capacity=120034123776B",
	"channels=8",
	"ways=4",
	"page_size=4KiB",
	"t_read_us=50",
	"t_prog_us=900",
	"channel_mbps=80",
	"interface_mbps=300",
	"cmd_overhead_us=28",
	"write_buffer=16MiB",
	"queue_depth=32",
	/* SATA on 6.12: one queue of 32 NCQ tags, as hdd-2009 */
	"nr_hw_queues=1",
	"hw_queue_depth=32",
	NULL,
};

/*
 * ssd-nvme: a later NVMe TLC drive, for contrast: deep queue, fast bus.
 * queue_depth=256 stays the legacy layer's depth (runs under the 2.6-era
 * schedulers do not move). blk-mq gets what the 6.12 nvme driver makes:
 * tags per queue = min(io_queue_depth 1024, MQES + 1) - 1 = 1023 (one
 * queue slot stays empty: nvme_pci_enable, nvme_alloc_io_tag_set), on as
 * many hardware queues as the controller grants, at most one per CPU.
 */
static const char *const dev_ssd_nvme[] = {
	"capacity=512110190592B",
	"channels=8",
	"ways=8",
	"page_size=4KiB",
	"t_read_us=60",
	"t_prog_us=700",
	"channel_mbps=800",
	"interface_mbps=3500",
	"cmd_overhead_us=3",
	"write_buffer=64MiB",
	"queue_depth=256",
	"nr_hw_queues=32",
	"hw_queue_depth=1023",
	NULL,
};

/*
 * ssd-ftl-2009: an Intel X25-M class 2009 MLC drive (10 channels) with a
 * page-mapped FTL and 7.3 % spare, capacity scaled to 16 GiB so the page
 * map stays small; sources in docs/devices.md.
 */
static const char *const dev_ssd_ftl_2009[] = {
	"capacity=16GiB",
	"channels=10",
	"ways=2",
	"page_size=4KiB",
	"pages_per_block=128",
	"over_provisioning=73",
	"gc_reserve=2",
	"prefill=0",
	"t_read_us=50",
	"t_prog_us=900",
	"t_erase_ms=2",
	"channel_mbps=80",
	"interface_mbps=300",
	"cmd_overhead_us=28",
	"write_buffer=16MiB",
	"queue_depth=32",
	"nr_hw_queues=1",
	"hw_queue_depth=32",
	NULL,
};

/*
 * smr-hm: a 14 TB host-managed SMR disk of the Ultrastar DC HC620 class:
 * 52156 zones of 256 MiB, the first 524 conventional (about 1 %), 128 open
 * zones at most. The mechanics are datasheet-class values for a 2019 7200 rpm
 * helium drive (approximate; see docs/devices.md).
 */
static const char *const dev_smr_hm[] = {
	"capacity=14000519643136B",	/* 27344764928 LBAs = 52156 x 256 MiB */
	"rpm=7200",
	"heads=16",
	"zones=30",
	"outer_mbps=255",
	"inner_mbps=120",
	"seek_track_ms=0.8",
	"seek_avg_ms=7.5",
	"seek_full_ms=16.0",
	"write_settle_ms=1.0",
	"head_switch_ms=1.0",
	"cyl_switch_ms=1.2",
	"cmd_overhead_ms=0.2",
	"hit_overhead_ms=0.1",
	"interface_mbps=600",
	"cache_size=512MiB",
	"cache_segments=16",
	"read_cache=1",
	"read_ahead=1",
	"read_ahead_max=0",
	"write_cache=1",
	"queue_depth=31",
	"nr_hw_queues=1",
	"hw_queue_depth=32",
	"ncq_policy=satf",
	"ncq_age_limit_ms=500",
	"zone_size=256MiB",
	"zone_capacity=0",
	"conv_zones=524",
	"max_open_zones=128",
	"max_active_zones=0",
	"urswrz=1",
	"zero_read_us=100",
	"zero_read_mbps=600",
	NULL,
};

/*
 * zns: a 512 GiB NVMe zoned namespace of the WD ZN540 class: 2 GiB zones
 * of 1077 MiB capacity, 14 open and 14 active zones; the flash is ssd-nvme's.
 */
static const char *const dev_zns[] = {
	"capacity=549755813888B",	/* 256 zones of 2 GiB */
	"channels=8",
	"ways=8",
	"page_size=4KiB",
	"t_read_us=60",
	"t_prog_us=700",
	"channel_mbps=800",
	"interface_mbps=3500",
	"cmd_overhead_us=3",
	"write_buffer=64MiB",
	"queue_depth=256",
	"nr_hw_queues=32",
	"hw_queue_depth=1023",
	"zone_size=2048MiB",
	"zone_capacity=1077MiB",
	"conv_zones=0",
	"max_open_zones=14",
	"max_active_zones=14",
	"zero_read_us=10",
	"zero_read_mbps=3500",
	NULL,
};

/*
 * cloud: an AWS EBS gp3 volume at its included baseline (3,000 IOPS,
 * 125 MiB/s, no burst: gp3 has none), as a Nitro instance sees it: an NVMe
 * device. Every number and where it comes from (AWS pages read 2026-12-06,
 * or an assumption, marked) is in docs/devices.md, "cloud".
 */
static const char *const dev_cloud[] = {
	"capacity=100GiB",		/* A: gp3's performance does not depend on size */
	"iops=3000",			/* gp3 baseline IOPS */
	"throughput_mibps=125",		/* gp3 baseline throughput */
	"burst_iops=0",			/* gp3 "does not use burst performance" */
	"burst_credits=0",
	"burst_balance_pct=100",
	"io_unit=256KiB",		/* EBS SSD volumes: I/O size capped at 256 KiB */
	"merge_min=32KiB",		/* sequential I/Os of 32 KiB or more merge */
	"latency_us=1000",		/* A: inside gp3's "single-digit millisecond" */
	"bucket_ms=1",			/* A: sub-second limit enforcement */
	/*
	 * The 2.6-era layer: a Xen PV guest (EC2 before Nitro), whose blkfront
	 * ring of one page holds 32 requests (BLK_RING_SIZE).
	 */
	"queue_depth=32",
	/*
	 * blk-mq on 6.12: the nvme driver asks one I/O queue per CPU and makes
	 * min(io_queue_depth 1024, MQES + 1) - 1 tags per queue; the EBS
	 * controller's queue count and MQES are not published (unverified).
	 */
	"nr_hw_queues=32",
	"hw_queue_depth=1023",
	NULL,
};

/*
 * cloud-gp2: an AWS EBS gp2 volume of 100 GiB: baseline 3 IOPS/GiB = 300,
 * bursts to 3,000 IOPS on a bucket of 5.4 million I/O credits that starts
 * full and refills at the baseline; 250 MiB/s is gp2's throughput ceiling.
 */
static const char *const dev_cloud_gp2[] = {
	"capacity=100GiB",
	"iops=300",
	"throughput_mibps=250",
	"burst_iops=3000",
	"burst_credits=5400000",
	"burst_balance_pct=100",
	"io_unit=256KiB",
	"merge_min=32KiB",
	"latency_us=1000",
	"bucket_ms=1",
	"queue_depth=32",
	"nr_hw_queues=32",
	"hw_queue_depth=1023",
	NULL,
};

static const struct ios_dev_profile dev_profiles[] = {
	{ "hdd-2009", "hdd", "1 TB 7200 rpm SATA disk (2009), NCQ 31 with SATF, 32 MiB cache; "
	  "blk-mq: 1 queue x 32 tags", dev_hdd_2009 },
	{ "hdd-2004", "hdd", "160 GB 7200 rpm PATA disk (2004), no queueing, 8 MiB cache; "
	  "blk-mq: 1 queue x 1 tag", dev_hdd_2004 },
	{ "ssd", "ssd", "120 GB SATA MLC SSD (2009), 8 channels x 4 dies, queue depth 32; "
	  "blk-mq: 1 queue x 32 tags", dev_ssd_2009 },
	{ "ssd-nvme", "ssd", "512 GB NVMe SSD, 8 channels x 8 dies, queue depth 256; "
	  "blk-mq: 32 queues x 1023 tags", dev_ssd_nvme },
	{ "ssd-ftl-2009", "ssd-ftl",
	  "16 GiB MLC SSD (2009) with a page-mapped FTL, greedy GC, 7.3 % spare, TRIM",
	  dev_ssd_ftl_2009 },
	{ "smr-hm", "smr-hm",
	  "14 TB host-managed SMR disk, 52156 zones of 256 MiB (524 conventional), 128 open",
	  dev_smr_hm },
	{ "zns", "zns",
	  "512 GiB NVMe ZNS SSD, 2 GiB zones of 1077 MiB capacity, 14 open / 14 active",
	  dev_zns },
	{ "cloud", "cloud", "AWS EBS gp3 volume, 100 GiB: 3000 IOPS, 125 MiB/s, 256 KiB I/O unit, "
	  "1 ms latency, no burst; NVMe on blk-mq: 32 queues x 1023 tags", dev_cloud },
	{ "cloud-gp2", "cloud", "AWS EBS gp2 volume, 100 GiB: 300 IOPS baseline, bursts to 3000 "
	  "on 5.4M credits, 250 MiB/s; NVMe on blk-mq", dev_cloud_gp2 },
};

const struct ios_dev_type *ios_dev_type_at(size_t i)
{
	return i < IOS_ARRAY_SIZE(dev_types) ? dev_types[i] : NULL;
}

const struct ios_dev_type *ios_dev_type_find(const char *name)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(dev_types); i++)
		if (name && !strcmp(dev_types[i]->name, name))
			return dev_types[i];
	return NULL;
}

const struct ios_dev_profile *ios_dev_profile_at(size_t i)
{
	return i < IOS_ARRAY_SIZE(dev_profiles) ? &dev_profiles[i] : NULL;
}

const char *ios_dev_profile_suggest(const char *typed, char *buf, size_t size)
{
	struct ios_suggest s;

	ios_suggest_init(&s, typed);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(dev_profiles); i++)
		ios_suggest_add(&s, NULL, dev_profiles[i].name);
	return ios_suggest_str(&s, buf, size);
}

const struct ios_dev_profile *ios_dev_profile_find(const char *name)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(dev_profiles); i++)
		if (name && !strcmp(dev_profiles[i].name, name))
			return &dev_profiles[i];
	return NULL;
}

/*
 * Version 2: the type sets struct ios_dev's blk-mq numbers through its
 * table (IOS_DEV_MQ_ROWS), so that device.nr_hw_queues and
 * device.hw_queue_depth work for every type the same way.
 */
static int dev_check_mq_rows(const struct ios_dev_type *t, struct ios_err *e)
{
	static const struct {
		const char *name;
		size_t off;
	} rows[] = {
		{ "nr_hw_queues", offsetof(struct ios_dev, nr_hw_queues) },
		{ "hw_queue_depth", offsetof(struct ios_dev, hw_queue_depth) },
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(rows); i++) {
		const struct ios_tunable *tun = ios_tunable_find(t->tunables, rows[i].name);

		if (!tun || tun->type != IOS_TUN_INT || tun->offset != rows[i].off)
			return IOS_ERR(e, -EINVAL, "device type %s: interface version %u needs the "
				       "tunable %s on struct ios_dev (IOS_DEV_MQ_ROWS)", t->name,
				       t->version, rows[i].name);
	}
	return 0;
}

int ios_dev_type_check(const struct ios_dev_type *t, struct ios_err *e)
{
	const struct ios_dev_ops *o = &t->ops;
	char owner[80];
	int ret;

	if (!t->name || !*t->name)
		return IOS_ERR(e, -EINVAL, "device type without a name");
	if (!t->version || t->version > IOS_DEV_INTERFACE_VERSION)
		return IOS_ERR(e, -EINVAL, "device type %s: interface version %u not supported (have %u)",
			       t->name, t->version, IOS_DEV_INTERFACE_VERSION);
	if (!o->init || !o->exit || !o->caps || !o->queue_depth || !o->submit || !o->next_event ||
	    !o->complete || !o->reset)
		return IOS_ERR(e, -EINVAL, "device type %s: a required hook is missing", t->name);
	if (t->priv_size < sizeof(struct ios_dev))
		return IOS_ERR(e, -EINVAL, "device type %s: private size too small", t->name);
	snprintf(owner, sizeof(owner), "device type %s", t->name);
	ret = ios_tunable_check_table(t->tunables, t->priv_size, owner, e);
	if (!ret && t->version >= 2)
		ret = dev_check_mq_rows(t, e);
	return ret;
}

static int dev_apply_profile(struct ios_dev *dev, const struct ios_dev_profile *p,
			     struct ios_err *e)
{
	char origin[64];

	snprintf(origin, sizeof(origin), "profile %s", p->name);
	for (const char *const *kv = p->settings; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		char name[64];
		size_t n;
		int ret;

		if (!eq || (n = (size_t)(eq - *kv)) == 0 || n >= sizeof(name))
			return IOS_ERR(e, -EINVAL, "%s: malformed setting '%s'", origin, *kv);
		memcpy(name, *kv, n);
		name[n] = '\0';
		ret = ios_tunable_set_by_name(dev->type->tunables, dev, name, eq + 1, origin,
					      ios_scope_get(IOS_SCOPE_DEVICE)->prefix, e);
		if (ret)
			return ret;
	}
	return 0;
}

struct ios_dev *ios_dev_create(const char *profile, struct ios_settings *set, uint64_t seed,
			       struct ios_err *e)
{
	const struct ios_dev_profile *p;
	const struct ios_dev_type *t;
	struct ios_dev *dev;
	int ret;

	if (!profile)
		profile = IOS_DEV_DEFAULT_PROFILE;
	/* a DiskSim 4.0 drive spec: src/dev/disksim.c */
	if (!strncmp(profile, "disksim:", 8))
		return ios_dev_disksim_create(profile + 8, set, seed, e);
	p = ios_dev_profile_find(profile);
	if (!p) {
		char names[256];
		size_t off = 0;

		names[0] = '\0';
		for (size_t i = 0; i < IOS_ARRAY_SIZE(dev_profiles) && off < sizeof(names); i++) {
			int n = snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
					 dev_profiles[i].name);

			if (n < 0)
				break;
			off += (size_t)n;
		}
		char hint[256];

		IOS_ERR(e, -ENOENT, "unknown device profile '%s'%s (known: %s)", profile,
			ios_dev_profile_suggest(profile, hint, sizeof(hint)), names);
		return NULL;
	}
	t = ios_dev_type_find(p->type);
	if (!t) {
		IOS_ERR(e, -ENOENT, "device profile %s: unknown device type '%s'", p->name, p->type);
		return NULL;
	}
	if (ios_dev_type_check(t, e))
		return NULL;
	dev = calloc(1, t->priv_size);
	if (!dev) {
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	dev->type = t;
	dev->profile = p->name;
	snprintf(dev->name, sizeof(dev->name), "sda");
	dev->seed = seed;
	ios_rand_seed(&dev->rng, seed, 0x6465766963650000ULL); /* "device" stream */
	ret = ios_tunable_defaults(t->tunables, dev, e);
	if (!ret)
		ret = dev_apply_profile(dev, p, e);
	if (!ret && set)
		ret = ios_settings_apply_for(set, ios_scope_get(IOS_SCOPE_DEVICE)->prefix,
					     ios_scope_table(ios_scope_get(IOS_SCOPE_DEVICE), NULL, t),
					     dev, p->name, e);
	if (!ret)
		ret = t->ops.init(dev, e);
	if (ret) {
		free(dev);
		return NULL;
	}
	return dev;
}

void ios_dev_destroy(struct ios_dev *dev)
{
	if (!dev)
		return;
	dev->type->ops.exit(dev);
	free(dev);
}
