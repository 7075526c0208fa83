/*
 * Description: seed 000's four dd readers (examples/seeds/a1-four-dd-readers.fio
 * with the files laid out by the job, no lab.file_size) under BFQ on
 * hdd-2009, seeds 1 and 3: the half-second in which one reader has the disk
 * to itself as the readers' weight raising ends, pinned as what BFQ 4.19
 * does (docs/bfq.md, "A1 with the files laid out by the job").
 *
 * The hold is the drive's, not BFQ's:
 *  - raising ends at a dispatch (bfq_update_wr_data from
 *    bfq_dispatch_rq_from_bfqq); the now unraised queue, empty with its
 *    request in flight, is not idled for (bfq_better_to_idle: other queues
 *    are still raised, and raised queues do not count in the symmetric
 *    scenario), so it expires no_more_requests and the next queue is
 *    dispatched at once: three readers' requests end up in the drive;
 *  - the drive's SATF keeps serving the fourth reader's sequential stream
 *    and leaves those three requests until its age limit
 *    (ncq_age_limit_ms=500) forces them;
 *  - meanwhile the fourth reader's queue is the only busy one in BFQ and
 *    gets budget after budget, each slot within the 125 ms budget timeout.
 * Controls: with device.ncq_age_limit_ms=100 or with strict_guarantees=1
 * (one request in the drive at a time, 4.19's own remedy) no request waits
 * long in the drive and the four finish together.
 */
#include <stdlib.h>
#include <string.h>
#include "harness.h"

#define SEED000 "examples/seeds/a1-four-dd-readers.fio"
#define NSEC_MS 1000000ULL
#define MAX_EV 65536

struct ev {
	uint64_t t;
	uint32_t pid;
	char kind;		/* 's' set_in_service, 'e' expire, 'c' completion */
	unsigned wr;		/* 's': wr_coeff at the slot's start */
	char reason[24];	/* 'e' */
	uint64_t bytes;		/* 'c' */
};

struct hold_log {
	struct ev *ev;
	size_t n;
	bool overflow;
	/* the request that waited longest in the drive */
	uint64_t max_wait, wait_d, wait_c;
	uint32_t wait_pid;
};

static struct ev *ev_add(struct hold_log *l)
{
	if (l->n == MAX_EV) {
		l->overflow = true;
		return NULL;
	}
	memset(&l->ev[l->n], 0, sizeof(l->ev[0]));
	return &l->ev[l->n++];
}

static void on_event(void *priv, struct ios_queue *q, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct hold_log *l = priv;
	struct ev *e;

	(void)q;
	(void)bio;
	if (a != IOS_TA_COMPLETE || !rq || !rq->ioc)
		return;
	if (now - rq->dispatch_ns > l->max_wait) {
		l->max_wait = now - rq->dispatch_ns;
		l->wait_d = rq->dispatch_ns;
		l->wait_c = now;
		l->wait_pid = rq->ioc->pid;
	}
	e = ev_add(l);
	if (e) {
		e->t = now;
		e->pid = rq->ioc->pid;
		e->kind = 'c';
		e->bytes = (uint64_t)rq->nr_sectors << 9;
	}
}

/* BFQ's trace messages: "bfq1000S set_in_service budget 1024 wr 30 weight 2400",
 * "bfq1000S expire no_more_requests service 512 ..." */
static void on_message(void *priv, struct ios_queue *q, uint64_t now, const char *msg)
{
	struct hold_log *l = priv;
	unsigned pid, wr, w;
	int budget;
	char sync, reason[24];
	struct ev *e;

	(void)q;
	if (sscanf(msg, "bfq%u%c set_in_service budget %d wr %u weight %u", &pid, &sync, &budget,
		   &wr, &w) == 5) {
		e = ev_add(l);
		if (e) {
			e->t = now;
			e->pid = pid;
			e->kind = 's';
			e->wr = wr;
		}
	} else if (sscanf(msg, "bfq%u%c expire %23s", &pid, &sync, reason) == 3) {
		e = ev_add(l);
		if (e) {
			e->t = now;
			e->pid = pid;
			e->kind = 'e';
			snprintf(e->reason, sizeof(e->reason), "%s", reason);
		}
	}
}

static const struct ios_trace_ops hold_ops = { .event = on_event, .message = on_message };

struct a1_result {
	struct hold_log log;
	uint64_t finish[4];
	uint32_t pid[4];
};

static int a1_run(uint64_t seed, const char *kv, struct a1_result *out)
{
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_result r;
	struct ios_err e = { 0 };
	int ret;

	memset(out, 0, sizeof(*out));
	out->log.ev = calloc(MAX_EV, sizeof(struct ev));
	if (!out->log.ev)
		return -1;
	ios_job_parse_opts_init(&po);
	if (ios_job_parse_file(SEED000, &po, &jf, &e)) {
		fprintf(stderr, "parse %s: %s\n", SEED000, e.msg);
		return -1;
	}
	if (kv && ios_settings_add_kv(&set, kv, "test", &e)) {
		fprintf(stderr, "%s\n", e.msg);
		ios_jobfile_free(&jf);
		return -1;
	}
	cfg.scheduler = "bfq";
	cfg.device = "hdd-2009";
	cfg.seed = seed;
	cfg.settings = &set;
	cfg.trace_ops = &hold_ops;
	cfg.trace = &out->log;
	ret = ios_run(&jf, &cfg, &r, &e);
	ios_settings_free(&set);
	if (ret) {
		fprintf(stderr, "run: %s\n", e.msg);
		ios_jobfile_free(&jf);
		return -1;
	}
	ret = r.nr_jobs == 4 ? 0 : -1;
	for (size_t i = 0; i < r.nr_jobs && i < 4; i++) {
		out->finish[i] = r.jobs[i].finish_ns;
		out->pid[i] = r.jobs[i].pid;
		if (r.jobs[i].dir[IOS_READ].io_bytes != 234179072ULL)
			ret = -1;
	}
	ios_run_result_free(&r);
	ios_jobfile_free(&jf);
	return out->log.overflow ? -1 : ret;
}

static double spread(const struct a1_result *a)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (int i = 0; i < 4; i++) {
		lo = a->finish[i] < lo ? a->finish[i] : lo;
		hi = a->finish[i] > hi ? a->finish[i] : hi;
	}
	return (double)(hi - lo) / (double)hi;
}

/* The longest service slot of a queue that started it unraised, in ns. */
static uint64_t longest_unraised_slot(const struct hold_log *l, uint64_t *at)
{
	uint64_t best = 0, start = 0;
	unsigned wr = 0;
	bool open = false;

	for (size_t i = 0; i < l->n; i++) {
		const struct ev *e = &l->ev[i];

		if (e->kind == 's') {
			open = true;
			start = e->t;
			wr = e->wr;
		} else if (e->kind == 'e' && open) {
			open = false;
			if (wr == 1 && e->t - start > best) {
				best = e->t - start;
				*at = start;
			}
		}
	}
	return best;
}

static int check_hold(uint64_t seed)
{
	struct a1_result a;
	const struct hold_log *l = &a.log;
	uint64_t holder_bytes = 0, other_bytes = 0, slot_at = 0, slot, others_min = UINT64_MAX;
	uint32_t holder = 0;
	unsigned holder_slots = 0, other_slots = 0;
	bool raised_slot_expired_empty = false, next_slot_unraised = false;
	int hi = -1;

	T_ASSERT_EQ(a1_run(seed, NULL, &a), 0);
	/* the drive held one reader's request for its age limit */
	printf("    seed %llu: longest wait in the drive %.1f ms (pid %u, %.3f-%.3f s)\n",
	       (unsigned long long)seed, l->max_wait / 1e6, l->wait_pid, l->wait_d / 1e9,
	       l->wait_c / 1e9);
	T_ASSERT_MSG(l->max_wait >= 450 * NSEC_MS && l->max_wait <= 560 * NSEC_MS,
		     "longest wait in the drive %.1f ms, want 450-560 (the 500 ms age limit, "
		     "then the aged requests one after another)", l->max_wait / 1e6);

	/* over that wait, one other reader alone had its requests completed */
	for (size_t i = 0; i < l->n; i++) {
		const struct ev *e = &l->ev[i];

		if (e->kind != 'c' || e->t <= l->wait_d || e->t >= l->wait_c || e->pid == l->wait_pid)
			continue;
		if (!holder)
			holder = e->pid;
		if (e->pid == holder)
			holder_bytes += e->bytes;
		else
			other_bytes += e->bytes;
	}
	printf("    seed %llu: pid %u got %.1f MB meanwhile, the others %.1f MB\n",
	       (unsigned long long)seed, holder, holder_bytes / 1e6, other_bytes / 1e6);
	T_ASSERT_MSG(holder && other_bytes * 20 <= holder_bytes,
		     "pid %u %.1f MB, others %.1f MB: want one reader with >= 95 %%", holder,
		     holder_bytes / 1e6, other_bytes / 1e6);

	/* BFQ: the holder got budget after budget, nobody else was in service */
	for (size_t i = 0; i < l->n; i++) {
		const struct ev *e = &l->ev[i];

		if (e->kind != 's' || e->t <= l->wait_d || e->t >= l->wait_c)
			continue;
		if (e->pid == holder)
			holder_slots++;
		else
			other_slots++;
	}
	printf("    seed %llu: %u slots of pid %u in the wait, %u of others\n",
	       (unsigned long long)seed, holder_slots, holder, other_slots);
	T_ASSERT_MSG(holder_slots >= 3 && other_slots == 0,
		     "%u slots of the holder, %u of others: want >= 3 and 0", holder_slots,
		     other_slots);

	/* and never past its budget timeout: no unraised slot over 125 ms + 10 ms */
	slot = longest_unraised_slot(l, &slot_at);
	printf("    seed %llu: longest unraised slot %.1f ms (at %.3f s)\n",
	       (unsigned long long)seed, slot / 1e6, slot_at / 1e9);
	T_ASSERT_MSG(slot <= 135 * NSEC_MS,
		     "an unraised slot of %.1f ms at %.3f s, want <= timeout_sync 125 ms + 10 ms",
		     slot / 1e6, slot_at / 1e9);

	/*
	 * How the waiting request got there: its queue's slot started raised,
	 * raising ended at that dispatch, and the slot ended no_more_requests
	 * at the same instant (not idled for); its next slot is unraised.
	 */
	for (size_t i = 0; i < l->n; i++) {
		const struct ev *e = &l->ev[i];

		if (e->pid != l->wait_pid || e->kind != 's')
			continue;
		if (e->t <= l->wait_d && e->wr > 1) {
			for (size_t j = i + 1; j < l->n; j++) {
				const struct ev *x = &l->ev[j];

				if (x->kind == 'e' && x->pid == l->wait_pid) {
					raised_slot_expired_empty =
						x->t == l->wait_d && !strcmp(x->reason, "no_more_requests");
					break;
				}
			}
		} else if (e->t > l->wait_d) {
			next_slot_unraised = e->wr == 1;
			break;
		}
	}
	T_ASSERT_MSG(raised_slot_expired_empty && next_slot_unraised,
		     "the waiting request's slot: raised and expired no_more_requests at its "
		     "dispatch %d, next slot unraised %d", raised_slot_expired_empty,
		     next_slot_unraised);

	/* the symptom reported: the holder finishes well before the others */
	for (int i = 0; i < 4; i++) {
		if (a.pid[i] == holder)
			hi = i;
		else
			others_min = a.finish[i] < others_min ? a.finish[i] : others_min;
	}
	T_ASSERT(hi >= 0);
	printf("    seed %llu: holder finishes at %.2f s, the others from %.2f s\n",
	       (unsigned long long)seed, a.finish[hi] / 1e9, others_min / 1e9);
	T_ASSERT_MSG(a.finish[hi] * 100 <= others_min * 92,
		     "holder %.2f s, others from %.2f s: want >= 8 %% earlier", a.finish[hi] / 1e9,
		     others_min / 1e9);
	free(a.log.ev);
	return T_PASS;
}

static int test_hold_seed1(void)
{
	return check_hold(1);
}

static int test_hold_seed3(void)
{
	return check_hold(3);
}

/* Without the drive's long aging, or with one request in it, no hold. */
static int test_controls(void)
{
	static const char *const kv[] = { "device.ncq_age_limit_ms=100", "strict_guarantees=1" };

	for (int k = 0; k < 2; k++) {
		for (uint64_t seed = 1; seed <= 3; seed += 2) {
			struct a1_result a;

			T_ASSERT_EQ(a1_run(seed, kv[k], &a), 0);
			printf("    %s seed %llu: longest wait in the drive %.1f ms, spread %.1f%%\n",
			       kv[k], (unsigned long long)seed, a.log.max_wait / 1e6,
			       100 * spread(&a));
			T_ASSERT_MSG(a.log.max_wait <= 200 * NSEC_MS,
				     "%s: a request waited %.1f ms in the drive, want <= 200", kv[k],
				     a.log.max_wait / 1e6);
			T_ASSERT_MSG(spread(&a) <= 0.05, "%s: spread %.1f%%, want <= 5 %%", kv[k],
				     100 * spread(&a));
			free(a.log.ev);
		}
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_hold_seed1, test_hold_seed3, test_controls);
}
