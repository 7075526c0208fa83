/*
 * The command-line parser: one option table per command, one engine.
 *
 * As fio builds its command line from its option table, each iosched
 * command declares its options as data (name, short alias, whether a
 * value follows, what kind of value, where it is stored, the help line)
 * and this engine applies the rules every command shares, so no command can
 * read them differently:
 *
 *  - a value is the next argument (--seed 5) or follows '=' (--seed=5);
 *  - a next argument starting with "--" is the next option, not a value:
 *    "--output --seed 5" is an error ("--output=--x" says --x is meant);
 *  - an option that wants a value and is the last argument, or whose value
 *    is empty, is an error;
 *  - integers are decimal or 0x hex as fio reads them (08 is eight), with
 *    no sign or blank, checked against the option's range;
 *  - an argument that starts with '-' and names no option is an error; "-"
 *    alone is a positional argument where the command says so (the job
 *    file on stdin);
 *  - --help stops the parse (the caller prints the usage);
 *  - arguments are taken left to right and the first error ends the parse.
 *
 * Options are looked up in a list of groups (a command's own table, then a
 * shared one such as the run options); the first match wins, so a command
 * can refuse or redefine a shared option. Errors are the message's text (no
 * "iosched: " and no newline) in an ios_buf; the engine prints nothing.
 * The usage rows of a table are generated from the same rows.
 */
#ifndef IOSCHED_CMDLINE_H
#define IOSCHED_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ios_buf;

enum ios_cl_kind {
	IOS_CL_HELP,		/* no value: the parse stops, ios_cl_parse returns IOS_CL_HELP_SEEN */
	IOS_CL_FLAG,		/* no value: the bool at .off becomes true */
	IOS_CL_STR,		/* const char * at .off (the argument itself, not copied) */
	IOS_CL_U64,		/* uint64_t at .off, .min..max */
	IOS_CL_CHOICE,		/* one of .choices: its value as an int at .off */
	IOS_CL_CALL,		/* .fn(base, opt, value, msg) stores or refuses it (--set) */
};

/* Option flags. */
#define IOS_CL_BRIEF_RANGE	0x1u	/* U64: "CMD: NAME=V: allowed MIN..MAX" */
#define IOS_CL_STORE_NAME	0x2u	/* CHOICE: store the choice's name (const char *) */
#define IOS_CL_NO_VALUE		0x4u	/* CALL: takes no value, .fn gets NULL (fio's --minimal) */

struct ios_cl_choice {
	const char *name;
	int value;
	bool hidden;		/* accepted, not named in the "allowed" list */
};

struct ios_cl_opt;
/* 0, or -1 with the message in @msg. */
typedef int (*ios_cl_fn)(void *base, const struct ios_cl_opt *opt, const char *val,
			 struct ios_buf *msg);

struct ios_cl_opt {
	const char *name;		/* "--seed" */
	const char *alias;		/* "-j": also "-j N", "-j=N" and "-jN"; may be NULL */
	enum ios_cl_kind kind;
	size_t off;			/* into the group's base */
	uint64_t min, max;		/* IOS_CL_U64 */
	const struct ios_cl_choice *choices;	/* IOS_CL_CHOICE, ends with a NULL name */
	ios_cl_fn fn;			/* IOS_CL_CALL */
	unsigned flags;			/* IOS_CL_* */
	unsigned mask;			/* a group's skip bits leave this row out */
	const char *metavar;		/* "N", "FILE": the usage's "--seed N" */
	const char *help;		/* usage text; lines after the first start with '\n' */
	/*
	 * Help made at run time instead (help NULL): write it, from column @at
	 * of the current line, continuation lines from column @col, ending
	 * with a newline (ios_cl_wrap does the wrapping).
	 */
	void (*help_fn)(int at, int col, struct ios_buf *out);
};

/* A table and the struct its rows store into. */
struct ios_cl_group {
	const struct ios_cl_opt *opts;	/* ends with a NULL name */
	void *base;
	unsigned skip;			/* rows with (mask & skip) are not this command's */
};

struct ios_cl_cmd {
	const char *name;		/* "run": messages say "run: ..." */
	const char *help_hint;		/* "iosched --help": "(see iosched --help)" */
	const struct ios_cl_group *groups;
	size_t nr_groups;
	/*
	 * A positional argument (not starting with '-'; also "-" with
	 * dash_positional): 0 or -1 with the message in @msg. NULL: the command
	 * takes none, and every argument not in its table is "unexpected".
	 */
	int (*positional)(void *arg, const char *a, struct ios_buf *msg);
	void *positional_arg;
	bool dash_positional;
};

#define IOS_CL_HELP_SEEN 1

/*
 * Parse argv[1..argc-1]. 0: all taken; IOS_CL_HELP_SEEN: a --help row was
 * met (the arguments after it are not read); -1: an error, its text in
 * @msg.
 */
int ios_cl_parse(const struct ios_cl_cmd *cmd, int argc, char **argv, struct ios_buf *msg);
/*
 * One argument, argv[*i], against @groups (a value may take argv[*i+1]:
 * *i advances). 1: an option, taken; 0: no option of these groups (not
 * looked at further); IOS_CL_HELP_SEEN + 1: a help row; -1: an error in
 * @msg. @cmd names the command in messages that name it (may be NULL).
 */
#define IOS_CL_ONE_HELP (IOS_CL_HELP_SEEN + 1)
int ios_cl_parse_one(const char *cmd, const struct ios_cl_group *groups, size_t nr_groups,
		     int argc, char **argv, int *i, struct ios_buf *msg);
/*
 * A non-negative integer, decimal or 0x hex (no blanks, sign or octal):
 * 0, or -1 (empty, junk or over UINT64_MAX).
 */
int ios_cl_parse_u64(const char *s, uint64_t *out);
/*
 * The usage rows of @opts (rows with help or help_fn, not masked by @skip):
 * "  NAME METAVAR" padded to column @col (one blank at least), then the
 * help; a help line after the first starts at column @col.
 */
void ios_cl_usage(const struct ios_cl_opt *opts, unsigned skip, int col, struct ios_buf *out);
/*
 * @text wrapped at @width columns into @out: the first line continues
 * the current one at column @first_col, the next ones start at @col.
 */
void ios_cl_wrap(const char *text, int first_col, int col, int width, struct ios_buf *out);

#ifdef __cplusplus
}
#endif

#endif
