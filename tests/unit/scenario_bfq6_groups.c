/*
 * Description: bfq-6.12 shares the device between cgroups by their weights
 * when one group's queue is served out of service (Linux 6.12's
 * __bfq_deactivate_entity in block/bfq-wf2q.c, from Paolo Valente's "block,
 * bfq: correctly charge and reset entity service in all cases", 4.20: an
 * entity taken off its tree gets its finish time from the service it
 * received, and one not in service has that service zeroed; profile
 * behaviour deact_charge_service).
 *
 * Under 6.12 a queue's requests leave it out of service all the time:
 * injection puts them into the in-service queue's idle holes. With 4.19.1's
 * rule (only the in-service entity is recomputed) the group above such a
 * queue kept the injected service and, each time it came back from the idle
 * tree, started from a finish time computed from its whole budget: two
 * sequential readers in groups of weights 136 and 100 got 98:2 of the I/O
 * on a disk (and 50:50 on flash) instead of about 58:42.
 *
 * test_deactivated_group_charged: the rule itself, with a fake clock.
 * test_shares_by_weight: whole runs of the two readers (20 s, bfq-6.12 on
 * the default disk and on ssd, weights 136 and 500 against 100).
 */
#include "sched_bfq6_util.h"
#include "iosched/run.h"
#include "iosched/stats.h"

static struct ios_cgroup ga = { .path = (char *)"ga", .id = 1, .weight = 136,
				.parent = &t_root_cgroup };
static struct ios_cgroup gb = { .path = (char *)"gb", .id = 2, .weight = 100,
				.parent = &t_root_cgroup };

/*
 * A (group ga) is served at 0 and idles from 20 ms, because two groups have
 * requests (asymmetric); B (group gb) is busy from 1 ms with one request of
 * 8 sectors. A's next request (22 ms) is timed to 24 ms: inject_limit 1, and
 * B's request goes into A's next hole at 25 ms, out of service. B empties and
 * is deactivated, and gb's entity with it, onto the idle tree.
 */
static int inject_b(const struct bfq_profile *prof, struct bfq_entity **gbe)
{
	struct t_sq *s = t_sq_new("bfq-6.12", 32, 0, "low_latency=0", NULL);
	struct ios_ioc *a = bfq_test_ioc(981, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_ioc *b = bfq_test_ioc(982, IOS_IOPRIO_CLASS_BE, 4);
	struct ios_request *rq;
	struct bfq_queue *qb;
	uint64_t start;

	T_ASSERT(s);
	bfq6_with(s, prof);
	a->cgroup = &ga;
	b->cgroup = &gb;
	bfq_ins(s, a, 0, 8, IOS_READ, 0, 0);
	rq = t_sq_dispatch(s, 0);
	T_ASSERT(rq && rq->ioc == a);
	bfq_ins(s, b, 500000, 8, IOS_READ, 0, 1 * MS);
	t_sq_complete(s, rq, 20 * MS);
	bfq_ins(s, a, 8, 8, IOS_READ, 0, 22 * MS);
	rq = t_sq_dispatch(s, 22 * MS);
	T_ASSERT(rq && rq->ioc == a);
	t_sq_complete(s, rq, 24 * MS);
	qb = bfqq_of(&s->q, b, true);
	T_ASSERT(qb && qb->entity.parent);
	*gbe = qb->entity.parent;
	T_ASSERT_EQ((*gbe)->weight, 100);
	T_ASSERT((*gbe)->budget > 8);
	start = (*gbe)->start;
	rq = t_sq_dispatch(s, 25 * MS);
	T_ASSERT(rq && rq->ioc == b);
	T_ASSERT(bfqd_of(&s->q)->in_service_queue == bfqq_of(&s->q, a, true));
	/* gb left its active tree for the idle tree, its start unchanged */
	T_ASSERT((*gbe)->tree == &bfqd_of(&s->q)->root_group->sched_data.service_tree[1].idle);
	T_ASSERT_U64_EQ((*gbe)->start, start);
	{
		/* what the test checks, copied out before the queue goes */
		static struct bfq_entity copy;

		copy = **gbe;
		*gbe = &copy;
	}
	t_sq_complete(s, rq, 26 * MS);
	t_sq_free(s);
	return T_PASS;
}

static int test_deactivated_group_charged(void)
{
	const uint64_t eight = ((uint64_t)8 << BFQ_SERVICE_SHIFT) / 100;
	struct bfq_profile off;
	struct bfq_entity *e;

	bfq6_register();
	/* 6.12: gb is charged the 8 sectors B got, and its service starts over */
	T_ASSERT_EQ(inject_b(&ios_bfq_profile_612, &e), T_PASS);
	T_ASSERT_U64_EQ(e->finish - e->start, eight);
	T_ASSERT_EQ(e->service, 0);
	/* rule removed (4.19.1): gb keeps the 8 sectors and its finish is a whole budget away */
	T_ASSERT_EQ(inject_b(BFQ6_PROFILE_WITHOUT(off, &ios_bfq_profile_612, deact_charge_service),
			     &e), T_PASS);
	T_ASSERT_EQ(e->service, 8);
	T_ASSERT_U64_EQ(e->finish - e->start, ((uint64_t)e->budget << BFQ_SERVICE_SHIFT) / 100);
	T_ASSERT(e->finish - e->start > eight);
	return T_PASS;
}

static const char job_fmt[] =
	"[global]\nfilename=/dev/sdb\nsize=4g\nrw=read\ndirect=1\nioengine=psync\n"
	"bs=64k\nruntime=20s\ntime_based\n"
	"[a]\ncgroup=a\ncgroup_weight=%u\noffset=0\n"
	"[b]\ncgroup=b\noffset=2g\n";

/* a's share of the I/Os, in per mille; -1 if the run failed */
static int share_of_a(const char *device, unsigned weight)
{
	struct ios_run_config cfg = { .scheduler = "bfq-6.12", .device = device, .seed = 1 };
	struct ios_jobfile jf;
	struct ios_run_result res;
	uint64_t ios[2] = { 0, 0 };
	char job[512];

	snprintf(job, sizeof(job), job_fmt, weight);
	if (t_run_job("w20.fio", job, &cfg, &jf, &res))
		return -1;
	for (size_t i = 0; i < res.nr_cgroups; i++) {
		const struct ios_cgroup_result *c = &res.cgroups[i];

		if (!strcmp(c->path, "a") || !strcmp(c->path, "b"))
			ios[c->path[0] == 'b'] += c->ios[IOS_DDIR_READ];
	}
	t_job_done(&jf, &res);
	if (ios[0] + ios[1] == 0)
		return -1;
	return (int)(1000 * ios[0] / (ios[0] + ios[1]));
}

/*
 * Two sequential readers, groups a (@weight) and b (100), 20 s: a's share of
 * the I/Os must be within 20 per mille (2 points) of weight / (weight + 100),
 * on a disk (where 6.12 idles because two groups have requests) and on
 * flash. Before the deactivation rule: 983 per mille on the disk with 136 or
 * 500, 496 on ssd.
 */
static int test_shares_by_weight(void)
{
	static const char *const devices[] = { "hdd-2009", "ssd" };
	static const unsigned weights[] = { 136, 500 };

	bfq6_register();
	for (size_t d = 0; d < 2; d++) {
		for (size_t w = 0; w < 2; w++) {
			int want = (int)(1000 * weights[w] / (weights[w] + 100));
			int got = share_of_a(devices[d], weights[w]);

			if (getenv("T_VERBOSE"))
				fprintf(stderr, "%s weight %u: a %d per mille (weights: %d)\n",
					devices[d], weights[w], got, want);
			T_ASSERT(got >= 0);
			if (got < want - 20 || got > want + 20) {
				fprintf(stderr,
					"%s, weights %u:100: a got %d per mille of the I/Os, want %d +- 20\n",
					devices[d], weights[w], got, want);
				return T_FAIL;
			}
		}
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_deactivated_group_charged, test_shares_by_weight);
}
