/*
 * The real host: files and block devices through io_uring, with
 * CLOCK_MONOTONIC as the run's clock (host.h says what a host does).
 *
 * The queue above sees one disk whose sector space holds the run's files,
 * each one contiguous extent (the runner lays them out with lab.fs=raw and
 * attach()es each here), or a block device as the whole disk. issue() maps
 * a request back to (file, offset) and preps one SQE: a read or write of
 * its bytes, an fdatasync of every written file for a cache flush, a hole
 * punched for a discard. Nothing completes inside issue() except a
 * request the host cannot send, which fails at once with its errno, as the
 * simulated device's refusal does.
 *
 * One thread runs everything: the tasks' state machines, the page cache,
 * the queue and the scheduler, as under the simulator. Threads would let
 * two fio jobs burn CPU at once, but every queue call would then need the
 * lock the kernel's queue_lock is, and a scheduler's decisions would
 * depend on which thread won it; with one thread the run is the
 * simulator's code path with only the clock and the disk changed, and a
 * job costs what its requests cost. The price: the tasks' CPU time adds up
 * on one core (bench/ measures how far that is from fio).
 *
 * run() waits for a completion with a timeout at the loop's next event
 * (the tasks' and the scheduler's wake-ups are events on h->loop, as under
 * the simulator), then runs every event that is due with h->loop.now at
 * the clock, never at the event's own earlier stamp: real time does not
 * go back. Data the tasks do not give (every job's: fio's buffers are not
 * modelled) moves through one scratch buffer; an application's bio->data
 * is read into or written from directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include "iosched/block.h"
#include "iosched/host.h"
#include "host_uring_int.h"

static volatile sig_atomic_t hu_signal;

void ios_host_interrupt(int sig)
{
	hu_signal = sig ? sig : SIGINT;
}

int ios_host_interrupted(void)
{
	return hu_signal;
}

#ifdef IOS_HAVE_LIBURING
#include <liburing.h>

/* One request the device has: what user_data points at. */
struct uring_io {
	struct ios_request *rq;
	unsigned pending;		/* SQEs not yet completed (a flush has one per file) */
	int error;			/* the first one's */
	uint64_t done;			/* bytes moved so far (a short transfer goes on) */
	uint64_t at;			/* of which the vector no longer holds (iov[first] on) */
	unsigned nr_iov, first;
	bool own;			/* the request's own buffers, not the scratch one */
	struct iovec iov[];
};

static uint64_t hu_clock(const struct host_uring *hu)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * IOS_NSEC_PER_SEC + (uint64_t)ts.tv_nsec - hu->t0;
}

static uint64_t host_uring_now(struct ios_host *h)
{
	uint64_t t = hu_clock(h->priv);

	/* the loop's clock is the one that never goes back */
	return t < h->loop.now ? h->loop.now : t;
}

static struct io_uring_sqe *hu_sqe(struct host_uring *hu)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&hu->ring);

	if (!sqe) {
		/* the SQ ring is full: hand what is prepared to the kernel first */
		(void)io_uring_submit(&hu->ring);
		sqe = io_uring_get_sqe(&hu->ring);
	}
	return sqe;
}

/* The scratch buffer covers @bytes (grown as requests grow; old ones kept while in use). */
static void *hu_scratch(struct host_uring *hu, uint64_t bytes)
{
	void *p;

	if (bytes <= hu->scratch_bytes)
		return hu->scratch;
	if (posix_memalign(&p, 4096, bytes))
		return NULL;
	/* fio's buffers are not zeros (a drive may compress them): a fixed pattern */
	for (uint64_t i = 0; i < bytes / 8; i++)
		((uint64_t *)p)[i] = ios_hu_mix(i + 0x9e3779b97f4a7c15ULL);
	if (hu->scratch) {
		/* a request in flight may still use it: freed at destroy */
		void **old = realloc(hu->retired, (hu->nr_retired + 1) * sizeof(*old));

		if (!old) {
			free(p);
			return NULL;
		}
		hu->retired = old;
		hu->retired[hu->nr_retired++] = hu->scratch;
	}
	hu->scratch = p;
	hu->scratch_bytes = bytes;
	return p;
}

static void hu_complete(struct ios_host *h, struct uring_io *io, int error)
{
	struct host_uring *hu = h->priv;
	struct ios_request *rq = io->rq;

	hu->inflight--;
	free(io);
	rq->error = error;
	h->loop.now = host_uring_now(h);
	ios_queue_complete(h->q, rq, h->loop.now, error);
}

/*
 * Drop what io->done says has moved from the front of the vector, so that
 * iov[first] on is what is left (each short transfer trims it again: the
 * vector keeps no copy of what it has given up).
 */
static void hu_iov_sync(struct uring_io *io)
{
	uint64_t skip = io->done - io->at;

	while (io->first < io->nr_iov && skip >= io->iov[io->first].iov_len) {
		skip -= io->iov[io->first].iov_len;
		io->first++;
	}
	if (skip) {
		io->iov[io->first].iov_base = (char *)io->iov[io->first].iov_base + skip;
		io->iov[io->first].iov_len -= skip;
	}
	io->at = io->done;
}

/* Prep the transfer of what is left of @io (its first or a short one's rest). */
static int hu_prep_rw(struct host_uring *hu, struct uring_io *io)
{
	struct ios_request *rq = io->rq;
	const struct hu_file *f = ios_hu_file_at(hu, rq->sector);
	uint64_t off = ((rq->sector - f->start) << IOS_SECTOR_SHIFT) + io->done;
	struct io_uring_sqe *sqe = hu_sqe(hu);
	struct iovec *iov;
	unsigned n;

	if (!sqe)
		return -EBUSY;
	/* a short transfer resumes inside the vector */
	hu_iov_sync(io);
	iov = io->iov + io->first;
	n = io->nr_iov - io->first;
	/*
	 * One segment (the common case, a 4 KiB random read) goes as a plain
	 * read/write: the kernel then has no iovec to copy in for each I/O.
	 */
	if (n == 1 && rq->dir == IOS_READ)
		io_uring_prep_read(sqe, f->fd, iov->iov_base, (unsigned)iov->iov_len,
				   f->base + off);
	else if (n == 1)
		io_uring_prep_write(sqe, f->fd, iov->iov_base, (unsigned)iov->iov_len,
				    f->base + off);
	else if (rq->dir == IOS_READ)
		io_uring_prep_readv(sqe, f->fd, iov, n, f->base + off);
	else
		io_uring_prep_writev(sqe, f->fd, iov, n, f->base + off);
	/* a write through the drive cache (FUA, O_SYNC with barriers): durable when done */
	if (rq->dir == IOS_WRITE && (rq->flags & (IOS_REQ_FUA | IOS_REQ_PREFLUSH)))
		sqe->rw_flags = RWF_DSYNC;
	io_uring_sqe_set_data(sqe, io);
	io->pending = 1;
	hu->to_submit++;
	return 0;
}

static struct uring_io *hu_io_rw(struct host_uring *hu, struct ios_request *rq)
{
	unsigned nr = 1;
	bool own = true;
	struct uring_io *io;

	for (struct ios_bio *b = rq->bio; b; b = b->next)
		own &= b->data != NULL;
	if (own)
		nr = rq->nr_bios;
	io = calloc(1, sizeof(*io) + nr * sizeof(io->iov[0]));
	if (!io)
		return NULL;
	io->rq = rq;
	io->nr_iov = nr;
	io->own = own;
	if (own) {
		unsigned i = 0;

		for (struct ios_bio *b = rq->bio; b; b = b->next, i++) {
			io->iov[i].iov_base = b->data;
			io->iov[i].iov_len = (size_t)b->nr_sectors << IOS_SECTOR_SHIFT;
		}
	} else {
		io->iov[0].iov_base = hu_scratch(hu, ios_rq_bytes(rq));
		io->iov[0].iov_len = ios_rq_bytes(rq);
		if (!io->iov[0].iov_base) {
			free(io);
			return NULL;
		}
	}
	return io;
}

/* A cache flush: every file written to is made durable (fdatasync each). */
static int hu_prep_flush(struct host_uring *hu, struct uring_io *io)
{
	for (size_t i = 0; i < hu->nr_files; i++) {
		struct io_uring_sqe *sqe;

		if (!hu->files[i].written)
			continue;
		sqe = hu_sqe(hu);
		if (!sqe)
			return io->pending ? 0 : -EBUSY;
		io_uring_prep_fsync(sqe, hu->files[i].fd, IORING_FSYNC_DATASYNC);
		io_uring_sqe_set_data(sqe, io);
		io->pending++;
		hu->to_submit++;
	}
	return 0;
}

static int hu_prep_discard(struct host_uring *hu, struct uring_io *io)
{
	struct ios_request *rq = io->rq;
	const struct hu_file *f = ios_hu_file_at(hu, rq->sector);
	struct io_uring_sqe *sqe = hu_sqe(hu);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_fallocate(sqe, f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				f->base + ((rq->sector - f->start) << IOS_SECTOR_SHIFT),
				ios_rq_bytes(rq));
	io_uring_sqe_set_data(sqe, io);
	io->pending = 1;
	hu->to_submit++;
	return 0;
}

static void host_uring_issue(struct ios_host *h, struct ios_request *rq, uint64_t now_ns)
{
	struct host_uring *hu = h->priv;
	struct uring_io *io;
	int ret;

	(void)now_ns;
	if (rq->nr_sectors && !ios_hu_file_at(hu, rq->sector)) {
		ios_hu_fault(hu, "request at sector %" PRIu64 " (+%u) is in no attached file",
			     rq->sector, rq->nr_sectors);
		ret = -EIO;
		goto refuse;
	}
	if (!rq->nr_sectors || (rq->flags & IOS_REQ_DISCARD))
		io = calloc(1, sizeof(*io));
	else
		io = hu_io_rw(hu, rq);
	if (!io) {
		ret = -ENOMEM;
		goto refuse;
	}
	io->rq = rq;
	if (!rq->nr_sectors)
		ret = hu_prep_flush(hu, io);
	else if (rq->flags & IOS_REQ_DISCARD)
		ret = hu_prep_discard(hu, io);
	else
		ret = hu_prep_rw(hu, io);
	if (ret) {
		free(io);
		goto refuse;
	}
	hu->inflight++;
	if (!io->pending) {
		/* a flush with nothing written: done at once, as a drive with a clean cache */
		hu_complete(h, io, 0);
		return;
	}
	if (rq->dir == IOS_WRITE && rq->nr_sectors)
		ios_hu_file_at(hu, rq->sector)->written = true;
	return;
refuse:
	rq->error = ret;
	ios_queue_complete(h->q, rq, now_ns, ret);
}

/*
 * A read that stopped at the end the file had when it was attached: the
 * rest of a file's last page, which the queue reads whole (a buffered
 * job's page-cache miss) when the file's size is not a multiple of it.
 * The kernel's page cache reads such a page too, with zeros past i_size;
 * fio's own read there is a short one, not an error. An end that came
 * earlier (the file truncated during the run) is still a fault.
 */
static bool hu_read_at_eof(struct host_uring *hu, const struct uring_io *io)
{
	const struct ios_request *rq = io->rq;
	const struct hu_file *f = ios_hu_file_at(hu, rq->sector);

	return rq->dir == IOS_READ && f &&
	       f->base + ((rq->sector - f->start) << IOS_SECTOR_SHIFT) + io->done >= f->eof;
}

static void hu_cqe(struct ios_host *h, struct uring_io *io, int res)
{
	struct host_uring *hu = h->priv;
	struct ios_request *rq = io->rq;

	if (res < 0 && !io->error) {
		io->error = res;
		if (rq->nr_sectors)
			ios_hu_fault_rq(hu, rq, -res);
	}
	if (--io->pending)
		return;
	if (!io->error && rq->nr_sectors && !(rq->flags & IOS_REQ_DISCARD)) {
		io->done += (uint64_t)res;
		if (io->done < ios_rq_bytes(rq)) {
			if (hu_read_at_eof(hu, io)) {
				/* the page past the end: read as the kernel's page cache reads it */
				hu_iov_sync(io);
				for (unsigned i = io->first; io->own && i < io->nr_iov; i++)
					memset(io->iov[i].iov_base, 0, io->iov[i].iov_len);
			} else if (res == 0) {
				/* the file ends before the extent the queue believes in */
				ios_hu_fault_short(hu, rq, io->done);
				io->error = -EIO;
			} else if (!hu_prep_rw(hu, io)) {
				return;	/* the rest goes on, as a partial bio completion would */
			} else {
				io->error = -EIO;
			}
		}
	}
	hu_complete(h, io, io->error);
}

/* Run every event whose time has come, the clock read before each. */
static void hu_run_due(struct ios_host *h)
{
	struct ios_sim *s = &h->loop;
	struct ios_event ev;

	while (!s->stop && !s->error) {
		s->now = host_uring_now(h);
		if (ios_evq_peek_time(&s->evq) > s->now || !ios_evq_pop(&s->evq, &ev))
			break;
		s->nr_events++;
		ev.fn(s, ev.arg, ev.data);
		if (s->tick && s->nr_events >= s->next_tick) {
			s->next_tick = s->nr_events + s->tick_every;
			s->tick(s, s->tick_arg);
		}
	}
}

/* Reap what has completed; wait until @deadline (loop time) for the first one. */
static int hu_reap(struct ios_host *h, uint64_t deadline)
{
	struct host_uring *hu = h->priv;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	int ret;

	if (hu->to_submit) {
		ret = io_uring_submit(&hu->ring);
		/* a signal (SIGINT under --real): the loop sees it, and submits again */
		if (ret == -EINTR)
			return 0;
		if (ret < 0)
			return ret;
		hu->to_submit = 0;
	}
	if (deadline == IOS_NO_WAKEUP) {
		ret = io_uring_wait_cqe(&hu->ring, &cqe);
	} else {
		uint64_t now = host_uring_now(h);
		uint64_t wait = deadline > now ? deadline - now : 0;
		struct __kernel_timespec ts = {
			.tv_sec = (long long)(wait / IOS_NSEC_PER_SEC),
			.tv_nsec = (long long)(wait % IOS_NSEC_PER_SEC),
		};

		ret = wait ? io_uring_wait_cqe_timeout(&hu->ring, &cqe, &ts)
			   : io_uring_peek_cqe(&hu->ring, &cqe);
	}
	if (ret == -ETIME || ret == -EAGAIN || ret == -EINTR)
		return 0;
	if (ret < 0)
		return ret;
	io_uring_for_each_cqe(&hu->ring, head, cqe) {
		struct uring_io *io = io_uring_cqe_get_data(cqe);
		int res = cqe->res;

		n++;
		io_uring_cq_advance(&hu->ring, 1);
		/* a kernel without IORING_FEAT_EXT_ARG: liburing's own timeout SQE */
		if (io && cqe->user_data != LIBURING_UDATA_TIMEOUT)
			hu_cqe(h, io, res);
		if (h->loop.stop || h->loop.error)
			break;
	}
	return 0;
}

static int host_uring_run(struct ios_host *h)
{
	struct host_uring *hu = h->priv;
	struct ios_sim *s = &h->loop;
	int ret;

	s->stop = false;
	while (!s->stop && !s->error) {
		/* (a wait below returns early with EINTR: the signal is seen here) */
		if (hu_signal && !hu->interrupted) {
			hu->interrupted = true;
			s->now = host_uring_now(h);
			if (h->interrupt)
				h->interrupt(h, h->interrupt_arg);
		}
		hu_run_due(h);
		if (s->stop || s->error)
			break;
		if (!s->evq.n && !hu->inflight && !hu->to_submit)
			break;
		if (!hu->inflight && !hu->to_submit) {
			/* nothing on the disk: sleep until the next wake-up */
			uint64_t next = ios_evq_peek_time(&s->evq), now = host_uring_now(h);

			if (next > now) {
				struct timespec ts = {
					.tv_sec = (time_t)((next - now) / IOS_NSEC_PER_SEC),
					.tv_nsec = (long)((next - now) % IOS_NSEC_PER_SEC),
				};

				nanosleep(&ts, NULL);
			}
			continue;
		}
		ret = hu_reap(h, ios_evq_peek_time(&s->evq));
		if (ret) {
			s->error = ret;
			return ret;
		}
	}
	return s->error;
}

static int host_uring_init(struct ios_host *h, const struct ios_host_config *cfg,
			   struct ios_err *e)
{
	struct host_uring *hu = h->priv;
	struct timespec ts;
	unsigned entries;
	int ret;

	hu->ring_fd = -1;
	hu->host = h;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	hu->t0 = (uint64_t)ts.tv_sec * IOS_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	ret = ios_hu_probe_disk(h, cfg, e);
	if (ret)
		return ret;
	/* room for a full device queue, and a flush's fsyncs beside it */
	for (entries = 64; entries < 2 * h->disk.depth && entries < 4096; entries <<= 1)
		;
	ret = io_uring_queue_init(entries, &hu->ring, 0);
	if (ret) {
		ios_hu_probe_free(hu);
		return IOS_ERR(e, ret, "io_uring_queue_init(%u): %s (is io_uring disabled? "
			       "/proc/sys/kernel/io_uring_disabled)", entries, strerror(-ret));
	}
	hu->ring_fd = hu->ring.ring_fd;
	return 0;
}

static void host_uring_destroy(struct ios_host *h)
{
	struct host_uring *hu = h->priv;

	if (hu->ring_fd >= 0) {
		/* the runner only destroys an idle host, but a failed run may not be */
		while (hu->inflight) {
			struct io_uring_cqe *cqe;

			if (hu->to_submit) {
				(void)io_uring_submit(&hu->ring);
				hu->to_submit = 0;
			}
			if (io_uring_wait_cqe(&hu->ring, &cqe))
				break;
			free(io_uring_cqe_get_data(cqe));
			io_uring_cqe_seen(&hu->ring, cqe);
			hu->inflight--;
		}
		io_uring_queue_exit(&hu->ring);
	}
	free(hu->scratch);
	for (size_t i = 0; i < hu->nr_retired; i++)
		free(hu->retired[i]);
	free(hu->retired);
	ios_hu_probe_free(hu);
}

const struct ios_host_ops ios_host_uring_ops = {
	.name = "uring",
	.priv_size = sizeof(struct host_uring),
	.init = host_uring_init,
	.destroy = host_uring_destroy,
	.now = host_uring_now,
	.issue = host_uring_issue,
	.set_queue_timer = ios_host_loop_set_queue_timer,
	.run = host_uring_run,
	.attach = ios_hu_attach,
	.disk_stats = ios_hu_disk_stats,
};

#else /* !IOS_HAVE_LIBURING */

static int host_uring_init(struct ios_host *h, const struct ios_host_config *cfg,
			   struct ios_err *e)
{
	(void)h;
	(void)cfg;
	return IOS_ERR(e, -ENOTSUP, "--real: this iosched was built without liburing "
		       "(install liburing-dev and rebuild)");
}

static void host_uring_destroy(struct ios_host *h)
{
	(void)h;
}

static uint64_t host_uring_now(struct ios_host *h)
{
	return h->loop.now;
}

static void host_uring_issue(struct ios_host *h, struct ios_request *rq, uint64_t now_ns)
{
	ios_queue_complete(h->q, rq, now_ns, -ENOTSUP);
}

static void host_uring_set_queue_timer(struct ios_host *h, uint64_t when_ns)
{
	(void)h;
	(void)when_ns;
}

static int host_uring_run(struct ios_host *h)
{
	(void)h;
	return -ENOTSUP;
}

const struct ios_host_ops ios_host_uring_ops = {
	.name = "uring",
	.init = host_uring_init,
	.destroy = host_uring_destroy,
	.now = host_uring_now,
	.issue = host_uring_issue,
	.set_queue_timer = host_uring_set_queue_timer,
	.run = host_uring_run,
};

#endif
