/*
 * Description: an application can add its own scheduler. A small FIFO
 * written here, with an alias and a stats table, is registered with
 * ios_sched_register(), found by name and alias, listed after the
 * built-ins, and runs a fio job through ios_run() under either name: every
 * request it was given it dispatched, in arrival order, and the run reports
 * its counters. Refused: a descriptor with a required hook missing or of a
 * newer interface version (-EINVAL, and nothing is added), a name or alias
 * already taken by a built-in or by the FIFO (-EEXIST), and any scheduler
 * past the registry's IOS_SCHED_MAX_EXTRA (-ENOSPC).
 */
#include <string.h>
#include "harness.h"

struct tfifo_data {
	struct ios_list_head fifo;
	int64_t inserted, dispatched, completed, out_of_order;
	uint64_t last_seq;		/* arrival number of the last dispatched request */
};

/* arrival numbers ride in the request's scheduler slot */
static uint64_t tfifo_arrivals;
static int tfifo_inits, tfifo_exits;

static struct tfifo_data *tfifo_of(struct ios_queue *q)
{
	return q->sched_data;
}

static int tfifo_init(struct ios_queue *q)
{
	ios_list_init(&tfifo_of(q)->fifo);
	tfifo_inits++;
	return 0;
}

static void tfifo_exit(struct ios_queue *q)
{
	(void)q;
	tfifo_exits++;
}

static void tfifo_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns,
			 unsigned flags)
{
	struct tfifo_data *f = tfifo_of(q);

	(void)now_ns;
	rq->sched_priv[0] = (void *)(uintptr_t)++tfifo_arrivals;
	if (flags & (IOS_INSERT_FRONT | IOS_INSERT_REQUEUE))
		ios_list_add(&rq->queuelist, &f->fifo);
	else
		ios_list_add_tail(&rq->queuelist, &f->fifo);
	f->inserted++;
}

static struct ios_request *tfifo_dispatch(struct ios_queue *q, uint64_t now_ns, unsigned flags)
{
	struct tfifo_data *f = tfifo_of(q);
	struct ios_request *rq;
	uint64_t seq;

	(void)now_ns;
	(void)flags;
	if (ios_list_empty(&f->fifo))
		return NULL;
	rq = ios_list_first_entry(&f->fifo, struct ios_request, queuelist);
	ios_list_del(&rq->queuelist);
	seq = (uint64_t)(uintptr_t)rq->sched_priv[0];
	f->out_of_order += seq < f->last_seq;
	f->last_seq = seq;
	f->dispatched++;
	return rq;
}

static bool tfifo_has_work(struct ios_queue *q)
{
	return !ios_list_empty(&tfifo_of(q)->fifo);
}

static void tfifo_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now_ns)
{
	(void)rq;
	(void)now_ns;
	tfifo_of(q)->completed++;
}

#define TF_STAT(n, field, h)                                                       \
	{ .name = n, .type = IOS_TUN_U64, .offset = offsetof(struct tfifo_data, field), \
	  .min = 0, .max = INT64_MAX, .unit = "", .flags = IOS_TUN_RO, .help = h }

static const struct ios_tunable tfifo_stats[] = {
	TF_STAT("inserted", inserted, "requests given"),
	TF_STAT("dispatched", dispatched, "requests handed on"),
	TF_STAT("completed", completed, "requests finished"),
	TF_STAT("out_of_order", out_of_order, "dispatched before an older one"),
	{ .name = NULL },
};

static const struct ios_sched_type tfifo = {
	.name = "test-fifo",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.alias = "tfifo",
	.desc = "a FIFO without merging, registered by a unit test",
	.ops = {
		.init = tfifo_init,
		.exit = tfifo_exit,
		.insert = tfifo_insert,
		.dispatch = tfifo_dispatch,
		.has_work = tfifo_has_work,
		.completed = tfifo_completed,
	},
	.stats = tfifo_stats,
	.priv_size = sizeof(struct tfifo_data),
	.share_model = IOS_SHARE_NONE,
};

static int64_t stat_of(const struct ios_run_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_sched_stats; i++)
		if (!strcmp(r->sched_stats[i].name, name))
			return r->sched_stats[i].value;
	return -1;
}

static int test_register_and_find(void)
{
	struct ios_err e = { 0 };
	const struct ios_sched_type *t;
	size_t n = 0;

	T_ASSERT(!ios_sched_find("test-fifo"));
	T_ASSERT_MSG(ios_sched_register(&tfifo, &e) == 0, "%s", e.msg);
	T_ASSERT(ios_sched_find("test-fifo") == &tfifo);
	T_ASSERT(ios_sched_find("tfifo") == &tfifo);
	/* listed after the built-ins, which keep their places */
	while ((t = ios_sched_at(n)) != NULL)
		n++;
	T_ASSERT(n >= 2);
	T_ASSERT(ios_sched_at(n - 1) == &tfifo);
	T_ASSERT(!strcmp(ios_sched_at(0)->name, "noop"));
	/* twice is a clash with itself */
	T_ASSERT_EQ(ios_sched_register(&tfifo, &e), -EEXIST);
	return T_PASS;
}

static int run_job(const char *sched, struct ios_run_result *r, struct ios_jobfile *jf)
{
	static const char job[] = "[global]\ndirect=1\nbs=4k\nsize=4m\n"
				  "[r]\nrw=randread\nioengine=libaio\niodepth=4\n"
				  "[w]\nrw=write\n";
	struct ios_job_parse_opts po;
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("tfifo.fio", job, strlen(job), &po, jf, &e);
	T_ASSERT_MSG(!ret, "%s", e.msg);
	T_ASSERT(!ios_settings_add_kv(&set, "lab.fs=raw", "test", &e));
	cfg.scheduler = sched;
	cfg.device = "hdd-2009";
	cfg.seed = 3;
	cfg.settings = &set;
	ret = ios_run(jf, &cfg, r, &e);
	ios_settings_free(&set);
	T_ASSERT_MSG(!ret, "%s", e.msg);
	return T_PASS;
}

static int test_run_through_it(void)
{
	static const char *const names[] = { "test-fifo", "tfifo" };

	for (size_t k = 0; k < IOS_ARRAY_SIZE(names); k++) {
		struct ios_jobfile jf = { 0 };
		struct ios_run_result r;
		int inits = tfifo_inits, exits = tfifo_exits;
		uint64_t ios = 0;

		memset(&r, 0, sizeof(r));
		T_ASSERT_EQ(run_job(names[k], &r, &jf), T_PASS);
		T_ASSERT(!strcmp(r.scheduler, "test-fifo"));
		T_ASSERT_EQ(r.nr_jobs, 2);
		for (size_t j = 0; j < r.nr_jobs; j++) {
			T_ASSERT_U64_EQ(r.jobs[j].dir[IOS_READ].io_bytes +
					r.jobs[j].dir[IOS_WRITE].io_bytes, 4 << 20);
			ios += r.jobs[j].dir[IOS_READ].total_ios;
			ios += r.jobs[j].dir[IOS_WRITE].total_ios;
		}
		T_ASSERT_U64_EQ(ios, 2 * 1024);
		/* one queue, set up and torn down once */
		T_ASSERT_EQ(tfifo_inits, inits + 1);
		T_ASSERT_EQ(tfifo_exits, exits + 1);
		/* all it was given it passed on, oldest first, and saw finish */
		T_ASSERT(stat_of(&r, "inserted") > 0);
		T_ASSERT(stat_of(&r, "inserted") <= (int64_t)ios);
		T_ASSERT_EQ(stat_of(&r, "dispatched"), stat_of(&r, "inserted"));
		T_ASSERT_EQ(stat_of(&r, "completed"), stat_of(&r, "inserted"));
		T_ASSERT_EQ(stat_of(&r, "out_of_order"), 0);
		ios_run_result_free(&r);
		ios_jobfile_free(&jf);
	}
	return T_PASS;
}

static int test_refused(void)
{
	struct ios_sched_type t = tfifo;
	struct ios_err e = { 0 };
	size_t before = 0;

	while (ios_sched_at(before))
		before++;
	t.name = "test-fifo-2";
	t.alias = NULL;
	t.ops.completed = NULL;
	T_ASSERT_EQ(ios_sched_register(&t, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "completed()"), "%s", e.msg);
	t = tfifo;
	t.name = "test-fifo-2";
	t.alias = NULL;
	t.version = IOS_SCHED_INTERFACE_VERSION + 1;
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sched_register(&t, &e), -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "version"), "%s", e.msg);
	/* names: a built-in's, a built-in's alias, ours, our alias */
	t = tfifo;
	t.name = "deadline";
	t.alias = NULL;
	T_ASSERT_EQ(ios_sched_register(&t, NULL), -EEXIST);
	t.name = "anything";
	t.alias = "cfq-2.6.31";
	T_ASSERT_EQ(ios_sched_register(&t, NULL), -EEXIST);
	t.alias = "test-fifo";
	T_ASSERT_EQ(ios_sched_register(&t, NULL), -EEXIST);
	t.name = "tfifo";
	t.alias = NULL;
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_sched_register(&t, &e), -EEXIST);
	T_ASSERT_MSG(strstr(e.msg, "test-fifo"), "%s", e.msg);
	T_ASSERT_EQ(ios_sched_register(NULL, NULL), -EINVAL);
	/* nothing was added */
	T_ASSERT(!ios_sched_at(before));
	return T_PASS;
}

static int test_capacity(void)
{
	static struct ios_sched_type more[IOS_SCHED_MAX_EXTRA + 1];
	static char names[IOS_SCHED_MAX_EXTRA + 1][16];
	struct ios_err e = { 0 };
	size_t added = 1, i;	/* test-fifo */

	for (i = 0; i < IOS_ARRAY_SIZE(more); i++) {
		more[i] = tfifo;
		snprintf(names[i], sizeof(names[i]), "fifo-%zu", i);
		more[i].name = names[i];
		more[i].alias = NULL;
		if (ios_sched_register(&more[i], &e))
			break;
		added++;
	}
	T_ASSERT_EQ(added, IOS_SCHED_MAX_EXTRA);
	T_ASSERT_EQ(e.code, -ENOSPC);
	T_ASSERT_MSG(strstr(e.msg, "full"), "%s", e.msg);
	T_ASSERT(ios_sched_find("fifo-0") == &more[0]);
	T_ASSERT(!ios_sched_find(names[i]));
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_register_and_find, test_run_through_it, test_refused, test_capacity);
}
