#!/bin/sh
# Description: vm.dirty_ratio below 5 and a background ratio not below the
# dirty limit are adjusted as Linux 2.6.31's get_dirty_limits adjusts them
# (dirty limit at least 5 % of memory, background threshold half the limit),
# and the run says so on stderr; default settings draw no warning.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/w.fio" <<'JOB'
[writer]
rw=write
bs=64k
size=48m
JOB
fail() { echo "FAIL: $*"; exit 1; }
"$BIN" run "$dir/w.fio" --set vm.memory=64 --set vm.dirty_ratio=1 \
	--set vm.dirty_background_ratio=100 --output-format json >"$dir/a.json" 2>"$dir/a.err" ||
	fail "run exit $?"
grep -q "warning: vm.dirty_ratio=1 counts as 5" "$dir/a.err" || { cat "$dir/a.err"; fail "no dirty_ratio warning"; }
grep -q "warning: vm.dirty_background_ratio=100 is not below the dirty limit (819 pages).*409 pages" "$dir/a.err" ||
	{ cat "$dir/a.err"; fail "no dirty_background_ratio warning"; }
# 64 MiB = 16384 pages: 1 % would throttle near 163 dirty pages, 5 % near 819
max=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iosched"]["vm_stats"]["max_dirty_pages"])' "$dir/a.json")
[ "$max" -gt 700 ] && [ "$max" -le 900 ] || fail "max_dirty_pages $max, want the 5% limit (819) plus one write"
"$BIN" run "$dir/w.fio" --set vm.memory=64 >/dev/null 2>"$dir/b.err" || fail "default run exit $?"
[ -s "$dir/b.err" ] && { cat "$dir/b.err"; fail "warnings with default settings"; }
echo PASS
