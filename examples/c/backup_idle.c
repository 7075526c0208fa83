/*
 * backup_idle: a foreground tenant doing random 4 KiB reads beside a backup
 * copier in the idle class reading 128 KiB sequentially, through one of
 * the lab's schedulers. No arguments: ~2 simulated seconds on the default
 * disk. --scheduler NAME picks the scheduler; --real DIR runs on files in
 * DIR (needs the io_uring host).
 *
 *	cc backup_idle.c $(pkg-config --cflags --libs iosched)
 */
#define _POSIX_C_SOURCE 200112L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <iosched/app.h>

#define RUN_NS		2000000000ull
#define FILE_SIZE	(256ull << 20)
#define DEPTH		4

static uint64_t rnd(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 20;
}

int main(int argc, char **argv)
{
	struct ios_app_config cfg = { .scheduler = "cfq", .seed = 1 };
	struct ios_app_tenant fg = { .name = "foreground", .ioprio_class = 2, .ioprio_level = 4 };
	struct ios_app_tenant bk = { .name = "backup", .ioprio_class = 3 };
	struct ios_app_tenant_stats st;
	struct ios_err e = { 0 };
	struct ios_app *app;
	uint64_t x = 42, seq = 0, done[2] = { 0, 0 };
	void *buf[2] = { NULL, NULL };
	int f, t[2];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--scheduler") && i + 1 < argc) {
			cfg.scheduler = argv[++i];
		} else if (!strcmp(argv[i], "--real") && i + 1 < argc) {
			cfg.host = IOS_APP_REAL;
			cfg.device = argv[++i];
		} else {
			fprintf(stderr, "usage: %s [--scheduler NAME] [--real DIR]\n", argv[0]);
			return 2;
		}
	}
	char path[4096];

	app = ios_app_open(&cfg, &e);
	if (!app) {
		fprintf(stderr, "backup_idle: %s\n", e.msg);
		return 1;
	}
	if (cfg.host == IOS_APP_REAL) {
		/* O_DIRECT wants aligned buffers; every I/O of a tenant shares one */
		if (posix_memalign(&buf[0], 4096, 4096) || posix_memalign(&buf[1], 4096, 128 << 10))
			return 1;
	}
	/* a real file goes in DIR, written out first: reads of unwritten blocks never reach the disk */
	snprintf(path, sizeof(path), "%s/backup_idle.dat", cfg.host == IOS_APP_REAL ? cfg.device : ".");
	f = ios_app_add_file(app, path, FILE_SIZE,
			     IOS_APP_FILE_CREATE | (cfg.host == IOS_APP_REAL ? IOS_APP_FILE_FILL : 0), &e);
	t[0] = ios_app_tenant_add(app, &fg, &e);
	t[1] = ios_app_tenant_add(app, &bk, &e);
	if (f < 0 || t[0] < 0 || t[1] < 0)
		goto fail;
	for (;;) {
		for (int k = 0; k < 2; k++) {
			if (ios_app_tenant_stats(app, t[k], &st, &e))
				goto fail;
			/* keep DEPTH I/Os in flight for each tenant */
			while (ios_app_now(app) < RUN_NS && st.ios + DEPTH > done[k]) {
				uint64_t off = k ? seq : rnd(&x) % (FILE_SIZE / 4096) * 4096;
				uint64_t len = k ? 128 << 10 : 4096;

				if (k)
					seq = (seq + len) % FILE_SIZE;
				if (ios_app_submit(app, t[k], f, IOS_APP_READ, off, len, buf[k], 0,
						   NULL, NULL, &e))
					goto fail;
				done[k]++;
			}
		}
		if (ios_app_now(app) >= RUN_NS && !ios_app_in_flight(app))
			break;
		if (ios_app_wait(app, 1, 0, &e) < 0)
			goto fail;
	}
	for (int k = 0; k < 2; k++) {
		double secs = (double)ios_app_now(app) / 1e9;

		if (ios_app_tenant_stats(app, t[k], &st, &e))
			goto fail;
		printf("%-10s %8.2f MiB/s  mean latency %8.2f ms  (%" PRIu64 " I/Os)\n",
		       k ? bk.name : fg.name, (double)st.bytes / secs / (1 << 20),
		       st.ios ? (double)st.lat_sum_ns / (double)st.ios / 1e6 : 0.0, st.ios);
	}
	ios_app_close(app);
	free(buf[0]);
	free(buf[1]);
	return 0;
fail:
	fprintf(stderr, "backup_idle: %s\n", e.msg);
	ios_app_close(app);
	return 1;
}
