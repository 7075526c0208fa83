/*
 * demote_idle: two tenants each read their own file sequentially, 64 KiB
 * at a time, 4 I/Os in flight, refilled from the completion callbacks (a
 * callback may submit). After one simulated second the second tenant is
 * moved to the idle class (as `ionice -c 3 -p PID` would); the scheduler
 * applies it at the tenant's next request. Prints each tenant's bandwidth
 * in each second. --scheduler NAME (default cfq).
 *
 *	cc demote_idle.c $(pkg-config --cflags --libs iosched)
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <iosched/app.h>

#define HALF_NS		1000000000ull
#define LEN		(64u << 10)
#define FILE_SIZE	(1ull << 30)
#define DEPTH		4

struct reader {
	struct ios_app *app;
	int tenant, file;
	uint64_t pos;
	int error;		/* the first failed submit, 0 if none */
};

static void refill(void *arg, int error, uint64_t latency_ns)
{
	struct reader *r = arg;
	int ret;

	(void)latency_ns;
	if (error || r->error || ios_app_now(r->app) >= 2 * HALF_NS)
		return;
	ret = ios_app_submit(r->app, r->tenant, r->file, IOS_APP_READ, r->pos % FILE_SIZE, LEN,
			     NULL, 0, refill, r, NULL);
	if (ret)
		r->error = ret;
	r->pos += LEN;
}

int main(int argc, char **argv)
{
	struct ios_app_config cfg = { .scheduler = "cfq", .seed = 1 };
	struct ios_app_tenant ten = { .ioprio_class = 2, .ioprio_level = 4 };
	struct ios_app_tenant_stats st;
	uint64_t before[2] = { 0, 0 };
	struct ios_err e = { 0 };
	struct reader r[2];
	struct ios_app *app;

	if (argc == 3 && !strcmp(argv[1], "--scheduler")) {
		cfg.scheduler = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--scheduler NAME]\n", argv[0]);
		return 2;
	}
	app = ios_app_open(&cfg, &e);
	if (!app) {
		fprintf(stderr, "demote_idle: %s\n", e.msg);
		return 1;
	}
	for (int k = 0; k < 2; k++) {
		ten.name = k ? "demoted" : "steady";
		memset(&r[k], 0, sizeof(r[k]));
		r[k].app = app;
		r[k].file = ios_app_add_file(app, k ? "demoted.dat" : "steady.dat", FILE_SIZE, 0, &e);
		r[k].tenant = ios_app_tenant_add(app, &ten, &e);
		if (r[k].file < 0 || r[k].tenant < 0)
			goto fail;
		for (int i = 0; i < DEPTH; i++)
			refill(&r[k], 0, 0);
	}
	for (int half = 0; half < 2; half++) {
		/* run to the end of this second (the callbacks keep the depth) */
		while (ios_app_now(app) < (half + 1) * HALF_NS && ios_app_in_flight(app))
			if (ios_app_wait(app, 1, 0, &e) < 0)
				goto fail;
		for (int k = 0; k < 2; k++) {
			if (ios_app_tenant_stats(app, r[k].tenant, &st, &e))
				goto fail;
			printf("second %d  %-8s %8.2f MiB/s\n", half + 1, k ? "demoted" : "steady",
			       (double)(st.bytes - before[k]) / (1 << 20));
			before[k] = st.bytes;
		}
		if (!half && ios_app_tenant_set_prio(app, r[1].tenant, 3, 0, &e))
			goto fail;
	}
	if (r[0].error || r[1].error) {
		fprintf(stderr, "demote_idle: a submit from a callback failed: %d\n",
			r[0].error ? r[0].error : r[1].error);
		ios_app_close(app);
		return 1;
	}
	/* the callbacks stop refilling after 2 s; close drains what is left */
	return ios_app_close(app) ? 1 : 0;
fail:
	fprintf(stderr, "demote_idle: %s\n", e.msg);
	ios_app_close(app);
	return 1;
}
