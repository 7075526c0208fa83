/*
 * cgroup v2 I/O control files, as Linux 6.12 defines them (block/
 * blk-throttle.c, blk-iocost.c, blk-iolatency.c, blk-ioprio.c,
 * bfq-cgroup.c), and the per-queue group tree the controllers hang their
 * state on (docs/cgroup-v2-plan.md §6, §7).
 *
 * A setting is named as the file is: --set cgroup.PATH.FILE=VALUE, FILE
 * one of the rows of the file table below, VALUE in the kernel's syntax
 * with the MAJ:MIN prefix optional (there is one simulated device). Each
 * file has one parser with the rules of the kernel function that writes
 * it; where the kernel takes the leading digits of a token and ignores the
 * rest, or clamps or truncates a number, we refuse and say what the kernel
 * would have stored (nothing silent).
 *
 * Step 1 of the plan stores what was written (struct ios_cgroup_v2, hung
 * off struct ios_cgroup); the controllers that read it come in later steps.
 */
#ifndef IOSCHED_BLKCG_H
#define IOSCHED_BLKCG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "request.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ios_cgroup;

enum ios_blkcg_file {
	IOS_BLKCG_WEIGHT,	/* io.weight (io.cost's) */
	IOS_BLKCG_MAX,		/* io.max (blk-throttle) */
	IOS_BLKCG_LATENCY,	/* io.latency */
	IOS_BLKCG_PRIO_CLASS,	/* io.prio.class */
	IOS_BLKCG_BFQ_WEIGHT,	/* io.bfq.weight */
	IOS_BLKCG_COST_QOS,	/* io.cost.qos, root only */
	IOS_BLKCG_COST_MODEL,	/* io.cost.model, root only */
	IOS_BLKCG_NR_FILES,
};

/* cftype flags, the kernel's names (include/linux/cgroup-defs.h) */
#define IOS_CFTYPE_ONLY_ON_ROOT	(1u << 0)
#define IOS_CFTYPE_NOT_ON_ROOT	(1u << 1)
/* the value may start with MAJ:MIN (the kernel's blkg_conf_open_bdev) */
#define IOS_CFTYPE_PER_DEVICE	(1u << 2)

struct ios_blkcg_cftype {
	const char *name;	/* "io.max" */
	unsigned flags;		/* IOS_CFTYPE_* */
	const char *kfunc;	/* the 6.12 function that parses a write */
	const char *kfile;	/* where it is: "block/blk-throttle.c" */
	const char *syntax;	/* what the parser accepts, for messages */
	/*
	 * who reads it and on which layer, as `iosched list` prints it and
	 * docs/cgroup-v2.md says it (one place for both)
	 */
	const char *readers;
	/*
	 * the plan step that will model it (docs/cgroup-v2-plan.md §12);
	 * NULL once it is modelled
	 */
	const char *modelled_by;
};

/* The row of @f, NULL out of range. */
const struct ios_blkcg_cftype *ios_blkcg_cftype(enum ios_blkcg_file f);

/*
 * Split the part of a setting name after "cgroup." into PATH and FILE by
 * the longest known FILE suffix, so PATH may contain dots ("web.v2.io.max"
 * is io.max of group "web.v2"). "io.cost.qos" alone is the root's. Sets
 * *path_len (0: the root) and *f. -ENOENT: no cgroup v2 file ends the name.
 */
int ios_blkcg_resolve(const char *rest, size_t *path_len, enum ios_blkcg_file *f);

/*
 * The device numbers a value's MAJ:MIN must name: the simulated device's.
 * NVMe-attached profiles (ssd-nvme, zns, the cloud volumes) are 259:0
 * (nvme0n1: the blkext major), the others 8:0 (sda).
 */
struct ios_blkcg_devt {
	unsigned major, minor;
	const char *name;
};
void ios_blkcg_devt_of(const char *profile, struct ios_blkcg_devt *d);

/* io.prio.class policies, in blk-ioprio.c's enum order */
enum ios_prio_policy {
	IOS_PRIO_NO_CHANGE,
	IOS_PRIO_PROMOTE_TO_RT,
	IOS_PRIO_RESTRICT_TO_BE,
	IOS_PRIO_ALL_TO_IDLE,
	IOS_PRIO_NONE_TO_RT,	/* an alias of promote-to-rt */
	IOS_PRIO_NR_POLICIES,
};
extern const char *const ios_prio_policy_names[IOS_PRIO_NR_POLICIES + 1];

/* io.cost.qos parameters (ioc_qos_write), in the kernel's units */
enum { IOS_QOS_RPPM, IOS_QOS_RLAT, IOS_QOS_WPPM, IOS_QOS_WLAT, IOS_QOS_MIN, IOS_QOS_MAX,
       IOS_QOS_NR };
/* io.cost.model coefficients (ioc_cost_model_write) */
enum { IOS_LCOEF_RBPS, IOS_LCOEF_RSEQIOPS, IOS_LCOEF_RRANDIOPS, IOS_LCOEF_WBPS,
       IOS_LCOEF_WSEQIOPS, IOS_LCOEF_WRANDIOPS, IOS_LCOEF_NR };

#define IOS_CGROUP_WEIGHT_MIN	1u	/* include/linux/cgroup.h */
#define IOS_CGROUP_WEIGHT_DFL	100u
#define IOS_CGROUP_WEIGHT_MAX	10000u
#define IOS_BFQ_WEIGHT_MIN	1u	/* block/bfq-iosched.h */
#define IOS_BFQ_WEIGHT_DFL	100u
#define IOS_BFQ_WEIGHT_MAX	1000u
#define IOS_VRATE_MIN_PPM	10000u		/* 1 %, blk-iocost.c */
#define IOS_VRATE_MAX_PPM	100000000u	/* 10000 % */

struct ios_iocost_qos {
	bool enable;
	bool user;			/* ctrl=user: qos[] holds the user's numbers */
	unsigned given;			/* bit per IOS_QOS_*: written (the rest: auto's) */
	uint32_t qos[IOS_QOS_NR];	/* ppm for pct/min/max, µs for lat */
};

struct ios_iocost_model {
	bool user;
	unsigned given;			/* bit per IOS_LCOEF_* */
	uint64_t lcoef[IOS_LCOEF_NR];
};

/*
 * What the cgroup's files hold, as written (one struct per cgroup; the
 * root's io.cost.* describe the device). A file never written keeps the
 * kernel's default. Weights of 0 per device mean "the default applies".
 */
struct ios_cgroup_v2 {
	unsigned written;		/* bit (1u << enum ios_blkcg_file) per file written */
	unsigned weight;		/* io.weight "default" (1..10000, 100) */
	unsigned weight_dev;		/* io.weight of the device, 0: default */
	unsigned bfq_weight;		/* io.bfq.weight "default" (1..1000, 100) */
	unsigned bfq_weight_dev;	/* io.bfq.weight of the device, 0: default */
	uint64_t bps[2];		/* io.max rbps, wbps; UINT64_MAX: max */
	uint32_t iops[2];		/* riops, wiops; UINT32_MAX: max */
	uint64_t lat_target_ns;		/* io.latency target, 0: none (max) */
	int prio_policy;		/* enum ios_prio_policy */
	struct ios_iocost_qos qos;	/* root only */
	struct ios_iocost_model model;	/* root only */
};

/* The kernel's defaults (nothing written). */
void ios_cgroup_v2_init(struct ios_cgroup_v2 *v);

/*
 * Write @value to file @f of a cgroup whose files are @v, as the kernel's
 * parser for that file would, on a device numbered @dev. @where starts the
 * message ("--set: cgroup.a.io.max"). Returns 0, or the kernel's errno
 * (-EINVAL, -ERANGE, -ENODEV) with @e naming the file, the token and the
 * rule; where the kernel would store something other than what was typed
 * (leading digits, a clamp, a truncation) -EINVAL or -ERANGE saying so.
 * @v is left unchanged on an error, as a refused write is in the kernel.
 */
int ios_blkcg_conf_write(enum ios_blkcg_file f, const char *value,
			 const struct ios_blkcg_devt *dev, struct ios_cgroup_v2 *v,
			 const char *where, struct ios_err *e) IOS_MUST_CHECK;

/*
 * The per-queue group tree (blk-cgroup.c's blkgs): one node per cgroup of
 * the run, parent before child, each pointing at its cgroup (and so at its
 * settings). Built for a blk-mq queue once the workload's groups are known;
 * the controllers of later steps keep their per-group state in it.
 */
struct ios_blkg {
	struct ios_cgroup *cgroup;
	struct ios_blkg *parent;	/* NULL: the root */
	unsigned level;			/* 0: the root */
	void *pd[IOS_BLKCG_NR_FILES];	/* policy data slots, NULL until a step fills them */
	/*
	 * The return-to-user delay (6.12 blkcg_gq's use_delay, delay_nsec,
	 * delay_start, last_delay, last_use; src/block/blk_cgroup.c). use_delay
	 * > 0: io.latency's count of users, < 0: set by blkcg_set_delay
	 * (io.cost), neither decayed nor capped. delay_start is
	 * IOS_BLKG_DELAY_NEVER until the first decay window opens.
	 */
	int use_delay;
	int last_use;
	uint64_t delay_nsec;
	uint64_t delay_start;
	uint64_t last_delay;
	/*
	 * What the controllers held the bios charged to this group for, and
	 * the return-to-user sleeps of its tasks (step 9a; blk_cgroup.c's
	 * ios_blkcg_account_wait, read by the run's report)
	 */
	struct ios_waits waits;
};

struct ios_queue;

/*
 * A blkg's delay_start before any window: the kernel's 0, which on a
 * machine up for more than a second reads as "long ago". The lab's clock
 * starts at 0, so 0 is a real time here (docs/cgroup-v2-plan.md §13 R4).
 */
#define IOS_BLKG_DELAY_NEVER	UINT64_MAX

struct ios_blkcg_ctl {
	struct ios_blkg *blkgs;		/* [cgroup->id] */
	unsigned nr_blkgs;
	/*
	 * A file of group @g changed while the run goes on (a later job's
	 * exec_prerun; the kernel's write handlers, e.g. tg_conf_updated):
	 * the controller that reads file f sets conf_updated[f]. NULL: no
	 * controller re-reads it, and the runner says the write had no effect.
	 */
	void (*conf_updated[IOS_BLKCG_NR_FILES])(struct ios_queue *q, struct ios_blkg *g,
						 uint64_t now);
};

/* A tree over @cgroups (ids 0..@n-1, parents first); NULL on -ENOMEM. */
struct ios_blkcg_ctl *ios_blkcg_ctl_create(struct ios_cgroup *const *cgroups, unsigned n);
void ios_blkcg_ctl_destroy(struct ios_blkcg_ctl *ctl);
/* @cg's node, NULL when @cg is not in the tree. */
struct ios_blkg *ios_blkg_of(struct ios_blkcg_ctl *ctl, const struct ios_cgroup *cg);

struct ios_ioc;
/*
 * blkcg_maybe_throttle_current (6.12 blk-cgroup.c), for a task's runner
 * as its system call returns: when a controller marked @ioc during the
 * call (blkcg_schedule_throttle, never for a kthread), how long the task
 * sleeps first (0: not at all); the mark is taken either way.
 */
uint64_t ios_blkcg_task_throttle(struct ios_ioc *ioc, uint64_t now);

/*
 * io.latency (src/block/blk_iolatency.c): ios_iolat_install puts its
 * policy on @q's rq_qos chain (blk_iolatency_init, at a queue's first
 * io.latency write) with the targets written so far; 0 also when already
 * on, -ENOMEM, -EOPNOTSUPP without blk-mq or a group tree. @hz: lab.hz.
 * ios_iolat_summary: what it did, one line ("" when it is not on).
 */
int ios_iolat_install(struct ios_queue *q, unsigned hz, uint64_t now);
void ios_iolat_summary(struct ios_queue *q, char *buf, size_t len);
/*
 * ios_iolat_depths: @g's first depth changes (the summary's "depth 511 at
 * 0.101 s, ..."), at most @max of them, into @at_ns and @depth (UINT_MAX:
 * unlimited again); returns how many. 0 when io.latency is not on or @g
 * never changed depth (the lab's clock starts at 0: no change is not a
 * change at 0, §13 R4).
 */
unsigned ios_iolat_depths(struct ios_queue *q, const struct ios_blkg *g, uint64_t *at_ns,
			  unsigned *depth, unsigned max);

#ifdef __cplusplus
}
#endif

#endif
