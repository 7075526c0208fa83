/*
 * hdd_geom: the hdd's geometry from tables (see hdd_geom.h): DiskSim's
 * zone table with its sparing, slips and skews, and the measured seek
 * table. Every function is a pure function of the tables.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dev/hdd.h"
#include "dev/hdd_geom.h"

#define GEOM_MILLI 1000ULL
#define GEOM_MAX_TABLE (1ULL << 24)	/* sparing units or slipped sectors per zone */

static uint64_t geom_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* First index in the sorted @a[0..n) whose value is >= @x. */
static uint64_t geom_lower(const uint64_t *a, uint64_t n, uint64_t x)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (a[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t geom_milli(double v, uint32_t spt)
{
	double m = fmod(v * (double)GEOM_MILLI, (double)spt * (double)GEOM_MILLI);

	return (uint64_t)llround(m);
}

/* Sparing unit and spare sectors per unit for DiskSim's scheme. */
static void geom_unit(const struct ios_disksim_spec *s, const struct ios_dsk_zone *dz,
		      uint64_t phys, uint64_t *unit, uint64_t *spares)
{
	uint64_t track = dz->spt, cyl = track * s->surfaces;

	switch (s->sparing) {
	case IOS_DSK_SPARE_CYL:
		*unit = cyl;
		*spares = dz->spares;
		break;
	case IOS_DSK_SPARE_TRACKSECT:
		*unit = track;
		*spares = dz->spares;
		break;
	case IOS_DSK_SPARE_RANGE:
		*unit = cyl * s->rangesize;
		*spares = dz->spares;
		break;
	case IOS_DSK_SPARE_TRACK:	/* spare tracks at the zone's end */
		*unit = phys;
		*spares = (uint64_t)dz->spares * track;
		break;
	case IOS_DSK_SPARE_NONE:
		*unit = phys;
		*spares = 0;
		break;
	default:			/* 7, 9: spare sectors at the zone's end */
		*unit = phys;
		*spares = dz->spares;
		break;
	}
	if (*unit > phys)
		*unit = phys;
}

/* Track sparing lists slipped tracks; the others slipped sectors. */
static int geom_slips(struct ios_hdd_gzone *z, const struct ios_disksim_spec *s,
		      const struct ios_dsk_zone *dz, uint64_t phys, size_t zi, struct ios_err *e)
{
	bool tracks = s->sparing == IOS_DSK_SPARE_TRACK;
	uint64_t per = tracks ? dz->spt : 1, n = 0;

	if (dz->nr_slips > GEOM_MAX_TABLE / per)
		return IOS_ERR(e, -E2BIG, "%s:%d: zone %zu: more than %llu slipped sectors",
			       dz->file, dz->line, zi + 1, GEOM_MAX_TABLE);
	z->slips = calloc(dz->nr_slips * per + 1, sizeof(*z->slips));
	if (!z->slips)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (size_t i = 0; i < dz->nr_slips; i++) {
		uint64_t at = dz->slips[i] * per;

		if (at >= phys)
			return IOS_ERR(e, -EINVAL, "%s:%d: zone %zu: slip %llu is past the zone's %llu %s",
				       dz->file, dz->line, zi + 1, (unsigned long long)dz->slips[i],
				       (unsigned long long)(phys / per), tracks ? "tracks" : "sectors");
		if (i && dz->slips[i] == dz->slips[i - 1])
			continue;
		for (uint64_t k = 0; k < per; k++)
			z->slips[n++] = at + k;
	}
	z->nr_slips = n;
	return 0;
}

static int geom_zone(struct ios_hdd_geom *g, const struct ios_disksim_spec *s, size_t zi,
		     struct ios_err *e)
{
	const struct ios_dsk_zone *dz = &s->zones[zi];
	struct ios_hdd_gzone *z = &g->zone[zi];
	uint64_t phys, spares, slot = 0;
	int ret;

	z->first_cyl = dz->first_cyl;
	z->nr_cyl = dz->last_cyl - dz->first_cyl + 1;
	z->spt = dz->spt;
	phys = (uint64_t)z->nr_cyl * g->heads * z->spt;
	geom_unit(s, dz, phys, &z->unit, &spares);
	if (spares >= z->unit)
		return IOS_ERR(e, -EINVAL, "%s:%d: zone %zu: %llu spare sectors leave no room in a sparing unit of %llu",
			       dz->file, dz->line, zi + 1, (unsigned long long)spares,
			       (unsigned long long)z->unit);
	z->spares = (uint32_t)spares;
	if ((ret = geom_slips(z, s, dz, phys, zi, e)))
		return ret;
	z->nr_units = (phys + z->unit - 1) / z->unit;
	if (z->nr_units > GEOM_MAX_TABLE)
		return IOS_ERR(e, -E2BIG, "%s:%d: zone %zu: more than %llu sparing units",
			       dz->file, dz->line, zi + 1, GEOM_MAX_TABLE);
	z->unit_slot = calloc(z->nr_units + 1, sizeof(*z->unit_slot));
	if (!z->unit_slot)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (uint64_t u = 0; u < z->nr_units; u++) {
		uint64_t a = u * z->unit, size = geom_min(z->unit, phys - a);
		uint64_t nslip = geom_lower(z->slips, z->nr_slips, a + size) -
				 geom_lower(z->slips, z->nr_slips, a);
		uint64_t lost = nslip > spares ? nslip : spares;

		z->unit_slot[u] = slot;
		slot += size > lost ? size - lost : 0;
	}
	z->unit_slot[z->nr_units] = slot;
	z->empty = dz->empty_front;
	if (z->empty > slot)
		return IOS_ERR(e, -EINVAL, "%s:%d: zone %zu: empty space at the front (%llu) exceeds the zone's %llu usable sectors",
			       dz->file, dz->line, zi + 1, (unsigned long long)z->empty,
			       (unsigned long long)slot);
	z->nr_lba = slot - z->empty;
	z->off_m = geom_milli(dz->first_offset, z->spt);
	z->tskew_m = geom_milli(dz->track_skew, z->spt);
	z->cskew_m = geom_milli(dz->cyl_skew, z->spt);
	z->slip_skew = s->sparing == IOS_DSK_SPARE_CYL || s->sparing == IOS_DSK_SPARE_TRACKSECT;
	return 0;
}

int ios_hdd_geom_build(struct ios_hdd_geom *g, const struct ios_disksim_spec *s,
		       struct ios_err *e)
{
	uint64_t lba = 0;
	int ret;

	memset(g, 0, sizeof(*g));
	g->heads = s->surfaces;
	g->nr_cyl = s->cylinders;
	g->zone = calloc(s->nr_zones, sizeof(*g->zone));
	g->seek_dist = calloc(s->nr_seek, sizeof(*g->seek_dist));
	g->seek_ns = calloc(s->nr_seek, sizeof(*g->seek_ns));
	if (!g->zone || !g->seek_dist || !g->seek_ns) {
		ios_hdd_geom_free(g);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->nr_zones; i++) {
		g->nr_zones++;
		if ((ret = geom_zone(g, s, i, e))) {
			ios_hdd_geom_free(g);
			return ret;
		}
		g->zone[i].first_lba = lba;
		lba += g->zone[i].nr_lba;
	}
	if (lba < s->blocks) {
		const struct ios_dsk_zone *z = &s->zones[s->nr_zones - 1];

		ios_hdd_geom_free(g);
		return IOS_ERR(e, -EINVAL, "%s:%d: the zone table does not cover the capacity: its zones map %llu blocks, the Block count is %llu",
			       z->file, z->line, (unsigned long long)lba,
			       (unsigned long long)s->blocks);
	}
	/* a layout larger than the Block count: the LBNs past it are not used */
	for (size_t i = 0; i < g->nr_zones; i++) {
		struct ios_hdd_gzone *z = &g->zone[i];

		if (z->first_lba >= s->blocks) {
			z->first_lba = s->blocks;
			z->nr_lba = 0;
		} else if (z->first_lba + z->nr_lba > s->blocks) {
			z->nr_lba = s->blocks - z->first_lba;
		}
	}
	g->nr_sectors = s->blocks;
	g->nr_seek = (uint32_t)s->nr_seek;
	for (size_t i = 0; i < s->nr_seek; i++) {
		g->seek_dist[i] = s->seek_dist[i];
		g->seek_ns[i] = s->seek_ms[i] * 1e6;
	}
	g->settle_ns = (int64_t)llround(s->settle_ms * 1e6);
	g->bus_sector_ns[IOS_READ] = (uint64_t)llround(fmax(s->bulk_sector_ms, s->bus_read_blk_ms) * 1e6);
	g->bus_sector_ns[IOS_WRITE] = (uint64_t)llround(fmax(s->bulk_sector_ms, s->bus_write_blk_ms) * 1e6);
	g->read_water_m = (uint64_t)llround(s->read_water * 1e6);
	g->reqwater = s->reqwater != 0;
	g->seg_blks = s->segment_blks > 0 ? (uint64_t)s->segment_blks : 1;
	/* disk_write_arrive: the write hit overheads with fast writes */
	g->write_overhead_ns = (uint64_t)llround((s->fast_write ? s->write_hit_aw_ms
								: s->write_miss_ms) * 1e6);
	g->write_overhead_ar_ns = (uint64_t)llround((s->fast_write ? s->write_hit_ar_ms
								   : s->write_miss_ar_ms) * 1e6);
	g->read_miss_aw_ns = (uint64_t)llround(s->read_miss_aw_ms * 1e6);
	g->complete_ns[IOS_READ] = (uint64_t)llround(s->read_complete_ms * 1e6);
	g->complete_ns[IOS_WRITE] = (uint64_t)llround(s->write_complete_ms * 1e6);
	g->read_hit_aw_ns = (uint64_t)llround(s->read_hit_aw_ms * 1e6);
	/* disk_postpass_perdisk: no read-ahead means no minimum or maximum, and max >= min */
	g->contread = s->continuous_read;
	g->min_ra = g->contread ? (uint64_t)s->min_read_ahead : 0;
	g->max_ra = g->contread ? (uint64_t)s->max_read_ahead : 0;
	if (g->max_ra < g->min_ra)
		g->max_ra = g->min_ra;
	g->ra_over_req = s->ra_over_requested != 0;
	g->ra_idle_hit = s->ra_idle_hit != 0;
	g->stop_in_sector = s->stop_in_sector != 0;
	return 0;
}

void ios_hdd_geom_free(struct ios_hdd_geom *g)
{
	for (uint32_t i = 0; g->zone && i < g->nr_zones; i++) {
		free(g->zone[i].slips);
		free(g->zone[i].unit_slot);
	}
	free(g->zone);
	free(g->seek_dist);
	free(g->seek_ns);
	memset(g, 0, sizeof(*g));
}

static uint32_t geom_zone_of(const struct ios_hdd_geom *g, uint64_t lba)
{
	uint32_t lo = 0, hi = g->nr_zones - 1;

	while (lo < hi) {
		uint32_t mid = (lo + hi + 1) / 2;

		if (g->zone[mid].first_lba <= lba)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/*
 * The zone-relative physical sector of @lba, and how many LBAs from it
 * follow on the same track without a gap (a slip, the unit's spares, the
 * track's or the zone's end).
 */
static uint64_t geom_phys(const struct ios_hdd_geom *g, uint64_t lba, uint32_t *zi,
			  uint32_t *run)
{
	const struct ios_hdd_gzone *z = &g->zone[*zi = geom_zone_of(g, lba)];
	uint64_t k = lba - z->first_lba + z->empty;
	uint64_t lo = 0, hi = z->nr_units - 1, a, end, p, i, r;

	while (lo < hi) {
		uint64_t mid = (lo + hi + 1) / 2;

		if (z->unit_slot[mid] <= k)
			lo = mid;
		else
			hi = mid - 1;
	}
	a = lo * z->unit;
	p = a + (k - z->unit_slot[lo]);
	end = a + z->unit;
	for (i = geom_lower(z->slips, z->nr_slips, a); i < z->nr_slips && z->slips[i] <= p &&
	     z->slips[i] < end; i++)
		p++;
	r = geom_min(z->unit_slot[lo + 1] - k, z->spt - p % z->spt);
	r = geom_min(r, z->first_lba + z->nr_lba - lba);
	if (i < z->nr_slips && z->slips[i] < end)
		r = geom_min(r, z->slips[i] - p);
	*run = (uint32_t)(r ? r : 1);
	return p;
}

void ios_hdd_geom_locate(const struct ios_hdd_geom *g, uint64_t lba, struct hdd_loc *l)
{
	uint32_t zi, run;
	uint64_t p = geom_phys(g, lba, &zi, &run);
	const struct ios_hdd_gzone *z = &g->zone[zi];
	uint64_t track = p / z->spt, cylr = track / g->heads, head = track % g->heads;
	uint64_t full = (uint64_t)z->spt * GEOM_MILLI, ang, slipoffs = 0;

	if (z->slip_skew)
		slipoffs = geom_lower(z->slips, z->nr_slips, track * z->spt);
	ang = z->off_m + (head + (g->heads - 1) * cylr) % full * z->tskew_m +
	      cylr % full * z->cskew_m + (slipoffs + p % z->spt) * GEOM_MILLI;
	l->zone = zi;
	l->cyl = z->first_cyl + (uint32_t)cylr;
	l->head = (uint32_t)head;
	l->sect = (uint32_t)(p % z->spt);
	l->spt = z->spt;
	l->run = run;
	l->phase = (uint64_t)((unsigned __int128)(ang % full) * HDD_PHASE_REV / full);
	l->tstart = l->cylchg = true;
	if (lba) {
		uint32_t pz, prun;
		uint64_t pp = geom_phys(g, lba - 1, &pz, &prun);
		const struct ios_hdd_gzone *y = &g->zone[pz];
		uint64_t ptrack = pp / y->spt;
		uint32_t pcyl = y->first_cyl + (uint32_t)(ptrack / g->heads);

		l->cylchg = pcyl != l->cyl;
		l->tstart = l->cylchg || ptrack % g->heads != head;
	}
}

/* Do @a and @b lie on one track (with @cyl: one cylinder)? */
static bool geom_same_track(const struct ios_hdd_geom *g, uint64_t a, uint64_t b, bool cyl)
{
	struct hdd_loc la, lb;

	ios_hdd_geom_locate(g, a, &la);
	ios_hdd_geom_locate(g, b, &lb);
	return la.cyl == lb.cyl && (cyl || la.head == lb.head);
}

/* The first LBA past the track (with @cyl: the cylinder) that holds @lba. */
static uint64_t geom_track_end(const struct ios_hdd_geom *g, uint64_t lba, bool cyl)
{
	struct hdd_loc l;
	uint64_t lo = lba + 1, hi;

	/* a track holds at most spt LBAs, a cylinder heads x spt */
	ios_hdd_geom_locate(g, lba, &l);
	hi = geom_min(g->nr_sectors, lba + (uint64_t)l.spt * (cyl ? (uint64_t)g->heads : 1));
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (geom_same_track(g, lba, mid, cyl))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * DiskSim 4.0's disk_buffer_get_max_readahead (src/disksim_diskcache.c)
 * by Buffer continuous read: 0 nothing; 4 (DEC's scheme) to the end of the
 * track holding @b, one track further when the segment (from @seg_start)
 * began on an earlier track; 1, 2 and 3 Maximum read-ahead past @b, or
 * without one a segment past @b, or with Read-ahead over requested = 0 a
 * segment from @a (the request's own data is not overwritten; Minimum
 * read-ahead when the request leaves less than that).
 */
uint64_t ios_hdd_geom_ra_goal(const struct ios_hdd_geom *g, uint64_t seg, uint64_t seg_start,
			      uint64_t a, uint64_t b)
{
	uint64_t goal, n = b - a;
	struct hdd_loc l;

	if (b >= g->nr_sectors)
		return g->nr_sectors;
	switch (g->contread) {
	case 0:
		goal = b;
		break;
	case 4:
		goal = geom_track_end(g, b, false);
		if (!geom_same_track(g, seg_start, b, false)) {
			ios_hdd_geom_locate(g, a, &l);
			goal += l.spt;
		}
		break;
	default:
		if (g->max_ra)
			goal = b + g->max_ra;
		else if (g->ra_over_req)
			goal = b + seg;
		else if (n >= seg || seg - n < g->min_ra)
			goal = b + g->min_ra;
		else
			goal = a + seg;
		break;
	}
	return geom_min(g->nr_sectors, goal);
}

/*
 * DiskSim's disk_initiate_seek (src/disksim_diskctlr.c) ends a background
 * read that needs a head switch or seek with Buffer continuous read = 1,
 * one that needs a seek with 2: read-ahead goes no further than the track
 * (cylinder) of @last, the last sector read.
 */
uint64_t ios_hdd_geom_ra_cap(const struct ios_hdd_geom *g, uint64_t last, uint64_t goal)
{
	if (g->contread == 1 || g->contread == 2)
		return geom_min(goal, geom_track_end(g, last, g->contread == 2));
	return goal;
}

uint64_t ios_hdd_geom_seek_ns(const struct ios_hdd_geom *g, uint32_t d, bool write)
{
	uint32_t lo = 0, hi = g->nr_seek, n = g->nr_seek;
	double t;

	if (!d)
		return 0;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (g->seek_dist[mid] < d)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n)	/* past the table: the last segment's slope goes on */
		lo = n >= 2 ? n - 1 : 0;
	if (g->seek_dist[lo] == d || !lo) {
		t = g->seek_ns[lo];
		if (lo == n - 1 && n >= 2 && d > g->seek_dist[lo])
			t += (g->seek_ns[lo] - g->seek_ns[lo - 1]) * (d - g->seek_dist[lo]) /
			     (double)(g->seek_dist[lo] - g->seek_dist[lo - 1]);
	} else {
		double x0 = g->seek_dist[lo - 1], x1 = g->seek_dist[lo];

		t = g->seek_ns[lo - 1] + (g->seek_ns[lo] - g->seek_ns[lo - 1]) * (d - x0) / (x1 - x0);
	}
	if (write)
		t += (double)g->settle_ns;
	return t <= 0 ? 0 : (uint64_t)llround(t);
}

int ios_hdd_geom_zones(struct hdd *h, struct ios_err *e)
{
	const struct ios_hdd_geom *g = h->geom;

	h->zone = calloc(g->nr_zones, sizeof(*h->zone));
	if (!h->zone)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	h->nr_zones = g->nr_zones;
	h->nr_cyl = g->nr_cyl;
	for (uint32_t i = 0; i < g->nr_zones; i++) {
		const struct ios_hdd_gzone *z = &g->zone[i];

		h->zone[i].first_lba = z->first_lba;
		h->zone[i].nr_lba = z->nr_lba;
		h->zone[i].first_cyl = z->first_cyl;
		h->zone[i].nr_cyl = z->nr_cyl;
		h->zone[i].spt = z->spt;
		h->zone[i].head_skew = (uint32_t)((z->tskew_m + GEOM_MILLI / 2) / GEOM_MILLI % z->spt);
		h->zone[i].cyl_skew = (uint32_t)((z->cskew_m + GEOM_MILLI / 2) / GEOM_MILLI % z->spt);
	}
	return 0;
}
