#!/bin/sh
# Description: memory follows the work done, not an option's value (issue 28,
# item 8). Each case runs under an address-space limit (ulimit -v) that the
# work fits in many times over and the value-sized allocation does not:
#  - fio --status-interval=1ms: each interim report is written when it is
#    made, as fio prints it, instead of all being held to the end (was: the
#    whole output in memory, 0.8 GB of JSON for 120 simulated seconds),
#    and a write error while streaming ends the run with exit 1;
#  - numjobs=1000000 with max_jobs=1000000: refused before a task is
#    allocated, from the options alone, at once (was: 1.2 GB and 5-19 s of
#    set-up before the refusal at 262144 files).
# The sanitizer builds reserve terabytes of address space, so there the
# limit cannot be set and the cases are skipped.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; [ -f "$dir/err" ] && sed 's/^/  stderr: /' "$dir/err" | head -5; exit 1; }
if [ "${BUILD:-build}" != build ]; then
	echo "mem_bounds: skipped under $BUILD (ulimit -v and the sanitizers do not mix)"
	exit 0
fi
# about 60 MB of address space is the binary's own; 150 MB leaves room for
# the run and none for the 300 MB of reports
LIMIT_KB=150000

# 12 simulated seconds at 1 ms: 12000 interim JSON reports of 4 jobs, about
# 300 MB in all, counted as they stream by rather than stored
(
	ulimit -v $LIMIT_KB || exit 99
	{ timeout 120 "$BIN" fio --output-format=json --status-interval=1ms --name=j \
		--rw=randread --size=16m --numjobs=4 --time_based --runtime=12 2>"$dir/err"
	  echo $? >"$dir/rc"; } | awk '/^\{/ { o++ } /^\}/ { c++ } { b += length($0) + 1 }
		END { print o, c, b }' >"$dir/count"
)
[ $? -eq 99 ] && { echo "mem_bounds: skipped (ulimit -v refused)"; exit 0; }
rc=$(cat "$dir/rc")
[ "$rc" = 124 ] && fail "--status-interval=1ms: no end within 120 s"
[ "$rc" = 0 ] || fail "--status-interval=1ms under ulimit -v $LIMIT_KB KB: exit $rc, expected 0 (the interim reports must be written as they are made, not held in memory)"
set -- $(cat "$dir/count")
[ "$1" = 12001 ] && [ "$2" = 12001 ] ||
	fail "--status-interval=1ms for 12 s: $1 JSON objects opened and $2 closed, expected 12001 (12000 interim and the final)"
[ "$3" -gt $((LIMIT_KB * 1024)) ] ||
	fail "the reports were $3 bytes, not more than the $LIMIT_KB KB limit: the case proves nothing"

# the reports stream into --output=FILE as into stdout, byte for byte
args="--status-interval=50ms --name=a --rw=randrw --size=4m --name=b --rw=write --size=2m"
"$BIN" fio $args >"$dir/stdout" 2>"$dir/err" || fail "exit $?: fio $args"
"$BIN" fio --output="$dir/file" $args >"$dir/none" 2>"$dir/err" || fail "exit $?: fio --output $args"
[ -s "$dir/none" ] && fail "--output=FILE with --status-interval: reports on stdout"
cmp -s "$dir/stdout" "$dir/file" || fail "--status-interval: --output=FILE differs from stdout"
[ "$(grep -c '^Run status group 0' "$dir/file")" -ge 4 ] ||
	fail "--status-interval=50ms: fewer than 4 reports (3 interim and the final)"
# a write error while streaming fails the run cleanly: the jobs stop, their
# I/O completes (stopping the clock instead aborted in the queue's teardown)
if [ -w /dev/full ]; then
	"$BIN" fio --output=/dev/full --status-interval=10ms --name=a --rw=randread --size=16m \
		--time_based --runtime=1 >/dev/null 2>"$dir/err"
	rc=$?
	[ $rc = 1 ] || fail "--output=/dev/full with --status-interval: exit $rc, expected 1"
	grep -q "the report at 0.010 s could not be written: No space left on device" "$dir/err" ||
		fail "--output=/dev/full: no message naming the report and the error"
fi

# a million clones, each with its file: refused from the options, within
# 5 s (generous for a busy machine; it takes milliseconds) and the memory limit
printf '[global]\nmax_jobs=1000000\nsize=4k\n[j]\nrw=read\nnumjobs=1000000\n' >"$dir/mj.fio"
start=$(date +%s)
(
	ulimit -v $LIMIT_KB
	timeout 60 "$BIN" run "$dir/mj.fio" >/dev/null 2>"$dir/err"
)
rc=$?
took=$(($(date +%s) - start))
[ $rc = 2 ] || fail "numjobs=1000000 under ulimit -v $LIMIT_KB KB: exit $rc, expected 2 (refused before a task is allocated)"
grep -q "mj.fio:4: job 'j': numjobs=1000000 with nrfiles=1: 1000000 files in all .*more than the 262144 one run simulates" "$dir/err" ||
	fail "numjobs=1000000: the message names no file, line, job, option or limit"
[ $took -le 5 ] || fail "numjobs=1000000: refused after $took s, expected within 5 s (before anything is allocated)"

echo "mem_bounds: --status-interval=1ms streamed $3 bytes, numjobs=1000000 refused in $took s, under ulimit -v $LIMIT_KB KB"
