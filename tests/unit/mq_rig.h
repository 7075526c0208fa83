/*
 * A small rig for the blk-mq core tests (block_mq_*.c): a queue on the
 * blk-mq layer (src/block/mq.c) with a recording host that can say busy,
 * a trace recorder, and a FIFO elevator for blk-mq ("t-mq-fifo") whose
 * limit_depth the test sets. Time is whatever the test passes in.
 */
#ifndef T_MQ_RIG_H
#define T_MQ_RIG_H

#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "block/mq_int.h"

#define M_MAX 256

struct m_rig {
	struct ios_queue *q;
	struct ios_settings settings;
	struct ios_request *issued[M_MAX];
	unsigned nr_issued;
	int accept;			/* busy() lets this many through, then says busy; -1: never busy */
	unsigned nr_busy_asked;
	char trace[4 * M_MAX];		/* the actions in order: "QGDC..." */
	unsigned nr_trace;
	struct ios_bio bios[M_MAX];
	unsigned nr_bios;
	unsigned nr_queued_cb;		/* bio->queued() calls (a sleeper got its request) */
	struct ios_bio *queued_order[M_MAX];
};

/* ---- the FIFO elevator ---- */

struct m_fifo {
	struct ios_list_head fifo;
	unsigned prepared, finished;
};

static unsigned m_shallow_async;	/* limit_depth for async allocations (0: none) */
static struct ios_mq_cpu_cost m_cost;	/* the next m_rig_new's CPU costs (0: the model off) */
/*
 * The core's tests run without writeback throttling (a kernel without
 * CONFIG_BLK_WBT_MQ); blk_wbt_*.c set it to get the default 6.12 queue.
 */
static bool m_wbt;
static bool m_write_cache;	/* the device's QUEUE_FLAG_WC, for blk_wbt_*.c */

static inline int m_fifo_init(struct ios_queue *q)
{
	struct m_fifo *f = q->sched_data;

	ios_list_init(&f->fifo);
	return 0;
}

static inline void m_fifo_exit(struct ios_queue *q)
{
	(void)q;
}

static inline void m_fifo_insert(struct ios_queue *q, struct ios_request *rq, uint64_t now,
				 unsigned flags)
{
	struct m_fifo *f = q->sched_data;

	(void)now, (void)flags;
	ios_list_add_tail(&rq->queuelist, &f->fifo);
}

static inline struct ios_request *m_fifo_dispatch(struct ios_queue *q, uint64_t now,
						  unsigned flags)
{
	struct m_fifo *f = q->sched_data;
	struct ios_request *rq;

	(void)now, (void)flags;
	if (ios_list_empty(&f->fifo))
		return NULL;
	rq = ios_list_first_entry(&f->fifo, struct ios_request, queuelist);
	ios_list_del(&rq->queuelist);
	return rq;
}

static inline bool m_fifo_has_work(struct ios_queue *q)
{
	struct m_fifo *f = q->sched_data;

	return !ios_list_empty(&f->fifo);
}

static inline void m_fifo_completed(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	(void)q, (void)rq, (void)now;
}

static inline void m_fifo_merged(struct ios_queue *q, struct ios_request *rq,
				 struct ios_request *next)
{
	(void)q, (void)rq;
	ios_list_del(&next->queuelist);
}

/* no lookup of its own: the core's hash finds back merges */
static inline enum ios_merge m_fifo_bio_merge(struct ios_queue *q, const struct ios_bio *bio,
					      struct ios_request **rq)
{
	(void)q, (void)bio, (void)rq;
	return IOS_NO_MERGE;
}

static inline unsigned m_fifo_limit_depth(struct ios_queue *q, unsigned opf,
					  const struct ios_ioc *ioc)
{
	bool write = opf & (1u << 31);

	(void)q, (void)ioc;
	/* as the kernel's schedulers do: sync reads are never limited */
	return write && !(opf & IOS_REQ_SYNC) ? m_shallow_async : 0;
}

static inline void m_fifo_prepare(struct ios_queue *q, struct ios_request *rq)
{
	(void)rq;
	((struct m_fifo *)q->sched_data)->prepared++;
}

static inline void m_fifo_finish(struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	(void)rq, (void)now;
	((struct m_fifo *)q->sched_data)->finished++;
}

static const struct ios_sched_mq_ops m_fifo_mq_ops = {
	.limit_depth = m_fifo_limit_depth,
	.prepare_request = m_fifo_prepare,
	.finish_request = m_fifo_finish,
};

static const struct ios_sched_type m_fifo_type = {
	.name = "t-mq-fifo",
	.version = IOS_SCHED_INTERFACE_VERSION,
	.desc = "test FIFO elevator on blk-mq",
	.ops = {
		.init = m_fifo_init,
		.exit = m_fifo_exit,
		.insert = m_fifo_insert,
		.dispatch = m_fifo_dispatch,
		.has_work = m_fifo_has_work,
		.completed = m_fifo_completed,
		.bio_merge = m_fifo_bio_merge,
		.requests_merged = m_fifo_merged,
	},
	.priv_size = sizeof(struct m_fifo),
	.layer = IOS_SCHED_LAYER_MQ,
	.mq_ops = &m_fifo_mq_ops,
};

/* ---- host and trace ---- */

static inline void m_issue(void *host, struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct m_rig *r = host;

	(void)q, (void)now;
	if (r->nr_issued < M_MAX)
		r->issued[r->nr_issued++] = rq;
}

static inline void m_timer(void *host, struct ios_queue *q, uint64_t when)
{
	(void)host, (void)q, (void)when;
}

static inline bool m_busy(void *host, struct ios_queue *q, const struct ios_request *rq,
			  uint64_t now)
{
	struct m_rig *r = host;

	(void)q, (void)rq, (void)now;
	r->nr_busy_asked++;
	if (r->accept < 0)
		return false;
	if (r->accept == 0)
		return true;
	r->accept--;
	return false;
}

static const struct ios_queue_host_ops m_host = {
	.issue = m_issue,
	.set_timer = m_timer,
	.busy = m_busy,
};

static inline void m_trace(void *priv, struct ios_queue *q, enum ios_trace_action a,
			   const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	static const char letters[] = "?QMFGSRDCPUTI";
	struct m_rig *r = priv;

	(void)q, (void)rq, (void)bio, (void)now;
	if (r->nr_trace + 1 < sizeof(r->trace))
		r->trace[r->nr_trace++] = (unsigned)a < sizeof(letters) - 1 ? letters[a] : '?';
}

static const struct ios_trace_ops m_trace_ops = { .event = m_trace };

/*
 * A blk-mq queue under @sched (a name, or NULL for t-mq-fifo) with @depth
 * driver tags per hardware queue; settings "k=v" follow, NULL-terminated.
 */
static inline struct m_rig *m_rig_new(const char *sched, unsigned depth, unsigned nr_hw,
				      unsigned nr_cpus, const char *setting)
{
	struct ios_queue_config cfg;
	struct ios_err e = { 0 };
	struct m_rig *r = calloc(1, sizeof(*r));

	r->accept = -1;
	if (setting && ios_settings_add_kv(&r->settings, setting, "test", &e)) {
		fprintf(stderr, "m_rig_new: %s\n", e.msg);
		free(r);
		return NULL;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.disk_name = "sda";
	cfg.sched = sched ? ios_sched_find(sched) : &m_fifo_type;
	cfg.settings = &r->settings;
	cfg.depth = depth;
	cfg.capacity_sectors = 1ULL << 40;
	cfg.host_ops = &m_host;
	cfg.host = r;
	cfg.trace_ops = &m_trace_ops;
	cfg.trace = r;
	cfg.nr_hw_queues = nr_hw;
	cfg.nr_cpus = nr_cpus;
	cfg.cpu_cost = m_cost;
	cfg.no_wbt = !m_wbt;
	cfg.write_cache = m_write_cache;
	r->q = ios_queue_create(&cfg, &e);
	if (!r->q) {
		fprintf(stderr, "m_rig_new: %s\n", e.msg);
		ios_settings_free(&r->settings);
		free(r);
		return NULL;
	}
	return r;
}

/* Complete every issued request (in issue order), then destroy. */
static inline void m_rig_free(struct m_rig *r, uint64_t now)
{
	for (unsigned i = 0; i < r->nr_issued; i++)
		if (r->issued[i]->state == IOS_RQ_IN_DRIVER)
			ios_queue_complete(r->q, r->issued[i], now, 0);
	ios_queue_destroy(r->q);
	ios_settings_free(&r->settings);
	free(r);
}

static inline void m_queued(struct ios_bio *bio, uint64_t now)
{
	struct m_rig *r = bio->priv;

	(void)now;
	r->queued_order[r->nr_queued_cb++] = bio;
}

/* Submit a bio of @ioc; returns ios_queue_submit_bio's answer. */
static inline int m_submit(struct m_rig *r, struct ios_ioc *ioc, uint64_t sector,
			   uint32_t nr, int dir, uint32_t flags, uint64_t now)
{
	struct ios_bio *bio = &r->bios[r->nr_bios++];

	memset(bio, 0, sizeof(*bio));
	bio->sector = sector;
	bio->nr_sectors = nr;
	bio->dir = (uint8_t)dir;
	bio->flags = flags;
	bio->ioc = ioc;
	bio->submit_ns = now;
	bio->priv = r;
	bio->queued = m_queued;
	return ios_queue_submit_bio(r->q, bio, now);
}

/* An io context on @cpu (t_ioc's, so the root cgroup). */
static inline struct ios_ioc *m_ioc(uint32_t pid, unsigned cpu)
{
	struct ios_ioc *ioc = t_ioc(pid);

	ioc->cpu = cpu;
	return ioc;
}

#endif
