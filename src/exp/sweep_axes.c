/*
 * A sweep's axes read back from its manifest (include/iosched/sweep.h),
 * for the per-axis plots of `sweep merge --plot`.
 *
 * The planner writes each point's label as "KEY=VALUE" words in a fixed
 * order: job, device (when the grid has devices), scheduler, then the set
 * axes in grid order; values hold no blanks (the grid forbids them). Points
 * are numbered with the last axis fastest. So the axes and their values come
 * back from the labels alone, in plan order, and a point is the
 * mixed-radix number of its value indices: both are checked here, so a
 * manifest edited into something that is not a grid is refused instead of
 * being drawn wrong.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/sweep.h"

void ios_sweep_axes_free(struct ios_sweep_axes *a)
{
	for (size_t i = 0; i < a->nr; i++) {
		for (size_t v = 0; v < a->nr_vals[i]; v++)
			free(a->vals[i][v]);
		free(a->vals[i]);
		free(a->names[i]);
	}
	free(a->vals);
	free(a->names);
	free(a->nr_vals);
	memset(a, 0, sizeof(*a));
}

/* the words of @label: (key, key length, value, value length) each */
struct sx_word {
	const char *k, *v;
	size_t kl, vl;
};

static size_t sx_words(const char *label, struct sx_word *w, size_t max)
{
	size_t n = 0;

	for (const char *s = label; *s && n < max;) {
		size_t l = strcspn(s, " ");
		const char *eq = memchr(s, '=', l);

		if (!eq)
			return 0;
		w[n].k = s;
		w[n].kl = (size_t)(eq - s);
		w[n].v = eq + 1;
		w[n].vl = l - w[n].kl - 1;
		n++;
		s += l;
		s += *s == ' ';
	}
	return n;
}

#define SX_MAX_AXES 64

/* value @v (@vl bytes) of axis @i: its index, added when new; -1 out of memory */
static long sx_value(struct ios_sweep_axes *a, size_t i, const char *v, size_t vl)
{
	char **nv;

	for (size_t j = 0; j < a->nr_vals[i]; j++)
		if (strlen(a->vals[i][j]) == vl && !memcmp(a->vals[i][j], v, vl))
			return (long)j;
	nv = realloc(a->vals[i], (a->nr_vals[i] + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	a->vals[i] = nv;
	nv[a->nr_vals[i]] = strndup(v, vl);
	if (!nv[a->nr_vals[i]])
		return -1;
	return (long)a->nr_vals[i]++;
}

int ios_sweep_axes_parse(const struct ios_sweep_manifest *m, struct ios_sweep_axes *a,
			 struct ios_err *e)
{
	size_t seeds = m->nr_tasks / m->nr_points, nr, *idx = NULL, prod = 1;
	struct sx_word w[SX_MAX_AXES + 1];
	int ret = -ENOMEM;

	memset(a, 0, sizeof(*a));
	nr = sx_words(m->tasks[0].label, w, SX_MAX_AXES + 1);
	if (!nr || nr > SX_MAX_AXES)
		return IOS_ERR(e, -EINVAL, "manifest: point 0's label '%s' is not KEY=VALUE words "
			       "(at most %d)", m->tasks[0].label, SX_MAX_AXES);
	a->names = calloc(nr, sizeof(*a->names));
	a->vals = calloc(nr, sizeof(*a->vals));
	a->nr_vals = calloc(nr, sizeof(*a->nr_vals));
	idx = calloc(nr, sizeof(*idx));
	if (!a->names || !a->vals || !a->nr_vals || !idx)
		goto oom;
	a->nr = nr;
	a->sched = nr;
	for (size_t i = 0; i < nr; i++) {
		if (!(a->names[i] = strndup(w[i].k, w[i].kl)))
			goto oom;
		if (!strcmp(a->names[i], "scheduler"))
			a->sched = i;
	}
	if (a->sched == nr) {
		ret = IOS_ERR(e, -EINVAL, "manifest: point 0's label '%s' names no scheduler",
			      m->tasks[0].label);
		goto err;
	}
	/* pass 0 collects the values, pass 1 checks each point is where its values say */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t p = 0; p < m->nr_points; p++) {
			const char *label = m->tasks[p * seeds].label;

			if (sx_words(label, w, SX_MAX_AXES + 1) != nr)
				goto not_grid;
			for (size_t i = 0; i < nr; i++) {
				long v;

				if (w[i].kl != strlen(a->names[i]) ||
				    memcmp(w[i].k, a->names[i], w[i].kl))
					goto not_grid;
				v = sx_value(a, i, w[i].v, w[i].vl);
				if (v < 0)
					goto oom;
				idx[i] = (size_t)v;
			}
			if (pass && ios_sweep_axes_point(a, idx) != p)
				goto not_grid;
		}
		for (size_t i = 0; !pass && i < nr; i++)
			if (prod <= m->nr_points)	/* past it: refused, no overflow */
				prod *= a->nr_vals[i];
		if (!pass && prod != m->nr_points) {
			ret = IOS_ERR(e, -EINVAL, "manifest: %zu points, but the labels' axes make "
				      "more or fewer: not a grid", m->nr_points);
			goto err;
		}
	}
	free(idx);
	return 0;
not_grid:
	ret = IOS_ERR(e, -EINVAL, "manifest: the points' labels are not a grid in plan order "
		      "(the axes of '%s', last fastest): edited?", m->tasks[0].label);
	goto err;
oom:
	ret = IOS_ERR(e, -ENOMEM, "out of memory");
err:
	free(idx);
	ios_sweep_axes_free(a);
	return ret;
}

size_t ios_sweep_axes_point(const struct ios_sweep_axes *a, const size_t *idx)
{
	size_t p = 0;

	for (size_t i = 0; i < a->nr; i++)
		p = p * a->nr_vals[i] + idx[i];
	return p;
}

bool ios_sweep_axes_plotted(const struct ios_sweep_axes *a, size_t axis)
{
	if (axis == a->sched)
		return false;
	return strcmp(a->names[axis], "job") || a->nr_vals[axis] > 1;
}

int ios_sweep_axes_hold(const struct ios_sweep_axes *a, const char *spec, size_t *held,
			struct ios_err *e)
{
	const char *eq = strchr(spec, '=');
	size_t nl = eq ? (size_t)(eq - spec) : 0;
	char list[512];
	size_t used = 0;

	if (!eq || !nl || !eq[1])
		return IOS_ERR(e, -EINVAL, "--at %s: expected AXIS=VALUE", spec);
	for (size_t i = 0; i < a->nr; i++) {
		if (strlen(a->names[i]) != nl || memcmp(a->names[i], spec, nl))
			continue;
		if (i == a->sched)
			return IOS_ERR(e, -EINVAL, "--at %s: the schedulers are the plot's lines, "
				       "not held", spec);
		for (size_t v = 0; v < a->nr_vals[i]; v++)
			if (!strcmp(a->vals[i][v], eq + 1)) {
				held[i] = v;
				return 0;
			}
		list[0] = '\0';
		for (size_t v = 0; v < a->nr_vals[i] && used < sizeof(list); v++)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 v ? ", " : "", a->vals[i][v]);
		return IOS_ERR(e, -EINVAL, "--at %s: '%s' is not a value of axis %s (its values: "
			       "%s)", spec, eq + 1, a->names[i], list);
	}
	list[0] = '\0';
	for (size_t i = 0; i < a->nr && used < sizeof(list); i++)
		if (i != a->sched)
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 used ? ", " : "", a->names[i]);
	return IOS_ERR(e, -EINVAL, "--at %s: no axis '%.*s' in the plan (its axes: %s)", spec,
		       (int)nl, spec, list);
}
