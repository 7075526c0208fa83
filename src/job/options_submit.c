/*
 * Job options about how I/O is submitted, the priority of single I/Os, the
 * latency target and the contents of the buffers (fio 3.33's io_submit_mode,
 * cmdprio*, latency_*, random_generator, dedupe_* and buffer_* options).
 *
 * A separate table from options.c so that this group of options reads as one
 * subject; options.c's ios_job_option_tables lists both. The run-time side
 * is in src/run/submit.c (offload, cmdprio, random_generator=lfsr) and
 * src/run/lat_target.c (latency_target).
 *
 * The buffer-content options shape only the bytes fio writes. iosched's
 * devices neither compress nor deduplicate, so those bytes take the same time
 * to transfer whatever they are: the options are checked like fio checks
 * them, and the run prints a note that says so.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "job/opt.h"

#define OFF(f)		offsetof(struct ios_job, f)
#define FSIZE(f)	((unsigned)sizeof(((struct ios_job *)0)->f))

const char *const ios_job_bufopt_names[IOS_NR_BUFOPTS] = {
	"dedupe_mode", "dedupe_global", "dedupe_percentage", "dedupe_working_set_percentage",
	"buffer_compress_percentage", "buffer_compress_chunk", "buffer_pattern",
	"refill_buffers", "scramble_buffers", "zero_buffers",
};

/* Remember which buffer-content option was given, for the run's note. */
int ios_opt_bufopt_hook(struct ios_job *job, struct ios_optctx *c)
{
	for (unsigned i = 0; i < IOS_NR_BUFOPTS; i++)
		if (!strcmp(c->o->info.name, ios_job_bufopt_names[i])) {
			if (c->is_default)
				job->sub.buffer_given &= ~(1u << i);
			else
				job->sub.buffer_given |= 1u << i;
		}
	return 0;
}

/*
 * buffer_pattern: read as fio reads it (pattern.c: hex, decimal, "text",
 * 'file', no %o). The contents have no effect on the simulated timing.
 */
static int sub_buffer_pattern(struct ios_job *job, struct ios_optctx *c)
{
	uint64_t hash;
	unsigned len;
	int ret;

	if (c->is_default)
		return ios_opt_bufopt_hook(job, c);
	ret = ios_opt_pattern(c, false, &hash, &len);
	return ret ? ret : ios_opt_bufopt_hook(job, c);
}

static int sub_cmdprio_hook(struct ios_job *job, struct ios_optctx *c)
{
	unsigned bit = !strcmp(c->o->info.name, "cmdprio_percentage") ? IOS_CMDPRIO_PCT
		       : !strcmp(c->o->info.name, "cmdprio_class") ? IOS_CMDPRIO_CLASS
		       : IOS_CMDPRIO_LEVEL;

	if (c->is_default)
		job->sub.cmdprio_given &= ~bit;
	else
		job->sub.cmdprio_given |= bit;
	return 0;
}

/* One direction of cmdprio_bssplit: bs/perc[/class/level]:... (fio's cmdprio.c). */
static int sub_cmdprio_split_dir(struct ios_job *job, struct ios_optctx *c, int dir,
				 const char *text)
{
	char *copy = strdup(text), *save = NULL, *tok;
	struct ios_cmdprio_entry ent[IOS_MAX_BSSPLIT];	/* trims' list is checked, not kept */
	unsigned n = 0, sum = 0;
	int ret = 0;

	if (!copy)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ":", &save); tok && !ret; tok = strtok_r(NULL, ":", &save)) {
		char *field[4] = { NULL };
		unsigned nf = 0;
		char *s2 = NULL, *f;
		int64_t v;
		struct ios_cmdprio_entry *e;

		for (f = strtok_r(tok, "/", &s2); f && nf < 5; f = strtok_r(NULL, "/", &s2))
			if (nf++ < 4)
				field[nf - 1] = f;
		/*
		 * bs/perc/class/level/hint: the priority hint came with fio-3.36
		 * (commit "cmdprio: Add support for per I/O priority hint");
		 * fio 3.33's sscanf reads four fields and drops the fifth.
		 */
		if (nf == 5) {
			ret = ios_opt_err(c, -EINVAL, "a fifth field (the priority hint) comes from "
					  "fio-3.36, later than the fio 3.33 iosched follows: not "
					  "accepted (drop it to run the entry as fio 3.33 does, which "
					  "ignores it)");
			break;
		}
		if (nf != 2 && nf != 4) {
			ret = ios_opt_err(c, -EINVAL, "entry needs bs/percentage or "
					  "bs/percentage/class/level");
			break;
		}
		if (n == IOS_MAX_BSSPLIT) {
			ret = ios_opt_err(c, -EINVAL, "more than %d entries", IOS_MAX_BSSPLIT);
			break;
		}
		e = &ent[n];
		ret = ios_val_size(&c->v, field[0], &e->bs, NULL);
		if (!ret && !e->bs)
			ret = ios_opt_err(c, -ERANGE, "block size out of range, allowed 1 or more");
		if (!ret)
			ret = ios_val_int(&c->v, field[1], 0, 100, &v);
		if (ret)
			break;
		e->perc = (unsigned)v;
		sum += e->perc;
		e->prio_class = e->prio_level = -1;
		if (nf == 4) {
			ret = ios_val_int(&c->v, field[2], 1, 3, &v);
			if (ret)
				break;
			e->prio_class = (int)v;
			ret = ios_val_int(&c->v, field[3], 0, 7, &v);
			if (ret)
				break;
			e->prio_level = (int)v;
		}
		n++;
	}
	free(copy);
	/* fio: the entries of one block size may not add up to more than 100 */
	for (unsigned a = 0; !ret && a < n; a++) {
		const struct ios_cmdprio_entry *ea = &ent[a];

		sum = 0;
		for (unsigned b = 0; b < n; b++)
			if (ent[b].bs == ea->bs)
				sum += ent[b].perc;
		if (sum > 100)
			ret = ios_opt_err(c, -ERANGE, "percentages of block size %" PRIu64
					  " add up to %u, more than 100", ea->bs, sum);
	}
	if (!ret && dir < 2) {
		memcpy(job->sub.cmdprio_split[dir], ent, n * sizeof(ent[0]));
		job->sub.nr_cmdprio_split[dir] = n;
	}
	return ret;
}

static int sub_cmdprio_bssplit(struct ios_job *job, struct ios_optctx *c)
{
	if (c->is_default) {
		job->sub.nr_cmdprio_split[0] = job->sub.nr_cmdprio_split[1] = 0;
		job->sub.cmdprio_given &= ~IOS_CMDPRIO_SPLIT;
		return 0;
	}
	job->sub.cmdprio_given |= IOS_CMDPRIO_SPLIT;
	return ios_opt_for_each_dir(job, c, sub_cmdprio_split_dir);
}

static int sub_lat_percentile(struct ios_job *job, struct ios_optctx *c)
{
	double v;
	int ret = ios_val_decimal(&c->v, c->value, &v);

	if (ret)
		return ret;
	if (v < 0.0 || v > 100.0)
		return ios_opt_err(c, -ERANGE, "out of range, allowed 0..100");
	job->sub.lat_percentile = v;
	return 0;
}

static const char *const submit_modes[] = { "inline", "offload", NULL };
static const char *const rand_gens[] = { "tausworthe", "lfsr", "tausworthe64", NULL };
static const char *const dedupe_modes[] = { "repeat", "working_set", NULL };

#define INFO(n, a, t, d, h)	.info = { .name = n, .alias = a, .type = t, .def = d, .help = h }

const struct ios_opt ios_job_options_submit[] = {
	/* ---- submission ---- */
	{ INFO("io_submit_mode", NULL, "enum", "inline",
	       "inline: the job submits and reaps; offload: submitter threads take the I/Os, "
	       "so the job issues at its rate whatever the completions do"),
	  .type = IOS_OPT_ENUM, .off = OFF(sub.offload), .choices = submit_modes },
	{ INFO("random_generator", NULL, "enum", "tausworthe",
	       "tausworthe, tausworthe64, or lfsr (every block once per pass, no random map)"),
	  .type = IOS_OPT_ENUM, .off = OFF(sub.rand_gen), .choices = rand_gens },

	/* ---- per-I/O priority (libaio and io_uring engine options) ---- */
	{ INFO("cmdprio_percentage", NULL, "int list", NULL,
	       "Percentage of I/Os (per direction) sent with cmdprio_class / cmdprio"),
	  .type = IOS_OPT_INT, .off = OFF(sub.cmdprio_pct), .size = sizeof(unsigned), .min = 0,
	  .max = 100, .flags = IOS_OPTF_PERDIR, .set = sub_cmdprio_hook },
	{ INFO("cmdprio_class", NULL, "int list", NULL,
	       "Priority class of those I/Os: 1 realtime (default), 2 best-effort, 3 idle"),
	  .type = IOS_OPT_INT, .off = OFF(sub.cmdprio_class), .size = sizeof(unsigned), .min = 1,
	  .max = 3, .flags = IOS_OPTF_PERDIR, .set = sub_cmdprio_hook },
	{ INFO("cmdprio", NULL, "int list", NULL, "Priority level of those I/Os, 0..7"),
	  .type = IOS_OPT_INT, .off = OFF(sub.cmdprio_level), .size = sizeof(unsigned), .min = 0,
	  .max = 7, .flags = IOS_OPTF_PERDIR, .set = sub_cmdprio_hook },
	{ INFO("cmdprio_bssplit", NULL, "str", NULL,
	       "Per block size: bs/percent[/class/level]:..., per direction"),
	  .type = IOS_OPT_CUSTOM, .set = sub_cmdprio_bssplit, .flags = IOS_OPTF_COLONS },

	/* ---- latency target ---- */
	{ INFO("latency_target", NULL, "time", NULL,
	       "Find the highest queue depth whose I/Os complete within this (microseconds)"),
	  .type = IOS_OPT_TIME, .off = OFF(sub.lat_target_ns), .unit_ns = IOS_NS_PER_US },
	{ INFO("latency_window", NULL, "time", NULL,
	       "Span over which latency_target is checked (microseconds)"),
	  .type = IOS_OPT_TIME, .off = OFF(sub.lat_window_ns), .unit_ns = IOS_NS_PER_US },
	{ INFO("latency_percentile", NULL, "float", "100",
	       "Percentage of the I/Os of a window that must meet latency_target"),
	  .type = IOS_OPT_CUSTOM, .set = sub_lat_percentile, .flags = IOS_OPTF_NUM },
	{ INFO("latency_run", NULL, "bool", "0",
	       "Keep adjusting the depth for the whole run instead of settling"),
	  .type = IOS_OPT_BOOL, .off = OFF(sub.lat_run) },

	/* ---- buffer contents: no effect on timing (noted) ---- */
	{ INFO("dedupe_mode", NULL, "enum", "repeat",
	       "How deduplicable buffers are made: repeat or working_set (no effect on timing)"),
	  .type = IOS_OPT_ENUM, .off = OFF(sub.dedupe_mode), .choices = dedupe_modes,
	  .set = ios_opt_bufopt_hook },
	{ INFO("dedupe_global", NULL, "bool", "0",
	       "Share deduplication buffers between jobs (no effect on timing)"),
	  .type = IOS_OPT_BOOL, .off = OFF(sub.dedupe_global), .set = ios_opt_bufopt_hook },
	{ INFO("dedupe_percentage", NULL, "int", NULL,
	       "Percentage of buffers that repeat earlier ones (no effect on timing)"),
	  .type = IOS_OPT_INT, .off = OFF(sub.dedupe_pct), .size = FSIZE(sub.dedupe_pct), .min = 0,
	  .max = 100, .set = ios_opt_bufopt_hook },
	{ INFO("dedupe_working_set_percentage", NULL, "int", "5",
	       "Size of the dedupe working set, percent of the file (no effect on timing)"),
	  .type = IOS_OPT_INT, .off = OFF(sub.dedupe_ws_pct), .size = FSIZE(sub.dedupe_ws_pct),
	  .min = 0, .max = 100, .set = ios_opt_bufopt_hook },
	{ INFO("buffer_compress_percentage", NULL, "int", NULL,
	       "How compressible the buffers are (no effect on timing)"),
	  .type = IOS_OPT_INT, .off = OFF(sub.compress_pct), .size = FSIZE(sub.compress_pct),
	  .min = 0, .max = 100, .set = ios_opt_bufopt_hook },
	{ INFO("buffer_compress_chunk", NULL, "size", "512",
	       "Size of the compressible runs in a buffer (no effect on timing)"),
	  .type = IOS_OPT_SIZE, .off = OFF(sub.compress_chunk), .min = 0, .set = ios_opt_bufopt_hook },
	{ INFO("buffer_pattern", NULL, "str", NULL,
	       "Fill pattern: 0xhex, decimal, \"text\", 'file', in sequence (no effect on timing)"),
	  .type = IOS_OPT_CUSTOM, .set = sub_buffer_pattern },
	{ INFO("refill_buffers", NULL, "flag", NULL,
	       "Refill the buffers before every write (no effect on timing)"),
	  .type = IOS_OPT_FLAG, .off = OFF(sub.refill_buffers), .set = ios_opt_bufopt_hook },
	{ INFO("scramble_buffers", NULL, "bool", "1",
	       "Scramble the buffers slightly before every write (no effect on timing)"),
	  .type = IOS_OPT_BOOL, .off = OFF(sub.scramble_buffers), .set = ios_opt_bufopt_hook },
	{ .info = { .name = NULL } },
};

#undef INFO
