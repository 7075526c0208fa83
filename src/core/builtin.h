/*
 * Private: every built-in descriptor, declared once.
 *
 * The registries list the built-in scheduler types (core/elv.c) and device
 * types (dev/dev.c) in explicit const arrays; each descriptor is defined in
 * its own file (sched/noop.c, dev/hdd.c, ...). This header is the one place
 * that names them, so a definition that drifts from its declaration is a
 * compile error rather than a hand-copied extern gone stale. Code outside
 * the registries and the files that define them has no business comparing
 * descriptor addresses: what a descriptor means (how it divides the disk,
 * which interface version it speaks) is in its fields, and everyone else
 * finds a type by name (ios_sched_find, ios_dev_type_find). The files
 * that define a descriptor include this too, so the compiler checks the
 * definition against the declaration.
 */
#ifndef IOSCHED_CORE_BUILTIN_H
#define IOSCHED_CORE_BUILTIN_H

/*
 * Incomplete types on purpose: a scheduler file includes this without
 * seeing device.h (schedulers know only block.h and sched.h), and a device
 * file without sched.h.
 */
struct ios_sched_type;
struct ios_dev_type;

/* schedulers in the registry (core/elv.c), in 'iosched list' order */
extern const struct ios_sched_type ios_sched_noop;
extern const struct ios_sched_type ios_sched_deadline;
extern const struct ios_sched_type ios_sched_bfq;
extern const struct ios_sched_type ios_sched_as;
extern const struct ios_sched_type ios_sched_cfq;
extern const struct ios_sched_type ios_sched_cfq_2633;
extern const struct ios_sched_type ios_sched_cfq_419;
extern const struct ios_sched_type ios_sched_none;	/* blk-mq (sched/none.c) */
/* blk-mq (IOS_SCHED_LAYER_MQ) */
extern const struct ios_sched_type ios_sched_mq_deadline_66;	/* sched/mq_deadline.c */
extern const struct ios_sched_type ios_sched_mq_deadline;
extern const struct ios_sched_type ios_sched_kyber;
extern const struct ios_sched_type ios_sched_bfq_612;

/*
 * Not in the registry: the two 2008 group designs, reached through cfq's
 * lab.group_policy (its cgroups->policy[] names them).
 */
extern const struct ios_sched_type ios_sched_cfq_tarasov2008;
extern const struct ios_sched_type ios_sched_cfq_uchida2008;

/* device types in the registry (dev/dev.c) */
extern const struct ios_dev_type ios_dev_hdd;
extern const struct ios_dev_type ios_dev_ssd;
extern const struct ios_dev_type ios_dev_ssd_ftl;
extern const struct ios_dev_type ios_dev_smr_hm;
extern const struct ios_dev_type ios_dev_zns;
extern const struct ios_dev_type ios_dev_cloud;
extern const struct ios_dev_type ios_dev_disksim;	/* made by "disksim:PATH" only */

#endif
