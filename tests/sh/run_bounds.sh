#!/bin/sh
# Description: wall time follows the work done, not simulated idle time, and
# a run cut short says so. Each case has a wall-clock limit of 10 s; before
# the fix they ran for minutes or hours (times in the comments).
#  - time_based without runtime: fio 3.33 says "time_based requires a
#    runtime/timeout setting" and runs the job without time_based (was: a
#    simulated day of rereading, about 3 h of wall time);
#  - thinktime=1000000000s: the bw/iops windows of a sleeping task are
#    added when it wakes, not ticked every 500 ms (was: 2e9 ticks, 2 min),
#    and the sleep ends at the job's deadline;
#  - the same with lab.max_sim_time=0, and a replayed trace with a record
#    near 2^64 ns: the run stops at the end of the simulated clock (was: no
#    end);
#  - lab.max_sim_time stopping a replay or a job: a warning with the limit
#    and the counts, the job stays in the text report, and the JSON report
#    lists it under iosched.cut_short.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; [ -f "$dir/err" ] && sed 's/^/  stderr: /' "$dir/err"; exit 1; }
run() { # output file, iosched arguments...
	o=$1; shift
	timeout 10 "$BIN" "$@" >"$o" 2>"$dir/err"
	rc=$?
	[ $rc -eq 124 ] && fail "no end within 10 s of wall time: $*"
	[ $rc -eq 0 ] || fail "exit $rc: $*"
}
json() { # file, python expression on d
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

printf '[tb]\nrw=read\nsize=8m\ntime_based\n' >"$dir/tb.fio"
run "$dir/tb.json" run "$dir/tb.fio" --output-format json
grep -q "warning: .*tb.fio:1: job 'tb': time_based requires a runtime/timeout setting" "$dir/err" ||
	fail "no time_based warning"
[ "$(json "$dir/tb.json" 'd["jobs"][0]["read"]["io_bytes"]')" = 8388608 ] ||
	fail "time_based without runtime should read the file once"

printf '[think]\nrw=read\nsize=1m\nbs=4k\nthinktime=1000000000s\n' >"$dir/tt.fio"
run "$dir/tt.json" run "$dir/tt.fio" --output-format json
# the job sleeps until lab.max_sim_time (one day): 172800 windows of 500 ms
[ "$(json "$dir/tt.json" 'd["jobs"][0]["job_runtime"]')" = 86400000 ] || fail "thinktime runtime"
[ "$(json "$dir/tt.json" 'd["jobs"][0]["read"]["bw_samples"]')" = 172800 ] || fail "bw_samples"
[ "$(json "$dir/tt.json" 'd["jobs"][0]["read"]["iops_samples"]')" = 172800 ] || fail "iops_samples"
grep -q "job 'think' (pid 1000): stopped by lab.max_sim_time=86400 s: 1 I/Os, 4096 of 1048576 bytes issued" "$dir/err" ||
	fail "no warning for the job lab.max_sim_time stopped"

run "$dir/tt0.json" run "$dir/tt.fio" --output-format json --set lab.max_sim_time=0
grep -q "stopped by the end of the simulated clock" "$dir/err" || fail "no clock-end warning"

printf '  8,0    0        1     0.000000000  1234  Q  RS 100016 + 8 [fio]\n' >"$dir/gap.txt"
printf '  8,0    0        2     0.001000000  1234  Q  RS 100024 + 8 [fio]\n' >>"$dir/gap.txt"
printf '  8,0    0        3 18446744072.000000000  1234  Q  RS 100032 + 8 [fio]\n' >>"$dir/gap.txt"
run "$dir/gap.out" replay "$dir/gap.txt" --set lab.max_sim_time=0
grep -q "warning: replay of process 1234 (fio): stopped by the end of the simulated clock .*: 2 of 3 I/Os replayed" "$dir/err" ||
	fail "no warning for the replay gap"
run "$dir/gap.out" replay "$dir/gap.txt" --set lab.max_sim_time=0.0005
grep -q "warning: replay of process 1234 (fio): stopped by lab.max_sim_time=0.0005 s: 1 of 3 I/Os replayed" "$dir/err" ||
	fail "no warning for the replay lab.max_sim_time stopped"

printf '[w]\nrw=write\nsize=64m\nbs=64k\n' >"$dir/w.fio"
run "$dir/w.out" run "$dir/w.fio" --set lab.max_sim_time=100ns
grep -q "^w: (groupid=0, jobs=1)" "$dir/w.out" || fail "the job cut at 100 ns left the report"
# the first write goes out at time 0, before the limit
grep -q "job 'w' (pid 1000): stopped by lab.max_sim_time=1e-07 s: 1 I/Os, 65536 of 67108864 bytes issued" "$dir/err" ||
	fail "no warning for the job cut at 100 ns"
# the JSON report names the cut job too (iosched.cut_short), and only it
printf '[r]\nrw=read\nsize=64k\n[w]\nrw=write\nsize=64m\nbs=64k\n' >"$dir/rw.fio"
run "$dir/rw.json" run "$dir/rw.fio" --set lab.max_sim_time=10ms --output-format json
[ "$(json "$dir/rw.json" 'd["iosched"]["cut_short"]')" = "[{'job': 1, 'jobname': 'w'}]" ] ||
	fail "cut_short in the JSON report: $(json "$dir/rw.json" 'd["iosched"].get("cut_short")')"
# a job that ends on its own draws no such warning
run "$dir/w2.out" run "$dir/w.fio"
[ -s "$dir/err" ] && fail "warnings for a whole run"
run "$dir/w2.json" run "$dir/w.fio" --output-format json
[ "$(json "$dir/w2.json" '"cut_short" in d["iosched"]')" = False ] || fail "cut_short in a whole run"
echo PASS
