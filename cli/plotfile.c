/*
 * --plot FILE.svg for the commands that run jobs: the title lines and the
 * file; the drawing is the library's (ios_plot_svg).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "cli.h"
#include "iosched/plot.h"

/* "job.fio other.fio" */
void cli_plot_title(const struct cli_run_opts *o, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < o->nr_jobs && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", o->jobs[i]);
}

/* ", --set a=b, --set c=d": what else shaped the run */
static void cli_plot_settings(const struct cli_run_opts *o, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < o->settings.n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, ", --set %s=%s", o->settings.v[i].name,
				      o->settings.v[i].value);
}

void cli_plot_subtitle(const struct cli_run_opts *o, const char *sched, const char *device,
		       uint64_t seed, char *buf, size_t len)
{
	char set[512];

	cli_plot_settings(o, set, sizeof(set));
	if (sched)
		snprintf(buf, len, "scheduler %s, device %s, seed %" PRIu64 "%s", sched, device, seed,
			 set);
	else
		snprintf(buf, len, "device %s, seed %" PRIu64 "%s", device, seed, set);
}

int cli_write_plot(const char *path, const struct ios_plot *p)
{
	struct ios_buf b;
	FILE *f;
	int ret;

	ios_buf_init(&b);
	ret = ios_plot_svg(p, &b);
	if (ret) {
		fprintf(stderr, "iosched: --plot=%s: %s\n", path, strerror(-ret));
		ios_buf_free(&b);
		return -1;
	}
	f = fopen(path, "w");
	if (f) {
		bool ok = fwrite(b.s, 1, b.len, f) == b.len;

		if (!fclose(f) && ok) {
			ios_buf_free(&b);
			return 0;
		}
	}
	fprintf(stderr, "iosched: --plot=%s: %s\n", path, strerror(errno));
	ios_buf_free(&b);
	return -1;
}

int cli_plot_run(const char *path, const struct cli_run_opts *o, const struct ios_run_result *res)
{
	char title[1024], sub[1024];
	struct ios_plot_run pr = { NULL, res->series };
	struct ios_plot p = { title, sub, &pr, 1 };

	cli_plot_title(o, title, sizeof(title));
	cli_plot_subtitle(o, res->scheduler, res->device, res->seed, sub, sizeof(sub));
	return cli_write_plot(path, &p);
}
