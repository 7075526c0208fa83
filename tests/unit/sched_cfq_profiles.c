/*
 * Description: CFQ's release profiles (cfq_profiles.c). Every built-in CFQ
 * descriptor carries a profile and init takes it from there; each profile
 * has the mechanisms its release had (the facts docs/cfq.md tabulates:
 * 2.6.31 one service tree per device and a seek mean per context, 2.6.33
 * workload trees in flat groups and a seek mean per queue, 4.19 nested
 * groups, a seek history, group_idle and REQ_IDLE); the behaviours that
 * need each other come together; and a behaviour with a sysfs tunable is
 * in a profile exactly when the descriptor's table has that file.
 */
#include "sched_cfq_util.h"

static const struct ios_tunable *tun(const struct ios_tunable *tab, const char *name)
{
	const struct ios_tunable *t;

	ios_tunable_for_each(t, tab)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* a file the user can see and write */
static bool tun_writable(const struct ios_sched_type *st, const char *name)
{
	const struct ios_tunable *t = tun(st->tunables, name);

	return t && !(t->flags & (IOS_TUN_RO | IOS_TUN_HIDDEN));
}

/* the registry's CFQ descriptor for @release */
static const struct ios_sched_type *cfq_desc(const char *name)
{
	const struct ios_sched_type *st = ios_sched_find(name);

	return st && st->profile ? st : NULL;
}

static int test_every_cfq_descriptor_has_profile(void)
{
	unsigned n = 0;

	for (size_t i = 0; ios_sched_at(i); i++) {
		const struct ios_sched_type *st = ios_sched_at(i);
		const struct cfq_profile *prof = st->profile;
		struct t_sq *s;

		if (strncmp(st->name, "cfq", 3))
			continue;
		n++;
		T_ASSERT_MSG(prof, "%s has no profile", st->name);
		/* the release is in the name or the alias ("cfq" is "cfq-2.6.31") */
		T_ASSERT_MSG(strstr(st->name, prof->release) ||
				     (st->alias && strstr(st->alias, prof->release)),
			     "%s carries the %s profile", st->name, prof->release);
		/* init reads it from the descriptor */
		s = t_sq_new(st->name, 4, 1, NULL);
		T_ASSERT(s);
		T_ASSERT(cq_data(s)->prof == prof);
		cq_free(s);
		/* the 2008 designs reached through lab.group_policy carry theirs */
		for (int p = 0; st->cgroups && p < IOS_GROUP_POLICY_NR; p++) {
			const struct ios_sched_type *lab = st->cgroups->policy[p];
			const struct cfq_lab_profile *lp;

			if (!lab)
				continue;
			lp = lab->profile;
			T_ASSERT_MSG(lp, "%s has no profile", lab->name);
			T_ASSERT_EQ(lp->policy, p);
			/* one 2.6.31 CFQ per group, the CFQ the patches were for */
			T_ASSERT(lp->inner && lp->inner->profile == &ios_cfq_profile_2631);
		}
	}
	T_ASSERT_EQ(n, 3);
	return T_PASS;
}

static int test_2631_facts(void)
{
	const struct cfq_profile *p = &ios_cfq_profile_2631;

	T_ASSERT(cfq_desc("cfq")->profile == p);
	T_ASSERT(!p->workload_trees && !p->groups && !p->hier_groups);
	T_ASSERT(p->seek == CFQ_SEEK_CIC_MEAN && p->close == CFQ_CLOSE_SEEK_MEAN);
	T_ASSERT(p->seeky_window_needs_ncq && !p->deep_queue);
	T_ASSERT(p->idle_window_only && !p->hw_tag_guarded);
	T_ASSERT(p->arm == CFQ_ARM_UNLESS_NOIDLE && p->wait_busy == CFQ_WAIT_BUSY_NONE);
	T_ASSERT(!p->queue_merging && p->sort_aliases && !p->keep_empty_busy);
	T_ASSERT(p->limit == CFQ_LIMIT_QUANTUM_4X && !p->fifo_before_limits);
	T_ASSERT(p->meta_flag == IOS_REQ_META && !p->req_idle);
	T_ASSERT(p->resid_added && !p->front_key_before_first);
	T_ASSERT(p->rt_expires_in_select && p->preempt_used_slice_first);
	T_ASSERT(!p->low_latency_slice && !p->async_depth_ramp);
	/* target_latency has no file but the code reads it */
	T_ASSERT(p->hidden && tun(p->hidden, "target_latency"));
	return T_PASS;
}

static int test_2633_facts(void)
{
	const struct cfq_profile *p = &ios_cfq_profile_2633;

	T_ASSERT(cfq_desc("cfq-2.6.33")->profile == p);
	T_ASSERT(p->workload_trees && p->groups && !p->hier_groups && p->isolation_move);
	T_ASSERT(p->seek == CFQ_SEEK_QUEUE_MEAN && p->close == CFQ_CLOSE_MEAN_CAPPED);
	T_ASSERT(p->deep_queue && !p->seeky_window_needs_ncq && !p->tree_group_ttime);
	T_ASSERT(!p->idle_window_only && p->hw_tag_guarded && !p->group_idle);
	T_ASSERT(p->arm == CFQ_ARM_NOIDLE_TREE && p->wait_busy == CFQ_WAIT_BUSY_LAST);
	/* 2.6.33.3's merging: no process-reference checks yet */
	T_ASSERT(p->queue_merging && !p->merge_needs_process_refs && !p->split_puts_cooperator);
	T_ASSERT(p->sort_aliases && p->keep_empty_busy && p->next_rq_from_dispatched);
	T_ASSERT(p->limit == CFQ_LIMIT_QUANTUM && !p->iops_mode);
	T_ASSERT(p->meta_flag == IOS_REQ_META && !p->req_idle);
	T_ASSERT(!p->resid_added && p->front_key_before_first && !p->rt_expires_in_select);
	T_ASSERT(p->preempt_rt_protected && !p->preempt_noidle_any);
	T_ASSERT(p->low_latency_slice && p->async_depth_ramp && !p->async_per_group);
	T_ASSERT(!p->hidden);
	return T_PASS;
}

static int test_419_facts(void)
{
	const struct cfq_profile *p = &ios_cfq_profile_419;

	T_ASSERT(cfq_desc("cfq-4.19")->profile == p);
	T_ASSERT(p->workload_trees && p->groups && p->hier_groups && !p->isolation_move);
	T_ASSERT(p->seek == CFQ_SEEK_HISTORY && p->close == CFQ_CLOSE_FIXED);
	T_ASSERT(p->deep_queue && p->tree_group_ttime && p->group_idle && p->iops_mode);
	T_ASSERT(p->req_idle && p->window_off_noidle_next && p->should_idle_needs_slice_idle);
	T_ASSERT(p->arm == CFQ_ARM_ALWAYS && p->wait_busy == CFQ_WAIT_BUSY_LAST_EMPTY);
	T_ASSERT(p->queue_merging && p->merge_needs_process_refs && p->split_puts_cooperator);
	T_ASSERT(!p->sort_aliases && p->async_per_group && p->async_prio_from_nice);
	T_ASSERT(p->limit == CFQ_LIMIT_SOFT_QUANTUM && p->fifo_before_limits);
	T_ASSERT(p->meta_flag == IOS_REQ_PRIO && p->prio_boost);
	T_ASSERT(p->nonrot_no_idle && p->resid_on_unused_slice);
	T_ASSERT(p->preempt_rt_protected && p->preempt_spares_must_dispatch &&
		 p->preempt_rt_before_noidle && p->preempt_noidle_any &&
		 p->preempt_empty_not_idling && p->preempt_resets_wl_slice);
	return T_PASS;
}

/* Behaviours that only work together, in every profile. */
static int test_profiles_consistent(void)
{
	const struct cfq_profile *all[] = { &ios_cfq_profile_2631, &ios_cfq_profile_2633,
					    &ios_cfq_profile_419 };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(all); i++) {
		const struct cfq_profile *p = all[i];

		T_ASSERT_MSG(!p->groups || p->workload_trees, "%s", p->release);
		T_ASSERT_MSG(!p->hier_groups || p->groups, "%s", p->release);
		T_ASSERT_MSG(!p->isolation_move || (p->groups && !p->hier_groups), "%s", p->release);
		/* merging reads a queue's seekiness, not a context's */
		T_ASSERT_MSG(!p->queue_merging || p->seek != CFQ_SEEK_CIC_MEAN, "%s", p->release);
		T_ASSERT_MSG((p->close == CFQ_CLOSE_SEEK_MEAN) == (p->seek == CFQ_SEEK_CIC_MEAN),
			     "%s", p->release);
		T_ASSERT_MSG(p->arm != CFQ_ARM_NOIDLE_TREE || p->workload_trees, "%s", p->release);
		T_ASSERT_MSG(p->wait_busy == CFQ_WAIT_BUSY_NONE || p->groups, "%s", p->release);
		T_ASSERT_MSG(!p->group_idle || p->tree_group_ttime, "%s", p->release);
		T_ASSERT_MSG(p->keep_empty_busy != p->idle_window_only, "%s", p->release);
		T_ASSERT_MSG(p->meta_flag == IOS_REQ_META || p->meta_flag == IOS_REQ_PRIO, "%s",
			     p->release);
	}
	return T_PASS;
}

/* A behaviour with a sysfs file is in the profile exactly when the file is. */
static int test_profile_matches_tunables(void)
{
	const char *names[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(names); i++) {
		const struct ios_sched_type *st = cfq_desc(names[i]);
		const struct cfq_profile *p;

		T_ASSERT(st);
		p = st->profile;
		T_ASSERT_MSG(p->group_idle == tun_writable(st, "group_idle"), "%s", st->name);
		T_ASSERT_MSG(p->low_latency_slice == tun_writable(st, "low_latency"), "%s",
			     st->name);
		T_ASSERT_MSG(p->isolation_move == tun_writable(st, "group_isolation"), "%s",
			     st->name);
		/* the seed-000 patch was for 2.6.31's seek rule */
		T_ASSERT_MSG(p->seeky_window_needs_ncq == tun_writable(st, "fairness"), "%s",
			     st->name);
		/* groups are offered exactly when the profile schedules them */
		T_ASSERT_MSG(p->groups == (st->cgroups && st->cgroups->groups), "%s", st->name);
		T_ASSERT_MSG(p->hier_groups == (st->cgroups && st->cgroups->nested), "%s",
			     st->name);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_every_cfq_descriptor_has_profile, test_2631_facts, test_2633_facts,
		     test_419_facts, test_profiles_consistent, test_profile_matches_tunables);
}
