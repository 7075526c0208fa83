/*
 * Description: kyber-6.12's tokens (Linux 6.12 block/kyber-iosched.c). A
 * request reaches the device only with a token of its domain
 * (kyber_get_domain_token); a domain whose pool is used up waits while the
 * others go on, and a completion that frees a token (kyber_finish_request,
 * also on requeue) lets it go again. The pools are the device's, shared by
 * every hardware queue. Until it has a token a request stays on its CPU's
 * list, where bios from that CPU merge into it (kyber_bio_merge: the last
 * 8 requests of the bio's domain); taking a token moves the domain's
 * waiting requests to the hardware queue, out of merge reach. Async
 * allocations may use 75 % of each sbitmap word of scheduler tags
 * (kyber_limit_depth, kyber_depth_updated).
 */
#include "sched_kyber_util.h"

/* A READ pool of 256: the 257th read waits, writes go on, a completion releases it. */
static int test_domain_waits_for_token(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	struct ios_request *held[256], *last, *w, *rq;

	T_ASSERT_EQ(ky_stat(s, "read_tokens"), 256);
	for (unsigned i = 0; i < 257; i++)
		ky_insert(s, 1000 + 16 * i, 8, IOS_READ, 0, 0);
	for (unsigned i = 0; i < 256; i++) {
		held[i] = ky_dispatch(s, 0, 1);
		T_ASSERT(held[i] && held[i]->dir == IOS_READ);
	}
	T_ASSERT_EQ(ky_stat(s, "read_used"), 256);
	T_ASSERT(ky_dispatch(s, 0, 2) == NULL);
	T_ASSERT(ky_stat(s, "throttled") > 0);
	/* still work: the read waits on its CPU's list */
	T_ASSERT(ky_mo(s)->has_work_hctx(&s->q, 0));
	/* WRITE has its own pool */
	w = ky_insert(s, 900000, 8, IOS_WRITE, 0, 3);
	T_ASSERT(ky_dispatch(s, 0, 3) == w);
	T_ASSERT(ky_dispatch(s, 0, 3) == NULL);
	/* a completion frees a READ token: the waiting read goes */
	t_sq_complete(s, held[17], 4);
	T_ASSERT_EQ(ky_stat(s, "read_used"), 255);
	last = ky_dispatch(s, 0, 5);
	T_ASSERT(last && last->sector == 1000 + 16 * 256);
	T_ASSERT_EQ(ky_stat(s, "read_used"), 256);
	t_sq_complete(s, w, 6);
	t_sq_complete(s, last, 6);
	for (unsigned i = 0; i < 256; i++)
		if (i != 17)
			t_sq_complete(s, held[i], 7);
	T_ASSERT_EQ(ky_stat(s, "read_used"), 0);
	T_ASSERT_EQ(ky_stat(s, "write_used"), 0);
	rq = ky_dispatch(s, 0, 8);
	T_ASSERT(rq == NULL);
	t_sq_free(s);
	return T_PASS;
}

/* The DISCARD pool (64) is the device's: hctx 1 waits on tokens hctx 0 holds. */
static int test_tokens_shared_by_hctxs(void)
{
	struct t_sq *s = ky_new(2, 2, NULL);
	struct ios_request *held[64], *other, *rq;

	for (unsigned i = 0; i < 64; i++) {
		rq = ky_rq(s, 1000 + 16 * i, 8, IOS_WRITE, IOS_REQ_DISCARD, 0, 0, 0);
		s->q.nr_sorted++;
		s->type->ops.insert(&s->q, rq, 0, 0);
	}
	other = ky_rq(s, 90000, 8, IOS_WRITE, IOS_REQ_DISCARD, 1, 1, 0);
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, other, 0, 0);
	for (unsigned i = 0; i < 64; i++) {
		held[i] = ky_dispatch(s, 0, 1);
		T_ASSERT(held[i]);
	}
	T_ASSERT(ky_mo(s)->has_work_hctx(&s->q, 1));
	T_ASSERT(ky_dispatch(s, 1, 2) == NULL);
	/* hctx 1 is on DISCARD's wait queue; a freed token wakes it (kyber_domain_wake) */
	T_ASSERT_EQ(ky_stat(s, "discard_waiting"), 1);
	T_ASSERT_EQ(ky_stat(s, "read_waiting"), 0);
	t_sq_complete(s, held[0], 3);
	T_ASSERT_EQ(ky_stat(s, "discard_waiting"), 0);
	T_ASSERT(ky_dispatch(s, 1, 4) == other);
	t_sq_complete(s, other, 5);
	for (unsigned i = 1; i < 64; i++)
		t_sq_complete(s, held[i], 5);
	T_ASSERT_EQ(ky_stat(s, "discard_used"), 0);
	t_sq_free(s);
	return T_PASS;
}

static enum ios_merge ky_try(struct t_sq *s, struct ios_ioc *ioc, uint64_t sector, int dir,
			     struct ios_request **out)
{
	struct ios_bio b = { .sector = sector, .nr_sectors = 8, .dir = (uint8_t)dir, .ioc = ioc };

	*out = NULL;
	return s->type->ops.bio_merge(&s->q, &b, out);
}

/*
 * A throttled write stays on its CPU's list and takes bios from that CPU,
 * back and front, of its own domain only; once a token moves it to the
 * hardware queue it takes none.
 */
static int test_waiting_requests_merge(void)
{
	struct t_sq *s = ky_new(2, 2, NULL);
	struct ios_ioc *cpu0 = t_ioc(21), *cpu1 = t_ioc(22);
	struct ios_request *held[128], *w1, *w2, *w3, *m;

	cpu1->cpu = 1;
	for (unsigned i = 0; i < 128; i++) {
		ky_insert(s, 100000 + 16 * i, 8, IOS_WRITE, 0, 0);
		held[i] = ky_dispatch(s, 0, 0);
		T_ASSERT(held[i]);
	}
	w1 = ky_insert(s, 5000, 8, IOS_WRITE, 0, 1);
	T_ASSERT(ky_dispatch(s, 0, 1) == NULL);
	T_ASSERT_EQ(ky_try(s, cpu0, 5008, IOS_WRITE, &m), IOS_BACK_MERGE);
	T_ASSERT(m == w1);
	T_ASSERT_EQ(ky_try(s, cpu0, 4992, IOS_WRITE, &m), IOS_FRONT_MERGE);
	T_ASSERT(m == w1);
	/* another cgroup's bio: no (blk_cgroup_mergeable) */
	{
		static struct ios_cgroup cg = { .path = (char *)"a", .id = 1, .ioprio = -1 };
		struct ios_ioc *other = t_ioc(23);

		other->cgroup = &cg;
		T_ASSERT_EQ(ky_try(s, other, 5008, IOS_WRITE, &m), IOS_NO_MERGE);
	}
	/* another CPU's list, another domain: no */
	T_ASSERT_EQ(ky_try(s, cpu1, 5008, IOS_WRITE, &m), IOS_NO_MERGE);
	T_ASSERT_EQ(ky_try(s, cpu0, 5008, IOS_READ, &m), IOS_NO_MERGE);

	/* only the newest 8 of the list are looked at */
	for (unsigned i = 0; i < 8; i++)
		ky_insert(s, 20000 + 100 * i, 8, IOS_WRITE, 0, 1);
	T_ASSERT_EQ(ky_try(s, cpu0, 5008, IOS_WRITE, &m), IOS_NO_MERGE);
	T_ASSERT_EQ(ky_try(s, cpu0, 20008, IOS_WRITE, &m), IOS_BACK_MERGE);

	/* a token moves every waiting write to the hardware queue: out of reach */
	t_sq_complete(s, held[0], 2);
	T_ASSERT(ky_dispatch(s, 0, 2) == w1);
	T_ASSERT_EQ(ky_try(s, cpu0, 20008, IOS_WRITE, &m), IOS_NO_MERGE);
	T_ASSERT_EQ(ky_try(s, cpu0, 20708, IOS_WRITE, &m), IOS_NO_MERGE);
	/* new waiting requests are on the CPU's list again */
	w2 = ky_insert(s, 6000, 8, IOS_WRITE, 0, 3);
	w3 = ky_insert(s, 7000, 8, IOS_WRITE, 0, 3);
	T_ASSERT_EQ(ky_try(s, cpu0, 7008, IOS_WRITE, &m), IOS_BACK_MERGE);
	T_ASSERT(m == w3);
	(void)w2;
	t_sq_complete(s, w1, 4);
	for (unsigned i = 1; i < 128; i++)
		t_sq_complete(s, held[i], 4);
	t_sq_free(s);
	return T_PASS;
}

/* A requeued request gives its token back (requeue_request = kyber_finish_request). */
static int test_requeue_returns_token(void)
{
	struct t_sq *s = ky_new(1, 1, NULL);
	struct ios_request *rq = ky_insert(s, 1000, 8, IOS_READ, 0, 0);

	T_ASSERT(ky_dispatch(s, 0, 1) == rq);
	T_ASSERT_EQ(ky_stat(s, "read_used"), 1);
	s->q.rq_in_driver--;
	s->q.in_flight[1]--;
	s->q.nr_sorted++;
	s->type->ops.requeue(&s->q, rq, 2);
	T_ASSERT_EQ(ky_stat(s, "read_used"), 0);
	T_ASSERT(ky_dispatch(s, 0, 3) == rq);
	T_ASSERT_EQ(ky_stat(s, "read_used"), 1);
	t_sq_complete(s, rq, 4);
	T_ASSERT_EQ(ky_stat(s, "read_used"), 0);
	t_sq_free(s);
	return T_PASS;
}

/*
 * Async writes get 75 % of each word of the scheduler tags' sbitmap, whose
 * word is 2^shift bits for nr_requests (sbitmap_calculate_shift); sync
 * allocations (reads, REQ_SYNC, FUA, PREFLUSH: op_is_sync) no limit.
 */
static int test_limit_depth_async(void)
{
	struct t_sq *s = t_sq_new("kyber", 64, 0, NULL);
	unsigned (*limit)(struct ios_queue *, unsigned, const struct ios_ioc *);

	T_ASSERT(s);
	limit = ky_mo(s)->limit_depth;
	/* 64 device tags: nr_requests 128, words of 32 bits, 24 for async */
	T_ASSERT_EQ(s->q.nr_requests, 128);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE, NULL), 24);
	T_ASSERT_EQ(ky_stat(s, "async_depth"), 24);
	T_ASSERT_EQ(limit(&s->q, 0, NULL), 0);
	T_ASSERT_EQ(limit(&s->q, IOS_REQ_AHEAD, NULL), 0);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE | IOS_REQ_SYNC, NULL), 0);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE | IOS_REQ_FUA, NULL), 0);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE | IOS_REQ_PREFLUSH, NULL), 0);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE | IOS_REQ_META, NULL), 24);
	/* 256 (a 128-deep device): 64-bit words, 48; a SATA disk's 62: 8-bit words, 6 */
	s->q.nr_requests = 256;
	ky_mo(s)->depth_updated(&s->q);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE, NULL), 48);
	s->q.nr_requests = 62;
	ky_mo(s)->depth_updated(&s->q);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE, NULL), 6);
	/* under 4 tags sbitmap keeps 64-bit words */
	s->q.nr_requests = 2;
	ky_mo(s)->depth_updated(&s->q);
	T_ASSERT_EQ(limit(&s->q, KY_OPF_WRITE, NULL), 48);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_domain_waits_for_token, test_tokens_shared_by_hctxs,
		     test_waiting_requests_merge, test_requeue_returns_token,
		     test_limit_depth_async);
}
