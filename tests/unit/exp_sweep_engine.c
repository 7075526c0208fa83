/*
 * Description: the sweep engines' text (iosched/sweep_engine.h): a sweep of
 * more tasks than MaxArraySize is cut into arrays of at most MaxArraySize
 * indices whose first tasks are the script's argument; the script's
 * #SBATCH lines (array with the %N throttle, output files under DIR/slurm,
 * partition, time) and its task arithmetic; sbatch's vector per chunk and
 * the chained submit lines under a throttle; parallel's vector and line;
 * sh quoting; every bad field (relative or unsafe path, bad Slurm name,
 * each bad --time form, no task) refused with the option named.
 */
#include <errno.h>
#include <string.h>
#include "harness.h"
#include "iosched/sweep_engine.h"

#define T_HAS(s, want) T_ASSERT_MSG(strstr((s), (want)), "no '%s' in:\n%s", (want), (s))

static struct ios_sweep_slurm slurm(size_t n, size_t max, size_t running)
{
	return (struct ios_sweep_slurm){ .bin = "/opt/bin/iosched", .dir = "/shared/sw",
					 .nr_tasks = n, .max_array_size = max,
					 .max_running = running };
}

static int test_chunks(void)
{
	static const struct { size_t n, max, chunks, last_first, last_n; } c[] = {
		{ 1, 1001, 1, 0, 1 }, { 1001, 1001, 1, 0, 1001 }, { 1002, 1001, 2, 1001, 1 },
		{ 2500, 1001, 3, 2002, 498 }, { 7, 1, 7, 6, 1 }, { 6, 4, 2, 4, 2 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ios_sweep_slurm s = slurm(c[i].n, c[i].max, 0);
		size_t first, n, sum = 0;

		T_ASSERT_MSG(ios_sweep_slurm_chunks(&s) == c[i].chunks, "case %zu: %zu chunks", i,
			     ios_sweep_slurm_chunks(&s));
		for (size_t k = 0; k < c[i].chunks; k++) {
			ios_sweep_slurm_chunk(&s, k, &first, &n);
			T_ASSERT(first == sum && n >= 1 && n <= c[i].max);
			sum += n;
		}
		T_ASSERT(sum == c[i].n);
		T_ASSERT(first == c[i].last_first && n == c[i].last_n);
	}
	return T_PASS;
}

static int test_script(void)
{
	struct ios_sweep_slurm s = slurm(2500, 1001, 8);
	struct ios_buf b;
	char *argv[IOS_SWEEP_ARGV_MAX];

	s.partition = "short";
	s.time = "0:30:00";
	ios_buf_init(&b);
	T_ASSERT(!ios_sweep_slurm_script(&s, "/shared/sw/slurm/sweep.sbatch", &b));
	T_HAS(b.s, "#!/bin/sh\n");
	T_HAS(b.s, "\n#SBATCH --array=0-1000%8\n");
	T_HAS(b.s, "\n#SBATCH --output=/shared/sw/slurm/%A_%a.out\n");
	T_HAS(b.s, "\n#SBATCH --error=/shared/sw/slurm/%A_%a.err\n");
	T_HAS(b.s, "\n#SBATCH --partition=short\n#SBATCH --time=0:30:00\n");
	T_HAS(b.s, "must be on a\n# filesystem every node mounts");
	T_HAS(b.s, "\nk=$((${1:-0} + SLURM_ARRAY_TASK_ID))\n");
	T_HAS(b.s, "-ge 2500 ]");
	T_HAS(b.s, "\nexec /opt/bin/iosched sweep run /shared/sw --task \"$k\"\n");
	/* the three chunks, chained, in the script's comment */
	T_HAS(b.s, "#   j=$(sbatch --parsable --array=0-1000%8 /shared/sw/slurm/sweep.sbatch 0) &&\n");
	T_HAS(b.s, "#   j=$(sbatch --parsable --array=0-497%8 --dependency=afterany:\"${j%%;*}\" "
		   "/shared/sw/slurm/sweep.sbatch 2002)\n");
	T_ASSERT(!strstr(b.s, "--account"));
	ios_buf_free(&b);

	T_ASSERT(!ios_sweep_slurm_sbatch_argv(&s, 1, "/x.sbatch", "77", argv));
	{
		const char *want[] = { "sbatch", "--parsable", "--array=0-1000%8",
				       "--dependency=afterany:77", "/x.sbatch", "1001", NULL };

		for (size_t i = 0; want[i] || argv[i]; i++)
			T_ASSERT_MSG(want[i] && argv[i] && !strcmp(want[i], argv[i]),
				     "word %zu: '%s' != '%s'", i, argv[i] ? argv[i] : "(end)",
				     want[i] ? want[i] : "(end)");
	}
	ios_sweep_argv_free(argv);

	/* one chunk, no throttle: no chaining, no %N */
	s = slurm(30, 1001, 0);
	ios_buf_init(&b);
	T_ASSERT(!ios_sweep_slurm_submit_text(&s, "/x.sbatch", &b));
	T_ASSERT_MSG(!strcmp(b.s, "sbatch --parsable --array=0-29 /x.sbatch 0\n"), "%s", b.s);
	ios_buf_free(&b);
	ios_buf_init(&b);
	T_ASSERT(!ios_sweep_slurm_script(&s, "/x.sbatch", &b));
	T_HAS(b.s, "\n#SBATCH --array=0-29\n");
	T_HAS(b.s, "\n# Submit: sbatch /x.sbatch\n");
	ios_buf_free(&b);
	return T_PASS;
}

static int test_bad(void)
{
	static const struct {
		const char *bin, *dir, *partition, *time, *want;
		size_t n;
	} c[] = {
		{ "iosched", "/d", NULL, NULL, "the iosched binary iosched: not an absolute path", 1 },
		{ "/b", "/my dir", NULL, NULL, "DIR /my dir: holds ' ' (byte 4)", 1 },
		{ "/b", "/d%x", NULL, NULL, "holds '%'", 1 },
		{ "/b", "/d$x", NULL, NULL, "holds '$'", 1 },
		{ "/b", "/d", "a b", NULL, "--partition 'a b': a character", 1 },
		{ "/b", "/d", "", NULL, "--partition '': empty", 1 },
		{ "/b", "/d", NULL, "1:2:3:4", "--time 1:2:3:4: allowed", 1 },
		{ "/b", "/d", NULL, "-5", "--time -5: allowed", 1 },
		{ "/b", "/d", NULL, "1-", "--time 1-: allowed", 1 },
		{ "/b", "/d", NULL, "5m", "--time 5m: allowed", 1 },
		{ "/b", "/d", NULL, "1::2", "--time 1::2: allowed", 1 },
		{ "/b", "/d", NULL, NULL, "the sweep has no task", 0 },
	};
	static const char *good_time[] = { "5", "5:30", "1:00:00", "2-12", "2-12:30", "2-1:2:3",
					   "UNLIMITED", NULL };

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ios_sweep_slurm s = slurm(c[i].n, 1001, 0);
		struct ios_err e = { 0 };

		s.bin = c[i].bin;
		s.dir = c[i].dir;
		s.partition = c[i].partition;
		s.time = c[i].time;
		T_ASSERT_MSG(ios_sweep_slurm_check(&s, &e) == -EINVAL, "case %zu accepted", i);
		T_ASSERT_MSG(strstr(e.msg, c[i].want), "case %zu: '%s' lacks '%s'", i, e.msg,
			     c[i].want);
	}
	for (size_t i = 0; good_time[i]; i++) {
		struct ios_sweep_slurm s = slurm(3, 1001, 0);
		struct ios_err e = { 0 };

		s.time = good_time[i];
		T_ASSERT_MSG(!ios_sweep_slurm_check(&s, &e), "--time %s refused: %s", good_time[i],
			     e.msg);
	}
	{
		struct ios_sweep_parallel p = { .bin = "/b", .dir = "/d", .nr_tasks = 3,
						.sshlogin = "h1 h2" };
		struct ios_err e = { 0 };

		T_ASSERT(ios_sweep_parallel_check(&p, &e) == -EINVAL);
		T_HAS(e.msg, "--sshlogin 'h1 h2': no blanks");
	}
	return T_PASS;
}

static int test_parallel(void)
{
	struct ios_sweep_parallel p = { .bin = "/opt/iosched", .dir = "/shared/sw",
					.nr_tasks = 12, .jobs = 4, .sshlogin = "8/n1,n2,:" };
	struct ios_buf b;
	char w0[] = "a", w1[] = "it's", w2[] = "", w3[] = "%x", w4[] = "{}";
	char *w[] = { w0, w1, w2, w3, w4, NULL };

	ios_buf_init(&b);
	T_ASSERT(!ios_sweep_parallel_line(&p, &b));
	T_ASSERT_MSG(!strcmp(b.s, "seq 0 11 | parallel --jobs 4 --sshlogin 8/n1,n2,: "
			     "/opt/iosched sweep run /shared/sw --task '{}'\n"), "%s", b.s);
	ios_buf_free(&b);
	p.jobs = 0;
	p.sshlogin = NULL;
	ios_buf_init(&b);
	T_ASSERT(!ios_sweep_parallel_line(&p, &b));
	T_ASSERT_MSG(!strcmp(b.s, "seq 0 11 | parallel /opt/iosched sweep run /shared/sw "
			     "--task '{}'\n"), "%s", b.s);
	ios_buf_free(&b);
	ios_buf_init(&b);
	ios_sweep_sh_words(w, &b);
	T_ASSERT_MSG(!strcmp(b.s, "a 'it'\\''s' '' %x '{}'"), "%s", b.s);
	ios_buf_free(&b);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_chunks, test_script, test_bad, test_parallel);
}
