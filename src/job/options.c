/*
 * The job options iosched models: one row per fio option, with fio 3.33's
 * name (the JSON key), aliases, default, allowed range and help text, all
 * checked against `fio --cmdhelp=OPTION`. The generic engine in opt.c applies
 * a row; the few options whose values have a shape of their own (rw, bs,
 * bsrange, bssplit, filename, ioengine, ...) get a small setter here.
 *
 * Where we differ from fio on purpose, the row says so in its help or a
 * comment, and docs/jobfiles.md lists it: ranges are checked at parse time
 * (fio checks some later and clamps others), loops/numjobs/thinktime_blocks
 * start at 1, iodepth stops at 65536, trims are refused.
 *
 * fio_names.c lists fio 3.33's options, so that one we do not model fails
 * with "not modelled by iosched" rather than "unknown option".
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/sched.h"
#include "iosched/suggest.h"
#include "job/opt.h"

#define OFF(f)		offsetof(struct ios_job, f)
#define FSIZE(f)	((unsigned)sizeof(((struct ios_job *)0)->f))

/* ---- hooks and setters ---- */

static int opt_name(struct ios_job *job, struct ios_optctx *c)
{
	if (c->global)
		return 0;	/* fio: jobs take their section's name */
	if (ios_opt_set_string(&job->name, c->value))
		return ios_opt_err(c, -ENOMEM, "out of memory");
	return 0;
}

static void opt_free_filenames(struct ios_job *job)
{
	unsigned i;

	for (i = 0; i < job->nr_filenames; i++)
		free(job->filenames[i]);
	free(job->filenames);
	job->filenames = NULL;
	job->nr_filenames = 0;
}

/* filename=a:b\:c -> "a", "b:c". Empty names are errors. */
static int opt_filename(struct ios_job *job, struct ios_optctx *c)
{
	const char *p = c->value;
	char **v = NULL, *cur;
	unsigned n = 0, cap = 0, i;
	size_t len = strlen(p);

	cur = malloc(len + 1);
	if (!cur)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	for (;;) {
		size_t cl = 0;
		char **nv;

		while (*p && *p != ':') {
			if (p[0] == '\\' && p[1] == ':')
				p++;
			cur[cl++] = *p++;
		}
		cur[cl] = '\0';
		if (!cl) {
			for (i = 0; i < n; i++)
				free(v[i]);
			free(v);
			free(cur);
			return ios_opt_err(c, -EINVAL, "empty file name in the ':'-separated list "
					   "(write '\\:' for a colon inside a name)");
		}
		/* doubling: a list of 300,000 names is one realloc per doubling, not per name */
		nv = n < cap ? v : realloc(v, (size_t)(cap = cap ? 2 * cap : 8) * sizeof(*v));
		if (nv)
			v = nv;
		if (!nv || !(v[n] = strdup(cur))) {
			for (i = 0; i < n; i++)
				free(v[i]);
			free(v);
			free(cur);
			return ios_opt_err(c, -ENOMEM, "out of memory");
		}
		n++;
		if (!*p)
			break;
		p++;
	}
	free(cur);
	if (ios_opt_set_string(&job->filename, c->value)) {
		for (i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return ios_opt_err(c, -ENOMEM, "out of memory");
	}
	opt_free_filenames(job);
	job->filenames = v;
	job->nr_filenames = n;
	return 0;
}

static int opt_rw(struct ios_job *job, struct ios_optctx *c)
{
	static const struct { const char *name; enum ios_rw rw; } tab[] = {
		{ "read", IOS_RW_READ }, { "write", IOS_RW_WRITE },
		{ "randread", IOS_RW_RANDREAD }, { "randwrite", IOS_RW_RANDWRITE },
		{ "rw", IOS_RW_RW }, { "readwrite", IOS_RW_RW }, { "randrw", IOS_RW_RANDRW },
		{ "trim", IOS_RW_TRIM }, { "randtrim", IOS_RW_RANDTRIM },
		{ "trimwrite", IOS_RW_TRIMWRITE },
	};
	static const char *const trims[] = { "randtrimwrite" };
	const char *colon = strchr(c->value, ':');
	size_t len = colon ? (size_t)(colon - c->value) : strlen(c->value);
	size_t i;
	int64_t n;
	uint64_t hole;
	bool neg = false;
	int ret;

	for (i = 0; i < IOS_ARRAY_SIZE(trims); i++)
		if (strlen(trims[i]) == len && !strncmp(trims[i], c->value, len))
			return ios_opt_err(c, -ENOTSUP, "randtrimwrite is not modelled by iosched "
					   "(trim, randtrim and trimwrite are)");
	for (i = 0; i < IOS_ARRAY_SIZE(tab); i++)
		if (strlen(tab[i].name) == len && !strncmp(tab[i].name, c->value, len))
			break;
	if (i == IOS_ARRAY_SIZE(tab))
		return ios_opt_err(c, -EINVAL, "unknown value, allowed: read, write, randread, "
				   "randwrite, rw, readwrite, randrw, trim, randtrim, trimwrite "
				   "(with an optional :N)");
	job->rw = tab[i].rw;
	job->rw_seq_nr = 0;
	job->rw_seq_add = 0;
	if (!colon)
		return 0;
	if (ios_rw_is_random(job->rw)) {
		/* N I/Os at each new random offset */
		ret = ios_val_int(&c->v, colon + 1, 1, UINT_MAX, &n);
		if (!ret)
			job->rw_seq_nr = (unsigned)n;
		return ret;
	}
	/*
	 * sequential: N bytes more (a hole) or, negative, back (fio's
	 * ddir_seq_add, read with size suffixes as fio's str_to_decimal does)
	 */
	{
		const char *v = colon + 1;

		while (*v == ' ' || *v == '\t')
			v++;
		if (*v == '-') {
			neg = true;
			v++;
		}
		ret = ios_val_size(&c->v, v, &hole, NULL);
		if (!ret && hole > UINT_MAX)
			ret = ios_opt_err(c, -ERANGE, "hole out of range, allowed -%u..%u bytes",
					  UINT_MAX, UINT_MAX);
	}
	if (!ret) {
		job->rw_seq_add = neg ? -(int64_t)hole : (int64_t)hole;
		job->rw_seq_nr = job->rw_seq_add > 0 ? (unsigned)hole : 0;
	}
	return ret;
}

/*
 * zonemode: none and strided are fio's offset rules (io_u.c,
 * setup_strided_zone_mode); zbd is fio's zbd.c (run/zbd.c), on a zoned
 * device (--device smr-hm, zns) or zones emulated on a conventional one.
 */
static int opt_zonemode(struct ios_job *job, struct ios_optctx *c)
{
	if (!strcmp(c->value, "none"))
		job->zone_mode = IOS_ZONE_NONE;
	else if (!strcmp(c->value, "strided"))
		job->zone_mode = IOS_ZONE_STRIDED;
	else if (!strcmp(c->value, "zbd"))
		job->zone_mode = IOS_ZONE_ZBD;
	else
		return ios_opt_err(c, -EINVAL, "unknown value, allowed: none, strided, zbd");
	return 0;
}

/* zoned:50/10:50/90 or zoned_abs:60/20m:40/100m (one list for all directions) */
static int opt_rand_zones(struct ios_job *job, struct ios_optctx *c, const char *list, bool abs)
{
	struct ios_rand_zone z[IOS_MAX_RAND_ZONES];
	char *buf = strdup(list), *p, *next;
	unsigned n = 0, acc = 0, sz = 0, missing = 0;
	int ret = 0;

	if (!buf)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	if (strchr(buf, ',')) {
		ret = ios_opt_err(c, -ENOTSUP, "per-direction zone lists are not supported by "
				  "iosched (give one list for all directions)");
		goto out;
	}
	for (p = buf; p && *p && !ret; p = next) {
		char *slash = strchr(p, '/');
		int64_t v;

		next = strchr(p, ':');
		if (next)
			*next++ = '\0';
		if (n == IOS_MAX_RAND_ZONES || !slash) {
			ret = ios_opt_err(c, -EINVAL, n == IOS_MAX_RAND_ZONES ? "more than %d zones"
					  : "expected access%%/size for each zone (%d at most)",
					  IOS_MAX_RAND_ZONES);
			break;
		}
		*slash = '\0';
		memset(&z[n], 0, sizeof(z[n]));
		ret = ios_val_int(&c->v, p, 1, 100, &v);
		if (ret)
			break;
		z[n].access_perc = (unsigned)v;
		acc += (unsigned)v;
		if (abs) {
			ret = ios_val_size(&c->v, slash + 1, &z[n].size, NULL);
			if (!ret && !z[n].size)
				ret = ios_opt_err(c, -ERANGE, "zone size out of range, allowed 1 or more");
		} else if (!slash[1]) {
			z[n].size_perc = UINT_MAX;	/* fio: a share of what is left */
			missing++;
		} else {
			ret = ios_val_int(&c->v, slash + 1, 1, 100, &v);
			z[n].size_perc = (unsigned)v;
			sz += (unsigned)v;
		}
		n++;
	}
	for (unsigned k = 0; !ret && missing && k < n; k++)
		if (z[k].size_perc == UINT_MAX)
			z[k].size_perc = sz < 100 ? (100 - sz) / missing : 0;
	if (!ret && (acc != 100 || (!abs && sz > 100)))
		ret = ios_opt_err(c, -ERANGE, acc != 100 ? "access percentages add up to %u, not 100"
				  : "size percentages add up to %u, more than 100",
				  acc != 100 ? acc : sz);
	if (!ret && !n)
		ret = ios_opt_err(c, -EINVAL, "no zones given");
	if (!ret) {
		memcpy(job->rand_zones, z, n * sizeof(z[0]));
		job->nr_rand_zones = n;
		job->rand_dist = abs ? IOS_RAND_ZONED_ABS : IOS_RAND_ZONED;
	}
out:
	free(buf);
	return ret;
}

/*
 * random_distribution: random, zipf[:theta[:center]], pareto[:h[:center]],
 * normal[:dev[:center]], zoned:..., zoned_abs:... with fio 3.33's defaults
 * (theta 1.2, h 0.3, dev 0) and ranges (options.c, str_random_distribution_cb).
 */
static int opt_random_distribution(struct ios_job *job, struct ios_optctx *c)
{
	static const struct { const char *name; int dist; double def; } tab[] = {
		{ "random", IOS_RAND_UNIFORM, 0 }, { "zipf", IOS_RAND_ZIPF, 1.2 },
		{ "pareto", IOS_RAND_PARETO, 0.3 }, { "normal", IOS_RAND_NORMAL, 0 },
	};
	const char *colon = strchr(c->value, ':');
	size_t len = colon ? (size_t)(colon - c->value) : strlen(c->value), i;
	double val, center = -1;
	int ret;

	job->nr_rand_zones = 0;
	if (len == 5 && !strncmp(c->value, "zoned", 5) && colon)
		return opt_rand_zones(job, c, colon + 1, false);
	if (len == 9 && !strncmp(c->value, "zoned_abs", 9) && colon)
		return opt_rand_zones(job, c, colon + 1, true);
	for (i = 0; i < IOS_ARRAY_SIZE(tab); i++)
		if (strlen(tab[i].name) == len && !strncmp(tab[i].name, c->value, len))
			break;
	if (i == IOS_ARRAY_SIZE(tab))
		return ios_opt_err(c, -EINVAL, "unknown value, allowed: random, zipf[:theta], "
				   "pareto[:h], normal[:dev], zoned:a/s:..., zoned_abs:a/size:...");
	val = tab[i].def;
	if (colon && tab[i].dist != IOS_RAND_UNIFORM) {
		char *buf = strdup(colon + 1), *c2;

		if (!buf)
			return ios_opt_err(c, -ENOMEM, "out of memory");
		c2 = strchr(buf, ':');
		if (c2)
			*c2++ = '\0';
		ret = ios_val_decimal(&c->v, buf, &val);
		if (!ret && c2)
			ret = ios_val_decimal(&c->v, c2, &center);
		free(buf);
		if (ret)
			return ret;
		if (c2 && center > 1.0)
			return ios_opt_err(c, -ERANGE, "center out of range, allowed 0..1");
	}
	if (tab[i].dist == IOS_RAND_ZIPF && val == 1.0)
		return ios_opt_err(c, -ERANGE, "zipf theta must be other than 1.0 (fio's rule)");
	if (tab[i].dist == IOS_RAND_PARETO && !(val > 0.0 && val < 1.0))
		return ios_opt_err(c, -ERANGE, "pareto h out of range, allowed above 0, below 1");
	if (tab[i].dist == IOS_RAND_NORMAL && !(val >= 0.0 && val < 100.0))
		return ios_opt_err(c, -ERANGE, "normal deviation out of range, allowed 0 up to "
				   "below 100");
	job->rand_dist = tab[i].dist;
	job->rand_dist_val = val;
	job->rand_center = center;
	return 0;
}

const char *const ios_job_cpuopt_names[10] = {
	"cpus_allowed", "cpus_allowed_policy", "cpumask", "numa_cpu_nodes", "numa_mem_policy",
	"sqthread_poll", "sqthread_poll_cpu", "force_async", "fixedbufs", "registerfiles",
};

/*
 * cpus_allowed=: fio's list of CPUs, "0,2-3" (set_cpus_allowed in fio's
 * options.c: comma-separated numbers and ascending ranges). Every CPU must
 * be below IOS_MAX_CPUS here; the run checks it against lab.cpus, which
 * plays the machine's CPU count fio checks it against.
 */
static int opt_cpu_list(struct ios_optctx *c, uint64_t *set)
{
	const char *p = c->value;

	while (*p) {
		char *end;
		unsigned long lo, hi;

		if (*p < '0' || *p > '9')
			return ios_opt_err(c, -EINVAL, "not a CPU list at '%s' (in job '%s'; fio's "
					   "form: 0,2-3)", p, c->section);
		lo = hi = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				return ios_opt_err(c, -EINVAL, "not a CPU list at '%s' (in job '%s'; "
						   "fio's form: 0,2-3)", p, c->section);
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (lo >= IOS_MAX_CPUS || hi >= IOS_MAX_CPUS)
			return ios_opt_err(c, -ERANGE, "CPU %lu out of range (in job '%s'), allowed "
					   "0..%d (and below lab.cpus)", lo >= IOS_MAX_CPUS ? lo : hi,
					   c->section, IOS_MAX_CPUS - 1);
		if (hi < lo)
			return ios_opt_err(c, -EINVAL, "the range %lu-%lu goes down (in job '%s')",
					   lo, hi, c->section);
		for (unsigned long k = lo; k <= hi; k++)
			set[k / 64] |= 1ull << (k % 64);
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return ios_opt_err(c, -EINVAL, "not a CPU list at '%s' (in job '%s'; fio's "
					   "form: 0,2-3)", p, c->section);
	}
	return 0;
}

/*
 * cpumask=: fio's bit mask of CPUs, a number (decimal, or hex with 0x: fio
 * reads it as an integer option, str_cpumask_cb); bit N is CPU N, so it
 * names CPUs 0..63. A mask without a bit names no CPU: refused.
 */
static int opt_cpu_mask(struct ios_optctx *c, uint64_t *set)
{
	const char *p = c->value;
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(p, &end, 0);
	if (*p == '-' || end == p || *end || errno)
		return ios_opt_err(c, errno == ERANGE ? -ERANGE : -EINVAL, "not a CPU mask (in job "
				   "'%s'): a number whose bit N is CPU N, allowed 1..0x%llx",
				   c->section, ~0ull);
	if (!v)
		return ios_opt_err(c, -ERANGE, "names no CPU (in job '%s'), allowed 1..0x%llx",
				   c->section, ~0ull);
	set[0] = v;
	return 0;
}

/*
 * CPU placement: fio pins the job's process or its memory. cpus_allowed and
 * cpumask are parsed into the job's CPU set, which blk-mq runs use for the
 * task's software context (run/cpu_map.c); every option here is noted when
 * the job runs where it has no effect (task.c), as docs/jobfiles.md says.
 */
static int opt_cpu(struct ios_job *job, struct ios_optctx *c)
{
	static const char *const policies[] = { "shared", "split", NULL };
	static const char *const mems[] = { "default", "prefer", "bind", "interleave", "local",
					    NULL };
	const char *const *allowed = NULL;
	unsigned bit = 0, i;

	for (i = 0; i < IOS_ARRAY_SIZE(ios_job_cpuopt_names); i++)
		if (!strcmp(c->o->info.name, ios_job_cpuopt_names[i]))
			bit = 1u << i;
	if (bit == IOS_CPUOPT_CPUS_POLICY)
		allowed = policies;
	else if (bit == IOS_CPUOPT_NUMA_MEM)
		allowed = mems;
	if (c->is_default) {
		job->cpu_opts &= ~bit;
		if (job->cpu_set_opt == bit) {
			memset(job->cpu_set, 0, sizeof(job->cpu_set));
			job->cpu_set_opt = 0;
		}
		return 0;
	}
	/*
	 * fixedbufs, registerfiles: fio 3.33's FIO_OPT_STR_SET (parse.c): bare
	 * is 1, else a whole number, 0 off.
	 */
	if ((bit == IOS_CPUOPT_FIXEDBUFS || bit == IOS_CPUOPT_REGFILES) && (!c->value || !*c->value))
		c->value = "1";
	if (!*c->value)
		return ios_opt_err(c, -EINVAL, "empty value");
	if (bit == IOS_CPUOPT_CPUS_ALLOWED || bit == IOS_CPUOPT_CPUMASK) {
		uint64_t set[IOS_MAX_CPUS / 64] = { 0 };
		int ret = bit == IOS_CPUOPT_CPUMASK ? opt_cpu_mask(c, set) : opt_cpu_list(c, set);

		if (ret)
			return ret;
		/* the later of the two wins, as both set fio's one affinity mask */
		memcpy(job->cpu_set, set, sizeof(set));
		job->cpu_set_opt = bit;
		job->cpu_set_file = c->file;
		job->cpu_set_line = c->line;
	}
	/* io_uring's own options (fio 3.33 engines/io_uring.c) */
	if (bit >= IOS_CPUOPT_SQPOLL && job->ioengine != IOS_ENGINE_IO_URING)
		return ios_opt_err(c, -EINVAL, "an option of ioengine io_uring, not of this "
				   "job's ioengine");
	if (bit == IOS_CPUOPT_SQPOLL && strcmp(c->value, "0") && strcmp(c->value, "1"))
		return ios_opt_err(c, -EINVAL, "not 0 or 1");
	/*
	 * force_async=N (fio 3.33 engines/io_uring.c): IOSQE_ASYNC on every
	 * Nth SQE, so the kernel hands it to an io-wq worker thread instead of
	 * issuing it inline (io_uring/io_uring.c, io_queue_sqe_fallback in
	 * Linux 6.1): CPU-side, the request reaching the block layer is the same.
	 */
	if (bit == IOS_CPUOPT_FORCE_ASYNC || bit == IOS_CPUOPT_FIXEDBUFS ||
	    bit == IOS_CPUOPT_REGFILES) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(c->value, &end, 10);
		if (*c->value == '-' || *end || errno || v > UINT_MAX)
			return ios_opt_err(c, -EINVAL, "not a whole number 0..%u", UINT_MAX);
		if (!v) {
			job->cpu_opts &= ~bit;
			return 0;
		}
	}
	if (bit == IOS_CPUOPT_SQPOLL && !strcmp(c->value, "0")) {
		job->cpu_opts &= ~bit;
		return 0;
	}
	if (allowed) {
		size_t len = strcspn(c->value, ":");

		for (i = 0; allowed[i]; i++)
			if (strlen(allowed[i]) == len && !strncmp(allowed[i], c->value, len))
				break;
		if (!allowed[i])
			return ios_opt_err(c, -EINVAL, "unknown value, allowed: %s",
					   allowed == policies ? "shared, split"
					   : "default, prefer, bind, interleave, local (with :nodes)");
	}
	job->cpu_opts |= bit;
	return 0;
}

/*
 * disk_util: fio 3.33 keeps do_disk_util (default 1); the field here is
 * its negation so that a zeroed job means the default. The bool was
 * stored as given: flip it.
 */
static int opt_disk_util_hook(struct ios_job *job, struct ios_optctx *c)
{
	job->no_disk_util = c->is_default ? 0 : !job->no_disk_util;
	return 0;
}

/*
 * gtod_reduce=1 is fio's shorthand for disable_lat, disable_clat,
 * disable_slat and disable_bw_measurement with no percentiles
 * (str_gtod_reduce_cb); an option written after it still overrides.
 * What each one leaves out of the reports is done by the runner.
 */
static int opt_gtod_reduce_hook(struct ios_job *job, struct ios_optctx *c)
{
	if (c->is_default || !job->gtod_reduce)
		return 0;
	job->disable_lat = job->disable_clat = job->disable_slat = job->disable_bw = 1;
	job->clat_percentiles = job->lat_percentiles = job->slat_percentiles = 0;
	return 0;
}

static int opt_rwmixwrite(struct ios_job *job, struct ios_optctx *c)
{
	int64_t v;
	int ret = ios_val_int(&c->v, c->value, 0, 100, &v);

	if (!ret)
		job->rwmixread = (unsigned)(100 - v);
	return ret;
}

static int opt_bs_dir(struct ios_job *job, struct ios_optctx *c, int dir, const char *text)
{
	uint64_t v;
	int ret = ios_val_size(&c->v, text, &v, NULL);

	if (ret)
		return ret;
	if (!v)
		return ios_opt_err(c, -ERANGE, "out of range, allowed 1 or more");
	if (dir < 2)
		job->bs[dir] = job->bs_min[dir] = job->bs_max[dir] = v;
	return 0;
}

static int opt_bs(struct ios_job *job, struct ios_optctx *c)
{
	return ios_opt_for_each_dir(job, c, opt_bs_dir);
}

static int opt_bsrange_dir(struct ios_job *job, struct ios_optctx *c, int dir, const char *text)
{
	uint64_t lo, hi;
	int ret = ios_opt_size_range(c, text, true, &lo, &hi);

	if (ret)
		return ret;
	if (!lo)
		return ios_opt_err(c, -ERANGE, "out of range, allowed 1 or more");
	if (dir < 2) {
		job->bs_min[dir] = job->bs[dir] = lo;
		job->bs_max[dir] = hi;
	}
	return 0;
}

static int opt_bsrange(struct ios_job *job, struct ios_optctx *c)
{
	return ios_opt_for_each_dir(job, c, opt_bsrange_dir);
}

/* "4k/10:64k/50:32k/" for one direction */
static int opt_bssplit_dir(struct ios_job *job, struct ios_optctx *c, int dir, const char *text)
{
	struct ios_bssplit sp[IOS_MAX_BSSPLIT];
	char *buf = strdup(text), *p, *next;
	unsigned n = 0, sum = 0, blanks = 0, i;
	int ret = 0;

	if (!buf)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	for (p = buf; p; p = next) {
		char *slash = NULL, *q;
		int depth = 0;
		uint64_t bs;

		next = NULL;
		for (q = p; *q; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			else if (!depth && *q == '/' && !slash)
				slash = q;
			else if (!depth && *q == ':') {
				*q = '\0';
				next = q + 1;
				break;
			}
		}
		if (n == IOS_MAX_BSSPLIT) {
			ret = ios_opt_err(c, -EINVAL, "more than %d block sizes", IOS_MAX_BSSPLIT);
			goto out;
		}
		if (slash)
			*slash = '\0';
		if (!*p) {
			ret = ios_opt_err(c, -EINVAL, "empty entry (write size/percent:size/percent)");
			goto out;
		}
		ret = ios_val_size(&c->v, p, &bs, NULL);
		if (ret)
			goto out;
		if (!bs) {
			ret = ios_opt_err(c, -ERANGE, "block size out of range, allowed 1 or more");
			goto out;
		}
		sp[n].bs = bs;
		sp[n].perc = 0;
		if (slash && slash[1]) {
			int64_t perc;

			if (strchr(slash + 1, '.')) {
				ret = ios_opt_err(c, -EINVAL, "fractional percentages are not supported "
						  "by iosched");
				goto out;
			}
			ret = ios_val_int(&c->v, slash + 1, 1, 100, &perc);
			if (ret)
				goto out;
			sp[n].perc = (unsigned)perc;
			sum += (unsigned)perc;
		} else {
			blanks++;
		}
		n++;
	}
	if (sum > 100) {
		ret = ios_opt_err(c, -ERANGE, "percentages add up to %u, more than 100", sum);
		goto out;
	}
	if (!blanks && sum != 100) {
		ret = ios_opt_err(c, -ERANGE, "percentages add up to %u, not 100 (leave one "
				  "percentage blank to give it the rest)", sum);
		goto out;
	}
	if (blanks && sum == 100) {
		ret = ios_opt_err(c, -ERANGE, "the given percentages already add up to 100, "
				  "so entries without one would never be used");
		goto out;
	}
	if (dir < 2) {
		for (i = 0; i < n; i++)
			job->bssplit[dir][i] = sp[i];
		job->nr_bssplit[dir] = n;
	}
out:
	free(buf);
	return ret;
}

static int opt_bssplit(struct ios_job *job, struct ios_optctx *c)
{
	return ios_opt_for_each_dir(job, c, opt_bssplit_dir);
}

#define IOS_ENGINES_SUPPORTED "sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, " \
	"posixaio, null, falloc, ftruncate, filecreate, filestat, filedelete, e4defrag"

static int opt_ioengine(struct ios_job *job, struct ios_optctx *c)
{
	static const char *const names[] = {
		[IOS_ENGINE_SYNC] = "sync", [IOS_ENGINE_PSYNC] = "psync",
		[IOS_ENGINE_VSYNC] = "vsync", [IOS_ENGINE_PVSYNC] = "pvsync",
		[IOS_ENGINE_PVSYNC2] = "pvsync2", [IOS_ENGINE_LIBAIO] = "libaio",
		[IOS_ENGINE_IO_URING] = "io_uring", [IOS_ENGINE_POSIXAIO] = "posixaio",
		[IOS_ENGINE_NULL] = "null", [IOS_ENGINE_FALLOC] = "falloc",
		[IOS_ENGINE_FTRUNCATE] = "ftruncate", [IOS_ENGINE_FILECREATE] = "filecreate",
		[IOS_ENGINE_FILESTAT] = "filestat", [IOS_ENGINE_FILEDELETE] = "filedelete",
		[IOS_ENGINE_E4DEFRAG] = "e4defrag",
	};
	static const char *const fio_engines[] = {
		"mmap", "splice", "netsplice", "sg", "net", "cpuio", "rdma",
		"gfapi", "gfapi_async", "pmemblk", "dev-dax", "dircreate", "dirstat", "dirdelete", "libpmem", "nbd", "rbd",
		"http", "nfs", "exec", "xnvme", "libcufile", "io_uring_cmd", "mtd", "guasi",
		"binject", "solarisaio", "windowsaio", "libhdfs", "ime_psync", "ime_psyncv",
		"ime_aio", "libiscsi", "librpma_apm_client", "librpma_apm_server",
		"librpma_gpspm_client", "librpma_gpspm_server", "rados", "spdk", "skeleton_external",
		NULL,
	};
	const char *const *p;
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(names); i++) {
		if (!strcmp(names[i], c->value)) {
			job->ioengine = (enum ios_ioengine)i;
			return 0;
		}
	}
	/*
	 * fio 3.33 still loads libaio for any name that starts with "aio" or
	 * "linuxaio" (ioengines.c, __load_ioengine), fio 1.x's spellings
	 */
	if (!strncmp(c->value, "aio", 3) || !strncmp(c->value, "linuxaio", 8)) {
		job->ioengine = IOS_ENGINE_LIBAIO;
		return 0;
	}
	for (p = fio_engines; *p; p++)
		if (!strcmp(*p, c->value))
			break;
	if (*p || !strncmp(c->value, "external", 8))
		return ios_opt_err(c, -ENOTSUP, "ioengine '%s' is not supported by iosched "
				   "(supported: " IOS_ENGINES_SUPPORTED ")", c->value);
	{
		struct ios_suggest s;
		char hint[256];

		ios_suggest_init(&s, c->value);
		for (i = 0; i < IOS_ARRAY_SIZE(names); i++)
			ios_suggest_add(&s, NULL, names[i]);
		return ios_opt_err(c, -EINVAL, "unknown ioengine%s (supported: "
				   IOS_ENGINES_SUPPORTED ")", ios_suggest_str(&s, hint, sizeof(hint)));
	}
}

static int opt_sync(struct ios_job *job, struct ios_optctx *c)
{
	if (!strcmp(c->value, "none") || !strcmp(c->value, "0"))
		job->sync = 0;
	else if (!strcmp(c->value, "sync") || !strcmp(c->value, "1"))
		job->sync = 1;
	else if (!strcmp(c->value, "dsync"))
		job->sync = 2;
	else
		return ios_opt_err(c, -EINVAL, "unknown value, allowed: none, 0, sync, 1, dsync");
	return 0;
}

static int opt_kb_base(struct ios_job *job, struct ios_optctx *c)
{
	if (!strcmp(c->value, "1024"))
		job->kb_base = 1024;
	else if (!strcmp(c->value, "1000"))
		job->kb_base = 1000;
	else
		return ios_opt_err(c, -EINVAL, "unknown value, allowed: 1024, 1000");
	return 0;
}

#define IOS_MAX_PERCENTILES 20	/* fio's FIO_IO_U_LIST_MAX_LEN */

static int opt_percentile_list(struct ios_job *job, struct ios_optctx *c)
{
	double v[IOS_MAX_PERCENTILES];
	char *buf = strdup(c->value), *p, *next;
	unsigned n = 0, i;
	int ret = 0;

	if (!buf)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	for (p = buf; p; p = next) {
		next = strchr(p, ':');
		if (next)
			*next++ = '\0';
		if (n == IOS_MAX_PERCENTILES) {
			ret = ios_opt_err(c, -EINVAL, "more than %d percentiles", IOS_MAX_PERCENTILES);
			goto out;
		}
		ret = ios_val_decimal(&c->v, p, &v[n]);
		if (ret)
			goto out;
		if (!(v[n] > 0.0 && v[n] <= 100.0)) {
			ret = ios_opt_err(c, -ERANGE, "percentile '%s' out of range, allowed above "
					  "0 up to 100", p);
			goto out;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		job->percentile_list[i] = v[i];
	job->nr_percentiles = n;
out:
	free(buf);
	return ret;
}

static int opt_direct_hook(struct ios_job *job, struct ios_optctx *c)
{
	(void)c;
	job->buffered = !job->direct;
	return 0;
}

static int opt_buffered_hook(struct ios_job *job, struct ios_optctx *c)
{
	(void)c;
	job->direct = !job->buffered;
	return 0;
}

static int opt_nice_hook(struct ios_job *job, struct ios_optctx *c)
{
	job->nice_set = !c->is_default;
	return 0;
}

/*
 * Remember where the cgroup options were written: whether a weight fits
 * depends on the scheduler, which only the runner knows, and its message
 * should still point at the line.
 */
static int opt_cgroup_hook(struct ios_job *job, struct ios_optctx *c)
{
	if (!c->is_default) {
		job->cgroup_file = c->file;
		job->cgroup_line = c->line;
	}
	return 0;
}

/*
 * exec_prerun= is read only as cgroup file writes (job/prerun.c): its
 * syntax is checked here so the message points at the line; the files and
 * values are checked by the runner, which knows the groups and the device.
 */
static int opt_exec_prerun_hook(struct ios_job *job, struct ios_optctx *c)
{
	struct ios_cgwrite *w;
	char msg[512];
	size_t n;
	int ret;

	if (c->is_default || !job->exec_prerun)
		return 0;
	ret = ios_job_prerun_parse(job->exec_prerun, &w, &n, msg, sizeof(msg));
	if (ret == -ENOMEM)
		return ios_opt_err(c, -ENOMEM, "out of memory");
	if (ret)
		return ios_opt_err(c, -EINVAL, "iosched runs no commands; exec_prerun is read "
				   "only as cgroup v2 file writes, echo VALUE > "
				   "/sys/fs/cgroup/[PATH/]FILE, joined by ';' or '&&': %s", msg);
	ios_job_prerun_free(w, n);
	job->exec_prerun_file = c->file;
	job->exec_prerun_line = c->line;
	return 0;
}

static int opt_cgroup_weight_hook(struct ios_job *job, struct ios_optctx *c)
{
	if (!c->is_default) {
		job->cgroup_weight_file = c->file;
		job->cgroup_weight_line = c->line;
	}
	return 0;
}

/*
 * Remember where the options that size the job's files were written: the
 * layout happens at run time, and a file that does not fit on the device
 * should be blamed on the line that asked for it.
 */
static int opt_src_hook(struct ios_job *job, struct ios_optctx *c)
{
	struct ios_optsrc *src;

	if (c->o->off == OFF(size))
		src = &job->size_src;
	else if (c->o->off == OFF(filesize_lo))
		src = &job->filesize_src;
	else if (c->o->off == OFF(nrfiles))
		src = &job->nrfiles_src;
	else if (c->o->off == OFF(offset))
		src = &job->offset_src;
	else if (c->o->off == OFF(zone_size))
		src = &job->zone_size_src;
	else
		return 0;
	if (c->is_default) {
		memset(src, 0, sizeof(*src));
		return 0;
	}
	src->file = c->file;
	src->line = c->line;
	snprintf(src->text, sizeof(src->text), "%s%s%s", c->key, c->value ? "=" : "",
		 c->value ? c->value : "");
	return 0;
}

static int opt_randseed_hook(struct ios_job *job, struct ios_optctx *c)
{
	job->randseed_set = !c->is_default;
	return 0;
}

static int opt_bwavgtime_hook(struct ios_job *job, struct ios_optctx *c)
{
	job->bwavgtime_set = !c->is_default;
	return 0;
}

static int opt_iopsavgtime_hook(struct ios_job *job, struct ios_optctx *c)
{
	job->iopsavgtime_set = !c->is_default;
	return 0;
}

/*
 * ioscheduler=NAME: fio writes NAME to the device's queue/scheduler when the
 * job sets up (backend.c, switch_ioscheduler) and fails the job when the
 * kernel does not take it. The names are the simulator's schedulers; which
 * one the run uses, and what happens when jobs disagree, is the runner's
 * business (run.c), so remember where it was written.
 */
static int opt_ioscheduler(struct ios_job *job, struct ios_optctx *c)
{
	if (!ios_sched_find(c->value)) {
		char names[256] = "";
		const struct ios_sched_type *st;

		for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++) {
			strncat(names, i ? ", " : "", sizeof(names) - strlen(names) - 1);
			strncat(names, st->name, sizeof(names) - strlen(names) - 1);
			if (st->alias) {
				strncat(names, "/", sizeof(names) - strlen(names) - 1);
				strncat(names, st->alias, sizeof(names) - strlen(names) - 1);
			}
		}
		return ios_opt_err(c, -EINVAL, "unknown I/O scheduler (fio: \"unable to set io "
				   "scheduler\"); known: %s", names);
	}
	if (ios_opt_set_string(&job->ioscheduler, c->value))
		return ios_opt_err(c, -ENOMEM, "out of memory");
	job->ioscheduler_file = c->file;
	job->ioscheduler_line = c->line;
	return 0;
}

static int opt_rate_cycle_hook(struct ios_job *job, struct ios_optctx *c)
{
	job->rate_cycle_set = !c->is_default;
	return 0;
}

static int opt_overwrite_hook(struct ios_job *job, struct ios_optctx *c)
{
	job->overwrite_set = !c->is_default;
	return 0;
}

/* ---- the table ---- */

static const char *const tb_types[] = { "complete", "issue", NULL };
static const char *const rate_processes[] = { "linear", "poisson", NULL };
static const char *const rw_sequencers[] = { "sequential", "identical", NULL };

#define INFO(n, a, t, d, h)	.info = { .name = n, .alias = a, .type = t, .def = d, .help = h }

const struct ios_opt ios_job_options[] = {
	/* ---- kb_base first: it changes how every size below is read ---- */
	{ INFO("kb_base", NULL, "enum", "1024",
	       "Unit prefixes: 1024 = k/m/g are powers of 1024 and kib/mib/gib powers of 1000 "
	       "(fio's compatibility inversion), 1000 = the reverse"),
	  .type = IOS_OPT_CUSTOM, .set = opt_kb_base, .flags = IOS_OPTF_FIRST },

	/* ---- identity ---- */
	{ INFO("name", NULL, "str", NULL, "Name of this job (default: the section name)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_name },
	{ INFO("description", NULL, "str", NULL, "Text job description"),
	  .type = IOS_OPT_STR, .off = OFF(description) },

	/* ---- files ---- */
	{ INFO("filename", NULL, "str", NULL,
	       "File(s) to use, ':'-separated ('\\:' for a colon); jobs naming the same file share it"),
	  .type = IOS_OPT_CUSTOM, .set = opt_filename, .flags = IOS_OPTF_LAST },
	{ INFO("directory", NULL, "str", NULL, "Directory to put the files in"),
	  .type = IOS_OPT_STR, .off = OFF(directory) },
	{ INFO("nrfiles", "nr_files", "int", "1", "Split the job's size between this many files"),
	  .type = IOS_OPT_INT, .off = OFF(nrfiles), .size = FSIZE(nrfiles), .min = 1, .max = UINT_MAX,
	  .set = opt_src_hook },
	{ INFO("size", NULL, "size", NULL,
	       "Total bytes of I/O per job (or 1..100% of the file); default: the file's size"),
	  .type = IOS_OPT_SIZE, .off = OFF(size), .off2 = OFF(size_pct), .min = 1,
	  .flags = IOS_OPTF_PCT | IOS_OPTF_ZONE, .set = opt_src_hook },
	{ INFO("filesize", NULL, "range", NULL,
	       "Size of each file; a range lo-hi picks each file's size at random"),
	  .type = IOS_OPT_SIZE, .off = OFF(filesize_lo), .off2 = OFF(filesize_hi), .min = 1,
	  .flags = IOS_OPTF_RANGE, .set = opt_src_hook },
	{ INFO("offset", "fileoffset", "size", "0", "Start I/O at this offset (bytes or 0..100%)"),
	  .type = IOS_OPT_SIZE, .off = OFF(offset), .off2 = OFF(offset_pct), .min = 0,
	  .flags = IOS_OPTF_PCT | IOS_OPTF_ZONE, .set = opt_src_hook },
	{ INFO("offset_increment", NULL, "size", "0",
	       "Each numjobs clone starts this much (bytes or %) further"),
	  .type = IOS_OPT_SIZE, .off = OFF(offset_increment), .off2 = OFF(offset_increment_pct),
	  .min = 0, .flags = IOS_OPTF_PCT | IOS_OPTF_ZONE },
	{ INFO("io_size", "io_limit", "size", NULL,
	       "Total bytes of I/O to do, within the region set by size (or 1..100%)"),
	  .type = IOS_OPT_SIZE, .off = OFF(io_size), .off2 = OFF(io_size_pct), .min = 1,
	  .flags = IOS_OPTF_PCT | IOS_OPTF_ZONE },
	{ INFO("create_on_open", NULL, "bool", "0", "Create files when they are opened for I/O"),
	  .type = IOS_OPT_BOOL, .off = OFF(create_on_open) },
	{ INFO("invalidate", NULL, "bool", "1", "Drop the files' page cache before the job"),
	  .type = IOS_OPT_BOOL, .off = OFF(invalidate) },
	{ INFO("unlink", NULL, "bool", "0", "Unlink the files when the job is done"),
	  .type = IOS_OPT_BOOL, .off = OFF(unlink) },
	{ INFO("overwrite", NULL, "bool", "0", "Lay the file out before writing, so writes overwrite"),
	  .type = IOS_OPT_BOOL, .off = OFF(overwrite), .set = opt_overwrite_hook },

	/* ---- pattern ---- */
	{ INFO("rw", "readwrite", "enum", "read",
	       "I/O pattern: read, write, randread, randwrite, rw/readwrite, randrw, trim, "
	       "randtrim, trimwrite; ':N' = a new random offset every N I/Os, or an N-byte "
	       "hole (-N: N bytes back) after each sequential I/O"),
	  .type = IOS_OPT_CUSTOM, .set = opt_rw },
	{ INFO("rw_sequencer", NULL, "enum", "sequential",
	       "With rw=randX:N, the I/Os between two random offsets are sequential, or "
	       "identical (the same offset again)"),
	  .type = IOS_OPT_ENUM, .off = OFF(rw_seq_ident), .choices = rw_sequencers },
	{ INFO("zonemode", NULL, "enum", "none",
	       "none; strided: zonesize bytes in each zonerange, then skip zoneskip bytes; zbd: "
	       "writes at the write pointers of a zoned device's zones (or emulated zones)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_zonemode },
	{ INFO("zonesize", NULL, "size", "0",
	       "zonemode=strided: bytes to transfer in a zone before moving to the next; "
	       "zonemode=zbd: the zone size (must match a zoned device's)"),
	  .type = IOS_OPT_SIZE, .off = OFF(zone_size), .min = 0, .set = opt_src_hook },
	{ INFO("zonecapacity", NULL, "size", "0",
	       "zonemode=zbd on a conventional device or file: writable bytes of each emulated "
	       "zone (0: zonesize); a zoned device's own capacity wins"),
	  .type = IOS_OPT_SIZE, .off = OFF(zone_capacity), .min = 0 },
	{ INFO("max_open_zones", NULL, "int", "0",
	       "zonemode=zbd: zones written at once, shared by the jobs on a device (0: the "
	       "device's limit, or none)"),
	  .type = IOS_OPT_INT, .off = OFF(max_open_zones), .size = FSIZE(max_open_zones),
	  .min = 0, .max = 4096 },
	{ INFO("job_max_open_zones", NULL, "int", "0",
	       "zonemode=zbd: zones this job writes at once (needs a global limit)"),
	  .type = IOS_OPT_INT, .off = OFF(job_max_open_zones), .size = FSIZE(job_max_open_zones),
	  .min = 0, .max = 4096 },
	{ INFO("ignore_zone_limits", NULL, "bool", "0",
	       "zonemode=zbd: ignore the device's open-zone limit (max_open_zones may exceed it)"),
	  .type = IOS_OPT_BOOL, .off = OFF(ignore_zone_limits) },
	{ INFO("read_beyond_wp", NULL, "bool", "0",
	       "zonemode=zbd: let reads reach above a zone's write pointer"),
	  .type = IOS_OPT_BOOL, .off = OFF(read_beyond_wp) },
	{ INFO("zone_reset_threshold", NULL, "float", "0",
	       "zonemode=zbd: share of the job's range holding data above which zones are reset "
	       "periodically (0..1)"),
	  .type = IOS_OPT_CUSTOM, .set = ios_opt_zbd_reset_threshold, .flags = IOS_OPTF_NUM },
	{ INFO("zone_reset_frequency", NULL, "float", "0",
	       "zonemode=zbd: once past the threshold, reset a zone every 1/N writes (0..1)"),
	  .type = IOS_OPT_CUSTOM, .set = ios_opt_zbd_reset_frequency, .flags = IOS_OPTF_NUM },
	{ INFO("zonerange", NULL, "size", "0",
	       "zonemode=strided: size of a zone (default: zonesize)"),
	  .type = IOS_OPT_SIZE, .off = OFF(zone_range), .min = 0 },
	{ INFO("zoneskip", NULL, "size", "0",
	       "zonemode=strided: bytes skipped after each zone"),
	  .type = IOS_OPT_SIZE, .off = OFF(zone_skip), .min = 0, .flags = IOS_OPTF_ZONE },
	{ INFO("rwmixread", NULL, "int", "50", "Percentage of a mixed workload that is reads"),
	  .type = IOS_OPT_INT, .off = OFF(rwmixread), .size = FSIZE(rwmixread), .min = 0, .max = 100 },
	{ INFO("rwmixwrite", NULL, "int", "50",
	       "Percentage of a mixed workload that is writes (the later of rwmixread/rwmixwrite wins)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_rwmixwrite, .flags = IOS_OPTF_NUM },
	{ INFO("bs", "blocksize", "size list", "4096",
	       "Block size; 'read,write,trim' values, a trailing comma stops the last one spreading"),
	  .type = IOS_OPT_CUSTOM, .set = opt_bs, .flags = IOS_OPTF_NUM },
	{ INFO("bsrange", "blocksize_range", "range list", NULL,
	       "Block size range lo-hi, per direction (1k-4k,2k-8k)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_bsrange, .flags = IOS_OPTF_RANGE },
	{ INFO("bssplit", NULL, "str", NULL,
	       "Weighted block sizes size/percent:size/percent, per direction; a blank percent "
	       "shares the rest"),
	  .type = IOS_OPT_CUSTOM, .set = opt_bssplit, .flags = IOS_OPTF_COLONS },
	{ INFO("bs_unaligned", "blocksize_unaligned", "flag", NULL,
	       "Block sizes from bsrange need not be multiples of the minimum"),
	  .type = IOS_OPT_FLAG, .off = OFF(bs_unaligned) },
	{ INFO("ba", "blockalign", "size list", NULL,
	       "Align random offsets to this (default: the block size), per direction"),
	  .type = IOS_OPT_SIZE, .off = OFF(blockalign), .min = 1, .flags = IOS_OPTF_PERDIR },
	{ INFO("randrepeat", "rand_repeatable", "bool", "1",
	       "Same random sequence on every run (iosched is always deterministic)"),
	  .type = IOS_OPT_BOOL, .off = OFF(randrepeat) },
	{ INFO("randseed", NULL, "int", "0x89", "Seed of the job's random generators"),
	  .type = IOS_OPT_SIZE, .off = OFF(randseed), .min = 0, .set = opt_randseed_hook },
	{ INFO("random_distribution", NULL, "str", "random",
	       "Random offsets: random, zipf[:theta], pareto[:h], normal[:dev] (each with an "
	       "optional :center), zoned:access%/size%:..., zoned_abs:access%/bytes:..."),
	  .type = IOS_OPT_CUSTOM, .set = opt_random_distribution },
	{ INFO("norandommap", NULL, "flag", NULL, "Random offsets may repeat and skip blocks"),
	  .type = IOS_OPT_FLAG, .off = OFF(norandommap) },
	{ INFO("zero_buffers", NULL, "flag", NULL, "Fill buffers with zeroes (no effect on timing)"),
	  .type = IOS_OPT_FLAG, .off = OFF(zero_buffers), .set = ios_opt_bufopt_hook },

	/* ---- engine ---- */
	{ INFO("ioengine", NULL, "enum", "psync",
	       "I/O engine: sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio, null"),
	  .def_fio1 = "sync", .type = IOS_OPT_CUSTOM, .set = opt_ioengine },
	{ INFO("direct", NULL, "bool", "0", "Use O_DIRECT (the inverse of buffered)"),
	  .def_fio1 = "1", .type = IOS_OPT_BOOL, .off = OFF(direct), .set = opt_direct_hook },
	{ INFO("buffered", NULL, "bool", "1", "Use buffered I/O (the inverse of direct)"),
	  .def_fio1 = "0", .type = IOS_OPT_BOOL, .off = OFF(buffered), .set = opt_buffered_hook },
	{ INFO("sync", NULL, "enum", "none", "Synchronous writes: none/0, sync/1 (O_SYNC), dsync"),
	  .type = IOS_OPT_CUSTOM, .set = opt_sync },
	{ INFO("iodepth", NULL, "int", "1", "I/Os in flight per job (async engines)"),
	  .type = IOS_OPT_INT, .off = OFF(iodepth), .size = FSIZE(iodepth), .min = 1, .max = 65536 },
	{ INFO("iodepth_batch", "iodepth_batch_submit", "int", "1",
	       "I/Os to submit at once (0 = iodepth)"),
	  .type = IOS_OPT_INT, .off = OFF(iodepth_batch_submit), .size = FSIZE(iodepth_batch_submit),
	  .min = 0, .max = 65536 },
	{ INFO("iodepth_batch_complete_min", "iodepth_batch_complete", "int", "1",
	       "Least number of completions to reap at once"),
	  .type = IOS_OPT_INT, .off = OFF(iodepth_batch_complete_min),
	  .size = FSIZE(iodepth_batch_complete_min), .min = 0, .max = 65536 },
	{ INFO("iodepth_batch_complete_max", NULL, "int", NULL,
	       "Most completions to reap at once (default: iodepth_batch_complete_min)"),
	  .type = IOS_OPT_INT, .off = OFF(iodepth_batch_complete_max),
	  .size = FSIZE(iodepth_batch_complete_max), .min = 0, .max = 65536 },
	{ INFO("iodepth_low", NULL, "int", NULL,
	       "Refill the queue when it drains to this depth (default: iodepth)"),
	  .type = IOS_OPT_INT, .off = OFF(iodepth_low), .size = FSIZE(iodepth_low), .min = 0,
	  .max = 65536 },
	{ INFO("fsync", NULL, "int", "0", "fsync after every N writes (0 = never)"),
	  .type = IOS_OPT_INT, .off = OFF(fsync_blocks), .size = FSIZE(fsync_blocks), .min = 0,
	  .max = UINT_MAX },
	{ INFO("fdatasync", NULL, "int", "0", "fdatasync after every N writes (0 = never)"),
	  .type = IOS_OPT_INT, .off = OFF(fdatasync_blocks), .size = FSIZE(fdatasync_blocks),
	  .min = 0, .max = UINT_MAX },
	{ INFO("end_fsync", NULL, "bool", "0", "fsync the files when the job's writes are done"),
	  .type = IOS_OPT_BOOL, .off = OFF(end_fsync) },
	{ INFO("fsync_on_close", NULL, "bool", "0", "fsync each file when it is closed"),
	  .type = IOS_OPT_BOOL, .off = OFF(fsync_on_close) },

	/* ---- time ---- */
	{ INFO("runtime", "timeout", "time", "0",
	       "Stop after this long (seconds without a unit; timeout= is the fio 1.x name)"),
	  .type = IOS_OPT_TIME, .off = OFF(runtime_ns), .unit_ns = IOS_NS_PER_S },
	{ INFO("time_based", NULL, "flag", NULL, "Loop over the workload until runtime is up"),
	  .type = IOS_OPT_FLAG, .off = OFF(time_based) },
	{ INFO("startdelay", NULL, "time range", "0",
	       "Wait this long before starting (seconds; lo-hi picks at random)"),
	  .type = IOS_OPT_TIME, .off = OFF(startdelay_lo_ns), .off2 = OFF(startdelay_hi_ns),
	  .unit_ns = IOS_NS_PER_S, .flags = IOS_OPTF_RANGE },
	{ INFO("ramp_time", NULL, "time", "0", "Run this long before counting (seconds)"),
	  .type = IOS_OPT_TIME, .off = OFF(ramp_time_ns), .unit_ns = IOS_NS_PER_S },
	{ INFO("thinktime", NULL, "time", "0",
	       "Idle this long after an I/O completes (microseconds without a unit)"),
	  .type = IOS_OPT_TIME, .off = OFF(thinktime_ns), .unit_ns = IOS_NS_PER_US },
	{ INFO("thinktime_spin", NULL, "time", "0",
	       "Spend this part of thinktime busy (microseconds)"),
	  .type = IOS_OPT_TIME, .off = OFF(thinktime_spin_ns), .unit_ns = IOS_NS_PER_US },
	{ INFO("thinktime_blocks", NULL, "int", "1", "I/Os between thinktime pauses"),
	  .type = IOS_OPT_INT, .off = OFF(thinktime_blocks), .size = FSIZE(thinktime_blocks),
	  .min = 1, .max = UINT_MAX },
	{ INFO("thinktime_blocks_type", NULL, "enum", "complete",
	       "Count thinktime_blocks at completion or at issue"),
	  .type = IOS_OPT_ENUM, .off = OFF(thinktime_blocks_issue), .choices = tb_types },
	{ INFO("rate", NULL, "size list", NULL,
	       "Bandwidth cap in bytes/s per direction (KiB/s under fio 1.x compat)"),
	  .type = IOS_OPT_SIZE, .off = OFF(rate), .min = 0,
	  .flags = IOS_OPTF_PERDIR | IOS_OPTF_KIB1 },
	{ INFO("rate_min", "ratemin", "size list", NULL,
	       "Least bandwidth in bytes/s per direction (KiB/s under fio 1.x compat)"),
	  .type = IOS_OPT_SIZE, .off = OFF(rate_min), .min = 0,
	  .flags = IOS_OPTF_PERDIR | IOS_OPTF_KIB1 },
	{ INFO("rate_iops", NULL, "int list", NULL, "IOPS cap per direction"),
	  .type = IOS_OPT_INT, .off = OFF(rate_iops), .size = sizeof(unsigned), .min = 0,
	  .max = UINT_MAX, .flags = IOS_OPTF_PERDIR },
	{ INFO("rate_iops_min", NULL, "int list", NULL, "Least IOPS per direction"),
	  .type = IOS_OPT_INT, .off = OFF(rate_iops_min), .size = sizeof(unsigned), .min = 0,
	  .max = UINT_MAX, .flags = IOS_OPTF_PERDIR },
	{ INFO("rate_cycle", "ratecycle", "int", "1000",
	       "Measure rate_min / rate_iops_min over spans of this many milliseconds"),
	  .type = IOS_OPT_MSEC, .off = OFF(rate_cycle_ns), .set = opt_rate_cycle_hook },
	{ INFO("rate_process", NULL, "enum", "linear", "Rated I/O arrives linearly or as Poisson"),
	  .type = IOS_OPT_ENUM, .off = OFF(rate_process_poisson), .choices = rate_processes },
	{ INFO("loops", NULL, "int", "1", "Run the workload this many times"),
	  .type = IOS_OPT_INT, .off = OFF(loops), .size = FSIZE(loops), .min = 1, .max = UINT_MAX },
	{ INFO("number_ios", NULL, "int", "0",
	       "End the job after this many I/Os (times loops), if it has not ended before"),
	  .type = IOS_OPT_SIZE, .off = OFF(number_ios), .min = 0 },
	{ INFO("numjobs", NULL, "int", "1", "Clones of this job (up to max_jobs)"),
	  .type = IOS_OPT_INT, .off = OFF(numjobs), .size = FSIZE(numjobs), .min = 1,
	  .max = IOS_JOB_MAX_JOBS },
	/*
	 * fio sizes its shared memory for FIO_MAX_JOBS (4096) processes and takes
	 * more only from its --max-jobs flag. A simulated process costs a few KB,
	 * so a job file may raise the ceiling itself.
	 */
	{ INFO("max_jobs", NULL, "int", "4096",
	       "iosched only: the most processes the run may have (fio's --max-jobs; fio's "
	       "limit is 4096)"),
	  .type = IOS_OPT_INT, .off = OFF(max_jobs), .size = FSIZE(max_jobs), .min = 1,
	  .max = IOS_JOB_MAX_JOBS },

	/* ---- priority and groups ---- */
	{ INFO("prio", NULL, "int", NULL, "I/O priority level 0..7 (0 highest); see ionice(1)"),
	  .type = IOS_OPT_INT, .off = OFF(prio), .size = FSIZE(prio), .min = 0, .max = 7 },
	{ INFO("prioclass", NULL, "int", NULL,
	       "I/O priority class: 1 realtime, 2 best-effort, 3 idle (0 none)"),
	  .type = IOS_OPT_INT, .off = OFF(prioclass), .size = FSIZE(prioclass), .min = 0, .max = 3 },
	{ INFO("nice", NULL, "int", "0", "CPU nice value -20..19"),
	  .type = IOS_OPT_INT, .off = OFF(nice), .size = FSIZE(nice), .min = -20, .max = 19,
	  .set = opt_nice_hook },
	{ INFO("cgroup", NULL, "str", NULL, "Put the job in this cgroup (a/b: nested)"),
	  .type = IOS_OPT_STR, .off = OFF(cgroup), .set = opt_cgroup_hook },
	/*
	 * fio takes 100..1000 (blkio.weight of 2.6.33). The range that counts
	 * is the scheduler's (4.19 blkio 10..1000, BFQ 1..1000), checked by the
	 * runner: here only the widest.
	 */
	{ INFO("cgroup_weight", NULL, "int", NULL,
	       "Weight of the job's cgroup, 1..1000 (the scheduler's own range applies)"),
	  .type = IOS_OPT_INT, .off = OFF(cgroup_weight), .size = FSIZE(cgroup_weight),
	  .min = 1, .max = 1000, .set = opt_cgroup_weight_hook },
	{ INFO("exec_prerun", NULL, "str", NULL,
	       "Read only as cgroup v2 file writes, applied when the job starts: "
	       "echo VALUE > /sys/fs/cgroup/[PATH/]FILE (';' or '&&' between several)"),
	  .type = IOS_OPT_STR, .off = OFF(exec_prerun), .set = opt_exec_prerun_hook },
	{ INFO("cgroup_nodelete", NULL, "bool", "0", "Keep the cgroup after the job"),
	  .type = IOS_OPT_BOOL, .off = OFF(cgroup_nodelete) },

	/* ---- synchronisation and reporting ---- */
	{ INFO("stonewall", "wait_for_previous", "flag", NULL,
	       "Wait for the jobs above to finish; starts a new reporting group"),
	  .type = IOS_OPT_FLAG, .off = OFF(stonewall) },
	{ INFO("new_group", NULL, "flag", NULL, "Start a new reporting group"),
	  .type = IOS_OPT_FLAG, .off = OFF(new_group) },
	{ INFO("group_reporting", NULL, "flag", NULL, "Report per group instead of per job"),
	  .type = IOS_OPT_FLAG, .off = OFF(group_reporting) },
	{ INFO("exitall", NULL, "flag", NULL, "When one job finishes, stop the others"),
	  .type = IOS_OPT_FLAG, .off = OFF(exitall) },
	{ INFO("exitall_on_error", NULL, "flag", NULL,
	       "When one job finishes in error, stop the others"),
	  .type = IOS_OPT_FLAG, .off = OFF(exitall_on_error) },

	/* ---- errors (setters in options_err.c) ---- */
	{ INFO("continue_on_error", NULL, "str", "none",
	       "Go on after errors of these kinds: none, read, write, io, verify, all, 0, 1"),
	  .type = IOS_OPT_CUSTOM, .set = ios_opt_continue_on_error },
	{ INFO("ignore_error", NULL, "str", NULL,
	       "Errors that do not stop the job, READ,WRITE,VERIFY lists of ':'-separated "
	       "names (ENOSPC) or numbers"),
	  .type = IOS_OPT_CUSTOM, .set = ios_opt_ignore_error },
	{ INFO("error_dump", NULL, "bool", "0", "Print every error, even those the job goes on after"),
	  .type = IOS_OPT_BOOL, .off = OFF(error_dump) },
	{ INFO("create_serialize", NULL, "bool", "1",
	       "Create the jobs' files one after another (iosched always does: 0 is noted)"),
	  .type = IOS_OPT_BOOL, .off = OFF(create_serialize) },
	{ INFO("fill_device", "fill_fs", "bool", "0",
	       "Write until the filesystem is full (ENOSPC ends the job without error)"),
	  .type = IOS_OPT_BOOL, .off = OFF(fill_device) },
	{ INFO("bwavgtime", NULL, "int", "500", "Bandwidth sampling window in milliseconds"),
	  .type = IOS_OPT_MSEC, .off = OFF(bwavgtime_ns), .set = opt_bwavgtime_hook },
	{ INFO("iopsavgtime", NULL, "int", "500", "IOPS sampling window in milliseconds"),
	  .type = IOS_OPT_MSEC, .off = OFF(iopsavgtime_ns), .set = opt_iopsavgtime_hook },
	{ INFO("percentile_list", NULL, "float list",
	       "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
	       "Completion latency percentiles to report, ':'-separated, at most 20"),
	  .type = IOS_OPT_CUSTOM, .set = opt_percentile_list },
	{ INFO("clat_percentiles", NULL, "bool", "1", "Report completion latency percentiles"),
	  .type = IOS_OPT_BOOL, .off = OFF(clat_percentiles) },
	{ INFO("lat_percentiles", NULL, "bool", "0", "Report total latency percentiles"),
	  .type = IOS_OPT_BOOL, .off = OFF(lat_percentiles) },
	{ INFO("slat_percentiles", NULL, "bool", "0", "Report submission latency percentiles"),
	  .type = IOS_OPT_BOOL, .off = OFF(slat_percentiles) },
	{ INFO("write_bw_log", NULL, "str", NULL,
	       "Write a bandwidth log PREFIX_bw.N.log (bare: the job name)"),
	  .type = IOS_OPT_STR, .off = OFF(write_bw_log), .flags = IOS_OPTF_BARE },
	{ INFO("write_lat_log", NULL, "str", NULL,
	       "Write latency logs PREFIX_{slat,clat,lat}.N.log (bare: the job name)"),
	  .type = IOS_OPT_STR, .off = OFF(write_lat_log), .flags = IOS_OPTF_BARE },
	{ INFO("write_iops_log", NULL, "str", NULL,
	       "Write an IOPS log PREFIX_iops.N.log (bare: the job name)"),
	  .type = IOS_OPT_STR, .off = OFF(write_iops_log), .flags = IOS_OPTF_BARE },
	{ INFO("log_avg_msec", NULL, "int", "0", "Average log entries over this many ms (0 = every I/O)"),
	  .type = IOS_OPT_INT, .off = OFF(log_avg_msec), .size = FSIZE(log_avg_msec), .min = 0,
	  .max = UINT_MAX /* fio keeps it in an unsigned int */ },
	{ INFO("log_offset", NULL, "bool", "0", "Add the I/O offset to log lines"),
	  .type = IOS_OPT_BOOL, .off = OFF(log_offset) },
	{ INFO("log_prio", NULL, "bool", "0", "Log the full I/O priority"),
	  .type = IOS_OPT_BOOL, .off = OFF(log_prio) },
	{ INFO("per_job_logs", NULL, "bool", "1", "Put the job number in log file names"),
	  .type = IOS_OPT_BOOL, .off = OFF(per_job_logs) },
	{ INFO("read_iolog", NULL, "str", NULL, "Replay the I/O pattern of this log"),
	  .type = IOS_OPT_STR, .off = OFF(read_iolog) },
	{ INFO("write_iolog", NULL, "str", NULL, "Write the job's I/O pattern to this log"),
	  .type = IOS_OPT_STR, .off = OFF(write_iolog) },
	{ INFO("ioscheduler", NULL, "str", NULL,
	       "Switch the device to this I/O scheduler for the run (see 'iosched list')"),
	  .type = IOS_OPT_CUSTOM, .set = opt_ioscheduler },
	{ INFO("cpus_allowed", NULL, "str", NULL,
	       "CPUs the job may run on, 0,2-3: blk-mq places its tasks there (each below "
	       "lab.cpus); no effect on the single-queue layer, noted"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	{ INFO("cpus_allowed_policy", NULL, "enum", "shared",
	       "shared or split cpus_allowed between clones (accepted; clones take the CPUs in "
	       "turn under both, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	{ INFO("cpumask", NULL, "str", NULL,
	       "CPU affinity mask, bit N = CPU N: as cpus_allowed (blk-mq only; no effect on "
	       "the single-queue layer, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	{ INFO("numa_cpu_nodes", NULL, "str", NULL,
	       "NUMA nodes to run on (accepted; no effect in a simulator, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	{ INFO("numa_mem_policy", NULL, "str", "default",
	       "NUMA memory policy (accepted; no effect in a simulator, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	{ INFO("sqthread_poll", NULL, "bool", NULL,
	       "io_uring: a kernel thread polls the submission ring, sparing fio the submit "
	       "system call's CPU (accepted; no effect in a simulator, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	{ INFO("sqthread_poll_cpu", NULL, "int", NULL,
	       "io_uring: the CPU of that polling thread (accepted; no effect, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	{ INFO("force_async", NULL, "int", NULL,
	       "io_uring: IOSQE_ASYNC on every Nth request, handed to the kernel's worker "
	       "threads (CPU-side: accepted; no effect in a simulator, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu },
	/*
	 * fixedbufs: fio 3.33 registers its buffers with the ring and submits
	 * IORING_OP_READ_FIXED/WRITE_FIXED, which take pages already pinned
	 * (io_import_fixed, io_uring/rsrc.c, Linux 6.1) instead of pinning the
	 * user pages per request; registerfiles: IOSQE_FIXED_FILE, a lookup in
	 * the ring's file table (io_file_get_fixed, io_uring/io_uring.c)
	 * instead of fget/fput per request. Both are CPU-side: the bio that
	 * reaches the block layer covers the same sectors.
	 */
	{ INFO("fixedbufs", NULL, "int", NULL,
	       "io_uring: pre-registered I/O buffers (CPU-side: accepted; no effect in a "
	       "simulator, noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu, .flags = IOS_OPTF_BARE },
	{ INFO("registerfiles", NULL, "int", NULL,
	       "io_uring: pre-registered files (CPU-side: accepted; no effect in a simulator, "
	       "noted)"),
	  .type = IOS_OPT_CUSTOM, .set = opt_cpu, .flags = IOS_OPTF_BARE },
	{ INFO("disk_util", NULL, "bool", "1",
	       "The \"Disk stats\" section (and JSON disk_util) of the simulated disk; 0 in "
	       "every job leaves it out"),
	  .type = IOS_OPT_BOOL, .off = OFF(no_disk_util), .set = opt_disk_util_hook },
	{ INFO("gtod_reduce", NULL, "bool", "0",
	       "Fewer clock reads: sets disable_lat, disable_clat, disable_slat and "
	       "disable_bw_measurement, no percentiles"),
	  .type = IOS_OPT_BOOL, .off = OFF(gtod_reduce), .set = opt_gtod_reduce_hook },
	{ INFO("disable_lat", NULL, "bool", "0",
	       "No total latency statistics (and no latency_target / max_latency check)"),
	  .type = IOS_OPT_BOOL, .off = OFF(disable_lat) },
	{ INFO("disable_clat", NULL, "bool", "0",
	       "No completion latency statistics, no latency distribution"),
	  .type = IOS_OPT_BOOL, .off = OFF(disable_clat) },
	{ INFO("disable_slat", NULL, "bool", "0", "No submission latency statistics"),
	  .type = IOS_OPT_BOOL, .off = OFF(disable_slat) },
	{ INFO("disable_bw_measurement", "disable_bw", "bool", "0",
	       "No per-I/O bandwidth samples (windowed samples stay, as in fio)"),
	  .type = IOS_OPT_BOOL, .off = OFF(disable_bw) },
	{ INFO("thread", NULL, "flag", NULL,
	       "Threads instead of processes (accepted; no effect in a simulator)"),
	  .type = IOS_OPT_FLAG, .off = OFF(thread) },
	{ .info = { .name = NULL } },
};

#undef INFO

const struct ios_job_option_info *ios_job_option_at(size_t i)
{
	for (size_t t = 0; ios_job_option_tables[t]; t++) {
		size_t n;

		for (n = 0; ios_job_option_tables[t][n].info.name; n++)
			if (!i--)
				return &ios_job_option_tables[t][n].info;
	}
	return NULL;
}
