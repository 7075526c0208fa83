/*
 * Description: the hdd model's table geometry (src/dev/hdd_geom.c) on real
 * DiskSim drives. A seek of d cylinders takes the seek table's time,
 * linearly interpolated between the measured distances (plus the spec's
 * write settle for a write, which may be negative); LBNs map to physical
 * sectors past the zone's empty front space, around slipped sectors and
 * per-track spares, at angles set by the zone's track and cylinder skews;
 * and a device made with ios_dev_create("disksim:...") really seeks by the
 * table: the shortest 1-sector read after a seek of d cylinders, over start
 * times spread across a revolution, is the table's time plus one sector's
 * transfer. DiskSim's timing rules on the HP C3323A: the overheads depend on
 * the previous command (a read hit after a write pays 'Read hit over. after
 * write'), the completion overhead ends every read, the drive's bus (from the
 * topology) moves each block in its block transfer time, and a read miss
 * whose watermark is the whole request crosses the bus only after the media
 * read.
 */
#include <math.h>
#include "harness.h"
#include "dev_rig.h"
#include "dev/hdd.h"
#include "dev/hdd_geom.h"
#include "dev/disksim_parse.h"

#define DATA "tests/data/disksim/"

static int load(const char *file, struct ios_disksim_spec *s, struct ios_hdd_geom *g)
{
	struct ios_err e = { 0 };

	T_ASSERT_MSG(!ios_disksim_load(file, NULL, NULL, s, &e), "%s", e.msg);
	T_ASSERT_MSG(!ios_hdd_geom_build(g, s, &e), "%s", e.msg);
	return T_PASS;
}

static void unload(struct ios_disksim_spec *s, struct ios_hdd_geom *g)
{
	ios_hdd_geom_free(g);
	ios_disksim_spec_free(s);
}

static int test_seek_table(void)
{
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;

	if (load(DATA "atlas_III.parv", &s, &g))
		return T_FAIL;
	/* measured points */
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 1, false), 1663000);
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 175, false), 3852000);
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 7998, false), 15360000);
	/* between 10 (2.352 ms) and 12 (2.346 ms); between 150 (3.730) and 175 (3.852) */
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 11, false), 2349000);
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 160, false), 3778800);
	/* past the last distance (7998, of 8057 cylinders): the last slope goes on */
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 8056, false),
			(uint64_t)llround(15.36e6 + (15.36e6 - 15.152e6) * 58 / 98));
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 0, false), 0);
	/* atlas: Add. write settling delay = 0 */
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 11, true), 2349000);
	unload(&s, &g);

	/* the RZ26's settle is -0.483 ms: a write seek is shorter */
	if (load(DATA "dec_rz26.parv", &s, &g))
		return T_FAIL;
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 1, false), 1014397);
	T_ASSERT_U64_EQ(ios_hdd_geom_seek_ns(&g, 1, true), 531397);
	unload(&s, &g);
	return T_PASS;
}

static uint64_t phase_of(uint64_t sectors, uint64_t spt)
{
	return sectors % spt * HDD_PHASE_REV / spt;
}

static int test_atlas_mapping(void)
{
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;
	struct hdd_loc l;

	if (load(DATA "atlas_III.parv", &s, &g))
		return T_FAIL;
	/* zone 0: 256 sectors a track, 10 surfaces, 128000 empty sectors = 50 cylinders */
	ios_hdd_geom_locate(&g, 0, &l);
	T_ASSERT_EQ(l.zone, 0);
	T_ASSERT_EQ(l.cyl, 50);
	T_ASSERT_EQ(l.head, 0);
	T_ASSERT_EQ(l.sect, 0);
	/* 450 track switches x 75 + 50 cylinder switches x 86 = 38050 = 162 mod 256 */
	T_ASSERT_U64_EQ(l.phase, phase_of(162, 256));
	T_ASSERT_EQ(l.run, 256);
	/* the next track: one more track switch, 237 */
	ios_hdd_geom_locate(&g, 256, &l);
	T_ASSERT_EQ(l.cyl, 50);
	T_ASSERT_EQ(l.head, 1);
	T_ASSERT_EQ(l.sect, 0);
	T_ASSERT(l.tstart && !l.cylchg);
	T_ASSERT_U64_EQ(l.phase, phase_of(237, 256));
	/* the next cylinder: 459 x 75 + 51 x 86 = 38811 = 155 mod 256 */
	ios_hdd_geom_locate(&g, 2560, &l);
	T_ASSERT_EQ(l.cyl, 51);
	T_ASSERT_EQ(l.head, 0);
	T_ASSERT(l.tstart && l.cylchg);
	T_ASSERT_U64_EQ(l.phase, phase_of(155, 256));
	/*
	 * Zone 0's first slip is physical sector 272037 (zone-relative), LBN
	 * 272037 - 128000 = 144037 without it: that LBN moves to the next
	 * sector, and the one before ends its run at the slip.
	 */
	ios_hdd_geom_locate(&g, 144036, &l);
	T_ASSERT_EQ(l.sect, 272036 % 256);
	T_ASSERT_EQ(l.run, 1);
	ios_hdd_geom_locate(&g, 144037, &l);
	T_ASSERT_EQ(l.sect, 272038 % 256);
	T_ASSERT(!l.tstart);
	/* zone 1 starts after zone 0's usable sectors (616 cylinders less 128000 and 4 slips) */
	T_ASSERT_U64_EQ(g.zone[1].first_lba, 616ULL * 2560 - 128000 - 4);
	ios_hdd_geom_locate(&g, g.zone[1].first_lba, &l);
	T_ASSERT_EQ(l.zone, 1);
	T_ASSERT_EQ(l.cyl, 616);
	T_ASSERT_EQ(l.spt, 252);
	unload(&s, &g);
	return T_PASS;
}

/* RZ26: one spare sector at the end of every 58-sector track (sparing scheme 3). */
static int test_rz26_spares(void)
{
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;
	struct hdd_loc l;

	if (load(DATA "dec_rz26.parv", &s, &g))
		return T_FAIL;
	/* 23142 empty slots = 406 tracks of 57 usable sectors: cylinder 29, head 0 */
	ios_hdd_geom_locate(&g, 0, &l);
	T_ASSERT_EQ(l.cyl, 29);
	T_ASSERT_EQ(l.head, 0);
	T_ASSERT_EQ(l.sect, 0);
	/* 377 track switches x 7 + 29 cylinder switches x 25 = 3364 = 0 mod 58 */
	T_ASSERT_U64_EQ(l.phase, 0);
	ios_hdd_geom_locate(&g, 56, &l);
	T_ASSERT_EQ(l.sect, 56);
	T_ASSERT_EQ(l.run, 1);		/* sector 57 is the track's spare */
	ios_hdd_geom_locate(&g, 57, &l);
	T_ASSERT_EQ(l.cyl, 29);
	T_ASSERT_EQ(l.head, 1);
	T_ASSERT_EQ(l.sect, 0);
	T_ASSERT(l.tstart && !l.cylchg);
	T_ASSERT_U64_EQ(l.phase, phase_of(7, 58));
	unload(&s, &g);
	return T_PASS;
}

static uint64_t one(struct ios_dev *dev, uint64_t sector, uint64_t t)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_request rq;

	memset(&rq, 0, sizeof(rq));
	ios_list_init(&rq.dev_node);
	rq.sector = sector;
	rq.nr_sectors = 1;
	rq.dir = IOS_READ;
	if (o->submit(dev, &rq, t))
		return 0;
	for (;;) {
		uint64_t e = o->next_event(dev);
		struct ios_request *done;

		if (e == IOS_NO_WAKEUP)
			return 0;
		done = o->complete(dev, e);
		if (done)
			return done == &rq ? e : 0;
	}
}

/* Shortest latency of a 1-sector read @d cylinders from LBN 0, over 1024 start phases. */
static uint64_t min_after_seek(struct ios_dev *dev, uint32_t d)
{
	uint64_t rev = 60000000000ULL / 7200, best = UINT64_MAX;

	for (uint64_t j = 0; j < 1024; j++) {
		uint64_t c1, t, c2;

		dev->type->ops.reset(dev);
		c1 = one(dev, 0, 0);
		t = c1 + j * rev / 1024;
		c2 = one(dev, (uint64_t)d * 2560, t);
		if (!c1 || !c2)
			return 0;
		if (c2 - t < best)
			best = c2 - t;
	}
	return best;
}

static int test_device_seeks_by_table(void)
{
	struct ios_dev *dev = dev_new("disksim:" DATA "atlas_III.parv", "device.read_cache=0", NULL);
	uint64_t xfer = (60000000000ULL / 7200 + 255) / 256;	/* one sector of 256 */
	static const struct { uint32_t d; uint64_t seek_ns; } pts[] = {
		{ 1, 1663000 }, { 11, 2349000 }, { 20, 2546000 }, { 45, 3030000 },
	};

	T_ASSERT(dev);
	for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		/* + the last block over the bus (Bulk sector transfer time 0.106 ms) after it is read */
		uint64_t m = min_after_seek(dev, pts[i].d), want = pts[i].seek_ns + xfer + 106000;

		/* Read miss over. after read = 0: no overhead; the rotation's least wait <= rev/1024 */
		T_ASSERT_MSG(m >= want && m <= want + 60000000000ULL / 7200 / 1024 + 10,
			     "d=%u: %llu ns, want %llu + up to %llu", pts[i].d,
			     (unsigned long long)m, (unsigned long long)want,
			     60000000000ULL / 7200 / 1024);
	}
	ios_dev_destroy(dev);
	return T_PASS;
}

static uint64_t cmd(struct ios_dev *dev, int dir, uint64_t sector, uint64_t n, uint64_t t)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_request rq;

	memset(&rq, 0, sizeof(rq));
	ios_list_init(&rq.dev_node);
	rq.sector = sector;
	rq.nr_sectors = n;
	rq.dir = dir;
	if (o->submit(dev, &rq, t))
		return 0;
	for (;;) {
		uint64_t e = o->next_event(dev);
		struct ios_request *done;

		if (e == IOS_NO_WAKEUP)
			return 0;
		done = o->complete(dev, e);
		if (done)
			return done == &rq ? e - t : 0;
	}
}

static int test_hp_spec_timing(void)
{
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;

	if (load(DATA "hp_c3323a.parv", &s, &g))
		return T_FAIL;
	/* BUS1, the bus the topology hangs disk0 on, not BUS0 (0.0) */
	T_ASSERT(fabs(s.bus_read_blk_ms - 0.1455) < 1e-12);
	T_ASSERT_U64_EQ(g.bus_sector_ns[IOS_READ], 145500);
	T_ASSERT_U64_EQ(g.bus_sector_ns[IOS_WRITE], 145500);
	T_ASSERT_U64_EQ(g.read_hit_aw_ns, 1387000);
	T_ASSERT_U64_EQ(g.read_miss_aw_ns, 2502000);
	/* Fast write level 0: the write miss overheads */
	T_ASSERT_U64_EQ(g.write_overhead_ns, 2920000);
	T_ASSERT_U64_EQ(g.write_overhead_ar_ns, 3290000);
	T_ASSERT_U64_EQ(g.complete_ns[IOS_READ], 241000);
	T_ASSERT_U64_EQ(g.complete_ns[IOS_WRITE], 0);
	T_ASSERT(g.reqwater && g.read_water_m == 1000000);
	unload(&s, &g);
	return T_PASS;
}

static int test_hp_device_timing(void)
{
	struct ios_dev *dev = dev_new("disksim:" DATA "hp_c3323a.parv", NULL);
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;
	uint64_t rev = 60000000000ULL / 5396, bus16 = 16 * 145500, t = 0, miss, hit, hit_aw, w;

	T_ASSERT(dev);
	if (load(DATA "hp_c3323a.parv", &s, &g))
		return T_FAIL;
	/*
	 * A read miss of 16 blocks: overhead, positioning, the media read,
	 * then (watermark = the request) all 16 blocks over the bus, then the
	 * completion overhead. Were the bus overlapped with the media, it
	 * would be shorter by the media time.
	 */
	miss = cmd(dev, IOS_READ, 1000, 16, t);
	T_ASSERT(miss);
	T_ASSERT_MSG(miss >= 2502000 + 16 * rev / g.zone[0].spt + bus16 + 241000,
		     "miss %llu ns", (unsigned long long)miss);
	t += miss + 1000000;
	/* a read hit after a read: 0.348 ms, 16 blocks over the bus, 0.241 ms */
	hit = cmd(dev, IOS_READ, 1000, 16, t);
	T_ASSERT_U64_EQ(hit, 348000 + bus16 + 241000);
	t += hit + 1000000;
	/* a write after a read pays 3.290 ms, not 2.920 */
	w = cmd(dev, IOS_WRITE, 500000, 8, t);
	T_ASSERT_MSG(w >= 3290000, "write %llu ns", (unsigned long long)w);
	t += w + 1000000;
	/* the same hit after a write: 'Read hit over. after write' = 1.387 ms */
	hit_aw = cmd(dev, IOS_READ, 1000, 16, t);
	T_ASSERT_U64_EQ(hit_aw, 1387000 + bus16 + 241000);
	unload(&s, &g);
	ios_dev_destroy(dev);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_seek_table, test_atlas_mapping, test_rz26_spares,
		     test_device_seeks_by_table, test_hp_spec_timing, test_hp_device_timing);
}
