/*
 * Description: each cgroup v2 file's parser (src/block/blkcg_conf.c)
 * accepts and refuses as the Linux 6.12 function that writes the file
 * (tg_set_limit, ioc_weight_write, bfq_io_set_weight, iolatency_set_limit,
 * ioprio_set_prio_policy, ioc_qos_write, ioc_cost_model_write), with the
 * kernel's errno; where the kernel reads leading digits, clamps or
 * truncates, the lab refuses and the message says so. Table-driven: each
 * row names the rule it checks and fails if that rule is removed.
 */
#include <errno.h>
#include <string.h>
#include "harness.h"
#include "iosched/blkcg.h"

struct row {
	enum ios_blkcg_file f;
	const char *value;
	int want;		/* 0 or -errno */
	const char *needle;	/* in the message (errors) */
};

static const struct row rows[] = {
	/* io.max, tg_set_limit */
	{ IOS_BLKCG_MAX, "rbps=20971520 wiops=max", 0, NULL },
	{ IOS_BLKCG_MAX, "8:0 rbps=1 wbps=2 riops=3 wiops=4", 0, NULL },
	{ IOS_BLKCG_MAX, "rbps=0", -ERANGE, "limit of 0" },
	{ IOS_BLKCG_MAX, "foo=0", -ERANGE, "limit of 0" },	/* value before key */
	{ IOS_BLKCG_MAX, "foo=1", -EINVAL, "unknown key 'foo'" },
	{ IOS_BLKCG_MAX, "rbps", -EINVAL, "no '='" },
	{ IOS_BLKCG_MAX, "rbps=abc", -EINVAL, "not a number" },
	{ IOS_BLKCG_MAX, "rbps=20M", -EINVAL, "would read 20" },
	{ IOS_BLKCG_MAX, "riops=4294967296", -ERANGE, "clamp it to 4294967295" },
	{ IOS_BLKCG_MAX, "rbps=18446744073709551616", -EINVAL, "64 bits" },
	{ IOS_BLKCG_MAX, "wbps=123456789012345678901234", -EINVAL, "26 characters" },
	{ IOS_BLKCG_MAX, "9:0 rbps=1", -ENODEV, "8:0" },
	/* io.weight, ioc_weight_write */
	{ IOS_BLKCG_WEIGHT, "500", 0, NULL },
	{ IOS_BLKCG_WEIGHT, "default 10000", 0, NULL },
	{ IOS_BLKCG_WEIGHT, "8:0 default", 0, NULL },
	{ IOS_BLKCG_WEIGHT, "10001", -EINVAL, "outside 1..10000" },
	{ IOS_BLKCG_WEIGHT, "0", -EINVAL, "outside 1..10000" },
	{ IOS_BLKCG_WEIGHT, "8:0 0", -EINVAL, "outside 1..10000" },
	{ IOS_BLKCG_WEIGHT, "50x", -EINVAL, "would read 50" },
	{ IOS_BLKCG_WEIGHT, "8:1 100", -ENODEV, "8:0" },
	/* io.bfq.weight, bfq_io_set_weight */
	{ IOS_BLKCG_BFQ_WEIGHT, "1000", 0, NULL },
	{ IOS_BLKCG_BFQ_WEIGHT, "default 136", 0, NULL },
	{ IOS_BLKCG_BFQ_WEIGHT, "8:0 default", 0, NULL },
	{ IOS_BLKCG_BFQ_WEIGHT, "1001", -ERANGE, "outside 1..1000" },
	{ IOS_BLKCG_BFQ_WEIGHT, "0", -ERANGE, "outside 1..1000" },
	{ IOS_BLKCG_BFQ_WEIGHT, "8:0 0", -ERANGE, "device weight of 0" },
	{ IOS_BLKCG_BFQ_WEIGHT, "8:0 5000", -ERANGE, "outside 1..1000" },
	{ IOS_BLKCG_BFQ_WEIGHT, "0x64", -EINVAL, "hex" },
	{ IOS_BLKCG_BFQ_WEIGHT, "default", -EINVAL, "MAJ:MIN" },
	{ IOS_BLKCG_BFQ_WEIGHT, "heavy", -EINVAL, "neither" },
	/* io.latency, iolatency_set_limit */
	{ IOS_BLKCG_LATENCY, "target=75", 0, NULL },
	{ IOS_BLKCG_LATENCY, "8:0 target=max", 0, NULL },
	{ IOS_BLKCG_LATENCY, "target=10abc", -EINVAL, "would read 10" },
	{ IOS_BLKCG_LATENCY, "latency=10", -EINVAL, "unknown key" },
	{ IOS_BLKCG_LATENCY, "target", -EINVAL, "KEY=VALUE" },
	{ IOS_BLKCG_LATENCY, "target=10  target=20", -EINVAL, "empty token" },
	{ IOS_BLKCG_LATENCY, "", -EINVAL, "empty token" },
	{ IOS_BLKCG_LATENCY, "target=18446744073709552", -ERANGE, "overflows" },
	/* io.prio.class, ioprio_set_prio_policy */
	{ IOS_BLKCG_PRIO_CLASS, "restrict-to-be", 0, NULL },
	{ IOS_BLKCG_PRIO_CLASS, "none-to-rt", 0, NULL },
	{ IOS_BLKCG_PRIO_CLASS, "rt", -EINVAL, "not a policy" },
	{ IOS_BLKCG_PRIO_CLASS, "8:0 idle", -EINVAL, "not a policy" },
	/* io.cost.qos, ioc_qos_write */
	{ IOS_BLKCG_COST_QOS, "enable=1 ctrl=auto", 0, NULL },
	{ IOS_BLKCG_COST_QOS, "8:0 enable=1 ctrl=user rpct=95.5 rlat=5000 wpct=90 wlat=5000 "
	  "min=50 max=150", 0, NULL },
	{ IOS_BLKCG_COST_QOS, "ctrl=auto rpct=90", 0, NULL },	/* a later parameter: user */
	{ IOS_BLKCG_COST_QOS, "rpct=90 ctrl=auto", -EINVAL, "throws the parameters away" },
	{ IOS_BLKCG_COST_QOS, "rpct=100.01", -EINVAL, "above 100" },
	{ IOS_BLKCG_COST_QOS, "rpct=100.004", 0, NULL },	/* rounds to 100.00 */
	{ IOS_BLKCG_COST_QOS, "rpct=100.005", -EINVAL, "above 100" },	/* rounds up */
	{ IOS_BLKCG_COST_QOS, "min=150 max=50", -EINVAL, "is above max" },
	{ IOS_BLKCG_COST_QOS, "min=0.5", -ERANGE, "clamp" },
	{ IOS_BLKCG_COST_QOS, "max=10000.01", -ERANGE, "clamp" },
	{ IOS_BLKCG_COST_QOS, "rlat=4294967296", -ERANGE, "low 32 bits" },
	{ IOS_BLKCG_COST_QOS, "rlat=010", -EINVAL, "octal" },
	{ IOS_BLKCG_COST_QOS, "enable=yes", -EINVAL, "not a number" },
	{ IOS_BLKCG_COST_QOS, "ctrl=manual", -EINVAL, "auto or user" },
	{ IOS_BLKCG_COST_QOS, "wpct=9x", -EINVAL, "not a plain number" },
	{ IOS_BLKCG_COST_QOS, "latency=5", -EINVAL, "unknown token" },
	/* io.cost.model, ioc_cost_model_write */
	{ IOS_BLKCG_COST_MODEL, "ctrl=user model=linear rbps=488636629 rseqiops=8932 "
	  "rrandiops=8518 wbps=427891549 wseqiops=28755 wrandiops=21940", 0, NULL },
	{ IOS_BLKCG_COST_MODEL, "rbps=0", 0, NULL },
	{ IOS_BLKCG_COST_MODEL, "model=quadratic", -EINVAL, "only model is linear" },
	{ IOS_BLKCG_COST_MODEL, "rbps=1 ctrl=auto", -EINVAL, "throws the coefficients away" },
	{ IOS_BLKCG_COST_MODEL, "riops=1", -EINVAL, "unknown token" },
	{ IOS_BLKCG_COST_MODEL, "259:0 ctrl=auto", -ENODEV, "8:0" },
};

static int test_rows(void)
{
	struct ios_blkcg_devt dev;

	ios_blkcg_devt_of("hdd-2009", &dev);
	T_ASSERT_EQ(dev.major, 8u);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct ios_cgroup_v2 v, before;
		struct ios_err e = { 0 };
		int ret;

		ios_cgroup_v2_init(&v);
		before = v;
		ret = ios_blkcg_conf_write(r->f, r->value, &dev, &v, "--set: cgroup.x", &e);
		T_ASSERT_MSG(ret == r->want, "%s='%s': %d, want %d (%s)",
			     ios_blkcg_cftype(r->f)->name, r->value, ret, r->want, e.msg);
		if (r->want) {
			T_ASSERT_MSG(strstr(e.msg, r->needle), "'%s': message lacks '%s': %s",
				     r->value, r->needle, e.msg);
			/* the message names the setting, the file's parser and its source */
			T_ASSERT(strstr(e.msg, "--set: cgroup.x="));
			T_ASSERT(strstr(e.msg, ios_blkcg_cftype(r->f)->kfunc));
			/* a refused write changes nothing */
			T_ASSERT_MSG(!memcmp(&v, &before, sizeof(v)), "'%s' changed the files",
				     r->value);
		} else {
			T_ASSERT(v.written & (1u << r->f));
		}
	}
	return T_PASS;
}

/* What the accepted writes store, in the kernel's units. */
static int test_values(void)
{
	struct ios_blkcg_devt dev;
	struct ios_cgroup_v2 v;
	struct ios_err e = { 0 };

	ios_blkcg_devt_of("ssd-nvme", &dev);
	T_ASSERT_EQ(dev.major, 259u);
	ios_cgroup_v2_init(&v);
	T_ASSERT_EQ(v.weight, 100u);
	T_ASSERT_EQ(v.bps[0], UINT64_MAX);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_MAX, "259:0 rbps=20971520 riops=max wiops=7",
					 &dev, &v, "t", &e), 0);
	T_ASSERT_EQ(v.bps[0], 20971520u);
	T_ASSERT_EQ(v.bps[1], UINT64_MAX);
	T_ASSERT_EQ(v.iops[0], UINT32_MAX);
	T_ASSERT_EQ(v.iops[1], 7u);
	/* a later write changes only the keys it names (tg_set_limit starts from the current) */
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_MAX, "wbps=5", &dev, &v, "t", &e), 0);
	T_ASSERT_EQ(v.bps[0], 20971520u);
	T_ASSERT_EQ(v.bps[1], 5u);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_WEIGHT, "default 500", &dev, &v, "t", &e), 0);
	T_ASSERT_EQ(v.weight, 500u);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_WEIGHT, "259:0 50", &dev, &v, "t", &e), 0);
	T_ASSERT_EQ(v.weight_dev, 50u);
	T_ASSERT_EQ(v.weight, 500u);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_BFQ_WEIGHT, " 136\n", &dev, &v, "t", &e), 0);
	T_ASSERT_EQ(v.bfq_weight, 136u);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_LATENCY, "target=75", &dev, &v, "t", &e), 0);
	T_ASSERT_EQ(v.lat_target_ns, 75000u);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_PRIO_CLASS, "idle", &dev, &v, "t", &e), 0);
	T_ASSERT_EQ(v.prio_policy, IOS_PRIO_ALL_TO_IDLE);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_COST_QOS, "enable=1 rpct=95.555 rlat=5000 "
					 "min=50.5", &dev, &v, "t", &e), 0);
	T_ASSERT(v.qos.enable);
	T_ASSERT(v.qos.user);
	T_ASSERT_EQ(v.qos.qos[IOS_QOS_RPPM], 955600u);	/* 95.56 %: two decimals, rounded */
	T_ASSERT_EQ(v.qos.qos[IOS_QOS_RLAT], 5000u);
	T_ASSERT_EQ(v.qos.qos[IOS_QOS_MIN], 505000u);
	T_ASSERT_EQ(v.qos.qos[IOS_QOS_MAX], IOS_VRATE_MAX_PPM);
	T_ASSERT_EQ(v.qos.given, (1u << IOS_QOS_RPPM) | (1u << IOS_QOS_RLAT) | (1u << IOS_QOS_MIN));
	/* ctrl=auto alone returns to the built-in parameters */
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_COST_QOS, "ctrl=auto", &dev, &v, "t", &e), 0);
	T_ASSERT(!v.qos.user);
	T_ASSERT_EQ(v.qos.given, 0u);
	T_ASSERT(v.qos.enable);
	T_ASSERT_EQ(ios_blkcg_conf_write(IOS_BLKCG_COST_MODEL, "rrandiops=3000", &dev, &v, "t",
					 &e), 0);
	T_ASSERT(v.model.user);
	T_ASSERT_EQ(v.model.lcoef[IOS_LCOEF_RRANDIOPS], 3000u);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_rows, test_values);
}
