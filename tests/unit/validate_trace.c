/*
 * Description: DiskSim validate traces (src/trace/disksim_trace.c) and
 * their replay (src/trace/validate.c). Real excerpts in tests/data/disksim
 * read whole, five-decimal and six-decimal times alike; every bad line is
 * refused naming file, line and fault (bad direction or buffer action,
 * negative time, malformed or missing field, a line too long, an empty
 * trace). The replay follows DiskSim's arrival rule (each request arrives
 * the previous line's inter-arrival time after the previous request
 * completes, one outstanding; checked on a fake device with a fixed
 * service time), keeps the measured time as SERVTIME/1000 ms, refuses a
 * block past the device's end naming file and line, and gives the same
 * demerit twice on hdd-2004.
 */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "iosched/validate.h"

#define DATA "tests/data/disksim/"

static int test_excerpts(void)
{
	struct ios_dstrace *t;
	struct ios_err e = { 0 };

	T_ASSERT_MSG(ios_dstrace_read(DATA "barracuda-head.trace", &t, &e) == 0, "%s", e.msg);
	T_ASSERT_EQ(t->n, 400);
	T_ASSERT_EQ(t->reads, 264);
	T_ASSERT_EQ(t->writes, 136);
	/* "R Hit    2992396   4  13670.00000  35942.00000" */
	T_ASSERT(t->v[0].dir == IOS_READ && t->v[0].blkno == 2992396 && t->v[0].bcount == 4);
	T_ASSERT(t->v[0].serv_us == 13670.0 && t->v[0].next_us == 35942.0 && t->v[0].line == 1);
	/* "W Hit    3865568   8   1971.00000  29108.00000" */
	T_ASSERT(t->v[2].dir == IOS_WRITE && t->v[2].blkno == 3865568 && t->v[2].bcount == 8);
	T_ASSERT(t->v[399].line == 400 && t->v[399].serv_us == 1560.0);
	ios_dstrace_free(t);
	T_ASSERT_MSG(ios_dstrace_read(DATA "dec_rz26-head.trace", &t, &e) == 0, "%s", e.msg);
	T_ASSERT_EQ(t->n, 100);
	/* "W Hit 25805 43 28803.000000 20296.786638" */
	T_ASSERT(t->v[1].bcount == 43 && fabs(t->v[1].next_us - 20296.786638) < 1e-9);
	ios_dstrace_free(t);
	T_ASSERT(ios_dstrace_read(DATA "no-such.trace", &t, &e) == -ENOENT && !t);
	T_ASSERT(strstr(e.msg, "no-such.trace"));
	return T_PASS;
}

static const struct {
	const char *text;
	const char *want;	/* in the message, after "x.trace:" */
} bad[] = {
	{ "R Hit 1 2 3 4\nX Hit 1 2 3 4\n", "x.trace:2: field 1, direction" },
	{ "R Hot 1 2 3 4\n", "x.trace:1: field 2, buffer action" },
	{ "R Hit -1 2 3 4\n", "x.trace:1: field 3, block number" },
	{ "R Hit 1a 2 3 4\n", "x.trace:1: field 3" },
	{ "R Hit 1 0 3 4\n", "x.trace:1: field 4, block count: '0' (allowed 1..65536" },
	{ "R Hit 1 65537 3 4\n", "field 4" },
	{ "R Hit 1 2 -3 4\n", "x.trace:1: field 5, service time (us): negative time -3" },
	{ "R Hit 1 2 3 -0.5\n", "x.trace:1: field 6, next inter-arrival time (us): negative time" },
	{ "R Hit 1 2 nan 4\n", "x.trace:1: field 5, service time (us): 'nan' is not a finite" },
	{ "R Hit 1 2 inf 4\n", "is not a finite" },
	{ "R Hit 1 2 0x10 4\n", "is not a finite" },
	{ "R Hit 1 2 3 4x\n", "x.trace:1: field 6" },
	{ "R Hit 1 2 1e13 4\n", "x.trace:1: field 5, service time (us): 1e13 (allowed 0.." },
	{ "R Hit 1 2 3 4\nR Hit 1 2 3", "x.trace:2: truncated line: 5 of 6 fields, the next" },
	{ "R Hit 1 2 3 4\nR Hit\n", "x.trace:2: truncated line: 2 of 6 fields, the block number" },
	{ "R Hit 1 2 3 4 5\n", "x.trace:1: more than 6 fields" },
	{ "R Hit 1 2 3 4\n\nR Hit 1 2 3 4\n", "x.trace:2: empty line" },
	{ "", "x.trace: no requests" },
	{ "R Hit 1 2 3 4\nR Hit 1 2 3 4                                                           "
	  "                                                                                     "
	  "                                                          \n",
	  "x.trace:2: line longer than 200" },
};

static int test_bad_input(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ios_dstrace *t = NULL;
		struct ios_err e = { 0 };
		int ret = ios_dstrace_parse("x.trace", bad[i].text, strlen(bad[i].text), &t, &e);

		T_ASSERT_MSG(ret == -EINVAL && !t, "case %zu accepted", i);
		T_ASSERT_MSG(strstr(e.msg, bad[i].want), "case %zu: '%s' lacks '%s'", i, e.msg,
			     bad[i].want);
	}
	return T_PASS;
}

/* ---- a fake device: one command at a time, done FAKE_SVC_NS after it came ---- */

#define FAKE_SVC_NS 1000000ULL

struct fake {
	struct ios_dev dev;
	struct ios_request *rq;
	uint64_t done_ns;
	uint64_t submit_ns[8];
	unsigned nr;
};

static int fk_init(struct ios_dev *d, struct ios_err *e)
{
	(void)d; (void)e;
	return 0;
}
static void fk_exit(struct ios_dev *d) { (void)d; }
static unsigned fk_caps(const struct ios_dev *d) { (void)d; return IOS_DEV_ROTATIONAL; }
static unsigned fk_depth(const struct ios_dev *d) { (void)d; return 1; }

static int fk_submit(struct ios_dev *d, struct ios_request *rq, uint64_t now)
{
	struct fake *f = (struct fake *)d;

	if (f->rq || f->nr == 8)
		return -EBUSY;
	f->rq = rq;
	f->done_ns = now + FAKE_SVC_NS;
	f->submit_ns[f->nr++] = now;
	return 0;
}

static uint64_t fk_next(const struct ios_dev *d)
{
	const struct fake *f = (const struct fake *)d;

	return f->rq ? f->done_ns : IOS_NO_WAKEUP;
}

static struct ios_request *fk_complete(struct ios_dev *d, uint64_t now)
{
	struct fake *f = (struct fake *)d;
	struct ios_request *rq = f->rq;

	if (!rq || now < f->done_ns)
		return NULL;
	f->rq = NULL;
	return rq;
}

static void fk_reset(struct ios_dev *d) { (void)d; }

static const struct ios_dev_type fake_type = {
	.name = "fake", .version = 1,
	.ops = { fk_init, fk_exit, fk_caps, fk_depth, fk_submit, fk_next, fk_complete, fk_reset,
		 NULL },
};

static int test_arrival_rule(void)
{
	/* next_us: 500 us, 0, 2000.5 us; the last line's is never used */
	static const char text[] =
		"R Hit 0 8 1500.0 500.0\n"
		"W Hit 8 8 250.5 0\n"
		"R Miss 100 16 7000 2000.5\n"
		"R Hit 1000 8 3000 99999999\n";
	struct fake f = { .dev = { .type = &fake_type, .profile = "fake", .nr_sectors = 1008 } };
	struct ios_validate_result r;
	struct ios_dstrace *t;
	struct ios_err e = { 0 };

	T_ASSERT(ios_dstrace_parse("a.trace", text, sizeof(text) - 1, &t, &e) == 0);
	T_ASSERT_MSG(ios_validate_run(t, &f.dev, NULL, &r, &e) == 0, "%s", e.msg);
	T_ASSERT_EQ(f.nr, 4);
	T_ASSERT_U64_EQ(f.submit_ns[0], 0);
	T_ASSERT_U64_EQ(f.submit_ns[1], 1000000 + 500000);	/* completion + 500 us */
	T_ASSERT_U64_EQ(f.submit_ns[2], 2500000);		/* completion + 0 */
	T_ASSERT_U64_EQ(f.submit_ns[3], 3500000 + 2000500);
	T_ASSERT(r.n == 4 && r.reads == 3 && r.writes == 1);
	for (int i = 0; i < 4; i++)
		T_ASSERT(r.simulated_ms[i] == 1.0);
	T_ASSERT(r.measured_ms[0] == 1.5 && r.measured_ms[1] == 0.2505 && r.measured_ms[2] == 7.0);
	T_ASSERT(!strcmp(r.device, "fake") && !strcmp(r.trace, "a.trace"));
	T_ASSERT(r.sim.mean_ms == 1.0 && r.sim.max_ms == 1.0);
	/* nearest rank: p50 of {0.2505, 1.5, 3, 7} is the 2nd */
	T_ASSERT(r.meas.p50_ms == 1.5 && r.meas.p10_ms == 0.2505 && r.meas.max_ms == 7.0);
	T_ASSERT(r.meas.mean_ms == (1.5 + 0.2505 + 7 + 3) / 4);
	T_ASSERT(r.rms_ms > 0 && isfinite(r.rms_ms));
	ios_validate_result_free(&r);

	/* one block short: line 4 ends at block 1007 */
	f = (struct fake){ .dev = { .type = &fake_type, .profile = "fake", .nr_sectors = 1007 } };
	T_ASSERT(ios_validate_run(t, &f.dev, "tiny", &r, &e) == -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "a.trace:4: blocks 1000..1007 past the end of device tiny "
			    "(1007 blocks"), "%s", e.msg);
	T_ASSERT_EQ(f.nr, 0);	/* checked before anything ran */
	ios_dstrace_free(t);
	return T_PASS;
}

static int run_hdd(const struct ios_dstrace *t, double *rms, double *mean)
{
	struct ios_err e = { 0 };
	struct ios_dev *dev = ios_dev_create("hdd-2004", NULL, 1, &e);
	struct ios_validate_result r;

	T_ASSERT_MSG(dev, "%s", e.msg);
	T_ASSERT_MSG(ios_validate_run(t, dev, NULL, &r, &e) == 0, "%s", e.msg);
	*rms = r.rms_ms;
	*mean = r.sim.mean_ms;
	T_ASSERT(r.n == t->n && !strcmp(r.device, "hdd-2004"));
	for (size_t i = 0; i < r.n; i++)
		T_ASSERT(r.simulated_ms[i] > 0 && r.measured_ms[i] == t->v[i].serv_us / 1000.0);
	ios_validate_result_free(&r);
	ios_dev_destroy(dev);
	return T_PASS;
}

static int test_hdd_deterministic(void)
{
	struct ios_dstrace *t;
	struct ios_err e = { 0 };
	double a, b, ma, mb;

	T_ASSERT(ios_dstrace_read(DATA "barracuda-head.trace", &t, &e) == 0);
	T_ASSERT(run_hdd(t, &a, &ma) == T_PASS);
	T_ASSERT(run_hdd(t, &b, &mb) == T_PASS);
	T_ASSERT(a == b && ma == mb);
	T_ASSERT(a > 0 && isfinite(a));
	ios_dstrace_free(t);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_excerpts, test_bad_input, test_arrival_rule, test_hdd_deterministic);
}
