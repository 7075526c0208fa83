/*
 * Description: deadline's latency bounds in two scenarios, driven directly
 * with a fake clock and a device that serves one request per millisecond.
 * (1) A stream of reads that always has a next request just above the head
 * keeps the sector walk away from one far read; that read is held back
 * until its deadline, then served within read_expire plus one batch.
 * (2) Under an endless stream of reads a single write leaves after at most
 * writes_starved more read batches, whatever write_expire says.
 * (3) Scenario 1 again through the block layer, with read_expire=250.
 */
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)
#define US ((uint64_t)IOS_NSEC_PER_USEC)
#define FAR_SECTOR 1000000000ULL

/*
 * Reads at ascending low sectors arrive every 500 us; the device takes one
 * request per ms, so the backlog ahead of the walk only grows. The far read
 * arrives at 5 ms. Returns its wait in ns, or 0 if it never left.
 */
static uint64_t far_read_wait(int read_expire_ms, int fifo_batch)
{
	char re[48], fb[48];
	struct t_sq *s;
	uint64_t next_arrival = 0, next_service = 0, sector = 0, wait = 0;
	struct ios_request *far = NULL;

	snprintf(re, sizeof(re), "read_expire=%d", read_expire_ms);
	snprintf(fb, sizeof(fb), "fifo_batch=%d", fifo_batch);
	s = t_sq_new("deadline", 1, true, re, fb, NULL);
	if (!s)
		return 0;
	for (uint64_t now = 0; now < 20 * (uint64_t)read_expire_ms * MS + 100 * MS;
	     now += 500 * US) {
		if (now == next_arrival) {
			t_sq_insert(s, sector, 8, IOS_READ, now);
			sector += 16;
			next_arrival += 500 * US;
		}
		if (now == 5 * MS)
			far = t_sq_insert(s, FAR_SECTOR, 8, IOS_READ, now);
		if (now == next_service) {
			struct ios_request *rq = t_sq_dispatch(s, now);

			if (rq) {
				t_sq_complete(s, rq, now + MS);
				if (rq == far) {
					wait = now - rq->insert_ns;
					break;
				}
			}
			next_service += MS;
		}
	}
	t_sq_free(s);
	return wait;
}

static int test_far_read_served_after_expiry(void)
{
	static const int conf[][2] = { { 500, 16 }, { 250, 16 }, { 100, 4 }, { 50, 1 } };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(conf); i++) {
		uint64_t expire = (uint64_t)conf[i][0] * MS;
		uint64_t batch = (uint64_t)conf[i][1] * MS;	/* one batch of dispatches */
		uint64_t wait = far_read_wait(conf[i][0], conf[i][1]);

		T_ASSERT_MSG(wait > expire && wait <= expire + batch,
			     "read_expire=%d fifo_batch=%d: far read waited %" PRIu64
			     " us, want (%" PRIu64 ", %" PRIu64 "]",
			     conf[i][0], conf[i][1], wait / US, expire / US, (expire + batch) / US);
	}
	return T_PASS;
}

/*
 * Reads arrive faster than they are served; one write arrives at @arrive_ms.
 * Returns how many reads left between the write's arrival and the write.
 */
static int reads_before_write(int writes_starved, int fifo_batch, uint64_t arrive_ms)
{
	char ws[48], fb[48];
	struct t_sq *s;
	uint64_t sector = 0;
	struct ios_request *w = NULL;
	int reads = -1;

	snprintf(ws, sizeof(ws), "writes_starved=%d", writes_starved);
	snprintf(fb, sizeof(fb), "fifo_batch=%d", fifo_batch);
	/* expiry never helps the write here: write_expire is an hour */
	s = t_sq_new("deadline", 1, true, ws, fb, "write_expire=3600000", NULL);
	if (!s)
		return -1;
	for (uint64_t now = 0; now < 10000 * MS; now += MS) {
		struct ios_request *rq;

		t_sq_insert(s, sector, 8, IOS_READ, now);
		t_sq_insert(s, sector + 16, 8, IOS_READ, now);
		sector += 32;
		if (now == arrive_ms * MS) {
			w = t_sq_insert(s, 7, 8, IOS_WRITE, now);
			reads = 0;
		}
		rq = t_sq_dispatch(s, now);
		if (!rq)
			break;
		t_sq_complete(s, rq, now + MS);
		if (rq == w)
			break;
		if (w)
			reads++;
	}
	t_sq_free(s);
	return reads;
}

static int test_write_starvation_bound(void)
{
	static const int conf[][2] = { { 2, 16 }, { 1, 4 }, { 5, 8 }, { 0, 16 }, { 3, 1 } };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(conf); i++) {
		int ws = conf[i][0], fb = conf[i][1];

		/* arrive at every offset within a batch */
		for (uint64_t arrive = 40; arrive < 40 + (uint64_t)fb; arrive++) {
			int n = reads_before_write(ws, fb, arrive);

			/* what is left of the running batch, plus ws full read batches */
			T_ASSERT_MSG(n >= ws * fb && n < (ws + 1) * fb,
				     "writes_starved=%d fifo_batch=%d arrival %" PRIu64
				     " ms: %d reads before the write, want [%d, %d)",
				     ws, fb, arrive, n, ws * fb, (ws + 1) * fb);
		}
	}
	return T_PASS;
}

/*
 * The same stream through the block layer: bios every 500 us (with gaps, so
 * they do not merge), a device that completes one request per ms.
 */
static int test_rig_far_read(void)
{
	struct t_rig *r = t_rig_new("deadline", 1, true, "read_expire=250", NULL);
	struct ios_ioc *ioc = t_ioc(1);
	uint64_t sector = 0, issued_at = 0;
	struct ios_bio *far = NULL;

	T_ASSERT(r);
	for (uint64_t now = 0; now < 400 * MS && !issued_at; now += 500 * US) {
		t_submit(r, ioc, sector, 8, IOS_READ, 0, now, NULL);
		sector += 16;
		if (now == 5 * MS)
			far = t_submit(r, ioc, FAR_SECTOR, 8, IOS_READ, 0, now, NULL);
		if (now % MS == 0 && now)
			t_complete_next(r, now);
		for (size_t i = 0; i < r->nr_issued; i++)
			if (r->issued[i] && r->issued[i]->bio == far && far)
				issued_at = r->issued[i]->dispatch_ns;
	}
	T_ASSERT(far);
	T_ASSERT_MSG(issued_at > 255 * MS && issued_at <= 255 * MS + 16 * MS,
		     "far read issued at %" PRIu64 " us, want (255000, 271000]", issued_at / US);
	t_rig_free(r);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_far_read_served_after_expiry, test_write_starvation_bound,
		     test_rig_far_read);
}
