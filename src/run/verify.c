/*
 * fio 3.33's verification (verify=, HOWTO "Verification"), without data.
 *
 * fio writes a header into every verify_interval bytes of a block it
 * writes (a magic, the length, a seed, the offset, the write's number
 * "numberio", a CRC) and a checksum of the data; reading the block back, it
 * checks them. What the check can catch is which write's data came back.
 * So the simulator keeps, per file, a sparse map of what each stretch of
 * the file holds: which job wrote it, with which numberio, header interval
 * and pattern, or zeros (a trim), or data without a header (a job without
 * verify=); writes of one job that follow each other are one map entry, so
 * a sequential job over a 1 TB file costs one entry, not 2^28. A write is
 * what its blocks hold once it completes: from then on a read returns it,
 * from the page cache (buffered) or from the device (O_DIRECT).
 *
 * The job's side is fio's io_piece log: each write is logged when it is
 * issued; the verify phase (after the write phase of each loop, do_verify)
 * reads the logged blocks back in the log's order, and verify_backlog=N
 * reads verify_backlog_batch of them every N writes, as fio's
 * check_get_verify does. The log is in issue order for random I/O with
 * fio's random map, else sorted by file and offset, a newer write
 * replacing an overlapping older one (log_io_piece). Verify reads are real
 * reads through the page cache, the block layer and the scheduler, counted
 * in the read direction as fio counts them, with the read runtime being
 * the verify phase's.
 *
 * A check fails as verify.c's verify_header would: nothing written there
 * (bad magic), another header interval (bad length), another job's or an
 * older write for rw jobs without backlog (bad rand_seed), an older write
 * of the same job (bad numberio; fio checks it only for writing jobs with
 * one block size that are not time_based), data from two writes in one
 * chunk (the checksum), another pattern (pattern). A bad header fails
 * the block at once; a bad checksum or pattern is logged and the next chunk
 * checked, the block's result being its last chunk's (fio 3.33's
 * verify_io_u), unless verify_fatal stops at the first bad chunk. A failed
 * block ends the job with err=84 (EILSEQ) whatever verify_fatal says, as in
 * fio 3.33 without continue_on_error; reads still in flight are checked.
 * lab.lose_write=N (no kernel has it) makes the device drop the N-th
 * O_DIRECT data write of the run after acknowledging it, so a run can show
 * that a lost write is caught; a buffered write lands in the page cache,
 * where a read would find it, so it is not counted.
 */
#include <inttypes.h>
#include <string.h>
#include "verify.h"
#include "iosched/btree.h"

#define VERIFY_MAGIC 0xacca	/* fio's FIO_HDR_MAGIC */

/* What one stretch of a file holds (the map's key is off). */
struct vext {
	uint64_t off, len;
	uint64_t origin;	/* where its first write began: write k is origin + k * unit */
	uint64_t unit;		/* each write's length */
	uint64_t numberio0;	/* fio's numberio of that first write */
	uint64_t interval;	/* a header every this many bytes; 0: no header */
	uint64_t pattern;	/* the writer's verify_pattern (hash), 0: none */
	unsigned writer;	/* task index + 1 of a verify writer, else 0 */
	bool zero;		/* no header: zeros (trimmed) rather than unchecked data */
};

struct run_vfile {
	struct ios_btree map;
};

/* One logged write (fio's io_piece). */
struct run_vpiece {
	struct run_task_file *tf;
	uint64_t off, len, numberio;
	bool inflight;		/* the write has not completed */
	bool orphan;		/* replaced in the log while in flight: freed on completion */
	struct run_vpiece *next;
};

struct run_vtask {
	bool log;		/* writes are logged and read back (do_verify) */
	bool rw;		/* fio's td_rw: reads and writes */
	bool sorted;		/* the log is by file and offset */
	bool check_seed, check_numberio;
	uint64_t interval;	/* verify_interval after fio's fix-ups */
	struct run_vpiece *head, *tail;
	struct ios_btree tree;	/* sorted: key (file, offset) -> piece */
	uint64_t hist_len;
	uint64_t backlog;
	unsigned batch_size, batch;
	int last_dir;
	bool phase;		/* in a verify phase */
	uint64_t phase_start_ns, verify_ns;
	bool phase_ran;		/* a verify phase began (fio then times the read direction) */
	/*
	 * fio's passes (do_io, then do_verify, while keep_running): a pass
	 * ends after pass_limit bytes of the job's own I/O (with pass_vreads,
	 * of its I/O and backlog reads; 0: no such limit) or at the job's
	 * target; loops_left more follow, then more while the bytes done
	 * (verify reads too) are short of the job's size.
	 */
	uint64_t pass_limit, pass_start, pass_vbytes;
	bool pass_vreads;
	uint64_t base;			/* io_size (or size) of one loop */
	unsigned loops_left;
	bool time_based;
	bool failed;
	bool reported;		/* fio's "fio: pid=..., err=84" line written */
};

struct run_verify {
	uint64_t direct_writes;	/* O_DIRECT data writes completed so far */
	bool lost;		/* lab.lose_write's write has been dropped */
};

static const char *const verify_names[] = {
	"none", "md5", "crc64", "crc32c", "crc32c", "crc32", "crc16", "crc7", "xxhash", "sha1",
	"sha256", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "meta", "pattern",
	"null",
};

static uint64_t v_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* ---- the map of what the files hold ---- */

static struct ios_btree *vmap(struct run_file *f)
{
	if (!f->vf) {
		f->vf = calloc(1, sizeof(*f->vf));
		if (!f->vf)
			return NULL;
		ios_btree_init(&f->vf->map);
	}
	return &f->vf->map;
}

static struct vext *map_cover(const struct ios_btree *m, uint64_t x)
{
	struct ios_bt_entry pred, exact;
	struct vext *v;

	ios_btree_around(m, x, &pred, &exact, NULL);
	v = exact.val ? exact.val : pred.val;
	return v && x < v->off + v->len ? v : NULL;
}

/* Can @v grow by the write @n that starts where it ends? */
static bool ext_extends(const struct vext *v, const struct vext *n)
{
	if (v->off + v->len != n->off || v->interval != n->interval || v->writer != n->writer)
		return false;
	if (!n->writer)
		return v->zero == n->zero && !v->interval;
	return v->unit == n->unit && v->pattern == n->pattern &&
	       (n->off - v->origin) % v->unit == 0 &&
	       v->numberio0 + (n->off - v->origin) / v->unit == n->numberio0;
}

/* Cut [off, off + len) out of the map. -ENOMEM leaves the map consistent. */
static int map_cut(struct ios_btree *m, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;
	struct vext *v = map_cover(m, off);

	if (v && v->off < off) {
		if (v->off + v->len > end) {
			struct vext *tail = malloc(sizeof(*tail));

			if (!tail)
				return -ENOMEM;
			*tail = *v;
			tail->off = end;
			tail->len = v->off + v->len - end;
			if (ios_btree_insert(m, tail->off, tail)) {
				free(tail);
				return -ENOMEM;
			}
		}
		v->len = off - v->off;
	}
	for (;;) {
		struct ios_bt_entry exact, succ;

		ios_btree_around(m, off, NULL, &exact, &succ);
		v = exact.val ? exact.val : succ.val;
		if (!v || v->off >= end)
			return 0;
		(void)ios_btree_remove(m, v->off);
		if (v->off + v->len <= end) {
			free(v);
			continue;
		}
		v->len = v->off + v->len - end;
		v->off = end;
		if (ios_btree_insert(m, v->off, v)) {
			free(v);
			return -ENOMEM;
		}
		return 0;
	}
}

static int map_put(struct run_file *f, const struct vext *n)
{
	struct ios_btree *m = vmap(f);
	struct vext *v;

	if (!m || map_cut(m, n->off, n->len))
		return -ENOMEM;
	v = n->off ? map_cover(m, n->off - 1) : NULL;
	if (v && ext_extends(v, n)) {
		v->len += n->len;
		return 0;
	}
	v = malloc(sizeof(*v));
	if (!v)
		return -ENOMEM;
	*v = *n;
	if (ios_btree_insert(m, v->off, v)) {
		free(v);
		return -ENOMEM;
	}
	return 0;
}

static int map_free_one(void *arg, uint64_t key, void *val)
{
	(void)arg;
	(void)key;
	free(val);
	return 0;
}

/* ---- the job's log of writes ---- */

/*
 * By file, then byte offset: a run has at most 262144 files (2^18) on a
 * device of at most 65536 GiB (2^46 bytes), so both fit in 64 bits.
 */
static uint64_t piece_key(const struct run_task *t, const struct run_task_file *tf, uint64_t off)
{
	return ((uint64_t)(tf - t->files) << 46) | off;
}

/* fio's log_io_piece for a sorted log: a newer write replaces what it overlaps. */
static int log_sorted(struct run_task *t, struct run_vpiece *p)
{
	struct run_vtask *vt = t->vt;
	uint64_t lo = piece_key(t, p->tf, p->off), hi = piece_key(t, p->tf, p->off + p->len - 1);
	struct ios_bt_entry pred, exact, succ;

	ios_btree_around(&vt->tree, lo, &pred, NULL, NULL);
	if (pred.val) {
		struct run_vpiece *q = pred.val;

		if (q->tf == p->tf && q->off + q->len > p->off)
			lo = pred.key;
	}
	for (;;) {
		struct run_vpiece *q;

		ios_btree_around(&vt->tree, lo, NULL, &exact, &succ);
		q = exact.val ? exact.val : succ.val;
		if (!q || (exact.val ? exact.key : succ.key) > hi)
			break;
		(void)ios_btree_remove(&vt->tree, exact.val ? exact.key : succ.key);
		vt->hist_len--;
		if (q->inflight)
			q->orphan = true;
		else
			free(q);
	}
	if (ios_btree_insert(&vt->tree, piece_key(t, p->tf, p->off), p))
		return -ENOMEM;
	vt->hist_len++;
	return 0;
}

/* The oldest (or lowest) logged write whose I/O has completed, taken off the log. */
static struct run_vpiece *log_pop(struct run_vtask *vt)
{
	struct run_vpiece *p;

	if (vt->sorted) {
		struct ios_bt_entry e;

		ios_btree_around(&vt->tree, 0, NULL, &e, NULL);
		if (!e.val)
			ios_btree_around(&vt->tree, 0, NULL, NULL, &e);
		p = e.val;
		if (!p || p->inflight)
			return NULL;
		(void)ios_btree_remove(&vt->tree, e.key);
	} else {
		p = vt->head;
		if (!p || p->inflight)
			return NULL;
		vt->head = p->next;
		if (!vt->head)
			vt->tail = NULL;
	}
	vt->hist_len--;
	return p;
}

/* ---- set-up ---- */

/* fio's fixup_options for verify_interval: no larger than a block, and a factor of both sizes. */
static uint64_t fix_interval(const struct ios_job *j)
{
	uint64_t minw = j->bs_min[IOS_WRITE] ? j->bs_min[IOS_WRITE] : j->bs[IOS_WRITE];
	uint64_t maxw = j->bs_max[IOS_WRITE] ? j->bs_max[IOS_WRITE] : j->bs[IOS_WRITE];
	uint64_t minr = j->bs_min[IOS_READ] ? j->bs_min[IOS_READ] : j->bs[IOS_READ];
	uint64_t iv = j->verify.interval;

	if (maxw != minw && !iv)
		iv = minw;
	if (iv > minw)
		iv = minw;
	else if (ios_rw_has_read(j->rw) && iv > minr)
		iv = minr;
	if (!iv || minw % iv || maxw % iv)
		iv = v_gcd(minw, maxw);
	return iv;
}

static bool fixed_bs(const struct ios_job *j)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (int d = 0; d < 2; d++) {
		uint64_t a = j->bs_min[d] ? j->bs_min[d] : j->bs[d];
		uint64_t b = j->bs_max[d] ? j->bs_max[d] : j->bs[d];

		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	return lo == hi && !j->nr_bssplit[0] && !j->nr_bssplit[1];
}

/* The notes fio prints for these options, and ours for what has no effect here. */
static int verify_notes(struct run_ctx *c, struct run_task *t, const char *w, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	const struct ios_job_verify *v = &j->verify;
	int ret = 0;

	if (t->clone)
		return 0;
	if (v->async || v->async_cpus)
		ret |= ios_run_warn(c->res, "%s: verify_async%s: checksum threads are CPU time of "
				    "the machine running fio; iosched checks at completion, in no "
				    "time (accepted, see docs/verify.md)", w,
				    v->async_cpus ? "_cpus" : "");
	if (v->sort_given)
		ret |= ios_run_warn(c->res, "%s: verifysort and verifysort_nr are deprecated in fio "
				    "3.33, which ignores them (so does iosched)", w);
	if (v->dump)
		ret |= ios_run_warn(c->res, "%s: verify_dump=1: on a failure fio would write the "
				    "blocks to files; iosched holds no data, so it says which files "
				    "and writes none", w);
	if (ret)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	/* fio's fixup_options notes: fatal with --warnings-fatal */
	if (ios_rw_has_write(j->rw) && v->do_verify && j->numjobs > 1 && j->filename &&
	    (ret = ios_run_fio_warn(c, e, "%s: fio: multiple writers may overwrite blocks that "
				    "belong to other jobs. This can cause verification failures.",
				    w)))
		return ret;
	if (ios_rw_has_write(j->rw) && v->do_verify && j->runtime_ns && j->time_based &&
	    !ios_rw_has_read(j->rw) && !v->backlog &&
	    (ret = ios_run_fio_warn(c, e, "%s: fio: verification read phase will never start "
				    "because write phase uses all of runtime", w)))
		return ret;
	if (j->norandommap && !fixed_bs(j) &&
	    (ret = ios_run_fio_warn(c, e, "%s: fio: norandommap given for variable block sizes, "
				    "verify limited", w)))
		return ret;
	if (v->interval && fix_interval(j) != v->interval)
		ret |= ios_run_warn(c->res, "%s: verify_interval=%" PRIu64 " is %" PRIu64 " (fio "
				    "makes it at most the block size and a factor of it)", w,
				    v->interval, fix_interval(j));
	return ret ? IOS_ERR(e, -ENOMEM, "out of memory") : 0;
}

/*
 * Where fio's do_io ends a pass. Its files are done when the region has
 * been covered: sequential I/O at the region's end, random I/O when the
 * random map is full (time_based I/O wraps instead; norandommap never
 * fills). Its total_bytes (the size; io_size if larger for randwrite with
 * norandommap; the size more with a backlog, whose reads it counts) is
 * counted only for I/O an engine queued (io_queue_event adds to
 * bytes_issued on FIO_Q_QUEUED, or for a short transfer): so for libaio,
 * io_uring and posixaio, not for the sync engines, where a time_based
 * write job without a backlog writes until its runtime (fio's note: the
 * verify phase never starts).
 */
static void pass_setup(struct run_task *t)
{
	const struct ios_job *j = t->job;
	struct run_vtask *vt = t->vt;
	uint64_t region = 0, total;
	bool random_nomap = ios_rw_is_random(j->rw) && (j->norandommap || j->rand_dist);

	for (unsigned k = 0; k < t->nr_files; k++)
		region += t->files[k].len;
	vt->base = region;
	if (j->io_size_pct)
		vt->base = vt->base / 100 * j->io_size_pct;
	else if (j->io_size)
		vt->base = j->io_size;
	if (!vt->time_based && !random_nomap) {
		vt->pass_limit = region;
		return;
	}
	if (!t->async || t->null_engine)
		return;
	total = region;
	if (random_nomap && j->norandommap && ios_rw_has_write(j->rw) && j->io_size > total)
		total = j->io_size;
	if (j->verify.backlog && ios_rw_has_write(j->rw))
		total += region;
	vt->pass_limit = total;
	vt->pass_vreads = true;
}

int ios_run_verify_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	const struct ios_job_verify *v = &j->verify;
	struct run_vtask *vt;
	char w[256];

	snprintf(w, sizeof(w), "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
	if (c->lab.lose_write && t->index + 1 == c->nr_tasks && !c->verify &&
	    v->method == IOS_VERIFY_NONE &&
	    ios_run_warn(c->res, "lab.lose_write=%d has no effect: no job verifies (verify=)",
			 c->lab.lose_write))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (v->method == IOS_VERIFY_NONE)
		return 0;
	if (v->only)
		return IOS_ERR(e, -ENOTSUP, "%s: verify_only=1 is not modelled by iosched: it "
			       "checks the data an earlier run left, and a simulated run starts "
			       "from files that hold none", w);
	if (!c->verify) {
		c->verify = calloc(1, sizeof(*c->verify));
		if (!c->verify)
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	vt = calloc(1, sizeof(*vt));
	if (!vt)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	t->vt = vt;
	ios_btree_init(&vt->tree);
	vt->rw = ios_rw_has_read(j->rw) && ios_rw_has_write(j->rw);
	vt->log = ios_rw_has_write(j->rw) && v->do_verify && !ios_rw_has_trim(j->rw);
	vt->sorted = !(ios_rw_is_random(j->rw) && !j->norandommap && !j->rand_dist);
	vt->interval = fix_interval(j);
	vt->backlog = v->backlog;
	vt->batch_size = v->backlog_batch ? v->backlog_batch : (unsigned)v->backlog;
	if (v->backlog && !vt->batch_size)
		vt->batch_size = UINT32_MAX;
	vt->check_seed = vt->rw && !v->backlog;
	vt->check_numberio = ios_rw_has_write(j->rw) && fixed_bs(j) && !j->time_based;
	vt->last_dir = -1;
	/* the verify reads are in the read direction of the report */
	if (vt->log)
		t->dir_used[IOS_READ] = true;
	vt->loops_left = j->loops > 1 ? j->loops - 1 : 0;
	vt->time_based = t->io_target == UINT64_MAX;
	pass_setup(t);
	return verify_notes(c, t, w, e);
}

static int piece_free_one(void *arg, uint64_t key, void *val)
{
	(void)arg;
	(void)key;
	free(val);
	return 0;
}

void ios_run_verify_task_free(struct run_task *t)
{
	struct run_vtask *vt = t->vt;

	if (!vt)
		return;
	/*
	 * An I/O unit still holding its piece: an orphan (replaced in the log
	 * while in flight) is only there; any other is on the log, freed below.
	 */
	for (unsigned i = 0; t->ios && i < t->depth + (t->sync_io ? 1 : 0); i++) {
		if (t->ios[i].vp && t->ios[i].vp->orphan)
			free(t->ios[i].vp);
		t->ios[i].vp = NULL;
	}
	while (vt->head) {
		struct run_vpiece *p = vt->head;

		vt->head = p->next;
		free(p);
	}
	(void)ios_btree_walk(&vt->tree, piece_free_one, NULL);
	ios_btree_destroy(&vt->tree);
	free(vt);
	t->vt = NULL;
}

void ios_run_verify_free(struct run_ctx *c)
{
	for (struct run_file *f = c->files; f; f = f->next) {
		if (!f->vf)
			continue;
		(void)ios_btree_walk(&f->vf->map, map_free_one, NULL);
		ios_btree_destroy(&f->vf->map);
		free(f->vf);
		f->vf = NULL;
	}
	free(c->verify);
	c->verify = NULL;
}

/* ---- the task's hooks ---- */

static void fill_read(struct run_io *io, struct run_vpiece *p, uint64_t now)
{
	io->tf = p->tf;
	io->offset = p->off;
	io->len = p->len;
	io->vnumberio = p->numberio;
	io->vread = true;
	io->dir = IOS_READ;
	io->trim = false;
	io->sync_op = false;
	io->start_ns = now;
	io->issue_ns = 0;
	io->error = 0;
	io->next = NULL;
	free(p);
}

bool ios_run_verify_prepare(struct run_task *t, struct run_io *io, uint64_t now)
{
	struct run_vtask *vt = t->vt;
	struct run_vpiece *p;

	io->vread = false;
	if (!vt->log)
		return false;
	if (vt->phase) {
		p = log_pop(vt);
		if (!p)
			return false;
		fill_read(io, p, now);
		return true;
	}
	/* fio's check_get_verify */
	if (!vt->backlog || !vt->hist_len)
		return false;
	if (!vt->batch) {
		if (vt->hist_len % vt->backlog || vt->last_dir == IOS_READ)
			return false;
		vt->batch = vt->batch_size;
	}
	p = log_pop(vt);
	if (!p)
		return false;
	vt->batch--;
	fill_read(io, p, now);
	return true;
}

void ios_run_verify_submitted(struct run_task *t, struct run_io *io)
{
	struct run_vtask *vt = t->vt;
	struct run_vpiece *p;

	if (!vt)
		return;	/* io->vp is NULL: only a verifying task sets it */
	io->vp = NULL;
	vt->last_dir = io->dir;
	/* fio's numberio: the writes issued before this one */
	if (io->dir == IOS_WRITE)
		io->vnumberio = t->ios_issued[IOS_WRITE] - 1;
	if (io->vread) {
		/*
		 * fio's td_io_queue counts no verify read against the job's
		 * size; number_ios counts it (exceeds_number_ios adds the
		 * blocks done, verify reads too)
		 */
		t->io_issued -= io->len;
		if (!vt->phase)
			vt->pass_vbytes += io->len;
		t->bytes_issued[IOS_READ] -= io->len;
		return;
	}
	if (!vt->log || io->dir != IOS_WRITE || io->trim)
		return;
	p = calloc(1, sizeof(*p));
	if (!p)
		goto oom;
	p->tf = io->tf;
	p->off = io->offset;
	p->len = io->len;
	p->numberio = io->vnumberio;
	p->inflight = true;
	if (vt->sorted) {
		if (log_sorted(t, p)) {
			free(p);
			goto oom;
		}
	} else {
		if (vt->tail)
			vt->tail->next = p;
		else
			vt->head = p;
		vt->tail = p;
		vt->hist_len++;
	}
	io->vp = p;
	return;
oom:
	t->res->error = -ENOMEM;
	t->stop = t->failed = true;
}

/* ---- checking a verify read ---- */

static uint64_t v_seed(const struct run_task *t, unsigned writer, uint64_t numberio)
{
	return ios_mix64(t->ctx->seed ^ ((uint64_t)writer << 40) ^ numberio);
}

/* What fio would find where a header should be and none was written. */
static unsigned junk_magic(const struct vext *v, uint64_t x)
{
	unsigned m;

	if (!v || v->zero)
		return 0;
	m = (unsigned)(ios_mix64(x ^ ((uint64_t)v->writer << 50) ^ v->numberio0) & 0xffff);
	return m == VERIFY_MAGIC ? m ^ 1 : m;
}

/* The dump verify_dump=1 would write: named, not written. */
static void v_dump(struct run_task *t, const struct run_io *io, uint64_t x, bool hdr)
{
	const struct ios_job *j = t->job;
	const char *base = strrchr(io->tf->f->name, '/');
	char buf[400];

	if (!j->verify.dump)
		return;
	base = base ? base + 1 : io->tf->f->name;
	if (hdr)
		snprintf(buf, sizeof(buf), "       hdr_fail data would be dumped as %s.%" PRIu64
			 ".hdr_fail (verify_dump: iosched writes no file)", base, x);
	else
		snprintf(buf, sizeof(buf), "       received and expected data would be dumped as "
			 "%s.%" PRIu64 ".received and %s.%" PRIu64 ".expected (verify_dump: "
			 "iosched writes no file)", base, io->offset, base, io->offset);
	if (ios_run_warn_fio(t->ctx->res, "%s", buf))
		t->res->error = -ENOMEM;
}

/* verify_header: 0, or EILSEQ with fio's message. */
static int check_header(struct run_task *t, const struct run_io *io, const struct vext *v,
			uint64_t x, uint64_t hdr_inc)
{
	const struct run_vtask *vt = t->vt;
	char what[160];
	uint64_t k, base;

	if (!v || !v->interval) {
		snprintf(what, sizeof(what), "verify: bad magic header %x, wanted %x",
			 junk_magic(v, x), VERIFY_MAGIC);
		goto err;
	}
	k = (x - v->origin) / v->unit;
	base = v->origin + k * v->unit;
	if ((x - base) % v->interval) {
		snprintf(what, sizeof(what), "verify: bad magic header %x, wanted %x",
			 junk_magic(v, x), VERIFY_MAGIC);
		goto err;
	}
	if (v->interval != hdr_inc) {
		snprintf(what, sizeof(what), "verify: bad header length %" PRIu64 ", wanted %" PRIu64,
			 v->interval, hdr_inc);
		goto err;
	}
	if (vt->check_seed && io->vread &&
	    (v->writer != t->index + 1 || v->numberio0 + k != io->vnumberio)) {
		snprintf(what, sizeof(what), "verify: bad header rand_seed %" PRIu64 ", wanted %"
			 PRIu64, v_seed(t, v->writer, v->numberio0 + k),
			 v_seed(t, t->index + 1, io->vnumberio));
		goto err;
	}
	if (vt->check_numberio && io->vread &&
	    (uint16_t)(v->numberio0 + k) != (uint16_t)io->vnumberio) {
		snprintf(what, sizeof(what), "verify: bad header numberio %u, wanted %u",
			 (unsigned)(uint16_t)(v->numberio0 + k), (unsigned)(uint16_t)io->vnumberio);
		goto err;
	}
	return 0;
err:
	{
		char buf[400];

		snprintf(buf, sizeof(buf), "%s at file %s offset %" PRIu64 ", length %" PRIu64
			 " (requested block: offset=%" PRIu64 ", length=%" PRIu64 ")", what,
			 io->tf->f->name, x, hdr_inc, io->offset, io->len);
		if (ios_run_warn_fio(t->ctx->res, "%s", buf))
			t->res->error = -ENOMEM;
	}
	v_dump(t, io, x, true);
	return EILSEQ;
}

/* The data of the chunk: all of one write (checksum), and the reader's pattern. */
static int check_data(struct run_task *t, const struct run_io *io, const struct vext *v,
		      uint64_t x, uint64_t hdr_inc)
{
	const struct ios_job_verify *jv = &t->job->verify;
	bool pattern = jv->method == IOS_VERIFY_PATTERN ||
		       (jv->method == IOS_VERIFY_META && jv->pattern_hash);
	bool ok = v && v->writer;
	char buf[400];

	if (jv->method == IOS_VERIFY_META && !jv->pattern_hash)
		return 0;
	if (ok) {
		uint64_t k = (x - v->origin) / v->unit, wend = v->origin + (k + 1) * v->unit;
		uint64_t end = v->off + v->len < wend ? v->off + v->len : wend;

		ok = x + hdr_inc <= end;
		if (pattern)
			ok = ok && v->pattern == jv->pattern_hash;
	}
	if (ok)
		return 0;
	snprintf(buf, sizeof(buf), "%.8s: verify failed at file %s offset %" PRIu64 ", length %"
		 PRIu64 " (requested block: offset=%" PRIu64 ", length=%" PRIu64 ", flags=%x)",
		 pattern ? "pattern" : verify_names[jv->method], io->tf->f->name, x,
		 v && v->interval ? v->interval : hdr_inc, io->offset, io->len,
		 /* fio's io_u flags then: IN_CUR_DEPTH, and VER_LIST for a read of the log */
		 io->vread ? 0x88u : 0x8u);
	if (ios_run_warn_fio(t->ctx->res, "%s", buf))
		t->res->error = -ENOMEM;
	v_dump(t, io, x, false);
	return EILSEQ;
}

/* fio's verify_io_u: each chunk's header, then its data. */
static int check_read(struct run_task *t, const struct run_io *io)
{
	const struct ios_job_verify *jv = &t->job->verify;
	struct ios_btree *m = io->tf->f->vf ? &io->tf->f->vf->map : NULL;
	uint64_t hdr_inc = t->vt->interval && t->vt->interval <= io->len ? t->vt->interval : io->len;
	int ret = 0;

	if (jv->method == IOS_VERIFY_NULL || t->null_engine)
		return 0;
	for (uint64_t x = io->offset; x < io->offset + io->len; x += hdr_inc) {
		const struct vext *v = m ? map_cover(m, x) : NULL;

		if (ret && jv->fatal)
			break;
		if (jv->method != IOS_VERIFY_PATTERN) {
			ret = check_header(t, io, v, x, hdr_inc);
			if (ret)
				return ret;
		}
		ret = check_data(t, io, v, x, hdr_inc);
	}
	return ret;
}

static void verify_failed(struct run_task *t)
{
	struct run_vtask *vt = t->vt;

	if (!t->res->error)
		t->res->error = -EILSEQ;
	vt->failed = true;
	t->stop = true;
	t->failed = true;
	if (vt->reported)
		return;
	vt->reported = true;
	{
		char buf[300];

		snprintf(buf, sizeof(buf), "fio: pid=%u, err=%d/func=%s, error=%s", t->ioc.pid,
			 EILSEQ, t->async ? "io_u_queued_complete" : "io_u_sync_complete",
			 strerror(EILSEQ));
		if (ios_run_warn_fio(t->ctx->res, "%s", buf))
			t->res->error = -ENOMEM;
	}
}

/* A write completed: it is what its blocks hold now. */
static void write_landed(struct run_task *t, struct run_io *io)
{
	struct run_ctx *c = t->ctx;
	const struct ios_job *j = t->job;
	struct vext n = { .off = io->offset, .len = io->len, .origin = io->offset,
			  .unit = io->len };

	if (io->trim || (!t->vt && j->zero_buffers)) {
		n.zero = true;
	} else if (t->vt && j->verify.method != IOS_VERIFY_PATTERN &&
		   j->verify.method != IOS_VERIFY_NULL) {
		n.writer = t->index + 1;
		n.interval = t->vt->interval;
	} else if (t->vt && j->verify.method == IOS_VERIFY_PATTERN) {
		n.writer = t->index + 1;
	}
	if (n.writer) {
		n.pattern = j->verify.pattern_hash;
		n.numberio0 = io->vnumberio;
	}
	if (j->direct && !io->trim && !t->null_engine && c->lab.lose_write) {
		if (++c->verify->direct_writes == (uint64_t)c->lab.lose_write) {
			c->verify->lost = true;
			if (ios_run_warn(c->res, "lab.lose_write=%d: the device dropped job '%s''s "
					 "write of %" PRIu64 " bytes at offset %" PRIu64 " of '%s'",
					 c->lab.lose_write, j->name, io->len, io->offset,
					 io->tf->f->name))
				t->res->error = -ENOMEM;
			return;
		}
	}
	if (map_put(io->tf->f, &n)) {
		t->res->error = -ENOMEM;
		t->stop = t->failed = true;
	}
}

void ios_run_verify_completed(struct run_task *t, struct run_io *io)
{
	struct run_vtask *vt = t->vt;

	if (!io->tf || io->sync_op)
		return;
	if (io->dir == IOS_WRITE) {
		struct run_vpiece *p = io->vp;

		if (!io->error && !t->null_engine)
			write_landed(t, io);
		if (p) {
			p->inflight = false;
			if (p->orphan)
				free(p);
			io->vp = NULL;
		}
		return;
	}
	/* fio checks a list read, or every read of a job that only reads */
	if (!vt || io->error || !(io->vread || !vt->rw))
		return;
	if (check_read(t, io))
		verify_failed(t);
}

int ios_run_verify_reached(const struct run_task *t)
{
	const struct run_vtask *vt = t->vt;

	if (!vt->log)
		return -1;
	if (vt->phase)
		return !vt->hist_len;
	if (!vt->pass_limit)
		return -1;
	return t->io_issued - vt->pass_start + (vt->pass_vreads ? vt->pass_vbytes : 0) >=
	       vt->pass_limit ? 1 : -1;
}

/* fio's keep_running between passes. */
static bool another_pass(struct run_task *t)
{
	struct run_vtask *vt = t->vt;
	uint64_t done = t->bytes_done[IOS_READ] + t->bytes_done[IOS_WRITE];
	uint64_t max_bs = 0;

	const struct ios_job *j = t->job;

	/* a pass that issued nothing would be followed by another, for ever */
	if (t->stop || t->failed || t->io_issued >= t->io_target || t->io_issued == vt->pass_start)
		return false;
	/* fio's exceeds_number_ios */
	if (j->number_ios && t->ios_issued[IOS_READ] + t->ios_issued[IOS_WRITE] >=
			     j->number_ios * (j->loops ? j->loops : 1))
		return false;
	if (vt->time_based)
		return true;
	if (vt->loops_left) {
		vt->loops_left--;
		return true;
	}
	for (int d = 0; d < 2; d++) {
		uint64_t b = j->bs_max[d] ? j->bs_max[d] : j->bs[d];

		max_bs = b > max_bs ? b : max_bs;
	}
	return done < vt->base && vt->base - done >= max_bs;
}

bool ios_run_verify_phase_next(struct run_task *t, uint64_t now)
{
	struct run_vtask *vt = t->vt;

	if (!vt || !vt->log)
		return false;
	if (vt->phase) {
		vt->verify_ns += now - vt->phase_start_ns;
		vt->phase = false;
	} else if (!t->stop && !t->failed) {
		/* fio's do_verify after do_io: even with nothing left to read */
		vt->phase = true;
		vt->phase_ran = true;
		vt->phase_start_ns = now;
		vt->batch = 0;
		return true;
	}
	if (!another_pass(t))
		return false;
	vt->pass_start = t->io_issued;
	vt->pass_vbytes = 0;
	return true;
}

/* The run's last job ended and lab.lose_write's write never came: say so. */
static void lose_write_missed(struct run_task *t)
{
	struct run_ctx *c = t->ctx;

	if (!c->verify || !c->lab.lose_write || c->verify->lost)
		return;
	for (unsigned i = 0; i < c->nr_tasks; i++)
		if (c->tasks[i].state != TS_DONE)
			return;
	if (ios_run_warn(c->res, "lab.lose_write=%d: the run completed %" PRIu64 " O_DIRECT data "
			 "write%s: none was dropped", c->lab.lose_write, c->verify->direct_writes,
			 c->verify->direct_writes == 1 ? "" : "s"))
		t->res->error = -ENOMEM;
}

void ios_run_verify_finish(struct run_task *t, uint64_t now)
{
	struct run_vtask *vt = t->vt;
	struct ios_job_result *r = t->res;

	lose_write_missed(t);
	if (!vt || !vt->log)
		return;
	if (vt->phase) {
		vt->verify_ns += now - vt->phase_start_ns;
		vt->phase = false;
	}
	/*
	 * fio's update_runtime: the write direction runs during the write
	 * phases, the read direction of a write-only job during the verify
	 * phases only: none when the job ended before one (fio's runtime
	 * skips do_verify), and one so short it takes no simulated time is
	 * fio's microseconds, rounded up to 1 ms.
	 */
	r->dir[IOS_WRITE].runtime_ns = r->runtime_ns > vt->verify_ns ? r->runtime_ns - vt->verify_ns
								      : 0;
	if (!vt->rw)
		r->dir[IOS_READ].runtime_ns = !vt->phase_ran ? 0
					      : vt->verify_ns ? vt->verify_ns : 1000;
}
