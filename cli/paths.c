/*
 * No output over an input or over another output: every command collects
 * the files it reads (job files and their includes, traces, read_iolog
 * files) and the files it will write (--output, --plot, --trace, the
 * write_*_log and write_iolog files, repro's report), and checks them all
 * before it opens anything for writing. `replay X --trace X` would otherwise truncate the
 * trace it is about to read, and `--output x --plot x` write the report and
 * then draw over it.
 *
 * Two names are the same file when both exist as regular files with the
 * same st_dev and st_ino (hard links, symlinks, "./x" and "x" included).
 * An output that does not exist yet has no inode, so it is compared by its
 * resolved name: realpath() of its directory plus its last component. Only
 * regular files and files still to be made count: writing to /dev/null or
 * a terminal twice destroys nothing, and a directory fails on its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/fiolog.h"

struct cli_path {
	char *what;		/* "--output", "the job file", ... */
	char *path;
	bool out;
	int group;		/* outputs of one group may share a file (fio's logs do) */
	bool have_ino;		/* an existing regular file */
	dev_t dev;
	ino_t ino;
	char *canon;		/* resolved name; NULL when it cannot be resolved */
	bool skip;		/* neither regular nor still to be created */
};

/*
 * realpath() of the directory of @p, plus its last component; a directory
 * that does not exist yet (repro makes its --output-dir) resolved the same
 * way, one level up.
 */
static char *paths_resolve(const char *p, unsigned depth)
{
	const char *slash = strrchr(p, '/');
	const char *base = slash ? slash + 1 : p;
	char *dir, *rdir, *out;
	size_t n;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return realpath(p, NULL);
	if (!slash)
		dir = strdup(".");
	else if (slash == p)
		dir = strdup("/");
	else
		dir = strndup(p, (size_t)(slash - p));
	if (!dir)
		return NULL;
	/* "a//b": the directory is "a" */
	for (n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
		dir[n - 1] = '\0';
	rdir = realpath(dir, NULL);
	if (!rdir && errno == ENOENT && depth < 64)
		rdir = paths_resolve(dir, depth + 1);
	free(dir);
	if (!rdir)
		return NULL;
	n = strlen(rdir) + strlen(base) + 2;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", base);
	free(rdir);
	return out;
}

static int paths_add(struct cli_paths *ps, const char *what, const char *path, bool out,
		     int group)
{
	struct cli_path *p;
	struct stat st;

	if (!path || (!out && !strcmp(path, "-")))
		return 0;	/* none, or the job file on stdin (an output "-" is a file) */
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 16;
		struct cli_path *nv = realloc(ps->v, cap * sizeof(*nv));

		if (!nv)
			goto oom;
		ps->v = nv;
		ps->cap = cap;
	}
	p = &ps->v[ps->n];
	memset(p, 0, sizeof(*p));
	p->what = strdup(what);
	p->path = strdup(path);
	if (!p->what || !p->path) {
		free(p->what);
		free(p->path);
		goto oom;
	}
	p->out = out;
	p->group = group;
	if (!stat(path, &st)) {
		if (S_ISREG(st.st_mode)) {
			p->have_ino = true;
			p->dev = st.st_dev;
			p->ino = st.st_ino;
		} else {
			p->skip = true;
		}
	} else if (!out) {
		p->skip = true;	/* an input that is not there is the reader's error */
	}
	if (!p->skip)
		p->canon = paths_resolve(path, 0);
	ps->n++;
	return 0;
oom:
	fprintf(stderr, "iosched: out of memory\n");
	return -1;
}

int cli_paths_in(struct cli_paths *ps, const char *what, const char *path)
{
	return paths_add(ps, what, path, false, 0);
}

int cli_paths_out(struct cli_paths *ps, const char *what, const char *path, int group)
{
	return paths_add(ps, what, path, true, group);
}

static bool paths_same(const struct cli_path *a, const struct cli_path *b)
{
	if (a->skip || b->skip)
		return false;
	if (a->have_ino && b->have_ino)
		return a->dev == b->dev && a->ino == b->ino;
	/* at least one is still to be created: by name */
	return a->canon && b->canon && !strcmp(a->canon, b->canon);
}

int cli_paths_check(const struct cli_paths *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		const struct cli_path *a = &ps->v[i];

		for (size_t k = 0; k < ps->n; k++) {
			const struct cli_path *b = &ps->v[k];

			/* each pair once, and an output against every input */
			if (k == i || !a->out || (b->out && k < i) || !paths_same(a, b))
				continue;
			if (b->out && a->group && a->group == b->group)
				continue;
			if (!b->out)
				fprintf(stderr, "iosched: %s '%s' is %s '%s', which this command "
					"reads: refusing to overwrite it\n", a->what, a->path, b->what,
					b->path);
			else
				fprintf(stderr, "iosched: %s '%s' and %s '%s' are the same file: "
					"one would overwrite the other\n", a->what, a->path, b->what,
					b->path);
			return -1;
		}
	}
	return 0;
}

void cli_paths_free(struct cli_paths *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		free(ps->v[i].what);
		free(ps->v[i].path);
		free(ps->v[i].canon);
	}
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

int cli_paths_in_trace(struct cli_paths *ps, const char *what, const char *name)
{
	size_t n = strlen(name) + 32;
	char *p = malloc(n);
	struct stat st;
	int ret = cli_paths_in(ps, what, name);

	if (!p) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	/* NAME may stand for NAME.blktrace.0, .1, ... as blkparse -i reads them */
	for (unsigned cpu = 0; !ret && cpu < 1024; cpu++) {
		snprintf(p, n, "%s.blktrace.%u", name, cpu);
		if (stat(p, &st))
			break;
		ret = cli_paths_in(ps, what, p);
	}
	free(p);
	return ret;
}

struct paths_log_arg {
	struct cli_paths *ps;
	int ret;
};

static int paths_log(void *arg, const char *path, const struct ios_job *job, const char *opt)
{
	struct paths_log_arg *la = arg;
	char what[512];

	snprintf(what, sizeof(what), "%s of job '%s' (%s:%d)", opt, job->name ? job->name : "",
		 job->file ? job->file : "?", job->line);
	/* group 1: logs may share a file with each other, as fio's do */
	la->ret = cli_paths_out(la->ps, what, path, 1);
	return la->ret;
}

/*
 * A report, plot or trace that cannot be made is said before the run, not
 * after it: `run j.fio --plot /nonexistent/x.svg` ran the whole job, printed
 * the report and only then failed. Checked: the file, or else its
 * directory, exists and may be written. Returns 0, or -1 after saying why.
 */
int cli_paths_writable(const char *what, const char *path)
{
	const char *slash = strrchr(path, '/');
	struct stat st;
	char *dir;
	int ret = 0;

	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "iosched: %s '%s' is a directory\n", what, path);
			return -1;
		}
		if (access(path, W_OK)) {
			fprintf(stderr, "iosched: %s '%s': %s\n", what, path, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	if (stat(dir, &st)) {
		fprintf(stderr, "iosched: %s '%s' cannot be created: '%s': %s\n", what, path, dir,
			strerror(errno));
		ret = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iosched: %s '%s' cannot be created: '%s' is not a directory\n",
			what, path, dir);
		ret = -1;
	} else if (access(dir, W_OK | X_OK)) {
		fprintf(stderr, "iosched: %s '%s' cannot be created in '%s': %s\n", what, path, dir,
			strerror(errno));
		ret = -1;
	} else {
		/*
		 * access() says yes to root in /proc or sysfs, where no file can
		 * be made: make it once, empty, and take it away again.
		 */
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

		if (fd < 0) {
			fprintf(stderr, "iosched: %s '%s' cannot be created (creating it "
				"failed: %s)\n", what, path, strerror(errno));
			ret = -1;
		} else {
			close(fd);
			unlink(path);
		}
	}
	free(dir);
	return ret;
}

/*
 * repro makes its --output-dir (and DIR/repro) with one mkdir each, after
 * the experiments have run: `--output-dir /nonexistent/dir` ran them all
 * for seconds and then failed. A directory that exists must be one and be
 * writable; one to be made needs its parent to be a writable directory.
 */
int cli_paths_dir_makeable(const char *what, const char *dir)
{
	const char *slash;
	struct stat st;
	char *parent;
	size_t n = strlen(dir);
	int ret = 0;

	if (!n) {
		fprintf(stderr, "iosched: %s '': an empty directory name\n", what);
		return -1;
	}
	if (!stat(dir, &st)) {
		if (!S_ISDIR(st.st_mode)) {
			fprintf(stderr, "iosched: %s '%s' is not a directory\n", what, dir);
			return -1;
		}
		if (access(dir, W_OK | X_OK)) {
			fprintf(stderr, "iosched: %s '%s': %s\n", what, dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (errno != ENOENT) {
		fprintf(stderr, "iosched: %s '%s': %s\n", what, dir, strerror(errno));
		return -1;
	}
	/* "a/b/" is made as "a/b": its parent is "a" */
	while (n > 1 && dir[n - 1] == '/')
		n--;
	parent = strndup(dir, n);
	if (!parent) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	slash = strrchr(parent, '/');
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		parent[slash - parent] = '\0';
	if (stat(parent, &st)) {
		fprintf(stderr, "iosched: %s '%s' cannot be created: '%s': %s (only the last "
			"level is made)\n", what, dir, parent, strerror(errno));
		ret = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iosched: %s '%s' cannot be created: '%s' is not a directory\n",
			what, dir, parent);
		ret = -1;
	} else if (access(parent, W_OK | X_OK)) {
		fprintf(stderr, "iosched: %s '%s' cannot be created in '%s': %s\n", what, dir,
			parent, strerror(errno));
		ret = -1;
	} else if (mkdir(dir, 0777)) {
		/* as for a file: access() does not know /proc refuses mkdir */
		fprintf(stderr, "iosched: %s '%s' cannot be created (mkdir failed: %s)\n",
			what, dir, strerror(errno));
		ret = -1;
	} else {
		rmdir(dir);
	}
	free(parent);
	return ret;
}

int cli_paths_run(struct cli_paths *ps, const struct cli_run_opts *o,
		  const struct ios_jobfile *jf, const char *trace, const char *plot)
{
	struct paths_log_arg la = { ps, 0 };

	for (int i = 0; jf && i < o->nr_jobs; i++)
		if (cli_paths_in(ps, "the job file", o->jobs[i]))
			return -1;
	for (size_t i = 0; jf && i < jf->nr_paths; i++)
		if (cli_paths_in(ps, "the job file", jf->paths[i]))
			return -1;
	for (size_t i = 0; jf && i < jf->nr_jobs; i++)
		if (jf->jobs[i].read_iolog && *jf->jobs[i].read_iolog &&
		    cli_paths_in_trace(ps, "the read_iolog trace", jf->jobs[i].read_iolog))
			return -1;
	if (cli_paths_out(ps, "--output", o->outfile, 0) || cli_paths_out(ps, "--plot", plot, 0))
		return -1;
	if ((o->outfile && cli_paths_writable("--output", o->outfile)) ||
	    (plot && cli_paths_writable("--plot", plot)))
		return -1;
	if (trace) {
		size_t n = strlen(trace) + sizeof(".blktrace.0");
		char *p = malloc(n);
		int ret;

		if (!p) {
			fprintf(stderr, "iosched: out of memory\n");
			return -1;
		}
		snprintf(p, n, "%s.blktrace.0", trace);
		ret = cli_paths_out(ps, "--trace", p, 0);
		if (!ret)
			ret = cli_paths_writable("--trace", p);
		free(p);
		if (ret)
			return -1;
	}
	if (jf && ios_fiolog_each_path(jf, paths_log, &la))
		return -1;
	/*
	 * write_iolog appends (as fio's does) rather than truncates, but lines
	 * added to a job file, a trace or the report ruin it all the same. A
	 * job with read_iolog writes no log (the runner says so); two writers
	 * of one log are the runner's error, with its own message.
	 */
	for (size_t i = 0; jf && i < jf->nr_jobs; i++) {
		const struct ios_job *j = &jf->jobs[i];
		char what[512];

		if (!j->write_iolog || !*j->write_iolog || (j->read_iolog && *j->read_iolog))
			continue;
		snprintf(what, sizeof(what), "write_iolog of job '%s' (%s:%d)",
			 j->name ? j->name : "", j->file ? j->file : "?", j->line);
		if (cli_paths_out(ps, what, j->write_iolog, 2))
			return -1;
	}
	return 0;
}
