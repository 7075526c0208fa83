/*
 * iosched validate PATH.parv TRACE: replay a DiskSim validation trace
 * against a drive built from DiskSim's specification (the device
 * "disksim:PATH.parv"), or against a built-in profile with --device, and
 * print the measured and simulated access times and DiskSim's RMS demerit
 * (include/iosched/validate.h; docs/validate.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "iosched/validate.h"

struct vl_args {
	const char *pos[3];
	int nr_pos;
	const char *device;
	const char *fmt;
	const char *outfile;
	const char *plot;
};

static int vl_positional(void *arg, const char *a, struct ios_buf *msg)
{
	struct vl_args *va = arg;

	if (va->nr_pos == 2) {
		ios_buf_printf(msg, "validate: unexpected argument '%s' (PATH.parv and TRACE, or "
			       "--device PROFILE and TRACE)", a);
		return -1;
	}
	va->pos[va->nr_pos++] = a;
	return 0;
}

static const struct ios_cl_choice vl_formats[] = {
	{ "normal", 0, false }, { "json", 1, false }, { NULL, 0, false },
};

#define VA(f) offsetof(struct vl_args, f)

static const struct ios_cl_opt vl_opts[] = {
	{ .name = "--help", .alias = "-h", .kind = IOS_CL_HELP },
	{ .name = "--device", .kind = IOS_CL_STR, .off = VA(device), .metavar = "PROFILE",
	  .help = "replay against a built-in profile (iosched list) instead of\n"
		  "the drive of a PATH.parv; then TRACE is the only argument" },
	{ .name = "--output-format", .kind = IOS_CL_CHOICE, .off = VA(fmt), .choices = vl_formats,
	  .flags = IOS_CL_STORE_NAME, .metavar = "FMT",
	  .help = "normal (default) or json: {\"rms_demerit_ms\": X, ...}" },
	{ .name = "--output", .kind = IOS_CL_STR, .off = VA(outfile), .metavar = "FILE",
	  .help = "the report into FILE instead of stdout" },
	{ .name = "--plot", .kind = IOS_CL_STR, .off = VA(plot), .metavar = "FILE.svg",
	  .help = "draw both cumulative access-time curves (the ones the\n"
		  "demerit compares)" },
	{ .name = NULL },
};

static void vl_usage(FILE *f)
{
	struct ios_buf b;

	fputs(
"usage: iosched validate PATH.parv TRACE [options]\n"
"       iosched validate --device PROFILE TRACE [options]\n"
"\n"
"Replays a DiskSim 4.0 validation trace (one request at a time, each arriving the\n"
"trace's inter-arrival time after the previous one completes, no scheduler) against\n"
"the drive of DiskSim's PATH.parv (the device disksim:PATH.parv) or a built-in\n"
"profile, and prints the measured and simulated access times and the RMS demerit\n"
"as DiskSim's rms tool computes it, in ms (docs/validate.md).\n"
"\n", f);
	ios_buf_init(&b);
	ios_cl_usage(vl_opts, 0, 27, &b);
	if (b.s && !b.oom)
		fputs(b.s, f);
	ios_buf_free(&b);
}

static int vl_write_svg(const char *path, const struct ios_validate_result *r)
{
	struct ios_buf b;

	ios_buf_init(&b);
	return cli_write_svg(path, ios_validate_report_svg(r, &b), &b);
}

int cmd_validate(int argc, char **argv)
{
	struct vl_args va = { .fmt = "normal" };
	const struct ios_cl_group groups[] = { { vl_opts, &va, 0 } };
	const struct ios_cl_cmd cmd = { "validate", "iosched validate --help", groups, 1,
					vl_positional, &va, false };
	struct cli_paths paths = { 0 };
	struct ios_validate_result res = { 0 };
	struct ios_dstrace *t = NULL;
	struct ios_dev *dev = NULL;
	struct ios_err e = { 0 };
	const char *parv = NULL, *trace;
	char *devname = NULL;
	struct ios_buf b;
	int rc = CLI_EXIT_USAGE, pr, ret;

	pr = cli_parse(&cmd, argc, argv);
	if (pr == IOS_CL_HELP_SEEN) {
		vl_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (pr < 0)
		return CLI_EXIT_USAGE;
	if (va.device ? va.nr_pos != 1 : va.nr_pos != 2) {
		fprintf(stderr, "iosched: validate: %s\n", va.device && va.nr_pos == 2 ?
			"PATH.parv and --device both name the drive: give one" :
			"give PATH.parv and TRACE, or --device PROFILE and TRACE");
		vl_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!va.device)
		parv = va.pos[0];
	trace = va.pos[va.nr_pos - 1];
	if ((parv && cli_paths_in(&paths, "the drive's PATH.parv", parv)) ||
	    cli_paths_in(&paths, "the trace", trace) ||
	    cli_paths_out(&paths, "--output", va.outfile, 0) ||
	    cli_paths_out(&paths, "--plot", va.plot, 0) || cli_paths_check(&paths))
		goto out;
	if (ios_dstrace_read(trace, &t, &e)) {
		cli_error(&e);
		rc = e.code == -ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		goto out;
	}
	if (parv) {
		devname = malloc(strlen(parv) + sizeof("disksim:"));
		if (!devname) {
			rc = CLI_EXIT_FAIL;
			goto out;
		}
		strcpy(devname, "disksim:");
		strcat(devname, parv);
	}
	/* the device's own error as it is: the disksim: specs are ios_dev_create's */
	dev = ios_dev_create(devname ? devname : va.device, NULL, 1, &e);
	if (!dev) {
		cli_error(&e);
		goto out;
	}
	ret = ios_validate_run(t, dev, devname ? devname : va.device, &res, &e);
	if (ret) {
		cli_error(&e);
		rc = ret == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
		goto out;
	}
	rc = CLI_EXIT_FAIL;
	ios_buf_init(&b);
	ret = strcmp(va.fmt, "json") ? ios_validate_report_text(&res, &b)
				     : ios_validate_report_json(&res, &b);
	if (ret)
		fprintf(stderr, "iosched: validate: the report: %s\n", strerror(-ret));
	else if (!cli_write_output(va.outfile, &b) && (!va.plot || !vl_write_svg(va.plot, &res)))
		rc = CLI_EXIT_OK;
	ios_buf_free(&b);
out:
	ios_validate_result_free(&res);
	ios_dev_destroy(dev);
	ios_dstrace_free(t);
	free(devname);
	cli_paths_free(&paths);
	return rc;
}
