/*
 * Description: a time_based sequential reader that wraps around its file
 * makes one long seek, back to the file's start, and 2.6.31's seek mean
 * reads that one seek as a seeky queue. The case comes from the real disk
 * (docs/real-measured.md): BE level 0 against level 7 readers of 256 MiB
 * files got 1.9 of the bandwidth instead of about 4.5.
 *  - 2.6.31 (cfq_update_io_seektime, CIC_SEEKY): a sample's distance is
 *    capped at 4 x the mean + 128 Ki sectors once 60 samples are in, and a
 *    new sample weighs 1/8 of the decayed mean, so after a sequential run a
 *    wrap raises the mean to an eighth of its jump, at most 16 Ki sectors. A
 *    wrap over more than 32 MiB passes the 8 Ki threshold; with hw_tag set,
 *    cfq_update_idle_window then turns idling off, and a queue that does
 *    not idle loses its slice at each completion until the mean decays
 *    (7/8 per request, about six requests), one request per round behind
 *    the level 7 reader's 40 ms slices. The level 0 reader wraps a 64 MiB
 *    file about every 0.65 s here, and its share falls towards the level 7
 *    reader's. Files of 16 MiB (a 32 Ki-sector wrap, a mean of
 *    4 Ki) and 1 GiB (no wrap in 4 s) keep the slice ratio.
 *  - 2.6.33 keeps the mean per queue, capped the same, and loses the idle
 *    window at a wrap too, but the queue then sits alone on the sync-noidle
 *    service tree, and the last queue of a tree still idles
 *    (cfq_should_idle): it loses the rest of one slice per wrap. 4.19 counts
 *    seeks in a 32-request history (CFQQ_SEEKY: more than 4 of 32), and a
 *    wrap is one. Neither loses the ratio to the wraps.
 * The bounds are the mechanism's: the slice ratio 180:40 is 4.5.
 */
#include <stdio.h>
#include "harness.h"
#include "iosched/ios.h"

/* the read bandwidth of hi over lo, both BE, levels 0 and 7, 4 s on hdd-2009 */
static int ratio(const char *sched, const char *size, double *out)
{
	struct ios_run_config cfg = { .scheduler = sched, .seed = 1 };
	struct ios_run_result r;
	struct ios_jobfile jf;
	char job[512];
	uint64_t hi, lo;

	snprintf(job, sizeof(job),
		 "[global]\nrw=read\nbs=64k\ndirect=1\nioengine=psync\nsize=%s\nruntime=4\n"
		 "time_based\nprioclass=2\n[hi]\nprio=0\n[lo]\nprio=7\n", size);
	if (t_run_job("wrap.fio", job, &cfg, &jf, &r))
		return -1;
	hi = ios_job_dir(&r.jobs[0], IOS_DDIR_READ)->io_bytes;
	lo = ios_job_dir(&r.jobs[1], IOS_DDIR_READ)->io_bytes;
	*out = lo ? (double)hi / (double)lo : 0;
	printf("%-11s size=%-4s hi %4llu MiB, lo %4llu MiB: %.2f\n", sched, size,
	       (unsigned long long)(hi >> 20), (unsigned long long)(lo >> 20), *out);
	t_job_done(&jf, &r);
	return 0;
}

static int test_cfq_2631_wrap_is_a_seek(void)
{
	double big, mid, small;

	T_ASSERT_EQ(ratio("cfq", "1g", &big), 0);
	T_ASSERT_EQ(ratio("cfq", "64m", &mid), 0);
	T_ASSERT_EQ(ratio("cfq", "16m", &small), 0);
	/* no wrap, and a wrap too short to cross the threshold: the slice ratio */
	T_ASSERT_MSG(big >= 4.0, "1g: %.2f", big);
	T_ASSERT_MSG(small >= 4.0, "16m: %.2f", small);
	/* a wrap over 32 MiB: idling lost after each wrap */
	T_ASSERT_MSG(mid < 3.5, "64m: %.2f, want the ratio lost to the wraps", mid);
	return T_PASS;
}

static int test_later_profiles_keep_the_ratio(void)
{
	static const char *const scheds[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++) {
		double r;

		T_ASSERT_EQ(ratio(scheds[i], "64m", &r), 0);
		T_ASSERT_MSG(r >= 4.0, "%s 64m: %.2f", scheds[i], r);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_cfq_2631_wrap_is_a_seek, test_later_profiles_keep_the_ratio);
}
