/*
 * sweep merge's files beyond the table (docs/sweep.md): --plot METRIC
 * --plot-dir D writes D/METRIC-by-AXIS.svg for each axis (the drawing is
 * the library's, ios_sweep_plot_svg), and no output of merge may be a file
 * of the plan (its manifest, an input, a result) or land in its
 * directories.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "iosched/sweep.h"

static bool swp_same(const struct stat *a, const char *path)
{
	struct stat b;

	return !stat(path, &b) && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* is @st a file of @dir/@sub (any entry)? */
static bool swp_in(const struct stat *st, const char *dir, const char *sub)
{
	char path[8192];
	DIR *d;
	struct dirent *de;
	bool hit = false;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	d = opendir(path);
	if (!d)
		return false;
	while (!hit && (de = readdir(d))) {
		char fp[8192 + 256];

		if (de->d_name[0] == '.')
			continue;
		snprintf(fp, sizeof(fp), "%s/%s", path, de->d_name);
		hit = swp_same(st, fp);
	}
	closedir(d);
	return hit;
}

int cli_sweep_output_check(const char *dir, const char *what, const char *path, bool is_dir)
{
	static const char *const subs[] = { ".", "inputs", "results" };
	struct stat st;
	char p[8192];

	if (stat(path, &st))
		return errno == ENOENT ? 0 : (fprintf(stderr, "iosched: sweep merge: %s %s: %s\n",
						      what, path, strerror(errno)), -1);
	if (is_dir) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "iosched: sweep merge: %s %s: exists and is not a "
				"directory\n", what, path);
			return -1;
		}
		for (size_t i = 0; i < IOS_ARRAY_SIZE(subs); i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, subs[i]);
			if (swp_same(&st, p)) {
				fprintf(stderr, "iosched: sweep merge: %s %s: is the plan's %s: "
					"refused (plots go outside the plan's directories)\n", what,
					path, i ? subs[i] : "directory");
				return -1;
			}
		}
		return 0;
	}
	snprintf(p, sizeof(p), "%s/manifest", dir);
	if (swp_same(&st, p) || swp_in(&st, dir, "inputs") || swp_in(&st, dir, "results")) {
		fprintf(stderr, "iosched: sweep merge: %s %s: is a file of the plan (its manifest, "
			"an input or a result): refused, never written over\n", what, path);
		return -1;
	}
	return 0;
}

/* "slice_idle" -> "slice_idle"; anything but [A-Za-z0-9._-] becomes '_' */
static void swp_name(char *buf, size_t len, const char *metric, const char *axis)
{
	size_t n = (size_t)snprintf(buf, len, "%s-by-", metric);

	for (const char *s = axis; *s && n + 1 < len; s++, n++)
		buf[n] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			 (*s >= '0' && *s <= '9') || *s == '.' || *s == '-' || *s == '_' ? *s : '_';
	snprintf(buf + n, len - n, ".svg");
}

/* one plot file: 0, or -1 after saying why */
static int swp_write(const char *path, const struct ios_buf *b)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fwrite(b->s, 1, b->len, f) == b->len;

	if (f && fclose(f))
		ok = false;
	if (!ok)
		fprintf(stderr, "iosched: sweep merge: --plot-dir: writing %s: %s\n", path,
			strerror(errno));
	return ok ? 0 : -1;
}

int cli_sweep_plots(const char *dir, const struct ios_sweep_manifest *m, const double *metrics,
		    const unsigned char *state, const char *metric, const char *plot_dir,
		    const char *const *at, size_t nr_at)
{
	struct ios_sweep_axes a;
	struct ios_err e = { 0 };
	size_t *held = NULL, plots = 0;
	int mi = ios_sweep_metric_find(metric), rc = CLI_EXIT_USAGE;

	if (mi < 0) {
		fprintf(stderr, "iosched: sweep merge: --plot %s: no such metric (allowed:", metric);
		for (int i = 0; i < IOS_SWEEP_NR_METRICS; i++)
			fprintf(stderr, "%s %s", i ? "," : "", ios_sweep_metric_names[i]);
		fprintf(stderr, ")\n");
		return CLI_EXIT_USAGE;
	}
	if (!plot_dir) {
		fprintf(stderr, "iosched: sweep merge: --plot %s: give --plot-dir D (one SVG per "
			"axis goes there)\n", metric);
		return CLI_EXIT_USAGE;
	}
	if (ios_sweep_axes_parse(m, &a, &e)) {
		fprintf(stderr, "iosched: sweep merge: %s/%s\n", dir, e.msg);
		return e.code == -ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	held = calloc(a.nr, sizeof(*held));
	if (!held) {
		fprintf(stderr, "iosched: out of memory\n");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < nr_at; i++)
		if (ios_sweep_axes_hold(&a, at[i], held, &e)) {
			fprintf(stderr, "iosched: sweep merge: %s\n", e.msg);
			goto out;
		}
	if (cli_sweep_output_check(dir, "--plot-dir", plot_dir, true))
		goto out;
	if (mkdir(plot_dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "iosched: sweep merge: --plot-dir %s: %s\n", plot_dir, strerror(errno));
		goto out;
	}
	rc = CLI_EXIT_FAIL;
	for (size_t x = 0; x < a.nr; x++) {
		struct ios_buf svg, miss;
		char name[256], path[8192];
		int ret;

		if (!ios_sweep_axes_plotted(&a, x)) {
			if (x != a.sched)
				fprintf(stderr, "iosched: sweep merge: note: axis %s has one value: "
					"no plot of it\n", a.names[x]);
			continue;
		}
		swp_name(name, sizeof(name), ios_sweep_metric_names[mi], a.names[x]);
		snprintf(path, sizeof(path), "%s/%s", plot_dir, name);
		if (cli_sweep_output_check(dir, "--plot-dir", path, false))
			goto out;
		ios_buf_init(&svg);
		ios_buf_init(&miss);
		ret = ios_sweep_plot_svg(m, &a, metrics, state, mi, x, held, &svg, &miss);
		if (!ret && miss.len)
			fprintf(stderr, "iosched: sweep merge: %s: missing (no seed done, a gap): "
				"%s\n", path, miss.s);
		if (ret)
			fprintf(stderr, "iosched: out of memory\n");
		else
			ret = swp_write(path, &svg);
		ios_buf_free(&svg);
		ios_buf_free(&miss);
		if (ret)
			goto out;
		fprintf(stderr, "iosched: sweep merge: wrote %s\n", path);
		plots++;
	}
	if (!plots)
		fprintf(stderr, "iosched: sweep merge: note: --plot: no axis but the schedulers: "
			"nothing to plot\n");
	rc = 0;
out:
	free(held);
	ios_sweep_axes_free(&a);
	return rc;
}
