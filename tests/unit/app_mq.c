/*
 * Description: the application library on the blk-mq layer (src/app/app.c,
 * docs/library.md "blk-mq schedulers"): an mq scheduler gets the queue the
 * runner would build (kyber on ssd-nvme: queue.nr_requests 2 * min(1023,
 * 128) = 256; 'none': the 1023 driver tags), lab.cpus sets the CPUs a
 * tenant may submit from (ios_app_tenant.cpu; one past the last is refused
 * with the range, on blk-mq only), lab.cpus=0 and lab. names the app does
 * not read are refused, and tenants on two CPUs both complete I/O.
 */
#include <string.h>
#include "harness.h"
#include "iosched/app.h"

static struct ios_app *open_app(const char *sched, const char *const *set, struct ios_err *e)
{
	struct ios_app_config cfg = { .scheduler = sched, .device = "ssd-nvme", .seed = 1,
				      .settings = set };

	return ios_app_open(&cfg, e);
}

static int test_geometry_and_cpus(void)
{
	static const char *const two[] = { "lab.cpus=2", NULL };
	struct ios_app_tenant a = { .name = "a", .cpu = 0 }, b = { .name = "b", .cpu = 1 };
	struct ios_app_tenant c = { .name = "c", .cpu = 2 };
	struct ios_app_tenant_stats st;
	struct ios_err e = { 0 };
	struct ios_app *app = open_app("kyber", two, &e);
	char v[32];
	int f, ta, tb;

	T_ASSERT(app);
	T_ASSERT_EQ(ios_app_get(app, "queue.nr_requests", v, sizeof(v), &e), 0);
	T_ASSERT(!strcmp(v, "256"));
	f = ios_app_add_file(app, "f", 64 << 20, IOS_APP_FILE_CREATE, &e);
	ta = ios_app_tenant_add(app, &a, &e);
	tb = ios_app_tenant_add(app, &b, &e);
	T_ASSERT(f >= 0 && ta >= 0 && tb >= 0);
	T_ASSERT_EQ(ios_app_tenant_add(app, &c, &e), -ERANGE);
	T_ASSERT(strstr(e.msg, "tenant 'c': cpu 2: out of range, allowed 0..1 (lab.cpus=2"));
	for (int k = 0; k < 16; k++)
		T_ASSERT_EQ(ios_app_submit(app, k & 1 ? tb : ta, f, IOS_APP_READ,
					   (uint64_t)k << 16, 4096, NULL, 0, NULL, NULL, &e), 0);
	while (ios_app_in_flight(app))
		T_ASSERT(ios_app_wait(app, 1, 0, &e) >= 0);
	T_ASSERT_EQ(ios_app_tenant_stats(app, ta, &st, &e), 0);
	T_ASSERT_EQ(st.ios, 8);
	T_ASSERT_EQ(ios_app_tenant_stats(app, tb, &st, &e), 0);
	T_ASSERT_EQ(st.ios, 8);
	T_ASSERT_EQ(ios_app_close(app), 0);

	app = open_app("none", NULL, &e);
	T_ASSERT(app);
	T_ASSERT_EQ(ios_app_get(app, "queue.nr_requests", v, sizeof(v), &e), 0);
	T_ASSERT(!strcmp(v, "1023"));
	/* one CPU by default: cpu 1 is out of range */
	T_ASSERT_EQ(ios_app_tenant_add(app, &b, &e), -ERANGE);
	T_ASSERT_EQ(ios_app_close(app), 0);

	/* the single-queue layer has no software contexts: the cpu is not read */
	app = open_app("cfq", NULL, &e);
	T_ASSERT(app);
	T_ASSERT(ios_app_tenant_add(app, &c, &e) >= 0);
	T_ASSERT_EQ(ios_app_close(app), 0);
	return T_PASS;
}

static int test_bad_settings(void)
{
	static const char *const zero[] = { "lab.cpus=0", NULL };
	static const char *const fs[] = { "lab.fs=raw", NULL };
	struct ios_err e = { 0 };

	T_ASSERT(!open_app("kyber", zero, &e));
	T_ASSERT(strstr(e.msg, "cpus") && strstr(e.msg, "1..256"));
	memset(&e, 0, sizeof(e));
	T_ASSERT(!open_app("kyber", fs, &e));
	T_ASSERT(strstr(e.msg, "lab.fs"));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_geometry_and_cpus, test_bad_settings);
}
