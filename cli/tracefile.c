/*
 * --trace NAME for the commands that run something (run, replay, fio): open
 * the blktrace writer before the run, close it after, and report a write
 * error (a full disk) as the command's failure.
 *
 * --trace-limit bounds the file (1 GiB unless told): a busy run writes
 * about 170 MB of trace per simulated second, and nothing else stopped it
 * filling the disk. Past the limit the trace is cut, as blktrace drops what
 * its buffers cannot hold: the run goes on and its report stays whole, the
 * cut is said on stderr (and in the trace, as its last note), and the
 * command exits 1, since an output asked for is incomplete.
 */
#include <inttypes.h>
#include "cli.h"
#include "iosched/blktrace.h"

/* the trace of this process's one run, for the message and the exit status */
static const char *trace_name;
static bool trace_cut;

int cli_trace_open(const char *name, uint16_t mask, uint64_t limit, struct ios_run_config *cfg,
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
	ios_blktrace_set_limit(*bt, limit);
	trace_name = name;
	cfg->trace_ops = &ios_blktrace_trace_ops;
	cfg->trace = *bt;
	return 0;
}

static void trace_say_cut(const struct ios_blktrace_counts *c)
{
	fprintf(stderr, "iosched: warning: --trace-limit=%" PRIu64 " bytes reached at %.9f s of "
		"the run: %s.blktrace.0 holds what came before (%" PRIu64 " bytes, %" PRIu64
		" events), and %" PRIu64 " records after it were dropped; the report covers the "
		"whole run, the trace does not (exit status 1; --trace-limit 0 for no limit, or "
		"fewer categories with --trace-mask)\n", c->limit, (double)c->cut_ns / 1e9,
		trace_name ? trace_name : "the trace", c->bytes, c->events, c->dropped);
}

int cli_trace_close(struct ios_blktrace *bt, int ret, struct ios_run_result *res,
		    struct ios_err *e)
{
	struct ios_err te = { 0 };
	struct ios_blktrace_counts c = { 0 };

	if (!bt)
		return ret;
	/* a failed run still closes its trace; the run's error comes first */
	if (ios_blktrace_close(bt, &c, &te) && !ret) {
		ios_run_result_free(res);
		*e = te;
		return te.code;
	}
	if (c.cut) {
		trace_cut = true;
		trace_say_cut(&c);
	}
	return ret;
}

int cli_trace_exit(int rc)
{
	return rc == CLI_EXIT_OK && trace_cut ? CLI_EXIT_FAIL : rc;
}
