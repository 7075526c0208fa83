/*
 * The workload's cgroups: what fio's cgroup= and cgroup_weight= ask for,
 * checked against what the chosen scheduler does with groups.
 *
 * A job names its group by path; "a/b" is b inside a, and a is created
 * when first needed, as mkdir -p would. Whether the path, the weight and
 * the lab's per-group priority (--set cgroup.PATH.ioprio=N, for the 2008
 * designs) mean anything depends on the scheduler, which says so in its
 * descriptor (struct ios_sched_cgroups):
 *
 *  - a scheduler without groups (noop, deadline, as, cfq 2.6.31) runs the
 *    jobs as if the options were not there, as the kernel would: each
 *    ignored option gets one warning line in the result;
 *  - a weight outside the scheduler's range is an error naming the job
 *    file, the line, the option, the scheduler and the range (blkio.weight
 *    is 100..1000 in 2.6.33, 10..1000 in 4.19; io.bfq.weight 1..1000);
 *  - a nested path under flat groups (2.6.33's blkio) is an error: the
 *    share it would get is not what a hierarchy would give;
 *  - lab.group_policy other than blkio swaps in the descriptor that builds
 *    the chosen design (only cfq, the 2.6.31 profile, has them).
 *
 * After the run the groups' results are collected: what their jobs did
 * (fio's I/O counts, the metric of the 2008 comparison), what the block
 * layer saw complete, and what the scheduler charged (blkio.time etc.)
 * through its group_stats hook.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "run_int.h"
#include "block/blk_iocost.h"
#include "block/blk_throttle.h"
#include "block/blkcg_int.h"
#include "iosched/scope.h"

static const char *const gp_names[IOS_GROUP_POLICY_NR] = { "blkio", "tarasov2008", "uchida2008" };

const char *ios_run_group_policy_name(int gp)
{
	return gp >= 0 && gp < IOS_GROUP_POLICY_NR ? gp_names[gp] : "?";
}

/*
 * One warning, once; @by_fio marks the ones fio 3.33 prints too (on its
 * stderr), which `iosched fio` leaves on stderr while it moves the lab's
 * own notes into the report (docs/fio-cli.md, "Notes and stderr").
 */
static int run_vwarn(struct ios_run_result *out, bool by_fio, const char *fmt, va_list ap)
{
	char buf[512], **v;
	uint8_t *f;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* the same complaint once is enough (numjobs clones share their job) */
	for (size_t i = 0; i < out->nr_warnings; i++)
		if (!strcmp(out->warnings[i], buf))
			return 0;
	v = realloc(out->warnings, (out->nr_warnings + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	out->warnings = v;
	f = realloc(out->warning_by_fio, out->nr_warnings + 1);
	if (!f)
		return -ENOMEM;
	out->warning_by_fio = f;
	f[out->nr_warnings] = by_fio;
	v[out->nr_warnings] = strdup(buf);
	if (!v[out->nr_warnings])
		return -ENOMEM;
	out->nr_warnings++;
	return 0;
}

int ios_run_warn(struct ios_run_result *out, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = run_vwarn(out, false, fmt, ap);
	va_end(ap);
	return ret;
}

int ios_run_warn_fio(struct ios_run_result *out, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = run_vwarn(out, true, fmt, ap);
	va_end(ap);
	return ret;
}

int ios_run_fio_warn(struct run_ctx *c, struct ios_err *e, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (c->cfg->warnings_fatal)
		return IOS_ERR(e, -EINVAL, "%s (a parser warning: fatal with --warnings-fatal)", buf);
	if (ios_run_warn_fio(c->res, "%s", buf))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* ---- the tree ---- */

static struct ios_cgroup *cg_find(struct run_ctx *c, const char *path, size_t len)
{
	for (unsigned i = 0; i < c->nr_cgroups; i++)
		if (strlen(c->cgroups[i]->path) == len && !memcmp(c->cgroups[i]->path, path, len))
			return c->cgroups[i];
	return NULL;
}

static struct ios_cgroup *cg_new(struct run_ctx *c, const char *path, size_t len,
				 struct ios_cgroup *parent)
{
	struct ios_cgroup **v, *cg;

	v = realloc(c->cgroups, (c->nr_cgroups + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->cgroups = v;
	cg = calloc(1, sizeof(*cg));
	if (!cg)
		return NULL;
	cg->path = strndup(path, len);
	if (!cg->path) {
		free(cg);
		return NULL;
	}
	cg->id = c->nr_cgroups;
	cg->ioprio = -1;
	cg->parent = parent;
	c->cgroups[c->nr_cgroups++] = cg;
	return cg;
}

/*
 * The group at @path, created with its missing ancestors (parents get
 * smaller ids than their children). Slashes at the ends and doubled ones
 * are ignored ("/a//b/" is "a/b"), as in a cgroup file system. NULL or ""
 * is the root.
 */
struct ios_cgroup *ios_run_cgroup_get(struct run_ctx *c, const char *path)
{
	char norm[4096];
	size_t n = 0;
	struct ios_cgroup *cg;

	for (const char *p = path ? path : ""; *p && n < sizeof(norm) - 1; p++) {
		if (*p == '/' && (!n || norm[n - 1] == '/'))
			continue;
		norm[n++] = *p;
	}
	if (n && norm[n - 1] == '/')
		n--;
	cg = c->nr_cgroups ? c->cgroups[0] : cg_new(c, "", 0, NULL);
	/* walk down: each prefix ending before a '/' (and the whole path) is a level */
	for (size_t k = 1; cg && k <= n; k++) {
		struct ios_cgroup *child;

		if (k < n && norm[k] != '/')
			continue;
		child = cg_find(c, norm, k);
		cg = child ? child : cg_new(c, norm, k, cg);
	}
	return cg;
}

void ios_run_cgroups_free(struct run_ctx *c)
{
	for (unsigned i = 0; i < c->nr_cgroups; i++) {
		free(c->cgroups[i]->path);
		free(c->cgroups[i]->v2);
		free(c->cgroups[i]);
	}
	free(c->cgroups);
	c->cgroups = NULL;
	c->nr_cgroups = 0;
	if (c->prerun)
		for (size_t i = 0; i < c->jf->nr_jobs; i++)
			ios_job_prerun_free(c->prerun[i].w, c->prerun[i].n);
	free(c->prerun);
	c->prerun = NULL;
}

/* ---- the scheduler's side ---- */

/*
 * The descriptor to run under lab.group_policy: the chosen one, or the one
 * it names for that policy. Policies a scheduler cannot run: an error when
 * it divides the disk between groups its own way (the two would fight),
 * else a warning that the setting changes nothing.
 */
int ios_run_cgroups_sched(struct run_ctx *c, const struct ios_sched_type **st,
			  struct ios_run_result *out, struct ios_err *e)
{
	const struct ios_sched_cgroups *cgi = (*st)->cgroups;
	int gp = c->lab.group_policy;

	snprintf(out->group_policy, sizeof(out->group_policy), "%s", ios_run_group_policy_name(gp));
	if (gp == IOS_GROUP_POLICY_BLKIO)
		return 0;
	if (cgi && cgi->policy[gp]) {
		*st = cgi->policy[gp];
		return 0;
	}
	if (cgi && cgi->groups)
		return IOS_ERR(e, -EINVAL, "lab.group_policy=%s: %s has group scheduling of its own "
			       "(%s); the 2008 designs are built on the 2.6.31 profile: use "
			       "--scheduler cfq", ios_run_group_policy_name(gp), (*st)->name,
			       cgi->weight_file ? cgi->weight_file : "blkio");
	if (ios_run_warn(out, "lab.group_policy=%s has no effect: %s has no group scheduling "
			 "(the 2008 designs are built on --scheduler cfq)", ios_run_group_policy_name(gp),
			 (*st)->name))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* Does a task run in @cg itself (not in a child)? */
static bool cg_has_tasks(const struct run_ctx *c, const struct ios_cgroup *cg)
{
	for (unsigned i = 0; i < c->nr_tasks; i++)
		if (c->tasks[i].ioc.cgroup == cg)
			return true;
	return false;
}

/*
 * @path as a group's path ("/a//b/" is "a/b", as ios_run_cgroup_get
 * normalizes it), without creating it: NULL when no job is in it or below.
 */
static struct ios_cgroup *cg_lookup(struct run_ctx *c, const char *path, size_t len)
{
	char norm[4096];
	size_t n = 0;

	for (size_t i = 0; i < len && n < sizeof(norm) - 1; i++) {
		if (path[i] == '/' && (!n || norm[n - 1] == '/'))
			continue;
		norm[n++] = path[i];
	}
	if (n && norm[n - 1] == '/')
		n--;
	if (!n)
		return c->nr_cgroups ? c->cgroups[0] : ios_run_cgroup_get(c, NULL);
	return cg_find(c, norm, n);
}

/* "none, mq-deadline-6.6, ..." : the schedulers that run on blk-mq */
static const char *mq_sched_names(char *buf, size_t len)
{
	const struct ios_sched_type *t;
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; (t = ios_sched_at(i)) && off < len; i++) {
		int w;

		if (ios_sched_layer(t) != IOS_SCHED_LAYER_MQ)
			continue;
		w = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", t->name);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	return buf;
}

/*
 * --set cgroup.PATH.FILE=VALUE for a cgroup v2 file (include/iosched/
 * blkcg.h): the group must exist (a job in it or below, as a directory
 * under /sys/fs/cgroup would), the file must exist on that level
 * (CFTYPE_ONLY_ON_ROOT, CFTYPE_NOT_ON_ROOT: -ENOENT as for a missing
 * file), and the scheduler must run on blk-mq, where the v2 controllers are
 * modelled (Linux 6.12). The value goes through the kernel's parser for
 * the file (src/block/blkcg_conf.c).
 */
static int cg_v2_setting(struct run_ctx *c, const struct ios_sched_type *st,
			 struct ios_setting *s, const char *path, size_t plen,
			 enum ios_blkcg_file f, bool dry, struct ios_err *e)
{
	struct ios_cgroup_v2 scratch;
	const struct ios_blkcg_cftype *ct = ios_blkcg_cftype(f);
	const char *sep = *s->origin ? ": " : "";
	struct ios_blkcg_devt dev;
	struct ios_cgroup *cg;
	char where[600], names[512];
	bool root;

	if (ios_sched_layer(st) != IOS_SCHED_LAYER_MQ)
		return IOS_ERR(e, -EOPNOTSUPP, "%s%s%s: cgroup v2 I/O controllers are modelled on "
			       "blk-mq (Linux 6.12) and %s runs the single-queue layer (-EOPNOTSUPP); "
			       "choose a blk-mq scheduler: %s (the single-queue schedulers keep "
			       "cgroup v1's cgroup_weight=)", s->origin, sep, s->name, st->name,
			       mq_sched_names(names, sizeof(names)));
	cg = cg_lookup(c, path, plen);
	if (!cg)
		return IOS_ERR(e, -ENOENT, "%s%s%s: no job is in cgroup '%.*s' or below it (the "
			       "groups are the jobs' cgroup= paths)", s->origin, sep, s->name,
			       (int)plen, path);
	root = !cg->id;
	if (root && (ct->flags & IOS_CFTYPE_NOT_ON_ROOT))
		return IOS_ERR(e, -ENOENT, "%s%s%s: %s does not exist on the root cgroup "
			       "(CFTYPE_NOT_ON_ROOT in %s, Linux 6.12): name a child group, "
			       "cgroup.PATH.%s", s->origin, sep, s->name, ct->name, ct->kfile,
			       ct->name);
	if (!root && (ct->flags & IOS_CFTYPE_ONLY_ON_ROOT))
		return IOS_ERR(e, -ENOENT, "%s%s%s: %s exists only on the root cgroup "
			       "(CFTYPE_ONLY_ON_ROOT in %s, Linux 6.12): it configures the device; "
			       "write it as cgroup.%s", s->origin, sep, s->name, ct->name,
			       ct->kfile, ct->name);
	ios_blkcg_devt_of(c->host ? c->host->disk.profile : NULL, &dev);
	snprintf(where, sizeof(where), "%s%s%s", s->origin, sep, s->name);
	/* a write for later is checked now, against the files as they are now */
	if (dry) {
		if (cg->v2)
			scratch = *cg->v2;
		else
			ios_cgroup_v2_init(&scratch);
		return ios_blkcg_conf_write(f, s->value, &dev, &scratch, where, e);
	}
	if (!cg->v2) {
		cg->v2 = malloc(sizeof(*cg->v2));
		if (!cg->v2)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		ios_cgroup_v2_init(cg->v2);
	}
	return ios_blkcg_conf_write(f, s->value, &dev, cg->v2, where, e);
}

/*
 * exec_prerun= (job/prerun.c): fio runs it when the job starts, after
 * cgroup_setup (backend.c thread_main). A job that starts with the run
 * (first stonewall phase, no startdelay, no wait_for) writes before the
 * first I/O, so its writes apply here, after the --set ones (what the host
 * held before fio ran). A job that starts later writes then
 * (ios_run_cgroups_prerun); its writes are checked here against the files
 * as they are now, so a bad value still stops the run before it starts.
 * Each write goes through the same rules as --set cgroup.PATH.FILE.
 */
static int cg_prerun(struct run_ctx *c, const struct ios_sched_type *st, struct ios_err *e)
{
	for (unsigned i = 0; i < c->nr_tasks; i++) {
		const struct ios_job *j = c->tasks[i].job;
		unsigned ji = (unsigned)(j - c->jf->jobs);
		struct run_prerun *p;
		char msg[512], origin[600];
		bool later;
		int ret;

		if (!j->exec_prerun || c->tasks[i].clone)
			continue;
		if (!c->prerun) {
			c->prerun = calloc(c->jf->nr_jobs, sizeof(*c->prerun));
			if (!c->prerun)
				return IOS_ERR(e, -ENOMEM, "out of memory");
		}
		p = &c->prerun[ji];
		ret = ios_job_prerun_parse(j->exec_prerun, &p->w, &p->n, msg, sizeof(msg));
		if (ret)	/* the option's hook checked it already */
			return IOS_ERR(e, ret, "%s", msg);
		later = c->tasks[i].phase || j->startdelay_hi_ns || j->wait_for || c->replay;
		p->later = later;
		snprintf(origin, sizeof(origin), "%s:%d: job '%s': exec_prerun",
			 j->exec_prerun_file ? j->exec_prerun_file : "?", j->exec_prerun_line,
			 j->name);
		for (size_t k = 0; k < p->n; k++) {
			const struct ios_cgwrite *w = &p->w[k];
			char name[1200], rest[1100];
			struct ios_setting s = { name, w->value, origin, true };
			enum ios_blkcg_file f;
			size_t plen;

			snprintf(rest, sizeof(rest), "%s%s%s", w->path, *w->path ? "." : "", w->file);
			snprintf(name, sizeof(name), "cgroup.%s", rest);
			if (ios_blkcg_resolve(rest, &plen, &f) || plen != strlen(w->path) ||
			    strcmp(ios_blkcg_cftype(f)->name, w->file))
				return IOS_ERR(e, -ENOENT, "%s: /sys/fs/cgroup/%s%s%s: iosched models "
					       "the cgroup v2 I/O files io.weight, io.max, io.latency, "
					       "io.prio.class, io.bfq.weight, and io.cost.qos and "
					       "io.cost.model on the root; '%s' is not one of them",
					       origin, w->path, *w->path ? "/" : "", w->file, w->file);
			ret = cg_v2_setting(c, st, &s, w->path, plen, f, later, e);
			if (ret)
				return ret;
			if (later)
				c->prerun_files |= 1u << f;
		}
	}
	return 0;
}

/*
 * The files written anywhere in the run (at its start or by a later job).
 */
static unsigned cg_v2_files(const struct run_ctx *c)
{
	unsigned files = c->prerun_files;

	for (unsigned i = 0; i < c->nr_cgroups; i++)
		if (c->cgroups[i]->v2)
			files |= c->cgroups[i]->v2->written;
	return files;
}

/*
 * Files whose controller is not modelled yet (docs/cgroup-v2-plan.md §12):
 * a run that sets them says so once, naming the step that will model each.
 */
/* Writeback throttling will run on the queue (blk_wbt.c's wbt_enable_default and wbt_lat_usec). */
static bool wbt_on(const struct ios_sched_type *st, const struct ios_settings *set)
{
	bool on = ios_sched_layer(st) == IOS_SCHED_LAYER_MQ &&
		  !(st->features & IOS_SCHED_DISABLE_WBT);

	for (size_t i = 0; set && i < set->n; i++)
		if (!strcmp(set->v[i].name, "queue.wbt_lat_usec"))
			on = strcmp(set->v[i].value, "0") != 0;
	return on;
}

static int cg_v2_note(struct run_ctx *c, const struct ios_sched_type *st,
		      struct ios_settings *set, struct ios_run_result *out, struct ios_err *e)
{
	char buf[1024];
	size_t off = 0;
	unsigned files = cg_v2_files(c);

	for (int f = 0; f < IOS_BLKCG_NR_FILES && off < sizeof(buf); f++) {
		const struct ios_blkcg_cftype *ct = ios_blkcg_cftype(f);
		int w;

		if (!(files & (1u << f)) || !ct->modelled_by)
			continue;
		w = snprintf(buf + off, sizeof(buf) - off, "%s%s (%s)", off ? ", " : "", ct->name,
			     ct->modelled_by);
		if (w > 0)
			off += (size_t)w;
	}
	for (size_t i = 0; set && i < set->n && off < sizeof(buf); i++) {
		int w;

		if (strcmp(set->v[i].name, "lab.hz") && strcmp(set->v[i].name, "lab.kernel"))
			continue;
		/* io.latency's timer and writeback throttling's jiffies read lab.hz */
		if (!strcmp(set->v[i].name, "lab.hz") &&
		    ((files & (1u << IOS_BLKCG_LATENCY)) || wbt_on(st, set)))
			continue;
		w = snprintf(buf + off, sizeof(buf) - off, "%s%s (read by io.max, io.cost and "
			     "io.latency, steps 3-5)", off ? ", " : "", set->v[i].name);
		if (w > 0)
			off += (size_t)w;
	}
	if (!off)
		return 0;
	if (ios_run_warn(out, "cgroup v2 settings are parsed and checked but not yet modelled: "
			 "%s; this run is the same as without them (docs/cgroup-v2-plan.md §12)",
			 buf))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/* The blk-mq schedulers that read a request's priority, and BFQ's groups. */
static bool sched_is_bfq(const struct ios_sched_type *st)
{
	return st->cgroups && st->cgroups->weight_file &&
	       !strcmp(st->cgroups->weight_file, "io.bfq.weight");
}


/*
 * io.cost.qos enable=1 on the root, now or by a later job's exec_prerun
 * (the kernel's ioc->enabled)
 */
static bool cg_iocost_enabled(const struct run_ctx *c)
{
	if (c->prerun_files & (1u << IOS_BLKCG_COST_QOS))
		return true;
	return c->nr_cgroups && c->cgroups[0]->v2 && c->cgroups[0]->v2->qos.enable;
}

/*
 * What the scheduler makes of io.prio.class and io.bfq.weight, said once
 * each (plan §6 "once-per-run notes"), and io.bfq.weight given to BFQ's
 * groups: a group's weight is its per-device weight when one was written,
 * else its default (bfq_group_set_weight: dev_weight ?: weight). A
 * cgroup_weight= of the same group (fio's cgroup_setup, which runs before
 * any exec_prerun or host setting) is replaced, and the report says so.
 */
static int cg_v2_effects(struct run_ctx *c, const struct ios_sched_type *st,
			 struct ios_run_result *out, struct ios_err *e)
{
	unsigned files = cg_v2_files(c);
	bool bfq = sched_is_bfq(st);
	int ret = 0;

	if ((files & (1u << IOS_BLKCG_PRIO_CLASS)) && bfq)
		ret = ios_run_warn(out, "io.prio.class: %s takes its queues' priorities from the "
				   "task's io_context (bfq_check_ioprio_change reads "
				   "bic->icq.ioc->ioprio), not from the bio, so the class changes "
				   "only merging (blk-mq never merges I/O of different priorities)",
				   st->name);
	else if ((files & (1u << IOS_BLKCG_PRIO_CLASS)) && strncmp(st->name, "mq-deadline", 11))
		ret = ios_run_warn(out, "io.prio.class: %s reads no I/O priority; the class changes "
				   "only merging (blk-mq never merges I/O of different priorities); "
				   "mq-deadline reads the class", st->name);
	/* io.weight is io.cost's file (ioc_files); BFQ registers only bfq.weight */
	if (!ret && bfq && (files & (1u << IOS_BLKCG_WEIGHT)) &&
	    !(files & (1u << IOS_BLKCG_BFQ_WEIGHT)))
		ret = ios_run_warn(out, "io.weight: %s reads io.bfq.weight only (bfq_blkg_files); "
				   "io.weight is io.cost's file. systemd's IOWeight= writes both "
				   "(500 becomes io.bfq.weight 136): cgroup.PATH.systemd.IOWeight",
				   st->name);
	/* io.weight is io.cost's file: nothing reads it until io.cost.qos enable=1 */
	if (!ret && !bfq && (files & (1u << IOS_BLKCG_WEIGHT)) && !cg_iocost_enabled(c))
		ret = ios_run_warn(out, "io.weight does nothing until io.cost.qos enable=1: it is "
				   "io.cost's file (ioc_files); %s reads no weight", st->name);
	/* what io.cost still leaves out (plan §12 rows 4a, 4b) */
	if (!ret && cg_iocost_enabled(c))
		ret = ios_run_warn(out, "io.cost: not modelled: debt from REQ_SWAP or a fatal "
				   "signal, use_memdelay (PSI) and io.stat's cost.indebt/indelay "
				   "flush (docs/cgroup-v2-plan.md §12 4b)");
	if (!ret && (files & (1u << IOS_BLKCG_BFQ_WEIGHT)) && !bfq)
		ret = ios_run_warn(out, "io.bfq.weight is read by BFQ only; %s ignores it "
				   "(io.weight is io.cost's file)", st->name);
	if (ret)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (!bfq)
		return 0;
	for (unsigned i = 1; i < c->nr_cgroups; i++) {
		struct ios_cgroup *cg = c->cgroups[i];
		unsigned w;

		if (!cg->v2 || !(cg->v2->written & (1u << IOS_BLKCG_BFQ_WEIGHT)))
			continue;
		w = cg->v2->bfq_weight_dev ? cg->v2->bfq_weight_dev : cg->v2->bfq_weight;
		if (cg->weight && cg->weight != w &&
		    ios_run_warn(out, "cgroup '%s': io.bfq.weight %u replaces cgroup_weight=%u (fio "
				 "writes the weight when it makes the group, before exec_prerun and "
				 "any host setting)", cg->path, w, cg->weight))
			return IOS_ERR(e, -ENOMEM, "out of memory");
		cg->weight = w;
	}
	return 0;
}

/*
 * cgroup.PATH.systemd.IOWeight=N: what systemd writes for a unit's
 * IOWeight= (src/core/cgroup.c, v256-era, index id 203313642:
 * cgroup_apply_io_weight writes io.weight "default N", and set_bfq_weight
 * io.bfq.weight BFQ_WEIGHT(N) from cgroup-util.h, a linear map on each
 * side of 100: 1 -> 1, 500 -> 136, 10000 -> 1000). A lab convenience named
 * after its origin (plan §13 Q3); the two writes go through the files'
 * own parsers, and the report says what was written.
 */
#define SYSTEMD_IOWEIGHT ".systemd.IOWeight"

static uint64_t systemd_bfq_weight(uint64_t w)
{
	return w <= 100 ? 100 - (100 - w) * 99 / 99 : 100 + (w - 100) * 900 / 9900;
}

static int cg_systemd_ioweight(struct run_ctx *c, const struct ios_sched_type *st,
			       struct ios_setting *s, const char *path, size_t plen,
			       struct ios_run_result *out, struct ios_err *e)
{
	char v1[32], v2[32], name[600];
	struct ios_setting w1, w2;
	const char *sep = *s->origin ? ": " : "";
	unsigned long long n;
	char *end;
	int ret;

	errno = 0;
	n = strtoull(s->value, &end, 10);
	if (!isdigit((unsigned char)s->value[0]) || *end || errno || n < 1 || n > 10000)
		return IOS_ERR(e, -ERANGE, "%s%s%s=%s: systemd's IOWeight= takes 1..10000 "
			       "(CGROUP_WEIGHT_MIN..CGROUP_WEIGHT_MAX, cgroup-util.h)", s->origin, sep,
			       s->name, s->value);
	if (!plen)
		return IOS_ERR(e, -ENOENT, "%s%s%s: systemd sets IOWeight= on units, never on the "
			       "root cgroup (io.weight and io.bfq.weight do not exist there)",
			       s->origin, sep, s->name);
	snprintf(v1, sizeof(v1), "default %llu", n);
	snprintf(v2, sizeof(v2), "%llu", (unsigned long long)systemd_bfq_weight(n));
	snprintf(name, sizeof(name), "%s (systemd: io.weight)", s->name);
	w1 = (struct ios_setting){ name, v1, s->origin, true };
	ret = cg_v2_setting(c, st, &w1, path, plen, IOS_BLKCG_WEIGHT, false, e);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "%s (systemd: io.bfq.weight)", s->name);
	w2 = (struct ios_setting){ name, v2, s->origin, true };
	ret = cg_v2_setting(c, st, &w2, path, plen, IOS_BLKCG_BFQ_WEIGHT, false, e);
	if (ret)
		return ret;
	if (ios_run_warn(out, "%s=%llu: systemd would write io.weight \"%s\" and io.bfq.weight "
			 "\"%s\" (set_bfq_weight, BFQ_WEIGHT)", s->name, n, v1, v2))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	return 0;
}

/*
 * --set cgroup.PATH.ioprio=N: the per-group priority of the 2008 designs;
 * cgroup.PATH.FILE=VALUE: a cgroup v2 file (cg_v2_setting)
 */
static int cg_settings(struct run_ctx *c, const struct ios_sched_type *st,
		       struct ios_settings *set, struct ios_run_result *out, struct ios_err *e)
{
	const struct ios_sched_cgroups *cgi = st->cgroups;
	int ret;

	for (size_t i = 0; set && i < set->n; i++) {
		struct ios_setting *s = &set->v[i];
		const struct ios_scope *sc = ios_scope_of(s->name);
		const char *attr, *path;
		struct ios_cgroup *cg;
		enum ios_blkcg_file f;
		size_t plen;
		char *end;
		long v;

		if (!sc || sc->id != IOS_SCOPE_CGROUP)
			continue;
		path = s->name + strlen(sc->prefix);
		s->used = true;
		plen = strlen(path);
		if (plen >= strlen(SYSTEMD_IOWEIGHT) &&
		    !strcmp(path + plen - strlen(SYSTEMD_IOWEIGHT), SYSTEMD_IOWEIGHT)) {
			ret = cg_systemd_ioweight(c, st, s, path, plen - strlen(SYSTEMD_IOWEIGHT),
						  out, e);
			if (ret)
				return ret;
			continue;
		}
		if (!strcmp(path, SYSTEMD_IOWEIGHT + 1)) {
			ret = cg_systemd_ioweight(c, st, s, path, 0, out, e);
			if (ret)
				return ret;
			continue;
		}
		if (!ios_blkcg_resolve(path, &plen, &f)) {
			ret = cg_v2_setting(c, st, s, path, plen, f, false, e);
			if (ret)
				return ret;
			continue;
		}
		attr = strrchr(path, '.');
		if (!attr || attr == path || strcmp(attr, ".ioprio"))
			return IOS_ERR(e, -ENOENT, "%s%sunknown setting '%s': the cgroup settings "
				       "are cgroup.PATH.FILE with FILE io.weight, io.max, io.latency, "
				       "io.prio.class or io.bfq.weight (cgroup.io.cost.qos and "
				       "cgroup.io.cost.model on the root), systemd's "
				       "cgroup.PATH.systemd.IOWeight, and the lab's "
				       "cgroup.PATH.ioprio", s->origin, *s->origin ? ": " : "",
				       s->name);
		cg = cg_find(c, path, (size_t)(attr - path));
		if (!cg || !cg->id)
			return IOS_ERR(e, -ENOENT, "%s%s%s: no job is in cgroup '%.*s'", s->origin,
				       *s->origin ? ": " : "", s->name, (int)(attr - path), path);
		v = strtol(s->value, &end, 10);
		/* a digit first: strtol would take " 3" and "+3" */
		if (!isdigit((unsigned char)s->value[0]) || *end || v < 0 || v > 7)
			return IOS_ERR(e, -ERANGE, "%s%s%s=%s: out of range, allowed 0..7", s->origin,
				       *s->origin ? ": " : "", s->name, s->value);
		if (!cgi || !cgi->groups) {
			if (ios_run_warn(out, "%s has no effect: %s has no group scheduling",
					 s->name,
					 st->name))
				return IOS_ERR(e, -ENOMEM, "out of memory");
		} else if (!cgi->ioprio_levels) {
			return IOS_ERR(e, -EINVAL, "%s%s%s: %s's groups have weights, not priorities "
				       "(cgroup_weight=; priorities are lab.group_policy="
				       "tarasov2008 or uchida2008 on --scheduler cfq)", s->origin,
				       *s->origin ? ": " : "", s->name, st->name);
		}
		cg->ioprio = (int)v;
	}
	ret = cg_prerun(c, st, e);
	if (!ret)
		ret = cg_v2_effects(c, st, out, e);
	if (ret)
		return ret;
	return cg_v2_note(c, st, set, out, e);
}

/*
 * Check the jobs' group options against @st (the descriptor that will run)
 * and apply the cgroup.* settings. Errors point at the option's line.
 */
int ios_run_cgroups_check(struct run_ctx *c, const struct ios_sched_type *st,
			  struct ios_settings *set, struct ios_run_result *out, struct ios_err *e)
{
	const struct ios_sched_cgroups *cgi = st->cgroups;
	const char *pol = ios_run_group_policy_name(c->lab.group_policy);

	for (size_t i = 0; i < c->jf->nr_jobs; i++) {
		const struct ios_job *j = &c->jf->jobs[i];
		const char *wf = j->cgroup_weight_file ? j->cgroup_weight_file
						       : j->file ? j->file : "?";
		int wl = j->cgroup_weight_file ? j->cgroup_weight_line : j->line;
		const char *cf = j->cgroup_file ? j->cgroup_file : j->file ? j->file : "?";
		int cl = j->cgroup_file ? j->cgroup_line : j->line;
		bool nested = false;
		unsigned bad;
		int ret = 0;

		if (j->cgroup && strchr(j->cgroup, '/')) {
			const struct ios_cgroup *cg = NULL;

			/* "/a" and "a/" are flat: only a real parent counts */
			for (unsigned k = 0; k < c->nr_tasks && !cg; k++)
				if (c->tasks[k].job == j)
					cg = c->tasks[k].ioc.cgroup;
			nested = cg && cg->parent && cg->parent->id;
		}
		bad = ios_sched_cgroup_check(st, j->cgroup && *j->cgroup, nested, j->cgroup_weight);
		/*
		 * On blk-mq the group still matters: its requests never merge
		 * with another group's (blk_cgroup_mergeable), its writeback is
		 * its own (cgroup writeback), and the v2 controllers act on it,
		 * so "no effect" would not be true there.
		 */
		if ((bad & IOS_CG_IGNORED_GROUP) && ios_sched_layer(st) == IOS_SCHED_LAYER_MQ)
			ret = ios_run_warn(out,
					   "%s:%d: job '%s': cgroup=%s does not change scheduling: %s "
					   "has no group scheduling; on blk-mq the group still keeps "
					   "its requests from merging with other groups', has its own "
					   "writeback, and is what io.max, io.cost, io.latency and "
					   "io.prio.class act on when set (as in the kernel)", cf, cl,
					   j->name, j->cgroup, st->name);
		else if (bad & IOS_CG_IGNORED_GROUP)
			ret = ios_run_warn(out,
					   "%s:%d: job '%s': cgroup=%s has no effect: %s has no "
					   "group scheduling (the kernel would ignore it too)", cf, cl,
					   j->name, j->cgroup, st->name);
		if (!ret && (bad & IOS_CG_IGNORED_WEIGHT))
			ret = ios_run_warn(out, "%s:%d: job '%s': cgroup_weight=%u has no effect: %s has "
					   "no group scheduling", wf, wl, j->name, j->cgroup_weight,
					   st->name);
		if (!ret && (bad & IOS_CG_WEIGHT_UNUSED))
			ret = ios_run_warn(out,
					   "%s:%d: job '%s': cgroup_weight=%u has no effect under "
					   "lab.group_policy=%s: its groups have priorities "
					   "(--set cgroup.PATH.ioprio=0..%u)", wf, wl, j->name,
					   j->cgroup_weight, pol,
					   cgi->ioprio_levels ? cgi->ioprio_levels - 1 : 7);
		if (ret)
			return IOS_ERR(e, -ENOMEM, "out of memory");
		if (bad & IOS_CG_WEIGHT_RANGE)
			return IOS_ERR(e, -ERANGE, "%s:%d: job '%s': option 'cgroup_weight=%u': out "
				       "of range for %s, whose %s takes %u..%u", wf, wl, j->name,
				       j->cgroup_weight, st->name,
				       cgi->weight_file ? cgi->weight_file : "group weight",
				       cgi->weight_min, cgi->weight_max);
		if (bad & IOS_CG_NESTED_FLAT)
			return IOS_ERR(e, -EINVAL, "%s:%d: job '%s': cgroup=%s: %s's groups "
				       "are flat (every group a child of the root), so a "
				       "nested group would not get its parent's share; use "
				       "a flat name, or a scheduler with hierarchical "
				       "groups (cfq-4.19, bfq)", cf, cl, j->name, j->cgroup,
				       st->name);
	}
	int err = cg_settings(c, st, set, out, e);

	if (err)
		return err;
	/* blk-mq: the queue's group tree and the v2 controllers (ios_blkcg_install) */
	if (ios_sched_layer(st) == IOS_SCHED_LAYER_MQ && c->q)
		return ios_blkcg_install(c->q, c->cgroups, c->nr_cgroups, c->prerun_files,
					 ios_throtl_profile_for(c->lab.kernel, st->name),
					 ios_run_lab_hz(&c->lab), e);
	return 0;
}

/*
 * A job kept for later starts: its writes go to the files now, through
 * the kernel's parser again (an earlier write may have changed what this
 * one is checked against, as io.cost.qos's min and max are), and the
 * controller reading the file hears of it. fio ends a job whose prerun
 * failed; here the run goes on and the report counts the refused write.
 */
void ios_run_cgroups_prerun(struct run_task *t, uint64_t now)
{
	struct run_ctx *c = t->ctx;
	const struct run_prerun *p;
	struct ios_blkcg_devt dev;

	if (!c->prerun || !t->job->exec_prerun)
		return;
	p = &c->prerun[t->job - c->jf->jobs];
	if (!p->later)
		return;
	ios_blkcg_devt_of(c->host ? c->host->disk.profile : NULL, &dev);
	for (size_t k = 0; k < p->n; k++) {
		const struct ios_cgwrite *w = &p->w[k];
		char rest[1100], where[1300];
		struct ios_cgroup *cg;
		struct ios_blkg *g;
		struct ios_err e;
		enum ios_blkcg_file f;
		size_t plen;

		snprintf(rest, sizeof(rest), "%s%s%s", w->path, *w->path ? "." : "", w->file);
		/* resolved and the group found when the run was checked */
		if (ios_blkcg_resolve(rest, &plen, &f))
			continue;
		cg = cg_lookup(c, w->path, plen);
		if (!cg)
			continue;
		if (!cg->v2) {
			cg->v2 = malloc(sizeof(*cg->v2));
			if (!cg->v2) {
				c->prerun_refused++;
				continue;
			}
			ios_cgroup_v2_init(cg->v2);
		}
		snprintf(where, sizeof(where), "%s:%d: job '%s' at %.3f s: exec_prerun: "
			 "cgroup.%s", t->job->exec_prerun_file ? t->job->exec_prerun_file : "?",
			 t->job->exec_prerun_line, t->job->name, (double)now / 1e9, rest);
		ios_err_clear(&e);
		if (ios_blkcg_conf_write(f, w->value, &dev, cg->v2, where, &e)) {
			if (!c->prerun_refused++)
				snprintf(c->prerun_refused_msg, sizeof(c->prerun_refused_msg), "%s",
					 e.msg);
			continue;
		}
		g = c->q ? ios_blkg_of(c->q->blkcg, cg) : NULL;
		if (g && c->q->blkcg->conf_updated[f])
			c->q->blkcg->conf_updated[f](c->q, g, now);
		else
			c->prerun_unread |= 1u << f;
	}
}

/* What happened to the writes of jobs that started after the run began. */
static int cg_prerun_result(struct run_ctx *c, struct ios_run_result *out)
{
	if (c->prerun_refused &&
	    ios_run_warn(out, "%u exec_prerun cgroup write%s refused when %s job started "
			 "(fio would end that job with an error; the run went on without the "
			 "write): %s", c->prerun_refused, c->prerun_refused > 1 ? "s were" : " was",
			 c->prerun_refused > 1 ? "their" : "its", c->prerun_refused_msg))
		return -ENOMEM;
	for (int f = 0; f < IOS_BLKCG_NR_FILES; f++)
		if ((c->prerun_unread & (1u << f)) &&
		    ios_run_warn(out, "%s was written by exec_prerun after the run began; no "
				 "controller re-reads %s during a run yet, so the write had no "
				 "effect", ios_blkcg_cftype(f)->name, ios_blkcg_cftype(f)->name))
			return -ENOMEM;
	return 0;
}

/* ---- results ---- */

/*
 * Cgroup v2 (blk-mq with a group tree): the settings in effect, what the
 * controllers held the group's bios for, and its jobs' completion
 * latencies merged by direction (docs/cgroup-v2.md "Seeing it").
 */
static int cg_v2_result(struct run_ctx *c, const struct ios_cgroup *cg,
			struct ios_cgroup_result *r)
{
	const struct ios_cgroup_v2 *v = cg->v2;
	const struct ios_blkg *g = ios_blkg_of(c->q->blkcg, cg);

	r->v2 = true;
	if (g)
		r->waits = g->waits;
	r->v2_weight = v ? (v->weight_dev ? v->weight_dev : v->weight) : IOS_CGROUP_WEIGHT_DFL;
	for (int d = 0; d < 2; d++) {
		r->v2_bps[d] = v ? v->bps[d] : UINT64_MAX;
		r->v2_iops[d] = v ? v->iops[d] : UINT32_MAX;
	}
	r->v2_lat_target_ns = v ? v->lat_target_ns : 0;
	r->v2_prio_policy = v ? v->prio_policy : IOS_PRIO_NO_CHANGE;
	if (g)
		r->v2_lat_nr_depths = ios_iolat_depths(c->q, g, r->v2_lat_depth_at_ns, r->v2_lat_depth,
						       IOS_ARRAY_SIZE(r->v2_lat_depth));
	for (unsigned t = 0; t < c->nr_tasks; t++) {
		const struct ios_job_result *jr = c->tasks[t].res;

		if (c->tasks[t].ioc.cgroup != cg)
			continue;
		if (jr->runtime_ns > r->runtime_ns)
			r->runtime_ns = jr->runtime_ns;
		for (int d = 0; d < 2; d++) {
			const struct ios_lat_stat *src = &ios_job_dir(jr, d)->clat;

			if (src->hist && src->n &&
			    (ios_lat_enable_hist(&r->clat[d]) || ios_lat_reserve(&r->clat[d], src)))
				return -ENOMEM;
			if (ios_lat_merge(&r->clat[d], src))
				return -ENOMEM;
		}
	}
	return 0;
}

int ios_run_cgroups_result(struct run_ctx *c, struct ios_run_result *out)
{
	const struct ios_sched_ops *ops = &c->q->sched->ops;
	bool v2 = c->q->mq && c->q->blkcg && c->nr_cgroups > 1;
	size_t n = 0;
	char lat[480];

	if (cg_prerun_result(c, out))
		return -ENOMEM;
	ios_iolat_summary(c->q, lat, sizeof(lat));
	if (*lat && ios_run_warn(out, "io.latency: %s", lat))
		return -ENOMEM;
	if (c->q->mq) {
		out->qos_waits = c->q->qos_waits;
		out->has_wbt = ios_rq_qos_id(c->q, IOS_RQ_QOS_WBT) != NULL;
	}
	for (unsigned t = 0; v2 && t < c->nr_tasks && t < out->nr_jobs; t++) {
		out->jobs[t].has_waits = true;
		out->jobs[t].waits = c->tasks[t].ioc.waits;
	}
	/* what compare's ideal needs (io.cost's hweights, or no control at all) */
	out->iocost_enabled = cg_iocost_enabled(c);
	/* io.cost's per-period monitor, when a period ended (docs/cgroup-v2.md "Seeing it") */
	if (c->q->mq) {
		int err;

		out->iocost = ios_blk_iocost_take_log(c->q, &err);
		if (err)
			return err;
	}
	out->io_weight_written = (cg_v2_files(c) & (1u << IOS_BLKCG_WEIGHT)) != 0;
	if (c->nr_cgroups <= 1)
		return 0;	/* the workload named no group */
	out->cgroups = calloc(c->nr_cgroups, sizeof(*out->cgroups));
	if (!out->cgroups)
		return -ENOMEM;
	for (unsigned i = 0; i < c->nr_cgroups; i++) {
		const struct ios_cgroup *cg = c->cgroups[i];
		struct ios_cgroup_result *r = &out->cgroups[n];

		/* the root only when something ran or was written back in it */
		if (!cg->id && !cg_has_tasks(c, cg) && !cg->ios[0] && !cg->ios[1])
			continue;
		r->path = strdup(cg->path);
		if (!r->path)
			return -ENOMEM;
		n++;
		out->nr_cgroups = n;
		r->weight_set = cg->weight;
		if (cg->v2 && (cg->v2->written & (1u << IOS_BLKCG_WEIGHT)))
			r->io_weight = cg->v2->weight_dev ? cg->v2->weight_dev : cg->v2->weight;
		r->ioprio_set = cg->ioprio;
		for (unsigned t = 0; t < c->nr_tasks; t++) {
			const struct ios_job_result *jr = c->tasks[t].res;

			if (c->tasks[t].ioc.cgroup != cg)
				continue;
			r->nr_jobs++;
			for (int d = 0; d < IOS_DDIR_NR; d++) {
				r->ios[d] += ios_job_dir(jr, d)->total_ios;
				r->io_bytes[d] += ios_job_dir(jr, d)->io_bytes;
			}
		}
		for (int d = 0; d < 2; d++) {
			r->blk_ios[d] = cg->ios[d];
			r->blk_sectors[d] = cg->sectors[d];
		}
		r->sched.ioprio = -1;
		if (ops->group_stats && !ops->group_stats(c->q, cg, &r->sched))
			r->has_sched = true;
		if (c->vfs) {
			struct ios_vfs_cgwb_stats ws;

			r->has_wb = ios_vfs_cgwb_stats(c->vfs, cg, &ws);
			r->wb_inodes = ws.inodes;
			r->wb_pages = ws.pages_written;
			r->wb_foreign_pages = ws.foreign_pages;
			r->wb_passes = ws.passes;
		}
		if (v2 && cg_v2_result(c, cg, r))
			return -ENOMEM;
	}
	return 0;
}
