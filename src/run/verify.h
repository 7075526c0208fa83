/*
 * fio's verification in the runner (verify.c): the hooks task.c calls.
 *
 * Each is a no-op for a task without verify= (t->vt NULL), except the
 * completion hook: once any job of the run verifies, every write of every
 * job is remembered (a block another job overwrote fails a verify in fio
 * too).
 */
#ifndef IOSCHED_RUN_VERIFY_H
#define IOSCHED_RUN_VERIFY_H

#include "run_int.h"

/*
 * After the task's files and target are set up: check and note the
 * options, size the per-loop target, and (the first time a job verifies)
 * create the run's map of what each block holds.
 */
int ios_run_verify_setup(struct run_ctx *c, struct run_task *t, struct ios_err *e);
void ios_run_verify_task_free(struct run_task *t);
void ios_run_verify_free(struct run_ctx *c);

/* Fill @io with a verifying read when one is due (verify_backlog, the verify phase). */
bool ios_run_verify_prepare(struct run_task *t, struct run_io *io, uint64_t now);
/* @io was submitted: a write enters the verify log; a verify read's bytes are not the job's. */
void ios_run_verify_submitted(struct run_task *t, struct run_io *io);
/* @io completed: a write is what its blocks hold now; a verify read is checked. */
void ios_run_verify_completed(struct run_task *t, struct run_io *io);
/*
 * Has the task's pass reached its end? 1 or 0 in a verify phase (every
 * logged block read) and when a write pass has issued its bytes; -1 when
 * the job's own limits decide.
 */
int ios_run_verify_reached(const struct run_task *t);
/*
 * The write phase (or a verify phase) ended with nothing in flight: true
 * when the task goes on, with a verify phase or the next loop.
 */
bool ios_run_verify_phase_next(struct run_task *t, uint64_t now);
/* The job ends at @now: split its runtime between the writes and the verify reads. */
void ios_run_verify_finish(struct run_task *t, uint64_t now);

#endif
