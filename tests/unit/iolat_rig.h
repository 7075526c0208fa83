/*
 * A rig for the io.latency tests (blkcg_iolat_*.c): a group tree built
 * from a parent table, the controller's state over it (src/block/
 * blk_iolatency.c) and a fake clock, which is just the now the test
 * passes. Bios are test-owned; the release callback records the order in
 * which waiting bios were let through.
 */
#ifndef T_IOLAT_RIG_H
#define T_IOLAT_RIG_H

#include <string.h>
#include "harness.h"
#include "block/blk_iolatency.h"
#include "iosched/request.h"

#define IR_MAX_GROUPS 8
#define IR_MAX_BIOS 64
#define IR_MS 1000000ull
#define IR_US 1000ull

struct ir_rig {
	struct ios_cgroup cg[IR_MAX_GROUPS];
	struct ios_cgroup *cgp[IR_MAX_GROUPS];
	struct ios_blkcg_ctl *ctl;
	struct ios_iolat *lat;
	struct ios_bio bios[IR_MAX_BIOS];
	struct ios_bio *released[IR_MAX_BIOS];
	unsigned nr_released;
};

static void ir_release(struct ios_iolat *lat, struct ios_bio *bio, uint64_t now)
{
	struct ir_rig *r = lat->priv;

	(void)now;
	if (r->nr_released < IR_MAX_BIOS)
		r->released[r->nr_released++] = bio;
}

/*
 * Groups 0..n-1, group 0 the root, parent[i] the parent of group i (< i).
 * @nr_requests the queue's, @nonrot the device type.
 */
static inline struct ir_rig *ir_new(unsigned n, const int *parent, unsigned nr_requests,
				    bool nonrot)
{
	struct ir_rig *r = calloc(1, sizeof(*r));

	if (!r || n > IR_MAX_GROUPS)
		abort();
	for (unsigned i = 0; i < n; i++) {
		r->cg[i].id = i;
		r->cg[i].path = (char *)"";
		r->cg[i].parent = i ? &r->cg[parent[i]] : NULL;
		r->cgp[i] = &r->cg[i];
	}
	r->ctl = ios_blkcg_ctl_create(r->cgp, n);
	r->lat = r->ctl ? ios_iolat_create(r->ctl, nr_requests, nonrot, 250, 0) : NULL;
	if (!r->lat)
		abort();
	r->lat->release = ir_release;
	r->lat->priv = r;
	return r;
}

static inline void ir_free(struct ir_rig *r)
{
	ios_iolat_destroy(r->lat);
	ios_blkcg_ctl_destroy(r->ctl);
	free(r);
}

static inline struct ios_blkg *ir_blkg(struct ir_rig *r, unsigned i)
{
	return &r->ctl->blkgs[i];
}

static inline struct ios_iolat_grp *ir_grp(struct ir_rig *r, unsigned i)
{
	return ios_iolat_grp_of(r->lat, ir_blkg(r, i));
}

static inline void ir_target(struct ir_rig *r, unsigned i, uint64_t ns)
{
	ios_iolat_set_target(r->lat, ir_blkg(r, i), ns);
}

/*
 * One completion of group @i at @now, issued @lat_ns before (a sample; the
 * submission side is the tests' ir_submit, so no stack bio can be held).
 */
static inline void ir_io(struct ir_rig *r, unsigned i, uint64_t lat_ns, uint64_t now)
{
	ios_iolat_done_bio(r->lat, ir_blkg(r, i), now - lat_ns, false, now);
}

/*
 * One window of group @i closed at @now: @n samples, the first @n_slow
 * taking @slow_ns and the rest @fast_ns. All but the last complete halfway
 * through the open window, the last at @now closes it.
 */
static inline void ir_window(struct ir_rig *r, unsigned i, unsigned n, unsigned n_slow,
			     uint64_t slow_ns, uint64_t fast_ns, uint64_t now)
{
	struct ios_iolat_grp *g = ir_grp(r, i);
	uint64_t mid = g->window_start + g->cur_win_nsec / 2;

	for (unsigned k = 0; k < n; k++)
		ir_io(r, i, k < n_slow ? slow_ns : fast_ns, k + 1 < n ? mid : now);
}

/* A submission of group @i at @now that does not wait (returns throttle's answer). */
static inline int ir_submit(struct ir_rig *r, unsigned i, struct ios_bio *b, uint64_t now)
{
	return ios_iolat_throttle(r->lat, ir_blkg(r, i), b, false, now);
}

/* The parent @p's children's cookie */
static inline unsigned ir_cookie(struct ir_rig *r, unsigned p)
{
	return ir_grp(r, p)->child.scale_cookie;
}

#endif
