/*
 * Description: mq-deadline's batches (Linux 6.12 and 6.6.y,
 * __dd_dispatch_request, deadline_from_pos). fifo_batch requests per batch
 * in one direction; reads win a new batch unless writes have waited
 * writes_starved times (compared as unsigned: a negative value lets reads
 * always win); the batch goes on from latest_pos, the START of the last
 * dispatched request, so a request inserted between it and the next one is
 * taken (2.6.31's next_rq would not); an expired FIFO head starts the next
 * batch, but never interrupts one; the first dispatch continues last_dir =
 * WRITE as dd_init_sched sets it; front merges look in the bio's level.
 * Fake clock (t_sq).
 */
#include "mqdl_util.h"

static int order_is(struct t_sq *s, uint64_t now, const uint64_t *sectors, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ios_request *rq = t_sq_dispatch(s, now);

		T_ASSERT_MSG(rq && rq->sector == sectors[i], "dispatch %zu: got %lld, want %llu",
			     i, rq ? (long long)rq->sector : -1LL,
			     (unsigned long long)sectors[i]);
	}
	return T_PASS;
}

static void fill(struct t_sq *s)
{
	for (int i = 1; i <= 4; i++)
		mq_ins(s, IOS_IOPRIO_CLASS_BE, (uint64_t)i * 100, IOS_READ, 0);
	for (int i = 0; i < 4; i++)
		mq_ins(s, IOS_IOPRIO_CLASS_BE, 1000 + (uint64_t)i * 100, IOS_WRITE, 0);
}

static int test_fifo_batch_and_writes_starved(void)
{
	static const uint64_t want[] = { 1000, 1100, 100, 200, 1200, 1300, 300, 400 };
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, "fifo_batch=2", "writes_starved=1", NULL);

	T_ASSERT(s);
	fill(s);
	/* last_dir starts as WRITE: the first two writes are a batch in progress */
	T_ASSERT_EQ(order_is(s, 0, want, 8), T_PASS);
	T_ASSERT_U64_EQ(mq_stat(s, "batches"), 3);
	t_sq_free(s);
	return T_PASS;
}

static int test_negative_writes_starved(void)
{
	static const uint64_t want[] = { 1000, 1100, 100, 200, 300, 400, 1200, 1300 };
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, "fifo_batch=2", "writes_starved=-1",
				  NULL);

	T_ASSERT(s);
	fill(s);
	T_ASSERT_EQ(order_is(s, 0, want, 8), T_PASS);
	t_sq_free(s);
	return T_PASS;
}

/* latest_pos: the first request at or after the last one's start sector. */
static int test_latest_pos(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);

	T_ASSERT(s);
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 0);
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 300, IOS_READ, 0);
	T_ASSERT(t_sq_dispatch(s, 0)->sector == 100);
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 50, IOS_READ, 1 * MS);	/* behind: later */
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 200, IOS_READ, 1 * MS);	/* ahead of 300 */
	T_ASSERT(t_sq_dispatch(s, 2 * MS)->sector == 200);
	T_ASSERT(t_sq_dispatch(s, 2 * MS)->sector == 300);
	/* off the end: a new batch from the FIFO head */
	T_ASSERT(t_sq_dispatch(s, 2 * MS)->sector == 50);
	t_sq_free(s);
	return T_PASS;
}

/*
 * An expired read at a low sector: the batch in progress runs to its
 * fifo_batch, then the next batch starts at the expired FIFO head.
 */
static struct t_sq *expiry_setup(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, "fifo_batch=2", "read_expire=10", NULL);

	if (!s)
		return NULL;
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 500, IOS_READ, 0);
	if (t_sq_dispatch(s, 0)->sector != 500)
		abort();
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 1 * MS);	/* deadline 11 ms */
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 600, IOS_READ, 2 * MS);
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 700, IOS_READ, 2 * MS);
	return s;
}

static int test_expiry_restarts_batch(void)
{
	struct t_sq *s = expiry_setup();

	T_ASSERT(s);
	/* expired at 11 ms, but the batch (500, 600) is not interrupted */
	T_ASSERT(t_sq_dispatch(s, 20 * MS)->sector == 600);
	T_ASSERT(t_sq_dispatch(s, 20 * MS)->sector == 100);
	T_ASSERT_U64_EQ(mq_stat(s, "expired_batches"), 1);
	T_ASSERT(t_sq_dispatch(s, 20 * MS)->sector == 700);
	t_sq_free(s);
	return T_PASS;
}

static int test_no_expiry_goes_on_in_order(void)
{
	struct t_sq *s = expiry_setup();

	T_ASSERT(s);
	T_ASSERT(t_sq_dispatch(s, 5 * MS)->sector == 600);
	T_ASSERT(t_sq_dispatch(s, 5 * MS)->sector == 700);
	T_ASSERT(t_sq_dispatch(s, 5 * MS)->sector == 100);
	T_ASSERT_U64_EQ(mq_stat(s, "expired_batches"), 0);
	t_sq_free(s);
	return T_PASS;
}

/* Front merges: a bio that ends where a request of its own level starts. */
static int test_front_merge_lookup(void)
{
	struct t_sq *s = t_sq_new("mq-deadline", 32, 1, NULL);
	struct ios_bio bio = { .sector = 92, .nr_sectors = 8, .dir = IOS_READ };
	struct ios_request *rq = NULL, *be;

	T_ASSERT(s);
	bio.ioc = s->ioc;
	be = mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 0);
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &rq), IOS_FRONT_MERGE);
	T_ASSERT(rq == be);
	/* an RT bio looks in the RT level's tree */
	bio.ioprio = IOS_IOPRIO_CLASS_RT << 13;
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &rq), IOS_NO_MERGE);
	t_sq_free(s);

	s = t_sq_new("mq-deadline", 32, 1, "front_merges=0", NULL);
	T_ASSERT(s);
	bio.ioprio = 0;
	bio.ioc = s->ioc;
	mq_ins(s, IOS_IOPRIO_CLASS_BE, 100, IOS_READ, 0);
	T_ASSERT_EQ(s->type->ops.bio_merge(&s->q, &bio, &rq), IOS_NO_MERGE);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_fifo_batch_and_writes_starved, test_negative_writes_starved,
		     test_latest_pos, test_expiry_restarts_batch, test_no_expiry_goes_on_in_order,
		     test_front_merge_lookup);
}
