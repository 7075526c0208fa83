#!/bin/sh
# Description: a genuine kernel trace replays. tests/data/ftrace-loop holds
# what the kernel's ftrace blk tracer (options/bin on) recorded on a loop
# device while real fio 3.33 ran tests/data/ftrace-loop/capture.fio (a libaio
# random reader at iodepth 8 and a buffered writer with end_fsync): 3621
# records, 1281 of them Q. trace.ftrace-bin.gz is the tracer's output as
# read from /sys/kernel/tracing/trace; loop0.blktrace.{0,1}.gz are the
# blktrace files scripts/ftrace-blk-to-blktrace.py made of it (docs/blktrace.md,
# "A kernel trace"). Checks: the script still makes exactly those files;
# blkparse reads them (when installed); iosched replay replays every Q.
BIN=${IOSCHED_BIN:-./iosched}
data=tests/data/ftrace-loop
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for cpu in 0 1; do
	gzip -dc "$data/loop0.blktrace.$cpu.gz" >"$dir/loop0.blktrace.$cpu" || fail "gunzip"
done
gzip -dc "$data/trace.ftrace-bin.gz" >"$dir/trace" || fail "gunzip"
mkdir "$dir/conv"
python3 scripts/ftrace-blk-to-blktrace.py "$dir/trace" "$dir/conv/loop0" 2>"$dir/conv.err" ||
	{ cat "$dir/conv.err"; fail "converter failed"; }
for cpu in 0 1; do
	cmp -s "$dir/conv/loop0.blktrace.$cpu" "$dir/loop0.blktrace.$cpu" ||
		fail "the converter's loop0.blktrace.$cpu differs from the fixture"
done
[ ! -e "$dir/conv/loop0.blktrace.2" ] || fail "a file for a CPU the trace does not have"

if command -v blkparse >/dev/null 2>&1; then
	blkparse -i "$dir/loop0" >"$dir/bp.txt" 2>&1 || fail "blkparse failed"
	grep -q "Events (loop0): 3621 entries" "$dir/bp.txt" || { tail -5 "$dir/bp.txt"; fail "blkparse: events"; }
	q=$(awk '$6 == "Q"' "$dir/bp.txt" | wc -l)
	[ "$q" -eq 1281 ] || fail "blkparse: $q Q events, expected 1281"
fi

timeout 60 "$BIN" replay "$dir/loop0" --output-format json >"$dir/r.json" 2>"$dir/r.err" ||
	{ cat "$dir/r.err"; fail "replay failed"; }
[ -s "$dir/r.err" ] && { cat "$dir/r.err"; fail "replay warned"; }
python3 - "$dir/r.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((j["jobname"], j["read"]["total_ios"], j["write"]["total_ios"], j["sync"]["total_ios"])
             for j in d["jobs"])
# fio's two processes: the reader's 256 reads; the writer's 1024 page writes
# (written back by its end_fsync, in its context) and the flush that ends it
want = [("pid28055", 256, 0, 0), ("pid28056", 0, 1024, 1)]
assert got == want, got
PY

# blktrace leaves an empty file for a CPU without events: that is no error
: >"$dir/e.blktrace.0"
cp "$dir/loop0.blktrace.1" "$dir/e.blktrace.1"
timeout 60 "$BIN" replay "$dir/e" --output-format json >"$dir/e.json" 2>"$dir/e.err" ||
	{ cat "$dir/e.err"; fail "replay with an empty per-CPU file failed"; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [j["read"]["total_ios"] for j in d["jobs"]] == [256], d["jobs"]' "$dir/e.json" ||
	fail "replay with an empty per-CPU file"
echo PASS
