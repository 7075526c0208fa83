/*
 * Description: version 2 of the scheduler interface (docs/blk-mq-plan.md
 * section 5) adds the block layer a scheduler runs on and its blk-mq hooks
 * at the end of struct ios_sched_type, without changing what version 1
 * meant. A version 1 descriptor is single-queue whatever its tail holds
 * (the core never reads the fields it did not have); a version 2 one is
 * refused with an unknown layer, blk-mq hooks on a single-queue scheduler,
 * may_queue() on a blk-mq one, or dispatch_hctx() without has_work_hctx();
 * a blk-mq descriptor gets a blk-mq queue (src/block/mq.c), 'none' only on
 * blk-mq; the legacy built-ins are single-queue and the blk-mq built-ins
 * pass the v2 checks.
 */
#include <string.h>
#include "harness.h"

static int v_init(struct ios_queue *q)
{
	(void)q;
	return 0;
}

static void v_exit(struct ios_queue *q)
{
	(void)q;
}

static void v_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns, unsigned f)
{
	(void)q, (void)rq, (void)now_ns, (void)f;
}

static struct ios_request *v_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	(void)q, (void)now_ns, (void)flags;
	return NULL;
}

static bool v_has_work(struct ios_queue *q)
{
	(void)q;
	return false;
}

static void v_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	(void)q, (void)rq, (void)now_ns;
}

static enum ios_mqueue v_may_queue(struct ios_queue *q, struct ios_ioc *ioc, int dir, bool sync)
{
	(void)q, (void)ioc, (void)dir, (void)sync;
	return IOS_MQUEUE_MAY;
}

static struct ios_request *v_dispatch_hctx(struct ios_queue *q, unsigned hctx, uint64_t now_ns)
{
	(void)q, (void)hctx, (void)now_ns;
	return NULL;
}

static unsigned v_limit_depth(struct ios_queue *q, unsigned opf, const struct ios_ioc *ioc)
{
	(void)q, (void)opf, (void)ioc;
	return 0;
}

static const struct ios_sched_mq_ops v_mq_hctx_only = { .dispatch_hctx = v_dispatch_hctx };
static const struct ios_sched_mq_ops v_mq_depth = { .limit_depth = v_limit_depth };

static struct ios_sched_type v_type(unsigned version, unsigned layer,
				    const struct ios_sched_mq_ops *mq)
{
	struct ios_sched_type t = {
		.name = "test-v2",
		.version = version,
		.ops = {
			.init = v_init,
			.exit = v_exit,
			.insert = v_insert,
			.dispatch = v_dispatch,
			.has_work = v_has_work,
			.completed = v_completed,
		},
		.layer = layer,
		.mq_ops = mq,
	};

	return t;
}

static int check(const struct ios_sched_type *t, const char *want)
{
	struct ios_err e = { 0 };
	int ret = ios_sched_type_check(t, &e);

	if (!want) {
		T_ASSERT_MSG(ret == 0, "refused: %s", e.msg);
		return T_PASS;
	}
	T_ASSERT_EQ(ret, -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, want), "message '%s' lacks '%s'", e.msg, want);
	return T_PASS;
}

/* Version 1 knew no layer: whatever lies where v2 put its fields is not read. */
static int test_v1_ignores_the_tail(void)
{
	struct ios_sched_type t = v_type(1, 7, &v_mq_hctx_only);

	T_ASSERT_EQ(check(&t, NULL), T_PASS);
	T_ASSERT_EQ(ios_sched_layer(&t), IOS_SCHED_LAYER_SQ);
	T_ASSERT(ios_sched_mq_ops(&t) == NULL);
	t.ops.may_queue = v_may_queue;
	T_ASSERT_EQ(check(&t, NULL), T_PASS);
	return T_PASS;
}

static int test_v2_layer_rules(void)
{
	struct ios_sched_type t = v_type(2, IOS_SCHED_LAYER_SQ, NULL);

	T_ASSERT_EQ(check(&t, NULL), T_PASS);
	t.layer = IOS_SCHED_LAYER_NR;
	T_ASSERT_EQ(check(&t, "unknown block layer"), T_PASS);
	t = v_type(2, IOS_SCHED_LAYER_SQ, &v_mq_depth);
	T_ASSERT_EQ(check(&t, "blk-mq hooks on a single-queue"), T_PASS);
	t = v_type(2, IOS_SCHED_LAYER_MQ, &v_mq_depth);
	T_ASSERT_EQ(check(&t, NULL), T_PASS);
	T_ASSERT_EQ(ios_sched_layer(&t), IOS_SCHED_LAYER_MQ);
	T_ASSERT(ios_sched_mq_ops(&t) == &v_mq_depth);
	t.ops.may_queue = v_may_queue;
	T_ASSERT_EQ(check(&t, "may_queue() is a hook of the single-queue"), T_PASS);
	t = v_type(2, IOS_SCHED_LAYER_MQ, &v_mq_hctx_only);
	T_ASSERT_EQ(check(&t, "dispatch_hctx() without has_work_hctx()"), T_PASS);
	/* a blk-mq scheduler without hooks of its own (none) is fine */
	t = v_type(2, IOS_SCHED_LAYER_MQ, NULL);
	T_ASSERT_EQ(check(&t, NULL), T_PASS);
	/* versions past this library's stay refused */
	t = v_type(IOS_SCHED_INTERFACE_VERSION + 1, IOS_SCHED_LAYER_SQ, NULL);
	T_ASSERT_EQ(check(&t, "interface version"), T_PASS);
	return T_PASS;
}

static void null_issue(void *h, struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	(void)h, (void)q, (void)rq, (void)now;
}

static void null_timer(void *h, struct ios_queue *q, uint64_t when)
{
	(void)h, (void)q, (void)when;
}

static const struct ios_queue_host_ops null_host = { .issue = null_issue,
						     .set_timer = null_timer };

/* A blk-mq descriptor gets a blk-mq queue (q->mq); the same one on SQ a legacy queue. */
static int test_mq_gets_blk_mq_queue(void)
{
	struct ios_sched_type t = v_type(2, IOS_SCHED_LAYER_MQ, NULL);
	struct ios_queue_config cfg;
	struct ios_err e = { 0 };
	struct ios_queue *q;

	memset(&cfg, 0, sizeof(cfg));
	cfg.sched = &t;
	cfg.depth = 1;
	cfg.capacity_sectors = 1ULL << 30;
	cfg.host_ops = &null_host;
	q = ios_queue_create(&cfg, &e);
	T_ASSERT_MSG(q != NULL, "%s", e.msg);
	T_ASSERT(q->mq != NULL);
	T_ASSERT_EQ(q->nr_hw_queues, 1);
	T_ASSERT_EQ(q->nr_cpus, 1);
	T_ASSERT_EQ(q->nr_requests, 2);	/* 2 * min(depth 1, 128) */
	ios_queue_destroy(q);
	/* the same descriptor on the single-queue layer builds today's queue */
	t.layer = IOS_SCHED_LAYER_SQ;
	memset(&e, 0, sizeof(e));
	q = ios_queue_create(&cfg, &e);
	T_ASSERT_MSG(q != NULL, "%s", e.msg);
	T_ASSERT(q->mq == NULL);
	T_ASSERT_EQ(q->nr_requests, 0);
	ios_queue_destroy(q);
	/* 'none' is a blk-mq notion: refused on the single-queue layer */
	t.features = IOS_SCHED_NO_ELEVATOR;
	T_ASSERT_EQ(check(&t, "blk-mq layer only"), T_PASS);
	return T_PASS;
}

/*
 * The legacy built-ins, and every group-policy variant, are single-queue
 * with no blk-mq hooks; 'none' is blk-mq without an elevator.
 */
static int test_builtins_layers(void)
{
	static const char *const legacy[] = { "noop", "deadline", "bfq", "as", "cfq",
					      "cfq-2.6.33", "cfq-4.19" };
	const struct ios_sched_type *t;

	for (size_t i = 0; i < IOS_ARRAY_SIZE(legacy); i++) {
		t = ios_sched_find(legacy[i]);
		T_ASSERT_MSG(t != NULL, "%s", legacy[i]);
		T_ASSERT_MSG(ios_sched_layer(t) == IOS_SCHED_LAYER_SQ, "%s", t->name);
		T_ASSERT_MSG(ios_sched_mq_ops(t) == NULL, "%s", t->name);
		for (size_t k = 0; t->cgroups && k < IOS_GROUP_POLICY_NR; k++)
			if (t->cgroups->policy[k])
				T_ASSERT(ios_sched_layer(t->cgroups->policy[k]) ==
					 IOS_SCHED_LAYER_SQ);
	}
	for (size_t i = 0; (t = ios_sched_at(i)) != NULL; i++) {
		struct ios_err e = { 0 };

		if (ios_sched_layer(t) != IOS_SCHED_LAYER_MQ)
			continue;
		T_ASSERT_MSG(ios_sched_type_check(t, &e) == 0, "%s: %s", t->name, e.msg);
	}
	t = ios_sched_find("none");
	T_ASSERT(t != NULL);
	T_ASSERT_EQ(ios_sched_layer(t), IOS_SCHED_LAYER_MQ);
	T_ASSERT(t->features & IOS_SCHED_NO_ELEVATOR);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_v1_ignores_the_tail, test_v2_layer_rules, test_mq_gets_blk_mq_queue,
		     test_builtins_layers);
}
