/*
 * Description: kyber-6.12's sysfs tunables, read_lat_nsec and
 * write_lat_nsec (KYBER_LAT_SHOW_STORE, Linux 6.12). The store is
 * kstrtoull(page, 10): any u64 is taken, 0 and 18446744073709551615
 * included, with no clamp and no range; anything else (a unit suffix, a
 * sign, hex, a number past u64) is refused, and the message gives the
 * range. A target sets the width of the domain's histogram buckets: 0 (or
 * under 8 ns) puts every sample in the last, late, bucket.
 */
#include <string.h>
#include "sched_kyber_util.h"

static int ky_set(struct t_sq *s, const char *name, const char *value, struct ios_err *e)
{
	memset(e, 0, sizeof(*e));
	return ios_tunable_set_by_name(s->type->tunables, s->q.sched_data, name, value, "job.fio:3",
				       "", e);
}

static const char *ky_show(struct t_sq *s, const char *name, char *buf, size_t len)
{
	ios_tunable_show(ios_tunable_find(s->type->tunables, name), s->q.sched_data, buf, len);
	return buf;
}

static int test_defaults_and_names(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	char buf[64];

	T_ASSERT(ios_sched_find("kyber") == s->type);
	T_ASSERT(ios_sched_find("kyber-6.12") == s->type);
	T_ASSERT_EQ(ios_sched_layer(s->type), IOS_SCHED_LAYER_MQ);
	T_ASSERT(!strcmp(ky_show(s, "read_lat_nsec", buf, sizeof(buf)), "2000000"));
	T_ASSERT(!strcmp(ky_show(s, "write_lat_nsec", buf, sizeof(buf)), "10000000"));
	/* the two sysfs files and nothing else */
	T_ASSERT(s->type->tunables[2].name == NULL);
	t_sq_free(s);
	return T_PASS;
}

static int test_any_u64(void)
{
	static const char *const good[] = { "0", "1", "7", "2000000", "010",
					    "18446744073709551615" };
	static const char *const shown[] = { "0", "1", "7", "2000000", "10",
					     "18446744073709551615" };
	struct t_sq *s = ky_new(1, 1, NULL);
	struct ios_err e;
	char buf[64];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		T_ASSERT_MSG(ky_set(s, "read_lat_nsec", good[i], &e) == 0, "%s: %s", good[i], e.msg);
		T_ASSERT_MSG(!strcmp(ky_show(s, "read_lat_nsec", buf, sizeof(buf)), shown[i]),
			     "%s shows %s", good[i], buf);
		T_ASSERT(ky_set(s, "write_lat_nsec", good[i], &e) == 0);
		T_ASSERT(!strcmp(ky_show(s, "write_lat_nsec", buf, sizeof(buf)), shown[i]));
	}
	t_sq_free(s);
	return T_PASS;
}

static int test_bad_syntax_refused_with_range(void)
{
	static const struct {
		const char *value;
		int err;
		const char *msg;
	} bad[] = {
		{ "2ms", -EINVAL, "job.fio:3: read_lat_nsec=2ms: expected a non-negative integer "
				  "(allowed 0..max ns)" },
		{ "1.5", -EINVAL, "allowed 0..max ns" },
		{ "", -EINVAL, "allowed 0..max ns" },
		{ "0x10", -EINVAL, "allowed 0..max ns" },
		{ "+5", -EINVAL, "allowed 0..max ns" },
		{ " 5", -EINVAL, "allowed 0..max ns" },
		{ "-1", -ERANGE, "read_lat_nsec=-1: out of range, allowed 0..max ns" },
		{ "18446744073709551616", -ERANGE, "out of range, allowed 0..max ns" },
		{ "99999999999999999999", -ERANGE, "out of range, allowed 0..max ns" },
	};
	struct t_sq *s = ky_new(1, 1, NULL);
	struct ios_err e;
	char buf[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = ky_set(s, "read_lat_nsec", bad[i].value, &e);

		T_ASSERT_MSG(ret == bad[i].err, "'%s': %d (%s)", bad[i].value, ret, e.msg);
		T_ASSERT_MSG(strstr(e.msg, bad[i].msg), "'%s': %s", bad[i].value, e.msg);
		/* the kernel's store refuses too: no clamp to mention */
		T_ASSERT(!strstr(e.msg, "clamp"));
	}
	/* refused input leaves the value alone */
	T_ASSERT(!strcmp(ky_show(s, "read_lat_nsec", buf, sizeof(buf)), "2000000"));
	/* a legacy tunable: unknown here */
	T_ASSERT_EQ(ky_set(s, "slice_idle", "0", &e), -ENOENT);
	T_ASSERT_EQ(ky_set(s, "async_depth", "1", &e), -ENOENT);
	t_sq_free(s);
	return T_PASS;
}

/*
 * read_lat_nsec=0: every read is late (bucket 7), so the device always
 * looks congested and a good WRITE domain shrinks; with the default a
 * 100 us read is on time and nothing moves.
 */
static int test_zero_target_always_late(void)
{
	const char *settings[] = { "read_lat_nsec=0", "read_lat_nsec=7", NULL };

	for (size_t i = 0; i < 3; i++) {
		struct t_sq *s = ky_new(1, 1, settings[i]);

		T_ASSERT(!ky_lives(s, IOS_READ, 500, 100 * US, 100 * US, 10 * MS));
		T_ASSERT(!ky_lives(s, IOS_WRITE, 500, 1 * MS, 1 * MS, 10 * MS));
		ky_fire(s, 110 * MS);
		T_ASSERT_MSG(ky_stat(s, "write_tokens") == (settings[i] ? 32 : 128), "%s",
			     settings[i] ? settings[i] : "default");
		t_sq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_defaults_and_names, test_any_u64, test_bad_syntax_refused_with_range,
		     test_zero_target_always_late);
}
