/*
 * The options of fio's file-operation engines and of how files come to
 * exist: fallocate=, allow_file_create=, openfiles=, and the engine options
 * stat_type= (filestat), donorname= and inplace= (e4defrag). A table of its
 * own, read after options.c's through ios_job_option_tables (opt.c); the runner's side is
 * src/run/fileops.c. Help texts and defaults are fio 3.33's (HOWTO.rst,
 * `fio --cmdhelp=OPTION`).
 */
#include <limits.h>
#include <string.h>
#include "job/opt.h"

#define OFF(f)		offsetof(struct ios_job, f)
#define FSIZE(f)	((unsigned)sizeof(((struct ios_job *)0)->f))

/*
 * fio keeps "0" and "1" as the old spellings of none and posix, so the
 * values are not a plain list of names.
 */
static int opt_fallocate(struct ios_job *job, struct ios_optctx *c)
{
	static const struct { const char *name; int mode; } modes[] = {
		{ "none", IOS_FALLOC_NONE }, { "0", IOS_FALLOC_NONE },
		{ "posix", IOS_FALLOC_POSIX }, { "1", IOS_FALLOC_POSIX },
		{ "keep", IOS_FALLOC_KEEP }, { "native", IOS_FALLOC_NATIVE },
		{ "truncate", IOS_FALLOC_TRUNCATE },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(c->value, modes[i].name)) {
			job->fallocate = modes[i].mode;
			return 0;
		}
	}
	return ios_opt_err(c, -EINVAL, "unknown value, allowed: none, native, posix, keep, "
			   "truncate, 0 (none), 1 (posix)");
}

static const char *const stat_types[] = { "stat", "lstat", "statx", NULL };

#define INFO(n, a, t, d, h)	.info = { .name = n, .alias = a, .type = t, .def = d, .help = h }

const struct ios_opt ios_job_options_fileops[] = {
	/* no default applied: left out, the file is laid out whole (docs/jobfiles.md) */
	{ INFO("fallocate", NULL, "enum", NULL,
	       "How a write job's new file gets its blocks: none/0 (sparse: writes allocate), "
	       "native (fio's default; sparse on ext3), posix/1, keep (preallocated), truncate "
	       "(sparse)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_fallocate },
	{ INFO("allow_file_create", NULL, "bool", "1",
	       "Let the job create files; 0: a file that does not exist is an error"),
	  .type = IOS_OPT_BOOL, .off = OFF(allow_file_create) },
	/*
	 * fio's check (filesetup.c) is against the machine's mounts; the
	 * simulated disk is mounted by nothing, so only --real can refuse.
	 */
	{ INFO("allow_mounted_write", NULL, "bool", "0",
	       "--real: let a job write to a block device that is mounted (or has a mounted "
	       "partition); 0 refuses it, as fio does. The simulated disk is never mounted"),
	  .type = IOS_OPT_BOOL, .off = OFF(allow_mounted_write) },
	{ INFO("openfiles", NULL, "int", NULL,
	       "Files kept open at once (default nrfiles)"),
	  .type = IOS_OPT_INT, .off = OFF(openfiles), .size = FSIZE(openfiles), .min = 1,
	  .max = UINT_MAX },
	{ INFO("stat_type", NULL, "enum", "stat",
	       "filestat: the call each open is: stat, lstat or statx"),
	  .type = IOS_OPT_ENUM, .off = OFF(stat_type), .choices = stat_types },
	{ INFO("donorname", NULL, "str", NULL,
	       "e4defrag: the donor file whose blocks are swapped in (in directory=)"),
	  .type = IOS_OPT_STR, .off = OFF(donorname) },
	{ INFO("inplace", NULL, "int", "0",
	       "e4defrag: 0 preallocates the donor at the start, 1 allocates and frees its "
	       "blocks around each move"),
	  .type = IOS_OPT_INT, .off = OFF(inplace), .size = FSIZE(inplace), .min = 0, .max = 1 },
	{ .info = { .name = NULL } },
};
