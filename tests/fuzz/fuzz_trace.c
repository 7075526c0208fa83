/*
 * libFuzzer target for the trace readers of replay: arbitrary bytes go
 * through ios_replay_open_mem, whose format detection sends them to the
 * blktrace binary reader, the blkparse text reader or the fio iolog reader
 * (the seed corpus in tests/fuzz/corpus-trace has one of each, and the
 * mutations cross between them).
 *
 * Properties checked beyond "no crash, no sanitizer report":
 * - a refused input always says why (a message);
 * - an accepted input was checked completely: every stream's cursor reads
 *   to its end without an error, yields exactly the I/Os the check counted,
 *   each no earlier than the trace's start and inside the sectors the check
 *   reported;
 * - small accepted inputs also replay: the simulation runs them (noop on
 *   a 1 GiB SSD, simulated time capped) and finishes or fails with a
 *   message, never stalls silently. (device.capacity is in GiB: until
 *   issue 12 it was given 65536, 64 TiB, which ext3 refuses, so no input
 *   ever got past set-up.)
 *
 * Build: make fuzz; run: build/fuzz/fuzz_trace tests/fuzz/corpus-trace
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void replay_small(struct ios_replay *r)
{
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };

	if (ios_settings_add_kv(&set, "lab.max_sim_time=2", "fuzz", &e) ||
	    ios_settings_add_kv(&set, "device.capacity=1", "fuzz", &e))
		abort();
	cfg.scheduler = "noop";
	cfg.device = "ssd";
	cfg.settings = &set;
	cfg.seed = 1;
	if (ios_replay_run(r, &cfg, &res, &e)) {
		if (!e.msg[0])
			abort();
	} else {
		ios_run_result_free(&res);
	}
	ios_settings_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_replay *r;
	struct ios_err e = { 0 };
	uint64_t total = 0;

	if (ios_replay_open_mem("fuzz.trace", data, size, &r, &e)) {
		if (!e.msg[0])
			abort();	/* every error must say why */
		return 0;
	}
	for (size_t i = 0; i < ios_replay_nr_streams(r); i++) {
		const struct ios_replay_stream *s = ios_replay_stream(r, i);
		struct ios_replay_cursor *c;
		struct ios_replay_rec rec;
		uint64_t n = 0;
		int ret;

		if (ios_replay_cursor_open(r, i, &c, &e))
			abort();
		while ((ret = ios_replay_cursor_next(c, &rec, &e)) > 0) {
			n++;
			if (rec.sector + rec.nr_sectors > s->max_end)
				abort();
		}
		if (ret < 0 || n != s->nr_ios)
			abort();	/* the check accepted what a cursor then refuses */
		total += n;
		ios_replay_cursor_close(c);
	}
	if (total != ios_replay_info(r)->nr_ios || ios_replay_buffered(r, NULL))
		abort();
	if (size <= 4096)
		replay_small(r);
	ios_replay_close(r);
	return 0;
}
