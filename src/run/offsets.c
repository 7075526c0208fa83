/*
 * fio's own offset rules, for the jobs whose pattern depends on them.
 *
 * task.c makes the offsets of plain sequential and random jobs. The options
 * below change where the next I/O goes in ways that only make sense as fio
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
 * As in fio, a pattern that runs out of offsets (a hole that reaches the end
 * of the file exactly, an offset past the job's io_size) ends the job's I/O
 * there, with less than size done; loops= starts the next pass from the
 * start offset.
 */
#include "run_int.h"

static bool off_random(const struct ios_job *j)
{
	return ios_rw_is_random(j->rw);
}

bool ios_run_offsets_wanted(const struct ios_job *j)
{
	return j->zone_mode == IOS_ZONE_STRIDED || j->rw_seq_add != 0 || j->rw_seq_ident ||
	       (off_random(j) && j->rw_seq_nr > 1);
}

/* fio_file_reset: the next I/O of each direction starts at file_offset */
static void off_file_reset(struct run_task *t, struct run_task_file *tf)
{
	for (int d = 0; d < 2; d++) {
		tf->last_pos[d] = tf->file_offset;
		tf->last_start[d] = UINT64_MAX;
	}
	if (t->job->zone_mode == IOS_ZONE_STRIDED)
		ios_run_perm_init(&tf->zone_perm, tf->zone_perm.n, &t->rng);
	else
		ios_run_perm_init(&tf->perm, tf->perm.n, &t->rng);
}

void ios_run_offsets_init(struct run_task *t)
{
	const struct ios_job *j = t->job;

	t->fio_offsets = ios_run_offsets_wanted(j);
	if (!t->fio_offsets)
		return;	/* task.c's offsets; and no draws from the task's generator */
	t->seq_nr_left = 1;	/* fio's init.c: the first I/O takes a new offset */
	t->zone_bytes = 0;
	t->loops_done = 0;
	for (unsigned k = 0; k < t->nr_files; k++) {
		struct run_task_file *tf = &t->files[k];
		uint64_t zr = j->zone_range, bs = j->bs_min[IOS_READ] ? j->bs_min[IOS_READ] : 0;

		tf->file_offset = tf->off;
		tf->offsets_done = false;
		/* fio's get_rand_offset_blocks: a block must fit in the zone */
		if (bs > tf->align && zr > bs - tf->align)
			zr -= bs - tf->align;
		tf->zone_perm.n = zr / tf->align ? zr / tf->align : 1;
		off_file_reset(t, tf);
	}
}

/* setup_strided_zone_mode: before each I/O */
static void off_zone_step(struct run_task *t, struct run_task_file *tf, int dir)
{
	const struct ios_job *j = t->job;

	if (t->zone_bytes >= j->zone_size) {
		t->zone_bytes = 0;
		tf->file_offset += j->zone_range + j->zone_skip;
		if (tf->file_offset >= tf->f->size)
			tf->file_offset = tf->off;
		tf->last_pos[dir] = tf->file_offset;
	}
	/* zonesize > zonerange: the same zone again until zonesize is done */
	if (tf->last_pos[dir] >= tf->file_offset + j->zone_range)
		tf->last_pos[dir] = tf->file_offset;
	if (t->zone_bytes % j->zone_range == 0)
		off_file_reset(t, tf);
}

/* get_next_seq_offset: the offset relative to file_offset, false at the end */
static bool off_seq(struct run_task *t, struct run_task_file *tf, int dir, uint64_t *rel)
{
	const struct ios_job *j = t->job;
	uint64_t real = tf->f->size, io_size = tf->len, pos;
	int64_t add = off_random(j) ? 0 : j->rw_seq_add;

	if (tf->last_pos[dir] >= io_size + tf->off && j->time_based && t->nr_files == 1)
		tf->last_pos[dir] = tf->file_offset;
	if (tf->last_pos[dir] >= real)
		return false;
	/* backward from a non-zero start: rewind to the end first (fio's values) */
	if (tf->last_pos[dir] == tf->file_offset && tf->file_offset && add < 0)
		tf->last_pos[dir] = real > io_size ? io_size : real;
	pos = tf->last_pos[dir] - tf->file_offset;
	if (pos && add) {
		pos += (uint64_t)add;	/* unsigned, as in fio: a step back below 0 wraps */
		if (pos >= real) {
			if (add > 0)
				pos = tf->file_offset;
			else
				pos = (real > io_size ? io_size : real) + (uint64_t)add;
		}
	}
	*rel = pos;
	return true;
}

/* get_next_rand_block: a block of the region (or of the zone), times the alignment */
static uint64_t off_rand(struct run_task *t, struct run_task_file *tf, uint64_t bs)
{
	const struct ios_job *j = t->job;
	struct run_perm *p = &tf->perm;
	uint64_t blocks;

	if (j->zone_mode == IOS_ZONE_STRIDED) {
		p = &tf->zone_perm;
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
		rel = tf->last_start[dir] != UINT64_MAX ? tf->last_start[dir] - tf->file_offset : 0;
	}
	if (rel >= tf->len)
		return false;
	*off = rel + tf->file_offset;
	if (*off >= tf->f->size || *off + bs > tf->f->size)
		return false;
	tf->last_start[dir] = *off;
	tf->last_pos[dir] = *off + bs;
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

			if (f->offsets_done)
				continue;
			if (off_file_next(t, f, dir, bs, off)) {
				*tf = f;
				return true;
			}
			f->offsets_done = true;
		}
		if (t->loops_done + 1 >= loops)
			return false;
		t->loops_done++;
		for (unsigned k = 0; k < t->nr_files; k++) {
			t->files[k].offsets_done = false;
			off_file_reset(t, &t->files[k]);
		}
	}
}
