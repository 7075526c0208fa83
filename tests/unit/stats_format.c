/*
 * Description: number and date formatting and the bucket helpers behind
 * the reports. num2str must reproduce what fio 3.33 printed in real runs
 * (e.g. "993MiB/s (1041MB/s)", "IOPS=254k", "28.5KiB (29.2kB)", the carry
 * rounding), dates are ctime-style and UTC, the depth/batch/latency bucket
 * helpers put values in fio's buckets, runtimes round up to whole ms as
 * fio's do, and the output buffer grows without losing text.
 */
#include <string.h>
#include "harness.h"
#include "report/report_int.h"

struct n2s_case {
	uint64_t num;
	int maxlen, base, pow2;
	enum ios_n2s_unit unit;
	const char *want;
};

static int test_num2str_fio_cases(void)
{
	static const struct n2s_case cases[] = {
		/* 1989MiB in 2003 ms: fio printed BW=993MiB/s (1041MB/s) */
		{ 1041246961, 4, 1, 1, IOS_N2S_BYTEPERSEC, "993MiB/s" },
		{ 1041246961, 4, 1, 0, IOS_N2S_BYTEPERSEC, "1041MB/s" },
		{ 254211, 4, 1, 0, IOS_N2S_NONE, "254k" },		/* IOPS=254k */
		{ 102240, 4, 1, 0, IOS_N2S_NONE, "102k" },
		{ 40940, 4, 1, 0, IOS_N2S_NONE, "40.9k" },
		{ 4096000, 4, 1, 0, IOS_N2S_NONE, "4096k" },
		{ 6371, 4, 1, 0, IOS_N2S_NONE, "6371" },
		{ 67108864, 4, 1, 1, IOS_N2S_BYTE, "64.0MiB" },
		{ 67108864, 4, 1, 0, IOS_N2S_BYTE, "67.1MB" },
		{ 16777216000ull, 4, 1, 1, IOS_N2S_BYTEPERSEC, "15.6GiB/s" },
		{ 16777216000ull, 4, 1, 0, IOS_N2S_BYTEPERSEC, "16.8GB/s" },
		{ 8388608, 4, 1, 1, IOS_N2S_BYTE, "8192KiB" },
		{ 8388608, 4, 1, 0, IOS_N2S_BYTE, "8389kB" },	/* carry */
		{ 9724, 4, 1, 1, IOS_N2S_BYTEPERSEC, "9724B/s" },
		{ 29184, 4, 1, 1, IOS_N2S_BYTE, "28.5KiB" },
		{ 29184, 4, 1, 0, IOS_N2S_BYTE, "29.2kB" },
		{ 4194304000ull, 4, 1, 1, IOS_N2S_BYTEPERSEC, "4000MiB/s" },
		{ 4194304000ull, 4, 1, 0, IOS_N2S_BYTEPERSEC, "4194MB/s" },
		/* display_lat uses 6 digits: max=7247.3k */
		{ 7247300, 6, 1, 0, IOS_N2S_NONE, "7247.3k" },
		{ 108327, 6, 1, 0, IOS_N2S_NONE, "108327" },
		/* rounding carries into the integer part */
		{ 999999, 4, 1, 0, IOS_N2S_NONE, "1000k" },
		{ 1999, 3, 1, 0, IOS_N2S_NONE, "2.0k" },
		{ 0, 4, 1, 1, IOS_N2S_BYTE, "0B" },
		/* base: the number is already in KiB */
		{ 2048, 4, 1024, 1, IOS_N2S_BYTE, "2048KiB" },
		{ 1, 4, 1, 0, IOS_N2S_BITPERSEC, "8bit/s" },
	};
	char buf[32];

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		const struct n2s_case *c = &cases[i];

		ios_num2str(buf, sizeof(buf), c->num, c->maxlen, c->base, c->pow2, c->unit);
		T_ASSERT_MSG(!strcmp(buf, c->want), "num2str(%llu): \"%s\", want \"%s\"",
			     (unsigned long long)c->num, buf, c->want);
	}
	return T_PASS;
}

static int test_ctime_utc(void)
{
	static const struct { uint64_t t; const char *want; } cases[] = {
		{ 0, "Thu Jan  1 00:00:00 1970" },
		{ 1000000, "Mon Jan 12 13:46:40 1970" },
		{ 951782400, "Tue Feb 29 00:00:00 2000" },	/* leap day */
		{ 1796030044, "Mon Nov 30 09:14:04 2026" },	/* a fio run, TZ=UTC */
		{ 4107542400ull, "Mon Mar  1 00:00:00 2100" },	/* 2100 is not leap */
	};
	char buf[32];

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		ios_rep_ctime(cases[i].t, buf);
		T_ASSERT_MSG(!strcmp(buf, cases[i].want), "%llu: \"%s\", want \"%s\"",
			     (unsigned long long)cases[i].t, buf, cases[i].want);
	}
	return T_PASS;
}

static int test_depth_and_batch_buckets(void)
{
	static const unsigned depth[][2] = { { 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 },
					     { 7, 2 }, { 8, 3 }, { 16, 4 }, { 31, 4 }, { 32, 5 },
					     { 63, 5 }, { 64, 6 }, { 1000, 6 } };
	static const unsigned batch[][2] = { { 0, 0 }, { 1, 1 }, { 4, 1 }, { 5, 2 }, { 8, 2 },
					     { 9, 3 }, { 16, 3 }, { 17, 4 }, { 32, 4 }, { 33, 5 },
					     { 64, 5 }, { 65, 6 } };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(depth); i++)
		T_ASSERT_MSG(ios_depth_bucket(depth[i][0]) == depth[i][1], "depth %u",
			     depth[i][0]);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(batch); i++)
		T_ASSERT_MSG(ios_batch_bucket(batch[i][0]) == batch[i][1], "batch %u",
			     batch[i][0]);
	return T_PASS;
}

static int test_latency_rows(void)
{
	struct ios_job_result j;

	ios_job_result_init(&j);
	T_ASSERT_EQ(j.nr_merged, 1);
	ios_job_mark_latency(&j, 1);		/* [0, 2) ns */
	ios_job_mark_latency(&j, 2);		/* [2, 4) */
	ios_job_mark_latency(&j, 999);		/* [750, 1000) ns */
	ios_job_mark_latency(&j, 1000);		/* 1 us: [0, 2) us */
	ios_job_mark_latency(&j, 2000);		/* [2, 4) us */
	ios_job_mark_latency(&j, 999999);	/* [750, 1000) us */
	ios_job_mark_latency(&j, 1000000);	/* 1 ms */
	ios_job_mark_latency(&j, 1999999999);	/* [1000, 2000) ms */
	ios_job_mark_latency(&j, 2000000000);	/* >= 2000 ms */
	T_ASSERT_U64_EQ(j.lat_n[0], 1);
	T_ASSERT_U64_EQ(j.lat_n[1], 1);
	T_ASSERT_U64_EQ(j.lat_n[9], 1);
	T_ASSERT_U64_EQ(j.lat_u[0], 1);
	T_ASSERT_U64_EQ(j.lat_u[1], 1);
	T_ASSERT_U64_EQ(j.lat_u[9], 1);
	T_ASSERT_U64_EQ(j.lat_m[0], 1);
	T_ASSERT_U64_EQ(j.lat_m[10], 1);
	T_ASSERT_U64_EQ(j.lat_m[11], 1);
	T_ASSERT_U64_EQ(j.nr_lat_samples, 9);
	return T_PASS;
}

static int test_runtime_ms(void)
{
	/* fio keeps whole microseconds and rounds them up to ms */
	T_ASSERT_U64_EQ(ios_runtime_ms(0), 0);
	T_ASSERT_U64_EQ(ios_runtime_ms(999), 0);
	T_ASSERT_U64_EQ(ios_runtime_ms(1000), 1);
	T_ASSERT_U64_EQ(ios_runtime_ms(1000000), 1);
	T_ASSERT_U64_EQ(ios_runtime_ms(1000999), 1);
	T_ASSERT_U64_EQ(ios_runtime_ms(1001000), 2);
	T_ASSERT_U64_EQ(ios_runtime_ms(2003000000), 2003);
	return T_PASS;
}

static int test_buf_grows(void)
{
	struct ios_buf b;
	char big[3000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ios_buf_init(&b);
	for (int i = 0; i < 1000; i++)
		ios_buf_printf(&b, "%d,", i);
	ios_buf_puts(&b, big);
	ios_buf_printf(&b, "%s|", big);
	T_ASSERT(!b.oom);
	T_ASSERT(!strncmp(b.s, "0,1,2,3,", 8));
	T_ASSERT_EQ(b.len, strlen(b.s));
	T_ASSERT_EQ(b.len, 3890 + 2 * 2999 + 1);
	T_ASSERT_EQ(b.s[b.len - 1], '|');
	ios_buf_free(&b);
	T_ASSERT(b.s == NULL && b.len == 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_num2str_fio_cases, test_ctime_utc, test_depth_and_batch_buckets,
		     test_latency_rows, test_runtime_ms, test_buf_grows);
}
