/*
 * Sweep plans (include/iosched/sweep.h, docs/sweep.md): the grid file's
 * parser, its checks, and the manifest it expands into.
 *
 * A grid is line-based: "KEY = VALUE, VALUE" with KEY job, schedulers,
 * devices, seeds, or "set NAME"; '#' starts a comment. Every scheduler
 * column, device and setting is checked by compare's own column checker
 * (ios_cmp_columns_parse, src/exp/columns.c) on each device of the grid,
 * so a plan never holds a task that `iosched run` would refuse for a name
 * or a range. The manifest is text, one task a line, so that its SHA-256
 * is the plan's identity and `grep` reads it.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/compare.h"
#include "iosched/sweep.h"

#define SW_MAX_SEEDS 100000u

static void sw_axis_free(struct ios_sweep_axis *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->vals[i]);
	free(a->vals);
	free(a->name);
	memset(a, 0, sizeof(*a));
}

void ios_sweep_grid_free(struct ios_sweep_grid *g)
{
	for (size_t i = 0; i < g->nr_jobs; i++) {
		for (size_t j = 0; j < g->jobs[i].n; j++) {
			free(g->jobs[i].files[j]);
			if (g->jobs[i].inputs)
				free(g->jobs[i].inputs[j]);
		}
		free(g->jobs[i].files);
		free(g->jobs[i].inputs);
	}
	free(g->jobs);
	sw_axis_free(&g->sched);
	sw_axis_free(&g->device);
	sw_axis_free(&g->seed);
	for (size_t i = 0; i < g->nr_sets; i++)
		sw_axis_free(&g->sets[i]);
	free(g->sets);
	free(g->path);
	memset(g, 0, sizeof(*g));
}

static char *sw_strndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

static int sw_push(char ***v, size_t *n, char *s)
{
	char **nv;

	if (!s)
		return -ENOMEM;
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

/* @s..@end without the blanks around it */
static void sw_trim(const char **s, const char **end)
{
	while (*s < *end && isspace((unsigned char)**s))
		(*s)++;
	while (*end > *s && isspace((unsigned char)(*end)[-1]))
		(*end)--;
}

struct sw_val {
	const char *v;
	size_t pos;
};

/* by value, then by place in the list */
static int sw_val_cmp(const void *a, const void *b)
{
	const struct sw_val *x = a, *y = b;
	int c = strcmp(x->v, y->v);

	return c ? c : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

/*
 * A value given twice in @a, the first such in list order: by sorting
 * (value, place), O(n log n), so a long list costs no n^2 / 2 comparisons.
 */
static int sw_list_dups(const char *path, unsigned line, const char *what,
			const struct ios_sweep_axis *a, struct ios_err *e)
{
	struct sw_val *sv;
	size_t dup = SIZE_MAX;

	if (a->n < 2)
		return 0;
	sv = malloc(a->n * sizeof(*sv));
	if (!sv)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (size_t i = 0; i < a->n; i++) {
		sv[i].v = a->vals[i];
		sv[i].pos = i;
	}
	qsort(sv, a->n, sizeof(*sv), sw_val_cmp);
	for (size_t i = 1; i < a->n; i++)
		if (!strcmp(sv[i].v, sv[i - 1].v) && sv[i].pos < dup)
			dup = sv[i].pos;
	free(sv);
	if (dup != SIZE_MAX)
		return IOS_ERR(e, -EINVAL, "%s:%u: %s: '%s' is listed twice", path, line, what,
			       a->vals[dup]);
	return 0;
}

/*
 * "a, b, c" into @a: no empty item, no blank inside one, no item twice.
 * @what names the key in messages.
 */
static int sw_list(const char *path, unsigned line, const char *what, const char *s,
		   const char *end, struct ios_sweep_axis *a, struct ios_err *e)
{
	sw_trim(&s, &end);
	if (s == end)
		return IOS_ERR(e, -EINVAL, "%s:%u: %s: empty value list", path, line, what);
	for (;;) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		const char *ie = c ? c : end, *is = s;

		sw_trim(&is, &ie);
		if (is == ie)
			return IOS_ERR(e, -EINVAL, "%s:%u: %s: an empty value in the list", path,
				       line, what);
		for (const char *p = is; p < ie; p++)
			if (isspace((unsigned char)*p) || !isprint((unsigned char)*p))
				return IOS_ERR(e, -EINVAL, "%s:%u: %s: '%.*s': a value may not "
					       "hold blanks or control characters", path, line,
					       what, (int)(ie - is), is);
		if (a->n >= IOS_SWEEP_MAX_TASKS)
			return IOS_ERR(e, -EINVAL, "%s:%u: %s: more than %u values", path, line,
				       what, IOS_SWEEP_MAX_TASKS);
		if (sw_push(&a->vals, &a->n, sw_strndup(is, (size_t)(ie - is))))
			return IOS_ERR(e, -ENOMEM, "out of memory");
		if (!c)
			return sw_list_dups(path, line, what, a, e);
		s = c + 1;
	}
}

static int sw_u64(const char *s, const char *end, uint64_t *v)
{
	uint64_t x = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

/* one expanded seed: its value and its place in the list (for the message) */
struct sw_seed {
	uint64_t v;
	size_t pos;
};

static int sw_seed_cmp(const void *a, const void *b)
{
	const struct sw_seed *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * seeds: "1, 2, 7-9" into decimal strings, A-B expanded (A <= B). The
 * count is checked per range before it is expanded, and a seed given twice
 * is found by sorting (value, place): a 100,000-seed list costs
 * O(n log n), not the n^2 / 2 comparisons of a scan per seed (minutes
 * under ASan, a fuzzer's timeout).
 */
static int sw_seeds(const char *path, unsigned line, struct ios_sweep_axis *a,
		    struct ios_err *e)
{
	struct ios_sweep_axis items = { 0 };
	struct sw_seed *sv = NULL;
	size_t n = 0, dup = SIZE_MAX;
	int ret = 0;

	items.n = a->n;
	items.vals = a->vals;
	a->vals = NULL;
	a->n = 0;
	for (size_t i = 0; i < items.n; i++) {
		const char *s = items.vals[i], *dash = strchr(s, '-'), *end = s + strlen(s);
		uint64_t lo, hi;
		struct sw_seed *nsv;

		if (sw_u64(s, dash ? dash : end, &lo) || (dash && sw_u64(dash + 1, end, &hi))) {
			ret = IOS_ERR(e, -EINVAL, "%s:%u: seeds: '%s': allowed N or A-B, N, A, B "
				      "decimal integers 0..%" PRIu64, path, line, s, UINT64_MAX);
			goto out;
		}
		if (!dash)
			hi = lo;
		if (hi < lo || hi - lo >= SW_MAX_SEEDS) {
			ret = IOS_ERR(e, -EINVAL, "%s:%u: seeds: '%s': a range A-B needs A <= B and "
				      "at most %u seeds", path, line, s, SW_MAX_SEEDS);
			goto out;
		}
		if (hi - lo >= SW_MAX_SEEDS - n) {
			ret = IOS_ERR(e, -EINVAL, "%s:%u: seeds: more than %u seeds", path, line,
				      SW_MAX_SEEDS);
			goto out;
		}
		nsv = realloc(sv, (n + (size_t)(hi - lo) + 1) * sizeof(*sv));
		if (!nsv) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto out;
		}
		sv = nsv;
		for (uint64_t v = lo;; v++) {
			sv[n].v = v;
			sv[n].pos = n;
			n++;
			if (v == hi)
				break;
		}
	}
	if (!n)
		goto out;
	{
		struct sw_seed *sorted = malloc(n * sizeof(*sorted));

		if (!sorted) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto out;
		}
		memcpy(sorted, sv, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), sw_seed_cmp);
		/* the first seed, in list order, that an earlier one already gave */
		for (size_t j = 1; j < n; j++)
			if (sorted[j].v == sorted[j - 1].v && sorted[j].pos < dup)
				dup = sorted[j].pos;
		free(sorted);
	}
	if (dup != SIZE_MAX) {
		ret = IOS_ERR(e, -EINVAL, "%s:%u: seeds: seed %" PRIu64 " is listed twice", path,
			      line, sv[dup].v);
		goto out;
	}
	a->vals = calloc(n, sizeof(*a->vals));	/* one allocation, not one per seed */
	if (!a->vals) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t j = 0; j < n; j++) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%" PRIu64, sv[j].v);
		if (!(a->vals[a->n] = strdup(buf))) {
			ret = IOS_ERR(e, -ENOMEM, "out of memory");
			goto out;
		}
		a->n++;
	}
out:
	free(sv);
	sw_axis_free(&items);
	return ret;
}

/* "job = a.fio b.fio": blank-separated files, run together */
static int sw_job(struct ios_sweep_grid *g, unsigned line, const char *s, const char *end,
		  struct ios_err *e)
{
	struct ios_sweep_jobset *nj, *j;

	nj = realloc(g->jobs, (g->nr_jobs + 1) * sizeof(*nj));
	if (!nj)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	g->jobs = nj;
	j = &g->jobs[g->nr_jobs++];
	memset(j, 0, sizeof(*j));
	j->line = line;
	for (;;) {
		const char *w;

		while (s < end && isspace((unsigned char)*s))
			s++;
		if (s == end)
			break;
		for (w = s; w < end && !isspace((unsigned char)*w); w++)
			if (!isprint((unsigned char)*w) || *w == ',')
				return IOS_ERR(e, -EINVAL, "%s:%u: job: a file name may not hold "
					       "',' or control characters (one job line per job "
					       "set; its files blank-separated)", g->path, line);
		if (sw_push(&j->files, &j->n, sw_strndup(s, (size_t)(w - s))))
			return IOS_ERR(e, -ENOMEM, "out of memory");
		s = w;
	}
	if (!j->n)
		return IOS_ERR(e, -EINVAL, "%s:%u: job: empty value list", g->path, line);
	return 0;
}

static const char sw_keys[] = "job, schedulers, devices, seeds, set NAME";

/* One non-blank line without its comment. */
static int sw_line(struct ios_sweep_grid *g, unsigned line, const char *s, const char *end,
		   struct ios_err *e)
{
	const char *eq = memchr(s, '=', (size_t)(end - s)), *k = s, *ke;
	struct ios_sweep_axis *a = NULL, *na;
	const char *what;
	size_t kl;

	if (!eq)
		return IOS_ERR(e, -EINVAL, "%s:%u: expected KEY = VALUE, VALUE... (keys: %s)",
			       g->path, line, sw_keys);
	ke = eq;
	sw_trim(&k, &ke);
	kl = (size_t)(ke - k);
	if (kl == 3 && !memcmp(k, "job", 3))
		return sw_job(g, line, eq + 1, end, e);
	if (kl == 10 && !memcmp(k, "schedulers", 10)) {
		a = &g->sched;
		what = "schedulers";
	} else if (kl == 7 && !memcmp(k, "devices", 7)) {
		a = &g->device;
		what = "devices";
	} else if (kl == 5 && !memcmp(k, "seeds", 5)) {
		a = &g->seed;
		what = "seeds";
	} else if (kl > 4 && !memcmp(k, "set", 3) && isspace((unsigned char)k[3])) {
		const char *n = k + 4;

		while (isspace((unsigned char)*n))
			n++;
		for (const char *p = n; p < ke; p++)
			if (!isgraph((unsigned char)*p) || *p == ':' || *p == ',')
				return IOS_ERR(e, -EINVAL, "%s:%u: set: '%.*s' is not one tunable "
					       "name", g->path, line, (int)(ke - n), n);
		for (size_t i = 0; i < g->nr_sets; i++)
			if (strlen(g->sets[i].name) == (size_t)(ke - n) &&
			    !memcmp(g->sets[i].name, n, (size_t)(ke - n)))
				return IOS_ERR(e, -EINVAL, "%s:%u: set %s: given twice (first at "
					       "line %u)", g->path, line, g->sets[i].name,
					       g->sets[i].line);
		na = realloc(g->sets, (g->nr_sets + 1) * sizeof(*na));
		if (!na)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		g->sets = na;
		a = &g->sets[g->nr_sets++];
		memset(a, 0, sizeof(*a));
		a->name = sw_strndup(n, (size_t)(ke - n));
		if (!a->name)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		a->line = line;
		return sw_list(g->path, line, a->name, eq + 1, end, a, e);
	} else {
		return IOS_ERR(e, -EINVAL, "%s:%u: unknown axis '%.*s' (known: %s)", g->path,
			       line, (int)kl, k, sw_keys);
	}
	if (a->line)
		return IOS_ERR(e, -EINVAL, "%s:%u: %s: given twice (first at line %u)", g->path,
			       line, what, a->line);
	a->line = line;
	if (sw_list(g->path, line, what, eq + 1, end, a, e))
		return e->code;
	return a == &g->seed ? sw_seeds(g->path, line, a, e) : 0;
}

/* Is NAME set in column @col's suffix ("cfq:NAME=1")? */
static bool sw_col_sets(const char *col, const char *name)
{
	size_t n = strlen(name);

	for (const char *c = strchr(col, ':'); c; c = strchr(c + 1, ':'))
		if (!strncmp(c + 1, name, n) && c[1 + n] == '=')
			return true;
	return false;
}

/* compare's checker on one column and device; its message after "PATH:LINE: " */
static int sw_check(const struct ios_sweep_grid *g, unsigned line, const char *col,
		    const char *device, struct ios_err *e)
{
	struct ios_settings none = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_err ce = { 0 };
	size_t nr = 0;
	int ret;

	ret = ios_cmp_columns_parse(col, &none, device, &cols, &nr, &ce);
	ios_cmp_columns_free(cols, nr);
	if (ret)
		return IOS_ERR(e, ret == -ENOMEM ? -ENOMEM : -EINVAL, "%s:%u: %s%s%s%s", g->path,
			       line, ce.msg[0] ? ce.msg : "refused", device ? " (device " : "",
			       device ? device : "", device ? ")" : "");
	return 0;
}

static int sw_check_all(struct ios_sweep_grid *g, struct ios_err *e)
{
	size_t nd = g->device.n ? g->device.n : 1;
	char buf[1024];
	uint64_t n;

	if (!g->nr_jobs)
		return IOS_ERR(e, -EINVAL, "%s: no 'job = FILE...' line", g->path);
	if (!g->sched.n)
		return IOS_ERR(e, -EINVAL, "%s: no 'schedulers = ...' line", g->path);
	n = (uint64_t)g->nr_jobs * nd * g->sched.n * (g->seed.n ? g->seed.n : 1);
	for (size_t i = 0; i < g->nr_sets && n <= IOS_SWEEP_MAX_TASKS; i++)
		n *= g->sets[i].n;
	if (n > IOS_SWEEP_MAX_TASKS)
		return IOS_ERR(e, -EINVAL, "%s: the grid is more than %u tasks", g->path,
			       IOS_SWEEP_MAX_TASKS);
	g->nr_tasks = (size_t)n;
	for (size_t d = 0; d < nd; d++) {
		const char *dev = g->device.n ? g->device.vals[d] : NULL;

		for (size_t s = 0; s < g->sched.n; s++) {
			const char *col = g->sched.vals[s];

			if (sw_check(g, g->sched.line, col, dev, e))
				return e->code;
			for (size_t k = 0; k < g->nr_sets; k++) {
				const struct ios_sweep_axis *a = &g->sets[k];

				if (sw_col_sets(col, a->name))
					return IOS_ERR(e, -EINVAL, "%s:%u: set %s: column '%s' (line "
						       "%u) sets it too", g->path, a->line, a->name,
						       col, g->sched.line);
				for (size_t v = 0; v < a->n; v++) {
					snprintf(buf, sizeof(buf), "%s:%s=%s", col, a->name,
						 a->vals[v]);
					if (sw_check(g, a->line, buf, dev, e))
						return e->code;
				}
			}
		}
	}
	return 0;
}

int ios_sweep_grid_parse(const char *path, const char *text, size_t len,
			 struct ios_sweep_grid *g, struct ios_err *e)
{
	const char *s = text, *end = text + len;
	unsigned line = 0;
	int ret = 0;

	memset(g, 0, sizeof(*g));
	g->path = strdup(path ? path : "grid");
	if (!g->path)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	while (s < end && !ret) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end, *hash = memchr(s, '#', (size_t)(le - s));
		const char *ls = s, *lend = hash ? hash : le;

		line++;
		if (memchr(s, '\0', (size_t)(le - s)))
			ret = IOS_ERR(e, -EINVAL, "%s:%u: a NUL byte: not a grid file", g->path,
				      line);
		else {
			sw_trim(&ls, &lend);
			if (ls < lend)
				ret = sw_line(g, line, ls, lend, e);
		}
		s = nl ? nl + 1 : end;
	}
	if (!ret)
		ret = sw_check_all(g, e);
	if (ret)
		ios_sweep_grid_free(g);
	return ret;
}

/* the job axis' value: the files' base names joined by '+' */
static void sw_job_label(const struct ios_sweep_jobset *j, struct ios_buf *out)
{
	for (size_t i = 0; i < j->n; i++) {
		const char *b = strrchr(j->files[i], '/');

		ios_buf_printf(out, "%s%s", i ? "+" : "", b ? b + 1 : j->files[i]);
	}
}

int ios_sweep_manifest_write(const struct ios_sweep_grid *g, const char *grid_sha,
			     struct ios_buf *out)
{
	size_t nd = g->device.n ? g->device.n : 1, ns = g->seed.n ? g->seed.n : 1;
	size_t *idx = calloc(g->nr_sets + 1, sizeof(*idx));
	size_t task = 0, point = 0;

	if (!idx)
		return -ENOMEM;
	ios_buf_printf(out, "%s\ngrid %s\ntasks %zu\npoints %zu\nseeds %zu\n",
		       IOS_SWEEP_MANIFEST_MAGIC, grid_sha, g->nr_tasks, g->nr_tasks / ns, ns);
	for (size_t j = 0; j < g->nr_jobs; j++)
	for (size_t d = 0; d < nd; d++)
	for (size_t s = 0; s < g->sched.n; s++) {
		memset(idx, 0, (g->nr_sets + 1) * sizeof(*idx));
		for (;;) {	/* the set axes, the last one fastest */
			const char *col = g->sched.vals[s], *c;

			for (size_t r = 0; r < ns; r++, task++) {
				ios_buf_printf(out, "task %zu\t%zu\t%s\tjob=", task, point,
					       g->seed.n ? g->seed.vals[r] : "-");
				sw_job_label(&g->jobs[j], out);
				if (g->device.n)
					ios_buf_printf(out, " device=%s", g->device.vals[d]);
				ios_buf_printf(out, " scheduler=%s", col);
				for (size_t k = 0; k < g->nr_sets; k++)
					ios_buf_printf(out, " %s=%s", g->sets[k].name,
						       g->sets[k].vals[idx[k]]);
				ios_buf_puts(out, "\trun");
				for (size_t i = 0; i < g->jobs[j].n; i++)
					ios_buf_printf(out, " %s", g->jobs[j].inputs[i]);
				c = strchr(col, ':');
				ios_buf_printf(out, " --scheduler %.*s",
					       (int)(c ? (size_t)(c - col) : strlen(col)), col);
				if (g->device.n)
					ios_buf_printf(out, " --device %s", g->device.vals[d]);
				for (size_t k = 0; k < g->nr_sets; k++)
					ios_buf_printf(out, " --set %s=%s", g->sets[k].name,
						       g->sets[k].vals[idx[k]]);
				/* the column's own settings after the axes', as compare */
				while (c) {
					const char *n = strchr(c + 1, ':');

					ios_buf_printf(out, " --set %.*s",
						       (int)(n ? (size_t)(n - c - 1) : strlen(c + 1)),
						       c + 1);
					c = n;
				}
				if (g->seed.n)
					ios_buf_printf(out, " --seed %s", g->seed.vals[r]);
				ios_buf_puts(out, " --output-format json\n");
			}
			point++;
			{
				size_t k = g->nr_sets;

				while (k > 0 && ++idx[k - 1] == g->sets[k - 1].n)
					idx[--k] = 0;
				if (!k)
					break;
			}
		}
	}
	free(idx);
	return out->oom ? -ENOMEM : 0;
}

void ios_sweep_manifest_free(struct ios_sweep_manifest *m)
{
	for (size_t i = 0; i < m->nr_tasks; i++) {
		struct ios_sweep_task *t = &m->tasks[i];

		for (size_t a = 0; a < t->argc; a++)
			free(t->argv[a]);
		free(t->argv);
		free(t->seed);
		free(t->label);
	}
	free(m->tasks);
	memset(m, 0, sizeof(*m));
}

/* "KEY N\n" at @*s: 0 and the number, or -1 */
static int sw_header(const char **s, const char *end, const char *key, size_t *v)
{
	size_t kl = strlen(key);
	const char *nl = memchr(*s, '\n', (size_t)(end - *s)), *p;
	uint64_t x;

	if (!nl || (size_t)(nl - *s) <= kl + 1 || memcmp(*s, key, kl) || (*s)[kl] != ' ')
		return -1;
	p = *s + kl + 1;
	if (sw_u64(p, nl, &x) || x > IOS_SWEEP_MAX_TASKS)
		return -1;
	*v = (size_t)x;
	*s = nl + 1;
	return 0;
}

/* one task line: "task K\tPOINT\tSEED\tLABEL\tARGS" */
static int sw_task_line(const char *s, const char *le, size_t k, size_t npoints,
			struct ios_sweep_task *t)
{
	const char *f[5];
	size_t nf = 0;
	uint64_t x;
	char kbuf[32];

	f[nf++] = s;
	for (const char *p = s; p < le && nf < 5; p++)
		if (*p == '\t')
			f[nf++] = p + 1;
	if (nf != 5 || memchr(f[4], '\t', (size_t)(le - f[4])))
		return -1;
	snprintf(kbuf, sizeof(kbuf), "task %zu", k);
	if ((size_t)(f[1] - f[0] - 1) != strlen(kbuf) || memcmp(f[0], kbuf, strlen(kbuf)))
		return -1;
	if (sw_u64(f[1], f[2] - 1, &x) || x >= npoints)
		return -1;
	t->point = (size_t)x;
	t->seed = sw_strndup(f[2], (size_t)(f[3] - 1 - f[2]));
	t->label = sw_strndup(f[3], (size_t)(f[4] - 1 - f[3]));
	if (!t->seed || !t->label || !t->seed[0] || !t->label[0])
		return -1;
	for (const char *a = f[4]; a < le;) {
		const char *sp = memchr(a, ' ', (size_t)(le - a)), *ae = sp ? sp : le;

		if (ae == a || sw_push(&t->argv, &t->argc, sw_strndup(a, (size_t)(ae - a))))
			return -1;
		a = sp ? sp + 1 : le;
		if (sp && a == le)
			return -1;
	}
	return t->argc && !strcmp(t->argv[0], "run") ? 0 : -1;
}

int ios_sweep_manifest_parse(const char *path, const char *text, size_t len,
			     struct ios_sweep_manifest *m, struct ios_err *e)
{
	const char *s = text, *end = text + len, *nl;
	size_t tasks, points, seeds;
	size_t ml = strlen(IOS_SWEEP_MANIFEST_MAGIC);
	unsigned line = 1;

	memset(m, 0, sizeof(*m));
	ios_sha256_buf(text, len, m->sha);
	if (len < ml + 1 || memcmp(s, IOS_SWEEP_MANIFEST_MAGIC, ml) || s[ml] != '\n')
		return IOS_ERR(e, -EINVAL, "%s:1: not a sweep manifest (expected '%s')", path,
			       IOS_SWEEP_MANIFEST_MAGIC);
	s += ml + 1;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl || nl - s != 5 + 64 || memcmp(s, "grid ", 5))
		return IOS_ERR(e, -EINVAL, "%s:2: expected 'grid SHA256'", path);
	s = nl + 1;
	if (sw_header(&s, end, "tasks", &tasks) || sw_header(&s, end, "points", &points) ||
	    sw_header(&s, end, "seeds", &seeds) || !tasks || !seeds || tasks != points * seeds)
		return IOS_ERR(e, -EINVAL, "%s:3-5: expected 'tasks N', 'points P', 'seeds S' "
			       "with N = P x S > 0", path);
	line = 5;
	m->tasks = calloc(tasks, sizeof(*m->tasks));
	if (!m->tasks)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	m->nr_points = points;
	for (size_t k = 0; k < tasks; k++) {
		line++;
		nl = memchr(s, '\n', (size_t)(end - s));
		m->nr_tasks = k + 1;
		if (!nl || sw_task_line(s, nl, k, points, &m->tasks[k]) ||
		    m->tasks[k].point != k / seeds) {
			ios_sweep_manifest_free(m);
			return IOS_ERR(e, -EINVAL, "%s:%u: expected task %zu of %zu: 'task K<TAB>"
				       "POINT<TAB>SEED<TAB>LABEL<TAB>run ARGS'", path, line, k,
				       tasks);
		}
		s = nl + 1;
	}
	if (s != end) {
		ios_sweep_manifest_free(m);
		return IOS_ERR(e, -EINVAL, "%s:%u: text after the last task", path, line + 1);
	}
	ios_sha256_buf(text, len, m->sha);
	return 0;
}

int ios_sweep_manifest_parse_task(const char *path, const char *text, size_t len,
				  const char *task, const char *what, size_t *k,
				  struct ios_sweep_manifest *m, struct ios_err *e)
{
	const char *s = text, *end = text + len, *nl;
	size_t tasks, points, seeds, ml = strlen(IOS_SWEEP_MANIFEST_MAGIC);
	int ret;

	memset(m, 0, sizeof(*m));
	if (len < ml + 1 || memcmp(s, IOS_SWEEP_MANIFEST_MAGIC, ml) || s[ml] != '\n')
		return IOS_ERR(e, -EINVAL, "%s:1: not a sweep manifest (expected '%s')", path,
			       IOS_SWEEP_MANIFEST_MAGIC);
	s += ml + 1;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl || nl - s != 5 + 64 || memcmp(s, "grid ", 5))
		return IOS_ERR(e, -EINVAL, "%s:2: expected 'grid SHA256'", path);
	s = nl + 1;
	if (sw_header(&s, end, "tasks", &tasks) || sw_header(&s, end, "points", &points) ||
	    sw_header(&s, end, "seeds", &seeds) || !tasks || !seeds || tasks != points * seeds)
		return IOS_ERR(e, -EINVAL, "%s:3-5: expected 'tasks N', 'points P', 'seeds S' "
			       "with N = P x S > 0", path);
	m->tasks = calloc(tasks, sizeof(*m->tasks));
	if (!m->tasks)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	m->nr_tasks = tasks;
	m->nr_points = points;
	ret = ios_sweep_task_number(m, task, what, k, e);
	if (ret)
		goto err;
	/* to line 6 + k by its newlines alone: the other tasks are not parsed */
	for (size_t i = 0; i < *k && s < end; i++) {
		nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
	nl = s < end ? memchr(s, '\n', (size_t)(end - s)) : NULL;
	if (!nl || sw_task_line(s, nl, *k, points, &m->tasks[*k]) ||
	    m->tasks[*k].point != *k / seeds) {
		ret = IOS_ERR(e, -EINVAL, "%s:%zu: expected task %zu of %zu: 'task K<TAB>POINT<TAB>"
			      "SEED<TAB>LABEL<TAB>run ARGS'", path, *k + 6, *k, tasks);
		goto err;
	}
	return 0;	/* m->sha is the caller's: hashing the whole text is O(plan) */
err:
	ios_sweep_manifest_free(m);
	return ret;
}

int ios_sweep_task_number(const struct ios_sweep_manifest *m, const char *s, const char *what,
			  size_t *k, struct ios_err *e)
{
	uint64_t x;

	if (!s || sw_u64(s, s + strlen(s), &x))
		return IOS_ERR(e, -EINVAL, "%s=%s: not a task number (allowed 0..%zu)", what,
			       s ? s : "", m->nr_tasks - 1);
	if (x >= m->nr_tasks)
		return IOS_ERR(e, -ERANGE, "%s=%s: out of range: the plan has %zu tasks, "
			       "allowed 0..%zu", what, s, m->nr_tasks, m->nr_tasks - 1);
	*k = (size_t)x;
	return 0;
}
