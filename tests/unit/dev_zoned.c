/*
 * Description: the zone rules of the zoned devices (src/dev/zoned.c):
 * smr-hm (ZBC host-managed) and zns (NVMe zoned namespace).
 *
 * Commands go straight to the device model (no block layer): the condition
 * of a zone after each write, the errors Linux reports for a write that is
 * not at the write pointer (EIO), past the zone capacity or into a full
 * zone, the open-zone limit (an implicitly open zone is closed for room;
 * with only explicitly open zones, ETOOMANYREFS), the active-zone limit
 * (EOVERFLOW), reset and finish, reads above the write pointer (zeroes
 * without media time, or EIO with URSWRZ off), the zone report, prefill,
 * and the geometry checks of init.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "dev_rig.h"

/* 1 GiB, 16 zones of 64 MiB, the first 2 conventional, 2 open at most */
#define SMR "device.capacity=1GiB", "device.zone_size=64MiB", "device.conv_zones=2", \
	    "device.max_open_zones=2"
#define ZS (64ULL << 11)	/* zone sectors */

static uint64_t now_ns;

/* Submit one command and run the device until it completes; its error or -errno. */
static int cmd(struct ios_dev *dev, int dir, uint64_t sector, uint32_t n, uint64_t *lat)
{
	struct ios_request rq;
	struct ios_request *done;
	uint64_t t0 = now_ns;
	int ret;

	memset(&rq, 0, sizeof(rq));
	rq.sector = sector;
	rq.nr_sectors = n;
	rq.dir = (uint8_t)dir;
	rq.flags = dir == IOS_WRITE ? IOS_REQ_FUA : 0;
	ret = dev->type->ops.submit(dev, &rq, now_ns);
	if (ret)
		return ret;
	for (;;) {
		uint64_t when = dev->type->ops.next_event(dev);

		if (when == IOS_NO_WAKEUP)
			return -EDEADLK;
		if (when > now_ns)
			now_ns = when;
		done = dev->type->ops.complete(dev, now_ns);
		if (done == &rq)
			break;
	}
	if (lat)
		*lat = now_ns - t0;
	return rq.error;
}

static struct ios_dev_zone zone(struct ios_dev *dev, uint32_t i)
{
	struct ios_dev_zone z;
	struct ios_dev_zone_report r = { .sector = (uint64_t)i * ZS, .nr = 1, .zones = &z };

	memset(&z, 0, sizeof(z));
	if (ios_dev_ctl(dev, IOS_DEV_CTL_ZONE_REPORT, &r) || r.nr != 1)
		z.cond = 0xff;
	return z;
}

static int mgmt(struct ios_dev *dev, int op, uint32_t i)
{
	struct ios_dev_zone_mgmt m = { .op = op, .sector = (uint64_t)i * ZS };

	return ios_dev_ctl(dev, IOS_DEV_CTL_ZONE_MGMT, &m);
}

static int test_geometry_and_report(void)
{
	struct ios_dev *dev = dev_new("smr-hm", SMR, NULL);
	struct ios_dev_zone_info zi;

	T_ASSERT(dev);
	T_ASSERT(ios_dev_caps(dev) & IOS_DEV_ZONED);
	T_ASSERT(ios_dev_caps(dev) & IOS_DEV_ROTATIONAL);
	T_ASSERT(!(ios_dev_caps(dev) & IOS_DEV_DISCARD));
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_ZONE_INFO, &zi), 0);
	T_ASSERT_U64_EQ(zi.zone_sectors, ZS);
	T_ASSERT_EQ(zi.nr_zones, 16);
	T_ASSERT_EQ(zi.nr_conv_zones, 2);
	T_ASSERT_EQ(zi.max_open, 2);
	T_ASSERT(zi.read_beyond_wp_zeroes);
	T_ASSERT_EQ(zone(dev, 0).type, IOS_ZONE_TYPE_CONV);
	T_ASSERT_EQ(zone(dev, 1).cond, IOS_ZONE_COND_NOT_WP);
	T_ASSERT_EQ(zone(dev, 2).type, IOS_ZONE_TYPE_SEQ_REQ);
	T_ASSERT_EQ(zone(dev, 2).cond, IOS_ZONE_COND_EMPTY);
	T_ASSERT_U64_EQ(zone(dev, 2).wp, 2 * ZS);
	T_ASSERT_U64_EQ(zone(dev, 15).capacity, ZS);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_write_pointer_rules(void)
{
	struct ios_dev *dev = dev_new("smr-hm", SMR, NULL);
	uint64_t z2 = 2 * ZS;

	T_ASSERT(dev);
	now_ns = 0;
	/* conventional zones take writes anywhere, but not across into a sequential zone */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 1000, 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 8, 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, z2 - 8, 16, NULL), -EIO);
	/* a sequential zone: at the write pointer only */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, z2 + 8, 8, NULL), -EIO);
	T_ASSERT_EQ(zone(dev, 2).cond, IOS_ZONE_COND_EMPTY);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, z2, 256, NULL), 0);
	T_ASSERT_EQ(zone(dev, 2).cond, IOS_ZONE_COND_IMP_OPEN);
	T_ASSERT_U64_EQ(zone(dev, 2).wp, z2 + 256);
	/* the second of two reordered writes arrives first: refused, the pointer stays */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, z2 + 512, 256, NULL), -EIO);
	T_ASSERT_U64_EQ(zone(dev, 2).wp, z2 + 256);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, z2 + 256, 256, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, z2 + 512, 256, NULL), 0);
	/* a write may not cross the zone's end */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 3 * ZS, ZS - 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 4 * ZS - 8, 16, NULL), -EIO);
	/* filling it makes it full, and a full zone takes nothing */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 4 * ZS - 8, 8, NULL), 0);
	T_ASSERT_EQ(zone(dev, 3).cond, IOS_ZONE_COND_FULL);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 4 * ZS, 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 3 * ZS, 8, NULL), -EIO);
	/* reset empties it; writing starts over at its start */
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_RESET, 3), 0);
	T_ASSERT_EQ(zone(dev, 3).cond, IOS_ZONE_COND_EMPTY);
	T_ASSERT_U64_EQ(zone(dev, 3).wp, 3 * ZS);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 3 * ZS, 8, NULL), 0);
	/* conventional zones have nothing to reset; a zone start is needed */
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_RESET, 0), -EIO);
	{
		struct ios_dev_zone_info zi;

		T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_ZONE_INFO, &zi), 0);
		T_ASSERT_U64_EQ(zi.write_errors, 5);
	}
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_open_limit(void)
{
	struct ios_dev *dev = dev_new("smr-hm", SMR, NULL);

	T_ASSERT(dev);
	now_ns = 0;
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 2 * ZS, 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 3 * ZS, 8, NULL), 0);
	/* a third zone: the device closes an implicitly open one for it */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 4 * ZS, 8, NULL), 0);
	T_ASSERT_EQ(zone(dev, 2).cond, IOS_ZONE_COND_CLOSED);
	T_ASSERT_EQ(zone(dev, 3).cond, IOS_ZONE_COND_IMP_OPEN);
	T_ASSERT_EQ(zone(dev, 4).cond, IOS_ZONE_COND_IMP_OPEN);
	/* a closed zone takes the next write at its pointer, reopening */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 2 * ZS + 8, 8, NULL), 0);
	T_ASSERT_EQ(zone(dev, 2).cond, IOS_ZONE_COND_IMP_OPEN);
	T_ASSERT_EQ(zone(dev, 3).cond, IOS_ZONE_COND_CLOSED);
	/* with both open slots held by explicit opens there is no room */
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_OPEN, 5), 0);
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_OPEN, 6), 0);
	T_ASSERT_EQ(zone(dev, 5).cond, IOS_ZONE_COND_EXP_OPEN);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 7 * ZS, 8, NULL), -ETOOMANYREFS);
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_OPEN, 7), -ETOOMANYREFS);
	/* closing one frees a slot; a closed zone with nothing written is empty */
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_CLOSE, 6), 0);
	T_ASSERT_EQ(zone(dev, 6).cond, IOS_ZONE_COND_EMPTY);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 7 * ZS, 8, NULL), 0);
	/* finish: full, pointer at the capacity */
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_FINISH, 7), 0);
	T_ASSERT_EQ(zone(dev, 7).cond, IOS_ZONE_COND_FULL);
	T_ASSERT_U64_EQ(zone(dev, 7).wp, 8 * ZS);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_reads_above_wp(void)
{
	struct ios_dev *dev = dev_new("smr-hm", SMR, NULL);
	uint64_t lat_zero = 0, lat_media = 0;

	T_ASSERT(dev);
	now_ns = 0;
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 2 * ZS, 2048, NULL), 0);
	/* URSWRZ: unwritten blocks read as zeroes, with no media access */
	T_ASSERT_EQ(cmd(dev, IOS_READ, 9 * ZS, 256, &lat_zero), 0);
	T_ASSERT_EQ(cmd(dev, IOS_READ, 2 * ZS + 512, 256, &lat_media), 0);
	/* 100 us + 128 KiB at 600 MB/s, against a seek and a rotation */
	T_ASSERT_U64_EQ(lat_zero, 100000 + (131072 * 1000 + 599) / 600);
	T_ASSERT(lat_media > lat_zero);
	ios_dev_destroy(dev);

	dev = dev_new("smr-hm", SMR, "device.urswrz=0", NULL);
	T_ASSERT(dev);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 2 * ZS, 2048, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_READ, 2 * ZS, 2048, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_READ, 2 * ZS + 2040, 16, NULL), -EIO);
	T_ASSERT_EQ(cmd(dev, IOS_READ, 9 * ZS, 8, NULL), -EIO);
	T_ASSERT_EQ(cmd(dev, IOS_READ, 0, 8, NULL), 0);	/* conventional */
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_zns_capacity_and_active(void)
{
	/* 16 zones of 64 MiB with 40 MiB capacity, 2 open, 2 active */
	struct ios_dev *dev = dev_new("zns", "device.capacity=1GiB", "device.zone_size=64MiB",
				      "device.zone_capacity=40MiB", "device.max_open_zones=2",
				      "device.max_active_zones=2", NULL);
	uint64_t cap = 40ULL << 11;

	T_ASSERT(dev);
	now_ns = 0;
	T_ASSERT_EQ(zone(dev, 0).type, IOS_ZONE_TYPE_SEQ_REQ);
	T_ASSERT_U64_EQ(zone(dev, 0).capacity, cap);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 0, (uint32_t)cap - 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, cap - 8, 16, NULL), -EIO);	/* past the capacity */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, cap - 8, 8, NULL), 0);
	T_ASSERT_EQ(zone(dev, 0).cond, IOS_ZONE_COND_FULL);
	/* two active zones: a third EMPTY zone cannot become active */
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, ZS, 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 2 * ZS, 8, NULL), 0);
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_CLOSE, 1), 0);
	T_ASSERT_EQ(zone(dev, 1).cond, IOS_ZONE_COND_CLOSED);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 3 * ZS, 8, NULL), -EOVERFLOW);
	/* a full zone is not active: finishing one makes room */
	T_ASSERT_EQ(mgmt(dev, IOS_ZONE_OP_FINISH, 1), 0);
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 3 * ZS, 8, NULL), 0);
	/* ZNS reads unwritten blocks (zeroes), above the capacity too */
	T_ASSERT_EQ(cmd(dev, IOS_READ, 5 * ZS, 8, NULL), 0);
	T_ASSERT_EQ(cmd(dev, IOS_READ, cap, 8, NULL), 0);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_prefill_reset_all(void)
{
	struct ios_dev *dev = dev_new("smr-hm", SMR, "device.prefill=1", NULL);
	struct ios_dev_zone_mgmt all = { .op = IOS_ZONE_OP_RESET, .all = true };

	T_ASSERT(dev);
	now_ns = 0;
	for (uint32_t i = 2; i < 16; i++) {
		T_ASSERT_EQ(zone(dev, i).cond, IOS_ZONE_COND_FULL);
		T_ASSERT_U64_EQ(zone(dev, i).wp, (uint64_t)(i + 1) * ZS);
	}
	T_ASSERT_EQ(cmd(dev, IOS_WRITE, 2 * ZS, 8, NULL), -EIO);
	T_ASSERT_EQ(ios_dev_ctl(dev, IOS_DEV_CTL_ZONE_MGMT, &all), 0);
	for (uint32_t i = 2; i < 16; i++)
		T_ASSERT_EQ(zone(dev, i).cond, IOS_ZONE_COND_EMPTY);
	T_ASSERT_EQ(zone(dev, 0).cond, IOS_ZONE_COND_NOT_WP);
	/* device reset: back to the state after init (prefilled) */
	dev->type->ops.reset(dev);
	T_ASSERT_EQ(zone(dev, 5).cond, IOS_ZONE_COND_FULL);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_init_errors(void)
{
	struct ios_err e;
	struct ios_dev *dev;

	dev = dev_new_err("smr-hm", &e, "device.capacity=1088MiB", "device.zone_size=256MiB", NULL);
	T_ASSERT(!dev);
	T_ASSERT(strstr(e.msg, "whole number"));
	dev = dev_new_err("smr-hm", &e, "device.capacity=1GiB", "device.zone_size=48MiB", NULL);
	T_ASSERT(!dev);
	T_ASSERT(strstr(e.msg, "power of two"));
	dev = dev_new_err("smr-hm", &e, "device.capacity=1GiB", "device.zone_size=64MiB",
			  "device.conv_zones=16", NULL);
	T_ASSERT(!dev);
	T_ASSERT(strstr(e.msg, "conv_zones=16"));
	dev = dev_new_err("zns", &e, "device.zone_capacity=4096MiB", NULL);
	T_ASSERT(!dev);
	T_ASSERT(strstr(e.msg, "zone_capacity"));
	dev = dev_new_err("zns", &e, "device.max_open_zones=20", NULL);
	T_ASSERT(!dev);
	T_ASSERT(strstr(e.msg, "max_active_zones=14"));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_geometry_and_report, test_write_pointer_rules, test_open_limit,
		     test_reads_above_wp, test_zns_capacity_and_active, test_prefill_reset_all,
		     test_init_errors);
}
