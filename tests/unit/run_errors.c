/*
 * Description: fio's error handling and a full filesystem (src/run/errors.c,
 * docs/jobfiles.md "Errors"). fill_device=1 writes exactly the space the
 * filesystem has left and ends without an error; a write-only job whose
 * file does not fit writes until ENOSPC, which stops it (err=28) unless
 * continue_on_error= and ignore_error= make it non-fatal, and then the job
 * goes on, counting every failed write (total_err, first_error). A failed
 * I/O is issued but adds no bytes. lab.eio_every's EIO is non-fatal under
 * continue_on_error=read (fio's default list); exitall_on_error stops the
 * other jobs. ignore_error= is parsed as fio does, with errors naming the
 * option and the allowed values. Expected values come from fio 3.33's
 * HOWTO and backend.c / td_error.c, and from fio 3.33 run on an 8 MiB tmpfs
 * (fill: 128 writes of 64 KiB, 129 issued, err=0; size=12m without
 * continue: err=28 after 128 writes; with continue_on_error=write
 * ignore_error=,ENOSPC: 192 issued, total_err=64, err=28).
 */
#include <string.h>
#include "harness.h"
#include "iosched/fs.h"

#define GIB (1024ull * 1024 * 1024)

static int run_job(const char *text, const char *const *sets, struct ios_run_result *res,
		   struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	int ret;

	memset(e, 0, sizeof(*e));
	memset(res, 0, sizeof(*res));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("t.fio", text, strlen(text), &po, &jf, e);
	if (ret)
		return ret;
	ret = ios_settings_add_kv(&set, "device.capacity=1GiB", "--set", e);
	for (; !ret && sets && *sets; sets++)
		ret = ios_settings_add_kv(&set, *sets, "--set", e);
	cfg.settings = &set;
	cfg.seed = 1;
	if (!ret)
		ret = ios_run(&jf, &cfg, res, e);
	if (ret)
		fprintf(stderr, "  run: %s\n", e->msg);
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static const struct ios_dir_result *wr(const struct ios_run_result *r, size_t i)
{
	return &r->jobs[i].dir[IOS_DDIR_WRITE];
}

/* The data bytes a new file 'f' can get on an empty 1 GiB filesystem of @type. */
static uint64_t free_data_bytes(enum ios_fs_type type, bool *full_after)
{
	struct ios_fs *fs;
	struct ios_fs_file *f, *g;
	struct ios_err e = { 0 };
	uint64_t size;

	if (ios_fs_create(type, GIB, 1024 * 1024, &fs, &e))
		return 0;
	if (ios_fs_add_file_upto(fs, "scratch/f", GIB, &f, &e)) {
		ios_fs_destroy(fs);
		return 0;
	}
	size = f->size;
	/* nothing more fits: not one more block for another file, which can only be empty */
	*full_after = ios_fs_add_file(fs, "scratch/g", 4096, &g, &e) == -ENOSPC &&
		      ios_fs_add_file_upto(fs, "scratch/h", 4096, &g, &e) == 0 && g->size == 0;
	ios_fs_destroy(fs);
	return size;
}

static const char fill_job[] = "[fill]\ndirectory=/scratch\nfilename=f\nrw=write\nbs=4k\n"
			       "ioengine=psync\nfill_device=1\n";

static int test_fill_device(void)
{
	static const char *const layouts[] = { "lab.fs=ext3", "lab.fs=extent", "lab.fs=raw" };
	static const enum ios_fs_type types[] = { IOS_FS_EXT3, IOS_FS_EXTENT, IOS_FS_RAW };
	struct ios_run_result r;
	struct ios_err e;

	for (int i = 0; i < 3; i++) {
		const char *sets[] = { layouts[i], NULL };
		bool full = false;
		uint64_t want = free_data_bytes(types[i], &full);

		T_ASSERT(want > GIB / 2);
		T_ASSERT(full);
		T_ASSERT_EQ(run_job(fill_job, sets, &r, &e), 0);
		/* every free block written, then one write refused: no error */
		T_ASSERT_EQ(wr(&r, 0)->io_bytes, want);
		T_ASSERT_EQ(wr(&r, 0)->total_ios, want / 4096 + 1);
		T_ASSERT_EQ(r.jobs[0].error, 0);
		T_ASSERT(!r.jobs[0].continue_on_error);
		T_ASSERT(!r.jobs[0].cut_short);
		ios_run_result_free(&r);
	}
	/*
	 * ext3 on 1 GiB: 257,701 blocks free (1,055,543,296 bytes, what the
	 * layout's ENOSPC message reports); the new directory 'scratch' takes
	 * one; n data blocks need 1 IND + 1 DIND + ceil((n - 12 - 1024) / 1024)
	 * more: n = 257,447 takes 253 of them, exactly the rest.
	 */
	{
		bool full;

		T_ASSERT_EQ(free_data_bytes(IOS_FS_EXT3, &full), 257447ull * 4096);
		T_ASSERT_EQ(1 + 257447 + 2 + (257447 - 12 - 1024 + 1023) / 1024, 257701);
	}
	/* raw has no metadata: the whole device */
	{
		bool full;

		T_ASSERT_EQ(free_data_bytes(IOS_FS_RAW, &full), GIB);
	}
	return T_PASS;
}

/* fill_device on the device node: the end of the device ends the job, no ENOSPC */
static int test_fill_raw_device(void)
{
	struct ios_run_result r;
	struct ios_err e;

	T_ASSERT_EQ(run_job("[d]\nfilename=/dev/sda\nrw=write\nbs=1m\ndirect=1\nfill_device=1\n",
			    NULL, &r, &e), 0);
	T_ASSERT_EQ(wr(&r, 0)->io_bytes, GIB);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, 1024);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	ios_run_result_free(&r);
	return T_PASS;
}

static const char over_job[] = "[w]\ndirectory=/scratch\nrw=write\nbs=64k\nsize=2g\n"
			       "ioengine=psync\nlab_placeholder\n";

static int run_over(const char *extra, struct ios_run_result *r)
{
	char text[512];
	struct ios_err e;
	const char *p = strstr(over_job, "lab_placeholder");

	snprintf(text, sizeof(text), "%.*s%s\n", (int)(p - over_job), over_job, extra);
	return run_job(text, NULL, r, &e);
}

static int test_enospc_mid_job(void)
{
	struct ios_run_result r;
	uint64_t ok;
	bool full;

	/* fits on neither layout nor device; fio writes it until ENOSPC, then stops */
	T_ASSERT_EQ(run_over("", &r), 0);
	ok = free_data_bytes(IOS_FS_EXT3, &full) / 65536 * 65536;
	T_ASSERT_EQ(wr(&r, 0)->io_bytes, ok);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, ok / 65536 + 1);
	T_ASSERT_EQ(r.jobs[0].error, ENOSPC);
	T_ASSERT(!r.jobs[0].continue_on_error);
	ios_run_result_free(&r);

	/* continue past ENOSPC: every write of the 2 GiB issued, the failures counted */
	T_ASSERT_EQ(run_over("continue_on_error=write\nignore_error=,ENOSPC", &r), 0);
	T_ASSERT_EQ(wr(&r, 0)->io_bytes, ok);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, 2 * GIB / 65536);
	T_ASSERT(r.jobs[0].continue_on_error);
	T_ASSERT_EQ(r.jobs[0].total_err, 2 * GIB / 65536 - ok / 65536);
	T_ASSERT_EQ(r.jobs[0].first_error, ENOSPC);
	T_ASSERT_EQ(r.jobs[0].error, ENOSPC);	/* fio reports the first error */
	ios_run_result_free(&r);

	/* continue_on_error=write alone: only EIO and EILSEQ are non-fatal; ENOSPC counted, stops */
	T_ASSERT_EQ(run_over("continue_on_error=write", &r), 0);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, ok / 65536 + 1);
	T_ASSERT_EQ(r.jobs[0].total_err, 1);
	T_ASSERT_EQ(r.jobs[0].error, ENOSPC);
	ios_run_result_free(&r);

	/* ignore_error's list is for reads: writes still stop */
	T_ASSERT_EQ(run_over("continue_on_error=all\nignore_error=ENOSPC", &r), 0);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, ok / 65536 + 1);
	T_ASSERT_EQ(r.jobs[0].total_err, 1);
	ios_run_result_free(&r);

	/* a later continue_on_error=none clears what ignore_error= set, as in fio */
	T_ASSERT_EQ(run_over("ignore_error=,ENOSPC\ncontinue_on_error=none", &r), 0);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, ok / 65536 + 1);
	T_ASSERT(!r.jobs[0].continue_on_error);
	ios_run_result_free(&r);
	/* ... and the number 28 works like the name */
	T_ASSERT_EQ(run_over("ignore_error=,28:5", &r), 0);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, 2 * GIB / 65536);
	ios_run_result_free(&r);
	return T_PASS;
}

/* Three writers of 800 MiB on 1 GiB: the first fits, the second gets the rest, the third none */
static int test_third_file_empty(void)
{
	struct ios_run_result r;
	struct ios_err e;
	const char *sets[] = { "lab.fs=raw", NULL };

	T_ASSERT_EQ(run_job("[global]\nrw=write\nbs=64k\nsize=800m\n[a]\n[b]\n[c]\n", sets, &r,
			    &e), 0);
	T_ASSERT_EQ(r.jobs[0].error, 0);
	T_ASSERT_EQ(wr(&r, 0)->io_bytes, 800ull << 20);
	T_ASSERT_EQ(r.jobs[1].error, ENOSPC);
	/* raw: b starts at the next 1 MiB boundary after a, and gets the device's end */
	T_ASSERT_EQ(wr(&r, 1)->io_bytes, GIB - (800ull << 20));
	T_ASSERT_EQ(r.jobs[2].error, ENOSPC);
	T_ASSERT_EQ(wr(&r, 2)->io_bytes, 0);
	T_ASSERT_EQ(wr(&r, 2)->total_ios, 1);
	ios_run_result_free(&r);
	return T_PASS;
}

/* A job that reads lays its file out first (fio's extend_file): too big is refused before the run. */
static int test_reader_refused_at_layout(void)
{
	struct ios_run_result r;
	struct ios_err e;

	T_ASSERT_EQ(run_job("[r]\nrw=randrw\nsize=2g\n", NULL, &r, &e), -ENOSPC);
	T_ASSERT(strstr(e.msg, "size=2g") != NULL);
	T_ASSERT_EQ(run_job("[w]\nrw=write\noverwrite=1\nsize=2g\n", NULL, &r, &e), -ENOSPC);
	return T_PASS;
}

static int test_eio_injection(void)
{
	const char *sets[] = { "lab.eio_every=10", NULL };
	const char *job = "[r]\nrw=read\nbs=4k\nsize=4m\ndirect=1\n";
	char text[256];
	struct ios_run_result r;
	struct ios_err e;

	T_ASSERT_EQ(run_job(job, sets, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].error, EIO);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_DDIR_READ].total_ios, 10);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_DDIR_READ].io_bytes, 9 * 4096);
	ios_run_result_free(&r);

	snprintf(text, sizeof(text), "%scontinue_on_error=read\n", job);
	T_ASSERT_EQ(run_job(text, sets, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_DDIR_READ].total_ios, 1024);
	T_ASSERT_EQ(r.jobs[0].total_err, 102);
	T_ASSERT_EQ(r.jobs[0].first_error, EIO);
	T_ASSERT_EQ(r.jobs[0].error, EIO);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_DDIR_READ].io_bytes, (1024 - 102) * 4096);
	ios_run_result_free(&r);

	/* continue_on_error=write does not cover reads */
	snprintf(text, sizeof(text), "%scontinue_on_error=write\n", job);
	T_ASSERT_EQ(run_job(text, sets, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].dir[IOS_DDIR_READ].total_ios, 10);
	ios_run_result_free(&r);
	return T_PASS;
}

static int test_exitall_on_error(void)
{
	const char *sets[] = { "lab.eio_every=50", NULL };
	const char *base = "[a]\nrw=read\nbs=4k\nsize=4m\ndirect=1\n"
			   "[b]\nrw=read\nbs=4k\nsize=64m\ndirect=1\ncontinue_on_error=read\n";
	char text[512];
	struct ios_run_result r;
	struct ios_err e;

	T_ASSERT_EQ(run_job(base, sets, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[1].dir[IOS_DDIR_READ].total_ios, 16384);
	ios_run_result_free(&r);
	snprintf(text, sizeof(text), "[global]\nexitall_on_error\n%s", base);
	T_ASSERT_EQ(run_job(text, sets, &r, &e), 0);
	T_ASSERT_EQ(r.jobs[0].error, EIO);
	T_ASSERT(r.jobs[1].dir[IOS_DDIR_READ].total_ios < 16384);
	ios_run_result_free(&r);
	return T_PASS;
}

static int parse_err(const char *text, struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	int ret;

	memset(e, 0, sizeof(*e));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("t.fio", text, strlen(text), &po, &jf, e);
	if (!ret)
		ios_jobfile_free(&jf);
	return ret;
}

static int test_parse(void)
{
	static const struct {
		const char *opt;
		const char *msg;
	} bad[] = {
		{ "ignore_error=,ENOSPACE", "unknown error 'ENOSPACE'" },
		{ "ignore_error=,enospc", "bad error 'enospc'" },
		{ "ignore_error=,12abc", "bad error '12abc'" },
		{ "ignore_error=EIO::ENOSPC", "empty error name" },
		{ "ignore_error=EIO,EIO,EIO,EIO", "more than three" },
		{ "ignore_error=0", "bad error '0'" },
		{ "ignore_error=EOPNOTSUPP", "give any other error as its number" },
		{ "ignore_error=EIO:EOPNOTSUPP", "errno 1..34" },
		{ "continue_on_error=writes", "allowed: none, read, write, io, verify, all" },
	};
	struct ios_jobfile jf = { 0 };
	struct ios_job_parse_opts po;
	struct ios_err e;
	const char *good = "[j]\nrw=read\nsize=1m\ncontinue_on_error=io\nignore_error=EAGAIN,ENOSPC:122:-5,\n"
			   "fill_fs=1\n";

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[128];

		snprintf(text, sizeof(text), "[j]\nrw=read\nsize=1m\n%s\n", bad[i].opt);
		T_ASSERT_EQ(parse_err(text, &e), -EINVAL);
		if (!strstr(e.msg, bad[i].msg) || !strstr(e.msg, "t.fio:4") ||
		    !strstr(e.msg, bad[i].opt)) {
			fprintf(stderr, "  '%s': %s\n", bad[i].opt, e.msg);
			return T_FAIL;
		}
	}
	ios_job_parse_opts_init(&po);
	T_ASSERT_EQ(ios_job_parse_buf("t.fio", good, strlen(good), &po, &jf, &e), 0);
	T_ASSERT_EQ(jf.jobs[0].continue_on_error, 3u);
	T_ASSERT_EQ(jf.jobs[0].ignore_error_nr[IOS_ERRTYPE_READ], 1u);
	T_ASSERT_EQ(jf.jobs[0].ignore_error[IOS_ERRTYPE_READ][0], EAGAIN);
	T_ASSERT_EQ(jf.jobs[0].ignore_error_nr[IOS_ERRTYPE_WRITE], 3u);
	T_ASSERT_EQ(jf.jobs[0].ignore_error[IOS_ERRTYPE_WRITE][0], ENOSPC);
	T_ASSERT_EQ(jf.jobs[0].ignore_error[IOS_ERRTYPE_WRITE][1], 122);
	T_ASSERT_EQ(jf.jobs[0].ignore_error[IOS_ERRTYPE_WRITE][2], 5);
	T_ASSERT_EQ(jf.jobs[0].ignore_error_nr[IOS_ERRTYPE_VERIFY], 0u);
	T_ASSERT_EQ(jf.jobs[0].fill_device, 1);
	ios_jobfile_free(&jf);
	return T_PASS;
}

/* fill_device whose ENOSPC is ignored would never end: refused with the way out */
static int test_fill_never_ends(void)
{
	struct ios_run_result r;
	struct ios_err e;
	char text[256];

	snprintf(text, sizeof(text), "%scontinue_on_error=write\nignore_error=,ENOSPC\n", fill_job);
	T_ASSERT_EQ(run_job(text, NULL, &r, &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "fill_device=1") && strstr(e.msg, "never ends"));
	snprintf(text, sizeof(text), "%scontinue_on_error=write\nignore_error=,ENOSPC\nio_size=2g\n",
		 fill_job);
	T_ASSERT_EQ(run_job(text, NULL, &r, &e), 0);
	T_ASSERT_EQ(wr(&r, 0)->total_ios, 2 * GIB / 4096);
	T_ASSERT(r.jobs[0].total_err > 0);
	ios_run_result_free(&r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_fill_device, test_fill_raw_device, test_enospc_mid_job, test_third_file_empty,
		     test_reader_refused_at_layout, test_eio_injection, test_exitall_on_error,
		     test_parse, test_fill_never_ends);
}
