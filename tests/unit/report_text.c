/*
 * Description: golden snippets of the fio 3.33 normal report. Each case
 * builds a result by hand and checks lines that real fio printed for the
 * same numbers (or that follow from fio's rules, worked out in the
 * comments): per-line latency units, percentile block layouts (4 and 3 per
 * line, precision 3, usec rounding), "per=" with fio's integer truncation,
 * the lat rows wrapping after five buckets, the run status group and disk
 * lines, a complete one-job report, and byte-identical output across calls.
 */
#include <string.h>
#include "harness.h"

#define T_NS 1000000ull

static struct ios_run_result *new_result(size_t nr_jobs)
{
	struct ios_run_result *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->jobs = calloc(nr_jobs, sizeof(*r->jobs));
	if (!r->jobs) {
		free(r);
		return NULL;
	}
	r->nr_jobs = nr_jobs;
	for (size_t i = 0; i < nr_jobs; i++)
		ios_job_result_init(&r->jobs[i]);
	r->timestamp = 1796030044;	/* Mon Nov 30 09:14:04 2026 UTC */
	return r;
}

static void free_result(struct ios_run_result *r)
{
	ios_run_result_free(r);
	free(r);
}

/* set a latency stat from summary numbers, as fio would have them */
static void set_lat(struct ios_lat_stat *s, uint64_t n, uint64_t min, uint64_t max, double mean,
		    double sd)
{
	s->n = n;
	s->min = min;
	s->max = max;
	s->mean = mean;
	s->m2 = sd * sd * (double)(n - 1);
}

static char *render(const struct ios_run_result *r)
{
	struct ios_buf b;

	ios_buf_init(&b);
	if (ios_report_normal(r, &b)) {
		ios_buf_free(&b);
		return NULL;
	}
	return b.s;
}

#define T_HAS(text, line)                                                            \
	T_ASSERT_MSG(strstr((text), (line)), "missing line:\n%s\nin:\n%s", (line), (text))

static int test_latency_line_units(void)
{
	struct ios_run_result *r = new_result(1);
	struct ios_dir_result *d;
	char *t;

	T_ASSERT(r);
	r->jobs[0].name = strdup("j");
	d = &r->jobs[0].dir[IOS_DDIR_READ];
	d->io_bytes = 4096;
	d->total_ios = 1;
	d->runtime_ns = 1 * T_NS;
	/* fio: "clat (nsec): min=410, max=7247.3k, avg=2627.07, stdev=50641.17" */
	set_lat(&d->clat, 509185, 410, 7247300, 2627.07, 50641.17);
	/* min, max and stdev all past the usec thresholds */
	set_lat(&d->lat, 994, 22400, 355900, 76890, 26290);
	/* slat: max is large but stdev is not, so it stays in nsec */
	set_lat(&d->slat, 10, 5000, 200000, 9000, 900);
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "    slat (nsec): min=5000, max=200000, avg=9000.00, stdev=900.00\n");
	T_HAS(t, "    clat (nsec): min=410, max=7247.3k, avg=2627.07, stdev=50641.17\n");
	T_HAS(t, "     lat (usec): min=22, max=355, avg=76.89, stdev=26.29\n");
	free(t);

	set_lat(&d->clat, 100, 3000000, 150000000, 45500000, 20250000);
	set_lat(&d->slat, 4, 10, 40, 22.4, 3.5);
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "    clat (msec): min=3, max=150, avg=45.50, stdev=20.25\n");
	T_HAS(t, "    slat (nsec): min=10, max=40, avg=22.40, stdev= 3.50\n");
	free(t);

	/* sync engines have no slat: nothing printed */
	d->slat.n = 0;
	t = render(r);
	T_ASSERT(t);
	T_ASSERT(!strstr(t, "slat"));
	free(t);
	free_result(r);
	return T_PASS;
}

static void add_n(struct ios_lat_stat *s, uint64_t v, unsigned n)
{
	while (n--)
		ios_lat_add(s, v);
}

static int test_percentile_layouts(void)
{
	struct ios_run_result *r = new_result(1);
	static const double list3[] = { 99, 50, 99.999 };	/* fio sorts it */
	struct ios_dir_result *d;
	char *t;

	T_ASSERT(r);
	r->jobs[0].name = strdup("seqr");
	d = &r->jobs[0].dir[IOS_DDIR_READ];
	d->io_bytes = 4096 * 10000;
	d->total_ios = 10000;
	d->runtime_ns = 2 * T_NS;
	T_ASSERT_EQ(ios_lat_enable_hist(&d->clat), 0);
	/* the block fio printed for a 32 MiB null-engine read */
	add_n(&d->clat, 10, 8500);
	add_n(&d->clat, 20, 1400);
	add_n(&d->clat, 21, 96);
	add_n(&d->clat, 23154, 4);
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "    clat percentiles (nsec):\n"
		 "     |  1.00th=[   10],  5.00th=[   10], 10.00th=[   10], 20.00th=[   10],\n"
		 "     | 30.00th=[   10], 40.00th=[   10], 50.00th=[   10], 60.00th=[   10],\n"
		 "     | 70.00th=[   10], 80.00th=[   10], 90.00th=[   20], 95.00th=[   20],\n"
		 "     | 99.00th=[   20], 99.50th=[   21], 99.90th=[   21], 99.95th=[   21],\n"
		 "     | 99.99th=[23168]\n");
	free(t);

	/* percentile_list=50:99:99.999, three decimals, one line (fio's output) */
	ios_lat_free(&d->clat);
	ios_lat_init(&d->clat);
	T_ASSERT_EQ(ios_lat_enable_hist(&d->clat), 0);
	add_n(&d->clat, 20, 60000);
	add_n(&d->clat, 60, 39998);
	add_n(&d->clat, 38112, 2);
	r->jobs[0].pcts = list3;
	r->jobs[0].nr_pcts = 3;
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "    clat percentiles (nsec):\n"
		 "     | 50.000th=[   20], 99.000th=[   60], 99.999th=[38144]\n");
	free(t);

	/* a 7-digit value widens the column: 73 / (2 + 10 + 7) = 3 per line */
	ios_lat_free(&d->clat);
	ios_lat_init(&d->clat);
	T_ASSERT_EQ(ios_lat_enable_hist(&d->clat), 0);
	add_n(&d->clat, 442, 9998);
	add_n(&d->clat, 2375000, 2);
	r->jobs[0].pcts = NULL;
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "    clat percentiles (nsec):\n"
		 "     |  1.00th=[    442],  5.00th=[    442], 10.00th=[    442],\n"
		 "     | 20.00th=[    442], 30.00th=[    442], 40.00th=[    442],\n");
	T_HAS(t, "     | 80.00th=[    442], 90.00th=[    442], 95.00th=[    442],\n"
		 "     | 99.00th=[    442], 99.50th=[    442], 99.90th=[    442],\n"
		 "     | 99.95th=[    442], 99.99th=[2375680]\n");
	free(t);

	/* everything above 2 us and something above 100 us: usec, rounded up */
	ios_lat_free(&d->clat);
	ios_lat_init(&d->clat);
	T_ASSERT_EQ(ios_lat_enable_hist(&d->clat), 0);
	add_n(&d->clat, 150000, 10);	/* bucket midpoint 150528 ns */
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "    clat percentiles (usec):\n"
		 "     |  1.00th=[  151],  5.00th=[  151], 10.00th=[  151], 20.00th=[  151],\n");
	free(t);
	free_result(r);
	return T_PASS;
}

/* fio's run: bs=512, rate=3000 and rate=6500, 3 s, one group */
static int test_bw_share_and_group_line(void)
{
	struct ios_run_result *r = new_result(2);
	static const double a_bw[] = { 3, 3, 3, 3, 2 };
	char *t;

	T_ASSERT(r);
	r->jobs[0].name = strdup("a");
	r->jobs[1].name = strdup("b");
	for (int i = 0; i < 2; i++) {
		struct ios_dir_result *d = &r->jobs[i].dir[IOS_DDIR_READ];

		d->io_bytes = i ? 19968 : 9216;
		d->total_ios = d->io_bytes / 512;
		d->runtime_ns = 3001 * T_NS;
		for (int k = 0; k < 5; k++)
			ios_sample_add(&d->bw, i ? 6 : a_bw[k]);
	}
	t = render(r);
	T_ASSERT(t);
	/* a's mean 2.8 KiB/s counts as 2 against 9724 B/s: 21.06% (fio's output) */
	T_HAS(t, "   bw (  KiB/s): min=    2, max=    3, per=21.06%, avg= 2.80, stdev= 0.45, "
		 "samples=5\n");
	T_HAS(t, "   bw (  KiB/s): min=    6, max=    6, per=63.18%, avg= 6.00, stdev= 0.00, "
		 "samples=5\n");
	T_HAS(t, "\nRun status group 0 (all jobs):\n"
		 "   READ: bw=9724B/s (9724B/s), 3070B/s-6653B/s (3070B/s-6653B/s), "
		 "io=28.5KiB (29.2kB), run=3001-3001msec\n");
	T_HAS(t, "  read: IOPS=5, BW=3070B/s (3070B/s)(9216B/3001msec)\n");
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_lat_rows_wrap(void)
{
	struct ios_run_result *r = new_result(1);
	struct ios_job_result *j;
	char *t;

	T_ASSERT(r);
	j = &r->jobs[0];
	j->name = strdup("a");
	j->dir[0].io_bytes = 4096 * 10000;
	j->dir[0].total_ios = 10000;
	j->dir[0].runtime_ns = 1003 * T_NS;
	j->lat_n[4] = 1408;
	j->lat_n[5] = 1551;
	j->lat_n[6] = 6361;
	j->lat_n[7] = 627;
	j->lat_n[8] = 40;
	j->lat_n[9] = 10;
	j->lat_u[4] = 3;
	j->lat_m[11] = 0;
	t = render(r);
	T_ASSERT(t);
	/* fio's output for job "a" of a null-engine run */
	T_HAS(t, "  lat (nsec)   : 50=14.08%, 100=15.51%, 250=63.61%, 500=6.27%, 750=0.40%\n"
		 "  lat (nsec)   : 1000=0.10%\n"
		 "  lat (usec)   : 50=0.03%\n"
		 "  cpu          : ");
	free(t);

	/* below 0.01% still shows as 0.01%; >=2000 ms gets its own label */
	j->lat_m[10] = 0;
	j->lat_m[11] = 1;
	j->dir[0].total_ios = 100000;
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "  lat (msec)   : >=2000=0.01%\n");
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_full_report(void)
{
	struct ios_run_result *r = new_result(1);
	struct ios_job_result *j;
	char *t;
	static const char want[] =
		"\n"
		"w: (groupid=0, jobs=1): err= 0: pid=1234: Mon Nov 30 09:14:04 2026\n"
		"  write: IOPS=500, BW=2000KiB/s (2048kB/s)(4000KiB/2000msec); 0 zone resets\n"
		"    slat (nsec): min=1000, max=3000, avg=2000.00, stdev=1000.00\n"
		"    clat (usec): min=1500, max=2500, avg=2000.00, stdev=500.00\n"
		"     lat (usec): min=2500, max=5500, avg=4000.00, stdev=1500.00\n"
		"   bw (  KiB/s): min= 1900, max= 2100, per=100.00%, avg=2000.00, stdev=100.00, samples=3\n"
		"   iops        : min=  475, max=  525, avg=500.00, stdev=25.00, samples=3\n"
		"  lat (msec)   : 2=50.00%, 4=50.00%\n"
		"  cpu          : usr=0.00%, sys=0.00%, ctx=998, majf=0, minf=0\n"
		"  IO depths    : 1=0.1%, 2=0.0%, 4=0.0%, 8=99.9%, 16=0.0%, 32=0.0%, >=64=0.0%\n"
		"     submit    : 0=0.0%, 4=0.0%, 8=100.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     complete  : 0=0.0%, 4=75.0%, 8=25.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     issued rwts: total=0,1000,0,2 short=0,0,0,0 dropped=0,1,0,0\n"
		"     latency   : target=0, window=0, percentile=100.00%, depth=8\n"
		"\n"
		"Run status group 0 (all jobs):\n"
		"  WRITE: bw=2000KiB/s (2048kB/s), 2000KiB/s-2000KiB/s (2048kB/s-2048kB/s), "
		"io=4000KiB (4096kB), run=2000-2000msec\n"
		"\n"
		"Disk stats (read/write):\n"
		"  sda: ios=0/1000, merge=0/24, ticks=0/1990, in_queue=2003, util=99.85%\n";
	struct ios_job job;

	T_ASSERT(r);
	memset(&job, 0, sizeof(job));
	job.iodepth = 8;
	job.sub.lat_percentile = 100.0;	/* the parser's default */
	j = &r->jobs[0];
	j->job = &job;
	j->name = strdup("w");
	j->pid = 1234;
	j->dir[1].io_bytes = 1000 * 4096;
	j->dir[1].total_ios = 1000;
	j->dir[1].drop_ios = 1;
	j->dir[1].runtime_ns = 2000 * T_NS;
	set_lat(&j->dir[1].slat, 1000, 1000, 3000, 2000, 1000);
	set_lat(&j->dir[1].clat, 1000, 1500000, 2500000, 2000000, 500000);
	set_lat(&j->dir[1].lat, 1000, 2500000, 5500000, 4000000, 1500000);
	ios_sample_add(&j->dir[1].bw, 1900);
	ios_sample_add(&j->dir[1].bw, 2000);
	ios_sample_add(&j->dir[1].bw, 2100);
	ios_sample_add(&j->dir[1].iops, 475);
	ios_sample_add(&j->dir[1].iops, 500);
	ios_sample_add(&j->dir[1].iops, 525);
	j->sync_total_ios = 2;
	j->lat_m[0] = 500;
	j->lat_m[1] = 500;
	j->ctx = 998;
	j->io_depth[0] = 1;
	j->io_depth[3] = 999;
	j->io_submit[2] = 125;
	j->io_complete[1] = 300;
	j->io_complete[2] = 100;
	r->disks = calloc(1, sizeof(*r->disks));
	T_ASSERT(r->disks);
	r->nr_disks = 1;
	snprintf(r->disks[0].name, sizeof(r->disks[0].name), "sda");
	r->disks[0].ios[1] = 1000;
	r->disks[0].merges[1] = 24;
	r->disks[0].ticks_ms[1] = 1990;
	r->disks[0].in_queue_ms = 2003;
	r->disks[0].util = 99.85;
	t = render(r);
	T_ASSERT(t);
	T_ASSERT_MSG(!strcmp(t, want), "got:\n%s\nwant:\n%s", t, want);
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_skips_and_header_variants(void)
{
	struct ios_run_result *r = new_result(3);
	struct ios_job job;
	char *t, *t2;

	T_ASSERT(r);
	memset(&job, 0, sizeof(job));
	job.description = (char *)"scan the disk";
	r->jobs[0].name = strdup("idle");		/* no I/O: not printed */
	r->jobs[1].name = strdup("bad");
	r->jobs[1].error = 5;
	r->jobs[1].groupid = 1;
	r->jobs[1].pid = 42;
	r->jobs[1].job = &job;
	r->jobs[1].nr_merged = 4;
	r->jobs[1].dir[0].io_bytes = 512;	/* bytes but no runtime: no read line */
	r->jobs[1].dir[0].total_ios = 1;
	r->jobs[2].name = strdup("ok");
	r->jobs[2].groupid = 1;
	T_ASSERT(ios_job_trim(&r->jobs[2]));
	r->jobs[2].trim->io_bytes = 1 << 20;
	r->jobs[2].trim->total_ios = 256;
	r->jobs[2].trim->runtime_ns = 10 * T_NS;
	t = render(r);
	T_ASSERT(t);
	T_ASSERT(!strstr(t, "idle:"));
	T_HAS(t, "bad: (groupid=1, jobs=4): err= 5 (Input/output error): pid=42: "
		 "Mon Nov 30 09:14:04 2026\n  Description  : [scan the disk]\n  cpu   ");
	T_ASSERT(!strstr(t, "  read:"));
	T_HAS(t, "  trim: IOPS=25.6k, BW=100MiB/s (105MB/s)(1024KiB/10msec)\n");
	/* groups 0 and 1 are both listed; group 0 did no I/O */
	T_HAS(t, "\nRun status group 0 (all jobs):\n\nRun status group 1 (all jobs):\n"
		 "   TRIM: bw=100MiB/s (105MB/s), 100MiB/s-100MiB/s (105MB/s-105MB/s), "
		 "io=1024KiB (1049kB), run=10-10msec\n");
	T_ASSERT(!strstr(t, "Disk stats"));
	/* same result, same bytes */
	t2 = render(r);
	T_ASSERT(t2 && !strcmp(t, t2));
	free(t2);
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_sync_block(void)
{
	struct ios_run_result *r = new_result(1);
	struct ios_job_result *j;
	char *t;

	T_ASSERT(r);
	j = &r->jobs[0];
	j->name = strdup("s");
	j->dir[1].io_bytes = 1 << 20;
	j->dir[1].total_ios = 256;
	j->dir[1].runtime_ns = 43 * T_NS;
	j->sync_total_ios = 63;
	T_ASSERT_EQ(ios_lat_enable_hist(&j->sync_lat), 0);
	add_n(&j->sync_lat, 197000, 62);
	add_n(&j->sync_lat, 6210000, 1);
	t = render(r);
	T_ASSERT(t);
	T_HAS(t, "  fsync/fdatasync/sync_file_range:\n    sync (usec): min=197, max=6210, ");
	T_HAS(t, "    sync percentiles (usec):\n     |  1.00th=[  198],");
	T_HAS(t, "     issued rwts: total=0,256,0,63 ");
	free(t);
	free_result(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_latency_line_units, test_percentile_layouts, test_bw_share_and_group_line,
		     test_lat_rows_wrap, test_full_report, test_skips_and_header_variants,
		     test_sync_block);
}
