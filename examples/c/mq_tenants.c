/*
 * mq_tenants: the library on the blk-mq layer (Linux 6.12). The queue is
 * built for the scheduler's layer: an mq scheduler (kyber here; none,
 * mq-deadline, mq-deadline-6.6, bfq-6.12) gets blk-mq with
 * min(device queues, lab.cpus) hardware queues of the device's tags each,
 * and nr_requests = 2 * min(depth, 128) scheduler tags. Two tenants submit
 * from CPUs 0 and 1 (ios_app_tenant.cpu), so on ssd-nvme (32 queues) their
 * bios go to hardware queues 0 and 1. A 4 KiB random reader and a 64 KiB
 * random writer keep 8 I/Os each in flight for one simulated second; prints
 * the queue's nr_requests and each tenant's IOPS and mean latency.
 * --scheduler NAME (default kyber).
 *
 *	cc mq_tenants.c $(pkg-config --cflags --libs iosched)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <iosched/app.h>

#define RUN_NS		1000000000ull
#define FILE_SIZE	(1ull << 30)
#define DEPTH		8

int main(int argc, char **argv)
{
	static const char *const settings[] = { "lab.cpus=2", NULL };
	struct ios_app_config cfg = { .scheduler = "kyber", .device = "ssd-nvme", .seed = 1,
				      .settings = settings };
	struct ios_app_tenant rd = { .name = "reader", .cpu = 0 };
	struct ios_app_tenant wr = { .name = "writer", .cpu = 1 };
	struct ios_app_tenant_stats st;
	struct ios_err e = { 0 };
	struct ios_app *app;
	uint64_t sent[2] = { 0, 0 }, x = 88172645463325252ull;
	char nrq[32];
	int f, t[2];

	if (argc == 3 && !strcmp(argv[1], "--scheduler")) {
		cfg.scheduler = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--scheduler NAME]\n", argv[0]);
		return 2;
	}
	app = ios_app_open(&cfg, &e);
	if (!app) {
		fprintf(stderr, "mq_tenants: %s\n", e.msg);
		return 1;
	}
	f = ios_app_add_file(app, "./mq_tenants.dat", FILE_SIZE, IOS_APP_FILE_CREATE, &e);
	t[0] = ios_app_tenant_add(app, &rd, &e);
	t[1] = ios_app_tenant_add(app, &wr, &e);
	if (f < 0 || t[0] < 0 || t[1] < 0 || ios_app_get(app, "queue.nr_requests", nrq,
							   sizeof(nrq), &e))
		goto fail;
	printf("%s: queue.nr_requests %s\n", cfg.scheduler, nrq);
	for (;;) {
		for (int k = 0; k < 2; k++) {
			if (ios_app_tenant_stats(app, t[k], &st, &e))
				goto fail;
			while (ios_app_now(app) < RUN_NS && st.ios + DEPTH > sent[k]) {
				uint64_t len = k ? 64 << 10 : 4096;
				uint64_t off;

				x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift64 */
				off = x % (FILE_SIZE / len) * len;
				if (ios_app_submit(app, t[k], f, k ? IOS_APP_WRITE : IOS_APP_READ, off,
						   len, NULL, 0, NULL, NULL, &e))
					goto fail;
				sent[k]++;
			}
		}
		if (ios_app_now(app) >= RUN_NS && !ios_app_in_flight(app))
			break;
		if (ios_app_wait(app, 1, 0, &e) < 0)
			goto fail;
	}
	for (int k = 0; k < 2; k++) {
		if (ios_app_tenant_stats(app, t[k], &st, &e))
			goto fail;
		printf("%-7s cpu %u: %8.0f IOPS  mean latency %7.3f ms  (%" PRIu64 " I/Os)\n",
		       k ? wr.name : rd.name, k ? wr.cpu : rd.cpu,
		       (double)st.ios / ((double)ios_app_now(app) / 1e9),
		       st.ios ? (double)st.lat_sum_ns / (double)st.ios / 1e6 : 0.0, st.ios);
	}
	ios_app_close(app);
	return 0;
fail:
	fprintf(stderr, "mq_tenants: %s\n", e.msg);
	ios_app_close(app);
	return 1;
}
