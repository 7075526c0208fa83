/*
 * Description: the plot's timeline (include/iosched/timeline.h). Two
 * direct sequential readers under CFQ take the disk in turns: the recorded
 * intervals alternate between their lanes, each turn lasts about a
 * slice_sync (100 ms) over 1 s, the idle windows between them last at most
 * slice_idle (8 ms), and the exact totals match the intervals. Recording
 * changes nothing in the report. The SVG with the timeline is well-formed
 * (xmllint, when installed), the same bytes twice, and has its lanes and
 * sector panel. 120 jobs draw PL_MAX_LANES lanes, the last shared; a long
 * run stays within IOS_TL_MAX_COLS columns and IOS_TL_ROWS bands, with
 * exact totals. One job bursting past ten times the next job's peak (and
 * four times its own median) clips the bandwidth axis and says so; a job
 * steadily ten times faster, or similar peaks, do not.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/plot.h"
#include "iosched/timeline.h"

static const char two_readers[] =
	"[global]\ndirect=1\nsize=256m\nbs=256k\nruntime=1\ntime_based\n"
	"[a]\nrw=read\n"
	"[b]\nrw=read\n";

static int run(const char *text, bool timeline, struct ios_run_result *res, struct ios_jobfile *jf)
{
	struct ios_job_parse_opts po;
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };

	ios_job_parse_opts_init(&po);
	memset(jf, 0, sizeof(*jf));
	if (ios_job_parse_buf("tl.fio", text, strlen(text), &po, jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return -1;
	}
	cfg.seed = 3;
	cfg.record_series = true;
	cfg.record_timeline = timeline;
	if (ios_run(jf, &cfg, res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		return -1;
	}
	return 0;
}

static bool have(const char *tool)
{
	char cmd[256], *out;
	int st;

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	out = t_run_cmd(cmd, &st);
	free(out);
	return st == 0;
}

static int test_cfq_two_readers(void)
{
	struct ios_run_result r1, r2;
	struct ios_jobfile j1, j2;
	const struct ios_timeline *tl;
	struct ios_buf a, b;
	uint64_t own[3] = { 0 }, idle[3] = { 0 }, turn_start = 0;
	size_t turns = 0, idles = 0, full_turns = 0;
	int prev = -1;

	T_ASSERT_EQ(run(two_readers, true, &r1, &j1), 0);
	T_ASSERT_EQ(run(two_readers, false, &r2, &j2), 0);
	T_ASSERT(r1.series && r1.series->timeline && r2.series && !r2.series->timeline);
	tl = r1.series->timeline;
	T_ASSERT_EQ(tl->nr_lanes, 3);
	T_ASSERT(tl->nr_log > 0 && tl->nr_log < IOS_TL_LOG);
	for (size_t i = 0; i < tl->nr_log; i++) {
		const struct ios_tl_interval *v = &tl->log[i];

		T_ASSERT(v->end_ns > v->start_ns && v->lane < 3);
		T_ASSERT(!i || v->start_ns >= tl->log[i - 1].end_ns);
		(v->idle ? idle : own)[v->lane] += v->end_ns - v->start_ns;
		if (v->idle) {
			/* CFQ idles at most slice_idle for the next request */
			T_ASSERT(v->end_ns - v->start_ns <= 8000000);
			idles++;
		}
		if ((int)v->lane != prev) {
			/* a turn of the other reader: the previous one lasted about a slice */
			if (prev >= 0 && turns >= 1) {
				uint64_t len = v->start_ns - turn_start;

				/* the run's end may cut the last one short */
				T_ASSERT(len <= 140000000);
				full_turns += len >= 90000000;
			}
			turn_start = v->start_ns;
			prev = (int)v->lane;
			turns++;
		}
	}
	/* 1 s of 100 ms slices, taken in turns */
	T_ASSERT(full_turns >= 7 && full_turns <= 10);
	T_ASSERT(idles >= 1);
	/* turns end because the slice ran out (sequential readers never run dry) */
	{
		size_t expired = 0;

		for (size_t i = 0; i < tl->nr_log; i++)
			expired += tl->log[i].reason == IOS_OWN_R_EXPIRED;
		T_ASSERT(expired >= 7);
	}
	T_ASSERT(tl->slices[0] >= 4 && tl->slices[1] >= 4);
	for (size_t l = 0; l < 3; l++) {
		T_ASSERT_U64_EQ(own[l], tl->own_ns[l]);
		T_ASSERT_U64_EQ(idle[l], tl->idle_ns[l]);
	}
	T_ASSERT(tl->dispatched[0] > 50 && tl->dispatched[1] > 50);
	T_ASSERT(tl->own_ns[0] + tl->own_ns[1] + tl->idle_ns[0] + tl->idle_ns[1] <= tl->end_ns);
	/*
	 * The scheduler's charge and the timeline agree on who had the disk,
	 * the timeline a little more: CFQ charges a slice from its first
	 * completion (slice_start), the timeline counts from set_active.
	 */
	for (size_t l = 0; l < 2; l++) {
		double ch = (double)r1.jobs[l].disk_time_ns, got = (double)(own[l] + idle[l]);

		T_ASSERT(got >= ch && got < 1.2 * ch);
	}

	/* recording the timeline does not touch the simulation or the report */
	ios_buf_init(&a);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_report_json(&r1, &a), 0);
	T_ASSERT_EQ(ios_report_json(&r2, &b), 0);
	T_ASSERT(a.len == b.len && !memcmp(a.s, b.s, a.len));
	ios_buf_free(&a);
	ios_buf_free(&b);

	{
		struct ios_plot_run pr = { NULL, r1.series };
		struct ios_plot p = { "two readers", "cfq", &pr, 1, NULL, false };
		char path[] = "/tmp/iosched-tl-XXXXXX";
		int fd, st;

		ios_buf_init(&a);
		ios_buf_init(&b);
		T_ASSERT_EQ(ios_plot_svg(&p, &a), 0);
		T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
		T_ASSERT(a.len == b.len && !memcmp(a.s, b.s, a.len));
		T_ASSERT(strstr(a.s, "Who owned the disk"));
		T_ASSERT(strstr(a.s, "Sector of each dispatch"));
		T_ASSERT(strstr(a.s, "width=\"1200\""));
		T_ASSERT(!strstr(a.s, "nan") && !strstr(a.s, "inf"));
		if (have("xmllint")) {
			char cmd[256], *out;

			fd = mkstemp(path);
			T_ASSERT(fd >= 0);
			T_ASSERT(write(fd, a.s, a.len) == (ssize_t)a.len);
			close(fd);
			snprintf(cmd, sizeof(cmd), "xmllint --noout %s 2>&1", path);
			out = t_run_cmd(cmd, &st);
			free(out);
			unlink(path);
			T_ASSERT_EQ(st, 0);
		}
		ios_buf_free(&a);
		ios_buf_free(&b);
	}
	ios_run_result_free(&r1);
	ios_run_result_free(&r2);
	ios_jobfile_free(&j1);
	ios_jobfile_free(&j2);
	return T_PASS;
}

/* A hand-filled series set with a timeline of @n jobs. */
static int fake(struct ios_series *s, size_t n, uint32_t *pids)
{
	char label[32];

	if (ios_series_init(s, n))
		return -1;
	for (size_t j = 0; j < n; j++) {
		snprintf(label, sizeof(label), "job%zu", j);
		pids[j] = 1000 + (uint32_t)j;
		if (ios_series_set_label(s, j, label))
			return -1;
	}
	s->timeline = calloc(1, sizeof(*s->timeline));
	return s->timeline && !ios_timeline_init(s->timeline, n, pids) ? 0 : -1;
}

static int test_many_jobs_and_long_runs(void)
{
	static uint32_t pids[120];
	const struct ios_owner_ops *ops = &ios_timeline_owner_ops;
	struct ios_series s;
	struct ios_timeline *tl;
	struct ios_request rq = { 0 };
	struct ios_ioc ioc = { 0 };
	struct ios_buf a;
	uint64_t t = 0, owned = 0;

	T_ASSERT_EQ(fake(&s, 120, pids), 0);
	tl = s.timeline;
	rq.ioc = &ioc;
	rq.nr_sectors = 128;
	/* 100 000 slices of 10 ms over 1000 s, on sectors up to 2^31 */
	for (uint64_t i = 0; i < 100000; i++) {
		uint32_t pid = 1000 + (uint32_t)(i % 120);

		ops->note(tl, t, pid, IOS_OWN_SLICE_START, 0);
		ioc.pid = pid;
		rq.sector = (i * 2654435761u) % (1ULL << 31);
		rq.dir = i % 3 == 0;
		ops->dispatch(tl, &rq, t + 1000);
		ops->note(tl, t + 8000000, pid, IOS_OWN_IDLE_START, 0);
		ops->note(tl, t + 10000000, pid, IOS_OWN_SLICE_END, IOS_OWN_R_EXPIRED);
		owned += 8000000;
		t += 10000000;
	}
	ios_timeline_finish(tl, t);
	s.end_ns = t;
	T_ASSERT_EQ(tl->err, 0);
	T_ASSERT(tl->nr_cols <= IOS_TL_MAX_COLS && tl->nr_cols > IOS_TL_MAX_COLS / 2);
	T_ASSERT(tl->max_sector > (1ULL << 30));
	T_ASSERT(tl->row_sectors * IOS_TL_ROWS >= (1ULL << 31) - 128);
	{
		uint64_t own = 0, idle = 0;

		for (size_t l = 0; l < tl->nr_lanes; l++) {
			own += tl->own_ns[l];
			idle += tl->idle_ns[l];
		}
		T_ASSERT_U64_EQ(own, owned);
		T_ASSERT_U64_EQ(idle, t - owned);
		T_ASSERT_EQ(tl->nr_log, IOS_TL_LOG);
	}
	for (size_t j = 0; j < 120; j++)
		T_ASSERT_EQ(ios_series_add(&s, j, j * 1000000, 4096), 0);
	{
		struct ios_plot_run pr = { NULL, &s };
		struct ios_plot p = { "many", NULL, &pr, 1, NULL, false };

		ios_buf_init(&a);
		T_ASSERT_EQ(ios_plot_svg(&p, &a), 0);
		/* 11 lanes of their own, then the 109 others in one */
		T_ASSERT(strstr(a.s, ">109 more</text>"));
		T_ASSERT(strstr(a.s, ">job0</text>"));
		/* bounded output: lanes merge runs, the scatter is at most one cell per 2 px */
		T_ASSERT(a.len < 4u << 20);
		ios_buf_free(&a);
	}
	ios_series_free(&s);
	return T_PASS;
}

static int test_clip(void)
{
	static uint32_t pids[3];
	struct ios_series s;
	struct ios_buf a;

	T_ASSERT_EQ(ios_series_init(&s, 3), 0);
	/*
	 * A buffered writer's burst of 440 MiB/s for 0.1 s into the page
	 * cache, then writeback at 40 MiB/s, beside readers at 5 MiB/s
	 */
	for (uint64_t ms = 0; ms < 4000; ms++) {
		T_ASSERT_EQ(ios_series_add(&s, 0, ms * 1000000, ms < 100 ? 440u << 10 : 40u << 10), 0);
		T_ASSERT_EQ(ios_series_add(&s, 1, ms * 1000000, 5u << 10), 0);
		T_ASSERT_EQ(ios_series_add(&s, 2, ms * 1000000, 4u << 10), 0);
	}
	s.end_ns = 4000000000ULL;
	(void)pids;
	{
		struct ios_plot_run pr = { NULL, &s };
		struct ios_plot p = { "clip", NULL, &pr, 1, NULL, false };

		ios_buf_init(&a);
		T_ASSERT_EQ(ios_plot_svg(&p, &a), 0);
		T_ASSERT(strstr(a.s, "windows, clipped ("));
		T_ASSERT(strstr(a.s, "Bandwidth, clipped (MiB/s)"));
		T_ASSERT(strstr(a.s, ">peak 430 MiB/s</text>"));
		T_ASSERT(!strstr(a.s, "Who owned the disk"));
		ios_buf_free(&a);
	}
	ios_series_free(&s);
	/* a job always ten times faster is no burst: the axis holds it */
	T_ASSERT_EQ(ios_series_init(&s, 2), 0);
	for (uint64_t ms = 0; ms < 1000; ms++) {
		T_ASSERT_EQ(ios_series_add(&s, 0, ms * 1000000, 60u << 10), 0);
		T_ASSERT_EQ(ios_series_add(&s, 1, ms * 1000000, 1u << 8), 0);
	}
	s.end_ns = 1000000000ULL;
	{
		struct ios_plot_run pr = { NULL, &s };
		struct ios_plot p = { "steady", NULL, &pr, 1, NULL, false };

		ios_buf_init(&a);
		T_ASSERT_EQ(ios_plot_svg(&p, &a), 0);
		T_ASSERT(!strstr(a.s, "clipped"));
		ios_buf_free(&a);
	}
	ios_series_free(&s);
	/* peaks within ten times of each other: the axis holds them all */
	T_ASSERT_EQ(ios_series_init(&s, 2), 0);
	for (uint64_t ms = 0; ms < 1000; ms++) {
		T_ASSERT_EQ(ios_series_add(&s, 0, ms * 1000000, 40u << 10), 0);
		T_ASSERT_EQ(ios_series_add(&s, 1, ms * 1000000, 5u << 10), 0);
	}
	s.end_ns = 1000000000ULL;
	{
		struct ios_plot_run pr = { NULL, &s };
		struct ios_plot p = { "noclip", NULL, &pr, 1, NULL, false };

		ios_buf_init(&a);
		T_ASSERT_EQ(ios_plot_svg(&p, &a), 0);
		T_ASSERT(!strstr(a.s, "clipped"));
		ios_buf_free(&a);
	}
	ios_series_free(&s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_cfq_two_readers, test_many_jobs_and_long_runs, test_clip);
}
