/*
 * Description: which request a CFQ queue serves next (spec cfq.md §5). From
 * the head position (the end of the last dispatched request): the shorter
 * seek wins, a backward seek counting back_seek_penalty (2) times, so a
 * short backward seek beats a longer forward one; a request further behind
 * than back_seek_max (16 MiB) "wraps" and loses to any other, and of two
 * wrapped ones the lower goes first; equal distances go to the higher
 * sector. Metadata goes before data (REQ_META in 2.6.x, REQ_PRIO in 4.19).
 * The FIFO is looked at once per slice: an expired request (125 ms sync,
 * 250 ms async) jumps the sector order once, and later expired requests of
 * the same slice wait for their turn in sector order. From 2.6.33 on, any
 * dispatch (a FIFO one too) re-derives the next request from the one
 * dispatched; 2.6.31 keeps its next_rq.
 *
 * Not testable through the hooks: choose_req's sync-before-async rule,
 * since a CFQ queue never holds both kinds (reads and sync writes go to
 * the process's sync queue, buffered writes to the shared async queue).
 */
#include "sched_cfq_util.h"

static const char *const profiles[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

#define HEAD 100000ULL	/* where the first request leaves the head */

/*
 * Pid 1 reads 8 sectors ending at HEAD; while it is in the device, two
 * more requests at @s1 and @s2 arrive. Returns the sector served next.
 */
static int64_t next_after(const char *prof, const char *set, uint64_t s1, uint64_t s2,
			  uint32_t f1, uint32_t f2)
{
	struct t_sq *s = t_sq_new(prof, 1, 1, set, NULL);
	struct ios_request *r0, *rq;
	int64_t sector;

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	r0 = cq_read(s, 1, HEAD - 8, 0);
	if (t_sq_dispatch(s, 0) != r0)
		return -2;
	cq_ins(s, t_ioc(1), s1, 8, IOS_READ, f1, 1 * MS);
	cq_ins(s, t_ioc(1), s2, 8, IOS_READ, f2, 1 * MS);
	cq_done(s, r0, 2 * MS);
	rq = t_sq_dispatch(s, 2 * MS);
	sector = rq ? (int64_t)rq->sector : -3;
	cq_free(s);
	return sector;
}

static int test_back_seek(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		const char *pr = profiles[p];

		/* 400 sectors back count 800: beats 1000 forward, loses to 700 */
		T_ASSERT_EQ(next_after(pr, NULL, HEAD + 1000, HEAD - 400, 0, 0), HEAD - 400);
		T_ASSERT_EQ(next_after(pr, NULL, HEAD - 400, HEAD + 1000, 0, 0), HEAD - 400);
		T_ASSERT_EQ(next_after(pr, NULL, HEAD + 700, HEAD - 400, 0, 0), HEAD + 700);
		/* a tie (800 either way) goes to the higher sector */
		T_ASSERT_EQ(next_after(pr, NULL, HEAD - 400, HEAD + 800, 0, 0), HEAD + 800);
		/* penalty 1: a backward seek counts as it is */
		T_ASSERT_EQ(next_after(pr, "back_seek_penalty=1", HEAD + 1200, HEAD - 1000, 0, 0),
			    HEAD - 1000);
		T_ASSERT_EQ(next_after(pr, NULL, HEAD + 1200, HEAD - 1000, 0, 0), HEAD + 1200);
		/* beyond back_seek_max (32768 sectors) it wraps: any forward one wins */
		T_ASSERT_EQ(next_after(pr, NULL, HEAD + 500000, HEAD - 40000, 0, 0), HEAD + 500000);
		/* exactly back_seek_max behind still counts as a (penalised) back seek */
		T_ASSERT_EQ(next_after(pr, NULL, HEAD + 65537, HEAD - 32768, 0, 0), HEAD - 32768);
		T_ASSERT_EQ(next_after(pr, NULL, HEAD + 65536, HEAD - 32768, 0, 0), HEAD + 65536);
		/* a larger back_seek_max brings it back in */
		T_ASSERT_EQ(next_after(pr, "back_seek_max=32768", HEAD + 500000, HEAD - 40000, 0, 0),
			    HEAD - 40000);
		/* both wrap: the lower one, so that only one long backward seek is needed */
		T_ASSERT_EQ(next_after(pr, NULL, HEAD - 40000, HEAD - 90000, 0, 0), HEAD - 90000);
		T_ASSERT_EQ(next_after(pr, NULL, HEAD - 90000, HEAD - 40000, 0, 0), HEAD - 90000);
	}
	return T_PASS;
}

static int test_meta_first(void)
{
	/* 2.6.x: REQ_META; the far metadata read goes before the near data read */
	T_ASSERT_EQ(next_after("cfq", NULL, HEAD + 8, HEAD + 900000, 0, IOS_REQ_META),
		    HEAD + 900000);
	T_ASSERT_EQ(next_after("cfq-2.6.33", NULL, HEAD + 900000, HEAD + 8, IOS_REQ_META, 0),
		    HEAD + 900000);
	/* 2.6.x ignore REQ_PRIO; 4.19 uses it instead of REQ_META */
	T_ASSERT_EQ(next_after("cfq", NULL, HEAD + 8, HEAD + 900000, 0, IOS_REQ_PRIO), HEAD + 8);
	T_ASSERT_EQ(next_after("cfq-4.19", NULL, HEAD + 8, HEAD + 900000, 0, IOS_REQ_PRIO),
		    HEAD + 900000);
	T_ASSERT_EQ(next_after("cfq-4.19", NULL, HEAD + 8, HEAD + 900000, 0, IOS_REQ_META),
		    HEAD + 8);
	return T_PASS;
}

/*
 * X (far, queued at 0 ms), Z (farther, at 1 ms) and N (just after X, at
 * 10 ms) from one process; the queue is first served at @at. Writes the
 * first two sectors served.
 */
static int fifo_run(const char *prof, int dir, uint64_t at, uint64_t out[2])
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);

	if (!s)
		return -1;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ins(s, t_ioc(1), 5000000, 8, dir, 0, 0);
	cq_ins(s, t_ioc(1), 6000000, 8, dir, 0, 1 * MS);
	cq_ins(s, t_ioc(1), 1000, 8, dir, 0, 10 * MS);
	for (int i = 0; i < 2; i++) {
		struct ios_request *rq = t_sq_dispatch(s, at);

		if (!rq)
			return -2;
		out[i] = rq->sector;
	}
	cq_free(s);
	return 0;
}

static int test_fifo_expiry(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		uint64_t o[2];

		/* nothing expired at 100 ms: sector order from the head at 0 */
		T_ASSERT_EQ(fifo_run(profiles[p], IOS_READ, 100 * MS, o), 0);
		T_ASSERT_MSG(o[0] == 1000 && o[1] == 5000000, "%s: %" PRIu64 " %" PRIu64,
			     profiles[p], o[0], o[1]);
		/* at 200 ms X (queued at 0) is past 125 ms: it jumps the sector order */
		T_ASSERT_EQ(fifo_run(profiles[p], IOS_READ, 200 * MS, o), 0);
		T_ASSERT_MSG(o[0] == 5000000, "%s: first %" PRIu64, profiles[p], o[0]);
	}
	return T_PASS;
}

/*
 * X (0 ms), Z (1 ms) and N (10 ms) are expired at 200 ms, W (150 ms) is
 * not. The FIFO gives X; the second dispatch of the slice does not look at
 * the FIFO again (it would give Z) but takes next_rq: in 2.6.31 still N,
 * the best from the head before X; in 2.6.33+ the request after X (W),
 * since dispatching any request re-derives next_rq from it.
 */
static int test_fifo_checked_once(void)
{
	static const uint64_t second[] = { 1000, 5000016, 5000016 };

	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 4, 1, NULL);
		struct ios_request *rq;

		T_ASSERT(s);
		cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
		cq_read(s, 1, 5000000, 0);		/* X */
		cq_read(s, 1, 6000000, 1 * MS);		/* Z */
		cq_read(s, 1, 1000, 10 * MS);		/* N */
		cq_read(s, 1, 5000016, 150 * MS);	/* W */
		rq = t_sq_dispatch(s, 200 * MS);
		T_ASSERT(rq && rq->sector == 5000000);
		rq = t_sq_dispatch(s, 200 * MS);
		T_ASSERT_MSG(rq && rq->sector == second[p], "%s: second %" PRIu64, profiles[p],
			     rq ? rq->sector : 0);
		cq_free(s);
	}
	return T_PASS;
}

static int test_fifo_expire_async(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		uint64_t o[2];

		/* async requests expire after 250 ms: at 200 ms still sector order */
		T_ASSERT_EQ(fifo_run(profiles[p], IOS_WRITE, 200 * MS, o), 0);
		T_ASSERT_MSG(o[0] == 1000, "%s: %" PRIu64, profiles[p], o[0]);
		T_ASSERT_EQ(fifo_run(profiles[p], IOS_WRITE, 260 * MS, o), 0);
		T_ASSERT_MSG(o[0] == 5000000, "%s: %" PRIu64, profiles[p], o[0]);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_back_seek, test_meta_first, test_fifo_expiry,
		     test_fifo_checked_once, test_fifo_expire_async);
}
