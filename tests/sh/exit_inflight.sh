#!/bin/sh
# Description: tasks that exit with their I/O still queued or in the device
# (cut off by runtime=, or readahead they never waited for) leave the
# scheduler's per-process context to their requests: every scheduler and
# profile finishes such runs with exit 0 and a report, and under the
# AddressSanitizer build (make check-asan) touches no freed context.
# Regression for the CFQ cic freed at task exit (issue 12, item 1): the
# two-job file ran on freed memory, the 5,000-job one died with SIGSEGV
# (exit 139) in the normal build.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/two.fio" <<'JOB'
[global]
size=1m
runtime=50ms
[j]
numjobs=2
JOB
cat >"$dir/readahead.fio" <<'JOB'
[global]
size=4m
bs=4k
[seq]
rw=read
runtime=20ms
[rand]
rw=randread
runtime=30ms
[writer]
rw=write
size=2m
runtime=10ms
JOB
{
	printf '[global]\nsize=256k\nruntime=2ms\n'
	i=0
	while [ $i -lt 400 ]; do printf '[j%d]\n' $i; i=$((i + 1)); done
} >"$dir/many.fio"
{
	printf '[global]\nmax_jobs=5000\nsize=1m\nruntime=50ms\n'
	i=0
	while [ $i -lt 5000 ]; do printf '[j%d]\n' $i; i=$((i + 1)); done
} >"$dir/many5000.fio"
status=0
# the issue's 5,000 one-line sections: SIGSEGV under the old CFQ, normal build
"$BIN" run "$dir/many5000.fio" >"$dir/out" 2>"$dir/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: many5000.fio under cfq exited $rc"; tail -20 "$dir/err"; status=1
fi
for s in cfq cfq-2.6.33 cfq-4.19 bfq as deadline noop; do
	for j in two readahead many; do
		"$BIN" run "$dir/$j.fio" --scheduler "$s" >"$dir/out" 2>"$dir/err"
		rc=$?
		if [ $rc -ne 0 ]; then
			echo "FAIL: $j.fio under $s exited $rc"; tail -20 "$dir/err"; status=1
		elif ! grep -q "Run status group" "$dir/out"; then
			echo "FAIL: $j.fio under $s: no report"; status=1
		fi
	done
done
exit $status
