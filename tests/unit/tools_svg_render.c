/*
 * Description: `iosched run --plot FILE.svg` writes an SVG that real tools
 * accept: xmllint finds it well-formed (when libxml2-utils is installed),
 * and rsvg-convert renders it to a PNG of the document's size whose content
 * is far from blank (its compressed size is several times that of a blank
 * page of the same size, rendered the same way), timeline included. A job
 * name full of markup and bytes that are not UTF-8 does not break the
 * document. `iosched
 * compare --plot` draws one row per column, renders the same way, and is
 * the same bytes with one worker or two. Bad --plot arguments give a clear
 * error and a non-zero exit. Skips (77) only when rsvg-convert is absent.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "harness.h"

static char dir[] = "/tmp/iosched-svg-XXXXXX";
static char bin[PATH_MAX];

static const char job[] =
	"[global]\ndirect=1\nsize=64m\nruntime=3\n"
	"[seq]\nrw=read\nbs=256k\n"
	"[rand <b>&x \"q\" \xff\xfe]\nrw=randread\nbs=4k\nnumjobs=2\n"
	"[writer]\nrw=write\nbs=64k\nstartdelay=1\n";

static bool have(const char *tool)
{
	char cmd[256], *out;
	int st;

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	out = t_run_cmd(cmd, &st);
	free(out);
	return st == 0;
}

static char *sh(int *st, const char *fmt, const char *a, const char *b)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return t_run_cmd(cmd, st);
}

/* Width and height from a PNG's IHDR; the file's size. */
static int png_info(const char *path, unsigned *w, unsigned *h, size_t *size)
{
	size_t len;
	unsigned char *p = (unsigned char *)t_read_file(path, &len);

	if (!p)
		return -1;
	if (len < 24 || memcmp(p, "\x89PNG\r\n\x1a\n", 8) || memcmp(p + 12, "IHDR", 4)) {
		free(p);
		return -1;
	}
	*w = (unsigned)p[16] << 24 | (unsigned)p[17] << 16 | (unsigned)p[18] << 8 | p[19];
	*h = (unsigned)p[20] << 24 | (unsigned)p[21] << 16 | (unsigned)p[22] << 8 | p[23];
	*size = len;
	free(p);
	return 0;
}

static int test_render(void)
{
	char path[512], *out, *svg;
	unsigned w, h, bw, bh;
	size_t size, blank, len;
	FILE *f;
	int st;

	snprintf(path, sizeof(path), "%s/job.fio", dir);
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs(job, f);
	T_ASSERT(fclose(f) == 0);
	out = sh(&st, "cd '%s' && '%s' run job.fio --plot plot.svg 2>&1 >/dev/null", dir, bin);
	T_ASSERT_MSG(st == 0, "iosched run --plot: exit %d: %s", st, out);
	free(out);
	snprintf(path, sizeof(path), "%s/plot.svg", dir);
	svg = t_read_file(path, &len);
	T_ASSERT(svg && len > 5000);
	/* four lanes in the timeline (seq, the two rand clones, writer) under the two panels */
	T_ASSERT(strstr(svg, "width=\"1200\" height=\"1216\""));
	T_ASSERT(strstr(svg, "Who owned the disk") && strstr(svg, "Sector of each dispatch"));
	/* escaped, and cut in the legend to its start and end */
	T_ASSERT(strstr(svg, ">rand &lt;b&gt;\xe2\x80\xa6&quot;q&quot; ??.1</text>"));
	free(svg);

	if (have("xmllint")) {
		out = sh(&st, "cd '%s' && xmllint --noout plot.svg 2>&1%s", dir, "");
		T_ASSERT_MSG(st == 0 && !*out, "xmllint: exit %d: %s", st, out);
		free(out);
	} else {
		fprintf(stderr, "xmllint not installed (libxml2-utils): well-formedness not checked\n");
	}

	out = sh(&st, "cd '%s' && rsvg-convert -f png -o plot.png plot.svg 2>&1%s", dir, "");
	T_ASSERT_MSG(st == 0, "rsvg-convert: exit %d: %s", st, out);
	free(out);
	snprintf(path, sizeof(path), "%s/plot.png", dir);
	T_ASSERT_EQ(png_info(path, &w, &h, &size), 0);
	T_ASSERT_EQ(w, 1200);
	T_ASSERT_EQ(h, 1216);

	/* the same page with nothing on it, through the same renderer */
	snprintf(path, sizeof(path), "%s/blank.svg", dir);
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	      "width=\"1200\" height=\"1216\"><rect width=\"1200\" height=\"1216\" fill=\"#ffffff\"/>"
	      "</svg>\n", f);
	T_ASSERT(fclose(f) == 0);
	out = sh(&st, "cd '%s' && rsvg-convert -f png -o blank.png blank.svg 2>&1%s", dir, "");
	T_ASSERT_MSG(st == 0, "rsvg-convert: exit %d: %s", st, out);
	free(out);
	snprintf(path, sizeof(path), "%s/blank.png", dir);
	T_ASSERT_EQ(png_info(path, &bw, &bh, &blank), 0);
	T_ASSERT_MSG(size > 8 * blank && size > 20000, "plot.png %zu bytes, blank page %zu", size,
		     blank);
	return T_PASS;
}

/* Check @svg in the work directory with xmllint and rsvg-convert; its PNG is @w x @h. */
static int check_svg(const char *svg, unsigned want_w, unsigned want_h)
{
	char path[512], *out;
	unsigned w, h;
	size_t size;
	int st;

	if (have("xmllint")) {
		out = sh(&st, "cd '%s' && xmllint --noout '%s' 2>&1", dir, svg);
		T_ASSERT_MSG(st == 0 && !*out, "xmllint %s: exit %d: %s", svg, st, out);
		free(out);
	}
	out = sh(&st, "cd '%s' && rsvg-convert -f png -o out.png '%s' 2>&1", dir, svg);
	T_ASSERT_MSG(st == 0, "rsvg-convert %s: exit %d: %s", svg, st, out);
	free(out);
	snprintf(path, sizeof(path), "%s/out.png", dir);
	T_ASSERT_EQ(png_info(path, &w, &h, &size), 0);
	T_ASSERT_EQ(w, want_w);
	T_ASSERT_EQ(h, want_h);
	T_ASSERT(size > 20000);
	return T_PASS;
}

static int test_compare(void)
{
	char path[512], *out, *a, *b;
	size_t la, lb;
	int st;

	out = sh(&st, "cd '%s' && '%s' compare job.fio --schedulers noop,deadline:fifo_batch=4 "
		 "-j1 --plot c1.svg 2>&1 >/dev/null", dir, bin);
	T_ASSERT_MSG(st == 0, "compare --plot: exit %d: %s", st, out);
	free(out);
	out = sh(&st, "cd '%s' && '%s' compare job.fio --schedulers noop,deadline:fifo_batch=4 "
		 "-j2 --plot c2.svg 2>&1 >/dev/null", dir, bin);
	T_ASSERT_MSG(st == 0, "compare --plot: exit %d: %s", st, out);
	free(out);
	snprintf(path, sizeof(path), "%s/c1.svg", dir);
	a = t_read_file(path, &la);
	snprintf(path, sizeof(path), "%s/c2.svg", dir);
	b = t_read_file(path, &lb);
	T_ASSERT(a && b);
	T_ASSERT(la == lb && !memcmp(a, b, la));
	/*
	 * a row per column, named as written; two rows of 300 px, a timeline
	 * each (deadline's one lane of rounds, noop's none) and compare's
	 * latency panel (280 px a row: 50 of room, 190 tall, 40 of axis labels,
	 * so the timeline's heading no longer sits on its labels)
	 */
	T_ASSERT(strstr(a, ">noop</text>") && strstr(a, ">deadline:fifo_batch=4</text>"));
	T_ASSERT(strstr(a, "width=\"1320\" height=\"1825\""));
	T_ASSERT(strstr(a, ">rounds</text>") && strstr(a, ">no slices: "));
	free(a);
	free(b);
	return check_svg("c1.svg", 1320, 1825);
}

static int test_bad_arguments(void)
{
	char *out;
	int st;

	out = sh(&st, "cd '%s' && '%s' run job.fio --plot 2>&1", dir, bin);
	T_ASSERT_MSG(st == 2 && strstr(out, "--plot: missing its value"), "exit %d: %s", st, out);
	free(out);
	/* said before the run (it used to fail with exit 1 after the report) */
	out = sh(&st, "cd '%s' && '%s' run job.fio --plot=nodir/p.svg 2>&1", dir, bin);
	T_ASSERT_MSG(st == 2 && strstr(out, "--plot 'nodir/p.svg' cannot be created: 'nodir': "
				       "No such file or directory") && !strstr(out, "Run status"),
		     "exit %d: %s", st, out);
	free(out);
	out = sh(&st, "cd '%s' && '%s' compare job.fio --schedulers noop --plot= 2>&1", dir, bin);
	T_ASSERT_MSG(st == 2 && strstr(out, "--plot: empty value"), "exit %d: %s", st, out);
	free(out);
	return T_PASS;
}

int main(void)
{
	int ret;

	if (!have("rsvg-convert")) {
		fprintf(stderr, "rsvg-convert not installed (Debian package librsvg2-bin)\n");
		return T_SKIP;
	}
	if (!realpath(t_iosched_bin(), bin) || !mkdtemp(dir)) {
		perror(t_iosched_bin());
		return T_FAIL;
	}
	ret = T_RUN(test_render, test_compare, test_bad_arguments);
	if (ret == T_PASS) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", dir);
	}
	return ret;
}
