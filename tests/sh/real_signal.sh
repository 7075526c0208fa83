#!/bin/sh
# Description: SIGINT and SIGTERM under --real (issue 28, item 3): the run
# stops as fio's does on a signal. It says "terminating on signal N" at once,
# the jobs stop issuing, in-flight I/O is reaped, the normal report of what
# was done is printed (valid JSON with the bytes read), and the exit status
# is fio 3.33's after a signal, 128. Bounds: the 30 s time_based job must
# end within 15 s of the signal (a loaded machine reaps 16 reads in far
# less), and must have run at least 0.2 s. Skipped (77) without io_uring.
# (sh starts a background command with SIGINT ignored; iosched, as fio,
# installs its handler all the same, so the INT case is a real one.)
BIN=${IOSCHED_BIN:-./iosched}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
d=$(mktemp -d)
pid=""
cleanup() {
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	rm -rf "$d"
}
trap cleanup EXIT
cd "$d" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
printf '[a]\nrw=randread\nsize=8m\nbs=4k\nioengine=libaio\niodepth=16\ndirect=1\nfilename=data\n' >lay.fio
timeout 60 "$BIN" run lay.fio --real >out 2>&1 || { echo "SKIP all: --real does not run here: $(head -1 out)"; exit 77; }

# check SIG NUM COMMAND...: COMMAND is sent SIG (number NUM) after 1.5 s
check() {
	sig=$1; num=$2; shift 2
	"$@" >out 2>err &
	pid=$!
	sleep 1.5
	kill -"$sig" "$pid" || fail "$sig: the run had ended before the signal: $(cat err)"
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 150 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 "$pid" 2>/dev/null && fail "$sig: still running 15 s after the signal"
	wait "$pid"
	rc=$?
	pid=""
	grep -q "Sanitizer" err && fail "$sig: $(grep -A3 Sanitizer err | head -8)"
	[ $rc -eq 128 ] || fail "$sig: exit $rc, want 128 as fio ($(cat err))"
	grep -q "^iosched: terminating on signal $num" err || fail "$sig: no 'terminating on signal $num' in: $(cat err)"
	tr -d ' \n' <out >flat
	grep -q '"read":{"io_bytes":[1-9]' flat || fail "$sig: no report with bytes read: $(head -c 300 out)"
	ms=$(sed -n 's/.*"job_runtime":\([0-9]*\).*/\1/p' flat | head -1)
	[ -n "$ms" ] && [ "$ms" -ge 200 ] && [ "$ms" -lt 29000 ] || fail "$sig: job_runtime=$ms ms, want 200..29000"
}
printf '[a]\nrw=randread\nsize=8m\nbs=4k\nioengine=libaio\niodepth=16\ndirect=1\nfilename=data\ntime_based\nruntime=30\n' >s.fio
check INT 2 "$BIN" run s.fio --real --output-format=json
check TERM 15 "$BIN" fio --real --output-format=json s.fio
echo "real_signal: 2 cases"
exit 0
