/*
 * Private helpers of the seed reproduction report's Markdown writers:
 * repro_out.c (the seed experiments) implements them, repro_mq_out.c (the
 * blk-mq scenarios, docs/blk-mq-scenarios.md) uses them too, so the two
 * kinds of section print their tables, values and plots the same way.
 */
#ifndef IOSCHED_REPRO_OUT_INT_H
#define IOSCHED_REPRO_OUT_INT_H

#include "iosched/ios.h"
#include "iosched/repro.h"

/* "docs/x.md" as a link from docs/REPRODUCTION.md: "x.md" */
const char *ios_rmd_doc_link(const char *path);
/* "per job", "per cgroup": what the plot's lines are */
const char *ios_rmd_plot_lines(const struct ios_repro_exp *x);
/* "seed 1", "median seed 3 of 5": which runs the plot draws */
void ios_rmd_plot_seed_words(const struct ios_repro_data *d, unsigned seed, char *buf,
			     size_t len);
/* qsort's comparison of doubles */
int ios_rmd_cmp_dbl(const void *a, const void *b);
/* @s as a Markdown table cell ('|' escaped) */
void ios_rmd_cell(struct ios_buf *out, const char *s);
/* "seed 1", "seeds 1-5" */
void ios_rmd_seeds(const struct ios_repro_data *d, char *buf, size_t len);
/* "| `label`" (ours) or "| *label*" (the thread's) */
void ios_rmd_label(struct ios_buf *out, const char *label, bool thread);
/* a table's header; @align: 'l' or 'r' per column, NULL: the first left, numbers right */
void ios_rmd_header(struct ios_buf *out, const char *const *cols, size_t n, const char *align);
/* what the runs ignored (seed 1) */
void ios_rmd_warnings(struct ios_buf *out, const struct ios_repro_data *d);
/* the scheduler's counter @name at the end of @r's run, or -1 */
long long ios_rmd_stat(const struct ios_repro_result *r, const char *name);
/* a verdict's value with, over several seeds, each seed's in brackets */
void ios_rmd_value(const struct ios_repro_check *c, const struct ios_repro_verdict *v,
		   unsigned nr_seeds, char *buf, size_t len);
/* "`noop`, `cfq`": the columns */
void ios_rmd_columns(struct ios_buf *out, const struct ios_repro_data *d);
/* A section's title, first paragraphs and run line up to its columns. */
void ios_rmd_intro(struct ios_buf *out, const struct ios_repro_data *d, const char *question,
		   const char *expected);

/* A measure's name in criteria ("finish spread"), @ref for a relative one (repro_words.c) */
void ios_repro_measure_name(enum ios_repro_measure m, const char *ref, char *buf, size_t len);

/* A blk-mq scenario's section (repro_mq_out.c). 0 or -ENOMEM. */
int ios_rmd_mq_experiment(struct ios_buf *out, const struct ios_repro_data *d,
			  const struct ios_repro_verdict *v);

/*
 * The DiskSim drives (repro_drives_out.c): the summary row, the section,
 * the JSON object "disksim_drives", the text lines (returns how many meet
 * the goal).
 */
struct ios_jw;
void ios_rmd_drives_summary(struct ios_buf *out, const struct ios_repro_drives *d);
void ios_rmd_drives(struct ios_buf *out, const struct ios_repro_drives *d);
void ios_rmd_drives_json(struct ios_jw *w, const struct ios_repro_drives *d);
size_t ios_rmd_drives_text(struct ios_buf *out, const struct ios_repro_drives *d);

#endif
