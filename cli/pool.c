/*
 * Worker threads for the commands that do many whole runs (compare,
 * repro).
 *
 * The tasks are numbered 0..nr-1 and handed out in that order to up to
 * `workers` threads; each task is one or more complete simulations, which
 * share nothing but read-only inputs (the simulator keeps no global
 * state). The caller keeps the results in its own array indexed by task,
 * each slot written by the one worker that ran it and read only after
 * every worker has been joined, so the caller can write its report in task
 * order and the bytes do not depend on the number of workers or on which
 * run finished first.
 *
 * Failures: after a task fails, the tasks past it are skipped, but every
 * task before it was already handed out and runs on, so the first failure
 * in task order, the one reported, is the same whatever the number of
 * workers.
 *
 * The main thread only waits and, when stderr is a terminal, draws the
 * progress line from what the running tasks last reported.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "iosched/progress.h"

struct pool_slot {
	bool running, done;
	uint64_t sim_ns;		/* progress while running */
	double fraction;
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const struct cli_pool_cfg *cfg;
	struct pool_slot *slots;
	size_t next, finished;
	size_t fail_min;		/* lowest failed task; nr while none */
	bool progress;			/* collect progress (stderr is a terminal) */
};

struct pool_cb {
	struct pool *pool;
	size_t idx;
};

static void pool_progress_cb(void *arg, const struct ios_run_progress *pr)
{
	struct pool_cb *cb = arg;
	struct pool *pool = cb->pool;

	pthread_mutex_lock(&pool->lock);
	pool->slots[cb->idx].sim_ns = pr->sim_ns;
	pool->slots[cb->idx].fraction = pr->fraction;
	pthread_mutex_unlock(&pool->lock);
}

static void pool_run_one(struct pool *pool, size_t idx)
{
	struct pool_cb cb = { pool, idx };
	int ret;

	ret = pool->cfg->fn(pool->cfg->arg, idx, pool->progress ? pool_progress_cb : NULL, &cb);
	pthread_mutex_lock(&pool->lock);
	pool->slots[idx].running = false;
	pool->slots[idx].done = true;
	if (ret && idx < pool->fail_min)
		pool->fail_min = idx;
	pool->finished++;
	pthread_cond_broadcast(&pool->cond);
	pthread_mutex_unlock(&pool->lock);
}

static void *pool_worker(void *arg)
{
	struct pool *pool = arg;
	size_t nr = pool->cfg->nr;

	for (;;) {
		size_t idx;

		pthread_mutex_lock(&pool->lock);
		while (pool->next < nr && pool->next > pool->fail_min) {
			pool->slots[pool->next++].done = true;
			pool->finished++;
		}
		if (pool->next >= nr) {
			pthread_cond_broadcast(&pool->cond);
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		idx = pool->next++;
		pool->slots[idx].running = true;
		pthread_mutex_unlock(&pool->lock);
		pool_run_one(pool, idx);
	}
}

/* Wait for every task; on a terminal, draw the progress line meanwhile. */
static void pool_wait(struct pool *pool, struct cli_progress *prog)
{
	const struct cli_pool_cfg *cfg = pool->cfg;
	struct ios_progress_item items[8];

	pthread_mutex_lock(&pool->lock);
	while (pool->finished < cfg->nr) {
		struct timespec ts;
		double el;

		if (!prog->tty) {
			pthread_cond_wait(&pool->cond, &pool->lock);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pool->cond, &pool->lock, &ts);
		if (pool->finished < cfg->nr && cli_progress_due(prog, &el)) {
			char line[512];
			size_t n = 0, done = 0;

			for (size_t i = 0; i < cfg->nr; i++) {
				const struct pool_slot *s = &pool->slots[i];

				if (s->done)
					done++;
				else if (s->running && n < IOS_ARRAY_SIZE(items))
					items[n++] = (struct ios_progress_item){
						cfg->label ? cfg->label(cfg->arg, i) : NULL,
						s->sim_ns, s->fraction };
			}
			ios_progress_format(line, sizeof(line), cli_progress_width(), items, n,
					    (unsigned)done, (unsigned)cfg->nr, el);
			pthread_mutex_unlock(&pool->lock);
			cli_progress_show(prog, line);
			pthread_mutex_lock(&pool->lock);
		}
	}
	pthread_mutex_unlock(&pool->lock);
	cli_progress_clear(prog);
}

int cli_pool_run(const struct cli_pool_cfg *cfg, size_t *first_failed)
{
	struct pool pool;
	struct cli_progress prog;
	pthread_t *th;
	size_t nr_th;
	long workers = cfg->workers < 1 ? 1 : cfg->workers;

	*first_failed = cfg->nr;
	if (!cfg->nr)
		return 0;
	memset(&pool, 0, sizeof(pool));
	pool.cfg = cfg;
	pool.fail_min = cfg->nr;
	nr_th = (size_t)workers < cfg->nr ? (size_t)workers : cfg->nr;
	pool.slots = calloc(cfg->nr, sizeof(*pool.slots));
	th = calloc(nr_th, sizeof(*th));
	if (!pool.slots || !th) {
		free(pool.slots);
		free(th);
		return -1;
	}
	cli_progress_init(&prog);
	pool.progress = prog.tty;
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.cond, NULL);
	for (size_t t = 0; t < nr_th; t++) {
		if (pthread_create(&th[t], NULL, pool_worker, &pool)) {
			/* fewer workers than asked: the ones running do all the work */
			nr_th = t;
			break;
		}
	}
	if (!nr_th)
		pool_worker(&pool);
	pool_wait(&pool, &prog);
	for (size_t t = 0; t < nr_th; t++)
		pthread_join(th[t], NULL);
	pthread_cond_destroy(&pool.cond);
	pthread_mutex_destroy(&pool.lock);
	*first_failed = pool.fail_min;
	free(pool.slots);
	free(th);
	return 0;
}
