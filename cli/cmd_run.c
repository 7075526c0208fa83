/*
 * iosched run: parse job files, run them, print the report.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static int parse_u64(const char *s, uint64_t *out)
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

int cmd_run(int argc, char **argv)
{
	struct ios_run_config cfg = { 0 };
	struct ios_settings settings = { 0 };
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };
	struct ios_buf out;
	const char *fmt = "normal", *outfile = NULL, *v;
	const char **jobs = calloc((size_t)argc, sizeof(*jobs));
	int nr_jobs = 0, rc = CLI_EXIT_FAIL, ret;

	if (!jobs)
		return CLI_EXIT_FAIL;
	ios_job_parse_opts_init(&po);
	cfg.seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !strcmp(a, "-")) {
			jobs[nr_jobs++] = a;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli_usage(stdout);
			rc = CLI_EXIT_OK;
			goto out;
		}
		if ((v = cli_optval(argc, argv, &i, "--scheduler"))) {
			cfg.scheduler = v;
		} else if ((v = cli_optval(argc, argv, &i, "--device"))) {
			cfg.device = v;
		} else if ((v = cli_optval(argc, argv, &i, "--set"))) {
			if (ios_settings_add_kv(&settings, v, "--set", &e)) {
				cli_error(&e);
				rc = CLI_EXIT_USAGE;
				goto out;
			}
		} else if ((v = cli_optval(argc, argv, &i, "--seed"))) {
			if (parse_u64(v, &cfg.seed)) {
				fprintf(stderr, "iosched: --seed=%s: expected a non-negative integer\n", v);
				rc = CLI_EXIT_USAGE;
				goto out;
			}
		} else if ((v = cli_optval(argc, argv, &i, "--output-format"))) {
			if (strcmp(v, "normal") && strcmp(v, "json")) {
				fprintf(stderr, "iosched: --output-format=%s: allowed normal, json\n", v);
				rc = CLI_EXIT_USAGE;
				goto out;
			}
			fmt = v;
		} else if ((v = cli_optval(argc, argv, &i, "--output"))) {
			outfile = v;
		} else if ((v = cli_optval(argc, argv, &i, "--fio-compat"))) {
			if (!strcmp(v, "1") || !strcmp(v, "1.9")) {
				po.compat = IOS_JOB_COMPAT_FIO1;
			} else if (!strcmp(v, "3")) {
				po.compat = IOS_JOB_COMPAT_FIO3;
			} else {
				fprintf(stderr, "iosched: --fio-compat=%s: allowed 1, 3\n", v);
				rc = CLI_EXIT_USAGE;
				goto out;
			}
		} else {
			fprintf(stderr, "iosched: run: unknown option '%s' (see iosched --help)\n", a);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}
	if (!nr_jobs) {
		fprintf(stderr, "iosched: run: no job file given\n");
		cli_usage(stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < nr_jobs; i++) {
		ret = ios_job_parse_file(jobs[i], &po, &jf, &e);
		if (ret) {
			cli_error(&e);
			goto out;
		}
	}
	cfg.settings = &settings;
	ret = ios_run(&jf, &cfg, &res, &e);
	if (ret) {
		cli_error(&e);
		goto out;
	}
	ios_buf_init(&out);
	ret = !strcmp(fmt, "json") ? ios_report_json(&res, &out) : ios_report_normal(&res, &out);
	if (ret) {
		fprintf(stderr, "iosched: out of memory writing the report\n");
		ios_buf_free(&out);
		goto out_res;
	}
	if (outfile) {
		FILE *f = fopen(outfile, "w");

		if (!f || fwrite(out.s, 1, out.len, f) != out.len || fclose(f)) {
			fprintf(stderr, "iosched: --output=%s: %s\n", outfile, strerror(errno));
			ios_buf_free(&out);
			goto out_res;
		}
	} else {
		fwrite(out.s, 1, out.len, stdout);
	}
	ios_buf_free(&out);
	rc = CLI_EXIT_OK;
out_res:
	ios_run_result_free(&res);
out:
	ios_jobfile_free(&jf);
	ios_settings_free(&settings);
	free(jobs);
	return rc;
}
