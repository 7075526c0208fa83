/*
 * Description: terse, json+, the pre-run lines and the format list, from
 * fio's documentation and without fio at hand.
 *  - json+: a clat histogram of 20000 known latencies (1 ns to 40 ms,
 *    log-uniform) prints "bins" whose counts add up to N; percentiles
 *    recomputed from the bins (first bin whose running count reaches p% of
 *    N) equal clat_ns.percentile, and lie within the bucket resolution
 *    (1/64 of the value's power of two) of the sorted samples' own;
 *  - terse: field counts of versions 2..5 (fio HOWTO: v3 has 121 fields
 *    before the disks, v4 adds the trim block, v5 the samples fields), the
 *    disk fields and the description at the end, the fields in order;
 *    version 6 is refused;
 *  - the format list: fio's names, commas, refusals, and the order
 *    terse, json, normal;
 *  - the pre-run lines of a parsed job file.
 */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "json_mini.h"

#define NR_SAMPLES 20000

static uint64_t samples[NR_SAMPLES];
static char desc[] = "desc here";

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* one job that read NR_SAMPLES I/Os with known latencies, on one disk */
static int make_result(struct ios_run_result *r, struct ios_job *job)
{
	struct ios_job_result *j;
	uint64_t x = 88172645463325252ull;

	memset(r, 0, sizeof(*r));
	memset(job, 0, sizeof(*job));
	job->iodepth = 1;
	job->description = desc;
	r->jobs = calloc(1, sizeof(*r->jobs));
	r->disks = calloc(1, sizeof(*r->disks));
	if (!r->jobs || !r->disks)
		return -1;
	r->nr_jobs = 1;
	r->nr_disks = 1;
	snprintf(r->disks[0].name, sizeof(r->disks[0].name), "sda");
	r->disks[0].ios[0] = 77;
	r->disks[0].util = 12.5;
	j = &r->jobs[0];
	ios_job_result_init(j);
	j->name = strdup("reader");
	j->job = job;
	if (!j->name || ios_lat_enable_hist(&j->dir[IOS_DDIR_READ].clat))
		return -1;
	for (unsigned i = 0; i < NR_SAMPLES; i++) {
		double e;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		e = (double)(x % 1000000) / 1000000.0 * 17.5;	/* up to 10^7.6 ns */
		samples[i] = (uint64_t)pow(10.0, e / 2.3);
		ios_lat_add(&j->dir[IOS_DDIR_READ].clat, samples[i]);
		ios_lat_add(&j->dir[IOS_DDIR_READ].lat, samples[i] + 100);
		ios_job_mark_latency(j, samples[i]);
	}
	j->dir[IOS_DDIR_READ].total_ios = NR_SAMPLES;
	j->dir[IOS_DDIR_READ].io_bytes = 4096ull * NR_SAMPLES;
	j->dir[IOS_DDIR_READ].runtime_ns = 2000000000ull;
	j->io_depth[0] = NR_SAMPLES;
	j->runtime_ns = 2000000000ull;
	qsort(samples, NR_SAMPLES, sizeof(samples[0]), cmp_u64);
	return 0;
}

static uint64_t bucket_width(uint64_t v)
{
	unsigned msb = v ? 63 - (unsigned)__builtin_clzll(v) : 0;

	return msb < IOS_PLAT_BITS + 1 ? 1 : 1ull << (msb - IOS_PLAT_BITS);
}

static int test_jsonplus_bins(void)
{
	struct ios_run_result r;
	struct ios_job job;
	struct ios_buf b;
	const struct jm *clat, *bins, *pct;
	struct jm *doc;
	const char *err;
	size_t off;
	uint64_t sum = 0;

	T_ASSERT_EQ(make_result(&r, &job), 0);
	ios_buf_init(&b);
	T_ASSERT_EQ(ios_report_json_plus(&r, &b), 0);
	doc = jm_parse(b.s, &err, &off);
	T_ASSERT(doc);
	clat = jm_path(jm_get(doc, "jobs")->items[0], "read/clat_ns");
	bins = jm_get(clat, "bins");
	pct = jm_get(clat, "percentile");
	T_ASSERT(bins && pct && bins->n > 100);
	T_ASSERT(!jm_path(jm_get(doc, "jobs")->items[0], "read/lat_ns/bins"));	/* no hist */
	for (size_t i = 0; i < bins->n; i++) {
		T_ASSERT(i == 0 || strtoull(bins->items[i - 1]->key, NULL, 10) <
				   strtoull(bins->items[i]->key, NULL, 10));
		sum += (uint64_t)bins->items[i]->num;
	}
	T_ASSERT_U64_EQ(sum, (uint64_t)NR_SAMPLES);
	T_ASSERT_U64_EQ(jm_u64(clat, "N"), (uint64_t)NR_SAMPLES);
	for (size_t k = 0; k < pct->n; k++) {
		double p = strtod(pct->items[k]->key, NULL);
		uint64_t run = 0, from_bins = 0, want = (uint64_t)pct->items[k]->num;
		uint64_t truth = samples[(size_t)ceil(p / 100.0 * NR_SAMPLES) - 1];

		for (size_t i = 0; i < bins->n; i++) {
			run += (uint64_t)bins->items[i]->num;
			if ((long double)run >= (long double)p / 100.0L * NR_SAMPLES) {
				from_bins = strtoull(bins->items[i]->key, NULL, 10);
				break;
			}
		}
		T_ASSERT_U64_EQ(from_bins, want);
		T_ASSERT_MSG(want + bucket_width(truth) >= truth && truth + bucket_width(truth) >= want,
			     "p%.2f: reported %llu, samples say %llu", p, (unsigned long long)want,
			     (unsigned long long)truth);
	}
	/* plain json has no bins; everything else is the same document */
	{
		struct ios_buf pb;

		ios_buf_init(&pb);
		T_ASSERT_EQ(ios_report_json(&r, &pb), 0);
		T_ASSERT(!strstr(pb.s, "\"bins\""));
		T_ASSERT(pb.len < b.len);
		ios_buf_free(&pb);
	}
	jm_free(doc);
	ios_buf_free(&b);
	ios_run_result_free(&r);
	return T_PASS;
}

static unsigned nr_fields(const char *line)
{
	unsigned n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ';';
	return n;
}

/* field @k (1-based) of @line into @out */
static const char *field(const char *line, unsigned k, char *out, size_t len)
{
	while (--k && line)
		line = strchr(line, ';') ? strchr(line, ';') + 1 : NULL;
	snprintf(out, len, "%.*s", line ? (int)strcspn(line, ";\n") : 0, line ? line : "");
	return out;
}

static int test_terse_fields(void)
{
	/* header + dirs x (4 + 4 + 4 + 20 + 4 + 5 [+ 6 in v5]) + 5 cpu + 7 + 10 + 12 */
	static const struct {
		unsigned ver, fields;
	} want[] = { { 2, 4 + 3 * 41 + 34 }, { 3, 121 }, { 4, 5 + 3 * 41 + 34 },
		     { 5, 5 + 3 * 47 + 34 } };
	struct ios_run_result r;
	struct ios_job job;
	char f[64];

	T_ASSERT_EQ(make_result(&r, &job), 0);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(want); i++) {
		struct ios_buf b;
		/* v3 and later: 9 fields of the disk; all: the description */
		unsigned extra = (want[i].ver >= 3 ? 9 : 0) + 1;

		ios_buf_init(&b);
		T_ASSERT_EQ(ios_report_terse(&r, want[i].ver, &b), 0);
		T_ASSERT_MSG(nr_fields(b.s) + (want[i].ver == 2) == want[i].fields + extra,
			     "v%u: %u fields", want[i].ver, nr_fields(b.s));
		T_ASSERT(b.len && b.s[b.len - 1] == '\n');
		if (want[i].ver == 3) {
			T_ASSERT(!strncmp(b.s, "3;fio-3.33;reader;0;0;80000;40000;10000;2000;", 45));
			T_ASSERT(!strcmp(field(b.s, 18, f, sizeof(f)), "1.000000%") ||
				 !strncmp(f, "1.000000%=", 10));
			T_ASSERT(!strcmp(field(b.s, 35, f, sizeof(f)), "0%=0"));	/* 18th slot */
			T_ASSERT(!strcmp(field(b.s, 93, f, sizeof(f)), "100.0%"));
			T_ASSERT(!strcmp(field(b.s, 122, f, sizeof(f)), "sda"));
			T_ASSERT(!strcmp(field(b.s, 123, f, sizeof(f)), "77"));
			T_ASSERT(!strcmp(field(b.s, 130, f, sizeof(f)), "12.50%"));
			T_ASSERT(!strcmp(field(b.s, 131, f, sizeof(f)), "desc here"));
		}
		ios_buf_free(&b);
	}
	{
		struct ios_buf b;

		ios_buf_init(&b);
		T_ASSERT_EQ(ios_report_terse(&r, 6, &b), -EINVAL);
		T_ASSERT_EQ(ios_report_terse(&r, 1, &b), -EINVAL);
		ios_buf_free(&b);
	}
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_format_list(void)
{
	struct ios_run_result r;
	struct ios_job job;
	struct ios_report_opts o = { 0 };
	struct ios_buf all, t, j, n;
	unsigned m = 0;

	T_ASSERT_EQ(ios_report_parse_formats("normal", &m), 0);
	T_ASSERT_EQ(m, IOS_OUT_NORMAL);
	T_ASSERT_EQ(ios_report_parse_formats("json+,terse", &m), 0);
	T_ASSERT_EQ(m, IOS_OUT_JSON | IOS_OUT_JSON_PLUS | IOS_OUT_TERSE);
	T_ASSERT_EQ(ios_report_parse_formats("normal,json,normal", &m), 0);
	T_ASSERT_EQ(m, IOS_OUT_NORMAL | IOS_OUT_JSON);
	T_ASSERT_EQ(ios_report_parse_formats("", &m), -EINVAL);
	T_ASSERT_EQ(ios_report_parse_formats("json,", &m), -EINVAL);
	T_ASSERT_EQ(ios_report_parse_formats(",json", &m), -EINVAL);
	T_ASSERT_EQ(ios_report_parse_formats("jsonx", &m), -EINVAL);
	T_ASSERT_EQ(ios_report_parse_formats("json+x", &m), -EINVAL);

	T_ASSERT_EQ(make_result(&r, &job), 0);
	ios_buf_init(&all);
	ios_buf_init(&t);
	ios_buf_init(&j);
	ios_buf_init(&n);
	T_ASSERT_EQ(ios_report_parse_formats("normal,json,terse", &o.formats), 0);
	T_ASSERT_EQ(ios_report(&r, &o, &all), 0);
	T_ASSERT_EQ(ios_report_terse(&r, 3, &t), 0);
	T_ASSERT_EQ(ios_report_json(&r, &j), 0);
	T_ASSERT_EQ(ios_report_normal(&r, &n), 0);
	T_ASSERT_EQ(all.len, t.len + j.len + n.len);
	T_ASSERT(!memcmp(all.s, t.s, t.len));
	T_ASSERT(!memcmp(all.s + t.len, j.s, j.len));
	T_ASSERT(!memcmp(all.s + t.len + j.len, n.s, n.len));
	o.formats = 0;
	T_ASSERT_EQ(ios_report(&r, &o, &all), -EINVAL);
	ios_buf_free(&all);
	ios_buf_free(&t);
	ios_buf_free(&j);
	ios_buf_free(&n);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_preamble(void)
{
	static const char text[] =
		"[global]\nsize=1m\n\n"
		"[a]\nrw=randrw\nbsrange=4k-16k\nthread\n\n"
		"[b]\nstonewall\nrw=write\nbs=8k,64k\nioengine=libaio\niodepth=16\nnumjobs=3\n";
	static const char want[] =
		"a: (g=0): rw=randrw, bs=(R) 4096B-16.0KiB, (W) 4096B-16.0KiB, (T) 4096B-16.0KiB,"
		" ioengine=psync, iodepth=1\n"
		"b: (g=1): rw=write, bs=(R) 8192B-8192B, (W) 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB,"
		" ioengine=libaio, iodepth=16\n"
		"...\n"
		"fio-3.33\n"
		"Starting 1 thread and 3 processes\n";
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_err e = { 0 };
	struct ios_run_result r = { 0 };
	struct ios_report_opts o = { .formats = IOS_OUT_NORMAL, .preamble = true };
	struct ios_buf b, n;

	ios_job_parse_opts_init(&po);
	T_ASSERT_EQ(ios_job_parse_buf("p.fio", text, strlen(text), &po, &jf, &e), 0);
	r.jobfile = &jf;
	ios_buf_init(&b);
	ios_buf_init(&n);
	T_ASSERT_EQ(ios_report_preamble(&r, &b), 0);
	T_ASSERT_MSG(!strcmp(b.s, want), "got:\n%s", b.s);
	/* with normal only; then the normal report follows */
	T_ASSERT_EQ(ios_report(&r, &o, &n), 0);
	T_ASSERT(!strncmp(n.s, want, strlen(want)));
	ios_buf_free(&n);
	ios_buf_init(&n);
	o.formats = IOS_OUT_JSON | IOS_OUT_TERSE;
	T_ASSERT_EQ(ios_report(&r, &o, &n), 0);
	T_ASSERT(!n.s || !strstr(n.s, "Starting"));
	ios_buf_free(&n);
	ios_buf_free(&b);
	ios_jobfile_free(&jf);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_jsonplus_bins, test_terse_fields, test_format_list, test_preamble);
}
