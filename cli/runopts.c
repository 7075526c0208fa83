/*
 * The options every command that runs jobs shares (run, compare, replay):
 * job files, --scheduler, --device, --set, --seed, --output-format,
 * --output, --fio-compat, and run's and replay's --trace and --plot. They
 * are one table (cli_run_opts_table) read by the library's command-line
 * engine (iosched/cmdline.h), so the commands cannot drift apart in
 * spelling, checks or messages; each command puts its own table before
 * this one, and the usage text is made from the same rows.
 */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/blktrace.h"
#include "iosched/host.h"
#include "iosched/scope.h"
#include "iosched/series_group.h"
#include "iosched/tunable.h"

int cli_run_opts_init(struct cli_run_opts *o, int argc)
{
	memset(o, 0, sizeof(*o));
	ios_job_parse_opts_init(&o->po);
	o->cfg.seed = 1;
	o->fmt = "normal";
	o->trace_mask = 0xffff;
	o->trace_limit = CLI_TRACE_LIMIT;
	o->plot_by = IOS_PLOT_BY_AUTO;
	/* at most every argument is a job file */
	o->jobs = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*o->jobs));
	return o->jobs ? 0 : -1;
}

void cli_run_opts_free(struct cli_run_opts *o)
{
	ios_settings_free(&o->settings);
	free(o->jobs);
	o->jobs = NULL;
}

/* --set NAME=VALUE: in order, checked against the tables when the run knows them */
static int ro_set(void *base, const struct ios_cl_opt *opt, const char *v, struct ios_buf *msg)
{
	struct cli_run_opts *o = base;
	struct ios_err e = { 0 };

	(void)opt;
	if (!ios_settings_add_kv(&o->settings, v, "--set", &e))
		return 0;
	ios_buf_puts(msg, e.msg[0] ? e.msg : strerror(-e.code));
	return -1;
}

/* the --set row's help names every setting scope, from the registry */
static void ro_set_help(int at, int col, struct ios_buf *out)
{
	struct ios_buf text;

	ios_buf_init(&text);
	ios_buf_puts(&text, "set a tunable; repeatable. ");
	ios_scope_usage(&text);
	ios_cl_wrap(text.s ? text.s : "", at, col, CLI_USAGE_WIDTH, out);
	ios_buf_puts(out, "\n");
	ios_buf_free(&text);
}

/* --output-format: fio's comma-separated list (normal, json, json+, terse) */
static int ro_format(void *base, const struct ios_cl_opt *opt, const char *v, struct ios_buf *msg)
{
	struct cli_run_opts *o = base;
	unsigned mask;

	(void)opt;
	if (ios_report_parse_formats(v, &mask)) {
		ios_buf_printf(msg, "--output-format=%s: allowed normal, json, json+, terse, "
			       "or several joined by commas (normal,json)", v);
		return -1;
	}
	o->fmt = v;
	return 0;
}

static int ro_trace_mask(void *base, const struct ios_cl_opt *opt, const char *v,
			 struct ios_buf *msg)
{
	struct cli_run_opts *o = base;
	struct ios_err e = { 0 };

	(void)opt;
	if (ios_blktrace_mask_parse(v, &o->trace_mask, &e)) {
		ios_buf_printf(msg, "%s", e.msg);
		return -1;
	}
	o->trace_mask_arg = v;
	return 0;
}

/* --trace-limit SIZE: bytes, or with k/m/g/t (powers of 1024); 0: no bound */
static int ro_trace_limit(void *base, const struct ios_cl_opt *opt, const char *v,
			  struct ios_buf *msg)
{
	static const struct ios_tunable row = {
		.name = "--trace-limit", .type = IOS_TUN_SIZE, .min = 0, .max = INT64_MAX,
		.unit = "B",
	};
	struct cli_run_opts *o = base;
	struct ios_err e = { 0 };

	(void)opt;
	if (ios_tunable_parse(&row, v, &o->trace_limit, NULL, NULL, &e)) {
		ios_buf_printf(msg, "%s", e.msg);
		return -1;
	}
	o->trace_limit_arg = v;
	return 0;
}

int cli_report(const struct ios_run_result *r, const char *fmt, bool fio_preamble,
	       struct ios_buf *out)
{
	struct ios_report_opts ro = { .preamble = fio_preamble };

	if (ios_report_parse_formats(fmt, &ro.formats))
		return -EINVAL;
	return ios_report(r, &ro, out);
}

static const struct ios_cl_choice ro_compat[] = {
	{ "1", IOS_JOB_COMPAT_FIO1, false },
	{ "1.9", IOS_JOB_COMPAT_FIO1, true },	/* the release the 2006 seed names */
	{ "3", IOS_JOB_COMPAT_FIO3, false },
	{ NULL, 0, false },
};

#define RO(f) offsetof(struct cli_run_opts, f)

/* In the order of the usage text. */
const struct ios_cl_opt cli_run_opts_table[] = {
	{ .name = "--scheduler", .kind = IOS_CL_STR, .off = RO(cfg.scheduler), .metavar = "NAME",
	  .help = "I/O scheduler (default " IOS_DEFAULT_SCHEDULER "; see 'iosched list')" },
	{ .name = "--device", .kind = IOS_CL_STR, .off = RO(cfg.device), .metavar = "PROFILE",
	  .help = "simulated device (default " IOS_DEV_DEFAULT_PROFILE ")" },
	{ .name = "--real", .kind = IOS_CL_FLAG, .off = RO(real),
	  .help = "do the jobs' I/O on their real files (or block device)\n"
		  "through io_uring, under the same queue and scheduler\n"
		  "(docs/real.md)" },
	{ .name = "--set", .kind = IOS_CL_CALL, .fn = ro_set, .metavar = "NAME=VALUE",
	  .help_fn = ro_set_help },
	{ .name = "--seed", .kind = IOS_CL_U64, .off = RO(cfg.seed), .min = 0, .max = UINT64_MAX,
	  .metavar = "N", .help = "random seed (default 1); same seed, same output" },
	{ .name = "--output-format", .kind = IOS_CL_CALL, .fn = ro_format, .metavar = "FMT",
	  .help = "normal (default), json, json+, terse, or several\n"
		  "joined by commas (normal,json); docs/formats.md" },
	{ .name = "--output", .kind = IOS_CL_STR, .off = RO(outfile), .metavar = "FILE",
	  .help = "write the report to FILE instead of stdout" },
	{ .name = "--trace", .kind = IOS_CL_STR, .off = RO(trace), .mask = CLI_RUN_OWN,
	  .metavar = "NAME", .help = "write a blktrace of the run to NAME.blktrace.0\n"
				     "(read it with blkparse -i NAME, btt; docs/blktrace.md)" },
	{ .name = "--trace-mask", .kind = IOS_CL_CALL, .fn = ro_trace_mask, .mask = CLI_RUN_OWN,
	  .metavar = "LIST", .help = "what --trace writes, as blktrace -a: categories\n"
				     "(queue,issue,complete,notify,read,write,...); all,-notify\n"
				     "leaves out the scheduler's messages (docs/blktrace.md)" },
	{ .name = "--trace-limit", .kind = IOS_CL_CALL, .fn = ro_trace_limit, .mask = CLI_RUN_OWN,
	  .metavar = "SIZE", .help = "the most --trace writes (default 1g; k, m, g, t;\n"
				     "0: no limit). Past it the trace is cut, the run and\n"
				     "its report go on, and the exit status is 1" },
	{ .name = "--fio-compat", .kind = IOS_CL_CHOICE, .off = RO(po.compat), .choices = ro_compat,
	  .metavar = "VERSION", .help = "3 (default) or 1: fio 1.x defaults (direct=1,\n"
					"ioengine=sync, rate in KiB/s), as the 2006 seed job\n"
					"was written against" },
	{ .name = "--plot", .kind = IOS_CL_STR, .off = RO(plot), .mask = CLI_RUN_OWN,
	  .metavar = "FILE.svg", .help = "also draw bandwidth and cumulative data per job over\n"
					 "time (see docs/logs-and-plots.md)" },
	{ .name = "--plot-by", .kind = IOS_CL_CHOICE, .off = RO(plot_by), .mask = CLI_RUN_OWN,
	  .choices = cli_plot_by_choices, .metavar = "WHAT",
	  .help = "--plot's lines: auto (default: cgroup with more than\n"
		  "10 jobs in two cgroups or more, else job), job,\n"
		  "cgroup, class (ioprio class and level)" },
	{ .name = NULL },
};

const struct ios_cl_opt cli_help_table[] = {
	{ .name = "--help", .alias = "-h", .kind = IOS_CL_HELP },
	{ .name = NULL },
};

int cli_run_opts_add_job(void *arg, const char *a, struct ios_buf *msg)
{
	struct cli_run_opts *o = arg;

	/* "-": the job file on stdin, as fio takes it; stdin can be read once */
	for (int k = 0; k < o->nr_jobs && !strcmp(a, "-"); k++) {
		if (!strcmp(o->jobs[k], "-")) {
			ios_buf_puts(msg, "'-' (the job file on stdin) given twice");
			return -1;
		}
	}
	o->jobs[o->nr_jobs++] = a;
	return 0;
}

int cli_run_opts_parse(struct cli_run_opts *o, int argc, char **argv, int *i)
{
	const struct ios_cl_group g = { cli_run_opts_table, o, CLI_RUN_OWN };
	const char *a = argv[*i];
	struct ios_buf msg;
	int r;

	ios_buf_init(&msg);
	if (a[0] != '-' || !strcmp(a, "-"))
		r = cli_run_opts_add_job(o, a, &msg) ? -1 : 1;
	else
		r = ios_cl_parse_one(NULL, &g, 1, argc, argv, i, &msg);
	if (r < 0)
		cli_msg(&msg);
	ios_buf_free(&msg);
	return r;
}

int cli_run_cmd_parse(struct cli_run_opts *o, const char *name, int argc, char **argv, int *rc)
{
	const struct ios_cl_group groups[] = {
		{ cli_help_table, NULL, 0 }, { cli_run_opts_table, o, 0 },
	};
	const struct ios_cl_cmd cmd = { name, "iosched --help", groups, IOS_ARRAY_SIZE(groups),
					cli_run_opts_add_job, o, true };
	int ret = cli_parse(&cmd, argc, argv);

	if (ret == IOS_CL_HELP_SEEN) {
		cli_usage(stdout);
		*rc = CLI_EXIT_OK;
		return 1;
	}
	if (ret < 0) {
		*rc = CLI_EXIT_USAGE;
		return 1;
	}
	if (o->trace_mask_arg && !o->trace) {
		fprintf(stderr, "iosched: %s: --trace-mask %s: there is no --trace to filter\n", name,
			o->trace_mask_arg);
		*rc = CLI_EXIT_USAGE;
		return 1;
	}
	if (o->trace_limit_arg && !o->trace) {
		fprintf(stderr, "iosched: %s: --trace-limit %s: there is no --trace to limit\n", name,
			o->trace_limit_arg);
		*rc = CLI_EXIT_USAGE;
		return 1;
	}
	if (o->plot)
		o->cfg.record_series = o->cfg.record_timeline = true;
	return 0;
}

int cli_parse(const struct ios_cl_cmd *cmd, int argc, char **argv)
{
	struct ios_buf msg;
	int r;

	ios_buf_init(&msg);
	r = ios_cl_parse(cmd, argc, argv, &msg);
	if (r < 0)
		cli_msg(&msg);
	ios_buf_free(&msg);
	return r;
}

void cli_msg(const struct ios_buf *msg)
{
	fprintf(stderr, "iosched: %s\n", msg->s && !msg->oom ? msg->s : "out of memory");
}

int cli_run_opts_load(struct cli_run_opts *o, struct ios_jobfile *jf)
{
	struct ios_err e = { 0 };

	for (int i = 0; i < o->nr_jobs; i++) {
		if (ios_job_parse_file(o->jobs[i], &o->po, jf, &e)) {
			cli_error(&e);
			return e.code == -ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		}
	}
	o->cfg.settings = &o->settings;
	cli_run_opts_host(o);
	return 0;
}

void cli_run_opts_host(struct cli_run_opts *o)
{
	if (o->real)
		o->cfg.host = &ios_host_uring_ops;
}

/* Said at once, as fio says it (only write(2) is safe in a handler). */
static void cli_on_signal(int sig)
{
	char msg[48] = "iosched: terminating on signal ";
	size_t n = strlen(msg);

	if (sig >= 10)
		msg[n++] = (char)('0' + sig / 10 % 10);
	msg[n++] = (char)('0' + sig % 10);
	msg[n++] = '\n';
	(void)!write(STDERR_FILENO, msg, n);
	ios_host_interrupt(sig);
}

void cli_real_signals(const struct cli_run_opts *o)
{
	struct sigaction sa;

	if (!o->real)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = cli_on_signal;
	/* a second one ends the process at once; no SA_RESTART: waits return early */
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGINT, &sa, NULL);
	(void)sigaction(SIGTERM, &sa, NULL);
}

int cli_real_exit(int rc)
{
	/* fio exits 128 after a signal, report printed or not */
	return ios_host_interrupted() ? 128 : rc;
}

static int cli_sink(void *arg, const char *s, size_t len)
{
	return fwrite(s, 1, len, arg) == len ? 0 : -EIO;
}

void cli_sim_line(const struct ios_run_result *r, unsigned formats, struct ios_buf *out)
{
	if (!(formats & IOS_OUT_NORMAL) || !strcmp(r->device, "real"))
		return;
	ios_buf_printf(out, "\niosched: simulated on %s under %s, seed %llu: no wall clock, the "
		       "same job, options and seed give this report byte for byte\n", r->device,
		       r->scheduler, (unsigned long long)r->seed);
}

int cli_report_out(const struct ios_run_result *r, const char *fmt, const char *outfile)
{
	struct ios_report_opts ro = { 0 };
	struct ios_buf out;
	FILE *f = stdout;
	int ret, err;

	if (ios_report_parse_formats(fmt, &ro.formats)) {
		fprintf(stderr, "iosched: unknown output format '%s'\n", fmt);
		return -1;
	}
	if (outfile && !(f = fopen(outfile, "w"))) {
		fprintf(stderr, "iosched: --output=%s: %s\n", outfile, strerror(errno));
		return -1;
	}
	/* written as it is made: a report of 100,000 jobs is hundreds of MB */
	ios_buf_init(&out);
	ios_buf_set_sink(&out, cli_sink, f);
	ret = ios_report(r, &ro, &out);
	if (!ret) {
		cli_sim_line(r, ro.formats, &out);
		ret = out.oom ? -ENOMEM : 0;
	}
	err = ios_buf_drain(&out) || ferror(f);
	ios_buf_free(&out);
	err |= outfile ? fclose(f) != 0 : fflush(f) != 0;
	if (ret) {
		fprintf(stderr, "iosched: out of memory writing the report\n");
		return -1;
	}
	if (err) {
		fprintf(stderr, outfile ? "iosched: --output=%s: %s\n" : "iosched: writing the report%.0s: %s\n",
			outfile ? outfile : "", strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

int cli_write_output(const char *outfile, const struct ios_buf *out)
{
	FILE *f;

	if (!outfile) {
		if (fwrite(out->s, 1, out->len, stdout) != out->len || fflush(stdout)) {
			fprintf(stderr, "iosched: writing the report: %s\n", strerror(errno));
			return -1;
		}
		return 0;
	}
	f = fopen(outfile, "w");
	if (f) {
		bool ok = fwrite(out->s, 1, out->len, f) == out->len;

		if (!fclose(f) && ok)
			return 0;
	}
	fprintf(stderr, "iosched: --output=%s: %s\n", outfile, strerror(errno));
	return -1;
}
