/*
 * libFuzzer target for the blkparse-text and fio-iolog readers, replayed
 * under CFQ and BFQ. fuzz_trace checks the readers and replays under noop
 * only, which cannot reach scheduler state; here every accepted text or
 * iolog input is replayed twice: under one of the CFQ profiles (picked by
 * the input's length) and under BFQ, each on the SSD and on the 2009 disk
 * in turn, with a small device and simulated time capped. Traced processes
 * come and go (a stream's task exits after its last I/O, often with I/O
 * still in flight), which is the life the per-process scheduler contexts
 * must survive. Binary blktrace inputs are left to fuzz_trace.
 *
 * Properties: no crash, no sanitizer report, no invariant abort; a refused
 * input or a failed replay says why (a message).
 *
 * Build: make fuzz; run: build/fuzz/fuzz_replay tests/fuzz/corpus-replay
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iosched/ios.h"
#include "iosched/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_replay(struct ios_replay *r, const char *sched, const char *device, int no_stall)
{
	struct ios_settings set = { 0 };
	struct ios_run_config cfg = { 0 };
	struct ios_run_result res;
	struct ios_err e = { 0 };

	if (ios_settings_add_kv(&set, "lab.max_sim_time=2", "fuzz", &e) ||
	    ios_settings_add_kv(&set, "device.capacity=1", "fuzz", &e) ||
	    (no_stall && ios_settings_add_kv(&set, "replay.no_stall=1", "fuzz", &e)))
		abort();
	cfg.scheduler = sched;
	cfg.device = device;
	cfg.settings = &set;
	cfg.seed = 1;
	if (ios_replay_run(r, &cfg, &res, &e)) {
		if (!e.msg[0])
			abort();	/* a failed replay must say why */
	} else {
		ios_run_result_free(&res);
	}
	ios_settings_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const cfqs[] = { "cfq", "cfq-2.6.33", "cfq-4.19" };
	struct ios_replay *r;
	struct ios_err e = { 0 };
	const char *device = size & 4 ? "ssd" : "hdd-2009";

	if (size > 8192)
		return 0;
	if (ios_replay_open_mem("fuzz.trace", data, size, &r, &e)) {
		if (!e.msg[0])
			abort();	/* every error must say why */
		return 0;
	}
	if (ios_replay_info(r)->format != IOS_REPLAY_BLKTRACE) {
		fz_replay(r, cfqs[size % 3], device, (size >> 3) & 1);
		fz_replay(r, "bfq", device, (size >> 3) & 1);
	}
	ios_replay_close(r);
	return 0;
}
