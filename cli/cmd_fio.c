/*
 * iosched fio ARGS...: fio 3.33's command line, read as fio reads it; also
 * what runs when the binary is called "fio" (a symlink on PATH), so that
 * fio one-liners and wrapper scripts run unchanged on the simulated disk.
 *
 * Arguments are taken left to right. fio's own options (--output-format,
 * --section, --showcmd, ...) and the lab's (--scheduler, --device, --set,
 * --seed) come from option tables read by the command-line engine; any
 * other "--key[=value]" is a job option and goes, with its position, to
 * the job parser's command-line entry (src/job/args.c), which builds jobs
 * as fio's parse_cmd_line() does: --name starts a job, options before the
 * first --name are global. Arguments that are not options are job files,
 * parsed after the command-line jobs as fio parses them. As fio reads its
 * options with getopt_long_only(), "-name=x" is "--name=x".
 *
 * Errors exit 1, as fio's do (the other commands' usage errors exit 2).
 * Options fio has and iosched does not model are refused by name, never
 * called unknown; docs/fio-cli.md lists what is accepted and refused.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "iosched/suggest.h"

#define FIO_VERSION "fio-3.33"

#define FIO_MAX_NOTES 8

struct fio_cli {
	struct cli_run_opts o;		/* lab options, --output, the job files */
	struct ios_job_arg *args;	/* job options, in order */
	size_t nr_args;
	const char **sections;		/* --section names, NULL-terminated */
	size_t nr_sections;
	unsigned formats;		/* IOS_OUT_*; 0: normal */
	uint64_t terse_version;		/* 2..5; 0: fio's default, 3 */
	bool parse_only, showcmd, version, readonly, warnings_fatal;
	const char *status_interval;
	const char *eta_newline, *eta_interval, *max_jobs;
	const char *idle_prof, *aux_path;
	uint64_t status_ns;		/* --status-interval in simulated ns; 0: none */
	int eta;
	/*
	 * The command line's notes (options fio accepts that do nothing in a
	 * simulation): into the report with the run's, not onto stderr
	 * (fio_flush_notes when no report is made).
	 */
	char notes[FIO_MAX_NOTES][256];
	unsigned nr_notes;
};

/*
 * What --status-interval's reports need: the formats and where they go.
 * Each report goes out as it is made, as fio prints it, into the output
 * opened at the first one: held until the end, a 1 ms interval over 120 s
 * of simulated time kept 0.8 GB of JSON in memory. The bytes are the same.
 */
struct fio_status {
	const struct ios_report_opts *ro;
	struct ios_buf *out;		/* its sink is fio_status_sink */
	unsigned nr;			/* reports written so far */
	const char *outfile;		/* --output; NULL: stdout */
	FILE *f;			/* NULL until the first bytes go out */
};

static int fio_status_sink(void *arg, const char *s, size_t len)
{
	struct fio_status *st = arg;

	if (!st->f && !(st->f = st->outfile ? fopen(st->outfile, "w") : stdout))
		return errno ? -errno : -EIO;
	return fwrite(s, 1, len, st->f) == len ? 0 : errno ? -errno : -EIO;
}

/* One report while the jobs run (the first with fio's pre-run lines). */
static int fio_status_cb(void *arg, const struct ios_run_result *snap)
{
	struct fio_status *st = arg;
	struct ios_report_opts ro = *st->ro;
	int ret;

	ro.preamble = st->ro->preamble && !st->nr++;
	ret = ios_report(snap, &ro, st->out);
	if (!ret)
		ret = ios_buf_drain(st->out);
	/* flushed: someone watching the output sees each report whole */
	if (!ret && st->f && fflush(st->f))
		ret = errno ? -errno : -EIO;
	return ret;
}

/* The last of the streamed output: 0, or -1 with the error said. */
static int fio_status_close(struct fio_status *st, bool report_ok)
{
	int err = report_ok ? ios_buf_drain(st->out) : 0;

	if (st->f && (st->outfile ? fclose(st->f) : fflush(st->f)) && !err)
		err = errno ? -errno : -EIO;
	st->f = NULL;
	if (!err)
		return 0;
	if (st->outfile)
		fprintf(stderr, "iosched: --output=%s: %s\n", st->outfile, strerror(-err));
	else
		fprintf(stderr, "iosched: writing the report: %s\n", strerror(-err));
	return -1;
}

/* --output-format=LIST, as fio reads it: the last one given wins */
static int fio_set_format(void *base, const struct ios_cl_opt *opt, const char *v,
			  struct ios_buf *msg)
{
	struct fio_cli *f = base;

	(void)opt;
	if (ios_report_parse_formats(v, &f->formats)) {
		ios_buf_printf(msg, "--output-format=%s: invalid output format (fio has normal, "
			       "json, json+ and terse, comma-separated)", v);
		return -1;
	}
	return 0;
}

/* --minimal is fio's shorthand for --output-format=terse (in argument order) */
static int fio_set_minimal(void *base, const struct ios_cl_opt *opt, const char *v,
			   struct ios_buf *msg)
{
	(void)opt;
	(void)v;
	(void)msg;
	((struct fio_cli *)base)->formats = IOS_OUT_TERSE;
	return 0;
}

static int fio_add_section(void *base, const struct ios_cl_opt *opt, const char *v,
			   struct ios_buf *msg)
{
	struct fio_cli *f = base;

	(void)opt;
	/* fio refuses it too: [global] sections are always read */
	if (!strcmp(v, "global")) {
		ios_buf_puts(msg, "--section=global: can't use global as only section (as fio "
			     "says; [global] sections always apply)");
		return -1;
	}
	f->sections[f->nr_sections++] = v;
	return 0;
}

static const struct ios_cl_choice fio_eta[] = {
	{ "never", 0, false }, { "always", 1, false }, { "auto", 2, false }, { NULL, 0, false },
};

#define FO(x) offsetof(struct fio_cli, x)

static const struct ios_cl_opt fio_table[] = {
	{ .name = "--help", .alias = "-h", .kind = IOS_CL_HELP },
	{ .name = "--version", .alias = "-v", .kind = IOS_CL_FLAG, .off = FO(version) },
	{ .name = "--output-format", .kind = IOS_CL_CALL, .fn = fio_set_format },
	{ .name = "--section", .kind = IOS_CL_CALL, .fn = fio_add_section },
	{ .name = "--parse-only", .kind = IOS_CL_FLAG, .off = FO(parse_only) },
	{ .name = "--showcmd", .kind = IOS_CL_FLAG, .off = FO(showcmd) },
	{ .name = "--readonly", .kind = IOS_CL_FLAG, .off = FO(readonly) },
	{ .name = "--warnings-fatal", .kind = IOS_CL_FLAG, .off = FO(warnings_fatal) },
	{ .name = "--minimal", .kind = IOS_CL_CALL, .fn = fio_set_minimal, .flags = IOS_CL_NO_VALUE },
	{ .name = "--terse-version", .kind = IOS_CL_U64, .off = FO(terse_version), .min = 2, .max = 5 },
	{ .name = "--status-interval", .kind = IOS_CL_STR, .off = FO(status_interval) },
	{ .name = "--eta", .kind = IOS_CL_CHOICE, .off = FO(eta), .choices = fio_eta },
	{ .name = "--eta-newline", .kind = IOS_CL_STR, .off = FO(eta_newline) },
	{ .name = "--eta-interval", .kind = IOS_CL_STR, .off = FO(eta_interval) },
	{ .name = "--max-jobs", .kind = IOS_CL_STR, .off = FO(max_jobs) },
	{ .name = "--idle-prof", .kind = IOS_CL_STR, .off = FO(idle_prof) },
	{ .name = "--aux-path", .kind = IOS_CL_STR, .off = FO(aux_path) },
	{ .name = NULL },
};

/* fio 3.33's own options (its --help) that iosched does not model */
static const char *const fio_unmodelled[] = {
	"debug", "merge-blktrace-only", "bandwidth-log", "cpuclock-test", "crctest",
	"alloc-size", "server",
	"daemonize", "client", "remote-config", "inflate-log", "trigger-file",
	"trigger-timeout", "trigger", "trigger-remote",
	NULL,
};

static void fio_usage(FILE *out)
{
	fputs(FIO_VERSION " (iosched " IOS_VERSION_STRING ": fio's command line on a simulated disk)\n"
"fio [options] [job options] <job file(s)>\n"
"  --output=FILE            write the report to FILE\n"
"  --output-format=LIST     normal (default), json, or both: normal,json\n"
"  --section=NAME           run only the job sections named (repeatable)\n"
"  --parse-only             parse the jobs, run nothing\n"
"  --showcmd                print each job file as a fio command line\n"
"  --readonly               refuse jobs that write or trim; read_iolog skips its\n"
"                           writes; --real creates and grows no file\n"
"  --warnings-fatal         fio's parser warnings refuse the run\n"
"  --cmdhelp[=OPTION]       the job options (all, or one)\n"
"  --enghelp                the modelled I/O engines\n"
"  --status-interval=TIME   the report every TIME of simulated time, then at the end\n"
"  --eta=never|always|auto  accepted (a simulation has no ETA)\n"
"  --eta-newline=T, --eta-interval=T, --max-jobs=N   checked, accepted with a note\n"
"  --idle-prof=system|percpu, --aux-path=DIR   accepted with a note (host-side)\n"
"  --version                fio's version, and iosched's\n"
"job options: --name=NAME starts a job; options before the first --name are\n"
"global. A job file '-' is read from stdin. The lab's options work beside\n"
"these: see 'iosched --help'. Refused options: docs/fio-cli.md.\n", out);
	fprintf(out, "\nlab options:\n");
	{
		struct ios_buf b;

		ios_buf_init(&b);
		ios_cl_usage(cli_run_opts_table, 0, 27, &b);
		if (b.s && !b.oom)
			fputs(b.s, out);
		ios_buf_free(&b);
	}
}

/* A job option's row: by its name or one of its comma-separated aliases. */
static const struct ios_job_option_info *fio_job_opt(const char *key, size_t n)
{
	const struct ios_job_option_info *in;

	for (size_t i = 0; (in = ios_job_option_at(i)); i++) {
		const char *a = in->alias;

		if (strlen(in->name) == n && !strncmp(in->name, key, n))
			return in;
		while (a && *a) {
			size_t an = strcspn(a, ",");

			if (an == n && !strncmp(a, key, n))
				return in;
			a += an + (a[an] == ',');
		}
	}
	return NULL;
}

/* --cmdhelp[=NAME]: every job option's name and help, or one option's details */
static int fio_cmdhelp(const char *name)
{
	const struct ios_job_option_info *in;

	if (!name || !strcmp(name, "all")) {
		for (size_t i = 0; (in = ios_job_option_at(i)); i++)
			printf("%20s: %s\n", in->name, in->help ? in->help : "");
		return CLI_EXIT_OK;
	}
	in = fio_job_opt(name, strlen(name));
	if (!in) {
		if (ios_job_option_known(name) == 2)
			fprintf(stderr, "iosched: --cmdhelp=%s: a fio option that iosched does not "
				"model\n", name);
		else
			fprintf(stderr, "iosched: --cmdhelp=%s: no such option\n", name);
		return CLI_EXIT_FAIL;
	}
	printf("%20s: %s\n", in->name, in->help ? in->help : "");
	if (in->alias)
		printf("%20s: %s\n", "alias", in->alias);
	printf("%20s: %s\n", "type", in->type ? in->type : "");
	printf("%20s: %s\n", "default", in->def ? in->def : "no default");
	return CLI_EXIT_OK;
}

/* --enghelp[=ENGINE]: the engines the simulator models */
static int fio_enghelp(const char *name)
{
	for (int e = IOS_ENGINE_SYNC; e <= IOS_ENGINE_NULL; e++) {
		const char *en = ios_ioengine_name((enum ios_ioengine)e);

		if (name && !strcmp(name, en)) {
			printf("%s: modelled; iosched has no engine-specific options for it\n", en);
			return CLI_EXIT_OK;
		}
	}
	if (name) {
		fprintf(stderr, "iosched: --enghelp=%s: not an I/O engine iosched models "
			"(see --enghelp)\n", name);
		return CLI_EXIT_FAIL;
	}
	printf("Available IO engines:\n");
	for (int e = IOS_ENGINE_SYNC; e <= IOS_ENGINE_NULL; e++)
		printf("\t%s\n", ios_ioengine_name((enum ios_ioengine)e));
	return CLI_EXIT_OK;
}

static bool fio_section_wanted(const struct fio_cli *f, const char *name)
{
	if (!f->nr_sections)
		return true;
	for (size_t i = 0; i < f->nr_sections; i++)
		if (!strcmp(f->sections[i], name))
			return true;
	return false;
}

static void fio_note(struct fio_cli *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* @name among the @nr names of @v, or added (at most @max). */
static void fio_name_add(const char **v, size_t *nr, size_t max, const char *name)
{
	for (size_t i = 0; i < *nr; i++)
		if (!strcmp(v[i], name))
			return;
	if (*nr < max)
		v[(*nr)++] = name;
}

/*
 * Every job option name fio 3.33 or iosched knows (fio's own, its engines',
 * iosched's with their aliases), each once, in @v (at most @max).
 */
static size_t fio_job_names(const char **v, size_t max)
{
	const struct ios_job_option_info *in;
	const struct ios_fio_option *fo;
	size_t nr = 0;

	for (size_t i = 0; (in = ios_job_option_at(i)); i++)
		fio_name_add(v, &nr, max, in->name);
	/* (the general rows share a static buffer: the names they point to are static) */
	for (size_t i = 0; (fo = ios_job_fio_option_at(i)); i++)
		fio_name_add(v, &nr, max, fo->name);
	return nr;
}

#define FIO_MAX_NAMES 1024

/*
 * --@key (length @n) names no option: fio reads its command line with
 * getopt_long_only(), which takes an unambiguous prefix of a long option
 * for the option (fio 3.33 runs --ioengin=libaio as --ioengine) and calls
 * a prefix of several "ambiguous". The full name (static), or NULL with
 * the error said: ambiguous, or unrecognized with the nearest names.
 */
static const char *fio_job_prefix(const char *arg, const char *key, size_t n)
{
	static const char *names[FIO_MAX_NAMES];
	size_t nr = fio_job_names(names, FIO_MAX_NAMES), nm = 0;
	const char *match[FIO_MAX_NAMES];
	struct ios_suggest sg;
	char typed[IOS_SUGGEST_NAME], sug[256];

	for (size_t i = 0; i < nr; i++)
		if (strlen(names[i]) > n && !strncmp(names[i], key, n))
			match[nm++] = names[i];
	if (nm == 1)
		return match[0];
	snprintf(typed, sizeof(typed), "--%.*s", (int)n, key);
	ios_suggest_init(&sg, typed);
	for (size_t i = 0; i < nr; i++)
		ios_suggest_add(&sg, "--", names[i]);
	ios_suggest_str(&sg, sug, sizeof(sug));
	if (nm > 1) {
		fprintf(stderr, "iosched: option '%s' is ambiguous; possibilities:", arg);
		for (size_t i = 0; i < nm; i++)
			fprintf(stderr, " '--%s'", match[i]);
		fprintf(stderr, "%s\n", sug);
	} else {
		fprintf(stderr, "iosched: unrecognized option '%s'%s\n", arg, sug);
	}
	return NULL;
}

/*
 * argv[*i], "--key[=value]", is no option of the tables: a job option
 * (0), or an error said on stderr (-1). A job option with a value and no
 * '=' takes the next argument, as fio's getopt does, unless that is an
 * option (then the parser says the value is missing).
 */
static int fio_job_arg(struct fio_cli *f, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *key = a + 2, *eq = strchr(key, '=');
	size_t n = eq ? (size_t)(eq - key) : strlen(key);
	const struct ios_job_option_info *in;
	struct ios_job_arg *ja = &f->args[f->nr_args];
	char *k = strndup(key, n);
	int known = k ? ios_job_option_known(k) : -1;

	free(k);
	/* fio 3.33 knows it only to refuse it (init.c, case 'l'), exit 1 */
	if (n == strlen("latency-log") && !strncmp(key, "latency-log", n)) {
		fprintf(stderr, "iosched: --latency-log is deprecated. Use per-job latency log "
			"options (write_lat_log=), as fio 3.33 says\n");
		return -1;
	}
	for (size_t u = 0; fio_unmodelled[u]; u++) {
		if (strlen(fio_unmodelled[u]) == n && !strncmp(fio_unmodelled[u], key, n)) {
			fprintf(stderr, "iosched: --%.*s: a fio option that iosched does not model "
				"(docs/fio-cli.md)\n", (int)n, key);
			return -1;
		}
	}
	if (known < 0) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	if (!known) {
		const char *full = fio_job_prefix(a, key, n);

		if (!full)
			return -1;
		fio_note(f, "--%.*s: taken as --%s (an unambiguous prefix, as fio's "
			 "getopt_long_only() reads it)", (int)n, key, full);
		key = full;
		n = strlen(full);
	}
	in = fio_job_opt(key, n);
	ja->value = eq ? eq + 1 : NULL;
	ja->pos = *i;
	if (!eq && in && strcmp(in->type, "flag") && *i + 1 < argc && argv[*i + 1][0] != '-')
		ja->value = argv[++*i];
	ja->key = strndup(key, n);
	if (!ja->key) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	/* fio: a --name not among the --section names given so far starts no job */
	if (!strcmp(ja->key, "name") && ja->value && !fio_section_wanted(f, ja->value))
		ja->value = "global";
	f->nr_args++;
	return 0;
}

/* --cmdhelp and --enghelp take an optional value (only after '='): 1 when @a is one */
static int fio_help_opt(const char *a, int *rc)
{
	static const char *const names[] = { "--cmdhelp", "--enghelp" };

	for (int k = 0; k < 2; k++) {
		size_t n = strlen(names[k]);

		if (strncmp(a, names[k], n) || (a[n] && a[n] != '='))
			continue;
		a = a[n] == '=' && a[n + 1] ? a + n + 1 : NULL;
		*rc = k ? fio_enghelp(a) : fio_cmdhelp(a);
		return 1;
	}
	return 0;
}

/*
 * The arguments, left to right (as fio, --version and the help options
 * act when met). CLI_EXIT_OK + 10: go on and run; anything else: exit.
 */
#define FIO_GO 10
static int fio_parse(struct fio_cli *f, int argc, char **argv)
{
	const struct ios_cl_group groups[] = {
		{ fio_table, f, 0 }, { cli_run_opts_table, &f->o, 0 },
	};
	struct ios_buf msg;
	int rc = FIO_GO;
	bool files_only = false;

	ios_buf_init(&msg);
	for (int i = 1; i < argc && rc == FIO_GO; i++) {
		const char *a = argv[i];
		int r;

		if (files_only || a[0] != '-' || !strcmp(a, "-")) {
			if (cli_run_opts_add_job(&f->o, a, &msg))
				rc = CLI_EXIT_FAIL;
			continue;
		}
		if (!strcmp(a, "--")) {
			files_only = true;
			continue;
		}
		if (fio_help_opt(a, &rc))
			continue;
		r = ios_cl_parse_one("fio", groups, IOS_ARRAY_SIZE(groups), argc, argv, &i, &msg);
		if (r == IOS_CL_ONE_HELP) {
			fio_usage(stdout);
			rc = CLI_EXIT_OK;
		} else if (r < 0) {
			rc = CLI_EXIT_FAIL;
		} else if (r && f->version) {
			printf(FIO_VERSION " (iosched %s)\n", IOS_VERSION_STRING);
			rc = CLI_EXIT_OK;
		} else if (!r && fio_job_arg(f, argc, argv, &i)) {
			ios_buf_free(&msg);
			return CLI_EXIT_FAIL;
		}
	}
	if (msg.len)
		cli_msg(&msg);
	ios_buf_free(&msg);
	return rc;
}

/*
 * A time argument as fio's check_str_time reads it: a bare number is
 * seconds, or with a unit (us, ms, s, m, h, d). 0, or -1 with a message
 * naming --@opt.
 */
static int fio_time_ns(const char *opt, const char *v, uint64_t *ns)
{
	static const struct { const char *u; uint64_t ns; } units[] = {
		{ "us", 1000ULL }, { "usec", 1000ULL }, { "ms", 1000000ULL }, { "msec", 1000000ULL },
		{ "s", 1000000000ULL }, { "sec", 1000000000ULL }, { "m", 60000000000ULL },
		{ "min", 60000000000ULL }, { "h", 3600000000000ULL }, { "d", 86400000000000ULL },
		{ "", 1000000000ULL },
	};
	const char *p = v;
	uint64_t n = 0;
	size_t k;

	while (*p >= '0' && *p <= '9') {
		if (n > UINT64_MAX / 10 - 9)
			goto bad;
		n = n * 10 + (uint64_t)(*p++ - '0');
	}
	if (p == v)
		goto bad;
	for (k = 0; k < IOS_ARRAY_SIZE(units); k++)
		if (!strcasecmp(p, units[k].u))
			break;
	if (k == IOS_ARRAY_SIZE(units) || n > UINT64_MAX / 2 / units[k].ns)
		goto bad;
	*ns = n * units[k].ns;
	return 0;
bad:
	fprintf(stderr, "iosched: --%s=%s: failed parsing time (a number of seconds, or with us, "
		"ms, s, m, h or d)\n", opt, v);
	return -1;
}

/*
 * --status-interval=TIME: at least 1 ms (fio: "status interval too small"),
 * and whole milliseconds, which fio keeps.
 */
static int fio_status_interval(struct fio_cli *f)
{
	const char *v = f->status_interval;

	if (fio_time_ns("status-interval", v, &f->status_ns))
		return -1;
	if (f->status_ns < 1000000ULL || f->status_ns % 1000000ULL) {
		fprintf(stderr, "iosched: --status-interval=%s: %s (fio keeps whole milliseconds, at "
			"least 1)\n", v, f->status_ns < 1000000ULL ? "status interval too small"
							    : "not a whole number of milliseconds");
		return -1;
	}
	return 0;
}

/* A note of the command line's, for the report (fio prints nothing for it). */
static void fio_note(struct fio_cli *f, const char *fmt, ...)
{
	va_list ap;

	if (f->nr_notes == FIO_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(f->notes[f->nr_notes++], sizeof(f->notes[0]), fmt, ap);
	va_end(ap);
}

/* No report is made (--parse-only, a refused run): the notes go to stderr after all. */
static void fio_flush_notes(struct fio_cli *f)
{
	for (unsigned i = 0; i < f->nr_notes; i++)
		fprintf(stderr, "iosched: note: %s\n", f->notes[i]);
	f->nr_notes = 0;
}

/*
 * --eta-newline or --eta-interval (@opt) = @v, checked as fio checks it: a
 * time of at least @min_ns, else fio's @too_short. Then noted: it paces
 * fio's wall-clock ETA line, and a simulation prints none.
 */
static int fio_eta_time(struct fio_cli *f, const char *opt, const char *v, uint64_t min_ns,
			const char *too_short)
{
	uint64_t ns;

	if (!v)
		return 0;
	if (fio_time_ns(opt, v, &ns))
		return -1;
	if (ns < min_ns) {
		fprintf(stderr, "iosched: --%s=%s: %s\n", opt, v, too_short);
		return -1;
	}
	fio_note(f, "--%s: a simulation prints no ETA line", opt);
	return 0;
}

/* Options taken but not (yet) honoured: refused by name, after the parse */
static int fio_refuse(struct fio_cli *f)
{
	if (f->status_interval && fio_status_interval(f))
		return -1;
	if (fio_eta_time(f, "eta-newline", f->eta_newline, 1000000ULL,
			 "eta new line time too short (at least 1 ms, as fio keeps it)") ||
	    fio_eta_time(f, "eta-interval", f->eta_interval, 250000000ULL,
			 "eta interval time too short (250msec min, as fio says)"))
		return -1;
	/* fio 3.33 reads --max-jobs and drops it ("we don't track/need this anymore") */
	if (f->max_jobs)
		fio_note(f, "--max-jobs=%s: fio 3.33 ignores it, and so does iosched; more than "
			 "4096 processes need max_jobs=N in a job (docs/jobfiles.md)", f->max_jobs);
	if (f->eta == 1)
		fio_note(f, "--eta=always: a simulation has no ETA; the progress line is drawn "
			 "when stderr is a terminal");
	/*
	 * fio 3.33's fio_idle_prof_parse_opt (idletime.c): system or percpu
	 * measure the host CPU's idleness beside the jobs; calibrate measures
	 * the host's unit of work and runs no job at all.
	 */
	if (f->idle_prof) {
		if (!strcmp(f->idle_prof, "calibrate")) {
			fprintf(stderr, "iosched: --idle-prof=calibrate: measures the host CPU's unit "
				"of work and runs no job: nothing to simulate\n");
			return -1;
		}
		if (strcmp(f->idle_prof, "system") && strcmp(f->idle_prof, "percpu")) {
			fprintf(stderr, "iosched: --idle-prof=%s: incorrect idle-prof option (fio "
				"has system, percpu and calibrate)\n", f->idle_prof);
			return -1;
		}
		fio_note(f, "--idle-prof=%s: the host CPU's idleness; a simulation loads no CPU, "
			 "so no \"CPU idleness\" section is printed", f->idle_prof);
	}
	/*
	 * fio 3.33 writes its state files (a verify job's verify.state) under
	 * --aux-path; iosched writes none, so the directory is not used.
	 */
	if (f->aux_path)
		fio_note(f, "--aux-path=%s: where fio writes its state files (verify state); "
			 "iosched writes none", f->aux_path);
	return 0;
}

/* The command-line jobs with the first job file, then the other job files. */
static int fio_load(struct fio_cli *f, struct ios_jobfile *jf, struct ios_buf *showcmd)
{
	struct cli_run_opts *o = &f->o;
	struct ios_err e = { 0 };

	if (f->nr_sections)
		o->po.sections = f->sections;
	if (f->showcmd)
		o->po.showcmd = showcmd;
	if (ios_job_parse_args(f->args, f->nr_args, o->nr_jobs ? o->jobs[0] : NULL, &o->po, jf,
			       &e)) {
		cli_error(&e);
		return -1;
	}
	for (int i = 1; i < o->nr_jobs; i++) {
		if (ios_job_parse_file(o->jobs[i], &o->po, jf, &e)) {
			cli_error(&e);
			return -1;
		}
	}
	o->cfg.settings = &o->settings;
	cli_run_opts_host(o);
	/* fio refuses a writing job while parsing it (rw_verify): --parse-only too */
	o->cfg.read_only = f->readonly;
	o->cfg.warnings_fatal = f->warnings_fatal;
	if (f->readonly && ios_jobfile_check_read_only(jf, &e)) {
		cli_error(&e);
		return -1;
	}
	return 0;
}

/*
 * The report's notes: the command line's, then the run's own (those fio
 * would not print); the run's others go to stderr now, as fio prints them.
 * *notes points into @f and @res.
 */
static int fio_report_notes(struct fio_cli *f, const struct ios_run_result *res,
			    const char ***notes, size_t *nr)
{
	const char **v = calloc(f->nr_notes + res->nr_warnings + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (unsigned i = 0; i < f->nr_notes; i++)
		v[n++] = f->notes[i];
	for (size_t i = 0; i < res->nr_warnings; i++) {
		if (res->warning_by_fio && res->warning_by_fio[i])
			fprintf(stderr, "iosched: warning: %s\n", res->warnings[i]);
		else
			v[n++] = res->warnings[i];
	}
	*notes = v;
	*nr = n;
	return 0;
}

/* Run @jf and write its report, as iosched run does; the exit status. */
static int fio_run(struct fio_cli *f, const struct ios_jobfile *jf)
{
	struct cli_run_opts *o = &f->o;
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };
	struct ios_blktrace *bt = NULL;
	struct cli_paths paths = { 0 };
	struct cli_progress prog;
	struct ios_report_opts ro = { 0 };
	struct ios_buf out;
	struct fio_status st = { &ro, &out, 0, f->o.outfile, NULL };
	const char **notes = NULL;
	size_t nr_notes = 0;
	int rc = CLI_EXIT_FAIL, ret;

	if (o->plot)
		o->cfg.record_series = o->cfg.record_timeline = true;
	if (cli_paths_run(&paths, o, jf, o->trace, o->plot) || cli_paths_check(&paths) ||
	    cli_trace_open(o->trace, o->trace_mask, o->trace_limit, &o->cfg, &bt)) {
		cli_paths_free(&paths);
		return CLI_EXIT_FAIL;
	}
	cli_progress_init(&prog);
	if (prog.tty) {
		o->cfg.progress = cli_progress_run_cb;
		o->cfg.progress_arg = &prog;
	}
	/* fio's order: the pre-run lines, terse, JSON, normal (ios_report) */
	ios_buf_init(&out);
	ro.formats = f->formats ? f->formats : IOS_OUT_NORMAL;
	ro.terse_version = (unsigned)f->terse_version;
	ro.preamble = true;
	if (f->status_ns) {
		o->cfg.status = fio_status_cb;
		o->cfg.status_arg = &st;
		o->cfg.status_every_ns = f->status_ns;
		ios_buf_set_sink(&out, fio_status_sink, &st);
	}
	cli_real_signals(o);
	ret = ios_run(jf, &o->cfg, &res, &e);
	cli_progress_clear(&prog);
	ret = cli_trace_close(bt, ret, &res, &e);
	cli_paths_free(&paths);
	if (ret) {
		/* the reports streamed so far stay, as fio's do */
		(void)fio_status_close(&st, false);
		ios_buf_free(&out);
		fio_flush_notes(f);
		cli_error(&e);
		return cli_real_exit(CLI_EXIT_FAIL);
	}
	/*
	 * stderr as fio leaves it: only what fio prints there too (its parser
	 * warnings, I/O errors, verify failures); the lab's notes go into the
	 * report, where a wrapper that fails on any stderr does not trip on
	 * them. With terse alone there is no place for them: stderr keeps them.
	 */
	if (fio_report_notes(f, &res, &notes, &nr_notes)) {
		fprintf(stderr, "iosched: out of memory\n");
		goto out;
	}
	if (!(ro.formats & (IOS_OUT_NORMAL | IOS_OUT_JSON | IOS_OUT_JSON_PLUS))) {
		for (size_t i = 0; i < nr_notes; i++)
			fprintf(stderr, "iosched: note: %s\n", notes[i]);
	} else {
		ro.notes = notes;
		ro.nr_notes = nr_notes;
	}
	ro.preamble = !st.nr;
	ret = ios_report(&res, &ro, &out);
	if (!ret)
		cli_sim_line(&res, ro.formats, &out);	/* the report's last line */
	if (ret || out.oom) {
		fprintf(stderr, "iosched: out of memory writing the report\n");
		(void)fio_status_close(&st, false);
	} else if (f->status_ns ? !fio_status_close(&st, true)
				: !cli_write_output(o->outfile, &out)) {
		rc = CLI_EXIT_OK;
	}
	/* fio's exit status counts the jobs that ended with an error */
	for (size_t i = 0; i < res.nr_jobs && rc == CLI_EXIT_OK; i++)
		if (res.jobs[i].error)
			rc = CLI_EXIT_FAIL;
	if (rc == CLI_EXIT_OK && o->plot && cli_plot_run(o->plot, o, &res))
		rc = CLI_EXIT_FAIL;
out:
	ios_buf_free(&out);
	free(notes);
	ios_run_result_free(&res);
	return cli_real_exit(cli_trace_exit(rc));
}

/*
 * getopt_long_only(): "-name=x" is "--name=x"; "-v", "-h" and "-" stay.
 * After "--" getopt reads no option, so nothing there is rewritten: a job
 * file named "-weird.fio" stays that name.
 */
static char **fio_argv(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 1, sizeof(*v));
	bool files_only = false;

	for (int i = 0; v && i < argc; i++) {
		const char *a = argv[i];

		if (i && !files_only && a[0] == '-' && a[1] && a[1] != '-' && a[2]) {
			v[i] = malloc(strlen(a) + 2);
			if (v[i]) {
				v[i][0] = '-';
				strcpy(v[i] + 1, a);
			}
		} else {
			v[i] = strdup(a);
			if (i && !strcmp(a, "--"))
				files_only = true;
		}
		if (!v[i]) {
			for (int k = 0; k < i; k++)
				free(v[k]);
			free(v);
			return NULL;
		}
	}
	return v;
}

static void fio_free(struct fio_cli *f, char **v, int argc)
{
	for (size_t i = 0; i < f->nr_args; i++)
		free((char *)f->args[i].key);
	free(f->args);
	free(f->sections);
	cli_run_opts_free(&f->o);
	for (int i = 0; v && i < argc; i++)
		free(v[i]);
	free(v);
}

int cmd_fio(int argc, char **argv)
{
	struct fio_cli f = { 0 };
	struct ios_jobfile jf = { 0 };
	struct ios_buf showcmd;
	char **v = NULL;
	int rc = CLI_EXIT_FAIL;

	ios_buf_init(&showcmd);
	if (cli_run_opts_init(&f.o, argc))
		return CLI_EXIT_FAIL;
	f.args = calloc((size_t)argc + 1, sizeof(*f.args));
	f.sections = calloc((size_t)argc + 1, sizeof(*f.sections));
	v = fio_argv(argc, argv);
	if (!f.args || !f.sections || !v) {
		fprintf(stderr, "iosched: out of memory\n");
		goto out;
	}
	rc = fio_parse(&f, argc, v);
	if (rc != FIO_GO)
		goto out;
	rc = CLI_EXIT_FAIL;
	if (fio_refuse(&f))
		goto out;
	if (!f.nr_args && !f.o.nr_jobs && !f.parse_only && !f.showcmd) {
		fprintf(stderr, "iosched: fio: no job given (a job file, or --name=NAME and its "
			"options)\n");
		fio_usage(stderr);
		goto out;
	}
	if (fio_load(&f, &jf, &showcmd))
		goto out;
	/* as fio: --showcmd and --parse-only stop after the parse, jobs or none */
	if (f.showcmd) {
		fputs(showcmd.s ? showcmd.s : "", stdout);
		rc = CLI_EXIT_OK;
	} else if (f.parse_only) {
		fio_flush_notes(&f);
		rc = CLI_EXIT_OK;
	} else if (!jf.nr_jobs) {
		fprintf(stderr, "iosched: fio: no job(s) defined (options before the first --name "
			"are global; --name=NAME starts a job)\n");
	} else {
		rc = fio_run(&f, &jf);
	}
out:
	ios_buf_free(&showcmd);
	ios_jobfile_free(&jf);
	fio_free(&f, v, argc);
	return rc;
}
