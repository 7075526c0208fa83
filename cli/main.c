/*
 * iosched: entry point and sub-command dispatch.
 */
#include <string.h>
#include "cli.h"

void cli_usage(FILE *f)
{
	fprintf(f,
"usage: iosched run JOB.fio... [options]   run fio job files on a simulated disk\n"
"       iosched compare JOB.fio... [--schedulers LIST] [--jobs N] [run options]\n"
"                                           the same jobs under several schedulers,\n"
"                                           one table (iosched compare --help)\n"
"       iosched replay TRACE [options]      replay a blktrace, blkparse output or fio\n"
"                                           iolog (run options, --trace, --plot;\n"
"                                           docs/blktrace.md)\n"
"       iosched repro [EXPERIMENT...]       the seed experiments under every scheduler:\n"
"                                           docs/REPRODUCTION.md (iosched repro --help)\n"
"       iosched list                        schedulers, devices and every tunable\n"
"       iosched --help | --version\n"
"\n"
"A job file '-' is read from stdin. An option's value is the next argument or follows\n"
"'='; a next argument starting with '--' is the next option (--output=--x means it).\n"
"\n"
"run options:\n"
"  --scheduler NAME         I/O scheduler (default %s; see 'iosched list')\n"
"  --device PROFILE         simulated device (default %s)\n"
"  --set NAME=VALUE         set a tunable; repeatable. Scheduler tunables are bare\n"
"                           (read_expire=250), queue ones queue.NAME, device ones\n"
"                           device.NAME, VM ones vm.NAME, lab-only knobs lab.NAME,\n"
"                           replay ones (iosched replay) replay.NAME\n"
"  --seed N                 random seed (default 1); same seed, same output\n"
"  --output-format FMT      normal (default) or json\n"
"  --output FILE            write the report to FILE instead of stdout\n"
"  --trace NAME             write a blktrace of the run to NAME.blktrace.0\n"
"                           (read it with blkparse -i NAME, btt; docs/blktrace.md)\n"
"  --fio-compat VERSION     3 (default) or 1: fio 1.x defaults (direct=1,\n"
"                           ioengine=sync, rate in KiB/s), as the 2006 seed job\n"
"                           was written against\n"
"  --plot FILE.svg          also draw bandwidth and cumulative data per job over\n"
"                           time (see docs/logs-and-plots.md)\n",
		IOS_DEFAULT_SCHEDULER, IOS_DEV_DEFAULT_PROFILE);
}

int cli_optval(int argc, char **argv, int *i, const char *name, const char **val)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n) || (a[n] != '=' && a[n] != '\0'))
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
	} else if (*i + 1 >= argc) {
		fprintf(stderr, "iosched: %s: missing its value (it is the last argument)\n", name);
		return -1;
	} else if (!strncmp(argv[*i + 1], "--", 2)) {
		/* "--output --seed 5": the user forgot the value, not named a file "--seed" */
		fprintf(stderr, "iosched: %s: missing its value ('%s' is the next option; write "
			"%s=%s if that is the value)\n", name, argv[*i + 1], name, argv[*i + 1]);
		return -1;
	} else {
		*val = argv[++*i];
	}
	if (!**val) {
		fprintf(stderr, "iosched: %s: empty value\n", name);
		return -1;
	}
	return 1;
}

void cli_error(const struct ios_err *e)
{
	fprintf(stderr, "iosched: %s\n", e->msg[0] ? e->msg : strerror(-e->code));
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		cli_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		cli_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("iosched %s\n", IOS_VERSION_STRING);
		return CLI_EXIT_OK;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(argv[1], "repro"))
		return cmd_repro(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	fprintf(stderr, "iosched: unknown command '%s'\n", argv[1]);
	cli_usage(stderr);
	return CLI_EXIT_USAGE;
}
