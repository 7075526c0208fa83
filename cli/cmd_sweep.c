/*
 * iosched sweep: a parameter grid as independent runs (docs/sweep.md).
 *
 *   sweep plan GRID -o DIR    the grid expanded into DIR/manifest, the job
 *                             files copied into DIR/inputs/SHA256.fio
 *   sweep run DIR [--task K]  task K (or $SLURM_ARRAY_TASK_ID) run in this
 *                             process, as `iosched run` with JSON output,
 *                             its result written to DIR/results/K.json by a
 *                             temporary file and a rename
 *   sweep status DIR          done, failed and missing tasks
 *   sweep merge DIR           the per-point table over the seeds
 *   sweep slurm, parallel     the engines (cmd_sweep_engine.c)
 *
 * The grid, manifest and result formats and the merge are the library's
 * (iosched/sweep.h); this file reads and writes the files.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/compare.h"
#include "iosched/exp.h"
#include "iosched/sweep.h"

#define SW_MAX_FILE (64u << 20)		/* a grid, manifest, job file or result */
#define SW_MAX_DIR 2048u		/* DIR and GRID names: room for what follows */

static void sw_usage(FILE *f)
{
	fputs(
"usage: iosched sweep plan GRID -o DIR     expand a grid file into DIR: a manifest of\n"
"                                          numbered tasks, the job files by content\n"
"       iosched sweep run DIR [--task K]   run task K (default $SLURM_ARRAY_TASK_ID)\n"
"                                          into DIR/results/K.json; done ones skipped\n"
"       iosched sweep status DIR           count done, failed and missing tasks\n"
"       iosched sweep merge DIR [--output-format normal|json] [--output FILE]\n"
"                        [--plot METRIC --plot-dir D [--at AXIS=VALUE]...]\n"
"                                          per point, the median [lowest..highest] over\n"
"                                          the seeds (5 or more: an interval for the\n"
"                                          median); says what is missing; --plot: one\n"
"                                          SVG per axis, the other axes held at their\n"
"                                          first value or --at's\n"
"       iosched sweep slurm DIR [-o SCRIPT] [--submit] [--partition P] [--time T]\n"
"               [--account A] [--job-name NAME] [--max-running N] [--max-array-size N]\n"
"                                          write an sbatch job-array script (default\n"
"                                          DIR/slurm/sweep.sbatch; never over a file),\n"
"                                          one array per MaxArraySize tasks; --submit\n"
"                                          runs sbatch and prints the job ids\n"
"       iosched sweep parallel DIR [--jobs N] [--sshlogin HOSTS] [--run]\n"
"                                          print the GNU parallel command running\n"
"                                          tasks 0..N-1; --run execs it (its exit\n"
"                                          status is parallel's)\n"
"\n"
"The grid format and the directory's layout: docs/sweep.md.\n", f);
}

/* The whole file @path, NUL-terminated: 0, or -1 after saying why. */
static int sw_read(const char *what, const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "iosched: sweep: %s %s: %s\n", what, path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t r;

		if (cap - n < 65536) {
			/* doubling, up to 64 MiB + 64 KiB: a bounded number of reallocs */
			size_t ncap = cap ? 2 * cap : 65536;
			char *ns;

			if (ncap > SW_MAX_FILE + 65536)
				ncap = SW_MAX_FILE + 65536;
			/* full at SW_MAX_FILE + 64 KiB with less than 64 KiB free: over the limit */
			ns = cap == SW_MAX_FILE + 65536 ? NULL : realloc(s, ncap + 1);
			if (!ns) {
				fprintf(stderr, "iosched: sweep: %s %s: %s\n", what, path,
					cap == SW_MAX_FILE + 65536 ? "larger than 64 MiB" :
					strerror(ENOMEM));
				free(s);
				fclose(f);
				return -1;
			}
			s = ns;
			cap = ncap;
		}
		r = fread(s + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "iosched: sweep: %s %s: %s\n", what, path, strerror(EIO));
		free(s);
		fclose(f);
		return -1;
	}
	fclose(f);
	s[n] = '\0';
	*text = s;
	*len = n;
	return 0;
}

/*
 * @len bytes to @path through a temporary file beside it and a rename: a
 * reader (or a rerun after a kill) sees the whole file or none. 0 or -1.
 */
static int sw_write_atomic(const char *path, const char *s, size_t len)
{
	char tmp[4096];
	const char *slash = strrchr(path, '/');
	FILE *f;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp.%ld", slash ? (int)(slash - path + 1) : 0, path,
		 slash ? slash + 1 : path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		fprintf(stderr, "iosched: sweep: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	ok = fwrite(s, 1, len, f) == len && !fflush(f) && !fsync(fileno(f));
	if (fclose(f) || !ok || rename(tmp, path)) {
		fprintf(stderr, "iosched: sweep: writing %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * DIR/manifest.sha256, the plan's stamp: "SHA256 SIZE\n", the manifest's
 * hash and byte count, written after the manifest. A task trusts the hash
 * only while the manifest still has that size and a modification time
 * strictly older than the stamp's own (an edit after the stamp moves the
 * manifest's mtime past it); else it hashes the manifest itself, as
 * before the stamp. So a task costs O(1) hashing, not O(plan), and a
 * result never carries a hash its manifest did not have (docs/sweep.md,
 * "The plan's stamp").
 */
#define SW_STAMP "manifest.sha256"

static bool sw_ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* the stamp beside @mpath (DIR/manifest); its mtime strictly after the manifest's. 0 or -1 */
static int sw_stamp_write(const char *dir, const char *mpath, const struct ios_buf *man)
{
	char path[4096], line[128], sha[IOS_SHA256_HEX];
	struct stat ms, ss;
	int n;

	ios_sha256_buf(man->s, man->len, sha);
	n = snprintf(line, sizeof(line), "%s %zu\n", sha, man->len);
	snprintf(path, sizeof(path), "%s/" SW_STAMP, dir);
	if (stat(mpath, &ms)) {
		fprintf(stderr, "iosched: sweep plan: %s: %s\n", mpath, strerror(errno));
		return -1;
	}
	/*
	 * On a file system whose clock ticks coarsely the stamp may get the
	 * manifest's mtime: rewrite it until the tick has passed (a few ms; at
	 * most ~2 s on a 1-second-granular one). If it never does, tasks hash
	 * the manifest themselves: slower, still right.
	 */
	for (int i = 0; i < 1000; i++) {
		if (sw_write_atomic(path, line, (size_t)n) || stat(path, &ss))
			return -1;
		if (sw_ts_before(&ms.st_mtim, &ss.st_mtim))
			return 0;
		nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
	}
	fprintf(stderr, "iosched: sweep plan: %s: its time is not after the manifest's: "
		"each task will hash the manifest itself (correct, O(plan) a task)\n", path);
	return 0;
}

/*
 * The manifest's hash for a task: the stamp's, when it still describes
 * @mpath (@len bytes read), else the SHA-256 of @text. Says which.
 */
static void sw_stamp_sha(const char *dir, const char *mpath, const char *text, size_t len,
			 char *sha)
{
	char path[4096], *st = NULL;
	size_t sl, size;
	struct stat ms, ss;
	char x[IOS_SHA256_HEX], nl;

	snprintf(path, sizeof(path), "%s/" SW_STAMP, dir);
	if (!access(path, F_OK) && !stat(mpath, &ms) && !stat(path, &ss) &&
	    (size_t)ms.st_size == len && sw_ts_before(&ms.st_mtim, &ss.st_mtim) &&
	    !sw_read("stamp", path, &st, &sl) &&
	    sscanf(st, "%64[0-9a-f] %zu%c", x, &size, &nl) == 3 && strlen(x) == 64 &&
	    nl == '\n' && size == len) {
		free(st);
		memcpy(sha, x, IOS_SHA256_HEX);
		return;
	}
	free(st);
	ios_sha256_buf(text, len, sha);
}

/* ---- plan ---- */

struct sw_plan_args {
	const char *grid, *dir;
};

static int sw_plan_pos(void *arg, const char *a, struct ios_buf *msg)
{
	struct sw_plan_args *p = arg;

	if (p->grid) {
		ios_buf_printf(msg, "sweep plan: '%s': one grid file only (it is '%s')", a, p->grid);
		return -1;
	}
	p->grid = a;
	return 0;
}

/*
 * A job set as the task will run it: parsed (errors said here, before a
 * task exists), and refused when it reads or writes other files: an
 * include or read_iolog would not be in DIR, and the tasks' logs would
 * overwrite one another (as compare refuses them).
 */
static int sw_plan_check_jobs(const struct ios_sweep_grid *g, size_t j, char **paths)
{
	struct cli_run_opts o;
	struct ios_jobfile jf = { 0 };
	struct ios_err e = { 0 };
	int rc;

	if (cli_run_opts_init(&o, (int)g->jobs[j].n + 1))
		return CLI_EXIT_FAIL;
	for (size_t i = 0; i < g->jobs[j].n; i++)
		o.jobs[o.nr_jobs++] = paths[i];
	rc = cli_run_opts_load(&o, &jf);
	if (!rc && jf.nr_paths > g->jobs[j].n) {
		fprintf(stderr, "iosched: sweep plan: %s:%u: %s includes other files: a sweep "
			"copies job files alone (not yet includes; docs/sweep.md)\n", g->path,
			g->jobs[j].line, jf.paths[g->jobs[j].n]);
		rc = CLI_EXIT_USAGE;
	}
	for (size_t i = 0; !rc && i < jf.nr_jobs; i++)
		if (jf.jobs[i].read_iolog) {
			fprintf(stderr, "iosched: sweep plan: %s:%u: job '%s' reads read_iolog=%s: "
				"a sweep copies job files alone (not yet traces; docs/sweep.md)\n",
				g->path, g->jobs[j].line, jf.jobs[i].name, jf.jobs[i].read_iolog);
			rc = CLI_EXIT_USAGE;
		}
	if (!rc && ios_cmp_check_jobs(&jf, &e)) {
		fprintf(stderr, "iosched: sweep plan: %s:%u: %s\n", g->path, g->jobs[j].line, e.msg);
		rc = CLI_EXIT_USAGE;
	}
	ios_jobfile_free(&jf);
	o.nr_jobs = 0;
	cli_run_opts_free(&o);
	return rc;
}

/* DIR exists: empty (0), the same plan (1), or refused (-1, said) */
static int sw_plan_dir(const char *dir, const struct ios_buf *manifest)
{
	char path[4096], *old = NULL;
	size_t len;
	struct stat st;
	DIR *d;
	struct dirent *de;
	bool empty = true;
	int same;

	if (stat(dir, &st)) {
		if (errno == ENOENT)
			return mkdir(dir, 0777) ? (fprintf(stderr, "iosched: sweep plan: -o %s: %s\n",
							   dir, strerror(errno)), -1) : 0;
		fprintf(stderr, "iosched: sweep plan: -o %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iosched: sweep plan: -o %s: exists and is not a directory\n", dir);
		return -1;
	}
	d = opendir(dir);
	if (!d) {
		fprintf(stderr, "iosched: sweep plan: -o %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	if (empty)
		return 0;
	snprintf(path, sizeof(path), "%s/manifest", dir);
	if (access(path, F_OK)) {
		fprintf(stderr, "iosched: sweep plan: -o %s: not empty and holds no manifest: "
			"refused (nothing is written over what is there)\n", dir);
		return -1;
	}
	if (sw_read("manifest", path, &old, &len))
		return -1;
	same = len == manifest->len && !memcmp(old, manifest->s, len);
	free(old);
	if (!same) {
		fprintf(stderr, "iosched: sweep plan: -o %s: holds another plan (its manifest "
			"differs): refused; give a new directory\n", dir);
		return -1;
	}
	return 1;
}

/* inputs/SHA.fio: written unless there with those bytes (a name is its content) */
static int sw_plan_copy(const char *dir, const char *input, const char *text, size_t len)
{
	char path[4096], *old = NULL;
	size_t olen;

	snprintf(path, sizeof(path), "%s/%s", dir, input);
	if (!access(path, F_OK)) {
		bool same;

		if (sw_read("input", path, &old, &olen))
			return -1;
		same = olen == len && !memcmp(old, text, len);
		free(old);
		if (same)
			return 0;
		fprintf(stderr, "iosched: sweep plan: %s: exists with other bytes than its name "
			"says: refused\n", path);
		return -1;
	}
	return sw_write_atomic(path, text, len);
}

static int sw_plan(int argc, char **argv)
{
	struct sw_plan_args a = { 0 };
	const struct ios_cl_opt opts[] = {
		{ .name = "--output", .alias = "-o", .kind = IOS_CL_STR,
		  .off = offsetof(struct sw_plan_args, dir), .metavar = "DIR" },
		{ .name = NULL },
	};
	const struct ios_cl_group groups[] = { { cli_help_table, NULL, 0 }, { opts, &a, 0 } };
	const struct ios_cl_cmd cmd = { "sweep plan", "iosched sweep --help", groups,
					IOS_ARRAY_SIZE(groups), sw_plan_pos, &a, false };
	struct ios_sweep_grid g = { 0 };
	struct ios_err e = { 0 };
	struct ios_buf man;
	char *text = NULL, grid_sha[IOS_SHA256_HEX], path[4096];
	size_t len, dl;
	int rc = CLI_EXIT_USAGE, ret, same;

	ios_buf_init(&man);
	ret = cli_parse(&cmd, argc, argv);
	if (ret == IOS_CL_HELP_SEEN) {
		sw_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (ret < 0)
		return CLI_EXIT_USAGE;
	if (!a.grid || !a.dir) {
		fprintf(stderr, "iosched: sweep plan: give GRID and -o DIR\n");
		return CLI_EXIT_USAGE;
	}
	if (strlen(a.dir) > SW_MAX_DIR || strlen(a.grid) > SW_MAX_DIR) {
		fprintf(stderr, "iosched: sweep plan: a file or directory name longer than %u "
			"bytes\n", SW_MAX_DIR);
		return CLI_EXIT_USAGE;
	}
	if (sw_read("grid", a.grid, &text, &len))
		return CLI_EXIT_USAGE;
	ios_sha256_buf(text, len, grid_sha);
	if (ios_sweep_grid_parse(a.grid, text, len, &g, &e)) {
		cli_error(&e);
		free(text);
		return e.code == -ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	}
	free(text);
	text = NULL;
	/* job files relative to the grid's directory, as includes are to theirs */
	{
		const char *sl = strrchr(a.grid, '/');

		dl = sl ? (size_t)(sl - a.grid + 1) : 0;
	}
	for (size_t j = 0; j < g.nr_jobs; j++) {
		struct ios_sweep_jobset *js = &g.jobs[j];
		char **paths = calloc(js->n, sizeof(*paths));

		js->inputs = calloc(js->n, sizeof(*js->inputs));
		if (!paths || !js->inputs) {
			free(paths);
			rc = CLI_EXIT_FAIL;
			goto out;
		}
		for (size_t i = 0; i < js->n; i++) {
			char sha[IOS_SHA256_HEX];

			snprintf(path, sizeof(path), "%.*s%s", js->files[i][0] == '/' ? 0 : (int)dl,
				 a.grid, js->files[i]);
			paths[i] = strdup(path);
			if (!paths[i] || sw_read("job file", path, &text, &len))
				break;
			ios_sha256_buf(text, len, sha);
			free(text);
			text = NULL;
			js->inputs[i] = malloc(strlen("inputs/") + 64 + strlen(".fio") + 1);
			if (!js->inputs[i])
				break;
			sprintf(js->inputs[i], "inputs/%s.fio", sha);
		}
		ret = js->inputs[js->n - 1] ? sw_plan_check_jobs(&g, j, paths) : CLI_EXIT_USAGE;
		for (size_t i = 0; i < js->n; i++)
			free(paths[i]);
		free(paths);
		if (ret) {
			rc = ret;
			goto out;
		}
	}
	if (ios_sweep_manifest_write(&g, grid_sha, &man)) {
		fprintf(stderr, "iosched: out of memory\n");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	/* run, status and merge read the manifest whole: no plan they would refuse */
	if (man.len > SW_MAX_FILE) {
		fprintf(stderr, "iosched: sweep plan: %s: %zu tasks make a %zu-byte manifest, "
			"more than the %u MiB (%u bytes) a sweep file may be: refused; split "
			"the grid (fewer seeds or values per file)\n", a.grid, g.nr_tasks,
			man.len, SW_MAX_FILE >> 20, SW_MAX_FILE);
		goto out;
	}
	same = sw_plan_dir(a.dir, &man);
	if (same < 0)
		goto out;
	rc = CLI_EXIT_FAIL;
	for (const char *sub = "inputs"; sub; sub = strcmp(sub, "inputs") ? NULL : "results") {
		snprintf(path, sizeof(path), "%s/%s", a.dir, sub);
		if (mkdir(path, 0777) && errno != EEXIST) {
			fprintf(stderr, "iosched: sweep plan: %s: %s\n", path, strerror(errno));
			goto out;
		}
	}
	for (size_t j = 0; j < g.nr_jobs; j++)
		for (size_t i = 0; i < g.jobs[j].n; i++) {
			snprintf(path, sizeof(path), "%.*s%s", g.jobs[j].files[i][0] == '/' ? 0 : (int)dl,
				 a.grid, g.jobs[j].files[i]);
			if (sw_read("job file", path, &text, &len))
				goto out;
			ret = sw_plan_copy(a.dir, g.jobs[j].inputs[i], text, len);
			free(text);
			text = NULL;
			if (ret)
				goto out;
		}
	snprintf(path, sizeof(path), "%s/manifest", a.dir);
	if (!same && sw_write_atomic(path, man.s, man.len))
		goto out;
	/* the same plan again: its bytes were compared, so the stamp is rewritten too */
	if (sw_stamp_write(a.dir, path, &man))
		goto out;
	{
		char sha[IOS_SHA256_HEX];

		ios_sha256_buf(man.s, man.len, sha);
		printf("%s: %zu tasks (%zu points x %zu seeds), manifest sha256 %s%s\n", a.dir,
		       g.nr_tasks, g.nr_tasks / (g.seed.n ? g.seed.n : 1), g.seed.n ? g.seed.n : 1,
		       sha, same ? " (the same plan: already there)" : "");
	}
	rc = CLI_EXIT_OK;
out:
	free(text);
	ios_buf_free(&man);
	ios_sweep_grid_free(&g);
	return rc;
}

/* ---- the directory's results ---- */

/* DIR/manifest parsed: 0, or the exit status after saying why */
static int sw_manifest(const char *dir, struct ios_sweep_manifest *m)
{
	char path[4096], *text;
	size_t len;
	struct ios_err e = { 0 };
	int ret;

	if (strlen(dir) > SW_MAX_DIR) {
		fprintf(stderr, "iosched: sweep: %.40s...: a directory name longer than %u "
			"bytes\n", dir, SW_MAX_DIR);
		return CLI_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/manifest", dir);
	if (sw_read("manifest", path, &text, &len))
		return CLI_EXIT_USAGE;
	ret = ios_sweep_manifest_parse(path, text, len, m, &e);
	free(text);
	if (ret) {
		cli_error(&e);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* "12.json" -> 12 with @ext ".json"; -1 when not DIGITS@ext */
static long long sw_result_name(const char *name, const char *ext)
{
	size_t n = strspn(name, "0123456789");
	long long k = 0;

	if (!n || n > 9 || strcmp(name + n, ext))
		return -1;
	for (size_t i = 0; i < n; i++)
		k = k * 10 + (name[i] - '0');
	return k;
}

/*
 * Every file of DIR/results: K.json (done: read, checked, its metrics into
 * @metrics when not NULL), K.failed (failed). Dot files (a task's
 * temporary file) are skipped. A name of no task, two results for one
 * task, a result that does not parse or is of another plan: an error.
 * 0, or the exit status after saying why.
 */
static int sw_scan(const char *dir, const struct ios_sweep_manifest *m, unsigned char *state,
		   double *metrics)
{
	char path[4096];
	char **seen = calloc(m->nr_tasks, sizeof(*seen));
	DIR *d;
	struct dirent *de;
	int rc = CLI_EXIT_USAGE;

	snprintf(path, sizeof(path), "%s/results", dir);
	d = seen ? opendir(path) : NULL;
	if (!d) {
		fprintf(stderr, "iosched: sweep: %s: %s\n", path, seen ? strerror(errno) : "out of memory");
		free(seen);
		return seen ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	memset(state, IOS_SWEEP_MISSING, m->nr_tasks);
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		long long k = sw_result_name(nm, ".json");
		bool failed = k < 0;

		if (nm[0] == '.')
			continue;
		if (failed)
			k = sw_result_name(nm, ".failed");
		if (k < 0 || (size_t)k >= m->nr_tasks) {
			fprintf(stderr, "iosched: sweep: %s/%s: %s (the plan's tasks are "
				"0..%zu)\n", path, nm, k < 0 ? "not a result name (K.json or "
				"K.failed)" : "no such task", m->nr_tasks - 1);
			goto out;
		}
		if (seen[k] && (failed == (state[k] == IOS_SWEEP_FAILED) ||
				strcmp(seen[k] + strspn(seen[k], "0123456789"),
				       nm + strspn(nm, "0123456789")) == 0)) {
			fprintf(stderr, "iosched: sweep: two results for task %lld: %s/%s and "
				"%s/%s\n", k, path, seen[k], path, nm);
			goto out;
		}
		if (failed) {
			if (state[k] != IOS_SWEEP_DONE)
				state[k] = IOS_SWEEP_FAILED;
			if (!seen[k] && !(seen[k] = strdup(nm)))
				goto oom;
			continue;
		}
		{
			char rp[4096 + 256], *text;
			size_t len, got;
			struct ios_err e = { 0 };
			double v[IOS_SWEEP_NR_METRICS];
			int ret;

			snprintf(rp, sizeof(rp), "%s/%s", path, nm);
			if (sw_read("result", rp, &text, &len))
				goto out;
			ret = ios_sweep_result_parse(m, rp, text, len, &got, v, &e);
			free(text);
			if (ret) {
				cli_error(&e);
				goto out;
			}
			if (got != (size_t)k) {
				fprintf(stderr, "iosched: sweep: %s:1: the result of task %zu under "
					"the name of task %lld\n", rp, got, k);
				goto out;
			}
			if (metrics)
				memcpy(&metrics[got * IOS_SWEEP_NR_METRICS], v, sizeof(v));
		}
		state[k] = IOS_SWEEP_DONE;
		free(seen[k]);
		if (!(seen[k] = strdup(nm)))
			goto oom;
	}
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "iosched: out of memory\n");
	rc = CLI_EXIT_FAIL;
out:
	closedir(d);
	for (size_t k = 0; k < m->nr_tasks; k++)
		free(seen[k]);
	free(seen);
	return rc;
}

/* ---- run ---- */

struct sw_run_args {
	const char *dir, *task;
};

static int sw_dir_pos(void *arg, const char *a, struct ios_buf *msg)
{
	const char **dir = arg;

	if (*dir) {
		ios_buf_printf(msg, "sweep: '%s': one directory only (it is '%s')", a, *dir);
		return -1;
	}
	*dir = a;
	return 0;
}

/* the inputs a task names are the bytes their names say (a copied DIR, a changed file) */
static int sw_run_inputs(const struct ios_sweep_task *t)
{
	for (size_t i = 1; i < t->argc && t->argv[i][0] != '-'; i++) {
		char *text, sha[IOS_SHA256_HEX];
		const char *base = strrchr(t->argv[i], '/');
		size_t len;
		bool ok;

		if (sw_read("input", t->argv[i], &text, &len))
			return -1;
		ios_sha256_buf(text, len, sha);
		free(text);
		ok = base && !strncmp(base + 1, sha, 64);
		if (!ok) {
			fprintf(stderr, "iosched: sweep run: %s: its content's sha256 is %s, not its "
				"name: the input changed after the plan\n", t->argv[i], sha);
			return -1;
		}
	}
	return 0;
}

/*
 * The task's run, as cmd_run does it with --output-format json; the JSON
 * report into @report, the metrics into @cr. 0, or the exit status.
 */
static int sw_run_task(const struct ios_sweep_task *t, struct ios_buf *report,
		       struct ios_cmp_run *cr)
{
	struct cli_run_opts o;
	struct ios_jobfile jf = { 0 };
	struct ios_run_result res = { 0 };
	struct ios_err e = { 0 };
	struct ios_share_params sp = { 0 };
	const struct ios_sched_type *st;
	int rc = CLI_EXIT_FAIL;

	if (cli_run_opts_init(&o, (int)t->argc))
		return CLI_EXIT_FAIL;
	if (cli_run_cmd_parse(&o, "sweep run", (int)t->argc, t->argv, &rc))
		goto out;
	rc = cli_run_opts_load(&o, &jf);
	if (rc)
		goto out;
	rc = CLI_EXIT_FAIL;
	if (ios_run(&jf, &o.cfg, &res, &e)) {
		cli_error(&e);
		rc = cli_err_status(&e);
		goto out;
	}
	for (size_t i = 0; i < res.nr_warnings; i++)
		fprintf(stderr, "iosched: warning: %s\n", res.warnings[i]);
	for (size_t i = 0; i < res.nr_jobs; i++)
		if (res.jobs[i].error) {
			fprintf(stderr, "iosched: sweep run: job '%s' ended with an error (%d): the "
				"task failed, as `iosched run` exits 1\n", res.jobs[i].name,
				res.jobs[i].error);
			goto out_res;
		}
	/* the share model only feeds compare's share table, not the metrics kept here */
	st = ios_sched_find(o.cfg.scheduler);
	if (st)
		ios_share_params_of(st, NULL, &sp);
	if (cli_report(&res, "json", false, report) || ios_cmp_run_from_result(cr, NULL, &sp, &res)) {
		fprintf(stderr, "iosched: out of memory writing the report\n");
		goto out_res;
	}
	rc = CLI_EXIT_OK;
out_res:
	ios_run_result_free(&res);
out:
	ios_jobfile_free(&jf);
	cli_run_opts_free(&o);
	return rc;
}

static int sw_run(int argc, char **argv)
{
	struct sw_run_args a = { 0 };
	const struct ios_cl_opt opts[] = {
		{ .name = "--task", .kind = IOS_CL_STR, .off = offsetof(struct sw_run_args, task),
		  .metavar = "K" },
		{ .name = NULL },
	};
	const struct ios_cl_group groups[] = { { cli_help_table, NULL, 0 }, { opts, &a, 0 } };
	const struct ios_cl_cmd cmd = { "sweep run", "iosched sweep --help", groups,
					IOS_ARRAY_SIZE(groups), sw_dir_pos, &a.dir, false };
	struct ios_sweep_manifest m = { 0 };
	struct ios_cmp_run cr = { 0 };
	struct ios_err e = { 0 };
	struct ios_buf report, out;
	const char *what = "--task";
	char res[64], fail[64];
	size_t k;
	int ret, rc;

	ret = cli_parse(&cmd, argc, argv);
	if (ret == IOS_CL_HELP_SEEN) {
		sw_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (ret < 0)
		return CLI_EXIT_USAGE;
	if (!a.dir) {
		fprintf(stderr, "iosched: sweep run: give the sweep's DIR\n");
		return CLI_EXIT_USAGE;
	}
	if (!a.task) {
		a.task = getenv("SLURM_ARRAY_TASK_ID");
		what = "SLURM_ARRAY_TASK_ID";
		if (!a.task) {
			fprintf(stderr, "iosched: sweep run: no --task K and no SLURM_ARRAY_TASK_ID "
				"in the environment\n");
			return CLI_EXIT_USAGE;
		}
	}
	/* the head and task K's line only: a task's start does not grow with the plan */
	{
		char mp[4096], *text;
		size_t len;

		if (strlen(a.dir) > SW_MAX_DIR) {
			fprintf(stderr, "iosched: sweep run: %.40s...: a directory name longer "
				"than %u bytes\n", a.dir, SW_MAX_DIR);
			return CLI_EXIT_USAGE;
		}
		snprintf(mp, sizeof(mp), "%s/manifest", a.dir);
		if (sw_read("manifest", mp, &text, &len))
			return CLI_EXIT_USAGE;
		ret = ios_sweep_manifest_parse_task(mp, text, len, a.task, what, &k, &m, &e);
		if (!ret)
			sw_stamp_sha(a.dir, mp, text, len, m.sha);
		free(text);
		if (ret) {
			fprintf(stderr, "iosched: sweep run: %s\n", e.msg);
			return ret == -ENOMEM ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
		}
	}
	/* from here on paths are the manifest's, relative to DIR: the same on any machine */
	if (chdir(a.dir)) {
		fprintf(stderr, "iosched: sweep run: %s: %s\n", a.dir, strerror(errno));
		ios_sweep_manifest_free(&m);
		return CLI_EXIT_FAIL;
	}
	snprintf(res, sizeof(res), "results/%zu.json", k);
	snprintf(fail, sizeof(fail), "results/%zu.failed", k);
	if (!access(res, F_OK)) {
		fprintf(stderr, "iosched: sweep run: task %zu: %s/%s is there: done, skipped\n", k,
			a.dir, res);
		ios_sweep_manifest_free(&m);
		return CLI_EXIT_OK;
	}
	ios_buf_init(&report);
	ios_buf_init(&out);
	rc = sw_run_inputs(&m.tasks[k]) ? CLI_EXIT_FAIL : sw_run_task(&m.tasks[k], &report, &cr);
	if (!rc) {
		if (ios_sweep_result_write(&m, k, &cr, report.s ? report.s : "", &out)) {
			fprintf(stderr, "iosched: out of memory\n");
			rc = CLI_EXIT_FAIL;
		} else if (sw_write_atomic(res, out.s, out.len)) {
			rc = CLI_EXIT_FAIL;
		} else {
			unlink(fail);
		}
	} else {
		char msg[256];
		int n = snprintf(msg, sizeof(msg), "task %zu failed: exit status %d (its stderr "
				 "says why)\n", k, rc);

		fprintf(stderr, "iosched: sweep run: %s/%s", a.dir, msg);
		if (sw_write_atomic(fail, msg, (size_t)n))
			rc = CLI_EXIT_FAIL;
	}
	ios_cmp_run_free(&cr);
	ios_buf_free(&report);
	ios_buf_free(&out);
	ios_sweep_manifest_free(&m);
	return rc;
}

/* ---- status, merge ---- */

static int sw_status(int argc, char **argv)
{
	const char *dir = NULL;
	const struct ios_cl_group groups[] = { { cli_help_table, NULL, 0 } };
	const struct ios_cl_cmd cmd = { "sweep status", "iosched sweep --help", groups,
					IOS_ARRAY_SIZE(groups), sw_dir_pos, &dir, false };
	struct ios_sweep_manifest m = { 0 };
	unsigned char *state = NULL;
	size_t n[3] = { 0 };
	int ret, rc;

	ret = cli_parse(&cmd, argc, argv);
	if (ret == IOS_CL_HELP_SEEN) {
		sw_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (ret < 0 || !dir) {
		if (!dir)
			fprintf(stderr, "iosched: sweep status: give the sweep's DIR\n");
		return CLI_EXIT_USAGE;
	}
	rc = sw_manifest(dir, &m);
	if (rc)
		return rc;
	state = malloc(m.nr_tasks);
	rc = state ? sw_scan(dir, &m, state, NULL) : CLI_EXIT_FAIL;
	if (!rc) {
		for (size_t k = 0; k < m.nr_tasks; k++)
			n[state[k]]++;
		printf("%s: %zu tasks: done %zu, failed %zu, missing %zu\n", dir, m.nr_tasks,
		       n[IOS_SWEEP_DONE], n[IOS_SWEEP_FAILED], n[IOS_SWEEP_MISSING]);
		for (int i = 0; i < 2; i++) {
			int want = i ? IOS_SWEEP_MISSING : IOS_SWEEP_FAILED;
			size_t shown = 0;

			if (!n[want])
				continue;
			printf("%s:", i ? "missing" : "failed");
			for (size_t k = 0; k < m.nr_tasks && shown < 20; k++)
				if (state[k] == want)
					printf(" %zu", k), shown++;
			printf("%s\n", n[want] > shown ? " ..." : "");
		}
	}
	free(state);
	ios_sweep_manifest_free(&m);
	return rc;
}

#define SW_MAX_AT 64

struct sw_merge_args {
	const char *dir, *fmt, *outfile, *plot, *plot_dir;
	const char *at[SW_MAX_AT];
	size_t nr_at;
};

/* --at AXIS=VALUE, repeatable: checked against the plan's axes once it is read */
static int sw_merge_at(void *base, const struct ios_cl_opt *opt, const char *val,
		       struct ios_buf *msg)
{
	struct sw_merge_args *a = base;

	(void)opt;
	if (a->nr_at == SW_MAX_AT) {
		ios_buf_printf(msg, "sweep merge: --at %s: at most %d --at", val, SW_MAX_AT);
		return -1;
	}
	a->at[a->nr_at++] = val;
	return 0;
}

static int sw_merge(int argc, char **argv)
{
	struct sw_merge_args a = { .fmt = "normal" };
	const struct ios_cl_opt opts[] = {
		{ .name = "--output-format", .kind = IOS_CL_STR,
		  .off = offsetof(struct sw_merge_args, fmt), .metavar = "normal|json" },
		{ .name = "--output", .kind = IOS_CL_STR,
		  .off = offsetof(struct sw_merge_args, outfile), .metavar = "FILE" },
		{ .name = "--plot", .kind = IOS_CL_STR,
		  .off = offsetof(struct sw_merge_args, plot), .metavar = "METRIC" },
		{ .name = "--plot-dir", .kind = IOS_CL_STR,
		  .off = offsetof(struct sw_merge_args, plot_dir), .metavar = "D" },
		{ .name = "--at", .kind = IOS_CL_CALL, .fn = sw_merge_at, .metavar = "AXIS=VALUE" },
		{ .name = NULL },
	};
	const struct ios_cl_group groups[] = { { cli_help_table, NULL, 0 }, { opts, &a, 0 } };
	const struct ios_cl_cmd cmd = { "sweep merge", "iosched sweep --help", groups,
					IOS_ARRAY_SIZE(groups), sw_dir_pos, &a.dir, false };
	struct ios_sweep_manifest m = { 0 };
	unsigned char *state = NULL;
	double *metrics = NULL;
	struct ios_buf out;
	size_t missing = 0;
	int ret, rc;

	ret = cli_parse(&cmd, argc, argv);
	if (ret == IOS_CL_HELP_SEEN) {
		sw_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (ret < 0)
		return CLI_EXIT_USAGE;
	if (!a.dir) {
		fprintf(stderr, "iosched: sweep merge: give the sweep's DIR\n");
		return CLI_EXIT_USAGE;
	}
	if (strcmp(a.fmt, "normal") && strcmp(a.fmt, "json")) {
		fprintf(stderr, "iosched: sweep merge: --output-format=%s: allowed normal, json\n",
			a.fmt);
		return CLI_EXIT_USAGE;
	}
	if ((a.plot_dir || a.nr_at) && !a.plot) {
		fprintf(stderr, "iosched: sweep merge: %s without --plot METRIC\n",
			a.plot_dir ? "--plot-dir" : "--at");
		return CLI_EXIT_USAGE;
	}
	rc = sw_manifest(a.dir, &m);
	if (rc)
		return rc;
	ios_buf_init(&out);
	if (a.outfile && cli_sweep_output_check(a.dir, "--output", a.outfile, false)) {
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	state = malloc(m.nr_tasks);
	metrics = calloc(m.nr_tasks, IOS_SWEEP_NR_METRICS * sizeof(*metrics));
	rc = state && metrics ? sw_scan(a.dir, &m, state, metrics) : CLI_EXIT_FAIL;
	if (rc)
		goto out;
	if (ios_sweep_merge(&m, metrics, state, !strcmp(a.fmt, "json"), &out)) {
		fprintf(stderr, "iosched: out of memory\n");
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	rc = cli_write_output(a.outfile, &out) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
	if (!rc && a.plot)
		rc = cli_sweep_plots(a.dir, &m, metrics, state, a.plot, a.plot_dir, a.at, a.nr_at);
	for (size_t k = 0; k < m.nr_tasks; k++)
		missing += state[k] != IOS_SWEEP_DONE;
	if (missing)
		fprintf(stderr, "iosched: sweep merge: %zu of %zu tasks not done (listed in the "
			"table's head): a partial merge\n", missing, m.nr_tasks);
out:
	free(state);
	free(metrics);
	ios_buf_free(&out);
	ios_sweep_manifest_free(&m);
	return rc;
}

/* for the engines (cmd_sweep_engine.c): the usage, DIR's argument, DIR's manifest */
void cli_sweep_usage(FILE *f)
{
	sw_usage(f);
}

int cli_sweep_dir_pos(void *arg, const char *a, struct ios_buf *msg)
{
	return sw_dir_pos(arg, a, msg);
}

int cli_sweep_manifest(const char *dir, struct ios_sweep_manifest *m)
{
	return sw_manifest(dir, m);
}

int cmd_sweep(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} subs[] = {
		{ "plan", sw_plan }, { "run", sw_run }, { "status", sw_status }, { "merge", sw_merge },
		{ "slurm", cli_sweep_slurm }, { "parallel", cli_sweep_parallel },
	};

	if (argc < 2) {
		sw_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		sw_usage(stdout);
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < IOS_ARRAY_SIZE(subs); i++)
		if (!strcmp(argv[1], subs[i].name))
			return subs[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "iosched: sweep: unknown sub-command '%s' (known: plan, run, status, "
		"merge, slurm, parallel)\n", argv[1]);
	return CLI_EXIT_USAGE;
}
