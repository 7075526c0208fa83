/*
 * Description: --set cgroup.PATH.FILE=VALUE names (docs/cgroup-v2-plan.md
 * §6). FILE is found as the longest known cgroup v2 file name ending the
 * setting, so PATH may hold dots and slashes; the root-only and not-on-root
 * files are refused on the wrong level as the kernel's missing file is
 * (-ENOENT, naming CFTYPE_ONLY_ON_ROOT / CFTYPE_NOT_ON_ROOT); a MAJ:MIN
 * other than the simulated disk's is -ENODEV naming the right numbers; a
 * single-queue scheduler refuses every io.* file (-EOPNOTSUPP, naming the
 * blk-mq schedulers); a run with accepted files says once that they are
 * not modelled yet. Bad input exits 2 with the option in the message.
 */
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/blkcg.h"

struct name_row {
	const char *rest;	/* after "cgroup." */
	int ret;
	enum ios_blkcg_file f;
	size_t path_len;
};

static const struct name_row names[] = {
	{ "web.io.max", 0, IOS_BLKCG_MAX, 3 },
	{ "web.v2.io.max", 0, IOS_BLKCG_MAX, 6 },		/* dots in PATH */
	{ "web/api.io.latency", 0, IOS_BLKCG_LATENCY, 7 },	/* nesting */
	{ "a.io.bfq.weight", 0, IOS_BLKCG_BFQ_WEIGHT, 1 },	/* not io.weight of "a.io.bfq" */
	{ "a.io.weight", 0, IOS_BLKCG_WEIGHT, 1 },
	{ "io.cost.qos", 0, IOS_BLKCG_COST_QOS, 0 },		/* the root */
	{ "io.cost.model", 0, IOS_BLKCG_COST_MODEL, 0 },
	{ "x.io.cost.qos", 0, IOS_BLKCG_COST_QOS, 1 },	/* resolved; the root rule refuses it */
	{ "io.io.prio.class", 0, IOS_BLKCG_PRIO_CLASS, 2 },
	{ "a.ioprio", -2, 0, 0 },				/* the 2008 designs' setting */
	{ "a.xio.max", -2, 0, 0 },				/* a name must follow a dot */
	{ "a.io.maximum", -2, 0, 0 },
};

static int test_resolve(void)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct name_row *r = &names[i];
		enum ios_blkcg_file f = IOS_BLKCG_NR_FILES;
		size_t plen = 99;
		int ret = ios_blkcg_resolve(r->rest, &plen, &f);

		T_ASSERT_MSG(ret == r->ret, "'%s': %d, want %d", r->rest, ret, r->ret);
		if (ret)
			continue;
		T_ASSERT_MSG(f == r->f, "'%s': file %d, want %d", r->rest, (int)f, (int)r->f);
		T_ASSERT_MSG(plen == r->path_len, "'%s': path length %zu, want %zu", r->rest,
			     plen, r->path_len);
	}
	return T_PASS;
}

static char dir[] = "/tmp/iosched-blkcg-XXXXXX";

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

#define EXPECT(args, want_status, ...)                                             \
	do {                                                                       \
		const char *const needles_[] = { __VA_ARGS__, NULL };              \
		int st_;                                                           \
		char *out_ = t_run_iosched(args, &st_);                            \
		T_ASSERT(out_);                                                    \
		T_ASSERT_MSG(st_ == (want_status), "'%s': exit %d, want %d; output:\n%s", \
			     args, st_, want_status, out_);                        \
		for (const char *const *n_ = needles_; *n_; n_++)                  \
			T_ASSERT_MSG(strstr(out_, *n_), "'%s': output lacks '%s':\n%s", args, \
				     *n_, out_);                                   \
		T_ASSERT_MSG(count(out_, "not yet modelled") <= 1, "'%s': the note twice:\n%s", \
			     args, out_);                                          \
		free(out_);                                                        \
	} while (0)

static int test_cli(void)
{
	char job[512], args[2048];
	FILE *f;

	T_ASSERT(mkdtemp(dir));
	snprintf(job, sizeof(job), "%s/v2.fio", dir);
	f = fopen(job, "w");
	T_ASSERT(f);
	fputs("[global]\nrw=randread\ndirect=1\nsize=8m\nruntime=50ms\ntime_based\n"
	      "[a]\ncgroup=web.v2/api\n[b]\ncgroup=batch\n", f);
	fclose(f);

	/* accepted: dots and nesting in PATH, the root's files, the note once */
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.web.v2/api.io.max="
		 "rbps=1048576 --set cgroup.web.v2.io.weight=500 --set 'cgroup.io.cost.qos=enable=1 "
		 "ctrl=auto' --set cgroup.batch.io.prio.class=idle", job);
	/*
	 * io.max (3), io.cost (4a) and io.prio.class (6) are modelled: no "not
	 * yet" note, but what io.cost still lacks is said; io.weight is read
	 */
	EXPECT(args, 0, "io.prio.class: none reads no I/O priority",
	       "io.cost: not modelled: debt from REQ_SWAP");
	{
		int st;
		char *out = t_run_iosched(args, &st);

		T_ASSERT(out);
		T_ASSERT_MSG(!strstr(out, "io.weight does nothing"), "io.cost is on:\n%s", out);
		free(out);
	}
	snprintf(args, sizeof(args), "run %s --scheduler mq-deadline-6.12 --device ssd-nvme "
		 "--set 'cgroup.batch.io.latency=259:0 target=500'", job);
	/* io.latency is modelled (step 5): its own note, not the "not yet" one */
	EXPECT(args, 0, "io.latency: batch (target 500 us)");
	/* no io.* setting: no note */
	snprintf(args, sizeof(args), "run %s --scheduler none", job);
	{
		int st;
		char *out = t_run_iosched(args, &st);

		T_ASSERT(out);
		T_ASSERT_EQ(st, 0);
		T_ASSERT_MSG(!strstr(out, "not yet modelled"), "a note without settings:\n%s", out);
		free(out);
	}
	/* the root rules */
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.io.max=rbps=1", job);
	EXPECT(args, 2, "--set: cgroup.io.max", "io.max does not exist on the root cgroup",
	       "CFTYPE_NOT_ON_ROOT");
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup./.io.weight=5", job);
	EXPECT(args, 2, "CFTYPE_NOT_ON_ROOT");
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.batch.io.cost.model="
		 "ctrl=auto", job);
	EXPECT(args, 2, "io.cost.model exists only on the root cgroup", "CFTYPE_ONLY_ON_ROOT",
	       "cgroup.io.cost.model");
	/* the root has io.prio.class (no flag in blk-ioprio.c's ioprio_files) */
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.io.prio.class=idle", job);
	EXPECT(args, 0, "io.prio.class: none reads no I/O priority");
	/* a group no job is in */
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.web.io.max=rbps=1", job);
	EXPECT(args, 2, "no job is in cgroup 'web'");
	/* MAJ:MIN: the simulated disk's, else -ENODEV naming it */
	snprintf(args, sizeof(args), "run %s --scheduler none --device ssd-nvme --set "
		 "'cgroup.batch.io.max=8:0 rbps=1'", job);
	EXPECT(args, 2, "no device 8:0", "nvme0n1, 259:0", "-ENODEV");
	snprintf(args, sizeof(args), "run %s --scheduler none --device cloud --set "
		 "'cgroup.batch.io.max=259:0 rbps=1'", job);
	EXPECT(args, 0, "b: (groupid");
	snprintf(args, sizeof(args), "run %s --scheduler none --set 'cgroup.batch.io.max=259:0 "
		 "rbps=1'", job);
	EXPECT(args, 2, "sda, 8:0");
	/* the single-queue layer */
	snprintf(args, sizeof(args), "run %s --scheduler cfq-4.19 --set cgroup.batch.io.weight=100",
		 job);
	EXPECT(args, 2, "--set: cgroup.batch.io.weight", "modelled on blk-mq (Linux 6.12)",
	       "cfq-4.19 runs the single-queue layer", "-EOPNOTSUPP", "none, mq-deadline-6.6");
	snprintf(args, sizeof(args), "run %s --scheduler bfq --set cgroup.batch.io.bfq.weight=100",
		 job);
	EXPECT(args, 2, "bfq runs the single-queue layer", "bfq-6.12");
	/* a value the parser refuses: exit 2, the option and the rule */
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.batch.io.weight=10001",
		 job);
	EXPECT(args, 2, "cgroup.batch.io.weight=10001", "outside 1..10000", "ioc_weight_write");
	/* not a v2 file: the spellings */
	snprintf(args, sizeof(args), "run %s --scheduler none --set cgroup.batch.io.weights=1", job);
	EXPECT(args, 2, "unknown setting 'cgroup.batch.io.weights'", "io.bfq.weight",
	       "cgroup.PATH.ioprio");
	/* lab.hz and lab.kernel (bfq-6.12 turns wbt off: nothing reads lab.hz yet) */
	snprintf(args, sizeof(args),
		 "run %s --scheduler bfq-6.12 --set lab.hz=1000 --set lab.kernel=6.6", job);
	EXPECT(args, 0, "lab.hz (read by", "lab.kernel (read by");
	/* under none writeback throttling's window reads lab.hz: no note for it */
	snprintf(args, sizeof(args), "run %s --scheduler none --set lab.hz=1000 --set lab.kernel=6.6",
		 job);
	EXPECT(args, 0, "lab.kernel (read by");
	{
		int st;
		char *out = t_run_iosched(args, &st);

		T_ASSERT(out);
		T_ASSERT_MSG(!strstr(out, "lab.hz (read by"), "'%s': lab.hz noted:\n%s", args, out);
		free(out);
	}
	snprintf(args, sizeof(args), "run %s --set lab.hz=200", job);
	EXPECT(args, 2, "lab.hz=200", "100|250|300|1000");
	snprintf(args, sizeof(args), "run %s --set lab.kernel=6.1", job);
	EXPECT(args, 2, "lab.kernel=6.1", "auto|6.6|6.12");
	unlink(job);
	rmdir(dir);
	return T_PASS;
}

int main(void)
{
	int ret = T_RUN(test_resolve);

	if (ret || access(t_iosched_bin(), X_OK))
		return ret;
	return T_RUN(test_cli);
}
