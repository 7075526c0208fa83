/*
 * Scheduler registry and the sector-tree helpers schedulers share.
 *
 * Built-in schedulers are listed explicitly in ios_builtin_scheds[] (a
 * constructor-based registration would be dropped silently by the linker
 * when nothing references the object file). Extra schedulers can be added
 * at run time with ios_sched_register(), which checks the descriptor the
 * way elv_register() and fio's check_engine_ops() do.
 */
#include <stdio.h>
#include <string.h>
#include "iosched/sched.h"
#include "iosched/suggest.h"
#include "core/builtin.h"

static const struct ios_sched_type *const ios_builtin_scheds[] = {
	&ios_sched_noop,
	&ios_sched_deadline,
	&ios_sched_bfq,
	&ios_sched_as,
	&ios_sched_cfq,
	&ios_sched_cfq_2633,
	&ios_sched_cfq_419,
	/* blk-mq schedulers (the single-queue layer's come first, as before) */
	&ios_sched_none,
	&ios_sched_mq_deadline_66,
	&ios_sched_mq_deadline,
	&ios_sched_kyber,
	&ios_sched_bfq_612,
};

static const struct ios_sched_type *extra_scheds[IOS_SCHED_MAX_EXTRA];
static size_t nr_extra_scheds;

static bool sched_name_is(const struct ios_sched_type *t, const char *name)
{
	return !strcmp(t->name, name) || (t->alias && !strcmp(t->alias, name));
}

const struct ios_sched_type *ios_sched_at(size_t i)
{
	size_t nb = IOS_ARRAY_SIZE(ios_builtin_scheds);

	if (i < nb)
		return ios_builtin_scheds[i];
	i -= nb;
	return i < nr_extra_scheds ? extra_scheds[i] : NULL;
}

unsigned ios_sched_cgroup_check(const struct ios_sched_type *st, bool in_group, bool nested,
				unsigned weight)
{
	const struct ios_sched_cgroups *cgi = st->cgroups;
	bool groups = cgi && cgi->groups;
	unsigned bad = 0;

	if (in_group && !groups)
		bad |= IOS_CG_IGNORED_GROUP;
	if (weight && !groups)
		bad |= IOS_CG_IGNORED_WEIGHT;
	if (weight && groups && !cgi->weight_max)
		bad |= IOS_CG_WEIGHT_UNUSED;
	if (weight && groups && cgi->weight_max &&
	    (weight < cgi->weight_min || weight > cgi->weight_max))
		bad |= IOS_CG_WEIGHT_RANGE;
	if (nested && groups && !cgi->nested)
		bad |= IOS_CG_NESTED_FLAT;
	return bad;
}

const char *ios_sched_suggest(const char *typed, char *buf, size_t size)
{
	const struct ios_sched_type *t;
	struct ios_suggest s;

	ios_suggest_init(&s, typed);
	for (size_t i = 0; (t = ios_sched_at(i)) != NULL; i++) {
		ios_suggest_add(&s, NULL, t->name);
		ios_suggest_add(&s, NULL, t->alias);
	}
	return ios_suggest_str(&s, buf, size);
}

const struct ios_sched_type *ios_sched_find(const char *name)
{
	const struct ios_sched_type *t;

	for (size_t i = 0; (t = ios_sched_at(i)) != NULL; i++)
		if (sched_name_is(t, name))
			return t;
	return NULL;
}

static int sched_check_hooks(const struct ios_sched_type *t, struct ios_err *e)
{
	const struct ios_sched_ops *o = &t->ops;
	const char *missing = !o->init ? "init" : !o->exit ? "exit" : !o->insert ? "insert"
			      : !o->dispatch ? "dispatch" : !o->has_work ? "has_work"
			      : !o->completed ? "completed" : NULL;

	if (missing)
		return IOS_ERR(e, -EINVAL, "scheduler %s: required hook %s() is missing", t->name,
			       missing);
	if (t->features & ~IOS_SCHED_FEATURES)
		return IOS_ERR(e, -EINVAL, "scheduler %s: unknown feature bits 0x%x", t->name,
			       t->features & ~IOS_SCHED_FEATURES);
	/* idling is asked for through next_wakeup(); one without the other is a slip */
	if (!(t->features & IOS_SCHED_IDLES) != !o->next_wakeup)
		return IOS_ERR(e, -EINVAL, "scheduler %s: %s", t->name,
			       o->next_wakeup ? "has next_wakeup() but not IOS_SCHED_IDLES"
					      : "IOS_SCHED_IDLES without a next_wakeup() hook");
	return 0;
}

/* Version 2: the layer it runs on, and hooks that belong to that layer only. */
static int sched_check_layer(const struct ios_sched_type *t, struct ios_err *e)
{
	const struct ios_sched_mq_ops *mq = ios_sched_mq_ops(t);
	unsigned layer = ios_sched_layer(t);

	if (layer >= IOS_SCHED_LAYER_NR)
		return IOS_ERR(e, -EINVAL, "scheduler %s: unknown block layer %u", t->name, layer);
	if (mq && layer != IOS_SCHED_LAYER_MQ)
		return IOS_ERR(e, -EINVAL, "scheduler %s: blk-mq hooks on a single-queue scheduler",
			       t->name);
	if (layer == IOS_SCHED_LAYER_MQ && t->ops.may_queue)
		return IOS_ERR(e, -EINVAL, "scheduler %s: may_queue() is a hook of the single-queue "
			       "layer; blk-mq limits allocations with mq_ops->limit_depth()", t->name);
	if ((t->features & IOS_SCHED_NO_ELEVATOR) && layer != IOS_SCHED_LAYER_MQ)
		return IOS_ERR(e, -EINVAL, "scheduler %s: IOS_SCHED_NO_ELEVATOR ('none') exists on "
			       "the blk-mq layer only", t->name);
	if (mq && !mq->dispatch_hctx != !mq->has_work_hctx)
		return IOS_ERR(e, -EINVAL, "scheduler %s: %s without %s", t->name,
			       mq->dispatch_hctx ? "dispatch_hctx()" : "has_work_hctx()",
			       mq->dispatch_hctx ? "has_work_hctx()" : "dispatch_hctx()");
	return 0;
}

static int sched_check_one(const struct ios_sched_type *t, struct ios_err *e)
{
	const struct ios_sched_cgroups *cg = t->cgroups;
	char owner[80];
	int ret;

	if (!t->name || !*t->name)
		return IOS_ERR(e, -EINVAL, "scheduler descriptor without a name");
	if (t->alias && (!*t->alias || !strcmp(t->alias, t->name)))
		return IOS_ERR(e, -EINVAL, "scheduler %s: the alias must be a second, non-empty name",
			       t->name);
	if (!t->version || t->version > IOS_SCHED_INTERFACE_VERSION)
		return IOS_ERR(e, -EINVAL, "scheduler %s: interface version %u not supported "
			       "(this library knows versions 1 to %u)", t->name, t->version,
			       IOS_SCHED_INTERFACE_VERSION);
	ret = sched_check_hooks(t, e);
	if (!ret)
		ret = sched_check_layer(t, e);
	if (ret)
		return ret;
	if ((unsigned)t->share_model >= IOS_SHARE_NR)
		return IOS_ERR(e, -EINVAL, "scheduler %s: unknown share model %u", t->name,
			       (unsigned)t->share_model);
	snprintf(owner, sizeof(owner), "scheduler %s", t->name);
	ret = ios_tunable_check_table(t->tunables, t->priv_size, owner, e);
	if (!ret) {
		snprintf(owner, sizeof(owner), "scheduler %s stats", t->name);
		ret = ios_tunable_check_table(t->stats, t->priv_size, owner, e);
	}
	if (ret)
		return ret;
	if (t->stats) {
		const struct ios_tunable *x;
		size_t n = 0;

		ios_tunable_for_each(x, t->stats)
			n++;
		/* the run result keeps IOS_SCHED_STATS_MAX of them: more would be dropped */
		if (n > IOS_SCHED_STATS_MAX)
			return IOS_ERR(e, -EINVAL, "scheduler %s: %zu stats, at most %d are reported",
				       t->name, n, IOS_SCHED_STATS_MAX);
	}
	/* a weight range must hold its default, and 0 means "no weights" */
	if (cg && cg->weight_max &&
	    (!cg->weight_min || cg->weight_min > cg->weight_default ||
	     cg->weight_default > cg->weight_max))
		return IOS_ERR(e, -EINVAL, "scheduler %s: cgroup weights %u..%u do not hold the "
			       "default %u", t->name, cg->weight_min, cg->weight_max,
			       cg->weight_default);
	return 0;
}

int ios_sched_type_check(const struct ios_sched_type *t, struct ios_err *e)
{
	int ret;

	if (!t)
		return IOS_ERR(e, -EINVAL, "no scheduler descriptor");
	ret = sched_check_one(t, e);
	if (ret || !t->cgroups)
		return ret;
	/* the descriptors the runner may put in this one's place (lab.group_policy) */
	for (size_t i = 0; i < IOS_GROUP_POLICY_NR; i++) {
		const struct ios_sched_type *p = t->cgroups->policy[i];

		if (!p)
			continue;
		ret = sched_check_one(p, e);
		if (ret)
			return ret;
		if (p->cgroups && p->cgroups != t->cgroups)
			for (size_t k = 0; k < IOS_GROUP_POLICY_NR; k++)
				if (p->cgroups->policy[k])
					return IOS_ERR(e, -EINVAL, "scheduler %s: group policy %s "
						       "names policies of its own", t->name, p->name);
	}
	return 0;
}

int ios_sched_register(const struct ios_sched_type *t, struct ios_err *e)
{
	const char *clash;
	int ret = ios_sched_type_check(t, e);

	if (ret)
		return ret;
	clash = ios_sched_find(t->name) ? t->name
		: t->alias && ios_sched_find(t->alias) ? t->alias : NULL;
	if (clash)
		return IOS_ERR(e, -EEXIST, "scheduler %s: the name %s is taken (by %s)", t->name,
			       clash, ios_sched_find(clash)->name);
	if (nr_extra_scheds == IOS_SCHED_MAX_EXTRA)
		return IOS_ERR(e, -ENOSPC, "scheduler %s: the registry is full (%d added "
			       "schedulers at most)", t->name, IOS_SCHED_MAX_EXTRA);
	extra_scheds[nr_extra_scheds++] = t;
	return 0;
}

/*
 * Open-coded descent (no comparison callback): this is on every scheduler's
 * insert path. Equal sectors go right, so they keep arrival order.
 */
void ios_elv_rb_add(struct ios_rb_root *root, struct ios_request *rq)
{
	struct ios_rb_node **link = &root->node, *parent = NULL;
	uint64_t sector = rq->sector;

	/* random sectors make a left/right branch unpredictable: index instead */
	while (*link) {
		parent = *link;
		link = &parent->child[sector >= ios_rb_to_rq(parent)->sector];
	}
	ios_rb_link(&rq->rb_node, parent, link);
	ios_rb_insert_color(&rq->rb_node, root);
}

void ios_elv_rb_del(struct ios_rb_root *root, struct ios_request *rq)
{
	IOS_BUG_ON(ios_rb_unlinked(&rq->rb_node));
	ios_rb_erase(&rq->rb_node, root);
}

struct ios_request *ios_elv_rb_find(const struct ios_rb_root *root, uint64_t sector)
{
	struct ios_rb_node *n = root->node, *found = NULL;

	/* leftmost of equal keys: the oldest request starting there */
	while (n) {
		struct ios_request *rq = ios_rb_to_rq(n);

		if (sector < rq->sector) {
			n = n->left;
		} else if (sector > rq->sector) {
			n = n->right;
		} else {
			found = n;
			n = n->left;
		}
	}
	return ios_rb_to_rq(found);
}

struct ios_request *ios_elv_rb_former(struct ios_request *rq)
{
	return ios_rb_to_rq(ios_rb_prev(&rq->rb_node));
}

struct ios_request *ios_elv_rb_latter(struct ios_request *rq)
{
	return ios_rb_to_rq(ios_rb_next(&rq->rb_node));
}
