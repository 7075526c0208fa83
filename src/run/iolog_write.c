/*
 * write_iolog=FILE: the job's I/O pattern as fio 3.33 logs it (iolog.c),
 * which read_iolog= and 'iosched replay' read back.
 *
 * fio opens the log for appending when the job sets up, writes the version
 * line "fio version 3 iolog" (fio 3.33 writes version 3; version 2 had no
 * timestamps) and an "add" line per file, then one line per event with the
 * microseconds since that moment: "USEC FILE open" when a file is opened,
 * "USEC FILE read|write|sync|datasync OFFSET LENGTH" as each I/O is queued
 * to the engine, and "USEC FILE close" at the end. File names are the job's
 * (directory= included). Times here are simulated time.
 *
 * Two writers of one log would interleave their lines in fio; iosched
 * refuses that (numjobs > 1, or two jobs naming the same file). With
 * read_iolog= as well, fio drops write_iolog with a message; so does iosched.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "run_int.h"

int ios_run_iolog_open(struct run_ctx *c, struct run_task *t, struct ios_err *e)
{
	const struct ios_job *j = t->job;
	char w[300];

	if (!j->write_iolog || !*j->write_iolog)
		return 0;
	snprintf(w, sizeof(w), "%s:%d: job '%s'", j->file ? j->file : "?", j->line, j->name);
	if (j->read_iolog && *j->read_iolog) {
		return ios_run_fio_warn(c, e, "%s: write_iolog=%s is not written: read_iolog "
					"overrides it (as in fio)", w, j->write_iolog);
	}
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const struct run_task *o = &c->tasks[i];

		if (o == t || !o->job->write_iolog || strcmp(o->job->write_iolog, j->write_iolog) ||
		    (o->job->read_iolog && *o->job->read_iolog))
			continue;
		if (o->job == j)
			return IOS_ERR(e, -EINVAL, "%s: write_iolog=%s with numjobs=%u: every clone "
				       "would append to the same log, lines interleaved; give each "
				       "job its own log", w, j->write_iolog, j->numjobs);
		if (o < t)
			return IOS_ERR(e, -EINVAL, "%s: write_iolog=%s is also the log of job '%s': "
				       "both would append to it, lines interleaved", w,
				       j->write_iolog, o->job->name);
	}
	/* as fio: appended to, never truncated */
	t->iolog = fopen(j->write_iolog, "a");
	if (!t->iolog)
		return IOS_ERR(e, -errno, "%s: write_iolog=%s: %s", w, j->write_iolog,
			       strerror(errno));
	return 0;
}

static uint64_t iolog_us(const struct run_task *t, uint64_t now)
{
	return now > t->start_ns ? (now - t->start_ns) / IOS_NSEC_PER_USEC : 0;
}

void ios_run_iolog_start(struct run_task *t)
{
	if (!t->iolog)
		return;
	fprintf(t->iolog, "fio version 3 iolog\n");
	for (unsigned k = 0; k < t->nr_files; k++)
		fprintf(t->iolog, "0 %s add\n", t->files[k].f->name);
}

void ios_run_iolog_file(struct run_task *t, const struct run_task_file *tf, const char *what,
			uint64_t now)
{
	if (t->iolog)
		fprintf(t->iolog, "%" PRIu64 " %s %s\n", iolog_us(t, now), tf->f->name, what);
}

void ios_run_iolog_io(struct run_task *t, const struct run_io *io, uint64_t now)
{
	const char *act = io->sync_op ? (io->dir ? "datasync" : "sync")
				      : io->dir == IOS_WRITE ? "write" : "read";

	if (t->iolog)
		fprintf(t->iolog, "%" PRIu64 " %s %s %" PRIu64 " %" PRIu64 "\n", iolog_us(t, now),
			io->tf->f->name, act, io->sync_op ? 0 : io->offset, io->sync_op ? 0 : io->len);
}

/* The job's end: its files are closed, and the log with them. */
void ios_run_iolog_close(struct run_task *t, uint64_t now)
{
	bool bad;

	if (!t->iolog)
		return;
	for (unsigned k = 0; k < t->open_idx && k < t->nr_files; k++)
		ios_run_iolog_file(t, &t->files[k], "close", now);
	bad = ferror(t->iolog) != 0;
	if (fclose(t->iolog))
		bad = true;
	t->iolog = NULL;
	if (bad)
		(void)ios_run_warn(t->ctx->res,
				   "%s:%d: job '%s': write_iolog=%s: the log could not be "
				   "written completely", t->job->file ? t->job->file : "?", t->job->line,
				   t->job->name, t->job->write_iolog);
}

/* A run that failed before the job ended: keep what was logged. */
void ios_run_iolog_abort(struct run_task *t)
{
	if (t->iolog) {
		fclose(t->iolog);
		t->iolog = NULL;
	}
}
