/*
 * How a job submits, per fio 3.33: io_submit_mode, per-I/O priorities
 * (cmdprio*), random_generator=lfsr, and the note for the buffer-content
 * options. task.c calls in here at set-up and for each I/O.
 *
 * io_submit_mode=offload: fio's job thread hands each I/O to a pool of
 * iodepth submitter threads (rate-submit.c) and goes on. The job then never
 * waits for its I/Os except when all iodepth units are in flight, and with
 * rate= it submits on the rate's schedule however slowly the device
 * completes; inline, fio waits for everything in flight (io_u_quiesce)
 * whenever it is ahead of the rate, so a slow device delays the next
 * submissions (the "coordinated omission" the HOWTO speaks of). Each
 * submitter thread makes one I/O at a time, so a sync engine also gets
 * iodepth I/Os in flight. io_uring refuses offload, as in fio.
 *
 * cmdprio_percentage / cmdprio_bssplit give single I/Os a priority of their
 * own (IOCB_FLAG_IOPRIO, sqe->ioprio). The bio carries it down; whether it
 * changes anything depends on who looks at it: the schedulers of these
 * releases (CFQ 2.6.x and 4.19, BFQ 4.19) queue a request by its task's
 * io_context priority (cfq_get_queue, check_ioprio_changed,
 * bfq_check_ioprio_change), deadline/AS/noop have no priorities at all
 * (mq-deadline's come with 5.14). The hard disk serves realtime-class
 * requests first with device.ncq_prio=1 (libata's ncq_prio_enable, Linux
 * 4.10+); otherwise the run says that nothing honours the priority.
 */
#include <inttypes.h>
#include <string.h>
#include "run_int.h"

/*
 * Feedback taps of maximal-length shift registers, by width (the published
 * table of primitive trinomials and pentanomials, XAPP052); bit k-1 for tap k.
 */
static const uint8_t lfsr_taps[65][4] = {
	[2] = { 2, 1 }, [3] = { 3, 2 }, [4] = { 4, 3 }, [5] = { 5, 3 }, [6] = { 6, 5 },
	[7] = { 7, 6 }, [8] = { 8, 6, 5, 4 }, [9] = { 9, 5 }, [10] = { 10, 7 },
	[11] = { 11, 9 }, [12] = { 12, 6, 4, 1 }, [13] = { 13, 4, 3, 1 },
	[14] = { 14, 5, 3, 1 }, [15] = { 15, 14 }, [16] = { 16, 15, 13, 4 },
	[17] = { 17, 14 }, [18] = { 18, 11 }, [19] = { 19, 6, 2, 1 }, [20] = { 20, 17 },
	[21] = { 21, 19 }, [22] = { 22, 21 }, [23] = { 23, 18 }, [24] = { 24, 23, 22, 17 },
	[25] = { 25, 22 }, [26] = { 26, 6, 2, 1 }, [27] = { 27, 5, 2, 1 }, [28] = { 28, 25 },
	[29] = { 29, 27 }, [30] = { 30, 6, 4, 1 }, [31] = { 31, 28 }, [32] = { 32, 22, 2, 1 },
	[33] = { 33, 20 }, [34] = { 34, 27, 2, 1 }, [35] = { 35, 33 }, [36] = { 36, 25 },
	[37] = { 37, 5, 4, 3 }, [38] = { 38, 6, 5, 1 }, [39] = { 39, 35 },
	[40] = { 40, 38, 21, 19 }, [41] = { 41, 38 }, [42] = { 42, 41, 20, 19 },
	[43] = { 43, 42, 38, 37 }, [44] = { 44, 43, 18, 17 }, [45] = { 45, 44, 42, 41 },
	[46] = { 46, 45, 26, 25 }, [47] = { 47, 42 }, [48] = { 48, 47, 21, 20 },
	[49] = { 49, 40 }, [50] = { 50, 49, 24, 23 }, [51] = { 51, 50, 36, 35 },
	[52] = { 52, 49 }, [53] = { 53, 52, 38, 37 }, [54] = { 54, 53, 18, 17 },
	[55] = { 55, 31 }, [56] = { 56, 55, 35, 34 }, [57] = { 57, 50 }, [58] = { 58, 39 },
	[59] = { 59, 58, 38, 37 }, [60] = { 60, 59 }, [61] = { 61, 60, 46, 45 },
	[62] = { 62, 61, 6, 5 }, [63] = { 63, 62 }, [64] = { 64, 63, 61, 60 },
};

void ios_run_lfsr_init(struct ios_run_lfsr *l, uint64_t n, uint64_t seed)
{
	unsigned w = 2;
	uint64_t period;

	/* the smallest register whose period 2^w - 1 covers the n values */
	while (w < 64 && ((1ULL << w) - 1) < n)
		w++;
	l->n = n;
	l->mask = 0;
	for (unsigned k = 0; k < 4 && lfsr_taps[w][k]; k++)
		l->mask |= 1ULL << (lfsr_taps[w][k] - 1);
	period = w == 64 ? UINT64_MAX : (1ULL << w) - 1;
	l->state = seed % period + 1;
}

/* The next block 0..n-1; the register's value v stands for block v - 1. */
uint64_t ios_run_lfsr_next(struct ios_run_lfsr *l)
{
	for (;;) {
		uint64_t v = l->state;

		l->state = (v >> 1) ^ (-(v & 1) & l->mask);
		if (v - 1 < l->n)
			return v - 1;
	}
}

/*
 * The next random block for an I/O that may start at blocks 0..@blocks-1 of
 * @tf's region. The register spans the region's aligned blocks (fio sizes
 * it by the smallest block size); a block too near the end for this I/O's
 * size is passed over, as values past the region are.
 */
uint64_t ios_run_lfsr_block(struct run_task *t, struct run_task_file *tf, uint64_t blocks)
{
	uint64_t n = tf->len / tf->align, b;

	if (n < blocks)
		n = blocks;
	if (tf->lfsr.n != n)
		ios_run_lfsr_init(&tf->lfsr, n, ios_rand_u64(&t->rng));
	do
		b = ios_run_lfsr_next(&tf->lfsr);
	while (b >= blocks);
	return b;
}

/* The priority of @io: cmdprio_percentage or the matching cmdprio_bssplit entries. */
void ios_run_cmdprio_pick(struct run_task *t, struct run_io *io)
{
	const struct ios_job_submit *s = &t->job->sub;
	int d = io->dir;
	unsigned cls = s->cmdprio_class[d] ? s->cmdprio_class[d] : IOS_IOPRIO_CLASS_RT;
	unsigned r, acc = 0;

	io->ioprio = 0;
	if (!(s->cmdprio_given & (IOS_CMDPRIO_PCT | IOS_CMDPRIO_SPLIT)) || io->sync_op || io->trim)
		return;
	r = (unsigned)ios_rand_below(t->prio_rng, 100);
	if (s->cmdprio_given & IOS_CMDPRIO_PCT) {
		if (r < s->cmdprio_pct[d])
			io->ioprio = (int)(cls << 13 | s->cmdprio_level[d]);
		return;
	}
	for (unsigned k = 0; k < s->nr_cmdprio_split[d]; k++) {
		const struct ios_cmdprio_entry *e = &s->cmdprio_split[d][k];

		if (e->bs != io->len)
			continue;
		acc += e->perc;
		if (r < acc) {
			unsigned c = e->prio_class >= 0 ? (unsigned)e->prio_class : cls;
			unsigned l = e->prio_level >= 0 ? (unsigned)e->prio_level : s->cmdprio_level[d];

			io->ioprio = (int)(c << 13 | l);
			return;
		}
	}
}

static int submit_cmdprio_setup(struct run_ctx *c, struct run_task *t, const char *w,
				struct ios_err *e)
{
	const struct ios_job *j = t->job;
	const struct ios_job_submit *s = &j->sub;

	if (!s->cmdprio_given)
		return 0;
	if (j->ioengine != IOS_ENGINE_LIBAIO && j->ioengine != IOS_ENGINE_IO_URING)
		return IOS_ERR(e, -EINVAL, "%s: cmdprio, cmdprio_percentage, cmdprio_class and "
			       "cmdprio_bssplit are options of the libaio and io_uring engines "
			       "(fio rejects them with this job's ioengine)", w);
	if ((s->cmdprio_given & IOS_CMDPRIO_PCT) && (s->cmdprio_given & IOS_CMDPRIO_SPLIT))
		return IOS_ERR(e, -EINVAL, "%s: cmdprio_percentage and cmdprio_bssplit options "
			       "are mutually exclusive (as in fio)", w);
	if (!(t->prio_rng = malloc(sizeof(*t->prio_rng))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ios_rand_seed(t->prio_rng, ios_rand_u64(&t->rng), 0x7072696fULL);
	if (t->clone == 0 && !c->host->disk.prio &&
	    ios_run_warn(c->res, "%s: cmdprio: the I/Os carry their own priority, but nothing "
			 "here honours it: the schedulers of these kernels queue a request by "
			 "its task's priority (CFQ 2.6.x/4.19 and BFQ 4.19 read the io_context, "
			 "deadline, AS and noop have none) and the disk's NCQ priority is off "
			 "(device.ncq_prio=0), so the timing is as without cmdprio (see "
			 "docs/jobfiles.md)", w))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

static int submit_buffer_note(struct run_ctx *c, struct run_task *t, const char *w,
			      struct ios_err *e)
{
	char names[256] = "";
	unsigned given = t->job->sub.buffer_given;

	if (!given || t->clone)
		return 0;
	for (unsigned b = 0; b < IOS_NR_BUFOPTS; b++)
		if (given & (1u << b))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", ios_job_bufopt_names[b]);
	if (ios_run_warn(c->res, "%s: %s: these shape only the bytes fio writes; iosched's "
			 "devices neither compress nor deduplicate, so the timing is the same "
			 "whatever the buffers hold (accepted, see docs/jobfiles.md)", w, names))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* After the engine's model is set up: offload, cmdprio, the notes. */
int ios_run_submit_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	char w[256];
	int ret;

	snprintf(w, sizeof(w), "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
	if (j->sub.offload) {
		if (j->ioengine == IOS_ENGINE_IO_URING)
			return IOS_ERR(e, -EINVAL, "%s: io_submit_mode=offload: io_uring can't be "
				       "used with offloaded submit, use a sync engine (fio 3.33's "
				       "error)", w);
		/* iodepth submitter threads, each with one I/O: iodepth in flight */
		t->offload = true;
		t->async = true;
		t->depth = j->iodepth ? j->iodepth : 1;
		t->batch_submit = 1;
		t->batch_complete_min = 1;
		t->batch_complete_max = t->depth;
		t->depth_low = t->depth - 1;
	}
	ret = submit_cmdprio_setup(c, t, w, e);
	if (!ret)
		ret = submit_buffer_note(c, t, w, e);
	return ret;
}
