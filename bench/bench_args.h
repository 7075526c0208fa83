/*
 * Command-line arguments of the benchmark programs: positional, each checked,
 * so that a mistyped count is an error and not a run of zero steps whose
 * figures print as nan.
 */
#ifndef BENCH_ARGS_H
#define BENCH_ARGS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -h or --help: print @usage and exit 0; more than @max arguments: usage, exit 2. */
static inline void bench_args_check(int argc, char **argv, int max, const char *usage)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s\n", usage);
		exit(0);
	}
	if (argc - 1 > max) {
		fprintf(stderr, "%s: %d arguments, at most %d\nusage: %s\n", argv[0], argc - 1, max,
			usage);
		exit(2);
	}
}

/* argv[@i] as a whole number in [@lo, @hi], or @dflt when absent; else a message, exit 2. */
static inline long bench_arg_long(int argc, char **argv, int i, const char *what, long dflt,
				  long lo, long hi, const char *usage)
{
	const char *s;
	char *end;
	long v;

	if (i >= argc)
		return dflt;
	s = argv[i];
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "%s: %s '%s': want a whole number from %ld to %ld\nusage: %s\n",
			argv[0], what, s, lo, hi, usage);
		exit(2);
	}
	return v;
}

/* @v is 0 (all) or one of @set's @n sizes; else a message, exit 2. */
static inline void bench_arg_in(const char *prog, const char *what, size_t v, const size_t *set,
				size_t n, const char *usage)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		if (set[i] == v)
			return;
	fprintf(stderr, "%s: %s %zu: not one of the sizes measured\nusage: %s\n", prog, what, v,
		usage);
	exit(2);
}

#endif
