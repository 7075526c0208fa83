/*
 * libFuzzer target for the sweep grid parser (src/exp/sweep.c): any bytes
 * as a grid file. An accepted grid is expanded into its manifest (the job
 * files' inputs named by a fixed hash), and the manifest must read back
 * with the grid's task count, every task's point being task / seeds. The
 * manifest reader then gets the input bytes too, and the result reader
 * the input against a one-task plan.
 *
 * Properties: no crash, no sanitizer report; a refused input says why (a
 * message). Build: make fuzz; run:
 * build/fuzz/fuzz_sweep_grid tests/fuzz/corpus-sweep
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fz_sha[] = "0000000000000000000000000000000000000000000000000000000000000000";

static void fz_manifest(struct ios_sweep_grid *g)
{
	struct ios_sweep_manifest m;
	struct ios_err e = { 0 };
	struct ios_buf b;
	size_t seeds = g->seed.n ? g->seed.n : 1;

	for (size_t j = 0; j < g->nr_jobs; j++) {
		g->jobs[j].inputs = calloc(g->jobs[j].n, sizeof(char *));
		if (!g->jobs[j].inputs)
			abort();
		for (size_t i = 0; i < g->jobs[j].n; i++)
			if (!(g->jobs[j].inputs[i] = strdup("inputs/x.fio")))
				abort();
	}
	ios_buf_init(&b);
	if (ios_sweep_manifest_write(g, fz_sha, &b))
		abort();
	if (ios_sweep_manifest_parse("man", b.s, b.len, &m, &e) || m.nr_tasks != g->nr_tasks)
		abort();	/* what the writer wrote, the reader reads */
	for (size_t k = 0; k < m.nr_tasks; k++)
		if (m.tasks[k].point != k / seeds || !m.tasks[k].argc)
			abort();
	ios_sweep_manifest_free(&m);
	ios_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char one[] = IOS_SWEEP_MANIFEST_MAGIC "\ngrid 0000000000000000000000000000"
		"000000000000000000000000000000000000\ntasks 1\npoints 1\nseeds 1\n"
		"task 0\t0\t-\tjob=a.fio scheduler=noop\trun inputs/x.fio --scheduler noop\n";
	struct ios_sweep_grid g;
	struct ios_sweep_manifest m;
	struct ios_err e = { 0 };
	double v[IOS_SWEEP_NR_METRICS];
	size_t k;

	if (size > 2048)
		return 0;
	if (ios_sweep_grid_parse("fuzz.grid", (const char *)data, size, &g, &e)) {
		if (!e.msg[0])
			abort();	/* every refusal says why */
	} else {
		if (g.nr_tasks <= 4096)
			fz_manifest(&g);
		ios_sweep_grid_free(&g);
	}
	memset(&e, 0, sizeof(e));
	if (!ios_sweep_manifest_parse("man", (const char *)data, size, &m, &e))
		ios_sweep_manifest_free(&m);
	else if (!e.msg[0])
		abort();
	memset(&e, 0, sizeof(e));
	if (ios_sweep_manifest_parse("one", one, strlen(one), &m, &e))
		abort();
	if (ios_sweep_result_parse(&m, "r", (const char *)data, size, &k, v, &e)) {
		if (!e.msg[0])
			abort();
	} else if (k != 0) {
		abort();
	}
	ios_sweep_manifest_free(&m);
	return 0;
}
