/*
 * Description: the blktrace writer. A record encodes to the bytes the spec
 * verified with blkparse (little-endian, magic 0x65617407) and decodes back
 * in either byte order. A traced run writes NAME.blktrace.0 that starts with
 * the timestamp note, numbers events 1, 2, 3... with notes at sequence 0,
 * notes every pid's comm before its first event (job names, "flush-8:0" for
 * the flusher), sets the categories and flags the kernel sets (FS on
 * request events only, SYNC/FUA/FLUSH from the request, never the cgroup
 * bit), keeps time non-decreasing, and counts exactly what it wrote. Two runs
 * give byte-identical files; an unwritable name is an error naming the file.
 */
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/blktrace.h"

static char dir[] = "/tmp/iosched-bt-XXXXXX";

/* Every kind of event: CFQ messages, merges (depth-1 disk), sleeps on a
 * small request list, fsync flushes, the flusher's async writes. */
static const char mix_job[] =
	"[global]\nsize=4m\n"
	"[bufwriter]\nrw=write\nbs=4k\nsize=16m\n"
	"[syncwriter]\nrw=write\nbs=4k\nfsync=32\n"
	"[reader]\nrw=read\nbs=4k\n"
	"[aio]\ndirect=1\nioengine=libaio\niodepth=16\nrw=write\nbs=4k\nsize=1m\n";

static int run_traced(const char *name, struct ios_blktrace_counts *counts, struct ios_err *e)
{
	static const char *const sets[] = {
		"queue.nr_requests=4", "vm.memory=32", "vm.dirty_background_ratio=5",
	};
	struct ios_job_parse_opts po;
	struct ios_jobfile jf = { 0 };
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_blktrace *bt;
	int ret;

	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("mix.fio", mix_job, strlen(mix_job), &po, &jf, e);
	for (size_t i = 0; !ret && i < IOS_ARRAY_SIZE(sets); i++)
		ret = ios_settings_add_kv(&set, sets[i], "test", e);
	if (!ret)
		ret = ios_blktrace_open(name, &bt, e);
	if (ret)
		goto out;
	cfg.scheduler = "cfq";
	cfg.device = "hdd-2004";
	cfg.settings = &set;
	cfg.seed = 1;
	cfg.trace_ops = &ios_blktrace_trace_ops;
	cfg.trace = bt;
	ret = ios_run(&jf, &cfg, &res, e);
	if (!ret)
		ios_run_result_free(&res);
	if (ios_blktrace_close(bt, counts, e) && !ret)
		ret = e->code;
out:
	ios_settings_free(&set);
	ios_jobfile_free(&jf);
	return ret;
}

static int test_codec(void)
{
	/* the record the spec checked with blkparse: Q W 2048 + 8 at 1 ms, pid 1234 */
	static const uint8_t want[IOS_BLK_REC_SIZE] = {
		0x07, 0x74, 0x61, 0x65, 0x01, 0x00, 0x00, 0x00,
		0x40, 0x42, 0x0f, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x10, 0x00, 0x00, 0x01, 0x00, 0x12, 0x00,
		0xd2, 0x04, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION, .sequence = 1, .time = 1000000,
		.sector = 2048, .bytes = 4096,
		.action = IOS_BLK_TC_ACT(IOS_BLK_TC_QUEUE | IOS_BLK_TC_WRITE) | IOS_BLK_TA_QUEUE,
		.pid = 1234, .device = IOS_BLK_DEV_SDA,
	}, back, be;
	uint8_t buf[IOS_BLK_REC_SIZE], swapped[IOS_BLK_REC_SIZE];
	static const int widths[] = { 4, 4, 8, 8, 4, 4, 4, 4, 4, 2, 2 };
	size_t off = 0;

	T_ASSERT_EQ(r.action, 0x00120001u);
	ios_blk_rec_encode(&r, buf);
	T_ASSERT(!memcmp(buf, want, sizeof(want)));
	T_ASSERT_EQ(ios_blk_magic_order(buf), 0);
	ios_blk_rec_decode(buf, false, &back);
	T_ASSERT(!memcmp(&back, &r, sizeof(r)));

	/* the same record written by a big-endian machine */
	for (size_t k = 0; k < IOS_ARRAY_SIZE(widths); k++) {
		for (int i = 0; i < widths[k]; i++)
			swapped[off + i] = buf[off + widths[k] - 1 - i];
		off += widths[k];
	}
	T_ASSERT_EQ(off, IOS_BLK_REC_SIZE);
	T_ASSERT_EQ(ios_blk_magic_order(swapped), 1);
	ios_blk_rec_decode(swapped, true, &be);
	T_ASSERT(!memcmp(&be, &r, sizeof(r)));
	swapped[0] ^= 0x40;
	T_ASSERT_EQ(ios_blk_magic_order(swapped), -1);
	T_ASSERT(!strcmp(ios_blk_action_name(IOS_BLK_TA_UNPLUG_TIMER), "UT"));
	T_ASSERT(!strcmp(ios_blk_action_name(99), "?"));
	return T_PASS;
}

static int test_traced_run(void)
{
	struct ios_blktrace_counts c;
	struct ios_err e = { 0 };
	char name[256], path[300];
	uint64_t per_action[IOS_BLK_TA_NR] = { 0 }, events = 0, msgs = 0, notes = 0;
	uint64_t last_time = 0;
	uint32_t noted[64], want_seq = 1;
	char comm_of[64][IOS_BLK_COMM_LEN];
	size_t nr_noted = 0, len, off = 0;
	bool saw_flusher = false;
	char *data;

	snprintf(name, sizeof(name), "%s/mix", dir);
	T_ASSERT_MSG(!run_traced(name, &c, &e), "%s", e.msg);
	snprintf(path, sizeof(path), "%s.blktrace.0", name);
	data = t_read_file(path, &len);
	T_ASSERT(data);
	T_ASSERT_U64_EQ(len, c.bytes);

	while (off < len) {
		struct ios_blk_rec r;
		uint32_t code, cat;

		T_ASSERT(len - off >= IOS_BLK_REC_SIZE);
		ios_blk_rec_decode((const uint8_t *)data + off, false, &r);
		T_ASSERT_EQ(r.magic, IOS_BLK_MAGIC | IOS_BLK_VERSION);
		T_ASSERT_EQ(r.device, IOS_BLK_DEV_SDA);
		T_ASSERT_EQ(r.cpu, 0u);
		T_ASSERT(r.time >= last_time);
		last_time = r.time;
		code = r.action & IOS_BLK_TA_MASK;
		cat = r.action >> IOS_BLK_TC_SHIFT;
		T_ASSERT(!(code & IOS_BLK_TA_CGROUP));
		if (off == 0)
			T_ASSERT_EQ(r.action, IOS_BLK_TC_ACT(IOS_BLK_TC_NOTIFY) | IOS_BLK_TN_TIMESTAMP);
		if (cat & IOS_BLK_TC_NOTIFY) {
			T_ASSERT_EQ(r.sequence, 0u);
			if (code == IOS_BLK_TN_PROCESS) {
				T_ASSERT_EQ(r.pdu_len, IOS_BLK_COMM_LEN);
				T_ASSERT(nr_noted < 64);
				for (size_t i = 0; i < nr_noted; i++)
					T_ASSERT_MSG(noted[i] != r.pid, "pid %u noted twice", r.pid);
				memcpy(comm_of[nr_noted], data + off + IOS_BLK_REC_SIZE, IOS_BLK_COMM_LEN);
				T_ASSERT_EQ(comm_of[nr_noted][IOS_BLK_COMM_LEN - 1], '\0');
				noted[nr_noted++] = r.pid;
				notes++;
			} else if (code == IOS_BLK_TN_MESSAGE) {
				const char *m = data + off + IOS_BLK_REC_SIZE;

				T_ASSERT(r.pdu_len > 1 && m[r.pdu_len - 1] == '\0');
				T_ASSERT_MSG(!strncmp(m, "cfq", 3), "message '%s'", m);
				msgs++;
			}
		} else {
			bool noted_pid = false, rq_ev;

			T_ASSERT(code > 0 && code < IOS_BLK_TA_NR);
			T_ASSERT_EQ(r.sequence, want_seq);
			want_seq++;
			for (size_t i = 0; i < nr_noted; i++) {
				if (noted[i] != r.pid)
					continue;
				noted_pid = true;
				if (!strcmp(comm_of[i], "flush-8:0") && r.pid == 100)
					saw_flusher = true;
			}
			T_ASSERT_MSG(noted_pid, "event for pid %u before its process note", r.pid);
			T_ASSERT_EQ(r.bytes % 512, 0u);
			T_ASSERT(!(cat & IOS_BLK_TC_READ) != !(cat & IOS_BLK_TC_WRITE));
			rq_ev = code == IOS_BLK_TA_INSERT || code == IOS_BLK_TA_ISSUE ||
				code == IOS_BLK_TA_COMPLETE;
			T_ASSERT_EQ(!!(cat & IOS_BLK_TC_FS), rq_ev);
			if (code == IOS_BLK_TA_ISSUE)
				T_ASSERT(cat & IOS_BLK_TC_ISSUE);
			else if (code == IOS_BLK_TA_COMPLETE)
				T_ASSERT(cat & IOS_BLK_TC_COMPLETE);
			else
				T_ASSERT(cat & IOS_BLK_TC_QUEUE);
			/* a cache flush: no data, flush and sync bits */
			if (!r.bytes)
				T_ASSERT((cat & IOS_BLK_TC_FLUSH) && (cat & IOS_BLK_TC_SYNC));
			per_action[code]++;
			events++;
		}
		off += IOS_BLK_REC_SIZE + r.pdu_len;
	}
	T_ASSERT_EQ(off, len);
	T_ASSERT_U64_EQ(events, c.events);
	T_ASSERT_U64_EQ(msgs, c.messages);
	T_ASSERT_U64_EQ(notes, c.process_notes);
	for (unsigned a = 0; a < IOS_BLK_TA_NR; a++)
		T_ASSERT_MSG(per_action[a] == c.actions[a], "action %s: %llu in the file, %llu counted",
			     ios_blk_action_name(a), (unsigned long long)per_action[a],
			     (unsigned long long)c.actions[a]);
	/* the job exercises what it is meant to */
	T_ASSERT(c.actions[IOS_BLK_TA_QUEUE] > 100);
	T_ASSERT(c.actions[IOS_BLK_TA_BACKMERGE] > 0);
	T_ASSERT(c.actions[IOS_BLK_TA_SLEEPRQ] > 0);
	T_ASSERT(c.messages > 0);
	/* every request is issued and completes; every bio is queued once */
	T_ASSERT_U64_EQ(c.actions[IOS_BLK_TA_ISSUE], c.actions[IOS_BLK_TA_COMPLETE]);
	T_ASSERT_U64_EQ(c.actions[IOS_BLK_TA_GETRQ], c.actions[IOS_BLK_TA_INSERT]);
	T_ASSERT_U64_EQ(c.actions[IOS_BLK_TA_QUEUE],
			c.actions[IOS_BLK_TA_GETRQ] + c.actions[IOS_BLK_TA_BACKMERGE] +
			c.actions[IOS_BLK_TA_FRONTMERGE]);
	T_ASSERT(saw_flusher);
	/*
	 * three jobs and the flusher: the buffered writer's pages all go out
	 * as the flusher's, and the file it laid out needs no metadata read
	 */
	T_ASSERT_EQ(nr_noted, 4u);
	for (size_t i = 0; i < nr_noted; i++)
		T_ASSERT_MSG(!strcmp(comm_of[i], "flush-8:0") || !strcmp(comm_of[i], "syncwriter") ||
			     !strcmp(comm_of[i], "reader") || !strcmp(comm_of[i], "aio"),
			     "comm '%s'", comm_of[i]);
	free(data);
	return T_PASS;
}

static int test_deterministic(void)
{
	struct ios_err e = { 0 };
	char a[256], b[256];
	char *da, *db;
	size_t la, lb;

	snprintf(a, sizeof(a), "%s/again1", dir);
	snprintf(b, sizeof(b), "%s/again2", dir);
	T_ASSERT_MSG(!run_traced(a, NULL, &e), "%s", e.msg);
	T_ASSERT_MSG(!run_traced(b, NULL, &e), "%s", e.msg);
	strcat(a, ".blktrace.0");
	strcat(b, ".blktrace.0");
	da = t_read_file(a, &la);
	db = t_read_file(b, &lb);
	T_ASSERT(da && db);
	T_ASSERT_U64_EQ(la, lb);
	T_ASSERT(!memcmp(da, db, la));
	free(da);
	free(db);
	return T_PASS;
}

static int test_bad_name(void)
{
	struct ios_blktrace *bt;
	struct ios_err e = { 0 };
	char name[300];

	snprintf(name, sizeof(name), "%s/no/such/dir/x", dir);
	T_ASSERT(ios_blktrace_open(name, &bt, &e) < 0);
	T_ASSERT(!bt);
	T_ASSERT_MSG(strstr(e.msg, "no/such/dir/x.blktrace.0") && strstr(e.msg, "cannot create"),
		     "%s", e.msg);
	ios_err_clear(&e);
	T_ASSERT_EQ(ios_blktrace_open("", &bt, &e), -EINVAL);
	T_ASSERT(e.msg[0]);
	return T_PASS;
}

static void cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}

int main(void)
{
	int ret;

	if (!mkdtemp(dir))
		return T_FAIL;
	ret = T_RUN(test_codec, test_traced_run, test_deterministic, test_bad_name);
	cleanup();
	return ret;
}
