/*
 * The command-line engine (include/iosched/cmdline.h).
 *
 * Each command hands over its option tables; this file owns the rules of
 * the command line so that run, replay, compare, repro and list agree on
 * them by construction: how a value is found (after '=' or as the next
 * argument, never an argument that starts with "--"), when it is missing
 * or empty, how an integer is read (decimal or 0x, as fio does), and what
 * an argument that names no option is. Messages go into an ios_buf, so the
 * engine prints nothing and a unit test can read every one of them.
 */
#include <inttypes.h>
#include <string.h>
#include "iosched/cmdline.h"
#include "iosched/stats.h"
#include "iosched/suggest.h"

int ios_cl_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;

	/* fio's rule for its integers: 0x is hex, anything else decimal (08 is 8, not octal) */
	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a') + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A') + 10;
		else
			return -1;	/* blanks, signs, junk */
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/*
 * Does @a spell @opt? 0: no. Otherwise the length of the spelling matched
 * (*spelled: name or alias), with *glued set when the value follows a
 * short alias directly ("-j4").
 */
static size_t cl_match(const struct ios_cl_opt *opt, const char *a, const char **spelled,
		       bool *glued)
{
	bool takes_value = opt->kind != IOS_CL_HELP && opt->kind != IOS_CL_FLAG;
	const char *names[2] = { opt->name, opt->alias };

	*glued = false;
	for (int k = 0; k < 2; k++) {
		size_t n = names[k] ? strlen(names[k]) : 0;

		if (!n || strncmp(a, names[k], n))
			continue;
		if (a[n] == '\0' || (takes_value && a[n] == '=')) {
			*spelled = names[k];
			return n;
		}
		/* a one-letter alias takes its value glued on, as getopt does */
		if (k == 1 && takes_value && n == 2 && names[k][0] == '-' && names[k][1] != '-') {
			*spelled = names[k];
			*glued = true;
			return n;
		}
	}
	return 0;
}

/* The value of the option spelled @n bytes of argv[*i]; NULL after an error in @msg. */
static const char *cl_value(const char *spelled, size_t n, bool glued, int argc, char **argv,
			    int *i, struct ios_buf *msg)
{
	const char *a = argv[*i], *v;

	if (glued || a[n] == '=') {
		v = a + n + (glued ? 0 : 1);
	} else if (*i + 1 >= argc) {
		ios_buf_printf(msg, "%s: missing its value (it is the last argument)", spelled);
		return NULL;
	} else if (!strncmp(argv[*i + 1], "--", 2)) {
		/* "--output --seed 5": the user forgot the value, not named a file "--seed" */
		ios_buf_printf(msg, "%s: missing its value ('%s' is the next option; write %s=%s "
			       "if that is the value)", spelled, argv[*i + 1], spelled, argv[*i + 1]);
		return NULL;
	} else {
		v = argv[++*i];
	}
	if (!*v) {
		ios_buf_printf(msg, "%s: empty value", spelled);
		return NULL;
	}
	return v;
}

static int cl_choice(const struct ios_cl_opt *opt, void *slot, const char *v,
		     struct ios_buf *msg)
{
	const struct ios_cl_choice *c;
	bool first = true;

	for (c = opt->choices; c && c->name; c++) {
		if (strcmp(c->name, v))
			continue;
		if (opt->flags & IOS_CL_STORE_NAME)
			*(const char **)slot = c->name;
		else
			*(int *)slot = c->value;
		return 0;
	}
	ios_buf_printf(msg, "%s=%s: allowed ", opt->name, v);
	for (c = opt->choices; c && c->name; c++) {
		if (c->hidden)
			continue;
		ios_buf_printf(msg, "%s%s", first ? "" : ", ", c->name);
		first = false;
	}
	return -1;
}

/* Store @v, the value of @opt, into @base. 0, or -1 with the message in @msg. */
static int cl_store(const char *cmd, const struct ios_cl_opt *opt, void *base, const char *v,
		    struct ios_buf *msg)
{
	void *slot = (char *)base + opt->off;
	uint64_t n;

	switch (opt->kind) {
	case IOS_CL_HELP:
		return 0;
	case IOS_CL_FLAG:
		*(bool *)slot = true;
		return 0;
	case IOS_CL_STR:
		*(const char **)slot = v;
		return 0;
	case IOS_CL_U64:
		if (!ios_cl_parse_u64(v, &n) && n >= opt->min && n <= opt->max) {
			*(uint64_t *)slot = n;
			return 0;
		}
		if (opt->flags & IOS_CL_BRIEF_RANGE)
			ios_buf_printf(msg, "%s%s%s=%s: allowed %" PRIu64 "..%" PRIu64, cmd ? cmd : "",
				       cmd ? ": " : "", opt->name, v, opt->min, opt->max);
		else
			ios_buf_printf(msg, "%s=%s: expected a non-negative integer, decimal or 0x "
				       "hex, from %" PRIu64 " to %" PRIu64, opt->name, v, opt->min,
				       opt->max);
		return -1;
	case IOS_CL_CHOICE:
		return cl_choice(opt, slot, v, msg);
	case IOS_CL_CALL:
		return opt->fn ? opt->fn(base, opt, v, msg) : 0;
	}
	return 0;
}

int ios_cl_parse_one(const char *cmd, const struct ios_cl_group *groups, size_t nr_groups,
		     int argc, char **argv, int *i, struct ios_buf *msg)
{
	const char *a = argv[*i];

	for (size_t g = 0; g < nr_groups; g++) {
		for (const struct ios_cl_opt *opt = groups[g].opts; opt && opt->name; opt++) {
			const char *spelled = NULL, *v = NULL;
			bool glued;
			size_t n;

			if (opt->mask & groups[g].skip)
				continue;
			n = cl_match(opt, a, &spelled, &glued);
			if (!n)
				continue;
			if (opt->kind == IOS_CL_HELP)
				return IOS_CL_ONE_HELP;
			if (opt->kind != IOS_CL_FLAG && !(opt->flags & IOS_CL_NO_VALUE)) {
				v = cl_value(spelled, n, glued, argc, argv, i, msg);
				if (!v)
					return -1;
			}
			return cl_store(cmd, opt, groups[g].base, v, msg) ? -1 : 1;
		}
	}
	return 0;
}

/* The options of @cmd nearest to @a; "--schedler=cfq" is matched by its name part. */
static const char *cl_suggest(const struct ios_cl_cmd *cmd, const char *a, char *buf, size_t n)
{
	char typed[IOS_SUGGEST_NAME + 1];
	const char *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	struct ios_suggest s;

	if (len >= sizeof(typed))
		len = sizeof(typed) - 1;
	memcpy(typed, a, len);
	typed[len] = '\0';
	ios_suggest_init(&s, typed);
	if (!typed[strspn(typed, "-")])
		return ios_suggest_str(&s, buf, n);	/* "-" or "--": no name to be near */
	for (size_t g = 0; g < cmd->nr_groups; g++)
		for (const struct ios_cl_opt *opt = cmd->groups[g].opts; opt && opt->name; opt++)
			if (!(opt->mask & cmd->groups[g].skip)) {
				/* every name starts "--": it says nothing about nearness */
				size_t dashes = strspn(opt->name, "-");

				ios_suggest_add(&s, dashes == 2 ? "--" : NULL, opt->name + (dashes == 2 ? 2 : 0));
			}
	return ios_suggest_str(&s, buf, n);
}

int ios_cl_parse(const struct ios_cl_cmd *cmd, int argc, char **argv, struct ios_buf *msg)
{
	char hint[256];
	bool args_only = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r;

		/* as getopt: after "--" every argument is one, "-x.fio" included */
		if (cmd->positional && !args_only && !strcmp(a, "--")) {
			args_only = true;
			continue;
		}
		if (cmd->positional && (args_only || a[0] != '-' ||
					(cmd->dash_positional && !strcmp(a, "-")))) {
			if (cmd->positional(cmd->positional_arg, a, msg))
				return -1;
			continue;
		}
		r = ios_cl_parse_one(cmd->name, cmd->groups, cmd->nr_groups, argc, argv, &i, msg);
		if (r < 0)
			return -1;
		if (r == IOS_CL_ONE_HELP)
			return IOS_CL_HELP_SEEN;
		if (r)
			continue;
		/* nothing to go by: an argument here is a mistake, not a filter */
		if (!cmd->positional)
			ios_buf_printf(msg, "%s: unexpected argument '%s' (%s takes none)", cmd->name,
				       a, cmd->name);
		else
			ios_buf_printf(msg, "%s: unknown option '%s'%s (see %s)", cmd->name, a,
				       cl_suggest(cmd, a, hint, sizeof(hint)), cmd->help_hint);
		return -1;
	}
	return 0;
}

void ios_cl_wrap(const char *text, int first_col, int col, int width, struct ios_buf *out)
{
	int at = first_col;
	bool line_empty = true;

	while (*text) {
		const char *sp = strchr(text, ' ');
		int wl = sp ? (int)(sp - text) : (int)strlen(text);

		if (!line_empty && at + 1 + wl > width) {
			ios_buf_printf(out, "\n%*s", col, "");
			at = col;
			line_empty = true;
		}
		ios_buf_printf(out, "%s%.*s", line_empty ? "" : " ", wl, text);
		at += (line_empty ? 0 : 1) + wl;
		line_empty = false;
		text += wl;
		while (*text == ' ')
			text++;
	}
}

void ios_cl_usage(const struct ios_cl_opt *opts, unsigned skip, int col, struct ios_buf *out)
{
	for (const struct ios_cl_opt *opt = opts; opt && opt->name; opt++) {
		size_t before = out->len;
		const char *h;
		int w;

		if ((!opt->help && !opt->help_fn) || (opt->mask & skip))
			continue;
		ios_buf_printf(out, "  %s%s%s", opt->name, opt->metavar ? " " : "",
			       opt->metavar ? opt->metavar : "");
		if (opt->alias)
			ios_buf_printf(out, ", %s%s%s", opt->alias, opt->metavar ? " " : "",
				       opt->metavar ? opt->metavar : "");
		w = (int)(out->len - before);
		ios_buf_printf(out, "%*s", w < col ? col - w : 1, "");
		if (!opt->help) {
			opt->help_fn(w < col ? col : w + 1, col, out);
			continue;
		}
		/* each help line after the first is indented to the help column */
		for (h = opt->help; *h;) {
			const char *nl = strchr(h, '\n');
			int len = nl ? (int)(nl - h) : (int)strlen(h);

			ios_buf_printf(out, "%.*s\n", len, h);
			if (!nl)
				break;
			h = nl + 1;
			if (*h)
				ios_buf_printf(out, "%*s", col, "");
		}
	}
}
