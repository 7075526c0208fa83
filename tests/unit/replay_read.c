/*
 * Description: the trace readers of replay. blktrace binary records (either
 * byte order, per-CPU files merged by time, blkparse -d dumps) give one
 * stream per pid in order of first I/O, named by process notes, with the
 * Q events' sectors, sizes, directions and flags and times relative to the
 * first event; other events, discards, passthrough and empty bios are left
 * out and counted; the 4.14+ cgroup flag is accepted. blkparse text gives
 * the same streams as the binary it came from. fio iologs v2 (wait lines
 * make the time) and v3 (timestamps in microseconds) give one stream with
 * files laid out on 1 MiB boundaries, /dev/ names at their offsets, sync
 * as a cache flush, trims left out. Every refusal names the file, the
 * record (number and byte) or line, and the fault; cursors read what the
 * check accepted and release their buffers.
 */
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "iosched/blktrace.h"
#include "iosched/replay.h"

static char dir[] = "/tmp/iosched-rr-XXXXXX";

/* ---- building binary traces ---- */

struct tb {
	uint8_t buf[1 << 16];
	size_t len;
	uint32_t seq;
	bool be;
};

static void tb_put(struct tb *b, const struct ios_blk_rec *r, const void *pdu)
{
	uint8_t rec[IOS_BLK_REC_SIZE];

	IOS_BUG_ON(b->len + sizeof(rec) + r->pdu_len > sizeof(b->buf));
	ios_blk_rec_encode(r, rec);
	if (b->be) {
		static const int w[] = { 4, 4, 8, 8, 4, 4, 4, 4, 4, 2, 2 };
		uint8_t sw[IOS_BLK_REC_SIZE];
		size_t off = 0;

		for (size_t k = 0; k < IOS_ARRAY_SIZE(w); k++) {
			for (int i = 0; i < w[k]; i++)
				sw[off + i] = rec[off + w[k] - 1 - i];
			off += w[k];
		}
		memcpy(rec, sw, sizeof(rec));
	}
	memcpy(b->buf + b->len, rec, sizeof(rec));
	b->len += sizeof(rec);
	if (r->pdu_len) {
		memcpy(b->buf + b->len, pdu, r->pdu_len);
		b->len += r->pdu_len;
	}
}

/* A process note; the kernel's hold 16 bytes, longer ones are read up to 31 characters. */
static void tb_comm(struct tb *b, uint32_t pid, const char *comm)
{
	char c[64] = { 0 };
	size_t n = strlen(comm) + 1;
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION,
		.action = IOS_BLK_TC_ACT(IOS_BLK_TC_NOTIFY) | IOS_BLK_TN_PROCESS,
		.pid = pid, .device = IOS_BLK_DEV_SDA,
	};

	r.pdu_len = (uint16_t)(n < IOS_BLK_COMM_LEN ? IOS_BLK_COMM_LEN : n);
	memcpy(c, comm, n);
	tb_put(b, &r, c);
}

/* an event: @code, category bits @cat (QUEUE etc. added), at @t ns */
static void tb_ev(struct tb *b, unsigned code, uint32_t cat, uint64_t t, uint32_t pid,
		  uint64_t sector, uint32_t bytes)
{
	struct ios_blk_rec r = {
		.magic = IOS_BLK_MAGIC | IOS_BLK_VERSION, .sequence = ++b->seq, .time = t,
		.sector = sector, .bytes = bytes, .action = IOS_BLK_TC_ACT(cat) | code,
		.pid = pid, .device = IOS_BLK_DEV_SDA,
	};
	uint8_t cg[8] = { 0 };

	if (code & IOS_BLK_TA_CGROUP)
		r.pdu_len = sizeof(cg);
	tb_put(b, &r, cg);
}

#define Q IOS_BLK_TA_QUEUE
#define TC_R (IOS_BLK_TC_QUEUE | IOS_BLK_TC_READ)
#define TC_W (IOS_BLK_TC_QUEUE | IOS_BLK_TC_WRITE)

/* A small trace: two processes, every kind of Q and some other events. */
static void tb_sample(struct tb *b, uint64_t t0)
{
	tb_comm(b, 1234, "reader");
	tb_ev(b, Q, TC_R, t0 + 1000, 1234, 2048, 4096);
	tb_ev(b, IOS_BLK_TA_GETRQ, TC_R, t0 + 1000, 1234, 2048, 4096);
	tb_ev(b, IOS_BLK_TA_ISSUE, IOS_BLK_TC_ISSUE | IOS_BLK_TC_READ | IOS_BLK_TC_FS,
	      t0 + 1500, 1234, 2048, 4096);
	tb_comm(b, 77, "kjournald-with-a-long-name");
	tb_ev(b, Q, TC_W | IOS_BLK_TC_SYNC | IOS_BLK_TC_META | IOS_BLK_TC_FUA, t0 + 2000, 77,
	      500, 8192);
	tb_ev(b, Q, TC_W | IOS_BLK_TC_FLUSH | IOS_BLK_TC_SYNC, t0 + 3000, 77, 0, 0);
	tb_ev(b, Q, TC_W | IOS_BLK_TC_DISCARD, t0 + 3500, 77, 9000, 4096);
	tb_ev(b, Q, IOS_BLK_TC_PC, t0 + 3600, 77, 0, 36);
	tb_ev(b, Q, TC_W, t0 + 3700, 77, 0, 0);		/* empty, no flush */
	tb_ev(b, Q | IOS_BLK_TA_CGROUP, TC_R | IOS_BLK_TC_AHEAD, t0 + 4000, 1234, 4096, 65536);
	tb_ev(b, IOS_BLK_TA_COMPLETE, IOS_BLK_TC_COMPLETE | IOS_BLK_TC_READ | IOS_BLK_TC_FS,
	      t0 + 9000, 1234, 2048, 4096);
	tb_ev(b, Q, TC_W, t0 + 10000, 99, 1 << 20, 4096);	/* no process note */
}

static int open_mem(struct tb *b, struct ios_replay **r, struct ios_err *e)
{
	return ios_replay_open_mem("t.bin", b->buf, b->len, r, e);
}

static int read_all(struct ios_replay *r, size_t i, struct ios_replay_rec *out, size_t max,
		    size_t *n)
{
	struct ios_replay_cursor *c;
	struct ios_err e = { 0 };
	int ret;

	*n = 0;
	T_ASSERT_MSG(!ios_replay_cursor_open(r, i, &c, &e), "%s", e.msg);
	while ((ret = ios_replay_cursor_next(c, &out[*n], &e)) > 0) {
		T_ASSERT(*n < max);
		(*n)++;
	}
	T_ASSERT_MSG(ret == 0, "%s", e.msg);
	ios_replay_cursor_close(c);
	return T_PASS;
}

static int check_sample(struct ios_replay *r)
{
	const struct ios_replay_info *in = ios_replay_info(r);
	const struct ios_replay_stream *s;
	struct ios_replay_rec recs[8];
	size_t n;

	T_ASSERT_EQ(ios_replay_nr_streams(r), 3u);
	s = ios_replay_stream(r, 0);
	T_ASSERT_EQ(s->pid, 1234u);
	T_ASSERT(!strcmp(s->comm, "reader"));
	T_ASSERT_U64_EQ(s->nr_ios, 2);
	T_ASSERT_U64_EQ(s->bytes[IOS_READ], 4096 + 65536);
	T_ASSERT_U64_EQ(s->first_ns, 0);
	T_ASSERT_U64_EQ(s->max_end, 4096 + 128);
	s = ios_replay_stream(r, 1);
	T_ASSERT_EQ(s->pid, 77u);
	T_ASSERT_MSG(!strcmp(s->comm, "kjournald-with-a-long-name"), "comm '%s'", s->comm);
	T_ASSERT_U64_EQ(s->nr_ios, 2);
	T_ASSERT_U64_EQ(s->nr_flushes, 1);
	T_ASSERT_U64_EQ(s->first_ns, 1000);
	s = ios_replay_stream(r, 2);
	T_ASSERT_EQ(s->pid, 99u);
	T_ASSERT(!strcmp(s->comm, "pid99"));
	T_ASSERT_U64_EQ(in->nr_ios, 5);
	T_ASSERT_U64_EQ(in->skipped_discard, 1);
	T_ASSERT_U64_EQ(in->skipped_pc, 1);
	T_ASSERT_U64_EQ(in->skipped_empty, 1);
	T_ASSERT_EQ(in->nr_devices, 1u);
	T_ASSERT_EQ(in->device, IOS_BLK_DEV_SDA);	/* the disk the trace came from */

	T_ASSERT_EQ(read_all(r, 0, recs, 8, &n), T_PASS);
	T_ASSERT_EQ(n, 2u);
	T_ASSERT_U64_EQ(recs[0].time_ns, 0);
	T_ASSERT_U64_EQ(recs[0].sector, 2048);
	T_ASSERT_EQ(recs[0].nr_sectors, 8u);
	T_ASSERT_EQ(recs[0].dir, IOS_READ);
	T_ASSERT_EQ(recs[0].flags, 0u);
	T_ASSERT_U64_EQ(recs[1].time_ns, 3000);
	T_ASSERT_EQ(recs[1].nr_sectors, 128u);
	T_ASSERT_EQ(recs[1].flags, (uint32_t)IOS_REQ_AHEAD);
	T_ASSERT_EQ(read_all(r, 1, recs, 8, &n), T_PASS);
	T_ASSERT_EQ(n, 2u);
	T_ASSERT_EQ(recs[0].dir, IOS_WRITE);
	T_ASSERT_EQ(recs[0].flags, (uint32_t)(IOS_REQ_SYNC | IOS_REQ_META | IOS_REQ_FUA));
	T_ASSERT_EQ(recs[0].nr_sectors, 16u);
	T_ASSERT_EQ(recs[1].nr_sectors, 0u);
	T_ASSERT_EQ(recs[1].dir, IOS_WRITE);
	T_ASSERT_EQ(recs[1].flags, (uint32_t)(IOS_REQ_PREFLUSH | IOS_REQ_SYNC));
	T_ASSERT_U64_EQ(recs[1].time_ns, 2000);
	T_ASSERT_EQ(ios_replay_buffered(r, NULL), 0u);
	return T_PASS;
}

static int test_binary(void)
{
	static struct tb le, be;
	struct ios_replay *r;
	struct ios_err e = { 0 };

	tb_sample(&le, 5000000000ULL);
	T_ASSERT_MSG(!open_mem(&le, &r, &e), "%s", e.msg);
	T_ASSERT_EQ(ios_replay_info(r)->format, IOS_REPLAY_BLKTRACE);
	T_ASSERT_EQ(check_sample(r), T_PASS);
	ios_replay_close(r);

	be.be = true;
	tb_sample(&be, 5000000000ULL);
	T_ASSERT(memcmp(le.buf, be.buf, le.len));
	T_ASSERT_MSG(!open_mem(&be, &r, &e), "%s", e.msg);
	T_ASSERT_EQ(check_sample(r), T_PASS);
	ios_replay_close(r);
	return T_PASS;
}

static int write_file(const char *name, const void *data, size_t len, char *path, size_t plen)
{
	FILE *f;

	snprintf(path, plen, "%s/%s", dir, name);
	f = fopen(path, "wb");
	T_ASSERT(f);
	T_ASSERT_EQ(fwrite(data, 1, len, f), len);
	T_ASSERT_EQ(fclose(f), 0);
	return T_PASS;
}

/* Two CPU files with interleaved times merge into one order. */
static int test_cpu_files(void)
{
	static struct tb c0, c1;
	struct ios_replay *r;
	struct ios_err e = { 0 };
	struct ios_replay_rec recs[8];
	char path[512], base[512];
	size_t n;

	tb_comm(&c0, 10, "a");
	tb_ev(&c0, Q, TC_R, 100, 10, 8, 4096);
	tb_ev(&c0, Q, TC_R, 300, 10, 24, 4096);
	tb_ev(&c1, Q, TC_R, 50, 11, 1000, 4096);	/* the first event: the origin */
	tb_comm(&c1, 10, "a");
	tb_ev(&c1, Q, TC_R, 200, 10, 16, 4096);
	tb_ev(&c1, Q, TC_R, 400, 10, 32, 4096);
	T_ASSERT_EQ(write_file("m.blktrace.0", c0.buf, c0.len, path, sizeof(path)), T_PASS);
	T_ASSERT_EQ(write_file("m.blktrace.1", c1.buf, c1.len, path, sizeof(path)), T_PASS);
	/* NAME, or any one file of the set, as blkparse -i takes it */
	for (int k = 0; k < 2; k++) {
		snprintf(base, sizeof(base), k ? "%s/m.blktrace.1" : "%s/m", dir);
		T_ASSERT_MSG(!ios_replay_open(base, &r, &e), "%s", e.msg);
		T_ASSERT_EQ(ios_replay_info(r)->nr_files, 2u);
		T_ASSERT_EQ(ios_replay_nr_streams(r), 2u);
		/* pid 11 queued first (t=50) */
		T_ASSERT_EQ(ios_replay_stream(r, 0)->pid, 11u);
		T_ASSERT(!strcmp(ios_replay_stream(r, 1)->comm, "a"));
		T_ASSERT_EQ(read_all(r, 1, recs, 8, &n), T_PASS);
		T_ASSERT_EQ(n, 4u);
		for (size_t i = 0; i < n; i++) {
			T_ASSERT_U64_EQ(recs[i].sector, 8 * (i + 1));
			T_ASSERT_U64_EQ(recs[i].time_ns, 50 + 100 * i);
		}
		ios_replay_close(r);
	}
	return T_PASS;
}

#define EXPECT_ERR(open_expr, ...)                                                 \
	do {                                                                       \
		static const char *const want_[] = { __VA_ARGS__ };                \
		struct ios_replay *r_ = NULL;                                      \
		struct ios_err e_ = { 0 };                                         \
		T_ASSERT_MSG((open_expr) < 0, "accepted: " #open_expr);            \
		T_ASSERT(!r_);                                                     \
		for (size_t k_ = 0; k_ < IOS_ARRAY_SIZE(want_); k_++)              \
			T_ASSERT_MSG(strstr(e_.msg, want_[k_]), "'%s' lacks '%s'", \
				     e_.msg, want_[k_]);                           \
	} while (0)

static int test_binary_errors(void)
{
	static struct tb b, v;
	char path[512];
	uint8_t junk[64];
	size_t good;

	tb_sample(&b, 0);
	good = b.len;
	/* cut inside the last record's header, then inside a payload */
	EXPECT_ERR(ios_replay_open_mem("cut.bin", b.buf, good - 10, &r_, &e_), "cut.bin",
		   "record 13 (byte 627)", "truncated", "38 bytes into its 48-byte header");
	EXPECT_ERR(ios_replay_open_mem("cut.bin", b.buf, IOS_BLK_REC_SIZE + 4, &r_, &e_),
		   "record 1 (byte 0)", "payload runs 12 bytes past the end");
	/* a foreign record in the middle */
	memcpy(b.buf + 160, "\x7f" "ELF", 4);	/* record 4: note 64 bytes, then Q, G, D */
	EXPECT_ERR(ios_replay_open_mem("mid.bin", b.buf, good, &r_, &e_), "mid.bin",
		   "record 4 (byte 160)", "bad magic 0x464c457f");
	/* a foreign file */
	memset(junk, 'x', sizeof(junk));
	junk[5] = 0;
	EXPECT_ERR(ios_replay_open_mem("junk", junk, sizeof(junk), &r_, &e_), "junk",
		   "record 1 (byte 0): bad magic 0x78787878");
	EXPECT_ERR(ios_replay_open_mem("short", "\x07\x74", 2, &r_, &e_), "short", "truncated");
	/* another version */
	{
		struct ios_blk_rec rec = { .magic = IOS_BLK_MAGIC | 6, .sequence = 1, .bytes = 512,
					   .action = IOS_BLK_TC_ACT(TC_R) | Q };

		ios_blk_rec_encode(&rec, v.buf);
		v.len = IOS_BLK_REC_SIZE;
		EXPECT_ERR(ios_replay_open_mem("v6", v.buf, v.len, &r_, &e_), "v6", "record 1",
			   "record version 6", "version 7");
	}
	/* a size that is not whole sectors */
	memset(&v, 0, sizeof(v));
	tb_ev(&v, Q, TC_R, 0, 1, 0, 4096);
	tb_ev(&v, Q, TC_R, 0, 1, 0, 1000);
	EXPECT_ERR(ios_replay_open_mem("odd", v.buf, v.len, &r_, &e_), "odd", "record 2 (byte 48)",
		   "1000 bytes", "512-byte sectors");
	/* no I/O at all */
	memset(&v, 0, sizeof(v));
	tb_comm(&v, 1, "idle");
	tb_ev(&v, IOS_BLK_TA_COMPLETE, IOS_BLK_TC_COMPLETE, 0, 1, 0, 4096);
	EXPECT_ERR(ios_replay_open_mem("none", v.buf, v.len, &r_, &e_), "none", "no I/O to replay",
		   "2 records");
	EXPECT_ERR(ios_replay_open_mem("empty", "", 0, &r_, &e_), "empty", "empty file");
	/* files */
	snprintf(path, sizeof(path), "%s/nothing-here", dir);
	EXPECT_ERR(ios_replay_open(path, &r_, &e_), "nothing-here", "no such file",
		   "nothing-here.blktrace.0");
	EXPECT_ERR(ios_replay_open(dir, &r_, &e_), "not a regular file");
	/* a bad second CPU file */
	memset(&v, 0, sizeof(v));
	tb_ev(&v, Q, TC_R, 0, 1, 0, 4096);
	T_ASSERT_EQ(write_file("bad.blktrace.0", v.buf, v.len, path, sizeof(path)), T_PASS);
	T_ASSERT_EQ(write_file("bad.blktrace.1", junk, sizeof(junk), path, sizeof(path)), T_PASS);
	snprintf(path, sizeof(path), "%s/bad", dir);
	EXPECT_ERR(ios_replay_open(path, &r_, &e_), "bad.blktrace.1", "record 1 (byte 0)",
		   "bad magic");
	return T_PASS;
}

/* ---- blkparse text ---- */

static const char bp_text[] =
	"Input file sda.blktrace.0 added\n"
	"  8,0    0        1     5.000001000  1234  Q   R 2048 + 8 [reader]\n"
	"  8,0    0        2     5.000001000  1234  G   R 2048 + 8 [reader]\n"
	"  8,0    0        0     5.000001200     0  m   N cfq1234 insert_request\n"
	"  8,0    0        3     5.000002000    77  Q WFSM 500 + 16 [kjournald]\n"
	"  8,0    0        4     5.000003000    77  Q FWS [kjournald]\n"
	"  8,0    0        5     5.0000035    77  Q  DS 9000 + 8 [kjournald]\r\n"
	"  8,0    0        6     5.000003600    77  Q   R 36 (12 00 00) [kjournald]\n"
	"  8,0    0        7     5.000004000  1234  Q  RA 4096 + 128 [reader]\n"
	"  8,0    0        8     5.000009000  1234  C   R 2048 + 8 [0]\n"
	"  8,16   1        9     5.000010000    99  Q   W 2048 + 8 [(null)]\n"
	"reader (1234)\n"
	" Reads Queued:           2,       68KiB\t Writes Queued:           0,        0KiB\n"
	"\n"
	"CPU0 (sda):\n"
	"Events (sda): 9 entries\n"
	"Skips: 0 forward (0 -   0.0%)";	/* no final newline */

static int test_blkparse(void)
{
	struct ios_replay *r;
	struct ios_err e = { 0 };
	struct ios_replay_rec recs[8];
	const struct ios_replay_stream *s;
	size_t n;

	T_ASSERT_MSG(!ios_replay_open_mem("bp.txt", bp_text, strlen(bp_text), &r, &e), "%s", e.msg);
	T_ASSERT_EQ(ios_replay_info(r)->format, IOS_REPLAY_BLKPARSE);
	T_ASSERT_EQ(ios_replay_nr_streams(r), 3u);
	T_ASSERT_EQ(ios_replay_info(r)->nr_devices, 2u);
	T_ASSERT_EQ(ios_replay_info(r)->device, IOS_BLK_DEV(8, 0));	/* the first one */
	T_ASSERT_U64_EQ(ios_replay_info(r)->skipped_discard, 1);
	T_ASSERT_U64_EQ(ios_replay_info(r)->skipped_pc, 1);
	s = ios_replay_stream(r, 1);
	T_ASSERT(!strcmp(s->comm, "kjournald"));
	T_ASSERT(!strcmp(ios_replay_stream(r, 2)->comm, "pid99"));
	T_ASSERT_EQ(read_all(r, 1, recs, 8, &n), T_PASS);
	T_ASSERT_EQ(n, 2u);
	T_ASSERT_U64_EQ(recs[0].time_ns, 1000);
	T_ASSERT_EQ(recs[0].flags, (uint32_t)(IOS_REQ_FUA | IOS_REQ_SYNC | IOS_REQ_META));
	T_ASSERT_EQ(recs[0].nr_sectors, 16u);
	T_ASSERT_EQ(recs[1].flags, (uint32_t)(IOS_REQ_PREFLUSH | IOS_REQ_SYNC));
	T_ASSERT_EQ(recs[1].nr_sectors, 0u);
	T_ASSERT_U64_EQ(recs[1].where, 6);
	T_ASSERT_EQ(read_all(r, 0, recs, 8, &n), T_PASS);
	T_ASSERT_EQ(n, 2u);
	T_ASSERT_EQ(recs[1].flags, (uint32_t)IOS_REQ_AHEAD);
	T_ASSERT_U64_EQ(recs[1].time_ns, 3000);
	ios_replay_close(r);
	return T_PASS;
}

static int open_text(const char *name, const char *text, struct ios_replay **r, struct ios_err *e)
{
	return ios_replay_open_mem(name, text, strlen(text), r, e);
}

static int test_blkparse_errors(void)
{
	static char longline[8192];

	EXPECT_ERR(open_text("a.txt", "  8,0 0 1 0.000000000 1 Q R 0 + 8 [x]\nCPU0 (sda):\n"
			     "  8,0 0 2 0.000000001 1 Q R 8 + 8 [x]\n", &r_, &e_),
		   "a.txt: line 3", "after blkparse's summary");
	EXPECT_ERR(open_text("b.txt", "  8,0 0 1 0.000000000 1 Q RWX 0 + 8 [x]\n", &r_, &e_),
		   "b.txt: line 1", "RWBS field 'RWX'");
	EXPECT_ERR(open_text("c.txt", "  8,0 0 1 0.0000000001 1 Q R 0 + 8 [x]\n", &r_, &e_),
		   "c.txt: line 1", "not a blkparse event line");
	EXPECT_ERR(open_text("d.txt", "  8,0 0 1 0.1 1 Q R 0 + 8 x\n", &r_, &e_),
		   "d.txt: line 1", "process name in brackets");
	EXPECT_ERR(open_text("e.txt", "  8,0 0 1 0.1 1 Q R 0 - 8 [x]\n", &r_, &e_),
		   "e.txt: line 1", "SECTOR + SECTORS");
	EXPECT_ERR(open_text("f.txt", "  8,0 0 1 0.1 1 Q N 0 + 8 [x]\n", &r_, &e_),
		   "f.txt: line 1", "'N' (no data) with 8 sectors");
	EXPECT_ERR(open_text("g.txt", "  8,0 0 1 0.1 1 Q? R 0 + 8 [x]\n", &r_, &e_),
		   "g.txt: line 1", "action 'Q?'");
	EXPECT_ERR(open_text("h.txt", "  8,0 0 1 0.1 1 Q R 18446744073709551615 + 8 [x]\n", &r_,
			     &e_), "h.txt: line 1", "out of range");
	memset(longline, 'a', sizeof(longline) - 1);
	memcpy(longline, "  8,0 0 1 0.1 1 Q R 0 + 8 [", 27);
	EXPECT_ERR(open_text("i.txt", longline, &r_, &e_), "i.txt: line 1", "longer than 4096");
	EXPECT_ERR(ios_replay_open_mem("j.txt", "  8,0 0 1 0.1 1 Q R 0 + 8 [x]\n  8,0 \0x\n", 39,
				       &r_, &e_), "j.txt: line 2", "NUL byte");
	EXPECT_ERR(open_text("k.txt", "hello\n", &r_, &e_), "k.txt", "not a blktrace, blkparse "
		   "output or fio iolog (line 1: 'hello')");
	return T_PASS;
}

/* ---- fio iologs ---- */

static int test_iolog(void)
{
	static const char v2[] =
		"fio version 2 iolog\n"
		"/data/a add\n"
		"/data/b add\n"
		"/dev/sdb add\n"
		"/data/a open\n"
		"/data/a read 0 8192\n"
		"/data/b write 1048576 65536\n"
		"/data/a wait 250 0\n"
		"/data/a wait 50 0\n"		/* under 100 us: ignored */
		"\n"
		"/data/b datasync 0 0\n"
		"/data/a read 1000 3000\n"	/* not sector aligned */
		"/data/a trim 0 4096\n"
		"/dev/sdb read 4096 512\n"
		"/data/a close\n";
	static const char v3[] =
		"fio version 3 iolog\n"
		"178 x.0.0 add\n"
		"825 x.0.0 open\n"
		"857 x.0.0 read 61440 4096\n"
		"958 x.0.0 write 774144 4096\n"
		"2000 x.0.0 sync 0 0\n";
	struct ios_replay *r;
	struct ios_err e = { 0 };
	struct ios_replay_rec recs[8];
	const struct ios_replay_stream *s;
	size_t n;
	/* /data/a ends at 4000 bytes -> 8 sectors; /data/b starts at the next MiB */
	const uint64_t b_base = 2048;

	T_ASSERT_MSG(!open_text("/logs/v2.log", v2, &r, &e), "%s", e.msg);
	T_ASSERT_EQ(ios_replay_info(r)->format, IOS_REPLAY_IOLOG2);
	T_ASSERT_EQ(ios_replay_nr_streams(r), 1u);
	s = ios_replay_stream(r, 0);
	T_ASSERT(!strcmp(s->comm, "v2.log"));
	T_ASSERT_U64_EQ(s->nr_ios, 5);
	T_ASSERT_U64_EQ(s->nr_flushes, 1);
	T_ASSERT_U64_EQ(ios_replay_info(r)->skipped_discard, 1);
	T_ASSERT_U64_EQ(s->max_end, b_base + (1048576 + 65536) / 512);
	T_ASSERT_EQ(read_all(r, 0, recs, 8, &n), T_PASS);
	T_ASSERT_EQ(n, 5u);
	T_ASSERT_U64_EQ(recs[0].sector, 0);
	T_ASSERT_EQ(recs[0].nr_sectors, 16u);
	T_ASSERT_U64_EQ(recs[0].time_ns, 0);
	T_ASSERT_EQ(recs[1].dir, IOS_WRITE);
	T_ASSERT_EQ(recs[1].flags, (uint32_t)IOS_REQ_SYNC);
	T_ASSERT_U64_EQ(recs[1].sector, b_base + 2048);
	T_ASSERT_EQ(recs[1].nr_sectors, 128u);
	T_ASSERT_EQ(recs[2].nr_sectors, 0u);
	T_ASSERT_EQ(recs[2].flags, (uint32_t)(IOS_REQ_PREFLUSH | IOS_REQ_SYNC));
	T_ASSERT_U64_EQ(recs[2].time_ns, 250000);
	/* bytes 1000..4000: sectors 1..7 */
	T_ASSERT_U64_EQ(recs[3].sector, 1);
	T_ASSERT_EQ(recs[3].nr_sectors, 7u);
	T_ASSERT_U64_EQ(recs[3].where, 12);
	/* a /dev/ name is the device: offsets are where they say */
	T_ASSERT_U64_EQ(recs[4].sector, 8);
	T_ASSERT_EQ(recs[4].nr_sectors, 1u);
	ios_replay_close(r);

	T_ASSERT_MSG(!open_text("v3.log", v3, &r, &e), "%s", e.msg);
	T_ASSERT_EQ(ios_replay_info(r)->format, IOS_REPLAY_IOLOG3);
	T_ASSERT_EQ(read_all(r, 0, recs, 8, &n), T_PASS);
	T_ASSERT_EQ(n, 3u);
	/* microseconds from the first line */
	T_ASSERT_U64_EQ(recs[0].time_ns, (857 - 178) * 1000);
	T_ASSERT_U64_EQ(recs[1].time_ns, (958 - 178) * 1000);
	T_ASSERT_U64_EQ(recs[2].time_ns, (2000 - 178) * 1000);
	T_ASSERT_U64_EQ(recs[0].sector, 61440 / 512);
	ios_replay_close(r);
	return T_PASS;
}

static int test_iolog_errors(void)
{
	EXPECT_ERR(open_text("v9.log", "fio version 9 iolog\n", &r_, &e_), "v9.log: line 1",
		   "unknown iolog version", "version 2", "version 3");
	EXPECT_ERR(open_text("v1.log", "1, 4096, 4096\n", &r_, &e_), "v1.log: line 1",
		   "version 1 iolog");
	EXPECT_ERR(open_text("a.log", "fio version 2 iolog\nf add\nf read 0\n", &r_, &e_),
		   "a.log: line 3", "3 fields", "FILE ACTION OFFSET LENGTH");
	EXPECT_ERR(open_text("b.log", "fio version 2 iolog\nf read 0 4096\n", &r_, &e_),
		   "b.log: line 2", "file 'f' is used before a 'f add' line");
	EXPECT_ERR(open_text("c.log", "fio version 3 iolog\n0 f add\n5 f wait 100 0\n", &r_, &e_),
		   "c.log: line 3", "'wait' is not allowed in a version 3 iolog");
	EXPECT_ERR(open_text("d.log", "fio version 2 iolog\nf add\nf frob 0 1\n", &r_, &e_),
		   "d.log: line 3", "action 'frob'", "read, write");
	EXPECT_ERR(open_text("e.log", "fio version 2 iolog\nf add\nf read 0x10 4096\n", &r_, &e_),
		   "e.log: line 3", "offset '0x10'");
	EXPECT_ERR(open_text("f.log", "fio version 2 iolog\nf add\nf read 0 4294967296\n", &r_,
			     &e_), "f.log: line 3", "length '4294967296'");
	EXPECT_ERR(open_text("g.log", "fio version 2 iolog\nf add\nf write 0 0\n", &r_, &e_),
		   "g.log: line 3", "write of 0 bytes");
	EXPECT_ERR(open_text("h.log", "fio version 3 iolog\nsoon f add\n", &r_, &e_),
		   "h.log: line 2", "timestamp 'soon'");
	EXPECT_ERR(open_text("i.log", "fio version 2 iolog\nf add\nf open\n", &r_, &e_),
		   "i.log", "no I/O to replay");
	EXPECT_ERR(open_text("j.log", "fio version 2 iolog\nf rename\n", &r_, &e_),
		   "j.log: line 2", "file action 'rename'");
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
	ret = T_RUN(test_binary, test_cpu_files, test_binary_errors, test_blkparse,
		    test_blkparse_errors, test_iolog, test_iolog_errors);
	cleanup();
	return ret;
}
