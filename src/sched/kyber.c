/*
 * kyber-6.12: the Kyber scheduler of blk-mq as in Linux 6.12
 * (block/kyber-iosched.c, Omar Sandoval's 4.20 design; read from
 * gregkh/linux at 364030e3, dated 6.5 ≤ x < 6.16 by its API, see
 * docs/kyber.md "Source read").
 *
 * Kyber does not sort and does not look at priorities (ioprio reaches it
 * and nothing reads it). It controls latency by how many requests of each
 * kind may be at the device at once:
 *
 *  - Every request falls in one of four domains by its operation
 *    (kyber_sched_domain): READ, WRITE (sync and async alike), DISCARD,
 *    OTHER (flushes and the rest).
 *  - Each domain has a pool of tokens shared by the whole device
 *    (kqd->domain_tokens): 256, 128, 64 and 16 at the start. A request goes
 *    to the device only with a token of its domain, and gives it back when
 *    it is freed (kyber_finish_request). A domain without a free token waits
 *    (kyber_get_domain_token puts the hardware queue on the pool's wait
 *    queue; a freed token wakes it, kyber_domain_wake).
 *  - Until a request gets its token it sits on the list of its software
 *    context (the submitting CPU, rq->mq_ctx) and domain, where later bios
 *    of that CPU can still merge into it (kyber_bio_merge looks at the last
 *    8 requests there). With a token in hand, the hardware queue moves every
 *    waiting request of the domain onto its own list (kyber_flush_busy_kcqs)
 *    and hands out the first.
 *  - Dispatch goes round-robin over the domains, up to a batch of 16 reads,
 *    8 writes, 1 discard or 1 other in a row (kyber_dispatch_request); each
 *    hardware queue keeps its own place in the round (per-hctx dispatch).
 *  - Completions feed two latency histograms per domain (not OTHER): total
 *    latency, from allocation (start_time_ns, our alloc_ns), and I/O
 *    latency, from issue (io_start_time_ns, our dispatch_ns). A histogram has
 *    8 buckets, each a quarter of the domain's target wide
 *    (add_latency_sample); the first four are "good".
 *  - A timer, armed at each completion to fire at most HZ/10 later
 *    (kyber_completed_request), resizes the pools (kyber_timer_fn). A
 *    percentile is read only from 500 samples, or once a second has passed
 *    since the first read attempt that saw samples (calculate_percentile),
 *    and reading it empties the histogram. First pass: if any domain's p90
 *    I/O latency is in a bad bucket, the device is congested ("bad"). Second
 *    pass, per domain, the p99 of total latency: when bad, a domain without
 *    a fresh p99 uses the one remembered from an earlier window, and the
 *    memory is cleared; when not bad a fresh p99 is remembered. A domain is
 *    resized when bad, or when its own p99 is in a bad bucket, to
 *    depth * (p99 bucket + 1) / 4, within [1, its starting depth]: shrink
 *    the good domains of a congested device, grow the late ones.
 *  - Async requests may take only 75 % of the scheduler tags of each sbitmap
 *    word (kyber_limit_depth, kyber_depth_updated), so sync requests always
 *    find some.
 *
 * Time: the kernel counts the timer and the one-second window in jiffies.
 * HZ/10 jiffies is 100 ms and HZ jiffies 1 s for every CONFIG_HZ Linux
 * offers (100, 250, 300, 1000), so the rules are kept in ns without a
 * lab.hz; what is lost is the rounding of "now" to a jiffy (at most 4 ms at
 * HZ=250) in the one-second test. The scheduler reads no clock: the timer is
 * next_wakeup()/timer(), the time a request came is alloc_ns/dispatch_ns.
 *
 * Pool resizes are reported through the owner hook (IOS_OWN_DEPTH), for
 * the timeline's series of domain depths.
 *
 * Tunables: read_lat_nsec (2000000) and write_lat_nsec (10000000), any
 * u64 as the kernel's kstrtoull store takes them (0 included: every sample
 * of at least 8 ns is then in the last bucket, so the domain always counts
 * as late). The DISCARD target (5 s) is not a tunable in the kernel either.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>
#include "iosched/block.h"
#include "iosched/sched.h"
#include "core/builtin.h"

/* kyber's domains (the kernel's KYBER_READ ... KYBER_OTHER) */
enum {
	KY_READ,
	KY_WRITE,
	KY_DISCARD,
	KY_OTHER,
	KY_NR_DOMAINS,
};

/* the two histograms of a domain (KYBER_TOTAL_LATENCY, KYBER_IO_LATENCY) */
enum {
	KY_TOTAL,
	KY_IO,
	KY_NR_TYPES,
};

enum {
	KY_LAT_SHIFT = 2,			/* a bucket is target >> 2 wide */
	KY_GOOD_BUCKETS = 1 << KY_LAT_SHIFT,	/* buckets 0..3: within the target */
	KY_BUCKETS = 2 << KY_LAT_SHIFT,		/* 4..7: late; 7 holds everything later */
	KY_ASYNC_PERCENT = 75,			/* kyber's KYBER_ASYNC_PERCENT */
	KY_MIN_SAMPLES = 500,			/* calculate_percentile */
	KY_MERGE_CHECKED = 8,			/* blk_bio_list_merge looks at the last 8 */
	KY_TOKENS_MAX = 256,			/* the largest kyber_depth */
	KY_BITS_PER_LONG = 64,			/* sbitmap words on a 64-bit kernel */
};

#define KY_TIMER_NS (100 * IOS_NSEC_PER_MSEC)	/* HZ / 10 jiffies */
#define KY_WINDOW_NS IOS_NSEC_PER_SEC		/* HZ jiffies */

/* kyber_depth, kyber_batch_size, kyber_latency_targets (6.12) */
static const unsigned ky_depth[KY_NR_DOMAINS] = { 256, 128, 64, 16 };
static const unsigned ky_batch_size[KY_NR_DOMAINS] = { 16, 8, 1, 1 };
#define KY_DISCARD_TARGET_NS (5 * IOS_NSEC_PER_SEC)

/*
 * One domain's token pool (an sbitmap_queue in the kernel). Tokens are bit
 * numbers; a new token is the lowest free bit below the current depth (the
 * kernel starts at a per-CPU hint instead: which bit is taken matters only
 * after a shrink, where a token still held above the new depth does not
 * count against it, in both).
 */
struct ky_tokens {
	uint64_t map[KY_TOKENS_MAX / 64];
	unsigned depth;
};

/* a software context's waiting requests (struct kyber_ctx_queue) */
struct ky_kcq {
	struct ios_list_head rq_list[KY_NR_DOMAINS];
	int hctx;			/* the hardware queue it maps to; -1 before any insert */
};

/* per hardware queue (struct kyber_hctx_data) */
struct ky_hctx {
	/* requests flushed from the kcqs, first in line for a token */
	struct ios_list_head rqs[KY_NR_DOMAINS];
	unsigned cur_domain;
	unsigned batching;
	/* requests on this hctx's kcqs, per domain (the kernel's kcq_map bits) */
	unsigned kcq_queued[KY_NR_DOMAINS];
	/* on the domain's wait queue: it found no token (domain_wait) */
	bool waiting[KY_NR_DOMAINS];
};

struct ky_data {
	/* tunables: latency_targets[]; READ and WRITE are sysfs files, DISCARD is fixed */
	uint64_t lat_target_ns[KY_OTHER];

	struct ios_queue *q;
	struct ky_tokens tokens[KY_NR_DOMAINS];
	unsigned nr_cpus, nr_hw_queues;
	struct ky_kcq *kcqs;		/* [nr_cpus] */
	struct ky_hctx **khd;		/* [nr_hw_queues], set by init_hctx */

	/* the histograms, summed (the kernel keeps them per CPU and sums at the timer) */
	uint32_t buckets[KY_OTHER][KY_NR_TYPES][KY_BUCKETS];
	uint64_t latency_timeout_ns[KY_OTHER];	/* 0: not started */
	int domain_p99[KY_OTHER];		/* -1: none remembered */
	uint64_t timer_at;			/* IOS_NO_WAKEUP: not armed */

	/* read-only state for --dump-state (the kernel's debugfs files) */
	int depth[KY_NR_DOMAINS];	/* current pool sizes (read_tokens ...) */
	int used[KY_NR_DOMAINS];	/* tokens held */
	int waiting[KY_NR_DOMAINS];	/* hardware queues on the domain's wait queue */
	int async_depth;		/* per sbitmap word */
	int resizes;			/* pool size changes (trace_kyber_adjust) */
	int throttled;			/* dispatch found no token (trace_kyber_throttled) */
};

static struct ky_data *ky_data(struct ios_queue *q)
{
	return q->sched_data;
}

/* ---- domains and tokens ---- */

/*
 * kyber_sched_domain: by operation. Reads and writes by direction whatever
 * their sync flag; a discard is DISCARD; a data-less flush is OTHER.
 */
static unsigned ky_domain_of(uint8_t dir, uint32_t flags, uint32_t nr_sectors)
{
	if (flags & IOS_REQ_DISCARD)
		return KY_DISCARD;
	if (!nr_sectors && (flags & IOS_REQ_PREFLUSH))
		return KY_OTHER;
	return dir == IOS_READ ? KY_READ : KY_WRITE;
}

static unsigned ky_rq_domain(const struct ios_request *rq)
{
	return ky_domain_of(rq->dir, rq->flags, rq->nr_sectors);
}

/* rq->elv.priv[0] in the kernel: the token held, -1 none */
static int ky_rq_token(const struct ios_request *rq)
{
	return (int)(intptr_t)rq->sched_priv[0];
}

static void ky_rq_set_token(struct ios_request *rq, int nr)
{
	rq->sched_priv[0] = (void *)(intptr_t)nr;
}

static int ky_tokens_get(struct ky_tokens *t)
{
	for (unsigned nr = 0; nr < t->depth; nr++)
		if (!(t->map[nr / 64] & (1ull << (nr % 64)))) {
			t->map[nr / 64] |= 1ull << (nr % 64);
			return (int)nr;
		}
	return -1;
}

static void ky_tokens_put(struct ky_tokens *t, int nr)
{
	IOS_BUG_ON(nr < 0 || nr >= KY_TOKENS_MAX);
	IOS_BUG_ON(!(t->map[nr / 64] & (1ull << (nr % 64))));
	t->map[nr / 64] &= ~(1ull << (nr % 64));
}

/*
 * kyber_get_domain_token. Without a token the hardware queue goes on the
 * pool's wait queue, to be run again when a token is freed; with one it
 * leaves it.
 */
static int ky_get_token(struct ky_data *kqd, struct ky_hctx *khd, unsigned d)
{
	int nr = ky_tokens_get(&kqd->tokens[d]);

	if (nr < 0) {
		if (!khd->waiting[d])
			kqd->waiting[d]++;
		khd->waiting[d] = true;
		kqd->throttled++;
		return -1;
	}
	if (khd->waiting[d])
		kqd->waiting[d]--;
	khd->waiting[d] = false;
	kqd->used[d]++;
	return nr;
}

/* kyber_finish_request (and requeue_request): the token goes back and wakes the waiters */
static void ky_put_token(struct ky_data *kqd, struct ios_request *rq)
{
	int nr = ky_rq_token(rq);
	unsigned d = ky_rq_domain(rq);

	if (nr < 0)
		return;
	ky_tokens_put(&kqd->tokens[d], nr);
	ky_rq_set_token(rq, -1);
	kqd->used[d]--;
	/*
	 * kyber_domain_wake: every hardware queue waiting on this pool leaves
	 * the wait queue and is run again. The block layer runs dispatch
	 * after each completion, which is that run; sbitmap's wake batching
	 * (a waiter is woken once per wake_batch freed bits) is not modelled.
	 */
	for (unsigned h = 0; h < kqd->nr_hw_queues; h++)
		if (kqd->khd[h] && kqd->khd[h]->waiting[d]) {
			kqd->khd[h]->waiting[d] = false;
			kqd->waiting[d]--;
		}
}

/*
 * kyber_resize_domain: clamp to [1, kyber_depth], and only a real change
 * counts (and is reported).
 */
static void ky_resize_domain(struct ky_data *kqd, unsigned d, unsigned depth, uint64_t now)
{
	unsigned old = kqd->tokens[d].depth;

	if (depth < 1)
		depth = 1;
	if (depth > ky_depth[d])
		depth = ky_depth[d];
	if (depth == old)
		return;
	kqd->tokens[d].depth = depth;
	kqd->depth[d] = (int)depth;
	kqd->resizes++;
	/* the timeline's depth series: @pid carries the depth before */
	ios_queue_note_owner(kqd->q, now, old, IOS_OWN_DEPTH, IOS_OWN_DEPTH_REASON(d, depth));
}

/* ---- latency histograms and the timer ---- */

/* add_latency_sample: bucket (latency - 1) / (target / 4), the last one open-ended */
static void ky_add_sample(struct ky_data *kqd, unsigned d, unsigned type, uint64_t target,
			  uint64_t latency)
{
	unsigned bucket = 0;

	if (latency > 0) {
		uint64_t divisor = target >> KY_LAT_SHIFT;
		uint64_t b;

		if (divisor < 1)
			divisor = 1;
		b = (latency - 1) / divisor;
		bucket = b < KY_BUCKETS - 1 ? (unsigned)b : KY_BUCKETS - 1;
	}
	if (kqd->buckets[d][type][bucket] < UINT32_MAX)
		kqd->buckets[d][type][bucket]++;
}

/*
 * calculate_percentile: the bucket holding the @percentile-th sample, or -1
 * while there are fewer than 500 samples and the domain's one-second window
 * (started by the first call that saw samples) is still open. An answer
 * closes the window and empties this histogram. The window is the domain's,
 * shared by its two histograms: the p90 pass closing it makes the p99 pass
 * open a new one, so with under 500 samples a second the total-latency
 * histogram keeps filling across windows until it reaches 500.
 */
static int ky_percentile(struct ky_data *kqd, unsigned d, unsigned type, unsigned percentile,
			 uint64_t now)
{
	uint32_t *buckets = kqd->buckets[d][type];
	uint64_t samples = 0, want;
	unsigned b;

	for (b = 0; b < KY_BUCKETS; b++)
		samples += buckets[b];
	if (!samples)
		return -1;
	if (!kqd->latency_timeout_ns[d])
		kqd->latency_timeout_ns[d] = now + KY_WINDOW_NS;
	if (samples < KY_MIN_SAMPLES && now < kqd->latency_timeout_ns[d])
		return -1;
	kqd->latency_timeout_ns[d] = 0;

	want = (samples * percentile + 99) / 100;	/* DIV_ROUND_UP */
	for (b = 0; b < KY_BUCKETS - 1; b++) {
		if (buckets[b] >= want)
			break;
		want -= buckets[b];
	}
	for (unsigned i = 0; i < KY_BUCKETS; i++)
		buckets[i] = 0;
	return (int)b;
}

/* kyber_timer_fn */
static void ky_timer_fn(struct ky_data *kqd, uint64_t now)
{
	bool bad = false;

	/* congestion: a domain's p90 I/O latency over its target */
	for (unsigned d = 0; d < KY_OTHER; d++)
		if (ky_percentile(kqd, d, KY_IO, 90, now) >= KY_GOOD_BUCKETS)
			bad = true;

	for (unsigned d = 0; d < KY_OTHER; d++) {
		int p99 = ky_percentile(kqd, d, KY_TOTAL, 99, now);

		/*
		 * Domains fill their histograms at different rates: a p99
		 * seen in a calm window is kept for the next congested one,
		 * which uses it up.
		 */
		if (bad) {
			if (p99 < 0)
				p99 = kqd->domain_p99[d];
			kqd->domain_p99[d] = -1;
		} else if (p99 >= 0) {
			kqd->domain_p99[d] = p99;
		}
		if (p99 < 0)
			continue;
		/* late domains grow, and on a congested device the others shrink */
		if (bad || p99 >= KY_GOOD_BUCKETS) {
			uint64_t depth = (uint64_t)kqd->tokens[d].depth * (unsigned)(p99 + 1);

			ky_resize_domain(kqd, d, (unsigned)(depth >> KY_LAT_SHIFT), now);
		}
	}
}

/* ---- set-up ---- */

static int ky_init(struct ios_queue *q)
{
	struct ky_data *kqd = ky_data(q);

	kqd->q = q;
	kqd->nr_cpus = q->nr_cpus ? q->nr_cpus : 1;
	kqd->nr_hw_queues = q->nr_hw_queues ? q->nr_hw_queues : 1;
	kqd->kcqs = calloc(kqd->nr_cpus, sizeof(*kqd->kcqs));
	kqd->khd = calloc(kqd->nr_hw_queues, sizeof(*kqd->khd));
	if (!kqd->kcqs || !kqd->khd) {
		free(kqd->kcqs);
		free(kqd->khd);
		kqd->kcqs = NULL;
		kqd->khd = NULL;
		return -ENOMEM;
	}
	for (unsigned c = 0; c < kqd->nr_cpus; c++) {
		kqd->kcqs[c].hctx = -1;
		for (unsigned d = 0; d < KY_NR_DOMAINS; d++)
			ios_list_init(&kqd->kcqs[c].rq_list[d]);
	}
	for (unsigned d = 0; d < KY_NR_DOMAINS; d++) {
		kqd->tokens[d].depth = ky_depth[d];
		kqd->depth[d] = (int)ky_depth[d];
	}
	for (unsigned d = 0; d < KY_OTHER; d++)
		kqd->domain_p99[d] = -1;
	kqd->lat_target_ns[KY_DISCARD] = KY_DISCARD_TARGET_NS;
	kqd->timer_at = IOS_NO_WAKEUP;
	return 0;
}

static void ky_exit(struct ios_queue *q)
{
	struct ky_data *kqd = ky_data(q);

	for (unsigned c = 0; kqd->kcqs && c < kqd->nr_cpus; c++)
		for (unsigned d = 0; d < KY_NR_DOMAINS; d++)
			IOS_BUG_ON(!ios_list_empty(&kqd->kcqs[c].rq_list[d]));
	for (unsigned h = 0; kqd->khd && h < kqd->nr_hw_queues; h++)
		free(kqd->khd[h]);	/* exit_hctx frees them when the core calls it */
	free(kqd->khd);
	free(kqd->kcqs);
	kqd->khd = NULL;
	kqd->kcqs = NULL;
}

static int ky_init_hctx(struct ios_queue *q, unsigned hctx)
{
	struct ky_data *kqd = ky_data(q);
	struct ky_hctx *khd;

	if (hctx >= kqd->nr_hw_queues)
		return -EINVAL;
	khd = calloc(1, sizeof(*khd));
	if (!khd)
		return -ENOMEM;
	for (unsigned d = 0; d < KY_NR_DOMAINS; d++)
		ios_list_init(&khd->rqs[d]);
	free(kqd->khd[hctx]);
	kqd->khd[hctx] = khd;
	return 0;
}

static void ky_exit_hctx(struct ios_queue *q, unsigned hctx)
{
	struct ky_data *kqd = ky_data(q);

	if (hctx >= kqd->nr_hw_queues || !kqd->khd[hctx])
		return;
	for (unsigned d = 0; d < KY_NR_DOMAINS; d++) {
		IOS_BUG_ON(!ios_list_empty(&kqd->khd[hctx]->rqs[d]));
		if (kqd->khd[hctx]->waiting[d])
			kqd->waiting[d]--;
	}
	free(kqd->khd[hctx]);
	kqd->khd[hctx] = NULL;
}

/*
 * kyber_depth_updated: async requests may use 75 % of each word of the
 * scheduler tags' sbitmap. The word is 2^shift bits, shift as
 * sbitmap_calculate_shift picks it for nr_requests (64-bit words, halved
 * while four words would not fill the map); a shallow depth is a per-word
 * limit in 6.12, and the block layer applies it per word.
 */
static void ky_depth_updated(struct ios_queue *q)
{
	struct ky_data *kqd = ky_data(q);
	unsigned shift = 6;	/* ilog2(BITS_PER_LONG) */

	if (q->nr_requests >= 4)
		while ((4u << shift) > q->nr_requests)
			shift--;
	kqd->async_depth = (int)((1u << shift) * KY_ASYNC_PERCENT / 100u);
}

/* kyber_limit_depth: only async allocations are limited (op_is_sync) */
static unsigned ky_limit_depth(struct ios_queue *q, unsigned opf, const struct ios_ioc *ioc)
{
	bool write = opf & (1u << 31);

	(void)ioc;
	if (!write || (opf & (IOS_REQ_SYNC | IOS_REQ_FUA | IOS_REQ_PREFLUSH)))
		return 0;
	return (unsigned)ky_data(q)->async_depth;
}

/* ---- request life ---- */

/* kyber_prepare_request: no token yet */
static void ky_prepare_request(struct ios_queue *q, struct ios_request *rq)
{
	(void)q;
	ky_rq_set_token(rq, -1);
}

static struct ky_hctx *ky_khd(struct ky_data *kqd, unsigned hctx)
{
	IOS_BUG_ON(hctx >= kqd->nr_hw_queues || !kqd->khd[hctx]);
	return kqd->khd[hctx];
}

/* kyber_insert_requests: onto the list of the request's CPU and domain */
static void ky_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
		      unsigned flags)
{
	struct ky_data *kqd = ky_data(q);
	unsigned d = ky_rq_domain(rq);
	struct ky_kcq *kcq;

	(void)now_ns;
	IOS_BUG_ON(rq->mq_ctx >= kqd->nr_cpus);
	kcq = &kqd->kcqs[rq->mq_ctx];
	/* a software context maps to one hardware queue */
	IOS_BUG_ON(kcq->hctx >= 0 && kcq->hctx != (int)rq->mq_hctx);
	kcq->hctx = (int)rq->mq_hctx;
	if (flags & IOS_INSERT_FRONT)
		ios_list_add(&rq->queuelist, &kcq->rq_list[d]);
	else
		ios_list_add_tail(&rq->queuelist, &kcq->rq_list[d]);
	ky_khd(kqd, rq->mq_hctx)->kcq_queued[d]++;
}

/* kyber_flush_busy_kcqs: every waiting request of @d on @hctx's CPUs, CPU by CPU */
static void ky_flush_kcqs(struct ky_data *kqd, unsigned hctx, struct ky_hctx *khd, unsigned d)
{
	for (unsigned c = 0; c < kqd->nr_cpus; c++) {
		struct ios_list_head *l = &kqd->kcqs[c].rq_list[d];

		if (kqd->kcqs[c].hctx != (int)hctx)
			continue;
		while (!ios_list_empty(l)) {
			struct ios_request *rq = ios_list_first_entry(l, struct ios_request,
								      queuelist);

			ios_list_move_tail(&rq->queuelist, &khd->rqs[d]);
			khd->kcq_queued[d]--;
		}
	}
	IOS_BUG_ON(khd->kcq_queued[d] != 0);
}

static struct ios_request *ky_take(struct ky_hctx *khd, unsigned d, int nr)
{
	struct ios_request *rq = ios_list_first_entry(&khd->rqs[d], struct ios_request, queuelist);

	khd->batching++;
	ky_rq_set_token(rq, nr);
	ios_list_del(&rq->queuelist);
	return rq;
}

/*
 * kyber_dispatch_cur_domain. Requests already flushed only need a token;
 * requests still on the CPUs' lists are flushed only once a token is in
 * hand, so that they stay mergeable while the domain is throttled.
 */
static struct ios_request *ky_dispatch_cur_domain(struct ky_data *kqd, unsigned hctx,
						  struct ky_hctx *khd)
{
	unsigned d = khd->cur_domain;
	int nr;

	if (!ios_list_empty(&khd->rqs[d])) {
		nr = ky_get_token(kqd, khd, d);
		if (nr >= 0)
			return ky_take(khd, d, nr);
	} else if (khd->kcq_queued[d]) {
		nr = ky_get_token(kqd, khd, d);
		if (nr >= 0) {
			ky_flush_kcqs(kqd, hctx, khd, d);
			return ky_take(khd, d, nr);
		}
	}
	return NULL;
}

/*
 * kyber_dispatch_request: carry on with the current domain while its batch
 * lasts, then the next domain with a request and a token, round-robin
 * (back to the current one last).
 */
static struct ios_request *ky_dispatch_hctx(struct ios_queue *q, unsigned hctx, uint64_t now_ns)
{
	struct ky_data *kqd = ky_data(q);
	struct ky_hctx *khd = ky_khd(kqd, hctx);
	struct ios_request *rq;

	(void)now_ns;
	if (khd->batching < ky_batch_size[khd->cur_domain]) {
		rq = ky_dispatch_cur_domain(kqd, hctx, khd);
		if (rq)
			return rq;
	}
	khd->batching = 0;
	for (unsigned i = 0; i < KY_NR_DOMAINS; i++) {
		khd->cur_domain = khd->cur_domain == KY_NR_DOMAINS - 1 ? 0 : khd->cur_domain + 1;
		rq = ky_dispatch_cur_domain(kqd, hctx, khd);
		if (rq)
			return rq;
	}
	return NULL;
}

/* kyber_has_work: anything flushed or waiting on a CPU's list (tokens or not) */
static bool ky_has_work_hctx(struct ios_queue *q, unsigned hctx)
{
	struct ky_data *kqd = ky_data(q);
	const struct ky_hctx *khd;

	if (hctx >= kqd->nr_hw_queues || !kqd->khd[hctx])
		return false;
	khd = kqd->khd[hctx];
	for (unsigned d = 0; d < KY_NR_DOMAINS; d++)
		if (!ios_list_empty(&khd->rqs[d]) || khd->kcq_queued[d])
			return true;
	return false;
}

/*
 * The queue-wide hooks the interface requires: the hardware queues in
 * order. The blk-mq core calls the per-hctx ones.
 */
static struct ios_request *ky_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	struct ky_data *kqd = ky_data(q);

	(void)flags;
	for (unsigned h = 0; h < kqd->nr_hw_queues; h++) {
		struct ios_request *rq;

		if (!kqd->khd[h])
			continue;
		rq = ky_dispatch_hctx(q, h, now_ns);
		if (rq)
			return rq;
	}
	return NULL;
}

static bool ky_has_work(struct ios_queue *q)
{
	struct ky_data *kqd = ky_data(q);

	for (unsigned h = 0; h < kqd->nr_hw_queues; h++)
		if (ky_has_work_hctx(q, h))
			return true;
	return false;
}

/*
 * kyber_completed_request: one sample in each histogram of the domain
 * (OTHER keeps none), and the timer armed to fire within HZ/10
 * (timer_reduce: an earlier expiry stays).
 */
static void ky_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	struct ky_data *kqd = ky_data(q);
	unsigned d = ky_rq_domain(rq);
	uint64_t target;

	if (d == KY_OTHER)
		return;
	target = kqd->lat_target_ns[d];
	ky_add_sample(kqd, d, KY_TOTAL, target, now_ns > rq->alloc_ns ? now_ns - rq->alloc_ns : 0);
	ky_add_sample(kqd, d, KY_IO, target,
		      now_ns > rq->dispatch_ns ? now_ns - rq->dispatch_ns : 0);
	if (now_ns + KY_TIMER_NS < kqd->timer_at)
		kqd->timer_at = now_ns + KY_TIMER_NS;
}

static void ky_finish_request(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	(void)now_ns;
	ky_put_token(ky_data(q), rq);
}

/*
 * requeue_request is kyber_finish_request: the token goes back; the
 * request waits again at the head of its CPU's list.
 */
static void ky_requeue(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	ky_put_token(ky_data(q), rq);
	ky_insert(q, rq, now_ns, IOS_INSERT_FRONT | IOS_INSERT_REQUEUE);
}

static uint64_t ky_next_wakeup(struct ios_queue *q)
{
	return ky_data(q)->timer_at;
}

static void ky_timer(struct ios_queue *q, uint64_t now_ns)
{
	struct ky_data *kqd = ky_data(q);

	if (kqd->timer_at == IOS_NO_WAKEUP || now_ns < kqd->timer_at)
		return;
	kqd->timer_at = IOS_NO_WAKEUP;
	ky_timer_fn(kqd, now_ns);
}

/*
 * kyber_bio_merge: only the submitting CPU's list of the bio's domain, from
 * its newest request back, at most 8 (blk_bio_list_merge). A request that
 * cannot take the bio (another operation or cgroup) is passed over; the
 * first one the bio touches is the answer, and the block layer's own checks
 * (size) decide, as bio_attempt_*_merge would, without looking further.
 */
static enum ios_merge ky_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
				   struct ios_request **out)
{
	struct ky_data *kqd = ky_data(q);
	unsigned cpu = bio->ioc ? bio->ioc->cpu : 0;
	struct ios_list_head *l, *pos;
	int checked = KY_MERGE_CHECKED;

	if (!bio->nr_sectors || (bio->flags & (IOS_REQ_PREFLUSH | IOS_REQ_FUA)))
		return IOS_NO_MERGE;
	if (cpu >= kqd->nr_cpus)
		return IOS_NO_MERGE;
	l = &kqd->kcqs[cpu].rq_list[ky_domain_of(bio->dir, bio->flags, bio->nr_sectors)];
	for (pos = l->prev; pos != l && checked--; pos = pos->prev) {
		struct ios_request *rq = ios_list_entry(pos, struct ios_request, queuelist);

		if (rq->dir != bio->dir || ((rq->flags ^ bio->flags) & IOS_REQ_DISCARD) ||
		    (rq->flags & (IOS_REQ_PREFLUSH | IOS_REQ_FUA)))
			continue;
		if (rq->ioc && bio->ioc && ios_rq_blkcg(rq) != ios_bio_blkcg(bio))
			continue;	/* blk_cgroup_mergeable: the charged cgroups */
		if (ios_rq_end(rq) == bio->sector) {
			*out = rq;
			return IOS_BACK_MERGE;
		}
		if (rq->sector == bio->sector + bio->nr_sectors) {
			*out = rq;
			return IOS_FRONT_MERGE;
		}
	}
	return IOS_NO_MERGE;
}

/* ---- descriptor ---- */

static const struct ios_tunable ky_tunables[] = {
	{ .name = "read_lat_nsec", .type = IOS_TUN_U64,
	  .offset = offsetof(struct ky_data, lat_target_ns[KY_READ]),
	  .min = 0, .max = INT64_MAX, .def = "2000000", .unit = "ns",
	  .help = "READ domain's latency target; any u64 (kstrtoull), under 8 ns every read is late" },
	{ .name = "write_lat_nsec", .type = IOS_TUN_U64,
	  .offset = offsetof(struct ky_data, lat_target_ns[KY_WRITE]),
	  .min = 0, .max = INT64_MAX, .def = "10000000", .unit = "ns",
	  .help = "WRITE domain's latency target; any u64 (kstrtoull), under 8 ns every write is late" },
	{ .name = NULL },
};

#define KY_STAT(field, nm, hlp)                                                    \
	{ .name = nm, .type = IOS_TUN_INT, .offset = offsetof(struct ky_data, field), \
	  .min = 0, .max = INT32_MAX, .unit = "", .flags = IOS_TUN_RO, .help = hlp }

static const struct ios_tunable ky_stats[] = {
	KY_STAT(depth[KY_READ], "read_tokens", "READ domain's token pool size"),
	KY_STAT(depth[KY_WRITE], "write_tokens", "WRITE domain's token pool size"),
	KY_STAT(depth[KY_DISCARD], "discard_tokens", "DISCARD domain's token pool size"),
	KY_STAT(depth[KY_OTHER], "other_tokens", "OTHER domain's token pool size"),
	KY_STAT(used[KY_READ], "read_used", "READ tokens held"),
	KY_STAT(used[KY_WRITE], "write_used", "WRITE tokens held"),
	KY_STAT(used[KY_DISCARD], "discard_used", "DISCARD tokens held"),
	KY_STAT(used[KY_OTHER], "other_used", "OTHER tokens held"),
	KY_STAT(waiting[KY_READ], "read_waiting", "hardware queues waiting for a READ token"),
	KY_STAT(waiting[KY_WRITE], "write_waiting", "hardware queues waiting for a WRITE token"),
	KY_STAT(waiting[KY_DISCARD], "discard_waiting",
		"hardware queues waiting for a DISCARD token"),
	KY_STAT(waiting[KY_OTHER], "other_waiting", "hardware queues waiting for an OTHER token"),
	KY_STAT(async_depth, "async_depth", "scheduler tags per sbitmap word async requests may use"),
	KY_STAT(resizes, "resizes", "token pool size changes (kyber_adjust)"),
	KY_STAT(throttled, "throttled", "dispatch attempts that found no token (kyber_throttled)"),
	{ .name = NULL },
};

static const struct ios_sched_mq_ops ky_mq_ops = {
	.limit_depth = ky_limit_depth,
	.depth_updated = ky_depth_updated,
	.prepare_request = ky_prepare_request,
	.finish_request = ky_finish_request,
	.dispatch_hctx = ky_dispatch_hctx,
	.has_work_hctx = ky_has_work_hctx,
	.init_hctx = ky_init_hctx,
	.exit_hctx = ky_exit_hctx,
};

const struct ios_sched_type ios_sched_kyber = {
	.name = "kyber-6.12",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = "kyber",
	.desc = "token pools per operation sized by measured latency (Linux 6.12 kyber, blk-mq)",
	.ops = {
		.init = ky_init,
		.exit = ky_exit,
		.insert = ky_insert,
		.dispatch = ky_dispatch,
		.has_work = ky_has_work,
		.completed = ky_completed,
		.requeue = ky_requeue,
		.bio_merge = ky_bio_merge,
		.next_wakeup = ky_next_wakeup,
		.timer = ky_timer,
	},
	.tunables = ky_tunables,
	.stats = ky_stats,
	.priv_size = sizeof(struct ky_data),
	.features = IOS_SCHED_IDLES,
	.share_model = IOS_SHARE_NONE,
	.layer = IOS_SCHED_LAYER_MQ,
	.mq_ops = &ky_mq_ops,
};
