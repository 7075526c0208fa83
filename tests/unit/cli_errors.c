/*
 * Description: bad input on the command line, in --set values and in job
 * files gives a clear message on stderr that names the input (file, line,
 * option, allowed range) and a non-zero exit; never a crash. Good input
 * exits 0.
 */
#include <string.h>
#include <unistd.h>
#include "harness.h"

static char dir[] = "/tmp/iosched-cli-XXXXXX";

static int write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	return 0;
}

/* run iosched with @args; stderr merged into the returned output */
static char *run(const char *args, int *status)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", t_iosched_bin(), args);
	return t_run_cmd(cmd, status);
}

#define EXPECT(args, want_status, needle)                                          \
	do {                                                                       \
		int st_;                                                           \
		char *out_ = run(args, &st_);                                      \
		T_ASSERT(out_);                                                    \
		T_ASSERT_MSG(st_ == (want_status), "'%s': exit %d, want %d; output:\n%s", \
			     args, st_, want_status, out_);                        \
		T_ASSERT_MSG(strstr(out_, needle), "'%s': output lacks '%s':\n%s", args, \
			     needle, out_);                                        \
		T_ASSERT_MSG(!strstr(out_, "Sanitizer") && !strstr(out_, "BUG at"), \
			     "'%s' crashed:\n%s", args, out_);                     \
		free(out_);                                                        \
	} while (0)

static int test_errors(void)
{
	char good[512], badprio[512], nosize[512], args[2048];

	T_ASSERT(mkdtemp(dir));
	T_ASSERT_EQ(write_file("good.fio", "[r]\nrw=randread\ndirect=1\nsize=16m\nruntime=200ms\n",
			       good, sizeof(good)), 0);
	T_ASSERT_EQ(write_file("badprio.fio", "[global]\ndirect=1\n\n[r]\nsize=1m\nprio=9\n",
			       badprio, sizeof(badprio)), 0);
	T_ASSERT_EQ(write_file("nosize.fio", "[r]\nrw=read\ndirect=1\nfilename=data\n",
			       nosize, sizeof(nosize)), 0);

	snprintf(args, sizeof(args), "run %s", good);
	EXPECT(args, 0, "Run status group 0");
	snprintf(args, sizeof(args), "run %s --scheduler nosuch", good);
	EXPECT(args, 2, "unknown scheduler 'nosuch'");
	/*
	 * cfq-2.6.31-rc7 was removed (2.6.31-rc7's CFQ is 2.6.31's): old scripts
	 * get the known names, which include cfq, the 2.6.31 profile
	 */
	snprintf(args, sizeof(args), "run %s --scheduler cfq-2.6.31-rc7", good);
	EXPECT(args, 2, "unknown scheduler 'cfq-2.6.31-rc7' (did you mean 'cfq-2.6.31'?) (known: "
		     "noop, deadline, bfq, anticipatory, cfq, cfq-2.6.33, cfq-4.19, ");
	snprintf(args, sizeof(args), "run %s --scheduler deadline --set read_expire=abc", good);
	EXPECT(args, 2, "read_expire=abc");
	snprintf(args, sizeof(args), "run %s --scheduler deadline --set fifo_batch=-1", good);
	EXPECT(args, 2, "fifo_batch");
	/* a tunable out of its range names the tunable, the profile and the range */
	/*
	 * a legacy scheduler's tunable given to a blk-mq one: the message names
	 * who has it, in registry order (the needles stop before the names
	 * later profiles may add)
	 */
	snprintf(args, sizeof(args), "run %s --scheduler none --set slice_idle=0", good);
	EXPECT(args, 2, "--set: scheduler 'none' has no tunable 'slice_idle' (bfq, cfq, cfq-2.6.33");
	snprintf(args, sizeof(args), "run %s --scheduler none --set read_expire=100", good);
	EXPECT(args, 2, "scheduler 'none' has no tunable 'read_expire' (deadline, anticipatory");
	snprintf(args, sizeof(args), "run %s --scheduler none --set no_such_knob=1", good);
	EXPECT(args, 2, "scheduler 'none' has no tunable 'no_such_knob' (see 'iosched list')");
	/* the legacy schedulers' messages stay as they were */
	snprintf(args, sizeof(args), "run %s --scheduler deadline --set slice_idle=0", good);
	EXPECT(args, 2, "scheduler 'deadline' has no tunable 'slice_idle' (see 'iosched list')");
	snprintf(args, sizeof(args), "run %s --scheduler cfq-4.19 --set quantum=0", good);
	EXPECT(args, 2, "--set: quantum=0: out of range for cfq-4.19, allowed 1..2147483647");
	snprintf(args, sizeof(args), "run %s --scheduler cfq-2.6.33 --set slice_idle=3600001", good);
	EXPECT(args, 2, "slice_idle=3600001: out of range for cfq-2.6.33, allowed 0..3600000 ms");
	snprintf(args, sizeof(args), "run %s --scheduler deadline --set fifo_batch=-1", good);
	EXPECT(args, 2, "fifo_batch=-1: out of range for deadline, allowed 0..");
	snprintf(args, sizeof(args), "run %s --device ssd --set device.nosuch=1", good);
	EXPECT(args, 2, "unknown tunable 'device.nosuch' for ssd");
	snprintf(args, sizeof(args), "run %s --scheduler deadline --set slice_idle=0", good);
	EXPECT(args, 2, "no tunable 'slice_idle'");
	snprintf(args, sizeof(args), "run %s --set queue.nr_requests=1", good);
	EXPECT(args, 2, "allowed 4..1048576");
	snprintf(args, sizeof(args), "run %s --set queue.nosuch=1", good);
	EXPECT(args, 2, "queue.nosuch");
	snprintf(args, sizeof(args), "run %s --set device.rpm=0", good);
	EXPECT(args, 2, "device.rpm=0: out of range for hdd-2009, allowed 1000..30000 rpm");
	/* the cloud volume's tunables: the option, the profile and the range */
	snprintf(args, sizeof(args), "run %s --device cloud --set device.iops=0", good);
	EXPECT(args, 2, "device.iops=0: out of range for cloud, allowed 1..256000");
	snprintf(args, sizeof(args), "run %s --device cloud --set device.throughput_mibps=5000", good);
	EXPECT(args, 2, "device.throughput_mibps=5000: out of range for cloud, allowed 1..4000 MiB/s");
	snprintf(args, sizeof(args), "run %s --device cloud-gp2 --set device.burst_balance_pct=150",
		 good);
	EXPECT(args, 2, "device.burst_balance_pct=150: out of range for cloud-gp2, allowed 0..100 %");
	snprintf(args, sizeof(args), "run %s --device cloud --set device.burst_credits=1000", good);
	EXPECT(args, 2, "device.burst_credits=1000 needs device.burst_iops above device.iops=3000");
	snprintf(args, sizeof(args), "run %s --device cloud --set device.latency_us=-1", good);
	EXPECT(args, 2, "device.latency_us=-1");
	/* cgroup v2 files (docs/cgroup-v2.md): the kernel parser's rule, the single-queue refusal */
	snprintf(args, sizeof(args), "run %s --scheduler none --set 'cgroup.io.cost.qos=min=150 "
		 "max=100'", good);
	EXPECT(args, 2, "cgroup.io.cost.qos=min=150 max=100: min 150.00 % is above max 100.00 %");
	snprintf(args, sizeof(args), "run %s --scheduler deadline --set cgroup.io.prio.class=idle",
		 good);
	EXPECT(args, 2, "deadline runs the single-queue layer (-EOPNOTSUPP)");
	snprintf(args, sizeof(args), "run %s --set foo.bar=1", good);
	EXPECT(args, 2, "foo.bar");
	/* lab.fs: the four layouts and auto, by name (issue 30: ext4 and auto added) */
	snprintf(args, sizeof(args), "run %s --set lab.fs=ext5", good);
	EXPECT(args, 2, "lab.fs=ext5: expected one of the listed names (allowed ext3|extent|raw|ext4|auto)");
	snprintf(args, sizeof(args), "run %s --set lab.fs=EXT4", good);
	EXPECT(args, 2, "lab.fs=EXT4: expected one of the listed names");
	snprintf(args, sizeof(args), "run %s --set lab.fs=", good);
	EXPECT(args, 2, "lab.fs=: expected one of the listed names");
	snprintf(args, sizeof(args), "run %s --set lab.fs=ext4 --scheduler deadline", good);
	EXPECT(args, 0, "Run status group 0");
	snprintf(args, sizeof(args), "run %s --set lab.submit_ns=2s", good);
	EXPECT(args, 2, "lab.submit_ns");
	/* every lab.cpu.* cost: its name, the value and the range (issue 29, step 11) */
	{
		static const char *const cpu[] = {
			"lab.cpu.submit_ns", "lab.cpu.complete_ns",
			"lab.cpu.mq-deadline.insert_ns", "lab.cpu.mq-deadline.dispatch_ns",
			"lab.cpu.mq-deadline.complete_ns", "lab.cpu.kyber.insert_ns",
			"lab.cpu.kyber.dispatch_ns", "lab.cpu.kyber.complete_ns",
			"lab.cpu.bfq.insert_ns", "lab.cpu.bfq.dispatch_ns", "lab.cpu.bfq.complete_ns",
		};
		char want[160];

		for (size_t i = 0; i < sizeof(cpu) / sizeof(cpu[0]); i++) {
			snprintf(args, sizeof(args), "run %s --scheduler bfq-6.12 --set %s=2s", good,
				 cpu[i]);
			snprintf(want, sizeof(want), "%s=2s: out of range, allowed 0..1000000000 ns",
				 cpu[i]);
			EXPECT(args, 2, want);
			snprintf(args, sizeof(args), "run %s --set %s=-1", good, cpu[i]);
			EXPECT(args, 2, cpu[i]);
		}
	}
	snprintf(args, sizeof(args), "run %s --set lab.cpu.model=off", good);
	EXPECT(args, 2, "lab.cpu.model=off: expected one of the listed names (allowed measured|zero)");
	snprintf(args, sizeof(args), "run %s --set noequals", good);
	EXPECT(args, 2, "NAME=VALUE");
	snprintf(args, sizeof(args), "run %s --device nosuch", good);
	EXPECT(args, 2, "nosuch");
	snprintf(args, sizeof(args), "run %s --output-format=xml", good);
	EXPECT(args, 2, "normal, json");
	snprintf(args, sizeof(args), "run %s --seed=-3", good);
	EXPECT(args, 2, "--seed");
	snprintf(args, sizeof(args), "run %s --bogus", good);
	EXPECT(args, 2, "unknown option '--bogus'");
	snprintf(args, sizeof(args), "run %s/missing.fio", dir);
	EXPECT(args, 2, "missing.fio");
	snprintf(args, sizeof(args), "run %s", badprio);
	EXPECT(args, 2, "badprio.fio:6: option 'prio=9': out of range, allowed 0..7");
	/* ionice class and level out of range: file, line, option and range */
	T_ASSERT_EQ(write_file("badprio8.fio", "[r]\nsize=1m\nprioclass=2\nprio=8\n",
			       badprio, sizeof(badprio)), 0);
	snprintf(args, sizeof(args), "run %s", badprio);
	EXPECT(args, 2, "badprio8.fio:4: option 'prio=8': out of range, allowed 0..7");
	T_ASSERT_EQ(write_file("badclass.fio", "[global]\nprioclass=4\n[r]\nsize=1m\n",
			       badprio, sizeof(badprio)), 0);
	snprintf(args, sizeof(args), "run %s", badprio);
	EXPECT(args, 2, "badclass.fio:2: option 'prioclass=4': out of range, allowed 0..3");
	snprintf(args, sizeof(args), "run %s", nosize);
	EXPECT(args, 2, "lab.file_size");
	snprintf(args, sizeof(args), "run %s --set lab.file_size=64m --set lab.max_sim_time=1", nosize);
	EXPECT(args, 0, "Run status group 0");
	EXPECT("frobnicate", 2, "unknown command");
	EXPECT("run", 2, "no job file");
	EXPECT("--version", 0, "iosched ");
	EXPECT("list", 0, "read_expire");
	return T_PASS;
}

int main(void)
{
	int ret;

	if (access(t_iosched_bin(), X_OK))
		return T_SKIP;
	ret = T_RUN(test_errors);
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd)) {
		}
	}
	return ret;
}
