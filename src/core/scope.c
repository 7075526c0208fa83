/*
 * The registry of setting scopes (include/iosched/scope.h).
 *
 * One row per prefix a --set name may carry. The rows are in the order
 * the messages and the help name them (bare scheduler names first, the
 * replay-only scope last), so the texts built from the table read as they
 * did when each was typed by hand. The fixed tables belong to the layers
 * that own them (block, vfs, run, replay); this file only points at them.
 */
#include <errno.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/replay.h"
#include "iosched/scope.h"

static const struct ios_scope scopes[IOS_SCOPE_NR] = {
	[IOS_SCOPE_SCHED] = {
		.id = IOS_SCOPE_SCHED, .prefix = "", .spelling = "bare (scheduler)",
		.resolve = IOS_SCOPE_BY_SCHED, .where = IOS_SCOPE_PER_QUEUE,
		.usage = "Scheduler tunables are bare (read_expire=250)",
	},
	[IOS_SCOPE_QUEUE] = {
		.id = IOS_SCOPE_QUEUE, .prefix = "queue.", .spelling = "queue.NAME",
		.resolve = IOS_SCOPE_FIXED, .table = ios_queue_tunables_table,
		.size = sizeof(struct ios_queue_tunables), .where = IOS_SCOPE_PER_QUEUE,
		.usage = "queue ones queue.NAME",
		.list_title = "Queue tunables (/sys/block/X/queue/):",
	},
	[IOS_SCOPE_DEVICE] = {
		.id = IOS_SCOPE_DEVICE, .prefix = "device.", .spelling = "device.NAME",
		.resolve = IOS_SCOPE_BY_DEVICE, .where = IOS_SCOPE_PER_DEVICE,
		.usage = "device ones device.NAME",
	},
	[IOS_SCOPE_VM] = {
		.id = IOS_SCOPE_VM, .prefix = "vm.", .spelling = "vm.NAME",
		.resolve = IOS_SCOPE_FIXED, .table = ios_vm_tunables_table,
		.size = sizeof(struct ios_vm_tunables), .where = IOS_SCOPE_RUN_WIDE,
		.usage = "VM ones vm.NAME",
		.list_title = "VM tunables (/proc/sys/vm/, and the machine's memory):",
	},
	[IOS_SCOPE_LAB] = {
		.id = IOS_SCOPE_LAB, .prefix = "lab.", .spelling = "lab.NAME",
		.resolve = IOS_SCOPE_FIXED, .table = ios_lab_tunables_table,
		.size = sizeof(struct ios_lab_tunables), .where = IOS_SCOPE_RUN_WIDE,
		.usage = "lab-only knobs lab.NAME",
		.list_title = "Lab tunables (only in this lab):",
	},
	[IOS_SCOPE_CGROUP] = {
		/* the groups come from the workload: checked by the runner (run/cgroup.c) */
		.id = IOS_SCOPE_CGROUP, .prefix = "cgroup.", .spelling = "cgroup.PATH.ioprio",
		.resolve = IOS_SCOPE_PATTERN, .where = IOS_SCOPE_RUN_WIDE,
	},
	[IOS_SCOPE_REPLAY] = {
		.id = IOS_SCOPE_REPLAY, .prefix = "replay.", .spelling = "replay.NAME",
		.resolve = IOS_SCOPE_FIXED, .table = ios_replay_tunables_table,
		.size = sizeof(struct ios_replay_tunables), .where = IOS_SCOPE_REPLAY_ONLY,
		.usage = "replay ones (iosched replay) replay.NAME",
		.list_title = "Replay tunables (iosched replay only):",
	},
};

const struct ios_scope *ios_scope_at(size_t i)
{
	return i < IOS_SCOPE_NR ? &scopes[i] : NULL;
}

const struct ios_scope *ios_scope_get(enum ios_scope_id id)
{
	return ios_scope_at((size_t)id);
}

const struct ios_scope *ios_scope_of(const char *name)
{
	const char *dot = strchr(name, '.');

	if (!dot)
		return &scopes[IOS_SCOPE_SCHED];
	for (size_t i = 0; i < IOS_SCOPE_NR; i++) {
		size_t n = strlen(scopes[i].prefix);

		if (n && (size_t)(dot - name) + 1 == n && !strncmp(name, scopes[i].prefix, n))
			return &scopes[i];
	}
	return NULL;
}

const struct ios_tunable *ios_scope_table(const struct ios_scope *sc,
					  const struct ios_sched_type *st,
					  const struct ios_dev_type *dt)
{
	switch (sc->resolve) {
	case IOS_SCOPE_FIXED:
		return sc->table;
	case IOS_SCOPE_BY_SCHED:
		return st ? st->tunables : NULL;
	case IOS_SCOPE_BY_DEVICE:
		return dt ? dt->tunables : NULL;
	case IOS_SCOPE_PATTERN:
		break;
	}
	return NULL;
}

const char *ios_scope_hint(char *buf, size_t len)
{
	size_t last = 0, off = 0;

	for (size_t i = 0; i < IOS_SCOPE_NR; i++)
		if (scopes[i].where != IOS_SCOPE_REPLAY_ONLY)
			last = i;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0, k = 0; i < IOS_SCOPE_NR && off < len; i++) {
		int w;

		if (scopes[i].where == IOS_SCOPE_REPLAY_ONLY)
			continue;
		w = snprintf(buf + off, len - off, "%s%s", !k ? "" : i == last ? " or " : ", ",
			     scopes[i].spelling);
		if (w < 0)
			break;
		off += (size_t)w;
		k++;
	}
	return buf;
}

void ios_scope_usage(struct ios_buf *out)
{
	bool first = true;

	for (size_t i = 0; i < IOS_SCOPE_NR; i++) {
		if (!scopes[i].usage)
			continue;
		ios_buf_printf(out, "%s%s", first ? "" : ", ", scopes[i].usage);
		first = false;
	}
}

int ios_scope_setup(enum ios_scope_id id, struct ios_settings *s, void *base, struct ios_err *e)
{
	const struct ios_scope *sc = ios_scope_get(id);
	int ret;

	if (!sc || sc->resolve != IOS_SCOPE_FIXED)
		return IOS_ERR(e, -EINVAL, "setting scope %d has no fixed table", (int)id);
	ret = ios_tunable_defaults(sc->table, base, e);
	if (!ret && s)
		ret = ios_settings_apply(s, sc->prefix, sc->table, base, e);
	return ret;
}
