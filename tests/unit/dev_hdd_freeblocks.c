/*
 * Description: "read any free blocks". When a read starts a little further
 * along the track the head has just finished on, the sectors in between pass
 * under the head and the drive keeps them, so a later read of that gap is a
 * cache hit. This is what lets a stream that hops over a filesystem's
 * indirect block stay at the media rate.
 */
#include <string.h>
#include "harness.h"

static struct ios_dev *d;
static uint64_t now;
static struct ios_request rqs[256];
static int nrq, outstanding;
static uint64_t done_at[256];

static struct ios_request *sub(uint64_t sec, uint32_t nr)
{
	struct ios_request *rq = &rqs[nrq++];

	memset(rq, 0, sizeof(*rq));
	rq->sector = sec;
	rq->nr_sectors = nr;
	rq->dir = IOS_READ;
	ios_list_init(&rq->dev_node);
	if (d->type->ops.submit(d, rq, now))
		abort();
	outstanding++;
	return rq;
}

static void wait_one(void)
{
	for (;;) {
		uint64_t n = d->type->ops.next_event(d);
		struct ios_request *rq;
		int got = 0;

		if (n == IOS_NO_WAKEUP)
			return;
		now = n;
		while ((rq = d->type->ops.complete(d, now)) != NULL) {
			done_at[rq - rqs] = now;
			outstanding--;
			got = 1;
		}
		if (got)
			return;
	}
}

static int test_gap_is_cached(void)
{
	struct ios_err e = { 0 };
	struct ios_request *gap;
	uint64_t s = 12880, t0;

	d = ios_dev_create("hdd-2009", NULL, 1, &e);
	T_ASSERT(d);
	/* a stream two deep, as readahead drives it */
	sub(s, 256);
	s += 256;
	sub(s, 256);
	s += 256;
	while (s < 20560) {
		wait_one();
		now += 3000;
		sub(s, 256);
		s += 256;
	}
	wait_one();
	now += 3000;
	/* hop 96 sectors ahead (over an indirect block's neighbourhood) */
	sub(20656, 8);
	wait_one();
	wait_one();
	now += 3000;
	t0 = now;
	gap = sub(20560, 96);
	while (outstanding)
		wait_one();
	/* the gap came from the cache: no revolution (8.3 ms) lost */
	T_ASSERT_MSG(done_at[gap - rqs] - t0 < 1000000, "gap read took %llu ns",
		     (unsigned long long)(done_at[gap - rqs] - t0));
	ios_dev_destroy(d);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_gap_is_cached);
}
