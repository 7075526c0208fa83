/*
 * libFuzzer target for the DiskSim 4.0 spec reader (src/dev/disksim_parse.c)
 * and the table geometry built from what it accepts (src/dev/hdd_geom.c).
 *
 * The input is up to three files separated by NUL bytes: the .parv the
 * reader starts from ("f.parv"), the file any "source NAME" reads (every
 * name but one ending in .seek), and the seek table (any NAME.seek). An
 * accepted spec is built into a geometry and probed: a few LBNs located
 * (sector inside its track, cylinder inside the disk, phase below a
 * revolution, a run of at least one) and a few seeks timed.
 *
 * Properties: no crash, no sanitizer report, no hang; a refused input has
 * a message. Build: make fuzz; run:
 * build/fuzz/fuzz_disksim tests/fuzz/corpus-disksim
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev/hdd.h"
#include "dev/hdd_geom.h"
#include "dev/disksim_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz_files {
	const char *part[3];
	size_t len[3];
};

static int fz_read(void *arg, const char *path, char **buf, size_t *len)
{
	const struct fz_files *f = arg;
	size_t n = strlen(path);
	int i = !strcmp(path, "f.parv") ? 0 : n >= 5 && !strcmp(path + n - 5, ".seek") ? 2 : 1;

	if (!f->part[i])
		return -ENOENT;
	*buf = malloc(f->len[i] + 1);
	if (!*buf)
		return -ENOMEM;
	memcpy(*buf, f->part[i], f->len[i]);
	*len = f->len[i];
	return 0;
}

static void fz_probe(const struct ios_hdd_geom *g)
{
	uint64_t n = g->nr_sectors;
	uint64_t at[] = { 0, 1, n / 3, n / 2, n - 1 };

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct hdd_loc l;

		if (at[i] >= n)
			continue;
		ios_hdd_geom_locate(g, at[i], &l);
		if (l.sect >= l.spt || l.cyl >= g->nr_cyl || l.head >= g->heads ||
		    l.phase >= HDD_PHASE_REV || !l.run)
			abort();
	}
	for (uint32_t d = 0; d < 4; d++)
		(void)ios_hdd_geom_seek_ns(g, d * (g->nr_cyl / 3 + 1), d & 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_files f = { { NULL, NULL, NULL }, { 0, 0, 0 } };
	struct ios_disksim_spec s;
	struct ios_err e = { 0 };
	size_t start = 0;
	int k = 0;

	for (size_t i = 0; i <= size && k < 3; i++) {
		if (i == size || data[i] == 0) {
			f.part[k] = (const char *)data + start;
			f.len[k++] = i - start;
			start = i + 1;
		}
	}
	if (ios_disksim_load("f.parv", fz_read, &f, &s, &e)) {
		if (!e.msg[0])
			abort();
		return 0;
	}
	struct ios_hdd_geom g;

	if (!ios_hdd_geom_build(&g, &s, &e)) {
		fz_probe(&g);
		ios_hdd_geom_free(&g);
	} else if (!e.msg[0]) {
		abort();
	}
	ios_disksim_spec_free(&s);
	return 0;
}
