/*
 * The options every command that runs jobs shares (run, compare, replay):
 * job files, --scheduler, --device, --set, --seed, --output-format,
 * --output, --fio-compat. One parser, so the commands cannot drift apart
 * in spelling, checks or messages; each command handles its own extras
 * first and hands the rest to cli_run_opts_parse().
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;

	/* fio's rule for its integers: 0x is hex, anything else decimal (08 is 8, not octal) */
	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a') + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A') + 10;
		else
			return -1;	/* blanks, signs, junk */
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
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
	const char *a = argv[*i], *v = NULL;
	struct ios_err e = { 0 };
	int r;

	if (a[0] != '-' || !strcmp(a, "-")) {
		/* "-": the job file on stdin, as fio takes it; stdin can be read once */
		for (int k = 0; k < o->nr_jobs && !strcmp(a, "-"); k++) {
			if (!strcmp(o->jobs[k], "-")) {
				fprintf(stderr, "iosched: '-' (the job file on stdin) given twice\n");
				return -1;
			}
		}
		o->jobs[o->nr_jobs++] = a;
		return 1;
	}
	if ((r = cli_optval(argc, argv, i, "--scheduler", &v))) {
		if (r > 0)
			o->cfg.scheduler = v;
	} else if ((r = cli_optval(argc, argv, i, "--device", &v))) {
		if (r > 0)
			o->cfg.device = v;
	} else if ((r = cli_optval(argc, argv, i, "--set", &v))) {
		if (r > 0 && ios_settings_add_kv(&o->settings, v, "--set", &e)) {
			cli_error(&e);
			return -1;
		}
	} else if ((r = cli_optval(argc, argv, i, "--seed", &v))) {
		if (r > 0 && cli_parse_u64(v, &o->cfg.seed)) {
			fprintf(stderr, "iosched: --seed=%s: expected a non-negative integer, decimal "
				"or 0x hex, from 0 to 18446744073709551615\n", v);
			return -1;
		}
	} else if ((r = cli_optval(argc, argv, i, "--output-format", &v))) {
		if (r > 0 && strcmp(v, "normal") && strcmp(v, "json")) {
			fprintf(stderr, "iosched: --output-format=%s: allowed normal, json\n", v);
			return -1;
		}
		if (r > 0)
			o->fmt = v;
	} else if ((r = cli_optval(argc, argv, i, "--output", &v))) {
		if (r > 0)
			o->outfile = v;
	} else if ((r = cli_optval(argc, argv, i, "--fio-compat", &v))) {
		if (r < 0) {
			;
		} else if (!strcmp(v, "1") || !strcmp(v, "1.9")) {
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
	return r < 0 ? -1 : 1;
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
