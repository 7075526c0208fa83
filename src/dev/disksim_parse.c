/*
 * disksim_parse: DiskSim 4.0's parameter syntax, read into a tree, then the
 * drive's parameters taken from the tree (see disksim_parse.h).
 *
 * The syntax is DiskSim's (CMU-PDL-08-101, "The DiskSim Simulation
 * Environment Version 4.0 Reference Manual", and its libparam grammar):
 * '#' starts a comment; a block is "TYPE NAME { Name = value, ... }"; a
 * parameter name is several words up to '='; a value is a word (number or
 * name), "[ value, ... ]", "TYPE { ... }", or "source FILE", a file holding
 * one "TYPE NAME { ... }". At the top level "source FILE" includes a file,
 * "instantiate [ a, b ] as NAME" makes components of a block and "topology
 * ..." wires them (read and skipped: one drive is modelled). Files are read
 * relative to the file that names them.
 *
 * This is our own reader written from the manual and the sample files; no
 * DiskSim code is copied. The interpretation tables say, for every
 * parameter of the blocks that describe the drive, whether the hdd model
 * honours it, notes it (a line on stderr and in docs/disksim.md), or has
 * no use for it (statistics switches).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev/disksim_parse.h"

#define DSK_MAX_DEPTH 32	/* block and list nesting */
#define DSK_MAX_INCLUDE 8
#define DSK_MAX_FILE (16u << 20)

enum dsk_tok { DSK_T_EOF, DSK_T_WORD, DSK_T_LBRACE, DSK_T_RBRACE, DSK_T_LBRACK, DSK_T_RBRACK,
	       DSK_T_COMMA, DSK_T_EQ };

enum dsk_kind { DSK_V_WORD, DSK_V_LIST, DSK_V_BLOCK };

struct dsk_block;

struct dsk_val {
	int kind;
	char *word;
	struct dsk_block *blk;
	struct dsk_val *items;
	size_t n;
	const char *file;
	int line;
};

struct dsk_param {
	char *name;
	struct dsk_val v;
	const char *file;
	int line;
};

struct dsk_block {
	char *type, *name;
	struct dsk_param *p;
	size_t n;
	const char *file;
	int line;
};

struct dsk_inst {
	char *of;		/* the block instantiated */
	char *name;		/* one component made of it */
	const char *file;
	int line;
};

struct dsk_ctx {
	ios_dsk_read_fn rd;
	void *arg;
	struct ios_err *e;
	char **files;		/* every file name read, owned here */
	size_t nr_files;
	struct dsk_block **top;
	size_t nr_top;
	struct dsk_inst *inst;
	size_t nr_inst;
	char *disk_bus;		/* the component the topology attaches the first drive to */
	char *disk_bus_type;	/* ... and its type */
};

struct dsk_lex {
	const char *buf, *file;
	size_t len, pos;
	int line;
	int tok, tok_line;
	char *word;		/* the current WORD token (owned until taken) */
};

/* ---- lexer ---- */

static bool dsk_special(char c)
{
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == '=' || c == '#';
}

static int dsk_next(struct dsk_lex *l, struct ios_err *e)
{
	free(l->word);
	l->word = NULL;
	for (;;) {
		while (l->pos < l->len && isspace((unsigned char)l->buf[l->pos])) {
			if (l->buf[l->pos] == '\n')
				l->line++;
			l->pos++;
		}
		if (l->pos < l->len && l->buf[l->pos] == '#') {
			while (l->pos < l->len && l->buf[l->pos] != '\n')
				l->pos++;
			continue;
		}
		break;
	}
	l->tok_line = l->line;
	if (l->pos >= l->len) {
		l->tok = DSK_T_EOF;
		return 0;
	}
	switch (l->buf[l->pos]) {
	case '{': l->tok = DSK_T_LBRACE; l->pos++; return 0;
	case '}': l->tok = DSK_T_RBRACE; l->pos++; return 0;
	case '[': l->tok = DSK_T_LBRACK; l->pos++; return 0;
	case ']': l->tok = DSK_T_RBRACK; l->pos++; return 0;
	case ',': l->tok = DSK_T_COMMA; l->pos++; return 0;
	case '=': l->tok = DSK_T_EQ; l->pos++; return 0;
	}
	size_t s = l->pos;

	while (l->pos < l->len && !isspace((unsigned char)l->buf[l->pos]) &&
	       !dsk_special(l->buf[l->pos])) {
		if (!l->buf[l->pos])
			return IOS_ERR(e, -EINVAL, "%s:%d: a NUL byte in the file", l->file, l->line);
		l->pos++;
	}
	l->word = strndup(l->buf + s, l->pos - s);
	if (!l->word)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	l->tok = DSK_T_WORD;
	return 0;
}

static const char *dsk_tokname(const struct dsk_lex *l)
{
	static const char *const names[] = { "end of file", "a word", "'{'", "'}'", "'['", "']'",
					     "','", "'='" };

	return l->tok == DSK_T_WORD ? l->word : names[l->tok];
}

static int dsk_expect(struct dsk_lex *l, int tok, const char *what, struct ios_err *e)
{
	if (l->tok != tok)
		return IOS_ERR(e, -EINVAL, "%s:%d: expected %s, found %s%s", l->file, l->tok_line,
			       what, l->tok == DSK_T_EOF ? "" : "'", l->tok == DSK_T_EOF ?
			       "end of file (truncated?)" : dsk_tokname(l));
	return dsk_next(l, e);
}

/* ---- tree ---- */

static void dsk_block_free(struct dsk_block *b);

static void dsk_val_free(struct dsk_val *v)
{
	free(v->word);
	if (v->blk)
		dsk_block_free(v->blk);
	for (size_t i = 0; i < v->n; i++)
		dsk_val_free(&v->items[i]);
	free(v->items);
	memset(v, 0, sizeof(*v));
}

static void dsk_block_free(struct dsk_block *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->p[i].name);
		dsk_val_free(&b->p[i].v);
	}
	free(b->p);
	free(b->type);
	free(b->name);
	free(b);
}

static int dsk_grow(void **arr, size_t n, size_t sz, struct ios_err *e)
{
	if (n & (n - 1) && n > 4)
		return 0;
	void *p = realloc(*arr, (n < 4 ? 4 : n * 2) * sz);

	if (!p)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	*arr = p;
	return 0;
}

static int dsk_parse_file(struct dsk_ctx *c, const char *from, int from_line, const char *name,
			  int depth, struct dsk_block **one);
static int dsk_parse_body(struct dsk_ctx *c, struct dsk_lex *l, struct dsk_block *b, int depth);

static struct dsk_block *dsk_block_new(char *type, char *name, const struct dsk_lex *l,
				       int line, struct ios_err *e)
{
	struct dsk_block *b = calloc(1, sizeof(*b));

	if (!b) {
		free(type);
		free(name);
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	b->type = type;
	b->name = name;
	b->file = l->file;
	b->line = line;
	return b;
}

static int dsk_parse_value(struct dsk_ctx *c, struct dsk_lex *l, struct dsk_val *v, int depth)
{
	struct ios_err *e = c->e;
	int ret;

	v->file = l->file;
	v->line = l->tok_line;
	if (depth > DSK_MAX_DEPTH)
		return IOS_ERR(e, -EINVAL, "%s:%d: nested too deeply", l->file, l->tok_line);
	if (l->tok == DSK_T_LBRACK) {
		v->kind = DSK_V_LIST;
		if ((ret = dsk_next(l, e)))
			return ret;
		while (l->tok != DSK_T_RBRACK) {
			if ((ret = dsk_grow((void **)&v->items, v->n, sizeof(*v->items), e)))
				return ret;
			memset(&v->items[v->n], 0, sizeof(*v->items));
			ret = dsk_parse_value(c, l, &v->items[v->n++], depth + 1);
			if (ret)
				return ret;
			if (l->tok == DSK_T_COMMA) {
				if ((ret = dsk_next(l, e)))
					return ret;
			} else if (l->tok != DSK_T_RBRACK) {
				return dsk_expect(l, DSK_T_RBRACK, "',' or ']' in a list", e);
			}
		}
		return dsk_next(l, e);
	}
	if (l->tok != DSK_T_WORD)
		return IOS_ERR(e, -EINVAL, "%s:%d: expected a value, found %s", l->file,
			       l->tok_line, dsk_tokname(l));
	if (!strcmp(l->word, "source")) {
		if ((ret = dsk_next(l, e)))
			return ret;
		if (l->tok != DSK_T_WORD)
			return IOS_ERR(e, -EINVAL, "%s:%d: 'source' needs a file name", l->file,
				       l->tok_line);
		v->kind = DSK_V_BLOCK;
		ret = dsk_parse_file(c, l->file, l->tok_line, l->word, depth + 1, &v->blk);
		return ret ? ret : dsk_next(l, e);
	}
	char *w = l->word;

	l->word = NULL;
	if ((ret = dsk_next(l, e))) {
		free(w);
		return ret;
	}
	if (l->tok == DSK_T_LBRACE) {
		v->kind = DSK_V_BLOCK;
		v->blk = dsk_block_new(w, NULL, l, v->line, e);
		if (!v->blk)
			return -ENOMEM;
		if ((ret = dsk_next(l, e)))
			return ret;
		return dsk_parse_body(c, l, v->blk, depth + 1);
	}
	v->kind = DSK_V_WORD;
	v->word = w;
	return 0;
}

/* After '{': parameters up to the matching '}'. */
static int dsk_parse_body(struct dsk_ctx *c, struct dsk_lex *l, struct dsk_block *b, int depth)
{
	struct ios_err *e = c->e;
	int ret;

	while (l->tok != DSK_T_RBRACE) {
		char name[256];
		size_t off = 0;
		int line = l->tok_line;

		if (l->tok != DSK_T_WORD)
			return dsk_expect(l, DSK_T_RBRACE, "a parameter name or '}'", e);
		while (l->tok == DSK_T_WORD) {
			int n = snprintf(name + off, sizeof(name) - off, "%s%s", off ? " " : "",
					 l->word);

			if (n < 0 || (size_t)n >= sizeof(name) - off)
				return IOS_ERR(e, -EINVAL, "%s:%d: parameter name too long", l->file,
					       line);
			off += (size_t)n;
			if ((ret = dsk_next(l, e)))
				return ret;
		}
		if (l->tok != DSK_T_EQ)
			return IOS_ERR(e, -EINVAL, "%s:%d: parameter '%s': expected '=', found %s",
				       l->file, line, name, l->tok == DSK_T_EOF ?
				       "end of file (truncated?)" : dsk_tokname(l));
		if ((ret = dsk_next(l, e)))
			return ret;
		if ((ret = dsk_grow((void **)&b->p, b->n, sizeof(*b->p), e)))
			return ret;
		struct dsk_param *p = &b->p[b->n++];

		memset(p, 0, sizeof(*p));
		p->file = l->file;
		p->line = line;
		p->name = strdup(name);
		if (!p->name)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		if (l->tok == DSK_T_EOF)
			return IOS_ERR(e, -EINVAL, "%s:%d: parameter '%s': no value (truncated?)",
				       l->file, line, name);
		if ((ret = dsk_parse_value(c, l, &p->v, depth)))
			return ret;
		if (l->tok == DSK_T_COMMA) {
			if ((ret = dsk_next(l, e)))
				return ret;
		} else if (l->tok != DSK_T_RBRACE) {
			return IOS_ERR(e, -EINVAL, "%s:%d: after parameter '%s': expected ',' or '}', found %s",
				       l->file, l->tok_line, name, l->tok == DSK_T_EOF ?
				       "end of file (truncated?)" : dsk_tokname(l));
		}
	}
	return dsk_next(l, e);
}

/* "TYPE NAME { ... }" with the lexer on TYPE. */
static int dsk_parse_def(struct dsk_ctx *c, struct dsk_lex *l, int depth, struct dsk_block **out)
{
	struct ios_err *e = c->e;
	int line = l->tok_line, ret;
	char *type = l->word, *name;

	l->word = NULL;
	if ((ret = dsk_next(l, e))) {
		free(type);
		return ret;
	}
	if (l->tok != DSK_T_WORD) {
		ret = IOS_ERR(e, -EINVAL, "%s:%d: block '%s': expected its name, found %s", l->file,
			      line, type, dsk_tokname(l));
		free(type);
		return ret;
	}
	name = l->word;
	l->word = NULL;
	*out = dsk_block_new(type, name, l, line, e);
	if (!*out)
		return -ENOMEM;
	if ((ret = dsk_next(l, e)))
		return ret;
	if ((ret = dsk_expect(l, DSK_T_LBRACE, "'{'", e)))
		return ret;
	return dsk_parse_body(c, l, *out, depth + 1);
}

static int dsk_parse_instantiate(struct dsk_ctx *c, struct dsk_lex *l)
{
	struct ios_err *e = c->e;
	int line = l->tok_line, ret;
	size_t first = c->nr_inst;

	if ((ret = dsk_next(l, e)) || (ret = dsk_expect(l, DSK_T_LBRACK, "'[' after instantiate", e)))
		return ret;
	while (l->tok == DSK_T_WORD || l->tok == DSK_T_COMMA) {
		if (l->tok == DSK_T_WORD) {
			if ((ret = dsk_grow((void **)&c->inst, c->nr_inst, sizeof(*c->inst), e)))
				return ret;
			memset(&c->inst[c->nr_inst], 0, sizeof(c->inst[0]));
			c->inst[c->nr_inst].name = l->word;
			c->inst[c->nr_inst].file = l->file;
			c->inst[c->nr_inst++].line = line;
			l->word = NULL;
		}
		if ((ret = dsk_next(l, e)))
			return ret;
	}
	if ((ret = dsk_expect(l, DSK_T_RBRACK, "']'", e)))
		return ret;
	if (l->tok != DSK_T_WORD || strcmp(l->word, "as"))
		return IOS_ERR(e, -EINVAL, "%s:%d: instantiate: expected 'as NAME'", l->file, line);
	if ((ret = dsk_next(l, e)))
		return ret;
	if (l->tok != DSK_T_WORD)
		return IOS_ERR(e, -EINVAL, "%s:%d: instantiate: expected a block name after 'as'",
			       l->file, line);
	if (first == c->nr_inst) {	/* "instantiate [ ] as X": X is still named */
		if ((ret = dsk_grow((void **)&c->inst, c->nr_inst, sizeof(*c->inst), e)))
			return ret;
		memset(&c->inst[c->nr_inst], 0, sizeof(c->inst[0]));
		c->inst[c->nr_inst].file = l->file;
		c->inst[c->nr_inst++].line = line;
	}
	for (size_t i = first; i < c->nr_inst; i++) {
		c->inst[i].of = strdup(l->word);
		if (!c->inst[i].of)
			return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	return dsk_next(l, e);
}

/*
 * The topology: "TYPE NAME [ children ]" nested. Only one thing is taken
 * from it: the component whose brackets hold the first disksim_disk (the
 * drive's bus, whose block transfer time the drive's transfers pay).
 */
#define DSK_TOPO_DEPTH 32
static int dsk_parse_topology(struct dsk_ctx *c, struct dsk_lex *l)
{
	struct ios_err *e = c->e;
	const char *stack_type[DSK_TOPO_DEPTH], *stack_name[DSK_TOPO_DEPTH];
	char *w1 = NULL, *w2 = NULL;	/* the last two words: TYPE NAME */
	int level = 0, ret = 0;
	bool disk = false;

	do {
		if (l->tok == DSK_T_EOF) {
			ret = IOS_ERR(e, -EINVAL, "%s:%d: topology: unbalanced '[' (truncated?)",
				      l->file, l->tok_line);
			break;
		}
		if (l->tok == DSK_T_WORD) {
			free(w1);
			w1 = w2;
			w2 = l->word;
			l->word = NULL;
			if (disk && !c->disk_bus && level > 0 && stack_name[level - 1]) {
				c->disk_bus = strdup(stack_name[level - 1]);
				c->disk_bus_type = strdup(stack_type[level - 1]);
				if (!c->disk_bus || !c->disk_bus_type) {
					ret = IOS_ERR(e, -ENOMEM, "out of memory");
					break;
				}
			}
			disk = !strcmp(w2, "disksim_disk");
		} else if (l->tok == DSK_T_LBRACK) {
			if (level >= DSK_TOPO_DEPTH) {
				ret = IOS_ERR(e, -EINVAL, "%s:%d: topology: nested deeper than %d levels",
					      l->file, l->tok_line, DSK_TOPO_DEPTH);
				break;
			}
			/* the words are kept until the matching ']' (stack below) */
			stack_type[level] = w1;
			stack_name[level] = w2;
			w1 = w2 = NULL;
			level++;
			disk = false;
		} else if (l->tok == DSK_T_RBRACK) {
			if (level > 0) {
				level--;
				free((char *)stack_type[level]);
				free((char *)stack_name[level]);
			}
			disk = false;
		}
		if ((ret = dsk_next(l, e)))
			break;
	} while (level > 0);
	while (level > 0) {
		level--;
		free((char *)stack_type[level]);
		free((char *)stack_name[level]);
	}
	free(w1);
	free(w2);
	return ret;
}

static int dsk_parse_top(struct dsk_ctx *c, struct dsk_lex *l, int depth)
{
	struct ios_err *e = c->e;
	int ret;

	while (l->tok != DSK_T_EOF) {
		if (l->tok != DSK_T_WORD)
			return IOS_ERR(e, -EINVAL, "%s:%d: expected a block, 'source', 'instantiate' or 'topology', found %s",
				       l->file, l->tok_line, dsk_tokname(l));
		if (!strcmp(l->word, "source")) {
			int line = l->tok_line;

			if ((ret = dsk_next(l, e)))
				return ret;
			if (l->tok != DSK_T_WORD)
				return IOS_ERR(e, -EINVAL, "%s:%d: 'source' needs a file name",
					       l->file, line);
			ret = dsk_parse_file(c, l->file, line, l->word, depth + 1, NULL);
			if (ret || (ret = dsk_next(l, e)))
				return ret;
		} else if (!strcmp(l->word, "instantiate")) {
			if ((ret = dsk_parse_instantiate(c, l)))
				return ret;
		} else if (!strcmp(l->word, "topology")) {
			while (l->tok == DSK_T_WORD)
				if ((ret = dsk_next(l, e)))
					return ret;
			if (l->tok != DSK_T_LBRACK)
				return dsk_expect(l, DSK_T_LBRACK, "'[' in topology", e);
			if ((ret = dsk_parse_topology(c, l)))
				return ret;
		} else {
			struct dsk_block *b = NULL;

			if ((ret = dsk_grow((void **)&c->top, c->nr_top, sizeof(*c->top), e)))
				return ret;
			ret = dsk_parse_def(c, l, depth, &b);
			if (b)
				c->top[c->nr_top++] = b;
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int dsk_read_default(void *arg, const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t n = 0, cap = 0;

	(void)arg;
	if (!f)
		return -errno;
	for (;;) {
		if (n + 4096 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > DSK_MAX_FILE + 8192 || !(nb = realloc(b, cap))) {
				free(b);
				fclose(f);
				return cap > DSK_MAX_FILE ? -EFBIG : -ENOMEM;
			}
			b = nb;
		}
		size_t r = fread(b + n, 1, cap - n, f);

		n += r;
		if (!r)
			break;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

/* @name relative to the directory of @from (unless absolute). */
static char *dsk_resolve(const char *from, const char *name)
{
	const char *slash = from ? strrchr(from, '/') : NULL;
	size_t dl = slash && name[0] != '/' ? (size_t)(slash - from + 1) : 0;
	char *p = malloc(dl + strlen(name) + 1);

	if (p) {
		if (dl)	/* memcpy from NULL, even of 0 bytes, lets the compiler drop later NULL checks */
			memcpy(p, from, dl);
		strcpy(p + dl, name);
	}
	return p;
}

static int dsk_load_text(struct dsk_ctx *c, const char *from, int from_line, const char *name,
			 char **path, char **buf, size_t *len)
{
	int ret;

	*path = dsk_resolve(from, name);
	if (!*path)
		return IOS_ERR(c->e, -ENOMEM, "out of memory");
	if ((ret = dsk_grow((void **)&c->files, c->nr_files, sizeof(*c->files), c->e))) {
		free(*path);
		return ret;
	}
	c->files[c->nr_files++] = *path;
	ret = c->rd(c->arg, *path, buf, len);
	if (ret) {
		if (from)
			return IOS_ERR(c->e, ret, "%s:%d: source %s: %s", from, from_line, *path,
				       strerror(-ret));
		return IOS_ERR(c->e, ret, "%s: %s", *path, strerror(-ret));
	}
	return 0;
}

/*
 * Read @name (relative to @from). With @one, the file holds one block
 * definition (a "source" value); otherwise top-level statements.
 */
static int dsk_parse_file(struct dsk_ctx *c, const char *from, int from_line, const char *name,
			  int depth, struct dsk_block **one)
{
	struct dsk_lex l;
	char *path, *buf = NULL;
	size_t len = 0;
	int ret;

	if (depth > DSK_MAX_INCLUDE + DSK_MAX_DEPTH)
		return IOS_ERR(c->e, -ELOOP, "%s:%d: source %s: nested too deeply", from, from_line,
			       name);
	ret = dsk_load_text(c, from, from_line, name, &path, &buf, &len);
	if (ret)
		return ret;
	memset(&l, 0, sizeof(l));
	l.buf = buf;
	l.len = len;
	l.file = path;
	l.line = 1;
	ret = dsk_next(&l, c->e);
	if (!ret && one) {
		if (l.tok != DSK_T_WORD)
			ret = IOS_ERR(c->e, -EINVAL, "%s:%d: expected a block definition, found %s",
				      path, l.tok_line, dsk_tokname(&l));
		else
			ret = dsk_parse_def(c, &l, depth, one);
		if (!ret && l.tok != DSK_T_EOF)
			ret = IOS_ERR(c->e, -EINVAL, "%s:%d: only one block may follow 'source' here, found %s",
				      path, l.tok_line, dsk_tokname(&l));
	} else if (!ret) {
		ret = dsk_parse_top(c, &l, depth);
	}
	free(l.word);
	free(buf);
	return ret;
}

/* ---- interpretation ---- */

static int dsk_note(struct ios_disksim_spec *s, struct ios_err *e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int dsk_note(struct ios_disksim_spec *s, struct ios_err *e, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < s->nr_notes; i++)
		if (!strcmp(s->notes[i], buf))
			return 0;
	if (dsk_grow((void **)&s->notes, s->nr_notes, sizeof(*s->notes), e))
		return -ENOMEM;
	if (!(s->notes[s->nr_notes] = strdup(buf)))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	s->nr_notes++;
	return 0;
}

static int dsk_num(const struct dsk_param *p, double *out, struct ios_err *e)
{
	char *end;

	if (p->v.kind != DSK_V_WORD)
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter '%s': expected a number", p->file,
			       p->line, p->name);
	errno = 0;
	*out = strtod(p->v.word, &end);
	if (end == p->v.word || *end || errno || !isfinite(*out))
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter '%s': '%s' is not a number", p->file,
			       p->line, p->name, p->v.word);
	return 0;
}

static int dsk_int(const struct dsk_param *p, double lo, double hi, int64_t *out,
		   struct ios_err *e)
{
	double d;
	int ret = dsk_num(p, &d, e);

	if (ret)
		return ret;
	if (d != floor(d) || d < lo || d > hi)
		return IOS_ERR(e, -ERANGE, "%s:%d: parameter '%s': %s is not a whole number in %.0f..%.0f",
			       p->file, p->line, p->name, p->v.word, lo, hi);
	*out = (int64_t)d;
	return 0;
}

/* What happens to a parameter of a drive block. */
enum dsk_use {
	DSK_USE_DBL,	/* a number the model honours: stored at .off */
	DSK_USE_INT,	/* a whole number the model honours: stored at .off (int) */
	DSK_USE_NOTE,	/* noted when it differs from .neutral */
	DSK_USE_NONE,	/* no effect on timing (statistics) */
	DSK_USE_SPECIAL,/* handled by the block's own code */
};

struct dsk_rule {
	const char *name;
	int use;
	size_t off;
	double neutral;
	const char *why;	/* for a note: what the model does instead */
};

#define DS(f) offsetof(struct ios_disksim_spec, f)
static const struct dsk_rule dsk_disk_rules[] = {
	{ "Model", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Scheduler", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Bulk sector transfer time", DSK_USE_DBL, DS(bulk_sector_ms), 0, NULL },
	{ "Max queue length", DSK_USE_INT, DS(max_queue), 0, NULL },
	{ "Number of buffer segments", DSK_USE_INT, DS(nr_segments), 0, NULL },
	{ "Segment size (in blks)", DSK_USE_INT, DS(segment_blks), 0, NULL },
	{ "Enable caching in buffer", DSK_USE_INT, DS(enable_cache), 0, NULL },
	{ "Buffer continuous read", DSK_USE_INT, DS(continuous_read), 0, NULL },
	{ "Maximum read-ahead (blks)", DSK_USE_INT, DS(max_read_ahead), 0, NULL },
	{ "Fast write level", DSK_USE_INT, DS(fast_write), 0, NULL },
	{ "Read hit over. after read", DSK_USE_DBL, DS(read_hit_ms), 0, NULL },
	{ "Read miss over. after read", DSK_USE_DBL, DS(read_miss_ms), 0, NULL },
	{ "Write hit over. after write", DSK_USE_DBL, DS(write_hit_aw_ms), 0, NULL },
	{ "Write miss over. after write", DSK_USE_DBL, DS(write_miss_ms), 0, NULL },
	{ "Read hit over. after write", DSK_USE_DBL, DS(read_hit_aw_ms), 0, NULL },
	{ "Read miss over. after write", DSK_USE_DBL, DS(read_miss_aw_ms), 0, NULL },
	{ "Write hit over. after read", DSK_USE_DBL, DS(write_hit_ar_ms), 0, NULL },
	{ "Write miss over. after read", DSK_USE_DBL, DS(write_miss_ar_ms), 0, NULL },
	{ "Print stats", DSK_USE_NONE, 0, 0, NULL },
	{ "Avg sectors per cylinder", DSK_USE_NONE, 0, 0, NULL },
	{ "Calc sector by sector", DSK_USE_NONE, 0, 0, NULL },
	{ "Per-request overhead time", DSK_USE_NOTE, 0, 0, "no per-request overhead besides the command overheads" },
	{ "Time scale for overheads", DSK_USE_NOTE, 0, 1, "overheads are taken as given" },
	{ "Hold bus entire read xfer", DSK_USE_NOTE, 0, 0, "no bus arbitration: the bus is the drive's own" },
	{ "Hold bus entire write xfer", DSK_USE_NOTE, 0, 0, "no bus arbitration: the bus is the drive's own" },
	{ "Allow almost read hits", DSK_USE_NOTE, 0, 0, "a read waits for read-ahead that will deliver it sooner than a media access, not only 'almost' hits" },
	{ "Allow sneaky full read hits", DSK_USE_NOTE, 0, 0, "no sneaky hits" },
	{ "Allow sneaky partial read hits", DSK_USE_NOTE, 0, 0, "no sneaky hits" },
	{ "Allow sneaky intermediate read hits", DSK_USE_NOTE, 0, 0, "no sneaky hits" },
	{ "Allow read hits on write data", DSK_USE_NOTE, 0, 0, "reads never hit dirty write data" },
	{ "Allow write prebuffering", DSK_USE_NOTE, 0, 0, "no write prebuffering" },
	{ "Preseeking level", DSK_USE_NOTE, 0, 0, "no preseeking" },
	{ "Never disconnect", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Maximum number of write segments", DSK_USE_NOTE, 0, -1, "dirty data may fill the whole buffer" },
	{ "Use separate write segment", DSK_USE_NOTE, 0, 0, "dirty data shares the buffer" },
	{ "Low (write) water mark", DSK_USE_NOTE, 0, 0, "no write watermark: a write's bus transfer overlaps the media" },
	{ "High (read) water mark", DSK_USE_DBL, DS(read_water), 0, NULL },
	{ "Set watermark by reqsize", DSK_USE_INT, DS(reqwater), 0, NULL },
	{ "Minimum read-ahead (blks)", DSK_USE_INT, DS(min_read_ahead), 0, NULL },
	{ "Read-ahead over requested", DSK_USE_INT, DS(ra_over_requested), 0, NULL },
	{ "Read-ahead on idle hit", DSK_USE_INT, DS(ra_idle_hit), 0, NULL },
	{ "Read any free blocks", DSK_USE_NOTE, 0, 1, "the model always keeps the sectors passed on the track" },
	{ "Immediate buffer read", DSK_USE_NOTE, 0, 0, "no immediate buffer reads" },
	{ "Immediate buffer write", DSK_USE_NOTE, 0, 0, "no immediate buffer writes" },
	{ "Combine seq writes", DSK_USE_NOTE, 0, 1, "sequential cached writes are always combined" },
	{ "Stop prefetch in sector", DSK_USE_INT, DS(stop_in_sector), 0, NULL },
	{ "Disconnect write if seek", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Write hit stop prefetch", DSK_USE_NOTE, 0, 1, "a write always stops read-ahead" },
	{ "Read directly to buffer", DSK_USE_NOTE, 0, 1, "media reads always go to a buffer segment" },
	{ "Immed transfer partial hit", DSK_USE_NOTE, 0, 0, "a partial hit waits for the media" },
	{ "Read completion overhead", DSK_USE_DBL, DS(read_complete_ms), 0, NULL },
	{ "Write completion overhead", DSK_USE_DBL, DS(write_complete_ms), 0, NULL },
	{ "Data preparation overhead", DSK_USE_NOTE, 0, 0, "no data preparation overhead" },
	{ "First reselect overhead", DSK_USE_NOTE, 0, 0, "no SCSI reselection model" },
	{ "Other reselect overhead", DSK_USE_NOTE, 0, 0, "no SCSI reselection model" },
	{ "Read disconnect afterread", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Read disconnect afterwrite", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Write disconnect overhead", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Extra write disconnect", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Extradisc command overhead", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Extradisc disconnect overhead", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Extradisc inter-disconnect delay", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Extradisc 2nd disconnect overhead", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Extradisc seek delta", DSK_USE_NOTE, 0, 0, "no SCSI disconnect model" },
	{ "Minimum seek delay", DSK_USE_NOTE, 0, 0, "no minimum seek delay" },
	{ NULL, 0, 0, 0, NULL },
};

static const struct dsk_rule dsk_dm_rules[] = {
	{ "Number of data surfaces", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Number of cylinders", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Block count", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Layout Model", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Mechanical Model", DSK_USE_SPECIAL, 0, 0, NULL },
	{ NULL, 0, 0, 0, NULL },
};

static const struct dsk_rule dsk_mech_rules[] = {
	{ "Full seek curve", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Access time type", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Seek type", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Add. write settling delay", DSK_USE_DBL, DS(settle_ms), 0, NULL },
	{ "Head switch time", DSK_USE_DBL, DS(head_switch_ms), 0, NULL },
	{ "Rotation speed (in rpms)", DSK_USE_DBL, DS(rpm), 0, NULL },
	{ "Single cylinder seek time", DSK_USE_NOTE, 0, -1, "the seek table's distance-1 entry is used" },
	{ "Full strobe seek time", DSK_USE_NOTE, 0, -1, "the seek table is used (extrapolated past its last distance)" },
	{ "HPL seek equation values", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "First ten seek times", DSK_USE_SPECIAL, 0, 0, NULL },
	{ "Percent error in rpms", DSK_USE_NOTE, 0, 0, "the spindle speed is exact" },
	{ NULL, 0, 0, 0, NULL },
};

static const struct dsk_rule dsk_ioq_rules[] = {
	{ "Scheduling policy", DSK_USE_INT, DS(sched_policy), 0, NULL },
	{ "Cylinder mapping strategy", DSK_USE_NOTE, 0, 0, "SATF works on the drive's own geometry" },
	{ "Write initiation delay", DSK_USE_NOTE, 0, 0, "no initiation delay" },
	{ "Read initiation delay", DSK_USE_NOTE, 0, 0, "no initiation delay" },
	{ "Sequential stream scheme", DSK_USE_NOTE, 0, 0, "no stream concatenation in the drive" },
	{ "Maximum concat size", DSK_USE_NOTE, 0, 0, "no concatenation in the drive" },
	{ "Overlapping request scheme", DSK_USE_NOTE, 0, 0, "no overlap detection" },
	{ "Sequential stream diff maximum", DSK_USE_NOTE, 0, 0, "no stream detection" },
	{ "Scheduling timeout scheme", DSK_USE_NOTE, 0, 0, "satf ages commands after ncq_age_limit_ms" },
	{ "Timeout time/weight", DSK_USE_NOTE, 0, 0, "satf ages commands after ncq_age_limit_ms" },
	{ "Timeout scheduling", DSK_USE_NOTE, 0, 0, "satf ages commands after ncq_age_limit_ms" },
	{ "Scheduling priority scheme", DSK_USE_NOTE, 0, 0, "no priority scheme in the drive" },
	{ "Priority scheduling", DSK_USE_NOTE, 0, 0, "no priority scheme in the drive" },
	{ NULL, 0, 0, 0, NULL },
};
#undef DS

static const struct dsk_rule *dsk_rule(const struct dsk_rule *r, const char *name)
{
	for (; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

/*
 * Apply @rules to every parameter of @b; SPECIAL ones are left for the
 * caller. An unknown name is an error (DiskSim refuses those too).
 */
static int dsk_apply(const struct dsk_block *b, const struct dsk_rule *rules,
		     struct ios_disksim_spec *s, struct ios_err *e)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct dsk_param *p = &b->p[i];
		const struct dsk_rule *r = dsk_rule(rules, p->name);
		double d;
		int64_t v;
		int ret;

		if (!r)
			return IOS_ERR(e, -EINVAL, "%s:%d: %s: unknown parameter '%s'", p->file,
				       p->line, b->type, p->name);
		switch (r->use) {
		case DSK_USE_DBL:
			if ((ret = dsk_num(p, &d, e)))
				return ret;
			*(double *)((char *)s + r->off) = d;
			break;
		case DSK_USE_INT:
			if ((ret = dsk_int(p, -1e9, 1e9, &v, e)))
				return ret;
			*(int *)((char *)s + r->off) = (int)v;
			break;
		case DSK_USE_NOTE:
			if ((ret = dsk_num(p, &d, e)))
				return ret;
			if (d != r->neutral &&
			    (ret = dsk_note(s, e, "%s = %s: not modelled (%s)", p->name, p->v.word, r->why)))
				return ret;
			break;
		}
	}
	return 0;
}

static const struct dsk_param *dsk_find(const struct dsk_block *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->p[i].name, name))
			return &b->p[i];
	return NULL;
}

static int dsk_need(const struct dsk_block *b, const char *name, const struct dsk_param **p,
		    struct ios_err *e)
{
	*p = dsk_find(b, name);
	if (!*p)
		return IOS_ERR(e, -EINVAL, "%s:%d: %s %s: parameter '%s' is missing", b->file,
			       b->line, b->type, b->name ? b->name : "", name);
	return 0;
}

static int dsk_need_int(const struct dsk_block *b, const char *name, double lo, double hi,
			int64_t *v, struct ios_err *e)
{
	const struct dsk_param *p;
	int ret = dsk_need(b, name, &p, e);

	return ret ? ret : dsk_int(p, lo, hi, v, e);
}

static int dsk_need_num(const struct dsk_block *b, const char *name, double *v,
			struct ios_err *e)
{
	const struct dsk_param *p;
	int ret = dsk_need(b, name, &p, e);

	return ret ? ret : dsk_num(p, v, e);
}

static int dsk_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int dsk_zone(const struct dsk_block *zb, struct ios_disksim_spec *s, struct ios_dsk_zone *z,
		    struct ios_err *e)
{
	static const char *const known[] = {
		"First cylinder number", "Last cylinder number", "Blocks per track",
		"Offset of first block", "Empty space at zone front", "Skew for track switch",
		"Skew for cylinder switch", "Number of spares", "slips", "defects", NULL,
	};
	const struct dsk_param *p;
	int64_t v;
	int ret;

	for (size_t i = 0; i < zb->n; i++) {
		size_t k = 0;

		while (known[k] && strcmp(known[k], zb->p[i].name))
			k++;
		if (!known[k])
			return IOS_ERR(e, -EINVAL, "%s:%d: %s: unknown parameter '%s'", zb->p[i].file,
				       zb->p[i].line, zb->type, zb->p[i].name);
	}
	z->file = zb->file;
	z->line = zb->line;
	if ((ret = dsk_need_int(zb, "First cylinder number", 0, 1e8, &v, e)))
		return ret;
	z->first_cyl = (uint32_t)v;
	if ((ret = dsk_need_int(zb, "Last cylinder number", 0, 1e8, &v, e)))
		return ret;
	z->last_cyl = (uint32_t)v;
	if ((ret = dsk_need_int(zb, "Blocks per track", 1, 1e6, &v, e)))
		return ret;
	z->spt = (uint32_t)v;
	if ((ret = dsk_need_int(zb, "Empty space at zone front", 0, 1e12, &v, e)))
		return ret;
	z->empty_front = (uint64_t)v;
	if ((ret = dsk_need_int(zb, "Number of spares", 0, 1e8, &v, e)))
		return ret;
	z->spares = (uint32_t)v;
	if ((ret = dsk_need_num(zb, "Offset of first block", &z->first_offset, e)) ||
	    (ret = dsk_need_num(zb, "Skew for track switch", &z->track_skew, e)) ||
	    (ret = dsk_need_num(zb, "Skew for cylinder switch", &z->cyl_skew, e)))
		return ret;
	if (z->first_offset < 0 || z->track_skew < 0 || z->cyl_skew < 0)
		return IOS_ERR(e, -ERANGE, "%s:%d: zone: offsets and skews must not be negative",
			       zb->file, zb->line);
	if (z->last_cyl < z->first_cyl)
		return IOS_ERR(e, -EINVAL, "%s:%d: zone: last cylinder %u before first cylinder %u",
			       zb->file, zb->line, z->last_cyl, z->first_cyl);
	p = dsk_find(zb, "slips");
	if (p) {
		if (p->v.kind != DSK_V_LIST)
			return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'slips': expected a list",
				       p->file, p->line);
		z->slips = calloc(p->v.n ? p->v.n : 1, sizeof(*z->slips));
		if (!z->slips)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		for (size_t i = 0; i < p->v.n; i++) {
			struct dsk_param item = { p->name, p->v.items[i], p->v.items[i].file,
						  p->v.items[i].line };

			if ((ret = dsk_int(&item, 0, 1e12, &v, e)))
				return ret;
			z->slips[z->nr_slips++] = (uint64_t)v;
		}
		qsort(z->slips, z->nr_slips, sizeof(*z->slips), dsk_u64_cmp);
	}
	p = dsk_find(zb, "defects");
	if (p && (p->v.kind != DSK_V_LIST || p->v.n))
		return dsk_note(s, e, "defects = [...] (%s:%d): not modelled (remapped sectors are read in place)",
				p->file, p->line);
	return 0;
}

static int dsk_layout(const struct dsk_param *lp, struct ios_disksim_spec *s, struct ios_err *e)
{
	const struct dsk_block *b = lp->v.blk;
	const struct dsk_param *zp, *p;
	int64_t v;
	int ret;

	if (lp->v.kind != DSK_V_BLOCK)
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Layout Model': expected a block",
			       lp->file, lp->line);
	if (strcmp(b->type, "dm_layout_g1"))
		return IOS_ERR(e, -EINVAL, "%s:%d: Layout Model %s: not supported (only dm_layout_g1, the zone table; g2 and g4 need DIXtrac's extracted layout files)",
			       b->file, b->line, b->type);
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->p[i].name, "LBN-to-PBN mapping scheme") &&
		    strcmp(b->p[i].name, "Sparing scheme used") &&
		    strcmp(b->p[i].name, "Rangesize for sparing") && strcmp(b->p[i].name, "Zones"))
			return IOS_ERR(e, -EINVAL, "%s:%d: %s: unknown parameter '%s'", b->p[i].file,
				       b->p[i].line, b->type, b->p[i].name);
	if ((ret = dsk_need_int(b, "LBN-to-PBN mapping scheme", 0, 2, &v, e)))
		return ret;
	if (v) {
		dsk_need(b, "LBN-to-PBN mapping scheme", &p, e);
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'LBN-to-PBN mapping scheme' = %lld: not supported (only 0, the normal mapping)",
			       p->file, p->line, (long long)v);
	}
	if ((ret = dsk_need_int(b, "Sparing scheme used", 0, 10, &v, e)))
		return ret;
	s->sparing = (int)v;
	if (v != IOS_DSK_SPARE_NONE && v != IOS_DSK_SPARE_TRACK && v != IOS_DSK_SPARE_CYL &&
	    v != IOS_DSK_SPARE_TRACKSECT && v != IOS_DSK_SPARE_ATEND && v != IOS_DSK_SPARE_RANGE &&
	    v != IOS_DSK_SPARE_ZONE) {
		dsk_need(b, "Sparing scheme used", &p, e);
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Sparing scheme used' = %lld: not supported (0, 1, 2, 3, 7, 8 or 9)",
			       p->file, p->line, (long long)v);
	}
	if ((ret = dsk_need_int(b, "Rangesize for sparing", 1, 1e6, &v, e)))
		return ret;
	s->rangesize = (uint32_t)v;
	if ((ret = dsk_need(b, "Zones", &zp, e)))
		return ret;
	if (zp->v.kind != DSK_V_LIST || !zp->v.n)
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Zones': expected a list of dm_layout_g1_zone blocks",
			       zp->file, zp->line);
	s->zones = calloc(zp->v.n, sizeof(*s->zones));
	if (!s->zones)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	for (size_t i = 0; i < zp->v.n; i++) {
		const struct dsk_val *zv = &zp->v.items[i];

		if (zv->kind != DSK_V_BLOCK || strcmp(zv->blk->type, "dm_layout_g1_zone"))
			return IOS_ERR(e, -EINVAL, "%s:%d: Zones: item %zu is not a dm_layout_g1_zone block",
				       zv->file, zv->line, i + 1);
		s->nr_zones++;
		if ((ret = dsk_zone(zv->blk, s, &s->zones[i], e)))
			return ret;
		/* the real specs leave a cylinder or so between zones: allowed, unmapped */
		if (i && s->zones[i].first_cyl <= s->zones[i - 1].last_cyl)
			return IOS_ERR(e, -EINVAL, "%s:%d: zone %zu starts at cylinder %u, inside zone %zu (cylinders %u-%u): zones must be in order and not overlap",
				       zv->file, zv->line, i + 1, s->zones[i].first_cyl, i,
				       s->zones[i - 1].first_cyl, s->zones[i - 1].last_cyl);
	}
	return 0;
}

/* The .seek file: "Seek distances measured: N", then N lines "distance, ms". */
static int dsk_seek_file(struct dsk_ctx *c, const struct dsk_param *p, struct ios_disksim_spec *s)
{
	struct ios_err *e = c->e;
	char *path, *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	long n = -1;
	int ln = 0, ret;

	if (p->v.kind != DSK_V_WORD)
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Full seek curve': expected a file name",
			       p->file, p->line);
	ret = dsk_load_text(c, p->file, p->line, p->v.word, &path, &buf, &len);
	if (ret)
		return ret;
	char *text = realloc(buf, len + 1);

	if (!text) {
		free(buf);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		free(text);
		return IOS_ERR(e, -EINVAL, "%s: a NUL byte in the file", path);
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *q = line, *end;
		double d, t;

		ln++;
		while (isspace((unsigned char)*q))
			q++;
		if (!*q || *q == '#')
			continue;
		if (n < 0) {
			if (sscanf(q, "Seek distances measured: %ld", &n) != 1 || n < 1 || n > 1000000) {
				ret = IOS_ERR(e, -EINVAL, "%s:%d: expected 'Seek distances measured: N' (N >= 1)",
					      path, ln);
				goto out;
			}
			s->seek_dist = calloc((size_t)n, sizeof(*s->seek_dist));
			s->seek_ms = calloc((size_t)n, sizeof(*s->seek_ms));
			if (!s->seek_dist || !s->seek_ms) {
				ret = IOS_ERR(e, -ENOMEM, "out of memory");
				goto out;
			}
			continue;
		}
		errno = 0;
		d = strtod(q, &end);
		while (isspace((unsigned char)*end) || *end == ',')
			end++;
		q = end;
		t = strtod(q, &end);
		while (isspace((unsigned char)*end) || *end == '\r')
			end++;
		if (errno || end == q || *end || d != floor(d) || d < 1 || d > 1e8 || !(t >= 0) ||
		    t > 1e5) {
			ret = IOS_ERR(e, -EINVAL, "%s:%d: expected 'distance, milliseconds' (a whole distance >= 1, a time >= 0)",
				      path, ln);
			goto out;
		}
		if ((long)s->nr_seek >= n) {
			ret = IOS_ERR(e, -EINVAL, "%s:%d: more than the %ld distances the header announces",
				      path, ln, n);
			goto out;
		}
		if (s->nr_seek && d <= s->seek_dist[s->nr_seek - 1]) {
			ret = IOS_ERR(e, -EINVAL, "%s:%d: seek table out of order: distance %.0f after %u (distances must increase)",
				      path, ln, d, s->seek_dist[s->nr_seek - 1]);
			goto out;
		}
		s->seek_dist[s->nr_seek] = (uint32_t)d;
		s->seek_ms[s->nr_seek++] = t;
	}
	if (n < 0)
		ret = IOS_ERR(e, -EINVAL, "%s:%d: no 'Seek distances measured: N' line (empty or truncated seek table)",
			      path, ln ? ln : 1);
	else if ((long)s->nr_seek != n)
		ret = IOS_ERR(e, -EINVAL, "%s:%d: %zu seek distances, the header announces %ld (truncated?)",
			      path, ln, s->nr_seek, n);
out:
	free(text);
	return ret;
}

static int dsk_mech(struct dsk_ctx *c, const struct dsk_param *mp, struct ios_disksim_spec *s)
{
	struct ios_err *e = c->e;
	const struct dsk_block *b = mp->v.blk;
	const struct dsk_param *p;
	int ret;

	if (mp->v.kind != DSK_V_BLOCK || strcmp(b->type, "dm_mech_g1"))
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Mechanical Model': expected a dm_mech_g1 block",
			       mp->file, mp->line);
	if ((ret = dsk_apply(b, dsk_mech_rules, s, e)))
		return ret;
	if ((ret = dsk_need(b, "Rotation speed (in rpms)", &p, e)) ||
	    (ret = dsk_need(b, "Head switch time", &p, e)))
		return ret;
	if (s->rpm < 1000 || s->rpm > 30000) {
		dsk_need(b, "Rotation speed (in rpms)", &p, e);
		return IOS_ERR(e, -ERANGE, "%s:%d: parameter 'Rotation speed (in rpms)': %s outside 1000..30000",
			       p->file, p->line, p->v.word);
	}
	if (s->head_switch_ms < 0 || s->head_switch_ms > 100 || fabs(s->settle_ms) > 100) {
		dsk_need(b, "Head switch time", &p, e);
		return IOS_ERR(e, -ERANGE, "%s:%d: head switch (0..100 ms) or write settle (-100..100 ms) out of range",
			       p->file, p->line);
	}
	p = dsk_find(b, "Access time type");
	if (p && (p->v.kind != DSK_V_WORD || strcmp(p->v.word, "trackSwitchPlusRotation")) &&
	    (ret = dsk_note(s, e, "Access time type = %s: not modelled (seek, head switch and rotation as trackSwitchPlusRotation)",
			    p->v.kind == DSK_V_WORD ? p->v.word : "?")))
		return ret;
	p = dsk_find(b, "Seek type");
	if (p && (p->v.kind != DSK_V_WORD || strcmp(p->v.word, "extracted")))
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Seek type': only 'extracted' (a seek table file) is supported",
			       p->file, p->line);
	if ((p = dsk_find(b, "HPL seek equation values")) &&
	    (ret = dsk_note(s, e, "HPL seek equation values: not used (the seek table is)")))
		return ret;
	if ((p = dsk_find(b, "First ten seek times")) &&
	    (ret = dsk_note(s, e, "First ten seek times: not used (the seek table is)")))
		return ret;
	if ((ret = dsk_need(b, "Full seek curve", &p, e)))
		return ret;
	return dsk_seek_file(c, p, s);
}

static int dsk_model(struct dsk_ctx *c, const struct dsk_param *mp, struct ios_disksim_spec *s)
{
	struct ios_err *e = c->e;
	const struct dsk_block *b = mp->v.blk;
	const struct dsk_param *p;
	int64_t v;
	int ret;

	if (mp->v.kind != DSK_V_BLOCK || strcmp(b->type, "dm_disk"))
		return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Model': expected a dm_disk block",
			       mp->file, mp->line);
	if ((ret = dsk_apply(b, dsk_dm_rules, s, e)))
		return ret;
	if ((ret = dsk_need_int(b, "Number of data surfaces", 1, 64, &v, e)))
		return ret;
	s->surfaces = (uint32_t)v;
	if ((ret = dsk_need_int(b, "Number of cylinders", 1, 1e7, &v, e)))
		return ret;
	s->cylinders = (uint32_t)v;
	if ((ret = dsk_need_int(b, "Block count", 1, 1e13, &v, e)))
		return ret;
	s->blocks = (uint64_t)v;
	if ((ret = dsk_need(b, "Layout Model", &p, e)) || (ret = dsk_layout(p, s, e)))
		return ret;
	if (s->zones[s->nr_zones - 1].last_cyl >= s->cylinders) {
		const struct ios_dsk_zone *z = &s->zones[s->nr_zones - 1];

		return IOS_ERR(e, -EINVAL, "%s:%d: the zones end at cylinder %u, past the disk's %u cylinders",
			       z->file, z->line, z->last_cyl, s->cylinders);
	}
	if ((ret = dsk_need(b, "Mechanical Model", &p, e)))
		return ret;
	return dsk_mech(c, p, s);
}

/*
 * An overhead picked by the previous command that the spec leaves out takes
 * the value of its counterpart: read ones after a write the "after read"
 * ones, write misses after a read the "after write" one, write hits the
 * write misses.
 */
static void dsk_overheads(struct ios_disksim_spec *s)
{
	if (isnan(s->read_hit_aw_ms))
		s->read_hit_aw_ms = s->read_hit_ms;
	if (isnan(s->read_miss_aw_ms))
		s->read_miss_aw_ms = s->read_miss_ms;
	if (isnan(s->write_miss_ar_ms))
		s->write_miss_ar_ms = s->write_miss_ms;
	if (isnan(s->write_hit_aw_ms))
		s->write_hit_aw_ms = s->write_miss_ms;
	if (isnan(s->write_hit_ar_ms))
		s->write_hit_ar_ms = s->write_miss_ar_ms;
}

static int dsk_disk(struct dsk_ctx *c, const struct dsk_block *d, struct ios_disksim_spec *s)
{
	struct ios_err *e = c->e;
	const struct dsk_param *p;
	int ret;

	snprintf(s->name, sizeof(s->name), "%s", d->name);
	s->max_queue = 1;
	s->sched_policy = 1;
	/* read-ahead rules a spec leaves out: what the model did before it had them */
	s->ra_over_requested = 1;
	s->ra_idle_hit = 1;
	s->stop_in_sector = 1;
	s->read_hit_aw_ms = s->read_miss_aw_ms = s->write_miss_ar_ms = NAN;
	s->write_hit_ar_ms = s->write_hit_aw_ms = NAN;
	if ((ret = dsk_apply(d, dsk_disk_rules, s, e)))
		return ret;
	dsk_overheads(s);
	{
		const double ovh[] = { s->read_hit_ms, s->read_miss_ms, s->write_miss_ms,
				       s->read_hit_aw_ms, s->read_miss_aw_ms, s->write_miss_ar_ms,
				       s->write_hit_ar_ms, s->write_hit_aw_ms, s->read_complete_ms,
				       s->write_complete_ms, s->bulk_sector_ms, s->read_water * 100 };

		for (size_t i = 0; i < sizeof(ovh) / sizeof(ovh[0]); i++)
			if (!(ovh[i] >= 0 && ovh[i] <= 100))
				return IOS_ERR(e, -ERANGE, "%s:%d: %s: an overhead or the bulk sector transfer time (0..100 ms) or the High (read) water mark (0..1) out of range",
					       d->file, d->line, d->name);
	}
	p = dsk_find(d, "Scheduler");
	if (p) {
		if (p->v.kind != DSK_V_BLOCK || strcmp(p->v.blk->type, "disksim_ioqueue"))
			return IOS_ERR(e, -EINVAL, "%s:%d: parameter 'Scheduler': expected a disksim_ioqueue block",
				       p->file, p->line);
		if ((ret = dsk_apply(p->v.blk, dsk_ioq_rules, s, e)))
			return ret;
	}
	if (s->nr_segments < 0 || s->nr_segments > 1024 || s->segment_blks < 0 ||
	    s->max_read_ahead < 0 || s->max_queue < 1 || s->max_queue > 256)
		return IOS_ERR(e, -ERANGE, "%s:%d: %s: buffer segments (0..1024), segment size, read-ahead (>= 0) or queue length (1..256) out of range",
			       d->file, d->line, d->name);
	/* DiskSim's ranges (src/modules/disk.modspec): 0..4, 0..segment size, -1..1, 0..1 */
	if (s->continuous_read < 0 || s->continuous_read > 4 || s->min_read_ahead < 0 ||
	    s->min_read_ahead > s->segment_blks || s->ra_over_requested < -1 ||
	    s->ra_over_requested > 1 || s->ra_idle_hit < 0 || s->ra_idle_hit > 1 ||
	    s->stop_in_sector < 0 || s->stop_in_sector > 1)
		return IOS_ERR(e, -ERANGE, "%s:%d: %s: Buffer continuous read (0..4), Minimum read-ahead (0..Segment size), Read-ahead over requested (-1..1), Read-ahead on idle hit or Stop prefetch in sector (0..1) out of range",
			       d->file, d->line, d->name);
	if ((ret = dsk_need(d, "Model", &p, e)))
		return ret;
	return dsk_model(c, p, s);
}

/* Timing parameters of the blocks around the drive: noted when not zero. */
static int dsk_around(const struct dsk_block *b, const struct dsk_block *dbus,
		      struct ios_disksim_spec *s, struct ios_err *e)
{
	static const char *const timed[] = {
		"Arbitration time", "Read block transfer time", "Write block transfer time",
		"Scale for delays", "Bulk sector transfer time", "Constant access time",
		"Maximum queue length", NULL,
	};
	int ret;

	for (size_t i = 0; i < b->n; i++) {
		const struct dsk_param *p = &b->p[i];
		double v;

		/* the driver's queue: FCFS is what a run without an OS scheduler does */
		if (!strcmp(p->name, "Scheduler") && p->v.kind == DSK_V_BLOCK) {
			const struct dsk_param *pol = dsk_find(p->v.blk, "Scheduling policy");

			if (pol && (ret = dsk_num(pol, &v, e)))
				return ret;
			if (pol && v != 1 &&
			    (ret = dsk_note(s, e, "%s %s: Scheduling policy = %s: not modelled (the lab's OS scheduler, --scheduler, takes the driver's place)",
					    b->type, b->name, pol->v.word)))
				return ret;
			continue;
		}
		for (size_t k = 0; timed[k]; k++) {
			if (strcmp(p->name, timed[k]))
				continue;
			if ((ret = dsk_num(p, &v, e)))
				return ret;
			/*
			 * The drive's own bus: each block it moves takes the
			 * bus's block transfer time (DiskSim's
			 * disk_get_blktranstime, bus_get_transfer_time).
			 */
			if (b == dbus && k == 1) {
				if (!(v >= 0 && v <= 100))
					return IOS_ERR(e, -ERANGE, "%s:%d: parameter '%s': %s out of range (0..100 ms)",
						       p->file, p->line, p->name, p->v.word);
				s->bus_read_blk_ms = v;
				continue;
			}
			if (b == dbus && k == 2) {
				if (!(v >= 0 && v <= 100))
					return IOS_ERR(e, -ERANGE, "%s:%d: parameter '%s': %s out of range (0..100 ms)",
						       p->file, p->line, p->name, p->v.word);
				s->bus_write_blk_ms = v;
				continue;
			}
			if (v && (ret = dsk_note(s, e, "%s %s: %s = %s: not modelled (the drive is attached directly)",
						 b->type, b->name, p->name, p->v.word)))
				return ret;
		}
	}
	return 0;
}

static const char *const dsk_known_types[] = {
	"disksim_global", "disksim_stats", "disksim_iodriver", "disksim_bus", "disksim_ctlr",
	"disksim_disk", "dm_disk", "disksim_logorg", "disksim_pf", "disksim_synthio",
	"disksim_iosim", "disksim_syncset", NULL,
};

static int dsk_pick(struct dsk_ctx *c, const struct dsk_block **disk)
{
	struct ios_err *e = c->e;
	size_t nd = 0;

	*disk = NULL;
	for (size_t i = 0; i < c->nr_top; i++) {
		const struct dsk_block *b = c->top[i];
		size_t k = 0;

		while (dsk_known_types[k] && strcmp(dsk_known_types[k], b->type))
			k++;
		if (!dsk_known_types[k])
			return IOS_ERR(e, -EINVAL, "%s:%d: unknown block type '%s' (a DiskSim 4.0 disk: disksim_disk, dm_disk, disksim_bus, disksim_ctlr, disksim_iodriver, ...)",
				       b->file, b->line, b->type);
		if (strcmp(b->type, "disksim_disk"))
			continue;
		nd++;
		for (size_t j = 0; j < c->nr_inst; j++) {
			if (strcmp(c->inst[j].of, b->name))
				continue;
			if (*disk && *disk != b)
				return IOS_ERR(e, -EINVAL, "%s:%d: a second drive type instantiated (%s and %s): one drive is modelled",
					       c->inst[j].file, c->inst[j].line, (*disk)->name, b->name);
			*disk = b;
		}
	}
	if (*disk)
		return 0;
	if (nd == 1) {
		for (size_t i = 0; i < c->nr_top; i++)
			if (!strcmp(c->top[i]->type, "disksim_disk"))
				*disk = c->top[i];
		return 0;
	}
	return IOS_ERR(e, -EINVAL, "%s: %s", c->nr_files ? c->files[0] : "?",
		       nd ? "several disksim_disk blocks and none instantiated: instantiate one"
			  : "no disksim_disk block (empty or truncated spec?)");
}

static int dsk_interpret(struct dsk_ctx *c, struct ios_disksim_spec *s)
{
	const struct dsk_block *disk, *dbus = NULL;
	int ret = dsk_pick(c, &disk);

	if (ret)
		return ret;
	/* the bus the topology attaches the drive to: its component's block */
	if (c->disk_bus && !strcmp(c->disk_bus_type, "disksim_bus"))
		for (size_t j = 0; j < c->nr_inst && !dbus; j++) {
			if (!c->inst[j].name || strcmp(c->inst[j].name, c->disk_bus))
				continue;
			for (size_t i = 0; i < c->nr_top; i++)
				if (!strcmp(c->top[i]->type, "disksim_bus") &&
				    !strcmp(c->top[i]->name, c->inst[j].of))
					dbus = c->top[i];
		}
	for (size_t i = 0; i < c->nr_top; i++) {
		const char *t = c->top[i]->type;

		if ((!strcmp(t, "disksim_bus") || !strcmp(t, "disksim_ctlr") ||
		     !strcmp(t, "disksim_iodriver")) && (ret = dsk_around(c->top[i], dbus, s, c->e)))
			return ret;
	}
	return dsk_disk(c, disk, s);
}

int ios_disksim_load(const char *path, ios_dsk_read_fn rd, void *arg,
		     struct ios_disksim_spec *s, struct ios_err *e)
{
	struct dsk_ctx c;
	int ret;

	memset(s, 0, sizeof(*s));
	memset(&c, 0, sizeof(c));
	c.rd = rd ? rd : dsk_read_default;
	c.arg = arg;
	c.e = e;
	s->path = strdup(path);
	if (!s->path)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = dsk_parse_file(&c, NULL, 0, path, 0, NULL);
	if (!ret)
		ret = dsk_interpret(&c, s);
	for (size_t i = 0; i < c.nr_top; i++)
		dsk_block_free(c.top[i]);
	free(c.top);
	for (size_t i = 0; i < c.nr_inst; i++)
		free(c.inst[i].of), free(c.inst[i].name);
	free(c.disk_bus);
	free(c.disk_bus_type);
	free(c.inst);
	/* the zones point at the file names: the spec keeps them */
	s->files = c.files;
	s->nr_files = c.nr_files;
	if (ret)
		ios_disksim_spec_free(s);
	return ret;
}

int ios_disksim_note(struct ios_disksim_spec *s, const char *text, struct ios_err *e)
{
	return dsk_note(s, e, "%s", text);
}

void ios_disksim_spec_free(struct ios_disksim_spec *s)
{
	for (size_t i = 0; i < s->nr_zones; i++)
		free(s->zones[i].slips);
	free(s->zones);
	free(s->seek_dist);
	free(s->seek_ms);
	for (size_t i = 0; i < s->nr_notes; i++)
		free(s->notes[i]);
	free(s->notes);
	free(s->path);
	for (size_t i = 0; i < s->nr_files; i++)
		free(s->files[i]);
	free(s->files);
	memset(s, 0, sizeof(*s));
}
