/*
 * Description: the cgroup v2 report (docs/cgroup-v2.md "Seeing it"): the
 * text "Cgroup v2" section and JSON iosched.cgroup_v2 (groups, what
 * io.cost held, the settings in effect), and io.cost's per-period monitor
 * (src/block/blk_iocost_monitor.c; JSON iosched.iocost, the text's
 * "io.cost periods" lines), which follows tools/cgroup/iocost_monitor.py.
 *
 * Two groups of two 4 KiB random readers (QD16) on ssd-nvme under none,
 * io.weight 500:100, io.cost enabled, lab.hz=1000: every period at whose
 * end both are active gives a hweight_active of 500/600 and 100/600 of
 * WEIGHT_ONE (83.33 / 16.67 %); vrate stays inside SSD_DFL's qos min/max
 * (ioc_adjust_base_vrate clamps to it); the periods end every 50 ms
 * (SSD_DFL's period, a whole number of 1 ms jiffies), so there are as
 * many as the run's length holds; a's usage is about five times b's. A
 * run without enable=1 has no iocost section and io.cost held nothing.
 * The log stays bounded: past its cap every second period goes and the
 * stride doubles, the summary still covering all.
 */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "iocost_rig.h"
#include "iosched/ios.h"

static struct ios_jobfile jf;

static const char job[] =
	"[global]\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=16\nsize=256m\n"
	"runtime=1s\ntime_based\n[a]\ncgroup=a\nnumjobs=2\n[b]\ncgroup=b\nnumjobs=2\n";

static int run(bool enable, struct ios_run_result *res)
{
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	struct ios_run_config cfg = { .scheduler = "none", .device = "ssd-nvme", .seed = 1,
				      .settings = &set };
	int ret;

	if (ios_settings_add_kv(&set, enable ? "cgroup.io.cost.qos=enable=1" :
				"cgroup.io.cost.qos=enable=0", "test", &e) ||
	    ios_settings_add_kv(&set, "cgroup.a.io.weight=500", "test", &e) ||
	    ios_settings_add_kv(&set, "cgroup.b.io.weight=100", "test", &e) ||
	    ios_settings_add_kv(&set, "lab.hz=1000", "test", &e))
		return -1;
	ret = t_run_job("t.fio", job, &cfg, &jf, res);
	ios_settings_free(&set);
	return ret;
}

static const struct ios_cgroup_result *cg_of(const struct ios_run_result *r, const char *path)
{
	for (size_t i = 0; i < r->nr_cgroups; i++)
		if (!strcmp(r->cgroups[i].path, path))
			return &r->cgroups[i];
	return NULL;
}

static int log_group(const struct ios_iocost_log *l, const char *path)
{
	for (unsigned g = 0; g < l->nr_groups; g++)
		if (!strcmp(l->paths[g], path))
			return (int)g;
	return -1;
}

static char *report(const struct ios_run_result *r, bool json)
{
	struct ios_buf b;

	ios_buf_init(&b);
	if (json ? ios_report_json(r, &b) : ios_report_normal(r, &b)) {
		ios_buf_free(&b);
		return NULL;
	}
	return b.s;
}

/* rule: the section lists each group, what io.cost held it for, and io.weight as written */
static int test_section(void)
{
	struct ios_run_result r = { 0 };
	const struct ios_cgroup_result *a, *b;
	char *txt, *js;

	T_ASSERT(!run(true, &r));
	a = cg_of(&r, "a");
	b = cg_of(&r, "b");
	T_ASSERT(a && b && a->v2 && b->v2);
	T_ASSERT_EQ(a->v2_weight, 500);
	T_ASSERT_EQ(b->v2_weight, 100);
	T_ASSERT_EQ(a->nr_jobs, 2);
	/* io.cost held both groups' bios: b, at a sixth of the device, much longer each */
	T_ASSERT(a->waits.nr[IOS_WAIT_COST] > 0 && b->waits.nr[IOS_WAIT_COST] > 0);
	T_ASSERT(b->waits.ns[IOS_WAIT_COST] / b->waits.nr[IOS_WAIT_COST] >
		 2 * (a->waits.ns[IOS_WAIT_COST] / a->waits.nr[IOS_WAIT_COST]));
	/* and a did about five times b's I/O */
	T_ASSERT(a->ios[0] > 4 * b->ios[0] && a->ios[0] < 6 * b->ios[0]);
	txt = report(&r, false);
	js = report(&r, true);
	T_ASSERT(txt && js);
	T_ASSERT(strstr(txt, "\nCgroup v2 (none):\n  a: jobs=2\n"));
	T_ASSERT(strstr(txt, "    set  : io.weight=500, io.max=rbps=max"));
	T_ASSERT(strstr(txt, "    set  : io.weight=100, io.max=rbps=max"));
	T_ASSERT(strstr(js, "\"cgroup_v2\" : {") || strstr(js, "\"cgroup_v2\": {"));
	T_ASSERT(strstr(js, "\"io_weight\" : 500") || strstr(js, "\"io_weight\": 500"));
	free(txt);
	free(js);
	t_job_done(&jf, &r);

	/* enable=0: the same groups and weights, nothing held by io.cost, no monitor */
	T_ASSERT(!run(false, &r));
	a = cg_of(&r, "a");
	T_ASSERT(a && a->v2);
	T_ASSERT_U64_EQ(a->waits.nr[IOS_WAIT_COST], 0);
	T_ASSERT(r.iocost == NULL);
	txt = report(&r, false);
	js = report(&r, true);
	T_ASSERT(txt && js);
	T_ASSERT(strstr(txt, "\nCgroup v2 (none):\n"));
	T_ASSERT(!strstr(txt, "io.cost periods"));
	T_ASSERT(!strstr(js, "\"iocost\""));
	free(txt);
	free(js);
	t_job_done(&jf, &r);
	return T_PASS;
}

/* rule: one record per period with the monitor's numbers */
static int test_periods(void)
{
	struct ios_run_result r = { 0 };
	const struct ios_iocost_log *l;
	const uint32_t *qos = ios_iocost_autop_qos(IOS_AUTOP_SSD_DFL);
	double vmin = qos[IOS_QOS_MIN] / 1e4, vmax = qos[IOS_QOS_MAX] / 1e4;
	unsigned both = 0;
	int ga, gb;
	char *txt, *js, want[96];

	T_ASSERT(!run(true, &r));
	l = r.iocost;
	T_ASSERT(l);
	ga = log_group(l, "a");
	gb = log_group(l, "b");
	T_ASSERT(ga >= 0 && gb >= 0);
	/* 1 s of I/O in 50 ms periods: about 20, all kept */
	T_ASSERT(l->nr_total >= 20 && l->nr_total <= 23);
	T_ASSERT_U64_EQ(l->nr, l->nr_total);
	T_ASSERT_U64_EQ(l->stride, 1);
	for (size_t i = 0; i < l->nr; i++) {
		const struct ios_iocost_period *p = &l->periods[i];
		const struct ios_iocost_sample *s = &l->samples[i * l->nr_groups];

		T_ASSERT_U64_EQ(p->seq, i);
		T_ASSERT_NEAR(p->period_ms, 50.0, 1e-9);
		/* activated at 0: the timer every 50 jiffies of 1 ms */
		T_ASSERT_U64_EQ(p->t_ns, (i + 1) * 50 * C_MS);
		T_ASSERT_MSG(p->vrate_pct >= vmin && p->vrate_pct <= vmax,
			     "period %zu: vrate %.2f%% outside [%.2f, %.2f]", i, p->vrate_pct, vmin,
			     vmax);
		T_ASSERT(p->busy_level >= -1000 && p->busy_level <= 1000);
		if (s[ga].active && s[gb].active) {
			both++;
			T_ASSERT_NEAR(s[ga].hweight_active_pct, 83.33, 0.01);
			T_ASSERT_NEAR(s[gb].hweight_active_pct, 16.67, 0.01);
			/* nobody donates when both are saturated */
			T_ASSERT_NEAR(s[ga].hweight_inuse_pct, s[ga].hweight_active_pct, 1e-9);
			T_ASSERT(s[ga].debt_ms == 0.0 && s[ga].use_delay == 0);
		}
		/* the root is never on the active list (its bios bypass) */
		T_ASSERT(!s[0].active);
	}
	/* active to the end of the I/O, then one period finds them idle */
	T_ASSERT(both >= l->nr - 2);
	T_ASSERT_U64_EQ(l->periods[l->nr - 1].t_ns, l->nr_total * 50 * C_MS);
	T_ASSERT(l->periods[l->nr - 1].t_ns >= 1000 * C_MS);
	/* shortages without missed targets: busy_level falls and vrate rises above 100 % */
	T_ASSERT(l->vrate_max > 100.5 && l->vrate_min >= 100.0 - 1e-9);
	T_ASSERT(l->periods[2].busy_level < 0);
	/* usage follows the weights */
	T_ASSERT(l->g_usage_sum[ga] > 4.0 * l->g_usage_sum[gb] &&
		 l->g_usage_sum[ga] < 6.0 * l->g_usage_sum[gb]);

	txt = report(&r, false);
	js = report(&r, true);
	T_ASSERT(txt && js);
	snprintf(want, sizeof(want), "\nio.cost periods: %llu, vrate min/mean/max=100.00/",
		 (unsigned long long)l->nr_total);
	T_ASSERT_MSG(strstr(txt, want), "no '%s' in the text", want + 1);
	T_ASSERT(strstr(txt, "\n  a: active="));
	T_ASSERT(strstr(txt, "hweight active/inuse=83.33/83.33%"));
	T_ASSERT(strstr(js, "\"iocost\""));
	T_ASSERT(strstr(js, "\"periods\""));
	T_ASSERT(strstr(js, "\"hweight_active_pct\""));
	T_ASSERT(strstr(js, "\"usage_pct\""));
	T_ASSERT(strstr(js, "\"delay_ms\""));
	T_ASSERT(!strstr(js, "\"note\""));
	free(txt);
	free(js);
	t_job_done(&jf, &r);
	return T_PASS;
}

/* rule: past the cap, every second period goes; the summary keeps counting them all */
static int test_bounded(void)
{
	struct c_rig *rg = calloc(1, sizeof(*rg));
	struct ios_iocost_log *l;
	struct ios_run_result res = { 0 };
	uint64_t k, nr;
	int err;
	char *txt, *js;
	unsigned g = 0;

	T_ASSERT(rg);
	c_init(rg);
	rg->dev.hz = 0;			/* exact periods */
	for (unsigned i = 1; i < C_MAX_CG; i++)
		g = c_group(rg, 0, 100);
	/* 1 ms periods (io.cost.qos rlat=wlat=100us: the smallest) */
	rg->v2[0].qos.user = true;
	rg->v2[0].qos.given = 0xf;
	rg->v2[0].qos.qos[IOS_QOS_RLAT] = 100;
	rg->v2[0].qos.qos[IOS_QOS_WLAT] = 100;
	T_ASSERT(!c_start(rg, 1, 0));
	T_ASSERT_EQ(c_state(rg, 0).period_us, 1000);
	/* one bio never completed keeps its group active */
	T_ASSERT_EQ(c_throttle(rg, c_bio(rg, g, 0, 8, IOS_READ), 0), 0);
	/* 8 groups: the log keeps 2^18 / 8 = 32768 periods; run 40000 */
	nr = 40000;
	c_run_timers(rg, nr * C_MS);
	l = ios_iocost_take_log(rg->ioc, &err);
	T_ASSERT(l && !err);
	T_ASSERT_U64_EQ(l->nr_total, nr);
	T_ASSERT_U64_EQ(l->cap, 32768);
	T_ASSERT_U64_EQ(l->stride, 2);
	T_ASSERT_U64_EQ(l->nr, nr / 2);
	for (k = 0; k < l->nr; k++) {
		T_ASSERT_U64_EQ(l->periods[k].seq, 2 * k);
		T_ASSERT_U64_EQ(l->periods[k].t_ns, (2 * k + 1) * C_MS);
		T_ASSERT(l->samples[k * l->nr_groups + (unsigned)g].active);
	}
	T_ASSERT_U64_EQ(l->g_periods[g], nr);
	T_ASSERT_NEAR(l->g_hwa_sum[g] / (double)nr, 100.0, 1e-9);
	/* the reports say they list a part */
	res.iocost = l;
	txt = report(&res, false);
	js = report(&res, true);
	T_ASSERT(txt && js);
	T_ASSERT(strstr(txt, "io.cost periods: 40000,"));
	T_ASSERT(strstr(txt, "(the JSON lists 20000 of them, one in 2: the log is bounded)"));
	T_ASSERT(strstr(js, "\"note\""));
	free(txt);
	free(js);
	ios_iocost_log_free(l);
	/* the controller starts a new log */
	c_run_timers(rg, (nr + 3) * C_MS);
	l = ios_iocost_take_log(rg->ioc, &err);
	T_ASSERT(l && !err);
	T_ASSERT_U64_EQ(l->nr_total, 3);
	ios_iocost_log_free(l);
	c_free(rg);
	free(rg);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_section, test_periods, test_bounded);
}
