/*
 * Sweep engines: what runs a sweep's tasks on more than one machine
 * (docs/sweep.md, "Slurm" and "GNU parallel").
 *
 * A sweep directory's tasks 0..N-1 are independent `iosched sweep run DIR
 * --task K` commands. The engines here only write the text that hands
 * them to a runner: a Slurm batch script run as a job array (in chunks of
 * Slurm's MaxArraySize, the offset of a chunk given to the script as its
 * argument), the sbatch command of each chunk, and GNU parallel's argument
 * vector. The command (cli/cmd_sweep_engine.c) finds the paths, writes the
 * script, runs sbatch or parallel.
 */
#ifndef IOSCHED_SWEEP_ENGINE_H
#define IOSCHED_SWEEP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include "err.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Slurm's default MaxArraySize: array indices 0..1000 */
#define IOS_SWEEP_SLURM_ARRAY_DEFAULT 1001u
/* at most this many arguments in an sbatch or parallel vector, NULL included */
#define IOS_SWEEP_ARGV_MAX 16

struct ios_sweep_slurm {
	const char *bin;		/* the iosched binary, absolute */
	const char *dir;		/* the sweep directory, absolute */
	size_t nr_tasks;
	size_t max_array_size;		/* Slurm's MaxArraySize: indices 0..this-1 */
	size_t max_running;		/* the array's %N throttle; 0: none */
	const char *partition, *time, *job_name, *account;	/* NULL: not given */
};

/*
 * Every field usable in a script: absolute paths of shell-safe characters
 * (no blank, quote, '%' or '$'; a '%' would be Slurm's own in --output),
 * Slurm names and a time limit of Slurm's forms. 0, or -EINVAL with @e
 * naming the option and what is allowed.
 */
int ios_sweep_slurm_check(const struct ios_sweep_slurm *s, struct ios_err *e) IOS_MUST_CHECK;
/* how many array jobs the tasks take: ceil(nr_tasks / max_array_size) */
size_t ios_sweep_slurm_chunks(const struct ios_sweep_slurm *s);
/* chunk @c's first task and task count */
void ios_sweep_slurm_chunk(const struct ios_sweep_slurm *s, size_t c, size_t *first, size_t *n);
/* the batch script (its #SBATCH lines are chunk 0's array). 0 or -ENOMEM */
int ios_sweep_slurm_script(const struct ios_sweep_slurm *s, const char *script,
			   struct ios_buf *out) IOS_MUST_CHECK;
/*
 * sbatch's argument vector for chunk @c of @script (NULL-terminated, into
 * @argv of IOS_SWEEP_ARGV_MAX; free with ios_sweep_argv_free): --parsable,
 * the chunk's --array (with %max_running), and --dependency=afterany:@after
 * when @after is not NULL (chunks chained so the throttle holds over the
 * whole sweep), then the script and the chunk's first task. 0 or -ENOMEM.
 */
int ios_sweep_slurm_sbatch_argv(const struct ios_sweep_slurm *s, size_t c, const char *script,
				const char *after, char **argv) IOS_MUST_CHECK;
/*
 * What to type to submit every chunk, one sh line each (chained by
 * $j when max_running is given). 0 or -ENOMEM.
 */
int ios_sweep_slurm_submit_text(const struct ios_sweep_slurm *s, const char *script,
				struct ios_buf *out) IOS_MUST_CHECK;

struct ios_sweep_parallel {
	const char *bin, *dir;		/* absolute, shell-safe */
	size_t nr_tasks;
	size_t jobs;			/* --jobs; 0: parallel's default (one per core) */
	const char *sshlogin;		/* NULL: this machine only */
};

int ios_sweep_parallel_check(const struct ios_sweep_parallel *p, struct ios_err *e) IOS_MUST_CHECK;
/* parallel's argument vector (task numbers on its stdin), as sbatch's above */
int ios_sweep_parallel_argv(const struct ios_sweep_parallel *p, char **argv) IOS_MUST_CHECK;
/* "seq 0 N-1 | parallel ...": the command line to paste. 0 or -ENOMEM */
int ios_sweep_parallel_line(const struct ios_sweep_parallel *p, struct ios_buf *out) IOS_MUST_CHECK;

void ios_sweep_argv_free(char **argv);
/* @argv as one sh command line, each word quoted when it needs it */
void ios_sweep_sh_words(char *const *argv, struct ios_buf *out);

#ifdef __cplusplus
}
#endif

#endif /* IOSCHED_SWEEP_ENGINE_H */
