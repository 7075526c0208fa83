/*
 * iosched compare: the same jobs, seed and settings under several
 * schedulers, one table.
 *
 * The job files are parsed once; every column (a scheduler with its own
 * tunables) is checked before anything runs (ios_cmp_columns_parse). Then
 * worker threads take columns in order, each doing whole runs: the
 * simulator keeps no global state, so runs in parallel share only the
 * parsed jobs, read-only. A finished run is reduced to its compare metrics
 * (struct ios_cmp_run) in the worker and its full result freed. The report
 * is written after the last run from the results in column order, so it is
 * the same bytes whatever the number of workers. The main thread only
 * waits and, on a terminal, draws the progress line.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "iosched/compare.h"
#include "iosched/plot.h"
#include "iosched/progress.h"

#define CMP_MAX_WORKERS 256

struct cmp_slot {
	struct ios_cmp_run run;		/* the result, once done */
	struct ios_series *series;	/* kept from the result for --plot */
	struct ios_err err;
	int ret;
	bool running, done;
	uint64_t sim_ns;		/* progress while running */
	double fraction;
};

struct cmp_pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	const struct ios_jobfile *jf;
	const struct ios_run_config *base;
	const struct ios_cmp_column *cols;
	struct cmp_slot *slots;
	size_t nr, next, finished;
	size_t fail_min;		/* lowest failed column; nr while none */
	bool progress;			/* collect progress (stderr is a terminal) */
};

struct cmp_cb {
	struct cmp_pool *pool;
	size_t idx;
};

static void cmp_progress_cb(void *arg, const struct ios_run_progress *pr)
{
	struct cmp_cb *cb = arg;
	struct cmp_pool *pool = cb->pool;

	pthread_mutex_lock(&pool->lock);
	pool->slots[cb->idx].sim_ns = pr->sim_ns;
	pool->slots[cb->idx].fraction = pr->fraction;
	pthread_mutex_unlock(&pool->lock);
}

static void cmp_run_one(struct cmp_pool *pool, size_t idx)
{
	const struct ios_cmp_column *col = &pool->cols[idx];
	struct cmp_slot *slot = &pool->slots[idx];
	struct ios_run_config cfg = *pool->base;
	struct ios_run_result res = { 0 };
	struct cmp_cb cb = { pool, idx };
	int ret;

	cfg.scheduler = col->sched->name;
	cfg.settings = &col->settings;
	if (pool->progress) {
		cfg.progress = cmp_progress_cb;
		cfg.progress_arg = &cb;
	}
	ret = ios_run(pool->jf, &cfg, &res, &slot->err);
	if (!ret) {
		ret = ios_cmp_run_from_result(&slot->run, col->label, &col->share, &res);
		if (ret)
			IOS_ERR(&slot->err, ret, "out of memory");
		/* the plot needs the series after the result is gone */
		slot->series = res.series;
		res.series = NULL;
		ios_run_result_free(&res);
	}
	pthread_mutex_lock(&pool->lock);
	slot->ret = ret;
	slot->running = false;
	slot->done = true;
	if (ret && idx < pool->fail_min)
		pool->fail_min = idx;
	pool->finished++;
	pthread_cond_broadcast(&pool->cond);
	pthread_mutex_unlock(&pool->lock);
}

static void *cmp_worker(void *arg)
{
	struct cmp_pool *pool = arg;

	for (;;) {
		size_t idx;

		pthread_mutex_lock(&pool->lock);
		/*
		 * Columns go out in order. After a failure the columns past it
		 * are skipped, but every column before it was already handed
		 * out and runs on: the error reported is always the first
		 * column's that fails, whatever the number of workers.
		 */
		while (pool->next < pool->nr && pool->next > pool->fail_min) {
			pool->slots[pool->next++].done = true;
			pool->finished++;
		}
		if (pool->next >= pool->nr) {
			pthread_cond_broadcast(&pool->cond);
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		idx = pool->next++;
		pool->slots[idx].running = true;
		pthread_mutex_unlock(&pool->lock);
		cmp_run_one(pool, idx);
	}
}

/* Wait for every column; on a terminal, draw the progress line meanwhile. */
static void cmp_wait(struct cmp_pool *pool, struct cli_progress *prog)
{
	struct ios_progress_item items[8];

	pthread_mutex_lock(&pool->lock);
	while (pool->finished < pool->nr) {
		struct timespec ts;
		double el;

		if (!prog->tty) {
			pthread_cond_wait(&pool->cond, &pool->lock);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pool->cond, &pool->lock, &ts);
		if (pool->finished < pool->nr && cli_progress_due(prog, &el)) {
			char line[512];
			size_t n = 0, done = 0;

			for (size_t i = 0; i < pool->nr; i++) {
				const struct cmp_slot *s = &pool->slots[i];

				if (s->done)
					done++;
				else if (s->running && n < IOS_ARRAY_SIZE(items))
					items[n++] = (struct ios_progress_item){
						pool->cols[i].label, s->sim_ns, s->fraction };
			}
			ios_progress_format(line, sizeof(line), cli_progress_width(), items, n,
					    (unsigned)done, (unsigned)pool->nr, el);
			pthread_mutex_unlock(&pool->lock);
			cli_progress_show(prog, line);
			pthread_mutex_lock(&pool->lock);
		}
	}
	pthread_mutex_unlock(&pool->lock);
	cli_progress_clear(prog);
}

static void cmp_usage(FILE *f)
{
	const struct ios_sched_type *st;

	fprintf(f,
"usage: iosched compare JOB.fio... [--schedulers LIST] [--jobs N] [--shares] [run options]\n"
"\n"
"Runs the jobs under each scheduler of LIST with the same seed, device and --set\n"
"settings, and prints one table: per-job bandwidth, finish time, max and p99\n"
"completion latency; aggregate throughput, Jain's fairness index over the per-job\n"
"bandwidths, min/max bandwidth, finish-time spread; and Jeff Moyer's\n"
"'class prio ideal xferred %%diff' table per scheduler when the jobs differ in class,\n"
"level or cgroup.\n"
"\n"
"  --schedulers LIST   comma-separated; SCHED:NAME=VALUE[:NAME=VALUE...] sets tunables\n"
"                      of that column only (cfq,cfq:fairness=1). A bare --set NAME\n"
"                      goes to the columns whose scheduler has NAME. Default: every\n"
"                      scheduler by its primary name:");
	for (size_t i = 0; (st = ios_sched_at(i)) != NULL; i++)
		fprintf(f, "%s%s", i ? "," : " ", st->name);
	fprintf(f, "\n"
"  --jobs N, -j N      runs at a time (default: online CPUs); the output does not\n"
"                      depend on it\n"
"  --shares            the share table even when every job has the same class,\n"
"                      level and cgroup\n"
"  --plot FILE.svg     also draw each column's bandwidth and cumulative data per\n"
"                      job over time, one row per column, on the same scales\n"
"  --scheduler is not allowed (use --schedulers); the other options of 'run' are:\n"
"  --device, --set, --seed, --output-format normal|json, --output, --fio-compat.\n");
}

/* --plot: one row per column, in column order, labelled as the user wrote the column. */
static int cmp_plot(const char *path, const struct cli_run_opts *o,
		    const struct ios_cmp_column *cols, const struct cmp_slot *slots, size_t nr)
{
	struct ios_plot_run *pr = calloc(nr, sizeof(*pr));
	char title[1024], sub[1024];
	struct ios_plot p = { title, sub, pr, nr };
	int ret;

	if (!pr) {
		fprintf(stderr, "iosched: out of memory\n");
		return -1;
	}
	for (size_t c = 0; c < nr; c++) {
		pr[c].label = cols[c].label;
		pr[c].series = slots[c].series;
	}
	cli_plot_title(o, title, sizeof(title));
	cli_plot_subtitle(o, NULL, slots[0].run.device, slots[0].run.seed, sub, sizeof(sub));
	ret = cli_write_plot(path, &p);
	free(pr);
	return ret;
}

static int cmp_parse_jobs(const char *v, long *out)
{
	uint64_t n;

	if (cli_parse_u64(v, &n) || n < 1 || n > CMP_MAX_WORKERS) {
		fprintf(stderr, "iosched: compare: --jobs=%s: allowed 1..%d\n", v, CMP_MAX_WORKERS);
		return -1;
	}
	*out = (long)n;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cli_run_opts o;
	struct ios_jobfile jf = { 0 };
	struct ios_cmp_column *cols = NULL;
	struct ios_cmp_run *runs = NULL;
	struct cmp_pool pool;
	struct cli_progress prog;
	struct ios_err e = { 0 };
	struct ios_buf out;
	pthread_t *th = NULL;
	const char *list = NULL, *plot = NULL;
	size_t nr_cols = 0, nr_th = 0;
	long workers = sysconf(_SC_NPROCESSORS_ONLN);
	bool shares = false;
	int rc = CLI_EXIT_FAIL, ret;

	memset(&pool, 0, sizeof(pool));
	if (cli_run_opts_init(&o, argc))
		return CLI_EXIT_FAIL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cmp_usage(stdout);
			rc = CLI_EXIT_OK;
			goto out;
		}
		if ((v = cli_optval(argc, argv, &i, "--schedulers"))) {
			list = v;
		} else if ((v = cli_optval(argc, argv, &i, "--jobs")) ||
			   (!strncmp(a, "-j", 2) && (v = a[2] ? a + 2 : cli_optval(argc, argv, &i, "-j")))) {
			if (cmp_parse_jobs(v, &workers)) {
				rc = CLI_EXIT_USAGE;
				goto out;
			}
		} else if (!strcmp(a, "--shares")) {
			shares = true;
		} else if ((v = cli_optval(argc, argv, &i, "--plot"))) {
			if (!*v) {
				fprintf(stderr, "iosched: --plot: needs a file name (--plot FILE.svg)\n");
				rc = CLI_EXIT_USAGE;
				goto out;
			}
			plot = v;
			o.cfg.record_series = true;
		} else if (cli_optval(argc, argv, &i, "--scheduler")) {
			fprintf(stderr, "iosched: compare: --scheduler: use --schedulers LIST\n");
			rc = CLI_EXIT_USAGE;
			goto out;
		} else {
			ret = cli_run_opts_parse(&o, argc, argv, &i);
			if (ret < 0) {
				rc = CLI_EXIT_USAGE;
				goto out;
			}
			if (!ret) {
				fprintf(stderr, "iosched: compare: unknown option '%s' "
					"(see iosched compare --help)\n", a);
				rc = CLI_EXIT_USAGE;
				goto out;
			}
		}
	}
	if (!o.nr_jobs) {
		fprintf(stderr, "iosched: compare: no job file given\n");
		cmp_usage(stderr);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	/* every column checked before any job file is run */
	if (ios_cmp_columns_parse(list, &o.settings, o.cfg.device, &cols, &nr_cols, &e)) {
		cli_error(&e);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	if (cli_run_opts_load(&o, &jf))
		goto out;
	for (size_t i = 0; i < jf.nr_jobs; i++) {
		const struct ios_job *j = &jf.jobs[i];
		const char *opt = j->write_bw_log ? "write_bw_log" : j->write_lat_log ? "write_lat_log"
				: j->write_iops_log ? "write_iops_log" : NULL;

		/* every column would write its logs over the same files, at once */
		if (opt) {
			fprintf(stderr, "iosched: compare: %s:%d: job '%s' sets %s; the columns "
				"would write their logs over the same files: get logs with "
				"'iosched run --scheduler S' per scheduler\n", j->file ? j->file : "?",
				j->line, j->name ? j->name : "", opt);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	}

	pool.jf = &jf;
	pool.base = &o.cfg;
	pool.cols = cols;
	pool.nr = nr_cols;
	pool.fail_min = nr_cols;
	pool.slots = calloc(nr_cols, sizeof(*pool.slots));
	runs = calloc(nr_cols, sizeof(*runs));
	if (workers < 1)
		workers = 1;
	nr_th = (size_t)workers < nr_cols ? (size_t)workers : nr_cols;
	th = calloc(nr_th, sizeof(*th));
	if (!pool.slots || !runs || !th) {
		fprintf(stderr, "iosched: out of memory\n");
		goto out;
	}
	cli_progress_init(&prog);
	pool.progress = prog.tty;
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.cond, NULL);
	for (size_t t = 0; t < nr_th; t++) {
		if (pthread_create(&th[t], NULL, cmp_worker, &pool)) {
			/* fewer workers than asked: the ones running do all the work */
			nr_th = t;
			break;
		}
	}
	if (!nr_th)
		cmp_worker(&pool);
	cmp_wait(&pool, &prog);
	for (size_t t = 0; t < nr_th; t++)
		pthread_join(th[t], NULL);
	pthread_cond_destroy(&pool.cond);
	pthread_mutex_destroy(&pool.lock);

	if (pool.fail_min < nr_cols) {
		struct cmp_slot *s = &pool.slots[pool.fail_min];

		fprintf(stderr, "iosched: compare: %s: %s\n", cols[pool.fail_min].label,
			s->err.msg[0] ? s->err.msg : strerror(-s->ret));
		goto out;
	}
	for (size_t c = 0; c < nr_cols; c++)
		runs[c] = pool.slots[c].run;
	{
		struct ios_cmp_report rep = {
			.jobfiles = o.jobs,
			.nr_jobfiles = (size_t)o.nr_jobs,
			.runs = runs,
			.nr_runs = nr_cols,
			.shares = shares,
		};

		ios_buf_init(&out);
		ret = !strcmp(o.fmt, "json") ? ios_cmp_report_json(&rep, &out)
					     : ios_cmp_report_text(&rep, &out);
		if (ret)
			fprintf(stderr, "iosched: out of memory writing the report\n");
		else if (!cli_write_output(o.outfile, &out))
			rc = CLI_EXIT_OK;
		ios_buf_free(&out);
	}
	if (rc == CLI_EXIT_OK && plot && cmp_plot(plot, &o, cols, pool.slots, nr_cols))
		rc = CLI_EXIT_FAIL;
out:
	if (pool.slots)
		for (size_t c = 0; c < nr_cols; c++) {
			ios_cmp_run_free(&pool.slots[c].run);
			ios_series_free(pool.slots[c].series);
			free(pool.slots[c].series);
		}
	free(pool.slots);
	free(runs);
	free(th);
	ios_cmp_columns_free(cols, nr_cols);
	ios_jobfile_free(&jf);
	cli_run_opts_free(&o);
	return rc;
}
