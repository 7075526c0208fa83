/*
 * A rig for the io.cost core tests (blkcg_iocost_*.c): a group tree of
 * up to 8 cgroups with their v2 files, an io.cost controller over it
 * (src/block/blk_iocost.c) and a pool of bios whose releases are recorded.
 * No queue, no device: the test is the clock, the submitter and the
 * completer.
 */
#ifndef T_IOCOST_RIG_H
#define T_IOCOST_RIG_H

#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "block/blk_iocost.h"
#include "iosched/request.h"

#define C_MAX_CG 8
#define C_POOL 8192

struct c_rig {
	struct ios_cgroup cg[C_MAX_CG];
	struct ios_cgroup_v2 v2[C_MAX_CG];
	struct ios_cgroup *cgp[C_MAX_CG];
	unsigned nr_cg;
	struct ios_blkcg_ctl *ctl;
	struct ios_iocost *ioc;
	struct ios_iocost_dev dev;
	struct ios_iocost_bio pool[C_POOL];
	unsigned nr_pool;
	struct ios_iocost_bio *released[C_POOL];
	unsigned nr_released;
	uint64_t last_release_at;
};

/* the root, always cgroup 0 */
static inline void c_init(struct c_rig *r)
{
	memset(r, 0, sizeof(*r));
	r->cg[0].path = (char *)"";
	r->cgp[0] = &r->cg[0];
	ios_cgroup_v2_init(&r->v2[0]);
	r->cg[0].v2 = &r->v2[0];
	r->nr_cg = 1;
	r->dev.rotational = false;
	r->dev.queue_depth = 64;
}

/* a cgroup under @parent (an index) with io.weight @weight; returns its index */
static inline unsigned c_group(struct c_rig *r, unsigned parent, unsigned weight)
{
	unsigned i = r->nr_cg++;

	r->cg[i].path = (char *)"g";
	r->cg[i].id = i;
	r->cg[i].parent = &r->cg[parent];
	ios_cgroup_v2_init(&r->v2[i]);
	r->v2[i].weight = weight;
	r->cg[i].v2 = &r->v2[i];
	r->cgp[i] = &r->cg[i];
	return i;
}

static void c_release(void *arg, struct ios_iocost_bio *b, uint64_t now)
{
	struct c_rig *r = arg;

	if (r->nr_released < C_POOL)
		r->released[r->nr_released++] = b;
	r->last_release_at = now;
}

/* build the tree and the controller; @enable writes io.cost.qos enable=1 */
static inline int c_start(struct c_rig *r, int enable, uint64_t now)
{
	r->ctl = ios_blkcg_ctl_create(r->cgp, r->nr_cg);
	if (!r->ctl)
		return -1;
	r->ioc = ios_iocost_create(r->ctl, &r->dev, c_release, r, now);
	if (!r->ioc)
		return -1;
	r->v2[0].qos.enable = enable;
	ios_iocost_configure(r->ioc, &r->v2[0], now);
	return 0;
}

static inline void c_free(struct c_rig *r)
{
	ios_iocost_destroy(r->ioc);
	ios_blkcg_ctl_destroy(r->ctl);
}

/* a bio of group @g; the pool wraps (tests keep fewer than C_POOL alive) */
static inline struct ios_iocost_bio *c_bio(struct c_rig *r, unsigned g, uint64_t sector,
					   uint32_t nr_sectors, int dir)
{
	struct ios_iocost_bio *b = &r->pool[r->nr_pool++ % C_POOL];

	memset(b, 0, sizeof(*b));
	b->cg = &r->cg[g];
	b->sector = sector;
	b->nr_sectors = nr_sectors;
	b->dir = (uint8_t)dir;
	return b;
}

static inline int c_throttle(struct c_rig *r, struct ios_iocost_bio *b, uint64_t now)
{
	return ios_iocost_throttle(r->ioc, b, now);
}

/* fire every wake-up due up to @until, in order; returns the last time fired */
static inline uint64_t c_run_timers(struct c_rig *r, uint64_t until)
{
	uint64_t t, last = 0;

	while ((t = ios_iocost_next_timer(r->ioc)) <= until) {
		ios_iocost_timer(r->ioc, t);
		last = t;
	}
	return last;
}

static inline struct ios_iocost_state c_state(struct c_rig *r, uint64_t now)
{
	struct ios_iocost_state s;

	ios_iocost_state(r->ioc, now, &s);
	return s;
}

static inline struct ios_iocg_state c_gstate(struct c_rig *r, unsigned g)
{
	struct ios_iocg_state s;

	ios_iocg_state(r->ioc, &r->cg[g], &s);
	return s;
}

#define C_MS 1000000ull
#define C_US 1000ull

#endif
