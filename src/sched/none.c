/*
 * none: blk-mq without an I/O scheduler, as Linux 6.12 runs a queue whose
 * queue/scheduler says [none] (elevator_switch(q, NULL); block/blk-mq.c).
 *
 * There is no elevator to describe: the descriptor only names the choice,
 * so that --scheduler none, ioscheduler=none and 'iosched list' find it.
 * Its feature bit IOS_SCHED_NO_ELEVATOR tells the blk-mq core
 * (src/block/mq.c) to run the queue without one: requests take driver tags
 * at allocation (queue/nr_requests is the device's depth), are issued at
 * submission when the hardware queue is not dispatch_busy
 * (blk_mq_try_issue_directly), and otherwise wait in their CPU's software
 * context, where later bios may still merge into them (blk_bio_list_merge).
 * The core never calls the hooks below; they exist because every
 * descriptor must have them (ios_sched_type_check).
 *
 * Tunables: none. ioprio: not read.
 */
#include <inttypes.h>
#include "iosched/block.h"
#include "iosched/sched.h"
#include "core/builtin.h"

static int none_init(struct ios_queue *q)
{
	(void)q;
	return 0;
}

static void none_exit(struct ios_queue *q)
{
	(void)q;
}

static void none_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
			unsigned flags)
{
	(void)q;
	(void)now_ns;
	(void)flags;
	IOS_BUG_ON_MSG(1, "request %" PRIu64 " inserted into 'none', which has no elevator",
		       rq->id);
}

static struct ios_request *none_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	(void)q;
	(void)now_ns;
	(void)flags;
	return NULL;
}

static bool none_has_work(struct ios_queue *q)
{
	(void)q;
	return false;
}

static void none_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	(void)q;
	(void)rq;
	(void)now_ns;
}

const struct ios_sched_type ios_sched_none = {
	.name = "none",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.desc = "blk-mq without a scheduler (Linux 6.12): direct issue, software-context merges",
	.ops = {
		.init = none_init,
		.exit = none_exit,
		.insert = none_insert,
		.dispatch = none_dispatch,
		.has_work = none_has_work,
		.completed = none_completed,
	},
	.features = IOS_SCHED_NO_ELEVATOR,
	.layer = IOS_SCHED_LAYER_MQ,
};
