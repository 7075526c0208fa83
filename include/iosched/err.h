/*
 * Error reporting for the library.
 *
 * Functions return 0 or a negative errno, never touch errno, never print and
 * never exit. Where the cause matters to a user, they also fill a
 * struct ios_err: the message names the input (file, line, option, allowed
 * range) and the src fields name the place in iosched that found it. The first
 * error wins: later IOS_ERR calls on a filled struct keep the original text,
 * so the innermost, most specific message reaches the user.
 */
#ifndef IOSCHED_ERR_H
#define IOSCHED_ERR_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ENOTSUP
#define ENOTSUP EOPNOTSUPP
#endif

#define IOS_MUST_CHECK __attribute__((warn_unused_result))
#define IOS_PRINTF(a, b) __attribute__((format(printf, a, b)))

struct ios_err {
	int code;		/* negative errno, 0 while no error */
	const char *src_file;	/* where in iosched the error was raised */
	int src_line;
	const char *func;
	char msg[512];		/* for the user: names their input */
	/*
	 * Set by ios_run when it refused the run before any I/O was issued
	 * (a setting, a name, a job the model cannot run, a file --real
	 * cannot prepare): what the user gave must change, not the machine's
	 * luck. The command line's exit status 2 against 1 (docs/cli.md).
	 */
	int refused;
};

/* Fill @e (may be NULL) unless it already holds an error; returns @code. */
int ios_err_set(struct ios_err *e, int code, const char *file, int line,
		const char *func, const char *fmt, ...) IOS_PRINTF(6, 7);

#define IOS_ERR(e, code, ...) \
	ios_err_set((e), (code), __FILE__, __LINE__, __func__, __VA_ARGS__)

static inline void ios_err_clear(struct ios_err *e)
{
	if (e) {
		e->code = 0;
		e->msg[0] = '\0';
		e->refused = 0;
	}
}

/*
 * Invariant checks: active unless NDEBUG is defined, abort with file:line.
 * Never used for user input. The Makefile never defines NDEBUG: the checks
 * are a compare or two each and stay on in every build (docs/invariants.md).
 * IOS_BUG_ON_MSG says what broke, for invariants whose condition alone
 * would not tell a reader (which request, in which state).
 */
#ifdef NDEBUG
#define IOS_BUG_ON(cond) ((void)0)
#define IOS_BUG_ON_MSG(cond, ...) ((void)0)
#else
#define IOS_BUG_ON_MSG(cond, ...)                                           \
	do {                                                                \
		if (cond) {                                                 \
			fprintf(stderr, "iosched: BUG at %s:%d: invariant violated: ", \
				__FILE__, __LINE__);                        \
			fprintf(stderr, __VA_ARGS__);                       \
			fputc('\n', stderr);                                \
			abort();                                            \
		}                                                           \
	} while (0)
#define IOS_BUG_ON(cond)                                                    \
	do {                                                                \
		if (cond) {                                                 \
			fprintf(stderr, "iosched: BUG at %s:%d: %s\n",      \
				__FILE__, __LINE__, #cond);                 \
			abort();                                            \
		}                                                           \
	} while (0)
#endif

#define IOS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#ifdef __cplusplus
}
#endif

#endif
