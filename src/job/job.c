/*
 * Job files to struct ios_job: the public entry points of include/iosched/job.h.
 *
 * ini.c hands over one complete section at a time. A [global] section edits
 * the template every later job starts from (several [global] sections add
 * up, and each affects only the jobs below it); a job section starts from a
 * copy of the template. Within a section, options are applied in fio's
 * order: kb_base first (it changes how the sizes around it are read),
 * filename last, the rest as written; a later value of an option wins.
 * Each option given with a value is also recorded, under fio's canonical
 * name, in the job's (or the file's global) option list that the JSON report
 * prints as "job options" / "global options"; bare flags are left out there,
 * as fio leaves them out.
 *
 * Several files can be parsed into one struct ios_jobfile. As with
 * `fio a.fio b.fio`, each file starts from fresh defaults (a file's [global]
 * does not reach the next file) and the first job of every file after the
 * first waits for the jobs before it (an implicit stonewall). On error the
 * jobfile is left as it was before the call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "iosched/stats.h"
#include "iosched/suggest.h"
#include "job/ini.h"
#include "job/opt.h"

#define JOB_WHERE_VALUE	80	/* value characters quoted in messages */

struct jp_state {
	const struct ios_job_parse_opts *po;
	struct ios_jobfile *jf;
	struct ios_job global;
	bool stonewall_first;	/* next job gets stonewall (file after the first) */
	bool args;		/* command-line jobs: the CLI applies --section, no --showcmd */
	struct ios_buf gcmd;	/* --showcmd: the global options so far */
};

/* ---- public small things ---- */

void ios_job_parse_opts_init(struct ios_job_parse_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->compat = IOS_JOB_COMPAT_FIO3;
	/* the simulated machine: a 2006-era box, not the host (determinism) */
	o->pagesize = 4096;
	o->mb_memory = 1024;
	o->ncpus = 2;
	o->max_include_depth = 16;
}

const char *ios_rw_name(enum ios_rw rw)
{
	switch (rw) {
	case IOS_RW_READ: return "read";
	case IOS_RW_WRITE: return "write";
	case IOS_RW_RANDREAD: return "randread";
	case IOS_RW_RANDWRITE: return "randwrite";
	case IOS_RW_RW: return "rw";
	case IOS_RW_RANDRW: return "randrw";
	case IOS_RW_TRIM: return "trim";
	case IOS_RW_RANDTRIM: return "randtrim";
	case IOS_RW_TRIMWRITE: return "trimwrite";
	}
	return "?";
}

const char *ios_ioengine_name(enum ios_ioengine e)
{
	switch (e) {
	case IOS_ENGINE_SYNC: return "sync";
	case IOS_ENGINE_PSYNC: return "psync";
	case IOS_ENGINE_VSYNC: return "vsync";
	case IOS_ENGINE_PVSYNC: return "pvsync";
	case IOS_ENGINE_PVSYNC2: return "pvsync2";
	case IOS_ENGINE_LIBAIO: return "libaio";
	case IOS_ENGINE_IO_URING: return "io_uring";
	case IOS_ENGINE_POSIXAIO: return "posixaio";
	case IOS_ENGINE_NULL: return "null";
	case IOS_ENGINE_FALLOC: return "falloc";
	case IOS_ENGINE_FTRUNCATE: return "ftruncate";
	case IOS_ENGINE_FILECREATE: return "filecreate";
	case IOS_ENGINE_FILESTAT: return "filestat";
	case IOS_ENGINE_FILEDELETE: return "filedelete";
	case IOS_ENGINE_E4DEFRAG: return "e4defrag";
	}
	return "?";
}

/* ---- job copies ---- */

static void kv_free(struct ios_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

static void job_free_fields(struct ios_job *j)
{
	unsigned i;

	free(j->name);
	free(j->filename);
	free(j->directory);
	free(j->cgroup);
	free(j->exec_prerun);
	free(j->write_bw_log);
	free(j->write_lat_log);
	free(j->write_iops_log);
	free(j->read_iolog);
	free(j->write_iolog);
	free(j->ioscheduler);
	free(j->description);
	free(j->wait_for);
	free(j->donorname);
	for (i = 0; i < j->nr_filenames; i++)
		free(j->filenames[i]);
	free(j->filenames);
	kv_free(j->opts, j->nr_opts);
	memset(j, 0, sizeof(*j));
}

static int dup_str(char **s)
{
	if (*s && !(*s = strdup(*s)))
		return -ENOMEM;
	return 0;
}

/* Deep copy of the template (its option list is not copied). */
static int job_copy(struct ios_job *dst, const struct ios_job *src)
{
	unsigned i;
	int ret = 0;

	*dst = *src;
	dst->opts = NULL;
	dst->nr_opts = 0;
	dst->filenames = NULL;
	dst->nr_filenames = 0;
	/* the strings are shared with src until each is duplicated: do all, then check */
	ret |= dup_str(&dst->name);
	ret |= dup_str(&dst->filename);
	ret |= dup_str(&dst->directory);
	ret |= dup_str(&dst->cgroup);
	ret |= dup_str(&dst->exec_prerun);
	ret |= dup_str(&dst->write_bw_log);
	ret |= dup_str(&dst->write_lat_log);
	ret |= dup_str(&dst->write_iops_log);
	ret |= dup_str(&dst->read_iolog);
	ret |= dup_str(&dst->write_iolog);
	ret |= dup_str(&dst->ioscheduler);
	ret |= dup_str(&dst->description);
	ret |= dup_str(&dst->wait_for);
	ret |= dup_str(&dst->donorname);
	if (!ret && src->nr_filenames) {
		dst->filenames = calloc(src->nr_filenames, sizeof(*dst->filenames));
		if (!dst->filenames)
			ret = -ENOMEM;
		for (i = 0; !ret && i < src->nr_filenames; i++) {
			dst->filenames[i] = strdup(src->filenames[i]);
			dst->nr_filenames = i + 1;
			if (!dst->filenames[i])
				ret = -ENOMEM;
		}
	}
	if (ret) {
		/* strings that failed to duplicate are NULL, the rest are ours */
		job_free_fields(dst);
		return -ENOMEM;
	}
	return 0;
}

static void jp_where(char *buf, size_t len, const char *file, int line, const char *key,
		     const char *value)
{
	if (!value)
		snprintf(buf, len, "%s:%d: option '%s'", file, line, key);
	else if (strlen(value) > JOB_WHERE_VALUE)
		snprintf(buf, len, "%s:%d: option '%s=%.*s...'", file, line, key,
			 JOB_WHERE_VALUE, value);
	else
		snprintf(buf, len, "%s:%d: option '%s=%s'", file, line, key, value);
}

/* Apply row @o's default (if it has one) to @job. */
static int job_default_one(struct ios_job *job, const struct ios_opt *o, enum ios_compat compat,
			   struct ios_err *e)
{
	const char *def = compat == IOS_JOB_COMPAT_FIO1 && o->def_fio1 ? o->def_fio1 : o->info.def;
	struct ios_optctx c = { 0 };
	char where[128];

	if (!def)
		return 0;
	snprintf(where, sizeof(where), "default of '%s'", o->info.name);
	c.v.where = where;
	c.v.kb_base = job->kb_base;
	c.v.e = e;
	c.o = o;
	c.key = o->info.name;
	c.value = def;
	c.compat = compat;
	c.is_default = true;
	c.global = true;
	return ios_opt_apply(job, &c);
}

int ios_job_init_defaults(struct ios_job *job, enum ios_compat compat)
{
	const struct ios_opt *o;
	struct ios_err e = { 0 };

	memset(job, 0, sizeof(*job));
	job->prio = -1;
	job->prioclass = -1;
	job->kb_base = 1024;
	for (size_t t = 0; ios_job_option_tables[t]; t++)
		for (o = ios_job_option_tables[t]; o->info.name; o++) {
			int ret = job_default_one(job, o, compat, &e);

			if (ret) {
				job_free_fields(job);
				return ret;
			}
		}
	return 0;
}

/* ---- sections ---- */

static int kv_push(struct ios_kv **v, size_t *n, const char *key, const char *value)
{
	struct ios_kv *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n].key = strdup(key);
	nv[*n].value = strdup(value);
	if (!nv[*n].key || !nv[*n].value) {
		free(nv[*n].key);
		free(nv[*n].value);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

/* The context of one option line of a section. */
static void jp_ctx(struct jp_state *st, const struct ios_ini_section *s, struct ios_job *job,
		   const struct ios_ini_kv *kv, const struct ios_opt *o, char *where,
		   size_t wlen, struct ios_err *e, struct ios_optctx *c)
{
	memset(c, 0, sizeof(*c));
	jp_where(where, wlen, kv->file, kv->line, kv->key, kv->value);
	c->v.where = where;
	c->v.kb_base = job->kb_base;
	c->v.po = st->po;
	c->v.e = e;
	c->o = o;
	c->key = kv->key;
	c->value = kv->value;
	c->compat = st->po->compat;
	c->global = s->global;
	c->section = s->name;
	c->file = kv->file;
	c->line = kv->line;
}

/*
 * A name the option table does not have: one of fio 3.33's own options, an
 * option of one of fio's engines (named, so that the engine shows as the
 * reason), or a typo.
 */
static int jp_unknown(const struct ios_ini_kv *kv, struct ios_err *e)
{
	const char *engines = ios_opt_fio_engines(kv->key);
	const char *later = ios_opt_fio_later(kv->key);

	if (later)
		return IOS_ERR(e, -ENOTSUP, "%s:%d: option '%s' comes from %s, later than the fio "
			       "3.33 iosched follows: not accepted", kv->file, kv->line, kv->key,
			       later);
	if (engines)
		return IOS_ERR(e, -ENOTSUP, "%s:%d: fio option '%s' is not modelled by iosched "
			       "(an option of fio's ioengine %s)", kv->file, kv->line, kv->key,
			       engines);
	if (ios_opt_fio_general(kv->key))
		return IOS_ERR(e, -ENOTSUP, "%s:%d: fio option '%s' is not modelled by iosched",
			       kv->file, kv->line, kv->key);
	{
		struct ios_suggest s;
		char hint[256];

		/* the options we model, under their names and aliases */
		ios_suggest_init(&s, kv->key);
		for (const struct ios_opt *o = ios_opt_first(); o; o = ios_opt_next(o)) {
			ios_suggest_add(&s, NULL, o->info.name);
			ios_suggest_add(&s, NULL, o->info.alias);
		}
		return IOS_ERR(e, -EINVAL, "%s:%d: unknown option '%s'%s", kv->file, kv->line,
			       kv->key, ios_suggest_str(&s, hint, sizeof(hint)));
	}
}

/* An error caused by an empty value from an unset ${VAR} says which. */
static void jp_blame_unset(const struct ios_ini_kv *kv, struct ios_err *e)
{
	const char *v = kv->value;
	size_t len;

	if (!kv->unset_var[0] || !e)
		return;
	while (v && (*v == ' ' || *v == '\t'))
		v++;
	if (v && *v)
		return;
	len = strlen(e->msg);
	snprintf(e->msg + len, sizeof(e->msg) - len, " (${%s} is not set)", kv->unset_var);
}

/*
 * fio loads the engine before it reads the engine's options: an ioengine
 * iosched does not model is the reason, not the options that come with it.
 */
static int jp_engine_first(struct jp_state *st, const struct ios_ini_section *s,
			   struct ios_job *job, const struct ios_opt **rows, struct ios_err *e)
{
	char where[256];
	size_t i;
	int ret;

	for (i = 0; i < s->nr; i++) {
		struct ios_optctx c;

		if (!rows[i] || strcmp(rows[i]->info.name, "ioengine"))
			continue;
		jp_ctx(st, s, job, &s->kv[i], rows[i], where, sizeof(where), e, &c);
		ret = ios_opt_apply(job, &c);
		if (ret) {
			jp_blame_unset(&s->kv[i], e);
			return ret;
		}
	}
	return 0;
}

/* Apply a section's options to @job in fio's order, recording them in @rec. */
static int jp_apply(struct jp_state *st, const struct ios_ini_section *s, struct ios_job *job,
		    struct ios_kv **rec, size_t *nrec, struct ios_err *e)
{
	const struct ios_opt **rows;
	char where[256];
	size_t i, bad = SIZE_MAX;
	int pass, ret = 0;

	if (!s->nr)
		return 0;
	rows = calloc(s->nr, sizeof(*rows));
	if (!rows)
		return IOS_ERR(e, -ENOMEM, "%s:%d: out of memory", s->file, s->line);
	/* names first, in file order, so the first bad name is the one reported */
	for (i = 0; i < s->nr; i++) {
		rows[i] = ios_opt_find(s->kv[i].key);
		if (!rows[i] && bad == SIZE_MAX)
			bad = i;
	}
	ret = jp_engine_first(st, s, job, rows, e);
	if (!ret && bad != SIZE_MAX)
		ret = jp_unknown(&s->kv[bad], e);
	for (pass = 0; pass < 3 && !ret; pass++) {
		for (i = 0; i < s->nr && !ret; i++) {
			const struct ios_ini_kv *kv = &s->kv[i];
			const struct ios_opt *o = rows[i];
			int p = o->flags & IOS_OPTF_FIRST ? 0 : o->flags & IOS_OPTF_LAST ? 2 : 1;
			struct ios_optctx c;

			if (p != pass)
				continue;
			jp_ctx(st, s, job, kv, o, where, sizeof(where), e, &c);
			ret = ios_opt_apply(job, &c);
			if (ret)
				jp_blame_unset(kv, e);
			if (!ret && c.value && kv_push(rec, nrec, o->info.name, c.value))
				ret = IOS_ERR(e, -ENOMEM, "%s: out of memory", where);
		}
	}
	free(rows);
	return ret;
}

/* Fill what depends on other options, and check what only the whole job can. */
static int jp_finish(struct ios_job *job, struct ios_err *e)
{
	char **logs[] = { &job->write_bw_log, &job->write_lat_log, &job->write_iops_log };
	size_t i;

	for (i = 0; i < IOS_ARRAY_SIZE(logs); i++)
		if (*logs[i] && !**logs[i] && ios_opt_set_string(logs[i], job->name))
			return IOS_ERR(e, -ENOMEM, "out of memory");
	if (!job->iodepth_low)
		job->iodepth_low = job->iodepth;
	if (job->iodepth_low > job->iodepth)
		return IOS_ERR(e, -ERANGE, "%s:%d: job '%s': iodepth_low=%u is above iodepth=%u "
			       "(fio would lower it silently)", job->file, job->line, job->name,
			       job->iodepth_low, job->iodepth);
	if (!job->iodepth_batch_submit)
		job->iodepth_batch_submit = job->iodepth;
	if (!job->iodepth_batch_complete_max)
		job->iodepth_batch_complete_max = job->iodepth_batch_complete_min;
	if (job->iodepth_batch_complete_max < job->iodepth_batch_complete_min)
		return IOS_ERR(e, -ERANGE, "%s:%d: job '%s': iodepth_batch_complete_max=%u is below "
			       "iodepth_batch_complete_min=%u", job->file, job->line, job->name,
			       job->iodepth_batch_complete_max, job->iodepth_batch_complete_min);
	if (job->zone_mode == IOS_ZONE_NONE && job->zone_size)
		return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': zonesize needs zonemode=strided (fio "
			       "3.33: \"--zonemode=none and --zonesize are not compatible\")",
			       job->file, job->line, job->name);
	if (job->zone_mode == IOS_ZONE_STRIDED && !job->zone_size)
		return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': zonemode=strided needs zonesize",
			       job->file, job->line, job->name);
	/* fio turns strided zones off for more than one file, without a word */
	if (job->zone_mode == IOS_ZONE_STRIDED &&
	    (job->nrfiles > 1 || job->nr_filenames > 1))
		return IOS_ERR(e, -ENOTSUP, "%s:%d: job '%s': zonemode=strided with %u files: "
			       "fio 3.33 would silently ignore the zones; use one file",
			       job->file, job->line, job->name,
			       job->nrfiles > 1 ? job->nrfiles : job->nr_filenames);
	if (job->zone_mode == IOS_ZONE_STRIDED && !job->zone_range)
		job->zone_range = job->zone_size;	/* fio's init.c, for compatibility */
	{
		int zret = ios_job_zbd_finish(job, e);

		if (zret)
			return zret;
	}
	if (job->numjobs > job->max_jobs)
		return IOS_ERR(e, -ERANGE, "%s:%d: job '%s': numjobs=%u is above %u, fio's limit "
			       "(FIO_MAX_JOBS); the simulator runs more when the job file asks: "
			       "max_jobs=%u in the job or its [global] section",
			       job->file, job->line, job->name, job->numjobs, job->max_jobs,
			       job->numjobs);
	/*
	 * fio 3.33's fixup_options: a random job whose blockalign is not its
	 * smallest block size runs without the random map ("Any use of
	 * blockalign= turns off randommap"; the run says it)
	 */
	for (int d = 0; d < 2 && ios_rw_is_random(job->rw) && !job->norandommap; d++) {
		uint64_t min = job->bs_min[d] ? job->bs_min[d] : job->bs[d];

		if (job->blockalign[d] && job->blockalign[d] != min)
			job->norandommap = job->blockalign_nomap = true;
	}
	if (job->thinktime_spin_ns > job->thinktime_ns)
		return IOS_ERR(e, -ERANGE, "%s:%d: job '%s': thinktime_spin is longer than "
			       "thinktime", job->file, job->line, job->name);
	return 0;
}

/* fio's --section: a job section not named is left out ([global] never is) */
static bool jp_skipped(const struct jp_state *st, const struct ios_ini_section *s)
{
	const char *const *p;

	if (s->global || !st->po->sections)
		return false;
	for (p = st->po->sections; *p; p++)
		if (!strcmp(*p, s->name))
			return false;
	return true;
}

/* A section's options as fio's --showcmd writes them: canonical names, in order */
static void jp_showcmd(struct ios_buf *out, const struct ios_ini_section *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		const struct ios_opt *o = ios_opt_find(s->kv[i].key);
		const char *v = s->kv[i].value;

		while (v && (*v == ' ' || *v == '\t'))
			v++;
		ios_buf_printf(out, "--%s%s%s ", o ? o->info.name : s->kv[i].key, v ? "=" : "",
			       v ? v : "");
	}
}

/*
 * --showcmd, as fio prints it: a job's --name and its own options; for a
 * [global] section every global option so far (the command line's too),
 * with no --name, so that one after a job reads as that job's options.
 */
static void jp_showcmd_section(struct jp_state *st, const struct ios_ini_section *s)
{
	struct ios_buf *out = st->po->showcmd;

	if (s->global) {
		jp_showcmd(&st->gcmd, s);
		if (!st->args)
			ios_buf_puts(out, st->gcmd.s ? st->gcmd.s : "");
	} else if (!st->args) {
		ios_buf_printf(out, "--name=%s ", s->name);
		jp_showcmd(out, s);
	}
}

static int jp_section(void *priv, const struct ios_ini_section *s, struct ios_err *e)
{
	struct jp_state *st = priv;
	struct ios_jobfile *jf = st->jf;
	struct ios_job job, *nv;
	int ret;

	if (!st->args && jp_skipped(st, s))
		return 0;
	if (st->po->showcmd)
		jp_showcmd_section(st, s);
	if (s->global)
		return jp_apply(st, s, &st->global, &jf->global_opts, &jf->nr_global_opts, e);

	if (job_copy(&job, &st->global))
		return IOS_ERR(e, -ENOMEM, "%s:%d: out of memory", s->file, s->line);
	free(job.name);
	job.name = strdup(s->name);
	if (!job.name) {
		job_free_fields(&job);
		return IOS_ERR(e, -ENOMEM, "%s:%d: out of memory", s->file, s->line);
	}
	job.file = s->file;
	job.line = s->line;
	job.index = (int)jf->nr_jobs;
	if (st->stonewall_first) {
		job.stonewall = 1;
		st->stonewall_first = false;
	}
	ret = jp_apply(st, s, &job, &job.opts, &job.nr_opts, e);
	if (!ret)
		ret = jp_finish(&job, e);
	/*
	 * The array doubles when the count reaches a power of two: a job is
	 * about 4.7 KB, and growing by one per section copied the whole
	 * array each time (quadratic for 5,000 sections, minutes under ASan).
	 * A truncated array keeps its size, which is never less than this.
	 */
	if (!ret && !(jf->nr_jobs & (jf->nr_jobs - 1))) {
		size_t n = jf->nr_jobs ? 2 * jf->nr_jobs : 1;

		nv = realloc(jf->jobs, n * sizeof(*nv));
		if (!nv)
			ret = IOS_ERR(e, -ENOMEM, "%s:%d: out of memory", s->file, s->line);
		else
			jf->jobs = nv;
	}
	if (ret) {
		job_free_fields(&job);
		return ret;
	}
	jf->jobs[jf->nr_jobs++] = job;
	return 0;
}

/* ---- files ---- */

static const char *jp_file_read(void *priv, const char *path)
{
	struct jp_state *st = priv;
	struct ios_jobfile *jf = st->jf;
	char **nv, *copy = strdup(path);

	if (!copy)
		return NULL;
	nv = realloc(jf->paths, (jf->nr_paths + 1) * sizeof(*nv));
	if (!nv) {
		free(copy);
		return NULL;
	}
	jf->paths = nv;
	jf->paths[jf->nr_paths++] = copy;
	return copy;
}

/*
 * Whole file into a malloc'd, NUL-terminated buffer; errno is left as found.
 * "-" is stdin for the job file itself (@top), a file named "-" for an
 * include. A directory is -EISDIR; anything larger than
 * IOS_JOB_FILE_MAX is -EFBIG, found by its size when it is a regular file
 * and otherwise (a pipe, /dev/zero) after reading one byte past the limit,
 * so that a mistaken name costs 16 MiB of reading, not all of memory.
 */
static int jp_read_fs(const char *path, bool top, char **buf, size_t *len)
{
	int saved = errno, ret = 0;
	size_t cap = 4096, n = 0;
	char *b = NULL;
	bool is_stdin = top && !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	struct stat st;

	if (!f) {
		ret = errno ? -errno : -ENOENT;
		goto out;
	}
	if (fstat(fileno(f), &st)) {
		ret = errno ? -errno : -EIO;
		goto close;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto close;
	}
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)IOS_JOB_FILE_MAX) {
		ret = -EFBIG;
		goto close;
	}
	b = malloc(cap);
	while (b) {
		size_t got = fread(b + n, 1, cap - n - 1, f);

		n += got;
		if (n > IOS_JOB_FILE_MAX) {
			ret = -EFBIG;
			break;
		}
		if (got == 0) {
			if (ferror(f))
				ret = errno ? -errno : -EIO;
			break;
		}
		if (cap - n - 1 == 0) {
			/* room for the limit plus the one byte that shows it was passed */
			size_t ncap = cap * 2 > IOS_JOB_FILE_MAX + 2 ? IOS_JOB_FILE_MAX + 2 : cap * 2;
			char *nb = realloc(b, ncap);

			if (!nb) {
				free(b);
				b = NULL;
				break;
			}
			b = nb;
			cap = ncap;
		}
	}
close:
	if (!is_stdin)
		fclose(f);
	if (!b && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(b);
		goto out;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
out:
	errno = saved;
	return ret;
}

static int jp_read_with(const struct ios_job_parse_opts *po, const char *path, bool top,
			char **buf, size_t *len)
{
	if (po->read_file) {
		*buf = po->read_file(path, len, po->read_file_priv);
		return *buf ? 0 : -ENOENT;
	}
	return jp_read_fs(path, top, buf, len);
}

static int jp_read(void *priv, const char *path, char **buf, size_t *len)
{
	struct jp_state *st = priv;

	return jp_read_with(st->po, path, false, buf, len);
}

static const char *jp_getenv(void *priv, const char *name)
{
	struct jp_state *st = priv;

	if (st->po->getenv)
		return st->po->getenv(name, st->po->getenv_priv);
	return getenv(name);
}

static void jf_truncate(struct ios_jobfile *jf, size_t jobs, size_t globals, size_t paths)
{
	while (jf->nr_jobs > jobs)
		job_free_fields(&jf->jobs[--jf->nr_jobs]);
	while (jf->nr_global_opts > globals) {
		jf->nr_global_opts--;
		free(jf->global_opts[jf->nr_global_opts].key);
		free(jf->global_opts[jf->nr_global_opts].value);
	}
	while (jf->nr_paths > paths)
		free(jf->paths[--jf->nr_paths]);
	/* arrays that were empty before the call go back to NULL */
	if (!jf->nr_jobs) {
		free(jf->jobs);
		jf->jobs = NULL;
	}
	if (!jf->nr_global_opts) {
		free(jf->global_opts);
		jf->global_opts = NULL;
	}
	if (!jf->nr_paths) {
		free(jf->paths);
		jf->paths = NULL;
	}
}

/*
 * Parse @buf after the command line's sections @pre (fio: its jobs come
 * first, and its global options are the defaults of the first job file,
 * with no stonewall between them). ios_job_parse_buf() has no @pre.
 */
int ios_job_parse_pre(const struct ios_ini_section *pre, size_t nr_pre, const char *name,
		      const char *buf, size_t len, const struct ios_job_parse_opts *o,
		      struct ios_jobfile *jf, struct ios_err *e)
{
	struct ios_job_parse_opts defaults;
	struct jp_state st = { 0 };
	struct ios_ini_ops ops = { 0 };
	size_t jobs = jf->nr_jobs, globals = jf->nr_global_opts, paths = jf->nr_paths;
	size_t cmd_at = o && o->showcmd ? o->showcmd->len : 0;
	int ret = 0;

	if (!o) {
		ios_job_parse_opts_init(&defaults);
		o = &defaults;
	}
	if (!name)
		name = "<job file>";
	st.po = o;
	st.jf = jf;
	st.stonewall_first = jf->nr_jobs > 0 && !pre;
	ret = ios_job_init_defaults(&st.global, o->compat);
	if (ret)
		return IOS_ERR(e, ret, "%s: cannot set the default options", name);
	jf->compat = o->compat;
	ops.section = jp_section;
	ops.file_read = jp_file_read;
	ops.read = jp_read;
	ops.getenv = jp_getenv;
	ops.max_depth = o->max_include_depth ? o->max_include_depth : 16;
	ops.priv = &st;
	/* only a job file is shown by --showcmd (fio prints no command-line job) */
	st.args = true;
	for (size_t i = 0; i < nr_pre && !ret; i++)
		ret = jp_section(&st, &pre[i], e);
	st.args = false;
	if (!ret && buf) {
		if (o->showcmd)
			ios_buf_puts(o->showcmd, "fio ");
		ret = ios_ini_parse(&ops, name, buf, len, e);
		if (o->showcmd)
			ios_buf_puts(o->showcmd, "\n");
	}
	job_free_fields(&st.global);
	ios_buf_free(&st.gcmd);
	if (ret) {
		jf_truncate(jf, jobs, globals, paths);
		if (o->showcmd && o->showcmd->s) {
			o->showcmd->len = cmd_at;
			o->showcmd->s[cmd_at] = '\0';
		}
	}
	return ret;
}

int ios_job_parse_buf(const char *name, const char *buf, size_t len,
		      const struct ios_job_parse_opts *o, struct ios_jobfile *jf,
		      struct ios_err *e)
{
	return ios_job_parse_pre(NULL, 0, name, buf, len, o, jf, e);
}

int ios_job_parse_file(const char *path, const struct ios_job_parse_opts *o,
		       struct ios_jobfile *jf, struct ios_err *e)
{
	return ios_job_parse_file_pre(NULL, 0, path, o, jf, e);
}

int ios_job_parse_file_pre(const struct ios_ini_section *pre, size_t nr_pre, const char *path,
			   const struct ios_job_parse_opts *o, struct ios_jobfile *jf,
			   struct ios_err *e)
{
	struct ios_job_parse_opts defaults;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (!o) {
		ios_job_parse_opts_init(&defaults);
		o = &defaults;
	}
	if (!path)
		return ios_job_parse_pre(pre, nr_pre, "<command line>", NULL, 0, o, jf, e);
	ret = jp_read_with(o, path, true, &buf, &len);
	if (!strcmp(path, "-"))
		path = "<stdin>";
	if (ret == -EFBIG)
		return IOS_ERR(e, ret, "%s: larger than %u MiB, too large for a job file",
			       path, IOS_JOB_FILE_MAX >> 20);
	if (ret == -EISDIR)
		return IOS_ERR(e, ret, "%s: is a directory, not a job file", path);
	if (ret)
		return IOS_ERR(e, ret, "%s: cannot read the job file (%s)", path, strerror(-ret));
	ret = ios_job_parse_pre(pre, nr_pre, path, buf, len, o, jf, e);
	free(buf);
	return ret;
}

int ios_job_option_known(const char *name)
{
	return ios_opt_find(name) ? 1 : ios_opt_is_fio_only(name) || ios_opt_fio_later(name) ? 2 : 0;
}

int ios_jobfile_check_read_only(const struct ios_jobfile *jf, struct ios_err *e)
{
	for (size_t i = 0; i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];

		/*
		 * fio's rw_verify says "has write or trim bit set ..., but fio
		 * is in read-only mode (--readonly)"; a library caller sets
		 * read_only and runs no fio, so the words name the setting.
		 */
		if (ios_rw_has_write(j->rw))
			return IOS_ERR(e, -EROFS, "%s:%d: job <%s> writes or trims (rw=%s), but the "
				       "run is read-only (read_only, the --readonly option)",
				       j->file ? j->file : "?", j->line, j->name, ios_rw_name(j->rw));
	}
	return 0;
}

void ios_jobfile_free(struct ios_jobfile *jf)
{
	size_t i;

	if (!jf)
		return;
	for (i = 0; i < jf->nr_jobs; i++)
		job_free_fields(&jf->jobs[i]);
	free(jf->jobs);
	kv_free(jf->global_opts, jf->nr_global_opts);
	for (i = 0; i < jf->nr_paths; i++)
		free(jf->paths[i]);
	free(jf->paths);
	memset(jf, 0, sizeof(*jf));
}
