/*
 * Description: foreign pages under cgroup writeback (Linux 6.12,
 * wbc_account_cgroup_owner in fs/fs-writeback.c; src/fs/writeback_cgwb.c).
 * A page is charged to the cgroup that brought it into the cache
 * (filemap_add_folio); when the owner's wb writes a page charged to another
 * cgroup it counts it as foreign, and the inode keeps its owner (the
 * switch, inode_switch_wbs, is not modelled). The rules and what fails
 * without each:
 *  - counting: b writes new pages into a's file, so each is b's and
 *    foreign to a's wb: foreign = b's pages exactly (fails if nothing is
 *    counted, or if the count is of the whole file);
 *  - the charge is the page's, not the writer's: b rewriting pages a
 *    brought in (still cached) dirties pages charged to a, none foreign
 *    (fails if the page took the dirtier's cgroup);
 *  - owner kept: every bio of the file is still charged to a (fails if
 *    the inode switched to b);
 *  - reported: the text report's writeback table and the JSON's
 *    "writeback" object per cgroup carry the count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

struct seen {
	unsigned writes, to_a;
};

static void tr_event(void *priv, struct ios_queue *qu, enum ios_trace_action a,
		     const struct ios_request *rq, const struct ios_bio *bio, uint64_t now)
{
	struct seen *s = priv;
	const struct ios_cgroup *cg;

	(void)qu;
	(void)rq;
	(void)now;
	if (a != IOS_TA_QUEUE || bio->dir != IOS_WRITE || !bio->nr_sectors)
		return;
	/* ext4's journal (jbd2, the root cgroup) writes metadata, not the pages */
	if (bio->flags & IOS_REQ_META)
		return;
	cg = ios_bio_blkcg(bio);
	s->writes++;
	s->to_a += cg && !strcmp(cg->path, "a");
}

static const struct ios_trace_ops tr_ops = { .event = tr_event };

/* @jf stays the caller's: the result points into it until it is reported */
static int run(const char *job, struct seen *s, struct ios_run_result *res,
	       struct ios_jobfile *jf)
{
	struct ios_settings set = { 0 };
	struct ios_job_parse_opts po;
	struct ios_run_config cfg = { 0 };
	struct ios_err e = { 0 };
	int ret;

	memset(s, 0, sizeof(*s));
	ios_job_parse_opts_init(&po);
	ret = ios_job_parse_buf("foreign.fio", job, strlen(job), &po, jf, &e);
	if (!ret) {
		cfg.settings = &set;
		cfg.scheduler = "mq-deadline-6.12";
		cfg.device = "ssd-nvme";
		cfg.seed = 1;
		cfg.trace_ops = &tr_ops;
		cfg.trace = s;
		ret = ios_run(jf, &cfg, res, &e);
	}
	if (ret)
		fprintf(stderr, "run: %s\n", e.msg);
	ios_settings_free(&set);
	return ret;
}

static const struct ios_cgroup_result *cg_res(const struct ios_run_result *r, const char *path)
{
	for (size_t i = 0; i < r->nr_cgroups; i++)
		if (!strcmp(r->cgroups[i].path, path))
			return &r->cgroups[i];
	return NULL;
}

#define PAGES_8M (8u * 1024 * 1024 / IOS_PAGE_SIZE)

static int test_new_pages_of_another_cgroup_are_foreign(void)
{
	/* a fills [0, 8m) first; b then writes [8m, 16m) of the same file: new pages, b's */
	static const char job[] = "[a]\ncgroup=a\nfilename=shared\nrw=write\nbs=64k\nsize=8m\n"
				  "end_fsync=1\n"
				  "[b]\ncgroup=b\nfilename=shared\nrw=write\nbs=64k\noffset=8m\n"
				  "size=8m\nstartdelay=50ms\nend_fsync=1\n";
	static struct seen s;
	struct ios_run_result res;
	struct ios_jobfile jf = { 0 };
	const struct ios_cgroup_result *a, *b;
	struct ios_buf txt, js;

	ios_buf_init(&txt);
	ios_buf_init(&js);
	T_ASSERT_EQ(run(job, &s, &res, &jf), 0);
	a = cg_res(&res, "a");
	b = cg_res(&res, "b");
	T_ASSERT(a && b && a->has_wb && !b->has_wb);
	T_ASSERT_U64_EQ(a->wb_pages, 2 * PAGES_8M);
	T_ASSERT_U64_EQ(a->wb_foreign_pages, PAGES_8M);
	/* the owner is kept: all of the file's bios are a's */
	T_ASSERT(s.writes > 0);
	T_ASSERT_EQ(s.to_a, s.writes);
	/* reported in both formats */
	T_ASSERT_EQ(ios_report_normal(&res, &txt), 0);
	T_ASSERT_EQ(ios_report_json(&res, &js), 0);
	T_ASSERT_MSG(txt.s && strstr(txt.s, "cgroup wb") &&
		     strstr(txt.s, "  a                       1       4096       2048"),
		     "text:\n%s", txt.s ? txt.s : "");
	T_ASSERT_MSG(js.s && strstr(js.s, "\"foreign_pages\" : 2048"), "json:\n%s",
		     js.s ? js.s : "");
	ios_buf_free(&txt);
	ios_buf_free(&js);
	ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	return T_PASS;
}

static int test_rewritten_cached_pages_are_not_foreign(void)
{
	/*
	 * b rewrites a's range while a's pages are cached (invalidate=0: fio
	 * would drop them as b starts): they stay charged to a
	 */
	static const char job[] = "[a]\ncgroup=a\nfilename=shared\nrw=write\nbs=64k\nsize=8m\n"
				  "end_fsync=1\n"
				  "[b]\ncgroup=b\nfilename=shared\nrw=write\nbs=64k\nsize=8m\n"
				  "startdelay=50ms\nend_fsync=1\ninvalidate=0\n";
	static struct seen s;
	struct ios_run_result res;
	struct ios_jobfile jf = { 0 };
	const struct ios_cgroup_result *a;

	T_ASSERT_EQ(run(job, &s, &res, &jf), 0);
	a = cg_res(&res, "a");
	T_ASSERT(a && a->has_wb);
	T_ASSERT_U64_EQ(a->wb_pages, 2 * PAGES_8M);
	T_ASSERT_U64_EQ(a->wb_foreign_pages, 0);
	T_ASSERT_EQ(s.to_a, s.writes);
	ios_run_result_free(&res);
	ios_jobfile_free(&jf);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_new_pages_of_another_cgroup_are_foreign,
		     test_rewritten_cached_pages_are_not_foreign);
}
