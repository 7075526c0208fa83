#!/bin/sh
# Description: a run ends when its jobs are done and the queue is empty,
# even though a kernel timer goes on ticking on the idle queue. On a
# blk-mq queue of depth 2 (hdd-2004's one tag under mq-deadline or kyber:
# nr_requests 2; none on a two-tag disk) blk-wbt's window settles at
# scale_step -1 with max_depth 1, where Linux 6.12's wb_timer_fn re-arms
# it every 100 ms forever (rq_depth_scale_down refuses the step back). The
# run used to go on until lab.max_sim_time + 1 day (864,000 more events
# with lab.max_sim_time=0.3; forever with 0). Found by fuzz_settings
# (tests/fuzz/corpus-settings/stall-timer-mqdl-hdd2004).
BIN=${IOSCHED_BIN:-./iosched}
job=$(mktemp)
out=$(mktemp)
trap 'rm -f "$job" "$out"' EXIT
cat >"$job" <<'JOB'
[global]
size=512k
[w]
rw=write
bs=16k
fsync=8
[r]
rw=randread
bs=4k
direct=1
ioengine=libaio
iodepth=4
runtime=100ms
JOB
fail=0
check() {
	name=$1
	shift
	if ! "$BIN" run "$job" --seed 214 --set device.capacity=4 --set lab.max_sim_time=0.3 \
		--output-format json "$@" >"$out" 2>&1; then
		echo "$name: the run failed:"
		head -5 "$out"
		fail=1
		return
	fi
	end=$(sed -n 's/.*"sim_end_ns" : \([0-9]*\).*/\1/p' "$out")
	ev=$(sed -n 's/.*"nr_events" : \([0-9]*\).*/\1/p' "$out")
	# the jobs end near 135 ms; a few hundred events get them there
	if [ -z "$end" ] || [ "$end" -lt 100000000 ] || [ "$end" -gt 200000000 ]; then
		echo "$name: sim_end_ns '$end', expected the jobs' end near 135 ms"
		fail=1
	fi
	if [ -z "$ev" ] || [ "$ev" -gt 5000 ]; then
		echo "$name: $ev events: an idle timer kept the loop running past the jobs' end"
		fail=1
	fi
}
check "mq-deadline hdd-2004" --scheduler mq-deadline-6.12 --device hdd-2004
check "mq-deadline-6.6 hdd-2004" --scheduler mq-deadline-6.6 --device hdd-2004
check "kyber hdd-2004" --scheduler kyber-6.12 --device hdd-2004
check "none two tags" --scheduler none --device hdd-2009 --set device.hw_queue_depth=2
[ "$fail" = 0 ] || exit 1
echo "idle queue timer: runs end with their jobs"
