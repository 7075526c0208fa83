/*
 * Description: fio 3.33's submission options as iosched models them:
 * io_submit_mode=offload issues rated I/O on the rate's schedule whatever
 * the completions do (inline waits for everything in flight when ahead of
 * the rate), and gives a sync engine iodepth I/Os in flight; io_uring
 * refuses offload; random_generator=lfsr visits every block once without a
 * random map; latency_target finds a depth between 1 and iodepth, iodepth
 * when every depth meets it, and ends the job with ETIMEDOUT when depth 1
 * does not; cmdprio is refused outside libaio/io_uring and noted where
 * nothing honours it; the buffer-content options are accepted with a note;
 * gtod_reduce / disable_* leave the statistics fio would not take empty.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "run_rig.h"
#include "run/run_int.h"

static bool has_warning(const struct ios_run_result *r, const char *a, const char *b)
{
	for (size_t i = 0; i < r->nr_warnings; i++)
		if (strstr(r->warnings[i], a) && (!b || strstr(r->warnings[i], b)))
			return true;
	return false;
}

/* the largest and smallest gaps between consecutive issues among the first @n, and their mean */
static void issue_gaps(const struct tlog *l, size_t n, uint64_t *max, uint64_t *min, double *mean)
{
	uint64_t m = 0, sum = 0, lo = UINT64_MAX;

	if (n > l->n)
		n = l->n;
	for (size_t i = 1; i < n; i++) {
		uint64_t g = l->issue_ns[i] - l->issue_ns[i - 1];

		sum += g;
		if (g > m)
			m = g;
		if (g < lo)
			lo = g;
	}
	*max = m;
	*min = lo;
	*mean = n > 1 ? (double)sum / (double)(n - 1) : 0.0;
}

static int test_offload_rate(void)
{
	static struct tlog in, off;
	struct ios_run_result r;
	struct ios_err e = { 0 };
	const char *job = "[j]\nrw=randread\ndirect=1\nsize=256m\nioengine=libaio\niodepth=16\n"
			  "rate_iops=150\nruntime=3\n";
	char buf[512];
	uint64_t max_in, max_off, min_in, min_off;
	double mean_in, mean_off;

	T_ASSERT_EQ(run_full(job, "noop", NULL, &in, &r, &e), 0);
	ios_run_result_free(&r);
	snprintf(buf, sizeof(buf), "%sio_submit_mode=offload\n", job);
	T_ASSERT_EQ(run_full(buf, "noop", NULL, &off, &r, &e), 0);
	ios_run_result_free(&r);
	issue_gaps(&in, 300, &max_in, &min_in, &mean_in);
	issue_gaps(&off, 300, &max_off, &min_off, &mean_off);
	fprintf(stderr, "inline: %zu issued, gaps %llu..%llu ns, mean %.0f; offload: %zu, "
		"%llu..%llu, mean %.0f\n", in.n, (unsigned long long)min_in,
		(unsigned long long)max_in, mean_in, off.n, (unsigned long long)min_off,
		(unsigned long long)max_off, mean_off);
	/* offload: every I/O at the rate's time, 1/150 s apart (to the submission cost) */
	T_ASSERT(max_off < 1000000000ULL / 150 + 100000);
	T_ASSERT(min_off > 1000000000ULL / 150 - 100000);
	T_ASSERT(mean_off > 1000000000.0 / 150 - 100000 && mean_off < 1000000000.0 / 150 + 100000);
	/*
	 * inline: being ahead of the rate, the job waits for the read in flight
	 * (a seek and a rotation, longer than the 6.7 ms gap), falls behind, and
	 * catches up with I/Os back to back: the same count, in bursts
	 */
	T_ASSERT(max_in > max_off + 2000000);
	T_ASSERT(min_in < 1000000);
	T_ASSERT(off.n >= in.n);
	return T_PASS;
}

static int test_offload_sync_depth(void)
{
	static struct tlog l;
	struct ios_run_result r;
	struct ios_err e = { 0 };

	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=64m\nioengine=psync\niodepth=4\n"
			     "io_submit_mode=offload\nruntime=1\n", "noop", NULL, &l, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].io_depth[2] > 0, 1);	/* the 4 bucket: 4 in flight */
	ios_run_result_free(&r);
	T_ASSERT(run_full("[j]\nrw=read\nsize=1m\nioengine=io_uring\ndirect=1\n"
			  "io_submit_mode=offload\n", "noop", NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "io_uring") && strstr(e.msg, "offload") && strstr(e.msg, "r.fio:1"));
	ios_err_clear(&e);
	return T_PASS;
}

static int test_lfsr_once(void)
{
	static struct tlog l;
	struct ios_run_result r;
	struct ios_err e = { 0 };
	static uint8_t seen[2048];
	unsigned dup = 0;

	/* 1000 blocks of 4 KiB: each once, though norandommap is set */
	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=4000k\nnorandommap\n"
			     "random_generator=lfsr\n", "noop", NULL, &l, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].total_ios, 1000);
	ios_run_result_free(&r);
	T_ASSERT_EQ(l.n, 1000);
	/* the offsets relative to the smallest one are 0..999 blocks, each once */
	{
		uint64_t lo = UINT64_MAX;

		for (size_t i = 0; i < l.n; i++)
			if (l.sectors[i] < lo)
				lo = l.sectors[i];
		for (size_t i = 0; i < l.n; i++) {
			uint64_t b = (l.sectors[i] - lo) / 8;

			T_ASSERT(b < 1000);
			if (seen[b]++)
				dup++;
		}
	}
	T_ASSERT_EQ(dup, 0);
	/* the same job with the default generator repeats blocks (no random map) */
	memset(seen, 0, sizeof(seen));
	memset(&l, 0, sizeof(l));
	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=4000k\nnorandommap\n", "noop", NULL,
			     &l, &r, &e), 0);
	ios_run_result_free(&r);
	{
		uint64_t lo = UINT64_MAX;

		for (size_t i = 0; i < l.n; i++)
			if (l.sectors[i] < lo)
				lo = l.sectors[i];
		for (size_t i = 0; i < l.n; i++)
			if (seen[(l.sectors[i] - lo) / 8]++)
				dup++;
	}
	T_ASSERT(dup > 100);
	return T_PASS;
}

/* every width's register has the full period 2^w - 1, and a pass covers 0..n-1 once */
static int test_lfsr_period(void)
{
	static uint8_t seen[1u << 20];

	for (unsigned w = 2; w <= 20; w++) {
		uint64_t n = (1ULL << w) - 1, first;
		struct ios_run_lfsr l;

		ios_run_lfsr_init(&l, n, 12345 + w);
		memset(seen, 0, (size_t)n);
		first = ios_run_lfsr_next(&l);
		seen[first] = 1;
		for (uint64_t i = 1; i < n; i++) {
			uint64_t v = ios_run_lfsr_next(&l);

			T_ASSERT_MSG(v < n && !seen[v], "width %u: value %llu again after %llu", w,
				     (unsigned long long)v, (unsigned long long)i);
			seen[v] = 1;
		}
		T_ASSERT_MSG(ios_run_lfsr_next(&l) == first, "width %u: period is not 2^w-1", w);
	}
	/* a domain that is not 2^w - 1: values past it are skipped */
	{
		struct ios_run_lfsr l;
		uint64_t sum = 0;

		ios_run_lfsr_init(&l, 1000, 7);
		memset(seen, 0, 1000);
		for (unsigned i = 0; i < 1000; i++) {
			uint64_t v = ios_run_lfsr_next(&l);

			T_ASSERT(v < 1000 && !seen[v]);
			seen[v] = 1;
			sum += v;
		}
		T_ASSERT_U64_EQ(sum, 999 * 1000 / 2);
	}
	return T_PASS;
}

static int test_latency_target(void)
{
	struct ios_run_result r;
	struct ios_err e = { 0 };
	const char *base = "[j]\nrw=randread\ndirect=1\nsize=1g\nioengine=libaio\niodepth=32\n"
			   "runtime=30\nlatency_window=500ms\n";
	char buf[512];
	unsigned d;

	/* a target random reads meet at a few commands in flight, not at 32 */
	snprintf(buf, sizeof(buf), "%slatency_target=40ms\nlatency_percentile=99\n", base);
	T_ASSERT_EQ(run_full(buf, "noop", NULL, NULL, &r, &e), 0);
	d = r.jobs[0].latency_depth;
	fprintf(stderr, "latency_target=40ms: depth %u, error %d, runtime %llu ms\n", d,
		r.jobs[0].error, (unsigned long long)(r.jobs[0].runtime_ns / 1000000));
	T_ASSERT(d > 1 && d < 32);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	/* the report is the last window's: about latency_window long */
	T_ASSERT(r.jobs[0].runtime_ns < 2000000000ULL);
	ios_run_result_free(&r);
	/* met at every depth: iodepth */
	snprintf(buf, sizeof(buf), "%slatency_target=10s\n", base);
	T_ASSERT_EQ(run_full(buf, "noop", NULL, NULL, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].latency_depth, 32);
	ios_run_result_free(&r);
	/* not even depth 1 meets it: fio's "max latency exceeded" */
	snprintf(buf, sizeof(buf), "%slatency_target=100us\n", base);
	T_ASSERT_EQ(run_full(buf, "noop", NULL, NULL, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].error, -ETIMEDOUT);
	T_ASSERT_EQ(r.jobs[0].latency_depth, 1);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_cmdprio_notes(void)
{
	struct ios_run_result r;
	struct ios_err e = { 0 };

	T_ASSERT(run_full("[j]\nrw=randread\ndirect=1\nsize=1m\ncmdprio_percentage=20\n", "noop",
			  NULL, NULL, &r, &e) < 0);
	T_ASSERT(strstr(e.msg, "libaio and io_uring"));
	ios_err_clear(&e);
	T_ASSERT(run_full("[j]\nrw=randread\ndirect=1\nsize=1m\nioengine=libaio\n"
			  "cmdprio_percentage=20\ncmdprio_bssplit=4k/10\n", "noop", NULL, NULL, &r,
			  &e) < 0);
	T_ASSERT(strstr(e.msg, "mutually exclusive"));
	ios_err_clear(&e);
	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=1m\nioengine=libaio\n"
			     "cmdprio_percentage=20\n", "cfq", NULL, NULL, &r, &e), 0);
	T_ASSERT(has_warning(&r, "cmdprio", "nothing here honours it"));
	ios_run_result_free(&r);
	T_ASSERT_EQ(run_full("[j]\nrw=write\ndirect=1\nsize=1m\ndedupe_percentage=50\n"
			     "buffer_compress_percentage=30\n", "noop", NULL, NULL, &r, &e), 0);
	T_ASSERT(has_warning(&r, "dedupe_percentage, buffer_compress_percentage",
			     "neither compress nor deduplicate"));
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_gtod_reduce(void)
{
	struct ios_run_result r;
	struct ios_err e = { 0 };
	const struct ios_dir_result *d;

	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=4m\nioengine=libaio\niodepth=4\n"
			     "gtod_reduce=1\n", "noop", NULL, NULL, &r, &e), 0);
	d = &r.jobs[0].dir[IOS_READ];
	T_ASSERT_EQ(d->total_ios, 1024);
	T_ASSERT_EQ(d->slat.n + d->clat.n + d->lat.n, 0);
	T_ASSERT_EQ(r.jobs[0].nr_lat_samples, 0);
	ios_run_result_free(&r);
	/* disable_clat alone: lat stays, clat and the distribution go */
	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=4m\nioengine=libaio\niodepth=4\n"
			     "disable_clat=1\n", "noop", NULL, NULL, &r, &e), 0);
	d = &r.jobs[0].dir[IOS_READ];
	T_ASSERT_EQ(d->clat.n, 0);
	T_ASSERT_EQ(d->lat.n, 1024);
	T_ASSERT_EQ(d->slat.n, 1024);
	ios_run_result_free(&r);
	/* an option after gtod_reduce wins, as in fio */
	T_ASSERT_EQ(run_full("[j]\nrw=randread\ndirect=1\nsize=4m\ngtod_reduce=1\n"
			     "disable_lat=0\n", "noop", NULL, NULL, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].lat.n, 1024);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_READ].clat.n, 0);
	ios_run_result_free(&r);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_offload_rate, test_offload_sync_depth, test_lfsr_once, test_lfsr_period,
			test_latency_target, test_cmdprio_notes, test_gtod_reduce);

	run_rig_free();
	return ret;
}
