/*
 * Description: the anticipatory scheduler's batches and deadlines, on a tiny
 * event loop with a fake clock: one-tag device with a fixed service time
 * per process, processes that issue one request at a time after a think
 * time (or a burst at once). A write that arrives while a reader streams
 * waits for the end of the read batch (read_batch_expire), whatever its
 * write_expire; with sync_class=sync an O_DIRECT write is served within the
 * reads' FIFO bound instead. A QD1 writer gets one request per read batch
 * (dir) or about half the disk (sync). Write batches last write_batch_count
 * requests, which doubles, grows or shrinks with how long the batch took.
 * A far read behind a streaming reader is served once its read_expire
 * passed, within a second FIFO check interval. A batch switch waits for
 * the old batch's requests to leave the device.
 */
#include <string.h>
#include "harness.h"

#define MS ((uint64_t)IOS_NSEC_PER_MSEC)
#define US ((uint64_t)IOS_NSEC_PER_USEC)
#define MAX_LOG 20000

struct proc {
	/* workload */
	uint32_t pid;
	int dir;
	uint32_t flags;
	uint64_t sector;	/* next request's start */
	uint32_t nr;		/* sectors per request */
	uint64_t think, svc, start;
	unsigned max_ios;	/* 0: unlimited */
	unsigned burst;		/* >0: all requests at start, at once */
	/* results */
	uint64_t next_arrival;
	unsigned issued, done;
	uint64_t max_lat;
};

struct sim {
	struct t_sq *s;
	struct proc p[4];
	int np;
	struct ios_request *busy;
	uint64_t busy_until, now;
	uint32_t log_pid[MAX_LOG];
	int log_wbc[MAX_LOG];		/* write_batch_count when dispatched */
	size_t nlog;
};

static int64_t stat_of(struct t_sq *s, const char *name)
{
	const struct ios_tunable *t = ios_tunable_find(s->type->stats, name);

	return t ? ios_tunable_get_int(t, s->q.sched_data) : -1;
}

static struct proc *sim_proc(struct sim *m, uint32_t pid)
{
	for (int i = 0; i < m->np; i++)
		if (m->p[i].pid == pid)
			return &m->p[i];
	return NULL;
}

static void sim_insert(struct sim *m, struct proc *p)
{
	struct ios_request *rq;

	m->s->ioc = t_ioc(p->pid);
	rq = t_sq_rq(m->s, p->sector, p->nr, p->dir, p->flags);
	rq->alloc_ns = rq->insert_ns = m->now;
	m->s->q.nr_sorted++;
	m->s->type->ops.insert(&m->s->q, rq, m->now, 0);
	p->sector += p->nr;
	p->issued++;
}

/* Run until @until; returns 0, or -1 if the scheduler stalled. */
static int sim_run(struct sim *m, uint64_t until)
{
	for (int i = 0; i < m->np; i++)
		m->p[i].next_arrival = m->p[i].start;
	for (;;) {
		uint64_t t = IOS_NO_WAKEUP;

		if (m->busy)
			t = m->busy_until;
		for (int i = 0; i < m->np; i++)
			if (m->p[i].next_arrival < t)
				t = m->p[i].next_arrival;
		if (!m->busy) {
			uint64_t w = m->s->type->ops.next_wakeup(&m->s->q);

			if (w < t)
				t = w < m->now ? m->now : w;
		}
		if (t == IOS_NO_WAKEUP || t > until)
			return 0;
		m->now = t;
		if (m->busy && m->busy_until == t) {
			struct ios_request *rq = m->busy;
			struct proc *p = sim_proc(m, rq->ioc->pid);

			m->busy = NULL;
			t_sq_complete(m->s, rq, t);
			p->done++;
			if (t - rq->insert_ns > p->max_lat)
				p->max_lat = t - rq->insert_ns;
			if (!p->burst && (!p->max_ios || p->issued < p->max_ios))
				p->next_arrival = t + p->think;
		}
		for (int i = 0; i < m->np; i++) {
			struct proc *p = &m->p[i];

			if (p->next_arrival != t)
				continue;
			p->next_arrival = IOS_NO_WAKEUP;
			if (p->burst) {
				for (unsigned k = 0; k < p->burst; k++)
					sim_insert(m, p);
			} else {
				sim_insert(m, p);
			}
		}
		if (!m->busy) {
			struct ios_request *rq = t_sq_dispatch(m->s, t);

			if (rq) {
				m->busy = rq;
				m->busy_until = t + sim_proc(m, rq->ioc->pid)->svc;
				if (m->nlog < MAX_LOG) {
					m->log_pid[m->nlog] = rq->ioc->pid;
					m->log_wbc[m->nlog] = (int)stat_of(m->s, "write_batch_count");
					m->nlog++;
				}
			} else if (m->s->type->ops.next_wakeup(&m->s->q) <= t) {
				return -1;
			}
		}
	}
}

static struct proc reader(uint32_t pid)
{
	struct proc p = { .pid = pid, .dir = IOS_READ, .sector = 0, .nr = 128,
			  .think = 100 * US, .svc = 1 * MS };

	return p;
}

static struct sim *sim_new(const char *a, const char *b, const char *c)
{
	struct sim *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->s = t_sq_new("as", 1, 1, a, b, c, NULL);
	if (!m->s) {
		free(m);
		return NULL;
	}
	return m;
}

static void sim_free(struct sim *m)
{
	if (m->busy)
		t_sq_complete(m->s, m->busy, m->busy_until);
	t_sq_free(m->s);
	free(m);
}

static int test_write_waits_for_read_batch(void)
{
	static const int rbe[] = { 500, 200, 50 };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(rbe); i++) {
		char set[64];
		struct sim *m;
		struct proc w = { .pid = 2, .dir = IOS_WRITE, .sector = 100000000, .nr = 128,
				  .svc = 1 * MS, .start = 5 * MS, .max_ios = 1 };
		uint64_t lat, want = (uint64_t)rbe[i] * MS;

		snprintf(set, sizeof(set), "read_batch_expire=%d", rbe[i]);
		/* the write's own deadline (10 ms) is not looked at during a read batch */
		m = sim_new(set, "write_expire=10", NULL);
		T_ASSERT(m);
		m->p[0] = reader(1);
		m->p[1] = w;
		m->np = 2;
		T_ASSERT_EQ(sim_run(m, 2000 * MS), 0);
		T_ASSERT_EQ(m->p[1].done, 1);
		lat = m->p[1].max_lat;
		T_ASSERT_MSG(lat >= want - 2 * MS && lat <= want + 3 * MS,
			     "read_batch_expire=%d: write waited %" PRIu64 " us", rbe[i], lat / US);
		/* and the reader was never held up by more than that one write */
		T_ASSERT_MSG(m->p[0].max_lat <= 3 * MS, "reader max latency %" PRIu64 " us",
			     m->p[0].max_lat / US);
		sim_free(m);
	}
	return T_PASS;
}

/* A sync (O_DIRECT) write: a write batch under sync_class=dir, a read under sync. */
static int test_sync_class(void)
{
	static const char *const mode[] = { "sync_class=dir", "sync_class=sync" };
	uint64_t lat[2];

	for (int i = 0; i < 2; i++) {
		struct sim *m = sim_new(mode[i], NULL, NULL);
		struct proc w = { .pid = 2, .dir = IOS_WRITE, .flags = IOS_REQ_SYNC,
				  .sector = 100000000, .nr = 128, .svc = 1 * MS, .start = 5 * MS,
				  .max_ios = 1 };

		T_ASSERT(m);
		m->p[0] = reader(1);
		m->p[1] = w;
		m->np = 2;
		T_ASSERT_EQ(sim_run(m, 2000 * MS), 0);
		T_ASSERT_EQ(m->p[1].done, 1);
		lat[i] = m->p[1].max_lat;
		sim_free(m);
	}
	/* dir: the read batch (500 ms); sync: its FIFO expiry within two checks (250 ms) */
	T_ASSERT_MSG(lat[0] >= 498 * MS, "dir: %" PRIu64 " us", lat[0] / US);
	T_ASSERT_MSG(lat[1] > 125 * MS && lat[1] <= 253 * MS, "sync: %" PRIu64 " us",
		     lat[1] / US);
	return T_PASS;
}

/* The seed's case in miniature: a QD1 writer against a streaming reader. */
static int test_qd1_writer(void)
{
	static const char *const mode[] = { "sync_class=dir", "sync_class=sync" };
	unsigned rd[2], wr[2];

	for (int i = 0; i < 2; i++) {
		struct sim *m = sim_new(mode[i], NULL, NULL);
		struct proc w = { .pid = 2, .dir = IOS_WRITE, .flags = IOS_REQ_SYNC,
				  .sector = 100000000, .nr = 128, .think = 100 * US,
				  .svc = 1 * MS };

		T_ASSERT(m);
		m->p[0] = reader(1);
		m->p[1] = w;
		m->np = 2;
		T_ASSERT_EQ(sim_run(m, 10000 * MS), 0);
		rd[i] = m->p[0].done;
		wr[i] = m->p[1].done;
		sim_free(m);
	}
	/* dir: one write per read batch of ~500 ms */
	T_ASSERT_MSG(wr[0] >= 15 && wr[0] <= 25, "dir: %u writes, %u reads", wr[0], rd[0]);
	/* sync: the two sync streams take turns at FIFO expiry */
	T_ASSERT_MSG(wr[1] * 10 >= (rd[1] + wr[1]) * 3 && wr[1] * 10 <= (rd[1] + wr[1]) * 7,
		     "sync: %u writes, %u reads", wr[1], rd[1]);
	return T_PASS;
}

/*
 * Lengths of the write runs in the dispatch log and write_batch_count when
 * each began; returns the number of runs.
 */
static size_t write_runs(const struct sim *m, uint32_t wpid, unsigned *len, int *wbc, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nlog && n < max; i++) {
		if (m->log_pid[i] != wpid)
			continue;
		if (i > 0 && m->log_pid[i - 1] == wpid) {
			len[n - 1]++;
		} else {
			wbc[n] = m->log_wbc[i];
			len[n++] = 1;
		}
	}
	return n;
}

static int test_write_batch_adapts(void)
{
	static const struct {
		uint64_t svc;
		unsigned len[3];	/* 0: not checked */
		int wbc_after[3];	/* write_batch_count at the start of batches 2..4 */
	} cases[] = {
		/* 12 and 24 writes take under a third of 125 ms: doubles; 48 do not: one more */
		{ 1 * MS, { 12, 24, 48 }, { 24, 48, 49 } },
		/* 12 in 120 ms: one more; 13 in 130 ms: an overrun, one less */
		{ 10 * MS, { 12, 13, 12 }, { 13, 12, 13 } },
		/* 50 ms writes: the time runs out after 3; each overrun shrinks it */
		{ 50 * MS, { 3, 3, 3 }, { 11, 10, 9 } },
		/* a 500 ms write overruns the batch more than threefold: halves */
		{ 500 * MS, { 1, 1, 1 }, { 6, 3, 1 } },
	};

	for (size_t i = 0; i < IOS_ARRAY_SIZE(cases); i++) {
		struct sim *m = sim_new(NULL, NULL, NULL);
		struct proc w = { .pid = 2, .dir = IOS_WRITE, .sector = 100000000, .nr = 8,
				  .svc = cases[i].svc, .burst = 600 };
		unsigned len[8];
		int wbc[8];
		size_t n;

		T_ASSERT(m);
		m->p[0] = reader(1);
		m->p[1] = w;
		m->np = 2;
		T_ASSERT_EQ(sim_run(m, 5000 * MS), 0);
		n = write_runs(m, 2, len, wbc, 8);
		T_ASSERT_MSG(n >= 4, "case %zu: %zu write batches", i, n);
		T_ASSERT_EQ(wbc[0], 12);
		for (int k = 0; k < 3; k++) {
			T_ASSERT_MSG(len[k] == cases[i].len[k], "case %zu batch %d: %u writes", i, k,
				     len[k]);
			T_ASSERT_MSG(wbc[k + 1] == cases[i].wbc_after[k],
				     "case %zu batch %d: write_batch_count %d", i, k + 1, wbc[k + 1]);
		}
		sim_free(m);
	}
	return T_PASS;
}

static int test_read_fifo_expiry(void)
{
	static const int re[] = { 125, 50 };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(re); i++) {
		char set[64];
		struct sim *m;
		struct proc b = { .pid = 2, .dir = IOS_READ, .sector = 200000000, .nr = 8,
				  .svc = 1 * MS, .start = 10 * MS, .max_ios = 1 };
		uint64_t lat, expire = (uint64_t)re[i] * MS;

		snprintf(set, sizeof(set), "read_expire=%d", re[i]);
		m = sim_new(set, NULL, NULL);
		T_ASSERT(m);
		m->p[0] = reader(1);
		m->p[1] = b;
		m->np = 2;
		T_ASSERT_EQ(sim_run(m, 1000 * MS), 0);
		T_ASSERT_EQ(m->p[1].done, 1);
		lat = m->p[1].max_lat;
		/*
		 * The streaming reader is always nearer: only the FIFO gets B
		 * out, and the FIFO is looked at once per read_expire. B
		 * (arriving at 10 ms) expires at 10 ms + E, just after the
		 * check at ~E; the check at ~2E takes it.
		 */
		T_ASSERT_MSG(lat >= 2 * expire - 11 * MS && lat <= 2 * expire - 7 * MS,
			     "read_expire=%d: far read waited %" PRIu64 " us", re[i], lat / US);
		sim_free(m);
	}
	return T_PASS;
}

static int test_batch_switch_waits_for_old_batch(void)
{
	struct t_sq *s = t_sq_new("as", 2, 1, "read_batch_expire=10", NULL);
	struct ios_request *a1, *a2, *a3, *w;

	T_ASSERT(s);
	s->ioc = t_ioc(1);
	a1 = t_sq_insert(s, 1000, 8, IOS_READ, 0);
	s->ioc = t_ioc(2);
	w = t_sq_insert(s, 50000000, 8, IOS_WRITE, 0);
	T_ASSERT(t_sq_dispatch(s, 0) == a1);
	s->ioc = t_ioc(1);
	a2 = t_sq_insert(s, 1008, 8, IOS_READ, 500 * US);
	T_ASSERT(t_sq_dispatch(s, 500 * US) == a2);
	/* the read batch is over: writes are next, but two reads are still out */
	a3 = t_sq_insert(s, 1016, 8, IOS_READ, 11 * MS);
	T_ASSERT(t_sq_dispatch(s, 11 * MS) == NULL);
	T_ASSERT_EQ(stat_of(s, "batch"), 0);	/* async */
	T_ASSERT_U64_EQ(s->type->ops.next_wakeup(&s->q), IOS_NO_WAKEUP);
	t_sq_complete(s, a1, 12 * MS);
	T_ASSERT(t_sq_dispatch(s, 12 * MS) == NULL);
	t_sq_complete(s, a2, 13 * MS);
	T_ASSERT(t_sq_dispatch(s, 13 * MS) == w);
	t_sq_complete(s, w, 14 * MS);
	/* the write batch has nothing left: back to reads */
	T_ASSERT(t_sq_dispatch(s, 14 * MS) == a3);
	t_sq_complete(s, a3, 15 * MS);
	T_ASSERT_EQ(stat_of(s, "async_batches"), 1);
	t_sq_free(s);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_write_waits_for_read_batch, test_sync_class, test_qd1_writer,
		     test_write_batch_adapts, test_read_fifo_expiry,
		     test_batch_switch_waits_for_old_batch);
}
