/*
 * Description: replay streams. A trace of three million records (two CPU
 * files of 72 MB each, four processes, half of the records queue I/O) is
 * generated here, never checked in, and replayed in full. Memory must not
 * grow with its length: the read buffers the cursors hold at their peak are
 * the same as for a trace a thousand times shorter, and the process's peak
 * RSS grows by less than 16 MiB over the short replay's (measured: 0.2 MiB,
 * 2.4 MiB under AddressSanitizer), where holding the 1.5 million I/Os alone
 * would take more than 45 MiB.
 * Every I/O of the long trace is replayed.
 */
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/blktrace.h"
#include "iosched/replay.h"

static char dir[] = "/tmp/iosched-big-XXXXXX";

#define NR_PIDS 4

/*
 * @nr records over two CPU files: process notes, then per step one Q and
 * one C of the process whose turn it is (the C of its previous I/O), 20 us
 * apart; pid 1003 writes (async, writeback), the others read.
 */
static int generate(const char *name, uint64_t nr, uint64_t *nr_q)
{
	static uint8_t buf[2][1 << 16];
	size_t len[2] = { 0, 0 };
	uint32_t seq[2] = { 0, 0 };
	FILE *f[2];
	char path[600];

	*nr_q = 0;
	for (int c = 0; c < 2; c++) {
		snprintf(path, sizeof(path), "%s.blktrace.%d", name, c);
		f[c] = fopen(path, "wb");
		T_ASSERT(f[c]);
	}
	for (uint32_t p = 0; p < NR_PIDS; p++) {
		struct ios_blk_rec r = {
			.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION,
			.action = IOS_BLK_TC_ACT(IOS_BLK_TC_NOTIFY) | IOS_BLK_TN_PROCESS,
			.pid = 1000 + p, .device = IOS_BLK_DEV_SDA, .pdu_len = IOS_BLK_COMM_LEN,
		};
		char comm[IOS_BLK_COMM_LEN] = { 0 };

		snprintf(comm, sizeof(comm), "proc%u", p);
		for (int c = 0; c < 2; c++) {
			ios_blk_rec_encode(&r, buf[c] + len[c]);
			memcpy(buf[c] + len[c] + IOS_BLK_REC_SIZE, comm, sizeof(comm));
			len[c] += IOS_BLK_REC_SIZE + sizeof(comm);
		}
	}
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t step = i / 2, k = step / NR_PIDS;
		uint32_t p = (uint32_t)(step % NR_PIDS), cat;
		int c = (int)(step % 2);	/* processes move between CPUs */
		bool q = !(i % 2), wr = p == NR_PIDS - 1;
		struct ios_blk_rec r = {
			.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION,
			.time = step * 20000 + (q ? 0 : 1),
			.sector = (uint64_t)p * 40000000 + 8 * (q ? k : (k ? k - 1 : 0)),
			.bytes = 4096, .pid = 1000 + p, .device = IOS_BLK_DEV_SDA,
			.cpu = (uint32_t)c,
		};

		cat = (wr ? IOS_BLK_TC_WRITE : IOS_BLK_TC_READ) |
		      (q ? IOS_BLK_TC_QUEUE : IOS_BLK_TC_COMPLETE | IOS_BLK_TC_FS);
		r.action = IOS_BLK_TC_ACT(cat) | (q ? IOS_BLK_TA_QUEUE : IOS_BLK_TA_COMPLETE);
		r.sequence = ++seq[c];
		ios_blk_rec_encode(&r, buf[c] + len[c]);
		len[c] += IOS_BLK_REC_SIZE;
		*nr_q += q;
		if (len[c] > sizeof(buf[c]) - 128) {
			T_ASSERT_EQ(fwrite(buf[c], 1, len[c], f[c]), len[c]);
			len[c] = 0;
		}
	}
	for (int c = 0; c < 2; c++) {
		T_ASSERT_EQ(fwrite(buf[c], 1, len[c], f[c]), len[c]);
		T_ASSERT_EQ(fclose(f[c]), 0);
	}
	return T_PASS;
}

struct outcome {
	uint64_t ios, records;
	size_t peak_buffered;
	long maxrss_kb;
};

static int run(const char *name, struct outcome *o)
{
	struct ios_replay *r;
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };
	struct rusage ru;

	T_ASSERT_MSG(!ios_replay_open(name, &r, &e), "%s", e.msg);
	T_ASSERT_EQ(ios_replay_nr_streams(r), (size_t)NR_PIDS);
	o->records = ios_replay_info(r)->nr_records;
	cfg.scheduler = "noop";
	cfg.device = "ssd";
	cfg.seed = 1;
	T_ASSERT_MSG(!ios_replay_run(r, &cfg, &res, &e), "%s", e.msg);
	o->ios = 0;
	for (size_t i = 0; i < res.nr_jobs; i++)
		o->ios += res.jobs[i].dir[IOS_READ].total_ios + res.jobs[i].dir[IOS_WRITE].total_ios;
	ios_run_result_free(&res);
	T_ASSERT_EQ(ios_replay_buffered(r, &o->peak_buffered), 0u);
	ios_replay_close(r);
	T_ASSERT(!getrusage(RUSAGE_SELF, &ru));
	o->maxrss_kb = ru.ru_maxrss;
	return T_PASS;
}

static int test_long_trace_streams(void)
{
	struct outcome small, big;
	char name[300];
	uint64_t nq_small, nq_big;

	snprintf(name, sizeof(name), "%s/short", dir);
	T_ASSERT_EQ(generate(name, 3000, &nq_small), T_PASS);
	T_ASSERT_EQ(run(name, &small), T_PASS);
	T_ASSERT_U64_EQ(small.ios, nq_small);

	snprintf(name, sizeof(name), "%s/long", dir);
	T_ASSERT_EQ(generate(name, 3000000, &nq_big), T_PASS);
	T_ASSERT_EQ(run(name, &big), T_PASS);
	T_ASSERT_U64_EQ(big.records, 3000000 + 2 * NR_PIDS);
	T_ASSERT_U64_EQ(big.ios, nq_big);
	printf("short: %llu records, peak buffers %zu B, max RSS %ld KiB\n",
	       (unsigned long long)small.records, small.peak_buffered, small.maxrss_kb);
	printf("long:  %llu records, peak buffers %zu B, max RSS %ld KiB\n",
	       (unsigned long long)big.records, big.peak_buffered, big.maxrss_kb);
	/* one buffer per CPU file for the check, and per cursor */
	T_ASSERT_EQ(big.peak_buffered, small.peak_buffered);
	T_ASSERT(big.peak_buffered <= (NR_PIDS + 1) * 2 * (16u << 10));
	T_ASSERT_MSG(big.maxrss_kb - small.maxrss_kb < 16 * 1024,
		     "peak RSS grew by %ld KiB", big.maxrss_kb - small.maxrss_kb);
	return T_PASS;
}

int main(void)
{
	char cmd[300];
	int ret;

	if (!mkdtemp(dir))
		return T_FAIL;
	ret = T_RUN(test_long_trace_streams);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	return ret;
}
