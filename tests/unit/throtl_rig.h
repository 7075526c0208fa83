/*
 * A rig for the io.max tests (blkcg_throtl_*.c): a real blk-mq queue
 * (mq_rig.h, elevator t-mq-fifo), a cgroup tree with io.max limits, and
 * blk-throttle (src/block/blk_throttle.c) called through its ops with a
 * fake clock. A bio the throttle lets go later is recorded with its time;
 * with @forward set it then enters the real queue through ios_mq_submit_bio
 * (the core's ios_blkcg_resubmit is not on main yet: this stands in for it,
 * without the Q trace). Times are in jiffies of the rig's HZ.
 */
#ifndef T_THROTL_RIG_H
#define T_THROTL_RIG_H

#include "mq_rig.h"
#include "block/blk_throttle.h"

#define TR_MAX_CG 8
#define TR_MAX_BIOS 8192
#define TR_MAX_NOTES 1024

struct tr_note {
	const struct ios_cgroup *cg;
	int dir;
	enum ios_throtl_event ev;
	unsigned value;
};

struct tr {
	struct m_rig *m;
	unsigned hz;
	const struct ios_throtl_profile *prof;
	struct ios_cgroup cg[TR_MAX_CG];
	struct ios_cgroup_v2 v2[TR_MAX_CG];
	char names[TR_MAX_CG][8];
	unsigned nr_cg;
	struct ios_ioc *ioc[TR_MAX_CG];
	struct ios_bio bios[TR_MAX_BIOS];
	unsigned nr_bios;
	/* when each bio went on (UINT64_MAX: still held), in lab ns */
	uint64_t went[TR_MAX_BIOS];
	struct ios_bio *released[TR_MAX_BIOS];
	unsigned nr_released;
	bool forward;
	struct tr_note notes[TR_MAX_NOTES];
	unsigned nr_notes;
};

static struct tr *tr_cur;

static inline uint64_t tr_ns(const struct tr *t, uint64_t jiffies)
{
	return jiffies * IOS_NSEC_PER_SEC / t->hz;
}

static inline void tr_resubmit(struct ios_queue *q, struct ios_bio *bio, uint64_t now)
{
	struct tr *t = tr_cur;

	t->went[bio - t->bios] = now;
	t->released[t->nr_released++] = bio;
	if (t->forward) {
		q->nr_bios_in++;	/* ios_queue_submit_bio's count, which this path skips */
		ios_mq_submit_bio(q, bio, now);
	}
}

static inline void tr_note(void *priv, const struct ios_cgroup *cg, int dir,
			   enum ios_throtl_event ev, unsigned value, uint64_t now)
{
	struct tr *t = priv;

	(void)now;
	if (t->nr_notes < TR_MAX_NOTES)
		t->notes[t->nr_notes++] = (struct tr_note){ cg, dir, ev, value };
}

/* A rig with only the root cgroup; add groups with tr_group, then tr_start. */
static inline struct tr *tr_new(const struct ios_throtl_profile *p, unsigned hz, int rotational)
{
	struct tr *t = calloc(1, sizeof(*t));

	t->m = m_rig_new(NULL, 64, 1, 1, rotational ? "queue.rotational=1" : "queue.rotational=0");
	if (!t->m) {
		free(t);
		return NULL;
	}
	t->hz = hz;
	t->prof = p;
	t->cg[0] = (struct ios_cgroup){ .path = (char *)"", .id = 0, .ioprio = -1 };
	ios_cgroup_v2_init(&t->v2[0]);
	t->cg[0].v2 = &t->v2[0];
	t->ioc[0] = m_ioc(1000, 0);
	t->ioc[0]->cgroup = &t->cg[0];
	t->nr_cg = 1;
	tr_cur = t;
	return t;
}

/* Group @i (returned) under @parent with io.max rbps wbps riops wiops (0: max). */
static inline unsigned tr_group(struct tr *t, unsigned parent, uint64_t rbps, uint64_t wbps,
				uint32_t riops, uint32_t wiops)
{
	unsigned i = t->nr_cg++;

	snprintf(t->names[i], sizeof(t->names[i]), "g%u", i);
	t->cg[i] = (struct ios_cgroup){ .path = t->names[i], .id = i, .ioprio = -1,
					.parent = &t->cg[parent] };
	ios_cgroup_v2_init(&t->v2[i]);
	t->v2[i].bps[0] = rbps ? rbps : UINT64_MAX;
	t->v2[i].bps[1] = wbps ? wbps : UINT64_MAX;
	t->v2[i].iops[0] = riops ? riops : UINT32_MAX;
	t->v2[i].iops[1] = wiops ? wiops : UINT32_MAX;
	t->cg[i].v2 = &t->v2[i];
	t->ioc[i] = m_ioc(1000 + i, 0);
	t->ioc[i]->cgroup = &t->cg[i];
	return i;
}

static inline int tr_start(struct tr *t, uint64_t now)
{
	struct ios_cgroup *list[TR_MAX_CG];

	for (unsigned i = 0; i < t->nr_cg; i++)
		list[i] = &t->cg[i];
	t->m->q->blkcg = ios_blkcg_ctl_create(list, t->nr_cg);
	if (!t->m->q->blkcg)
		return -1;
	if (ios_blk_throtl_init(t->m->q, t->prof, t->hz, tr_resubmit, now))
		return -1;
	ios_blk_throtl_set_note(t->m->q, tr_note, t);
	return 0;
}

/*
 * A bio of group @g: @bytes for bps, @bps_done for a later piece of a
 * split. Returns the index of the bio; t->went[] says whether it went.
 */
static inline unsigned tr_bio_ex(struct tr *t, unsigned g, int dir, uint32_t bytes,
				 uint64_t charge, bool bps_done, uint32_t flags, uint64_t now)
{
	unsigned i = t->nr_bios++;
	struct ios_bio *bio = &t->bios[i];

	memset(bio, 0, sizeof(*bio));
	bio->sector = (uint64_t)i * 256;
	bio->nr_sectors = bytes / 512;
	bio->dir = (uint8_t)dir;
	bio->flags = flags;
	bio->ioc = t->ioc[g];
	bio->submit_ns = now;
	bio->priv = t->m;
	bio->queued = m_queued;
	bio->state = IOS_BIO_IN_FLIGHT;
	t->went[i] = UINT64_MAX;
	if (!ios_blk_throtl_bio_split(t->m->q, bio, charge, bps_done, now)) {
		t->went[i] = now;
		if (t->forward) {
			t->m->q->nr_bios_in++;
			ios_mq_submit_bio(t->m->q, bio, now);
		}
	}
	return i;
}

static inline unsigned tr_bio(struct tr *t, unsigned g, int dir, uint32_t bytes, uint64_t now)
{
	return tr_bio_ex(t, g, dir, bytes, bytes, false, 0, now);
}

static inline bool tr_held(const struct tr *t, unsigned i)
{
	return t->went[i] == UINT64_MAX;
}

/* Fire the throttle's timers due up to @until (ns). */
static inline void tr_run(struct tr *t, uint64_t until)
{
	for (;;) {
		uint64_t at = ios_blk_throtl_ops.next_timer(t->m->q, until);

		if (at > until)
			break;
		ios_blk_throtl_ops.timer(t->m->q, at);
	}
}

static inline struct ios_throtl_grp_view tr_view(struct tr *t, unsigned g, int dir)
{
	struct ios_throtl_grp_view v;

	memset(&v, 0, sizeof(v));
	ios_blk_throtl_view(t->m->q, &t->cg[g], dir, &v);
	return v;
}

static inline void tr_free(struct tr *t)
{
	ios_blk_throtl_ops.exit(t->m->q);
	ios_blkcg_ctl_destroy(t->m->q->blkcg);
	t->m->q->blkcg = NULL;
	m_rig_free(t->m, UINT64_MAX / 2);
	free(t);
}

#endif
