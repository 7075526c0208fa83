/*
 * Description: the job file's structure follows fio 3.33: comments (whole
 * lines and trailing ';'/'#'), whitespace (indentation and blanks before '='
 * ignored, a blank after '=' refused unless it precedes a plain number, as
 * fio breaks such values), several [global] sections each reaching only the
 * jobs below them, include (relative to the including file, nested, no
 * sections inside, loops and missing files are errors; tested with a temp
 * directory on disk), ${VAR} expansion (empty when unset, key included), and
 * section-header errors.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "job_util.h"

static int test_comments(void)
{
	const struct ios_job *j = jt_job("; leading comment\n"
					 "# another\n"
					 "   ; indented comment\n"
					 "[j] ; after the header\n"
					 "rw=randread;no space\n"
					 "bs=8k #hash\n"
					 "iodepth=4\t; tab then comment\n"
					 "\n"
					 "\t\n");

	T_ASSERT(j);
	T_ASSERT_EQ(j->rw, IOS_RW_RANDREAD);
	T_ASSERT_U64_EQ(j->bs[0], 8192);
	T_ASSERT_EQ(j->iodepth, 4);
	/* a comment cuts a value: there is no escape, as in fio */
	j = jt_job("[j]\nfilename=a#b\n");
	T_ASSERT(j);
	T_ASSERT(!strcmp(j->filename, "a"));
	/* CRLF line ends */
	j = jt_job("[j]\r\nbs=16k\r\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 16384);
	jt_cleanup();
	return T_PASS;
}

static int test_whitespace(void)
{
	const struct ios_job *j;

	/* indentation and blanks before '=' are fine */
	j = jt_job("  [j]\n\t  bs   =16k\n   time_based   \n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 16384);
	T_ASSERT_EQ(j->time_based, 1);
	/* a blank after '=' in front of a plain number: fio reads the number */
	j = jt_job("[j]\nbs = 8192\nnumjobs= 3\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->bs[0], 8192);
	T_ASSERT_EQ(j->numjobs, 3);
	/* fio 3.33: "rw= randread" fails, "bs = 8k" is 8 bytes, " f" is a name */
	T_ASSERT(jt_fails("[j]\nrw= randread\n", -EINVAL, "t.fio:2", "'rw= randread'",
			  "blank after '='", NULL));
	T_ASSERT(jt_fails("[j]\nbs = 8k\n", -EINVAL, "blank after '='", NULL));
	T_ASSERT(jt_fails("[j]\nfilename= f\n", -EINVAL, "blank after '='", NULL));
	/* "key : value" is not a thing */
	T_ASSERT(jt_fails("[j]\nbs : 8k\n", -EINVAL, "unknown option 'bs : 8k'", NULL));
	/* names are case-sensitive, as in fio */
	T_ASSERT(jt_fails("[j]\nBS=8k\n", -EINVAL, "unknown option 'BS'", NULL));
	jt_cleanup();
	return T_PASS;
}

static int test_globals(void)
{
	T_ASSERT_EQ(jt_parse("[global]\nbs=8k\nrw=write\n"
			     "[a]\n"
			     "[global]\nbs=16k\n"
			     "[b]\nrw=read\n"
			     "[c]\n"), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 3);
	/* a: only the first global */
	T_ASSERT(!strcmp(jt_jf.jobs[0].name, "a"));
	T_ASSERT_U64_EQ(jt_jf.jobs[0].bs[0], 8192);
	T_ASSERT_EQ(jt_jf.jobs[0].rw, IOS_RW_WRITE);
	/* b: the second global adds to the first; its own rw wins */
	T_ASSERT_U64_EQ(jt_jf.jobs[1].bs[0], 16384);
	T_ASSERT_EQ(jt_jf.jobs[1].rw, IOS_RW_READ);
	/* c: a job's options do not leak into the next job */
	T_ASSERT_EQ(jt_jf.jobs[2].rw, IOS_RW_WRITE);
	T_ASSERT_EQ(jt_jf.jobs[2].index, 2);
	T_ASSERT_EQ(jt_jf.jobs[2].line, 9);
	/* global options are recorded for JSON, in order */
	T_ASSERT_EQ(jt_jf.nr_global_opts, 3);
	T_ASSERT(!strcmp(jt_jf.global_opts[2].key, "bs"));
	T_ASSERT(!strcmp(jt_jf.global_opts[2].value, "16k"));
	/* "GLOBAL" is a job, "global" only in lower case */
	T_ASSERT_EQ(jt_parse("[GLOBAL]\n"), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 1);
	/* name= renames a job; in [global] it is ignored (fio does the same) */
	T_ASSERT_EQ(jt_parse("[global]\nname=g\n[j]\nname=renamed\n[k]\n"), 0);
	T_ASSERT(!strcmp(jt_jf.jobs[0].name, "renamed"));
	T_ASSERT(!strcmp(jt_jf.jobs[1].name, "k"));
	jt_cleanup();
	return T_PASS;
}

static int test_sections(void)
{
	T_ASSERT(jt_fails("bs=4k\n[j]\n", -EINVAL, "t.fio:1", "outside of a [section]", NULL));
	T_ASSERT(jt_fails("[j\nbs=4k\n", -EINVAL, "t.fio:1", "missing ']'", NULL));
	T_ASSERT(jt_fails("[j]x\n", -EINVAL, "missing ']'", NULL));
	T_ASSERT(jt_fails("[]\n", -EINVAL, "empty section name", NULL));
	T_ASSERT(jt_fails("[a]b]\n", -EINVAL, "bracket", NULL));
	{
		static const char nul[] = "[j]\nbs=4k\0junk\n";
		struct ios_job_parse_opts po;

		ios_jobfile_free(&jt_jf);
		ios_err_clear(&jt_e);
		jt_opts(&po, IOS_JOB_COMPAT_FIO3);
		T_ASSERT_EQ(ios_job_parse_buf("n.fio", nul, sizeof(nul) - 1, &po, &jt_jf, &jt_e),
			    -EINVAL);
		T_ASSERT(strstr(jt_e.msg, "n.fio:2: NUL byte"));
	}
	/* an empty file and a globals-only file define no jobs, without error */
	T_ASSERT_EQ(jt_parse(""), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 0);
	T_ASSERT_EQ(jt_parse("[global]\nbs=4k\n"), 0);
	T_ASSERT_EQ(jt_jf.nr_jobs, 0);
	/* a section name is kept as written, blanks included (fio keeps them) */
	T_ASSERT_EQ(jt_parse("[ spaced ]\n"), 0);
	T_ASSERT(!strcmp(jt_jf.jobs[0].name, " spaced "));
	jt_cleanup();
	return T_PASS;
}

static int test_env(void)
{
	const struct ios_job *j;

	j = jt_job("[j]\nsize=${SIZE}\niodepth=${DEPTH}\nfilename=f${UNSET}x${EMPTY}\n"
		   "${KEY}=16k\n");
	T_ASSERT(j);
	T_ASSERT_U64_EQ(j->size, 64ULL << 20);
	T_ASSERT_EQ(j->iodepth, 8);
	T_ASSERT(!strcmp(j->filename, "fx"));
	T_ASSERT_U64_EQ(j->bs[0], 16384);
	/* the JSON record holds the expanded value */
	T_ASSERT(!strcmp(jt_kv(j->opts, j->nr_opts, "size"), "64m"));
	/* unset variable: empty, and an empty value is an error */
	T_ASSERT(jt_fails("[j]\nsize=${UNSET}\n", -EINVAL, "t.fio:2", "empty value", NULL));
	/* an unterminated ${ stays as it is */
	T_ASSERT(jt_fails("[j]\nsize=${SIZE\n", -EINVAL, "not a size", NULL));
	/* expansion happens after comments are cut: a value may bring a ';' */
	T_ASSERT(jt_fails("[j]\nbs=${SEMI}\n", -EINVAL, "unexpected 'k;x'", NULL));
	jt_cleanup();
	return T_PASS;
}

/* ---- include, with real files ---- */

static char jt_dir[64];

static int write_file(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", jt_dir, rel);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int parse_path(const char *rel)
{
	struct ios_job_parse_opts po;
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", jt_dir, rel);
	ios_jobfile_free(&jt_jf);
	ios_err_clear(&jt_e);
	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	return ios_job_parse_file(path, &po, &jt_jf, &jt_e);
}

static int test_include(void)
{
	char sub[128];
	int ok;

	snprintf(jt_dir, sizeof(jt_dir), "/tmp/iosched-job-XXXXXX");
	T_ASSERT(mkdtemp(jt_dir));
	snprintf(sub, sizeof(sub), "%s/sub", jt_dir);
	T_ASSERT(mkdir(sub, 0700) == 0);

	/* the HOWTO's example: globals from one file, job options from another */
	T_ASSERT(!write_file("sub/main.fio", "[global]\nfilename=/tmp/test\ninclude glob.fio\n"
			     "[test]\nrw=randread\ninclude=test-inc.fio\nbs=8k\n"));
	T_ASSERT(!write_file("sub/glob.fio", "thread=1\ngroup_reporting=1\n"));
	T_ASSERT(!write_file("sub/test-inc.fio", "; comment\nioengine=libaio\n"
			     "include nested.fio\nbs=4k\n"));
	T_ASSERT(!write_file("sub/nested.fio", "iodepth=4\n"));
	ok = parse_path("sub/main.fio");
	T_ASSERT_MSG(ok == 0, "%s", jt_e.msg);
	T_ASSERT_EQ(jt_jf.nr_jobs, 1);
	T_ASSERT_EQ(jt_jf.jobs[0].thread, 1);
	T_ASSERT_EQ(jt_jf.jobs[0].group_reporting, 1);
	T_ASSERT_EQ(jt_jf.jobs[0].ioengine, IOS_ENGINE_LIBAIO);
	T_ASSERT_EQ(jt_jf.jobs[0].iodepth, 4);
	T_ASSERT_U64_EQ(jt_jf.jobs[0].bs[0], 8192);	/* the line after the include wins */
	T_ASSERT_EQ(jt_jf.nr_paths, 4);
	/* the included options are part of the section's record */
	T_ASSERT(!strcmp(jt_kv(jt_jf.jobs[0].opts, jt_jf.jobs[0].nr_opts, "ioengine"), "libaio"));

	/* errors name the included file and its line */
	T_ASSERT(!write_file("sub/bad.fio", "[j]\ninclude badinc.fio\n"));
	T_ASSERT(!write_file("sub/badinc.fio", "bs=4k\nprio=9\n"));
	T_ASSERT_EQ(parse_path("sub/bad.fio"), -ERANGE);
	T_ASSERT_MSG(strstr(jt_e.msg, "sub/badinc.fio:2: option 'prio=9'"), "%s", jt_e.msg);

	/* included files may not hold sections (fio refuses them too) */
	T_ASSERT(!write_file("sub/sec.fio", "[j]\ninclude secinc.fio\n"));
	T_ASSERT(!write_file("sub/secinc.fio", "bs=4k\n[other]\n"));
	T_ASSERT_EQ(parse_path("sub/sec.fio"), -EINVAL);
	T_ASSERT_MSG(strstr(jt_e.msg, "secinc.fio:2") && strstr(jt_e.msg, "may not start a section"),
		     "%s", jt_e.msg);

	/* loops, direct and indirect */
	T_ASSERT(!write_file("sub/loop.fio", "[j]\ninclude ./loop.fio\n"));
	T_ASSERT_EQ(parse_path("sub/loop.fio"), -ELOOP);
	T_ASSERT_MSG(strstr(jt_e.msg, "loop.fio:2: include loop"), "%s", jt_e.msg);
	T_ASSERT(!write_file("sub/l1.fio", "[j]\ninclude l2.fio\n"));
	T_ASSERT(!write_file("sub/l2.fio", "include l3.fio\n"));
	T_ASSERT(!write_file("sub/l3.fio", "include l2.fio\n"));
	T_ASSERT_EQ(parse_path("sub/l1.fio"), -ELOOP);
	T_ASSERT_MSG(strstr(jt_e.msg, "l3.fio:1: include loop"), "%s", jt_e.msg);

	/* missing include file */
	T_ASSERT(!write_file("sub/miss.fio", "[j]\ninclude nowhere.fio\n"));
	T_ASSERT_EQ(parse_path("sub/miss.fio"), -ENOENT);
	T_ASSERT_MSG(strstr(jt_e.msg, "miss.fio:2: include") && strstr(jt_e.msg, "nowhere.fio"),
		     "%s", jt_e.msg);
	/* include before any section, and with no file name */
	T_ASSERT(!write_file("sub/early.fio", "include nested.fio\n[j]\n"));
	T_ASSERT_EQ(parse_path("sub/early.fio"), -EINVAL);
	T_ASSERT_MSG(strstr(jt_e.msg, "early.fio:1") && strstr(jt_e.msg, "outside"), "%s",
		     jt_e.msg);
	T_ASSERT(!write_file("sub/empty.fio", "[j]\ninclude \n"));
	T_ASSERT_EQ(parse_path("sub/empty.fio"), -EINVAL);
	/* a missing top-level file */
	T_ASSERT_EQ(parse_path("sub/absent.fio"), -ENOENT);
	T_ASSERT_MSG(strstr(jt_e.msg, "absent.fio") && strstr(jt_e.msg, "cannot read"), "%s",
		     jt_e.msg);

	snprintf(sub, sizeof(sub), "rm -rf '%s'", jt_dir);
	T_ASSERT(system(sub) == 0);
	jt_cleanup();
	return T_PASS;
}

/* Include depth: a stub reader serves f0 -> f1 -> ... so nothing touches disk. */
static char *chain_read(const char *path, size_t *len, void *priv)
{
	const char *base = strrchr(path, '/');
	char buf[64];
	int n;

	(void)priv;
	base = base ? base + 1 : path;
	if (sscanf(base, "f%d", &n) != 1)
		return NULL;
	snprintf(buf, sizeof(buf), "iodepth=%d\ninclude f%d\n", n + 1, n + 1);
	*len = strlen(buf);
	return strdup(buf);
}

static int test_include_depth(void)
{
	struct ios_job_parse_opts po;
	static const char text[] = "[j]\ninclude f0\n";

	jt_opts(&po, IOS_JOB_COMPAT_FIO3);
	po.read_file = chain_read;
	po.max_include_depth = 5;
	ios_jobfile_free(&jt_jf);
	ios_err_clear(&jt_e);
	T_ASSERT_EQ(ios_job_parse_buf("d.fio", text, strlen(text), &po, &jt_jf, &jt_e), -ELOOP);
	T_ASSERT_MSG(strstr(jt_e.msg, "nested more than 5 deep"), "%s", jt_e.msg);
	/* roll-back: a failed parse leaves the jobfile as it was */
	T_ASSERT_EQ(jt_jf.nr_jobs, 0);
	T_ASSERT_EQ(jt_jf.nr_paths, 0);
	T_ASSERT(jt_jf.paths == NULL);
	jt_cleanup();
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_comments, test_whitespace, test_globals, test_sections, test_env,
		     test_include, test_include_depth);
}
