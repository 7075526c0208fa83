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
#include <stdlib.h>
#include <unistd.h>
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

/* ---- DiskSim 4.0's read-ahead rules (src/dev/hdd.c) ---- */

/*
 * A copy of drive @drive's spec in a fresh directory under /tmp, its
 * .diskspecs with the line holding @from replaced by @to (NULL: as is),
 * and the one holding @from2 by @to2 (NULL: none). Returns the .parv's
 * path (static) or NULL.
 */
static const char *spec_copy2(const char *drive, const char *const files[], const char *from,
			      const char *to, const char *from2, const char *to2)
{
	static char dir[64], parv[128];
	char path[256], line[512];

	snprintf(dir, sizeof(dir), "/tmp/iosched-ra-XXXXXX");
	if (!mkdtemp(dir))
		return NULL;
	for (size_t i = 0; files[i]; i++) {
		FILE *in, *out;

		snprintf(path, sizeof(path), DATA "%s", files[i]);
		in = fopen(path, "r");
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		out = fopen(path, "w");
		if (!in || !out) {
			if (in)
				fclose(in);
			if (out)
				fclose(out);
			return NULL;
		}
		while (fgets(line, sizeof(line), in)) {
			if (from && strstr(line, from))
				fprintf(out, "   %s,\n", to);
			else if (from2 && strstr(line, from2))
				fprintf(out, "   %s,\n", to2);
			else
				fputs(line, out);
		}
		fclose(in);
		fclose(out);
	}
	snprintf(parv, sizeof(parv), "%s/%s.parv", dir, drive);
	return parv;
}

static const char *spec_copy(const char *drive, const char *const files[], const char *from,
			     const char *to)
{
	return spec_copy2(drive, files, from, to, NULL, NULL);
}

static void spec_rm(const char *parv, const char *const files[])
{
	char path[256];
	const char *slash = strrchr(parv, '/');
	int n = (int)(slash - parv);

	for (size_t i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%.*s/%s", n, parv, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%.*s", n, parv);
	rmdir(path);
}

static const char *const rz26_files[] = { "dec_rz26.parv", "dec_rz26.diskspecs",
	"dec_rz26_validate.model", "dec_rz26_validate.seek", NULL };
static const char *const barracuda_files[] = { "barracuda.parv", "barracuda.diskspecs",
	"barracuda.model", "barracuda.seek", NULL };

/* A read hit's time after a read on @g: overhead, the bus, completion. */
static uint64_t hit_ns(const struct ios_disksim_spec *s, const struct ios_hdd_geom *g, uint64_t n)
{
	return (uint64_t)llround(s->read_hit_ms * 1e6) + n * g->bus_sector_ns[IOS_READ] +
	       g->complete_ns[IOS_READ];
}

#define GAP 100000000ULL	/* 100 ms: any read-ahead is over */

/*
 * Is [@a, @a + 8) a hit after a read of [0, 8) at 0 and, with @far, a
 * read of LBN 1000000 @far ns after that read completed?
 */
static int probe(struct ios_dev *dev, const struct ios_disksim_spec *s,
		 const struct ios_hdd_geom *g, uint64_t a, uint64_t far, bool *hit)
{
	uint64_t t = 0, l;

	dev->type->ops.reset(dev);
	l = cmd(dev, IOS_READ, 0, 8, t);
	T_ASSERT(l);
	t += l;
	if (far) {
		t += far;
		l = cmd(dev, IOS_READ, 1000000, 8, t);
		T_ASSERT(l);
		t += l;
	}
	t += GAP;
	l = cmd(dev, IOS_READ, a, 8, t);
	T_ASSERT(l);
	*hit = l == hit_ns(s, g, 8);
	return T_PASS;
}

/*
 * Buffer continuous read 1 (the RZ26): read-ahead ends at the track's end
 * (57 LBNs a track, 58 sectors less a spare), though Maximum read-ahead
 * (57) would go on; 2: at the cylinder's end; 0: none at all.
 */
static int test_ra_schemes_track_cylinder(void)
{
	static const struct { const char *to; uint64_t a; bool hit; } c[] = {
		{ NULL, 40, true }, { NULL, 57, false },
		{ "Buffer continuous read = 2", 40, true }, { "Buffer continuous read = 2", 57, true },
		{ "Buffer continuous read = 0", 8, false },
	};
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;

	if (load(DATA "dec_rz26.parv", &s, &g))
		return T_FAIL;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *parv = spec_copy("dec_rz26", rz26_files, c[i].to ? "Buffer continuous read" : NULL, c[i].to);
		char name[160];
		struct ios_dev *dev;
		bool hit;

		T_ASSERT(parv);
		snprintf(name, sizeof(name), "disksim:%s", parv);
		dev = dev_new(name, NULL);
		T_ASSERT(dev);
		if (probe(dev, &s, &g, c[i].a, 0, &hit))
			return T_FAIL;
		T_ASSERT_MSG(hit == c[i].hit, "%s: [%llu, +8) %s", c[i].to ? c[i].to : "scheme 1",
			     (unsigned long long)c[i].a, hit ? "hit" : "missed");
		ios_dev_destroy(dev);
		spec_rm(parv, rz26_files);
	}
	unload(&s, &g);
	return T_PASS;
}

/*
 * Buffer continuous read 4 (the Atlas III, 256 LBNs a track in zone 0,
 * 64-block segments): read-ahead goes to the end of the track holding the
 * sector after the request, past Maximum read-ahead (64), one track
 * further when the segment began on an earlier track.
 */
static int test_ra_scheme_dec(void)
{
	struct ios_dev *dev = dev_new("disksim:" DATA "atlas_III.parv", NULL);
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;
	uint64_t l, t;

	T_ASSERT(dev);
	if (load(DATA "atlas_III.parv", &s, &g))
		return T_FAIL;
	l = cmd(dev, IOS_READ, 0, 8, 0);
	t = l + GAP;
	l = cmd(dev, IOS_READ, 248, 8, t);
	T_ASSERT_U64_EQ(l, hit_ns(&s, &g, 8));
	t += l + GAP;
	l = cmd(dev, IOS_READ, 256, 8, t);
	T_ASSERT_MSG(l > hit_ns(&s, &g, 8), "the next track hit: %llu ns", (unsigned long long)l);
	/* a miss from track 0 into track 1: to the end of track 2 */
	dev->type->ops.reset(dev);
	l = cmd(dev, IOS_READ, 200, 64, 0);
	t = l + GAP;
	l = cmd(dev, IOS_READ, 760, 8, t);
	T_ASSERT_U64_EQ(l, hit_ns(&s, &g, 8));
	unload(&s, &g);
	ios_dev_destroy(dev);
	return T_PASS;
}

/*
 * Read-ahead on idle hit = 0 (the Barracuda: scheme 3, Maximum read-ahead
 * 281): a hit once read-ahead has stopped does not start it again, so the
 * data past it is a miss; with 1 the hit starts it and that data is in.
 */
static int test_ra_idle_hit(void)
{
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;

	if (load(DATA "barracuda.parv", &s, &g))
		return T_FAIL;
	for (int idle = 0; idle <= 1; idle++) {
		const char *parv = spec_copy("barracuda", barracuda_files, "Read-ahead on idle hit",
					     idle ? "Read-ahead on idle hit = 1" : "Read-ahead on idle hit = 0");
		char name[160];
		struct ios_dev *dev;
		uint64_t l, t;

		T_ASSERT(parv);
		snprintf(name, sizeof(name), "disksim:%s", parv);
		dev = dev_new(name, NULL);
		T_ASSERT(dev);
		l = cmd(dev, IOS_READ, 0, 8, 0);
		t = l + GAP;
		l = cmd(dev, IOS_READ, 281, 8, t);	/* the read-ahead's last sectors: a hit */
		T_ASSERT_U64_EQ(l, hit_ns(&s, &g, 8));
		t += l + GAP;
		l = cmd(dev, IOS_READ, 289, 8, t);
		T_ASSERT_MSG((l == hit_ns(&s, &g, 8)) == idle, "idle hit %d: %llu ns", idle,
			     (unsigned long long)l);
		ios_dev_destroy(dev);
		spec_rm(parv, barracuda_files);
	}
	unload(&s, &g);
	return T_PASS;
}

/*
 * Minimum read-ahead: a read arriving as soon as the first completes
 * takes the mechanism at once with 0 (the Barracuda's), so sectors 100..
 * are never read ahead; with 120 the read-ahead reaches them first.
 */
static int test_ra_minimum(void)
{
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;

	if (load(DATA "barracuda.parv", &s, &g))
		return T_FAIL;
	for (int min = 0; min <= 1; min++) {
		const char *parv = spec_copy("barracuda", barracuda_files, "Minimum read-ahead",
					     min ? "Minimum read-ahead (blks) = 120" : "Minimum read-ahead (blks) = 0");
		char name[160];
		struct ios_dev *dev;
		bool hit;

		T_ASSERT(parv);
		snprintf(name, sizeof(name), "disksim:%s", parv);
		dev = dev_new(name, NULL);
		T_ASSERT(dev);
		if (probe(dev, &s, &g, 100, 1, &hit))
			return T_FAIL;
		T_ASSERT_MSG(hit == min, "minimum %d: [100, +8) %s", min ? 120 : 0, hit ? "hit" : "missed");
		ios_dev_destroy(dev);
		spec_rm(parv, barracuda_files);
	}
	unload(&s, &g);
	return T_PASS;
}

/*
 * Without a Maximum read-ahead (0), scheme 3 reads a segment (281 blocks)
 * past the request with Read-ahead over requested = 1, but a segment from
 * the request's start with 0 (the request's own data is kept).
 */
static int test_ra_over_requested(void)
{
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;

	if (load(DATA "barracuda.parv", &s, &g))
		return T_FAIL;
	for (int over = 0; over <= 1; over++) {
		const char *parv = spec_copy2("barracuda", barracuda_files, "Maximum read-ahead",
					      "Maximum read-ahead (blks) = 0", "Read-ahead over requested",
					      over ? "Read-ahead over requested = 1" : "Read-ahead over requested = 0");
		char name[160];
		struct ios_dev *dev;
		bool hit;

		T_ASSERT(parv);
		snprintf(name, sizeof(name), "disksim:%s", parv);
		dev = dev_new(name, NULL);
		T_ASSERT(dev);
		if (probe(dev, &s, &g, 273, 0, &hit))
			return T_FAIL;
		T_ASSERT_MSG(hit, "over requested %d: [273, +8) missed", over);
		if (probe(dev, &s, &g, 281, 0, &hit))
			return T_FAIL;
		T_ASSERT_MSG(hit == over, "over requested %d: [281, +8) %s", over, hit ? "hit" : "missed");
		ios_dev_destroy(dev);
		spec_rm(parv, barracuda_files);
	}
	unload(&s, &g);
	return T_PASS;
}

/* The first LBN the read-ahead did not reach when the far read took the mechanism. */
static int ra_reach(struct ios_dev *dev, const struct ios_disksim_spec *s,
		    const struct ios_hdd_geom *g, uint64_t far, uint64_t *end)
{
	uint64_t lo = 8, hi = 289;	/* [0, lo) in; hi beyond */

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		bool hit;

		if (probe(dev, s, g, mid + 1 - 8 < 8 ? 0 : mid + 1 - 8, far, &hit))
			return T_FAIL;
		if (hit)
			lo = mid + 1;
		else
			hi = mid;
	}
	*end = lo;
	return T_PASS;
}

/*
 * Stop prefetch in sector = 0 (the Barracuda's): the read-ahead finishes
 * the sector under the head before it lets the mechanism go, so it holds
 * one sector more than with 1 whenever the far read comes mid-sector, and
 * never fewer.
 */
static int test_ra_stop_in_sector(void)
{
	const char *parv = spec_copy("barracuda", barracuda_files, "Stop prefetch in sector",
				     "Stop prefetch in sector = 1");
	struct ios_dev *d0 = dev_new("disksim:" DATA "barracuda.parv", NULL), *d1;
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;
	char name[160];
	int more = 0;

	T_ASSERT(parv && d0);
	snprintf(name, sizeof(name), "disksim:%s", parv);
	d1 = dev_new(name, NULL);
	T_ASSERT(d1);
	if (load(DATA "barracuda.parv", &s, &g))
		return T_FAIL;
	for (uint64_t far = 1; far < 200000; far += 9973) {
		uint64_t e0, e1;

		if (ra_reach(d0, &s, &g, far, &e0) || ra_reach(d1, &s, &g, far, &e1))
			return T_FAIL;
		T_ASSERT_MSG(e0 == e1 || e0 == e1 + 1, "far read at +%llu ns: %llu vs %llu",
			     (unsigned long long)far, (unsigned long long)e0, (unsigned long long)e1);
		more += e0 == e1 + 1;
	}
	T_ASSERT_MSG(more > 0, "the sector under the head never finished first");
	unload(&s, &g);
	ios_dev_destroy(d0);
	ios_dev_destroy(d1);
	spec_rm(parv, barracuda_files);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_seek_table, test_atlas_mapping, test_rz26_spares,
		     test_device_seeks_by_table, test_hp_spec_timing, test_hp_device_timing,
		     test_ra_schemes_track_cylinder, test_ra_scheme_dec, test_ra_idle_hit,
		     test_ra_minimum, test_ra_over_requested, test_ra_stop_in_sector);
}
