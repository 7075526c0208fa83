/*
 * Description: CFQ's groups, mechanism by mechanism (spec cfq.md §10, §11),
 * driving the hooks directly with a fake clock. A group that becomes busy
 * starts 200 ms (unscaled) behind the last busy group, or 200 request
 * units in 4.19's IOPS mode. When a queue's slice ends its group is
 * charged the time used from the slice's start (at most the slice), scaled
 * by 500/weight in 2.6.33 and by 4096/vfraction in 4.19, where vfraction
 * is the group's share of the device as computed when it last joined the
 * tree (so a group that joined alone is charged as if it owned the disk
 * until its next turn); in IOPS mode (4.19, slice_idle=0 on queueing
 * hardware) the charge is the requests dispatched. The group slice is
 * target_latency * weight / busy weight (2.6.33) or target_latency *
 * vfraction / 4096 (4.19). 4.19's hierarchy: a/x's vfraction is x's share
 * of a times a's share of the root. group_idle keeps the disk for a group
 * with one queue that would not idle itself; wait_busy extends a group's
 * last queue's slice so that the group keeps its place on the tree when
 * the next request comes. 2.6.33 with group_isolation=0 serves a seeky
 * queue of another group in the root group.
 */
#include "sched_cfq_util.h"

static struct ios_cgroup cg_a = { .path = (char *)"a", .id = 1, .weight = 1000, .ioprio = -1,
				  .parent = &t_root_cgroup };
static struct ios_cgroup cg_b = { .path = (char *)"b", .id = 2, .weight = 500, .ioprio = -1,
				  .parent = &t_root_cgroup };

static const char *const profiles[] = { "cfq-2.6.33", "cfq-4.19" };

static struct ios_ioc *cg_ioc(uint32_t pid, struct ios_cgroup *cg)
{
	struct ios_ioc *ioc = cq_ioc(pid, IOS_IOPRIO_CLASS_BE, 4);

	ioc->cgroup = cg;
	return ioc;
}

static struct cfq_group *cq_group(struct t_sq *s, uint32_t pid)
{
	return cq_queue(s, pid, true)->cfqg;
}

/* the charge of @used ns to @g as the profile scales it */
static uint64_t scaled(const struct t_sq *s, const struct cfq_group *g, uint64_t used,
		       unsigned vfr)
{
	const struct cfq_data *cfqd = s->q.sched_data;

	if (cfqd->prof->hier_groups)
		return (used << 24) / vfr;
	return (used << 12) * 500 / g->weight;
}

static int test_new_group_behind_the_last(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 1, 1, NULL);
		struct cfq_group *ga, *gb;

		T_ASSERT(s);
		cg_ioc(1, &cg_a);
		cg_ioc(2, &cg_b);
		cq_read(s, 1, 1000, 0);
		cq_read(s, 2, 50000000, 0);
		ga = cq_group(s, 1);
		gb = cq_group(s, 2);
		T_ASSERT(ga != gb && ga != cq_data(s)->root_group);
		T_ASSERT_EQ(ga->weight, 1000);
		T_ASSERT_EQ(gb->weight, 500);
		T_ASSERT(ga->on_st && gb->on_st);
		/* the delay is not scaled like a charge: a 200 ms offset worth 1/4096 of one */
		T_ASSERT_U64_EQ(gb->vdisktime, ga->vdisktime + 200 * MS);
		cq_free(s);
	}
	return T_PASS;
}

/* A (weight 1000) serves one request, idles, and its slice ends at 9 ms */
static int test_vdisktime_charge(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 1, 1, NULL);
		struct ios_request *r1, *r2, *rq;
		struct cfq_group *ga, *gb;
		uint64_t v0;
		unsigned vfr;

		T_ASSERT(s);
		cg_ioc(1, &cg_a);
		cg_ioc(2, &cg_b);
		r1 = cq_read(s, 1, 1000, 0);
		cq_read(s, 1, 1008, 0);
		r2 = cq_read(s, 2, 50000000, 0);
		ga = cq_group(s, 1);
		gb = cq_group(s, 2);
		/* 4.19: A joined alone (the whole device), B beside it (500 of 1500) */
		if (cq_data(s)->prof->hier_groups) {
			T_ASSERT_EQ(ga->vfraction, 4096);
			T_ASSERT_EQ(gb->vfraction, 4096 * 500 / 1500);
		}
		vfr = ga->vfraction;
		v0 = ga->vdisktime;
		T_ASSERT(t_sq_dispatch(s, 0) == r1);
		cq_done(s, r1, 1 * MS);		/* the slice starts here */
		rq = t_sq_dispatch(s, 1 * MS);
		T_ASSERT(rq && rq->ioc->pid == 1);
		cq_done(s, rq, 2 * MS);		/* empty: CFQ idles for A */
		T_ASSERT_U64_EQ(cq_wakeup(s), 10 * MS);
		cq_timer(s, 10 * MS);		/* nothing came: the slice ends, 9 ms used */
		T_ASSERT_MSG(ga->vdisktime == v0 + scaled(s, ga, 9 * MS, vfr),
			     "%s: vdisktime %" PRIu64 ", expected %" PRIu64, profiles[p],
			     ga->vdisktime - v0, scaled(s, ga, 9 * MS, vfr));
		T_ASSERT_U64_EQ(ga->stat_time_ns, 9 * MS);
		T_ASSERT(!ga->on_st);		/* no busy queue left: off the tree */
		T_ASSERT(t_sq_dispatch(s, 10 * MS) == r2);
		cq_free(s);
	}
	return T_PASS;
}

/*
 * Both groups stay busy: A's slice (100 ms from its first completion) runs
 * out with requests still queued, so A is charged and rejoins at once, with
 * the vfraction the tree now gives it.
 */
static int test_vfraction_recomputed_on_charge(void)
{
	struct t_sq *s = t_sq_new("cfq-4.19", 1, 1, NULL);
	struct cfq_group *ga, *gb;
	struct ios_request *rq;

	T_ASSERT(s);
	cg_ioc(1, &cg_a);
	cg_ioc(2, &cg_b);
	for (int i = 0; i < 8; i++)
		cq_read(s, 1, 1000 + 8 * (uint64_t)i, 0);
	cq_read(s, 2, 50000000, 0);
	ga = cq_group(s, 1);
	gb = cq_group(s, 2);
	T_ASSERT_EQ(ga->vfraction, 4096);
	rq = t_sq_dispatch(s, 0);
	T_ASSERT(rq && rq->ioc->pid == 1);
	cq_done(s, rq, 1 * MS);
	while ((rq = t_sq_dispatch(s, cq_data(s)->now)) && rq->ioc->pid == 1)
		cq_done(s, rq, cq_data(s)->now + 40 * MS);
	T_ASSERT(ga->on_st);
	T_ASSERT_EQ(ga->vfraction, 4096 * 1000 / 1500);
	T_ASSERT_EQ(gb->vfraction, 4096 * 500 / 1500);
	cq_free(s);
	return T_PASS;
}

static int test_group_slice(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 1, 1, NULL);
		struct cfq_data *cfqd;
		struct cfq_group *ga, *gb;
		uint64_t sa, sb;

		T_ASSERT(s);
		cfqd = cq_data(s);
		cg_ioc(1, &cg_a);
		cg_ioc(2, &cg_b);
		cq_read(s, 1, 1000, 0);
		cq_read(s, 2, 50000000, 0);
		ga = cq_group(s, 1);
		gb = cq_group(s, 2);
		sa = ios_cfq_group_slice(cfqd, ga);
		sb = ios_cfq_group_slice(cfqd, gb);
		if (!cfqd->prof->hier_groups) {
			/* target_latency * weight / weight of the busy groups */
			T_ASSERT_U64_EQ(sa, 300 * MS * 1000 / 1500);
			T_ASSERT_U64_EQ(sb, 300 * MS * 500 / 1500);
		} else {
			T_ASSERT_U64_EQ(sa, (300 * MS * ga->vfraction) >> 12);
			T_ASSERT_U64_EQ(sb, (300 * MS * 1365) >> 12);
		}
		/* A's one sync queue gets the whole group slice as its workload slice */
		T_ASSERT(t_sq_dispatch(s, 0) != NULL);
		T_ASSERT_U64_EQ(cfqd->workload_expires, sa);
		/* off the tree, a group's slice is the whole target latency */
		T_ASSERT_U64_EQ(ios_cfq_group_slice(cfqd, cfqd->root_group), 300 * MS);
		cq_free(s);
	}
	return T_PASS;
}

/* 4.19: a/x and a/y (500 each) share a's half of the device with b (500). */
static int test_hierarchy_shares(void)
{
	struct ios_cgroup ca = { .path = (char *)"a", .id = 1, .weight = 0, .ioprio = -1,
				 .parent = &t_root_cgroup };
	struct ios_cgroup cx = { .path = (char *)"a/x", .id = 2, .weight = 500, .ioprio = -1,
				 .parent = &ca };
	struct ios_cgroup cy = { .path = (char *)"a/y", .id = 3, .weight = 500, .ioprio = -1,
				 .parent = &ca };
	struct ios_cgroup cb = { .path = (char *)"b", .id = 4, .weight = 500, .ioprio = -1,
				 .parent = &t_root_cgroup };
	struct t_sq *s = t_sq_new("cfq-4.19", 1, 1, NULL);
	struct cfq_data *cfqd;
	struct cfq_group *gx, *gy, *gb, *ga;

	T_ASSERT(s);
	cfqd = cq_data(s);
	cfqd->now = 0;
	gx = ios_cfq_lookup_group(cfqd, &cx);
	gy = ios_cfq_lookup_group(cfqd, &cy);
	gb = ios_cfq_lookup_group(cfqd, &cb);
	ga = ios_cfq_find_group(cfqd, &ca);
	T_ASSERT(ga && gx->parent == ga && gy->parent == ga && gb->parent == cfqd->root_group);
	T_ASSERT_EQ(ga->weight, 500);	/* the implicit parent has the default weight */
	ios_cfq_group_busy(cfqd, gx);
	T_ASSERT_EQ(gx->vfraction, 4096);
	ios_cfq_group_busy(cfqd, gy);
	T_ASSERT_EQ(gy->vfraction, 2048);	/* half of a, a alone under the root */
	ios_cfq_group_busy(cfqd, gb);
	T_ASSERT_EQ(gb->vfraction, 2048);
	/* rejoining, x sees the whole tree: half of a's half */
	ios_cfq_group_idle(cfqd, gx);
	T_ASSERT(!gx->on_st && ga->nr_active == 1 && ga->children_weight == 500);
	ios_cfq_group_busy(cfqd, gx);
	T_ASSERT_EQ(gx->vfraction, 1024);
	T_ASSERT_U64_EQ(ios_cfq_group_slice(cfqd, gx), 300 * MS / 4);
	/* everything leaves: the counts go back to zero all the way up */
	ios_cfq_group_idle(cfqd, gx);
	ios_cfq_group_idle(cfqd, gy);
	ios_cfq_group_idle(cfqd, gb);
	T_ASSERT(ga->nr_active == 0 && ga->children_weight == 0);
	T_ASSERT(cfqd->root_group->nr_active == 0 && cfqd->root_group->children_weight == 0);
	cq_free(s);

	/* 2.6.33 is flat: a/x is a child of the root, no group is made for a */
	s = t_sq_new("cfq-2.6.33", 1, 1, NULL);
	T_ASSERT(s);
	gx = ios_cfq_lookup_group(cq_data(s), &cx);
	T_ASSERT(gx->parent == cq_data(s)->root_group);
	T_ASSERT(ios_cfq_find_group(cq_data(s), &ca) == NULL);
	cq_free(s);
	return T_PASS;
}

/*
 * 4.19 without queue idling (slice_idle=0): A's queue would lose the disk
 * the moment it is empty; group_idle keeps it for A when A has no other
 * queue, so B's request waits.
 */
static int test_group_idle(void)
{
	for (int gi = 8; gi >= 0; gi -= 8) {
		char set[32];
		struct t_sq *s;
		struct ios_request *r1, *rq;

		snprintf(set, sizeof(set), "group_idle=%d", gi);
		s = t_sq_new("cfq-4.19", 1, 1, "slice_idle=0", set, NULL);
		T_ASSERT(s);
		cg_ioc(1, &cg_a);
		cg_ioc(2, &cg_b);
		r1 = cq_read(s, 1, 1000, 0);
		cq_read(s, 2, 50000000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r1);
		cq_done(s, r1, 1 * MS);
		if (gi) {
			T_ASSERT_U64_EQ(cq_wakeup(s), 9 * MS);
			T_ASSERT(t_sq_dispatch(s, 2 * MS) == NULL);
			/* A's next request comes within group_idle: A goes on */
			cq_read(s, 1, 1008, 3 * MS);
			rq = t_sq_dispatch(s, 3 * MS);
			T_ASSERT(rq && rq->ioc->pid == 1);
		} else {
			T_ASSERT(cq_wakeup(s) == IOS_NO_WAKEUP);
			rq = t_sq_dispatch(s, 1 * MS);
			T_ASSERT(rq && rq->ioc->pid == 2);
		}
		cq_done(s, rq, 4 * MS);
		cq_free(s);
	}
	return T_PASS;
}

/*
 * wait_busy: A's only queue finishes a request with its slice (4 ms)
 * nearly over; rather than losing the group its place, CFQ stretches the
 * slice by slice_idle. A's next request ends the slice at once, and A stays
 * on the group tree with its vdisktime (a group re-added would go to the
 * back).
 */
static int test_wait_busy(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 1, 1, "slice_sync=4", NULL);
		struct ios_request *r1, *r2, *rq;
		struct cfq_queue *qa;
		struct cfq_group *ga;

		T_ASSERT(s);
		cg_ioc(1, &cg_a);
		cg_ioc(2, &cg_b);
		r1 = cq_read(s, 1, 1000, 0);
		cq_read(s, 2, 50000000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r1);
		cq_done(s, r1, 1 * MS);		/* slice 1..5 ms */
		qa = cq_queue(s, 1, true);
		ga = qa->cfqg;
		T_ASSERT_U64_EQ(qa->slice_end, 5 * MS);
		r2 = cq_read(s, 1, 1008, 2 * MS);
		T_ASSERT(t_sq_dispatch(s, 2 * MS) == r2);
		cq_done(s, r2, 4500 * US);	/* half a jiffy left: wait busy */
		T_ASSERT(qa->flags & CFQ_QF_WAIT_BUSY);
		T_ASSERT_U64_EQ(qa->slice_end, 4500 * US + 8 * MS);
		/* past the old slice end, B still waits */
		T_ASSERT(t_sq_dispatch(s, 6 * MS) == NULL);
		T_ASSERT_EQ(cq_active_pid(s), 1);
		/* A's next request: the queue expires with it queued, the group stays */
		cq_read(s, 1, 1016, 7 * MS);
		rq = t_sq_dispatch(s, 7 * MS);
		T_ASSERT(ga->on_st);
		T_ASSERT_MSG(rq && rq->ioc->pid == 2, "%s: served %d", profiles[p],
			     rq ? (int)rq->ioc->pid : -1);
		cq_done(s, rq, 8 * MS);
		cq_free(s);
	}
	return T_PASS;
}

/* 4.19 IOPS mode: time is not charged, requests are (and new groups wait 200 of them). */
static int test_iops_mode_charge(void)
{
	struct t_sq *s = t_sq_new("cfq-4.19", 1, 1, "slice_idle=0", "group_idle=0", NULL);
	struct cfq_group *ga, *gb;
	struct ios_request *rq;
	uint64_t v0;

	T_ASSERT(s);
	cq_data(s)->hw_tag = 1;		/* a queueing device, as found out */
	T_ASSERT(ios_cfq_iops_mode(cq_data(s)));
	cg_ioc(1, &cg_a);
	cg_ioc(2, &cg_b);
	for (int i = 0; i < 3; i++)
		cq_read(s, 1, 1000 + 8 * (uint64_t)i, 0);
	cq_read(s, 2, 50000000, 0);
	ga = cq_group(s, 1);
	gb = cq_group(s, 2);
	T_ASSERT_U64_EQ(gb->vdisktime, ga->vdisktime + 200);
	v0 = ga->vdisktime;
	for (int i = 0; i < 3; i++) {
		rq = t_sq_dispatch(s, (uint64_t)i * 10 * MS);
		T_ASSERT(rq && rq->ioc->pid == 1);
		cq_done(s, rq, (uint64_t)i * 10 * MS + 10 * MS);
	}
	/* A is empty, nothing idles: its queue expires at the next dispatch */
	rq = t_sq_dispatch(s, 30 * MS);
	T_ASSERT(rq && rq->ioc->pid == 2);
	T_ASSERT_U64_EQ(ga->vdisktime - v0, (3ULL << 24) / 4096);
	/* blkio.time is still time: from the first completion (10 ms) to the expiry */
	T_ASSERT_U64_EQ(ga->stat_time_ns, 20 * MS);
	cq_done(s, rq, 31 * MS);
	cq_free(s);
	return T_PASS;
}

/* 2.6.33, group_isolation=0: once A's queue is seeky it is served in the root group. */
static int isolation_case(int isolation, struct cfq_group **home, struct cfq_group **now_in,
			  struct cfq_queue **out_q, struct cfq_group **root)
{
	char set[32];
	struct t_sq *s;
	struct cfq_queue *q;
	uint64_t t = 0;

	snprintf(set, sizeof(set), "group_isolation=%d", isolation);
	s = t_sq_new("cfq-2.6.33", 1, 1, set, NULL);
	if (!s)
		return -1;
	cg_ioc(1, &cg_a);
	/* one request at a time, 10 GiB apart: the seek mean passes 4 MiB, the window goes */
	for (int i = 0; i < 6; i++) {
		struct ios_request *rq = cq_read(s, 1, (uint64_t)i * 20000000, t);

		if (t_sq_dispatch(s, t) != rq)
			return -1;
		t += MS;
		cq_done(s, rq, t);
		if (i == 0)
			*home = cq_group(s, 1);
		/* let the idle timer (if any) end the slice before the next request */
		if (cq_wakeup(s) != IOS_NO_WAKEUP) {
			t = cq_wakeup(s);
			cq_timer(s, t);
		}
	}
	q = cq_queue(s, 1, true);
	if (cfqq_type(q) != CFQ_SYNC_NOIDLE_WL)
		return -1;
	/* the next request makes the queue busy again: it is placed now */
	cq_read(s, 1, 200000000, t);
	*now_in = q->cfqg;
	*out_q = q;
	*root = cq_data(s)->root_group;
	cq_free(s);
	return 0;
}

static int test_group_isolation(void)
{
	struct cfq_group *home, *now_in, *root;
	struct cfq_queue *q;

	T_ASSERT_EQ(isolation_case(0, &home, &now_in, &q, &root), 0);
	T_ASSERT(home != root && now_in == root);
	T_ASSERT_EQ(isolation_case(1, &home, &now_in, &q, &root), 0);
	T_ASSERT(home != root && now_in == home);
	return T_PASS;
}

/* blkio.sectors and io_serviced count at dispatch, for the queue's group */
static int test_group_stats_hook(void)
{
	for (size_t p = 0; p < IOS_ARRAY_SIZE(profiles); p++) {
		struct t_sq *s = t_sq_new(profiles[p], 1, 1, NULL);
		struct ios_group_stats st;
		struct ios_request *rq;

		T_ASSERT(s);
		cg_ioc(1, &cg_a);
		rq = cq_read(s, 1, 1000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == rq);
		T_ASSERT_EQ(s->type->ops.group_stats(&s->q, &cg_a, &st), 0);
		T_ASSERT_EQ(st.ios[0], 1);
		T_ASSERT_EQ(st.sectors, 8);
		T_ASSERT_EQ(st.weight, 1000);
		T_ASSERT_EQ(s->type->ops.group_stats(&s->q, &cg_b, &st), -ENOENT);
		cq_done(s, rq, MS);
		cq_free(s);
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_new_group_behind_the_last, test_vdisktime_charge,
		     test_vfraction_recomputed_on_charge, test_group_slice, test_hierarchy_shares,
		     test_group_idle, test_wait_busy, test_iops_mode_charge, test_group_isolation,
		     test_group_stats_hook);
}
