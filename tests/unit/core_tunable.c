/*
 * Description: the table-driven tunable engine parses values in the Linux
 * unit of each tunable (bare numbers) or with a suffix, stores TIME in ns and
 * SIZE in bytes, rejects out-of-range values with -ERANGE and a message that
 * names the tunable and its allowed range (never clamping), rejects malformed
 * ones with -EINVAL, shows values that parse back to the same stored value,
 * and applies scoped settings lists (naming the profile whose table it is
 * when one is given).
 */
#include <string.h>
#include "harness.h"

struct conf {
	int quantum;
	int low_latency;
	uint64_t slice_idle;	/* ns, user unit ms */
	uint64_t max_kb;	/* bytes, user unit KiB */
	uint64_t cap;		/* bytes, user unit GiB */
	int mode;
	uint64_t count;
	int fm;
};

static const char *const modes[] = { "ext3", "extent", "raw", NULL };

static const struct ios_tunable tab[] = {
	{ "quantum", IOS_TUN_INT, offsetof(struct conf, quantum), 1, 64, "4", "", "q", 0, NULL },
	{ "low_latency", IOS_TUN_BOOL, offsetof(struct conf, low_latency), 0, 1, "1", "", "l", 0, NULL },
	{ "slice_idle", IOS_TUN_TIME, offsetof(struct conf, slice_idle), 0, 1000, "8", "ms", "s", 0, NULL },
	{ "max_sectors_kb", IOS_TUN_SIZE, offsetof(struct conf, max_kb), 4, 32767, "512", "KiB", "m", 0, NULL },
	{ "capacity", IOS_TUN_SIZE, offsetof(struct conf, cap), 1, 100000, "1000", "GiB", "c", 0, NULL },
	{ "fs", IOS_TUN_ENUM, offsetof(struct conf, mode), 0, 0, "raw", "", "f", 0, modes },
	{ "count", IOS_TUN_U64, offsetof(struct conf, count), 0, INT64_MAX, "0", "", "n", IOS_TUN_RO, NULL },
	{ "front_merges", IOS_TUN_INT, offsetof(struct conf, fm), 0, 1, "1", "", "fm", IOS_TUN_KCLAMP, NULL },
	{ NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0, NULL },
};

static int test_defaults_and_units(void)
{
	struct conf c;
	struct ios_err e = { 0 };

	memset(&c, 0xff, sizeof(c));
	T_ASSERT_EQ(ios_tunable_defaults(tab, &c, &e), 0);
	T_ASSERT_EQ(c.quantum, 4);
	T_ASSERT_EQ(c.low_latency, 1);
	T_ASSERT_U64_EQ(c.slice_idle, 8000000);
	T_ASSERT_U64_EQ(c.max_kb, 512 * 1024);
	T_ASSERT_EQ(c.mode, 2);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "2.5", "t", "", &e), 0);
	T_ASSERT_U64_EQ(c.slice_idle, 2500000);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "500us", "t", "", &e), 0);
	T_ASSERT_U64_EQ(c.slice_idle, 500000);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "1s", "t", "", &e), 0);
	T_ASSERT_U64_EQ(c.slice_idle, 1000000000);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "max_sectors_kb", "1m", "t", "", &e), 0);
	T_ASSERT_U64_EQ(c.max_kb, 1 << 20);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "max_sectors_kb", "16", "t", "", &e), 0);
	T_ASSERT_U64_EQ(c.max_kb, 16 * 1024);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "fs", "ext3", "t", "", &e), 0);
	T_ASSERT_EQ(c.mode, 0);
	return T_PASS;
}

static int test_range_errors(void)
{
	struct conf c;
	struct ios_err e = { 0 };

	T_ASSERT_EQ(ios_tunable_defaults(tab, &c, &e), 0);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "65", "--set", "", &e), -ERANGE);
	T_ASSERT(strstr(e.msg, "quantum=65"));
	T_ASSERT(strstr(e.msg, "1..64"));
	T_ASSERT_EQ(c.quantum, 4); /* unchanged, not clamped */
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "1001", "--set", "", &e), -ERANGE);
	T_ASSERT(strstr(e.msg, "0..1000 ms"));
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "-1", "--set", "", &e), -ERANGE);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "max_sectors_kb", "2", "--set", "queue.", &e), -ERANGE);
	T_ASSERT(strstr(e.msg, "queue.max_sectors_kb=2"));
	T_ASSERT(strstr(e.msg, "4..32767 KiB"));
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "low_latency", "2", "--set", "", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "0|1"));
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "4x", "--set", "", &e), -EINVAL);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "8parsecs", "--set", "", &e), -EINVAL);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "0.0000001", "--set", "", &e), -EINVAL);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "fs", "btrfs", "--set", "lab.", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "ext3|extent|raw"));
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "count", "3", "--set", "", &e), -EPERM);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "nosuch", "3", "--set", "", &e), -ENOENT);
	T_ASSERT(strstr(e.msg, "nosuch"));
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "99999999999999999999", "--set", "", &e),
		    -ERANGE);
	return T_PASS;
}

static int test_show_round_trip(void)
{
	static const char *vals[][2] = {
		{ "slice_idle", "8.5" }, { "slice_idle", "0.001" }, { "max_sectors_kb", "4" },
		{ "capacity", "149" }, { "fs", "extent" }, { "quantum", "17" },
	};
	struct conf c, d;
	struct ios_err e = { 0 };
	char buf[64];

	T_ASSERT_EQ(ios_tunable_defaults(tab, &c, &e), 0);
	c.cap = 160041885696ULL; /* not a whole number of GiB */
	d = c;
	T_ASSERT_EQ(ios_tunable_show(ios_tunable_find(tab, "capacity"), &c, buf, sizeof(buf)) > 0, 1);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &d, "capacity", buf, "t", "", &e), 0);
	T_ASSERT_U64_EQ(d.cap, c.cap);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(vals); i++) {
		const struct ios_tunable *t = ios_tunable_find(tab, vals[i][0]);

		T_ASSERT_EQ(ios_tunable_set(t, &c, vals[i][1], "t", "", &e), 0);
		ios_tunable_show(t, &c, buf, sizeof(buf));
		T_ASSERT_MSG(!strcmp(buf, vals[i][1]), "%s shows '%s', set '%s'", t->name, buf, vals[i][1]);
	}
	return T_PASS;
}

static int test_settings_apply(void)
{
	struct ios_settings s = { 0 };
	struct ios_err e = { 0 };
	struct conf c;

	T_ASSERT_EQ(ios_tunable_defaults(tab, &c, &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "quantum=8", "--set", &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "queue.max_sectors_kb=64", "--set", &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "quantum=16", "--set", &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "other=1", "--set", &e), 0);
	T_ASSERT(ios_settings_add_kv(&s, "=1", "--set", &e) < 0);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_settings_apply(&s, "", tab, &c, &e), 0);
	T_ASSERT_EQ(c.quantum, 16); /* later wins */
	T_ASSERT(s.v[0].used && s.v[2].used && !s.v[1].used && !s.v[3].used);
	T_ASSERT_EQ(ios_settings_apply(&s, "queue.", tab, &c, &e), 0);
	T_ASSERT_U64_EQ(c.max_kb, 64 * 1024);
	T_ASSERT(s.v[1].used);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "queue.bogus=1", "--set", &e), 0);
	T_ASSERT_EQ(ios_settings_apply(&s, "queue.", tab, &c, &e), -ENOENT);
	T_ASSERT(strstr(e.msg, "queue.bogus"));
	ios_settings_free(&s);
	return T_PASS;
}

#define MSG_IS(e, want) T_ASSERT_MSG(!strcmp((e).msg, want), "message \"%s\", want \"%s\"", \
				     (e).msg, want)

/* The table of a chosen profile: range errors and unknown names say which profile. */
static int test_settings_apply_for(void)
{
	struct ios_settings s = { 0 };
	struct ios_err e = { 0 };
	struct conf c;

	T_ASSERT_EQ(ios_tunable_defaults(tab, &c, &e), 0);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "quantum=0", "--set", &e), 0);
	T_ASSERT_EQ(ios_settings_apply_for(&s, "", tab, &c, "cfq-4.19", &e), -ERANGE);
	MSG_IS(e, "--set: quantum=0: out of range for cfq-4.19, allowed 1..64");
	T_ASSERT_EQ(c.quantum, 4);
	ios_err_clear(&e);
	/* without a profile the message is as before */
	T_ASSERT_EQ(ios_settings_apply(&s, "", tab, &c, &e), -ERANGE);
	MSG_IS(e, "--set: quantum=0: out of range, allowed 1..64");
	ios_settings_free(&s);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "device.slice_idle=2s", "x.fio:3", &e), 0);
	T_ASSERT_EQ(ios_settings_apply_for(&s, "device.", tab, &c, "hdd-2009", &e), -ERANGE);
	MSG_IS(e, "x.fio:3: device.slice_idle=2s: out of range for hdd-2009, "
			"allowed 0..1000 ms");
	ios_settings_free(&s);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_settings_add_kv(&s, "device.nosuch=1", "--set", &e), 0);
	T_ASSERT_EQ(ios_settings_apply_for(&s, "device.", tab, &c, "ssd", &e), -ENOENT);
	MSG_IS(e, "--set: unknown tunable 'device.nosuch' for ssd (see 'iosched list')");
	ios_settings_free(&s);
	return T_PASS;
}

/* A knob the kernel clamps is still refused; the message says what the kernel does. */
static int test_kernel_clamp_note(void)
{
	struct ios_err e = { 0 };
	struct conf c;

	T_ASSERT_EQ(ios_tunable_defaults(tab, &c, &e), 0);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "front_merges", "5", "--set", "", &e), -ERANGE);
	MSG_IS(e, "--set: front_merges=5: out of range, allowed 0..1 (the kernel's sysfs store "
		  "would clamp it into this range; the lab refuses instead)");
	T_ASSERT_EQ(c.fm, 1);
	ios_err_clear(&e);
	/* a knob without the flag keeps the plain message */
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "0", "--set", "", &e), -ERANGE);
	MSG_IS(e, "--set: quantum=0: out of range, allowed 1..64");
	return T_PASS;
}
#undef MSG_IS

/* sysfs reads decimal: 010 is ten (not octal eight), 0x and blanks or '+' first are refused */
static int test_decimal_only(void)
{
	struct conf c;
	struct ios_err e = { 0 };

	T_ASSERT_EQ(ios_tunable_defaults(tab, &c, &e), 0);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "010", "--set", "", &e), 0);
	T_ASSERT_EQ(c.quantum, 10);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "08", "--set", "", &e), 0);
	T_ASSERT_EQ(c.quantum, 8);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", "010", "--set", "", &e), 0);
	T_ASSERT_U64_EQ(c.slice_idle, 10000000);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "0x10", "--set", "", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "quantum=0x10") && strstr(e.msg, "decimal"));
	memset(&e, 0, sizeof(e));
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "max_sectors_kb", "0x10", "--set", "", &e),
		    -EINVAL);
	T_ASSERT(strstr(e.msg, "decimal"));
	memset(&e, 0, sizeof(e));
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", " 5", "--set", "", &e), -EINVAL);
	T_ASSERT(strstr(e.msg, "blanks"));
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "quantum", "+5", "--set", "", &e), -EINVAL);
	T_ASSERT_EQ(ios_tunable_set_by_name(tab, &c, "slice_idle", " 5", "--set", "", &e), -EINVAL);
	T_ASSERT_EQ(c.quantum, 8);
	T_ASSERT_U64_EQ(c.slice_idle, 10000000);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_defaults_and_units, test_decimal_only, test_range_errors, test_show_round_trip,
		     test_settings_apply, test_settings_apply_for, test_kernel_clamp_note);
}
