/*
 * The timeline recorder (include/iosched/timeline.h).
 *
 * Every scheduler note first closes the open piece of time at the note's
 * time, attributed to the lane the disk idled for if any, else to the lane
 * that owned it, then changes the state. A dispatch ends an idle window
 * (the request the scheduler waited for, or another, went to the disk).
 * A piece spreads over the columns it covers; within a column the lane
 * with the longest share keeps it, which is what a pixel can show.
 *
 * The blk-mq series: a leveled batch (mq-deadline's IOS_OWN_ROUND with a
 * level, Linux 6.12 __dd_dispatch_request) marks its column and is logged;
 * a token pool's depth (kyber's IOS_OWN_DEPTH, 6.12 kyber_resize_domain)
 * is a step function, written into the columns it covered each time it
 * changes (and at the end), keeping per column the smallest depth. The
 * first change of a pool says the depth before it, so the step starts at
 * time 0 with the pool's starting depth.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/timeline.h"

static int tl_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int ios_timeline_init(struct ios_timeline *tl, size_t nr_jobs, const uint32_t *pids)
{
	size_t n = nr_jobs + 1;
	uint64_t *pairs;

	memset(tl, 0, sizeof(*tl));
	tl->col_ns = IOS_TL_FIRST_NS;
	tl->row_sectors = IOS_TL_FIRST_ROW;
	tl->nr_lanes = n;
	tl->own_lane = tl->idle_lane = -1;
	tl->own_ns = calloc(n, sizeof(*tl->own_ns));
	tl->idle_ns = calloc(n, sizeof(*tl->idle_ns));
	tl->slices = calloc(n, sizeof(*tl->slices));
	tl->preempts = calloc(n, sizeof(*tl->preempts));
	tl->dispatched = calloc(n, sizeof(*tl->dispatched));
	tl->pids = calloc(n, sizeof(*tl->pids));
	tl->pid_lane = calloc(n, sizeof(*tl->pid_lane));
	pairs = calloc(n, sizeof(*pairs));
	if (!tl->own_ns || !tl->idle_ns || !tl->slices || !tl->preempts || !tl->dispatched ||
	    !tl->pids || !tl->pid_lane || !pairs) {
		free(pairs);
		ios_timeline_free(tl);
		return -ENOMEM;
	}
	/* sort (pid, lane) pairs by pid; a pid used twice keeps its first job */
	for (size_t i = 0; i < nr_jobs; i++)
		pairs[i] = (uint64_t)pids[i] << 32 | i;
	qsort(pairs, nr_jobs, sizeof(*pairs), tl_cmp_u64);
	for (size_t i = 0; i < nr_jobs; i++) {
		uint32_t pid = (uint32_t)(pairs[i] >> 32);

		if (tl->nr_pids && tl->pids[tl->nr_pids - 1] == pid)
			continue;
		tl->pids[tl->nr_pids] = pid;
		tl->pid_lane[tl->nr_pids++] = (uint32_t)pairs[i];
	}
	free(pairs);
	return 0;
}

void ios_timeline_free(struct ios_timeline *tl)
{
	if (!tl)
		return;
	free(tl->cols);
	free(tl->cells);
	free(tl->own_ns);
	free(tl->idle_ns);
	free(tl->slices);
	free(tl->preempts);
	free(tl->dispatched);
	free(tl->log);
	free(tl->batches);
	free(tl->depths);
	free(tl->held_lane_ns);
	free(tl->held_lane_nr);
	free(tl->held_log);
	free(tl->pids);
	free(tl->pid_lane);
	memset(tl, 0, sizeof(*tl));
}

static uint32_t tl_lane(const struct ios_timeline *tl, uint32_t pid)
{
	size_t lo = 0, hi = tl->nr_pids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl->pids[mid] == pid)
			return tl->pid_lane[mid];
		if (tl->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)(tl->nr_lanes - 1);
}

/* Keep the longer holder of a column: the same lane adds up. */
static void tl_keep(uint32_t *who, uint64_t *ns, uint32_t lane1, uint64_t add)
{
	if (*who == lane1)
		*ns += add;
	else if (add > *ns) {
		*who = lane1;
		*ns = add;
	}
}

static uint32_t tl_cell_merge(uint32_t a, uint32_t b)
{
	if (!b)
		return a;
	if (!a)
		return b;
	return (b & ~3u) | ((a | b) & 3u);	/* the later lane, both directions */
}

/* Pairs of columns fold into one; the column width doubles. */
static void tl_fold_cols(struct ios_timeline *tl)
{
	size_t n = (tl->nr_cols + 1) / 2;

	for (size_t i = 0; i < n; i++) {
		struct ios_tl_col a = tl->cols[2 * i], b = { 0 };
		struct ios_tl_col *d = &tl->cols[i];

		if (2 * i + 1 < tl->nr_cols)
			b = tl->cols[2 * i + 1];
		*d = a;
		if (b.own)
			tl_keep(&d->own, &d->own_ns, b.own, b.own_ns);
		if (b.idle)
			tl_keep(&d->idle, &d->idle_ns, b.idle, b.idle_ns);
		if (b.preempt)
			d->preempt = b.preempt;
		d->nr_preempt = (uint16_t)(a.nr_preempt + b.nr_preempt < 0xffff ?
					   a.nr_preempt + b.nr_preempt : 0xffff);
		d->rounds = a.rounds | b.rounds;
		d->levels = a.levels | b.levels;
		for (size_t k = 0; k < IOS_TL_DOMAINS; k++)
			if (b.depth[k] && (!d->depth[k] || b.depth[k] < d->depth[k]))
				d->depth[k] = b.depth[k];
		for (size_t k = 0; k < IOS_TL_CAUSES; k++)
			if (b.held[k])
				tl_keep(&d->held[k], &d->held_ns[k], b.held[k], b.held_ns[k]);
		for (size_t r = 0; r < IOS_TL_ROWS; r++) {
			uint32_t ca = tl->cells[2 * i * IOS_TL_ROWS + r], cb = 0;

			if (2 * i + 1 < tl->nr_cols)
				cb = tl->cells[(2 * i + 1) * IOS_TL_ROWS + r];
			tl->cells[i * IOS_TL_ROWS + r] = tl_cell_merge(ca, cb);
		}
	}
	/* an event far out before any column exists folds an empty timeline */
	if (tl->nr_cols) {
		memset(tl->cols + n, 0, (tl->nr_cols - n) * sizeof(*tl->cols));
		memset(tl->cells + n * IOS_TL_ROWS, 0,
		       (tl->nr_cols - n) * IOS_TL_ROWS * sizeof(*tl->cells));
	}
	tl->nr_cols = n;
	tl->col_ns *= 2;
}

/* Pairs of sector bands fold into one; the band height doubles. */
static void tl_fold_rows(struct ios_timeline *tl)
{
	for (size_t c = 0; c < tl->nr_cols; c++) {
		uint32_t *row = tl->cells + c * IOS_TL_ROWS;

		for (size_t r = 0; r < IOS_TL_ROWS / 2; r++)
			row[r] = tl_cell_merge(row[2 * r], row[2 * r + 1]);
		memset(row + IOS_TL_ROWS / 2, 0, IOS_TL_ROWS / 2 * sizeof(*row));
	}
	tl->row_sectors *= 2;
}

/* Columns up to the one holding @t_ns; false when out of memory. */
static bool tl_cover(struct ios_timeline *tl, uint64_t t_ns)
{
	size_t idx;

	if (tl->err)
		return false;
	while (t_ns / tl->col_ns >= IOS_TL_MAX_COLS)
		tl_fold_cols(tl);
	idx = (size_t)(t_ns / tl->col_ns);
	if (idx >= tl->cap_cols) {
		size_t cap = tl->cap_cols ? tl->cap_cols : 64;
		struct ios_tl_col *cols;
		uint32_t *cells;

		while (cap <= idx)
			cap *= 2;
		if (cap > IOS_TL_MAX_COLS)
			cap = IOS_TL_MAX_COLS;
		cols = realloc(tl->cols, cap * sizeof(*cols));
		if (!cols) {
			tl->err = -ENOMEM;
			return false;
		}
		tl->cols = cols;
		cells = realloc(tl->cells, cap * IOS_TL_ROWS * sizeof(*cells));
		if (!cells) {
			tl->err = -ENOMEM;
			return false;
		}
		tl->cells = cells;
		tl->cap_cols = cap;
	}
	if (idx >= tl->nr_cols) {
		memset(tl->cols + tl->nr_cols, 0, (idx + 1 - tl->nr_cols) * sizeof(*tl->cols));
		memset(tl->cells + tl->nr_cols * IOS_TL_ROWS, 0,
		       (idx + 1 - tl->nr_cols) * IOS_TL_ROWS * sizeof(*tl->cells));
		tl->nr_cols = idx + 1;
	}
	return true;
}

/* [a, b) to @lane, owned or idle. */
static void tl_piece(struct ios_timeline *tl, uint32_t lane, bool idle, uint64_t a, uint64_t b,
		     uint8_t reason)
{
	if (b <= a)
		return;
	(idle ? tl->idle_ns : tl->own_ns)[lane] += b - a;
	if (tl->nr_log < IOS_TL_LOG) {
		if (!tl->log && !(tl->log = calloc(IOS_TL_LOG, sizeof(*tl->log)))) {
			tl->err = -ENOMEM;
			return;
		}
		tl->log[tl->nr_log++] = (struct ios_tl_interval){ a, b, lane, idle, reason };
	}
	if (!tl_cover(tl, b - 1))
		return;
	for (size_t c = (size_t)(a / tl->col_ns); c <= (size_t)((b - 1) / tl->col_ns); c++) {
		uint64_t c0 = c * tl->col_ns, c1 = c0 + tl->col_ns;
		uint64_t ns = (b < c1 ? b : c1) - (a > c0 ? a : c0);
		struct ios_tl_col *col = &tl->cols[c];

		if (idle)
			tl_keep(&col->idle, &col->idle_ns, lane + 1, ns);
		else
			tl_keep(&col->own, &col->own_ns, lane + 1, ns);
	}
}

/* Close the open piece at @now. */
static void tl_flush(struct ios_timeline *tl, uint64_t now, uint8_t reason)
{
	if (now < tl->piece_ns)
		now = tl->piece_ns;
	if (tl->idle_lane >= 0)
		tl_piece(tl, (uint32_t)tl->idle_lane, true, tl->piece_ns, now, reason);
	else if (tl->own_lane >= 0)
		tl_piece(tl, (uint32_t)tl->own_lane, false, tl->piece_ns, now, reason);
	tl->piece_ns = now;
}

/* Domain @d's depth in effect over [a, b), into the columns (the smallest stays). */
static void tl_depth_fill(struct ios_timeline *tl, unsigned d, uint64_t a, uint64_t b)
{
	uint16_t v = tl->depth_now[d];

	if (b <= a || !tl_cover(tl, b - 1))
		return;
	for (size_t c = (size_t)(a / tl->col_ns); c <= (size_t)((b - 1) / tl->col_ns); c++) {
		uint16_t *x = &tl->cols[c].depth[d];

		if (!*x || v < *x)
			*x = v;
	}
}

static void tl_depth(struct ios_timeline *tl, uint64_t now, uint32_t from, int reason)
{
	unsigned d = IOS_OWN_DEPTH_DOMAIN(reason);
	uint16_t to = (uint16_t)IOS_OWN_DEPTH_VALUE(reason);

	if (d >= IOS_TL_DOMAINS)
		return;
	if (!(tl->depth_domains & 1u << d)) {
		/* the first change: the pool had @from since the start */
		tl->depth_domains |= 1u << d;
		tl->depth_now[d] = (uint16_t)(from < 0xffff ? from : 0xffff);
		tl->depth_max[d] = tl->depth_now[d];
		tl->depth_since[d] = 0;
	}
	if (now < tl->depth_since[d])
		now = tl->depth_since[d];
	tl_depth_fill(tl, d, tl->depth_since[d], now);
	tl->depth_now[d] = to;
	tl->depth_since[d] = now;
	if (to > tl->depth_max[d])
		tl->depth_max[d] = to;
	tl->nr_depth_changes++;
	if (tl->nr_depths < IOS_TL_LOG) {
		if (!tl->depths && !(tl->depths = calloc(IOS_TL_LOG, sizeof(*tl->depths)))) {
			tl->err = -ENOMEM;
			return;
		}
		tl->depths[tl->nr_depths++] = (struct ios_tl_depth){ now, (uint16_t)d,
								     (uint16_t)from, to };
	}
}

static void tl_round(struct ios_timeline *tl, uint64_t now, int reason)
{
	unsigned dir = IOS_OWN_ROUND_DIR(reason);
	int level = IOS_OWN_ROUND_LEVEL(reason);
	bool cov = tl_cover(tl, now);

	tl->nr_rounds[dir]++;
	if (cov)
		tl->cols[now / tl->col_ns].rounds |= (uint8_t)(1u << dir);
	if (level < 0 || level >= IOS_TL_LEVELS)
		return;
	tl->nr_level_rounds[level][dir]++;
	if (cov)
		tl->cols[now / tl->col_ns].levels |= (uint8_t)(1u << (level * 2 + (int)dir));
	if (tl->nr_batches < IOS_TL_LOG) {
		if (!tl->batches && !(tl->batches = calloc(IOS_TL_LOG, sizeof(*tl->batches)))) {
			tl->err = -ENOMEM;
			return;
		}
		tl->batches[tl->nr_batches++] = (struct ios_tl_batch){ now, (uint8_t)level,
								       (uint8_t)dir };
	}
}

static void tl_note(void *priv, uint64_t now, uint32_t pid, enum ios_owner_event ev, int reason)
{
	struct ios_timeline *tl = priv;
	uint32_t lane = tl_lane(tl, pid);

	tl->nr_events++;
	switch (ev) {
	case IOS_OWN_SLICE_START:
		tl_flush(tl, now, IOS_OWN_R_NONE);
		tl->own_lane = (int)lane;
		tl->idle_lane = -1;
		tl->slices[lane]++;
		break;
	case IOS_OWN_SLICE_END:
		if (tl->preempting)
			reason = IOS_OWN_R_PREEMPTED;
		tl->preempting = false;
		tl_flush(tl, now, (uint8_t)reason);
		tl->own_lane = tl->idle_lane = -1;
		break;
	case IOS_OWN_IDLE_START:
		tl_flush(tl, now, IOS_OWN_R_NONE);
		tl->idle_lane = (int)lane;
		break;
	case IOS_OWN_IDLE_END:
		if (tl->idle_lane >= 0) {
			tl_flush(tl, now, IOS_OWN_R_NONE);
			tl->idle_lane = -1;
		}
		break;
	case IOS_OWN_PREEMPT:
		tl->preempts[lane]++;
		tl->preempting = tl->own_lane >= 0;
		if (tl_cover(tl, now)) {
			struct ios_tl_col *col = &tl->cols[now / tl->col_ns];

			col->preempt = lane + 1;
			if (col->nr_preempt < 0xffff)
				col->nr_preempt++;
		}
		break;
	case IOS_OWN_ROUND:
		tl_round(tl, now, reason);
		break;
	case IOS_OWN_DEPTH:
		tl_depth(tl, now, pid, reason);
		break;
	}
}

static void tl_dispatch(void *priv, const struct ios_request *rq, uint64_t now)
{
	struct ios_timeline *tl = priv;
	uint32_t lane = tl_lane(tl, rq->ioc ? rq->ioc->pid : 0);
	uint64_t end = rq->sector + rq->nr_sectors;
	uint32_t *cell;

	if (!rq->ioc)
		lane = (uint32_t)(tl->nr_lanes - 1);
	/* the disk is no longer idling: a request went to it */
	if (tl->idle_lane >= 0) {
		tl_flush(tl, now, IOS_OWN_R_NONE);
		tl->idle_lane = -1;
	}
	tl->dispatched[lane]++;
	if (!tl_cover(tl, now))
		return;
	if (end > tl->max_sector)
		tl->max_sector = end;
	while (rq->sector / tl->row_sectors >= IOS_TL_ROWS)
		tl_fold_rows(tl);
	cell = &tl->cells[(now / tl->col_ns) * IOS_TL_ROWS + rq->sector / tl->row_sectors];
	*cell = tl_cell_merge(*cell, (lane + 1) << 2 | (rq->dir == IOS_WRITE ? IOS_TL_WRITE
									      : IOS_TL_READ));
}

/*
 * A controller let @pid's I/O go after holding it over [a, b): the wait
 * spreads over the columns it covers as a slice does, one lane per column
 * and cause keeping it.
 */
static void tl_held(void *priv, uint32_t pid, int cause, uint64_t a, uint64_t b)
{
	struct ios_timeline *tl = priv;
	uint32_t lane = pid ? tl_lane(tl, pid) : (uint32_t)(tl->nr_lanes - 1);
	size_t i;

	if (cause < 0 || cause >= IOS_TL_CAUSES || b <= a || tl->err)
		return;
	if (!tl->held_lane_ns) {
		tl->held_lane_ns = calloc(tl->nr_lanes * IOS_TL_CAUSES, sizeof(*tl->held_lane_ns));
		tl->held_lane_nr = calloc(tl->nr_lanes * IOS_TL_CAUSES, sizeof(*tl->held_lane_nr));
		if (!tl->held_lane_ns || !tl->held_lane_nr) {
			tl->err = -ENOMEM;
			return;
		}
	}
	i = (size_t)lane * IOS_TL_CAUSES + (size_t)cause;
	tl->held_lane_ns[i] += b - a;
	tl->held_lane_nr[i]++;
	tl->held_causes |= 1u << cause;
	if (tl->nr_held_log < IOS_TL_LOG) {
		if (!tl->held_log && !(tl->held_log = calloc(IOS_TL_LOG, sizeof(*tl->held_log)))) {
			tl->err = -ENOMEM;
			return;
		}
		tl->held_log[tl->nr_held_log++] = (struct ios_tl_held){ a, b, lane, (uint8_t)cause };
	}
	if (!tl_cover(tl, b - 1))
		return;
	for (size_t c = (size_t)(a / tl->col_ns); c <= (size_t)((b - 1) / tl->col_ns); c++) {
		uint64_t c0 = c * tl->col_ns, c1 = c0 + tl->col_ns;
		struct ios_tl_col *col = &tl->cols[c];

		tl_keep(&col->held[cause], &col->held_ns[cause], lane + 1,
			(b < c1 ? b : c1) - (a > c0 ? a : c0));
	}
}

void ios_timeline_finish(struct ios_timeline *tl, uint64_t end_ns)
{
	tl_flush(tl, end_ns, IOS_OWN_R_NONE);
	tl->own_lane = tl->idle_lane = -1;
	for (unsigned d = 0; d < IOS_TL_DOMAINS; d++)
		if (tl->depth_domains & 1u << d && end_ns > tl->depth_since[d]) {
			tl_depth_fill(tl, d, tl->depth_since[d], end_ns);
			tl->depth_since[d] = end_ns;
		}
	tl->end_ns = end_ns;
}

const struct ios_owner_ops ios_timeline_owner_ops = {
	.note = tl_note,
	.dispatch = tl_dispatch,
	.held = tl_held,
};
