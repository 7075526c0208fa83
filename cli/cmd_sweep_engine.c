/*
 * iosched sweep slurm / sweep parallel: a sweep's tasks handed to Slurm or
 * GNU parallel (docs/sweep.md, "Slurm" and "GNU parallel").
 *
 *   sweep slurm DIR [-o SCRIPT] [--submit] ...   writes the sbatch script
 *                                                 (a job array per chunk of
 *                                                 MaxArraySize tasks) and
 *                                                 runs sbatch with --submit
 *   sweep parallel DIR [--jobs N] [--sshlogin HOSTS] [--run]
 *                                                 prints the parallel line,
 *                                                 or execs it with --run
 *
 * The text (script, sbatch and parallel vectors) is the library's
 * (iosched/sweep_engine.h); this file finds the paths, writes the script
 * without ever replacing a file, and runs the programs.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/sweep.h"
#include "iosched/sweep_engine.h"

/* the largest MaxArraySize slurm.conf accepts */
#define SE_ARRAY_MAX 4000001u

/* @prog found in $PATH (a name with a '/' as is): 1 or 0 */
static int se_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", n ? (int)n : 1, n ? path : ".", prog);
		if (!access(buf, X_OK))
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

/*
 * Run @argv, its stdout into @out (stderr passes through unless @quiet). The exit status
 * (0..255), or -1 when it could not run or was killed (said).
 */
static int se_capture(char *const *argv, struct ios_buf *out, bool quiet)
{
	int fd[2], st;
	pid_t pid;
	char buf[4096];
	ssize_t r;

	if (pipe(fd)) {
		fprintf(stderr, "iosched: sweep: pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "iosched: sweep: fork: %s\n", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		close(fd[0]);
		dup2(fd[1], 1);
		close(fd[1]);
		if (quiet && !freopen("/dev/null", "w", stderr))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "iosched: sweep: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	while ((r = read(fd[0], buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR))
		if (r > 0)
			ios_buf_printf(out, "%.*s", (int)r, buf);
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "iosched: sweep: %s killed by signal %d\n", argv[0], WTERMSIG(st));
		return -1;
	}
	return WEXITSTATUS(st);
}

/*
 * DIR's manifest, and the absolute paths of DIR and of this binary: 0, or
 * the exit status after saying why.
 */
static int se_paths(const char *cmd, const char *dir, struct ios_sweep_manifest *m,
		    char *adir, char *abin)
{
	char path[PATH_MAX + 16];
	ssize_t n;
	int rc;

	snprintf(path, sizeof(path), "%s/manifest", dir);
	if (access(path, F_OK)) {
		fprintf(stderr, "iosched: sweep %s: %s: not a sweep directory (no %s: %s; "
			"`iosched sweep plan GRID -o DIR` makes one)\n", cmd, dir, path,
			strerror(errno));
		return CLI_EXIT_USAGE;
	}
	rc = cli_sweep_manifest(dir, m);
	if (rc)
		return rc;
	if (!realpath(dir, adir)) {
		fprintf(stderr, "iosched: sweep %s: %s: %s\n", cmd, dir, strerror(errno));
		return CLI_EXIT_FAIL;
	}
	n = readlink("/proc/self/exe", abin, PATH_MAX - 1);
	if (n <= 0) {
		fprintf(stderr, "iosched: sweep %s: /proc/self/exe: %s (the binary's absolute "
			"path is needed)\n", cmd, n < 0 ? strerror(errno) : "empty");
		return CLI_EXIT_FAIL;
	}
	abin[n] = '\0';
	return 0;
}

/* ---- slurm ---- */

struct se_slurm_args {
	const char *dir, *script, *partition, *time, *account, *job_name;
	uint64_t max_running, max_array;
	bool submit;
};

/*
 * MaxArraySize: --max-array-size, else `scontrol show config`'s, else
 * Slurm's default; where it came from into @from.
 */
static size_t se_max_array(uint64_t given, const char **from)
{
	char a0[] = "scontrol", a1[] = "show", a2[] = "config", *argv[] = { a0, a1, a2, NULL };
	struct ios_buf out;
	const char *p;
	size_t v = IOS_SWEEP_SLURM_ARRAY_DEFAULT;

	if (given) {
		*from = "--max-array-size";
		return (size_t)given;
	}
	*from = "Slurm's default; no scontrol in PATH";
	if (!se_in_path("scontrol"))
		return v;
	*from = "Slurm's default; `scontrol show config` failed or did not say";
	ios_buf_init(&out);
	if (se_capture(argv, &out, true) == 0 && out.s && (p = strstr(out.s, "\nMaxArraySize"))) {
		unsigned long long u;

		p += strlen("\nMaxArraySize");
		p += strspn(p, " =");
		if (sscanf(p, "%llu", &u) == 1 && u >= 1 && u <= SE_ARRAY_MAX) {
			v = (size_t)u;
			*from = "scontrol show config";
		}
	}
	ios_buf_free(&out);
	return v;
}

/*
 * @text to @path unless something is there: the same bytes are left as
 * they are (1), other bytes refused (-1), a new file written (0) through a
 * temporary file and link(), which fails rather than replace a file made
 * meanwhile.
 */
static int se_write_new(const char *path, const struct ios_buf *text)
{
	char tmp[PATH_MAX + 32];
	FILE *f;
	bool ok;

	if (!access(path, F_OK)) {
		struct ios_buf old;
		char buf[65536];
		size_t r;
		bool same;

		f = fopen(path, "rb");
		if (!f) {
			fprintf(stderr, "iosched: sweep slurm: %s: %s\n", path, strerror(errno));
			return -1;
		}
		ios_buf_init(&old);
		while ((r = fread(buf, 1, sizeof(buf), f)) > 0 && old.len <= text->len)
			ios_buf_printf(&old, "%.*s", (int)r, buf);
		fclose(f);
		same = old.len == text->len && !memcmp(old.s, text->s, text->len);
		ios_buf_free(&old);
		if (same)
			return 1;
		fprintf(stderr, "iosched: sweep slurm: -o %s: exists with other content: refused, "
			"nothing written (remove it or give another -o)\n", path);
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "wbx");
	if (!f) {
		fprintf(stderr, "iosched: sweep slurm: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	ok = fwrite(text->s, 1, text->len, f) == text->len && !fflush(f) &&
	     !fchmod(fileno(f), 0755);
	if (fclose(f) || !ok || link(tmp, path)) {
		fprintf(stderr, "iosched: sweep slurm: writing %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	unlink(tmp);
	return 0;
}

/* the script's path: -o, or DIR/slurm/sweep.sbatch; never in DIR's own files */
static int se_script_path(const char *adir, const char *given, char *out)
{
	char parent[PATH_MAX], rp[PATH_MAX];
	const char *sl;

	if (!given) {
		snprintf(out, PATH_MAX, "%s/slurm/sweep.sbatch", adir);
		return 0;
	}
	sl = strrchr(given, '/');
	snprintf(parent, sizeof(parent), "%.*s", sl ? (int)(sl - given) + (sl == given) : 1,
		 sl ? given : ".");
	if (!realpath(parent, rp)) {
		fprintf(stderr, "iosched: sweep slurm: -o %s: %s: %s\n", given, parent,
			strerror(errno));
		return -1;
	}
	if (sl && !sl[1]) {
		fprintf(stderr, "iosched: sweep slurm: -o %s: a file name, not a directory\n",
			given);
		return -1;
	}
	if ((sl ? snprintf(out, PATH_MAX, "%s%s", strcmp(rp, "/") ? rp : "", sl) :
		  snprintf(out, PATH_MAX, "%s/%s", rp, given)) >= PATH_MAX) {
		fprintf(stderr, "iosched: sweep slurm: -o %s: longer than %d bytes\n", given,
			PATH_MAX);
		return -1;
	}
	for (const char *sub = "/results"; sub; sub = strcmp(sub, "/results") ? NULL : "/inputs") {
		size_t n = strlen(adir);

		if (!strncmp(rp, adir, n) && !strncmp(rp + n, sub, strlen(sub)) &&
		    (!rp[n + strlen(sub)] || rp[n + strlen(sub)] == '/')) {
			fprintf(stderr, "iosched: sweep slurm: -o %s: inside the sweep's %s/: "
				"refused (that directory holds the sweep's own files)\n", given,
				sub + 1);
			return -1;
		}
	}
	return 0;
}

/* sbatch for every chunk, each chained to the one before under a throttle */
static int se_submit(const struct ios_sweep_slurm *s, const char *script)
{
	char prev[64] = "";
	size_t chunks = ios_sweep_slurm_chunks(s);

	if (!se_in_path("sbatch")) {
		fprintf(stderr, "iosched: sweep slurm --submit: sbatch is not in PATH (Slurm's "
			"client; Debian: slurm-client): the script is written, submit it where "
			"Slurm runs: sbatch %s\n", script);
		return CLI_EXIT_FAIL;
	}
	for (size_t c = 0; c < chunks; c++) {
		char *argv[IOS_SWEEP_ARGV_MAX];
		struct ios_buf out;
		size_t first, n, idl;
		int st;

		if (ios_sweep_slurm_sbatch_argv(s, c, script, c && s->max_running ? prev : NULL,
						argv)) {
			fprintf(stderr, "iosched: out of memory\n");
			return CLI_EXIT_FAIL;
		}
		ios_buf_init(&out);
		st = se_capture(argv, &out, false);
		ios_sweep_argv_free(argv);
		ios_sweep_slurm_chunk(s, c, &first, &n);
		idl = out.s ? strspn(out.s, "0123456789") : 0;
		if (st || !idl || idl >= sizeof(prev)) {
			fprintf(stderr, "iosched: sweep slurm --submit: sbatch %s for tasks "
				"%zu-%zu%s%.200s%s; %zu of %zu array jobs submitted before it\n",
				st ? "failed (its message above)" : "printed no job id",
				first, first + n - 1, out.s ? " (it printed '" : "",
				out.s ? out.s : "", out.s ? "')" : "", c, chunks);
			ios_buf_free(&out);
			return CLI_EXIT_FAIL;
		}
		snprintf(prev, sizeof(prev), "%.*s", (int)idl, out.s);
		printf("submitted job %s: tasks %zu-%zu (array 0-%zu)\n", prev, first,
		       first + n - 1, n - 1);
		fflush(stdout);
		ios_buf_free(&out);
	}
	return CLI_EXIT_OK;
}

int cli_sweep_slurm(int argc, char **argv)
{
#define SA(f) offsetof(struct se_slurm_args, f)
	struct se_slurm_args a = { 0 };
	const struct ios_cl_opt opts[] = {
		{ .name = "--output", .alias = "-o", .kind = IOS_CL_STR, .off = SA(script),
		  .metavar = "SCRIPT" },
		{ .name = "--submit", .kind = IOS_CL_FLAG, .off = SA(submit) },
		{ .name = "--partition", .kind = IOS_CL_STR, .off = SA(partition), .metavar = "P" },
		{ .name = "--time", .kind = IOS_CL_STR, .off = SA(time), .metavar = "T" },
		{ .name = "--account", .kind = IOS_CL_STR, .off = SA(account), .metavar = "A" },
		{ .name = "--job-name", .kind = IOS_CL_STR, .off = SA(job_name), .metavar = "NAME" },
		{ .name = "--max-running", .kind = IOS_CL_U64, .off = SA(max_running), .min = 1,
		  .max = SE_ARRAY_MAX, .metavar = "N" },
		{ .name = "--max-array-size", .kind = IOS_CL_U64, .off = SA(max_array), .min = 1,
		  .max = SE_ARRAY_MAX, .metavar = "N" },
		{ .name = NULL },
	};
#undef SA
	const struct ios_cl_group groups[] = { { cli_help_table, NULL, 0 }, { opts, &a, 0 } };
	const struct ios_cl_cmd cmd = { "sweep slurm", "iosched sweep --help", groups,
					IOS_ARRAY_SIZE(groups), cli_sweep_dir_pos, &a.dir, false };
	struct ios_sweep_manifest m = { 0 };
	struct ios_sweep_slurm s = { 0 };
	struct ios_err e = { 0 };
	struct ios_buf text;
	char adir[PATH_MAX], abin[PATH_MAX], script[PATH_MAX], sub[PATH_MAX + 16];
	const char *from;
	int ret, rc;

	ret = cli_parse(&cmd, argc, argv);
	if (ret == IOS_CL_HELP_SEEN) {
		cli_sweep_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (ret < 0)
		return CLI_EXIT_USAGE;
	if (!a.dir) {
		fprintf(stderr, "iosched: sweep slurm: give the sweep's DIR\n");
		return CLI_EXIT_USAGE;
	}
	rc = se_paths("slurm", a.dir, &m, adir, abin);
	if (rc)
		return rc;
	s = (struct ios_sweep_slurm){ .bin = abin, .dir = adir, .nr_tasks = m.nr_tasks,
				      .max_running = (size_t)a.max_running,
				      .partition = a.partition, .time = a.time,
				      .account = a.account, .job_name = a.job_name };
	ios_sweep_manifest_free(&m);
	s.max_array_size = 1;
	if (ios_sweep_slurm_check(&s, &e)) {
		fprintf(stderr, "iosched: sweep slurm: %s\n", e.msg);
		return CLI_EXIT_USAGE;
	}
	if (se_script_path(adir, a.script, script))
		return CLI_EXIT_USAGE;
	if (strspn(script, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/+,=@:-")
	    != strlen(script)) {
		fprintf(stderr, "iosched: sweep slurm: -o %s: allowed in the script's path: "
			"letters, digits and ._/+,=@:-\n", script);
		return CLI_EXIT_USAGE;
	}
	s.max_array_size = se_max_array(a.max_array, &from);
	snprintf(sub, sizeof(sub), "%s/slurm", adir);
	if (mkdir(sub, 0777) && errno != EEXIST) {
		fprintf(stderr, "iosched: sweep slurm: %s (the tasks' output files): %s\n", sub,
			strerror(errno));
		return CLI_EXIT_FAIL;
	}
	ios_buf_init(&text);
	if (ios_sweep_slurm_script(&s, script, &text)) {
		fprintf(stderr, "iosched: out of memory\n");
		ios_buf_free(&text);
		return CLI_EXIT_FAIL;
	}
	ret = se_write_new(script, &text);
	ios_buf_free(&text);
	if (ret < 0)
		return CLI_EXIT_USAGE;
	printf("%s: %zu tasks in %zu array job%s of at most %zu (MaxArraySize %zu: %s)%s\n",
	       script, s.nr_tasks, ios_sweep_slurm_chunks(&s),
	       ios_sweep_slurm_chunks(&s) > 1 ? "s" : "", s.max_array_size, s.max_array_size,
	       from, ret ? "; the same script was there: not rewritten" : "");
	if (a.submit) {
		fflush(stdout);
		return se_submit(&s, script);
	}
	ios_buf_init(&text);
	if (ios_sweep_slurm_submit_text(&s, script, &text)) {
		ios_buf_free(&text);
		return CLI_EXIT_FAIL;
	}
	printf("submit with (or run again with --submit):\n%s", text.s);
	ios_buf_free(&text);
	return CLI_EXIT_OK;
}

/* ---- parallel ---- */

struct se_par_args {
	const char *dir, *sshlogin;
	uint64_t jobs;
	bool run;
};

/* GNU parallel, not moreutils' parallel of the same name: 1, or 0 after saying so */
static int se_gnu_parallel(void)
{
	char a0[] = "parallel", a1[] = "--version", *argv[] = { a0, a1, NULL };
	struct ios_buf out;
	int st, ok;

	if (!se_in_path("parallel")) {
		fprintf(stderr, "iosched: sweep parallel --run: parallel is not in PATH (GNU "
			"parallel; Debian package 'parallel')\n");
		return 0;
	}
	ios_buf_init(&out);
	st = se_capture(argv, &out, true);
	ok = !st && out.s && !strncmp(out.s, "GNU parallel", strlen("GNU parallel"));
	if (!ok)
		fprintf(stderr, "iosched: sweep parallel --run: the parallel in PATH is not GNU "
			"parallel (`parallel --version` printed '%.60s'; moreutils has one of the "
			"same name)\n", out.s ? out.s : "");
	ios_buf_free(&out);
	return ok;
}

/*
 * exec parallel with the task numbers 0..@n-1 on its stdin, written by a
 * grandchild (so parallel, our process after exec, has no child it did not
 * start). Returns only on an error.
 */
static int se_exec_parallel(char **argv, size_t n)
{
	int fd[2];
	pid_t pid;

	if (pipe(fd)) {
		fprintf(stderr, "iosched: sweep parallel: pipe: %s\n", strerror(errno));
		return CLI_EXIT_FAIL;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "iosched: sweep parallel: fork: %s\n", strerror(errno));
		return CLI_EXIT_FAIL;
	}
	if (!pid) {
		close(fd[0]);
		if (fork() == 0) {
			FILE *f = fdopen(fd[1], "w");

			for (size_t k = 0; f && k < n; k++)
				if (fprintf(f, "%zu\n", k) < 0)
					break;
			_exit(f && !fclose(f) ? 0 : 1);
		}
		_exit(0);
	}
	close(fd[1]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (dup2(fd[0], 0) < 0) {
		fprintf(stderr, "iosched: sweep parallel: dup2: %s\n", strerror(errno));
		return CLI_EXIT_FAIL;
	}
	close(fd[0]);
	execvp(argv[0], argv);
	fprintf(stderr, "iosched: sweep parallel: %s: %s\n", argv[0], strerror(errno));
	return CLI_EXIT_FAIL;
}

int cli_sweep_parallel(int argc, char **argv)
{
#define PA(f) offsetof(struct se_par_args, f)
	struct se_par_args a = { 0 };
	const struct ios_cl_opt opts[] = {
		{ .name = "--jobs", .alias = "-j", .kind = IOS_CL_U64, .off = PA(jobs), .min = 1,
		  .max = 100000, .metavar = "N" },
		{ .name = "--sshlogin", .alias = "-S", .kind = IOS_CL_STR, .off = PA(sshlogin),
		  .metavar = "HOSTS" },
		{ .name = "--run", .kind = IOS_CL_FLAG, .off = PA(run) },
		{ .name = NULL },
	};
#undef PA
	const struct ios_cl_group groups[] = { { cli_help_table, NULL, 0 }, { opts, &a, 0 } };
	const struct ios_cl_cmd cmd = { "sweep parallel", "iosched sweep --help", groups,
					IOS_ARRAY_SIZE(groups), cli_sweep_dir_pos, &a.dir, false };
	struct ios_sweep_manifest m = { 0 };
	struct ios_sweep_parallel p;
	struct ios_err e = { 0 };
	struct ios_buf line;
	char adir[PATH_MAX], abin[PATH_MAX], *pargv[IOS_SWEEP_ARGV_MAX];
	int ret, rc;

	ret = cli_parse(&cmd, argc, argv);
	if (ret == IOS_CL_HELP_SEEN) {
		cli_sweep_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (ret < 0)
		return CLI_EXIT_USAGE;
	if (!a.dir) {
		fprintf(stderr, "iosched: sweep parallel: give the sweep's DIR\n");
		return CLI_EXIT_USAGE;
	}
	rc = se_paths("parallel", a.dir, &m, adir, abin);
	if (rc)
		return rc;
	p = (struct ios_sweep_parallel){ .bin = abin, .dir = adir, .nr_tasks = m.nr_tasks,
					 .jobs = (size_t)a.jobs, .sshlogin = a.sshlogin };
	ios_sweep_manifest_free(&m);
	if (ios_sweep_parallel_check(&p, &e)) {
		fprintf(stderr, "iosched: sweep parallel: %s\n", e.msg);
		return CLI_EXIT_USAGE;
	}
	if (!a.run) {
		ios_buf_init(&line);
		rc = ios_sweep_parallel_line(&p, &line) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
		if (!rc)
			fputs(line.s, stdout);
		ios_buf_free(&line);
		return rc;
	}
	if (!se_gnu_parallel())
		return CLI_EXIT_FAIL;
	if (ios_sweep_parallel_argv(&p, pargv)) {
		fprintf(stderr, "iosched: out of memory\n");
		return CLI_EXIT_FAIL;
	}
	rc = se_exec_parallel(pargv, p.nr_tasks);
	ios_sweep_argv_free(pargv);
	return rc;
}
