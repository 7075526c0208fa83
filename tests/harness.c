/*
 * Test harness implementation; see tests/harness.h.
 */
#include <ftw.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"

static const char *t_cur_test = "?";

void t_report(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "  FAIL %s (%s:%d): ", t_cur_test, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int t_run_cases(const char *prog, const struct t_case *cases, size_t n)
{
	int failed = 0, skipped = 0;

	for (size_t i = 0; i < n; i++) {
		int ret;

		t_cur_test = cases[i].name;
		ret = cases[i].fn();
		if (ret == T_SKIP) {
			printf("  skip %s\n", cases[i].name);
			skipped++;
		} else if (ret != T_PASS) {
			printf("  FAIL %s\n", cases[i].name);
			failed++;
		} else {
			printf("  ok   %s\n", cases[i].name);
		}
	}
	(void)prog;
	if (failed)
		return T_FAIL;
	if (skipped == (int)n)
		return T_SKIP;
	return T_PASS;
}

int t_run_fns(const char *prog, const t_test_fn *fns, size_t n, const char *names)
{
	struct t_case *cases = calloc(n, sizeof(*cases));
	char *copy = strdup(names), *save = NULL, *tok;
	size_t i = 0;
	int ret;

	if (!cases || !copy) {
		free(cases);
		free(copy);
		return T_FAIL;
	}
	for (tok = strtok_r(copy, ", \t\n", &save); tok && i < n;
	     tok = strtok_r(NULL, ", \t\n", &save), i++) {
		cases[i].name = tok;
		cases[i].fn = fns[i];
	}
	for (; i < n; i++) {
		cases[i].name = "?";
		cases[i].fn = fns[i];
	}
	ret = t_run_cases(prog, cases, n);
	free(cases);
	free(copy);
	return ret;
}

struct ios_cgroup t_root_cgroup = { .path = (char *)"", .id = 0, .weight = 0, .ioprio = -1,
				     .parent = NULL };

#define T_MAX_IOCS 1024
static struct ios_ioc t_iocs[T_MAX_IOCS];
static size_t t_nr_iocs;

struct ios_ioc *t_ioc(uint32_t pid)
{
	struct ios_ioc *ioc;

	for (size_t i = 0; i < t_nr_iocs; i++)
		if (t_iocs[i].pid == pid)
			return &t_iocs[i];
	if (t_nr_iocs == T_MAX_IOCS)
		abort();
	ioc = &t_iocs[t_nr_iocs++];
	memset(ioc, 0, sizeof(*ioc));
	ioc->pid = pid;
	snprintf(ioc->comm, sizeof(ioc->comm), "task%u", pid);
	ioc->ioprio_class = IOS_IOPRIO_CLASS_BE;
	ioc->ioprio_level = IOS_IOPRIO_NORM;
	ioc->cgroup = &t_root_cgroup;
	ioc->nr_tasks = 1;
	return ioc;
}

/* ---- rig ---- */

static void rig_issue(void *host, struct ios_queue *q, struct ios_request *rq, uint64_t now)
{
	struct t_rig *r = host;

	(void)q;
	(void)now;
	if (r->nr_issued == T_RIG_MAX) {
		fprintf(stderr, "t_rig: too many issued requests\n");
		abort();
	}
	r->issued[r->nr_issued++] = rq;
}

static void rig_set_timer(void *host, struct ios_queue *q, uint64_t when)
{
	struct t_rig *r = host;

	(void)q;
	r->timer_at = when;
	r->nr_timer_sets++;
}

static const struct ios_queue_host_ops rig_host_ops = {
	.issue = rig_issue,
	.set_timer = rig_set_timer,
};

struct t_rig *t_rig_new(const char *sched, unsigned depth, int rotational, ...)
{
	struct ios_queue_config cfg;
	struct ios_err e = { 0 };
	struct t_rig *r = calloc(1, sizeof(*r));
	const char *kv;
	va_list ap;

	if (!r)
		return NULL;
	r->timer_at = IOS_NO_WAKEUP;
	va_start(ap, rotational);
	while ((kv = va_arg(ap, const char *)) != NULL) {
		if (ios_settings_add_kv(&r->settings, kv, "test", &e)) {
			va_end(ap);
			fprintf(stderr, "t_rig_new: %s\n", e.msg);
			goto fail;
		}
	}
	va_end(ap);
	memset(&cfg, 0, sizeof(cfg));
	cfg.id = 0;
	cfg.disk_name = "sda";
	cfg.sched = ios_sched_find(sched);
	if (!cfg.sched) {
		fprintf(stderr, "t_rig_new: no scheduler '%s'\n", sched);
		goto fail;
	}
	cfg.settings = &r->settings;
	cfg.depth = depth;
	cfg.rotational = rotational != 0;
	cfg.capacity_sectors = 1ULL << 40;
	cfg.host_ops = &rig_host_ops;
	cfg.host = r;
	r->q = ios_queue_create(&cfg, &e);
	if (!r->q) {
		fprintf(stderr, "t_rig_new: %s\n", e.msg);
		goto fail;
	}
	for (size_t i = 0; i < r->settings.n; i++) {
		if (!r->settings.v[i].used) {
			fprintf(stderr, "t_rig_new: setting '%s' not used\n", r->settings.v[i].name);
			t_rig_free(r);
			return NULL;
		}
	}
	return r;
fail:
	ios_settings_free(&r->settings);
	free(r);
	return NULL;
}

static void rig_bio_end(struct ios_bio *bio, uint64_t now, int error)
{
	struct t_rig *r = bio->priv;

	(void)now;
	(void)error;
	if (r->nr_done < T_RIG_MAX)
		r->done[r->nr_done++] = bio;
}

struct rig_bio {
	struct ios_bio bio;
	struct rig_bio *next_alloc;
};
static struct rig_bio *rig_bios;

void t_rig_free(struct t_rig *r)
{
	if (!r)
		return;
	if (r->q) {
		/* complete whatever the fake device still holds */
		while (t_in_device(r))
			t_complete_next(r, UINT64_MAX / 2);
		ios_queue_destroy(r->q);
	}
	ios_settings_free(&r->settings);
	free(r);
	while (rig_bios) {
		struct rig_bio *b = rig_bios;

		rig_bios = b->next_alloc;
		free(b);
	}
}

struct ios_bio *t_submit(struct t_rig *r, struct ios_ioc *ioc, uint64_t sector,
			 uint32_t nr_sectors, int dir, uint32_t flags, uint64_t now, int *ret)
{
	struct rig_bio *b = calloc(1, sizeof(*b));
	int rv;

	if (!b)
		abort();
	b->next_alloc = rig_bios;
	rig_bios = b;
	b->bio.sector = sector;
	b->bio.nr_sectors = nr_sectors;
	b->bio.dir = (uint8_t)dir;
	b->bio.flags = flags;
	b->bio.ioc = ioc;
	b->bio.submit_ns = now;
	b->bio.end_io = rig_bio_end;
	b->bio.priv = r;
	rv = ios_queue_submit_bio(r->q, &b->bio, now);
	if (ret)
		*ret = rv;
	return &b->bio;
}

void t_complete(struct t_rig *r, size_t i, uint64_t now)
{
	struct ios_request *rq = r->issued[i];

	if (!rq) {
		fprintf(stderr, "t_complete: request %zu already completed\n", i);
		abort();
	}
	r->issued[i] = NULL;
	ios_queue_complete(r->q, rq, now, 0);
}

struct ios_request *t_complete_next(struct t_rig *r, uint64_t now)
{
	for (size_t i = 0; i < r->nr_issued; i++) {
		if (r->issued[i]) {
			struct ios_request *rq = r->issued[i];

			t_complete(r, i, now);
			return rq;
		}
	}
	return NULL;
}

void t_fire_timer(struct t_rig *r, uint64_t now)
{
	r->timer_at = IOS_NO_WAKEUP;
	ios_queue_timer(r->q, now);
}

unsigned t_in_device(const struct t_rig *r)
{
	unsigned n = 0;

	for (size_t i = 0; i < r->nr_issued; i++)
		n += r->issued[i] != NULL;
	return n;
}

/* All of @f into a malloc'd NUL-terminated string (NULL: out of memory or a read error). */
static char *t_slurp(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	do {
		if (n + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *t_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;

	if (!f)
		return NULL;
	buf = t_slurp(f, len);
	fclose(f);
	return buf;
}

const char *t_iosched_bin(void)
{
	const char *b = getenv("IOSCHED_BIN");

	return b && *b ? b : "./iosched";
}

char *t_run_cmd(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *buf;
	int st;

	if (!p)
		return NULL;
	buf = t_slurp(p, NULL);
	st = pclose(p);
	if (status)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	return buf;
}

char *t_run_iosched(const char *args, int *status)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", t_iosched_bin(), args);
	return t_run_cmd(cmd, status);
}

/* ---- direct scheduler queue ---- */

struct t_sq *t_sq_new(const char *sched, unsigned depth, int rotational, ...)
{
	struct t_sq *s = calloc(1, sizeof(*s));
	struct ios_err e = { 0 };
	const char *kv;
	va_list ap;
	int ret;

	if (!s)
		return NULL;
	s->type = ios_sched_find(sched);
	if (!s->type) {
		fprintf(stderr, "t_sq_new: no scheduler '%s'\n", sched);
		free(s);
		return NULL;
	}
	s->q.sched = s->type;
	s->q.depth = depth;
	s->q.rotational = rotational != 0;
	s->q.tun.rotational = rotational != 0;
	s->q.timer_at = IOS_NO_WAKEUP;
	s->ioc = t_ioc(1);
	ios_list_init(&s->q.dispatch);
	ios_list_init(&s->q.free_rqs);
	if (s->type->priv_size) {
		s->q.sched_data = calloc(1, s->type->priv_size);
		if (!s->q.sched_data)
			abort();
	}
	if (s->type->tunables && ios_tunable_defaults(s->type->tunables, s->q.sched_data, &e))
		goto fail;
	va_start(ap, rotational);
	while ((kv = va_arg(ap, const char *)) != NULL) {
		const char *eq = strchr(kv, '=');
		char name[128];

		if (!eq || (size_t)(eq - kv) >= sizeof(name)) {
			va_end(ap);
			IOS_ERR(&e, -EINVAL, "'%s': expected NAME=VALUE", kv);
			goto fail;
		}
		memcpy(name, kv, (size_t)(eq - kv));
		name[eq - kv] = '\0';
		if (ios_tunable_set_by_name(s->type->tunables, s->q.sched_data, name, eq + 1,
					    "test", "", &e)) {
			va_end(ap);
			goto fail;
		}
	}
	va_end(ap);
	if (ios_sched_layer(s->type) == IOS_SCHED_LAYER_MQ) {
		/*
		 * One hardware queue on one CPU, and the scheduler tag depth
		 * blk_mq_init_sched gives an elevator: 2 * min(depth, 128).
		 */
		s->q.nr_hw_queues = 1;
		s->q.nr_cpus = 1;
		s->q.nr_requests = 2 * (depth < 128 ? depth : 128);
	}
	ret = s->type->ops.init(&s->q);
	if (ret) {
		IOS_ERR(&e, ret, "scheduler '%s' failed to initialise", sched);
		goto fail;
	}
	if (ios_sched_mq_ops(s->type)) {
		const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(s->type);

		if (mo->init_hctx && (ret = mo->init_hctx(&s->q, 0)) != 0) {
			IOS_ERR(&e, ret, "scheduler '%s' failed to set up hctx 0", sched);
			goto fail;
		}
		if (mo->depth_updated)
			mo->depth_updated(&s->q);
	}
	return s;
fail:
	fprintf(stderr, "t_sq_new: %s\n", e.msg);
	free(s->q.sched_data);
	free(s);
	return NULL;
}

struct ios_request *t_sq_rq(struct t_sq *s, uint64_t sector, uint32_t nr_sectors, int dir,
			    uint32_t flags)
{
	struct ios_request *rq = calloc(1, sizeof(*rq));

	if (!rq)
		abort();
	if (s->nr_rqs == s->cap_rqs) {
		size_t cap = s->cap_rqs ? 2 * s->cap_rqs : 64;
		struct ios_request **v = realloc(s->rqs, cap * sizeof(*v));

		if (!v)
			abort();
		s->rqs = v;
		s->cap_rqs = cap;
	}
	s->rqs[s->nr_rqs] = rq;
	rq->id = s->nr_rqs++;
	rq->sector = sector;
	rq->nr_sectors = nr_sectors;
	rq->dir = (uint8_t)dir;
	rq->flags = flags;
	rq->ioc = s->ioc;
	rq->q = &s->q;
	rq->elv_sorted = 1;
	rq->tag = rq->sched_tag = -1;
	ios_list_init(&rq->queuelist);
	ios_list_init(&rq->hash_node);
	ios_list_init(&rq->dev_node);
	ios_rb_clear(&rq->rb_node);
	if (s->type->ops.set_request && s->type->ops.set_request(&s->q, rq))
		abort();
	if (ios_sched_mq_ops(s->type) && ios_sched_mq_ops(s->type)->prepare_request)
		ios_sched_mq_ops(s->type)->prepare_request(&s->q, rq);
	return rq;
}

struct ios_request *t_sq_insert(struct t_sq *s, uint64_t sector, uint32_t nr_sectors, int dir,
				uint64_t now)
{
	struct ios_request *rq = t_sq_rq(s, sector, nr_sectors, dir, 0);

	rq->alloc_ns = rq->insert_ns = now;
	s->q.nr_sorted++;
	s->type->ops.insert(&s->q, rq, now, 0);
	return rq;
}

static struct ios_request *t_sq_dispatch_flags(struct t_sq *s, uint64_t now, unsigned flags)
{
	const struct ios_sched_mq_ops *mo = ios_sched_mq_ops(s->type);
	struct ios_request *rq;

	/* IOS_DISPATCH_FORCE is the single-queue layer's; blk-mq has no forced drain */
	if (ios_sched_layer(s->type) == IOS_SCHED_LAYER_MQ)
		flags &= ~IOS_DISPATCH_FORCE;
	if (mo && mo->dispatch_hctx)
		rq = mo->dispatch_hctx(&s->q, 0, now);
	else
		rq = s->type->ops.dispatch(&s->q, now, flags);

	if (!rq)
		return NULL;
	s->q.nr_sorted--;
	s->q.rq_in_driver++;
	s->q.in_flight[ios_rq_is_sync(rq)]++;
	rq->dispatch_ns = now;
	return rq;
}

struct ios_request *t_sq_dispatch(struct t_sq *s, uint64_t now)
{
	return t_sq_dispatch_flags(s, now, 0);
}

void t_sq_complete(struct t_sq *s, struct ios_request *rq, uint64_t now)
{
	s->q.rq_in_driver--;
	s->q.in_flight[ios_rq_is_sync(rq)]--;
	rq->complete_ns = now;
	s->type->ops.completed(&s->q, rq, now);
	/* blk-mq frees a request right after its completion (finish_request) */
	if (ios_sched_mq_ops(s->type) && ios_sched_mq_ops(s->type)->finish_request)
		ios_sched_mq_ops(s->type)->finish_request(&s->q, rq, now);
}

void t_sq_free(struct t_sq *s)
{
	struct ios_request *rq;
	uint64_t now = UINT64_MAX / 2;

	if (!s)
		return;
	while (s->type->ops.has_work(&s->q) &&
	       (rq = t_sq_dispatch_flags(s, now, IOS_DISPATCH_FORCE)) != NULL)
		t_sq_complete(s, rq, now);
	/*
	 * Requests go back before the scheduler exits: put_request drops
	 * references to per-process state (CFQ's queues) that exit frees.
	 */
	for (size_t i = 0; i < s->nr_rqs; i++)
		if (s->type->ops.put_request)
			s->type->ops.put_request(&s->q, s->rqs[i]);
	s->type->ops.exit(&s->q);
	for (size_t i = 0; i < s->nr_rqs; i++)
		free(s->rqs[i]);
	free(s->rqs);
	free(s->q.sched_data);
	free(s);
}

int t_run_job(const char *name, const char *text, const struct ios_run_config *cfg,
	      struct ios_jobfile *jf, struct ios_run_result *res)
{
	struct ios_job_parse_opts po;
	struct ios_run_config dflt = { .seed = 1 };
	struct ios_err e = { 0 };

	memset(jf, 0, sizeof(*jf));
	ios_job_parse_opts_init(&po);
	if (ios_job_parse_buf(name, text, strlen(text), &po, jf, &e)) {
		fprintf(stderr, "%s: %s\n", name, e.msg);
		ios_jobfile_free(jf);
		return -1;
	}
	if (ios_run(jf, cfg ? cfg : &dflt, res, &e)) {
		fprintf(stderr, "%s: run: %s\n", name, e.msg);
		ios_jobfile_free(jf);
		return -1;
	}
	return 0;
}

void t_job_done(struct ios_jobfile *jf, struct ios_run_result *res)
{
	ios_run_result_free(res);
	ios_jobfile_free(jf);
}

int t_tmpdir_enter(char *tmpl)
{
	if (!mkdtemp(tmpl) || chdir(tmpl)) {
		perror(tmpl);
		return -1;
	}
	return 0;
}

static int t_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int t_tmpdir_leave(const char *dir, int ret)
{
	if (chdir("/")) {
		perror("chdir /");
		return T_FAIL;
	}
	if (ret != T_PASS) {
		fprintf(stderr, "kept %s for a look\n", dir);
		return ret;
	}
	if (nftw(dir, t_rm_one, 16, FTW_DEPTH | FTW_PHYS)) {
		fprintf(stderr, "could not remove %s\n", dir);
		return T_FAIL;
	}
	return ret;
}
