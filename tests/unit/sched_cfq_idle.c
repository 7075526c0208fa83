/*
 * Description: CFQ idling and the statistics behind it (spec cfq.md §7,
 * §11, §12, seed 000). When the active sync queue's last request completes
 * and it has an idle window, CFQ arms a slice_idle timer and keeps the
 * disk for it; when the timer fires with nothing queued the slice ends. A
 * request arriving meanwhile: a small one sets must_dispatch and leaves
 * the timer running (a fire then lets it go without expiring the slice), a
 * large one (> 4 KiB) or one with other queues busy cancels the timer.
 * Think time is a decaying mean (samples 0, 32, 60, 84: valid after 3)
 * capped at 2 * slice_idle; a mean above slice_idle loses the idle window.
 * Seekiness: 2.6.31/2.6.33 keep a decaying seek mean (clamped, threshold
 * 8192 sectors), 4.19 a 32-request history (seeky with more than 4 far
 * requests; on non-rotational devices, with more than 4 small ones). A
 * process's first request is no seek in every profile (2.6.30 onwards;
 * only 2.6.29 measured it from sector 0). 2.6.31 on queueing hardware drops the idle window of a
 * seeky queue unless fairness=1 (seed 000). hw_tag: 2.6.31 starts at 1 and
 * re-decides every 50 loaded samples; 2.6.33+ start at -1 and settle on 1
 * for good once 5 requests were in the driver.
 */
#include "sched_cfq_util.h"

static const char *const profiles[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

static int test_idle_timer_armed_and_fires(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		for (int sl = 8; sl >= 3; sl -= 5) {
			char set[32];
			struct t_sq *s;
			struct ios_request *r, *rq;

			snprintf(set, sizeof(set), "slice_idle=%d", sl);
			s = t_sq_new(profiles[p], 4, 1, set, NULL);
			T_ASSERT(s);
			cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
			cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
			r = cq_read(s, 1, 1000, 0);
			T_ASSERT(t_sq_dispatch(s, 0) == r);
			cq_read(s, 2, 90000000, 1 * MS);
			T_ASSERT(cq_wakeup(s) == IOS_NO_WAKEUP);
			cq_done(s, r, 5 * MS);
			T_ASSERT_MSG(cq_wakeup(s) == (5 + (uint64_t)sl) * MS, "%s: wakeup %" PRIu64,
				     profiles[p], cq_wakeup(s));
			T_ASSERT(cq_queue(s, 1, true)->flags & CFQ_QF_WAIT_REQUEST);
			/* idling: pid 2 waits although the disk is free */
			T_ASSERT(t_sq_dispatch(s, 6 * MS) == NULL);
			T_ASSERT_EQ(cq_active_pid(s), 1);
			/* the timer fires with nothing queued: the slice ends */
			cq_timer(s, (5 + (uint64_t)sl) * MS);
			T_ASSERT(cq_active_pid(s) != 1);
			rq = t_sq_dispatch(s, (5 + (uint64_t)sl) * MS);
			T_ASSERT(rq && rq->ioc->pid == 2);
			cq_free(s);
		}
	}
	return T_PASS;
}

static int test_no_idle_window_no_timer(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 4, 1, "slice_idle=0", NULL);
		struct ios_request *r;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
		r = cq_read(s, 1, 1000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_read(s, 2, 90000000, 1 * MS);
		cq_done(s, r, 5 * MS);
		T_ASSERT(cq_wakeup(s) == IOS_NO_WAKEUP);
		r = t_sq_dispatch(s, 5 * MS);
		T_ASSERT(r && r->ioc->pid == 2);
		cq_free(s);
	}
	return T_PASS;
}

/* pid 1 alone (or with pid 2 busy), idling since 5 ms; a @nr-sector read arrives at 7 ms */
static struct t_sq *arrival(const char *prof, bool others, uint32_t nr)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);
	struct ios_request *r;

	if (!s)
		return NULL;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	r = cq_read(s, 1, 1000, 0);
	if (t_sq_dispatch(s, 0) != r)
		return NULL;
	if (others)
		cq_read(s, 2, 90000000, 1 * MS);
	cq_done(s, r, 5 * MS);
	if (cq_wakeup(s) != 13 * MS)
		return NULL;
	cq_ins(s, t_ioc(1), 1008, nr, IOS_READ, 0, 7 * MS);
	return s;
}

static int test_request_while_idling(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s;
		struct cfq_queue *q;
		struct ios_request *rq;

		/* small, nobody else: must_dispatch, the timer runs on */
		s = arrival(profiles[p], false, 8);
		T_ASSERT(s);
		q = cq_queue(s, 1, true);
		T_ASSERT(q->flags & CFQ_QF_MUST_DISPATCH);
		T_ASSERT(q->flags & CFQ_QF_WAIT_REQUEST);
		T_ASSERT_U64_EQ(cq_wakeup(s), 13 * MS);
		/* the timer fires: the request goes, the slice goes on */
		cq_timer(s, 13 * MS);
		T_ASSERT_EQ(cq_active_pid(s), 1);
		rq = t_sq_dispatch(s, 13 * MS);
		T_ASSERT(rq && rq->ioc->pid == 1);
		cq_free(s);

		/* larger than a page: the timer is cancelled, it goes at once */
		s = arrival(profiles[p], false, 16);
		T_ASSERT(s);
		q = cq_queue(s, 1, true);
		T_ASSERT_U64_EQ(cq_wakeup(s), IOS_NO_WAKEUP);
		/* 2.6.31 forgets to clear wait_request (and always sets must_dispatch) */
		if (p == 0)
			T_ASSERT((q->flags & CFQ_QF_WAIT_REQUEST) && (q->flags & CFQ_QF_MUST_DISPATCH));
		else
			T_ASSERT(!(q->flags & (CFQ_QF_WAIT_REQUEST | CFQ_QF_MUST_DISPATCH)));
		rq = t_sq_dispatch(s, 7 * MS);
		T_ASSERT(rq && rq->ioc->pid == 1);
		cq_free(s);

		/* small, but another queue is busy: cancelled as well */
		s = arrival(profiles[p], true, 8);
		T_ASSERT(s);
		T_ASSERT_U64_EQ(cq_wakeup(s), IOS_NO_WAKEUP);
		rq = t_sq_dispatch(s, 7 * MS);
		T_ASSERT(rq && rq->ioc->pid == 1);
		cq_free(s);
	}
	return T_PASS;
}

/* pid 1 reads sequentially, each read @think ms after the previous completed */
static struct t_sq *thinker(const char *prof, uint64_t think, int n, uint64_t *now)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);

	if (!s)
		return NULL;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	*now = 10 * MS;
	for (int i = 0; i < n; i++) {
		struct ios_request *r = cq_read(s, 1, 1000 + 8 * (uint64_t)i, *now);

		if (t_sq_dispatch(s, *now) != r)
			return NULL;
		*now += MS;
		cq_done(s, r, *now);
		*now += think * MS;
		cq_timer(s, *now);
	}
	return s;
}

static int test_think_time_samples(void)
{
	static const uint64_t samples[] = { 32, 60, 84, 105 };

	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		for (int n = 1; n <= 4; n++) {
			uint64_t now;
			struct t_sq *s = thinker(profiles[p], 4, n, &now);
			struct cfq_io_cq *cic;

			T_ASSERT(s);
			cic = cq_cic(s, 1);
			T_ASSERT_MSG(cic->ttime.samples == samples[n - 1], "%s after %d: %" PRIu64,
				     profiles[p], n, cic->ttime.samples);
			if (n == 2) {
				/* samples: 0 ms (a new context), then 4 ms */
				T_ASSERT_U64_EQ(cic->ttime.total, (7 * 0 + 256 * 4 * MS) / 8);
				T_ASSERT_U64_EQ(cic->ttime.mean, (cic->ttime.total + 128) / 60);
			}
			cq_free(s);
		}
	}
	return T_PASS;
}

/* A process's first request: think time counts from then, not from the last hook. */
static int test_first_think_time_is_zero(void)
{
	struct t_rig *r = t_rig_new("cfq", 1, 1, NULL);
	struct cfq_io_cq *cic;

	T_ASSERT(r);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	t_submit(r, t_ioc(1), 1000, 8, IOS_READ, 0, 0, NULL);
	t_complete_next(r, 1 * MS);
	t_fire_timer(r, 9 * MS);
	/* pid 2 appears 50 ms later */
	t_submit(r, t_ioc(2), 90000000, 8, IOS_READ, 0, 59 * MS, NULL);
	cic = t_ioc(2)->icq[0];
	T_ASSERT(cic);
	T_ASSERT_U64_EQ(cic->ttime.samples, 32);
	T_ASSERT_U64_EQ(cic->ttime.total, 0);
	t_rig_free(r);
	return T_PASS;
}

static int test_think_time_drops_idle_window(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		uint64_t now;
		struct t_sq *s;
		struct ios_request *r;

		/*
		 * 12 ms think time > slice_idle: samples 0 and 12 ms are not
		 * enough (2 samples), the third read makes them valid (mean 8.6 ms)
		 * and takes the window away.
		 */
		s = thinker(profiles[p], 12, 2, &now);
		T_ASSERT(s);
		T_ASSERT(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW);
		r = cq_read(s, 1, 5000, now);
		T_ASSERT_MSG(!(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW),
			     "%s: mean %" PRIu64, profiles[p], cq_cic(s, 1)->ttime.mean);
		T_ASSERT(t_sq_dispatch(s, now) == r);
		cq_done(s, r, now + MS);
		/* 2.6.33+ still idle on the last queue of a tree; 2.6.31 does not */
		if (p == 0)
			T_ASSERT(cq_wakeup(s) == IOS_NO_WAKEUP);
		cq_free(s);

		/* 2 ms: kept */
		s = thinker(profiles[p], 2, 4, &now);
		T_ASSERT(s);
		T_ASSERT(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW);
		cq_free(s);
	}
	return T_PASS;
}

/* The spec's decaying seek mean, 2.6.31/2.6.33. */
struct seek_ref {
	uint64_t samples, total, mean;
};

static void seek_ref_add(struct seek_ref *r, uint64_t sdist)
{
	uint64_t lim = 4 * r->mean + (r->samples <= 60 ? 2 * 1024 * 1024 : 2 * 1024 * 64);

	if (sdist > lim)
		sdist = lim;
	r->samples = (7 * r->samples + 256) / 8;
	r->total = (7 * r->total + 256 * sdist) / 8;
	r->mean = (r->total + r->samples / 2) / r->samples;
}

static int test_seek_mean(void)
{
	static const char *const prof[] = { "cfq", "cfq-2.6.33" };
	static const uint64_t pos[] = { 300000000, 300000008, 310000000, 300000016, 300020000,
					 300020008, 300020016, 320000000, 300020024, 300020032 };

	for (size_t p = 0; p < IOS_ARRAY_SIZE(prof); p++) {
		struct t_sq *s = t_sq_new(prof[p], 64, 1, NULL);
		struct seek_ref ref = { 0, 0, 0 };
		uint64_t last = 0;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		for (size_t i = 0; i < IOS_ARRAY_SIZE(pos); i++) {
			uint64_t sd, mean;

			cq_read(s, 1, pos[i], 0);
			/* first request: no seek */
			sd = !last ? 0 : (pos[i] > last ? pos[i] - last : last - pos[i]);
			seek_ref_add(&ref, sd);
			last = pos[i] + 8;
			mean = p == 0 ? cq_cic(s, 1)->seek_mean : cq_queue(s, 1, true)->seek_mean;
			T_ASSERT_MSG(mean == ref.mean, "%s request %zu: mean %" PRIu64 ", want %" PRIu64,
				     prof[p], i, mean, ref.mean);
		}
		cq_free(s);
	}
	return T_PASS;
}

/*
 * A process's first request is no seek in every CFQ profile registered:
 * cfq_update_io_seektime tests !cic->last_request_pos in 2.6.30 and 2.6.31
 * (the queue's in 2.6.33) and measures only from a known position in 4.19.
 * 2.6.29 measured the first request from sector 0; no profile here is
 * 2.6.29, and the name cfq-2.6.31-rc7 (which did that) is gone: 2.6.31-rc7's
 * CFQ is 2.6.31's.
 */
static int test_first_request_no_seek(void)
{
	int n = 0;

	for (size_t i = 0; ios_sched_at(i); i++) {
		const char *name = ios_sched_at(i)->name;
		struct t_sq *s;

		if (strncmp(name, "cfq", 3))
			continue;
		s = t_sq_new(name, 64, 1, NULL);
		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 0);
		cq_read(s, 1, 400000000, 0);
		switch (cq_data(s)->prof->seek) {
		case CFQ_SEEK_CIC_MEAN:
			T_ASSERT_MSG(cq_cic(s, 1)->seek_total == 0, "%s: first read counted as a seek",
				     name);
			break;
		case CFQ_SEEK_QUEUE_MEAN:
			T_ASSERT_MSG(cq_queue(s, 1, true)->seek_total == 0,
				     "%s: first read counted as a seek", name);
			break;
		case CFQ_SEEK_HISTORY:
			T_ASSERT_MSG(cq_queue(s, 1, true)->seek_history == 0,
				     "%s: first read counted as a seek", name);
			break;
		}
		/* on hw_tag hardware a seeky first read would have cost the window */
		T_ASSERT_MSG(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW, "%s", name);
		cq_free(s);
		n++;
	}
	T_ASSERT_EQ(n, 3);	/* cfq (2.6.31), cfq-2.6.33, cfq-4.19 */
	T_ASSERT(!ios_sched_find("cfq-2.6.31-rc7"));
	return T_PASS;
}

/* Seeky from a mean above 8192 sectors: 2.6.31 drops the idle window on hw_tag hardware. */
static int test_seek_threshold_2631(void)
{
	/*
	 * Samples settle at 249, not 256, so a steady distance d gives a mean
	 * of about d * 256 / 249: 7900 stays below the threshold, 8100 not.
	 */
	for (uint64_t d = 7900; d <= 8100; d += 200) {
		struct t_sq *s = t_sq_new("cfq", 64, 1, NULL);
		bool seeky = d > 8000;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		/* every read d sectors after the end of the previous one */
		for (int i = 0; i < 60; i++)
			cq_read(s, 1, 1000 + (uint64_t)i * (d + 8), 0);
		T_ASSERT_MSG((cq_cic(s, 1)->seek_mean > 8192) == seeky, "d=%" PRIu64 ": mean %" PRIu64,
			     d, cq_cic(s, 1)->seek_mean);
		T_ASSERT_EQ(!!(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW), !seeky);
		cq_free(s);
	}
	return T_PASS;
}

/* 4.19: seeky when more than 4 of the last 32 requests were. */
static int test_seek_history_419(void)
{
	for (int far = 4; far <= 5; far++) {
		struct t_sq *s = t_sq_new("cfq-4.19", 64, 1, NULL);
		uint64_t pos = 1000;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		for (int i = 0; i < 32; i++) {
			/* 801 sectors past the previous end is far, 800 is not */
			struct ios_request *r;

			pos += 8 + (i >= 1 && i <= far ? 801 : 800);	/* the first is no seek */
			/* one at a time: a queue with 4 queued is "deep" and keeps its window */
			r = cq_read(s, 1, pos, (uint64_t)i * MS);
			T_ASSERT(t_sq_dispatch(s, (uint64_t)i * MS) == r);
			cq_done(s, r, (uint64_t)i * MS + 100 * US);
		}
		T_ASSERT_EQ(__builtin_popcount(cq_queue(s, 1, true)->seek_history), far);
		T_ASSERT_EQ(!!(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW), far <= 4);
		cq_free(s);
	}
	/* non-rotational: requests under 64 sectors count, whatever the distance */
	for (uint32_t nr = 56; nr <= 64; nr += 8) {
		struct t_sq *s = t_sq_new("cfq-4.19", 64, 0, "slice_idle=8", NULL);

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		for (int i = 0; i < 8; i++)
			cq_ins(s, t_ioc(1), 1000 + (uint64_t)i * nr, nr, IOS_READ, 0, 0);
		T_ASSERT_EQ(__builtin_popcount(cq_queue(s, 1, true)->seek_history), nr < 64 ? 8 : 0);
		cq_free(s);
	}
	return T_PASS;
}

/*
 * Seed 000: a sequential reader far into the disk keeps its idle window on
 * hw_tag hardware with fairness 0 or 1: its first read is no seek.
 */
static int fairness_case(const char *prof, const char *set)
{
	struct t_sq *s = t_sq_new(prof, 64, 1, set, NULL);
	int idle;

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 0);
	if (cq_data(s)->hw_tag != 1)
		return -2;
	cq_read(s, 1, 400000000, 0);
	cq_read(s, 1, 400000008, 0);
	idle = !!(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW);
	cq_free(s);
	return idle;
}

static int test_fairness_tunable(void)
{
	T_ASSERT_EQ(fairness_case("cfq", NULL), 1);
	T_ASSERT_EQ(fairness_case("cfq", "fairness=0"), 1);
	T_ASSERT_EQ(fairness_case("cfq", "fairness=1"), 1);
	return T_PASS;
}

/* A truly seeky reader in 2.6.31: fairness decides; with hw_tag 0 it keeps its window anyway. */
static int test_fairness_needs_hw_tag(void)
{
	for (int fair = 0; fair <= 1; fair++) {
		for (int hw = 0; hw <= 1; hw++) {
			struct t_sq *s = t_sq_new("cfq", 64, 1, fair ? "fairness=1" : "fairness=0",
						  NULL);

			T_ASSERT(s);
			cq_data(s)->hw_tag = hw;
			cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
			for (int i = 0; i < 8; i++)
				cq_read(s, 1, 1000 + (uint64_t)(i % 2) * 90000000 + 8 * (uint64_t)i, 0);
			T_ASSERT(cq_cic(s, 1)->seek_mean > 8192);
			T_ASSERT_EQ(!!(cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW),
				    fair || !hw);
			cq_free(s);
		}
	}
	return T_PASS;
}

/* Requests in the device between calls of hw_tag_after. */
struct inflight {
	struct ios_request *rq[64];
	unsigned k;
	uint64_t now;
};

/*
 * Keep up to @depth of pid 1's 400 reads in the device, completing the oldest
 * each step, for @n completions. Returns hw_tag.
 */
static int hw_tag_after(struct t_sq *s, struct inflight *f, unsigned depth, int n)
{
	for (int done = 0; done < n; done++) {
		struct ios_request *rq;

		while (f->k < depth && (rq = t_sq_dispatch(s, f->now)) != NULL)
			f->rq[f->k++] = rq;
		if (!f->k)
			return -100;
		f->now += MS;
		cq_done(s, f->rq[0], f->now);
		memmove(f->rq, f->rq + 1, --f->k * sizeof(*f->rq));
	}
	return cq_data(s)->hw_tag;
}

static struct t_sq *deep_reader(const char *prof)
{
	struct t_sq *s = t_sq_new(prof, 64, 1, NULL);

	if (!s)
		return NULL;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	for (int i = 0; i < 400; i++)
		cq_read(s, 1, 1000 + 8 * (uint64_t)i, 0);
	return s;
}

static int test_hw_tag_2631(void)
{
	struct inflight f = { .k = 0, .now = 0 };
	struct t_sq *s = deep_reader("cfq");

	T_ASSERT(s);
	T_ASSERT_EQ(cq_data(s)->hw_tag, 1);
	/* one at a time under load: after 50 samples the 51st decides 0 */
	T_ASSERT_EQ(hw_tag_after(s, &f, 1, 50), 1);
	T_ASSERT_EQ(hw_tag_after(s, &f, 1, 1), 0);
	/* and it is decided again: 8 deep for the next 51 samples */
	T_ASSERT_EQ(hw_tag_after(s, &f, 8, 50), 0);
	T_ASSERT_EQ(hw_tag_after(s, &f, 8, 1), 1);
	/* the peak starts again with each window: the next one still drains 7 */
	T_ASSERT_EQ(hw_tag_after(s, &f, 1, 51), 1);
	T_ASSERT_EQ(hw_tag_after(s, &f, 1, 51), 0);
	cq_free(s);
	return T_PASS;
}

static int test_hw_tag_2633_419(void)
{
	static const char *const prof[] = { "cfq-2.6.33", "cfq-4.19" };

	for (size_t p = 0; p < 2; p++) {
		struct inflight f = { .k = 0, .now = 0 };
		struct t_sq *s = deep_reader(prof[p]);

		T_ASSERT(s);
		T_ASSERT_EQ(cq_data(s)->hw_tag, -1);
		/* 8 deep: 1 after the 51st sample, and it stays 1 */
		T_ASSERT_EQ(hw_tag_after(s, &f, 8, 50), -1);
		T_ASSERT_EQ(hw_tag_after(s, &f, 8, 1), 1);
		T_ASSERT_EQ(hw_tag_after(s, &f, 1, 60), 1);
		cq_free(s);

		/* one at a time: 0 after 51 samples, and 1 as soon as it goes deep */
		memset(&f, 0, sizeof(f));
		s = deep_reader(prof[p]);
		T_ASSERT(s);
		T_ASSERT_EQ(hw_tag_after(s, &f, 1, 51), 0);
		T_ASSERT_EQ(hw_tag_after(s, &f, 8, 1), 1);
		cq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_idle_timer_armed_and_fires, test_no_idle_window_no_timer,
		     test_request_while_idling, test_think_time_samples,
		     test_first_think_time_is_zero, test_think_time_drops_idle_window, test_seek_mean,
		     test_first_request_no_seek,
		     test_seek_threshold_2631, test_seek_history_419, test_fairness_tunable,
		     test_fairness_needs_hw_tag, test_hw_tag_2631, test_hw_tag_2633_419);
}
