/*
 * iosched list: what the lab has, straight from the registries and the
 * tunable tables (nothing here is typed twice).
 */
#include <string.h>
#include "cli.h"
#include "iosched/blkcg.h"
#include "iosched/host.h"
#include "iosched/replay.h"
#include "iosched/scope.h"

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

/* One row per tunable of a device type, one value column per profile of that type. */
static void print_device_type(const struct ios_dev_type *dt)
{
	const struct ios_dev_profile *dp;
	struct ios_dev *devs[8];
	const struct ios_tunable *t;
	size_t n = 0;

	for (size_t i = 0; (dp = ios_dev_profile_at(i)) != NULL && n < 8; i++) {
		struct ios_err e = { 0 };

		if (strcmp(dp->type, dt->name))
			continue;
		devs[n] = ios_dev_create(dp->name, NULL, 0, &e);
		if (devs[n])
			n++;
	}
	printf("\nDevice type '%s' (--set device.NAME=VALUE):\n", dt->name);
	printf("    %-22s %-8s %-18s", "tunable", "unit", "range");
	for (size_t k = 0; k < n; k++)
		printf(" %-14s", devs[k]->profile);
	printf(" %s\n", "");
	ios_tunable_for_each(t, dt->tunables) {
		char range[128];

		if (t->flags & IOS_TUN_HIDDEN)
			continue;
		ios_tunable_range(t, range, sizeof(range));
		printf("    device.%-15s %-8s %-18s", t->name, t->unit && *t->unit ? t->unit : "-",
		       range);
		for (size_t k = 0; k < n; k++) {
			char v[64];

			ios_tunable_show(t, devs[k], v, sizeof(v));
			printf(" %-14s", v);
		}
		printf(" %s\n", t->help ? t->help : "");
	}
	for (size_t k = 0; k < n; k++)
		ios_dev_destroy(devs[k]);
}

/* --device X: its tunables as set, and what its ctl DESCRIBE says (a DiskSim spec's tables). */
static int print_device(const char *profile)
{
	struct ios_err e = { 0 };
	struct ios_dev *dev = ios_dev_create(profile, NULL, 0, &e);
	struct ios_buf b;

	if (!dev) {
		fprintf(stderr, "iosched: list --device %s: %s\n", profile, e.msg);
		return CLI_EXIT_USAGE;
	}
	printf("\nDevice %s (type %s; --set device.NAME=VALUE):\n", profile, dev->type->name);
	print_table("device.", dev->type->tunables, dev);
	ios_buf_init(&b);
	if (dev->type->ops.ctl && !dev->type->ops.ctl(dev, IOS_DEV_CTL_DESCRIBE, &b) && b.s)
		fputs(b.s, stdout);
	ios_buf_free(&b);
	ios_dev_destroy(dev);
	return CLI_EXIT_OK;
}

/* What a scheduler does with cgroups, and the lab.group_policy designs built on it. */
static void print_cgroups(const struct ios_sched_type *st)
{
	const struct ios_sched_cgroups *cg = st->cgroups;
	const struct ios_tunable *gpt = ios_tunable_find(ios_lab_tunables_table, "group_policy");

	if (cg && cg->groups && cg->weight_max)
		printf("    cgroups: %s %u..%u (default %u)%s\n", cg->weight_file ? cg->weight_file
									   : "weight",
		       cg->weight_min, cg->weight_max, cg->weight_default,
		       cg->nested ? ", nested groups" : ", flat groups");
	for (int gp = 0; cg && gp < IOS_GROUP_POLICY_NR; gp++) {
		const struct ios_sched_type *v = cg->policy[gp];
		const struct ios_tunable *t;

		if (!v)
			continue;
		printf("    with --set lab.group_policy=%s: %s\n", gpt ? gpt->choices[gp] : v->name,
		       v->desc ? v->desc : "");
		/* its own tunables, beyond the ones listed above */
		ios_tunable_for_each(t, v->tunables) {
			if (!(t->flags & IOS_TUN_HIDDEN) && !ios_tunable_find(st->tunables, t->name)) {
				const struct ios_tunable one[2] = { *t, { 0 } };

				print_table("", one, NULL);
			}
		}
	}
}

/*
 * The cgroup v2 files, each from its row of the file table (blkcg_conf.c),
 * so the CLI, the parsers' messages and docs/cgroup-v2.md say the same.
 */
static void print_cgroup_v2(void)
{
	const struct ios_blkcg_cftype *ct;

	printf("\ncgroup v2 files (blk-mq only; single-queue schedulers refuse them):\n");
	printf("  --set cgroup.PATH.FILE=VALUE (the root's: cgroup.FILE), or in a job file fio's\n"
	       "  exec_prerun=echo VALUE > /sys/fs/cgroup/PATH/FILE; MAJ:MIN optional\n");
	printf("    %-16s %-12s %s\n", "file", "where", "parser (Linux 6.12)");
	for (int f = 0; (ct = ios_blkcg_cftype(f)) != NULL; f++) {
		const char *where = ct->flags & IOS_CFTYPE_ONLY_ON_ROOT  ? "root only"
				    : ct->flags & IOS_CFTYPE_NOT_ON_ROOT ? "not on root"
									 : "every group";

		printf("    %-16s %-12s %s, %s\n", ct->name, where, ct->kfunc, ct->kfile);
		printf("        syntax: %s%s\n", ct->syntax,
		       ct->flags & IOS_CFTYPE_PER_DEVICE ? " (per device)" : "");
		printf("        read by: %s\n", ct->readers);
		if (ct->modelled_by)
			printf("        modelled by: %s of docs/cgroup-v2-plan.md section 12 (its row "
			       "says what is left)\n", ct->modelled_by);
		else
			printf("        modelled: yes\n");
	}
	/* run/cgroup.c's cg_systemd_ioweight */
	printf("    %-16s %-12s %s\n", "systemd.IOWeight", "not on root",
	       "lab convenience named after systemd's IOWeight= (cgroup.PATH.systemd.IOWeight=N)");
	printf("        syntax: N 1..10000\n");
	printf("        writes: io.weight \"default N\" and io.bfq.weight BFQ_WEIGHT(N), as "
	       "systemd's cgroup_apply_io_weight and set_bfq_weight do\n");
}

int cmd_list(int argc, char **argv)
{
	const struct ios_sched_type *st;
	const struct ios_dev_type *dt;
	const struct ios_dev_profile *dp;
	const struct ios_scope *sc;

	struct list_args { const char *device; } la = { NULL };
	static const struct ios_cl_opt list_opts[] = {
		{ .name = "--device", .kind = IOS_CL_STR, .off = offsetof(struct list_args, device),
		  .metavar = "PROFILE", .help = "also list this device's parameters (disksim:PATH: the spec's)" },
		{ .name = NULL },
	};
	const struct ios_cl_group groups[] = { { cli_help_table, NULL, 0 }, { list_opts, &la, 0 } };
	/* no positional arguments: nothing to list by, an argument is a mistake */
	const struct ios_cl_cmd cmd = { "list", "iosched --help", groups, 2, NULL, NULL, false };
	int r = cli_parse(&cmd, argc, argv);

	if (r == IOS_CL_HELP_SEEN) {
		cli_usage(stdout);
		return CLI_EXIT_OK;
	}
	if (r < 0)
		return CLI_EXIT_USAGE;
	if (la.device) {	/* a bad spec is refused before the listing */
		struct ios_err e = { 0 };
		struct ios_dev *dev = ios_dev_create(la.device, NULL, 0, &e);

		if (!dev) {
			fprintf(stderr, "iosched: list --device %s: %s\n", la.device, e.msg);
			return CLI_EXIT_USAGE;
		}
		ios_dev_destroy(dev);
	}
	printf("Schedulers (--scheduler NAME, default %s; tunables: --set NAME=VALUE):\n",
	       IOS_DEFAULT_SCHEDULER);
	printf("  [single-queue]: the Linux 2.6-4.x block layer; [blk-mq]: today's (Linux 5.0+)\n");
	printf("    %-30s %-12s %-8s %-22s %s\n", "tunable", "default", "unit", "range", "");
	for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++) {
		/* the layer the queue is built with (ios_queue_create reads the descriptor's) */
		const char *layer = ios_sched_layer(st) == IOS_SCHED_LAYER_MQ ? "blk-mq" : "single-queue";

		printf("  %s%s%s%s [%s]  %s\n", st->name, st->alias ? " (alias " : "",
		       st->alias ? st->alias : "", st->alias ? ")" : "", layer,
		       st->desc ? st->desc : "");
		print_table("", st->tunables, NULL);
		print_cgroups(st);
	}
	printf("\nDevices (--device PROFILE; default %s):\n", IOS_DEV_DEFAULT_PROFILE);
	for (size_t i = 0; (dp = ios_dev_profile_at(i)) != NULL; i++)
		printf("  %-12s %-6s %s\n", dp->name, dp->type, dp->desc ? dp->desc : "");
	for (size_t i = 0; (dt = ios_dev_type_at(i)) != NULL; i++)
		print_device_type(dt);
	printf("\nReal disk (--real: the disk under the jobs' files; --set device.NAME=VALUE):\n");
	print_table("device.", ios_host_uring_dev_tunables, NULL);
	/* the scopes with a table of their own (the registry, iosched/scope.h) */
	for (size_t i = 0; (sc = ios_scope_at(i)) != NULL; i++) {
		if (sc->resolve != IOS_SCOPE_FIXED || !sc->list_title)
			continue;
		printf("\n%s\n", sc->list_title);
		print_table(sc->prefix, sc->table, NULL);
	}
	print_cgroup_v2();
	return la.device ? print_device(la.device) : CLI_EXIT_OK;
}
