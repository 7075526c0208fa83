/*
 * Description: lab.ttime_back_to_back, Divyesh Shah's proposal in seed 000
 * (docs/cfq.md): CFQ 2.6.31 takes a think-time sample only when the
 * process's previous sync request completed while its queue held the
 * slice and the new request arrives in that same slice. A first request,
 * a request whose think interval began at a completion outside the queue's
 * slice, and one arriving after the slice switched give no sample; a
 * sample that counts is the 2.6.31 one (elapsed since the last completion,
 * capped at 2 * slice_idle). Off (the default), every insert samples as
 * 2.6.31 does, and a run prints the same bytes as without the setting. The
 * consequence the reproduction report measures: a queue whose idle window
 * is off ends its slice at each dispatch, so its completions fall in other
 * queues' slices and it never gets the three samples 2.6.31 needs to give
 * the window back. The knob is refused by the other CFQ profiles and is a
 * warning under a scheduler that is no CFQ.
 */
#include <unistd.h>
#include "sched_cfq_util.h"

static struct t_sq *new_sq(bool b2b)
{
	struct t_sq *s = t_sq_new("cfq", 4, 1, NULL);

	if (s)
		s->q.ttime_back_to_back = b2b;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	return s;
}

/* One process alone: read at 0, done at 1 ms, next read at 3 ms (in its slice, idling). */
static int test_in_slice_sample(void)
{
	for (int b2b = 0; b2b <= 1; b2b++) {
		struct t_sq *s = new_sq(b2b);
		struct cfq_io_cq *cic;
		struct ios_request *r;

		T_ASSERT(s);
		r = cq_read(s, 1, 1000, 0);
		cic = cq_cic(s, 1);
		/* a first request has no previous one: 2.6.31 samples 0 ms, the knob nothing */
		T_ASSERT_U64_EQ(cic->ttime.samples, b2b ? 0 : 32);
		T_ASSERT(t_sq_dispatch(s, 0) == r);
		cq_done(s, r, 1 * MS);
		T_ASSERT(cq_wakeup(s) == 9 * MS);	/* idling for it: the slice goes on */
		cq_read(s, 1, 1008, 3 * MS);
		if (b2b) {
			T_ASSERT_U64_EQ(cic->ttime.samples, 32);
			T_ASSERT_U64_EQ(cic->ttime.total, 256 * 2 * MS / 8);
			T_ASSERT_U64_EQ(cic->ttime.mean, (256 * 2 * MS / 8 + 128) / 32);
		} else {
			T_ASSERT_U64_EQ(cic->ttime.samples, 60);
			T_ASSERT_U64_EQ(cic->ttime.total, (7 * 0 + 256 * 2 * MS) / 8);
		}
		cq_free(s);
	}
	return T_PASS;
}

/*
 * Two processes. Pid 1 reads at 0 and is served; done at 1 ms, CFQ idles,
 * the timer ends its slice at 9 ms and pid 2 (queued at 0) gets the disk.
 * Pid 1's next read arrives at 10 ms, in pid 2's slice: its think interval
 * (9 ms, of which 1 ms is pid 2's slice) spans a slice switch.
 */
static int test_sample_across_slices(void)
{
	for (int b2b = 0; b2b <= 1; b2b++) {
		struct t_sq *s = new_sq(b2b);
		struct cfq_io_cq *cic;
		struct ios_request *r1, *r2, *rq;

		T_ASSERT(s);
		r1 = cq_read(s, 1, 1000, 0);
		r2 = cq_read(s, 2, 90000000, 0);
		T_ASSERT(t_sq_dispatch(s, 0) == r1);
		cq_done(s, r1, 1 * MS);
		T_ASSERT(cq_wakeup(s) == 9 * MS);
		cq_timer(s, 9 * MS);
		rq = t_sq_dispatch(s, 9 * MS);
		T_ASSERT(rq == r2);
		cic = cq_cic(s, 1);
		cq_read(s, 1, 1008, 10 * MS);
		if (b2b) {
			T_ASSERT_U64_EQ(cic->ttime.samples, 0);
		} else {
			T_ASSERT_U64_EQ(cic->ttime.samples, 60);
			T_ASSERT_U64_EQ(cic->ttime.total, (7 * 0 + 256 * 9 * MS) / 8);
		}
		cq_free(s);
	}
	return T_PASS;
}

/*
 * A completion outside the queue's slice starts no back-to-back interval,
 * even when the next request arrives inside one. Pid 1 has reads a and b
 * queued and no idle window; both go to the device, and as pid 1 then has
 * nothing queued and does not idle, pid 2 gets the slice. a completes in
 * pid 2's slice; pid 1's next read c (arriving then) and, once pid 2 has
 * emptied and pid 1 holds the disk again, d (arriving in pid 1's own slice
 * while b is still out) give no sample: their interval began at a's
 * completion, outside pid 1's slice.
 */
static int test_completion_outside_slice(void)
{
	for (int b2b = 0; b2b <= 1; b2b++) {
		struct t_sq *s = new_sq(b2b);
		struct cfq_queue *q1;
		struct cfq_io_cq *cic;
		struct ios_request *a, *b, *c, *r2, *rq;
		uint64_t before;

		T_ASSERT(s);
		a = cq_read(s, 1, 1000, 0);
		b = cq_read(s, 1, 1008, 0);
		cq_read(s, 2, 90000000, 0);
		q1 = cq_queue(s, 1, true);
		q1->flags &= ~CFQ_QF_IDLE_WINDOW;	/* as a seeky start on NCQ leaves it */
		T_ASSERT(t_sq_dispatch(s, 0) == a);
		T_ASSERT(t_sq_dispatch(s, 0) == b);
		r2 = t_sq_dispatch(s, 0);
		T_ASSERT(r2 && r2->ioc->pid == 2);
		T_ASSERT(cq_data(s)->active_queue != q1);
		cic = cq_cic(s, 1);
		cq_done(s, a, 1 * MS);
		T_ASSERT_U64_EQ(cic->ttime_slice, 0);
		before = cic->ttime.samples;
		c = cq_read(s, 1, 1016, 1 * MS + 5 * US);
		T_ASSERT_U64_EQ(cic->ttime.samples, b2b ? before : (7 * before + 256) / 8);
		/* pid 2 empties; b is still in the device, so no idling: pid 1's slice */
		cq_done(s, r2, 2 * MS);
		rq = t_sq_dispatch(s, 2 * MS);
		T_ASSERT(rq == c);
		T_ASSERT(cq_data(s)->active_queue == q1);
		before = cic->ttime.samples;
		cq_read(s, 1, 1024, 2 * MS + 5 * US);
		T_ASSERT_U64_EQ(cic->ttime.samples, b2b ? before : (7 * before + 256) / 8);
		cq_free(s);
	}
	return T_PASS;
}

/*
 * The lock-in. Pid 1 reads sequentially, one request at a time, with its
 * idle window off (as 2.6.31 leaves a queue whose first reads were seeky);
 * pid 2 always has reads queued. The device holds two requests. Without
 * the knob pid 1's samples are valid after three reads and, as it is not
 * seeky, the window comes back; with it, pid 1's every completion falls in
 * pid 2's slice, so it collects no sample and keeps no window.
 */
static int lockin(bool b2b, bool *window, uint64_t *samples, unsigned *served1)
{
	struct t_sq *s = t_sq_new("cfq", 4, 1, "slice_sync=10", NULL);
	struct ios_request *inflight[2];
	uint64_t now = 0, sec1 = 1000, sec2 = 90000000;
	unsigned n = 0, done = 0;

	if (!s)
		return -1;
	s->q.ttime_back_to_back = b2b;
	cq_ioc(1, IOS_IOPRIO_CLASS_BE, 4);
	cq_ioc(2, IOS_IOPRIO_CLASS_BE, 4);
	cq_read(s, 1, sec1, now);
	cq_queue(s, 1, true)->flags &= ~CFQ_QF_IDLE_WINDOW;
	for (int i = 0; i < 3; i++)
		cq_read(s, 2, sec2 += 8, now);
	*served1 = 0;
	while (done < 600) {
		struct ios_request *rq;
		uint32_t pid;

		while (n < 2 && (rq = t_sq_dispatch(s, now)) != NULL)
			inflight[n++] = rq;
		if (!n) {
			uint64_t w = cq_wakeup(s);

			if (w == IOS_NO_WAKEUP)
				break;
			now = w > now ? w : now;
			cq_timer(s, now);
			continue;
		}
		now += MS;
		rq = inflight[0];
		inflight[0] = inflight[1];
		n--;
		pid = rq->ioc->pid;
		cq_done(s, rq, now);
		done++;
		now += 5 * US;
		if (pid == 1) {
			cq_read(s, 1, sec1 += 8, now);
			(*served1)++;
		} else {
			cq_read(s, 2, sec2 += 8, now);
		}
	}
	*window = (cq_queue(s, 1, true)->flags & CFQ_QF_IDLE_WINDOW) != 0;
	*samples = cq_cic(s, 1)->ttime.samples;
	cq_free(s);
	return done == 600 ? 0 : -1;
}

static int test_no_window_no_samples(void)
{
	bool window;
	uint64_t samples;
	unsigned served[2];

	T_ASSERT_EQ(lockin(false, &window, &samples, &served[0]), 0);
	T_ASSERT_MSG(window, "2.6.31: samples %" PRIu64, samples);
	T_ASSERT(samples > 80);
	T_ASSERT_EQ(lockin(true, &window, &samples, &served[1]), 0);
	T_ASSERT_MSG(!window, "knob: samples %" PRIu64, samples);
	T_ASSERT(samples <= 80);
	/* with its window back pid 1 streams in its slices; without, one read a turn */
	printf("    pid 1 served %u of 600 (2.6.31), %u (lab.ttime_back_to_back=1)\n", served[0],
	       served[1]);
	T_ASSERT(served[1] < served[0]);
	return T_PASS;
}

/* ---- through the command line: refused, warned, or byte for byte the same ---- */

static char dir[] = "/tmp/iosched-b2b-XXXXXX";

static char *run(const char *args, int *status)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", t_iosched_bin(), args);
	return t_run_cmd(cmd, status);
}

static int test_cli(void)
{
	char path[256], args[1024];
	char *base, *off, *out;
	int st;
	FILE *f;

	T_ASSERT(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/two.fio", dir);
	f = fopen(path, "w");
	T_ASSERT(f);
	fputs("[global]\ndirect=1\nruntime=300ms\ntime_based\nsize=64m\n"
	      "[seq]\nrw=read\nbs=128k\n[rnd]\nrw=randread\nbs=4k\n", f);
	fclose(f);

	snprintf(args, sizeof(args), "run %s --scheduler cfq --output-format json", path);
	base = run(args, &st);
	T_ASSERT(base && st == 0);
	snprintf(args, sizeof(args), "run %s --scheduler cfq --output-format json "
		 "--set lab.ttime_back_to_back=0", path);
	off = run(args, &st);
	T_ASSERT(off && st == 0);
	T_ASSERT_MSG(!strcmp(base, off), "lab.ttime_back_to_back=0 changed the output");
	free(off);
	free(base);

	snprintf(args, sizeof(args), "run %s --scheduler cfq --set lab.ttime_back_to_back=1", path);
	out = run(args, &st);
	T_ASSERT(out);
	T_ASSERT_MSG(st == 0 && !strstr(out, "warning"), "exit %d:\n%s", st, out);
	free(out);
	snprintf(args, sizeof(args), "run %s --scheduler cfq-2.6.31 --set lab.ttime_back_to_back=1",
		 path);
	out = run(args, &st);
	T_ASSERT(out && st == 0);
	free(out);
	for (int i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), "run %s --scheduler %s --set lab.ttime_back_to_back=1",
			 path, i ? "cfq-4.19" : "cfq-2.6.33");
		out = run(args, &st);
		T_ASSERT(out);
		T_ASSERT_MSG(st == 2 && strstr(out, "lab.ttime_back_to_back=1") &&
			     strstr(out, "2.6.31 profile only"), "exit %d:\n%s", st, out);
		free(out);
	}
	snprintf(args, sizeof(args), "run %s --scheduler cfq --set lab.group_policy=uchida2008 "
		 "--set lab.ttime_back_to_back=1", path);
	out = run(args, &st);
	T_ASSERT(out);
	T_ASSERT_MSG(st == 2 && strstr(out, "cfq+uchida2008"), "exit %d:\n%s", st, out);
	free(out);
	snprintf(args, sizeof(args), "run %s --scheduler deadline --set lab.ttime_back_to_back=1",
		 path);
	out = run(args, &st);
	T_ASSERT(out);
	T_ASSERT_MSG(st == 0 && strstr(out, "warning") &&
		     strstr(out, "lab.ttime_back_to_back=1 has no effect: deadline"),
		     "exit %d:\n%s", st, out);
	free(out);
	snprintf(args, sizeof(args), "run %s --set lab.ttime_back_to_back=2", path);
	out = run(args, &st);
	T_ASSERT(out);
	T_ASSERT_MSG(st == 2 && strstr(out, "ttime_back_to_back"), "exit %d:\n%s", st, out);
	free(out);
	unlink(path);
	rmdir(dir);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_in_slice_sample, test_sample_across_slices, test_completion_outside_slice,
		     test_no_window_no_samples, test_cli);
}
