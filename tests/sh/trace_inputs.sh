#!/bin/sh
# Description: traces as inputs of compare and replay. compare TRACE (told
# from a job file by content: blktrace magic, NAME.blktrace.N, an iolog's
# first line; a fio iolog too) replays the trace under every column, one job per traced
# process, and its cells are what replay gives under that scheduler; a
# trace beside job files, or with --real, is refused with a message. A
# trace that reaches past the simulated disk is refused naming the
# device.capacity that holds it, and replays with it. The trace's device
# number is told once on stderr where it says the disk differed (NVMe
# major 259 on a rotating profile, a loop device), and not otherwise.
BIN=${IOSCHED_BIN:-./iosched}
data=tests/data/ftrace-loop
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
for cpu in 0 1; do
	gzip -dc "$data/loop0.blktrace.$cpu.gz" >"$dir/loop0.blktrace.$cpu" || fail "gunzip"
done

# ---- compare on the kernel trace (loop0: fio's reader and writer) ----
timeout 300 "$BIN" compare "$dir/loop0" --schedulers noop,cfq --output-format json \
	>"$dir/c.json" 2>"$dir/c.err" || { cat "$dir/c.err"; fail "compare TRACE failed"; }
n=$(grep -c 'note: .*loop device' "$dir/c.err")
[ "$n" -eq 1 ] || { cat "$dir/c.err"; fail "the loop-device note $n times (once wanted)"; }
[ "$(grep -vc 'note: .*loop device' "$dir/c.err")" -eq 0 ] || { cat "$dir/c.err"; fail "compare TRACE said more"; }
for s in noop cfq; do
	timeout 120 "$BIN" replay "$dir/loop0" --scheduler $s --output-format json \
		>"$dir/r.$s.json" 2>/dev/null || fail "replay under $s"
done
python3 - "$dir" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
c = json.load(open(d + '/c.json'))['iosched_compare']
runs = c['runs']
cols = [r['label'] for r in runs]
assert cols == ['noop', 'cfq'], cols
for k, run in enumerate(runs):
    names = [j['name'] for j in run['jobs']]
    assert names == ['pid28055', 'pid28056'], names
    # the replay 'iosched replay' does under that scheduler: bytes, worst latency
    r = json.load(open('%s/r.%s.json' % (d, cols[k])))
    for j, rj in zip(run['jobs'], r['jobs']):
        want = rj['read']['io_bytes'] + rj['write']['io_bytes']
        assert j['bytes'] == want, (cols[k], j['name'], j['bytes'], want)
        mx = max(rj['read']['clat_ns']['max'], rj['write']['clat_ns']['max'])
        assert j['clat_max_ns'] == mx, (cols[k], j['name'], j['clat_max_ns'], mx)
# the schedulers differ on it (else the test would not tell the columns apart)
assert runs[0]['all_jobs']['clat_max_ns'] != runs[1]['all_jobs']['clat_max_ns'] or \
    runs[0]['all_jobs']['makespan_ns'] != runs[1]['all_jobs']['makespan_ns'], runs
PY

# one of the per-CPU files names the set too, as blkparse -i takes it
timeout 300 "$BIN" compare "$dir/loop0.blktrace.1" --schedulers deadline >"$dir/c1.txt" 2>/dev/null ||
	fail "compare NAME.blktrace.1 failed"
grep -q pid28055 "$dir/c1.txt" || { cat "$dir/c1.txt"; fail "compare NAME.blktrace.1: no job pid28055"; }

# an iolog is told by its first line: one job, named after the log
printf 'fio version 2 iolog\n/tmp/f add\n/tmp/f open\n/tmp/f read 0 4096\n/tmp/f read 1048576 4096\n/tmp/f close\n' \
	>"$dir/app.iolog"
timeout 120 "$BIN" compare "$dir/app.iolog" --schedulers noop,deadline --output-format json >"$dir/i.json" \
	2>"$dir/i.err" || { cat "$dir/i.err"; fail "compare IOLOG failed"; }
python3 -c '
import json, sys
runs = json.load(open(sys.argv[1]))["iosched_compare"]["runs"]
assert [[(j["name"], j["bytes"]) for j in r["jobs"]] for r in runs] == [[("app.iolog", 8192)]] * 2, runs
' "$dir/i.json" || fail "compare IOLOG: not the log's two reads in each column"

# ---- refused: a trace beside a job file, --real ----
printf '[j]\nrw=read\nsize=1m\n' >"$dir/j.fio"
"$BIN" compare "$dir/j.fio" "$dir/loop0" >/dev/null 2>"$dir/e1" && fail "trace with a job file accepted"
grep -q "loop0 is a trace: compare replays one trace alone" "$dir/e1" || { cat "$dir/e1"; fail "trace + job: message"; }
"$BIN" compare "$dir/loop0" --real >/dev/null 2>"$dir/e2" && fail "compare TRACE --real accepted"
grep -q "is a trace: its replay runs on the simulated disk; --real is for job files" "$dir/e2" ||
	{ cat "$dir/e2"; fail "--real: message"; }
"$BIN" replay "$dir/loop0" --real >/dev/null 2>"$dir/e4" && fail "replay --real accepted (and simulated)"
grep -q "replay: --real: a trace replays on the simulated disk only" "$dir/e4" || { cat "$dir/e4"; fail "replay --real: message"; }
cp "$dir/loop0.blktrace.1" "$dir/keep.1"
"$BIN" compare "$dir/loop0" --output "$dir/loop0.blktrace.1" >/dev/null 2>"$dir/e5" &&
	fail "compare TRACE --output onto the trace accepted"
cmp -s "$dir/loop0.blktrace.1" "$dir/keep.1" || fail "compare TRACE --output overwrote the trace"
grep -q "is the trace .*refusing to overwrite it" "$dir/e5" || { cat "$dir/e5"; fail "--output onto the trace: message"; }
# a binary file that is no trace is still a job file, refused as one
printf 'x\000y' >"$dir/bin.fio"
"$BIN" compare "$dir/bin.fio" >/dev/null 2>"$dir/e3" && fail "binary job file accepted"
grep -q "NUL byte" "$dir/e3" || { cat "$dir/e3"; fail "binary job file: message"; }

# ---- synthetic traces: a device number, sectors far out ----
# $1 file, $2 major, $3 minor, $4 sector of the second read
mk() {
	python3 - "$@" <<'PY'
import struct, sys
path, maj, mn, far = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
dev = maj << 20 | mn
rec = struct.Struct('<IIQQIIIIIHH')
q = ((1 << 0 | 1 << 4) << 16) | 1     # read, queue category; BLK_TA_QUEUE
out = b''
for k, sec in enumerate((2048, far)):
    out += rec.pack(0x65617407, k, 1000000 * k, sec, 4096, q, 77, dev, 0, 0, 0)
open(path, 'wb').write(out)
PY
}
mk "$dir/nvme.bin" 259 0 4096
"$BIN" replay "$dir/nvme.bin" >/dev/null 2>"$dir/n1" || { cat "$dir/n1"; fail "replay nvme.bin"; }
[ "$(grep -c 'recorded on device 259,0, most likely an NVMe drive' "$dir/n1")" -eq 1 ] ||
	{ cat "$dir/n1"; fail "no NVMe note on hdd-2009"; }
grep -q -- '--device ssd-nvme' "$dir/n1" || { cat "$dir/n1"; fail "NVMe note: no --device"; }
"$BIN" replay "$dir/nvme.bin" --device ssd-nvme >/dev/null 2>"$dir/n2" || fail "replay on ssd-nvme"
[ ! -s "$dir/n2" ] || { cat "$dir/n2"; fail "a note on ssd-nvme"; }
mk "$dir/sd.bin" 8 16 4096
"$BIN" replay "$dir/sd.bin" >/dev/null 2>"$dir/n3" || fail "replay sd.bin"
[ ! -s "$dir/n3" ] || { cat "$dir/n3"; fail "a note for a SCSI disk, which says nothing"; }

# 400 GiB in: past hdd-2004's 160 GB; the message names a capacity that holds it
mk "$dir/far.bin" 8 0 $((400 * 2097152))
"$BIN" replay "$dir/far.bin" --device hdd-2004 >/dev/null 2>"$dir/f1" && fail "past the disk's end accepted"
grep -q "past the end of the simulated disk .*hdd-2004.*--set device.capacity=401GiB" "$dir/f1" ||
	{ cat "$dir/f1"; fail "capacity message"; }
"$BIN" replay "$dir/far.bin" --device hdd-2004 --set device.capacity=401GiB --output-format json \
	>"$dir/f.json" 2>"$dir/f2" || { cat "$dir/f2"; fail "the capacity the message named does not hold it"; }
"$BIN" compare "$dir/far.bin" --device hdd-2004 --schedulers noop >/dev/null 2>"$dir/f3" &&
	fail "compare: past the disk's end accepted"
grep -q "device.capacity=401GiB" "$dir/f3" || { cat "$dir/f3"; fail "compare: capacity message"; }
echo PASS
