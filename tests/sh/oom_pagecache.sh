#!/bin/sh
# Description: a process that runs out of memory fails with a message
# instead of waiting for ever. The page cache's pc_alloc returns no page both
# when the cache is full (a reader waits for writeback or a read to free one)
# and when malloc fails; the second used to park the reader among the memory
# waiters with nothing in flight to wake it, and the run went on to the end of
# the simulated clock (hours of wall time). Here a huge vm.memory and a small
# address-space limit make malloc fail: the run must end within 60 s with
# exit 1 and "out of memory". The sanitizer builds reserve terabytes of
# address space, so there the limit cannot be set and the case is skipped.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; sed 's/^/  stderr: /' "$dir/err"; exit 1; }
if [ "${BUILD:-build}" != build ]; then
	echo "oom_pagecache: skipped under $BUILD (ulimit -v and the sanitizers do not mix)"
	exit 0
fi
printf '[j]\nsize=20g\nrw=read\nbs=1m\n' >"$dir/j.fio"
(
	ulimit -v 300000 || exit 99
	timeout 60 "$BIN" run "$dir/j.fio" --set vm.memory=1048576 --device ssd-nvme \
		>"$dir/out" 2>"$dir/err"
)
rc=$?
[ "$rc" -eq 99 ] && { echo "oom_pagecache: skipped (ulimit -v refused)"; exit 0; }
[ "$rc" -eq 124 ] && fail "no end within 60 s: the reader waits for memory that never comes"
[ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
# where malloc fails first decides who reports it: the run (stderr) or the
# job (err=12 in its output); which one depends on a few bytes of address space
grep -q "out of memory" "$dir/err" || grep -q "err=12 (Cannot allocate memory)" "$dir/out" ||
	fail "no 'out of memory' message"
echo "oom_pagecache: out of memory reported, exit 1"
