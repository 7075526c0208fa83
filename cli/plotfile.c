/*
 * --plot FILE.svg for the commands that run jobs: the title lines and the
 * file; the drawing is the library's (ios_plot_svg).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "cli.h"
#include "iosched/plot.h"
#include "iosched/series_group.h"

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

const struct ios_cl_choice cli_plot_by_choices[] = {
	{ "auto", IOS_PLOT_BY_AUTO, false },
	{ "job", IOS_PLOT_BY_JOB, false },
	{ "cgroup", IOS_PLOT_BY_CGROUP, false },
	{ "class", IOS_PLOT_BY_CLASS, false },
	{ NULL, 0, false },
};

const char *cli_plot_lines(const struct ios_series *s, int by)
{
	switch (ios_plot_by_resolve(s, (enum ios_plot_by)by)) {
	case IOS_PLOT_BY_CGROUP:
		return "cgroup";
	case IOS_PLOT_BY_CLASS:
		return "class and level";
	default:
		return NULL;
	}
}

int cli_plot_group(const struct ios_series *in, int by, const struct ios_series *words_for,
		   struct ios_series *out, char *sub, size_t len)
{
	enum ios_plot_by how = ios_plot_by_resolve(words_for, (enum ios_plot_by)by);
	size_t n = strlen(sub);

	if (ios_series_aggregate(in, how, out)) {
		fprintf(stderr, "iosched: --plot: out of memory\n");
		return -1;
	}
	if (how != IOS_PLOT_BY_JOB && n < len) {
		char words[128];

		ios_series_group_words(words_for, how, words, sizeof(words));
		snprintf(sub + n, len - n, ", %.*s; --plot-by %s)", (int)(strlen(words) - 1),
			 words, ios_plot_by_name((enum ios_plot_by)by));
	}
	return 0;
}

/*
 * Write a rendered SVG (or the renderer's error, ret < 0) to --plot's file;
 * frees b. One place for the messages every --plot writer gives.
 */
int cli_write_svg(const char *path, int ret, struct ios_buf *b)
{
	FILE *f;

	if (ret) {
		fprintf(stderr, "iosched: --plot=%s: %s\n", path, strerror(-ret));
		ios_buf_free(b);
		return -1;
	}
	f = fopen(path, "w");
	if (f) {
		bool ok = fwrite(b->s, 1, b->len, f) == b->len;

		if (!fclose(f) && ok) {
			ios_buf_free(b);
			return 0;
		}
	}
	fprintf(stderr, "iosched: --plot=%s: %s\n", path, strerror(errno));
	ios_buf_free(b);
	return -1;
}

int cli_write_plot(const char *path, const struct ios_plot *p)
{
	struct ios_buf b;

	ios_buf_init(&b);
	return cli_write_svg(path, ios_plot_svg(p, &b), &b);
}

int cli_plot_run(const char *path, const struct cli_run_opts *o, const struct ios_run_result *res)
{
	char title[1024], sub[1024];
	struct ios_series lines;
	struct ios_plot_run pr = { NULL, &lines };
	struct ios_plot p = { title, sub, &pr, 1, cli_plot_lines(res->series, o->plot_by), false };
	int ret;

	cli_plot_title(o, title, sizeof(title));
	cli_plot_subtitle(o, res->scheduler, res->device, res->seed, sub, sizeof(sub));
	if (!res->series)
		return cli_write_plot(path, &(struct ios_plot){ title, sub, NULL, 0, NULL, false });
	if (cli_plot_group(res->series, o->plot_by, res->series, &lines, sub, sizeof(sub)))
		return -1;
	lines.iocost = res->iocost;	/* io.cost's panel (docs/cgroup-v2.md "Seeing it") */
	ret = cli_write_plot(path, &p);
	ios_series_free(&lines);
	return ret;
}
