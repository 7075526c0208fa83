/*
 * Description: the application library's cgroup v2 files
 * (ios_app_cgroup_write, src/app/app.c, docs/library.md "cgroup v2
 * files"): two tenants in groups of io.weight 500 and 100 under io.cost
 * (io.cost.qos enable=1 on the root, scheduler none, ssd-nvme) share the
 * disk near 5:1 (the first's share of completed I/Os within 0.75..0.90;
 * io.cost's hweight_active gives 83.3 %, both tenants stay busy, so
 * neither donates);
 * io.max riops=100 on one tenant caps it near 100 IOPS while the other
 * runs free, and a write after the first submit re-reads io.max
 * (tg_conf_updated); every misuse returns its documented error: a
 * parser's -EINVAL / -ERANGE with its message, -EOPNOTSUPP on a
 * single-queue scheduler, -ENOENT for a file not on that level or not
 * modelled, -EALREADY after the first submit where no controller re-reads
 * the file or for a new group, and a refused write changes nothing.
 */
#include <string.h>
#include "harness.h"
#include "iosched/app.h"

#define QD		8
#define FILE_SIZE	(256ull << 20)

struct loop {
	struct ios_app *app;
	int tenant, file;
	uint64_t rnd, until_ns;
	unsigned done;
};

static void loop_submit(struct loop *l);

static void loop_done(void *arg, int error, uint64_t lat)
{
	struct loop *l = arg;

	(void)lat;
	if (!error)
		l->done++;
	if (ios_app_now(l->app) < l->until_ns)
		loop_submit(l);
}

/* one 4 KiB random read, from a fixed xorshift sequence (deterministic) */
static void loop_submit(struct loop *l)
{
	uint64_t off;

	l->rnd ^= l->rnd << 13;
	l->rnd ^= l->rnd >> 7;
	l->rnd ^= l->rnd << 17;
	off = (l->rnd % (FILE_SIZE / 4096)) * 4096;
	(void)ios_app_submit(l->app, l->tenant, l->file, IOS_APP_READ, off, 4096, NULL, 0,
			     loop_done, l, NULL);
}

static void run_loops(struct ios_app *app, struct loop *l, unsigned n, uint64_t ns)
{
	struct ios_err e = { 0 };

	for (unsigned i = 0; i < n; i++) {
		l[i].until_ns = ios_app_now(app) + ns;
		for (int k = 0; k < QD; k++)
			loop_submit(&l[i]);
	}
	while (ios_app_in_flight(app))
		if (ios_app_wait(app, 1, 0, &e) < 0)
			break;
}

static struct ios_app *open_app(const char *sched, struct ios_err *e)
{
	struct ios_app_config cfg = { .scheduler = sched, .device = "ssd-nvme", .seed = 1 };

	return ios_app_open(&cfg, e);
}

static int two_tenants(struct ios_app *app, struct loop *l, const char *ga, const char *gb)
{
	struct ios_app_tenant a = { .name = "a", .cgroup = ga }, b = { .name = "b", .cgroup = gb };
	struct ios_err e = { 0 };
	int f = ios_app_add_file(app, "f", FILE_SIZE, IOS_APP_FILE_CREATE, &e);

	memset(l, 0, 2 * sizeof(*l));
	l[0] = (struct loop){ .app = app, .file = f, .rnd = 88172645463325252ull };
	l[1] = (struct loop){ .app = app, .file = f, .rnd = 2463534242ull };
	l[0].tenant = ios_app_tenant_add(app, &a, &e);
	l[1].tenant = ios_app_tenant_add(app, &b, &e);
	return f >= 0 && l[0].tenant >= 0 && l[1].tenant >= 0;
}

static int test_iocost_shares(void)
{
	struct ios_err e = { 0 };
	struct ios_app *app = open_app("none", &e);
	struct loop l[2];
	double share;

	T_ASSERT(app);
	T_ASSERT_EQ(ios_app_cgroup_write(app, "", "io.cost.qos", "enable=1", &e), 0);
	T_ASSERT_EQ(ios_app_cgroup_write(app, "a", "io.weight", "500", &e), 0);
	T_ASSERT_EQ(ios_app_cgroup_write(app, "b", "io.weight", "100", &e), 0);
	T_ASSERT(two_tenants(app, l, "a", "b"));
	run_loops(app, l, 2, 2000000000ull);
	share = (double)l[0].done / (double)(l[0].done + l[1].done);
	printf("io.cost 500:100: a %u b %u, a's share %.3f\n", l[0].done, l[1].done, share);
	T_ASSERT_MSG(share > 0.75 && share < 0.90, "a's share %.3f", share);
	/* io.weight is re-read under io.cost (ioc_weight_write -> weight_updated) */
	T_ASSERT_EQ(ios_app_cgroup_write(app, "b", "io.weight", "500", &e), 0);
	l[0].done = l[1].done = 0;
	run_loops(app, l, 2, 2000000000ull);
	share = (double)l[0].done / (double)(l[0].done + l[1].done);
	printf("io.cost 500:500 after the write: a %u b %u, a's share %.3f\n", l[0].done,
	       l[1].done, share);
	T_ASSERT_MSG(share > 0.40 && share < 0.60, "a's share %.3f", share);
	T_ASSERT_EQ(ios_app_close(app), 0);

	/* without io.cost, io.weight is read by nobody: the two split about evenly */
	app = open_app("none", &e);
	T_ASSERT(app);
	T_ASSERT_EQ(ios_app_cgroup_write(app, "a", "io.weight", "500", &e), 0);
	T_ASSERT_EQ(ios_app_cgroup_write(app, "b", "io.weight", "100", &e), 0);
	T_ASSERT(two_tenants(app, l, "a", "b"));
	run_loops(app, l, 2, 1000000000ull);
	share = (double)l[0].done / (double)(l[0].done + l[1].done);
	printf("io.weight without io.cost: a's share %.3f\n", share);
	T_ASSERT_MSG(share > 0.40 && share < 0.60, "a's share %.3f", share);
	T_ASSERT_EQ(ios_app_close(app), 0);
	return T_PASS;
}

static int test_iomax_cap(void)
{
	struct ios_err e = { 0 };
	struct ios_app *app = open_app("none", &e);
	struct loop l[2];

	T_ASSERT(app);
	T_ASSERT_EQ(ios_app_cgroup_write(app, "slow", "io.max", "259:0 riops=100", &e), 0);
	T_ASSERT(two_tenants(app, l, "slow", "fast"));
	run_loops(app, l, 2, 2000000000ull);
	printf("io.max riops=100 over 2 s: slow %u fast %u\n", l[0].done, l[1].done);
	T_ASSERT_MSG(l[0].done >= 180 && l[0].done <= 230, "slow did %u", l[0].done);
	T_ASSERT_MSG(l[1].done > 20 * l[0].done, "fast did %u", l[1].done);
	/* a write after the first submit: blk-throttle re-reads io.max (tg_conf_updated) */
	T_ASSERT_EQ(ios_app_cgroup_write(app, "slow", "io.max", "259:0 riops=400", &e), 0);
	l[0].done = l[1].done = 0;
	run_loops(app, l, 2, 2000000000ull);
	printf("io.max riops=400 over 2 s: slow %u\n", l[0].done);
	T_ASSERT_MSG(l[0].done >= 720 && l[0].done <= 880, "slow did %u", l[0].done);
	T_ASSERT_EQ(ios_app_close(app), 0);
	return T_PASS;
}

/* a write with a fresh error context (ios_err keeps its first message) */
static int cgw(struct ios_app *app, const char *path, const char *file, const char *value,
	       struct ios_err *e)
{
	ios_err_clear(e);
	return ios_app_cgroup_write(app, path, file, value, e);
}

static int test_misuse(void)
{
	struct ios_err e = { 0 };
	struct ios_app *app = open_app("cfq", &e);
	struct ios_app_tenant late = { .name = "late", .cgroup = "new" };
	struct loop l[2];

	T_ASSERT(app);
	T_ASSERT_EQ(cgw(app, "a", "io.max", "riops=1", &e), -EOPNOTSUPP);
	T_ASSERT(strstr(e.msg, "single-queue"));
	T_ASSERT_EQ(ios_app_close(app), 0);

	T_ASSERT_EQ(cgw(NULL, "a", "io.max", "riops=1", &e), -EINVAL);
	app = open_app("mq-deadline", &e);
	T_ASSERT(app);
	/* the parser's errors, its message */
	T_ASSERT_EQ(cgw(app, "a", "io.weight", "10001", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "10001"));
	T_ASSERT_EQ(cgw(app, "a", "io.max", "riops=0", &e), -ERANGE);
	T_ASSERT_EQ(cgw(app, "a", "io.max", "riops=fast", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "/sys/fs/cgroup/a/io.max"));
	T_ASSERT_EQ(cgw(app, "a", "io.max", "9:9 riops=5", &e), -ENODEV);
	/* files per level, names, paths, NULLs */
	T_ASSERT_EQ(cgw(app, "", "io.weight", "100", &e), -ENOENT);
	T_ASSERT_EQ(cgw(app, "a", "io.cost.qos", "enable=1", &e), -ENOENT);
	T_ASSERT_EQ(cgw(app, "a", "io.low", "1", &e), -ENOENT);
	T_ASSERT_EQ(cgw(app, "/a", "io.max", "riops=1", &e), -EINVAL);
	T_ASSERT_EQ(cgw(app, "a//b", "io.max", "riops=1", &e), -EINVAL);
	T_ASSERT_EQ(cgw(app, "a", NULL, "1", &e), -EINVAL);
	T_ASSERT_EQ(cgw(app, "a", "io.max", NULL, &e), -EINVAL);
	/* refused writes changed nothing: no group was made, io.max never installed */
	T_ASSERT_EQ(cgw(app, "b", "io.prio.class", "idle", &e), 0);
	T_ASSERT(two_tenants(app, l, "b", "c"));
	run_loops(app, l, 2, 100000000ull);
	T_ASSERT(l[0].done > 0 && l[1].done > 0);
	/* after the first submit: io.prio.class is read per bio but nobody re-reads on a write */
	T_ASSERT_EQ(cgw(app, "b", "io.prio.class", "rt", &e), -EALREADY);
	/* io.max: no throttle was installed (nothing wrote it before the first submit) */
	T_ASSERT_EQ(cgw(app, "b", "io.max", "riops=1", &e), -EALREADY);
	T_ASSERT_EQ(cgw(app, "zz", "io.max", "riops=1", &e), -EALREADY);
	T_ASSERT_EQ(ios_app_tenant_add(app, &late, &e), -EALREADY);
	/* after the start, a file nobody re-reads is refused before its value is parsed */
	T_ASSERT_EQ(cgw(app, "b", "io.prio.class", "bogus", &e), -EALREADY);
	T_ASSERT_EQ(ios_app_close(app), 0);
	T_ASSERT_EQ(cgw(app, "a", "io.max", "riops=1", &e), -EBADF);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_iocost_shares, test_iomax_cap, test_misuse);
}
