/*
 * Description: the fio 3.33 JSON report without fio at hand. The output
 * must parse (strict parser), keep fio's key order and layout (two-space
 * indent, " : ", six-decimal floats, as in a real fio document), escape
 * strings, print "global options"/"job options" only for options given a
 * value, "desc" and "disk_util" only when there is something to say,
 * compute bw_agg with fio's integer truncation of the mean, key
 * percentiles "%f"-style, and end with our "iosched" object. An empty
 * result is still a valid document, and output is byte-identical across
 * calls.
 */
#include <string.h>
#include "harness.h"
#include "json_mini.h"

static struct ios_run_result *new_result(size_t nr_jobs)
{
	struct ios_run_result *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->jobs = calloc(nr_jobs ? nr_jobs : 1, sizeof(*r->jobs));
	if (!r->jobs) {
		free(r);
		return NULL;
	}
	r->nr_jobs = nr_jobs;
	for (size_t i = 0; i < nr_jobs; i++)
		ios_job_result_init(&r->jobs[i]);
	r->timestamp = 1796030044;
	r->sim_end_ns = 1500000000;
	r->seed = 7;
	r->nr_events = 1234;
	snprintf(r->scheduler, sizeof(r->scheduler), "cfq");
	snprintf(r->device, sizeof(r->device), "hdd-7200");
	return r;
}

static void free_result(struct ios_run_result *r)
{
	ios_run_result_free(r);
	free(r);
}

static char *render(const struct ios_run_result *r)
{
	struct ios_buf b;

	ios_buf_init(&b);
	if (ios_report_json(r, &b)) {
		ios_buf_free(&b);
		return NULL;
	}
	return b.s;
}

static struct jm *parse_or_report(const char *text)
{
	const char *err = NULL;
	size_t off = 0;
	struct jm *v = jm_parse(text, &err, &off);

	if (!v)
		fprintf(stderr, "  JSON error: %s at offset %zu:\n%.80s\n", err, off, text + off);
	return v;
}

static int keys_are(const struct jm *obj, const char *const *keys, size_t n)
{
	if (!obj || obj->type != JM_OBJ || obj->n != n) {
		fprintf(stderr, "  object has %zu keys, want %zu\n", obj ? obj->n : 0, n);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(obj->items[i]->key, keys[i])) {
			fprintf(stderr, "  key %zu is \"%s\", want \"%s\"\n", i, obj->items[i]->key,
				keys[i]);
			return 0;
		}
	return 1;
}

static int test_key_order_and_layout(void)
{
	static const char *const top[] = { "fio version", "timestamp", "timestamp_ms", "time",
					   "jobs", "iosched" };
	static const char *const job[] = {
		"jobname", "groupid", "error", "eta", "elapsed", "read", "write", "trim", "sync",
		"job_runtime", "usr_cpu", "sys_cpu", "ctx", "majf", "minf", "iodepth_level",
		"iodepth_submit", "iodepth_complete", "latency_ns", "latency_us", "latency_ms",
		"latency_depth", "latency_target", "latency_percentile", "latency_window" };
	static const char *const dir[] = {
		"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime", "total_ios",
		"short_ios", "drop_ios", "slat_ns", "clat_ns", "lat_ns", "bw_min", "bw_max",
		"bw_agg", "bw_mean", "bw_dev", "bw_samples", "iops_min", "iops_max", "iops_mean",
		"iops_stddev", "iops_samples" };
	static const char *const lat[] = { "min", "max", "mean", "stddev", "N" };
	static const char *const ios[] = { "version", "scheduler", "device", "seed",
					   "sim_end_ns", "nr_events", "disk_time", "scheduler_stats",
					   "vm_stats" };
	static const char head[] =
		"{\n"
		"  \"fio version\" : \"fio-3.33\",\n"
		"  \"timestamp\" : 1796030044,\n"
		"  \"timestamp_ms\" : 1796030044000,\n"
		"  \"time\" : \"Mon Nov 30 09:14:04 2026\",\n"
		"  \"jobs\" : [\n"
		"    {\n"
		"      \"jobname\" : \"r\",\n"
		"      \"groupid\" : 0,\n"
		"      \"error\" : 0,\n"
		"      \"eta\" : 2147483647,\n"
		"      \"elapsed\" : 2,\n"
		"      \"read\" : {\n"
		"        \"io_bytes\" : 67108864,\n"
		"        \"io_kbytes\" : 65536,\n"
		"        \"bw_bytes\" : 22369621333,\n"
		"        \"bw\" : 21845333,\n"
		"        \"iops\" : 5461333.333333,\n"
		"        \"runtime\" : 3,\n";
	struct ios_run_result *r = new_result(1);
	struct jm *v;
	char *t, *t2;

	T_ASSERT(r);
	r->jobs[0].name = strdup("r");
	r->jobs[0].dir[0].io_bytes = 67108864;
	r->jobs[0].dir[0].total_ios = 16384;
	r->jobs[0].dir[0].runtime_ns = 3000000;
	r->jobs[0].runtime_ns = 2000000;
	T_ASSERT_EQ(ios_lat_enable_hist(&r->jobs[0].dir[0].clat), 0);
	ios_lat_add(&r->jobs[0].dir[0].clat, 10);
	t = render(r);
	T_ASSERT(t);
	v = parse_or_report(t);
	T_ASSERT(v);
	T_ASSERT(keys_are(v, top, IOS_ARRAY_SIZE(top)));
	T_ASSERT(keys_are(jm_path(v, "jobs/0"), job, IOS_ARRAY_SIZE(job)));
	T_ASSERT(keys_are(jm_path(v, "jobs/0/trim"), dir, IOS_ARRAY_SIZE(dir)));
	T_ASSERT(keys_are(jm_path(v, "jobs/0/write/clat_ns"), lat, IOS_ARRAY_SIZE(lat)));
	T_ASSERT(keys_are(jm_path(v, "iosched"), ios, IOS_ARRAY_SIZE(ios)));
	T_ASSERT(jm_path(v, "jobs/0/read/clat_ns/percentile/99.990000"));
	T_ASSERT(!strcmp(jm_str(v, "iosched/scheduler"), "cfq"));
	T_ASSERT_U64_EQ(jm_u64(v, "iosched/nr_events"), 1234);

	/* fio's layout, from a real fio 3.33 document (null engine, randread) */
	T_ASSERT(!strncmp(t, head, sizeof(head) - 1));
	T_ASSERT(strstr(t, "      \"sync\" : {\n"
			   "        \"total_ios\" : 0,\n"
			   "        \"lat_ns\" : {\n"
			   "          \"min\" : 0,\n"
			   "          \"max\" : 0,\n"
			   "          \"mean\" : 0.000000,\n"
			   "          \"stddev\" : 0.000000,\n"
			   "          \"N\" : 0\n"
			   "        }\n"
			   "      },\n"
			   "      \"job_runtime\" : 2,\n"
			   "      \"usr_cpu\" : 0.000000,\n"));
	T_ASSERT(strstr(t, "        \"2000\" : 0.000000,\n"
			   "        \">=2000\" : 0.000000\n"
			   "      },\n"
			   "      \"latency_depth\" : 1,\n"
			   "      \"latency_target\" : 0,\n"
			   "      \"latency_percentile\" : 100.000000,\n"
			   "      \"latency_window\" : 0\n"
			   "    }\n"
			   "  ],\n"));
	T_ASSERT_EQ(t[strlen(t) - 1], '\n');
	t2 = render(r);
	T_ASSERT(t2 && !strcmp(t, t2));
	free(t2);
	jm_free(v);
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_escaping(void)
{
	static const char name[] = "a \"q\" \\ b\nc\td\x01" "e/\xc3\xa9";
	struct ios_run_result *r = new_result(1);
	struct jm *v;
	char *t;

	T_ASSERT(r);
	r->jobs[0].name = strdup(name);
	t = render(r);
	T_ASSERT(t);
	v = parse_or_report(t);
	T_ASSERT(v);
	T_ASSERT(!strcmp(jm_str(v, "jobs/0/jobname"), name));
	T_ASSERT(strstr(t, "\"a \\\"q\\\" \\\\ b\\nc\\td\\u0001e/\xc3\xa9\""));
	jm_free(v);
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_options_and_optional_keys(void)
{
	struct ios_kv gopts[] = { { (char *)"ioengine", (char *)"libaio" },
				  { (char *)"time_based", (char *)"" },
				  { (char *)"size", (char *)"1g" } };
	struct ios_kv jopts1[] = { { (char *)"stonewall", (char *)"" } };
	struct ios_kv jopts2[] = { { (char *)"rw", (char *)"randread" },
				   { (char *)"new_group", (char *)"" },
				   { (char *)"iodepth", (char *)"8" } };
	struct ios_jobfile jf;
	struct ios_job job1, job2;
	struct ios_run_result *r = new_result(2);
	struct jm *v;
	char *t;

	T_ASSERT(r);
	memset(&jf, 0, sizeof(jf));
	memset(&job1, 0, sizeof(job1));
	memset(&job2, 0, sizeof(job2));
	jf.global_opts = gopts;
	jf.nr_global_opts = 3;
	job1.opts = jopts1;
	job1.nr_opts = 1;
	job2.opts = jopts2;
	job2.nr_opts = 3;
	job2.iodepth = 8;
	job2.description = (char *)"the \"second\" one";
	r->jobfile = &jf;
	r->jobs[0].name = strdup("one");
	r->jobs[0].job = &job1;
	r->jobs[1].name = strdup("two");
	r->jobs[1].job = &job2;
	r->disks = calloc(1, sizeof(*r->disks));
	T_ASSERT(r->disks);
	r->nr_disks = 1;
	snprintf(r->disks[0].name, sizeof(r->disks[0].name), "sda");
	r->disks[0].ios[0] = 10;
	r->disks[0].util = 12.5;
	t = render(r);
	T_ASSERT(t);
	v = parse_or_report(t);
	T_ASSERT(v);
	/* bare flags (stored with an empty value) are not printed, as in fio */
	T_ASSERT_EQ(jm_get(v, "global options")->n, 2);
	T_ASSERT(!strcmp(jm_str(v, "global options/size"), "1g"));
	T_ASSERT(!jm_path(v, "global options/time_based"));
	T_ASSERT(!jm_path(v, "jobs/0/job options"));	/* only a bare flag */
	T_ASSERT_EQ(jm_path(v, "jobs/1/job options")->n, 2);
	T_ASSERT(!strcmp(jm_path(v, "jobs/1")->items[5]->key, "job options"));
	T_ASSERT(!strcmp(jm_str(v, "jobs/1/job options/iodepth"), "8"));
	T_ASSERT_U64_EQ(jm_u64(v, "jobs/1/latency_depth"), 8);
	T_ASSERT(!jm_path(v, "jobs/0/desc"));
	T_ASSERT(!strcmp(jm_str(v, "jobs/1/desc"), "the \"second\" one"));
	T_ASSERT(!strcmp(jm_path(v, "jobs/1")->items[jm_path(v, "jobs/1")->n - 1]->key, "desc"));
	/* disk_util after jobs, with fio 3.33's keys */
	{
		static const char *const top[] = { "fio version", "timestamp", "timestamp_ms",
						   "time", "global options", "jobs", "disk_util",
						   "iosched" };
		static const char *const dk[] = { "name", "read_ios", "write_ios", "read_merges",
						   "write_merges", "read_ticks", "write_ticks",
						   "in_queue", "util" };

		T_ASSERT(keys_are(v, top, IOS_ARRAY_SIZE(top)));
		T_ASSERT(keys_are(jm_path(v, "disk_util/0"), dk, IOS_ARRAY_SIZE(dk)));
		T_ASSERT_NEAR(jm_num(v, "disk_util/0/util"), 12.5, 0);
	}
	jm_free(v);
	free(t);
	free_result(r);
	return T_PASS;
}

/* fio: two jobs at 3070 and 6653 B/s; means 3.0 and 6.4 KiB/s */
static int test_bw_agg_and_percentile_keys(void)
{
	static const double plist[] = { 50, 99, 99.999 };
	struct ios_run_result *r = new_result(2);
	struct jm *v;
	char *t;

	T_ASSERT(r);
	for (int i = 0; i < 2; i++) {
		struct ios_dir_result *d = &r->jobs[i].dir[0];

		r->jobs[i].name = strdup(i ? "b" : "a");
		d->io_bytes = i ? 19968 : 9216;
		d->total_ios = d->io_bytes / 512;
		d->runtime_ns = 3001000000ull;
		for (int k = 0; k < 5; k++)
			ios_sample_add(&d->bw, i ? (k < 2 ? 7 : 6) : 3);
	}
	T_ASSERT_EQ(ios_lat_enable_hist(&r->jobs[1].dir[0].clat), 0);
	for (int k = 0; k < 1000; k++)
		ios_lat_add(&r->jobs[1].dir[0].clat, 20 + (uint64_t)k % 50);
	r->jobs[1].pcts = plist;
	r->jobs[1].nr_pcts = 3;
	t = render(r);
	T_ASSERT(t);
	v = parse_or_report(t);
	T_ASSERT(v);
	/* fio printed bw_agg 31.591937 and 63.183875 (6.4 counted as 6) */
	T_ASSERT(strstr(t, "\"bw_agg\" : 31.591937,"));
	T_ASSERT(strstr(t, "\"bw_agg\" : 63.183875,"));
	T_ASSERT_U64_EQ(jm_u64(v, "jobs/0/read/bw_bytes"), 3070);
	T_ASSERT_U64_EQ(jm_u64(v, "jobs/0/read/bw"), 2);
	T_ASSERT_U64_EQ(jm_u64(v, "jobs/1/read/bw_max"), 7);
	T_ASSERT_NEAR(jm_num(v, "jobs/1/read/bw_mean"), 6.4, 1e-9);
	T_ASSERT_U64_EQ(jm_u64(v, "jobs/1/read/bw_samples"), 5);
	/* bw_agg is 0 without samples (write direction) */
	T_ASSERT_NEAR(jm_num(v, "jobs/0/write/bw_agg"), 0, 0);
	T_ASSERT_EQ(jm_path(v, "jobs/1/read/clat_ns/percentile")->n, 3);
	T_ASSERT_U64_EQ(jm_u64(v, "jobs/1/read/clat_ns/percentile/50.000000"), 44);
	T_ASSERT_U64_EQ(jm_u64(v, "jobs/1/read/clat_ns/percentile/99.999000"), 69);
	T_ASSERT(!jm_path(v, "jobs/0/read/clat_ns/percentile"));	/* no histogram */
	jm_free(v);
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_distributions(void)
{
	struct ios_run_result *r = new_result(1);
	struct ios_job_result *j;
	struct jm *v;
	char *t;

	T_ASSERT(r);
	j = &r->jobs[0];
	j->name = strdup("d");
	j->dir[0].total_ios = 3000;
	j->dir[1].total_ios = 1000;
	j->io_depth[0] = 3999;
	j->io_depth[6] = 1;		/* 0.025% shows as 0.1 */
	j->io_submit[1] = 10;
	j->io_complete[2] = 4;
	j->io_complete[3] = 12;
	j->lat_u[9] = 4000;
	j->lat_m[11] = 0;
	t = render(r);
	T_ASSERT(t);
	v = parse_or_report(t);
	T_ASSERT(v);
	T_ASSERT_NEAR(jm_num(v, "jobs/0/iodepth_level/1"), 99.975, 1e-9);
	T_ASSERT_NEAR(jm_num(v, "jobs/0/iodepth_level/>=64"), 0.1, 1e-9);
	T_ASSERT_NEAR(jm_num(v, "jobs/0/iodepth_submit/4"), 100, 1e-9);
	T_ASSERT_NEAR(jm_num(v, "jobs/0/iodepth_complete/8"), 25, 1e-9);
	T_ASSERT_NEAR(jm_num(v, "jobs/0/iodepth_complete/16"), 75, 1e-9);
	T_ASSERT_NEAR(jm_num(v, "jobs/0/latency_us/1000"), 100, 1e-9);
	T_ASSERT_NEAR(jm_num(v, "jobs/0/latency_ms/>=2000"), 0, 0);
	jm_free(v);
	free(t);
	free_result(r);
	return T_PASS;
}

static int test_empty_result(void)
{
	struct ios_run_result *r = new_result(0);
	struct jm *v;
	char *t;

	T_ASSERT(r);
	t = render(r);
	T_ASSERT(t);
	v = parse_or_report(t);
	T_ASSERT(v);
	T_ASSERT(jm_get(v, "jobs") && jm_get(v, "jobs")->n == 0);
	jm_free(v);
	free(t);
	free_result(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_key_order_and_layout, test_escaping, test_options_and_optional_keys,
		     test_bw_agg_and_percentile_keys, test_distributions, test_empty_result);
}
