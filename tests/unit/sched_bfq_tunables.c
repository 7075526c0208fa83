/*
 * Description: BFQ's tunables and read-only state. The defaults are Linux
 * 4.19's in their sysfs units (slice_idle 8 ms = slice_idle_us 8000,
 * timeout_sync 125 ms, max_budget 0, fifo_expire_sync 125 ms,
 * fifo_expire_async 250 ms, back_seek_max 16384 KiB, back_seek_penalty 2,
 * strict_guarantees 0, low_latency 1); times are stored in ns, back_seek_max
 * in bytes. slice_idle and slice_idle_us are one setting. Out-of-range or
 * malformed values are refused with -ERANGE or -EINVAL and a message naming
 * the tunable and its range, never clamped; unknown names are refused by
 * the block layer; a user max_budget replaces the automatic one; the stats
 * table is read-only.
 */
#include "sched_bfq_util.h"

struct bfq_expect {
	const char *name, *def, *unit;
};

static const struct bfq_expect defaults[] = {
	{ "slice_idle", "8", "ms" },
	{ "slice_idle_us", "8000", "us" },
	{ "timeout_sync", "125", "ms" },
	{ "max_budget", "0", "sectors" },
	{ "fifo_expire_sync", "125", "ms" },
	{ "fifo_expire_async", "250", "ms" },
	{ "back_seek_max", "16384", "KiB" },
	{ "back_seek_penalty", "2", "" },
	{ "strict_guarantees", "0", "" },
	{ "low_latency", "1", "" },
};

static int test_defaults(void)
{
	const struct ios_sched_type *t = ios_sched_find("bfq");
	struct t_sq *s = t_sq_new("bfq", 1, 1, NULL);
	const struct ios_tunable *tun;
	struct bfq_data *bfqd;
	size_t n = 0;
	char buf[64];

	T_ASSERT(t && s);
	T_ASSERT(t->ops.next_wakeup && (t->features & IOS_SCHED_IDLES));
	ios_tunable_for_each(tun, t->tunables)
		n++;
	T_ASSERT_EQ(n, IOS_ARRAY_SIZE(defaults));
	for (size_t i = 0; i < IOS_ARRAY_SIZE(defaults); i++) {
		tun = ios_tunable_find(t->tunables, defaults[i].name);
		T_ASSERT_MSG(tun, "no tunable %s", defaults[i].name);
		T_ASSERT(!(tun->flags & (IOS_TUN_RO | IOS_TUN_HIDDEN)));
		T_ASSERT(!strcmp(tun->unit, defaults[i].unit));
		T_ASSERT(tun->help && *tun->help);
		ios_tunable_show(tun, s->q.sched_data, buf, sizeof(buf));
		T_ASSERT_MSG(!strcmp(buf, defaults[i].def), "%s shows %s, want %s",
			     defaults[i].name, buf, defaults[i].def);
	}
	bfqd = bfqd_of(&s->q);
	T_ASSERT_U64_EQ(bfqd->slice_idle_ns, 8 * MS);
	T_ASSERT_U64_EQ(bfqd->timeout_ns, 125 * MS);
	T_ASSERT_U64_EQ(bfqd->fifo_expire_ns[1], 125 * MS);
	T_ASSERT_U64_EQ(bfqd->fifo_expire_ns[0], 250 * MS);
	T_ASSERT_U64_EQ(bfqd->back_max_bytes, 16384 * 1024);
	T_ASSERT_EQ(bfqd->max_budget, 16384);
	/* the peak rate starts at 2/3 of the reference disk's */
	T_ASSERT_EQ(bfq_stat(&s->q, "peak_rate"), (uint64_t)9333 * 1000000 >> 16);
	t_sq_free(s);
	return T_PASS;
}

static int test_settings_apply(void)
{
	struct t_sq *s = t_sq_new("bfq", 1, 1, "slice_idle_us=2500", "timeout_sync=60",
				  "max_budget=2048", "back_seek_max=64", "fifo_expire_async=1s",
				  "low_latency=0", NULL);
	const struct ios_tunable *tun;
	char buf[64];

	T_ASSERT(s);
	T_ASSERT_U64_EQ(bfqd_of(&s->q)->slice_idle_ns, 2500 * US);
	tun = ios_tunable_find(s->type->tunables, "slice_idle");
	ios_tunable_show(tun, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "2.5"));
	T_ASSERT_U64_EQ(bfqd_of(&s->q)->timeout_ns, 60 * MS);
	T_ASSERT_EQ(bfqd_of(&s->q)->max_budget, 2048);
	T_ASSERT_U64_EQ(bfqd_of(&s->q)->back_max_bytes, 64 * 1024);
	T_ASSERT_U64_EQ(bfqd_of(&s->q)->fifo_expire_ns[0], 1000 * MS);
	T_ASSERT_EQ(bfqd_of(&s->q)->low_latency, 0);
	t_sq_free(s);
	return T_PASS;
}

struct bad_value {
	const char *name, *value;
	int code;		/* 0: any negative errno */
	const char *range;	/* must appear in the message */
};

static const struct bad_value bad[] = {
	{ "slice_idle", "3600001", -ERANGE, "0..3600000" },
	{ "slice_idle", "-1", -ERANGE, "0..3600000" },
	{ "slice_idle_us", "3600000001", -ERANGE, "0..3600000000" },
	{ "timeout_sync", "0", -ERANGE, "1..3600000" },
	{ "timeout_sync", "2h", -ERANGE, "1..3600000" },
	{ "max_budget", "-1", -ERANGE, "0..2147483647" },
	{ "max_budget", "lots", -EINVAL, "0..2147483647" },
	{ "fifo_expire_sync", "0", -ERANGE, "1..3600000" },
	{ "fifo_expire_async", "0", -ERANGE, "1..3600000" },
	{ "back_seek_penalty", "0", -ERANGE, "1..2147483647" },
	{ "back_seek_max", "-5", 0, "0..2147483647" },
	{ "strict_guarantees", "2", 0, "0|1" },
	{ "low_latency", "yes please", 0, "0|1" },
};

static int test_range_errors(void)
{
	const struct ios_sched_type *t = ios_sched_find("bfq");
	struct t_sq *s = t_sq_new("bfq", 1, 1, NULL);

	T_ASSERT(s);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(bad); i++) {
		struct ios_err e = { 0 };
		const struct ios_tunable *tun = ios_tunable_find(t->tunables, bad[i].name);
		uint64_t before = ios_tunable_get_u64(tun, s->q.sched_data);
		int ret = ios_tunable_set(tun, s->q.sched_data, bad[i].value, "--set", "", &e);

		T_ASSERT_MSG(ret < 0, "%s=%s accepted", bad[i].name, bad[i].value);
		if (bad[i].code)
			T_ASSERT_EQ(ret, bad[i].code);
		T_ASSERT_MSG(strstr(e.msg, bad[i].name) && strstr(e.msg, bad[i].range),
			     "%s=%s: message '%s'", bad[i].name, bad[i].value, e.msg);
		/* never clamped: the value is left as it was */
		T_ASSERT_U64_EQ(ios_tunable_get_u64(tun, s->q.sched_data), before);
	}
	t_sq_free(s);
	return T_PASS;
}

static void nop_issue(void *host, struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	(void)host;
	(void)q;
	(void)rq;
	(void)now;
}

static void nop_timer(void *host, struct ios_queue *q, uint64_t when)
{
	(void)host;
	(void)q;
	(void)when;
}

/* Through the block layer: unknown names and bad values stop the queue from being made. */
static int test_queue_refuses(void)
{
	struct ios_queue_config cfg;
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	static const struct ios_queue_host_ops host = { .issue = nop_issue,
							 .set_timer = nop_timer };

	T_ASSERT_EQ(ios_settings_add(&set, "slice_idl", "4", "job.fio:3"), 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.sched = ios_sched_find("bfq");
	cfg.settings = &set;
	cfg.depth = 1;
	cfg.capacity_sectors = 1 << 20;
	cfg.host_ops = &host;
	T_ASSERT(ios_queue_create(&cfg, &e) == NULL);
	T_ASSERT_EQ(e.code, -ENOENT);
	T_ASSERT_MSG(strstr(e.msg, "job.fio:3") && strstr(e.msg, "slice_idl"), "message '%s'",
		     e.msg);
	ios_settings_free(&set);

	ios_err_clear(&e);
	T_ASSERT_EQ(ios_settings_add(&set, "timeout_sync", "0", "job.fio:4"), 0);
	T_ASSERT(ios_queue_create(&cfg, &e) == NULL);
	T_ASSERT_EQ(e.code, -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "timeout_sync") && strstr(e.msg, "1..3600000"), "message '%s'",
		     e.msg);
	ios_settings_free(&set);
	return T_PASS;
}

static int test_stats_read_only(void)
{
	const struct ios_sched_type *t = ios_sched_find("bfq");
	struct t_sq *s = t_sq_new("bfq", 1, 1, NULL);
	const struct ios_tunable *st;
	struct ios_err e = { 0 };
	size_t n = 0;

	T_ASSERT(s && t->stats);
	ios_tunable_for_each(st, t->stats) {
		T_ASSERT_MSG(st->flags & IOS_TUN_RO, "%s not read-only", st->name);
		T_ASSERT(ios_tunable_set(st, s->q.sched_data, "1", "--set", "", &e) == -EPERM);
		n++;
	}
	T_ASSERT(n >= 10);
	T_ASSERT_EQ(bfq_stat(&s->q, "busy_queues"), 0);
	T_ASSERT_EQ((int)bfq_stat(&s->q, "hw_tag"), -1);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_defaults, test_settings_apply, test_range_errors, test_queue_refuses,
		     test_stats_read_only);
}
