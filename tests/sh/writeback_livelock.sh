#!/bin/sh
# Description: four buffered sequential read/write jobs sharing one file
# (libaio, iodepth 16, 40 s time_based: the shape of fio's fio-seq-RW
# example) finish under cfq and deadline. They used to livelock the flusher
# once runtime passed 30 s: with every dirty page of the file already under
# writeback, background writeback picked the same file again and again at
# one instant and simulated time stopped. Each run has a wall-clock limit.
BIN=${IOSCHED_BIN:-./iosched}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/seqrw.fio" <<'JOB'
[global]
filename=shared.dat
rw=rw
rwmixread=60
bs=256k
direct=0
numjobs=4
time_based
runtime=40
[shared]
size=10g
ioengine=libaio
iodepth=16
JOB
for s in cfq deadline; do
	out="$dir/out-$s.json"
	timeout 20 "$BIN" run "$dir/seqrw.fio" --scheduler "$s" --output-format json >"$out" 2>"$dir/err"
	rc=$?
	if [ $rc -eq 124 ]; then
		echo "FAIL: $s: no end within 20 s of wall time (writeback livelock)"; exit 1
	fi
	if [ $rc -ne 0 ]; then
		echo "FAIL: $s: exit $rc"; cat "$dir/err"; exit 1
	fi
	# every job ran its 40 s, wrote, and the flusher's writes reached the disk
	python3 - "$out" "$s" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
assert len(jobs) == 4, "jobs: %d" % len(jobs)
for j in jobs:
    rt = j["job_runtime"]
    assert 39900 <= rt <= 40100, "%s: job_runtime %d ms" % (sys.argv[2], rt)
    assert j["write"]["io_bytes"] > 0 and j["read"]["io_bytes"] > 0
disk = d["disk_util"][0]
assert disk["write_ios"] > 1000, "%s: disk write_ios %d" % (sys.argv[2], disk["write_ios"])
PY
done
echo PASS
