/*
 * libFuzzer target for the DiskSim validate trace reader
 * (src/trace/disksim_trace.c, iosched validate): arbitrary bytes go through
 * ios_dstrace_parse.
 *
 * Properties checked beyond "no crash, no sanitizer report":
 * - a refused input always says why, naming the file;
 * - an accepted input holds one record per line, in line order, each with
 *   a count in 1..IOS_DSTRACE_MAX_BCOUNT and times finite, non-negative and
 *   within IOS_DSTRACE_MAX_US, and the reads and writes add up;
 * - small accepted inputs also replay, on the built-in "ssd" profile cut
 *   to 1 GiB: a finite demerit, or a refusal with a message (a block past
 *   the end). The corpus's COPYING (DiskSim's license, which travels with
 *   the excerpts) is one more input, refused.
 *
 * Build: make fuzz; run: build/fuzz/fuzz_disksim_trace tests/fuzz/corpus-disksim-trace
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void replay_small(const struct ios_dstrace *t)
{
	struct ios_settings set = { 0 };
	struct ios_validate_result r;
	struct ios_err e = { 0 };
	struct ios_dev *dev;

	if (ios_settings_add_kv(&set, "device.capacity=1", "fuzz", &e))
		abort();
	dev = ios_dev_create("ssd", &set, 1, &e);
	if (!dev)
		abort();
	if (ios_validate_run(t, dev, NULL, &r, &e)) {
		if (!e.msg[0])
			abort();
	} else {
		if (r.n != t->n || !(r.rms_ms >= 0) || !isfinite(r.rms_ms))
			abort();
		ios_validate_result_free(&r);
	}
	ios_dev_destroy(dev);
	ios_settings_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_dstrace *t;
	struct ios_err e = { 0 };
	uint64_t reads = 0, writes = 0;

	if (ios_dstrace_parse("fuzz.trace", (const char *)data, size, &t, &e)) {
		if (!e.msg[0] || !strstr(e.msg, "fuzz.trace") || t)
			abort();	/* every error must say why, and where */
		return 0;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ios_dstrace_rec *r = &t->v[i];

		if (r->line != i + 1 || r->bcount < 1 || r->bcount > IOS_DSTRACE_MAX_BCOUNT)
			abort();
		if (!(r->serv_us >= 0 && r->serv_us <= IOS_DSTRACE_MAX_US) ||
		    !(r->next_us >= 0 && r->next_us <= IOS_DSTRACE_MAX_US))
			abort();
		if (r->dir == IOS_READ)
			reads++;
		else if (r->dir == IOS_WRITE)
			writes++;
		else
			abort();
	}
	if (!t->n || reads != t->reads || writes != t->writes)
		abort();
	if (size <= 4096)
		replay_small(t);
	ios_dstrace_free(t);
	return 0;
}
