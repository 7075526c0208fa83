/*
 * Description: the offsets of fio's patterns that are more than "next block"
 * or "random block", as fio 3.33's HOWTO describes them and its io_u.c
 * computes them: zonemode=strided (zonesize bytes, then skip zoneskip; a
 * zonesize above zonerange revisits the zone; the zones wrap at the end of
 * the file), rw=read:N holes (the first I/O has none; a hole that lands past
 * the end wraps, an I/O that ends exactly at the end of the file ends the
 * job), rw=read:-N backward reads, and rw=randread:N with rw_sequencer. The
 * offsets are read back from the job's write_iolog. Each expected list
 * below was also produced by the real fio 3.33 (ioengine=null, write_iolog)
 * and compared line by line.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"

#define MAX_IOS 20000

static uint64_t offs[MAX_IOS];
static size_t nr_offs;

/* Run @opts as job 'j' (direct, raw device) and read its iolog's offsets. */
static int run_offsets(const char *opts)
{
	char dir[] = "/tmp/iosched-off-XXXXXX", path[64], job[512], line[128];
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_result r;
	struct ios_err e = { 0 };
	FILE *f;
	int ret;

	nr_offs = 0;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/j.log", dir);
	snprintf(job, sizeof(job), "[j]\ndirect=1\n%s\nwrite_iolog=%s\n", opts, path);
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("o.fio", job, strlen(job), &po, &jf, &e);
	if (!ret)
		ret = ios_settings_add_kv(&set, "lab.fs=raw", "test", &e);
	if (!ret) {
		cfg.scheduler = "noop";
		cfg.device = "hdd-2009";
		cfg.seed = 3;
		cfg.settings = &set;
		ret = ios_run(&jf, &cfg, &r, &e);
		if (!ret)
			ios_run_result_free(&r);
	}
	if (ret)
		fprintf(stderr, "run failed: %s\n", e.msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long us, off, len;
		char name[32], act[16];

		if (sscanf(line, "%llu %31s %15s %llu %llu", &us, name, act, &off, &len) == 5 &&
		    (!strcmp(act, "read") || !strcmp(act, "write")) && nr_offs < MAX_IOS)
			offs[nr_offs++] = off;
	}
	if (f)
		fclose(f);
	unlink(path);
	rmdir(dir);
	return ret;
}

/* zonesize=64k zoneskip=192k: 64k of every 256k, the file read 4 times round */
static int test_strided_zones(void)
{
	size_t i;

	T_ASSERT_EQ(run_offsets("rw=read\nbs=16k\nsize=1m\nzonemode=strided\nzonesize=64k\n"
				"zoneskip=192k"), 0);
	T_ASSERT_EQ(nr_offs, 64);	/* size=1m of I/O, as fio */
	for (i = 0; i < nr_offs; i++) {
		uint64_t zone = (i / 4) % 4, in = i % 4;

		T_ASSERT_MSG(offs[i] == zone * 256 * 1024 + in * 16384, "I/O %zu at %llu", i,
			     (unsigned long long)offs[i]);
	}
	return T_PASS;
}

/* zonesize=128k zonerange=64k: each 64k zone twice, then 64k skipped */
static int test_zonesize_above_zonerange(void)
{
	size_t i;

	T_ASSERT_EQ(run_offsets("rw=read\nbs=4k\nsize=1m\nzonemode=strided\nzonesize=128k\n"
				"zonerange=64k\nzoneskip=64k"), 0);
	T_ASSERT_EQ(nr_offs, 256);
	for (i = 0; i < nr_offs; i++) {
		uint64_t zone = (i / 32) % 8, in = i % 16;

		T_ASSERT_MSG(offs[i] == zone * 128 * 1024 + in * 4096, "I/O %zu at %llu", i,
			     (unsigned long long)offs[i]);
	}
	return T_PASS;
}

/* random offsets stay within the current zone */
static int test_strided_random(void)
{
	size_t i;

	T_ASSERT_EQ(run_offsets("rw=randread\nbs=4k\nsize=1m\nzonemode=strided\nzonesize=32k\n"
				"zoneskip=96k"), 0);
	T_ASSERT_EQ(nr_offs, 256);
	for (i = 0; i < nr_offs; i++) {
		uint64_t zone = (i / 8) % 8;

		T_ASSERT_MSG(offs[i] >= zone * 128 * 1024 && offs[i] < zone * 128 * 1024 + 32768,
			     "I/O %zu at %llu outside zone %llu", i, (unsigned long long)offs[i],
			     (unsigned long long)zone);
	}
	return T_PASS;
}

/*
 * rw=read:8k bs=4k: one block in three; the 86th I/O ends exactly at the
 * end of the 1 MiB file, which ends the job (344 KiB done, as fio).
 */
static int test_holes(void)
{
	size_t i;

	T_ASSERT_EQ(run_offsets("rw=read:8k\nbs=4k\nsize=1m"), 0);
	T_ASSERT_EQ(nr_offs, 86);
	for (i = 0; i < nr_offs; i++)
		T_ASSERT_EQ(offs[i], i * 12288);
	/* a hole that lands past the end wraps to the start */
	T_ASSERT_EQ(run_offsets("rw=read:12k\nbs=4k\nsize=1m"), 0);
	T_ASSERT_EQ(nr_offs, 256);
	for (i = 0; i < nr_offs; i++)
		T_ASSERT_EQ(offs[i], (i % 64) * 16384);
	return T_PASS;
}

/* rw=read:-8k bs=4k: the first block, then backwards from the end */
static int test_backward(void)
{
	const uint64_t S = 256 * 1024;
	size_t i;

	T_ASSERT_EQ(run_offsets("rw=read:-8k\nbs=4k\nsize=256k"), 0);
	T_ASSERT_EQ(nr_offs, 64);
	T_ASSERT_EQ(offs[0], 0);
	for (i = 1; i < nr_offs; i++)
		T_ASSERT_MSG(offs[i] == S - 4096 - i * 4096, "I/O %zu at %llu", i,
			     (unsigned long long)offs[i]);
	return T_PASS;
}

/*
 * rw=randread:8: a random offset, then 7 more I/Os: sequential after it,
 * or with rw_sequencer=identical at the same offset.
 */
static int test_rw_sequencer(void)
{
	size_t i;

	T_ASSERT_EQ(run_offsets("rw=randread:8\nbs=4k\nsize=1m\nrw_sequencer=identical\n"
				"norandommap=1"), 0);
	T_ASSERT_EQ(nr_offs, 256);
	for (i = 0; i < nr_offs; i++)
		T_ASSERT_EQ(offs[i], offs[i / 8 * 8]);
	T_ASSERT(offs[0] != offs[8] || offs[8] != offs[16]);
	T_ASSERT_EQ(run_offsets("rw=randread:8\nbs=4k\nsize=1m\nnorandommap=1"), 0);
	T_ASSERT_EQ(nr_offs, 256);
	for (i = 0; i < nr_offs; i++)
		if (i % 8 && offs[i - 1] + 4096 < 1 << 20)
			T_ASSERT_EQ(offs[i], offs[i - 1] + 4096);
	return T_PASS;
}

/* share of the I/Os below @lim */
static double share_below(uint64_t lim)
{
	size_t i, n = 0;

	for (i = 0; i < nr_offs; i++)
		n += offs[i] < lim;
	return nr_offs ? (double)n / (double)nr_offs : 0;
}

/*
 * zoned:50/10:50/90 (HOWTO: "50% of accesses to the first 10% of the
 * file"): without a random map, about half the I/Os land in the first 10 %.
 * zoned_abs:60/2m:40/14m: 60 % in the first 2 MiB. With the random map (fio's
 * default), a full pass visits every block once, whatever the zones.
 */
static int test_zoned(void)
{
	double s;
	size_t i;
	static uint8_t seen[4096];

	T_ASSERT_EQ(run_offsets("rw=randread\nbs=4k\nsize=16m\nnorandommap=1\n"
				"random_distribution=zoned:50/10:50/90"), 0);
	T_ASSERT_EQ(nr_offs, 4096);
	s = share_below(16 << 20) - share_below(0);
	printf("zoned:50/10:50/90: %.3f in the first 10%%\n", share_below((16 << 20) / 10));
	T_ASSERT_MSG(fabs(share_below((16 << 20) / 10) - 0.5) < 0.03, "share %.3f",
		     share_below((16 << 20) / 10));
	T_ASSERT(s == 1.0);
	T_ASSERT_EQ(run_offsets("rw=randread\nbs=4k\nsize=16m\nnorandommap=1\n"
				"random_distribution=zoned_abs:60/2m:40/14m"), 0);
	T_ASSERT_MSG(fabs(share_below(2 << 20) - 0.6) < 0.03, "share %.3f", share_below(2 << 20));
	T_ASSERT_EQ(run_offsets("rw=randread\nbs=4k\nsize=16m\n"
				"random_distribution=zoned:50/10:50/90"), 0);
	T_ASSERT_EQ(nr_offs, 4096);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < nr_offs; i++)
		seen[offs[i] / 4096]++;
	for (i = 0; i < 4096; i++)
		T_ASSERT_EQ(seen[i], 1);
	/* the first 1000 I/Os still favour the hot zone */
	nr_offs = 1000;
	T_ASSERT(share_below((16 << 20) / 10) > 0.4);
	return T_PASS;
}

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * zipf:1.2 over 4096 blocks: the 10 % most used blocks take about 90 % of
 * the I/Os (sum of 1/k^1.2 up to 410 over the sum up to 4096); uniform would
 * give them a little more than 10 %.
 */
static int test_zipf(void)
{
	static unsigned cnt[4096];
	double top = 0, want = 0, all = 0;
	size_t i;

	T_ASSERT_EQ(run_offsets("rw=randread\nbs=4k\nsize=16m\nnumber_ios=4000\nloops=5\n"
				"random_distribution=zipf:1.2"), 0);
	T_ASSERT_EQ(nr_offs, 20000);
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < nr_offs; i++)
		cnt[offs[i] / 4096]++;
	qsort(cnt, 4096, sizeof(cnt[0]), cmp_desc);
	for (i = 0; i < 410; i++)
		top += cnt[i];
	for (i = 1; i <= 4096; i++) {
		all += pow(1.0 / (double)i, 1.2);
		if (i <= 410)
			want += pow(1.0 / (double)i, 1.2);
	}
	printf("zipf:1.2 top 10%% of blocks: %.3f of I/Os (zipf: %.3f)\n", top / 20000.0, want / all);
	T_ASSERT_MSG(fabs(top / 20000.0 - want / all) < 0.04, "top 10%%: %.3f, zipf %.3f",
		     top / 20000.0, want / all);
	/* normal and pareto parse and run */
	T_ASSERT_EQ(run_offsets("rw=randread\nbs=4k\nsize=1m\nrandom_distribution=pareto:0.3"), 0);
	T_ASSERT_EQ(nr_offs, 256);
	T_ASSERT_EQ(run_offsets("rw=randread\nbs=4k\nsize=1m\nrandom_distribution=normal:10"), 0);
	T_ASSERT_EQ(nr_offs, 256);
	return T_PASS;
}

/* number_ios ends the job after that many I/Os, times loops (fio's exceeds_number_ios) */
static int test_number_ios(void)
{
	T_ASSERT_EQ(run_offsets("rw=read\nbs=4k\nsize=1m\nnumber_ios=100"), 0);
	T_ASSERT_EQ(nr_offs, 100);
	T_ASSERT_EQ(run_offsets("rw=randwrite\nbs=4k\nsize=1m\nnumber_ios=37\nloops=2"), 0);
	T_ASSERT_EQ(nr_offs, 74);
	/* it never extends the job */
	T_ASSERT_EQ(run_offsets("rw=read\nbs=4k\nsize=64k\nnumber_ios=100"), 0);
	T_ASSERT_EQ(nr_offs, 16);
	return T_PASS;
}

/*
 * CPU placement options run as if absent, with one note per job (not per
 * clone); gtod_reduce=0 and disable_lat=0 (fio's defaults) are accepted.
 */
static int test_cpu_options_noted(void)
{
	static const char job[] = "[j]\nioengine=null\nsize=64k\nnumjobs=2\n"
				  "cpus_allowed=0-3\ncpus_allowed_policy=split\n"
				  "numa_mem_policy=bind:0\ngtod_reduce=0\ndisable_lat=0\n";
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result r;
	struct ios_err e = { 0 };
	size_t i, notes = 0;

	ios_job_parse_opts_init(&po);
	T_ASSERT_EQ(ios_job_parse_buf("c.fio", job, strlen(job), &po, &jf, &e), 0);
	T_ASSERT_EQ(jf.jobs[0].cpu_opts, IOS_CPUOPT_CPUS_ALLOWED | IOS_CPUOPT_CPUS_POLICY |
					 IOS_CPUOPT_NUMA_MEM);
	cfg.scheduler = "noop";
	cfg.device = "hdd-2009";
	T_ASSERT_EQ(ios_run(&jf, &cfg, &r, &e), 0);
	for (i = 0; i < r.nr_warnings; i++)
		if (strstr(r.warnings[i], "cpus_allowed, cpus_allowed_policy, numa_mem_policy: "
				"CPU and memory placement has no effect"))
			notes++;
	T_ASSERT_EQ(notes, 1);
	ios_run_result_free(&r);
	ios_jobfile_free(&jf);
	return T_PASS;
}

/* the warnings of a run of @job that contain @needle */
static size_t count_notes(const char *job, const char *needle)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result r;
	struct ios_err e = { 0 };
	size_t i, n = 0;

	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf("n.fio", job, strlen(job), &po, &jf, &e))
		return SIZE_MAX;
	cfg.scheduler = "noop";
	cfg.device = "hdd-2009";
	if (!ios_run(&jf, &cfg, &r, &e)) {
		for (i = 0; i < r.nr_warnings; i++)
			n += strstr(r.warnings[i], needle) != NULL;
		ios_run_result_free(&r);
	}
	ios_jobfile_free(&jf);
	return n;
}

/* options fio ignores for the job's pattern are noted, once per job */
static int test_ignored_noted(void)
{
	T_ASSERT_EQ(count_notes("[j]\nioengine=null\nsize=64k\nnumjobs=3\n"
				"random_distribution=zipf\n", "random_distribution has no effect"), 1);
	T_ASSERT_EQ(count_notes("[j]\nioengine=null\nsize=64k\nrw=randread\n"
				"rw_sequencer=identical\n", "rw_sequencer=identical has no effect"), 1);
	T_ASSERT_EQ(count_notes("[j]\nioengine=null\nsize=64k\nzoneskip=4k\n",
				"zoneskip have no effect"), 1);
	T_ASSERT_EQ(count_notes("[j]\nioengine=null\nsize=64k\nrw=randread\n"
				"random_distribution=zipf\n", "no effect"), 0);
	return T_PASS;
}

/*
 * A file whose size is not a multiple of the block: fio 3.33 stops where
 * the next I/O would pass the file's end (io_u.c fill_io_u) or start past
 * the region (get_next_offset), and a random job when every whole block was
 * done; loops= and io_size= start new passes. Before issue 28 iosched
 * wrapped and did 2 I/Os of size=5000 bs=4k. The counts are fio 3.33's
 * (fio --name=t --filename=F --size=5000 --bs=4k --rw=read, ...).
 */
static int test_file_end(void)
{
	static const struct {
		const char *opts;
		size_t ios;
		uint64_t distinct;	/* different offsets (0: no check) */
	} cases[] = {
		{ "size=5000\nbs=4k\nrw=read", 1, 1 },
		{ "size=5000\nbs=4k\nrw=write", 1, 1 },
		{ "size=5000\nbs=4k\nrw=randread", 1, 1 },
		{ "size=5000\nbs=4k\nrw=randwrite", 1, 1 },
		{ "size=10000\nbs=4k\nrw=read", 2, 2 },
		{ "size=10000\nbs=4k\nrw=randread", 2, 2 },
		{ "size=20000\nbs=4k\nrw=randread\nnrfiles=2", 4, 0 },
		{ "size=5000\nbs=4k\nrw=read\nloops=3", 3, 1 },
		{ "size=5000\nbs=4k\nrw=randwrite\nloops=3", 3, 1 },
		{ "size=5000\nbs=4k\nrw=read\nio_size=20000", 4, 1 },
		{ "size=10000\nbs=4k\nrw=write\nio_size=30000", 8, 2 },
		{ "size=100000\nbs=4k\nrw=randread\nrandom_generator=lfsr", 24, 24 },
		/* norandommap draws with replacement until size is done, as fio */
		{ "size=13000\nbs=4k\nrw=randread\nnorandommap", 4, 0 },
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		uint64_t seen[64];
		size_t nseen = 0;

		T_ASSERT_EQ(run_offsets(cases[i].opts), 0);
		T_ASSERT_MSG(nr_offs == cases[i].ios, "%s: %zu I/Os, fio does %zu", cases[i].opts,
			     nr_offs, cases[i].ios);
		for (size_t k = 0; k < nr_offs && nseen < 64; k++) {
			size_t m = 0;

			while (m < nseen && seen[m] != offs[k])
				m++;
			if (m == nseen)
				seen[nseen++] = offs[k];
		}
		if (cases[i].distinct)
			T_ASSERT_MSG(nseen == cases[i].distinct, "%s: %zu offsets, want %" PRIu64,
				     cases[i].opts, nseen, cases[i].distinct);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_strided_zones, test_zonesize_above_zonerange, test_strided_random,
		     test_holes, test_backward, test_rw_sequencer, test_zoned, test_zipf,
		     test_number_ios, test_cpu_options_noted, test_ignored_noted, test_file_end);
}
