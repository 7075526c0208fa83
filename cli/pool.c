/*
 * The command line's side of the experiments' worker pool (the pool itself
 * is the library's, src/exp/pool.c): the progress line the
 * pool's waiting thread hands the running tasks' progress to.
 *
 * The line is drawn only when stderr is a terminal, and then by the same
 * code as a single run's (progress.c): one line with every running task,
 * how many are done and the time left, redrawn in place.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "iosched/exp.h"

static void cli_pool_progress(void *arg, const struct ios_progress_item *items, size_t n,
			      unsigned done, unsigned total)
{
	struct cli_progress *prog = arg;
	char line[512];
	double el;

	if (!cli_progress_due(prog, &el))
		return;
	ios_progress_format(line, sizeof(line), cli_progress_width(), items, n, done, total, el);
	cli_progress_show(prog, line);
}

void cli_exp_opts(struct ios_exp_opts *o, long workers, struct cli_progress *prog)
{
	cli_progress_init(prog);
	o->workers = workers;
	o->progress = prog->tty ? cli_pool_progress : NULL;
	o->progress_arg = prog;
}
