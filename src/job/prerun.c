/*
 * fio's exec_prerun= read as cgroup v2 file writes (docs/cgroup-v2-plan.md
 * §6, the lead's answer to Q1).
 *
 * fio hands exec_prerun to the shell when the job starts (backend.c
 * thread_main, after cgroup_setup has made the job's cgroup), so a job file
 * that configures a real cgroup2 host writes its controllers' files there:
 *
 *     exec_prerun=echo 'rbps=20971520' > /sys/fs/cgroup/batch/io.max
 *
 * iosched runs no commands. It reads exactly this form, several joined by
 * ';' or '&&': "echo" (optionally "-n"), one or more words (bare, or in
 * single or double quotes, joined by one space as echo joins them), '>',
 * and a path /sys/fs/cgroup/[PATH/]FILE. Anything else (another command, a
 * pipe, '>>', a variable, a backslash, a redirection elsewhere) is refused
 * with the part that was not understood: a shell feature silently skipped
 * would leave a setting the user believes in unapplied. Which FILE names
 * exist and what their values may be is the runner's business
 * (run/cgroup.c, block/blkcg_conf.c); this file only splits the text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/job.h"

#define CG_ROOT "/sys/fs/cgroup/"

struct pr_lex {
	const char *p;
	char *msg;
	size_t msglen;
};

static int pr_fail(struct pr_lex *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->msg, l->msglen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void pr_blanks(struct pr_lex *l)
{
	while (*l->p == ' ' || *l->p == '\t')
		l->p++;
}

/* Characters the shell would treat specially outside quotes. */
static int pr_special(char ch)
{
	return strchr(";&|<>'\"$`\\(){}*?[]~#\n", ch) != NULL;
}

/*
 * One word (bare or quoted parts glued together, as the shell reads
 * "a"'b'c) into @out (size @len). 0 and *got = 1 with a word, *got = 0
 * when the next character starts no word.
 */
static int pr_word(struct pr_lex *l, char *out, size_t len, int *got)
{
	size_t n = 0;

	*got = 0;
	for (;;) {
		char ch = *l->p;

		if (ch == '\'' || ch == '"') {
			const char *end = strchr(l->p + 1, ch);

			if (!end)
				return pr_fail(l, "an unterminated %c quote", ch);
			for (const char *s = l->p + 1; s < end; s++) {
				/* inside "...", the shell would still expand these */
				if (ch == '"' && (*s == '$' || *s == '`' || *s == '\\'))
					return pr_fail(l, "'%c' inside double quotes (a shell expansion "
						       "iosched does not perform)", *s);
				if (n + 1 >= len)
					return pr_fail(l, "a word longer than %zu characters", len - 1);
				out[n++] = *s;
			}
			l->p = end + 1;
			*got = 1;
			continue;
		}
		if (!ch || ch == ' ' || ch == '\t' || pr_special(ch))
			break;
		if (n + 1 >= len)
			return pr_fail(l, "a word longer than %zu characters", len - 1);
		out[n++] = ch;
		l->p++;
		*got = 1;
	}
	out[n] = 0;
	return 0;
}

static int pr_add(struct ios_cgwrite **v, size_t *nr, const char *path, size_t plen,
		  const char *file, const char *value)
{
	struct ios_cgwrite *nv = realloc(*v, (*nr + 1) * sizeof(**v));
	struct ios_cgwrite *w;

	if (!nv)
		return -ENOMEM;
	*v = nv;
	w = &nv[*nr];
	w->path = strndup(path, plen);
	w->file = strdup(file);
	w->value = strdup(value);
	if (!w->path || !w->file || !w->value) {
		free(w->path);
		free(w->file);
		free(w->value);
		return -ENOMEM;
	}
	(*nr)++;
	return 0;
}

/* One "echo WORDS > /sys/fs/cgroup/PATH/FILE". */
static int pr_write(struct pr_lex *l, struct ios_cgwrite **v, size_t *nr)
{
	char word[512], value[1024], target[1024];
	const char *rel, *slash;
	size_t vlen = 0;
	int got, ret, nwords = 0;

	pr_blanks(l);
	ret = pr_word(l, word, sizeof(word), &got);
	if (ret)
		return ret;
	if (!got)
		return pr_fail(l, "'%s' where echo belongs", l->p);
	if (strcmp(word, "echo"))
		return pr_fail(l, "'%s' is not echo", word);
	value[0] = 0;
	for (;;) {
		pr_blanks(l);
		ret = pr_word(l, word, sizeof(word), &got);
		if (ret)
			return ret;
		if (!got)
			break;
		/* the shell reads "2>" as a redirection of descriptor 2 */
		if (*l->p == '>' && strspn(word, "0123456789") == strlen(word))
			return pr_fail(l, "'%s>' redirects descriptor %s, not echo's output", word,
				       word);
		/* echo's one option; -e and -E would change the text */
		if (!nwords && !strcmp(word, "-n"))
			continue;
		if (!nwords && (!strcmp(word, "-e") || !strcmp(word, "-E")))
			return pr_fail(l, "echo %s (only echo and echo -n are read)", word);
		if (vlen + strlen(word) + 2 > sizeof(value))
			return pr_fail(l, "a value longer than %zu characters", sizeof(value) - 1);
		vlen += (size_t)snprintf(value + vlen, sizeof(value) - vlen, "%s%s",
					 nwords ? " " : "", word);
		nwords++;
	}
	if (*l->p && *l->p != '>' && *l->p != ';' && *l->p != '&')
		return pr_fail(l, "'%s' where '> /sys/fs/cgroup/PATH/FILE' belongs (shell syntax "
			       "iosched does not read)", l->p);
	if (!nwords)
		return pr_fail(l, "echo without a value");
	if (*l->p != '>' || l->p[1] == '>' || l->p[1] == '&' || l->p[1] == '|')
		return pr_fail(l, "%s after the value where '> /sys/fs/cgroup/PATH/FILE' "
			       "belongs", *l->p ? l->p : "nothing");
	l->p++;
	pr_blanks(l);
	ret = pr_word(l, target, sizeof(target), &got);
	if (ret)
		return ret;
	if (!got)
		return pr_fail(l, "'>' without a file");
	if (strncmp(target, CG_ROOT, strlen(CG_ROOT)))
		return pr_fail(l, "a write to '%s', outside " CG_ROOT, target);
	rel = target + strlen(CG_ROOT);
	slash = strrchr(rel, '/');
	if (!*rel || (slash && !slash[1]))
		return pr_fail(l, "'%s' names a directory, not a cgroup file", target);
	if (strstr(rel, "//") || !strcmp(rel, ".") || strstr(rel, "./") == rel ||
	    strstr(rel, "/./") || strstr(rel, "..") == rel || strstr(rel, "/../"))
		return pr_fail(l, "'%s': write the cgroup path plainly (no '.', '..' or '//')",
			       target);
	ret = pr_add(v, nr, rel, slash ? (size_t)(slash - rel) : 0, slash ? slash + 1 : rel,
		     value);
	if (ret)
		snprintf(l->msg, l->msglen, "out of memory");
	return ret;
}

int ios_job_prerun_parse(const char *cmd, struct ios_cgwrite **out, size_t *nr, char *msg,
			 size_t msglen)
{
	struct pr_lex l = { cmd, msg, msglen };
	struct ios_cgwrite *v = NULL;
	size_t n = 0;
	int ret;

	*out = NULL;
	*nr = 0;
	for (;;) {
		ret = pr_write(&l, &v, &n);
		if (ret)
			break;
		pr_blanks(&l);
		if (*l.p == ';')
			l.p++;
		else if (l.p[0] == '&' && l.p[1] == '&')
			l.p += 2;
		else if (*l.p) {
			ret = pr_fail(&l, "'%s' after a write (writes are joined by ';' or '&&')",
				      l.p);
			break;
		}
		pr_blanks(&l);
		if (!*l.p)
			break;
	}
	if (ret) {
		ios_job_prerun_free(v, n);
		return ret;
	}
	*out = v;
	*nr = n;
	return 0;
}

void ios_job_prerun_free(struct ios_cgwrite *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(v[i].path);
		free(v[i].file);
		free(v[i].value);
	}
	free(v);
}
