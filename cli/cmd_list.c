/*
 * iosched list: what the lab has, straight from the registries and the
 * tunable tables (nothing here is typed twice).
 */
#include <string.h>
#include "cli.h"

static void print_table(const char *scope, const struct ios_tunable *tab, const void *base)
{
	const struct ios_tunable *t;

	ios_tunable_for_each(t, tab) {
		char name[96], def[64], range[256];

		if (t->flags & IOS_TUN_HIDDEN)
			continue;
		snprintf(name, sizeof(name), "%s%s", scope, t->name);
		if (base)
			ios_tunable_show(t, base, def, sizeof(def));
		else
			snprintf(def, sizeof(def), "%s", t->def ? t->def : "(device)");
		ios_tunable_range(t, range, sizeof(range));
		printf("    %-30s %-12s %-8s %-22s %s%s\n", name, def, t->unit && *t->unit ? t->unit : "-",
		       range, t->flags & IOS_TUN_RO ? "(read-only) " : "", t->help ? t->help : "");
	}
}

int cmd_list(int argc, char **argv)
{
	const struct ios_sched_type *st;
	const struct ios_dev_type *dt;
	const struct ios_dev_profile *dp;

	(void)argc;
	(void)argv;
	printf("%-34s %-12s %-8s %-22s %s\n", "", "default", "unit", "range", "");
	printf("Schedulers (--scheduler NAME; tunables: --set NAME=VALUE):\n");
	for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++) {
		printf("  %s%s%s%s  %s\n", st->name, st->alias ? " (alias " : "",
		       st->alias ? st->alias : "", st->alias ? ")" : "", st->desc ? st->desc : "");
		print_table("", st->tunables, NULL);
	}
	printf("\nDevices (--device PROFILE; default %s):\n", IOS_DEV_DEFAULT_PROFILE);
	for (size_t i = 0; (dp = ios_dev_profile_at(i)) != NULL; i++) {
		printf("  %-12s %-6s %s\n", dp->name, dp->type, dp->desc ? dp->desc : "");
		for (const char *const *s = dp->settings; s && *s; s++)
			printf("      %s\n", *s);
	}
	for (size_t i = 0; (dt = ios_dev_type_at(i)) != NULL; i++) {
		printf("\nDevice type '%s' tunables (--set device.NAME=VALUE; profiles override the defaults):\n",
		       dt->name);
		print_table("device.", dt->tunables, NULL);
	}
	printf("\nQueue tunables (/sys/block/X/queue/):\n");
	print_table("queue.", ios_queue_tunables_table, NULL);
	printf("\nLab tunables (only in this lab):\n");
	print_table("lab.", ios_lab_tunables_table, NULL);
	return CLI_EXIT_OK;
}
