/*
 * The job file reader: sections, key=value lines, comments, include and
 * ${VAR}, with the rules fio 3.33 applies (checked against the real fio):
 *
 *  - A line whose first non-blank character is ';' or '#' is a comment, and
 *    so is everything from the first ';' or '#' anywhere in a line
 *    ("rw=randread ; why" is "rw=randread"). There is no escape for them.
 *  - Leading and trailing blanks of a line are dropped; blanks before '=' are
 *    dropped; the text after '=' is kept as written (the option layer decides
 *    what a leading blank means: fio keeps it, which breaks most values).
 *  - "[name]" starts a section; "[global]" (exactly, case-sensitive) is the
 *    global section; the name is kept verbatim. fio accepts "[name" and
 *    "[na]me" by chopping the last character; those are errors here.
 *  - "include FILE" (or "include=FILE") reads FILE's lines into the current
 *    section. A relative FILE is relative to the directory of the file that
 *    includes it, as fio does. Includes nest; an included file may not start
 *    a section (fio: "No new sections in included files"). We also reject
 *    include loops and nesting deeper than ops->max_depth; fio recurses until
 *    it runs out of file descriptors.
 *  - Options (and includes) before the first section are errors.
 *  - ${NAME} anywhere in an option line, key included, is replaced by the
 *    variable's value, or by nothing when it is unset; "${" without "}" is
 *    left as it is. Expansion happens after comments were removed, so a
 *    value may bring in ';' or '#'. Section names and include paths are not
 *    expanded (fio does not expand them either).
 *
 * Each section is handed to ops->section once complete, so that the option
 * layer can apply its options in fio's order (kb_base first, filename last).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/job.h"
#include "job/ini.h"

#define INI_MAX_LINE	(1u << 20)	/* one line after ${VAR} expansion */
#define INI_MAX_STACK	64

struct ini_state {
	const struct ios_ini_ops *ops;
	struct ios_ini_section cur;
	bool have_section;
	char *stack[INI_MAX_STACK];	/* normalised paths being read, for loops */
	unsigned depth;			/* files on the stack: 1 = the job file itself */
	struct ios_err *e;
	char unset[64];			/* first unset ${VAR} of the line being read */
};

static void ini_section_reset(struct ios_ini_section *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		free(s->kv[i].key);
		free(s->kv[i].value);
	}
	free(s->kv);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

static int ini_flush(struct ini_state *st)
{
	int ret = 0;

	if (st->have_section)
		ret = st->ops->section(st->ops->priv, &st->cur, st->e);
	ini_section_reset(&st->cur);
	st->have_section = false;
	return ret;
}

static bool ini_blank(int ch)
{
	return isspace((unsigned char)ch) || iscntrl((unsigned char)ch);
}

/* Expand ${NAME}; returns a malloc'd string or NULL (ENOMEM or too long). */
static char *ini_expand(struct ini_state *st, const char *s, size_t *outlen)
{
	size_t cap = strlen(s) + 1, len = 0;
	char *out = malloc(cap);

	*outlen = 0;
	st->unset[0] = '\0';
	if (!out)
		return NULL;
	while (*s) {
		const char *val = NULL, *close;
		size_t vl;

		if (s[0] == '$' && s[1] == '{' && (close = strchr(s + 2, '}'))) {
			char *name = strndup(s + 2, (size_t)(close - (s + 2)));

			if (!name) {
				free(out);
				return NULL;
			}
			if (st->ops->getenv)
				val = st->ops->getenv(st->ops->priv, name);
			/* remembered so that an empty value can name its variable */
			if (!val && !st->unset[0])
				snprintf(st->unset, sizeof(st->unset), "%s", name);
			free(name);
			s = close + 1;
			if (!val)
				continue;
			vl = strlen(val);
		} else {
			val = s++;
			vl = 1;
		}
		if (len + vl + 1 > cap) {
			char *n;

			if (len + vl + 1 > INI_MAX_LINE) {
				free(out);
				*outlen = SIZE_MAX;
				return NULL;
			}
			cap = (len + vl + 1) * 2;
			n = realloc(out, cap);
			if (!n) {
				free(out);
				return NULL;
			}
			out = n;
		}
		memcpy(out + len, val, vl);
		len += vl;
	}
	out[len] = '\0';
	*outlen = len;
	return out;
}

static int ini_add_kv(struct ini_state *st, char *key, char *value, const char *file, int line)
{
	struct ios_ini_section *s = &st->cur;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct ios_ini_kv *n = realloc(s->kv, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->kv = n;
		s->cap = cap;
	}
	s->kv[s->nr].key = key;
	s->kv[s->nr].value = value;
	s->kv[s->nr].file = file;
	s->kv[s->nr].line = line;
	memcpy(s->kv[s->nr].unset_var, st->unset, sizeof(st->unset));
	s->nr++;
	return 0;
}

/* "a/./b//c" -> "a/b/c": enough to catch a file that includes itself. */
static char *ini_normalise(const char *p)
{
	char *out = malloc(strlen(p) + 1), *o = out;

	if (!out)
		return NULL;
	while (*p) {
		if (p[0] == '/' && o > out && o[-1] == '/') {
			p++;
		} else if (p[0] == '.' && p[1] == '/' && (o == out || o[-1] == '/')) {
			p += 2;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* @inc relative to the directory of @from. */
static char *ini_join(const char *from, const char *inc)
{
	const char *slash = strrchr(from, '/');
	size_t dl;
	char *out;

	if (inc[0] == '/' || !slash)
		return strdup(inc);
	dl = (size_t)(slash - from) + 1;
	out = malloc(dl + strlen(inc) + 1);
	if (!out)
		return NULL;
	memcpy(out, from, dl);
	strcpy(out + dl, inc);
	return out;
}

static int ini_buf(struct ini_state *st, const char *path, const char *buf, size_t len);

static int ini_include(struct ini_state *st, const char *path, int lineno, const char *arg)
{
	char *full = NULL, *norm = NULL, *data = NULL;
	const char *stable;
	size_t dlen = 0;
	unsigned i, max = st->ops->max_depth ? st->ops->max_depth : 16;
	int ret;

	if (max > INI_MAX_STACK - 1)
		max = INI_MAX_STACK - 1;
	if (!*arg)
		return IOS_ERR(st->e, -EINVAL, "%s:%d: include needs a file name", path, lineno);
	if (!st->have_section)
		return IOS_ERR(st->e, -EINVAL, "%s:%d: 'include %s' outside of a [section] "
			       "(fio requires a section first)", path, lineno, arg);
	full = ini_join(path, arg);
	norm = full ? ini_normalise(full) : NULL;
	if (!norm) {
		ret = IOS_ERR(st->e, -ENOMEM, "%s:%d: out of memory", path, lineno);
		goto out;
	}
	for (i = 0; i < st->depth; i++) {
		if (!strcmp(st->stack[i], norm)) {
			ret = IOS_ERR(st->e, -ELOOP, "%s:%d: include loop: '%s' is already being read",
				      path, lineno, full);
			goto out;
		}
	}
	if (st->depth > max) {
		ret = IOS_ERR(st->e, -ELOOP, "%s:%d: include '%s': nested more than %u deep",
			      path, lineno, full, max);
		goto out;
	}
	ret = st->ops->read(st->ops->priv, full, &data, &dlen);
	if (ret == -EISDIR) {
		ret = IOS_ERR(st->e, ret, "%s:%d: include '%s': is a directory, not a job file",
			      path, lineno, full);
		goto out;
	}
	if (ret == -EFBIG) {
		ret = IOS_ERR(st->e, ret, "%s:%d: include '%s': larger than %u MiB, too large for "
			      "a job file", path, lineno, full, IOS_JOB_FILE_MAX >> 20);
		goto out;
	}
	if (ret) {
		ret = IOS_ERR(st->e, ret, "%s:%d: include '%s': cannot read it (%s)", path, lineno,
			      full, strerror(-ret));
		goto out;
	}
	stable = st->ops->file_read(st->ops->priv, full);
	if (!stable) {
		ret = IOS_ERR(st->e, -ENOMEM, "%s:%d: out of memory", path, lineno);
		goto out;
	}
	st->stack[st->depth++] = norm;
	norm = NULL;
	ret = ini_buf(st, stable, data, dlen);
	free(st->stack[--st->depth]);
out:
	free(data);
	free(norm);
	free(full);
	return ret;
}

static int ini_line(struct ini_state *st, const char *path, int lineno, char *s)
{
	char *cut, *end, *line, *eq, *key, *value = NULL;
	size_t len;
	int ret;

	while (isspace((unsigned char)*s))
		s++;
	cut = strpbrk(s, ";#");
	if (cut)
		*cut = '\0';
	end = s + strlen(s);
	while (end > s && ini_blank(end[-1]))
		*--end = '\0';
	if (!*s)
		return 0;

	if (s[0] == '[') {
		if (st->depth > 1)
			return IOS_ERR(st->e, -EINVAL, "%s:%d: '%s': an included file may not start a "
				       "section (fio: \"No new sections in included files\")",
				       path, lineno, s);
		if (end[-1] != ']' || end - s < 2)
			return IOS_ERR(st->e, -EINVAL, "%s:%d: '%s': missing ']' at the end of the "
				       "section name", path, lineno, s);
		end[-1] = '\0';
		if (!s[1])
			return IOS_ERR(st->e, -EINVAL, "%s:%d: empty section name '[]'", path, lineno);
		if (strpbrk(s + 1, "[]"))
			return IOS_ERR(st->e, -EINVAL, "%s:%d: section name '%s' contains a bracket",
				       path, lineno, s + 1);
		ret = ini_flush(st);
		if (ret)
			return ret;
		st->cur.name = strdup(s + 1);
		if (!st->cur.name)
			return IOS_ERR(st->e, -ENOMEM, "%s:%d: out of memory", path, lineno);
		st->cur.file = path;
		st->cur.line = lineno;
		st->cur.global = !strcmp(s + 1, "global");
		st->have_section = true;
		return 0;
	}

	if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t' || s[7] == '=')) {
		char *arg = s + 7;

		while (*arg == ' ' || *arg == '\t')
			arg++;
		if (*arg == '=')
			arg++;
		while (*arg == ' ' || *arg == '\t')
			arg++;
		return ini_include(st, path, lineno, arg);
	}

	if (!st->have_section)
		return IOS_ERR(st->e, -EINVAL, "%s:%d: option '%s' outside of a [section]",
			       path, lineno, s);

	line = ini_expand(st, s, &len);
	if (!line) {
		if (len == SIZE_MAX)
			return IOS_ERR(st->e, -E2BIG, "%s:%d: line longer than %u bytes after ${} "
				       "expansion", path, lineno, INI_MAX_LINE);
		return IOS_ERR(st->e, -ENOMEM, "%s:%d: out of memory", path, lineno);
	}
	eq = strchr(line, '=');
	if (eq) {
		*eq = '\0';
		value = strdup(eq + 1);
		if (!value) {
			free(line);
			return IOS_ERR(st->e, -ENOMEM, "%s:%d: out of memory", path, lineno);
		}
	}
	end = line + strlen(line);
	while (end > line && ini_blank(end[-1]))
		*--end = '\0';
	key = line;
	while (isspace((unsigned char)*key))
		key++;
	if (!*key) {
		if (st->unset[0])
			ret = IOS_ERR(st->e, -EINVAL, "%s:%d: missing option name before '=' "
				      "(${%s} is not set)", path, lineno, st->unset);
		else
			ret = IOS_ERR(st->e, -EINVAL, "%s:%d: missing option name before '='",
				      path, lineno);
		goto err;
	}
	if (key != line)
		memmove(line, key, strlen(key) + 1);
	ret = ini_add_kv(st, line, value, path, lineno);
	if (ret) {
		ret = IOS_ERR(st->e, ret, "%s:%d: out of memory", path, lineno);
		goto err;
	}
	return 0;
err:
	free(line);
	free(value);
	return ret;
}

static int ini_buf(struct ini_state *st, const char *path, const char *buf, size_t len)
{
	size_t pos = 0;
	int lineno = 0, ret = 0;

	while (pos < len && !ret) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char *line;

		if (lineno == 0x7fffffff)
			return IOS_ERR(st->e, -E2BIG, "%s: too many lines", path);
		lineno++;
		if (memchr(buf + pos, '\0', n))
			return IOS_ERR(st->e, -EINVAL, "%s:%d: NUL byte in a job file", path, lineno);
		line = strndup(buf + pos, n);
		if (!line)
			return IOS_ERR(st->e, -ENOMEM, "%s:%d: out of memory", path, lineno);
		ret = ini_line(st, path, lineno, line);
		free(line);
		pos += n + 1;
	}
	return ret;
}

int ios_ini_parse(const struct ios_ini_ops *ops, const char *path, const char *buf,
		  size_t len, struct ios_err *e)
{
	struct ini_state st = { .ops = ops, .e = e };
	const char *stable = ops->file_read(ops->priv, path);
	int ret;

	if (!stable)
		return IOS_ERR(e, -ENOMEM, "%s: out of memory", path);
	st.stack[0] = ini_normalise(stable);
	if (!st.stack[0])
		return IOS_ERR(e, -ENOMEM, "%s: out of memory", path);
	st.depth = 1;
	ret = ini_buf(&st, stable, buf, len);
	st.depth = 0;
	if (!ret)
		ret = ini_flush(&st);
	ini_section_reset(&st.cur);
	free(st.stack[0]);
	return ret;
}
