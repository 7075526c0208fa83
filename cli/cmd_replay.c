/*
 * iosched replay TRACE: replay a recorded trace under this run's scheduler
 * and device, and print the report (one job per process of the trace).
 * Takes the options of run (cli_run_opts), --trace and --plot; replay.*
 * tunables come in through --set.
 */
#include <inttypes.h>
#include <string.h>
#include "cli.h"
#include "iosched/blktrace.h"
#include "iosched/device.h"
#include "iosched/replay.h"

/*
 * What the trace tells of the disk it was recorded on, said once before
 * the replay when it differs from the simulated one. Only the device
 * number is known for sure: major 259 is BLOCK_EXT_MAJOR
 * (include/uapi/linux/major.h), the dynamic range block/genhd.c hands out,
 * where current kernels (6.1) number NVMe namespaces; other drivers with
 * dynamic minors land there too, hence "most likely". 7 is the loop
 * driver (LOOP_MAJOR). SCSI disks (8, 65-71, 128-135) are rotating disks
 * or SATA SSDs alike: they say nothing.
 * A trace that reaches past the simulated disk's end is refused by the
 * run itself (replay_task.c), with the capacity to give.
 */
void cli_replay_hints(const struct ios_replay *r, const struct ios_run_config *cfg)
{
	const struct ios_replay_info *in = ios_replay_info(r);
	const char *name = cfg->device ? cfg->device : IOS_DEV_DEFAULT_PROFILE;
	const struct ios_dev_profile *p = ios_dev_profile_find(name);
	unsigned maj = in->device >> 20, mn = in->device & 0xfffff;
	bool rotating = p && (!strcmp(p->type, "hdd") || !strncmp(p->type, "smr", 3) ||
			      !strcmp(p->type, "disksim"));

	if (!in->device)
		return;
	if (in->nr_devices > 1)
		fprintf(stderr, "iosched: note: %s holds the I/O of %u devices (the first %u,%u): "
			"all of it replays on the one simulated disk (%s)\n", ios_replay_name(r),
			in->nr_devices, maj, mn, name);
	if (maj == 259 && rotating)
		fprintf(stderr, "iosched: note: %s was recorded on device %u,%u, most likely an "
			"NVMe drive (major 259): its gaps between I/Os were that drive's, and %s "
			"is a rotating disk; --device ssd-nvme replays it on a simulated NVMe SSD\n",
			ios_replay_name(r), maj, mn, name);
	else if (maj == 7)
		fprintf(stderr, "iosched: note: %s was recorded on device %u,%u, a loop device: "
			"its I/O went on to a file on another disk, whose speed set the recorded "
			"timing; it replays on %s\n", ios_replay_name(r), maj, mn, name);
}

int cmd_replay(int argc, char **argv)
{
	struct cli_run_opts o;
	struct ios_replay *r = NULL;
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };
	struct ios_blktrace *bt = NULL;
	struct cli_progress prog;
	struct cli_paths paths = { 0 };
	int rc = CLI_EXIT_FAIL, ret;

	if (cli_run_opts_init(&o, argc))
		return CLI_EXIT_FAIL;
	if (cli_run_cmd_parse(&o, "replay", argc, argv, &rc))
		goto out;
	if (o.nr_jobs != 1) {
		fprintf(stderr, "iosched: replay: %s\n", o.nr_jobs ? "one trace at a time"
								 : "no trace given");
		cli_usage(stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* the replay task has no real host (the trace's sectors are another disk's) */
	if (o.real) {
		fprintf(stderr, "iosched: replay: --real: a trace replays on the simulated disk "
			"only; --real is for job files (iosched run --real)\n");
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (!strcmp(o.jobs[0], "-")) {
		fprintf(stderr, "iosched: replay: '-': a trace cannot come from stdin (replay reads "
			"it more than once); save it to a file first\n");
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* before anything is opened: --trace X must not truncate the trace X it replays */
	if (cli_paths_in_trace(&paths, "the trace", o.jobs[0]) ||
	    cli_paths_run(&paths, &o, NULL, o.trace, o.plot) || cli_paths_check(&paths)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (ios_replay_open(o.jobs[0], &r, &e)) {
		cli_error(&e);
		rc = e.code == -ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		goto out;
	}
	o.cfg.settings = &o.settings;
	cli_replay_hints(r, &o.cfg);
	if (cli_trace_open(o.trace, o.trace_mask, o.trace_limit, &o.cfg, &bt))
		goto out;
	cli_progress_init(&prog);
	if (prog.tty) {
		o.cfg.progress = cli_progress_run_cb;
		o.cfg.progress_arg = &prog;
	}
	ret = ios_replay_run(r, &o.cfg, &res, &e);
	cli_progress_clear(&prog);
	ret = cli_trace_close(bt, ret, &res, &e);
	if (ret) {
		cli_error(&e);
		rc = cli_err_status(&e);
		goto out;
	}
	/* what the replay could not honour or cut short: say so, then go on */
	for (size_t i = 0; i < res.nr_warnings; i++)
		fprintf(stderr, "iosched: warning: %s\n", res.warnings[i]);
	if (!cli_report_out(&res, o.fmt, o.outfile))
		rc = CLI_EXIT_OK;
	/* one row per traced process, as run draws one per job */
	if (rc == CLI_EXIT_OK && o.plot && cli_plot_run(o.plot, &o, &res))
		rc = CLI_EXIT_FAIL;
	ios_run_result_free(&res);
out:
	cli_paths_free(&paths);
	ios_replay_close(r);
	cli_run_opts_free(&o);
	return cli_trace_exit(rc);
}
