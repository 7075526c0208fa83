/*
 * The application API (app.h) on the simulated host: callbacks once each,
 * priorities and classes reach the scheduler, misuse is an error.
 */
#include <string.h>
#include "harness.h"
#include "iosched/app.h"

struct counter {
	unsigned calls;
	int error;
};

static void count_done(void *arg, int error, uint64_t lat)
{
	struct counter *c = arg;

	(void)lat;
	c->calls++;
	c->error = error;
}

static struct ios_app *open_sched(const char *sched, const char *const *set)
{
	struct ios_app_config cfg = { .scheduler = sched, .settings = set, .seed = 1 };
	struct ios_err e = { 0 };
	struct ios_app *app = ios_app_open(&cfg, &e);

	if (!app)
		fprintf(stderr, "open %s: %s\n", sched, e.msg);
	return app;
}

static int test_callback_once(void)
{
	struct ios_app *app = open_sched("cfq", NULL);
	struct ios_app_tenant t = { .name = "a", .ioprio_class = 2, .ioprio_level = 4 };
	struct counter c[8];
	int f, id;

	T_ASSERT(app);
	f = ios_app_add_file(app, "f", 64 << 20, 0, NULL);
	id = ios_app_tenant_add(app, &t, NULL);
	T_ASSERT(f == 0 && id == 0);
	memset(c, 0, sizeof(c));
	/* 1 MiB splits into several bios, still one callback */
	for (int i = 0; i < 8; i++)
		T_ASSERT(!ios_app_submit(app, id, f, IOS_APP_READ, (uint64_t)i << 20, 1 << 20, NULL,
					 0, count_done, &c[i], NULL));
	T_ASSERT(ios_app_in_flight(app) == 8);
	T_ASSERT(ios_app_wait(app, 8, 0, NULL) == 8);
	for (int i = 0; i < 8; i++)
		T_ASSERT(c[i].calls == 1 && c[i].error == 0);
	T_ASSERT(ios_app_now(app) > 0);
	ios_app_close(app);
	return T_PASS;
}

/* run two random 4 KiB readers for 2 simulated seconds; bytes of each */
static int race(const char *sched, struct ios_app_tenant *ta, struct ios_app_tenant *tb,
		uint64_t *ba, uint64_t *bb, const char *const *set)
{
	struct ios_app *app = open_sched(sched, set);
	struct ios_app_tenant_stats sa, sb;
	uint64_t x = 12345;
	int f, a, b;

	if (!app)
		return -1;
	f = ios_app_add_file(app, "f", 1ull << 30, 0, NULL);
	a = ios_app_tenant_add(app, ta, NULL);
	b = ios_app_tenant_add(app, tb, NULL);
	if (f < 0 || a < 0 || b < 0)
		return -1;
	/* queue depth 4 each: refill after every completion */
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 2; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			if (ios_app_submit(app, k ? b : a, f, IOS_APP_READ, (x >> 20) % (1 << 18) * 4096,
					   4096, NULL, 0, NULL, NULL, NULL))
				return -1;
		}
	while (ios_app_now(app) < 2000000000ull) {
		uint64_t before[2];

		ios_app_tenant_stats(app, a, &sa, NULL);
		ios_app_tenant_stats(app, b, &sb, NULL);
		before[0] = sa.ios;
		before[1] = sb.ios;
		if (ios_app_wait(app, 1, 0, NULL) <= 0)
			return -1;
		ios_app_tenant_stats(app, a, &sa, NULL);
		ios_app_tenant_stats(app, b, &sb, NULL);
		for (int k = 0; k < 2; k++)
			for (uint64_t n = (k ? sb.ios : sa.ios) - before[k]; n; n--) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				if (ios_app_submit(app, k ? b : a, f, IOS_APP_READ,
						   (x >> 20) % (1 << 18) * 4096, 4096, NULL, 0,
						   NULL, NULL, NULL))
					return -1;
			}
	}
	*ba = sa.bytes;
	*bb = sb.bytes;
	ios_app_close(app);
	return 0;
}

static int test_prio_ratio(void)
{
	struct ios_app_tenant hi = { .name = "be0", .ioprio_class = 2, .ioprio_level = 0 };
	struct ios_app_tenant lo = { .name = "be7", .ioprio_class = 2, .ioprio_level = 7 };
	struct ios_app_tenant idle = { .name = "idle", .ioprio_class = 3 };
	uint64_t a, b;

	T_ASSERT(!race("cfq-4.19", &hi, &lo, &a, &b, NULL));
	fprintf(stderr, "cfq be0 %" PRIu64 " be7 %" PRIu64 "\n", a, b);
	/*
	 * measured 1.90 on the default disk: 4.19 idles on the sync-noidle
	 * tree, so slice lengths (180 vs 40 ms) count; cfq 2.6.31 does not
	 * idle for seeky queues and gives these two random readers ~1:1
	 */
	T_ASSERT(b > 0 && 2 * a >= 3 * b);
	T_ASSERT(!race("noop", &hi, &lo, &a, &b, NULL));
	fprintf(stderr, "noop be0 %" PRIu64 " be7 %" PRIu64 "\n", a, b);
	T_ASSERT(b > 0 && a * 10 < b * 12 && b * 10 < a * 12);
	T_ASSERT(!race("cfq", &hi, &idle, &a, &b, NULL));
	fprintf(stderr, "cfq be0 %" PRIu64 " idle %" PRIu64 "\n", a, b);
	/*
	 * measured 3.7:1: the idle queue is served whenever the seeky BE
	 * queue runs empty between its completions (depth 4, no idling for
	 * seeky queues in 2.6.31), so idle is held back but not starved
	 */
	T_ASSERT(b > 0 && a >= 3 * b);
	return T_PASS;
}

static int test_misuse(void)
{
	struct ios_app_config bad = { .scheduler = "nope" };
	const char *const badset[] = { "no_such_knob=1", NULL };
	struct ios_app_tenant t = { .name = "a" };
	struct ios_err e = { 0 };
	struct ios_app *app;
	char buf[64];
	int f, id;

	T_ASSERT(!ios_app_open(&bad, &e) && e.code == -ENOENT);
	ios_err_clear(&e);
	T_ASSERT(!open_sched("cfq", badset));
	app = open_sched("cfq", NULL);
	T_ASSERT(app);
	T_ASSERT(ios_app_add_file(app, "f", 0, 0, &e) == -EINVAL);
	f = ios_app_add_file(app, "f", 1 << 20, 0, NULL);
	id = ios_app_tenant_add(app, &t, NULL);
	T_ASSERT(ios_app_submit(app, 5, f, 0, 0, 4096, NULL, 0, NULL, NULL, NULL) == -EINVAL);
	T_ASSERT(ios_app_submit(app, id, 9, 0, 0, 4096, NULL, 0, NULL, NULL, NULL) == -EINVAL);
	T_ASSERT(ios_app_submit(app, id, f, 0, 0, 0, NULL, 0, NULL, NULL, NULL) == -EINVAL);
	T_ASSERT(ios_app_submit(app, id, f, 0, 100, 4096, NULL, 0, NULL, NULL, NULL) == -EINVAL);
	T_ASSERT(ios_app_submit(app, id, f, 0, 1 << 20, 4096, NULL, 0, NULL, NULL, NULL) == -EINVAL);
	T_ASSERT(ios_app_submit(app, id, f, 7, 0, 4096, NULL, 0, NULL, NULL, NULL) == -EINVAL);
	T_ASSERT(ios_app_tenant_set_prio(app, id, 9, 0, NULL) == -EINVAL);
	T_ASSERT(ios_app_tenant_set_prio(app, id, 2, 8, NULL) == -ERANGE);
	T_ASSERT(!ios_app_tenant_set_prio(app, id, 3, 0, NULL));
	ios_err_clear(&e);
	T_ASSERT(ios_app_set(app, "slice_idle", "-5", &e) < 0 && e.msg[0]);
	T_ASSERT(ios_app_set(app, "nosuch", "1", NULL) == -ENOENT);
	T_ASSERT(!ios_app_set(app, "slice_idle", "0", NULL));
	T_ASSERT(!ios_app_get(app, "slice_idle", buf, sizeof(buf), NULL) && !strcmp(buf, "0"));
	T_ASSERT(ios_app_wait(NULL, 1, 0, NULL) == -EINVAL);
	T_ASSERT(ios_app_wait(app, 1, 0, NULL) == 0);	/* nothing in flight */
	/* close with I/O in flight drains it */
	for (int i = 0; i < 16; i++)
		T_ASSERT(!ios_app_submit(app, id, f, 0, (uint64_t)i * 4096, 4096, NULL, 0, NULL,
					 NULL, NULL));
	ios_app_close(app);
	ios_app_close(NULL);
	return T_PASS;
}

static int test_weights(void)
{
	struct ios_app_tenant t = { .name = "a", .cgroup = "g", .weight = 5000 };
	struct ios_err e = { 0 };
	struct ios_app *app = open_sched("bfq", NULL);

	T_ASSERT(app);
	T_ASSERT(ios_app_tenant_add(app, &t, &e) == -ERANGE && strstr(e.msg, "1..1000"));
	ios_app_close(app);
	app = open_sched("noop", NULL);
	t.weight = 500;
	T_ASSERT(ios_app_tenant_add(app, &t, NULL) == 0 && ios_app_warning(app, 0));
	ios_app_close(app);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_callback_once, test_prio_ratio, test_misuse, test_weights);
}
