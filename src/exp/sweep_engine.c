/*
 * Sweep engines (iosched/sweep_engine.h, docs/sweep.md): the text that hands
 * a sweep's tasks to Slurm or GNU parallel.
 *
 * Slurm runs a batch script once per index of a job array
 * (SLURM_ARRAY_TASK_ID) and refuses an index of MaxArraySize or more
 * (slurm.conf; 1001 by default). A sweep of more tasks than that is
 * submitted as several arrays of the same script, chunk c covering tasks
 * c * MaxArraySize onwards: the chunk's first task is the script's
 * argument and the script runs task (argument + index). Each chunk is its
 * own job with its own id, so the output files (%A_%a) stay apart. With a
 * throttle (%N: at most N tasks of the array at once) each chunk waits for
 * the one before (--dependency=afterany), so no more than N run in all.
 *
 * GNU parallel reads the task numbers on its stdin and runs the same
 * `iosched sweep run DIR --task {}` for each, locally or on --sshlogin
 * hosts. parallel joins its command's words with blanks and hands them to
 * a shell (a remote one with --sshlogin), so the paths put in it are
 * checked to need no quoting, as they are for the script.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/sweep_engine.h"

/* characters a path may hold here: no quoting needed in sh, none Slurm expands */
static const char se_safe[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/+,=@:-";
/* a Slurm name: partition (a list: ','), account, job name */
static const char se_name[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-,";

static int se_check_path(const char *opt, const char *path, struct ios_err *e)
{
	size_t n = strspn(path, se_safe);

	if (path[0] != '/')
		return IOS_ERR(e, -EINVAL, "%s %s: not an absolute path", opt, path);
	if (path[n])
		return IOS_ERR(e, -EINVAL, "%s %s: holds '%c' (byte %zu): allowed in a path "
			       "here: letters, digits and ._/+,=@:- (it goes unquoted into "
			       "sh and Slurm lines)", opt, path, path[n], n + 1);
	return 0;
}

static int se_check_name(const char *opt, const char *v, struct ios_err *e)
{
	size_t n;

	if (!v)
		return 0;
	n = strspn(v, se_name);
	if (!v[0] || v[n])
		return IOS_ERR(e, -EINVAL, "%s '%s': %s: allowed letters, digits and ._-,", opt, v,
			       v[0] ? "a character Slurm names do not hold" : "empty");
	return 0;
}

/*
 * sbatch's --time forms: MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, D-H:MIN:SEC,
 * or UNLIMITED / INFINITE: digits in up to three ':' fields after an
 * optional "D-".
 */
static int se_check_time(const char *t, struct ios_err *e)
{
	const char *p = t, *dash;
	int fields = 0, max = 3;

	if (!t || !strcmp(t, "UNLIMITED") || !strcmp(t, "INFINITE"))
		return 0;
	dash = strchr(t, '-');
	if (dash) {
		if (dash == t || strspn(t, "0123456789") != (size_t)(dash - t))
			goto bad;
		p = dash + 1;
	}
	for (;;) {
		size_t n = strspn(p, "0123456789");

		if (!n || ++fields > max)
			goto bad;
		p += n;
		if (!*p)
			return 0;
		if (*p != ':')
			goto bad;
		p++;
	}
bad:
	return IOS_ERR(e, -EINVAL, "--time %s: allowed MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, "
		       "D-H:MIN:SEC, UNLIMITED (sbatch's forms)", t);
}

int ios_sweep_slurm_check(const struct ios_sweep_slurm *s, struct ios_err *e)
{
	if (!s->nr_tasks)
		return IOS_ERR(e, -EINVAL, "the sweep has no task");
	if (s->max_array_size < 1)
		return IOS_ERR(e, -EINVAL, "--max-array-size 0: Slurm's MaxArraySize is at least 1");
	if (se_check_path("the iosched binary", s->bin, e) || se_check_path("DIR", s->dir, e) ||
	    se_check_name("--partition", s->partition, e) ||
	    se_check_name("--account", s->account, e) ||
	    se_check_name("--job-name", s->job_name, e) || se_check_time(s->time, e))
		return -EINVAL;
	return 0;
}

size_t ios_sweep_slurm_chunks(const struct ios_sweep_slurm *s)
{
	return (s->nr_tasks + s->max_array_size - 1) / s->max_array_size;
}

void ios_sweep_slurm_chunk(const struct ios_sweep_slurm *s, size_t c, size_t *first, size_t *n)
{
	*first = c * s->max_array_size;
	*n = s->nr_tasks - *first < s->max_array_size ? s->nr_tasks - *first : s->max_array_size;
}

/* "0-999" or "0-999%4" for a chunk of @n tasks */
static void se_array(const struct ios_sweep_slurm *s, size_t n, char *buf, size_t len)
{
	if (s->max_running)
		snprintf(buf, len, "0-%zu%%%zu", n - 1, s->max_running);
	else
		snprintf(buf, len, "0-%zu", n - 1);
}

int ios_sweep_slurm_script(const struct ios_sweep_slurm *s, const char *script,
			   struct ios_buf *out)
{
	size_t chunks = ios_sweep_slurm_chunks(s), first, n;
	char arr[64];

	ios_sweep_slurm_chunk(s, 0, &first, &n);
	se_array(s, n, arr, sizeof(arr));
	ios_buf_printf(out, "#!/bin/sh\n"
		       "# iosched sweep slurm: the %zu tasks of %s as a Slurm job array\n"
		       "# (docs/sweep.md). Written by `iosched sweep slurm`; %s must be on a\n"
		       "# filesystem every node mounts at that path.\n",
		       s->nr_tasks, s->dir, s->dir);
	ios_buf_printf(out, "#SBATCH --job-name=%s\n", s->job_name ? s->job_name : "iosched-sweep");
	ios_buf_printf(out, "#SBATCH --array=%s\n", arr);
	ios_buf_puts(out, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
	ios_buf_printf(out, "#SBATCH --output=%s/slurm/%%A_%%a.out\n", s->dir);
	ios_buf_printf(out, "#SBATCH --error=%s/slurm/%%A_%%a.err\n", s->dir);
	if (s->partition)
		ios_buf_printf(out, "#SBATCH --partition=%s\n", s->partition);
	if (s->account)
		ios_buf_printf(out, "#SBATCH --account=%s\n", s->account);
	if (s->time)
		ios_buf_printf(out, "#SBATCH --time=%s\n", s->time);
	ios_buf_puts(out, "#\n");
	if (chunks == 1) {
		ios_buf_printf(out, "# Submit: sbatch %s\n", script);
	} else {
		ios_buf_printf(out, "# %zu tasks are more than MaxArraySize (%zu) array indices:\n"
			       "# %zu arrays, each given its first task as the argument. Submit:\n",
			       s->nr_tasks, s->max_array_size, chunks);
		{
			struct ios_buf sub;

			ios_buf_init(&sub);
			if (ios_sweep_slurm_submit_text(s, script, &sub)) {
				ios_buf_free(&sub);
				return -ENOMEM;
			}
			for (const char *l = sub.s; l && *l;) {
				const char *nl = strchr(l, '\n');
				int len = nl ? (int)(nl - l) : (int)strlen(l);

				ios_buf_printf(out, "#   %.*s\n", len, l);
				l += len + (nl != NULL);
			}
			ios_buf_free(&sub);
		}
	}
	ios_buf_printf(out,
		       "# Task k's output: %s/slurm/JOBID_INDEX.out and .err, k = first + INDEX.\n"
		       "case ${SLURM_ARRAY_TASK_ID:-} in\n"
		       "''|*[!0-9]*) echo \"$0: not a Slurm array task (no SLURM_ARRAY_TASK_ID): "
		       "submit with sbatch\" >&2; exit 2 ;;\n"
		       "esac\n"
		       "case ${1:-0} in\n"
		       "*[!0-9]*) echo \"$0: '$1': the chunk's first task is a number\" >&2; exit 2 ;;\n"
		       "esac\n"
		       "k=$((${1:-0} + SLURM_ARRAY_TASK_ID))\n"
		       "if [ \"$k\" -ge %zu ]; then\n"
		       "\techo \"$0: task $k: the sweep's tasks are 0..%zu\" >&2\n"
		       "\texit 2\n"
		       "fi\n"
		       "echo \"iosched sweep task $k (array job ${SLURM_ARRAY_JOB_ID:-?} index "
		       "$SLURM_ARRAY_TASK_ID) on $(hostname)\"\n"
		       "exec %s sweep run %s --task \"$k\"\n",
		       s->dir, s->nr_tasks, s->nr_tasks - 1, s->bin, s->dir);
	return out->oom ? -ENOMEM : 0;
}

void ios_sweep_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
}

/* @argv[*n] = a copy of the formatted text */
static int se_push(char **argv, size_t *n, const char *fmt, const char *a, size_t u)
{
	char buf[4352];

	if (*n + 1 >= IOS_SWEEP_ARGV_MAX)
		return -ENOMEM;
	if (a)
		snprintf(buf, sizeof(buf), fmt, a);
	else
		snprintf(buf, sizeof(buf), fmt, u);
	argv[*n] = strdup(buf);
	if (!argv[*n])
		return -ENOMEM;
	argv[++*n] = NULL;
	return 0;
}

int ios_sweep_slurm_sbatch_argv(const struct ios_sweep_slurm *s, size_t c, const char *script,
				const char *after, char **argv)
{
	size_t first, n, k = 0;
	char arr[64];
	int ret;

	argv[0] = NULL;
	ios_sweep_slurm_chunk(s, c, &first, &n);
	se_array(s, n, arr, sizeof(arr));
	ret = se_push(argv, &k, "%s", "sbatch", 0) || se_push(argv, &k, "%s", "--parsable", 0) ||
	      se_push(argv, &k, "--array=%s", arr, 0) ||
	      (after && se_push(argv, &k, "--dependency=afterany:%s", after, 0)) ||
	      se_push(argv, &k, "%s", script, 0) || se_push(argv, &k, "%zu", NULL, first);
	if (ret) {
		ios_sweep_argv_free(argv);
		argv[0] = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* sh quoting: a word of safe characters (and '%') as is, anything else in '...' */
static void se_sh_word(const char *w, struct ios_buf *out)
{
	const char *p = w;

	while (*p && (*p == '%' || strchr(se_safe, *p)))
		p++;
	if (w[0] && !*p) {
		ios_buf_puts(out, w);
		return;
	}
	ios_buf_puts(out, "'");
	for (const char *q = w; *q; q++)
		if (*q == '\'')
			ios_buf_puts(out, "'\\''");
		else
			ios_buf_printf(out, "%c", *q);
	ios_buf_puts(out, "'");
}

void ios_sweep_sh_words(char *const *argv, struct ios_buf *out)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			ios_buf_puts(out, " ");
		se_sh_word(argv[i], out);
	}
}

int ios_sweep_slurm_submit_text(const struct ios_sweep_slurm *s, const char *script,
				struct ios_buf *out)
{
	size_t chunks = ios_sweep_slurm_chunks(s);

	for (size_t c = 0; c < chunks; c++) {
		char *argv[IOS_SWEEP_ARGV_MAX];
		bool chain = s->max_running && c > 0;

		/* the placeholder job id is the previous line's, in sh */
		if (ios_sweep_slurm_sbatch_argv(s, c, script, chain ? "JOBID" : NULL, argv))
			return -ENOMEM;
		if (s->max_running && chunks > 1)
			ios_buf_puts(out, "j=$(");
		for (size_t i = 0; argv[i]; i++) {
			if (i)
				ios_buf_puts(out, " ");
			if (chain && !strcmp(argv[i], "--dependency=afterany:JOBID"))
				ios_buf_puts(out, "--dependency=afterany:\"${j%%;*}\"");
			else
				se_sh_word(argv[i], out);
		}
		ios_sweep_argv_free(argv);
		if (s->max_running && chunks > 1)
			ios_buf_puts(out, c + 1 < chunks ? ") &&\n" : ")\n");
		else
			ios_buf_puts(out, "\n");
	}
	return out->oom ? -ENOMEM : 0;
}

int ios_sweep_parallel_check(const struct ios_sweep_parallel *p, struct ios_err *e)
{
	if (!p->nr_tasks)
		return IOS_ERR(e, -EINVAL, "the sweep has no task");
	if (se_check_path("the iosched binary", p->bin, e) || se_check_path("DIR", p->dir, e))
		return -EINVAL;
	if (p->sshlogin && (!p->sshlogin[0] || strpbrk(p->sshlogin, " \t\n'\"\\")))
		return IOS_ERR(e, -EINVAL, "--sshlogin '%s': %s", p->sshlogin,
			       p->sshlogin[0] ? "no blanks or quotes: HOST[,HOST...] as parallel "
			       "takes it ([N/][USER@]HOST, ':' for this machine)" : "empty");
	return 0;
}

int ios_sweep_parallel_argv(const struct ios_sweep_parallel *p, char **argv)
{
	size_t k = 0;
	int ret;

	argv[0] = NULL;
	ret = se_push(argv, &k, "%s", "parallel", 0) ||
	      (p->jobs && (se_push(argv, &k, "%s", "--jobs", 0) ||
			   se_push(argv, &k, "%zu", NULL, p->jobs))) ||
	      (p->sshlogin && (se_push(argv, &k, "%s", "--sshlogin", 0) ||
			       se_push(argv, &k, "%s", p->sshlogin, 0))) ||
	      se_push(argv, &k, "%s", p->bin, 0) || se_push(argv, &k, "%s", "sweep", 0) ||
	      se_push(argv, &k, "%s", "run", 0) || se_push(argv, &k, "%s", p->dir, 0) ||
	      se_push(argv, &k, "%s", "--task", 0) || se_push(argv, &k, "%s", "{}", 0);
	if (ret) {
		ios_sweep_argv_free(argv);
		argv[0] = NULL;
		return -ENOMEM;
	}
	return 0;
}

int ios_sweep_parallel_line(const struct ios_sweep_parallel *p, struct ios_buf *out)
{
	char *argv[IOS_SWEEP_ARGV_MAX];

	if (ios_sweep_parallel_argv(p, argv))
		return -ENOMEM;
	ios_buf_printf(out, "seq 0 %zu | ", p->nr_tasks - 1);
	ios_sweep_sh_words(argv, out);
	ios_buf_puts(out, "\n");
	ios_sweep_argv_free(argv);
	return out->oom ? -ENOMEM : 0;
}
