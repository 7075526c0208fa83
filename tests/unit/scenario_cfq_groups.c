/*
 * Description: cgroups under CFQ through the whole simulator (spec cfq.md
 * §10, seed-scenarios.md §3: scenario C1, seed 003). Nothing is scripted: the
 * shares come out of the disk, filesystem and scheduler models.
 *  - blkio groups (cfq-2.6.33, cfq-4.19): two always-busy groups of
 *    sequential readers split disk time (blkio.time) within 10 % of their
 *    weight ratio (2:1, 4:1, 10:1), on the 2009 and the 2004 disk;
 *  - C1, 60 processes of 4 KiB O_DIRECT reads and writes per group: disk
 *    time within 15 % of the weight ratio (3:1 and 2:1);
 *  - a group's share does not depend on its number of processes (60 vs 30,
 *    equal weights: time within 10 % of 1:1);
 *  - a group whose one process pauses 3 ms between requests keeps its
 *    share thanks to group_idle (4.19, slice_idle=0: within 10 %), and
 *    loses it without (group_idle=0);
 *  - two equal groups keep at least 80 % of the throughput of the same
 *    jobs without groups;
 *  - the 2008 designs (lab.group_policy) on Florian Westphal's table: the
 *    properties the designs state (Tarasov: time in proportion to
 *    1 + prio/7; both: shares per group, not per process), with the seed's
 *    numbers printed beside ours.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"

static struct ios_jobfile *jfs[128];
static int nr_jfs;

static int run_file(const char *path, const char *sched, const char *dev,
		    const char *const *kv, struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile *jf = calloc(1, sizeof(*jf));
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	if (!jf || ios_job_parse_file(path, &po, jf, &e)) {
		fprintf(stderr, "parse %s: %s\n", path, e.msg);
		free(jf);
		return -1;
	}
	jfs[nr_jfs++] = jf;
	for (; kv && *kv; kv++)
		if (ios_settings_add_kv(&set, *kv, "test", &e))
			return -1;
	cfg.scheduler = sched;
	cfg.device = dev;
	cfg.seed = 1;
	cfg.settings = &set;
	ret = ios_run(jf, &cfg, res, &e);
	if (ret)
		fprintf(stderr, "run %s: %s\n", path, e.msg);
	ios_settings_free(&set);
	return ret;
}

static int run_buf(const char *job, const char *sched, const char *dev, const char *const *kv,
		   struct ios_run_result *res)
{
	char path[] = "/tmp/iosched-cgrp-XXXXXX";
	int fd = mkstemp(path), ret;
	FILE *f;

	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	fputs(job, f);
	fclose(f);
	ret = run_file(path, sched, dev, kv, res);
	unlink(path);
	return ret;
}

static const struct ios_cgroup_result *cg_res(const struct ios_run_result *r, const char *path)
{
	for (size_t i = 0; i < r->nr_cgroups; i++)
		if (!strcmp(r->cgroups[i].path, path))
			return &r->cgroups[i];
	return NULL;
}

static uint64_t cg_ios(const struct ios_run_result *r, const char *path)
{
	const struct ios_cgroup_result *c = cg_res(r, path);

	return c ? c->ios[IOS_DDIR_READ] + c->ios[IOS_DDIR_WRITE] : 0;
}

/* blkio.time of @a over @b; -1 when the scheduler kept no time */
static double time_ratio(const struct ios_run_result *r, const char *a, const char *b)
{
	const struct ios_cgroup_result *ca = cg_res(r, a), *cb = cg_res(r, b);

	if (!ca || !cb || !ca->has_sched || !cb->has_sched || !cb->sched.time_ns)
		return -1;
	return (double)ca->sched.time_ns / (double)cb->sched.time_ns;
}

static double io_ratio(const struct ios_run_result *r, const char *a, const char *b)
{
	return (double)cg_ios(r, a) / (double)(cg_ios(r, b) ? cg_ios(r, b) : 1);
}

static uint64_t total_ios(const struct ios_run_result *r)
{
	uint64_t n = 0;

	for (size_t i = 0; i < r->nr_jobs; i++)
		n += r->jobs[i].dir[IOS_DDIR_READ].total_ios + r->jobs[i].dir[IOS_DDIR_WRITE].total_ios;
	return n;
}

/* @text with every @from replaced by @to (malloc'd) */
static char *subst(const char *text, const char *from, const char *to)
{
	size_t n = 0, fl = strlen(from), tl = strlen(to);
	const char *p;
	char *out, *o;

	for (p = text; (p = strstr(p, from)) != NULL; p += fl)
		n++;
	out = malloc(strlen(text) + n * tl + 1);
	if (!out)
		abort();
	for (o = out; *text;) {
		if (!strncmp(text, from, fl)) {
			memcpy(o, to, tl);
			o += tl;
			text += fl;
		} else {
			*o++ = *text++;
		}
	}
	*o = '\0';
	return out;
}

static bool within(double v, double target, double tol)
{
	return v >= target * (1 - tol) && v <= target * (1 + tol);
}

static const char *const profiles[] = { "cfq-2.6.33", "cfq-4.19" };

/* ---- blkio groups ---- */

static int test_sequential_readers_split_by_weight(void)
{
	static const char *const devs[] = { "hdd-2009", "hdd-2004" };
	static const unsigned wb[] = { 500, 250, 100 };

	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		for (size_t d = 0; d < IOS_ARRAY_SIZE(devs); d++) {
			for (size_t w = 0; w < IOS_ARRAY_SIZE(wb); w++) {
				char job[512];
				struct ios_run_result r;
				double tr;

				/* 2.6.33's blkio.weight starts at 100, so 10:1 is its widest */
				snprintf(job, sizeof(job),
					 "[global]\nrw=read\nbs=128k\ndirect=1\nioengine=psync\n"
					 "size=4g\nruntime=30\ntime_based\n"
					 "[a]\ncgroup=a\ncgroup_weight=1000\nnumjobs=2\n"
					 "[b]\ncgroup=b\ncgroup_weight=%u\nnumjobs=2\n", wb[w]);
				T_ASSERT_EQ(run_buf(job, profiles[p], devs[d], NULL, &r), 0);
				tr = time_ratio(&r, "a", "b");
				printf("    %s %s 1000:%u: disk time %.3f, I/Os %.3f\n", profiles[p],
				       devs[d], wb[w], tr, io_ratio(&r, "a", "b"));
				T_ASSERT_MSG(within(tr, 1000.0 / wb[w], 0.10), "%s %s: time ratio %.3f",
					     profiles[p], devs[d], tr);
				ios_run_result_free(&r);
			}
		}
	}
	return T_PASS;
}

static int test_c1_mix_split_by_weight(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		static const char *const files[] = { "examples/seeds/c1-cgroups-blkio.fio" };
		struct ios_run_result r;
		double tr;
		char *text, *job;
		size_t len;
		int ret;

		/* the example: weights 1000 and 333 */
		T_ASSERT_EQ(run_file(files[0], profiles[p], "hdd-2004", NULL, &r), 0);
		tr = time_ratio(&r, "s0", "s1");
		printf("    C1 %s 1000:333: disk time %.3f, I/Os %.3f (%llu vs %llu)\n", profiles[p],
		       tr, io_ratio(&r, "s0", "s1"), (unsigned long long)cg_ios(&r, "s0"),
		       (unsigned long long)cg_ios(&r, "s1"));
		T_ASSERT(within(tr, 1000.0 / 333, 0.15));
		ios_run_result_free(&r);
		/* the same jobs at 1000 and 500 */
		text = t_read_file(files[0], &len);
		T_ASSERT(text && strstr(text, "cgroup_weight=333"));
		job = subst(text, "cgroup_weight=333", "cgroup_weight=500");
		free(text);
		ret = run_buf(job, profiles[p], "hdd-2004", NULL, &r);
		free(job);
		T_ASSERT_EQ(ret, 0);
		tr = time_ratio(&r, "s0", "s1");
		printf("    C1 %s 1000:500: disk time %.3f, I/Os %.3f\n", profiles[p], tr,
		       io_ratio(&r, "s0", "s1"));
		T_ASSERT(within(tr, 2.0, 0.15));
		ios_run_result_free(&r);
	}
	return T_PASS;
}

/* C1's jobs, s0 with 60 processes and s1 with 30, at equal weights */
static const char c1_60_30[] =
	"[global]\nfilename=c1-shared\nrw=rw\nrwmixread=50\nbs=4k\ndirect=1\nioengine=psync\n"
	"size=64m\noffset_increment=64m\nruntime=60\ntime_based\n"
	"[s0]\ncgroup=s0\nnumjobs=60\n[s1]\noffset=3840m\ncgroup=s1\nnumjobs=30\n";

static int test_process_count_does_not_matter(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct ios_run_result r;
		double tr;

		T_ASSERT_EQ(run_buf(c1_60_30, profiles[p], "hdd-2004", NULL, &r), 0);
		tr = time_ratio(&r, "s0", "s1");
		printf("    %s 60 vs 30 processes: disk time %.3f, I/Os %.3f\n", profiles[p], tr,
		       io_ratio(&r, "s0", "s1"));
		T_ASSERT(within(tr, 1.0, 0.10));
		ios_run_result_free(&r);
	}
	return T_PASS;
}

/*
 * Group a's one reader pauses 3 ms after each 64 KiB read; group b's reader
 * keeps 8 requests queued. With queue idling off (slice_idle=0, so the
 * device runs in time mode once hw_tag is known to be 0), group_idle
 * (8 ms) keeps the disk for a through its pauses; without it a loses its
 * turn at every pause. Pauses longer than group_idle lose it either way.
 */
static const char idle_job[] =
	"[global]\nrw=read\nbs=64k\ndirect=1\nsize=4g\nruntime=30\ntime_based\n"
	"[a]\ncgroup=a\nioengine=psync\nthinktime=%s\n"
	"[b]\ncgroup=b\nioengine=libaio\niodepth=8\n";

static int test_group_idle_keeps_share(void)
{
	static const char *const gi8[] = { "slice_idle=0", "group_idle=8", NULL };
	static const char *const gi0[] = { "slice_idle=0", "group_idle=0", NULL };
	char job[512];
	struct ios_run_result r;
	double t8, t0, tlong;

	snprintf(job, sizeof(job), idle_job, "3ms");
	T_ASSERT_EQ(run_buf(job, "cfq-4.19", "hdd-2004", gi8, &r), 0);
	t8 = time_ratio(&r, "a", "b");
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_buf(job, "cfq-4.19", "hdd-2004", gi0, &r), 0);
	t0 = time_ratio(&r, "a", "b");
	ios_run_result_free(&r);
	snprintf(job, sizeof(job), idle_job, "20ms");
	T_ASSERT_EQ(run_buf(job, "cfq-4.19", "hdd-2004", gi8, &r), 0);
	tlong = time_ratio(&r, "a", "b");
	ios_run_result_free(&r);
	printf("    a pauses 3 ms: disk time a/b %.3f with group_idle=8, %.3f without; "
	       "pauses of 20 ms: %.3f\n", t8, t0, tlong);
	T_ASSERT(within(t8, 1.0, 0.10));
	T_ASSERT(t0 < 0.8);
	T_ASSERT(tlong < 0.5);
	return T_PASS;
}

static int test_equal_groups_keep_throughput(void)
{
	char *text, *eq, *none;
	size_t len;
	int rg, rn;

	text = t_read_file("examples/seeds/c1-cgroups-blkio.fio", &len);
	T_ASSERT(text);
	/* C1 at equal weights, then the same jobs with no cgroup at all */
	eq = subst(text, "cgroup_weight=333", "cgroup_weight=1000");
	none = subst(text, "\ncgroup", "\n;cgroup");
	free(text);
	for (size_t k = 0; k < IOS_ARRAY_SIZE(profiles); k++) {
		struct ios_run_result g, n;
		uint64_t tg, tn;

		rg = run_buf(eq, profiles[k], "hdd-2004", NULL, &g);
		rn = run_buf(none, profiles[k], "hdd-2004", NULL, &n);
		T_ASSERT(rg == 0 && rn == 0);
		tg = total_ios(&g);
		tn = total_ios(&n);
		printf("    %s C1: %llu I/Os with two equal groups, %llu without (%.0f %%)\n",
		       profiles[k], (unsigned long long)tg, (unsigned long long)tn,
		       100.0 * (double)tg / (double)tn);
		T_ASSERT(n.nr_cgroups == 0 && g.nr_cgroups == 2);
		T_ASSERT(tg >= 0.8 * (double)tn);
		ios_run_result_free(&g);
		ios_run_result_free(&n);
	}
	free(eq);
	free(none);
	return T_PASS;
}

/* ---- the 2008 designs on seed 003's table ---- */

struct row {
	int p0, p1;		/* priorities of s0 and s1 */
	bool sixty_thirty;	/* s1 has 30 processes */
	unsigned seed0, seed1;	/* Florian's I/O counts */
};

static const struct row tarasov_rows[] = {
	{ 4, 4, false, 24953, 24062 }, { 4, 4, true, 29558, 14639 },
	{ 0, 4, false, 24221, 24047 }, { 1, 4, false, 24897, 24509 },
	{ 2, 4, false, 23295, 23622 }, { 0, 7, false, 22301, 23373 },
};

static const struct row uchida_rows[] = {
	{ 3, 3, false, 25175, 26463 }, { 3, 3, true, 26944, 26698 },
	{ 0, 3, false, 60821, 19846 }, { 1, 3, false, 50608, 25994 },
	{ 2, 3, false, 32132, 26641 }, { 7, 0, false, 91387, 12547 },
};

static int run_row(const char *policy, const struct row *rw, struct ios_run_result *r)
{
	char pol[64], p0[64], p1[64];
	const char *kv[] = { pol, p0, p1, NULL };

	snprintf(pol, sizeof(pol), "lab.group_policy=%s", policy);
	snprintf(p0, sizeof(p0), "cgroup.s0.ioprio=%d", rw->p0);
	snprintf(p1, sizeof(p1), "cgroup.s1.ioprio=%d", rw->p1);
	if (rw->sixty_thirty)
		return run_buf(c1_60_30, "cfq", "hdd-2004", kv, r);
	return run_file("examples/seeds/c1-cgroups-60-each.fio", "cfq", "hdd-2004", kv, r);
}

static int test_tarasov2008(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(tarasov_rows); i++) {
		const struct row *rw = &tarasov_rows[i];
		struct ios_run_result r;
		double design = (1 + rw->p0 / 7.0) / (1 + rw->p1 / 7.0), tr;

		T_ASSERT_EQ(run_row("tarasov2008", rw, &r), 0);
		tr = time_ratio(&r, "s0", "s1");
		printf("    tarasov2008 prio %d vs %d%s: %5llu vs %5llu I/Os (seed %u vs %u), "
		       "disk time %.2f (design %.2f)\n", rw->p0, rw->p1,
		       rw->sixty_thirty ? " (60 vs 30 procs)" : "",
		       (unsigned long long)cg_ios(&r, "s0"), (unsigned long long)cg_ios(&r, "s1"),
		       rw->seed0, rw->seed1, tr, design);
		/* seed-scenarios.md §3.3: within 15 % of the design's time ratio, never above 2.2 */
		T_ASSERT(within(tr, design, 0.15));
		T_ASSERT(tr <= 2.2 && 1 / tr <= 2.2);
		T_ASSERT(strcmp(r.scheduler, "cfq+tarasov2008") == 0);
		ios_run_result_free(&r);
	}
	return T_PASS;
}

static int test_uchida2008(void)
{
	double r03 = 0;

	for (size_t i = 0; i < IOS_ARRAY_SIZE(uchida_rows); i++) {
		const struct row *rw = &uchida_rows[i];
		struct ios_run_result r;
		double tr, ir;

		T_ASSERT_EQ(run_row("uchida2008", rw, &r), 0);
		tr = time_ratio(&r, "s0", "s1");
		ir = io_ratio(&r, "s0", "s1");
		printf("    uchida2008 prio %d vs %d%s: %5llu vs %5llu I/Os, ratio %.2f "
		       "(seed %u vs %u, %.2f), disk time %.2f\n", rw->p0, rw->p1,
		       rw->sixty_thirty ? " (60 vs 30 procs)" : "",
		       (unsigned long long)cg_ios(&r, "s0"), (unsigned long long)cg_ios(&r, "s1"), ir,
		       rw->seed0, rw->seed1, (double)rw->seed0 / rw->seed1, tr);
		if (rw->p0 == rw->p1)
			T_ASSERT(within(ir, 1.0, 0.10));	/* shares per group, not per process */
		else
			T_ASSERT((rw->p0 < rw->p1) == (ir > 1));	/* 0 is the highest, as in CFQ */
		if (rw->p0 == 0 && rw->p1 == 3)
			r03 = ir;
		ios_run_result_free(&r);
	}
	/*
	 * Not asserted: the seed's 3.06 for priorities 0 and 3. CFQ's own slice
	 * ratio, which this reconstruction applies, gives 180:120 ms.
	 */
	printf("    uchida2008 0 vs 3: %.2f here, 3.06 in the seed (docs/cfq-groups.md)\n", r03);
	return T_PASS;
}

/* Under a scheduler without groups the options change nothing, and say so. */
static int test_no_groups_no_effect(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run_file("examples/seeds/c1-cgroups-blkio.fio", "noop", "hdd-2004", NULL, &r),
		    0);
	T_ASSERT(r.nr_warnings >= 2);
	T_ASSERT(strstr(r.warnings[0], "has no effect") && strstr(r.warnings[0], "noop"));
	T_ASSERT(r.nr_cgroups == 2 && !r.cgroups[0].has_sched);
	/* the block layer still counts each group's requests */
	T_ASSERT(r.cgroups[0].blk_ios[0] + r.cgroups[0].blk_ios[1] > 0);
	ios_run_result_free(&r);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_sequential_readers_split_by_weight, test_c1_mix_split_by_weight,
			test_process_count_does_not_matter, test_group_idle_keeps_share,
			test_equal_groups_keep_throughput, test_tarasov2008, test_uchida2008,
			test_no_groups_no_effect);

	for (int i = 0; i < nr_jfs; i++) {
		ios_jobfile_free(jfs[i]);
		free(jfs[i]);
	}
	return ret;
}
