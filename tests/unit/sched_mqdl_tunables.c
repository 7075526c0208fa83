/*
 * Description: mq-deadline's sysfs tunables (deadline_attrs, 6.6 and
 * 6.12): defaults and units (expiries in ms, stored in ns), the ranges of
 * the STORE_FUNCTION lines, refusal of out-of-range numbers with the note
 * that the kernel would clamp them (IOS_TUN_KCLAMP) or, outside int, that
 * kstrtoint refuses them too; non-numbers refused; writes_starved takes
 * any int; the lab knob async_depth_rule exists on the 6.6 profile only.
 */
#include <errno.h>
#include "mqdl_util.h"

static int set(const char *sched, const char *name, const char *value, struct ios_err *e)
{
	const struct ios_sched_type *t = ios_sched_find(sched);
	void *priv = calloc(1, t->priv_size);
	int ret;

	if (!priv)
		abort();
	ios_err_clear(e);
	ret = ios_tunable_defaults(t->tunables, priv, e);
	if (!ret)
		ret = ios_tunable_set_by_name(t->tunables, priv, name, value, "--set", "", e);
	free(priv);
	return ret;
}

static int test_defaults_and_units(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);
	static const char *const want[][2] = {
		{ "read_expire", "500" }, { "write_expire", "5000" },
		{ "prio_aging_expire", "10000" }, { "writes_starved", "2" },
		{ "front_merges", "1" }, { "fifo_batch", "16" }, { "async_depth", "64" },
	};
	char buf[64];

	T_ASSERT(s);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(want); i++)
		T_ASSERT_MSG(!strcmp(mq_show(s, want[i][0], buf, sizeof(buf)), want[i][1]),
			     "%s = %s", want[i][0], buf);
	t_sq_free(s);
	/* ms on the surface, ns inside; a suffix overrides the unit */
	s = t_sq_new("mq-deadline", 32, 1, "read_expire=1s", "prio_aging_expire=250", NULL);
	T_ASSERT(s);
	T_ASSERT(!strcmp(mq_show(s, "read_expire", buf, sizeof(buf)), "1000"));
	{
		struct ios_request *be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 1, IOS_READ, 0);

		T_ASSERT_U64_EQ(be->fifo_time_ns, 1 * SEC);
	}
	t_sq_free(s);
	return T_PASS;
}

static int test_ranges_and_clamp_note(void)
{
	static const char *const clamp[][2] = {
		{ "front_merges", "5" }, { "front_merges", "-1" }, { "async_depth", "0" },
		{ "fifo_batch", "-3" }, { "read_expire", "-1" },
	};
	struct ios_err e = { 0 };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(clamp); i++) {
		T_ASSERT_EQ(set("mq-deadline", clamp[i][0], clamp[i][1], &e), -ERANGE);
		T_ASSERT_MSG(strstr(e.msg, "would clamp it into this range"), "%s", e.msg);
		T_ASSERT_MSG(strstr(e.msg, clamp[i][0]), "%s", e.msg);
	}
	T_ASSERT_EQ(set("mq-deadline-6.6", "front_merges", "2", &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "allowed 0..1"), "%s", e.msg);
	T_ASSERT_EQ(set("mq-deadline", "async_depth", "0", &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "allowed 1..2147483647 requests"), "%s", e.msg);
	/* outside int: kstrtoint fails, the kernel refuses as well */
	T_ASSERT_EQ(set("mq-deadline", "async_depth", "3000000000", &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "not an int"), "%s", e.msg);
	T_ASSERT_EQ(set("mq-deadline", "read_expire", "2147483648", &e), -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "not an int"), "%s", e.msg);
	/* in range */
	T_ASSERT_EQ(set("mq-deadline", "read_expire", "2147483647", &e), 0);
	T_ASSERT_EQ(set("mq-deadline", "read_expire", "0", &e), 0);
	T_ASSERT_EQ(set("mq-deadline", "fifo_batch", "0", &e), 0);
	T_ASSERT_EQ(set("mq-deadline", "async_depth", "2147483647", &e), 0);
	/* writes_starved: any int, so nothing is ever clamped */
	T_ASSERT_EQ(set("mq-deadline", "writes_starved", "-2147483648", &e), 0);
	T_ASSERT_EQ(set("mq-deadline", "writes_starved", "2147483648", &e), -ERANGE);
	T_ASSERT_MSG(!strstr(e.msg, "clamp"), "%s", e.msg);
	return T_PASS;
}

static int test_not_numbers(void)
{
	struct ios_err e = { 0 };

	T_ASSERT_EQ(set("mq-deadline", "fifo_batch", "abc", &e), -EINVAL);
	T_ASSERT_EQ(set("mq-deadline", "front_merges", "yes", &e), -EINVAL);
	T_ASSERT_EQ(set("mq-deadline", "read_expire", "0x10", &e), -EINVAL);
	T_ASSERT_EQ(set("mq-deadline", "async_depth", "", &e), -EINVAL);
	return T_PASS;
}

static int test_lab_knob_66_only(void)
{
	struct ios_err e = { 0 };

	T_ASSERT_EQ(set("mq-deadline-6.6", "async_depth_rule", "6.6.0", &e), 0);
	T_ASSERT_EQ(set("mq-deadline-6.6", "async_depth_rule", "6.7", &e), -EINVAL);
	T_ASSERT_EQ(set("mq-deadline-6.12", "async_depth_rule", "6.6.0", &e), -ENOENT);
	/* the 2.6.31 deadline keeps its own name and has no priority aging */
	T_ASSERT(ios_sched_find("deadline") != ios_sched_find("mq-deadline"));
	T_ASSERT_EQ(set("deadline", "prio_aging_expire", "5", &e), -ENOENT);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_defaults_and_units, test_ranges_and_clamp_note, test_not_numbers,
		     test_lab_knob_66_only);
}
