/*
 * A tiny strict JSON parser for tests (header only, no dependencies).
 *
 * The report tests must check that our JSON is valid and compare it with
 * real fio output, without linking a JSON library. This parser reads the
 * whole document into a tree of struct jm nodes; it is strict (RFC 8259
 * grammar, no trailing commas, nothing after the value) so that it also
 * serves as the validity check. Numbers keep their text, so integers are
 * compared exactly and floats with a tolerance. Object members keep their
 * order. Nothing here is fast; documents are a few hundred kB at most.
 */
#ifndef IOSCHED_TEST_JSON_MINI_H
#define IOSCHED_TEST_JSON_MINI_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JM_FN static __attribute__((unused))

enum jm_type { JM_NULL, JM_BOOL, JM_NUM, JM_STR, JM_ARR, JM_OBJ };

struct jm {
	enum jm_type type;
	char *key;		/* member name inside an object, else NULL */
	char *str;		/* JM_STR: the decoded string; JM_NUM: the number's text */
	double num;		/* JM_NUM, JM_BOOL */
	bool is_int;		/* JM_NUM written without fraction or exponent */
	struct jm **items;	/* JM_ARR, JM_OBJ */
	size_t n;
};

struct jm_parser {
	const char *p;
	const char *err;
	int depth;
};

JM_FN void jm_free(struct jm *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		jm_free(v->items[i]);
	free(v->items);
	free(v->key);
	free(v->str);
	free(v);
}

JM_FN void jm_ws(struct jm_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

JM_FN struct jm *jm_value(struct jm_parser *ps);

JM_FN int jm_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* a JSON string at ps->p (on the opening quote), decoded as UTF-8 */
JM_FN char *jm_string(struct jm_parser *ps)
{
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	if (!s || *ps->p != '"') {
		free(s);
		ps->err = "expected string";
		return NULL;
	}
	ps->p++;
	for (;;) {
		unsigned c = (unsigned char)*ps->p++;
		char out[4];
		size_t k = 1;

		if (c == '"')
			break;
		if (c < 0x20) {
			ps->err = c ? "control character in string" : "unterminated string";
			free(s);
			return NULL;
		}
		out[0] = (char)c;
		if (c == '\\') {
			c = (unsigned char)*ps->p++;
			switch (c) {
			case '"': out[0] = '"'; break;
			case '\\': out[0] = '\\'; break;
			case '/': out[0] = '/'; break;
			case 'b': out[0] = '\b'; break;
			case 'f': out[0] = '\f'; break;
			case 'n': out[0] = '\n'; break;
			case 'r': out[0] = '\r'; break;
			case 't': out[0] = '\t'; break;
			case 'u': {
				unsigned cp = 0;

				for (int i = 0; i < 4; i++) {
					int h = jm_hex(ps->p[i]);

					if (h < 0) {
						ps->err = "bad \\u escape";
						free(s);
						return NULL;
					}
					cp = cp * 16 + (unsigned)h;
				}
				ps->p += 4;
				/* BMP only; surrogates pass through as-is (tests do not need them) */
				if (cp < 0x80) {
					out[0] = (char)cp;
				} else if (cp < 0x800) {
					out[0] = (char)(0xc0 | (cp >> 6));
					out[1] = (char)(0x80 | (cp & 0x3f));
					k = 2;
				} else {
					out[0] = (char)(0xe0 | (cp >> 12));
					out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
					out[2] = (char)(0x80 | (cp & 0x3f));
					k = 3;
				}
				break;
			}
			default:
				ps->err = "bad escape";
				free(s);
				return NULL;
			}
		}
		if (n + k + 1 > cap) {
			char *ns;

			cap *= 2;
			ns = realloc(s, cap);
			if (!ns) {
				free(s);
				ps->err = "out of memory";
				return NULL;
			}
			s = ns;
		}
		memcpy(s + n, out, k);
		n += k;
	}
	s[n] = '\0';
	return s;
}

JM_FN struct jm *jm_new(enum jm_type t)
{
	struct jm *v = calloc(1, sizeof(*v));

	if (v)
		v->type = t;
	return v;
}

JM_FN bool jm_push(struct jm *parent, struct jm *child)
{
	struct jm **ni = realloc(parent->items, (parent->n + 1) * sizeof(*ni));

	if (!ni)
		return false;
	parent->items = ni;
	parent->items[parent->n++] = child;
	return true;
}

JM_FN struct jm *jm_number(struct jm_parser *ps)
{
	const char *s = ps->p;
	struct jm *v;
	bool is_int = true;

	if (*ps->p == '-')
		ps->p++;
	if (*ps->p == '0') {
		ps->p++;
	} else if (*ps->p >= '1' && *ps->p <= '9') {
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	} else {
		ps->err = "bad number";
		return NULL;
	}
	if (*ps->p == '.') {
		is_int = false;
		ps->p++;
		if (!(*ps->p >= '0' && *ps->p <= '9')) {
			ps->err = "bad fraction";
			return NULL;
		}
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (*ps->p == 'e' || *ps->p == 'E') {
		is_int = false;
		ps->p++;
		if (*ps->p == '+' || *ps->p == '-')
			ps->p++;
		if (!(*ps->p >= '0' && *ps->p <= '9')) {
			ps->err = "bad exponent";
			return NULL;
		}
		while (*ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	v = jm_new(JM_NUM);
	if (!v)
		return NULL;
	v->str = strndup(s, (size_t)(ps->p - s));
	v->num = strtod(v->str ? v->str : "0", NULL);
	v->is_int = is_int;
	return v;
}

JM_FN struct jm *jm_container(struct jm_parser *ps, bool obj)
{
	struct jm *v = jm_new(obj ? JM_OBJ : JM_ARR);
	char close = obj ? '}' : ']';

	if (!v)
		return NULL;
	ps->p++;
	jm_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct jm *item;

		jm_ws(ps);
		if (obj) {
			key = jm_string(ps);
			if (!key)
				goto fail;
			jm_ws(ps);
			if (*ps->p != ':') {
				free(key);
				ps->err = "expected ':'";
				goto fail;
			}
			ps->p++;
		}
		item = jm_value(ps);
		if (!item) {
			free(key);
			goto fail;
		}
		item->key = key;
		if (!jm_push(v, item)) {
			jm_free(item);
			goto fail;
		}
		jm_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			return v;
		}
		ps->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
		goto fail;
	}
fail:
	jm_free(v);
	return NULL;
}

JM_FN struct jm *jm_value(struct jm_parser *ps)
{
	struct jm *v = NULL;

	jm_ws(ps);
	if (++ps->depth > 64) {
		ps->err = "nested too deeply";
		return NULL;
	}
	switch (*ps->p) {
	case '{':
		v = jm_container(ps, true);
		break;
	case '[':
		v = jm_container(ps, false);
		break;
	case '"': {
		char *s = jm_string(ps);

		if (s) {
			v = jm_new(JM_STR);
			if (v)
				v->str = s;
			else
				free(s);
		}
		break;
	}
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "null", 4)) {
			v = jm_new(ps->p[0] == 'n' ? JM_NULL : JM_BOOL);
			if (v)
				v->num = ps->p[0] == 't';
			ps->p += 4;
		} else if (!strncmp(ps->p, "false", 5)) {
			v = jm_new(JM_BOOL);
			ps->p += 5;
		} else {
			ps->err = "bad literal";
		}
		break;
	default:
		v = jm_number(ps);
	}
	ps->depth--;
	return v;
}

/* Parse a whole document; NULL with *err set on any syntax error. */
JM_FN struct jm *jm_parse(const char *text, const char **err, size_t *err_off)
{
	struct jm_parser ps = { .p = text };
	struct jm *v = jm_value(&ps);

	if (v) {
		jm_ws(&ps);
		if (*ps.p) {
			ps.err = "trailing characters";
			jm_free(v);
			v = NULL;
		}
	}
	if (!v && !ps.err)
		ps.err = "out of memory";
	if (err)
		*err = ps.err;
	if (err_off)
		*err_off = (size_t)(ps.p - text);
	return v;
}

/* The member @key of object @v, or NULL. */
JM_FN const struct jm *jm_get(const struct jm *v, const char *key)
{
	if (!v || v->type != JM_OBJ)
		return NULL;
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->items[i]->key, key))
			return v->items[i];
	return NULL;
}

/* Follow "a/b/0/c" (numbers index arrays). NULL when missing. */
JM_FN const struct jm *jm_path(const struct jm *v, const char *path)
{
	char seg[256];

	while (v && *path) {
		size_t k = strcspn(path, "/");

		if (k >= sizeof(seg))
			return NULL;
		memcpy(seg, path, k);
		seg[k] = '\0';
		path += k + (path[k] == '/');
		if (v->type == JM_ARR) {
			char *end;
			unsigned long i = strtoul(seg, &end, 10);

			v = (*end || i >= v->n) ? NULL : v->items[i];
		} else {
			v = jm_get(v, seg);
		}
	}
	return v;
}

JM_FN double jm_num(const struct jm *v, const char *path)
{
	const struct jm *x = jm_path(v, path);

	return x && (x->type == JM_NUM || x->type == JM_BOOL) ? x->num : 0.0;
}

JM_FN unsigned long long jm_u64(const struct jm *v, const char *path)
{
	const struct jm *x = jm_path(v, path);

	return x && x->type == JM_NUM && x->str ? strtoull(x->str, NULL, 10) : 0;
}

JM_FN const char *jm_str(const struct jm *v, const char *path)
{
	const struct jm *x = jm_path(v, path);

	return x && x->type == JM_STR ? x->str : NULL;
}

/* ---- key paths: the shape of a document ---- */

struct jm_paths {
	char **p;
	size_t n, cap;
};

JM_FN void jm_paths_add(struct jm_paths *ps, const char *path)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i], path))
			return;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 64;
		char **np = realloc(ps->p, cap * sizeof(*np));

		if (!np)
			return;
		ps->p = np;
		ps->cap = cap;
	}
	ps->p[ps->n] = strdup(path);
	if (ps->p[ps->n])
		ps->n++;
}

/*
 * Every key path of @v below @prefix: object members add "/key", array
 * elements add "/[]" (so array lengths do not matter). A member for which
 * skip(prefix, key) is true is left out with everything below it.
 */
JM_FN void jm_collect_paths(const struct jm *v, const char *prefix, struct jm_paths *out,
			    bool (*skip)(const char *prefix, const char *key))
{
	char path[1024];

	for (size_t i = 0; v && (v->type == JM_OBJ || v->type == JM_ARR) && i < v->n; i++) {
		const struct jm *c = v->items[i];

		if (v->type == JM_OBJ) {
			if (skip && skip(prefix, c->key))
				continue;
			snprintf(path, sizeof(path), "%s/%s", prefix, c->key);
		} else {
			snprintf(path, sizeof(path), "%s/[]", prefix);
		}
		jm_paths_add(out, path);
		jm_collect_paths(c, path, out, skip);
	}
}

JM_FN bool jm_paths_has(const struct jm_paths *ps, const char *path)
{
	for (size_t i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i], path))
			return true;
	return false;
}

JM_FN void jm_paths_free(struct jm_paths *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->p[i]);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}

#endif
