/*
 * Description: every malformed job file fails with the right errno and a
 * message that names the file, the line, the option as written and, for
 * numbers, the allowed range ("t.fio:3: option 'prio=9': out of range,
 * allowed 0..7"). fio options iosched does not model say so instead of
 * "unknown". A failed parse leaves the job file structure untouched.
 */
#include <unistd.h>
#include "job_util.h"

struct err_case {
	const char *text;
	int code;
	const char *want[3];	/* substrings of the message */
};

static const struct err_case cases[] = {
	/* ranges, as fio's --cmdhelp gives them (or narrower, documented) */
	{ "[j]\nbs=4k\nprio=9\n", -ERANGE, { "t.fio:3: option 'prio=9'", "allowed 0..7" } },
	{ "[j]\nprioclass=4\n", -ERANGE, { "t.fio:2: option 'prioclass=4'", "allowed 0..3" } },
	{ "[j]\nnice=20\n", -ERANGE, { "'nice=20'", "allowed -20..19" } },
	{ "[j]\nnice=-21\n", -ERANGE, { "'nice=-21'", "allowed -20..19" } },
	{ "[j]\nrwmixread=101\n", -ERANGE, { "'rwmixread=101'", "allowed 0..100" } },
	{ "[j]\nrwmixwrite=101\n", -ERANGE, { "'rwmixwrite=101'", "allowed 0..100" } },
	{ "[j]\niodepth=0\n", -ERANGE, { "'iodepth=0'", "allowed 1..65536" } },
	{ "[j]\nnumjobs=0\n", -ERANGE, { "'numjobs=0'", "allowed 1..1048576" } },
	/* fio's FIO_MAX_JOBS, unless the file raises it (iosched's max_jobs) */
	{ "[j]\nnumjobs=4097\n", -ERANGE, { "numjobs=4097 is above 4096", "max_jobs=4097" } },
	/* the hard cap on max_jobs and numjobs: 2^20 */
	{ "[j]\nmax_jobs=2000000\n", -ERANGE, { "t.fio:2: option 'max_jobs=2000000'",
						 "allowed 1..1048576" } },
	{ "[j]\ncgroup_weight=0\n", -ERANGE, { "'cgroup_weight=0'", "allowed 1..1000" } },
	{ "[j]\ncgroup_weight=1001\n", -ERANGE, { "allowed 1..1000" } },
	{ "[j]\nloops=0\n", -ERANGE, { "'loops=0'", "allowed 1..4294967295" } },
	{ "[j]\ndirect=2\n", -ERANGE, { "'direct=2'", "allowed 0..1" } },
	{ "[j]\nthinktime_blocks=0\n", -ERANGE, { "'thinktime_blocks=0'", "allowed 1.." } },
	{ "[j]\nfilesize=0\n", -ERANGE, { "'filesize=0'", "allowed 1 or more" } },
	{ "[j]\nba=0\n", -ERANGE, { "'ba=0'", "allowed 1 or more" } },
	{ "[j]\nblockalign=0\n", -ERANGE, { "'blockalign=0'", "allowed 1 or more" } },
	{ "[j]\nsize=101%\n", -ERANGE, { "'size=101%'", "allowed 1..100%" } },
	{ "[j]\nrw=randread:0\n", -ERANGE, { "'rw=randread:0'", "allowed 1.." } },
	/* malformed values */
	{ "[j]\nbs=4x\n", -EINVAL, { "t.fio:2: option 'bs=4x'", "unknown size suffix 'x'" } },
	{ "[j]\nruntime=5y\n", -EINVAL, { "'runtime=5y'", "unknown time suffix 'y'" } },
	{ "[j]\ndirect=yes\n", -EINVAL, { "'direct=yes'", "expected 0 or 1" } },
	{ "[j]\nrw=rand\n", -EINVAL, { "'rw=rand'", "allowed: read, write" } },
	{ "[j]\nrw=read:abc\n", -EINVAL, { "'rw=read:abc'", "not a size" } },
	{ "[j]\nrate_process=bursty\n", -EINVAL, { "allowed: linear, poisson" } },
	{ "[j]\nthinktime_blocks_type=x\n", -EINVAL, { "allowed: complete, issue" } },
	{ "[j]\nsync=fsync\n", -EINVAL, { "'sync=fsync'", "none, 0, sync, 1, dsync" } },
	{ "[j]\nkb_base=1001\n", -EINVAL, { "'kb_base=1001'", "1024, 1000" } },
	{ "[j]\nioengine=bogus\n", -EINVAL, { "'ioengine=bogus'", "unknown ioengine" } },
	{ "[j]\nruntime=1:30\n", -EINVAL, { "'runtime=1:30'" } },
	{ "[j]\nbs=\n", -EINVAL, { "t.fio:2: option 'bs='", "empty value" } },
	{ "[j]\nbs\n", -EINVAL, { "t.fio:2: option 'bs'", "needs a value" } },
	{ "[j]\nfilename=a::b\n", -EINVAL, { "'filename=a::b'", "empty file name" } },
	{ "[j]\npercentile_list=50:abc\n", -EINVAL, { "'percentile_list=50:abc'", "not a decimal" } },
	{ "[j]\npercentile_list=0\n", -ERANGE, { "out of range" } },
	{ "[j]\nbssplit=4k/60:8k/60\n", -ERANGE, { "'bssplit=4k/60:8k/60'", "add up to 120" } },
	{ "[j]\nbssplit=4k/50:8k/\n4k/50\n", -EINVAL, { "t.fio:3", "unknown option '4k/50'" } },
	{ "[j]\nbssplit=4k/100:8k/\n", -ERANGE, { "never be used" } },
	{ "[j]\nbssplit=4k/1.5:8k/\n", -EINVAL, { "fractional" } },
	/* names */
	{ "[j]\nfoo=1\n", -EINVAL, { "t.fio:2: unknown option 'foo'" } },
	{ "[j]\ntrim_backlog=8\n", -ENOTSUP, { "t.fio:2: fio option 'trim_backlog' is not modelled by iosched" } },
	/* the verify family: modelled, except what it cannot mean here */
	{ "[j]\nverify=md4\n", -EINVAL, { "t.fio:2: option 'verify=md4'" } },
	{ "[j]\nverify=md5\nexperimental_verify=1\n", -ENOTSUP, { "t.fio:3:", "only experimental_verify=0" } },
	{ "[j]\nverify=md5\nverify_state_load=1\n", -ENOTSUP, { "t.fio:3:", "only verify_state_load=0" } },
	{ "[j]\nverify_interval=64\n", -ERANGE, { "t.fio:2: option 'verify_interval=64'" } },
	{ "[j]\nverify_offset=8\n", -ERANGE, { "t.fio:2: option 'verify_offset=8'" } },
	{ "[j]\nverify_pattern=\n", -EINVAL, { "t.fio:2: option 'verify_pattern='" } },
	{ "[j]\nunit_base=8\n", -ENOTSUP, { "fio option 'unit_base' is not modelled by iosched" } },
	/* fio 3.33 names, aliases included, are told from typos */
	{ "[j]\nmerge_blktrace_file=x\n", -ENOTSUP,
	  { "t.fio:2: fio option 'merge_blktrace_file' is not modelled" } },
	/* job control (options_jobctl.c) */
	{ "[j]\nss_dur=1500ms\n", -EINVAL, { "t.fio:2: option 'ss_dur=1500ms'", "whole number of seconds" } },
	{ "[j]\nss=iops\n", -EINVAL, { "option 'ss=iops'", "the limit must follow" } },
	{ "[j]\nsteadystate=lat:1%\n", -EINVAL, { "unknown criterion", "bw_slope" } },
	{ "[j]\nss=iops:x%\n", -EINVAL, { "option 'ss=iops:x%'" } },
	{ "[j]\nexit_what=some\n", -EINVAL, { "option 'exit_what=some'" } },
	{ "[j]\nflow=1001\n", -ERANGE, { "option 'flow=1001'", "0..1000" } },
	{ "[j]\nthreads=abc\n", -EINVAL, { "option 'threads=abc'" } },
	{ "[j]\nthreadz=1\n", -EINVAL, { "t.fio:2: unknown option 'threadz'" } },
	{ "[j]\nbs_is_seq_rand=1\n", -ENOTSUP, { "fio option 'bs_is_seq_rand' is not modelled" } },
	{ "[j]\nverfy=md5\n", -EINVAL, { "t.fio:2: unknown option 'verfy'" } },
	/* an engine's option names the engines that take it */
	{ "[j]\nport=8888\n", -ENOTSUP,
	  { "t.fio:2: fio option 'port' is not modelled by iosched", "ioengine net, netsplice" } },
	{ "[j]\nioengine=libaio\nuserspace_reap\n", -ENOTSUP,
	  { "t.fio:3: fio option 'userspace_reap'", "ioengine libaio" } },
	/* the engine is resolved first: an unmodelled one is the reason (item 5 of issue 14) */
	{ "[j]\nhostname=h\nport=8888\nioengine=net\n", -ENOTSUP,
	  { "t.fio:4: option 'ioengine=net'", "ioengine 'net' is not supported by iosched" } },
	{ "[global]\nioengine=rdma\n[j]\nverb=read\n", -ENOTSUP,
	  { "t.fio:2: option 'ioengine=rdma'", "not supported by iosched" } },
	{ "[j]\nportx=1\nioengine=bogus\n", -EINVAL, { "t.fio:3: option 'ioengine=bogus'" } },
	/* an empty value from an unset ${VAR} names the variable */
	{ "[j]\nsize=${IOS_T_NOT_SET}\n", -EINVAL,
	  { "t.fio:2: option 'size='", "empty value", "(${IOS_T_NOT_SET} is not set)" } },
	{ "[j]\nioengine=${IOS_T_ENGINE}\n", -EINVAL,
	  { "'ioengine='", "(${IOS_T_ENGINE} is not set)" } },
	{ "[j]\n${IOS_T_KEY}=1\n", -EINVAL,
	  { "t.fio:2: missing option name before '='", "(${IOS_T_KEY} is not set)" } },
	{ "[j]\nrw=randtrimwrite\n", -ENOTSUP, { "'rw=randtrimwrite'", "is not modelled" } },
	{ "[j]\nioengine=mmap\n", -ENOTSUP, { "'ioengine=mmap'", "not supported by iosched" } },
	/* zones, as fio 3.33's init.c checks them */
	{ "[j]\nzonesize=64k\n", -EINVAL, { "job 'j': zonesize needs zonemode=strided" } },
	{ "[j]\nzonemode=strided\n", -EINVAL, { "zonemode=strided needs zonesize" } },
	{ "[j]\nzone_reset_threshold=1.5\n", -ERANGE, { "zone_reset_threshold", "allowed 0..1" } },
	{ "[j]\nzone_reset_frequency=x\n", -EINVAL, { "zone_reset_frequency", "not a number" } },
	{ "[j]\nzonemode=bogus\n", -EINVAL, { "allowed: none, strided, zbd" } },
	{ "[j]\nzonemode=strided\nzonesize=1m\nnrfiles=2\n", -ENOTSUP,
	  { "zonemode=strided with 2 files", "silently ignore" } },
	/* zonemode=zbd's zone size (issue 28: 1000 and 512 ran out of memory) */
	{ "[j]\nzonemode=zbd\nzonesize=1000\n", -EINVAL,
	  { "t.fio:3: job 'j': zonesize=1000", "allowed a multiple of 512 bytes, 512 or more" } },
	{ "[j]\nzonesize=256\nzonemode=zbd\n", -EINVAL,
	  { "t.fio:2: job 'j': zonesize=256", "allowed a multiple of 512 bytes" } },
	{ "[j]\nzonemode=zbd\nzonesize=1m\nzonecapacity=1000\n", -EINVAL,
	  { "job 'j': zonecapacity=1000", "allowed a multiple of 512 bytes up to zonesize" } },
	/* fio's zone units ("4z"): five options, a whole count, a zone size to count in */
	{ "[j]\nzonemode=zbd\nzonesize=1m\nsize=1.5z\n", -EINVAL,
	  { "t.fio:4: option 'size=1.5z'", "unexpected zone value", "such as 4z" } },
	{ "[j]\nzonemode=zbd\nzonesize=1m\nsize=0z\n", -ERANGE,
	  { "option 'size=0z'", "allowed 1z or more" } },
	{ "[j]\nzonemode=zbd\nzonesize=1m\noffset=4294967296z\n", -ERANGE,
	  { "option 'offset=4294967296z'", "allowed 0z..4294967295z" } },
	{ "[j]\nzonemode=zbd\nzonesize=1m\nbs=4z\n", -EINVAL,
	  { "option 'bs=4z'", "only by size, io_size, offset, offset_increment and zoneskip" } },
	{ "[j]\nzonemode=zbd\nzonesize=1m\nsize=4Z\n", -EINVAL,
	  { "option 'size=4Z'", "lowercase 'z'" } },
	{ "[j]\nsize=4z\n", -EINVAL,
	  { "t.fio:2: job 'j': size=4z", "zone units need a zone size", "zonemode=strided" } },
	{ "[j]\nzonemode=zbd\nio_size=2z\n", -ENOTSUP,
	  { "t.fio:3: job 'j': io_size=2z", "add zonesize=" } },
	{ "[j]\nzonemode=zbd\nzonesize=1t\nsize=20000000z\n", -ERANGE,
	  { "size=20000000z of zonesize=1099511627776 bytes is out of range",
	    "allowed 16777215z at most" } },
	{ "[j]\nrw_sequencer=random\n", -EINVAL, { "allowed: sequential, identical" } },
	{ "[j]\nrw=read:-\n", -EINVAL, { "'rw=read:-'" } },
	/* random_distribution: fio 3.33's ranges (str_random_distribution_cb) */
	{ "[j]\nrandom_distribution=zipf:1\n", -ERANGE, { "zipf theta must be other than 1.0" } },
	{ "[j]\nrandom_distribution=pareto:1.5\n", -ERANGE, { "pareto h out of range" } },
	{ "[j]\nrandom_distribution=normal:100\n", -ERANGE, { "normal deviation out of range" } },
	{ "[j]\nrandom_distribution=zipf:1.2:2\n", -ERANGE, { "center out of range" } },
	{ "[j]\nrandom_distribution=zoned:50/10:40/90\n", -ERANGE,
	  { "access percentages add up to 90, not 100" } },
	{ "[j]\nrandom_distribution=zoned:50/60:50/60\n", -ERANGE,
	  { "size percentages add up to 120" } },
	{ "[j]\nrandom_distribution=zoned:50/10:50/90,50/10:50/90\n", -ENOTSUP,
	  { "per-direction zone lists" } },
	{ "[j]\nrandom_distribution=lognormal\n", -EINVAL, { "allowed: random, zipf" } },
	/* submission, latency target and buffer options (options_submit.c) */
	{ "[j]\nio_submit_mode=bogus\n", -EINVAL,
	  { "t.fio:2: option 'io_submit_mode=bogus'", "allowed: inline, offload" } },
	{ "[j]\nlatency_percentile=101\n", -ERANGE, { "allowed 0..100" } },
	{ "[j]\ncmdprio_bssplit=4k\n", -EINVAL, { "bs/percentage" } },
	{ "[j]\ncmdprio_bssplit=4k/60:4k/50\n", -ERANGE, { "more than 100" } },
	{ "[j]\nbuffer_pattern=0xzz\n", -EINVAL, { "0x without hex digits" } },
	/* patterns as fio 3.33's parse_and_fill_pattern reads them (pattern.c) */
	{ "[j]\nverify_pattern=0xZZ\n", -EINVAL,
	  { "t.fio:2: option 'verify_pattern=0xZZ'", "0x without hex digits", "at most 512" } },
	{ "[j]\nverify_pattern=12abc\n", -EINVAL, { "not a pattern piece at 'abc'" } },
	{ "[j]\nverify_pattern=1.5\n", -EINVAL, { "not a pattern piece at '.5'" } },
	{ "[j]\nverify_pattern=2147483648\n", -EINVAL, { "outside -2147483648..2147483647" } },
	{ "[j]\nverify_pattern=\"\"\n", -EINVAL, { "an empty \"\"" } },
	{ "[j]\nverify_pattern=\"abc\n", -EINVAL, { "without its closing quote" } },
	{ "[j]\nverify_pattern=%x\n", -EINVAL, { "only %o" } },
	{ "[j]\nverify_pattern=%o%o%o%o%o%o%o%o%o\n", -EINVAL, { "more than 8 %o" } },
	{ "[j]\nverify_pattern=0xaa 0xbb\n", -EINVAL, { "no number before the next 0x" } },
	{ "[j]\nverify_pattern=0xaa|0xbb\n", -EINVAL, { "not a pattern piece at '|0xbb'" } },
	{ "[j]\nverify_pattern='/nonexistent/pat'\n", -ENOENT,
	  { "the pattern file '/nonexistent/pat'" } },
	{ "[j]\nbuffer_pattern=0xaa|0xbb\n", -EINVAL, { "not a pattern piece at '|0xbb'" } },
	{ "[j]\nbuffer_pattern=%o\n", -EINVAL, { "verify_pattern's only" } },
	{ "[j]\ncpus_allowed_policy=spread\n", -EINVAL, { "allowed: shared, split" } },
	{ "[j]\nnuma_mem_policy=foo\n", -EINVAL, { "allowed: default, prefer" } },
	{ "[j]\ncpus_allowed=\n", -EINVAL, { "'cpus_allowed='" } },
	/* cpus_allowed: fio's list form 0,2-3, each CPU below 256 (IOS_MAX_CPUS) */
	{ "[j]\ncpus_allowed=abc\n", -EINVAL,
	  { "t.fio:2: option 'cpus_allowed=abc'", "in job 'j'", "fio's form: 0,2-3" } },
	{ "[j]\ncpus_allowed=256\n", -ERANGE,
	  { "t.fio:2: option 'cpus_allowed=256'", "CPU 256 out of range", "allowed 0..255" } },
	{ "[j]\ncpus_allowed=0-300\n", -ERANGE, { "CPU 300 out of range", "allowed 0..255" } },
	{ "[j]\ncpus_allowed=3-1\n", -EINVAL, { "'cpus_allowed=3-1'", "the range 3-1 goes down" } },
	{ "[j]\ncpus_allowed=1,\n", -EINVAL, { "'cpus_allowed=1,'", "not a CPU list at ','" } },
	{ "[j]\ncpus_allowed=1-\n", -EINVAL, { "not a CPU list at '-'" } },
	{ "[j]\ncpus_allowed=-1\n", -EINVAL, { "not a CPU list at '-1'" } },
	/* cpumask: a number, bit N = CPU N, at least one bit */
	{ "[j]\ncpumask=0\n", -ERANGE, { "t.fio:2: option 'cpumask=0'", "names no CPU", "allowed 1.." } },
	{ "[j]\ncpumask=0xz\n", -EINVAL, { "'cpumask=0xz'", "not a CPU mask" } },
	{ "[j]\ncpumask=-3\n", -EINVAL, { "not a CPU mask" } },
	{ "[j]\ncpumask=0x10000000000000000\n", -ERANGE, { "not a CPU mask" } },
	/* whole-job checks */
	{ "[j]\niodepth=4\niodepth_low=8\n", -ERANGE,
	  { "t.fio:1: job 'j'", "iodepth_low=8 is above iodepth=4" } },
	{ "[j]\niodepth_batch_complete_min=4\niodepth_batch_complete_max=2\n", -ERANGE,
	  { "iodepth_batch_complete_max=2 is below" } },
	{ "[j]\nthinktime=10\nthinktime_spin=20\n", -ERANGE, { "thinktime_spin is longer" } },
	/* the first error in the file is reported, with its own line */
	{ "[a]\n\n\n[b]\nbs=4k\nfoo=2\nprio=9\n", -EINVAL, { "t.fio:6: unknown option 'foo'" } },
	{ "[global]\nbs=4k\n[a]\nprio=1\n[b]\nprio=8\n", -ERANGE, { "t.fio:6: option 'prio=8'" } },
};

static int test_error_table(void)
{
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		const struct err_case *c = &cases[i];

		T_ASSERT_MSG(jt_fails(c->text, c->code, c->want[0], c->want[1], c->want[2], NULL),
			     "case %zu", i);
		/* a failed parse adds nothing */
		T_ASSERT_EQ(jt_jf.nr_jobs, 0);
		T_ASSERT_EQ(jt_jf.nr_global_opts, 0);
		T_ASSERT_EQ(jt_jf.nr_paths, 0);
	}
	jt_cleanup();
	return T_PASS;
}

static int test_long_value_quoted_short(void)
{
	char text[600] = "[j]\nbs=";
	size_t n = strlen(text);

	memset(text + n, '9', 400);
	strcpy(text + n + 400, "\n");
	T_ASSERT(jt_fails(text, -ERANGE, "...'", "too large", NULL));
	T_ASSERT(strlen(jt_e.msg) < sizeof(jt_e.msg) - 1);
	jt_cleanup();
	return T_PASS;
}

/* fio's MAX_PATTERN_SIZE: 512 bytes, however they are spelt */
static int test_pattern_limit(void)
{
	static const char *const opts[] = { "verify_pattern", "buffer_pattern" };
	char text[12000], path[] = "/tmp/ios-pattern-XXXXXX";
	char big[600];
	FILE *f;
	int fd;

	for (size_t k = 0; k < IOS_ARRAY_SIZE(opts); k++) {
		/* 5,000 bytes of hex, then 512 and 513 */
		snprintf(text, sizeof(text), "[j]\n%s=0x", opts[k]);
		memset(text + strlen(text), 'a', 10000);
		strcpy(text + strlen("[j]\n=0x") + strlen(opts[k]) + 10000, "\n");
		T_ASSERT(jt_fails(text, -EINVAL, "the pattern is over 512 bytes", "...'", NULL));
		snprintf(text, sizeof(text), "[j]\n%s=0x", opts[k]);
		memset(text + strlen(text), 'f', 1024);
		strcpy(text + strlen("[j]\n=0x") + strlen(opts[k]) + 1024, "\n");
		T_ASSERT_EQ(jt_parse(text), 0);
		strcpy(text + strlen("[j]\n=0x") + strlen(opts[k]) + 1024, "ff\n");
		T_ASSERT(jt_fails(text, -EINVAL, "over 512 bytes", NULL));
		/* 508 bytes of text and -1 (four bytes) fit; 509 do not */
		snprintf(text, sizeof(text), "[j]\n%s=\"%0508d\"-1\n", opts[k], 0);
		T_ASSERT_EQ(jt_parse(text), 0);
		snprintf(text, sizeof(text), "[j]\n%s=\"%0509d\"-1\n", opts[k], 0);
		T_ASSERT(jt_fails(text, -EINVAL, "over 512 bytes at '-1'", NULL));
	}
	/* %o takes 8 bytes */
	snprintf(text, sizeof(text), "[j]\nverify_pattern=\"%0504d\"%%o\n", 0);
	T_ASSERT_EQ(jt_parse(text), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].verify.pattern_len, 512);
	snprintf(text, sizeof(text), "[j]\nverify_pattern=\"%0505d\"%%o\n", 0);
	T_ASSERT(jt_fails(text, -EINVAL, "over 512 bytes at '%o'", NULL));

	/* a 'file': its bytes; one longer than the room left is refused, not cut */
	fd = mkstemp(path);
	T_ASSERT(fd >= 0);
	f = fdopen(fd, "w");
	T_ASSERT(f != NULL);
	memset(big, 'x', sizeof(big));
	T_ASSERT_EQ(fwrite(big, 1, 100, f), 100);
	fflush(f);
	snprintf(text, sizeof(text), "[j]\nverify_pattern='%s'0xaa\n", path);
	T_ASSERT_EQ(jt_parse(text), 0);
	T_ASSERT_EQ(jt_jf.jobs[0].verify.pattern_len, 101);
	T_ASSERT_EQ(fwrite(big, 1, sizeof(big) - 100, f), sizeof(big) - 100);
	fclose(f);
	T_ASSERT(jt_fails(text, -EINVAL, "holds more than the 512 bytes left", NULL));
	f = fopen(path, "w");
	T_ASSERT(f != NULL);
	fclose(f);
	T_ASSERT(jt_fails(text, -EINVAL, "is empty", NULL));
	unlink(path);
	jt_cleanup();
	return T_PASS;
}

/* One pattern however spelt: the bytes count, as fio fills them */
static int test_pattern_bytes(void)
{
	static const struct {
		const char *a, *b;	/* the same bytes */
		unsigned len;
	} same[] = {
		{ "0x0a", "10", 1 }, { "0xffffffff", "-1", 4 }, { "0x00", "0", 1 },
		{ "0xabc", "0x0a0xbc", 2 }, { "0xff0x14", "5375", 2 },
		{ "\"AB\"", "0x4142", 2 }, { "-100xab\"1\"%o\"2\"", "-10\"\xab\"0x31%o50", 15 },
	};
	char text[256];
	uint64_t h;

	for (size_t i = 0; i < IOS_ARRAY_SIZE(same); i++) {
		snprintf(text, sizeof(text), "[j]\nverify_pattern=%s\n", same[i].a);
		T_ASSERT_MSG(jt_parse(text) == 0, "%s: %s", same[i].a, jt_e.msg);
		h = jt_jf.jobs[0].verify.pattern_hash;
		T_ASSERT_EQ(jt_jf.jobs[0].verify.pattern_len, same[i].len);
		snprintf(text, sizeof(text), "[j]\nverify_pattern=%s\n", same[i].b);
		T_ASSERT_MSG(jt_parse(text) == 0, "%s: %s", same[i].b, jt_e.msg);
		T_ASSERT_MSG(jt_jf.jobs[0].verify.pattern_hash == h, "%s and %s differ",
			     same[i].a, same[i].b);
	}
	/* %o is a place, not 8 zero bytes */
	T_ASSERT_EQ(jt_parse("[j]\nverify_pattern=%o\n"), 0);
	h = jt_jf.jobs[0].verify.pattern_hash;
	T_ASSERT_EQ(jt_parse("[j]\nverify_pattern=0x0000000000000000\n"), 0);
	T_ASSERT(jt_jf.jobs[0].verify.pattern_hash != h);
	jt_cleanup();
	return T_PASS;
}

static int test_rollback_keeps_previous_file(void)
{
	struct ios_job_parse_opts po;
	static const char good[] = "[a]\nbs=8k\n", bad[] = "[b]\n[c]\nprio=9\n";

	ios_jobfile_free(&jt_jf);
	ios_err_clear(&jt_e);
	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	T_ASSERT_EQ(ios_job_parse_buf("a.fio", good, strlen(good), &po, &jt_jf, &jt_e), 0);
	T_ASSERT_EQ(ios_job_parse_buf("b.fio", bad, strlen(bad), &po, &jt_jf, &jt_e), -ERANGE);
	T_ASSERT(strstr(jt_e.msg, "b.fio:3: option 'prio=9'"));
	T_ASSERT_EQ(jt_jf.nr_jobs, 1);
	T_ASSERT_EQ(jt_jf.nr_paths, 1);
	T_ASSERT(!strcmp(jt_jf.jobs[0].name, "a"));
	T_ASSERT(!strcmp(jt_jf.jobs[0].file, "a.fio"));
	jt_cleanup();
	return T_PASS;
}

/*
 * The list of fio 3.33's names holds every option iosched models (a row
 * that is not a fio option, general or of an engine, would be a typo in
 * the table) and the 227
 * general names plus 21 aliases of fio's options.c.
 */
static int test_fio_names_table(void)
{
	const struct ios_job_option_info *oi;
	const struct ios_fio_option *fo;
	size_t i, general = 0, engine = 0;

	for (i = 0; (fo = ios_job_fio_option_at(i)) != NULL; i++) {
		if (fo->engines)
			engine++;
		else
			general++;
	}
	T_ASSERT_EQ(general, 248);
	T_ASSERT(engine >= 80);
	for (i = 0; (oi = ios_job_option_at(i)) != NULL; i++) {
		bool found = false;
		size_t j;

		/* general options, or an engine's (cmdprio* of libaio and io_uring) */
		for (j = 0; (fo = ios_job_fio_option_at(j)) != NULL; j++)
			if (!strcmp(fo->name, oi->name))
				found = true;
		/* or one of the options fio's profiles add to fio's table at start */
		found = found || ios_job_fio_profile(oi->name);
		/*
		 * max_jobs is iosched's one addition: fio takes it only as its
		 * --max-jobs flag, and a simulated run of more than fio's 4096
		 * processes has to be asked for in the file (docs/jobfiles.md).
		 */
		found = found || !strcmp(oi->name, "max_jobs");
		T_ASSERT_MSG(found, "option '%s' is not one of fio 3.33's", oi->name);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_error_table, test_long_value_quoted_short, test_pattern_limit,
		     test_pattern_bytes,
		     test_rollback_keeps_previous_file, test_fio_names_table);
}
