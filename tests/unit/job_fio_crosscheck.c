/*
 * Description: cross-check against the real fio. For a set of one-option job
 * files, the numbers `fio --parse-only --debug=parse` prints ("out=N": bytes,
 * or microseconds for times) must equal what iosched's parser stores (after
 * converting ns to us), and files fio refuses must be refused here too. The
 * $pagesize/$mb_memory keywords are compared with the host's values, since
 * that is what fio uses. Skips (77) when fio is not installed.
 */
#include <stdio.h>
#include <unistd.h>
#include "job_util.h"

static char cc_dir[64];

/* Every "out=N" fio prints for @text, in order; returns the count or -1 if fio failed. */
static int fio_outs(const char *text, uint64_t *out, int max)
{
	char path[128], cmd[256], *res, *p;
	int status, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cc.fio", cc_dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "fio --parse-only --debug=parse '%s' 2>&1", path);
	res = t_run_cmd(cmd, &status);
	if (!res)
		return -1;
	if (status || strstr(res, "failed parsing") || strstr(res, "Bad option")) {
		free(res);
		return -1;
	}
	for (p = res; (p = strstr(p, "out=")) && n < max; p += 4)
		out[n++] = strtoull(p + 4, NULL, 10);
	free(res);
	return n;
}

static const struct ios_job_parse_opts *host_opts(void)
{
	static struct ios_job_parse_opts po;
	long pg = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);

	ios_job_parse_opts_init(&po);
	po.pagesize = (uint64_t)pg;
	po.mb_memory = (uint64_t)pages * (uint64_t)pg / (1024 * 1024);
	return &po;
}

enum cc_field { F_SIZE, F_BS0, F_BS1, F_RUNTIME_US, F_THINK_US, F_RAMP_US, F_SD_LO_US,
		F_SD_HI_US, F_IODEPTH, F_RATE0, F_RATE1, F_OFFSET };

static uint64_t field(const struct ios_job *j, enum cc_field f)
{
	switch (f) {
	case F_SIZE: return j->size;
	case F_BS0: return j->bs[0];
	case F_BS1: return j->bs[1];
	case F_RUNTIME_US: return j->runtime_ns / 1000;
	case F_THINK_US: return j->thinktime_ns / 1000;
	case F_RAMP_US: return j->ramp_time_ns / 1000;
	case F_SD_LO_US: return j->startdelay_lo_ns / 1000;
	case F_SD_HI_US: return j->startdelay_hi_ns / 1000;
	case F_IODEPTH: return j->iodepth;
	case F_RATE0: return j->rate[0];
	case F_RATE1: return j->rate[1];
	case F_OFFSET: return j->offset;
	}
	return 0;
}

static const struct cc_case {
	const char *text;
	int nf;
	enum cc_field f[2];
} cases[] = {
	{ "[j]\nsize=4k\n", 1, { F_SIZE } },
	{ "[j]\nsize=4KB\n", 1, { F_SIZE } },
	{ "[j]\nsize=4kib\n", 1, { F_SIZE } },
	{ "[j]\nsize=1MiB\n", 1, { F_SIZE } },
	{ "[j]\nsize=3g\n", 1, { F_SIZE } },
	{ "[j]\nsize=0x1000\n", 1, { F_SIZE } },
	{ "[j]\nkb_base=1000\nsize=1m\n", 1, { F_SIZE } },
	{ "[j]\nsize=1m\nkb_base=1000\n", 1, { F_SIZE } },
	{ "[j]\nkb_base=1000\nsize=4kib\n", 1, { F_SIZE } },
	{ "[j]\noffset=64k\n", 1, { F_OFFSET } },
	{ "[j]\nbs=8k,32k\n", 2, { F_BS0, F_BS1 } },
	{ "[j]\nbs=$pagesize\n", 1, { F_BS0 } },
	{ "[j]\nbs=$pagesize*2\n", 1, { F_BS0 } },
	{ "[j]\nsize=(2*$mb_memory)\n", 1, { F_SIZE } },
	{ "[j]\nrate=1m,500k\n", 2, { F_RATE0, F_RATE1 } },
	{ "[j]\nruntime=10m\n", 1, { F_RUNTIME_US } },
	{ "[j]\nruntime=90\n", 1, { F_RUNTIME_US } },
	{ "[j]\ntimeout=200\n", 1, { F_RUNTIME_US } },
	{ "[j]\nruntime=250ms\n", 1, { F_RUNTIME_US } },
	{ "[j]\nthinktime=5\n", 1, { F_THINK_US } },
	{ "[j]\nthinktime=5ms\n", 1, { F_THINK_US } },
	{ "[j]\nramp_time=3\n", 1, { F_RAMP_US } },
	{ "[j]\nstartdelay=1-3\n", 2, { F_SD_LO_US, F_SD_HI_US } },
	{ "[j]\niodepth=0x10\n", 1, { F_IODEPTH } },
	{ "[j]\nrw=randread ; comment\niodepth=4 #c\n", 1, { F_IODEPTH } },
};

/* fio refuses these, and so do we. */
static const char *const both_refuse[] = {
	"[j]\nrw= randread\n",
	"[j]\nbs=\n",
	"[j]\nbs\n",
	"[j]\nBS=4k\n",
	"[j]\nprio=8\n",
	"[j]\nrwmixread=101\n",
	"[j]\ncgroup_weight=1001\n",
	"[j]\niodepth=0\n",
	"[j]\ndirect=2\n",
	"[j]\nbsrange=4k\n",
	"[j]\nkb_base=1001\n",
	"bs=4k\n[j]\n",
};

static int test_values_match_fio(void)
{
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		const struct cc_case *c = &cases[i];
		uint64_t outs[8];
		int n = fio_outs(c->text, outs, 8), k, ret;

		T_ASSERT_MSG(n >= c->nf, "fio did not parse:\n%s", c->text);
		ios_jobfile_free(&jt_jf);
		ios_err_clear(&jt_e);
		ret = ios_job_parse_buf("t.fio", c->text, strlen(c->text), host_opts(), &jt_jf, &jt_e);
		T_ASSERT_MSG(ret == 0 && jt_jf.nr_jobs == 1, "iosched: %s", jt_e.msg);
		for (k = 0; k < c->nf; k++)
			T_ASSERT_MSG(field(&jt_jf.jobs[0], c->f[k]) == outs[n - c->nf + k],
				     "value %d of:\n%sfio %" PRIu64 ", iosched %" PRIu64, k, c->text,
				     outs[n - c->nf + k], field(&jt_jf.jobs[0], c->f[k]));
	}
	jt_cleanup();
	return T_PASS;
}

static int test_refusals_match_fio(void)
{
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(both_refuse); i++) {
		uint64_t outs[4];

		T_ASSERT_MSG(fio_outs(both_refuse[i], outs, 4) < 0, "fio accepted:\n%s",
			     both_refuse[i]);
		T_ASSERT_MSG(jt_parse(both_refuse[i]) < 0, "iosched accepted:\n%s", both_refuse[i]);
	}
	jt_cleanup();
	return T_PASS;
}

/* The quirks we refuse instead of copying: check fio 3.33 really has them. */
static int test_fio_quirks_we_refuse(void)
{
	char *ver;
	int status;
	uint64_t outs[4];

	ver = t_run_cmd("fio --version 2>&1", &status);
	if (!ver || !strstr(ver, "fio-3.33")) {
		free(ver);
		return T_PASS;	/* only pinned for the version we checked */
	}
	free(ver);
	/* "bs = 8k" is 8 bytes in fio; we refuse it */
	T_ASSERT(fio_outs("[j]\nbs = 8k\n", outs, 4) == 1 && outs[0] == 8);
	T_ASSERT(jt_parse("[j]\nbs = 8k\n") == -EINVAL);
	/* "4ki" is 4096 in fio, 4000 by its HOWTO: we refuse it */
	T_ASSERT(fio_outs("[j]\nsize=4ki\n", outs, 4) == 1 && outs[0] == 4096);
	T_ASSERT(jt_parse("[j]\nsize=4ki\n") == -EINVAL);
	/* "10sec" is 10 microseconds in fio: we refuse it */
	T_ASSERT(fio_outs("[j]\nruntime=10sec\n", outs, 4) == 1 && outs[0] == 10);
	T_ASSERT(jt_parse("[j]\nruntime=10sec\n") == -EINVAL);
	jt_cleanup();
	return T_PASS;
}

/*
 * fio refuses cgroup_weight below 100 (2.6.33's blkio range); we take 1..1000
 * and let the run check the chosen scheduler's own range (cfq-4.19 10..1000,
 * BFQ 1..1000), as docs/jobfiles.md says.
 */
static int test_fio_refuses_scheduler_decides(void)
{
	uint64_t outs[4];

	T_ASSERT_MSG(fio_outs("[j]\ncgroup_weight=99\n", outs, 4) < 0, "fio accepted weight 99");
	T_ASSERT(jt_parse("[j]\ncgroup_weight=99\n") == 0);
	T_ASSERT(jt_parse("[j]\ncgroup_weight=0\n") == -ERANGE);
	jt_cleanup();
	return T_PASS;
}

int main(void)
{
	int status, ret;
	char *which = t_run_cmd("command -v fio", &status);

	free(which);
	if (status != 0) {
		printf("fio is not installed: skipping\n");
		return T_SKIP;
	}
	snprintf(cc_dir, sizeof(cc_dir), "/tmp/iosched-fiocc-XXXXXX");
	if (!mkdtemp(cc_dir))
		return T_FAIL;
	ret = T_RUN(test_values_match_fio, test_refusals_match_fio, test_fio_quirks_we_refuse,
		    test_fio_refuses_scheduler_decides);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cc_dir);
		if (system(cmd))
			ret = T_FAIL;
	}
	return ret;
}
