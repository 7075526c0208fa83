/*
 * Description: fio's zonemode=zbd through the whole stack (src/run/zbd.c).
 *
 * A small smr-hm disk (1 GiB, 16 zones of 64 MiB, the first one
 * conventional) and jobs written from fio 3.33's HOWTO and zbd.c. The job
 * writes fio's I/O log; the test replays it against its own model of the
 * zones and checks that every write starts at the write pointer of its zone
 * (or at the start of a full zone fio has just reset), that no more zones
 * are open at once than max_open_zones allows, and that the device, which
 * checks the same rule on its own, refused nothing. Also: reads stop at the
 * write pointer unless read_beyond_wp=1, zones emulated on a conventional
 * disk, fio's zone units (offset=1z size=4z), a block larger than a zone
 * refused, the zone resets counted, fio's set-up errors, a job on the device
 * without zonemode=zbd failing with EIO, and the same output twice.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/job.h"
#include "iosched/run.h"
#include "iosched/stats.h"

#define MB (1ULL << 20)
#define ZONE (64 * MB)
#define NZ 16

static const char *const smr[] = { "device.capacity=1GiB", "device.zone_size=64MiB",
				   "device.conv_zones=1", "device.max_open_zones=8", NULL };

static int run_job(const char *device, const char *const *sets, const char *sched,
		   const char *job, struct ios_run_result *res, struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	int ret;

	ios_err_clear(e);
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("t.fio", job, strlen(job), &po, &jf, e);
	for (size_t i = 0; !ret && sets && sets[i]; i++)
		ret = ios_settings_add_kv(&set, sets[i], "test", e);
	if (!ret) {
		cfg.device = device;
		cfg.settings = &set;
		cfg.scheduler = sched;
		cfg.seed = 7;
		ret = ios_run(&jf, &cfg, res, e);
	}
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

struct log_check {
	unsigned writes, reads, resets_seen, max_open, off_wp;
};

/*
 * Replay a fio iolog of one job against fio's zone rules: a write at the
 * pointer moves it; a write at the start of a full zone is a reset first; a
 * zone is open from its first write until one ends at its capacity.
 */
static int check_log(const char *path, struct log_check *lc)
{
	uint64_t wp[NZ];
	bool open[NZ];
	unsigned nr_open = 0;
	char line[512];
	FILE *f = fopen(path, "r");

	memset(lc, 0, sizeof(*lc));
	memset(open, 0, sizeof(open));
	for (unsigned i = 0; i < NZ; i++)
		wp[i] = i * ZONE;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char name[256], act[32];
		unsigned long long t, off, len;
		unsigned z;

		if (sscanf(line, "%llu %255s %31s %llu %llu", &t, name, act, &off, &len) != 5)
			continue;
		z = (unsigned)(off / ZONE);
		if (!strcmp(act, "read")) {
			lc->reads++;
			if (z > 0 && off + len > wp[z])
				lc->off_wp++;
			continue;
		}
		if (strcmp(act, "write") || z == 0)
			continue;
		lc->writes++;
		if (off == z * ZONE && wp[z] == (z + 1) * ZONE) {
			wp[z] = off;	/* fio reset the full zone */
			lc->resets_seen++;
		}
		if (off != wp[z])
			lc->off_wp++;
		wp[z] = off + len;
		if (!open[z]) {
			open[z] = true;
			nr_open++;
		}
		if (nr_open > lc->max_open)
			lc->max_open = nr_open;
		if (wp[z] == (z + 1) * ZONE) {
			open[z] = false;
			nr_open--;
		}
	}
	fclose(f);
	return 0;
}

static char logpath[64];

static const char *job_with_log(char *buf, size_t len, const char *body)
{
	snprintf(logpath, sizeof(logpath), "/tmp/iosched-run-zbd-%d.log", (int)getpid());
	snprintf(buf, len, "%swrite_iolog=%s\n", body, logpath);
	return buf;
}

static int test_random_writes_at_wp_within_open_limit(void)
{
	static const char body[] =
		"[w]\nfilename=/dev/sda\nrw=randwrite\nzonemode=zbd\nbs=1m\ndirect=1\n"
		"offset=64m\nsize=512m\nio_size=1536m\nmax_open_zones=3\nioengine=psync\n";
	struct ios_run_result res;
	struct ios_err e;
	struct log_check lc;
	char job[512];

	T_ASSERT_MSG(!run_job("smr-hm", smr, "deadline", job_with_log(job, sizeof(job), body),
			      &res, &e), "%s", e.msg);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_DDIR_WRITE].io_bytes, 1536 * MB);
	T_ASSERT_EQ(check_log(logpath, &lc), 0);
	unlink(logpath);
	T_ASSERT_EQ(lc.writes, 1536);
	T_ASSERT_EQ(lc.off_wp, 0);
	T_ASSERT(lc.max_open <= 3);
	T_ASSERT_EQ(lc.max_open, 3);
	/*
	 * 1536 MiB into 8 zones of 64 MiB is 24 zone fills: at least 16 of them
	 * on a full zone, reset first (more when a zone is refilled while
	 * others are still partly written)
	 */
	T_ASSERT_U64_EQ(res.jobs[0].nr_zone_resets, lc.resets_seen);
	T_ASSERT(res.jobs[0].nr_zone_resets >= 16 && res.jobs[0].nr_zone_resets <= 24);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_device_limit_and_errors(void)
{
	static const char body[] =
		"[w]\nfilename=/dev/sda\nrw=randwrite\nzonemode=zbd\nbs=256k\ndirect=1\n"
		"ioengine=libaio\niodepth=8\nio_size=256m\n";
	struct ios_run_result res;
	struct ios_err e;
	struct log_check lc;
	char job[512];

	/* no max_open_zones: the device's limit (8) */
	T_ASSERT_MSG(!run_job("smr-hm", smr, "noop", job_with_log(job, sizeof(job), body), &res,
			      &e), "%s", e.msg);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_EQ(check_log(logpath, &lc), 0);
	unlink(logpath);
	T_ASSERT_EQ(lc.off_wp, 0);
	T_ASSERT(lc.max_open <= 8 && lc.max_open >= 2);
	ios_run_result_free(&res);
	/* above the device's limit: refused as fio does, unless ignore_zone_limits */
	T_ASSERT(run_job("smr-hm", smr, NULL, "[w]\nfilename=/dev/sda\nrw=randwrite\n"
			 "zonemode=zbd\ndirect=1\nmax_open_zones=9\nsize=128m\n", &res, &e));
	T_ASSERT(strstr(e.msg, "larger than the device's 8"));
	T_ASSERT(!run_job("smr-hm", smr, NULL, "[w]\nfilename=/dev/sda\nrw=randwrite\n"
			  "zonemode=zbd\ndirect=1\nmax_open_zones=9\nignore_zone_limits=1\n"
			  "offset=64m\nsize=128m\n", &res, &e));
	ios_run_result_free(&res);
	T_ASSERT(run_job("smr-hm", smr, NULL, "[w]\nfilename=/dev/sda\nrw=write\nzonemode=zbd\n"
			 "direct=1\nzonesize=32m\nsize=128m\n", &res, &e));
	T_ASSERT(strstr(e.msg, "does not match the disk zone size"));
	T_ASSERT(run_job("smr-hm", smr, NULL, "[w]\nfilename=/dev/sda\nrw=write\nzonemode=zbd\n"
			 "size=128m\n", &res, &e));
	T_ASSERT(strstr(e.msg, "direct=1"));
	T_ASSERT(run_job("smr-hm", smr, NULL, "[w]\nfilename=data\nrw=write\nsize=128m\n", &res,
			 &e));
	T_ASSERT(strstr(e.msg, "host-managed zoned device"));
	T_ASSERT(run_job("hdd-2009", NULL, NULL, "[w]\nfilename=/dev/sda\nrw=write\n"
			 "zonemode=zbd\ndirect=1\nsize=128m\n", &res, &e));
	T_ASSERT(strstr(e.msg, "needs zonesize="));
	T_ASSERT(run_job("smr-hm", smr, NULL, "[w]\nfilename=/dev/sda\nrw=randwrite\n"
			 "zonemode=zbd\ndirect=1\njob_max_open_zones=2\nignore_zone_limits=1\n"
			 "size=128m\n", &res, &e));
	T_ASSERT(strstr(e.msg, "global open-zone limit"));
	return T_PASS;
}

static int test_sequential_write_then_read(void)
{
	/* writes 3 zones from the second sequential zone; a reader reads back what is there */
	static const char job[] =
		"[w]\nfilename=/dev/sda\nrw=write\nzonemode=zbd\nbs=128k\ndirect=1\n"
		"offset=128m\nsize=192m\nioengine=libaio\niodepth=4\n"
		"[r]\nstonewall\nfilename=/dev/sda\nrw=read\nzonemode=zbd\nbs=128k\ndirect=1\n"
		"offset=64m\nsize=512m\n";
	struct ios_run_result res;
	struct ios_err e;

	T_ASSERT_MSG(!run_job("smr-hm", smr, NULL, job, &res, &e), "%s", e.msg);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_DDIR_WRITE].io_bytes, 192 * MB);
	T_ASSERT_U64_EQ(res.jobs[0].nr_zone_resets, 0);
	/* zone 1 is empty: the reader skips to zone 2 and reads the 192 MiB written, no more */
	T_ASSERT_EQ(res.jobs[1].error, 0);
	T_ASSERT_U64_EQ(res.jobs[1].dir[IOS_DDIR_READ].io_bytes, 192 * MB);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_read_beyond_wp(void)
{
	static const char fresh0[] = "[r]\nfilename=/dev/sda\nrw=read\nzonemode=zbd\nbs=1m\n"
				     "direct=1\noffset=64m\nsize=128m\n";
	static const char fresh1[] = "[r]\nfilename=/dev/sda\nrw=read\nzonemode=zbd\nbs=1m\n"
				     "direct=1\noffset=64m\nsize=128m\nread_beyond_wp=1\n";
	struct ios_run_result res;
	struct ios_err e;

	/* nothing written: fio finds no zone with data and the job does nothing */
	T_ASSERT_MSG(!run_job("smr-hm", smr, NULL, fresh0, &res, &e), "%s", e.msg);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_DDIR_READ].io_bytes, 0);
	ios_run_result_free(&res);
	/* read_beyond_wp=1: every read goes; the disk returns zeroes without the media */
	T_ASSERT_MSG(!run_job("smr-hm", smr, NULL, fresh1, &res, &e), "%s", e.msg);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_DDIR_READ].io_bytes, 128 * MB);
	/* 100 us + 1 MiB at 600 MB/s each: far below a media read */
	T_ASSERT(res.jobs[0].dir[IOS_DDIR_READ].clat.mean < 2.0e6);
	ios_run_result_free(&res);
	/* prefilled: everything readable */
	{
		const char *const full[] = { "device.capacity=1GiB", "device.zone_size=64MiB",
					     "device.conv_zones=1", "device.prefill=1", NULL };

		T_ASSERT_MSG(!run_job("smr-hm", full, NULL, fresh0, &res, &e), "%s", e.msg);
		T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_DDIR_READ].io_bytes, 128 * MB);
		T_ASSERT(res.jobs[0].dir[IOS_DDIR_READ].clat.mean > 2.0e6);
		ios_run_result_free(&res);
	}
	return T_PASS;
}

/* Count the write records of logpath, and those @is_bad flags; removes the log. */
static int scan_log_writes(int (*is_bad)(unsigned long long off, unsigned long long len),
			   unsigned *n, unsigned *bad)
{
	char line[256];
	FILE *f = fopen(logpath, "r");

	if (!f)
		return -1;
	*n = *bad = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long t, off, len;
		char name[128], act[16];

		if (sscanf(line, "%llu %127s %15s %llu %llu", &t, name, act, &off, &len) == 5 &&
		    !strcmp(act, "write")) {
			(*n)++;
			*bad += !!is_bad(off, len);
		}
	}
	fclose(f);
	unlink(logpath);
	return 0;
}

/* never in the unwritable tail of a 4 MiB zone with 3 MiB capacity */
static int in_zone_tail(unsigned long long off, unsigned long long len)
{
	(void)len;
	return off % (4 * MB) >= 3 * MB;
}

static int outside_zones_1_to_4(unsigned long long off, unsigned long long len)
{
	return off < 1 * MB || off + len > 5 * MB;
}

static int test_emulated_zones(void)
{
	/* fio's init_zone_info on a conventional disk: 4 MiB zones with 3 MiB capacity */
	static const char body[] =
		"[w]\nfilename=/dev/sda\nrw=write\nzonemode=zbd\nzonesize=4m\nzonecapacity=3m\n"
		"bs=1m\ndirect=1\nsize=64m\nio_size=96m\n";
	struct ios_run_result res;
	struct ios_err e;
	char job[512];
	unsigned bad, n;

	T_ASSERT_MSG(!run_job("hdd-2009", NULL, NULL, job_with_log(job, sizeof(job), body), &res,
			      &e), "%s", e.msg);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_DDIR_WRITE].io_bytes, 96 * MB);
	/* 16 zones of 3 MiB = 48 MiB per pass; the second pass resets all 16 */
	T_ASSERT_U64_EQ(res.jobs[0].nr_zone_resets, 16);
	T_ASSERT(!scan_log_writes(in_zone_tail, &n, &bad));
	T_ASSERT_EQ(n, 96);
	T_ASSERT_EQ(bad, 0);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_zone_units(void)
{
	/* fio's "4z": offset=1z size=4z on 1 MiB zones writes zones 1..4, each at its pointer */
	static const char body[] =
		"[w]\nfilename=/dev/sda\nrw=randwrite\nzonemode=zbd\nzonesize=1m\nbs=64k\n"
		"direct=1\noffset=1z\nsize=4z\n";
	struct ios_run_result res;
	struct ios_err e;
	char job[512];
	unsigned n, outside;

	T_ASSERT_MSG(!run_job("hdd-2009", NULL, NULL, job_with_log(job, sizeof(job), body), &res,
			      &e), "%s", e.msg);
	T_ASSERT_EQ(res.jobs[0].error, 0);
	T_ASSERT_U64_EQ(res.jobs[0].dir[IOS_DDIR_WRITE].io_bytes, 4 * MB);
	T_ASSERT(!scan_log_writes(outside_zones_1_to_4, &n, &outside));
	T_ASSERT_EQ(n, 64);
	T_ASSERT_EQ(outside, 0);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_block_larger_than_zone_refused(void)
{
	/* fio fails the first write (err=22, "I/O buflen exceeds zone size"): refused up front */
	static const char job[] = "[w]\nfilename=/dev/sda\nrw=write\nzonemode=zbd\nzonesize=512\n"
				  "direct=1\nsize=1m\n";
	struct ios_run_result res;
	struct ios_err e;

	T_ASSERT_EQ(run_job("hdd-2009", NULL, NULL, job, &res, &e), -EINVAL);
	T_ASSERT(e.refused);
	T_ASSERT_MSG(strstr(e.msg, "t.fio:1: job 'w': a write of 4096 bytes") &&
		     strstr(e.msg, "zonesize=4096 or more"), "%s", e.msg);
	return T_PASS;
}

static int test_plain_job_on_zoned_disk_fails(void)
{
	/* no zonemode=zbd: random writes are not at the write pointer; fio stops at EIO */
	static const char job[] = "[w]\nfilename=/dev/sda\nrw=randwrite\nbs=64k\ndirect=1\n"
				  "offset=64m\nsize=128m\n";
	struct ios_run_result res;
	struct ios_err e;
	bool hint = false;

	T_ASSERT_MSG(!run_job("smr-hm", smr, NULL, job, &res, &e), "%s", e.msg);
	T_ASSERT_EQ(abs(res.jobs[0].error), EIO);
	T_ASSERT(res.jobs[0].dir[IOS_DDIR_WRITE].io_bytes < 128 * MB);
	for (size_t i = 0; i < res.nr_warnings; i++)
		hint |= strstr(res.warnings[i], "consider --zonemode=zbd") != NULL;
	T_ASSERT(hint);
	ios_run_result_free(&res);
	return T_PASS;
}

static int test_same_output_twice(void)
{
	static const char job[] =
		"[w]\nfilename=/dev/sda\nrw=randrw\nzonemode=zbd\nbs=128k\ndirect=1\n"
		"offset=64m\nsize=256m\nio_size=512m\nmax_open_zones=2\nioengine=libaio\n"
		"iodepth=4\nnumjobs=2\nzone_reset_threshold=0.5\nzone_reset_frequency=0.1\n";
	struct ios_run_result a, b;
	struct ios_err e;

	T_ASSERT_MSG(!run_job("smr-hm", smr, "cfq", job, &a, &e), "%s", e.msg);
	T_ASSERT_MSG(!run_job("smr-hm", smr, "cfq", job, &b, &e), "%s", e.msg);
	for (int k = 0; k < 2; k++) {
		T_ASSERT_EQ(a.jobs[k].error, 0);
		T_ASSERT_U64_EQ(a.jobs[k].nr_zone_resets, b.jobs[k].nr_zone_resets);
		T_ASSERT_U64_EQ(a.jobs[k].finish_ns, b.jobs[k].finish_ns);
		for (int d = 0; d < 2; d++)
			T_ASSERT_U64_EQ(a.jobs[k].dir[d].io_bytes, b.jobs[k].dir[d].io_bytes);
	}
	/* the mixed jobs wrote first (nothing to read), and the threshold reset zones */
	T_ASSERT(a.jobs[0].dir[IOS_DDIR_READ].io_bytes > 0);
	T_ASSERT(a.jobs[0].nr_zone_resets + a.jobs[1].nr_zone_resets > 0);
	ios_run_result_free(&a);
	ios_run_result_free(&b);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_random_writes_at_wp_within_open_limit, test_device_limit_and_errors,
		     test_sequential_write_then_read, test_read_beyond_wp, test_emulated_zones,
		     test_zone_units, test_block_larger_than_zone_refused,
		     test_plain_job_on_zoned_disk_fails, test_same_output_twice);
}
