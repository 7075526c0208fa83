/*
 * Description: the command-line engine (core/cmdline.c) applies each rule
 * the README states for every command: a value after '=' or as the next
 * argument; a next argument starting with "--" is not a value; a trailing
 * option or an empty value is an error; integers are decimal or 0x hex
 * with no sign or blank, inside the option's range; an unknown option is
 * an error; "-" is a positional argument only where the command says so;
 * --help stops the parse; repeatable options keep every value in order;
 * the usage rows come from the same table. Then the setting-scope registry
 * (core/scope.c): every scope resolves, an unknown prefix is refused, and
 * `iosched list` shows every tunable of every scope that has a table.
 */
#include <stddef.h>
#include <string.h>
#include "harness.h"
#include "iosched/cmdline.h"
#include "iosched/scope.h"

struct t_args {
	const char *out, *fmt;
	uint64_t seed, jobs;
	int compat;
	bool shares;
	const char *sets[8];
	int nr_sets;
	const char *pos[8];
	int nr_pos;
};

static int t_set(void *base, const struct ios_cl_opt *opt, const char *v, struct ios_buf *msg)
{
	struct t_args *a = base;

	(void)opt;
	if (!strchr(v, '=')) {
		ios_buf_printf(msg, "--set %s: expected NAME=VALUE", v);
		return -1;
	}
	a->sets[a->nr_sets++] = v;
	return 0;
}

static int t_pos(void *arg, const char *s, struct ios_buf *msg)
{
	struct t_args *a = arg;

	(void)msg;
	a->pos[a->nr_pos++] = s;
	return 0;
}

static const struct ios_cl_choice t_fmts[] = {
	{ "normal", 0, false }, { "json", 1, false }, { NULL, 0, false },
};
static const struct ios_cl_choice t_compat[] = {
	{ "1", 1, false }, { "1.9", 1, true }, { "3", 3, false }, { NULL, 0, false },
};

#define TA(f) offsetof(struct t_args, f)

static const struct ios_cl_opt t_opts[] = {
	{ .name = "--help", .alias = "-h", .kind = IOS_CL_HELP },
	{ .name = "--output", .kind = IOS_CL_STR, .off = TA(out), .metavar = "FILE",
	  .help = "write to FILE" },
	{ .name = "--output-format", .kind = IOS_CL_CHOICE, .off = TA(fmt), .choices = t_fmts,
	  .flags = IOS_CL_STORE_NAME, .metavar = "FMT", .help = "normal or json\nsecond line" },
	{ .name = "--seed", .kind = IOS_CL_U64, .off = TA(seed), .min = 0, .max = UINT64_MAX,
	  .metavar = "N", .help = "the seed" },
	{ .name = "--jobs", .alias = "-j", .kind = IOS_CL_U64, .off = TA(jobs), .min = 1, .max = 256,
	  .flags = IOS_CL_BRIEF_RANGE, .metavar = "N", .help = "workers" },
	{ .name = "--fio-compat", .kind = IOS_CL_CHOICE, .off = TA(compat), .choices = t_compat },
	{ .name = "--shares", .kind = IOS_CL_FLAG, .off = TA(shares), .mask = 0x2,
	  .help = "a flag" },
	{ .name = "--set", .kind = IOS_CL_CALL, .fn = t_set, .metavar = "NAME=VALUE" },
	{ .name = NULL },
};

/* Parse the NULL-terminated @args (argv[0] is "cmd") into @a; the message into @msg. */
static int t_parse_into(struct t_args *a, bool dash, bool positional, unsigned skip,
			char *msg, size_t len, const char *const *args)
{
	char *argv[32];
	int argc = 0, r;
	struct ios_cl_group g = { t_opts, a, skip };
	struct ios_cl_cmd cmd = { "cmd", "cmd --help", &g, 1, positional ? t_pos : NULL, a, dash };
	struct ios_buf b;

	argv[argc++] = (char *)"cmd";
	while (*args)
		argv[argc++] = (char *)*args++;
	ios_buf_init(&b);
	r = ios_cl_parse(&cmd, argc, argv, &b);
	snprintf(msg, len, "%s", b.s ? b.s : "");
	ios_buf_free(&b);
	return r;
}

#define PARSE(a, msg, ...) \
	t_parse_into((a), true, true, 0, (msg), sizeof(msg), (const char *const[]){ __VA_ARGS__, NULL })

static int test_values(void)
{
	struct t_args a = { 0 };
	char msg[512];

	T_ASSERT_EQ(PARSE(&a, msg, "--output", "f1", "--seed=7", "--output-format=json"), 0);
	T_ASSERT(!strcmp(a.out, "f1"));
	T_ASSERT_U64_EQ(a.seed, 7);
	T_ASSERT(!strcmp(a.fmt, "json"));
	T_ASSERT(!msg[0]);
	/* "=" says the value is meant, even one that looks like an option */
	T_ASSERT_EQ(PARSE(&a, msg, "--output=--x"), 0);
	T_ASSERT(!strcmp(a.out, "--x"));
	/* a later spelling wins */
	T_ASSERT_EQ(PARSE(&a, msg, "--seed", "1", "--seed", "2"), 0);
	T_ASSERT_U64_EQ(a.seed, 2);
	/* a value that starts with one '-' is a value */
	T_ASSERT_EQ(PARSE(&a, msg, "--output", "-x"), 0);
	T_ASSERT(!strcmp(a.out, "-x"));
	return T_PASS;
}

static int test_missing_values(void)
{
	struct t_args a = { 0 };
	char msg[512];

	T_ASSERT_EQ(PARSE(&a, msg, "--output", "--seed", "5"), -1);
	T_ASSERT(!strcmp(msg, "--output: missing its value ('--seed' is the next option; write "
			 "--output=--seed if that is the value)"));
	T_ASSERT(!a.out);
	T_ASSERT_EQ(PARSE(&a, msg, "--output"), -1);
	T_ASSERT(!strcmp(msg, "--output: missing its value (it is the last argument)"));
	T_ASSERT_EQ(PARSE(&a, msg, "--output="), -1);
	T_ASSERT(!strcmp(msg, "--output: empty value"));
	T_ASSERT_EQ(PARSE(&a, msg, "--output", ""), -1);
	T_ASSERT(!strcmp(msg, "--output: empty value"));
	/* the alias is named as it was spelled */
	T_ASSERT_EQ(PARSE(&a, msg, "-j", "--seed", "1"), -1);
	T_ASSERT(!strcmp(msg, "-j: missing its value ('--seed' is the next option; write "
			 "-j=--seed if that is the value)"));
	/* the first error ends the parse: nothing after it is stored */
	T_ASSERT_EQ(PARSE(&a, msg, "--seed", "x", "--output", "o"), -1);
	T_ASSERT(!a.out);
	return T_PASS;
}

static int test_integers(void)
{
	static const char *const bad[] = { " 1", "+1", "-1", "1 ", "0x", "0x1g", "1e3",
					   "18446744073709551616", "0x10000000000000000" };
	struct t_args a = { 0 };
	char msg[512];
	uint64_t v;

	T_ASSERT_EQ(PARSE(&a, msg, "--seed", "08"), 0);
	T_ASSERT_U64_EQ(a.seed, 8);		/* decimal, not octal */
	T_ASSERT_EQ(PARSE(&a, msg, "--seed", "010"), 0);
	T_ASSERT_U64_EQ(a.seed, 10);
	T_ASSERT_EQ(PARSE(&a, msg, "--seed", "0x1F"), 0);
	T_ASSERT_U64_EQ(a.seed, 31);
	T_ASSERT_EQ(PARSE(&a, msg, "--seed", "18446744073709551615"), 0);
	T_ASSERT_U64_EQ(a.seed, UINT64_MAX);
	for (size_t i = 0; i < IOS_ARRAY_SIZE(bad); i++) {
		char want[256];

		T_ASSERT_MSG(ios_cl_parse_u64(bad[i], &v) == -1, "'%s' taken", bad[i]);
		T_ASSERT_EQ(PARSE(&a, msg, "--seed", bad[i]), -1);
		snprintf(want, sizeof(want), "--seed=%s: expected a non-negative integer, decimal "
			 "or 0x hex, from 0 to 18446744073709551615", bad[i]);
		T_ASSERT_MSG(!strcmp(msg, want), "'%s': %s", bad[i], msg);
	}
	/* a range, in the brief form, with the command's name */
	T_ASSERT_EQ(PARSE(&a, msg, "--jobs", "0"), -1);
	T_ASSERT(!strcmp(msg, "cmd: --jobs=0: allowed 1..256"));
	T_ASSERT_EQ(PARSE(&a, msg, "-j", "257"), -1);
	T_ASSERT(!strcmp(msg, "cmd: --jobs=257: allowed 1..256"));
	T_ASSERT_EQ(PARSE(&a, msg, "--jobs", "256"), 0);
	T_ASSERT_U64_EQ(a.jobs, 256);
	/* the short alias: "-j 3", "-j=4", "-j5" */
	T_ASSERT_EQ(PARSE(&a, msg, "-j", "3"), 0);
	T_ASSERT_U64_EQ(a.jobs, 3);
	T_ASSERT_EQ(PARSE(&a, msg, "-j=4"), 0);
	T_ASSERT_U64_EQ(a.jobs, 4);
	T_ASSERT_EQ(PARSE(&a, msg, "-j5"), 0);
	T_ASSERT_U64_EQ(a.jobs, 5);
	T_ASSERT_EQ(PARSE(&a, msg, "-jx"), -1);
	T_ASSERT(!strcmp(msg, "cmd: --jobs=x: allowed 1..256"));
	return T_PASS;
}

static int test_choices_flags_repeat(void)
{
	struct t_args a = { 0 };
	char msg[512];

	T_ASSERT_EQ(PARSE(&a, msg, "--output-format", "xml"), -1);
	T_ASSERT(!strcmp(msg, "--output-format=xml: allowed normal, json"));
	/* a hidden choice is taken but not offered */
	T_ASSERT_EQ(PARSE(&a, msg, "--fio-compat", "1.9"), 0);
	T_ASSERT_EQ(a.compat, 1);
	T_ASSERT_EQ(PARSE(&a, msg, "--fio-compat=3"), 0);
	T_ASSERT_EQ(a.compat, 3);
	T_ASSERT_EQ(PARSE(&a, msg, "--fio-compat", "2"), -1);
	T_ASSERT(!strcmp(msg, "--fio-compat=2: allowed 1, 3"));
	/* a flag takes no value: "--shares=1" is no spelling of it */
	T_ASSERT_EQ(PARSE(&a, msg, "--shares"), 0);
	T_ASSERT(a.shares);
	T_ASSERT_EQ(PARSE(&a, msg, "--shares=1"), -1);
	T_ASSERT(!strcmp(msg, "cmd: unknown option '--shares=1' (see cmd --help)"));
	/* repeatable: every value, in order; the callback's refusal is the message */
	memset(&a, 0, sizeof(a));
	T_ASSERT_EQ(PARSE(&a, msg, "--set", "a=1", "--set=b=2", "--set", "a=3"), 0);
	T_ASSERT_EQ(a.nr_sets, 3);
	T_ASSERT(!strcmp(a.sets[0], "a=1") && !strcmp(a.sets[1], "b=2") &&
		 !strcmp(a.sets[2], "a=3"));
	T_ASSERT_EQ(PARSE(&a, msg, "--set", "noeq"), -1);
	T_ASSERT(!strcmp(msg, "--set noeq: expected NAME=VALUE"));
	return T_PASS;
}

static int test_positional_unknown_help(void)
{
	struct t_args a = { 0 };
	char msg[512];

	T_ASSERT_EQ(PARSE(&a, msg, "j1.fio", "--seed", "3", "-", "j2.fio"), 0);
	T_ASSERT_EQ(a.nr_pos, 3);
	T_ASSERT(!strcmp(a.pos[0], "j1.fio") && !strcmp(a.pos[1], "-") &&
		 !strcmp(a.pos[2], "j2.fio"));
	T_ASSERT_EQ(PARSE(&a, msg, "--bogus"), -1);
	T_ASSERT(!strcmp(msg, "cmd: unknown option '--bogus' (see cmd --help)"));
	/* as getopt: after "--" every argument is one, "-x.fio" and "--seed" too */
	memset(&a, 0, sizeof(a));
	T_ASSERT_EQ(PARSE(&a, msg, "j1.fio", "--", "-x.fio", "--seed", "--"), 0);
	T_ASSERT_EQ(a.nr_pos, 4);
	T_ASSERT(!strcmp(a.pos[1], "-x.fio") && !strcmp(a.pos[2], "--seed") &&
		 !strcmp(a.pos[3], "--"));
	/* "-" is an option (unknown) where the command takes no stdin */
	memset(&a, 0, sizeof(a));
	T_ASSERT_EQ(t_parse_into(&a, false, true, 0, msg, sizeof(msg),
				 (const char *const[]){ "-", NULL }), -1);
	T_ASSERT(!strcmp(msg, "cmd: unknown option '-' (see cmd --help)"));
	T_ASSERT_EQ(a.nr_pos, 0);
	/* no positional arguments at all: anything else is unexpected */
	T_ASSERT_EQ(t_parse_into(&a, false, false, 0, msg, sizeof(msg),
				 (const char *const[]){ "x", NULL }), -1);
	T_ASSERT(!strcmp(msg, "cmd: unexpected argument 'x' (cmd takes none)"));
	/* --help stops the parse; an error before it still wins */
	T_ASSERT_EQ(PARSE(&a, msg, "--help", "--bogus"), IOS_CL_HELP_SEEN);
	T_ASSERT_EQ(PARSE(&a, msg, "-h"), IOS_CL_HELP_SEEN);
	T_ASSERT_EQ(PARSE(&a, msg, "--bogus", "--help"), -1);
	/* a masked row is not the command's */
	T_ASSERT_EQ(t_parse_into(&a, true, true, 0x2, msg, sizeof(msg),
				 (const char *const[]){ "--shares", NULL }), -1);
	T_ASSERT(!strcmp(msg, "cmd: unknown option '--shares' (see cmd --help)"));
	return T_PASS;
}

static void t_wrap_help(int at, int col, struct ios_buf *out)
{
	/* no line past column 24: "one two three" would end at 25 */
	ios_cl_wrap("one two three four five six", at, col, 24, out);
	ios_buf_puts(out, "\n");
}

static int test_usage(void)
{
	static const struct ios_cl_opt rows[] = {
		{ .name = "--a", .kind = IOS_CL_STR, .metavar = "X", .help = "first\nsecond" },
		{ .name = "--bb", .alias = "-b", .kind = IOS_CL_U64, .metavar = "N", .help = "b" },
		{ .name = "--long-name-here", .kind = IOS_CL_STR, .metavar = "V", .help = "c" },
		{ .name = "--hidden", .kind = IOS_CL_STR },
		{ .name = "--masked", .kind = IOS_CL_FLAG, .mask = 1, .help = "m" },
		{ .name = "--w", .kind = IOS_CL_STR, .help_fn = t_wrap_help },
		{ .name = NULL },
	};
	struct ios_buf b;
	int ok;

	ios_buf_init(&b);
	ios_cl_usage(rows, 1, 12, &b);
	ok = b.s && !strcmp(b.s, "  --a X     first\n"
				 "            second\n"
				 "  --bb N, -b N b\n"
				 "  --long-name-here V c\n"
				 "  --w       one two\n"
				 "            three four\n"
				 "            five six\n");
	T_ASSERT_MSG(ok, "usage:\n%s", b.s ? b.s : "(null)");
	ios_buf_free(&b);
	return T_PASS;
}

static int test_scopes_resolve(void)
{
	const struct ios_scope *sc;
	const struct ios_sched_type *dl = ios_sched_find("deadline");
	const struct ios_dev_type *dt = ios_dev_type_at(0);
	char hint[256], name[64];
	size_t n = 0;

	T_ASSERT(dl && dt);
	for (size_t i = 0; (sc = ios_scope_at(i)) != NULL; i++, n++) {
		T_ASSERT_EQ(sc->id, i);
		T_ASSERT(ios_scope_get(sc->id) == sc);
		T_ASSERT(sc->prefix && sc->spelling);
		/* a name under its prefix comes back to it */
		snprintf(name, sizeof(name), "%sx", sc->prefix);
		T_ASSERT_MSG(ios_scope_of(name) == sc, "'%s' is not scope %zu", name, i);
		switch (sc->resolve) {
		case IOS_SCOPE_FIXED:
			T_ASSERT(sc->table && sc->size && sc->list_title);
			T_ASSERT(ios_scope_table(sc, NULL, NULL) == sc->table);
			break;
		case IOS_SCOPE_BY_SCHED:
			T_ASSERT(!*sc->prefix);
			T_ASSERT(ios_scope_table(sc, dl, NULL) == dl->tunables);
			break;
		case IOS_SCOPE_BY_DEVICE:
			T_ASSERT(ios_scope_table(sc, NULL, dt) == dt->tunables);
			T_ASSERT(!ios_scope_table(sc, dl, NULL));
			break;
		case IOS_SCOPE_PATTERN:
			T_ASSERT(!ios_scope_table(sc, dl, dt));
			break;
		}
	}
	T_ASSERT_EQ(n, IOS_SCOPE_NR);
	T_ASSERT(!ios_scope_at(IOS_SCOPE_NR));
	/* an unknown prefix, a prefix without its dot, an empty prefix: no scope */
	T_ASSERT(!ios_scope_of("foo.bar"));
	T_ASSERT(!ios_scope_of("queues.x"));
	T_ASSERT(!ios_scope_of(".x"));
	T_ASSERT(ios_scope_of("cgroup.a.b.ioprio") == ios_scope_get(IOS_SCOPE_CGROUP));
	T_ASSERT(ios_scope_of("quantum") == ios_scope_get(IOS_SCOPE_SCHED));
	T_ASSERT(!strcmp(ios_scope_hint(hint, sizeof(hint)), "bare (scheduler), queue.NAME, "
			 "device.NAME, vm.NAME, lab.NAME or cgroup.PATH.ioprio"));
	/* only a fixed table can be set up on its own */
	{
		struct ios_err e = { 0 };
		char scratch[64];

		T_ASSERT(ios_scope_setup(IOS_SCOPE_DEVICE, NULL, scratch, &e) == -EINVAL);
	}
	return T_PASS;
}

/* every tunable `iosched list` should show: of each fixed scope, each device type, each scheduler */
static int test_list_covers_scopes(void)
{
	const struct ios_scope *sc;
	const struct ios_tunable *t;
	const struct ios_sched_type *st;
	const struct ios_dev_type *dt;
	char cmd[1024], want[128];
	int status, checked = 0;
	char *out;

	snprintf(cmd, sizeof(cmd), "%s list", t_iosched_bin());
	out = t_run_cmd(cmd, &status);
	T_ASSERT(out);
	T_ASSERT_EQ(status, 0);
	for (size_t i = 0; (sc = ios_scope_at(i)) != NULL; i++) {
		if (sc->resolve != IOS_SCOPE_FIXED)
			continue;
		T_ASSERT_MSG(strstr(out, sc->list_title), "no heading '%s'", sc->list_title);
		ios_tunable_for_each(t, sc->table) {
			if (t->flags & IOS_TUN_HIDDEN)
				continue;
			snprintf(want, sizeof(want), "    %s%s ", sc->prefix, t->name);
			T_ASSERT_MSG(strstr(out, want), "list lacks '%s'", want);
			checked++;
		}
	}
	for (size_t i = 0; (dt = ios_dev_type_at(i)) != NULL; i++) {
		ios_tunable_for_each(t, dt->tunables) {
			if (t->flags & IOS_TUN_HIDDEN)
				continue;
			snprintf(want, sizeof(want), "    device.%s ", t->name);
			T_ASSERT_MSG(strstr(out, want), "list lacks '%s'", want);
			checked++;
		}
	}
	for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++) {
		snprintf(want, sizeof(want), "\n  %s", st->name);
		T_ASSERT_MSG(strstr(out, want), "list lacks scheduler '%s'", st->name);
		ios_tunable_for_each(t, st->tunables) {
			if (t->flags & IOS_TUN_HIDDEN)
				continue;
			snprintf(want, sizeof(want), "    %s ", t->name);
			T_ASSERT_MSG(strstr(out, want), "list lacks '%s' of %s", t->name, st->name);
			checked++;
		}
	}
	T_ASSERT(checked > 50);
	free(out);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_values, test_missing_values, test_integers, test_choices_flags_repeat,
		     test_positional_unknown_help, test_usage, test_scopes_resolve,
		     test_list_covers_scopes);
}
