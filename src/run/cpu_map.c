/*
 * Tasks to simulated CPUs (cpu_map.h). Follows fio 3.33 for what a job
 * may name and Linux 6.12 for what the CPU means: blk-mq takes a request's
 * software context from the CPU it is submitted on (blk_mq_get_ctx), and
 * the ctx decides the hardware queue. The legacy single-queue layer has no
 * such thing; there the sets are not used (docs/jobfiles.md "CPU-side
 * options").
 *
 * fio refuses a CPU the machine does not have ("CPU %d too large"); the
 * lab's machine has lab.cpus CPUs, so a job naming a CPU at or above it is
 * refused, with where it was written. Round-robin in job order keeps every
 * run of the same job file on the same CPUs.
 */
#include <string.h>
#include "run/cpu_map.h"

void ios_cpu_map_init(struct ios_cpu_map *m, unsigned nr_cpus, bool pin)
{
	memset(m, 0, sizeof(*m));
	m->nr_cpus = nr_cpus ? nr_cpus : 1;
	m->pin = pin;
}

static const char *cm_opt_name(unsigned bit)
{
	return bit == IOS_CPUOPT_CPUMASK ? "cpumask" : "cpus_allowed";
}

int ios_cpu_map_task(struct ios_cpu_map *m, const struct ios_job *j, unsigned clone,
		     unsigned *cpu, struct ios_err *e)
{
	unsigned set[IOS_MAX_CPUS], n = 0;

	if (!m->pin || !j->cpu_set_opt) {
		*cpu = m->next;
		m->next = (m->next + 1) % m->nr_cpus;
		return 0;
	}
	for (unsigned k = 0; k < IOS_MAX_CPUS; k++) {
		if (!(j->cpu_set[k / 64] & (1ull << (k % 64))))
			continue;
		if (k >= m->nr_cpus)
			return IOS_ERR(e, -ERANGE, "%s:%d: job '%s': %s names CPU %u, which the lab "
				       "does not have: allowed 0..%u (lab.cpus=%u simulated CPUs; "
				       "raise it with --set lab.cpus=N, up to %d)",
				       j->cpu_set_file ? j->cpu_set_file : "?", j->cpu_set_line,
				       j->name ? j->name : "?", cm_opt_name(j->cpu_set_opt), k,
				       m->nr_cpus - 1, m->nr_cpus, IOS_MAX_CPUS);
		set[n++] = k;
	}
	/* the parser refuses an empty set; a job built by hand may still have one */
	if (!n)
		return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': %s names no CPU",
			       j->cpu_set_file ? j->cpu_set_file : "?", j->cpu_set_line,
			       j->name ? j->name : "?", cm_opt_name(j->cpu_set_opt));
	*cpu = set[clone % n];
	return 0;
}
