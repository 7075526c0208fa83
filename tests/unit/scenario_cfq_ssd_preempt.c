/*
 * Description: ten libaio iodepth=64 4k random readers for 1 s on ssd-nvme
 * (issue 28, item 4), the job of Tahsin Erdogan's "block: Make CFQ default
 * to IOPS mode on SSDs" (41c0126b3f22, Linux 4.2), under the CFQ profiles
 * (docs/cfq.md, "Ten random readers on a fast SSD").
 *  - The default request pool (queue.nr_requests=128) is smaller than the
 *    device's 256 tags: every request goes to the device the moment it is
 *    queued, CFQ never holds more than the one arriving request, and the
 *    device sees what noop gives it. In 4.19 the queues have no idle window
 *    (small requests on a non-rotational disk are seeky; none is deep), so
 *    they are sync-noidle, and each arrival finds the active queue empty:
 *    cfq_should_preempt's "idling on sync-noidle tree" rule, which 4.19
 *    tests without 2.6.33's count == 2, preempts on every request, with
 *    slice_idle 8 as with 0. That is 4.19's own rule, checked against
 *    4.19.1's block/cfq-iosched.c, not a slip of the model.
 *  - With queue.nr_requests=1024 the 640 requests exceed the tags and CFQ
 *    holds the rest: 4.19's slice_idle=8 then costs IOPS against
 *    slice_idle=0 (the soft quantum, cfq_slice_used_soon with slice_idle *
 *    dispatched) and preemptions are rare, which is what the commit
 *    measured (7054 against 29255 IOPS on a cloud SSD, 19320 against 21626
 *    on a local one).
 *  - 2.6.31 switches queues at every request too, with no preemption: an
 *    empty active queue without an idle window (seeky on an NCQ disk) is
 *    expired by cfq_select_queue; the close cooperator only picks the
 *    next queue now and then.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "iosched/ios.h"

static const char job[] =
	"[global]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\niodepth=64\n"
	"runtime=1\ntime_based\nsize=1g\n[r]\nnumjobs=10\n";

struct outcome {
	double iops;
	uint64_t ios;
	int64_t slices, preemptions, coop;
};

static int64_t stat_of(const struct ios_run_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_sched_stats; i++)
		if (!strcmp(r->sched_stats[i].name, name))
			return r->sched_stats[i].value;
	return -1;
}

static int run(const char *sched, const char *slice_idle, const char *nr_requests,
	       struct outcome *o)
{
	struct ios_run_config cfg = { .scheduler = sched, .device = "ssd-nvme", .seed = 1 };
	struct ios_settings set = { 0 };
	struct ios_run_result r;
	struct ios_jobfile jf;
	struct ios_err e = { 0 };
	char kv[64];
	int ret = -1;

	if (slice_idle) {
		snprintf(kv, sizeof(kv), "slice_idle=%s", slice_idle);
		if (ios_settings_add_kv(&set, kv, "test", &e))
			goto out;
	}
	snprintf(kv, sizeof(kv), "queue.nr_requests=%s", nr_requests);
	if (ios_settings_add_kv(&set, kv, "test", &e))
		goto out;
	cfg.settings = &set;
	if (t_run_job("ssd10.fio", job, &cfg, &jf, &r))
		goto out;
	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < r.nr_jobs; i++) {
		const struct ios_dir_result *d = &r.jobs[i].dir[IOS_DDIR_READ];

		o->ios += d->total_ios;
		if (d->runtime_ns)
			o->iops += (double)d->total_ios * 1e9 / (double)d->runtime_ns;
	}
	o->slices = stat_of(&r, "slices");
	o->preemptions = stat_of(&r, "preemptions");
	o->coop = stat_of(&r, "cooperators_chosen");
	printf("%-10s slice_idle=%-2s nr_requests=%-4s %7.0f IOPS, %6llu requests, "
	       "%6lld slices, %6lld preemptions, %5lld cooperators\n", sched,
	       slice_idle ? slice_idle : "-", nr_requests, o->iops, (unsigned long long)o->ios,
	       (long long)o->slices, (long long)o->preemptions, (long long)o->coop);
	t_job_done(&jf, &r);
	ret = 0;
out:
	ios_settings_free(&set);
	return ret;
}

/* The default pool: CFQ is passed through, and 4.19 preempts per request. */
static int test_default_pool_passes_through(void)
{
	struct outcome noop, i8, i0;

	T_ASSERT_EQ(run("noop", NULL, "128", &noop), 0);
	T_ASSERT_EQ(run("cfq-4.19", "8", "128", &i8), 0);
	T_ASSERT_EQ(run("cfq-4.19", "0", "128", &i0), 0);
	T_ASSERT_MSG(i8.ios > 100000, "cfq-4.19: %llu requests", (unsigned long long)i8.ios);
	/* nothing waits in CFQ, so the device is driven as under noop (1 %) */
	T_ASSERT_MSG(i8.iops > 0.99 * noop.iops && i0.iops > 0.99 * noop.iops,
		     "cfq-4.19 %.0f / %.0f IOPS against noop's %.0f, want within 1 %%", i8.iops,
		     i0.iops, noop.iops);
	/* the sync-noidle rule: at least 90 % of the requests preempt */
	T_ASSERT_MSG(i8.preemptions >= (int64_t)(0.9 * (double)i8.ios) &&
		     i0.preemptions >= (int64_t)(0.9 * (double)i0.ios),
		     "cfq-4.19: %lld / %lld preemptions for %llu requests, want >= 90 %%",
		     (long long)i8.preemptions, (long long)i0.preemptions,
		     (unsigned long long)i8.ios);
	return T_PASS;
}

/* A pool larger than the tags: CFQ holds requests, and idling costs IOPS. */
static int test_idling_costs_iops_when_cfq_holds_requests(void)
{
	struct outcome i8, i0;

	T_ASSERT_EQ(run("cfq-4.19", "8", "1024", &i8), 0);
	T_ASSERT_EQ(run("cfq-4.19", "0", "1024", &i0), 0);
	/* measured 0.57; the commit's local SSD 0.89, its cloud SSD 0.24 */
	T_ASSERT_MSG(i8.iops <= 0.8 * i0.iops,
		     "cfq-4.19 slice_idle=8 %.0f IOPS, slice_idle=0 %.0f: want at most 0.8 of it",
		     i8.iops, i0.iops);
	/* preemptions far fewer than requests: at most 1 % */
	T_ASSERT_MSG(i8.preemptions * 100 <= (int64_t)i8.ios &&
		     i0.preemptions * 100 <= (int64_t)i0.ios,
		     "cfq-4.19: %lld / %lld preemptions for %llu / %llu requests, want <= 1 %%",
		     (long long)i8.preemptions, (long long)i0.preemptions,
		     (unsigned long long)i8.ios, (unsigned long long)i0.ios);
	return T_PASS;
}

/*
 * 2.6.31: a slice per request and no preemption; the cooperator picks the
 * next queue for a few of them (under 10 %), the expiry of the empty
 * non-idling queue does the switching.
 */
static int test_2631_switches_by_expiry(void)
{
	static const char *const idle[] = { "8", "0" };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(idle); i++) {
		struct outcome o;

		T_ASSERT_EQ(run("cfq", idle[i], "128", &o), 0);
		T_ASSERT_MSG(o.preemptions == 0, "cfq: %lld preemptions", (long long)o.preemptions);
		T_ASSERT_MSG(o.slices >= (int64_t)(0.9 * (double)o.ios),
			     "cfq: %lld slices for %llu requests, want >= 90 %%",
			     (long long)o.slices, (unsigned long long)o.ios);
		T_ASSERT_MSG(o.coop * 10 < o.slices, "cfq: %lld cooperators of %lld slices",
			     (long long)o.coop, (long long)o.slices);
	}
	return T_PASS;
}

/* Printed for the record (docs/cfq.md's table), asserted only to run. */
static int test_table(void)
{
	static const char *const scheds[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };
	static const char *const pools[] = { "128", "1024" };
	static const char *const idle[] = { "8", "0" };

	for (size_t p = 0; p < IOS_ARRAY_SIZE(pools); p++)
		for (size_t s = 0; s < IOS_ARRAY_SIZE(scheds); s++)
			for (size_t i = 0; i < IOS_ARRAY_SIZE(idle); i++) {
				struct outcome o;

				T_ASSERT_EQ(run(scheds[s], idle[i], pools[p], &o), 0);
				T_ASSERT(o.ios > 0);
			}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_default_pool_passes_through, test_idling_costs_iops_when_cfq_holds_requests,
		     test_2631_switches_by_expiry, test_table);
}
