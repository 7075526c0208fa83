/* String map (include/iosched/strmap.h). */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/strmap.h"

uint64_t ios_strmap_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* The slot holding @key, or the empty slot where it would go. */
static struct ios_strmap_slot *sm_slot(const struct ios_strmap *m, const char *key, size_t len,
				       uint64_t h)
{
	size_t mask = m->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct ios_strmap_slot *s = &m->slots[i];

		if (!s->key)
			return s;
		if (s->hash == h && s->len == len && !memcmp(s->key, key, len))
			return s;
	}
}

bool ios_strmap_find(const struct ios_strmap *m, const char *key, size_t len, void **val,
		     unsigned *tag)
{
	struct ios_strmap_slot *s;

	if (!m->cap)
		return false;
	s = sm_slot(m, key, len, ios_strmap_hash(key, len));
	if (!s->key)
		return false;
	if (val)
		*val = s->val;
	if (tag)
		*tag = s->tag;
	return true;
}

static int sm_grow(struct ios_strmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct ios_strmap n = { calloc(cap, sizeof(struct ios_strmap_slot)), cap, m->nr };

	if (!n.slots)
		return -ENOMEM;
	for (size_t i = 0; i < m->cap; i++) {
		struct ios_strmap_slot *o = &m->slots[i];

		if (o->key)
			*sm_slot(&n, o->key, o->len, o->hash) = *o;
	}
	free(m->slots);
	*m = n;
	return 0;
}

int ios_strmap_add(struct ios_strmap *m, const char *key, size_t len, unsigned tag, void *val)
{
	struct ios_strmap_slot *s;
	uint64_t h = ios_strmap_hash(key, len);
	char *k;

	/* at most half full, so probes stay short */
	if ((m->nr + 1) * 2 > m->cap && sm_grow(m))
		return -ENOMEM;
	k = malloc(len + 1);
	if (!k)
		return -ENOMEM;
	memcpy(k, key, len);
	k[len] = '\0';
	s = sm_slot(m, key, len, h);
	assert(!s->key);	/* the caller checked that @key is absent */
	*s = (struct ios_strmap_slot){ k, len, h, tag, val };
	m->nr++;
	return 0;
}

void ios_strmap_free(struct ios_strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	m->slots = NULL;
	m->cap = m->nr = 0;
}
