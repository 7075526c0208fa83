/*
 * iosched repro: the seed reproduction report (`make seeds`).
 *
 * This file parses the arguments, reads each experiment's .args file (the
 * options beside its job file: the same options the smoke tests and the
 * README use, parsed by the same code as the command line, so there is one
 * place that says how a seed job runs), parses the job file, and writes
 * what comes back. The experiments are the library's (iosched/exp.h):
 * ios_repro_prepare() checks an experiment's columns before anything runs,
 * ios_repro_run_all() does every run (column x seed, plus the first job
 * alone where an experiment needs that rate) on worker threads, and the
 * results come back in table order, so the report's bytes do not depend on
 * the number of workers.
 *
 * After the experiments, DiskSim 4.0's validation drives (issue 31 item 3,
 * "disksim" on the command line): each drive's trace replayed as `iosched
 * validate` replays it, read from tests/data/disksim/ relative to the
 * current directory like the seed jobs (checked before anything runs).
 *
 * Output: DIR/REPRODUCTION.md and DIR/repro/NAME.svg (DIR: docs), and the
 * PASS/MISS list on stdout; or, with --output-format json, the data as JSON
 * on stdout and no files.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/exp.h"
#include "iosched/repro.h"

#define REPRO_DEFAULT_DIR "docs"
/* the DiskSim validation drives' specifications and traces */
#define REPRO_DISKSIM_DIR "tests/data/disksim"
#define REPRO_DISKSIM_NAME "disksim"

/* One experiment: what the command line read for it, and the library's runs. */
struct rp_exp {
	const struct ios_repro_exp *x;
	struct cli_run_opts o;		/* from the .args file: device, --set, --fio-compat */
	char *args;			/* the .args file's text, on one line */
	char *argv_text;		/* its tokens, which o's options point into */
	struct ios_jobfile jf;
	struct ios_repro_set *set;	/* in the array ios_repro_run_all() takes */
};

/* repro's options (it takes no run options: the .args files hold those) */
struct rp_args {
	const char *dir, *fmt, *outfile;
	uint64_t workers;		/* 0: no --jobs */
	bool quick, any, want[64];	/* want[k]: ios_repro_experiments[k] was named */
	bool drives;			/* "disksim" was named */
};

static int rp_experiment(void *arg, const char *a, struct ios_buf *msg)
{
	struct rp_args *ra = arg;
	const struct ios_repro_exp *x = ios_repro_find(a);

	if (!x && !strcasecmp(a, REPRO_DISKSIM_NAME)) {
		ra->drives = ra->any = true;
		return 0;
	}
	if (!x) {
		ios_buf_printf(msg, "repro: unknown experiment '%s' (known:", a);
		for (size_t k = 0; k < ios_repro_nr_experiments; k++)
			ios_buf_printf(msg, " %s", ios_repro_experiments[k].name);
		ios_buf_puts(msg, " " REPRO_DISKSIM_NAME ")");
		return -1;
	}
	if ((size_t)(x - ios_repro_experiments) < IOS_ARRAY_SIZE(ra->want))
		ra->want[x - ios_repro_experiments] = true;
	ra->any = true;
	return 0;
}

static const struct ios_cl_choice rp_formats[] = {
	{ "normal", 0, false }, { "json", 1, false }, { NULL, 0, false },
};

#define RA(f) offsetof(struct rp_args, f)

static const struct ios_cl_opt rp_opts[] = {
	{ .name = "--help", .alias = "-h", .kind = IOS_CL_HELP },
	{ .name = "--output-dir", .kind = IOS_CL_STR, .off = RA(dir), .metavar = "DIR",
	  .help = "where the report goes (default " REPRO_DEFAULT_DIR "); the Markdown links as if\n"
		  "DIR were docs/, wherever it is written" },
	{ .name = "--jobs", .alias = "-j", .kind = IOS_CL_U64, .off = RA(workers), .min = 1,
	  .max = IOS_EXP_MAX_WORKERS, .flags = IOS_CL_BRIEF_RANGE, .metavar = "N",
	  .help = "runs at a time (default: online CPUs); the output does not\n"
		  "depend on it" },
	{ .name = "--quick", .kind = IOS_CL_FLAG, .off = RA(quick),
	  .help = "one seed per experiment instead of the table's (a quick look,\n"
		  "not the report to commit)" },
	{ .name = "--output-format", .kind = IOS_CL_CHOICE, .off = RA(fmt), .choices = rp_formats,
	  .flags = IOS_CL_STORE_NAME, .metavar = "FMT",
	  .help = "normal (default) or json: the data as JSON on stdout (or\n"
		  "--output FILE), and no files written" },
	{ .name = "--output", .kind = IOS_CL_STR, .off = RA(outfile), .metavar = "FILE",
	  .help = "the PASS/MISS list (or the JSON) into FILE instead of stdout" },
	{ .name = NULL },
};

static void rp_usage(FILE *f)
{
	struct ios_buf b;

	fprintf(f,
"usage: iosched repro [EXPERIMENT...] [--output-dir DIR] [--jobs N] [--quick]\n"
"                     [--output-format normal|json] [--output FILE]\n"
"\n"
"Runs the seed experiments of seed-scenarios.md (job files in examples/seeds/, with the\n"
"options of their .args files) under the schedulers each has expectations for, and\n"
"writes DIR/REPRODUCTION.md (the thread's numbers beside ours, the pass criteria with\n"
"PASS or MISS) and one plot per experiment, DIR/repro/NAME.svg. Prints the PASS/MISS\n"
"list. Run it from the top of the source tree. After them, the blk-mq scenarios\n"
"m1-m4 of docs/blk-mq-scenarios.md (job files in examples/blk-mq/ and the seeds');\n"
"m3 and m4-a1 compare with a1's runs and m4-b1 with b1's, so naming one of them\n"
"runs its seed experiment too. Last, " REPRO_DISKSIM_NAME ": DiskSim 4.0's validation drives\n"
"(" REPRO_DISKSIM_DIR "/NAME.parv and NAME.trace) replayed as iosched validate replays\n"
"them, our RMS demerit beside DiskSim's own (docs/validate.md).\n"
"\n"
"  EXPERIMENT          any of:");
	for (size_t i = 0; i < ios_repro_nr_experiments; i++)
		fprintf(f, " %s", ios_repro_experiments[i].name);
	fprintf(f, " " REPRO_DISKSIM_NAME " (default: all)\n");
	ios_buf_init(&b);
	ios_cl_usage(rp_opts, 0, 22, &b);
	if (b.s && !b.oom)
		fputs(b.s, f);
	ios_buf_free(&b);
}

/* "examples/seeds/x.fio" -> "examples/seeds/x.args" (malloc'd) */
static char *rp_args_path(const char *jobfile)
{
	size_t n = strlen(jobfile);
	char *p = malloc(n + 8);

	if (!p)
		return NULL;
	memcpy(p, jobfile, n + 1);
	if (n > 4 && !strcmp(p + n - 4, ".fio"))
		p[n - 4] = '\0';
	strcat(p, ".args");
	return p;
}

static char *rp_read_text(const char *path, int *err)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int c;

	*err = 0;
	if (!f) {
		*err = errno;
		return NULL;
	}
	while ((c = fgetc(f)) != EOF) {
		if (len + 2 > cap) {
			char *nb = realloc(buf, cap ? 2 * cap : 256);

			if (!nb) {
				*err = ENOMEM;
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
			cap = cap ? 2 * cap : 256;
		}
		buf[len++] = (char)c;
	}
	fclose(f);
	if (!buf) {
		buf = calloc(1, 1);
		if (!buf)
			*err = ENOMEM;
	} else {
		buf[len] = '\0';
	}
	return buf;
}

/*
 * The .args file beside the job file: whitespace-separated options, only
 * --device, --set and --fio-compat (the schedulers and seeds are the
 * experiment's). Parsed by the same code as the command line.
 */
static int rp_load_args(struct rp_exp *e)
{
	char *path = rp_args_path(e->x->jobfile), *text, *tok[64], *save = NULL, *p;
	int n = 0, err, ret = -1;

	if (!path) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	text = rp_read_text(path, &err);
	if (!text && err == ENOENT) {
		/* no .args: the job file runs with the defaults */
		free(path);
		e->args = strdup("");
		return e->args ? 0 : -1;
	}
	if (!text) {
		fprintf(stderr, "iosched: repro: %s: %s\n", path, strerror(err));
		free(path);
		return -1;
	}
	for (p = strtok_r(text, " \t\r\n", &save); p; p = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == (int)IOS_ARRAY_SIZE(tok)) {
			fprintf(stderr, "iosched: repro: %s: too many options\n", path);
			goto out;
		}
		tok[n++] = p;
	}
	/* the report quotes the options on one line */
	{
		size_t len = 1;

		for (int i = 0; i < n; i++)
			len += strlen(tok[i]) + 1;
		e->args = calloc(1, len);
		if (!e->args)
			goto out;
		for (int i = 0; i < n; i++) {
			if (i)
				strcat(e->args, " ");
			strcat(e->args, tok[i]);
		}
	}
	for (int i = 0; i < n; i++) {
		static const char *const allowed[] = { "--device", "--set", "--fio-compat" };
		bool ok = false;

		for (size_t k = 0; k < IOS_ARRAY_SIZE(allowed) && !ok; k++) {
			size_t l = strlen(allowed[k]);

			ok = !strncmp(tok[i], allowed[k], l) && (tok[i][l] == '\0' || tok[i][l] == '=');
		}
		if (!ok) {
			fprintf(stderr, "iosched: repro: %s: '%s': only --device, --set and "
				"--fio-compat belong in a seed job's .args\n", path, tok[i]);
			goto out;
		}
		if (cli_run_opts_parse(&e->o, n, tok, &i) != 1) {
			fprintf(stderr, "iosched: repro: in %s\n", path);
			goto out;
		}
	}
	ret = 0;
out:
	/* the parsed options keep pointers into the tokens */
	e->argv_text = text;
	free(path);
	return ret;
}

/* Read the .args, parse the job file, check the columns: nothing runs before all of this. */
static int rp_prepare(struct rp_exp *e, bool quick)
{
	struct ios_err err = { 0 };
	int ret;

	if (cli_run_opts_init(&e->o, 1))
		return -1;
	if (rp_load_args(e))
		return -1;
	if (access(e->x->jobfile, R_OK)) {
		fprintf(stderr, "iosched: repro: %s: %s (run iosched repro from the top of the "
			"source tree)\n", e->x->jobfile, strerror(errno));
		return -1;
	}
	e->o.jobs[e->o.nr_jobs++] = e->x->jobfile;
	if (cli_run_opts_load(&e->o, &e->jf))
		return -1;
	*e->set = (struct ios_repro_set){ .x = e->x, .jf = &e->jf, .base = &e->o.cfg,
					  .args = e->args };
	ret = ios_repro_prepare(e->set, quick, &err);
	if (ret == -ENOMEM) {
		fprintf(stderr, "iosched: out of memory\n");
	} else if (ret) {
		fprintf(stderr, "iosched: repro: %s: ", e->x->name);
		cli_error(&err);
	}
	return ret;
}

static void rp_exp_free(struct rp_exp *e)
{
	ios_repro_set_free(e->set);
	ios_jobfile_free(&e->jf);
	cli_run_opts_free(&e->o);
	free(e->args);
	free(e->argv_text);
}

static int rp_mkdir(const char *path)
{
	if (!mkdir(path, 0777) || errno == EEXIST)
		return 0;
	fprintf(stderr, "iosched: repro: %s: %s\n", path, strerror(errno));
	return -1;
}

static int rp_write_file(const char *dir, const char *name, const struct ios_buf *b)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *path = malloc(len);
	FILE *f;
	int ret = -1;

	if (!path)
		return -1;
	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		bool ok = fwrite(b->s, 1, b->len, f) == b->len;

		if (!fclose(f) && ok)
			ret = 0;
	}
	if (ret)
		fprintf(stderr, "iosched: repro: %s: %s\n", path, strerror(errno));
	free(path);
	return ret;
}

/* REPRODUCTION.md and repro/NAME.svg under @dir */
static int rp_write_report(const char *dir, const struct ios_repro_data *d, size_t n, bool quick,
			   const struct ios_repro_drives *drives)
{
	size_t len = strlen(dir) + 8;
	char *sub = malloc(len);
	struct ios_buf b;
	int ret = -1;

	if (!sub)
		return -1;
	snprintf(sub, len, "%s/repro", dir);
	if (rp_mkdir(dir) || rp_mkdir(sub))
		goto out;
	for (size_t i = 0; i < n; i++) {
		char name[128];

		ios_buf_init(&b);
		ios_repro_plot_name(d[i].exp, name, sizeof(name));
		if (ios_repro_plot(&d[i], &b)) {
			fprintf(stderr, "iosched: repro: %s: drawing the plot failed\n",
				d[i].exp->name);
			ios_buf_free(&b);
			goto out;
		}
		if (rp_write_file(dir, name, &b)) {
			ios_buf_free(&b);
			goto out;
		}
		ios_buf_free(&b);
	}
	ios_buf_init(&b);
	if (ios_repro_report_md(d, n, quick, drives, &b)) {
		fprintf(stderr, "iosched: repro: out of memory writing the report\n");
		ios_buf_free(&b);
		goto out;
	}
	ret = rp_write_file(dir, "REPRODUCTION.md", &b);
	ios_buf_free(&b);
out:
	free(sub);
	return ret;
}

/*
 * DIR and DIR/repro: writable directories, or ones rp_mkdir can make; the
 * report and plots already in them must be writable files.
 */
static int rp_check_dirs(const struct rp_exp *exps, size_t nr, const char *dir)
{
	size_t len = strlen(dir) + 160;
	char *p = malloc(len);
	struct stat st;
	int ret = -1;

	if (!p) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	if (cli_paths_dir_makeable("--output-dir", dir))
		goto out;
	if (stat(dir, &st))
		goto ok;	/* made by the run's end, empty: its repro/ is made too */
	snprintf(p, len, "%s/repro", dir);
	if (cli_paths_dir_makeable("--output-dir's plot directory", p))
		goto out;
	snprintf(p, len, "%s/REPRODUCTION.md", dir);
	if (cli_paths_writable("the report (--output-dir)", p))
		goto out;
	snprintf(p, len, "%s/repro", dir);
	for (size_t k = 0; !stat(p, &st) && k < nr; k++) {
		char name[128];

		ios_repro_plot_name(exps[k].x, name, sizeof(name));
		snprintf(p, len, "%s/%s", dir, name);
		if (cli_paths_writable("a plot of the report (--output-dir)", p))
			goto out;
	}
ok:
	ret = 0;
out:
	free(p);
	return ret;
}

/*
 * Before anything runs: the report (--output-dir) and --output may not be
 * a seed job, its .args or an include, nor each other.
 */
static int rp_check_paths(const struct rp_exp *exps, size_t nr, bool drives, const char *dir,
			  const char *fmt, const char *outfile)
{
	struct cli_paths ps = { 0 };
	int ret = -1;

	for (size_t k = 0; drives && k < ios_repro_nr_drives; k++) {
		static const char *const ext[] = { "parv", "trace" };

		for (size_t i = 0; i < IOS_ARRAY_SIZE(ext); i++) {
			char p[512];

			if (ios_repro_drive_path(REPRO_DISKSIM_DIR, &ios_repro_drives[k], ext[i], p,
						 sizeof(p)))
				goto out;
			if (access(p, R_OK)) {
				fprintf(stderr, "iosched: repro: " REPRO_DISKSIM_NAME " drive %s: %s: %s "
					"(run iosched repro from the top of the source tree)\n",
					ios_repro_drives[k].name, p, strerror(errno));
				goto out;
			}
			if (cli_paths_in(&ps, "a DiskSim drive's file", p))
				goto out;
		}
	}
	for (size_t k = 0; k < nr; k++) {
		const struct rp_exp *e = &exps[k];
		char *args = rp_args_path(e->x->jobfile);

		if (!args || cli_paths_in(&ps, "the seed job's options", args)) {
			free(args);
			goto out;
		}
		free(args);
		/* the job file itself, and its includes */
		if (cli_paths_run(&ps, &e->o, &e->jf, NULL, NULL))
			goto out;
	}
	if (cli_paths_out(&ps, "--output", outfile, 0))
		goto out;
	if (strcmp(fmt, "json")) {
		size_t len = strlen(dir) + 160;
		char *p = malloc(len);

		if (!p)
			goto out;
		snprintf(p, len, "%s/REPRODUCTION.md", dir);
		if (cli_paths_out(&ps, "the report (--output-dir)", p, 0)) {
			free(p);
			goto out;
		}
		for (size_t k = 0; k < nr; k++) {
			char name[128];

			ios_repro_plot_name(exps[k].x, name, sizeof(name));
			snprintf(p, len, "%s/%s", dir, name);
			if (cli_paths_out(&ps, "a plot of the report (--output-dir)", p, 0)) {
				free(p);
				goto out;
			}
		}
		free(p);
	}
	if (cli_paths_check(&ps))
		goto out;
	/*
	 * The files are written after every run: one that cannot be is said
	 * now, not after seconds of experiments (issue 28, item 6).
	 */
	if (outfile && cli_paths_writable("--output", outfile))
		goto out;
	if (strcmp(fmt, "json") && rp_check_dirs(exps, nr, dir))
		goto out;
	ret = 0;
out:
	cli_paths_free(&ps);
	return ret;
}

/* Every run (the library's worker threads, the progress line on a terminal); -1 said on stderr. */
static int rp_run(struct ios_repro_set *sets, size_t nr, long workers)
{
	struct ios_repro_failure fail;
	struct ios_exp_opts eo;
	struct cli_progress prog;
	int ret;

	cli_exp_opts(&eo, workers, &prog);
	ret = ios_repro_run_all(sets, nr, &eo, &fail);
	cli_progress_clear(&prog);
	if (ret && !fail.set) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	if (ret) {
		fprintf(stderr, "iosched: repro: %s (%s): %s\n", fail.label, fail.set->x->jobfile,
			fail.err.msg[0] ? fail.err.msg : strerror(-fail.err.code));
		return -1;
	}
	return 0;
}

/* The report: JSON to --output, or the files under @dir and the PASS/MISS list. */
static int rp_print(const char *dir, const char *fmt, const char *outfile,
		    const struct ios_repro_data *data, size_t nr, bool quick,
		    const struct ios_repro_drives *drives)
{
	struct ios_buf b;
	int rc = CLI_EXIT_FAIL, ret;

	ios_buf_init(&b);
	if (!strcmp(fmt, "json")) {
		ret = ios_repro_report_json(data, nr, quick, drives, &b);
	} else {
		ret = rp_write_report(dir, data, nr, quick, drives) ? -EIO
		      : ios_repro_report_text(data, nr, drives, &b);
	}
	if (ret == -EIO)
		;	/* the message is out */
	else if (ret)
		fprintf(stderr, "iosched: repro: the report: %s\n", strerror(-ret));
	else if (!cli_write_output(outfile, &b))
		rc = CLI_EXIT_OK;
	ios_buf_free(&b);
	return rc;
}

int cmd_repro(int argc, char **argv)
{
	const char *dir = REPRO_DEFAULT_DIR, *fmt = "normal", *outfile = NULL;
	long workers = sysconf(_SC_NPROCESSORS_ONLN);
	bool quick = false, want[64] = { false }, any = false;
	struct rp_exp *exps = NULL;
	struct ios_repro_data *data = NULL;
	struct ios_repro_set *sets = NULL;
	struct ios_repro_drives drives = { 0 };
	struct ios_err derr = { 0 };
	bool want_drives;
	size_t nr = 0;
	struct rp_args args = { .dir = REPRO_DEFAULT_DIR, .fmt = "normal" };
	const struct ios_cl_group groups[] = { { rp_opts, &args, 0 } };
	const struct ios_cl_cmd cmd = { "repro", "iosched repro --help", groups, 1, rp_experiment,
					&args, false };
	int rc = CLI_EXIT_USAGE, pr;

	pr = cli_parse(&cmd, argc, argv);
	if (pr == IOS_CL_HELP_SEEN) {
		rp_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (pr < 0)
		return CLI_EXIT_USAGE;
	dir = args.dir;
	fmt = args.fmt;
	outfile = args.outfile;
	if (args.workers)
		workers = (long)args.workers;
	quick = args.quick;
	any = args.any;
	want_drives = !any || args.drives;
	memcpy(want, args.want, sizeof(want));
	if (ios_repro_nr_experiments > IOS_ARRAY_SIZE(want))
		return CLI_EXIT_FAIL;
	/*
	 * A blk-mq scenario compares with the runs and verdicts of a seed
	 * experiment (its base): that one runs too, and is reported.
	 */
	for (size_t k = 0; any && k < ios_repro_nr_experiments; k++) {
		const struct ios_repro_exp *b = ios_repro_base_of(&ios_repro_experiments[k]);

		if (want[k] && b)
			want[b - ios_repro_experiments] = true;
	}
	rc = CLI_EXIT_FAIL;
	/* in the table's order, whatever the order asked in */
	exps = calloc(ios_repro_nr_experiments, sizeof(*exps));
	data = calloc(ios_repro_nr_experiments, sizeof(*data));
	sets = calloc(ios_repro_nr_experiments, sizeof(*sets));
	if (!exps || !data || !sets)
		goto out;
	for (size_t k = 0; k < ios_repro_nr_experiments; k++) {
		if (any && !want[k])
			continue;
		exps[nr].x = &ios_repro_experiments[k];
		exps[nr].set = &sets[nr];
		nr++;
		if (rp_prepare(&exps[nr - 1], quick))
			goto out;
	}
	if (rp_check_paths(exps, nr, want_drives, dir, fmt, outfile)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (rp_run(sets, nr, workers))
		goto out;
	if (want_drives && ios_repro_drives_run(REPRO_DISKSIM_DIR, &drives, &derr)) {
		fprintf(stderr, "iosched: repro: " REPRO_DISKSIM_NAME ": ");
		cli_error(&derr);
		goto out;
	}
	for (size_t k = 0; k < nr; k++)
		ios_repro_set_data(&sets[k], &data[k]);
	if (ios_repro_link_bases(data, nr)) {
		fprintf(stderr, "iosched: repro: a blk-mq scenario's seed experiment did not run\n");
		goto out;
	}
	rc = rp_print(dir, fmt, outfile, data, nr, quick, want_drives ? &drives : NULL);
out:
	ios_repro_drives_free(&drives);
	for (size_t k = 0; exps && k < nr; k++)
		rp_exp_free(&exps[k]);
	free(exps);
	free(data);
	free(sets);
	return rc;
}
