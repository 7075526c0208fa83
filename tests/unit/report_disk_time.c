/*
 * Description: disk time per process (ios_ioc.device_ns, .sched_ns; the
 * report's "Disk time" section and iosched.disk_time in JSON). The device
 * shares add up to the device's busy time whatever the depth (util x the
 * run); CFQ charges each process its slices, so BE level 0 against level 7
 * sequential readers get about their slice ratio (180:40 ms at the default
 * 100 ms base slice) in charged time and in device time; BFQ charges time
 * in service; noop and deadline charge nothing, and say so.
 */
#include <string.h>
#include "harness.h"
#include "iosched/ios.h"

/* the result points into the job file: both live until done() */
static struct ios_jobfile jf;

static void done(struct ios_run_result *r)
{
	t_job_done(&jf, r);
}

static int run_job(const char *job, const char *sched, struct ios_run_result *res)
{
	struct ios_run_config cfg = { .scheduler = sched, .seed = 1 };

	return t_run_job("t.fio", job, &cfg, &jf, res);
}

static const char two_readers[] =
	"[global]\nrw=read\nbs=64k\ndirect=1\nioengine=psync\nsize=1g\nruntime=4\ntime_based\n"
	"prioclass=2\n[hi]\nprio=0\n[lo]\nprio=7\n";

static int test_device_shares_sum(void)
{
	static const char *const scheds[] = { "noop", "cfq", "bfq" };
	/* four random readers at depth 8: the device holds several requests at once */
	static const char job[] =
		"[global]\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=8\nsize=256m\n"
		"runtime=2\ntime_based\n[a]\n[b]\n[c]\n[d]\n";

	for (size_t k = 0; k < IOS_ARRAY_SIZE(scheds); k++) {
		struct ios_run_result r;
		uint64_t sum = 0;
		double busy;

		T_ASSERT_EQ(run_job(job, scheds[k], &r), 0);
		for (size_t i = 0; i < r.nr_jobs; i++) {
			T_ASSERT(r.jobs[i].device_time_ns > 0);
			sum += r.jobs[i].device_time_ns;
		}
		sum += r.flusher_device_time_ns;
		/*
		 * util counts time with a request anywhere past allocation (the
		 * kernel's in_flight), so it is at least the device's busy time:
		 * equal where nothing waits in the scheduler while the device
		 * idles, a little more under BFQ.
		 */
		busy = r.disks[0].util / 100.0 * (double)r.sim_end_ns;
		T_ASSERT_MSG((double)sum > busy * 0.97 && (double)sum < busy * 1.0001,
			     "%s: shares %llu ns, busy %.0f ns", scheds[k], (unsigned long long)sum,
			     busy);
		T_ASSERT_EQ(r.sched_charges_time, strcmp(scheds[k], "noop") != 0);
		done(&r);
	}
	return T_PASS;
}

static int test_cfq_slices(void)
{
	static const char *const scheds[] = { "cfq", "cfq-4.19" };

	for (size_t k = 0; k < IOS_ARRAY_SIZE(scheds); k++) {
		struct ios_run_result r;
		double ch, dev;

		T_ASSERT_EQ(run_job(two_readers, scheds[k], &r), 0);
		T_ASSERT_EQ(r.nr_jobs, 2u);
		ch = (double)r.jobs[0].disk_time_ns / (double)r.jobs[1].disk_time_ns;
		dev = (double)r.jobs[0].device_time_ns / (double)r.jobs[1].device_time_ns;
		/* cfq_prio_slice: 100 + 100/5 * (4 - prio) ms: 180 against 40 */
		T_ASSERT_MSG(ch > 3.5 && ch < 5.0, "%s charged hi:lo %.2f", scheds[k], ch);
		T_ASSERT_MSG(dev > 3.5 && dev < 5.0, "%s device hi:lo %.2f", scheds[k], dev);
		/* the slices cover the run: charged time is the run, less switches */
		T_ASSERT((double)(r.jobs[0].disk_time_ns + r.jobs[1].disk_time_ns) >
			 0.9 * (double)r.sim_end_ns);
		done(&r);
	}
	return T_PASS;
}

static int test_no_charge(void)
{
	static const char *const scheds[] = { "noop", "deadline", "anticipatory" };

	for (size_t k = 0; k < IOS_ARRAY_SIZE(scheds); k++) {
		struct ios_run_result r;
		struct ios_buf b;

		T_ASSERT_EQ(run_job(two_readers, scheds[k], &r), 0);
		T_ASSERT(!r.sched_charges_time);
		T_ASSERT_EQ(r.jobs[0].disk_time_ns, 0u);
		T_ASSERT(r.jobs[0].device_time_ns > 0);
		ios_buf_init(&b);
		T_ASSERT_EQ(ios_report_normal(&r, &b), 0);
		T_ASSERT_MSG(strstr(b.s, "\nDisk time ("), "%s", b.s);
		/* charged: "-", not a zero that looks like a measurement */
		T_ASSERT(strstr(b.s, "  hi                            -      -"));
		ios_buf_free(&b);
		ios_buf_init(&b);
		T_ASSERT_EQ(ios_report_json(&r, &b), 0);
		T_ASSERT(strstr(b.s, "\"charged_by_scheduler\" : \"no\""));
		ios_buf_free(&b);
		done(&r);
	}
	return T_PASS;
}

static int test_bfq_in_service(void)
{
	struct ios_run_result r;

	T_ASSERT_EQ(run_job(two_readers, "bfq", &r), 0);
	T_ASSERT(r.sched_charges_time);
	T_ASSERT(r.jobs[0].disk_time_ns > 0 && r.jobs[1].disk_time_ns > 0);
	/*
	 * In service, idling included; a queue that uses up its budget expires
	 * at the dispatch that did it, so that request's service falls in the
	 * next queue's time: charged is near the device time, a little under.
	 */
	for (size_t i = 0; i < 2; i++)
		T_ASSERT_MSG((double)r.jobs[i].disk_time_ns > 0.75 * (double)r.jobs[i].device_time_ns &&
			     (double)r.jobs[i].disk_time_ns < 1.25 * (double)r.jobs[i].device_time_ns,
			     "job %zu charged %llu device %llu", i,
			     (unsigned long long)r.jobs[i].disk_time_ns,
			     (unsigned long long)r.jobs[i].device_time_ns);
	done(&r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_device_shares_sum, test_cfq_slices, test_no_charge, test_bfq_in_service);
}
