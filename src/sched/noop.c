/*
 * noop: a FIFO with merging, as the Linux 2.6 noop elevator
 * (block/noop-iosched.c, 2.6.31).
 *
 * Requests are handed to the device in the order they reached the
 * scheduler. noop does no sorting and no merge lookup of its own: the block
 * layer finds back merges through its end-sector hash and its one-hit
 * cache, which is all the merging a 2.6 noop queue ever got. What noop does
 * provide is navigation: the block layer asks for a request's former and
 * latter neighbour to try a request-to-request merge after a bio made two
 * requests contiguous, and for noop, as in the kernel, those neighbours are
 * the FIFO neighbours, not the sector neighbours. Two requests therefore
 * collapse only when they also sit next to each other in arrival order.
 * When that happens (requests_merged) the absorbed request simply leaves
 * the FIFO; the survivor keeps its own place.
 *
 * Front insertions (requeues, IOS_INSERT_FRONT) go to the head of the FIFO,
 * so they are the next to leave.
 *
 * Tunables: none. Read-only state: the number of queued requests.
 */
#include <stddef.h>
#include "iosched/block.h"
#include "iosched/sched.h"
#include "core/builtin.h"

struct noop_data {
	struct ios_list_head fifo;	/* queued requests, by rq->queuelist */
	int queued;			/* length of @fifo, for --dump-state */
};

static struct noop_data *noop_data(struct ios_queue *q)
{
	return q->sched_data;
}

static int noop_init(struct ios_queue *q)
{
	struct noop_data *nd = noop_data(q);

	ios_list_init(&nd->fifo);
	nd->queued = 0;
	return 0;
}

static void noop_exit(struct ios_queue *q)
{
	struct noop_data *nd = noop_data(q);

	IOS_BUG_ON(!ios_list_empty(&nd->fifo));
	IOS_BUG_ON(nd->queued != 0);
}

static void noop_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
			unsigned flags)
{
	struct noop_data *nd = noop_data(q);

	(void)now_ns;
	if (flags & (IOS_INSERT_FRONT | IOS_INSERT_REQUEUE))
		ios_list_add(&rq->queuelist, &nd->fifo);
	else
		ios_list_add_tail(&rq->queuelist, &nd->fifo);
	nd->queued++;
}

static struct ios_request *noop_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	struct noop_data *nd = noop_data(q);
	struct ios_request *rq;

	(void)now_ns;
	(void)flags;
	if (ios_list_empty(&nd->fifo))
		return NULL;
	rq = ios_list_first_entry(&nd->fifo, struct ios_request, queuelist);
	ios_list_del(&rq->queuelist);
	nd->queued--;
	return rq;
}

static bool noop_has_work(struct ios_queue *q)
{
	return !ios_list_empty(&noop_data(q)->fifo);
}

static void noop_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	(void)q;
	(void)rq;
	(void)now_ns;
}

static void noop_requests_merged(struct ios_queue *q, struct ios_request *rq,
				 struct ios_request *next)
{
	struct noop_data *nd = noop_data(q);

	(void)rq;
	IOS_BUG_ON(ios_list_unlinked(&next->queuelist));
	ios_list_del(&next->queuelist);
	nd->queued--;
}

static struct ios_request *noop_former(struct ios_queue *q, struct ios_request *rq)
{
	struct noop_data *nd = noop_data(q);

	if (ios_list_unlinked(&rq->queuelist) || rq->queuelist.prev == &nd->fifo)
		return NULL;
	return ios_list_entry(rq->queuelist.prev, struct ios_request, queuelist);
}

static struct ios_request *noop_latter(struct ios_queue *q, struct ios_request *rq)
{
	struct noop_data *nd = noop_data(q);

	if (ios_list_unlinked(&rq->queuelist) || rq->queuelist.next == &nd->fifo)
		return NULL;
	return ios_list_entry(rq->queuelist.next, struct ios_request, queuelist);
}

static const struct ios_tunable noop_stats[] = {
	{ .name = "queued", .type = IOS_TUN_INT, .offset = offsetof(struct noop_data, queued),
	  .min = 0, .max = INT32_MAX, .unit = "", .flags = IOS_TUN_RO,
	  .help = "requests waiting in the FIFO" },
	{ .name = NULL },
};

const struct ios_sched_type ios_sched_noop = {
	.name = "noop",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = NULL,
	.desc = "FIFO with merging (Linux 2.6 noop)",
	.ops = {
		.init = noop_init,
		.exit = noop_exit,
		.insert = noop_insert,
		.dispatch = noop_dispatch,
		.has_work = noop_has_work,
		.completed = noop_completed,
		.requests_merged = noop_requests_merged,
		.former = noop_former,
		.latter = noop_latter,
	},
	.tunables = NULL,
	.stats = noop_stats,
	.priv_size = sizeof(struct noop_data),
	.features = 0,
	.share_model = IOS_SHARE_NONE,
};
