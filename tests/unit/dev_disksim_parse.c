/*
 * Description: the DiskSim 4.0 spec reader (src/dev/disksim_parse.c) on
 * the five real validation drives in tests/data/disksim (drive name, zone
 * count, block count, rpm, surfaces, cylinders and the seek table's length
 * and end points, as the files give them), and on broken specs: each bad
 * input is refused with a message naming the file and line (and the
 * parameter where there is one), never a crash or a silent default.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "dev/disksim_parse.h"
#include "dev/hdd_geom.h"

#define DATA "tests/data/disksim/"

static const struct drive {
	const char *parv, *name;
	size_t zones;
	uint64_t blocks;
	double rpm;
	uint32_t surfaces, cylinders;
	size_t nr_seek;
	uint32_t last_dist;
	double first_ms, last_ms;
	int sparing, max_queue, segments;
} drives[] = {
	{ "atlas_III.parv", "QUANTUM_QM39100TD-SW", 9, 17783250, 7200, 10, 8057, 117, 7998,
	  1.663, 15.36, 7, 1, 6 },
	{ "barracuda.parv", "SEAGATE_ST32171W", 11, 4110000, 7200, 5, 5172, 87, 4986, 1.943,
	  16.679, 8, 1, -1 },
	{ "cheetah4LP.parv", "SEAGATE_ST34501N_validate", 7, 8887200, 10033, 8, 6581, 103, 6580,
	  0.636, 16.107, 8, 1, -1 },
	{ "dec_rz26.parv", "DEC_RZ26_validate", 1, 2050860, 5360, 14, 2599, 64, 2599, 1.0143968,
	  19.0987965, 3, 1, -1 },
	{ "hp_c3323a.parv", "HP_C3323A_validate", 8, 2056008, 5396, 7, 2982, 67, 2976, 1.178043,
	  18.1161353, 1, 1, 2 },
};

static int test_real_drives(void)
{
	for (size_t i = 0; i < sizeof(drives) / sizeof(drives[0]); i++) {
		const struct drive *d = &drives[i];
		struct ios_disksim_spec s;
		struct ios_hdd_geom g;
		struct ios_err e = { 0 };
		char path[256];
		uint64_t lbas = 0;

		snprintf(path, sizeof(path), DATA "%s", d->parv);
		T_ASSERT_MSG(!ios_disksim_load(path, NULL, NULL, &s, &e), "%s: %s", path, e.msg);
		T_ASSERT_MSG(!strcmp(s.name, d->name), "%s: %s", path, s.name);
		T_ASSERT_EQ(s.nr_zones, d->zones);
		T_ASSERT_EQ(s.blocks, d->blocks);
		T_ASSERT(s.rpm == d->rpm);
		T_ASSERT_EQ(s.surfaces, d->surfaces);
		T_ASSERT_EQ(s.cylinders, d->cylinders);
		T_ASSERT_EQ(s.nr_seek, d->nr_seek);
		T_ASSERT_EQ(s.seek_dist[0], 1);
		T_ASSERT_EQ(s.seek_dist[s.nr_seek - 1], d->last_dist);
		T_ASSERT(fabs(s.seek_ms[0] - d->first_ms) < 1e-9);
		T_ASSERT(fabs(s.seek_ms[s.nr_seek - 1] - d->last_ms) < 1e-9);
		T_ASSERT_EQ(s.sparing, d->sparing);
		T_ASSERT_EQ(s.max_queue, d->max_queue);
		if (d->segments >= 0)
			T_ASSERT_EQ(s.nr_segments, d->segments);
		/* every drive has parameters the model does not honour: they are noted */
		T_ASSERT(s.nr_notes > 0);
		/* the zone table covers the block count, zone by zone */
		T_ASSERT_MSG(!ios_hdd_geom_build(&g, &s, &e), "%s: %s", path, e.msg);
		for (uint32_t z = 0; z < g.nr_zones; z++)
			lbas += g.zone[z].nr_lba;
		T_ASSERT_EQ(lbas, d->blocks);
		T_ASSERT_EQ(g.nr_sectors, d->blocks);
		ios_hdd_geom_free(&g);
		ios_disksim_spec_free(&s);
	}
	return T_PASS;
}

/* The atlas zone 0 facts the notes and the geometry rest on. */
static int test_atlas_details(void)
{
	struct ios_disksim_spec s;
	struct ios_err e = { 0 };
	bool noted = false;

	T_ASSERT_MSG(!ios_disksim_load(DATA "atlas_III.diskspecs", NULL, NULL, &s, &e), "%s", e.msg);
	T_ASSERT_EQ(s.zones[0].spt, 256);
	T_ASSERT_EQ(s.zones[0].empty_front, 128000);
	T_ASSERT(s.zones[0].track_skew == 75 && s.zones[0].cyl_skew == 86);
	T_ASSERT_EQ(s.zones[0].nr_slips, 4);
	/* zone 1's slips are listed out of order: sorted on reading */
	for (size_t i = 1; i < s.zones[1].nr_slips; i++)
		T_ASSERT(s.zones[1].slips[i - 1] <= s.zones[1].slips[i]);
	T_ASSERT(fabs(s.bulk_sector_ms - 0.106) < 1e-12);
	T_ASSERT(fabs(s.read_hit_ms - 0.374) < 1e-12);
	T_ASSERT(fabs(s.write_miss_ms - 0.5002) < 1e-12);
	T_ASSERT_EQ(s.segment_blks, 64);
	T_ASSERT_EQ(s.fast_write, 2);
	/* the overheads after the other direction are modelled now, not noted */
	T_ASSERT(fabs(s.write_miss_ar_ms - 0.47828) < 1e-12);
	T_ASSERT(fabs(s.read_hit_aw_ms - 0.335) < 1e-12);
	T_ASSERT(fabs(s.write_hit_ar_ms - 0.414) < 1e-12);
	for (size_t i = 0; i < s.nr_notes; i++)
		if (strstr(s.notes[i], "Write miss over. after read"))
			noted = true;
	T_ASSERT(!noted);
	ios_disksim_spec_free(&s);
	return T_PASS;
}

/* ---- broken specs, from memory ---- */

static const char t_parv[] =
	"disksim_bus BUS0 { type = 1, Arbitration time = 0.0 }\n"
	"disksim_disk D {\n"
	"   Model = source d.model,\n"
	"   Bulk sector transfer time = 0.01,\n"
	"   Max queue length = 1,\n"
	"   Scheduler = disksim_ioqueue { Scheduling policy = 1 },\n"
	"   Number of buffer segments = 2,\n"
	"   Segment size (in blks) = 64,\n"
	"   Enable caching in buffer = 1,\n"
	"   Buffer continuous read = 3,\n"
	"   Maximum read-ahead (blks) = 32,\n"
	"   Fast write level = 0,\n"
	"   Read hit over. after read = 0.1,\n"
	"   Read miss over. after read = 0.2,\n"
	"   Write miss over. after write = 0.3\n"
	"}\n"
	"instantiate [ disk0 ] as D\n";

static const char t_model[] =
	"dm_disk D_model {\n"
	"   Number of data surfaces = 2,\n"
	"   Number of cylinders = 20,\n"
	"   Block count = 3000,\n"
	"   Layout Model = dm_layout_g1 {\n"
	"      LBN-to-PBN mapping scheme = 0,\n"
	"      Sparing scheme used = 0,\n"
	"      Rangesize for sparing = 1,\n"
	"      Zones = [\n"
	"         dm_layout_g1_zone { First cylinder number = 0, Last cylinder number = 9,\n"
	"            Blocks per track = 100, Offset of first block = 0,\n"
	"            Empty space at zone front = 0, Skew for track switch = 5,\n"
	"            Skew for cylinder switch = 7, Number of spares = 0, slips = [], defects = [] },\n"
	"         dm_layout_g1_zone { First cylinder number = 10, Last cylinder number = 19,\n"
	"            Blocks per track = 50, Offset of first block = 0,\n"
	"            Empty space at zone front = 0, Skew for track switch = 5,\n"
	"            Skew for cylinder switch = 7, Number of spares = 0, slips = [], defects = [] }\n"
	"      ]\n"
	"   },\n"
	"   Mechanical Model = dm_mech_g1 {\n"
	"      Access time type = trackSwitchPlusRotation,\n"
	"      Seek type = extracted,\n"
	"      Full seek curve = d.seek,\n"
	"      Add. write settling delay = 0,\n"
	"      Head switch time = 0.5,\n"
	"      Rotation speed (in rpms) = 7200\n"
	"   }\n"
	"}\n";

static const char t_seek[] = "Seek distances measured: 3\n1, 1.0\n5, 2.0\n19, 4.0\n";

struct mem {
	const char *parv, *model, *seek;
};

static int mem_read(void *arg, const char *path, char **buf, size_t *len)
{
	const struct mem *m = arg;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *t = !strcmp(base, "d.parv") ? m->parv : !strcmp(base, "d.model") ? m->model :
			!strcmp(base, "d.seek") ? m->seek : NULL;

	if (!t)
		return -ENOENT;
	*len = strlen(t);
	*buf = malloc(*len + 1);
	if (!*buf)
		return -ENOMEM;
	memcpy(*buf, t, *len + 1);
	return 0;
}

/* @text with its first @from replaced by @to (static buffer per slot). */
static const char *subst(int slot, const char *text, const char *from, const char *to)
{
	static char out[3][8192];
	const char *at = strstr(text, from);

	if (!at)
		return "SUBST-FAILED";
	snprintf(out[slot], sizeof(out[slot]), "%.*s%s%s", (int)(at - text), text, to,
		 at + strlen(from));
	return out[slot];
}

static int expect_error(const struct mem *m, const char *want1, const char *want2)
{
	struct ios_disksim_spec s;
	struct ios_err e = { 0 };
	int ret = ios_disksim_load("dir/d.parv", mem_read, (void *)m, &s, &e);

	/* the layout's checks (coverage, slips, spares) come with the geometry */
	if (!ret) {
		struct ios_hdd_geom g;

		ret = ios_hdd_geom_build(&g, &s, &e);
		if (!ret)
			ios_hdd_geom_free(&g);
		ios_disksim_spec_free(&s);
	}
	T_ASSERT_MSG(ret < 0, "accepted; wanted an error with '%s'", want1);
	T_ASSERT_MSG(strstr(e.msg, want1), "'%s' lacks '%s'", e.msg, want1);
	T_ASSERT_MSG(!want2 || strstr(e.msg, want2), "'%s' lacks '%s'", e.msg, want2);
	return T_PASS;
}

static int test_template_ok(void)
{
	struct mem m = { t_parv, t_model, t_seek };
	struct ios_disksim_spec s;
	struct ios_hdd_geom g;
	struct ios_err e = { 0 };

	T_ASSERT_MSG(!ios_disksim_load("dir/d.parv", mem_read, &m, &s, &e), "%s", e.msg);
	T_ASSERT_EQ(s.nr_zones, 2);
	T_ASSERT_EQ(s.nr_seek, 3);
	T_ASSERT_EQ(s.nr_notes, 0);	/* nothing in it the model does not honour */
	T_ASSERT(!ios_hdd_geom_build(&g, &s, &e));
	T_ASSERT_EQ(g.zone[0].nr_lba, 2000);
	T_ASSERT_EQ(g.zone[1].nr_lba, 1000);
	ios_hdd_geom_free(&g);
	ios_disksim_spec_free(&s);
	return T_PASS;
}

static int test_bad_inputs(void)
{
	static const struct {
		int which;		/* 0 parv, 1 model, 2 seek */
		const char *from, *to, *want1, *want2;
	} cases[] = {
		/* truncated: the file stops inside the disk block */
		{ 0, "   Fast write level = 0,", "   Fast write level", "dir/d.parv:12:",
		  "'Fast write level'" },
		{ 1, "      Head switch time = 0.5,", "", "dir/d.model:", "Head switch time" },
		{ 1, "   Block count = 3000", "   Block count = 3OOO", "dir/d.model:4:",
		  "'3OOO' is not a number" },
		{ 0, "   Max queue length = 1,", "   Max queue lenght = 1,", "dir/d.parv:5:",
		  "unknown parameter 'Max queue lenght'" },
		{ 0, "disksim_bus BUS0", "disksim_buss BUS0", "dir/d.parv:1:",
		  "unknown block type 'disksim_buss'" },
		{ 2, "5, 2.0\n", "0.5, 2.0\n", "dir/d.seek:3:", "distance" },
		{ 2, "19, 4.0", "4, 4.0", "dir/d.seek:4:", "seek table out of order" },
		{ 2, "19, 4.0\n", "", "dir/d.seek:", "header announces 3" },
		{ 2, "Seek distances measured: 3", "Seek distance: 3", "dir/d.seek:1:", "Seek distances measured" },
		{ 2, "Seek distances measured: 3\n1, 1.0\n5, 2.0\n19, 4.0\n", "", "dir/d.seek:1:",
		  "empty or truncated seek table" },
		{ 1, "Block count = 3000", "Block count = 3001", "dir/d.model:",
		  "does not cover the capacity" },
		{ 1, "First cylinder number = 10", "First cylinder number = 9", "dir/d.model:14:",
		  "overlap" },
		{ 1, "Last cylinder number = 19", "Last cylinder number = 20", "dir/d.model:",
		  "past the disk's 20 cylinders" },
		{ 1, "Rotation speed (in rpms) = 7200", "Rotation speed (in rpms) = 72", "dir/d.model:",
		  "1000..30000" },
		{ 0, "source d.model", "source e.model", "dir/d.parv:3: source dir/e.model", NULL },
		{ 1, "Full seek curve = d.seek", "Full seek curve = e.seek", "dir/d.model:",
		  "dir/e.seek" },
		{ 1, "Sparing scheme used = 0", "Sparing scheme used = 5", "dir/d.model:7:",
		  "not supported" },
		{ 1, "dm_layout_g1 {", "dm_layout_g2 {", "dir/d.model:5:", "dm_layout_g2" },
		{ 0, "instantiate [ disk0 ] as D", "instantiate [ disk0 ] D", "dir/d.parv:",
		  "as NAME" },
		{ 1, "slips = [], defects = [] }\n      ]", "slips = [ 9999 ], defects = [] }\n      ]",
		  "dir/d.model:14:", "slip 9999" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mem m = { t_parv, t_model, t_seek };
		const char **f = cases[i].which == 0 ? &m.parv : cases[i].which == 1 ? &m.model :
				 &m.seek;

		*f = subst(cases[i].which, *f, cases[i].from, cases[i].to);
		if (cases[i].which == 0 && !strcmp(cases[i].to, "   Fast write level"))
			*f = strndup(*f, (size_t)(strstr(*f, "Fast write level") - *f) + 16);
		T_ASSERT_MSG(strcmp(*f, "SUBST-FAILED"), "case %zu: '%s' not in the template", i,
			     cases[i].from);
		int r = expect_error(&m, cases[i].want1, cases[i].want2);

		if (cases[i].which == 0 && !strcmp(cases[i].to, "   Fast write level"))
			free((char *)*f);
		if (r != T_PASS) {
			fprintf(stderr, "  case %zu\n", i);
			return r;
		}
	}
	return T_PASS;
}

static int test_missing_file(void)
{
	struct ios_disksim_spec s;
	struct ios_err e = { 0 };

	T_ASSERT(ios_disksim_load("tests/data/disksim/no-such.parv", NULL, NULL, &s, &e) == -ENOENT);
	T_ASSERT_MSG(!strcmp(e.msg, "tests/data/disksim/no-such.parv: No such file or directory"),
		     "%s", e.msg);
	return T_PASS;
}

/* Through ios_dev_create, as --device and iosched validate reach it. */
static int test_dev_create(void)
{
	struct ios_err e = { 0 };
	struct ios_dev *dev = ios_dev_create("disksim:" DATA "hp_c3323a.parv", NULL, 1, &e);

	T_ASSERT_MSG(dev, "%s", e.msg);
	T_ASSERT(!strcmp(dev->type->name, "disksim"));
	T_ASSERT_EQ(dev->nr_sectors, 2056008);
	T_ASSERT_EQ(dev->type->ops.queue_depth(dev), 1);
	T_ASSERT(ios_dev_caps(dev) & IOS_DEV_ROTATIONAL);
	T_ASSERT(!(ios_dev_caps(dev) & IOS_DEV_WRITE_CACHE));	/* Fast write level = 0 */
	ios_dev_destroy(dev);
	dev = ios_dev_create("disksim:", NULL, 1, &e);
	T_ASSERT(!dev);
	memset(&e, 0, sizeof(e));
	dev = ios_dev_create("disksim:" DATA "missing.parv", NULL, 1, &e);
	T_ASSERT(!dev && strstr(e.msg, "missing.parv"));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_real_drives, test_atlas_details, test_template_ok, test_bad_inputs,
		     test_missing_file, test_dev_create);
}
