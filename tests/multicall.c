/*
 * The unit tests' one program. Every tests/unit/NAME.c is compiled with its
 * main renamed t_main_NAME (the Makefile's -Dmain=t_main_NAME) and linked
 * here beside the others, so a build links the test code once instead of
 * once per test; BUILD/tests/NAME is a symlink to this program, which runs
 * the test it was started as. Each test still runs alone in its own process
 * with its own exit code (0 pass, 1 fail, 77 skip), as before.
 *
 *	build/tests/sched_cfq_idle       the test named by argv[0]
 *	build/tests/obj/iosched-tests sched_cfq_idle   the same, by argument
 *
 * BUILD/tests/obj/progs.h, written by the Makefile, holds one T_PROG(NAME)
 * line per test.
 */
#include <stdio.h>
#include <string.h>

#define T_PROG(n) int t_main_##n(void);
#include "progs.h"
#undef T_PROG

static const struct t_prog {
	const char *name;
	int (*main)(void);
} t_progs[] = {
#define T_PROG(n) { #n, t_main_##n },
#include "progs.h"
#undef T_PROG
};

static const struct t_prog *t_prog_find(const char *name)
{
	for (size_t i = 0; i < sizeof(t_progs) / sizeof(t_progs[0]); i++)
		if (strcmp(t_progs[i].name, name) == 0)
			return &t_progs[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? argv[0] : "iosched-tests";
	const char *base = strrchr(self, '/');
	const struct t_prog *p;

	base = base ? base + 1 : self;
	p = t_prog_find(base);
	if (!p && argc == 2)
		p = t_prog_find(argv[1]);
	if (p)
		return p->main();
	fprintf(stderr, "%s: no unit test '%s'; run it as BUILD/tests/NAME or name it: "
		"%s NAME (NAME: a tests/unit/NAME.c)\n", base, argc == 2 ? argv[1] : base, self);
	return 2;
}
