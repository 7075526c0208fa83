/*
 * iosched: entry point and sub-command dispatch.
 */
#include <string.h>
#include "cli.h"
#include "iosched/suggest.h"

/*
 * The commands' lines are typed here (their descriptions are aligned by
 * hand); the options' rows come from the run options' table.
 */
void cli_usage(FILE *f)
{
	struct ios_buf b;

	fputs(
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
"       iosched validate PATH.parv TRACE    a DiskSim validation trace replayed, the\n"
"                                           RMS demerit (--device PROFILE instead of\n"
"                                           PATH.parv; docs/validate.md)\n"
"       iosched sweep plan|run|status|merge  a parameter grid as independent runs\n"
"                                           (iosched sweep --help; docs/sweep.md)\n"
"       iosched fio ARGS...                 fio 3.33's command line (also as 'fio';\n"
"                                           docs/fio-cli.md)\n"
"       iosched --help | --version\n"
"\n"
"A job file '-' is read from stdin. An option's value is the next argument or follows\n"
"'='; a next argument starting with '--' is the next option (--output=--x means it).\n"
"\n"
"run options:\n", f);
	ios_buf_init(&b);
	ios_cl_usage(cli_run_opts_table, 0, 27, &b);
	if (b.s && !b.oom)
		fputs(b.s, f);
	ios_buf_free(&b);
}

int cli_err_status(const struct ios_err *e)
{
	return e->refused ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
}

void cli_error(const struct ios_err *e)
{
	fprintf(stderr, "iosched: %s\n", e->msg[0] ? e->msg : strerror(-e->code));
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },
	{ "compare", cmd_compare },
	{ "replay", cmd_replay },
	{ "repro", cmd_repro },
	{ "list", cmd_list },
	{ "validate", cmd_validate },
	{ "fio", cmd_fio },
	{ "sweep", cmd_sweep },
};

int main(int argc, char **argv)
{
	const char *base = argv[0] ? strrchr(argv[0], '/') : NULL;

	/* called "fio" (a symlink on PATH): fio's command line, for scripts written for fio */
	base = base ? base + 1 : argv[0];
	if (base && !strcmp(base, "fio"))
		return cmd_fio(argc, argv);
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
	for (size_t i = 0; i < IOS_ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	{
		struct ios_suggest s;
		char hint[256];

		ios_suggest_init(&s, argv[1]);
		for (size_t i = 0; i < IOS_ARRAY_SIZE(commands); i++)
			ios_suggest_add(&s, NULL, commands[i].name);
		fprintf(stderr, "iosched: unknown command '%s'%s\n", argv[1],
			ios_suggest_str(&s, hint, sizeof(hint)));
	}
	cli_usage(stderr);
	return CLI_EXIT_USAGE;
}
