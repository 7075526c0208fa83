/*
 * Description: every built-in descriptor is complete, as fio's
 * check_engine_ops() checks an engine before use. For each scheduler in the
 * registry (ios_sched_at) and each descriptor a scheduler names for
 * lab.group_policy: a non-empty name unique among all names and aliases,
 * the required hooks, the current interface version, a known share model
 * that agrees with its cgroup support, IOS_SCHED_IDLES exactly when it has
 * next_wakeup(), private data, and tunables and stats tables that are
 * NULL-terminated, uniquely named, inside the private struct, with sane
 * units and defaults within range (applied to a private area of priv_size
 * bytes, so AddressSanitizer sees any row that lies outside it). For each
 * device type and profile the same, and every profile builds a device.
 * Then the checker itself is shown to refuse broken copies of a good
 * descriptor, one fault at a time, through ios_sched_register() and
 * ios_dev_type_check().
 */
#include <stdlib.h>
#include <string.h>
#include "harness.h"

#define MAX_ROWS 256	/* a table longer than this has lost its terminator */

static const char *names[64];
static size_t nr_names;

static int name_unique(const char *name)
{
	T_ASSERT_MSG(name && *name, "empty name");
	for (size_t i = 0; i < nr_names; i++)
		T_ASSERT_MSG(strcmp(names[i], name), "name %s used twice", name);
	T_ASSERT(nr_names < IOS_ARRAY_SIZE(names));
	names[nr_names++] = name;
	return T_PASS;
}

/* @tab against a zeroed private area of @size bytes; @stats: read-only rows */
static int check_table(const char *owner, const struct ios_tunable *tab, size_t size, bool stats)
{
	struct ios_err e = { 0 };
	const struct ios_tunable *t;
	size_t n = 0;
	char buf[128];
	void *priv;

	if (!tab)
		return T_PASS;
	while (tab[n].name && n < MAX_ROWS)
		n++;
	T_ASSERT_MSG(n < MAX_ROWS, "%s: table not NULL-terminated", owner);
	T_ASSERT_MSG(!ios_tunable_check_table(tab, size, owner, &e), "%s", e.msg);
	T_ASSERT_MSG(size > 0, "%s: a table but no private data", owner);
	priv = calloc(1, size);
	T_ASSERT(priv);
	T_ASSERT_MSG(!ios_tunable_defaults(tab, priv, &e), "%s: %s", owner, e.msg);
	ios_tunable_for_each(t, tab) {
		uint64_t v;

		for (const struct ios_tunable *u = tab; u != t; u++)
			T_ASSERT_MSG(strcmp(u->name, t->name), "%s: %s twice", owner, t->name);
		T_ASSERT_MSG(t->unit, "%s: %s has no unit string", owner, t->name);
		T_ASSERT_MSG(stats || (t->help && *t->help), "%s: %s has no help", owner, t->name);
		if (t->type == IOS_TUN_TIME)
			T_ASSERT_MSG(!strcmp(t->unit, "ns") || !strcmp(t->unit, "us") ||
				     !strcmp(t->unit, "ms") || !strcmp(t->unit, "s"),
				     "%s: %s in '%s'", owner, t->name, t->unit);
		if (t->def)
			T_ASSERT_MSG(!ios_tunable_parse(t, t->def, &v, "default", "", &e),
				     "%s: %s", owner, e.msg);
		if (stats)
			T_ASSERT_MSG(t->flags & IOS_TUN_RO, "%s: stat %s is writable", owner, t->name);
		T_ASSERT(ios_tunable_show(t, priv, buf, sizeof(buf)) >= 0);
	}
	free(priv);
	return T_PASS;
}

static bool groups_by_weight(const struct ios_sched_type *t)
{
	return t->cgroups && t->cgroups->groups && t->cgroups->weight_max;
}

static int check_sched(const struct ios_sched_type *t)
{
	const struct ios_sched_ops *o = &t->ops;
	struct ios_err e = { 0 };
	char owner[96];
	int ret;

	ret = name_unique(t->name);
	if (ret)
		return ret;
	if (t->alias && (ret = name_unique(t->alias)))
		return ret;
	T_ASSERT_MSG(!ios_sched_type_check(t, &e), "%s", e.msg);
	T_ASSERT_EQ(t->version, IOS_SCHED_INTERFACE_VERSION);
	T_ASSERT(t->desc && *t->desc);
	T_ASSERT(o->init && o->exit && o->insert && o->dispatch && o->has_work && o->completed);
	/* the block layer merges two requests only through both neighbours */
	T_ASSERT_MSG(!o->former == !o->latter, "%s: former without latter", t->name);
	T_ASSERT_MSG(!(t->features & IOS_SCHED_IDLES) == !o->next_wakeup, "%s", t->name);
	T_ASSERT((unsigned)t->share_model < IOS_SHARE_NR);
	/* a model with cgroup weights needs a scheduler that has them, and back */
	T_ASSERT_MSG(groups_by_weight(t) == (t->share_model == IOS_SHARE_CFQ_GROUP_SLICE ||
					     t->share_model == IOS_SHARE_BFQ_WEIGHT),
		     "%s: share model %d", t->name, (int)t->share_model);
	/* every built-in keeps private state, but 'none', which is no elevator */
	T_ASSERT_MSG(t->priv_size > 0 || (t->features & IOS_SCHED_NO_ELEVATOR), "%s", t->name);
	snprintf(owner, sizeof(owner), "%s tunables", t->name);
	ret = check_table(owner, t->tunables, t->priv_size, false);
	if (ret)
		return ret;
	snprintf(owner, sizeof(owner), "%s stats", t->name);
	return check_table(owner, t->stats, t->priv_size, true);
}

static int test_schedulers(void)
{
	const struct ios_sched_type *t, *seen[32];
	size_t n = 0, nr_seen = 0;
	int ret;

	for (size_t i = 0; (t = ios_sched_at(i)) != NULL; i++, n++) {
		ret = check_sched(t);
		if (ret)
			return ret;
		T_ASSERT(ios_sched_find(t->name) == t);
		T_ASSERT(!t->alias || ios_sched_find(t->alias) == t);
		seen[nr_seen++] = t;
	}
	T_ASSERT_EQ(n, 12);	/* 7 single-queue; blk-mq's none, mq-deadline-6.6/6.12, kyber-6.12, bfq-6.12 */
	/* the descriptors the runner puts in a scheduler's place */
	for (size_t i = 0; i < n; i++) {
		t = ios_sched_at(i);
		for (size_t p = 0; t->cgroups && p < IOS_GROUP_POLICY_NR; p++) {
			const struct ios_sched_type *pt = t->cgroups->policy[p];
			bool dup = false;

			for (size_t k = 0; pt && k < nr_seen; k++)
				dup |= seen[k] == pt;
			if (!pt || dup)
				continue;
			T_ASSERT(!ios_sched_find(pt->name));
			ret = check_sched(pt);
			if (ret)
				return ret;
			T_ASSERT(nr_seen < IOS_ARRAY_SIZE(seen));
			seen[nr_seen++] = pt;
		}
	}
	T_ASSERT_EQ(nr_seen, 14);
	return T_PASS;
}

static int test_devices(void)
{
	const struct ios_dev_type *t;
	const struct ios_dev_profile *p;
	struct ios_err e = { 0 };
	size_t n = 0;
	int ret;

	nr_names = 0;
	for (size_t i = 0; (t = ios_dev_type_at(i)) != NULL; i++, n++) {
		const struct ios_dev_ops *o = &t->ops;
		char owner[96];

		ret = name_unique(t->name);
		if (ret)
			return ret;
		T_ASSERT_MSG(!ios_dev_type_check(t, &e), "%s", e.msg);
		T_ASSERT_EQ(t->version, IOS_DEV_INTERFACE_VERSION);
		T_ASSERT(t->desc && *t->desc);
		T_ASSERT(o->init && o->exit && o->caps && o->queue_depth && o->submit &&
			 o->next_event && o->complete && o->reset);
		T_ASSERT(t->priv_size >= sizeof(struct ios_dev));
		T_ASSERT(ios_dev_type_find(t->name) == t);
		snprintf(owner, sizeof(owner), "device %s", t->name);
		ret = check_table(owner, t->tunables, t->priv_size, false);
		if (ret)
			return ret;
	}
	T_ASSERT_EQ(n, 7);	/* hdd, ssd, ssd-ftl, smr-hm, zns, cloud, disksim */
	nr_names = 0;
	for (size_t i = 0; (p = ios_dev_profile_at(i)) != NULL; i++) {
		struct ios_dev *dev;

		ret = name_unique(p->name);
		if (ret)
			return ret;
		T_ASSERT_MSG(ios_dev_type_find(p->type), "profile %s: type %s", p->name, p->type);
		dev = ios_dev_create(p->name, NULL, 1, &e);
		T_ASSERT_MSG(dev, "profile %s: %s", p->name, e.msg);
		T_ASSERT(dev->nr_sectors > 0);
		T_ASSERT(dev->type->ops.queue_depth(dev) >= 1);
		T_ASSERT_EQ(ios_dev_caps(dev) & ~(IOS_DEV_ROTATIONAL | IOS_DEV_DISCARD | IOS_DEV_ZONED |
						 IOS_DEV_WRITE_CACHE), 0);
		ios_dev_destroy(dev);
	}
	T_ASSERT(ios_dev_profile_find(IOS_DEV_DEFAULT_PROFILE));
	return T_PASS;
}

/* ---- broken copies ---- */

static struct ios_sched_type bad;
static struct ios_tunable bad_tab[32];

/* a copy of deadline under a fresh name, with its tunables in bad_tab[] */
static void bad_reset(void)
{
	const struct ios_sched_type *dl = ios_sched_find("deadline");
	size_t n = 0;

	bad = *dl;
	bad.name = "deadline-broken";
	bad.alias = NULL;
	while (dl->tunables[n].name && n < IOS_ARRAY_SIZE(bad_tab) - 1) {
		bad_tab[n] = dl->tunables[n];
		n++;
	}
	memset(&bad_tab[n], 0, sizeof(bad_tab[n]));
	bad.tunables = bad_tab;
}

static int expect_refused(const char *what, int code, const char *needle)
{
	struct ios_err e = { 0 };
	int ret = ios_sched_register(&bad, &e);

	T_ASSERT_MSG(ret == code, "%s: got %d, want %d (%s)", what, ret, code, e.msg);
	T_ASSERT_MSG(strstr(e.msg, needle), "%s: '%s' lacks '%s'", what, e.msg, needle);
	T_ASSERT_MSG(ios_sched_type_check(&bad, NULL) == (code == -EINVAL ? code : 0), "%s", what);
	T_ASSERT(!ios_sched_find("deadline-broken"));
	bad_reset();
	return T_PASS;
}

static int test_broken_sched_copies(void)
{
	static const struct ios_sched_cgroups bad_weights = {
		.groups = true, .weight_min = 100, .weight_max = 1000, .weight_default = 50,
	};
	size_t first_time = SIZE_MAX;
	int ret = T_PASS;

	bad_reset();
	/* the untouched copy passes the checks (it is not registered here) */
	T_ASSERT_EQ(ios_sched_type_check(&bad, NULL), 0);
	for (size_t i = 0; bad_tab[i].name; i++)
		if (bad_tab[i].type == IOS_TUN_TIME && first_time == SIZE_MAX)
			first_time = i;
	T_ASSERT(first_time != SIZE_MAX);

#define REFUSE(what, code, needle, stmt)                                 \
	do {                                                             \
		stmt;                                                    \
		ret = expect_refused(what, code, needle);                \
		if (ret)                                                 \
			return ret;                                      \
	} while (0)

	REFUSE("version 0", -EINVAL, "version 0", bad.version = 0);
	REFUSE("newer version", -EINVAL, "not supported",
	       bad.version = IOS_SCHED_INTERFACE_VERSION + 1);
	REFUSE("no name", -EINVAL, "without a name", bad.name = "");
	REFUSE("alias = name", -EINVAL, "alias", bad.alias = bad.name);
	REFUSE("no init", -EINVAL, "init()", bad.ops.init = NULL);
	REFUSE("no exit", -EINVAL, "exit()", bad.ops.exit = NULL);
	REFUSE("no insert", -EINVAL, "insert()", bad.ops.insert = NULL);
	REFUSE("no dispatch", -EINVAL, "dispatch()", bad.ops.dispatch = NULL);
	REFUSE("no has_work", -EINVAL, "has_work()", bad.ops.has_work = NULL);
	REFUSE("no completed", -EINVAL, "completed()", bad.ops.completed = NULL);
	REFUSE("idles, no timer", -EINVAL, "IOS_SCHED_IDLES", bad.features |= IOS_SCHED_IDLES);
	REFUSE("timer, no idles", -EINVAL, "IOS_SCHED_IDLES",
	       bad.ops.next_wakeup = ios_sched_find("as")->ops.next_wakeup);
	REFUSE("unknown feature", -EINVAL, "feature", bad.features |= 1u << 31);
	REFUSE("unknown share model", -EINVAL, "share model",
	       bad.share_model = (enum ios_share_model)IOS_SHARE_NR);
	REFUSE("tunable twice", -EINVAL, "listed twice", bad_tab[1].name = bad_tab[0].name);
	REFUSE("default above max", -EINVAL, "bad default", bad_tab[first_time].def = "1000000s");
	REFUSE("empty range", -EINVAL, "empty range",
	       (bad_tab[first_time].min = 2, bad_tab[first_time].max = 1));
	REFUSE("not a time unit", -EINVAL, "not a time unit", bad_tab[first_time].unit = "KiB");
	REFUSE("row outside priv", -EINVAL, "outside", bad.priv_size = 4);
	REFUSE("stats outside priv", -EINVAL, "outside", (bad.tunables = NULL, bad.priv_size = 4));
	REFUSE("weights", -EINVAL, "weights", bad.cgroups = &bad_weights);
	/* names already taken: a built-in's name, alias, or an alias that is one */
	REFUSE("name taken", -EEXIST, "taken", bad.name = "deadline");
	REFUSE("alias's name taken", -EEXIST, "taken", bad.name = "cfq-2.6.31");
	REFUSE("alias taken", -EEXIST, "taken", bad.alias = "noop");
#undef REFUSE
	return ret;
}

static int test_broken_dev_copies(void)
{
	const struct ios_dev_type *hdd = ios_dev_type_find("hdd");
	struct ios_dev_type d;
	struct ios_err e = { 0 };

	T_ASSERT(hdd);
	d = *hdd;
	T_ASSERT_EQ(ios_dev_type_check(&d, &e), 0);
	d.version = IOS_DEV_INTERFACE_VERSION + 1;
	T_ASSERT_EQ(ios_dev_type_check(&d, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "version"), "%s", e.msg);
	d = *hdd;
	d.version = 0;
	T_ASSERT_EQ(ios_dev_type_check(&d, NULL), -EINVAL);
	d = *hdd;
	d.ops.submit = NULL;
	T_ASSERT_EQ(ios_dev_type_check(&d, NULL), -EINVAL);
	d = *hdd;
	d.ops.caps = NULL;
	T_ASSERT_EQ(ios_dev_type_check(&d, NULL), -EINVAL);
	d = *hdd;
	d.priv_size = sizeof(struct ios_dev) - 1;
	T_ASSERT_EQ(ios_dev_type_check(&d, NULL), -EINVAL);
	d = *hdd;
	d.priv_size = sizeof(struct ios_dev);	/* the tunables live past the base */
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_dev_type_check(&d, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "outside"), "%s", e.msg);
	d = *hdd;
	d.name = "";
	T_ASSERT_EQ(ios_dev_type_check(&d, NULL), -EINVAL);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_schedulers, test_devices, test_broken_sched_copies,
		     test_broken_dev_copies);
}
