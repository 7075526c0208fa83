/*
 * The progress line on a terminal: the only place that reads a wall clock.
 *
 * The simulation calls back every few thousand events with its simulated
 * time and how far it is (ios_run_config.progress); here we look at the
 * monotonic clock and, once a run has taken more than a second, redraw one
 * line on stderr with \r a few times a second, then blank it at the end so
 * the report starts on a clean line. When stderr is not a terminal nothing
 * is ever written: logs and pipes get the report alone.
 */
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/progress.h"

#define CLI_PROGRESS_AFTER_S	1.0	/* quiet for runs shorter than this */
#define CLI_PROGRESS_EVERY_S	0.2	/* redraw interval */

void cli_progress_init(struct cli_progress *p)
{
	memset(p, 0, sizeof(*p));
	p->tty = isatty(STDERR_FILENO) == 1;
	clock_gettime(CLOCK_MONOTONIC, &p->t0);
	p->next_draw = CLI_PROGRESS_AFTER_S;
}

double cli_progress_elapsed(const struct cli_progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - p->t0.tv_sec) + (double)(now.tv_nsec - p->t0.tv_nsec) / 1e9;
}

bool cli_progress_due(struct cli_progress *p, double *elapsed)
{
	if (!p->tty)
		return false;
	*elapsed = cli_progress_elapsed(p);
	if (*elapsed < p->next_draw)
		return false;
	p->next_draw = *elapsed + CLI_PROGRESS_EVERY_S;
	return true;
}

unsigned cli_progress_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

void cli_progress_show(struct cli_progress *p, const char *line)
{
	size_t n = strlen(line);

	if (!p->tty)
		return;
	/* pad over what a longer previous line left behind */
	fprintf(stderr, "\r%s%*s", line, p->shown > n ? (int)(p->shown - n) : 0, "");
	fflush(stderr);
	p->shown = n;
}

void cli_progress_clear(struct cli_progress *p)
{
	if (!p->tty || !p->shown)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->shown, "");
	fflush(stderr);
	p->shown = 0;
}

void cli_progress_run_cb(void *arg, const struct ios_run_progress *pr)
{
	struct cli_progress *p = arg;
	struct ios_progress_item it = { NULL, pr->sim_ns, pr->fraction };
	char line[256];
	double el;

	if (!cli_progress_due(p, &el))
		return;
	ios_progress_format(line, sizeof(line), cli_progress_width(), &it, 1, 0, 1, el);
	cli_progress_show(p, line);
}
