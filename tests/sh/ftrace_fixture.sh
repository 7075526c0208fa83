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
# With --comms (the tracer's saved_cmdlines) the processes are named, in
# blkparse and in the replay's jobs; "CPU:N [LOST M EVENTS]" lines in the
# tracer's output and --stats files with "overrun: M" are counted and said
# (exit status 3, 0 with --allow-lost); malformed side files are refused.
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
# the one thing said: the trace is a loop device's (cmd_replay.c)
[ "$(wc -l <"$dir/r.err")" -eq 1 ] && grep -q "^iosched: note: .*loop0 was recorded on device 7,0, a loop device" "$dir/r.err" ||
	{ cat "$dir/r.err"; fail "replay said other than the loop-device note"; }
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
# ---- process names: the tracer's saved_cmdlines ----
printf '28055 fio\n28056 fio wr\n1 systemd\n' >"$dir/cmdlines"
mkdir "$dir/named"
python3 scripts/ftrace-blk-to-blktrace.py --comms "$dir/cmdlines" "$dir/trace" "$dir/named/loop0" \
	2>"$dir/named.err" || { cat "$dir/named.err"; fail "converter --comms failed"; }
timeout 60 "$BIN" replay "$dir/named/loop0" --output-format json >"$dir/n.json" 2>/dev/null ||
	fail "replay of the named trace failed"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((j["jobname"], j["read"]["total_ios"], j["write"]["total_ios"]) for j in d["jobs"])
assert got == [("fio", 256, 0), ("fio wr", 0, 1024)], got
' "$dir/n.json" || fail "replay: the processes are not named by the trace"
if command -v blkparse >/dev/null 2>&1; then
	blkparse -i "$dir/named/loop0" >"$dir/bpn.txt" 2>&1 || fail "blkparse of the named trace"
	grep -q "Events (loop0): 3621 entries" "$dir/bpn.txt" || fail "blkparse: the notes are counted as events"
	awk '$6 == "Q"' "$dir/bpn.txt" | grep -q '\[fio\]$' || fail "blkparse: Q lines not named [fio]"
fi
printf '28055\n' >"$dir/badcmd"
python3 scripts/ftrace-blk-to-blktrace.py --comms "$dir/badcmd" "$dir/trace" "$dir/x" 2>"$dir/bc.err" &&
	fail "a malformed saved_cmdlines accepted"
grep -q 'badcmd: line 1: .*expected "PID COMM"' "$dir/bc.err" || { cat "$dir/bc.err"; fail "saved_cmdlines message"; }

# ---- lost events: a "CPU:1 [LOST 42 EVENTS]" line between two entries ----
python3 - "$dir/trace" "$dir/lost" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
pos = 0
while data.startswith(b'#', pos):
    pos = data.index(b'\n', pos) + 1
for _ in range(100):     # past 100 entries: 16-byte ftrace header, 48-byte record, payload
    pos += 16 + 48 + struct.unpack_from('<H', data, pos + 16 + 46)[0]
open(sys.argv[2], 'wb').write(data[:pos] + b'CPU:1 [LOST 42 EVENTS]\n' + data[pos:])
PY
mkdir "$dir/l"
python3 scripts/ftrace-blk-to-blktrace.py "$dir/lost" "$dir/l/loop0" 2>"$dir/l.err"
rc=$?
[ "$rc" -eq 3 ] || { cat "$dir/l.err"; fail "lost events: exit $rc, expected 3"; }
grep -q "warning: you have 42 dropped events: the trace says 42 events lost (CPU 1: 42)" "$dir/l.err" ||
	{ cat "$dir/l.err"; fail "lost events: warning"; }
for cpu in 0 1; do
	cmp -s "$dir/l/loop0.blktrace.$cpu" "$dir/loop0.blktrace.$cpu" ||
		fail "lost events: the records around the line changed (CPU $cpu)"
done
printf 'entries: 100\noverrun: 7\ncommit overrun: 0\n' >"$dir/stats1"
printf 'entries: 100\noverrun: 0\n' >"$dir/stats0"
python3 scripts/ftrace-blk-to-blktrace.py --allow-lost --stats "$dir/stats0" --stats "$dir/stats1" \
	"$dir/trace" "$dir/l/s" 2>"$dir/s.err" || { cat "$dir/s.err"; fail "--allow-lost: non-zero exit"; }
grep -q "you have 7 dropped events: the tracer's stats count 7 overrun (.*stats1: 7)" "$dir/s.err" ||
	{ cat "$dir/s.err"; fail "overrun: warning"; }
grep -q "exit status 3" "$dir/s.err" && fail "--allow-lost still speaks of exit status 3"
python3 scripts/ftrace-blk-to-blktrace.py --stats "$dir/stats0" "$dir/trace" "$dir/l/z" 2>"$dir/z.err" ||
	fail "overrun: 0 made the converter fail"
grep -q dropped "$dir/z.err" && fail "overrun: 0 warned"
printf 'entries: 100\n' >"$dir/nostats"
python3 scripts/ftrace-blk-to-blktrace.py --stats "$dir/nostats" "$dir/trace" "$dir/l/y" 2>"$dir/y.err" &&
	fail "a stats file without overrun: accepted"
grep -q 'nostats: no "overrun:" line' "$dir/y.err" || { cat "$dir/y.err"; fail "stats message"; }
echo PASS
