/*
 * The options every command that runs jobs shares (run, compare, replay):
 * job files, --scheduler, --device, --set, --seed, --output-format,
 * --output, --fio-compat. One parser, so the commands cannot drift apart
 * in spelling, checks or messages; each command handles its own extras
 * first and hands the rest to cli_run_opts_parse().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int cli_run_opts_init(struct cli_run_opts *o, int argc)
{
	memset(o, 0, sizeof(*o));
	ios_job_parse_opts_init(&o->po);
	o->cfg.seed = 1;
	o->fmt = "normal";
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

int cli_run_opts_parse(struct cli_run_opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	struct ios_err e = { 0 };

	if (a[0] != '-' || !strcmp(a, "-")) {
		o->jobs[o->nr_jobs++] = a;
		return 1;
	}
	if ((v = cli_optval(argc, argv, i, "--scheduler"))) {
		o->cfg.scheduler = v;
	} else if ((v = cli_optval(argc, argv, i, "--device"))) {
		o->cfg.device = v;
	} else if ((v = cli_optval(argc, argv, i, "--set"))) {
		if (ios_settings_add_kv(&o->settings, v, "--set", &e)) {
			cli_error(&e);
			return -1;
		}
	} else if ((v = cli_optval(argc, argv, i, "--seed"))) {
		if (cli_parse_u64(v, &o->cfg.seed)) {
			fprintf(stderr, "iosched: --seed=%s: expected a non-negative integer\n", v);
			return -1;
		}
	} else if ((v = cli_optval(argc, argv, i, "--output-format"))) {
		if (strcmp(v, "normal") && strcmp(v, "json")) {
			fprintf(stderr, "iosched: --output-format=%s: allowed normal, json\n", v);
			return -1;
		}
		o->fmt = v;
	} else if ((v = cli_optval(argc, argv, i, "--output"))) {
		o->outfile = v;
	} else if ((v = cli_optval(argc, argv, i, "--fio-compat"))) {
		if (!strcmp(v, "1") || !strcmp(v, "1.9")) {
			o->po.compat = IOS_JOB_COMPAT_FIO1;
		} else if (!strcmp(v, "3")) {
			o->po.compat = IOS_JOB_COMPAT_FIO3;
		} else {
			fprintf(stderr, "iosched: --fio-compat=%s: allowed 1, 3\n", v);
			return -1;
		}
	} else {
		return 0;
	}
	return 1;
}

int cli_run_opts_load(struct cli_run_opts *o, struct ios_jobfile *jf)
{
	struct ios_err e = { 0 };

	for (int i = 0; i < o->nr_jobs; i++) {
		if (ios_job_parse_file(o->jobs[i], &o->po, jf, &e)) {
			cli_error(&e);
			return -1;
		}
	}
	o->cfg.settings = &o->settings;
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
