/*
 * Description: two equal sequential O_DIRECT readers beside a buffered
 * writer, 4 s on hdd-2009: under every CFQ profile one reader gets about
 * twice the other's slices (docs/cfq.md, "Two readers beside a buffered
 * writer").
 *  - The flusher's writes are async, in the shared async queue. When a
 *    reader's slice ends at a completion, CFQ serves the async queue at once
 *    and it dispatches its quantum (cfq_dispatch_requests).
 *  - The reader's next read comes 5 us later, finds an async queue active,
 *    and preempts it (cfq_should_preempt: sync over async). The preempting
 *    queue goes to the front of its tree with a new slice (cfq_preempt_queue),
 *    so the reader that handed the disk to the async queue reads again
 *    before the other one, and so it also ends the next round: 2.6.31 gives
 *    it 2 of every 3 slices. In 2.6.33 and 4.19 the async workload keeps
 *    its workload slice after the preemption, then the preempting reader,
 *    first on the sync tree, opens a sync turn of three slices and closes
 *    it: 2 of 3 again.
 * Controls: without the writer, and with the writer at direct=1 (sync
 * writes in a queue of its own, no async queue), the readers are even and
 * nothing preempts.
 */
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "iosched/ios.h"

struct outcome {
	uint64_t r1, r2;	/* charged disk time, ns */
	int64_t preemptions;
};

static int run(const char *sched, const char *writer, struct outcome *o)
{
	struct ios_run_config cfg = { .scheduler = sched, .seed = 1 };
	struct ios_run_result r;
	struct ios_jobfile jf;
	char job[512];

	snprintf(job, sizeof(job),
		 "[global]\nioengine=psync\nruntime=4\ntime_based\nsize=1g\nbs=64k\n"
		 "[r1]\nrw=read\ndirect=1\n[r2]\nrw=read\ndirect=1\n%s", writer);
	if (t_run_job("preempt.fio", job, &cfg, &jf, &r))
		return -1;
	o->r1 = r.jobs[0].disk_time_ns;
	o->r2 = r.jobs[1].disk_time_ns;
	o->preemptions = -1;
	for (size_t i = 0; i < r.nr_sched_stats; i++)
		if (!strcmp(r.sched_stats[i].name, "preemptions"))
			o->preemptions = r.sched_stats[i].value;
	printf("%-11s %-15s r1 %4llu ms, r2 %4llu ms, preemptions %lld\n", sched,
	       !*writer ? "no writer" : strstr(writer, "direct=1") ? "direct writer" : "buffered writer",
	       (unsigned long long)(o->r1 / 1000000), (unsigned long long)(o->r2 / 1000000),
	       (long long)o->preemptions);
	t_job_done(&jf, &r);
	return 0;
}

static double skew(const struct outcome *o)
{
	uint64_t hi = o->r1 > o->r2 ? o->r1 : o->r2, lo = o->r1 > o->r2 ? o->r2 : o->r1;

	return lo ? (double)hi / (double)lo : 1e9;
}

static const char *const scheds[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

static int test_buffered_writer_skews_the_readers(void)
{
	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++) {
		struct outcome o;

		T_ASSERT_EQ(run(scheds[i], "[w]\nrw=write\ndirect=0\n", &o), 0);
		/* one preemption per round of about 0.33 s */
		T_ASSERT_MSG(o.preemptions >= 8, "%s: %lld preemptions", scheds[i],
			     (long long)o.preemptions);
		T_ASSERT_MSG(skew(&o) >= 1.6 && skew(&o) <= 2.4, "%s: skew %.2f", scheds[i],
			     skew(&o));
	}
	return T_PASS;
}

static int test_controls_are_even(void)
{
	static const char *const writers[] = { "", "[w]\nrw=write\ndirect=1\n" };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++)
		for (size_t k = 0; k < IOS_ARRAY_SIZE(writers); k++) {
			struct outcome o;

			T_ASSERT_EQ(run(scheds[i], writers[k], &o), 0);
			T_ASSERT_MSG(o.preemptions == 0, "%s: %lld preemptions", scheds[i],
				     (long long)o.preemptions);
			T_ASSERT_MSG(skew(&o) <= 1.1, "%s: skew %.2f", scheds[i], skew(&o));
		}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_buffered_writer_skews_the_readers, test_controls_are_even);
}
