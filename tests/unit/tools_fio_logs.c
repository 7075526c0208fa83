/*
 * Description: fio's own log tools read iosched's logs. fio2gnuplot (from
 * Debian's fio package) parses the per-I/O and windowed bw, iops and clat
 * logs of a run without error, and what it computed agrees with the files:
 * its value count is every line after time 0 (it drops time 0 itself) and
 * its average is their mean. When gnuplot is installed, fio_generate_plots
 * also turns the logs into its five SVG graphs with no warning beyond the
 * one its own script always causes. Skips (77) without fio2gnuplot.
 */
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "harness.h"

static char dir[] = "/tmp/iosched-fiotools-XXXXXX";

static const char job[] =
	"[global]\ndirect=1\nsize=8m\nbs=4k\nruntime=2\nioengine=libaio\niodepth=4\n"
	"[seq]\nrw=read\nwrite_bw_log=seq\nwrite_iops_log=seq\nwrite_lat_log=seq\n"
	"[rand]\nrw=randread\nwrite_bw_log=rand\nwrite_iops_log=rand\nwrite_lat_log=rand\n"
	"log_avg_msec=50\nlog_offset=1\n";

static bool have(const char *tool)
{
	char cmd[256];
	int st;
	char *out;

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	out = t_run_cmd(cmd, &st);
	free(out);
	return st == 0;
}

/* Lines with time > 0 in @files (space-separated), their count and value sum. */
static int count_lines(const char *files, size_t *n, double *sum)
{
	char buf[1024], *p, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", files);
	*n = 0;
	*sum = 0;
	for (p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		char path[512], *text, *l, *nl;
		size_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, p);
		text = t_read_file(path, &len);
		if (!text)
			return -1;
		for (l = text; (nl = strchr(l, '\n')); l = nl + 1) {
			unsigned long long t, v;

			if (sscanf(l, "%llu, %llu,", &t, &v) != 2) {
				free(text);
				return -1;
			}
			if (t > 0) {
				(*n)++;
				*sum += (double)v;
			}
		}
		free(text);
	}
	return 0;
}

/* Run fio2gnuplot with @args in the log directory; check its .global against @files. */
static int check_fio2gnuplot(const char *args, const char *outname, const char *files)
{
	char cmd[1024], path[512], *out, *global;
	size_t n, len;
	double sum, avg = -1;
	unsigned long count = 0;
	int st;

	snprintf(cmd, sizeof(cmd), "cd '%s' && fio2gnuplot %s 2>&1", dir, args);
	out = t_run_cmd(cmd, &st);
	T_ASSERT(out);
	T_ASSERT_MSG(st == 0 && !strstr(out, "Traceback") && !strstr(out, "Error"),
		     "fio2gnuplot %s: exit %d:\n%s", args, st, out);
	free(out);
	snprintf(path, sizeof(path), "%s/%s.global", dir, outname);
	global = t_read_file(path, &len);
	T_ASSERT_MSG(global, "no %s", path);
	T_ASSERT(sscanf(strstr(global, "avg=") ? strstr(global, "avg=") : "", "avg=%lf", &avg) == 1);
	T_ASSERT(sscanf(strstr(global, "values_count=") ? strstr(global, "values_count=") : "",
			"values_count=%lu", &count) == 1);
	free(global);
	T_ASSERT_EQ(count_lines(files, &n, &sum), 0);
	T_ASSERT(n > 10);
	T_ASSERT_EQ(count, n);
	T_ASSERT_NEAR(avg, sum / (double)n, 0.01);
	return T_PASS;
}

/* Run iosched on the job in the temporary directory: the logs go there. */
static int make_logs(void)
{
	char cmd[8192], bin[4096], *out;
	FILE *f;
	int st;

	/* the command runs in the log directory: the binary's path must not be relative */
	T_ASSERT_MSG(realpath(t_iosched_bin(), bin), "%s not found", t_iosched_bin());
	snprintf(cmd, sizeof(cmd), "%s/job.fio", dir);
	f = fopen(cmd, "w");
	T_ASSERT(f);
	fputs(job, f);
	T_ASSERT(fclose(f) == 0);
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' run job.fio 2>&1 >/dev/null", dir, bin);
	out = t_run_cmd(cmd, &st);
	T_ASSERT_MSG(st == 0, "iosched run: exit %d: %s", st, out ? out : "");
	free(out);
	return T_PASS;
}

static int test_fio2gnuplot(void)
{
	if (!have("fio2gnuplot")) {
		fprintf(stderr, "fio2gnuplot not installed (Debian package fio)\n");
		return T_SKIP;
	}
	/* fio2gnuplot looks for *_bw.log, then falls back to per-job names */
	if (check_fio2gnuplot("-b", "result", "rand_bw.2.log seq_bw.1.log") != T_PASS)
		return T_FAIL;
	if (check_fio2gnuplot("-i", "result", "rand_iops.2.log seq_iops.1.log") != T_PASS)
		return T_FAIL;
	/* -p names the output after the pattern: '*_clat.*.log' gives "_clat." */
	return check_fio2gnuplot("-p '*_clat.*.log'", "_clat.", "rand_clat.2.log seq_clat.1.log");
}

static int test_fio_generate_plots(void)
{
	static const char *const kinds[] = { "lat", "clat", "slat", "iops", "bw" };
	char cmd[1024], *out, *l, *nl;
	int st;

	if (!have("fio_generate_plots") || !have("gnuplot")) {
		fprintf(stderr, "fio_generate_plots or gnuplot not installed: not checked\n");
		return T_SKIP;
	}
	snprintf(cmd, sizeof(cmd), "cd '%s' && fio_generate_plots iosched 2>&1 >/dev/null", dir);
	out = t_run_cmd(cmd, &st);
	T_ASSERT(out);
	T_ASSERT_MSG(st == 0, "fio_generate_plots: exit %d:\n%s", st, out);
	/*
	 * The script itself sets "mxtics 0", which gnuplot warns about for
	 * every graph whatever the data; any other warning is about our files.
	 */
	for (l = out; (nl = strchr(l, '\n')); l = nl + 1) {
		*nl = '\0';
		T_ASSERT_MSG(!strstr(l, "warning") || strstr(l, "Expecting number of intervals"),
			     "gnuplot: %s", l);
		T_ASSERT_MSG(!strstr(l, "rror"), "gnuplot: %s", l);
	}
	free(out);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(kinds); i++) {
		struct stat sb;
		char path[512];

		snprintf(path, sizeof(path), "%s/iosched-%s.svg", dir, kinds[i]);
		T_ASSERT_MSG(stat(path, &sb) == 0 && sb.st_size > 10000, "%s missing or small", path);
	}
	return T_PASS;
}

int main(void)
{
	int ret;

	if (!mkdtemp(dir)) {
		perror(dir);
		return T_FAIL;
	}
	ret = make_logs();
	if (ret == T_PASS)
		ret = T_RUN(test_fio2gnuplot, test_fio_generate_plots);
	if (ret == T_PASS || ret == T_SKIP) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", dir);
	}
	return ret;
}
