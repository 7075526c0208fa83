/*
 * iosched run: parse job files, run them, print the report.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cmd_run(int argc, char **argv)
{
	struct cli_run_opts o;
	struct ios_jobfile jf = { 0 };
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };
	struct ios_blktrace *bt = NULL;
	struct cli_progress prog;
	struct cli_paths paths = { 0 };
	int rc = CLI_EXIT_FAIL, ret;

	if (cli_run_opts_init(&o, argc))
		return CLI_EXIT_FAIL;
	if (cli_run_cmd_parse(&o, "run", argc, argv, &rc))
		goto out;
	if (!o.nr_jobs) {
		fprintf(stderr, "iosched: run: no job file given\n");
		cli_usage(stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	rc = cli_run_opts_load(&o, &jf);
	if (rc)
		goto out;
	rc = CLI_EXIT_FAIL;
	/* the job files and their includes are known now: nothing written over them */
	if (cli_paths_run(&paths, &o, &jf, o.trace, o.plot) || cli_paths_check(&paths)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (cli_trace_open(o.trace, o.trace_mask, o.trace_limit, &o.cfg, &bt))
		goto out;
	cli_progress_init(&prog);
	if (prog.tty) {
		o.cfg.progress = cli_progress_run_cb;
		o.cfg.progress_arg = &prog;
	}
	cli_real_signals(&o);
	ret = ios_run(&jf, &o.cfg, &res, &e);
	cli_progress_clear(&prog);
	ret = cli_trace_close(bt, ret, &res, &e);
	if (ret) {
		cli_error(&e);
		rc = cli_err_status(&e);
		goto out;
	}
	/* options the run could not honour (a cgroup under noop, ...): say so, then go on */
	for (size_t i = 0; i < res.nr_warnings; i++)
		fprintf(stderr, "iosched: warning: %s\n", res.warnings[i]);
	if (!cli_report_out(&res, o.fmt, o.outfile))
		rc = CLI_EXIT_OK;
	/* fio's exit status counts the jobs that ended with an error (rate_min, EIO, ...) */
	for (size_t i = 0; i < res.nr_jobs && rc == CLI_EXIT_OK; i++)
		if (res.jobs[i].error)
			rc = CLI_EXIT_FAIL;
	if (rc == CLI_EXIT_OK && o.plot && cli_plot_run(o.plot, &o, &res))
		rc = CLI_EXIT_FAIL;
	ios_run_result_free(&res);
out:
	cli_paths_free(&paths);
	ios_jobfile_free(&jf);
	cli_run_opts_free(&o);
	return cli_real_exit(cli_trace_exit(rc));
}
