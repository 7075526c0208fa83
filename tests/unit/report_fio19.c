/*
 * Description: the fio 1.9 text layout used by the 2006 LKML threads. Lines
 * must have fio 1.9's shape (checked against the output quoted in the CFQ
 * starvation seed), its bytes-per-ms bandwidth, ms latencies and its
 * root-mean-square-like "dev", and its quirks: slat zeros for sync
 * engines, mint/minb pulled to 0 by jobs that skipped a direction, the
 * disk header always present, writes first for a write job.
 */
#include <string.h>
#include "harness.h"

#define T_HAS(text, line)                                                            \
	T_ASSERT_MSG(strstr((text), (line)), "missing line:\n%s\nin:\n%s", (line), (text))

static char *render(const struct ios_run_result *r)
{
	struct ios_buf b;

	ios_buf_init(&b);
	if (ios_report_fio19(r, &b)) {
		ios_buf_free(&b);
		return NULL;
	}
	return b.s;
}

static int test_seed_shaped_lines(void)
{
	struct ios_run_result r;
	struct ios_job_result jobs[2];
	struct ios_job wjob;
	char *t;

	memset(&r, 0, sizeof(r));
	memset(&wjob, 0, sizeof(wjob));
	wjob.rw = IOS_RW_WRITE;
	r.jobs = jobs;
	r.nr_jobs = 2;
	ios_job_result_init(&jobs[0]);
	ios_job_result_init(&jobs[1]);
	jobs[0].name = (char *)"reader1";
	jobs[0].ctx = 169761;
	/* the seed's reader1: io=662MiB at 3469 bytes/ms over 200058 ms */
	jobs[0].dir[0].io_bytes = 694158312;
	jobs[0].dir[0].total_ios = 169472;
	jobs[0].dir[0].runtime_ns = 200058000000ull;
	ios_lat_add(&jobs[0].dir[0].clat, 100000);
	ios_lat_add(&jobs[0].dir[0].clat, 1362000000);
	ios_sample_add(&jobs[0].dir[0].bw, 1000);	/* KiB/s = 1024 bytes/ms */
	ios_sample_add(&jobs[0].dir[0].bw, 3000);
	jobs[1].name = (char *)"writer";
	jobs[1].job = &wjob;
	jobs[1].dir[1].io_bytes = 1 << 20;
	jobs[1].dir[1].total_ios = 256;
	jobs[1].dir[1].runtime_ns = 1000000000;
	ios_lat_add(&jobs[1].dir[1].slat, 3000);
	ios_lat_add(&jobs[1].dir[1].clat, 2500000);
	t = render(&r);
	T_ASSERT(t);
	T_ASSERT(!strncmp(t, "\nreader1: (groupid=0): err= 0:\n", 31));
	T_HAS(t, "  read : io=   662MiB, bw=  3469KiB/s, runt=200058msec\n");
	/* sync engine: fio 1.9 printed slat as zeros */
	T_HAS(t, "    slat (msec): min=    0, max=    0, avg= 0.00, dev= 0.00\n");
	/* mean 681.05 ms; dev = sqrt(0.1^2 + 1362^2 - 681.05^2 / 2) = 1274.02 */
	T_HAS(t, "    clat (msec): min=    0, max= 1362, avg=681.05, dev=1274.02\n");
	/* {1024, 3072} bytes/ms: dev sqrt(10485760 - 2048^2 / 2) = 2896.31 */
	T_HAS(t, "    bw (KiB/s) : min= 1024, max= 3072, per=59.04%, avg=2048.00, dev=2896.31\n");
	T_HAS(t, "  cpu          : usr=0.00%, sys=0.00%, ctx=169761\n");
	T_HAS(t, "writer: (groupid=0): err= 0:\n  write: io=     1MiB, bw=  1048KiB/s, "
		 "runt=  1000msec\n    slat (msec): min=    0, max=    0, avg= 0.00, dev= 0.00\n"
		 "    clat (msec): min=    2, max=    2, avg= 2.50, dev= 0.00\n");
	/*
	 * The writer pulls READ's minb and mint to 0. For WRITE the reader's 0
	 * comes first and fio 1.9's "|| !min_run" lets the writer replace it.
	 */
	T_HAS(t, "\nRun status group 0 (all jobs):\n"
		 "   READ: io=662MiB, aggrb=3469, minb=0, maxb=3469, mint=0msec, maxt=200058msec\n"
		 "  WRITE: io=1MiB, aggrb=1048, minb=0, maxb=1048, mint=1000msec, maxt=1000msec\n"
		 "\nDisk stats (read/write):\n");
	free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_seed_shaped_lines);
}
