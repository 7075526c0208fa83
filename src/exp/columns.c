/*
 * Compare columns (compare.h, part 3): a scheduler with, optionally, its
 * own settings, "cfq:fairness=1:slice_idle=0".
 *
 * Every column is checked here, before any run starts, against the same
 * tables the runner uses (scheduler, queue, vm, lab and device tunables),
 * so that a typo in the sixth column cannot surface after five runs have
 * been paid for. Each check works on a scratch copy (the device is created
 * and destroyed again) and the runner repeats it for real. `iosched
 * compare` and the seed reproduction report both take their columns from
 * here.
 */
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/compare.h"
#include "iosched/scope.h"
#include "iosched/suggest.h"

static char *cc_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

void ios_cmp_columns_free(struct ios_cmp_column *cols, size_t nr)
{
	for (size_t i = 0; cols && i < nr; i++) {
		free(cols[i].label);
		ios_settings_free(&cols[i].settings);
	}
	free(cols);
}

static void cc_sched_names(char *buf, size_t len)
{
	const struct ios_sched_type *st;
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; (st = ios_sched_at(i)) != NULL && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", st->name);
}

/* the tunables a user may set, for "has no tunable" messages */
static void cc_tunable_names(const struct ios_tunable *tab, char *buf, size_t len)
{
	const struct ios_tunable *t;
	size_t used = 0;

	buf[0] = '\0';
	ios_tunable_for_each(t, tab) {
		if (t->flags & (IOS_TUN_HIDDEN | IOS_TUN_RO) || used >= len)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t->name);
	}
	if (!used)
		snprintf(buf, len, "none");
}

static int cc_apply_table(struct ios_settings *set, enum ios_scope_id id, struct ios_err *e)
{
	void *scratch = calloc(1, ios_scope_get(id)->size);
	int ret;

	if (!scratch)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = ios_scope_setup(id, set, scratch, e);
	free(scratch);
	return ret;
}

/*
 * Check one column's settings on scratch copies of everything the runner
 * would set, in the runner's order, and take the share model from the
 * scheduler's tunables as set.
 */
static int cc_check_column(struct ios_cmp_column *c, const char *device, struct ios_err *e)
{
	const struct ios_sched_type *st = c->sched;
	struct ios_settings set = { 0 };
	struct ios_dev *dev;
	void *priv = NULL;
	int ret;

	if (ios_settings_copy(&set, &c->settings))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	ret = cc_apply_table(&set, IOS_SCOPE_LAB, e);
	if (!ret)
		ret = cc_apply_table(&set, IOS_SCOPE_VM, e);
	if (!ret)
		ret = cc_apply_table(&set, IOS_SCOPE_QUEUE, e);
	if (ret)
		goto out;
	dev = ios_dev_create(device ? device : IOS_DEV_DEFAULT_PROFILE, &set, 0, e);
	if (!dev) {
		ret = e->code ? e->code : -EINVAL;
		goto out;
	}
	ios_dev_destroy(dev);

	for (size_t i = 0; i < set.n; i++) {
		const struct ios_setting *s = &set.v[i];
		char names[1024];

		if (strchr(s->name, '.'))
			continue;
		if (st->tunables && ios_tunable_find(st->tunables, s->name))
			continue;
		struct ios_suggest sg;
		char hint[256];

		cc_tunable_names(st->tunables, names, sizeof(names));
		ios_suggest_init(&sg, s->name);
		ios_tunable_suggest(&sg, st->tunables, NULL);
		ret = IOS_ERR(e, -ENOENT, "%s has no tunable '%s'%s (its tunables: %s)",
			      s->origin, s->name, ios_suggest_str(&sg, hint, sizeof(hint)), names);
		goto out;
	}
	priv = calloc(1, st->priv_size ? st->priv_size : 1);
	if (!priv) {
		ret = IOS_ERR(e, -ENOMEM, "out of memory");
		goto out;
	}
	if (st->tunables) {
		ret = ios_tunable_defaults(st->tunables, priv, e);
		if (!ret)
			ret = ios_settings_apply_for(&set, "", st->tunables, priv, st->name, e);
		if (ret)
			goto out;
	}
	ios_share_params_of(st, st->tunables ? priv : NULL, &c->share);

	for (size_t i = 0; i < set.n; i++) {
		const struct ios_setting *s = &set.v[i];
		const struct ios_scope *sc = ios_scope_of(s->name);
		char hint[256];

		/* cgroup.PATH.*: the run checks them against the workload's groups */
		if (!s->used && strchr(s->name, '.') && !(sc && sc->resolve == IOS_SCOPE_PATTERN)) {
			ret = IOS_ERR(e, -ENOENT, "%s: unknown tunable '%s': names are %s (see "
				      "'iosched list')", s->origin, s->name,
				      ios_scope_hint(hint, sizeof(hint)));
			goto out;
		}
	}
out:
	free(priv);
	ios_settings_free(&set);
	return ret;
}

/* "cfq:fairness=1:slice_idle=0" (@len bytes of @spec) into @c */
static int cc_parse_column(struct ios_cmp_column *c, const char *spec, size_t len,
			   const struct ios_settings *global, struct ios_err *e)
{
	const char *colon = memchr(spec, ':', len);
	size_t nlen = colon ? (size_t)(colon - spec) : len;
	char name[128], origin[300];

	c->label = cc_strndup(spec, len);
	if (!c->label)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (!nlen || nlen >= sizeof(name)) {
		return IOS_ERR(e, -EINVAL, "--schedulers: '%s': expected SCHEDULER[:NAME=VALUE...]",
			       c->label);
	}
	memcpy(name, spec, nlen);
	name[nlen] = '\0';
	c->sched = ios_sched_find(name);
	if (!c->sched) {
		char names[512];

		cc_sched_names(names, sizeof(names));
		char hint[256];

		return IOS_ERR(e, -ENOENT, "--schedulers: unknown scheduler '%s'%s (known: %s)",
			       name, ios_sched_suggest(name, hint, sizeof(hint)), names);
	}
	/* --set first, the column's own after: later settings win */
	if (global) {
		for (size_t i = 0; i < global->n; i++) {
			const struct ios_setting *s = &global->v[i];

			if (!strchr(s->name, '.') &&
			    !(c->sched->tunables && ios_tunable_find(c->sched->tunables, s->name)))
				continue;	/* a bare --set for other schedulers */
			if (ios_settings_add(&c->settings, s->name, s->value, s->origin))
				return IOS_ERR(e, -ENOMEM, "out of memory");
		}
	}
	while (colon) {
		const char *kv = colon + 1, *end = spec + len;
		const char *next = memchr(kv, ':', (size_t)(end - kv));
		size_t kvlen = (size_t)((next ? next : end) - kv);
		const char *dot = memchr(kv, '.', kvlen), *eq = memchr(kv, '=', kvlen);
		char *item = cc_strndup(kv, kvlen);
		int ret;

		if (!item)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		/* messages about a bare name say whose tunable it was meant to be */
		if (dot && (!eq || dot < eq))
			snprintf(origin, sizeof(origin), "--schedulers %s", c->label);
		else
			snprintf(origin, sizeof(origin), "--schedulers %s: scheduler '%s'", c->label,
				 c->sched->name);
		ret = ios_settings_add_kv(&c->settings, item, origin, e);
		free(item);
		if (ret)
			return ret;
		colon = next;
	}
	return 0;
}

int ios_cmp_columns_parse(const char *list, const struct ios_settings *global,
			  const char *device, struct ios_cmp_column **cols, size_t *nr,
			  struct ios_err *e)
{
	struct ios_cmp_column *v = NULL;
	const struct ios_sched_type *st;
	size_t n = 0, cap = 0;
	int ret = 0;

	*cols = NULL;
	*nr = 0;
	if (list && !*list)
		return IOS_ERR(e, -EINVAL, "--schedulers: empty list");
	for (size_t i = 0;; i++) {
		const char *spec;
		size_t len;

		if (list) {
			const char *comma;

			if (!*list)
				break;
			comma = strchr(list, ',');
			spec = list;
			len = comma ? (size_t)(comma - list) : strlen(list);
			list = comma ? comma + 1 : list + len;
			if (!len || (comma && !*list)) {
				ret = IOS_ERR(e, -EINVAL, "--schedulers: empty entry in the list");
				goto fail;
			}
		} else {
			st = ios_sched_at(i);
			if (!st)
				break;
			/*
			 * The default compares one era: the single-queue
			 * schedulers the seeds' reports were made with. blk-mq
			 * ones (none, mq-deadline, kyber, bfq-6.12) are named
			 * with --schedulers; mixing layers in one table is a
			 * choice the user makes (docs/compare.md).
			 */
			if (ios_sched_layer(st) == IOS_SCHED_LAYER_MQ)
				continue;
			spec = st->name;
			len = strlen(spec);
		}
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			struct ios_cmp_column *nv = realloc(v, ncap * sizeof(*nv));

			if (!nv) {
				ret = IOS_ERR(e, -ENOMEM, "out of memory");
				goto fail;
			}
			v = nv;
			cap = ncap;
		}
		memset(&v[n], 0, sizeof(v[n]));
		n++;
		ret = cc_parse_column(&v[n - 1], spec, len, global, e);
		if (ret)
			goto fail;
	}
	/* a bare --set that no compared scheduler has is a typo, not a no-op */
	for (size_t i = 0; global && i < global->n; i++) {
		const struct ios_setting *s = &global->v[i];
		bool taken = false;

		if (strchr(s->name, '.'))
			continue;
		for (size_t k = 0; k < n && !taken; k++)
			taken = v[k].sched->tunables && ios_tunable_find(v[k].sched->tunables, s->name);
		if (!taken) {
			ret = IOS_ERR(e, -ENOENT, "%s%s%s=%s: none of the compared schedulers has a "
				      "tunable '%s' (see 'iosched list')", s->origin,
				      *s->origin ? ": " : "", s->name, s->value, s->name);
			goto fail;
		}
	}
	for (size_t k = 0; k < n; k++) {
		ret = cc_check_column(&v[k], device, e);
		if (ret)
			goto fail;
	}
	*cols = v;
	*nr = n;
	return 0;
fail:
	ios_cmp_columns_free(v, n);
	return ret;
}
