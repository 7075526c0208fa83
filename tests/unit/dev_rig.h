/*
 * A tiny closed-loop driver for device-model tests (included by the
 * tests/unit/dev_*.c programs; not a test itself).
 *
 * It plays the part of the block layer and the simulator at once: keep
 * @depth commands in the device, submit the next one when one completes
 * (after an optional think time), and move time to whatever the device's
 * next_event() says. No scheduler, no simulator, no event queue: just the
 * device's own contract, so a test failure points at the device model.
 */
#ifndef IOSCHED_TEST_DEV_RIG_H
#define IOSCHED_TEST_DEV_RIG_H

#include <stdarg.h>
#include <string.h>
#include "harness.h"

/* Fill in request @i (sector, nr_sectors, dir, flags); the rig does the rest. */
typedef void (*dev_gen_fn)(void *ctx, uint64_t i, struct ios_request *rq);

struct dev_run {
	uint64_t start_ns, end_ns;	/* first submission, last completion */
	uint64_t count;			/* commands completed */
	uint64_t bytes;
	uint64_t lat_sum_ns, lat_max_ns;
	int order_errors;		/* completions before their submission, or out of time order */
	uint64_t *complete_ns;		/* optional: completion time of command i */
	uint64_t *lat_ns;		/* optional: latency of command i */
};

/* Create a device from @profile with "device.NAME=VALUE" strings ending in NULL. */
static inline struct ios_dev *dev_new(const char *profile, ...)
{
	struct ios_settings set = { 0 };
	struct ios_err e = { 0 };
	struct ios_dev *dev;
	const char *kv;
	va_list ap;

	va_start(ap, profile);
	while ((kv = va_arg(ap, const char *)) != NULL) {
		if (ios_settings_add_kv(&set, kv, "test", &e)) {
			fprintf(stderr, "  %s\n", e.msg);
			va_end(ap);
			ios_settings_free(&set);
			return NULL;
		}
	}
	va_end(ap);
	dev = ios_dev_create(profile, &set, 1, &e);
	if (!dev)
		fprintf(stderr, "  dev_new(%s): %s\n", profile, e.msg);
	ios_settings_free(&set);
	return dev;
}

/* The same, returning the error instead of printing it. */
static inline struct ios_dev *dev_new_err(const char *profile, struct ios_err *e, ...)
{
	struct ios_settings set = { 0 };
	struct ios_dev *dev;
	const char *kv;
	va_list ap;

	ios_err_clear(e);
	va_start(ap, e);
	while ((kv = va_arg(ap, const char *)) != NULL)
		if (ios_settings_add_kv(&set, kv, "test", e))
			break;
	va_end(ap);
	dev = e->code ? NULL : ios_dev_create(profile, &set, 1, e);
	ios_settings_free(&set);
	return dev;
}

/*
 * Run @count commands at queue depth @depth starting at @start, with
 * @think_ns between a completion and the submission that replaces it.
 * Returns 0, or -1 if the device refused a command or stalled.
 */
static inline int dev_run(struct ios_dev *dev, unsigned depth, uint64_t count, uint64_t start,
			  uint64_t think_ns, dev_gen_fn gen, void *ctx, struct dev_run *r)
{
	const struct ios_dev_ops *o = &dev->type->ops;
	struct ios_request *pool = calloc(depth, sizeof(*pool));
	uint64_t *ready = calloc(depth, sizeof(*ready));
	uint64_t *idx = calloc(depth, sizeof(*idx));
	bool *busy = calloc(depth, sizeof(*busy));
	uint64_t now = start, next = 0, last_done = 0;
	int ret = -1;

	r->start_ns = start;
	r->end_ns = start;
	r->count = r->bytes = r->lat_sum_ns = r->lat_max_ns = 0;
	r->order_errors = 0;
	if (!pool || !ready || !idx || !busy)
		goto out;
	for (unsigned i = 0; i < depth; i++)
		ready[i] = start;
	while (r->count < count) {
		uint64_t t;

		/* submit every free slot whose think time is over */
		for (unsigned i = 0; i < depth && next < count; i++) {
			struct ios_request *rq = &pool[i];

			if (busy[i] || ready[i] > now)
				continue;
			memset(rq, 0, sizeof(*rq));
			ios_list_init(&rq->dev_node);
			rq->id = next;
			gen(ctx, next, rq);
			rq->dispatch_ns = now;
			if (o->submit(dev, rq, now)) {
				fprintf(stderr, "  submit of command %llu refused\n",
					(unsigned long long)next);
				goto out;
			}
			idx[i] = next++;
			busy[i] = true;
		}
		t = o->next_event(dev);
		for (unsigned i = 0; i < depth; i++)
			if (!busy[i] && next < count && ready[i] > now && ready[i] < t)
				t = ready[i];
		if (t == IOS_NO_WAKEUP) {
			fprintf(stderr, "  device stalled with %llu of %llu done\n",
				(unsigned long long)r->count, (unsigned long long)count);
			goto out;
		}
		if (t > now)
			now = t;
		for (;;) {
			struct ios_request *rq = o->complete(dev, now);
			unsigned slot;

			if (!rq)
				break;
			slot = (unsigned)(rq - pool);
			if (rq < pool || slot >= depth || !busy[slot]) {
				fprintf(stderr, "  device returned a request it was not given\n");
				goto out;
			}
			if (now < rq->dispatch_ns || now < last_done)
				r->order_errors++;
			last_done = now;
			busy[slot] = false;
			ready[slot] = now + think_ns;
			r->count++;
			r->bytes += ios_rq_bytes(rq);
			r->lat_sum_ns += now - rq->dispatch_ns;
			if (now - rq->dispatch_ns > r->lat_max_ns)
				r->lat_max_ns = now - rq->dispatch_ns;
			if (r->complete_ns)
				r->complete_ns[idx[slot]] = now;
			if (r->lat_ns)
				r->lat_ns[idx[slot]] = now - rq->dispatch_ns;
			r->end_ns = now;
		}
	}
	ret = 0;
out:
	free(pool);
	free(ready);
	free(idx);
	free(busy);
	return ret;
}

static inline double dev_iops(const struct dev_run *r)
{
	return r->end_ns > r->start_ns ? (double)r->count * 1e9 / (double)(r->end_ns - r->start_ns) : 0;
}

/* 10^6 bytes per second, as disk data sheets count */
static inline double dev_mbps(const struct dev_run *r)
{
	return r->end_ns > r->start_ns ? (double)r->bytes * 1e3 / (double)(r->end_ns - r->start_ns) : 0;
}

/* ---- common generators ---- */

struct dev_gen {
	uint64_t base, span;		/* sectors: region [base, base + span) */
	uint32_t nr;			/* sectors per command */
	int dir;
	uint32_t flags;
	struct ios_rand rng;
};

/* Uniformly random, aligned to the command size. */
static inline void dev_gen_random(void *ctx, uint64_t i, struct ios_request *rq)
{
	struct dev_gen *g = ctx;

	(void)i;
	rq->sector = g->base + ios_rand_below(&g->rng, g->span / g->nr) * g->nr;
	rq->nr_sectors = g->nr;
	rq->dir = (uint8_t)g->dir;
	rq->flags = g->flags;
}

/* Back to back from base. */
static inline void dev_gen_seq(void *ctx, uint64_t i, struct ios_request *rq)
{
	struct dev_gen *g = ctx;

	rq->sector = g->base + i * g->nr;
	rq->nr_sectors = g->nr;
	rq->dir = (uint8_t)g->dir;
	rq->flags = g->flags;
}

#endif
