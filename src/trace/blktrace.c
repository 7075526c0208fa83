/*
 * The blktrace writer: the block layer's trace hooks as blktrace records.
 *
 * The kernel's tracer (kernel/trace/blktrace.c) builds one record per trace
 * point in a per-CPU relay buffer; blktrace copies each buffer to
 * DEV.blktrace.CPU. We do the same with one CPU: every hook call becomes a
 * record appended to NAME.blktrace.0 through a stdio buffer, so the cost of
 * tracing is one encode and one buffered write per event.
 *
 * What the kernel puts in a record, and what we put:
 * - sequence: a per-CPU counter of event records, from 1. Notes (process,
 *   timestamp, message) are written with sequence 0, as trace_note() leaves
 *   it; blkparse checks the sequence of events only.
 * - time: ns of the tracing clock. Ours is the simulated clock, which starts
 *   at 0 with the run; blkparse prints times relative to the first event
 *   anyway.
 * - pid: the task that was running. For bio events (Q, M, F, G, S) that is
 *   the submitter, the bio's io context. For request events (I, D, C, R) the
 *   kernel records whoever happened to run the queue or take the interrupt
 *   (often another task or 0); we record the pid of the request's io
 *   context, which keeps blkparse -s and btt's per-process figures about the
 *   process that caused the I/O and keeps the output deterministic.
 * - action: the code, its category (QUEUE for Q/M/F/G/S/P/U/UT/I, ISSUE
 *   for D, COMPLETE for C, REQUEUE for R), READ or WRITE by direction, and
 *   SYNC, META, FUA, FLUSH (a preflush or a cache flush), AHEAD from the
 *   request flags; request events also get FS, as blk_add_trace_rq() adds
 *   for file-system requests. Never the 4.14+ cgroup bit, which blkparse
 *   1.2 rejects.
 * - process notes: before a pid's first record, a BLK_TN_PROCESS note with
 *   its comm (the fio job name; "flush-8:0" for the writeback flusher),
 *   16 bytes NUL-padded like the kernel's TASK_COMM_LEN, so blkparse can
 *   print "[name]".
 * - message notes: scheduler messages (ios_queue_msg), pid 0 as in
 *   2.6.31's __trace_note_message, the text with its NUL.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/blktrace.h"
#include "iosched/suggest.h"

/* ---- record codec ---- */

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_n(const uint8_t *p, int n, bool be)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

void ios_blk_rec_encode(const struct ios_blk_rec *r, uint8_t out[IOS_BLK_REC_SIZE])
{
	put32(out + 0, r->magic);
	put32(out + 4, r->sequence);
	put64(out + 8, r->time);
	put64(out + 16, r->sector);
	put32(out + 24, r->bytes);
	put32(out + 28, r->action);
	put32(out + 32, r->pid);
	put32(out + 36, r->device);
	put32(out + 40, r->cpu);
	out[44] = (uint8_t)r->error;
	out[45] = (uint8_t)(r->error >> 8);
	out[46] = (uint8_t)r->pdu_len;
	out[47] = (uint8_t)(r->pdu_len >> 8);
}

void ios_blk_rec_decode(const uint8_t in[IOS_BLK_REC_SIZE], bool be, struct ios_blk_rec *r)
{
	r->magic = (uint32_t)get_n(in + 0, 4, be);
	r->sequence = (uint32_t)get_n(in + 4, 4, be);
	r->time = get_n(in + 8, 8, be);
	r->sector = get_n(in + 16, 8, be);
	r->bytes = (uint32_t)get_n(in + 24, 4, be);
	r->action = (uint32_t)get_n(in + 28, 4, be);
	r->pid = (uint32_t)get_n(in + 32, 4, be);
	r->device = (uint32_t)get_n(in + 36, 4, be);
	r->cpu = (uint32_t)get_n(in + 40, 4, be);
	r->error = (uint16_t)get_n(in + 44, 2, be);
	r->pdu_len = (uint16_t)get_n(in + 46, 2, be);
}

int ios_blk_magic_order(const uint8_t in[4])
{
	if ((get_n(in, 4, false) & IOS_BLK_MAGIC_MASK) == IOS_BLK_MAGIC)
		return 0;
	if ((get_n(in, 4, true) & IOS_BLK_MAGIC_MASK) == IOS_BLK_MAGIC)
		return 1;
	return -1;
}

const char *ios_blk_action_name(unsigned code)
{
	static const char *const names[IOS_BLK_TA_NR] = {
		[IOS_BLK_TA_QUEUE] = "Q", [IOS_BLK_TA_BACKMERGE] = "M",
		[IOS_BLK_TA_FRONTMERGE] = "F", [IOS_BLK_TA_GETRQ] = "G",
		[IOS_BLK_TA_SLEEPRQ] = "S", [IOS_BLK_TA_REQUEUE] = "R",
		[IOS_BLK_TA_ISSUE] = "D", [IOS_BLK_TA_COMPLETE] = "C",
		[IOS_BLK_TA_PLUG] = "P", [IOS_BLK_TA_UNPLUG_IO] = "U",
		[IOS_BLK_TA_UNPLUG_TIMER] = "UT", [IOS_BLK_TA_INSERT] = "I",
		[IOS_BLK_TA_SPLIT] = "X", [IOS_BLK_TA_BOUNCE] = "B",
		[IOS_BLK_TA_REMAP] = "A", [IOS_BLK_TA_ABORT] = "AB",
		[IOS_BLK_TA_DRV_DATA] = "DD",
	};

	return code < IOS_BLK_TA_NR && names[code] ? names[code] : "?";
}

/* ---- the writer ---- */

struct ios_blktrace {
	FILE *f;
	char *path;
	uint32_t seq;			/* last event sequence number */
	uint32_t device;
	int err;			/* first write error (errno) */
	/* pids that already had their process note: open addressing, 0 = empty slot */
	uint32_t *pids;			/* stored as pid + 1 */
	size_t pid_slots, nr_pids;
	struct ios_blktrace_counts counts;	/* .limit: ios_blktrace_set_limit */
	uint16_t mask;			/* act_mask: categories written */
};

static bool bt_put(struct ios_blktrace *bt, const struct ios_blk_rec *r, const void *pdu)
{
	uint8_t buf[IOS_BLK_REC_SIZE];

	ios_blk_rec_encode(r, buf);
	if (bt->err)
		return false;
	if (fwrite(buf, 1, sizeof(buf), bt->f) != sizeof(buf) ||
	    (r->pdu_len && fwrite(pdu, 1, r->pdu_len, bt->f) != r->pdu_len)) {
		bt->err = errno ? errno : EIO;
		return false;
	}
	bt->counts.bytes += sizeof(buf) + r->pdu_len;
	return true;
}

/* The note that ends a cut trace: blkparse prints it as an "m" line. */
#define BT_CUT_NOTE_MAX 160

static void bt_cut(struct ios_blktrace *bt, uint64_t now)
{
	char msg[BT_CUT_NOTE_MAX];
	int n = snprintf(msg, sizeof(msg), "iosched: trace cut at --trace-limit=%" PRIu64
			 " bytes; the run's later records are not in it", bt->counts.limit);
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION,
		.time = now,
		.action = IOS_BLK_TC_ACT(IOS_BLK_TC_NOTIFY) | IOS_BLK_TN_MESSAGE,
		.device = bt->device,
		.pdu_len = (uint16_t)(n + 1),
	};

	bt->counts.cut = true;
	bt->counts.cut_ns = now;
	if (n > 0 && bt->counts.bytes + IOS_BLK_REC_SIZE + (uint64_t)n + 1 <= bt->counts.limit &&
	    bt_put(bt, &r, msg))
		bt->counts.messages++;
}

/*
 * One record, or none past the limit. The last BT_CUT_NOTE_MAX bytes
 * before it are kept for the note that says the trace was cut.
 */
static bool bt_write(struct ios_blktrace *bt, const struct ios_blk_rec *r, const void *pdu)
{
	uint64_t lim = bt->counts.limit;

	if (lim && !bt->counts.cut &&
	    bt->counts.bytes + IOS_BLK_REC_SIZE + r->pdu_len + IOS_BLK_REC_SIZE + BT_CUT_NOTE_MAX >
	    lim)
		bt_cut(bt, r->time);
	if (bt->counts.cut) {
		bt->counts.dropped++;
		return false;
	}
	return bt_put(bt, r, pdu);
}

static bool bt_note(struct ios_blktrace *bt, enum ios_blk_tn what, uint32_t pid, uint64_t now,
		    const void *pdu, uint16_t len)
{
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION,
		.time = now,
		.action = IOS_BLK_TC_ACT(IOS_BLK_TC_NOTIFY) | what,
		.pid = pid,
		.device = bt->device,
		.pdu_len = len,
	};

	return bt_write(bt, &r, pdu);
}

/* Has @pid had its process note? Adds it if not. -ENOMEM leaves it unnoted. */
static int bt_pid_seen(struct ios_blktrace *bt, uint32_t pid)
{
	size_t mask, i;

	if ((bt->nr_pids + 1) * 2 > bt->pid_slots) {
		size_t n = bt->pid_slots ? bt->pid_slots * 2 : 64;
		uint32_t *v = calloc(n, sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t k = 0; k < bt->pid_slots; k++) {
			uint32_t p = bt->pids[k];

			if (!p)
				continue;
			for (i = (p * 2654435761u) & (n - 1); v[i]; i = (i + 1) & (n - 1))
				;
			v[i] = p;
		}
		free(bt->pids);
		bt->pids = v;
		bt->pid_slots = n;
	}
	mask = bt->pid_slots - 1;
	for (i = ((pid + 1) * 2654435761u) & mask; bt->pids[i]; i = (i + 1) & mask)
		if (bt->pids[i] == pid + 1)
			return 1;
	bt->pids[i] = pid + 1;
	bt->nr_pids++;
	return 0;
}

static void bt_process_note(struct ios_blktrace *bt, const struct ios_ioc *ioc, uint64_t now)
{
	char comm[IOS_BLK_COMM_LEN] = { 0 };
	const char *name = ioc->comm[0] ? ioc->comm : "(unknown)";
	size_t n = strlen(name);
	int seen = bt_pid_seen(bt, ioc->pid);

	if (seen < 0 && !bt->err)
		bt->err = ENOMEM;
	if (seen)
		return;
	/* the kernel's comm is at most 15 characters and NUL padded */
	memcpy(comm, name, n < sizeof(comm) - 1 ? n : sizeof(comm) - 1);
	if (bt_note(bt, IOS_BLK_TN_PROCESS, ioc->pid, now, comm, sizeof(comm)))
		bt->counts.process_notes++;
}

static uint32_t bt_flag_bits(uint8_t dir, uint32_t flags)
{
	uint32_t c = dir == IOS_WRITE ? IOS_BLK_TC_WRITE : IOS_BLK_TC_READ;

	if (flags & IOS_REQ_SYNC)
		c |= IOS_BLK_TC_SYNC;
	if (flags & IOS_REQ_META)
		c |= IOS_BLK_TC_META;
	if (flags & IOS_REQ_FUA)
		c |= IOS_BLK_TC_FUA;
	if (flags & IOS_REQ_PREFLUSH)
		c |= IOS_BLK_TC_FLUSH;
	if (flags & IOS_REQ_AHEAD)
		c |= IOS_BLK_TC_AHEAD;
	return c;
}

static uint32_t bt_category(enum ios_trace_action a)
{
	switch (a) {
	case IOS_TA_REQUEUE:
		return IOS_BLK_TC_REQUEUE | IOS_BLK_TC_FS;
	case IOS_TA_ISSUE:
		return IOS_BLK_TC_ISSUE | IOS_BLK_TC_FS;
	case IOS_TA_COMPLETE:
		return IOS_BLK_TC_COMPLETE | IOS_BLK_TC_FS;
	case IOS_TA_INSERT:
		return IOS_BLK_TC_QUEUE | IOS_BLK_TC_FS;
	default:
		return IOS_BLK_TC_QUEUE;
	}
}

static void bt_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct ios_blktrace *bt = priv;
	const struct ios_ioc *ioc = NULL;
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION,
		.time = now,
		.device = bt->device,
	};
	uint8_t pdu[8] = { 0 };
	bool rq_event = a == IOS_TA_INSERT || a == IOS_TA_ISSUE || a == IOS_TA_COMPLETE ||
			a == IOS_TA_REQUEUE;

	if ((unsigned)a == 0 || (unsigned)a >= IOS_BLK_TA_NR)
		return;
	if (rq_event && rq) {
		r.sector = rq->sector;
		r.bytes = (uint32_t)ios_rq_bytes(rq);
		r.action = bt_flag_bits(rq->dir, rq->flags);
		ioc = rq->ioc;
		if (a == IOS_TA_COMPLETE && rq->error)
			r.error = (uint16_t)(rq->error < 0 ? -rq->error : rq->error);
	} else if (bio) {
		r.sector = bio->sector;
		r.bytes = bio->nr_sectors << IOS_SECTOR_SHIFT;
		r.action = bt_flag_bits(bio->dir, bio->flags);
		ioc = bio->ioc;
	} else if (rq) {
		r.sector = rq->sector;
		r.bytes = (uint32_t)ios_rq_bytes(rq);
		r.action = bt_flag_bits(rq->dir, rq->flags);
		ioc = rq->ioc;
	}
	/*
	 * blk_add_trace_plug / _unplug record no request flags (blkparse
	 * prints rwbs "N"); the request they carry only names the task
	 */
	if (a == IOS_TA_PLUG || a == IOS_TA_UNPLUG_IO || a == IOS_TA_UNPLUG_TIMER)
		r.action = 0;
	r.action = IOS_BLK_TC_ACT(r.action | bt_category(a)) | (uint32_t)a;
	/* act_log_check: none of the record's categories asked for */
	if (!(IOS_BLK_TC_ACT(bt->mask) & r.action))
		return;
	if (ioc) {
		r.pid = ioc->pid;
		bt_process_note(bt, ioc, now);
	}
	if (a == IOS_TA_PLUG) {
		/* a plug names no I/O */
		r.sector = 0;
		r.bytes = 0;
	} else if (a == IOS_TA_UNPLUG_IO || a == IOS_TA_UNPLUG_TIMER) {
		/*
		 * payload: a big-endian u64 (blk_add_trace_unplug's depth). On
		 * blk-mq it is the requests that unplug handed on (plug.c sets
		 * q->unplug_depth); the single-queue layer never unplugs, and its
		 * old meaning (requests on the queue) stays for it.
		 */
		uint64_t n = !q ? 0 : q->mq ? q->unplug_depth
					    : (uint64_t)q->rq_count[0] + q->rq_count[1];

		for (int i = 0; i < 8; i++)
			pdu[i] = (uint8_t)(n >> (8 * (7 - i)));
		r.sector = 0;
		r.bytes = 0;
		r.pdu_len = sizeof(pdu);
	}
	r.sequence = ++bt->seq;
	r.cpu = 0;
	if (!bt_write(bt, &r, pdu))
		return;
	bt->counts.actions[a]++;
	bt->counts.events++;
}

static void bt_message(void *priv, struct ios_queue *q, uint64_t now, const char *msg)
{
	struct ios_blktrace *bt = priv;
	size_t n = strlen(msg) + 1;

	(void)q;
	if (!(bt->mask & IOS_BLK_TC_NOTIFY))
		return;
	if (n > 1024)
		n = 1024;	/* the kernel's BLK_TN_MAX_MSG is 128; keep ours bounded too */
	if (bt_note(bt, IOS_BLK_TN_MESSAGE, 0, now, msg, (uint16_t)n))
		bt->counts.messages++;
}

void ios_blktrace_set_mask(struct ios_blktrace *bt, uint16_t mask)
{
	bt->mask = mask;
}

void ios_blktrace_set_limit(struct ios_blktrace *bt, uint64_t bytes)
{
	bt->counts.limit = bytes;
}

int ios_blktrace_mask_parse(const char *list, uint16_t *mask, struct ios_err *e)
{
	static const struct { const char *name; uint16_t bits; } names[] = {
		{ "read", IOS_BLK_TC_READ }, { "write", IOS_BLK_TC_WRITE },
		{ "barrier", IOS_BLK_TC_FLUSH }, { "flush", IOS_BLK_TC_FLUSH },
		{ "sync", IOS_BLK_TC_SYNC }, { "queue", IOS_BLK_TC_QUEUE },
		{ "requeue", IOS_BLK_TC_REQUEUE }, { "issue", IOS_BLK_TC_ISSUE },
		{ "complete", IOS_BLK_TC_COMPLETE }, { "fs", IOS_BLK_TC_FS },
		{ "pc", IOS_BLK_TC_PC }, { "notify", IOS_BLK_TC_NOTIFY },
		{ "ahead", IOS_BLK_TC_AHEAD }, { "meta", IOS_BLK_TC_META },
		{ "discard", IOS_BLK_TC_DISCARD }, { "drv_data", IOS_BLK_TC_DRV_DATA },
		{ "fua", IOS_BLK_TC_FUA }, { "all", 0xffff },
	};
	const char *p = list ? list : "";
	uint16_t m = 0;

	do {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool minus = len && *p == '-';
		size_t i;

		if (minus) {
			p++;
			len--;
		}
		for (i = 0; i < IOS_ARRAY_SIZE(names); i++)
			if (strlen(names[i].name) == len && !strncmp(names[i].name, p, len))
				break;
		if (i == IOS_ARRAY_SIZE(names)) {
			struct ios_suggest s;
			char word[IOS_SUGGEST_NAME + 1], hint[256];

			snprintf(word, sizeof(word), "%.*s", (int)(len < IOS_SUGGEST_NAME ? len : IOS_SUGGEST_NAME), p);
			ios_suggest_init(&s, word);
			for (size_t k = 0; k < IOS_ARRAY_SIZE(names); k++)
				ios_suggest_add(&s, NULL, names[k].name);
			return IOS_ERR(e, -EINVAL, "--trace-mask %s: unknown category '%s'%s (allowed: "
				       "read, write, barrier, flush, sync, queue, requeue, issue, complete, "
				       "fs, pc, notify, ahead, meta, discard, drv_data, fua, all; "
				       "-NAME takes one away)", list ? list : "", word,
				       ios_suggest_str(&s, hint, sizeof(hint)));
		}
		if (minus)
			m &= (uint16_t)~names[i].bits;
		else
			m |= names[i].bits;
		p = end ? end + 1 : NULL;
	} while (p);
	if (!m)
		return IOS_ERR(e, -EINVAL, "--trace-mask %s: no category left: the trace would hold "
			       "no event", list ? list : "");
	*mask = m;
	return 0;
}

const struct ios_trace_ops ios_blktrace_trace_ops = {
	.event = bt_event,
	.message = bt_message,
};

int ios_blktrace_open(const char *name, struct ios_blktrace **out, struct ios_err *e)
{
	struct ios_blktrace *bt;
	uint32_t ts[2] = { 0, 0 };
	uint8_t pdu[8];
	size_t n;

	*out = NULL;
	if (!name || !*name)
		return IOS_ERR(e, -EINVAL, "--trace: empty trace name");
	bt = calloc(1, sizeof(*bt));
	if (!bt)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	n = strlen(name) + sizeof(".blktrace.0");
	bt->path = malloc(n);
	if (!bt->path) {
		free(bt);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	snprintf(bt->path, n, "%s.blktrace.0", name);
	bt->f = fopen(bt->path, "wb");
	if (!bt->f) {
		int err = errno;

		IOS_ERR(e, -err, "%s: cannot create the trace file: %s", bt->path, strerror(err));
		free(bt->path);
		free(bt);
		return -err;
	}
	bt->device = IOS_BLK_DEV_SDA;
	bt->mask = 0xffff;
	/*
	 * The kernel notes the wall-clock time when tracing starts; a run has
	 * no wall clock, so the trace starts at the epoch (blkparse -z and btt
	 * show 1970, as the text report does).
	 */
	put32(pdu, ts[0]);
	put32(pdu + 4, ts[1]);
	if (bt_note(bt, IOS_BLK_TN_TIMESTAMP, 0, 0, pdu, sizeof(pdu)))
		bt->counts.timestamps++;
	*out = bt;
	return 0;
}

int ios_blktrace_close(struct ios_blktrace *bt, struct ios_blktrace_counts *counts,
		       struct ios_err *e)
{
	int ret = 0;

	if (!bt)
		return 0;
	if (fclose(bt->f) && !bt->err)
		bt->err = errno ? errno : EIO;
	if (bt->err)
		ret = IOS_ERR(e, -bt->err, "%s: writing the trace failed: %s", bt->path,
			      strerror(bt->err));
	if (counts)
		*counts = bt->counts;
	free(bt->pids);
	free(bt->path);
	free(bt);
	return ret;
}
