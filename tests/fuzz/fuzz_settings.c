/*
 * libFuzzer target for --set values and the tunable tables, each input
 * followed by a tiny run: the job-file and trace fuzzers never get past
 * parsing into the schedulers, so scheduler bugs (a context freed while its
 * requests were in flight, issue 12) went unseen. This one drives the
 * whole stack: scheduler, block layer, page cache and device.
 *
 * The input is read as a program, not text, so that mutations land on real
 * names:
 *   byte 0  scheduler (every registered one, profiles included), modulo
 *   byte 1  device profile, modulo
 *   byte 2  one of a few tiny job files (runtime cut with numjobs, buffered
 *           writes with fsync beside direct reads, cgroups and ioprio
 *           classes, readahead with think time, readers of one file that
 *           CFQ 2.6.33+ merges)
 *   then records: table, index, kind, length, bytes[length]
 *     table  0 scheduler, 1 queue., 2 device., 3 lab., 4 vm.: the entry
 *            @index (modulo the table's size, read-only ones included, so
 *            refusals are exercised too) set to a value of @kind: its min,
 *            max, one below, one above, its default, 0, a number from the
 *            bytes with a unit suffix, or the bytes as they are;
 *            5 the bytes as a raw NAME=VALUE (unknown names, cgroup.*);
 *            6 the bytes as one more option line of the job file's last job;
 *            7 a cgroup v2 file (cgroup.PATH.io.*) of the root or a group,
 *            @index choosing both, the bytes as its value.
 * lab.max_sim_time is the fuzzer's own (0.3 s simulated): a record may not
 * set it, so every run is short. device.capacity starts at 4 GiB (a record
 * may change it): laying out a 1 TB disk would cost more than the run.
 *
 * Properties: no crash, no sanitizer report, no invariant abort; a refused
 * input says why (a message). Build: make fuzz; run:
 * build/fuzz/fuzz_settings tests/fuzz/corpus-settings
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/blkcg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const fz_jobs[] = {
	"[global]\nsize=1m\nruntime=50ms\n[j]\nnumjobs=2\n",
	"[global]\nsize=512k\n[w]\nrw=write\nbs=16k\nfsync=8\n"
	"[r]\nrw=randread\nbs=4k\ndirect=1\nioengine=libaio\niodepth=4\nruntime=100ms\n",
	"[global]\nsize=256k\nbs=4k\ndirect=1\nruntime=80ms\n"
	"[a]\ncgroup=a\ncgroup_weight=500\nprio=2\nrw=read\n"
	"[b]\ncgroup=b\nrw=randrw\nprioclass=3\n[c]\nprioclass=1\nrw=randread\n",
	"[global]\nsize=2m\nbs=4k\n[s]\nrw=read\nthinktime=1ms\nruntime=50ms\n"
	"[o]\nrw=write\nsync=1\nsize=128k\n[m]\nrw=randread\nnumjobs=3\nsize=512k\nruntime=20ms\n",
	/* close cooperators: CFQ 2.6.33+ merges their queues, then they exit */
	"[global]\nfilename=shared\nsize=2m\nbs=4k\ndirect=1\nrw=read\n"
	"[a]\nnumjobs=3\nruntime=60ms\n[b]\noffset=8k\nruntime=40ms\n",
};

#define FZ_MAX_SETTINGS 24
#define FZ_MAX_JOB 4096

static size_t fz_table_len(const struct ios_tunable *tab)
{
	size_t n = 0;

	while (tab && tab[n].name)
		n++;
	return n;
}

/* A value of @kind for @t, into @buf. */
static void fz_value(const struct ios_tunable *t, unsigned kind, const uint8_t *b, size_t len,
		     char *buf, size_t cap)
{
	static const char *const units[] = { "", "k", "m", "g", "ms", "us", "s", "%", "ns", "x" };
	uint64_t v = 0;

	switch (kind % 8) {
	case 0:
		snprintf(buf, cap, "%" PRId64, t->min);
		break;
	case 1:
		snprintf(buf, cap, "%" PRId64, t->max);
		break;
	case 2:
		snprintf(buf, cap, "%" PRId64, t->min - (t->min > INT64_MIN));
		break;
	case 3:
		snprintf(buf, cap, "%" PRId64, t->max + (t->max < INT64_MAX));
		break;
	case 4:
		snprintf(buf, cap, "%s", t->def ? t->def : "");
		break;
	case 5:
		if (t->type == IOS_TUN_ENUM && t->choices) {
			size_t n = 0;

			while (t->choices[n])
				n++;
			snprintf(buf, cap, "%s", n ? t->choices[(len ? b[0] : 0) % n] : "");
		} else {
			snprintf(buf, cap, "0");
		}
		break;
	case 6:
		for (size_t i = 0; i < len && i < 8; i++)
			v = v << 8 | b[i];
		/* mostly small numbers, now and then a huge one */
		if (!(len && (b[0] & 0x80)))
			v %= 100000;
		snprintf(buf, cap, "%" PRIu64 "%s", v, units[(len > 8 ? b[8] : v) % 10]);
		break;
	default:
		if (len >= cap)
			len = cap - 1;
		memcpy(buf, b, len);
		buf[len] = '\0';
		break;
	}
}

/* One record's setting, or a job line; 0 when nothing was added. */
static int fz_record(const struct ios_sched_type *st, const struct ios_dev_type *dt,
		     unsigned table, unsigned idx, unsigned kind, const uint8_t *b, size_t len,
		     struct ios_settings *set, char *job, size_t *job_len)
{
	const struct ios_tunable *tabs[] = { st->tunables, ios_queue_tunables_table,
					     dt ? dt->tunables : NULL, ios_lab_tunables_table,
					     ios_vm_tunables_table };
	static const char *const prefix[] = { "", "queue.", "device.", "lab.", "vm." };
	char value[256], name[160];
	struct ios_err e = { 0 };
	const struct ios_tunable *t;

	size_t n;

	table %= 8;
	if (table == 7) {
		/*
		 * a cgroup v2 file (include/iosched/blkcg.h) of the root, a or b
		 * (the cgroup job's groups), the bytes as its value: the parsers
		 * of src/block/blkcg_conf.c, the root rules, the SQ refusal
		 */
		static const char *const groups[] = { "", "a.", "b.", "a/x." };
		const struct ios_blkcg_cftype *ct = ios_blkcg_cftype(idx / 4 % IOS_BLKCG_NR_FILES);

		if (len >= sizeof(value))
			len = sizeof(value) - 1;
		for (size_t i = 0; i < len; i++)
			value[i] = b[i] ? (char)b[i] : ' ';
		value[len] = '\0';
		snprintf(name, sizeof(name), "cgroup.%s%s", groups[idx % 4], ct->name);
		return ios_settings_add(set, name, value, "fuzz") ? 0 : 1;
	}
	if (table == 6) {
		/* one more option line for the last job: no newlines inside */
		if (*job_len + len + 2 >= FZ_MAX_JOB)
			return 0;
		for (size_t i = 0; i < len; i++)
			job[(*job_len)++] = b[i] == '\n' || b[i] == '[' || !b[i] ? ' ' : (char)b[i];
		job[(*job_len)++] = '\n';
		job[*job_len] = '\0';
		return 1;
	}
	if (table == 5) {
		if (len >= sizeof(value))
			len = sizeof(value) - 1;
		memcpy(value, b, len);
		value[len] = '\0';
		if (strstr(value, "max_sim_time") || !strchr(value, '='))
			return 0;
		if (ios_settings_add_kv(set, value, "fuzz", &e) && !e.msg[0])
			abort();
		return 1;
	}
	n = fz_table_len(tabs[table]);
	if (!n)
		return 0;
	t = &tabs[table][idx % n];
	if (table == 3 && !strcmp(t->name, "max_sim_time"))
		return 0;
	fz_value(t, kind, b, len, value, sizeof(value));
	snprintf(name, sizeof(name), "%s%s", prefix[table], t->name);
	return ios_settings_add(set, name, value, "fuzz") ? 0 : 1;
}

static char *fz_no_file(const char *path, size_t *len, void *priv)
{
	(void)path;
	(void)len;
	(void)priv;
	return NULL;	/* includes never reach the disk */
}

static const char *fz_no_env(const char *name, void *priv)
{
	(void)name;
	(void)priv;
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ios_sched_type *st;
	const struct ios_dev_profile *dp;
	const struct ios_dev_type *dt;
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	static char job[FZ_MAX_JOB];
	size_t nsched = 0, nprof = 0, job_len, pos = 3;
	int added = 0, ret;

	if (size < 3 || size > 2048)
		return 0;
	while (ios_sched_at(nsched))
		nsched++;
	while (ios_dev_profile_at(nprof))
		nprof++;
	st = ios_sched_at(data[0] % nsched);
	dp = ios_dev_profile_at(data[1] % nprof);
	dt = ios_dev_type_find(dp->type);
	job_len = (size_t)snprintf(job, sizeof(job), "%s",
				   fz_jobs[data[2] % (sizeof(fz_jobs) / sizeof(fz_jobs[0]))]);

	/* a small disk unless a record says otherwise: set-up is most of a tiny run */
	if (ios_settings_add_kv(&set, "device.capacity=4", "fuzz", &e))
		abort();
	while (pos + 4 <= size && added < FZ_MAX_SETTINGS) {
		unsigned table = data[pos], idx = data[pos + 1], kind = data[pos + 2];
		size_t len = data[pos + 3];

		pos += 4;
		if (len > size - pos)
			len = size - pos;
		added += fz_record(st, dt, table, idx, kind, data + pos, len, &set, job, &job_len);
		pos += len;
	}
	if (ios_settings_add_kv(&set, "lab.max_sim_time=0.3", "fuzz", &e))
		abort();

	ios_job_parse_opts_init(&po);
	po.read_file = fz_no_file;
	po.getenv = fz_no_env;
	ret = ios_job_parse_buf("fuzz.fio", job, job_len, &po, &jf, &e);
	if (ret) {
		if (!e.msg[0])
			abort();
		goto out;
	}
	cfg.scheduler = st->name;
	cfg.device = dp->name;
	cfg.settings = &set;
	cfg.seed = 1 + data[0];
	if (ios_run(&jf, &cfg, &res, &e)) {
		if (!e.msg[0])
			abort();	/* every refusal must say why */
	} else {
		ios_run_result_free(&res);
	}
out:
	ios_jobfile_free(&jf);
	ios_settings_free(&set);
	return 0;
}
