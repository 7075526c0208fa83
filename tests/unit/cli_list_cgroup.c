/*
 * Description: `iosched list` shows the cgroup v2 files (plan §12 step 11)
 * from the file table of src/block/blkcg_conf.c: each file's entry names
 * where it exists (root only / not on root / every group, from its cftype
 * flags as blk-iocost.c's ioc_files and the others set them), the Linux
 * 6.12 function and file that parse it, its syntax, who reads it, and
 * whether it is modelled or which plan step models it; also the lab's
 * cgroup.PATH.systemd.IOWeight and the two carriers (--set and fio's
 * exec_prerun). Fails if the list drops the section, a file, or prints a
 * file's root rule, parser or reader other than its table row's.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/blkcg.h"

/* every row carries the text the list prints: nothing to fall back on */
static int test_table_complete(void)
{
	for (int f = 0; f < IOS_BLKCG_NR_FILES; f++) {
		const struct ios_blkcg_cftype *ct = ios_blkcg_cftype(f);

		T_ASSERT(ct);
		T_ASSERT_MSG(ct->name && ct->kfunc && ct->kfile && ct->syntax,
			     "row %d incomplete", f);
		T_ASSERT_MSG(ct->readers && *ct->readers, "%s: no readers", ct->name);
	}
	T_ASSERT(!ios_blkcg_cftype(IOS_BLKCG_NR_FILES));
	return T_PASS;
}

/* the entry of @name: from its line to the next entry's (or the end) */
static char *entry(const char *section, const char *name)
{
	char want[64];
	const char *p, *next;

	snprintf(want, sizeof(want), "\n    %s ", name);
	p = strstr(section, want);
	if (!p)
		return NULL;
	p++;
	next = strstr(p + 1, "\n    ");
	while (next && next[5] == ' ')	/* an indented detail line, not an entry */
		next = strstr(next + 1, "\n    ");
	return strndup(p, next ? (size_t)(next - p) : strlen(p));
}

static int test_list(void)
{
	char cmd[1024];
	int status;
	char *out, *sec;

	snprintf(cmd, sizeof(cmd), "%s list 2>&1", t_iosched_bin());
	out = t_run_cmd(cmd, &status);
	T_ASSERT(out);
	T_ASSERT_EQ(status, 0);
	sec = strstr(out, "\ncgroup v2 files (blk-mq only");
	T_ASSERT_MSG(sec, "no cgroup v2 section");
	T_ASSERT(strstr(sec, "--set cgroup.PATH.FILE=VALUE"));
	T_ASSERT(strstr(sec, "exec_prerun=echo VALUE > /sys/fs/cgroup/PATH/FILE"));
	for (int f = 0; f < IOS_BLKCG_NR_FILES; f++) {
		const struct ios_blkcg_cftype *ct = ios_blkcg_cftype(f);
		const char *where = ct->flags & IOS_CFTYPE_ONLY_ON_ROOT  ? " root only "
				    : ct->flags & IOS_CFTYPE_NOT_ON_ROOT ? " not on root "
									 : " every group ";
		char *e = entry(sec, ct->name), *line, kf[128], mod[128];

		T_ASSERT_MSG(e, "list lacks %s", ct->name);
		line = strndup(e, strcspn(e, "\n"));
		T_ASSERT_MSG(strstr(line, where), "%s: line '%s' lacks '%s'", ct->name, line, where);
		snprintf(kf, sizeof(kf), "%s, %s", ct->kfunc, ct->kfile);
		T_ASSERT_MSG(strstr(line, kf), "%s: line '%s' lacks '%s'", ct->name, line, kf);
		T_ASSERT_MSG(strstr(e, ct->syntax), "%s: no syntax", ct->name);
		T_ASSERT_MSG(strstr(e, ct->readers), "%s: no 'read by'", ct->name);
		if (ct->modelled_by)
			snprintf(mod, sizeof(mod), "modelled by: %s ", ct->modelled_by);
		else
			snprintf(mod, sizeof(mod), "modelled: yes");
		T_ASSERT_MSG(strstr(e, mod), "%s: lacks '%s'", ct->name, mod);
		free(line);
		free(e);
	}
	/* the rule checks above are not vacuous: the root-only files read so */
	{
		char *e = entry(sec, "io.cost.qos");

		T_ASSERT(e && strstr(e, " root only ") && !strstr(e, "not on root"));
		free(e);
		e = entry(sec, "io.prio.class");
		T_ASSERT(e && strstr(e, " every group "));
		free(e);
	}
	{
		char *e = entry(sec, "systemd.IOWeight");

		T_ASSERT_MSG(e, "list lacks systemd.IOWeight");
		T_ASSERT(strstr(e, "cgroup.PATH.systemd.IOWeight=N"));
		T_ASSERT(strstr(e, "io.weight \"default N\" and io.bfq.weight BFQ_WEIGHT(N)"));
		free(e);
	}
	free(out);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_table_complete);

	if (ret || access(t_iosched_bin(), X_OK))
		return ret;
	return T_RUN(test_list);
}
