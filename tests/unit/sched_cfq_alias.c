/*
 * Description: CFQ's alias rule (2.6.31, 2.6.33 cfq_add_rq_rb). The sort
 * tree of those releases holds one request per start sector: a request
 * that starts where an older request of its queue starts sends the older
 * one to dispatch at once, ahead of whatever CFQ would select. 4.19's
 * elv_rb_add keeps both in sector order, so the older one waits its turn.
 */
#include "sched_cfq_util.h"

/*
 * Pid 1 reads at 5000, then at 1000, then again at 5000. Sector order from
 * the head at 0 serves 1000 first; an alias sends the first 5000 read out
 * before that. Returns the first request dispatched.
 */
static struct ios_request *first_of_three(struct t_sq *s, struct ios_request **r1,
					  struct ios_request **r2, struct ios_request **r3)
{
	*r1 = cq_read(s, 1, 5000, 0);
	*r2 = cq_read(s, 1, 1000, 0);
	*r3 = cq_read(s, 1, 5000, 0);
	return t_sq_dispatch(s, 0);
}

static int alias_case(const char *prof, bool alias)
{
	struct t_sq *s = t_sq_new(prof, 4, 1, NULL);
	struct ios_request *r1, *r2, *r3, *rq;

	T_ASSERT(s);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	rq = first_of_three(s, &r1, &r2, &r3);
	if (alias) {
		T_ASSERT(rq == r1);
		T_ASSERT_EQ(cq_data(s)->st_aliases, 1);
		/* it counts as the queue's, in flight, as the kernel's dispatch_insert */
		T_ASSERT_EQ(cq_queue(s, 1, true)->dispatched, 1);
		T_ASSERT_EQ(cq_data(s)->rq_queued, 2);
		cq_done(s, rq, 1 * MS);
		rq = t_sq_dispatch(s, 1 * MS);
		T_ASSERT(rq == r2);
	} else {
		T_ASSERT(rq == r2);
		T_ASSERT_EQ(cq_data(s)->st_aliases, 0);
		T_ASSERT_EQ(cq_data(s)->rq_queued, 2);
	}
	cq_done(s, rq, 2 * MS);
	rq = t_sq_dispatch(s, 2 * MS);
	/* both 5000 reads are served in the end, the newer one last under an alias */
	T_ASSERT(rq == (alias ? r3 : r1));
	cq_free(s);
	return T_PASS;
}

static int test_alias_2631(void)
{
	return alias_case("cfq", true);
}

static int test_alias_2633(void)
{
	return alias_case("cfq-2.6.33", true);
}

static int test_no_alias_419(void)
{
	return alias_case("cfq-4.19", false);
}

/* An alias waiting for the driver is work, even with nothing else queued. */
static int test_alias_is_work(void)
{
	struct t_sq *s = t_sq_new("cfq-2.6.33", 4, 1, NULL);
	struct ios_request *r1, *r2, *rq;

	T_ASSERT(s);
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	r1 = cq_read(s, 1, 5000, 0);
	r2 = cq_read(s, 1, 5000, 0);
	T_ASSERT_EQ(cq_data(s)->rq_queued, 1);
	T_ASSERT(s->type->ops.has_work(&s->q));
	rq = t_sq_dispatch(s, 0);
	T_ASSERT(rq == r1);
	cq_done(s, rq, 1 * MS);
	rq = t_sq_dispatch(s, 1 * MS);
	T_ASSERT(rq == r2);
	cq_done(s, rq, 2 * MS);
	T_ASSERT(!s->type->ops.has_work(&s->q));
	cq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_alias_2631, test_alias_2633, test_no_alias_419, test_alias_is_work);
}
