/*
 * fio's own offset rules, for the jobs whose pattern depends on them.
 *
 * Plain sequential and random jobs come last in this file. The options
 * listed here change where the next I/O goes in ways that only make sense as fio
 * computes them, so a job that uses one of them takes its offsets from here,
 * a model of fio 3.33's io_u.c (get_next_offset, get_next_block,
 * get_next_seq_offset, setup_strided_zone_mode) and filesetup.c
 * (fio_file_reset):
 *
 *   rw=read:N, rw=write:-N   sequential with a hole of N bytes after each
 *                            I/O, or N bytes back (backward reads); the
 *                            first I/O of a pass gets no hole; past the end
 *                            of the file a hole wraps to the start and a
 *                            backward seek to the end.
 *   rw=randread:N            a new random offset every Nth I/O; the I/Os in
 *                            between follow rw_sequencer: sequential (from
 *                            the last I/O's end) or identical (the last I/O's
 *                            offset again), starting with a random one.
 *   zonemode=strided         zonesize bytes are done within a zone of
 *                            zonerange bytes, then the zone moves on by
 *                            zonerange + zoneskip, wrapping to the start
 *                            offset at the end of the file. Random offsets
 *                            stay within the zone.
 *
 * random_distribution (io_u.c get_next_rand_offset, lib/zipf.c, lib/gauss.c):
 * zipf and pareto draw a rank with fio's formulas, normal averages 12 uniform
 * draws and adds a deviation, then the rank is scrambled by a hash (so the
 * hot blocks are spread over the file) and rotated by random_center; none of
 * them consults the random map, so blocks repeat, as in fio. zoned and
 * zoned_abs pick a zone by its access percentage, then a block in it through
 * fio's random map (a used block moves to the next free one). The draws come
 * from the task's generator, not fio's, so the blocks differ from fio's but
 * follow the same distribution.
 *
 * Plain sequential and random jobs take their offsets from the end of this
 * file (ios_run_plain_next: next block, or a block of the random
 * permutation), with fio's end-of-pass rules, so that a file whose size is
 * not a multiple of the block ends where fio's does.
 *
 * As in fio, a pattern that runs out of offsets (a hole that reaches the end
 * of the file exactly, an offset past the job's io_size) ends the job's I/O
 * there, with less than size done; loops= starts the next pass from the
 * start offset.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run_int.h"

static bool off_random(const struct ios_job *j)
{
	return ios_rw_is_random(j->rw);
}

bool ios_run_offsets_wanted(const struct ios_job *j)
{
	return (off_random(j) && j->rand_dist != IOS_RAND_UNIFORM) || j->zone_mode == IOS_ZONE_STRIDED || j->rw_seq_add != 0 || j->rw_seq_ident ||
	       (off_random(j) && j->rw_seq_nr > 1);
}

/*
 * Options fio accepts and then ignores for this job's pattern: said once per
 * job, so that nothing a job file asks for goes unremarked.
 */
int ios_run_offsets_notes(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	const char *what = NULL;

	if (t->clone)
		return 0;
	if (j->rand_dist != IOS_RAND_UNIFORM && !off_random(j))
		what = "random_distribution has no effect on a sequential pattern";
	else if (j->rw_seq_ident && !(off_random(j) && j->rw_seq_nr > 1))
		what = "rw_sequencer=identical has no effect without rw=randX:N (N > 1)";
	else if (j->zone_mode == IOS_ZONE_NONE && (j->zone_range || j->zone_skip))
		what = "zonerange and zoneskip have no effect without zonemode=strided";
	if (what && ios_run_warn(c->res, "%s:%d: job '%s': %s (as in fio 3.33)",
				 j->file ? j->file : "?", j->line, j->name, what))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* fio_file_reset: the next I/O of each direction starts at file_offset */
static void off_file_reset(struct run_task *t, struct run_task_file *tf)
{
	for (int d = 0; d < 2; d++) {
		tf->fo->last_pos[d] = tf->fo->file_offset;
		tf->fo->last_start[d] = UINT64_MAX;
	}
	if (t->job->zone_mode == IOS_ZONE_STRIDED)
		ios_run_perm_init(&tf->fo->zone_perm, tf->fo->zone_perm.n, &t->rng);
	else
		ios_run_perm_init(&tf->perm, tf->perm.n, &t->rng);
	if (tf->fo->rmap)
		memset(tf->fo->rmap, 0, (tf->fo->rmap_bits + 63) / 64 * sizeof(uint64_t));
}

/* filesetup.c __init_rand_distribution: the distribution's state per file */
static int off_dist_init(struct run_task *t, struct run_task_file *tf, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	uint64_t range = j->bs_min[IOS_READ] < j->bs_min[IOS_WRITE] ? j->bs_min[IOS_READ]
								      : j->bs_min[IOS_WRITE];

	if (!range)
		range = tf->align;
	tf->fo->nranges = (tf->len + range - 1) / range;
	if (j->rand_dist == IOS_RAND_ZONED || j->rand_dist == IOS_RAND_ZONED_ABS) {
		uint64_t total = 0;

		for (unsigned z = 0; z < j->nr_rand_zones; z++)
			total += j->rand_zones[z].size;
		if (j->rand_dist == IOS_RAND_ZONED_ABS && total > tf->len)
			return IOS_ERR(e, -ERANGE, "%s:%d: job '%s': random_distribution=zoned_abs: "
				       "the zones (%" PRIu64 " bytes) exceed the file's region (%"
				       PRIu64 " bytes; fio: \"zoned_abs sizes exceed file size\")",
				       j->file ? j->file : "?", j->line, j->name, total, tf->len);
		if (!j->norandommap) {
			tf->fo->rmap_bits = tf->len / tf->align;
			tf->fo->rmap = calloc((tf->fo->rmap_bits + 63) / 64, sizeof(uint64_t));
			if (!tf->fo->rmap)
				return IOS_ERR(e, -ENOMEM, "out of memory");
		}
		return 0;
	}
	tf->fo->rand_off = j->rand_center >= 0
		? (uint64_t)((double)tf->fo->nranges * j->rand_center)
		: ios_rand_u64(&t->rng) & 0xffffffffu;
	if (j->rand_dist == IOS_RAND_ZIPF) {
		uint64_t n = tf->fo->nranges < 10000000 ? tf->fo->nranges : 10000000;

		tf->fo->zetan = 0;
		for (uint64_t i = 0; i < n; i++)
			tf->fo->zetan += pow(1.0 / (double)(i + 1), j->rand_dist_val);
	} else if (j->rand_dist == IOS_RAND_NORMAL) {
		tf->fo->stddev = 0;
		if (j->rand_dist_val != 0.0)
			tf->fo->stddev = (uint64_t)ceil((double)tf->fo->nranges *
							j->rand_dist_val / 100.0);
		if (tf->fo->stddev > tf->fo->nranges / 2)
			tf->fo->stddev = tf->fo->nranges / 2;
		tf->fo->rand_off = j->rand_center >= 0
			? (uint64_t)((double)tf->fo->nranges * (j->rand_center - 0.5)) : 0;
	}
	return 0;
}

void ios_run_offsets_free(struct run_task *t)
{
	/* one array for the task's files, at the first file's pointer */
	if (!t->files || !t->nr_files || !t->files[0].fo)
		return;
	for (unsigned k = 0; k < t->nr_files; k++)
		free(t->files[k].fo->rmap);
	free(t->files[0].fo);
	for (unsigned k = 0; k < t->nr_files; k++)
		t->files[k].fo = NULL;
}

int ios_run_offsets_init(struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	struct run_tf_offsets *fo;

	t->fio_offsets = ios_run_offsets_wanted(j);
	if (!t->fio_offsets)
		return 0;	/* task.c's offsets; and no draws from the task's generator */
	t->seq_nr_left = 1;	/* fio's init.c: the first I/O takes a new offset */
	t->zone_bytes = 0;
	t->loops_done = 0;
	fo = calloc(t->nr_files ? t->nr_files : 1, sizeof(*fo));
	if (!fo)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (unsigned k = 0; k < t->nr_files; k++)
		t->files[k].fo = &fo[k];
	for (unsigned k = 0; k < t->nr_files; k++) {
		struct run_task_file *tf = &t->files[k];
		uint64_t zr = j->zone_range, bs = j->bs_min[IOS_READ] ? j->bs_min[IOS_READ] : 0;

		tf->fo->file_offset = tf->off;
		tf->fo->offsets_done = false;
		/* fio's get_rand_offset_blocks: a block must fit in the zone */
		if (bs > tf->align && zr > bs - tf->align)
			zr -= bs - tf->align;
		tf->fo->zone_perm.n = zr / tf->align ? zr / tf->align : 1;
		if (off_random(j) && j->rand_dist != IOS_RAND_UNIFORM) {
			int ret = off_dist_init(t, tf, e);

			if (ret)
				return ret;
		}
		off_file_reset(t, tf);
	}
	return 0;
}

/* setup_strided_zone_mode: before each I/O */
static void off_zone_step(struct run_task *t, struct run_task_file *tf, int dir)
{
	const struct ios_job *j = t->job;

	if (t->zone_bytes >= j->zone_size) {
		t->zone_bytes = 0;
		tf->fo->file_offset += j->zone_range + j->zone_skip;
		if (tf->fo->file_offset >= tf->f->size)
			tf->fo->file_offset = tf->off;
		tf->fo->last_pos[dir] = tf->fo->file_offset;
	}
	/* zonesize > zonerange: the same zone again until zonesize is done */
	if (tf->fo->last_pos[dir] >= tf->fo->file_offset + j->zone_range)
		tf->fo->last_pos[dir] = tf->fo->file_offset;
	if (t->zone_bytes % j->zone_range == 0)
		off_file_reset(t, tf);
}

/* get_next_seq_offset: the offset relative to file_offset, false at the end */
static bool off_seq(struct run_task *t, struct run_task_file *tf, int dir, uint64_t *rel)
{
	const struct ios_job *j = t->job;
	uint64_t real = tf->f->size, io_size = tf->len, pos;
	int64_t add = off_random(j) ? 0 : j->rw_seq_add;

	if (tf->fo->last_pos[dir] >= io_size + tf->off && j->time_based && t->nr_files == 1)
		tf->fo->last_pos[dir] = tf->fo->file_offset;
	if (tf->fo->last_pos[dir] >= real)
		return false;
	/* backward from a non-zero start: rewind to the end first (fio's values) */
	if (tf->fo->last_pos[dir] == tf->fo->file_offset && tf->fo->file_offset && add < 0)
		tf->fo->last_pos[dir] = real > io_size ? io_size : real;
	pos = tf->fo->last_pos[dir] - tf->fo->file_offset;
	if (pos && add) {
		pos += (uint64_t)add;	/* unsigned, as in fio: a step back below 0 wraps */
		if (pos >= real) {
			if (add > 0)
				pos = tf->fo->file_offset;
			else
				pos = (real > io_size ? io_size : real) + (uint64_t)add;
		}
	}
	*rel = pos;
	return true;
}

/* a uniform value in [0, 1), 32 bits as fio's __rand / FRAND32_MAX */
static double off_uni(struct run_task *t)
{
	return (double)(ios_rand_u64(&t->rng) >> 32) / 4294967296.0;
}

/* the hash that spreads the ranks over the file (fio: __hash_u64) */
static uint64_t off_hash(uint64_t v)
{
	return ios_mix64(v);
}

/* zipf_next: the rank of a zipf(theta) draw over nranges, scrambled */
static uint64_t off_zipf(struct run_task *t, struct run_task_file *tf)
{
	double theta = t->job->rand_dist_val, n = (double)tf->fo->nranges;
	double zeta2 = 1.0 + pow(0.5, theta), alpha = 1.0 / (1.0 - theta);
	double eta = (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / tf->fo->zetan);
	double u = off_uni(t), z = u * tf->fo->zetan;
	uint64_t v;

	if (z < 1.0)
		v = 1;
	else if (z < 1.0 + pow(0.5, theta))
		v = 2;
	else
		v = 1 + (uint64_t)(n * pow(eta * u - eta + 1.0, alpha));
	return (off_hash(v - 1) + tf->fo->rand_off) % tf->fo->nranges;
}

/* pareto_next: (n - 1) * u^(log h / log(1 - h)), scrambled */
static uint64_t off_pareto(struct run_task *t, struct run_task_file *tf)
{
	double h = t->job->rand_dist_val;
	uint64_t v = (uint64_t)((double)(tf->fo->nranges - 1) *
				pow(off_uni(t), log(h) / log(1.0 - h)));

	return (off_hash(v) + tf->fo->rand_off) % tf->fo->nranges;
}

/* gauss_next: the mean of 12 uniform ranks, plus a deviation, scrambled */
static uint64_t off_normal(struct run_task *t, struct run_task_file *tf)
{
	uint64_t sum = 0;

	for (int i = 0; i < 12; i++)
		sum += (ios_rand_u64(&t->rng) >> 32) % (tf->fo->nranges + 1);
	sum = (sum + 11) / 12;
	if (tf->fo->stddev) {
		int64_t dev = (int64_t)((double)tf->fo->stddev * off_uni(t)) -
			      (int64_t)(tf->fo->stddev / 2);

		while (dev + (int64_t)sum >= (int64_t)tf->fo->nranges)
			dev /= 2;
		sum = (uint64_t)((int64_t)sum + dev);
	}
	return (off_hash(sum) + tf->fo->rand_off) % tf->fo->nranges;
}

/*
 * fio's random map: @b if free, else the next free block (wrapping), found a
 * 64-block word at a time so that the end of a pass stays cheap; marks it.
 */
static bool off_map_take(struct run_task_file *tf, uint64_t b, uint64_t *out)
{
	uint64_t words = (tf->fo->rmap_bits + 63) / 64, w = b / 64;

	for (uint64_t k = 0; k <= words; k++, w = (w + 1) % words) {
		uint64_t free = ~tf->fo->rmap[w];

		if (k == 0)
			free &= ~0ULL << (b % 64);	/* from @b on in its own word */
		if (w == words - 1 && tf->fo->rmap_bits % 64)
			free &= (1ULL << (tf->fo->rmap_bits % 64)) - 1;
		if (free) {
			uint64_t x = w * 64 + (uint64_t)__builtin_ctzll(free);

			tf->fo->rmap[w] |= 1ULL << (x % 64);
			*out = x;
			return true;
		}
	}
	return false;
}

/* __get_next_rand_offset_zoned(_abs): a zone by access %, a block within it */
static bool off_zoned(struct run_task *t, struct run_task_file *tf, uint64_t *b)
{
	const struct ios_job *j = t->job;
	uint64_t lastb = tf->len / tf->align, start = 0, n = lastb, bytes = 0;
	unsigned v = 1 + (unsigned)ios_rand_below(&t->rng, 100), acc = 0, perc = 0;

	for (unsigned z = 0; z < j->nr_rand_zones; z++) {
		const struct ios_rand_zone *rz = &j->rand_zones[z];

		if (j->rand_dist == IOS_RAND_ZONED_ABS) {
			start = bytes / tf->align;
			bytes += rz->size;
			n = bytes / tf->align - start;
		} else {
			start = perc * lastb / 100;
			n = lastb * rz->size_perc / 100;
			perc += rz->size_perc;
		}
		acc += rz->access_perc;
		if (v <= acc)
			break;
	}
	if (!n)
		n = 1;
	*b = start + ios_rand_below(&t->rng, n);
	if (tf->fo->rmap)
		return off_map_take(tf, *b, b);
	return true;
}

/* get_next_rand_block: a block of the region (or of the zone), times the alignment */
static uint64_t off_rand(struct run_task *t, struct run_task_file *tf, uint64_t bs)
{
	const struct ios_job *j = t->job;
	struct run_perm *p = &tf->perm;
	uint64_t blocks, b;

	switch (off_random(j) ? j->rand_dist : IOS_RAND_UNIFORM) {
	case IOS_RAND_ZIPF:
		return off_zipf(t, tf) * tf->align;
	case IOS_RAND_PARETO:
		return off_pareto(t, tf) * tf->align;
	case IOS_RAND_NORMAL:
		return off_normal(t, tf) * tf->align;
	case IOS_RAND_ZONED:
	case IOS_RAND_ZONED_ABS:
		/* every block used: past the region, which ends the job as in fio */
		if (off_zoned(t, tf, &b))
			return b * tf->align;
		if (!j->time_based)
			return UINT64_MAX;
		/* time_based: fio resets the map and draws again */
		memset(tf->fo->rmap, 0, (tf->fo->rmap_bits + 63) / 64 * sizeof(uint64_t));
		return off_zoned(t, tf, &b) ? b * tf->align : UINT64_MAX;
	default:
		break;
	}

	if (j->zone_mode == IOS_ZONE_STRIDED) {
		p = &tf->fo->zone_perm;
		blocks = p->n;
	} else {
		blocks = (tf->len - bs) / tf->align + 1;
	}
	if (j->norandommap || blocks != p->n)
		return ios_rand_below(&t->rng, blocks) * tf->align;
	return ios_run_perm_next(p, &t->rng) * tf->align;
}

/* get_next_offset for one file; false when it has no next offset */
static bool off_file_next(struct run_task *t, struct run_task_file *tf, int dir, uint64_t bs,
			  uint64_t *off)
{
	const struct ios_job *j = t->job;
	bool hit = false;
	uint64_t rel;

	if (j->zone_mode == IOS_ZONE_STRIDED)
		off_zone_step(t, tf, dir);
	if (!--t->seq_nr_left) {
		hit = true;
		t->seq_nr_left = off_random(j) && j->rw_seq_nr ? j->rw_seq_nr : 1;
	}
	if (hit && off_random(j)) {
		rel = off_rand(t, tf, bs);
	} else if (hit || !j->rw_seq_ident) {
		if (!off_seq(t, tf, dir, &rel)) {
			if (hit)
				return false;
			rel = off_rand(t, tf, bs);
		}
	} else {
		rel = tf->fo->last_start[dir] != UINT64_MAX
			? tf->fo->last_start[dir] - tf->fo->file_offset : 0;
	}
	if (rel >= tf->len)
		return false;
	*off = rel + tf->fo->file_offset;
	if (*off >= tf->f->size || *off + bs > tf->f->size)
		return false;
	tf->fo->last_start[dir] = *off;
	tf->fo->last_pos[dir] = *off + bs;
	t->zone_bytes += bs;
	return true;
}

/*
 * The next offset in @*tf (or in the next file that still has one, which
 * then becomes *tf). False when none has: the job's I/O ends, or with
 * loops= a new pass starts.
 */
bool ios_run_offsets_next(struct run_task *t, struct run_task_file **tf, int dir, uint64_t bs,
			  uint64_t *off)
{
	unsigned loops = t->job->loops ? t->job->loops : 1;

	for (;;) {
		unsigned first = (unsigned)(*tf - t->files);

		for (unsigned k = 0; k < t->nr_files; k++) {
			struct run_task_file *f = &t->files[(first + k) % t->nr_files];

			if (f->fo->offsets_done)
				continue;
			if (off_file_next(t, f, dir, bs, off)) {
				*tf = f;
				return true;
			}
			f->fo->offsets_done = true;
		}
		if (t->loops_done + 1 >= loops)
			return false;
		t->loops_done++;
		for (unsigned k = 0; k < t->nr_files; k++) {
			t->files[k].fo->offsets_done = false;
			off_file_reset(t, &t->files[k]);
		}
	}
}

/*
 * A plain job's next offset in @tf, false when the file's pass is over. As
 * fio's io_u.c: a sequential I/O may not start at or past the region's end
 * (get_next_offset: offset >= io_size) nor end past the file's real size
 * (fill_io_u), so size=5000 bs=4k reads one block, not two with a wrap;
 * a random one ends when the random map has no block left.
 */
static bool plain_offset(struct run_task *t, struct run_task_file *tf, int dir, uint64_t bs,
			 uint64_t *off)
{
	const struct ios_job *j = t->job;

	if (ios_rw_is_random(j->rw)) {
		uint64_t blocks = (tf->len - bs) / tf->align + 1, b;

		if (j->sub.rand_gen == IOS_RANDGEN_LFSR) {
			/* every block once per period: the period is the pass */
			if (tf->perm.given >= blocks)
				return false;
			tf->perm.given++;
			b = ios_run_lfsr_block(t, tf, blocks);
		} else if (j->norandommap || blocks != tf->perm.n) {
			b = ios_rand_below(&t->rng, blocks);
		} else {
			if (tf->perm.given >= tf->perm.n)
				return false;
			b = ios_run_perm_next(&tf->perm, &t->rng);
		}
		*off = tf->off + b * tf->align;
		return true;
	}
	*off = tf->pos[dir];
	/* fill_device: fio's file has no real size to end at, only ENOSPC */
	return *off < tf->off + tf->len && (j->fill_device || *off + bs <= tf->f->size);
}

/*
 * Every file's pass is over: fio's keep_running. Another pass when the job
 * is time based, has loops left, or was given an io_size with a block's
 * worth still to do; false when the job's I/O is done.
 */
static bool plain_new_pass(struct run_task *t, uint64_t bs)
{
	const struct ios_job *j = t->job;
	unsigned loops = j->loops ? j->loops : 1;

	if (j->time_based && j->runtime_ns)
		;
	else if (t->loops_done + 1 < loops)
		t->loops_done++;
	else if (!(j->io_size || j->io_size_pct) || t->io_target - t->io_issued < bs)
		return false;
	for (unsigned k = 0; k < t->nr_files; k++) {
		struct run_task_file *tf = &t->files[k];

		tf->pass_done = false;
		tf->pos[IOS_READ] = tf->pos[IOS_WRITE] = tf->off;
		/* the map's fresh keys come with its next draw, as before */
		tf->perm.given = 0;	/* the LFSR's count too */
	}
	return true;
}

/* From @*tf on, the first file with a next offset; it becomes *tf. */
bool ios_run_plain_next(struct run_task *t, struct run_task_file **tf, int dir, uint64_t *bs,
		       uint64_t *off)
{
	unsigned first = (unsigned)(*tf - t->files);
	uint64_t want = *bs;

	for (int pass = 0; pass < 2; pass++) {
		for (unsigned k = 0; k < t->nr_files; k++) {
			struct run_task_file *f = &t->files[(first + k) % t->nr_files];

			if (f->pass_done)
				continue;
			*bs = want > f->len ? f->len / f->align * f->align : want;
			if (plain_offset(t, f, dir, *bs, off)) {
				*tf = f;
				return true;
			}
			f->pass_done = true;
		}
		if (!plain_new_pass(t, want))
			return false;
	}
	return false;
}

/* ---- random block permutation: a 4-round Feistel network, cycle walking ---- */

void ios_run_perm_init(struct run_perm *p, uint64_t n, struct ios_rand *rng)
{
	unsigned bits = 0;

	p->n = n;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	if (bits < 2)
		bits = 2;
	p->bits_half = (bits + 1) / 2;
	for (int i = 0; i < 4; i++)
		p->keys[i] = ios_rand_u64(rng);
	p->pos = 0;
	p->given = 0;
}

static uint64_t perm_map(const struct run_perm *p, uint64_t x)
{
	uint64_t h = p->bits_half, mask = (1ULL << h) - 1;
	uint64_t l = x >> h, r = x & mask;

	for (int i = 0; i < 4; i++) {
		uint64_t f = ios_mix64(r ^ p->keys[i]) & mask;
		uint64_t nl = r;

		r = l ^ f;
		l = nl;
	}
	return (l << h) | r;
}

/* Next block of the current pass; a new pass with fresh keys when one ends. */
uint64_t ios_run_perm_next(struct run_perm *p, struct ios_rand *rng)
{
	uint64_t domain = 1ULL << (2 * p->bits_half), v;

	for (;;) {
		if (p->pos >= domain)
			ios_run_perm_init(p, p->n, rng);
		v = perm_map(p, p->pos++);
		if (v < p->n) {
			p->given++;
			return v;
		}
	}
}
