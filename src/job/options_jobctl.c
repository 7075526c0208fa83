/*
 * Job control options: what ends a job or holds it back besides its own
 * size and runtime. exit_what (what exitall stops), wait_for (start after
 * a named job), steady state (end once the job's rate is flat), flow
 * (token counters that keep jobs' I/O counts in a ratio), and the options
 * of fio's tiobench profile, which fio 3.33 registers into its global
 * table at start, so that any job file may set them.
 *
 * The runner's side is in src/run/jobctl.c, flow.c and steadystate.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "job/opt.h"

#define OFF(f)		offsetof(struct ios_job, f)
#define FSIZE(f)	((unsigned)sizeof(((struct ios_job *)0)->f))

const char *const ios_job_profopt_names[4] = { "threads", "dir", "block", "numruns" };

static const char *const exit_whats[] = { "group", "stonewall", "all", NULL };

static int opt_wait_for(struct ios_job *job, struct ios_optctx *c)
{
	if (c->is_default)
		return 0;
	if (!*c->value)
		return ios_opt_err(c, -EINVAL, "empty job name");
	if (ios_opt_set_string(&job->wait_for, c->value))
		return ios_opt_err(c, -ENOMEM, "out of memory");
	job->wait_for_file = c->file;
	job->wait_for_line = c->line;
	return 0;
}

/*
 * tiobench's options: fio checks the value against the profile's own row
 * (threads=abc fails) and keeps it in the profile's data, which only
 * --profile=tiobench reads. The same checks here, and a note at run time.
 */
static int opt_profile(struct ios_job *job, struct ios_optctx *c)
{
	unsigned bit = 0;
	int64_t v;

	for (unsigned i = 0; i < IOS_ARRAY_SIZE(ios_job_profopt_names); i++)
		if (!strcmp(c->o->info.name, ios_job_profopt_names[i]))
			bit = 1u << i;
	if (c->is_default)
		return 0;
	if (bit == IOS_PROFOPT_DIR) {
		if (!*c->value)
			return ios_opt_err(c, -EINVAL, "empty value");
	} else if (ios_val_int(&c->v, c->value, 0, UINT_MAX, &v)) {
		return -EINVAL;
	}
	job->profile_opts |= bit;
	return 0;
}

/*
 * steadystate=CRITERION:LIMIT, as fio's str_steadystate_cb: iops, bw,
 * iops_slope or bw_slope; the limit a percentage ("10%", of the mean), or
 * for iops a number of IOPS, for bw a rate in bytes/s (size suffixes).
 */
static int opt_steadystate(struct ios_job *job, struct ios_optctx *c)
{
	static const struct { const char *name; unsigned bits; } crit[] = {
		{ "iops", IOS_SS_IOPS }, { "iops_slope", IOS_SS_IOPS | IOS_SS_SLOPE },
		{ "bw", IOS_SS_BW }, { "bw_slope", IOS_SS_BW | IOS_SS_SLOPE },
	};
	const char *colon = strchr(c->value, ':'), *lim;
	size_t len = colon ? (size_t)(colon - c->value) : strlen(c->value);
	unsigned bits = 0;
	char buf[64];

	for (unsigned i = 0; i < IOS_ARRAY_SIZE(crit); i++)
		if (strlen(crit[i].name) == len && !strncmp(crit[i].name, c->value, len))
			bits = crit[i].bits;
	if (!bits)
		return ios_opt_err(c, -EINVAL, "unknown criterion, allowed: iops, iops_slope, bw, "
				   "bw_slope (then ':' and the limit)");
	if (!colon || !colon[1])
		return ios_opt_err(c, -EINVAL, "the limit must follow the criterion "
				   "(steadystate=%.*s:LIMIT, e.g. %.*s:1%%)", (int)len, c->value,
				   (int)len, c->value);
	lim = colon + 1;
	len = strlen(lim);
	if (lim[len - 1] == '%' || (bits & IOS_SS_IOPS)) {
		bool pct = lim[len - 1] == '%';

		if (len >= sizeof(buf))
			return ios_opt_err(c, -EINVAL, "limit too long");
		memcpy(buf, lim, len - pct);
		buf[len - pct] = '\0';
		while (pct && len > 1 && buf[strlen(buf) - 1] == ' ')
			buf[strlen(buf) - 1] = '\0';
		if (ios_val_decimal(&c->v, buf, &job->ss_limit))
			return -EINVAL;
		if (pct)
			bits |= IOS_SS_PCT;
	} else {
		uint64_t b;

		if (ios_val_size(&c->v, lim, &b, NULL))
			return -EINVAL;
		job->ss_limit = (double)b;
	}
	job->ss_state = bits;
	return 0;
}

/* fio keeps whole seconds (it divides the microseconds by 10^6): no silent cut here */
static int opt_ss_dur_hook(struct ios_job *job, struct ios_optctx *c)
{
	if (job->ss_dur_ns % IOS_NS_PER_S)
		return ios_opt_err(c, -EINVAL, "must be a whole number of seconds (fio counts "
				   "the duration in 1-second samples)");
	if (job->ss_dur_ns / IOS_NS_PER_S > 1000000)
		return ios_opt_err(c, -ERANGE, "out of range, allowed 0..1000000 s");
	return 0;
}

static int opt_flow_sleep(struct ios_job *job, struct ios_optctx *c)
{
	int64_t v;

	if (ios_val_int(&c->v, c->value, 0, INT_MAX, &v))
		return -EINVAL;
	job->flow_sleep_ns = (uint64_t)v * IOS_NS_PER_US;
	return 0;
}

/* fio 3.33 took flow_watermark away (FIO_OPT_SOFT_DEPRECATED): it says so and goes on */
static int opt_deprecated(struct ios_job *job, struct ios_optctx *c)
{
	if (!c->is_default)
		job->deprecated_opts |= IOS_DEPR_FLOW_WATERMARK;
	return 0;
}

/*
 * write_barrier=N: fio 3.33 marks every Nth write IO_U_F_BARRIER (io_u.c,
 * fill_io_u), and no engine of that release reads the flag: the option
 * changes nothing fio does. iosched accepts it and says so.
 */
static int opt_write_barrier(struct ios_job *job, struct ios_optctx *c)
{
	char *end;
	unsigned long v;

	job->deprecated_opts &= ~IOS_DEPR_WRITE_BARRIER;
	if (c->is_default)
		return 0;
	errno = 0;
	v = strtoul(c->value, &end, 10);
	if (!*c->value || *c->value == '-' || *end || errno || v > UINT_MAX)
		return ios_opt_err(c, -EINVAL, "not a whole number 0..%u", UINT_MAX);
	if (v)
		job->deprecated_opts |= IOS_DEPR_WRITE_BARRIER;
	return 0;
}

#define INFO(n, a, t, d, h)	.info = { .name = n, .alias = a, .type = t, .def = d, .help = h }

const struct ios_opt ios_job_options_jobctl[] = {
	{ INFO("exit_what", NULL, "enum", "group",
	       "What exitall stops when this job ends: group, stonewall (the running jobs), all"),
	  .type = IOS_OPT_ENUM, .off = OFF(exit_what), .choices = exit_whats },
	{ INFO("wait_for", NULL, "str", NULL,
	       "Start only when every clone of the named (earlier) job has finished"),
	  .type = IOS_OPT_CUSTOM, .set = opt_wait_for },
	{ INFO("steadystate", "ss", "str", "iops_slope:0.01%",
	       "Steady-state criterion and limit: iops, iops_slope, bw, bw_slope, ':' limit[%]"),
	  .type = IOS_OPT_CUSTOM, .set = opt_steadystate },
	{ INFO("steadystate_duration", "ss_dur", "time", "0",
	       "End the job once steady state holds over this many seconds (0: off)"),
	  .type = IOS_OPT_TIME, .off = OFF(ss_dur_ns), .unit_ns = IOS_NS_PER_S,
	  .set = opt_ss_dur_hook },
	{ INFO("steadystate_ramp_time", "ss_ramp", "time", "0",
	       "Start the steady-state samples this long after the job's start"),
	  .type = IOS_OPT_TIME, .off = OFF(ss_ramp_ns), .unit_ns = IOS_NS_PER_S },
	{ INFO("flow_id", NULL, "int", "0", "The flow (token group) this job belongs to"),
	  .type = IOS_OPT_INT, .off = OFF(flow_id), .size = FSIZE(flow_id), .min = 0,
	  .max = UINT_MAX },
	{ INFO("flow", NULL, "int", "0",
	       "Weight of this job in its flow: I/O counts are kept in the weights' ratio"),
	  .type = IOS_OPT_INT, .off = OFF(flow), .size = FSIZE(flow), .min = 0, .max = 1000 },
	{ INFO("flow_sleep", NULL, "int", "0",
	       "Microseconds to sleep when held back by the flow (0: wait for the others)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_flow_sleep, .flags = IOS_OPTF_NUM },
	{ INFO("flow_watermark", NULL, "int", NULL,
	       "Deprecated in fio 3.33: accepted and ignored, with fio's note"),
	  .type = IOS_OPT_CUSTOM, .set = opt_deprecated, .flags = IOS_OPTF_BARE },
	{ INFO("write_barrier", NULL, "int", "0",
	       "Every Nth write a barrier write: fio 3.33 marks it and no engine reads the "
	       "mark (accepted; no effect, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_write_barrier, .flags = IOS_OPTF_NUM },
	{ INFO("threads", NULL, "int", "1",
	       "tiobench profile: threads (no effect without --profile=tiobench, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_profile, .flags = IOS_OPTF_NUM },
	{ INFO("dir", NULL, "str", NULL,
	       "tiobench profile: test directory (no effect without --profile=tiobench, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_profile },
	{ INFO("block", NULL, "int", "4096",
	       "tiobench profile: block size (no effect without --profile=tiobench, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_profile, .flags = IOS_OPTF_NUM },
	{ INFO("numruns", NULL, "int", NULL,
	       "tiobench profile: runs (no effect without --profile=tiobench, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_profile, .flags = IOS_OPTF_NUM },
	{ .info = { .name = NULL } },
};
