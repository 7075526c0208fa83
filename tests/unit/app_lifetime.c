/*
 * The app's lifetime rules (docs/library.md, libiosched(3)): a close from
 * a callback is deferred to the end of the wait that ran it, a second
 * close and any call after close are -EBADF, a second thread calling in
 * while the first is inside a call gets -EBUSY, submitting from a callback
 * works, and ios_app_get never cuts a value. Before, each misuse was a
 * use-after-free or corrupted the queue. Run under ASan too (check-asan).
 */
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include "harness.h"
#include "iosched/app.h"

static struct ios_app *open_app(int *f, int *t)
{
	struct ios_app_config cfg = { .scheduler = "cfq", .seed = 1 };
	struct ios_app_tenant ten = { .name = "a" };
	struct ios_app *app = ios_app_open(&cfg, NULL);

	if (!app)
		return NULL;
	*f = ios_app_add_file(app, "f", 64 << 20, 0, NULL);
	*t = ios_app_tenant_add(app, &ten, NULL);
	if (*f < 0 || *t < 0) {
		ios_app_close(app);
		return NULL;
	}
	return app;
}

struct closer {
	struct ios_app *app;
	int f, t;
	unsigned calls, close_at;
	int close_ret, after[4];	/* close, then submit, wait, close again, from the callback */
	int late_submit;		/* a submit from a callback run by the deferred close's drain */
};

static void close_done(void *arg, int error, uint64_t lat)
{
	struct closer *c = arg;

	(void)error;
	(void)lat;
	if (++c->calls == c->close_at) {
		c->close_ret = ios_app_close(c->app);
		c->after[0] = ios_app_submit(c->app, c->t, c->f, IOS_APP_READ, 0, 4096, NULL, 0,
					     NULL, NULL, NULL);
		c->after[1] = (int)ios_app_wait(c->app, 1, 0, NULL);
		c->after[2] = ios_app_close(c->app);
		c->after[3] = (int)ios_app_in_flight(c->app);
	} else if (c->calls > c->close_at) {
		c->late_submit = ios_app_submit(c->app, c->t, c->f, IOS_APP_READ, 0, 4096, NULL, 0,
						NULL, NULL, NULL);
	}
}

static int test_close_from_callback(void)
{
	struct closer c = { .close_at = 3 };
	struct ios_err e = { 0 };
	long n;

	c.app = open_app(&c.f, &c.t);
	T_ASSERT(c.app);
	for (int i = 0; i < 8; i++)
		T_ASSERT(!ios_app_submit(c.app, c.t, c.f, IOS_APP_READ, (uint64_t)i << 20, 4096, NULL,
					 0, close_done, &c, NULL));
	/* the close comes at the 3rd callback; the other 5 run in its drain */
	n = ios_app_wait(c.app, 8, 0, NULL);
	T_ASSERT_MSG(n == 8 && c.calls == 8, "wait returned %ld, %u callbacks ran", n, c.calls);
	T_ASSERT_EQ(c.close_ret, 0);
	T_ASSERT_EQ(c.after[0], -EBADF);
	T_ASSERT_EQ(c.after[1], -EBADF);
	T_ASSERT_EQ(c.after[2], -EBADF);
	T_ASSERT_EQ(c.after[3], 0);
	T_ASSERT_EQ(c.late_submit, -EBADF);
	/* the handle is gone: every call says so without reading freed memory */
	T_ASSERT_EQ(ios_app_close(c.app), -EBADF);
	T_ASSERT_EQ(ios_app_submit(c.app, c.t, c.f, IOS_APP_READ, 0, 4096, NULL, 0, NULL, NULL, &e),
		    -EBADF);
	T_ASSERT(strstr(e.msg, "not an open app"));
	return T_PASS;
}

static int test_use_after_close(void)
{
	char buf[16];
	struct ios_app *app;
	int f, t;

	app = open_app(&f, &t);
	T_ASSERT(app);
	T_ASSERT(!ios_app_submit(app, t, f, IOS_APP_READ, 0, 4096, NULL, 0, NULL, NULL, NULL));
	T_ASSERT_EQ(ios_app_close(app), 0);
	T_ASSERT_EQ(ios_app_close(app), -EBADF);
	T_ASSERT_EQ(ios_app_submit(app, t, f, IOS_APP_READ, 0, 4096, NULL, 0, NULL, NULL, NULL),
		    -EBADF);
	T_ASSERT_EQ(ios_app_wait(app, 1, 0, NULL), -EBADF);
	T_ASSERT_EQ(ios_app_add_file(app, "g", 1 << 20, 0, NULL), -EBADF);
	T_ASSERT_EQ(ios_app_tenant_set_prio(app, t, 3, 0, NULL), -EBADF);
	T_ASSERT_EQ(ios_app_set(app, "slice_idle", "0", NULL), -EBADF);
	T_ASSERT_EQ(ios_app_get(app, "slice_idle", buf, sizeof(buf), NULL), -EBADF);
	T_ASSERT(!ios_app_warning(app, 0) && !ios_app_now(app) && !ios_app_in_flight(app));
	T_ASSERT_EQ(ios_app_close(NULL), 0);
	return T_PASS;
}

/* submit from a callback while others are in flight: a closed loop of depth 4 */
struct chain {
	struct ios_app *app;
	int f, t;
	unsigned calls, limit;
	int ret;
};

static void chain_done(void *arg, int error, uint64_t lat)
{
	struct chain *c = arg;

	(void)error;
	(void)lat;
	if (++c->calls + 4 <= c->limit && !c->ret)
		c->ret = ios_app_submit(c->app, c->t, c->f, IOS_APP_READ,
					(uint64_t)(c->calls % 64) << 20, 4096, NULL, 0, chain_done, c,
					NULL);
}

static int test_submit_from_callback(void)
{
	struct chain c = { .limit = 200 };
	struct ios_app_tenant_stats st;

	c.app = open_app(&c.f, &c.t);
	T_ASSERT(c.app);
	for (int i = 0; i < 4; i++)
		T_ASSERT(!ios_app_submit(c.app, c.t, c.f, IOS_APP_READ, (uint64_t)i << 20, 4096, NULL,
					 0, chain_done, &c, NULL));
	T_ASSERT_EQ(ios_app_wait(c.app, c.limit, 0, NULL), (long)c.limit);
	T_ASSERT_MSG(c.ret == 0, "submit from a callback returned %d", c.ret);
	T_ASSERT(!ios_app_tenant_stats(c.app, c.t, &st, NULL) && st.ios == c.limit);
	T_ASSERT_EQ(ios_app_in_flight(c.app), 0);
	T_ASSERT_EQ(ios_app_close(c.app), 0);
	return T_PASS;
}

/*
 * Two threads: the owner's callback holds the app (it waits for the other
 * thread) while the other thread calls in; every call must be -EBUSY.
 */
struct two {
	struct ios_app *app;
	int f, t;
	sem_t go, done;
	int ret[6];
};

static void *intruder(void *arg)
{
	struct two *w = arg;
	char buf[16];

	sem_wait(&w->go);
	w->ret[0] = ios_app_submit(w->app, w->t, w->f, IOS_APP_READ, 0, 4096, NULL, 0, NULL, NULL,
				   NULL);
	w->ret[1] = (int)ios_app_wait(w->app, 1, 0, NULL);
	w->ret[2] = ios_app_tenant_set_prio(w->app, w->t, 3, 0, NULL);
	w->ret[3] = ios_app_get(w->app, "slice_idle", buf, sizeof(buf), NULL);
	w->ret[4] = ios_app_close(w->app);
	w->ret[5] = (int)ios_app_in_flight(w->app);
	sem_post(&w->done);
	return NULL;
}

static void hold_done(void *arg, int error, uint64_t lat)
{
	struct two *w = arg;

	(void)error;
	(void)lat;
	sem_post(&w->go);
	sem_wait(&w->done);
}

static int test_two_threads(void)
{
	struct two w;
	pthread_t th;

	memset(&w, 0, sizeof(w));
	w.app = open_app(&w.f, &w.t);
	T_ASSERT(w.app);
	T_ASSERT(!sem_init(&w.go, 0, 0) && !sem_init(&w.done, 0, 0));
	T_ASSERT(!pthread_create(&th, NULL, intruder, &w));
	T_ASSERT(!ios_app_submit(w.app, w.t, w.f, IOS_APP_READ, 0, 4096, NULL, 0, hold_done, &w,
				 NULL));
	T_ASSERT_EQ(ios_app_wait(w.app, 1, 0, NULL), 1);
	pthread_join(th, NULL);
	for (int i = 0; i < 5; i++)
		T_ASSERT_MSG(w.ret[i] == -EBUSY, "call %d from the second thread returned %d", i,
			     w.ret[i]);
	T_ASSERT_EQ(w.ret[5], 0);
	/* the app is intact: the owner goes on */
	T_ASSERT(!ios_app_submit(w.app, w.t, w.f, IOS_APP_READ, 4096, 4096, NULL, 0, NULL, NULL,
				 NULL));
	T_ASSERT_EQ(ios_app_wait(w.app, 1, 0, NULL), 1);
	T_ASSERT_EQ(ios_app_close(w.app), 0);
	sem_destroy(&w.go);
	sem_destroy(&w.done);
	return T_PASS;
}

/* two threads hammering one app: each call runs alone or is -EBUSY, nothing breaks */
struct hammer {
	struct ios_app *app;
	int f, t;
	unsigned ok, busy, bad;
	unsigned long calls;
};

static void *hammer_run(void *arg)
{
	struct hammer *h = arg;

	for (int i = 0; i < 2000; i++) {
		int r = ios_app_submit(h->app, h->t, h->f, IOS_APP_READ, (uint64_t)(i % 64) << 20,
				       4096, NULL, 0, NULL, NULL, NULL);
		long n = ios_app_wait(h->app, 1, 0, NULL);

		h->ok += r == 0;
		h->busy += r == -EBUSY;
		h->bad += r && r != -EBUSY;
		h->bad += n < 0 && n != -EBUSY;
	}
	return NULL;
}

static int test_threads_hammer(void)
{
	struct hammer h[2];
	struct ios_app_tenant_stats st;
	pthread_t th[2];
	int f, t;
	struct ios_app *app = open_app(&f, &t);

	T_ASSERT(app);
	for (int k = 0; k < 2; k++) {
		memset(&h[k], 0, sizeof(h[k]));
		h[k].app = app;
		h[k].f = f;
		h[k].t = t;
		T_ASSERT(!pthread_create(&th[k], NULL, hammer_run, &h[k]));
	}
	for (int k = 0; k < 2; k++)
		pthread_join(th[k], NULL);
	T_ASSERT(!h[0].bad && !h[1].bad);
	T_ASSERT(!ios_app_wait(app, ~0u, 0, NULL) || !ios_app_in_flight(app));
	T_ASSERT(!ios_app_tenant_stats(app, t, &st, NULL));
	fprintf(stderr, "hammer: %u + %u submitted, %u + %u busy, %" PRIu64 " completed\n",
		h[0].ok, h[1].ok, h[0].busy, h[1].busy, st.ios);
	T_ASSERT_EQ(st.ios, (uint64_t)(h[0].ok + h[1].ok));
	T_ASSERT_EQ(ios_app_close(app), 0);
	return T_PASS;
}

static int test_get_small_buffer(void)
{
	struct ios_err e = { 0 };
	char one[1] = { 'x' }, buf[64];
	int f, t, need;
	struct ios_app *app = open_app(&f, &t);

	T_ASSERT(app);
	T_ASSERT(!ios_app_get(app, "slice_idle", buf, sizeof(buf), NULL));
	need = ios_app_get(app, "slice_idle", NULL, 0, NULL);
	T_ASSERT_MSG(need == (int)strlen(buf) + 1, "size query %d for \"%s\"", need, buf);
	T_ASSERT_EQ(ios_app_get(app, "slice_idle", one, sizeof(one), &e), -ENOSPC);
	T_ASSERT(one[0] == 0 && strstr(e.msg, "bytes"));
	T_ASSERT_EQ(ios_app_get(app, "slice_idle", buf, (size_t)need - 1, NULL), -ENOSPC);
	T_ASSERT_EQ(ios_app_get(app, "slice_idle", buf, (size_t)need, NULL), 0);
	T_ASSERT_EQ(ios_app_get(app, "slice_idle", NULL, 8, NULL), -EINVAL);
	T_ASSERT_EQ(ios_app_close(app), 0);
	return T_PASS;
}

int main(void)
{
	return T_RUN(test_close_from_callback, test_use_after_close, test_submit_from_callback,
		     test_two_threads, test_threads_hammer, test_get_small_buffer);
}
