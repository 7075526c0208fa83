/*
 * Description: deadline's tunables and read-only state. The defaults are
 * the 2.6.31 ones in their sysfs units (500 ms, 5000 ms, 2, 16, 1); values
 * are stored in ns and shown back in ms; out-of-range input is refused with
 * -ERANGE and a message naming the tunable and its range, never clamped;
 * settings reach the scheduler through the block layer; the stats table is
 * read-only.
 */
#include <string.h>
#include "harness.h"

struct dd_expect {
	const char *name;
	const char *def;
	const char *unit;
};

static const struct dd_expect defaults[] = {
	{ "read_expire", "500", "ms" },
	{ "write_expire", "5000", "ms" },
	{ "writes_starved", "2", "" },
	{ "fifo_batch", "16", "" },
	{ "front_merges", "1", "" },
};

static int test_defaults(void)
{
	const struct ios_sched_type *t = ios_sched_find("deadline");
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);
	const struct ios_tunable *tun;
	size_t n = 0;
	char buf[64];

	T_ASSERT(t && s && s->type == t);
	T_ASSERT(!strcmp(t->name, "deadline"));
	T_ASSERT(t->alias == NULL);
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
	/* TIME tunables are kept in ns */
	tun = ios_tunable_find(t->tunables, "read_expire");
	T_ASSERT_U64_EQ(ios_tunable_get_u64(tun, s->q.sched_data), 500 * IOS_NSEC_PER_MSEC);
	tun = ios_tunable_find(t->tunables, "write_expire");
	T_ASSERT_U64_EQ(ios_tunable_get_u64(tun, s->q.sched_data), 5000 * IOS_NSEC_PER_MSEC);
	t_sq_free(s);
	return T_PASS;
}

struct bad_value {
	const char *name, *value;
	int code;		/* 0: any negative errno */
	const char *range;	/* must appear in the message */
};

static const struct bad_value bad[] = {
	{ "read_expire", "3600001", -ERANGE, "0..3600000" },
	{ "read_expire", "2h", -ERANGE, "0..3600000" },
	{ "read_expire", "-1", -ERANGE, "0..3600000" },
	{ "write_expire", "3600001", -ERANGE, "0..3600000" },
	{ "writes_starved", "-1", -ERANGE, "0..2147483647" },
	{ "writes_starved", "2147483648", -ERANGE, "0..2147483647" },
	{ "fifo_batch", "-1", -ERANGE, "0..2147483647" },
	{ "front_merges", "2", 0, "0|1" },
	{ "fifo_batch", "many", -EINVAL, "0..2147483647" },
};

static int test_range_errors(void)
{
	const struct ios_sched_type *t = ios_sched_find("deadline");
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);

	T_ASSERT(t && s);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(bad); i++) {
		struct ios_err e = { 0 };
		const struct ios_tunable *tun = ios_tunable_find(t->tunables, bad[i].name);
		char before[64], after[64];
		int ret;

		T_ASSERT(tun);
		ios_tunable_show(tun, s->q.sched_data, before, sizeof(before));
		ret = ios_tunable_set_by_name(t->tunables, s->q.sched_data, bad[i].name,
					      bad[i].value, "job.fio:3", "", &e);
		T_ASSERT_MSG(bad[i].code ? ret == bad[i].code : ret < 0,
			     "%s=%s returned %d", bad[i].name, bad[i].value, ret);
		T_ASSERT_MSG(strstr(e.msg, bad[i].name) && strstr(e.msg, bad[i].range) &&
			     strstr(e.msg, "job.fio:3"),
			     "%s=%s: message '%s'", bad[i].name, bad[i].value, e.msg);
		ios_tunable_show(tun, s->q.sched_data, after, sizeof(after));
		T_ASSERT_MSG(!strcmp(before, after), "%s changed to %s", bad[i].name, after);
	}
	t_sq_free(s);
	return T_PASS;
}

static int test_accepted_values(void)
{
	const struct ios_sched_type *t = ios_sched_find("deadline");
	struct t_sq *s = t_sq_new("deadline", 1, true, "read_expire=7.5", "write_expire=2s",
				  "writes_starved=0", "fifo_batch=1", NULL);
	const struct ios_tunable *tun;
	char buf[64];

	T_ASSERT(t && s);
	tun = ios_tunable_find(t->tunables, "read_expire");
	T_ASSERT_U64_EQ(ios_tunable_get_u64(tun, s->q.sched_data), 7500 * IOS_NSEC_PER_USEC);
	ios_tunable_show(tun, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "7.5"));
	tun = ios_tunable_find(t->tunables, "write_expire");
	ios_tunable_show(tun, s->q.sched_data, buf, sizeof(buf));
	T_ASSERT(!strcmp(buf, "2000"));
	tun = ios_tunable_find(t->tunables, "read_expire");
	T_ASSERT_EQ(ios_tunable_set(tun, s->q.sched_data, "3600000", NULL, "", NULL), 0);
	T_ASSERT_EQ(ios_tunable_set(tun, s->q.sched_data, "0", NULL, "", NULL), 0);
	t_sq_free(s);
	return T_PASS;
}

static int test_stats_read_only(void)
{
	const struct ios_sched_type *t = ios_sched_find("deadline");
	static const char *const names[] = { "batching", "starved", "read_queued", "write_queued" };
	struct t_sq *s = t_sq_new("deadline", 1, true, NULL);

	T_ASSERT(t && s && t->stats);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(names); i++) {
		const struct ios_tunable *st = ios_tunable_find(t->stats, names[i]);
		struct ios_err e = { 0 };

		T_ASSERT_MSG(st, "no stat %s", names[i]);
		T_ASSERT(st->flags & IOS_TUN_RO);
		T_ASSERT_EQ(ios_tunable_set(st, s->q.sched_data, "1", NULL, "", &e), -EPERM);
	}
	/* the stats are not settable as tunables either */
	T_ASSERT(ios_tunable_find(t->tunables, "batching") == NULL);
	t_sq_free(s);
	return T_PASS;
}

static void null_issue(void *host, struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	(void)host;
	(void)q;
	(void)rq;
	(void)now;
}

static void null_timer(void *host, struct ios_queue *q, uint64_t when)
{
	(void)host;
	(void)q;
	(void)when;
}

static const struct ios_queue_host_ops null_host = { .issue = null_issue,
						     .set_timer = null_timer };

/* Settings go through the block layer into the scheduler. */
static int test_rig_settings(void)
{
	const struct ios_sched_type *t = ios_sched_find("deadline");
	struct t_rig *r = t_rig_new("deadline", 1, true, "read_expire=250", "fifo_batch=4", NULL);
	struct ios_queue_config cfg;
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	char buf[64];

	T_ASSERT(t && r);
	ios_tunable_show(ios_tunable_find(t->tunables, "read_expire"), r->q->sched_data, buf,
			 sizeof(buf));
	T_ASSERT(!strcmp(buf, "250"));
	ios_tunable_show(ios_tunable_find(t->tunables, "fifo_batch"), r->q->sched_data, buf,
			 sizeof(buf));
	T_ASSERT(!strcmp(buf, "4"));
	t_rig_free(r);

	/* a bad value fails queue creation with the tunable's message */
	memset(&cfg, 0, sizeof(cfg));
	cfg.sched = t;
	cfg.settings = &set;
	cfg.depth = 1;
	cfg.rotational = true;
	cfg.capacity_sectors = 1ULL << 30;
	cfg.host_ops = &null_host;
	T_ASSERT_EQ(ios_settings_add(&set, "write_expire", "99999999", "cli"), 0);
	T_ASSERT(ios_queue_create(&cfg, &e) == NULL);
	T_ASSERT_EQ(e.code, -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "write_expire") && strstr(e.msg, "0..3600000"), "message '%s'",
		     e.msg);
	ios_settings_free(&set);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_defaults, test_range_errors, test_accepted_values, test_stats_read_only,
		     test_rig_settings);
}
