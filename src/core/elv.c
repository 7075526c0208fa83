/*
 * Scheduler registry and the sector-tree helpers schedulers share.
 *
 * Built-in schedulers are listed explicitly in ios_builtin_scheds[] (a
 * constructor-based registration would be dropped silently by the linker
 * when nothing references the object file). Extra schedulers can be added
 * at run time with ios_sched_register(), which checks the descriptor the
 * way elv_register() and fio's check_engine_ops() do.
 */
#include <string.h>
#include "iosched/sched.h"
#include "core/builtin.h"

static const struct ios_sched_type *const ios_builtin_scheds[] = {
	&ios_sched_noop,
	&ios_sched_deadline,
	&ios_sched_bfq,
	&ios_sched_as,
	&ios_sched_cfq,
	&ios_sched_cfq_2633,
	&ios_sched_cfq_419,
};

#define IOS_MAX_EXTRA_SCHEDS 16
static const struct ios_sched_type *extra_scheds[IOS_MAX_EXTRA_SCHEDS];
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

const struct ios_sched_type *ios_sched_find(const char *name)
{
	const struct ios_sched_type *t;

	for (size_t i = 0; (t = ios_sched_at(i)) != NULL; i++)
		if (sched_name_is(t, name))
			return t;
	return NULL;
}

int ios_sched_register(const struct ios_sched_type *t)
{
	const struct ios_sched_ops *o = &t->ops;

	if (!t->name || !*t->name || !o->init || !o->exit || !o->insert || !o->dispatch ||
	    !o->has_work || !o->completed)
		return -EINVAL;
	/* a weight range must hold its default, and 0 means "no weights" */
	if (t->cgroups && t->cgroups->weight_max &&
	    (!t->cgroups->weight_min || t->cgroups->weight_min > t->cgroups->weight_default ||
	     t->cgroups->weight_default > t->cgroups->weight_max))
		return -EINVAL;
	if (ios_sched_find(t->name) || (t->alias && ios_sched_find(t->alias)))
		return -EEXIST;
	if (nr_extra_scheds == IOS_MAX_EXTRA_SCHEDS)
		return -ENOSPC;
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
