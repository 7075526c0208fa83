/*
 * The seed reproduction report's DiskSim section (repro.h): DiskSim 4.0's
 * five validation drives, each replayed as `iosched validate NAME.parv
 * NAME.trace` replays it (ios_validate_run, src/trace/validate.c: one
 * request at a time, as DiskSim's iodriver reads a validate trace), against
 * the drive the disksim device builds from the drive's own specification
 * (src/dev/disksim.c). The report puts our RMS demerit beside the one
 * DiskSim's own model reaches on the same trace.
 *
 * DiskSim's numbers are the only ones typed in here, quoted as the lab's
 * copy of the drives lists them (tests/data/disksim/README.md, from
 * DiskSim 4.0's valid/); tests/data/disksim/bounds lists them too and
 * tests/sh/validate_drives.sh checks that the two agree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/repro.h"
#include "iosched/validate.h"

const struct ios_repro_drive ios_repro_drives[] = {
	{ "atlas_III", "Quantum Atlas III QM39100TD-SW", 0.378 },
	{ "barracuda", "Seagate Barracuda ST32171W", 0.349 },
	{ "cheetah4LP", "Seagate Cheetah 4LP ST34501N", 0.318 },
	{ "dec_rz26", "DEC RZ26", 0.340 },
	{ "hp_c3323a", "HP C3323A", 0.306 },
};
const size_t ios_repro_nr_drives = IOS_ARRAY_SIZE(ios_repro_drives);

int ios_repro_drive_path(const char *dir, const struct ios_repro_drive *dr, const char *ext,
			 char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s.%s", dir, dr->name, ext);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

bool ios_repro_drive_goal(const struct ios_repro_drive_result *r)
{
	return r->rms_ms <= IOS_REPRO_DRIVE_GOAL * r->drive->disksim_ms;
}

/* One drive: its trace against the device disksim:DIR/NAME.parv, seed 1 as validate makes it. */
static int rd_run_one(const char *dir, const struct ios_repro_drive *dr,
		      struct ios_repro_drive_result *out, struct ios_err *e)
{
	char parv[4096], trace[4096], devname[4096 + 16];
	struct ios_validate_result res = { 0 };
	struct ios_dstrace *t = NULL;
	struct ios_dev *dev = NULL;
	int ret;

	if (ios_repro_drive_path(dir, dr, "parv", parv, sizeof(parv)) ||
	    ios_repro_drive_path(dir, dr, "trace", trace, sizeof(trace)))
		return IOS_ERR(e, -ENAMETOOLONG, "drive %s: %s: path too long", dr->name, dir);
	snprintf(devname, sizeof(devname), "disksim:%s", parv);
	ret = ios_dstrace_read(trace, &t, e);
	if (ret)
		return ret;
	dev = ios_dev_create(devname, NULL, 1, e);
	if (!dev) {
		ios_dstrace_free(t);
		return e->code ? e->code : -EINVAL;
	}
	ret = ios_validate_run(t, dev, devname, &res, e);
	if (!ret)
		*out = (struct ios_repro_drive_result){
			.drive = dr, .requests = res.n, .rms_ms = res.rms_ms,
			.meas_mean_ms = res.meas.mean_ms, .sim_mean_ms = res.sim.mean_ms,
		};
	ios_validate_result_free(&res);
	ios_dev_destroy(dev);
	ios_dstrace_free(t);
	return ret;
}

int ios_repro_drives_run(const char *dir, struct ios_repro_drives *out, struct ios_err *e)
{
	memset(out, 0, sizeof(*out));
	out->r = calloc(ios_repro_nr_drives, sizeof(*out->r));
	if (!out->r)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	out->dir = dir;
	for (size_t i = 0; i < ios_repro_nr_drives; i++) {
		int ret = rd_run_one(dir, &ios_repro_drives[i], &out->r[i], e);

		if (ret) {
			ios_repro_drives_free(out);
			return ret;
		}
		out->n++;
	}
	return 0;
}

void ios_repro_drives_free(struct ios_repro_drives *d)
{
	free(d->r);
	memset(d, 0, sizeof(*d));
}
