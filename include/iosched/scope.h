/*
 * Setting scopes: what the prefix of a --set name means.
 *
 * A setting NAME=VALUE reaches one of a handful of tunable tables, chosen by
 * the prefix of NAME: none for the scheduler's own tunables, "queue." for the
 * request queue, "device." for the device model, and so on. This registry is
 * the one list of them; the runner's unknown-name check, compare's column
 * check, `iosched list` and the --set help all read it, so a new scope is one
 * row here instead of six hand-kept lists.
 *
 * Some scopes have no fixed table: the bare names belong to whichever
 * scheduler the run selects, device.* to the selected device's type, and
 * cgroup.PATH.ioprio is a pattern over the workload's groups, checked once
 * the groups are known. ios_scope_table() resolves the first two.
 */
#ifndef IOSCHED_SCOPE_H
#define IOSCHED_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include "tunable.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_sched_type;
struct ios_dev_type;
struct ios_buf;

enum ios_scope_id {
	IOS_SCOPE_SCHED,	/* bare names: the scheduler's tunables */
	IOS_SCOPE_QUEUE,
	IOS_SCOPE_DEVICE,
	IOS_SCOPE_VM,
	IOS_SCOPE_LAB,
	IOS_SCOPE_CGROUP,
	IOS_SCOPE_REPLAY,
	IOS_SCOPE_NR,
};

/* How a scope finds its table. */
enum ios_scope_resolve {
	IOS_SCOPE_FIXED,	/* .table */
	IOS_SCOPE_BY_SCHED,	/* the selected scheduler's tunables */
	IOS_SCOPE_BY_DEVICE,	/* the selected device type's tunables */
	IOS_SCOPE_PATTERN,	/* no table: a name pattern (cgroup.PATH.ioprio) */
};

/* Where its settings take effect. */
enum ios_scope_where {
	IOS_SCOPE_PER_QUEUE,	/* each request queue (scheduler, queue.*) */
	IOS_SCOPE_PER_DEVICE,	/* each device model */
	IOS_SCOPE_RUN_WIDE,	/* the whole run (vm.*, lab.*, cgroup.*) */
	IOS_SCOPE_REPLAY_ONLY,	/* iosched replay and read_iolog= jobs only */
};

struct ios_scope {
	enum ios_scope_id id;
	const char *prefix;		/* "queue."; "" for the bare scheduler names */
	const char *spelling;		/* as the unknown-name hint writes it: "queue.NAME" */
	enum ios_scope_resolve resolve;
	const struct ios_tunable *table;	/* IOS_SCOPE_FIXED only */
	size_t size;			/* of the struct .table fills */
	enum ios_scope_where where;
	const char *usage;		/* its phrase in the --set help; NULL: not named there */
	const char *list_title;		/* iosched list's heading for a fixed table */
};

/* The scopes in registry order (IOS_SCOPE_*), NULL past the last. */
const struct ios_scope *ios_scope_at(size_t i);
const struct ios_scope *ios_scope_get(enum ios_scope_id id);
/*
 * The scope a setting name belongs to: a name without a dot is the
 * scheduler's; "x.y" goes by its prefix. NULL: no scope has that prefix.
 */
const struct ios_scope *ios_scope_of(const char *name);
/*
 * The table @sc resolves to for scheduler @st and device type @dt (either
 * may be NULL when the scope does not need it); NULL for a pattern scope or
 * one whose owner is not given.
 */
const struct ios_tunable *ios_scope_table(const struct ios_scope *sc,
					  const struct ios_sched_type *st,
					  const struct ios_dev_type *dt);
/*
 * The names a run takes, for an unknown-name message: "bare (scheduler),
 * queue.NAME, ... or cgroup.PATH.ioprio" into @buf (the replay-only scope
 * is left out: it has its own message). Returns @buf.
 */
const char *ios_scope_hint(char *buf, size_t len);
/* The --set help: "Scheduler tunables are bare (...), queue ones queue.NAME, ..." */
void ios_scope_usage(struct ios_buf *out);
/*
 * Set @base (a struct of @id's fixed table) to its defaults, then apply the
 * settings of @s under the scope's prefix (marking them used).
 */
int ios_scope_setup(enum ios_scope_id id, struct ios_settings *s, void *base,
		    struct ios_err *e) IOS_MUST_CHECK;

#ifdef __cplusplus
}
#endif

#endif
