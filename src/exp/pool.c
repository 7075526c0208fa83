/*
 * Worker threads for experiments that do many whole runs (compare, repro).
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
 * The calling thread only waits and, when the caller asked for progress,
 * wakes every 100 ms to hand it what the running tasks last reported.
 * That wall-clock wait paces the progress calls only; what to draw, and
 * when, is the caller's (the command line's progress line).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iosched/ios.h"
#include "iosched/exp.h"

#define POOL_PROGRESS_ITEMS	8
#define POOL_WAKE_NS		(100 * 1000 * 1000L)

struct pool_slot {
	bool running, done;
	uint64_t sim_ns;		/* progress while running */
	double fraction;
};

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const struct ios_exp_pool *cfg;
	const struct ios_exp_opts *opts;
	struct pool_slot *slots;
	size_t next, finished;
	size_t fail_min;		/* lowest failed task; nr while none */
	bool progress;			/* collect progress for opts->progress */
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

/* The running tasks, in task order, for one progress call (the lock held). */
static size_t pool_snapshot(const struct pool *pool, struct ios_progress_item *items,
			    size_t *done)
{
	const struct ios_exp_pool *cfg = pool->cfg;
	size_t n = 0;

	*done = 0;
	for (size_t i = 0; i < cfg->nr; i++) {
		const struct pool_slot *s = &pool->slots[i];

		if (s->done)
			(*done)++;
		else if (s->running && n < POOL_PROGRESS_ITEMS)
			items[n++] = (struct ios_progress_item){
				cfg->label ? cfg->label(cfg->arg, i) : NULL, s->sim_ns, s->fraction };
	}
	return n;
}

/* Wait for every task; with progress wanted, report it every 100 ms meanwhile. */
static void pool_wait(struct pool *pool)
{
	const struct ios_exp_pool *cfg = pool->cfg;
	struct ios_progress_item items[POOL_PROGRESS_ITEMS];

	pthread_mutex_lock(&pool->lock);
	while (pool->finished < cfg->nr) {
		struct timespec ts;
		size_t n, done;

		if (!pool->progress) {
			pthread_cond_wait(&pool->cond, &pool->lock);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += POOL_WAKE_NS;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pool->cond, &pool->lock, &ts);
		if (pool->finished >= cfg->nr)
			break;
		n = pool_snapshot(pool, items, &done);
		pthread_mutex_unlock(&pool->lock);
		pool->opts->progress(pool->opts->progress_arg, items, n, (unsigned)done,
				     (unsigned)cfg->nr);
		pthread_mutex_lock(&pool->lock);
	}
	pthread_mutex_unlock(&pool->lock);
}

int ios_exp_pool_run(const struct ios_exp_pool *cfg, const struct ios_exp_opts *o,
		     size_t *first_failed)
{
	struct pool pool;
	pthread_t *th;
	size_t nr_th;
	long workers = o->workers < 1 ? 1 : o->workers;

	*first_failed = cfg->nr;
	if (!cfg->nr)
		return 0;
	memset(&pool, 0, sizeof(pool));
	pool.cfg = cfg;
	pool.opts = o;
	pool.fail_min = cfg->nr;
	nr_th = (size_t)workers < cfg->nr ? (size_t)workers : cfg->nr;
	pool.slots = calloc(cfg->nr, sizeof(*pool.slots));
	th = calloc(nr_th, sizeof(*th));
	if (!pool.slots || !th) {
		free(pool.slots);
		free(th);
		return -ENOMEM;
	}
	pool.progress = o->progress != NULL;
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
	pool_wait(&pool);
	for (size_t t = 0; t < nr_th; t++)
		pthread_join(th[t], NULL);
	pthread_cond_destroy(&pool.cond);
	pthread_mutex_destroy(&pool.lock);
	*first_failed = pool.fail_min;
	free(pool.slots);
	free(th);
	return 0;
}
