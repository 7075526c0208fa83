/*
 * Which simulated CPU each task submits from (blk-mq's software context).
 * Follows fio 3.33 (cpus_allowed, cpumask) and Linux 6.12 blk-mq, where the
 * CPU a request is submitted on picks its ctx and so its hardware queue.
 */
#ifndef IOSCHED_RUN_CPU_MAP_H
#define IOSCHED_RUN_CPU_MAP_H

#include <stdbool.h>
#include "iosched/err.h"
#include "iosched/job.h"

struct ios_cpu_map {
	unsigned nr_cpus;	/* lab.cpus */
	unsigned next;		/* the next CPU for a task that names none */
	bool pin;		/* cpus_allowed / cpumask take effect (a blk-mq run) */
};

/* @nr_cpus simulated CPUs (0 counts as 1); @pin: honour the jobs' CPU sets. */
void ios_cpu_map_init(struct ios_cpu_map *m, unsigned nr_cpus, bool pin);
/*
 * The CPU of clone @clone of job @j; call it for every task in job order
 * (the runner's task order). A job whose cpus_allowed or cpumask names one
 * CPU gets it; one naming several gives its clones those CPUs in turn,
 * lowest first (fio's cpus_allowed_policy=split; under "shared" the kernel
 * would choose, and the lab chooses the same way, deterministically). Every
 * other task gets the next CPU round-robin, counted over those tasks only.
 * Without @pin the sets are ignored. 0, or -ERANGE when a set names a CPU
 * at or above nr_cpus, with @e naming the file, line, job, option and range.
 */
int ios_cpu_map_task(struct ios_cpu_map *m, const struct ios_job *j, unsigned clone,
		     unsigned *cpu, struct ios_err *e) IOS_MUST_CHECK;

#endif
