/*
 * --trace NAME for the commands that run something (run, replay): open the
 * blktrace writer before the run, close it after, and report a write error
 * (a full disk) as the command's failure.
 */
#include "cli.h"
#include "iosched/blktrace.h"

int cli_trace_open(const char *name, uint16_t mask, struct ios_run_config *cfg,
		   struct ios_blktrace **bt)
{
	struct ios_err e = { 0 };

	*bt = NULL;
	if (!name)
		return 0;
	if (ios_blktrace_open(name, bt, &e)) {
		cli_error(&e);
		return -1;
	}
	ios_blktrace_set_mask(*bt, mask);
	cfg->trace_ops = &ios_blktrace_trace_ops;
	cfg->trace = *bt;
	return 0;
}

int cli_trace_close(struct ios_blktrace *bt, int ret, struct ios_run_result *res,
		    struct ios_err *e)
{
	struct ios_err te = { 0 };

	/* a failed run still closes its trace; the run's error comes first */
	if (bt && ios_blktrace_close(bt, NULL, &te) && !ret) {
		ios_run_result_free(res);
		*e = te;
		return te.code;
	}
	return ret;
}
