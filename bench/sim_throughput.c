/*
 * Benchmark: simulated requests per wall-clock second.
 *
 * Runs a 4 KiB random-read job at iodepth 32 (libaio, direct) under noop on
 * the "ssd" profile through the whole stack (task model, block layer,
 * scheduler, device model, stats), and prints how many requests the
 * simulator completes per second of wall time. bench/run-bench.sh runs fio
 * with ioengine=null on the same job in the same session and reports the
 * ratio; this program only measures itself. Printed, never asserted.
 *
 * usage: sim_throughput [simulated-seconds] [scheduler] [device]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iosched/ios.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	const char *secs = argc > 1 ? argv[1] : "10";
	const char *sched = argc > 2 ? argv[2] : "noop";
	const char *dev = argc > 3 ? argv[3] : "ssd";
	char job[512];
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };
	double t0, t1, best = 0;
	uint64_t ios = 0, events = 0;

	snprintf(job, sizeof(job),
		 "[randread-qd32]\nrw=randread\nbs=4k\nioengine=libaio\niodepth=32\n"
		 "direct=1\nsize=8g\nruntime=%s\ntime_based\n", secs);
	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf("bench.fio", job, strlen(job), &po, &jf, &e)) {
		fprintf(stderr, "parse: %s\n", e.msg);
		return 1;
	}
	cfg.scheduler = sched;
	cfg.device = dev;
	cfg.seed = 1;
	for (int rep = 0; rep < 3; rep++) {
		double rate;

		t0 = now_s();
		if (ios_run(&jf, &cfg, &res, &e)) {
			fprintf(stderr, "run: %s\n", e.msg);
			return 1;
		}
		t1 = now_s();
		ios = res.jobs[0].dir[0].total_ios;
		events = res.nr_events;
		rate = (double)ios / (t1 - t0);
		if (rate > best)
			best = rate;
		ios_run_result_free(&res);
	}
	printf("sim_throughput: %s on %s, 4k randread qd32, %s s simulated: %llu requests, "
	       "%llu events, best of 3: %.0f requests per wall second\n",
	       sched, dev, secs, (unsigned long long)ios, (unsigned long long)events, best);
	printf("SIM_REQ_PER_SEC=%.0f\n", best);
	ios_jobfile_free(&jf);
	return 0;
}
