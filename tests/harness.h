/*
 * Test harness: one small program per test (tests/unit/NAME.c), exit code
 * 0 pass, 1 fail, 77 skip, as liburing's tests do.
 *
 *	static int test_fifo_order(void) { ...; T_ASSERT(x == 3); return T_PASS; }
 *	int main(void) { return T_RUN(test_fifo_order, test_other); }
 *
 * The scheduler rig (struct t_rig) builds a real block-layer queue with a
 * chosen scheduler over a fake device that only records what it is given:
 * tests submit bios at chosen times, complete requests at chosen times, and
 * read back the dispatch order and the armed timer. No simulator, no device
 * model, a fake clock that is just the now_ns the test passes.
 */
#ifndef IOSCHED_TEST_HARNESS_H
#define IOSCHED_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "iosched/ios.h"

#define T_PASS 0
#define T_FAIL 1
#define T_SKIP 77

void t_report(const char *file, int line, const char *fmt, ...) IOS_PRINTF(3, 4);

/* Fail the current test function (return T_FAIL) when @cond is false. */
#define T_ASSERT(cond)                                                     \
	do {                                                               \
		if (!(cond)) {                                             \
			t_report(__FILE__, __LINE__, "assertion failed: %s", #cond); \
			return T_FAIL;                                     \
		}                                                          \
	} while (0)

#define T_ASSERT_MSG(cond, ...)                                            \
	do {                                                               \
		if (!(cond)) {                                             \
			t_report(__FILE__, __LINE__, __VA_ARGS__);         \
			return T_FAIL;                                     \
		}                                                          \
	} while (0)

#define T_ASSERT_EQ(a, b)                                                  \
	do {                                                               \
		long long _a = (long long)(a), _b = (long long)(b);        \
		if (_a != _b) {                                            \
			t_report(__FILE__, __LINE__, "%s == %s failed: %lld != %lld", \
				 #a, #b, _a, _b);                          \
			return T_FAIL;                                     \
		}                                                          \
	} while (0)

#define T_ASSERT_U64_EQ(a, b)                                              \
	do {                                                               \
		uint64_t _a = (uint64_t)(a), _b = (uint64_t)(b);           \
		if (_a != _b) {                                            \
			t_report(__FILE__, __LINE__, "%s == %s failed: %" PRIu64 " != %" PRIu64, \
				 #a, #b, _a, _b);                          \
			return T_FAIL;                                     \
		}                                                          \
	} while (0)

/* |a - b| <= tol */
#define T_ASSERT_NEAR(a, b, tol)                                           \
	do {                                                               \
		double _a = (double)(a), _b = (double)(b), _t = (double)(tol); \
		if (!(_a - _b <= _t && _b - _a <= _t)) {                   \
			t_report(__FILE__, __LINE__, "%s ~= %s failed: %g vs %g (tol %g)", \
				 #a, #b, _a, _b, _t);                      \
			return T_FAIL;                                     \
		}                                                          \
	} while (0)

typedef int (*t_test_fn)(void);
struct t_case {
	const char *name;
	t_test_fn fn;
};
int t_run_cases(const char *prog, const struct t_case *cases, size_t n);

#define T_CASE(fn) { #fn, fn }
#define T_RUN(...)                                                         \
	t_run_fns(__FILE__, (const t_test_fn[]){ __VA_ARGS__ },            \
		  sizeof((const t_test_fn[]){ __VA_ARGS__ }) / sizeof(t_test_fn), \
		  #__VA_ARGS__)
int t_run_fns(const char *prog, const t_test_fn *fns, size_t n, const char *names);

/* ---- io contexts and bios ---- */

/* A task context with pid @pid, best-effort class, level 4 unless changed. */
struct ios_ioc *t_ioc(uint32_t pid);
/* Root cgroup shared by every t_ioc. */
extern struct ios_cgroup t_root_cgroup;

/* ---- the scheduler rig ---- */

#define T_RIG_MAX 4096

struct t_rig {
	struct ios_queue *q;
	struct ios_settings settings;
	/* requests in the fake device, in dispatch order */
	struct ios_request *issued[T_RIG_MAX];
	size_t nr_issued;
	/* bios that completed (end_io ran), in completion order */
	struct ios_bio *done[T_RIG_MAX];
	size_t nr_done;
	uint64_t timer_at;	/* last timer the queue asked for */
	unsigned nr_timer_sets;
};

/*
 * Build a rig: scheduler @sched ("deadline"), @depth device tags,
 * rotational or not, and optional "name=value" settings ending in NULL.
 * Returns NULL and prints the error on failure.
 */
struct t_rig *t_rig_new(const char *sched, unsigned depth, int rotational, ...);
void t_rig_free(struct t_rig *r);
/*
 * Submit a bio of @nr_sectors at @sector from @ioc at @now. Returns the
 * bio (owned by the rig). ret (may be NULL) gets ios_queue_submit_bio's
 * result.
 */
struct ios_bio *t_submit(struct t_rig *r, struct ios_ioc *ioc, uint64_t sector,
			 uint32_t nr_sectors, int dir, uint32_t flags, uint64_t now, int *ret);
/* Complete the @i-th issued request (index into issued[]) at @now. */
void t_complete(struct t_rig *r, size_t i, uint64_t now);
/* Complete the oldest issued request still in the device. Returns it or NULL. */
struct ios_request *t_complete_next(struct t_rig *r, uint64_t now);
/* Fire the queue's timer at @now (as the host would). */
void t_fire_timer(struct t_rig *r, uint64_t now);
/* Number of issued requests not yet completed. */
unsigned t_in_device(const struct t_rig *r);

/* ---- direct scheduler queue (no block layer) ---- */

/*
 * A hand-built struct ios_queue for calling one scheduler's hooks directly:
 * private area of priv_size bytes, tunable defaults, then the optional
 * "name=value" settings (NULL-terminated), then init(). The helpers keep the
 * queue counters a scheduler may read (nr_sorted, rq_in_driver, in_flight[])
 * as the block layer would. Merges are left to the test, which calls the
 * merge hooks itself. Returns NULL and prints the error on failure.
 * (@rotational is an int: va_start after a bool parameter is undefined.)
 */
struct t_sq {
	struct ios_queue q;
	const struct ios_sched_type *type;
	struct ios_request **rqs;	/* every request built, freed with the queue */
	size_t nr_rqs, cap_rqs;
	struct ios_ioc *ioc;		/* used by t_sq_rq: t_ioc(1) unless changed */
};

struct t_sq *t_sq_new(const char *sched, unsigned depth, int rotational, ...);
/* Drain (dispatch with IOS_DISPATCH_FORCE and complete), exit(), free. */
void t_sq_free(struct t_sq *s);
/* A fresh request (not inserted): one bio-less request of @nr_sectors at @sector. */
struct ios_request *t_sq_rq(struct t_sq *s, uint64_t sector, uint32_t nr_sectors, int dir,
			    uint32_t flags);
/* t_sq_rq + insert(now, 0). */
struct ios_request *t_sq_insert(struct t_sq *s, uint64_t sector, uint32_t nr_sectors, int dir,
				uint64_t now);
/* dispatch(now, 0); the request counts as in the driver. NULL: nothing. */
struct ios_request *t_sq_dispatch(struct t_sq *s, uint64_t now);
/*
 * The device finished @rq: completed(), then (blk-mq schedulers) finish_request().
 * For a blk-mq scheduler t_sq_new also sets nr_hw_queues = nr_cpus = 1 and
 * nr_requests = 2 * min(depth, 128), calls init_hctx(0) and depth_updated()
 * after init; t_sq_rq calls prepare_request() and dispatch uses
 * dispatch_hctx(0) when the scheduler has it.
 */
void t_sq_complete(struct t_sq *s, struct ios_request *rq, uint64_t now);

/* ---- whole runs ---- */
/*
 * Parse @text as the job file @name and run it with @cfg (NULL: the
 * defaults with seed 1). 0: @jf and @res hold the run, free them with
 * t_job_done() (the result points into the job file). Otherwise the parser's
 * or the run's message is on stderr and there is nothing to free.
 */
int t_run_job(const char *name, const char *text, const struct ios_run_config *cfg,
	      struct ios_jobfile *jf, struct ios_run_result *res);
void t_job_done(struct ios_jobfile *jf, struct ios_run_result *res);

/*
 * A temporary directory for a test program's files: t_tmpdir_enter makes it
 * from @tmpl (ending in XXXXXX, rewritten in place) and goes into it (-1,
 * with a message, when it cannot). t_tmpdir_leave goes back to / and
 * removes it with its contents after a pass; after a failure it keeps it for
 * a look and says where. Returns @ret, or T_FAIL when the removal failed.
 */
int t_tmpdir_enter(char *tmpl);
int t_tmpdir_leave(const char *dir, int ret);

/* ---- misc ---- */
/* Read a whole file into a malloc'd NUL-terminated string (NULL on error). */
char *t_read_file(const char *path, size_t *len);
/* Path of the built iosched binary ($IOSCHED_BIN or ./iosched). */
const char *t_iosched_bin(void);
/* Run a shell command, capture stdout into a malloc'd string; *status = exit code. */
char *t_run_cmd(const char *cmd, int *status);
/* Run "iosched ARGS" (a shell word list), stdout and stderr together. */
char *t_run_iosched(const char *args, int *status);

/*
 * Run "iosched ARGS": the exit status must be WANT and the output (stdout
 * and stderr) must hold every needle; a sanitizer report or an invariant
 * failure fails the test whatever the status.
 */
#define T_EXPECT_RUN(args, want_status, ...)                                       \
	do {                                                                       \
		const char *const needles_[] = { __VA_ARGS__, NULL };              \
		int st_;                                                           \
		char *out_ = t_run_iosched(args, &st_);                            \
		T_ASSERT(out_);                                                    \
		T_ASSERT_MSG(st_ == (want_status), "'%s': exit %d, want %d; output:\n%.3000s", \
			     args, st_, want_status, out_);                        \
		for (const char *const *n_ = needles_; *n_; n_++)                  \
			T_ASSERT_MSG(strstr(out_, *n_), "'%s': output lacks '%s':\n%.3000s", \
				     args, *n_, out_);                             \
		T_ASSERT_MSG(!strstr(out_, "Sanitizer") && !strstr(out_, "BUG at"), \
			     "'%s' crashed:\n%.3000s", args, out_);               \
		free(out_);                                                        \
	} while (0)

#endif
