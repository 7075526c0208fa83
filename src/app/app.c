/*
 * The application API (app.h): one host, one queue, files and tenants.
 *
 * The app builds what the runner's run_build() builds (host, then the
 * queue on it with the settings), lays files out as lab.fs=raw does (one
 * extent each, 1 MiB aligned, so no request spans two files) and turns
 * each I/O into bios of at most queue.max_sectors_kb. Everything runs on
 * the host's event loop on the caller's thread: see docs/library.md.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/app.h"
#include "iosched/block.h"
#include "iosched/host.h"
#include "iosched/run.h"
#include "iosched/sched.h"
#include "iosched/scope.h"
#include "block/blk_throttle.h"
#include "block/blkcg_int.h"

#define APP_FILE_ALIGN_SECTORS	2048u	/* 1 MiB */
#define APP_MAX_WARN		16

struct app_file {
	char *path;
	uint64_t start, size;
};

struct app_tenant {
	char name[32];
	struct ios_ioc ioc;
	struct ios_app_tenant_stats st;
};

struct app_io {
	struct ios_app *app;
	struct app_tenant *t;
	ios_app_done_fn done;
	void *arg;
	uint64_t submit_ns, bytes;
	unsigned left;
	int error;
	struct ios_bio bios[];
};

struct ios_app {
	struct ios_host *h;
	struct ios_queue *q;
	const struct ios_sched_type *st;
	struct ios_settings set;
	bool real;
	struct app_file *files;
	unsigned nr_files;
	uint64_t next_sector;
	struct app_tenant **tenants;
	unsigned nr_tenants;
	struct ios_cgroup **cgroups;
	unsigned nr_cgroups;
	unsigned cpus;			/* lab.cpus: the blk-mq software contexts */
	/*
	 * The first ios_app_submit ran: the group tree and the v2
	 * controllers are fixed (app_start), and a cgroup file may change
	 * only where its controller re-reads it (conf_updated).
	 */
	bool started;
	char *warn[APP_MAX_WARN];
	unsigned nr_warn;
	unsigned in_flight;
	uint64_t done_count, done_target;
	bool waiting;
	uint64_t wait_gen;
	/*
	 * Lifetime and thread checks (app_enter): APP_OPEN, then APP_CLOSING
	 * from ios_app_close until the free. @depth counts the library calls
	 * of @owner on the stack (a callback's calls nest inside the wait
	 * that ran it); another thread entering meanwhile gets -EBUSY.
	 */
	enum { APP_OPEN = 1, APP_CLOSING } state;
	unsigned depth;
	pthread_t owner;
	bool close_pending;	/* closed from a callback: freed when the wait returns */
};

/*
 * The open apps. A handle is looked up here before anything reads it, so a
 * closed one is -EBADF without touching freed memory, unless a later
 * ios_app_open got the same address (documented as undefined). The lock
 * also orders one thread's use of an app after another's.
 */
static pthread_mutex_t app_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ios_app **app_live;
static size_t app_nr_live, app_cap_live;

static bool app_is_live(const struct ios_app *app)
{
	for (size_t i = 0; i < app_nr_live; i++)
		if (app_live[i] == app)
			return true;
	return false;
}

static int app_register(struct ios_app *app)
{
	int ret = 0;

	pthread_mutex_lock(&app_lock);
	if (app_nr_live == app_cap_live) {
		size_t cap = app_cap_live ? 2 * app_cap_live : 4;
		struct ios_app **v = realloc(app_live, cap * sizeof(*v));

		if (v) {
			app_live = v;
			app_cap_live = cap;
		}
	}
	if (app_nr_live < app_cap_live)
		app_live[app_nr_live++] = app;
	else
		ret = -ENOMEM;
	pthread_mutex_unlock(&app_lock);
	return ret;
}

static void app_unregister(struct ios_app *app)
{
	pthread_mutex_lock(&app_lock);
	for (size_t i = 0; i < app_nr_live; i++)
		if (app_live[i] == app) {
			app_live[i] = app_live[--app_nr_live];
			break;
		}
	if (!app_nr_live) {
		free(app_live);
		app_live = NULL;
		app_cap_live = 0;
	}
	pthread_mutex_unlock(&app_lock);
}

/* On entry of every public function: 0, or why @app may not be used now. */
static int app_enter(struct ios_app *app, const char *who, struct ios_err *e)
{
	int ret = 0;

	if (!app)
		return IOS_ERR(e, -EINVAL, "%s: no app", who);
	pthread_mutex_lock(&app_lock);
	if (!app_is_live(app))
		ret = -EBADF;
	else if (app->depth && !pthread_equal(app->owner, pthread_self()))
		ret = -EBUSY;
	else if (app->state != APP_OPEN)
		ret = -ESHUTDOWN;
	else if (!app->depth++)
		app->owner = pthread_self();
	pthread_mutex_unlock(&app_lock);
	if (ret == -EBADF)
		return IOS_ERR(e, -EBADF, "%s: not an open app (closed, or never opened)", who);
	if (ret == -EBUSY)
		return IOS_ERR(e, -EBUSY, "%s: another thread is inside a call on this app (an "
			       "app is used by one thread at a time)", who);
	if (ret)
		return IOS_ERR(e, -EBADF, "%s: the app was closed by a callback; it is freed when "
			       "the ios_app_wait running the callback returns", who);
	return 0;
}

static void app_leave(struct ios_app *app)
{
	pthread_mutex_lock(&app_lock);
	app->depth--;
	pthread_mutex_unlock(&app_lock);
}

static void app_warn(struct ios_app *app, const char *msg)
{
	if (app->nr_warn < APP_MAX_WARN)
		app->warn[app->nr_warn] = strdup(msg), app->nr_warn += !!app->warn[app->nr_warn];
}

const char *ios_app_warning(const struct ios_app *capp, size_t i)
{
	struct ios_app *app = (struct ios_app *)capp;	/* only its call count changes */
	const char *w;

	if (app_enter(app, "ios_app_warning", NULL))
		return NULL;
	w = i < app->nr_warn ? app->warn[i] : NULL;
	app_leave(app);
	return w;
}

static void app_free(struct ios_app *app)
{
	if (app->q) {
		/* as the runner's ctx_free: the tree first, then the queue's policies */
		ios_blkcg_ctl_destroy(app->q->blkcg);
		app->q->blkcg = NULL;
		ios_queue_destroy(app->q);
	}
	ios_host_destroy(app->h);
	for (unsigned i = 0; i < app->nr_files; i++)
		free(app->files[i].path);
	free(app->files);
	for (unsigned i = 0; i < app->nr_tenants; i++)
		free(app->tenants[i]);
	free(app->tenants);
	for (unsigned i = 0; i < app->nr_cgroups; i++) {
		free(app->cgroups[i]->path);
		free(app->cgroups[i]->v2);
		free(app->cgroups[i]);
	}
	free(app->cgroups);
	for (unsigned i = 0; i < app->nr_warn; i++)
		free(app->warn[i]);
	ios_settings_free(&app->set);
	free(app);
}

/*
 * The queue's shape, as the runner's run_build gives it (ios_run_queue_geometry):
 * the legacy layer gets the device's queue_depth(); blk-mq gets its tags
 * per hardware queue and min(device queues, lab.cpus) hardware queues
 * (blk_mq_alloc_tag_set caps a tag set at nr_cpu_ids). lab.cpus is the one
 * lab. setting the app reads; any other lab. name is refused as unknown.
 */
static int app_geometry(struct ios_app *app, struct ios_queue_config *qc, struct ios_err *e)
{
	const struct ios_tunable *row = ios_tunable_find(ios_lab_tunables_table, "cpus");
	struct ios_tunable only[2] = { { 0 }, { 0 } };
	struct ios_lab_tunables lab;
	const struct ios_host_disk *d = &app->h->disk;
	unsigned nrq = d->nr_hw_queues ? d->nr_hw_queues : 1;
	int ret;

	memset(qc, 0, sizeof(*qc));
	memset(&lab, 0, sizeof(lab));
	lab.cpus = 1;
	if (!row)
		return IOS_ERR(e, -EINVAL, "lab.cpus: no such tunable");
	only[0] = *row;
	ret = ios_settings_apply(&app->set, "lab.", only, &lab, e);
	if (ret)
		return ret;
	app->cpus = (unsigned)lab.cpus;
	qc->nr_cpus = app->cpus;
	qc->nr_hw_queues = 1;
	qc->depth = d->depth;
	if (ios_sched_layer(app->st) == IOS_SCHED_LAYER_MQ) {
		if (d->hw_queue_depth)
			qc->depth = d->hw_queue_depth;
		qc->nr_hw_queues = nrq < app->cpus ? nrq : app->cpus;
	}
	return 0;
}

static int app_build(struct ios_app *app, const struct ios_app_config *cfg, struct ios_err *e)
{
	const struct ios_host_ops *ops = &ios_host_sim_ops;
	struct ios_host_config hc = { .device = cfg->device, .settings = &app->set,
				      .seed = cfg->seed };
	struct ios_queue_config qc;
	int ret;

	if (cfg->host == IOS_APP_REAL) {
		/* without liburing the host's init() says the library was built without it */
		ops = &ios_host_uring_ops;
		app->real = true;
	} else if (cfg->host != IOS_APP_SIM) {
		return IOS_ERR(e, -EINVAL, "ios_app_config.host=%d: IOS_APP_SIM or IOS_APP_REAL",
			       (int)cfg->host);
	}
	ret = ios_host_create(ops, &hc, &app->h, e);
	if (ret)
		return ret;
	ret = app_geometry(app, &qc, e);
	if (ret)
		return ret;
	qc.disk_name = app->h->disk.name;
	qc.sched = app->st;
	qc.settings = &app->set;
	qc.rotational = app->h->disk.rotational;
	qc.capacity_sectors = app->h->disk.nr_sectors;
	if (app->h->disk.zoned)
		return IOS_ERR(e, -ENOTSUP, "device %s is zoned: the app API lays files out "
			       "for conventional disks only", app->h->disk.profile);
	qc.host_ops = &ios_host_queue_ops;
	qc.host = app->h;
	app->q = ios_queue_create(&qc, e);
	if (!app->q)
		return e && e->code ? e->code : -EINVAL;
	app->h->q = app->q;
	for (size_t i = 0; i < app->set.n; i++)
		if (!app->set.v[i].used)
			return IOS_ERR(e, -ENOENT, "setting '%s=%s': unknown name for scheduler "
				       "%s on this host", app->set.v[i].name, app->set.v[i].value,
				       app->st->name);
	return 0;
}

struct ios_app *ios_app_open(const struct ios_app_config *cfg, struct ios_err *e)
{
	static const struct ios_app_config def;
	struct ios_app *app;
	const char *name;

	if (!cfg)
		cfg = &def;
	name = cfg->scheduler ? cfg->scheduler : "cfq";
	app = calloc(1, sizeof(*app));
	if (!app) {
		IOS_ERR(e, -ENOMEM, "out of memory");
		return NULL;
	}
	app->st = ios_sched_find(name);
	if (!app->st) {
		char hint[256];

		IOS_ERR(e, -ENOENT, "unknown scheduler '%s'%s", name,
			ios_sched_suggest(name, hint, sizeof(hint)));
		goto fail;
	}
	for (size_t i = 0; cfg->settings && cfg->settings[i]; i++)
		if (ios_settings_add_kv(&app->set, cfg->settings[i], "ios_app_open", e))
			goto fail;
	/* the root group exists from the start: every tenant has a cgroup */
	app->cgroups = calloc(1, sizeof(*app->cgroups));
	if (!app->cgroups || !(app->cgroups[0] = calloc(1, sizeof(**app->cgroups))) ||
	    !(app->cgroups[0]->path = strdup(""))) {
		IOS_ERR(e, -ENOMEM, "out of memory");
		if (app->cgroups && app->cgroups[0])
			app->nr_cgroups = 1;
		goto fail;
	}
	app->cgroups[0]->ioprio = -1;
	app->nr_cgroups = 1;
	if (app_build(app, cfg, e))
		goto fail;
	app->state = APP_OPEN;
	if (app_register(app)) {
		IOS_ERR(e, -ENOMEM, "out of memory");
		goto fail;
	}
	return app;
fail:
	app_free(app);
	return NULL;
}

static int app_add_file(struct ios_app *app, const char *path, uint64_t size, unsigned flags,
			struct ios_err *e)
{
	struct ios_host_file hf;
	struct app_file *v;
	uint64_t sectors;
	int ret;

	if (!path || !*path)
		return IOS_ERR(e, -EINVAL, "ios_app_add_file: no path");
	if (!size || size % 512)
		return IOS_ERR(e, -EINVAL, "file %s: size %" PRIu64 " must be > 0 and a multiple "
			       "of 512", path, size);
	if (flags & ~(IOS_APP_FILE_CREATE | IOS_APP_FILE_FILL | IOS_APP_FILE_WRITE))
		return IOS_ERR(e, -EINVAL, "file %s: unknown flags 0x%x", path, flags);
	sectors = (size / 512 + APP_FILE_ALIGN_SECTORS - 1) / APP_FILE_ALIGN_SECTORS *
		  APP_FILE_ALIGN_SECTORS;
	if (app->next_sector + sectors > app->q->capacity_sectors)
		return IOS_ERR(e, -ENOSPC, "file %s: %" PRIu64 " bytes do not fit on %s "
			       "(%" PRIu64 " sectors, %" PRIu64 " used)", path, size,
			       app->h->disk.name, app->q->capacity_sectors, app->next_sector);
	hf.path = path;
	hf.start_sector = app->next_sector;
	hf.size = size;
	hf.flags = flags | (app->real ? IOS_HOST_FILE_DIRECT : 0);
	if (app->h->ops->attach) {
		ret = app->h->ops->attach(app->h, &hf, e);
		if (ret)
			return ret;
	}
	v = realloc(app->files, (app->nr_files + 1) * sizeof(*v));
	if (!v)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	app->files = v;
	v[app->nr_files].path = strdup(path);
	if (!v[app->nr_files].path)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	v[app->nr_files].start = hf.start_sector;
	v[app->nr_files].size = size;
	app->next_sector += sectors;
	return (int)app->nr_files++;
}

int ios_app_add_file(struct ios_app *app, const char *path, uint64_t size, unsigned flags,
		     struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_add_file", e);

	if (ret)
		return ret;
	ret = app_add_file(app, path, size, flags, e);
	app_leave(app);
	return ret;
}

/*
 * The group at @path (missing parents created unless @find_only), NULL on
 * no memory or, with @find_only, when it does not exist.
 */
static struct ios_cgroup *app_cgroup_at(struct ios_app *app, const char *path, bool find_only)
{
	struct ios_cgroup *cg = app->cgroups[0];
	size_t n = path ? strlen(path) : 0;

	for (size_t k = 1; cg && k <= n; k++) {
		struct ios_cgroup *child = NULL, **v;

		if (k < n && path[k] != '/')
			continue;
		for (unsigned i = 0; i < app->nr_cgroups && !child; i++)
			if (strlen(app->cgroups[i]->path) == k && !memcmp(app->cgroups[i]->path, path, k))
				child = app->cgroups[i];
		if (!child && find_only)
			return NULL;
		if (!child) {
			v = realloc(app->cgroups, (app->nr_cgroups + 1) * sizeof(*v));
			if (!v)
				return NULL;
			app->cgroups = v;
			child = calloc(1, sizeof(*child));
			if (!child || !(child->path = strndup(path, k))) {
				free(child);
				return NULL;
			}
			child->id = app->nr_cgroups;
			child->ioprio = -1;
			child->parent = cg;
			v[app->nr_cgroups++] = child;
		}
		cg = child;
	}
	return cg;
}

static struct ios_cgroup *app_cgroup(struct ios_app *app, const char *path)
{
	return app_cgroup_at(app, path, false);
}

/* A group path as the app takes it: "" or "a/b", no leading, trailing or doubled '/'. */
static bool app_path_ok(const char *path)
{
	return *path != '/' && !(*path && path[strlen(path) - 1] == '/') && !strstr(path, "//");
}

/* The runner's checks (src/run/cgroup.c), for one tenant's path and weight. */
static int app_cgroup_check(struct ios_app *app, const struct ios_app_tenant *t, struct ios_err *e)
{
	const struct ios_sched_cgroups *cgi = app->st->cgroups;
	const char *path = t->cgroup ? t->cgroup : "";
	char msg[512];
	unsigned bad;

	if (!app_path_ok(path))
		return IOS_ERR(e, -EINVAL, "tenant '%s': cgroup '%s': write it as \"a/b\", no "
			       "leading, trailing or doubled '/'", t->name, path);
	/* the same rules as a job's cgroup= and cgroup_weight= (ios_run_cgroups_check) */
	bad = ios_sched_cgroup_check(app->st, *path, strchr(path, '/'), t->weight);
	if ((bad & IOS_CG_IGNORED_GROUP) && ios_sched_layer(app->st) == IOS_SCHED_LAYER_MQ) {
		/* blk-mq never merges across groups (blk_cgroup_mergeable): not "no effect" */
		snprintf(msg, sizeof(msg), "tenant '%s': cgroup %s does not change scheduling: %s "
			 "has no group scheduling; blk-mq only keeps the group's requests from "
			 "merging with other groups' (as the kernel does)", t->name, path,
			 app->st->name);
		app_warn(app, msg);
	} else if (bad & IOS_CG_IGNORED_GROUP) {
		snprintf(msg, sizeof(msg), "tenant '%s': cgroup %s has no effect: %s has no group "
			 "scheduling (the kernel would ignore it too)", t->name, path, app->st->name);
		app_warn(app, msg);
	}
	if (bad & IOS_CG_IGNORED_WEIGHT) {
		snprintf(msg, sizeof(msg), "tenant '%s': weight %u has no effect: %s has no group "
			 "scheduling", t->name, t->weight, app->st->name);
		app_warn(app, msg);
	}
	if (bad & IOS_CG_WEIGHT_UNUSED) {
		snprintf(msg, sizeof(msg), "tenant '%s': weight %u has no effect: %s's groups have "
			 "priorities, not weights", t->name, t->weight, app->st->name);
		app_warn(app, msg);
	}
	if (bad & IOS_CG_WEIGHT_RANGE)
		return IOS_ERR(e, -ERANGE, "tenant '%s': weight %u: out of range for %s, whose %s "
			       "takes %u..%u", t->name, t->weight, app->st->name,
			       cgi->weight_file ? cgi->weight_file : "group weight",
			       cgi->weight_min, cgi->weight_max);
	if (bad & IOS_CG_NESTED_FLAT)
		return IOS_ERR(e, -EINVAL, "tenant '%s': cgroup %s: %s's groups are flat, so a "
			       "nested group would not get its parent's share", t->name, path,
			       app->st->name);
	return 0;
}

static int app_prio_check(const char *who, int cls, int level, int nice, struct ios_err *e)
{
	if (cls < IOS_IOPRIO_CLASS_NONE || cls > IOS_IOPRIO_CLASS_IDLE)
		return IOS_ERR(e, -EINVAL, "%s: ioprio class %d: 0 none, 1 rt, 2 be, 3 idle", who, cls);
	if (level < 0 || level >= IOS_IOPRIO_LEVELS)
		return IOS_ERR(e, -ERANGE, "%s: ioprio level %d: out of range, allowed 0..7", who, level);
	if (nice < -20 || nice > 19)
		return IOS_ERR(e, -ERANGE, "%s: nice %d: out of range, allowed -20..19", who, nice);
	return 0;
}

static int app_tenant_add(struct ios_app *app, const struct ios_app_tenant *t, struct ios_err *e)
{
	struct app_tenant *at, **v;
	struct ios_cgroup *cg;
	int ret;

	if (!t || !t->name || !*t->name)
		return IOS_ERR(e, -EINVAL, "ios_app_tenant_add: no name");
	ret = app_prio_check(t->name, t->ioprio_class, t->ioprio_level, t->nice, e);
	if (!ret)
		ret = app_cgroup_check(app, t, e);
	if (ret)
		return ret;
	if (t->cpu >= app->cpus && ios_sched_layer(app->st) == IOS_SCHED_LAYER_MQ)
		return IOS_ERR(e, -ERANGE, "tenant '%s': cpu %u: out of range, allowed 0..%u "
			       "(lab.cpus=%u; raise it in ios_app_config.settings)", t->name, t->cpu,
			       app->cpus - 1, app->cpus);
	/* the tree is fixed at the first submit: a tenant may join a group in it only */
	if (app->q->blkcg && !app_cgroup_at(app, t->cgroup, true))
		return IOS_ERR(e, -EALREADY, "tenant '%s': cgroup %s is new, and the group tree "
			       "with its cgroup files was built at the first ios_app_submit: add "
			       "tenants in new groups before it", t->name, t->cgroup);
	cg = app_cgroup(app, t->cgroup);
	at = calloc(1, sizeof(*at));
	v = realloc(app->tenants, (app->nr_tenants + 1) * sizeof(*v));
	if (v)
		app->tenants = v;
	if (!cg || !at || !v) {
		free(at);
		return IOS_ERR(e, -ENOMEM, "out of memory");
	}
	if (t->weight && cg->id) {
		if (cg->weight && cg->weight != t->weight) {
			free(at);
			return IOS_ERR(e, -EINVAL, "tenant '%s': cgroup %s already has weight %u",
				       t->name, cg->path, cg->weight);
		}
		cg->weight = t->weight;
	}
	snprintf(at->name, sizeof(at->name), "%s", t->name);
	at->ioc.pid = t->pid ? t->pid : 1000 + app->nr_tenants;
	snprintf(at->ioc.comm, sizeof(at->ioc.comm), "%s", t->name);
	at->ioc.ioprio_class = t->ioprio_class;
	at->ioc.ioprio_level = t->ioprio_level;
	at->ioc.nice = t->nice;
	at->ioc.cgroup = cg;
	at->ioc.nr_tasks = 1;
	/* the software context its bios enter by (blk-mq); the single-queue layer ignores it */
	at->ioc.cpu = t->cpu;
	v[app->nr_tenants] = at;
	return (int)app->nr_tenants++;
}

int ios_app_tenant_add(struct ios_app *app, const struct ios_app_tenant *t, struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_tenant_add", e);

	if (ret)
		return ret;
	ret = app_tenant_add(app, t, e);
	app_leave(app);
	return ret;
}

static struct app_tenant *app_tenant(struct ios_app *app, int id, struct ios_err *e)
{
	if (id < 0 || (unsigned)id >= app->nr_tenants) {
		IOS_ERR(e, -EINVAL, "tenant id %d: no such tenant (%u added)", id, app->nr_tenants);
		return NULL;
	}
	return app->tenants[id];
}

static int app_tenant_set_prio(struct ios_app *app, int tenant, int cls, int level,
			       struct ios_err *e)
{
	struct app_tenant *t = app_tenant(app, tenant, e);
	int ret;

	if (!t)
		return -EINVAL;
	ret = app_prio_check(t->name, cls, level, t->ioc.nice, e);
	if (ret)
		return ret;
	t->ioc.ioprio_class = cls;
	t->ioc.ioprio_level = level;
	/*
	 * As ioprio_set() does, only the io context changes: the scheduler
	 * picks the change up at the tenant's next request (CFQ's
	 * cfq_check_ioprio_change, BFQ's ios_bfq_check_ioprio_change).
	 */
	return 0;
}

int ios_app_tenant_set_prio(struct ios_app *app, int tenant, int cls, int level,
			    struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_tenant_set_prio", e);

	if (ret)
		return ret;
	ret = app_tenant_set_prio(app, tenant, cls, level, e);
	app_leave(app);
	return ret;
}

/* ---- cgroup v2 files ---- */

/* lab.hz and lab.kernel at their defaults: the app reads lab.cpus only (app_geometry) */
#define APP_HZ		250u
#define APP_LAB_KERNEL	0	/* auto: the throttle profile of the scheduler's release */

/*
 * The first submit: the group tree and the controllers the files written
 * so far ask for, as a run installs them before its first I/O
 * (ios_blkcg_install, shared with src/run/cgroup.c). Nothing is built when
 * no cgroup file was written: the app then runs as before this API.
 */
static int app_start(struct ios_app *app, struct ios_err *e)
{
	bool written = false;

	if (app->started)
		return 0;
	app->started = true;
	for (unsigned i = 0; i < app->nr_cgroups; i++)
		written |= app->cgroups[i]->v2 && app->cgroups[i]->v2->written;
	if (!written || ios_sched_layer(app->st) != IOS_SCHED_LAYER_MQ)
		return 0;
	return ios_blkcg_install(app->q, app->cgroups, app->nr_cgroups, 0,
				 ios_throtl_profile_for(APP_LAB_KERNEL, app->st->name), APP_HZ, e);
}

static int app_cgroup_write(struct ios_app *app, const char *path, const char *file,
			    const char *value, struct ios_err *e)
{
	enum ios_blkcg_file f = IOS_BLKCG_NR_FILES;
	const struct ios_blkcg_cftype *ct;
	struct ios_cgroup_v2 scratch;
	struct ios_blkcg_devt dev;
	struct ios_cgroup *cg;
	struct ios_blkg *g = NULL;
	char where[600];
	bool root;
	int ret;

	path = path ? path : "";
	if (!file || !value)
		return IOS_ERR(e, -EINVAL, "ios_app_cgroup_write: no %s", file ? "value" : "file");
	if (ios_sched_layer(app->st) != IOS_SCHED_LAYER_MQ)
		return IOS_ERR(e, -EOPNOTSUPP, "/sys/fs/cgroup/%s%s%s: cgroup v2 I/O controllers are "
			       "modelled on blk-mq (Linux 6.12) and %s runs the single-queue layer; "
			       "open the app with a blk-mq scheduler (none, mq-deadline, kyber, bfq)",
			       path, *path ? "/" : "", file, app->st->name);
	for (int i = 0; i < IOS_BLKCG_NR_FILES; i++)
		if (!strcmp(ios_blkcg_cftype((enum ios_blkcg_file)i)->name, file))
			f = (enum ios_blkcg_file)i;
	if (f == IOS_BLKCG_NR_FILES)
		return IOS_ERR(e, -ENOENT, "ios_app_cgroup_write: '%s': iosched models the cgroup v2 "
			       "I/O files io.weight, io.max, io.latency, io.prio.class, "
			       "io.bfq.weight, and io.cost.qos and io.cost.model on the root", file);
	if (!app_path_ok(path))
		return IOS_ERR(e, -EINVAL, "ios_app_cgroup_write: cgroup '%s': write it as \"a/b\", "
			       "no leading, trailing or doubled '/'", path);
	ct = ios_blkcg_cftype(f);
	root = !*path;
	/* the files each level has (cgroup-defs.h flags): a missing file is -ENOENT */
	if (root && (ct->flags & IOS_CFTYPE_NOT_ON_ROOT))
		return IOS_ERR(e, -ENOENT, "%s does not exist on the root cgroup (CFTYPE_NOT_ON_ROOT "
			       "in %s, Linux 6.12): name a child group", ct->name, ct->kfile);
	if (!root && (ct->flags & IOS_CFTYPE_ONLY_ON_ROOT))
		return IOS_ERR(e, -ENOENT, "cgroup %s: %s exists only on the root cgroup "
			       "(CFTYPE_ONLY_ON_ROOT in %s, Linux 6.12): pass path \"\"", path,
			       ct->name, ct->kfile);
	cg = app_cgroup_at(app, path, true);
	if (app->started) {
		/* 6.12's write handlers tell the controller (tg_conf_updated, ...); others never re-read */
		g = cg && app->q->blkcg ? ios_blkg_of(app->q->blkcg, cg) : NULL;
		if (!g)
			return IOS_ERR(e, -EALREADY, "/sys/fs/cgroup/%s%s%s: the group tree and its "
				       "controllers were built at the first ios_app_submit%s; write "
				       "the cgroup files before it", path, *path ? "/" : "", file,
				       cg ? " without cgroup files" : ", without this group");
		if (!app->q->blkcg->conf_updated[f])
			return IOS_ERR(e, -EALREADY, "/sys/fs/cgroup/%s%s%s: no controller re-reads "
				       "%s once I/O started (none was installed for it at the first "
				       "ios_app_submit, or it reads the file only then); write it "
				       "before the first submit", path, *path ? "/" : "", file,
				       ct->name);
	}
	/* the kernel's parser for the file (blkcg_conf.c), on a copy: a refused write changes nothing */
	if (cg && cg->v2)
		scratch = *cg->v2;
	else
		ios_cgroup_v2_init(&scratch);
	ios_blkcg_devt_of(app->h->disk.profile, &dev);
	snprintf(where, sizeof(where), "ios_app_cgroup_write: /sys/fs/cgroup/%s%s%s", path,
		 *path ? "/" : "", file);
	ret = ios_blkcg_conf_write(f, value, &dev, &scratch, where, e);
	if (ret)
		return ret;
	if (!cg && !(cg = app_cgroup(app, path)))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	if (!cg->v2 && !(cg->v2 = malloc(sizeof(*cg->v2))))
		return IOS_ERR(e, -ENOMEM, "out of memory");
	*cg->v2 = scratch;
	if (g) {
		app->q->blkcg->conf_updated[f](app->q, g, app->h->loop.now);
		ios_queue_run(app->q, app->h->loop.now);
	}
	return 0;
}

int ios_app_cgroup_write(struct ios_app *app, const char *path, const char *file,
			 const char *value, struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_cgroup_write", e);

	if (ret)
		return ret;
	ret = app_cgroup_write(app, path, file, value, e);
	app_leave(app);
	return ret;
}

/* ---- I/O ---- */

static void app_bio_end(struct ios_bio *bio, uint64_t now_ns, int error)
{
	struct app_io *io = bio->priv;
	struct ios_app *app = io->app;

	if (error && !io->error)
		io->error = error;
	if (--io->left)
		return;
	io->t->st.ios++;
	io->t->st.bytes += io->bytes;
	io->t->st.errors += io->error != 0;
	io->t->st.lat_sum_ns += now_ns - io->submit_ns;
	app->in_flight--;
	app->done_count++;
	if (io->done)
		io->done(io->arg, io->error, now_ns - io->submit_ns);
	free(io);
	/* a close from the callback is done by the wait, once the loop is left */
	if (app->waiting && (app->done_count >= app->done_target || app->close_pending))
		ios_sim_stop(&app->h->loop);
}

static int app_submit(struct ios_app *app, int tenant, int file, int dir, uint64_t offset,
		      uint64_t len, void *buf, unsigned flags, ios_app_done_fn done, void *arg,
		      struct ios_err *e)
{
	struct app_tenant *t = app_tenant(app, tenant, e);
	const struct app_file *f;
	uint64_t max, now;
	struct app_io *io;
	unsigned n;

	if (!t)
		return -EINVAL;
	if (file < 0 || (unsigned)file >= app->nr_files)
		return IOS_ERR(e, -EINVAL, "file id %d: no such file (%u added)", file, app->nr_files);
	f = &app->files[file];
	if (dir != IOS_APP_READ && dir != IOS_APP_WRITE)
		return IOS_ERR(e, -EINVAL, "%s: dir %d: IOS_APP_READ or IOS_APP_WRITE", f->path, dir);
	if (flags & ~IOS_APP_SYNC)
		return IOS_ERR(e, -EINVAL, "%s: unknown flags 0x%x", f->path, flags);
	if (!len || len % 512 || offset % 512)
		return IOS_ERR(e, -EINVAL, "%s: offset %" PRIu64 " length %" PRIu64 ": both must be "
			       "multiples of 512 and the length > 0", f->path, offset, len);
	if (offset > f->size || len > f->size - offset)
		return IOS_ERR(e, -EINVAL, "%s: offset %" PRIu64 " + length %" PRIu64 " is past "
			       "its end (%" PRIu64 " bytes)", f->path, offset, len, f->size);
	if (app->real && (!buf || (uintptr_t)buf % 4096))
		return IOS_ERR(e, -EINVAL, "%s: the buffer must be 4096-aligned for O_DIRECT on a "
			       "real host", f->path);
	if (!app->started) {
		int ret = app_start(app, e);

		if (ret)
			return ret;
	}
	max = app->q->tun.max_sectors_bytes ? app->q->tun.max_sectors_bytes : len;
	max -= max % 512;
	n = (unsigned)((len + max - 1) / max);
	io = calloc(1, sizeof(*io) + n * sizeof(io->bios[0]));
	if (!io)
		return IOS_ERR(e, -ENOMEM, "out of memory");
	/* a real host's clock has moved since the loop last ran; the simulator's has not */
	now = app->h->loop.now = app->h->ops->now(app->h);
	io->app = app;
	io->t = t;
	io->done = done;
	io->arg = arg;
	io->submit_ns = now;
	io->bytes = len;
	io->left = n;
	app->in_flight++;
	for (unsigned i = 0; i < n; i++) {
		struct ios_bio *b = &io->bios[i];
		uint64_t off = (uint64_t)i * max, l = len - off < max ? len - off : max;

		b->sector = f->start + (offset + off) / 512;
		b->nr_sectors = (uint32_t)(l / 512);
		b->dir = (uint8_t)dir;
		b->flags = dir == IOS_APP_READ || (flags & IOS_APP_SYNC) ? IOS_REQ_SYNC : 0;
		b->ioc = &t->ioc;
		b->submit_ns = now;
		b->end_io = app_bio_end;
		b->priv = io;
		b->data = buf ? (char *)buf + off : NULL;
	}
	/* a parked bio (no free slot: return 1) enters the queue when one frees */
	for (unsigned i = 0; i < n; i++)
		(void)ios_queue_submit_bio(app->q, &io->bios[i], now);
	return 0;
}

/*
 * From a callback too: the block layer calls a bio's end_io after the
 * request is freed and before it runs the queue again (ios_queue_complete),
 * so a bio submitted there enters the queue as one submitted between two
 * events would, as a kernel end_io may submit new bios.
 */
int ios_app_submit(struct ios_app *app, int tenant, int file, int dir, uint64_t offset,
		   uint64_t len, void *buf, unsigned flags, ios_app_done_fn done, void *arg,
		   struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_submit", e);

	if (ret)
		return ret;
	ret = app_submit(app, tenant, file, dir, offset, len, buf, flags, done, arg, e);
	app_leave(app);
	return ret;
}

static void app_timeout(struct ios_sim *sim, void *arg, uint64_t data)
{
	struct ios_app *app = arg;

	if (app->waiting && data == app->wait_gen)
		ios_sim_stop(sim);
}

static long app_wait(struct ios_app *app, unsigned min_done, uint64_t timeout_ns, struct ios_err *e)
{
	struct ios_host *h;
	uint64_t start, deadline;
	int ret;

	h = app->h;
	start = app->done_count;
	if (!app->in_flight || !min_done)
		return 0;
	app->done_target = start + min_done;
	app->waiting = true;
	app->wait_gen++;
	deadline = timeout_ns ? h->loop.now + timeout_ns : IOS_NO_WAKEUP;
	if (h->ops == &ios_host_sim_ops) {
		/* simulated time: stop at the deadline without leaving an event behind */
		ret = ios_sim_run(&h->loop, deadline);
	} else {
		if (timeout_ns && ios_sim_at(&h->loop, deadline, app_timeout, app, app->wait_gen)) {
			app->waiting = false;
			return IOS_ERR(e, -ENOMEM, "out of memory");
		}
		ret = h->ops->run(h);
	}
	h->loop.stop = false;
	app->waiting = false;
	if (ret)
		return IOS_ERR(e, ret, "the host's loop failed");
	return (long)(app->done_count - start);
}

static uint64_t app_close_now(struct ios_app *app);

long ios_app_wait(struct ios_app *app, unsigned min_done, uint64_t timeout_ns, struct ios_err *e)
{
	long n = app_enter(app, "ios_app_wait", e);

	if (n)
		return n;
	if (app->waiting) {
		app_leave(app);
		return IOS_ERR(e, -EBUSY, "ios_app_wait called from a callback");
	}
	n = app_wait(app, min_done, timeout_ns, e);
	if (app->close_pending) {
		/* a callback closed the app: drain, free, and count the drain's callbacks */
		uint64_t more = app_close_now(app);

		return n < 0 ? n : n + (long)more;
	}
	app_leave(app);
	return n;
}

uint64_t ios_app_now(const struct ios_app *capp)
{
	struct ios_app *app = (struct ios_app *)capp;	/* only its call count changes */
	uint64_t now;

	if (app_enter(app, "ios_app_now", NULL))
		return 0;
	now = app->h->ops->now(app->h);
	app_leave(app);
	return now;
}

unsigned ios_app_in_flight(const struct ios_app *capp)
{
	struct ios_app *app = (struct ios_app *)capp;
	unsigned n;

	if (app_enter(app, "ios_app_in_flight", NULL))
		return 0;
	n = app->in_flight;
	app_leave(app);
	return n;
}

/* ---- tunables ---- */

static const struct ios_tunable *app_tunable(struct ios_app *app, const char *name, void **base,
					     const char **scope, struct ios_err *e)
{
	const struct ios_tunable *t;

	if (!name)
		return IOS_ERR(e, -EINVAL, "no tunable name"), NULL;
	if (!strncmp(name, "queue.", 6)) {
		*base = &app->q->tun;
		*scope = "queue.";
		t = ios_tunable_find(ios_queue_tunables_table, name + 6);
	} else if (!strchr(name, '.')) {
		*base = app->q->sched_data;
		*scope = "";
		t = ios_tunable_find(app->q->sched->tunables, name);
	} else {
		IOS_ERR(e, -ENOENT, "tunable '%s': at run time only scheduler tunables (bare) "
			"and queue.NAME can change", name);
		return NULL;
	}
	if (!t || (t->flags & IOS_TUN_HIDDEN))
		IOS_ERR(e, -ENOENT, "unknown tunable '%s' for %s", name, app->q->sched->name);
	return t && !(t->flags & IOS_TUN_HIDDEN) ? t : NULL;
}

/*
 * Queue tunables the block layer sized something by at creation: the
 * request hash and the request lists are fine at any value, but a read-only
 * row (device-given) is refused by the parser itself.
 */
static int app_set(struct ios_app *app, const char *name, const char *value, struct ios_err *e)
{
	const struct ios_tunable *t;
	const char *scope;
	void *base;
	int ret;

	t = app_tunable(app, name, &base, &scope, e);
	if (!t)
		return e && e->code ? e->code : -ENOENT;
	if (!value)
		return IOS_ERR(e, -EINVAL, "%s: no value", name);
	ret = ios_tunable_set(t, base, value, "ios_app_set", scope, e);
	if (ret)
		return ret;
	/* the scheduler sees the change at its next call, as after a sysfs write */
	ios_queue_run(app->q, app->h->loop.now);
	return 0;
}

int ios_app_set(struct ios_app *app, const char *name, const char *value, struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_set", e);

	if (ret)
		return ret;
	ret = app_set(app, name, value, e);
	app_leave(app);
	return ret;
}

/* The value into @buf; too small a buffer is -ENOSPC, never a cut value. */
static int app_get(struct ios_app *app, const char *name, char *buf, size_t len,
		   struct ios_err *e)
{
	const struct ios_tunable *t;
	const char *scope;
	char val[256];
	size_t need;
	void *base;

	if (!buf && len)
		return IOS_ERR(e, -EINVAL, "ios_app_get: no buffer for %zu bytes", len);
	t = app_tunable(app, name, &base, &scope, e);
	if (!t)
		return e && e->code ? e->code : -ENOENT;
	ios_tunable_show(t, base, val, sizeof(val));
	need = strlen(val) + 1;
	if (!buf)
		return (int)need;	/* NULL, 0: the size to allocate, as snprintf */
	if (need > len) {
		buf[0] = 0;
		return IOS_ERR(e, -ENOSPC, "ios_app_get: %s is \"%s\", which needs %zu bytes "
			       "with its NUL; the buffer has %zu", name, val, need, len);
	}
	memcpy(buf, val, need);
	return 0;
}

int ios_app_get(struct ios_app *app, const char *name, char *buf, size_t len, struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_get", e);

	if (ret)
		return ret;
	ret = app_get(app, name, buf, len, e);
	app_leave(app);
	return ret;
}

static int app_tenant_stats(struct ios_app *app, int tenant, struct ios_app_tenant_stats *st,
			    struct ios_err *e)
{
	struct app_tenant *t = app_tenant(app, tenant, e);
	struct ios_group_stats gs;

	if (!t)
		return -EINVAL;
	if (!st)
		return IOS_ERR(e, -EINVAL, "ios_app_tenant_stats: no stats struct");
	*st = t->st;
	memset(&gs, 0, sizeof(gs));
	if (app->q->sched->ops.group_stats &&
	    !app->q->sched->ops.group_stats(app->q, t->ioc.cgroup, &gs))
		st->disk_time_ns = gs.time_ns;
	return 0;
}

int ios_app_tenant_stats(struct ios_app *app, int tenant, struct ios_app_tenant_stats *st,
			 struct ios_err *e)
{
	int ret = app_enter(app, "ios_app_tenant_stats", e);

	if (ret)
		return ret;
	ret = app_tenant_stats(app, tenant, st, e);
	app_leave(app);
	return ret;
}

/*
 * Drain, then free: the caller is inside app_enter (depth 1) and never
 * leaves, as the app is gone. Callbacks run by the drain find the app
 * closing (-EBADF). Returns the callbacks the drain ran.
 */
static uint64_t app_close_now(struct ios_app *app)
{
	uint64_t start = app->done_count;

	app->close_pending = false;
	/* drain: nothing may be left for the queue to check on destroy */
	while (app->q && app->in_flight)
		if (app_wait(app, app->in_flight, 0, NULL) <= 0)
			break;
	start = app->done_count - start;
	if (app->q) {
		for (unsigned i = 0; i < app->nr_tenants; i++)
			ios_queue_ioc_exit(app->q, &app->tenants[i]->ioc, app->h->loop.now);
		if (app->in_flight) {
			/* the loop could not finish them: keep the queue rather than abort */
			app->q = NULL;
		}
	}
	app_unregister(app);
	app_free(app);
	return start;
}

int ios_app_close(struct ios_app *app)
{
	int ret;

	if (!app)
		return 0;
	ret = app_enter(app, "ios_app_close", NULL);
	if (ret)
		return ret;
	pthread_mutex_lock(&app_lock);
	app->state = APP_CLOSING;
	pthread_mutex_unlock(&app_lock);
	if (app->depth > 1) {
		/* from a callback: the wait running it frees the app once the loop is left */
		app->close_pending = true;
		app_leave(app);
		return 0;
	}
	app_close_now(app);
	return 0;
}
