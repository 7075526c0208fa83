/*
 * Description: CFQ's tunables per profile (spec cfq.md §1, seed 000). Every
 * sysfs file of each kernel exists with its default in its sysfs unit:
 * 2.6.31 has quantum 4, the fifo expiries 125/250
 * ms, back_seek_max 16384 KiB, back_seek_penalty 2, slices 100/40 ms,
 * slice_async_rq 2, slice_idle 8 ms and seed 000's fairness 0; 2.6.33 adds
 * low_latency 1 and group_isolation 0 (target_latency 300 ms is a read-only
 * constant); 4.19 has quantum 8, group_idle 8 ms, a writable target_latency
 * and the *_us files, which are the same values in microseconds. 4.19's
 * slice_idle is 0 on a non-rotational queue. Out-of-range values are
 * refused with -ERANGE and a message naming the allowed range.
 */
#include <string.h>
#include "sched_cfq_util.h"

struct tun_expect {
	const char *name, *def, *range;
	unsigned flags;
};

static const struct tun_expect t2631[] = {
	{ "quantum", "4", "1..2147483647", 0 },
	{ "fifo_expire_sync", "125", "1..3600000", 0 },
	{ "fifo_expire_async", "250", "1..3600000", 0 },
	{ "back_seek_max", "16384", "0..2147483647", 0 },
	{ "back_seek_penalty", "2", "1..2147483647", 0 },
	{ "slice_sync", "100", "1..3600000", 0 },
	{ "slice_async", "40", "1..3600000", 0 },
	{ "slice_async_rq", "2", "1..2147483647", 0 },
	{ "slice_idle", "8", "0..3600000", 0 },
	{ "fairness", "0", "0|1", 0 },
	{ NULL, NULL, NULL, 0 },
};

static const struct tun_expect t2633[] = {
	{ "quantum", "4", "1..2147483647", 0 },
	{ "fifo_expire_sync", "125", "1..3600000", 0 },
	{ "fifo_expire_async", "250", "1..3600000", 0 },
	{ "back_seek_max", "16384", "0..2147483647", 0 },
	{ "back_seek_penalty", "2", "1..2147483647", 0 },
	{ "slice_sync", "100", "1..3600000", 0 },
	{ "slice_async", "40", "1..3600000", 0 },
	{ "slice_async_rq", "2", "1..2147483647", 0 },
	{ "slice_idle", "8", "0..3600000", 0 },
	{ "low_latency", "1", "0|1", 0 },
	{ "group_isolation", "0", "0|1", 0 },
	{ "target_latency", "300", "1..3600000", IOS_TUN_RO },
	{ NULL, NULL, NULL, 0 },
};

static const struct tun_expect t419[] = {
	{ "quantum", "8", "1..2147483647", 0 },
	{ "fifo_expire_sync", "125", "1..3600000", 0 },
	{ "fifo_expire_async", "250", "1..3600000", 0 },
	{ "back_seek_max", "16384", "0..2147483647", 0 },
	{ "back_seek_penalty", "2", "1..2147483647", 0 },
	{ "slice_sync", "100", "1..3600000", 0 },
	{ "slice_async", "40", "1..3600000", 0 },
	{ "slice_async_rq", "2", "1..2147483647", 0 },
	{ "slice_idle", "8", "0..3600000", 0 },
	{ "group_idle", "8", "0..3600000", 0 },
	{ "low_latency", "1", "0|1", 0 },
	{ "target_latency", "300", "1..3600000", 0 },
	{ "slice_idle_us", "8000", "0..3600000000", 0 },
	{ "group_idle_us", "8000", "0..3600000000", 0 },
	{ "slice_sync_us", "100000", "1..3600000000", 0 },
	{ "slice_async_us", "40000", "1..3600000000", 0 },
	{ "target_latency_us", "300000", "1..3600000000", 0 },
	{ NULL, NULL, NULL, 0 },
};

static int check_profile(const char *prof, const struct tun_expect *want)
{
	struct t_sq *s = t_sq_new(prof, 1, 1, NULL);
	const struct ios_tunable *tab, *t;
	size_t n_visible = 0, n_want = 0;
	char buf[64];

	T_ASSERT(s);
	tab = s->type->tunables;
	ios_tunable_for_each(t, tab)
		n_visible += !(t->flags & IOS_TUN_HIDDEN);
	for (const struct tun_expect *w = want; w->name; w++) {
		n_want++;
		t = ios_tunable_find(tab, w->name);
		T_ASSERT_MSG(t, "%s: no tunable %s", prof, w->name);
		T_ASSERT_MSG(!(t->flags & IOS_TUN_HIDDEN), "%s: %s hidden", prof, w->name);
		T_ASSERT_MSG((t->flags & IOS_TUN_RO) == w->flags, "%s: %s flags", prof, w->name);
		ios_tunable_show(t, s->q.sched_data, buf, sizeof(buf));
		T_ASSERT_MSG(!strcmp(buf, w->def), "%s: %s = %s, want %s", prof, w->name, buf, w->def);
		ios_tunable_range(t, buf, sizeof(buf));
		T_ASSERT_MSG(!strcmp(buf, w->range), "%s: %s range %s, want %s", prof, w->name, buf,
			     w->range);
	}
	T_ASSERT_MSG(n_visible == n_want, "%s: %zu visible tunables, want %zu", prof, n_visible,
		     n_want);
	cq_free(s);
	return T_PASS;
}

static int test_tunables_per_profile(void)
{
	T_ASSERT_EQ(check_profile("cfq", t2631), T_PASS);
	T_ASSERT_EQ(check_profile("cfq-2.6.31", t2631), T_PASS);
	T_ASSERT_EQ(check_profile("cfq-2.6.33", t2633), T_PASS);
	T_ASSERT_EQ(check_profile("cfq-4.19", t419), T_PASS);
	return T_PASS;
}

/* Below and above each range: -ERANGE, the message names the tunable and the range. */
static int range_errors(const char *prof, const struct tun_expect *want)
{
	const struct ios_sched_type *type = ios_sched_find(prof);
	void *data = calloc(1, type->priv_size);
	struct ios_err e;

	T_ASSERT(data);
	for (const struct tun_expect *w = want; w->name; w++) {
		const struct ios_tunable *t = ios_tunable_find(type->tunables, w->name);
		char lo[48], hi[48];
		const char *dots;
		int ret;

		if (w->flags & IOS_TUN_RO) {
			memset(&e, 0, sizeof(e));
			ret = ios_tunable_set(t, data, w->def, "test", "", &e);
			T_ASSERT_MSG(ret == -EPERM, "%s: %s writable", prof, w->name);
			continue;
		}
		if (!strcmp(w->range, "0|1")) {
			memset(&e, 0, sizeof(e));
			T_ASSERT(ios_tunable_set(t, data, "2", "test", "", &e) < 0);
			T_ASSERT_MSG(strstr(e.msg, w->name) && strstr(e.msg, "0|1"), "%s", e.msg);
			continue;
		}
		dots = strstr(w->range, "..");
		snprintf(lo, sizeof(lo), "%lld", strtoll(w->range, NULL, 10) - 1);
		snprintf(hi, sizeof(hi), "%lld", strtoll(dots + 2, NULL, 10) + 1);
		for (int k = 0; k < 2; k++) {
			memset(&e, 0, sizeof(e));
			ret = ios_tunable_set(t, data, k ? hi : lo, "test", "", &e);
			T_ASSERT_MSG(ret == -ERANGE, "%s: %s=%s gave %d", prof, w->name, k ? hi : lo,
				     ret);
			T_ASSERT_MSG(strstr(e.msg, w->name) && strstr(e.msg, w->range),
				     "%s: message '%s'", prof, e.msg);
		}
		/* the ends themselves are fine */
		memset(&e, 0, sizeof(e));
		snprintf(lo, sizeof(lo), "%lld", strtoll(w->range, NULL, 10));
		T_ASSERT_MSG(ios_tunable_set(t, data, lo, "test", "", &e) == 0, "%s: %s=%s: %s", prof,
			     w->name, lo, e.msg);
	}
	free(data);
	return T_PASS;
}

static int test_range_errors(void)
{
	T_ASSERT_EQ(range_errors("cfq", t2631), T_PASS);
	T_ASSERT_EQ(range_errors("cfq-2.6.33", t2633), T_PASS);
	T_ASSERT_EQ(range_errors("cfq-4.19", t419), T_PASS);
	return T_PASS;
}

/* Through the block layer: an out-of-range setting makes the queue fail to build. */
static int test_rig_refuses(void)
{
	struct t_rig *r;

	fprintf(stderr, "(two expected errors follow)\n");
	r = t_rig_new("cfq", 1, 1, "slice_sync=0", NULL);
	T_ASSERT(r == NULL);
	r = t_rig_new("cfq-4.19", 1, 1, "quantum=0", NULL);
	T_ASSERT(r == NULL);
	r = t_rig_new("cfq", 1, 1, "fairness=1", "slice_idle=0", NULL);
	T_ASSERT(r);
	T_ASSERT_EQ(((struct cfq_data *)r->q->sched_data)->fairness, 1);
	T_ASSERT_U64_EQ(((struct cfq_data *)r->q->sched_data)->slice_idle, 0);
	t_rig_free(r);
	return T_PASS;
}

static int test_419_slice_idle_non_rotational(void)
{
	struct t_rig *r;
	struct cfq_data *cd;

	r = t_rig_new("cfq-4.19", 32, 0, NULL);
	T_ASSERT(r);
	cd = r->q->sched_data;
	T_ASSERT_U64_EQ(cd->slice_idle, 0);
	T_ASSERT_U64_EQ(cd->group_idle, 8 * MS);
	t_rig_free(r);
	/* the user may still set it */
	r = t_rig_new("cfq-4.19", 32, 0, "slice_idle=3", NULL);
	T_ASSERT(r);
	T_ASSERT_U64_EQ(((struct cfq_data *)r->q->sched_data)->slice_idle, 3 * MS);
	t_rig_free(r);
	/* rotational: 8 ms; older profiles keep 8 ms on any device */
	r = t_rig_new("cfq-4.19", 32, 1, NULL);
	T_ASSERT(r);
	T_ASSERT_U64_EQ(((struct cfq_data *)r->q->sched_data)->slice_idle, 8 * MS);
	t_rig_free(r);
	r = t_rig_new("cfq-2.6.33", 32, 0, NULL);
	T_ASSERT(r);
	T_ASSERT_U64_EQ(((struct cfq_data *)r->q->sched_data)->slice_idle, 8 * MS);
	t_rig_free(r);
	r = t_rig_new("cfq", 32, 0, NULL);
	T_ASSERT(r);
	T_ASSERT_U64_EQ(((struct cfq_data *)r->q->sched_data)->slice_idle, 8 * MS);
	t_rig_free(r);
	return T_PASS;
}

static int test_us_aliases(void)
{
	static const char *const pairs[][2] = {
		{ "slice_idle", "slice_idle_us" }, { "group_idle", "group_idle_us" },
		{ "slice_sync", "slice_sync_us" }, { "slice_async", "slice_async_us" },
		{ "target_latency", "target_latency_us" },
	};
	struct t_sq *s = t_sq_new("cfq-4.19", 1, 1, NULL);
	const struct ios_tunable *tab;
	struct ios_err e;
	char buf[64];

	T_ASSERT(s);
	tab = s->type->tunables;
	for (size_t i = 0; i < IOS_ARRAY_SIZE(pairs); i++) {
		const struct ios_tunable *ms = ios_tunable_find(tab, pairs[i][0]);
		const struct ios_tunable *us = ios_tunable_find(tab, pairs[i][1]);

		memset(&e, 0, sizeof(e));
		T_ASSERT(ios_tunable_set(us, s->q.sched_data, "3000", "test", "", &e) == 0);
		ios_tunable_show(ms, s->q.sched_data, buf, sizeof(buf));
		T_ASSERT_MSG(!strcmp(buf, "3"), "%s after %s=3000: %s", pairs[i][0], pairs[i][1], buf);
		T_ASSERT(ios_tunable_set(ms, s->q.sched_data, "5", "test", "", &e) == 0);
		ios_tunable_show(us, s->q.sched_data, buf, sizeof(buf));
		T_ASSERT_MSG(!strcmp(buf, "5000"), "%s after %s=5: %s", pairs[i][1], pairs[i][0], buf);
	}
	cq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_tunables_per_profile, test_range_errors, test_rig_refuses,
		     test_419_slice_idle_non_rotational, test_us_aliases);
}
