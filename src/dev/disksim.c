/*
 * disksim: our hdd model configured from a DiskSim 4.0 drive specification
 * ("--device disksim:PATH.parv" or "disksim:PATH.diskspecs").
 *
 * ios_dev_create() hands a profile name starting "disksim:" to
 * ios_dev_disksim_create(), which reads the spec (src/dev/disksim_parse.c),
 * builds the table geometry (src/dev/hdd_geom.c: zones as listed, sparing,
 * slips, skews, the measured seek table) and sets the hdd's other
 * parameters from the spec:
 *
 *   rpm, heads              Rotation speed, Number of data surfaces
 *   head_switch_ms          Head switch time
 *   cyl_switch_ms           the seek table's 1-cylinder time (DiskSim moves
 *                           to the next cylinder with a one-cylinder seek)
 *   write settle            Add. write settling delay (may be negative)
 *   cmd_overhead_ms         Read miss over. after read (media reads)
 *   write overhead          Write miss over. after write (every write)
 *   hit_overhead_ms         Read hit over. after read
 *   bus per sector          Bulk sector transfer time
 *   cache                   Number of buffer segments x Segment size,
 *                           Enable caching in buffer, Buffer continuous
 *                           read, Minimum/Maximum read-ahead, Read-ahead
 *                           over requested, Read-ahead on idle hit, Stop
 *                           prefetch in sector (DiskSim's rules, hdd.c),
 *                           Fast write level
 *   queue                   Max queue length; Scheduling policy 1 = FCFS,
 *                           any other = SATF (noted)
 *
 * What the model cannot honour is noted once per file on stderr and listed
 * in docs/disksim.md. The tunables left to --set are those that still act
 * (the queue, the cache switches, the overheads); the geometry is the spec's.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev/hdd.h"
#include "dev/hdd_geom.h"
#include "dev/disksim_parse.h"
#include "iosched/scope.h"
#include "iosched/stats.h"

struct dsk_dev {
	struct hdd h;			/* first: the hdd hooks see a struct hdd */
	struct ios_hdd_geom geom;
	struct ios_disksim_spec spec;
	char profile[512];
};

static struct dsk_dev *dsk_of(struct ios_dev *dev)
{
	return ios_container_of(ios_container_of(dev, struct hdd, dev), struct dsk_dev, h);
}

static int dsk_init(struct ios_dev *dev, struct ios_err *e)
{
	return ios_dev_hdd.ops.init(dev, e);
}

static void dsk_exit(struct ios_dev *dev)
{
	struct dsk_dev *d = dsk_of(dev);

	ios_dev_hdd.ops.exit(dev);
	ios_hdd_geom_free(&d->geom);
	ios_disksim_spec_free(&d->spec);
}

static unsigned dsk_caps(const struct ios_dev *dev)
{
	return ios_dev_hdd.ops.caps(dev);
}

static unsigned dsk_queue_depth(const struct ios_dev *dev)
{
	return ios_dev_hdd.ops.queue_depth(dev);
}

static int dsk_submit(struct ios_dev *dev, struct ios_request *rq, uint64_t now)
{
	return ios_dev_hdd.ops.submit(dev, rq, now);
}

static uint64_t dsk_next_event(const struct ios_dev *dev)
{
	return ios_dev_hdd.ops.next_event(dev);
}

static struct ios_request *dsk_complete(struct ios_dev *dev, uint64_t now)
{
	return ios_dev_hdd.ops.complete(dev, now);
}

static void dsk_reset(struct ios_dev *dev)
{
	ios_dev_hdd.ops.reset(dev);
}

static int dsk_describe(struct dsk_dev *d, struct ios_buf *b);

static int dsk_ctl(struct ios_dev *dev, int op, void *arg)
{
	if (op == IOS_DEV_CTL_DESCRIBE)
		return dsk_describe(dsk_of(dev), arg);
	return ios_dev_hdd.ops.ctl(dev, op, arg);
}

static const char *const dsk_ncq_choices[] = { "fcfs", "satf", NULL };

#define DSK_OFF(f) offsetof(struct dsk_dev, h.f)
/* the hdd parameters that still act on a disksim device; defaults come from the spec */
static const struct ios_tunable dsk_tunables[] = {
	{ "cmd_overhead_ms", IOS_TUN_TIME, DSK_OFF(cmd_overhead_ns), 0, 100, "0", "ms",
	  "controller time per media read (spec: Read miss over. after read)", 0, NULL },
	{ "hit_overhead_ms", IOS_TUN_TIME, DSK_OFF(hit_overhead_ns), 0, 100, "0", "ms",
	  "controller time per read-cache hit (spec: Read hit over. after read)", 0, NULL },
	{ "read_cache", IOS_TUN_BOOL, DSK_OFF(read_cache), 0, 1, "1", "",
	  "keep data read in the buffer segments (spec: Enable caching in buffer)", 0, NULL },
	{ "read_ahead", IOS_TUN_BOOL, DSK_OFF(read_ahead), 0, 1, "1", "",
	  "read ahead into the segment while idle (spec: Buffer continuous read)", 0, NULL },
	{ "write_cache", IOS_TUN_BOOL, DSK_OFF(write_cache), 0, 1, "0", "",
	  "complete writes once in the buffer (spec: Fast write level > 0)", 0, NULL },
	{ "queue_depth", IOS_TUN_INT, DSK_OFF(queue_depth), 1, 256, "1", "",
	  "commands the drive queues (spec: Max queue length)", 0, NULL },
	IOS_DEV_MQ_ROWS("1", "0"),
	{ "ncq_policy", IOS_TUN_ENUM, DSK_OFF(ncq_policy), 0, 0, "fcfs", "",
	  "order of queued commands (spec: Scheduling policy 1 = fcfs, others satf)", 0,
	  dsk_ncq_choices },
	{ "ncq_age_limit_ms", IOS_TUN_TIME, DSK_OFF(ncq_age_ns), 0, 60000, "0", "ms",
	  "satf: a command older than this is served first; 0 = no aging", 0, NULL },
	{ "destage_delay_ms", IOS_TUN_TIME, DSK_OFF(destage_delay_ns), 0, 60000, "5", "ms",
	  "cached writes go to the media once the host has left the drive alone this long "
	  "(not in DiskSim's specs: the hdd model's own)", 0, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};
#undef DSK_OFF

const struct ios_dev_type ios_dev_disksim = {
	.name = "disksim",
	.version = IOS_DEV_INTERFACE_VERSION,
	.desc = "the hdd model built from a DiskSim 4.0 drive spec: --device disksim:PATH.parv "
		"(zone table, sparing, skews, seek table; docs/disksim.md)",
	.ops = {
		.init = dsk_init,
		.exit = dsk_exit,
		.caps = dsk_caps,
		.queue_depth = dsk_queue_depth,
		.submit = dsk_submit,
		.next_event = dsk_next_event,
		.complete = dsk_complete,
		.reset = dsk_reset,
		.ctl = dsk_ctl,
	},
	.tunables = dsk_tunables,
	.priv_size = sizeof(struct dsk_dev),
};

/* The hdd's parameters from the spec; what does not fit becomes a note. */
static int dsk_configure(struct dsk_dev *d, struct ios_err *e)
{
	struct ios_disksim_spec *s = &d->spec;
	struct hdd *h = &d->h;
	uint64_t seg = (uint64_t)s->segment_blks, ra = (uint64_t)s->max_read_ahead;
	char note[256];

	h->capacity = s->blocks * IOS_SECTOR_SIZE;
	h->rpm = (int)llround(s->rpm);
	if ((double)h->rpm != s->rpm) {
		snprintf(note, sizeof(note), "Rotation speed (in rpms) = %g: rounded to %d rpm",
			 s->rpm, h->rpm);
		if (ios_disksim_note(s, note, e))
			return -ENOMEM;
	}
	h->heads = (int)s->surfaces;
	h->zones = (int)s->nr_zones;
	h->head_switch_ns = (uint64_t)llround(s->head_switch_ms * 1e6);
	h->cyl_switch_ns = ios_hdd_geom_seek_ns(&d->geom, 1, false);
	h->cmd_overhead_ns = (uint64_t)llround(s->read_miss_ms * 1e6);
	h->hit_overhead_ns = (uint64_t)llround(s->read_hit_ms * 1e6);
	h->interface_mbps = 1;	/* unused: the geometry's bus time per sector */
	h->cache_segments = s->nr_segments > 0 ? s->nr_segments : 1;
	h->cache_bytes = s->nr_segments > 0 ? (uint64_t)s->nr_segments * seg * IOS_SECTOR_SIZE : 0;
	h->read_cache = s->enable_cache && h->cache_bytes;
	if (h->cache_bytes && seg < 8)
		return IOS_ERR(e, -EINVAL, "%s (%s): Segment size (in blks) = %llu: the hdd model needs segments of 8 blocks or more",
			       s->path, s->name, (unsigned long long)seg);
	/*
	 * Read-ahead follows DiskSim's rules for Buffer continuous read and
	 * its companions (the geometry's contread .. stop_in_sector, applied
	 * in src/dev/hdd.c); read_ahead is their on/off switch and
	 * read_ahead_max what `iosched list` shows.
	 */
	h->read_ahead = h->read_cache && s->continuous_read;
	if (ra > seg || !ra)
		ra = seg;
	h->read_ahead_max_bytes = ra * IOS_SECTOR_SIZE;
	if (s->ra_over_requested < 0 &&
	    ios_disksim_note(s, "Read-ahead over requested = -1: not modelled (the request's data stays in the segment; read-ahead counts from the request's end)", e))
		return -ENOMEM;
	h->write_cache = s->fast_write > 0 && h->cache_bytes;
	if (s->fast_write == 1 && ios_disksim_note(s, "Fast write level = 1: treated as 2 (every write may be cached)", e))
		return -ENOMEM;
	h->queue_depth = s->max_queue;
	h->dev.hw_queue_depth = s->max_queue;
	h->ncq_policy = s->sched_policy == 1 ? 0 : 1;
	if (s->sched_policy != 1) {
		snprintf(note, sizeof(note), "Scheduling policy = %d: approximated by SATF (shortest seek + rotation first)",
			 s->sched_policy);
		if (ios_disksim_note(s, note, e))
			return -ENOMEM;
	}
	h->ncq_age_ns = 0;
	return 0;
}

/* Each file's notes once per process, however many devices are made from it. */
static void dsk_print_notes(const struct ios_disksim_spec *s)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char **seen;
	static size_t nr_seen;
	char **ns;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nr_seen; i++)
		if (!strcmp(seen[i], s->path))
			goto out;
	ns = realloc(seen, (nr_seen + 1) * sizeof(*seen));
	if (ns) {
		seen = ns;
		seen[nr_seen] = strdup(s->path);
		if (seen[nr_seen])
			nr_seen++;
	}
	for (size_t i = 0; i < s->nr_notes; i++)
		fprintf(stderr, "iosched: note: disksim %s (%s): %s\n", s->path, s->name, s->notes[i]);
out:
	pthread_mutex_unlock(&lock);
}

struct ios_dev *ios_dev_disksim_create(const char *path, struct ios_settings *set, uint64_t seed,
				       struct ios_err *e)
{
	const struct ios_dev_type *t = &ios_dev_disksim;
	struct dsk_dev *d;
	struct ios_dev *dev;
	int ret;

	if (!*path) {
		IOS_ERR(e, -EINVAL, "--device disksim:PATH: the path to a .parv or .diskspecs file is missing");
		return NULL;
	}
	if (ios_dev_type_check(t, e))
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	dev = &d->h.dev;
	ret = ios_disksim_load(path, NULL, NULL, &d->spec, e);
	if (ret) {
		free(d);
		return NULL;
	}
	snprintf(d->profile, sizeof(d->profile), "disksim:%s", path);
	dev->type = t;
	dev->profile = d->profile;
	snprintf(dev->name, sizeof(dev->name), "sda");
	dev->seed = seed;
	ios_rand_seed(&dev->rng, seed, 0x6465766963650000ULL); /* "device", as dev.c */
	ret = ios_tunable_defaults(t->tunables, dev, e);
	if (!ret)
		ret = ios_hdd_geom_build(&d->geom, &d->spec, e);
	if (!ret)
		ret = dsk_configure(d, e);
	if (!ret && set)
		ret = ios_settings_apply_for(set, ios_scope_get(IOS_SCOPE_DEVICE)->prefix,
					     ios_scope_table(ios_scope_get(IOS_SCOPE_DEVICE), NULL, t),
					     dev, d->profile, e);
	if (!ret) {
		d->h.geom = &d->geom;
		ret = t->ops.init(dev, e);
	}
	if (ret) {
		ios_hdd_geom_free(&d->geom);
		ios_disksim_spec_free(&d->spec);
		free(d);
		return NULL;
	}
	dsk_print_notes(&d->spec);
	return dev;
}

/* IOS_DEV_CTL_DESCRIBE: what the spec gave the model, for iosched list --device. */
static int dsk_describe(struct dsk_dev *d, struct ios_buf *b)
{
	const struct ios_disksim_spec *s = &d->spec;
	const struct ios_hdd_geom *g = &d->geom;
	const struct hdd *h = &d->h;

	ios_buf_printf(b, "  drive %s from %s\n", s->name, s->path);
	ios_buf_printf(b, "    blocks %llu (%.3f GB), %u surfaces, %u cylinders, %d rpm, %u zones\n",
		       (unsigned long long)s->blocks, (double)s->blocks * 512 / 1e9, s->surfaces,
		       s->cylinders, h->rpm, g->nr_zones);
	ios_buf_printf(b, "    head switch %.3f ms, cylinder switch (1-cylinder seek) %.3f ms, write settle %+.3f ms\n",
		       (double)h->head_switch_ns / 1e6, (double)h->cyl_switch_ns / 1e6,
		       (double)g->settle_ns / 1e6);
	ios_buf_printf(b, "    seek table: %u points, %u cyl %.3f ms .. %u cyl %.3f ms (linear between, the last slope past the end)\n",
		       g->nr_seek, g->seek_dist[0], g->seek_ns[0] / 1e6, g->seek_dist[g->nr_seek - 1],
		       g->seek_ns[g->nr_seek - 1] / 1e6);
	ios_buf_printf(b, "    overheads: read miss %.3f ms, read hit %.3f ms, write %.3f ms; bus %.4f ms per sector\n",
		       (double)h->cmd_overhead_ns / 1e6, (double)h->hit_overhead_ns / 1e6,
		       (double)g->write_overhead_ns / 1e6, (double)g->bus_sector_ns[IOS_READ] / 1e6);
	ios_buf_printf(b, "    buffer: %d segment(s) of %d blocks, read cache %s, read-ahead %s, write cache %s\n",
		       s->nr_segments, s->segment_blks, h->read_cache ? "on" : "off",
		       h->read_ahead ? "on" : "off", h->write_cache ? "on" : "off");
	ios_buf_printf(b, "    read-ahead: continuous read %d, min %llu max %llu blocks, over requested %d, on idle hit %d, stop in sector %d\n",
		       g->contread, (unsigned long long)g->min_ra, (unsigned long long)g->max_ra,
		       s->ra_over_requested, g->ra_idle_hit, g->stop_in_sector);
	ios_buf_printf(b, "    queue: %d command(s), %s (DiskSim scheduling policy %d); sparing scheme %d (range %u)\n",
		       h->queue_depth, h->ncq_policy ? "satf" : "fcfs", s->sched_policy, s->sparing,
		       s->rangesize);
	ios_buf_printf(b, "    %-4s %-13s %-5s %-21s %-11s %-7s %-8s %s\n", "zone", "cylinders", "spt",
		       "LBNs", "skew trk/cyl", "spares", "slips", "empty front");
	for (uint32_t i = 0; i < g->nr_zones; i++) {
		const struct ios_hdd_gzone *z = &g->zone[i];
		const struct ios_dsk_zone *dz = &s->zones[i];
		char cyl[32], lbn[48], skew[32];

		snprintf(cyl, sizeof(cyl), "%u-%u", z->first_cyl, z->first_cyl + z->nr_cyl - 1);
		snprintf(lbn, sizeof(lbn), "%llu+%llu", (unsigned long long)z->first_lba,
			 (unsigned long long)z->nr_lba);
		snprintf(skew, sizeof(skew), "%g/%g", dz->track_skew, dz->cyl_skew);
		ios_buf_printf(b, "    %-4u %-13s %-5u %-21s %-11s %-7u %-8zu %llu\n", i, cyl, z->spt,
			       lbn, skew, dz->spares, dz->nr_slips,
			       (unsigned long long)z->empty);
	}
	ios_buf_printf(b, "    %zu parameter(s) not modelled (noted on stderr; docs/disksim.md)\n",
		       s->nr_notes);
	return 0;
}
