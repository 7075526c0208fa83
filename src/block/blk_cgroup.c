/*
 * The per-queue group tree, after Linux 6.12's blkcg_gq (block/
 * blk-cgroup.c, blkg_create: a queue's blkg for a cgroup exists only with
 * its parent's, and each holds one policy-data slot per enabled policy).
 *
 * Here a blk-mq queue gets one node per cgroup of the run when the
 * workload's groups are known (run/cgroup.c), in the cgroups' id order,
 * which puts every parent before its children. The controllers of the
 * later steps of docs/cgroup-v2-plan.md §12 keep their per-group state in
 * the node's slots; step 1 builds the tree and nothing reads it yet.
 */
#include <errno.h>
#include <stdlib.h>
#include "iosched/blkcg.h"
#include "iosched/request.h"

struct ios_blkcg_ctl *ios_blkcg_ctl_create(struct ios_cgroup *const *cgroups, unsigned n)
{
	struct ios_blkcg_ctl *ctl = calloc(1, sizeof(*ctl));

	if (!ctl)
		return NULL;
	ctl->blkgs = calloc(n ? n : 1, sizeof(*ctl->blkgs));
	if (!ctl->blkgs) {
		free(ctl);
		return NULL;
	}
	ctl->nr_blkgs = n;
	for (unsigned i = 0; i < n; i++) {
		struct ios_blkg *g = &ctl->blkgs[i];
		const struct ios_cgroup *p = cgroups[i]->parent;

		g->cgroup = cgroups[i];
		/* ids are dense and parents older: the parent's node is built already */
		g->parent = p && p->id < i ? &ctl->blkgs[p->id] : NULL;
		g->level = g->parent ? g->parent->level + 1 : 0;
	}
	return ctl;
}

void ios_blkcg_ctl_destroy(struct ios_blkcg_ctl *ctl)
{
	if (!ctl)
		return;
	free(ctl->blkgs);
	free(ctl);
}

struct ios_blkg *ios_blkg_of(struct ios_blkcg_ctl *ctl, const struct ios_cgroup *cg)
{
	if (!ctl || !cg || cg->id >= ctl->nr_blkgs || ctl->blkgs[cg->id].cgroup != cg)
		return NULL;
	return &ctl->blkgs[cg->id];
}
