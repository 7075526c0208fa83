#!/bin/sh
# Description: the run says when 6.x dirty throttling (dirty_bdp.c,
# blk-mq with cgroup writeback) first found the global dirty pages above
# dirty_freerun_ceiling: JSON vm_stats over_freerun_ns. A buffered writer
# of 48 MiB in a cgroup with 64 MiB of memory passes it after some writes
# (not at 0, and before the writer ends); a writer of 1 MiB never does and
# has no such key, nor has a single-queue run (2.6.31's throttle).
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf '[w]\nrw=write\nbs=64k\nsize=%s\ncgroup=w\n' 48m >"$dir/big.fio"
printf '[w]\nrw=write\nbs=64k\nsize=%s\ncgroup=w\n' 1m >"$dir/small.fio"
key() {
	python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))["iosched"]["vm_stats"].get("over_freerun_ns")
print(-1 if v is None else v)' "$1"
}
"$BIN" run "$dir/big.fio" --scheduler none --set vm.memory=64 --output-format json \
	>"$dir/big.json" 2>/dev/null || fail "big run"
"$BIN" run "$dir/small.fio" --scheduler none --set vm.memory=64 --output-format json \
	>"$dir/small.json" 2>/dev/null || fail "small run"
"$BIN" run "$dir/big.fio" --scheduler noop --set vm.memory=64 --output-format json \
	>"$dir/sq.json" 2>/dev/null || fail "single-queue run"
big=$(key "$dir/big.json")
fin=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(j["job_runtime"])' "$dir/big.json")
[ "$big" -gt 0 ] || fail "over_freerun_ns $big for 48 MiB in 64 MiB"
[ "$big" -lt $((fin * 1000000)) ] || fail "over_freerun_ns $big after the writer's runtime ${fin} ms"
[ "$(key "$dir/small.json")" = -1 ] || fail "1 MiB passed the freerun ceiling"
[ "$(key "$dir/sq.json")" = -1 ] || fail "a single-queue run reports over_freerun_ns"
echo "PASS: over the freerun ceiling at $big ns of a ${fin} ms writer"
