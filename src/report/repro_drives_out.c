/*
 * The seed reproduction report's DiskSim section (repro.h, issue 31 item
 * 3): DiskSim 4.0's validation drives replayed by src/exp/repro_drives.c,
 * as a Markdown section and summary row, JSON and text lines. The goal is
 * within IOS_REPRO_DRIVE_GOAL times DiskSim's own demerit: PASS or MISS
 * with our number, as the experiments' criteria are reported.
 */
#include <stdio.h>
#include "iosched/ios.h"
#include "iosched/repro.h"
#include "jsonw.h"
#include "repro_out_int.h"

static size_t rdo_passed(const struct ios_repro_drives *d)
{
	size_t pass = 0;

	for (size_t i = 0; i < d->n; i++)
		pass += ios_repro_drive_goal(&d->r[i]);
	return pass;
}

void ios_rmd_drives_summary(struct ios_buf *out, const struct ios_repro_drives *d)
{
	ios_buf_printf(out, "| DiskSim's validation drives: rms demerit within %.0fx DiskSim's "
		       "| %zu | %zu | %zu | no thread: DiskSim 4.0's own demerits |\n",
		       IOS_REPRO_DRIVE_GOAL, d->n, rdo_passed(d), d->n - rdo_passed(d));
}

void ios_rmd_drives(struct ios_buf *out, const struct ios_repro_drives *d)
{
	static const char *const hdr[] = {
		"drive", "spec and trace", "DiskSim's demerit (ms)", "ours (ms)",
		"ours / DiskSim's", "goal: within 2x", "requests", "measured mean (ms)",
		"our mean (ms)",
	};

	ios_buf_printf(out,
"\n## DiskSim's validation drives: the disk model against DiskSim's\n"
"\n"
"**What it checks.** Issue 31, item 3: DiskSim 4.0's drive validation traces, measured on\n"
"five real SCSI drives of the 1990s, replayed one request at a time against the drive built\n"
"from DiskSim's own specification of it (`--device disksim:PATH.parv`,\n"
"[disksim.md](disksim.md)), exactly as `iosched validate NAME.parv NAME.trace` replays\n"
"them ([validate.md](validate.md)). The number is DiskSim's RMS demerit: the root mean\n"
"square horizontal distance, in ms, between the measured and the simulated cumulative\n"
"access-time distributions. DiskSim's column is the demerit its own model reaches on the\n"
"same trace (DiskSim 4.0's `valid/`, as the lab's copy lists it); the goal is within %.0fx\n"
"of it. No scheduler or block layer is involved (one request is outstanding at a time);\n"
"the device is made as `validate` makes it, seed 1, and the run is deterministic.\n"
"\n"
"Files in `%s/`; run alone: `iosched validate %s/NAME.parv %s/NAME.trace`.\n"
"`tests/sh/validate_drives.sh` holds each drive under a bound (`%s/bounds`).\n\n",
		       IOS_REPRO_DRIVE_GOAL, d->dir, d->dir, d->dir, d->dir);
	ios_rmd_header(out, hdr, IOS_ARRAY_SIZE(hdr), "llrrrlrrr");
	for (size_t i = 0; i < d->n; i++) {
		const struct ios_repro_drive_result *r = &d->r[i];

		ios_buf_printf(out, "| %s | `%s.parv`, `%s.trace` | %.3f | %.3f | %.2f | %s | %zu | "
			       "%.3f | %.3f |\n", r->drive->title, r->drive->name, r->drive->name,
			       r->drive->disksim_ms, r->rms_ms, r->rms_ms / r->drive->disksim_ms,
			       ios_repro_drive_goal(r) ? "PASS" : "MISS", r->requests,
			       r->meas_mean_ms, r->sim_mean_ms);
	}
	ios_buf_printf(out, "\n%zu of %zu drives within %.0fx DiskSim's demerit.\n", rdo_passed(d),
		       d->n, IOS_REPRO_DRIVE_GOAL);
}

void ios_rmd_drives_json(struct ios_jw *w, const struct ios_repro_drives *d)
{
	ios_jw_open(w, "disksim_drives", '{');
	ios_jw_str(w, "dir", d->dir);
	ios_jw_dbl(w, "goal_ratio", IOS_REPRO_DRIVE_GOAL);
	ios_jw_open(w, "drives", '[');
	for (size_t i = 0; i < d->n; i++) {
		const struct ios_repro_drive_result *r = &d->r[i];

		ios_jw_open(w, NULL, '{');
		ios_jw_str(w, "drive", r->drive->name);
		ios_jw_dbl(w, "disksim_rms_demerit_ms", r->drive->disksim_ms);
		ios_jw_dbl(w, "rms_demerit_ms", r->rms_ms);
		ios_jw_dbl(w, "ratio", r->rms_ms / r->drive->disksim_ms);
		ios_jw_bool(w, "goal_met", ios_repro_drive_goal(r));
		ios_jw_str(w, "title", r->drive->title);
		ios_jw_u64(w, "requests", r->requests);
		ios_jw_dbl(w, "measured_mean_ms", r->meas_mean_ms);
		ios_jw_dbl(w, "simulated_mean_ms", r->sim_mean_ms);
		ios_jw_close(w, '}');
	}
	ios_jw_close(w, ']');
	ios_jw_close(w, '}');
}

size_t ios_rmd_drives_text(struct ios_buf *out, const struct ios_repro_drives *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct ios_repro_drive_result *r = &d->r[i];
		char crit[64];

		snprintf(crit, sizeof(crit), "rms demerit <= %.0fx DiskSim's %.3f ms",
			 IOS_REPRO_DRIVE_GOAL, r->drive->disksim_ms);
		ios_buf_printf(out, "%-3s %-28s %-52s %s %.3f ms (%.2fx)\n", "dsk", r->drive->name,
			       crit, ios_repro_drive_goal(r) ? "PASS" : "MISS", r->rms_ms,
			       r->rms_ms / r->drive->disksim_ms);
	}
	return rdo_passed(d);
}
