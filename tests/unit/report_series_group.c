/*
 * Description: plot series grouped by cgroup and by ioprio class and
 * level (series_group.h). A group's buckets and total are the sums of its
 * jobs'; the groups are labelled "/a (6 jobs)", "RT0", "BE4 (2
 * jobs)", "IDLE", cgroups in job order and classes RT, BE, IDLE by level;
 * auto groups by cgroup only above 10 jobs in two cgroups or more; an
 * unknown grouping is refused; the same run grouped twice draws the same
 * bytes; a real run's groups add up to its jobs' reported bytes; a buffered
 * writer's pages count for it (disk[]) when their writeback completes:
 * with end_fsync all it wrote, and nothing for an O_DIRECT writer.
 */
#include <string.h>
#include "harness.h"
#include "iosched/plot.h"
#include "iosched/request.h"
#include "iosched/series_group.h"

/* @n jobs; job j in cgroup "a" or "b" (j odd), class by j % 3, level j % 8 */
static int make(struct ios_series *s, size_t n)
{
	static const int cls[] = { IOS_IOPRIO_CLASS_BE, IOS_IOPRIO_CLASS_RT, IOS_IOPRIO_CLASS_IDLE };

	if (ios_series_init(s, n))
		return -1;
	for (size_t j = 0; j < n; j++) {
		char l[24];

		snprintf(l, sizeof(l), "j%zu", j);
		if (ios_series_set_label(s, j, l) ||
		    ios_series_set_group(s, j, j % 2 ? "b" : "a", cls[j % 3], (int)(j % 8)))
			return -1;
		for (uint64_t t = 0; t < 50 + j; t++)
			if (ios_series_add(s, j, t * 1000000 * (j + 1), 4096 * (j + 1)))
				return -1;
	}
	return 0;
}

static int test_cgroup_sums(void)
{
	struct ios_series s, g;
	uint64_t total = 0, a0 = 0;

	T_ASSERT_EQ(make(&s, 12), 0);
	T_ASSERT_EQ(ios_series_nr_cgroups(&s), 2);
	T_ASSERT_EQ(ios_series_aggregate(&s, IOS_PLOT_BY_CGROUP, &g), 0);
	T_ASSERT_EQ(g.nr_jobs, 2);
	T_ASSERT_U64_EQ(g.bucket_ns, s.bucket_ns);
	T_ASSERT_MSG(!strcmp(g.jobs[0].label, "/a (6 jobs)"), "%s", g.jobs[0].label);
	T_ASSERT_MSG(!strcmp(g.jobs[1].label, "/b (6 jobs)"), "%s", g.jobs[1].label);
	for (size_t j = 0; j < s.nr_jobs; j++) {
		total += s.jobs[j].total;
		if (!(j % 2) && s.jobs[j].len)
			a0 += s.jobs[j].bytes[0];
	}
	T_ASSERT_U64_EQ(g.jobs[0].total + g.jobs[1].total, total);
	T_ASSERT_U64_EQ(g.jobs[0].bytes[0], a0);
	for (size_t k = 0; k < 2; k++) {
		uint64_t b = 0, want = 0;

		for (size_t i = 0; i < g.jobs[k].len; i++)
			b += g.jobs[k].bytes[i];
		for (size_t j = k; j < s.nr_jobs; j += 2)
			want += s.jobs[j].total;
		T_ASSERT_U64_EQ(b, g.jobs[k].total);
		T_ASSERT_U64_EQ(want, g.jobs[k].total);
	}
	/* more than 10 jobs in 2 cgroups: auto is by cgroup */
	T_ASSERT_EQ(ios_plot_by_resolve(&s, IOS_PLOT_BY_AUTO), IOS_PLOT_BY_CGROUP);
	T_ASSERT_EQ(ios_plot_by_resolve(&s, IOS_PLOT_BY_CLASS), IOS_PLOT_BY_CLASS);
	{
		char w[128];

		ios_series_group_words(&s, IOS_PLOT_BY_AUTO, w, sizeof(w));
		T_ASSERT_MSG(!strcmp(w, "one line per cgroup (2 for 12 jobs)"), "%s", w);
	}
	ios_series_free(&g);
	ios_series_free(&s);
	return T_PASS;
}

static int test_class_labels_and_auto(void)
{
	struct ios_series s, g, c;
	uint64_t total = 0, sum = 0;

	/* 10 jobs: auto stays per job; the copy keeps every line */
	T_ASSERT_EQ(make(&s, 10), 0);
	T_ASSERT_EQ(ios_plot_by_resolve(&s, IOS_PLOT_BY_AUTO), IOS_PLOT_BY_JOB);
	T_ASSERT_EQ(ios_series_aggregate(&s, IOS_PLOT_BY_AUTO, &c), 0);
	T_ASSERT_EQ(c.nr_jobs, 10);
	T_ASSERT(!strcmp(c.jobs[3].label, "j3") && c.jobs[3].total == s.jobs[3].total);
	T_ASSERT(c.jobs[3].len == s.jobs[3].len &&
		 !memcmp(c.jobs[3].bytes, s.jobs[3].bytes, c.jobs[3].len * sizeof(uint64_t)));
	ios_series_free(&c);
	/*
	 * classes: j0 BE0, j1 RT1, j2 IDLE, j3 BE3, j4 RT4, j5 IDLE, j6 BE6,
	 * j7 RT7, j8 IDLE, j9 BE1: RT1 RT4 RT7 BE0 BE1 BE3 BE6 IDLE
	 */
	T_ASSERT_EQ(ios_series_aggregate(&s, IOS_PLOT_BY_CLASS, &g), 0);
	T_ASSERT_EQ(g.nr_jobs, 8);
	{
		static const char *const want[] = { "RT1", "RT4", "RT7", "BE0", "BE1", "BE3", "BE6",
						     "IDLE (3 jobs)" };

		for (size_t k = 0; k < 8; k++)
			T_ASSERT_MSG(!strcmp(g.jobs[k].label, want[k]), "%zu: %s, not %s", k,
				     g.jobs[k].label, want[k]);
	}
	for (size_t j = 0; j < s.nr_jobs; j++)
		total += s.jobs[j].total;
	for (size_t k = 0; k < g.nr_jobs; k++)
		sum += g.jobs[k].total;
	T_ASSERT_U64_EQ(sum, total);
	T_ASSERT_U64_EQ(g.jobs[7].total, s.jobs[2].total + s.jobs[5].total + s.jobs[8].total);
	/* a grouping that does not exist */
	T_ASSERT_EQ(ios_series_aggregate(&s, (enum ios_plot_by)42, &c), -EINVAL);
	T_ASSERT(!strcmp(ios_plot_by_name(IOS_PLOT_BY_CLASS), "class"));
	ios_series_free(&g);
	ios_series_free(&s);
	return T_PASS;
}

static int run(const char *text, struct ios_run_result *res, struct ios_jobfile *jf)
{
	struct ios_job_parse_opts po;
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };

	ios_job_parse_opts_init(&po);
	memset(jf, 0, sizeof(*jf));
	if (ios_job_parse_buf("group.fio", text, strlen(text), &po, jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return -1;
	}
	cfg.seed = 3;
	cfg.scheduler = "cfq-4.19";
	cfg.record_series = true;
	if (ios_run(jf, &cfg, res, &e)) {
		fprintf(stderr, "run: %s\n", e.msg);
		return -1;
	}
	return 0;
}

static const char job[] =
	"[global]\ndirect=1\nsize=4m\nbs=16k\nrw=randread\nruntime=1\ntime_based\n"
	"[x]\ncgroup=x\nnumjobs=6\nprioclass=2\nprio=2\n"
	"[y]\ncgroup=y\nnumjobs=6\nprioclass=2\nprio=6\n";

static int test_run_groups(void)
{
	struct ios_run_result r;
	struct ios_jobfile jf;
	struct ios_series g, k;
	struct ios_buf a, b;
	struct ios_plot_run pr = { NULL, &g };
	struct ios_plot p = { "t", NULL, &pr, 1, "cgroup", false };
	uint64_t x = 0, y = 0;

	T_ASSERT_EQ(run(job, &r, &jf), 0);
	T_ASSERT(r.series && r.series->nr_jobs == 12 && r.nr_jobs == 12);
	for (size_t j = 0; j < r.nr_jobs; j++) {
		uint64_t bytes = r.jobs[j].dir[0].io_bytes + r.jobs[j].dir[1].io_bytes;

		*(j < 6 ? &x : &y) += bytes;
		T_ASSERT(!strcmp(r.series->jobs[j].cgroup, j < 6 ? "x" : "y"));
		T_ASSERT_EQ(r.series->jobs[j].ioprio_level, j < 6 ? 2 : 6);
	}
	T_ASSERT(x > 0 && y > 0);
	T_ASSERT_EQ(ios_series_aggregate(r.series, IOS_PLOT_BY_AUTO, &g), 0);
	T_ASSERT_EQ(g.nr_jobs, 2);
	T_ASSERT(!strcmp(g.jobs[0].label, "/x (6 jobs)"));
	T_ASSERT_U64_EQ(g.jobs[0].total, x);
	T_ASSERT_U64_EQ(g.jobs[1].total, y);
	T_ASSERT_EQ(ios_series_aggregate(r.series, IOS_PLOT_BY_CLASS, &k), 0);
	T_ASSERT(k.nr_jobs == 2 && !strcmp(k.jobs[0].label, "BE2 (6 jobs)") &&
		 !strcmp(k.jobs[1].label, "BE6 (6 jobs)"));
	T_ASSERT_U64_EQ(k.jobs[0].total, x);
	ios_series_free(&k);
	/* the same groups draw the same bytes; the panels say what a line is */
	ios_buf_init(&a);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_plot_svg(&p, &a), 0);
	ios_series_free(&g);
	T_ASSERT_EQ(ios_series_aggregate(r.series, IOS_PLOT_BY_CGROUP, &g), 0);
	T_ASSERT_EQ(ios_plot_svg(&p, &b), 0);
	T_ASSERT(a.len == b.len && !memcmp(a.s, b.s, a.len));
	T_ASSERT(strstr(a.s, "Bandwidth per cgroup") && strstr(a.s, "/y (6 jobs)"));
	ios_buf_free(&a);
	ios_buf_free(&b);
	ios_series_free(&g);
	ios_run_result_free(&r);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static const char wjob[] =
	"[global]\nsize=8m\nbs=64k\nrw=write\nend_fsync=1\n"
	"[w1]\n[w2]\nsize=4m\n[direct]\ndirect=1\n";

/* buffered writers' pages count for them when their writeback completes */
static int test_writeback_disk(void)
{
	struct ios_run_result r;
	struct ios_jobfile jf;
	struct ios_series g;
	const struct ios_series *s;

	T_ASSERT_EQ(run(wjob, &r, &jf), 0);
	s = r.series;
	T_ASSERT(s && s->nr_jobs == 3);
	/* end_fsync: every byte w1 and w2 wrote reached the disk before they ended */
	T_ASSERT_U64_EQ(r.jobs[0].dir[1].io_bytes, 8 << 20);
	T_ASSERT_U64_EQ(s->jobs[0].disk_total, 8 << 20);
	T_ASSERT_U64_EQ(s->jobs[1].disk_total, 4 << 20);
	T_ASSERT_U64_EQ(s->jobs[0].total, r.jobs[0].dir[1].io_bytes);
	/* all of w1's bytes were copies into the page cache */
	T_ASSERT_U64_EQ(s->jobs[0].cached_total, 8 << 20);
	T_ASSERT_U64_EQ(s->jobs[1].cached_total, 4 << 20);
	/* O_DIRECT writes are counted at completion only */
	T_ASSERT_U64_EQ(s->jobs[2].disk_total, 0);
	T_ASSERT_U64_EQ(s->jobs[2].cached_total, 0);
	T_ASSERT(s->jobs[2].total == 8 << 20);
	{
		uint64_t b = 0;

		for (size_t i = 0; i < s->jobs[0].disk_len; i++)
			b += s->jobs[0].disk[i];
		T_ASSERT_U64_EQ(b, s->jobs[0].disk_total);
	}
	/* the disk wrote at least what the jobs' pages were */
	T_ASSERT(r.disks[0].sectors[1] * 512 >= (8 + 4 + 8) << 20);
	/* grouped, the disk bytes add up too */
	T_ASSERT_EQ(ios_series_aggregate(s, IOS_PLOT_BY_CLASS, &g), 0);
	T_ASSERT(g.nr_jobs == 1 && g.jobs[0].disk_total == 12 << 20);
	T_ASSERT_U64_EQ(g.jobs[0].cached_total, 12 << 20);
	T_ASSERT_U64_EQ(g.jobs[0].total, (8 + 4 + 8) << 20);
	ios_series_free(&g);
	ios_run_result_free(&r);
	ios_jobfile_free(&jf);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_cgroup_sums, test_class_labels_and_auto, test_run_groups,
		     test_writeback_disk);
}
