/*
 * The verify family of job options: fio 3.33's names, defaults and ranges
 * (options.c, the "Verify" group; HOWTO "Verification"), in a table of its
 * own that opt.c walks after the main one.
 *
 * What they do in a run is src/run/verify.c: a write is remembered as a
 * generation per block, a verify read checks that the latest one came
 * back. The options whose effect is on the CPU of the machine running fio
 * (verify_async, verify_async_cpus) are accepted and noted at run time;
 * the ones iosched does not model are refused here with the reason:
 * experimental_verify=1 and verify_state_load=1. The header's size (40
 * bytes in fio 3.33) gives the lower bounds of verify_interval (two
 * headers) and verify_offset (one).
 */
#include <limits.h>
#include <string.h>
#include "job/opt.h"

#define OFF(f)		offsetof(struct ios_job, verify.f)
#define FSIZE(f)	((unsigned)sizeof(((struct ios_job *)0)->verify.f))
#define INFO(n, a, t, d, h)	.info = { .name = n, .alias = a, .type = t, .def = d, .help = h }

/* fio's struct verify_header: 40 bytes */
#define VERIFY_HDR_BYTES 40

/* in enum ios_verify_method order ("0" is fio's spelling of none) */
static const char *const verify_methods[] = {
	"0", "md5", "crc64", "crc32c", "crc32c-intel", "crc32", "crc16", "crc7", "xxhash",
	"sha1", "sha256", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "meta",
	"pattern", "null", NULL,
};

/*
 * verify_pattern: fio turns it into the bytes it fills each block with
 * (pattern.c reads it as fio does). A verify read here compares writers,
 * not bytes, so the pattern is kept as what identifies it: a hash of the
 * bytes.
 */
static int opt_verify_pattern(struct ios_job *job, struct ios_optctx *c)
{
	return ios_opt_pattern(c, true, &job->verify.pattern_hash, &job->verify.pattern_len);
}

static int opt_verify_refuse_hook(struct ios_job *job, struct ios_optctx *c)
{
	int v = *(int *)((char *)job + c->o->off);

	if (!v || c->is_default)
		return 0;
	if (!strcmp(c->o->info.name, "experimental_verify"))
		return ios_opt_err(c, -ENOTSUP, "fio's experimental verify (reads that regenerate "
				   "the offsets instead of a log of the writes) is not modelled by "
				   "iosched: only experimental_verify=0");
	return ios_opt_err(c, -ENOTSUP, "loading a verify state file of an earlier fio run is "
			   "not modelled by iosched (a run here has no earlier state): only "
			   "verify_state_load=0");
}

/* verify_async_cpus=: CPU placement of the checksum threads, noted at run time */
static int opt_verify_async_cpus(struct ios_job *job, struct ios_optctx *c)
{
	if (!*c->value)
		return ios_opt_err(c, -EINVAL, "an empty CPU list");
	job->verify.async_cpus = 1;
	return 0;
}

/* verifysort, verifysort_nr: soft-deprecated in fio 3.33, which ignores them (with a note) */
static int opt_verifysort(struct ios_job *job, struct ios_optctx *c)
{
	(void)c;
	job->verify.sort_given = 1;
	return 0;
}

const struct ios_opt ios_job_verify_options[] = {
	{ INFO("verify", NULL, "enum", "0",
	       "Verify the data written: a checksum method (md5, crc32c, ... all alike here), "
	       "meta, pattern, null; 0 = none"),
	  .type = IOS_OPT_ENUM, .off = OFF(method), .choices = verify_methods },
	{ INFO("do_verify", NULL, "bool", "1", "Run the verify phase after a write phase"),
	  .type = IOS_OPT_BOOL, .off = OFF(do_verify) },
	{ INFO("verify_interval", NULL, "int", NULL,
	       "Verify header every N bytes of a block (default: the block size)"),
	  .type = IOS_OPT_SIZE, .off = OFF(interval), .min = 2 * VERIFY_HDR_BYTES },
	{ INFO("verify_offset", NULL, "int", NULL,
	       "Where in the block the header goes (no effect on what is checked here)"),
	  .type = IOS_OPT_SIZE, .off = OFF(offset), .min = VERIFY_HDR_BYTES },
	{ INFO("verify_pattern", NULL, "str", NULL, "Fill pattern the verify checks"),
	  .type = IOS_OPT_CUSTOM, .set = opt_verify_pattern },
	{ INFO("verify_fatal", NULL, "bool", "0",
	       "Stop checking a block at its first bad chunk, and end the job"),
	  .type = IOS_OPT_BOOL, .off = OFF(fatal) },
	{ INFO("verify_dump", NULL, "bool", "0",
	       "Dump good and bad blocks on a failure (noted, no file is written)"),
	  .type = IOS_OPT_BOOL, .off = OFF(dump) },
	{ INFO("verify_async", NULL, "int", "0",
	       "Checksum threads (CPU of the machine running fio: accepted, noted)"),
	  .type = IOS_OPT_INT, .off = OFF(async), .size = FSIZE(async), .min = 0,
	  .max = UINT_MAX },
	{ INFO("verify_async_cpus", NULL, "str", NULL,
	       "CPUs of the checksum threads (accepted, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_verify_async_cpus },
	{ INFO("verify_backlog", NULL, "int", NULL,
	       "Verify the oldest written blocks after every N writes"),
	  .type = IOS_OPT_SIZE, .off = OFF(backlog), .min = 0 },
	{ INFO("verify_backlog_batch", NULL, "int", NULL,
	       "Blocks verified each time (default: verify_backlog)"),
	  .type = IOS_OPT_INT, .off = OFF(backlog_batch), .size = FSIZE(backlog_batch), .min = 0,
	  .max = UINT_MAX },
	{ INFO("verify_only", NULL, "bool", "0",
	       "Do not write: verify what an earlier run of the job wrote"),
	  .type = IOS_OPT_BOOL, .off = OFF(only) },
	{ INFO("experimental_verify", NULL, "bool", "0",
	       "fio's experimental verify (only 0: not modelled)"),
	  .type = IOS_OPT_BOOL, .off = OFF(experimental), .set = opt_verify_refuse_hook },
	{ INFO("verify_state_save", NULL, "bool", "1",
	       "Save the write state when a trigger ends the job (no triggers here: no effect)"),
	  .type = IOS_OPT_BOOL, .off = OFF(state_save) },
	{ INFO("verify_state_load", NULL, "bool", "0",
	       "Load a saved write state (only 0: not modelled)"),
	  .type = IOS_OPT_BOOL, .off = OFF(state_load), .set = opt_verify_refuse_hook },
	{ INFO("verifysort", NULL, "str", NULL, "Deprecated in fio 3.33: ignored (noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_verifysort, .flags = IOS_OPTF_BARE },
	{ INFO("verifysort_nr", NULL, "str", NULL, "Deprecated in fio 3.33: ignored (noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_verifysort, .flags = IOS_OPTF_BARE },
	{ .info = { .name = NULL } },
};

#undef INFO
