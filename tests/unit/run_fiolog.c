/*
 * Description: write_bw_log / write_lat_log / write_iops_log produce fio
 * 3.33's files: names PREFIX_kind.N.log with N counting every job clone
 * from 1 (no .N with per_job_logs=0, clones then share the file), a bare
 * option naming the log after the job; one line per I/O whose values agree
 * with the report (line count = total_ios, mean of the clat log = clat
 * mean, bw = bytes * 10^6 / clat); slat only for async engines; the offset
 * column with log_offset; the ioprio in hex with log_prio. With
 * log_avg_msec the latency lines are the rounded means of the per-I/O
 * values of each window and the bandwidth / IOPS lines the bytes / I/Os
 * that completed in it. Long logs go through the bounded buffers intact,
 * the same run writes the same bytes, and a log that cannot be created
 * fails the run with a message naming the job, option and path.
 */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "harness.h"

static char dir[] = "/tmp/iosched-fiolog-XXXXXX";

/* One parsed log line. */
struct line {
	uint64_t t, v, bs, off;
	int dir;
	char prio[16];
	int nf;		/* fields */
};

struct log {
	struct line *l;
	size_t n;
};

static void log_free(struct log *g)
{
	free(g->l);
	g->l = NULL;
	g->n = 0;
}

/* Read @name; -1 if missing, else the number of lines (each checked for shape). */
static long log_read(const char *name, struct log *g)
{
	size_t len, cap = 0;
	char *text = t_read_file(name, &len), *p, *nl;

	g->l = NULL;
	g->n = 0;
	if (!text)
		return -1;
	for (p = text; *p; p = nl + 1) {
		struct line ln = { 0 };
		char *f[8], *q = p;
		int nf = 0;

		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(stderr, "%s: last line without newline\n", name);
			free(text);
			return -2;
		}
		*nl = '\0';
		while (nf < 8) {
			char *c = strstr(q, ", ");

			f[nf++] = q;
			if (!c)
				break;
			*c = '\0';
			q = c + 2;
		}
		if (nf < 5 || nf > 6) {
			fprintf(stderr, "%s: line with %d fields\n", name, nf);
			free(text);
			return -2;
		}
		ln.nf = nf;
		ln.t = strtoull(f[0], NULL, 10);
		ln.v = strtoull(f[1], NULL, 10);
		ln.dir = atoi(f[2]);
		ln.bs = strtoull(f[3], NULL, 10);
		ln.off = nf == 6 ? strtoull(f[4], NULL, 10) : 0;
		snprintf(ln.prio, sizeof(ln.prio), "%s", f[nf - 1]);
		if (g->n == cap) {
			cap = cap ? 2 * cap : 256;
			g->l = realloc(g->l, cap * sizeof(*g->l));
			if (!g->l) {
				free(text);
				return -2;
			}
		}
		g->l[g->n++] = ln;
	}
	free(text);
	return (long)g->n;
}

static int run_job(const char *text, struct ios_run_result *res, struct ios_jobfile *jf,
		   struct ios_err *e)
{
	struct ios_job_parse_opts po;
	struct ios_run_config cfg = { 0 };
	int ret;

	ios_job_parse_opts_init(&po);
	memset(jf, 0, sizeof(*jf));
	memset(e, 0, sizeof(*e));
	ret = ios_job_parse_buf("log.fio", text, strlen(text), &po, jf, e);
	if (ret)
		return ret;
	cfg.seed = 3;
	return ios_run(jf, &cfg, res, e);
}

static bool exists(const char *name)
{
	struct stat st;

	return stat(name, &st) == 0;
}

static const char names_job[] =
	"[global]\ndirect=1\nsize=1m\nbs=4k\n"
	"[a]\nrw=read\nwrite_bw_log=A\nwrite_lat_log=A\nwrite_iops_log=A\n"
	"[b]\nrw=randwrite\nnumjobs=2\nioengine=libaio\niodepth=4\nwrite_bw_log\n"
	"write_lat_log=B\nlog_offset=1\n"
	"[c]\nrw=randread\nnumjobs=2\nper_job_logs=0\nwrite_lat_log=C\nlog_prio=1\n"
	"prioclass=1\nprio=3\n";

static int test_names_and_per_io_lines(void)
{
	struct ios_run_result res;
	struct ios_jobfile jf;
	struct ios_err e;
	struct log bw, iops, lat, clat, slat;
	const struct ios_dir_result *ra, *wb;
	double sum = 0;

	T_ASSERT_MSG(run_job(names_job, &res, &jf, &e) == 0, "run: %s", e.msg);
	T_ASSERT_EQ(res.nr_jobs, 5);

	/* job a (fio job 1): psync, no slat lines but the file exists */
	ra = &res.jobs[0].dir[0];
	T_ASSERT_EQ(ra->total_ios, 256);
	T_ASSERT_EQ(log_read("A_bw.1.log", &bw), 256);
	T_ASSERT_EQ(log_read("A_iops.1.log", &iops), 256);
	T_ASSERT_EQ(log_read("A_lat.1.log", &lat), 256);
	T_ASSERT_EQ(log_read("A_clat.1.log", &clat), 256);
	T_ASSERT_EQ(log_read("A_slat.1.log", &slat), 0);
	for (size_t i = 0; i < 256; i++) {
		T_ASSERT_EQ(clat.l[i].nf, 5);
		T_ASSERT_EQ(clat.l[i].dir, 0);
		T_ASSERT_EQ(clat.l[i].bs, 4096);
		T_ASSERT(!strcmp(clat.l[i].prio, "0"));
		T_ASSERT(i == 0 || clat.l[i].t >= clat.l[i - 1].t);
		T_ASSERT_EQ(iops.l[i].v, 1);
		T_ASSERT_EQ(bw.l[i].t, clat.l[i].t);
		T_ASSERT_U64_EQ(bw.l[i].v, 4096ULL * 1000000 / clat.l[i].v);
		T_ASSERT(lat.l[i].v >= clat.l[i].v);
		sum += (double)clat.l[i].v;
	}
	T_ASSERT_NEAR(sum / 256, ra->clat.mean, 1e-6 * ra->clat.mean);
	{
		uint64_t mn = UINT64_MAX, mx = 0;

		for (size_t i = 0; i < 256; i++) {
			mn = clat.l[i].v < mn ? clat.l[i].v : mn;
			mx = clat.l[i].v > mx ? clat.l[i].v : mx;
		}
		T_ASSERT_U64_EQ(mn, ra->clat.min);
		T_ASSERT_U64_EQ(mx, ra->clat.max);
	}
	/* a per-I/O bw log makes the bandwidth statistic per I/O, as in fio */
	T_ASSERT_EQ(ra->bw.n, 256);
	T_ASSERT_EQ(ra->iops.n, 256);
	log_free(&bw);
	log_free(&iops);
	log_free(&lat);
	log_free(&clat);
	log_free(&slat);

	/* jobs 2 and 3: clones of b; bare write_bw_log is named after the job */
	for (unsigned n = 2; n <= 3; n++) {
		char name[64];

		wb = &res.jobs[n - 1].dir[1];
		snprintf(name, sizeof(name), "b_bw.%u.log", n);
		T_ASSERT_EQ(log_read(name, &bw), 256);
		snprintf(name, sizeof(name), "B_slat.%u.log", n);
		T_ASSERT_EQ(log_read(name, &slat), 256);
		snprintf(name, sizeof(name), "B_clat.%u.log", n);
		T_ASSERT_EQ(log_read(name, &clat), 256);
		sum = 0;
		for (size_t i = 0; i < 256; i++) {
			T_ASSERT_EQ(bw.l[i].nf, 6);
			T_ASSERT_EQ(bw.l[i].dir, 1);
			T_ASSERT(bw.l[i].off % 4096 == 0 && bw.l[i].off < (1u << 20));
			T_ASSERT_U64_EQ(slat.l[i].off, bw.l[i].off);
			T_ASSERT_U64_EQ(clat.l[i].off, bw.l[i].off);
			sum += (double)slat.l[i].v;
		}
		T_ASSERT_NEAR(sum / 256, wb->slat.mean, 1e-6 * wb->slat.mean + 1e-9);
		log_free(&bw);
		log_free(&slat);
		log_free(&clat);
	}
	T_ASSERT(!exists("b_bw.1.log") && !exists("b_bw.4.log") && !exists("B_bw.2.log"));

	/* jobs 4 and 5 share C_*.log; RT class 1 level 3 = 0x2003 */
	T_ASSERT_EQ(log_read("C_clat.log", &clat), 512);
	for (size_t i = 0; i < 512; i++)
		T_ASSERT_MSG(!strcmp(clat.l[i].prio, "0x2003"), "prio '%s'", clat.l[i].prio);
	log_free(&clat);
	T_ASSERT(!exists("C_clat.4.log") && !exists("C_clat.5.log"));

	ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	return T_PASS;
}

/* Without a priority, fio writes 0; the RT class alone is 1 unless log_prio. */
static int test_prio_column(void)
{
	struct ios_run_result res;
	struct ios_jobfile jf;
	struct ios_err e;
	struct log g;

	T_ASSERT_MSG(run_job("[global]\ndirect=1\nsize=64k\nbs=4k\nrw=read\n"
			     "[r]\nprioclass=1\nwrite_iops_log=R\n"
			     "[l]\nprio=5\nwrite_iops_log=L\nlog_prio=1\n", &res, &jf, &e) == 0,
		     "run: %s", e.msg);
	T_ASSERT_EQ(log_read("R_iops.1.log", &g), 16);
	T_ASSERT(!strcmp(g.l[0].prio, "1"));
	log_free(&g);
	/* prio= without prioclass= is a best-effort level: 2 << 13 | 5 */
	T_ASSERT_EQ(log_read("L_iops.2.log", &g), 16);
	T_ASSERT(!strcmp(g.l[0].prio, "0x4005"));
	log_free(&g);
	ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static const char win_job_fmt[] =
	"[w]\nrw=randrw\ndirect=1\nsize=16m\nbs=4k\nruntime=3\nioengine=libaio\niodepth=2\n"
	"write_lat_log=%s\nwrite_bw_log=%s\nwrite_iops_log=%s\nlog_avg_msec=%d\n";

/*
 * The windowed logs are what the per-I/O logs of the same run say, window
 * by window: logging does not change the simulation.
 */
static int test_windows_match_per_io(void)
{
	const uint64_t W = 100;
	struct ios_run_result r1, r2;
	struct ios_jobfile j1, j2;
	struct ios_err e;
	struct log pc, pi, wc, wb, wi;
	char job[1024];
	uint64_t end_ms, nwin;

	snprintf(job, sizeof(job), win_job_fmt, "P", "P", "P", 0);
	T_ASSERT_MSG(run_job(job, &r1, &j1, &e) == 0, "run: %s", e.msg);
	snprintf(job, sizeof(job), win_job_fmt, "W", "W", "W", (int)W);
	T_ASSERT_MSG(run_job(job, &r2, &j2, &e) == 0, "run: %s", e.msg);
	/* the same simulation */
	T_ASSERT_U64_EQ(r1.sim_end_ns, r2.sim_end_ns);
	T_ASSERT_U64_EQ(r1.jobs[0].dir[0].total_ios, r2.jobs[0].dir[0].total_ios);

	T_ASSERT(log_read("P_clat.1.log", &pc) > 100);
	T_ASSERT(log_read("P_iops.1.log", &pi) == (long)pc.n);
	T_ASSERT(log_read("W_clat.1.log", &wc) > 10);
	T_ASSERT(log_read("W_bw.1.log", &wb) > 10);
	T_ASSERT(log_read("W_iops.1.log", &wi) > 10);
	end_ms = (r2.jobs[0].finish_ns - r2.jobs[0].start_ns) / 1000000;
	nwin = end_ms / W + 1;

	for (uint64_t k = 0; k < nwin; k++) {
		for (int d = 0; d < 2; d++) {
			uint64_t sum = 0, n = 0, bytes = 0, ios = 0, t_end = (k + 1) * W;
			const struct line *c = NULL, *b = NULL, *io = NULL;

			if (t_end > end_ms)
				t_end = end_ms;
			for (size_t i = 0; i < pc.n; i++) {
				if (pc.l[i].dir != d || pc.l[i].t / W != k)
					continue;
				sum += pc.l[i].v;
				n++;
				bytes += pi.l[i].bs;
				ios++;
			}
			for (size_t i = 0; i < wc.n; i++)
				if (wc.l[i].dir == d && wc.l[i].t == t_end)
					c = &wc.l[i];
			for (size_t i = 0; i < wb.n; i++)
				if (wb.l[i].dir == d && wb.l[i].t == t_end)
					b = &wb.l[i];
			for (size_t i = 0; i < wi.n; i++)
				if (wi.l[i].dir == d && wi.l[i].t == t_end)
					io = &wi.l[i];
			if (!n) {
				T_ASSERT_MSG(!c && !b && !io, "window %" PRIu64 " dir %d: a line "
					     "without I/O", k, d);
				continue;
			}
			T_ASSERT_MSG(c, "window %" PRIu64 " dir %d: no clat line", k, d);
			T_ASSERT_U64_EQ(c->v, (sum + n / 2) / n);
			T_ASSERT_EQ(c->bs, 0);
			if (t_end == (k + 1) * W) {
				/* whole windows: KiB/s and IOPS over exactly W ms */
				T_ASSERT_MSG(b && io, "window %" PRIu64 " dir %d", k, d);
				T_ASSERT_U64_EQ(b->v, bytes * 1000 / W / 1024);
				T_ASSERT_U64_EQ(io->v, ios * 1000 / W);
			}
		}
	}
	/* every windowed line sits on a window end or the job's end */
	for (size_t i = 0; i < wc.n; i++)
		T_ASSERT(wc.l[i].t % W == 0 || wc.l[i].t == end_ms);
	log_free(&pc);
	log_free(&pi);
	log_free(&wc);
	log_free(&wb);
	log_free(&wi);
	ios_run_result_free(&r1);
	ios_run_result_free(&r2);
	ios_jobfile_free(&j1);
	ios_jobfile_free(&j2);
	return T_PASS;
}

/* 32k I/Os: several buffer flushes; every line intact; the same bytes twice. */
static int test_long_log_and_determinism(void)
{
	static const char job[] =
		"[n]\nioengine=null\nrw=randread\nsize=128m\nbs=4k\niodepth=8\n"
		"write_lat_log=N\nlog_offset=1\n";
	struct ios_run_result res;
	struct ios_jobfile jf;
	struct ios_err e;
	struct log g;
	char *a, *b;
	size_t la, lb;

	T_ASSERT_MSG(run_job(job, &res, &jf, &e) == 0, "run: %s", e.msg);
	T_ASSERT_EQ(log_read("N_clat.1.log", &g), 32768);
	for (size_t i = 0; i < g.n; i++)
		T_ASSERT(g.l[i].nf == 6 && g.l[i].bs == 4096 && g.l[i].off % 4096 == 0);
	log_free(&g);
	ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	a = t_read_file("N_lat.1.log", &la);
	T_ASSERT(a && la > (256u << 10));
	T_ASSERT_MSG(run_job(job, &res, &jf, &e) == 0, "run: %s", e.msg);
	b = t_read_file("N_lat.1.log", &lb);
	T_ASSERT(b);
	/* truncated and rewritten, not appended to */
	T_ASSERT_EQ(la, lb);
	T_ASSERT(!memcmp(a, b, la));
	free(a);
	free(b);
	ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static int test_errors(void)
{
	struct ios_run_result res;
	struct ios_jobfile jf;
	struct ios_err e;
	int ret;

	ret = run_job("[global]\nsize=64k\n[x]\nrw=read\n[y]\nrw=read\nwrite_bw_log=nodir/y\n",
		      &res, &jf, &e);
	T_ASSERT_EQ(ret, -ENOENT);
	T_ASSERT_MSG(strstr(e.msg, "log.fio:5: job 'y'") && strstr(e.msg, "write_bw_log=nodir/y") &&
		     strstr(e.msg, "cannot create 'nodir/y_bw.2.log'") &&
		     strstr(e.msg, "No such file"), "message: %s", e.msg);
	ios_jobfile_free(&jf);

	ret = run_job("[x]\nsize=64k\nlog_avg_msec=4294967296\n", &res, &jf, &e);
	T_ASSERT_EQ(ret, -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "log.fio:3: option 'log_avg_msec=4294967296'") &&
		     strstr(e.msg, "allowed 0..4294967295"), "message: %s", e.msg);
	ios_jobfile_free(&jf);
	ret = run_job("[x]\nsize=64k\nlog_avg_msec=-1\n", &res, &jf, &e);
	T_ASSERT_EQ(ret, -ERANGE);	/* a sign the range does not allow: out of range */
	T_ASSERT_MSG(strstr(e.msg, "log.fio:3: option 'log_avg_msec=-1'") &&
		     strstr(e.msg, "out of range, allowed 0..4294967295"), "message: %s", e.msg);
	ios_jobfile_free(&jf);
	ret = run_job("[x]\nsize=64k\nlog_avg_msec=1s\n", &res, &jf, &e);
	T_ASSERT_EQ(ret, -EINVAL);
	T_ASSERT_MSG(strstr(e.msg, "option 'log_avg_msec=1s'"), "message: %s", e.msg);
	ios_jobfile_free(&jf);
	ret = run_job("[x]\nsize=64k\nlog_offset=2\n", &res, &jf, &e);
	T_ASSERT_EQ(ret, -ERANGE);
	T_ASSERT_MSG(strstr(e.msg, "option 'log_offset=2'") && strstr(e.msg, "allowed 0..1"),
		     "message: %s", e.msg);
	ios_jobfile_free(&jf);
	return T_PASS;
}

int main(void)
{
	int ret;

	if (t_tmpdir_enter(dir))
		return T_FAIL;
	ret = T_RUN(test_names_and_per_io_lines, test_prio_column, test_windows_match_per_io,
		    test_long_log_and_determinism, test_errors);
	return t_tmpdir_leave(dir, ret);
}
