/*
 * Description: the plot series and the SVG plot. Series keep every byte
 * when their buckets widen tenfold for long runs and stay within
 * IOS_SERIES_MAX_BUCKETS; a run's series add up to each job's reported
 * bytes, and recording them changes nothing in the report. The SVG is the
 * same bytes for the same run, escapes any job name (markup, quotes,
 * control bytes, invalid UTF-8), draws one bandwidth and one cumulative
 * line per job that did I/O and none for a job that did not, gives several
 * runs the same scales, and refuses a plot without series.
 */
#include <string.h>
#include "harness.h"
#include "iosched/plot.h"

static int test_series_coarsen(void)
{
	struct ios_series s;
	uint64_t sum = 0;

	T_ASSERT_EQ(ios_series_init(&s, 2), 0);
	T_ASSERT_U64_EQ(s.bucket_ns, 1000000);
	for (uint64_t t = 0; t < 20000; t++) {
		T_ASSERT_EQ(ios_series_add(&s, t % 2, t * 1000000 + 5, t + 1), 0);
		sum += t + 1;
	}
	/* 20 s of 1 ms buckets is past 5000: 10 ms buckets */
	T_ASSERT_U64_EQ(s.bucket_ns, 10000000);
	T_ASSERT(s.jobs[0].len <= IOS_SERIES_MAX_BUCKETS && s.jobs[1].len <= IOS_SERIES_MAX_BUCKETS);
	T_ASSERT_U64_EQ(s.jobs[0].total + s.jobs[1].total, sum);
	{
		uint64_t b = 0;

		for (size_t i = 0; i < s.jobs[0].len; i++)
			b += s.jobs[0].bytes[i];
		T_ASSERT_U64_EQ(b, s.jobs[0].total);
		/* bucket 0 of 10 ms holds the adds at 0, 2, 4, 6, 8 ms: 1 + 3 + 5 + 7 + 9 */
		T_ASSERT_U64_EQ(s.jobs[0].bytes[0], 25);
	}
	/* one add a day later: widths grow until it fits, nothing is lost */
	T_ASSERT_EQ(ios_series_add(&s, 1, 86400ULL * 1000000000, 7), 0);
	T_ASSERT(86400ULL * 1000000000 / s.bucket_ns < IOS_SERIES_MAX_BUCKETS);
	T_ASSERT_U64_EQ(s.jobs[0].total + s.jobs[1].total, sum + 7);
	T_ASSERT(s.jobs[1].len <= IOS_SERIES_MAX_BUCKETS);
	ios_series_free(&s);
	return T_PASS;
}

static const char job[] =
	"[global]\ndirect=1\nsize=32m\nbs=64k\nruntime=2\n"
	"[seq]\nrw=read\nexitall\n"
	"[rand <&\"'>]\nrw=randrw\nbs=4k\nnumjobs=2\n"
	/* still in its ramp_time when seq's exitall stops everyone: no I/O counted */
	"[ramp]\nrw=read\nramp_time=5\n";

static int run(const char *text, bool series, struct ios_run_result *res, struct ios_jobfile *jf)
{
	struct ios_job_parse_opts po;
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };

	ios_job_parse_opts_init(&po);
	memset(jf, 0, sizeof(*jf));
	if (ios_job_parse_buf("plot.fio", text, strlen(text), &po, jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return -1;
	}
	cfg.seed = 5;
	cfg.record_series = series;
	if (ios_run(jf, &cfg, res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		return -1;
	}
	return 0;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static int test_run_series_and_svg(void)
{
	struct ios_run_result r1, r2;
	struct ios_jobfile j1, j2;
	struct ios_buf a, b;
	const struct ios_series *s;

	T_ASSERT_EQ(run(job, true, &r1, &j1), 0);
	T_ASSERT_EQ(run(job, false, &r2, &j2), 0);
	T_ASSERT(r1.series && !r2.series);
	s = r1.series;
	T_ASSERT_EQ(s->nr_jobs, 4);
	T_ASSERT_U64_EQ(s->end_ns, r1.sim_end_ns);
	T_ASSERT(!strcmp(s->jobs[0].label, "seq"));
	T_ASSERT(!strcmp(s->jobs[1].label, "rand <&\"'>.0"));
	T_ASSERT(!strcmp(s->jobs[2].label, "rand <&\"'>.1"));
	for (size_t j = 0; j < 4; j++)
		T_ASSERT_U64_EQ(s->jobs[j].total, r1.jobs[j].dir[0].io_bytes + r1.jobs[j].dir[1].io_bytes);
	T_ASSERT(s->jobs[0].total > 0 && s->jobs[1].total > 0);

	/* recording series does not touch the simulation or the report */
	ios_buf_init(&a);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_report_json(&r1, &a), 0);
	T_ASSERT_EQ(ios_report_json(&r2, &b), 0);
	T_ASSERT(a.len == b.len && !memcmp(a.s, b.s, a.len));
	ios_buf_free(&a);
	ios_buf_free(&b);

	{
		struct ios_plot_run pr = { NULL, s };
		struct ios_plot p = { "t <1> & \"2\"", "sub\x01title \xff", &pr, 1, NULL, false };
		size_t lines = 0;

		ios_buf_init(&a);
		ios_buf_init(&b);
		T_ASSERT_EQ(ios_plot_svg(&p, &a), 0);
		T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
		T_ASSERT(a.len == b.len && !memcmp(a.s, b.s, a.len));
		T_ASSERT(!strncmp(a.s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44));
		T_ASSERT(strstr(a.s, "</svg>\n") == a.s + a.len - 7);
		T_ASSERT(strstr(a.s, ">t &lt;1&gt; &amp; &quot;2&quot;</text>"));
		T_ASSERT(strstr(a.s, ">sub?title ?</text>"));
		T_ASSERT(strstr(a.s, ">rand &lt;&amp;&quot;&apos;&gt;.0</text>"));
		T_ASSERT(!strstr(a.s, "nan") && !strstr(a.s, "inf"));
		T_ASSERT(strstr(a.s, "Simulated time (s)"));
		T_ASSERT(strstr(a.s, "Bandwidth (") && strstr(a.s, "Data ("));
		for (size_t j = 0; j < 4; j++)
			lines += s->jobs[j].total ? 1 : 0;
		T_ASSERT_EQ(lines, 3);
		/* a bandwidth and a cumulative line per job with I/O */
		T_ASSERT_EQ(count(a.s, "<polyline"), 2 * lines);
		ios_buf_free(&a);
		ios_buf_free(&b);
	}
	ios_run_result_free(&r1);
	ios_run_result_free(&r2);
	ios_jobfile_free(&j1);
	ios_jobfile_free(&j2);
	return T_PASS;
}

/* Two runs, one ten times faster: one scale for both rows. */
static int test_runs_share_scales(void)
{
	struct ios_series fast, slow;
	struct ios_plot_run pr[2] = { { "fast", &fast }, { "slow", &slow } };
	struct ios_plot p = { "two", NULL, pr, 2, NULL, false };
	struct ios_buf b;

	T_ASSERT_EQ(ios_series_init(&fast, 1), 0);
	T_ASSERT_EQ(ios_series_init(&slow, 1), 0);
	T_ASSERT_EQ(ios_series_set_label(&fast, 0, "j"), 0);
	T_ASSERT_EQ(ios_series_set_label(&slow, 0, "j"), 0);
	/* 100 MiB/s and 10 MiB/s for a second, in 10 ms steps */
	for (uint64_t t = 0; t < 1000; t += 10) {
		T_ASSERT_EQ(ios_series_add(&fast, 0, t * 1000000, 1ULL << 20), 0);
		T_ASSERT_EQ(ios_series_add(&slow, 0, t * 1000000, 1ULL << 20 >> 3), 0);
	}
	fast.end_ns = slow.end_ns = 1000000000;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
	/* the 100 MiB/s bandwidth axis and the 100 MiB data axis in both rows */
	T_ASSERT_EQ(count(b.s, ">Bandwidth (MiB/s)</text>"), 2);
	T_ASSERT_EQ(count(b.s, ">Data (MiB)</text>"), 2);
	T_ASSERT_EQ(count(b.s, ">100</text>"), 4);
	T_ASSERT(strstr(b.s, ">fast</text>") && strstr(b.s, ">slow</text>"));
	T_ASSERT_EQ(count(b.s, "<polyline"), 4);
	ios_buf_free(&b);

	/* no run, or a run without series */
	p.nr_runs = 0;
	T_ASSERT_EQ(ios_plot_svg(&p, &b), -EINVAL);
	pr[1].series = NULL;
	p.nr_runs = 2;
	T_ASSERT_EQ(ios_plot_svg(&p, &b), -EINVAL);
	ios_buf_free(&b);
	ios_series_free(&fast);
	ios_series_free(&slow);
	return T_PASS;
}

/* Many jobs: every one drawn, the legend says how many it left out. */
static int test_many_jobs(void)
{
	struct ios_series s;
	struct ios_plot_run pr = { NULL, &s };
	struct ios_plot p = { "many", NULL, &pr, 1, NULL, false };
	struct ios_buf b;

	T_ASSERT_EQ(ios_series_init(&s, 60), 0);
	for (size_t j = 0; j < 60; j++) {
		char l[32];

		snprintf(l, sizeof(l), "job%zu", j);
		T_ASSERT_EQ(ios_series_set_label(&s, j, l), 0);
		T_ASSERT_EQ(ios_series_add(&s, j, j * 1000000, 4096 * (j + 1)), 0);
	}
	s.end_ns = 100000000;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
	T_ASSERT_EQ(count(b.s, "<polyline"), 120);
	T_ASSERT(strstr(b.s, " more</text>"));
	T_ASSERT(strstr(b.s, "stroke-dasharray"));	/* past ten colours */
	ios_buf_free(&b);
	ios_series_free(&s);
	return T_PASS;
}

/* Long names keep their start and end; a multi-byte character is never split. */
static int test_legend_names(void)
{
	struct ios_series s;
	struct ios_plot_run pr = { NULL, &s };
	struct ios_plot p = { "names", NULL, &pr, 1, NULL, false };
	struct ios_buf b;
	char name[128] = "", want[128] = "";

	for (int i = 0; i < 30; i++)
		strcat(name, "\xc3\xa9");	/* e acute, 2 bytes */
	strcat(name, "-7");		/* 32 characters */
	T_ASSERT_EQ(ios_series_init(&s, 2), 0);
	T_ASSERT_EQ(ios_series_set_label(&s, 0, name), 0);
	T_ASSERT_EQ(ios_series_set_label(&s, 1, "short"), 0);
	T_ASSERT_EQ(ios_series_add(&s, 0, 0, 4096), 0);
	T_ASSERT_EQ(ios_series_add(&s, 1, 0, 4096), 0);
	s.end_ns = 10000000;
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
	/* 17 characters beside the total: 8 from the start, the ellipsis, 8 from the end */
	strcat(want, ">");
	for (int i = 0; i < 8; i++)
		strcat(want, "\xc3\xa9");
	strcat(want, "\xe2\x80\xa6");
	for (int i = 0; i < 6; i++)
		strcat(want, "\xc3\xa9");
	strcat(want, "-7</text>");
	T_ASSERT_MSG(strstr(b.s, want), "no '%s' in the legend", want);
	T_ASSERT(strstr(b.s, ">short</text>"));
	ios_buf_free(&b);
	ios_series_free(&s);
	return T_PASS;
}

/*
 * A buffered writer's bandwidth is drawn when its bytes reach the disk:
 * when writeback completes them at the time of the copies, the picture is
 * the plain one but for the title; when writeback comes later, the
 * bandwidth panel moves and the cumulative panel (fio's count) does not.
 */
static int bw_svg(int mode, struct ios_buf *b)	/* 0: plain, 1: disk at copy time, 2: later */
{
	struct ios_series s;
	struct ios_plot_run pr = { NULL, &s };
	struct ios_plot p = { "bw", NULL, &pr, 1, NULL, false };
	int ret;

	if (ios_series_init(&s, 2) || ios_series_set_label(&s, 0, "writer") ||
	    ios_series_set_label(&s, 1, "reader"))
		return -1;
	for (uint64_t ms = 0; ms < 1000; ms += 10) {
		if (ios_series_add(&s, 1, ms * 1000000, 40960))
			return -1;
	}
	if (ios_series_add(&s, 0, 5000000, 8 << 20))
		return -1;
	if (mode && (ios_series_add_cached(&s, 0, 5000000, 8 << 20) ||
		     ios_series_add_disk(&s, 0, mode == 1 ? 5000000 : 705000000, 8 << 20)))
		return -1;
	s.end_ns = 1000000000;
	ios_buf_init(b);
	ret = ios_plot_svg(&p, b);
	ios_series_free(&s);
	return ret;
}

static int test_buffered_at_disk_time(void)
{
	struct ios_buf plain, same, later;
	const char *note = ", buffered writes at disk time";
	char *cut, *cum_p, *cum_l;

	T_ASSERT_EQ(bw_svg(0, &plain), 0);
	T_ASSERT_EQ(bw_svg(1, &same), 0);
	T_ASSERT_EQ(bw_svg(2, &later), 0);
	T_ASSERT(!strstr(plain.s, note));
	cut = strstr(same.s, note);
	T_ASSERT(cut);
	memmove(cut, cut + strlen(note), strlen(cut + strlen(note)) + 1);
	T_ASSERT_MSG(!strcmp(plain.s, same.s), "disk time equal to copy time drew another picture");
	T_ASSERT(strstr(later.s, note));
	/* the bandwidth panels differ, the cumulative panels are the same */
	cum_p = strstr(plain.s, "Data moved per job");
	cum_l = strstr(later.s, "Data moved per job");
	T_ASSERT(cum_p && cum_l);
	T_ASSERT(strncmp(plain.s, later.s, (size_t)(cum_p - plain.s)) != 0);
	{
		/* from the cumulative panel's title to the legend: the same */
		const char *ep = strstr(cum_p, "Jobs"), *el = strstr(cum_l, "Jobs");

		T_ASSERT(ep && el && ep - cum_p == el - cum_l);
		T_ASSERT(!strncmp(cum_p, cum_l, (size_t)(ep - cum_p)));
	}
	ios_buf_free(&plain);
	ios_buf_free(&same);
	ios_buf_free(&later);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_series_coarsen, test_run_series_and_svg, test_runs_share_scales,
		     test_many_jobs, test_legend_names, test_buffered_at_disk_time);
}
