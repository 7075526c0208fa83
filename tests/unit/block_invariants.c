/*
 * Description: the invariants of a request's and a bio's life abort with a
 * message that says what broke, instead of corrupting the run: a request
 * completed twice, dispatched from the device back into it, a bio
 * submitted while still in flight, an event scheduled before the clock.
 * Each violation runs in a child process, which must die of SIGABRT with
 * "invariant violated" and the detail on stderr. A clean life (submit,
 * merge, dispatch, complete, destroy) passes the same checks, and the
 * counters they rest on add up.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"

/* Run @fn in a child; true when it aborted with @needle on stderr. */
static bool aborts_with(void (*fn)(void), const char *needle)
{
	int pipefd[2], status;
	char buf[4096];
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pipefd))
		return false;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		close(pipefd[0]);
		dup2(pipefd[1], 2);
		fn();
		_exit(0);	/* no abort: the invariant did not fire */
	}
	close(pipefd[1]);
	while (len < sizeof(buf) - 1 && (n = read(pipefd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return false;
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT) {
		fprintf(stderr, "child did not abort (status %d); stderr: %s\n", status, buf);
		return false;
	}
	if (!strstr(buf, "invariant violated") || !strstr(buf, needle)) {
		fprintf(stderr, "abort message lacks '%s': %s\n", needle, buf);
		return false;
	}
	return true;
}

static void complete_twice(void)
{
	struct t_rig *r = t_rig_new("noop", 2, 1, NULL);
	struct ios_request *rq;
	int ret;

	t_submit(r, t_ioc(1), 100, 8, IOS_READ, 0, 0, &ret);
	t_submit(r, t_ioc(1), 5000, 8, IOS_READ, 0, 0, &ret);
	rq = r->issued[0];
	ios_queue_complete(r->q, rq, 1000, 0);
	ios_queue_complete(r->q, rq, 2000, 0);	/* the device reports it again */
}

static void submit_in_flight(void)
{
	struct t_rig *r = t_rig_new("deadline", 1, 1, NULL);
	struct ios_bio *bio;
	int ret;

	bio = t_submit(r, t_ioc(1), 100, 8, IOS_READ, 0, 0, &ret);
	ios_queue_submit_bio(r->q, bio, 10);	/* the owner reuses it too early */
}

static void noop_event(struct ios_sim *s, void *arg, uint64_t data)
{
	(void)arg;
	(void)data;
	ios_sim_at(s, s->now - 1, noop_event, NULL, 0);
}

static void event_in_past(void)
{
	struct ios_sim sim;

	if (ios_sim_init(&sim))
		return;
	ios_sim_at(&sim, 1000, noop_event, NULL, 0);
	ios_sim_run(&sim, IOS_NO_WAKEUP);
}

static int test_violations_abort(void)
{
	T_ASSERT(aborts_with(complete_twice, "completed while free"));
	T_ASSERT(aborts_with(submit_in_flight, "submitted while already in flight"));
	T_ASSERT(aborts_with(event_in_past, "event scheduled in the past"));
	return T_PASS;
}

static int test_clean_life_adds_up(void)
{
	static const char *const scheds[] = { "noop", "deadline", "as", "cfq", "cfq-4.19", "bfq" };

	for (size_t i = 0; i < IOS_ARRAY_SIZE(scheds); i++) {
		struct t_rig *r = t_rig_new(scheds[i], 1, 1, NULL);
		struct ios_ioc *ioc = t_ioc(10 + (uint32_t)i);
		uint64_t now = 0;
		int ret;

		T_ASSERT(r);
		/* two back-merged bios, one separate request, one write */
		t_submit(r, ioc, 100, 8, IOS_READ, 0, now, &ret);
		t_submit(r, ioc, 1000, 8, IOS_READ, 0, now, &ret);
		t_submit(r, ioc, 1008, 8, IOS_READ, 0, now, &ret);
		t_submit(r, ioc, 50000, 8, IOS_WRITE, 0, now, &ret);
		T_ASSERT_EQ(ioc->nr_requests, 3);
		for (int guard = 0; t_in_device(r) || r->q->nr_sorted; guard++) {
			T_ASSERT(guard < 100);
			now += 1000000;
			if (t_complete_next(r, now))
				continue;
			T_ASSERT(r->timer_at != IOS_NO_WAKEUP);
			if (r->timer_at > now)
				now = r->timer_at;
			t_fire_timer(r, now);
		}
		T_ASSERT_EQ(r->q->nr_bios_in, 4);
		T_ASSERT_EQ(r->q->nr_bios_done, 4);
		T_ASSERT_EQ(r->nr_done, 4);
		T_ASSERT_EQ(r->q->nr_allocated, 3);
		T_ASSERT_EQ(r->q->nr_freed, 3);
		T_ASSERT_EQ(ioc->nr_requests, 0);
		t_rig_free(r);	/* destroy checks the same books */
	}
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_violations_abort, test_clean_life_adds_up);
}
