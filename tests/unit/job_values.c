/*
 * Description: job-file values are read as fio 3.33 reads them: size
 * suffixes (k = 1024, kib = 1000, kb_base=1000 swaps both, "ki" refused as
 * ambiguous), hex, percentages, time units with each option's default unit,
 * ranges, per-direction lists with fio's trailing-comma rule, the
 * $pagesize/$mb_memory/$ncpus keywords of the simulated machine, and
 * arithmetic in parentheses.
 */
#include "job_util.h"

#define KiB 1024ULL
#define MiB (1024ULL * 1024)

static int test_size_suffixes(void)
{
	static const struct { const char *v; uint64_t bytes; } cases[] = {
		{ "4096", 4096 }, { "4k", 4 * KiB }, { "4K", 4 * KiB }, { "4kb", 4 * KiB },
		{ "4KB", 4 * KiB }, { "4kB", 4 * KiB }, { "1m", MiB }, { "1M", MiB },
		{ "1g", 1024 * MiB }, { "1t", 1024 * 1024 * MiB },
		{ "1p", 1024ULL * 1024 * 1024 * MiB },
		{ "4b", 4 }, { "4B", 4 },
		/* fio's inversion: the IEC spellings are powers of 1000 */
		{ "4kib", 4000 }, { "4KiB", 4000 }, { "1mib", 1000000 }, { "1MiB", 1000000 },
		{ "1gib", 1000000000ULL }, { "1tib", 1000000000000ULL },
		{ "0x1000", 4096 }, { "0X10k", 16 * KiB },
	};
	char buf[128];
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		const struct ios_job *j;

		snprintf(buf, sizeof(buf), "[j]\nsize=%s\n", cases[i].v);
		j = jt_job(buf);
		T_ASSERT_MSG(j, "size=%s did not parse", cases[i].v);
		T_ASSERT_MSG(j->size == cases[i].bytes, "size=%s gave %" PRIu64 ", want %" PRIu64,
			     cases[i].v, j->size, cases[i].bytes);
	}
	jt_cleanup();
	return T_PASS;
}

static int test_kb_base_1000(void)
{
	const struct ios_job *j;

	/* kb_base=1000 swaps: k = 1000, kib = 1024 */
	j = jt_job("[j]\nkb_base=1000\nsize=1m\nbs=4kib\nio_size=2k\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->kb_base, 1000);
	T_ASSERT_U64_EQ(j->size, 1000000);
	T_ASSERT_U64_EQ(j->bs[0], 4096);
	T_ASSERT_U64_EQ(j->io_size, 2000);

	/* fio applies kb_base before the section's other options, wherever it is */
	j = jt_job("[j]\nsize=1m\nkb_base=1000\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->size, 1000000);

	/* ... and a job inherits it from [global] */
	T_ASSERT_EQ(jt_parse("[global]\nkb_base=1000\n[a]\nsize=1k\n"), 0);
	T_ASSERT_U64_EQ(jt_jf.jobs[0].size, 1000);

	/* but a global size was read with the kb_base in force in [global] */
	T_ASSERT_EQ(jt_parse("[global]\nsize=1k\n[a]\nkb_base=1000\n"), 0);
	T_ASSERT_U64_EQ(jt_jf.jobs[0].size, 1024);
	jt_cleanup();
	return T_PASS;
}

static int test_size_rejects(void)
{
	T_ASSERT(jt_fails("[j]\nsize=4ki\n", -EINVAL, "t.fio:2", "'size=4ki'", "ambiguous", NULL));
	T_ASSERT(jt_fails("[j]\nsize=4x\n", -EINVAL, "unknown size suffix 'x'", NULL));
	T_ASSERT(jt_fails("[j]\nsize=1.5k\n", -EINVAL, "fractional", NULL));
	T_ASSERT(jt_fails("[j]\nsize=10z\n", -EINVAL, "zone", NULL));
	T_ASSERT(jt_fails("[j]\nsize=k\n", -EINVAL, "not a size", NULL));
	T_ASSERT(jt_fails("[j]\nsize=-1\n", -EINVAL, "not a size", NULL));
	T_ASSERT(jt_fails("[j]\nsize=99999999999999999999\n", -ERANGE, "too large", NULL));
	T_ASSERT(jt_fails("[j]\nsize=16777216p\n", -ERANGE, "too large", NULL));
	jt_cleanup();
	return T_PASS;
}

static int test_percentages(void)
{
	const struct ios_job *j = jt_job("[j]\nsize=20%\noffset=10%\nio_size=50%\n"
					 "offset_increment=5%\n");

	T_ASSERT(j);
	T_ASSERT_EQ(j->size_pct, 20);
	T_ASSERT_U64_EQ(j->size, 0);
	T_ASSERT_EQ(j->offset_pct, 10);
	T_ASSERT_EQ(j->io_size_pct, 50);
	T_ASSERT_EQ(j->offset_increment_pct, 5);
	T_ASSERT(jt_fails("[j]\nsize=0%\n", -ERANGE, "allowed 1..100%", NULL));
	T_ASSERT(jt_fails("[j]\nsize=101%\n", -ERANGE, "allowed 1..100%", NULL));
	T_ASSERT(jt_fails("[j]\noffset=101%\n", -ERANGE, "allowed 0..100%", NULL));
	T_ASSERT(jt_fails("[j]\nbs=10%\n", -EINVAL, "percentage is not allowed", NULL));
	j = jt_job("[j]\noffset=0%\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->offset_pct, 0);
	jt_cleanup();
	return T_PASS;
}

static int test_time_units(void)
{
	static const struct { const char *opt, *v; uint64_t ns; } cases[] = {
		/* seconds by default */
		{ "runtime", "10", 10 * IOS_NSEC_PER_SEC },
		{ "runtime", "10s", 10 * IOS_NSEC_PER_SEC },
		{ "runtime", "10S", 10 * IOS_NSEC_PER_SEC },
		{ "runtime", "2m", 120 * IOS_NSEC_PER_SEC },
		{ "runtime", "2M", 120 * IOS_NSEC_PER_SEC },
		{ "runtime", "1h", 3600 * IOS_NSEC_PER_SEC },
		{ "runtime", "1d", 86400 * IOS_NSEC_PER_SEC },
		{ "runtime", "250ms", 250 * 1000000ULL },
		{ "runtime", "250msec", 250 * 1000000ULL },
		{ "runtime", "7us", 7000 },
		{ "runtime", "7USEC", 7000 },
		{ "timeout", "200", 200 * IOS_NSEC_PER_SEC },	/* fio 1.x name */
		{ "ramp_time", "5", 5 * IOS_NSEC_PER_SEC },
		/* microseconds by default */
		{ "thinktime", "10", 10000 },
		{ "thinktime", "10ms", 10 * 1000000ULL },
		{ "thinktime", "1s", IOS_NSEC_PER_SEC },
		{ "thinktime_spin", "3", 3000 },
	};
	char buf[128];
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		const struct ios_job *j;
		uint64_t got;

		snprintf(buf, sizeof(buf), "[j]\nthinktime=1h\n%s=%s\n", cases[i].opt, cases[i].v);
		j = jt_job(buf);
		T_ASSERT_MSG(j, "%s=%s did not parse", cases[i].opt, cases[i].v);
		if (!strcmp(cases[i].opt, "ramp_time"))
			got = j->ramp_time_ns;
		else if (!strcmp(cases[i].opt, "thinktime"))
			got = j->thinktime_ns;
		else if (!strcmp(cases[i].opt, "thinktime_spin"))
			got = j->thinktime_spin_ns;
		else
			got = j->runtime_ns;
		T_ASSERT_MSG(got == cases[i].ns, "%s=%s gave %" PRIu64 " ns, want %" PRIu64,
			     cases[i].opt, cases[i].v, got, cases[i].ns);
	}
	/* fio reads "10sec" as 10 microseconds; its HOWTO says seconds: refuse */
	T_ASSERT(jt_fails("[j]\nruntime=10sec\n", -EINVAL, "ambiguous", NULL));
	T_ASSERT(jt_fails("[j]\nruntime=10ns\n", -EINVAL, "unknown time suffix 'ns'", NULL));
	T_ASSERT(jt_fails("[j]\nruntime=1.5\n", -EINVAL, "fractional", NULL));
	/* fio 3.33 takes thinktime=1e9s as 1 us: refused, saying why */
	T_ASSERT(jt_fails("[j]\nthinktime=1e9s\n", -EINVAL, "exponents are not accepted", NULL));
	T_ASSERT(jt_fails("[j]\nruntime=2E-3\n", -EINVAL, "exponents are not accepted", NULL));
	/* milliseconds options take plain numbers */
	T_ASSERT(jt_parse("[j]\nbwavgtime=250\nrate_cycle=100\n") == 0);
	T_ASSERT_U64_EQ(jt_jf.jobs[0].bwavgtime_ns, 250 * 1000000ULL);
	T_ASSERT_U64_EQ(jt_jf.jobs[0].rate_cycle_ns, 100 * 1000000ULL);
	T_ASSERT(jt_fails("[j]\nbwavgtime=1s\n", -EINVAL, "suffix 's'", NULL));
	jt_cleanup();
	return T_PASS;
}

static int test_ranges(void)
{
	const struct ios_job *j;

	j = jt_job("[j]\nstartdelay=1-3\nfilesize=1m:2m\nbsrange=1k-4k,2k:8k\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->startdelay_lo_ns, IOS_NSEC_PER_SEC);
	T_ASSERT_U64_EQ(j->startdelay_hi_ns, 3 * IOS_NSEC_PER_SEC);
	T_ASSERT_U64_EQ(j->filesize_lo, MiB);
	T_ASSERT_U64_EQ(j->filesize_hi, 2 * MiB);
	T_ASSERT_U64_EQ(j->bs_min[0], KiB);
	T_ASSERT_U64_EQ(j->bs_max[0], 4 * KiB);
	T_ASSERT_U64_EQ(j->bs_min[1], 2 * KiB);
	T_ASSERT_U64_EQ(j->bs_max[1], 8 * KiB);

	/* reversed ranges are swapped; a single value is lo = hi where allowed */
	j = jt_job("[j]\nstartdelay=5s:2s\nbsrange=8k-2k\nfilesize=64k\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->startdelay_lo_ns, 2 * IOS_NSEC_PER_SEC);
	T_ASSERT_U64_EQ(j->startdelay_hi_ns, 5 * IOS_NSEC_PER_SEC);
	T_ASSERT_U64_EQ(j->bs_min[0], 2 * KiB);
	T_ASSERT_U64_EQ(j->bs_max[1], 8 * KiB);
	T_ASSERT_U64_EQ(j->filesize_lo, 64 * KiB);
	T_ASSERT_U64_EQ(j->filesize_hi, 64 * KiB);

	/* fio fails "bsrange=4k" (no separator): so do we */
	T_ASSERT(jt_fails("[j]\nbsrange=4k\n", -EINVAL, "not a range", NULL));
	jt_cleanup();
	return T_PASS;
}

static int test_per_direction(void)
{
	const struct ios_job *j;

	j = jt_job("[j]\nbs=8k,32k\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 8 * KiB);
	T_ASSERT_U64_EQ(j->bs[1], 32 * KiB);
	T_ASSERT_U64_EQ(j->bs_max[1], 32 * KiB);

	j = jt_job("[j]\nbs=,8k\n");	/* default reads, 8k writes */
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 4096);
	T_ASSERT_U64_EQ(j->bs[1], 8 * KiB);

	j = jt_job("[j]\nbs=8k,\n");	/* trailing comma: writes stay default */
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 8 * KiB);
	T_ASSERT_U64_EQ(j->bs[1], 4096);

	j = jt_job("[j]\nbs=16k\n");	/* one value: every direction */
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 16 * KiB);
	T_ASSERT_U64_EQ(j->bs[1], 16 * KiB);

	j = jt_job("[j]\nrate=1m,500k\nrate_iops=,100\nrate_min=1k,\nba=512,4k\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->rate[0], MiB);
	T_ASSERT_U64_EQ(j->rate[1], 500 * KiB);
	T_ASSERT_EQ(j->rate_iops[0], 0);
	T_ASSERT_EQ(j->rate_iops[1], 100);
	T_ASSERT_U64_EQ(j->rate_min[0], KiB);
	T_ASSERT_U64_EQ(j->rate_min[1], 0);
	T_ASSERT_U64_EQ(j->blockalign[0], 512);
	T_ASSERT_U64_EQ(j->blockalign[1], 4 * KiB);

	/* fio reads bs=4k-8k as reads 4k, writes 8k: refused as misleading */
	T_ASSERT(jt_fails("[j]\nbs=4k-8k\n", -EINVAL, "separator", NULL));
	T_ASSERT(jt_fails("[j]\nbs=1k,2k,4k,8k\n", -EINVAL, "at most three", NULL));
	T_ASSERT(jt_fails("[j]\nbs=,\n", -EINVAL, "no value", NULL));
	T_ASSERT(jt_fails("[j]\nbs=0\n", -ERANGE, "allowed 1 or more", NULL));
	jt_cleanup();
	return T_PASS;
}

static int test_keywords_and_arithmetic(void)
{
	const struct ios_job *j;

	/* the parse options' machine: pagesize 4096, 2048 MB, 4 CPUs */
	j = jt_job("[j]\nbs=$pagesize\nsize=(2*$mb_memory)\nnumjobs=$ncpus\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 4096);
	T_ASSERT_U64_EQ(j->size, 4096);	/* fio applies no unit: bytes */
	T_ASSERT_EQ(j->numjobs, 4);

	/* keyword arithmetic without parentheses, integer like bc */
	j = jt_job("[j]\nbs=$pagesize*2\nsize=$pagesize/3*3\nruntime=$ncpus*10\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 8192);
	T_ASSERT_U64_EQ(j->size, 4095);
	T_ASSERT_U64_EQ(j->runtime_ns, 40 * IOS_NSEC_PER_SEC);	/* then seconds */
	/* a keyword followed by a suffix keeps the suffix */
	j = jt_job("[j]\nsize=$pagesizek\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->size, 4096 * KiB);

	/* parentheses: units inside, time in microseconds by default */
	j = jt_job("[j]\nsize=(1.5*1m)\nbs=(2^12)\nthinktime=(1ms+2)\nruntime=(1s*90)\n"
		   "offset=(10-2*3)\niodepth=(7%4)\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->size, 3 * MiB / 2);
	T_ASSERT_U64_EQ(j->bs[0], 4096);
	T_ASSERT_U64_EQ(j->thinktime_ns, 1002000);
	T_ASSERT_U64_EQ(j->runtime_ns, 90 * IOS_NSEC_PER_SEC);
	T_ASSERT_U64_EQ(j->offset, 4);
	T_ASSERT_EQ(j->iodepth, 3);

	/* '%' inside an expression is the remainder, not a percentage */
	j = jt_job("[j]\nsize=(10%4)\noffset=((1+2)*3^2-4/2%3)\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->size, 2);
	T_ASSERT_EQ(j->size_pct, 0);
	T_ASSERT_U64_EQ(j->offset, 25);

	T_ASSERT(jt_fails("[j]\nsize=(1/0)\n", -EINVAL, "division by zero", NULL));
	T_ASSERT(jt_fails("[j]\nsize=(1-2)\n", -ERANGE, "negative", NULL));
	T_ASSERT(jt_fails("[j]\nsize=(1+\n", -EINVAL, "expression", NULL));
	T_ASSERT(jt_fails("[j]\nsize=(2^70)\n", -ERANGE, "overflow", NULL));
	T_ASSERT(jt_fails("[j]\nsize=$pagesize*1k\n", -EINVAL, "keyword expression", NULL));
	T_ASSERT(jt_fails("[j]\nsize=(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
			  "((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))"
			  "))))))))\n", -EINVAL, "nested too deeply", NULL));
	jt_cleanup();
	return T_PASS;
}

static int test_integers(void)
{
	const struct ios_job *j = jt_job("[j]\niodepth=0x10\nnice=-20\nprio=0\nprioclass=3\n"
					 "rwmixread=0\ncgroup_weight=1000\niodepth_batch=1k\n");

	T_ASSERT(j);
	T_ASSERT_EQ(j->iodepth, 16);
	T_ASSERT_EQ(j->nice, -20);	/* fio 3.33 itself fails on nice=-20 */
	T_ASSERT_EQ(j->nice_set, 1);
	T_ASSERT_EQ(j->prio, 0);
	T_ASSERT_EQ(j->prioclass, 3);
	T_ASSERT_EQ(j->rwmixread, 0);
	T_ASSERT_EQ(j->cgroup_weight, 1000);
	T_ASSERT_EQ(j->iodepth_batch_submit, 1024);	/* fio ints take size suffixes */
	T_ASSERT(jt_fails("[j]\nprio=-1\n", -ERANGE, "'-1': out of range, allowed 0..7", NULL));
	/* decimal, as fio's str_to_decimal reads it without 0x: 010 is ten, not octal eight */
	j = jt_job("[j]\niodepth=010\nnice=-010\nnumjobs=08\n");
	T_ASSERT(j);
	T_ASSERT_EQ(j->iodepth, 10);
	T_ASSERT_EQ(j->nice, -10);
	T_ASSERT_EQ(j->numjobs, 8);
	T_ASSERT(jt_fails("[j]\nnumjobs=+4\n", -EINVAL, "'+4': a sign is not accepted", NULL));
	T_ASSERT(jt_fails("[j]\niodepth=4,8\n", -EINVAL, "single value", NULL));
	jt_cleanup();
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_size_suffixes, test_kb_base_1000, test_size_rejects, test_percentages,
		     test_time_units, test_ranges, test_per_direction,
		     test_keywords_and_arithmetic, test_integers);
}
